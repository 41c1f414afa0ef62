//! The planet's noise layers, their octave plans, and the level-of-detail
//! rule that drops octaves finer than the sample spacing.
//!
//! Every layer is 3D noise of the position on the sphere in metres
//! (direction × radius): never 2D noise of map coordinates, which would
//! tear at the octahedral fold and the cube edges. Wavelengths scale with
//! the radius, so every planet has Earth's proportions; only the detail
//! layer reaches down to the pixel size.

use mangekyo_core::hash::{fnv1a64, mix64};
use mangekyo_core::noise::{
    Fractal, Kernel, LatticeHash, Level, MAX_OCTAVES, Noise, NoiseParams, Warp,
};

/// One noise layer of the planet function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Layer {
    /// Continents and ocean basins: gradient fBm, wavelength 0.7 R.
    Continent,
    /// Mountain belts (where plates meet): gradient fBm whose zero lines
    /// are the belts, wavelength 0.45 R.
    Belt,
    /// Mountain ridges inside the belts: ridged gradient noise, 0.1 R.
    Ridge,
    /// Erosion-like detail from 0.005 R (32 km on Earth) down to the pixel.
    Detail,
    /// Weather-scale temperature anomalies, 0.25 R.
    Temperature,
    /// Humidity anomalies, 0.3 R.
    Humidity,
}

impl Layer {
    /// Every layer, in a fixed order (also their index order).
    pub const ALL: [Layer; 6] = [
        Layer::Continent,
        Layer::Belt,
        Layer::Ridge,
        Layer::Detail,
        Layer::Temperature,
        Layer::Humidity,
    ];

    /// A short name (also salts the layer's seed).
    pub fn name(self) -> &'static str {
        match self {
            Layer::Continent => "continent",
            Layer::Belt => "belt",
            Layer::Ridge => "ridge",
            Layer::Detail => "detail",
            Layer::Temperature => "temperature",
            Layer::Humidity => "humidity",
        }
    }

    /// First-octave wavelength as a fraction of the radius, and the number
    /// of octaves (`None`: down to the pixel size).
    fn plan(self) -> (f64, Fractal, Option<u32>) {
        match self {
            Layer::Continent => (0.7, Fractal::Fbm, Some(CONTINENT_OCTAVES)),
            Layer::Belt => (0.45, Fractal::Fbm, Some(3)),
            Layer::Ridge => (0.1, Fractal::Ridged, Some(8)),
            Layer::Detail => (0.005, Fractal::Fbm, None),
            Layer::Temperature => (0.25, Fractal::Fbm, Some(3)),
            Layer::Humidity => (0.3, Fractal::Fbm, Some(4)),
        }
    }
}

/// Octaves of the continent layer: 0.7 R down to 0.011 R (70 km on Earth),
/// the scale below which the ridge and detail layers take over.
pub const CONTINENT_OCTAVES: u32 = 7;

/// Amplitude ratio between the detail layer's octaves. Above ½ the
/// terrain gets rougher at smaller scales (slopes grow by 2 × 0.6 = 1.2
/// per octave), as real eroded relief does (a Hurst exponent near 0.74).
pub const DETAIL_GAIN: f32 = 0.6;

/// How far the continent layer's domain warp moves positions, as a
/// fraction of the radius: enough to bend coastlines into bays and
/// peninsulas, not so much that continents shred.
pub const CONTINENT_WARP_R: f64 = 0.12;

/// Octaves from `wavelength` halving down to no finer than `pixel`.
fn octaves_to_pixel(wavelength: f64, pixel: f64) -> u32 {
    let mut n = 1;
    while n < MAX_OCTAVES && wavelength / f64::from(1u32 << n) >= pixel {
        n += 1;
    }
    n
}

/// The seed of one layer: the planet seed mixed with the layer's name.
fn layer_seed(seed: u64, layer: Layer) -> u64 {
    mix64(seed ^ fnv1a64(layer.name().as_bytes()))
}

/// [`crate::version::Ecotones::Field`]'s first wavelength as a fraction
/// of the radius (16 km on Earth: half the detail layer's), and its
/// octaves (down to about 30 m: finer patches would read as noise).
const ECOTONE_R: f64 = 0.0025;
const ECOTONE_OCTAVES: u32 = 10;

/// The built noise of every layer for one planet.
#[derive(Clone, Debug)]
pub(crate) struct Noises {
    noises: Vec<Noise>,
    /// The ecotone field ([`crate::version::Ecotones::Field`]): not a
    /// [`Layer`], as no height or climate reads it and no other backend
    /// needs to supply it.
    ecotone: Noise,
}

impl Noises {
    /// Builds the layers for a planet of `radius` metres whose finest
    /// sample spacing is `pixel` metres.
    pub(crate) fn new(seed: u64, radius: f64, pixel: f64, hash: LatticeHash) -> Noises {
        let noises = Layer::ALL
            .iter()
            .map(|&layer| {
                let (fraction, fractal, octaves) = layer.plan();
                let wavelength = fraction * radius;
                let params = NoiseParams {
                    kernel: Kernel::Perlin,
                    fractal,
                    octaves: octaves.unwrap_or_else(|| octaves_to_pixel(wavelength, pixel)),
                    frequency: 1.0 / wavelength,
                    lacunarity: 2.0,
                    gain: if layer == Layer::Detail {
                        DETAIL_GAIN
                    } else {
                        0.5
                    },
                    seed: layer_seed(seed, layer),
                    warp: (layer == Layer::Continent).then_some(Warp {
                        amplitude: CONTINENT_WARP_R * radius,
                        frequency: 1.0 / wavelength,
                        octaves: 2,
                    }),
                    hash,
                };
                // In range by construction: octaves 1..=24, frequency > 0.
                Noise::new(params).unwrap_or_else(|e| unreachable!("layer {}: {e}", layer.name()))
            })
            .collect();
        let ecotone = Noise::new(NoiseParams {
            kernel: Kernel::Perlin,
            fractal: Fractal::Fbm,
            octaves: ECOTONE_OCTAVES,
            frequency: 1.0 / (ECOTONE_R * radius),
            lacunarity: 2.0,
            gain: 0.5,
            seed: mix64(seed ^ fnv1a64(b"ecotone")),
            warp: None,
            hash,
        })
        // In range by construction: 10 octaves, a positive frequency.
        .unwrap_or_else(|e| unreachable!("ecotone field: {e}"));
        Noises { noises, ecotone }
    }

    pub(crate) fn get(&self, layer: Layer) -> &Noise {
        &self.noises[layer as usize]
    }

    /// The ecotone field at `pos` (at SIMD `level`), about `[-1, 1]`: every octave at every
    /// level, so a point's field (and, where the climate agrees, its
    /// biome) is the same at every level; a coarse level sees the finer
    /// patches as a dither whose shares are right.
    pub(crate) fn ecotone(&self, level: Level, pos: Positions<'_>, out: &mut [f32]) {
        self.ecotone
            .fill_points3_with(level, pos.x, pos.y, pos.z, out);
    }
}

/// How many octaves of each layer a given sample spacing keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detail {
    counts: [usize; 6],
    /// Whether the spacing draws the streams below the rivers
    /// (`hydro::streams::MAX_SPACING_M`).
    streams: bool,
}

impl Detail {
    /// Keeps the octaves whose wavelength is at least `spacing` metres:
    /// finer ones would only alias. The count depends on the spacing
    /// alone, never on where a chunk is, so neighbouring chunks of one
    /// level keep the same octaves and their shared edges agree.
    pub(crate) fn for_spacing(noises: &Noises, spacing: f64) -> Detail {
        let counts = Layer::ALL.map(|layer| {
            noises
                .get(layer)
                .octave_frequencies()
                .filter(|&f| f * spacing <= 1.0 + 1e-9)
                .count()
        });
        Detail {
            counts,
            streams: spacing <= crate::hydro::streams::MAX_SPACING_M,
        }
    }

    /// Whether the spacing draws the streams below the rivers (like an
    /// octave finer than the spacing, a stream below a pixel is dropped).
    pub fn streams(&self) -> bool {
        self.streams
    }

    /// Octaves kept of `layer` (0: the layer is finer than the spacing
    /// and contributes nothing).
    pub fn octaves(&self, layer: Layer) -> usize {
        self.counts[layer as usize]
    }
}

/// Sample positions in metres from the planet's centre.
#[derive(Clone, Copy, Debug)]
pub struct Positions<'a> {
    /// x coordinates.
    pub x: &'a [f64],
    /// y coordinates.
    pub y: &'a [f64],
    /// z coordinates (north).
    pub z: &'a [f64],
}

/// Where the planet function gets its noise from. The planet's own
/// backend is [`mangekyo_core::noise`]; the benchmarks plug in noise-rs
/// here to time the same planet function with another noise library.
pub trait NoiseBackend: Sync {
    /// Fills `out` with `layer`'s value at `pos`, summing only its first
    /// `octaves` octaves (at least 1) but normalised by the full octave
    /// set, so coarse levels agree with fine ones on the large shapes.
    fn fill(&self, layer: Layer, octaves: usize, pos: Positions<'_>, out: &mut [f32]);
}

impl NoiseBackend for Noises {
    fn fill(&self, layer: Layer, octaves: usize, pos: Positions<'_>, out: &mut [f32]) {
        let noise = self.get(layer);
        if octaves >= noise.octave_frequencies().count() {
            noise.fill_points3(pos.x, pos.y, pos.z, out);
        } else {
            noise
                .truncated(octaves)
                .fill_points3(pos.x, pos.y, pos.z, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detail_reaches_the_pixel_and_lod_drops_octaves() {
        let n = Noises::new(1, 6_371_000.0, 1.5, LatticeHash::Hash1);
        let finest = n.get(Layer::Detail).octave_frequencies().last().unwrap();
        assert!(
            (1.5..3.0).contains(&(1.0 / finest)),
            "finest detail wavelength {}",
            1.0 / finest
        );
        let full = Detail::for_spacing(&n, 1.5);
        assert_eq!(
            full.octaves(Layer::Detail),
            n.get(Layer::Detail).octave_frequencies().count()
        );
        let coarse = Detail::for_spacing(&n, 1.5 * 512.0);
        assert_eq!(
            coarse.octaves(Layer::Detail) + 9,
            full.octaves(Layer::Detail)
        );
        assert_eq!(coarse.octaves(Layer::Continent), CONTINENT_OCTAVES as usize);
        let planet_wide = Detail::for_spacing(&n, 1.0e6);
        assert_eq!(planet_wide.octaves(Layer::Detail), 0);
    }
}
