//! The circulation climate's per-sample stage ([`crate::version::Climate::Circulation`]):
//! sea-level temperature and log precipitation read off the tier's
//! climate grid, the lapse rate over the carved ground, the noise
//! anomalies, and the blended biomes with their weights.

use super::{Samples, Stages};
use crate::atmosphere::fields::ClimateGrid;
use crate::atmosphere::pet;
use crate::chunk::Layers;
use crate::climate::{LAPSE_RATE_C_PER_M, TEMPERATURE_NOISE_C};
use crate::ecology::{self, BiomeTables, Site};
use crate::geo::Dir;
use crate::graph::SphereGraph;
use crate::layers::{Detail, Layer, NoiseBackend, Positions};
use crate::terrain;

/// What the circulation's samples read of the tier's climate.
pub(crate) struct ClimateReader<'a> {
    pub(crate) graph: SphereGraph,
    pub(crate) grid: &'a ClimateGrid,
    pub(crate) wetland: &'a [u8],
    pub(crate) tables: &'a BiomeTables,
}

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
        detail: &Detail,
        dirs: &[Dir],
        pos: Positions<'_>,
        cr: &ClimateReader<'_>,
        layers: Layers,
        noise: &mut [f32],
        out: &mut Samples,
        (height, water, temperature, humidity, banks): (
            &[f32],
            &[f32],
            &mut [f32],
            &mut [f32],
            &[(f64, f64, f64)],
        ),
    ) {
        let n = dirs.len();
        let Some((_, edges)) = &self.circulation else {
            return;
        };
        let mut wet_noise = vec![0.0f32; n];
        terrain::fill(backend, detail, Layer::Temperature, pos, noise);
        terrain::fill(backend, detail, Layer::Humidity, pos, &mut wet_noise);
        let cell = DITHER_CELL_PIXELS * self.params.pixel_size;
        for i in 0..n {
            let (t_sea, ln_p0) = cr.grid.at(&cr.graph, dirs[i]);
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
                    dither: ecology::dither_hash(
                        [pos.x[i], pos.y[i], pos.z[i]],
                        cell,
                        self.params.seed,
                    ),
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
}
