//! The generators this server runs, with their versions: the `v` in every
//! generated URL.

use serde::Serialize;
use utoipa::ToSchema;

/// One generator and its version.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub(crate) struct Generator {
    /// Its name, as used in URLs.
    pub name: &'static str,
    /// The version new content is made with: the same version and input
    /// give the same bytes.
    pub version: u32,
    /// Every version this server generates side by side (a stored planet
    /// keeps the version it was created with).
    pub versions: &'static [u32],
}

/// Every generator compiled in.
pub(crate) const GENERATORS: &[Generator] = &[
    Generator {
        name: "dungeon",
        version: mangekyo_dungeon::GENERATOR_VERSION,
        versions: &[mangekyo_dungeon::GENERATOR_VERSION],
    },
    Generator {
        name: "planet",
        version: mangekyo_planet::LATEST_GENERATOR_VERSION,
        versions: &[
            mangekyo_planet::GENERATOR_VERSION,
            2,
            3,
            mangekyo_planet::LATEST_GENERATOR_VERSION,
        ],
    },
    Generator {
        name: "caves",
        version: mangekyo_caves::GENERATOR_VERSION,
        versions: &[mangekyo_caves::GENERATOR_VERSION],
    },
    Generator {
        name: "island",
        version: mangekyo_island::GENERATOR_VERSION,
        versions: &[mangekyo_island::GENERATOR_VERSION],
    },
];
