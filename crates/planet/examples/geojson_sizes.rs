//! Sizes and feature counts of a planet's GeoJSON documents, the original
//! mixed ones and each layer: `cargo run -p mangekyo-planet --example
//! geojson_sizes -- [seed] [graph_n] [version]` (defaults 1, the default
//! graph and version 4; `next` for the next version).

use mangekyo_planet::geology::layers::{PlateLayer, plates_layer};
use mangekyo_planet::hydro::layers::{WaterLayer, water_layer};
use mangekyo_planet::{Planet, PlanetParams};
use serde_json::Value;
use std::collections::BTreeMap;

fn show(name: &str, doc: &Value) {
    let features = doc["features"].as_array().map_or(&[][..], Vec::as_slice);
    let mut by: BTreeMap<String, usize> = BTreeMap::new();
    for f in features {
        let kind = f["properties"]["kind"].as_str().unwrap_or("?");
        let geometry = f["geometry"]["type"].as_str().unwrap_or("?");
        *by.entry(format!("{kind} {geometry}")).or_default() += 1;
    }
    let bytes = serde_json::to_vec(doc).map_or(0, |b| b.len());
    println!("{name}: {bytes} bytes, {} features {by:?}", features.len());
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().map_or(Ok(1), |s| s.parse())?;
    let graph_n: u32 = args
        .next()
        .map_or(Ok(mangekyo_planet::DEFAULT_GRAPH_N), |s| s.parse())?;
    let version = args.next().unwrap_or_else(|| "4".into());
    let version: serde_json::Value = version
        .parse::<u32>()
        .map_or_else(|_| version.clone().into(), Into::into);
    let params: PlanetParams = serde_json::from_value(serde_json::json!({
        "seed": seed, "graph_n": graph_n, "generator_version": version,
    }))?;
    let planet = Planet::new(params)?;
    show(
        "plates.geojson",
        &mangekyo_planet::geology::plates_geojson(&planet, 1.0)?,
    );
    for layer in [PlateLayer::Plate, PlateLayer::Boundary] {
        show(
            &format!("plates.geojson?kind={}", layer.name()),
            &plates_layer(&planet, 1.0, layer)?,
        );
    }
    show(
        "rivers.geojson",
        &mangekyo_planet::hydro::geojson::rivers_geojson(&planet, None)?,
    );
    for layer in [WaterLayer::River, WaterLayer::Lake, WaterLayer::Basin] {
        show(
            &format!("rivers.geojson?kind={}", layer.name()),
            &water_layer(&planet, None, layer)?,
        );
    }
    Ok(())
}
