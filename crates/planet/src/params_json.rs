//! Planet parameters from JSON, read one way on every surface (the
//! service's `POST /v1/planets` and its stored records, `mangekyo planet
//! --params`, the WebAssembly `Planet`), so one parameter object means one
//! planet everywhere:
//!
//! - only a JSON object is parameters (serde would read `[7]` as the
//!   fields in order);
//! - a `seed` may be text, as everywhere else: digits are that number,
//!   other text is hashed (at most [`MAX_SEED_BYTES`]);
//! - a new planet without `generator_version` is [`crate::Version::DEFAULT`]; a
//!   stored record without it is version 1 (see
//!   [`PlanetParams::generator_version`]);
//! - the values are checked ([`PlanetParams::validate`]).

use mangekyo_core::Seed;
use serde_json::Value;

use crate::{PlanetError, PlanetParams};

/// The longest text seed, in bytes: seeds are names, not documents.
pub const MAX_SEED_BYTES: usize = 256;

/// Why a JSON value is no planet's parameters.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParamsJsonError {
    /// The text is not JSON.
    #[error("params are not JSON: {0}")]
    Malformed(String),
    /// The value is not an object (the kind it is: `an array`, …).
    #[error("params must be a JSON object (or left out for the defaults), got {0}")]
    NotObject(&'static str),
    /// A text seed longer than [`MAX_SEED_BYTES`] (its length).
    #[error("params.seed must be at most {MAX_SEED_BYTES} bytes, got {0}")]
    SeedTooLong(usize),
    /// A field of the wrong type, or unknown: `path` is `params.<field>`.
    #[error("{path}: {message}")]
    Field {
        /// `params.radius`, or `params..` for the object itself.
        path: String,
        /// serde's account.
        message: String,
    },
    /// A value out of range.
    #[error(transparent)]
    Invalid(#[from] PlanetError),
}

impl PlanetParams {
    /// The parameters of a stored record (no `generator_version` means
    /// version 1), checked.
    pub fn from_json(value: Value) -> Result<PlanetParams, ParamsJsonError> {
        let mut value = value;
        if !value.is_object() {
            let kind = match value {
                Value::Null => "null",
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                Value::String(_) => "a string",
                Value::Array(_) => "an array",
                Value::Object(_) => "an object",
            };
            return Err(ParamsJsonError::NotObject(kind));
        }
        if let Some(text) = value.get("seed").and_then(Value::as_str) {
            if text.len() > MAX_SEED_BYTES {
                return Err(ParamsJsonError::SeedTooLong(text.len()));
            }
            value["seed"] = serde_json::json!(Seed::parse(text).value());
        }
        let params: PlanetParams =
            serde_path_to_error::deserialize(value).map_err(|e| ParamsJsonError::Field {
                path: format!("params.{}", e.path()),
                message: e.inner().to_string(),
            })?;
        params.validate()?;
        Ok(params)
    }

    /// The parameters of a new planet: as [`PlanetParams::from_json`], but
    /// without `generator_version` the planet is of [`crate::Version::DEFAULT`].
    pub fn from_new_json(value: Value) -> Result<PlanetParams, ParamsJsonError> {
        let mut value = value;
        PlanetParams::fill_new_planet_version(&mut value);
        PlanetParams::from_json(value)
    }

    /// [`PlanetParams::from_new_json`] of JSON text; empty text is `{}`
    /// (the default planet).
    pub fn from_new_json_text(text: &str) -> Result<PlanetParams, ParamsJsonError> {
        let text = match text.trim() {
            "" => "{}",
            t => t,
        };
        let value: Value =
            serde_json::from_str(text).map_err(|e| ParamsJsonError::Malformed(e.to_string()))?;
        PlanetParams::from_new_json(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::Version;

    #[test]
    fn one_object_is_one_planet() {
        let p = PlanetParams::from_new_json_text(r#"{"seed": 7}"#).unwrap();
        assert_eq!(p.generator_version, Version::DEFAULT);
        assert_eq!(p.seed, 7);
        let stored = PlanetParams::from_json(serde_json::json!({"seed": 7})).unwrap();
        assert_eq!(stored.generator_version, Version::LEGACY);
        let named = PlanetParams::from_new_json_text(r#"{"seed": "terra"}"#).unwrap();
        assert_eq!(named.seed, Seed::parse("terra").value());
        assert_eq!(
            PlanetParams::from_new_json_text("").unwrap(),
            PlanetParams::default()
        );
        assert_eq!(
            PlanetParams::from_new_json_text("[7]").unwrap_err(),
            ParamsJsonError::NotObject("an array")
        );
        let long = format!(r#"{{"seed": "{}"}}"#, "x".repeat(MAX_SEED_BYTES + 1));
        assert_eq!(
            PlanetParams::from_new_json_text(&long).unwrap_err(),
            ParamsJsonError::SeedTooLong(MAX_SEED_BYTES + 1)
        );
        let ParamsJsonError::Field { path, .. } =
            PlanetParams::from_new_json_text(r#"{"radius": "big"}"#).unwrap_err()
        else {
            panic!("a field error")
        };
        assert_eq!(path, "params.radius");
        assert!(matches!(
            PlanetParams::from_new_json_text(r#"{"radius": 1}"#).unwrap_err(),
            ParamsJsonError::Invalid(_)
        ));
    }
}
