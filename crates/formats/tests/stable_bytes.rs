//! The bytes served for planet generator versions 1–4 never change: the
//! content hash (the ETag) of a chunk of each version in every format and
//! layer choice, of its heightmap sidecars and of its Roblox pieces. The
//! lines of versions 1–3 were written by the encoders before version 4
//! existed (commit 297544f); version 4's when it landed. A new version adds
//! shapes (the `MKPC` format 2, longer legends) but never moves these.
//! The table is `stable_bytes.txt` beside this file; `UPDATE_EXPECT=1`
//! rewrites it (and still fails), for a deliberate change, which a served
//! URL can never have.

use mangekyo_formats::roblox::{self, Encoding, RobloxLayer};
use mangekyo_formats::{ChunkFormat, chunk, content_hash};
use mangekyo_planet::{
    Chunk, ChunkAddress, ChunkRequest, Edge, Layers, Planet, PlanetParams, Projection, Version,
};

/// `version chunk edge what hash` per line, written by the encoders and
/// the planet crate as each version landed.
const EXPECTED: &str = include_str!("stable_bytes.txt");

/// A small planet of `version` (its tier computes in well under a second).
fn planet(version: Version) -> Planet {
    Planet::new(PlanetParams {
        seed: 7,
        radius: 200_000.0,
        pixel_size: 50.0,
        generator_version: version,
        graph_n: 16,
        ..PlanetParams::default()
    })
    .unwrap()
}

/// Every hash of one version's chunks, a line each.
fn table(version: Version) -> Vec<String> {
    let planet = planet(version);
    let params = *planet.params();
    let mut lines = Vec::new();
    let mut layer_texts = vec![None, Some("all"), Some("height"), Some("height,biome")];
    let all = version.layers();
    if all.plate {
        layer_texts.extend([Some("uplift"), Some("plate")]);
    }
    if all.water {
        layer_texts.extend([Some("water"), Some("flow"), Some("height,flow")]);
    }
    if all.precipitation {
        layer_texts.extend([
            Some("precipitation"),
            Some("biome_weights"),
            Some("height,precipitation,biome"),
        ]);
    }
    for (cx, cy, edge) in [(2, 1, Edge::Shared), (0, 0, Edge::Exclusive)] {
        let mut cache = Vec::new();
        let address = ChunkAddress {
            projection: Projection::TangentCube,
            lod: 0,
            cx,
            cy,
        };
        for format in ChunkFormat::ALL {
            for text in &layer_texts {
                let Ok(layers) = format.layers(*text, version) else {
                    continue;
                };
                let sampled = sample(&planet, &mut cache, address, edge, layers);
                let encoded = chunk::encode(sampled, format, &params).unwrap();
                let name = format!(
                    "v{version} {cx},{cy} {} {format} {}",
                    edge.name(),
                    text.unwrap_or("-")
                );
                lines.push(format!("{name} {}", content_hash(&encoded.bytes)));
                if let Some(sidecar) = encoded.sidecar(sampled).unwrap() {
                    lines.push(format!("{name} sidecar {}", content_hash(&sidecar)));
                }
            }
        }
        let asked = [
            RobloxLayer::Height,
            RobloxLayer::Material,
            RobloxLayer::Biome,
            RobloxLayer::Water,
        ];
        let layers = roblox::sample_layers(&asked, version);
        let sampled = sample(&planet, &mut cache, address, edge, layers);
        for encoding in [Encoding::Buffer, Encoding::Array] {
            let piece = roblox::encode_piece(sampled, &asked, encoding).unwrap();
            lines.push(format!(
                "v{version} {cx},{cy} {} roblox {} {}",
                edge.name(),
                encoding.name(),
                content_hash(&piece)
            ));
        }
    }
    lines
}

/// The chunk of `layers` in `cache` (sampled once per layer set).
fn sample<'a>(
    planet: &Planet,
    cache: &'a mut Vec<(Layers, Chunk)>,
    address: ChunkAddress,
    edge: Edge,
    layers: Layers,
) -> &'a Chunk {
    if !cache.iter().any(|(l, _)| *l == layers) {
        let request = ChunkRequest {
            address,
            edge,
            layers,
        };
        cache.push((layers, planet.sample_chunk(&request).unwrap()));
    }
    sample_of(cache, layers)
}

fn sample_of(cache: &[(Layers, Chunk)], layers: Layers) -> &Chunk {
    &cache.iter().find(|(l, _)| *l == layers).unwrap().1
}

#[test]
fn versions_1_to_4_encode_to_the_same_bytes() {
    let got: Vec<String> = [Version::V1, Version::V2, Version::V3, Version::V4]
        .into_iter()
        .flat_map(table)
        .collect();
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/stable_bytes.txt");
        std::fs::write(path, got.join("\n") + "\n").unwrap();
        panic!("UPDATE_EXPECT: rewrote {path}; run again without it");
    }
    let want: Vec<&str> = EXPECTED.lines().collect();
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g, w, "served bytes of versions 1-4 must never change");
    }
    assert_eq!(got.len(), want.len(), "one line per output");
}
