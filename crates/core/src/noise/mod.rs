//! Deterministic, planet-exact noise: value, gradient (Perlin), simplex and
//! cellular kernels; fBm, ridged and billow fractals; domain warp.
//!
//! # Precision contract
//! Inputs are f64 world coordinates. Each octave scales them in f64, then
//! splits every position into an i64 lattice cell and a fraction *before*
//! any f32 arithmetic, and hashes cells with a 64-bit-aware integer hash
//! (no permutation tables). So noise 10^9 cells from the origin is as
//! detailed as noise at the origin, and nothing repeats. Scaled coordinates
//! are clamped to ±[`MAX_COORD`] (NaN goes to −`MAX_COORD`).
//!
//! # Determinism contract
//! [`Noise::sample2`], [`Noise::fill2`] and every [`Level`] give the same
//! bits: the kernels are written once over a lane abstraction whose
//! operations are all exactly rounded (no FMA, no approximate reciprocal,
//! no transcendental function), and octaves are summed in a fixed order.
//!
//! ```
//! use mangekyo_core::noise::{Grid2, Kernel, Fractal, Noise, NoiseParams};
//! let n = Noise::new(NoiseParams { kernel: Kernel::Simplex, fractal: Fractal::Fbm, octaves: 5,
//!     frequency: 1.0 / 64.0, seed: 7, ..NoiseParams::default() }).unwrap();
//! let grid = Grid2 { origin: [1.0e6, -3.5], step: [1.0, 1.0], size: [32, 8] };
//! let mut out = vec![0.0; grid.len()];
//! n.fill2(&grid, &mut out);
//! assert_eq!(out[3 * 32 + 5].to_bits(), n.sample2(1.0e6 + 5.0, -3.5 + 3.0).to_bits());
//! ```

mod kernels;
pub(crate) mod lattice;
mod params;
mod pipeline;
pub mod simd;

pub use params::{
    CellularReturn, Fractal, Kernel, LatticeHash, MAX_OCTAVES, NoiseError, NoiseParams, Warp,
};
pub use simd::Level;

use crate::hash::kernel_seed;

/// Largest scaled coordinate magnitude, 2^50 lattice cells: far beyond an
/// Earth-sized planet at millimetre detail, and below the 2^51 where the
/// exact f64 floor-and-split of the SIMD backends stops being exact.
pub const MAX_COORD: f64 = (1u64 << 50) as f64;

/// A regular 2D grid of sample positions: `origin + (i, j) · step`, row-major
/// with x fastest (index `j · size[0] + i`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid2 {
    /// Position of sample (0, 0).
    pub origin: [f64; 2],
    /// Distance between neighbouring samples along x and y.
    pub step: [f64; 2],
    /// Samples along x and y.
    pub size: [usize; 2],
}

impl Grid2 {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.size[0] * self.size[1]
    }
    /// Whether the grid has no samples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A regular 3D grid: `origin + (i, j, k) · step`, index `(k · ny + j) · nx + i`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid3 {
    /// Position of sample (0, 0, 0).
    pub origin: [f64; 3],
    /// Distance between neighbouring samples along x, y and z.
    pub step: [f64; 3],
    /// Samples along x, y and z.
    pub size: [usize; 3],
}

impl Grid3 {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.size[0] * self.size[1] * self.size[2]
    }
    /// Whether the grid has no samples.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One octave: its frequency, amplitude and kernel seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Octave {
    pub(crate) frequency: f64,
    pub(crate) amplitude: f32,
    pub(crate) seed: u32,
}

/// A ready-to-sample noise: validated parameters with their octave table.
/// Cheap to clone, `Send + Sync`; build once, sample many times.
#[derive(Clone, Debug, PartialEq)]
pub struct Noise {
    params: NoiseParams,
    octaves: Vec<Octave>,
    norm: f32,
    warp: Option<WarpField>,
}

/// The three displacement noises of a domain warp and their amplitude.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct WarpField {
    pub(crate) amplitude: f64,
    pub(crate) axes: Vec<Noise>,
}

/// Salt of the warp's displacement seeds, apart from any octave index.
const WARP_SALT: u64 = 0x5741_5250; // "WARP"

impl Noise {
    /// Validates `params` and builds the octave table.
    pub fn new(params: NoiseParams) -> Result<Noise, NoiseError> {
        params.validate()?;
        let count = if params.fractal == Fractal::None {
            1
        } else {
            params.octaves
        };
        let mut octaves = Vec::with_capacity(count as usize);
        let (mut frequency, mut amplitude, mut total) = (params.frequency, 1.0f32, 0.0f32);
        for k in 0..count {
            octaves.push(Octave {
                frequency,
                amplitude,
                seed: kernel_seed(params.seed, k as u64),
            });
            total += amplitude;
            frequency *= params.lacunarity;
            amplitude *= params.gain;
        }
        let warp = params.warp.map(|w| WarpField {
            amplitude: w.amplitude,
            axes: (0..3)
                .map(|axis| Noise {
                    params: NoiseParams {
                        kernel: Kernel::Perlin,
                        fractal: Fractal::Fbm,
                        octaves: w.octaves,
                        frequency: w.frequency,
                        lacunarity: 2.0,
                        gain: 0.5,
                        seed: params.seed,
                        warp: None,
                        hash: params.hash,
                    },
                    octaves: warp_octaves(&w, params.seed, axis),
                    norm: warp_norm(w.octaves),
                    warp: None,
                })
                .collect(),
        });
        Ok(Noise {
            params,
            octaves,
            norm: 1.0 / total,
            warp,
        })
    }

    /// The parameters this noise was built from.
    pub fn params(&self) -> &NoiseParams {
        &self.params
    }

    /// The frequency of each octave, first to last (cycles per unit).
    pub fn octave_frequencies(&self) -> impl Iterator<Item = f64> + '_ {
        self.octaves.iter().map(|o| o.frequency)
    }

    /// The same noise with only its first `count` octaves, *keeping the
    /// normalisation of the full set*: a coarse level of detail then agrees
    /// with the full one on the large-scale shape (the dropped octaves are
    /// finer than the sample spacing).
    pub fn truncated(&self, count: usize) -> Noise {
        let mut n = self.clone();
        n.octaves.truncate(count.max(1));
        n
    }

    /// Noise at one 2D point.
    pub fn sample2(&self, x: f64, y: f64) -> f32 {
        pipeline::point(self, [x, y])
    }

    /// Noise at one 3D point.
    pub fn sample3(&self, x: f64, y: f64, z: f64) -> f32 {
        pipeline::point(self, [x, y, z])
    }

    /// Fills `out` (length `grid.len()`) at the fastest level this CPU has.
    pub fn fill2(&self, grid: &Grid2, out: &mut [f32]) {
        self.fill2_with(Level::best(), grid, out)
    }

    /// Fills `out` at a chosen level (an unsupported one runs as scalar,
    /// which gives the same bits).
    ///
    /// # Panics
    /// If `out.len() != grid.len()`.
    pub fn fill2_with(&self, level: Level, grid: &Grid2, out: &mut [f32]) {
        assert_eq!(
            out.len(),
            grid.len(),
            "fill2: output length must equal the grid's sample count"
        );
        let job = &mut pipeline::grid::GridJob {
            noise: self,
            origin: grid.origin,
            step: grid.step,
            size: grid.size,
            out,
        };
        pipeline::dispatch(level, job)
    }

    /// Fills `out` (length `grid.len()`) at the fastest level this CPU has.
    pub fn fill3(&self, grid: &Grid3, out: &mut [f32]) {
        self.fill3_with(Level::best(), grid, out)
    }

    /// Fills `out` at a chosen level.
    ///
    /// # Panics
    /// If `out.len() != grid.len()`.
    pub fn fill3_with(&self, level: Level, grid: &Grid3, out: &mut [f32]) {
        assert_eq!(
            out.len(),
            grid.len(),
            "fill3: output length must equal the grid's sample count"
        );
        let job = &mut pipeline::grid::GridJob {
            noise: self,
            origin: grid.origin,
            step: grid.step,
            size: grid.size,
            out,
        };
        pipeline::dispatch(level, job)
    }

    /// Noise at arbitrary 2D positions.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn fill_points2(&self, xs: &[f64], ys: &[f64], out: &mut [f32]) {
        self.fill_points2_with(Level::best(), xs, ys, out)
    }

    /// [`Noise::fill_points2`] at a chosen level.
    pub fn fill_points2_with(&self, level: Level, xs: &[f64], ys: &[f64], out: &mut [f32]) {
        assert!(
            xs.len() == out.len() && ys.len() == out.len(),
            "fill_points2: slices must have equal lengths"
        );
        pipeline::points(self, level, [xs, ys], out)
    }

    /// Noise at arbitrary 3D positions (points on a sphere, a warped grid …).
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn fill_points3(&self, xs: &[f64], ys: &[f64], zs: &[f64], out: &mut [f32]) {
        self.fill_points3_with(Level::best(), xs, ys, zs, out)
    }

    /// [`Noise::fill_points3`] at a chosen level.
    pub fn fill_points3_with(
        &self,
        level: Level,
        xs: &[f64],
        ys: &[f64],
        zs: &[f64],
        out: &mut [f32],
    ) {
        assert!(
            xs.len() == out.len() && ys.len() == out.len() && zs.len() == out.len(),
            "fill_points3: slices must have equal lengths"
        );
        pipeline::points(self, level, [xs, ys, zs], out)
    }
}

/// Octaves of one warp axis: gradient fBm with lacunarity 2 and gain ½.
fn warp_octaves(w: &Warp, seed: u64, axis: u64) -> Vec<Octave> {
    let mut f = w.frequency;
    let mut a = 1.0f32;
    (0..w.octaves)
        .map(|k| {
            let o = Octave {
                frequency: f,
                amplitude: a,
                seed: kernel_seed(seed ^ WARP_SALT, axis * 64 + k as u64),
            };
            f *= 2.0;
            a *= 0.5;
            o
        })
        .collect()
}

fn warp_norm(octaves: u32) -> f32 {
    let (mut a, mut total) = (1.0f32, 0.0f32);
    for _ in 0..octaves {
        total += a;
        a *= 0.5;
    }
    1.0 / total
}

#[cfg(test)]
mod quality;
#[cfg(test)]
mod tests;
