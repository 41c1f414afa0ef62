//! Voxel caves over HTTP, in the compact forms the web viewer streams: a
//! world's manifest, a chunk's mesh or density grid as little-endian
//! binary, and the density at any point.
//!
//! - `GET /v1/caves/{seed}`: the manifest (JSON): parameters, the chunk
//!   layers that hold surfaces, a spawn point (`mangekyo_caves::Manifest`).
//! - `GET /v1/caves/{seed}/chunks/{cx}/{cy}/{cz}?format=mesh|density|glb`:
//!   one 32³ chunk in the caves crate's wire forms (`mangekyo_caves::wire`):
//!   `mesh` is `MKCM` (positions, normals, sky visibility, indices),
//!   `density` is `MKCD` (the chunk's 33³ voxel densities and its columns'
//!   surface heights); web/src/modes/caves/format.js decodes both. `glb`
//!   is the same mesh as a glTF 2.0 binary for engines and 3D tools
//!   (`mangekyo_formats::cave_models`).
//! - `GET /v1/caves/{seed}/density?x=&y=&z=`: `CaveField::density_at`.
//!
//! Cave parameters (`mode`, `amplitude`, `worm_frequency`, …; see
//! `mangekyo_caves::CaveParams`) are query parameters, so a chunk has one
//! cacheable URL. Generation and meshing times go in `Server-Timing`
//! (`gen`, `mesh`, in ms) when the chunk was generated for this request.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;
use mangekyo_caves::manifest::MAX_POINT_COORD;
use mangekyo_caves::{
    CaveField, CaveFormat, CaveParams, ChunkCoord, MAX_CHUNK_COORD, Manifest, MeshKind, Sampler,
    Seed, Version as CaveVersion,
};
use mangekyo_formats::cave_models;
use serde_json::json;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::content::{Content, Lifetime, respond};
use crate::cost::Estimate;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Params, PathParams, QueryParams};
use crate::generated::{Format, parse_params, parse_path_seed, pinned_version, query_object};
use crate::state::AppState;

/// Query parameters that are not the cave field's.
const RESERVED: [&str; 6] = ["format", "v", "mesher", "x", "y", "z"];

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(manifest))
        .routes(routes!(chunk))
        .routes(routes!(point))
}

/// The seed, the field and its canonical parameters from a request.
struct World {
    seed: Seed,
    field: CaveField,
    params: CaveParams,
    params_json: serde_json::Value,
    lifetime: Lifetime,
}

fn world(path: &Params, query: &Params) -> Result<World, ApiError> {
    let seed_text: String = path.require("seed", "a seed (digits or text)")?;
    let seed = parse_path_seed(&seed_text)?;
    let codes = CaveVersion::ALL.map(CaveVersion::code);
    let (code, lifetime) = pinned_version(query, "caves", &codes, CaveVersion::DEFAULT.code())?;
    let version = CaveVersion::from_code(code.into()).map_err(|e| ApiError::refused(&e))?;
    let params: CaveParams = parse_params(query_object(query, &RESERVED)?)?;
    let field =
        CaveField::with_version(&params, seed, version).map_err(|e| ApiError::refused(&e))?;
    let params_json = serde_json::to_value(params)
        .map_err(|e| ApiError::internal("serialising parameters", &e))?;
    Ok(World {
        seed,
        field,
        params,
        params_json,
        lifetime,
    })
}

/// A cave world's manifest: what a client needs before streaming chunks.
#[utoipa::path(get, path = "/v1/caves/{seed}", tag = "caves",
    params(
        ("seed" = String, Path, description = "Decimal digits are that number; any other text is hashed"),
        ("v" = Option<u32>, Query, description = "Caves generator version: pins the URL"),
        ("mode" = Option<String>, Query, description = "tubes (default) or sheets"),
    ),
    responses(
        (status = 200, description = "Parameters, chunk layers holding surfaces, spawn point", body = Object),
        (status = 400, description = "A parameter is out of range", body = ErrorBody),
    ))]
async fn manifest(
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    // `v` and the cave parameters, read off `CaveParams` itself so a new
    // parameter needs no second list here.
    let keys = cave_param_names();
    let allowed: Vec<&str> = std::iter::once("v")
        .chain(keys.iter().map(String::as_str))
        .collect();
    query.only(&allowed)?;
    let w = world(&path, &query)?;
    let doc = Manifest::of(&w.field)
        .document(w.seed, &w.params)
        .map_err(|e| ApiError::internal("serialising the manifest", &e))?;
    Ok(respond(&Content::json(&doc), w.lifetime, &headers))
}

/// The query names of the cave parameters: the fields of `CaveParams`, as
/// it serialises them.
fn cave_param_names() -> Vec<String> {
    match serde_json::to_value(CaveParams::default()) {
        Ok(serde_json::Value::Object(fields)) => fields.keys().cloned().collect(),
        // A struct with named fields always serialises as an object.
        _ => Vec::new(),
    }
}

/// One chunk: its smooth or blocky mesh, or its padded density grid.
#[utoipa::path(get, path = "/v1/caves/{seed}/chunks/{cx}/{cy}/{cz}", tag = "caves",
    params(
        ("seed" = String, Path, description = "Decimal digits are that number; any other text is hashed"),
        ("cx" = i32, Path, minimum = -1048576, maximum = 1048576, description = "Chunk x, |cx| ≤ 2^20"),
        ("cy" = i32, Path, minimum = -1048576, maximum = 1048576, description = "Chunk y (up), |cy| ≤ 2^20"),
        ("cz" = i32, Path, minimum = -1048576, maximum = 1048576, description = "Chunk z, |cz| ≤ 2^20"),
        ("format" = Option<String>, Query, description = "mesh (default; MKCM binary), density (MKCD binary) or glb (glTF 2.0 binary)"),
        ("mesher" = Option<String>, Query, description = "smooth (default, surface nets) or blocky"),
        ("v" = Option<u32>, Query, description = "Caves generator version: pins the URL"),
        ("mode" = Option<String>, Query, description = "tubes (default) or sheets"),
    ),
    responses(
        (status = 200, description = "The chunk", content(("application/octet-stream"), ("model/gltf-binary"))),
        (status = 304, description = "Not modified"),
        (status = 400, description = "A parameter is out of range", body = ErrorBody),
    ))]
async fn chunk(
    State(state): State<AppState>,
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let w = world(&path, &query)?;
    // The bound is the caves crate's; checked here first so the answer
    // names the path's own range.
    let range = -MAX_CHUNK_COORD..=MAX_CHUNK_COORD;
    let coord = ChunkCoord::checked(
        path.require_in_range("cx", range.clone())?,
        path.require_in_range("cy", range.clone())?,
        path.require_in_range("cz", range)?,
    )
    .map_err(|e| ApiError::refused(&e))?;
    // One list of names for every surface (`mangekyo_caves::names`).
    let format: CaveFormat = query
        .text("format")
        .map_or(Ok(CaveFormat::default()), str::parse)
        .map_err(|e| ApiError::refused(&e))?;
    let kind: MeshKind = query
        .text("mesher")
        .map_or(Ok(MeshKind::default()), str::parse)
        .map_err(|e| ApiError::refused(&e))?;
    let version = w.field.version();
    let what = match format {
        CaveFormat::Density => "density".to_owned(),
        CaveFormat::Glb => format!("{kind}.glb"),
        CaveFormat::Mesh => kind.name().to_owned(),
    };
    let key = format!(
        "caves/v{version}/{}/{}/{},{},{}/{what}",
        w.seed.value(),
        w.params_json,
        coord.x,
        coord.y,
        coord.z
    );
    let timing: Arc<Mutex<Option<(f64, f64)>>> = Arc::default();
    let timing_out = Arc::clone(&timing);
    let field = w.field;
    let route_kind = match format {
        CaveFormat::Density => "caves_density",
        CaveFormat::Glb => "caves_glb",
        CaveFormat::Mesh => "caves_mesh",
    };
    let content = state
        .content
        .get_or_generate(route_kind, key, &state.gate, Estimate::NONE, move |_| {
            let t0 = Instant::now();
            let samples = Sampler::new().chunk(&field, coord);
            let gen_ms = t0.elapsed().as_secs_f64() * 1e3;
            let t1 = Instant::now();
            let body = cave_models::encode_chunk(&field, coord, &samples, format, kind)
                .map_err(|e| ApiError::internal("encoding the chunk", &e))?;
            let mesh_ms = if format == CaveFormat::Density {
                0.0
            } else {
                t1.elapsed().as_secs_f64() * 1e3
            };
            let media = match format {
                CaveFormat::Glb => Format::Glb,
                CaveFormat::Mesh | CaveFormat::Density => Format::Bin,
            };
            if let Ok(mut t) = timing.lock() {
                *t = Some((gen_ms, mesh_ms));
            }
            Ok(Content::new(body, media.content_type()))
        })
        .await?;
    let mut response = respond(&content, w.lifetime, &headers);
    let measured = timing_out.lock().ok().and_then(|t| *t);
    if let Some((gen_ms, mesh_ms)) = measured {
        let text = format!("gen;dur={gen_ms:.3}, mesh;dur={mesh_ms:.3}");
        if let Ok(value) = HeaderValue::from_str(&text) {
            response.headers_mut().insert("server-timing", value);
        }
    }
    Ok(response)
}

/// The density at a point (trilinear between voxels; > 0 is rock).
#[utoipa::path(get, path = "/v1/caves/{seed}/density", tag = "caves",
    params(
        ("seed" = String, Path, description = "Decimal digits are that number; any other text is hashed"),
        ("x" = f64, Query, description = "Voxels"), ("y" = f64, Query, description = "Voxels (up)"),
        ("z" = f64, Query, description = "Voxels"),
        ("v" = Option<u32>, Query, description = "Caves generator version: pins the URL"),
    ),
    responses(
        (status = 200, description = "The density, whether it is air, and the surface height there", body = Object),
        (status = 400, description = "A parameter is out of range", body = ErrorBody),
    ))]
async fn point(
    PathParams(path): PathParams,
    QueryParams(query): QueryParams,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let w = world(&path, &query)?;
    let coord = |name: &str| -> Result<f64, ApiError> {
        let v: f64 = query.require(name, "a finite number of voxels")?;
        if !v.is_finite() || v.abs() > MAX_POINT_COORD {
            let message =
                format!("{name} must be a finite number within ±{MAX_POINT_COORD}, got {v}");
            return Err(ApiError::invalid(
                name,
                message,
                format!("-{MAX_POINT_COORD}..={MAX_POINT_COORD}"),
            ));
        }
        Ok(v)
    };
    let (x, y, z) = (coord("x")?, coord("y")?, coord("z")?);
    let d = w.field.density_at(x, y, z);
    let doc = json!({
        "x": x, "y": y, "z": z,
        "density": d,
        "density_bits": d.to_bits(),
        "air": d <= 0.0,
        "surface": w.field.surface_height(x, z),
    });
    Ok(respond(&Content::json(&doc), w.lifetime, &headers))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mangekyo_caves::CaveError;

    #[test]
    fn the_manifest_takes_every_cave_parameter() {
        let names = cave_param_names();
        assert_eq!(names.len(), 14, "{names:?}");
        for name in ["mode", "worm_frequency", "floor_level"] {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
    }
    use mangekyo_core::ParamError;

    #[test]
    fn chunk_errors_name_the_parameter() {
        let e = ApiError::refused(&CaveError::Param(ParamError::new("octaves", 0, "1..=16")));
        assert_eq!(
            (e.status.as_u16(), e.parameter.as_deref()),
            (400, Some("octaves"))
        );
    }
}
