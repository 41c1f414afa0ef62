//! One bake item into its output objects: the same bytes the HTTP service
//! answers for the same chunk or tile (both encode through
//! `mangekyo-formats`, so a CDN can serve a baked directory in the
//! service's place), at paths named after the item.

use anyhow::Context;
use mangekyo_formats::{ChunkFormat, chunk, content_hash};
use mangekyo_planet::tile::TileRequest;
use mangekyo_planet::{
    ChunkAddress, ChunkRequest, Edge, FaceTile, GeoTile, Layers, Planet, PlanetSpace, Projection,
};

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
    /// Pyramid tiles with these layers.
    Pyramid {
        /// Height, biome, water.
        layers: Layers,
    },
    /// Quantized-mesh terrain (with vertex normals).
    Terrain,
}

impl Recipe {
    /// Parses a plan's kind, naming the setting that is off.
    pub(super) fn new(
        kind: &Kind,
        generator_version: mangekyo_planet::Version,
    ) -> anyhow::Result<Recipe> {
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
            Kind::Pyramid { layers } => {
                let parsed = Layers::parse_for(layers, generator_version)
                    .with_context(|| format!("--layers {layers:?}"))?;
                mangekyo_formats::pyramid_bin::layer_mask(parsed)
                    .with_context(|| format!("--layers {layers:?}"))?;
                Recipe::Pyramid { layers: parsed }
            }
            Kind::Terrain => Recipe::Terrain,
        })
    }

    /// Items across and down each level's map.
    pub(super) fn grid(&self, space: &PlanetSpace, level: u32) -> (u64, u64) {
        match self {
            Recipe::Chunks { projection, .. } => space.chunk_grid(*projection, level),
            Recipe::Tiles { .. } => (1u64 << level.min(62), 1u64 << level.min(62)),
            // The six faces side by side as in the chunk atlas: +x +y −x
            // on top, −y +z −z below.
            Recipe::Pyramid { .. } => (3u64 << level.min(60), 2u64 << level.min(60)),
            Recipe::Terrain => (2u64 << level.min(60), 1u64 << level.min(60)),
        }
    }

    /// The plan's levels must exist on this planet.
    pub(super) fn check_levels(&self, plan: &Plan, space: &PlanetSpace) -> anyhow::Result<()> {
        let top = match self {
            Recipe::Chunks { .. } => space.max_lod(),
            Recipe::Tiles { .. } => mangekyo_planet::tile::MAX_TILE_ZOOM,
            Recipe::Pyramid { .. } => space.pyramid_max_level(),
            Recipe::Terrain => mangekyo_planet::geographic::geo_max_level(
                space.radius(),
                space.metres_per_sample(0),
            ),
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
            Recipe::Pyramid { .. } => {
                let (face, fx, fy) = atlas_tile(level, x, y);
                vec![format!("pyramid/{face}/{level}/{fx}/{fy}.mkpt")]
            }
            Recipe::Terrain => vec![format!("terrain/{level}/{x}/{y}.terrain")],
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
            Recipe::Pyramid { layers } => {
                let (face, x, y) = atlas_tile(item.level, item.x, item.y);
                let tile = FaceTile::new(
                    planet.space(),
                    face,
                    item.level,
                    u32::try_from(x)?,
                    u32::try_from(y)?,
                )?;
                let samples = planet.sample_face_tile(&tile, layers)?;
                Ok(vec![mangekyo_formats::pyramid_bin::encode(
                    &tile,
                    layers,
                    &samples,
                    planet.version(),
                    planet.space().pyramid_spacing(item.level),
                )?])
            }
            Recipe::Terrain => {
                let tile = GeoTile {
                    z: item.level,
                    x: u32::try_from(item.x)?,
                    y: u32::try_from(item.y)?,
                };
                // With normals: Cesium reads the extension whether or not
                // it asked, and a file cannot vary on `Accept`.
                Ok(vec![mangekyo_formats::terrain::encode(
                    planet, &tile, true,
                )?])
            }
        }
    }
}

/// The face index and the tile's column and row on its face of atlas
/// item `(x, y)` at `level` (faces `2^level` tiles wide).
fn atlas_tile(level: u32, x: u64, y: u64) -> (u32, u64, u64) {
    let per = 1u64 << level.min(60);
    ((x / per + 3 * (y / per)) as u32, x % per, y % per)
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
