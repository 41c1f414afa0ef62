//! The noise kernels, written once for every lane width.
//!
//! Each takes coordinates already scaled to lattice units (f64, clamped to
//! [`super::MAX_COORD`]) for `S::LANES` samples and returns one vector of
//! values in about `[-1, 1]`. The f64 → (i64 cell, f32 fraction) split is
//! the first thing each kernel does; everything after it is f32 and u32
//! arithmetic with a fixed evaluation order.

use super::CellularReturn;
use super::lattice::{Lattice, combine2, combine3, fade, hash_value, lerp};
use super::simd::Simd;

mod uniform;

use uniform::{
    Broadcast, corners2, corners3, known_grad2, known_grad3, pick_corner3, simplex_picks_pay,
    uniform_corners2, uniform_corners3, uniform_hashes,
};

/// √2 in f32: axis-aligned 2D gradients get the length of the diagonal ones.
const SQRT2: f32 = std::f32::consts::SQRT_2;

/// Scales 3D improved Perlin noise into `[-1, 1]`: with the 12 edge
/// gradients its extremes reach about ±1.0005 over 2·10^7 random samples
/// (the literature's bound is ≈ ±1.036), so a little headroom is taken.
const PERLIN3_SCALE: f32 = 0.96;

/// Scales the 2D simplex sum into `[-1, 1]`: the classic 70 (measured
/// extremes ±0.998 over 2·10^7 samples).
const SIMPLEX2_SCALE: f32 = 70.0;
/// Scales the 3D simplex sum into `[-1, 1]`: the classic 32 (measured
/// extremes ±0.979).
const SIMPLEX3_SCALE: f32 = 32.0;

/// 2D skew of the simplex lattice, `(√3 − 1) / 2`.
const F2: f64 = 0.366_025_403_784_438_6;
/// 2D unskew, `(3 − √3) / 6`.
const G2: f32 = 0.211_324_87;
/// 3D skew, 1/3.
const F3: f64 = 1.0 / 3.0;
/// 3D unskew, 1/6.
const G3: f32 = 1.0 / 6.0;

/// Cellular distances are mapped to `d · scale − 1`, per return kind
/// (F1, F2, F2 − F1). The scales put the largest distance seen in 2·10^6
/// random samples at about 0.95, so results stay inside `[-1, 1]`; the
/// nearest-point distance itself is bounded by the 3×3 search (≤ √2 in 2D).
const CELL2_SCALE: [f32; 3] = [1.52, 1.29, 1.47];
/// See [`CELL2_SCALE`].
const CELL3_SCALE: [f32; 3] = [1.6, 1.46, 1.71];

/// Seeds in lanes.
#[inline(always)]
fn seeds<S: Simd>(s: S, seed: u32) -> S::I {
    s.splat_i(seed)
}

/// The 2D gradients: 8 directions of length √2 — (±1, ±1), (±√2, 0),
/// (0, ±√2) — chosen by the hash's low 3 bits (the table repeats).
const GRAD2_X: [f32; 16] = {
    let r = SQRT2;
    [
        1.0, -1.0, 1.0, -1.0, r, -r, 0.0, 0.0, 1.0, -1.0, 1.0, -1.0, r, -r, 0.0, 0.0,
    ]
};
/// See [`GRAD2_X`].
const GRAD2_Y: [f32; 16] = {
    let r = SQRT2;
    [
        1.0, 1.0, -1.0, -1.0, 0.0, 0.0, r, -r, 1.0, 1.0, -1.0, -1.0, 0.0, 0.0, r, -r,
    ]
};

/// Perlin's 12 cube-edge gradients as his improved noise lists them for 16
/// hash values (4 repeated).
const GRAD3_X: [f32; 16] = [
    1., -1., 1., -1., 1., -1., 1., -1., 0., 0., 0., 0., 1., 0., -1., 0.,
];
/// See [`GRAD3_X`].
const GRAD3_Y: [f32; 16] = [
    1., 1., -1., -1., 0., 0., 0., 0., 1., -1., 1., -1., 1., -1., 1., -1.,
];
/// See [`GRAD3_X`].
const GRAD3_Z: [f32; 16] = [
    0., 0., 0., 0., 1., 1., -1., -1., 1., 1., -1., -1., 0., 1., 0., -1.,
];

/// The 2D tables repeat with period 8, which [`Simd::grad2`] lets a
/// backend use (checked at compile time).
const _: () = {
    let mut i = 0;
    while i < 8 {
        assert!(GRAD2_X[i] == GRAD2_X[i + 8] && GRAD2_Y[i] == GRAD2_Y[i + 8]);
        i += 1;
    }
};

/// One 2D gradient dot product, `g · (x, y)`.
#[inline(always)]
fn grad2<S: Simd>(s: S, h: S::I, x: S::F, y: S::F) -> S::F {
    s.grad2([&GRAD2_X, &GRAD2_Y], h, x, y)
}

/// One 3D gradient dot product, `g · (x, y, z)`.
#[inline(always)]
fn grad3<S: Simd>(s: S, h: S::I, x: S::F, y: S::F, z: S::F) -> S::F {
    s.grad3([&GRAD3_X, &GRAD3_Y, &GRAD3_Z], h, x, y, z)
}

/// One axis of a sample after the split: its fraction in the cell and the
/// axis hashes of the cells before, at and after it. The separable kernels
/// (value, Perlin, cellular) read only this, so a grid can precompute it
/// once per row or column instead of once per sample.
#[derive(Clone, Copy)]
pub(crate) struct Axis<S: Simd> {
    /// Position inside the cell, [0, 1].
    pub(crate) f: S::F,
    /// Axis hashes of cells −1, 0 and +1.
    pub(crate) h: [S::I; 3],
}

impl<S: Simd> Axis<S> {
    /// A placeholder to initialise arrays with.
    #[inline(always)]
    pub(crate) fn zero(s: S) -> Self {
        Axis {
            f: s.splat(0.0),
            h: [s.splat_i(0); 3],
        }
    }
}

/// Splits lattice coordinates into an [`Axis`].
#[inline(always)]
pub(crate) fn split_axis<S: Simd, H: Lattice>(s: S, coords: &[f64], axis: usize) -> Axis<S> {
    let (f, lo, hi) = s.split(coords);
    Axis {
        f,
        h: H::axis_triple(s, lo, hi, axis),
    }
}

/// Value noise in 2D: bilinear blend of hashed corner values, quintic fade.
#[inline(always)]
pub(crate) fn value2<S: Simd, H: Lattice>(s: S, [x, y]: [Axis<S>; 2], seed: u32) -> S::F {
    let sd = seeds(s, seed);
    let ([_, hx0, hx1], [_, hy0, hy1]) = (x.h, y.h);
    let v00 = hash_value(s, combine2::<S, H>(s, hx0, hy0, sd));
    let v10 = hash_value(s, combine2::<S, H>(s, hx1, hy0, sd));
    let v01 = hash_value(s, combine2::<S, H>(s, hx0, hy1, sd));
    let v11 = hash_value(s, combine2::<S, H>(s, hx1, hy1, sd));
    let u = fade(s, x.f);
    let v = fade(s, y.f);
    lerp(s, lerp(s, v00, v10, u), lerp(s, v01, v11, u), v)
}

/// Gradient (Perlin) noise in 2D. When every lane has the same axis
/// hashes (the lanes share a cell), the corner hashes are computed once in
/// scalar ([`uniform_hashes`]) and the gradients broadcast.
#[inline(always)]
pub(crate) fn perlin2<S: Simd, H: Lattice>(s: S, [x, y]: [Axis<S>; 2], seed: u32) -> S::F {
    let (fx, fy) = (x.f, y.f);
    let one = s.splat(1.0);
    let (x1, y1) = (s.sub(fx, one), s.sub(fy, one));
    let [n00, n10, n01, n11] = match uniform_hashes(s, [&x.h, &y.h]) {
        Some([hx, hy]) => {
            let c = corners2::<H>(hx, hy, seed);
            [
                known_grad2(s, c[0], fx, fy),
                known_grad2(s, c[1], x1, fy),
                known_grad2(s, c[2], fx, y1),
                known_grad2(s, c[3], x1, y1),
            ]
        }
        None => {
            let sd = seeds(s, seed);
            let ([_, hx0, hx1], [_, hy0, hy1]) = (x.h, y.h);
            [
                grad2(s, combine2::<S, H>(s, hx0, hy0, sd), fx, fy),
                grad2(s, combine2::<S, H>(s, hx1, hy0, sd), x1, fy),
                grad2(s, combine2::<S, H>(s, hx0, hy1, sd), fx, y1),
                grad2(s, combine2::<S, H>(s, hx1, hy1, sd), x1, y1),
            ]
        }
    };
    let u = fade(s, fx);
    let v = fade(s, fy);
    lerp(s, lerp(s, n00, n10, u), lerp(s, n01, n11, u), v)
}

/// Value noise in 3D: trilinear blend of hashed corner values.
#[inline(always)]
pub(crate) fn value3<S: Simd, H: Lattice>(s: S, [x, y, z]: [Axis<S>; 3], seed: u32) -> S::F {
    let sd = seeds(s, seed);
    let ([_, hx0, hx1], [_, hy0, hy1], [_, hz0, hz1]) = (x.h, y.h, z.h);
    let (u, v, w) = (fade(s, x.f), fade(s, y.f), fade(s, z.f));
    let mut planes = [s.splat(0.0); 2];
    for (plane, hz) in planes.iter_mut().zip([hz0, hz1]) {
        let c00 = hash_value(s, combine3::<S, H>(s, hx0, hy0, hz, sd));
        let c10 = hash_value(s, combine3::<S, H>(s, hx1, hy0, hz, sd));
        let c01 = hash_value(s, combine3::<S, H>(s, hx0, hy1, hz, sd));
        let c11 = hash_value(s, combine3::<S, H>(s, hx1, hy1, hz, sd));
        *plane = lerp(s, lerp(s, c00, c10, u), lerp(s, c01, c11, u), v);
    }
    lerp(s, planes[0], planes[1], w)
}

/// Gradient (improved Perlin) noise in 3D; like [`perlin2`], lanes with
/// the same axis hashes share their corner hashes, computed once.
#[inline(always)]
pub(crate) fn perlin3<S: Simd, H: Lattice>(s: S, [x, y, z]: [Axis<S>; 3], seed: u32) -> S::F {
    if let Some([hx, hy, hz]) = uniform_hashes(s, [&x.h, &y.h, &z.h]) {
        let c = corners3::<H>(hx, hy, hz, seed);
        return perlin3_blend(s, [x.f, y.f, z.f], &Broadcast(c));
    }
    perlin3_lanes::<S, H>(s, [x, y, z], seed)
}

/// [`perlin3`] with each lane's own corner hashes.
#[inline(always)]
fn perlin3_lanes<S: Simd, H: Lattice>(s: S, [x, y, z]: [Axis<S>; 3], seed: u32) -> S::F {
    let sd = seeds(s, seed);
    let ([_, hx0, hx1], [_, hy0, hy1], [_, hz0, hz1]) = (x.h, y.h, z.h);
    // No closures here or below: they would be compiled without the
    // caller's target features, and every intrinsic in them called.
    let corners = [
        combine3::<S, H>(s, hx0, hy0, hz0, sd),
        combine3::<S, H>(s, hx1, hy0, hz0, sd),
        combine3::<S, H>(s, hx0, hy1, hz0, sd),
        combine3::<S, H>(s, hx1, hy1, hz0, sd),
        combine3::<S, H>(s, hx0, hy0, hz1, sd),
        combine3::<S, H>(s, hx1, hy0, hz1, sd),
        combine3::<S, H>(s, hx0, hy1, hz1, sd),
        combine3::<S, H>(s, hx1, hy1, hz1, sd),
    ];
    perlin3_blend(s, [x.f, y.f, z.f], &PerLane::<S>(corners))
}

/// [`perlin3`] at positions: splits them here and, when every lane lies in
/// one cell, hashes its corners once ([`uniform_corners3`]).
#[inline(always)]
pub(crate) fn perlin3_at<S: Simd, H: Lattice>(
    s: S,
    x: &[f64],
    y: &[f64],
    z: &[f64],
    seed: u32,
) -> S::F {
    let (fx, xl, xh) = s.split(x);
    let (fy, yl, yh) = s.split(y);
    let (fz, zl, zh) = s.split(z);
    if let Some(c) = uniform_corners3::<S, H>(s, [(xl, xh), (yl, yh), (zl, zh)], seed) {
        return perlin3_blend(s, [fx, fy, fz], &Broadcast(c));
    }
    // The cell before (`axis_triple`'s first hash) is unused by Perlin and
    // folds away.
    let x = Axis {
        f: fx,
        h: H::axis_triple(s, xl, xh, 0),
    };
    let y = Axis {
        f: fy,
        h: H::axis_triple(s, yl, yh, 1),
    };
    let z = Axis {
        f: fz,
        h: H::axis_triple(s, zl, zh, 2),
    };
    perlin3_lanes::<S, H>(s, [x, y, z], seed)
}

/// A cell's corner hashes (indexed `bx | by << 1 | bz << 2`), as the
/// gradients' dot products with a corner's offset.
trait Corners<S: Simd> {
    fn dot3(&self, s: S, i: usize, x: S::F, y: S::F, z: S::F) -> S::F;
}

/// Each lane's own corner hashes: the backend's gradient lookup.
struct PerLane<S: Simd>([S::I; 8]);

impl<S: Simd> Corners<S> for PerLane<S> {
    #[inline(always)]
    fn dot3(&self, s: S, i: usize, x: S::F, y: S::F, z: S::F) -> S::F {
        grad3(s, self.0[i], x, y, z)
    }
}

/// Gradient components (x, y, z) of up to 16 cells, for [`Simd::table16`].
pub(crate) type Grad3Table = [[f32; 16]; 3];

/// The gradients of the corners `(cells[j], hy, hz)` for every j, hashed
/// as [`combine3`] does (xor is order-free), a vector of cells at a time.
#[inline(always)]
pub(crate) fn corner_grads3<S: Simd, H: Lattice>(
    s: S,
    cells: &[u32; 16],
    hy: u32,
    hz: u32,
    seed: u32,
) -> Grad3Table {
    let mut g = [[0.0; 16]; 3];
    let yz = s.splat_i(hy ^ hz ^ seed);
    let mut j = 0;
    while j < 16 {
        let h = H::finish_lanes(s, s.xor_i(s.load_i(&cells[j..]), yz));
        s.store(s.table16(&GRAD3_X, h), &mut g[0][j..]);
        s.store(s.table16(&GRAD3_Y, h), &mut g[1][j..]);
        s.store(s.table16(&GRAD3_Z, h), &mut g[2][j..]);
        j += S::LANES;
    }
    g
}

/// [`perlin3`] on a grid row whose corner gradients are tabulated per x
/// cell ([`corner_grads3`] for each (by, bz), indexed `by | bz << 1`):
/// `cell` is each lane's x cell index in the tables.
#[inline(always)]
pub(crate) fn perlin3_row<S: Simd>(s: S, f: [S::F; 3], cell: S::I, g: &[Grad3Table; 4]) -> S::F {
    let at = [cell, s.add_i(cell, s.splat_i(1))];
    perlin3_blend(s, f, &Tabled { g, at })
}

/// [`perlin3_row`] for a vector across a row's end: lanes where `m` is set
/// look their gradients up in the first row's tables, the rest in the
/// second's.
#[inline(always)]
pub(crate) fn perlin3_row_pair<S: Simd>(
    s: S,
    f: [S::F; 3],
    cell: S::I,
    m: S::M,
    g: [&[Grad3Table; 4]; 2],
) -> S::F {
    let at = [cell, s.add_i(cell, s.splat_i(1))];
    perlin3_blend(s, f, &TabledPair { g, at, m })
}

/// Corner gradients looked up per lane in one of two rows' tables.
struct TabledPair<'a, S: Simd> {
    g: [&'a [Grad3Table; 4]; 2],
    at: [S::I; 2],
    m: S::M,
}

impl<S: Simd> Corners<S> for TabledPair<'_, S> {
    #[inline(always)]
    fn dot3(&self, s: S, i: usize, x: S::F, y: S::F, z: S::F) -> S::F {
        let (a, b, at) = (&self.g[0][i >> 1], &self.g[1][i >> 1], self.at[i & 1]);
        let xy = s.add(
            s.mul(pick_row(s, self.m, [&a[0], &b[0]], at), x),
            s.mul(pick_row(s, self.m, [&a[1], &b[1]], at), y),
        );
        s.add(xy, s.mul(pick_row(s, self.m, [&a[2], &b[2]], at), z))
    }
}

/// `t[0][at]` where `m` is set, else `t[1][at]`, per lane. (A function, not
/// a closure: closures are compiled without the caller's target features,
/// and at AVX2 every intrinsic in one became a call.)
#[inline(always)]
fn pick_row<S: Simd>(s: S, m: S::M, t: [&[f32; 16]; 2], at: S::I) -> S::F {
    s.select(m, s.table16(t[0], at), s.table16(t[1], at))
}

/// Corner gradients looked up in a row's tables.
struct Tabled<'a, S: Simd> {
    g: &'a [Grad3Table; 4],
    /// Per lane, the table index of its cell (bx = 0) and the next (bx = 1).
    at: [S::I; 2],
}

impl<S: Simd> Corners<S> for Tabled<'_, S> {
    #[inline(always)]
    fn dot3(&self, s: S, i: usize, x: S::F, y: S::F, z: S::F) -> S::F {
        let (t, at) = (&self.g[i >> 1], self.at[i & 1]);
        // The table formula of `Simd::grad3`, so the same bits.
        let xy = s.add(
            s.mul(s.table16(&t[0], at), x),
            s.mul(s.table16(&t[1], at), y),
        );
        s.add(xy, s.mul(s.table16(&t[2], at), z))
    }
}

/// The Perlin 3D blend of a cell's corner gradients at the fractions `f`.
#[inline(always)]
fn perlin3_blend<S: Simd>(s: S, [fx, fy, fz]: [S::F; 3], c: &impl Corners<S>) -> S::F {
    let one = s.splat(1.0);
    let (x1, y1, z1) = (s.sub(fx, one), s.sub(fy, one), s.sub(fz, one));
    let (u, v, w) = (fade(s, fx), fade(s, fy), fade(s, fz));
    let mut planes = [s.splat(0.0); 2];
    for (k, (plane, pz)) in planes.iter_mut().zip([fz, z1]).enumerate() {
        let n00 = c.dot3(s, 4 * k, fx, fy, pz);
        let n10 = c.dot3(s, 4 * k + 1, x1, fy, pz);
        let n01 = c.dot3(s, 4 * k + 2, fx, y1, pz);
        let n11 = c.dot3(s, 4 * k + 3, x1, y1, pz);
        *plane = lerp(s, lerp(s, n00, n10, u), lerp(s, n01, n11, u), v);
    }
    s.mul(lerp(s, planes[0], planes[1], w), s.splat(PERLIN3_SCALE))
}

/// `x² + y²`, in that order.
#[inline(always)]
fn norm2<S: Simd>(s: S, x: S::F, y: S::F) -> S::F {
    s.add(s.mul(x, x), s.mul(y, y))
}

/// `(x² + y²) + z²`, in that order.
#[inline(always)]
fn norm3<S: Simd>(s: S, x: S::F, y: S::F, z: S::F) -> S::F {
    s.add(norm2(s, x, y), s.mul(z, z))
}

/// `max(r − d², 0)⁴`: a simplex corner's radial falloff.
#[inline(always)]
fn falloff<S: Simd>(s: S, r: f32, d2: S::F) -> S::F {
    let t = s.max(s.sub(s.splat(r), d2), s.splat(0.0));
    let t2 = s.mul(t, t);
    s.mul(t2, t2)
}

/// Simplex noise in 2D (three corners per triangle). The skew is done in
/// f64 before the split, so it stays exact far from the origin.
#[inline(always)]
pub(crate) fn simplex2<S: Simd, H: Lattice>(s: S, x: &[f64], y: &[f64], seed: u32) -> S::F {
    let (x, y) = (&x[..S::LANES], &y[..S::LANES]);
    let mut sx = [0.0f64; 16];
    let mut sy = [0.0f64; 16];
    for l in 0..S::LANES {
        let k = (x[l] + y[l]) * F2;
        sx[l] = x[l] + k;
        sy[l] = y[l] + k;
    }
    let (a, xl, xh) = s.split(&sx);
    let (b, yl, yh) = s.split(&sy);
    let t = s.mul(s.add(a, b), s.splat(G2));
    let (x0, y0) = (s.sub(a, t), s.sub(b, t));
    // Lower triangle (x0 > y0) steps x first, the upper one y first.
    let upper = s.lt(x0, y0);
    let g2 = s.splat(G2);
    let one = s.splat(1.0);
    let zero = s.splat(0.0);
    let x1 = s.add(s.sub(x0, s.select(upper, zero, one)), g2);
    let y1 = s.add(s.sub(y0, s.select(upper, one, zero)), g2);
    let g22 = s.splat(2.0 * G2 - 1.0);
    let (x2, y2) = (s.add(x0, g22), s.add(y0, g22));
    // The gradients' dot products at the corners (0, 0), the step's
    // corner, and (1, 1).
    let uniform = match simplex_picks_pay::<S>() {
        true => uniform_corners2::<S, H>(s, [(xl, xh), (yl, yh)], seed),
        false => None,
    };
    let [g0, g1, g2] = match uniform {
        Some(c) => {
            let h1 = s.select_i(upper, s.splat_i(c[2]), s.splat_i(c[1]));
            [
                known_grad2(s, c[0], x0, y0),
                grad2(s, h1, x1, y1),
                known_grad2(s, c[3], x2, y2),
            ]
        }
        None => {
            let sd = seeds(s, seed);
            let (hx0, hx1) = H::axis_pair(s, xl, xh, 0);
            let (hy0, hy1) = H::axis_pair(s, yl, yh, 1);
            let h1 = combine2::<S, H>(
                s,
                s.select_i(upper, hx0, hx1),
                s.select_i(upper, hy1, hy0),
                sd,
            );
            [
                grad2(s, combine2::<S, H>(s, hx0, hy0, sd), x0, y0),
                grad2(s, h1, x1, y1),
                grad2(s, combine2::<S, H>(s, hx1, hy1, sd), x2, y2),
            ]
        }
    };
    let n0 = s.mul(falloff(s, 0.5, norm2(s, x0, y0)), g0);
    let n1 = s.mul(falloff(s, 0.5, norm2(s, x1, y1)), g1);
    let n2 = s.mul(falloff(s, 0.5, norm2(s, x2, y2)), g2);
    s.mul(s.add(s.add(n0, n1), n2), s.splat(SIMPLEX2_SCALE))
}

/// Simplex noise in 3D (four corners per tetrahedron).
#[inline(always)]
pub(crate) fn simplex3<S: Simd, H: Lattice>(
    s: S,
    x: &[f64],
    y: &[f64],
    z: &[f64],
    seed: u32,
) -> S::F {
    let (x, y, z) = (&x[..S::LANES], &y[..S::LANES], &z[..S::LANES]);
    let mut sx = [0.0f64; 16];
    let mut sy = [0.0f64; 16];
    let mut sz = [0.0f64; 16];
    for l in 0..S::LANES {
        let k = (x[l] + y[l] + z[l]) * F3;
        sx[l] = x[l] + k;
        sy[l] = y[l] + k;
        sz[l] = z[l] + k;
    }
    let (a, xl, xh) = s.split(&sx);
    let (b, yl, yh) = s.split(&sy);
    let (c, zl, zh) = s.split(&sz);
    let t = s.mul(s.add(s.add(a, b), c), s.splat(G3));
    let (x0, y0, z0) = (s.sub(a, t), s.sub(b, t), s.sub(c, t));
    // Which tetrahedron: the axis order of (x0, y0, z0), ties broken as in
    // the classic tables (≥ favours the earlier axis).
    let lxy = s.lt(x0, y0);
    let lyz = s.lt(y0, z0);
    let lxz = s.lt(x0, z0);
    let i1 = s.or_m(lxy, lxz); // true means i1 == 0
    let j1 = s.andnot_m(lyz, lxy);
    let k1 = s.and_m(lxz, lyz);
    let i2 = s.and_m(lxy, lxz); // true means i2 == 0
    let j2 = s.andnot_m(lxy, lyz); // true means j2 == 0
    let k2 = s.or_m(lxz, lyz);
    let (one, zero) = (s.splat(1.0), s.splat(0.0));
    let g1 = s.splat(G3);
    let g2 = s.splat(2.0 * G3);
    let g3 = s.splat(3.0 * G3 - 1.0);
    let x1 = s.add(s.sub(x0, s.select(i1, zero, one)), g1);
    let y1 = s.add(s.sub(y0, s.select(j1, one, zero)), g1);
    let z1 = s.add(s.sub(z0, s.select(k1, one, zero)), g1);
    let x2 = s.add(s.sub(x0, s.select(i2, zero, one)), g2);
    let y2 = s.add(s.sub(y0, s.select(j2, zero, one)), g2);
    let z2 = s.add(s.sub(z0, s.select(k2, one, zero)), g2);
    let (x3, y3, z3) = (s.add(x0, g3), s.add(y0, g3), s.add(z0, g3));
    let cells = [(xl, xh), (yl, yh), (zl, zh)];
    // The gradients' dot products at the four corners.
    let uniform = match simplex_picks_pay::<S>() {
        true => uniform_corners3::<S, H>(s, cells, seed),
        false => None,
    };
    let [g0, g1, g2, g3] = match uniform {
        Some(cs) => [
            known_grad3(s, cs[0], x0, y0, z0),
            grad3(s, pick_corner3::<S, 1>(s, &cs, i1, j1, k1), x1, y1, z1),
            grad3(s, pick_corner3::<S, 0>(s, &cs, i2, j2, k2), x2, y2, z2),
            known_grad3(s, cs[7], x3, y3, z3),
        ],
        None => {
            let sd = seeds(s, seed);
            let (hx0, hx1) = H::axis_pair(s, xl, xh, 0);
            let (hy0, hy1) = H::axis_pair(s, yl, yh, 1);
            let (hz0, hz1) = H::axis_pair(s, zl, zh, 2);
            let h1 = combine3::<S, H>(
                s,
                s.select_i(i1, hx0, hx1),
                s.select_i(j1, hy1, hy0),
                s.select_i(k1, hz1, hz0),
                sd,
            );
            let h2 = combine3::<S, H>(
                s,
                s.select_i(i2, hx0, hx1),
                s.select_i(j2, hy0, hy1),
                s.select_i(k2, hz1, hz0),
                sd,
            );
            [
                grad3(s, combine3::<S, H>(s, hx0, hy0, hz0, sd), x0, y0, z0),
                grad3(s, h1, x1, y1, z1),
                grad3(s, h2, x2, y2, z2),
                grad3(s, combine3::<S, H>(s, hx1, hy1, hz1, sd), x3, y3, z3),
            ]
        }
    };
    let n0 = s.mul(falloff(s, 0.6, norm3(s, x0, y0, z0)), g0);
    let n1 = s.mul(falloff(s, 0.6, norm3(s, x1, y1, z1)), g1);
    let n2 = s.mul(falloff(s, 0.6, norm3(s, x2, y2, z2)), g2);
    let n3 = s.mul(falloff(s, 0.6, norm3(s, x3, y3, z3)), g3);
    s.mul(s.add(s.add(s.add(n0, n1), n2), n3), s.splat(SIMPLEX3_SCALE))
}

/// A feature point's jitter along one axis: 10 hash bits starting at `SHIFT`, in [0, 1).
#[inline(always)]
fn jitter<S: Simd, const SHIFT: i32>(s: S, h: S::I) -> S::F {
    let bits = s.and_i(s.shr_i::<SHIFT>(h), s.splat_i(0x3ff));
    s.mul(s.to_f(bits), s.splat(1.0 / 1024.0))
}

/// Keeps the two smallest squared distances seen so far; exact and
/// order-independent, so every lane width agrees.
#[inline(always)]
fn keep_two<S: Simd>(s: S, f1: &mut S::F, f2: &mut S::F, d: S::F) {
    *f2 = s.min(*f2, s.max(*f1, d));
    *f1 = s.min(*f1, d);
}

/// Maps the two nearest distances to the requested return value.
#[inline(always)]
fn cell_return<S: Simd>(s: S, f1: S::F, f2: S::F, ret: CellularReturn, scale: [f32; 3]) -> S::F {
    let (d1, d2) = (s.sqrt(f1), s.sqrt(f2));
    let (d, k) = match ret {
        CellularReturn::F1 => (d1, scale[0]),
        CellularReturn::F2 => (d2, scale[1]),
        CellularReturn::F2MinusF1 => (s.sub(d2, d1), scale[2]),
    };
    s.sub(s.mul(d, s.splat(k)), s.splat(1.0))
}

/// Cellular (Worley) noise in 2D: one jittered feature point per cell, the
/// 3×3 neighbourhood searched.
#[inline(always)]
pub(crate) fn cellular2<S: Simd, H: Lattice>(
    s: S,
    [x, y]: [Axis<S>; 2],
    seed: u32,
    ret: CellularReturn,
) -> S::F {
    let sd = seeds(s, seed);
    let big = s.splat(f32::MAX);
    let (mut f1, mut f2) = (big, big);
    for (dy, &hyv) in y.h.iter().enumerate() {
        let oy = s.sub(s.splat(dy as f32 - 1.0), y.f);
        for (dx, &hxv) in x.h.iter().enumerate() {
            let h = combine2::<S, H>(s, hxv, hyv, sd);
            let vx = s.add(s.sub(s.splat(dx as f32 - 1.0), x.f), jitter::<S, 0>(s, h));
            let vy = s.add(oy, jitter::<S, 10>(s, h));
            keep_two(s, &mut f1, &mut f2, s.add(s.mul(vx, vx), s.mul(vy, vy)));
        }
    }
    cell_return(s, f1, f2, ret, CELL2_SCALE)
}

/// Cellular (Worley) noise in 3D: the 3×3×3 neighbourhood searched.
#[inline(always)]
pub(crate) fn cellular3<S: Simd, H: Lattice>(
    s: S,
    [x, y, z]: [Axis<S>; 3],
    seed: u32,
    ret: CellularReturn,
) -> S::F {
    let sd = seeds(s, seed);
    let big = s.splat(f32::MAX);
    let (mut f1, mut f2) = (big, big);
    for (dz, &hzv) in z.h.iter().enumerate() {
        let oz = s.sub(s.splat(dz as f32 - 1.0), z.f);
        for (dy, &hyv) in y.h.iter().enumerate() {
            let oy = s.sub(s.splat(dy as f32 - 1.0), y.f);
            for (dx, &hxv) in x.h.iter().enumerate() {
                let h = combine3::<S, H>(s, hxv, hyv, hzv, sd);
                let vx = s.add(s.sub(s.splat(dx as f32 - 1.0), x.f), jitter::<S, 0>(s, h));
                let vy = s.add(oy, jitter::<S, 10>(s, h));
                let vz = s.add(oz, jitter::<S, 20>(s, h));
                let d = s.add(s.add(s.mul(vx, vx), s.mul(vy, vy)), s.mul(vz, vz));
                keep_two(s, &mut f1, &mut f2, d);
            }
        }
    }
    cell_return(s, f1, f2, ret, CELL3_SCALE)
}
