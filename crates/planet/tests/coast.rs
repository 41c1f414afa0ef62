//! Coasts without a cliff in the height function (issue 35): where the
//! next version's ground crosses sea level, the samples on either side
//! differ by about what the local slope gives, not by the 60 m step that
//! versions 2–4 put at every coast (frozen with them, and measured here so
//! the test is shown to tell the two apart).
//!
//! Coasts are found along great-circle transects sampled at 1 km and then
//! bisected, on the same function (the octaves of a 96 m spacing), down to
//! a pair of samples under 96 m apart across the waterline.
//!
//! Beaches: the next version puts them on a strip along the sea, where
//! version 4 made every flat below 6 m beach, tens of kilometres inland.

mod common;

use common::{along, tangents, unit};
use mangekyo_planet::geo::fibonacci_sphere;
use mangekyo_planet::{Dir, Layers, Planet, PlanetParams, Version};

/// The spacing whose octaves every sample keeps, metres.
const SPACING_M: f64 = 96.0;

fn height(planet: &Planet, d: Dir) -> f32 {
    planet
        .sample_dirs(&[d], SPACING_M, Layers::HEIGHT)
        .unwrap()
        .height[0]
}

/// |land − sea| height across each waterline the transects cross, metres.
fn coast_steps(version: Version) -> Vec<f32> {
    let params = PlanetParams {
        seed: 42,
        graph_n: 48,
        generator_version: version,
        ..PlanetParams::default()
    };
    let radius = params.radius;
    let planet = Planet::new(params).unwrap();
    let mut steps = Vec::new();
    for start in fibonacci_sphere(96) {
        // A tangent: the start crossed with an axis it is not near.
        let (tangent, _) = tangents(start);
        let dirs: Vec<Dir> = (0..1500)
            .map(|k| along(start, tangent, 1000.0 * k as f64, radius))
            .collect();
        let h = planet
            .sample_dirs(&dirs, SPACING_M, Layers::HEIGHT)
            .unwrap()
            .height;
        for k in 1..h.len() {
            if (h[k - 1] < 0.0) == (h[k] < 0.0) {
                continue;
            }
            let (mut a, mut b) = (1000.0 * (k - 1) as f64, 1000.0 * k as f64);
            let (mut ha, mut hb) = (h[k - 1], h[k]);
            while b - a > SPACING_M {
                let m = 0.5 * (a + b);
                let hm = height(&planet, along(start, tangent, m, radius));
                if (hm < 0.0) == (ha < 0.0) {
                    (a, ha) = (m, hm);
                } else {
                    (b, hb) = (m, hm);
                }
            }
            steps.push((ha - hb).abs());
        }
    }
    steps.sort_by(f32::total_cmp);
    steps
}

fn quantile(sorted: &[f32], q: f64) -> f32 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// Share of crossings whose samples differ by [`CLIFF_M`] or more.
fn cliffs(steps: &[f32]) -> f64 {
    steps.iter().filter(|&&s| s >= CLIFF_M).count() as f64 / steps.len() as f64
}

/// A step no slope gives across 96 m on a coast (18°), metres.
const CLIFF_M: f32 = 30.0;

#[test]
fn coasts_have_no_step_in_the_next_version() {
    let next = coast_steps(Version::Next);
    let frozen = coast_steps(Version::V4);
    let show = |s: &[f32]| {
        format!(
            "{} crossings, {:.0} % of {CLIFF_M} m or more, median {:.1} m, 90 % {:.1} m, largest {:.1} m",
            s.len(),
            100.0 * cliffs(s),
            quantile(s, 0.5),
            quantile(s, 0.9),
            s[s.len() - 1]
        )
    };
    eprintln!("next: {}\nversion 4: {}", show(&next), show(&frozen));
    assert!(
        next.len() >= 50 && frozen.len() >= 50,
        "too few coasts crossed"
    );
    // Version 4: the 60 m step wherever the land field itself crosses
    // zero (elsewhere the eroded ground or a river meets the sea).
    assert!(cliffs(&frozen) > 0.1, "version 4: {}", show(&frozen));
    // Next: only plate-boundary walls remain (issue 35's next item).
    assert!(cliffs(&next) < 0.03, "next: {}", show(&next));
}

/// Up to `count` points where great-circle transects sampled every 2 km
/// cross the waterline.
fn waterline_points(planet: &Planet, count: usize) -> Vec<Dir> {
    let radius = planet.params().radius;
    let mut out = Vec::new();
    for start in fibonacci_sphere(64) {
        let (tangent, _) = tangents(start);
        let dirs: Vec<Dir> = (0..500)
            .map(|k| along(start, tangent, 2000.0 * k as f64, radius))
            .collect();
        let h = planet
            .sample_dirs(&dirs, SPACING_M, Layers::HEIGHT)
            .unwrap()
            .height;
        // One crossing per transect keeps the grids apart.
        if let Some(k) = (1..h.len()).find(|&k| (h[k - 1] < 0.0) != (h[k] < 0.0)) {
            out.push(dirs[k]);
        }
        if out.len() == count {
            break;
        }
    }
    out
}

/// Over square grids of 96 m samples across coasts: the share of land
/// that is beach, and the share of land that is beach more than 1 km
/// (by steps on the grid) from the nearest sea sample.
fn beach_reach(version: Version) -> (f64, f64, usize) {
    let params = PlanetParams {
        seed: 1,
        graph_n: 48,
        generator_version: version,
        ..PlanetParams::default()
    };
    let radius = params.radius;
    let planet = Planet::new(params).unwrap();
    const N: usize = 48;
    let (mut grids, mut land, mut beach, mut far) = (0, 0usize, 0usize, 0usize);
    for c in waterline_points(&planet, 40) {
        let (e, f) = tangents(c);
        let dirs: Vec<Dir> = (0..N * N)
            .map(|k| {
                let a = ((k % N) as f64 - (N / 2) as f64) * SPACING_M / radius;
                let b = ((k / N) as f64 - (N / 2) as f64) * SPACING_M / radius;
                unit([
                    c[0] + a * e[0] + b * f[0],
                    c[1] + a * e[1] + b * f[1],
                    c[2] + a * e[2] + b * f[2],
                ])
            })
            .collect();
        let s = planet
            .sample_dirs(&dirs, SPACING_M, Layers::ALL.union(Layers::WATER))
            .unwrap();
        let sea: Vec<bool> = s.height.iter().map(|&h| h < 0.0).collect();
        let wet = sea.iter().filter(|&&x| x).count();
        if !(N * N / 10..=N * N * 9 / 10).contains(&wet) {
            continue;
        }
        grids += 1;
        // Steps to the nearest sea sample (4-neighbour breadth first).
        let mut steps = vec![u32::MAX; N * N];
        let mut queue: std::collections::VecDeque<usize> = (0..N * N).filter(|&k| sea[k]).collect();
        for &k in &queue {
            steps[k] = 0;
        }
        while let Some(k) = queue.pop_front() {
            let (x, y) = (k % N, k / N);
            let next = [
                (x > 0).then(|| k - 1),
                (x + 1 < N).then(|| k + 1),
                (y > 0).then(|| k - N),
                (y + 1 < N).then(|| k + N),
            ];
            for m in next.into_iter().flatten() {
                if steps[m] == u32::MAX {
                    steps[m] = steps[k] + 1;
                    queue.push_back(m);
                }
            }
        }
        for k in 0..N * N {
            if sea[k] || s.water[k] > 0.0 {
                continue;
            }
            land += 1;
            if s.biome[k] == mangekyo_planet::Biome::Beach {
                beach += 1;
                far += usize::from(f64::from(steps[k]) * SPACING_M > 1000.0);
            }
        }
    }
    let share = |x: usize| 100.0 * x as f64 / land.max(1) as f64;
    (share(beach), share(far), grids)
}

#[test]
fn beaches_lie_along_the_sea_in_the_next_version() {
    let (next, next_far, grids) = beach_reach(Version::Next);
    let (v4, v4_far, v4_grids) = beach_reach(Version::V4);
    eprintln!(
        "next: {grids} coastal grids, beach {next:.1} % of land, {next_far:.2} % over 1 km from the sea\n\
         version 4: {v4_grids} grids, beach {v4:.1} %, {v4_far:.2} % over 1 km from the sea"
    );
    assert!(grids >= 10 && v4_grids >= 10, "too few coasts");
    // Version 4: every flat below 6 m is beach, tens of kilometres inland.
    assert!(v4_far > 2.0, "version 4 no longer shows inland beaches");
    assert!(next > 0.5, "next: no beaches at all");
    assert!(next_far < 0.2, "next: beach far inland");
}
