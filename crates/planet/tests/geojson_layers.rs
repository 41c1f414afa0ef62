//! The GeoJSON layers GIS tools read (issue 37): on several seeds, every
//! feature of every layer (plates, boundaries, rivers, lakes, basins) is a
//! valid simple feature (OGC rules, georust's `Validation`), polygons wind
//! counter-clockwise outside and clockwise in holes (RFC 7946), no segment
//! spans more than 180° of longitude, each document holds one geometry
//! type, the plates tile the sphere's rectangle exactly, and boundaries
//! come as long lines. The legacy mixed documents fail these checks (the
//! reason the layers exist), which shows the checks can fail.

use geo::algorithm::Validation;
use geo::{Coord, LineString, MultiLineString, MultiPolygon, Point, Polygon};
use mangekyo_planet::geology::layers::{PlateLayer, plates_layer};
use mangekyo_planet::hydro::layers::{WaterLayer, water_layer};
use mangekyo_planet::{Planet, PlanetParams};
use serde_json::Value;

fn planet(seed: u64) -> Planet {
    let params: PlanetParams = serde_json::from_value(serde_json::json!({
        "seed": seed,
        "graph_n": 408,
        "generator_version": 4,
    }))
    .unwrap();
    Planet::new(params).unwrap()
}

fn coord(p: &Value) -> Coord {
    Coord {
        x: p[0].as_f64().unwrap(),
        y: p[1].as_f64().unwrap(),
    }
}

fn line(v: &Value) -> LineString {
    LineString::new(v.as_array().unwrap().iter().map(coord).collect())
}

fn polygon(v: &Value) -> Polygon {
    let rings = v.as_array().unwrap();
    Polygon::new(line(&rings[0]), rings[1..].iter().map(line).collect())
}

/// Twice the signed area of a closed ring (> 0: counter-clockwise).
fn area2(ring: &LineString) -> f64 {
    ring.0
        .windows(2)
        .map(|w| w[0].x * w[1].y - w[1].x * w[0].y)
        .sum()
}

/// Every problem with one document, as text (empty: none).
fn problems(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let features = doc["features"].as_array().unwrap();
    let types: std::collections::BTreeSet<&str> = features
        .iter()
        .map(|f| f["geometry"]["type"].as_str().unwrap())
        .collect();
    if types.len() > 1 {
        out.push(format!("mixed geometry types {types:?}"));
    }
    for (i, f) in features.iter().enumerate() {
        let g = &f["geometry"];
        let c = &g["coordinates"];
        let lines: Vec<LineString> = match g["type"].as_str().unwrap() {
            "Point" => {
                let p = Point::from(coord(c));
                if !p.is_valid() {
                    out.push(format!("feature {i}: invalid: point"));
                }
                vec![]
            }
            "LineString" => {
                let l = line(c);
                if let Err(e) = l.check_validation() {
                    out.push(format!("feature {i}: invalid: {e}"));
                }
                vec![l]
            }
            "MultiLineString" => {
                let m = MultiLineString::new(c.as_array().unwrap().iter().map(line).collect());
                if let Err(e) = m.check_validation() {
                    out.push(format!("feature {i}: invalid: {e}"));
                }
                m.0
            }
            "MultiPolygon" => {
                let m = MultiPolygon::new(c.as_array().unwrap().iter().map(polygon).collect());
                if let Err(e) = m.check_validation() {
                    out.push(format!("feature {i}: invalid: {e}"));
                }
                let mut rings = Vec::new();
                for p in &m.0 {
                    if area2(p.exterior()) <= 0.0 {
                        out.push(format!("feature {i}: exterior not counter-clockwise"));
                    }
                    for h in p.interiors() {
                        if area2(h) >= 0.0 {
                            out.push(format!("feature {i}: hole not clockwise"));
                        }
                    }
                    rings.push(p.exterior().clone());
                    rings.extend(p.interiors().iter().cloned());
                }
                rings
            }
            other => {
                out.push(format!("feature {i}: unexpected {other}"));
                vec![]
            }
        };
        for l in &lines {
            for w in l.0.windows(2) {
                if (w[1].x - w[0].x).abs() > 180.0 {
                    out.push(format!(
                        "feature {i}: segment spans {}° of longitude",
                        (w[1].x - w[0].x).abs()
                    ));
                }
            }
            if l.0.iter().any(|p| p.x.abs() > 180.0 || p.y.abs() > 90.0) {
                out.push(format!("feature {i}: a point off the planet"));
            }
        }
    }
    out
}

fn assert_clean(doc: &Value, what: &str) {
    let p = problems(doc);
    assert!(
        p.is_empty(),
        "{what}: {} problems, first {:?}",
        p.len(),
        &p[..p.len().min(5)]
    );
}

#[test]
fn every_layer_of_three_seeds_is_valid_counter_clockwise_and_unwrapped() {
    for seed in [1u64, 7, 2024] {
        let planet = planet(seed);
        for cell_deg in [1.0, 3.0] {
            let plates = plates_layer(&planet, cell_deg, PlateLayer::Plate).unwrap();
            assert_clean(&plates, &format!("seed {seed} plates cell_deg={cell_deg}"));
            // The plates tile the longitude/latitude rectangle: their
            // smoothed rings share every edge, so the areas add up exactly.
            let mut total = 0.0;
            for f in plates["features"].as_array().unwrap() {
                for p in f["geometry"]["coordinates"].as_array().unwrap() {
                    let p = polygon(p);
                    total += 0.5 * area2(p.exterior());
                    total += p.interiors().iter().map(|h| 0.5 * area2(h)).sum::<f64>();
                }
            }
            assert!(
                (total - 360.0 * 180.0).abs() < 1e-3,
                "seed {seed}: plates cover {total} deg²"
            );
            let boundaries = plates_layer(&planet, cell_deg, PlateLayer::Boundary).unwrap();
            assert_clean(&boundaries, &format!("seed {seed} boundaries"));
            let lines = boundaries["features"].as_array().unwrap();
            let points: usize = lines
                .iter()
                .map(|f| f["geometry"]["coordinates"].as_array().unwrap().len())
                .sum();
            // Long lines, not two-point raster edges.
            assert!(
                points > 3 * lines.len(),
                "seed {seed}: {} lines of {points} points",
                lines.len()
            );
            let legacy = mangekyo_planet::geology::plates_geojson(&planet, cell_deg).unwrap();
            let legacy_edges = legacy["features"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["properties"]["kind"] == "boundary")
                .count();
            assert!(
                lines.len() * 5 < legacy_edges,
                "{} lines vs {legacy_edges} edges",
                lines.len()
            );
        }
        let mut lakes = 0;
        for layer in [WaterLayer::River, WaterLayer::Lake, WaterLayer::Basin] {
            let doc = water_layer(&planet, None, layer).unwrap();
            assert_clean(&doc, &format!("seed {seed} {}", layer.name()));
            if layer == WaterLayer::Lake {
                lakes += doc["features"].as_array().unwrap().len();
            }
        }
        assert!(lakes > 0, "seed {seed} has no lakes to check");
    }
}

/// How many problems of each sort (the text after `feature N: `, its
/// numbers dropped).
fn sorts(problems: &[String]) -> std::collections::BTreeMap<String, usize> {
    let mut out = std::collections::BTreeMap::new();
    for p in problems {
        let text = p.split_once(": ").map_or(p.as_str(), |(_, t)| t);
        let text: String = text.chars().filter(|c| !c.is_ascii_digit()).collect();
        *out.entry(text).or_default() += 1;
    }
    out
}

#[test]
fn the_legacy_documents_fail_the_same_checks() {
    let planet = planet(7);
    let plates = mangekyo_planet::geology::plates_geojson(&planet, 1.0).unwrap();
    let p = problems(&plates);
    eprintln!("legacy plates.geojson, seed 7: {:#?}", sorts(&p));
    assert!(p.iter().any(|e| e.starts_with("mixed")), "{p:?}");
    let n_plates = plates["features"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["properties"]["kind"] == "plate")
        .count();
    let invalid_plates = p.iter().filter(|e| e.contains(": invalid: ")).count();
    assert_eq!(
        invalid_plates, n_plates,
        "every strip plate is invalid: {p:?}"
    );
    let rivers = mangekyo_planet::hydro::geojson::rivers_geojson(&planet, None).unwrap();
    let p = problems(&rivers);
    eprintln!("legacy rivers.geojson, seed 7: {:#?}", sorts(&p));
    assert!(p.iter().any(|e| e.starts_with("mixed")), "{p:?}");
    assert!(p.iter().any(|e| e.contains("counter-clockwise")), "{p:?}");
    assert!(p.iter().any(|e| e.contains(": invalid: ")), "{p:?}");
    assert!(p.iter().any(|e| e.contains("segment spans")), "{p:?}");
}

#[test]
fn each_layer_holds_its_own_kind_and_names_a_wrong_one() {
    let planet = planet(7);
    for name in ["plate", "boundary"] {
        let doc = plates_layer(&planet, 2.0, PlateLayer::parse(name).unwrap()).unwrap();
        assert!(
            doc["features"]
                .as_array()
                .unwrap()
                .iter()
                .all(|f| f["properties"]["kind"] == name)
        );
        assert_eq!(doc["properties"]["kind"], name);
    }
    for name in ["river", "lake", "basin"] {
        let doc = water_layer(&planet, None, WaterLayer::parse(name).unwrap()).unwrap();
        assert!(
            doc["features"]
                .as_array()
                .unwrap()
                .iter()
                .all(|f| f["properties"]["kind"] == name)
        );
    }
    let e = PlateLayer::parse("plates").unwrap_err().to_string();
    assert!(e.contains("kind") && e.contains("plate or boundary"), "{e}");
    let e = WaterLayer::parse("rivers").unwrap_err().to_string();
    assert!(
        e.contains("kind") && e.contains("river, lake or basin"),
        "{e}"
    );
    // Deterministic: the same bytes twice.
    let a = serde_json::to_vec(&water_layer(&planet, None, WaterLayer::Lake).unwrap()).unwrap();
    let b = serde_json::to_vec(&water_layer(&planet, None, WaterLayer::Lake).unwrap()).unwrap();
    assert_eq!(a, b);
}

/// Of the turns (over 5°) between consecutive edges of every lake ring,
/// the share that are about right angles (70–110°: the graph's cells are
/// not quite square): a staircase's.
fn right_angle_share(doc: &Value) -> f64 {
    let (mut right, mut turns) = (0usize, 0usize);
    for f in doc["features"].as_array().unwrap() {
        for p in f["geometry"]["coordinates"].as_array().unwrap() {
            for ring in p.as_array().unwrap() {
                let pts: Vec<Coord> = ring.as_array().unwrap().iter().map(coord).collect();
                // Closed: the last point repeats the first.
                let m = pts.len() - 1;
                for i in 0..m {
                    let (a, b, c) = (pts[(i + m - 1) % m], pts[i], pts[(i + 1) % m]);
                    // Local east/north lengths: a degree of longitude
                    // shrinks by cos(latitude).
                    let k = libm::cos(b.y.to_radians());
                    let (u, v) = (((b.x - a.x) * k, b.y - a.y), ((c.x - b.x) * k, c.y - b.y));
                    let turn = libm::atan2(u.0 * v.1 - u.1 * v.0, u.0 * v.0 + u.1 * v.1)
                        .abs()
                        .to_degrees();
                    if turn > 5.0 {
                        turns += 1;
                        right += usize::from((70.0..=110.0).contains(&turn));
                    }
                }
            }
        }
    }
    right as f64 / turns as f64
}

#[test]
fn the_next_versions_lake_shores_have_no_staircase() {
    // Released versions keep their cells' outline (served bytes never
    // change): right angles at nearly every corner. The next version cuts
    // each corner into two turns of about 45°, and its polygons stay valid.
    let cells = water_layer(&planet(7), None, WaterLayer::Lake).unwrap();
    let params: PlanetParams = serde_json::from_value(serde_json::json!({
        "seed": 7,
        "graph_n": 408,
        "generator_version": "next",
    }))
    .unwrap();
    let cut = water_layer(&Planet::new(params).unwrap(), None, WaterLayer::Lake).unwrap();
    assert_clean(&cut, "next lakes");
    assert!(!cut["features"].as_array().unwrap().is_empty());
    let (before, after) = (right_angle_share(&cells), right_angle_share(&cut));
    println!("right-angle turns: cells {before:.2}, cut corners {after:.2}");
    assert!(
        before > 0.6,
        "cell outlines: {before:.2} of turns are right angles"
    );
    assert!(
        after < 0.05,
        "cut corners: {after:.2} of turns are right angles (cells {before:.2})"
    );
}
