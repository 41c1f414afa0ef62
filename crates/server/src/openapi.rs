//! The OpenAPI document: the handlers' own `#[utoipa::path]` annotations,
//! collected by the same `OpenApiRouter` calls that route them, so a route
//! cannot exist without its entry (see `tests/openapi.rs`).

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
gets 304. Errors are JSON: `{\"error\": {\"status\", \"code\", \"message\", \"parameter\", \"expected\"}}`. \
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
        let doc = crate::openapi_statuses::complete(doc.clone());
        OpenApiJson(crate::content::Content::json(&with_cave_params(&doc)))
    }
}

/// The document with every `CaveParams` field as a query parameter of
/// every cave route, read off the struct's own JSON (names and defaults),
/// so the routes, the library and this document share one list instead of
/// repeating fourteen names in three annotations.
pub(crate) fn with_cave_params(doc: &utoipa::openapi::OpenApi) -> serde_json::Value {
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

/// The whole document as `/openapi.json` serves it (for tools and tests
/// that compare names across surfaces).
pub fn document() -> serde_json::Value {
    let (_, doc) = crate::routes::api().split_for_parts();
    with_cave_params(&crate::openapi_statuses::complete(doc))
}
