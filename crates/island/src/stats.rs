//! Distributions over many seeds: site and type counts, degrees, edge
//! lengths and minutes, and how often each type needed a fallback. The
//! caller drives the seeds (and any progress bar); this only accumulates.

use crate::map::{Assignment, IslandMap};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Per-type tallies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypeTally {
    /// Sites of the type over all islands.
    pub sites: u64,
    /// Islands with at least one.
    pub islands_with: u64,
    /// Fewest on one island.
    pub min_per_island: u32,
    /// Most on one island.
    pub max_per_island: u32,
    /// Sites taken as a fallback (no type admitted them).
    pub fallback: u64,
    /// Guaranteed sites placed outside the hard limits.
    pub forced: u64,
}

/// Accumulated statistics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IslandStats {
    /// Islands seen.
    pub islands: u64,
    /// Islands per site count.
    pub site_counts: BTreeMap<u32, u64>,
    /// Tallies by type (every defined type, seen or not).
    pub types: BTreeMap<String, TypeTally>,
    /// Sites per degree.
    pub degrees: BTreeMap<u32, u64>,
    /// Edge lengths in metres, as a histogram: memory does not grow with
    /// the number of islands.
    pub meters: Lengths,
    /// Edges per travel-minute value.
    pub minutes: BTreeMap<u32, u64>,
    /// Edges in the spanning tree / re-added.
    pub mst_edges: u64,
    /// Re-added (detour saver) edges.
    pub extra_edges: u64,
}

impl IslandStats {
    /// Empty statistics knowing every type name (so unseen types show).
    pub fn new(defs: &crate::Definitions) -> Self {
        let types = defs
            .location_types()
            .keys()
            .map(|k| {
                (
                    k.clone(),
                    TypeTally {
                        min_per_island: u32::MAX,
                        ..TypeTally::default()
                    },
                )
            })
            .collect();
        IslandStats {
            types,
            ..IslandStats::default()
        }
    }

    /// Adds one island.
    pub fn add(&mut self, map: &IslandMap) {
        self.islands += 1;
        *self.site_counts.entry(map.sites.len() as u32).or_default() += 1;
        let mut per_type: BTreeMap<&str, u32> = BTreeMap::new();
        for s in &map.sites {
            *per_type.entry(&s.location_type).or_default() += 1;
            let t = self.types.entry(s.location_type.clone()).or_default();
            t.sites += 1;
            t.fallback += u64::from(s.assigned_by == Assignment::Fallback);
            t.forced += u64::from(s.assigned_by == Assignment::ForcedGuarantee);
        }
        for (name, t) in &mut self.types {
            let n = per_type.get(name.as_str()).copied().unwrap_or(0);
            t.islands_with += u64::from(n > 0);
            t.min_per_island = t.min_per_island.min(n);
            t.max_per_island = t.max_per_island.max(n);
        }
        for d in map.degrees() {
            *self.degrees.entry(d).or_default() += 1;
        }
        for e in &map.edges {
            self.meters.add(e.meters);
            *self.minutes.entry(e.travel_minutes).or_default() += 1;
            if e.mst {
                self.mst_edges += 1
            } else {
                self.extra_edges += 1
            }
        }
    }

    /// A readable report.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let n = self.islands.max(1) as f64;
        let _ = writeln!(out, "{} islands", self.islands);
        let _ = writeln!(out, "\nsite count      islands");
        for (count, k) in &self.site_counts {
            let _ = writeln!(out, "  {count:>6}  {k:>10}  {}", bar(*k as f64 / n));
        }
        let _ = writeln!(
            out,
            "\ntype           mean/island  min  max  on % of islands  fallback  forced"
        );
        for (name, t) in &self.types {
            let min = if t.min_per_island == u32::MAX {
                0
            } else {
                t.min_per_island
            };
            let _ = writeln!(
                out,
                "  {name:<12} {:>11.2} {min:>4} {:>4} {:>16.1} {:>9} {:>7}",
                t.sites as f64 / n,
                t.max_per_island,
                100.0 * t.islands_with as f64 / n,
                t.fallback,
                t.forced
            );
        }
        let sites: u64 = self.degrees.values().sum();
        let _ = writeln!(out, "\ndegree          share of sites");
        for (d, k) in &self.degrees {
            let share = *k as f64 / sites.max(1) as f64;
            let _ = writeln!(out, "  {d:>6}  {:>10.1}%  {}", 100.0 * share, bar(share));
        }
        let _ = writeln!(
            out,
            "\nedges: {:.2} per island ({:.2} spanning tree, {:.2} detour savers)",
            (self.mst_edges + self.extra_edges) as f64 / n,
            self.mst_edges as f64 / n,
            self.extra_edges as f64 / n
        );
        if let Some(s) = self.meters.summary() {
            let _ = writeln!(
                out,
                "edge length m: min {:.0}  p10 {:.0}  median {:.0}  p90 {:.0}  max {:.0}  mean {:.0}",
                s.min, s.p10, s.median, s.p90, s.max, s.mean
            );
        }
        let total: u64 = self.minutes.values().sum();
        let _ = writeln!(out, "\ntravel minutes  share of edges");
        for (m, k) in &self.minutes {
            let share = *k as f64 / total.max(1) as f64;
            let _ = writeln!(out, "  {m:>6}  {:>10.1}%  {}", 100.0 * share, bar(share));
        }
        out
    }
}

/// Order statistics of a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Smallest.
    pub min: f64,
    /// 10th percentile (nearest rank).
    pub p10: f64,
    /// Median (nearest rank).
    pub median: f64,
    /// 90th percentile (nearest rank).
    pub p90: f64,
    /// Largest.
    pub max: f64,
    /// Mean (summed in sorted order).
    pub mean: f64,
}

impl Summary {
    /// The summary of `values`, `None` if empty.
    pub fn of(values: &[f64]) -> Option<Summary> {
        if values.is_empty() {
            return None;
        }
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let rank = |q: f64| v[((q * (v.len() - 1) as f64).round() as usize).min(v.len() - 1)];
        Some(Summary {
            min: v[0],
            p10: rank(0.1),
            median: rank(0.5),
            p90: rank(0.9),
            max: v[v.len() - 1],
            mean: v.iter().sum::<f64>() / v.len() as f64,
        })
    }
}

/// Edge lengths accumulated in constant memory: counts per whole metre
/// (the precision the report prints), so the order statistics of the
/// rounded lengths are exactly those of the lengths, rounded. The number of
/// keys is bounded by the island's diameter in metres, however many islands
/// are added (`island stats --seeds 1000000000` once kept every length).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lengths {
    counts: BTreeMap<u64, u64>,
    total: u64,
    sum: f64,
}

impl Lengths {
    /// Adds one length (metres; negative or non-finite lengths count as 0).
    pub fn add(&mut self, meters: f64) {
        let m = if meters.is_finite() && meters > 0.0 {
            meters
        } else {
            0.0
        };
        *self.counts.entry(m.round() as u64).or_default() += 1;
        self.total += 1;
        self.sum += m;
    }

    /// Lengths added.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether none were added.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Distinct whole-metre values held: the memory in use.
    pub fn distinct(&self) -> usize {
        self.counts.len()
    }

    /// Order statistics in whole metres (nearest rank, as [`Summary::of`]),
    /// and the exact mean; `None` if empty.
    pub fn summary(&self) -> Option<Summary> {
        if self.total == 0 {
            return None;
        }
        let rank_of = |q: f64| ((q * (self.total - 1) as f64).round() as u64).min(self.total - 1);
        let at = |rank: u64| {
            let mut seen = 0;
            for (&m, &k) in &self.counts {
                seen += k;
                if seen > rank {
                    return m as f64;
                }
            }
            0.0
        };
        Some(Summary {
            min: at(0),
            p10: at(rank_of(0.1)),
            median: at(rank_of(0.5)),
            p90: at(rank_of(0.9)),
            max: at(self.total - 1),
            mean: self.sum / self.total as f64,
        })
    }
}

/// A bar of up to 40 `#` for a share in `[0, 1]`.
fn bar(share: f64) -> String {
    "#".repeat((share * 40.0).round() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_give_the_rounded_order_statistics_in_constant_memory() {
        let mut exact = Vec::new();
        let mut lengths = Lengths::default();
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..5000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = (x % 4_000_000) as f64 / 1000.0;
            exact.push(v);
            lengths.add(v);
        }
        let (a, b) = (Summary::of(&exact).unwrap(), lengths.summary().unwrap());
        for (x, y) in [
            (a.min, b.min),
            (a.p10, b.p10),
            (a.median, b.median),
            (a.p90, b.p90),
            (a.max, b.max),
        ] {
            assert_eq!(x.round(), y, "{a:?} {b:?}");
        }
        assert!((a.mean - b.mean).abs() < 1e-6);
        // The same island added many times holds no more.
        let example = crate::load_definitions(crate::example::sources()).unwrap();
        let map = crate::generate_island(&example, "island", 3.into()).unwrap();
        let mut stats = IslandStats::new(&example);
        stats.add(&map);
        let one = stats.meters.distinct();
        for _ in 0..2000 {
            stats.add(&map);
        }
        assert_eq!(stats.meters.distinct(), one);
        assert_eq!(stats.meters.len(), 2001 * map.edges.len() as u64);
    }
}
