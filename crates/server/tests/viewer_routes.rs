//! The routes the web viewer streams from, through the real router: the
//! cave manifest spawns in air above a shaft, mesh and density chunks are
//! the caves crate's own wire forms, the point density equals the field's,
//! bad cave and island requests name their parameter, and islands come as
//! JSON and SVG; the viewer's files say whether its WebAssembly package
//! is built.

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Request};
use mangekyo_caves::{
    CaveField, CaveParams, ChunkCoord, MeshKind, Sampler, Seed, Version as CaveVersion, mesh, wire,
};
use mangekyo_server::{Limits, Viewer, app};
use mangekyo_store::Store;
use serde_json::Value;
use tower::ServiceExt;

/// The router over an in-memory store.
async fn router() -> Router {
    let store = Store::open(&"sqlite::memory:".parse().unwrap())
        .await
        .unwrap();
    app(store, Limits::default(), Viewer::locate(None)).0
}

/// GETs `path`: status, headers, body.
async fn get(router: &Router, path: &str) -> (u16, HeaderMap, Bytes) {
    let request = Request::get(path).body(Body::empty()).unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let (parts, body) = response.into_parts();
    (
        parts.status.as_u16(),
        parts.headers,
        axum::body::to_bytes(body, usize::MAX).await.unwrap(),
    )
}

/// GETs `path` as JSON, expecting `status`.
async fn get_json(router: &Router, path: &str, status: u16) -> Value {
    let (got, _, body) = get(router, path).await;
    let value: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(got, status, "{path}: {value}");
    value
}

/// The JSON chunk of a GLB container, after checking its header (magic,
/// version 2, the stated length is the length).
fn glb_json(glb: &[u8]) -> Value {
    let word = |at: usize| u32::from_le_bytes(glb[at..at + 4].try_into().unwrap()) as usize;
    assert_eq!(&glb[..4], b"glTF");
    assert_eq!(word(4), 2, "glTF version");
    assert_eq!(word(8), glb.len(), "the header states the file's length");
    let json_len = word(12);
    assert_eq!(&glb[16..20], b"JSON");
    serde_json::from_slice(&glb[20..20 + json_len]).unwrap()
}

#[tokio::test]
async fn caves_stream_as_the_crate_encodes_them() {
    let server = router().await;
    let field = CaveField::new(&CaveParams::default(), Seed::new(42)).unwrap();

    let manifest = get_json(
        &server,
        &format!("/v1/caves/42?v={}", mangekyo_caves::GENERATOR_VERSION),
        200,
    )
    .await;
    let spawn: Vec<f64> = manifest["spawn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let (x, y, z) = (spawn[0], spawn[1], spawn[2]);
    assert!(field.is_air([x, y, z]), "the spawn {spawn:?} is in air");
    let surface = f64::from(field.surface_height(x, z));
    let down = field
        .raycast([x, surface + 1.0, z], [0.0, -1.0, 0.0], 80.0)
        .map_or(80.0, |h| h.distance);
    assert!(
        down > 7.0,
        "the spawn is above a shaft ({down} voxels of air under the surface)"
    );
    assert_eq!(manifest["chunk_y"], serde_json::json!([0, 1]));

    let samples = Sampler::new().chunk(&field, ChunkCoord::new(0, 0, 0));
    let (status, headers, bytes) = get(
        &server,
        &format!(
            "/v1/caves/42/chunks/0/0/0?format=mesh&v={}",
            mangekyo_caves::GENERATOR_VERSION
        ),
    )
    .await;
    assert_eq!(status, 200);
    assert!(
        headers.get("server-timing").is_some(),
        "a generated chunk says how long it took"
    );
    let want = wire::encode_mesh(
        &mesh::mesh(&field, &samples, MeshKind::Smooth),
        MeshKind::Smooth,
        field.version(),
    );
    assert_eq!(&bytes[..], &want[..]);
    let (_, _, density) = get(&server, "/v1/caves/42/chunks/0/0/0?format=density").await;
    assert_eq!(
        &density[..],
        &wire::encode_chunk_density(&field, &samples)[..]
    );
    // Every version runs side by side: a URL pinned to version 2 keeps
    // version 2's bytes; a version this build does not run is a 404 that
    // names the ones it does.
    let old =
        CaveField::with_version(&CaveParams::default(), Seed::new(42), CaveVersion::V2).unwrap();
    let old_samples = Sampler::new().chunk(&old, ChunkCoord::new(0, 0, 0));
    let (status, _, pinned) = get(&server, "/v1/caves/42/chunks/0/0/0?format=density&v=2").await;
    assert_eq!(status, 200);
    assert_eq!(
        &pinned[..],
        &wire::encode_chunk_density(&old, &old_samples)[..]
    );
    assert_ne!(pinned, density, "versions 2 and 3 are different worlds");
    let gone = get_json(&server, "/v1/caves/42/chunks/0/0/0?v=1", 404).await;
    assert_eq!(gone["error"]["parameter"], "v", "{gone}");

    // The same mesh as a glTF binary: a valid GLB container whose one
    // node sits at the chunk's origin and holds every vertex of the mesh.
    let smooth = mesh::mesh(&field, &samples, MeshKind::Smooth);
    let (status, headers, glb) = get(&server, "/v1/caves/42/chunks/0/0/0?format=glb").await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "model/gltf-binary");
    let doc = glb_json(&glb);
    let primitive = &doc["meshes"][0]["primitives"][0];
    let position = primitive["attributes"]["POSITION"].as_u64().unwrap() as usize;
    assert_eq!(
        doc["accessors"][position]["count"].as_u64(),
        Some(smooth.vertex_count() as u64)
    );
    let indices = primitive["indices"].as_u64().unwrap() as usize;
    assert_eq!(
        doc["accessors"][indices]["count"].as_u64(),
        Some(3 * smooth.triangle_count() as u64)
    );
    assert_eq!(doc["nodes"][0]["name"], "chunk_0_0_0");

    let point = get_json(&server, "/v1/caves/42/density?x=3.25&y=20.5&z=-7.75", 200).await;
    let want = u64::from(field.density_at(3.25, 20.5, -7.75).to_bits());
    assert_eq!(point["density_bits"].as_u64(), Some(want));

    for (path, parameter) in [
        ("/v1/caves/42/chunks/0/0/0?format=gif", "format"),
        ("/v1/caves/42/chunks/0/0/0?mesher=marching", "mesher"),
        ("/v1/caves/42/chunks/9999999/0/0", "cx"),
        ("/v1/caves/42/chunks/0/0/0?octaves=0", "octaves"),
        ("/v1/caves/42/density?x=NaN&y=0&z=0", "x"),
        ("/v1/caves/42?worm_frequency=-1", "worm_frequency"),
        ("/v1/islands/example/42?format=png", "format"),
        ("/v1/islands/example/42?lang=xx", "lang"),
        ("/v1/islands/example/42?scope=moon", "scope"),
    ] {
        let error = get_json(&server, path, 400).await;
        assert_eq!(error["error"]["parameter"], parameter, "{path}: {error}");
    }
    assert_eq!(get(&server, "/healthz").await.0, 200);
}

#[tokio::test]
async fn islands_come_as_json_and_svg() {
    let server = router().await;
    let json = get_json(
        &server,
        &format!(
            "/v1/islands/example/42?v={}&lang=ja",
            mangekyo_island::GENERATOR_VERSION
        ),
        200,
    )
    .await;
    let sites = json["sites"].as_array().unwrap().len();
    assert!((18..=24).contains(&sites), "{sites} sites");
    let (status, headers, body) = get(&server, "/v1/islands/example/42?format=svg").await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "image/svg+xml");
    let text = String::from_utf8(body.to_vec()).unwrap();
    assert!(text.starts_with("<svg"));
    assert_eq!(text.matches("<title>site ").count(), sites);
}

/// The viewer's files say when its WebAssembly package is missing (the
/// caves mode then generates on the server without asking for it), and
/// stop saying so once it is built.
#[tokio::test]
async fn viewer_files_say_whether_the_wasm_package_is_built() {
    let pid = std::process::id();
    let dir = std::env::temp_dir().join(format!("mangekyo-viewer-wasm-{pid}"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><title>viewer</title>",
    )
    .unwrap();
    let store = Store::open(&"sqlite::memory:".parse().unwrap())
        .await
        .unwrap();
    let server = app(store, Limits::default(), Viewer::locate(Some(dir.clone()))).0;

    let (status, headers, body) = get(&server, "/").await;
    assert_eq!(status, 200);
    assert!(body.starts_with(b"<!doctype html>"));
    assert_eq!(headers["x-mangekyo-wasm"], "missing");
    // A missing file is still the JSON 404, and the API never carries it.
    assert_eq!(get(&server, "/pkg/mangekyo.js").await.0, 404);
    assert!(
        get(&server, "/healthz")
            .await
            .1
            .get("x-mangekyo-wasm")
            .is_none()
    );

    std::fs::create_dir_all(dir.join("pkg")).unwrap();
    std::fs::write(dir.join("pkg/mangekyo_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    let (status, headers, _) = get(&server, "/index.html").await;
    assert_eq!(status, 200);
    assert!(
        headers.get("x-mangekyo-wasm").is_none(),
        "the package is built: {headers:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
