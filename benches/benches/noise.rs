//! Noise throughput against the crates users would pick instead, on the same
//! grids, single-threaded: `noise` (noise-rs, f64, permutation tables) and
//! `fastnoise-lite` (f32 scalar, the Rust port of FastNoise Lite).
//!
//! Workloads (issue 21, the grids FastNoise2 was measured on): 2D 256² with
//! step 0.01, 3D 33³ with step 0.05, frequency 1, fBm with lacunarity 2 and
//! gain ½; Perlin and simplex, single octave and fBm (6 octaves in 2D, 3 in
//! 3D). Fairness notes: the competitors are called point by point because
//! that is their API; ours is the grid fill (its hot path) at the best level
//! the CPU has, plus the Perlin rows at each level separately. Noise classes
//! are matched (Perlin with Perlin, simplex with OpenSimplex2 / noise-rs
//! Simplex, cellular F1 with Worley distance); the exact gradient sets differ.
//!
//! The summary at the end prints each row beside both competitors, and the
//! gate of issue 21: 1.1 × FastNoise2's own speed-up over fastnoise-lite,
//! measured on an AVX-512 machine (FastNoise2's C++ cannot be built here).

use criterion::{BenchmarkId, Throughput};
use fastnoise_lite::{CellularReturnType, FastNoiseLite, FractalType, NoiseType};
use mangekyo_bench::{criterion, median_ns, print_ratios};
use mangekyo_core::noise::{
    CellularReturn, Fractal, Grid2, Grid3, Kernel, Level, Noise, NoiseParams,
};
use noise::{Fbm, MultiFractal, NoiseFn, Perlin, Simplex, Worley};
use std::hint::black_box;

const G2: &str = "noise2d_256sq";
const G3: &str = "noise3d_33cube";
const STEP2: f64 = 0.01;
const STEP3: f64 = 0.05;

const GRID2: Grid2 = Grid2 {
    origin: [0.0, 0.0],
    step: [STEP2, STEP2],
    size: [256, 256],
};
const GRID3: Grid3 = Grid3 {
    origin: [0.0, 0.0, 0.0],
    step: [STEP3, STEP3, STEP3],
    size: [33, 33, 33],
};

/// One workload: its name, our kernel, fastnoise-lite's and the octaves
/// (1 means no fractal).
struct Row {
    name: &'static str,
    kernel: Kernel,
    fnl: NoiseType,
    octaves: u32,
    /// FastNoise2 / fastnoise-lite as issue 21 measured it (0 = no gate).
    fn2_ratio: f64,
}

const ROWS2: [Row; 5] = [
    row("fbm6_perlin", Kernel::Perlin, NoiseType::Perlin, 6, 8.6),
    row("perlin", Kernel::Perlin, NoiseType::Perlin, 1, 9.1),
    row(
        "fbm6_simplex",
        Kernel::Simplex,
        NoiseType::OpenSimplex2,
        6,
        10.2,
    ),
    row("simplex", Kernel::Simplex, NoiseType::OpenSimplex2, 1, 9.6),
    row("fbm6_value", Kernel::Value, NoiseType::Value, 6, 0.0),
];
const ROWS3: [Row; 5] = [
    row("fbm3_perlin", Kernel::Perlin, NoiseType::Perlin, 3, 8.0),
    row("perlin", Kernel::Perlin, NoiseType::Perlin, 1, 8.0),
    row(
        "fbm3_simplex",
        Kernel::Simplex,
        NoiseType::OpenSimplex2,
        3,
        12.8,
    ),
    row("simplex", Kernel::Simplex, NoiseType::OpenSimplex2, 1, 10.2),
    row(
        "fbm3_cellular_f1",
        Kernel::Cellular(CellularReturn::F1),
        NoiseType::Cellular,
        3,
        0.0,
    ),
];

const fn row(name: &'static str, kernel: Kernel, fnl: NoiseType, octaves: u32, r: f64) -> Row {
    Row {
        name,
        kernel,
        fnl,
        octaves,
        fn2_ratio: r,
    }
}

fn ours(r: &Row) -> Noise {
    Noise::new(NoiseParams {
        kernel: r.kernel,
        fractal: if r.octaves > 1 {
            Fractal::Fbm
        } else {
            Fractal::None
        },
        octaves: r.octaves,
        frequency: 1.0,
        seed: 1,
        ..NoiseParams::default()
    })
    .unwrap()
}

fn fnl(r: &Row) -> FastNoiseLite {
    let mut n = FastNoiseLite::with_seed(1);
    n.set_noise_type(Some(r.fnl));
    if r.octaves > 1 {
        n.set_fractal_type(Some(FractalType::FBm));
        n.set_fractal_octaves(Some(r.octaves as i32));
        n.set_fractal_lacunarity(Some(2.0));
        n.set_fractal_gain(Some(0.5));
    }
    n.set_frequency(Some(1.0));
    n.set_cellular_return_type(Some(CellularReturnType::Distance));
    n
}

/// noise-rs's matching source (its Fbm has lacunarity 2 and persistence ½).
macro_rules! rs {
    ($r:expr, $d:literal) => {{
        fn one<T>(octaves: u32) -> Box<dyn NoiseFn<f64, $d>>
        where
            T: Default + Clone + noise::Seedable + NoiseFn<f64, $d> + 'static,
        {
            if octaves > 1 {
                Box::new(
                    Fbm::<T>::new(1)
                        .set_octaves(octaves as usize)
                        .set_frequency(1.0),
                )
            } else {
                Box::new(T::default().set_seed(1))
            }
        }
        match $r.kernel {
            Kernel::Perlin => Some(one::<Perlin>($r.octaves)),
            Kernel::Simplex => Some(one::<Simplex>($r.octaves)),
            Kernel::Cellular(_) => Some(one::<Worley>($r.octaves)),
            _ => None,
        }
    }};
}

fn bench_2d(c: &mut criterion::Criterion) {
    let mut g = c.benchmark_group(G2);
    g.throughput(Throughput::Elements(GRID2.len() as u64));
    let mut out = vec![0.0f32; GRID2.len()];
    for r in &ROWS2 {
        let n = ours(r);
        g.bench_function(BenchmarkId::new("mangekyo", r.name), |b| {
            b.iter(|| n.fill2(black_box(&GRID2), &mut out))
        });
        if r.kernel == Kernel::Perlin && r.octaves > 1 {
            for level in Level::supported() {
                g.bench_function(
                    BenchmarkId::new(format!("mangekyo_{level:?}"), r.name),
                    |b| b.iter(|| n.fill2_with(level, black_box(&GRID2), &mut out)),
                );
            }
        }
        let f = fnl(r);
        g.bench_function(BenchmarkId::new("fastnoise_lite", r.name), |b| {
            b.iter(|| {
                for j in 0..256 {
                    for i in 0..256 {
                        let (x, y) = ((i as f64 * STEP2) as f32, (j as f64 * STEP2) as f32);
                        out[j * 256 + i] = f.get_noise_2d(x, y);
                    }
                }
            })
        });
        if let Some(f) = rs!(r, 2) {
            g.bench_function(BenchmarkId::new("noise_rs", r.name), |b| {
                b.iter(|| {
                    for j in 0..256 {
                        for i in 0..256 {
                            out[j * 256 + i] = f.get([i as f64 * STEP2, j as f64 * STEP2]) as f32;
                        }
                    }
                })
            });
        }
    }
    g.finish();
}

fn bench_3d(c: &mut criterion::Criterion) {
    let mut g = c.benchmark_group(G3);
    g.throughput(Throughput::Elements(GRID3.len() as u64));
    let mut out = vec![0.0f32; GRID3.len()];
    for r in &ROWS3 {
        let n = ours(r);
        g.bench_function(BenchmarkId::new("mangekyo", r.name), |b| {
            b.iter(|| n.fill3(black_box(&GRID3), &mut out))
        });
        let f = fnl(r);
        g.bench_function(BenchmarkId::new("fastnoise_lite", r.name), |b| {
            b.iter(|| {
                let mut idx = 0;
                for k in 0..33 {
                    for j in 0..33 {
                        for i in 0..33 {
                            let p = |v: usize| (v as f64 * STEP3) as f32;
                            out[idx] = f.get_noise_3d(p(i), p(j), p(k));
                            idx += 1;
                        }
                    }
                }
            })
        });
        if let Some(f) = rs!(r, 3) {
            g.bench_function(BenchmarkId::new("noise_rs", r.name), |b| {
                b.iter(|| {
                    let mut idx = 0;
                    for k in 0..33 {
                        for j in 0..33 {
                            for i in 0..33 {
                                let p = |v: usize| v as f64 * STEP3;
                                out[idx] = f.get([p(i), p(j), p(k)]) as f32;
                                idx += 1;
                            }
                        }
                    }
                })
            });
        }
    }
    g.finish();
}

/// The issue-21 table: each row's speed-up over fastnoise-lite beside its
/// gate (1.1 × FastNoise2's), and over noise-rs.
fn print_gates(group: &str, samples: f64, rows: &[Row]) {
    println!("\n== {group}: speed-up over fastnoise-lite against the issue-21 gate ==");
    println!(
        "{:>18} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8}",
        "workload", "ours M/s", "fnl M/s", "rs M/s", "x fnl", "gate", "x rs"
    );
    for r in rows {
        let m = |who: &str| median_ns(group, &format!("{who}/{}", r.name));
        let rate = |ns: Option<f64>| ns.map_or(f64::NAN, |t| samples / t * 1e3);
        let (a, b, c) = (m("mangekyo"), m("fastnoise_lite"), m("noise_rs"));
        let ratio = |x: Option<f64>| match (a, x) {
            (Some(a), Some(x)) => x / a,
            _ => f64::NAN,
        };
        let gate = 1.1 * r.fn2_ratio;
        let verdict = match (r.fn2_ratio > 0.0, ratio(b) >= gate) {
            (false, _) => "",
            (true, true) => "meets",
            (true, false) => "SHORT",
        };
        println!(
            "{:>18} {:>9.1} {:>9.1} {:>9.1} {:>8.2} {:>8.2} {:>8.2} {verdict}",
            r.name,
            rate(a),
            rate(b),
            rate(c),
            ratio(b),
            gate,
            ratio(c)
        );
    }
}

fn main() {
    let mut c = criterion();
    bench_2d(&mut c);
    bench_3d(&mut c);
    c.final_summary();
    let levels: Vec<(String, String)> = Level::supported()
        .into_iter()
        .map(|l| {
            (
                format!("mangekyo_{l:?}/fbm6_perlin"),
                "fastnoise_lite/fbm6_perlin".to_string(),
            )
        })
        .collect();
    let p: Vec<(&str, &str)> = levels
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    print_ratios(G2, GRID2.len() as f64, &p);
    print_gates(G2, GRID2.len() as f64, &ROWS2);
    print_gates(G3, GRID3.len() as f64, &ROWS3);
}
