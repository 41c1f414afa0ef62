//! What can be wrong with a planet request: a parameter out of range, a
//! chunk or tile address off the map, a malformed name.

/// Everything the planet crate can refuse. Every variant names the field
/// or address that was wrong, the value given and what is allowed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PlanetError {
    /// A planet parameter is outside its range.
    #[error("planet parameter `{name}` must be {allowed}, got {value}")]
    Param {
        /// The parameter (`radius`, `pixel_size`, …).
        name: &'static str,
        /// The value given, printed.
        value: String,
        /// What is allowed.
        allowed: String,
    },
    /// A chunk or tile address is outside the map at its level of detail.
    #[error("{what} must be {allowed}, got {value}")]
    Address {
        /// The coordinate (`lod`, `cx`, `cy`, `z`, `x`, `y`, `size`, `direction`).
        what: &'static str,
        /// The value given, printed.
        value: String,
        /// What is allowed.
        allowed: String,
    },
    /// A name (projection, layer, edge mode) that is not one we know.
    #[error("unknown {what} `{value}`; expected one of: {allowed}")]
    Name {
        /// What kind of name it was (`projection`, `layer`, …).
        what: &'static str,
        /// The name given.
        value: String,
        /// The names that exist, comma-separated.
        allowed: &'static str,
    },
}

impl PlanetError {
    pub(crate) fn param(
        name: &'static str,
        value: impl std::fmt::Display,
        allowed: impl Into<String>,
    ) -> Self {
        PlanetError::Param {
            name,
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }

    pub(crate) fn address(
        what: &'static str,
        value: impl std::fmt::Display,
        allowed: impl Into<String>,
    ) -> Self {
        PlanetError::Address {
            what,
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }
}
