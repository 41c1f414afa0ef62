//! What can go wrong: a parameter out of range, a request too large.

use mangekyo_core::{ParamError, Refusal};

/// Why a cave field or a request could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CaveError {
    /// A parameter (named as in [`crate::CaveParams`], or a chunk
    /// coordinate `cx`/`cy`/`cz`) is outside what the field supports.
    #[error("cave parameter `{}` must be {}, got {}", .0.name, .0.expected, .0.value)]
    Param(ParamError),
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

impl Refusal for CaveError {
    fn param(&self) -> Option<ParamError> {
        match self {
            CaveError::Param(p) => Some(p.clone()),
            CaveError::TooLarge { what, got, max } => {
                Some(ParamError::new(*what, got, format!("at most {max}")))
            }
            _ => None,
        }
    }
}
