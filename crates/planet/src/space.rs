//! PlanetSpace and ChunkSpace: how many samples go around the planet, how
//! each projection's map is cut into 256 × 256 chunks at every level of
//! detail, and which direction every sample of every chunk looks along.
//!
//! # The sample grid
//! Every projection's map is one or more square-celled sheets: the
//! equirectangular sheet, the octahedral square, or the six cube faces.
//! At level of detail (lod) 0 a sheet has `E` cells across; at lod `z`
//! sample `g` (counted from the sheet's left or top edge) lies on lod-0
//! grid line `X = g · 2^z`, at map coordinate `u = (2X − E) / E` (see
//! [`crate::projection`]). Chunk `c` owns samples `256·c .. 256·c + 256`;
//! with shared edges it also gets sample `256·c + 256`, which is sample 0
//! of the next chunk. Both chunks compute that sample from the same
//! integer `X` with the same functions, so they hold the same bits.
//!
//! # PlanetSpace
//! `N = 2πR / pixel_size` samples go around the equator. So that every
//! level tiles every sheet exactly, `N` is rounded to `1024 · C` with `C`
//! (the chunks along a quarter of the equator) a multiple of `2^L`, where
//! `L` is the largest level that leaves at least 32 chunks per cube face
//! edge: the rounding changes the pixel size by at most 1/64 (1.6 %).
//! Levels `0 ..= L` ([`PlanetSpace::max_lod`]) nest exactly: a lod-`z+1`
//! chunk covers 2 × 2 lod-`z` chunks, and every sheet edge is a chunk edge.
//! For an Earth-sized planet at 1.5 m, `N` = 26,738,688 (pixel 1.497 m),
//! `C` = 26,112 and `L` = 9.
//!
//! Sheet sizes in lod-0 cells: equirectangular `4·256·C × 2·256·C`, each
//! cube face `256·C × 256·C`, octahedral `2·256·C × 2·256·C`. All three
//! have `N` samples along the equator. Cube chunks are addressed in a
//! 3 × 2 atlas of faces (see [`CubeFace`]).
//!
//! Everything is integer until the one division that makes `u`, and f64
//! afterwards: exact for Earth at 1.5 m, where `E` is about 2^25.
//!
//! # NoiseSpace
//! The planet function never sees map coordinates: a sample's direction
//! times the radius, a point in metres from the planet's centre, is what
//! every noise layer reads (each with its own frequency in cycles per
//! metre, see [`crate::layers`]). So the function is continuous over the
//! whole sphere and every projection samples the same planet.

use crate::geo::{Dir, LatLon};
use crate::projection::{Axis, CubeFace, Projection, grid_coord};
use crate::{PlanetError, PlanetParams};
use serde::{Deserialize, Serialize};

/// Samples along a chunk's side (without the shared edge).
pub const CHUNK_SIZE: u32 = 256;

/// Fewest chunks along a cube face's edge at the coarsest aligned level.
const MIN_TOP_CHUNKS: f64 = 32.0;

/// The address of one chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ChunkAddress {
    /// The map the chunk is cut from.
    pub projection: Projection,
    /// Level of detail: sample spacing `2^lod` lod-0 cells.
    pub lod: u32,
    /// Chunk column (in the cube atlas for cube projections).
    pub cx: u32,
    /// Chunk row (in the cube atlas for cube projections).
    pub cy: u32,
}

/// A chunk and a fractional sample position inside it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Located {
    /// The chunk that holds the point.
    pub address: ChunkAddress,
    /// Sample column inside the chunk, `0 ..= 256` (fractional).
    pub i: f64,
    /// Sample row inside the chunk, `0 ..= 256` (fractional).
    pub j: f64,
}

/// The planet's sample grids (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanetSpace {
    radius: f64,
    quarter_chunks: u64,
    max_lod: u32,
}

impl PlanetSpace {
    /// The grids of a (validated) planet.
    pub fn new(params: &PlanetParams) -> PlanetSpace {
        let ideal = 2.0 * std::f64::consts::PI * params.radius
            / (4.0 * CHUNK_SIZE as f64 * params.pixel_size);
        let mut max_lod = 0;
        while max_lod < 30 && ideal / f64::from(1u32 << (max_lod + 1)) >= MIN_TOP_CHUNKS {
            max_lod += 1;
        }
        let unit = 1u64 << max_lod;
        let quarter_chunks = ((ideal / unit as f64).round() as u64).max(1) * unit;
        PlanetSpace {
            radius: params.radius,
            quarter_chunks,
            max_lod,
        }
    }

    /// The planet's radius in metres.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// `N`: samples around the equator at lod 0.
    pub fn equator_samples(&self) -> u64 {
        4 * CHUNK_SIZE as u64 * self.quarter_chunks
    }

    /// Chunks along a quarter of the equator (a cube face's edge) at lod 0.
    pub fn quarter_chunks(&self) -> u64 {
        self.quarter_chunks
    }

    /// The coarsest level that tiles every sheet exactly.
    pub fn max_lod(&self) -> u32 {
        self.max_lod
    }

    /// Nominal sample spacing at `lod` in metres: the spacing along the
    /// equator (the real spacing varies over a map; see
    /// [`crate::distortion`]).
    pub fn metres_per_sample(&self, lod: u32) -> f64 {
        2.0 * std::f64::consts::PI * self.radius / self.equator_samples() as f64
            * f64::from(1u32 << lod.min(31))
    }

    /// Lod-0 cells across one sheet (`(width, height)`; a cube face for
    /// cube projections).
    pub fn sheet_cells(&self, projection: Projection) -> (u64, u64) {
        let c = CHUNK_SIZE as u64 * self.quarter_chunks;
        match projection {
            Projection::Equirectangular => (4 * c, 2 * c),
            Projection::Cube | Projection::TangentCube => (c, c),
            Projection::Octahedral => (2 * c, 2 * c),
        }
    }

    /// Chunks per sheet along x and y at `lod` (a cube face for cube projections).
    fn sheet_chunks(&self, projection: Projection, lod: u32) -> (u64, u64) {
        let (w, h) = self.sheet_cells(projection);
        let span = (CHUNK_SIZE as u64) << lod;
        (w / span, h / span)
    }

    /// Chunks along x and y of the whole map at `lod` (the 3 × 2 atlas for
    /// cube projections). `lod` must be at most [`PlanetSpace::max_lod`].
    pub fn chunk_grid(&self, projection: Projection, lod: u32) -> (u64, u64) {
        let (w, h) = self.sheet_chunks(projection, lod.min(self.max_lod));
        if projection.has_faces() {
            (3 * w, 2 * h)
        } else {
            (w, h)
        }
    }

    /// How many chunks cover the map at `lod`.
    pub fn chunk_count(&self, projection: Projection, lod: u32) -> u64 {
        let (w, h) = self.chunk_grid(projection, lod);
        w * h
    }

    /// Checks that `a` is on the map, naming the coordinate that is not.
    pub fn check(&self, a: &ChunkAddress) -> Result<(), PlanetError> {
        if a.lod > self.max_lod {
            return Err(PlanetError::address(
                "lod",
                a.lod,
                format!("in 0..={} for this planet", self.max_lod),
            ));
        }
        let (w, h) = self.chunk_grid(a.projection, a.lod);
        if u64::from(a.cx) >= w {
            return Err(PlanetError::address(
                "cx",
                a.cx,
                format!("in 0..{w} for {} at lod {}", a.projection, a.lod),
            ));
        }
        if u64::from(a.cy) >= h {
            return Err(PlanetError::address(
                "cy",
                a.cy,
                format!("in 0..{h} for {} at lod {}", a.projection, a.lod),
            ));
        }
        Ok(())
    }

    /// The cube face of a chunk (None for projections without faces) and
    /// the chunk's column and row inside its sheet.
    pub fn face_of(&self, a: &ChunkAddress) -> (Option<CubeFace>, u64, u64) {
        if !a.projection.has_faces() {
            return (None, u64::from(a.cx), u64::from(a.cy));
        }
        let (per, _) = self.sheet_chunks(a.projection, a.lod);
        let (cx, cy) = (u64::from(a.cx), u64::from(a.cy));
        let face = CubeFace::from_index(((cx / per) + 3 * (cy / per)) as usize);
        (face, cx % per, cy % per)
    }

    /// The axis values of `count` consecutive columns and rows of chunk `a`
    /// (unchecked address).
    pub(crate) fn chunk_axes(
        &self,
        a: &ChunkAddress,
        count: u32,
    ) -> (CubeFace, Vec<Axis>, Vec<Axis>) {
        let (face, lx, ly) = self.face_of(a);
        let (w, h) = self.sheet_cells(a.projection);
        let wrap = a.projection == Projection::Equirectangular;
        let axis = |local: u64, extent: u64, column: bool| -> Vec<Axis> {
            (0..u64::from(count))
                .map(|k| {
                    let mut x = ((local * CHUNK_SIZE as u64) + k) << a.lod;
                    if wrap && column {
                        x %= extent;
                    }
                    let s = grid_coord(x as i64, extent as i64);
                    if column {
                        a.projection.column_axis(s)
                    } else {
                        a.projection.row_axis(s)
                    }
                })
                .collect()
        };
        (
            face.unwrap_or(CubeFace::PosX),
            axis(lx, w, true),
            axis(ly, h, false),
        )
    }

    /// The direction of sample `(i, j)` of chunk `a`, `i, j ∈ 0..=256`.
    /// Exactly the direction [`crate::Planet::sample_chunk`] uses.
    pub fn sample_direction(&self, a: &ChunkAddress, i: u32, j: u32) -> Result<Dir, PlanetError> {
        self.check(a)?;
        for (what, v) in [("i", i), ("j", j)] {
            if v > CHUNK_SIZE {
                return Err(PlanetError::address(what, v, "in 0..=256"));
            }
        }
        let (face, cols, rows) = self.chunk_axes(a, CHUNK_SIZE + 1);
        Ok(a.projection
            .combine(face, cols[i as usize], rows[j as usize]))
    }

    /// The directions of all samples of chunk `a`, row-major, `size × size`
    /// (`size` 256, or 257 with the shared edge).
    pub fn chunk_directions(&self, a: &ChunkAddress, size: u32) -> Result<Vec<Dir>, PlanetError> {
        self.check(a)?;
        if size != CHUNK_SIZE && size != CHUNK_SIZE + 1 {
            return Err(PlanetError::address("size", size, "256 or 257"));
        }
        Ok(self.directions_unchecked(a, size))
    }

    pub(crate) fn directions_unchecked(&self, a: &ChunkAddress, size: u32) -> Vec<Dir> {
        let (face, cols, rows) = self.chunk_axes(a, size);
        let mut out = Vec::with_capacity(cols.len() * rows.len());
        for &row in &rows {
            out.extend(cols.iter().map(|&col| a.projection.combine(face, col, row)));
        }
        out
    }

    /// The chunk at `lod` holding the position, and where inside it.
    /// A point exactly on a chunk edge belongs to the chunk right of / below
    /// the edge, except on the map's far edges.
    pub fn locate(
        &self,
        projection: Projection,
        lod: u32,
        at: LatLon,
    ) -> Result<Located, PlanetError> {
        at.validate()?;
        if lod > self.max_lod {
            return Err(PlanetError::address(
                "lod",
                lod,
                format!("in 0..={} for this planet", self.max_lod),
            ));
        }
        let m = projection.forward(at.to_dir());
        let (w, h) = self.sheet_cells(projection);
        let (nx, ny) = self.sheet_chunks(projection, lod);
        let span = f64::from(CHUNK_SIZE) * f64::from(1u32 << lod);
        let place = |s: f64, extent: u64, n: u64| {
            let cells = (s + 1.0) * 0.5 * extent as f64;
            let c = ((cells / span).floor() as u64).min(n - 1);
            (
                c,
                cells / f64::from(1u32 << lod) - (c * CHUNK_SIZE as u64) as f64,
            )
        };
        let (cx, i) = place(m.u, w, nx);
        let (cy, j) = place(m.v, h, ny);
        let (cx, cy) = match m.face {
            Some(f) => (
                cx + nx * (f.index() as u64 % 3),
                cy + ny * (f.index() as u64 / 3),
            ),
            None => (cx, cy),
        };
        let address = ChunkAddress {
            projection,
            lod,
            cx: cx as u32,
            cy: cy as u32,
        };
        Ok(Located { address, i, j })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::angle_between;

    fn earth() -> PlanetSpace {
        PlanetSpace::new(&PlanetParams::default())
    }

    #[test]
    fn earth_at_one_and_a_half_metres() {
        let s = earth();
        assert_eq!(s.quarter_chunks(), 26_112);
        assert_eq!(s.max_lod(), 9);
        assert_eq!(s.equator_samples(), 26_738_688);
        let p = s.metres_per_sample(0);
        assert!((p - 1.5).abs() / 1.5 < 1.0 / 64.0, "{p}");
        assert_eq!(s.metres_per_sample(3), 8.0 * p);
        assert_eq!(
            s.chunk_grid(Projection::Equirectangular, 0),
            (104_448, 52_224)
        );
        assert_eq!(s.chunk_grid(Projection::TangentCube, 9), (153, 102));
        assert_eq!(s.chunk_count(Projection::Octahedral, 9), 102 * 102);
    }

    #[test]
    fn rounding_stays_within_a_sixty_fourth() {
        for (radius, pixel) in [
            (6_371_000.0, 1.5),
            (1.0e6, 7.0),
            (2.0e5, 10.0),
            (3.0e3, 1.0),
            (1.0e8, 0.01),
        ] {
            let p = PlanetParams {
                radius,
                pixel_size: pixel,
                ..PlanetParams::default()
            };
            p.validate().unwrap();
            let s = PlanetSpace::new(&p);
            let err = (s.metres_per_sample(0) - pixel).abs() / pixel;
            let ideal = 2.0 * std::f64::consts::PI * radius / (1024.0 * pixel);
            if ideal >= 32.0 {
                assert!(err <= 1.0 / 64.0, "{radius} {pixel}: {err}");
            }
            assert_eq!(s.quarter_chunks() % (1 << s.max_lod()), 0);
        }
    }

    #[test]
    fn bad_addresses_are_named() {
        let s = earth();
        let a = ChunkAddress {
            projection: Projection::Cube,
            lod: 10,
            cx: 0,
            cy: 0,
        };
        assert!(s.check(&a).unwrap_err().to_string().contains("lod"));
        let a = ChunkAddress {
            projection: Projection::Cube,
            lod: 9,
            cx: 153,
            cy: 0,
        };
        assert!(s.check(&a).unwrap_err().to_string().contains("cx"));
        let a = ChunkAddress {
            projection: Projection::Octahedral,
            lod: 9,
            cx: 0,
            cy: 102,
        };
        assert!(s.check(&a).unwrap_err().to_string().contains("cy"));
        let e = s
            .locate(
                Projection::Cube,
                0,
                LatLon {
                    lat: 100.0,
                    lon: 0.0,
                },
            )
            .unwrap_err();
        assert!(e.to_string().contains("lat"));
    }

    #[test]
    fn locate_finds_the_sample_that_looks_at_the_point() {
        let s = earth();
        let spots = [
            (35.3606, 138.7274),
            (-33.9, 18.4),
            (89.99, 10.0),
            (-89.5, -170.0),
            (0.0, 180.0),
            (0.0, 0.0),
        ];
        for p in Projection::ALL {
            for lod in [0, 4, 9] {
                for (lat, lon) in spots {
                    let at = LatLon { lat, lon };
                    let loc = s.locate(p, lod, at).unwrap();
                    s.check(&loc.address).unwrap();
                    assert!(
                        (0.0..=256.0).contains(&loc.i) && (0.0..=256.0).contains(&loc.j),
                        "{loc:?}"
                    );
                    let d = s
                        .sample_direction(&loc.address, loc.i.round() as u32, loc.j.round() as u32)
                        .unwrap();
                    // Within one sample spacing (stretched by at most ~6 near equirectangular poles).
                    let metres = angle_between(d, at.to_dir()) * s.radius();
                    let limit = s.metres_per_sample(lod)
                        * if p == Projection::Equirectangular {
                            1.0
                        } else {
                            2.0
                        };
                    assert!(
                        metres <= limit,
                        "{p} lod {lod} {at:?}: {metres} m off, limit {limit}"
                    );
                }
            }
        }
    }

    #[test]
    fn cube_atlas_places_faces_in_two_rows_of_three() {
        let s = earth();
        let per = s.quarter_chunks() as u32;
        for f in CubeFace::ALL {
            let i = f.index() as u32;
            let a = ChunkAddress {
                projection: Projection::TangentCube,
                lod: 0,
                cx: (i % 3) * per + 5,
                cy: (i / 3) * per + 7,
            };
            assert_eq!(s.face_of(&a), (Some(f), 5, 7));
        }
    }
}
