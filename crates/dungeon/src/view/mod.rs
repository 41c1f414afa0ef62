//! Pure, in-memory views of a grid: ASCII text with Hengband-like glyphs,
//! an RGB pixel buffer (for the edges to encode as PNG), and the JSON shape
//! (`width`, `height`, `features`, `flags`) via serde.

pub mod ascii;
pub mod json;
pub mod rgb;

pub use ascii::{glyph, to_ascii};
pub use json::GridJson;
pub use rgb::{RgbImage, colour, to_rgb};
