//! Which Voronoi seeds can be among a point's `k` nearest anywhere in a
//! block of points. The block lies in a cap around its mean direction;
//! on the sphere, a seed at angle θ from the cap's centre is between
//! θ − r and θ + r from every point of a cap of radius r. A seed whose
//! nearest possible dot product is below the k-th best farthest one can
//! never be among the k nearest, so the per-point search skips it.
//!
//! The search over the kept seeds finds exactly what the search over every
//! seed finds: the same dot products, compared in the same index order,
//! and dropping values that never reach the top `k` cannot change which
//! ones do (ties still go to the lower index). So the bits are the same,
//! and only the time changes: a block of a fine chunk keeps 3 to 5 of 10
//! to 40 plates.

use crate::geo::{Dir, dot};

/// Added to the cap's radius, radians: covers the rounding of the dot
/// products and arc cosines that measure it (acos loses about 3·10⁻⁸
/// near 1), a hundred times over.
const SLACK_RAD: f64 = 1e-6;
/// Kept seeds' bound may fall this far short of the k-th best and still
/// be kept: covers the rounding of each point's own dot products.
const MARGIN: f64 = 1e-9;

/// The indices (ascending) of the `seeds` that can be among the `k`
/// nearest (largest dot product) of any of `points`; every index where
/// the block is too wide to prune (over a hemisphere) or degenerate.
pub(crate) fn candidates(points: &[Dir], seeds: &[Dir], k: usize) -> Vec<usize> {
    let every = || (0..seeds.len()).collect();
    if seeds.len() <= k || points.is_empty() {
        return every();
    }
    let sum = points
        .iter()
        .fold([0.0; 3], |s, p| [s[0] + p[0], s[1] + p[1], s[2] + p[2]]);
    let len = dot(sum, sum).sqrt();
    // NaN or zero: no centre to bound around.
    if len.is_nan() || len <= 0.0 {
        return every();
    }
    let centre = [sum[0] / len, sum[1] / len, sum[2] / len];
    let cos_r = points
        .iter()
        .map(|&p| dot(p, centre))
        .fold(f64::INFINITY, f64::min);
    if cos_r.is_nan() || cos_r <= 0.0 {
        return every();
    }
    let r = libm::acos(cos_r.min(1.0)) + SLACK_RAD;
    let bounds: Vec<(f64, f64)> = seeds
        .iter()
        .map(|&s| {
            let theta = libm::acos(dot(centre, s).clamp(-1.0, 1.0));
            let far = libm::cos((theta + r).min(std::f64::consts::PI));
            let near = if theta <= r {
                1.0
            } else {
                libm::cos(theta - r)
            };
            (far, near)
        })
        .collect();
    let mut far: Vec<f64> = bounds.iter().map(|b| b.0).collect();
    far.sort_by(|a, b| b.total_cmp(a));
    let kth = far[k - 1];
    (0..seeds.len())
        .filter(|&i| bounds[i].1 >= kth - MARGIN)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::normalise;

    /// Brute force: the k nearest seeds of `q`, ties to the lower index.
    fn nearest(q: Dir, seeds: &[Dir], k: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..seeds.len()).collect();
        order.sort_by(|&a, &b| {
            dot(q, seeds[b])
                .total_cmp(&dot(q, seeds[a]))
                .then(a.cmp(&b))
        });
        order.truncate(k);
        order
    }

    fn dir(seed: u64) -> Dir {
        let h = |k: u64| {
            mangekyo_core::hash::mix64(seed.wrapping_mul(3).wrapping_add(k)) as f64
                / u64::MAX as f64
        };
        normalise([h(0) - 0.5, h(1) - 0.5, h(2) - 0.5])
    }

    #[test]
    fn kept_seeds_hold_every_points_nearest_and_prune_small_blocks() {
        let seeds: Vec<Dir> = (0..30).map(|k| dir(1000 + k)).collect();
        let mut pruned = 0;
        for (b, spread) in [(0u64, 1e-4), (1, 1e-3), (2, 0.02), (3, 0.3), (4, 2.0)] {
            let c = dir(b);
            let points: Vec<Dir> = (0..64)
                .map(|i| {
                    let o = dir(500 + 64 * b + i);
                    normalise([
                        c[0] + spread * o[0],
                        c[1] + spread * o[1],
                        c[2] + spread * o[2],
                    ])
                })
                .collect();
            for k in [2, 3] {
                let kept = candidates(&points, &seeds, k);
                assert!(kept.windows(2).all(|w| w[0] < w[1]), "ascending");
                for &p in &points {
                    for s in nearest(p, &seeds, k) {
                        assert!(kept.contains(&s), "block {b}, k {k}: seed {s} dropped");
                    }
                }
                if spread <= 1e-3 {
                    assert!(kept.len() <= 6, "block {b}: kept {}", kept.len());
                }
                pruned += seeds.len() - kept.len();
            }
        }
        assert!(pruned > 0);
    }

    #[test]
    fn a_seed_on_the_cap_s_edge_is_kept() {
        // Two seeds equidistant from the block's only point: both kept.
        let q = [1.0, 0.0, 0.0];
        let a = normalise([1.0, 0.5, 0.0]);
        let b = normalise([1.0, -0.5, 0.0]);
        let far = [-1.0, 0.0, 0.0];
        assert_eq!(candidates(&[q], &[far, a, b], 2), vec![1, 2]);
        assert_eq!(candidates(&[q], &[far, a, b], 1), vec![1, 2]);
    }
}
