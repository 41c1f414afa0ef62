//! `generate_fracave`: turns a heightmap into a cave (a room with an
//! outer-wall ring, or a cavern whose ring becomes granite), or wipes the
//! rectangle when fewer than 10 cells were reached.

use crate::error::DungeonError;
use crate::fill::{Bands, Visited, cave_fill};
use crate::grid::{Feature, Flags, Grid, Pos, Rect};
use crate::hmap::HeightMap;
use crate::random::RandomSource;

/// A fill that accepts fewer cells than this fails (`amount < 10`), and the
/// caller retries. A 4×4 rectangle (3×3 interior) can therefore never succeed.
pub const MIN_CAVE_CELLS: u32 = 10;

/// The inputs of `generate_fracave` besides the heightmap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FracaveArgs {
    /// Cells at or below it are floor (`fill_data.c1`).
    pub cutoff: i32,
    /// Set GLOW on the floor and its wall ring.
    pub light: bool,
    /// `true`: a room (ROOM flags, outer-wall ring kept). `false`: a cavern
    /// (no ROOM flags, the ring becomes granite but keeps its GLOW).
    pub room: bool,
}

/// What a fill achieved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FillOutcome {
    /// At least [`MIN_CAVE_CELLS`] cells were accepted.
    pub succeeded: bool,
    /// How many cells the fill accepted (`fill_data.amount`).
    pub amount: u32,
}

/// Checks that `rect` lies on `grid`.
pub(crate) fn check_fits(grid: &Grid, rect: Rect) -> Result<(), DungeonError> {
    let b = grid.bounds();
    if b.contains(Pos::new(rect.xmin, rect.ymin)) && b.contains(Pos::new(rect.xmax, rect.ymax)) {
        return Ok(());
    }
    Err(DungeonError::RectOutsideGrid {
        xmin: rect.xmin,
        ymin: rect.ymin,
        xmax: rect.xmax,
        ymax: rect.ymax,
        width: rect.width(),
        height: rect.height(),
        grid_width: grid.width(),
        grid_height: grid.height(),
    })
}

/// The rectangle's perimeter in the original's order: the top and bottom
/// cells of each column x = 0..=xsize, then the left and right cells of each
/// row y = 1..ysize−1.
pub(crate) fn perimeter_order(rect: Rect) -> impl Iterator<Item = Pos> {
    let rows =
        (rect.xmin..=rect.xmax).flat_map(move |x| [Pos::new(x, rect.ymin), Pos::new(x, rect.ymax)]);
    let cols = (rect.ymin + 1..rect.ymax)
        .flat_map(move |y| [Pos::new(rect.xmin, y), Pos::new(rect.xmax, y)]);
    rows.chain(cols)
}

/// The cells strictly inside, x outer and y inner (the original's order).
pub(crate) fn interior_order(rect: Rect) -> impl Iterator<Item = Pos> {
    (rect.xmin + 1..rect.xmax)
        .flat_map(move |x| (rect.ymin + 1..rect.ymax).map(move |y| Pos::new(x, y)))
}

/// Every cell, x outer and y inner (the order of the failure wipes).
pub(crate) fn column_order(rect: Rect) -> impl Iterator<Item = Pos> {
    (rect.xmin..=rect.xmax).flat_map(move |x| (rect.ymin..=rect.ymax).map(move |y| Pos::new(x, y)))
}

/// Places the dungeon's wall (granite, kind EXTRA), one wall pick per cell.
fn place_wall<R: RandomSource + ?Sized>(grid: &mut Grid, p: Pos, rng: &mut R) {
    let wall = rng.wall_terrain();
    grid.place(p, wall, Flags::EXTRA);
}

/// Hengband's `generate_fracave` on the rectangle of `hmap`: three floor
/// picks, the fill from the centre, then either the failure wipe (every cell
/// granite, returns `succeeded: false`) or the post-processing that leaves a
/// single 8-connected floor blob, its wall ring and granite elsewhere.
pub fn generate_fracave<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    hmap: &HeightMap,
    args: &FracaveArgs,
    rng: &mut R,
) -> Result<FillOutcome, DungeonError> {
    let rect = hmap.rect();
    check_fits(grid, rect)?;
    let feats = [
        rng.floor_terrain(),
        rng.floor_terrain(),
        rng.floor_terrain(),
    ];
    let bands = Bands {
        cutoffs: [args.cutoff, 0, 0],
        feats,
        infos: [Flags::FLOOR; 3],
    };
    let mut visited = Visited::new(rect);
    let amount = cave_fill(grid, hmap, &bands, &mut visited, rng);
    if amount < MIN_CAVE_CELLS {
        for p in column_order(rect) {
            place_wall(grid, p, rng);
            grid.cell_mut(p).flags.remove(Flags::ICKY | Flags::ROOM);
        }
        return Ok(FillOutcome {
            succeeded: false,
            amount,
        });
    }
    finish_perimeter(grid, rect, &visited, args, rng);
    finish_interior(grid, rect, &visited, args, rng);
    Ok(FillOutcome {
        succeeded: true,
        amount,
    })
}

/// Perimeter cells the fill touched become the room's wall ring (rooms
/// only); the rest become granite. The fill never classifies them.
fn finish_perimeter<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    rect: Rect,
    visited: &Visited,
    args: &FracaveArgs,
    rng: &mut R,
) {
    for p in perimeter_order(rect) {
        if visited.get(p) && args.room {
            grid.place(p, Feature::OuterWall, Flags::OUTER);
            let flags = &mut grid.cell_mut(p).flags;
            if args.light {
                flags.insert(Flags::GLOW);
            }
            flags.insert(Flags::ROOM);
        } else {
            place_wall(grid, p, rng);
        }
        grid.cell_mut(p).flags.remove(Flags::ICKY);
    }
}

/// Reached floor stays (lit, ROOM for rooms); the reached wall ring stays
/// for rooms and becomes granite for caverns, keeping GLOW; everything
/// unreached (disconnected low pockets included) becomes granite.
fn finish_interior<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    rect: Rect,
    visited: &Visited,
    args: &FracaveArgs,
    rng: &mut R,
) {
    for p in interior_order(rect) {
        let flags = grid.get(p).flags;
        let reached = visited.get(p);
        if reached && flags.contains(Flags::FLOOR) {
            lit_room_cell(grid, p, args);
        } else if reached && flags.contains(Flags::OUTER) {
            lit_room_cell(grid, p, args);
            if !args.room {
                place_wall(grid, p, rng);
                grid.cell_mut(p).flags.remove(Flags::ROOM);
            }
        } else {
            place_wall(grid, p, rng);
            grid.cell_mut(p).flags.remove(Flags::ICKY | Flags::ROOM);
        }
    }
}

fn lit_room_cell(grid: &mut Grid, p: Pos, args: &FracaveArgs) {
    let flags = &mut grid.cell_mut(p).flags;
    flags.remove(Flags::ICKY);
    if args.light {
        flags.insert(Flags::GLOW);
    }
    if args.room {
        flags.insert(Flags::ROOM);
    }
}
