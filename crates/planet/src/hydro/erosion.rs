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
use super::routing::{self, NONE, Routing};

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
}

impl Default for ErosionParams {
    fn default() -> Self {
        ErosionParams {
            k_dt: 0.2,
            diffusion: 0.08,
            iterations: 3,
            evaporation: 1.2,
            min_slope: 1e-5,
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
    /// Each node's own precipitation × area, m³/yr (0 at sea).
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
    erode_observed(mesh, h0, ocean, precipitation, p, &|_| true)
        .unwrap_or_else(|| unreachable!("never cancelled"))
}

/// [`erode`], calling `observe(1)` after the steady state and after each
/// iteration: when it answers `false` the work stops and `None` comes
/// back (a server stopping). What it does changes nothing computed.
pub fn erode_observed(
    mesh: &Mesh,
    h0: &[f64],
    ocean: &[bool],
    precipitation: &[f64],
    p: &ErosionParams,
    observe: &dyn Fn(u32) -> bool,
) -> Option<Hydrology> {
    let count = mesh.len();
    let runoff = runoff(mesh, precipitation, ocean);
    let uplift: Vec<f64> = h0.iter().map(|&h| h.max(0.0)).collect();
    let mut h: Vec<f64> = h0.to_vec();

    // The steady state along the initial tree: h = root + c·Σ U·L/F.
    let r = routing::route(mesh, &h, ocean);
    let q = routing::accumulate(&r, &runoff);
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
        let r = routing::route(mesh, &h, ocean);
        let q = routing::accumulate(&r, &runoff);
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

    // Final routing; then the ε-fill in stack order so every receiver edge
    // outside lakes runs strictly downhill.
    let mut r = routing::route(mesh, &h, ocean);
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
    let mut discharge = routing::accumulate(&r, &runoff);
    routing::close_endorheic(&mut r, &mut discharge, p.evaporation);
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
