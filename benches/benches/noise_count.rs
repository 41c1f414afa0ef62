//! The noise workloads of `benches/noise.rs`, each run a fixed number of
//! times with nothing else in the process, for instruction counting:
//! `valgrind --tool=callgrind target/release/deps/noise_count-* 2d_perlin`
//! then `callgrind_annotate --inclusive=yes` on `fill2_with` / `fill3_with`
//! (instruction counts are steady on a shared machine; times are not).
//! Arguments: workload names (default: all), `--iters N` (default 1).

use mangekyo_core::noise::{Fractal, Grid2, Grid3, Kernel, Level, Noise, NoiseParams, Warp};
use std::hint::black_box;

fn noise(kernel: Kernel, octaves: u32, warp: bool) -> Noise {
    Noise::new(NoiseParams {
        warp: warp.then(Warp::default),
        kernel,
        fractal: if octaves > 1 {
            Fractal::Fbm
        } else {
            Fractal::None
        },
        octaves,
        frequency: 1.0,
        seed: 1,
        ..NoiseParams::default()
    })
    .unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let iters = args
        .iter()
        .position(|a| a == "--iters")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(1usize);
    let level = match args.iter().position(|a| a == "--level") {
        Some(i) => Level::supported()
            .into_iter()
            .find(|l| format!("{l:?}").eq_ignore_ascii_case(&args[i + 1]))
            .expect("--level: one of this CPU's levels"),
        None => Level::best(),
    };
    let names: Vec<&String> = args
        .iter()
        .filter(|a| !a.starts_with("--") && a.parse::<usize>().is_err())
        .filter(|a| {
            Level::ALL
                .iter()
                .all(|l| !format!("{l:?}").eq_ignore_ascii_case(a))
        })
        .collect();
    let grid2 = Grid2 {
        origin: [0.0, 0.0],
        step: [0.01, 0.01],
        size: [256, 256],
    };
    let grid3 = Grid3 {
        origin: [0.0, 0.0, 0.0],
        step: [0.05, 0.05, 0.05],
        size: [33, 33, 33],
    };
    let work = [
        ("2d_fbm6_perlin", Kernel::Perlin, 6, 2),
        ("3d_fbm3_perlin", Kernel::Perlin, 3, 3),
        ("2d_perlin", Kernel::Perlin, 1, 2),
        ("3d_perlin", Kernel::Perlin, 1, 3),
        ("2d_fbm6_simplex", Kernel::Simplex, 6, 2),
        ("3d_fbm3_simplex", Kernel::Simplex, 3, 3),
        ("2d_simplex", Kernel::Simplex, 1, 2),
        ("3d_simplex", Kernel::Simplex, 1, 3),
        // Warped (the planet's continents): the per-position path.
        ("2d_fbm6_perlin_warp", Kernel::Perlin, 6, 2),
    ];
    for (name, kernel, octaves, dims) in work {
        if !names.is_empty() && !names.iter().any(|n| n.as_str() == name) {
            continue;
        }
        let n = noise(kernel, octaves, name.ends_with("_warp"));
        let mut sum = 0.0f64;
        for _ in 0..iters {
            if dims == 2 {
                let mut out = vec![0.0f32; grid2.len()];
                n.fill2_with(level, black_box(&grid2), &mut out);
                sum += out.iter().map(|&v| v as f64).sum::<f64>();
            } else {
                let mut out = vec![0.0f32; grid3.len()];
                n.fill3_with(level, black_box(&grid3), &mut out);
                sum += out.iter().map(|&v| v as f64).sum::<f64>();
            }
        }
        println!("{name} {level:?} x{iters}: checksum {sum:.6}");
    }
}
