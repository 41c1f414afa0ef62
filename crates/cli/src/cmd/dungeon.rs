//! `mangekyo dungeon`: Hengband's fractal caves as ASCII, JSON or PNG.
//!
//! `room`, `cavern`, `lake --kind K` and `level` each build one grid from a
//! seed and optional overrides; the library validates every value and its
//! error (naming the parameter and the allowed range) is printed as is.

use anyhow::{Context, bail};
use mangekyo_dungeon::{
    CavernParams, Grid, LakeForm, LakeKind, LakeParams, LevelParams, RoomKind, RoomParams, Seed,
    view,
};
use mangekyo_formats::dungeon::{self, DungeonParams};
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;

/// Flags of `mangekyo dungeon`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// One fractal room (Hengband room type 9), or a cave vault with --vault.
    Room {
        /// Build a cave vault (22..=44 × 12..=22, unlit, marked icky) instead.
        #[arg(long)]
        vault: bool,
        #[command(flatten)]
        common: Common,
    },
    /// A whole-level cavern (198×66 unless --width/--height say otherwise).
    Cavern {
        #[command(flatten)]
        common: Common,
    },
    /// A lake: lava, water or cave across a level, or one of the four elemental vaults.
    Lake {
        /// The lake kind.
        #[arg(long, value_enum, default_value_t = Kind::Water)]
        kind: Kind,
        /// Build it across a level or as a vault (default: level for lava/water/cave).
        #[arg(long, value_enum)]
        form: Option<Form>,
        #[command(flatten)]
        common: Common,
    },
    /// A playable level: fractal rooms joined by corridors, every floor cell reachable.
    Level {
        /// How many rooms to try to place (1..=64).
        #[arg(long, default_value_t = 8)]
        rooms: u32,
        #[command(flatten)]
        common: Common,
    },
}

/// Flags every dungeon subcommand shares.
#[derive(Debug, clap::Args)]
struct Common {
    /// World seed: digits are that number, any other text is hashed.
    #[arg(long, default_value = "0")]
    seed: String,
    /// Largest correlated scale in cells (1..=254); default drawn as Hengband does.
    #[arg(long)]
    grd: Option<u32>,
    /// Edge noise (0..=255, 16 = normal); default drawn.
    #[arg(long)]
    roughness: Option<u32>,
    /// Floor cutoff height (1..=512); default drawn or derived from the size.
    #[arg(long)]
    cutoff: Option<u32>,
    /// Width: the room's even side, or the level's width.
    #[arg(long)]
    width: Option<u32>,
    /// Height: the room's even side, or the level's height.
    #[arg(long)]
    height: Option<u32>,
    /// Light the cave (lakes: lava glows); `--light` alone is `--light true`;
    /// default by depth.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    light: Option<bool>,
    /// Dungeon depth (1..=127) for the lighting rule of rooms, caverns and
    /// levels [default: 1]; lakes have no depth rule.
    #[arg(long)]
    depth: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Ascii)]
    format: Format,
    /// Write here instead of stdout (required for PNG).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// PNG pixels per cell.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=8))]
    scale: u32,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Format {
    /// Text, one glyph per cell (`.` floor, `#` wall, `~` deep water, …).
    Ascii,
    /// The service's document (`mangekyo_formats::dungeon::json`):
    /// generator, version, kind, seed, params, the grid
    /// (`{"width","height","features","flags"}`, row-major) and what the
    /// builder reported.
    Json,
    /// An RGB picture, lit cells brighter.
    Png,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Kind {
    Lava,
    Water,
    Cave,
    EarthVault,
    AirVault,
    WaterVault,
    FireVault,
}

impl From<Kind> for LakeKind {
    fn from(k: Kind) -> LakeKind {
        match k {
            Kind::Lava => LakeKind::Lava,
            Kind::Water => LakeKind::Water,
            Kind::Cave => LakeKind::Cave,
            Kind::EarthVault => LakeKind::EarthVault,
            Kind::AirVault => LakeKind::AirVault,
            Kind::WaterVault => LakeKind::WaterVault,
            Kind::FireVault => LakeKind::FireVault,
        }
    }
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Form {
    Level,
    Vault,
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    let common = match &args.what {
        What::Room { common, .. }
        | What::Cavern { common }
        | What::Lake { common, .. }
        | What::Level { common, .. } => common,
    };
    if matches!(common.format, Format::Png) && common.output.is_none() {
        bail!("--format png writes binary data: give a file with -o FILE");
    }
    let ((grid, doc), summary, common) = match args.what {
        What::Room { vault, common } => (room(vault, &common)?, "room", common),
        What::Cavern { common } => (cavern(&common)?, "cavern", common),
        What::Lake { kind, form, common } => (lake(kind.into(), form, &common)?, "lake", common),
        What::Level { rooms, common } => (level(rooms, &common)?, "level", common),
    };
    errln!(
        "{summary}: {}×{} cells, {} floor, seed {:?}",
        grid.width(),
        grid.height(),
        grid.floor_count(),
        common.seed
    );
    write(&grid, &doc, &common)
}

/// Builds with the library and writes the one document the service and
/// the WebAssembly package write too.
fn built<P: DungeonParams>(params: &P, c: &Common) -> anyhow::Result<(Grid, Value)> {
    let seed = Seed::parse(&c.seed);
    let built = dungeon::build(params, seed)?;
    let doc = dungeon::json(params, seed, &built);
    Ok((built.grid, doc))
}

fn room(vault: bool, c: &Common) -> anyhow::Result<(Grid, Value)> {
    let params = RoomParams {
        kind: if vault {
            RoomKind::CaveVault
        } else {
            RoomKind::Fractal
        },
        width: c.width,
        height: c.height,
        grd: c.grd,
        roughness: c.roughness,
        cutoff: c.cutoff,
        light: c.light,
        depth: c.depth.unwrap_or(1),
        ..RoomParams::default()
    };
    built(&params, c)
}

fn cavern(c: &Common) -> anyhow::Result<(Grid, Value)> {
    let d = CavernParams::default();
    let params = CavernParams {
        width: c.width.unwrap_or(d.width),
        height: c.height.unwrap_or(d.height),
        grd: c.grd,
        roughness: c.roughness,
        cutoff: c.cutoff,
        light: c.light,
        depth: c.depth.unwrap_or(1),
        ..d
    };
    built(&params, c)
}

fn lake(kind: LakeKind, form: Option<Form>, c: &Common) -> anyhow::Result<(Grid, Value)> {
    if let Some(depth) = c.depth {
        anyhow::bail!(
            "--depth {depth}: lakes have no depth rule (lava glows, water is lit by --light); leave --depth out"
        );
    }
    let params = LakeParams {
        kind,
        form: form.map(|f| match f {
            Form::Level => LakeForm::Level,
            Form::Vault => LakeForm::Vault,
        }),
        width: c.width,
        height: c.height,
        grd: c.grd,
        roughness: c.roughness,
        cutoff: c.cutoff,
        light: c.light,
        ..LakeParams::default()
    };
    built(&params, c)
}

fn level(rooms: u32, c: &Common) -> anyhow::Result<(Grid, Value)> {
    let d = LevelParams::default();
    let params = LevelParams {
        width: c.width.unwrap_or(d.width),
        height: c.height.unwrap_or(d.height),
        rooms,
        grd: c.grd,
        roughness: c.roughness,
        cutoff: c.cutoff,
        light: c.light,
        depth: c.depth.unwrap_or(1),
        ..d
    };
    built(&params, c)
}

fn write(grid: &Grid, doc: &Value, c: &Common) -> anyhow::Result<()> {
    let bytes = match c.format {
        Format::Ascii => view::to_ascii(grid).into_bytes(),
        Format::Json => {
            let mut text = serde_json::to_vec(doc)?;
            text.push(b'\n');
            text
        }
        Format::Png => {
            let img = view::to_rgb(grid, c.scale);
            mangekyo_export::png::encode_rgb8(img.width, img.height, &img.pixels)?
        }
    };
    match &c.output {
        Some(path) => crate::atomic::write(path, &bytes),
        None => std::io::stdout()
            .lock()
            .write_all(&bytes)
            .context("writing to stdout"),
    }
}
