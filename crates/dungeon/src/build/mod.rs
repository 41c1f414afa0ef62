//! Builders: one parameter struct per product (room, cavern, lake,
//! level), each with serde support, documented defaults and `validate()`,
//! and a `build_*` function from (parameters, seed) to a finished grid.

mod cavern;
mod lake;
mod level;
mod room;
mod tunnel;

pub use cavern::{Cavern, CavernParams, build_cavern};
pub use lake::{Lake, LakeForm, LakeParams, build_lake};
pub use level::{Level, LevelParams, PlacedRoom, build_level};
pub use room::{Room, RoomKind, RoomParams, build_room};

use crate::drivers::Overrides;
use crate::error::{DungeonError, check_opt, check_range};

/// Allowed `grd` overrides. 1 interpolates only the finest level; 254
/// interpolates every level of the largest map (Hengband uses 1..=8).
pub const GRD_RANGE: (i64, i64) = (1, 254);

/// Allowed roughness overrides (Hengband draws 1..=32; 16 is "normal").
pub const ROUGHNESS_RANGE: (i64, i64) = (0, crate::hmap::MAX_ROUGHNESS as i64);

/// Allowed cutoff overrides. With Hengband's roughness heights stay below
/// `maxsize + 16` (≤ 270), so 512 already floods every interior cell; at 0
/// only the centre (height 0) could be floor.
pub const CUTOFF_RANGE: (i64, i64) = (1, 512);

/// Allowed dungeon depths (Hengband's deepest level is 127).
pub const DEPTH_RANGE: (i64, i64) = (1, 127);

/// Allowed (even) room and vault sides: from Hengband's smallest fractal
/// room (8) to the heightmap's largest side (254).
pub const ROOM_SIDE_RANGE: (i64, i64) = (8, 254);

/// Allowed grid sides for whole-level caverns and lakes: the rectangle is
/// the grid less one cell each side, at most 254 wide, at least 6.
pub const LEVEL_SIDE_RANGE: (i64, i64) = (8, 256);

/// The parameter overrides every builder shares, checked and converted.
pub(crate) fn overrides(
    grd: Option<u32>,
    roughness: Option<u32>,
    cutoff: Option<u32>,
) -> Result<Overrides, DungeonError> {
    check_opt("grd", grd, GRD_RANGE.0, GRD_RANGE.1)?;
    check_opt("roughness", roughness, ROUGHNESS_RANGE.0, ROUGHNESS_RANGE.1)?;
    check_opt("cutoff", cutoff, CUTOFF_RANGE.0, CUTOFF_RANGE.1)?;
    // In range means far below i32::MAX, so the casts are exact.
    Ok(Overrides {
        grd: grd.map(|v| v as i32),
        roughness: roughness.map(|v| v as i32),
        cutoff: cutoff.map(|v| v as i32),
    })
}

/// Checks a depth.
pub(crate) fn check_depth(depth: u32) -> Result<(), DungeonError> {
    check_range("depth", i64::from(depth), DEPTH_RANGE.0, DEPTH_RANGE.1)
}

/// Checks an optional even room side.
pub(crate) fn check_room_side(param: &'static str, side: Option<u32>) -> Result<(), DungeonError> {
    side.map_or(Ok(()), |s| {
        crate::error::check_even_range(param, i64::from(s), ROOM_SIDE_RANGE.0, ROOM_SIDE_RANGE.1)
    })
}

/// Checks a whole-level grid side.
pub(crate) fn check_level_side(param: &'static str, side: u32) -> Result<(), DungeonError> {
    check_range(
        param,
        i64::from(side),
        LEVEL_SIDE_RANGE.0,
        LEVEL_SIDE_RANGE.1,
    )
}
