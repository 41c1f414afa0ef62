//! Rivers, lakes and basins of a version-3 planet as GeoJSON (what
//! `mangekyo planet rivers` writes and the server serves): one
//! `LineString` per river link (source or confluence to the next
//! confluence, lake or sea; through its nodes, or along its segments'
//! curves where the version's channels curve) with its discharge, Strahler order, upstream
//! area, main-stem and own length and where it ends; one `MultiPolygon` per
//! lake (its graph cells) with its level and whether it is endorheic; one
//! `Point` per drainage basin of at least [`BASIN_MIN_KM2`] at its mouth,
//! with its area and where it drains. A pure function of the planet.

use super::routing::NONE;
use crate::geo::LatLon;
use crate::graph::SphereGraph;
use crate::version::Channels;
use crate::{Planet, PlanetError};
use serde_json::{Value, json};

/// The smallest basin listed as a feature, km² (all count in the summary).
pub const BASIN_MIN_KM2: f64 = 10_000.0;

/// Points per segment where a river follows its curve
/// ([`Channels::Curves`]): the curve strays at most a quarter of a chord
/// from it, and eight points hold it within a few hundred metres.
const CURVE_POINTS: u32 = 8;

/// A longitude/latitude box in degrees: west, south, east, north.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BBox {
    /// Western edge, −180..180.
    pub west: f64,
    /// Southern edge, −90..90.
    pub south: f64,
    /// Eastern edge, greater than `west`.
    pub east: f64,
    /// Northern edge, greater than `south`.
    pub north: f64,
}

impl BBox {
    /// Parses `west,south,east,north` (degrees), refusing an inverted,
    /// empty or off-planet box by naming `bbox`.
    pub fn parse(text: &str) -> Result<BBox, PlanetError> {
        let refuse = |why: &str| {
            PlanetError::address(
                "bbox",
                text.to_string(),
                format!(
                    "west,south,east,north in degrees with west < east in −180..=180 and south < north in −90..=90 ({why})"
                ),
            )
        };
        let parts: Vec<f64> = text
            .split(',')
            .map(|p| p.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| refuse("four numbers"))?;
        let [west, south, east, north] = parts[..] else {
            return Err(refuse("four numbers"));
        };
        if [west, south, east, north].iter().any(|v| !v.is_finite()) {
            return Err(refuse("finite numbers"));
        }
        if !(-180.0..=180.0).contains(&west) || !(-180.0..=180.0).contains(&east) {
            return Err(refuse("longitudes outside the planet"));
        }
        if !(-90.0..=90.0).contains(&south) || !(-90.0..=90.0).contains(&north) {
            return Err(refuse("latitudes outside the planet"));
        }
        if west >= east || south >= north {
            return Err(refuse("inverted or empty"));
        }
        Ok(BBox {
            west,
            south,
            east,
            north,
        })
    }

    fn holds(&self, p: &LatLon) -> bool {
        (self.west..=self.east).contains(&p.lon) && (self.south..=self.north).contains(&p.lat)
    }
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn lon_lat(p: &LatLon) -> Value {
    json!([round6(p.lon), round6(p.lat)])
}

/// The rivers, lakes and basins (version 3; the coarse tier is computed
/// on first use), optionally only those with a point inside `bbox`.
pub fn rivers_geojson(planet: &Planet, bbox: Option<BBox>) -> Result<Value, PlanetError> {
    if !planet.version().has_water() {
        return Err(PlanetError::param(
            "generator_version",
            planet.version(),
            "a version with rivers (3 or later)",
        ));
    }
    let tier = planet.coarse_tier()?;
    let hydro = tier
        .hydro
        .as_ref()
        .ok_or_else(|| PlanetError::address("tier", "without water", "a version-3 coarse tier"))?;
    let graph = SphereGraph::new(tier.n, planet.params().seed)?;
    let radius = planet.params().radius;
    let at = |k: u32| LatLon::from_dir(graph.node(k));
    let keep = |pts: &[LatLon]| bbox.is_none_or(|b| pts.iter().any(|p| b.holds(p)));
    let mut features = Vec::new();

    // Links: consecutive segments sharing a link id.
    let segs = &hydro.segments;
    let mut first_of_node = std::collections::BTreeMap::new();
    let mut i = 0;
    let mut links = Vec::new();
    while i < segs.len() {
        let mut j = i;
        while j < segs.len() && segs[j].link == segs[i].link {
            j += 1;
        }
        // A link that leaves a lake starts at the lake's node; the rivers
        // that run into it meet it at the outlet, its first segment's end.
        let head = if hydro.lake[segs[i].from as usize] == NONE {
            segs[i].from
        } else {
            segs[i].to
        };
        first_of_node.entry(head).or_insert(segs[i].link);
        links.push(i..j);
        i = j;
    }
    // Where channels curve, a link follows its segments' courses (the
    // channel's meanders where they swing wide, else the curve they swing
    // about, within the belt of the channel a chunk draws), not the chords
    // between nodes.
    let channels = planet.version().pipeline().channels;
    let curves = (channels == Channels::Curves).then(|| hydro.field(&graph, radius, channels));
    for range in links {
        let start = range.start;
        let run = &segs[range];
        let (first, last) = (run[0], run[run.len() - 1]);
        let mut pts: Vec<LatLon> = match curves {
            None => run.iter().map(|s| at(s.from)).collect(),
            Some(field) => (start..start + run.len())
                .flat_map(|s| field.course(s as u32, CURVE_POINTS))
                .map(LatLon::from_dir)
                .collect(),
        };
        pts.push(at(last.to));
        if !keep(&pts) {
            continue;
        }
        let length_km: f64 = run
            .iter()
            .map(|s| {
                crate::geo::angle_between(graph.node(s.from), graph.node(s.to)) * radius / 1000.0
            })
            .sum();
        let downstream = first_of_node.get(&last.to).copied();
        let mouth = match last.mouth {
            1 => "sea",
            2 => "lake",
            _ => "river",
        };
        features.push(json!({
            "type": "Feature",
            "geometry": {"type": "LineString", "coordinates": pts.iter().map(lon_lat).collect::<Vec<_>>()},
            "properties": {
                "kind": "river",
                "link": first.link,
                "strahler": first.order,
                "discharge_m3s": last.discharge,
                "upstream_area_km2": last.area_km2,
                "main_stem_km": last.main_stem_km,
                "length_km": length_km,
                "width_m": last.width,
                "water_level_m": [first.z_from, last.z_to],
                "mouth": mouth,
                "downstream_link": downstream,
            }
        }));
    }

    // Lakes: their cells as polygons.
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); hydro.lakes.len()];
    for (k, &l) in hydro.lake.iter().enumerate() {
        if l != NONE {
            members[l as usize].push(k as u32);
        }
    }
    for (id, (lake, nodes)) in hydro.lakes.iter().zip(&members).enumerate() {
        let cells: Vec<Vec<LatLon>> = nodes
            .iter()
            .map(|&k| {
                let (face, i, j) = graph.cell(k);
                let (i, j) = (f64::from(i), f64::from(j));
                let mut ring: Vec<LatLon> = [
                    (-0.5, -0.5),
                    (0.5, -0.5),
                    (0.5, 0.5),
                    (-0.5, 0.5),
                    (-0.5, -0.5),
                ]
                .iter()
                .map(|&(a, b)| LatLon::from_dir(graph.lattice_dir(face, i + a, j + b)))
                .collect();
                // Keep a cell on one side of the date line.
                let lon0 = ring[0].lon;
                for p in &mut ring {
                    if p.lon - lon0 > 180.0 {
                        p.lon -= 360.0;
                    } else if lon0 - p.lon > 180.0 {
                        p.lon += 360.0;
                    }
                }
                ring
            })
            .collect();
        if !keep(&cells.iter().flatten().copied().collect::<Vec<_>>()) {
            continue;
        }
        features.push(json!({
            "type": "Feature",
            "geometry": {
                "type": "MultiPolygon",
                "coordinates": cells.iter().map(|r| vec![r.iter().map(lon_lat).collect::<Vec<_>>()]).collect::<Vec<_>>(),
            },
            "properties": {
                "kind": "lake",
                "lake": id,
                "level_m": lake.level,
                "area_km2": lake.area_km2,
                "inflow_m3s": lake.inflow,
                "endorheic": lake.endorheic,
            }
        }));
    }

    // Basins: each land node's root, found once per node (paths compressed).
    let count = hydro.receiver.len();
    let mut root = vec![NONE; count];
    let mut path = Vec::new();
    for k0 in 0..count as u32 {
        let mut k = k0;
        while root[k as usize] == NONE && hydro.receiver[k as usize] != NONE {
            path.push(k);
            k = hydro.receiver[k as usize];
        }
        let r = if root[k as usize] == NONE {
            k
        } else {
            root[k as usize]
        };
        root[k as usize] = r;
        for p in path.drain(..) {
            root[p as usize] = r;
        }
    }
    let mut basin_area = std::collections::BTreeMap::<u32, f64>::new();
    let (mut land_km2, mut to_sea_km2) = (0.0f64, 0.0f64);
    for (k, &r) in root.iter().enumerate() {
        if tier.height[k] < 0.0 {
            continue;
        }
        let a = super::cell_area(&graph, k as u32, radius) / 1e6;
        land_km2 += a;
        if tier.height[r as usize] < 0.0 {
            to_sea_km2 += a;
        }
        *basin_area.entry(r).or_default() += a;
    }
    for (&r, &a) in &basin_area {
        if a < BASIN_MIN_KM2 {
            continue;
        }
        let p = at(r);
        if !keep(&[p]) {
            continue;
        }
        let drains = if tier.height[r as usize] < 0.0 {
            "sea"
        } else {
            "lake"
        };
        features.push(json!({
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": lon_lat(&p)},
            "properties": {"kind": "basin", "mouth_node": r, "area_km2": a, "drains_to": drains}
        }));
    }
    Ok(json!({
        "type": "FeatureCollection",
        "properties": {
            "generator_version": planet.version(),
            "params_hash": format!("{:016x}", planet.params().content_hash()),
            "graph_n": tier.n,
            "land_area_km2": land_km2,
            "drains_to_sea_share": if land_km2 > 0.0 { to_sea_km2 / land_km2 } else { 0.0 },
            "lakes": hydro.lakes.len(),
            "endorheic_lakes": hydro.lakes.iter().filter(|l| l.endorheic).count(),
        },
        "features": features,
    }))
}
