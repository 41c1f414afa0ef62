//! Rivers, lakes and basins as GIS layers (RFC 7946, one geometry type
//! per document): `river` — one `MultiLineString` per river link, cut
//! where it crosses the antimeridian (the crossing latitude
//! interpolated); `lake` — one valid `MultiPolygon` per lake, its graph
//! cells dissolved into rings (holes included; corners cut from the next
//! version on, [`LakeShores`]), counter-clockwise, cut at the
//! antimeridian and closed over a pole it surrounds; `basin` — the
//! basins' mouths as `Point`s. The properties are those of
//! [`rivers_geojson`].

use super::geojson::{BBox, rivers_geojson};
use super::routing::NONE;
use crate::geo::{Dir, LatLon, cross, dot, normalise};
use crate::graph::SphereGraph;
use crate::lonlat_rings::{
    Pt, multipolygon_json, polygons, round6, split_line, unwrap_ring, wrap_rings,
};
use crate::version::LakeShores;
use crate::{Planet, PlanetError};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// One layer of the rivers document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaterLayer {
    /// River links.
    River,
    /// Lakes.
    Lake,
    /// Drainage basins' mouths.
    Basin,
}

impl WaterLayer {
    /// The layer's name (`kind=` and each feature's `kind`).
    pub fn name(self) -> &'static str {
        match self {
            WaterLayer::River => "river",
            WaterLayer::Lake => "lake",
            WaterLayer::Basin => "basin",
        }
    }

    /// The layer named `text`, refusing others by naming `kind`.
    pub fn parse(text: &str) -> Result<WaterLayer, PlanetError> {
        match text {
            "river" => Ok(WaterLayer::River),
            "lake" => Ok(WaterLayer::Lake),
            "basin" => Ok(WaterLayer::Basin),
            _ => Err(PlanetError::address(
                "kind",
                text.to_string(),
                "river, lake or basin",
            )),
        }
    }
}

/// A corner's identity: its direction's bits (both faces of a cube edge
/// build the identical vector; `+ 0.0` folds −0 into +0).
type Key = [u64; 3];

fn key(d: Dir) -> Key {
    [
        (d[0] + 0.0).to_bits(),
        (d[1] + 0.0).to_bits(),
        (d[2] + 0.0).to_bits(),
    ]
}

/// One lake's cells dissolved into polygons (see the module), their
/// corners cut where `shores` says so.
fn lake_polygons(
    graph: &SphereGraph,
    nodes: &[u32],
    shores: LakeShores,
) -> Vec<crate::lonlat_rings::Polygon> {
    let mut at: BTreeMap<Key, Dir> = BTreeMap::new();
    let mut edges: BTreeSet<(Key, Key)> = BTreeSet::new();
    for &k in nodes {
        let (face, i, j) = graph.cell(k);
        let (i, j) = (f64::from(i), f64::from(j));
        let mut corners: Vec<Dir> = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
            .iter()
            .map(|&(a, b)| graph.lattice_dir(face, i + a, j + b))
            .collect();
        // Counter-clockwise seen from outside the sphere.
        let d = |a: Dir, b: Dir| [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        if dot(
            cross(d(corners[0], corners[1]), d(corners[1], corners[2])),
            corners[0],
        ) < 0.0
        {
            corners.reverse();
        }
        for c in 0..4 {
            let (a, b) = (corners[c], corners[(c + 1) % 4]);
            let (ka, kb) = (key(a), key(b));
            at.insert(ka, a);
            at.insert(kb, b);
            // A shared edge comes once each way: both go.
            if !edges.remove(&(kb, ka)) {
                edges.insert((ka, kb));
            }
        }
    }
    let edges: Vec<(Key, Key)> = edges.into_iter().collect();
    let mut rings = Vec::new();
    let mut reference = None;
    for ring in crate::lonlat_rings::trace_rings(&edges) {
        let corners: Vec<Dir> = ring.iter().map(|k| at[k]).collect();
        let corners = match shores {
            LakeShores::Cells => corners,
            LakeShores::CutCorners => cut_corners(&corners),
        };
        let pts: Vec<LatLon> = corners.iter().map(|&d| LatLon::from_dir(d)).collect();
        // A corner on a pole takes its neighbours' longitudes.
        let n = pts.len();
        let mut flat: Vec<Pt> = Vec::with_capacity(n + 2);
        for i in 0..n {
            let p = pts[i];
            if p.lat.abs() >= 90.0 - 1e-9 {
                flat.push([pts[(i + n - 1) % n].lon, p.lat.signum() * 90.0]);
                flat.push([pts[(i + 1) % n].lon, p.lat.signum() * 90.0]);
            } else {
                flat.push([p.lon, p.lat]);
            }
        }
        let r = *reference.get_or_insert(flat[0][0]);
        rings.push(unwrap_ring(&flat, r));
    }
    polygons(wrap_rings(rings))
}

/// A closed ring of cell corners with every corner cut at a quarter of
/// its two edges (one round of Chaikin's scheme, on the sphere): each
/// right-angle turn becomes two of 45°, so even a one-cell lake is an
/// octagon. The ring is a union of grid cells and each cut stays within a
/// quarter cell of its corner, so rings that touched only at a corner (two
/// cells meeting diagonally) now keep apart, and nothing new crosses.
fn cut_corners(ring: &[Dir]) -> Vec<Dir> {
    let n = ring.len();
    let at = |a: Dir, b: Dir, t: f64| {
        normalise([
            a[0] + t * (b[0] - a[0]),
            a[1] + t * (b[1] - a[1]),
            a[2] + t * (b[2] - a[2]),
        ])
    };
    let mut out = Vec::with_capacity(2 * n);
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        out.push(at(a, b, 0.25));
        out.push(at(a, b, 0.75));
    }
    out
}

/// Rivers, lakes or basins (version 3; the coarse tier is computed on
/// first use), optionally only those with a point inside `bbox`.
pub fn water_layer(
    planet: &Planet,
    bbox: Option<BBox>,
    layer: WaterLayer,
) -> Result<Value, PlanetError> {
    let mut doc = rivers_geojson(planet, bbox)?;
    let tier = planet.coarse_tier()?;
    let hydro = tier
        .hydro
        .as_ref()
        .ok_or_else(|| PlanetError::address("tier", "without water", "a version-3 coarse tier"))?;
    let graph = SphereGraph::new(tier.n, planet.params().seed)?;
    let shores = planet.version().facts().pipeline.lake_shores;
    let mut members: Vec<Vec<u32>> = Vec::new();
    if layer == WaterLayer::Lake {
        members = vec![Vec::new(); hydro.lakes.len()];
        for (k, &l) in hydro.lake.iter().enumerate() {
            if l != NONE {
                members[l as usize].push(k as u32);
            }
        }
    }
    let Value::Array(features) = std::mem::take(&mut doc["features"]) else {
        return Err(PlanetError::address(
            "features",
            "not a list",
            "a FeatureCollection",
        ));
    };
    let mut out = Vec::new();
    for mut f in features {
        if f["properties"]["kind"] != layer.name() {
            continue;
        }
        match layer {
            WaterLayer::River => {
                let pts: Vec<Pt> = f["geometry"]["coordinates"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|p| [p[0].as_f64().unwrap_or(0.0), p[1].as_f64().unwrap_or(0.0)])
                    .collect();
                let parts: Vec<Vec<Value>> = split_line(&pts)
                    .iter()
                    .map(|part| {
                        part.iter()
                            .map(|p| json!([round6(p[0]), round6(p[1])]))
                            .collect()
                    })
                    .collect();
                f["geometry"] = json!({"type": "MultiLineString", "coordinates": parts});
            }
            WaterLayer::Lake => {
                let id = f["properties"]["lake"].as_u64().unwrap_or(0) as usize;
                let polys = lake_polygons(&graph, &members[id], shores);
                f["geometry"] =
                    json!({"type": "MultiPolygon", "coordinates": multipolygon_json(&polys)});
            }
            WaterLayer::Basin => {}
        }
        out.push(f);
    }
    doc["features"] = Value::Array(out);
    doc["properties"]["kind"] = json!(layer.name());
    Ok(doc)
}
