//! Regular grids. For the separable kernels (value, Perlin, cellular) each
//! octave splits and hashes every column, row and slab once into a table;
//! blocks then copy table runs instead of splitting every sample. Other
//! kernels and warped noise take the per-position path with the grid's
//! coordinates. Either way a sample gets exactly the lattice values a point
//! query computes (same f64 position, same scalar split and hash), so grids
//! equal points bit for bit.

use std::marker::PhantomData;

use super::super::kernels::{self, Axis};
use super::super::lattice::Lattice;
use super::super::simd::Simd;
use super::{
    BLOCK, Job, OctaveSource, Scratch, all_fast, block, clamp_coord, is_separable, octaves,
    separable, unswitch_kernel, with_lattice,
};
use crate::noise::{Kernel, LatticeHash, Noise, Octave};

mod table;
use table::{AxisTable, PAD, perlin3_run, repeat, row_grads};

/// One axis of the grid at one octave, scaled and clamped per index:
/// `clamp((origin + i·step) · frequency)`, the value the per-position path
/// gives the kernel, for `len` entries with index `i % n` (the axis
/// repeated, so runs past its end continue on the next row's values).
fn scaled_axis(origin: f64, step: f64, n: usize, len: usize, frequency: f64) -> Vec<f64> {
    if n == 0 {
        return Vec::new();
    }
    let mut axis: Vec<f64> = (0..n)
        .map(|i| clamp_coord((origin + i as f64 * step) * frequency))
        .collect();
    repeat(&mut axis, len);
    axis
}

/// The per-axis index of linear sample `start` (x fastest).
fn unravel<const D: usize>(start: usize, size: [usize; D]) -> [usize; D] {
    let mut rest = start;
    size.map(|n| {
        let i = rest % n;
        rest /= n;
        i
    })
}

/// Moves a per-axis index `run` samples on along x, carrying into y and z
/// (`run` never crosses the end of a row).
fn advance<const D: usize>(idx: &mut [usize; D], size: [usize; D], run: usize) {
    idx[0] += run;
    for a in 0..D - 1 {
        if idx[a] == size[a] {
            idx[a] = 0;
            idx[a + 1] += 1;
        }
    }
}

/// Lattice data of one block, per lane.
struct Lanes<const D: usize> {
    f: [[f32; BLOCK]; D],
    h: [[[u32; BLOCK]; 3]; D],
}

impl<const D: usize> Lanes<D> {
    /// Copies the tables' entries for samples `start..start + n` (row-major,
    /// x fastest) into lanes `0..n`, and repeats lane `n − 1` up to `padded`.
    fn assemble(
        &mut self,
        tables: &[AxisTable; D],
        size: [usize; D],
        start: usize,
        n: usize,
        padded: usize,
    ) {
        let mut idx = unravel(start, size);
        let mut l = 0;
        while l < n {
            let run = (size[0] - idx[0]).min(n - l);
            let t = &tables[0];
            self.f[0][l..l + run].copy_from_slice(&t.f[idx[0]..idx[0] + run]);
            for c in 0..3 {
                self.h[0][c][l..l + run].copy_from_slice(&t.h[c][idx[0]..idx[0] + run]);
            }
            for a in 1..D {
                let t = &tables[a];
                self.f[a][l..l + run].fill(t.f[idx[a]]);
                for c in 0..3 {
                    self.h[a][c][l..l + run].fill(t.h[c][idx[a]]);
                }
            }
            l += run;
            advance(&mut idx, size, run);
        }
        for a in 0..D {
            let last = self.f[a][n - 1];
            self.f[a][n..padded].fill(last);
            for c in 0..3 {
                let last = self.h[a][c][n - 1];
                self.h[a][c][n..padded].fill(last);
            }
        }
    }
}

/// A grid fill.
pub(crate) struct GridJob<'a, const D: usize> {
    pub(crate) noise: &'a Noise,
    pub(crate) origin: [f64; D],
    pub(crate) step: [f64; D],
    pub(crate) size: [usize; D],
    pub(crate) out: &'a mut [f32],
}

impl<const D: usize> GridJob<'_, D> {
    /// Coordinates of samples `start..start + n` into `pos`, a row run at a
    /// time: x varies along the run, the other axes are constant over it.
    /// Each value is `origin + index · step`, exactly as a point query's
    /// caller computes it.
    #[inline(always)]
    fn positions(&self, start: usize, n: usize, pos: &mut [Vec<f64>; D]) {
        let mut idx = unravel(start, self.size);
        let mut l = 0;
        while l < n {
            let run = (self.size[0] - idx[0]).min(n - l);
            let (o, st) = (self.origin[0], self.step[0]);
            // The index as an f64 counter: integers below 2^53 are exact, so
            // this is `idx as f64` without a usize conversion per sample.
            let mut c = idx[0] as f64;
            for p in &mut pos[0][l..l + run] {
                *p = o + c * st;
                c += 1.0;
            }
            for a in 1..D {
                let v = self.origin[a] + idx[a] as f64 * self.step[a];
                pos[a][l..l + run].fill(v);
            }
            l += run;
            advance(&mut idx, self.size, run);
        }
    }

    /// The per-position path, for simplex and warped noise.
    #[inline(always)]
    fn by_positions<S: Simd>(&mut self, s: S) {
        let mut sc = Scratch::<D, BLOCK>::new();
        let mut pos: [Vec<f64>; D] = std::array::from_fn(|_| vec![0.0; BLOCK]);
        let mut start = 0;
        while start < self.out.len() {
            let n = (self.out.len() - start).min(BLOCK);
            self.positions(start, n, &mut pos);
            let p: [&[f64]; D] = std::array::from_fn(|a| &pos[a][..n]);
            block::<S, D, BLOCK>(s, self.noise, p, &mut sc, &mut self.out[start..start + n]);
            start += n;
        }
    }

    /// Runs the octave loop on every row in blocks along x (blocks never
    /// cross a row), with the octave source `source(row index, block start)`.
    #[inline(always)]
    fn by_rows<Src: OctaveSource<BLOCK>>(
        &mut self,
        lanes: usize,
        mut source: impl FnMut([usize; D], usize) -> Src,
    ) {
        let (mut value, mut acc) = ([0.0f32; BLOCK], [0.0f32; BLOCK]);
        let nx = self.size[0];
        let rows = self.out.len() / nx.max(1);
        for r in 0..rows {
            let idx = unravel(r * nx, self.size);
            let mut i0 = 0;
            while i0 < nx {
                let n = (nx - i0).min(BLOCK);
                let padded = n.div_ceil(lanes) * lanes;
                let mut src = source(idx, i0);
                let at = r * nx + i0;
                let out = &mut self.out[at..at + n];
                octaves(self.noise, padded, &mut value, &mut acc, out, &mut src);
                i0 += n;
            }
        }
    }

    /// The per-sample kernels (simplex) without warp: each octave's scaled
    /// coordinates are tabulated per axis once (x repeated row after row, so
    /// any run of samples finds its x values contiguous), then every block
    /// reads x from its table and the other axes from short runs. The same
    /// f64 values the per-position path computes, so the same bits.
    #[inline(always)]
    fn by_coords<S: Simd>(&mut self, s: S) {
        let coords: Vec<[Vec<f64>; D]> = self
            .noise
            .octaves
            .iter()
            .map(|o| {
                std::array::from_fn(|a| {
                    let n = self.size[a];
                    let len = if a == 0 { n + BLOCK + PAD } else { n };
                    scaled_axis(self.origin[a], self.step[a], n, len, o.frequency)
                })
            })
            .collect();
        // Per octave, whether every coordinate is in hash 2's fast range
        // (the x table includes its repeats, which only ever hold x values).
        let fast: Vec<bool> = coords
            .iter()
            .map(|c| c.iter().all(|a| all_fast(a)))
            .collect();
        let hash = self.noise.params.hash;
        if self.size[0].is_multiple_of(S::LANES) {
            // Rows fill whole vectors: blocks stay inside a row, the other
            // axes are one value each, broadcast.
            return self.by_rows(S::LANES, |idx, i0| FromCoords {
                s,
                coords: &coords,
                fast: &fast,
                hash,
                idx,
                i0,
            });
        }
        // Otherwise blocks run on across rows, so no lane is wasted at a
        // row's end.
        let (mut value, mut acc) = ([0.0f32; BLOCK], [0.0f32; BLOCK]);
        let mut lanes = Box::new([[0.0f64; BLOCK]; D]);
        let mut start = 0;
        while start < self.out.len() {
            let n = (self.out.len() - start).min(BLOCK);
            let padded = n.div_ceil(S::LANES) * S::LANES;
            let mut src = FromCoordRuns {
                s,
                coords: &coords,
                fast: &fast,
                hash,
                lanes: &mut lanes,
                size: self.size,
                start,
                n,
            };
            let out = &mut self.out[start..start + n];
            octaves(self.noise, padded, &mut value, &mut acc, out, &mut src);
            start += n;
        }
    }

    /// The tabulated path, for separable kernels without warp. Tables are
    /// split and hashed in scalar on the exact route, so `H` matters here
    /// only for its corner finish.
    #[inline(always)]
    fn by_tables<S: Simd, H: Lattice>(&mut self, s: S) {
        let noise = self.noise;
        let tables: Vec<[AxisTable; D]> = noise
            .octaves
            .iter()
            .map(|o| {
                std::array::from_fn(|a| {
                    AxisTable::new::<H>(self.origin[a], self.step[a], self.size[a], o.frequency, a)
                })
            })
            .collect();
        let kernel = noise.params.kernel;
        if self.size[0].is_multiple_of(S::LANES) {
            // Rows that fill whole vectors: blocks never cross a row, so x
            // comes straight from its table and the other axes are one
            // value each, broadcast (no per-sample copying).
            return self.by_rows(S::LANES, |idx, i0| FromRow {
                s,
                lattice: PhantomData::<H>,
                kernel,
                tables: &tables,
                idx,
                i0,
            });
        }
        let (mut value, mut acc) = ([0.0f32; BLOCK], [0.0f32; BLOCK]);
        if self.size[0] >= S::LANES {
            // Rows of at least a vector: blocks run on across rows (no lane
            // wasted at a row's end); x still comes from its table, and a
            // vector crossing a row's end blends the two rows' broadcasts.
            let mut start = 0;
            while start < self.out.len() {
                let n = (self.out.len() - start).min(BLOCK);
                let padded = n.div_ceil(S::LANES) * S::LANES;
                let mut src = FromRuns {
                    s,
                    lattice: PhantomData::<H>,
                    kernel,
                    tables: &tables,
                    size: self.size,
                    start,
                };
                let out = &mut self.out[start..start + n];
                octaves(noise, padded, &mut value, &mut acc, out, &mut src);
                start += n;
            }
            return;
        }
        let mut lanes = Box::new(Lanes::<D> {
            f: [[0.0; BLOCK]; D],
            h: [[[0; BLOCK]; 3]; D],
        });
        let mut start = 0;
        while start < self.out.len() {
            let n = (self.out.len() - start).min(BLOCK);
            let padded = n.div_ceil(S::LANES) * S::LANES;
            let mut src = FromTables {
                s,
                lattice: PhantomData::<H>,
                kernel,
                tables: &tables,
                lanes: &mut lanes,
                size: self.size,
                start,
                n,
            };
            let out = &mut self.out[start..start + n];
            octaves(noise, padded, &mut value, &mut acc, out, &mut src);
            start += n;
        }
    }
}

/// Octave values of a grid block, from the octave's tables.
struct FromTables<'a, S: Simd, H: Lattice, const D: usize> {
    s: S,
    lattice: PhantomData<H>,
    kernel: Kernel,
    tables: &'a [[AxisTable; D]],
    lanes: &'a mut Lanes<D>,
    size: [usize; D],
    start: usize,
    n: usize,
}

impl<S: Simd, H: Lattice, const D: usize> OctaveSource<BLOCK> for FromTables<'_, S, H, D> {
    #[inline(always)]
    fn eval(&mut self, k: usize, oct: &Octave, padded: usize, value: &mut [f32; BLOCK]) {
        unswitch_kernel!(self.kernel, |kernel| self
            .eval_with(kernel, k, oct, padded, value))
    }
}

impl<S: Simd, H: Lattice, const D: usize> FromTables<'_, S, H, D> {
    #[inline(always)]
    fn eval_with(
        &mut self,
        kernel: Kernel,
        k: usize,
        oct: &Octave,
        padded: usize,
        value: &mut [f32; BLOCK],
    ) {
        let s = self.s;
        self.lanes
            .assemble(&self.tables[k], self.size, self.start, self.n, padded);
        let mut g = 0;
        while g < padded {
            let mut ax = [Axis::<S>::zero(s); D];
            for (a, axis) in ax.iter_mut().enumerate() {
                let h = &self.lanes.h[a];
                *axis = Axis {
                    f: s.load(&self.lanes.f[a][g..]),
                    h: [
                        s.load_i(&h[0][g..]),
                        s.load_i(&h[1][g..]),
                        s.load_i(&h[2][g..]),
                    ],
                };
            }
            s.store(
                separable::<S, H, D>(s, kernel, ax, oct.seed),
                &mut value[g..],
            );
            g += S::LANES;
        }
    }
}

/// Octave values of a block inside one row, from the octave's tables: x
/// loaded from its table, every other axis broadcast.
struct FromRow<'a, S: Simd, H: Lattice, const D: usize> {
    s: S,
    lattice: PhantomData<H>,
    kernel: Kernel,
    tables: &'a [[AxisTable; D]],
    /// The per-axis index of the row's first sample.
    idx: [usize; D],
    /// Where the block starts along x.
    i0: usize,
}

impl<S: Simd, H: Lattice, const D: usize> OctaveSource<BLOCK> for FromRow<'_, S, H, D> {
    #[inline(always)]
    fn eval(&mut self, k: usize, oct: &Octave, padded: usize, value: &mut [f32; BLOCK]) {
        unswitch_kernel!(self.kernel, |kernel| {
            let s = self.s;
            let t = &self.tables[k];
            let mut ax = [Axis::<S>::zero(s); D];
            for a in 1..D {
                ax[a] = t[a].splat(s, self.idx[a]);
            }
            let out = &mut value[..padded];
            if let Some(rows) = row_grads::<S, H, D>(s, kernel, t, self.idx, oct.seed) {
                perlin3_run(s, t, &ax, self.i0, out, &rows);
                return;
            }
            let out = out.chunks_exact_mut(S::LANES);
            for (o, (f, h, _)) in out.zip(t[0].vectors(self.i0, padded, S::LANES)) {
                ax[0] = Axis {
                    f: s.load(f),
                    h: [s.load_i(h[0]), s.load_i(h[1]), s.load_i(h[2])],
                };
                s.store(separable::<S, H, D>(s, kernel, ax, oct.seed), o);
            }
        })
    }
}

/// Octave values of a block inside one row for the per-sample kernels:
/// x's scaled coordinates from the octave's table, the other axes' broadcast.
struct FromCoords<'a, S: Simd, const D: usize> {
    s: S,
    coords: &'a [[Vec<f64>; D]],
    /// Per octave, whether its coordinates take hash 2's fast route.
    fast: &'a [bool],
    hash: LatticeHash,
    /// The per-axis index of the row's first sample.
    idx: [usize; D],
    /// Where the block starts along x.
    i0: usize,
}

impl<S: Simd, const D: usize> OctaveSource<BLOCK> for FromCoords<'_, S, D> {
    #[inline(always)]
    fn eval(&mut self, k: usize, oct: &Octave, padded: usize, value: &mut [f32; BLOCK]) {
        let s = self.s;
        let t = &self.coords[k];
        let y = [t[1][self.idx[1]]; PAD];
        let z = [t[D - 1][self.idx[D - 1]]; PAD];
        let x = &t[0][self.i0..self.i0 + padded];
        with_lattice!(self.hash, self.fast[k], H => {
            let mut g = 0;
            while g < padded {
                let v = if D == 2 {
                    kernels::simplex2::<S, H>(s, &x[g..], &y, oct.seed)
                } else {
                    kernels::simplex3::<S, H>(s, &x[g..], &y, &z, oct.seed)
                };
                s.store(v, &mut value[g..]);
                g += S::LANES;
            }
        })
    }
}

/// Octave values of a block of consecutive samples (crossing rows) for the
/// per-sample kernels: x from the octave's repeated table, the other axes
/// filled run by run.
struct FromCoordRuns<'a, S: Simd, const D: usize> {
    s: S,
    coords: &'a [[Vec<f64>; D]],
    /// Per octave, whether its coordinates take hash 2's fast route.
    fast: &'a [bool],
    hash: LatticeHash,
    /// Per-lane coordinates of axes 1.. (axis 0 unused).
    lanes: &'a mut [[f64; BLOCK]; D],
    size: [usize; D],
    start: usize,
    n: usize,
}

impl<S: Simd, const D: usize> OctaveSource<BLOCK> for FromCoordRuns<'_, S, D> {
    #[inline(always)]
    fn eval(&mut self, k: usize, oct: &Octave, padded: usize, value: &mut [f32; BLOCK]) {
        let s = self.s;
        let t = &self.coords[k];
        let nx = self.size[0];
        let mut idx = unravel(self.start, self.size);
        let x0 = idx[0];
        let mut l = 0;
        while l < self.n {
            let run = (nx - idx[0]).min(self.n - l);
            for a in 1..D {
                self.lanes[a][l..l + run].fill(t[a][idx[a]]);
            }
            l += run;
            advance(&mut idx, self.size, run);
        }
        for a in 1..D {
            let last = self.lanes[a][self.n - 1];
            self.lanes[a][self.n..padded].fill(last);
        }
        // Lanes past `n` read on into the next row's x: real coordinates,
        // whose values are dropped.
        let x = &t[0][x0..x0 + padded];
        let (y, z) = (&self.lanes[1], &self.lanes[D - 1]);
        with_lattice!(self.hash, self.fast[k], H => {
            let mut g = 0;
            while g < padded {
                let v = if D == 2 {
                    kernels::simplex2::<S, H>(s, &x[g..], &y[g..], oct.seed)
                } else {
                    kernels::simplex3::<S, H>(s, &x[g..], &y[g..], &z[g..], oct.seed)
                };
                s.store(v, &mut value[g..]);
                g += S::LANES;
            }
        })
    }
}

/// Lane indices, for the masks of vectors that cross a row's end.
const IOTA: [f32; 16] = [
    0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0,
];

/// Octave values of a block of consecutive samples on rows of at least one
/// vector: x loaded from its (repeated) table, every other axis broadcast,
/// and where a vector crosses a row's end, the two rows' broadcasts blended
/// (lanes before the end take this row's, the rest the next row's).
struct FromRuns<'a, S: Simd, H: Lattice, const D: usize> {
    s: S,
    lattice: PhantomData<H>,
    kernel: Kernel,
    tables: &'a [[AxisTable; D]],
    size: [usize; D],
    /// The block's first sample (linear index).
    start: usize,
}

impl<S: Simd, H: Lattice, const D: usize> OctaveSource<BLOCK> for FromRuns<'_, S, H, D> {
    #[inline(always)]
    fn eval(&mut self, k: usize, oct: &Octave, padded: usize, value: &mut [f32; BLOCK]) {
        unswitch_kernel!(self.kernel, |kernel| self
            .eval_with(kernel, k, oct, padded, value))
    }
}

impl<S: Simd, H: Lattice, const D: usize> FromRuns<'_, S, H, D> {
    #[inline(always)]
    fn eval_with(
        &mut self,
        kernel: Kernel,
        k: usize,
        oct: &Octave,
        padded: usize,
        value: &mut [f32; BLOCK],
    ) {
        let s = self.s;
        let t = &self.tables[k];
        let (size, nx) = (self.size, self.size[0]);
        let iota = s.load(&IOTA);
        // The per-axis index of the vector's first lane.
        let mut idx = unravel(self.start, size);
        let x0 = idx[0];
        let mut ax = [Axis::<S>::zero(s); D];
        // Perlin 3D's gradient tables of the row at `idx`.
        let mut rows = row_grads::<S, H, D>(s, kernel, t, idx, oct.seed);
        let mut g = 0;
        while g < padded {
            // The vectors inside this row: the other axes are loop
            // invariants there (what they alone feed is computed once).
            for a in 1..D {
                ax[a] = t[a].splat(s, idx[a]);
            }
            let inside = ((nx - idx[0]) / S::LANES * S::LANES).min(padded - g);
            let out = &mut value[g..g + inside];
            if let Some(r) = &rows {
                perlin3_run(s, t, &ax, x0 + g, out, r);
            } else {
                let out = out.chunks_exact_mut(S::LANES);
                for (o, (f, h, _)) in out.zip(t[0].vectors(x0 + g, inside, S::LANES)) {
                    ax[0] = Axis {
                        f: s.load(f),
                        h: [s.load_i(h[0]), s.load_i(h[1]), s.load_i(h[2])],
                    };
                    s.store(separable::<S, H, D>(s, kernel, ax, oct.seed), o);
                }
            }
            g += inside;
            idx[0] += inside;
            if g >= padded {
                break;
            }
            // The vector across the row's end: lanes before it keep this
            // row's broadcasts, the rest take the next row's.
            let left = nx - idx[0];
            let mut next = idx;
            advance(&mut next, size, left);
            ax[0] = t[0].load(s, x0 + g);
            let mut next_rows = None;
            // Past the grid's last row the lanes are padding: dropped.
            if next[D - 1] < size[D - 1] {
                next_rows = row_grads::<S, H, D>(s, kernel, t, next, oct.seed);
                let m = s.lt(iota, s.splat(left as f32));
                for a in 1..D {
                    let b = t[a].splat(s, next[a]);
                    let h = ax[a].h;
                    ax[a] = Axis {
                        f: s.select(m, ax[a].f, b.f),
                        h: [
                            s.select_i(m, h[0], b.h[0]),
                            s.select_i(m, h[1], b.h[1]),
                            s.select_i(m, h[2], b.h[2]),
                        ],
                    };
                }
                if let (Some(a), Some(b)) = (&rows, &next_rows) {
                    // Each lane looks its gradients up in its own row's tables.
                    let f = [ax[0].f, ax[1].f, ax[D - 1].f];
                    let cell = s.load_i(&t[0].rel[x0 + g..]);
                    let v = kernels::perlin3_row_pair(s, f, cell, m, [&a.g, &b.g]);
                    s.store(v, &mut value[g..]);
                    g += S::LANES;
                    idx = next;
                    idx[0] = S::LANES - left;
                    rows = next_rows;
                    continue;
                }
            }
            s.store(
                separable::<S, H, D>(s, kernel, ax, oct.seed),
                &mut value[g..],
            );
            g += S::LANES;
            // On into the next row (a row holds a vector, so one end at most).
            idx = next;
            idx[0] = S::LANES - left;
            rows = next_rows;
        }
    }
}

impl<const D: usize> Job for GridJob<'_, D> {
    #[inline(always)]
    fn run<S: Simd>(&mut self, s: S) {
        let kernel = self.noise.params.kernel;
        if self.noise.warp.is_some() {
            self.by_positions(s)
        } else if is_separable(kernel) {
            with_lattice!(self.noise.params.hash, H => self.by_tables::<S, H>(s))
        } else {
            self.by_coords(s)
        }
    }
}
