//! Seamless chunked 3D voxel caves: surface, worms and karst entrances, meshed.
#![deny(missing_docs)]

pub mod bound;
pub mod chunk;
pub mod error;
pub mod field;
pub mod mesh;
pub mod params;
pub mod sky;
pub mod view;

pub use chunk::{CHUNK, ChunkCoord, Density, PADDED, Sampler, Samples, VoxelBox, sample_chunks};
pub use error::CaveError;
pub use field::CaveField;
pub use mesh::{Mesh, MeshKind};
pub use mangekyo_core::Seed;
pub use params::{CaveMode, CaveParams};

/// The version of every density, mesh and picture this crate generates.
/// Bump it whenever the same parameters, seed and coordinates would give a
/// different result; the golden hashes in `tests/golden.rs` pin it.
pub const GENERATOR_VERSION: u32 = 1;
