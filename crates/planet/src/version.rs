//! Planet generator versions: the one place that knows which version has
//! what. A version is a [`Pipeline`] of named stages, each stage one of
//! the shared implementations in `stages/`; everything an edge needs to
//! know (layers, the coarse tier's layout and cost, the biome set behind
//! legends and Roblox materials, what is released and what is the
//! default) is answered here, so no other code compares version numbers
//! (`crates/tidy` checks that).
//!
//! Adding a version: add a variant, give it a row in [`Version::facts`]
//! (its pipeline: the stages it shares with the version before, plus any
//! new stage implementation beside the old one, never an `if version`
//! inside a frozen one), and it exists on every surface. It starts as
//! [`Version::Next`]: asked for by name only, never the default, never
//! cached as immutable, its bytes free to change between landings.
//! Releasing it gives it a number, goldens, and maybe the default.

use crate::chunk::Layers;
use mangekyo_core::noise::LatticeHash;
use serde::{Deserialize, Serialize};

/// A planet generator version. Released versions are numbered and their
/// bytes never change; [`Version::Next`] is the one being built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Version {
    /// Noise belts: continents, mountain belts and latitude climate.
    V1,
    /// Plates: convergent belts, trenches, ridges, rifts.
    V2,
    /// Water: stream-power erosion, rivers and lakes carved into chunks.
    V3,
    /// Climate: insolation, wind cells, rain shadows, 17 blended biomes.
    V4,
    /// The unreleased version under construction (today a copy of
    /// version 4's pipeline): asked for by the name `next` only.
    Next,
}

/// How a version makes its relief.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relief {
    /// Continents and mountain belts from noise alone (`terrain::heights`).
    NoiseBelts,
    /// Continents under plate tectonics: boundary uplift by crust pair
    /// (`geology/`, `terrain::heights_v2`).
    Plates,
}

/// What rain the erosion stage is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rain {
    /// A stand-in from the humidity layer: 0.25 + 1.75·humidity m/yr.
    HumidityProxy,
    /// The circulation climate's precipitation over the tectonic ground
    /// (one coupling iteration).
    Climate,
}

/// How a version erodes and routes water.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Water {
    /// No erosion, rivers or lakes.
    None,
    /// Implicit stream-power erosion on the coarse graph, priority-flood
    /// routing, lakes and rivers carved into every sample (`hydro/`).
    StreamPower(Rain),
}

/// How a version makes its climate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Climate {
    /// Temperature by latitude and height, humidity by nearness to the
    /// ocean (`climate.rs`).
    Bands,
    /// Insolation by tilt, wind cells, moisture by back-trajectory with
    /// orographic rain-out, read off the tier's climate grid
    /// (`atmosphere/`, `stages/circulation.rs`).
    Circulation,
}

/// Which biome set a version classifies into; legends and the Roblox
/// material tables are keyed by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BiomeSet {
    /// Twelve biomes by thresholds (`Biome::classify`).
    Classic12,
    /// Seventeen biomes blended through quantile tables, with overrides
    /// and an ecotone dither (`ecology.rs`).
    Blended17,
}

/// How a version's CesiumJS terrain tiles are sampled and their
/// oct-encoded vertex normals computed (`mangekyo_formats::terrain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TerrainTiles {
    /// The tile's own 65² samples: normals by central differences inside
    /// the tile and one-sided along its edges, so neighbouring tiles
    /// disagree about a shared edge vertex's normal (a shading seam of a
    /// few degrees). Frozen with versions 1 to 4, whose tiles were served
    /// under immutable URLs (`crates/formats/tests/stable_served.txt`).
    OneSided,
    /// The tile with a one-sample border at its neighbours' own positions
    /// (`GeoTile::directions_with_border`): every normal is a central
    /// difference, so both tiles compute a shared vertex's normal from
    /// the same heights, and the antimeridian is one set of directions in
    /// both tiles beside it (heights and normals). Inside, the mesh and
    /// normals are [`TerrainTiles::OneSided`]'s.
    Bordered,
}

/// How a plate version's relief meets the sea (`terrain::base_height_v2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coast {
    /// Land starts 60 m above the sea: a one-sample cliff wherever the
    /// land field crosses zero, so sea coasts get no beach while lake
    /// shores do. Frozen with versions 2 to 4.
    Step,
    /// Land rises from the sea's level over the width of the shelf (an
    /// ease-out to the same 60 m, then the same plain), so the height
    /// function is continuous across the coast and leaves the waterline at
    /// about the shelf's slope.
    Smooth,
}

/// How plate boundaries' profiles meet (`geology::uplift_block`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boundaries {
    /// Each side's profile alone, across the nearest boundary only: steps
    /// of up to 4 km where the two sides differ at the boundary, and
    /// straight steps fanning from triple junctions where the nearest
    /// boundary changes. Frozen with versions 2 to 4.
    Sided,
    /// Both sides ease to one value at the boundary over 60 km, the two
    /// nearest boundaries are blended where the second-nearest plate
    /// changes, and profiles fade out within about 50 km of a triple
    /// junction: the relief is continuous.
    Joined,
}

/// How deep the abyss lies (`terrain::heights_v2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeaFloor {
    /// Swells of ±840 m about 4.4 km: half the ocean or more lies in one
    /// 1-km band of depth. Frozen with versions 2 to 4.
    Plain,
    /// The same broad swells and basins at ±2.8 km, so depth spreads over
    /// several kilometres as on Earth (where no 1-km band holds more than
    /// about a third of the ocean).
    Basins,
}

/// How erosion sets the height of land above its drainage base
/// (`hydro::erosion`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peaks {
    /// The stream-power steady state under the rain as it falls, scaled to
    /// keep the tectonic mean land height: relief grows without bound
    /// where rain is scarce (peaks of 20–40 km in dry and cold places).
    /// Frozen with versions 3 and 4.
    MeanKept,
    /// Incision under rain floored at a semi-arid rate (dry ground is not
    /// spared the cutting that sets relief), then land heights mapped
    /// through one rising curve with a ceiling: the highest peaks and the
    /// mean land height follow `plate_activity` (about 8.85 km and 840 m
    /// at Earth's 1), and the drainage is unchanged (the map is monotone).
    Bounded,
}

/// How much of the rain reaches the rivers, and where water stops
/// (`hydro::balance`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Balance {
    /// All rain runs off, every depression spills unless a lake's
    /// 1.2 m/yr evaporation outweighs its inflow, and a river is any
    /// channel draining 5,000 km²: rivers carry 2.5–3× Earth's discharge,
    /// nearly all land drains to the sea, and deserts have as many rivers
    /// as rainforests. Frozen with versions 3 and 4.
    AllRain,
    /// Evapotranspiration by the Budyko curve (Fu's form, from
    /// temperature and rain), so rivers carry the runoff; depressions of
    /// the tectonic ground whose inflow their surface evaporates stay
    /// closed through the erosion and end in terminal lakes filled to
    /// balance; rivers need a catchment that yields runoff, and none runs
    /// on ice (meltwater leaves at the ice's margin).
    Budyko,
}

/// Where the circulation's biomes put beaches (`ecology::override_of`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beaches {
    /// All unfrozen land below 6 m: with smooth coasts, every flat near
    /// sea level (a delta, a river's lower plain) turned beach for tens
    /// of kilometres. Frozen with version 4.
    Height,
    /// Land below 6 m on the sea's shore strip only: where the land field
    /// is within about a kilometre of the coast. Flats inland take their
    /// climate's biome (or wetland).
    Shore,
}

/// How a version's lake layer (`rivers.geojson?kind=lake`) draws shores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LakeShores {
    /// The outline of the lake's graph cells: a staircase of cell edges.
    /// Frozen with versions 3 and 4, whose layers were served.
    Cells,
    /// That outline with each corner cut at a quarter of its edges: no
    /// staircase (every turn at most about 45°), still a valid polygon, at
    /// the data's own resolution.
    CutCorners,
}

/// How the circulation's biomes settle an ecotone, where two biomes'
/// climate weights are within `ecology::DITHER` (`ecology::classify`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ecotones {
    /// A hash of the 8-pixel lattice cell holding the sample (12 m at the
    /// default pixel): at the ground an ecotone is a speckle of
    /// axis-aligned squares. Frozen with version 4.
    Cells,
    /// A smooth field (fBm from 16 km down to about 30 m on Earth) picks
    /// among the close biomes in their weights' proportion: borders are
    /// the field's contours, organic at every scale, and every level
    /// reads the same field (so a point's biome does not change with the
    /// level where its climate does not).
    Field,
}

/// How river channels run between the coarse graph's nodes
/// (`hydro::carve`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channels {
    /// Each segment a chord with one hashed S-bend: channels turn by 60–90°
    /// at nodes, every 22 km on Earth. Frozen with versions 3 and 4.
    Chords,
    /// Each segment a cubic whose end tangents follow the river through
    /// its nodes (the main stem's neighbours, as a Catmull–Rom spline),
    /// plus the same S-bend: the main stem turns smoothly at every node,
    /// and a tributary arrives along its own course. About the curve the
    /// channel meanders (wavelength 11 widths, unevenly spaced; main-stem sinuosity about 1.45) within
    /// a belt whose floor is a floodplain at the water level.
    Curves,
}

/// What drains the ground below the rivers (`hydro::streams`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Streams {
    /// Nothing: only edges draining 5,000 km² carry water, so most land
    /// chunks at the ground have none. Frozen with versions 1–4.
    None,
    /// Every land cell where water runs off drains by a creek along its
    /// edge (where that is no river) and 4² rills that join it in
    /// branches, each cutting a small valley (sample spacings up to
    /// 200 m).
    Cells,
}

/// A version's stages, in the order a sample runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pipeline {
    /// The lattice hash behind every noise layer (hash 2 from noise
    /// version 2 on: released versions keep hash 1 and their bytes).
    pub noise: LatticeHash,
    /// Relief (and, with plates, the plate layout).
    pub relief: Relief,
    /// Runoff, closed basins and ice (with [`Water::StreamPower`]).
    pub balance: Balance,
    /// How plate boundaries' profiles meet.
    pub boundaries: Boundaries,
    /// How plate relief meets the sea.
    pub coast: Coast,
    /// Erosion, rivers and lakes.
    pub water: Water,
    /// How river channels run between nodes (with a water stage).
    pub channels: Channels,
    /// Creeks and rills below the rivers (with a water stage).
    pub streams: Streams,
    /// How deep the abyss lies (plate relief).
    pub sea_floor: SeaFloor,
    /// How erosion bounds relief (with a water stage).
    pub peaks: Peaks,
    /// Temperature, humidity and precipitation.
    pub climate: Climate,
    /// Biomes.
    pub biomes: BiomeSet,
    /// Where beaches go (with the circulation's biomes).
    pub beaches: Beaches,
    /// How ecotones are settled (with the circulation's biomes).
    pub ecotones: Ecotones,
    /// Whether a preview drops rivers shorter than a few of its pixels
    /// (a preview choice of version 4: thin rivers read as noise there).
    pub preview_prunes_rivers: bool,
    /// How its terrain tiles are sampled and their vertex normals
    /// computed (an output choice like the one above: no chunk changes).
    pub terrain_tiles: TerrainTiles,
    /// How the lake layer draws shores (an output choice: no chunk changes).
    pub lake_shores: LakeShores,
}

/// The coarse tier's layout (`tier/blob.rs`): what the blob holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TierLayout {
    /// No tier (version 1).
    None,
    /// Height, uplift and plate per node (blob layout 1).
    Plates,
    /// And the water: eroded heights, receivers, lakes, rivers (layout 2).
    Water,
    /// And the climate grid, wetlands and biome tables (layout 3).
    Climate,
}

impl TierLayout {
    /// Rows of nodes a tier computation reports for `n` cells per face
    /// edge (what progress counts up to): sampling is 6·n, the water about
    /// as much again, the climate's two grids and its pass another 8·n.
    pub fn rows(self, n: u32) -> u32 {
        match self {
            TierLayout::None => 0,
            TierLayout::Plates => 6 * n,
            TierLayout::Water => 12 * n,
            TierLayout::Climate => 20 * n,
        }
    }
}

/// Everything a version is.
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    /// Its number once released (`None` for [`Version::Next`]).
    pub number: Option<u32>,
    /// Its stages.
    pub pipeline: Pipeline,
}

const V1_PIPELINE: Pipeline = Pipeline {
    noise: LatticeHash::Hash1,
    relief: Relief::NoiseBelts,
    balance: Balance::AllRain,
    boundaries: Boundaries::Sided,
    coast: Coast::Step,
    water: Water::None,
    channels: Channels::Chords,
    streams: Streams::None,
    sea_floor: SeaFloor::Plain,
    peaks: Peaks::MeanKept,
    climate: Climate::Bands,
    biomes: BiomeSet::Classic12,
    beaches: Beaches::Height,
    ecotones: Ecotones::Cells,
    preview_prunes_rivers: false,
    terrain_tiles: TerrainTiles::OneSided,
    lake_shores: LakeShores::Cells,
};

const V2_PIPELINE: Pipeline = Pipeline {
    relief: Relief::Plates,
    ..V1_PIPELINE
};

const V3_PIPELINE: Pipeline = Pipeline {
    water: Water::StreamPower(Rain::HumidityProxy),
    ..V2_PIPELINE
};

const V4_PIPELINE: Pipeline = Pipeline {
    water: Water::StreamPower(Rain::Climate),
    climate: Climate::Circulation,
    biomes: BiomeSet::Blended17,
    preview_prunes_rivers: true,
    ..V3_PIPELINE
};

/// The next version so far: version 4's stages on noise version 2's
/// lattice hash, terrain tiles whose normals have no seams at tile
/// edges, lake shores without the cells' staircase, and (issue 35) coasts
/// without the 60 m step, plate boundaries without steps, peaks
/// bounded by plate activity, and a water balance. Released versions
/// keep their one-sided edge normals and cell outlines: those bytes were
/// served as immutable (tiles pinned in
/// `crates/formats/tests/stable_served.txt`), so fixing them in place
/// would break the rule that a served byte never changes.
const NEXT_PIPELINE: Pipeline = Pipeline {
    noise: LatticeHash::Hash2,
    boundaries: Boundaries::Joined,
    coast: Coast::Smooth,
    sea_floor: SeaFloor::Basins,
    beaches: Beaches::Shore,
    ecotones: Ecotones::Field,
    channels: Channels::Curves,
    streams: Streams::Cells,
    peaks: Peaks::Bounded,
    balance: Balance::Budyko,
    terrain_tiles: TerrainTiles::Bordered,
    lake_shores: LakeShores::CutCorners,
    ..V4_PIPELINE
};

impl Version {
    /// Every version this build generates, oldest first.
    pub const ALL: [Version; 5] = [
        Version::V1,
        Version::V2,
        Version::V3,
        Version::V4,
        Version::Next,
    ];

    /// What a parameter object without `generator_version` means: every
    /// record stored before versions lived side by side was version 1.
    pub const LEGACY: Version = Version::V1;

    /// The version new planets get when they do not name one.
    pub const DEFAULT: Version = Version::V4;

    /// Everything this version is.
    pub const fn facts(self) -> Facts {
        let (number, pipeline) = match self {
            Version::V1 => (Some(1), V1_PIPELINE),
            Version::V2 => (Some(2), V2_PIPELINE),
            Version::V3 => (Some(3), V3_PIPELINE),
            Version::V4 => (Some(4), V4_PIPELINE),
            Version::Next => (None, NEXT_PIPELINE),
        };
        Facts { number, pipeline }
    }

    /// The released versions, oldest first.
    pub fn released() -> impl Iterator<Item = Version> {
        Version::ALL.into_iter().filter(|v| v.is_released())
    }

    /// Whether its bytes are frozen (it has a number).
    pub const fn is_released(self) -> bool {
        self.facts().number.is_some()
    }

    /// Its number, once released.
    pub const fn number(self) -> Option<u32> {
        self.facts().number
    }

    /// The number written where a version must be a number (binary
    /// headers, the store's column, hashes): its own once released, 0 for
    /// [`Version::Next`] (no released version is 0).
    pub const fn code(self) -> u32 {
        match self.facts().number {
            Some(n) => n,
            None => 0,
        }
    }

    /// The released version numbered `n`.
    pub fn from_number(n: u64) -> Option<Version> {
        Version::released().find(|v| v.number().map(u64::from) == Some(n))
    }

    /// Its stages.
    pub const fn pipeline(self) -> Pipeline {
        self.facts().pipeline
    }

    /// Every layer a planet of this version has.
    pub fn layers(self) -> Layers {
        let p = self.pipeline();
        let mut all = Layers::ALL;
        if p.relief == Relief::Plates {
            all = all.union(Layers::GEOLOGY);
        }
        if p.water != Water::None {
            all = all.union(Layers::WATER);
        }
        if p.climate == Climate::Circulation {
            all = all.union(Layers::CLIMATE);
        }
        all
    }

    /// Whether it has plates (and so a coarse tier, a plate layout and
    /// the plates GeoJSON).
    pub fn has_plates(self) -> bool {
        self.pipeline().relief == Relief::Plates
    }

    /// Whether it has rivers and lakes (and so the rivers GeoJSON).
    pub fn has_water(self) -> bool {
        self.pipeline().water != Water::None
    }

    /// Whether samples read the coarse tier, so a service computes it
    /// before serving them (the water; version 2's tier is a cache no
    /// sample reads).
    pub fn samples_read_tier(self) -> bool {
        self.has_water()
    }

    /// The coarse tier's layout.
    pub fn tier_layout(self) -> TierLayout {
        let p = self.pipeline();
        match (p.relief, p.water, p.climate) {
            (Relief::NoiseBelts, _, _) => TierLayout::None,
            (Relief::Plates, Water::None, _) => TierLayout::Plates,
            (Relief::Plates, Water::StreamPower(_), Climate::Bands) => TierLayout::Water,
            (Relief::Plates, Water::StreamPower(_), Climate::Circulation) => TierLayout::Climate,
        }
    }

    /// Its biome set (legends and Roblox materials are keyed by it).
    pub fn biomes(self) -> BiomeSet {
        self.pipeline().biomes
    }

    /// The name used on every surface: the number once released, `next`
    /// before.
    pub fn name(self) -> String {
        match self.number() {
            Some(n) => n.to_string(),
            None => "next".to_owned(),
        }
    }

    /// What a refusal names as the versions this build generates.
    pub fn expected() -> String {
        let numbers: Vec<String> = Version::released().map(Version::name).collect();
        format!(
            "a released planet generator version ({}) or \"next\"",
            numbers.join(", ")
        )
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for Version {
    type Err = crate::PlanetError;

    /// `1`…`4` or `next` (URLs' `v=`, the CLI's `--generator-version`).
    fn from_str(text: &str) -> Result<Version, crate::PlanetError> {
        let found = match text {
            "next" => Some(Version::Next),
            _ => text.parse::<u64>().ok().and_then(Version::from_number),
        };
        found.ok_or_else(|| {
            crate::PlanetError::param("generator_version", text, Version::expected())
        })
    }
}

impl Serialize for Version {
    /// A released version as its number (as every stored record has it),
    /// [`Version::Next`] as `"next"`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.number() {
            Some(n) => s.serialize_u32(n),
            None => s.serialize_str("next"),
        }
    }
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Version, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Version;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&Version::expected())
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Version, E> {
                Version::from_number(n)
                    .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Unsigned(n), &self))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Version, E> {
                u64::try_from(n)
                    .ok()
                    .and_then(Version::from_number)
                    .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Signed(n), &self))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Version, E> {
                match s {
                    "next" => Ok(Version::Next),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(s), &self)),
                }
            }
        }
        d.deserialize_any(Visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_numbers_and_json_round_trip() {
        for v in Version::ALL {
            assert_eq!(v.name().parse::<Version>().unwrap(), v);
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(serde_json::from_str::<Version>(&json).unwrap(), v);
        }
        assert_eq!(serde_json::to_string(&Version::V4).unwrap(), "4");
        assert_eq!(serde_json::to_string(&Version::Next).unwrap(), "\"next\"");
        for bad in ["0", "5", "-1", "\"4\"", "\"latest\"", "4.0", "null"] {
            let err = serde_json::from_str::<Version>(bad).unwrap_err();
            assert!(err.to_string().contains("\"next\""), "{bad}: {err}");
        }
        assert!("v4".parse::<Version>().is_err());
    }

    #[test]
    fn next_is_never_released_nor_the_default() {
        assert!(!Version::Next.is_released());
        assert!(Version::DEFAULT.is_released());
        assert!(Version::LEGACY.is_released());
        assert_eq!(Version::Next.code(), 0);
        assert!(Version::released().all(|v| v.code() > 0));
    }

    #[test]
    fn layers_and_tier_follow_the_stages() {
        assert_eq!(Version::V1.layers(), Layers::ALL);
        assert!(Version::V2.layers().plate && !Version::V2.layers().water);
        assert!(Version::V3.layers().water && !Version::V3.layers().precipitation);
        assert!(Version::V4.layers().precipitation);
        let layouts: Vec<TierLayout> = Version::ALL.iter().map(|v| v.tier_layout()).collect();
        assert_eq!(
            layouts,
            [
                TierLayout::None,
                TierLayout::Plates,
                TierLayout::Water,
                TierLayout::Climate,
                TierLayout::Climate
            ]
        );
        // Costs grow with what the tier holds (no version inherits
        // another's by a catch-all).
        assert!(layouts.windows(2).all(|w| w[0].rows(408) <= w[1].rows(408)));
    }
}
