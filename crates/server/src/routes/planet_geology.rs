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

/// The plates of a version-2 planet as GeoJSON. With `kind=plate` or
/// `kind=boundary`, one layer that GIS tools (GDAL/`ogr2ogr` to Shapefile
/// or GeoPackage, shapely) accept as is (RFC 7946): `plate`, one valid
/// `MultiPolygon` per plate (the raster's cells dissolved and smoothed,
/// counter-clockwise, its Euler pole and rate); `boundary`, one
/// `LineString` per stretch of one boundary `type` (convergent, divergent,
/// transform) between two plates, with `plates`, the length-weighted mean
/// `convergence_mm_yr` and `shear_mm_yr`, and `length_km`. Without
/// `kind`, the original mixed document (byte-stable under pinned URLs):
/// one `MultiPolygon` of raster strips per plate and one two-point
/// `LineString` per raster edge; QGIS displays it, but its polygons are not
/// valid simple features.
#[utoipa::path(get, path = "/v1/planets/{id}/plates.geojson", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("cell_deg" = Option<f64>, Query, description = "Raster cell in degrees, 0.1..=10 and dividing 180 (default 1)"),
        ("kind" = Option<String>, Query, description = "One layer: plate (valid polygons) or boundary (merged lines); without it, the original mixed document"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "GeoJSON FeatureCollection", content_type = "application/geo+json"),
        (status = 304, description = "Not modified"),
        (status = 400, description = "cell_deg or kind is invalid, or the planet is version 1 (no plates)", body = ErrorBody),
        (status = 404, description = "No such planet, or the URL pins another version/hash", body = ErrorBody),
        (status = 422, description = "`over_budget`: the raster would cost more than the server's `job_cost` (the finest cell_deg that fits is named)", body = ErrorBody),
    ))]
async fn plates(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    use mangekyo_planet::geology::layers::{PlateLayer, plates_layer_cancellable};
    use mangekyo_planet::geology::plates_geojson_cancellable;
    query.only(&["cell_deg", "kind", "v", "p"])?;
    let id = planet_id(&path)?;
    let cell_deg = query
        .parse::<f64>("cell_deg", "degrees, 0.1..=10 and dividing 180")?
        .unwrap_or(DEFAULT_CELL_DEG);
    let layer = query
        .text("kind")
        .map(PlateLayer::parse)
        .transpose()
        .map_err(|e| planet_error(&e))?;
    mangekyo_planet::geology::check_cell_deg(cell_deg).map_err(|e| planet_error(&e))?;
    let planet = state.planets.get(&state.store, id).await?;
    let lifetime = planet.lifetime(&query)?;
    let params = planet.params()?;
    let count = mangekyo_planet::geology::plate_count(params.seed, params.plate_count) as u64;
    let estimate = crate::cost::check_plates(cell_deg, count, state.limits.job_cost)?;
    let key = format!(
        "planet_plates/{}/v{}/{}{}",
        planet.params_hash,
        planet.version()?,
        cell_deg.to_bits(),
        layer.map_or_else(String::new, |l| format!("/{}", l.name()))
    );
    let content = state
        .content
        .get_or_generate("planet_plates", key, &state.gate, estimate, move |cancel| {
            let built = planet.planet()?;
            let keep_going = || cancel.keep_going();
            let doc = match layer {
                Some(layer) => plates_layer_cancellable(&built, cell_deg, layer, &keep_going),
                None => plates_geojson_cancellable(&built, cell_deg, &keep_going),
            }
            .map_err(|e| planet_error(&e))?;
            let bytes = serde_json::to_vec(&doc).map_err(|e| ApiError::internal("GeoJSON", &e))?;
            Ok(Content::new(bytes, "application/geo+json"))
        })
        .await?;
    Ok(respond(&content, lifetime, &headers))
}

/// The rivers, lakes and basins of a version-3 planet as GeoJSON: river
/// links (`discharge_m3s`, `strahler`, `upstream_area_km2`,
/// `main_stem_km`, `length_km`, `mouth`, `downstream_link`), lakes
/// (`level_m`, `endorheic`), basins of at least 10⁴ km² at their mouths,
/// and the land's `drains_to_sea_share`. With `kind=river`, `kind=lake` or
/// `kind=basin`, one layer that GIS tools accept as is (RFC 7946): one
/// `MultiLineString` per river link, cut where it crosses the antimeridian;
/// one valid `MultiPolygon` per lake, its cells dissolved, counter-clockwise
/// and cut at the antimeridian; one `Point` per basin. Without `kind`, the
/// original mixed document (byte-stable under pinned URLs: `LineString`
/// rivers, a square per lake cell). `bbox=west,south,east,north` (degrees)
/// keeps the features with a point inside. Waits for the coarse tier like
/// chunks (503 + Retry-After while it computes).
#[utoipa::path(get, path = "/v1/planets/{id}/rivers.geojson", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("bbox" = Option<String>, Query, description = "west,south,east,north in degrees: only features with a point inside"),
        ("kind" = Option<String>, Query, description = "One layer: river, lake or basin; without it, the original mixed document"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "The rivers, lakes and basins", content_type = "application/geo+json"),
        (status = 304, description = "Not modified"),
        (status = 400, description = "bbox or kind is invalid, or the planet is older than version 3 (no rivers)", body = ErrorBody),
        (status = 404, description = "No such planet, or the URL pins another version/hash", body = ErrorBody),
        (status = 422, description = "`over_budget`: the planet's tier is larger than the server's `job_cost` admits", body = ErrorBody),
        (status = 503, description = "The coarse tier is still computing (Retry-After)", body = ErrorBody),
    ))]
async fn rivers(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    use mangekyo_planet::hydro::geojson::{BBox, rivers_geojson};
    use mangekyo_planet::hydro::layers::{WaterLayer, water_layer};
    query.only(&["bbox", "kind", "v", "p"])?;
    let id = planet_id(&path)?;
    let bbox = query
        .text("bbox")
        .map(BBox::parse)
        .transpose()
        .map_err(|e| planet_error(&e))?;
    let layer = query
        .text("kind")
        .map(WaterLayer::parse)
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
    let estimate = crate::cost::check_rivers(planet.params()?.graph_n, state.limits.job_cost)?;
    let tier = match crate::tiers::ready_for_samples(&state, &planet).await {
        Ok(tier) => tier,
        Err(answer) => return Ok(answer),
    };
    let key = format!(
        "planet_rivers/{}/v{}/{}{}",
        planet.params_hash,
        planet.version()?,
        bbox.map_or_else(String::new, |b| format!(
            "{}/{}/{}/{}",
            b.west.to_bits(),
            b.south.to_bits(),
            b.east.to_bits(),
            b.north.to_bits()
        )),
        layer.map_or_else(String::new, |l| format!("/kind={}", l.name()))
    );
    let content = state
        .content
        // Bounded by the tier (one pass over its links, lakes and basins):
        // no checkpoints inside.
        .get_or_generate("planet_rivers", key, &state.gate, estimate, move |_| {
            let built = planet.sampler(tier.as_ref())?;
            let doc = match layer {
                Some(layer) => water_layer(&built, bbox, layer),
                None => rivers_geojson(&built, bbox),
            }
            .map_err(|e| planet_error(&e))?;
            let bytes = serde_json::to_vec(&doc).map_err(|e| ApiError::internal("GeoJSON", &e))?;
            Ok(Content::new(bytes, "application/geo+json"))
        })
        .await?;
    Ok(respond(&content, lifetime, &headers))
}
