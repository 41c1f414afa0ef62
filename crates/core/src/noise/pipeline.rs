//! From positions to finished fractal values: blocks of samples, the warp,
//! the octave loop, and the choice of instruction set.
//!
//! Everything outside the kernels is plain Rust on arrays (scaling, clamping,
//! accumulation); the compiler may vectorise those loops, and since each
//! element is computed independently with the same operations, that never
//! changes a bit.

use super::kernels;
use super::simd::{Level, Simd, scalar::Scalar};
use super::{Fractal, Grid2, Grid3, Kernel, MAX_COORD, Noise};

/// Samples per block: large enough to amortise the dispatch, small enough
/// that the block's coordinate arrays stay in L1.
const BLOCK: usize = 256;

/// Clamps a scaled coordinate into the exact range of the split.
/// Written as two selects so it vectorises; NaN fails both tests and lands
/// on `-MAX_COORD`.
#[inline(always)]
fn clamp_coord(v: f64) -> f64 {
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

/// Working memory of one block, allocated once per fill and reused, so no
/// block pays for zeroing it.
pub(crate) struct Scratch<const D: usize, const B: usize> {
    pos: [[f64; B]; D],
    disp: [[f32; B]; D],
    res: [f32; B],
    work: Work<D, B>,
}

/// The octave loop's own buffers.
struct Work<const D: usize, const B: usize> {
    scaled: [[f64; B]; D],
    value: [f32; B],
    acc: [f32; B],
}

impl<const D: usize, const B: usize> Scratch<D, B> {
    pub(crate) fn new() -> Box<Self> {
        Box::new(Scratch {
            pos: [[0.0; B]; D],
            disp: [[0.0; B]; D],
            res: [0.0; B],
            work: Work {
                scaled: [[0.0; B]; D],
                value: [0.0; B],
                acc: [0.0; B],
            },
        })
    }
}

/// Evaluates the octaves of `noise` (ignoring its warp) at `pos` (`D` axes,
/// each `padded` long, a multiple of `S::LANES`), writing `padded` values.
#[inline(always)]
fn octaves<S: Simd, const D: usize, const B: usize>(
    s: S,
    noise: &Noise,
    pos: &[[f64; B]; D],
    work: &mut Work<D, B>,
    padded: usize,
    out: &mut [f32; B],
) {
    let Work { scaled, value, acc } = work;
    let fractal = noise.params.fractal;
    acc[..padded].fill(0.0);
    for oct in &noise.octaves {
        for (sa, pa) in scaled.iter_mut().zip(pos) {
            for (v, &p) in sa[..padded].iter_mut().zip(&pa[..padded]) {
                *v = clamp_coord(p * oct.frequency);
            }
        }
        kernel_groups::<S, D, B>(s, noise.params.kernel, scaled, oct.seed, padded, value);
        let amp = oct.amplitude;
        match fractal {
            Fractal::None | Fractal::Fbm => accumulate_all(acc, value, padded, |a, n| {
                accumulate(Fractal::Fbm, a, amp, n)
            }),
            Fractal::Ridged => accumulate_all(acc, value, padded, |a, n| {
                accumulate(Fractal::Ridged, a, amp, n)
            }),
            Fractal::Billow => accumulate_all(acc, value, padded, |a, n| {
                accumulate(Fractal::Billow, a, amp, n)
            }),
        }
    }
    for i in 0..padded {
        out[i] = finish(fractal, acc[i], noise.norm);
    }
}

/// `acc[i] = f(acc[i], value[i])` for the block (one loop per fractal, so
/// the fractal's branch is outside it).
#[inline(always)]
fn accumulate_all<const B: usize>(
    acc: &mut [f32; B],
    value: &[f32; B],
    n: usize,
    f: impl Fn(f32, f32) -> f32,
) {
    for (a, &v) in acc[..n].iter_mut().zip(&value[..n]) {
        *a = f(*a, v);
    }
}

/// Runs the kernel over every lane group of the block.
#[inline(always)]
fn kernel_groups<S: Simd, const D: usize, const B: usize>(
    s: S,
    kernel: Kernel,
    p: &[[f64; B]; D],
    seed: u32,
    padded: usize,
    out: &mut [f32; B],
) {
    let mut g = 0;
    while g < padded {
        let x = &p[0][g..];
        let y = &p[1][g..];
        let v = if D == 2 {
            match kernel {
                Kernel::Value => kernels::value2(s, x, y, seed),
                Kernel::Perlin => kernels::perlin2(s, x, y, seed),
                Kernel::Simplex => kernels::simplex2(s, x, y, seed),
                Kernel::Cellular(r) => kernels::cellular2(s, x, y, seed, r),
            }
        } else {
            let z = &p[D - 1][g..];
            match kernel {
                Kernel::Value => kernels::value3(s, x, y, z, seed),
                Kernel::Perlin => kernels::perlin3(s, x, y, z, seed),
                Kernel::Simplex => kernels::simplex3(s, x, y, z, seed),
                Kernel::Cellular(r) => kernels::cellular3(s, x, y, z, seed, r),
            }
        };
        s.store(v, &mut out[g..]);
        g += S::LANES;
    }
}

/// Evaluates `noise` with its warp at up to `B` positions (`n` of them).
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
    if let Some(warp) = &noise.warp {
        for (axis, disp) in warp.axes.iter().zip(sc.disp.iter_mut()) {
            octaves::<S, D, B>(s, axis, &sc.pos, &mut sc.work, padded, disp);
        }
        for (pa, da) in sc.pos.iter_mut().zip(&sc.disp) {
            for (p, &d) in pa[..padded].iter_mut().zip(&da[..padded]) {
                *p += warp.amplitude * d as f64;
            }
        }
    }
    octaves::<S, D, B>(s, noise, &sc.pos, &mut sc.work, padded, &mut sc.res);
    out.copy_from_slice(&sc.res[..n]);
}

/// One point at the scalar level: the reference every fill equals.
pub(crate) fn point2(noise: &Noise, x: f64, y: f64, out: &mut [f32; 1]) {
    let mut sc = Scratch::<2, 1>::new();
    block::<Scalar, 2, 1>(Scalar, noise, [&[x], &[y]], &mut sc, out);
}

/// One 3D point at the scalar level.
pub(crate) fn point3(noise: &Noise, x: f64, y: f64, z: f64, out: &mut [f32; 1]) {
    let mut sc = Scratch::<3, 1>::new();
    block::<Scalar, 3, 1>(Scalar, noise, [&[x], &[y], &[z]], &mut sc, out);
}

/// One block at the requested level, falling back to scalar where the CPU
/// lacks it.
fn dispatch<const D: usize>(
    level: Level,
    noise: &Noise,
    pos: [&[f64]; D],
    sc: &mut Scratch<D, BLOCK>,
    out: &mut [f32],
) {
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => {
            if let Some(t) = super::simd::avx512::Avx512::new() {
                // SAFETY: the token exists only when AVX-512F was detected.
                return unsafe { x86::block_avx512(t, noise, pos, sc, out) };
            }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => {
            if let Some(t) = super::simd::avx2::Avx2::new() {
                // SAFETY: the token exists only when AVX2 was detected.
                return unsafe { x86::block_avx2(t, noise, pos, sc, out) };
            }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Sse2 => {
            return block::<_, D, BLOCK>(super::simd::sse2::Sse2::new(), noise, pos, sc, out);
        }
        #[cfg(target_arch = "aarch64")]
        Level::Neon => {
            return block::<_, D, BLOCK>(super::simd::neon::Neon::new(), noise, pos, sc, out);
        }
        _ => {}
    }
    block::<Scalar, D, BLOCK>(Scalar, noise, pos, sc, out)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{BLOCK, Noise, Scratch, block};
    use crate::noise::simd::{avx2::Avx2, avx512::Avx512};

    /// The block, compiled with AVX2 enabled.
    #[target_feature(enable = "avx2")]
    pub(super) fn block_avx2<const D: usize>(
        t: Avx2,
        noise: &Noise,
        pos: [&[f64]; D],
        sc: &mut Scratch<D, BLOCK>,
        out: &mut [f32],
    ) {
        block::<Avx2, D, BLOCK>(t, noise, pos, sc, out)
    }

    /// The block, compiled with AVX-512F enabled.
    #[target_feature(enable = "avx512f")]
    pub(super) fn block_avx512<const D: usize>(
        t: Avx512,
        noise: &Noise,
        pos: [&[f64]; D],
        sc: &mut Scratch<D, BLOCK>,
        out: &mut [f32],
    ) {
        block::<Avx512, D, BLOCK>(t, noise, pos, sc, out)
    }
}

/// Arbitrary positions, block by block.
pub(crate) fn points<const D: usize>(
    noise: &Noise,
    level: Level,
    pos: [&[f64]; D],
    out: &mut [f32],
) {
    let mut sc = Scratch::<D, BLOCK>::new();
    let mut start = 0;
    while start < out.len() {
        let end = (start + BLOCK).min(out.len());
        let p: [&[f64]; D] = std::array::from_fn(|a| &pos[a][start..end]);
        dispatch(level, noise, p, &mut sc, &mut out[start..end]);
        start = end;
    }
}

/// A 2D grid, in blocks of consecutive samples (a block may span rows, so
/// narrow grids fill whole vectors).
pub(crate) fn grid2(noise: &Noise, level: Level, g: &Grid2, out: &mut [f32]) {
    let [nx, _] = g.size;
    let xs: Vec<f64> = (0..nx)
        .map(|i| g.origin[0] + i as f64 * g.step[0])
        .collect();
    let (mut bx, mut by) = (vec![0.0f64; BLOCK], vec![0.0f64; BLOCK]);
    let mut sc = Scratch::<2, BLOCK>::new();
    let (mut i, mut j) = (0usize, 0usize);
    for chunk in out.chunks_mut(BLOCK) {
        for l in 0..chunk.len() {
            bx[l] = xs[i];
            by[l] = g.origin[1] + j as f64 * g.step[1];
            i += 1;
            if i == nx {
                (i, j) = (0, j + 1);
            }
        }
        let n = chunk.len();
        dispatch(level, noise, [&bx[..n], &by[..n]], &mut sc, chunk);
    }
}

/// A 3D grid, in blocks of consecutive samples.
pub(crate) fn grid3(noise: &Noise, level: Level, g: &Grid3, out: &mut [f32]) {
    let [nx, ny, _] = g.size;
    let xs: Vec<f64> = (0..nx)
        .map(|i| g.origin[0] + i as f64 * g.step[0])
        .collect();
    let (mut bx, mut by, mut bz) = (
        vec![0.0f64; BLOCK],
        vec![0.0f64; BLOCK],
        vec![0.0f64; BLOCK],
    );
    let mut sc = Scratch::<3, BLOCK>::new();
    let (mut i, mut j, mut k) = (0usize, 0usize, 0usize);
    for chunk in out.chunks_mut(BLOCK) {
        for l in 0..chunk.len() {
            bx[l] = xs[i];
            by[l] = g.origin[1] + j as f64 * g.step[1];
            bz[l] = g.origin[2] + k as f64 * g.step[2];
            i += 1;
            if i == nx {
                (i, j) = (0, j + 1);
                if j == ny {
                    (j, k) = (0, k + 1);
                }
            }
        }
        let n = chunk.len();
        dispatch(level, noise, [&bx[..n], &by[..n], &bz[..n]], &mut sc, chunk);
    }
}
