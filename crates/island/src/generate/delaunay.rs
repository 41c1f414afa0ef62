//! Step 4: the Delaunay triangulation, pinned to one answer even where
//! Delaunay is not unique.
//!
//! Four or more co-circular sites (a regular ring, a square grid) have
//! several Delaunay triangulations; which one a library returns depends on
//! its insertion order and float rounding, i.e. on its version. We fix the
//! answer by a documented tie-break, *symbolic perturbation*: site `i` is
//! lifted onto the paraboloid `z = x² + y²` plus an infinitesimal `εᵢ`, with
//! `ε₀ ≫ ε₁ ≫ …` (lower ids perturbed more). The lifted points are in general
//! position, so their lower hull, the triangulation we return, is unique.
//! Concretely, when the exact in-circle determinant is 0 its sign is taken
//! from the perturbation term of the lowest-id point whose cofactor is not
//! zero (the cofactor of point `p` is ± the orientation of the other three).
//!
//! How it is computed: `delaunator` (O(n log n), exact orientation) gives a
//! triangulation; Lawson flips with the exact, perturbed in-circle test
//! (`robust`) then turn it into *the* one. On points in general position the
//! flips find nothing to do. The result depends only on the coordinates and
//! ids, never on delaunator's version; tests compare it with a brute-force
//! oracle of the same definition.

use crate::GenerateError;
use delaunator::{EMPTY, Point};
use robust::{Coord, incircle, orient2d};

/// A triangulation: counter-clockwise triangles (y up) and the undirected
/// edges, both in a canonical sorted order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Triangulation {
    /// Triangles as vertex ids, counter-clockwise, rotated so the smallest id
    /// comes first, sorted.
    pub triangles: Vec<[u32; 3]>,
    /// Edges `(a, b)` with `a < b`, sorted.
    pub edges: Vec<(u32, u32)>,
}

fn coord(p: [f64; 2]) -> Coord<f64> {
    Coord { x: p[0], y: p[1] }
}

/// `orient2d` sign: > 0 when `a, b, c` turn counter-clockwise (y up).
fn orient(pts: &[[f64; 2]], a: u32, b: u32, c: u32) -> f64 {
    orient2d(
        coord(pts[a as usize]),
        coord(pts[b as usize]),
        coord(pts[c as usize]),
    )
}

/// Whether `d` lies strictly inside the circle through the counter-clockwise
/// `a, b, c`, with co-circular ties broken by the symbolic perturbation of
/// the module doc.
pub fn in_circle_perturbed(pts: &[[f64; 2]], a: u32, b: u32, c: u32, d: u32) -> bool {
    let p = |i: u32| coord(pts[i as usize]);
    let det = incircle(p(a), p(b), p(c), p(d));
    if det != 0.0 {
        return det > 0.0;
    }
    // d(det)/d(z_p) for each row p of the lifted 4×4 determinant.
    let mut terms = [
        (a, orient(pts, b, c, d)),
        (b, -orient(pts, a, c, d)),
        (c, orient(pts, a, b, d)),
        (d, -orient(pts, a, b, c)),
    ];
    terms.sort_by_key(|t| t.0);
    terms.iter().find(|t| t.1 != 0.0).is_some_and(|t| t.1 > 0.0)
}

/// The canonical Delaunay triangulation of distinct points.
pub fn triangulate(pts: &[[f64; 2]]) -> Result<Triangulation, GenerateError> {
    if pts.len() >= 1 << 21 {
        return Err(GenerateError::Triangulation(format!(
            "{} points; at most 2^21 - 1 are supported",
            pts.len()
        )));
    }
    if pts.len() < 3 {
        let edges = if pts.len() == 2 {
            vec![(0, 1)]
        } else {
            Vec::new()
        };
        return Ok(Triangulation {
            triangles: Vec::new(),
            edges,
        });
    }
    let points: Vec<Point> = pts.iter().map(|p| Point { x: p[0], y: p[1] }).collect();
    let raw = delaunator::triangulate(&points);
    if raw.triangles.is_empty() {
        return Ok(collinear(&raw.hull));
    }
    let mut mesh = Mesh::from_triangles(pts, &raw)?;
    mesh.flip_to_delaunay(pts);
    Ok(mesh.canonical())
}

/// All points on one line: the chain along the line is the triangulation's
/// edge set (there are no triangles).
fn collinear(hull: &[usize]) -> Triangulation {
    let mut edges: Vec<(u32, u32)> = hull
        .windows(2)
        .map(|w| (w[0].min(w[1]) as u32, w[0].max(w[1]) as u32))
        .collect();
    edges.sort_unstable();
    edges.dedup();
    Triangulation {
        triangles: Vec::new(),
        edges,
    }
}

/// Triangles with half-edge twins: half-edge `e` runs from `tri[e]` to
/// `tri[next(e)]` inside triangle `e / 3`.
struct Mesh {
    tri: Vec<u32>,
    twin: Vec<usize>,
}

fn next(e: usize) -> usize {
    if e % 3 == 2 { e - 2 } else { e + 1 }
}

fn prev(e: usize) -> usize {
    if e.is_multiple_of(3) { e + 2 } else { e - 1 }
}

impl Mesh {
    /// Reorients delaunator's triangles counter-clockwise (y up), keeping
    /// its half-edge twins, and checks that every point is a vertex.
    fn from_triangles(
        pts: &[[f64; 2]],
        raw: &delaunator::Triangulation,
    ) -> Result<Mesh, GenerateError> {
        let mut tri: Vec<u32> = raw.triangles.iter().map(|&v| v as u32).collect();
        let mut used = vec![false; pts.len()];
        let mut flipped = 0usize;
        for t in tri.chunks_exact_mut(3) {
            let o = orient(pts, t[0], t[1], t[2]);
            if o == 0.0 {
                return Err(GenerateError::Triangulation(format!(
                    "degenerate triangle {t:?}"
                )));
            }
            if o < 0.0 {
                // (a, b, c) → (a, c, b): slot k now holds the reverse of
                // old half-edge 2 − k.
                t.swap(1, 2);
                flipped += 1;
            }
            t.iter().for_each(|&v| used[v as usize] = true);
        }
        if let Some(missing) = used.iter().position(|u| !u) {
            return Err(GenerateError::Triangulation(format!(
                "site {missing} at {:?} coincides with another site",
                pts[missing]
            )));
        }
        let twin = if flipped == 0 || flipped == tri.len() / 3 {
            let map = |e: usize| {
                if flipped == 0 {
                    e
                } else {
                    e - e % 3 + (2 - e % 3)
                }
            };
            let mut twin = vec![EMPTY; tri.len()];
            for (e, &o) in raw.halfedges.iter().enumerate() {
                twin[map(e)] = if o == EMPTY { EMPTY } else { map(o) };
            }
            twin
        } else {
            pair_by_sorting(&tri)
        };
        Ok(Mesh { tri, twin })
    }

    /// Whether the edge of half-edge `e` fails the (perturbed) empty-circle
    /// test against the opposite triangle.
    fn illegal(&self, pts: &[[f64; 2]], e: usize) -> bool {
        let o = self.twin[e];
        if o == EMPTY {
            return false;
        }
        let (p0, p1, pa) = (self.tri[e], self.tri[next(e)], self.tri[prev(e)]);
        let pb = self.tri[prev(o)];
        in_circle_perturbed(pts, p0, p1, pa, pb)
    }

    /// Lawson's flip algorithm: flip illegal edges until none is left. The
    /// perturbed predicate is a lifting, so every flip lowers the lifted
    /// surface and the process ends at the unique lower hull.
    fn flip_to_delaunay(&mut self, pts: &[[f64; 2]]) {
        let mut stack: Vec<usize> = (0..self.tri.len())
            .filter(|&e| self.twin[e] != EMPTY && e < self.twin[e])
            .collect();
        while let Some(e) = stack.pop() {
            if self.illegal(pts, e) {
                let b = self.twin[e];
                self.flip(e);
                stack.extend([e, next(e), b, next(b)]);
            }
        }
    }

    /// Replaces the diagonal `p0–p1` of the quad `p0, pB, p1, pA` by `pA–pB`.
    fn flip(&mut self, a: usize) {
        let (an, ap) = (next(a), prev(a));
        let b = self.twin[a];
        let (bn, bp) = (next(b), prev(b));
        let (p0, p1, pa, pb) = (self.tri[a], self.tri[an], self.tri[ap], self.tri[bp]);
        let (t_an, t_ap, t_bn, t_bp) = (self.twin[an], self.twin[ap], self.twin[bn], self.twin[bp]);
        // Triangle (pA, p0, pB) in a's slots, (pB, p1, pA) in b's.
        self.tri[a] = pa;
        self.tri[an] = p0;
        self.tri[ap] = pb;
        self.tri[b] = pb;
        self.tri[bn] = p1;
        self.tri[bp] = pa;
        self.link(a, t_ap);
        self.link(an, t_bn);
        self.link(b, t_bp);
        self.link(bn, t_an);
        self.link(ap, bp);
    }

    fn link(&mut self, e: usize, o: usize) {
        self.twin[e] = o;
        if o != EMPTY {
            self.twin[o] = e;
        }
    }

    /// Sorted triangles and edges, sorted as packed integers (ids are
    /// below 2²¹ by `MAX_SITE_COUNT`, so three fit a u64).
    fn canonical(&self) -> Triangulation {
        let mut tri_keys: Vec<u64> = self
            .tri
            .chunks_exact(3)
            .map(|t| {
                let r = (0..3).min_by_key(|&i| t[i]).unwrap_or(0);
                let (a, b, c) = (t[r], t[(r + 1) % 3], t[(r + 2) % 3]);
                (u64::from(a) << 42) | (u64::from(b) << 21) | u64::from(c)
            })
            .collect();
        tri_keys.sort_unstable();
        let mask = (1u64 << 21) - 1;
        let triangles = tri_keys
            .iter()
            .map(|&k| {
                [
                    (k >> 42) as u32,
                    ((k >> 21) & mask) as u32,
                    (k & mask) as u32,
                ]
            })
            .collect();
        let mut edge_keys: Vec<u64> = (0..self.tri.len())
            .filter(|&e| self.twin[e] == EMPTY || e < self.twin[e])
            .map(|e| {
                let (a, b) = (self.tri[e], self.tri[next(e)]);
                (u64::from(a.min(b)) << 32) | u64::from(a.max(b))
            })
            .collect();
        edge_keys.sort_unstable();
        let edges = edge_keys
            .iter()
            .map(|&k| ((k >> 32) as u32, k as u32))
            .collect();
        Triangulation { triangles, edges }
    }
}

/// Twins by sorting half-edges on their endpoints (used only if a backend
/// ever mixed orientations).
fn pair_by_sorting(tri: &[u32]) -> Vec<usize> {
    let mut keyed: Vec<(u32, u32, usize)> = (0..tri.len())
        .map(|e| (tri[e].min(tri[next(e)]), tri[e].max(tri[next(e)]), e))
        .collect();
    keyed.sort_unstable();
    let mut twin = vec![EMPTY; tri.len()];
    for w in keyed.windows(2) {
        if (w[0].0, w[0].1) == (w[1].0, w[1].1) {
            twin[w[0].2] = w[1].2;
            twin[w[1].2] = w[0].2;
        }
    }
    twin
}

#[cfg(test)]
mod tests;
