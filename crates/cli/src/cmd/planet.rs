//! `mangekyo planet`: whole-planet previews, chunks in every format, and
//! the projections' area distortion table.
//!
//! Parameters come from `--params FILE` (JSON, as the store keeps them)
//! with any flag overriding one field; the library validates them and its
//! error (naming the field and the allowed range) is printed as is.
//!
//! Every flag is checked before the coarse tier is computed (seconds):
//! names through clap value parsers that list the valid choices, ranges
//! and addresses through the library's checks, which need the planet but
//! not its tier. The tier then comes from the on-disk cache
//! (`tier_cache.rs`) when a run before this one computed it.

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mangekyo_core::Seed;
use mangekyo_formats::{ChunkFormat, chunk};
use mangekyo_planet::geology::layers::PlateLayer;
use mangekyo_planet::hydro::geojson::BBox;
use mangekyo_planet::hydro::layers::WaterLayer;
use mangekyo_planet::view::{Overlay, PreviewLayer};
use mangekyo_planet::{
    Chunk, ChunkAddress, ChunkRequest, Edge, LatLon, Planet, PlanetParams, Projection, distortion,
};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Flags of `mangekyo planet`.
///
/// Versions 3 and later keep each planet's coarse tier (computed in seconds
/// on first use) in a cache directory: MANGEKYO_CACHE_DIR, else
/// $XDG_CACHE_HOME/mangekyo, else ~/.cache/mangekyo. `--no-cache` skips it;
/// deleting it is always safe.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// The whole planet as an equirectangular biome map with hill shading (PNG).
    Preview {
        /// Width in pixels (even, 16..=16384); the height is half of it.
        #[arg(long, default_value_t = 2048)]
        width: u32,
        /// What to show: biome, height, temperature, humidity, (version 2) uplift or plate, or
        /// (version 4) precipitation.
        #[arg(long, value_parser = named::<PreviewLayer>, default_value = "biome")]
        layer: PreviewLayer,
        /// What to draw over it: none, or plates (boundaries by type; version 2).
        #[arg(long, value_parser = named::<Overlay>, default_value = "none")]
        overlay: Overlay,
        /// Where to write the PNG.
        #[arg(short, long, default_value = "planet.png")]
        output: PathBuf,
        #[command(flatten)]
        params: ParamArgs,
    },
    /// One chunk, or a block of chunks (`--cx 0..4`), as a heightmap, JSON or picture.
    Chunk(ChunkArgs),
    /// The plates of a version-2 planet as GeoJSON: a polygon per plate,
    /// boundaries with their type and relative velocity. With `--kind`, one
    /// layer GIS tools (ogr2ogr to Shapefile or GeoPackage) accept as is.
    Plates {
        /// Raster cell in degrees the outlines are traced on (0.1..=10, dividing 180).
        #[arg(long, default_value_t = 1.0)]
        cell_deg: f64,
        /// One layer: plate (valid, dissolved polygons) or boundary (merged
        /// lines); without it, the original mixed document (raster strips).
        #[arg(long)]
        kind: Option<String>,
        /// Where to write the GeoJSON.
        #[arg(short, long, default_value = "plates.geojson")]
        output: PathBuf,
        #[command(flatten)]
        params: ParamArgs,
    },
    /// The rivers, lakes and basins of a version-3 planet as GeoJSON: a
    /// line per river link (discharge, Strahler order, upstream area,
    /// length, mouth), a polygon per lake, a point per basin. With
    /// `--kind`, one layer GIS tools accept as is.
    Rivers {
        /// Only features with a point inside west,south,east,north (degrees).
        #[arg(long, allow_hyphen_values = true)]
        bbox: Option<String>,
        /// One layer: river (lines cut at the antimeridian), lake (valid,
        /// dissolved polygons) or basin; without it, the original mixed document.
        #[arg(long)]
        kind: Option<String>,
        /// Where to write the GeoJSON.
        #[arg(short, long, default_value = "rivers.geojson")]
        output: PathBuf,
        #[command(flatten)]
        params: ParamArgs,
    },
    /// Prints each projection's cell area distortion (largest/smallest cell on the sphere).
    Projections {
        /// Cells along a cube face's edge (the other maps get as many along the equator).
        #[arg(long, default_value_t = 512)]
        cells: u64,
    },
}

/// Planet parameters: a JSON file, then per-field overrides.
#[derive(Debug, clap::Args)]
pub(crate) struct ParamArgs {
    /// A JSON file of planet parameters (missing fields take the defaults).
    #[arg(long)]
    params: Option<PathBuf>,
    /// Seed: digits are that number, any other text is hashed.
    #[arg(long)]
    seed: Option<String>,
    /// Radius in metres.
    #[arg(long)]
    radius: Option<f64>,
    /// Sample spacing at lod 0 in metres.
    #[arg(long)]
    pixel_size: Option<f64>,
    /// Fraction of the surface under water (0..=1).
    #[arg(long)]
    sea_level: Option<f64>,
    /// Mountain building (0..=2, 1 = Earth).
    #[arg(long)]
    plate_activity: Option<f64>,
    /// Overall wetness (0..=1).
    #[arg(long)]
    humidity_global: Option<f64>,
    /// Axial tilt in degrees (-90..=90).
    #[arg(long, allow_hyphen_values = true)]
    axial_tilt: Option<f64>,
    /// Planet generator version: 1 (noise belts), 2 (plates), 3 (erosion, rivers and lakes), 4
    /// (climate with rain shadows and blended biomes; the default), or next (unreleased: its
    /// output may change from one build to the next).
    #[arg(long)]
    generator_version: Option<mangekyo_planet::Version>,
    /// Sphere-graph cells along a cube face's edge (version 2; 16..=1024).
    #[arg(long)]
    graph_n: Option<u32>,
    /// Number of plates (version 2): 0 derives 12..=20 from the seed, else 8..=40.
    #[arg(long)]
    plate_count: Option<u32>,
    /// Sunlight relative to Earth (0.25..=4).
    #[arg(long)]
    solar_intensity: Option<f64>,
    /// Compute the coarse tier (versions 3 and later) afresh and neither read
    /// nor write the tier cache: MANGEKYO_CACHE_DIR, else
    /// $XDG_CACHE_HOME/mangekyo, else ~/.cache/mangekyo.
    #[arg(long)]
    no_cache: bool,
}

impl ParamArgs {
    /// Where this command reads and writes coarse tiers, if anywhere.
    pub(crate) fn tier_cache(&self) -> Option<PathBuf> {
        if self.no_cache {
            None
        } else {
            crate::tier_cache::dir()
        }
    }

    /// The planet these flags describe.
    pub(crate) fn planet(&self) -> anyhow::Result<Planet> {
        let mut p = match &self.params {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                // A file describes a new planet, read as a POST body and
                // the WebAssembly `Planet` read one: no `generator_version`
                // means the newest, a text seed is hashed.
                PlanetParams::from_new_json_text(&text)
                    .with_context(|| format!("parsing {}", path.display()))?
            }
            None => PlanetParams::default(),
        };
        if let Some(s) = &self.seed {
            p.seed = Seed::parse(s).value();
        }
        let overrides = [
            (self.radius, &mut p.radius),
            (self.pixel_size, &mut p.pixel_size),
            (self.sea_level, &mut p.sea_level),
            (self.plate_activity, &mut p.plate_activity),
            (self.humidity_global, &mut p.humidity_global),
            (self.axial_tilt, &mut p.axial_tilt),
            (self.solar_intensity, &mut p.solar_intensity),
        ];
        for (flag, field) in overrides {
            if let Some(v) = flag {
                *field = v;
            }
        }
        if let Some(v) = self.generator_version {
            p.generator_version = v;
        }
        let whole = [
            (self.graph_n, &mut p.graph_n),
            (self.plate_count, &mut p.plate_count),
        ];
        for (flag, field) in whole {
            if let Some(v) = flag {
                *field = v;
            }
        }
        Ok(Planet::new(p)?)
    }
}

/// `--format`: a [`ChunkFormat`] name or alias (the HTTP API's `format=`).
fn parse_format(text: &str) -> Result<ChunkFormat, String> {
    text.parse()
        .map_err(|e: mangekyo_core::ParamError| e.to_string())
}

/// A clap value parser for the library's names (projection, edge, preview
/// layer, overlay): its `FromStr`, whose error names the valid
/// choices, so a typo is refused while the flags are read.
fn named<T: std::str::FromStr<Err = mangekyo_planet::PlanetError>>(
    text: &str,
) -> Result<T, String> {
    text.parse()
        .map_err(|e: mangekyo_planet::PlanetError| e.to_string())
}

/// Flags of `mangekyo planet chunk`.
#[derive(Debug, clap::Args)]
struct ChunkArgs {
    /// equirectangular, cube, tangent_cube or octahedral.
    #[arg(long, value_parser = named::<Projection>, default_value = "tangent_cube")]
    projection: Projection,
    /// Level of detail (each level doubles the sample spacing).
    #[arg(long, default_value_t = 0)]
    lod: u32,
    /// Chunk column, or a half-open range `A..B` (cube: in the 3×2 face atlas).
    #[arg(long, value_parser = range, default_value = "0")]
    cx: std::ops::Range<u32>,
    /// Chunk row, or a half-open range `A..B`.
    #[arg(long, value_parser = range, default_value = "0")]
    cy: std::ops::Range<u32>,
    /// Pick the chunk holding this latitude (degrees) instead of --cx/--cy.
    #[arg(long, allow_hyphen_values = true, requires = "lon")]
    lat: Option<f64>,
    /// Longitude (degrees east) for --lat.
    #[arg(long, allow_hyphen_values = true, requires = "lat")]
    lon: Option<f64>,
    /// `exclusive` (256 samples, the default on every surface: server, `bake`, WebAssembly)
    /// or `shared` (257, the neighbours' first row and column).
    #[arg(long, value_parser = named::<Edge>, default_value = "exclusive")]
    edge: Edge,
    /// Layers for json and bin: height, temperature, humidity, biome, uplift, plate (version 2),
    /// water, flow (version 3), precipitation, biome_weights (version 4) or all
    /// (comma-separated); heightmaps hold one of height (the default), uplift, plate, water,
    /// flow or precipitation; previews hold heights and biomes.
    #[arg(long, default_value = "all")]
    layers: String,
    /// json, bin (MKPC), png16 (alias png), r16 or f32 (heightmaps, with a
    /// `.json` sidecar), or preview (a biome-coloured, hill-shaded picture).
    #[arg(long, value_parser = parse_format, default_value = "preview")]
    format: ChunkFormat,
    /// Output file (one chunk) or directory (a range of chunks).
    #[arg(short, long, default_value = "chunk")]
    output: PathBuf,
    #[command(flatten)]
    params: ParamArgs,
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    match args.what {
        What::Preview {
            width,
            layer,
            overlay,
            output,
            params,
        } => {
            let planet = params.planet()?;
            planet.check_preview(width, layer, overlay)?;
            check_output_dir(&output)?;
            let planet = with_tier(planet, params.tier_cache().as_deref())?;
            preview(&planet, width, (layer, overlay), &output)
        }
        What::Chunk(c) => chunks(&c),
        What::Plates {
            cell_deg,
            kind,
            output,
            params,
        } => {
            // Plates read no tier: the library checks `cell_deg` first.
            let kind = kind.as_deref().map(PlateLayer::parse).transpose()?;
            check_output_dir(&output)?;
            plates(&params.planet()?, cell_deg, kind, &output)
        }
        What::Rivers {
            bbox,
            kind,
            output,
            params,
        } => {
            // The box as one line that names `bbox` (the library's error),
            // like every other value the library refuses. A version without
            // rivers has no tier to compute: the library refuses it at once.
            let bbox = bbox.as_deref().map(BBox::parse).transpose()?;
            let kind = kind.as_deref().map(WaterLayer::parse).transpose()?;
            let planet = params.planet()?;
            check_output_dir(&output)?;
            let planet = with_tier(planet, params.tier_cache().as_deref())?;
            rivers(&planet, bbox, kind, &output)
        }
        What::Projections { cells } => projections(cells),
    }
}

/// A progress bar on stderr, hidden when stderr is not a terminal.
fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {what} ({{eta}})"))
        {
            bar.set_style(style);
        }
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar
}

/// Refuses an output file whose directory is not there, before any work:
/// the file is written (atomically) only at the end, after the tier.
fn check_output_dir(output: &Path) -> anyhow::Result<()> {
    match output.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => bail!(
            "--output {}: the directory {} does not exist",
            output.display(),
            dir.display()
        ),
        _ => Ok(()),
    }
}

/// The planet with its coarse tier when its samples read one (version 3
/// on): read from the tier cache in `cache` when a whole one is there,
/// else computed (with a progress bar, so the work after it shows its own)
/// and written there for the next run.
pub(crate) fn with_tier(planet: Planet, cache: Option<&Path>) -> anyhow::Result<Planet> {
    if !planet.samples_need_tier() || planet.has_tier() {
        return Ok(planet);
    }
    if let Some(tier) = cache.and_then(|dir| crate::tier_cache::load(dir, &planet)) {
        planet.install_tier(std::sync::Arc::new(tier))?;
        return Ok(planet);
    }
    let p = planet.params();
    let rows = p.generator_version.tier_layout().rows(p.graph_n);
    let bar = progress(u64::from(rows), "rows of the coarse tier");
    let tier = planet
        .compute_tier_observed(mangekyo_core::noise::Level::best(), &|n| {
            bar.inc(u64::from(n));
            true
        })?
        .context("computing the coarse tier")?;
    bar.finish_and_clear();
    if let Some(dir) = cache {
        crate::tier_cache::save(dir, &planet, &tier);
    }
    planet.install_tier(std::sync::Arc::new(tier))?;
    Ok(planet)
}

fn rivers(
    planet: &Planet,
    bbox: Option<BBox>,
    kind: Option<WaterLayer>,
    output: &Path,
) -> anyhow::Result<()> {
    let geojson = match kind {
        Some(kind) => mangekyo_planet::hydro::layers::water_layer(planet, bbox, kind)?,
        None => mangekyo_planet::hydro::geojson::rivers_geojson(planet, bbox)?,
    };
    let features = geojson["features"].as_array().map_or(0, Vec::len);
    crate::atomic::write(output, &serde_json::to_vec(&geojson)?)?;
    errln!(
        "wrote {} ({features} features, {:.1} % of land drains to the sea, seed {})",
        output.display(),
        geojson["properties"]["drains_to_sea_share"]
            .as_f64()
            .unwrap_or(0.0)
            * 100.0,
        planet.params().seed
    );
    Ok(())
}

fn plates(
    planet: &Planet,
    cell_deg: f64,
    kind: Option<PlateLayer>,
    output: &Path,
) -> anyhow::Result<()> {
    let geojson = match kind {
        Some(kind) => mangekyo_planet::geology::layers::plates_layer(planet, cell_deg, kind)?,
        None => mangekyo_planet::geology::plates_geojson(planet, cell_deg)?,
    };
    let features = geojson["features"].as_array().map_or(0, Vec::len);
    crate::atomic::write(output, &serde_json::to_vec(&geojson)?)?;
    errln!(
        "wrote {} ({features} features, seed {})",
        output.display(),
        planet.params().seed
    );
    Ok(())
}

fn preview(
    planet: &Planet,
    width: u32,
    (layer, overlay): (PreviewLayer, Overlay),
    output: &Path,
) -> anyhow::Result<()> {
    let bar = progress(u64::from(width / 2), "rows");
    let image = planet.preview_with(width, layer, overlay, &|rows| bar.inc(rows))?;
    bar.finish_and_clear();
    let bytes = mangekyo_formats::picture::encode_picture(&image)?;
    crate::atomic::write(output, &bytes)?;
    errln!(
        "wrote {} ({}×{} px, seed {})",
        output.display(),
        image.width,
        image.height,
        planet.params().seed
    );
    Ok(())
}

/// `--cx`/`--cy`: `A` or `A..B` (half-open), a clap value parser (clap
/// names the flag).
fn range(text: &str) -> Result<std::ops::Range<u32>, String> {
    let parse = |s: &str| {
        s.trim()
            .parse::<u32>()
            .map_err(|_| format!("expected a chunk index or a range A..B, got `{text}`"))
    };
    match text.split_once("..") {
        Some((a, b)) => {
            let (a, b) = (parse(a)?, parse(b)?);
            if b <= a {
                return Err(format!("the range {a}..{b} is empty"));
            }
            Ok(a..b)
        }
        None => {
            let a = parse(text)?;
            let end = a
                .checked_add(1)
                .ok_or_else(|| format!("chunk index {a} is out of range"))?;
            Ok(a..end)
        }
    }
}

/// Most chunks one command writes.
const MAX_CHUNKS: usize = 4096;

/// Chunks sampled in parallel before their files are written.
const BATCH: usize = 16;

fn chunks(args: &ChunkArgs) -> anyhow::Result<()> {
    // Everything is checked on the planet before its tier is computed.
    let planet = args.params.planet()?;
    let (projection, edge) = (args.projection, args.edge);
    let layers = args.format.layers(Some(&args.layers), planet.version())?;
    let addresses = match (args.lat, args.lon) {
        (Some(lat), Some(lon)) => {
            let at = planet
                .space()
                .locate(projection, args.lod, LatLon { lat, lon })?;
            errln!(
                "({lat}, {lon}) is sample ({:.1}, {:.1}) of chunk cx {} cy {}",
                at.i,
                at.j,
                at.address.cx,
                at.address.cy
            );
            vec![at.address]
        }
        _ => {
            let (xs, ys) = (args.cx.clone(), args.cy.clone());
            let count = xs.len() * ys.len();
            if count > MAX_CHUNKS {
                bail!("{count} chunks requested; at most {MAX_CHUNKS} per command");
            }
            ys.flat_map(|cy| {
                xs.clone().map(move |cx| ChunkAddress {
                    projection,
                    lod: args.lod,
                    cx,
                    cy,
                })
            })
            .collect()
        }
    };
    // Every address is checked before the first file is written.
    for a in &addresses {
        planet.space().check(a)?;
    }
    let requests: Vec<ChunkRequest> = addresses
        .iter()
        .map(|&address| ChunkRequest {
            address,
            edge,
            layers,
        })
        .collect();
    let single = requests.len() == 1;
    if single {
        check_output_dir(&args.output)?;
    } else {
        std::fs::create_dir_all(&args.output)
            .with_context(|| format!("creating {}", args.output.display()))?;
    }
    let planet = with_tier(planet, args.params.tier_cache().as_deref())?;
    let bar = progress(requests.len() as u64, "chunks");
    for batch in requests.chunks(BATCH) {
        for chunk in planet.sample_chunks(batch) {
            let chunk = chunk?;
            let path = if single {
                args.output.clone()
            } else {
                args.output.join(file_name(&chunk, args.format))
            };
            write_chunk(&chunk, args.format, planet.params(), &path)?;
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let a = &requests[0].address;
    errln!(
        "wrote {} chunk(s) of {projection} at lod {} ({} m per sample) to {}; first cx {} cy {}",
        requests.len(),
        a.lod,
        planet.space().metres_per_sample(a.lod),
        args.output.display(),
        a.cx,
        a.cy
    );
    Ok(())
}

fn file_name(chunk: &Chunk, format: ChunkFormat) -> String {
    let a = &chunk.address;
    format!(
        "{}_{}_{}_{}.{}",
        a.projection,
        a.lod,
        a.cx,
        a.cy,
        format.extension()
    )
}

/// Writes a chunk as the service answers it (`mangekyo_formats::chunk`),
/// with a heightmap's sidecar at `PATH.json`.
fn write_chunk(
    chunk: &Chunk,
    format: ChunkFormat,
    params: &PlanetParams,
    path: &Path,
) -> anyhow::Result<()> {
    let encoded = chunk::encode(chunk, format, params)?;
    // A heightmap and its sidecar appear together or not at all.
    let mut staged = crate::atomic::Staged::new();
    staged.add(path, &encoded.bytes)?;
    if let Some(sidecar) = encoded.sidecar(chunk)? {
        let mut p = path.as_os_str().to_owned();
        p.push(".json");
        staged.add(Path::new(&p), &sidecar)?;
    }
    staged.commit()
}

fn projections(cells: u64) -> anyhow::Result<()> {
    if !(4..=4096).contains(&cells) {
        bail!("--cells must be in 4..=4096, got {cells}");
    }
    outln!(
        "Cell areas on the unit sphere, {cells} cells along a cube face edge (the same along the equator for all):\n"
    )?;
    outln!(
        "{:<16} {:>13} {:>14} {:>14} {:>10} {:>9}",
        "projection",
        "grid",
        "largest (sr)",
        "smallest (sr)",
        "max/min",
        "max/mean"
    )?;
    for p in Projection::ALL {
        let d = distortion::measure(p, cells);
        let grid = if p.has_faces() {
            format!("6×{cells}²")
        } else {
            format!("{}×{}", d.columns, d.rows)
        };
        outln!(
            "{:<16} {:>13} {:>14.4e} {:>14.4e} {:>10.3} {:>9.3}",
            p.name(),
            grid,
            d.max_area,
            d.min_area,
            d.ratio(),
            d.max_over_mean()
        )?;
    }
    outln!(
        "\nequirectangular: the ratio grows without bound with the number of rows (polar cells are slivers).\n\
         For chunks use tangent_cube (most even cells, six square faces joined exactly along 12 edges).\n\
         For whole-planet fields use octahedral (one square, no gaps, continuous across its border by mirroring)."
    )?;
    Ok(())
}
