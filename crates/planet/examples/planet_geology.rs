//! Pictures of the default version-2 planet for docs/images: elevation
//! (equirectangular, hypsometric tints with hill shading), plates with
//! their boundaries coloured by type, and the elevation histogram over
//! 10⁶ Fibonacci points. This is an edge (it writes files); the planet
//! functions it calls are pure.
//!
//! `cargo run -p mangekyo-planet --release --example planet_geology [out_dir]`

use mangekyo_planet::view::PreviewLayer;
use mangekyo_planet::{BoundaryKind, Dir, LatLon, Layers, Planet, PlanetParams};

mod common;
use common::{out_dir, write_png};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = out_dir()?;
    let planet = Planet::new(PlanetParams::default())?;
    let plates = planet.plates().ok_or("version 2 planets have plates")?;
    let radius = planet.params().radius;

    // Elevation.
    let width = 1440u32;
    let img = planet.preview(width, PreviewLayer::Height, &|_| {})?;
    write_png(
        &out.join("planet_v2_elevation.png"),
        img.width,
        img.height,
        &img.pixels,
    )?;

    // Plates: a colour per plate (darker at sea), boundaries by type.
    let (w, h) = (1440usize, 720usize);
    let dirs: Vec<Dir> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| {
            LatLon {
                lat: 90.0 - (y as f64 + 0.5) * 180.0 / h as f64,
                lon: -180.0 + (x as f64 + 0.5) * 360.0 / w as f64,
            }
            .to_dir()
        })
        .collect();
    let spacing = 2.0 * std::f64::consts::PI * radius / w as f64;
    let heights = planet.sample_dirs(&dirs, spacing, Layers::HEIGHT)?.height;
    let q = plates.warped(&dirs, radius, mangekyo_planet::geology::Level::best());
    let located: Vec<_> = q.iter().map(|&q| plates.locate(q)).collect();
    let mut rgb = vec![0u8; w * h * 3];
    for i in 0..w * h {
        let k = located[i].plate as u64;
        let hsh = mangekyo_core::hash::mix64(k.wrapping_add(7));
        let base = [
            (hsh & 0xff) as f32,
            ((hsh >> 8) & 0xff) as f32,
            ((hsh >> 16) & 0xff) as f32,
        ];
        let shade = if heights[i] > 0.0 { 1.0 } else { 0.45 };
        let mut c = base.map(|v| (60.0 + 0.7 * v) * shade);
        let (x, y) = (i % w, i / w);
        let right = y * w + (x + 1) % w;
        let below = if y + 1 < h { i + w } else { i };
        if located[right].plate != located[i].plate || located[below].plate != located[i].plate {
            c = match located[i].kind() {
                BoundaryKind::Convergent => [235.0, 40.0, 30.0],
                BoundaryKind::Divergent => [40.0, 200.0, 255.0],
                BoundaryKind::Transform => [255.0, 230.0, 40.0],
            };
        }
        for a in 0..3 {
            rgb[3 * i + a] = c[a].clamp(0.0, 255.0) as u8;
        }
    }
    write_png(&out.join("planet_v2_plates.png"), w as u32, h as u32, &rgb)?;

    // Histogram over 10⁶ Fibonacci points at the graph's scale (20 km).
    let k = 1_000_000usize;
    let golden = std::f64::consts::PI * (3.0 - 5.0f64.sqrt());
    let fib: Vec<Dir> = (0..k)
        .map(|i| {
            let z = 1.0 - (2.0 * i as f64 + 1.0) / k as f64;
            let r = (1.0 - z * z).sqrt();
            let a = golden * i as f64;
            [r * libm::cos(a), r * libm::sin(a), z]
        })
        .collect();
    let hs = planet.sample_dirs(&fib, 20_000.0, Layers::HEIGHT)?.height;
    let (lo, bin, nb) = (-11_000.0f32, 250.0f32, 80usize);
    let mut bins = vec![0usize; nb];
    for &x in &hs {
        bins[((x - lo) / bin).floor().clamp(0.0, (nb - 1) as f32) as usize] += 1;
    }
    let land = hs.iter().filter(|&&x| x > 0.0).count() as f64 / k as f64;
    let sea = ((0.0 - lo) / bin) as usize;
    let ocean_mode = (0..sea).max_by_key(|&b| bins[b]).unwrap_or(0);
    let land_mode = (sea..nb).max_by_key(|&b| bins[b]).unwrap_or(sea);
    println!(
        "histogram of {k} points: land {:.1} %, ocean mode {} m, land mode {} m (bins of {bin} m, centres)",
        100.0 * land,
        lo + (ocean_mode as f32 + 0.5) * bin,
        lo + (land_mode as f32 + 0.5) * bin
    );
    let (hw, hh) = (nb * 10, 400usize);
    let top = *bins.iter().max().unwrap_or(&1) as f64;
    let mut img = vec![255u8; hw * hh * 3];
    for (b, &count) in bins.iter().enumerate() {
        let bar = ((count as f64 / top) * (hh - 20) as f64) as usize;
        let colour = if b >= sea {
            [60, 140, 60]
        } else {
            [40, 90, 200]
        };
        for y in hh - bar..hh {
            for x in b * 10 + 1..b * 10 + 9 {
                img[3 * (y * hw + x)..3 * (y * hw + x) + 3].copy_from_slice(&colour);
            }
        }
    }
    // Grid lines every 1 km (black at sea level).
    for km in -11..=9 {
        let x = ((km as f32 * 1000.0 - lo) / bin * 10.0) as usize;
        if x < hw {
            let v = if km == 0 { 0 } else { 200 };
            for y in 0..hh {
                img[3 * (y * hw + x)..3 * (y * hw + x) + 3].copy_from_slice(&[v, v, v]);
            }
        }
    }
    write_png(
        &out.join("planet_v2_histogram.png"),
        hw as u32,
        hh as u32,
        &img,
    )?;
    Ok(())
}
