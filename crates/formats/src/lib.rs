//! Every byte form Mangekyo hands out, written once for both edges.
//!
//! The CLI writes files and the server answers HTTP, but a chunk, a cave
//! model or a Roblox buffer must be the same bytes on either (a baked
//! directory stands in for the service behind a CDN, and the manifest's
//! hashes are the service's ETags). So the encoders live here, between the
//! generators and the format encoders of `mangekyo-export`, and neither
//! edge keeps its own copy.
//!
//! - [`chunk`]: [`ChunkFormat`], the one list of planet chunk formats
//!   (with the aliases old URLs and flags use) and [`chunk::encode`].
//! - [`picture`]: whole-planet previews and Terrarium tiles as PNG.
//! - [`planet_bin`]: the `MKPC` binary chunk layout.
//! - [`pyramid_bin`]: the `MKPT` binary pyramid tile the globe streams.
//! - [`terrain`]: CesiumJS quantized-mesh terrain tiles and `layer.json`.
//! - [`cave_models`]: cave chunk meshes as glb and OBJ, and one cave chunk
//!   in any of its formats.
//! - [`dungeon`]: a Hengband dungeon as the one JSON document.
//! - `roblox` (feature `roblox`, which brings zstd, a C library): chunk
//!   layers as Roblox `buffer` JSON.
//! - [`content_hash`]: the hash behind ETags and bake manifests.
//!
//! Nothing here touches files, sockets or clocks: every function maps
//! data to bytes.
//!
//! ```
//! use mangekyo_formats::{ChunkFormat, content_hash};
//! assert_eq!("png".parse::<ChunkFormat>().unwrap(), ChunkFormat::Png16);
//! assert_eq!(content_hash(b"abc").len(), 32);
//! ```
#![deny(missing_docs)]

pub mod cave_models;
pub mod chunk;
pub mod dungeon;
pub mod picture;
pub mod planet_bin;
pub mod pyramid_bin;
#[cfg(feature = "roblox")]
pub mod roblox;
pub mod terrain;

pub use chunk::{ChunkFormat, EncodedChunk};

use xxhash_rust::xxh3::xxh3_128;

/// The content hash of `bytes`: xxh3-128 in 32 lowercase hex digits. The
/// server's strong ETag is this in quotes; a bake manifest records it per
/// file, so the two agree for the same bytes.
pub fn content_hash(bytes: &[u8]) -> String {
    format!("{:032x}", xxh3_128(bytes))
}

/// Why bytes could not be produced.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FormatError {
    /// A request parameter (format, layers, a Roblox field) is refused.
    #[error(transparent)]
    Param(#[from] mangekyo_core::ParamError),
    /// The planet crate refused the chunk (a preview without its layers).
    #[error(transparent)]
    Planet(#[from] mangekyo_planet::PlanetError),
    /// An image or heightmap encoder failed.
    #[error(transparent)]
    Export(#[from] mangekyo_export::ExportError),
    /// A model encoder failed.
    #[error(transparent)]
    Mesh(#[from] mangekyo_export::gltf::MeshError),
    /// zstd failed to compress a Roblox buffer.
    #[error("zstd compression: {0}")]
    Compress(std::io::Error),
    /// JSON serialisation failed.
    #[error("JSON encoding: {0}")]
    Json(#[from] serde_json::Error),
}

impl mangekyo_core::Refusal for FormatError {
    fn param(&self) -> Option<mangekyo_core::ParamError> {
        match self {
            FormatError::Param(p) => Some(p.clone()),
            FormatError::Planet(e) => e.param(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_content_hash_is_xxh3_128_in_hex() {
        // The ETag of every served body and every baked file's manifest
        // entry: moving it moves every cached validator.
        assert_eq!(content_hash(b""), "99aa06d3014798d86001c324468d497f");
        assert_ne!(content_hash(b"abc"), content_hash(b"abd"));
    }
}
