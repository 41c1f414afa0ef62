//! Step 1: site positions (the guide's `placeSites`). A jittered coast ring,
//! then interior sites by best-candidate sampling.

use super::grid::PointGrid;
use mangekyo_core::Pcg32;
use std::f64::consts::TAU;

/// The island's radius in abstract distance units. One unit, so coordinates
/// read as fractions of the radius; a scope's `meters_per_distance_unit`
/// turns them into metres in one place (the path network).
pub const ISLAND_RADIUS: f64 = 1.0;

/// Inner radius of the coast ring, as a fraction of [`ISLAND_RADIUS`].
/// Far enough out that ring sites read as shore, far enough in that the
/// distance field (1 - r) never reaches exactly 0 there.
pub const COAST_RING_MIN_RADIUS: f64 = 0.82;

/// Outer radius of the coast ring, as a fraction of [`ISLAND_RADIUS`]. The
/// 0.13-wide band gives the shoreline some wobble without letting ring sites
/// reach the interior.
pub const COAST_RING_MAX_RADIUS: f64 = 0.95;

/// Interior sites stay within this fraction of [`ISLAND_RADIUS`]: a gap of
/// 0.07 below the ring keeps interior sites from crowding the shore sites.
pub const INTERIOR_MAX_RADIUS: f64 = 0.75;

/// Share of the sites on the coast ring (the guide's "about 35%").
pub const COAST_SHARE_PERCENT: u32 = 35;

/// Fewest coast-ring sites (the guide's clamp 4–7): four gives the island a
/// shoreline in every direction.
pub const MIN_COAST_SITES: u32 = 4;

/// Most coast-ring sites (the guide's clamp 4–7): the ring stays a handful
/// of landings however large the island.
pub const MAX_COAST_SITES: u32 = 7;

/// Angular jitter of a ring site, as a fraction of the equal angular step
/// (±). Below 0.5 so neighbours never swap order or coincide.
pub const COAST_ANGLE_JITTER: f64 = 0.3;

/// Candidates per interior site in best-candidate sampling. Mitchell's
/// classic choice (1991): ten gives blue-noise spacing at a tenth of the
/// cost of a Poisson-disk dart thrower with the same quality.
pub const CANDIDATES_PER_SITE: u32 = 10;

/// A placed site: a position and whether it is on the coast ring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlacedSite {
    /// Abstract x.
    pub x: f64,
    /// Abstract y.
    pub y: f64,
    /// Placed on the coast ring.
    pub on_coast_ring: bool,
}

/// How many of `count` sites go on the coast ring: 35% rounded, clamped to
/// 4–7, never more than `count`.
pub fn coast_count(count: u32) -> u32 {
    let share = (u64::from(count) * u64::from(COAST_SHARE_PERCENT) + 50) / 100;
    (share as u32)
        .clamp(MIN_COAST_SITES, MAX_COAST_SITES)
        .min(count)
}

/// Places `site_count` drawn inclusively from `(min, max)`: the coast ring
/// first (ids 0..k), then interior sites in the order they were chosen.
pub fn place_sites(site_count: (u32, u32), rng: &mut Pcg32) -> Vec<PlacedSite> {
    let count = rng.next_int(i64::from(site_count.0), i64::from(site_count.1) + 1) as u32;
    let ring = coast_count(count);
    let mut sites = Vec::with_capacity(count as usize);
    place_ring(ring, rng, &mut sites);
    place_interior(count - ring, rng, &mut sites);
    sites
}

fn place_ring(count: u32, rng: &mut Pcg32, out: &mut Vec<PlacedSite>) {
    let step = TAU / f64::from(count);
    let phase = rng.next_f64() * TAU;
    for i in 0..count {
        let jitter = rng.next_range_f64(-COAST_ANGLE_JITTER, COAST_ANGLE_JITTER);
        let angle = phase + (f64::from(i) + jitter) * step;
        let r = rng.next_range_f64(COAST_RING_MIN_RADIUS, COAST_RING_MAX_RADIUS) * ISLAND_RADIUS;
        out.push(PlacedSite {
            x: r * libm::cos(angle),
            y: r * libm::sin(angle),
            on_coast_ring: true,
        });
    }
}

/// Best-candidate sampling: of [`CANDIDATES_PER_SITE`] uniform candidates,
/// keep the one farthest from every site so far (first wins ties). Radii
/// are drawn as `sqrt(u)` so candidates are uniform per area, not bunched at
/// the centre.
fn place_interior(count: u32, rng: &mut Pcg32, out: &mut Vec<PlacedSite>) {
    let mut grid = PointGrid::new(ISLAND_RADIUS);
    for s in out.iter() {
        grid.insert([s.x, s.y]);
    }
    for _ in 0..count {
        let mut best: Option<([f64; 2], f64)> = None;
        let mut tries = 0;
        // A candidate on top of an existing site (distance exactly 0) is
        // never kept: it would vanish from the triangulation. Drawing until
        // one is off-site almost never takes more than the usual batch.
        while tries < CANDIDATES_PER_SITE || best.is_none_or(|(_, d)| d == 0.0) {
            tries += 1;
            let r = INTERIOR_MAX_RADIUS * ISLAND_RADIUS * rng.next_f64().sqrt();
            let theta = rng.next_f64() * TAU;
            let p = [r * libm::cos(theta), r * libm::sin(theta)];
            let floor = best.map_or(0.0, |(_, d)| d);
            let d = grid.nearest_dist2(p, floor).unwrap_or(f64::INFINITY);
            if best.is_none_or(|(_, bd)| d > bd) {
                best = Some((p, d));
            }
        }
        let (p, _) = best.expect("at least one candidate was drawn");
        grid.insert(p);
        out.push(PlacedSite {
            x: p[0],
            y: p[1],
            on_coast_ring: false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mangekyo_core::Seed;

    #[test]
    fn coast_count_follows_the_guide() {
        assert_eq!(coast_count(3), 3);
        assert_eq!(coast_count(10), 4);
        assert_eq!(coast_count(16), 6);
        assert_eq!(coast_count(20), 7);
        assert_eq!(coast_count(100_000), 7);
    }

    #[test]
    fn sites_lie_in_their_bands() {
        for seed in 0..50 {
            let mut rng = Pcg32::for_purpose(Seed::new(seed), "layout");
            let sites = place_sites((18, 24), &mut rng);
            assert!((18..=24).contains(&sites.len()));
            for s in &sites {
                let r = (s.x * s.x + s.y * s.y).sqrt();
                if s.on_coast_ring {
                    assert!(
                        (COAST_RING_MIN_RADIUS..=COAST_RING_MAX_RADIUS + 1e-12).contains(&r),
                        "{r}"
                    );
                } else {
                    assert!(r <= INTERIOR_MAX_RADIUS + 1e-12, "{r}");
                }
            }
        }
    }

    #[test]
    fn best_candidate_spreads_sites_apart() {
        // Blue noise: the closest pair of 2000 best-candidate sites is far
        // wider than that of 2000 uniform points (~1/n of the radius).
        let mut rng = Pcg32::new(1, 1);
        let sites = place_sites((2000, 2000), &mut rng);
        let mut grid = PointGrid::new(1.0);
        let mut closest = f64::INFINITY;
        for s in &sites {
            if let Some(d) = grid.nearest_dist2([s.x, s.y], 0.0) {
                closest = closest.min(d.sqrt());
            }
            grid.insert([s.x, s.y]);
        }
        assert!(closest > 0.004, "closest pair {closest}");
    }
}
