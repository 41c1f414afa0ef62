//! Version 4's per-sample climate: what chunks read of the tier's climate
//! graph, plus the lapse rate, the noise anomalies and the biomes.

use super::*;

/// What version-4 samples read of the tier's climate.
pub(super) struct ClimateView<'a> {
    pub(super) graph: SphereGraph,
    pub(super) grid: &'a ClimateGrid,
    pub(super) wetland: &'a [u8],
    pub(super) tables: &'a BiomeTables,
}

/// The ecotone dither's lattice cell, in pixels of the finest level.
const DITHER_CELL_PIXELS: f64 = 8.0;
/// Amplitude of the precipitation anomaly on ln P (a factor of e^±0.35).
const PRECIPITATION_NOISE: f64 = 0.35;

impl Planet {
    /// Version 4's climate layers of one block: sea-level temperature and
    /// log precipitation interpolated from the tier's climate graph, the
    /// lapse rate over the carved ground, the noise anomalies, and the
    /// biomes with their weights.
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    pub(super) fn climate_v4(
        &self,
        backend: &dyn NoiseBackend,
        detail: &Detail,
        dirs: &[Dir],
        pos: Positions<'_>,
        cv: &ClimateView<'_>,
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
        let Some((_, edges)) = &self.atmosphere else {
            return;
        };
        let mut wet_noise = vec![0.0f32; n];
        terrain::fill(backend, detail, Layer::Temperature, pos, noise);
        terrain::fill(backend, detail, Layer::Humidity, pos, &mut wet_noise);
        let cell = DITHER_CELL_PIXELS * self.params.pixel_size;
        for i in 0..n {
            let (t_sea, ln_p0) = cv.grid.at(&cv.graph, dirs[i]);
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
                let (b, w) = ecology::classify(&site, cv.tables, edges);
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
