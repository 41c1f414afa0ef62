//! Islands from posted definitions: the YAML sources of a world (object
//! types, axes, location types, generation scopes, localisation) in the
//! body, one island out as JSON or SVG.
//!
//! A POST is not cacheable by HTTP caches, but its answer is still a pure
//! function of the body: it carries the content-hash ETag, and the server
//! caches it under a hash of the sources and settings.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use mangekyo_core::Seed;
use mangekyo_island::{
    Definitions, DefinitionsLoader, GenerateError, LoadError, generate_island_cancellable, view,
};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use xxhash_rust::xxh3::Xxh3;

use crate::cancel::Cancel;
use crate::content::{Content, Lifetime, respond};
use crate::cost::Estimate;
use crate::error::{ApiError, ErrorBody};
use crate::extract::ApiJson;
use crate::generated::parse_seed;
use crate::state::AppState;

/// Most sources in one request: a world is a handful of files.
pub(crate) const MAX_SOURCES: usize = 32;

/// Diagnostics quoted in an error message; the rest are counted.
const QUOTED_DIAGNOSTICS: usize = 10;

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(post_island))
}

/// One YAML source.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Source {
    /// A file name, used in diagnostics (`types.yaml`).
    pub name: String,
    /// The YAML text.
    pub text: String,
}

/// The body of `POST /v1/islands`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PostIsland {
    /// The world's definitions, in loading order (see `examples/island/`).
    pub sources: Vec<Source>,
    /// The seed: digits are that number, other text is hashed. Default "0".
    #[serde(default)]
    pub seed: Option<String>,
    /// The generation scope. Default `island`.
    #[serde(default)]
    pub scope: Option<String>,
    /// The language of names. Default `en`.
    #[serde(default)]
    pub lang: Option<String>,
    /// `json` (default) or `svg`.
    #[serde(default)]
    pub format: Option<String>,
}

/// Generates an island from posted definitions.
#[utoipa::path(post, path = "/v1/islands", tag = "islands", request_body = PostIsland,
    responses(
        (status = 200, description = "The island", content(("application/json"), ("image/svg+xml"))),
        (status = 400, description = "A field is malformed", body = ErrorBody),
        (status = 413, description = "The body is too large", body = ErrorBody),
        (status = 415, description = "The body is not JSON", body = ErrorBody),
        (status = 422, description = "The definitions do not load (every diagnostic is listed, syntax errors first), ask for more work than the server's budgets (`over_budget`: `island_sites`, or `job_cost` for the sites and their guarantees), or the island cannot be generated", body = ErrorBody),
        (status = 503, description = "Every worker is busy, or the request ran past the time limit", body = ErrorBody),
    ))]
async fn post_island(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<PostIsland>,
) -> Result<Response, ApiError> {
    let settings = Settings::from_body(&body)?;
    let key = cache_key(&body, &settings);
    let (sites, budget) = (state.limits.island_sites, state.limits.job_cost);
    // Parsing the YAML is CPU work the client sizes (a body of a few
    // hundred KiB takes milliseconds): it runs on a generation worker, in
    // the job that generates, so posted definitions count against the
    // worker limit and a cached answer parses nothing. The cost is checked
    // after loading and before generating (see `crate::cost`).
    let sources = body.sources;
    let content = state
        .content
        .get_or_generate(
            "island_posted",
            key,
            &state.gate,
            Estimate::NONE,
            move |cancel| {
                let defs = load(&sources)?;
                crate::routes::islands::check_scope_and_lang(
                    &defs,
                    &settings.scope,
                    &settings.lang,
                )?;
                crate::cost::island_sites(&defs, &settings.scope, sites)?;
                crate::cost::check_island(&defs, &settings.scope, budget)?;
                generate(&defs, &settings, cancel)
            },
        )
        .await?;
    Ok(respond(&content, Lifetime::NoStore, &headers))
}

/// The checked settings of a request.
#[derive(Debug, Clone)]
struct Settings {
    seed: Seed,
    scope: String,
    lang: String,
    svg: bool,
}

impl Settings {
    fn from_body(body: &PostIsland) -> Result<Settings, ApiError> {
        if body.sources.is_empty() || body.sources.len() > MAX_SOURCES {
            let message = format!(
                "sources must hold 1..={MAX_SOURCES} files, got {}",
                body.sources.len()
            );
            return Err(ApiError::invalid(
                "sources",
                message,
                format!("1..={MAX_SOURCES} sources"),
            ));
        }
        let seed_text = body.seed.as_deref().unwrap_or("0");
        let svg = match body.format.as_deref().unwrap_or("json") {
            "json" => false,
            "svg" => true,
            other => {
                let message = format!("format must be one of json, svg, got {other:?}");
                return Err(ApiError::invalid("format", message, "json, svg"));
            }
        };
        Ok(Settings {
            seed: parse_seed(seed_text)?,
            scope: body.scope.clone().unwrap_or_else(|| "island".to_owned()),
            lang: body.lang.clone().unwrap_or_else(|| "en".to_owned()),
            svg,
        })
    }
}

/// A hash of everything that shapes the answer.
fn cache_key(body: &PostIsland, s: &Settings) -> String {
    let mut h = Xxh3::new();
    for source in &body.sources {
        for part in [source.name.as_bytes(), source.text.as_bytes()] {
            h.update(&(part.len() as u64).to_le_bytes());
            h.update(part);
        }
    }
    let version = mangekyo_island::GENERATOR_VERSION;
    format!(
        "island_posted/v{version}/{:032x}/{}/{}/{}/{}",
        h.digest128(),
        s.seed.value(),
        s.scope,
        s.lang,
        s.svg
    )
}

fn load(sources: &[Source]) -> Result<Definitions, ApiError> {
    let mut loader = DefinitionsLoader::new();
    for source in sources {
        loader.add_source(&source.name, &source.text);
    }
    loader.finish().map_err(|e| load_error(&e))
}

fn generate(defs: &Definitions, s: &Settings, cancel: &Cancel) -> Result<Content, ApiError> {
    let map = generate_island_cancellable(defs, &s.scope, s.seed, &|| cancel.keep_going())
        .map_err(|e| match e {
            GenerateError::Cancelled => crate::cancel::cancelled(),
            e => ApiError {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                code: "generation_failed",
                message: e.to_string(),
                parameter: Some("scope".to_owned()),
                expected: None,
            },
        })?;
    Ok(if s.svg {
        Content::new(view::svg::render(&map, defs, &s.lang), "image/svg+xml")
    } else {
        Content::new(
            view::json::to_string(&map, defs, &s.lang),
            "application/json",
        )
    })
}

/// Every diagnostic of a failed load, the first one's place as the parameter.
fn load_error(err: &LoadError) -> ApiError {
    let first = err.diagnostics.first();
    let parameter = first.map(|d| {
        if d.path.is_empty() {
            d.file.clone()
        } else {
            format!("{}: {}", d.file, d.path)
        }
    });
    let mut lines: Vec<String> = err
        .diagnostics
        .iter()
        .take(QUOTED_DIAGNOSTICS)
        .map(ToString::to_string)
        .collect();
    if err.diagnostics.len() > QUOTED_DIAGNOSTICS {
        lines.push(format!(
            "… and {} more",
            err.diagnostics.len() - QUOTED_DIAGNOSTICS
        ));
    }
    ApiError {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code: "invalid_definitions",
        message: format!(
            "{} error(s) in the island definitions: {}",
            err.diagnostics.len(),
            lines.join("; ")
        ),
        parameter,
        expected: Some("definitions that load (see examples/island/)".to_owned()),
    }
}
