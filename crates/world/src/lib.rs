//! The island as a world to explore: world objects, spawning, exploration,
//! travel and saves.
//!
//! A generated [`mangekyo_island::IslandMap`] holds only data. This crate
//! turns it into world objects and plays it:
//!
//! - [`World`] is an arena of objects made from object defs: number
//!   properties with ranges, named slots (`locations`, `characters`,
//!   `fixtures`, `undiscovered_fixtures`), a clock in minutes.
//! - [`spawn_island`] makes one location per site and two paths per edge
//!   (they name each other), returning a [`SpawnedIsland`]: the map with its
//!   site ⇄ object correspondence, never half-built.
//! - [`Game`] places the explorer, then [`Game::act`]s: runs an interaction
//!   its definitions declare ([`interaction`]: duration, requirements,
//!   effects that change properties, move objects and reveal fixtures).
//!   The engine knows no interaction by name (a test checks). The `play`
//!   stream is its only randomness. Saves are versioned JSON, checked
//!   before they are trusted.
//! - [`Session`] is the terminal game as lines in, text out.
//!
//! Only this crate knows world objects; `mangekyo-island` does not depend
//! on it (a test checks the dependency graph).
//!
//! ```
//! use mangekyo_world::{Game, Session};
//! let defs = mangekyo_island::example::definitions();
//! let mut session = Session::new(Game::new(&defs, "island", 42.into()).unwrap(), "en");
//! let reply = session.handle("look");
//! assert!(reply.text.contains("0%"));
//! ```
#![deny(missing_docs)]

pub mod bot;
pub mod discovery;
pub mod interaction;
mod island;
pub mod object;
pub mod play;
mod save;
pub mod session;
pub mod spawn;
pub mod stats;

pub use island::SpawnedIsland;
pub use object::{ObjectId, World};
pub use play::{Acted, Game, Refusal};
pub use save::{
    LoadSaveError, MAX_PLAY_DRAWS, SAVE_FORMAT, SAVE_FORMAT_VERSION, island_fingerprint,
};
pub use session::Session;
pub use spawn::spawn_island;
