//! Hengband's fractal caves (generate_hmap + generate_fracave) and the rooms, caverns, lakes and levels built from them.
//!
//! This crate is a faithful port of the "fractal cave" of Hengband (変愚蛮怒):
//! a heightmap by rectangular midpoint subdivision in 8.8 fixed point
//! ([`generate_hmap`]), a breadth-first 8-neighbour flood fill from the
//! centre that keeps the cells at or below a cutoff ([`generate_fracave`]),
//! the same fill with three height bands for lakes ([`generate_lake`]), and
//! the original's callers ([`drivers`]): the type-9 fractal room, the cave
//! vault, the whole-level cavern, `build_lake` and the elemental vault.
//!
//! # Brief overview
//! - [`Grid`]: the roguelike map, a [`Feature`] and Hengband's info
//!   [`Flags`] per cell.
//! - [`RandomSource`]: Hengband's `randint0`/`randint1` and terrain picks,
//!   implemented over PCG32 by [`DungeonRng`]; a test can replay a recorded
//!   draw log through the same trait.
//! - [`RoomParams`], [`CavernParams`], [`LakeParams`], [`LevelParams`]: one
//!   serde-ready parameter struct per builder, with defaults and
//!   `validate()`; [`build_room`], [`build_cavern`], [`build_lake`] and
//!   [`build_level`] turn (parameters, seed) into a grid.
//! - [`view`]: ASCII, RGB pixels and the JSON shape of a grid.
//!
//! # Faithfulness
//! The arithmetic is the original's, quirks included, because the fixtures
//! (outputs of Hengband's own routines) and the shape statistics depend on
//! them: truncating division, the fixed-point steps, the skip of cells
//! already set, one draw per newly set cell, the BFS and direction order,
//! the 74/26 floor mix (`randint1(100) < 75`), the dead diagonal noise (Q1),
//! the x half-step in the vertical test (Q2) and the −1 sentinel collision
//! (Q3). Our departures are named where they live: the fill's visited marks
//! live in a bitmap rather than in `CAVE_ICKY`; retry loops stop after
//! [`drivers::MAX_ATTEMPTS`]; odd level sides use the largest even
//! rectangle that fits ([`drivers::level_rect`]); the elemental vault has no
//! inner rooms; and [`build_level`] (rooms joined by corridors) is ours.
//!
//! # Testing
//! `tests/replay.rs` feeds the draw logs of 47 outputs of Hengband's own
//! routines (`tests/fixtures/hengband/`) through [`RandomSource`] and
//! compares every height, feature and flag. `tests/properties.rs` sweeps
//! the spec's §7 properties over thousands of seeds (`MANGEKYO_SLOW_TESTS=1`
//! widens the sweeps); `tests/snapshots.rs` compares ASCII snapshots under
//! `tests/snapshots/` exactly (`UPDATE_SNAPSHOTS=1` rewrites them) and pins
//! golden hashes.
//!
//! # Determinism
//! Every builder is a pure function of its parameters and [`Seed`]; it draws
//! only from the seed's `dungeon` stream. [`GENERATOR_VERSION`] changes
//! whenever the same input would give a different grid.
//!
//! ```
//! use mangekyo_core::Seed;
//! use mangekyo_dungeon::{RoomParams, build_room, view};
//!
//! let room = build_room(&RoomParams::default(), Seed::parse("crypt")).unwrap();
//! assert!(room.grid.get(room.centre()).feature.is_floor());
//! let text = view::to_ascii(&room.grid);
//! assert_eq!(text.lines().count(), room.grid.height());
//! ```
#![deny(missing_docs)]

pub mod build;
pub mod drivers;
pub mod error;
mod fill;
pub mod fracave;
pub mod grid;
pub mod hmap;
pub mod lake;
pub mod random;
pub mod view;

pub use build::{
    Cavern, CavernParams, Lake, LakeForm, LakeParams, Level, LevelParams, PlacedRoom, Room,
    RoomKind, RoomParams, build_cavern, build_lake, build_level, build_room,
};
pub use error::DungeonError;
pub use fill::DIRECTIONS_8;
pub use fracave::{FillOutcome, FracaveArgs, MIN_CAVE_CELLS, generate_fracave};
pub use grid::{Cell, Feature, Flags, Grid, Pos, Rect};
pub use hmap::{HeightMap, HmapArgs, generate_hmap};
pub use lake::{LakeArgs, LakeKind, generate_lake};
pub use mangekyo_core::Seed;
pub use random::{DungeonRng, FloorTable, RandomSource};

/// The version of every grid this crate generates. Bump it, with a note
/// in the changelog of the commit, whenever the same parameters and seed
/// would give a different grid; the golden hashes in the tests pin it.
pub const GENERATOR_VERSION: u32 = 1;
