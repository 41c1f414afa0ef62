//! Flow routing: a priority flood from the sea resolves depressions (keys
//! are (level, node), a total order), every land node drains to its
//! steepest-descent neighbour among the nodes flooded before it, so the
//! receivers form a forest rooted in the sea and the flood order is a
//! stack order (every node after its receiver). Drainage is summed in u64.

use super::{Mesh, order_key};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// No receiver: a root (the sea, or an endorheic lake's floor).
pub const NONE: u32 = u32::MAX;

/// The drainage of one surface.
#[derive(Clone, Debug, PartialEq)]
pub struct Routing {
    /// Nodes in flood order: each node comes after its receiver.
    pub order: Vec<u32>,
    /// Each node's receiver, or [`NONE`] for a root.
    pub receiver: Vec<u32>,
    /// The water level: 0 at sea, the spill level in a depression, else the
    /// ground. Never higher at a receiver than at its donor.
    pub level: Vec<f64>,
    /// Lake id per node ([`NONE`] outside lakes).
    pub lake: Vec<u32>,
    /// The lakes, ordered by their first node.
    pub lakes: Vec<Lake>,
}

/// A depression filled to its pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Lake {
    /// Its surface, metres (the pass's height).
    pub level: f64,
    /// Its nodes, sorted.
    pub nodes: Vec<u32>,
    /// Surface area, m².
    pub area: f64,
    /// Where it spills: the node outside the lake that its water runs to
    /// ([`NONE`] when endorheic).
    pub outlet: u32,
    /// Evaporation over its surface meets its inflow: no outlet (a salt lake).
    pub endorheic: bool,
    /// The discharge that reaches it, m³/yr.
    pub inflow: u64,
}

/// Routes `height` (metres; nodes with `ocean` set are the sea, level 0).
/// A planet without sea drains to its lowest node.
pub fn route(mesh: &Mesh, height: &[f64], ocean: &[bool]) -> Routing {
    route_in(mesh, height, ocean, &[], None)
}

/// [`route`] with closed basins: each of `sinks` is a root at its own
/// ground (a terminal lake's floor), flooded from like the sea. With
/// `regions`, water stays in its region (a node is claimed and drained
/// only by nodes of the same region): the drainage divides stay where
/// they were while erosion reshapes the ground. With neither, exactly
/// [`route`].
pub fn route_in(
    mesh: &Mesh,
    height: &[f64],
    ocean: &[bool],
    sinks: &[u32],
    regions: Option<&[u32]>,
) -> Routing {
    let count = mesh.len();
    let mut level = vec![0.0f64; count];
    let mut rank = vec![u32::MAX; count];
    let mut seen = vec![false; count];
    let mut heap = BinaryHeap::new();
    for k in 0..count {
        if ocean[k] {
            seen[k] = true;
            heap.push(Reverse((order_key(0.0), k as u32)));
        }
    }
    let mut sink = vec![false; if sinks.is_empty() { 0 } else { count }];
    for &s in sinks {
        let su = s as usize;
        if !seen[su] {
            seen[su] = true;
            sink[su] = true;
            level[su] = height[su];
            heap.push(Reverse((order_key(height[su]), s)));
        }
    }
    let same = |a: u32, b: u32| regions.is_none_or(|r| r[a as usize] == r[b as usize]);
    if heap.is_empty() {
        let low = (0..count as u32)
            .min_by_key(|&k| (order_key(height[k as usize]), k))
            .unwrap_or(0);
        seen[low as usize] = true;
        level[low as usize] = height[low as usize];
        heap.push(Reverse((order_key(height[low as usize]), low)));
    }
    let mut order = Vec::with_capacity(count);
    while let Some(Reverse((_, c))) = heap.pop() {
        rank[c as usize] = order.len() as u32;
        order.push(c);
        let lc = level[c as usize];
        for &m in mesh.neighbours(c) {
            if !seen[m as usize] && same(c, m) {
                seen[m as usize] = true;
                let l = height[m as usize].max(lc);
                level[m as usize] = l;
                heap.push(Reverse((order_key(l), m)));
            }
        }
    }
    let receiver: Vec<u32> = (0..count as u32)
        .map(|k| {
            if ocean[k as usize] || rank[k as usize] == 0 || sink.get(k as usize) == Some(&true) {
                return NONE;
            }
            let mut best = NONE;
            let mut best_slope = f64::NEG_INFINITY;
            for &m in mesh.neighbours(k) {
                if rank[m as usize] >= rank[k as usize] || !same(k, m) {
                    continue;
                }
                let slope = (level[k as usize] - level[m as usize]) / mesh.dist(k, m);
                // Neighbours are sorted, so the first of equal slopes is the
                // lowest index.
                if slope > best_slope {
                    best_slope = slope;
                    best = m;
                }
            }
            best
        })
        .collect();
    let mut routing = Routing {
        order,
        receiver,
        level,
        lake: vec![NONE; count],
        lakes: Vec::new(),
    };
    find_lakes(mesh, height, ocean, &mut routing);
    routing
}

/// Lakes: connected nodes flooded above their ground to one shared level.
fn find_lakes(mesh: &Mesh, height: &[f64], ocean: &[bool], r: &mut Routing) {
    let count = mesh.len();
    let flooded = |k: usize| !ocean[k] && r.level[k] > height[k];
    let mut queue = Vec::new();
    for k0 in 0..count {
        if !flooded(k0) || r.lake[k0] != NONE {
            continue;
        }
        let id = r.lakes.len() as u32;
        let l = r.level[k0];
        r.lake[k0] = id;
        queue.clear();
        queue.push(k0 as u32);
        let mut at = 0;
        while at < queue.len() {
            let c = queue[at];
            at += 1;
            for &m in mesh.neighbours(c) {
                let m = m as usize;
                if r.lake[m] == NONE && flooded(m) && r.level[m].to_bits() == l.to_bits() {
                    r.lake[m] = id;
                    queue.push(m as u32);
                }
            }
        }
        let mut nodes = queue.clone();
        nodes.sort_unstable();
        let area = nodes.iter().map(|&k| mesh.area[k as usize]).sum();
        // The outlet: where the lake's lowest-ranked exit drains.
        let outlet = nodes
            .iter()
            .map(|&k| r.receiver[k as usize])
            .filter(|&m| m != NONE && r.lake[m as usize] != id)
            .min()
            .unwrap_or(NONE);
        r.lakes.push(Lake {
            level: l,
            nodes,
            area,
            outlet,
            endorheic: outlet == NONE,
            inflow: 0,
        });
    }
}

/// Each node's root: the node its water ends at (the sea, a closed lake's
/// exit or floor; itself where it has no receiver), in stack order.
pub fn roots(r: &Routing) -> Vec<u32> {
    let mut root = vec![NONE; r.receiver.len()];
    for &k in &r.order {
        let to = r.receiver[k as usize];
        root[k as usize] = if to == NONE { k } else { root[to as usize] };
    }
    root
}

/// Sums `weight` (e.g. precipitation × area in m³/yr) down the receivers:
/// each node's value is its own plus all its donors'. Exact in integers,
/// so independent of order and thread count.
pub fn accumulate(r: &Routing, weight: &[u64]) -> Vec<u64> {
    let mut acc = weight.to_vec();
    for &k in r.order.iter().rev() {
        let to = r.receiver[k as usize];
        if to != NONE {
            acc[to as usize] += acc[k as usize];
        }
    }
    acc
}

/// Closes the lakes whose evaporation (`evaporation` m/yr over their
/// surface) meets their inflow: their exits become roots, and what they
/// held back is taken off every node downstream. Upstream lakes (higher
/// levels) are settled first, so a lake's inflow already lacks what
/// closed lakes above it keep. Fills each lake's `inflow`.
pub fn close_endorheic(r: &mut Routing, discharge: &mut [u64], evaporation: f64) {
    close_endorheic_by(r, discharge, &|lake: &Lake| evaporation * lake.area);
}

/// [`close_endorheic`] with the volume a lake's surface evaporates in a
/// year (m³/yr) given by `evaporates` (where it varies over the planet).
pub fn close_endorheic_by(
    r: &mut Routing,
    discharge: &mut [u64],
    evaporates: &dyn Fn(&Lake) -> f64,
) {
    let mut by_level: Vec<u32> = (0..r.lakes.len() as u32).collect();
    by_level.sort_by_key(|&l| (Reverse(order_key(r.lakes[l as usize].level)), l));
    for id in by_level {
        let lake = &r.lakes[id as usize];
        // Exits: lake nodes draining out of the lake.
        let exits: Vec<u32> = lake
            .nodes
            .iter()
            .copied()
            .filter(|&k| {
                let to = r.receiver[k as usize];
                to != NONE && r.lake[to as usize] != id
            })
            .collect();
        let roots: u64 = lake
            .nodes
            .iter()
            .filter(|&&k| r.receiver[k as usize] == NONE)
            .map(|&k| discharge[k as usize])
            .sum();
        let inflow = exits.iter().map(|&k| discharge[k as usize]).sum::<u64>() + roots;
        let evaporates = evaporates(lake);
        let lake = &mut r.lakes[id as usize];
        lake.inflow = inflow;
        if lake.endorheic || (inflow as f64) > evaporates {
            continue;
        }
        lake.endorheic = true;
        lake.outlet = NONE;
        for k in exits {
            let held = discharge[k as usize];
            let mut to = r.receiver[k as usize];
            r.receiver[k as usize] = NONE;
            while to != NONE {
                // Never below zero where losses on the way took more
                // (exact subtraction otherwise: sums are exact).
                discharge[to as usize] = discharge[to as usize].saturating_sub(held);
                to = r.receiver[to as usize];
            }
        }
    }
}
