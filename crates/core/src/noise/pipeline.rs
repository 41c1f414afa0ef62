//! From positions to finished fractal values: blocks of samples, the warp,
//! the octave loop, and the choice of instruction set.
//!
//! Two sources feed the same octave loop. Arbitrary positions are split per
//! sample inside the kernels. Regular grids of the separable kernels (value,
//! Perlin, cellular) split each row, column and slab once per octave into
//! tables and copy them into the block ([`grid`]). Both end in the same
//! lattice values, so they give the same bits.
//!
//! Everything outside the kernels is plain Rust on arrays (scaling, clamping,
//! accumulation); the compiler may vectorise those loops, and since each
//! element is computed independently with the same operations, that never
//! changes a bit.

use super::kernels::{self, Axis, split_axis};
use super::lattice::{FAST_COORD, Lattice};

use super::simd::{Level, Simd, scalar::Scalar};
use super::{Fractal, Kernel, LatticeHash, MAX_COORD, Noise, Octave};

pub(crate) mod grid;

/// Samples per block: large enough to amortise the dispatch, small enough
/// that the block's arrays stay in L1.
pub(crate) const BLOCK: usize = 256;

/// Clamps a scaled coordinate into the exact range of the split. Written as
/// two selects so it vectorises; NaN fails both tests and lands on
/// `-MAX_COORD`.
#[inline(always)]
pub(crate) fn clamp_coord(v: f64) -> f64 {
    let c = if v > MAX_COORD { MAX_COORD } else { v };
    if c >= -MAX_COORD { c } else { -MAX_COORD }
}

/// Adds one octave's value to the running sum.
#[inline(always)]
fn accumulate(fractal: Fractal, acc: f32, amplitude: f32, n: f32) -> f32 {
    match fractal {
        Fractal::None | Fractal::Fbm => acc + amplitude * n,
        Fractal::Ridged => {
            let r = 1.0 - f32::from_bits(n.to_bits() & 0x7fff_ffff);
            acc + amplitude * (r * r)
        }
        Fractal::Billow => {
            acc + amplitude * (f32::from_bits(n.to_bits() & 0x7fff_ffff) * 2.0 - 1.0)
        }
    }
}

/// Turns the running sum into the result, about `[-1, 1]`.
#[inline(always)]
fn finish(fractal: Fractal, acc: f32, norm: f32) -> f32 {
    match fractal {
        Fractal::Ridged => (acc * norm) * 2.0 - 1.0,
        _ => acc * norm,
    }
}

/// `acc[i] = f(acc[i], value[i])` for the block, or `f(+0, value[i])` for
/// the `first` octave (so the sum needs no zeroing pass). One loop per
/// fractal, so the fractal's branch is outside it.
#[inline(always)]
fn accumulate_all(acc: &mut [f32], value: &[f32], first: bool, f: impl Fn(f32, f32) -> f32) {
    if first {
        for (a, &v) in acc.iter_mut().zip(value) {
            *a = f(0.0, v);
        }
    } else {
        for (a, &v) in acc.iter_mut().zip(value) {
            *a = f(*a, v);
        }
    }
}

/// Where an octave's kernel values come from (positions or grid tables).
///
/// A trait rather than a closure: closures are compiled without the
/// caller's target features, which would turn every SIMD intrinsic in a
/// large body into a call; `#[inline(always)]` methods are not.
pub(crate) trait OctaveSource<const B: usize> {
    /// Writes octave `k`'s kernel values for the first `padded` samples.
    fn eval(&mut self, k: usize, oct: &Octave, padded: usize, value: &mut [f32; B]);
}

/// The octave loop shared by every source.
#[inline(always)]
fn octaves<const B: usize>(
    noise: &Noise,
    padded: usize,
    value: &mut [f32; B],
    acc: &mut [f32; B],
    out: &mut [f32],
    src: &mut impl OctaveSource<B>,
) {
    let fractal = noise.params.fractal;
    for (k, oct) in noise.octaves.iter().enumerate() {
        src.eval(k, oct, padded, value);
        let amp = oct.amplitude;
        let (a, v) = (&mut acc[..padded], &value[..padded]);
        // The sum starts at +0 (added, not assumed: +0 + −0 is +0).
        let first = k == 0;
        match fractal {
            Fractal::None | Fractal::Fbm => {
                accumulate_all(a, v, first, |a, n| accumulate(Fractal::Fbm, a, amp, n))
            }
            Fractal::Ridged => {
                accumulate_all(a, v, first, |a, n| accumulate(Fractal::Ridged, a, amp, n))
            }
            Fractal::Billow => {
                accumulate_all(a, v, first, |a, n| accumulate(Fractal::Billow, a, amp, n))
            }
        }
    }
    // `out` may be shorter than `padded`: the padding lanes are dropped.
    for (o, &a) in out.iter_mut().zip(&acc[..padded]) {
        *o = finish(fractal, a, noise.norm);
    }
}

/// Evaluates `$body` with `$k` bound to `$kernel` as a constant, one arm per
/// kernel: each arm's inlined body then folds the kernel's `match` away
/// instead of taking it once per vector. (A macro, not a closure: closures
/// are compiled without the caller's target features.)
macro_rules! unswitch_kernel {
    ($kernel:expr, |$k:ident| $body:expr) => {{
        use $crate::noise::{CellularReturn, Kernel};
        match $kernel {
            Kernel::Value => {
                let $k = Kernel::Value;
                $body
            }
            Kernel::Perlin => {
                let $k = Kernel::Perlin;
                $body
            }
            Kernel::Simplex => {
                let $k = Kernel::Simplex;
                $body
            }
            Kernel::Cellular(CellularReturn::F1) => {
                let $k = Kernel::Cellular(CellularReturn::F1);
                $body
            }
            Kernel::Cellular(CellularReturn::F2) => {
                let $k = Kernel::Cellular(CellularReturn::F2);
                $body
            }
            Kernel::Cellular(CellularReturn::F2MinusF1) => {
                let $k = Kernel::Cellular(CellularReturn::F2MinusF1);
                $body
            }
        }
    }};
}
pub(crate) use unswitch_kernel;

/// Evaluates `$body` with the type `$h` bound to the [`Lattice`] of `$hash`:
/// hash 2's fast route where `$fast` says every cell involved fits an i32
/// (both routes give the same bits there), its exact route otherwise. (A
/// macro for the same reason as [`unswitch_kernel`].)
macro_rules! with_lattice {
    // The exact routes only (hash 1 or hash 2): for work that splits in
    // scalar, where the fast route would gain nothing but code.
    ($hash:expr, $h:ident => $body:expr) => {{
        use $crate::noise::LatticeHash;
        use $crate::noise::lattice::{Hash1, Hash2};
        match $hash {
            LatticeHash::Hash1 => {
                type $h = Hash1;
                $body
            }
            LatticeHash::Hash2 => {
                type $h = Hash2;
                $body
            }
        }
    }};
    ($hash:expr, $fast:expr, $h:ident => $body:expr) => {{
        use $crate::noise::LatticeHash;
        use $crate::noise::lattice::{Hash1, Hash2, Hash2Fast};
        match ($hash, $fast) {
            (LatticeHash::Hash1, _) => {
                type $h = Hash1;
                $body
            }
            (LatticeHash::Hash2, true) => {
                type $h = Hash2Fast;
                $body
            }
            (LatticeHash::Hash2, false) => {
                type $h = Hash2;
                $body
            }
        }
    }};
}
pub(crate) use with_lattice;

/// Whether every coordinate is inside hash 2's fast range ([`FAST_COORD`]).
/// No early exit, so the loop vectorises; NaN was clamped before.
#[inline(always)]
pub(crate) fn all_fast(v: &[f64]) -> bool {
    v.iter().fold(true, |ok, &c| ok & (c.abs() < FAST_COORD))
}

/// A separable kernel on already split axes.
#[inline(always)]
pub(crate) fn separable<S: Simd, H: Lattice, const D: usize>(
    s: S,
    kernel: Kernel,
    ax: [Axis<S>; D],
    seed: u32,
) -> S::F {
    if D == 2 {
        let ax = [ax[0], ax[1]];
        match kernel {
            Kernel::Value => kernels::value2::<S, H>(s, ax, seed),
            Kernel::Cellular(r) => kernels::cellular2::<S, H>(s, ax, seed, r),
            _ => kernels::perlin2::<S, H>(s, ax, seed),
        }
    } else {
        let ax = [ax[0], ax[1], ax[D - 1]];
        match kernel {
            Kernel::Value => kernels::value3::<S, H>(s, ax, seed),
            Kernel::Cellular(r) => kernels::cellular3::<S, H>(s, ax, seed, r),
            _ => kernels::perlin3::<S, H>(s, ax, seed),
        }
    }
}

/// Whether a kernel reads only per-axis lattice data (so grids can be
/// tabulated per row and column).
pub(crate) fn is_separable(kernel: Kernel) -> bool {
    !matches!(kernel, Kernel::Simplex)
}

/// Runs the kernel over every lane group of the block of scaled positions.
#[inline(always)]
fn kernel_groups<S: Simd, H: Lattice, const D: usize, const B: usize>(
    s: S,
    kernel: Kernel,
    p: &[[f64; B]; D],
    seed: u32,
    padded: usize,
    out: &mut [f32; B],
) {
    unswitch_kernel!(kernel, |kernel| {
        let mut g = 0;
        while g < padded {
            let v = match kernel {
                Kernel::Simplex if D == 2 => {
                    kernels::simplex2::<S, H>(s, &p[0][g..], &p[1][g..], seed)
                }
                Kernel::Simplex => {
                    kernels::simplex3::<S, H>(s, &p[0][g..], &p[1][g..], &p[D - 1][g..], seed)
                }
                Kernel::Perlin if D == 3 => {
                    kernels::perlin3_at::<S, H>(s, &p[0][g..], &p[1][g..], &p[D - 1][g..], seed)
                }
                k => {
                    let mut ax = [Axis::<S>::zero(s); D];
                    for (a, axis) in ax.iter_mut().enumerate() {
                        *axis = split_axis::<S, H>(s, &p[a][g..], a);
                    }
                    separable::<S, H, D>(s, k, ax, seed)
                }
            };
            s.store(v, &mut out[g..]);
            g += S::LANES;
        }
    })
}

/// Working memory of one block of positions, allocated once per fill and
/// reused, so no block pays for zeroing it.
pub(crate) struct Scratch<const D: usize, const B: usize> {
    pos: [[f64; B]; D],
    scaled: [[f64; B]; D],
    disp: [[f32; B]; D],
    value: [f32; B],
    acc: [f32; B],
}

impl<const D: usize, const B: usize> Scratch<D, B> {
    pub(crate) fn new() -> Box<Self> {
        Box::new(Scratch {
            pos: [[0.0; B]; D],
            scaled: [[0.0; B]; D],
            disp: [[0.0; B]; D],
            value: [0.0; B],
            acc: [0.0; B],
        })
    }
}

/// Octave values at a block's positions: scale, clamp, run the kernel.
struct AtPositions<'a, S: Simd, const D: usize, const B: usize> {
    s: S,
    kernel: Kernel,
    hash: LatticeHash,
    pos: &'a [[f64; B]; D],
    scaled: &'a mut [[f64; B]; D],
}

impl<S: Simd, const D: usize, const B: usize> OctaveSource<B> for AtPositions<'_, S, D, B> {
    #[inline(always)]
    fn eval(&mut self, _k: usize, oct: &Octave, padded: usize, value: &mut [f32; B]) {
        for (sa, pa) in self.scaled.iter_mut().zip(self.pos) {
            for (v, &p) in sa[..padded].iter_mut().zip(&pa[..padded]) {
                *v = clamp_coord(p * oct.frequency);
            }
        }
        let fast = self.scaled.iter().all(|a| all_fast(&a[..padded]));
        let (s, kernel, scaled) = (self.s, self.kernel, &*self.scaled);
        with_lattice!(self.hash, fast, H => kernel_groups::<S, H, D, B>(
            s, kernel, scaled, oct.seed, padded, value
        ));
    }
}

/// The octaves of `noise` (ignoring its warp) at the block's positions.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the block's buffers, borrowed apart
fn octaves_at<S: Simd, const D: usize, const B: usize>(
    s: S,
    noise: &Noise,
    pos: &[[f64; B]; D],
    scaled: &mut [[f64; B]; D],
    value: &mut [f32; B],
    acc: &mut [f32; B],
    padded: usize,
    out: &mut [f32],
) {
    let mut src = AtPositions {
        s,
        kernel: noise.params.kernel,
        hash: noise.params.hash,
        pos,
        scaled,
    };
    octaves(noise, padded, value, acc, out, &mut src);
}

/// Evaluates `noise` with its warp at up to `B` positions (`out.len()` of them).
#[inline(always)]
fn block<S: Simd, const D: usize, const B: usize>(
    s: S,
    noise: &Noise,
    pos: [&[f64]; D],
    sc: &mut Scratch<D, B>,
    out: &mut [f32],
) {
    let n = out.len();
    let padded = n.div_ceil(S::LANES) * S::LANES;
    // Pad the tail by repeating the last position; its values are dropped.
    for (dst, src) in sc.pos.iter_mut().zip(pos) {
        dst[..n].copy_from_slice(&src[..n]);
        dst[n..padded].fill(src[n - 1]);
    }
    let Scratch {
        pos,
        scaled,
        disp,
        value,
        acc,
    } = sc;
    if let Some(warp) = &noise.warp {
        for (axis, d) in warp.axes.iter().zip(disp.iter_mut()) {
            octaves_at::<S, D, B>(s, axis, pos, scaled, value, acc, padded, &mut d[..]);
        }
        for (pa, da) in pos.iter_mut().zip(disp.iter()) {
            for (p, &d) in pa[..padded].iter_mut().zip(&da[..padded]) {
                *p += warp.amplitude * d as f64;
            }
        }
    }
    let mut res = [0.0f32; B];
    octaves_at::<S, D, B>(s, noise, pos, scaled, value, acc, padded, &mut res[..]);
    out.copy_from_slice(&res[..n]);
}

/// One point at the scalar level: the reference every fill equals.
pub(crate) fn point<const D: usize>(noise: &Noise, pos: [f64; D]) -> f32 {
    let mut sc = Scratch::<D, 1>::new();
    let mut out = [0.0];
    let p: [&[f64]; D] = std::array::from_fn(|a| std::slice::from_ref(&pos[a]));
    block::<Scalar, D, 1>(Scalar, noise, p, &mut sc, &mut out);
    out[0]
}

/// Work that can run at any lane width: the dispatcher picks the widest the
/// CPU has and compiles `run` for it.
pub(crate) trait Job {
    /// Does the work with backend `s`. Implementations must be
    /// `#[inline(always)]` so they are compiled into each feature-enabled
    /// entry point.
    fn run<S: Simd>(&mut self, s: S);
}

/// Runs `job` at `level`, falling back to scalar where the CPU lacks it.
pub(crate) fn dispatch(level: Level, job: &mut impl Job) {
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => {
            if let Some(t) = super::simd::avx512::Avx512::new() {
                // SAFETY: the token exists only when AVX-512F was detected.
                return unsafe { x86::run_avx512(t, job) };
            }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => {
            if let Some(t) = super::simd::avx2::Avx2::new() {
                // SAFETY: the token exists only when AVX2 was detected.
                return unsafe { x86::run_avx2(t, job) };
            }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Sse2 => return job.run(super::simd::sse2::Sse2::new()),
        #[cfg(target_arch = "aarch64")]
        Level::Neon => return job.run(super::simd::neon::Neon::new()),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Level::Simd128 => return job.run(super::simd::wasm::Simd128::new()),
        _ => {}
    }
    job.run(Scalar)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Job;
    use crate::noise::simd::{avx2::Avx2, avx512::Avx512};

    /// The job, compiled with AVX2 enabled.
    #[target_feature(enable = "avx2")]
    pub(super) fn run_avx2(t: Avx2, job: &mut impl Job) {
        job.run(t)
    }

    /// The job, compiled with AVX-512F enabled.
    #[target_feature(enable = "avx512f")]
    pub(super) fn run_avx512(t: Avx512, job: &mut impl Job) {
        job.run(t)
    }
}

/// Positions, block by block.
struct PointsJob<'a, const D: usize> {
    noise: &'a Noise,
    pos: [&'a [f64]; D],
    out: &'a mut [f32],
}

impl<const D: usize> Job for PointsJob<'_, D> {
    #[inline(always)]
    fn run<S: Simd>(&mut self, s: S) {
        let mut sc = Scratch::<D, BLOCK>::new();
        let mut start = 0;
        while start < self.out.len() {
            let end = (start + BLOCK).min(self.out.len());
            let p: [&[f64]; D] = std::array::from_fn(|a| &self.pos[a][start..end]);
            block::<S, D, BLOCK>(s, self.noise, p, &mut sc, &mut self.out[start..end]);
            start = end;
        }
    }
}

/// Arbitrary positions.
pub(crate) fn points<const D: usize>(
    noise: &Noise,
    level: Level,
    pos: [&[f64]; D],
    out: &mut [f32],
) {
    dispatch(level, &mut PointsJob { noise, pos, out });
}
