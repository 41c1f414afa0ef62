//! `POST /v1/roblox/chunks`: several chunks of a stored planet in one
//! request, shaped for a Roblox game server (`HttpService` allows a game
//! 500 requests a minute, so a batch per request matters more than
//! per-URL caching). Layers come as Roblox `buffer` JSON (see
//! `mangekyo_formats::roblox`, which encodes each chunk) or as plain arrays.
//!
//! Each chunk's JSON is generated once and cached under the planet's
//! parameter hash; the answer is those pieces in request order, so equal
//! requests get equal bytes (and ETags) from every replica.

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use mangekyo_formats::roblox::{self, Encoding, RobloxLayer};
use mangekyo_planet::tier::CoarseTier;
use mangekyo_planet::{ChunkAddress, ChunkRequest, Edge, PlanetSpace, Projection};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::content::{Content, Lifetime, respond};
use crate::cost::Estimate;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{ApiJson, Params};
use crate::planets::{LoadedPlanet, planet_error};
use crate::state::AppState;

/// Most chunks in one request. 16 chunks of 256² samples are about 1 M
/// terrain columns, a few MB of JSON, and well under a second of
/// generation on a few cores; a game streaming around its players needs
/// 1–4 chunks per player per move, so 16 covers several players per call.
pub(crate) const MAX_ROBLOX_CHUNKS: usize = 16;

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(roblox_chunks))
}

/// The body of `POST /v1/roblox/chunks`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RobloxChunks {
    /// The planet's id.
    pub planet: i64,
    /// Chunk addresses `[cx, cy]`, 1..=16 of them, no repeats.
    #[schema(value_type = Vec<Vec<i64>>, example = json!([[100, 200], [101, 200]]))]
    pub chunks: Vec<[i64; 2]>,
    /// Layers to send: `height` (f32 m), `material` (u8 into
    /// `material_legend`), `biome` (u8 into `biome_legend`). Default
    /// `["height", "material"]`.
    #[serde(default)]
    pub layers: Option<Vec<String>>,
    /// `tangent_cube` (default), `cube`, `equirectangular` or `octahedral`.
    #[serde(default)]
    pub projection: Option<String>,
    /// Level of detail (default 0).
    #[serde(default)]
    pub lod: Option<u32>,
    /// `exclusive` (256 samples a side, default) or `shared` (257).
    #[serde(default)]
    pub edge: Option<String>,
    /// `buffer` (Roblox buffer JSON, zstd + base64; default) or `array`.
    #[serde(default)]
    pub encoding: Option<String>,
    /// The generator version the client expects (checked when given, as
    /// a chunk URL's `v` is): a number, or `"next"`.
    #[serde(default)]
    #[schema(value_type = Option<u32>)]
    pub v: Option<VersionPin>,
    /// The planet's `params_hash` the client expects (checked when given).
    #[serde(default)]
    pub p: Option<String>,
}

/// A `v` pin as a body carries it: a number, or a name (`"next"`). Any
/// number is read, so one this server does not run is answered like an
/// unknown `v=` in a URL (404), not as a malformed body.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum VersionPin {
    /// A released version's number.
    Number(u64),
    /// A version's name.
    Name(String),
}

impl std::fmt::Display for VersionPin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VersionPin::Number(n) => write!(f, "{n}"),
            VersionPin::Name(s) => f.write_str(s),
        }
    }
}

/// The answer's fixed part (the chunks follow in request order).
#[derive(Debug, Serialize)]
struct Header<'a> {
    planet: i64,
    params_hash: &'a str,
    generator_version: mangekyo_planet::Version,
    projection: &'static str,
    lod: u32,
    edge: &'static str,
    size: u32,
    metres_per_sample: f64,
    encoding: &'static str,
    layers: Vec<&'static str>,
    material_legend: &'static [&'static str],
    biome_legend: &'static [&'static str],
}

/// A checked request.
#[derive(Debug, Clone)]
struct Batch {
    addresses: Vec<ChunkAddress>,
    layers: Vec<RobloxLayer>,
    edge: Edge,
    encoding: Encoding,
}

/// Several chunks of a planet for a Roblox game server.
///
/// The answer: `{planet, params_hash, generator_version, projection, lod,
/// edge, size, metres_per_sample, encoding, layers, material_legend,
/// biome_legend, chunks: [{cx, cy, face, min_height, max_height,
/// max_water_level (with water), layers: {height, material, biome,
/// water}}]}`. With `encoding: "buffer"` each layer is
/// `{"m": null, "t": "buffer", "zbase64": …}`, which
/// `HttpService:JSONDecode` turns into a `buffer`: `size²` samples,
/// row-major, f32 heights and water depths (metres) or u8 indices,
/// little-endian. `water` is sea, lakes and rivers from generator
/// version 3, the sea alone before. From generator version 4 the legends
/// are longer (17 biomes; materials follow them, with `Ice` for the
/// coldest snow_ice); the first entries keep the older indices.
#[utoipa::path(post, path = "/v1/roblox/chunks", tag = "roblox", request_body = RobloxChunks,
    responses(
        (status = 200, description = "The chunks, in request order", content_type = "application/json"),
        (status = 400, description = "A field is malformed or out of range (named in `parameter`)", body = ErrorBody),
        (status = 404, description = "No such planet, or v/p name other content", body = ErrorBody),
        (status = 413, description = "The body is too large", body = ErrorBody),
        (status = 503, description = "The planet's coarse tier is still computing (Retry-After)", body = ErrorBody),
    ))]
async fn roblox_chunks(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<RobloxChunks>,
) -> Result<Response, ApiError> {
    let max = MAX_ROBLOX_CHUNKS.min(state.limits.batch_items).max(1);
    let (projection, lod) = projection_and_lod(&body)?;
    let planet = state
        .planets
        .get(&state.store, planet_id(body.planet)?)
        .await?;
    check_pins(&planet, &body)?;
    let space = PlanetSpace::new(planet.params()?);
    let batch = Batch::from_body(&body, &space, projection, lod, max)?;
    // Chunks of a version-2 planet wait for its coarse tier (as the chunk
    // route does).
    let tier = match crate::tiers::ready_or_retry(&state, &planet).await {
        Ok(tier) => tier,
        Err(answer) => return Ok(answer),
    };
    let mut pieces = Vec::with_capacity(batch.addresses.len());
    for &address in &batch.addresses {
        let (state, planet, batch) = (state.clone(), planet.clone(), batch.clone());
        let tier = tier.clone();
        // As the request's client: the fair gate charges it these chunks.
        pieces.push(tokio::spawn(crate::fair::as_current(async move {
            let key = piece_key(&planet, &batch, &address);
            state
                .content
                .get_or_generate(
                    "roblox_chunk",
                    key,
                    &state.gate,
                    Estimate::NONE,
                    move |_| encode_piece(&planet, tier.as_ref(), &batch, address),
                )
                .await
        })));
    }
    let head = Header {
        planet: planet.record.id,
        params_hash: &planet.params_hash,
        generator_version: planet.version()?,
        projection: projection.name(),
        lod,
        edge: batch.edge.name(),
        size: batch.edge.size(),
        metres_per_sample: space.metres_per_sample(lod),
        encoding: batch.encoding.name(),
        layers: batch.layers.iter().map(|l| l.name()).collect(),
        material_legend: roblox::material_legend(planet.version()?.biomes()),
        biome_legend: mangekyo_planet::Biome::legend(planet.version()?.biomes()),
    };
    let mut out = serde_json::to_vec(&head).map_err(|e| ApiError::internal("the answer", &e))?;
    out.pop(); // the closing brace: the chunks go inside
    out.extend_from_slice(b",\"chunks\":[");
    for (k, piece) in pieces.into_iter().enumerate() {
        let piece = piece
            .await
            .map_err(|e| ApiError::internal("a chunk task", &e))??;
        if k > 0 {
            out.push(b',');
        }
        out.extend_from_slice(&piece.body);
    }
    out.extend_from_slice(b"]}");
    let content = Content::new(out, "application/json");
    Ok(respond(&content, Lifetime::NoStore, &headers))
}

fn planet_id(id: i64) -> Result<i64, ApiError> {
    if id < 1 {
        return Err(ApiError::invalid(
            "planet",
            format!("planet must be a planet id (1 or more), got {id}"),
            "an id from POST /v1/planets",
        ));
    }
    Ok(id)
}

fn projection_and_lod(body: &RobloxChunks) -> Result<(Projection, u32), ApiError> {
    let projection = match &body.projection {
        None => Projection::TangentCube,
        Some(name) => name.parse().map_err(|e| planet_error(&e))?,
    };
    Ok((projection, body.lod.unwrap_or(0)))
}

/// The `v`/`p` pins, checked exactly as a chunk URL's are.
fn check_pins(planet: &LoadedPlanet, body: &RobloxChunks) -> Result<(), ApiError> {
    let v = body.v.as_ref().map(ToString::to_string);
    let mut pairs = Vec::new();
    if let Some(v) = &v {
        pairs.push(("v", v.as_str()));
    }
    if let Some(p) = &body.p {
        pairs.push(("p", p.as_str()));
    }
    planet.lifetime(&Params::from_pairs("body", &pairs))?;
    Ok(())
}

impl Batch {
    fn from_body(
        body: &RobloxChunks,
        space: &PlanetSpace,
        projection: Projection,
        lod: u32,
        max: usize,
    ) -> Result<Batch, ApiError> {
        let layers = parse_layers(body.layers.as_deref())?;
        let edge = match &body.edge {
            None => Edge::Exclusive,
            Some(text) => text.parse().map_err(|e| planet_error(&e))?,
        };
        let encoding = match &body.encoding {
            None => Encoding::Buffer,
            Some(text) => Encoding::parse(text)?,
        };
        if body.chunks.is_empty() || body.chunks.len() > max {
            let message = format!(
                "chunks must hold 1..={max} addresses, got {}",
                body.chunks.len()
            );
            return Err(ApiError::invalid(
                "chunks",
                message,
                format!("1..={max} [cx, cy] pairs"),
            ));
        }
        let mut addresses: Vec<ChunkAddress> = Vec::with_capacity(body.chunks.len());
        for (k, &[cx, cy]) in body.chunks.iter().enumerate() {
            let address = address(space, projection, lod, k, cx, cy)?;
            if let Some(j) = addresses.iter().position(|a| *a == address) {
                let message = format!("chunks[{k}] repeats chunks[{j}] ([{cx}, {cy}])");
                return Err(ApiError::invalid(
                    &format!("chunks[{k}]"),
                    message,
                    "each chunk once",
                ));
            }
            addresses.push(address);
        }
        Ok(Batch {
            addresses,
            layers,
            edge,
            encoding,
        })
    }
}

/// Checks one `[cx, cy]` against the chunk grid, naming `chunks[k][0|1]`.
fn address(
    space: &PlanetSpace,
    projection: Projection,
    lod: u32,
    k: usize,
    cx: i64,
    cy: i64,
) -> Result<ChunkAddress, ApiError> {
    if lod > space.max_lod() {
        return Err(ApiError::invalid(
            "lod",
            format!(
                "lod must be in 0..={} for this planet, got {lod}",
                space.max_lod()
            ),
            format!("0..={}", space.max_lod()),
        ));
    }
    let (w, h) = space.chunk_grid(projection, lod);
    let coord = |i: usize, value: i64, limit: u64| -> Result<u32, ApiError> {
        let at = format!("chunks[{k}][{i}]");
        match u32::try_from(value) {
            Ok(v) if u64::from(v) < limit => Ok(v),
            _ => Err(ApiError::invalid(
                &at,
                format!(
                    "{at} ({}) must be in 0..{limit} for {projection} at lod {lod}, got {value}",
                    if i == 0 { "cx" } else { "cy" }
                ),
                format!("0..{limit}"),
            )),
        }
    };
    Ok(ChunkAddress {
        projection,
        lod,
        cx: coord(0, cx, w)?,
        cy: coord(1, cy, h)?,
    })
}

/// The layers asked for (default height and material), each at most once.
fn parse_layers(names: Option<&[String]>) -> Result<Vec<RobloxLayer>, ApiError> {
    let Some(names) = names else {
        return Ok(vec![RobloxLayer::Height, RobloxLayer::Material]);
    };
    if names.is_empty() {
        return Err(ApiError::invalid(
            "layers",
            "layers must name at least one layer",
            "height, material, biome, water",
        ));
    }
    let mut layers = Vec::with_capacity(names.len());
    for (k, name) in names.iter().enumerate() {
        let at = format!("layers[{k}]");
        let layer = RobloxLayer::parse(name, &at)?;
        if layers.contains(&layer) {
            return Err(ApiError::invalid(
                &at,
                format!("{at} repeats {name:?}"),
                "each layer once",
            ));
        }
        layers.push(layer);
    }
    Ok(layers)
}

fn piece_key(planet: &LoadedPlanet, batch: &Batch, a: &ChunkAddress) -> String {
    let layers: Vec<&str> = batch.layers.iter().map(|l| l.name()).collect();
    format!(
        "roblox_chunk/{}/v{}/{}/{}/{}/{}/{}/{}/{}",
        planet.params_hash,
        planet
            .version()
            .map_or_else(|_| String::new(), |v| v.name()),
        a.projection.name(),
        a.lod,
        a.cx,
        a.cy,
        batch.edge.name(),
        layers.join("+"),
        batch.encoding.name()
    )
}

/// Samples one chunk and writes its JSON piece (on a generation worker).
fn encode_piece(
    planet: &LoadedPlanet,
    tier: Option<&Arc<CoarseTier>>,
    batch: &Batch,
    address: ChunkAddress,
) -> Result<Content, ApiError> {
    let request = ChunkRequest {
        address,
        edge: batch.edge,
        layers: roblox::sample_layers(&batch.layers, planet.version()?),
    };
    let chunk = planet
        .sampler(tier)?
        .sample_chunk(&request)
        .map_err(|e| planet_error(&e))?;
    let body = roblox::encode_piece(&chunk, &batch.layers, batch.encoding)
        .map_err(|e| ApiError::encoding(&e))?;
    Ok(Content::new(body, "application/json"))
}
