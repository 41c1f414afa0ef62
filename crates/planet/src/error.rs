//! What can be wrong with a planet request: a parameter out of range, a
//! chunk or tile address off the map, a malformed name. Every variant is a
//! refused parameter ([`ParamError`], through [`Refusal`]), so the edges
//! answer all of them one way.

use mangekyo_core::{ParamError, Refusal};

/// Everything the planet crate can refuse. Every variant names the field
/// or address that was wrong, the value given and what is allowed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PlanetError {
    /// A planet parameter (`radius`, `pixel_size`, … as in
    /// [`crate::PlanetParams`]) is outside its range.
    #[error("planet parameter `{}` must be {}, got {}", .0.name, .0.expected, .0.value)]
    Param(ParamError),
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
        /// The parameter that carries it on every surface (`layers`,
        /// `layer`, `projection`, `edge`): what a refusal names.
        param: &'static str,
        /// The name given.
        value: String,
        /// The names that exist, comma-separated.
        allowed: &'static str,
    },
    /// The caller's `keep_going` check answered `false` (the
    /// `…_cancellable` functions): the work stopped early and nothing
    /// came of it. Not a refusal of the input.
    #[error("the work was cancelled before it finished")]
    Cancelled,
}

impl PlanetError {
    pub(crate) fn param(
        name: &'static str,
        value: impl std::fmt::Display,
        allowed: impl Into<String>,
    ) -> Self {
        PlanetError::Param(ParamError::new(name, value, Into::<String>::into(allowed)))
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

impl Refusal for PlanetError {
    fn param(&self) -> Option<ParamError> {
        Some(match self {
            PlanetError::Cancelled => return None,
            PlanetError::Param(p) => p.clone(),
            PlanetError::Address {
                what,
                value,
                allowed,
            } => ParamError::new(*what, value, allowed.clone()),
            PlanetError::Name {
                param,
                value,
                allowed,
                ..
            } => ParamError::new(*param, value, *allowed),
        })
    }
}
