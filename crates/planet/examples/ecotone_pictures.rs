//! Issue 36's ecotone pictures for seed 42: the border between two biomes
//! at 768, 96, 12 and 1.5 m per sample, hill-shaded and coloured by biome,
//! in version 4 (a hash per 12 m cell: speckle, then squares at the ground)
//! and in the next version (a smooth field's contours). The two versions'
//! continents lie in different places, so each is shown at one of its own
//! ecotones (found by scanning lod-6 chunks for samples whose two
//! strongest biome weights are close).
//! This is an edge (it writes files); the planet is pure.
//!
//! `cargo run -p mangekyo-planet --release --example ecotone_pictures [out_dir]`

use mangekyo_planet::{Dir, LatLon, Layers, Planet, PlanetParams, Version};

mod common;
use common::out_dir;
#[path = "common/ground.rs"]
mod ground;
use ground::write_ground;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = out_dir()?;
    for (name, version, at) in [
        (
            "v4",
            Version::V4,
            LatLon {
                lat: -45.0,
                lon: -20.0,
            },
        ),
        (
            "next",
            Version::Next,
            LatLon {
                lat: -30.0,
                lon: -20.0,
            },
        ),
    ] {
        let planet = Planet::new(PlanetParams {
            generator_version: version,
            ..PlanetParams::default()
        })?;
        planet.coarse_tier()?;
        let centre = at.to_dir();
        let border = border_near(&planet, centre)?;
        for spacing in [768.0, 96.0, 12.0, 1.5] {
            let at = if spacing < 100.0 { border } else { centre };
            write_ground(
                &planet,
                at,
                spacing,
                true,
                &out.join(format!("ecotone_{name}_{spacing}m.png")),
            )?;
        }
    }
    Ok(())
}

/// The nearest change of biome along four lines from `centre` (east,
/// west, north, south; 12 m steps, up to 6 km), so the finest pictures
/// show a border; `centre` if none.
fn border_near(planet: &Planet, centre: Dir) -> Result<Dir, Box<dyn std::error::Error>> {
    let r = planet.params().radius;
    let (east, north) = ground::tangents(centre);
    let mut best: Option<(usize, Dir)> = None;
    for (t, sign) in [(east, 1.0), (east, -1.0), (north, 1.0), (north, -1.0)] {
        let dirs: Vec<Dir> = (0..512)
            .map(|k| {
                let a = sign * f64::from(k) * 12.0 / r;
                ground::unit([0, 1, 2].map(|i| centre[i] + a * t[i]))
            })
            .collect();
        let biome = planet.sample_dirs(&dirs, 12.0, Layers::ALL)?.biome;
        if let Some(k) = (1..dirs.len()).find(|&k| biome[k] != biome[k - 1])
            && best.is_none_or(|b| k < b.0)
        {
            best = Some((k, dirs[k]));
        }
    }
    Ok(best.map_or(centre, |b| b.1))
}
