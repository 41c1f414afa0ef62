//! Ground pictures the picture examples share: `n`² samples around a
//! direction, hill-shaded and tinted by height or coloured by biome.

use mangekyo_planet::view::biome_colour;
use mangekyo_planet::{Dir, Layers, Planet};
use rayon::prelude::*;

pub(crate) fn unit(v: [f64; 3]) -> Dir {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    [v[0] / n, v[1] / n, v[2] / n]
}

/// Two unit tangents at `d` (east-like and north-like).
pub(crate) fn tangents(d: Dir) -> (Dir, Dir) {
    let axis = if d[2].abs() < 0.9 {
        [0.0, 0.0, 1.0]
    } else {
        [1.0, 0.0, 0.0]
    };
    let east = unit([
        axis[1] * d[2] - axis[2] * d[1],
        axis[2] * d[0] - axis[0] * d[2],
        axis[0] * d[1] - axis[1] * d[0],
    ]);
    let north = [
        d[1] * east[2] - d[2] * east[1],
        d[2] * east[0] - d[0] * east[2],
        d[0] * east[1] - d[1] * east[0],
    ];
    (east, north)
}

/// A hypsometric tint: sea blues, then green, tan, brown, grey, white.
fn tint(h: f32) -> [f32; 3] {
    const STOPS: [(f32, [f32; 3]); 8] = [
        (-6000.0, [20.0, 40.0, 110.0]),
        (0.0, [90.0, 150.0, 210.0]),
        (1.0, [70.0, 130.0, 70.0]),
        (600.0, [150.0, 170.0, 90.0]),
        (1800.0, [190.0, 160.0, 110.0]),
        (3500.0, [140.0, 110.0, 90.0]),
        (5500.0, [170.0, 170.0, 170.0]),
        (8000.0, [250.0, 250.0, 250.0]),
    ];
    if h <= STOPS[0].0 {
        return STOPS[0].1;
    }
    for w in STOPS.windows(2) {
        let ((h0, c0), (h1, c1)) = (w[0], w[1]);
        if h <= h1 {
            let t = (h - h0) / (h1 - h0);
            return [0, 1, 2].map(|k| c0[k] + t * (c1[k] - c0[k]));
        }
    }
    STOPS[7].1
}

/// The ground around `centre`: `n`² samples `spacing` metres apart,
/// hill-shaded (light from the north-west, 45° up) and tinted by height,
/// or with `biomes` coloured by biome.
pub(crate) fn ground(
    planet: &Planet,
    centre: Dir,
    n: usize,
    spacing: f64,
    biomes: bool,
) -> Vec<u8> {
    let r = planet.params().radius;
    let c = centre;
    let (east, north) = tangents(c);
    let half = n as f64 / 2.0;
    let dirs: Vec<Dir> = (0..n * n)
        .map(|k| {
            let a = ((k % n) as f64 - half) * spacing / r;
            let b = (half - (k / n) as f64) * spacing / r;
            unit([
                c[0] + a * east[0] + b * north[0],
                c[1] + a * east[1] + b * north[1],
                c[2] + a * east[2] + b * north[2],
            ])
        })
        .collect();
    let layers = if biomes { Layers::ALL } else { Layers::HEIGHT };
    let samples: Vec<_> = dirs
        .par_chunks(4096)
        .map(|d| planet.sample_dirs(d, spacing, layers).unwrap())
        .collect();
    let h: Vec<f32> = samples.iter().flat_map(|s| s.height.clone()).collect();
    let biome: Vec<_> = samples.iter().flat_map(|s| s.biome.clone()).collect();
    let mut sorted = h.clone();
    sorted.sort_by(f32::total_cmp);
    println!(
        "  {n}² at {spacing} m: heights 5 % {:.0} m, median {:.0} m, 95 % {:.0} m, top {:.0} m",
        sorted[sorted.len() / 20],
        sorted[sorted.len() / 2],
        sorted[sorted.len() * 19 / 20],
        sorted[sorted.len() - 1]
    );
    let mut rgb = vec![0u8; n * n * 3];
    let light = {
        let l = [-1.0f32, 1.0, 1.414];
        let m = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
        l.map(|x| x / m)
    };
    for y in 0..n {
        for x in 0..n {
            let at = |x: usize, y: usize| h[y.min(n - 1) * n + x.min(n - 1)].max(0.0);
            // Slopes exaggerated 3× so a lod-6 chunk's relief reads.
            let dx = 3.0 * (at(x + 1, y) - at(x.saturating_sub(1), y)) / (2.0 * spacing as f32);
            let dy = 3.0 * (at(x, y.saturating_sub(1)) - at(x, y + 1)) / (2.0 * spacing as f32);
            let nrm = {
                let v = [-dx, -dy, 1.0];
                let m = (v[0] * v[0] + v[1] * v[1] + 1.0).sqrt();
                v.map(|x| x / m)
            };
            let shade = (nrm[0] * light[0] + nrm[1] * light[1] + nrm[2] * light[2]).max(0.0);
            let k = y * n + x;
            let t = if biomes {
                biome_colour(biome[k], h[k])
            } else {
                tint(h[k])
            };
            for k in 0..3 {
                rgb[(y * n + x) * 3 + k] = (t[k] * (0.35 + 0.65 * shade)).clamp(0.0, 255.0) as u8;
            }
        }
    }
    rgb
}

/// [`ground`] of 256² samples, written to `path` as a PNG.
pub(crate) fn write_ground(
    planet: &Planet,
    centre: Dir,
    spacing: f64,
    biomes: bool,
    path: &std::path::Path,
) -> Result<(), Box<dyn std::error::Error>> {
    let rgb = ground(planet, centre, 256, spacing, biomes);
    crate::common::write_png(path, 256, 256, &rgb)
}
