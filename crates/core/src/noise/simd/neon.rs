//! The NEON backend: 4 lanes, part of the AArch64 baseline.

use super::Simd;
use std::arch::aarch64::*;

/// NEON token. NEON is part of the AArch64 baseline, so it is always valid.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Neon(());

impl Neon {
    /// NEON is always present on AArch64.
    pub(crate) fn new() -> Self {
        Neon(())
    }
}

// SAFETY (whole impl): every intrinsic used is baseline AArch64 NEON; loads
// and stores check their slice lengths.
impl Simd for Neon {
    const LANES: usize = 4;
    type F = float32x4_t;
    type I = uint32x4_t;
    type M = uint32x4_t;

    #[inline(always)]
    fn splat(self, v: f32) -> float32x4_t {
        unsafe { vdupq_n_f32(v) }
    }
    #[inline(always)]
    fn splat_i(self, v: u32) -> uint32x4_t {
        unsafe { vdupq_n_u32(v) }
    }
    #[inline(always)]
    fn load(self, src: &[f32]) -> float32x4_t {
        assert!(src.len() >= 4);
        unsafe { vld1q_f32(src.as_ptr()) }
    }
    #[inline(always)]
    fn load_i(self, src: &[u32]) -> uint32x4_t {
        assert!(src.len() >= 4);
        unsafe { vld1q_u32(src.as_ptr()) }
    }
    #[inline(always)]
    fn store(self, v: float32x4_t, dst: &mut [f32]) {
        assert!(dst.len() >= 4);
        unsafe { vst1q_f32(dst.as_mut_ptr(), v) }
    }
    #[inline(always)]
    fn add(self, a: float32x4_t, b: float32x4_t) -> float32x4_t {
        unsafe { vaddq_f32(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: float32x4_t, b: float32x4_t) -> float32x4_t {
        unsafe { vsubq_f32(a, b) }
    }
    #[inline(always)]
    fn mul(self, a: float32x4_t, b: float32x4_t) -> float32x4_t {
        unsafe { vmulq_f32(a, b) }
    }
    #[inline(always)]
    fn min(self, a: float32x4_t, b: float32x4_t) -> float32x4_t {
        // vminq differs from `a < b ? a : b` on signed zeros: select instead.
        unsafe { vbslq_f32(vcltq_f32(a, b), a, b) }
    }
    #[inline(always)]
    fn max(self, a: float32x4_t, b: float32x4_t) -> float32x4_t {
        unsafe { vbslq_f32(vcgtq_f32(a, b), a, b) }
    }
    #[inline(always)]
    fn sqrt(self, a: float32x4_t) -> float32x4_t {
        unsafe { vsqrtq_f32(a) }
    }
    #[inline(always)]
    fn lt(self, a: float32x4_t, b: float32x4_t) -> uint32x4_t {
        unsafe { vcltq_f32(a, b) }
    }
    #[inline(always)]
    fn select(self, m: uint32x4_t, a: float32x4_t, b: float32x4_t) -> float32x4_t {
        unsafe { vbslq_f32(m, a, b) }
    }
    #[inline(always)]
    fn and_m(self, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        unsafe { vandq_u32(a, b) }
    }
    #[inline(always)]
    fn or_m(self, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        unsafe { vorrq_u32(a, b) }
    }
    #[inline(always)]
    fn andnot_m(self, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        unsafe { vbicq_u32(b, a) }
    }
    #[inline(always)]
    fn table16(self, t: &[f32; 16], idx: uint32x4_t) -> float32x4_t {
        let mut i = [0u32; 4];
        unsafe { vst1q_u32(i.as_mut_ptr(), idx) };
        let v = i.map(|k| t[(k & 15) as usize]);
        unsafe { vld1q_f32(v.as_ptr()) }
    }
    #[inline(always)]
    fn to_f(self, a: uint32x4_t) -> float32x4_t {
        unsafe { vcvtq_f32_s32(vreinterpretq_s32_u32(a)) }
    }
    #[inline(always)]
    fn add_i(self, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        unsafe { vaddq_u32(a, b) }
    }
    #[inline(always)]
    fn mul_i(self, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        unsafe { vmulq_u32(a, b) }
    }
    #[inline(always)]
    fn xor_i(self, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        unsafe { veorq_u32(a, b) }
    }
    #[inline(always)]
    fn and_i(self, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        unsafe { vandq_u32(a, b) }
    }
    #[inline(always)]
    fn shr_i<const N: i32>(self, a: uint32x4_t) -> uint32x4_t {
        // `vshrq_n_u32` takes 1..=32 only and the kernels also shift by 0;
        // a register shift by −N is the same logical right shift for every N.
        unsafe { vshlq_u32(a, vdupq_n_s32(-N)) }
    }
    #[inline(always)]
    fn eq_i(self, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        unsafe { vceqq_u32(a, b) }
    }
    #[inline(always)]
    fn select_i(self, m: uint32x4_t, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        unsafe { vbslq_u32(m, a, b) }
    }
    #[inline(always)]
    fn split(self, src: &[f64]) -> (float32x4_t, uint32x4_t, uint32x4_t) {
        assert!(src.len() >= 4);
        unsafe {
            let a = vld1q_f64(src.as_ptr());
            let b = vld1q_f64(src.as_ptr().add(2));
            let fa = vrndmq_f64(a);
            let fb = vrndmq_f64(b);
            let frac = vcombine_f32(
                vcvt_f32_f64(vsubq_f64(a, fa)),
                vcvt_f32_f64(vsubq_f64(b, fb)),
            );
            let ia = vcvtq_s64_f64(fa);
            let ib = vcvtq_s64_f64(fb);
            let lo = vcombine_u32(
                vmovn_u64(vreinterpretq_u64_s64(ia)),
                vmovn_u64(vreinterpretq_u64_s64(ib)),
            );
            let hi = vcombine_u32(
                vshrn_n_u64::<32>(vreinterpretq_u64_s64(ia)),
                vshrn_n_u64::<32>(vreinterpretq_u64_s64(ib)),
            );
            (frac, lo, hi)
        }
    }
}
