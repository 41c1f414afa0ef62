//! Where absolute URLs in answers point: the operator's `--public-url`,
//! or else the request's `Host` and `X-Forwarded-Proto`, checked.
//!
//! An answer built from request headers is only as trustworthy as those
//! headers, and a shared cache (a CDN, nginx's `proxy_cache`) keeps it for
//! everyone who asks the same URL. So:
//!
//! - With a configured public URL the headers are ignored: the answer is the
//!   same for every request and may be `immutable`.
//! - Without one, `Host` must be a plain `host[:port]` and
//!   `X-Forwarded-Proto` exactly `http` or `https` (anything else is a 400
//!   naming the header: `javascript://…` or `a"b<script>` never reach a
//!   body), and the answer is `private` with `Vary: Host,
//!   X-Forwarded-Proto`, so no shared cache stores one client's headers for
//!   another (some CDNs ignore `Vary`; none store `private`).

use std::fmt;
use std::str::FromStr;

use axum::http::{HeaderMap, header};

use crate::error::ApiError;

/// `Vary` of an answer built from [`Origin::Request`].
pub(crate) const VARY_ORIGIN: &str = "Host, X-Forwarded-Proto, Accept-Encoding";

/// The public base URL absolute URLs start with: `http` or `https`, a
/// host, an optional port and an optional path prefix (no trailing `/`,
/// no query, no fragment, no user name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl(String);

impl PublicUrl {
    /// The URL, without a trailing `/` (`https://maps.example/terrain`).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PublicUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for PublicUrl {
    type Err = String;

    fn from_str(text: &str) -> Result<PublicUrl, String> {
        let expected = "http:// or https:// followed by host[:port] and an optional /path (no query, fragment or user name)";
        let (scheme, rest) = text
            .split_once("://")
            .ok_or_else(|| format!("{text:?} is not a URL: expected {expected}"))?;
        if scheme != "http" && scheme != "https" {
            return Err(format!(
                "{text:?}: the scheme must be http or https, got {scheme:?}"
            ));
        }
        let (authority, path) = match rest.find('/') {
            Some(k) => rest.split_at(k),
            None => (rest, ""),
        };
        if !is_authority(authority) {
            return Err(format!(
                "{text:?}: {authority:?} is not a host[:port] (expected {expected})"
            ));
        }
        let path = path.trim_end_matches('/');
        let path_ok = path.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'.' | b'_' | b'~' | b'%')
        }) && !path.contains("//");
        if !path_ok {
            return Err(format!(
                "{text:?}: the path {path:?} may hold only letters, digits, '/', '-', '.', '_', '~' and '%' (no query or fragment)"
            ));
        }
        Ok(PublicUrl(format!("{scheme}://{authority}{path}")))
    }
}

/// Where an answer's absolute URLs came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Origin {
    /// The configured public URL: the same for every request.
    Configured(String),
    /// The request's checked `Host` and `X-Forwarded-Proto`: the answer
    /// depends on them (see [`VARY_ORIGIN`]).
    Request(String),
}

impl Origin {
    /// The base URL, without a trailing `/`.
    pub(crate) fn base(&self) -> &str {
        match self {
            Origin::Configured(b) | Origin::Request(b) => b,
        }
    }
}

/// The base of absolute URLs for a request: `configured` if set, else its
/// checked headers.
pub(crate) fn origin(
    configured: Option<&PublicUrl>,
    headers: &HeaderMap,
) -> Result<Origin, ApiError> {
    if let Some(url) = configured {
        return Ok(Origin::Configured(url.0.clone()));
    }
    let refuse =
        |name: &str, message: String, expected: &str| ApiError::invalid(name, message, expected);
    let host_expected = "host[:port]: letters, digits, '-' and '.' (or [IPv6]), then an optional port; or run the server with --public-url";
    let host = match headers.get(header::HOST) {
        None => {
            return Err(refuse(
                "Host",
                "this answer holds absolute URLs: it needs a Host header (or a server run with --public-url)".to_owned(),
                host_expected,
            ));
        }
        Some(value) => value
            .to_str()
            .ok()
            .filter(|h| is_authority(h))
            .ok_or_else(|| {
                refuse(
                    "Host",
                    format!(
                        "the Host header {:?} is not a host[:port]",
                        String::from_utf8_lossy(value.as_bytes())
                    ),
                    host_expected,
                )
            })?,
    };
    let scheme = match headers.get("x-forwarded-proto") {
        None => "http",
        Some(value) => match value.to_str().map(str::to_ascii_lowercase).as_deref() {
            Ok("http") => "http",
            Ok("https") => "https",
            _ => {
                return Err(refuse(
                    "X-Forwarded-Proto",
                    format!(
                        "the X-Forwarded-Proto header {:?} is neither http nor https",
                        String::from_utf8_lossy(value.as_bytes())
                    ),
                    "http or https",
                ));
            }
        },
    };
    Ok(Origin::Request(format!(
        "{scheme}://{}",
        host.to_ascii_lowercase()
    )))
}

/// Whether `text` is `host[:port]`: DNS labels (letters, digits, inner
/// `-`) joined by `.`, or an IPv6 address in brackets; a port of 1 to 5
/// digits in 1..=65535.
fn is_authority(text: &str) -> bool {
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        let Some((inside, after)) = rest.split_once(']') else {
            return false;
        };
        let v6 = !inside.is_empty()
            && inside
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.');
        if !v6 {
            return false;
        }
        match after {
            "" => return true,
            _ => match after.strip_prefix(':') {
                Some(port) => ("", Some(port)),
                None => return false,
            },
        }
    } else {
        match text.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (text, None),
        }
    };
    let port_ok = port.is_none_or(|p| {
        !p.is_empty()
            && p.len() <= 5
            && p.bytes().all(|b| b.is_ascii_digit())
            && p.parse::<u32>().is_ok_and(|n| (1..=65_535).contains(&n))
    });
    if !port_ok {
        return false;
    }
    if host.is_empty() {
        // An IPv6 literal with a port (checked above).
        return text.starts_with('[');
    }
    host.len() <= 253
        && host.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(host: Option<&str>, proto: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Some(host) = host {
            h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        }
        if let Some(proto) = proto {
            h.insert("x-forwarded-proto", HeaderValue::from_str(proto).unwrap());
        }
        h
    }

    #[test]
    fn hosts_are_plain_host_and_port() {
        for ok in [
            "example.com",
            "Maps.Example.com:8080",
            "127.0.0.1:3000",
            "localhost",
            "[::1]:8080",
            "[2001:db8::1]",
        ] {
            assert!(is_authority(ok), "{ok}");
        }
        for bad in [
            "",
            "a\"b<script>",
            "evil.example/x",
            "user@evil.example",
            "evil.example:0",
            "evil.example:99999",
            "evil.example:",
            "-a.example",
            "a..b",
            "[::1",
            "[::1]x",
            "a b",
            "javascript:",
        ] {
            assert!(!is_authority(bad), "{bad}");
        }
    }

    #[test]
    fn request_origins_are_checked_and_configured_ones_win() {
        let good = headers(Some("Maps.example:8080"), Some("HTTPS"));
        assert_eq!(
            origin(None, &good).unwrap(),
            Origin::Request("https://maps.example:8080".to_owned())
        );
        let e = origin(None, &headers(Some("a\"b<script>"), None)).unwrap_err();
        assert_eq!(e.parameter.as_deref(), Some("Host"));
        let e = origin(None, &headers(Some("evil.example"), Some("javascript"))).unwrap_err();
        assert_eq!(e.parameter.as_deref(), Some("X-Forwarded-Proto"));
        assert!(origin(None, &headers(None, None)).is_err());
        let url: PublicUrl = "https://tiles.example/terrain/".parse().unwrap();
        let poisoned = headers(Some("evil.example"), Some("javascript"));
        assert_eq!(
            origin(Some(&url), &poisoned).unwrap(),
            Origin::Configured("https://tiles.example/terrain".to_owned())
        );
    }

    #[test]
    fn public_urls_are_http_or_https_bases() {
        for bad in [
            "tiles.example",
            "javascript://evil.example",
            "ftp://x.example",
            "https://user@x.example",
            "https://x.example/?q=1",
            "https://x.example/#f",
            "https://x.example/a\"b",
            "https://",
        ] {
            assert!(bad.parse::<PublicUrl>().is_err(), "{bad}");
        }
        let u: PublicUrl = "http://[::1]:8080".parse().unwrap();
        assert_eq!(u.as_str(), "http://[::1]:8080");
    }
}
