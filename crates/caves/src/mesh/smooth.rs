//! Surface nets, written here rather than taken from `fast-surface-nets`
//! so that the ownership of edges (the seam contract), the vertex order,
//! the quantised positions and the sky value are ours to guarantee.
//!
//! Outline: mark rock (`d > 0`) per sample; for every owned voxel and axis
//! whose edge changes sign ([`make_quads`]), join the four cells around the
//! edge with a quad, creating each cell's vertex on first use
//! ([`cell_vertex`]): the mean of the cell's edge crossings, its normal the
//! negated density gradient, its sky from the cell's columns.

use super::{Mesh, box_open_heights, origin_of};
use crate::chunk::{Density, Samples};
use crate::field::CaveField;
use crate::sky::sky_at;

/// "No vertex yet" in the per-cell vertex table.
pub const NULL_VERTEX: u32 = u32::MAX;

/// In-cell offsets are rounded to multiples of 2⁻¹⁶ voxel.
const QUANTUM: f32 = 65536.0;

/// The 12 edges of a cell as pairs of corner numbers (bit 0: +x, bit 1:
/// +y, bit 2: +z).
const EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

/// The sampled grid and what the mesher derives from it.
struct Net<'a> {
    d: &'a [f32],
    size: [usize; 3],
    open: Vec<f32>,
    y0: i64,
    cells: Vec<u32>,
    mesh: Mesh,
}

/// Meshes a sampled box with surface nets.
pub fn smooth(field: &CaveField, samples: &Samples) -> Mesh {
    let origin = origin_of(samples);
    let Density::Grid(d) = &samples.density else {
        return Mesh {
            origin,
            ..Mesh::default()
        };
    };
    let size = samples.bounds.size;
    if size.iter().any(|&n| n < 3) {
        return Mesh {
            origin,
            ..Mesh::default()
        };
    }
    let mut net = Net {
        d,
        size,
        open: box_open_heights(field, samples),
        y0: samples.bounds.min[1],
        cells: vec![NULL_VERTEX; (size[0] - 1) * (size[1] - 1) * (size[2] - 1)],
        mesh: Mesh {
            origin,
            ..Mesh::default()
        },
    };
    make_quads(&mut net);
    net.mesh
}

impl Net<'_> {
    fn at(&self, i: usize, j: usize, k: usize) -> f32 {
        self.d[(k * self.size[1] + j) * self.size[0] + i]
    }
    fn solid(&self, v: [usize; 3]) -> bool {
        self.at(v[0], v[1], v[2]) > 0.0
    }
}

/// One quad per sign-changing edge that starts at an owned voxel.
fn make_quads(net: &mut Net) {
    let [nx, ny, nz] = net.size;
    for k in 1..nz - 1 {
        for j in 1..ny - 1 {
            for i in 1..nx - 1 {
                let v = [i, j, k];
                let here = net.solid(v);
                for axis in 0..3 {
                    let mut u = v;
                    u[axis] += 1;
                    if here != net.solid(u) {
                        quad(net, v, axis, here);
                    }
                }
            }
        }
    }
}

/// The quad around the edge from `v` along `axis`, facing the air.
fn quad(net: &mut Net, v: [usize; 3], axis: usize, rock_below: bool) {
    let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
    let (mut mb, mut mc, mut mbc) = (v, v, v);
    mb[b] -= 1;
    mc[c] -= 1;
    mbc[b] -= 1;
    mbc[c] -= 1;
    // Counter-clockwise seen from +axis: (+b+c), (−b+c), (−b−c), (+b−c).
    let ring = [v, mb, mbc, mc];
    let mut ids = ring.map(|cell| cell_vertex(net, cell));
    if !rock_below {
        ids.reverse();
    }
    net.mesh
        .indices
        .extend_from_slice(&[ids[0], ids[1], ids[2], ids[0], ids[2], ids[3]]);
}

/// The vertex of the cell with minimum corner `cell`, created on first use.
fn cell_vertex(net: &mut Net, cell: [usize; 3]) -> u32 {
    let [nx, ny, _] = net.size;
    let slot = (cell[2] * (ny - 1) + cell[1]) * (nx - 1) + cell[0];
    if net.cells[slot] != NULL_VERTEX {
        return net.cells[slot];
    }
    let corners: [f32; 8] = std::array::from_fn(|n| {
        net.at(
            cell[0] + (n & 1),
            cell[1] + ((n >> 1) & 1),
            cell[2] + ((n >> 2) & 1),
        )
    });
    let offset = centroid_of_crossings(&corners);
    let position: [f32; 3] = std::array::from_fn(|a| (cell[a] as f32 - 1.0) + offset[a]);
    let open = [(0, 0), (1, 0), (0, 1), (1, 1)]
        .iter()
        .map(|(di, dk)| net.open[(cell[2] + dk) * nx + cell[0] + di])
        .fold(f32::INFINITY, f32::min);
    let world_y = (net.y0 + 1) as f64 + position[1] as f64;
    let id = net.mesh.positions.len() as u32;
    net.mesh.positions.push(position);
    net.mesh.normals.push(normal(&corners));
    net.mesh.sky.push(sky_at(open, world_y));
    net.cells[slot] = id;
    id
}

/// Mean of the points where the cell's edges cross zero, rounded to the
/// quantum, in [0, 1]³.
fn centroid_of_crossings(c: &[f32; 8]) -> [f32; 3] {
    let mut sum = [0.0f32; 3];
    let mut count = 0u32;
    for &(p, q) in &EDGES {
        if (c[p] > 0.0) == (c[q] > 0.0) {
            continue;
        }
        let t = c[p] / (c[p] - c[q]);
        for (a, s) in sum.iter_mut().enumerate() {
            let (bp, bq) = (((p >> a) & 1) as f32, ((q >> a) & 1) as f32);
            *s += bp + t * (bq - bp);
        }
        count += 1;
    }
    sum.map(|s| (s / count as f32 * QUANTUM).round() / QUANTUM)
}

/// The negated, normalised density gradient of the cell: the difference of
/// opposite face sums on each axis.
fn normal(c: &[f32; 8]) -> [f32; 3] {
    let g: [f32; 3] = std::array::from_fn(|a| {
        let bit = 1 << a;
        (0..8)
            .filter(|n| n & bit == 0)
            .map(|n| c[n | bit] - c[n])
            .sum::<f32>()
    });
    let len = (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).sqrt();
    if len > 0.0 {
        g.map(|v| -v / len)
    } else {
        [0.0, 1.0, 0.0]
    }
}
