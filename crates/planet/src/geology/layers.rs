//! The plates as GIS layers (RFC 7946, one geometry type per document):
//! `plate` — one valid `MultiPolygon` per plate, the raster's cells
//! dissolved into rings (holes included) and smoothed by cutting each
//! staircase corner through the midpoints of its edges (junctions where
//! three plates meet, or a plate meets the antimeridian or a pole, stay
//! put, so neighbouring plates still tile the sphere without gaps or
//! overlaps); `boundary` — one `LineString` per stretch of one boundary
//! type between a pair of plates, the same smoothed line the two plates'
//! rings share.

use super::*;
use crate::lonlat_rings::{Pt, polygons, round6};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// One layer of the plates document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlateLayer {
    /// The plates' polygons.
    Plate,
    /// The boundaries between plates.
    Boundary,
}

impl PlateLayer {
    /// The layer's name (`kind=` and each feature's `kind`).
    pub fn name(self) -> &'static str {
        match self {
            PlateLayer::Plate => "plate",
            PlateLayer::Boundary => "boundary",
        }
    }

    /// The layer named `text`, refusing others by naming `kind`.
    pub fn parse(text: &str) -> Result<PlateLayer, crate::PlanetError> {
        match text {
            "plate" => Ok(PlateLayer::Plate),
            "boundary" => Ok(PlateLayer::Boundary),
            _ => Err(crate::PlanetError::address(
                "kind",
                text.to_string(),
                "plate or boundary",
            )),
        }
    }
}

/// A grid vertex in doubled raster units: (2·column, 2·row), rows down
/// from the north pole; edge midpoints are odd.
type V2 = (i64, i64);

struct Raster {
    w: usize,
    h: usize,
    id: Vec<u16>,
}

impl Raster {
    /// The boundary degree of every grid vertex: edges between different
    /// plates plus the frame (antimeridian and poles), without wrapping.
    fn degree(&self) -> Vec<u8> {
        let (w, h) = (self.w, self.h);
        let mut deg = vec![0u8; (w + 1) * (h + 1)];
        let mut add = |a: (usize, usize), b: (usize, usize)| {
            deg[a.1 * (w + 1) + a.0] += 1;
            deg[b.1 * (w + 1) + b.0] += 1;
        };
        for y in 0..=h {
            for x in 0..w {
                // Horizontal edge (x, y)–(x+1, y): frame or between rows.
                if y == 0 || y == h || self.id[(y - 1) * w + x] != self.id[y * w + x] {
                    add((x, y), (x + 1, y));
                }
            }
        }
        for y in 0..h {
            for x in 0..=w {
                if x == 0 || x == w || self.id[y * w + x - 1] != self.id[y * w + x] {
                    add((x, y), (x, y + 1));
                }
            }
        }
        deg
    }

    /// Whether a vertex (doubled units) stays put when smoothing.
    fn junction(&self, deg: &[u8], v: V2) -> bool {
        let (x, y) = ((v.0 / 2) as usize, (v.1 / 2) as usize);
        let corner = (x == 0 || x == self.w) && (y == 0 || y == self.h);
        corner || deg[y * (self.w + 1) + x] != 2
    }
}

/// A closed ring of grid vertices smoothed: each edge's midpoint, with
/// the junctions between them.
fn smooth_ring(r: &Raster, deg: &[u8], ring: &[V2]) -> Vec<V2> {
    let n = ring.len();
    let mut out = Vec::with_capacity(2 * n);
    for i in 0..n {
        let (v, next) = (ring[i], ring[(i + 1) % n]);
        if r.junction(deg, v) {
            out.push(v);
        }
        out.push(((v.0 + next.0) / 2, (v.1 + next.1) / 2));
    }
    out
}

/// The plates of a version-2 planet as one layer (see the module).
pub fn plates_layer(
    planet: &crate::Planet,
    cell_deg: f64,
    layer: PlateLayer,
) -> Result<Value, crate::PlanetError> {
    plates_layer_cancellable(planet, cell_deg, layer, &|| true)
}

/// [`plates_layer`], asking `keep_going` once per raster row, plate and
/// pair of plates: [`crate::PlanetError::Cancelled`] once it answers
/// `false`. What it answers changes no byte of a finished layer.
pub fn plates_layer_cancellable(
    planet: &crate::Planet,
    cell_deg: f64,
    layer: PlateLayer,
    keep_going: &dyn Fn() -> bool,
) -> Result<Value, crate::PlanetError> {
    let check = || {
        if keep_going() {
            Ok(())
        } else {
            Err(crate::PlanetError::Cancelled)
        }
    };
    let (plates, w, h, id) = super::geojson::plate_raster(planet, cell_deg, keep_going)?;
    let radius = planet.params().radius;
    let lon = |x: f64| -180.0 + x * cell_deg;
    let lat = |y: f64| 90.0 - y * cell_deg;
    let dir = |la: f64, lo: f64| crate::LatLon { lat: la, lon: lo }.to_dir();
    let raster = Raster { w, h, id };
    let deg = raster.degree();
    // Doubled grid units → longitude, latitude.
    let to_lonlat = |p: Pt| [lon(p[0] / 2.0), lat(-p[1] / 2.0)];
    let mut features = Vec::new();
    match layer {
        PlateLayer::Plate => {
            for k in 0..plates.len() as u16 {
                check()?;
                let mut edges: Vec<(V2, V2)> = Vec::new();
                let mut area = 0.0;
                for y in 0..h {
                    for x in 0..w {
                        if raster.id[y * w + x] != k {
                            continue;
                        }
                        let other = |xx: usize, yy: usize| raster.id[yy * w + xx] != k;
                        let (x0, x1, y0, y1) = (
                            2 * x as i64,
                            2 * x as i64 + 2,
                            2 * y as i64,
                            2 * y as i64 + 2,
                        );
                        // Counter-clockwise in longitude/latitude (rows run south).
                        if y + 1 == h || other(x, y + 1) {
                            edges.push(((x0, y1), (x1, y1)));
                        }
                        if x + 1 == w || other(x + 1, y) {
                            edges.push(((x1, y1), (x1, y0)));
                        }
                        if y == 0 || other(x, y - 1) {
                            edges.push(((x1, y0), (x0, y0)));
                        }
                        if x == 0 || other(x - 1, y) {
                            edges.push(((x0, y0), (x0, y1)));
                        }
                        area += cell_deg.to_radians()
                            * (libm::sin(lat(y as f64).to_radians())
                                - libm::sin(lat(y as f64 + 1.0).to_radians()));
                    }
                }
                // In (column, −row) the rings keep their turning sense.
                let rings: Vec<Vec<Pt>> = crate::lonlat_rings::trace_rings(&edges)
                    .iter()
                    .map(|ring| {
                        smooth_ring(&raster, &deg, ring)
                            .iter()
                            .map(|&(x, y)| [x as f64, -(y as f64)])
                            .collect()
                    })
                    .collect();
                let polys: Vec<crate::lonlat_rings::Polygon> = polygons(rings)
                    .into_iter()
                    .map(|p| crate::lonlat_rings::Polygon {
                        exterior: p.exterior.into_iter().map(to_lonlat).collect(),
                        holes: p
                            .holes
                            .into_iter()
                            .map(|h| h.into_iter().map(to_lonlat).collect())
                            .collect(),
                    })
                    .collect();
                let w_k = plates.omega(k as usize);
                let rate = dot(w_k, w_k).sqrt();
                let pole = crate::LatLon::from_dir(normalise(w_k));
                features.push(json!({
                    "type": "Feature",
                    "geometry": {
                        "type": "MultiPolygon",
                        "coordinates": crate::lonlat_rings::multipolygon_json(&polys),
                    },
                    "properties": {
                        "kind": "plate",
                        "plate": k,
                        "area_fraction": area / (4.0 * std::f64::consts::PI),
                        "euler_pole_lat": pole.lat,
                        "euler_pole_lon": pole.lon,
                        "rate_deg_per_myr": rate.to_degrees(),
                    }
                }));
            }
        }
        PlateLayer::Boundary => {
            // Undirected edges between two plates, per pair (the wrap edge
            // between the last and first columns lies on +180°).
            let mut pairs: BTreeMap<(u16, u16), Vec<(V2, V2)>> = BTreeMap::new();
            for y in 0..h {
                for x in 0..w {
                    let a = raster.id[y * w + x];
                    let east = raster.id[y * w + (x + 1) % w];
                    let (x1, y0, y1) = (2 * x as i64 + 2, 2 * y as i64, 2 * y as i64 + 2);
                    if east != a {
                        pairs
                            .entry((a.min(east), a.max(east)))
                            .or_default()
                            .push(((x1, y0), (x1, y1)));
                    }
                    if y + 1 < h {
                        let south = raster.id[(y + 1) * w + x];
                        if south != a {
                            pairs
                                .entry((a.min(south), a.max(south)))
                                .or_default()
                                .push(((x1 - 2, y1), (x1, y1)));
                        }
                    }
                }
            }
            for (&(a, b), edges) in &pairs {
                check()?;
                for chain in chains(edges) {
                    // Each edge's type and velocity at its midpoint.
                    let info: Vec<(PlatePoint, f64)> = chain
                        .windows(2)
                        .map(|e| {
                            let m = to_lonlat([
                                0.5 * (e[0].0 + e[1].0) as f64,
                                -0.5 * (e[0].1 + e[1].1) as f64,
                            ]);
                            let qm = plates.warped(&[dir(m[1], m[0])], radius, Level::best())[0];
                            let p = plates.pair(qm, a as usize, b as usize);
                            let len = if e[0].0 == e[1].0 {
                                cell_deg
                            } else {
                                cell_deg * libm::cos(m[1].to_radians())
                            };
                            (p, len.to_radians() * radius / 1000.0)
                        })
                        .collect();
                    let closed = chain[0] == chain[chain.len() - 1];
                    // Smoothed points, and where each edge's midpoint lands.
                    let mut pts: Vec<V2> = Vec::new();
                    let mut mid_at = Vec::new();
                    for (i, e) in chain.windows(2).enumerate() {
                        if (i == 0 && !closed) || raster.junction(&deg, e[0]) {
                            pts.push(e[0]);
                        }
                        mid_at.push(pts.len());
                        pts.push(((e[0].0 + e[1].0) / 2, (e[0].1 + e[1].1) / 2));
                    }
                    if closed && !raster.junction(&deg, chain[0]) {
                        pts.push(pts[0]);
                    } else {
                        pts.push(chain[chain.len() - 1]);
                    }
                    // Runs of one boundary type, cut at an edge's midpoint.
                    let mut start = 0;
                    while start < info.len() {
                        let kind = info[start].0.kind();
                        let mut end = start + 1;
                        while end < info.len() && info[end].0.kind() == kind {
                            end += 1;
                        }
                        let from = if start == 0 { 0 } else { mid_at[start] };
                        let to = if end == info.len() {
                            pts.len() - 1
                        } else {
                            mid_at[end]
                        };
                        let line: Vec<Pt> = drop_collinear_line(
                            &pts[from..=to]
                                .iter()
                                .map(|&(x, y)| [x as f64, -(y as f64)])
                                .collect::<Vec<_>>(),
                        )
                        .into_iter()
                        .map(to_lonlat)
                        .collect();
                        let run = &info[start..end];
                        let length: f64 = run.iter().map(|r| r.1).sum();
                        let mean = |f: &dyn Fn(&PlatePoint) -> f64| {
                            run.iter().map(|r| f(&r.0) * r.1).sum::<f64>() / length
                        };
                        features.push(json!({
                            "type": "Feature",
                            "geometry": {
                                "type": "LineString",
                                "coordinates": line.iter().map(|p| json!([round6(p[0]), round6(p[1])])).collect::<Vec<_>>(),
                            },
                            "properties": {
                                "kind": "boundary",
                                "plates": [a, b],
                                "type": kind.name(),
                                "convergence_mm_yr": mean(&|p| p.convergence),
                                "shear_mm_yr": mean(&|p| p.shear),
                                "length_km": length,
                            }
                        }));
                        start = end;
                    }
                }
            }
        }
    }
    Ok(json!({
        "type": "FeatureCollection",
        "properties": {
            "generator_version": planet.version(),
            "params_hash": format!("{:016x}", planet.params().content_hash()),
            "cell_deg": cell_deg,
            "plates": plates.len(),
            "kind": layer.name(),
        },
        "features": features,
    }))
}

/// A polyline without points on the straight line between their
/// neighbours (its ends kept).
fn drop_collinear_line(line: &[Pt]) -> Vec<Pt> {
    let mut out: Vec<Pt> = Vec::with_capacity(line.len());
    for &p in line {
        if out.last() == Some(&p) {
            continue;
        }
        if out.len() >= 2 {
            let (a, b) = (out[out.len() - 2], out[out.len() - 1]);
            if (b[0] - a[0]) * (p[1] - b[1]) - (b[1] - a[1]) * (p[0] - b[0]) == 0.0
                && (b[0] - a[0]) * (p[0] - b[0]) + (b[1] - a[1]) * (p[1] - b[1]) > 0.0
            {
                out.pop();
            }
        }
        out.push(p);
    }
    out
}

/// Undirected edges linked into maximal chains of vertices: broken where
/// the edges meet other than two at a time; loops close on their first
/// vertex.
fn chains(edges: &[(V2, V2)]) -> Vec<Vec<V2>> {
    let mut at: BTreeMap<V2, Vec<usize>> = BTreeMap::new();
    for (i, &(a, b)) in edges.iter().enumerate() {
        at.entry(a).or_default().push(i);
        at.entry(b).or_default().push(i);
    }
    let mut used = vec![false; edges.len()];
    let mut out = Vec::new();
    let walk = |start: V2, used: &mut [bool], out: &mut Vec<Vec<V2>>| {
        while let Some(&first) = at[&start].iter().find(|&&e| !used[e]) {
            let mut chain = vec![start];
            let (mut v, mut e) = (start, first);
            loop {
                used[e] = true;
                let (a, b) = edges[e];
                v = if a == v { b } else { a };
                chain.push(v);
                if at[&v].len() != 2 {
                    break;
                }
                match at[&v].iter().find(|&&f| !used[f]) {
                    Some(&f) => e = f,
                    None => break,
                }
            }
            out.push(chain);
        }
    };
    let ends: Vec<V2> = at
        .iter()
        .filter(|(_, list)| list.len() != 2)
        .map(|(&v, _)| v)
        .collect();
    for v in ends {
        walk(v, &mut used, &mut out);
    }
    let rest: Vec<V2> = at.keys().copied().collect();
    for v in rest {
        walk(v, &mut used, &mut out);
    }
    out
}
