//! Sea routes (the scope key `sea_routes`): which sites of one type the
//! boats link, how far and how long. A pure function of (definitions, map):
//! it draws no random numbers and the map does not hold its result, so an
//! island's layout and its golden hashes stay what they were; the spawner
//! and the SVG view both call [`sea_routes`].
//!
//! A route keeps off the land: from its first site straight out to the
//! circle of [`SEA_RADIUS`], along that circle the shorter way round, and
//! straight in to the other site. Angles come from `libm` (no platform
//! maths), so routes are the same on every machine.

use crate::GenerateError;
use crate::defs::{Definitions, SeaRoutesDef};
use crate::generate::paths::TRAVEL_MINUTES_STEP;
use crate::generate::place::ISLAND_RADIUS;
use crate::map::IslandMap;
use std::collections::BTreeSet;
use std::f64::consts::PI;

/// The circle boats sail along: outside every coast-ring site (at most
/// 0.95) and the drawn coastline (0.07 beyond them), inside the SVG's
/// frame (1.08).
pub const SEA_RADIUS: f64 = 1.05 * ISLAND_RADIUS;

/// One sea route between two sites (`a < b`), sailed both ways.
#[derive(Clone, Debug, PartialEq)]
pub struct SeaRoute {
    /// The lower site id.
    pub a: u32,
    /// The higher site id.
    pub b: u32,
    /// Length by sea in metres.
    pub meters: f64,
    /// Minutes at the scope's boat speed: whole steps of
    /// [`TRAVEL_MINUTES_STEP`], at least one (the grain of walking times).
    pub travel_minutes: u32,
}

/// Where a route leaves the shore of a site and how it goes round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeaArc {
    /// Angle of the first site (radians, from +x towards +y).
    pub start: f64,
    /// Signed angle swept from `start` to the second site, in `[-π, π]`:
    /// positive is anticlockwise (the shorter way; exactly half round
    /// goes anticlockwise).
    pub sweep: f64,
}

/// The arc of a route from site `(ax, ay)` to site `(bx, by)`.
pub fn sea_arc(ax: f64, ay: f64, bx: f64, by: f64) -> SeaArc {
    let start = libm::atan2(ay, ax);
    let mut sweep = libm::atan2(by, bx) - start;
    if sweep > PI {
        sweep -= 2.0 * PI;
    } else if sweep <= -PI {
        sweep += 2.0 * PI;
    }
    SeaArc { start, sweep }
}

/// Length of the route between two sites in island units: out, round,
/// in.
pub fn sea_distance(ax: f64, ay: f64, bx: f64, by: f64) -> f64 {
    let out = (SEA_RADIUS - (ax * ax + ay * ay).sqrt()).max(0.0);
    let into = (SEA_RADIUS - (bx * bx + by * by).sqrt()).max(0.0);
    out + SEA_RADIUS * sea_arc(ax, ay, bx, by).sweep.abs() + into
}

/// Minutes to sail `meters` at `meters_per_minute`, rounded up to whole
/// [`TRAVEL_MINUTES_STEP`]s, at least one step.
pub fn sail_minutes(meters: f64, meters_per_minute: f64) -> u32 {
    let steps = (meters / meters_per_minute / f64::from(TRAVEL_MINUTES_STEP))
        .ceil()
        .max(1.0);
    (steps as u32).saturating_mul(TRAVEL_MINUTES_STEP)
}

/// The sea routes of `map` under its scope's `sea_routes`, sorted by
/// `(a, b)`; none if the scope has no boats or fewer than two sites of
/// the type. Every site of the type links to its `nearest` others by sea
/// (ties by site id), or to every other; a pair is one route whichever
/// end chose it.
pub fn sea_routes(defs: &Definitions, map: &IslandMap) -> Result<Vec<SeaRoute>, GenerateError> {
    let scope = defs.scope(&map.scope)?;
    Ok(match &scope.sea_routes {
        Some(sea) => routes(map, sea, scope.meters_per_distance_unit),
        None => Vec::new(),
    })
}

fn routes(map: &IslandMap, sea: &SeaRoutesDef, meters_per_unit: f64) -> Vec<SeaRoute> {
    let ports: Vec<u32> = map
        .sites
        .iter()
        .filter(|s| s.location_type == sea.between)
        .map(|s| s.id)
        .collect();
    let meters = |a: u32, b: u32| {
        let (p, q) = (&map.sites[a as usize], &map.sites[b as usize]);
        sea_distance(p.x, p.y, q.x, q.y) * meters_per_unit
    };
    let mut pairs = BTreeSet::new();
    for &p in &ports {
        let mut others: Vec<(f64, u32)> = ports
            .iter()
            .filter(|&&q| q != p)
            .map(|&q| (meters(p, q), q))
            .collect();
        others.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let take = sea.nearest.map_or(others.len(), |k| k as usize);
        for &(_, q) in others.iter().take(take) {
            pairs.insert((p.min(q), p.max(q)));
        }
    }
    pairs
        .into_iter()
        .map(|(a, b)| {
            let m = meters(a, b);
            SeaRoute {
                a,
                b,
                meters: m,
                travel_minutes: sail_minutes(m, sea.meters_per_minute),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arcs_go_the_shorter_way_round() {
        let a = sea_arc(1.0, 0.0, 0.0, 1.0);
        assert!((a.sweep - PI / 2.0).abs() < 1e-12);
        let b = sea_arc(0.0, 1.0, 1.0, 0.0);
        assert!((b.sweep + PI / 2.0).abs() < 1e-12);
        // Across the -x axis: from just above to just below, anticlockwise.
        let c = sea_arc(-1.0, 0.1, -1.0, -0.1);
        assert!(c.sweep > 0.0 && c.sweep < 0.3, "{c:?}");
        // Exactly half round: anticlockwise, both ways the same length.
        assert!((sea_arc(1.0, 0.0, -1.0, 0.0).sweep - PI).abs() < 1e-12);
        assert_eq!(
            sea_distance(0.9, 0.0, -0.9, 0.0),
            sea_distance(-0.9, 0.0, 0.9, 0.0)
        );
    }

    #[test]
    fn a_route_is_out_round_and_in() {
        let d = sea_distance(0.9, 0.0, 0.0, 0.8);
        let want = (SEA_RADIUS - 0.9) + SEA_RADIUS * PI / 2.0 + (SEA_RADIUS - 0.8);
        assert!((d - want).abs() < 1e-12);
        // Never shorter than the straight line over the land.
        assert!(d > (0.9f64 * 0.9 + 0.8 * 0.8).sqrt());
    }

    #[test]
    fn minutes_are_whole_steps() {
        assert_eq!(sail_minutes(0.0, 200.0), TRAVEL_MINUTES_STEP);
        assert_eq!(sail_minutes(3000.0, 200.0), 15);
        assert_eq!(sail_minutes(3001.0, 200.0), 30);
        assert_eq!(sail_minutes(f64::MAX, 1.0), u32::MAX);
    }
}
