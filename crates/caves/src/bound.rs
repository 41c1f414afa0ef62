//! Honest bounds on the noises, so whole boxes can be decided without
//! sampling them.
//!
//! # The kernel's range
//! One octave of the core's 3D Perlin noise is the trilinear, quintic-faded
//! blend `n(p) = Σ_c W_c(p) · g_c · (p − c)` over the 8 corners `c` of the
//! lattice cell, each `g_c` one of Perlin's 12 cube-edge gradients
//! `(±1, ±1, 0)…`, picked by a hash (then scaled by 0.96 in the core). Since
//! each corner's gradient is chosen independently, the worst case over
//! *every possible hash* is `Σ_c W_c · max_g g · (p − c)`; maximising it
//! over the cell gives 1.036 (the literature's bound), and ×0.96 < 1: every
//! octave lies in [-1, 1]. The test `value_bound_covers_the_worst_case`
//! recomputes the maximum. (2D Perlin, the surface's, is the same blend in
//! one dimension fewer, and stays within the same bound.)
//!
//! # The fractal and the lattice
//! An fBm is `Σ aₖ nₖ(fₖ p) / Σ aₖ`, so its range stays [-1, 1] (up to the
//! f32 rounding of the sum, [`VALUE_SLACK`]). The worm values between
//! lattice points are blends of lattice values, which stay between their
//! corners ([`crate::lattice`]), so they too lie in [-1, 1].

/// Relative slack on the value bound |fbm| ≤ 1 for f32 rounding of the
/// octave sum (a few ulps; 1e-5 is generous).
pub const VALUE_SLACK: f32 = 1e-5;

#[cfg(test)]
mod tests {
    use mangekyo_core::noise::{Fractal, Kernel, Noise, NoiseParams};

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

    /// Worst-case value at `p` over all gradient assignments.
    fn worst_at(p: [f64; 3]) -> f64 {
        let mut value = 0.0;
        for k in 0..8 {
            let c = [(k & 1) as f64, ((k >> 1) & 1) as f64, ((k >> 2) & 1) as f64];
            let w: f64 = (0..3)
                .map(|i| {
                    if c[i] == 0.0 {
                        1.0 - fade(p[i])
                    } else {
                        fade(p[i])
                    }
                })
                .product();
            let d: [f64; 3] = std::array::from_fn(|i| p[i] - c[i]);
            let best = GRADS
                .iter()
                .map(|g| g[0] * d[0] + g[1] * d[1] + g[2] * d[2])
                .fold(f64::MIN, f64::max);
            value += w * best;
        }
        value
    }

    #[test]
    fn value_bound_covers_the_worst_case() {
        // Symmetric under the cell's reflections: half a cell per axis.
        let n = 24;
        let mut value = 0.0f64;
        for a in 0..=n {
            for b in 0..=n {
                for c in 0..=n {
                    let p = [a, b, c].map(|v| v as f64 / (2 * n) as f64);
                    value = value.max(worst_at(p));
                }
            }
        }
        assert!(value > 1.03 && value * 0.96 < 1.0, "worst value {value}");
    }

    #[test]
    fn sampled_worm_noise_stays_in_range() {
        // The worm settings and a denser one, over many points.
        for (freq, octaves) in [(0.025, 2), (0.3, 1), (0.05, 4)] {
            let n = Noise::new(NoiseParams {
                kernel: Kernel::Perlin,
                fractal: Fractal::Fbm,
                octaves,
                frequency: freq,
                seed: 11,
                ..NoiseParams::default()
            })
            .unwrap();
            let mut widest = 0.0f32;
            for k in 0..20_000 {
                let p = [
                    k as f64 * 0.731,
                    (k % 97) as f64 * 1.37 - 20.0,
                    k as f64 * -0.29,
                ];
                widest = widest.max(n.sample3(p[0], p[1], p[2]).abs());
            }
            assert!(widest <= 1.0 + super::VALUE_SLACK, "freq {freq}: {widest}");
            assert!(
                widest > 0.3,
                "freq {freq}: the test samples too little ({widest})"
            );
        }
    }
}
