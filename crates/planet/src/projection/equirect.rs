//! Equirectangular: `u = lon / π`, `v = −lat / (π/2)` (north at the top).

use super::{Axis, MapPoint};
use crate::geo::{Dir, canonical};
use std::f64::consts::{FRAC_PI_2, PI};

/// A column's longitude as cosine and sine. `u = 1` (the right edge) is
/// the same meridian as `u = −1` and is computed as `−1`, so both edges
/// of the sheet give the same bits.
#[inline]
pub(super) fn column_axis(u: f64) -> Axis {
    let u = if u == 1.0 { -1.0 } else { u };
    let lon = PI * u;
    Axis::Angle {
        cos: libm::cos(lon),
        sin: libm::sin(lon),
    }
}

/// A row's latitude as cosine and sine; the top and bottom rows are the
/// poles exactly (`cos = 0`), so every sample of a pole row is one point.
#[inline]
pub(super) fn row_axis(v: f64) -> Axis {
    if v.abs() == 1.0 {
        return Axis::Angle { cos: 0.0, sin: -v };
    }
    let lat = -FRAC_PI_2 * v;
    Axis::Angle {
        cos: libm::cos(lat),
        sin: libm::sin(lat),
    }
}

#[inline]
pub(super) fn combine(cos_lon: f64, sin_lon: f64, cos_lat: f64, sin_lat: f64) -> Dir {
    canonical([cos_lat * cos_lon, cos_lat * sin_lon, sin_lat])
}

pub(super) fn forward(d: Dir) -> MapPoint {
    let h = (d[0] * d[0] + d[1] * d[1]).sqrt();
    let u = libm::atan2(d[1], d[0]) / PI;
    let v = -libm::atan2(d[2], h) / FRAC_PI_2;
    // atan2 gives +π on the date line; the sheet's canonical edge is −1.
    let u = if u >= 1.0 { -1.0 } else { u };
    MapPoint {
        face: None,
        u,
        v: v.clamp(-1.0, 1.0),
    }
}
