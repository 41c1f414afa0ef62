//! Islands of sites from YAML definitions: placement, axes, types with
//! guarantees, Delaunay, paths, names.
//!
//! Designers describe a world in YAML (object defs, axes, location types,
//! generation scopes, localisation); [`load_definitions`] reads any number
//! of `(name, text)` sources into one checked [`Definitions`], reporting
//! every problem with file, line, column and key path. [`generate_island`]
//! then turns (definitions, scope, seed) into an [`IslandMap`] in six
//! steps, the implementation guide's:
//!
//! 1. placement: a jittered coast ring, then best-candidate sampling
//!    ([`generate::place`]);
//! 2. axis values: weighted layers of a distance field and value noise,
//!    quantised ([`generate::axes`]);
//! 3. types: guarantees by maximum bipartite matching, then the nearest
//!    admissible type with a crowding penalty, then fallbacks
//!    ([`generate::types`]);
//! 4. a canonical Delaunay triangulation, co-circular ties broken by
//!    symbolic perturbation ([`generate::delaunay`]);
//! 5. the path network: Kruskal's MST plus detour savers, travel minutes
//!    ([`generate::paths`]);
//! 6. names from their own random stream ([`generate::names`]).
//!
//! A scope's `sea_routes` (boats between sites of one type) are derived
//! from the finished map by [`sea_routes`], a pure function that draws
//! nothing: they are not part of the [`IslandMap`], so a scope with or
//! without boats has the same layout.
//!
//! The map holds only generation results; turning it into world objects is
//! `mangekyo-world`'s job, and this crate knows nothing of it. The object
//! defs and interactions a definition set also holds are the world
//! engine's language, `mangekyo-defs` (with the YAML reader both are read
//! with); the loader here reads them through it and checks the island's
//! references to them (a type's `object_def`, a scope's `player`). Readable
//! forms: [`view::json`], [`view::svg`], [`view::text`].
//!
//! # Brief overview
//! - [`Definitions`] / [`DefinitionsLoader`]: the checked definition set.
//! - [`IslandMap`], [`Site`], [`IslandEdge`], [`LocationName`]: the result.
//! - [`Localization`]: names as text, per language.
//!
//! ```
//! use mangekyo_island::{example, generate_island, load_definitions, view};
//! let defs = load_definitions(example::sources()).unwrap();
//! let map = generate_island(&defs, "island", 42.into()).unwrap();
//! assert!((18..=24).contains(&map.sites.len()));
//! let svg = view::svg::render(&map, &defs, "ja");
//! assert!(svg.starts_with("<svg"));
//! ```
#![deny(missing_docs)]

pub mod check;
pub mod defs;
mod error;
pub mod example;
pub mod generate;
pub mod map;
pub mod stats;
pub mod view;

pub use defs::load::{DefinitionsLoader, load_definitions};
pub use defs::{Definitions, Localization, UnknownChoice};
pub use error::{Diagnostic, GenerateError, LoadError};
pub use generate::sea::{SeaRoute, sea_routes};
pub use generate::{generate_island, generate_island_cancellable};
pub use map::{Assignment, IslandEdge, IslandMap, LocationName, Site};

/// Version of the generator's output. Bumped on any change that moves a
/// seed's island (golden hashes in `tests/golden.rs` pin it).
pub const GENERATOR_VERSION: u32 = 1;
