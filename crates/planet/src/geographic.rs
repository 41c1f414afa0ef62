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

impl GeoTile {
    /// The directions of the tile's samples with a one-sample border: the
    /// `(GEO_TILE_SAMPLES + 2)²` grid that reaches one step beyond every
    /// edge, row-major, row 0 one step north of the northern edge and
    /// column 0 one step west of the western one. Each border sample is
    /// the neighbouring tile's own sample (the same integers), so central
    /// differences at an edge see what the neighbour sees:
    ///
    /// - every column wraps into the level's `0..columns`, so the
    ///   antimeridian is one set of directions: the last tile's eastern
    ///   edge takes the first tile's western-edge directions (which
    ///   [`GeoTile::directions`] computes from `+π` and `−π`, a few ulps
    ///   apart), a border one step west of column 0 is the last tile's
    ///   column 63 and one east of the last tile's edge the first tile's
    ///   column 1; apart from that eastern edge the inside is
    ///   [`GeoTile::directions`] bit for bit;
    /// - past a pole the row folds back over it onto the meridian half a
    ///   turn away (one step beyond the north pole along a meridian is the
    ///   sample one step south of it on the opposite meridian).
    pub fn directions_with_border(&self) -> Vec<Dir> {
        let step = self.step();
        let cells = i64::from(GEO_TILE_CELLS);
        let n = i64::from(GEO_TILE_SAMPLES);
        let columns = 2 * cells * (1i64 << self.z);
        let rows = cells * (1i64 << self.z);
        let dir = |g_lat: i64, g_lon: i64| {
            // Fold a row past a pole back over it, half a turn around.
            let (g_lat, g_lon) = if g_lat < 0 {
                (-g_lat, g_lon + columns / 2)
            } else if g_lat > rows {
                (2 * rows - g_lat, g_lon + columns / 2)
            } else {
                (g_lat, g_lon)
            };
            // One integer per meridian: the antimeridian is column 0.
            let g_lon = g_lon.rem_euclid(columns);
            let lon = g_lon as f64 * step - PI;
            let lat = g_lat as f64 * step - FRAC_PI_2;
            let (c, s) = (libm::cos(lat), libm::sin(lat));
            canonical([c * libm::cos(lon), c * libm::sin(lon), s])
        };
        let mut out = Vec::with_capacity(((n + 2) * (n + 2)) as usize);
        for row in -1..=n {
            let g_lat = (i64::from(self.y) + 1) * cells - row;
            out.extend((-1..=n).map(|i| dir(g_lat, i64::from(self.x) * cells + i)));
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

    /// Samples one geographic tile with a one-sample border
    /// ([`GeoTile::directions_with_border`]): `(GEO_TILE_SAMPLES + 2)²`
    /// samples at the tile's spacing, whose inside is
    /// [`Planet::sample_geo_tile`]'s bit for bit.
    pub fn sample_geo_tile_with_border(
        &self,
        tile: &GeoTile,
        layers: Layers,
    ) -> Result<Samples, PlanetError> {
        tile.validate(self.geo_max_level())?;
        self.sample_tile_dirs(
            &tile.directions_with_border(),
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
    fn the_border_is_the_neighbours_samples() {
        let n = GEO_TILE_SAMPLES as usize;
        let b = n + 2;
        let z = 3;
        let last_x = (2u32 << z) - 1;
        let top = (1u32 << z) - 1;
        let dirs = |x, y| GeoTile { z, x, y }.directions();
        // A tile in the middle, one on the antimeridian at each end, one
        // on each pole.
        for (x, y) in [(5, 2), (0, 3), (last_x, 4), (2, top), (last_x, 0)] {
            let t = GeoTile { z, x, y };
            let with = t.directions_with_border();
            assert_eq!(with.len(), b * b);
            let own = t.directions();
            let west = dirs(if x == 0 { last_x } else { x - 1 }, y);
            let east = dirs(if x == last_x { 0 } else { x + 1 }, y);
            for r in 0..n {
                for c in 0..n {
                    let got = with[(r + 1) * b + c + 1];
                    if x == last_x && c == n - 1 {
                        // The antimeridian: the first tile's western edge.
                        assert_eq!(got, east[r * n], "{t:?} antimeridian {r}");
                        assert!((got[1] - own[r * n + c][1]).abs() < 1e-15);
                    } else {
                        assert_eq!(got, own[r * n + c], "{t:?} inside {r} {c}");
                    }
                }
            }
            for r in 0..n {
                assert_eq!(with[(r + 1) * b], west[r * n + n - 2], "{t:?} west {r}");
                assert_eq!(with[(r + 1) * b + n + 1], east[r * n + 1], "{t:?} east {r}");
            }
            // Past a pole: the opposite meridian's sample one step from
            // the pole, in the tile half a turn around.
            let opposite = (x + (1 << z)) % (2 << z);
            // The tile's column c, or on the antimeridian the first tile's
            // column 0, in row `row` of the tiles at `y`.
            let column = |y, row: usize, c: usize| {
                if x == last_x && c == n - 1 {
                    dirs(0, y)[row * n]
                } else {
                    dirs(x, y)[row * n + c]
                }
            };
            for c in 0..n {
                let (north, south) = (with[c + 1], with[(n + 1) * b + c + 1]);
                if y == top {
                    let across = dirs(opposite, y);
                    assert_eq!(north, across[n + c], "{t:?} over the north pole {c}");
                } else {
                    assert_eq!(north, column(y + 1, n - 2, c), "{t:?} north {c}");
                }
                if y == 0 {
                    let across = dirs(opposite, y);
                    assert_eq!(
                        south,
                        across[(n - 2) * n + c],
                        "{t:?} over the south pole {c}"
                    );
                } else {
                    assert_eq!(south, column(y - 1, 1, c), "{t:?} south {c}");
                }
            }
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
