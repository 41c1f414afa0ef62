//! The density field: one formula, evaluated per voxel.
//!
//! With `h` the surface height and `b` the ceiling buffer of the voxel's
//! column, and `m` the worm value (`|n₁|` for sheets, `max(|n₁|, |n₂|)` for
//! tubes, each `nᵢ` interpolated from the worm lattice, see
//! [`crate::lattice`]), the density of voxel `(x, y, z)` is
//!
//! ```text
//! S = h − y                      positive below the surface
//! A = y − (h − b)                positive inside the ceiling buffer
//! F = floor_level + ½ − y        positive in the solid floor
//! c = K · (m − w)                positive where the worms leave rock, w = 1 − threshold
//! d = clamp(max(F, min(S, max(c, A))), −D, D)
//! ```
//!
//! so `d > 0` is rock and `d ≤ 0` is air, exactly the seed's rule: rock
//! below the surface, carved where `1 − |fbm| > threshold` and
//! `floor < y < h − buffer`. Every term is (close to) a distance in voxels
//! (`K` turns noise units into voxels), which gives surface nets smooth,
//! evenly placed vertices and makes `d` usable as a rough signed distance.
//! The clamp to ±[`DENSITY_CLAMP`] lets the chunk sampler skip the 3D noise
//! wherever it cannot change the result (see `chunk`), without changing a
//! single bit.
//!
//! Every term is computed in f32 from `y` as f32 (exact for |y| < 2²⁴),
//! in the order written (`A` as `y − (h − b)`), by the point query and the
//! box sampler alike.

use mangekyo_core::noise::{Fractal, Kernel, Noise, NoiseParams};
use mangekyo_core::{Pcg32, Seed, seed::purpose};

use crate::bound;
use crate::error::CaveError;
use crate::lattice;
use crate::params::{CaveMode, CaveParams};
use crate::version::Version;

/// Densities are clamped to ±4 voxels: surface nets and normals only look
/// at the sign and at values next to the surface, and a clamp lets whole
/// regions far from any surface be decided without 3D noise.
pub const DENSITY_CLAMP: f32 = 4.0;

/// Width, in entrance-noise units above the threshold, over which the
/// ceiling buffer fades from its full value to 0. The seed switches it off
/// at once (a discontinuous density); a short fade keeps the density
/// continuous, and lies entirely on the open side of the threshold, so the
/// buffer is full wherever the seed keeps it.
pub const ENTRANCE_RAMP: f32 = 0.05;

/// Mean gradient magnitude of the normalised worm fBm, in noise units per
/// lattice cell (measured: ≈1.5 for 2 octaves of our Perlin). `K` in the
/// formula is `1 / (worm_frequency · CARVE_SLOPE)`, turning `m − w` into
/// an approximate distance in voxels.
pub const CARVE_SLOPE: f64 = 1.5;

/// A validated, ready-to-sample cave world: parameters, seed and the four
/// noises built from them. `Clone + Send + Sync`; build it once.
#[derive(Clone, Debug)]
pub struct CaveField {
    pub(crate) params: CaveParams,
    pub(crate) seed: Seed,
    pub(crate) version: Version,
    pub(crate) surface: Noise,
    pub(crate) entrance: Noise,
    pub(crate) worms: [Noise; 2],
    /// `K`: voxels per unit of worm value.
    pub(crate) carve_scale: f32,
    /// `w = 1 − threshold`: the worm value below which rock is carved.
    pub(crate) width: f32,
    /// Spacing of the worm lattice, voxels (a power of two).
    pub(crate) lattice: i64,
}

/// The per-column quantities: surface height and ceiling buffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Column {
    pub(crate) h: f32,
    pub(crate) b: f32,
}

/// The larger of two values, by one comparison. Unlike `f32::max`
/// (IEEE maxNum, which may return either zero of `max(−0, +0)`), the
/// result's bits are fixed on every platform; and it vectorises to one
/// instruction. Inputs are never NaN here.
#[inline(always)]
pub(crate) fn max(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// The smaller of two values, by one comparison (see [`max`]).
#[inline(always)]
pub(crate) fn min(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// `v` limited to ±[`DENSITY_CLAMP`].
#[inline(always)]
fn clamp(v: f32) -> f32 {
    min(max(v, -DENSITY_CLAMP), DENSITY_CLAMP)
}

/// The three terms of a voxel that do not need 3D noise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Terms {
    pub(crate) s: f32,
    pub(crate) a: f32,
    pub(crate) f: f32,
}

impl Terms {
    /// The terms at height `y` (a voxel's integer height as f32) in `col`,
    /// for the floor term's zero `floor`.
    #[inline(always)]
    pub(crate) fn new(col: Column, floor: f32, y: f32) -> Terms {
        Terms {
            s: col.h - y,
            a: y - (col.h - col.b),
            f: floor - y,
        }
    }

    /// The density for a carve term `c`.
    #[inline(always)]
    pub(crate) fn density(self, c: f32) -> f32 {
        clamp(max(self.f, min(self.s, max(c, self.a))))
    }

    /// The density if the worms carve nothing (`c = +∞`).
    #[inline(always)]
    pub(crate) fn uncarved(self) -> f32 {
        clamp(max(self.f, self.s))
    }

    /// The density if the worms carve everything (`c = −∞`).
    #[cfg(test)]
    pub(crate) fn carved(self) -> f32 {
        clamp(max(self.f, min(self.s, self.a)))
    }

    /// The window `(lo, hi)` of carve values that change the density: for
    /// `c ≤ lo` the density is [`Terms::carved`], for `c ≥ hi`
    /// [`Terms::uncarved`]. Empty (`lo ≥ hi`) where the worms don't matter.
    #[inline]
    pub(crate) fn window(self) -> (f32, f32) {
        (
            max(max(self.a, self.f), -DENSITY_CLAMP),
            min(self.s, DENSITY_CLAMP),
        )
    }
}

/// Salts of the four noise seeds, drawn in this order from the seed's
/// `caves` stream.
const LAYERS: usize = 4;

impl CaveField {
    /// Validates `params` and builds the noises for `seed`, as the version
    /// new content is made with ([`Version::DEFAULT`]).
    pub fn new(params: &CaveParams, seed: Seed) -> Result<CaveField, CaveError> {
        CaveField::with_version(params, seed, Version::DEFAULT)
    }

    /// Validates `params` and builds the noises for `seed` as generator
    /// `version` makes them (a world pinned to an older version).
    pub fn with_version(
        params: &CaveParams,
        seed: Seed,
        version: Version,
    ) -> Result<CaveField, CaveError> {
        params.validate()?;
        let mut rng = Pcg32::for_purpose(seed, purpose::CAVES);
        let seeds: [u64; LAYERS] = std::array::from_fn(|_| rng.next_u64());
        let fbm = |frequency, octaves, gain, lacunarity, seed| {
            Noise::new(NoiseParams {
                kernel: Kernel::Perlin,
                fractal: Fractal::Fbm,
                octaves,
                frequency,
                lacunarity,
                gain,
                seed,
                warp: None,
                hash: version.hash(),
            })
            .map_err(|e| CaveError::Noise(e.to_string()))
        };
        let p = params;
        let worm = |s| fbm(p.worm_frequency, p.worm_octaves, 0.5, 2.0, s);
        let worms = [worm(seeds[2])?, worm(seeds[3])?];
        let finest = worms[0].octave_frequencies().fold(0.0, f64::max);
        Ok(CaveField {
            params: *p,
            seed,
            version,
            surface: fbm(p.scale, p.octaves, p.persistence, p.lacunarity, seeds[0])?,
            entrance: fbm(p.entrance_frequency, 2, 0.5, 2.0, seeds[1])?,
            lattice: lattice::spacing_for(finest),
            worms,
            carve_scale: (1.0 / (p.worm_frequency * CARVE_SLOPE)) as f32,
            width: 1.0 - p.tunnel_threshold,
        })
    }

    /// The parameters this field was built from.
    pub fn params(&self) -> &CaveParams {
        &self.params
    }

    /// The seed this field was built from.
    pub fn seed(&self) -> Seed {
        self.seed
    }

    /// The generator version this field computes.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The spacing of the worm lattice, in voxels: the worm noises are
    /// evaluated where all three coordinates are multiples of it and
    /// interpolated in between (4 at the defaults, see [`crate::lattice`]).
    pub fn lattice_spacing(&self) -> i64 {
        self.lattice
    }

    /// `floor_level + ½`: the floor term's zero (exact in f32 for the
    /// floor levels `validate` accepts).
    pub(crate) fn floor(&self) -> f32 {
        self.params.floor_level as f32 + 0.5
    }

    /// The surface height for a surface-noise value.
    #[inline]
    pub(crate) fn height_of(&self, n: f32) -> f32 {
        self.params.base_height + n * self.params.amplitude
    }

    /// The ceiling buffer for an entrance-noise value: full up to the
    /// threshold, fading to 0 over [`ENTRANCE_RAMP`] above it.
    #[inline]
    pub(crate) fn buffer_of(&self, e: f32) -> f32 {
        let over = e - self.params.entrance_threshold;
        if over <= 0.0 {
            return self.params.ceiling_buffer;
        }
        let t = (over / ENTRANCE_RAMP).min(1.0);
        self.params.ceiling_buffer * (1.0 - t * t * (3.0 - 2.0 * t))
    }

    /// The column at integer (or any) horizontal position.
    pub(crate) fn column(&self, x: f64, z: f64) -> Column {
        Column {
            h: self.height_of(self.surface.sample2(x, z)),
            b: self.buffer_of(self.entrance.sample2(x, z)),
        }
    }

    /// The carve term for worm values `n1` and (tubes) `n2`.
    #[inline(always)]
    pub(crate) fn carve(&self, n1: f32, n2: f32) -> f32 {
        let m = match self.params.mode {
            CaveMode::Sheets => n1.abs(),
            CaveMode::Tubes => max(n1.abs(), n2.abs()),
        };
        self.carve_scale * (m - self.width)
    }

    /// Whether the second worm field is used at all.
    pub(crate) fn tubes(&self) -> bool {
        self.params.mode == CaveMode::Tubes
    }

    /// The density of one voxel, by the formula, point by point: its
    /// column, and where the worms matter their 8 lattice corners each,
    /// blended in the lattice's fixed order. This is the reference every
    /// chunk sample equals bit for bit.
    pub fn density(&self, x: i64, y: i64, z: i64) -> f32 {
        let t = Terms::new(self.column(x as f64, z as f64), self.floor(), y as f32);
        let (lo, hi) = t.window();
        if lo >= hi {
            return t.uncarved();
        }
        t.density(self.carve_at([x, y, z]))
    }

    /// The carve term of a voxel from the worm lattice.
    pub(crate) fn carve_at(&self, v: [i64; 3]) -> f32 {
        let worm = |k: usize| {
            let (c, t) = lattice::corners(&self.worms[k], v, self.lattice);
            lattice::trilinear(&c, t)
        };
        let n1 = worm(0);
        let n2 = if self.tubes() { worm(1) } else { 0.0 };
        self.carve(n1, n2)
    }

    /// The terrain surface height at a horizontal position (continuous in
    /// x and z): rock below it, air above it, except where caves are
    /// carved or open through it. This is the seed's `getSurfaceHeightAt`.
    pub fn surface_height(&self, x: f64, z: f64) -> f32 {
        self.height_of(self.surface.sample2(x, z))
    }

    /// Whether the entrance mask lets caves reach the sky at this column
    /// (the entrance noise is above its threshold, so the ceiling buffer is
    /// thinned or gone).
    pub fn entrance_open(&self, x: f64, z: f64) -> bool {
        self.entrance.sample2(x, z) > self.params.entrance_threshold
    }

    /// The highest and lowest surface height anywhere: the fBm is
    /// normalised by its amplitude sum and each octave lies in [-1, 1]
    /// (see `bound`), so the surface lies in `base ± amplitude`.
    pub(crate) fn surface_range(&self) -> (f64, f64) {
        let p = &self.params;
        let slack = bound::VALUE_SLACK as f64 * p.amplitude as f64;
        let amp = p.amplitude as f64 + slack;
        (p.base_height as f64 - amp, p.base_height as f64 + amp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(mode: CaveMode) -> CaveField {
        CaveField::new(
            &CaveParams {
                mode,
                ..CaveParams::default()
            },
            Seed::new(7),
        )
        .unwrap()
    }

    #[test]
    fn window_decides_exactly_when_the_carve_term_is_irrelevant() {
        let f = field(CaveMode::Tubes);
        let col = Column { h: 30.3, b: 3.0 };
        for y in -10..45 {
            let t = Terms::new(col, f.floor(), y as f32);
            let (lo, hi) = t.window();
            for c in [-50.0f32, -4.0, -1.0, -0.1, 0.0, 0.1, 1.0, 4.0, 50.0] {
                if c <= lo {
                    assert_eq!(t.density(c).to_bits(), t.carved().to_bits(), "y {y} c {c}");
                }
                if c >= hi {
                    assert_eq!(
                        t.density(c).to_bits(),
                        t.uncarved().to_bits(),
                        "y {y} c {c}"
                    );
                }
            }
        }
    }

    #[test]
    fn above_the_surface_is_air_and_the_floor_is_rock() {
        let f = field(CaveMode::Tubes);
        for x in (-200..200).step_by(37) {
            for z in (-200..200).step_by(41) {
                let h = f.surface_height(x as f64, z as f64);
                let top = h.ceil() as i64;
                assert!(f.density(x, top, z) <= 0.0);
                assert!(f.density(x, top + 10, z) <= 0.0);
                assert!(f.density(x, 2, z) > 0.0);
                assert!(f.density(x, -5, z) > 0.0);
            }
        }
    }

    #[test]
    fn the_buffer_is_full_up_to_the_threshold_and_fades_after() {
        let f = field(CaveMode::Sheets);
        assert_eq!(f.buffer_of(0.5), 3.0);
        assert_eq!(f.buffer_of(-1.0), 3.0);
        assert!(f.buffer_of(0.52) < 3.0 && f.buffer_of(0.52) > 0.0);
        assert_eq!(f.buffer_of(0.56), 0.0);
    }
}
