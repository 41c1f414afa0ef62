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
pub struct ApiDoc;

/// The serialised document, as served at `/openapi.json`.
#[derive(Debug)]
pub struct OpenApiJson(pub crate::content::Content);

impl OpenApiJson {
    /// Serialises `doc`, with the statuses shared code answers added.
    pub fn new(doc: &utoipa::openapi::OpenApi) -> OpenApiJson {
        let doc = crate::openapi_statuses::complete(doc.clone());
        OpenApiJson(crate::content::Content::json(&doc))
    }
}
