//! Relief Earth would recognise (issue 35), measured over Fibonacci
//! points at 2 km detail on seeds other than the documented 42 and 7: the
//! highest ground is mountains, not 20–40 km spikes; enough land stands
//! above 1 km; and raising `plate_activity` raises the highest peak.
//! Version 4 is measured beside the next version so the checks are shown
//! to tell them apart.
//!
//! CI runs a small graph and 10⁵ points; `MANGEKYO_RELIEF=full` runs the
//! default graph and 10⁶ points, as the figures were taken
//! (`cargo test --release -p mangekyo-planet --test relief`; about a minute;
//! `examples/relief_survey.rs` prints the same figures as a table).

use mangekyo_planet::geo::fibonacci_sphere;
use mangekyo_planet::{Dir, Layers, Planet, PlanetParams, Version};

/// Whether the survey runs at the scale.
fn full() -> bool {
    std::env::var("MANGEKYO_RELIEF").as_deref() == Ok("full")
}

/// The survey's scale: (graph N, points).
fn scale() -> (u32, usize) {
    if full() {
        (mangekyo_planet::DEFAULT_GRAPH_N, 1_000_000)
    } else {
        (96, 100_000)
    }
}

/// What the survey measures of one planet.
#[derive(Debug)]
struct Relief {
    highest: f32,
    /// Shares of land, %.
    above_8km: f64,
    above_1km: f64,
    mean_land: f64,
    /// The fullest 1-km band of ocean depth, % of the ocean.
    fullest_band: f64,
}

fn survey(version: Version, seed: u64, plate_activity: f64, dirs: &[Dir]) -> Relief {
    let (graph_n, _) = scale();
    let planet = Planet::new(PlanetParams {
        seed,
        graph_n,
        plate_activity,
        generator_version: version,
        ..PlanetParams::default()
    })
    .unwrap();
    let h = planet
        .sample_dirs(dirs, 2000.0, Layers::HEIGHT)
        .unwrap()
        .height;
    let land: Vec<f32> = h.iter().copied().filter(|&h| h >= 0.0).collect();
    let mut bands = [0usize; 12];
    for &d in h.iter().filter(|&&h| h < 0.0) {
        bands[((-d / 1000.0) as usize).min(11)] += 1;
    }
    let ocean = h.len() - land.len();
    let share = |f: &dyn Fn(f32) -> bool| {
        100.0 * land.iter().filter(|&&h| f(h)).count() as f64 / land.len() as f64
    };
    Relief {
        highest: land.iter().copied().fold(f32::MIN, f32::max),
        above_8km: share(&|h| h > 8000.0),
        above_1km: share(&|h| h > 1000.0),
        mean_land: land.iter().map(|&h| f64::from(h)).sum::<f64>() / land.len() as f64,
        fullest_band: 100.0 * *bands.iter().max().unwrap() as f64 / ocean.max(1) as f64,
    }
}

const SEEDS: [u64; 8] = [1, 2, 3, 5, 8, 13, 21, 34];

#[test]
fn peaks_are_mountains_and_land_stands_at_earths_heights() {
    let dirs = fibonacci_sphere(scale().1);
    let mut failures = Vec::new();
    for seed in SEEDS {
        let r = survey(Version::Next, seed, 1.0, &dirs);
        eprintln!("next, seed {seed}: {r:?}");
        let checks = [
            ((6000.0..=9500.0).contains(&r.highest), "highest 6–9.5 km"),
            (r.above_8km < 0.05, "< 0.05 % of land above 8 km"),
            (
                (20.0..=40.0).contains(&r.above_1km),
                "20–40 % of land above 1 km",
            ),
            (
                (600.0..=1100.0).contains(&r.mean_land),
                "mean land 600–1,100 m",
            ),
            (
                r.fullest_band <= 40.0,
                "no 1-km band of depth holding over 40 % of the ocean",
            ),
        ];
        for (ok, what) in checks {
            if !ok {
                failures.push(format!("seed {seed}: not {what}: {r:?}"));
            }
        }
    }
    // Version 4 fails the first check on every seed of the issue's
    // review; here on most (a smaller graph makes lower peaks).
    let v4 = SEEDS
        .iter()
        .filter(|&&seed| survey(Version::V4, seed, 1.0, &dirs).highest > 9500.0)
        .count();
    eprintln!("version 4: {v4} of {} seeds above 9.5 km", SEEDS.len());
    assert!(
        v4 >= SEEDS.len() / 2,
        "the survey no longer sees version 4's spikes"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn plate_activity_raises_the_highest_peak() {
    let dirs = fibonacci_sphere(scale().1 / 4);
    let peaks: Vec<f32> = [0.25, 0.5, 1.0, 1.5, 2.0]
        .iter()
        .map(|&a| survey(Version::Next, 3, a, &dirs).highest)
        .collect();
    eprintln!("highest by plate_activity 0.25, 0.5, 1, 1.5, 2: {peaks:?}");
    assert!(
        peaks.windows(2).all(|w| w[1] > w[0]),
        "not rising: {peaks:?}"
    );
}
