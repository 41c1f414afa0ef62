//! Planar longitude/latitude geometry for the GeoJSON layers (RFC 7946):
//! dissolving cells into rings by cancelling shared edges, polygons with
//! holes (exteriors counter-clockwise, holes clockwise), and cutting rings
//! and lines at the antimeridian so no segment spans more than 180° of
//! longitude. Pure and deterministic: every collection is a `Vec` or a
//! `BTreeMap`, walked in order.

use std::collections::BTreeMap;

/// A point: longitude, latitude in degrees.
pub type Pt = [f64; 2];

/// A polygon: its exterior ring (counter-clockwise) and holes (clockwise),
/// each open (the first point is not repeated at the end).
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    /// The exterior ring, counter-clockwise.
    pub exterior: Vec<Pt>,
    /// The holes, clockwise.
    pub holes: Vec<Vec<Pt>>,
}

/// Links directed boundary edges (the region on each edge's left) into
/// closed vertex cycles that visit each vertex once: where the boundary
/// passes a vertex twice (two cells touching at a corner), the cycle is
/// split there into two rings that touch, which simple-feature validity
/// allows (a ring may not touch itself).
pub fn trace_rings<K: Ord + Copy>(edges: &[(K, K)]) -> Vec<Vec<K>> {
    let mut out: BTreeMap<K, Vec<usize>> = BTreeMap::new();
    for (i, &(a, _)) in edges.iter().enumerate() {
        out.entry(a).or_default().push(i);
    }
    let mut used = vec![false; edges.len()];
    let mut rings = Vec::new();
    for start in 0..edges.len() {
        if used[start] {
            continue;
        }
        // One closed walk (in-degree equals out-degree at every vertex).
        let mut walk = Vec::new();
        let mut e = start;
        loop {
            used[e] = true;
            walk.push(edges[e].0);
            let next = out
                .get(&edges[e].1)
                .and_then(|list| list.iter().copied().find(|&f| !used[f]));
            match next {
                Some(f) => e = f,
                None => break,
            }
        }
        // Split the walk at repeated vertices into simple cycles.
        let mut stack: Vec<K> = Vec::new();
        let mut at: BTreeMap<K, usize> = BTreeMap::new();
        for v in walk {
            if let Some(&p) = at.get(&v) {
                let cycle: Vec<K> = stack.drain(p + 1..).collect();
                for u in &cycle {
                    at.remove(u);
                }
                let mut ring = vec![v];
                ring.extend(cycle);
                if ring.len() >= 3 {
                    rings.push(ring);
                }
            } else {
                at.insert(v, stack.len());
                stack.push(v);
            }
        }
        if stack.len() >= 3 {
            rings.push(stack);
        }
    }
    rings
}

/// Twice the signed area of an open ring (> 0: counter-clockwise).
pub fn signed_area2(ring: &[Pt]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}

/// Whether `p` lies inside the open ring (even–odd rule).
pub fn contains(ring: &[Pt], p: Pt) -> bool {
    let n = ring.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if p[0] < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// Drops repeated points and points on a straight line between their
/// neighbours (exactly collinear: cell grids give many).
pub fn drop_collinear(ring: &[Pt]) -> Vec<Pt> {
    let mut pts: Vec<Pt> = Vec::with_capacity(ring.len());
    for &p in ring {
        if pts.last() != Some(&p) {
            pts.push(p);
        }
    }
    while pts.len() > 1 && pts.first() == pts.last() {
        pts.pop();
    }
    loop {
        let n = pts.len();
        if n < 4 {
            return pts;
        }
        let keep: Vec<bool> = (0..n)
            .map(|i| {
                let (a, b, c) = (pts[(i + n - 1) % n], pts[i], pts[(i + 1) % n]);
                (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]) != 0.0
            })
            .collect();
        if keep.iter().all(|&k| k) {
            return pts;
        }
        // Drop every other removable point per pass, so a run of them
        // never loses its anchors at once.
        let mut dropped_prev = false;
        let mut next = Vec::with_capacity(n);
        for (i, &p) in pts.iter().enumerate() {
            if !keep[i] && !dropped_prev {
                dropped_prev = true;
            } else {
                dropped_prev = false;
                next.push(p);
            }
        }
        pts = next;
    }
}

/// Rings whose region lies on their left → polygons: counter-clockwise
/// rings are exteriors, clockwise ones holes, each hole in the smallest
/// exterior that holds it. Rings of no area are dropped.
pub fn polygons(rings: Vec<Vec<Pt>>) -> Vec<Polygon> {
    let mut shells = Vec::new();
    let mut holes = Vec::new();
    for ring in rings {
        let ring = drop_collinear(&ring);
        // Fewer than 3 points, or no width or height (a cut along an edge).
        let flat = |i: usize| ring.iter().all(|p| p[i] == ring[0][i]);
        if ring.len() < 3 || flat(0) || flat(1) {
            continue;
        }
        let a = signed_area2(&ring);
        if a > 0.0 {
            shells.push((a, ring));
        } else if a < 0.0 {
            holes.push(ring);
        }
    }
    let mut out: Vec<Polygon> = shells
        .iter()
        .map(|(_, r)| Polygon {
            exterior: r.clone(),
            holes: Vec::new(),
        })
        .collect();
    for hole in holes {
        // The midpoint of its first edge: never on another ring (edges of
        // one boundary are never shared).
        let p = [
            0.5 * (hole[0][0] + hole[1][0]),
            0.5 * (hole[0][1] + hole[1][1]),
        ];
        let owner = shells
            .iter()
            .enumerate()
            .filter(|(_, (_, r))| contains(r, p))
            .min_by(|a, b| a.1.0.total_cmp(&b.1.0))
            .map(|(i, _)| i);
        if let Some(i) = owner {
            out[i].holes.push(hole);
        }
    }
    out
}

/// Where edge a→b meets the meridian `x = c` (exactly an end on it).
fn crossing(a: Pt, b: Pt, c: f64) -> Pt {
    if a[0] == c {
        a
    } else if b[0] == c {
        b
    } else {
        [c, a[1] + (c - a[0]) / (b[0] - a[0]) * (b[1] - a[1])]
    }
}

/// Cuts rings (region on the left, all rings of one region together) at
/// the meridian `x = c`: the parts west and east of it, each closed along
/// the meridian. A point on the meridian counts as east, and a crossing
/// at a point is that point, so an edge along the meridian leaves a part
/// of no width that [`polygons`] drops, never a sliver.
fn cut_rings(rings: &[Vec<Pt>], c: f64) -> (Vec<Vec<Pt>>, Vec<Vec<Pt>>) {
    let mut sides = (Vec::new(), Vec::new());
    // Fragments per side: (entry y, points, exit y).
    let mut frags: [Vec<Vec<Pt>>; 2] = [Vec::new(), Vec::new()];
    for ring in rings {
        let east = |p: &Pt| p[0] >= c;
        let n = ring.len();
        let Some(s) = (0..n).find(|&i| east(&ring[i]) != east(&ring[(i + n - 1) % n])) else {
            if east(&ring[0]) {
                sides.1.push(ring.clone());
            } else {
                sides.0.push(ring.clone());
            }
            continue;
        };
        // Start at the first point after a crossing.
        let mut current: Vec<Pt> = Vec::new();
        for k in 0..n {
            let (a, b) = (ring[(s + k + n - 1) % n], ring[(s + k) % n]);
            if east(&a) != east(&b) {
                let x = crossing(a, b, c);
                if !current.is_empty() {
                    current.push(x);
                    frags[usize::from(east(&a))].push(std::mem::take(&mut current));
                }
                current.push(x);
            }
            current.push(b);
        }
        // Close the last fragment at the first crossing.
        let (a, b) = (ring[(s + n - 1) % n], ring[s]);
        current.push(crossing(a, b, c));
        frags[usize::from(east(&a))].push(current);
    }
    // Link each side's fragments along the meridian, the region on the
    // left: north on the west side, south on the east side.
    for (side, list) in frags.iter().enumerate() {
        let mut used = vec![false; list.len()];
        for start in 0..list.len() {
            if used[start] {
                continue;
            }
            let mut ring: Vec<Pt> = Vec::new();
            let mut f = start;
            loop {
                used[f] = true;
                ring.extend_from_slice(&list[f]);
                let y_out = list[f][list[f].len() - 1][1];
                let next = (0..list.len())
                    .filter(|&g| {
                        let y_in = list[g][0][1];
                        if side == 0 {
                            y_in >= y_out
                        } else {
                            y_in <= y_out
                        }
                    })
                    .min_by(|&g, &h| {
                        let (a, b) = ((list[g][0][1] - y_out).abs(), (list[h][0][1] - y_out).abs());
                        a.total_cmp(&b)
                    });
                match next {
                    Some(g) if !used[g] => f = g,
                    _ => break,
                }
            }
            if side == 0 {
                sides.0.push(ring);
            } else {
                sides.1.push(ring);
            }
        }
    }
    sides
}

/// Rings in unwrapped longitudes (continuous, within 360° of each other)
/// → rings within −180..=180, cut at the antimeridian and shifted back.
pub fn wrap_rings(mut rings: Vec<Vec<Pt>>) -> Vec<Vec<Pt>> {
    let mut done = Vec::new();
    for c in [180.0, -180.0] {
        if rings
            .iter()
            .flatten()
            .any(|p| (p[0] > 180.0) || (p[0] < -180.0))
        {
            let (west, east) = cut_rings(&rings, c);
            if c > 0.0 {
                done.extend(east.into_iter().map(|r| shift(r, -360.0)));
                rings = west;
            } else {
                done.extend(west.into_iter().map(|r| shift(r, 360.0)));
                rings = east;
            }
        }
    }
    done.extend(rings);
    done
}

fn shift(ring: Vec<Pt>, by: f64) -> Vec<Pt> {
    ring.into_iter().map(|[x, y]| [x + by, y]).collect()
}

/// A ring's longitudes made continuous (each step under 180°), starting
/// near `reference`. A ring around a pole (its longitudes gain ±360°) is
/// closed over that pole: the region is on the left, so an eastward ring
/// encloses the north pole and a westward one the south pole.
pub fn unwrap_ring(ring: &[Pt], reference: f64) -> Vec<Pt> {
    let mut out: Vec<Pt> = Vec::with_capacity(ring.len() + 2);
    let mut x = ring[0][0];
    while x - reference > 180.0 {
        x -= 360.0;
    }
    while reference - x > 180.0 {
        x += 360.0;
    }
    out.push([x, ring[0][1]]);
    for w in ring.windows(2) {
        x += wrap_delta(w[1][0] - w[0][0]);
        out.push([x, w[1][1]]);
    }
    let gain = x + wrap_delta(ring[0][0] - ring[ring.len() - 1][0]) - out[0][0];
    if gain.abs() > 180.0 {
        let pole = if gain > 0.0 { 90.0 } else { -90.0 };
        let x0 = out[0][0];
        let x_end = x0 + 360.0f64.copysign(gain);
        out.push([x_end, ring[0][1]]);
        out.push([x_end, pole]);
        out.push([x0, pole]);
    }
    out
}

/// A longitude difference brought into −180..=180.
pub fn wrap_delta(d: f64) -> f64 {
    if d > 180.0 {
        d - 360.0
    } else if d < -180.0 {
        d + 360.0
    } else {
        d
    }
}

/// A line (longitudes in −180..=180) cut where it crosses the
/// antimeridian, the crossing latitude interpolated: parts whose steps
/// are all under 180° of longitude.
pub fn split_line(pts: &[Pt]) -> Vec<Vec<Pt>> {
    let mut parts = vec![Vec::new()];
    for (i, &p) in pts.iter().enumerate() {
        if i > 0 {
            let a = pts[i - 1];
            let d = p[0] - a[0];
            if d.abs() > 180.0 {
                // Crossing: from a towards p unwrapped.
                let edge = if d < 0.0 { 180.0 } else { -180.0 };
                let b = p[0] + if d < 0.0 { 360.0 } else { -360.0 };
                let y = a[1] + (edge - a[0]) / (b - a[0]) * (p[1] - a[1]);
                parts.last_mut().unwrap().push([edge, y]);
                parts.push(vec![[-edge, y]]);
            }
        }
        parts.last_mut().unwrap().push(p);
    }
    parts.retain(|p| p.len() >= 2);
    parts
}

/// Rounds to 1e-6° (about 0.1 m on Earth), as the documents are written.
pub fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// A ring as GeoJSON coordinates: rounded, closed, and no step longer
/// than 90° of longitude (a plate's edge along a pole or the frame would
/// otherwise be one 360° segment, which readers take for a wrap).
pub fn ring_json(ring: &[Pt]) -> serde_json::Value {
    let n = ring.len();
    let mut pts: Vec<serde_json::Value> = Vec::with_capacity(n + 1);
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        let steps = ((b[0] - a[0]).abs() / 90.0).ceil().max(1.0) as usize;
        for s in 0..steps {
            let t = s as f64 / steps as f64;
            let p = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
            let p = serde_json::json!([round6(p[0]), round6(p[1])]);
            // Two points may round to one.
            if pts.last() != Some(&p) {
                pts.push(p);
            }
        }
    }
    while pts.len() > 1 && pts.first() == pts.last() {
        pts.pop();
    }
    if let Some(first) = pts.first().cloned() {
        pts.push(first);
    }
    serde_json::Value::Array(pts)
}

/// Polygons as GeoJSON `MultiPolygon` coordinates.
pub fn multipolygon_json(polys: &[Polygon]) -> serde_json::Value {
    serde_json::Value::Array(
        polys
            .iter()
            .map(|p| {
                let mut rings = vec![ring_json(&p.exterior)];
                rings.extend(p.holes.iter().map(|h| ring_json(h)));
                serde_json::Value::Array(rings)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_cells_touching_at_a_corner_make_two_rings() {
        // Cells (0,0) and (1,1) of a unit grid, counter-clockwise.
        let cell = |x: i32, y: i32| {
            let c = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)];
            (0..4).map(move |i| (c[i], c[(i + 1) % 4]))
        };
        let edges: Vec<_> = cell(0, 0).chain(cell(1, 1)).collect();
        let rings = trace_rings(&edges);
        assert_eq!(rings.len(), 2, "{rings:?}");
        assert!(rings.iter().all(|r| r.len() == 4));
    }

    #[test]
    fn a_square_across_the_antimeridian_is_cut_in_two() {
        let ring = vec![[170.0, 0.0], [190.0, 0.0], [190.0, 10.0], [170.0, 10.0]];
        let polys = polygons(wrap_rings(vec![ring]));
        assert_eq!(polys.len(), 2, "{polys:?}");
        for p in &polys {
            assert!(signed_area2(&p.exterior) > 0.0);
            assert!(p.exterior.iter().all(|q| (-180.0..=180.0).contains(&q[0])));
        }
        let total: f64 = polys.iter().map(|p| signed_area2(&p.exterior)).sum();
        assert!((total - 400.0).abs() < 1e-9, "{total}");
    }

    #[test]
    fn an_edge_along_the_cut_leaves_no_sliver() {
        // A lake east of −180 whose west edge lies on it, with a hole
        // touching it from the east, and one across the line.
        for x0 in [-180.0, -185.0] {
            let outer = vec![[x0, 0.0], [-170.0, 0.0], [-170.0, 10.0], [x0, 10.0]];
            let hole = vec![[-180.0, 2.0], [-180.0, 4.0], [-175.0, 4.0], [-175.0, 2.0]];
            let polys = polygons(wrap_rings(vec![outer, hole]));
            let total: f64 = polys
                .iter()
                .map(|p| {
                    signed_area2(&p.exterior) + p.holes.iter().map(|h| signed_area2(h)).sum::<f64>()
                })
                .sum();
            let want = 2.0 * (10.0 * (-170.0 - x0) - 10.0);
            assert!((total - want).abs() < 1e-9, "{x0}: {total} {polys:?}");
            for p in &polys {
                assert!(
                    p.exterior.iter().all(|q| (-180.0..=180.0).contains(&q[0])),
                    "{p:?}"
                );
            }
        }
    }

    #[test]
    fn a_ring_around_the_pole_becomes_a_cap() {
        let ring: Vec<Pt> = (0..8)
            .map(|i| [-180.0 + 45.0 * f64::from(i) + 10.0, 80.0])
            .collect();
        let polys = polygons(wrap_rings(vec![unwrap_ring(&ring, 0.0)]));
        let total: f64 = polys.iter().map(|p| signed_area2(&p.exterior)).sum();
        assert!(
            (total - 2.0 * 360.0 * 10.0).abs() < 1e-6,
            "{total} {polys:?}"
        );
    }

    #[test]
    fn a_line_across_the_antimeridian_is_split_at_the_interpolated_crossing() {
        let parts = split_line(&[[170.0, 0.0], [-170.0, 10.0], [-160.0, 10.0]]);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0], vec![[170.0, 0.0], [180.0, 5.0]]);
        assert_eq!(parts[1][0], [-180.0, 5.0]);
    }
}
