//! The water balance ([`crate::version::Balance::Budyko`]): how much of the
//! rain runs off, which depressions evaporation keeps closed, how large
//! their terminal lakes grow, and where ice stores water instead of
//! routing it.
//!
//! - Evapotranspiration by Fu's form of the Budyko curve,
//!   E/P = 1 + φ − (1 + φ^ω)^(1/ω) with φ = PET/P: wet ground is limited
//!   by energy (E → PET), dry ground by water (E → P). Runoff is P − E.
//! - PET from Holdridge's biotemperature (58.93 mm/yr per °C), with the
//!   year's months stood in for by a soft floor at 0 °C, so cold ground
//!   still loses some water to summer evaporation.
//! - Rivers lose water where the air is dry (bed seepage and floodplain
//!   evaporation): small desert streams die out, big ones thin.
//! - A depression of the tectonic ground whose inflow its surface can
//!   evaporate stays closed: its catchment drains inland, to a terminal
//!   lake or salt flat at its floor, filled until evaporation over the
//!   lake meets what flows in.
//! - A depression that spills keeps its deep part as a lake (sediment
//!   fills the shallows), pressed back into the eroded ground.
//! - Ice stores: no river runs on ice, and the water it sheds leaves as
//!   rivers at its margin.
//!
//! Everything is per node and in index or flood order, with `libm`'s
//! correctly specified functions, so the same bits come out everywhere.

use super::Mesh;
use super::routing::{self, NONE, Routing};
use crate::hydro::order_key;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Holdridge's potential evapotranspiration per degree of
/// biotemperature, metres per year.
const PET_PER_C_M: f64 = 0.05893;
/// Width of the soft floor at 0 °C, °C: cold ground still has summer
/// months above freezing, so its biotemperature is softplus(t / 14 °C)·14
/// °C (about 6 °C at a mean of −9 °C, where Yakutsk's PET is about
/// 350 mm). Narrower floors left cold wet ground shedding 85–95 % of its
/// rain, against Earth's boreal 50–60 %.
const SEASON_C: f64 = 14.0;
/// Fu's ω: the global mean fit of the Budyko curve to basins (about
/// 2.6); higher would evaporate more.
const FU_OMEGA: f64 = 2.6;
/// Open water evaporates this much more than land can (no stomata, low
/// albedo: Penman's lake evaporation against a grassland's PET).
const OPEN_WATER: f64 = 1.2;
/// A node is ice when its mean annual temperature is below the ice line
/// (`ecology::ICE_C`) plus this margin, °C: the margin covers the
/// temperature noise (±3 °C) that chunks add, so no river sample lands on
/// an ice-sheet sample.
pub const ICE_MARGIN_C: f64 = 4.0;
/// The least runoff a river's catchment must yield on average, metres per
/// year: a river node needs a discharge of its area threshold times this
/// (64 m³/s at 5,000 km²), so a desert (a few millimetres) draws few
/// rivers and wet ground about as many as before.
pub const RIVER_RUNOFF_M: f64 = 0.4;

/// Potential evapotranspiration at mean annual temperature `t_c`, m/yr.
pub fn pet_m(t_c: f64) -> f64 {
    // softplus(t) = s·ln(1 + e^(t/s)), then Holdridge's 30 °C cap.
    let x = t_c / SEASON_C;
    let soft = if x > 30.0 {
        t_c
    } else {
        SEASON_C * libm::log1p(libm::exp(x))
    };
    PET_PER_C_M * soft.min(30.0)
}

/// The share of precipitation `p` (m/yr) that runs off where the
/// potential evapotranspiration is `pet` (m/yr): 1 − E/P by Fu's curve,
/// in 0..=1.
pub fn runoff_ratio(p: f64, pet: f64) -> f64 {
    if p <= 0.0 {
        return 0.0;
    }
    let phi = (pet / p).max(0.0);
    let e = 1.0 + phi - libm::pow(1.0 + libm::pow(phi, FU_OMEGA), 1.0 / FU_OMEGA);
    (1.0 - e).clamp(0.0, 1.0)
}

/// How wide a river loses water, in channel widths: its bed, banks and
/// floodplain, where dry air evaporates and dry ground soaks up what
/// flows past (transmission losses: the Okavango and the inner Niger
/// delta end this way, and most desert channels run only after rain).
/// One lumped coefficient, set so deserts carry at most about a third of
/// forests' river length per area (`examples/water_survey.rs`): a
/// 5 m³/s stream loses about half its water per 22 km of hyper-arid
/// ground, a 2,000 m³/s river about 2.5 %.
pub const LOSS_WIDTHS: f64 = 200.0;

/// Depressions whose rim lies lower than this, metres, silt up whole:
/// near the sea, rivers' sediment fills them first (deltas and coastal
/// plains), and a lake there would sit on ground the noise puts below
/// the sea's level.
pub const LOWLAND_M: f64 = 100.0;
/// The lowest a pressed lake floor goes, metres above the sea.
pub const LAKE_FLOOR_M: f64 = 1.0;
/// How much of a spilling depression's depth sediment fills, metres:
/// shallower water becomes land, deeper water stays a lake
/// ([`kept_lakes`]).
pub const SILT_M: f64 = 60.0;

/// The water balance of each node.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeBalance {
    /// Runoff × cell area, m³/yr (0 at sea).
    pub runoff: Vec<u64>,
    /// What open water would evaporate there, m/yr.
    pub lake_evaporation: Vec<f64>,
    /// Whether the ground is under ice (its mean annual temperature below
    /// `ecology::ICE_C`): a depression there holds ice, not a lake.
    pub ice: Vec<bool>,
}

impl NodeBalance {
    /// The balance of nodes with `precipitation` (m/yr) at mean annual
    /// temperature `temperature` (°C).
    pub fn new(mesh: &Mesh, precipitation: &[f64], temperature: &[f64], ocean: &[bool]) -> Self {
        let mut runoff = Vec::with_capacity(mesh.len());
        let mut lake_evaporation = Vec::with_capacity(mesh.len());
        let ice = temperature
            .iter()
            .map(|&t| t < crate::ecology::ICE_C)
            .collect();
        for k in 0..mesh.len() {
            let pet = pet_m(temperature[k]);
            let p = precipitation[k].max(0.0);
            lake_evaporation.push((OPEN_WATER * pet - p).max(0.0));
            runoff.push(if ocean[k] {
                0
            } else {
                (p * runoff_ratio(p, pet) * mesh.area[k]).round() as u64
            });
        }
        NodeBalance {
            runoff,
            lake_evaporation,
            ice,
        }
    }

    /// What lake `lake` evaporates in a year, m³ (sums in node order).
    pub fn evaporates(&self, mesh: &Mesh, lake: &routing::Lake) -> f64 {
        lake.nodes
            .iter()
            .map(|&k| self.lake_evaporation[k as usize] * mesh.area[k as usize])
            .sum()
    }
}

/// Discharge down the receivers of `r` (m³/yr) when rivers lose water on
/// the way: each node passes on its own runoff and what reaches it from
/// upstream, less what its stretch of river evaporates and soaks away
/// (the open-water deficit over [`LOSS_WIDTHS`] channel widths along the
/// edge to its receiver). Computed in stack order, one node at a time:
/// the same bits everywhere.
pub fn lossy_discharge(
    mesh: &Mesh,
    r: &Routing,
    runoff: &[u64],
    balance: &NodeBalance,
) -> Vec<u64> {
    let mut q = runoff.to_vec();
    for &k in r.order.iter().rev() {
        let ku = k as usize;
        let to = r.receiver[ku];
        if to == NONE {
            continue;
        }
        let deficit = balance.lake_evaporation[ku];
        if deficit > 0.0 && r.lake[ku] == NONE {
            let (width, _) = super::rivers::channel(q[ku] as f64 / super::SECONDS_PER_YEAR);
            let loss = deficit * LOSS_WIDTHS * width * mesh.dist(k, to);
            q[ku] = (q[ku] as f64 - loss).max(0.0).round() as u64;
        }
        q[to as usize] += q[ku];
    }
    q
}

/// Closed basins on the first routing `r` (of the tectonic ground, whose
/// depressions are filled to their passes): every lake whose evaporation
/// takes its whole inflow is closed (upstream lakes first, so a closed
/// lake keeps back what would have reached the lakes below it). Returns
/// each node's region (the closed lake its water ends in, or [`NONE`]
/// for the sea) and each closed basin's sink (its lake's lowest node),
/// and leaves `r` with the closed lakes' exits as roots. Without sea
/// nothing is closed (the lowest node is the one root).
pub fn closed_basins(
    mesh: &Mesh,
    r: &mut Routing,
    height: &[f64],
    ocean: &[bool],
    balance: &NodeBalance,
) -> (Vec<u32>, Vec<u32>) {
    let count = mesh.len();
    if !ocean.iter().any(|&o| o) {
        return (vec![NONE; count], Vec::new());
    }
    let mut q = routing::accumulate(r, &balance.runoff);
    routing::close_endorheic_by(r, &mut q, &|lake| balance.evaporates(mesh, lake));
    let mut region = vec![NONE; count];
    let mut sinks = Vec::new();
    let mut closed_id = vec![NONE; r.lakes.len()];
    for (id, lake) in r.lakes.iter().enumerate() {
        if lake.endorheic {
            closed_id[id] = sinks.len() as u32;
            let low = lake
                .nodes
                .iter()
                .copied()
                .min_by_key(|&k| (order_key(height[k as usize]), k))
                .unwrap_or(NONE);
            sinks.push(low);
        }
    }
    let root = routing::roots(r);
    for (k, &at) in root.iter().enumerate() {
        let lake = r.lake[at as usize];
        if !ocean[at as usize] && lake != NONE {
            region[k] = closed_id[lake as usize];
        }
    }
    (region, sinks)
}

/// Lakes of the tectonic ground that erosion does not fill: the part of
/// each open (spilling) lake of the first routing `r` deeper than
/// [`SILT_M`] and not under ice, as (node, depth left) pairs per lake.
/// Erosion's steady state grades every depression away; on Earth the
/// shallow margins of a rift or a scoured basin silt up while its deep
/// part stays water.
pub fn kept_lakes(r: &Routing, h0: &[f64], ice: &[bool]) -> Vec<Vec<(u32, f64)>> {
    r.lakes
        .iter()
        .filter(|l| !l.endorheic)
        .map(|l| {
            l.nodes
                .iter()
                .filter(|&&k| !ice[k as usize])
                .map(|&k| (k, l.level - h0[k as usize] - SILT_M))
                .filter(|&(_, d)| d > 0.0)
                .collect::<Vec<_>>()
        })
        .filter(|n| !n.is_empty())
        .collect()
}

/// Presses the [`kept_lakes`] into the eroded ground `h`: each lake's
/// nodes sink to its lowest neighbour outside it less the depth they kept,
/// so the final routing floods them again, at that neighbour's height
/// (floors stop at [`LAKE_FLOOR_M`]; none below a rim of [`LOWLAND_M`]).
/// Only ever lowers, so every donor still drains into the lake.
pub fn press_lakes(mesh: &Mesh, h: &mut [f64], ocean: &[bool], lakes: &[Vec<(u32, f64)>]) {
    let mut inside = vec![false; h.len()];
    for lake in lakes {
        for &(k, _) in lake {
            inside[k as usize] = true;
        }
        let rim = lake
            .iter()
            .flat_map(|&(k, _)| mesh.neighbours(k).iter().copied())
            .filter(|&m| !inside[m as usize])
            .map(|m| {
                if ocean[m as usize] {
                    0.0
                } else {
                    h[m as usize]
                }
            })
            .fold(f64::INFINITY, f64::min);
        for &(k, depth) in lake {
            inside[k as usize] = false;
            // Never below the sea's level: heights under 0 m are sea to
            // every layer (a lake floor there would read as ocean).
            if rim.is_finite() && rim >= LOWLAND_M {
                let floor = (rim - depth).max(LAKE_FLOOR_M);
                h[k as usize] = h[k as usize].min(floor);
            }
        }
    }
}

/// The sink of each closed basin on the eroded ground `height`: its
/// region's lowest node (erosion may have lowered another below the
/// first floor). Regions with no node left keep their old sink.
pub fn lowest_sinks(height: &[f64], region: &[u32], sinks: &[u32]) -> Vec<u32> {
    let mut low: Vec<u32> = sinks.to_vec();
    for (k, &g) in region.iter().enumerate() {
        if g == NONE {
            continue;
        }
        let s = &mut low[g as usize];
        if (order_key(height[k]), k as u32) < (order_key(height[*s as usize]), *s) {
            *s = k as u32;
        }
    }
    low
}

/// Fills a terminal lake at each sink of the final routing `r`: water
/// rises over the sink's catchment in flood order until the lake's
/// evaporation meets the discharge that reaches the sink, or the
/// catchment's rim. Each lake is added to `r.lakes` (endorheic, without
/// outlet) and its nodes take its level and id; a sink whose inflow one
/// node's surface evaporates is a salt flat of that one node.
pub fn fill_terminal_lakes(
    mesh: &Mesh,
    r: &mut Routing,
    height: &[f64],
    discharge: &[u64],
    balance: &NodeBalance,
    sinks: &[u32],
) {
    let count = mesh.len();
    // Each node's root: the sink (or sea node) its water ends in.
    let root = routing::roots(r);
    let mut seen = vec![false; count];
    let mut heap = BinaryHeap::new();
    let mut nodes = Vec::new();
    for &s in sinks {
        let su = s as usize;
        if root[su] != s || r.lake[su] != NONE {
            continue;
        }
        let inflow = discharge[su];
        heap.clear();
        nodes.clear();
        heap.push(Reverse((order_key(height[su]), s)));
        seen[su] = true;
        let (mut area, mut evaporates) = (0.0f64, 0.0f64);
        let mut last = height[su];
        let mut rim = None;
        while let Some(Reverse((key, c))) = heap.pop() {
            if !nodes.is_empty() && evaporates >= inflow as f64 {
                rim = Some(key);
                break;
            }
            let cu = c as usize;
            nodes.push(c);
            last = last.max(height[cu]);
            area += mesh.area[cu];
            evaporates += balance.lake_evaporation[cu] * mesh.area[cu];
            for &m in mesh.neighbours(c) {
                let mu = m as usize;
                if !seen[mu] && root[mu] == s && r.lake[mu] == NONE {
                    seen[mu] = true;
                    heap.push(Reverse((order_key(height[mu].max(last)), m)));
                }
            }
        }
        for Reverse((_, m)) in heap.drain() {
            seen[m as usize] = false;
        }
        // The surface: halfway from the highest flooded ground to the
        // next ground the water would reach (or 1 m over it at the rim),
        // so every lake node is under water and no shore node is.
        let top = nodes
            .iter()
            .map(|&k| height[k as usize])
            .fold(f64::NEG_INFINITY, f64::max);
        let level = match rim {
            Some(key) => {
                let next = height_of_key(key);
                if next > top {
                    0.5 * (top + next)
                } else {
                    top + 1.0
                }
            }
            None => top + 1.0,
        };
        let id = r.lakes.len() as u32;
        let mut sorted = nodes.clone();
        sorted.sort_unstable();
        for &k in &sorted {
            r.lake[k as usize] = id;
            r.level[k as usize] = level;
        }
        r.lakes.push(routing::Lake {
            level,
            nodes: sorted,
            area,
            outlet: NONE,
            endorheic: true,
            inflow,
        });
    }
}

/// The height a flood key was made from (the inverse of `order_key`).
fn height_of_key(key: u64) -> f64 {
    if key >> 63 == 1 {
        f64::from_bits(key & !(1 << 63))
    } else {
        f64::from_bits(!key)
    }
}

/// Nodes whose ground is ice: mean annual temperature (sea-level
/// `sea_temperature`, °C, cooled at the lapse rate over `height`) below
/// the ice line plus [`ICE_MARGIN_C`].
pub fn ice(sea_temperature: &[f64], height: &[f64]) -> Vec<bool> {
    sea_temperature
        .iter()
        .zip(height)
        .map(|(&t, &h)| {
            crate::atmosphere::Atmosphere::air_temperature(t, h)
                < crate::ecology::ICE_C + ICE_MARGIN_C
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budyko_limits() {
        // Energy-limited: little PET, nearly all rain runs off.
        assert!(runoff_ratio(2.0, 0.05) > 0.95);
        // Water-limited: a desert keeps almost all its rain.
        assert!(runoff_ratio(0.1, 1.5) < 0.01);
        // A rainforest (2.5 m at 25 °C) sheds about half, as the Amazon.
        let r = runoff_ratio(2.5, pet_m(25.0));
        assert!((0.4..0.6).contains(&r), "{r}");
        // Rising with rain at fixed energy; falling with warmth at fixed rain.
        let mut last = 0.0;
        for p in [0.2, 0.5, 1.0, 2.0, 4.0] {
            let x = runoff_ratio(p, 1.0);
            assert!(x > last, "{p}: {x}");
            last = x;
        }
        assert!(pet_m(-10.0) < pet_m(0.0) && pet_m(0.0) < pet_m(20.0));
        assert!(pet_m(0.0) > 0.1 && pet_m(-30.0) > 0.0);
        assert_eq!(pet_m(60.0), PET_PER_C_M * 30.0);
    }

    #[test]
    fn keys_invert() {
        for h in [-4000.0, -0.5, 0.0, 0.25, 1234.5, 8800.0] {
            assert_eq!(height_of_key(order_key(h)), h);
        }
    }
}
