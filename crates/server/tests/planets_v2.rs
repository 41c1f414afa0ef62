//! Version-2 planets (plates) over HTTP: their
//! `uplift` and `plate` layers in every chunk format, the plates as
//! GeoJSON, the preview's boundary overlay, and the coarse tier: computed
//! once, persisted as a blob (restarts load it; deleting it changes no
//! byte), `202` and `503` + `Retry-After` while it computes, nothing
//! stored lost when the server stops mid-computation.

mod common;

use std::time::Duration;

use common::{TestServer, built, chunk_url, small_params_v2};
use mangekyo_formats::{ChunkFormat, chunk};
use mangekyo_planet::{ChunkAddress, ChunkRequest, Edge, Projection};
use mangekyo_server::Limits;
use mangekyo_store::testing::TestDb;
use mangekyo_store::{Backend, Store};
use serde_json::{Value, json};

fn header<'a>(headers: &'a reqwest::header::HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).map(|v| v.to_str().unwrap())
}

#[tokio::test]
async fn version_2_planets_have_plate_and_uplift_layers_everywhere() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("tectonic", small_params_v2(3)).await;
    assert_eq!(planet["generator_version"], 2);
    assert_eq!(planet["params"]["generator_version"], 2);
    assert_eq!(planet["params"]["graph_n"], 24);
    let pin = format!("v=2&p={}", planet["params_hash"].as_str().unwrap());
    assert!(planet["links"]["chunk"].as_str().unwrap().ends_with(&pin));
    let status = server.until_ready(&planet).await;
    assert_eq!(status["graph_n"], 24);
    assert_eq!(status["blob_hash"].as_str().unwrap().len(), 16);

    // JSON by default holds every layer of version 2, the same bytes the
    // library and `mangekyo planet chunk` make.
    // A chunk of the coarsest level that a plate boundary crosses.
    let local = built(&planet);
    let lod = local.space().max_lod();
    let (w, h) = local.space().chunk_grid(Projection::TangentCube, lod);
    let (w, h) = (u32::try_from(w).unwrap(), u32::try_from(h).unwrap());
    let sample = |cx, cy| {
        local
            .sample_chunk(&ChunkRequest {
                address: ChunkAddress {
                    projection: Projection::TangentCube,
                    lod,
                    cx,
                    cy,
                },
                edge: Edge::Exclusive,
                layers: mangekyo_planet::Version::V2.layers(),
            })
            .unwrap()
    };
    let (cx, cy, sampled) = (0..h)
        .flat_map(|cy| (0..w).map(move |cx| (cx, cy)))
        .map(|(cx, cy)| (cx, cy, sample(cx, cy)))
        .find(|(_, _, c)| c.plate.iter().any(|&p| p != c.plate[0]))
        .expect("some chunk holds a plate boundary");
    let at = |extra: &str| chunk_url(&planet, "tangent_cube", lod, cx, cy, extra);
    let url = at("");
    let (status, headers, body) = server.bytes(&url).await;
    assert_eq!(status, 200);
    assert!(
        header(&headers, "cache-control")
            .unwrap()
            .contains("immutable")
    );
    let want = chunk::encode(&sampled, ChunkFormat::Json, local.params()).unwrap();
    assert_eq!(body, want.bytes, "served JSON = library JSON");
    let json: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(json["generator_version"], 2);
    assert_eq!(json["layers"]["plate"].as_array().unwrap().len(), 256 * 256);

    // bin: every layer, mask 0x3f.
    let (_, _, bin) = server.bytes(&at("format=bin")).await;
    assert_eq!(bin[15], 0b11_1111);
    assert_eq!(u32::from_le_bytes(bin[8..12].try_into().unwrap()), 2);

    // r16 of the plate layer: the ids themselves, named in a header.
    let (status, headers, r16) = server.bytes(&at("format=r16&layers=plate")).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "mangekyo-layer"), Some("plate"));
    let ids: Vec<u16> = r16
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    assert_eq!(ids, sampled.plate);
    // f32 of the uplift layer: the metres, bit for bit.
    let (_, headers, f32s) = server.bytes(&at("format=f32&layers=uplift")).await;
    assert_eq!(header(&headers, "mangekyo-layer"), Some("uplift"));
    let uplift: Vec<u32> = f32s
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(
        uplift,
        sampled
            .uplift
            .iter()
            .map(|u| u.to_bits())
            .collect::<Vec<_>>()
    );
    // A preview with the plate layer draws the boundaries white.
    let (_, _, plain) = server.bytes(&at("format=preview")).await;
    let (_, _, marked) = server.bytes(&at("format=preview&layers=plate")).await;
    assert_ne!(plain, marked);

    // One layer per heightmap; a version-1 pin is another planet's content.
    let e = server
        .get_json(&at("format=png16&layers=height,plate"), 400)
        .await;
    assert_eq!(e["error"]["parameter"], "layers");
    let wrong_pin = url.replace("v=2&", "v=1&");
    let e = server.get_json(&wrong_pin, 404).await;
    assert_eq!(e["error"]["parameter"], "v");

    // The plates as GeoJSON: polygons and typed boundaries.
    let plates = planet["links"]["plates"].as_str().unwrap();
    let (status, headers, body) = server.bytes(&format!("{plates}&cell_deg=2")).await;
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "content-type"),
        Some("application/geo+json")
    );
    let doc: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(doc["type"], "FeatureCollection");
    let features = doc["features"].as_array().unwrap();
    let polygons = features
        .iter()
        .filter(|f| f["geometry"]["type"] == "MultiPolygon")
        .count();
    assert_eq!(polygons, local.plates().unwrap().len());
    assert!(features.iter().any(|f| {
        f["geometry"]["type"] == "LineString"
            && ["convergent", "divergent", "transform"]
                .contains(&f["properties"]["type"].as_str().unwrap_or(""))
    }));
    let e = server.get_json(&format!("{plates}&cell_deg=7"), 400).await;
    assert_eq!(e["error"]["parameter"], "cell_deg");

    // The preview's overlay paints boundaries in the three type colours.
    let preview = planet["links"]["preview"].as_str().unwrap();
    let (_, _, plain) = server.bytes(&format!("{preview}&width=256")).await;
    let (status, _, overlaid) = server
        .bytes(&format!("{preview}&width=256&overlay=plates"))
        .await;
    assert_eq!(status, 200);
    assert_ne!(plain, overlaid);
    let (_, _, plate_map) = server
        .bytes(&format!("{preview}&width=256&layer=plate"))
        .await;
    assert_ne!(plain, plate_map);
    let e = server
        .get_json(&format!("{preview}&width=256&overlay=faults"), 400)
        .await;
    assert_eq!(e["error"]["parameter"], "overlay");
    server.stop().await;
}

#[tokio::test]
async fn version_1_planets_have_no_geology_and_say_so() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("old", common::small_params(3)).await;
    assert_eq!(planet["generator_version"], 1);
    assert!(planet["links"].get("plates").is_none());
    let status = server.until_ready(&planet).await;
    assert_eq!(status["state"], "not_needed");
    let e = server
        .get_json(
            &chunk_url(&planet, "tangent_cube", 0, 1, 1, "layers=plate"),
            400,
        )
        .await;
    assert_eq!(e["error"]["parameter"], "layers");
    let e = server
        .get_json(
            &chunk_url(&planet, "tangent_cube", 0, 1, 1, "format=r16&layers=uplift"),
            400,
        )
        .await;
    assert_eq!(e["error"]["parameter"], "layers");
    let id = planet["id"].as_i64().unwrap();
    let e = server
        .get_json(&format!("/v1/planets/{id}/plates.geojson"), 400)
        .await;
    assert_eq!(e["error"]["parameter"], "params.generator_version");
    let e = server
        .get_json(
            &format!("/v1/planets/{id}/preview?width=64&overlay=plates"),
            400,
        )
        .await;
    assert_eq!(e["error"]["parameter"], "overlay");
    server.stop().await;
}

#[tokio::test]
async fn bad_version_2_parameters_and_unknown_status_links_are_named() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    for (params, field) in [
        (json!({"graph_n": 8}), "params.graph_n"),
        (json!({"graph_n": 5000}), "params.graph_n"),
        (json!({"plate_count": 3}), "params.plate_count"),
        (json!({"plate_count": 41}), "params.plate_count"),
        (json!({"generator_version": 5}), "params.generator_version"),
        (json!({"graph_n": "many"}), "params.graph_n"),
    ] {
        let r = server
            .post_json("/v1/planets", &json!({"name": "bad", "params": params}))
            .await;
        assert_eq!(r.status().as_u16(), 400, "{params}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"]["parameter"], field, "{params}");
    }
    let e = server.get_json("/v1/planets/987654/status", 404).await;
    assert_eq!(e["error"]["code"], "not_found");
    let e = server.get_json("/v1/planets/zero/status", 400).await;
    assert_eq!(e["error"]["parameter"], "id");
    // Nothing was stored by the refusals.
    let list = server.get_json("/v1/planets", 200).await;
    assert_eq!(list["planets"].as_array().unwrap().len(), 0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computing_tier_answers_202_then_503_and_a_stop_loses_nothing_stored() {
    let db = TestDb::new(Backend::Sqlite).await;
    // No waiting: the answers say where the work stands at once.
    let limits = Limits {
        tier_create_wait: Duration::ZERO,
        tier_wait: Duration::ZERO,
        ..Limits::default()
    };
    let server = TestServer::start_with(&db, limits.clone()).await;
    // The largest tier (6 · 1024² nodes) takes seconds in any build.
    let params = json!({"seed": 9, "radius": 200_000.0, "pixel_size": 50.0, "graph_n": 1024, "generator_version": 2});
    let r = server
        .post_json("/v1/planets", &json!({"name": "slow", "params": params}))
        .await;
    assert_eq!(r.status().as_u16(), 202);
    assert_eq!(
        r.headers().get("location").unwrap().to_str().unwrap(),
        "/v1/planets/1"
    );
    let planet: Value = r.json().await.unwrap();
    assert_eq!(planet["tier"]["state"], "computing");
    assert_eq!(planet["links"]["status"], "/v1/planets/1/status");
    let r = server
        .get(&chunk_url(&planet, "tangent_cube", 0, 0, 0, ""))
        .await;
    assert_eq!(r.status().as_u16(), 503);
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(r.headers()["cache-control"], "no-store");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "computing");
    let status = server.get_json("/v1/planets/1/status", 200).await;
    assert_eq!(status["state"], "computing");
    let progress = status["progress"].as_f64().unwrap();
    assert!((0.0..1.0).contains(&progress), "{progress}");
    let key = status["key"].as_str().unwrap().to_owned();

    // The server stops mid-computation: the planet is stored, and no
    // half-made tier is.
    server.stop().await;
    let store = Store::open(db.url()).await.unwrap();
    assert_eq!(store.get(1).await.unwrap().unwrap().name, "slow");
    assert_eq!(store.get_blob(&format!("t1/{key}")).await.unwrap(), None);
    store.close().await;
    let again = TestServer::start_with(&db, limits).await;
    let planet = again.get_json("/v1/planets/1", 200).await;
    assert_eq!(planet["generator_version"], 2);
    again.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tier_is_stored_once_loaded_after_a_restart_and_only_a_cache() {
    let db = TestDb::new(Backend::Sqlite).await;
    let first = TestServer::start(&db).await;
    let planet = first.create_planet("kept", small_params_v2(17)).await;
    let made = first.until_ready(&planet).await;
    assert_eq!(made["origin"], "computed");
    let url = chunk_url(&planet, "tangent_cube", 0, 3, 1, "format=bin");
    let (_, headers, chunk) = first.bytes(&url).await;
    let etag = header(&headers, "etag").unwrap().to_owned();
    first.stop().await;

    // A restart loads the blob: same hash, same chunk bytes and ETag.
    let store = Store::open(db.url()).await.unwrap();
    let blob_key = format!("t1/{}", made["key"].as_str().unwrap());
    let blob = store
        .get_blob(&blob_key)
        .await
        .unwrap()
        .expect("the tier is stored");
    let tier = mangekyo_planet::tier::CoarseTier::from_bytes(&blob).unwrap();
    assert_eq!(
        format!("{:016x}", tier.hash()),
        made["blob_hash"].as_str().unwrap()
    );
    let second = TestServer::start(&db).await;
    let loaded = second.until_ready(&planet).await;
    assert_eq!(loaded["origin"], "loaded");
    assert_eq!(loaded["blob_hash"], made["blob_hash"]);
    let (_, headers, again) = second.bytes(&url).await;
    assert_eq!(
        (again.as_slice(), header(&headers, "etag").unwrap()),
        (chunk.as_slice(), etag.as_str())
    );
    second.stop().await;

    // Deleting the blob changes no byte: the next server computes it again.
    assert!(store.delete_blob(&blob_key).await.unwrap());
    store.close().await;
    let third = TestServer::start(&db).await;
    let redone = third.until_ready(&planet).await;
    assert_eq!(redone["origin"], "computed");
    assert_eq!(redone["blob_hash"], made["blob_hash"]);
    let (_, headers, third_bytes) = third.bytes(&url).await;
    assert_eq!(third_bytes, chunk);
    assert_eq!(header(&headers, "etag").unwrap(), etag);
    third.stop().await;
}

/// The blob of a tier, checked as the server checks it on load.
fn verifies(blob: &[u8], key: &str) -> bool {
    mangekyo_planet::tier::CoarseTier::from_bytes(blob)
        .is_ok_and(|tier| format!("{:016x}", tier.key) == key)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_stored_tier_is_recomputed_and_rewritten() {
    let db = TestDb::new(Backend::Sqlite).await;
    let first = TestServer::start(&db).await;
    let planet = first.create_planet("bitrot", small_params_v2(23)).await;
    let made = first.until_ready(&planet).await;
    first.stop().await;
    let key = made["key"].as_str().unwrap().to_owned();
    let blob_key = format!("t1/{key}");

    // One byte of the stored tier goes bad.
    db.damage_blob(&blob_key).await;
    let store = Store::open(db.url()).await.unwrap();
    assert!(!verifies(
        &store.get_blob(&blob_key).await.unwrap().unwrap(),
        &key
    ));

    // The next server finds it bad, computes it again and stores the good
    // bytes over the bad: the one after loads it.
    let second = TestServer::start(&db).await;
    let redone = second.until_ready(&planet).await;
    assert_eq!(redone["origin"], "computed");
    assert_eq!(redone["blob_hash"], made["blob_hash"]);
    second.stop().await;
    let stored = store.get_blob(&blob_key).await.unwrap().unwrap();
    assert!(verifies(&stored, &key), "the stored tier is still corrupt");
    let third = TestServer::start(&db).await;
    assert_eq!(third.until_ready(&planet).await["origin"], "loaded");
    third.stop().await;
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_planet_frees_its_tier_unless_another_planet_uses_it() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let blob_rows = async || db.count_rows("blob_parts").await;
    let delete = async |id: &Value| {
        let r = server
            .client
            .delete(server.url(&format!("/v1/planets/{id}")))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 204);
    };

    let lone = server.create_planet("lone", small_params_v2(31)).await;
    assert!(blob_rows().await > 0, "the tier is stored");
    delete(&lone["id"]).await;
    assert_eq!(blob_rows().await, 0, "the deleted planet's tier stays");

    // Two planets with the same parameters share one tier.
    let a = server.create_planet("twin-a", small_params_v2(32)).await;
    let b = server.create_planet("twin-b", small_params_v2(32)).await;
    let stored = blob_rows().await;
    assert!(stored > 0);
    // B's use is recorded in the background: wait for it.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let users = db.count_rows("planet_blobs").await;
        if users == 2 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "B's use of the tier is not recorded"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    delete(&a["id"]).await;
    assert_eq!(blob_rows().await, stored, "B still uses the tier");
    delete(&b["id"]).await;
    assert_eq!(blob_rows().await, 0);
    server.stop().await;
}
