//! `mangekyo island`: generate, check, measure and play islands made from
//! YAML definitions. This module reads the files; the library never does.

use anyhow::{Context, Result, bail};
use clap::{Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mangekyo_core::Seed;
use mangekyo_island::{Definitions, DefinitionsLoader, generate_island, view};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Flags of `mangekyo island`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: IslandCommand,
}

/// Where the definitions come from (shared by every subcommand).
#[derive(Debug, clap::Args)]
struct DefsArgs {
    /// YAML files or directories (every *.yaml / *.yml inside, sorted by
    /// name), loaded into one definition set; without it, the example world
    /// of the repository's examples/island/, built into the binary.
    #[arg(long, num_args = 1..)]
    defs: Vec<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum IslandCommand {
    /// Generates one island and prints it as JSON, SVG or a text summary.
    Generate {
        #[command(flatten)]
        defs: DefsArgs,
        /// The generation scope.
        #[arg(long, default_value = "island")]
        scope: String,
        /// The seed: digits are a number, other text is hashed.
        #[arg(long, default_value = "42")]
        seed: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Language of the names (a code from the definitions' localization;
        /// any code when they have none: names are then identifiers).
        #[arg(long, default_value = "en")]
        lang: String,
        /// Write to this file instead of stdout (`--out` is the old name).
        #[arg(short, long, visible_alias = "out")]
        output: Option<PathBuf>,
    },
    /// Validates the definitions and reports unused definitions and missing
    /// or clashing translations.
    Check {
        #[command(flatten)]
        defs: DefsArgs,
    },
    /// Distributions over many seeds: site and type counts, degrees, edge
    /// lengths and minutes, fallbacks, and path discovery.
    Stats {
        #[command(flatten)]
        defs: DefsArgs,
        /// The generation scope.
        #[arg(long, default_value = "island")]
        scope: String,
        /// How many seeds (0, 1, 2, …).
        #[arg(long, default_value_t = 1000)]
        seeds: u64,
        /// Also play every seed with the scope's bot and report its win
        /// rate and median game length.
        #[arg(long)]
        bot: bool,
    },
    /// Explores an island in the terminal (or runs a script of commands).
    Play(super::island_play::PlayArgs),
}

/// Output formats of `generate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// The spec's JSON.
    Json,
    /// An SVG map.
    Svg,
    /// A text summary.
    Text,
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> Result<()> {
    match args.command {
        IslandCommand::Generate {
            defs,
            scope,
            seed,
            format,
            lang,
            output,
        } => {
            let defs = load(&defs.defs)?;
            check_scope_and_lang(&defs, &scope, &lang)?;
            let map = generate_island(&defs, &scope, Seed::parse(&seed))?;
            let text = match format {
                Format::Json => view::json::to_string(&map, &defs, &lang) + "\n",
                Format::Svg => view::svg::render(&map, &defs, &lang),
                Format::Text => view::text::render(&map, &defs, &lang),
            };
            write_out(output.as_deref(), &text)
        }
        IslandCommand::Check { defs } => check(&defs.defs),
        IslandCommand::Stats {
            defs,
            scope,
            seeds,
            bot,
        } => stats(&load(&defs.defs)?, &scope, seeds, bot),
        IslandCommand::Play(args) => super::island_play::run(args),
    }
}

/// Refuses a scope or language the definitions do not name, with the
/// server's message (names would otherwise fall back silently).
pub(crate) fn check_scope_and_lang(defs: &Definitions, scope: &str, lang: &str) -> Result<()> {
    defs.check_scope_and_lang(scope, lang)
        .map_err(|e| anyhow::anyhow!("--{e}"))
}

/// Reads every definition file and loads them into one set; every problem
/// in every file is reported together. No paths means the example world
/// built into the binary (`mangekyo_island::example`, the server's too), so
/// the commands work from any directory, not only inside the repository.
pub(crate) fn load(paths: &[PathBuf]) -> Result<Definitions> {
    if paths.is_empty() {
        return mangekyo_island::load_definitions(mangekyo_island::example::sources())
            .map_err(|e| anyhow::anyhow!("the built-in example world: {e}"));
    }
    let mut files = Vec::new();
    for p in paths {
        collect_yaml(p, &mut files)?;
    }
    if files.is_empty() {
        bail!(
            "no YAML files found in {}",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let mut loader = DefinitionsLoader::new();
    for f in &files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
        loader.add_source(&f.display().to_string(), &text);
    }
    loader.finish().map_err(|e| anyhow::anyhow!("{e}"))
}

fn collect_yaml(path: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let meta = std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
    if !meta.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("listing {}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() || p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    entries.sort();
    for e in entries {
        collect_yaml(&e, out)?;
    }
    Ok(())
}

fn write_out(out: Option<&Path>, text: &str) -> Result<()> {
    match out {
        Some(p) => crate::atomic::write(p, text.as_bytes()),
        None => {
            out!("{text}")?;
            Ok(())
        }
    }
}

/// The languages for `check`'s summary; a set without any still
/// generates, with every name its identifier.
fn languages(defs: &Definitions) -> String {
    let langs = defs.localization().languages();
    if langs.is_empty() {
        return "none (names show as identifiers)".into();
    }
    langs.keys().cloned().collect::<Vec<_>>().join(", ")
}

fn check(paths: &[PathBuf]) -> Result<()> {
    let defs = load(paths)?;
    let findings = mangekyo_island::check::check(&defs);
    outln!(
        "ok: {} object defs, {} axes, {} location types, {} scopes, languages: {}",
        defs.object_defs().len(),
        defs.axes().len(),
        defs.location_types().len(),
        defs.scopes().len(),
        languages(&defs)
    )?;
    if findings.is_empty() {
        outln!("no findings")?;
    }
    for f in &findings {
        outln!("warning: {f}")?;
    }
    Ok(())
}

fn stats(defs: &Definitions, scope: &str, seeds: u64, bot: bool) -> Result<()> {
    let bar = progress(seeds);
    let mut island = mangekyo_island::stats::IslandStats::new(defs);
    let mut discovery = mangekyo_world::stats::PathDiscovery::default();
    // One game at a time, folded into counts: memory stays flat over seeds.
    let mut games = mangekyo_world::bot::BotStats::default();
    for seed in 0..seeds {
        let map = generate_island(defs, scope, Seed::new(seed))?;
        island.add(&map);
        discovery.add(defs, &map)?;
        if bot {
            games.add(mangekyo_world::bot::play_one(defs, scope, Seed::new(seed))?);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    out!("{}", island.render())?;
    out!("{}", discovery.render())?;
    if bot {
        out!("{}", games.render())?;
    }
    Ok(())
}

/// A progress bar on stderr, hidden when stderr is not a terminal.
pub(crate) fn progress(len: u64) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} islands ({eta})") {
            bar.set_style(style);
        }
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar
}
