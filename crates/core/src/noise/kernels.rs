//! The noise kernels, written once for every lane width.
//!
//! Each takes coordinates already scaled to lattice units (f64, clamped to
//! [`super::MAX_COORD`]) for `S::LANES` samples and returns one vector of
//! values in about `[-1, 1]`. The f64 → (i64 cell, f32 fraction) split is
//! the first thing each kernel does; everything after it is f32 and u32
//! arithmetic with a fixed evaluation order.

use super::CellularReturn;
use super::lattice::{axis_pair, axis_triple, combine2, combine3, fade, hash_value, lerp};
use super::simd::Simd;

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
pub(crate) fn split_axis<S: Simd>(s: S, coords: &[f64], axis: usize) -> Axis<S> {
    let (f, lo, hi) = s.split(coords);
    Axis {
        f,
        h: axis_triple(s, lo, hi, axis),
    }
}

/// Value noise in 2D: bilinear blend of hashed corner values, quintic fade.
#[inline(always)]
pub(crate) fn value2<S: Simd>(s: S, [x, y]: [Axis<S>; 2], seed: u32) -> S::F {
    let sd = seeds(s, seed);
    let ([_, hx0, hx1], [_, hy0, hy1]) = (x.h, y.h);
    let v00 = hash_value(s, combine2(s, hx0, hy0, sd));
    let v10 = hash_value(s, combine2(s, hx1, hy0, sd));
    let v01 = hash_value(s, combine2(s, hx0, hy1, sd));
    let v11 = hash_value(s, combine2(s, hx1, hy1, sd));
    let u = fade(s, x.f);
    let v = fade(s, y.f);
    lerp(s, lerp(s, v00, v10, u), lerp(s, v01, v11, u), v)
}

/// Gradient (Perlin) noise in 2D.
#[inline(always)]
pub(crate) fn perlin2<S: Simd>(s: S, [x, y]: [Axis<S>; 2], seed: u32) -> S::F {
    let sd = seeds(s, seed);
    let ([_, hx0, hx1], [_, hy0, hy1]) = (x.h, y.h);
    let (fx, fy) = (x.f, y.f);
    let one = s.splat(1.0);
    let (x1, y1) = (s.sub(fx, one), s.sub(fy, one));
    let n00 = grad2(s, combine2(s, hx0, hy0, sd), fx, fy);
    let n10 = grad2(s, combine2(s, hx1, hy0, sd), x1, fy);
    let n01 = grad2(s, combine2(s, hx0, hy1, sd), fx, y1);
    let n11 = grad2(s, combine2(s, hx1, hy1, sd), x1, y1);
    let u = fade(s, fx);
    let v = fade(s, fy);
    lerp(s, lerp(s, n00, n10, u), lerp(s, n01, n11, u), v)
}

/// Value noise in 3D: trilinear blend of hashed corner values.
#[inline(always)]
pub(crate) fn value3<S: Simd>(s: S, [x, y, z]: [Axis<S>; 3], seed: u32) -> S::F {
    let sd = seeds(s, seed);
    let ([_, hx0, hx1], [_, hy0, hy1], [_, hz0, hz1]) = (x.h, y.h, z.h);
    let (u, v, w) = (fade(s, x.f), fade(s, y.f), fade(s, z.f));
    let mut planes = [s.splat(0.0); 2];
    for (plane, hz) in planes.iter_mut().zip([hz0, hz1]) {
        let c00 = hash_value(s, combine3(s, hx0, hy0, hz, sd));
        let c10 = hash_value(s, combine3(s, hx1, hy0, hz, sd));
        let c01 = hash_value(s, combine3(s, hx0, hy1, hz, sd));
        let c11 = hash_value(s, combine3(s, hx1, hy1, hz, sd));
        *plane = lerp(s, lerp(s, c00, c10, u), lerp(s, c01, c11, u), v);
    }
    lerp(s, planes[0], planes[1], w)
}

/// Gradient (improved Perlin) noise in 3D.
#[inline(always)]
pub(crate) fn perlin3<S: Simd>(s: S, [x, y, z]: [Axis<S>; 3], seed: u32) -> S::F {
    let sd = seeds(s, seed);
    let ([_, hx0, hx1], [_, hy0, hy1], [_, hz0, hz1]) = (x.h, y.h, z.h);
    let (fx, fy, fz) = (x.f, y.f, z.f);
    let one = s.splat(1.0);
    let (x1, y1, z1) = (s.sub(fx, one), s.sub(fy, one), s.sub(fz, one));
    let (u, v, w) = (fade(s, fx), fade(s, fy), fade(s, fz));
    let mut planes = [s.splat(0.0); 2];
    for (plane, (hz, pz)) in planes.iter_mut().zip([(hz0, fz), (hz1, z1)]) {
        let n00 = grad3(s, combine3(s, hx0, hy0, hz, sd), fx, fy, pz);
        let n10 = grad3(s, combine3(s, hx1, hy0, hz, sd), x1, fy, pz);
        let n01 = grad3(s, combine3(s, hx0, hy1, hz, sd), fx, y1, pz);
        let n11 = grad3(s, combine3(s, hx1, hy1, hz, sd), x1, y1, pz);
        *plane = lerp(s, lerp(s, n00, n10, u), lerp(s, n01, n11, u), v);
    }
    s.mul(lerp(s, planes[0], planes[1], w), s.splat(PERLIN3_SCALE))
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
pub(crate) fn simplex2<S: Simd>(s: S, x: &[f64], y: &[f64], seed: u32) -> S::F {
    let (x, y) = (&x[..S::LANES], &y[..S::LANES]);
    let mut sx = [0.0f64; 16];
    let mut sy = [0.0f64; 16];
    for l in 0..S::LANES {
        let k = (x[l] + y[l]) * F2;
        sx[l] = x[l] + k;
        sy[l] = y[l] + k;
    }
    let sd = seeds(s, seed);
    let (a, xl, xh) = s.split(&sx);
    let (b, yl, yh) = s.split(&sy);
    let (hx0, hx1) = axis_pair(s, xl, xh, 0);
    let (hy0, hy1) = axis_pair(s, yl, yh, 1);
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
    let h1 = combine2(
        s,
        s.select_i(upper, hx0, hx1),
        s.select_i(upper, hy1, hy0),
        sd,
    );
    let d2 = |px: S::F, py: S::F| s.add(s.mul(px, px), s.mul(py, py));
    let n0 = s.mul(
        falloff(s, 0.5, d2(x0, y0)),
        grad2(s, combine2(s, hx0, hy0, sd), x0, y0),
    );
    let n1 = s.mul(falloff(s, 0.5, d2(x1, y1)), grad2(s, h1, x1, y1));
    let n2 = s.mul(
        falloff(s, 0.5, d2(x2, y2)),
        grad2(s, combine2(s, hx1, hy1, sd), x2, y2),
    );
    s.mul(s.add(s.add(n0, n1), n2), s.splat(SIMPLEX2_SCALE))
}

/// Simplex noise in 3D (four corners per tetrahedron).
#[inline(always)]
pub(crate) fn simplex3<S: Simd>(s: S, x: &[f64], y: &[f64], z: &[f64], seed: u32) -> S::F {
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
    let sd = seeds(s, seed);
    let (a, xl, xh) = s.split(&sx);
    let (b, yl, yh) = s.split(&sy);
    let (c, zl, zh) = s.split(&sz);
    let (hx0, hx1) = axis_pair(s, xl, xh, 0);
    let (hy0, hy1) = axis_pair(s, yl, yh, 1);
    let (hz0, hz1) = axis_pair(s, zl, zh, 2);
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
    let h0 = combine3(s, hx0, hy0, hz0, sd);
    let h1 = combine3(
        s,
        s.select_i(i1, hx0, hx1),
        s.select_i(j1, hy1, hy0),
        s.select_i(k1, hz1, hz0),
        sd,
    );
    let h2 = combine3(
        s,
        s.select_i(i2, hx0, hx1),
        s.select_i(j2, hy0, hy1),
        s.select_i(k2, hz1, hz0),
        sd,
    );
    let h3 = combine3(s, hx1, hy1, hz1, sd);
    let d2 =
        |px: S::F, py: S::F, pz: S::F| s.add(s.add(s.mul(px, px), s.mul(py, py)), s.mul(pz, pz));
    let n0 = s.mul(falloff(s, 0.6, d2(x0, y0, z0)), grad3(s, h0, x0, y0, z0));
    let n1 = s.mul(falloff(s, 0.6, d2(x1, y1, z1)), grad3(s, h1, x1, y1, z1));
    let n2 = s.mul(falloff(s, 0.6, d2(x2, y2, z2)), grad3(s, h2, x2, y2, z2));
    let n3 = s.mul(falloff(s, 0.6, d2(x3, y3, z3)), grad3(s, h3, x3, y3, z3));
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
pub(crate) fn cellular2<S: Simd>(
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
            let h = combine2(s, hxv, hyv, sd);
            let vx = s.add(s.sub(s.splat(dx as f32 - 1.0), x.f), jitter::<S, 0>(s, h));
            let vy = s.add(oy, jitter::<S, 10>(s, h));
            keep_two(s, &mut f1, &mut f2, s.add(s.mul(vx, vx), s.mul(vy, vy)));
        }
    }
    cell_return(s, f1, f2, ret, CELL2_SCALE)
}

/// Cellular (Worley) noise in 3D: the 3×3×3 neighbourhood searched.
#[inline(always)]
pub(crate) fn cellular3<S: Simd>(
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
                let h = combine3(s, hxv, hyv, hzv, sd);
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
