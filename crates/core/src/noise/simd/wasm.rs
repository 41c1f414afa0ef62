//! The WebAssembly SIMD128 backend: 4 lanes. A wasm module either has
//! SIMD128 or does not (engines validate the whole module), so the level
//! exists only in builds with `-C target-feature=+simd128`; there is no
//! runtime detection to do.

use super::Simd;
use super::magic::{MAGIC, MAGIC_HI};
use std::arch::wasm32::*;

/// SIMD128 token: it exists only in builds compiled with SIMD128.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Simd128(());

impl Simd128 {
    /// SIMD128 is present in every build that compiled this module.
    pub(crate) fn new() -> Self {
        Simd128(())
    }
}

// Loads and stores are unaligned-safe in WebAssembly; each checks its
// slice length first. The other intrinsics are safe functions.
impl Simd for Simd128 {
    const LANES: usize = 4;
    type F = v128;
    type I = v128;
    type M = v128;

    #[inline(always)]
    fn splat(self, v: f32) -> v128 {
        f32x4_splat(v)
    }
    #[inline(always)]
    fn splat_i(self, v: u32) -> v128 {
        u32x4_splat(v)
    }
    #[inline(always)]
    fn load(self, src: &[f32]) -> v128 {
        assert!(src.len() >= 4);
        // SAFETY: 16 readable bytes (checked); wasm loads need no alignment.
        unsafe { v128_load(src.as_ptr().cast()) }
    }
    #[inline(always)]
    fn load_i(self, src: &[u32]) -> v128 {
        assert!(src.len() >= 4);
        // SAFETY: as `load`.
        unsafe { v128_load(src.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(self, v: v128, dst: &mut [f32]) {
        assert!(dst.len() >= 4);
        // SAFETY: 16 writable bytes (checked); no alignment needed.
        unsafe { v128_store(dst.as_mut_ptr().cast(), v) }
    }
    #[inline(always)]
    fn add(self, a: v128, b: v128) -> v128 {
        f32x4_add(a, b)
    }
    #[inline(always)]
    fn sub(self, a: v128, b: v128) -> v128 {
        f32x4_sub(a, b)
    }
    #[inline(always)]
    fn mul(self, a: v128, b: v128) -> v128 {
        f32x4_mul(a, b)
    }
    #[inline(always)]
    fn min(self, a: v128, b: v128) -> v128 {
        // f32x4_min propagates NaN and orders signed zeros: select instead.
        v128_bitselect(a, b, f32x4_lt(a, b))
    }
    #[inline(always)]
    fn max(self, a: v128, b: v128) -> v128 {
        v128_bitselect(a, b, f32x4_gt(a, b))
    }
    #[inline(always)]
    fn sqrt(self, a: v128) -> v128 {
        f32x4_sqrt(a)
    }
    #[inline(always)]
    fn lt(self, a: v128, b: v128) -> v128 {
        f32x4_lt(a, b)
    }
    #[inline(always)]
    fn select(self, m: v128, a: v128, b: v128) -> v128 {
        v128_bitselect(a, b, m)
    }
    #[inline(always)]
    fn and_m(self, a: v128, b: v128) -> v128 {
        v128_and(a, b)
    }
    #[inline(always)]
    fn or_m(self, a: v128, b: v128) -> v128 {
        v128_or(a, b)
    }
    #[inline(always)]
    fn andnot_m(self, a: v128, b: v128) -> v128 {
        // v128_andnot(x, y) is x & !y.
        v128_andnot(b, a)
    }
    #[inline(always)]
    fn table16(self, t: &[f32; 16], idx: v128) -> v128 {
        let i = [
            u32x4_extract_lane::<0>(idx),
            u32x4_extract_lane::<1>(idx),
            u32x4_extract_lane::<2>(idx),
            u32x4_extract_lane::<3>(idx),
        ];
        let v = i.map(|k| t[(k & 15) as usize]);
        f32x4(v[0], v[1], v[2], v[3])
    }
    #[inline(always)]
    fn to_f(self, a: v128) -> v128 {
        f32x4_convert_i32x4(a)
    }
    #[inline(always)]
    fn add_i(self, a: v128, b: v128) -> v128 {
        i32x4_add(a, b)
    }
    #[inline(always)]
    fn mul_i(self, a: v128, b: v128) -> v128 {
        i32x4_mul(a, b)
    }
    #[inline(always)]
    fn xor_i(self, a: v128, b: v128) -> v128 {
        v128_xor(a, b)
    }
    #[inline(always)]
    fn and_i(self, a: v128, b: v128) -> v128 {
        v128_and(a, b)
    }
    #[inline(always)]
    fn shr_i<const N: i32>(self, a: v128) -> v128 {
        u32x4_shr(a, N as u32)
    }
    #[inline(always)]
    fn eq_i(self, a: v128, b: v128) -> v128 {
        i32x4_eq(a, b)
    }
    #[inline(always)]
    fn select_i(self, m: v128, a: v128, b: v128) -> v128 {
        v128_bitselect(a, b, m)
    }
    #[inline(always)]
    fn split(self, src: &[f64]) -> (v128, v128, v128) {
        assert!(src.len() >= 4);
        let (a, b) = (f64x2(src[0], src[1]), f64x2(src[2], src[3]));
        let (fa, fb) = (f64x2_floor(a), f64x2_floor(b));
        // Each demotion fills the low two lanes; the shuffle joins them.
        let frac = i32x4_shuffle::<0, 1, 4, 5>(
            f32x4_demote_f64x2_zero(f64x2_sub(a, fa)),
            f32x4_demote_f64x2_zero(f64x2_sub(b, fb)),
        );
        // SIMD128 has no f64 → i64 conversion: adding MAGIC to the floor
        // leaves the cell's two's complement in the low bits, as SSE2 does.
        let magic = f64x2_splat(MAGIC);
        let (ia, ib) = (f64x2_add(fa, magic), f64x2_add(fb, magic));
        let lo = i32x4_shuffle::<0, 2, 4, 6>(ia, ib);
        let hi = i32x4_shuffle::<1, 3, 5, 7>(ia, ib);
        (frac, lo, i32x4_sub(hi, i32x4_splat(MAGIC_HI)))
    }
}
