//! Directions on the unit sphere and latitude/longitude.
//!
//! Axes: +z is the north pole, +x is latitude 0° longitude 0°, +y is
//! latitude 0° longitude 90° east. So `z = sin(lat)`,
//! `x = cos(lat)·cos(lon)`, `y = cos(lat)·sin(lon)`.

use crate::PlanetError;

/// A unit vector from the planet's centre: a point on the sphere.
pub type Dir = [f64; 3];

/// A geographic position in degrees.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LatLon {
    /// Latitude in degrees, −90 (south pole) ..= 90 (north pole).
    pub lat: f64,
    /// Longitude in degrees east; any finite value (it wraps).
    pub lon: f64,
}

impl LatLon {
    /// Checks the ranges, naming the coordinate that is off.
    pub fn validate(&self) -> Result<(), PlanetError> {
        if !(self.lat.is_finite() && (-90.0..=90.0).contains(&self.lat)) {
            return Err(PlanetError::address(
                "lat",
                self.lat,
                "in -90 ..= 90 degrees",
            ));
        }
        if !self.lon.is_finite() {
            return Err(PlanetError::address(
                "lon",
                self.lon,
                "a finite number of degrees",
            ));
        }
        Ok(())
    }

    /// The direction of this position (unchecked; see [`LatLon::validate`]).
    /// A longitude outside −180 ..= 180 is first wrapped exactly
    /// ([`wrap_lon`]), so `lon = 1e17` is the point its remainder names,
    /// not what the rounding of `1e17 · π / 180` happens to give.
    pub fn to_dir(&self) -> Dir {
        let (lat, lon) = (self.lat.to_radians(), wrap_lon(self.lon).to_radians());
        let c = libm::cos(lat);
        canonical([c * libm::cos(lon), c * libm::sin(lon), libm::sin(lat)])
    }

    /// The position of a direction (need not be unit length; the zero
    /// vector gives 0°, 0°). Longitude is in −180 ..= 180.
    pub fn from_dir(d: Dir) -> LatLon {
        let h = (d[0] * d[0] + d[1] * d[1]).sqrt();
        LatLon {
            lat: libm::atan2(d[2], h).to_degrees(),
            lon: libm::atan2(d[1], d[0]).to_degrees(),
        }
    }
}

/// `lon` wrapped into −180 ..= 180 degrees without rounding: the
/// remainder by 360 is exact in floating point, and adding or taking 360
/// from a remainder beyond ±180 is exact too (the two are within a factor
/// of two). Values already in range are returned as they are.
pub fn wrap_lon(lon: f64) -> f64 {
    if (-180.0..=180.0).contains(&lon) || !lon.is_finite() {
        return lon;
    }
    let r = lon % 360.0;
    if r > 180.0 {
        r - 360.0
    } else if r < -180.0 {
        r + 360.0
    } else {
        r
    }
}

/// Turns `-0.0` into `+0.0` in every component, so that one sphere point
/// reached by two formulas has one bit pattern.
#[inline]
pub(crate) fn canonical(p: [f64; 3]) -> [f64; 3] {
    [p[0] + 0.0, p[1] + 0.0, p[2] + 0.0]
}

/// `p / |p|`, always computed in the same order so that equal inputs give
/// equal bits whichever projection produced them.
#[inline]
pub(crate) fn normalise(p: [f64; 3]) -> Dir {
    let len = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
    canonical([p[0] / len, p[1] / len, p[2] / len])
}

/// An even spread of `n` directions: a Fibonacci sphere (equal-area
/// rings, each point turned by the golden angle), for surveys and tests
/// that count shares of the sphere.
pub fn fibonacci_sphere(n: usize) -> Vec<Dir> {
    let golden = std::f64::consts::PI * (3.0 - libm::sqrt(5.0));
    (0..n)
        .map(|i| {
            let z = 1.0 - (2.0 * i as f64 + 1.0) / n as f64;
            let r = (1.0 - z * z).sqrt();
            let a = golden * i as f64;
            let (x, y) = (r * libm::cos(a), r * libm::sin(a));
            let len = (x * x + y * y + z * z).sqrt();
            [x / len, y / len, z / len]
        })
        .collect()
}

/// The angle between two directions, in radians (robust for tiny angles).
pub fn angle_between(a: Dir, b: Dir) -> f64 {
    let c = cross(a, b);
    let s = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt();
    libm::atan2(s, dot(a, b))
}

#[inline]
pub(crate) fn dot(a: Dir, b: Dir) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[inline]
pub(crate) fn cross(a: Dir, b: Dir) -> Dir {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longitudes_wrap_exactly() {
        // 1e17 = 277_777_777_777_777 · 360 + 280, and 280 − 360 = −80.
        assert_eq!(wrap_lon(1e17), -80.0);
        assert_eq!(wrap_lon(-1e17), 80.0);
        assert_eq!(wrap_lon(540.0), 180.0);
        assert_eq!(wrap_lon(-540.0), -180.0);
        assert_eq!(wrap_lon(370.25), 10.25);
        assert_eq!(wrap_lon(-190.5), 169.5);
        assert_eq!(wrap_lon(-180.0), -180.0);
        assert_eq!(wrap_lon(12.3), 12.3);
        let at = |lon| LatLon { lat: 20.0, lon }.to_dir();
        assert_eq!(at(1e17), at(-80.0));
        assert_eq!(at(360.0 * 1e12 + 45.5), at(45.5));
    }

    #[test]
    fn lat_lon_round_trip() {
        for (lat, lon) in [(0.0, 0.0), (35.36, 138.73), (-89.9, -179.0), (60.0, 90.0)] {
            let back = LatLon::from_dir(LatLon { lat, lon }.to_dir());
            assert!(
                (back.lat - lat).abs() < 1e-9 && (back.lon - lon).abs() < 1e-9,
                "{back:?}"
            );
        }
        assert_eq!(
            LatLon {
                lat: 90.0,
                lon: 0.0
            }
            .to_dir()[2],
            1.0
        );
    }

    #[test]
    fn bad_positions_are_named() {
        let e = LatLon {
            lat: 91.0,
            lon: 0.0,
        }
        .validate()
        .unwrap_err();
        assert!(e.to_string().contains("lat"), "{e}");
        let e = LatLon {
            lat: 0.0,
            lon: f64::NAN,
        }
        .validate()
        .unwrap_err();
        assert!(e.to_string().contains("lon"), "{e}");
    }
}
