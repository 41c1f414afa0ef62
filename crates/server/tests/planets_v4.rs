//! Version-4 planets (climate: precipitation with rain shadows, blended
//! biomes) over HTTP: the default of new planets; their `precipitation`
//! and `biome_weights` layers in JSON, in the `MKPC` format 2 and as a
//! heightmap, served bytes equal to the library's; the 17-name biome
//! legend and the Roblox material legend that follows it; the
//! precipitation preview; and older planets refusing the new layers by
//! name while their `bin` stays format 1.

mod common;

use common::{TestServer, built, chunk_url, small_params, small_params_v3, small_params_v4};
use mangekyo_formats::roblox::{
    MATERIAL_LEGEND, MATERIAL_LEGEND_V4, material_index, material_index_at,
};
use mangekyo_formats::{ChunkFormat, chunk, planet_bin};
use mangekyo_planet::Version;
use mangekyo_planet::version::BiomeSet;
use mangekyo_planet::{Biome, ChunkAddress, ChunkRequest, Edge, Layers, Projection};
use mangekyo_store::Backend;
use mangekyo_store::testing::TestDb;
use serde_json::{Value, json};

const N2: usize = 256 * 256;

#[tokio::test]
async fn new_planets_are_version_4_with_precipitation_and_biome_weights() {
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
    assert_eq!(planet_gen["version"], 4);
    assert_eq!(planet_gen["versions"], json!([1, 2, 3, 4]));

    let planet = server.create_planet("climate", small_params_v4(5)).await;
    assert_eq!(planet["generator_version"], 4);
    assert_eq!(planet["params"]["generator_version"], 4);
    let pin = format!("v=4&p={}", planet["params_hash"].as_str().unwrap());
    assert!(planet["links"]["chunk"].as_str().unwrap().ends_with(&pin));
    server.until_ready(&planet).await;

    let local = built(&planet);
    let (cx, cy) = (3, 2);
    let sample = |layers: Layers, edge: Edge| {
        local
            .sample_chunk(&ChunkRequest {
                address: ChunkAddress {
                    projection: Projection::TangentCube,
                    lod: 0,
                    cx,
                    cy,
                },
                edge,
                layers,
            })
            .unwrap()
    };
    let sampled = sample(mangekyo_planet::Version::V4.layers(), Edge::Exclusive);
    let at = |extra: &str| chunk_url(&planet, "tangent_cube", 0, cx, cy, extra);

    // JSON: every layer of version 4 by default, the library's bytes.
    let (status, _, body) = server.bytes(&at("")).await;
    assert_eq!(status, 200);
    let want = chunk::encode(&sampled, ChunkFormat::Json, local.params()).unwrap();
    assert_eq!(body, want.bytes, "served JSON = library JSON");
    let json: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(json["generator_version"], 4);
    let layers = &json["layers"];
    assert_eq!(layers["precipitation"].as_array().unwrap().len(), N2);
    let weights = layers["biome_weights"].as_array().unwrap();
    assert_eq!(weights.len(), 4 * N2, "four bytes a sample");
    assert!(weights.iter().all(|w| w.as_u64().unwrap() <= 255));
    assert_eq!(json["biome_legend"], json!(Biome::LEGEND));
    assert_eq!(json["biome_legend"].as_array().unwrap().len(), 17);
    let legend = json["biome_legend"].as_array().unwrap().len() as u64;
    for (k, w) in weights.iter().enumerate() {
        if k % 2 == 0 {
            assert!(w.as_u64().unwrap() < legend, "a biome index at {k}");
        }
    }
    assert!(
        layers["biome"]
            .as_array()
            .unwrap()
            .iter()
            .all(|b| b.as_u64().unwrap() < legend)
    );
    // Only the asked layers.
    let only = server
        .get_json(&at("layers=height,precipitation"), 200)
        .await;
    let keys: Vec<&String> = only["layers"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["height", "precipitation"]);

    // bin: format 2 (52-byte header, mask 0x3ff), the library's bytes,
    // decoding to the library's samples.
    let (status, _, bin) = server.bytes(&at("format=bin")).await;
    assert_eq!(status, 200);
    let want = chunk::encode(&sampled, ChunkFormat::Bin, local.params()).unwrap();
    assert_eq!(bin, want.bytes, "served bin = library bin");
    assert_eq!(&bin[0..4], b"MKPC");
    assert_eq!(u16::from_le_bytes([bin[4], bin[5]]), 2, "format 2");
    assert_eq!(u16::from_le_bytes([bin[6], bin[7]]), 52, "header length");
    assert_eq!(bin[15], 0xff);
    assert_eq!(u16::from_le_bytes([bin[48], bin[49]]), 0b11);
    let d = planet_bin::decode(&bin).unwrap();
    assert_eq!(
        (d.format_version, d.mask, d.generator_version),
        (2, 0x3ff, 4)
    );
    assert_eq!(
        d.params_hash,
        u64::from_str_radix(planet["params_hash"].as_str().unwrap(), 16).unwrap()
    );
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&d.precipitation), bits(&sampled.precipitation));
    assert_eq!(bits(&d.height), bits(&sampled.height));
    assert_eq!(bits(&d.flow), bits(&sampled.flow));
    assert_eq!(d.plate, sampled.plate);
    let weight_bytes: Vec<[u8; 4]> = sampled.biome_weights.iter().map(|w| w.to_bytes()).collect();
    assert_eq!(d.biome_weights, weight_bytes);
    // Re-encoding the decoded samples gives the served bytes back.
    let flat: Vec<u8> = d.biome_weights.iter().flatten().copied().collect();
    assert_eq!(
        flat,
        layers["biome_weights"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u8)
            .collect::<Vec<_>>(),
        "bin and JSON carry the same weights"
    );
    // One version-4 layer alone is format 2 as well; none is format 1.
    let (_, _, alone) = server.bytes(&at("format=bin&layers=biome_weights")).await;
    let d = planet_bin::decode(&alone).unwrap();
    assert_eq!((d.format_version, d.mask), (2, 512));
    assert_eq!(alone.len(), 52 + 4 * N2);
    let (_, _, older) = server.bytes(&at("format=bin&layers=height,biome")).await;
    assert_eq!(&older[4..8], &[1, 0, 48, 0], "format 1 without v4 layers");
    assert_eq!(planet_bin::decode(&older).unwrap().mask, 9);

    // precipitation as a heightmap: f32 bit for bit, named.
    let (status, headers, f32s) = server.bytes(&at("format=f32&layers=precipitation")).await;
    assert_eq!(status, 200);
    assert_eq!(headers.get("mangekyo-layer").unwrap(), "precipitation");
    let got: Vec<u32> = f32s
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(got, bits(&sampled.precipitation));
    let (status, headers, _) = server.bytes(&at("format=png16&layers=precipitation")).await;
    assert_eq!(status, 200);
    assert_eq!(headers.get("mangekyo-layer").unwrap(), "precipitation");
    // biome_weights is not a heightmap; the refusal names the layers.
    let e = server
        .get_json(&at("format=r16&layers=biome_weights"), 400)
        .await;
    assert_eq!(e["error"]["parameter"], "layers");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("precipitation"),
        "{e}"
    );
    // Chunk previews draw the 17 biomes.
    let (status, headers, _) = server.bytes(&at("format=preview")).await;
    assert_eq!(status, 200);
    assert_eq!(headers.get("content-type").unwrap(), "image/png");

    // The whole-planet preview of precipitation (and temperature).
    let id = planet["id"].as_i64().unwrap();
    for layer in ["precipitation", "temperature", "biome"] {
        let (status, headers, png) = server
            .bytes(&format!(
                "/v1/planets/{id}/preview?width=64&layer={layer}&{pin}"
            ))
            .await;
        assert_eq!(status, 200, "{layer}");
        assert_eq!(headers.get("content-type").unwrap(), "image/png");
        assert_eq!(&png[1..4], b"PNG");
    }

    // Roblox: 17 biome names, the material legend with Ice, materials
    // from biomes and temperatures as the library maps them.
    let r = server
        .post_json(
            "/v1/roblox/chunks",
            &json!({"planet": id, "chunks": [[cx, cy]], "lod": 0, "edge": "exclusive",
                    "projection": "tangent_cube", "layers": ["height", "material", "biome", "water"],
                    "encoding": "array", "v": 4, "p": planet["params_hash"]}),
        )
        .await;
    assert_eq!(r.status().as_u16(), 200);
    let answer: Value = r.json().await.unwrap();
    assert_eq!(answer["generator_version"], 4);
    assert_eq!(answer["biome_legend"], json!(Biome::LEGEND));
    assert_eq!(answer["material_legend"], json!(MATERIAL_LEGEND_V4));
    let piece = &answer["chunks"][0]["layers"];
    let numbers = |v: &Value| -> Vec<u64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    };
    let materials = numbers(&piece["material"]);
    let biomes = numbers(&piece["biome"]);
    assert_eq!(materials.len(), N2);
    for k in 0..N2 {
        let b = sampled.biome[k];
        assert_eq!(biomes[k], u64::from(b.index()), "biome at {k}");
        let want = material_index_at(b, Some(sampled.temperature[k]), BiomeSet::Blended17);
        assert_eq!(materials[k], u64::from(want), "material at {k}");
    }
    assert!(
        materials
            .iter()
            .all(|&m| (m as usize) < MATERIAL_LEGEND_V4.len())
    );
    server.stop().await;
}

#[tokio::test]
async fn older_planets_refuse_the_climate_layers_and_keep_format_1() {
    let db = TestDb::new(Backend::Sqlite).await;
    let server = TestServer::start(&db).await;
    let v1 = server.create_planet("noise", small_params(4)).await;
    let v3 = server.create_planet("rivers", small_params_v3(6)).await;
    assert_eq!(v1["generator_version"], 1);
    assert_eq!(v3["generator_version"], 3);
    for (planet, version, mask) in [(&v1, Version::V1, 0x0f_u16), (&v3, Version::V3, 0xff)] {
        // bin stays format 1 with its 48-byte header and its old mask.
        let url = chunk_url(planet, "tangent_cube", 0, 1, 1, "format=bin");
        let (status, _, bin) = server.bytes(&url).await;
        assert_eq!(status, 200);
        assert_eq!(&bin[0..8], &[b'M', b'K', b'P', b'C', 1, 0, 48, 0]);
        let d = planet_bin::decode(&bin).unwrap();
        assert_eq!((d.format_version, d.mask), (1, mask), "v{version}");
        assert!(d.precipitation.is_empty() && d.biome_weights.is_empty());
        // The JSON legend keeps its twelve names.
        let url = chunk_url(planet, "tangent_cube", 0, 1, 1, "layers=biome");
        let json = server.get_json(&url, 200).await;
        assert_eq!(json["biome_legend"], json!(Biome::LEGEND[..12]));
        // The climate layers are refused by name, in every format.
        for extra in [
            "layers=precipitation",
            "layers=height,biome_weights",
            "format=bin&layers=precipitation",
            "format=f32&layers=precipitation",
        ] {
            let url = chunk_url(planet, "tangent_cube", 0, 1, 1, extra);
            let (status, headers, body) = server.bytes(&url).await;
            assert_eq!(status, 400, "v{version} {extra}");
            assert!(
                headers
                    .get("content-type")
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .starts_with("application/json")
            );
            let e: Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(e["error"]["parameter"], "layers", "v{version} {extra}");
            let message = e["error"]["message"].as_str().unwrap();
            assert!(
                message.contains("precipitation") || message.contains("biome_weights"),
                "{message}"
            );
        }
        // So is the precipitation preview.
        let id = planet["id"].as_i64().unwrap();
        let (status, _, body) = server
            .bytes(&format!(
                "/v1/planets/{id}/preview?width=64&layer=precipitation"
            ))
            .await;
        assert!((400..500).contains(&status), "v{version}: {status}");
        let e: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(e["error"]["parameter"], "layer", "v{version}");
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("precipitation"),
            "{e}"
        );
        // Roblox answers keep their legends.
        let r = server
            .post_json(
                "/v1/roblox/chunks",
                &json!({"planet": id, "chunks": [[1, 1]], "layers": ["height", "material", "biome"],
                        "encoding": "array"}),
            )
            .await;
        assert_eq!(r.status().as_u16(), 200);
        let answer: Value = r.json().await.unwrap();
        assert_eq!(answer["material_legend"], json!(MATERIAL_LEGEND));
        assert_eq!(answer["biome_legend"], json!(Biome::LEGEND[..12]));
        let local = built(planet);
        let sampled = local
            .sample_chunk(&ChunkRequest {
                address: ChunkAddress {
                    projection: Projection::TangentCube,
                    lod: 0,
                    cx: 1,
                    cy: 1,
                },
                edge: Edge::Exclusive,
                layers: version.layers(),
            })
            .unwrap();
        let materials = answer["chunks"][0]["layers"]["material"]
            .as_array()
            .unwrap();
        for (k, b) in sampled.biome.iter().enumerate() {
            assert_eq!(materials[k], u64::from(material_index(*b)), "at {k}");
        }
    }
    server.stop().await;
}
