//! Stream-power erosion with hillslope diffusion (Braun–Willett 2013):
//! ∂h/∂t = U − K·(P·A)^m·S + D·∇²h with n = 1 and m = ½ (so (P·A)^m is a
//! correctly rounded square root, never a platform `powf`).
//!
//! It starts from the analytic steady state along the initial drainage
//! tree (Cordonnier 2016): h = h_receiver + U·L / (K·√(P·A)), with the
//! uplift U taken as proportional to the tectonic height (the plates' relief
//! is the uplift history) and scaled so mean land height is kept. Then a
//! fixed number of iterations reroute, solve the implicit step in stack
//! order (exact for n = 1) and diffuse; last, a final routing with an
//! ε-slope fill makes every receiver edge outside lakes strictly downhill.

use super::Mesh;
use super::balance::{self, NodeBalance};
use super::routing::{self, NONE, Routing};
use crate::version::Peaks;

/// Erosion settings (dimensionless per iteration: the scheme is the
/// implicit step with K·dt folded in).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErosionParams {
    /// K·dt, metres per √(m³/yr): how hard discharge cuts per iteration.
    pub k_dt: f64,
    /// Hillslope diffusion per iteration, the fraction of the gap to the
    /// neighbours' mean closed (0..1).
    pub diffusion: f64,
    /// Reroute–solve–diffuse rounds after the steady-state start.
    pub iterations: u32,
    /// Evaporation over lakes, metres per year.
    pub evaporation: f64,
    /// The least slope along a receiver edge outside lakes after the final
    /// routing (the ε-fill), metres per metre.
    pub min_slope: f64,
    /// The least precipitation the incision term sees, m/yr (0: the rain
    /// as it falls). Rivers and lakes always carry the real rain.
    pub precipitation_floor: f64,
    /// The ceiling and mean that land heights are mapped to, if any.
    pub bound: Option<ReliefBound>,
}

/// A ceiling on relief ([`Peaks::Bounded`]): land heights `h` become
/// `ceiling·φ(s·h/ceiling)` with φ(x) = x/(1 + x) (rising, φ(x) ≈ x for
/// small x, below 1 always; a softer knee than x/√(1 + x²), which
/// flattened massifs into plateaus) and the one scale `s` at which the
/// area-weighted mean land height is `mean_m`. Monotone, so every
/// drainage edge keeps its direction and lakes keep their basins.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReliefBound {
    /// The height land approaches and never reaches, metres.
    pub ceiling_m: f64,
    /// The mean height of land, metres.
    pub mean_m: f64,
}

/// [`Peaks::Bounded`]: the rain floor of the incision, m/yr (about the
/// mean over Earth's land): drier ground cuts as if this wet, so dryness
/// no longer raises relief (it made the 20–40 km peaks of version 4).
const PRECIPITATION_FLOOR: f64 = 0.8;
/// [`Peaks::Bounded`]: the ceiling at `plate_activity` 1, metres. The
/// highest samples come at 7.9–8.9 km, with at most 0.016 % of land above
/// 8 km (measured with `examples/relief_survey.rs` on 8 seeds; 13 km put
/// 0.048 % there).
const CEILING_M: f64 = 12_000.0;
/// [`Peaks::Bounded`]: the mean land height at `plate_activity` 1 (Earth's
/// is about 840 m).
const MEAN_LAND_M: f64 = 840.0;

impl ErosionParams {
    /// The settings of a version's [`Peaks`] stage for a planet of
    /// `plate_activity` (0 ..= 2): ceiling and mean grow with its square
    /// root (twice Earth's activity, 1.4× its heights), and never fall
    /// below a lowland's.
    pub fn for_peaks(peaks: Peaks, plate_activity: f64) -> ErosionParams {
        match peaks {
            Peaks::MeanKept => ErosionParams::default(),
            Peaks::Bounded => {
                let a = plate_activity.max(0.0).sqrt();
                ErosionParams {
                    precipitation_floor: PRECIPITATION_FLOOR,
                    bound: Some(ReliefBound {
                        ceiling_m: (CEILING_M * a).max(1_500.0),
                        mean_m: (MEAN_LAND_M * a).max(250.0),
                    }),
                    ..ErosionParams::default()
                }
            }
        }
    }
}

impl Default for ErosionParams {
    fn default() -> Self {
        ErosionParams {
            k_dt: 0.2,
            diffusion: 0.08,
            iterations: 3,
            evaporation: 1.2,
            min_slope: 1e-5,
            precipitation_floor: 0.0,
            bound: None,
        }
    }
}

/// The eroded surface and its drainage.
#[derive(Clone, Debug, PartialEq)]
pub struct Hydrology {
    /// Ground height after erosion, metres (the sea floor is untouched).
    pub height: Vec<f64>,
    /// The final routing (endorheic lakes closed).
    pub routing: Routing,
    /// Discharge through each node, m³/yr (precipitation × area summed
    /// down the receivers; exact).
    pub discharge: Vec<u64>,
    /// Upstream land area of each node, m² (rounded per cell, summed exactly).
    pub upstream_area: Vec<u64>,
    /// Each node's own runoff × area, m³/yr (0 at sea): all its rain, or
    /// what the water balance leaves of it.
    pub runoff: Vec<u64>,
}

/// Each land node's precipitation (m/yr) × cell area, rounded to m³/yr.
pub fn runoff(mesh: &Mesh, precipitation: &[f64], ocean: &[bool]) -> Vec<u64> {
    (0..mesh.len())
        .map(|k| {
            if ocean[k] {
                0
            } else {
                (precipitation[k].max(0.0) * mesh.area[k]).round() as u64
            }
        })
        .collect()
}

/// The implicit step's F at node `k` (with receiver at distance `l`).
#[inline]
fn incision(p: &ErosionParams, discharge: u64, l: f64) -> f64 {
    p.k_dt * (discharge as f64).sqrt() / l
}

/// The level a donor of `r` erodes towards: the sea, a lake's surface,
/// or the receiver's ground.
#[inline]
fn base(r: &Routing, height: &[f64], ocean: &[bool], to: u32) -> f64 {
    let t = to as usize;
    if ocean[t] {
        0.0
    } else if r.lake[t] != NONE {
        r.level[t]
    } else {
        height[t]
    }
}

/// Erodes the tectonic heights `h0` (metres; `ocean` where below sea level).
pub fn erode(
    mesh: &Mesh,
    h0: &[f64],
    ocean: &[bool],
    precipitation: &[f64],
    p: &ErosionParams,
) -> Hydrology {
    erode_observed(mesh, h0, ocean, precipitation, p, None, &|_| true)
        .unwrap_or_else(|| unreachable!("never cancelled"))
}

/// [`erode`], calling `observe(1)` after the steady state and after each
/// iteration: when it answers `false` the work stops and `None` comes
/// back (a server stopping). What it does changes nothing computed.
///
/// With a water balance (`Balance::Budyko`), rivers carry its runoff
/// rather than all the rain, lakes evaporate what it says, depressions of
/// `h0` that evaporation keeps closed drain inland through the erosion
/// (their divides held), and each ends in a terminal lake filled to
/// balance (`hydro::balance`).
pub fn erode_observed(
    mesh: &Mesh,
    h0: &[f64],
    ocean: &[bool],
    precipitation: &[f64],
    p: &ErosionParams,
    water: Option<&NodeBalance>,
    observe: &dyn Fn(u32) -> bool,
) -> Option<Hydrology> {
    let count = mesh.len();
    let runoff = match water {
        Some(b) => b.runoff.clone(),
        None => runoff(mesh, precipitation, ocean),
    };
    // What the incision sees: the rain, or the rain floored.
    let floored_runoff: Vec<u64>;
    let cutting: &[u64] = if p.precipitation_floor > 0.0 {
        let floored: Vec<f64> = precipitation
            .iter()
            .map(|&r| r.max(p.precipitation_floor))
            .collect();
        floored_runoff = self::runoff(mesh, &floored, ocean);
        &floored_runoff
    } else {
        &runoff
    };
    let uplift: Vec<f64> = h0.iter().map(|&h| h.max(0.0)).collect();
    let mut h: Vec<f64> = h0.to_vec();

    // The steady state along the initial tree: h = root + c·Σ U·L/F.
    let mut r = routing::route(mesh, &h, ocean);
    // Closed basins: their lakes' exits become roots of the tree.
    let (region, mut sinks) = match water {
        Some(b) => balance::closed_basins(mesh, &mut r, &h, ocean, b),
        None => (Vec::new(), Vec::new()),
    };
    let held = (!sinks.is_empty()).then_some(region.as_slice());
    let kept = match water {
        Some(b) => balance::kept_lakes(&r, h0, &b.ice),
        None => Vec::new(),
    };
    let q = routing::accumulate(&r, cutting);
    let mut root = vec![0.0f64; count];
    let mut path = vec![0.0f64; count];
    for &k in &r.order {
        let ku = k as usize;
        let to = r.receiver[ku];
        if ocean[ku] {
            continue;
        }
        if to == NONE {
            root[ku] = h0[ku];
            continue;
        }
        let l = mesh.dist(k, to);
        root[ku] = root[to as usize];
        path[ku] = path[to as usize] + uplift[ku] / incision(p, q[ku].max(1), l);
    }
    // Keep mean land height: c = Σ(h0 − root) / Σ path (sums in index order).
    let (mut want, mut have) = (0.0f64, 0.0f64);
    for k in 0..count {
        if !ocean[k] {
            want += h0[k] - root[k];
            have += path[k];
        }
    }
    let c = if have > 0.0 {
        (want / have).max(0.0)
    } else {
        0.0
    };
    for k in 0..count {
        if !ocean[k] {
            h[k] = root[k] + c * path[k];
        }
    }
    if !observe(1) {
        return None;
    }

    for _ in 0..p.iterations {
        if held.is_some() {
            sinks = balance::lowest_sinks(&h, &region, &sinks);
        }
        let r = routing::route_in(mesh, &h, ocean, &sinks, held);
        let q = routing::accumulate(&r, cutting);
        for &k in &r.order {
            let ku = k as usize;
            let to = r.receiver[ku];
            if ocean[ku] || to == NONE || r.lake[ku] != NONE {
                continue;
            }
            let f = incision(p, q[ku].max(1), mesh.dist(k, to));
            let b = base(&r, &h, ocean, to);
            h[ku] = (h[ku] + c * uplift[ku] + f * b) / (1.0 + f);
        }
        // Hillslope diffusion as a pure gather (the sea counts as 0 m).
        let prev = h.clone();
        for (k, hk) in h.iter_mut().enumerate() {
            if ocean[k] {
                continue;
            }
            let nb = mesh.neighbours(k as u32);
            let mut sum = 0.0;
            for &m in nb {
                sum += if ocean[m as usize] {
                    0.0
                } else {
                    prev[m as usize]
                };
            }
            let mean = sum / nb.len() as f64;
            *hk = prev[k] + p.diffusion * (mean - prev[k]);
        }
        if !observe(1) {
            return None;
        }
    }

    if let Some(b) = p.bound {
        bound_relief(&mut h, ocean, &mesh.area, b);
    }
    balance::press_lakes(mesh, &mut h, ocean, &kept);

    // Final routing (closed basins' sinks seeded, their divides free to
    // follow the ground); then the ε-fill in stack order so every
    // receiver edge outside lakes runs strictly downhill.
    if held.is_some() {
        sinks = balance::lowest_sinks(&h, &region, &sinks);
    }
    let mut r = routing::route_in(mesh, &h, ocean, &sinks, None);
    for i in 0..r.order.len() {
        let k = r.order[i];
        let ku = k as usize;
        let to = r.receiver[ku];
        if ocean[ku] || to == NONE || r.lake[ku] != NONE {
            continue;
        }
        let least = r.level[to as usize] + p.min_slope * mesh.dist(k, to);
        if h[ku] < least {
            h[ku] = least;
        }
        r.level[ku] = h[ku];
    }
    let discharge = match water {
        Some(b) => {
            // Lakes close on what reaches them after losses; then the
            // discharge again down the closed drainage, exactly.
            let mut q = balance::lossy_discharge(mesh, &r, &runoff, b);
            routing::close_endorheic_by(&mut r, &mut q, &|l| b.evaporates(mesh, l));
            let q = balance::lossy_discharge(mesh, &r, &runoff, b);
            balance::fill_terminal_lakes(mesh, &mut r, &h, &q, b, &sinks);
            q
        }
        None => {
            let mut q = routing::accumulate(&r, &runoff);
            routing::close_endorheic(&mut r, &mut q, p.evaporation);
            q
        }
    };
    let area: Vec<u64> = (0..count)
        .map(|k| {
            if ocean[k] {
                0
            } else {
                mesh.area[k].round() as u64
            }
        })
        .collect();
    let upstream_area = routing::accumulate(&r, &area);
    Some(Hydrology {
        height: h,
        routing: r,
        discharge,
        upstream_area,
        runoff,
    })
}

/// φ of [`ReliefBound`].
#[inline]
fn saturate(x: f64) -> f64 {
    x / (1.0 + x)
}

/// Maps land heights (above 0 m) through [`ReliefBound`]'s curve, its
/// scale found by bisection (a fixed 64 halvings, sums in index order:
/// the same bits everywhere).
fn bound_relief(h: &mut [f64], ocean: &[bool], area: &[f64], b: ReliefBound) {
    let land = |k: usize| !ocean[k] && h[k] > 0.0;
    let total: f64 = (0..h.len()).filter(|&k| !ocean[k]).map(|k| area[k]).sum();
    if total <= 0.0 || b.ceiling_m <= 0.0 {
        return;
    }
    let mean_at = |s: f64| -> f64 {
        let mut sum = 0.0;
        for k in 0..h.len() {
            if land(k) {
                sum += area[k] * b.ceiling_m * saturate(s * h[k] / b.ceiling_m);
            }
        }
        sum / total
    };
    // The mean rises with s from 0 towards the ceiling: bisect on log s.
    let (mut lo, mut hi) = (-20.0f64, 20.0f64);
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if mean_at(libm::exp2(mid)) < b.mean_m {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let s = libm::exp2(0.5 * (lo + hi));
    for k in 0..h.len() {
        if !ocean[k] && h[k] > 0.0 {
            h[k] = b.ceiling_m * saturate(s * h[k] / b.ceiling_m);
        }
    }
}

/// One implicit step on a chain of nodes draining to node 0 (the base,
/// held at 0): for the 1-D steady-state check. `discharge[i]` and
/// `spacing` as on the graph; returns the updated heights.
pub fn chain_step(
    h: &mut [f64],
    discharge: &[u64],
    spacing: f64,
    uplift_dt: f64,
    p: &ErosionParams,
) {
    for i in 1..h.len() {
        let f = incision(p, discharge[i], spacing);
        h[i] = (h[i] + uplift_dt + f * h[i - 1]) / (1.0 + f);
    }
}
