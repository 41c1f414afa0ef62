//! Web-map tiles: the planet's heights on the Web Mercator XYZ tile grid
//! (what MapLibre, Leaflet and geo-three ask for; encode them as Terrarium
//! PNG with `mangekyo_export::heightmap::terrarium_rgb`).
//!
//! Tile `(z, x, y)` covers longitudes `x / 2^z · 360° − 180°` onwards and
//! rows from the north; samples are taken at pixel centres. The octaves
//! kept depend on the zoom alone (the pixel size at the equator), so
//! neighbouring tiles agree on the large shapes and never alias.

use crate::PlanetError;
use crate::chunk::Layers;
use crate::geo::Dir;
use crate::{Planet, Samples};
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;

/// Deepest zoom level served: at 30 an Earth-sized tile pixel is 0.15 mm.
pub const MAX_TILE_ZOOM: u32 = 30;
/// Largest tile side in pixels.
pub const MAX_TILE_SIZE: u32 = 1024;

/// One Web Mercator tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TileRequest {
    /// Zoom, 0 ..= [`MAX_TILE_ZOOM`].
    pub z: u32,
    /// Column, 0 .. 2^z (west to east from the antimeridian).
    pub x: u32,
    /// Row, 0 .. 2^z (north to south).
    pub y: u32,
    /// Pixels per side (256 or 512 usually), 1 ..= [`MAX_TILE_SIZE`].
    pub size: u32,
}

impl TileRequest {
    /// Checks the address, naming the coordinate that is off.
    pub fn validate(&self) -> Result<(), PlanetError> {
        if self.z > MAX_TILE_ZOOM {
            return Err(PlanetError::address(
                "z",
                self.z,
                format!("in 0..={MAX_TILE_ZOOM}"),
            ));
        }
        let n = 1u64 << self.z;
        if u64::from(self.x) >= n {
            return Err(PlanetError::address(
                "x",
                self.x,
                format!("in 0..{n} at zoom {}", self.z),
            ));
        }
        if u64::from(self.y) >= n {
            return Err(PlanetError::address(
                "y",
                self.y,
                format!("in 0..{n} at zoom {}", self.z),
            ));
        }
        if !(1..=MAX_TILE_SIZE).contains(&self.size) {
            return Err(PlanetError::address(
                "size",
                self.size,
                format!("in 1..={MAX_TILE_SIZE}"),
            ));
        }
        Ok(())
    }

    /// The directions of the tile's pixel centres, row-major.
    pub fn directions(&self) -> Vec<Dir> {
        let n = (1u64 << self.z) as f64;
        let size = f64::from(self.size);
        let cols: Vec<(f64, f64)> = (0..self.size)
            .map(|px| {
                let lon = 2.0 * PI * ((f64::from(self.x) + (f64::from(px) + 0.5) / size) / n) - PI;
                (libm::cos(lon), libm::sin(lon))
            })
            .collect();
        let mut out = Vec::with_capacity(cols.len() * cols.len());
        for py in 0..self.size {
            let merc = PI * (1.0 - 2.0 * (f64::from(self.y) + (f64::from(py) + 0.5) / size) / n);
            let lat = libm::atan(libm::sinh(merc));
            let (c, s) = (libm::cos(lat), libm::sin(lat));
            out.extend(cols.iter().map(|&(cl, sl)| [c * cl, c * sl, s]));
        }
        out
    }
}

impl Planet {
    /// Samples a Web Mercator tile (heights in metres for Terrarium tiles;
    /// any layers). Octaves are kept down to the tile's pixel size at the
    /// equator, never finer than the planet's pixel size.
    pub fn sample_tile(&self, tile: &TileRequest, layers: Layers) -> Result<Samples, PlanetError> {
        tile.validate()?;
        let pixel =
            2.0 * PI * self.params().radius / (f64::from(tile.size) * (1u64 << tile.z) as f64);
        self.sample_tile_dirs(&tile.directions(), pixel, layers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::LatLon;

    #[test]
    fn tile_zero_spans_the_mercator_world() {
        let t = TileRequest {
            z: 0,
            x: 0,
            y: 0,
            size: 256,
        };
        let d = t.directions();
        let first = LatLon::from_dir(d[0]);
        let last = LatLon::from_dir(d[d.len() - 1]);
        assert!(
            (first.lat - 85.0).abs() < 0.2 && (first.lon + 179.3).abs() < 0.1,
            "{first:?}"
        );
        assert!(
            (last.lat + 85.0).abs() < 0.2 && (last.lon - 179.3).abs() < 0.1,
            "{last:?}"
        );
    }

    #[test]
    fn bad_tiles_are_named() {
        for (t, what) in [
            (
                TileRequest {
                    z: 31,
                    x: 0,
                    y: 0,
                    size: 256,
                },
                "z",
            ),
            (
                TileRequest {
                    z: 2,
                    x: 4,
                    y: 0,
                    size: 256,
                },
                "x",
            ),
            (
                TileRequest {
                    z: 2,
                    x: 0,
                    y: 9,
                    size: 256,
                },
                "y",
            ),
            (
                TileRequest {
                    z: 2,
                    x: 0,
                    y: 0,
                    size: 0,
                },
                "size",
            ),
        ] {
            match t.validate() {
                Err(PlanetError::Address { what: w, .. }) => assert_eq!(w, what),
                other => panic!("{t:?}: {other:?}"),
            }
        }
    }
}
