//! The one-lane reference backend: plain Rust, the definition every other
//! backend must equal.

use super::Simd;

/// Plain Rust, one lane.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scalar;

impl Simd for Scalar {
    const LANES: usize = 1;
    type F = f32;
    type I = u32;
    type M = bool;

    #[inline(always)]
    fn splat(self, v: f32) -> f32 {
        v
    }
    #[inline(always)]
    fn splat_i(self, v: u32) -> u32 {
        v
    }
    #[inline(always)]
    fn load(self, src: &[f32]) -> f32 {
        src[0]
    }
    #[inline(always)]
    fn load_i(self, src: &[u32]) -> u32 {
        src[0]
    }
    #[inline(always)]
    fn store(self, v: f32, dst: &mut [f32]) {
        dst[0] = v;
    }
    #[inline(always)]
    fn add(self, a: f32, b: f32) -> f32 {
        a + b
    }
    #[inline(always)]
    fn sub(self, a: f32, b: f32) -> f32 {
        a - b
    }
    #[inline(always)]
    fn mul(self, a: f32, b: f32) -> f32 {
        a * b
    }
    #[inline(always)]
    fn min(self, a: f32, b: f32) -> f32 {
        if a < b { a } else { b }
    }
    #[inline(always)]
    fn max(self, a: f32, b: f32) -> f32 {
        if a > b { a } else { b }
    }
    #[inline(always)]
    fn sqrt(self, a: f32) -> f32 {
        a.sqrt()
    }
    #[inline(always)]
    fn lt(self, a: f32, b: f32) -> bool {
        a < b
    }
    #[inline(always)]
    fn select(self, m: bool, a: f32, b: f32) -> f32 {
        if m { a } else { b }
    }
    #[inline(always)]
    fn and_m(self, a: bool, b: bool) -> bool {
        a && b
    }
    #[inline(always)]
    fn or_m(self, a: bool, b: bool) -> bool {
        a || b
    }
    #[inline(always)]
    fn andnot_m(self, a: bool, b: bool) -> bool {
        !a && b
    }
    #[inline(always)]
    fn table16(self, t: &[f32; 16], idx: u32) -> f32 {
        t[(idx & 15) as usize]
    }
    #[inline(always)]
    fn to_f(self, a: u32) -> f32 {
        a as i32 as f32
    }
    #[inline(always)]
    fn add_i(self, a: u32, b: u32) -> u32 {
        a.wrapping_add(b)
    }
    #[inline(always)]
    fn mul_i(self, a: u32, b: u32) -> u32 {
        a.wrapping_mul(b)
    }
    #[inline(always)]
    fn xor_i(self, a: u32, b: u32) -> u32 {
        a ^ b
    }
    #[inline(always)]
    fn and_i(self, a: u32, b: u32) -> u32 {
        a & b
    }
    #[inline(always)]
    fn shr_i<const N: i32>(self, a: u32) -> u32 {
        a >> N
    }
    #[inline(always)]
    fn eq_i(self, a: u32, b: u32) -> bool {
        a == b
    }
    #[inline(always)]
    fn select_i(self, m: bool, a: u32, b: u32) -> u32 {
        if m { a } else { b }
    }
    #[inline(always)]
    fn split(self, src: &[f64]) -> (f32, u32, u32) {
        let x = src[0];
        let fl = x.floor();
        let cell = fl as i64;
        ((x - fl) as f32, cell as u32, (cell >> 32) as u32)
    }
}
