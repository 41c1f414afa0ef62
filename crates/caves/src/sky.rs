//! Where the sky reaches: per column, the height above which nothing but
//! air lies, and from it a per-vertex sky visibility for renderers.
//!
//! Above the surface there is only air, so a column's *open height* is the
//! top of its highest rock voxel: the surface itself, or, where a karst
//! entrance has opened the ceiling, the bottom of the shaft. A vertex at
//! or above the open height of a neighbouring column sees the sky; below
//! it, sky light fades out over [`SKY_FALLOFF`] voxels. The value depends
//! only on columns, so neighbouring chunks agree on it.

use crate::chunk::{Sampler, VoxelBox};
use crate::field::{CaveField, Column, Terms};

/// Voxels below the open height over which sky light fades to 0: less than
/// the seed's 3-voxel ceiling buffer, so sealed caves get no sunlight at
/// all, while the walls of an open shaft stay lit.
pub const SKY_FALLOFF: f32 = 2.0;

/// How far below the surface the open-height scan looks for rock. A shaft
/// deeper than this counts as open down to this depth: 64 voxels is two
/// chunks, deeper than any light a renderer keeps.
pub const SKY_SCAN_DEPTH: i64 = 64;

/// Sky visibility in [0, 1] of a point at height `y` below (or above) the
/// open height `open`.
#[inline]
pub fn sky_at(open: f32, y: f64) -> f32 {
    ((1.0 - (open as f64 - y) / SKY_FALLOFF as f64) as f32).clamp(0.0, 1.0)
}

/// Voxel rows sampled at once while scanning open columns down: a shaft
/// is rarely deeper, and a slab's box costs little more than one row.
const SLAB: usize = 16;

/// Columns scanned together: their slabs are boxes over the tile's
/// still-open columns, so open columns far apart never share a box.
const TILE: usize = 64;

/// Where one column's scan stands.
#[derive(Clone, Copy, Debug)]
struct Scan {
    /// Column index in the rectangle.
    at: usize,
    /// The next voxel to test.
    y: i64,
    /// The density of voxel `y + 1`, once known.
    above: Option<f32>,
    /// Voxels left to test.
    left: i64,
}

/// The open height of every column of a rectangle of `size = [nx, nz]`
/// columns from world column `min = [x0, z0]` (`cols[k · nx + i]`).
///
/// A column's scan starts at its last voxel under the surface (or the
/// floor) and goes down while the voxels are air, for at most
/// [`SKY_SCAN_DEPTH`] + 1 voxels; the open height is where the density
/// crosses zero between the first rock voxel and the air above it. Most
/// columns are decided from their noise-free terms (the ceiling buffer is
/// rock); the others are scanned through box samples, so every density
/// used is [`CaveField::density`] bit for bit.
pub(crate) fn open_heights(
    field: &CaveField,
    min: [i64; 2],
    size: [usize; 2],
    cols: &[Column],
) -> Vec<f32> {
    let [nx, nz] = size;
    let mut open = vec![f32::NAN; nx * nz];
    let mut sampler = Sampler::new();
    for tz in (0..nz).step_by(TILE) {
        for tx in (0..nx).step_by(TILE) {
            let mut active = Vec::new();
            for k in tz..(tz + TILE).min(nz) {
                for i in tx..(tx + TILE).min(nx) {
                    let at = k * nx + i;
                    if let Some(scan) = start_scan(field, cols[at], at, &mut open) {
                        active.push(scan);
                    }
                }
            }
            scan_down(
                field,
                (min, size, cols),
                &mut active,
                &mut sampler,
                &mut open,
            );
        }
    }
    open
}

/// The density of a voxel if its carve window is empty (no worm needed).
fn noise_free(field: &CaveField, col: Column, y: i64) -> Option<f32> {
    let t = Terms::new(col, field.floor(), y as f32);
    let (lo, hi) = t.window();
    (lo >= hi).then(|| t.uncarved())
}

/// Where rock of density `d` meets the air of density `above` one voxel up.
fn crossing(y: i64, d: f32, above: f32) -> f32 {
    let t = d as f64 / (d as f64 - above as f64);
    (y as f64 + t) as f32
}

/// Decides column `at` from its noise-free terms, or returns its scan.
fn start_scan(field: &CaveField, col: Column, at: usize, open: &mut [f32]) -> Option<Scan> {
    let fl = field.params.floor_level as i64;
    // Highest candidate: the last voxel under the surface, or the floor.
    let y = ((col.h as f64).ceil() as i64 - 1).max(fl);
    let above = noise_free(field, col, y + 1);
    match (noise_free(field, col, y), above) {
        (Some(d), Some(a)) if d > 0.0 => {
            open[at] = crossing(y, d, a);
            None
        }
        _ => Some(Scan {
            at,
            y,
            above,
            left: SKY_SCAN_DEPTH + 1,
        }),
    }
}

/// Scans the open columns of one tile down, a slab at a time.
fn scan_down(
    field: &CaveField,
    (min, size, cols): ([i64; 2], [usize; 2], &[Column]),
    active: &mut Vec<Scan>,
    sampler: &mut Sampler,
    open: &mut [f32],
) {
    let nx = size[0];
    while !active.is_empty() {
        let top = active
            .iter()
            .map(|s| s.y + s.above.is_none() as i64)
            .max()
            .unwrap_or(0);
        let bottom = top - SLAB as i64 + 1;
        let (i0, i1) = span(active.iter().map(|s| s.at % nx));
        let (k0, k1) = span(active.iter().map(|s| s.at / nx));
        let sub: Vec<Column> = (k0..=k1)
            .flat_map(|k| cols[k * nx + i0..=k * nx + i1].iter().copied())
            .collect();
        let bounds = VoxelBox {
            min: [min[0] + i0 as i64, bottom, min[1] + k0 as i64],
            size: [i1 - i0 + 1, SLAB, k1 - k0 + 1],
        };
        let slab = sampler.sample_with_columns(field, bounds, sub);
        active.retain_mut(|s| {
            let (i, k) = (s.at % nx - i0, s.at / nx - k0);
            let get = |y: i64| slab.get(i, (y - bottom) as usize, k);
            if s.above.is_none() && s.y + 1 >= bottom {
                s.above = Some(get(s.y + 1));
            }
            while let Some(above) = s.above {
                if s.left == 0 {
                    open[s.at] = s.y as f32;
                    return false;
                }
                if s.y < bottom {
                    break;
                }
                let d = get(s.y);
                if d > 0.0 {
                    open[s.at] = crossing(s.y, d, above);
                    return false;
                }
                s.above = Some(d);
                s.y -= 1;
                s.left -= 1;
            }
            true
        });
    }
}

/// Smallest and largest of some indices.
fn span(v: impl Iterator<Item = usize>) -> (usize, usize) {
    v.fold((usize::MAX, 0), |(lo, hi), x| (lo.min(x), hi.max(x)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::sample_columns;
    use crate::{CaveParams, Seed};

    /// The scan, voxel by voxel through point queries.
    fn reference(f: &CaveField, x: i64, z: i64, c: Column) -> f32 {
        let mut y = ((c.h as f64).ceil() as i64 - 1).max(f.params.floor_level as i64);
        let mut above = f.density(x, y + 1, z);
        for _ in 0..=SKY_SCAN_DEPTH {
            let d = f.density(x, y, z);
            if d > 0.0 {
                return crossing(y, d, above);
            }
            above = d;
            y -= 1;
        }
        y as f32
    }

    #[test]
    fn open_heights_equal_the_voxel_by_voxel_scan() {
        // A wide entrance mask, and a rectangle (two tiles wide) where it
        // opens shafts, so the slab scan really runs: a place found in
        // version 2's world of seed 42 (the scan is the same code in every
        // version; the test asserts that shafts are there).
        let params = CaveParams {
            entrance_threshold: 0.3,
            ..CaveParams::default()
        };
        let f = CaveField::with_version(&params, Seed::new(42), crate::Version::V2).unwrap();
        let (min, size) = ([-512i64, -248], [80usize, 40]);
        let b = VoxelBox {
            min: [min[0], 0, min[1]],
            size: [size[0], 1, size[1]],
        };
        let cols = sample_columns(&f, &b);
        let open = open_heights(&f, min, size, &cols);
        let (mut deep, mut deepest) = (0, 0.0f32);
        for (n, o) in open.iter().enumerate() {
            let (x, z) = (min[0] + (n % size[0]) as i64, min[1] + (n / size[0]) as i64);
            let want = reference(&f, x, z, cols[n]);
            assert_eq!(o.to_bits(), want.to_bits(), "column ({x}, {z})");
            // The voxel below the open height is rock.
            assert!(f.density(x, o.ceil() as i64 - 1, z) > 0.0);
            let depth = cols[n].h - o;
            deep += (depth > 2.0) as usize;
            deepest = deepest.max(depth);
        }
        assert!(
            deep > 20 && deepest > SLAB as f32,
            "{deep} shafts, deepest {deepest}"
        );
        assert_eq!(sky_at(10.0, 10.0), 1.0);
        assert_eq!(sky_at(10.0, 7.0), 0.0);
    }
}
