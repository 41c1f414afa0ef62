//! The level pyramid: the whole sphere from one tile per cube face down to
//! the planet's finest spacing, for clients that fly from orbit to the
//! ground (the viewer's globe).
//!
//! Tile `(face, level, x, y)` cuts its (tangent) cube face into
//! `2^level × 2^level` tiles of 256 × 256 cells and holds the 257 × 257
//! samples at the cell corners, edges included. Sample `(i, j)` lies on
//! face grid line `g = 256·x + i` of `E = 256·2^level`, at
//! `a = warp(2g/E − 1)` — a dyadic fraction, so the division is exact and
//! a neighbour (same level, any face) computes the same direction from
//! its own integers, bit for bit (see [`crate::projection::CubeFace`]).
//!
//! The pyramid's grid is its own: the chunk grid's faces have `256·C`
//! cells with `C` a multiple of 51 on Earth, which does not halve down to
//! one tile per face. Octaves finer than a level's spacing are dropped
//! (the same rule as chunks and web tiles), so a coarse tile costs about
//! what a fine one does.

use crate::PlanetError;
use crate::chunk::Layers;
use crate::geo::Dir;
use crate::projection::{CubeFace, Projection, grid_coord};
use crate::space::PlanetSpace;
use crate::{Planet, Samples};

/// Cells along a tile's side; a tile holds `TILE_CELLS + 1` samples per side.
pub const TILE_CELLS: u32 = 256;
/// Samples along a tile's side (the shared edge included).
pub const TILE_SAMPLES: u32 = TILE_CELLS + 1;
/// Deepest level any planet's pyramid may have (2^24 tiles per face edge).
const LEVEL_LIMIT: u32 = 24;

/// One tile of the pyramid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FaceTile {
    /// The cube face.
    pub face: CubeFace,
    /// 0 (one tile per face) ..= the planet's deepest level.
    pub level: u32,
    /// Column, `0..2^level`, along the face's `right` axis.
    pub x: u32,
    /// Row, `0..2^level`, along the face's `down` axis.
    pub y: u32,
}

impl FaceTile {
    /// A tile from the numbers of a request, each checked and named when
    /// out of range: `face` is the atlas index 0..=5 (`+x +y −x −y +z −z`).
    pub fn new(
        space: &PlanetSpace,
        face: u32,
        level: u32,
        x: u32,
        y: u32,
    ) -> Result<FaceTile, PlanetError> {
        let face = CubeFace::from_index(face as usize)
            .ok_or_else(|| PlanetError::address("face", face, "in 0..=5 (+x +y −x −y +z −z)"))?;
        let max = space.pyramid_max_level();
        if level > max {
            return Err(PlanetError::address(
                "level",
                level,
                format!("in 0..={max} for this planet"),
            ));
        }
        let n = 1u64 << level;
        for (what, v) in [("x", x), ("y", y)] {
            if u64::from(v) >= n {
                return Err(PlanetError::address(
                    what,
                    v,
                    format!("in 0..{n} at level {level}"),
                ));
            }
        }
        Ok(FaceTile { face, level, x, y })
    }

    /// Face grid cells across the face at this level.
    fn extent(&self) -> i64 {
        i64::from(TILE_CELLS) << self.level
    }

    /// The directions of the tile's 257 × 257 samples, row-major (row 0 on
    /// the side towards the face's `−down`).
    pub fn directions(&self) -> Vec<Dir> {
        let e = self.extent();
        let axis = |tile: u32| -> Vec<f64> {
            (0..i64::from(TILE_SAMPLES))
                .map(|k| {
                    let g = i64::from(tile) * i64::from(TILE_CELLS) + k;
                    match Projection::TangentCube.column_axis(grid_coord(g, e)) {
                        crate::projection::Axis::Linear(a) => a,
                        // The tangent cube's axes are always linear.
                        crate::projection::Axis::Angle { .. } => 0.0,
                    }
                })
                .collect()
        };
        let (cols, rows) = (axis(self.x), axis(self.y));
        let mut out = Vec::with_capacity(cols.len() * rows.len());
        for &b in &rows {
            out.extend(cols.iter().map(|&a| self.face.combine(a, b)));
        }
        out
    }

    /// The tile of `level` that holds direction `d` (a point on a tile
    /// edge belongs to the tile right of / below it, except on the face's
    /// far edges).
    pub fn at(d: Dir, level: u32) -> FaceTile {
        let m = Projection::TangentCube.forward(d);
        let n = 1u64 << level.min(LEVEL_LIMIT);
        let index =
            |s: f64| (((s + 1.0) * 0.5 * n as f64).floor().max(0.0) as u64).min(n - 1) as u32;
        FaceTile {
            face: m.face.unwrap_or(CubeFace::PosX),
            level: level.min(LEVEL_LIMIT),
            x: index(m.u),
            y: index(m.v),
        }
    }

    /// The four tiles one level finer that cover this one (row-major).
    pub fn children(&self) -> [FaceTile; 4] {
        [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(dx, dy)| FaceTile {
            face: self.face,
            level: self.level + 1,
            x: 2 * self.x + dx,
            y: 2 * self.y + dy,
        })
    }
}

impl PlanetSpace {
    /// Nominal sample spacing of pyramid `level` in metres: a face edge's
    /// arc (a quarter of a great circle) over its samples. The tangent
    /// warp keeps the real spacing within about 1.4× of it over a face.
    pub fn pyramid_spacing(&self, level: u32) -> f64 {
        std::f64::consts::FRAC_PI_2 * self.radius()
            / (f64::from(TILE_CELLS) * (1u64 << level.min(LEVEL_LIMIT)) as f64)
    }

    /// The deepest pyramid level: the first whose spacing reaches the
    /// planet's pixel size (deeper levels would only repeat samples).
    pub fn pyramid_max_level(&self) -> u32 {
        let pixel = self.metres_per_sample(0);
        let mut level = 0;
        while level < LEVEL_LIMIT && self.pyramid_spacing(level) > pixel {
            level += 1;
        }
        level
    }
}

impl Planet {
    /// Samples one pyramid tile (any layers). Octaves are kept down to the
    /// level's spacing, never finer than the planet's pixel size.
    pub fn sample_face_tile(
        &self,
        tile: &FaceTile,
        layers: Layers,
    ) -> Result<Samples, PlanetError> {
        self.sample_face_tile_cancellable(tile, layers, &|| true)
    }

    /// [`Planet::sample_face_tile`], asking `keep_going` between blocks of
    /// samples (a few thousand each): [`PlanetError::Cancelled`] once it
    /// answers `false`. What it answers changes no sample.
    pub fn sample_face_tile_cancellable(
        &self,
        tile: &FaceTile,
        layers: Layers,
        keep_going: &dyn Fn() -> bool,
    ) -> Result<Samples, PlanetError> {
        let checked = FaceTile::new(
            self.space(),
            tile.face.index() as u32,
            tile.level,
            tile.x,
            tile.y,
        )?;
        self.sample_tile_dirs_until(
            &checked.directions(),
            self.space().pyramid_spacing(checked.level),
            layers,
            keep_going,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PlanetParams;
    use std::collections::BTreeSet;

    fn earth() -> Planet {
        Planet::new(PlanetParams::default()).expect("default planet")
    }

    fn key(d: Dir) -> [u64; 3] {
        d.map(f64::to_bits)
    }

    #[test]
    fn earth_goes_from_one_tile_per_face_to_its_pixel() {
        let p = earth();
        let s = p.space();
        assert_eq!(s.pyramid_max_level(), 15);
        assert!(s.pyramid_spacing(15) <= s.metres_per_sample(0));
        assert!(s.pyramid_spacing(14) > s.metres_per_sample(0));
        assert!((s.pyramid_spacing(0) - 39_092.0).abs() < 10.0);
    }

    #[test]
    fn neighbours_share_their_edges_bit_for_bit_across_faces() {
        // Every direction of every tile at level 1: if two tiles' edge
        // samples differed by one bit anywhere (within or across faces),
        // the set would hold more than the cube grid's 6·n² + 2 points.
        let s = *earth().space();
        let mut all = BTreeSet::new();
        for face in 0..6 {
            for y in 0..2 {
                for x in 0..2 {
                    let t = FaceTile::new(&s, face, 1, x, y).expect("tile");
                    all.extend(t.directions().into_iter().map(key));
                }
            }
        }
        let n = 2 * TILE_CELLS as usize;
        assert_eq!(all.len(), 6 * n * n + 2);
    }

    #[test]
    fn a_shared_edge_has_the_same_samples_on_both_faces() {
        // +x's right edge is +y's left edge: same directions, same heights.
        let p = earth();
        let s = *p.space();
        let a = FaceTile::new(&s, 0, 0, 0, 0).expect("+x");
        let b = FaceTile::new(&s, 1, 0, 0, 0).expect("+y");
        let (da, db) = (a.directions(), b.directions());
        let ha = p.sample_face_tile(&a, Layers::HEIGHT).expect("a").height;
        let hb = p.sample_face_tile(&b, Layers::HEIGHT).expect("b").height;
        let n = TILE_SAMPLES as usize;
        for j in 0..n {
            let (ia, ib) = (j * n + n - 1, j * n);
            assert_eq!(key(da[ia]), key(db[ib]), "row {j}");
            assert_eq!(ha[ia].to_bits(), hb[ib].to_bits(), "row {j}");
        }
    }

    #[test]
    fn children_nest_in_their_parent() {
        // A child's corner samples are samples of its parent.
        let s = *earth().space();
        let parent = FaceTile::new(&s, 4, 3, 5, 2).expect("tile");
        let pd: BTreeSet<_> = parent.directions().into_iter().map(key).collect();
        let n = TILE_SAMPLES as usize;
        for child in parent.children() {
            let d = child.directions();
            for (i, j) in [(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1), (128, 128)] {
                // Even child samples land on parent samples.
                assert!(pd.contains(&key(d[j * n + i])), "{child:?} ({i}, {j})");
            }
        }
    }

    #[test]
    fn the_tile_at_a_direction_holds_it() {
        let d = crate::LatLon {
            lat: 10.0,
            lon: 20.0,
        }
        .to_dir();
        for level in [0, 3, 9, 15] {
            let t = FaceTile::at(d, level);
            let dirs = t.directions();
            let n = TILE_SAMPLES as usize;
            // The direction lies inside the tile's corner cone: closer to
            // its centre sample than the corners are.
            let centre = dirs[(n / 2) * n + n / 2];
            let corner = crate::geo::angle_between(centre, dirs[0]);
            assert!(
                crate::geo::angle_between(centre, d) <= corner,
                "level {level}: {t:?}"
            );
        }
    }

    #[test]
    fn bad_addresses_are_named() {
        let s = *earth().space();
        for (args, what) in [
            ((6, 0, 0, 0), "face"),
            ((0, 16, 0, 0), "level"),
            ((0, 2, 4, 0), "x"),
            ((0, 2, 0, 4), "y"),
        ] {
            match FaceTile::new(&s, args.0, args.1, args.2, args.3) {
                Err(PlanetError::Address { what: w, .. }) => assert_eq!(w, what),
                other => panic!("{args:?}: {other:?}"),
            }
        }
    }
}
