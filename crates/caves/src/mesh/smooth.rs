//! Surface nets, written here rather than taken from `fast-surface-nets`
//! so that the ownership of edges (the seam contract), the vertex order,
//! the quantised positions and the sky value are ours to guarantee.
//!
//! Outline: mark rock (`d > 0`) as one byte per sample; for every owned
//! voxel and axis whose edge changes sign ([`make_quads`]; rows without
//! any change are skipped by one vectorised test), join the four cells
//! around the edge with a quad, creating each cell's vertex on first use
//! ([`cell_vertex`]): the mean of the cell's edge crossings, its normal
//! the negated density gradient, its sky from the cell's columns.
//!
//! All indexing is by linear sample index with precomputed strides: the
//! first version indexed `[usize; 3]` arrays by a runtime axis, which
//! kept them in memory and cost a store-forwarding stall per voxel.

use super::{Mesh, Mesher, box_open_heights, origin_of};
use crate::chunk::{Density, Samples};
use crate::field::CaveField;
use crate::sky::sky_at;

/// "No vertex yet" in the per-cell vertex table.
pub(super) const NULL_VERTEX: u32 = u32::MAX;

/// In-cell offsets in [0, 1] are rounded to multiples of 2⁻¹⁶ voxel by
/// adding and subtracting 128, whose f32 ulp is exactly 2⁻¹⁶ (round to
/// nearest even; two additions instead of a libm `roundf` call).
const QUANTISER: f32 = 128.0;

/// The sampled grid and what the mesher derives from it.
struct Net<'a> {
    d: &'a [f32],
    /// 1 where the sample is rock.
    rock: &'a [u8],
    size: [usize; 3],
    /// Linear strides of the samples along x, y, z.
    stride: [usize; 3],
    open: Vec<f32>,
    y0: i64,
    /// Vertex of each cell of the two cell slices a voxel slice's quads
    /// touch (`k` and `k − 1`), slice `k` at `(k mod 2) · slice`.
    cells: &'a mut Vec<u32>,
    /// Cells in one z slice.
    slice: usize,
    mesh: &'a mut Mesh,
}

/// Meshes a sampled box with surface nets.
pub fn smooth(field: &CaveField, samples: &Samples) -> Mesh {
    let mut mesh = Mesh::default();
    Mesher::new().smooth_into(field, samples, &mut mesh);
    mesh
}

/// Surface nets of `samples` into `mesh` (cleared first), with the
/// mesher's buffers.
pub(super) fn smooth_into(m: &mut Mesher, field: &CaveField, samples: &Samples, mesh: &mut Mesh) {
    mesh.reset(origin_of(samples));
    let Density::Grid(d) = &samples.density else {
        return;
    };
    let size = samples.bounds.size;
    if size.iter().any(|&n| n < 3) {
        return;
    }
    let [nx, ny, _] = size;
    let stride = [1, nx, nx * ny];
    rock_bytes(d, &mut m.rock);
    edge_changes(&m.rock, stride, &mut m.changes);
    m.cells.clear();
    m.cells.resize(2 * (nx - 1) * (ny - 1), NULL_VERTEX);
    let mut net = Net {
        d,
        rock: &m.rock,
        size,
        stride,
        open: box_open_heights(field, samples),
        y0: samples.bounds.min[1],
        cells: &mut m.cells,
        slice: (nx - 1) * (ny - 1),
        mesh,
    };
    make_quads(&mut net, &m.changes, &mut m.rows);
}

/// 1 where a sample is rock, 0 where it is air, into `rock`.
pub(super) fn rock_bytes(d: &[f32], rock: &mut Vec<u8>) {
    rock.clear();
    rock.extend(d.iter().map(|&v| (v > 0.0) as u8));
}

/// Per sample, how many of its three forward edges change sign (0 for
/// the last x-y slab, whose forward samples lie outside the box): one
/// flat pass over byte slices at three offsets, which vectorises.
fn edge_changes(rock: &[u8], stride: [usize; 3], out: &mut Vec<u8>) {
    let n = rock.len() - stride[2];
    out.clear();
    out.resize(rock.len(), 0);
    let (h, x, y, z) = (
        &rock[..n],
        &rock[stride[0]..stride[0] + n],
        &rock[stride[1]..stride[1] + n],
        &rock[stride[2]..],
    );
    for (o, (((&h, &x), &y), &z)) in out.iter_mut().zip(h.iter().zip(x).zip(y).zip(z)) {
        *o = (h ^ x) + (h ^ y) + (h ^ z);
    }
}

/// One quad per sign-changing edge that starts at an owned voxel. A first
/// pass counts the sign changes per row (into `rows`), so the mesh grows
/// once and rows without any are skipped.
fn make_quads(net: &mut Net, changes: &[u8], rows: &mut Vec<u32>) {
    let [nx, ny, nz] = net.size;
    let stride = net.stride;
    let owned_row = |j: usize, k: usize| &changes[k * stride[2] + j * stride[1] + 1..][..nx - 2];
    rows.clear();
    rows.extend(
        (1..nz - 1)
            .flat_map(|k| (1..ny - 1).map(move |j| (j, k)))
            .map(|(j, k)| owned_row(j, k).iter().map(|&c| c as u32).sum::<u32>()),
    );
    let quads = rows.iter().map(|&n| n as usize).sum::<usize>();
    // Each vertex is shared by about four quads of four vertices each.
    let m = &mut *net.mesh;
    m.indices.reserve(6 * quads);
    m.positions.reserve(quads + quads / 8);
    m.normals.reserve(quads + quads / 8);
    m.sky.reserve(quads + quads / 8);
    for k in 1..nz - 1 {
        // Cell slice k takes the place of slice k − 2, no longer touched.
        let ring = (k % 2) * net.slice;
        net.cells[ring..ring + net.slice].fill(NULL_VERTEX);
        for j in 1..ny - 1 {
            if rows[(k - 1) * (ny - 2) + j - 1] == 0 {
                continue;
            }
            let row = k * stride[2] + j * stride[1];
            for i in 1..nx - 1 {
                if changes[row + i] == 0 {
                    continue;
                }
                let p = row + i;
                let here = net.rock[p];
                for (axis, s) in stride.iter().enumerate() {
                    if here != net.rock[p + s] {
                        quad(net, [i, j, k], axis, here != 0);
                    }
                }
            }
        }
    }
}

/// The quad around the edge from voxel `v` along `axis`, facing the air.
fn quad(net: &mut Net, v: [usize; 3], axis: usize, rock_below: bool) {
    let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
    let (mut mb, mut mc, mut mbc) = (v, v, v);
    mb[b] -= 1;
    mc[c] -= 1;
    mbc[b] -= 1;
    mbc[c] -= 1;
    // Counter-clockwise seen from +axis: (+b+c), (−b+c), (−b−c), (+b−c).
    // Four plain calls: `array::map` here was left un-inlined (a quarter
    // of the mesher's time went to its closure wrapper).
    let mut ids = [
        cell_vertex(net, v),
        cell_vertex(net, mb),
        cell_vertex(net, mbc),
        cell_vertex(net, mc),
    ];
    if !rock_below {
        ids.reverse();
    }
    net.mesh
        .indices
        .extend_from_slice(&[ids[0], ids[1], ids[2], ids[0], ids[2], ids[3]]);
}

/// The vertex of the cell with minimum corner `cell`, created on first use.
#[inline(always)]
fn cell_vertex(net: &mut Net, cell: [usize; 3]) -> u32 {
    let slot = (cell[2] % 2) * net.slice + cell[1] * (net.size[0] - 1) + cell[0];
    match net.cells[slot] {
        NULL_VERTEX => {
            let id = new_vertex(net, cell);
            net.cells[slot] = id;
            id
        }
        id => id,
    }
}

/// Creates the vertex of the cell with minimum corner `cell`.
#[inline(never)]
fn new_vertex(net: &mut Net, cell: [usize; 3]) -> u32 {
    let nx = net.size[0];
    let s = net.stride;
    let p = cell[2] * s[2] + cell[1] * s[1] + cell[0];
    let corners: [f32; 8] = std::array::from_fn(|n| {
        net.d[p + (n & 1) * s[0] + ((n >> 1) & 1) * s[1] + (n >> 2) * s[2]]
    });
    let offset = centroid_of_crossings(&corners);
    let position: [f32; 3] = std::array::from_fn(|a| (cell[a] as f32 - 1.0) + offset[a]);
    let column = cell[2] * nx + cell[0];
    let open = net.open[column]
        .min(net.open[column + 1])
        .min(net.open[column + nx])
        .min(net.open[column + nx + 1]);
    let world_y = (net.y0 + 1) as f64 + position[1] as f64;
    let id = net.mesh.positions.len() as u32;
    net.mesh.positions.push(position);
    net.mesh.normals.push(normal(&corners));
    net.mesh.sky.push(sky_at(open, world_y));
    id
}

/// Mean of the points where the cell's edges cross zero, rounded to the
/// quantum, in [0, 1]³. Corners are numbered by bits (bit 0: +x, bit 1:
/// +y, bit 2: +z); the 12 edges are taken along x, then y, then z, each
/// from its corner without that bit in increasing order.
fn centroid_of_crossings(c: &[f32; 8]) -> [f32; 3] {
    let mut rock = 0u32;
    for (n, &v) in c.iter().enumerate() {
        rock |= ((v > 0.0) as u32) << n;
    }
    let mut acc = ([0.0f32; 3], 0u32, rock);
    crossing::<0, 0>(c, &mut acc);
    crossing::<2, 0>(c, &mut acc);
    crossing::<4, 0>(c, &mut acc);
    crossing::<6, 0>(c, &mut acc);
    crossing::<0, 1>(c, &mut acc);
    crossing::<1, 1>(c, &mut acc);
    crossing::<4, 1>(c, &mut acc);
    crossing::<5, 1>(c, &mut acc);
    crossing::<0, 2>(c, &mut acc);
    crossing::<1, 2>(c, &mut acc);
    crossing::<2, 2>(c, &mut acc);
    crossing::<3, 2>(c, &mut acc);
    let (sum, count, _) = acc;
    sum.map(|s| (s / count as f32 + QUANTISER) - QUANTISER)
}

/// Adds the zero crossing, if any, of the edge from corner `P` along
/// `AXIS` to the running sum and count (constant corners and axes, so
/// the off-axis coordinates are constants, not shifts); `acc.2` holds the
/// corners' rock bits.
#[inline(always)]
fn crossing<const P: usize, const AXIS: usize>(c: &[f32; 8], acc: &mut ([f32; 3], u32, u32)) {
    let q = P | (1 << AXIS);
    if ((acc.2 >> P) ^ (acc.2 >> q)) & 1 == 0 {
        return;
    }
    let t = c[P] / (c[P] - c[q]);
    for (a, s) in acc.0.iter_mut().enumerate() {
        *s += if a == AXIS { t } else { ((P >> a) & 1) as f32 };
    }
    acc.1 += 1;
}

/// The negated, normalised density gradient of the cell: the difference of
/// opposite face sums on each axis (edges summed in the order above).
fn normal(c: &[f32; 8]) -> [f32; 3] {
    let g = [
        (c[1] - c[0]) + (c[3] - c[2]) + (c[5] - c[4]) + (c[7] - c[6]),
        (c[2] - c[0]) + (c[3] - c[1]) + (c[6] - c[4]) + (c[7] - c[5]),
        (c[4] - c[0]) + (c[5] - c[1]) + (c[6] - c[2]) + (c[7] - c[3]),
    ];
    let len = (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).sqrt();
    if len > 0.0 {
        let inv = -1.0 / len;
        g.map(|v| v * inv)
    } else {
        [0.0, 1.0, 0.0]
    }
}
