//! The planet's level pyramid for globes: `pyramid.json` (the geometry a
//! client needs to place tiles: radius, face frames, levels, legend) and
//! the `MKPT` tiles, addressed (face, level, x, y) and pinned like chunks.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use mangekyo_formats::pyramid_bin;
use mangekyo_planet::{FaceTile, Layers, PlanetSpace};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::content::{Content, respond};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{PathParams, QueryParams};
use crate::planets::planet_error;
use crate::routes::planets::planet_id;
use crate::state::AppState;

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(pyramid))
        .routes(routes!(tile))
}

/// What a globe needs to place and colour a planet's pyramid tiles.
///
/// `{radius, tile_size: 257, max_level, generator_version, warp:
/// "tangent", faces: [{index, name, normal, right, down}], layers,
/// biome_legend, biome_colours, metres_per_sample: [per level], tiles}`.
/// Sample `(i, j)` of tile `(face, level, x, y)` looks along
/// `normalise(normal + a·right + b·down)` with `E = 256·2^level`,
/// `a = tan(π/4 · (2(256x + i)/E − 1))` and `b` likewise from `y, j`.
/// `tiles` is the pinned URL template (`{face}` is the index 0..=5).
#[utoipa::path(get, path = "/v1/planets/{id}/pyramid.json", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "The pyramid's geometry", body = Object),
        (status = 404, description = "No such planet", body = ErrorBody),
    ))]
async fn pyramid(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    query.only(&["v", "p"])?;
    let id = planet_id(&path)?;
    let planet = state.planets.get(&state.store, id).await?;
    let lifetime = planet.lifetime(&query)?;
    let tiles = format!(
        "/v1/planets/{id}/pyramid/{{face}}/{{level}}/{{x}}/{{y}}?{}",
        planet.pin_query()
    );
    let doc = pyramid_bin::document(&*planet.planet()?, &tiles);
    Ok(respond(&Content::json(&doc), lifetime, &headers))
}

/// One pyramid tile as `MKPT` (`application/octet-stream`): a 40-byte
/// little-endian header (magic, format 1, face, level, x, y, size 257,
/// layer mask, min/max height, generator version, metres per sample),
/// then height f32, biome u8 (4-aligned) and water f32 per sample, row-major
/// (see `mangekyo_formats::pyramid_bin`). Neighbours share their edge
/// samples bit for bit, across faces too.
#[utoipa::path(get, path = "/v1/planets/{id}/pyramid/{face}/{level}/{x}/{y}", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("face" = u32, Path, description = "Cube face 0..=5: +x +y -x -y +z -z"),
        ("level" = u32, Path, description = "0 (one tile per face) ..= max_level of pyramid.json"),
        ("x" = u32, Path, description = "Column, 0..2^level"),
        ("y" = u32, Path, description = "Row, 0..2^level"),
        ("layers" = Option<String>, Query, description = "Comma list, each name once and in this order, of height, biome and (from version 3) water; default height,biome"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL (immutable caching for a released version)"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "MKPT tile", content_type = "application/octet-stream", body = Vec<u8>),
        (status = 304, description = "Not modified"),
        (status = 400, description = "face, level, x, y or layers is out of range", body = ErrorBody),
        (status = 404, description = "No such planet, or the URL pins another version/hash", body = ErrorBody),
        (status = 422, description = "`over_budget`: one tile costs more than the server's `job_cost` (a server configured below one tile)", body = ErrorBody),
        (status = 503, description = "The planet's coarse tier is still computing (Retry-After says when to ask again)", body = ErrorBody),
    ))]
async fn tile(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    query.only(&["layers", "v", "p"])?;
    let id = planet_id(&path)?;
    let face = path.require::<u32>("face", "a cube face index 0..=5")?;
    let level = path.require::<u32>("level", "a pyramid level (an integer from 0)")?;
    let x = path.require::<u32>("x", "a tile column (an integer from 0)")?;
    let y = path.require::<u32>("y", "a tile row (an integer from 0)")?;
    let planet = state.planets.get(&state.store, id).await?;
    let version = planet.version()?;
    let space = PlanetSpace::new(planet.params()?);
    let tile = FaceTile::new(&space, face, level, x, y).map_err(|e| planet_error(&e))?;
    let layers = match query.text("layers") {
        None => Layers {
            height: true,
            biome: true,
            ..Layers::NONE
        },
        Some(list) => Layers::parse_for(list, version).map_err(|e| planet_error(&e))?,
    };
    let mask = pyramid_bin::layer_mask(layers).map_err(|e| ApiError::encoding(&e))?;
    let lifetime = planet.lifetime(&query)?;
    let estimate = crate::cost::check_pyramid_tile(version, state.limits.job_cost)?;
    let tier = match crate::tiers::ready_for_samples(&state, &planet).await {
        Ok(tier) => tier,
        Err(answer) => return Ok(answer),
    };
    let key = format!(
        "planet_pyramid/{}/v{version}/{face}/{level}/{x}/{y}/{mask}",
        planet.params_hash
    );
    let content = state
        .content
        .get_or_generate(
            "planet_pyramid",
            key,
            &state.gate,
            estimate,
            move |cancel| {
                let built = planet.sampler(tier.as_ref())?;
                let samples = built
                    .sample_face_tile_cancellable(&tile, layers, &|| cancel.keep_going())
                    .map_err(|e| planet_error(&e))?;
                let bytes = pyramid_bin::encode(
                    &tile,
                    layers,
                    &samples,
                    version,
                    built.space().pyramid_spacing(tile.level),
                )
                .map_err(|e| ApiError::encoding(&e))?;
                Ok(Content::new(bytes, "application/octet-stream"))
            },
        )
        .await?;
    Ok(respond(&content, lifetime, &headers))
}
