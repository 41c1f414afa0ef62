//! Step 2: axis values (the guide's `assignAxisValues`). Each axis is the
//! weighted mean of its layers, each in `[0, 1]`, quantised onto the axis
//! grid. Stateless: the seed goes straight into the noise, no stream is drawn.

use super::core_noise::{Fractal, Kernel, Noise, NoiseParams};
use super::place::{ISLAND_RADIUS, PlacedSite};
use crate::GenerateError;
use crate::defs::{AxisDef, COASTAL_DISTANCE_AXIS, Definitions, LayerKind, ScopeDef};
use mangekyo_core::Seed;
use mangekyo_core::hash::mix64;
use std::collections::BTreeMap;

/// Salt mixed with a layer's `seed_offset` before it meets the world seed.
/// The guide adds the offset to the seed, which makes seed 43 offset 0 the
/// same noise as seed 42 offset 1; hashing the offset first keeps
/// neighbouring seeds' islands unrelated.
pub const LAYER_SEED_SALT: u64 = 0x6973_6c61_6e64_4158; // "islandAX"

/// Frequency ratio between noise octaves: the usual doubling.
pub const NOISE_LACUNARITY: f64 = 2.0;

/// Amplitude ratio between noise octaves: the usual halving (pink-ish fBm).
pub const NOISE_GAIN: f32 = 0.5;

/// The noise seed of a layer: `mix64(seed ^ mix64(seed_offset ^ salt))`.
pub fn layer_seed(seed: Seed, seed_offset: u64) -> u64 {
    mix64(seed.value() ^ mix64(seed_offset ^ LAYER_SEED_SALT))
}

/// Axis values of every site, by axis name.
pub fn assign_axis_values(
    defs: &Definitions,
    scope: &ScopeDef,
    sites: &[PlacedSite],
    seed: Seed,
) -> Result<Vec<BTreeMap<String, f64>>, GenerateError> {
    let mut values = vec![BTreeMap::new(); sites.len()];
    for axis in defs.axes().values() {
        let column = sample_axis(axis, sites, seed)?;
        for (site_values, v) in values.iter_mut().zip(column) {
            site_values.insert(axis.name.clone(), v);
        }
    }
    if let Some(coast) = scope.coast.filter(|c| c.clamp_ring_sites) {
        clamp_ring_sites(defs, sites, &mut values, coast.band_max_distance);
    }
    Ok(values)
}

/// One axis for every site: the weighted mean of the layers, quantised.
fn sample_axis(
    axis: &AxisDef,
    sites: &[PlacedSite],
    seed: Seed,
) -> Result<Vec<f64>, GenerateError> {
    let mut sum = vec![0.0f64; sites.len()];
    let mut total_weight = 0.0;
    for layer in &axis.layers {
        let layer_values = sample_layer(&layer.kind, sites, seed)?;
        for (s, v) in sum.iter_mut().zip(layer_values) {
            *s += layer.weight * v;
        }
        total_weight += layer.weight;
    }
    Ok(sum
        .into_iter()
        .map(|s| axis.range.quantise(s / total_weight))
        .collect())
}

/// One layer for every site, each value in `[0, 1]`.
fn sample_layer(
    kind: &LayerKind,
    sites: &[PlacedSite],
    seed: Seed,
) -> Result<Vec<f64>, GenerateError> {
    match *kind {
        LayerKind::DistanceField => Ok(sites.iter().map(distance_field).collect()),
        LayerKind::LayeredNoise {
            seed_offset,
            octaves,
            frequency,
        } => {
            let noise = Noise::new(NoiseParams {
                kernel: Kernel::Value,
                fractal: Fractal::Fbm,
                octaves,
                frequency,
                lacunarity: NOISE_LACUNARITY,
                gain: NOISE_GAIN,
                seed: layer_seed(seed, seed_offset),
                ..NoiseParams::default()
            })
            .map_err(|e| GenerateError::Noise(e.to_string()))?;
            let xs: Vec<f64> = sites.iter().map(|s| s.x).collect();
            let ys: Vec<f64> = sites.iter().map(|s| s.y).collect();
            let mut out = vec![0.0f32; sites.len()];
            noise.fill_points2(&xs, &ys, &mut out);
            Ok(out
                .into_iter()
                .map(|v| ((f64::from(v) + 1.0) * 0.5).clamp(0.0, 1.0))
                .collect())
        }
    }
}

/// `1 - r / ISLAND_RADIUS`, clamped to `[0, 1]`.
fn distance_field(s: &PlacedSite) -> f64 {
    let r = (s.x * s.x + s.y * s.y).sqrt();
    (1.0 - r / ISLAND_RADIUS).clamp(0.0, 1.0)
}

/// Coast-ring sites' `coastal_distance` is clamped into the coast band
/// (snapped down onto the grid if the band edge is off it).
fn clamp_ring_sites(
    defs: &Definitions,
    sites: &[PlacedSite],
    values: &mut [BTreeMap<String, f64>],
    band: f64,
) {
    let Some(axis) = defs.axes().get(COASTAL_DISTANCE_AXIS) else {
        return;
    };
    for (site, v) in sites.iter().zip(values) {
        if let Some(d) = v.get_mut(COASTAL_DISTANCE_AXIS)
            && site.on_coast_ring
            && *d > band
        {
            *d = axis.range.floor_to_grid(band);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_field_is_one_at_the_centre_and_zero_at_the_rim() {
        let at = |x: f64| {
            distance_field(&PlacedSite {
                x,
                y: 0.0,
                on_coast_ring: false,
            })
        };
        assert_eq!(at(0.0), 1.0);
        assert_eq!(at(ISLAND_RADIUS), 0.0);
        assert_eq!(at(2.0 * ISLAND_RADIUS), 0.0);
    }

    #[test]
    fn layer_seeds_of_neighbouring_seeds_do_not_collide() {
        assert_ne!(layer_seed(Seed::new(43), 0), layer_seed(Seed::new(42), 1));
        assert_eq!(layer_seed(Seed::new(42), 1), layer_seed(Seed::new(42), 1));
    }
}
