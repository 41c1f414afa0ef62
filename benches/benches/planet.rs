//! Time per 256 × 256 planet chunk, single-threaded (per core), at full
//! detail (lod 0, 1.5 m samples on the default Earth-sized planet) and at
//! coarse levels, against the same planet function built on noise-rs.
//!
//! Fairness: the comparison runs *our whole planet function* (projection,
//! layer structure, masks, climate, biomes) with only the noise swapped,
//! through [`NoiseBackend`]: the noise-rs backend evaluates the same
//! octaves (same frequencies, amplitudes, fractal sums, normalisation and
//! the continent layer's domain warp) with `noise::Perlin`, point by point
//! because that is its API. Octaves finer than the sample spacing are
//! skipped identically in both. The gradient sets and hashes differ, so
//! the two planets look alike but are not the same bits.
//!
//! Chunks: a mountain chunk (lat 10°, lon 20°: ridges evaluated on every
//! sample, the worst case) and a lowland coast chunk, tangent cube.

use criterion::{BenchmarkId, Throughput};
use mangekyo_bench::{criterion, print_ratios};
use mangekyo_core::noise::{Fractal, Noise};
use mangekyo_planet::layers::{Layer, NoiseBackend, Positions};
use mangekyo_planet::{ChunkRequest, Edge, LatLon, Layers, Planet, PlanetParams, Projection};
use noise::{NoiseFn, Perlin};
use std::hint::black_box;

/// One fractal layer rebuilt on noise-rs.
struct RsFractal {
    octaves: Vec<(Perlin, f64, f64)>,
    norm: f64,
    fractal: Fractal,
    warp: Option<(f64, [Box<RsFractal>; 3])>,
}

impl RsFractal {
    fn from(noise: &Noise, salt: u32) -> RsFractal {
        let p = noise.params();
        let mut amp = 1.0f64;
        let mut total = 0.0;
        let octaves = noise
            .octave_frequencies()
            .enumerate()
            .map(|(k, f)| {
                let o = (
                    Perlin::new(salt.wrapping_mul(977).wrapping_add(k as u32)),
                    f,
                    amp,
                );
                total += amp;
                amp *= f64::from(p.gain);
                o
            })
            .collect();
        let warp = p.warp.map(|w| {
            let axis = |a: u32| {
                let mut amp = 1.0;
                let mut total = 0.0;
                let octaves = (0..w.octaves)
                    .map(|k| {
                        let o = (
                            Perlin::new(salt ^ (0x5741_0000 + a * 64 + k)),
                            w.frequency * f64::from(1u32 << k),
                            amp,
                        );
                        total += amp;
                        amp *= 0.5;
                        o
                    })
                    .collect();
                Box::new(RsFractal {
                    octaves,
                    norm: 1.0 / total,
                    fractal: Fractal::Fbm,
                    warp: None,
                })
            };
            (w.amplitude, [axis(0), axis(1), axis(2)])
        });
        RsFractal {
            octaves,
            norm: 1.0 / total,
            fractal: p.fractal,
            warp,
        }
    }

    fn get(&self, count: usize, mut p: [f64; 3]) -> f64 {
        if let Some((amplitude, axes)) = &self.warp {
            let d = axes.each_ref().map(|a| a.get(usize::MAX, p));
            p = [
                p[0] + amplitude * d[0],
                p[1] + amplitude * d[1],
                p[2] + amplitude * d[2],
            ];
        }
        let mut acc = 0.0;
        for (perlin, f, a) in self.octaves.iter().take(count) {
            let n = perlin.get([p[0] * f, p[1] * f, p[2] * f]);
            acc += match self.fractal {
                Fractal::Ridged => a * (1.0 - n.abs()) * (1.0 - n.abs()),
                Fractal::Billow => a * (2.0 * n.abs() - 1.0),
                _ => a * n,
            };
        }
        match self.fractal {
            Fractal::Ridged => acc * self.norm * 2.0 - 1.0,
            _ => acc * self.norm,
        }
    }
}

/// The planet's layers on noise-rs.
struct NoiseRs {
    layers: Vec<RsFractal>,
}

impl NoiseRs {
    fn new(planet: &Planet) -> NoiseRs {
        NoiseRs {
            layers: Layer::ALL
                .iter()
                .enumerate()
                .map(|(i, &l)| RsFractal::from(planet.layer_noise(l), i as u32 + 1))
                .collect(),
        }
    }
}

impl NoiseBackend for NoiseRs {
    fn fill(&self, layer: Layer, octaves: usize, pos: Positions<'_>, out: &mut [f32]) {
        let l = &self.layers[Layer::ALL.iter().position(|&x| x == layer).unwrap_or(0)];
        for (i, o) in out.iter_mut().enumerate() {
            *o = l.get(octaves, [pos.x[i], pos.y[i], pos.z[i]]) as f32;
        }
    }
}

/// Where chunks are timed: a mountain belt and a lowland of the default planet.
const SPOTS: [(&str, LatLon); 2] = [
    (
        "mountain",
        LatLon {
            lat: 10.0,
            lon: 20.0,
        },
    ),
    (
        "lowland",
        LatLon {
            lat: 47.0,
            lon: 96.0,
        },
    ),
];

fn bench_chunks(c: &mut criterion::Criterion) {
    // The version-1 stack: what the noise-library comparison is about.
    let planet = Planet::new(PlanetParams {
        generator_version: mangekyo_planet::Version::V1,
        ..PlanetParams::default()
    })
    .unwrap();
    let rs = NoiseRs::new(&planet);
    let mut g = c.benchmark_group("planet_chunk_256sq");
    g.throughput(Throughput::Elements(256 * 256));
    let mut pairs = Vec::new();
    for (place, at) in SPOTS {
        for (lod, layers, what) in [
            (0, Layers::ALL, "all"),
            (0, Layers::HEIGHT, "height"),
            (6, Layers::ALL, "all"),
            (9, Layers::ALL, "all"),
        ] {
            if place == "lowland" && what == "height" {
                continue;
            }
            let address = planet
                .space()
                .locate(Projection::TangentCube, lod, at)
                .unwrap()
                .address;
            let req = ChunkRequest {
                address,
                edge: Edge::Exclusive,
                layers,
            };
            let id = format!("{place}_lod{lod}_{what}");
            g.bench_function(BenchmarkId::new("mangekyo", &id), |b| {
                b.iter(|| planet.sample_chunk(black_box(&req)).unwrap())
            });
            g.bench_function(BenchmarkId::new("noise_rs", &id), |b| {
                b.iter(|| planet.sample_chunk_with(&rs, black_box(&req)).unwrap())
            });
            pairs.push((format!("mangekyo/{id}"), format!("noise_rs/{id}")));
        }
    }
    g.finish();
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    print_ratios("planet_chunk_256sq", 65536.0, &pairs);
    let d0 = planet.detail_at_lod(0);
    let d9 = planet.detail_at_lod(9);
    println!("\noctaves kept per layer (lod 0 / lod 9):");
    for l in Layer::ALL {
        println!(
            "  {:<12} {:>2} / {:>2}",
            l.name(),
            d0.octaves(l),
            d9.octaves(l)
        );
    }
}

/// A next-version chunk (version 4's stages with issue 35's: joined
/// plate boundaries, the shore strip's extra samples), a version-4 chunk (all layers: version 3's and the climate read off
/// the tier, with blended biomes) and a version-3 chunk (the tectonic
/// surface, the erosion's change interpolated from the coarse tier, rivers
/// and lakes carved) against version-2 (the same surface without water)
/// and version-1 chunks at the same place (the budget is ≤ 1.5× version
/// 1). The tiers are computed once before timing (a server caches them).
fn bench_water_chunks(c: &mut criterion::Criterion) {
    let v1 = Planet::new(PlanetParams {
        generator_version: mangekyo_planet::Version::V1,
        ..PlanetParams::default()
    })
    .unwrap();
    let v2 = Planet::new(PlanetParams {
        generator_version: mangekyo_planet::Version::V2,
        ..PlanetParams::default()
    })
    .unwrap();
    let v3 = Planet::new(PlanetParams {
        generator_version: mangekyo_planet::Version::V3,
        ..PlanetParams::default()
    })
    .unwrap();
    v3.coarse_tier().unwrap();
    let v4 = Planet::new(PlanetParams::default()).unwrap();
    v4.coarse_tier().unwrap();
    let next = Planet::new(PlanetParams {
        generator_version: mangekyo_planet::Version::Next,
        ..PlanetParams::default()
    })
    .unwrap();
    next.coarse_tier().unwrap();
    let mut g = c.benchmark_group("planet_chunk_water_256sq");
    g.throughput(Throughput::Elements(256 * 256));
    let mut pairs = Vec::new();
    for (place, at) in SPOTS {
        for lod in [0, 9] {
            let address = v3
                .space()
                .locate(Projection::TangentCube, lod, at)
                .unwrap()
                .address;
            let id = format!("{place}_lod{lod}_all");
            for (name, planet) in [
                ("next", &next),
                ("v4", &v4),
                ("v3", &v3),
                ("v2", &v2),
                ("v1", &v1),
            ] {
                let req = ChunkRequest {
                    address,
                    edge: Edge::Exclusive,
                    layers: planet.version().layers(),
                };
                g.bench_function(BenchmarkId::new(name, &id), |b| {
                    b.iter(|| planet.sample_chunk(black_box(&req)).unwrap())
                });
            }
            pairs.push((format!("next/{id}"), format!("v4/{id}")));
            pairs.push((format!("next/{id}"), format!("v1/{id}")));
            pairs.push((format!("v4/{id}"), format!("v3/{id}")));
            pairs.push((format!("v4/{id}"), format!("v1/{id}")));
            pairs.push((format!("v3/{id}"), format!("v1/{id}")));
            pairs.push((format!("v3/{id}"), format!("v2/{id}")));
        }
    }
    g.finish();
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    print_ratios("planet_chunk_water_256sq", 65536.0, &pairs);
}

fn main() {
    let mut c = criterion();
    bench_chunks(&mut c);
    bench_water_chunks(&mut c);
    c.final_summary();
}
