//! The issue-21 rows timed best-of-N, ours and fastnoise-lite interleaved
//! rep by rep in one process: on a shared machine the minimum of many
//! short runs is the uncontended time, and interleaving exposes both
//! sides to the same load, so the ratio is steadier than two criterion
//! medians taken minutes apart. Arguments: `--reps N` (default 25),
//! `--level NAME` (ours at that level instead of the best), `--only TEXT`
//! (the rows whose name contains it), `--hash hash1|hash2` (the lattice
//! hash; default hash 2, noise version 2's).

use fastnoise_lite::{FastNoiseLite, FractalType, NoiseType};
use mangekyo_core::noise::{Fractal, Grid2, Grid3, Kernel, LatticeHash, Level, Noise, NoiseParams};
use std::hint::black_box;
use std::time::Instant;

/// Name, kernel, fastnoise-lite's type, octaves, dimensions, FN2/fnl ratio.
const ROWS: [(&str, Kernel, NoiseType, u32, u32, f64); 8] = [
    (
        "2D fbm6_perlin",
        Kernel::Perlin,
        NoiseType::Perlin,
        6,
        2,
        8.6,
    ),
    ("2D perlin", Kernel::Perlin, NoiseType::Perlin, 1, 2, 9.1),
    (
        "2D fbm6_simplex",
        Kernel::Simplex,
        NoiseType::OpenSimplex2,
        6,
        2,
        10.2,
    ),
    (
        "2D simplex",
        Kernel::Simplex,
        NoiseType::OpenSimplex2,
        1,
        2,
        9.6,
    ),
    (
        "3D fbm3_perlin",
        Kernel::Perlin,
        NoiseType::Perlin,
        3,
        3,
        8.0,
    ),
    ("3D perlin", Kernel::Perlin, NoiseType::Perlin, 1, 3, 8.0),
    (
        "3D fbm3_simplex",
        Kernel::Simplex,
        NoiseType::OpenSimplex2,
        3,
        3,
        12.8,
    ),
    (
        "3D simplex",
        Kernel::Simplex,
        NoiseType::OpenSimplex2,
        1,
        3,
        10.2,
    ),
];

fn best(reps: usize, mut f: impl FnMut()) -> f64 {
    (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let reps = args
        .iter()
        .position(|a| a == "--reps")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(25usize);
    // `--level NAME` (scalar, sse2, avx2, avx512…) times ours at that
    // level instead of the best the CPU has.
    let level = match args.iter().position(|a| a == "--level") {
        Some(i) => {
            let name = args.get(i + 1).map_or("", String::as_str);
            let level: Level = serde_json::from_value(serde_json::Value::from(name))
                .unwrap_or_else(|_| panic!("--level: no level named {name:?}"));
            assert!(
                level.is_supported(),
                "--level: {name} is not supported here"
            );
            level
        }
        None => Level::best(),
    };
    let hash = match args.iter().position(|a| a == "--hash") {
        Some(i) => {
            let name = args.get(i + 1).map_or("", String::as_str);
            serde_json::from_value(serde_json::Value::from(name))
                .unwrap_or_else(|_| panic!("--hash: no hash named {name:?} (hash1, hash2)"))
        }
        None => LatticeHash::Hash2,
    };
    println!("ours at {level:?}, {hash:?}");
    // `--only TEXT` runs the rows whose name contains it (for profiling).
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map_or("", String::as_str);
    let g2 = Grid2 {
        origin: [0.0, 0.0],
        step: [0.01, 0.01],
        size: [256, 256],
    };
    let g3 = Grid3 {
        origin: [0.0, 0.0, 0.0],
        step: [0.05, 0.05, 0.05],
        size: [33, 33, 33],
    };
    println!(
        "{:>16} {:>9} {:>9} {:>7} {:>6}  (best of {reps}, interleaved)",
        "workload", "ours M/s", "fnl M/s", "x fnl", "gate"
    );
    for (name, kernel, fnl_type, octaves, dims, fn2) in ROWS {
        if !name.contains(only) {
            continue;
        }
        let ours = Noise::new(NoiseParams {
            kernel,
            fractal: if octaves > 1 {
                Fractal::Fbm
            } else {
                Fractal::None
            },
            octaves,
            frequency: 1.0,
            seed: 1,
            hash,
            ..NoiseParams::default()
        })
        .unwrap();
        let mut fnl = FastNoiseLite::with_seed(1);
        fnl.set_noise_type(Some(fnl_type));
        if octaves > 1 {
            fnl.set_fractal_type(Some(FractalType::FBm));
            fnl.set_fractal_octaves(Some(octaves as i32));
            fnl.set_fractal_lacunarity(Some(2.0));
            fnl.set_fractal_gain(Some(0.5));
        }
        fnl.set_frequency(Some(1.0));
        let n = if dims == 2 { g2.len() } else { g3.len() };
        let mut out = vec![0.0f32; n];
        let (mut a, mut b) = (f64::MAX, f64::MAX);
        for _ in 0..reps {
            a = a.min(best(1, || {
                if dims == 2 {
                    ours.fill2_with(level, black_box(&g2), &mut out)
                } else {
                    ours.fill3_with(level, black_box(&g3), &mut out)
                }
            }));
            b = b.min(best(1, || {
                if dims == 2 {
                    for j in 0..256 {
                        for i in 0..256 {
                            let (x, y) = ((i as f64 * 0.01) as f32, (j as f64 * 0.01) as f32);
                            out[j * 256 + i] = fnl.get_noise_2d(x, y);
                        }
                    }
                } else {
                    let mut idx = 0;
                    for k in 0..33 {
                        for j in 0..33 {
                            for i in 0..33 {
                                let p = |v: usize| (v as f64 * 0.05) as f32;
                                out[idx] = fnl.get_noise_3d(p(i), p(j), p(k));
                                idx += 1;
                            }
                        }
                    }
                }
            }));
            black_box(&out);
        }
        let (ra, rb) = (n as f64 / a / 1e6, n as f64 / b / 1e6);
        let gate = 1.1 * fn2;
        let verdict = if rb > 0.0 && a < b / gate {
            "meets"
        } else {
            "SHORT"
        };
        println!(
            "{name:>16} {ra:>9.1} {rb:>9.1} {:>7.2} {gate:>6.2} {verdict}",
            b / a
        );
    }
}
