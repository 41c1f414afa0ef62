//! `mangekyo caves`: voxel caves as meshes (glb, OBJ, the viewer's binary),
//! density blocks and PNG slices.

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mangekyo_caves::mesh::{MeshKind, mesh, mesh_chunks};
use mangekyo_caves::{
    CaveField, CaveFormat, CaveMode, CaveParams, ChunkCoord, Mesh, Sampler, Seed, Version, view,
    wire,
};
use mangekyo_formats::cave_models::{self, ModelFormat};
use std::path::{Path, PathBuf};

/// Most chunks one `export` may mesh (16 × 4 × 16 chunks at most is a
/// 512 × 128 × 512-voxel region, a few hundred MB of glb at worst).
const MAX_CHUNKS: usize = 4096;

/// Flags of `mangekyo caves`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// One chunk: a mesh (.glb, .obj, .mkcm) or its density (.mkcd).
    Chunk(ChunkArgs),
    /// A region of chunks as one .glb (one node per chunk) or .obj.
    Export(ExportArgs),
    /// A PNG cut: horizontal at --y, vertical at --z, or a top view of the entrances.
    Slice(SliceArgs),
}

/// The world: seed, mode and parameters.
#[derive(Debug, clap::Args)]
struct World {
    /// Seed: a number, or any text.
    #[arg(long, default_value = "0")]
    seed: String,
    /// Tubes (default) or the seed's sheets.
    #[arg(long, value_enum)]
    mode: Option<ModeArg>,
    /// A JSON file of cave parameters (omitted fields take their defaults).
    #[arg(long)]
    params: Option<PathBuf>,
    /// The caves generator version (the service's `v`); default the newest.
    #[arg(long, value_parser = parse_version, value_name = "N")]
    generator_version: Option<Version>,
}

/// `--generator-version`: a number the caves crate generates.
fn parse_version(s: &str) -> Result<Version, String> {
    let n: u64 = s.trim().parse().map_err(|_| {
        format!(
            "expected a version number, got {s:?}: {}",
            Version::expected()
        )
    })?;
    Version::from_code(n).map_err(|e| e.to_string())
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum ModeArg {
    Tubes,
    Sheets,
}

/// `--mesher`: the names `mangekyo_caves::names` gives every surface
/// (listed in `--help` from the same list).
fn mesher_parser() -> impl clap::builder::TypedValueParser<Value = MeshKind> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(MeshKind::ALL.map(MeshKind::name))
        .try_map(|s| s.parse::<MeshKind>())
}

#[derive(Debug, clap::Args)]
struct ChunkArgs {
    #[command(flatten)]
    world: World,
    /// The chunk, "cx,cy,cz" (chunk c holds voxels 32c .. 32c+32), each within ±2^20.
    #[arg(long, value_parser = parse_coord, allow_hyphen_values = true, value_name = "CX,CY,CZ", default_value = "0,0,0")]
    chunk: ChunkCoord,
    /// Smooth (surface nets) or blocky faces.
    #[arg(long, value_parser = mesher_parser(), default_value_t = MeshKind::default(), visible_alias = "mesh")]
    mesher: MeshKind,
    /// Output: .glb, .obj, .mkcm (viewer mesh) or .mkcd (density).
    #[arg(short, long, default_value = "chunk.glb")]
    output: PathBuf,
}

#[derive(Debug, clap::Args)]
struct ExportArgs {
    #[command(flatten)]
    world: World,
    /// First chunk of the region, "cx,cy,cz".
    #[arg(long, value_parser = parse_coord, allow_hyphen_values = true, value_name = "CX,CY,CZ", default_value = "-2,0,-2")]
    from: ChunkCoord,
    /// Last chunk of the region (inclusive), "cx,cy,cz".
    #[arg(long, value_parser = parse_coord, allow_hyphen_values = true, value_name = "CX,CY,CZ", default_value = "1,1,1")]
    to: ChunkCoord,
    /// Smooth (surface nets) or blocky faces.
    #[arg(long, value_parser = mesher_parser(), default_value_t = MeshKind::default(), visible_alias = "mesh")]
    mesher: MeshKind,
    /// Output: .glb or .obj.
    #[arg(short, long, default_value = "caves.glb")]
    output: PathBuf,
}

#[derive(Debug, clap::Args)]
struct SliceArgs {
    #[command(flatten)]
    world: World,
    /// Horizontal cut at this height (voxels).
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["z", "entrances"])]
    y: Option<i64>,
    /// Vertical cut at this z, x to the right and y up from --origin's second value.
    #[arg(long, allow_negative_numbers = true, conflicts_with = "entrances")]
    z: Option<i64>,
    /// Top view of the entrance mask and the openings to the sky.
    #[arg(long)]
    entrances: bool,
    /// World position of the picture's first pixel: x and z (vertical cut: x and y).
    #[arg(long, num_args = 2, value_names = ["A", "B"], allow_negative_numbers = true, default_values_t = [0, 0])]
    origin: Vec<i64>,
    /// Picture width and height in voxels (= pixels).
    #[arg(long, num_args = 2, value_names = ["W", "H"], default_values_t = [512, 512])]
    size: Vec<usize>,
    /// Where to write the PNG.
    #[arg(short, long, default_value = "caves.png")]
    output: PathBuf,
}

/// A chunk's coordinates as every caves command writes them: `cx,cy,cz`
/// in one argument (`--chunk 2,0,3`, `--from -2,0,-2`), checked against
/// the service's bound. One syntax everywhere: the old space-separated
/// `--chunk 2 0 3` is refused (clap: "unexpected argument").
fn parse_coord(s: &str) -> Result<ChunkCoord, String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let nums: Result<Vec<i32>, _> = parts.iter().map(|p| p.parse::<i32>()).collect();
    match nums {
        Ok(v) if v.len() == 3 => ChunkCoord::checked(v[0], v[1], v[2]).map_err(|e| e.to_string()),
        _ => Err(format!(
            "expected three integers \"cx,cy,cz\" in one argument (for example 2,0,-3), got {s:?}"
        )),
    }
}

/// A chunk's coordinates for messages: `x,y,z`, the form the flags take.
fn coord_text(c: ChunkCoord) -> String {
    format!("{},{},{}", c.x, c.y, c.z)
}

/// Runs the subcommand.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Sub::Chunk(a) => chunk(a),
        Sub::Export(a) => export(a),
        Sub::Slice(a) => slice(a),
    }
}

impl World {
    fn field(&self) -> anyhow::Result<CaveField> {
        let mut params = match &self.params {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                serde_json::from_str::<CaveParams>(&text)
                    .with_context(|| format!("{}: not valid cave parameters", path.display()))?
            }
            None => CaveParams::default(),
        };
        if let Some(m) = self.mode {
            params.mode = match m {
                ModeArg::Tubes => CaveMode::Tubes,
                ModeArg::Sheets => CaveMode::Sheets,
            };
        }
        let version = self.generator_version.unwrap_or(Version::DEFAULT);
        Ok(CaveField::with_version(
            &params,
            Seed::parse(&self.seed),
            version,
        )?)
    }
}

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    crate::atomic::write(path, bytes)
}

fn chunk(a: ChunkArgs) -> anyhow::Result<()> {
    let field = a.world.field()?;
    // `parse_coord` checked the service's bound: past it f32 chunk-local
    // positions lose voxels.
    let coord = a.chunk;
    let samples = Sampler::new().chunk(&field, coord);
    let k = a.mesher;
    let ext = extension(&a.output);
    // The service's formats by their extensions (`CaveFormat`), and OBJ.
    let format = CaveFormat::from_extension(&ext);
    if format.is_none() && ext != "obj" {
        let known: Vec<&str> = CaveFormat::ALL.map(CaveFormat::extension).to_vec();
        bail!(
            "--output must end in .{} or .obj, got {ext:?}",
            known.join(", .")
        );
    }
    if format == Some(CaveFormat::Density) {
        write(&a.output, &wire::encode_chunk_density(&field, &samples))?;
        errln!(
            "wrote {} (density of chunk {})",
            a.output.display(),
            coord_text(coord)
        );
        return Ok(());
    }
    let m = mesh(&field, &samples, k);
    match format {
        Some(CaveFormat::Mesh) => write(&a.output, &wire::encode_mesh(&m, k, field.version()))?,
        _ => write_meshes(&a.output, &[(coord, m.clone())], field.version())?,
    }
    errln!(
        "wrote {} (chunk {}: {} vertices, {} triangles)",
        a.output.display(),
        coord_text(coord),
        m.vertex_count(),
        m.triangle_count()
    );
    Ok(())
}

fn region(from: ChunkCoord, to: ChunkCoord) -> anyhow::Result<Vec<ChunkCoord>> {
    let span = |a: i32, b: i32, axis: &str| -> anyhow::Result<usize> {
        if b < a {
            bail!("--to must not be below --from on {axis}: {a} > {b}");
        }
        Ok((b as i64 - a as i64 + 1) as usize)
    };
    let n = span(from.x, to.x, "x")? * span(from.y, to.y, "y")? * span(from.z, to.z, "z")?;
    if n > MAX_CHUNKS {
        bail!("the region holds {n} chunks, at most {MAX_CHUNKS}");
    }
    let mut out = Vec::with_capacity(n);
    for y in from.y..=to.y {
        for z in from.z..=to.z {
            for x in from.x..=to.x {
                out.push(ChunkCoord::new(x, y, z));
            }
        }
    }
    Ok(out)
}

fn export(a: ExportArgs) -> anyhow::Result<()> {
    let field = a.world.field()?;
    let ext = extension(&a.output);
    if ext != "glb" && ext != "obj" {
        bail!("--output must end in .glb or .obj, got {ext:?}");
    }
    let coords = region(a.from, a.to)?;
    let bar = ProgressBar::new(coords.len() as u64);
    bar.set_draw_target(ProgressDrawTarget::stderr());
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    bar.set_style(ProgressStyle::with_template(
        "{bar:40} {pos}/{len} chunks {elapsed} (eta {eta})",
    )?);
    let mut meshes = Vec::with_capacity(coords.len());
    // Batches of 32 chunks in parallel; the bar advances per batch.
    for batch in coords.chunks(32) {
        let ms = mesh_chunks(&field, batch, a.mesher);
        meshes.extend(batch.iter().copied().zip(ms).filter(|(_, m)| !m.is_empty()));
        bar.inc(batch.len() as u64);
    }
    bar.finish_and_clear();
    let tris: usize = meshes.iter().map(|(_, m)| m.triangle_count()).sum();
    write_meshes(&a.output, &meshes, field.version())?;
    errln!(
        "wrote {} ({} chunks, {} with surfaces, {tris} triangles)",
        a.output.display(),
        coords.len(),
        meshes.len()
    );
    Ok(())
}

/// Writes chunk meshes as .glb (one node per chunk) or .obj.
fn write_meshes(
    path: &Path,
    meshes: &[(ChunkCoord, Mesh)],
    version: Version,
) -> anyhow::Result<()> {
    let format = match extension(path).as_str() {
        "obj" => ModelFormat::Obj,
        _ => ModelFormat::Glb,
    };
    write(path, &cave_models::encode(meshes, format, version)?)
}

fn slice(a: SliceArgs) -> anyhow::Result<()> {
    let field = a.world.field()?;
    let [w, h] = [a.size[0], a.size[1]];
    let [o1, o2] = [a.origin[0], a.origin[1]];
    let img = match (a.y, a.z, a.entrances) {
        (Some(y), _, _) => view::horizontal_slice(&field, y, o1, o2, w, h)?,
        (None, Some(z), _) => view::vertical_slice(&field, z, o1, o2, w, h)?,
        (None, None, true) => view::entrance_map(&field, o1, o2, w, h)?,
        (None, None, false) => bail!("say which cut: --y HEIGHT, --z DEPTH or --entrances"),
    };
    let png = mangekyo_export::png::encode_rgb8(img.width as u32, img.height as u32, &img.pixels)?;
    write(&a.output, &png)?;
    errln!(
        "wrote {} ({}×{} px)",
        a.output.display(),
        img.width,
        img.height
    );
    Ok(())
}
