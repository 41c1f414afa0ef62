//! Hengband's callers of the fractal cave, on a grid the caller owns:
//! the type-9 fractal room, the cave vault, the whole-level cavern, the
//! level lake (`build_lake`) and the elemental vault. Each draws its
//! parameters with the original's formulas and retries until the fill
//! succeeds, in the original's draw order.
//!
//! Overrides replace a drawn value *after* it was drawn, so overriding one
//! parameter never shifts the random stream of the others.

use crate::error::DungeonError;
use crate::fracave::{FillOutcome, FracaveArgs, generate_fracave};
use crate::grid::{Flags, Grid, Pos, Rect};
use crate::hmap::{HeightMap, HmapArgs, generate_hmap};
use crate::lake::{LakeArgs, LakeKind, generate_lake};
use crate::random::RandomSource;

/// Hengband retries a failed cave forever; we give up after this many
/// attempts with [`DungeonError::RetriesExhausted`]. Real parameters need
/// 1.05 attempts on average and rarely more than 5; only a cutoff far too
/// low for its size gets near this.
pub const MAX_ATTEMPTS: u32 = 1000;

/// Values that replace the drawn ones (each `None` keeps the draw).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// Replaces the drawn `grd`.
    pub grd: Option<i32>,
    /// Replaces the drawn roughness.
    pub roughness: Option<i32>,
    /// Replaces the drawn cutoff (for lakes: `c3`, from which `c1` and `c2`
    /// are then drawn and derived).
    pub cutoff: Option<i32>,
}

/// One pass of a retry loop: its parameters, its heightmap and its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The `grd` used.
    pub grd: i32,
    /// The roughness used.
    pub roughness: i32,
    /// `fill_data.c1..c3`: `[cutoff, 0, 0]` for caves, `[c1, c2, c3]` for lakes.
    pub cutoffs: [i32; 3],
    /// What the fill achieved.
    pub outcome: FillOutcome,
    /// The heightmap of this pass, before the fill.
    pub heights: HeightMap,
}

fn retry<R: RandomSource + ?Sized>(
    what: &'static str,
    rng: &mut R,
    mut pass: impl FnMut(&mut R) -> Result<Attempt, DungeonError>,
) -> Result<Vec<Attempt>, DungeonError> {
    let mut attempts = Vec::new();
    while attempts.len() < MAX_ATTEMPTS as usize {
        let attempt = pass(rng)?;
        let done = attempt.outcome.succeeded;
        attempts.push(attempt);
        if done {
            return Ok(attempts);
        }
    }
    let last_cutoff = attempts.last().map_or(0, |a| a.cutoffs[0]);
    Err(DungeonError::RetriesExhausted {
        what,
        attempts: MAX_ATTEMPTS,
        last_cutoff,
    })
}

/// `roug = randint1(8) · randint1(4)`: 1..=32, mean 11.25. The operands
/// are drawn left to right (what GCC does; C++ leaves it unspecified).
fn draw_roughness<R: RandomSource + ?Sized>(rng: &mut R) -> i32 {
    let a = rng.randint1(8);
    a * rng.randint1(4)
}

/// `build_type9`'s size draws: `w = 2·randint1(22)+6` (8..=50), then
/// `h = 2·randint1(15)+6` (8..=36).
pub fn draw_room_size<R: RandomSource + ?Sized>(rng: &mut R) -> (i32, i32) {
    let w = 2 * rng.randint1(22) + 6;
    (w, 2 * rng.randint1(15) + 6)
}

/// `build_type10`'s vault size draws: `randint1(22)+22` (23..=44), then
/// `randint1(11)+11` (12..=22); the vault builders round them down to even.
pub fn draw_vault_size<R: RandomSource + ?Sized>(rng: &mut R) -> (i32, i32) {
    let w = rng.randint1(22) + 22;
    (w, rng.randint1(11) + 11)
}

/// Hengband's depth rule for lighting: `depth <= randint1(one_in)` and not
/// a dark dungeon. The draw is always made. Rooms use `one_in = 25`
/// (always lit at depth 1, never below 25), caverns 50.
pub fn draw_light<R: RandomSource + ?Sized>(
    rng: &mut R,
    depth: i32,
    one_in: i32,
    darkness: bool,
) -> bool {
    depth <= rng.randint1(one_in) && !darkness
}

/// One fractal-cave pass: heightmap, then the fill and post-processing.
fn fracave_pass<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    hmap: HmapArgs,
    light: bool,
    room: bool,
    rng: &mut R,
) -> Result<Attempt, DungeonError> {
    let heights = generate_hmap(&hmap, rng)?;
    let args = FracaveArgs {
        cutoff: hmap.cutoff,
        light,
        room,
    };
    let outcome = generate_fracave(grid, &heights, &args, rng)?;
    Ok(Attempt {
        grd: hmap.grd,
        roughness: hmap.roughness,
        cutoffs: [hmap.cutoff, 0, 0],
        outcome,
        heights,
    })
}

/// `build_type9`'s retry loop (also the cave vault's): each pass draws
/// `grd = 1 << randint0(4)`, the roughness and `cutoff = randint1(w/4) +
/// randint1(h/4) + randint1(w/4) + randint1(h/4)`, then builds a room
/// (`room = true`) of `xsize × ysize` (even) centred on `centre`.
pub fn fractal_room<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    centre: Pos,
    (xsize, ysize): (i32, i32),
    light: bool,
    overrides: &Overrides,
    rng: &mut R,
) -> Result<Vec<Attempt>, DungeonError> {
    retry("fractal room", rng, |rng| {
        let grd = 1 << rng.randint0(4);
        let roughness = draw_roughness(rng);
        let mut cutoff = 0;
        for side in [xsize, ysize, xsize, ysize] {
            cutoff += rng.randint1(side / 4);
        }
        let hmap = HmapArgs {
            centre,
            xsize,
            ysize,
            grd: overrides.grd.unwrap_or(grd),
            roughness: overrides.roughness.unwrap_or(roughness),
            cutoff: overrides.cutoff.unwrap_or(cutoff),
        };
        fracave_pass(grid, hmap, light, true, rng)
    })
}

/// `build_cave_vault`: the sizes rounded down to even, the type-9 loop,
/// then every cell of the rectangle marked ICKY (vault). The original
/// always passes `light = false`.
pub fn cave_vault<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    centre: Pos,
    (xsize, ysize): (i32, i32),
    light: bool,
    overrides: &Overrides,
    rng: &mut R,
) -> Result<Vec<Attempt>, DungeonError> {
    let sides = (xsize / 2 * 2, ysize / 2 * 2);
    let attempts = fractal_room(grid, centre, sides, light, overrides, rng)?;
    mark_vault(grid, Rect::around(centre, sides.0 / 2, sides.1 / 2));
    Ok(attempts)
}

fn mark_vault(grid: &mut Grid, rect: Rect) {
    for y in rect.ymin..=rect.ymax {
        for x in rect.xmin..=rect.xmax {
            grid.cell_mut(Pos::new(x, y)).flags.insert(Flags::ICKY);
        }
    }
}

/// The rectangle a whole-level cave uses on a `width × height` grid:
/// `(centre, xsize, ysize)` with the rectangle spanning `1..=1+xsize`.
///
/// For even sides this is exactly the original (`x0 = (W−1)/2`, `xsize =
/// 2·x0`, centre `x0+1`; 198×66 → 196×64 centred on (99, 33)). For odd
/// sides the original's rectangle would reach one cell past the grid, so
/// we use the largest even side that fits, `2·((W−2)/2)`.
pub fn level_rect(width: usize, height: usize) -> (Pos, i32, i32) {
    let side = |s: usize| (s as i32 - 2) / 2 * 2;
    let (xsize, ysize) = (side(width), side(height));
    (Pos::new(1 + xsize / 2, 1 + ysize / 2), xsize, ysize)
}

/// `build_cavern`'s retry loop on the whole grid: `grd = randint1(4)+4`,
/// the roughness, `cutoff = xsize/2`, `room = false` (the wall ring becomes
/// granite, no ROOM flags). The caller decides `light` (see [`draw_light`]).
pub fn cavern<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    light: bool,
    overrides: &Overrides,
    rng: &mut R,
) -> Result<Vec<Attempt>, DungeonError> {
    let (centre, xsize, ysize) = level_rect(grid.width(), grid.height());
    retry("cavern", rng, |rng| {
        let grd = rng.randint1(4) + 4;
        let roughness = draw_roughness(rng);
        let hmap = HmapArgs {
            centre,
            xsize,
            ysize,
            grd: overrides.grd.unwrap_or(grd),
            roughness: overrides.roughness.unwrap_or(roughness),
            cutoff: overrides.cutoff.unwrap_or(xsize / 2),
        };
        fracave_pass(grid, hmap, light, false, rng)
    })
}

/// One lake pass: `c1 = randint0(c3/2) + randint0(c3/2) − 5` (drawn left
/// to right), `c2 = (c1+c3)/2`, the heightmap with `cutoff = c3`, then
/// `generate_lake`.
fn lake_pass<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    hmap: HmapArgs,
    kind: LakeKind,
    lava_glows: bool,
    rng: &mut R,
) -> Result<Attempt, DungeonError> {
    let c3 = hmap.cutoff;
    let a = rng.randint0(c3 / 2);
    let c1 = a + rng.randint0(c3 / 2) - 5;
    let c2 = (c1 + c3) / 2;
    let heights = generate_hmap(&hmap, rng)?;
    let args = LakeArgs {
        kind,
        cutoffs: [c1, c2, c3],
        lava_glows,
    };
    let outcome = generate_lake(grid, &heights, &args, rng)?;
    Ok(Attempt {
        grd: hmap.grd,
        roughness: hmap.roughness,
        cutoffs: args.cutoffs,
        outcome,
        heights,
    })
}

/// `build_lake` across the whole grid (the cavern's rectangle):
/// `grd = randint1(3)+4`, the roughness, `c3 = 3·xsize/4`.
pub fn lake_level<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    kind: LakeKind,
    lava_glows: bool,
    overrides: &Overrides,
    rng: &mut R,
) -> Result<Vec<Attempt>, DungeonError> {
    let (centre, xsize, ysize) = level_rect(grid.width(), grid.height());
    retry("lake", rng, |rng| {
        let grd = rng.randint1(3) + 4;
        let roughness = draw_roughness(rng);
        let hmap = HmapArgs {
            centre,
            xsize,
            ysize,
            grd: overrides.grd.unwrap_or(grd),
            roughness: overrides.roughness.unwrap_or(roughness),
            cutoff: overrides.cutoff.unwrap_or(3 * xsize / 4),
        };
        lake_pass(grid, hmap, kind, lava_glows, rng)
    })
}

/// `build_elemental_vault`: the sizes rounded down to even, then passes of
/// `grd = 1 << randint0(3)`, the roughness, `c3 = 2·xsize/3`, and every
/// cell of the rectangle marked ICKY (vault) at the end. (The original
/// also adds `xsize·ysize/50` tiny inner rooms with secret doors and fills
/// the vault with monsters; our feature set has no doors, so we stop here.)
pub fn elemental_vault<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    centre: Pos,
    (xsize, ysize): (i32, i32),
    kind: LakeKind,
    lava_glows: bool,
    overrides: &Overrides,
    rng: &mut R,
) -> Result<Vec<Attempt>, DungeonError> {
    let (xsize, ysize) = (xsize / 2 * 2, ysize / 2 * 2);
    let attempts = retry("lake", rng, |rng| {
        let grd = 1 << rng.randint0(3);
        let roughness = draw_roughness(rng);
        let hmap = HmapArgs {
            centre,
            xsize,
            ysize,
            grd: overrides.grd.unwrap_or(grd),
            roughness: overrides.roughness.unwrap_or(roughness),
            cutoff: overrides.cutoff.unwrap_or(2 * xsize / 3),
        };
        lake_pass(grid, hmap, kind, lava_glows, rng)
    })?;
    mark_vault(grid, Rect::around(centre, xsize / 2, ysize / 2));
    Ok(attempts)
}
