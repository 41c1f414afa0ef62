//! The records the store keeps: a planet's name, parameters, generator
//! version and creation time.

use serde::Serialize;

use crate::StoreError;

/// The longest planet name, in characters (MySQL's `VARCHAR(255)` counts
/// characters; 100 leaves room and keeps URLs and logs readable).
pub const MAX_NAME_CHARS: usize = 100;

/// The largest parameter document, in bytes of JSON text. Planet
/// parameters are a handful of numbers; 64 KiB bounds hostile input while
/// fitting every backend's column type with room to spare.
pub const MAX_PARAMS_BYTES: usize = 64 * 1024;

/// A stored planet.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Planet {
    /// The store's id, never reused.
    pub id: i64,
    /// The unique name.
    pub name: String,
    /// The generator parameters as given to [`crate::Store::create`].
    pub params: serde_json::Value,
    /// The planet generator's version when the planet was created.
    pub generator_version: u32,
    /// Creation time in milliseconds since the Unix epoch (UTC).
    pub created_at_ms: i64,
    /// The name of the access token that created it; `None` when none was
    /// used (an open server).
    pub owner: Option<String>,
}

/// What a new planet is made from.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPlanet {
    /// The unique name; see [`validate_name`].
    pub name: String,
    /// The generator parameters: a JSON object.
    pub params: serde_json::Value,
    /// The generator version the parameters belong to.
    pub generator_version: u32,
    /// The creating access token's name, if any (see [`Planet::owner`]).
    pub owner: Option<String>,
}

/// Checks a planet name: 1 to [`MAX_NAME_CHARS`] characters, no leading or
/// trailing whitespace, no control characters. Anything else is allowed —
/// quotes and SQL keywords included, since every value is a bound parameter.
///
/// ```
/// assert!(mangekyo_store::validate_name("Kepler-22b'; DROP TABLE planets; --").is_ok());
/// assert!(mangekyo_store::validate_name(" padded").is_err());
/// ```
pub fn validate_name(name: &str) -> Result<(), StoreError> {
    let chars = name.chars().count();
    let reason = if chars == 0 {
        "must not be empty".to_owned()
    } else if chars > MAX_NAME_CHARS {
        format!("must be at most {MAX_NAME_CHARS} characters, got {chars}")
    } else if name.trim() != name {
        "must not start or end with whitespace".to_owned()
    } else if let Some(c) = name.chars().find(|c| c.is_control()) {
        format!(
            "must not contain control characters, found U+{:04X}",
            u32::from(c)
        )
    } else {
        return Ok(());
    };
    Err(StoreError::InvalidName { reason })
}

/// Checks the parameters are a JSON object of at most [`MAX_PARAMS_BYTES`]
/// and returns their compact text.
pub(crate) fn params_text(params: &serde_json::Value) -> Result<String, StoreError> {
    if !params.is_object() {
        return Err(StoreError::InvalidParams {
            reason: "must be a JSON object".to_owned(),
        });
    }
    let text = params.to_string();
    if text.len() > MAX_PARAMS_BYTES {
        let reason = format!(
            "must be at most {MAX_PARAMS_BYTES} bytes of JSON, got {}",
            text.len()
        );
        return Err(StoreError::InvalidParams { reason });
    }
    Ok(text)
}

/// A row as the database returns it.
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct PlanetRow {
    id: i64,
    name: String,
    params: String,
    generator_version: i64,
    created_at_ms: i64,
    owner: Option<String>,
}

impl PlanetRow {
    /// Decodes the JSON and checks the version fits, naming the row if not.
    pub(crate) fn into_planet(self) -> Result<Planet, StoreError> {
        let corrupt = |reason: String| StoreError::CorruptRow {
            id: self.id,
            reason,
        };
        let params =
            serde_json::from_str(&self.params).map_err(|e| corrupt(format!("params: {e}")))?;
        let generator_version = u32::try_from(self.generator_version).map_err(|_| {
            corrupt(format!(
                "generator_version {} out of range",
                self.generator_version
            ))
        })?;
        Ok(Planet {
            id: self.id,
            name: self.name,
            params,
            generator_version,
            created_at_ms: self.created_at_ms,
            owner: self.owner,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_with_reasons() {
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        let cases = [
            ("", "must not be empty"),
            (long.as_str(), "at most 100 characters, got 101"),
            ("trailing ", "whitespace"),
            ("tab\there", "U+0009"),
        ];
        for (name, want) in cases {
            let err = validate_name(name).unwrap_err().to_string();
            assert!(err.contains(want), "{name:?}: {err}");
        }
        for ok in [
            "Terra",
            "惑星 二",
            "Robert'); DROP TABLE planets;--",
            &"é".repeat(MAX_NAME_CHARS),
        ] {
            assert!(validate_name(ok).is_ok(), "{ok:?}");
        }
    }

    #[test]
    fn params_must_be_a_bounded_object() {
        assert!(params_text(&serde_json::json!([1, 2])).is_err());
        assert!(params_text(&serde_json::json!(3)).is_err());
        let big = serde_json::json!({ "x": "a".repeat(MAX_PARAMS_BYTES) });
        assert!(
            params_text(&big)
                .unwrap_err()
                .to_string()
                .contains("at most 65536 bytes")
        );
        assert_eq!(
            params_text(&serde_json::json!({"seed": 42})).unwrap(),
            r#"{"seed":42}"#
        );
    }

    #[test]
    fn corrupt_rows_are_named() {
        let row = PlanetRow {
            id: 7,
            name: "x".into(),
            params: "{".into(),
            generator_version: 1,
            created_at_ms: 0,
            owner: None,
        };
        assert!(
            row.into_planet()
                .unwrap_err()
                .to_string()
                .contains("planet 7")
        );
        let row = PlanetRow {
            id: 8,
            name: "x".into(),
            params: "{}".into(),
            generator_version: -1,
            created_at_ms: 0,
            owner: None,
        };
        assert!(
            row.into_planet()
                .unwrap_err()
                .to_string()
                .contains("generator_version -1")
        );
    }
}
