//! Honest bounds on the worm noise, so the chunk sampler can prove that a
//! sub-block needs no 3D noise at all.
//!
//! # The kernel's Lipschitz constant
//! One octave of the core's 3D Perlin noise is the trilinear, quintic-faded
//! blend `n(p) = Σ_c W_c(p) · g_c · (p − c)` over the 8 corners `c` of the
//! lattice cell, each `g_c` one of Perlin's 12 cube-edge gradients
//! `(±1, ±1, 0)…`, picked by a hash (then scaled by 0.96 in the core; we
//! ignore that factor, which only loosens the bound). For a direction `e`,
//! `∇n · e = Σ_c g_c · v_c` with `v_c = (∂_e W_c)(p − c) + W_c e`, and since
//! each corner's gradient is chosen independently, the worst case over
//! *every possible hash* is `Σ_c max_g g · v_c`. Maximising that over the
//! cell and all directions gives 3.749 (at the cell centre); we use
//! [`PERLIN3_LIPSCHITZ`] = 3.8, and the test `lipschitz_constant_covers_
//! the_worst_case` recomputes the maximum. The same maximisation of the
//! value gives 1.036 (the literature's bound), ×0.96 < 1: every octave lies
//! in [-1, 1].
//!
//! # The fractal
//! An fBm is `Σ aₖ nₖ(fₖ p) / Σ aₖ`, so its constant per voxel is
//! `L · Σ aₖ fₖ / Σ aₖ`, and its range stays [-1, 1].

use mangekyo_core::noise::Noise;

/// Largest gradient magnitude of one octave of 3D Perlin noise, in noise
/// units per lattice cell, over every possible gradient assignment: 3.749
/// computed (see the module doc), rounded up with 1.3% headroom.
pub const PERLIN3_LIPSCHITZ: f64 = 3.8;

/// Relative slack on the value bound |fbm| ≤ 1 for f32 rounding of the
/// octave sum (a few ulps; 1e-5 is generous).
pub const VALUE_SLACK: f32 = 1e-5;

/// The Lipschitz constant, per voxel, of a 3D Perlin fBm with gain `gain`.
pub fn fbm3_lipschitz(noise: &Noise, gain: f64) -> f64 {
    let (mut a, mut sum_af, mut sum_a) = (1.0f64, 0.0f64, 0.0f64);
    for f in noise.octave_frequencies() {
        sum_af += a * f;
        sum_a += a;
        a *= gain;
    }
    PERLIN3_LIPSCHITZ * sum_af / sum_a
}

/// Bounds of `|n|` over a box whose centre has value `centre` and whose
/// farthest point is `radius` voxels away, for a noise with Lipschitz
/// constant `lipschitz`: `(lo, hi)` with `lo ≤ |n(p)| ≤ hi` in the box.
/// A small absolute margin covers the f32 rounding of each sample.
pub fn abs_range(centre: f32, radius: f64, lipschitz: f64) -> (f64, f64) {
    const ROUNDING: f64 = 1e-5;
    let spread = radius * lipschitz + ROUNDING;
    let c = (centre as f64).abs();
    (
        (c - spread).max(0.0),
        (c + spread).min(1.0 + VALUE_SLACK as f64),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use mangekyo_core::noise::{Fractal, Kernel, NoiseParams};

    /// Perlin's 12 edge gradients.
    const GRADS: [[f64; 3]; 12] = [
        [1., 1., 0.],
        [-1., 1., 0.],
        [1., -1., 0.],
        [-1., -1., 0.],
        [1., 0., 1.],
        [-1., 0., 1.],
        [1., 0., -1.],
        [-1., 0., -1.],
        [0., 1., 1.],
        [0., -1., 1.],
        [0., 1., -1.],
        [0., -1., -1.],
    ];

    fn fade(t: f64) -> f64 {
        t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
    }
    fn dfade(t: f64) -> f64 {
        30.0 * t * t * (1.0 - t) * (1.0 - t)
    }
    fn best(v: [f64; 3]) -> f64 {
        GRADS
            .iter()
            .map(|g| g[0] * v[0] + g[1] * v[1] + g[2] * v[2])
            .fold(f64::MIN, f64::max)
    }

    /// Worst-case directional derivative and value at `p` over all gradient
    /// assignments.
    fn worst_at(p: [f64; 3], e: [f64; 3]) -> (f64, f64) {
        let (mut slope, mut value) = (0.0, 0.0);
        for k in 0..8 {
            let c = [(k & 1) as f64, ((k >> 1) & 1) as f64, ((k >> 2) & 1) as f64];
            let w: [f64; 3] = std::array::from_fn(|i| {
                if c[i] == 0.0 {
                    1.0 - fade(p[i])
                } else {
                    fade(p[i])
                }
            });
            let dw: [f64; 3] = std::array::from_fn(|i| {
                if c[i] == 0.0 {
                    -dfade(p[i])
                } else {
                    dfade(p[i])
                }
            });
            let wc = w[0] * w[1] * w[2];
            let de = e[0] * dw[0] * w[1] * w[2]
                + e[1] * w[0] * dw[1] * w[2]
                + e[2] * w[0] * w[1] * dw[2];
            let d: [f64; 3] = std::array::from_fn(|i| p[i] - c[i]);
            slope += best(std::array::from_fn(|i| de * d[i] + wc * e[i]));
            value += wc * best(d);
        }
        (slope, value)
    }

    #[test]
    fn lipschitz_constant_covers_the_worst_case() {
        // The function is symmetric under the cell's reflections, so half
        // a cell per axis is enough.
        let (n, nd) = (12, 24);
        let (mut slope, mut value) = (0.0f64, 0.0f64);
        for a in 0..=n {
            for b in 0..=n {
                for c in 0..=n {
                    let p = [
                        a as f64 / (2 * n) as f64,
                        b as f64 / (2 * n) as f64,
                        c as f64 / (2 * n) as f64,
                    ];
                    for i in 0..nd {
                        for j in 0..2 * nd {
                            let th = std::f64::consts::PI * (i as f64 + 0.5) / nd as f64;
                            let ph = std::f64::consts::PI * j as f64 / nd as f64;
                            let e = [
                                libm::sin(th) * libm::cos(ph),
                                libm::sin(th) * libm::sin(ph),
                                libm::cos(th),
                            ];
                            let (s, v) = worst_at(p, e);
                            slope = slope.max(s);
                            value = value.max(v);
                        }
                    }
                }
            }
        }
        assert!(
            slope > 3.7 && slope <= PERLIN3_LIPSCHITZ,
            "worst slope {slope}"
        );
        assert!(value > 1.03 && value * 0.96 < 1.0, "worst value {value}");
    }

    #[test]
    fn no_sample_ever_leaves_its_bound() {
        // Dense voxels around random centres, with the worm settings and a
        // high frequency that makes the bound tight.
        for (freq, octaves) in [(0.02, 2), (0.08, 2), (0.3, 1), (0.05, 4)] {
            let n = Noise::new(NoiseParams {
                kernel: Kernel::Perlin,
                fractal: Fractal::Fbm,
                octaves,
                frequency: freq,
                seed: 11,
                ..NoiseParams::default()
            })
            .unwrap();
            let l = fbm3_lipschitz(&n, 0.5);
            let mut tightest = 0.0f64;
            for k in 0..300 {
                let c = [
                    k as f64 * 7.31,
                    (k % 17) as f64 * 3.7 - 20.0,
                    k as f64 * -2.9,
                ];
                let nc = n.sample3(c[0], c[1], c[2]);
                for dx in -3..=3 {
                    for dy in -3..=3 {
                        for dz in -3..=3 {
                            let p = [
                                c[0] + dx as f64 * 0.5,
                                c[1] + dy as f64 * 0.5,
                                c[2] + dz as f64 * 0.5,
                            ];
                            let r = ((dx * dx + dy * dy + dz * dz) as f64).sqrt() * 0.5;
                            let v = n.sample3(p[0], p[1], p[2]);
                            let (lo, hi) = abs_range(nc, r, l);
                            let a = v.abs() as f64;
                            assert!(
                                a >= lo && a <= hi,
                                "freq {freq}: |{v}| outside [{lo}, {hi}]"
                            );
                            if r > 0.0 {
                                tightest = tightest.max((v - nc).abs() as f64 / (r * l));
                            }
                        }
                    }
                }
            }
            // The bound is honest but not absurd: real slopes reach a fair
            // share of it.
            assert!(
                tightest > 0.2 && tightest <= 1.0,
                "freq {freq}: tightest {tightest}"
            );
        }
    }
}
