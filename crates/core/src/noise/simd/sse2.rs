//! The SSE2 backend: 4 lanes, available on every x86-64 CPU.

use super::Simd;
use super::magic::{MAGIC, MAGIC_HI};
use std::arch::x86_64::*;

/// SSE2 token. SSE2 is part of the x86-64 baseline, so it is always valid.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sse2(());

impl Sse2 {
    /// SSE2 is always present on x86-64.
    pub(crate) fn new() -> Self {
        Sse2(())
    }
}

// SAFETY (whole impl): every intrinsic used is SSE2, which the x86-64
// baseline guarantees; loads and stores check their slice lengths first.
impl Simd for Sse2 {
    const LANES: usize = 4;
    type F = __m128;
    type I = __m128i;
    type M = __m128;

    #[inline(always)]
    fn splat(self, v: f32) -> __m128 {
        unsafe { _mm_set1_ps(v) }
    }
    #[inline(always)]
    fn splat_i(self, v: u32) -> __m128i {
        unsafe { _mm_set1_epi32(v as i32) }
    }
    #[inline(always)]
    fn load(self, src: &[f32]) -> __m128 {
        assert!(src.len() >= 4);
        unsafe { _mm_loadu_ps(src.as_ptr()) }
    }
    #[inline(always)]
    fn load_i(self, src: &[u32]) -> __m128i {
        assert!(src.len() >= 4);
        unsafe { _mm_loadu_si128(src.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(self, v: __m128, dst: &mut [f32]) {
        assert!(dst.len() >= 4);
        unsafe { _mm_storeu_ps(dst.as_mut_ptr(), v) }
    }
    #[inline(always)]
    fn add(self, a: __m128, b: __m128) -> __m128 {
        unsafe { _mm_add_ps(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m128, b: __m128) -> __m128 {
        unsafe { _mm_sub_ps(a, b) }
    }
    #[inline(always)]
    fn mul(self, a: __m128, b: __m128) -> __m128 {
        unsafe { _mm_mul_ps(a, b) }
    }
    #[inline(always)]
    fn min(self, a: __m128, b: __m128) -> __m128 {
        // minps is defined as `a < b ? a : b`, the scalar definition.
        unsafe { _mm_min_ps(a, b) }
    }
    #[inline(always)]
    fn max(self, a: __m128, b: __m128) -> __m128 {
        unsafe { _mm_max_ps(a, b) }
    }
    #[inline(always)]
    fn sqrt(self, a: __m128) -> __m128 {
        unsafe { _mm_sqrt_ps(a) }
    }
    #[inline(always)]
    fn lt(self, a: __m128, b: __m128) -> __m128 {
        unsafe { _mm_cmplt_ps(a, b) }
    }
    #[inline(always)]
    fn select(self, m: __m128, a: __m128, b: __m128) -> __m128 {
        unsafe { _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)) }
    }
    #[inline(always)]
    fn and_m(self, a: __m128, b: __m128) -> __m128 {
        unsafe { _mm_and_ps(a, b) }
    }
    #[inline(always)]
    fn or_m(self, a: __m128, b: __m128) -> __m128 {
        unsafe { _mm_or_ps(a, b) }
    }
    #[inline(always)]
    fn andnot_m(self, a: __m128, b: __m128) -> __m128 {
        unsafe { _mm_andnot_ps(a, b) }
    }
    #[inline(always)]
    fn table16(self, t: &[f32; 16], idx: __m128i) -> __m128 {
        // SSE2 has no variable permute: look the four lanes up one by one.
        let mut i = [0u32; 4];
        unsafe { _mm_storeu_si128(i.as_mut_ptr().cast(), idx) };
        let v = i.map(|k| t[(k & 15) as usize]);
        unsafe { _mm_loadu_ps(v.as_ptr()) }
    }
    #[inline(always)]
    fn to_f(self, a: __m128i) -> __m128 {
        unsafe { _mm_cvtepi32_ps(a) }
    }
    #[inline(always)]
    fn add_i(self, a: __m128i, b: __m128i) -> __m128i {
        unsafe { _mm_add_epi32(a, b) }
    }
    #[inline(always)]
    fn mul_i(self, a: __m128i, b: __m128i) -> __m128i {
        // SSE2 has no 32-bit low multiply: two 32×32→64 products on the
        // even and odd lanes, keeping the low halves.
        unsafe {
            let even = _mm_mul_epu32(a, b);
            let odd = _mm_mul_epu32(_mm_srli_epi64::<32>(a), _mm_srli_epi64::<32>(b));
            let even = _mm_shuffle_epi32::<0b00_00_10_00>(even);
            let odd = _mm_shuffle_epi32::<0b00_00_10_00>(odd);
            _mm_unpacklo_epi32(even, odd)
        }
    }
    #[inline(always)]
    fn xor_i(self, a: __m128i, b: __m128i) -> __m128i {
        unsafe { _mm_xor_si128(a, b) }
    }
    #[inline(always)]
    fn and_i(self, a: __m128i, b: __m128i) -> __m128i {
        unsafe { _mm_and_si128(a, b) }
    }
    #[inline(always)]
    fn shr_i<const N: i32>(self, a: __m128i) -> __m128i {
        unsafe { _mm_srli_epi32::<N>(a) }
    }
    #[inline(always)]
    fn eq_i(self, a: __m128i, b: __m128i) -> __m128 {
        unsafe { _mm_castsi128_ps(_mm_cmpeq_epi32(a, b)) }
    }
    #[inline(always)]
    fn select_i(self, m: __m128, a: __m128i, b: __m128i) -> __m128i {
        unsafe {
            let m = _mm_castps_si128(m);
            _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b))
        }
    }
    #[inline(always)]
    fn split(self, src: &[f64]) -> (__m128, __m128i, __m128i) {
        assert!(src.len() >= 4);
        unsafe {
            let a = _mm_loadu_pd(src.as_ptr());
            let b = _mm_loadu_pd(src.as_ptr().add(2));
            let (fa, ia) = floor_parts(a);
            let (fb, ib) = floor_parts(b);
            let frac = _mm_movelh_ps(
                _mm_cvtpd_ps(_mm_sub_pd(a, fa)),
                _mm_cvtpd_ps(_mm_sub_pd(b, fb)),
            );
            let lo = _mm_unpacklo_epi64(
                _mm_shuffle_epi32::<0b10_00_10_00>(ia),
                _mm_shuffle_epi32::<0b10_00_10_00>(ib),
            );
            let hi = _mm_unpacklo_epi64(
                _mm_shuffle_epi32::<0b11_01_11_01>(ia),
                _mm_shuffle_epi32::<0b11_01_11_01>(ib),
            );
            (frac, lo, _mm_sub_epi32(hi, _mm_set1_epi32(MAGIC_HI)))
        }
    }
}

/// Exact floor without SSE4.1: round to nearest through `MAGIC`, then step
/// down where that rounded up. Returns the floor and its integer bits.
#[inline(always)]
unsafe fn floor_parts(x: __m128d) -> (__m128d, __m128i) {
    unsafe {
        let magic = _mm_set1_pd(MAGIC);
        let r = _mm_sub_pd(_mm_add_pd(x, magic), magic);
        let too_big = _mm_cmpgt_pd(r, x);
        let fl = _mm_sub_pd(r, _mm_and_pd(too_big, _mm_set1_pd(1.0)));
        (fl, _mm_castpd_si128(_mm_add_pd(fl, magic)))
    }
}
