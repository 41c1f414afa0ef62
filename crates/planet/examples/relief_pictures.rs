//! Issue 35's pictures, before (version 4) and after (the next version),
//! for seed 42: the whole planet (the height preview, hill-shaded), and a
//! lod-6 chunk's worth of ground (256² samples 96 m apart, 24.6 km)
//! around each planet's highest point, hill-shaded with hypsometric
//! tints, the massif around it (256² samples 800 m apart), and a warm
//! coast at lod 6 coloured by biome (beaches are the pale strip). Slopes
//! are exaggerated 3× in the shading. This is an edge (it writes files); the planet is pure.
//!
//! `cargo run -p mangekyo-planet --release --example relief_pictures [out_dir]`

use mangekyo_planet::geo::fibonacci_sphere;
use mangekyo_planet::view::PreviewLayer;
use mangekyo_planet::{Dir, LatLon, Layers, Planet, PlanetParams, Version};

mod common;
use common::{out_dir, write_png};
#[path = "common/ground.rs"]
mod ground;
use ground::{tangents, unit, write_ground};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = out_dir()?;
    let survey = fibonacci_sphere(200_000);
    for (name, version) in [("v4", Version::V4), ("next", Version::Next)] {
        let planet = Planet::new(PlanetParams {
            generator_version: version,
            ..PlanetParams::default()
        })?;
        let img = planet.preview(1024, PreviewLayer::Height, &|_| {})?;
        write_png(
            &out.join(format!("relief_{name}_planet.png")),
            img.width,
            img.height,
            &img.pixels,
        )?;
        let h = planet.sample_dirs(&survey, 2000.0, Layers::HEIGHT)?.height;
        let top = (0..h.len())
            .max_by(|&a, &b| h[a].total_cmp(&h[b]))
            .unwrap_or(0);
        let ll = LatLon::from_dir(survey[top]);
        println!(
            "{name}: highest of the survey {:.0} m at {:.2}, {:.2}",
            h[top], ll.lat, ll.lon
        );
        write_ground(
            &planet,
            survey[top],
            96.0,
            false,
            &out.join(format!("relief_{name}_mountain_lod6.png")),
        )?;
        // The massif around it: 256² samples 800 m apart (205 km).
        write_ground(
            &planet,
            survey[top],
            800.0,
            false,
            &out.join(format!("relief_{name}_massif.png")),
        )?;
        // A warm coast: the first survey point within 20 m of sea level
        // between 35°S and 35°N with sea and land 3 km from it, its
        // biomes over 24.6 km at lod 6.
        let radius = planet.params().radius;
        let coast = (0..h.len())
            .filter(|&i| h[i].abs() < 20.0 && survey[i][2].abs() < 0.57)
            .find(|&i| {
                let c = survey[i];
                let ring: Vec<Dir> = (0..8)
                    .map(|k| {
                        let a = f64::from(k) * std::f64::consts::FRAC_PI_4;
                        let (e, n) = tangents(c);
                        let s = 3000.0 / radius;
                        let (x, y) = (s * libm::cos(a), s * libm::sin(a));
                        unit([0, 1, 2].map(|j| c[j] + x * e[j] + y * n[j]))
                    })
                    .collect();
                let around = planet.sample_dirs(&ring, 2000.0, Layers::HEIGHT).unwrap();
                around.height.iter().any(|&h| h < 0.0) && around.height.iter().any(|&h| h > 0.0)
            })
            .unwrap_or(0);
        let ll = LatLon::from_dir(survey[coast]);
        println!("{name}: a coast at {:.2}, {:.2}", ll.lat, ll.lon);
        write_ground(
            &planet,
            survey[coast],
            96.0,
            true,
            &out.join(format!("relief_{name}_coast_lod6.png")),
        )?;
    }
    Ok(())
}
