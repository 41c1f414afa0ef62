//! Per-request middleware: metrics by route template, and the wall-clock
//! limit answered as JSON.

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::state::AppState;

/// Records the request's status and latency under its route template, and
/// answers 503 if the handler runs past the limit. Generation started by
/// the request gets the same deadline (`cancel.rs`): long work stops at
/// its next checkpoint once the request has been answered, and nothing of
/// it is cached (see [`crate::limits::ComputeGate::run`]).
pub(crate) async fn observe(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let method = request.method().as_str().to_owned();
    // Unmatched paths share one label so scanners cannot grow the registry.
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("(unmatched)", MatchedPath::as_str)
        .to_owned();
    let limit = state.limits.timeout;
    let deadline = started + limit;
    let handled = crate::cancel::within(deadline, tokio::time::timeout(limit, next.run(request)));
    let response = match handled.await {
        Ok(response) => response,
        Err(_) => ApiError::timeout(limit.as_secs_f64()).into_response(),
    };
    state.metrics.request(
        &method,
        &route,
        response.status().as_u16(),
        started.elapsed(),
    );
    response
}
