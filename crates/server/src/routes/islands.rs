//! Islands of the example world over HTTP, as JSON or SVG, for the web
//! viewer and tools.
//!
//! `GET /v1/islands/example/{seed}?format=json|svg&scope=island&lang=en&v=…`:
//! the example world's definitions (`examples/island/`, built into the
//! island crate) are loaded once per process; every island is a pure
//! function of (definitions, scope, seed), so the URL is its cache key.

use std::sync::OnceLock;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use mangekyo_island::{Definitions, GenerateError, example, generate_island, view};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::content::{Content, respond};
use crate::cost::Estimate;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{PathParams, QueryParams};
use crate::generated::{Format, parse_path_seed, pinned_lifetime};
use crate::state::AppState;

const FORMATS: [Format; 2] = [Format::Json, Format::Svg];

/// The example world's definitions, loaded (and checked) once.
pub(crate) fn example_world() -> &'static Definitions {
    static DEFS: OnceLock<Definitions> = OnceLock::new();
    DEFS.get_or_init(example::definitions)
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(example_island))
}

/// An island of the example world.
#[utoipa::path(get, path = "/v1/islands/example/{seed}", tag = "islands",
    params(
        ("seed" = String, Path, description = "Decimal digits are that number; any other text is hashed"),
        ("format" = Option<String>, Query, description = "json (default) or svg"),
        ("scope" = Option<String>, Query, description = "The generation scope (default island)"),
        ("lang" = Option<String>, Query, description = "Language of the names: en (default) or ja"),
        ("v" = Option<u32>, Query, description = "Island generator version: pins the URL"),
    ),
    responses(
        (status = 200, description = "The island", content(("application/json"), ("image/svg+xml"))),
        (status = 304, description = "Not modified"),
        (status = 400, description = "A parameter is out of range", body = ErrorBody),
    ))]
async fn example_island(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    query.only(&["format", "scope", "lang", "v"])?;
    let seed_text: String = path.require("seed", "a seed (digits or text)")?;
    let seed = parse_path_seed(&seed_text)?;
    let format = Format::from_query(&query, &FORMATS)?;
    let lifetime = pinned_lifetime(&query, "island", mangekyo_island::GENERATOR_VERSION)?;
    let defs = example_world();
    let scope = query.text("scope").unwrap_or("island").to_owned();
    let lang = query.text("lang").unwrap_or("en").to_owned();
    check_scope_and_lang(defs, &scope, &lang)?;
    let version = mangekyo_island::GENERATOR_VERSION;
    let key = format!(
        "island/v{version}/example/{scope}/{}/{lang}/{}",
        seed.value(),
        format.name()
    );
    let content = state
        .content
        .get_or_generate("island", key, &state.gate, Estimate::NONE, move |_| {
            let map = generate_island(defs, &scope, seed).map_err(island_error)?;
            Ok(match format {
                Format::Svg => {
                    Content::new(view::svg::render(&map, defs, &lang), format.content_type())
                }
                _ => Content::new(
                    view::json::to_string(&map, defs, &lang),
                    format.content_type(),
                ),
            })
        })
        .await?;
    Ok(respond(&content, lifetime, &headers))
}

fn island_error(err: GenerateError) -> ApiError {
    ApiError {
        status: axum::http::StatusCode::UNPROCESSABLE_ENTITY,
        code: "generation_failed",
        parameter: None,
        expected: None,
        message: err.to_string(),
    }
}

/// 400 unless `defs` has the scope and the language.
pub(crate) fn check_scope_and_lang(
    defs: &Definitions,
    scope: &str,
    lang: &str,
) -> Result<(), ApiError> {
    defs.check_scope_and_lang(scope, lang)
        .map_err(|e| ApiError::invalid(e.parameter, e.to_string(), e.known.join(", ")))
}
