//! Hengband fractal caves over HTTP: a room, a cavern, a lake or a level
//! per seed, as JSON (the grid's features and flags), PNG or ASCII.
//!
//! `GET /v1/dungeon/{kind}/{seed}?format=…&v=…&<parameters>`: the
//! parameters are the builder's own (`width`, `cutoff`, `floors.moss_floor`,
//! …; see `mangekyo_dungeon::RoomParams` and friends), given as query
//! parameters, so every dungeon has one cacheable URL.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use mangekyo_core::Seed;
use mangekyo_dungeon::{CavernParams, DungeonError, LakeParams, LevelParams, RoomParams, view};
use mangekyo_formats::dungeon::{self as document, Built, DungeonParams};
use serde::de::DeserializeOwned;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::content::{Content, respond};
use crate::cost::Estimate;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{PathParams, QueryParams};
use crate::generated::{Format, parse_params, parse_path_seed, pinned_lifetime, query_object};
use crate::state::AppState;

const FORMATS: [Format; 3] = [Format::Json, Format::Png, Format::Ascii];

/// Query parameters that are not the builder's.
const RESERVED: [&str; 3] = ["format", "scale", "v"];

/// Pixels per cell in PNGs unless `scale=` says otherwise.
const DEFAULT_SCALE: u32 = 4;

/// The largest PNG served, in pixels (a 1024² level at scale 4).
const MAX_PNG_PIXELS: u64 = 4096 * 4096;

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(room))
        .routes(routes!(cavern))
        .routes(routes!(lake))
        .routes(routes!(level))
}

/// A fractal room or cave vault.
#[utoipa::path(get, path = "/v1/dungeon/rooms/{seed}", tag = "dungeon",
    params(
        ("seed" = String, Path, description = "Decimal digits are that number; any other text is hashed"),
        ("format" = Option<String>, Query, description = "json (default), png or ascii"),
        ("scale" = Option<u32>, Query, description = "PNG pixels per cell, 1..=8 (default 4)"),
        ("v" = Option<u32>, Query, description = "Dungeon generator version: pins the URL (immutable caching)"),
        ("kind" = Option<String>, Query, description = "fractal (default) or cave_vault"),
        ("width" = Option<u32>, Query, description = "Even room width, 8..=254 (default drawn)"),
        ("height" = Option<u32>, Query, description = "Even room height, 8..=254 (default drawn)"),
        ("grd" = Option<u32>, Query, description = "Largest correlated scale, 1..=254"),
        ("roughness" = Option<u32>, Query, description = "Edge noise, 0..=255"),
        ("cutoff" = Option<u32>, Query, description = "Floor cutoff height, 1..=512"),
        ("light" = Option<bool>, Query, description = "Light the room"),
        ("depth" = Option<u32>, Query, description = "Dungeon depth 1..=127 (lighting rule)"),
    ),
    responses(
        (status = 200, description = "The room", content(("application/json"), ("image/png"), ("text/plain"))),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 400, description = "A parameter is out of range", body = ErrorBody),
        (status = 422, description = "The parameters never give a cave", body = ErrorBody),
    ))]
async fn room(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    serve::<RoomParams>(&state, "dungeon_room", &path, &query, &headers).await
}

/// A whole-level cavern.
#[utoipa::path(get, path = "/v1/dungeon/caverns/{seed}", tag = "dungeon",
    params(
        ("seed" = String, Path, description = "Decimal digits are that number; any other text is hashed"),
        ("format" = Option<String>, Query, description = "json (default), png or ascii"),
        ("scale" = Option<u32>, Query, description = "PNG pixels per cell, 1..=8 (default 4)"),
        ("v" = Option<u32>, Query, description = "Dungeon generator version: pins the URL"),
        ("width" = Option<u32>, Query, description = "Level width, 8..=256 (default 198)"),
        ("height" = Option<u32>, Query, description = "Level height, 8..=256 (default 66)"),
        ("grd" = Option<u32>, Query, description = "Largest correlated scale, 1..=254"),
        ("roughness" = Option<u32>, Query, description = "Edge noise, 0..=255"),
        ("cutoff" = Option<u32>, Query, description = "Floor cutoff, 1..=512"),
        ("light" = Option<bool>, Query, description = "Light the cavern"),
        ("depth" = Option<u32>, Query, description = "Dungeon depth 1..=127"),
    ),
    responses(
        (status = 200, description = "The cavern", content(("application/json"), ("image/png"), ("text/plain"))),
        (status = 304, description = "Not modified"),
        (status = 400, description = "A parameter is out of range", body = ErrorBody),
        (status = 422, description = "The parameters never give a cave", body = ErrorBody),
    ))]
async fn cavern(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    serve::<CavernParams>(&state, "dungeon_cavern", &path, &query, &headers).await
}

/// A lake across a level, or an elemental vault.
#[utoipa::path(get, path = "/v1/dungeon/lakes/{seed}", tag = "dungeon",
    params(
        ("seed" = String, Path, description = "Decimal digits are that number; any other text is hashed"),
        ("format" = Option<String>, Query, description = "json (default), png or ascii"),
        ("scale" = Option<u32>, Query, description = "PNG pixels per cell, 1..=8 (default 4)"),
        ("v" = Option<u32>, Query, description = "Dungeon generator version: pins the URL"),
        ("kind" = Option<String>, Query,
            description = "lava, water (default), cave, earth_vault, air_vault, water_vault, fire_vault"),
        ("form" = Option<String>, Query, description = "level or vault (default by kind)"),
        ("width" = Option<u32>, Query, description = "Level 8..=256 or even vault width 8..=254"),
        ("height" = Option<u32>, Query, description = "Level 8..=256 or even vault height 8..=254"),
        ("cutoff" = Option<u32>, Query, description = "Outer band cutoff c3, 1..=512"),
    ),
    responses(
        (status = 200, description = "The lake", content(("application/json"), ("image/png"), ("text/plain"))),
        (status = 304, description = "Not modified"),
        (status = 400, description = "A parameter is out of range", body = ErrorBody),
        (status = 422, description = "The parameters never give a lake", body = ErrorBody),
    ))]
async fn lake(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    serve::<LakeParams>(&state, "dungeon_lake", &path, &query, &headers).await
}

/// A level of fractal rooms joined by corridors.
#[utoipa::path(get, path = "/v1/dungeon/levels/{seed}", tag = "dungeon",
    params(
        ("seed" = String, Path, description = "Decimal digits are that number; any other text is hashed"),
        ("format" = Option<String>, Query, description = "json (default), png or ascii"),
        ("scale" = Option<u32>, Query, description = "PNG pixels per cell, 1..=8 (default 4)"),
        ("v" = Option<u32>, Query, description = "Dungeon generator version: pins the URL"),
        ("width" = Option<u32>, Query, description = "Level width, 16..=1024 (default 198)"),
        ("height" = Option<u32>, Query, description = "Level height, 16..=1024 (default 66)"),
        ("rooms" = Option<u32>, Query, description = "Rooms to place, 1..=64 (default 8)"),
        ("depth" = Option<u32>, Query, description = "Dungeon depth 1..=127"),
    ),
    responses(
        (status = 200, description = "The level", content(("application/json"), ("image/png"), ("text/plain"))),
        (status = 304, description = "Not modified"),
        (status = 400, description = "A parameter is out of range", body = ErrorBody),
    ))]
async fn level(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    serve::<LevelParams>(&state, "dungeon_level", &path, &query, &headers).await
}

/// Parses the request, then builds and renders through the cache.
async fn serve<P>(
    state: &AppState,
    kind: &'static str,
    path: &crate::extract::Params,
    query: &crate::extract::Params,
    headers: &HeaderMap,
) -> Result<Response, ApiError>
where
    P: DungeonParams + DeserializeOwned + Send + 'static,
{
    let seed_text: String = path.require("seed", "a seed (digits or text)")?;
    let seed = parse_path_seed(&seed_text)?;
    let format = Format::from_query(query, &FORMATS)?;
    let scale = query
        .in_range("scale", 1..=view::rgb::MAX_SCALE)?
        .unwrap_or(DEFAULT_SCALE);
    let lifetime = pinned_lifetime(query, "dungeon", mangekyo_dungeon::GENERATOR_VERSION)?;
    let params: P = parse_params(query_object(query, &RESERVED)?)?;
    // The key is built from the parsed parameters (`width=040` is
    // refused as a second spelling of `width=40`, see `canonical.rs`).
    let params_json = serde_json::to_value(&params)
        .map_err(|e| ApiError::internal("serialising parameters", &e))?;
    let version = mangekyo_dungeon::GENERATOR_VERSION;
    let key = format!(
        "{kind}/v{version}/{}/{}/{scale}/{params_json}",
        seed.value(),
        format.name()
    );
    let content = state
        .content
        .get_or_generate(kind, key, &state.gate, Estimate::NONE, move |_| {
            let built = document::build(&params, seed).map_err(dungeon_error)?;
            render(&params, seed, &built, format, scale)
        })
        .await?;
    Ok(respond(&content, lifetime, headers))
}

fn render<P: DungeonParams>(
    params: &P,
    seed: Seed,
    built: &Built,
    format: Format,
    scale: u32,
) -> Result<Content, ApiError> {
    match format {
        Format::Png => {
            let (w, h) = (
                built.grid.width() as u64 * u64::from(scale),
                built.grid.height() as u64 * u64::from(scale),
            );
            if w * h > MAX_PNG_PIXELS {
                let message = format!(
                    "a {w}×{h} PNG is larger than the {MAX_PNG_PIXELS}-pixel limit; lower scale"
                );
                return Err(ApiError::invalid(
                    "scale",
                    message,
                    format!("at most {MAX_PNG_PIXELS} pixels"),
                ));
            }
            let image = view::to_rgb(&built.grid, scale);
            let png = mangekyo_export::png::encode_rgb8(image.width, image.height, &image.pixels)
                .map_err(|e| ApiError::internal("PNG encoding", &e))?;
            Ok(Content::new(png, format.content_type()))
        }
        Format::Ascii => Ok(Content::new(
            view::to_ascii(&built.grid),
            format.content_type(),
        )),
        // The one document the CLI and the WebAssembly package write too.
        _ => Ok(Content::json(&document::json(params, seed, built))),
    }
}

/// The generator's refusal as an HTTP answer ([`ApiError::refused`]); a
/// cave that never came out is a 422 that points at the cutoff.
fn dungeon_error(err: DungeonError) -> ApiError {
    let mut answer = ApiError::refused(&err);
    if let DungeonError::RetriesExhausted { .. } = err {
        answer.parameter = Some("cutoff".to_owned());
        answer.expected = Some("a higher cutoff or a larger size".to_owned());
    }
    answer
}
