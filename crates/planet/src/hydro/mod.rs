//! Water on the coarse graph (`docs/planet.md`, "Stages"): flow
//! routing with depressions resolved, stream-power erosion, and the rivers
//! and lakes that chunks carve (generator version 3).
//!
//! Everything here runs on the sphere graph's nodes in f64 with total-order
//! keys, accumulates drainage in integers and iterates a fixed number of
//! times, so the result is the same on any machine and thread count.
//! - [`Mesh`]: node directions, neighbour lists and cell areas.
//! - [`routing`]: priority flood, steepest-descent receivers, the stack,
//!   integer drainage and lakes (with endorheic ones).
//! - [`balance`]: runoff by the Budyko curve, closed basins and their
//!   terminal lakes, ice.
//! - [`erosion`]: implicit stream power from the steady state, hillslope
//!   diffusion and the final routing.
//! - [`rivers`]: river segments with a water level that never rises
//!   downstream, Strahler orders, links and the cell → segment index.
//! - [`carve`]: what a river or lake does to one sample.
//! - [`streams`]: the creeks and rills below the rivers, per cell.
//! - [`geojson`]: rivers, lakes and basins as GeoJSON.

pub mod balance;
pub mod carve;
pub mod erosion;
pub mod geojson;
pub mod layers;
pub mod rivers;
pub mod routing;
pub mod streams;

use crate::geo::{Dir, cross};
use crate::graph::SphereGraph;
use rayon::prelude::*;

/// Seconds in a (Julian) year: discharges are kept in m³/yr and shown in m³/s.
pub const SECONDS_PER_YEAR: f64 = 31_557_600.0;

/// The graph's geometry in memory: node directions, the CSR neighbour
/// lists (sorted, 8 or 7 per node) and each cell's area in m².
#[derive(Clone, Debug)]
pub struct Mesh {
    /// The graph.
    pub graph: SphereGraph,
    /// Planet radius, metres.
    pub radius: f64,
    /// Node directions.
    pub dirs: Vec<Dir>,
    /// `start[k]..start[k + 1]` indexes node `k`'s neighbours in `adj`.
    pub start: Vec<u32>,
    /// Neighbour lists, concatenated in node order.
    pub adj: Vec<u32>,
    /// Cell areas, m² (planar quadrilateral through the cell's corners).
    pub area: Vec<f64>,
}

impl Mesh {
    /// Builds the mesh of `graph` on a planet of `radius` metres (rows in
    /// parallel, concatenated in order: the same on any thread count).
    pub fn new(graph: SphereGraph, radius: f64) -> Mesh {
        let n = graph.n();
        // Per row: directions, neighbours, degrees, areas.
        type Row = (Vec<Dir>, Vec<u32>, Vec<u8>, Vec<f64>);
        let rows: Vec<Row> = (0..6 * n)
            .into_par_iter()
            .map(|row| {
                let mut dirs = Vec::with_capacity(n as usize);
                let mut adj = Vec::with_capacity(8 * n as usize);
                let mut deg = Vec::with_capacity(n as usize);
                let mut area = Vec::with_capacity(n as usize);
                for k in row * n..(row + 1) * n {
                    dirs.push(graph.node(k));
                    let nb = graph.neighbours(k);
                    deg.push(nb.len() as u8);
                    adj.extend(nb);
                    let (face, i, j) = graph.cell(k);
                    let c = |a: f64, b: f64| {
                        graph.lattice_dir(face, f64::from(i) + a, f64::from(j) + b)
                    };
                    let (p0, p1, p2, p3) = (c(-0.5, -0.5), c(0.5, -0.5), c(0.5, 0.5), c(-0.5, 0.5));
                    let d1 = sub(p2, p0);
                    let d2 = sub(p3, p1);
                    let x = cross(d1, d2);
                    area.push(
                        0.5 * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt() * radius * radius,
                    );
                }
                (dirs, adj, deg, area)
            })
            .collect();
        let count = graph.len();
        let mut mesh = Mesh {
            graph,
            radius,
            dirs: Vec::with_capacity(count),
            start: Vec::with_capacity(count + 1),
            adj: Vec::with_capacity(8 * count),
            area: Vec::with_capacity(count),
        };
        mesh.start.push(0);
        for (dirs, adj, deg, area) in rows {
            mesh.dirs.extend(dirs);
            mesh.adj.extend(adj);
            mesh.area.extend(area);
            for d in deg {
                let last = *mesh.start.last().unwrap_or(&0);
                mesh.start.push(last + u32::from(d));
            }
        }
        mesh
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.dirs.len()
    }

    /// Whether it has no nodes (never for a real graph).
    pub fn is_empty(&self) -> bool {
        self.dirs.is_empty()
    }

    /// Node `k`'s neighbours, sorted by index.
    #[inline]
    pub fn neighbours(&self, k: u32) -> &[u32] {
        &self.adj[self.start[k as usize] as usize..self.start[k as usize + 1] as usize]
    }

    /// The straight-line distance between nodes `a` and `b`, metres.
    #[inline]
    pub fn dist(&self, a: u32, b: u32) -> f64 {
        let d = sub(self.dirs[a as usize], self.dirs[b as usize]);
        (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() * self.radius
    }
}

/// The area of node `k`'s cell on a sphere of `radius` metres, m²: the
/// planar quadrilateral through its corners (half the cross product of
/// its diagonals; only a square root, no trigonometry).
pub fn cell_area(graph: &SphereGraph, k: u32, radius: f64) -> f64 {
    let (face, i, j) = graph.cell(k);
    let c = |a: f64, b: f64| graph.lattice_dir(face, f64::from(i) + a, f64::from(j) + b);
    let x = cross(
        sub(c(0.5, 0.5), c(-0.5, -0.5)),
        sub(c(-0.5, 0.5), c(0.5, -0.5)),
    );
    0.5 * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt() * radius * radius
}

#[inline]
pub(crate) fn sub(a: Dir, b: Dir) -> Dir {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// A total order on f64 as u64 (IEEE bits, negatives flipped): heap and
/// sort keys never depend on how ties fall.
#[inline]
pub(crate) fn order_key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}
