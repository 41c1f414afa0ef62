//! The OpenAPI document's fixed parts and the pure post-processing of a
//! collected document. The paths are the handlers' own `#[utoipa::path]`
//! annotations, collected by the same `OpenApiRouter` calls that route them
//! (`routes::api`, which also builds the whole document: `routes::document`),
//! so a route cannot exist without its entry (see `tests/openapi.rs`). This
//! module never calls the routes: they depend on it, not the other way.

use utoipa::OpenApi;

/// The document's fixed parts; the paths come from the routes.
#[derive(Debug, OpenApi)]
#[openapi(
    info(
        title = "Mangekyo",
        description = "Deterministic procedural terrain over HTTP: planets (chunks, previews, web-map tiles), \
voxel caves, Hengband-style dungeons and islands. Every generated response is a pure function of its URL: \
URLs that carry `v` (the generator version) and, for stored planets, `p` (the parameter hash) are served \
with a strong content-hash ETag and `Cache-Control: public, max-age=31536000, immutable`; `If-None-Match` \
gets 304. Every parameter has one spelling, so every answer one URL: integers without sign or leading zero, \
fractional numbers as ECMAScript's `String(x)` writes them, lists (`layers`) without empty or repeated items \
and in their documented order; any other spelling is a 400 whose `expected` is the canonical one. \
Absolute URLs (TileJSON's) start with the server's `--public-url`; without it they come from `Host` and \
`X-Forwarded-Proto` (checked) and the answer is `private`. \
Errors are JSON: `{\"error\": {\"status\", \"code\", \"message\", \"parameter\", \"expected\"}}`. \
The web viewer is served at `/`.",
        license(name = "MIT OR Apache-2.0")
    ),
    tags(
        (name = "system", description = "Health, metrics, this document, generator versions"),
        (name = "planets", description = "The planet store: parameters only, chunks regenerated on demand"),
        (name = "caves", description = "Voxel caves: manifests, chunk meshes and density"),
        (name = "islands", description = "Islands from the example world or posted definitions"),
        (name = "dungeon", description = "Hengband fractal caves: rooms, caverns, lakes, levels"),
    )
)]
pub(crate) struct ApiDoc;

/// The serialised document, as served at `/openapi.json`.
#[derive(Debug)]
pub struct OpenApiJson(pub crate::content::Content);

impl OpenApiJson {
    /// Serialises `doc`, with the statuses shared code answers added.
    pub fn new(doc: &utoipa::openapi::OpenApi) -> OpenApiJson {
        OpenApiJson(crate::content::Content::json(&finish(doc.clone())))
    }
}

/// A collected document as `/openapi.json` serves it: the statuses shared
/// code answers added, and the cave routes' parameters read off
/// `CaveParams`.
pub(crate) fn finish(doc: utoipa::openapi::OpenApi) -> serde_json::Value {
    with_cave_params(&crate::openapi_statuses::complete(doc))
}

/// The document with every `CaveParams` field as a query parameter of
/// every cave route, read off the struct's own JSON (names and defaults),
/// so the routes, the library and this document share one list instead of
/// repeating fourteen names in three annotations.
fn with_cave_params(doc: &utoipa::openapi::OpenApi) -> serde_json::Value {
    use serde_json::{Value, json};
    let mut doc = serde_json::to_value(doc).unwrap_or(Value::Null);
    let defaults =
        serde_json::to_value(mangekyo_caves::CaveParams::default()).unwrap_or(Value::Null);
    let Some(fields) = defaults.as_object() else {
        return doc;
    };
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return doc;
    };
    for (path, item) in paths.iter_mut() {
        if !path.starts_with("/v1/caves/") {
            continue;
        }
        let Some(ops) = item.as_object_mut() else {
            continue;
        };
        for op in ops.values_mut() {
            let Some(params) = op.get_mut("parameters").and_then(Value::as_array_mut) else {
                continue;
            };
            for (name, default) in fields {
                if params.iter().any(|p| p["name"] == *name) {
                    continue;
                }
                let schema = match default {
                    Value::Number(n) if n.is_i64() || n.is_u64() => json!({"type": "integer"}),
                    Value::Number(_) => json!({"type": "number"}),
                    _ => json!({"type": "string"}),
                };
                params.push(json!({
                    "name": name,
                    "in": "query",
                    "required": false,
                    "description": format!(
                        "Cave parameter `{name}` (CaveParams; the range is checked and named in a 400), default {default}"
                    ),
                    "schema": schema,
                }));
            }
        }
    }
    doc
}
