//! Plate boundaries without cliffs in the height function (issue 35): no
//! single-sample step where the nearest plate changes (both sides'
//! profiles meet) or where the second-nearest does (the lines that fan
//! out of triple junctions). Version 4, whose profiles end where each
//! side's does, is measured beside the next version so the test is shown
//! to see the steps.
//!
//! Crossings are found along great-circle transects sampled every 2 km;
//! around each, a window of samples 96 m apart (lod 6's spacing, at its
//! octaves) is searched for a step: a difference over 25 m and over four
//! times both neighbouring differences on the line, outside river and
//! lake water (carved channels are meant to have banks).

mod common;

use common::{along, tangents};
use mangekyo_planet::geo::fibonacci_sphere;
use mangekyo_planet::geology::Level;
use mangekyo_planet::{Dir, Layers, Planet, PlanetParams, Version};

const SPACING_M: f64 = 96.0;
/// Samples per window (about 3.9 km, centred on the 2 km interval).
const WINDOW: usize = 41;
/// Beyond this distance from a boundary no profile reaches, km.
const REACH_KM: f64 = 760.0;

/// Whether the window's heights hold a step (see the module).
fn has_step(h: &[f32], water: &[f32]) -> bool {
    let d: Vec<f32> = h.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
    (1..d.len() - 1).any(|j| {
        let dry = water[j] <= 0.0 && water[j + 1] <= 0.0;
        dry && d[j] > 25.0 && d[j] > 4.0 * d[j - 1].max(d[j + 1])
    })
}

/// (boundary windows, with a step; fan-line windows, with a step).
fn steps(version: Version, seed: u64) -> [usize; 4] {
    let params = PlanetParams {
        seed,
        graph_n: 48,
        generator_version: version,
        ..PlanetParams::default()
    };
    let radius = params.radius;
    let planet = Planet::new(params).unwrap();
    let plates = planet.plates().unwrap();
    let mut out = [0usize; 4];
    for start in fibonacci_sphere(80) {
        let (tangent, _) = tangents(start);
        let dirs: Vec<Dir> = (0..1500)
            .map(|k| along(start, tangent, 2000.0 * k as f64, radius))
            .collect();
        let q = plates.warped(&dirs, radius, Level::best());
        let located: Vec<_> = q.iter().map(|&q| plates.locate_three(q)).collect();
        for k in 1..dirs.len() {
            let (a0, a1) = (&located[k - 1].ab, &located[k].ab);
            let kind = if a0.plate != a1.plate {
                0
            } else if a0.other != a1.other && a1.distance_km < REACH_KM {
                2
            } else {
                continue;
            };
            let centre = 2000.0 * (k as f64 - 0.5);
            let window: Vec<Dir> = (0..WINDOW)
                .map(|j| {
                    let m = centre + SPACING_M * (j as f64 - (WINDOW / 2) as f64);
                    along(start, tangent, m, radius)
                })
                .collect();
            let s = planet
                .sample_dirs(&window, SPACING_M, Layers::HEIGHT.union(Layers::WATER))
                .unwrap();
            out[kind] += 1;
            out[kind + 1] += usize::from(has_step(&s.height, &s.water));
        }
    }
    out
}

#[test]
fn plate_boundaries_and_fan_lines_have_no_step_in_the_next_version() {
    let (mut next, mut v4) = ([0usize; 4], [0usize; 4]);
    for seed in [1, 2, 3] {
        for (total, version) in [(&mut next, Version::Next), (&mut v4, Version::V4)] {
            for (t, s) in total.iter_mut().zip(steps(version, seed)) {
                *t += s;
            }
        }
    }
    let show = |c: [usize; 4]| {
        format!(
            "{} of {} boundary windows and {} of {} fan-line windows hold a step",
            c[1], c[0], c[3], c[2]
        )
    };
    eprintln!("next: {}\nversion 4: {}", show(next), show(v4));
    assert!(
        next[0] >= 40 && next[2] >= 20,
        "too few crossings: {}",
        show(next)
    );
    // Version 4: walls where the sides' profiles differ at the boundary
    // (a trench beside an arc or a cordillera) and where the nearest
    // boundary changes within a profile's reach.
    assert!(
        v4[1] >= 5 && v4[3] >= 5 && (v4[1] + v4[3]) * 12 >= v4[0] + v4[2],
        "version 4: {}",
        show(v4)
    );
    // Next: none, bar a crossing within reach of a triple junction.
    assert!(next[1] * 50 <= next[0], "next: {}", show(next));
    assert!(next[3] * 50 <= next[2], "next: {}", show(next));
}
