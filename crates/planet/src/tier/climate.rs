//! The circulation climate's per-node products of the tier: the wetland
//! weights and the biome quantile tables.

use super::{AtLevel, CoarseTier, HydroFields};
use crate::PlanetParams;
use crate::atmosphere::fields::ClimateGrid;
use crate::atmosphere::{Atmosphere, pet};
use crate::chunk::Layers;
use crate::ecology::{BiomeTables, band_of};
use crate::geo::Dir;
use crate::graph::SphereGraph;
use crate::hydro::routing::NONE;
use crate::stages::Stages;
use mangekyo_core::noise::Level;
use rayon::prelude::*;

/// Wetland weight per node in 255ths: flat (the receiver edge falls less
/// than 3 m/km, fully flat under 0.5) times wet (rain at least 1.5 × the
/// potential evapotranspiration, none under 1 ×), on unfrozen land.
pub(super) fn wetland(
    grid: &ClimateGrid,
    dirs: &[Dir],
    eroded: &[f64],
    hydro: &HydroFields,
    params: &PlanetParams,
) -> Vec<u8> {
    let cg = grid.graph(params.seed);
    (0..dirs.len())
        .into_par_iter()
        .map(|k| {
            let (h, r) = (eroded[k], hydro.receiver[k]);
            if h < 0.0 || hydro.lake[k] != NONE || r == NONE {
                return 0;
            }
            let (a, b) = (dirs[k], dirs[r as usize]);
            let (x, y, z) = (a[0] - b[0], a[1] - b[1], a[2] - b[2]);
            let run = (x * x + y * y + z * z).sqrt() * params.radius;
            let slope = (h - eroded[r as usize]) / run.max(1.0);
            let (t_sea, ln_p) = grid.at(&cg, a);
            let t = Atmosphere::air_temperature(t_sea, h);
            let flat = ((0.003 - slope) / 0.0025).clamp(0.0, 1.0);
            let ratio = libm::exp(ln_p) / pet(t).max(1.0);
            let wet = ((ratio - 1.0) / 0.5).clamp(0.0, 1.0);
            let w = if t < 0.0 { 0.0 } else { flat * wet };
            (w * 255.0).round() as u8
        })
        .collect()
}

/// The biome quantile tables of a tier with the circulation climate: the planet function at
/// every node (at the tier's spacing, with the tier's own climate and
/// flat tables), area-weighted, over climate land (no override).
pub(super) fn climate_tables(
    stages: &Stages,
    tier: &CoarseTier,
    graph: &SphereGraph,
    dirs: &[Dir],
    level: Level,
    observe: &(dyn Fn(u32) -> bool + Sync),
) -> Option<BiomeTables> {
    let params = &stages.params;
    let n = graph.n() as usize;
    // The tables read the coarse ground: no streams (on a small planet the
    // tier's spacing would draw them, and cache every cell's).
    let reader = tier.reader(
        params.seed,
        params.radius,
        stages.pipeline.channels,
        crate::version::Streams::None,
    )?;
    let detail = stages.detail(CoarseTier::spacing(params.radius, graph.n()));
    let layers = Layers {
        temperature: true,
        precipitation: true,
        biome: true,
        ..Layers::NONE
    };
    let backend = AtLevel {
        noises: &stages.noises,
        level,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    type Row = Vec<(u8, f32, u64)>;
    let rows: Vec<Row> = (0..6 * n)
        .into_par_iter()
        .map(|row| {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return Vec::new();
            }
            let span = row * n..(row + 1) * n;
            let s = stages.evaluate(
                &backend,
                level,
                &detail,
                &dirs[span.clone()],
                layers,
                None,
                Some(&reader),
            );
            if !observe(1) {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            span.enumerate()
                .map(|(i, k)| {
                    let land = crate::ecology::CLASSES
                        .iter()
                        .any(|c| c.contains(&s.biome[i]));
                    // Area in m², rounded: fixed point, so sums are exact.
                    let area =
                        crate::hydro::cell_area(graph, k as u32, params.radius).round() as u64;
                    let band = band_of(f64::from(s.temperature[i])) as u8;
                    let ln_p = libm::log(f64::from(s.precipitation[i])) as f32;
                    (band, ln_p, if land { area } else { 0 })
                })
                .collect()
        })
        .collect();
    if stop.into_inner() {
        return None;
    }
    let samples: Vec<(u8, f32, u64)> = rows.into_iter().flatten().filter(|s| s.2 > 0).collect();
    Some(BiomeTables::from_samples(&samples))
}
