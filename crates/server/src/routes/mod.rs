//! The HTTP routes, one module per area. Every route is registered through
//! `utoipa_axum::routes!`, which adds it to the router and to the OpenAPI
//! document in one step.

use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::openapi::ApiDoc;
use crate::state::AppState;

pub(crate) mod caves;
pub(crate) mod dungeon;
pub(crate) mod island_play;
pub(crate) mod island_posts;
pub(crate) mod islands;
pub(crate) mod planet_chunks;
pub(crate) mod planet_geology;
pub(crate) mod planet_locate;
pub(crate) mod planets;
pub(crate) mod pyramid;
pub(crate) mod roblox;
pub(crate) mod system;
pub(crate) mod terrain;
pub(crate) mod tiles;

/// Every API route, with its OpenAPI entry.
pub(crate) fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(system::routes())
        .merge(dungeon::routes())
        .merge(planets::routes())
        .merge(planet_chunks::routes())
        .merge(planet_geology::routes())
        .merge(planet_locate::routes())
        .merge(pyramid::routes())
        .merge(terrain::routes())
        .merge(caves::routes())
        .merge(islands::routes())
        .merge(island_posts::routes())
        .merge(island_play::routes())
        .merge(roblox::routes())
}

/// The whole document as `/openapi.json` serves it (for tools and tests
/// that compare names across surfaces), built from the same router.
pub fn document() -> serde_json::Value {
    let (_, doc) = api().split_for_parts();
    crate::openapi::finish(doc)
}
