//! Health, metrics, the OpenAPI document and the index of generators.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::content::{Content, Lifetime, respond};
use crate::error::{ApiError, ErrorBody};
use crate::generators::{Generator, generators};
use crate::openapi::OpenApiJson;
use crate::state::AppState;

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(metrics))
        .routes(routes!(openapi_json))
        .routes(routes!(index))
}

/// The answer of `/healthz`.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Health {
    /// `ok`.
    pub status: &'static str,
    /// The store's backend (`sqlite`, `mysql`, `postgres`).
    pub store: &'static str,
    /// The server's version.
    pub version: &'static str,
}

/// Whether the server and its store answer, and the store can write.
///
/// After a write failed (a full disk, a database gone), this answers 503
/// naming the error until a write succeeds again; meanwhile it tries a
/// small write itself at most once a second, so it turns 200 again on its
/// own when the store recovers. While writes work it only reads.
#[utoipa::path(get, path = "/healthz", tag = "system",
    responses(
        (status = 200, description = "Serving, the store answers and its last write succeeded", body = Health),
        (status = 503, description = "The store does not answer or cannot write; the message names the store's error", body = ErrorBody),
    ))]
async fn healthz(State(state): State<AppState>) -> Result<Response, ApiError> {
    state
        .store
        .health()
        .await
        .map_err(|e| ApiError::store_unhealthy(&e))?;
    let health = Health {
        status: "ok",
        store: state.store.backend().name(),
        version: env!("CARGO_PKG_VERSION"),
    };
    let mut response = Json(health).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// Prometheus metrics (OpenMetrics text): requests and latencies by route,
/// generation time by kind, cache hits and misses, refused jobs.
#[utoipa::path(get, path = "/metrics", tag = "system",
    responses((status = 200, description = "OpenMetrics text", body = String,
        content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8")))]
async fn metrics(State(state): State<AppState>) -> Response {
    let text = state.metrics.render(state.content.weight());
    let headers = [
        (
            header::CONTENT_TYPE,
            HeaderValue::from_static(crate::metrics::CONTENT_TYPE),
        ),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
    ];
    (StatusCode::OK, headers, text).into_response()
}

/// This document.
#[utoipa::path(get, path = "/openapi.json", tag = "system",
    responses((status = 200, description = "The OpenAPI 3.1 document", body = Object)))]
async fn openapi_json(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let doc: &OpenApiJson = &state.openapi;
    respond(&doc.0, Lifetime::Seconds(60), &headers)
}

/// The index: the generators compiled into this server and their versions.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Index {
    /// Every generator and its version (the `v` of generated URLs).
    pub generators: Vec<Generator>,
    /// Where to read about the routes.
    pub openapi: &'static str,
}

/// The generators and their versions.
#[utoipa::path(get, path = "/v1", tag = "system",
    responses((status = 200, description = "Generators and versions", body = Index)))]
async fn index(headers: HeaderMap) -> Response {
    let index = Index {
        generators: generators(),
        openapi: "/openapi.json",
    };
    respond(&Content::json(&index), Lifetime::MANIFEST, &headers)
}
