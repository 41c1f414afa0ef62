//! What a request will cost, estimated from its parameters before any work
//! is queued, and the budgets it must fit.
//!
//! Routes with fixed small answers (a chunk, a map tile, at most
//! `batch_items` chunks) are bounded by their parameter ranges. Previews,
//! GeoJSON, pyramid tiles and posted islands get an [`Estimate`] from what
//! the request asks for and what the work really does (the planet
//! version's pipeline per sample, the plates per raster cell, the
//! guarantees per island site), checked against one budget,
//! [`crate::Limits::job_cost`], and refused with 422 `over_budget` naming
//! the parameter, the estimate and the largest value that fits. The gate
//! then charges the estimate to the client's share of the fair queue as
//! the work starts (`fair.rs`), so a client asking for expensive work
//! waits behind others for its next job at once.
//!
//! The unit is a *work unit*: about [`NANOS_PER_UNIT`] ns of one core in a
//! release build (the 2-core development machine). The factors below were
//! measured there, end to end as the server does the work (a preview
//! includes its shading and PNG; `mangekyo planet preview` and `plates`
//! with `RAYON_NUM_THREADS=1`; the island's from a debug build's timings
//! of `crates/island/examples/guarantee_scale.rs`, so likely high). They
//! are estimates: within a factor of two of
//! the real work, never a bound on a slower machine.
//!
//! Posted islands are checked after their definitions load (the site count
//! and the guarantees are in the YAML, which is parsed on a worker): first
//! against `island_sites`, then against the memory their guarantees hold,
//! then against the cost budget.

use std::time::Duration;

use axum::http::StatusCode;
use mangekyo_island::Definitions;
use mangekyo_planet::Version;
use mangekyo_planet::version::{Climate, Relief, Water};

use crate::error::ApiError;

/// Nanoseconds of one core per work unit (release build): the scale from
/// units to the worker time the fair queue charges.
pub(crate) const NANOS_PER_UNIT: u64 = 100;

/// The default of [`crate::Limits::job_cost`]: 30 s of one core (the
/// request timeout) in work units.
pub(crate) const DEFAULT_JOB_COST: u64 = 30_000_000_000 / NANOS_PER_UNIT;

/// Units per preview pixel of a version's pipeline, added up by stage
/// (measured: 430 ns a pixel at version 1, 445 at 2, 570 at 3, 700 at 4):
/// noise relief, shading and the PNG are 4; plates add the domain warp
/// and the boundary profiles; water adds the carving read off the tier;
/// circulation adds the climate read off the tier and the blended biomes.
fn sample_units(version: Version) -> u64 {
    let p = version.pipeline();
    let mut units = 4;
    if p.relief == Relief::Plates {
        units += 1;
    }
    if p.water != Water::None {
        units += 1;
    }
    if p.climate == Climate::Circulation {
        units += 1;
    }
    units
}

/// Units per plates raster cell before the per-plate part (measured:
/// 340 ns a cell for the mixed document of 15 plates, 210 for a layer):
/// the domain warp (three noise fields), the nearest two seeds and the
/// features' JSON.
const PLATE_CELL_UNITS: u64 = 2;

/// Plates per extra unit a raster cell costs (each plate's layer scans
/// the raster once more).
const PLATES_PER_CELL_UNIT: u64 = 16;

/// Units per tier node of the rivers GeoJSON (links, lakes and basins are
/// read off the tier once each).
const RIVER_NODE_UNITS: u64 = 1;

/// Samples in one pyramid tile (257²).
const PYRAMID_TILE_SAMPLES: u64 = 257 * 257;

/// Units per island site for the steps every site goes through
/// (placement, axes, types, Delaunay, paths, names: about 10 µs).
const ISLAND_SITE_UNITS: u64 = 100;

/// Thousandths of a unit per (guarantee, site) pair: each guarantee sorts
/// and filters every site (about 15 ns a pair).
const GUARANTEE_PAIR_MILLIUNITS: u64 = 150;

/// Thousandths of a unit per (guaranteed site, site) pair: the matcher's
/// searches, about n²/2 edge steps of a nanosecond for one guarantee of
/// n − 1 of n sites (170 ms for 10,000 sites end to end).
const OPENING_PAIR_MILLIUNITS: u64 = 10;

/// Bytes each (guarantee, site) pair holds while an island is generated:
/// the guarantee's order and its eligible sites, a `u32` each.
const GUARANTEE_PAIR_BYTES: u64 = 8;

/// The most memory a posted island's guarantee lists may hold: 256 MiB.
/// Their time is small (10,000 guarantees over 10,000 sites take under
/// two seconds) but their memory is not (800 MB), so this is the budget
/// on guarantees × sites.
pub(crate) const GUARANTEE_LIST_BYTES: u64 = 256 << 20;

/// Estimated work of one job, in work units (see the module).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Estimate {
    units: u64,
}

impl Estimate {
    /// No estimate: a job bounded by its route's ranges, charged to its
    /// client only for the time it takes.
    pub const NONE: Estimate = Estimate { units: 0 };

    const fn of(units: u64) -> Estimate {
        Estimate { units }
    }

    /// The estimate in work units.
    #[cfg(test)]
    pub(crate) fn units(self) -> u64 {
        self.units
    }

    /// The estimate as worker time (what the fair queue charges).
    pub(crate) fn worker_time(self) -> Duration {
        Duration::from_nanos(self.units.saturating_mul(NANOS_PER_UNIT))
    }
}

/// A whole-planet preview `width` pixels wide (`width × width/2` samples).
pub(crate) fn preview(version: Version, width: u32) -> Estimate {
    let w = u64::from(width);
    Estimate::of(w * (w / 2) * sample_units(version))
}

/// Refuses a preview over `budget`, naming `width` and the widest that fits.
pub(crate) fn check_preview(
    version: Version,
    width: u32,
    budget: u64,
) -> Result<Estimate, ApiError> {
    let estimate = preview(version, width);
    if estimate.units <= budget {
        return Ok(estimate);
    }
    // w²/2 · units ≤ budget, rounded down to an even width.
    let widest = ((2.0 * budget as f64 / sample_units(version) as f64).sqrt() as u32) & !1;
    let fits = if widest >= 16 {
        format!("a width of at most {widest}")
    } else {
        format!("none: this server's job_cost admits no preview of a version-{version} planet")
    };
    Err(over_budget(
        "width",
        &format!("a preview {width} wide"),
        estimate,
        budget,
        &fits,
    ))
}

/// A plates GeoJSON at `cell_deg` of a planet with `plates` plates:
/// `360/cell_deg × 180/cell_deg` raster cells.
pub(crate) fn plates(cell_deg: f64, plates: u64) -> Estimate {
    let per_cell = PLATE_CELL_UNITS + plates.div_ceil(PLATES_PER_CELL_UNIT);
    Estimate::of(raster_cells(cell_deg).saturating_mul(per_cell))
}

fn raster_cells(cell_deg: f64) -> u64 {
    let (w, h) = ((360.0 / cell_deg).ceil(), (180.0 / cell_deg).ceil());
    (w * h) as u64
}

/// Refuses a plates GeoJSON over `budget`, naming `cell_deg` and the finest
/// cell that fits (`cell_deg` must be one the route takes already).
pub(crate) fn check_plates(cell_deg: f64, count: u64, budget: u64) -> Result<Estimate, ApiError> {
    let estimate = plates(cell_deg, count);
    if estimate.units <= budget {
        return Ok(estimate);
    }
    // The finest cell of at most three decimals that divides 180 (the
    // route's own rule) and fits.
    let finest = (18..=1800u32)
        .rev()
        .map(|k| 180.0 / f64::from(k))
        .filter(|c| (180.0 / c).fract() == 0.0 && format!("{c}").len() <= 5)
        .find(|&c| plates(c, count).units <= budget);
    let fits = match finest {
        Some(c) => format!("a cell_deg of at least {c}"),
        None => "none: this server's job_cost admits no plates GeoJSON of this planet".to_owned(),
    };
    Err(over_budget(
        "cell_deg",
        &format!("plates at cell_deg {cell_deg}"),
        estimate,
        budget,
        &fits,
    ))
}

/// The rivers GeoJSON of a planet whose tier has `6·graph_n²` nodes.
pub(crate) fn rivers(graph_n: u32) -> Estimate {
    let n = u64::from(graph_n);
    Estimate::of(6 * n * n * RIVER_NODE_UNITS)
}

/// Refuses a rivers GeoJSON over `budget`, naming the planet's `graph_n`
/// (what sizes its tier, and so the rivers).
pub(crate) fn check_rivers(graph_n: u32, budget: u64) -> Result<Estimate, ApiError> {
    let estimate = rivers(graph_n);
    if estimate.units <= budget {
        return Ok(estimate);
    }
    let largest = ((budget / (6 * RIVER_NODE_UNITS)) as f64).sqrt() as u32;
    Err(over_budget(
        "params.graph_n",
        &format!("the rivers of a planet of graph_n {graph_n}"),
        estimate,
        budget,
        &format!("a planet of graph_n at most {largest}"),
    ))
}

/// One pyramid tile of a planet of `version`.
pub(crate) fn pyramid_tile(version: Version) -> Estimate {
    Estimate::of(PYRAMID_TILE_SAMPLES * sample_units(version))
}

/// Refuses a pyramid tile over `budget`: only on a server configured below
/// one tile's cost, as nothing in the request changes a tile's size (the
/// refusal names `layers`, the one thing the client chooses).
pub(crate) fn check_pyramid_tile(version: Version, budget: u64) -> Result<Estimate, ApiError> {
    let estimate = pyramid_tile(version);
    if estimate.units <= budget {
        return Ok(estimate);
    }
    Err(over_budget(
        "layers",
        &format!("a pyramid tile of a version-{version} planet"),
        estimate,
        budget,
        "none: this server's job_cost admits no pyramid tile",
    ))
}

/// What an island scope asks for: its largest site count, its guarantees
/// and the sites they guarantee in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IslandAsk {
    pub sites: u64,
    pub guarantees: u64,
    pub guaranteed: u64,
}

impl IslandAsk {
    /// Thousandths of a unit per site spent on guarantees.
    fn guarantee_milliunits(self) -> u64 {
        self.guarantees
            .saturating_mul(GUARANTEE_PAIR_MILLIUNITS)
            .saturating_add(self.guaranteed.saturating_mul(OPENING_PAIR_MILLIUNITS))
    }
}

/// The estimate of an island: every site's steps, each guarantee's pass
/// over the sites and the matcher's rounds (sites × guaranteed sites).
pub(crate) fn island(ask: IslandAsk) -> Estimate {
    let milli = ask
        .sites
        .saturating_mul(ISLAND_SITE_UNITS * 1000 + ask.guarantee_milliunits());
    Estimate::of(milli / 1000)
}

/// Refuses a scope whose largest island has more sites than `limit`.
///
/// The site count drives every later step (placement, Delaunay, the path
/// network, names) and the size of the answer; this cap comes first, so
/// a million sites are refused by the number alone.
pub(crate) fn island_sites(defs: &Definitions, scope: &str, limit: u32) -> Result<(), ApiError> {
    let Some(def) = defs.scopes().get(scope) else {
        return Ok(());
    };
    let asked = def.site_count.1;
    if asked <= limit {
        return Ok(());
    }
    Err(ApiError {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code: "over_budget",
        message: format!(
            "generation_scopes.{scope}.site_count.max is {asked}, over this server's island_sites limit of {limit}"
        ),
        parameter: Some(format!("generation_scopes.{scope}.site_count.max")),
        expected: Some(format!("at most {limit} sites (island_sites)")),
    })
}

/// Refuses a scope of `defs` whose guarantee lists would not fit
/// [`GUARANTEE_LIST_BYTES`] or whose island would cost more than `budget`
/// ([`check_island_ask`]).
pub(crate) fn check_island(
    defs: &Definitions,
    scope: &str,
    budget: u64,
) -> Result<Estimate, ApiError> {
    let Some(def) = defs.scopes().get(scope) else {
        return Ok(Estimate::NONE);
    };
    let ask = IslandAsk {
        sites: u64::from(def.site_count.1),
        guarantees: def.guarantees.len() as u64,
        guaranteed: def.guarantees.iter().map(|g| u64::from(g.count)).sum(),
    };
    check_island_ask(scope, ask, budget)
}

/// Refuses `ask` when its guarantee lists would take more than
/// [`GUARANTEE_LIST_BYTES`] (naming the guarantees and how many fit at
/// its site count), or when it would cost more than `budget`: naming the
/// guarantees when they are most of the cost, else the site count.
pub(crate) fn check_island_ask(
    scope: &str,
    ask: IslandAsk,
    budget: u64,
) -> Result<Estimate, ApiError> {
    let sites = ask.sites.max(1);
    let guarantees = format!("generation_scopes.{scope}.guarantees");
    let bytes = ask.guarantees.saturating_mul(sites) * GUARANTEE_PAIR_BYTES;
    if bytes > GUARANTEE_LIST_BYTES {
        let most = GUARANTEE_LIST_BYTES / GUARANTEE_PAIR_BYTES / sites;
        return Err(ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            code: "over_budget",
            message: format!(
                "{} guarantees over {} sites would hold {} MiB of site lists while generating, over this server's {} MiB",
                ask.guarantees,
                ask.sites,
                bytes >> 20,
                GUARANTEE_LIST_BYTES >> 20
            ),
            parameter: Some(guarantees),
            expected: Some(format!("at most {most} guarantees at {} sites", ask.sites)),
        });
    }
    let estimate = island(ask);
    if estimate.units <= budget {
        return Ok(estimate);
    }
    let asked = format!(
        "{} sites with {} guarantees for {} sites in all",
        ask.sites, ask.guarantees, ask.guaranteed
    );
    let per_site_milli = ISLAND_SITE_UNITS * 1000 + ask.guarantee_milliunits();
    if ask.guarantee_milliunits() > ISLAND_SITE_UNITS * 1000 {
        // Thousandths of a unit left per site once its own steps are paid,
        // shared by guarantees of one site each at worst.
        let spare = (budget / sites).saturating_sub(ISLAND_SITE_UNITS) * 1000;
        let most = spare / (GUARANTEE_PAIR_MILLIUNITS + OPENING_PAIR_MILLIUNITS);
        let fits = format!(
            "at most {most} guarantees of one site each at {} sites",
            ask.sites
        );
        Err(over_budget(&guarantees, &asked, estimate, budget, &fits))
    } else {
        let most = budget.saturating_mul(1000) / per_site_milli;
        Err(over_budget(
            &format!("generation_scopes.{scope}.site_count.max"),
            &asked,
            estimate,
            budget,
            &format!("at most {most} sites"),
        ))
    }
}

/// 422 `over_budget`: `what` (the request, in words) would cost
/// `estimate`, over `budget`; `fits` says the largest value that fits.
fn over_budget(
    parameter: &str,
    what: &str,
    estimate: Estimate,
    budget: u64,
    fits: &str,
) -> ApiError {
    ApiError {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code: "over_budget",
        message: format!(
            "{what} would cost an estimated {} work units (about {:.1} s of one core), over this server's job_cost of {budget}",
            estimate.units,
            estimate.worker_time().as_secs_f64()
        ),
        parameter: Some(parameter.to_owned()),
        expected: Some(format!("{fits} (job_cost {budget} work units)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUDGET: u64 = DEFAULT_JOB_COST;

    #[test]
    fn later_versions_cost_more_per_sample() {
        let costs: Vec<u64> = [Version::V1, Version::V2, Version::V3, Version::V4]
            .into_iter()
            .map(sample_units)
            .collect();
        assert!(costs.windows(2).all(|w| w[0] < w[1]), "{costs:?}");
        assert_eq!(sample_units(Version::Next), sample_units(Version::V4));
    }

    #[test]
    fn estimates_grow_with_their_parameter() {
        for v in Version::ALL {
            assert!(preview(v, 2048) > preview(v, 1024));
            assert_eq!(preview(v, 2048).units(), 4 * preview(v, 1024).units());
        }
        // width × width/2 pixels at the version's units a pixel.
        assert_eq!(preview(Version::V1, 1024).units(), 1024 * 512 * 4);
        assert!(plates(0.1, 12) > plates(1.0, 12));
        assert!(plates(1.0, 40) > plates(1.0, 12));
        assert_eq!(raster_cells(0.1), 1800 * 3600);
        assert!(rivers(1024) > rivers(408));
        let at = |sites, guarantees, guaranteed| {
            island(IslandAsk {
                sites,
                guarantees,
                guaranteed,
            })
        };
        assert!(at(10_000, 1, 1) > at(1_000, 1, 1));
        assert!(at(10_000, 1, 9_999) > at(10_000, 1, 10));
        assert!(at(10_000, 9_999, 9_999) > at(10_000, 1, 9_999));
    }

    #[test]
    fn the_default_budget_admits_what_normal_clients_ask() {
        for v in Version::ALL {
            for width in [16, 1024, 4096] {
                check_preview(v, width, BUDGET).unwrap();
            }
            check_pyramid_tile(v, BUDGET).unwrap();
        }
        for cell_deg in [1.0, 0.5, 0.1] {
            check_plates(cell_deg, 40, BUDGET).unwrap();
        }
        check_rivers(1024, BUDGET).unwrap();
        // The example world, and the hostile island of issue 38 that the
        // matcher now handles: 10,000 sites, one guarantee for 9,999.
        for (sites, guarantees, guaranteed) in [(24, 4, 4), (10_000, 1, 9_999)] {
            let ask = IslandAsk {
                sites,
                guarantees,
                guaranteed,
            };
            check_island_ask("island", ask, BUDGET).unwrap();
        }
    }

    #[test]
    fn the_guarantee_lists_have_a_memory_budget() {
        // 10,000 guarantees of one site each over 10,000 sites: 800 MB of
        // lists, though under two seconds of work.
        let ask = IslandAsk {
            sites: 10_000,
            guarantees: 10_000,
            guaranteed: 10_000,
        };
        assert!(island(ask).units() <= BUDGET);
        let err = check_island_ask("island", ask, BUDGET).unwrap_err();
        assert_eq!(err.code, "over_budget");
        assert_eq!(
            err.parameter.as_deref(),
            Some("generation_scopes.island.guarantees")
        );
        let expected = err.expected.unwrap();
        let most: u64 = expected
            .split_whitespace()
            .find_map(|w| w.parse().ok())
            .unwrap();
        let at = |guarantees| IslandAsk {
            guarantees,
            guaranteed: guarantees,
            ..ask
        };
        check_island_ask("island", at(most), BUDGET).unwrap();
        check_island_ask("island", at(most + 1), BUDGET).unwrap_err();
        // Under a small job_cost the time refuses too, by the same name
        // when the guarantees are the cost, else by the site count.
        let err = check_island_ask("island", at(2_000), 1_000_000).unwrap_err();
        assert_eq!(
            err.parameter.as_deref(),
            Some("generation_scopes.island.guarantees")
        );
        let plain = IslandAsk {
            sites: 10_000,
            guarantees: 1,
            guaranteed: 1,
        };
        let err = check_island_ask("island", plain, 500_000).unwrap_err();
        assert_eq!(
            err.parameter.as_deref(),
            Some("generation_scopes.island.site_count.max")
        );
        let expected = err.expected.unwrap();
        let most: u64 = expected
            .split_whitespace()
            .find_map(|w| w.parse().ok())
            .unwrap();
        let fits = IslandAsk {
            sites: most,
            ..plain
        };
        check_island_ask("island", fits, 500_000).unwrap();
        let over = IslandAsk {
            sites: most + 1,
            ..plain
        };
        check_island_ask("island", over, 500_000).unwrap_err();
    }

    #[test]
    fn a_refusal_names_the_parameter_and_what_fits() {
        let err = check_preview(Version::V4, 4096, 1_000_000).unwrap_err();
        assert_eq!(err.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(err.code, "over_budget");
        assert_eq!(err.parameter.as_deref(), Some("width"));
        let expected = err.expected.unwrap();
        let widest: u32 = expected
            .split_whitespace()
            .find_map(|w| w.parse().ok())
            .unwrap();
        assert!(widest.is_multiple_of(2) && widest < 4096, "{expected}");
        check_preview(Version::V4, widest, 1_000_000).unwrap();
        check_preview(Version::V4, widest + 2, 1_000_000).unwrap_err();
        assert!(
            err.message.contains("job_cost of 1000000"),
            "{}",
            err.message
        );

        let err = check_plates(0.1, 20, 10_000_000).unwrap_err();
        assert_eq!(err.parameter.as_deref(), Some("cell_deg"));
        let expected = err.expected.unwrap();
        let finest: f64 = expected
            .split_whitespace()
            .find_map(|w| w.parse().ok())
            .unwrap();
        assert!(
            finest > 0.1 && (180.0 / finest).fract() == 0.0,
            "{expected}"
        );
        check_plates(finest, 20, 10_000_000).unwrap();
    }
}
