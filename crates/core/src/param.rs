//! The one shape of "parameter out of range": which parameter, the value
//! given, and what is allowed. Every generator's error wraps it, so the
//! edges turn any of them into one answer (the server's JSON error, the
//! CLI's message) without a mapper per generator.

use std::borrow::Cow;

/// A parameter outside what its consumer accepts. (`Display` is written
/// by hand to keep this crate free of error-derive dependencies.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The parameter's name as the user writes it (`octaves`,
    /// `warp.frequency`, `layers[1]`).
    pub name: Cow<'static, str>,
    /// The value given, printed.
    pub value: String,
    /// What is allowed (`in 1..=24`, `json, bin, png16`).
    pub expected: Cow<'static, str>,
}

impl ParamError {
    /// A refusal of `value` for `name`, which must be `expected`.
    pub fn new(
        name: impl Into<Cow<'static, str>>,
        value: impl std::fmt::Display,
        expected: impl Into<Cow<'static, str>>,
    ) -> ParamError {
        ParamError {
            name: name.into(),
            value: value.to_string(),
            expected: expected.into(),
        }
    }
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} must be {}, got {}",
            self.name, self.expected, self.value
        )
    }
}

impl std::error::Error for ParamError {}

/// An error that may be a refused parameter: how the edges find the
/// [`ParamError`] inside any generator's error without matching on it.
pub trait Refusal: std::error::Error {
    /// The refused parameter, if this error is one; `None` for failures
    /// that are not the caller's input (a generation that did not finish).
    fn param(&self) -> Option<ParamError>;
}

impl Refusal for ParamError {
    fn param(&self) -> Option<ParamError> {
        Some(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_parameter_value_and_range() {
        let e = ParamError::new("octaves", 0, "in 1..=24");
        assert_eq!(e.to_string(), "octaves must be in 1..=24, got 0");
        assert_eq!(e.param().map(|p| p.name), Some("octaves".into()));
    }
}
