//! Path-discovery statistics: how many explore actions and minutes until
//! every path of a location is known. Computed from the same
//! [`path_required_progresses`] and [`crate::discovery::explore_step`] the game
//! runs on.

use crate::discovery::{explores_until, path_required_progresses};
use crate::spawn::SpawnError;
use mangekyo_defs::PROGRESS_PROPERTY;
use mangekyo_island::{Definitions, IslandMap};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Sums per degree (number of paths of a location).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DegreeTally {
    /// Locations with this many paths.
    pub locations: u64,
    /// Explore actions until the first path is known, summed.
    pub first_explores: u64,
    /// Explore actions until every path is known, summed.
    pub all_explores: u64,
    /// Minutes until every path is known, summed.
    pub all_minutes: u64,
}

/// Accumulated path discovery over islands.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathDiscovery {
    /// Islands seen.
    pub islands: u64,
    /// Tallies by number of paths.
    pub by_paths: BTreeMap<u32, DegreeTally>,
}

impl PathDiscovery {
    /// Adds every location of one island, as the spawner would set it up.
    pub fn add(&mut self, defs: &Definitions, map: &IslandMap) -> Result<(), SpawnError> {
        let scope = defs
            .scope(&map.scope)
            .map_err(|e| SpawnError::Mismatch(e.to_string()))?;
        self.islands += 1;
        let degrees = map.degrees();
        for site in &map.sites {
            let range = defs
                .location_types()
                .get(&site.location_type)
                .and_then(|t| defs.object_defs().get(&t.object_def))
                .and_then(|o| o.properties.get(PROGRESS_PROPERTY))
                .ok_or_else(|| {
                    SpawnError::Mismatch(format!(
                        "no progress range for type '{}'",
                        site.location_type
                    ))
                })?;
            let n = degrees[site.id as usize];
            let thresholds = path_required_progresses(n as usize, range.max);
            let step = scope.discovery_step().progress;
            let first = thresholds
                .first()
                .map_or(0, |&t| explores_until(range.min, t, step, range.max));
            let all = thresholds
                .last()
                .map_or(0, |&t| explores_until(range.min, t, step, range.max));
            let t = self.by_paths.entry(n).or_default();
            t.locations += 1;
            t.first_explores += u64::from(first);
            t.all_explores += u64::from(all);
            t.all_minutes += u64::from(all) * u64::from(scope.discovery_step().minutes);
        }
        Ok(())
    }

    /// A readable report.
    pub fn render(&self) -> String {
        let mut out = String::from(
            "\npath discovery (searches until the first / every path of a location is known)\n",
        );
        let _ = writeln!(
            out,
            "  paths  locations  first path  every path  minutes to every path"
        );
        let (mut locs, mut explores, mut minutes) = (0u64, 0u64, 0u64);
        for (n, t) in &self.by_paths {
            let k = t.locations.max(1) as f64;
            let _ = writeln!(
                out,
                "  {n:>5}  {:>9}  {:>10.2}  {:>10.2}  {:>21.1}",
                t.locations,
                t.first_explores as f64 / k,
                t.all_explores as f64 / k,
                t.all_minutes as f64 / k
            );
            locs += t.locations;
            explores += t.all_explores;
            minutes += t.all_minutes;
        }
        let k = locs.max(1) as f64;
        let _ = writeln!(
            out,
            "  mean over {locs} locations: {:.2} searches, {:.1} minutes to know every path; {:.1} hours to search a whole island",
            explores as f64 / k,
            minutes as f64 / k,
            minutes as f64 / self.islands.max(1) as f64 / 60.0
        );
        out
    }
}
