//! A planet's geology over HTTP: where its coarse tier stands, its plates
//! and its rivers as GeoJSON (the documents `mangekyo planet plates` and
//! `mangekyo planet rivers` write).

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::content::{Content, respond};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{PathParams, QueryParams};
use crate::planets::planet_error;
use crate::routes::planets::planet_id;
use crate::state::AppState;
use crate::tiers::TierStatus;

/// Raster cell of the plate outlines unless `cell_deg=` says otherwise.
const DEFAULT_CELL_DEG: f64 = 1.0;

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(status))
        .routes(routes!(plates))
        .routes(routes!(rivers))
}

/// Where the planet's coarse tier (T1) stands: `ready`, `computing` (with
/// `progress` and `retry_after_s`), `failed` (asking again retries) or
/// `not_needed` (version 1). Asking starts the work if nothing has, on
/// this replica: after a restart, the tier is loaded from the store or
/// computed again.
#[utoipa::path(get, path = "/v1/planets/{id}/status", tag = "planets",
    params(("id" = i64, Path, description = "The planet's id")),
    responses(
        (status = 200, description = "The tier's state (never cached)", body = TierStatus),
        (status = 404, description = "No such planet", body = ErrorBody),
        (status = 409, description = "The stored planet is from another generator version", body = ErrorBody),
    ))]
async fn status(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
) -> Result<Response, ApiError> {
    query.only(&[])?;
    let id = planet_id(&path)?;
    let planet = state.planets.get(&state.store, id).await?;
    let body = state.tiers.status(&state.store, &planet)?;
    let mut response = axum::Json(body).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// The plates of a version-2 planet as GeoJSON: one `MultiPolygon` per
/// plate (traced on a raster of `cell_deg` degrees, with its Euler pole
/// and rate) and one `LineString` per raster edge where two plates meet,
/// with `type` (convergent, divergent, transform) and the relative
/// velocity (`convergence_mm_yr`, `shear_mm_yr`). QGIS opens it as is.
#[utoipa::path(get, path = "/v1/planets/{id}/plates.geojson", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("cell_deg" = Option<f64>, Query, description = "Raster cell in degrees, 0.1..=10 and dividing 180 (default 1)"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "GeoJSON FeatureCollection", content_type = "application/geo+json"),
        (status = 304, description = "Not modified"),
        (status = 400, description = "cell_deg is invalid, or the planet is version 1 (no plates)", body = ErrorBody),
        (status = 404, description = "No such planet, or the URL pins another version/hash", body = ErrorBody),
    ))]
async fn plates(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    query.only(&["cell_deg", "v", "p"])?;
    let id = planet_id(&path)?;
    let cell_deg = query
        .parse::<f64>("cell_deg", "degrees, 0.1..=10 and dividing 180")?
        .unwrap_or(DEFAULT_CELL_DEG);
    let planet = state.planets.get(&state.store, id).await?;
    let lifetime = planet.lifetime(&query)?;
    let key = format!(
        "planet_plates/{}/v{}/{}",
        planet.params_hash,
        planet.version()?,
        cell_deg.to_bits()
    );
    let content = state
        .content
        .get_or_generate("planet_plates", key, &state.gate, move || {
            let built = planet.planet()?;
            let doc = mangekyo_planet::geology::plates_geojson(&built, cell_deg)
                .map_err(|e| planet_error(&e))?;
            let bytes = serde_json::to_vec(&doc).map_err(|e| ApiError::internal("GeoJSON", &e))?;
            Ok(Content::new(bytes, "application/geo+json"))
        })
        .await?;
    Ok(respond(&content, lifetime, &headers))
}

/// The rivers, lakes and basins of a version-3 planet as GeoJSON: one
/// `LineString` per river link (`discharge_m3s`, `strahler`,
/// `upstream_area_km2`, `main_stem_km`, `length_km`, `mouth`,
/// `downstream_link`), one `MultiPolygon` per lake (`level_m`,
/// `endorheic`), one `Point` per basin of at least 10⁴ km², and the land's
/// `drains_to_sea_share`. `bbox=west,south,east,north` (degrees) keeps the
/// features with a point inside. Waits for the coarse tier like chunks
/// (503 + Retry-After while it computes).
#[utoipa::path(get, path = "/v1/planets/{id}/rivers.geojson", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("bbox" = Option<String>, Query, description = "west,south,east,north in degrees: only features with a point inside"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "The rivers, lakes and basins", content_type = "application/geo+json"),
        (status = 304, description = "Not modified"),
        (status = 400, description = "bbox is invalid, or the planet is older than version 3 (no rivers)", body = ErrorBody),
        (status = 404, description = "No such planet, or the URL pins another version/hash", body = ErrorBody),
        (status = 503, description = "The coarse tier is still computing (Retry-After)", body = ErrorBody),
    ))]
async fn rivers(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    use mangekyo_planet::hydro::geojson::{BBox, rivers_geojson};
    query.only(&["bbox", "v", "p"])?;
    let id = planet_id(&path)?;
    let bbox = query
        .text("bbox")
        .map(BBox::parse)
        .transpose()
        .map_err(|e| planet_error(&e))?;
    let planet = state.planets.get(&state.store, id).await?;
    let lifetime = planet.lifetime(&query)?;
    let version = planet.version()?;
    if !version.has_water() {
        return Err(ApiError::invalid(
            "generator_version",
            format!("planet {id} is generator version {version}: rivers exist from version 3"),
            "a planet of generator version 3 or later",
        ));
    }
    if let Err(answer) = crate::tiers::ready_for_samples(&state, &planet).await {
        return Ok(answer);
    }
    let key = format!(
        "planet_rivers/{}/v{}/{}",
        planet.params_hash,
        planet.version()?,
        bbox.map_or_else(String::new, |b| format!(
            "{}/{}/{}/{}",
            b.west.to_bits(),
            b.south.to_bits(),
            b.east.to_bits(),
            b.north.to_bits()
        ))
    );
    let content = state
        .content
        .get_or_generate("planet_rivers", key, &state.gate, move || {
            let built = planet.planet()?;
            let doc = rivers_geojson(&built, bbox).map_err(|e| planet_error(&e))?;
            let bytes = serde_json::to_vec(&doc).map_err(|e| ApiError::internal("GeoJSON", &e))?;
            Ok(Content::new(bytes, "application/geo+json"))
        })
        .await?;
    Ok(respond(&content, lifetime, &headers))
}
