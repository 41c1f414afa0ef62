//! The unreleased planet version over HTTP: asked for by name only
//! (`"generator_version": "next"`), never the default, pinned as `v=next`
//! but never cached as immutable (its bytes may change from one build to
//! the next), its tier never written to the store, and its chunks the
//! library's.

mod common;

use common::{TestServer, built, chunk_url, small_params_v4};
use mangekyo_planet::{ChunkAddress, ChunkRequest, Edge, Layers, Projection, Version};
use mangekyo_store::testing::TestDb;
use mangekyo_store::{Backend, Store};
use serde_json::{Value, json};

#[tokio::test]
async fn next_is_asked_for_by_name_and_never_immutable() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let index = server.get_json("/v1", 200).await;
    let planet_gen = index["generators"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "planet")
        .unwrap()
        .clone();
    assert_eq!(planet_gen["version"], json!(Version::DEFAULT));
    assert_eq!(planet_gen["unreleased"], json!(["next"]));
    assert!(
        !planet_gen["versions"]
            .as_array()
            .unwrap()
            .contains(&json!("next"))
    );

    // Without a version a new planet is the default, never next.
    let default = server.create_planet("released", small_params_v4(3)).await;
    assert_eq!(default["generator_version"], json!(Version::DEFAULT));

    let mut params = small_params_v4(3);
    params["generator_version"] = json!("next");
    let planet = server.create_planet("unreleased", params).await;
    assert_eq!(planet["generator_version"], "next");
    assert_eq!(planet["params"]["generator_version"], "next");
    assert_ne!(planet["params_hash"], default["params_hash"]);
    let hash = planet["params_hash"].as_str().unwrap();
    let url = chunk_url(&planet, "tangent_cube", 0, 1, 1, "layers=height");
    assert!(
        url.ends_with(&format!("v=next&p={hash}&layers=height")),
        "{url}"
    );
    server.until_ready(&planet).await;

    let r = server.get(&url).await;
    assert_eq!(r.status(), 200);
    let cache = r.headers()["cache-control"].to_str().unwrap().to_owned();
    assert!(!cache.contains("immutable"), "{cache}");
    let chunk: Value = r.json().await.unwrap();
    assert_eq!(chunk["generator_version"], "next");
    let local = built(&planet);
    assert_eq!(local.version(), Version::Next);
    let sampled = local
        .sample_chunk(&ChunkRequest {
            address: ChunkAddress {
                projection: Projection::TangentCube,
                lod: 0,
                cx: 1,
                cy: 1,
            },
            edge: Edge::Exclusive,
            layers: Layers::HEIGHT,
        })
        .unwrap();
    let served: Vec<f32> = chunk["layers"]["height"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_f64().unwrap() as f32)
        .collect();
    assert_eq!(served, sampled.height);

    // A released version's pin does not name this planet.
    let released = url.replace("v=next", &format!("v={}", Version::DEFAULT));
    let e = server.get_json(&released, 404).await;
    assert_eq!(e["error"]["parameter"], "v");

    // Its tier lives in memory only: the store holds the released
    // planet's tier, never next's.
    server.until_ready(&default).await;
    let store = Store::open(db.url()).await.unwrap();
    for (p, stored) in [(&default, true), (&planet, false)] {
        let status = server
            .get_json(p["links"]["status"].as_str().unwrap(), 200)
            .await;
        let key = format!("t1/{}", status["key"].as_str().unwrap());
        let blob = store.get_blob(&key).await.unwrap();
        assert_eq!(blob.is_some(), stored, "{}", p["generator_version"]);
    }
    server.stop().await;
}
