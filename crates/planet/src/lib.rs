//! A planet as one continuous seeded function of the sphere, sampled into
//! seamless chunks.
//!
//! A planet is its parameters ([`PlanetParams`]: seed, radius, pixel size,
//! sea level, plate activity, humidity, axial tilt, sunlight). From them
//! [`Planet::new`] builds one function of the direction on the sphere —
//! height, temperature, humidity and biome — evaluated in 3D, so it has no
//! seams anywhere. A chunk is a sampling of that function through a map
//! projection ([`Projection`]: equirectangular, cube, tangent-adjusted
//! cube, octahedral) at a level of detail; neighbouring chunks compute
//! their shared edge samples from the same integer indices and therefore
//! agree bit for bit, and where two map points are one sphere point (cube
//! edges, the octahedral fold, the date line, the poles) both give the
//! same bits too.
//!
//! # Brief overview
//! - [`PlanetParams`]: what is stored about a planet (JSON via serde).
//! - [`Planet`]: the built function; [`Planet::sample_chunk`],
//!   [`Planet::sample_chunks`] (parallel), [`Planet::sample_dirs`],
//!   [`Planet::sample_tile`] (Web Mercator) and [`Planet::preview`].
//! - [`PlanetSpace`] and [`ChunkAddress`]: how many samples go around the
//!   planet, how each projection's map is cut into 256 × 256 chunks at
//!   every level of detail, and which chunk holds a latitude/longitude.
//! - [`Chunk`]: the sampled layers, with its JSON shape ([`Chunk::json`]).
//!
//! # Which projection for what
//! Measured cell areas (largest/smallest, `mangekyo planet projections`):
//! tangent cube about 1.41, plain cube and octahedral about 5.2,
//! equirectangular unbounded (a pole is a whole row). Chunks should use
//! the **tangent cube**: the most even cells, square faces, six sheets
//! whose twelve edges join exactly. Whole-planet fields (climate, plates,
//! a planet-wide texture) suit the **octahedral** map: one square with no
//! gaps, continuous across its border by mirroring, so a single 2D array
//! with simple neighbour rules covers the sphere. Equirectangular is for
//! previews and GIS interchange.
//!
//! # For servers and tools
//! Build a [`Planet`] once per stored parameter set (it is `Send + Sync`;
//! cache it) and keep [`PlanetParams::content_hash`] and its [`Version`]
//! in URLs and ETags. Then:
//! - chunks: [`Planet::sample_chunk`] (or [`Planet::sample_chunks`] for a
//!   batch) with a [`ChunkRequest`] parsed from the URL
//!   ([`Projection`]'s `FromStr`, [`Edge`]'s `FromStr`, [`Layers::parse`]);
//!   out-of-range addresses come back as [`PlanetError`]s naming the field,
//!   ready for a 400. Serialise [`Chunk::json`] for JSON; for heightmaps
//!   quantise with `mangekyo_export::heightmap` and describe them with
//!   [`Chunk::heightmap_info`]; [`view::chunk_preview`] for a picture.
//! - web maps: [`Planet::sample_tile`] with a [`TileRequest`] gives the
//!   heights of a Web Mercator tile; `mangekyo_export::heightmap::terrarium_rgb`
//!   turns them into a Terrarium PNG.
//! - previews: [`Planet::preview`] (equirectangular RGB of any layer).
//!
//! # Determinism
//! Every sample is a pure function of (parameters, projection, level,
//! integer sample index). Rayon parallelises over chunks (and preview
//! bands) only and collects by index; nothing is reduced in parallel.
//! A change to any output is a new [`Version`] (built as
//! [`Version::Next`], released with a number), never drift.
//!
//! ```
//! use mangekyo_planet::{ChunkAddress, ChunkRequest, Edge, Layers, Planet, PlanetParams, Projection};
//! let planet = Planet::new(PlanetParams { radius: 200_000.0, pixel_size: 50.0, ..PlanetParams::default() })?;
//! let at = |cx| ChunkRequest {
//!     address: ChunkAddress { projection: Projection::TangentCube, lod: 0, cx, cy: 3 },
//!     edge: Edge::Shared,
//!     layers: Layers::HEIGHT,
//! };
//! let (left, right) = (planet.sample_chunk(&at(4))?, planet.sample_chunk(&at(5))?);
//! for j in 0..257 {
//!     assert_eq!(left.height[j * 257 + 256].to_bits(), right.height[j * 257].to_bits());
//! }
//! # Ok::<(), mangekyo_planet::PlanetError>(())
//! ```
#![deny(missing_docs)]

pub mod atmosphere;
pub mod biome;
pub mod chunk;
mod climate;
pub mod distortion;
pub mod ecology;
mod error;
pub mod geo;
pub mod geographic;
pub mod geology;
pub mod graph;
pub mod hydro;
pub mod layers;
pub mod lonlat_rings;
mod params;
pub mod params_json;
mod planet;
pub mod projection;
pub mod pyramid;
pub mod space;
mod stages;
mod terrain;
pub mod tier;
pub mod tile;
pub mod version;
pub mod view;

pub use biome::{Biome, BiomeWeights};
pub use chunk::{Chunk, ChunkRequest, Edge, Layers};
pub use error::PlanetError;
pub use geo::{Dir, LatLon};
pub use geographic::{GeoRect, GeoTile};
pub use geology::{BoundaryKind, GeologySamples, Plates};
pub use params::{DEFAULT_GRAPH_N, DEFAULT_SEED, GRAPH_N_RANGE, PLATE_COUNT_RANGE, PlanetParams};
pub use params_json::ParamsJsonError;
pub use planet::Planet;
pub use projection::{CubeFace, MapPoint, Projection};
pub use pyramid::FaceTile;
pub use space::{CHUNK_SIZE, ChunkAddress, PlanetSpace};
pub use stages::Samples;
pub use tile::TileRequest;
pub use version::Version;
