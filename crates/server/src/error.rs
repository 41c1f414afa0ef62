//! JSON errors: every refusal names what was wrong, where, and what was
//! expected, with the HTTP status that fits.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use mangekyo_core::{ParamError, Refusal};
use mangekyo_formats::FormatError;
use mangekyo_store::StoreError;
use serde::Serialize;
use utoipa::ToSchema;

/// An error answer: `{"error": {"status": 400, "code": "...", ...}}`.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ApiError {
    /// The HTTP status.
    #[schema(value_type = u16, example = 400)]
    #[serde(serialize_with = "status_code")]
    pub status: StatusCode,
    /// A stable machine-readable code (`invalid_parameter`, `not_found`, ...).
    #[schema(example = "invalid_parameter")]
    pub code: &'static str,
    /// A sentence for people.
    #[schema(example = "lod must be in 0..=20, got 25")]
    pub message: String,
    /// The parameter or field at fault, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "lod")]
    pub parameter: Option<String>,
    /// What would have been accepted, when that can be said briefly.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "an integer in 0..=20")]
    pub expected: Option<String>,
}

fn status_code<S: serde::Serializer>(status: &StatusCode, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u16(status.as_u16())
}

/// The body around an [`ApiError`].
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct ErrorBody {
    /// The error.
    pub error: ApiError,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            parameter: None,
            expected: None,
        }
    }

    /// 400: a parameter is malformed or out of range.
    pub fn invalid(
        parameter: &str,
        message: impl Into<String>,
        expected: impl Into<String>,
    ) -> ApiError {
        ApiError {
            parameter: Some(parameter.to_owned()),
            expected: Some(expected.into()),
            ..ApiError::new(StatusCode::BAD_REQUEST, "invalid_parameter", message)
        }
    }

    /// 400: the body is not the JSON document the route takes.
    pub fn malformed_body(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "malformed_body", message)
    }

    /// 404: the thing asked for does not exist.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 404 for a path no route serves.
    pub fn no_route(method: &str, path: &str) -> ApiError {
        let message =
            format!("no route for {method} {path}; the routes are listed at /openapi.json");
        ApiError::new(StatusCode::NOT_FOUND, "no_route", message)
    }

    /// 405 for a known path with the wrong method.
    pub fn method_not_allowed(method: &str, path: &str) -> ApiError {
        let message = format!("{path} does not take {method}; see /openapi.json");
        ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            message,
        )
    }

    /// 409: the request conflicts with what is stored.
    pub fn conflict(parameter: &str, message: impl Into<String>) -> ApiError {
        ApiError {
            parameter: Some(parameter.to_owned()),
            ..ApiError::new(StatusCode::CONFLICT, "conflict", message)
        }
    }

    /// 413: the body is larger than the limit.
    pub fn too_large(limit: usize) -> ApiError {
        let message = format!("request body is larger than the limit of {limit} bytes");
        ApiError {
            expected: Some(format!("at most {limit} bytes")),
            ..ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large", message)
        }
    }

    /// 408: the body arrived too slowly (`paced_body.rs`).
    pub fn body_too_slow(message: impl Into<String>) -> ApiError {
        ApiError {
            expected: Some("a body sent at the rate the connection allows".to_owned()),
            ..ApiError::new(StatusCode::REQUEST_TIMEOUT, "body_too_slow", message)
        }
    }

    /// 415: the body is not JSON.
    pub fn unsupported_media(message: impl Into<String>) -> ApiError {
        ApiError {
            expected: Some("Content-Type: application/json".to_owned()),
            ..ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                message,
            )
        }
    }

    /// 503: too much generation work is queued; retry shortly.
    pub fn busy() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "the generation queue is full; retry in a second",
        )
    }

    /// 503: what the request needs is still being computed (send
    /// `Retry-After` with it: [`ApiError::with_retry_after`]).
    pub fn computing(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "computing", message)
    }

    /// The answer with `Retry-After: seconds` (a 503's default is 1).
    pub fn with_retry_after(self, seconds: u64) -> Response {
        let mut response = self.into_response();
        if let Ok(value) = HeaderValue::from_str(&seconds.max(1).to_string()) {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        response
    }

    /// 401: no usable credentials.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError {
            expected: Some("Authorization: Bearer <token>".to_owned()),
            ..ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
        }
    }

    /// 403: the credentials (or the server's mode) do not allow this.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, code, message)
    }

    /// 429: a token's quota is spent.
    pub fn quota(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "quota_exceeded", message)
    }

    /// 503: the request took longer than the server's limit.
    pub fn timeout(seconds: f64) -> ApiError {
        let message = format!("the request took longer than the {seconds} s limit");
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "timeout", message)
    }

    /// 503: the store cannot be reached.
    pub fn store_unavailable(err: &StoreError) -> ApiError {
        tracing::error!(error = %err, "planet store unavailable");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "store_unavailable",
            "the planet store is unavailable",
        )
    }

    /// 503 for a health check: the store cannot be reached or cannot
    /// write, with the store's error in the message (for the operator
    /// whose probe reads it; no password is in it).
    pub fn store_unhealthy(err: &StoreError) -> ApiError {
        tracing::warn!(error = %err, "health check: planet store unhealthy");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "store_unavailable",
            format!("the planet store is unavailable: {err}"),
        )
    }

    /// 500: a bug or an unexpected failure. The details go to the log,
    /// not to the client.
    pub fn internal(context: &str, err: &dyn std::fmt::Display) -> ApiError {
        tracing::error!(error = %err, "{context}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("{context} failed; see the server log"),
        )
    }
}

impl ApiError {
    /// The one conversion of a library's error into an answer: a refused
    /// parameter ([`Refusal::param`]) is a 400 naming it, with the library's
    /// own message; anything else is a 422 (the input was well-formed, but
    /// nothing could be generated from it).
    pub fn refused<E: Refusal + ?Sized>(err: &E) -> ApiError {
        let message = err.to_string();
        match err.param() {
            Some(p) => ApiError::invalid(&p.name, message, p.expected),
            None => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "generation_failed",
                message,
            ),
        }
    }

    /// Bytes that could not be encoded: a refused request parameter is a
    /// 400, anything else a bug (500).
    pub fn encoding(err: &FormatError) -> ApiError {
        match err.param() {
            Some(_) => ApiError::refused(err),
            None => ApiError::internal("encoding", err),
        }
    }
}

impl From<ParamError> for ApiError {
    fn from(err: ParamError) -> ApiError {
        ApiError::refused(&err)
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> ApiError {
        match err {
            StoreError::NameTaken { ref name } => {
                ApiError::conflict("name", format!("a planet named {name:?} already exists"))
            }
            StoreError::InvalidName { reason } => ApiError::invalid(
                "name",
                format!("name {reason}"),
                "1 to 100 printable characters, no outer spaces",
            ),
            StoreError::InvalidParams { reason } => {
                ApiError::invalid("params", format!("params {reason}"), "a JSON object")
            }
            StoreError::CorruptRow { .. } => ApiError::internal("reading a stored planet", &err),
            other => ApiError::store_unavailable(&other),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status;
        let retry = status == StatusCode::SERVICE_UNAVAILABLE;
        let mut response = (status, axum::Json(ErrorBody { error: self })).into_response();
        let headers = response.headers_mut();
        // Errors are never cached: the same URL may well succeed later.
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        if retry {
            headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_serialise_with_their_parameter() {
        let e = ApiError::invalid(
            "lod",
            "lod must be in 0..=20, got 25",
            "an integer in 0..=20",
        );
        let json = serde_json::to_value(ErrorBody { error: e }).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"error": {"status": 400, "code": "invalid_parameter",
                "message": "lod must be in 0..=20, got 25", "parameter": "lod", "expected": "an integer in 0..=20"}})
        );
    }

    #[test]
    fn store_faults_split_into_client_and_server_errors() {
        let taken: ApiError = StoreError::NameTaken {
            name: "Terra".into(),
        }
        .into();
        assert_eq!(
            (taken.status, taken.parameter.as_deref()),
            (StatusCode::CONFLICT, Some("name"))
        );
        let corrupt: ApiError = StoreError::CorruptRow {
            id: 3,
            reason: "params: EOF".into(),
        }
        .into();
        assert_eq!(corrupt.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(
            !corrupt.message.contains("EOF"),
            "internals stay in the log: {}",
            corrupt.message
        );
    }
}
