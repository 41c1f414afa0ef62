//! Time per pyramid tile (257 × 257 samples, the globe's layers) at levels
//! 0, 5, 10 and the finest, single-threaded, on the default planet
//! (version 4, tier computed before timing) and on the version-1 stack;
//! and per CesiumJS terrain tile (65 × 65, quantized-mesh with normals).
//!
//! The pyramid keeps only the octaves a level's spacing resolves, so a
//! coarse tile should cost about what a fine one does: the run prints each
//! level's median against the fastest level's (the budget is ≤ 2×).
//!
//! The tiles sit over the same mountain belt (lat 10°, lon 20°) at every
//! level, so the ridge layer is evaluated on most samples.

use criterion::{BenchmarkId, Throughput};
use mangekyo_bench::{criterion, median_ns};
use mangekyo_planet::{FaceTile, GeoTile, LatLon, Layers, Planet, PlanetParams};
use std::hint::black_box;

const AT: LatLon = LatLon {
    lat: 10.0,
    lon: 20.0,
};

fn bench_pyramid(c: &mut criterion::Criterion) {
    let v4 = Planet::new(PlanetParams::default()).unwrap();
    v4.coarse_tier().unwrap();
    let v1 = Planet::new(PlanetParams {
        generator_version: mangekyo_planet::Version::V1,
        ..PlanetParams::default()
    })
    .unwrap();
    let finest = v4.space().pyramid_max_level();
    let levels = [0, 5, 10, finest];
    let mut g = c.benchmark_group("pyramid_tile_257sq");
    g.throughput(Throughput::Elements(257 * 257));
    for (name, planet, layers) in [
        (
            "v4",
            &v4,
            Layers {
                height: true,
                biome: true,
                water: true,
                ..Layers::NONE
            },
        ),
        (
            "v1",
            &v1,
            Layers {
                height: true,
                biome: true,
                ..Layers::NONE
            },
        ),
    ] {
        for level in levels {
            let tile = FaceTile::at(AT.to_dir(), level);
            g.bench_function(BenchmarkId::new(name, format!("level{level}")), |b| {
                b.iter(|| planet.sample_face_tile(black_box(&tile), layers).unwrap())
            });
        }
    }
    g.finish();
    let mut t = c.benchmark_group("terrain_tile_65sq");
    t.throughput(Throughput::Elements(65 * 65));
    for z in [0, 6, 12, v4.geo_max_level()] {
        let rows = 1u64 << z;
        let x = (((AT.lon + 180.0) / 360.0 * (2 * rows) as f64) as u32).min(2 * rows as u32 - 1);
        let y = (((AT.lat + 90.0) / 180.0 * rows as f64) as u32).min(rows as u32 - 1);
        let tile = GeoTile { z, x, y };
        t.bench_function(
            BenchmarkId::new("v4_quantized_mesh", format!("z{z}")),
            |b| b.iter(|| mangekyo_formats::terrain::encode(&v4, black_box(&tile), true).unwrap()),
        );
    }
    t.finish();
    println!("\n== pyramid_tile_257sq: median per level, and against the fastest level ==");
    for name in ["v4", "v1"] {
        let medians: Vec<(u32, f64)> = levels
            .iter()
            .filter_map(|&l| {
                median_ns("pyramid_tile_257sq", &format!("{name}/level{l}")).map(|m| (l, m))
            })
            .collect();
        let fastest = medians.iter().map(|m| m.1).fold(f64::INFINITY, f64::min);
        for (l, m) in &medians {
            println!(
                "  {name} level {l:>2}: {:>8.2} ms  x{:.2} of the fastest level",
                m / 1e6,
                m / fastest
            );
        }
    }
}

fn main() {
    let mut c = criterion();
    bench_pyramid(&mut c);
    c.final_summary();
}
