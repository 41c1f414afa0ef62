//! A planet as CesiumJS terrain: `layer.json` and quantized-mesh 1.0 tiles
//! on the geographic (EPSG:4326, TMS) tiling scheme. A Cesium client adds
//! the planet with `CesiumTerrainProvider.fromUrl(".../v1/planets/{id}/terrain")`
//! (Cesium appends `/layer.json` itself) on a sphere of the planet's
//! radius (`new Cesium.Ellipsoid(r, r, r)`; `layer.json` carries `radius`).

use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::Response;
use mangekyo_formats::terrain;
use mangekyo_planet::GeoTile;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::content::{Content, respond};
use crate::cost::Estimate;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{PathParams, QueryParams};
use crate::planets::planet_error;
use crate::routes::planets::planet_id;
use crate::state::AppState;

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(layer))
        .routes(routes!(tile))
}

/// The planet's `layer.json` (TileJSON 2.1.0, `quantized-mesh-1.0`,
/// `scheme: tms`, `projection: EPSG:4326`, every level available, the
/// `octvertexnormals` extension, and `radius`: the sphere the heights are
/// over). Tile URLs are relative and pinned to the planet's version and
/// hash.
#[utoipa::path(get, path = "/v1/planets/{id}/terrain/layer.json", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "layer.json", body = Object),
        (status = 404, description = "No such planet", body = ErrorBody),
    ))]
async fn layer(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    query.only(&["v", "p"])?;
    let id = planet_id(&path)?;
    let planet = state.planets.get(&state.store, id).await?;
    let lifetime = planet.lifetime(&query)?;
    let built = planet.planet()?;
    let tiles = format!("{{z}}/{{x}}/{{y}}.terrain?{}", planet.pin_query());
    let doc = terrain::layer_json(&built, &planet.record.name, &tiles);
    Ok(respond(&Content::json(&doc), lifetime, &headers))
}

/// One quantized-mesh 1.0 terrain tile (65 × 65 vertices; with the
/// oct-encoded vertex normals extension when `Accept` asks for
/// `octvertexnormals`, as CesiumJS does with `requestVertexNormals`).
#[utoipa::path(get, path = "/v1/planets/{id}/terrain/{z}/{x}/{file}", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("z" = u32, Path, description = "Level, 0..=maxzoom of layer.json"),
        ("x" = u32, Path, description = "Column, 0..2^(z+1) from the antimeridian eastwards"),
        ("file" = String, Path, description = "The row and extension, `{y}.terrain`: y in 0..2^z from the south pole"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "quantized-mesh 1.0", content_type = "application/vnd.quantized-mesh", body = Vec<u8>),
        (status = 304, description = "Not modified"),
        (status = 400, description = "z, x or y is out of range", body = ErrorBody),
        (status = 404, description = "No such planet, or the URL pins another version/hash", body = ErrorBody),
        (status = 503, description = "The planet's coarse tier is still computing (Retry-After says when to ask again)", body = ErrorBody),
    ))]
async fn tile(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    query.only(&["v", "p"])?;
    let id = planet_id(&path)?;
    let z = path.require::<u32>("z", "a terrain level (integer)")?;
    let x = path.require::<u32>("x", "a tile column (integer)")?;
    let file = path.text("file").unwrap_or_default();
    let y = file
        .strip_suffix(".terrain")
        .and_then(|y| y.parse::<u32>().ok().filter(|v| v.to_string() == y))
        .ok_or_else(|| {
            ApiError::invalid(
                "y",
                format!("the tile file must be {{y}}.terrain (y in decimal digits, no leading zero), got {file:?}"),
                "a tile row followed by .terrain",
            )
        })?;
    let normals = headers
        .get(header::ACCEPT)
        .and_then(|a| a.to_str().ok())
        .is_some_and(|a| a.contains("octvertexnormals"));
    let planet = state.planets.get(&state.store, id).await?;
    let request = GeoTile { z, x, y };
    request
        .validate(planet.planet()?.geo_max_level())
        .map_err(|e| planet_error(&e))?;
    let lifetime = planet.lifetime(&query)?;
    let tier = match crate::tiers::ready_for_samples(&state, &planet).await {
        Ok(tier) => tier,
        Err(answer) => return Ok(answer),
    };
    let key = format!(
        "planet_terrain/{}/v{}/{z}/{x}/{y}/{}",
        planet.params_hash,
        planet.version()?,
        u8::from(normals)
    );
    let content = state
        .content
        .get_or_generate(
            "planet_terrain",
            key,
            &state.gate,
            Estimate::NONE,
            move |_| {
                let built = planet.sampler(tier.as_ref())?;
                let bytes = terrain::encode(&built, &request, normals)
                    .map_err(|e| ApiError::encoding(&e))?;
                Ok(Content::new(bytes, terrain::CONTENT_TYPE))
            },
        )
        .await?;
    // One URL, two bodies: caches must key on Accept.
    let mut response = respond(&content, lifetime, &headers);
    response
        .headers_mut()
        .insert(header::VARY, header::HeaderValue::from_static("Accept"));
    Ok(response)
}
