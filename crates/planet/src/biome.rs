//! Biomes from height, temperature and humidity: a Whittaker-style table.

use crate::version::BiomeSet;
use serde::{Deserialize, Serialize};

/// What covers the ground. The discriminant is the index used in chunk
/// layers and legends ([`Biome::LEGEND`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Biome {
    /// Sea shallower than [`DEEP_OCEAN_M`].
    Ocean = 0,
    /// Sea deeper than [`DEEP_OCEAN_M`].
    DeepOcean = 1,
    /// Land within [`BEACH_M`] of sea level, not frozen.
    Beach = 2,
    /// Dry, hot or temperate.
    Desert = 3,
    /// Tropical and seasonally dry: grass with scattered trees.
    Savanna = 4,
    /// Tropical and wet.
    Rainforest = 5,
    /// Temperate and moderately dry.
    Grassland = 6,
    /// Temperate and wet.
    TemperateForest = 7,
    /// Cold and moist enough for conifers (boreal forest).
    Taiga = 8,
    /// Cold and treeless.
    Tundra = 9,
    /// Permanently frozen land.
    SnowIce = 10,
    /// Land above [`ROCK_LINE_M`] that is not frozen.
    BareRock = 11,
    /// Version 4: temperate and seasonally dry: chaparral, maquis, woodland.
    Shrubland = 12,
    /// Version 4: the green belt along a river (gallery forest, wet meadow).
    Riparian = 13,
    /// Version 4: marsh, bog and swamp on flats that rain more than
    /// evaporates.
    Wetland = 14,
    /// Version 4: meadow and dwarf shrubs above the tree line.
    Alpine = 15,
    /// Version 4: fresh water over the ground (lakes and river channels).
    FreshWater = 16,
}

/// The two strongest biomes at a sample and their weights in 255ths
/// (version 4's `biome_weights` layer): what a renderer blends between.
/// The two weights are of the smooth climate table before overrides;
/// `first` can differ from the sample's `biome` in an ecotone (the
/// dither picks one of the two) or under an override (river, lake, ice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BiomeWeights {
    /// The strongest biome.
    pub first: Biome,
    /// Its weight, 0..=255.
    pub first_weight: u8,
    /// The second strongest (equal to `first` with weight 0 when alone).
    pub second: Biome,
    /// Its weight, 0..=255.
    pub second_weight: u8,
}

impl BiomeWeights {
    /// The four bytes every format stores: first, its weight, second, its
    /// weight.
    pub fn to_bytes(self) -> [u8; 4] {
        [
            self.first.index(),
            self.first_weight,
            self.second.index(),
            self.second_weight,
        ]
    }
}

/// Sea depth below which the ocean counts as deep, metres (the foot of a
/// typical continental slope).
pub const DEEP_OCEAN_M: f32 = -2000.0;
/// Height above sea level up to which unfrozen coast is beach, metres.
pub const BEACH_M: f32 = 6.0;
/// Height above which unfrozen land is bare rock, metres (above the tree
/// line and the alpine meadows of a temperate mountain range).
pub const ROCK_LINE_M: f32 = 3000.0;
/// Mean annual temperature below which land is snow and ice, °C.
pub const ICE_C: f32 = -12.0;
/// Mean annual temperature below which land is tundra (or taiga if moist), °C.
pub const TUNDRA_C: f32 = -5.0;
/// Mean annual temperature below which land is boreal, °C.
pub const BOREAL_C: f32 = 3.0;
/// Mean annual temperature from which land is tropical, °C.
pub const TROPICAL_C: f32 = 20.0;

impl Biome {
    /// Every biome of versions 1–3 in index order: version 4's first 12.
    pub const ALL: [Biome; 12] = {
        let mut all = [Biome::Ocean; 12];
        let mut i = 0;
        while i < all.len() {
            all[i] = Biome::ALL_V4[i];
            i += 1;
        }
        all
    };

    /// Every biome of version 4 in index order.
    pub const ALL_V4: [Biome; 17] = [
        Biome::Ocean,
        Biome::DeepOcean,
        Biome::Beach,
        Biome::Desert,
        Biome::Savanna,
        Biome::Rainforest,
        Biome::Grassland,
        Biome::TemperateForest,
        Biome::Taiga,
        Biome::Tundra,
        Biome::SnowIce,
        Biome::BareRock,
        Biome::Shrubland,
        Biome::Riparian,
        Biome::Wetland,
        Biome::Alpine,
        Biome::FreshWater,
    ];

    /// The names in index order, as in JSON legends (version 4 appends
    /// five: see [`Biome::legend`]).
    pub const LEGEND: [&'static str; 17] = [
        "ocean",
        "deep_ocean",
        "beach",
        "desert",
        "savanna",
        "rainforest",
        "grassland",
        "temperate_forest",
        "taiga",
        "tundra",
        "snow_ice",
        "bare_rock",
        "shrubland",
        "riparian",
        "wetland",
        "alpine",
        "fresh_water",
    ];

    /// The legend of a biome set ([`crate::Version::biomes`]): the
    /// classic set keeps its twelve names (their bytes never change), the
    /// blended set has all seventeen.
    pub fn legend(set: BiomeSet) -> &'static [&'static str] {
        match set {
            BiomeSet::Classic12 => &Biome::LEGEND[..12],
            BiomeSet::Blended17 => &Biome::LEGEND,
        }
    }

    /// The biomes of a set, in index order.
    pub fn all(set: BiomeSet) -> &'static [Biome] {
        match set {
            BiomeSet::Classic12 => &Biome::ALL,
            BiomeSet::Blended17 => &Biome::ALL_V4,
        }
    }

    /// The biome's index (its place in [`Biome::LEGEND`]).
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The biome's name.
    pub fn name(self) -> &'static str {
        Biome::LEGEND[self as usize]
    }

    /// Whether the biome is sea.
    pub fn is_water(self) -> bool {
        matches!(self, Biome::Ocean | Biome::DeepOcean)
    }

    /// Whether the biome is sea or fresh water.
    pub fn is_wet(self) -> bool {
        self.is_water() || self == Biome::FreshWater
    }

    /// The biome of a sample: `height` in metres above sea level,
    /// `temperature` in °C (mean annual), `humidity` in 0..=1.
    pub fn classify(height: f32, temperature: f32, humidity: f32) -> Biome {
        if height < 0.0 {
            return if height < DEEP_OCEAN_M {
                Biome::DeepOcean
            } else {
                Biome::Ocean
            };
        }
        if temperature < ICE_C {
            return Biome::SnowIce;
        }
        if height > ROCK_LINE_M {
            return Biome::BareRock;
        }
        if height < BEACH_M && temperature >= TUNDRA_C {
            return Biome::Beach;
        }
        if temperature < TUNDRA_C {
            return Biome::Tundra;
        }
        if temperature < BOREAL_C {
            return if humidity < 0.25 {
                Biome::Tundra
            } else {
                Biome::Taiga
            };
        }
        if temperature < TROPICAL_C {
            return match humidity {
                h if h < 0.22 => Biome::Desert,
                h if h < 0.45 => Biome::Grassland,
                _ => Biome::TemperateForest,
            };
        }
        match humidity {
            h if h < 0.22 => Biome::Desert,
            h if h < 0.5 => Biome::Savanna,
            _ => Biome::Rainforest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_covers_every_biome() {
        let mut seen = [false; 12];
        for h in [-5000.0, -100.0, 2.0, 500.0, 4000.0] {
            for t in [-20.0, -5.0, 0.0, 10.0, 25.0] {
                for m in [0.1, 0.35, 0.8] {
                    seen[Biome::classify(h, t, m) as usize] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "{seen:?}");
    }

    #[test]
    fn indices_and_names_agree() {
        for (i, b) in Biome::ALL_V4.iter().enumerate() {
            assert_eq!(b.index() as usize, i);
            assert_eq!(
                serde_json::to_string(b).unwrap(),
                format!("\"{}\"", b.name())
            );
        }
    }
}
