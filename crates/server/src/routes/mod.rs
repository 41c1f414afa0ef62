//! The HTTP routes, one module per area. Every route is registered through
//! `utoipa_axum::routes!`, which adds it to the router and to the OpenAPI
//! document in one step.

use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::openapi::ApiDoc;
use crate::state::AppState;

pub mod caves;
pub mod dungeon;
pub mod island_play;
pub mod island_posts;
pub mod islands;
pub mod planet_chunks;
pub mod planet_locate;
pub mod planets;
pub mod roblox;
pub mod system;
pub mod tiles;

/// Every API route, with its OpenAPI entry.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(system::routes())
        .merge(dungeon::routes())
        .merge(planets::routes())
        .merge(planet_chunks::routes())
        .merge(planet_locate::routes())
        .merge(caves::routes())
        .merge(islands::routes())
        .merge(island_posts::routes())
        .merge(island_play::routes())
        .merge(roblox::routes())
}
