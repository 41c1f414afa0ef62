//! The planet store over HTTP: create, list, read and delete planets.
//! A planet is its parameters; its chunks, tiles and previews live under
//! `/v1/planets/{id}/…` and are regenerated on demand.

use std::time::{Duration, UNIX_EPOCH};

use axum::Extension;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use mangekyo_planet::{CHUNK_SIZE, PlanetSpace, Projection};
use mangekyo_store::{MAX_LIST_LIMIT, NewPlanet};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::access::{Principal, over_quota};
use crate::content::{Content, Lifetime, respond};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ApiJson, PathParams, QueryParams};
use crate::planets::{LoadedPlanet, no_planet, parse_new_params};
use crate::state::AppState;
use crate::tiers::{TierStatus, Wait};

/// Planets per listing page unless `limit=` says otherwise.
const DEFAULT_PAGE: u32 = 100;

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create, list))
        .routes(routes!(get_one, delete_one))
}

/// The body of `POST /v1/planets`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreatePlanet {
    /// A unique name: 1 to 100 characters, no control characters, no
    /// leading or trailing spaces.
    #[schema(example = "Terra")]
    pub name: String,
    /// Planet parameters; omitted fields take the defaults of an Earth-like
    /// planet: seed 42 (a number, or text that is hashed as everywhere
    /// else), radius 6371000 m (1e3..=1e8), pixel_size 1.5 m
    /// (0.01..=2π·radius/1024), sea_level 0.71 (0..=1), plate_activity 1
    /// (0..=2), humidity_global 0.5 (0..=1), axial_tilt 23.44° (-90..=90),
    /// solar_intensity 1 (0.25..=4), generator_version 4 (1: the noise
    /// belts of the first planets; 2: plates; 3: plates with erosion,
    /// rivers and lakes; 4: with a climate of wind, rain and rain shadows,
    /// and blended biomes), and from version 2 graph_n
    /// 408 (16..=1024, cells along a face edge of the coarse tier) and
    /// plate_count 0 (0 derives 10..=24 from the seed, or 8..=40).
    #[serde(default, deserialize_with = "crate::planets::present")]
    #[schema(value_type = Object, example = json!({"seed": 42, "radius": 6371000.0}))]
    pub params: Option<serde_json::Value>,
}

/// A planet as served.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PlanetView {
    /// The store's id.
    pub id: i64,
    /// The unique name.
    pub name: String,
    /// Every parameter, defaults filled in.
    #[schema(value_type = Object)]
    pub params: serde_json::Value,
    /// The planet generator version the parameters were stored for: a
    /// number, or `"next"` (unreleased).
    #[schema(value_type = u32)]
    pub generator_version: serde_json::Value,
    /// The hash that pins this planet's generated URLs (`p=`).
    pub params_hash: String,
    /// Creation time, RFC 3339 UTC.
    pub created_at: String,
    /// The sample grids, when this server can generate the planet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub space: Option<SpaceView>,
    /// URL templates of the planet's content, pinned to its version and hash.
    pub links: Links,
    /// The coarse tier, when the answer says where it stands (create).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tier: Option<TierStatus>,
}

/// A planet's sample grids.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SpaceView {
    /// Samples around the equator at level of detail 0.
    pub equator_samples: u64,
    /// Metres between samples at level of detail 0 (along the equator).
    pub metres_per_sample: f64,
    /// The coarsest level of detail.
    pub max_lod: u32,
    /// Samples per chunk side (plus one with `edge=shared`).
    pub chunk_size: u32,
    /// Chunks across and down each projection's map at level of detail 0.
    #[schema(value_type = Object)]
    pub chunk_grid: serde_json::Map<String, serde_json::Value>,
}

/// URL templates (`{projection}`, `{lod}`, … are to be filled in).
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Links {
    /// This planet.
    #[serde(rename = "self")]
    pub this: String,
    /// A chunk.
    pub chunk: String,
    /// The whole-planet preview.
    pub preview: String,
    /// The chunk holding a point (add `&lat=…&lon=…&projection=…&lod=…`).
    pub locate: String,
    /// Terrarium web-map tiles.
    pub tiles: String,
    /// The TileJSON 3.0 document for the tiles.
    pub tilejson: String,
    /// Where the planet's coarse tier stands (`computing`, `ready`, …).
    pub status: String,
    /// The plates as GeoJSON (version 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plates: Option<String>,
    /// The rivers, lakes and basins as GeoJSON (version 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rivers: Option<String>,
}

/// A page of planets.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PlanetList {
    /// The planets, by id.
    pub planets: Vec<PlanetView>,
    /// The next page, if there may be one.
    pub next: Option<String>,
}

fn view(planet: &LoadedPlanet) -> PlanetView {
    let r = &planet.record;
    let base = format!("/v1/planets/{}", r.id);
    let pin = planet.pin_query();
    let created = UNIX_EPOCH + Duration::from_millis(u64::try_from(r.created_at_ms).unwrap_or(0));
    PlanetView {
        id: r.id,
        name: r.name.clone(),
        // Every parameter as generated, `generator_version` included (a
        // record stored before versions existed lacks it): a client may
        // post this object again, or hand it to the CLI, for the same planet.
        params: planet
            .params()
            .ok()
            .and_then(|p| serde_json::to_value(p).ok())
            .unwrap_or_else(|| r.params.clone()),
        generator_version: planet.version().map_or_else(
            |_| serde_json::json!(r.generator_version),
            |v| serde_json::json!(v),
        ),
        params_hash: planet.params_hash.clone(),
        created_at: humantime::format_rfc3339_millis(created).to_string(),
        space: planet.params().ok().map(space_view),
        links: Links {
            chunk: format!("{base}/chunks/{{projection}}/{{lod}}/{{cx}}/{{cy}}?{pin}"),
            preview: format!("{base}/preview?{pin}"),
            locate: format!("{base}/locate?{pin}"),
            tiles: format!("{base}/tiles/{{z}}/{{x}}/{{y}}?{pin}"),
            tilejson: format!("{base}/tilejson.json?{pin}"),
            status: format!("{base}/status"),
            plates: planet
                .version()
                .is_ok_and(|v| v.has_plates())
                .then(|| format!("{base}/plates.geojson?{pin}")),
            rivers: planet
                .version()
                .is_ok_and(|v| v.has_water())
                .then(|| format!("{base}/rivers.geojson?{pin}")),
            this: base,
        },
        tier: None,
    }
}

fn space_view(params: &mangekyo_planet::PlanetParams) -> SpaceView {
    let space = PlanetSpace::new(params);
    let chunk_grid = Projection::ALL
        .iter()
        .map(|&p| {
            let (w, h) = space.chunk_grid(p, 0);
            (p.name().to_owned(), serde_json::json!([w, h]))
        })
        .collect();
    SpaceView {
        equator_samples: space.equator_samples(),
        metres_per_sample: space.metres_per_sample(0),
        max_lod: space.max_lod(),
        chunk_size: CHUNK_SIZE,
        chunk_grid,
    }
}

/// Stores a new planet. Parameters are checked (and completed with
/// defaults) before anything is stored. A version-2 planet's coarse tier
/// starts computing at once: `201` when it is ready within a moment, else
/// `202` with the planet and its `status` link (chunks can be asked for at
/// once; they wait for the tier or answer `503` with `Retry-After`).
#[utoipa::path(post, path = "/v1/planets", tag = "planets", request_body = CreatePlanet,
    responses(
        (status = 201, description = "Created; Location names it", body = PlanetView),
        (status = 202, description = "Created; its coarse tier is still computing (see links.status)", body = PlanetView),
        (status = 400, description = "A field is malformed or out of range (`graph_n` too: its coarse tier must fit in this server's tier cache)", body = ErrorBody),
        (status = 409, description = "The name is taken", body = ErrorBody),
        (status = 429, description = "The token is over a quota (planets, tier computations per hour, storage); `Retry-After` when waiting helps", body = ErrorBody),
        (status = 413, description = "The body is too large", body = ErrorBody),
        (status = 415, description = "The body is not JSON", body = ErrorBody),
    ))]
async fn create(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    ApiJson(body): ApiJson<CreatePlanet>,
) -> Result<Response, ApiError> {
    let params = parse_new_params(body.params.unwrap_or_else(|| serde_json::json!({})))?;
    // A tier this replica's cache cannot keep would be loaded again on
    // every request: refused before anything is stored or computed.
    state.tiers.check_fits(&params)?;
    let normalised = serde_json::to_value(params)
        .map_err(|e| ApiError::internal("serialising parameters", &e))?;
    if let Principal::Token(token) = &principal
        && let Some(refusal) =
            quota_refusal(&state, token, params.generator_version.has_plates()).await?
    {
        return Ok(refusal);
    }
    let new = NewPlanet {
        name: body.name,
        params: normalised,
        // The store's column: the number, 0 for an unreleased version
        // (the parameters name it).
        generator_version: params.generator_version.code(),
        owner: principal.owner().map(str::to_owned),
    };
    let record = state.store.create(&new).await?;
    let planet = state.planets.remember(record);
    tracing::info!(id = planet.record.id, name = %planet.record.name, version = %params.generator_version, "planet created");
    let mut body = view(&planet);
    let status = if params.generator_version.has_plates() {
        // The record is committed: whatever happens to the tier now, the
        // planet is stored (its tier is recomputed or loaded on demand).
        let (wait, tier) = state
            .tiers
            .start(&state.store, &planet, state.limits.tier_create_wait)
            .await?;
        body.tier = Some(tier);
        match wait {
            Ok(Wait::Ready(_)) => StatusCode::CREATED,
            Ok(Wait::Later(_)) => StatusCode::ACCEPTED,
            Err(e) => {
                tracing::warn!(id = planet.record.id, error = %e.message, "coarse tier failed at creation");
                StatusCode::ACCEPTED
            }
        }
    } else {
        StatusCode::CREATED
    };
    let mut response = (status, axum::Json(body)).into_response();
    if let Ok(location) = HeaderValue::from_str(&format!("/v1/planets/{}", planet.record.id)) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// The answer refusing a token's create, if it is over a quota. Checked
/// before the planet is stored; two creates racing past the planet count
/// can overshoot it by one each, which the count then holds against the
/// next.
async fn quota_refusal(
    state: &AppState,
    token: &crate::access::Token,
    starts_tier: bool,
) -> Result<Option<Response>, ApiError> {
    let quota = token.quota;
    if let Some(max) = quota.planets {
        let owned = state.store.count_owned(&token.name).await?;
        if owned >= max {
            let what = format!("it owns {owned} planets of {max}; delete one first");
            return Ok(Some(over_quota(token, &what, None)));
        }
    }
    if let Some(mib) = quota.storage_mib {
        let used = stored_tier_bytes(state, &token.name).await?;
        if used >= mib.saturating_mul(1 << 20) {
            let what = format!(
                "its planets' stored tiers hold {:.1} MiB of {mib} MiB",
                used as f64 / f64::from(1u32 << 20)
            );
            return Ok(Some(over_quota(token, &what, None)));
        }
    }
    if starts_tier && let Err(wait) = state.usage.start_tier(token, std::time::Instant::now()) {
        let max = quota.tiers_per_hour.unwrap_or(0);
        let what = format!("{max} planet creations with a coarse tier per hour");
        return Ok(Some(over_quota(token, &what, Some(wait))));
    }
    Ok(None)
}

/// The bytes of the stored coarse tiers of `owner`'s planets (a tier
/// shared by two of them counts once).
async fn stored_tier_bytes(state: &AppState, owner: &str) -> Result<u64, ApiError> {
    let mut keys = std::collections::BTreeSet::new();
    let mut after = 0;
    loop {
        let page = state
            .store
            .list(after, mangekyo_store::MAX_LIST_LIMIT)
            .await?;
        let Some(last) = page.last() else { break };
        after = last.id;
        for record in page
            .into_iter()
            .filter(|r| r.owner.as_deref() == Some(owner))
        {
            let planet = LoadedPlanet::new(record);
            if let Ok(params) = planet.params()
                && params.generator_version.has_plates()
            {
                keys.insert(crate::tiers::blob_key(
                    mangekyo_planet::tier::CoarseTier::key(params),
                ));
            }
        }
    }
    let mut bytes = 0u64;
    for key in &keys {
        bytes = bytes.saturating_add(state.store.blob_bytes(key).await?);
    }
    Ok(bytes)
}

/// Lists planets by id, a page at a time.
#[utoipa::path(get, path = "/v1/planets", tag = "planets",
    params(
        ("after" = Option<i64>, Query, description = "Only ids above this (the last id of the previous page)"),
        ("limit" = Option<u32>, Query, description = "Planets per page, 1..=1000 (default 100)"),
    ),
    responses(
        (status = 200, description = "A page of planets (cacheable for 10 s)", body = PlanetList),
        (status = 400, description = "after or limit is malformed", body = ErrorBody),
    ))]
async fn list(
    State(state): State<AppState>,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    query.only(&["after", "limit"])?;
    let after = query.in_range("after", 0..=i64::MAX)?.unwrap_or(0);
    let limit = query
        .in_range("limit", 1..=MAX_LIST_LIMIT)?
        .unwrap_or(DEFAULT_PAGE);
    let records = state.store.list(after, limit).await?;
    let next = (records.len() == limit as usize)
        .then(|| {
            records
                .last()
                .map(|r| format!("/v1/planets?after={}&limit={limit}", r.id))
        })
        .flatten();
    let planets = records
        .into_iter()
        .map(|r| view(&LoadedPlanet::new(r)))
        .collect();
    Ok(respond(
        &Content::json(&PlanetList { planets, next }),
        Lifetime::MANIFEST,
        &headers,
    ))
}

/// One planet: its parameters, hash, grids and content URLs.
#[utoipa::path(get, path = "/v1/planets/{id}", tag = "planets",
    params(("id" = i64, Path, description = "The planet's id")),
    responses(
        (status = 200, description = "The planet (cacheable for 10 s)", body = PlanetView),
        (status = 304, description = "Not modified"),
        (status = 404, description = "No such planet", body = ErrorBody),
    ))]
async fn get_one(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id = planet_id(&path)?;
    let planet = state.planets.get(&state.store, id).await?;
    Ok(respond(
        &Content::json(&view(&planet)),
        Lifetime::MANIFEST,
        &headers,
    ))
}

/// Deletes a planet (its generated content simply stops being served).
#[utoipa::path(delete, path = "/v1/planets/{id}", tag = "planets",
    params(("id" = i64, Path, description = "The planet's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 403, description = "The planet belongs to another token (only its owner or an admin may delete it)", body = ErrorBody),
        (status = 404, description = "No such planet", body = ErrorBody),
    ))]
async fn delete_one(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    PathParams(path): PathParams,
) -> Result<Response, ApiError> {
    let id = planet_id(&path)?;
    let Some(record) = state.store.get(id).await? else {
        return Err(no_planet(id));
    };
    if !principal.may_delete(record.owner.as_deref()) {
        let owner = record.owner.as_deref().map_or_else(
            || "was created without a token".to_owned(),
            |o| format!("belongs to token {o:?}"),
        );
        return Err(ApiError::forbidden(
            "not_owner",
            format!("planet {id} {owner}; only its owner or an admin token may delete it"),
        ));
    }
    let deleted = state.store.delete(id).await?;
    state.planets.forget(id);
    // Its tier, if no other planet wants it, is not computed for nothing.
    state.tiers.forget_planet(id);
    if !deleted {
        return Err(no_planet(id));
    }
    tracing::info!(id, "planet deleted");
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The `{id}` of a planet path.
pub(crate) fn planet_id(path: &crate::extract::Params) -> Result<i64, ApiError> {
    path.require_in_range("id", 1..=i64::MAX)
}
