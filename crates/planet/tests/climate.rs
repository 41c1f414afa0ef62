//! Version 4's climate and biomes, measured as the issue states them
//! (`cargo test -p mangekyo-planet --release --test climate -- --nocapture`
//! prints the figures):
//! - rain shadows: on the default planet, over ranges above 2 km that
//!   cross the wind, leeward precipitation ≤ 0.6 × windward;
//! - biome area shares over 10⁶ Fibonacci samples within ±2 percentage
//!   points of the targets the tier's tables set;
//! - a wetter `humidity_global` means less desert and more forest, step by
//!   step over five values;
//! - hot deserts lie mostly in the subtropics;
//! - ecotones at the ground: version 4's are speckle, the next version's
//!   borders are contours of a smooth field.

use mangekyo_planet::ecology::{BANDS, CLASSES, ClassEdges, band_of};
use mangekyo_planet::geo::fibonacci_sphere as fibonacci;
use mangekyo_planet::{Biome, Dir, LatLon, Layers, Planet, PlanetParams, Samples, Version};
use std::sync::OnceLock;

/// The default planet (version 4), its tier computed once for every test.
fn earth() -> &'static Planet {
    static PLANET: OnceLock<Planet> = OnceLock::new();
    PLANET.get_or_init(|| {
        let p = Planet::new(PlanetParams::default()).unwrap();
        p.coarse_tier().unwrap();
        p
    })
}

const CLIMATE: Layers = Layers {
    height: true,
    temperature: true,
    biome: true,
    precipitation: true,
    ..Layers::NONE
};

/// Samples `dirs` at 20 km spacing (about the tier's own).
fn survey(planet: &Planet, dirs: &[Dir]) -> Samples {
    planet.sample_dirs(dirs, 20_000.0, CLIMATE).unwrap()
}

fn is_climate_land(b: Biome) -> bool {
    CLASSES.iter().any(|c| c.contains(&b))
}

/// Measured and target shares of each climate biome among climate land:
/// the target of biome B is Σ over bands of (the band's share of climate
/// land, by hard temperature thresholds) × (B's share of that band).
fn shares(planet: &Planet, s: &Samples) -> Vec<(Biome, f64, f64)> {
    let edges = ClassEdges::new(planet.params().humidity_global);
    let land: Vec<usize> = (0..s.biome.len())
        .filter(|&i| is_climate_land(s.biome[i]))
        .collect();
    let total = land.len() as f64;
    let mut band = [0.0; BANDS];
    for &i in &land {
        band[band_of(f64::from(s.temperature[i]))] += 1.0 / total;
    }
    let mut out: Vec<(Biome, f64, f64)> = Vec::new();
    for b in Biome::ALL_V4.into_iter().filter(|&b| is_climate_land(b)) {
        let measured = land.iter().filter(|&&i| s.biome[i] == b).count() as f64 / total;
        let mut target = 0.0;
        for (k, classes) in CLASSES.iter().enumerate() {
            for (c, &x) in classes.iter().enumerate() {
                if x == b {
                    target += band[k] * edges.shares(k)[c];
                }
            }
        }
        out.push((b, measured, target));
    }
    out
}

#[test]
fn biome_shares_hit_their_targets_over_a_million_samples() {
    let planet = earth();
    let s = survey(planet, &fibonacci(1_000_000));
    let land = s.biome.iter().filter(|b| is_climate_land(**b)).count();
    println!("climate land: {land} of 10⁶ samples");
    let mut all = vec![0usize; Biome::ALL_V4.len()];
    for b in &s.biome {
        all[b.index() as usize] += 1;
    }
    for b in Biome::ALL_V4 {
        println!(
            "  {:<17} {:>6.2} % of the sphere",
            b.name(),
            all[b.index() as usize] as f64 / 1e4
        );
    }
    for (b, m, t) in shares(planet, &s) {
        println!(
            "  {:<17} measured {:>5.2} % target {:>5.2} %",
            b.name(),
            100.0 * m,
            100.0 * t
        );
        assert!(
            (m - t).abs() <= 0.02,
            "{}: measured {m:.4}, target {t:.4}",
            b.name()
        );
    }
}

#[test]
fn wetter_planets_have_less_desert_and_more_forest() {
    let dirs = fibonacci(100_000);
    let forest = [Biome::Rainforest, Biome::TemperateForest, Biome::Taiga];
    let mut last: Option<(f64, f64)> = None;
    for humidity_global in [0.1, 0.3, 0.5, 0.7, 0.9] {
        let planet = Planet::new(PlanetParams {
            humidity_global,
            graph_n: 64,
            ..PlanetParams::default()
        })
        .unwrap();
        let s = survey(&planet, &dirs);
        let land = s.biome.iter().filter(|b| !b.is_wet()).count() as f64;
        let share =
            |set: &[Biome]| s.biome.iter().filter(|b| set.contains(b)).count() as f64 / land;
        let (desert, trees) = (share(&[Biome::Desert]), share(&forest));
        let mean_p = s.precipitation.iter().map(|&p| f64::from(p)).sum::<f64>()
            / s.precipitation.len() as f64;
        println!(
            "humidity_global {humidity_global}: desert {:.1} %, forest {:.1} % of land, mean precipitation {mean_p:.0} mm/yr",
            100.0 * desert,
            100.0 * trees
        );
        if let Some((d, f)) = last {
            assert!(
                desert < d && trees > f,
                "at {humidity_global}: desert {desert} (was {d}), forest {trees} (was {f})"
            );
        }
        last = Some((desert, trees));
    }
}

#[test]
fn ranges_cast_rain_shadows_on_the_default_planet() {
    let planet = earth();
    let tier = planet.coarse_tier().unwrap();
    let climate = tier.climate.as_ref().unwrap();
    let atm = planet.atmosphere().unwrap();
    let graph = climate.grid.graph(planet.params().seed);
    let nodes: Vec<Dir> = (0..graph.len() as u32).map(|k| graph.node(k)).collect();
    let heights = planet
        .sample_dirs(&nodes, 20_000.0, Layers::HEIGHT)
        .unwrap()
        .height;
    // 200 km either side of every node above 2 km, along the wind.
    let reach = 200_000.0 / planet.params().radius;
    let mut sides = Vec::new();
    let mut peaks = Vec::new();
    for (k, &d) in nodes.iter().enumerate() {
        if heights[k] < 2000.0 {
            continue;
        }
        let (w, _) = atm.wind(d);
        let at = |s: f64| {
            let p = [d[0] + s * w[0], d[1] + s * w[1], d[2] + s * w[2]];
            let l = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
            [p[0] / l, p[1] / l, p[2] / l]
        };
        sides.push(at(-reach));
        sides.push(at(reach));
        peaks.push(heights[k]);
    }
    let s = planet
        .sample_dirs(
            &sides,
            20_000.0,
            Layers {
                height: true,
                precipitation: true,
                ..Layers::NONE
            },
        )
        .unwrap();
    let (mut windward, mut leeward, mut ranges) = (0.0, 0.0, 0);
    for (i, &peak) in peaks.iter().enumerate() {
        let (a, b) = (2 * i, 2 * i + 1);
        // The wind crosses the range: land on both sides, both well below it.
        if s.height[a] < 0.0 || s.height[b] < 0.0 || s.height[a].max(s.height[b]) > peak - 800.0 {
            continue;
        }
        windward += f64::from(s.precipitation[a]);
        leeward += f64::from(s.precipitation[b]);
        ranges += 1;
    }
    let ratio = leeward / windward;
    println!(
        "{ranges} range crossings above 2 km: windward {:.0} mm/yr, leeward {:.0} mm/yr, ratio {ratio:.2}",
        windward / f64::from(ranges),
        leeward / f64::from(ranges)
    );
    assert!(ranges >= 50, "{ranges}");
    assert!(ratio <= 0.6, "leeward / windward {ratio:.3}");
}

#[test]
fn hot_deserts_lie_mostly_in_the_subtropics() {
    let planet = earth();
    let dirs = fibonacci(200_000);
    let s = survey(planet, &dirs);
    let hot: Vec<f64> = (0..dirs.len())
        .filter(|&i| s.biome[i] == Biome::Desert && s.temperature[i] >= 18.0)
        .map(|i| LatLon::from_dir(dirs[i]).lat.abs())
        .collect();
    let belt =
        hot.iter().filter(|&&l| (15.0..=35.0).contains(&l)).count() as f64 / hot.len() as f64;
    println!(
        "{} hot-desert samples, {:.0} % between 15° and 35°",
        hot.len(),
        100.0 * belt
    );
    assert!(hot.len() > 1000 && belt >= 0.5, "{} {belt}", hot.len());
    if let Ok(dir) = std::env::var("MANGEKYO_PICTURES") {
        pictures_of_the_climate(planet, &dir);
    }
}

/// Draws the default planet's biomes, temperature and precipitation
/// (hill-shaded previews, 1024 × 512) and a map of its deserts into `dir`:
/// hot deserts orange, cold ones tan, other land grey, with the 15° and 35°
/// parallels in white (`MANGEKYO_PICTURES=dir` on the hot-desert test).
fn pictures_of_the_climate(planet: &Planet, dir: &str) {
    use mangekyo_planet::view::{Overlay, PreviewLayer};
    for (layer, name) in [
        (PreviewLayer::Biome, "planet_v4_biomes"),
        (PreviewLayer::Temperature, "planet_v4_temperature"),
        (PreviewLayer::Precipitation, "planet_v4_precipitation"),
    ] {
        let img = planet
            .preview_with(1024, layer, Overlay::None, &|_| {})
            .unwrap();
        write_png(
            &format!("{dir}/{name}.png"),
            img.width,
            img.height,
            &img.pixels,
        );
    }
    let (w, h) = (1024usize, 512usize);
    let dirs: Vec<Dir> = (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            LatLon {
                lat: 90.0 - 180.0 * (y as f64 + 0.5) / h as f64,
                lon: 360.0 * (x as f64 + 0.5) / w as f64 - 180.0,
            }
            .to_dir()
        })
        .collect();
    let s = planet.sample_dirs(&dirs, 40_000.0, CLIMATE).unwrap();
    let mut px = Vec::with_capacity(w * h * 3);
    for i in 0..w * h {
        let lat = 90.0 - 180.0 * ((i / w) as f64 + 0.5) / h as f64;
        let on_line = [15.0, 35.0]
            .iter()
            .any(|&l: &f64| (lat.abs() - l).abs() < 0.18);
        let c: [u8; 3] = match s.biome[i] {
            _ if on_line => [255, 255, 255],
            b if b.is_wet() => [30, 50, 90],
            Biome::Desert if s.temperature[i] >= 18.0 => [235, 120, 30],
            Biome::Desert => [210, 190, 140],
            _ => [120, 120, 120],
        };
        px.extend_from_slice(&c);
    }
    write_png(
        &format!("{dir}/planet_v4_deserts.png"),
        w as u32,
        h as u32,
        &px,
    );
}

fn write_png(path: &str, w: u32, h: u32, px: &[u8]) {
    let file = std::fs::File::create(path).unwrap();
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.write_header().unwrap().write_image_data(px).unwrap();
}

/// How often two neighbouring ecotone samples 48 m apart differ in biome,
/// over grids around up to 8 ecotone points of `planet`: samples whose
/// two strongest climate weights are within about 0.2 of each other (the
/// second at least 100/255) and whose biome is one of them. Returns the
/// share and the number of pairs.
fn ecotone_speckle(planet: &Planet) -> (f64, usize) {
    let (n, step) = (40usize, 48.0);
    let r = planet.params().radius;
    let probes = fibonacci(4000);
    let layers = planet.version().layers();
    let s = planet.sample_dirs(&probes, step, layers).unwrap();
    let blended = |w: &mangekyo_planet::BiomeWeights, b: Biome| {
        w.first != w.second && w.second_weight >= 100 && (b == w.first || b == w.second)
    };
    let centres: Vec<Dir> = (0..probes.len())
        .filter(|&i| probes[i][2].abs() < 0.99 && blended(&s.biome_weights[i], s.biome[i]))
        .map(|i| probes[i])
        .take(8)
        .collect();
    assert!(centres.len() >= 4, "{} ecotone probes", centres.len());
    let (mut pairs, mut changes) = (0, 0);
    for c in centres {
        // East and north at c (no probe lies within 1° of a pole).
        let unit = |v: Dir| {
            let m = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            v.map(|x| x / m)
        };
        let east = unit([-c[1], c[0], 0.0]);
        let north = [
            c[1] * east[2] - c[2] * east[1],
            c[2] * east[0] - c[0] * east[2],
            c[0] * east[1] - c[1] * east[0],
        ];
        let dirs: Vec<Dir> = (0..n * n)
            .map(|k| {
                let (a, b) = ((k % n) as f64 * step / r, (k / n) as f64 * step / r);
                unit([0, 1, 2].map(|i| c[i] + a * east[i] + b * north[i]))
            })
            .collect();
        let g = planet.sample_dirs(&dirs, step, layers).unwrap();
        let eco = |k: usize| blended(&g.biome_weights[k], g.biome[k]);
        for y in 0..n {
            for x in 0..n {
                let k = y * n + x;
                for m in [(x + 1 < n).then_some(k + 1), (y + 1 < n).then_some(k + n)]
                    .into_iter()
                    .flatten()
                {
                    if eco(k) && eco(m) {
                        pairs += 1;
                        changes += usize::from(g.biome[k] != g.biome[m]);
                    }
                }
            }
        }
    }
    (changes as f64 / pairs.max(1) as f64, pairs)
}

/// Issue 36: at the ground, version 4 settles an ecotone by a hash per
/// 12 m cell, so neighbouring samples 48 m apart are independent draws
/// (speckle; squares at 1.5 m); the next version's borders are contours
/// of a smooth field, so almost every neighbour pair agrees.
#[test]
fn ecotone_borders_are_contours_in_the_next_version() {
    let mut share = Vec::new();
    for v in [Version::V4, Version::Next] {
        let planet = Planet::new(PlanetParams {
            generator_version: v,
            graph_n: 64,
            ..PlanetParams::default()
        })
        .unwrap();
        planet.coarse_tier().unwrap();
        let (s, pairs) = ecotone_speckle(&planet);
        println!(
            "{v}: {:.1} % of {pairs} ecotone neighbour pairs differ",
            100.0 * s
        );
        assert!(pairs >= 2000, "{v}: {pairs} pairs");
        share.push(s);
    }
    assert!(
        share[0] > 0.25,
        "version 4's ecotones are speckle: {:?}",
        share
    );
    assert!(
        share[1] < 0.03,
        "next's ecotones have contour borders: {:?}",
        share
    );
}
