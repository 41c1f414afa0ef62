//! The octahedral map. A direction is scaled onto the octahedron
//! `|x| + |y| + |z| = 1`; the northern half is the diamond `|u| + |v| ≤ 1`
//! of the square, and each southern quarter is folded out over the
//! diamond's edge into a corner triangle.
//!
//! `u` runs along +x and `v` along +y. The square's border is a fold:
//! `(u, ±1)` is one point, as is `(±1, v)`, and all four corners are the
//! south pole.

use super::MapPoint;
use crate::geo::{Dir, normalise};

/// `+1` for non-negative numbers (including `+0`), `−1` otherwise.
#[inline]
fn sign(x: f64) -> f64 {
    if x < 0.0 { -1.0 } else { 1.0 }
}

/// The direction of square point `(u, v)`.
///
/// On the border the folded formula uses only `|v|` (for `u = ±1`) or
/// `|u|` (for `v = ±1`) and yields a zero for the other component, so the
/// two mirrored points give the same vector (signed zeros are made
/// positive by [`normalise`]).
#[inline]
pub(super) fn combine(u: f64, v: f64) -> Dir {
    let (au, av) = (u.abs(), v.abs());
    let z = (1.0 - au) - av;
    let p = if z < 0.0 {
        [(1.0 - av) * sign(u), (1.0 - au) * sign(v), z]
    } else {
        [u, v, z]
    };
    normalise(p)
}

pub(super) fn forward(d: Dir) -> MapPoint {
    let s = d[0].abs() + d[1].abs() + d[2].abs();
    let (x, y) = (d[0] / s, d[1] / s);
    let (u, v) = if d[2] >= 0.0 {
        (x, y)
    } else {
        ((1.0 - y.abs()) * sign(x), (1.0 - x.abs()) * sign(y))
    };
    MapPoint {
        face: None,
        u: u.clamp(-1.0, 1.0),
        v: v.clamp(-1.0, 1.0),
    }
}
