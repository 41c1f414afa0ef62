//! Lattice hashing in lanes: the two lattice hashes ([`Hash1`], [`Hash2`])
//! behind one trait the kernels are generic over, and the small shared
//! pieces (fade, lerp) every gradient kernel uses.
//!
//! A corner's hash is always `finish(hx ^ hy [^ hz] ^ seed)` over per-axis
//! parts, so a kernel asks the [`Lattice`] for axis parts once per axis and
//! for `finish` once per corner. Hash 1 puts its non-linear work in
//! `finish` (fmix32, two multiplies per corner); hash 2 splits it, one
//! multiply per axis part (once per row or column in the grid fills) and
//! one per corner.

use super::simd::Simd;
use crate::hash::{self, AXIS_PRIMES, AXIS_PRIMES2, BLOCK_PRIME2, CORNER_PRIME2, HIGH_PRIME};

/// A lattice hash: axis parts of i64 cells and the per-corner finish, in
/// scalar (the definition) and in lanes (equal to it, a test holds this).
pub(crate) trait Lattice: Copy + 'static {
    /// The axis part of `cell` along `axis` (the definition).
    fn axis(cell: i64, axis: usize) -> u32;
    /// A corner's hash from the XOR of its axis parts and the seed.
    fn finish(v: u32) -> u32;
    /// [`Lattice::finish`] in lanes.
    fn finish_lanes<S: Simd>(s: S, v: S::I) -> S::I;
    /// Axis parts of the cells `(lo, hi)` and the next along the axis.
    fn axis_pair<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> (S::I, S::I);
    /// Axis parts of the cells before, at and after `(lo, hi)`.
    fn axis_triple<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> [S::I; 3];
}

/// Hash 1: linear axis parts `(lo + hi·HIGH_PRIME)·P`, fmix32 per corner.
/// Every released generator version before noise version 2 uses it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hash1;

/// Hash 2 on any i64 cell (the exact route, [`hash::axis_hash2`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hash2;

/// Hash 2 where every lane's cell, and the cells either side, fit in an
/// i32 (the caller checked the block's coordinates): the fold is the
/// identity there, so the high halves are never read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hash2Fast;

impl Lattice for Hash1 {
    #[inline(always)]
    fn axis(cell: i64, axis: usize) -> u32 {
        hash::axis_hash(cell, axis)
    }
    #[inline(always)]
    fn finish(v: u32) -> u32 {
        hash::fmix32(v)
    }
    #[inline(always)]
    fn finish_lanes<S: Simd>(s: S, v: S::I) -> S::I {
        fmix32(s, v)
    }
    #[inline(always)]
    fn axis_pair<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> (S::I, S::I) {
        axis_pair(s, lo, hi, axis)
    }
    #[inline(always)]
    fn axis_triple<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> [S::I; 3] {
        axis_triple(s, lo, hi, axis)
    }
}

/// [`hash::mix_axis2`] in lanes.
#[inline(always)]
pub(crate) fn mix_axis2<S: Simd>(s: S, w: S::I, axis: usize) -> S::I {
    let v = s.mul_i(s.xor_i(w, s.shr_i::<16>(w)), s.splat_i(AXIS_PRIMES2[axis]));
    s.xor_i(v, s.shr_i::<13>(v))
}

/// [`hash::fold2`] in lanes.
#[inline(always)]
fn fold2<S: Simd>(s: S, lo: S::I, hi: S::I) -> S::I {
    let t = s.add_i(hi, s.shr_i::<31>(lo));
    s.xor_i(lo, s.mul_i(t, s.splat_i(BLOCK_PRIME2)))
}

/// The cell after `(lo, hi)`: the low half plus one, carrying into the high.
#[inline(always)]
fn next_cell<S: Simd>(s: S, lo: S::I, hi: S::I) -> (S::I, S::I) {
    let lo1 = s.add_i(lo, s.splat_i(1));
    let carry = s.eq_i(lo1, s.splat_i(0));
    (
        lo1,
        s.add_i(hi, s.select_i(carry, s.splat_i(1), s.splat_i(0))),
    )
}

/// The cell before `(lo, hi)`.
#[inline(always)]
fn prev_cell<S: Simd>(s: S, lo: S::I, hi: S::I) -> (S::I, S::I) {
    let borrow = s.eq_i(lo, s.splat_i(0));
    (
        s.add_i(lo, s.splat_i(u32::MAX)),
        s.add_i(hi, s.select_i(borrow, s.splat_i(u32::MAX), s.splat_i(0))),
    )
}

impl Lattice for Hash2 {
    #[inline(always)]
    fn axis(cell: i64, axis: usize) -> u32 {
        hash::axis_hash2(cell, axis)
    }
    #[inline(always)]
    fn finish(v: u32) -> u32 {
        hash::finish2(v)
    }
    #[inline(always)]
    fn finish_lanes<S: Simd>(s: S, v: S::I) -> S::I {
        finish2(s, v)
    }
    #[inline(always)]
    fn axis_pair<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> (S::I, S::I) {
        let (lo1, hi1) = next_cell(s, lo, hi);
        (
            mix_axis2(s, fold2(s, lo, hi), axis),
            mix_axis2(s, fold2(s, lo1, hi1), axis),
        )
    }
    #[inline(always)]
    fn axis_triple<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> [S::I; 3] {
        let (lom, him) = prev_cell(s, lo, hi);
        let (h0, h1) = Self::axis_pair(s, lo, hi, axis);
        [mix_axis2(s, fold2(s, lom, him), axis), h0, h1]
    }
}

/// The same hash as [`Hash2`]: only the route to the axis parts differs.
impl Lattice for Hash2Fast {
    #[inline(always)]
    fn axis(cell: i64, axis: usize) -> u32 {
        Hash2::axis(cell, axis)
    }
    #[inline(always)]
    fn finish(v: u32) -> u32 {
        Hash2::finish(v)
    }
    #[inline(always)]
    fn finish_lanes<S: Simd>(s: S, v: S::I) -> S::I {
        Hash2::finish_lanes(s, v)
    }
    #[inline(always)]
    fn axis_pair<S: Simd>(s: S, lo: S::I, _hi: S::I, axis: usize) -> (S::I, S::I) {
        let lo1 = s.add_i(lo, s.splat_i(1));
        (mix_axis2(s, lo, axis), mix_axis2(s, lo1, axis))
    }
    #[inline(always)]
    fn axis_triple<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> [S::I; 3] {
        let lom = s.add_i(lo, s.splat_i(u32::MAX));
        let (h0, h1) = Self::axis_pair(s, lo, hi, axis);
        [mix_axis2(s, lom, axis), h0, h1]
    }
}

/// The largest scaled coordinate magnitude for which [`Hash2Fast`] holds:
/// a cell and its neighbours inside i32 even after the simplex skew (at
/// most ×(1 + 3·F3) = ×2 in 3D).
pub(crate) const FAST_COORD: f64 = (1u64 << 29) as f64;

/// [`hash::finish2`] in lanes.
#[inline(always)]
pub(crate) fn finish2<S: Simd>(s: S, v: S::I) -> S::I {
    let h = s.mul_i(v, s.splat_i(CORNER_PRIME2));
    s.xor_i(h, s.shr_i::<16>(h))
}

/// MurmurHash3's finaliser in lanes (equals [`crate::hash::fmix32`]).
#[inline(always)]
pub(crate) fn fmix32<S: Simd>(s: S, h: S::I) -> S::I {
    let h = s.xor_i(h, s.shr_i::<16>(h));
    let h = s.mul_i(h, s.splat_i(0x85eb_ca6b));
    let h = s.xor_i(h, s.shr_i::<13>(h));
    let h = s.mul_i(h, s.splat_i(0xc2b2_ae35));
    s.xor_i(h, s.shr_i::<16>(h))
}

/// How far [`crate::hash::axis_hash`] moves from one cell to the next: `P`,
/// or `P·(HIGH_PRIME + 1)` when the low half wraps and carries.
const fn steps(axis: usize) -> (u32, u32) {
    let p = AXIS_PRIMES[axis];
    (p, p.wrapping_mul(HIGH_PRIME.wrapping_add(1)))
}

/// Hash 1's axis part of the cell `(lo, hi)` (equals [`crate::hash::axis_hash`]).
#[inline(always)]
fn axis_hash<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> S::I {
    let pre = s.add_i(lo, s.mul_i(hi, s.splat_i(HIGH_PRIME)));
    s.mul_i(pre, s.splat_i(AXIS_PRIMES[axis]))
}

/// Hash 1's axis parts of the cell and the next one along the axis.
#[inline(always)]
fn axis_pair<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> (S::I, S::I) {
    let (p, wrap) = steps(axis);
    let h0 = axis_hash(s, lo, hi, axis);
    let carry = s.eq_i(lo, s.splat_i(u32::MAX));
    (
        h0,
        s.add_i(h0, s.select_i(carry, s.splat_i(wrap), s.splat_i(p))),
    )
}

/// Hash 1's axis parts of the cells before, at and after the sample.
#[inline(always)]
fn axis_triple<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> [S::I; 3] {
    let (p, wrap) = steps(axis);
    let (h0, h1) = axis_pair(s, lo, hi, axis);
    let borrow = s.eq_i(lo, s.splat_i(0));
    let back = s.select_i(
        borrow,
        s.splat_i(wrap.wrapping_neg()),
        s.splat_i(p.wrapping_neg()),
    );
    [s.add_i(h0, back), h0, h1]
}

/// Hash of a 2D cell from its axis parts.
#[inline(always)]
pub(crate) fn combine2<S: Simd, H: Lattice>(s: S, hx: S::I, hy: S::I, seed: S::I) -> S::I {
    H::finish_lanes(s, s.xor_i(s.xor_i(hx, hy), seed))
}

/// Hash of a 3D cell from its axis parts.
#[inline(always)]
pub(crate) fn combine3<S: Simd, H: Lattice>(
    s: S,
    hx: S::I,
    hy: S::I,
    hz: S::I,
    seed: S::I,
) -> S::I {
    H::finish_lanes(s, s.xor_i(s.xor_i(s.xor_i(hx, hy), hz), seed))
}

/// Perlin's quintic fade `t³(t(6t − 15) + 10)`, evaluated in that order.
#[inline(always)]
pub(crate) fn fade<S: Simd>(s: S, t: S::F) -> S::F {
    let t3 = s.mul(s.mul(t, t), t);
    let inner = s.sub(s.mul(t, s.splat(6.0)), s.splat(15.0));
    let inner = s.add(s.mul(t, inner), s.splat(10.0));
    s.mul(t3, inner)
}

/// `a + t (b − a)`.
#[inline(always)]
pub(crate) fn lerp<S: Simd>(s: S, a: S::F, b: S::F, t: S::F) -> S::F {
    s.add(a, s.mul(t, s.sub(b, a)))
}

/// The hash as a value in `[-1, 1)`: its top 24 bits, scaled.
#[inline(always)]
pub(crate) fn hash_value<S: Simd>(s: S, h: S::I) -> S::F {
    s.sub(
        s.mul(s.to_f(s.shr_i::<8>(h)), s.splat(1.0 / (1u32 << 23) as f32)),
        s.splat(1.0),
    )
}

#[cfg(test)]
mod tests {
    use super::super::simd::scalar::Scalar;
    use super::*;

    const CELLS: [i64; 14] = [
        0,
        1,
        -1,
        4_250_000,
        -4_250_001,
        i32::MAX as i64,
        i32::MIN as i64,
        (1 << 31) - 2,
        1 << 32,
        (1 << 32) - 1,
        -(1 << 40),
        i64::MAX / 3,
        -(1 << 32),
        -(1 << 31) - 1,
    ];

    fn lanes_equal_the_definition<H: Lattice>() {
        let s = Scalar;
        for cell in CELLS {
            for axis in 0..3 {
                let (lo, hi) = (cell as u32, (cell >> 32) as u32);
                let [prev, here, next] = H::axis_triple(s, lo, hi, axis);
                assert_eq!(here, H::axis(cell, axis), "{cell}");
                assert_eq!(next, H::axis(cell + 1, axis), "next of {cell}");
                assert_eq!(prev, H::axis(cell - 1, axis), "prev of {cell}");
            }
        }
        for v in [0, 1, 12345, u32::MAX, 0x8000_0000] {
            assert_eq!(H::finish_lanes(s, v), H::finish(v));
        }
    }

    #[test]
    fn lane_hashes_equal_the_scalar_definitions() {
        lanes_equal_the_definition::<Hash1>();
        lanes_equal_the_definition::<Hash2>();
        assert_eq!(
            combine2::<_, Hash1>(Scalar, 12345, 678, 9),
            hash::combine2(12345, 678, 9)
        );
        assert_eq!(
            combine3::<_, Hash1>(Scalar, 1, 2, 3, 4),
            hash::combine3(1, 2, 3, 4)
        );
        assert_eq!(
            combine3::<_, Hash2>(Scalar, 1, 2, 3, 4),
            hash::combine3_v2(1, 2, 3, 4)
        );
    }

    #[test]
    fn the_fast_route_equals_the_exact_one_inside_its_range() {
        let s = Scalar;
        let bound = FAST_COORD as i64 * 2 + 1;
        for cell in [0, 1, -1, 77_777, -bound, bound, 1 << 30, -(1 << 30)] {
            for axis in 0..3 {
                let (lo, hi) = (cell as u32, (cell >> 32) as u32);
                assert_eq!(
                    Hash2Fast::axis_triple(s, lo, hi, axis),
                    Hash2::axis_triple(s, lo, hi, axis),
                    "{cell}"
                );
            }
        }
    }
}
