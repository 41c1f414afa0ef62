//! The generators this server runs, with their versions: the `v` in every
//! generated URL.

use serde::Serialize;
use utoipa::ToSchema;

/// One generator and its versions.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Generator {
    /// Its name, as used in URLs.
    pub name: &'static str,
    /// The version new content is made with: the same version and input
    /// give the same bytes.
    pub version: u32,
    /// Every released version this server generates side by side (a
    /// stored planet keeps the version it was created with).
    pub versions: Vec<u32>,
    /// Versions under construction, asked for by name only (`next`): their
    /// bytes may change from one server build to the next, so their URLs
    /// are never cached as immutable.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreleased: Vec<String>,
}

impl Generator {
    /// A generator with one version.
    fn single(name: &'static str, version: u32) -> Generator {
        Generator {
            name,
            version,
            versions: vec![version],
            unreleased: Vec::new(),
        }
    }
}

/// Every generator compiled in.
pub(crate) fn generators() -> Vec<Generator> {
    use mangekyo_planet::Version;
    vec![
        Generator::single("dungeon", mangekyo_dungeon::GENERATOR_VERSION),
        Generator {
            name: "planet",
            version: Version::DEFAULT.code(),
            versions: Version::released().map(Version::code).collect(),
            unreleased: Version::ALL
                .into_iter()
                .filter(|v| !v.is_released())
                .map(Version::name)
                .collect(),
        },
        Generator {
            name: "caves",
            version: mangekyo_caves::Version::DEFAULT.code(),
            versions: mangekyo_caves::Version::ALL
                .map(mangekyo_caves::Version::code)
                .to_vec(),
            unreleased: Vec::new(),
        },
        Generator::single("island", mangekyo_island::GENERATOR_VERSION),
    ]
}
