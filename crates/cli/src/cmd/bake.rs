//! `mangekyo bake`: pre-generates a planet region or zoom range — chunks,
//! or Terrarium tiles with a TileJSON document — into a directory or an
//! S3-compatible bucket, for a CDN or a game to read without the service.
//!
//! # Sharding, resuming, the manifest
//! `--shard i/n` bakes every n-th item of the plan (see [`plan`]), so a
//! batch scheduler runs n copies side by side. Each copy checkpoints what
//! it wrote (path, size, xxh3-128) into `_bake/journal/` every
//! `--checkpoint-every` outputs and, when done, writes its shard manifest
//! to `_bake/shards/`. `--merge` (automatic with one shard) joins the shard
//! manifests into `manifest.json` — sorted by path, so the same bake gives
//! the same bytes however it was split — writes `tilejson.json` for tiles,
//! and removes `_bake/`.
//!
//! A restarted bake reads every record of the same bake (journal, shard
//! manifests, `manifest.json`), reads each recorded output back and skips
//! it only if its hash still matches; everything else is generated again.
//! At most `--checkpoint-every` outputs per shard are redone after a kill.
//!
//! SIGTERM or Ctrl-C stops it between batches with every output written
//! so far complete and journalled, exit 143 or 130 (see [`stop`]).
//!
//! Test hook: `MANGEKYO_BAKE_DIE_AFTER=k` ends the process abruptly (exit
//! 137, nothing flushed) once k items have been generated in this run,
//! exactly as a `kill -9` at that moment would.

mod guard;
mod journal;
pub(crate) mod plan;
mod render;
mod stop;
mod target;

pub(crate) use stop::Interrupted;

use std::io::IsTerminal;
use std::ops::RangeInclusive;

use anyhow::{Context, bail, ensure};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mangekyo_planet::{Planet, PlanetSpace};
use rayon::prelude::*;

use journal::Journal;
use plan::{Item, Kind, MANIFEST_VERSION, Manifest, Output, Plan, Region, Shard};
use render::Recipe;
use stop::Stop;
use target::Target;

/// Items generated together (in parallel) between store round trips. A
/// constant, not the core count, so journal checkpoints fall at the same
/// items on every machine.
const BATCH_ITEMS: usize = 8;

/// Flags of `mangekyo bake`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// Planet chunks of one projection over a range of levels of detail.
    Chunks {
        /// Levels of detail: `2`, `0..=3` or `0..4` (0 is the finest).
        #[arg(long, default_value = "0")]
        lods: String,
        /// The map: tangent_cube, cube, equirectangular or octahedral.
        #[arg(long, default_value = "tangent_cube")]
        projection: String,
        /// bin (the service's MKPC), json, png16 (alias png), r16 or f32 (heightmaps, with a .meta.json sidecar), or preview.
        #[arg(long, default_value = "bin")]
        format: String,
        /// exclusive (256 samples a side, the default on every surface) or shared (257).
        #[arg(long, default_value = "exclusive")]
        edge: String,
        /// Layers (comma-separated) for bin and json: height, temperature, humidity, biome,
        /// uplift, plate (version 2), water, flow (version 3), precipitation, biome_weights
        /// (version 4) or all; heightmaps hold one of height, uplift, plate, water, flow,
        /// precipitation.
        #[arg(long, default_value = "all")]
        layers: String,
        #[command(flatten)]
        common: Common,
    },
    /// Terrarium elevation tiles (Web Mercator XYZ) and a TileJSON document.
    Tiles {
        /// Zoom levels: `3`, `0..=5` or `0..6`.
        #[arg(long, default_value = "0..=3")]
        zoom: String,
        /// Pixels per tile side: 256 or 512.
        #[arg(long, default_value_t = 256)]
        size: u32,
        /// Prefix of the tile URLs in tilejson.json (e.g. `https://cdn.example/terra/`);
        /// default: relative to the TileJSON document.
        #[arg(long, default_value = "")]
        public_url: String,
        #[command(flatten)]
        common: Common,
    },
    /// The globe's level pyramid: MKPT tiles (face, level, x, y) and
    /// pyramid.json. `--region` counts tiles in the 3 × 2 face atlas of the
    /// coarsest level (`3·2^l` columns, `2·2^l` rows: +x +y −x on top,
    /// −y +z −z below).
    Pyramid {
        /// Levels: `3`, `0..=5` or `0..6` (0 is one tile per face).
        #[arg(long, default_value = "0..=3")]
        levels: String,
        /// Layers: height, biome and (version 3 on) water.
        #[arg(long, default_value = "height,biome")]
        layers: String,
        #[command(flatten)]
        common: Common,
    },
    /// CesiumJS terrain: quantized-mesh tiles (geographic TMS scheme) and
    /// layer.json. Start at level 0: Cesium needs the whole world's roots.
    Terrain {
        /// Levels: `3`, `0..=5` or `0..6`.
        #[arg(long, default_value = "0..=3")]
        zoom: String,
        #[command(flatten)]
        common: Common,
    },
}

#[derive(Debug, clap::Args)]
struct Common {
    /// Where to write: a directory, file:///dir, or s3://bucket/prefix (AWS_* variables).
    #[arg(short, long, visible_alias = "out")]
    output: String,
    /// The planet: a parameter file (as the store keeps them), then overrides.
    #[command(flatten)]
    planet: super::planet::ParamArgs,
    /// Only this rectangle, at the coarsest level: `x0..x1,y0..y1` (half-open).
    #[arg(long)]
    region: Option<String>,
    /// This process's part of the work: `i/n`, 0-based.
    #[arg(long, default_value = "0/1")]
    shard: String,
    /// Merge the finished shards' manifests into manifest.json (run once, after all shards).
    #[arg(long)]
    merge: bool,
    /// Outputs between journal checkpoints (at most this many are redone after a kill).
    #[arg(long, default_value_t = 32)]
    checkpoint_every: usize,
    /// The most items (chunks or tiles) the whole plan may hold; raise it
    /// on purpose for a larger bake.
    #[arg(long, default_value_t = guard::DEFAULT_MAX_ITEMS)]
    max_items: u64,
}

/// What one run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Tally {
    generated: u64,
    verified: u64,
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let (plan, common, public_url) = plan_of(args)?;
    // Every flag is checked before the planet's coarse tier is computed
    // (seconds): a typo is answered at once, not after the wait.
    let planet = common.planet.planet()?;
    let recipe = Recipe::new(&plan.kind, planet.version())?;
    let space = *planet.space();
    recipe.check_levels(&plan, &space)?;
    let grid = |level: u32| recipe.grid(&space, level);
    plan.check(&grid)?;
    guard::check_public_url(&public_url)?;
    if !common.merge {
        guard::check_scale(plan.count(&grid), &recipe, common.max_items)?;
    }
    ensure!(
        common.checkpoint_every >= 1,
        "--checkpoint-every must be at least 1"
    );
    let shard = Shard::parse(&common.shard)?;
    let target = Target::open(&common.output)?;
    let planet = crate::cmd::planet::with_tier(planet, common.planet.tier_cache().as_deref())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    // From here on a signal stops the bake between batches, recorded
    // (before, during the tier's computation, it ends it at once: nothing
    // is written yet).
    let stop = Stop::listen(&runtime);
    let bake = Bake {
        planet: &planet,
        recipe,
        plan: &plan,
        target: &target,
        runtime: &runtime,
        checkpoint_every: common.checkpoint_every,
        stop,
    };
    if common.merge {
        return bake.merge(&public_url);
    }
    let tally = bake.shard(shard)?;
    outln!(
        "bake {} of {}: {} items ({} generated, {} verified and kept)",
        shard.label(),
        target.name(),
        tally.generated + tally.verified,
        tally.generated,
        tally.verified
    )?;
    if shard.count == 1 {
        if let Some(stopped) = bake.stop.asked() {
            return Err(stopped.into());
        }
        bake.merge(&public_url)?;
    }
    Ok(())
}

fn plan_of(args: Args) -> anyhow::Result<(Plan, Common, String)> {
    let (kind, levels, common, public_url) = match args.what {
        What::Chunks {
            lods,
            projection,
            format,
            edge,
            layers,
            common,
        } => {
            let kind = Kind::Chunks {
                projection,
                format,
                edge,
                layers,
            };
            (kind, parse_levels("--lods", &lods)?, common, String::new())
        }
        What::Tiles {
            zoom,
            size,
            public_url,
            common,
        } => {
            let kind = Kind::Tiles { size };
            (kind, parse_levels("--zoom", &zoom)?, common, public_url)
        }
        What::Pyramid {
            levels,
            layers,
            common,
        } => {
            let kind = Kind::Pyramid { layers };
            (
                kind,
                parse_levels("--levels", &levels)?,
                common,
                String::new(),
            )
        }
        What::Terrain { zoom, common } => {
            let levels = parse_levels("--zoom", &zoom)?;
            ensure!(
                *levels.start() == 0,
                "--zoom {zoom:?}: a terrain bake starts at level 0 (Cesium loads the two root tiles first)"
            );
            (Kind::Terrain, levels, common, String::new())
        }
    };
    let region = common.region.as_deref().map(parse_region).transpose()?;
    let plan = Plan {
        kind,
        levels: [*levels.start(), *levels.end()],
        region,
    };
    Ok((plan, common, public_url))
}

/// `3`, `0..=3` or `0..4`.
fn parse_levels(flag: &str, text: &str) -> anyhow::Result<RangeInclusive<u32>> {
    let num = |s: &str| {
        s.trim()
            .parse::<u32>()
            .with_context(|| format!("{flag} {text:?}: {s:?} is not a level number"))
    };
    if let Some((a, b)) = text.split_once("..=") {
        return Ok(num(a)?..=num(b)?);
    }
    if let Some((a, b)) = text.split_once("..") {
        let end = num(b)?;
        ensure!(end > 0, "{flag} {text:?} is empty");
        return Ok(num(a)?..=end - 1);
    }
    let level = num(text)?;
    Ok(level..=level)
}

/// `x0..x1,y0..y1`.
fn parse_region(text: &str) -> anyhow::Result<Region> {
    let range = |s: &str| -> anyhow::Result<[u64; 2]> {
        let (a, b) = s
            .split_once("..")
            .with_context(|| format!("--region {text:?}: {s:?} is not a range a..b"))?;
        let n = |v: &str| {
            v.trim()
                .parse::<u64>()
                .with_context(|| format!("--region {text:?}: {v:?} is not a number"))
        };
        Ok([n(a)?, n(b)?])
    };
    let Some((x, y)) = text.split_once(',') else {
        bail!("--region must look like x0..x1,y0..y1, got {text:?}");
    };
    Ok(Region {
        x: range(x)?,
        y: range(y)?,
    })
}

/// One bake, set up.
struct Bake<'a> {
    planet: &'a Planet,
    recipe: Recipe,
    plan: &'a Plan,
    target: &'a Target,
    runtime: &'a tokio::runtime::Runtime,
    checkpoint_every: usize,
    stop: Stop,
}

impl Bake<'_> {
    fn space(&self) -> PlanetSpace {
        *self.planet.space()
    }

    /// An empty manifest of this bake.
    fn manifest(&self, shard: Option<String>) -> anyhow::Result<Manifest> {
        let params = self.planet.params();
        Ok(Manifest {
            manifest_version: MANIFEST_VERSION,
            // The planet's own version: a baked file names what made it.
            generator_version: params.generator_version,
            params: serde_json::to_value(params)?,
            params_hash: format!("{:016x}", params.content_hash()),
            plan: self.plan.clone(),
            shard,
            items: 0,
            outputs: Vec::new(),
        })
    }

    /// Bakes one shard's items.
    fn shard(&self, shard: Shard) -> anyhow::Result<Tally> {
        let me = self.manifest(Some(shard.label()))?;
        let recorded = self.runtime.block_on(self.recorded(&me))?;
        let space = self.space();
        let grid = |level: u32| self.recipe.grid(&space, level);
        let total = self.plan.shard_count(shard, &grid);
        let bar = progress(total, &shard);
        let die_after = std::env::var("MANGEKYO_BAKE_DIE_AFTER")
            .ok()
            .and_then(|v| v.parse::<u64>().ok());
        let mut journal = Journal::new(self.target, &me, self.runtime, self.checkpoint_every)?;
        let mut done: Vec<Output> = Vec::new();
        let mut tally = Tally::default();
        let mut items: Vec<Item> = Vec::with_capacity(BATCH_ITEMS);
        let mut all = self.plan.shard_items(shard, &grid).map(|(_, item)| item);
        loop {
            if let Some(stopped) = self.stop.asked() {
                bar.finish_and_clear();
                journal.flush()?;
                return Err(stopped.into());
            }
            items.clear();
            items.extend(all.by_ref().take(BATCH_ITEMS));
            if items.is_empty() {
                break;
            }
            let batch = self.runtime.block_on(self.batch(&items, &recorded))?;
            tally.verified += batch.verified.len() as u64;
            tally.generated += batch.generated_items;
            done.extend(batch.verified);
            done.extend(batch.written.iter().cloned());
            if die_after.is_some_and(|k| tally.generated >= k) {
                std::process::exit(137);
            }
            journal.add(batch.written)?;
            bar.inc(items.len() as u64);
        }
        bar.finish_and_clear();
        journal.flush()?;
        let mut manifest = me;
        manifest.items = total;
        manifest.outputs = done;
        manifest.normalise();
        let shard_path = format!("_bake/shards/{}.json", shard.label());
        self.runtime.block_on(async {
            self.target
                .put(&shard_path, serde_json::to_vec_pretty(&manifest)?)
                .await?;
            journal.clear().await
        })?;
        Ok(tally)
    }

    /// Every output some earlier run of this bake recorded, by path.
    async fn recorded(
        &self,
        me: &Manifest,
    ) -> anyhow::Result<std::collections::BTreeMap<String, Output>> {
        let mut sources = vec!["manifest.json".to_owned()];
        for dir in ["_bake/shards", "_bake/journal"] {
            for name in self.target.list(dir).await? {
                sources.push(format!("{dir}/{name}"));
            }
        }
        let mut recorded = std::collections::BTreeMap::new();
        for source in sources {
            let Some(bytes) = self.target.get(&source).await? else {
                continue;
            };
            // A record of another bake (or an unreadable one) is no record.
            let Ok(m) = serde_json::from_slice::<Manifest>(&bytes) else {
                continue;
            };
            if m.same_bake(me) {
                recorded.extend(m.outputs.into_iter().map(|o| (o.path.clone(), o)));
            }
        }
        Ok(recorded)
    }

    /// Verifies what is recorded, generates the rest, writes it.
    async fn batch(
        &self,
        items: &[Item],
        recorded: &std::collections::BTreeMap<String, Output>,
    ) -> anyhow::Result<Batch> {
        let mut out = Batch::default();
        let mut missing = Vec::new();
        for item in items {
            let paths = self.recipe.paths(item);
            match self.verify(&paths, recorded).await? {
                Some(kept) => out.verified.extend(kept),
                None => missing.push((*item, paths)),
            }
        }
        let planet = self.planet;
        let recipe = self.recipe;
        let rendered: Vec<anyhow::Result<Vec<Vec<u8>>>> = tokio::task::block_in_place(|| {
            missing
                .par_iter()
                .map(|(item, _)| recipe.render(planet, item))
                .collect()
        });
        let mut writes = tokio::task::JoinSet::new();
        for ((_, paths), objects) in missing.iter().zip(rendered) {
            for (path, bytes) in paths.iter().zip(objects?) {
                out.written.push(render::output(path, &bytes));
                let (target, path) = (self.target.clone(), path.clone());
                writes.spawn(async move { target.put(&path, bytes).await });
            }
            out.generated_items += 1;
        }
        while let Some(done) = writes.join_next().await {
            done.context("a write task")??;
        }
        Ok(out)
    }

    /// The item's outputs, if every one is recorded and still hashes to
    /// its record.
    async fn verify(
        &self,
        paths: &[String],
        recorded: &std::collections::BTreeMap<String, Output>,
    ) -> anyhow::Result<Option<Vec<Output>>> {
        let mut kept = Vec::with_capacity(paths.len());
        for path in paths {
            let Some(want) = recorded.get(path) else {
                return Ok(None);
            };
            match self.target.get(path).await? {
                Some(bytes) if render::output(path, &bytes) == *want => kept.push(want.clone()),
                _ => return Ok(None),
            }
        }
        Ok(Some(kept))
    }

    /// Joins every shard's manifest into `manifest.json` (and writes
    /// `tilejson.json` for tiles), then removes the working records.
    fn merge(&self, public_url: &str) -> anyhow::Result<()> {
        self.runtime.block_on(async {
            let me = self.manifest(None)?;
            let mut shards = Vec::new();
            for name in self.target.list("_bake/shards").await? {
                let path = format!("_bake/shards/{name}");
                let bytes = self.target.get(&path).await?.unwrap_or_default();
                let m: Manifest =
                    serde_json::from_slice(&bytes).with_context(|| format!("reading {path}"))?;
                if m.same_bake(&me) {
                    shards.push(m);
                }
            }
            ensure!(
                !shards.is_empty(),
                "no finished shard of this bake in {} (run the shards first, with the same flags)",
                self.target.name()
            );
            let merged = Manifest::merge(shards)?;
            let space = self.space();
            let expected = self.plan.count(&|l| self.recipe.grid(&space, l));
            ensure!(
                merged.items == expected,
                "the shards hold {} items, the plan {expected}",
                merged.items
            );
            self.target
                .put("manifest.json", serde_json::to_vec_pretty(&merged)?)
                .await?;
            if let Recipe::Tiles { size } = self.recipe {
                let doc = tilejson(self.planet, self.plan, size, public_url);
                self.target
                    .put("tilejson.json", serde_json::to_vec_pretty(&doc)?)
                    .await?;
            }
            if let Recipe::Pyramid { .. } = self.recipe {
                let mut doc = mangekyo_formats::pyramid_bin::document(
                    self.planet,
                    "pyramid/{face}/{level}/{x}/{y}.mkpt",
                );
                // What this bake holds, not the planet's whole pyramid.
                doc["levels"] = serde_json::json!(self.plan.levels);
                self.target
                    .put("pyramid.json", serde_json::to_vec_pretty(&doc)?)
                    .await?;
            }
            if let Recipe::Terrain = self.recipe {
                let doc = self.terrain_layer();
                self.target
                    .put("layer.json", serde_json::to_vec_pretty(&doc)?)
                    .await?;
            }
            for dir in ["_bake/shards", "_bake/journal"] {
                for name in self.target.list(dir).await? {
                    self.target.delete(&format!("{dir}/{name}")).await?;
                }
                self.target.remove_empty_folder(dir)?;
            }
            self.target.remove_empty_folder("_bake")?;
            outln!(
                "bake merged: {} items, {} outputs, manifest.json in {}",
                merged.items,
                merged.outputs.len(),
                self.target.name()
            )?;
            Ok(())
        })
    }
}

impl Bake<'_> {
    /// `layer.json` of a terrain bake: the planet's, with `available` and
    /// `maxzoom` cut to what the plan holds (Cesium asks for no tile it is
    /// not told exists).
    fn terrain_layer(&self) -> serde_json::Value {
        let space = self.space();
        let mut doc = mangekyo_formats::terrain::layer_json(
            self.planet,
            &format!("planet {:016x}", self.planet.params().content_hash()),
            "terrain/{z}/{x}/{y}.terrain",
        );
        let available: Vec<serde_json::Value> = (0..=self.plan.levels[1])
            .map(|z| {
                let (xs, ys) = self.plan.ranges(z, &|l| self.recipe.grid(&space, l));
                serde_json::json!([{
                    "startX": xs.start, "startY": ys.start,
                    "endX": xs.end.saturating_sub(1), "endY": ys.end.saturating_sub(1),
                }])
            })
            .collect();
        doc["available"] = serde_json::json!(available);
        doc["maxzoom"] = serde_json::json!(self.plan.levels[1]);
        doc
    }
}

/// What one batch did.
#[derive(Debug, Default)]
struct Batch {
    verified: Vec<Output>,
    written: Vec<Output>,
    generated_items: u64,
}

fn progress(total: u64, shard: &Shard) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:40}] {pos}/{len} items ({eta} left)")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_prefix(format!("bake {}", shard.label()));
    bar
}

/// The TileJSON 3.0 document of a tile bake.
fn tilejson(planet: &Planet, plan: &Plan, size: u32, public_url: &str) -> serde_json::Value {
    let p = planet.params();
    serde_json::json!({
        "tilejson": "3.0.0",
        "name": format!("planet {:016x}", p.content_hash()),
        "description": format!("Terrarium elevation, planet seed {} (radius {} m), generator v{}", p.seed, p.radius, p.generator_version),
        "version": "1.0.0",
        "scheme": "xyz",
        "tiles": [format!("{public_url}tiles/{{z}}/{{x}}/{{y}}.png")],
        "minzoom": plan.levels[0],
        "maxzoom": plan.levels[1],
        "bounds": bounds(plan),
        "encoding": "terrarium",
        "tileSize": size,
    })
}

/// West, south, east, north of a tile plan's region, in degrees.
fn bounds(plan: &Plan) -> [f64; 4] {
    let z = plan.levels[0];
    let n = (1u64 << z) as f64;
    let r = plan.region.unwrap_or(Region {
        x: [0, 1 << z],
        y: [0, 1 << z],
    });
    let lon = |x: u64| x as f64 / n * 360.0 - 180.0;
    let lat = |y: u64| {
        let merc = std::f64::consts::PI * (1.0 - 2.0 * y as f64 / n);
        libm::atan(libm::sinh(merc)).to_degrees()
    };
    [lon(r.x[0]), lat(r.y[1]), lon(r.x[1]), lat(r.y[0])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_and_region_flags_parse() {
        assert_eq!(parse_levels("--lods", "2").unwrap(), 2..=2);
        assert_eq!(parse_levels("--lods", "0..=3").unwrap(), 0..=3);
        assert_eq!(parse_levels("--lods", "1..4").unwrap(), 1..=3);
        assert!(parse_levels("--lods", "x").is_err());
        assert!(parse_levels("--zoom", "0..0").is_err());
        let r = parse_region("3..5,0..2").unwrap();
        assert_eq!((r.x, r.y), ([3, 5], [0, 2]));
        assert!(parse_region("3..5").is_err());
        assert!(parse_region("3-5,1..2").is_err());
    }

    #[test]
    fn tile_bounds_follow_the_region() {
        let plan = Plan {
            kind: Kind::Tiles { size: 256 },
            levels: [1, 3],
            region: Some(Region {
                x: [1, 2],
                y: [0, 1],
            }),
        };
        let [w, s, e, n] = bounds(&plan);
        assert_eq!((w, e, s), (0.0, 180.0, 0.0));
        assert!((n - 85.051_128_779_806_59).abs() < 1e-9, "{n}");
    }
}
