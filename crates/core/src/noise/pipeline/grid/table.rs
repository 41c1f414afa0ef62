//! One grid axis at one octave, split and hashed once per index, and the
//! per-row gradient tables that let Perlin 3D rows skip hashing corners.

use super::super::super::kernels::{Axis, Grad3Table, corner_grads3, perlin3_row};
use super::super::super::lattice::Lattice;
use super::super::super::simd::{Simd, scalar::Scalar};
use super::super::BLOCK;
use crate::noise::Kernel;

/// Entries past the end of each table: one vector of the widest level.
pub(super) const PAD: usize = 16;

/// How many cells a row gradient table holds: a 16-entry lookup.
const ROW_CELLS: usize = 16;

/// One axis of the grid at one octave: per index along the axis, the
/// fraction in the cell and the axis hashes of cells −1, 0, +1.
pub(super) struct AxisTable {
    pub(super) f: Vec<f32>,
    pub(super) h: [Vec<u32>; 3],
    /// Per index, its cell minus the axis's lowest cell.
    pub(super) rel: Vec<u32>,
    /// The axis hashes of the lowest cell and the next 15, when every
    /// index's cell and the cell after it are among them.
    pub(super) cells: Option<[u32; ROW_CELLS]>,
}

impl AxisTable {
    /// Inlined into each level's entry point, so the scalar split's floor
    /// is that level's rounding instruction, not a library call.
    #[inline(always)]
    pub(super) fn new<H: Lattice>(
        origin: f64,
        step: f64,
        n: usize,
        frequency: f64,
        axis: usize,
    ) -> Self {
        let mut t = AxisTable {
            f: vec![0.0; n],
            h: std::array::from_fn(|_| vec![0; n]),
            rel: vec![0; n],
            cells: None,
        };
        let mut cell = vec![0i64; n];
        for (i, c) in cell.iter_mut().enumerate() {
            let v = clamp(origin + i as f64 * step, frequency);
            let (f, lo, hi) = Scalar.split(&[v]);
            let [h0, h1, h2] = H::axis_triple(Scalar, lo, hi, axis);
            t.f[i] = f;
            t.h[0][i] = h0;
            t.h[1][i] = h1;
            t.h[2][i] = h2;
            *c = (u64::from(hi) << 32 | u64::from(lo)) as i64;
        }
        if let (Some(&low), Some(&high)) = (cell.iter().min(), cell.iter().max())
            && high - low + 2 <= ROW_CELLS as i64
        {
            for (r, &c) in t.rel.iter_mut().zip(&cell) {
                *r = (c - low) as u32;
            }
            t.cells = Some(std::array::from_fn(|j| H::axis(low + j as i64, axis)));
        }
        // Repeat the axis after its end (index `i % n`) for a block and a
        // vector of the widest level, so the row paths load whole vectors
        // past a row's end (the next row's x; those lanes either belong to
        // the next row or are dropped).
        repeat(&mut t.f, n + BLOCK + PAD);
        repeat(&mut t.rel, n + BLOCK + PAD);
        for col in &mut t.h {
            repeat(col, n + BLOCK + PAD);
        }
        t
    }

    /// Entry `i`, broadcast.
    #[inline(always)]
    pub(super) fn splat<S: Simd>(&self, s: S, i: usize) -> Axis<S> {
        Axis {
            f: s.splat(self.f[i]),
            h: [
                s.splat_i(self.h[0][i]),
                s.splat_i(self.h[1][i]),
                s.splat_i(self.h[2][i]),
            ],
        }
    }

    /// Entries `i..i + len` as vectors of `lanes` (`len` a multiple of it):
    /// one bounds check per call, none per vector.
    #[inline(always)]
    pub(super) fn vectors(
        &self,
        i: usize,
        len: usize,
        lanes: usize,
    ) -> impl Iterator<Item = (&[f32], [&[u32]; 3], &[u32])> {
        let r = i..i + len;
        self.f[r.clone()]
            .chunks_exact(lanes)
            .zip(self.h[0][r.clone()].chunks_exact(lanes))
            .zip(self.h[1][r.clone()].chunks_exact(lanes))
            .zip(self.h[2][r.clone()].chunks_exact(lanes))
            .zip(self.rel[r].chunks_exact(lanes))
            .map(|((((f, a), b), c), rel)| (f, [a, b, c], rel))
    }

    /// Entries `i..i + LANES`.
    #[inline(always)]
    pub(super) fn load<S: Simd>(&self, s: S, i: usize) -> Axis<S> {
        Axis {
            f: s.load(&self.f[i..]),
            h: [
                s.load_i(&self.h[0][i..]),
                s.load_i(&self.h[1][i..]),
                s.load_i(&self.h[2][i..]),
            ],
        }
    }
}

/// The value the per-position path gives the kernel for this coordinate.
#[inline(always)]
fn clamp(v: f64, frequency: f64) -> f64 {
    super::super::clamp_coord(v * frequency)
}

/// Extends `v` to `len` entries by repeating it (entry `i` is `v[i % n]`).
pub(super) fn repeat<T: Copy>(v: &mut Vec<T>, len: usize) {
    let n = v.len();
    if n == 0 {
        return;
    }
    while v.len() < len {
        let more = (len - v.len()).min(n);
        v.extend_from_within(..more);
    }
}

/// For one row of a Perlin 3D grid (y and z fixed) at one octave: the
/// gradient of every corner the row touches, indexed by the x cell
/// relative to the axis's lowest. A sample's eight corner hashes would be
/// eight vector hashes; per row they are four, then table lookups.
pub(super) struct RowGrads {
    /// Per (by, bz) as `by | bz << 1`, the gradients along x's cells.
    pub(super) g: [Grad3Table; 4],
}

impl RowGrads {
    /// The row at `y` and `z` (their tables' entries `iy` and `iz`), for
    /// x's `cells`.
    #[inline(always)]
    pub(super) fn new<S: Simd, H: Lattice>(
        s: S,
        cells: &[u32; ROW_CELLS],
        y: &AxisTable,
        iy: usize,
        z: &AxisTable,
        iz: usize,
        seed: u32,
    ) -> RowGrads {
        let hy = [y.h[1][iy], y.h[2][iy]];
        let hz = [z.h[1][iz], z.h[2][iz]];
        RowGrads {
            g: [
                corner_grads3::<S, H>(s, cells, hy[0], hz[0], seed),
                corner_grads3::<S, H>(s, cells, hy[1], hz[0], seed),
                corner_grads3::<S, H>(s, cells, hy[0], hz[1], seed),
                corner_grads3::<S, H>(s, cells, hy[1], hz[1], seed),
            ],
        }
    }
}

/// The gradient tables of the row at `idx` (its y and z), when the kernel
/// is Perlin 3D, x's cells fit one table and the backend's lookups are
/// cheap ([`Simd::FAST_TABLE16`]).
#[inline(always)]
pub(super) fn row_grads<S: Simd, H: Lattice, const D: usize>(
    s: S,
    kernel: Kernel,
    t: &[AxisTable; D],
    idx: [usize; D],
    seed: u32,
) -> Option<RowGrads> {
    if D != 3 || !matches!(kernel, Kernel::Perlin) || !S::FAST_TABLE16 {
        return None;
    }
    let cells = t[0].cells.as_ref()?;
    Some(RowGrads::new::<S, H>(
        s,
        cells,
        &t[1],
        idx[1],
        &t[D - 1],
        idx[D - 1],
        seed,
    ))
}

/// Perlin 3D along a run of one row (`out`, from x index `i0`; `ax` holds
/// the row's y and z broadcast) through the row's gradient tables.
#[inline(always)]
pub(super) fn perlin3_run<S: Simd, const D: usize>(
    s: S,
    t: &[AxisTable; D],
    ax: &[Axis<S>; D],
    i0: usize,
    out: &mut [f32],
    rows: &RowGrads,
) {
    let (fy, fz) = (ax[1].f, ax[D - 1].f);
    let xs = t[0].vectors(i0, out.len(), S::LANES);
    for (o, (f, _, rel)) in out.chunks_exact_mut(S::LANES).zip(xs) {
        let v = perlin3_row(s, [s.load(f), fy, fz], s.load_i(rel), &rows.g);
        s.store(v, o);
    }
}
