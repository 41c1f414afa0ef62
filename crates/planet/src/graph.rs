//! The sphere graph (`docs/planet.md`, "The sphere graph"): the tangent-adjusted
//! cube with N × N cells per face, 6·N² nodes jittered inside their cells
//! by a hash, each with its 8 lattice neighbours (7 at the 8 cube
//! corners) sorted by index. A direction's cell is found in O(1) through
//! the tangent-cube projection, and fields on the nodes are interpolated
//! C1 (Catmull–Rom per face over a ghost ring) with a partition of unity
//! that blends the two faces' interpolants within one cell of a cube edge.

use crate::geo::Dir;
use crate::projection::CubeFace;
use crate::projection::cube::{unwarp, warp};
use crate::{PlanetError, Projection};
use mangekyo_core::hash::mix64;

/// How far a node may sit from its cell centre, as a fraction of the cell
/// (±3/8: the "0.75 jitter" of Red Blob's planet, and the node stays in
/// its own cell).
pub const JITTER: f64 = 0.375;

/// The graph of one planet: N and the jitter seed. Nodes and neighbours
/// are computed on demand (pure functions of the index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SphereGraph {
    n: u32,
    seed: u64,
}

impl SphereGraph {
    /// A graph of 6·n² cells, n in [`crate::GRAPH_N_RANGE`].
    pub fn new(n: u32, seed: u64) -> Result<SphereGraph, PlanetError> {
        if !crate::GRAPH_N_RANGE.contains(&n) {
            return Err(PlanetError::param(
                "graph_n",
                n,
                "in 16 ..= 1024 (cells along a cube-face edge of the sphere graph)",
            ));
        }
        Ok(SphereGraph { n, seed })
    }

    /// Cells along a face edge.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// Number of nodes, 6·N².
    pub fn len(&self) -> usize {
        6 * (self.n as usize) * (self.n as usize)
    }

    /// Whether the graph has no nodes (never).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of cell (face, i, j): face-major, then rows `j`, then `i`.
    pub fn index(&self, face: CubeFace, i: u32, j: u32) -> u32 {
        (face.index() as u32 * self.n + j) * self.n + i
    }

    /// The (face, i, j) of node `k`.
    pub fn cell(&self, k: u32) -> (CubeFace, u32, u32) {
        let n = self.n;
        let face = CubeFace::ALL[(k / (n * n)) as usize % 6];
        let r = k % (n * n);
        (face, r % n, r / n)
    }

    /// The tangent-cube map coordinate of lattice position `x` (cell
    /// centres at integers, any real `x`, also outside the face).
    #[inline]
    fn map_coord(&self, x: f64) -> f64 {
        (2.0 * x + 1.0) / f64::from(self.n) - 1.0
    }

    /// The cell-centre lattice position of map coordinate `u`.
    #[inline]
    fn lattice_coord(&self, u: f64) -> f64 {
        0.5 * (u + 1.0) * f64::from(self.n) - 0.5
    }

    /// The direction of lattice point (x, y) of `face` (extended past the
    /// face's edges by the tangent warp, so ghost points land on the
    /// neighbouring face).
    pub fn lattice_dir(&self, face: CubeFace, x: f64, y: f64) -> Dir {
        face.combine(warp(self.map_coord(x)), warp(self.map_coord(y)))
    }

    /// Node `k`'s direction: its cell centre moved by a hashed jitter.
    pub fn node(&self, k: u32) -> Dir {
        let (face, i, j) = self.cell(k);
        let h = mix64(self.seed ^ mix64(u64::from(k) ^ 0x6a09_e667_f3bc_c908));
        let ju = ((h >> 40) as f64 / (1u64 << 24) as f64 - 0.5) * 2.0 * JITTER;
        let jv = (((h >> 16) & 0xff_ffff) as f64 / (1u64 << 24) as f64 - 0.5) * 2.0 * JITTER;
        self.lattice_dir(face, f64::from(i) + ju, f64::from(j) + jv)
    }

    /// The cell holding direction `d`, in O(1).
    pub fn locate(&self, d: Dir) -> u32 {
        let p = Projection::TangentCube.forward(d);
        let face = p.face.unwrap_or(CubeFace::PosX);
        let n = f64::from(self.n);
        let cell = |u: f64| ((0.5 * (u + 1.0) * n).floor().max(0.0) as u32).min(self.n - 1);
        self.index(face, cell(p.u), cell(p.v))
    }

    /// Node `k`'s neighbours, sorted by index, without duplicates: 8, or 7
    /// at the cube corners (where two lattice steps reach one cell).
    pub fn neighbours(&self, k: u32) -> Vec<u32> {
        let (face, i, j) = self.cell(k);
        let n = self.n as i64;
        let mut out = Vec::with_capacity(8);
        for dj in -1i64..=1 {
            for di in -1i64..=1 {
                if di == 0 && dj == 0 {
                    continue;
                }
                let (x, y) = (i as i64 + di, j as i64 + dj);
                let m = if (0..n).contains(&x) && (0..n).contains(&y) {
                    self.index(face, x as u32, y as u32)
                } else {
                    self.locate(self.lattice_dir(face, x as f64, y as f64))
                };
                if m != k {
                    out.push(m);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The node standing for lattice point (x, y) of `face`: ghost points
    /// past the face's edges read the cell that holds them.
    #[inline]
    fn node_at(&self, face: CubeFace, x: i64, y: i64) -> u32 {
        let n = self.n as i64;
        if (0..n).contains(&x) && (0..n).contains(&y) {
            self.index(face, x as u32, y as u32)
        } else {
            self.locate(self.lattice_dir(face, x as f64, y as f64))
        }
    }

    /// Catmull–Rom (C1) on `face` at map coordinates (u, v), which may lie
    /// a little past the face's edges; `ghosts` answers ghost points
    /// (every answer equals [`SphereGraph::node_at`]'s).
    fn bicubic<const K: usize, F: FnMut(u32) -> [f64; K] + ?Sized>(
        &self,
        ghosts: Option<&Ghosts>,
        value: &mut F,
        face: CubeFace,
        u: f64,
        v: f64,
    ) -> [f64; K] {
        let (x, y) = (self.lattice_coord(u), self.lattice_coord(v));
        let (x0, y0) = (x.floor(), y.floor());
        let (wx, wy) = (catmull_rom(x - x0), catmull_rom(y - y0));
        let (x0, y0) = (x0 as i64, y0 as i64);
        let n = i64::from(self.n);
        // Most stencils lie inside the face: their nodes are a 4 × 4 block
        // of indices, with no ghost or edge lookups (the same nodes, so
        // the same bits).
        let inside = x0 >= 1 && y0 >= 1 && x0 + 2 < n && y0 + 2 < n;
        let mut sum = [0.0; K];
        for (b, wyb) in wy.iter().enumerate() {
            let mut row = [0.0; K];
            for (a, wxa) in wx.iter().enumerate() {
                let (x, y) = (x0 - 1 + a as i64, y0 - 1 + b as i64);
                let node = if inside {
                    self.index(face, x as u32, y as u32)
                } else {
                    match ghosts.and_then(|g| g.get(face, x, y)) {
                        Some(k) => k,
                        None => self.node_at(face, x, y),
                    }
                };
                let v = value(node);
                for c in 0..K {
                    row[c] += wxa * v[c];
                }
            }
            for c in 0..K {
                sum[c] += wyb * row[c];
            }
        }
        sum
    }

    /// A node field (one value per node, in index order; the value is
    /// taken to stand at its cell centre) at direction `d`: C1 inside a
    /// face; within one cell of a cube edge the two faces' interpolants
    /// are blended with weights that sum to 1 and meet at ½ on the edge,
    /// so the field has no crease there. Near the 8 corners the nearer
    /// edge decides. `values` must have [`SphereGraph::len`] entries.
    pub fn interpolate(&self, values: &[f32], d: Dir) -> Result<f64, PlanetError> {
        if values.len() != self.len() {
            return Err(PlanetError::address(
                "values",
                values.len(),
                format!("{} (one per node)", self.len()),
            ));
        }
        Ok(self.interpolate_with(&mut |k| f64::from(values[k as usize]), d))
    }

    /// The nodes [`SphereGraph::interpolate`] reads at `d`, sorted: enough
    /// to interpolate at a few points without the whole field.
    pub fn stencil(&self, d: Dir) -> Vec<u32> {
        let mut nodes = Vec::with_capacity(32);
        self.interpolate_with(
            &mut |k| {
                nodes.push(k);
                0.0
            },
            d,
        );
        nodes.sort_unstable();
        nodes.dedup();
        nodes
    }

    /// [`SphereGraph::interpolate`] of a field given as a function of the
    /// node index.
    pub fn interpolate_with(&self, value: &mut dyn FnMut(u32) -> f64, d: Dir) -> f64 {
        self.locate_and_interpolate(None, value, d).1
    }

    /// [`SphereGraph::locate`] and [`SphereGraph::interpolate_with`] at
    /// once (one projection), with ghost points from a table built by
    /// [`Ghosts::new`] for this graph: the same bits, faster near faces'
    /// edges.
    pub fn locate_and_interpolate(
        &self,
        ghosts: Option<&Ghosts>,
        value: &mut dyn FnMut(u32) -> f64,
        d: Dir,
    ) -> (u32, f64) {
        let (cell, [v]) = self.locate_and_interpolate_n(ghosts, &mut |k| [value(k)], d);
        (cell, v)
    }

    /// [`SphereGraph::locate_and_interpolate`] of `K` fields at once (one
    /// projection and one set of weights): each component has exactly the
    /// bits the one-field call gives.
    pub fn locate_and_interpolate_n<const K: usize, F: FnMut(u32) -> [f64; K] + ?Sized>(
        &self,
        ghosts: Option<&Ghosts>,
        value: &mut F,
        d: Dir,
    ) -> (u32, [f64; K]) {
        self.locate_and_interpolate_n_at(ghosts, value, d, Projection::TangentCube.forward(d))
    }

    /// [`SphereGraph::locate_and_interpolate_n`] with `p`, `d`'s
    /// tangent-cube point, from the caller: one projection serves every
    /// graph a sample reads (the same point, so the same bits).
    pub(crate) fn locate_and_interpolate_n_at<
        const K: usize,
        F: FnMut(u32) -> [f64; K] + ?Sized,
    >(
        &self,
        ghosts: Option<&Ghosts>,
        value: &mut F,
        d: Dir,
        p: crate::MapPoint,
    ) -> (u32, [f64; K]) {
        let face = p.face.unwrap_or(CubeFace::PosX);
        let n = f64::from(self.n);
        let cell = |u: f64| ((0.5 * (u + 1.0) * n).floor().max(0.0) as u32).min(self.n - 1);
        let located = self.index(face, cell(p.u), cell(p.v));
        (
            located,
            self.interpolate_projected(ghosts, value, d, face, p.u, p.v),
        )
    }

    fn interpolate_projected<const K: usize, F: FnMut(u32) -> [f64; K] + ?Sized>(
        &self,
        ghosts: Option<&Ghosts>,
        value: &mut F,
        d: Dir,
        face: CubeFace,
        pu: f64,
        pv: f64,
    ) -> [f64; K] {
        let p = crate::MapPoint {
            face: Some(face),
            u: pu,
            v: pv,
        };
        let own = self.bicubic(ghosts, value, face, p.u, p.v);
        let half = 0.5 * f64::from(self.n);
        // Distance in cells to the nearest face edge, and that edge's side.
        let edges = [
            (1.0 - p.u, 1usize, 1.0),
            (1.0 + p.u, 1, -1.0),
            (1.0 - p.v, 2, 1.0),
            (1.0 + p.v, 2, -1.0),
        ];
        let mut nearest = edges[0];
        for e in edges {
            if e.0 < nearest.0 {
                nearest = e;
            }
        }
        let t = nearest.0 * half;
        if t >= 1.0 {
            return own;
        }
        // The face across that edge: its normal is this face's right
        // (u) or down (v) axis, with the edge's sign.
        let axis = face.axes()[nearest.1];
        let sign = nearest.2;
        let other = CubeFace::of([axis[0] * sign, axis[1] * sign, axis[2] * sign]);
        let (a, b) = other.plane_coords(d);
        let theirs = self.bicubic(ghosts, value, other, unwarp(a), unwarp(b));
        let s = t * t * (3.0 - 2.0 * t);
        let w = 0.5 + 0.5 * s;
        std::array::from_fn(|c| w * own[c] + (1.0 - w) * theirs[c])
    }
}

/// Rings of ghost points [`Ghosts`] holds past each face edge (bicubic
/// reads up to three: a point within a cell of the edge, seen from the
/// neighbouring face, lies up to 1.5 cells past it).
const GHOST_RINGS: i64 = 3;

/// The nodes standing for the lattice points just past every face's edges
/// (each found by projecting it to the face that holds it), tabulated once:
/// interpolating near cube edges then costs no trigonometry per point.
#[derive(Clone, Debug)]
pub struct Ghosts {
    n: i64,
    per_face: usize,
    table: Vec<u32>,
}

impl Ghosts {
    /// The table of `graph`: three rings around each face, about 72·N
    /// entries.
    pub fn new(graph: &SphereGraph) -> Ghosts {
        let n = i64::from(graph.n());
        let (r, w) = (GHOST_RINGS, i64::from(graph.n()) + 2 * GHOST_RINGS);
        let per_face = (2 * r * w + 2 * n * r) as usize;
        let mut g = Ghosts {
            n,
            per_face,
            table: vec![0; 6 * per_face],
        };
        for face in CubeFace::ALL {
            for y in -r..n + r {
                for x in -r..n + r {
                    if let Some(i) = g.slot(face, x, y) {
                        g.table[i] = graph.node_at(face, x, y);
                    }
                }
            }
        }
        g
    }

    /// Where ghost point (x, y) of `face` sits in the table, if it does.
    fn slot(&self, face: CubeFace, x: i64, y: i64) -> Option<usize> {
        let (n, r) = (self.n, GHOST_RINGS);
        let w = n + 2 * r;
        if !(-r..n + r).contains(&x) || !(-r..n + r).contains(&y) {
            return None;
        }
        let local = if y < 0 {
            (y + r) * w + x + r
        } else if y >= n {
            r * w + (y - n) * w + x + r
        } else if x < 0 {
            2 * r * w + y * r + x + r
        } else if x >= n {
            2 * r * w + n * r + y * r + x - n
        } else {
            return None;
        };
        Some(face.index() * self.per_face + local as usize)
    }

    /// The node of ghost point (x, y) of `face`, when tabulated.
    #[inline]
    fn get(&self, face: CubeFace, x: i64, y: i64) -> Option<u32> {
        self.slot(face, x, y).map(|i| self.table[i])
    }
}

/// Catmull–Rom weights of the four lattice points around fraction `t`.
#[inline]
fn catmull_rom(t: f64) -> [f64; 4] {
    let t2 = t * t;
    let t3 = t2 * t;
    [
        0.5 * (-t3 + 2.0 * t2 - t),
        0.5 * (3.0 * t3 - 5.0 * t2 + 2.0),
        0.5 * (-3.0 * t3 + 4.0 * t2 + t),
        0.5 * (t3 - t2),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::{dot, normalise};

    #[test]
    fn nodes_lie_in_their_cells_and_neighbours_are_symmetric() {
        let g = SphereGraph::new(16, 7).unwrap();
        assert_eq!(g.len(), 1536);
        let mut sevens = 0;
        for k in 0..g.len() as u32 {
            assert_eq!(g.locate(g.node(k)), k, "node {k}");
            let nb = g.neighbours(k);
            assert!(nb.windows(2).all(|w| w[0] < w[1]), "{k}: {nb:?}");
            assert!(nb.len() == 8 || nb.len() == 7, "{k}: {nb:?}");
            sevens += usize::from(nb.len() == 7);
            for &m in &nb {
                assert!(g.neighbours(m).contains(&k), "{k} → {m} not mutual");
            }
        }
        assert_eq!(sevens, 24, "3 cells meet at each of 8 corners");
    }

    #[test]
    fn the_ghost_table_changes_no_bit() {
        let g = SphereGraph::new(20, 5).unwrap();
        let ghosts = Ghosts::new(&g);
        let field: Vec<f32> = (0..g.len()).map(|k| ((k * 37) % 101) as f32).collect();
        for s in 0..20_000 {
            let t = s as f64 * 0.618_033_988_75;
            let d = normalise([
                libm::sin(t * 3.1),
                libm::cos(t * 1.7),
                libm::sin(t * 0.9 + 1.0),
            ]);
            let mut value = |k: u32| f64::from(field[k as usize]);
            let plain = g.interpolate_with(&mut value, d);
            let (cell, fast) = g.locate_and_interpolate(Some(&ghosts), &mut value, d);
            assert_eq!(plain.to_bits(), fast.to_bits(), "{d:?}");
            assert_eq!(cell, g.locate(d));
        }
    }

    #[test]
    fn interpolation_is_a_partition_of_unity_and_smooth_across_edges() {
        let g = SphereGraph::new(24, 1).unwrap();
        let ones = vec![1.0f32; g.len()];
        let smooth: Vec<f32> = (0..g.len() as u32)
            .map(|k| {
                let (f, i, j) = g.cell(k);
                let c = g.lattice_dir(f, f64::from(i), f64::from(j));
                (3.0 * c[0] + 2.0 * c[1] * c[2]) as f32
            })
            .collect();
        let mut worst = 0.0f64;
        for s in 0..4000 {
            let t = s as f64 * 0.618_033_988_75;
            let d = normalise([
                libm::sin(t * 3.1),
                libm::cos(t * 1.7),
                libm::sin(t * 0.9 + 1.0),
            ]);
            let one = g.interpolate(&ones, d).unwrap();
            assert!((one - 1.0).abs() < 1e-12, "{d:?}: {one}");
            let f = g.interpolate(&smooth, d).unwrap();
            worst = worst.max((f - (3.0 * d[0] + 2.0 * d[1] * d[2])).abs());
        }
        // Cells are ~0.065 rad and |∇f| ≤ 3.6; ghost points take the value
        // of the cell that holds them (not of the ghost point itself), so
        // near edges the error is of the order of a cell times the slope.
        assert!(worst < 0.1, "interpolation error {worst}");
        // Across a cube edge: tiny steps give tiny changes (no jump).
        for v in [-0.7, 0.0, 0.4] {
            let left = normalise([1.0, 1.0 - 1e-9, v]);
            let right = normalise([1.0 - 1e-9, 1.0, v]);
            assert!(dot(left, right) > 1.0 - 1e-15);
            let (a, b) = (
                g.interpolate(&smooth, left).unwrap(),
                g.interpolate(&smooth, right).unwrap(),
            );
            assert!((a - b).abs() < 1e-6, "edge jump at v={v}: {a} vs {b}");
        }
        assert!(SphereGraph::new(15, 0).is_err());
        assert!(g.interpolate(&ones[1..], [1.0, 0.0, 0.0]).is_err());
    }
}
