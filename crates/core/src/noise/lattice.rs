//! Lattice hashing in lanes: the vector form of [`crate::hash::axis_hash`],
//! [`crate::hash::combine2`] and [`crate::hash::combine3`], and the small
//! shared pieces (fade, lerp) every gradient kernel uses.

use super::simd::Simd;
use crate::hash::{AXIS_PRIMES, HIGH_PRIME};

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

/// Axis hash of the cell `(lo, hi)` (equals [`crate::hash::axis_hash`]).
#[inline(always)]
pub(crate) fn axis_hash<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> S::I {
    let pre = s.add_i(lo, s.mul_i(hi, s.splat_i(HIGH_PRIME)));
    s.mul_i(pre, s.splat_i(AXIS_PRIMES[axis]))
}

/// Axis hashes of the cell and the next one along the axis.
#[inline(always)]
pub(crate) fn axis_pair<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> (S::I, S::I) {
    let (p, wrap) = steps(axis);
    let h0 = axis_hash(s, lo, hi, axis);
    let carry = s.eq_i(lo, s.splat_i(u32::MAX));
    (
        h0,
        s.add_i(h0, s.select_i(carry, s.splat_i(wrap), s.splat_i(p))),
    )
}

/// Axis hashes of the cells before, at and after the sample.
#[inline(always)]
pub(crate) fn axis_triple<S: Simd>(s: S, lo: S::I, hi: S::I, axis: usize) -> [S::I; 3] {
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

/// Hash of a 2D cell (equals [`crate::hash::combine2`]).
#[inline(always)]
pub(crate) fn combine2<S: Simd>(s: S, hx: S::I, hy: S::I, seed: S::I) -> S::I {
    fmix32(s, s.xor_i(s.xor_i(hx, hy), seed))
}

/// Hash of a 3D cell (equals [`crate::hash::combine3`]).
#[inline(always)]
pub(crate) fn combine3<S: Simd>(s: S, hx: S::I, hy: S::I, hz: S::I, seed: S::I) -> S::I {
    fmix32(s, s.xor_i(s.xor_i(s.xor_i(hx, hy), hz), seed))
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
    use crate::hash;

    #[test]
    fn lane_hashes_equal_the_scalar_definitions() {
        let s = Scalar;
        let cells = [
            0i64,
            1,
            -1,
            4_250_000,
            -4_250_001,
            1 << 32,
            (1 << 32) - 1,
            -(1 << 40),
            i64::MAX / 3,
            -(1 << 32),
        ];
        for cell in cells {
            for axis in 0..3 {
                let (lo, hi) = (cell as u32, (cell >> 32) as u32);
                let [prev, here, next] = axis_triple(s, lo, hi, axis);
                assert_eq!(here, hash::axis_hash(cell, axis));
                assert_eq!(next, hash::axis_hash(cell + 1, axis), "next of {cell}");
                assert_eq!(prev, hash::axis_hash(cell - 1, axis), "prev of {cell}");
            }
        }
        assert_eq!(combine2(s, 12345, 678, 9), hash::combine2(12345, 678, 9));
        assert_eq!(combine3(s, 1, 2, 3, 4), hash::combine3(1, 2, 3, 4));
    }
}
