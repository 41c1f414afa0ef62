//! Readable forms of an [`crate::IslandMap`]: JSON (the spec's shape), an
//! SVG map and a text summary. Pure string builders; writing them anywhere
//! is the caller's business.

pub mod json;
pub mod svg;
pub mod text;

/// A number as designers wrote it: whole values without a fraction.
pub(crate) fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}
