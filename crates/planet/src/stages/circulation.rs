//! The circulation climate's per-sample stage ([`crate::version::Climate::Circulation`]):
//! sea-level temperature and log precipitation read off the tier's
//! climate grid, the lapse rate over the carved ground, the noise
//! anomalies, and the blended biomes with their weights.

use super::{Samples, Stages};
use crate::MapPoint;
use crate::atmosphere::fields::ClimateGrid;
use crate::atmosphere::pet;
use crate::chunk::Layers;
use crate::climate::{LAPSE_RATE_C_PER_M, TEMPERATURE_NOISE_C};
use crate::ecology::{self, BiomeTables, Dither, Site};
use crate::geo::Dir;
use crate::graph::SphereGraph;
use crate::layers::{Detail, Layer, NoiseBackend, Positions};
use crate::terrain;
use crate::version::{Beaches, Ecotones};
use mangekyo_core::noise::Level;

/// What the circulation's samples read of the tier's climate.
pub(crate) struct ClimateReader<'a> {
    pub(crate) graph: SphereGraph,
    pub(crate) grid: &'a ClimateGrid,
    pub(crate) wetland: &'a [u8],
    pub(crate) tables: &'a BiomeTables,
}

/// [`Beaches::Shore`]: how far from the waterline low ground is beach,
/// metres (as its height over the slope of the coast's profile there).
const SHORE_M: f64 = 250.0;
/// [`Beaches::Shore`]: the step of the profile's finite differences, metres.
const SHORE_STEP_M: f64 = 200.0;

/// The ecotone dither's lattice cell, in pixels of the finest level.
const DITHER_CELL_PIXELS: f64 = 8.0;
/// Amplitude of the precipitation anomaly on ln P (a factor of e^±0.35).
const PRECIPITATION_NOISE: f64 = 0.35;

impl Stages {
    /// The circulation's climate layers of one block, and its biomes.
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    pub(super) fn circulation_climate(
        &self,
        backend: &dyn NoiseBackend,
        level: Level,
        detail: &Detail,
        dirs: &[Dir],
        pos: Positions<'_>,
        cr: &ClimateReader<'_>,
        layers: Layers,
        noise: &mut [f32],
        out: &mut Samples,
        (height, water, temperature, humidity, banks, land): (
            &[f32],
            &[f32],
            &mut [f32],
            &mut [f32],
            &[(f64, f64, f64)],
            &[f32],
        ),
        projected: &[MapPoint],
    ) {
        let n = dirs.len();
        let Some((_, edges)) = &self.circulation else {
            return;
        };
        let mut wet_noise = vec![0.0f32; n];
        terrain::fill(backend, detail, Layer::Temperature, pos, noise);
        terrain::fill(backend, detail, Layer::Humidity, pos, &mut wet_noise);
        let cell = DITHER_CELL_PIXELS * self.params.pixel_size;
        let shore = match self.pipeline.beaches {
            Beaches::Height => Vec::new(),
            Beaches::Shore if layers.biome || layers.biome_weights => {
                self.shore_strip(backend, detail, dirs, height, water, land)
            }
            Beaches::Shore => Vec::new(),
        };
        let field = match self.pipeline.ecotones {
            Ecotones::Field if layers.biome => self.ecotone_field(level, pos, height),
            _ => Vec::new(),
        };
        for i in 0..n {
            let (t_sea, ln_p0) = cr.grid.at_projected(&cr.graph, dirs[i], projected[i]);
            let h = f64::from(height[i]);
            let t = t_sea - f64::from(LAPSE_RATE_C_PER_M) * h.max(0.0)
                + f64::from(TEMPERATURE_NOISE_C) * f64::from(noise[i]);
            let ln_p = ln_p0 + PRECIPITATION_NOISE * f64::from(wet_noise[i]);
            let p = libm::exp(ln_p);
            temperature[i] = t as f32;
            humidity[i] = (p / (p + pet(t))) as f32;
            if layers.precipitation {
                out.precipitation.push(p as f32);
            }
            if layers.biome || layers.biome_weights {
                let (bank, width, wetland) = banks[i];
                let site = Site {
                    height: h,
                    water: f64::from(water[i]),
                    temperature: t,
                    ln_p,
                    wetland,
                    riparian: bank >= 0.0 && bank < ecology::RIPARIAN_WIDTHS * width,
                    shore: shore.get(i).is_none_or(|&s| s),
                    dither: match field.get(i) {
                        Some(&v) => ecology::field_dither(v),
                        None => Dither::Cell(ecology::dither_hash(
                            [pos.x[i], pos.y[i], pos.z[i]],
                            cell,
                            self.params.seed,
                        )),
                    },
                };
                let (b, w) = ecology::classify(&site, cr.tables, edges);
                if layers.biome {
                    out.biome.push(b);
                }
                if layers.biome_weights {
                    out.biome_weights.push(w);
                }
            }
        }
    }

    /// [`Ecotones::Field`]: the ecotone field at each sample of a block
    /// (0 at sea, where no ecotone is settled; only land pays for it).
    fn ecotone_field(&self, level: Level, pos: Positions<'_>, height: &[f32]) -> Vec<f32> {
        let land: Vec<usize> = (0..height.len()).filter(|&i| height[i] >= 0.0).collect();
        let mut field = vec![0.0f32; height.len()];
        if land.is_empty() {
            return field;
        }
        let at = |axis: &[f64]| land.iter().map(|&i| axis[i]).collect::<Vec<f64>>();
        let (x, y, z) = (at(pos.x), at(pos.y), at(pos.z));
        let mut value = vec![0.0f32; land.len()];
        self.noises.ecotone(
            level,
            Positions {
                x: &x,
                y: &y,
                z: &z,
            },
            &mut value,
        );
        for (&i, &v) in land.iter().zip(&value) {
            field[i] = v;
        }
        field
    }

    /// [`Beaches::Shore`]: whether each sample of a block lies on the
    /// sea's shore strip. Low dry ground (below the beach height) is on it
    /// when its height over the slope of the coast's profile (the land
    /// field through `terrain::base_height_v2`, by finite differences
    /// along two tangents) puts the waterline within [`SHORE_M`]: a strip
    /// of about that width on every coast, however flat, where a height
    /// band alone made flats of tens of kilometres into beach. Only low
    /// samples pay for the two extra land-field evaluations.
    fn shore_strip(
        &self,
        backend: &dyn NoiseBackend,
        detail: &Detail,
        dirs: &[Dir],
        height: &[f32],
        water: &[f32],
        land: &[f32],
    ) -> Vec<bool> {
        let low: Vec<usize> = (0..dirs.len())
            .filter(|&i| {
                let h = height[i];
                (0.0..ecology::BEACH_M as f32).contains(&h) && water[i] <= 0.0 && i < land.len()
            })
            .collect();
        let mut shore = vec![false; dirs.len()];
        if low.is_empty() {
            return shore;
        }
        let r = self.params.radius;
        let step = SHORE_STEP_M / r;
        let mut at: [Vec<f64>; 3] = Default::default();
        for &i in &low {
            let d = dirs[i];
            // Two tangents: d × (an axis it is not near), and d × that.
            let axis = if d[2].abs() < 0.9 {
                [0.0, 0.0, 1.0]
            } else {
                [1.0, 0.0, 0.0]
            };
            let e1 = crate::geo::normalise(crate::geo::cross(d, axis));
            let e2 = crate::geo::cross(d, e1);
            for e in [e1, e2] {
                for a in 0..3 {
                    at[a].push((d[a] + step * e[a]) * r);
                }
            }
        }
        let [x, y, z] = &at;
        let mut moved = Vec::new();
        terrain::land(
            backend,
            detail,
            &self.shape,
            Positions { x, y, z },
            &mut moved,
        );
        let coast = self.pipeline.coast;
        for (k, &i) in low.iter().enumerate() {
            let b0 = f64::from(terrain::base_height_v2(land[i], coast));
            let b1 = f64::from(terrain::base_height_v2(moved[2 * k], coast));
            let b2 = f64::from(terrain::base_height_v2(moved[2 * k + 1], coast));
            let slope = ((b1 - b0) * (b1 - b0) + (b2 - b0) * (b2 - b0)).sqrt() / SHORE_STEP_M;
            shore[i] = f64::from(height[i]) < slope * SHORE_M;
        }
        shore
    }
}
