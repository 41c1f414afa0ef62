//! The default (Earth-sized) planet's water: realism of its drainage,
//! computed from the rivers GeoJSON as a user would (how much land reaches
//! the sea, Hack's law, Horton's bifurcation ratio), and its longest river
//! walked from source to sea at the finest level (`cargo test -p
//! mangekyo-planet --test water_earth -- --nocapture` prints the figures;
//! with `MANGEKYO_PICTURES=dir` the walk's profile is drawn there).

use mangekyo_planet::graph::SphereGraph;
use mangekyo_planet::hydro::geojson::rivers_geojson;
use mangekyo_planet::{LatLon, Layers, Planet, PlanetParams, Projection};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// The default planet, its tier computed once for both tests.
fn earth() -> &'static Planet {
    static PLANET: OnceLock<Planet> = OnceLock::new();
    PLANET.get_or_init(|| Planet::new(PlanetParams::default()).unwrap())
}

/// Least-squares slope of log y against log x.
fn log_slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0);
    for &(x, y) in points {
        let (lx, ly) = (libm::log(x), libm::log(y));
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
    }
    (n * sxy - sx * sy) / (n * sxx - sx * sx)
}

#[test]
fn the_default_planet_drains_like_earth() {
    let g = rivers_geojson(earth(), None).unwrap();
    let share = g["properties"]["drains_to_sea_share"].as_f64().unwrap();
    let features = g["features"].as_array().unwrap();
    let rivers: Vec<&serde_json::Value> = features
        .iter()
        .map(|f| &f["properties"])
        .filter(|p| p["kind"] == "river")
        .collect();

    // Hack's law: main-stem length against upstream area, areas ≥ 10⁴ km².
    let hack: Vec<(f64, f64)> = rivers
        .iter()
        .map(|p| {
            (
                p["upstream_area_km2"].as_f64().unwrap(),
                p["main_stem_km"].as_f64().unwrap(),
            )
        })
        .filter(|&(a, _)| a >= 1e4)
        .collect();
    let h = log_slope(&hack);

    // Horton: Strahler streams per order (a stream starts at a link none of
    // whose upstream links has its order).
    let mut upstream_max: BTreeMap<u64, u64> = BTreeMap::new();
    for p in &rivers {
        if let Some(d) = p["downstream_link"].as_u64() {
            let o = p["strahler"].as_u64().unwrap();
            let e = upstream_max.entry(d).or_default();
            *e = (*e).max(o);
        }
    }
    let mut streams: BTreeMap<u64, f64> = BTreeMap::new();
    for p in &rivers {
        let (link, o) = (p["link"].as_u64().unwrap(), p["strahler"].as_u64().unwrap());
        if upstream_max.get(&link).copied().unwrap_or(0) < o {
            *streams.entry(o).or_default() += 1.0;
        }
    }
    // Strahler's weighted mean bifurcation ratio (Schumm 1956): each order's
    // ratio weighted by the streams it counts, so the top orders' handful
    // of streams do not decide it.
    let (mut num, mut den) = (0.0, 0.0);
    let mut ratios = Vec::new();
    for (o, n) in &streams {
        if let Some(m) = streams.get(&(o + 1)) {
            ratios.push(n / m);
            num += n / m * (n + m);
            den += n + m;
        }
    }
    let rb = num / den;
    println!(
        "drains to the sea: {:.1} % of land; Hack exponent {h:.3} over {} links; \
         Strahler streams {streams:?}, bifurcation ratio {rb:.2} ({ratios:.2?})",
        share * 100.0,
        hack.len()
    );
    assert!(share >= 0.9, "{share}");
    assert!((0.5..=0.65).contains(&h), "Hack exponent {h}");
    assert!((3.0..=5.0).contains(&rb), "bifurcation ratio {rb}");
}

#[test]
fn the_longest_river_runs_continuously_downhill_from_source_to_sea() {
    let planet = earth();
    let tier = planet.coarse_tier().unwrap();
    let hydro = tier.hydro.as_ref().unwrap();
    let radius = planet.params().radius;
    let graph = SphereGraph::new(tier.n, planet.params().seed).unwrap();
    let field = hydro.field(&graph, radius, planet.version().pipeline().channels);
    let segs = &hydro.segments;
    // The longest chain of river segments that reaches the sea (lakes
    // break chains): each segment's longest upstream chain, donors first
    // (a donor's main stem is shorter than its receiver's).
    let seg_len = |i: usize| {
        mangekyo_planet::geo::angle_between(graph.node(segs[i].from), graph.node(segs[i].to))
    };
    let mut by_stem: Vec<usize> = (0..segs.len()).collect();
    by_stem.sort_by(|&a, &b| {
        segs[a]
            .main_stem_km
            .total_cmp(&segs[b].main_stem_km)
            .then(a.cmp(&b))
    });
    let mut into: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, s) in segs.iter().enumerate() {
        into.entry(s.to).or_default().push(i);
    }
    let mut chain = vec![0.0f64; segs.len()];
    let mut best_donor = vec![usize::MAX; segs.len()];
    for &i in &by_stem {
        let mut up = 0.0;
        for &d in into.get(&segs[i].from).map_or(&[][..], Vec::as_slice) {
            if chain[d] > up {
                up = chain[d];
                best_donor[i] = d;
            }
        }
        chain[i] = up + seg_len(i);
    }
    let mouth = (0..segs.len())
        .filter(|&i| segs[i].mouth == 1)
        .max_by(|&a, &b| chain[a].total_cmp(&chain[b]).then(b.cmp(&a)))
        .unwrap();
    let mut path = vec![mouth];
    while best_donor[*path.last().unwrap()] != usize::MAX {
        path.push(best_donor[*path.last().unwrap()]);
    }
    path.reverse();
    // Sample the centreline every 25 m, and every metre over the first and
    // last 200 m of each segment (where segments meet).
    let spacing = planet.space().metres_per_sample(0);
    let mut dirs = Vec::new();
    let mut at = Vec::new();
    for &s in &path {
        let seg = &segs[s];
        let len =
            mangekyo_planet::geo::angle_between(graph.node(seg.from), graph.node(seg.to)) * radius;
        let mut t = 0.0;
        while t < 1.0 {
            dirs.push(field.centre(s as u32, t));
            at.push((s, t));
            let metres = t * len;
            let step = if metres < 200.0 || len - metres < 200.0 {
                1.0
            } else {
                25.0
            };
            t += step / len;
        }
    }
    let layers = Layers {
        height: true,
        water: true,
        flow: true,
        ..Layers::NONE
    };
    let samples = planet.sample_dirs(&dirs, spacing, layers).unwrap();
    let mut chunks = BTreeSet::new();
    let mut prev = f64::INFINITY;
    let mut length_km = 0.0;
    let mut along_km = Vec::with_capacity(at.len());
    let mut floor_checks = 0;
    for (i, &(s, t)) in at.iter().enumerate() {
        let (h, w) = (f64::from(samples.height[i]), f64::from(samples.water[i]));
        let surface = h + w;
        assert!(
            w > 0.0 && samples.flow[i] > 0.0,
            "sample {i} (segment {s}, t {t}) is dry"
        );
        assert!(
            surface <= prev + 1e-3,
            "the water rises at sample {i}: {prev} → {surface}"
        );
        assert!(
            prev == f64::INFINITY || prev - surface < 5.0,
            "a step of {} m at {i}",
            prev - surface
        );
        prev = surface;
        if (0.1..0.9).contains(&t) {
            let z = field.level(s as u32, t);
            let depth = f64::from(segs[s].depth);
            assert!(
                (surface - z).abs() <= 1e-3,
                "surface {surface} vs level {z} at {i}"
            );
            assert!(
                (h - (z - depth)).abs() <= 1e-3,
                "floor {h} vs {} at {i}",
                z - depth
            );
            floor_checks += 1;
        }
        if i > 0 {
            length_km +=
                mangekyo_planet::geo::angle_between(dirs[i - 1], dirs[i]) * radius / 1000.0;
        }
        along_km.push(length_km);
        let found = planet
            .space()
            .locate(Projection::TangentCube, 0, LatLon::from_dir(dirs[i]))
            .unwrap();
        chunks.insert((found.address.cx, found.address.cy));
    }
    println!(
        "longest river: {} segments, {length_km:.0} km, {} samples, {} finest-level chunks, \
         from {:.0} m to {:.1} m, {floor_checks} floor checks",
        path.len(),
        dirs.len(),
        chunks.len(),
        segs[path[0]].z_from,
        prev
    );
    assert!(length_km > 1000.0, "{length_km} km");
    assert!(chunks.len() >= 1000, "{} chunks", chunks.len());
    assert!(prev.abs() < 1.0, "it ends at sea level, not {prev}");
    if let Ok(dir) = std::env::var("MANGEKYO_PICTURES") {
        profile_png(
            &along_km,
            &samples.height,
            &samples.water,
            &format!("{dir}/river_profile.png"),
        );
    }
}

/// The walk's profile: ground (brown) and water surface (blue) against
/// distance, 1200 × 400 pixels.
fn profile_png(along_km: &[f64], height: &[f32], water: &[f32], path: &str) {
    let total = along_km.last().copied().unwrap_or(1.0).max(1e-9);
    let (w, h) = (1200usize, 400usize);
    let top = height
        .iter()
        .zip(water)
        .map(|(a, b)| a + b)
        .fold(1.0f32, f32::max);
    let bottom = height.iter().copied().fold(0.0f32, f32::min);
    let mut px = vec![255u8; w * h * 3];
    let y_of = |v: f32| ((top - v) / (top - bottom) * (h - 1) as f32) as usize;
    for (i, (&g, &wt)) in height.iter().zip(water).enumerate() {
        let x = (along_km[i] / total * (w - 1) as f64) as usize;
        let (yg, ys) = (y_of(g), y_of(g + wt));
        for y in yg.min(h - 1)..h {
            px[3 * (y * w + x)..3 * (y * w + x) + 3].copy_from_slice(&[150, 110, 70]);
        }
        for y in ys.min(h - 1)..yg.min(h) {
            px[3 * (y * w + x)..3 * (y * w + x) + 3].copy_from_slice(&[52, 104, 196]);
        }
        px[3 * (ys.min(h - 1) * w + x)..3 * (ys.min(h - 1) * w + x) + 3]
            .copy_from_slice(&[20, 60, 200]);
    }
    let file = std::fs::File::create(path).unwrap();
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w as u32, h as u32);
    enc.set_color(png::ColorType::Rgb);
    enc.write_header().unwrap().write_image_data(&px).unwrap();
}
