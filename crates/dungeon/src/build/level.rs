//! A playable level: several non-overlapping fractal rooms joined by
//! corridors so that every floor cell is reachable. The room placement and
//! corridors are **our addition**; only the rooms themselves are Hengband's.

use crate::build::{check_depth, overrides, tunnel};
use crate::drivers::{self, Overrides};
use crate::error::{DungeonError, check_range};
use crate::grid::{Grid, Pos, Rect};
use crate::random::{DungeonRng, FloorTable, RandomSource};
use mangekyo_core::Seed;
use serde::{Deserialize, Serialize};

/// Allowed level sides: room for the smallest room plus walls, up to a
/// million cells.
pub(super) const LEVEL_GRID_RANGE: (i64, i64) = (16, 1024);

/// Allowed room counts.
pub(super) const ROOMS_RANGE: (i64, i64) = (1, 64);

/// Random centres tried per room before falling back to 8×8 (as
/// `build_type9` does when `find_space` fails) and then giving up.
const PLACE_TRIES: u32 = 32;

/// Granite cells kept between two rooms' rectangles, so that one room's
/// wall ring never touches another's.
const ROOM_GAP: i32 = 1;

/// Parameters of [`build_level`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LevelParams {
    /// Level width, 16..=1024. Default 198.
    pub width: u32,
    /// Level height, 16..=1024. Default 66.
    pub height: u32,
    /// How many rooms to try to place, 1..=64. Default 8; fewer are placed
    /// when the level runs out of space.
    pub rooms: u32,
    /// `grd` for every room, 1..=254. Default: drawn per room.
    pub grd: Option<u32>,
    /// Roughness for every room, 0..=255. Default: drawn per room.
    pub roughness: Option<u32>,
    /// Cutoff for every room, 1..=512. Default: drawn per room.
    pub cutoff: Option<u32>,
    /// Light every room. Default: drawn per room by depth.
    pub light: Option<bool>,
    /// Dungeon depth, 1..=127. Default 1.
    pub depth: u32,
    /// The dungeon's floor table (rooms and corridors).
    pub floors: FloorTable,
}

impl Default for LevelParams {
    fn default() -> Self {
        LevelParams {
            width: 198,
            height: 66,
            rooms: 8,
            grd: None,
            roughness: None,
            cutoff: None,
            light: None,
            depth: 1,
            floors: FloorTable::default(),
        }
    }
}

impl LevelParams {
    /// Checks every field against its allowed range.
    pub fn validate(&self) -> Result<(), DungeonError> {
        check_range(
            "width",
            i64::from(self.width),
            LEVEL_GRID_RANGE.0,
            LEVEL_GRID_RANGE.1,
        )?;
        check_range(
            "height",
            i64::from(self.height),
            LEVEL_GRID_RANGE.0,
            LEVEL_GRID_RANGE.1,
        )?;
        check_range("rooms", i64::from(self.rooms), ROOMS_RANGE.0, ROOMS_RANGE.1)?;
        overrides(self.grd, self.roughness, self.cutoff)?;
        check_depth(self.depth)?;
        self.floors.validate()
    }
}

/// One room of a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedRoom {
    /// Its rectangle (wall ring and granite included).
    pub rect: Rect,
    /// Its centre, always floor; corridors start and end here.
    pub centre: Pos,
    /// Whether it is lit.
    pub light: bool,
    /// How many passes its retry loop needed.
    pub attempts: usize,
}

/// A finished level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level: permanent edge, rooms, corridors, granite.
    pub grid: Grid,
    /// The rooms, in placement order.
    pub rooms: Vec<PlacedRoom>,
    /// How many corridors were dug.
    pub corridors: usize,
}

/// Builds a level: up to `rooms` fractal rooms at random free places (their
/// rectangles keep a granite gap), then corridors joining them in west-to-
/// east order plus a few loops.
///
/// Every floor cell is reachable from every other by 8-neighbour steps:
/// each room's floor is one 8-connected blob holding its centre, and every
/// corridor is a 4-connected path between two centres of a chain that
/// spans all rooms.
pub fn build_level(params: &LevelParams, seed: Seed) -> Result<Level, DungeonError> {
    params.validate()?;
    let ov = overrides(params.grd, params.roughness, params.cutoff)?;
    let mut rng = DungeonRng::new(seed, params.floors);
    let mut grid = Grid::new(params.width as usize, params.height as usize);
    grid.make_perm_walls();
    let mut rooms = Vec::new();
    for _ in 0..params.rooms {
        match place_room(&mut grid, &rooms, params, &ov, &mut rng)? {
            Some(room) => rooms.push(room),
            None => break,
        }
    }
    let corridors = connect(&mut grid, &rooms, &mut rng);
    Ok(Level {
        grid,
        rooms,
        corridors,
    })
}

/// Draws a size and a free place and builds one room there; `None` when
/// not even an 8×8 room fits any more.
fn place_room<R: RandomSource>(
    grid: &mut Grid,
    rooms: &[PlacedRoom],
    params: &LevelParams,
    ov: &Overrides,
    rng: &mut R,
) -> Result<Option<PlacedRoom>, DungeonError> {
    let (w, h) = drivers::draw_room_size(rng);
    let (max_w, max_h) = (
        (grid.width() as i32 - 4) / 2 * 2,
        (grid.height() as i32 - 4) / 2 * 2,
    );
    let size = (w.min(max_w), h.min(max_h));
    let Some((centre, size)) =
        find_space(grid, rooms, size, rng).or_else(|| find_space(grid, rooms, (8, 8), rng))
    else {
        return Ok(None);
    };
    let light = drivers::draw_light(rng, params.depth as i32, 25, false);
    let light = params.light.unwrap_or(light);
    let attempts = drivers::fractal_room(grid, centre, size, light, ov, rng)?;
    let rect = Rect::around(centre, size.0 / 2, size.1 / 2);
    Ok(Some(PlacedRoom {
        rect,
        centre,
        light,
        attempts: attempts.len(),
    }))
}

/// Random centres for a `w × h` room whose rectangle stays off the
/// permanent edge and keeps [`ROOM_GAP`] from every placed room.
fn find_space<R: RandomSource>(
    grid: &Grid,
    rooms: &[PlacedRoom],
    (w, h): (i32, i32),
    rng: &mut R,
) -> Option<(Pos, (i32, i32))> {
    let (gw, gh) = (grid.width() as i32, grid.height() as i32);
    for _ in 0..PLACE_TRIES {
        let cx = 1 + w / 2 + rng.randint0(gw - 2 - w);
        let cy = 1 + h / 2 + rng.randint0(gh - 2 - h);
        let rect = Rect::around(Pos::new(cx, cy), w / 2, h / 2);
        if rooms.iter().all(|r| !r.rect.overlaps(&rect, ROOM_GAP)) {
            return Some((Pos::new(cx, cy), (w, h)));
        }
    }
    None
}

/// Joins the rooms west to east (a chain spans them all), then digs
/// `rooms/4` extra corridors between random pairs so the level has loops.
fn connect<R: RandomSource>(grid: &mut Grid, rooms: &[PlacedRoom], rng: &mut R) -> usize {
    let mut order: Vec<Pos> = rooms.iter().map(|r| r.centre).collect();
    order.sort_by_key(|c| (c.x, c.y));
    let mut dug = 0;
    for pair in order.windows(2) {
        tunnel::dig(grid, pair[0], pair[1], rng);
        dug += 1;
    }
    let n = order.len() as i32;
    for _ in 0..n / 4 {
        let (a, b) = (rng.randint0(n), rng.randint0(n));
        if a != b {
            tunnel::dig(grid, order[a as usize], order[b as usize], rng);
            dug += 1;
        }
    }
    dug
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rooms_do_not_overlap() {
        let level = build_level(&LevelParams::default(), Seed::new(8)).unwrap();
        assert!(level.rooms.len() >= 4, "{}", level.rooms.len());
        for (i, a) in level.rooms.iter().enumerate() {
            for b in &level.rooms[i + 1..] {
                assert!(!a.rect.overlaps(&b.rect, ROOM_GAP), "{a:?} {b:?}");
            }
        }
        assert!(level.corridors + 1 >= level.rooms.len());
    }

    #[test]
    fn small_levels_still_get_a_room() {
        let p = LevelParams {
            width: 16,
            height: 16,
            rooms: 5,
            ..LevelParams::default()
        };
        let level = build_level(&p, Seed::new(2)).unwrap();
        assert!(!level.rooms.is_empty());
    }

    #[test]
    fn validates_room_count() {
        let p = LevelParams {
            rooms: 0,
            ..LevelParams::default()
        };
        assert_eq!(
            p.validate().unwrap_err().to_string(),
            "rooms must be in 1..=64, got 0"
        );
    }
}
