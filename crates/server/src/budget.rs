//! Work budgets for generation whose cost the client chooses.
//!
//! Routes that take coordinates and sizes in the URL check ranges that keep
//! every answer small (a chunk, a tile, a PNG of at most 4096² pixels, at
//! most `batch_items` chunks). Posted island definitions choose their own
//! size: `site_count` may ask for a million sites, which costs minutes of
//! CPU and gigabytes. Their budget is derived from the definitions and
//! checked after loading, on the worker that loads them, before
//! generating, so a refusal costs only the load (which counts against the
//! worker limit too).

use axum::http::StatusCode;
use mangekyo_island::Definitions;

use crate::error::ApiError;

/// Refuses a scope whose largest island has more sites than `limit`.
///
/// The site count drives every later step (placement, Delaunay, the path
/// network, names) and the size of the answer, so it is the one number the
/// budget needs.
pub(crate) fn island_sites(defs: &Definitions, scope: &str, limit: u32) -> Result<(), ApiError> {
    let Some(def) = defs.scopes().get(scope) else {
        return Ok(());
    };
    let asked = def.site_count.1;
    if asked <= limit {
        return Ok(());
    }
    Err(ApiError {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code: "over_budget",
        message: format!(
            "generation_scopes.{scope}.site_count.max is {asked}, over this server's island_sites limit of {limit}"
        ),
        parameter: Some(format!("generation_scopes.{scope}.site_count.max")),
        expected: Some(format!("at most {limit} sites (island_sites)")),
    })
}
