//! Pictures of the field as RGB pixel buffers (the edges encode them as
//! PNG): a horizontal cut at a height, a vertical cut, and a top view of
//! the entrances.

use crate::chunk::{Sampler, VoxelBox, sample_columns};
use crate::error::CaveError;
use crate::field::CaveField;
use crate::sky::open_heights;

/// Largest picture side, in pixels (one voxel per pixel).
pub const MAX_SIDE: usize = 4096;

/// An RGB image, 3 bytes per pixel, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgb {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// `width · height · 3` bytes.
    pub pixels: Vec<u8>,
}

const SKY: [u8; 3] = [176, 210, 245];
const CAVE: [u8; 3] = [24, 26, 44];
const BEDROCK: [u8; 3] = [58, 48, 44];

fn check(w: usize, h: usize) -> Result<(), CaveError> {
    for v in [w, h] {
        if v == 0 {
            return Err(CaveError::Empty {
                what: "picture side",
            });
        }
        if v > MAX_SIDE {
            return Err(CaveError::TooLarge {
                what: "picture side",
                got: v as u64,
                max: MAX_SIDE as u64,
            });
        }
    }
    Ok(())
}

/// Rock shaded by depth below the surface: lighter near it.
fn rock(depth: f32) -> [u8; 3] {
    let t = (depth / 40.0).clamp(0.0, 1.0);
    let mix = |a: f32, b: f32| (a + (b - a) * t) as u8;
    [mix(168.0, 92.0), mix(146.0, 84.0), mix(120.0, 80.0)]
}

/// The colour of a voxel: open air, cave air, rock by depth, or bedrock.
fn voxel_colour(field: &CaveField, d: f32, y: i64, surface: f32) -> [u8; 3] {
    if d <= 0.0 {
        if y as f32 >= surface { SKY } else { CAVE }
    } else if y <= field.params().floor_level as i64 {
        BEDROCK
    } else {
        rock(surface - y as f32)
    }
}

/// A horizontal cut at height `y`: x to the right, z downwards, one pixel
/// per voxel from `(x0, z0)`.
pub fn horizontal_slice(
    field: &CaveField,
    y: i64,
    x0: i64,
    z0: i64,
    width: usize,
    height: usize,
) -> Result<Rgb, CaveError> {
    check(width, height)?;
    let b = VoxelBox {
        min: [x0, y, z0],
        size: [width, 1, height],
    };
    let s = Sampler::new().sample(field, b);
    let cols = sample_columns(field, &b);
    let mut pixels = Vec::with_capacity(width * height * 3);
    for k in 0..height {
        for i in 0..width {
            pixels.extend(voxel_colour(
                field,
                s.get(i, 0, k),
                y,
                cols[k * width + i].h,
            ));
        }
    }
    Ok(Rgb {
        width,
        height,
        pixels,
    })
}

/// A vertical cut at `z`: x to the right, y upwards, from `(x0, y0)` at
/// the bottom-left corner.
pub fn vertical_slice(
    field: &CaveField,
    z: i64,
    x0: i64,
    y0: i64,
    width: usize,
    height: usize,
) -> Result<Rgb, CaveError> {
    check(width, height)?;
    let b = VoxelBox {
        min: [x0, y0, z],
        size: [width, height, 1],
    };
    let s = Sampler::new().sample(field, b);
    let cols = sample_columns(field, &b);
    let mut pixels = Vec::with_capacity(width * height * 3);
    for row in 0..height {
        let j = height - 1 - row;
        for (i, c) in cols.iter().enumerate() {
            pixels.extend(voxel_colour(field, s.get(i, j, 0), y0 + j as i64, c.h));
        }
    }
    Ok(Rgb {
        width,
        height,
        pixels,
    })
}

/// A top view of the entrances: the terrain shaded by height, the entrance
/// mask (where caves may reach the sky) tinted amber, and the openings —
/// columns whose sky reaches more than a voxel below the surface — in red,
/// darker the deeper the shaft.
pub fn entrance_map(
    field: &CaveField,
    x0: i64,
    z0: i64,
    width: usize,
    height: usize,
) -> Result<Rgb, CaveError> {
    check(width, height)?;
    let b = VoxelBox {
        min: [x0, 0, z0],
        size: [width, 1, height],
    };
    let cols = sample_columns(field, &b);
    let open = open_heights(field, [x0, z0], [width, height], &cols);
    let p = field.params();
    let mut pixels = Vec::with_capacity(width * height * 3);
    for (n, (c, o)) in cols.iter().zip(&open).enumerate() {
        let (x, z) = (x0 + (n % width) as i64, z0 + (n / width) as i64);
        let t = ((c.h - p.base_height) / (2.0 * p.amplitude.max(1.0)) + 0.5).clamp(0.0, 1.0);
        let g = 70.0 + 150.0 * t;
        let mut px = [g * 0.8, g, g * 0.7];
        if field.entrance_open(x as f64, z as f64) {
            px = [px[0] * 0.5 + 120.0, px[1] * 0.5 + 90.0, px[2] * 0.5];
        }
        let depth = c.h - o;
        if depth > 1.0 {
            let k = (1.0 - depth / 40.0).clamp(0.3, 1.0);
            px = [230.0 * k, 40.0 * k, 30.0 * k];
        }
        pixels.extend(px.map(|v| v as u8));
    }
    Ok(Rgb {
        width,
        height,
        pixels,
    })
}

/// Vertex colours for a cave mesh in a generic viewer (the glb's
/// `COLOR_0`): grass on sunlit up-facing ground, rock elsewhere, darkened
/// by the vertex's sky visibility so closed caves read as dark.
pub fn vertex_colours(mesh: &crate::Mesh) -> Vec<[f32; 3]> {
    const GRASS: [f32; 3] = [0.33, 0.52, 0.24];
    const ROCK: [f32; 3] = [0.55, 0.50, 0.45];
    mesh.normals
        .iter()
        .zip(&mesh.sky)
        .map(|(n, &sky)| {
            let grassy = (n[1].max(0.0) * sky).clamp(0.0, 1.0);
            let light = 0.25 + 0.75 * sky;
            std::array::from_fn(|a| (ROCK[a] + (GRASS[a] - ROCK[a]) * grassy) * light)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CaveParams, Seed};

    #[test]
    fn picture_sides_are_checked_and_named() {
        let f = CaveField::new(&CaveParams::default(), Seed::new(1)).unwrap();
        let empty = horizontal_slice(&f, 20, 0, 0, 0, 8).unwrap_err();
        assert_eq!(empty.to_string(), "picture side must be at least 1, got 0");
        let wide = entrance_map(&f, 0, 0, 8, MAX_SIDE + 1).unwrap_err();
        assert_eq!(
            wide.to_string(),
            "picture side is too large: 4097, at most 4096"
        );
        let ok = vertical_slice(&f, 0, 0, 0, 16, 48).unwrap();
        assert_eq!(ok.pixels.len(), 16 * 48 * 3);
        // The top row is sky, the bottom row bedrock.
        assert_eq!(ok.pixels[..3], SKY);
        assert_eq!(ok.pixels[ok.pixels.len() - 3..], BEDROCK);
    }
}
