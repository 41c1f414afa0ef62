//! `generate_hmap`: Hengband's heightmap by rectangular midpoint subdivision
//! in 8.8 fixed point, with every quirk of the original kept (see the
//! spec's §2 and the crate docs).

use crate::error::{DungeonError, check_range};
use crate::grid::{Pos, Rect};
use crate::random::RandomSource;

/// The "not yet set" height. A computed height can also be −1; the original
/// then treats that cell as unset (quirk Q3) and so do we, because the
/// fixtures show the consequences.
pub const UNSET: i16 = -1;

/// Smallest side `generate_hmap` accepts; smaller requests are clamped up.
pub const MIN_SIDE: i32 = 4;

/// Largest side: heights and positions were 8-bit in the original's
/// design ("254 = the biggest even size below 256"); larger requests are
/// clamped down.
pub const MAX_SIDE: i32 = 254;

/// One cell in 8.8 fixed point: steps are kept ×256 so that sides which are
/// not powers of two still subdivide evenly.
const FIXED_ONE: i32 = 256;

/// ≈ 256·√2, the original's scale for diagonal noise (only `DIAG_SIZE/16 =
/// 22` is ever used, and quirk Q1 makes that term vanish).
const DIAG_SIZE: i32 = 362;

/// Largest roughness accepted: keeps every intermediate within `i16`
/// heights with room to spare (Hengband itself uses 1..=32).
pub const MAX_ROUGHNESS: i32 = 255;

/// Largest |cutoff|: the perimeter clamp writes `cutoff + 1` into an `i16`
/// height, and nothing of a 254-cell map is ever that high.
pub const MAX_CUTOFF: i32 = 16_384;

/// The inputs of `generate_hmap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HmapArgs {
    /// The centre cell `(x0, y0)`; it is always set to height 0.
    pub centre: Pos,
    /// Requested width; clamped to `4..=254`, then rounded down to even.
    pub xsize: i32,
    /// Requested height; clamped and rounded like `xsize`.
    pub ysize: i32,
    /// Levels whose x half-step exceeds `grd` cells get independent uniform
    /// heights; finer levels are interpolated.
    pub grd: i32,
    /// Noise scale of interpolated edges; 16 is "normal".
    pub roughness: i32,
    /// Perimeter cells computed at or below it are raised to `cutoff + 1`.
    pub cutoff: i32,
}

impl HmapArgs {
    /// Checks that the arithmetic cannot overflow: roughness in
    /// `0..=MAX_ROUGHNESS`, |cutoff| ≤ `MAX_CUTOFF`, and a `grd` within
    /// `0..=MAX_SIDE` (larger values behave exactly like `MAX_SIDE`).
    pub fn validate(&self) -> Result<(), DungeonError> {
        check_range("grd", i64::from(self.grd), 0, i64::from(MAX_SIDE))?;
        check_range(
            "roughness",
            i64::from(self.roughness),
            0,
            i64::from(MAX_ROUGHNESS),
        )?;
        check_range(
            "cutoff",
            i64::from(self.cutoff),
            -i64::from(MAX_CUTOFF),
            i64::from(MAX_CUTOFF),
        )
    }

    /// The sides actually used: clamped to `4..=254` and rounded down to even.
    pub fn sides(&self) -> (i32, i32) {
        (even_side(self.xsize), even_side(self.ysize))
    }
}

fn even_side(s: i32) -> i32 {
    s.clamp(MIN_SIDE, MAX_SIDE) / 2 * 2
}

/// A heightmap over an inclusive rectangle (perimeter included), with the
/// cutoff its perimeter was clamped against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeightMap {
    rect: Rect,
    centre: Pos,
    cutoff: i32,
    heights: Vec<i16>,
}

impl HeightMap {
    /// The rectangle `centre ± size/2`, in grid coordinates.
    pub fn rect(&self) -> Rect {
        self.rect
    }

    /// The centre cell.
    pub fn centre(&self) -> Pos {
        self.centre
    }

    /// The even sides `(xsize, ysize)`: the rectangle has one cell more each way.
    pub fn sides(&self) -> (i32, i32) {
        (self.rect.width() - 1, self.rect.height() - 1)
    }

    /// `max(xsize, ysize)`: the corners' height and the range of random seeds.
    pub fn maxsize(&self) -> i32 {
        let (x, y) = self.sides();
        x.max(y)
    }

    /// The cutoff the perimeter was clamped against.
    pub fn cutoff(&self) -> i32 {
        self.cutoff
    }

    /// Heights row-major over the rectangle: index `(y-ymin)·width + (x-xmin)`.
    pub fn heights(&self) -> &[i16] {
        &self.heights
    }

    /// The height at grid position `p`.
    ///
    /// # Panics
    /// If `p` is outside the rectangle.
    pub fn at(&self, p: Pos) -> i16 {
        assert!(self.rect.contains(p), "{p:?} outside {:?}", self.rect);
        self.heights[self.local_index(p.x - self.rect.xmin, p.y - self.rect.ymin)]
    }

    fn local_index(&self, x: i32, y: i32) -> usize {
        y as usize * self.rect.width() as usize + x as usize
    }

    fn local(&self, x: i32, y: i32) -> i32 {
        i32::from(self.heights[self.local_index(x, y)])
    }

    /// `store_height`: a perimeter cell at or below the cutoff is raised to
    /// `cutoff + 1`, so the perimeter never counts as floor.
    fn store(&mut self, x: i32, y: i32, value: i32) {
        let (xs, ys) = self.sides();
        let on_perimeter = x == 0 || y == 0 || x == xs || y == ys;
        let v = if on_perimeter && value <= self.cutoff {
            self.cutoff + 1
        } else {
            value
        };
        let i = self.local_index(x, y);
        // Validated inputs keep |v| far below i16::MAX (see MAX_ROUGHNESS).
        self.heights[i] = v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
    }

    fn is_unset(&self, x: i32, y: i32) -> bool {
        self.heights[self.local_index(x, y)] == UNSET
    }
}

/// The fixed-point state of one subdivision level.
#[derive(Clone, Copy)]
struct Level {
    xstep: i32,
    xhstep: i32,
    ystep: i32,
    yhstep: i32,
}

impl Level {
    /// Whole-cell steps (truncated), as the original caches them.
    fn cells(&self) -> (i32, i32, i32, i32) {
        (
            self.xstep / FIXED_ONE,
            self.xhstep / FIXED_ONE,
            self.ystep / FIXED_ONE,
            self.yhstep / FIXED_ONE,
        )
    }
}

/// Builds the heightmap the way Hengband's `generate_hmap` does: same
/// arithmetic, same loop order, one draw per newly set cell.
///
/// The centre is 0, the corners are `maxsize`, every other perimeter cell is
/// above the cutoff, and every cell is assigned (possibly to −1, quirk Q3).
pub fn generate_hmap<R: RandomSource + ?Sized>(
    args: &HmapArgs,
    rng: &mut R,
) -> Result<HeightMap, DungeonError> {
    args.validate()?;
    let (xsize, ysize) = args.sides();
    let rect = Rect::around(args.centre, xsize / 2, ysize / 2);
    let cells = ((xsize + 1) * (ysize + 1)) as usize;
    let mut map = HeightMap {
        rect,
        centre: args.centre,
        cutoff: args.cutoff,
        heights: vec![UNSET; cells],
    };
    let maxsize = xsize.max(ysize);
    // Corners and centre are written directly, not through the perimeter
    // clamp: with cutoff ≥ maxsize the corners are not above the cutoff.
    for (x, y) in [(0, 0), (xsize, 0), (0, ysize), (xsize, ysize)] {
        let i = map.local_index(x, y);
        map.heights[i] = maxsize as i16;
    }
    let i = map.local_index(xsize / 2, ysize / 2);
    map.heights[i] = 0;

    let (xx, yy) = (xsize * FIXED_ONE, ysize * FIXED_ONE);
    let mut level = Level {
        xstep: xx,
        xhstep: xx,
        ystep: yy,
        yhstep: yy,
    };
    while level.xhstep > FIXED_ONE || level.yhstep > FIXED_ONE {
        // Both axes halve together, even once one is below a cell.
        level = Level {
            xstep: level.xhstep,
            xhstep: level.xhstep / 2,
            ystep: level.yhstep,
            yhstep: level.yhstep / 2,
        };
        let sub = Subdivision {
            level,
            grd: args.grd,
            roughness: args.roughness,
            maxsize,
            xx,
            yy,
        };
        sub.horizontal_midpoints(&mut map, rng);
        sub.vertical_midpoints(&mut map, rng);
        sub.centres(&mut map, rng);
    }
    Ok(map)
}

/// One level's three phases.
struct Subdivision {
    level: Level,
    grd: i32,
    roughness: i32,
    maxsize: i32,
    xx: i32,
    yy: i32,
}

impl Subdivision {
    /// Levels whose x half-step exceeds `grd` are random. Phases B and C
    /// also test the *x* half-step (quirk Q2), as the original does.
    fn is_random(&self) -> bool {
        self.level.cells().1 > self.grd
    }

    /// Edge noise `(randint1(step) − half)·roughness/16`, truncated.
    fn edge_noise<R: RandomSource + ?Sized>(&self, step: i32, half: i32, rng: &mut R) -> i32 {
        (rng.randint1(step) - half) * self.roughness / 16
    }

    /// Phase A: x at odd half-steps on known rows; x outer, y inner.
    fn horizontal_midpoints<R: RandomSource + ?Sized>(&self, map: &mut HeightMap, rng: &mut R) {
        let Level {
            xstep,
            xhstep,
            ystep,
            ..
        } = self.level;
        let (xs2, xh2, _, _) = self.level.cells();
        let mut i = xhstep;
        while i <= self.xx - xhstep {
            let mut j = 0;
            while j <= self.yy {
                let (x, y) = (i / FIXED_ONE, j / FIXED_ONE);
                if map.is_unset(x, y) {
                    let v = if self.is_random() {
                        rng.randint1(self.maxsize)
                    } else {
                        let sum = map.local((i - xhstep) / FIXED_ONE, y)
                            + map.local((i + xhstep) / FIXED_ONE, y);
                        sum / 2 + self.edge_noise(xs2, xh2, rng)
                    };
                    map.store(x, y, v);
                }
                j += ystep;
            }
            i += xstep;
        }
    }

    /// Phase B: y at odd half-steps on known columns; y outer, x inner.
    fn vertical_midpoints<R: RandomSource + ?Sized>(&self, map: &mut HeightMap, rng: &mut R) {
        let Level {
            xstep,
            ystep,
            yhstep,
            ..
        } = self.level;
        let (_, _, ys2, yh2) = self.level.cells();
        let mut j = yhstep;
        while j <= self.yy - yhstep {
            let mut i = 0;
            while i <= self.xx {
                let (x, y) = (i / FIXED_ONE, j / FIXED_ONE);
                if map.is_unset(x, y) {
                    let v = if self.is_random() {
                        rng.randint1(self.maxsize)
                    } else {
                        let sum = map.local(x, (j - yhstep) / FIXED_ONE)
                            + map.local(x, (j + yhstep) / FIXED_ONE);
                        sum / 2 + self.edge_noise(ys2, yh2, rng)
                    };
                    map.store(x, y, v);
                }
                i += xstep;
            }
            j += ystep;
        }
    }

    /// Phase C: cell centres from their four diagonal corners; x outer, y
    /// inner. The noise is `((r·22)/256)·roughness`, which C's left-to-right
    /// integer evaluation makes 0 for |r| < 12 (quirk Q1): the draw happens,
    /// its effect does not. Kept so the shapes and the draw count match.
    fn centres<R: RandomSource + ?Sized>(&self, map: &mut HeightMap, rng: &mut R) {
        let Level {
            xstep,
            xhstep,
            ystep,
            yhstep,
        } = self.level;
        let (xs2, xh2, _, _) = self.level.cells();
        let mut i = xhstep;
        while i <= self.xx - xhstep {
            let mut j = yhstep;
            while j <= self.yy - yhstep {
                let (x, y) = (i / FIXED_ONE, j / FIXED_ONE);
                if map.is_unset(x, y) {
                    let v = if self.is_random() {
                        rng.randint1(self.maxsize)
                    } else {
                        let (xl, xr) = ((i - xhstep) / FIXED_ONE, (i + xhstep) / FIXED_ONE);
                        let (yt, yb) = ((j - yhstep) / FIXED_ONE, (j + yhstep) / FIXED_ONE);
                        let sum = map.local(xl, yt)
                            + map.local(xl, yb)
                            + map.local(xr, yt)
                            + map.local(xr, yb);
                        let r = rng.randint1(xs2) - xh2;
                        sum / 4 + (r * (DIAG_SIZE / 16) / FIXED_ONE) * self.roughness
                    };
                    map.store(x, y, v);
                }
                j += ystep;
            }
            i += xstep;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{DungeonRng, FloorTable};
    use mangekyo_core::Seed;

    fn args(xsize: i32, ysize: i32, grd: i32) -> HmapArgs {
        HmapArgs {
            centre: Pos::new(130, 130),
            xsize,
            ysize,
            grd,
            roughness: 16,
            cutoff: xsize / 2,
        }
    }

    #[test]
    fn sides_clamp_and_round_down() {
        assert_eq!(args(3, 255, 1).sides(), (4, 254));
        assert_eq!(args(9, 300, 1).sides(), (8, 254));
        assert_eq!(args(-5, 11, 1).sides(), (4, 10));
    }

    #[test]
    fn corners_centre_and_perimeter() {
        let mut rng = DungeonRng::new(Seed::new(9), FloorTable::default());
        let a = args(40, 20, 2);
        let m = generate_hmap(&a, &mut rng).unwrap();
        let r = m.rect();
        assert_eq!((r.width(), r.height()), (41, 21));
        assert_eq!(m.at(Pos::new(130, 130)), 0);
        for (x, y) in [
            (r.xmin, r.ymin),
            (r.xmax, r.ymin),
            (r.xmin, r.ymax),
            (r.xmax, r.ymax),
        ] {
            assert_eq!(m.at(Pos::new(x, y)), 40);
        }
        for y in r.ymin..=r.ymax {
            for x in r.xmin..=r.xmax {
                let p = Pos::new(x, y);
                if r.on_perimeter(p) {
                    assert!(i32::from(m.at(p)) > a.cutoff, "{p:?}");
                }
            }
        }
    }

    #[test]
    fn rejects_overflowing_roughness() {
        let mut rng = DungeonRng::new(Seed::new(9), FloorTable::default());
        let a = HmapArgs {
            roughness: 256,
            ..args(10, 10, 1)
        };
        assert_eq!(
            generate_hmap(&a, &mut rng).unwrap_err().to_string(),
            "roughness must be in 0..=255, got 256"
        );
    }
}
