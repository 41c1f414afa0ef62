//! What can go wrong: a parameter out of range, a request too large.

/// Why a cave field or a request could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CaveError {
    /// A parameter is outside what the field supports.
    #[error("cave parameter `{name}` must be {allowed}, got {value}")]
    Param {
        /// The parameter's name as in [`crate::CaveParams`].
        name: &'static str,
        /// The value given, printed.
        value: String,
        /// What is allowed.
        allowed: &'static str,
    },
    /// A region, slice or ray is larger than the limit that keeps one
    /// call's memory bounded.
    #[error("{what} is too large: {got}, at most {max}")]
    TooLarge {
        /// What was asked for ("region", "slice", …).
        what: &'static str,
        /// The size asked for.
        got: u64,
        /// The largest allowed.
        max: u64,
    },
    /// A region, slice or picture side is empty.
    #[error("{what} must be at least 1, got 0")]
    Empty {
        /// What was asked for ("picture side", …).
        what: &'static str,
    },
    /// The noise core refused a derived noise (cannot happen for validated
    /// parameters; kept so a core change surfaces as an error, not a panic).
    #[error("noise: {0}")]
    Noise(String),
}
