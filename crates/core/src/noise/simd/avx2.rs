//! The AVX2 backend: 8 lanes.

use super::Simd;
use super::magic::{MAGIC, MAGIC_HI};
use std::arch::x86_64::*;

/// AVX2 token: only [`Avx2::new`] makes one, after runtime detection.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// `Some` when the CPU supports AVX2.
    pub(crate) fn new() -> Option<Self> {
        std::arch::is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }
}

// SAFETY (whole impl): a value of `Avx2` exists only when AVX2 (and so AVX)
// was detected at run time; loads and stores check their slice lengths.
impl Simd for Avx2 {
    const LANES: usize = 8;
    type F = __m256;
    type I = __m256i;
    type M = __m256;

    #[inline(always)]
    fn splat(self, v: f32) -> __m256 {
        unsafe { _mm256_set1_ps(v) }
    }
    #[inline(always)]
    fn splat_i(self, v: u32) -> __m256i {
        unsafe { _mm256_set1_epi32(v as i32) }
    }
    #[inline(always)]
    fn load(self, src: &[f32]) -> __m256 {
        assert!(src.len() >= 8);
        unsafe { _mm256_loadu_ps(src.as_ptr()) }
    }
    #[inline(always)]
    fn load_i(self, src: &[u32]) -> __m256i {
        assert!(src.len() >= 8);
        unsafe { _mm256_loadu_si256(src.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(self, v: __m256, dst: &mut [f32]) {
        assert!(dst.len() >= 8);
        unsafe { _mm256_storeu_ps(dst.as_mut_ptr(), v) }
    }
    #[inline(always)]
    fn add(self, a: __m256, b: __m256) -> __m256 {
        unsafe { _mm256_add_ps(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m256, b: __m256) -> __m256 {
        unsafe { _mm256_sub_ps(a, b) }
    }
    #[inline(always)]
    fn mul(self, a: __m256, b: __m256) -> __m256 {
        unsafe { _mm256_mul_ps(a, b) }
    }
    #[inline(always)]
    fn min(self, a: __m256, b: __m256) -> __m256 {
        unsafe { _mm256_min_ps(a, b) }
    }
    #[inline(always)]
    fn max(self, a: __m256, b: __m256) -> __m256 {
        unsafe { _mm256_max_ps(a, b) }
    }
    #[inline(always)]
    fn sqrt(self, a: __m256) -> __m256 {
        unsafe { _mm256_sqrt_ps(a) }
    }
    #[inline(always)]
    fn lt(self, a: __m256, b: __m256) -> __m256 {
        unsafe { _mm256_cmp_ps::<_CMP_LT_OQ>(a, b) }
    }
    #[inline(always)]
    fn select(self, m: __m256, a: __m256, b: __m256) -> __m256 {
        unsafe { _mm256_blendv_ps(b, a, m) }
    }
    #[inline(always)]
    fn and_m(self, a: __m256, b: __m256) -> __m256 {
        unsafe { _mm256_and_ps(a, b) }
    }
    #[inline(always)]
    fn or_m(self, a: __m256, b: __m256) -> __m256 {
        unsafe { _mm256_or_ps(a, b) }
    }
    #[inline(always)]
    fn andnot_m(self, a: __m256, b: __m256) -> __m256 {
        unsafe { _mm256_andnot_ps(a, b) }
    }
    #[inline(always)]
    fn table16(self, t: &[f32; 16], idx: __m256i) -> __m256 {
        // Two 8-entry permutes (low 3 bits), chosen by bit 3.
        unsafe {
            let lo = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t.as_ptr()), idx);
            let hi = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t.as_ptr().add(8)), idx);
            let eight = _mm256_set1_epi32(8);
            let upper =
                _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(idx, eight), eight));
            _mm256_blendv_ps(lo, hi, upper)
        }
    }
    #[inline(always)]
    fn grad2(self, t: [&[f32; 16]; 2], h: __m256i, x: __m256, y: __m256) -> __m256 {
        // The 2D tables repeat with period 8: one permute each (it reads the
        // index's low 3 bits), instead of two permutes and a blend.
        unsafe {
            let gx = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t[0].as_ptr()), h);
            let gy = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t[1].as_ptr()), h);
            _mm256_add_ps(_mm256_mul_ps(gx, x), _mm256_mul_ps(gy, y))
        }
    }
    #[inline(always)]
    fn grad3(self, _t: [&[f32; 16]; 3], h: __m256i, x: __m256, y: __m256, z: __m256) -> __m256 {
        // Perlin's own selection instead of three table lookups:
        // u = h < 8 ? x : y; v = h < 4 ? y : (h is 12 or 14 ? x : z);
        // bit 0 flips u, bit 1 flips v (the tables hold exactly this).
        unsafe {
            let u = _mm256_blendv_ps(x, y, _mm256_castsi256_ps(_mm256_slli_epi32::<28>(h)));
            let lt4 = _mm256_cmpeq_epi32(
                _mm256_and_si256(h, _mm256_set1_epi32(12)),
                _mm256_setzero_si256(),
            );
            let is12or14 = _mm256_cmpeq_epi32(
                _mm256_and_si256(h, _mm256_set1_epi32(13)),
                _mm256_set1_epi32(12),
            );
            let v = _mm256_blendv_ps(z, x, _mm256_castsi256_ps(is12or14));
            let v = _mm256_blendv_ps(v, y, _mm256_castsi256_ps(lt4));
            let sign = _mm256_set1_epi32(i32::MIN);
            let su = _mm256_castsi256_ps(_mm256_slli_epi32::<31>(h));
            let sv = _mm256_castsi256_ps(_mm256_and_si256(_mm256_slli_epi32::<30>(h), sign));
            _mm256_add_ps(_mm256_xor_ps(u, su), _mm256_xor_ps(v, sv))
        }
    }
    #[inline(always)]
    fn to_f(self, a: __m256i) -> __m256 {
        unsafe { _mm256_cvtepi32_ps(a) }
    }
    #[inline(always)]
    fn add_i(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_add_epi32(a, b) }
    }
    #[inline(always)]
    fn mul_i(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_mullo_epi32(a, b) }
    }
    #[inline(always)]
    fn xor_i(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_xor_si256(a, b) }
    }
    #[inline(always)]
    fn and_i(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_and_si256(a, b) }
    }
    #[inline(always)]
    fn shr_i<const N: i32>(self, a: __m256i) -> __m256i {
        unsafe { _mm256_srli_epi32::<N>(a) }
    }
    #[inline(always)]
    fn eq_i(self, a: __m256i, b: __m256i) -> __m256 {
        unsafe { _mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b)) }
    }
    #[inline(always)]
    fn select_i(self, m: __m256, a: __m256i, b: __m256i) -> __m256i {
        unsafe {
            _mm256_castps_si256(_mm256_blendv_ps(
                _mm256_castsi256_ps(b),
                _mm256_castsi256_ps(a),
                m,
            ))
        }
    }
    #[inline(always)]
    fn uniform_i(self, a: __m256i) -> Option<u32> {
        unsafe {
            let v = _mm256_cvtsi256_si32(a);
            let eq = _mm256_cmpeq_epi32(a, _mm256_set1_epi32(v));
            (_mm256_movemask_epi8(eq) == -1).then_some(v as u32)
        }
    }
    #[inline(always)]
    fn split(self, src: &[f64]) -> (__m256, __m256i, __m256i) {
        assert!(src.len() >= 8);
        unsafe {
            let a = _mm256_loadu_pd(src.as_ptr());
            let b = _mm256_loadu_pd(src.as_ptr().add(4));
            let fa = _mm256_floor_pd(a);
            let fb = _mm256_floor_pd(b);
            let frac = _mm256_set_m128(
                _mm256_cvtpd_ps(_mm256_sub_pd(b, fb)),
                _mm256_cvtpd_ps(_mm256_sub_pd(a, fa)),
            );
            let magic = _mm256_set1_pd(MAGIC);
            let ia = _mm256_castpd_si256(_mm256_add_pd(fa, magic));
            let ib = _mm256_castpd_si256(_mm256_add_pd(fb, magic));
            // Gather the low dwords into the lower half, the high dwords into
            // the upper half, then pair the halves of a and b.
            let idx = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
            let pa = _mm256_permutevar8x32_epi32(ia, idx);
            let pb = _mm256_permutevar8x32_epi32(ib, idx);
            let lo = _mm256_permute2x128_si256::<0x20>(pa, pb);
            let hi = _mm256_permute2x128_si256::<0x31>(pa, pb);
            (frac, lo, _mm256_sub_epi32(hi, _mm256_set1_epi32(MAGIC_HI)))
        }
    }
}
