//! The example world's game over HTTP, for the viewer's play panel.
//!
//! `POST /v1/islands/example/play` is stateless: the client holds the save
//! and sends it back with each command, and the answer is the reply text,
//! the new save and the game's status. The server keeps no session, so a
//! replica or a restart loses nothing, and an answer is a pure function of
//! (save or seed, command).

use axum::Json;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use mangekyo_world::session::{Effect, Status};
use mangekyo_world::{Game, Session};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::cost::Estimate;
use crate::error::{ApiError, ErrorBody};
use crate::extract::ApiJson;
use crate::generated::parse_seed;
use crate::routes::islands::{check_scope_and_lang, example_world};
use crate::state::AppState;
use axum::extract::State;

/// The longest command line taken: commands are a word and a path.
pub(crate) const MAX_COMMAND_BYTES: usize = 200;

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(play))
}

/// The body of `POST /v1/islands/example/play`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayRequest {
    /// A new game's seed: digits are that number, other text is hashed.
    /// Default "42". Not allowed with `save`.
    #[serde(default)]
    pub seed: Option<String>,
    /// A new game's generation scope. Default `island`. Not allowed with
    /// `save`.
    #[serde(default)]
    pub scope: Option<String>,
    /// The language of the text and names: en (default) or ja.
    #[serde(default)]
    pub lang: Option<String>,
    /// The game to continue: the `save` of the previous answer.
    #[serde(default)]
    pub save: Option<String>,
    /// One command, as the terminal game takes it (`explore`,
    /// `travel 2`, `rest`, `look`…). Without one the answer is the
    /// game's opening text.
    #[serde(default)]
    pub command: Option<String>,
}

/// The answer: what to show and what to send back next time.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PlayAnswer {
    /// The reply to the command (or the opening text).
    pub text: String,
    /// The game after the command, to send back with the next one.
    pub save: String,
    /// The clock, the place, the explorer's numbers, discovered paths and
    /// the actions open now.
    #[schema(value_type = Object)]
    pub status: Status,
}

/// Plays one command of the example world's game.
#[utoipa::path(post, path = "/v1/islands/example/play", tag = "islands", request_body = PlayRequest,
    responses(
        (status = 200, description = "The reply, the new save and the status", body = PlayAnswer),
        (status = 400, description = "A field is malformed or out of range, or `seed`/`scope` came with a `save`", body = ErrorBody),
        (status = 413, description = "The body is too large", body = ErrorBody),
        (status = 415, description = "The body is not JSON", body = ErrorBody),
        (status = 422, description = "The save does not load (corrupt, another world, or another save version)", body = ErrorBody),
        (status = 503, description = "Every worker is busy, or the request ran past the time limit", body = ErrorBody),
    ))]
async fn play(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<PlayRequest>,
) -> Result<Response, ApiError> {
    let lang = body.lang.clone().unwrap_or_else(|| "en".to_owned());
    let scope = body.scope.clone().unwrap_or_else(|| "island".to_owned());
    let defs = example_world();
    check_scope_and_lang(defs, &scope, &lang)?;
    let command = body.command.unwrap_or_default();
    if command.len() > MAX_COMMAND_BYTES {
        let message = format!(
            "command must be at most {MAX_COMMAND_BYTES} bytes, got {}",
            command.len()
        );
        return Err(ApiError::invalid(
            "command",
            message,
            format!("at most {MAX_COMMAND_BYTES} bytes"),
        ));
    }
    let start = match body.save {
        Some(save) => {
            for (name, given) in [("seed", &body.seed), ("scope", &body.scope)] {
                if given.is_some() {
                    let message =
                        format!("{name} names a new game; a save already holds its own {name}");
                    return Err(ApiError::invalid(
                        name,
                        message,
                        "absent when save is given",
                    ));
                }
            }
            Start::Load(save)
        }
        None => Start::New(parse_seed(body.seed.as_deref().unwrap_or("42"))?, scope),
    };
    let answer = state
        .gate
        .run("island_play", Estimate::NONE, move |_| {
            let game = match start {
                Start::Load(save) => Game::load(defs, &save).map_err(|e| ApiError {
                    status: axum::http::StatusCode::UNPROCESSABLE_ENTITY,
                    code: "bad_save",
                    parameter: Some("save".to_owned()),
                    expected: Some("the save of an earlier answer".to_owned()),
                    message: e.to_string(),
                })?,
                Start::New(seed, scope) => Game::new(defs, &scope, seed).map_err(|e| ApiError {
                    status: axum::http::StatusCode::UNPROCESSABLE_ENTITY,
                    code: "generation_failed",
                    parameter: Some("scope".to_owned()),
                    expected: None,
                    message: e.to_string(),
                })?,
            };
            let mut session = Session::new(game, &lang);
            let text = if command.trim().is_empty() {
                session.intro()
            } else {
                let reply = session.handle(&command);
                match reply.effect {
                    // Saving and quitting are the client's: the save is in
                    // every answer.
                    Effect::Save { .. } | Effect::Quit | Effect::None => reply.text,
                }
            };
            Ok(PlayAnswer {
                text,
                save: session.game().save(),
                status: session.status(),
            })
        })
        .await?;
    let mut response = Json(answer).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// Where a request's game comes from.
enum Start {
    Load(String),
    New(mangekyo_core::Seed, String),
}
