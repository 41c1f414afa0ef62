//! The AVX-512 backend: 16 lanes (AVX-512F only).

use super::Simd;
use super::magic::{MAGIC, MAGIC_HI};
use std::arch::x86_64::*;

/// AVX-512F token: only [`Avx512::new`] makes one, after runtime detection.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// `Some` when the CPU supports AVX-512F.
    pub(crate) fn new() -> Option<Self> {
        std::arch::is_x86_feature_detected!("avx512f").then_some(Avx512(()))
    }
}

// SAFETY (whole impl): a value of `Avx512` exists only when AVX-512F was
// detected at run time; loads and stores check their slice lengths.
impl Simd for Avx512 {
    const LANES: usize = 16;
    type F = __m512;
    type I = __m512i;
    type M = __mmask16;

    #[inline(always)]
    fn splat(self, v: f32) -> __m512 {
        unsafe { _mm512_set1_ps(v) }
    }
    #[inline(always)]
    fn splat_i(self, v: u32) -> __m512i {
        unsafe { _mm512_set1_epi32(v as i32) }
    }
    #[inline(always)]
    fn load(self, src: &[f32]) -> __m512 {
        assert!(src.len() >= 16);
        unsafe { _mm512_loadu_ps(src.as_ptr()) }
    }
    #[inline(always)]
    fn load_i(self, src: &[u32]) -> __m512i {
        assert!(src.len() >= 16);
        unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
    }
    #[inline(always)]
    fn store(self, v: __m512, dst: &mut [f32]) {
        assert!(dst.len() >= 16);
        unsafe { _mm512_storeu_ps(dst.as_mut_ptr(), v) }
    }
    #[inline(always)]
    fn add(self, a: __m512, b: __m512) -> __m512 {
        unsafe { _mm512_add_ps(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m512, b: __m512) -> __m512 {
        unsafe { _mm512_sub_ps(a, b) }
    }
    #[inline(always)]
    fn mul(self, a: __m512, b: __m512) -> __m512 {
        unsafe { _mm512_mul_ps(a, b) }
    }
    #[inline(always)]
    fn min(self, a: __m512, b: __m512) -> __m512 {
        unsafe { _mm512_min_ps(a, b) }
    }
    #[inline(always)]
    fn max(self, a: __m512, b: __m512) -> __m512 {
        unsafe { _mm512_max_ps(a, b) }
    }
    #[inline(always)]
    fn sqrt(self, a: __m512) -> __m512 {
        unsafe { _mm512_sqrt_ps(a) }
    }
    #[inline(always)]
    fn lt(self, a: __m512, b: __m512) -> __mmask16 {
        unsafe { _mm512_cmp_ps_mask::<_CMP_LT_OQ>(a, b) }
    }
    #[inline(always)]
    fn select(self, m: __mmask16, a: __m512, b: __m512) -> __m512 {
        unsafe { _mm512_mask_blend_ps(m, b, a) }
    }
    #[inline(always)]
    fn and_m(self, a: __mmask16, b: __mmask16) -> __mmask16 {
        a & b
    }
    #[inline(always)]
    fn or_m(self, a: __mmask16, b: __mmask16) -> __mmask16 {
        a | b
    }
    #[inline(always)]
    fn andnot_m(self, a: __mmask16, b: __mmask16) -> __mmask16 {
        !a & b
    }
    const FAST_TABLE16: bool = true;
    #[inline(always)]
    fn table16(self, t: &[f32; 16], idx: __m512i) -> __m512 {
        // One in-register permute: the index's low 4 bits pick the lane.
        unsafe { _mm512_permutexvar_ps(idx, _mm512_loadu_ps(t.as_ptr())) }
    }
    #[inline(always)]
    fn to_f(self, a: __m512i) -> __m512 {
        unsafe { _mm512_cvtepi32_ps(a) }
    }
    #[inline(always)]
    fn add_i(self, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_add_epi32(a, b) }
    }
    #[inline(always)]
    fn mul_i(self, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_mullo_epi32(a, b) }
    }
    #[inline(always)]
    fn xor_i(self, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_xor_si512(a, b) }
    }
    #[inline(always)]
    fn and_i(self, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_and_si512(a, b) }
    }
    #[inline(always)]
    fn shr_i<const N: i32>(self, a: __m512i) -> __m512i {
        // The immediate forms take a `u32` const; the count-register form
        // avoids a const-generic cast and folds to the same instruction.
        unsafe { _mm512_srl_epi32(a, _mm_cvtsi32_si128(N)) }
    }
    #[inline(always)]
    fn eq_i(self, a: __m512i, b: __m512i) -> __mmask16 {
        unsafe { _mm512_cmpeq_epi32_mask(a, b) }
    }
    #[inline(always)]
    fn select_i(self, m: __mmask16, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_mask_blend_epi32(m, b, a) }
    }
    #[inline(always)]
    fn uniform_i(self, a: __m512i) -> Option<u32> {
        unsafe {
            let v = _mm_cvtsi128_si32(_mm512_castsi512_si128(a));
            (_mm512_cmpeq_epi32_mask(a, _mm512_set1_epi32(v)) == 0xffff).then_some(v as u32)
        }
    }
    #[inline(always)]
    fn split(self, src: &[f64]) -> (__m512, __m512i, __m512i) {
        assert!(src.len() >= 16);
        unsafe {
            let a = _mm512_loadu_pd(src.as_ptr());
            let b = _mm512_loadu_pd(src.as_ptr().add(8));
            // 0x09: round toward −∞, exceptions suppressed.
            let fa = _mm512_roundscale_pd::<0x09>(a);
            let fb = _mm512_roundscale_pd::<0x09>(b);
            let frac_a = _mm256_castps_pd(_mm512_cvtpd_ps(_mm512_sub_pd(a, fa)));
            let frac_b = _mm256_castps_pd(_mm512_cvtpd_ps(_mm512_sub_pd(b, fb)));
            let frac = _mm512_castpd_ps(_mm512_insertf64x4::<1>(
                _mm512_castpd256_pd512(frac_a),
                frac_b,
            ));
            let join =
                |x: __m256i, y: __m256i| _mm512_inserti64x4::<1>(_mm512_castsi256_si512(x), y);
            // Cells inside i32 (planets, caves and maps stay far inside it,
            // even at their finest octaves) convert in one instruction, and
            // the high half is the sign. A cell outside converts to i32::MIN, as does −2^31
            // itself; those take the exact 64-bit route below.
            let lo = join(_mm512_cvtpd_epi32(fa), _mm512_cvtpd_epi32(fb));
            if _mm512_cmpeq_epi32_mask(lo, _mm512_set1_epi32(i32::MIN)) == 0 {
                return (frac, lo, _mm512_srai_epi32::<31>(lo));
            }
            let magic = _mm512_set1_pd(MAGIC);
            let ia = _mm512_castpd_si512(_mm512_add_pd(fa, magic));
            let ib = _mm512_castpd_si512(_mm512_add_pd(fb, magic));
            let lo = join(_mm512_cvtepi64_epi32(ia), _mm512_cvtepi64_epi32(ib));
            let hi = join(
                _mm512_cvtepi64_epi32(_mm512_srli_epi64::<32>(ia)),
                _mm512_cvtepi64_epi32(_mm512_srli_epi64::<32>(ib)),
            );
            (frac, lo, _mm512_sub_epi32(hi, _mm512_set1_epi32(MAGIC_HI)))
        }
    }
}
