//! Format encoders over plain data.
//!
//! Every function here takes plain buffers (pixels, heights, vertex arrays)
//! and returns bytes; none of them knows a generator. Generators produce
//! their data and any generator-specific view (colours, glyphs); the edges
//! (CLI, server) pick an encoder from here and write the bytes somewhere.
//!
//! - [`png`]: 8-bit grey/RGB/RGBA and 16-bit grey PNG, and a decoder for tests.
//! - [`heightmap`]: 16-bit quantisation, R16 and raw f32 (little-endian), Terrarium RGB.
//! - [`quantized_mesh`]: CesiumJS `quantized-mesh-1.0` terrain tiles from a height grid.
//!
//! ```
//! let pixels = vec![0u8, 128, 255, 64];
//! let bytes = mangekyo_export::png::encode_gray8(2, 2, &pixels).unwrap();
//! let back = mangekyo_export::png::decode(&bytes).unwrap();
//! assert_eq!(back.samples8(), Some(&pixels[..]));
//! ```
#![deny(missing_docs)]

pub mod gltf;
pub mod heightmap;
pub mod obj;
pub mod png;
pub mod quantized_mesh;

/// What went wrong while encoding.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The buffer does not hold width × height × channels samples.
    #[error("buffer has {got} samples, expected {expected} ({width}×{height}×{channels})")]
    BufferSize {
        /// Samples given.
        got: usize,
        /// Samples needed.
        expected: usize,
        /// Image width.
        width: u32,
        /// Image height.
        height: u32,
        /// Channels per pixel.
        channels: u32,
    },
    /// The PNG library refused the data.
    #[error("png encoding failed: {0}")]
    Png(String),
}
