//! The other bytes served under pinned (`immutable`) URLs never change:
//! the globe's pyramid tiles (`MKPT`) and `pyramid.json`, CesiumJS terrain
//! tiles (quantized-mesh, with and without normals) and `layer.json`, and
//! the plates and rivers GeoJSON, for every released planet version.
//! `stable_bytes.rs` holds the chunks; this file holds everything else a
//! pinned URL serves. The table is `stable_served.txt` beside this file,
//! written by the code as it stood before the planet versions became one
//! type (so the refactor is shown to move nothing); `UPDATE_EXPECT=1`
//! rewrites it (and still fails), for a deliberate change, which a served
//! URL can never have.

use mangekyo_formats::{content_hash, pyramid_bin, terrain};
use mangekyo_planet::hydro::geojson::rivers_geojson;
use mangekyo_planet::{FaceTile, GeoTile, Layers, Planet, PlanetParams, Version};

const EXPECTED: &str = include_str!("stable_served.txt");

/// The released versions this table pins.
const RELEASED: [Version; 4] = [Version::V1, Version::V2, Version::V3, Version::V4];

/// A small planet of `version` (its tier computes in well under a second).
fn planet(version: Version) -> Planet {
    let mut params = serde_json::json!({
        "seed": 7,
        "radius": 200_000.0,
        "pixel_size": 50.0,
        "graph_n": 16,
    });
    params["generator_version"] = serde_json::json!(version);
    Planet::new(serde_json::from_value::<PlanetParams>(params).unwrap()).unwrap()
}

fn hash_json(doc: &serde_json::Value) -> String {
    content_hash(&serde_json::to_vec(doc).unwrap())
}

/// Every hash of one version's served documents and tiles, a line each.
fn table(version: Version) -> Vec<String> {
    let planet = planet(version);
    let v = planet.version();
    let mut lines = Vec::new();
    let template = "https://example.invalid/v1/planets/1/pyramid/{face}/{level}/{x}/{y}?v=V&p=P";
    lines.push(format!(
        "v{version} pyramid.json {}",
        hash_json(&pyramid_bin::document(&planet, template))
    ));
    let mut layer_sets = vec![
        (
            "default",
            Layers {
                height: true,
                biome: true,
                ..Layers::NONE
            },
        ),
        ("height", Layers::HEIGHT),
    ];
    if version.layers().water {
        layer_sets.push((
            "height,water",
            Layers {
                height: true,
                water: true,
                ..Layers::NONE
            },
        ));
    }
    for (face, level, x, y) in [(0, 0, 0, 0), (4, 1, 1, 0), (3, 2, 2, 3)] {
        let tile = FaceTile::new(planet.space(), face, level, x, y).unwrap();
        for (name, layers) in &layer_sets {
            let samples = planet.sample_face_tile(&tile, *layers).unwrap();
            let bytes = pyramid_bin::encode(
                &tile,
                *layers,
                &samples,
                v,
                planet.space().pyramid_spacing(level),
            )
            .unwrap();
            lines.push(format!(
                "v{version} pyramid {face}/{level}/{x}/{y} {name} {}",
                content_hash(&bytes)
            ));
        }
    }
    let tiles = "https://example.invalid/v1/planets/1/terrain/{z}/{x}/{y}.terrain?v=V&p=P";
    lines.push(format!(
        "v{version} layer.json {}",
        hash_json(&terrain::layer_json(&planet, "planet 1", tiles))
    ));
    for (z, x, y) in [(0, 0, 0), (0, 1, 0), (2, 5, 1)] {
        let tile = GeoTile { z, x, y };
        for normals in [false, true] {
            let bytes = terrain::encode(&planet, &tile, normals).unwrap();
            lines.push(format!(
                "v{version} terrain {z}/{x}/{y} normals={normals} {}",
                content_hash(&bytes)
            ));
        }
    }
    if let Ok(doc) = mangekyo_planet::geology::plates_geojson(&planet, 1.0) {
        lines.push(format!("v{version} plates.geojson {}", hash_json(&doc)));
    }
    if let Ok(doc) = mangekyo_planet::geology::plates_geojson(&planet, 5.0) {
        lines.push(format!(
            "v{version} plates.geojson cell_deg=5 {}",
            hash_json(&doc)
        ));
    }
    if let Ok(doc) = rivers_geojson(&planet, None) {
        lines.push(format!("v{version} rivers.geojson {}", hash_json(&doc)));
    }
    lines
}

#[test]
fn pinned_tiles_and_geojson_of_released_versions_never_change() {
    let got: Vec<String> = RELEASED.into_iter().flat_map(table).collect();
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/stable_served.txt");
        std::fs::write(path, got.join("\n") + "\n").unwrap();
        panic!("UPDATE_EXPECT: rewrote {path}; run again without it");
    }
    let want: Vec<&str> = EXPECTED.lines().collect();
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g, w, "bytes served under pinned URLs must never change");
    }
    assert_eq!(got.len(), want.len(), "one line per output");
    // Every released version pins tiles, terrain and its GeoJSON.
    for version in RELEASED {
        let prefix = format!("v{version} ");
        let count = want.iter().filter(|l| l.starts_with(&prefix)).count();
        assert!(count >= 14, "version {version} pins {count} outputs");
    }
}
