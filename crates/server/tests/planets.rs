//! The real server over SQLite, MariaDB and PostgreSQL: the planet life
//! cycle, seams between neighbouring chunks, ETag round trips, and the
//! same bytes from every database and after restarts of each.

mod common;

use common::{TestServer, backends, chunk_url, small_params};
use mangekyo_formats::planet_bin;
use mangekyo_store::testing::TestDb;
use reqwest::header;

/// One planet's life on one backend; returns (ETag, bytes) of one chunk.
async fn life_cycle(server: &TestServer, label: &str) -> (String, Vec<u8>) {
    let planet = server.create_planet("Seamless", small_params(7)).await;
    let id = planet["id"].as_i64().unwrap();
    assert_eq!(
        planet["params"]["seed"], 7,
        "{label}: defaults filled, given kept"
    );
    assert_eq!(planet["params"]["sea_level"], 0.71, "{label}");
    let got = server.get_json(&format!("/v1/planets/{id}"), 200).await;
    assert_eq!(got["params_hash"], planet["params_hash"], "{label}");

    // Two neighbouring chunks with shared edges: the left one's last
    // column is the right one's first, bit for bit.
    let left_url = chunk_url(
        &planet,
        "tangent_cube",
        0,
        4,
        3,
        "format=bin&edge=shared&layers=height",
    );
    let right_url = chunk_url(
        &planet,
        "tangent_cube",
        0,
        5,
        3,
        "format=bin&edge=shared&layers=height",
    );
    let left = server.get(&left_url).await;
    assert_eq!(left.status(), 200, "{label}: {left_url}");
    assert_eq!(
        left.headers()[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable",
        "{label}"
    );
    let etag = left.headers()[header::ETAG].to_str().unwrap().to_owned();
    let left_bytes = left.bytes().await.unwrap().to_vec();
    let right_bytes = server.get(&right_url).await.bytes().await.unwrap().to_vec();
    let (l, r) = (
        planet_bin::decode(&left_bytes).unwrap(),
        planet_bin::decode(&right_bytes).unwrap(),
    );
    assert_eq!((l.size, r.address), (257, [0, 5, 3]), "{label}");
    for j in 0..257 {
        assert_eq!(
            l.height[j * 257 + 256].to_bits(),
            r.height[j * 257].to_bits(),
            "{label}: row {j}"
        );
    }

    // The ETag round trip: the same validator gets 304 and no body.
    let again = server
        .client
        .get(server.url(&left_url))
        .header(header::IF_NONE_MATCH, &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304, "{label}");
    assert_eq!(
        again.headers()[header::ETAG].to_str().unwrap(),
        etag,
        "{label}"
    );
    assert!(again.bytes().await.unwrap().is_empty());
    let metrics = server.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains(r#"mangekyo_cache_lookups_total{kind="planet_chunk",result="hit"}"#),
        "{label}: {metrics}"
    );

    // Delete: the planet and its chunks are gone from this server.
    let deleted = server
        .client
        .delete(server.url(&format!("/v1/planets/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 204, "{label}");
    server.get_json(&format!("/v1/planets/{id}"), 404).await;
    assert_eq!(
        server.get(&left_url).await.status(),
        404,
        "{label}: chunks of a deleted planet"
    );
    (etag, left_bytes)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_backend_serves_the_same_planet_bytes() {
    let mut seen: Vec<(String, Vec<u8>)> = Vec::new();
    for backend in backends() {
        let db = TestDb::new(backend).await;
        let server = TestServer::start(&db).await;
        let result = life_cycle(&server, backend.name()).await;
        server.stop().await;
        seen.push(result);
    }
    for (i, (etag, bytes)) in seen.iter().enumerate().skip(1) {
        assert_eq!(etag, &seen[0].0, "backend {i} ETag differs from SQLite's");
        assert!(
            bytes == &seen[0].1,
            "backend {i} bytes differ from SQLite's"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chunks_survive_restarts_byte_for_byte() {
    let formats = ["json", "bin", "png", "r16", "preview"];
    let url = |planet: &serde_json::Value, format: &str| {
        chunk_url(planet, "octahedral", 0, 1, 2, &format!("format={format}"))
    };
    let mut first: Option<Vec<(header::HeaderValue, Vec<u8>)>> = None;
    for backend in backends() {
        let label = backend.name();
        let db = TestDb::new(backend).await;
        let server = TestServer::start(&db).await;
        let planet = server.create_planet("Restart", small_params(11)).await;
        let mut before = Vec::new();
        for format in formats {
            let r = server.get(&url(&planet, format)).await;
            assert_eq!(r.status(), 200, "{label}: {format}");
            before.push((
                r.headers()[header::ETAG].clone(),
                r.bytes().await.unwrap().to_vec(),
            ));
        }
        server.stop().await;
        // A new process over the same store: the planet is listed, and its
        // chunks come back byte for byte from a cold cache.
        let server = TestServer::start(&db).await;
        let listed = server.get_json("/v1/planets", 200).await;
        assert_eq!(
            listed["planets"][0]["params_hash"], planet["params_hash"],
            "{label}"
        );
        for (format, (etag, bytes)) in formats.iter().zip(&before) {
            let r = server.get(&url(&planet, format)).await;
            assert_eq!(&r.headers()[header::ETAG], etag, "{label}: {format}");
            assert!(r.bytes().await.unwrap() == bytes[..], "{label}: {format}");
        }
        server.stop().await;
        // And every database gives the bytes the first one gave.
        match &first {
            None => first = Some(before),
            Some(first) => assert!(first == &before, "{label}: bytes differ from SQLite's"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_chunks_have_the_documented_shape_and_heightmaps_decode() {
    let db = TestDb::new(mangekyo_store::Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("Shapes", small_params(3)).await;
    let json = server
        .get_json(
            &chunk_url(&planet, "equirectangular", 0, 0, 0, "layers=height,biome"),
            200,
        )
        .await;
    for key in [
        "projection",
        "face",
        "lod",
        "cx",
        "cy",
        "width",
        "height",
        "metres_per_sample",
        "layers",
    ] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    assert_eq!(
        json["layers"]["height"].as_array().unwrap().len(),
        256 * 256
    );
    assert!(
        json["layers"].get("temperature").is_none(),
        "only the layers asked for"
    );

    let png = server
        .get(&chunk_url(
            &planet,
            "equirectangular",
            0,
            0,
            0,
            "format=png",
        ))
        .await;
    let (min, max): (f32, f32) = (
        png.headers()["mangekyo-height-min"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap(),
        png.headers()["mangekyo-height-max"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap(),
    );
    let decoded = mangekyo_export::png::decode(&png.bytes().await.unwrap()).unwrap();
    let samples = decoded.samples16().unwrap();
    let heights = json["layers"]["height"].as_array().unwrap();
    for k in [0, 1000, 65535] {
        let h = min + f32::from(samples[k]) / 65535.0 * (max - min);
        let want = heights[k].as_f64().unwrap() as f32;
        assert!(
            (h - want).abs() <= (max - min) / 65535.0 + 1e-3,
            "sample {k}: {h} vs {want}"
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tiles_and_tilejson_point_at_each_other() {
    let db = TestDb::new(mangekyo_store::Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("Map", small_params(5)).await;
    let doc = server
        .get_json(planet["links"]["tilejson"].as_str().unwrap(), 200)
        .await;
    assert_eq!(doc["tilejson"], "3.0.0");
    assert_eq!(doc["encoding"], "terrarium");
    let template = doc["tiles"][0].as_str().unwrap();
    assert!(template.starts_with(&server.base), "{template}");
    let tile_url = template
        .replace("{z}", "1")
        .replace("{x}", "1")
        .replace("{y}", "0");
    let r = server.client.get(&tile_url).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(
        r.headers()[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    let png = mangekyo_export::png::decode(&r.bytes().await.unwrap()).unwrap();
    assert_eq!((png.width, png.height), (256, 256));
    let preview = server
        .get(planet["links"]["preview"].as_str().unwrap())
        .await;
    assert_eq!(preview.headers()[header::CONTENT_TYPE], "image/png");
    server.stop().await;
}
