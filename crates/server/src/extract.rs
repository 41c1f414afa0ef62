//! Request extractors whose refusals are [`ApiError`]s naming the
//! parameter: path and query values arrive as text and are parsed here,
//! one named value at a time, and JSON bodies report the field at fault.
//!
//! Every value has one spelling (`canonical.rs`): a number written `+1`,
//! `01` or `1.0`, or a list with empty, repeated or reordered items, is
//! refused with the canonical form, so one answer has one URL and a cache
//! holds it once.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::ops::RangeInclusive;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::{StatusCode, header, request::Parts};
use serde::de::DeserializeOwned;

use crate::canonical::{self, Spelled};
use crate::error::ApiError;

/// Named text values from the path or the query string.
#[derive(Debug, Clone, Default)]
pub struct Params {
    source: &'static str,
    values: BTreeMap<String, String>,
}

impl Params {
    /// Values from (name, text) pairs; `source` says where they came from
    /// in messages (`path`, `query`).
    pub fn from_pairs(source: &'static str, pairs: &[(&str, &str)]) -> Params {
        let values = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        Params { source, values }
    }

    /// The raw text of `name`, if given.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// Every (name, text) pair, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Parses `name` if given; `expected` describes valid values. A value
    /// not written in its one spelling is refused with that spelling.
    pub fn parse<T: Spelled>(&self, name: &str, expected: &str) -> Result<Option<T>, ApiError> {
        let Some(text) = self.text(name) else {
            return Ok(None);
        };
        let value: T = text.parse().map_err(|_| {
            let message = format!(
                "{} parameter {name} must be {expected}, got {text:?}",
                self.source
            );
            ApiError::invalid(name, message, expected)
        })?;
        canonical::check(self.source, name, text, &value.spelling())?;
        Ok(Some(value))
    }

    /// Parses `name`, which must be given.
    pub fn require<T: Spelled>(&self, name: &str, expected: &str) -> Result<T, ApiError> {
        self.parse(name, expected)?.ok_or_else(|| {
            ApiError::invalid(
                name,
                format!("{} parameter {name} is required", self.source),
                expected,
            )
        })
    }

    /// Parses `name` (if given) as a number within `range`.
    pub fn in_range<T>(&self, name: &str, range: RangeInclusive<T>) -> Result<Option<T>, ApiError>
    where
        T: Spelled + PartialOrd + Display + Copy,
    {
        let expected = format!("a number in {}..={}", range.start(), range.end());
        let Some(value) = self.parse::<T>(name, &expected)? else {
            return Ok(None);
        };
        check_range(name, value, &range)?;
        Ok(Some(value))
    }

    /// Like [`Params::in_range`] for a value that must be given.
    pub fn require_in_range<T>(&self, name: &str, range: RangeInclusive<T>) -> Result<T, ApiError>
    where
        T: Spelled + PartialOrd + Display + Copy,
    {
        let expected = format!("a number in {}..={}", range.start(), range.end());
        let value = self.require::<T>(name, &expected)?;
        check_range(name, value, &range)?;
        Ok(value)
    }

    /// Refuses any parameter not in `allowed` (a typo should not silently
    /// fall back to a default).
    pub fn only(&self, allowed: &[&str]) -> Result<&Params, ApiError> {
        match self.values.keys().find(|k| !allowed.contains(&k.as_str())) {
            None => Ok(self),
            Some(unknown) => {
                let expected = if allowed.is_empty() {
                    "none".to_owned()
                } else {
                    allowed.join(", ")
                };
                let message = format!(
                    "unknown {} parameter {unknown:?}; this route takes: {expected}",
                    self.source
                );
                Err(ApiError::invalid(unknown, message, expected))
            }
        }
    }
}

/// Checks `value` lies in `range`; NaN lies in no range.
pub(crate) fn check_range<T: PartialOrd + Display>(
    name: &str,
    value: T,
    range: &RangeInclusive<T>,
) -> Result<(), ApiError> {
    if range.contains(&value) {
        return Ok(());
    }
    let expected = format!("{}..={}", range.start(), range.end());
    Err(ApiError::invalid(
        name,
        format!("{name} must be in {expected}, got {value}"),
        expected,
    ))
}

/// The path's parameters, by name.
#[derive(Debug)]
pub(crate) struct PathParams(pub Params);

impl<S: Send + Sync> FromRequestParts<S> for PathParams {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(values) = Path::<BTreeMap<String, String>>::from_request_parts(parts, state)
            .await
            .map_err(|e| {
                ApiError::invalid(
                    "path",
                    format!("the path could not be read: {e}"),
                    "UTF-8 path segments",
                )
            })?;
        Ok(PathParams(Params {
            source: "path",
            values,
        }))
    }
}

/// The query string's parameters, by name; a name given twice is refused.
#[derive(Debug)]
pub struct QueryParams(pub Params);

impl<S: Send + Sync> FromRequestParts<S> for QueryParams {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let Query(pairs) =
            Query::<Vec<(String, String)>>::try_from_uri(&parts.uri).map_err(|e| {
                ApiError::invalid(
                    "query",
                    format!("the query string could not be read: {e}"),
                    "key=value pairs",
                )
            })?;
        let mut values = BTreeMap::new();
        for (key, value) in pairs {
            if values.contains_key(&key) {
                let message = format!("query parameter {key} is given twice");
                return Err(ApiError::invalid(
                    &key,
                    message,
                    "each parameter at most once",
                ));
            }
            canonical::check_list(&key, &value)?;
            values.insert(key, value);
        }
        Ok(QueryParams(Params {
            source: "query",
            values,
        }))
    }
}

/// A JSON body deserialised into `T`, with errors that name the field
/// (`params.radius: invalid type: string "big", expected f64`).
#[derive(Debug)]
pub(crate) struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(';')
                    .next()
                    .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
            });
        if !is_json {
            return Err(ApiError::unsupported_media(
                "the body must be JSON (Content-Type: application/json)",
            ));
        }
        let limit = crate::limits::body_limit_of(&req);
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e| body_error(e, limit))?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// Deserialises `bytes`, naming the field and position of any error.
///
/// Every body this server takes is a JSON object; anything else is refused
/// as such (serde would otherwise read an array as a struct's fields).
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|&b| b != b'{') {
        return Err(ApiError::malformed_body(
            "malformed JSON body: expected a JSON object ({...})",
        ));
    }
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut *de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.inner();
        let message = if path == "." {
            format!("malformed JSON body: {inner}")
        } else {
            format!("malformed JSON body at {path}: {inner}")
        };
        let mut err = ApiError::malformed_body(message);
        if path != "." {
            err.parameter = Some(path);
        }
        err
    })?;
    // One document per body: text after it (a second object, a stray
    // bracket) is refused, not ignored.
    de.end().map_err(|e| {
        ApiError::malformed_body(format!(
            "malformed JSON body: {e} (one JSON object per body, nothing after it)"
        ))
    })?;
    Ok(value)
}

fn body_error(err: BytesRejection, limit: usize) -> ApiError {
    if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::too_large(limit)
    } else if let Some(slow) = crate::paced_body::too_slow(&err) {
        ApiError::body_too_slow(slow.to_string())
    } else {
        ApiError::malformed_body(format!("the body could not be read: {err}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> Params {
        Params::from_pairs("query", pairs)
    }

    #[test]
    fn values_are_parsed_and_ranged_by_name() {
        let p = params(&[("lod", "25"), ("cx", "-3"), ("x", "NaN"), ("y", "abc")]);
        assert_eq!(p.require::<i32>("cx", "an integer").unwrap(), -3);
        let e = p.in_range("lod", 0u8..=20).unwrap_err();
        assert_eq!(e.parameter.as_deref(), Some("lod"));
        assert_eq!(e.message, "lod must be in 0..=20, got 25");
        let e = p.in_range("x", -1.0f64..=1.0).unwrap_err();
        assert_eq!(e.message, "x must be in -1..=1, got NaN");
        let e = p.require::<i32>("y", "an integer").unwrap_err();
        assert_eq!(
            e.message,
            "query parameter y must be an integer, got \"abc\""
        );
        let e = p.require::<i32>("missing", "an integer").unwrap_err();
        assert!(e.message.contains("is required"));
        assert_eq!(p.in_range("absent", 0u8..=1).unwrap(), None);
    }

    #[test]
    fn unknown_parameters_are_named() {
        let p = params(&[("lyers", "height")]);
        let e = p.only(&["layers", "format"]).unwrap_err();
        assert_eq!(e.parameter.as_deref(), Some("lyers"));
        assert!(e.message.contains("this route takes: layers, format"));
        assert!(
            params(&[("format", "png")])
                .only(&["layers", "format"])
                .is_ok()
        );
    }

    #[test]
    fn json_errors_name_the_field() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Body {
            name: String,
            params: Inner,
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Inner {
            radius: f64,
        }
        let e = parse_json::<Body>(br#"{"name": "x", "params": {"radius": "big"}}"#).unwrap_err();
        assert_eq!(e.parameter.as_deref(), Some("params.radius"));
        assert!(e.message.contains("expected f64"), "{}", e.message);
        let e = parse_json::<Body>(b"{\"name\": ").unwrap_err();
        assert_eq!(
            e.message,
            "malformed JSON body at name: EOF while parsing a value at line 1 column 9"
        );
        let e = parse_json::<Body>(br#"{"name": "x", "params": {"radius": NaN}}"#).unwrap_err();
        assert!(e.message.contains("expected value"), "{}", e.message);
    }
}
