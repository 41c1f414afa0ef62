//! A planet as a web map: Terrarium-encoded elevation tiles on the Web
//! Mercator XYZ grid and a TileJSON 3.0 document, so MapLibre
//! (`raster-dem`, `encoding: "terrarium"`) and geo-three can show it.

use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::Response;
use mangekyo_planet::tile::{MAX_TILE_ZOOM, TileRequest};
use serde_json::json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::content::{Content, Lifetime, respond};
use crate::cost::Estimate;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{PathParams, QueryParams};
use crate::generated::UNPINNED_SECONDS;
use crate::planets::planet_error;
use crate::public_url::{self, Origin};
use crate::routes::planets::planet_id;
use crate::state::AppState;

/// Tile sizes served: the two every web map asks for.
const TILE_SIZES: [u32; 2] = [256, 512];

/// Web Mercator's latitude limit, degrees.
const MERCATOR_MAX_LAT: f64 = 85.051_128_779_806_59;

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(tile))
        .routes(routes!(tilejson))
}

/// One Terrarium elevation tile (RGB PNG, metres = R·256 + G + B/256 − 32768).
#[utoipa::path(get, path = "/v1/planets/{id}/tiles/{z}/{x}/{y}", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("z" = u32, Path, description = "Zoom, 0..=30"),
        ("x" = u32, Path, description = "Column, 0..2^z from the antimeridian eastwards"),
        ("y" = u32, Path, description = "Row, 0..2^z from the north"),
        ("size" = Option<u32>, Query, description = "Pixels per side: 256 (default) or 512"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "Terrarium PNG", content_type = "image/png", body = Vec<u8>),
        (status = 304, description = "Not modified"),
        (status = 400, description = "z, x, y or size is out of range", body = ErrorBody),
        (status = 404, description = "No such planet, or the URL pins another version/hash", body = ErrorBody),
    ))]
async fn tile(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    query.only(&["size", "v", "p"])?;
    let id = planet_id(&path)?;
    let z = path.require::<u32>("z", "a zoom level (integer)")?;
    let x = path.require::<u32>("x", "a tile column (integer)")?;
    let y = path.require::<u32>("y", "a tile row (integer)")?;
    let size = query
        .parse::<u32>("size", "256 or 512")?
        .unwrap_or(TILE_SIZES[0]);
    if !TILE_SIZES.contains(&size) {
        return Err(ApiError::invalid(
            "size",
            format!("size must be 256 or 512, got {size}"),
            "256 or 512",
        ));
    }
    let request = TileRequest { z, x, y, size };
    request.validate().map_err(|e| planet_error(&e))?;
    let planet = state.planets.get(&state.store, id).await?;
    let lifetime = planet.lifetime(&query)?;
    let tier = match crate::tiers::ready_for_samples(&state, &planet).await {
        Ok(tier) => tier,
        Err(answer) => return Ok(answer),
    };
    let key = format!(
        "planet_tile/{}/v{}/{z}/{x}/{y}/{size}",
        planet.params_hash,
        planet.version()?
    );
    let content = state
        .content
        .get_or_generate("planet_tile", key, &state.gate, Estimate::NONE, move |_| {
            let built = planet.sampler(tier.as_ref())?;
            let png = mangekyo_formats::picture::encode_tile(&built, &request)
                .map_err(|e| ApiError::encoding(&e))?;
            Ok(Content::new(png, "image/png"))
        })
        .await?;
    Ok(respond(&content, lifetime, &headers))
}

/// The TileJSON 3.0 document of a planet's Terrarium tiles. Tile URLs are
/// absolute (TileJSON asks for that) and pinned to the planet's version
/// and hash. They start with the server's `--public-url`; without one,
/// with the request's `Host` and `X-Forwarded-Proto`, which must be a plain
/// `host[:port]` and `http` or `https` (else 400), and the answer is then
/// `private` with `Vary: Host, X-Forwarded-Proto`: no shared cache keeps
/// one client's headers for another.
#[utoipa::path(get, path = "/v1/planets/{id}/tilejson.json", tag = "planets",
    params(
        ("id" = i64, Path, description = "The planet's id"),
        ("size" = Option<u32>, Query, description = "Tile size the document announces: 256 (default) or 512"),
        ("v" = Option<String>, Query, description = "Planet generator version: a released version's number, or next (the unreleased one); with p, pins the URL"),
        ("p" = Option<String>, Query, description = "The planet's params_hash"),
    ),
    responses(
        (status = 200, description = "TileJSON 3.0.0", body = Object),
        (status = 400, description = "size is not 256 or 512, or (without --public-url) Host is not a host[:port] or X-Forwarded-Proto is not http or https", body = ErrorBody),
        (status = 404, description = "No such planet", body = ErrorBody),
    ))]
async fn tilejson(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    query.only(&["size", "v", "p"])?;
    let id = planet_id(&path)?;
    let size = query
        .parse::<u32>("size", "256 or 512")?
        .unwrap_or(TILE_SIZES[0]);
    if !TILE_SIZES.contains(&size) {
        return Err(ApiError::invalid(
            "size",
            format!("size must be 256 or 512, got {size}"),
            "256 or 512",
        ));
    }
    let planet = state.planets.get(&state.store, id).await?;
    let lifetime = planet.lifetime(&query)?;
    let params = planet.params()?;
    let origin = public_url::origin(state.public_url.as_ref(), &headers)?;
    let tiles = format!(
        "{}/v1/planets/{id}/tiles/{{z}}/{{x}}/{{y}}?size={size}&{}",
        origin.base(),
        planet.pin_query()
    );
    let doc = json!({
        "tilejson": "3.0.0",
        "name": planet.record.name,
        "description": format!("Terrarium elevation of planet {id} (radius {} m)", params.radius),
        "version": "1.0.0",
        "scheme": "xyz",
        "tiles": [tiles],
        "minzoom": 0,
        "maxzoom": max_zoom(params.radius, params.pixel_size, size),
        "bounds": [-180.0, -MERCATOR_MAX_LAT, 180.0, MERCATOR_MAX_LAT],
        "center": [0.0, 0.0, 2],
        "encoding": "terrarium",
        "tileSize": size,
    });
    let content = Content::json(&doc);
    Ok(match origin {
        Origin::Configured(_) => respond(&content, lifetime, &headers),
        // Built from this request's headers: never shared, never immutable.
        Origin::Request(_) => {
            let seconds = match lifetime {
                Lifetime::Seconds(s) | Lifetime::Private(s) => s,
                Lifetime::Immutable | Lifetime::NoStore => UNPINNED_SECONDS,
            };
            let mut response = respond(&content, Lifetime::Private(seconds), &headers);
            response.headers_mut().insert(
                header::VARY,
                header::HeaderValue::from_static(public_url::VARY_ORIGIN),
            );
            response
        }
    })
}

/// The deepest zoom whose equatorial tile pixel is still at least the
/// planet's pixel size (deeper zooms only interpolate).
fn max_zoom(radius: f64, pixel_size: f64, size: u32) -> u32 {
    let mut z = 0;
    while z < MAX_TILE_ZOOM
        && 2.0 * std::f64::consts::PI * radius / (f64::from(size) * f64::from(1u32 << (z + 1)))
            >= pixel_size
    {
        z += 1;
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_zoom_stops_at_the_planet_pixel() {
        // Earth at 1.5 m: 40 030 km / (256 · 2^16) ≈ 2.4 m, 2^17 ≈ 1.2 m.
        assert_eq!(max_zoom(6_371_000.0, 1.5, 256), 16);
        assert_eq!(max_zoom(6_371_000.0, 1.5, 512), 15);
        assert_eq!(max_zoom(1000.0, 100.0, 256), 0);
    }
}
