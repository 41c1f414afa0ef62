//! Version-3 planets (erosion, rivers, lakes) over HTTP: their `water`
//! and `flow` layers in every chunk format,
//! served bytes equal to the library's (which read the coarse tier the
//! server computed); the rivers as GeoJSON, with a bounding box and its
//! refusals; water in the Roblox payload.

mod common;

use common::{TestServer, built, chunk_url, small_params_v2, small_params_v3};
use mangekyo_formats::{ChunkFormat, chunk};
use mangekyo_planet::{ChunkAddress, ChunkRequest, Edge, Projection};
use mangekyo_store::Backend;
use mangekyo_store::testing::TestDb;
use serde_json::{Value, json};

#[tokio::test]
async fn version_3_planets_have_water_and_flow_and_rivers() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("rivers", small_params_v3(5)).await;
    assert_eq!(planet["generator_version"], 3);
    assert_eq!(planet["params"]["generator_version"], 3);
    server.until_ready(&planet).await;

    // The chunk holding the middle of the widest river, found with the
    // library (which computes the same tier).
    let local = built(&planet);
    let tier = local.coarse_tier().unwrap();
    let hydro = tier.hydro.as_ref().unwrap();
    let graph = mangekyo_planet::graph::SphereGraph::new(tier.n, local.params().seed).unwrap();
    let field = hydro.field(
        &graph,
        local.params().radius,
        local.version().pipeline().channels,
    );
    let widest = (0..hydro.segments.len())
        .max_by(|&a, &b| hydro.segments[a].width.total_cmp(&hydro.segments[b].width))
        .unwrap();
    let mid = mangekyo_planet::LatLon::from_dir(field.centre(widest as u32, 0.5));
    let lod = 0;
    let found = local
        .space()
        .locate(Projection::TangentCube, lod, mid)
        .unwrap()
        .address;
    let (cx, cy) = (found.cx, found.cy);
    let sampled = local
        .sample_chunk(&ChunkRequest {
            address: ChunkAddress {
                projection: Projection::TangentCube,
                lod,
                cx,
                cy,
            },
            edge: Edge::Exclusive,
            layers: mangekyo_planet::Version::V3.layers(),
        })
        .unwrap();
    assert!(
        sampled.flow.iter().any(|&f| f > 0.0),
        "the chunk holds the river"
    );
    let at = |extra: &str| chunk_url(&planet, "tangent_cube", lod, cx, cy, extra);
    let (status, _, body) = server.bytes(&at("")).await;
    assert_eq!(status, 200);
    let want = chunk::encode(&sampled, ChunkFormat::Json, local.params()).unwrap();
    assert_eq!(body, want.bytes, "served JSON = library JSON");
    let json: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(json["layers"]["water"].as_array().unwrap().len(), 256 * 256);
    // bin: every layer, mask 0xff.
    let (_, _, bin) = server.bytes(&at("format=bin")).await;
    assert_eq!(bin[15], 0xff);
    let want = chunk::encode(&sampled, ChunkFormat::Bin, local.params()).unwrap();
    assert_eq!(bin, want.bytes, "served bin = library bin");
    // f32 of the flow layer: the discharges, bit for bit, named.
    let (status, headers, f32s) = server.bytes(&at("format=f32&layers=flow")).await;
    assert_eq!(status, 200);
    assert_eq!(headers.get("mangekyo-layer").unwrap(), "flow");
    let flow: Vec<u32> = f32s
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(
        flow,
        sampled.flow.iter().map(|f| f.to_bits()).collect::<Vec<_>>()
    );
    // Water shows in the chunk preview.
    let (status, _, _) = server.bytes(&at("format=preview")).await;
    assert_eq!(status, 200);
    let e = server.get_json(&at("layers=water,rain"), 400).await;
    assert_eq!(e["error"]["parameter"], "layers");

    // Rivers as GeoJSON: links, a bounding box, and its refusals.
    let rivers = planet["links"]["rivers"].as_str().unwrap();
    let (status, headers, body) = server.bytes(rivers).await;
    assert_eq!(status, 200);
    assert_eq!(headers.get("content-type").unwrap(), "application/geo+json");
    let want = mangekyo_planet::hydro::geojson::rivers_geojson(&local, None).unwrap();
    assert_eq!(
        body,
        serde_json::to_vec(&want).unwrap(),
        "served GeoJSON = library GeoJSON"
    );
    let doc: Value = serde_json::from_slice(&body).unwrap();
    let lines: Vec<&Value> = doc["features"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["geometry"]["type"] == "LineString")
        .collect();
    assert!(!lines.is_empty());
    let [lon, lat] = [0, 1].map(|i| lines[0]["geometry"]["coordinates"][0][i].as_f64().unwrap());
    let bbox = format!(
        "{},{},{},{}",
        (lon - 0.5).max(-180.0),
        (lat - 0.5).max(-90.0),
        (lon + 0.5).min(180.0),
        (lat + 0.5).min(90.0)
    );
    let boxed = server.get_json(&format!("{rivers}&bbox={bbox}"), 200).await;
    let boxed_lines = boxed["features"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["geometry"]["type"] == "LineString")
        .count();
    assert!(
        boxed_lines >= 1 && boxed_lines < lines.len(),
        "{boxed_lines} of {}",
        lines.len()
    );
    for bad in [
        "10,0,5,1",
        "0,0,0,1",
        "0,0,200,1",
        "0,-95,1,1",
        "1,2,3",
        "a,b,c,d",
    ] {
        let e = server.get_json(&format!("{rivers}&bbox={bad}"), 400).await;
        assert_eq!(e["error"]["parameter"], "bbox", "{bad}");
    }

    // Roblox: water over the ground, as the library samples it.
    let r = server
        .post_json(
            "/v1/roblox/chunks",
            &json!({"planet": planet["id"], "chunks": [[cx, cy]], "lod": lod, "edge": "exclusive",
                    "projection": "tangent_cube", "layers": ["height", "water"], "encoding": "array"}),
        )
        .await;
    assert_eq!(r.status().as_u16(), 200);
    let answer: Value = r.json().await.unwrap();
    let water: Vec<f32> = answer["chunks"][0]["layers"]["water"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    assert_eq!(water, sampled.water);
    assert!(answer["chunks"][0]["max_water_level"].as_f64().is_some());
    server.stop().await;
}

#[tokio::test]
async fn older_planets_have_no_rivers_and_say_so() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let planet = server.create_planet("plates", small_params_v2(9)).await;
    assert!(planet["links"].get("rivers").is_none());
    let e = server
        .get_json(&format!("/v1/planets/{}/rivers.geojson", planet["id"]), 400)
        .await;
    assert_eq!(e["error"]["parameter"], "generator_version");
    let url = chunk_url(&planet, "tangent_cube", 0, 0, 0, "layers=water");
    let e = server.get_json(&url, 400).await;
    assert_eq!(e["error"]["parameter"], "layers");
    // Roblox water on an older planet is the sea alone.
    let r = server
        .post_json(
            "/v1/roblox/chunks",
            &json!({"planet": planet["id"], "chunks": [[0, 0]], "layers": ["height", "water"], "encoding": "array"}),
        )
        .await;
    assert_eq!(r.status().as_u16(), 200);
    let answer: Value = r.json().await.unwrap();
    let c = &answer["chunks"][0]["layers"];
    for (h, w) in c["height"]
        .as_array()
        .unwrap()
        .iter()
        .zip(c["water"].as_array().unwrap())
    {
        assert_eq!(w.as_f64().unwrap(), (-h.as_f64().unwrap()).max(0.0));
    }
    server.stop().await;
}
