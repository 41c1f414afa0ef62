//! What every route serving generated content shares: the version pin
//! (`v=`), the output format (`format=`), and generator parameters given
//! as query parameters.

use mangekyo_core::Seed;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::content::Lifetime;
use crate::error::ApiError;
use crate::extract::Params;

/// The longest seed text, in bytes: seeds are names, not documents.
/// (The planet crate's bound, so a planet's seed and a cave's agree.)
pub(crate) const MAX_SEED_BYTES: usize = mangekyo_planet::params_json::MAX_SEED_BYTES;

/// A seed from its text (digits are that number, other text is hashed),
/// refused when longer than [`MAX_SEED_BYTES`].
pub(crate) fn parse_seed(text: &str) -> Result<Seed, ApiError> {
    if text.len() > MAX_SEED_BYTES {
        let message = format!(
            "seed must be at most {MAX_SEED_BYTES} bytes, got {}",
            text.len()
        );
        return Err(ApiError::invalid(
            "seed",
            message,
            format!("at most {MAX_SEED_BYTES} bytes"),
        ));
    }
    Ok(Seed::parse(text))
}

/// A seed from a URL path: as [`parse_seed`], but digits must be written
/// without leading zeros (digits are that number, so `007` and `7` would
/// be two URLs of one world).
pub(crate) fn parse_path_seed(text: &str) -> Result<Seed, ApiError> {
    let seed = parse_seed(text)?;
    if text.bytes().all(|b| b.is_ascii_digit()) {
        crate::canonical::check("path", "seed", text, &seed.value().to_string())?;
    }
    Ok(seed)
}

/// How long an unpinned generated URL may be cached: the content changes
/// only when the server is upgraded to a new generator version.
pub(crate) const UNPINNED_SECONDS: u32 = 300;

/// The cache lifetime for a URL of `generator` at version `current`: with
/// `v={current}` it is immutable; without `v` it is short; with any other
/// `v` the content cannot be produced here (404, naming the version run).
pub(crate) fn pinned_lifetime(
    query: &Params,
    generator: &str,
    current: u32,
) -> Result<Lifetime, ApiError> {
    pinned_version(query, generator, &[current], current).map(|(_, lifetime)| lifetime)
}

/// The version a URL of `generator` asks for and its cache lifetime, for
/// a generator that runs every version in `versions` side by side: a `v`
/// among them is that version, immutable; no `v` is `default`, cached
/// briefly (it moves when the server gains a version); any other `v`
/// cannot be produced here (404, naming the versions run).
pub(crate) fn pinned_version(
    query: &Params,
    generator: &str,
    versions: &[u32],
    default: u32,
) -> Result<(u32, Lifetime), ApiError> {
    match query.parse::<u32>("v", "a generator version number")? {
        None => Ok((default, Lifetime::Seconds(UNPINNED_SECONDS))),
        Some(v) if versions.contains(&v) => Ok((v, Lifetime::Immutable)),
        Some(v) => {
            let run: Vec<String> = versions.iter().map(u32::to_string).collect();
            let run = run.join(", ");
            let (noun, expected) = match versions {
                [_] => ("version", run.clone()),
                _ => ("versions", format!("one of {run}")),
            };
            Err(ApiError {
                status: axum::http::StatusCode::NOT_FOUND,
                code: "version_unavailable",
                message: format!(
                    "this server runs {generator} generator {noun} {run}; v={v} cannot be produced here"
                ),
                parameter: Some("v".to_owned()),
                expected: Some(expected),
            })
        }
    }
}

/// An output format of a generated route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Format {
    /// JSON.
    Json,
    /// Little-endian binary with a documented header.
    Bin,
    /// PNG image.
    Png,
    /// Text (ASCII art).
    Ascii,
    /// SVG image.
    Svg,
    /// glTF binary.
    Glb,
}

impl Format {
    /// The name used in `format=`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Bin => "bin",
            Format::Png => "png",
            Format::Ascii => "ascii",
            Format::Svg => "svg",
            Format::Glb => "glb",
        }
    }

    /// The media type of the response.
    pub(crate) fn content_type(self) -> &'static str {
        match self {
            Format::Json => "application/json",
            Format::Bin => "application/octet-stream",
            Format::Png => "image/png",
            Format::Ascii => "text/plain; charset=utf-8",
            Format::Svg => "image/svg+xml",
            Format::Glb => "model/gltf-binary",
        }
    }

    /// `format=` from the query: one of `allowed`, the first if absent.
    pub(crate) fn from_query(query: &Params, allowed: &[Format]) -> Result<Format, ApiError> {
        let names: Vec<&str> = allowed.iter().map(|f| f.name()).collect();
        let Some(text) = query.text("format") else {
            return Ok(allowed[0]);
        };
        allowed
            .iter()
            .copied()
            .find(|f| f.name() == text)
            .ok_or_else(|| {
                let expected = names.join(", ");
                ApiError::invalid(
                    "format",
                    format!("format must be one of {expected}, got {text:?}"),
                    expected,
                )
            })
    }
}

/// The query parameters other than `reserved` as a JSON object for a
/// generator's parameter struct: `a.b=1` nests (`{"a": {"b": 1}}`),
/// integers and `true`/`false` become JSON numbers and booleans, anything
/// else a string (so `width=NaN` fails as "expected u32", naming `width`).
pub(crate) fn query_object(query: &Params, reserved: &[&str]) -> Result<Value, ApiError> {
    let mut root = Map::new();
    for (key, text) in query.iter().filter(|(k, _)| !reserved.contains(k)) {
        if let Some(canonical) = crate::canonical::scalar_spelling(text) {
            crate::canonical::check("query", key, text, &canonical)?;
        }
        let mut node = &mut root;
        let mut parts = key.split('.').peekable();
        while let Some(part) = parts.next() {
            if parts.peek().is_none() {
                node.insert(part.to_owned(), scalar(text));
                break;
            }
            let child = node
                .entry(part.to_owned())
                .or_insert_with(|| Value::Object(Map::new()));
            let Value::Object(map) = child else {
                let message = format!(
                    "query parameter {key} nests under {part}, which is also given a value"
                );
                return Err(ApiError::invalid(
                    key,
                    message,
                    "either a.b=… or a=…, not both",
                ));
            };
            node = map;
        }
    }
    Ok(Value::Object(root))
}

fn scalar(text: &str) -> Value {
    if let Ok(i) = text.parse::<i64>() {
        return Value::from(i);
    }
    if let Ok(u) = text.parse::<u64>() {
        return Value::from(u);
    }
    match text {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => match text.parse::<f64>() {
            Ok(f) if f.is_finite() && text.contains(['.', 'e', 'E']) => Value::from(f),
            _ => Value::String(text.to_owned()),
        },
    }
}

/// Deserialises a parameter object, naming the field at fault.
pub(crate) fn parse_params<T: DeserializeOwned>(value: Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let message = format!("{path}: {}", e.inner());
        ApiError::invalid(
            &path,
            message,
            "see the parameter's schema in /openapi.json",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::Params;

    fn query(pairs: &[(&str, &str)]) -> Params {
        Params::from_pairs("query", pairs)
    }

    #[test]
    fn query_parameters_become_typed_nested_json() {
        let q = query(&[
            ("width", "40"),
            ("floors.floor", "5"),
            ("light", "true"),
            ("kind", "lava"),
            ("x", "1.5"),
            ("format", "png"),
        ]);
        let v = query_object(&q, &["format"]).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"width": 40, "floors": {"floor": 5}, "light": true, "kind": "lava", "x": 1.5})
        );
        let q = query(&[("n", "NaN"), ("i", "inf")]);
        assert_eq!(
            query_object(&q, &[]).unwrap(),
            serde_json::json!({"n": "NaN", "i": "inf"})
        );
        let clash = query(&[("a", "1"), ("a.b", "2")]);
        assert_eq!(
            query_object(&clash, &[]).unwrap_err().parameter.as_deref(),
            Some("a.b")
        );
    }

    #[test]
    fn versions_pin_lifetimes() {
        assert_eq!(
            pinned_lifetime(&query(&[("v", "3")]), "x", 3).unwrap(),
            Lifetime::Immutable
        );
        assert_eq!(
            pinned_lifetime(&query(&[]), "x", 3).unwrap(),
            Lifetime::Seconds(UNPINNED_SECONDS)
        );
        let gone = pinned_lifetime(&query(&[("v", "2")]), "x", 3).unwrap_err();
        assert_eq!(
            (gone.status.as_u16(), gone.expected.as_deref()),
            (404, Some("3"))
        );
        let both = pinned_version(&query(&[("v", "2")]), "x", &[2, 3], 3).unwrap();
        assert_eq!(both, (2, Lifetime::Immutable));
        let unpinned = pinned_version(&query(&[]), "x", &[2, 3], 3).unwrap();
        assert_eq!(unpinned, (3, Lifetime::Seconds(UNPINNED_SECONDS)));
        let gone = pinned_version(&query(&[("v", "1")]), "x", &[2, 3], 3).unwrap_err();
        assert_eq!(
            (gone.status.as_u16(), gone.expected.as_deref()),
            (404, Some("one of 2, 3"))
        );
        assert!(gone.message.contains("versions 2, 3"), "{}", gone.message);
        assert_eq!(
            pinned_lifetime(&query(&[("v", "x")]), "x", 3)
                .unwrap_err()
                .status
                .as_u16(),
            400
        );
    }

    #[test]
    fn formats_are_named() {
        let allowed = [Format::Json, Format::Png];
        assert_eq!(
            Format::from_query(&query(&[]), &allowed).unwrap(),
            Format::Json
        );
        assert_eq!(
            Format::from_query(&query(&[("format", "png")]), &allowed).unwrap(),
            Format::Png
        );
        let e = Format::from_query(&query(&[("format", "gif")]), &allowed).unwrap_err();
        assert_eq!(e.message, "format must be one of json, png, got \"gif\"");
    }
}
