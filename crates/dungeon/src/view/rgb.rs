//! An RGB picture of a grid: one `scale × scale` block per cell. Lit cells
//! (GLOW) are drawn brighter than unlit ones, as a player would see them.

use crate::grid::{Cell, Feature, Flags, Grid};

/// Largest pixels-per-cell: keeps a 1024² level under 64 MiB of pixels.
pub const MAX_SCALE: u32 = 8;

/// An 8-bit RGB image, row-major, 3 bytes per pixel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbImage {
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `width × height × 3` bytes.
    pub pixels: Vec<u8>,
}

/// The base colour of a feature, lit.
const fn base(feature: Feature) -> [u8; 3] {
    match feature {
        Feature::Floor => [200, 200, 190],
        Feature::DirtFloor => [170, 135, 95],
        Feature::MossFloor => [120, 165, 100],
        Feature::Granite => [70, 66, 62],
        Feature::OuterWall => [125, 110, 95],
        Feature::PermanentWall => [30, 30, 40],
        Feature::DeepLava => [200, 40, 10],
        Feature::ShallowLava => [245, 130, 40],
        Feature::DeepWater => [25, 50, 160],
        Feature::ShallowWater => [70, 130, 225],
        Feature::Rubble => [135, 115, 85],
        Feature::Grass => [70, 170, 60],
        Feature::Tree => [25, 95, 35],
    }
}

/// The colour of a cell: its feature's colour, at 70 % when a floor-like
/// cell is not lit (walls look the same either way).
pub const fn colour(cell: Cell) -> [u8; 3] {
    let [r, g, b] = base(cell.feature);
    if cell.feature.is_wall() || cell.flags.contains(Flags::GLOW) {
        return [r, g, b];
    }
    [dim(r), dim(g), dim(b)]
}

const fn dim(c: u8) -> u8 {
    (c as u16 * 7 / 10) as u8
}

/// The grid as pixels, `scale` pixels per cell side (clamped to
/// `1..=MAX_SCALE`).
pub fn to_rgb(grid: &Grid, scale: u32) -> RgbImage {
    let s = scale.clamp(1, MAX_SCALE) as usize;
    let (w, h) = (grid.width() * s, grid.height() * s);
    let mut pixels = Vec::with_capacity(w * h * 3);
    for y in 0..grid.height() {
        let row: Vec<u8> = grid
            .row(y)
            .iter()
            .flat_map(|&c| colour(c).repeat(s))
            .collect();
        for _ in 0..s {
            pixels.extend_from_slice(&row);
        }
    }
    RgbImage {
        width: w as u32,
        height: h as u32,
        pixels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Pos;

    #[test]
    fn scales_and_dims() {
        let mut g = Grid::new(2, 1);
        g.place(Pos::new(0, 0), Feature::Floor, Flags::FLOOR);
        let img = to_rgb(&g, 2);
        assert_eq!((img.width, img.height, img.pixels.len()), (4, 2, 24));
        assert_eq!(&img.pixels[0..3], &[140, 140, 133]);
        assert_eq!(&img.pixels[6..9], &base(Feature::Granite));
        assert_eq!(img.pixels[0..12], img.pixels[12..24]);
        g.cell_mut(Pos::new(0, 0)).flags.insert(Flags::GLOW);
        assert_eq!(colour(g.get(Pos::new(0, 0))), [200, 200, 190]);
    }
}
