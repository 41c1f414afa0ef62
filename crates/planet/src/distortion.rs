//! How unequal a projection's cells are on the sphere: the solid angle of
//! every cell of a regular map grid, and the ratio of the largest to the
//! smallest.

use crate::geo::{Dir, cross, dot};
use crate::projection::{CubeFace, MapPoint, Projection, grid_coord};

/// The measured cell areas of one projection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distortion {
    /// The projection measured.
    pub projection: Projection,
    /// Cells along the map's width (all faces' sheets together for the
    /// cube: one face is a third of the atlas width).
    pub columns: u64,
    /// Cells along the map's height.
    pub rows: u64,
    /// Number of cells measured.
    pub cells: u64,
    /// Largest cell area, in steradians.
    pub max_area: f64,
    /// Smallest cell area, in steradians.
    pub min_area: f64,
    /// Sum of all cell areas (4π when the map covers the sphere once).
    pub total_area: f64,
}

impl Distortion {
    /// Largest over smallest cell area.
    pub fn ratio(&self) -> f64 {
        self.max_area / self.min_area
    }

    /// Largest cell area over the mean.
    pub fn max_over_mean(&self) -> f64 {
        self.max_area / (self.total_area / self.cells as f64)
    }
}

/// Solid angle of the spherical triangle `a b c` (Van Oosterom and
/// Strackee's formula).
fn triangle_area(a: Dir, b: Dir, c: Dir) -> f64 {
    let det = dot(a, cross(b, c)).abs();
    let div = 1.0 + dot(a, b) + dot(b, c) + dot(c, a);
    2.0 * libm::atan2(det, div)
}

/// Measures `projection` on a grid with `n` cells along a cube face's
/// edge (the equirectangular sheet then has 4n × 2n cells and the
/// octahedral square 2n × 2n: the same number of cells along the equator
/// as in [`crate::PlanetSpace`]).
pub fn measure(projection: Projection, n: u64) -> Distortion {
    let n = n.max(1);
    let sheets: Vec<(Option<CubeFace>, u64, u64)> = match projection {
        Projection::Equirectangular => vec![(None, 4 * n, 2 * n)],
        Projection::Octahedral => vec![(None, 2 * n, 2 * n)],
        Projection::Cube | Projection::TangentCube => {
            CubeFace::ALL.iter().map(|&f| (Some(f), n, n)).collect()
        }
    };
    let mut d = Distortion {
        projection,
        columns: if projection.has_faces() {
            3 * n
        } else {
            sheets[0].1
        },
        rows: if projection.has_faces() {
            2 * n
        } else {
            sheets[0].2
        },
        cells: 0,
        max_area: 0.0,
        min_area: f64::INFINITY,
        total_area: 0.0,
    };
    for (face, w, h) in sheets {
        let corner = |i: u64, j: u64| {
            let p = MapPoint {
                face,
                u: grid_coord(i as i64, w as i64),
                v: grid_coord(j as i64, h as i64),
            };
            projection.inverse(p).unwrap_or([0.0, 0.0, 1.0])
        };
        for j in 0..h {
            let (mut a, mut d0) = (corner(0, j), corner(0, j + 1));
            for i in 0..w {
                let (b, c) = (corner(i + 1, j), corner(i + 1, j + 1));
                let area = triangle_area(a, b, c) + triangle_area(a, c, d0);
                d.cells += 1;
                d.total_area += area;
                d.max_area = d.max_area.max(area);
                d.min_area = d.min_area.min(area);
                (a, d0) = (b, c);
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_projection_covers_the_sphere_once() {
        for p in Projection::ALL {
            let d = measure(p, 32);
            let four_pi = 4.0 * std::f64::consts::PI;
            assert!(
                (d.total_area - four_pi).abs() < 1e-9,
                "{p}: {}",
                d.total_area
            );
        }
    }

    #[test]
    fn area_ratios_match_the_known_values() {
        let ratio = |p| measure(p, 128).ratio();
        let (cube, tangent, octa) = (
            ratio(Projection::Cube),
            ratio(Projection::TangentCube),
            ratio(Projection::Octahedral),
        );
        // The gnomonic cube: (1 + 1 + 1)^{3/2} = 5.196 between centre and corner.
        assert!((cube - 5.196).abs() < 0.15, "cube {cube}");
        assert!((tangent - 1.41).abs() < 0.05, "tangent cube {tangent}");
        assert!((4.5..6.0).contains(&octa), "octahedral {octa}");
        // Equirectangular cells shrink to slivers at the poles: the ratio
        // grows with the number of rows.
        let (coarse, fine) = (
            measure(Projection::Equirectangular, 32).ratio(),
            measure(Projection::Equirectangular, 128).ratio(),
        );
        assert!(fine > 3.0 * coarse && coarse > 20.0, "{coarse} {fine}");
    }
}
