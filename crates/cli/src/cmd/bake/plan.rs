//! What a bake produces, which part of it one shard makes, and the
//! manifest that records it: pure functions of the plan, no I/O.
//!
//! A bake is a list of *items* (one chunk or one tile each) in a canonical
//! order: by level, then row, then column. Item `k` belongs to shard
//! `k mod n`, so every shard gets a similar mix of levels and regions and
//! the union of all shards is the plan exactly, with no overlaps. Items
//! are enumerated lazily: a whole-planet plan has billions of them.
//!
//! The region is given at the plan's *coarsest* level (the highest chunk
//! lod, the lowest tile zoom); finer levels cover exactly the same area,
//! because every level nests exactly in the next coarser one.

use std::collections::BTreeMap;
use std::ops::Range;

use anyhow::{bail, ensure};
use serde::{Deserialize, Serialize};

/// What is baked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Kind {
    /// Planet chunks of one projection, as the HTTP service serves them.
    Chunks {
        /// Projection name (`tangent_cube`, …).
        projection: String,
        /// A `ChunkFormat` name as given (`bin`, `json`, `png16` or its alias
        /// `png`, `r16`, `f32`, `preview`; heightmaps with a `.meta.json` sidecar).
        format: String,
        /// `exclusive` or `shared`.
        edge: String,
        /// Comma list of layers (bin and json only).
        layers: String,
    },
    /// Terrarium web-map tiles and a TileJSON document.
    Tiles {
        /// Pixels per tile side (256 or 512).
        size: u32,
    },
    /// Pyramid tiles (`MKPT`, face by face in a 3 × 2 atlas) and
    /// `pyramid.json`.
    Pyramid {
        /// Comma list of height, biome, water.
        layers: String,
    },
    /// CesiumJS quantized-mesh terrain and `layer.json`.
    Terrain,
}

/// A rectangle of items at the plan's coarsest level (half-open ranges).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Region {
    /// Columns.
    pub x: [u64; 2],
    /// Rows.
    pub y: [u64; 2],
}

/// A whole bake: what, which levels, where. Equal plans bake equal bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Plan {
    /// Chunks or tiles.
    #[serde(flatten)]
    pub kind: Kind,
    /// Levels, inclusive: chunk lods or tile zooms.
    pub levels: [u32; 2],
    /// The area, at the coarsest level; `None`: the whole map.
    pub region: Option<Region>,
}

/// One item: a chunk `(lod, cx, cy)` or a tile `(z, x, y)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Item {
    /// Lod or zoom.
    pub level: u32,
    /// Column.
    pub x: u64,
    /// Row.
    pub y: u64,
}

/// Which part of the work one process does: `i/n`, 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shard {
    /// This shard's index, `0..count`.
    pub index: u64,
    /// How many shards split the plan.
    pub count: u64,
}

impl Shard {
    /// Parses `i/n` (0-based, `i < n`).
    pub(crate) fn parse(text: &str) -> anyhow::Result<Shard> {
        let Some((i, n)) = text.split_once('/') else {
            bail!("--shard must look like i/n (for example 0/4), got {text:?}");
        };
        let (Ok(index), Ok(count)) = (i.trim().parse::<u64>(), n.trim().parse::<u64>()) else {
            bail!("--shard must be two integers i/n, got {text:?}");
        };
        ensure!(count >= 1, "--shard {text}: n must be at least 1");
        ensure!(
            index < count,
            "--shard {text}: i must be in 0..{count} (shards are numbered from 0)"
        );
        Ok(Shard { index, count })
    }

    /// Whether item number `k` (in canonical order) is this shard's.
    pub(crate) fn owns(&self, k: u64) -> bool {
        k % self.count == self.index
    }

    /// `i-of-n`, for file names.
    pub(crate) fn label(&self) -> String {
        format!("{}-of-{}", self.index, self.count)
    }
}

/// How big each level's map is: `(columns, rows)` of items.
pub(crate) type GridOf<'a> = &'a dyn Fn(u32) -> (u64, u64);

impl Plan {
    /// Whether level numbers grow coarser (chunk lods) or finer (tile zooms).
    fn coarsest(&self) -> u32 {
        match self.kind {
            Kind::Chunks { .. } => self.levels[1],
            Kind::Tiles { .. } | Kind::Pyramid { .. } | Kind::Terrain => self.levels[0],
        }
    }

    /// The column and row ranges at `level`, clipped to the map.
    pub(crate) fn ranges(&self, level: u32, grid: GridOf<'_>) -> (Range<u64>, Range<u64>) {
        let (w, h) = grid(level);
        let Some(r) = self.region else {
            return (0..w, 0..h);
        };
        let steps = level.abs_diff(self.coarsest());
        let scale = |v: u64, limit: u64| v.saturating_mul(1u64 << steps.min(62)).min(limit);
        (
            scale(r.x[0], w)..scale(r.x[1], w),
            scale(r.y[0], h)..scale(r.y[1], h),
        )
    }

    /// Checks the plan against the map: levels ordered, region non-empty
    /// and on the map at the coarsest level.
    pub(crate) fn check(&self, grid: GridOf<'_>) -> anyhow::Result<()> {
        let [lo, hi] = self.levels;
        ensure!(
            lo <= hi,
            "levels {lo}..={hi}: the first must not exceed the last"
        );
        if let Some(r) = self.region {
            let (w, h) = grid(self.coarsest());
            for (axis, [a, b], limit) in [("x", r.x, w), ("y", r.y, h)] {
                ensure!(
                    a < b && b <= limit,
                    "region {axis} {a}..{b} must be a non-empty range inside 0..{limit} at level {}",
                    self.coarsest()
                );
            }
        }
        Ok(())
    }

    /// How many items the plan holds.
    pub(crate) fn count(&self, grid: GridOf<'_>) -> u64 {
        (self.levels[0]..=self.levels[1])
            .map(|level| {
                let (xs, ys) = self.ranges(level, grid);
                (xs.end - xs.start) * (ys.end - ys.start)
            })
            .sum()
    }

    /// Every item in canonical order, numbered.
    pub(crate) fn items<'a>(&'a self, grid: GridOf<'a>) -> impl Iterator<Item = (u64, Item)> + 'a {
        (self.levels[0]..=self.levels[1])
            .flat_map(move |level| {
                let (xs, ys) = self.ranges(level, grid);
                ys.flat_map(move |y| xs.clone().map(move |x| Item { level, x, y }))
            })
            .enumerate()
            .map(|(k, item)| (k as u64, item))
    }

    /// This shard's items, numbered as in the whole plan.
    pub(crate) fn shard_items<'a>(
        &'a self,
        shard: Shard,
        grid: GridOf<'a>,
    ) -> impl Iterator<Item = (u64, Item)> + 'a {
        self.items(grid).filter(move |(k, _)| shard.owns(*k))
    }

    /// How many items `shard` bakes.
    pub(crate) fn shard_count(&self, shard: Shard, grid: GridOf<'_>) -> u64 {
        let total = self.count(grid);
        total / shard.count + u64::from(total % shard.count > shard.index)
    }
}

/// One written object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Output {
    /// Path under the bake's root (`chunks/tangent_cube/0/3/4.bin`).
    pub path: String,
    /// Size in bytes.
    pub bytes: u64,
    /// xxh3-128 of the bytes in hex: the HTTP service's ETag of the same
    /// response, without the quotes.
    pub xxh3: String,
}

/// The record of a bake (or of one shard's part of it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Manifest {
    /// The manifest layout version.
    pub manifest_version: u32,
    /// The planet generator version that made the outputs.
    pub generator_version: mangekyo_planet::Version,
    /// The planet parameters (every field).
    pub params: serde_json::Value,
    /// The parameter hash (the `p` of the service's pinned URLs).
    pub params_hash: String,
    /// What was baked.
    pub plan: Plan,
    /// Which shard wrote this (`None` in a merged manifest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Items in the plan (or shard).
    pub items: u64,
    /// Every output, sorted by path.
    pub outputs: Vec<Output>,
}

/// The manifest layout written by this build.
pub(crate) const MANIFEST_VERSION: u32 = 1;

impl Manifest {
    /// Whether `other` records the same bake (same generator, planet and plan).
    pub(crate) fn same_bake(&self, other: &Manifest) -> bool {
        self.generator_version == other.generator_version
            && self.params_hash == other.params_hash
            && self.plan == other.plan
    }

    /// Sorts outputs by path and drops exact repeats (later entries win
    /// for a path written twice, e.g. after a verified rewrite).
    pub(crate) fn normalise(&mut self) {
        let by_path: BTreeMap<String, Output> = self
            .outputs
            .drain(..)
            .map(|o| (o.path.clone(), o))
            .collect();
        self.outputs = by_path.into_values().collect();
    }

    /// Merges the manifests of every shard `0..n` of one bake into the
    /// bake's manifest. The result does not depend on the order the
    /// shards are given in, and refuses missing, repeated or foreign
    /// shards, and a path two shards both claim.
    pub(crate) fn merge(mut shards: Vec<Manifest>) -> anyhow::Result<Manifest> {
        let Some(first) = shards.first().cloned() else {
            bail!("no shard manifests to merge");
        };
        shards.sort_by(|a, b| a.shard.cmp(&b.shard));
        let n = shards.len() as u64;
        let mut seen = vec![false; shards.len()];
        let mut outputs: BTreeMap<String, Output> = BTreeMap::new();
        let mut items = 0;
        for m in &shards {
            ensure!(
                m.same_bake(&first),
                "shard {} belongs to another bake (planet, generator version or plan differ)",
                m.shard.as_deref().unwrap_or("?")
            );
            let label = m.shard.as_deref().unwrap_or("");
            let shard = label
                .split_once("-of-")
                .and_then(|(i, c)| Some((i.parse::<u64>().ok()?, c.parse::<u64>().ok()?)));
            let Some((i, count)) = shard.filter(|&(i, c)| c == n && i < c) else {
                bail!("shard {label:?} is not one of {n} shards (found {n} shard manifests)");
            };
            ensure!(!seen[i as usize], "shard {i}-of-{count} appears twice");
            seen[i as usize] = true;
            items += m.items;
            for o in &m.outputs {
                if outputs.insert(o.path.clone(), o.clone()).is_some() {
                    bail!("{} is claimed by two shards", o.path);
                }
            }
        }
        Ok(Manifest {
            shard: None,
            items,
            outputs: outputs.into_values().collect(),
            ..first
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles(levels: [u32; 2], region: Option<Region>) -> Plan {
        Plan {
            kind: Kind::Tiles { size: 256 },
            levels,
            region,
        }
    }

    fn tile_grid(z: u32) -> (u64, u64) {
        (1 << z, 1 << z)
    }

    #[test]
    fn shards_partition_the_plan() {
        let plan = tiles([0, 4], None);
        let total = plan.count(&tile_grid);
        assert_eq!(total, 1 + 4 + 16 + 64 + 256);
        let all: Vec<_> = plan.items(&tile_grid).map(|(_, i)| i).collect();
        for n in [1, 2, 3, 7] {
            let mut union = Vec::new();
            for i in 0..n {
                let shard = Shard { index: i, count: n };
                let mine: Vec<_> = plan.shard_items(shard, &tile_grid).collect();
                assert_eq!(mine.len() as u64, plan.shard_count(shard, &tile_grid));
                union.extend(mine);
            }
            union.sort();
            let got: Vec<_> = union.into_iter().map(|(_, i)| i).collect();
            assert_eq!(got, all, "{n} shards cover the plan once");
        }
    }

    #[test]
    fn regions_cover_the_same_area_at_every_level() {
        let plan = tiles(
            [2, 4],
            Some(Region {
                x: [1, 3],
                y: [0, 1],
            }),
        );
        assert_eq!(plan.ranges(2, &tile_grid), (1..3, 0..1));
        assert_eq!(plan.ranges(4, &tile_grid), (4..12, 0..4));
        let chunks = Plan {
            kind: Kind::Chunks {
                projection: "cube".into(),
                format: "bin".into(),
                edge: "exclusive".into(),
                layers: "all".into(),
            },
            levels: [0, 2],
            region: Some(Region {
                x: [1, 2],
                y: [1, 2],
            }),
        };
        let grid = |lod: u32| (96u64 >> lod, 64u64 >> lod);
        assert_eq!(chunks.ranges(2, &grid), (1..2, 1..2));
        assert_eq!(chunks.ranges(0, &grid), (4..8, 4..8));
        assert_eq!(chunks.count(&grid), 1 + 4 + 16);
        assert!(chunks.check(&grid).is_ok());
        let off = Plan {
            region: Some(Region {
                x: [20, 30],
                y: [0, 1],
            }),
            ..chunks
        };
        let e = off.check(&grid).unwrap_err().to_string();
        assert!(e.contains("region x 20..30") && e.contains("0..24"), "{e}");
    }

    #[test]
    fn shard_flags_are_checked() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { index: 2, count: 3 });
        for bad in ["3/3", "1", "a/b", "0/0", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    fn manifest(shard: &str, paths: &[&str]) -> Manifest {
        Manifest {
            manifest_version: MANIFEST_VERSION,
            generator_version: mangekyo_planet::Version::V1,
            params: serde_json::json!({"seed": 1}),
            params_hash: "ab".into(),
            plan: tiles([0, 1], None),
            shard: Some(shard.into()),
            items: paths.len() as u64,
            outputs: paths
                .iter()
                .map(|p| Output {
                    path: (*p).into(),
                    bytes: 1,
                    xxh3: "00".into(),
                })
                .collect(),
        }
    }

    #[test]
    fn merging_is_order_free_and_strict() {
        let a = manifest("0-of-2", &["t/1", "t/3"]);
        let b = manifest("1-of-2", &["t/0", "t/2", "t/4"]);
        let ab = Manifest::merge(vec![a.clone(), b.clone()]).unwrap();
        let ba = Manifest::merge(vec![b.clone(), a.clone()]).unwrap();
        assert_eq!(ab, ba);
        assert_eq!(ab.items, 5);
        assert_eq!(ab.shard, None);
        let paths: Vec<_> = ab.outputs.iter().map(|o| o.path.as_str()).collect();
        assert_eq!(paths, ["t/0", "t/1", "t/2", "t/3", "t/4"]);
        assert!(Manifest::merge(vec![a.clone()]).is_err(), "shard 1 missing");
        assert!(Manifest::merge(vec![a.clone(), a.clone()]).is_err());
        let clash = manifest("1-of-2", &["t/1"]);
        assert!(Manifest::merge(vec![a.clone(), clash]).is_err());
        let mut other = b;
        other.params_hash = "cd".into();
        assert!(Manifest::merge(vec![a, other]).is_err());
    }
}
