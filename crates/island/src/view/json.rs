//! The JSON form of an island: what `mangekyo island generate --format
//! json` prints and the server returns.

use crate::map::{Assignment, IslandMap, LocationName};
use crate::{Definitions, GENERATOR_VERSION};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
struct MapJson<'a> {
    generator_version: u32,
    seed: u64,
    scope: &'a str,
    lang: &'a str,
    sites: Vec<SiteJson<'a>>,
    edges: Vec<EdgeJson>,
}

#[derive(Serialize)]
struct SiteJson<'a> {
    id: u32,
    x: f64,
    y: f64,
    on_coast_ring: bool,
    axes: BTreeMap<&'a str, AxisValue>,
    #[serde(rename = "type")]
    location_type: &'a str,
    assigned_by: Assignment,
    name: &'a LocationName,
    label: String,
}

#[derive(Serialize)]
struct EdgeJson {
    a: u32,
    b: u32,
    meters: f64,
    travel_minutes: u32,
    mst: bool,
}

/// Whole axis values print as integers (`3`, not `3.0`), as in the spec.
#[derive(Serialize)]
#[serde(untagged)]
enum AxisValue {
    Int(i64),
    Float(f64),
}

fn axis_value(v: f64) -> AxisValue {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        AxisValue::Int(v as i64)
    } else {
        AxisValue::Float(v)
    }
}

/// The island as a JSON value, labels in `lang`.
pub fn to_value(map: &IslandMap, defs: &Definitions, lang: &str) -> serde_json::Value {
    serde_json::to_value(build(map, defs, lang)).unwrap_or(serde_json::Value::Null)
}

/// The island as pretty-printed JSON, labels in `lang`.
pub fn to_string(map: &IslandMap, defs: &Definitions, lang: &str) -> String {
    serde_json::to_string_pretty(&build(map, defs, lang)).unwrap_or_default()
}

fn build<'a>(map: &'a IslandMap, defs: &Definitions, lang: &'a str) -> MapJson<'a> {
    let loc = defs.localization();
    MapJson {
        generator_version: GENERATOR_VERSION,
        seed: map.seed.value(),
        scope: &map.scope,
        lang,
        sites: map
            .sites
            .iter()
            .map(|s| SiteJson {
                id: s.id,
                x: s.x,
                y: s.y,
                on_coast_ring: s.on_coast_ring,
                axes: s
                    .axes
                    .iter()
                    .map(|(k, &v)| (k.as_str(), axis_value(v)))
                    .collect(),
                location_type: &s.location_type,
                assigned_by: s.assigned_by,
                name: &s.name,
                label: loc.label(lang, &s.name),
            })
            .collect(),
        edges: map
            .edges
            .iter()
            .map(|e| EdgeJson {
                a: e.a,
                b: e.b,
                meters: e.meters,
                travel_minutes: e.travel_minutes,
                mst: e.mst,
            })
            .collect(),
    }
}
