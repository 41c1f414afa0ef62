//! Maps between the sphere and flat map coordinates: equirectangular,
//! the cube (plain and tangent-adjusted) and the octahedral map, each with
//! a forward (direction → map) and an inverse (map → direction).
//!
//! Every map coordinate is a [`MapPoint`]: `u` and `v` in `[-1, 1]`, `u`
//! growing to the right and `v` downwards (image order), plus the cube
//! face for the cube projections.
//!
//! The inverse is written per axis: a column's `u` and a row's
//! `v` are turned into axis values once, then combined. Chunks precompute
//! the axis values of their columns and rows, and
//! [`Projection::inverse`] runs the very same two steps, so a chunk sample
//! and a point query agree bit for bit. Where two map points are one sphere
//! point (cube edges, the octahedral border, the equirectangular date line
//! and poles) the formulas build *the same* unnormalised vector from both,
//! so both samples have the same bits.

pub(crate) mod cube;
mod equirect;
mod octahedral;

pub use cube::CubeFace;

use crate::PlanetError;
use crate::geo::Dir;
use serde::{Deserialize, Serialize};

/// A way to flatten the sphere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Projection {
    /// Longitude and latitude on a 2:1 sheet. Simple and GIS-friendly;
    /// degenerate at the poles (a pole is a whole row of samples).
    Equirectangular,
    /// Six faces of a cube, projected straight out (gnomonic). Cells near
    /// the face corners cover 5.2× less sphere than at the face centre.
    Cube,
    /// The cube with each face coordinate warped by `tan(π·s/4)`: equal
    /// angles per cell along the face axes; area ratio about 1.41. The
    /// projection for chunks.
    TangentCube,
    /// The sphere folded onto an octahedron and unfolded into one square:
    /// the northern hemisphere is the inner diamond, the southern one the
    /// four corner triangles. One sheet without gaps, continuous across its
    /// border by mirroring; area ratio about 5.2 like the plain cube.
    Octahedral,
}

impl Projection {
    /// Every projection, in a fixed order.
    pub const ALL: [Projection; 4] = [
        Projection::Equirectangular,
        Projection::Cube,
        Projection::TangentCube,
        Projection::Octahedral,
    ];

    /// The name used in JSON and URLs.
    pub fn name(self) -> &'static str {
        match self {
            Projection::Equirectangular => "equirectangular",
            Projection::Cube => "cube",
            Projection::TangentCube => "tangent_cube",
            Projection::Octahedral => "octahedral",
        }
    }

    /// Whether map points carry a cube face.
    pub fn has_faces(self) -> bool {
        matches!(self, Projection::Cube | Projection::TangentCube)
    }

    /// Direction → map point.
    pub fn forward(self, d: Dir) -> MapPoint {
        match self {
            Projection::Equirectangular => equirect::forward(d),
            Projection::Cube => cube::forward(d, false),
            Projection::TangentCube => cube::forward(d, true),
            Projection::Octahedral => octahedral::forward(d),
        }
    }

    /// Map point → direction (a unit vector). Errors if `u`/`v` are not
    /// finite numbers in `[-1, 1]`, or a face is missing (cube) or present
    /// (other projections).
    pub fn inverse(self, p: MapPoint) -> Result<Dir, PlanetError> {
        for (what, value) in [("u", p.u), ("v", p.v)] {
            if !(value.is_finite() && (-1.0..=1.0).contains(&value)) {
                return Err(PlanetError::address(what, value, "in -1 ..= 1"));
            }
        }
        let face = match (self.has_faces(), p.face) {
            (true, Some(f)) => f,
            (false, None) => CubeFace::PosX,
            (true, None) => {
                return Err(PlanetError::address(
                    "face",
                    "none",
                    "a cube face for cube projections",
                ));
            }
            (false, Some(f)) => {
                return Err(PlanetError::address(
                    "face",
                    f.name(),
                    "none for non-cube projections",
                ));
            }
        };
        Ok(self.combine(face, self.column_axis(p.u), self.row_axis(p.v)))
    }

    /// The axis value of a column at `u`.
    #[inline]
    pub(crate) fn column_axis(self, u: f64) -> Axis {
        match self {
            Projection::Equirectangular => equirect::column_axis(u),
            Projection::Cube | Projection::Octahedral => Axis::Linear(u),
            Projection::TangentCube => Axis::Linear(cube::warp(u)),
        }
    }

    /// The axis value of a row at `v`.
    #[inline]
    pub(crate) fn row_axis(self, v: f64) -> Axis {
        match self {
            Projection::Equirectangular => equirect::row_axis(v),
            Projection::Cube | Projection::Octahedral => Axis::Linear(v),
            Projection::TangentCube => Axis::Linear(cube::warp(v)),
        }
    }

    /// The direction of a column and a row (`face` is ignored without faces).
    #[inline]
    pub(crate) fn combine(self, face: CubeFace, col: Axis, row: Axis) -> Dir {
        match (col, row) {
            (Axis::Angle { cos: cl, sin: sl }, Axis::Angle { cos: cp, sin: sp }) => {
                equirect::combine(cl, sl, cp, sp)
            }
            (Axis::Linear(a), Axis::Linear(b)) => match self {
                Projection::Octahedral => octahedral::combine(a, b),
                _ => face.combine(a, b),
            },
            // The two kinds never mix: both axes come from the same projection.
            _ => [0.0, 0.0, 1.0],
        }
    }
}

impl std::fmt::Display for Projection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Projection {
    type Err = PlanetError;
    fn from_str(s: &str) -> Result<Self, PlanetError> {
        Projection::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| PlanetError::Name {
                what: "projection",
                param: "projection",
                value: s.to_string(),
                allowed: "equirectangular, cube, tangent_cube, octahedral",
            })
    }
}

/// A point on a projection's map: `u`, `v` in `[-1, 1]` (right, down) and
/// the cube face where the projection has faces.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapPoint {
    /// The cube face (cube projections only).
    pub face: Option<CubeFace>,
    /// Horizontal map coordinate, −1 (left edge) ..= 1 (right edge).
    pub u: f64,
    /// Vertical map coordinate, −1 (top edge) ..= 1 (bottom edge).
    pub v: f64,
}

/// One map axis, prepared for [`Projection::combine`]: an angle's cosine
/// and sine (equirectangular) or a linear face coordinate (cube, already
/// tangent-warped; octahedral).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Axis {
    Angle { cos: f64, sin: f64 },
    Linear(f64),
}

/// The map coordinate of sample `index` of `extent` cells: `(2·index −
/// extent) / extent`, exact in the integers and rounded once, so sample
/// `extent − k` is exactly the negation of sample `k`.
#[inline]
pub(crate) fn grid_coord(index: i64, extent: i64) -> f64 {
    (2 * index - extent) as f64 / extent as f64
}

#[cfg(test)]
mod tests;
