//! The noise contracts: every level equals scalar, grids equal points,
//! ranges, continuity, exactness far from the origin, goldens.

use super::*;
use crate::Pcg32;

const KERNELS: [Kernel; 6] = [
    Kernel::Value,
    Kernel::Perlin,
    Kernel::Simplex,
    Kernel::Cellular(CellularReturn::F1),
    Kernel::Cellular(CellularReturn::F2),
    Kernel::Cellular(CellularReturn::F2MinusF1),
];
const FRACTALS: [Fractal; 4] = [
    Fractal::None,
    Fractal::Fbm,
    Fractal::Ridged,
    Fractal::Billow,
];

const HASHES: [LatticeHash; 2] = [LatticeHash::Hash1, LatticeHash::Hash2];

fn noise(kernel: Kernel, fractal: Fractal, octaves: u32, warp: bool) -> Noise {
    noise_with(LatticeHash::Hash1, kernel, fractal, octaves, warp)
}

fn noise_with(
    hash: LatticeHash,
    kernel: Kernel,
    fractal: Fractal,
    octaves: u32,
    warp: bool,
) -> Noise {
    Noise::new(NoiseParams {
        hash,
        kernel,
        fractal,
        octaves,
        frequency: 1.0 / 16.0,
        seed: 1234,
        warp: warp.then_some(Warp {
            amplitude: 4.0,
            frequency: 0.03,
            octaves: 2,
        }),
        ..NoiseParams::default()
    })
    .unwrap()
}

/// Every kernel under each lattice hash.
fn kernels_and_hashes() -> impl Iterator<Item = (Kernel, LatticeHash)> {
    HASHES
        .into_iter()
        .flat_map(|h| KERNELS.into_iter().map(move |k| (k, h)))
}

/// Every kernel × fractal (and a warped fBm), under each lattice hash.
fn all_noises() -> impl Iterator<Item = Noise> {
    HASHES.into_iter().flat_map(|h| {
        KERNELS.into_iter().flat_map(move |k| {
            FRACTALS
                .into_iter()
                .map(move |f| noise_with(h, k, f, 3, false))
                .chain(std::iter::once(noise_with(h, k, Fractal::Fbm, 2, true)))
        })
    })
}

fn random_points(n: usize, spread: f64, centre: f64) -> [Vec<f64>; 3] {
    let mut rng = Pcg32::new(9, 9);
    std::array::from_fn(|_| {
        (0..n)
            .map(|_| centre + (rng.next_f64() - 0.5) * spread)
            .collect()
    })
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// The levels `every_level_equals_scalar_bit_for_bit` compares, and the
/// ones this CPU lacks, printed (scripts/test-all runs this test with
/// `--nocapture`, so CI output names both lists).
fn levels_tested_and_lacked() -> (Vec<Level>, Vec<Level>) {
    let tested = Level::supported();
    let lacked = Level::ALL
        .into_iter()
        .filter(|l| !tested.contains(l))
        .collect();
    (tested, lacked)
}

#[test]
fn simd_levels_tested_and_lacked_are_reported() {
    let (tested, lacked) = levels_tested_and_lacked();
    eprintln!(
        "SIMD levels tested against scalar: {tested:?}; lacked by this CPU (not tested): {lacked:?}"
    );
    assert!(
        tested.contains(&Level::Scalar),
        "the reference level always runs"
    );
    // The architecture's baseline level is never lacked: a CPU-detection
    // bug that drops it would silently test scalar against itself.
    #[cfg(target_arch = "x86_64")]
    assert!(
        tested.contains(&Level::Sse2),
        "SSE2 is x86-64 baseline: {tested:?}"
    );
    #[cfg(target_arch = "aarch64")]
    assert!(
        tested.contains(&Level::Neon),
        "NEON is AArch64 baseline: {tested:?}"
    );
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    assert!(
        tested.contains(&Level::Simd128),
        "a +simd128 build runs SIMD128: {tested:?}"
    );
    assert_eq!(tested.len() + lacked.len(), Level::ALL.len());
}

#[test]
fn every_level_equals_scalar_bit_for_bit() {
    // An odd count exercises the padded tail of every lane width.
    let pts = random_points(1001, 600.0, 0.0);
    let far = random_points(333, 50.0, 4.25e8);
    // Beyond hash 2's fast route: i32 cells end at 2^31.
    let farther = random_points(99, 50.0, 3.0e12);
    for n in all_noises() {
        for p in [&pts, &far, &farther] {
            let len = p[0].len();
            let mut reference2 = vec![0.0; len];
            let mut reference3 = vec![0.0; len];
            n.fill_points2_with(Level::Scalar, &p[0], &p[1], &mut reference2);
            n.fill_points3_with(Level::Scalar, &p[0], &p[1], &p[2], &mut reference3);
            for level in levels_tested_and_lacked().0 {
                let mut got = vec![0.0; len];
                n.fill_points2_with(level, &p[0], &p[1], &mut got);
                assert_eq!(
                    bits(&got),
                    bits(&reference2),
                    "{level:?} 2D {:?}",
                    n.params()
                );
                n.fill_points3_with(level, &p[0], &p[1], &p[2], &mut got);
                assert_eq!(
                    bits(&got),
                    bits(&reference3),
                    "{level:?} 3D {:?}",
                    n.params()
                );
            }
        }
    }
}

/// Vectors whose lanes share a cell take the uniform path (the corner
/// hashes once, in scalar); vectors where one lane is a cell over, or where
/// lanes share the low half of the i64 cell but not the high one, must
/// not. Every level equals scalar either way, beside the halves' wraps.
#[test]
fn lanes_sharing_a_cell_equal_scalar() {
    let two32 = (1u64 << 32) as f64;
    let bases = [
        0.0,
        -1.0,
        5.0,
        two32 - 1.0,
        two32,
        -two32,
        -two32 - 1.0,
        3.0 * two32 * 1024.0,
    ];
    let mut rng = Pcg32::new(3, 3);
    let mut pts: [Vec<f64>; 3] = Default::default();
    for base in bases {
        // Tiny clusters stay in one cell after simplex's skew too; placed
        // near each of a simplex cell's corners, every corner's hash counts.
        let (p, q) = (0.567, -0.133);
        for (offset, spread) in [
            ([0.0005; 3], 0.999),
            ([0.3; 3], 0.01),
            ([p, p, q], 0.01),
            ([p, q, p], 0.01),
            ([q, p, p], 0.01),
            ([p, q, q], 0.01),
            ([q, q, p], 0.01),
        ] {
            // 0: one cell; 1..=3: lane 7 a cell over on axis p − 1;
            // 4: odd lanes 2^32 cells over on x (same low half).
            for pattern in 0..5 {
                for lane in 0..16 {
                    for (a, axis) in pts.iter_mut().enumerate() {
                        let mut v = base + offset[a] + rng.next_f64() * spread;
                        if pattern == a + 1 && lane == 7 {
                            v += 1.0;
                        }
                        if pattern == 4 && a == 0 && lane % 2 == 1 {
                            v += two32;
                        }
                        axis.push(v);
                    }
                }
            }
        }
    }
    let len = pts[0].len();
    for (kernel, hash) in kernels_and_hashes() {
        for (fractal, octaves) in [(Fractal::None, 1), (Fractal::Fbm, 3)] {
            let n = Noise::new(NoiseParams {
                hash,
                kernel,
                fractal,
                octaves,
                frequency: 1.0,
                seed: 77,
                ..NoiseParams::default()
            })
            .unwrap();
            let (mut want2, mut want3) = (vec![0.0; len], vec![0.0; len]);
            n.fill_points2_with(Level::Scalar, &pts[0], &pts[1], &mut want2);
            n.fill_points3_with(Level::Scalar, &pts[0], &pts[1], &pts[2], &mut want3);
            for level in levels_tested_and_lacked().0 {
                let mut got = vec![0.0; len];
                n.fill_points2_with(level, &pts[0], &pts[1], &mut got);
                assert_eq!(
                    bits(&got),
                    bits(&want2),
                    "{level:?} 2D {kernel:?} {fractal:?} {hash:?}"
                );
                n.fill_points3_with(level, &pts[0], &pts[1], &pts[2], &mut got);
                assert_eq!(
                    bits(&got),
                    bits(&want3),
                    "{level:?} 3D {kernel:?} {fractal:?} {hash:?}"
                );
            }
        }
    }
}

#[test]
fn grids_equal_point_queries() {
    // Rows of a whole number of vectors take the row path (x from its
    // table, other axes broadcast); other rows of at least a vector run
    // blocks across row ends (blending the rows' broadcasts in the vector
    // that crosses one); shorter ones copy table runs into lanes. The last
    // sizes hold more than a block (256 samples), which then ends mid-row.
    for (s2, s3) in [
        ([37, 5], [19, 3, 4]),
        ([7, 5], [5, 3, 4]),
        ([32, 3], [16, 2, 2]),
        ([45, 13], [21, 7, 5]),
    ] {
        grids_equal_point_queries_at(s2, s3);
    }
}

fn grids_equal_point_queries_at(size2: [usize; 2], size3: [usize; 3]) {
    let g2 = Grid2 {
        origin: [-40.25, 1.0e7 + 0.5],
        step: [0.75, 1.25],
        size: size2,
    };
    let g3 = Grid3 {
        origin: [3.0, -2.0e6, 7.5],
        step: [1.0, 0.5, 2.0],
        size: size3,
    };
    for n in all_noises() {
        for level in Level::supported() {
            let mut out = vec![0.0; g2.len()];
            n.fill2_with(level, &g2, &mut out);
            for j in 0..g2.size[1] {
                for i in 0..g2.size[0] {
                    let x = g2.origin[0] + i as f64 * g2.step[0];
                    let y = g2.origin[1] + j as f64 * g2.step[1];
                    assert_eq!(out[j * g2.size[0] + i].to_bits(), n.sample2(x, y).to_bits());
                }
            }
            let mut out = vec![0.0; g3.len()];
            n.fill3_with(level, &g3, &mut out);
            let [nx, ny, _] = g3.size;
            for (idx, v) in out.iter().enumerate() {
                let (i, j, k) = (idx % nx, (idx / nx) % ny, idx / (nx * ny));
                let x = g3.origin[0] + i as f64 * g3.step[0];
                let y = g3.origin[1] + j as f64 * g3.step[1];
                let z = g3.origin[2] + k as f64 * g3.step[2];
                assert_eq!(v.to_bits(), n.sample3(x, y, z).to_bits());
            }
        }
    }
}

#[test]
fn values_stay_in_range_and_use_it() {
    let p = random_points(40_000, 4000.0, 0.0);
    for n in all_noises() {
        for dims in [2, 3] {
            let mut out = vec![0.0; p[0].len()];
            if dims == 2 {
                n.fill_points2(&p[0], &p[1], &mut out);
            } else {
                n.fill_points3(&p[0], &p[1], &p[2], &mut out);
            }
            let lo = out.iter().copied().fold(f32::MAX, f32::min);
            let hi = out.iter().copied().fold(f32::MIN, f32::max);
            assert!(
                lo >= -1.0 && hi <= 1.0,
                "{dims}D {:?}: [{lo}, {hi}]",
                n.params()
            );
            assert!(
                hi - lo > 0.6,
                "{dims}D {:?} barely varies: [{lo}, {hi}]",
                n.params()
            );
        }
    }
}

#[test]
fn neighbouring_samples_differ_by_a_bounded_amount() {
    // One octave, samples 1/256 cell apart: every kernel here is continuous,
    // with a slope below 8 per cell, so steps stay below 8/256.
    for (k, hash) in kernels_and_hashes() {
        let n = Noise::new(NoiseParams {
            hash,
            kernel: k,
            fractal: Fractal::None,
            frequency: 1.0,
            seed: 5,
            ..NoiseParams::default()
        })
        .unwrap();
        let g = Grid2 {
            origin: [-3.1, 2.7],
            step: [1.0 / 256.0, 1.0 / 256.0],
            size: [2048, 3],
        };
        let mut out = vec![0.0; g.len()];
        n.fill2(&g, &mut out);
        let worst = out
            .windows(2)
            .take(2047)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0, f32::max);
        assert!(worst < 8.0 / 256.0, "{k:?}: step {worst}");
        let g3 = Grid3 {
            origin: [0.3, -7.7, 1.0e6],
            step: [1.0 / 256.0; 3],
            size: [2048, 1, 1],
        };
        let mut out = vec![0.0; g3.len()];
        n.fill3(&g3, &mut out);
        let worst = out
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0, f32::max);
        assert!(worst < 8.0 / 256.0, "{k:?} 3D: step {worst}");
    }
}

#[test]
fn exact_far_from_the_origin() {
    // 256 samples 1/64 cell apart at lattice coordinate 0, 4.25e6 and 1e9
    // are as distinct as at the origin: the split keeps full precision.
    // (y is offset from x by 0.37 so the row misses simplex lattice vertices,
    // where the value is exactly 0.)
    for (k, hash) in kernels_and_hashes() {
        let n = Noise::new(NoiseParams {
            hash,
            kernel: k,
            fractal: Fractal::None,
            frequency: 1.0,
            seed: 11,
            ..NoiseParams::default()
        })
        .unwrap();
        for base in [0.3, 4.25e6 + 0.3, 1.0e9 + 0.3] {
            for dims in [2, 3] {
                let mut out = vec![0.0; 256];
                if dims == 2 {
                    n.fill2(
                        &Grid2 {
                            origin: [base, base + 0.37],
                            step: [1.0 / 64.0, 0.0],
                            size: [256, 1],
                        },
                        &mut out,
                    );
                } else {
                    n.fill3(
                        &Grid3 {
                            origin: [base, 0.25, base],
                            step: [1.0 / 64.0, 0.0, 0.0],
                            size: [256, 1, 1],
                        },
                        &mut out,
                    );
                }
                let mut b = bits(&out);
                b.sort_unstable();
                b.dedup();
                // Lost precision collapses a row into a few repeated values
                // (f32 positions at 1e9 give 4); two samples may still share
                // a value by chance (cellular F2 does once under hash 2 at
                // 4.25e6, where the second-nearest point switches).
                assert!(
                    b.len() >= 254,
                    "{k:?} {hash:?} {dims}D at {base}: only {} distinct",
                    b.len()
                );
            }
        }
    }
}

#[test]
fn nothing_repeats_at_any_power_of_two_period() {
    // Permutation-table noise repeats every 256 cells; ours must not, at 256,
    // 2^16 or 2^32 (where the low half of the i64 cell wraps).
    for (k, hash) in kernels_and_hashes() {
        let n = Noise::new(NoiseParams {
            hash,
            kernel: k,
            fractal: Fractal::None,
            frequency: 1.0,
            seed: 3,
            ..NoiseParams::default()
        })
        .unwrap();
        let row = |x0: f64| {
            let mut out = vec![0.0; 64];
            n.fill2(
                &Grid2 {
                    origin: [x0, 0.5],
                    step: [0.37, 0.0],
                    size: [64, 1],
                },
                &mut out,
            );
            bits(&out)
        };
        let base = row(0.1);
        // 2^31 and 2^40 too: where i32 cells end (hash 2's fast route) and
        // far beyond, at planet scale.
        for period in [
            256.0,
            65_536.0,
            2_147_483_648.0,
            4_294_967_296.0,
            -4_294_967_296.0,
            1_099_511_627_776.0,
        ] {
            let shifted = row(0.1 + period);
            let same = base.iter().zip(&shifted).filter(|(a, b)| a == b).count();
            assert!(
                same < 4,
                "{k:?} {hash:?} repeats at period {period}: {same}/64 equal"
            );
        }
    }
}

#[test]
fn seeds_and_octaves_change_the_noise() {
    let a = noise(Kernel::Perlin, Fractal::Fbm, 3, false);
    let b = Noise::new(NoiseParams {
        seed: 1235,
        ..*a.params()
    })
    .unwrap();
    let c = Noise::new(NoiseParams {
        octaves: 4,
        ..*a.params()
    })
    .unwrap();
    let v = |n: &Noise| {
        (0..64)
            .map(|i| n.sample2(i as f64 * 1.7, 3.3).to_bits())
            .collect::<Vec<_>>()
    };
    assert_ne!(v(&a), v(&b));
    assert_ne!(v(&a), v(&c));
}

#[test]
fn truncation_keeps_the_normalisation() {
    let full = noise(Kernel::Simplex, Fractal::Fbm, 6, false);
    let coarse = full.truncated(2);
    assert_eq!(coarse.octave_frequencies().count(), 2);
    // The dropped octaves carry a quarter of the amplitude at most.
    for i in 0..200 {
        let (x, y) = (i as f64 * 3.1, i as f64 * -1.3);
        assert!((full.sample2(x, y) - coarse.sample2(x, y)).abs() < 0.3);
    }
}

#[test]
fn bad_parameters_name_what_is_wrong() {
    let bad = |p: NoiseParams| Noise::new(p).unwrap_err().to_string();
    let d = NoiseParams::default();
    assert_eq!(
        bad(NoiseParams { octaves: 0, ..d }),
        "noise parameter `octaves` must be in 1..=24, got 0"
    );
    assert_eq!(
        bad(NoiseParams {
            frequency: -1.0,
            ..d
        }),
        "noise parameter `frequency` must be a finite number > 0, got -1"
    );
    assert_eq!(
        bad(NoiseParams {
            frequency: f64::NAN,
            ..d
        }),
        "noise parameter `frequency` must be a finite number > 0, got NaN"
    );
    assert!(bad(NoiseParams { gain: 0.0, ..d }).contains("`gain`"));
    assert!(
        bad(NoiseParams {
            lacunarity: 0.5,
            ..d
        })
        .contains("`lacunarity`")
    );
    let w = Warp {
        frequency: 0.0,
        ..Warp::default()
    };
    assert!(bad(NoiseParams { warp: Some(w), ..d }).contains("`warp.frequency`"));
}

#[test]
fn non_finite_coordinates_give_defined_values() {
    let n = noise(Kernel::Perlin, Fractal::Fbm, 3, true);
    for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e300] {
        let a = n.sample2(v, 1.0);
        let b = n.sample3(1.0, v, 2.0);
        assert!(a.is_finite() && b.is_finite());
    }
}

/// Golden hashes of a fixed 64×64 (2D) and 16³ (3D) grid per kernel and
/// fractal. Changing any of them changes every world built on this noise:
/// bump the versions of the generators that use it.
#[test]
fn golden_grids() {
    let g2 = Grid2 {
        origin: [-17.5, 3.25],
        step: [0.61, 0.73],
        size: [64, 64],
    };
    let g3 = Grid3 {
        origin: [2.5, -9.0, 1.0e5],
        step: [0.9, 1.1, 1.3],
        size: [16, 16, 16],
    };
    let mut got = Vec::new();
    for n in all_noises() {
        let mut o2 = vec![0.0; g2.len()];
        let mut o3 = vec![0.0; g3.len()];
        n.fill2(&g2, &mut o2);
        n.fill3(&g3, &mut o3);
        let h = |v: &[f32]| {
            xxhash_rust::xxh3::xxh3_64(&v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>())
        };
        // Hash 1's lines keep the form they had before hash 2 existed.
        let hash = match n.params().hash {
            LatticeHash::Hash1 => "",
            LatticeHash::Hash2 => "hash2 ",
        };
        got.push(format!(
            "{hash}{:?} {:?} warp={} {:016x} {:016x}",
            n.params().kernel,
            n.params().fractal,
            n.params().warp.is_some(),
            h(&o2),
            h(&o3)
        ));
    }
    let expected = include_str!("golden.txt");
    let got = got.join("\n") + "\n";
    if std::env::var_os("UPDATE_GOLDENS").is_some() {
        std::fs::write(
            concat!(env!("CARGO_MANIFEST_DIR"), "/src/noise/golden.txt"),
            &got,
        )
        .unwrap();
    }
    assert_eq!(
        got, expected,
        "noise goldens moved (UPDATE_GOLDENS=1 rewrites them; bump generator versions)"
    );
}

/// Hash 2's fast route (a block whose cells all fit an i32) and its exact
/// route (any other block) give the same bits: the same points alone, and
/// in one block beside a point far beyond the fast range.
#[test]
fn hash2_routes_agree() {
    let pts = random_points(64, 2000.0, 0.0);
    for (k, hash) in kernels_and_hashes() {
        let n = noise_with(hash, k, Fractal::Fbm, 3, false);
        for level in levels_tested_and_lacked().0 {
            let mut alone = vec![0.0; 64];
            n.fill_points3_with(level, &pts[0], &pts[1], &pts[2], &mut alone);
            let far = |a: &Vec<f64>| {
                let mut v = a.clone();
                v.push(5.0e13);
                v
            };
            let mut mixed = vec![0.0; 65];
            n.fill_points3_with(
                level,
                &far(&pts[0]),
                &far(&pts[1]),
                &far(&pts[2]),
                &mut mixed,
            );
            assert_eq!(
                bits(&alone),
                bits(&mixed[..64]),
                "{level:?} {k:?} {hash:?} 3D"
            );
            let mut alone2 = vec![0.0; 64];
            n.fill_points2_with(level, &pts[0], &pts[1], &mut alone2);
            let mut mixed2 = vec![0.0; 65];
            n.fill_points2_with(level, &far(&pts[0]), &far(&pts[1]), &mut mixed2);
            assert_eq!(
                bits(&alone2),
                bits(&mixed2[..64]),
                "{level:?} {k:?} {hash:?} 2D"
            );
        }
    }
}
