//! Plausibility, measured over the default planet: the ocean covers what
//! the sea level asks for, every biome occurs, and it gets colder towards
//! the poles and with height.

use mangekyo_planet::geo::fibonacci_sphere as fibonacci;
use mangekyo_planet::{Biome, Dir, Layers, Planet, PlanetParams, Samples};

/// The default planet at generator version 1 (these checks describe the
/// version-1 function; version 2 has its own in `geology.rs`).
fn v1() -> PlanetParams {
    PlanetParams {
        generator_version: mangekyo_planet::Version::V1,
        ..PlanetParams::default()
    }
}

/// 40,000 points of `planet` at 2 km spacing (so detail down to 2 km counts).
fn survey(planet: &Planet) -> (Vec<Dir>, Samples) {
    let dirs = fibonacci(40_000);
    let s = planet.sample_dirs(&dirs, 2000.0, Layers::ALL).unwrap();
    (dirs, s)
}

fn ocean_fraction(s: &Samples) -> f64 {
    s.height.iter().filter(|&&h| h < 0.0).count() as f64 / s.height.len() as f64
}

#[test]
fn the_ocean_covers_what_the_sea_level_asks_for() {
    for sea_level in [0.3, 0.71, 0.9] {
        for seed in [42, 7] {
            let planet = Planet::new(PlanetParams {
                seed,
                sea_level,
                ..v1()
            })
            .unwrap();
            let f = ocean_fraction(&survey(&planet).1);
            assert!(
                (f - sea_level).abs() < 0.04,
                "seed {seed}, sea level {sea_level}: ocean fraction {f:.3}"
            );
        }
    }
    let dry = Planet::new(PlanetParams {
        sea_level: 0.0,
        ..v1()
    })
    .unwrap();
    assert!(ocean_fraction(&survey(&dry).1) < 0.02);
}

#[test]
fn every_biome_occurs_on_the_default_planet() {
    let planet = Planet::new(v1()).unwrap();
    let (_, s) = survey(&planet);
    let mut counts = [0usize; 12];
    for b in &s.biome {
        counts[b.index() as usize] += 1;
    }
    let table: Vec<String> = Biome::ALL
        .iter()
        .map(|b| format!("{} {}", b.name(), counts[b.index() as usize]))
        .collect();
    for b in Biome::ALL {
        assert!(
            counts[b.index() as usize] > 0,
            "{} never occurs: {table:?}",
            b.name()
        );
    }
    // Sanity of proportions: no land biome takes over the land.
    let land: usize = counts
        .iter()
        .enumerate()
        .filter(|(i, _)| !Biome::ALL[*i].is_water())
        .map(|(_, c)| c)
        .sum();
    for b in Biome::ALL.iter().filter(|b| !b.is_water()) {
        let share = counts[b.index() as usize] as f64 / land as f64;
        assert!(
            share < 0.4,
            "{} covers {share:.2} of the land: {table:?}",
            b.name()
        );
    }
}

fn mean(v: impl Iterator<Item = f32>) -> Option<f64> {
    let (sum, n) = v.fold((0.0f64, 0usize), |(s, n), x| (s + f64::from(x), n + 1));
    (n > 0).then(|| sum / n as f64)
}

#[test]
fn it_gets_colder_towards_the_poles() {
    let planet = Planet::new(v1()).unwrap();
    let (dirs, s) = survey(&planet);
    for north in [true, false] {
        let band_mean = |band: usize| {
            let (lo, hi) = ((band * 15) as f64, ((band + 1) * 15) as f64);
            mean(
                dirs.iter()
                    .zip(&s.temperature)
                    .zip(&s.height)
                    .filter_map(|((d, &t), &h)| {
                        let lat = libm::asin(d[2]).to_degrees();
                        let lat = if north { lat } else { -lat };
                        (lat >= lo && lat < hi && h < 0.0).then_some(t)
                    }),
            )
            .unwrap()
        };
        let means: Vec<f64> = (0..6).map(band_mean).collect();
        for w in means.windows(2) {
            assert!(
                w[1] < w[0] - 1.0,
                "north {north}: sea-surface band means {means:?}"
            );
        }
        assert!(
            means[0] > 24.0 && means[5] < -5.0,
            "north {north}: {means:?}"
        );
    }
}

#[test]
fn it_gets_colder_with_height() {
    let planet = Planet::new(v1()).unwrap();
    let (dirs, s) = survey(&planet);
    let mut compared = 0;
    for band in 0..9 {
        let (lo, hi) = ((band * 10) as f64, ((band + 1) * 10) as f64);
        let in_band = |k: usize| (lo..hi).contains(&libm::asin(dirs[k][2]).to_degrees().abs());
        let low = mean(
            (0..dirs.len())
                .filter(|&k| in_band(k) && (0.0..300.0).contains(&s.height[k]))
                .map(|k| s.temperature[k]),
        );
        let high = mean(
            (0..dirs.len())
                .filter(|&k| in_band(k) && s.height[k] > 1500.0)
                .map(|k| s.temperature[k]),
        );
        if let (Some(low), Some(high)) = (low, high) {
            assert!(
                high < low - 5.0,
                "latitudes {lo}..{hi}: lowland {low:.1} °C, highland {high:.1} °C"
            );
            compared += 1;
        }
    }
    assert!(
        compared >= 4,
        "only {compared} latitude bands have both lowlands and highlands"
    );
}
