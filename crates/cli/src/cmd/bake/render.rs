//! One bake item into its output objects: the same bytes the HTTP service
//! answers for the same chunk or tile (both encode through
//! `mangekyo-formats`, so a CDN can serve a baked directory in the
//! service's place), at paths named after the item.

use anyhow::Context;
use mangekyo_formats::{ChunkFormat, chunk, content_hash};
use mangekyo_planet::tile::TileRequest;
use mangekyo_planet::{ChunkAddress, ChunkRequest, Edge, Layers, Planet, PlanetSpace, Projection};

use super::plan::{Item, Kind, Output, Plan};

/// A plan's settings, parsed once.
#[derive(Debug, Clone, Copy)]
pub(super) enum Recipe {
    /// Chunks.
    Chunks {
        /// The map.
        projection: Projection,
        /// The format (heightmaps add a `.meta.json` sidecar).
        format: ChunkFormat,
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
    pub(super) fn new(kind: &Kind, generator_version: u32) -> anyhow::Result<Recipe> {
        Ok(match kind {
            Kind::Chunks {
                projection,
                format,
                edge,
                layers,
            } => {
                let format: ChunkFormat = format
                    .parse()
                    .with_context(|| format!("--format {format:?}"))?;
                let layers = format
                    .layers(Some(layers), generator_version)
                    .with_context(|| format!("--layers {layers:?}"))?;
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
    pub(super) fn grid(&self, space: &PlanetSpace, level: u32) -> (u64, u64) {
        match self {
            Recipe::Chunks { projection, .. } => space.chunk_grid(*projection, level),
            Recipe::Tiles { .. } => (1u64 << level.min(62), 1u64 << level.min(62)),
        }
    }

    /// The plan's levels must exist on this planet.
    pub(super) fn check_levels(&self, plan: &Plan, space: &PlanetSpace) -> anyhow::Result<()> {
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
    pub(super) fn paths(&self, item: &Item) -> Vec<String> {
        let Item { level, x, y } = *item;
        match self {
            Recipe::Chunks {
                projection, format, ..
            } => {
                let base = format!("chunks/{}/{level}/{x}/{y}", projection.name());
                let mut paths = vec![format!("{base}.{}", format.extension())];
                if format.is_heightmap() {
                    paths.push(format!("{base}.meta.json"));
                }
                paths
            }
            Recipe::Tiles { .. } => vec![format!("tiles/{level}/{x}/{y}.png")],
        }
    }

    /// Generates an item's objects, in [`Recipe::paths`] order.
    pub(super) fn render(&self, planet: &Planet, item: &Item) -> anyhow::Result<Vec<Vec<u8>>> {
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
                // As `GET …/chunks/…?format=` answers it; heightmaps add the
                // sidecar the service sends as headers.
                let encoded = chunk::encode(&chunk, format, planet.params())?;
                let sidecar = encoded.sidecar(&chunk)?;
                Ok(std::iter::once(encoded.bytes).chain(sidecar).collect())
            }
            Recipe::Tiles { size } => {
                let request = TileRequest {
                    z: item.level,
                    x: u32::try_from(item.x)?,
                    y: u32::try_from(item.y)?,
                    size,
                };
                Ok(vec![mangekyo_formats::picture::encode_tile(
                    planet, &request,
                )?])
            }
        }
    }
}

/// The manifest entry of `bytes` written at `path`: its content hash is
/// the HTTP service's ETag of the same bytes.
pub(super) fn output(path: &str, bytes: &[u8]) -> Output {
    Output {
        path: path.to_owned(),
        bytes: bytes.len() as u64,
        xxh3: content_hash(bytes),
    }
}
