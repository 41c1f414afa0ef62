//! Two HTTP rules the handlers' shared answer code cannot see, applied as
//! response mappings:
//!
//! - **412 for unsafe methods.** `If-None-Match` naming the current ETag is
//!   answered 304 only for GET and HEAD; for any other method the
//!   condition failing means 412 Precondition Failed (RFC 9110 §13.1.2).
//! - **A 406 is an error, not content.** When `Accept-Encoding` rules out
//!   every coding (`identity;q=0` and nothing we offer), the answer is a
//!   plain JSON error, never stored, with no ETag and no `immutable`, so no
//!   cache keeps a refusal as the content; `compression.rs` gives it before
//!   the handler runs, so a refused request costs no work.

use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::IntoResponse;

use crate::compression::Coding;
use crate::error::ApiError;

/// 304 → 412 for methods other than GET and HEAD.
pub(crate) async fn preconditions(request: Request, next: Next) -> axum::response::Response {
    let safe = matches!(*request.method(), Method::GET | Method::HEAD);
    let response = next.run(request).await;
    if safe || response.status() != StatusCode::NOT_MODIFIED {
        return response;
    }
    let etag = response.headers().get(header::ETAG).cloned();
    let mut failed = ApiError {
        status: StatusCode::PRECONDITION_FAILED,
        code: "precondition_failed",
        message: "If-None-Match names the current representation; a request that is not GET or HEAD fails (RFC 9110 §13.1.2)".to_owned(),
        parameter: Some("If-None-Match".to_owned()),
        expected: Some("no If-None-Match, or one that does not match".to_owned()),
    }
    .into_response();
    if let Some(etag) = etag {
        failed.headers_mut().insert(header::ETAG, etag);
    }
    failed
}

/// The 406 for a request whose `Accept-Encoding` rules out every coding
/// this server produces (`compression.rs` names them).
pub(crate) fn not_acceptable() -> axum::response::Response {
    let offered: Vec<&str> = std::iter::once("identity")
        .chain(Coding::ALL.iter().map(|c| c.name()))
        .collect();
    let mut refused = ApiError {
        status: StatusCode::NOT_ACCEPTABLE,
        code: "not_acceptable",
        message: "Accept-Encoding rules out every coding this server offers".to_owned(),
        parameter: Some("Accept-Encoding".to_owned()),
        expected: Some(format!("one of {}", offered.join(", "))),
    }
    .into_response();
    refused
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    refused
}
