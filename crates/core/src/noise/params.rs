//! What a noise is: its kernel, fractal, octaves, frequency and seed — the
//! parameters, their defaults and their validation.

use serde::{Deserialize, Serialize};

use crate::param::{ParamError, Refusal};

/// The basic lattice noise a fractal is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kernel {
    /// Hashed values at lattice points, blended with a quintic fade.
    Value,
    /// Gradient noise (Perlin's improved noise in 3D).
    Perlin,
    /// Simplex noise (triangles in 2D, tetrahedra in 3D).
    Simplex,
    /// Cellular (Worley) noise: distances to jittered feature points.
    Cellular(CellularReturn),
}

/// What cellular noise returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellularReturn {
    /// Distance to the nearest feature point.
    F1,
    /// Distance to the second nearest.
    F2,
    /// Their difference: cell borders.
    F2MinusF1,
}

/// How octaves are summed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fractal {
    /// One octave of the kernel, as it is.
    None,
    /// Fractional Brownian motion: `Σ gainᵏ · n(x · lacunarityᵏ)`.
    Fbm,
    /// Ridged: `Σ gainᵏ · (1 − |n|)²`, mapped to `[-1, 1]` — sharp crests.
    Ridged,
    /// Billow: `Σ gainᵏ · (2|n| − 1)` — rounded, cloud-like.
    Billow,
}

/// How lattice cells become the pseudo-random numbers a kernel reads (its
/// gradients, values and feature points). A generator version chooses one
/// and keeps it: the bytes a version serves never change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LatticeHash {
    /// Hash 1: linear per-axis parts and MurmurHash3's fmix32 per corner
    /// (two multiplies). Every generator version released before noise
    /// version 2, and the default, so parameters that name no hash keep
    /// their worlds.
    #[default]
    Hash1,
    /// Hash 2 (noise version 2): a non-linear part per axis, computed once
    /// per row or column in grid fills, and one multiply per corner. The
    /// same quality gates as hash 1 (avalanche, spectrum, no repetition),
    /// cheaper where corners dominate.
    Hash2,
}

impl LatticeHash {
    /// Whether this is hash 1 (parameters then leave the field out, so
    /// documents written before hash 2 existed keep their bytes).
    pub fn is_hash1(&self) -> bool {
        matches!(self, LatticeHash::Hash1)
    }
}

/// Domain warp: before sampling, each position moves by `amplitude` world
/// units times an fBm of gradient noise (one per axis, decorrelated seeds).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Warp {
    /// How far positions move, in the same units as the coordinates.
    pub amplitude: f64,
    /// Frequency of the displacement noise, in cycles per unit.
    pub frequency: f64,
    /// Octaves of the displacement noise.
    pub octaves: u32,
}

impl Default for Warp {
    fn default() -> Self {
        Warp {
            amplitude: 20.0,
            frequency: 0.01,
            octaves: 3,
        }
    }
}

/// A noise, described. Build a [`super::Noise`] from it with
/// [`super::Noise::new`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NoiseParams {
    /// The lattice noise.
    pub kernel: Kernel,
    /// How octaves combine.
    pub fractal: Fractal,
    /// Number of octaves (1 ..= [`MAX_OCTAVES`]); `Fractal::None` uses one.
    pub octaves: u32,
    /// Lattice cells per coordinate unit at the first octave.
    pub frequency: f64,
    /// Frequency ratio between octaves.
    pub lacunarity: f64,
    /// Amplitude ratio between octaves.
    pub gain: f32,
    /// Seed of the noise; octave k uses a seed derived from (seed, k).
    pub seed: u64,
    /// Optional domain warp.
    pub warp: Option<Warp>,
    /// The lattice hash (hash 1 unless a generator version chose hash 2).
    #[serde(skip_serializing_if = "LatticeHash::is_hash1")]
    pub hash: LatticeHash,
}

/// Most octaves a fractal may have: beyond 24 octaves with lacunarity 2 the
/// finest octave is 16 million times the first, past f32 fraction precision.
pub const MAX_OCTAVES: u32 = 24;

impl Default for NoiseParams {
    fn default() -> Self {
        NoiseParams {
            kernel: Kernel::Perlin,
            fractal: Fractal::Fbm,
            octaves: 4,
            frequency: 0.01,
            lacunarity: 2.0,
            gain: 0.5,
            seed: 0,
            warp: None,
            hash: LatticeHash::Hash1,
        }
    }
}

/// A parameter out of its range. (`Display` is written by hand to keep
/// the core crate free of error-derive dependencies.)
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum NoiseError {
    /// A parameter (`octaves`, `warp.frequency`, …) is outside what the
    /// noise supports.
    OutOfRange(ParamError),
}

impl std::fmt::Display for NoiseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoiseError::OutOfRange(p) => write!(
                f,
                "noise parameter `{}` must be {}, got {}",
                p.name, p.expected, p.value
            ),
        }
    }
}

impl std::error::Error for NoiseError {}

impl Refusal for NoiseError {
    fn param(&self) -> Option<ParamError> {
        match self {
            NoiseError::OutOfRange(p) => Some(p.clone()),
        }
    }
}

fn out_of_range(
    name: &'static str,
    value: impl std::fmt::Display,
    allowed: &'static str,
) -> NoiseError {
    NoiseError::OutOfRange(ParamError::new(name, value, allowed))
}

fn positive_finite(name: &'static str, v: f64) -> Result<(), NoiseError> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(out_of_range(name, v, "a finite number > 0"))
    }
}

impl NoiseParams {
    /// Checks every parameter, naming the first one out of range.
    pub fn validate(&self) -> Result<(), NoiseError> {
        if self.octaves == 0 || self.octaves > MAX_OCTAVES {
            return Err(out_of_range("octaves", self.octaves, "in 1..=24"));
        }
        positive_finite("frequency", self.frequency)?;
        if !(self.lacunarity.is_finite() && (1.0..=8.0).contains(&self.lacunarity)) {
            return Err(out_of_range("lacunarity", self.lacunarity, "in 1.0..=8.0"));
        }
        if !(self.gain.is_finite() && self.gain > 0.0 && self.gain <= 1.0) {
            return Err(out_of_range("gain", self.gain, "in (0, 1]"));
        }
        if let Some(w) = &self.warp {
            if !(w.amplitude.is_finite() && w.amplitude >= 0.0) {
                return Err(out_of_range(
                    "warp.amplitude",
                    w.amplitude,
                    "a finite number ≥ 0",
                ));
            }
            positive_finite("warp.frequency", w.frequency)?;
            if w.octaves == 0 || w.octaves > MAX_OCTAVES {
                return Err(out_of_range("warp.octaves", w.octaves, "in 1..=24"));
            }
        }
        Ok(())
    }
}
