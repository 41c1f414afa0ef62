//! One bake item into its output objects: the same bytes the HTTP service
//! answers for the same chunk or tile (so a CDN can serve a baked
//! directory in the service's place), at paths named after the item.

use anyhow::Context;
use mangekyo_export::{heightmap, png};
use mangekyo_planet::tile::TileRequest;
use mangekyo_planet::{ChunkAddress, ChunkRequest, Edge, Layers, Planet, PlanetSpace, Projection};
use xxhash_rust::xxh3::xxh3_128;

use super::plan::{Item, Kind, Output, Plan};

/// The chunk formats a bake writes.
pub const CHUNK_FORMATS: [&str; 4] = ["bin", "json", "png", "r16"];

/// A plan's settings, parsed once.
#[derive(Debug, Clone, Copy)]
pub enum Recipe {
    /// Chunks.
    Chunks {
        /// The map.
        projection: Projection,
        /// One of [`CHUNK_FORMATS`].
        format: &'static str,
        /// Edge mode.
        edge: Edge,
        /// Layers (heights only for png/r16).
        layers: Layers,
    },
    /// Terrarium tiles of `size` pixels.
    Tiles {
        /// Pixels per side.
        size: u32,
    },
}

impl Recipe {
    /// Parses a plan's kind, naming the setting that is off.
    pub fn new(kind: &Kind) -> anyhow::Result<Recipe> {
        Ok(match kind {
            Kind::Chunks {
                projection,
                format,
                edge,
                layers,
            } => {
                let format = CHUNK_FORMATS
                    .into_iter()
                    .find(|f| f == format)
                    .with_context(|| {
                        format!(
                            "--format {format:?}: expected one of {}",
                            CHUNK_FORMATS.join(", ")
                        )
                    })?;
                let layers = if matches!(format, "png" | "r16") {
                    anyhow::ensure!(
                        layers == "height" || layers == "all",
                        "--format {format} holds heights only; use --layers height"
                    );
                    Layers::HEIGHT
                } else {
                    Layers::parse(layers)?
                };
                Recipe::Chunks {
                    projection: projection.parse()?,
                    format,
                    edge: edge.parse()?,
                    layers,
                }
            }
            Kind::Tiles { size } => {
                anyhow::ensure!(
                    [256, 512].contains(size),
                    "--size must be 256 or 512, got {size}"
                );
                Recipe::Tiles { size: *size }
            }
        })
    }

    /// Items across and down each level's map.
    pub fn grid(&self, space: &PlanetSpace, level: u32) -> (u64, u64) {
        match self {
            Recipe::Chunks { projection, .. } => space.chunk_grid(*projection, level),
            Recipe::Tiles { .. } => (1u64 << level.min(62), 1u64 << level.min(62)),
        }
    }

    /// The plan's levels must exist on this planet.
    pub fn check_levels(&self, plan: &Plan, space: &PlanetSpace) -> anyhow::Result<()> {
        let top = match self {
            Recipe::Chunks { .. } => space.max_lod(),
            Recipe::Tiles { .. } => mangekyo_planet::tile::MAX_TILE_ZOOM,
        };
        anyhow::ensure!(
            plan.levels[1] <= top,
            "levels {}..={}: this planet's deepest level is {top}",
            plan.levels[0],
            plan.levels[1]
        );
        Ok(())
    }

    /// The paths an item writes (known without generating it).
    pub fn paths(&self, item: &Item) -> Vec<String> {
        let Item { level, x, y } = *item;
        match self {
            Recipe::Chunks {
                projection, format, ..
            } => {
                let base = format!("chunks/{}/{level}/{x}/{y}", projection.name());
                let mut paths = vec![format!("{base}.{format}")];
                if matches!(*format, "png" | "r16") {
                    paths.push(format!("{base}.meta.json"));
                }
                paths
            }
            Recipe::Tiles { .. } => vec![format!("tiles/{level}/{x}/{y}.png")],
        }
    }

    /// Generates an item's objects, in [`Recipe::paths`] order.
    pub fn render(&self, planet: &Planet, item: &Item) -> anyhow::Result<Vec<Vec<u8>>> {
        match *self {
            Recipe::Chunks {
                projection,
                format,
                edge,
                layers,
            } => {
                let address = ChunkAddress {
                    projection,
                    lod: item.level,
                    cx: u32::try_from(item.x)?,
                    cy: u32::try_from(item.y)?,
                };
                let chunk = planet.sample_chunk(&ChunkRequest {
                    address,
                    edge,
                    layers,
                })?;
                chunk_bytes(planet, &chunk, format)
            }
            Recipe::Tiles { size } => {
                let request = TileRequest {
                    z: item.level,
                    x: u32::try_from(item.x)?,
                    y: u32::try_from(item.y)?,
                    size,
                };
                let samples = planet.sample_tile(&request, Layers::HEIGHT)?;
                let rgb = heightmap::terrarium_rgb(&samples.height);
                Ok(vec![png::encode_rgb8(size, size, &rgb)?])
            }
        }
    }
}

/// A chunk in `format`, as `GET …/chunks/…?format=` answers it (png and
/// r16 add the sidecar the service sends as headers).
fn chunk_bytes(
    planet: &Planet,
    chunk: &mangekyo_planet::Chunk,
    format: &str,
) -> anyhow::Result<Vec<Vec<u8>>> {
    let n = chunk.size;
    Ok(match format {
        "bin" => vec![mangekyo_server::planet_bin::encode(
            chunk,
            planet.params().generator_version,
            planet.params().content_hash(),
        )],
        "json" => vec![serde_json::to_vec(&chunk.json())?],
        _ => {
            let q = heightmap::quantize_u16(&chunk.height);
            let (bytes, name) = if format == "png" {
                (png::encode_gray16(n, n, &q.samples)?, "png16")
            } else {
                (heightmap::encode_r16_le(n, n, &q.samples)?, "r16")
            };
            let info = chunk.heightmap_info(name, q.min, q.max);
            vec![bytes, serde_json::to_vec_pretty(&info)?]
        }
    })
}

/// The manifest entry of `bytes` written at `path`.
pub fn output(path: &str, bytes: &[u8]) -> Output {
    Output {
        path: path.to_owned(),
        bytes: bytes.len() as u64,
        xxh3: content_hash(bytes),
    }
}

/// xxh3-128 in hex: the HTTP service's ETag of the same bytes.
pub fn content_hash(bytes: &[u8]) -> String {
    format!("{:032x}", xxh3_128(bytes))
}
