//! Rivers from the drainage: every land node outside lakes whose upstream
//! area reaches a threshold is a river node, and its edge to its receiver
//! a segment. Segments carry the water level at both ends (the routing
//! level, which never rises downstream), discharge, width and depth, and
//! chain into links (source or confluence to the next confluence, lake or
//! sea) with Strahler orders. Under [`RiverRule::lake_outlets`] a river
//! that leaves a lake starts with a segment from the lake's own node.

use super::erosion::Hydrology;
use super::routing::NONE;
use super::{Mesh, SECONDS_PER_YEAR};
use crate::graph::SphereGraph;
use mangekyo_core::hash::mix64;

/// Upstream area from which a node's edge is a river, km² (at least four
/// cells of the graph, so coarse graphs do not draw one-cell rivers). At
/// 5000 km² the default planet's network has Earth's Horton ratio; smaller
/// thresholds add pinnate one-cell tributaries (ratios above 5).
pub const RIVER_AREA_KM2: f64 = 5000.0;

/// One river edge, from a node to its receiver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// Upstream node.
    pub from: u32,
    /// Downstream node (its receiver).
    pub to: u32,
    /// Water level at `from` and at `to`, metres (`to` ≤ `from`).
    pub z_from: f32,
    /// Water level at `to`, metres.
    pub z_to: f32,
    /// Discharge, m³/s.
    pub discharge: f32,
    /// Channel width, metres.
    pub width: f32,
    /// Channel depth at the centreline, metres.
    pub depth: f32,
    /// Upstream area at `from`, km².
    pub area_km2: f32,
    /// Longest flow path upstream of `from`, km (the main stem, for Hack's law).
    pub main_stem_km: f32,
    /// Strahler order.
    pub order: u8,
    /// Where `to` lies: 0 land, 1 sea, 2 lake.
    pub mouth: u8,
    /// The link it belongs to.
    pub link: u32,
}

/// Channel width (hydraulic geometry, w ≈ 4·Q^½) and depth (≈ 0.35·Q^⅜),
/// metres, of discharge `q` m³/s; square roots only.
pub fn channel(q: f64) -> (f64, f64) {
    let s = q.max(0.0).sqrt();
    let q8 = s.sqrt().sqrt();
    ((4.0 * s).max(4.0), (0.35 * s.sqrt() * q8).max(0.5))
}

/// Meander amplitude of a segment, as a fraction of its length (signed):
/// a hashed S-bend that vanishes at both nodes.
pub fn meander(from: u32, to: u32) -> f64 {
    let h = mix64((u64::from(from) << 32 | u64::from(to)) ^ 0x4d45_414e_4445_5253);
    let u = (h >> 11) as f64 / (1u64 << 53) as f64;
    (u - 0.5) * 0.16
}

/// The river segments of `hyd`, grouped by link, links in order of their
/// first river node (a lake's outlet, for a river that leaves a lake from
/// the lake's node); empty when no node drains enough.
pub fn extract(mesh: &Mesh, hyd: &Hydrology, ocean: &[bool]) -> Vec<Segment> {
    extract_by(mesh, hyd, ocean, &RiverRule::default())
}

/// What else a node needs to be a river ([`extract_by`]), beyond
/// draining [`RIVER_AREA_KM2`].
#[derive(Clone, Debug, Default)]
pub struct RiverRule<'a> {
    /// The least mean runoff over its catchment, m/yr (its discharge over
    /// the area threshold): dry ground draws fewer rivers.
    pub min_runoff_m: f64,
    /// Nodes that are ice: neither end of a river edge lies on one
    /// (meltwater runs under the ice and leaves at its margin).
    pub ice: Option<&'a [bool]>,
    /// Join each lake to the river that leaves it: a segment from the
    /// lake's lowest node beside its outlet to the outlet, at the
    /// outlet's level, so the river starts in the lake's water rather
    /// than a cell away from it.
    pub lake_outlets: bool,
}

/// [`extract`] under `rule`.
pub fn extract_by(mesh: &Mesh, hyd: &Hydrology, ocean: &[bool], rule: &RiverRule) -> Vec<Segment> {
    let r = &hyd.routing;
    let count = mesh.len();
    let min_area = ((RIVER_AREA_KM2 * 1e6) as u64).max({
        let mean = mesh.area.iter().sum::<f64>() / count as f64;
        (4.0 * mean) as u64
    });
    let min_discharge = (rule.min_runoff_m * min_area as f64) as u64;
    let on_ice = |k: usize| rule.ice.is_some_and(|ice| ice[k]);
    let is_river = |k: usize| {
        !ocean[k]
            && r.lake[k] == NONE
            && r.receiver[k] != NONE
            && hyd.upstream_area[k] >= min_area
            && hyd.discharge[k] >= min_discharge
            && !on_ice(k)
            && !on_ice(r.receiver[k] as usize)
    };
    // River donors per node, Strahler orders and main-stem lengths, upstream first.
    let mut donors = vec![0u32; count];
    let mut order = vec![0u8; count];
    let mut top = vec![0u8; count];
    let mut stem = vec![0.0f64; count];
    for &k in r.order.iter().rev() {
        let ku = k as usize;
        let to = r.receiver[ku];
        if to == NONE {
            continue;
        }
        let l = stem[ku] + mesh.dist(k, to);
        if l > stem[to as usize] {
            stem[to as usize] = l;
        }
        if !is_river(ku) {
            continue;
        }
        if order[ku] == 0 {
            order[ku] = 1;
        }
        let t = to as usize;
        donors[t] += 1;
        if order[ku] > top[t] {
            top[t] = order[ku];
            order[t] = order[ku];
        } else if order[ku] == top[t] {
            order[t] = top[t] + 1;
        }
    }
    // Under `lake_outlets` a lake's outlet starts a link of its own (its
    // river then starts in the lake: [`join_outlets`]).
    let mut outlet = vec![false; count];
    if rule.lake_outlets {
        for lake in r.lakes.iter().filter(|l| l.outlet != NONE) {
            outlet[lake.outlet as usize] = true;
        }
    }
    let mut starts: Vec<u32> = (0..count as u32)
        .filter(|&k| is_river(k as usize) && (donors[k as usize] != 1 || outlet[k as usize]))
        .collect();
    starts.sort_unstable();
    let mut segments = Vec::new();
    for (link, &s) in starts.iter().enumerate() {
        let mut k = s;
        loop {
            let ku = k as usize;
            let to = r.receiver[ku];
            let q = hyd.discharge[ku] as f64 / SECONDS_PER_YEAR;
            let (width, depth) = channel(q);
            let t = to as usize;
            let mouth = if ocean[t] {
                1
            } else if r.lake[t] != NONE {
                2
            } else {
                0
            };
            let z = |n: usize| if ocean[n] { 0.0 } else { r.level[n] };
            segments.push(Segment {
                from: k,
                to,
                z_from: z(ku) as f32,
                z_to: z(t) as f32,
                discharge: q as f32,
                width: width as f32,
                depth: depth as f32,
                area_km2: (hyd.upstream_area[ku] as f64 / 1e6) as f32,
                main_stem_km: (stem[ku] / 1000.0) as f32,
                order: order[ku],
                mouth,
                link: link as u32,
            });
            if mouth != 0 || !is_river(t) || donors[t] != 1 || outlet[t] {
                break;
            }
            k = to;
        }
    }
    if rule.lake_outlets {
        segments = join_outlets(mesh, hyd, segments, &on_ice);
    }
    segments
}

/// Puts before the first segment of each river that leaves a lake (from
/// its outlet, the node its water spills to, which starts a link) a
/// segment from the lake: from its node beside the outlet whose ground
/// lies lowest (ties to the lower index; not on ice), at the outlet's
/// level at both ends and with the river's discharge, channel, order and
/// link. Lakes whose outlet starts no river keep none; where two lakes
/// spill to one outlet, the one listed first joins it. Links keep their
/// order, each still one run of segments.
fn join_outlets(
    mesh: &Mesh,
    hyd: &Hydrology,
    segments: Vec<Segment>,
    on_ice: &dyn Fn(usize) -> bool,
) -> Vec<Segment> {
    let r = &hyd.routing;
    // The segment each node starts (a node drains to one receiver).
    let mut starting = vec![u32::MAX; mesh.len()];
    for (i, s) in segments.iter().enumerate() {
        starting[s.from as usize] = i as u32;
    }
    let mut joins = vec![None; segments.len()];
    for (id, lake) in r.lakes.iter().enumerate() {
        if lake.outlet == NONE {
            continue;
        }
        let first = starting[lake.outlet as usize];
        if first == u32::MAX || joins[first as usize].is_some() {
            continue;
        }
        let first = first as usize;
        let spill = mesh
            .neighbours(lake.outlet)
            .iter()
            .copied()
            .filter(|&k| r.lake[k as usize] == id as u32 && !on_ice(k as usize))
            .min_by(|&a, &b| {
                hyd.height[a as usize]
                    .total_cmp(&hyd.height[b as usize])
                    .then(a.cmp(&b))
            });
        if let Some(spill) = spill {
            let s = segments[first];
            joins[first] = Some(Segment {
                from: spill,
                to: lake.outlet,
                z_to: s.z_from,
                mouth: 0,
                ..s
            });
        }
    }
    let mut out = Vec::with_capacity(segments.len() + joins.iter().flatten().count());
    for (s, join) in segments.into_iter().zip(joins) {
        out.extend(join);
        out.push(s);
    }
    out
}

/// The cell → segment index (CSR): `ids[start[c]..start[c + 1]]` are the
/// segments that can reach a sample in cell `c`: each segment is listed in
/// the cells around its two nodes and the cells it may cross (those next
/// to both), one ring out. Samples then look only at their own cell's list,
/// so a sample's river is the same in every chunk that holds it.
pub fn index(graph: &SphereGraph, segments: &[Segment]) -> (Vec<u32>, Vec<u32>) {
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut near = Vec::new();
    for (s, seg) in segments.iter().enumerate() {
        near.clear();
        let na = graph.neighbours(seg.from);
        let nb = graph.neighbours(seg.to);
        let mut core = vec![seg.from, seg.to];
        core.extend(na.iter().filter(|m| nb.contains(m)));
        for &c in &core {
            near.push(c);
            near.extend(graph.neighbours(c));
        }
        near.sort_unstable();
        near.dedup();
        pairs.extend(near.iter().map(|&c| (c, s as u32)));
    }
    pairs.sort_unstable();
    let cells = graph.len();
    let mut start = vec![0u32; cells + 1];
    for &(c, _) in &pairs {
        start[c as usize + 1] += 1;
    }
    for c in 0..cells {
        start[c + 1] += start[c];
    }
    (start, pairs.into_iter().map(|(_, s)| s).collect())
}
