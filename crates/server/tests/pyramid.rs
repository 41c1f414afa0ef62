//! The globe's level pyramid and the CesiumJS terrain over HTTP:
//! `pyramid.json` describes the tiles a client can ask for; MKPT tiles are
//! the library's samples, byte for byte, and neighbours across a cube
//! edge share their edge samples; `layer.json` and quantized-mesh tiles
//! answer as Cesium asks, pinned and immutable.

mod common;

use common::{TestServer, built, small_params_v4};
use mangekyo_formats::{pyramid_bin, terrain};
use mangekyo_planet::{FaceTile, GeoTile, Layers};
use mangekyo_store::Backend;
use mangekyo_store::testing::TestDb;

const N: usize = 257;

fn heights(tile: &[u8]) -> Vec<f32> {
    tile[pyramid_bin::HEADER_BYTES..pyramid_bin::HEADER_BYTES + 4 * N * N]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyramid_tiles_are_the_library_s_and_share_edges_across_faces() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("globe", small_params_v4(3)).await;
    let id = planet["id"].as_i64().unwrap();
    let library = built(&planet);
    let doc = server
        .get_json(&format!("/v1/planets/{id}/pyramid.json"), 200)
        .await;
    assert_eq!(doc["tile_size"], 257);
    assert_eq!(doc["faces"].as_array().unwrap().len(), 6);
    assert_eq!(
        doc["max_level"].as_u64().unwrap(),
        u64::from(library.space().pyramid_max_level())
    );
    assert_eq!(
        doc["layers"],
        serde_json::json!(["height", "biome", "water"])
    );
    let template = doc["tiles"].as_str().unwrap().to_owned();
    let url = |face: u32, level: u32, x: u32, y: u32| {
        template
            .replace("{face}", &face.to_string())
            .replace("{level}", &level.to_string())
            .replace("{x}", &x.to_string())
            .replace("{y}", &y.to_string())
            + "&layers=height,biome,water"
    };
    let get = |path: String| {
        let server = &server;
        async move {
            let (status, headers, body) = server.bytes(&path).await;
            // The tier may still be computing: a 503 says when to retry.
            if status == 503 {
                tokio::time::sleep(std::time::Duration::from_millis(300)).await;
                return None;
            }
            assert_eq!(status, 200, "{path}");
            assert!(
                headers["cache-control"]
                    .to_str()
                    .unwrap()
                    .contains("immutable"),
                "{path}: pinned tiles are immutable"
            );
            Some(body)
        }
    };
    let fetch = |path: String| async move {
        for _ in 0..200 {
            if let Some(b) = get(path.clone()).await {
                return b;
            }
        }
        panic!("{path}: the tier never became ready");
    };
    // +x (face 0) tile (1, 0) at level 1 ends where +y (face 1) tile
    // (0, 0) begins.
    let a = fetch(url(0, 1, 1, 0)).await;
    let b = fetch(url(1, 1, 0, 0)).await;
    let layers = Layers {
        height: true,
        biome: true,
        water: true,
        ..Layers::NONE
    };
    let tile = FaceTile::new(library.space(), 0, 1, 1, 0).unwrap();
    library.coarse_tier().unwrap();
    let samples = library.sample_face_tile(&tile, layers).unwrap();
    let expected = pyramid_bin::encode(
        &tile,
        layers,
        &samples,
        mangekyo_planet::Version::V4,
        library.space().pyramid_spacing(1),
    )
    .unwrap();
    assert!(a == expected, "the served tile is the library's bytes");
    let (ha, hb) = (heights(&a), heights(&b));
    for j in 0..N {
        assert_eq!(
            ha[j * N + N - 1].to_bits(),
            hb[j * N].to_bits(),
            "row {j} of the shared edge"
        );
    }

    let layer = server
        .get_json(&format!("/v1/planets/{id}/terrain/layer.json"), 200)
        .await;
    assert_eq!(layer["format"], "quantized-mesh-1.0");
    assert_eq!(layer["scheme"], "tms");
    let tiles = layer["tiles"][0].as_str().unwrap();
    assert!(tiles.starts_with("{z}/{x}/{y}.terrain?v=4&p="), "{tiles}");
    let path = format!(
        "/v1/planets/{id}/terrain/{}",
        tiles
            .replace("{z}", "1")
            .replace("{x}", "2")
            .replace("{y}", "1")
    );
    let r = reqwest::Client::new()
        .get(server.url(&path))
        .header(
            "accept",
            "application/vnd.quantized-mesh;extensions=octvertexnormals",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], terrain::CONTENT_TYPE);
    assert_eq!(r.headers()["vary"], "Accept");
    let body = r.bytes().await.unwrap();
    let expected = terrain::encode(&library, &GeoTile { z: 1, x: 2, y: 1 }, true).unwrap();
    assert!(
        body[..] == expected[..],
        "the served terrain is the library's bytes"
    );
    server.stop().await;
}
