//! The water balance of planets as a hydrologist surveys it: runoff as a
//! share of rain, discharge to the sea, land draining inland, lakes,
//! river length per area in deserts and forests, river samples on ice.
//! One row per seed; the figures issue 35 sets bounds on
//! (`tests/water_balance.rs` checks them at a smaller scale in CI).
//!
//! `cargo run -p mangekyo-planet --release --example water_survey -- VERSION [GRAPH_N] SEED...`

#[path = "../tests/common/water.rs"]
mod water;

use mangekyo_planet::{Planet, PlanetParams, Version};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let version: Version = args.next().unwrap_or_else(|| "next".into()).parse()?;
    let rest: Vec<u64> = args.map(|s| s.parse()).collect::<Result<_, _>>()?;
    let (graph_n, seeds) = match rest.first() {
        Some(&n) if n >= 64 => (n as u32, &rest[1..]),
        _ => (mangekyo_planet::DEFAULT_GRAPH_N, &rest[..]),
    };
    let seeds: Vec<u64> = if seeds.is_empty() {
        vec![1, 2, 3, 5, 8, 13, 21, 34]
    } else {
        seeds.to_vec()
    };
    println!(
        "version {version}, graph {graph_n}: seed | runoff % of rain | to the sea km³/yr | inland % of land | lakes % of land | rivers km/1000 km² desert / forest | river samples on ice"
    );
    for seed in seeds {
        let planet = Planet::new(PlanetParams {
            seed,
            graph_n,
            generator_version: version,
            ..PlanetParams::default()
        })?;
        let s = water::survey(&planet);
        println!(
            "{seed} | {:.1} | {:.0} | {:.1} | {:.2} | {:.2} / {:.2} | {} of {}",
            s.runoff_pct(),
            s.budget.to_sea_km3,
            s.inland_pct(),
            s.lakes_pct(),
            s.desert_density,
            s.forest_density,
            s.river_samples_on_ice,
            s.river_samples
        );
    }
    Ok(())
}
