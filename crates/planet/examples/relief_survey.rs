//! The relief of planets as a terrain reviewer measures it, over 10⁶
//! Fibonacci points at 2 km detail: the highest sample and where, the
//! land above 8 km and 1 km, the mean land height, and the fullest 1-km
//! band of ocean depth. One row per seed; the figures issue 35 sets
//! bounds on (`tests/relief.rs` checks them at a smaller scale in CI).
//!
//! `cargo run -p mangekyo-planet --release --example relief_survey -- VERSION [PLATE_ACTIVITY] SEED...`

use mangekyo_planet::geo::fibonacci_sphere;
use mangekyo_planet::{LatLon, Layers, Planet, PlanetParams, Version};
use rayon::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let version: Version = args.next().unwrap_or_else(|| "next".into()).parse()?;
    let rest: Vec<String> = args.collect();
    let (activity, seeds) = match rest.first() {
        Some(a) if a.contains('.') => (a.parse::<f64>()?, &rest[1..]),
        _ => (1.0, &rest[..]),
    };
    let seeds: Vec<u64> = if seeds.is_empty() {
        vec![1, 2, 3, 5, 8, 13, 21, 34]
    } else {
        seeds.iter().map(|s| s.parse()).collect::<Result<_, _>>()?
    };
    let dirs = fibonacci_sphere(1_000_000);
    println!(
        "version {version}, plate_activity {activity}: seed | highest m (lat, lon) | land >8 km % | land >1 km % | mean land m | fullest ocean km band %"
    );
    for seed in seeds {
        let planet = Planet::new(PlanetParams {
            seed,
            generator_version: version,
            plate_activity: activity,
            ..PlanetParams::default()
        })?;
        let heights: Vec<f32> = dirs
            .par_chunks(16_384)
            .map(|c| {
                planet
                    .sample_dirs(c, 2000.0, Layers::HEIGHT)
                    .map(|s| s.height)
            })
            .collect::<Result<Vec<_>, _>>()?
            .concat();
        let (mut top, mut at) = (f32::MIN, 0);
        let (mut land, mut above8, mut above1, mut sum) = (0usize, 0usize, 0usize, 0.0f64);
        let mut bands = [0usize; 12];
        let mut ocean = 0usize;
        // Where high ground lies: land and land above 4 km poleward of 60°.
        let (mut polar, mut high, mut polar_high) = (0usize, 0usize, 0usize);
        for (i, &h) in heights.iter().enumerate() {
            if h >= 0.0 {
                land += 1;
                let is_polar = dirs[i][2].abs() > 0.866;
                polar += usize::from(is_polar);
                high += usize::from(h > 4000.0);
                polar_high += usize::from(h > 4000.0 && is_polar);
                sum += f64::from(h);
                above8 += usize::from(h > 8000.0);
                above1 += usize::from(h > 1000.0);
                if h > top {
                    (top, at) = (h, i);
                }
            } else {
                ocean += 1;
                bands[((-h / 1000.0) as usize).min(11)] += 1;
            }
        }
        let ll = LatLon::from_dir(dirs[at]);
        let fullest = bands.iter().copied().max().unwrap_or(0);
        let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
        println!(
            "{seed} | {top:.0} ({:.1}, {:.1}) | {:.3} | {:.1} | {:.0} | {:.1} | polar: {:.0} % of land, {:.0} % of land above 4 km",
            ll.lat,
            ll.lon,
            pct(above8, land),
            pct(above1, land),
            sum / land.max(1) as f64,
            pct(fullest, ocean),
            pct(polar, land),
            pct(polar_high, high),
        );
    }
    Ok(())
}
