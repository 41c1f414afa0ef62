//! Where the sky reaches: per column, the height above which nothing but
//! air lies, and from it a per-vertex sky visibility for renderers.
//!
//! Above the surface there is only air, so a column's *open height* is the
//! top of its highest rock voxel: the surface itself, or, where a karst
//! entrance has opened the ceiling, the bottom of the shaft. A vertex at
//! or above the open height of a neighbouring column sees the sky; below
//! it, sky light fades out over [`SKY_FALLOFF`] voxels. The value depends
//! only on columns, so neighbouring chunks agree on it.

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

/// The open height of each column `(x, z, column)`.
pub(crate) fn open_heights(field: &CaveField, cols: &[(i64, i64, Column)]) -> Vec<f32> {
    let fl = field.params.floor_level as i64;
    // Highest candidate: the last voxel under the surface, or the floor.
    let start: Vec<i64> = cols
        .iter()
        .map(|c| ((c.2.h as f64).ceil() as i64 - 1).max(fl))
        .collect();
    let mut above: Vec<f32> = densities(field, cols, &start, 1);
    let mut y = start.clone();
    let mut open = vec![f32::NAN; cols.len()];
    let mut active: Vec<usize> = (0..cols.len()).collect();
    for _ in 0..=SKY_SCAN_DEPTH {
        if active.is_empty() {
            break;
        }
        let sub: Vec<(i64, i64, Column)> = active.iter().map(|&i| cols[i]).collect();
        let ys: Vec<i64> = active.iter().map(|&i| y[i]).collect();
        let d = densities(field, &sub, &ys, 0);
        let mut next = Vec::with_capacity(active.len());
        for (n, &i) in active.iter().enumerate() {
            if d[n] > 0.0 {
                let t = d[n] as f64 / (d[n] as f64 - above[i] as f64);
                open[i] = (y[i] as f64 + t) as f32;
            } else {
                above[i] = d[n];
                y[i] -= 1;
                next.push(i);
            }
        }
        active = next;
    }
    for i in active {
        open[i] = y[i] as f32;
    }
    open
}

/// Densities of voxels `(x, ys[i] + dy, z)` of the given columns, equal to
/// [`CaveField::density`], with the worm noise batched.
fn densities(field: &CaveField, cols: &[(i64, i64, Column)], ys: &[i64], dy: i64) -> Vec<f32> {
    let floor = field.floor();
    let mut out = vec![0.0f32; cols.len()];
    let mut need = Vec::new();
    for (i, (c, &y)) in cols.iter().zip(ys).enumerate() {
        let t = Terms::new(c.2, floor, y + dy);
        let (lo, hi) = t.window();
        if lo >= hi {
            out[i] = t.uncarved();
        } else {
            need.push((i, t));
        }
    }
    if need.is_empty() {
        return out;
    }
    let pos: [Vec<f64>; 3] = [
        need.iter().map(|&(i, _)| cols[i].0 as f64).collect(),
        need.iter().map(|&(i, _)| (ys[i] + dy) as f64).collect(),
        need.iter().map(|&(i, _)| cols[i].1 as f64).collect(),
    ];
    let mut n1 = vec![0.0f32; need.len()];
    let mut n2 = vec![0.0f32; need.len()];
    field.worms[0].fill_points3(&pos[0], &pos[1], &pos[2], &mut n1);
    if field.tubes() {
        field.worms[1].fill_points3(&pos[0], &pos[1], &pos[2], &mut n2);
    }
    for (n, &(i, t)) in need.iter().enumerate() {
        out[i] = t.density(field.carve(n1[n], n2[n]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CaveParams, Seed};

    #[test]
    fn open_height_is_the_top_of_the_highest_rock() {
        let f = CaveField::new(&CaveParams::default(), Seed::new(3)).unwrap();
        let cols: Vec<(i64, i64, Column)> = (0..400)
            .map(|i| {
                let (x, z) = (i * 13 - 2000, i * 7 + 11);
                (x, z, f.column(x as f64, z as f64))
            })
            .collect();
        let open = open_heights(&f, &cols);
        for ((x, z, c), o) in cols.iter().zip(&open) {
            let y = o.ceil() as i64 - 1;
            // The voxel below the open height is rock, everything above it air.
            assert!(f.density(*x, y, *z) > 0.0, "({x}, {z}): open {o}");
            for above in y + 1..=(c.h.ceil() as i64 + 1) {
                assert!(
                    f.density(*x, above, *z) <= 0.0,
                    "({x}, {above}, {z}) under open sky {o}"
                );
            }
        }
        assert_eq!(sky_at(10.0, 10.0), 1.0);
        assert_eq!(sky_at(10.0, 7.0), 0.0);
    }
}
