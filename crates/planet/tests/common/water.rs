//! The water balance as a hydrologist would survey it (issue 35): the
//! tier's budget (runoff, discharge to the sea, inland drainage, lakes),
//! river length per area in deserts against forests, and whether any
//! river sample lies on ice. Shared by `tests/water_balance.rs` and
//! `examples/water_survey.rs`.

use mangekyo_planet::graph::SphereGraph;
use mangekyo_planet::tier::WaterBudget;
use mangekyo_planet::{Biome, Dir, Layers, Planet};

/// What the survey measures of one planet.
#[derive(Debug)]
pub(crate) struct WaterSurvey {
    /// The tier's budget.
    pub(crate) budget: WaterBudget,
    /// River length per area, km per 1,000 km², where the climate's
    /// biome is desert.
    pub(crate) desert_density: f64,
    /// The same where it is a forest (rainforest, temperate, taiga).
    pub(crate) forest_density: f64,
    /// River samples checked (inside river edges, under water).
    pub(crate) river_samples: usize,
    /// Of those, samples whose mean annual temperature is the ice line's
    /// (below −10 °C).
    pub(crate) river_samples_on_ice: usize,
}

impl WaterSurvey {
    /// Runoff as a share of rain on land, %.
    pub(crate) fn runoff_pct(&self) -> f64 {
        100.0 * self.budget.runoff_km3 / self.budget.precipitation_km3
    }

    /// Land draining inland, %.
    pub(crate) fn inland_pct(&self) -> f64 {
        100.0 * self.budget.inland_km2 / self.budget.land_km2
    }

    /// Lakes, % of land.
    pub(crate) fn lakes_pct(&self) -> f64 {
        100.0 * self.budget.lakes_km2 / self.budget.land_km2
    }
}

fn lerp(a: Dir, b: Dir, t: f64) -> Dir {
    let v = [0, 1, 2].map(|i| a[i] + t * (b[i] - a[i]));
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    v.map(|x| x / n)
}

/// Surveys `planet` (a version with water; computes its tier).
pub(crate) fn survey(planet: &Planet) -> WaterSurvey {
    let tier = planet.coarse_tier().unwrap();
    let hydro = tier.hydro.as_ref().expect("a version with water");
    let budget = hydro.budget.expect("a tier computed here has its budget");
    let params = planet.params();
    let graph = SphereGraph::new(tier.n, params.seed).unwrap();
    let radius = params.radius;
    let dirs: Vec<Dir> = (0..graph.len() as u32).map(|k| graph.node(k)).collect();
    let spacing = radius * std::f64::consts::FRAC_PI_2 / f64::from(tier.n);
    let weights = planet
        .sample_dirs(
            &dirs,
            spacing,
            Layers {
                biome_weights: true,
                ..Layers::HEIGHT
            },
        )
        .unwrap();
    let class = |k: u32| {
        let b = weights.biome_weights[k as usize].first;
        match b {
            Biome::Desert => Some(0),
            Biome::Rainforest | Biome::TemperateForest | Biome::Taiga => Some(1),
            _ => None,
        }
    };
    let mut area = [0.0f64; 2];
    for k in 0..graph.len() as u32 {
        if tier.height[k as usize] >= 0.0
            && let Some(c) = class(k)
        {
            area[c] += mangekyo_planet::hydro::cell_area(&graph, k, radius) / 1e6;
        }
    }
    let mut length = [0.0f64; 2];
    let mut inside = Vec::new();
    for s in &hydro.segments {
        let (a, b) = (dirs[s.from as usize], dirs[s.to as usize]);
        if let Some(c) = class(s.from) {
            let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
            length[c] += (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() * radius / 1e3;
        }
        inside.extend([0.25, 0.5, 0.75].map(|t| lerp(a, b, t)));
    }
    let at = planet
        .sample_dirs(
            &inside,
            100.0,
            Layers {
                water: true,
                temperature: true,
                ..Layers::HEIGHT
            },
        )
        .unwrap();
    let wet: Vec<usize> = (0..inside.len()).filter(|&i| at.water[i] > 0.0).collect();
    let on_ice = wet
        .iter()
        .filter(|&&i| f64::from(at.temperature[i]) < mangekyo_planet::ecology::ICE_C)
        .count();
    WaterSurvey {
        budget,
        desert_density: 1000.0 * length[0] / area[0].max(1.0),
        forest_density: 1000.0 * length[1] / area[1].max(1.0),
        river_samples: wet.len(),
        river_samples_on_ice: on_ice,
    }
}
