//! The lane abstraction the noise kernels are written against, and the
//! runtime choice of instruction set.
//!
//! Each kernel is written once, generic over the `Simd` trait; every backend
//! (scalar, SSE2, AVX2, AVX-512, NEON, WebAssembly SIMD128) implements the same handful of
//! IEEE-exact operations: f32 add/sub/mul/min/max, sign flips, 32-bit integer
//! arithmetic, and an exact f64 floor-and-split. There is no FMA, no
//! reciprocal estimate and no transcendental function anywhere, so every
//! backend returns the same bits as the scalar one (a test holds this).
//!
//! The backends are zero-sized tokens: a value of `Avx2` exists only after
//! `is_x86_feature_detected!` said yes, which is what makes the
//! `unsafe` intrinsic calls inside them sound. The generic kernels are
//! `#[inline(always)]`, so they are compiled into each `#[target_feature]`
//! entry point with that feature set.

pub(crate) mod scalar;

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;
#[cfg(target_arch = "x86_64")]
pub(crate) mod sse2;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod wasm;

use serde::{Deserialize, Serialize};

/// How backends without an f64 → i64 conversion split a position.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(crate) mod magic {
    /// 2^52 + 2^51: adding it to an integer-valued f64 below 2^51 in
    /// magnitude puts that integer, two's complement, in the low 51 bits of
    /// the result.
    pub(crate) const MAGIC: f64 = 6_755_399_441_055_744.0;
    /// The high 32 bits of [`MAGIC`], removed to recover the integer's high
    /// half.
    pub(crate) const MAGIC_HI: i32 = 0x4338_0000;
}

/// An instruction set the grid fills can run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// One lane of plain Rust; the reference every other level equals.
    Scalar,
    /// 4 lanes, x86-64 baseline.
    Sse2,
    /// 8 lanes.
    Avx2,
    /// 16 lanes.
    Avx512,
    /// 4 lanes, AArch64 baseline.
    Neon,
    /// 4 lanes, WebAssembly SIMD128 (in builds with `+simd128`).
    Simd128,
}

impl Level {
    /// Every level, in order of preference from slowest to fastest.
    pub const ALL: [Level; 6] = [
        Level::Scalar,
        Level::Sse2,
        Level::Neon,
        Level::Simd128,
        Level::Avx2,
        Level::Avx512,
    ];

    /// Whether this CPU can run the level.
    pub fn is_supported(self) -> bool {
        match self {
            Level::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Level::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
            #[cfg(target_arch = "aarch64")]
            Level::Neon => true,
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Level::Simd128 => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The fastest level this CPU supports (detected once, then cached).
    pub fn best() -> Level {
        use std::sync::OnceLock;
        static BEST: OnceLock<Level> = OnceLock::new();
        *BEST.get_or_init(|| {
            Level::ALL
                .iter()
                .rev()
                .copied()
                .find(|l| l.is_supported())
                .unwrap_or(Level::Scalar)
        })
    }

    /// Every level this CPU supports.
    pub fn supported() -> Vec<Level> {
        Level::ALL
            .iter()
            .copied()
            .filter(|l| l.is_supported())
            .collect()
    }

    /// Lanes per vector at this level.
    pub fn lanes(self) -> usize {
        match self {
            Level::Scalar => 1,
            Level::Sse2 | Level::Neon | Level::Simd128 => 4,
            Level::Avx2 => 8,
            Level::Avx512 => 16,
        }
    }
}

/// Operations on a vector of `LANES` f32 values (`F`), `LANES` u32 values
/// (`I`) and lane masks (`M`). Every operation is exact (IEEE-754 rounding
/// of one operation, or integer wrapping arithmetic), so all backends agree
/// bit for bit.
pub(crate) trait Simd: Copy {
    /// Lanes per vector.
    const LANES: usize;
    /// f32 lanes.
    type F: Copy;
    /// u32 lanes.
    type I: Copy;
    /// Per-lane mask.
    type M: Copy;

    fn splat(self, v: f32) -> Self::F;
    fn splat_i(self, v: u32) -> Self::I;
    /// Loads `LANES` values; `src.len() >= LANES`.
    fn load(self, src: &[f32]) -> Self::F;
    /// Loads `LANES` u32 values; `src.len() >= LANES`.
    fn load_i(self, src: &[u32]) -> Self::I;
    /// Stores `LANES` values; `dst.len() >= LANES`.
    fn store(self, v: Self::F, dst: &mut [f32]);

    fn add(self, a: Self::F, b: Self::F) -> Self::F;
    fn sub(self, a: Self::F, b: Self::F) -> Self::F;
    fn mul(self, a: Self::F, b: Self::F) -> Self::F;
    /// `if a < b { a } else { b }` per lane.
    fn min(self, a: Self::F, b: Self::F) -> Self::F;
    /// `if a > b { a } else { b }` per lane.
    fn max(self, a: Self::F, b: Self::F) -> Self::F;
    /// Exact square root (IEEE correctly rounded).
    fn sqrt(self, a: Self::F) -> Self::F;
    fn lt(self, a: Self::F, b: Self::F) -> Self::M;
    fn select(self, m: Self::M, a: Self::F, b: Self::F) -> Self::F;
    /// `a & b` on masks.
    fn and_m(self, a: Self::M, b: Self::M) -> Self::M;
    /// `a | b` on masks.
    fn or_m(self, a: Self::M, b: Self::M) -> Self::M;
    /// `!a & b` on masks.
    fn andnot_m(self, a: Self::M, b: Self::M) -> Self::M;
    /// `t[idx & 15]` per lane: a 16-entry table lookup.
    fn table16(self, t: &[f32; 16], idx: Self::I) -> Self::F;
    /// Whether [`Simd::table16`] is one instruction (AVX-512's 16-lane
    /// permute). Gradient tables pay only then: at AVX2 a lookup is two
    /// permutes and a blend, and hashing each lane's corners measured
    /// faster (3D Perlin rows 2.8× fastnoise-lite with tables against
    /// 3.2× without; SSE2 1.5× against 1.7×).
    const FAST_TABLE16: bool = false;
    /// Converts u32 lanes below 2^24 to f32 (exact).
    fn to_f(self, a: Self::I) -> Self::F;

    fn add_i(self, a: Self::I, b: Self::I) -> Self::I;
    fn mul_i(self, a: Self::I, b: Self::I) -> Self::I;
    fn xor_i(self, a: Self::I, b: Self::I) -> Self::I;
    fn and_i(self, a: Self::I, b: Self::I) -> Self::I;
    fn shr_i<const N: i32>(self, a: Self::I) -> Self::I;
    fn eq_i(self, a: Self::I, b: Self::I) -> Self::M;
    fn select_i(self, m: Self::M, a: Self::I, b: Self::I) -> Self::I;

    /// A 2D gradient dot product `gx·x + gy·y`, `(gx, gy)` from the
    /// 16-entry tables at `h & 15`, evaluated as two products and one sum.
    /// The kernels' 2D tables repeat with period 8 (asserted at compile
    /// time beside them), so a backend may look up `h & 7` in the first 8
    /// entries instead: the same values, so the same bits.
    #[inline(always)]
    fn grad2(self, t: [&[f32; 16]; 2], h: Self::I, x: Self::F, y: Self::F) -> Self::F {
        self.add(
            self.mul(self.table16(t[0], h), x),
            self.mul(self.table16(t[1], h), y),
        )
    }

    /// Perlin's improved-noise gradient dot product for hash `h` (its low 4
    /// bits): `(gx·x + gy·y) + gz·z` with `(gx, gy, gz)` from the 16-entry
    /// tables. Backends may compute it another way provided every nonzero
    /// result has the same bits: the components are 0 or ±1, so the sum is
    /// `±a ± b` exactly; only the sign of an exact zero may differ, and the
    /// octave sum starts at +0, which absorbs it (the goldens hold this).
    #[inline(always)]
    fn grad3(self, t: [&[f32; 16]; 3], h: Self::I, x: Self::F, y: Self::F, z: Self::F) -> Self::F {
        let xy = self.add(
            self.mul(self.table16(t[0], h), x),
            self.mul(self.table16(t[1], h), y),
        );
        self.add(xy, self.mul(self.table16(t[2], h), z))
    }

    /// `Some(v)` when every lane holds `v`. A backend may always answer
    /// `None`: callers use it only to move work whose result is the same in
    /// every lane from vector to scalar registers. AVX-512 and AVX2 answer
    /// (see `kernels::simplex_picks_pay` for where AVX2's answer is not
    /// asked). The 4-lane levels do not: there it is unmeasured.
    #[inline(always)]
    fn uniform_i(self, a: Self::I) -> Option<u32> {
        let _ = a;
        None
    }

    /// Splits `LANES` f64 values into `floor(x)` as the low and high halves
    /// of an i64 and the fraction `x - floor(x)` rounded to f32. Exact for
    /// `|x| < 2^51`; `src.len() >= LANES`.
    fn split(self, src: &[f64]) -> (Self::F, Self::I, Self::I);
}
