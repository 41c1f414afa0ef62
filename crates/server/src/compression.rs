//! Content codings: negotiated per request, computed once per (content,
//! coding) on the compute gate, never on the threads that accept requests.
//!
//! tower-http's compression layer compressed every answer again for every
//! request, on the async threads: sixteen clients fetching one cached 2 MB
//! chunk as gzip took `/healthz` from 341 to 0.9 answers a second. Here a
//! body whose ETag is its content hash (every generated answer's) is
//! compressed once per coding and kept beside the content
//! ([`crate::cache::ContentCache::encoded`], keyed by the ETag, so equal
//! bytes share one copy); other bodies (the viewer's files) are compressed
//! per request. Every compression runs through the same
//! [`crate::limits::ComputeGate`] as generation, so it waits its turn with
//! generation instead of starving the runtime.
//!
//! What is offered, and why (release build, one core, a 2.1 MB JSON
//! chunk / a 0.85 MB MKPC chunk / a 0.2 MB cave glb):
//!
//! - **zstd** (the C reference library, already a server dependency for the
//!   Roblox buffers), preferred: level 3 comes near gzip 6's ratio at a
//!   tenth of its time; above [`ZSTD_FAST_ABOVE`] level 1, which measured both faster
//!   and smaller on the JSON chunk (4.7 ms, 35.6 % vs 9.2 ms, 37.2 %).
//! - **gzip** (flate2 with its pure-Rust miniz_oxide back end, already in the
//!   tree through png), for clients without zstd (Safari, curl, most CDNs'
//!   origin fetches): level 6 up to [`GZIP_FAST_ABOVE`], level 1 above, where 6
//!   costs ten times as much for a few per cent (JSON chunk 101 ms → 9.9 ms
//!   for 35.9 % → 40.0 %; MKPC 24 ms → 3.3 ms for 74.8 % → 76.5 %; glb
//!   6.2 ms → 0.6 ms for 47.9 % → 48.8 %).
//! - **br is no longer offered**: every client that accepts br also accepts
//!   gzip or zstd, brotli at a cheap quality (4) took 40 ms on the JSON
//!   chunk (four times gzip 1, for 37 % instead of 40 %), and a third cached
//!   copy per content would take memory from the other two.
//!
//! Bodies under [`MIN_BYTES`] and media that are compressed already (PNG,
//! JPEG, WebP, zip…: a PNG chunk measured 100.0 % in every coding) stay
//! identity unless the client refuses identity. glb is compressed: float
//! meshes measured 48–52 %.

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::io::Write;

use crate::content;
use crate::cost::Estimate;
use crate::error::ApiError;
use crate::http_rules;
use crate::metrics::Metrics;
use crate::state::AppState;

/// Bodies smaller than this stay identity: a few hundred bytes saved do not
/// pay for a trip through the gate, and small JSON (errors, health) is
/// most of what falls under it.
pub(crate) const MIN_BYTES: usize = 1024;

/// Bodies above this get gzip's level 1 rather than 6 (see the module
/// documentation for the measurements).
const GZIP_FAST_ABOVE: usize = 64 * 1024;

/// Bodies above this get zstd's level 1 rather than 3.
const ZSTD_FAST_ABOVE: usize = 1024 * 1024;

/// A content coding this server produces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Coding {
    /// Zstandard (RFC 8878).
    Zstd,
    /// gzip (RFC 1952).
    Gzip,
}

impl Coding {
    /// Every coding, in the order preferred when a client weighs them
    /// equally.
    pub(crate) const ALL: [Coding; 2] = [Coding::Zstd, Coding::Gzip];

    /// The coding's name in `Content-Encoding` and ETag suffixes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Coding::Zstd => "zstd",
            Coding::Gzip => "gzip",
        }
    }

    /// The gate's and the cache metrics' kind for this coding's work.
    pub(crate) fn kind(self) -> &'static str {
        match self {
            Coding::Zstd => "compress_zstd",
            Coding::Gzip => "compress_gzip",
        }
    }

    fn header(self) -> HeaderValue {
        HeaderValue::from_static(self.name())
    }
}

/// `body` in `coding`, at the level the module documentation gives for its
/// size, counted in `metrics`. Pure and deterministic (gzip writes no time
/// or file name), so every replica hands out the same bytes under one ETag.
pub(crate) fn compress(coding: Coding, body: &[u8], metrics: &Metrics) -> Result<Bytes, ApiError> {
    let out = match coding {
        Coding::Zstd => {
            let level = if body.len() > ZSTD_FAST_ABOVE { 1 } else { 3 };
            zstd::bulk::compress(body, level)
        }
        Coding::Gzip => {
            let level = if body.len() > GZIP_FAST_ABOVE { 1 } else { 6 };
            let mut encoder = flate2::write::GzEncoder::new(
                Vec::with_capacity(body.len() / 2),
                flate2::Compression::new(level),
            );
            encoder.write_all(body).and_then(|()| encoder.finish())
        }
    };
    let out = out.map_err(|e| ApiError::internal(coding.kind(), &e))?;
    metrics.compressed(coding.name());
    Ok(Bytes::from(out))
}

/// What a request's `Accept-Encoding` allows, as q-values in thousandths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Accepted {
    zstd: u16,
    gzip: u16,
    /// identity's q when named (or given by `*`); when not named it is
    /// acceptable but loses to any coding the client named (RFC 9110
    /// §12.5.3).
    identity: Option<u16>,
}

/// How to answer, given what the client accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Choice {
    /// The body as it is.
    Identity,
    /// The body in this coding.
    Encode(Coding),
    /// Nothing the client accepts: 406.
    Refuse,
}

impl Accepted {
    /// Reads every `Accept-Encoding` field. No field means identity (what
    /// clients that send none expect); an entry with a malformed q is
    /// ignored, as are codings this server does not produce; the first
    /// entry for a coding counts.
    pub(crate) fn parse(headers: &HeaderMap) -> Accepted {
        let mut zstd = None;
        let mut gzip = None;
        let mut identity = None;
        let mut star = None;
        let items = headers
            .get_all(header::ACCEPT_ENCODING)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','));
        for item in items {
            let mut parts = item.split(';');
            let token = parts.next().unwrap_or("").trim();
            let Some(q) = weight(parts) else {
                continue;
            };
            let slot = if token.eq_ignore_ascii_case("zstd") {
                &mut zstd
            } else if token.eq_ignore_ascii_case("gzip") || token.eq_ignore_ascii_case("x-gzip") {
                &mut gzip
            } else if token.eq_ignore_ascii_case("identity") {
                &mut identity
            } else if token == "*" {
                &mut star
            } else {
                continue;
            };
            slot.get_or_insert(q);
        }
        Accepted {
            zstd: zstd.or(star).unwrap_or(0),
            gzip: gzip.or(star).unwrap_or(0),
            identity: identity.or(star),
        }
    }

    fn q(&self, coding: Coding) -> u16 {
        match coding {
            Coding::Zstd => self.zstd,
            Coding::Gzip => self.gzip,
        }
    }

    /// The acceptable coding of highest q (ties: [`Coding::ALL`]'s order).
    fn best(&self) -> Option<(Coding, u16)> {
        Coding::ALL
            .into_iter()
            .map(|c| (c, self.q(c)))
            .filter(|&(_, q)| q > 0)
            .reduce(|best, next| if next.1 > best.1 { next } else { best })
    }

    fn identity_ok(&self) -> bool {
        self.identity != Some(0)
    }

    /// Whether no answer could be acceptable (`identity;q=0` or `*;q=0`
    /// with no coding this server produces): a 406 before any work.
    pub(crate) fn refuses_everything(&self) -> bool {
        !self.identity_ok() && self.best().is_none()
    }

    /// The answer's coding. `worth` says whether compressing this body
    /// pays (large enough, not compressed media): if not, identity is sent
    /// whenever the client accepts it.
    pub(crate) fn choose(&self, worth: bool) -> Choice {
        match self.best() {
            Some((coding, q)) if worth => {
                if self.identity.is_some_and(|i| i > q) {
                    Choice::Identity
                } else {
                    Choice::Encode(coding)
                }
            }
            Some((coding, _)) if !self.identity_ok() => Choice::Encode(coding),
            _ if self.identity_ok() => Choice::Identity,
            _ => Choice::Refuse,
        }
    }
}

/// The q-value of an entry's parameters (1 when absent), or `None` when a
/// `q` is malformed (RFC 9110 §12.4.2: `0`, `1`, or up to three decimals).
fn weight<'a>(params: impl Iterator<Item = &'a str>) -> Option<u16> {
    let mut q = 1000;
    for param in params {
        let Some((name, value)) = param.split_once('=') else {
            continue;
        };
        if !name.trim().eq_ignore_ascii_case("q") {
            continue;
        }
        q = parse_q(value.trim())?;
    }
    Some(q)
}

fn parse_q(value: &str) -> Option<u16> {
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths = format!("{fraction:0<3}").parse::<u16>().ok()?;
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

/// Media that are compressed already: another coding only costs time.
fn already_compressed(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    matches!(
        essence.as_str(),
        "image/png"
            | "image/jpeg"
            | "image/gif"
            | "image/webp"
            | "image/avif"
            | "application/zip"
            | "application/gzip"
            | "application/zstd"
            | "font/woff"
            | "font/woff2"
    ) || essence.starts_with("video/")
        || essence.starts_with("audio/")
}

/// `Vary: accept-encoding`, unless a `Vary` field names it already.
fn vary_on_encoding(headers: &mut HeaderMap) {
    let named = headers.get_all(header::VARY).iter().any(|v| {
        v.to_str()
            .is_ok_and(|v| v.to_ascii_lowercase().contains("accept-encoding"))
    });
    if !named {
        headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
}

/// Whether `etag` is one of ours ([`content::Content`]'s: the quoted
/// 128-bit hash of the body), so it may key a copy of the bytes. Others'
/// strong ETags (the viewer's files: modification time and size) may name
/// a file rewritten in the same second with the same size.
fn is_content_hash(etag: &str) -> bool {
    etag.strip_prefix('"')
        .and_then(|e| e.strip_suffix('"'))
        .is_some_and(|h| h.len() == 32 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The response's strong ETag, if it has one (weak ones name equivalent,
/// not equal, bytes: they get no coding suffix).
fn strong_etag(headers: &HeaderMap) -> Option<String> {
    let etag = headers.get(header::ETAG)?.to_str().ok()?;
    (etag.len() > 2 && etag.starts_with('"') && etag.ends_with('"')).then(|| etag.to_owned())
}

/// Middleware (outside everything but the panic catcher): refuses with 406
/// before any work when nothing is acceptable, then encodes the answer as
/// negotiated.
pub(crate) async fn negotiate(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let accepted = Accepted::parse(request.headers());
    if accepted.refuses_everything() {
        return http_rules::not_acceptable();
    }
    let response = next.run(request).await;
    encode(&state, accepted, response).await
}

async fn encode(state: &AppState, accepted: Accepted, response: Response) -> Response {
    let status = response.status();
    let headers = response.headers();
    if status.is_informational()
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED
        || headers.contains_key(header::CONTENT_ENCODING)
        || headers.contains_key(header::CONTENT_RANGE)
    {
        return response;
    }
    // The routes' bodies know their length; a file's (the viewer's) is a
    // stream that declares it in Content-Length. A declared length the body
    // cannot have (a HEAD answer emptied before it got here) leaves the
    // answer alone, as does a stream of unknown length.
    let hint = response.body().size_hint();
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    let len = match (hint.exact(), declared) {
        (Some(exact), Some(d)) if exact != d => return response,
        (Some(exact), _) => exact,
        (None, Some(d)) if hint.lower() <= d && hint.upper().is_none_or(|u| u >= d) => d,
        (None, _) => return response,
    };
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    let media = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let worth = len >= MIN_BYTES && !already_compressed(media);
    let coding = match accepted.choose(worth) {
        Choice::Identity => {
            let mut response = response;
            if worth {
                vary_on_encoding(response.headers_mut());
            }
            return response;
        }
        Choice::Refuse => return http_rules::not_acceptable(),
        Choice::Encode(coding) => coding,
    };
    let (mut parts, body) = response.into_parts();
    let body = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(body) => body,
        Err(e) => return ApiError::internal("reading an answer to compress", &e).into_response(),
    };
    let etag = strong_etag(&parts.headers);
    let encoded = match etag.as_deref().filter(|e| is_content_hash(e)) {
        Some(etag) => {
            state
                .content
                .encoded(etag, coding, body.clone(), &state.gate)
                .await
        }
        None => {
            let (metrics, body) = (state.metrics.clone(), body.clone());
            state
                .gate
                .run(coding.kind(), Estimate::NONE, move |_| {
                    compress(coding, &body, &metrics)
                })
                .await
        }
    };
    vary_on_encoding(&mut parts.headers);
    match encoded {
        Ok(encoded) => {
            parts
                .headers
                .insert(header::CONTENT_ENCODING, coding.header());
            parts
                .headers
                .insert(header::CONTENT_LENGTH, HeaderValue::from(encoded.len()));
            parts.headers.remove(header::ACCEPT_RANGES);
            if let Some(tagged) = etag.and_then(|e| content::encoded_etag(&e, coding.name())) {
                parts.headers.insert(header::ETAG, tagged);
            }
            Response::from_parts(parts, Body::from(encoded))
        }
        // A full queue is no reason to refuse what identity can answer.
        Err(_) if accepted.identity_ok() => Response::from_parts(parts, Body::from(body)),
        Err(e) => e.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepted(value: &str) -> Accepted {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        Accepted::parse(&headers)
    }

    #[test]
    fn q_values_choose() {
        use Choice::*;
        use Coding::*;
        for (header, worth, expected) in [
            ("gzip", true, Encode(Gzip)),
            ("gzip, deflate, br, zstd", true, Encode(Zstd)),
            ("gzip, deflate, br", true, Encode(Gzip)),
            ("zstd;q=0.5, gzip", true, Encode(Gzip)),
            ("zstd;q=0.5, gzip;q=0.5", true, Encode(Zstd)),
            ("x-gzip", true, Encode(Gzip)),
            ("GZIP;Q=1.000", true, Encode(Gzip)),
            ("gzip;q=0", true, Identity),
            ("gzip;q=0.5, identity", true, Identity),
            ("gzip;q=0.5, identity;q=0.4", true, Encode(Gzip)),
            ("br", true, Identity),
            ("", true, Identity),
            ("*", true, Encode(Zstd)),
            ("*;q=0.5, zstd;q=0", true, Encode(Gzip)),
            ("*;q=0, identity", true, Identity),
            ("*;q=0", true, Refuse),
            ("identity;q=0", true, Refuse),
            ("br, identity;q=0", true, Refuse),
            ("gzip, identity;q=0", false, Encode(Gzip)),
            ("gzip, zstd", false, Identity),
            ("gzip;q=2", true, Identity),
            ("gzip;q=0.5.1", true, Identity),
            ("gzip;q=0.0001", true, Identity),
            ("identity;q=nope", true, Identity),
            ("zstd;q=0.001", true, Encode(Zstd)),
        ] {
            assert_eq!(
                accepted(header).choose(worth),
                expected,
                "{header:?} worth={worth}"
            );
        }
        assert_eq!(Accepted::parse(&HeaderMap::new()).choose(true), Identity);
        assert!(accepted("identity;q=0").refuses_everything());
        assert!(!accepted("gzip, identity;q=0").refuses_everything());
    }

    #[test]
    fn compressed_media_and_small_bodies_are_left_alone() {
        assert!(already_compressed("image/png"));
        assert!(already_compressed("Image/PNG; charset=binary"));
        assert!(!already_compressed("model/gltf-binary"));
        assert!(!already_compressed("image/svg+xml"));
        assert!(!already_compressed("application/json"));
    }

    #[test]
    fn only_content_hashes_key_copies() {
        let ours = crate::content::Content::new(b"x".to_vec(), "text/plain").etag;
        assert!(is_content_hash(&ours), "{ours}");
        assert!(!is_content_hash("\"6b157327.285e9e84-465\""));
        assert!(!is_content_hash(&format!("W/{ours}")));
    }

    #[test]
    fn every_coding_round_trips_at_both_levels() {
        let metrics = Metrics::new();
        for len in [MIN_BYTES, GZIP_FAST_ABOVE + 1, ZSTD_FAST_ABOVE + 1] {
            let body: Vec<u8> = (0..len)
                .map(|i| (i % 251) as u8 ^ (i / 977) as u8)
                .collect();
            let zstd = compress(Coding::Zstd, &body, &metrics).unwrap();
            assert_eq!(zstd::decode_all(&zstd[..]).unwrap(), body, "zstd {len}");
            let gzip = compress(Coding::Gzip, &body, &metrics).unwrap();
            let mut decoded = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gzip[..]), &mut decoded)
                .unwrap();
            assert_eq!(decoded, body, "gzip {len}");
            assert!(gzip.len() < body.len() && zstd.len() < body.len());
            assert_eq!(
                compress(Coding::Gzip, &body, &metrics).unwrap(),
                gzip,
                "deterministic"
            );
        }
    }
}
