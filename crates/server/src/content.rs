//! Responses identified by their content: a strong ETag that is a hash of
//! the body, `Cache-Control` by lifetime, and `If-None-Match` → 304.
//!
//! The ETag depends on nothing but the bytes, so every replica serving the
//! same URL from the same store and binary gives the same ETag (and a CDN
//! in front of several replicas revalidates against any of them).

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// A response body with its media type and strong ETag.
#[derive(Debug, Clone)]
pub struct Content {
    /// The bytes.
    pub body: Bytes,
    /// The media type.
    pub content_type: &'static str,
    /// The quoted strong ETag: [`mangekyo_formats::content_hash`] of the
    /// body (what a bake manifest records for the same bytes).
    pub etag: String,
    /// Headers that describe the body (how to decode it), derived from
    /// the same inputs, so equal on every replica.
    pub headers: Vec<(HeaderName, HeaderValue)>,
}

impl Content {
    /// Wraps `body`, hashing it for the ETag.
    pub fn new(body: impl Into<Bytes>, content_type: &'static str) -> Content {
        let body = body.into();
        let etag = format!("\"{}\"", mangekyo_formats::content_hash(&body));
        Content {
            body,
            content_type,
            etag,
            headers: Vec::new(),
        }
    }

    /// Adds a describing header (a value that is not a valid header value
    /// is skipped: ours are numbers).
    pub fn with_header(mut self, name: &'static str, value: impl std::fmt::Display) -> Content {
        if let Ok(value) = HeaderValue::from_str(&value.to_string()) {
            self.headers.push((HeaderName::from_static(name), value));
        }
        self
    }

    /// `value` as compact JSON.
    pub fn json<T: serde::Serialize>(value: &T) -> Content {
        // Serialising our own response types cannot fail (string keys only).
        let body = serde_json::to_vec(value).unwrap_or_default();
        Content::new(body, "application/json")
    }
}

/// How long caches may keep a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lifetime {
    /// Forever: the URL pins the generator version and parameter hash, so
    /// its content can never change.
    Immutable,
    /// This many seconds, then revalidate: manifests, listings, and content
    /// reached through an unpinned URL (an id alone could name another
    /// planet in another store).
    Seconds(u32),
    /// This many seconds in the client's own cache only: the answer was
    /// built from request headers (see `public_url.rs`), so no shared cache
    /// may hand it to another client.
    Private(u32),
    /// Never stored (live state: health, metrics).
    NoStore,
}

impl Lifetime {
    /// A short lifetime for manifests and listings: clients notice a new or
    /// deleted planet within ten seconds.
    pub const MANIFEST: Lifetime = Lifetime::Seconds(10);

    fn header(self) -> HeaderValue {
        match self {
            Lifetime::Immutable => HeaderValue::from_static("public, max-age=31536000, immutable"),
            Lifetime::Seconds(s) => HeaderValue::from_str(&format!("public, max-age={s}"))
                .unwrap_or_else(|_| HeaderValue::from_static("no-cache")),
            Lifetime::Private(s) => HeaderValue::from_str(&format!("private, max-age={s}"))
                .unwrap_or_else(|_| HeaderValue::from_static("no-cache")),
            Lifetime::NoStore => HeaderValue::from_static("no-store"),
        }
    }
}

/// The answer for `content`: 304 if the request's `If-None-Match` already
/// names its ETag, else 200 with the body.
///
/// A 304 repeats the form of the ETag the client holds (`"h-gzip"` for a
/// compressed copy), since that is the validator of its stored response.
pub(crate) fn respond(content: &Content, lifetime: Lifetime, request: &HeaderMap) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(header::CACHE_CONTROL, lifetime.header());
    let held = request
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| matching_etag(v, &content.etag));
    if let Some(held) = held {
        if let Ok(etag) = HeaderValue::from_str(&held) {
            headers.insert(header::ETAG, etag);
        }
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    if let Ok(etag) = HeaderValue::from_str(&content.etag) {
        headers.insert(header::ETAG, etag);
    }
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content.content_type),
    );
    for (name, value) in &content.headers {
        headers.insert(name.clone(), value.clone());
    }
    (StatusCode::OK, headers, Body::from(content.body.clone())).into_response()
}

/// Content codings whose ETag suffixes [`matching_etag`] accepts: the
/// ones [`encoded_etag`] writes (`compression.rs`), and the ones earlier
/// servers did (br), so a client's stored copy still revalidates.
const CODINGS: [&str; 4] = ["gzip", "br", "deflate", "zstd"];

/// Whether an `If-None-Match` value names `etag`, by the weak comparison
/// RFC 9110 prescribes for it (`W/` ignored), also accepting the
/// `-zstd`/`-gzip` forms [`encoded_etag`] hands out.
#[cfg(test)]
fn etag_matches(if_none_match: &str, etag: &str) -> bool {
    matching_etag(if_none_match, etag).is_some()
}

/// The quoted ETag of the `If-None-Match` entry that names `etag`, if any
/// (`*` names it as itself).
fn matching_etag(if_none_match: &str, etag: &str) -> Option<String> {
    let bare = etag.trim_matches('"');
    if_none_match
        .split(',')
        .map(str::trim)
        .find_map(|candidate| {
            if candidate == "*" {
                return Some(etag.to_owned());
            }
            let tag = candidate
                .strip_prefix("W/")
                .unwrap_or(candidate)
                .trim_matches('"');
            let same = tag == bare
                || CODINGS
                    .iter()
                    .any(|c| tag.strip_suffix(c).and_then(|t| t.strip_suffix('-')) == Some(bare));
            same.then(|| format!("\"{tag}\""))
        })
}

/// The ETag of `etag`'s body in `coding`: a compressed body is a
/// different representation, so a strong ETag must differ from the
/// identity one (RFC 9110 §8.8.1). `"h"` becomes `"h-zstd"`, as Apache's
/// mod_deflate makes `"h-gzip"`; [`matching_etag`] accepts both forms.
pub(crate) fn encoded_etag(etag: &str, coding: &str) -> Option<HeaderValue> {
    let bare = etag.strip_suffix('"')?;
    HeaderValue::from_str(&format!("{bare}-{coding}\"")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etags_hash_the_body_only() {
        let a = Content::new(b"abc".to_vec(), "text/plain");
        let b = Content::new(b"abc".to_vec(), "application/json");
        assert_eq!(a.etag, b.etag);
        assert_ne!(a.etag, Content::new(b"abd".to_vec(), "text/plain").etag);
        assert_eq!(a.etag.len(), 34);
    }

    #[test]
    fn if_none_match_forms() {
        let etag = "\"0123\"";
        for yes in [
            "\"0123\"",
            "W/\"0123\"",
            "\"x\", \"0123\"",
            "*",
            "\"0123-gzip\"",
            "\"0123-br\"",
            "\"0123-zstd\"",
        ] {
            assert!(etag_matches(yes, etag), "{yes}");
        }
        for no in ["\"012\"", "\"0123-zip\"", "\"0123gzip\"", ""] {
            assert!(!etag_matches(no, etag), "{no}");
        }
    }

    #[test]
    fn encoded_etags_are_suffixed_inside_the_quotes() {
        assert_eq!(encoded_etag("\"0123\"", "zstd").unwrap(), "\"0123-zstd\"");
        assert!(etag_matches("\"0123-zstd\"", "\"0123\""));
        assert!(encoded_etag("0123", "gzip").is_none());
    }

    #[test]
    fn fresh_requests_get_304_with_the_same_validators() {
        let c = Content::new(b"chunk".to_vec(), "application/octet-stream");
        let mut req = HeaderMap::new();
        let full = respond(&c, Lifetime::Immutable, &req);
        assert_eq!(full.status(), StatusCode::OK);
        assert_eq!(
            full.headers()[header::CACHE_CONTROL],
            "public, max-age=31536000, immutable"
        );
        req.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_str(&c.etag).unwrap(),
        );
        let not_modified = respond(&c, Lifetime::Immutable, &req);
        assert_eq!(not_modified.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(
            not_modified.headers()[header::ETAG],
            full.headers()[header::ETAG]
        );
        let gz = format!("{}-gzip\"", c.etag.trim_end_matches('"'));
        req.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_str(&format!("W/{gz}")).unwrap(),
        );
        let not_modified = respond(&c, Lifetime::Immutable, &req);
        assert_eq!(not_modified.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(
            not_modified.headers()[header::ETAG],
            gz.as_str(),
            "the held form comes back"
        );
        assert_eq!(
            respond(&c, Lifetime::MANIFEST, &HeaderMap::new()).headers()[header::CACHE_CONTROL],
            "public, max-age=10"
        );
    }
}
