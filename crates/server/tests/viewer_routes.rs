//! The routes the web viewer streams from, against the real server: the
//! cave manifest spawns in air above a shaft, mesh and density chunks are
//! the caves crate's own wire forms (decoded back here), the point density
//! equals the field's, bad cave and island requests name their parameter,
//! and islands come as JSON and SVG.

mod common;

use common::TestServer;
use mangekyo_caves::{CaveField, CaveParams, ChunkCoord, MeshKind, Sampler, Seed, mesh, wire};
use mangekyo_store::{Backend, testing::TestDb};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn caves_stream_as_the_crate_encodes_them() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let field = CaveField::new(&CaveParams::default(), Seed::new(42)).unwrap();

    let manifest = server.get_json("/v1/caves/42?v=1", 200).await;
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

    let coord = ChunkCoord::new(0, 0, 0);
    let samples = Sampler::new().chunk(&field, coord);
    let response = server
        .get("/v1/caves/42/chunks/0/0/0?format=mesh&v=1")
        .await;
    assert_eq!(response.status(), 200);
    assert!(
        response.headers().get("server-timing").is_some(),
        "a generated chunk says how long it took"
    );
    let bytes = response.bytes().await.unwrap();
    assert_eq!(
        &bytes[..],
        &wire::encode_mesh(
            &mesh::mesh(&field, &samples, MeshKind::Smooth),
            MeshKind::Smooth
        )[..]
    );
    let density = server
        .get("/v1/caves/42/chunks/0/0/0?format=density")
        .await
        .bytes()
        .await
        .unwrap();
    assert_eq!(
        &density[..],
        &wire::encode_chunk_density(&field, &samples)[..]
    );

    let point = server
        .get_json("/v1/caves/42/density?x=3.25&y=20.5&z=-7.75", 200)
        .await;
    assert_eq!(
        point["density_bits"].as_u64().unwrap(),
        u64::from(field.density_at(3.25, 20.5, -7.75).to_bits())
    );

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
        let error = server.get_json(path, 400).await;
        assert_eq!(error["error"]["parameter"], parameter, "{path}: {error}");
    }
    assert_eq!(server.get("/healthz").await.status(), 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn islands_come_as_json_and_svg() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let json = server
        .get_json("/v1/islands/example/42?v=1&lang=ja", 200)
        .await;
    let sites = json["sites"].as_array().unwrap().len();
    assert!((18..=24).contains(&sites), "{sites} sites");
    let svg = server.get("/v1/islands/example/42?format=svg").await;
    assert_eq!(svg.headers()["content-type"], "image/svg+xml");
    let text = svg.text().await.unwrap();
    assert!(text.starts_with("<svg"));
    assert_eq!(text.matches("<title>site ").count(), sites);
    server.stop().await;
}
