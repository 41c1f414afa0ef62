//! Which chunk of a projection holds a latitude/longitude: what a client
//! needs to go from a point on a globe (a click, a player's position) to the
//! chunk URL of any projection, without re-implementing the projections.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use mangekyo_planet::{LatLon, PlanetSpace, Projection};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::content::{Content, respond};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{PathParams, QueryParams};
use crate::planets::planet_error;
use crate::routes::planets::planet_id;
use crate::state::AppState;

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(locate))
}

/// The chunk holding a point, and where in it.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct LocatedView {
    /// The projection asked for.
    pub projection: String,
    /// The cube face (`+x`, `-y`, …) for cube projections, else null.
    pub face: Option<String>,
    /// Level of detail asked for.
    pub lod: u32,
    /// Chunk column (in the cube atlas for cube projections).
    pub cx: u32,
    /// Chunk row.
    pub cy: u32,
    /// Sample column of the point inside the chunk, 0..=256, fractional.
    pub i: f64,
    /// Sample row of the point inside the chunk, 0..=256, fractional.
    pub j: f64,
    /// The chunk's URL, pinned to the planet's version and hash (add `&format=…`).
    pub chunk: String,
}

/// The chunk of `projection` at `lod` that holds (`lat`, `lon`).
///
/// A point exactly on a chunk edge belongs to the chunk right of / below it.
/// The answer depends only on the planet's parameters, so with `v` and `p`
/// it is cached like any pinned URL.
#[utoipa::path(get, path = "/v1/planets/{id}/locate", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("lat" = f64, Query, description = "Latitude in degrees, -90..=90"),
        ("lon" = f64, Query, description = "Longitude in degrees east, any finite value (it wraps exactly: 100000000000000000 is -80)"),
        ("projection" = Option<String>, Query, description = "equirectangular (default), cube, tangent_cube or octahedral"),
        ("lod" = Option<u32>, Query, description = "Level of detail, 0..=max_lod of the planet (default 0)"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "The chunk and the point's sample position in it", body = LocatedView),
        (status = 304, description = "Not modified"),
        (status = 400, description = "lat, lon, projection or lod is invalid", body = ErrorBody),
        (status = 404, description = "No such planet, or the URL pins another version/hash", body = ErrorBody),
    ))]
async fn locate(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    query.only(&["lat", "lon", "projection", "lod", "v", "p"])?;
    let id = planet_id(&path)?;
    let at = LatLon {
        lat: query.require("lat", "a latitude in degrees, -90..=90")?,
        lon: query.require("lon", "a finite longitude in degrees")?,
    };
    let projection: Projection = query
        .text("projection")
        .unwrap_or("equirectangular")
        .parse()
        .map_err(|e| planet_error(&e))?;
    let lod = query
        .parse::<u32>("lod", "a level of detail (an integer from 0)")?
        .unwrap_or(0);
    let planet = state.planets.get(&state.store, id).await?;
    let lifetime = planet.lifetime(&query)?;
    let space = PlanetSpace::new(planet.params()?);
    let found = space
        .locate(projection, lod, at)
        .map_err(|e| planet_error(&e))?;
    let a = found.address;
    let (face, _, _) = space.face_of(&a);
    let view = LocatedView {
        projection: projection.name().to_owned(),
        face: face.map(|f| f.name().to_owned()),
        lod,
        cx: a.cx,
        cy: a.cy,
        i: found.i,
        j: found.j,
        chunk: format!(
            "/v1/planets/{id}/chunks/{}/{lod}/{}/{}?{}",
            projection.name(),
            a.cx,
            a.cy,
            planet.pin_query()
        ),
    };
    Ok(respond(&Content::json(&view), lifetime, &headers))
}
