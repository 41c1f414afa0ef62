//! A stored planet's generated content: chunks of any projection and level
//! of detail in every [`ChunkFormat`] (encoded by `mangekyo-formats`, as
//! `mangekyo planet chunk` and `mangekyo bake` encode them) and the
//! whole-planet preview.
//!
//! Chunks are cached under the planet's parameter hash, not its id: two
//! planets with the same parameters share their content.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use mangekyo_formats::{ChunkFormat, chunk};
use mangekyo_planet::tier::CoarseTier;
use mangekyo_planet::view::{Overlay, PreviewLayer};
use mangekyo_planet::{ChunkAddress, ChunkRequest, Edge, Layers, PlanetSpace, Projection};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::content::{Content, respond};
use crate::cost::Estimate;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Params, PathParams, QueryParams};
use crate::planets::{LoadedPlanet, planet_error};
use crate::routes::planets::planet_id;
use crate::state::AppState;
use crate::tiers::ready_or_retry;

/// Widest whole-planet preview served, in pixels. The planet crate goes to
/// 16384, but a preview that size is seconds of CPU for one request.
pub(crate) const MAX_PREVIEW_WIDTH: u32 = 4096;

/// Preview width unless `width=` says otherwise.
const DEFAULT_PREVIEW_WIDTH: u32 = 1024;

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(chunk))
        .routes(routes!(preview))
        .merge(super::tiles::routes())
}

/// One chunk of a planet.
///
/// `format=json`: `{projection, face, lod, cx, cy, width, height, edge,
/// metres_per_sample, generator_version, layers: {height, temperature,
/// humidity, biome, uplift, plate, water, flow, precipitation,
/// biome_weights}, biome_legend}` with row-major layers (`uplift` in
/// metres and `plate` ids exist from generator version 2, `water` in
/// metres and `flow` in m³/s from version 3, `precipitation` in mm/yr and
/// `biome_weights` (4 bytes a sample: the strongest biome, its weight in
/// 255ths, the second, its weight) from version 4, whose `biome_legend`
/// has 17 names).
/// `format=bin`: the `MKPC` layout (a little-endian header of 48 bytes,
/// or 52 in format 2 when precipitation or biome_weights is present, then
/// f32 layers, u8 biomes, f32 uplift, u16 plates, f32 water, flow and
/// precipitation, 4 × u8 biome weights, each 4-aligned; see
/// `mangekyo_formats::planet_bin`).
/// `format=png16` (or `png`): one layer as 16-bit greyscale (`height` by
/// default, or `uplift`, `plate`, `water`, `flow` or `precipitation`);
/// `format=r16`: the same samples as raw
/// little-endian u16. Metres are quantised over the chunk's own range,
/// given in the `mangekyo-height-min` and `mangekyo-height-max` headers
/// (metres = min + sample / 65535 · (max − min)); plate samples are the ids.
/// `format=f32`: the layer as raw little-endian f32.
/// A layer other than height is named in the `mangekyo-layer` header.
/// `format=preview`: a colour picture (biomes with hill shading; plate
/// boundaries in white with `layers=plate`).
///
/// A version-2 planet's chunks wait for its coarse tier (up to 2 s), then
/// answer `503` with `Retry-After` while it computes.
#[utoipa::path(get, path = "/v1/planets/{id}/chunks/{projection}/{lod}/{cx}/{cy}", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("projection" = String, Path, description = "equirectangular, cube, tangent_cube or octahedral"),
        ("lod" = u32, Path, description = "Level of detail, 0..=max_lod of the planet (each level doubles the spacing)"),
        ("cx" = u32, Path, description = "Chunk column, 0..width of the projection's chunk grid at this lod"),
        ("cy" = u32, Path, description = "Chunk row, 0..height of the chunk grid"),
        ("layers" = Option<String>, Query, description = "Comma list, each name once and in this order, of height, temperature, humidity, biome, uplift, plate (from version 2), water, flow (from version 3), precipitation, biome_weights (from version 4), or all (default all; png16/r16/f32: one of height, uplift, plate, water, flow, precipitation)"),
        ("format" = Option<String>, Query, pattern = "^(json|bin|png16|png|r16|f32|preview)$", description = "json (default), bin, png16 (alias png), r16, f32 or preview"),
        ("edge" = Option<String>, Query, description = "exclusive (256 samples a side, the default on every surface) or shared (257: the next chunks' first row and column)"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL (immutable caching for a released version)"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "The chunk",
            content(("application/json"), ("application/octet-stream"), ("image/png"))),
        (status = 304, description = "Not modified"),
        (status = 400, description = "A coordinate, layer or format is invalid", body = ErrorBody),
        (status = 404, description = "No such planet, or the URL pins another version/hash", body = ErrorBody),
        (status = 409, description = "The stored planet is from another generator version", body = ErrorBody),
        (status = 503, description = "The planet's coarse tier is still computing (Retry-After says when to ask again)", body = ErrorBody),
    ))]
async fn chunk(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    query.only(&["layers", "format", "edge", "v", "p"])?;
    let id = planet_id(&path)?;
    let request = chunk_request(&path, &query)?;
    let format: ChunkFormat = match query.text("format") {
        None => ChunkFormat::Json,
        Some(text) => text.parse()?,
    };
    let planet = state.planets.get(&state.store, id).await?;
    let layers = format
        .layers(query.text("layers"), planet.version()?)
        .map_err(|e| ApiError::encoding(&e))?;
    let request = ChunkRequest { layers, ..request };
    let lifetime = planet.lifetime(&query)?;
    PlanetSpace::new(planet.params()?)
        .check(&request.address)
        .map_err(|e| planet_error(&e))?;
    // Chunks are conditioned on the coarse tier: version 3 reads its
    // erosion, rivers and lakes; version 2 reads its fields from T0
    // directly (the same function, so no byte depends on the tier) but
    // waits too, so clients meet one 503 contract for every version
    // that has a tier.
    let tier = match ready_or_retry(&state, &planet).await {
        Ok(tier) => tier,
        Err(answer) => return Ok(answer),
    };
    let a = request.address;
    let key = format!(
        "planet_chunk/{}/v{}/{}/{}/{}/{}/{}/{}/{}",
        planet.params_hash,
        planet.version()?,
        a.projection.name(),
        a.lod,
        a.cx,
        a.cy,
        request.edge.name(),
        mangekyo_formats::planet_bin::layer_mask(layers),
        format.name()
    );
    let content = state
        .content
        .get_or_generate(
            "planet_chunk",
            key,
            &state.gate,
            Estimate::NONE,
            move |_| encode_chunk(&planet, tier.as_ref(), &request, format),
        )
        .await?;
    Ok(respond(&content, lifetime, &headers))
}

/// The whole planet as an equirectangular picture.
#[utoipa::path(get, path = "/v1/planets/{id}/preview", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("width" = Option<u32>, Query, minimum = 16, maximum = 4096, multiple_of = 2, description = "Even width in pixels, 16..=4096 (default 1024); the height is half"),
        ("layer" = Option<String>, Query, description = "biome (default), height, temperature, humidity, from version 2 uplift or plate, or from version 4 precipitation"),
        ("overlay" = Option<String>, Query, description = "none (default) or plates: plate boundaries coloured by type, convergent red, divergent cyan, transform yellow (version 2)"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "PNG", content_type = "image/png", body = Vec<u8>),
        (status = 304, description = "Not modified"),
        (status = 400, description = "width or layer is invalid (or the planet does not have the layer)", body = ErrorBody),
        (status = 404, description = "No such planet, or the URL pins another version/hash", body = ErrorBody),
        (status = 422, description = "`over_budget`: the preview would cost more than the server's `job_cost` (the widest that fits is named)", body = ErrorBody),
    ))]
async fn preview(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    query.only(&["width", "layer", "overlay", "v", "p"])?;
    let id = planet_id(&path)?;
    let width = query
        .in_range("width", 16..=MAX_PREVIEW_WIDTH)?
        .unwrap_or(DEFAULT_PREVIEW_WIDTH);
    if width % 2 != 0 {
        return Err(ApiError::invalid(
            "width",
            format!("width must be even, got {width}"),
            "an even number",
        ));
    }
    let layer_name = query.text("layer").unwrap_or("biome").to_owned();
    let layer: PreviewLayer = layer_name.parse().map_err(|e| planet_error(&e))?;
    let overlay: Overlay = query
        .text("overlay")
        .unwrap_or("none")
        .parse()
        .map_err(|e| planet_error(&e))?;
    let planet = state.planets.get(&state.store, id).await?;
    let lifetime = planet.lifetime(&query)?;
    let estimate = crate::cost::check_preview(planet.version()?, width, state.limits.job_cost)?;
    let tier = match crate::tiers::ready_for_samples(&state, &planet).await {
        Ok(tier) => tier,
        Err(answer) => return Ok(answer),
    };
    let key = format!(
        "planet_preview/{}/v{}/{width}/{layer_name}/{}",
        planet.params_hash,
        planet.version()?,
        overlay.name()
    );
    let content = state
        .content
        .get_or_generate(
            "planet_preview",
            key,
            &state.gate,
            estimate,
            move |cancel| {
                let image = planet
                    .sampler(tier.as_ref())?
                    .preview_cancellable(width, layer, overlay, &|_| cancel.keep_going())
                    .map_err(|e| planet_error(&e))?;
                let png = mangekyo_formats::picture::encode_picture(&image)
                    .map_err(|e| ApiError::encoding(&e))?;
                Ok(Content::new(png, "image/png"))
            },
        )
        .await?;
    Ok(respond(&content, lifetime, &headers))
}

/// The address and edge of a chunk URL.
fn chunk_request(path: &Params, query: &Params) -> Result<ChunkRequest, ApiError> {
    let projection: Projection = path
        .text("projection")
        .unwrap_or_default()
        .parse()
        .map_err(|e| planet_error(&e))?;
    let lod = path.require::<u32>("lod", "a level of detail (an integer from 0)")?;
    let cx = path.require::<u32>("cx", "a chunk column (an integer from 0)")?;
    let cy = path.require::<u32>("cy", "a chunk row (an integer from 0)")?;
    let edge = match query.text("edge") {
        None => Edge::default(),
        Some(text) => text.parse().map_err(|e| planet_error(&e))?,
    };
    Ok(ChunkRequest {
        address: ChunkAddress {
            projection,
            lod,
            cx,
            cy,
        },
        edge,
        layers: Layers::NONE,
    })
}

/// Samples and encodes one chunk (runs on a generation worker).
fn encode_chunk(
    planet: &Arc<LoadedPlanet>,
    tier: Option<&Arc<CoarseTier>>,
    request: &ChunkRequest,
    format: ChunkFormat,
) -> Result<Content, ApiError> {
    let sampled = planet
        .sampler(tier)?
        .sample_chunk(request)
        .map_err(|e| planet_error(&e))?;
    let encoded =
        chunk::encode(&sampled, format, planet.params()?).map_err(|e| ApiError::encoding(&e))?;
    let content = Content::new(encoded.bytes, format.content_type());
    // A heightmap's range travels as headers (files carry it in a sidecar).
    Ok(match encoded.range {
        Some(range) => {
            let content = content
                .with_header("mangekyo-height-min", range.min)
                .with_header("mangekyo-height-max", range.max)
                .with_header("mangekyo-metres-per-sample", sampled.metres_per_sample);
            match chunk::heightmap_layer(&sampled) {
                "height" => content,
                other => content.with_header("mangekyo-layer", other),
            }
        }
        None => content,
    })
}
