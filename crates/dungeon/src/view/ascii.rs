//! ASCII text: one character per cell, one line per row.
//!
//! The glyphs follow Hengband where Hengband has one (`.` floor, `#` wall,
//! `:` rubble, `~` water). Hengband tells some features apart only by
//! colour; plain text cannot, so those get glyphs of their own.

use crate::grid::{Feature, Grid};

/// The character for a feature.
///
/// | feature | glyph | note |
/// |---|---|---|
/// | floor, dirt floor, moss floor | `.` | Hengband: colour only |
/// | granite, outer wall, permanent wall | `#` | Hengband: all `#` |
/// | rubble | `:` | as Hengband |
/// | deep water | `~` | as Hengband |
/// | shallow water | `-` | ours (Hengband: light-blue `~`) |
/// | deep lava | `=` | ours (Hengband: red `~`) |
/// | shallow lava | `_` | ours (Hengband: orange `~`) |
/// | grass | `"` | ours (Hengband: green `.`) |
/// | tree | `%` | ours |
pub const fn glyph(feature: Feature) -> char {
    match feature {
        Feature::Floor | Feature::DirtFloor | Feature::MossFloor => '.',
        Feature::Granite | Feature::OuterWall | Feature::PermanentWall => '#',
        Feature::Rubble => ':',
        Feature::DeepWater => '~',
        Feature::ShallowWater => '-',
        Feature::DeepLava => '=',
        Feature::ShallowLava => '_',
        Feature::Grass => '"',
        Feature::Tree => '%',
    }
}

/// The grid as text: `height` lines of `width` glyphs, each ending in `\n`.
pub fn to_ascii(grid: &Grid) -> String {
    let mut out = String::with_capacity((grid.width() + 1) * grid.height());
    for y in 0..grid.height() {
        out.extend(grid.row(y).iter().map(|c| glyph(c.feature)));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Flags, Pos};

    #[test]
    fn rows_and_glyphs() {
        let mut g = Grid::new(3, 2);
        g.place(Pos::new(1, 0), Feature::DirtFloor, Flags::FLOOR);
        g.place(Pos::new(2, 1), Feature::DeepWater, Flags::NONE);
        assert_eq!(to_ascii(&g), "#.#\n##~\n");
    }

    #[test]
    fn glyphs_are_ascii() {
        assert!(Feature::ALL.iter().all(|&f| glyph(f).is_ascii_graphic()));
    }
}
