//! Noise throughput against the crates users would pick instead, on the same
//! grids, single-threaded: `noise` (noise-rs, f64, permutation tables) and
//! `fastnoise-lite` (f32 scalar, the Rust port of FastNoise Lite).
//!
//! Workloads (from the foundation issue): 2D fBm, 6 octaves, 256×256; 3D
//! fBm, 3 octaves, 33³. Same frequency, lacunarity 2, gain ½ everywhere.
//! Fairness notes: the competitors are called point by point because that
//! is their API; ours is the grid fill (its hot path) at the best level the
//! CPU has, plus each level separately. Noise classes are matched (Perlin
//! with Perlin, simplex with OpenSimplex2 / noise-rs Simplex, cellular F1
//! with Worley distance); the exact gradient sets differ.

use criterion::{BenchmarkId, Throughput};
use fastnoise_lite::{CellularReturnType, FastNoiseLite, FractalType, NoiseType};
use mangekyo_bench::{criterion, print_ratios};
use mangekyo_core::noise::{
    CellularReturn, Fractal, Grid2, Grid3, Kernel, Level, Noise, NoiseParams,
};
use noise::{Fbm, MultiFractal, NoiseFn, Perlin, Simplex, Worley};
use std::hint::black_box;

const FREQ: f64 = 1.0 / 64.0;

fn ours(kernel: Kernel, octaves: u32) -> Noise {
    Noise::new(NoiseParams {
        kernel,
        fractal: Fractal::Fbm,
        octaves,
        frequency: FREQ,
        seed: 1,
        ..NoiseParams::default()
    })
    .unwrap()
}

fn fnl(kind: NoiseType, octaves: i32) -> FastNoiseLite {
    let mut n = FastNoiseLite::with_seed(1);
    n.set_noise_type(Some(kind));
    n.set_fractal_type(Some(FractalType::FBm));
    n.set_fractal_octaves(Some(octaves));
    n.set_frequency(Some(FREQ as f32));
    n.set_cellular_return_type(Some(CellularReturnType::Distance));
    n
}

fn rs<T: Default + Clone + noise::Seedable>(octaves: usize) -> Fbm<T> {
    Fbm::<T>::new(1).set_octaves(octaves).set_frequency(FREQ)
}

const GRID2: Grid2 = Grid2 {
    origin: [0.0, 0.0],
    step: [1.0, 1.0],
    size: [256, 256],
};
const GRID3: Grid3 = Grid3 {
    origin: [0.0, 0.0, 0.0],
    step: [1.0, 1.0, 1.0],
    size: [33, 33, 33],
};

fn bench_2d(c: &mut criterion::Criterion) {
    let mut g = c.benchmark_group("noise2d_fbm6_256sq");
    g.throughput(Throughput::Elements(GRID2.len() as u64));
    let mut out = vec![0.0f32; GRID2.len()];
    for (name, kernel) in [
        ("perlin", Kernel::Perlin),
        ("simplex", Kernel::Simplex),
        ("value", Kernel::Value),
    ] {
        let n = ours(kernel, 6);
        g.bench_function(BenchmarkId::new("mangekyo", name), |b| {
            b.iter(|| n.fill2(black_box(&GRID2), &mut out))
        });
        if kernel == Kernel::Perlin {
            for level in Level::supported() {
                g.bench_function(BenchmarkId::new(format!("mangekyo_{level:?}"), name), |b| {
                    b.iter(|| n.fill2_with(level, black_box(&GRID2), &mut out))
                });
            }
        }
    }
    for (name, kind) in [
        ("perlin", NoiseType::Perlin),
        ("simplex", NoiseType::OpenSimplex2),
        ("value", NoiseType::Value),
    ] {
        let n = fnl(kind, 6);
        g.bench_function(BenchmarkId::new("fastnoise_lite", name), |b| {
            b.iter(|| {
                for j in 0..256 {
                    for i in 0..256 {
                        out[j * 256 + i] = n.get_noise_2d(i as f32, j as f32);
                    }
                }
            })
        });
    }
    let perlin = rs::<Perlin>(6);
    let simplex = rs::<Simplex>(6);
    let sample2 = |f: &dyn NoiseFn<f64, 2>, out: &mut [f32]| {
        for j in 0..256 {
            for i in 0..256 {
                out[j * 256 + i] = f.get([i as f64, j as f64]) as f32;
            }
        }
    };
    g.bench_function(BenchmarkId::new("noise_rs", "perlin"), |b| {
        b.iter(|| sample2(&perlin, &mut out))
    });
    g.bench_function(BenchmarkId::new("noise_rs", "simplex"), |b| {
        b.iter(|| sample2(&simplex, &mut out))
    });
    g.finish();
}

fn bench_3d(c: &mut criterion::Criterion) {
    let mut g = c.benchmark_group("noise3d_fbm3_33cube");
    g.throughput(Throughput::Elements(GRID3.len() as u64));
    let mut out = vec![0.0f32; GRID3.len()];
    let kernels = [
        ("perlin", Kernel::Perlin),
        ("simplex", Kernel::Simplex),
        ("cellular_f1", Kernel::Cellular(CellularReturn::F1)),
    ];
    for (name, kernel) in kernels {
        let n = ours(kernel, 3);
        g.bench_function(BenchmarkId::new("mangekyo", name), |b| {
            b.iter(|| n.fill3(black_box(&GRID3), &mut out))
        });
    }
    let fnl_kinds = [
        ("perlin", NoiseType::Perlin),
        ("simplex", NoiseType::OpenSimplex2),
        ("cellular_f1", NoiseType::Cellular),
    ];
    for (name, kind) in fnl_kinds {
        let n = fnl(kind, 3);
        g.bench_function(BenchmarkId::new("fastnoise_lite", name), |b| {
            b.iter(|| {
                let mut idx = 0;
                for k in 0..33 {
                    for j in 0..33 {
                        for i in 0..33 {
                            out[idx] = n.get_noise_3d(i as f32, j as f32, k as f32);
                            idx += 1;
                        }
                    }
                }
            })
        });
    }
    let sample3 = |f: &dyn NoiseFn<f64, 3>, out: &mut [f32]| {
        let mut idx = 0;
        for k in 0..33 {
            for j in 0..33 {
                for i in 0..33 {
                    out[idx] = f.get([i as f64, j as f64, k as f64]) as f32;
                    idx += 1;
                }
            }
        }
    };
    let perlin = rs::<Perlin>(3);
    let simplex = rs::<Simplex>(3);
    let worley = rs::<Worley>(3);
    g.bench_function(BenchmarkId::new("noise_rs", "perlin"), |b| {
        b.iter(|| sample3(&perlin, &mut out))
    });
    g.bench_function(BenchmarkId::new("noise_rs", "simplex"), |b| {
        b.iter(|| sample3(&simplex, &mut out))
    });
    g.bench_function(BenchmarkId::new("noise_rs", "cellular_f1"), |b| {
        b.iter(|| sample3(&worley, &mut out))
    });
    g.finish();
}

fn main() {
    let mut c = criterion();
    bench_2d(&mut c);
    bench_3d(&mut c);
    c.final_summary();
    let g2 = "noise2d_fbm6_256sq";
    let mut pairs2 = vec![];
    for k in ["perlin", "simplex", "value"] {
        pairs2.push((format!("mangekyo/{k}"), format!("fastnoise_lite/{k}")));
        if k != "value" {
            pairs2.push((format!("mangekyo/{k}"), format!("noise_rs/{k}")));
        }
    }
    for level in Level::supported() {
        pairs2.push((
            format!("mangekyo_{level:?}/perlin"),
            "fastnoise_lite/perlin".to_string(),
        ));
    }
    let p2: Vec<(&str, &str)> = pairs2
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    print_ratios(g2, GRID2.len() as f64, &p2);
    let mut pairs3 = vec![];
    for k in ["perlin", "simplex", "cellular_f1"] {
        pairs3.push((format!("mangekyo/{k}"), format!("fastnoise_lite/{k}")));
        pairs3.push((format!("mangekyo/{k}"), format!("noise_rs/{k}")));
    }
    let p3: Vec<(&str, &str)> = pairs3
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    print_ratios("noise3d_fbm3_33cube", GRID3.len() as f64, &p3);
}
