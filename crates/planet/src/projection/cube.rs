//! The cube map: six faces, each a square `u, v ∈ [-1, 1]` projected onto
//! the sphere from its centre, plain or with the tangent warp.

use crate::geo::{Dir, normalise};
use serde::{Deserialize, Serialize};
use std::f64::consts::FRAC_PI_4;

/// One face of the cube. The order (and [`CubeFace::index`]) is the face's
/// place in the 3 × 2 chunk atlas: `+x +y −x` on the top row, `−y +z −z`
/// below.
///
/// Orientation: the four side faces have north up (`v = −1` at the top is
/// towards +z) and east to the right; `+z` is seen from above with `+x`
/// towards its bottom edge, `−z` from below with `+x` towards its top edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CubeFace {
    /// Centred on latitude 0°, longitude 0°.
    #[serde(rename = "+x")]
    PosX,
    /// Centred on longitude 90° E.
    #[serde(rename = "+y")]
    PosY,
    /// Centred on longitude 180°.
    #[serde(rename = "-x")]
    NegX,
    /// Centred on longitude 90° W.
    #[serde(rename = "-y")]
    NegY,
    /// Centred on the north pole.
    #[serde(rename = "+z")]
    PosZ,
    /// Centred on the south pole.
    #[serde(rename = "-z")]
    NegZ,
}

/// Which axis a face vector lies on, and its sign.
type SignedAxis = (usize, f64);

impl CubeFace {
    /// All faces in atlas order.
    pub const ALL: [CubeFace; 6] = [
        CubeFace::PosX,
        CubeFace::PosY,
        CubeFace::NegX,
        CubeFace::NegY,
        CubeFace::PosZ,
        CubeFace::NegZ,
    ];

    /// The face's index in atlas order, 0..6.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The face with this atlas index.
    pub fn from_index(i: usize) -> Option<CubeFace> {
        CubeFace::ALL.get(i).copied()
    }

    /// `+x`, `-y`, … as in JSON.
    pub fn name(self) -> &'static str {
        ["+x", "+y", "-x", "-y", "+z", "-z"][self.index()]
    }

    /// The face's outward normal, its right (`+u`) and its down (`+v`)
    /// unit vectors: a face point `(a, b)` of the plain cube is the
    /// direction of `normal + a·right + b·down` (the tangent cube warps
    /// `a` and `b` first).
    pub fn axes(self) -> [Dir; 3] {
        self.frame().map(|(axis, sign)| {
            let mut v = [0.0; 3];
            v[axis] = sign;
            v
        })
    }

    /// The face's normal, its right (`+u`) and its down (`+v`) vectors.
    fn frame(self) -> [SignedAxis; 3] {
        match self {
            CubeFace::PosX => [(0, 1.0), (1, 1.0), (2, -1.0)],
            CubeFace::PosY => [(1, 1.0), (0, -1.0), (2, -1.0)],
            CubeFace::NegX => [(0, -1.0), (1, -1.0), (2, -1.0)],
            CubeFace::NegY => [(1, -1.0), (0, 1.0), (2, -1.0)],
            CubeFace::PosZ => [(2, 1.0), (1, 1.0), (0, 1.0)],
            CubeFace::NegZ => [(2, -1.0), (1, 1.0), (0, -1.0)],
        }
    }

    /// The direction of face point `(a, b)` (already warped). Every
    /// component is ±1, ±a or ±b, placed by axis: on an edge shared by two
    /// faces, both build the identical vector.
    #[inline]
    pub(crate) fn combine(self, a: f64, b: f64) -> Dir {
        let [(n, sn), (r, sr), (d, sd)] = self.frame();
        let mut p = [0.0; 3];
        p[n] = sn;
        p[r] = sr * a;
        p[d] = sd * b;
        normalise(p)
    }

    /// The face whose centre is closest to `d` (ties: x before y before z).
    pub(crate) fn of(d: Dir) -> CubeFace {
        let [ax, ay, az] = [d[0].abs(), d[1].abs(), d[2].abs()];
        if ax >= ay && ax >= az {
            if d[0] >= 0.0 {
                CubeFace::PosX
            } else {
                CubeFace::NegX
            }
        } else if ay >= az {
            if d[1] >= 0.0 {
                CubeFace::PosY
            } else {
                CubeFace::NegY
            }
        } else if d[2] >= 0.0 {
            CubeFace::PosZ
        } else {
            CubeFace::NegZ
        }
    }

    /// How far `d` points along this face's normal.
    #[cfg(test)]
    pub(crate) fn depth(self, d: Dir) -> f64 {
        let [(n, sn), _, _] = self.frame();
        sn * d[n]
    }

    /// The (unwarped) face coordinates of `d` on this face's plane; `d`
    /// must point into the face's half-space.
    pub(crate) fn plane_coords(self, d: Dir) -> (f64, f64) {
        let [(n, sn), (r, sr), (dn, sd)] = self.frame();
        let depth = sn * d[n];
        (sr * d[r] / depth, sd * d[dn] / depth)
    }
}

/// The tangent warp `tan(π·s/4)`: cells of equal angle along each face
/// axis. Exactly odd (computed on `|s|`) and exact at the face edges
/// (`±1 → ±1`), so mirrored samples and shared edges keep their bits.
#[inline]
pub(crate) fn warp(s: f64) -> f64 {
    let m = s.abs();
    let t = if m == 1.0 {
        1.0
    } else {
        libm::tan(FRAC_PI_4 * m)
    };
    t.copysign(s)
}

/// The inverse warp, `4·atan(t)/π`.
#[inline]
pub(crate) fn unwarp(t: f64) -> f64 {
    let m = t.abs();
    let s = if m == 1.0 {
        1.0
    } else {
        libm::atan(m) / FRAC_PI_4
    };
    s.copysign(t)
}

pub(super) fn forward(d: Dir, tangent: bool) -> super::MapPoint {
    let face = CubeFace::of(d);
    let (a, b) = face.plane_coords(d);
    // Rounding can push a coordinate a hair past the edge; the face
    // choice guarantees |a|, |b| ≤ 1 mathematically.
    let (a, b) = (a.clamp(-1.0, 1.0), b.clamp(-1.0, 1.0));
    let (u, v) = if tangent {
        (unwarp(a), unwarp(b))
    } else {
        (a, b)
    };
    super::MapPoint {
        face: Some(face),
        u,
        v,
    }
}
