//! `POST /v1/roblox/chunks` decoded the way a Roblox game server decodes
//! it: `HttpService:JSONDecode` turns `{"m":null,"t":"buffer","zbase64":…}`
//! into a `buffer` (base64 → zstd), and the game reads little-endian
//! values with `buffer.readf32` / `buffer.readu8`. Every decoded sample
//! must equal the planet crate's own chunk, bit for bit.

mod common;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::{TestServer, small_params};
use mangekyo_formats::roblox::{MATERIAL_LEGEND, material_index};
use mangekyo_planet::{ChunkAddress, ChunkRequest, Edge, Layers, Planet, PlanetParams, Projection};
use mangekyo_store::{Backend, testing::TestDb};
use serde_json::{Value, json};

/// What `JSONDecode` makes of a buffer object: its bytes.
fn roblox_buffer(v: &Value) -> Vec<u8> {
    assert_eq!(v["t"], "buffer", "{v}");
    assert!(v["m"].is_null() && v.as_object().unwrap().len() == 3, "{v}");
    let packed = STANDARD.decode(v["zbase64"].as_str().unwrap()).unwrap();
    zstd::stream::decode_all(&packed[..]).unwrap()
}

/// `buffer.readf32(b, 4 * k)` for every k.
fn read_f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn planet_chunk(planet: &Planet, cx: u32, cy: u32, edge: Edge) -> mangekyo_planet::Chunk {
    let request = ChunkRequest {
        address: ChunkAddress {
            projection: Projection::TangentCube,
            lod: 0,
            cx,
            cy,
        },
        edge,
        layers: Layers::ALL,
    };
    planet.sample_chunk(&request).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buffers_decode_to_the_planets_own_chunks() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let created = server.create_planet("Roblox", small_params(11)).await;
    let id = created["id"].as_i64().unwrap();
    let params: PlanetParams = serde_json::from_value(created["params"].clone()).unwrap();
    let planet = Planet::new(params).unwrap();
    let chunks = [[3, 2], [4, 2], [0, 0]];
    let body = json!({"planet": id, "chunks": chunks, "layers": ["height", "material", "biome"],
        "v": created["generator_version"], "p": created["params_hash"]});
    let r = server.post_json("/v1/roblox/chunks", &body).await;
    assert_eq!(r.status().as_u16(), 200);
    let etag = r.headers()["etag"].to_str().unwrap().to_owned();
    let bytes = r.bytes().await.unwrap();
    let answer: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(answer["size"], 256);
    assert_eq!(answer["projection"], "tangent_cube");
    assert_eq!(answer["material_legend"], json!(MATERIAL_LEGEND));
    let got = answer["chunks"].as_array().unwrap();
    assert_eq!(got.len(), 3);
    for (piece, [cx, cy]) in got.iter().zip(chunks) {
        assert_eq!(
            (piece["cx"].as_u64(), piece["cy"].as_u64()),
            (Some(cx), Some(cy))
        );
        let want = planet_chunk(&planet, cx as u32, cy as u32, Edge::Exclusive);
        let heights = read_f32s(&roblox_buffer(&piece["layers"]["height"]));
        assert_eq!(heights.len(), 256 * 256);
        let same = heights
            .iter()
            .zip(&want.height)
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(same, "chunk [{cx}, {cy}]: heights differ from the planet's");
        let materials = roblox_buffer(&piece["layers"]["material"]);
        let biomes = roblox_buffer(&piece["layers"]["biome"]);
        for (k, b) in want.biome.iter().enumerate() {
            assert_eq!(materials[k], material_index(*b), "material at {k}");
            assert_eq!(biomes[k], b.index(), "biome at {k}");
        }
        let lo = want.height.iter().copied().fold(f32::INFINITY, f32::min);
        assert_eq!(piece["min_height"].as_f64().unwrap() as f32, lo);
        assert_eq!(piece["face"], json!(want.face.map(|f| f.name())));
    }
    // The same request answers the same bytes (and ETag): from the cache now.
    let again = server.post_json("/v1/roblox/chunks", &body).await;
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
    assert_eq!(again.bytes().await.unwrap(), bytes);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arrays_and_shared_edges_match_the_buffers() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let created = server.create_planet("Arrays", small_params(12)).await;
    let id = created["id"].as_i64().unwrap();
    let ask = |encoding: &str| json!({"planet": id, "chunks": [[5, 1], [6, 1]], "edge": "shared", "encoding": encoding});
    let buffers: Value = server
        .post_json("/v1/roblox/chunks", &ask("buffer"))
        .await
        .json()
        .await
        .unwrap();
    let arrays: Value = server
        .post_json("/v1/roblox/chunks", &ask("array"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(buffers["layers"], json!(["height", "material"]));
    assert_eq!(arrays["size"], 257);
    let mut rows = Vec::new();
    for (b, a) in buffers["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .zip(arrays["chunks"].as_array().unwrap())
    {
        let heights = read_f32s(&roblox_buffer(&b["layers"]["height"]));
        let listed: Vec<f32> = a["layers"]["height"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap() as f32)
            .collect();
        assert_eq!(heights, listed);
        let materials: Vec<u8> = a["layers"]["material"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u8)
            .collect();
        assert_eq!(roblox_buffer(&b["layers"]["material"]), materials);
        rows.push(heights);
    }
    // Shared edges: the left chunk's last column is the right one's first.
    for j in 0..257 {
        assert_eq!(rows[0][j * 257 + 256].to_bits(), rows[1][j * 257].to_bits());
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_batches_are_refused_by_field() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let created = server.create_planet("Refusals", small_params(13)).await;
    let id = created["id"].as_i64().unwrap();
    let many: Vec<[u32; 2]> = (0..17).map(|k| [k, 0]).collect();
    let cases = [
        (json!({"planet": id, "chunks": many}), 400, "chunks"),
        (json!({"planet": id, "chunks": []}), 400, "chunks"),
        (
            json!({"planet": id, "chunks": [[0, 0], [99999, 0]]}),
            400,
            "chunks[1][0]",
        ),
        (
            json!({"planet": id, "chunks": [[0, -1]]}),
            400,
            "chunks[0][1]",
        ),
        (
            json!({"planet": id, "chunks": [[1, 1], [2, 2], [1, 1]]}),
            400,
            "chunks[2]",
        ),
        (
            json!({"planet": id, "chunks": [[0, 0, 0]]}),
            400,
            "chunks[0]",
        ),
        (
            json!({"planet": id, "chunks": [["a", 0]]}),
            400,
            "chunks[0][0]",
        ),
        (
            json!({"planet": id, "chunks": [[0, 0]], "layers": ["height", "colour"]}),
            400,
            "layers[1]",
        ),
        (
            json!({"planet": id, "chunks": [[0, 0]], "layers": ["height", "height"]}),
            400,
            "layers[1]",
        ),
        (
            json!({"planet": id, "chunks": [[0, 0]], "layers": []}),
            400,
            "layers",
        ),
        (
            json!({"planet": id, "chunks": [[0, 0]], "encoding": "gzip"}),
            400,
            "encoding",
        ),
        (
            json!({"planet": id, "chunks": [[0, 0]], "lod": 40}),
            400,
            "lod",
        ),
        (
            json!({"planet": id, "chunks": [[0, 0]], "projection": "mercator"}),
            400,
            "projection",
        ),
        (
            json!({"planet": id, "chunks": [[0, 0]], "p": "00"}),
            404,
            "p",
        ),
        (
            json!({"planet": id, "chunks": [[0, 0]], "v": 999}),
            404,
            "v",
        ),
        (
            json!({"planet": id, "chunks": [[0, 0]], "zoom": 1}),
            400,
            "zoom",
        ),
        (json!({"planet": 0, "chunks": [[0, 0]]}), 400, "planet"),
    ];
    for (body, status, parameter) in cases {
        let r = server.post_json("/v1/roblox/chunks", &body).await;
        assert_eq!(r.status().as_u16(), status, "{body}");
        let e: Value = r.json().await.unwrap();
        assert_eq!(e["error"]["parameter"], parameter, "{body}: {e}");
    }
    let r = server
        .post_json(
            "/v1/roblox/chunks",
            &json!({"planet": 999, "chunks": [[0, 0]]}),
        )
        .await;
    assert_eq!(r.status().as_u16(), 404);
    let r = server.get("/healthz").await;
    assert_eq!(r.status().as_u16(), 200, "still healthy after the refusals");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_luau_clients_recorded_body_is_accepted() {
    // The exact body the Luau client sends (its test in
    // clients/roblox/tests/client.spec.luau records it through a stand-in
    // HttpService and compares it with this file): the server takes it as
    // it is, with only the planet id and parameter hash of this store.
    let recorded: Value = serde_json::from_str(include_str!(
        "../../../clients/roblox/tests/fixtures/chunks_request.json"
    ))
    .unwrap();
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    // 10 m samples: chunk (50, 50) lies on cube face 0 of this planet.
    let created = server
        .create_planet(
            "Luau",
            json!({ "seed": 11, "radius": 200_000.0, "pixel_size": 10.0, "generator_version": 1 }),
        )
        .await;
    let per_face = created["space"]["chunk_grid"]["tangent_cube"][0]
        .as_u64()
        .unwrap()
        / 3;
    assert!(per_face > 50, "{per_face} chunks per face");
    let mut body = recorded.clone();
    body["planet"] = created["id"].clone();
    body["p"] = created["params_hash"].clone();
    let r = server.post_json("/v1/roblox/chunks", &body).await;
    let status = r.status().as_u16();
    let answer: Value = r.json().await.unwrap();
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["size"], 257, "edge: shared");
    let chunk = &answer["chunks"][0];
    assert_eq!(
        (chunk["cx"].as_u64(), chunk["cy"].as_u64()),
        (Some(50), Some(50))
    );
    for layer in ["height", "material", "water"] {
        assert_eq!(chunk["layers"][layer]["t"], "buffer", "{layer}");
    }
    // What the client decodes: metres_per_sample and the legend.
    assert!(answer["metres_per_sample"].as_f64().unwrap() > 0.0);
    assert_eq!(answer["material_legend"], json!(MATERIAL_LEGEND));
    server.stop().await;
}
