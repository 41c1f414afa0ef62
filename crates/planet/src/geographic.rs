//! Terrain tiles on the geographic (EPSG:4326) tiling scheme that CesiumJS
//! reads quantized-mesh terrain on: level `z` has `2^(z+1) × 2^z` tiles of
//! equal longitude and latitude spans, rows counted from the south (TMS).
//! Encode them with `mangekyo_export::quantized_mesh`.
//!
//! A tile holds [`GEO_TILE_SAMPLES`]² samples at its grid's corners,
//! edges included. Sample longitudes and latitudes come from integers on
//! the level's whole-world grid (`lon = g·π / (64·2^z) − π`), so two
//! neighbours compute their shared edge from the same integers and hold
//! the same bits.

use crate::PlanetError;
use crate::chunk::Layers;
use crate::geo::{Dir, canonical};
use crate::{Planet, Samples};
use std::f64::consts::{FRAC_PI_2, PI};

/// Cells along a geographic tile's side.
pub const GEO_TILE_CELLS: u32 = 64;
/// Samples along a geographic tile's side (edges included).
pub const GEO_TILE_SAMPLES: u32 = GEO_TILE_CELLS + 1;
/// Deepest level any planet serves.
const LEVEL_LIMIT: u32 = 24;

/// One geographic tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GeoTile {
    /// Level: `2^(z+1)` columns and `2^z` rows.
    pub z: u32,
    /// Column from the antimeridian eastwards.
    pub x: u32,
    /// Row from the south pole northwards.
    pub y: u32,
}

/// A geographic tile's bounds in radians.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeoRect {
    /// Western longitude.
    pub west: f64,
    /// Southern latitude.
    pub south: f64,
    /// Eastern longitude.
    pub east: f64,
    /// Northern latitude.
    pub north: f64,
}

/// The deepest geographic level of a planet: the first whose sample
/// spacing along the equator reaches the planet's pixel size.
pub fn geo_max_level(radius: f64, pixel: f64) -> u32 {
    let mut z = 0;
    while z < LEVEL_LIMIT && geo_spacing(radius, z) > pixel {
        z += 1;
    }
    z
}

/// Sample spacing along the equator at level `z`, metres.
pub fn geo_spacing(radius: f64, z: u32) -> f64 {
    PI * radius / (f64::from(GEO_TILE_CELLS) * (1u64 << z.min(LEVEL_LIMIT)) as f64)
}

impl GeoTile {
    /// Checks the address against the planet's deepest level `max_z`,
    /// naming the part that is out of range.
    pub fn validate(&self, max_z: u32) -> Result<(), PlanetError> {
        if self.z > max_z {
            return Err(PlanetError::address(
                "z",
                self.z,
                format!("in 0..={max_z} for this planet"),
            ));
        }
        let rows = 1u64 << self.z;
        if u64::from(self.x) >= 2 * rows {
            return Err(PlanetError::address(
                "x",
                self.x,
                format!("in 0..{} at level {}", 2 * rows, self.z),
            ));
        }
        if u64::from(self.y) >= rows {
            return Err(PlanetError::address(
                "y",
                self.y,
                format!("in 0..{rows} at level {}", self.z),
            ));
        }
        Ok(())
    }

    /// Radians per grid step at this level (both axes).
    fn step(&self) -> f64 {
        PI / (f64::from(GEO_TILE_CELLS) * (1u64 << self.z) as f64)
    }

    /// The tile's bounds in radians.
    pub fn rect(&self) -> GeoRect {
        let step = self.step();
        let cells = i64::from(GEO_TILE_CELLS);
        let lon = |g: i64| g as f64 * step - PI;
        let lat = |g: i64| g as f64 * step - FRAC_PI_2;
        GeoRect {
            west: lon(i64::from(self.x) * cells),
            east: lon((i64::from(self.x) + 1) * cells),
            south: lat(i64::from(self.y) * cells),
            north: lat((i64::from(self.y) + 1) * cells),
        }
    }

    /// The directions of the tile's samples, row-major, row 0 the northern
    /// edge and column 0 the western one.
    pub fn directions(&self) -> Vec<Dir> {
        let step = self.step();
        let cells = i64::from(GEO_TILE_CELLS);
        let n = i64::from(GEO_TILE_SAMPLES);
        let lons: Vec<(f64, f64)> = (0..n)
            .map(|i| {
                let lon = (i64::from(self.x) * cells + i) as f64 * step - PI;
                (libm::cos(lon), libm::sin(lon))
            })
            .collect();
        let mut out = Vec::with_capacity((n * n) as usize);
        for row in 0..n {
            let g = (i64::from(self.y) + 1) * cells - row;
            let lat = g as f64 * step - FRAC_PI_2;
            let (c, s) = (libm::cos(lat), libm::sin(lat));
            out.extend(lons.iter().map(|&(cl, sl)| canonical([c * cl, c * sl, s])));
        }
        out
    }
}

impl Planet {
    /// The deepest geographic level this planet serves.
    pub fn geo_max_level(&self) -> u32 {
        geo_max_level(self.params().radius, self.space().metres_per_sample(0))
    }

    /// Samples one geographic tile. Octaves are kept down to the level's
    /// equatorial spacing, never finer than the planet's pixel size.
    pub fn sample_geo_tile(&self, tile: &GeoTile, layers: Layers) -> Result<Samples, PlanetError> {
        tile.validate(self.geo_max_level())?;
        self.sample_tile_dirs(
            &tile.directions(),
            geo_spacing(self.params().radius, tile.z),
            layers,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_zero_is_two_hemispheres() {
        let w = GeoTile { z: 0, x: 0, y: 0 }.rect();
        let e = GeoTile { z: 0, x: 1, y: 0 }.rect();
        assert_eq!((w.west, w.east, e.east), (-PI, 0.0, PI));
        assert_eq!((w.south, w.north), (-FRAC_PI_2, FRAC_PI_2));
    }

    #[test]
    fn neighbours_share_edges_bit_for_bit() {
        let n = GEO_TILE_SAMPLES as usize;
        let a = GeoTile { z: 3, x: 5, y: 2 }.directions();
        let east = GeoTile { z: 3, x: 6, y: 2 }.directions();
        let north = GeoTile { z: 3, x: 5, y: 3 }.directions();
        for k in 0..n {
            assert_eq!(a[k * n + n - 1], east[k * n], "east edge {k}");
            assert_eq!(a[k], north[(n - 1) * n + k], "north edge {k}");
        }
    }

    #[test]
    fn earth_reaches_its_pixel_at_level_18() {
        assert_eq!(geo_max_level(6_371_000.0, 1.497), 18);
    }

    #[test]
    fn bad_addresses_are_named() {
        for (t, what) in [
            (GeoTile { z: 19, x: 0, y: 0 }, "z"),
            (GeoTile { z: 1, x: 4, y: 0 }, "x"),
            (GeoTile { z: 1, x: 0, y: 2 }, "y"),
        ] {
            match t.validate(18) {
                Err(PlanetError::Address { what: w, .. }) => assert_eq!(w, what),
                other => panic!("{t:?}: {other:?}"),
            }
        }
    }
}
