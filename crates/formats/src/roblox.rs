//! What a Roblox game server receives: chunk layers as Roblox `buffer`
//! values in the JSON form `HttpService:JSONDecode` turns into buffers,
//! and the one table that maps biomes to Roblox terrain materials.
//!
//! # The buffer form
//! Roblox writes a `buffer` in JSON as `{"m": null, "t": "buffer",
//! "zbase64": "…"}`: the bytes compressed as one zstd frame, then base64
//! (standard alphabet, padded); `"base64"` instead of `"zbase64"` carries
//! them uncompressed. `JSONDecode` gives the game a `buffer` it reads with
//! `buffer.readf32` / `buffer.readu8` (little-endian). Sources: the issue's
//! statement of the form, and the `roblox-buffer` crate (Kampfkarren, the
//! selene author), whose deserialiser accepts exactly `t = "buffer"` with
//! `base64` or `zbase64` (zstd) data; `tests/roblox.rs` decodes our answer
//! the way Roblox does (base64 → zstd → little-endian values).
//!
//! # Layers
//! Every layer is `n × n` samples, row-major, sample `i` (east, Roblox +X)
//! fastest, then row `j` (Roblox +Z):
//! - `height`: f32 metres above sea level (sea level is 0 m; below it the
//!   client fills water up to 0).
//! - `material`: u8 index into the answer's `material_legend`
//!   ([`material_legend`]: [`MATERIAL_LEGEND`] for generator versions 1–3,
//!   [`MATERIAL_LEGEND_V4`] from version 4; an `Enum.Material` name): the
//!   ground's surface material; under water, the bed's.
//! - `biome`: u8 index into the answer's `biome_legend` (the planet
//!   crate's `Biome::legend(version)`: 12 names before version 4, 17 from
//!   it).
//! - `water`: f32 metres of water over the ground: sea, lakes and rivers
//!   on a generator version 3 planet; before version 3 only the sea
//!   (`max(0, −height)`), so a client fills water the same way for every
//!   planet (`Enum.Material.Water` from the ground up to height + water).
//!   With it, a piece also carries `max_water_level`, the highest water
//!   surface in the chunk.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use mangekyo_core::ParamError;
use mangekyo_planet::version::BiomeSet;
use mangekyo_planet::{Biome, Chunk, Version};
use serde::Serialize;

use crate::FormatError;

/// zstd level for buffers: level 3 (zstd's default) packs a 256² f32
/// height layer to about a third in ~1 ms; higher levels cost more CPU
/// per chunk than they save on a loopback or datacentre link.
pub const ZSTD_LEVEL: i32 = 3;

/// Biome → Roblox terrain material (`Enum.Material` names) for generator
/// versions 1–3, the single table the Luau client also reads (as
/// `material_legend` in every answer). Under water the material is the
/// sea floor's: Roblox water is a fill the client adds between the ground
/// and sea level. Version 4 has [`BIOME_MATERIALS_V4`].
///
/// | biome | material | why |
/// |---|---|---|
/// | ocean | Sand | shallow shelves are sandy |
/// | deep_ocean | Basalt | dark volcanic abyssal floor |
/// | beach | Sand | |
/// | desert | Sandstone | Roblox's Sand is pale beach sand; Sandstone has the orange of hot deserts |
/// | savanna | Ground | dry bare earth between grass |
/// | rainforest | LeafyGrass | the densest green Roblox has |
/// | grassland | Grass | |
/// | temperate_forest | LeafyGrass | forest floor, greener than meadow |
/// | taiga | Mud | wet dark boreal soil |
/// | tundra | Slate | grey, sparse, stony |
/// | snow_ice | Snow | |
/// | bare_rock | Rock | |
pub const BIOME_MATERIALS: [(Biome, &str); 12] = {
    // Version 4's first 12 rows.
    let mut rows = [(Biome::Ocean, ""); 12];
    let mut i = 0;
    while i < rows.len() {
        rows[i] = BIOME_MATERIALS_V4[i];
        i += 1;
    }
    rows
};

/// The distinct materials of [`BIOME_MATERIALS`], in first-use order: what
/// a `material` sample of a version 1–3 planet indexes.
pub const MATERIAL_LEGEND: [&str; 10] = {
    // Version 4's legend without its last entry.
    let mut names = [""; 10];
    let mut i = 0;
    while i < names.len() {
        names[i] = MATERIAL_LEGEND_V4[i];
        i += 1;
    }
    names
};

/// Biome → material for generator version 4 (its 17 biomes): the twelve
/// older biomes keep their materials (a biome looks the same on every
/// planet, and [`MATERIAL_LEGEND_V4`] only appends), the five new ones:
///
/// | biome | material | why |
/// |---|---|---|
/// | shrubland | Ground | dry soil between bushes, like savanna |
/// | riparian | LeafyGrass | the lush strip along a river |
/// | wetland | Mud | marsh and bog |
/// | alpine | Grass | meadow above the tree line (bare heights are bare_rock) |
/// | fresh_water | Mud | the bed of a lake or river; the `water` layer fills over it |
///
/// snow_ice colder than [`ICE_BELOW_C`] (mean annual) is `Ice` instead of
/// `Snow`: ice sheets rather than snowfields ([`material_index_at`]).
pub const BIOME_MATERIALS_V4: [(Biome, &str); 17] = [
    (Biome::Ocean, "Sand"),
    (Biome::DeepOcean, "Basalt"),
    (Biome::Beach, "Sand"),
    (Biome::Desert, "Sandstone"),
    (Biome::Savanna, "Ground"),
    (Biome::Rainforest, "LeafyGrass"),
    (Biome::Grassland, "Grass"),
    (Biome::TemperateForest, "LeafyGrass"),
    (Biome::Taiga, "Mud"),
    (Biome::Tundra, "Slate"),
    (Biome::SnowIce, "Snow"),
    (Biome::BareRock, "Rock"),
    (Biome::Shrubland, "Ground"),
    (Biome::Riparian, "LeafyGrass"),
    (Biome::Wetland, "Mud"),
    (Biome::Alpine, "Grass"),
    (Biome::FreshWater, "Mud"),
];

/// Below this mean annual temperature, °C, a version-4 snow_ice sample is
/// `Ice` (an ice sheet), above it `Snow`.
pub const ICE_BELOW_C: f32 = -20.0;

/// Version 4's material legend: [`MATERIAL_LEGEND`] with `Ice` appended,
/// so every index of versions 1–3 names the same material.
pub const MATERIAL_LEGEND_V4: [&str; 11] = [
    "Sand",
    "Basalt",
    "Sandstone",
    "Ground",
    "LeafyGrass",
    "Grass",
    "Mud",
    "Slate",
    "Snow",
    "Rock",
    "Ice",
];

/// The material legend of a biome set (the answer's `material_legend`;
/// a planet's is its version's [`Version::biomes`]): the classic set keeps
/// its ten names (their bytes never change), the blended set has eleven.
pub fn material_legend(set: BiomeSet) -> &'static [&'static str] {
    match set {
        BiomeSet::Classic12 => &MATERIAL_LEGEND,
        BiomeSet::Blended17 => &MATERIAL_LEGEND_V4,
    }
}

/// The biome → material table of a biome set.
pub fn biome_materials(set: BiomeSet) -> &'static [(Biome, &'static str)] {
    match set {
        BiomeSet::Classic12 => &BIOME_MATERIALS,
        BiomeSet::Blended17 => &BIOME_MATERIALS_V4,
    }
}

/// The index of `name` in `legend` (the tables are constants checked by a
/// unit test, so it is always there).
fn index_in(legend: &[&str], name: &str) -> u8 {
    legend
        .iter()
        .position(|m| *m == name)
        .map_or(0, |i| i as u8)
}

/// The [`MATERIAL_LEGEND`] index of a biome's material (versions 1–3).
pub fn material_index(biome: Biome) -> u8 {
    index_in(&MATERIAL_LEGEND, BIOME_MATERIALS[biome.index() as usize].1)
}

/// The index into [`material_legend`]`(set)` of a sample's material: its
/// biome's, except that in the blended set snow_ice colder than
/// [`ICE_BELOW_C`] is `Ice` (`temperature` is the sample's mean annual
/// temperature when known; without it snow_ice is `Snow`).
pub fn material_index_at(biome: Biome, temperature: Option<f32>, set: BiomeSet) -> u8 {
    if set == BiomeSet::Classic12 {
        return material_index(biome);
    }
    let name = match (biome, temperature) {
        (Biome::SnowIce, Some(t)) if t < ICE_BELOW_C => "Ice",
        _ => BIOME_MATERIALS_V4[biome.index() as usize].1,
    };
    index_in(&MATERIAL_LEGEND_V4, name)
}

/// The material indices of a chunk's samples (its biomes, with its
/// temperatures from version 4 when it holds them).
fn materials(chunk: &Chunk) -> Vec<u8> {
    let set = chunk.generator_version.biomes();
    chunk
        .biome
        .iter()
        .enumerate()
        .map(|(k, &b)| material_index_at(b, chunk.temperature.get(k).copied(), set))
        .collect()
}

/// A layer the Roblox endpoint can send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RobloxLayer {
    /// f32 metres.
    Height,
    /// u8 material index.
    Material,
    /// u8 biome index.
    Biome,
    /// f32 metres of water over the ground.
    Water,
}

impl RobloxLayer {
    /// Every layer, in answer order.
    pub const ALL: [RobloxLayer; 4] = [
        RobloxLayer::Height,
        RobloxLayer::Material,
        RobloxLayer::Biome,
        RobloxLayer::Water,
    ];

    /// The name in requests and answers.
    pub fn name(self) -> &'static str {
        match self {
            RobloxLayer::Height => "height",
            RobloxLayer::Material => "material",
            RobloxLayer::Biome => "biome",
            RobloxLayer::Water => "water",
        }
    }

    /// Parses a name; `at` names the request field in the error.
    pub fn parse(name: &str, at: &str) -> Result<RobloxLayer, ParamError> {
        RobloxLayer::ALL
            .into_iter()
            .find(|l| l.name() == name)
            .ok_or_else(|| {
                ParamError::new(
                    at.to_owned(),
                    format!("{name:?}"),
                    "height, material, biome or water",
                )
            })
    }

    /// The layer's bytes, little-endian, from a chunk sampled with
    /// [`sample_layers`].
    pub fn bytes(self, chunk: &Chunk) -> Vec<u8> {
        match self {
            RobloxLayer::Height => chunk.height.iter().flat_map(|h| h.to_le_bytes()).collect(),
            RobloxLayer::Water => water(chunk).iter().flat_map(|h| h.to_le_bytes()).collect(),
            RobloxLayer::Material => materials(chunk),
            RobloxLayer::Biome => chunk.biome.iter().map(|b| b.index()).collect(),
        }
    }
}

/// How layers travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Roblox `buffer` JSON (zstd + base64).
    Buffer,
    /// Plain JSON arrays of numbers.
    Array,
}

impl Encoding {
    /// The name in requests.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Buffer => "buffer",
            Encoding::Array => "array",
        }
    }

    /// Parses `encoding`.
    pub fn parse(name: &str) -> Result<Encoding, ParamError> {
        match name {
            "buffer" => Ok(Encoding::Buffer),
            "array" => Ok(Encoding::Array),
            _ => Err(ParamError::new(
                "encoding",
                format!("{name:?}"),
                "buffer or array",
            )),
        }
    }
}

/// A Roblox `buffer` in its JSON form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JsonBuffer {
    /// Metadata Roblox writes as null.
    pub m: Option<()>,
    /// Always `"buffer"`.
    pub t: &'static str,
    /// base64 of one zstd frame of the bytes.
    pub zbase64: String,
}

impl JsonBuffer {
    /// Compresses and encodes `bytes`.
    pub fn new(bytes: &[u8]) -> Result<JsonBuffer, FormatError> {
        let packed = zstd::bulk::compress(bytes, ZSTD_LEVEL).map_err(FormatError::Compress)?;
        Ok(JsonBuffer {
            m: None,
            t: "buffer",
            zbase64: STANDARD.encode(packed),
        })
    }
}

/// One layer as JSON: a buffer, or an array of numbers.
pub fn layer_json(
    layer: RobloxLayer,
    chunk: &Chunk,
    encoding: Encoding,
) -> Result<serde_json::Value, FormatError> {
    let value = match (encoding, layer) {
        (Encoding::Buffer, _) => serde_json::to_value(JsonBuffer::new(&layer.bytes(chunk))?),
        (Encoding::Array, RobloxLayer::Height) => serde_json::to_value(&chunk.height),
        (Encoding::Array, RobloxLayer::Water) => serde_json::to_value(water(chunk)),
        (Encoding::Array, _) => serde_json::to_value(layer.bytes(chunk)),
    };
    Ok(value?)
}

/// One chunk of a Roblox answer.
#[derive(Debug, Serialize)]
struct ChunkPiece {
    cx: u32,
    cy: u32,
    face: Option<&'static str>,
    min_height: f32,
    max_height: f32,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_water_level: Option<f32>,
    layers: serde_json::Map<String, serde_json::Value>,
}

/// Water over the ground: the chunk's `water` layer (version 3), else the
/// sea over ground below 0 m.
fn water(chunk: &Chunk) -> Vec<f32> {
    if chunk.water.is_empty() {
        chunk.height.iter().map(|&h| (-h).max(0.0)).collect()
    } else {
        chunk.water.clone()
    }
}

/// The layers a chunk of a planet of `version` must be sampled with for
/// `layers`: heights always (min/max travel with every chunk), biomes for
/// materials and biomes, temperatures for the blended set's materials
/// (ice), water when asked and the version has it.
pub fn sample_layers(layers: &[RobloxLayer], version: Version) -> mangekyo_planet::Layers {
    let material = layers.contains(&RobloxLayer::Material);
    mangekyo_planet::Layers {
        height: true,
        biome: material || layers.contains(&RobloxLayer::Biome),
        temperature: material && version.biomes() == BiomeSet::Blended17,
        water: version.layers().water && layers.contains(&RobloxLayer::Water),
        ..mangekyo_planet::Layers::NONE
    }
}

/// One chunk's JSON piece of a Roblox answer: `{cx, cy, face, min_height,
/// max_height, layers: {…}}`, from a chunk sampled with
/// [`sample_layers`].
pub fn encode_piece(
    chunk: &Chunk,
    layers: &[RobloxLayer],
    encoding: Encoding,
) -> Result<Vec<u8>, FormatError> {
    let (min, max) = chunk
        .height
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &h| {
            (lo.min(h), hi.max(h))
        });
    let mut json = serde_json::Map::new();
    for &layer in layers {
        json.insert(layer.name().to_owned(), layer_json(layer, chunk, encoding)?);
    }
    let max_water_level = layers.contains(&RobloxLayer::Water).then(|| {
        chunk
            .height
            .iter()
            .zip(water(chunk))
            .filter(|(_, w)| *w > 0.0)
            .fold(0.0f32, |m, (h, w)| m.max(h + w))
    });
    let piece = ChunkPiece {
        max_water_level,
        cx: chunk.address.cx,
        cy: chunk.address.cy,
        face: chunk.face.map(mangekyo_planet::CubeFace::name),
        min_height: min,
        max_height: max,
        layers: json,
    };
    Ok(serde_json::to_vec(&piece)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mangekyo_planet::Version;

    #[test]
    fn every_biome_has_a_material_in_the_legend() {
        for (k, (biome, name)) in BIOME_MATERIALS.iter().enumerate() {
            assert_eq!(biome.index() as usize, k, "table in biome order");
            assert!(MATERIAL_LEGEND.contains(name), "{name} not in the legend");
            assert_eq!(MATERIAL_LEGEND[material_index(*biome) as usize], *name);
        }
        for m in MATERIAL_LEGEND {
            assert!(BIOME_MATERIALS.iter().any(|(_, n)| *n == m), "{m} unused");
        }
    }

    #[test]
    fn version_4_materials_extend_the_older_table() {
        // Every biome of version 4, in order, with a material of the legend.
        assert_eq!(BIOME_MATERIALS_V4.len(), Biome::ALL_V4.len());
        for (k, (biome, name)) in BIOME_MATERIALS_V4.iter().enumerate() {
            assert_eq!(*biome, Biome::ALL_V4[k], "table in biome order");
            let i = material_index_at(*biome, None, BiomeSet::Blended17);
            assert_eq!(MATERIAL_LEGEND_V4[i as usize], *name);
            assert_eq!(
                material_index_at(*biome, Some(30.0), BiomeSet::Blended17),
                i
            );
        }
        // The older biomes keep their materials, and the legend only grows.
        assert_eq!(BIOME_MATERIALS_V4[..12], BIOME_MATERIALS);
        assert_eq!(MATERIAL_LEGEND_V4[..10], MATERIAL_LEGEND);
        assert_eq!(material_legend(BiomeSet::Classic12), &MATERIAL_LEGEND[..]);
        assert_eq!(material_legend(BiomeSet::Classic12), &MATERIAL_LEGEND[..]);
        assert_eq!(
            material_legend(BiomeSet::Blended17),
            &MATERIAL_LEGEND_V4[..]
        );
        assert_eq!(biome_materials(BiomeSet::Classic12).len(), 12);
        for m in MATERIAL_LEGEND_V4 {
            assert!(
                m == "Ice" || BIOME_MATERIALS_V4.iter().any(|(_, n)| *n == m),
                "{m} unused"
            );
        }
        // Cold snow_ice is ice from version 4 only.
        let ice = material_index_at(Biome::SnowIce, Some(-25.0), BiomeSet::Blended17);
        assert_eq!(MATERIAL_LEGEND_V4[ice as usize], "Ice");
        let snow = material_index_at(Biome::SnowIce, Some(-15.0), BiomeSet::Blended17);
        assert_eq!(MATERIAL_LEGEND_V4[snow as usize], "Snow");
        assert_eq!(
            material_index_at(Biome::SnowIce, Some(-25.0), BiomeSet::Classic12),
            material_index(Biome::SnowIce)
        );
        // Materials ask for temperatures from version 4 only.
        let both = [RobloxLayer::Height, RobloxLayer::Material];
        assert!(!sample_layers(&both, Version::V3).temperature);
        assert!(
            sample_layers(&both, Version::V4).temperature
                && sample_layers(&both, Version::V4).biome
        );
        assert!(!sample_layers(&[RobloxLayer::Biome], Version::V4).temperature);
    }

    #[test]
    fn buffers_round_trip_through_base64_and_zstd() {
        let bytes: Vec<u8> = (0..10_000u32)
            .flat_map(|v| (v as f32).to_le_bytes())
            .collect();
        let b = JsonBuffer::new(&bytes).unwrap();
        let json = serde_json::to_string(&b).unwrap();
        assert!(
            json.starts_with(r#"{"m":null,"t":"buffer","zbase64":""#),
            "{json}"
        );
        let packed = STANDARD.decode(&b.zbase64).unwrap();
        assert_eq!(zstd::bulk::decompress(&packed, bytes.len()).unwrap(), bytes);
    }

    #[test]
    fn bad_names_are_refused_by_field() {
        let e = RobloxLayer::parse("heights", "layers[1]").unwrap_err();
        assert_eq!(e.name, "layers[1]");
        assert_eq!(
            e.to_string(),
            "layers[1] must be height, material, biome or water, got \"heights\""
        );
        assert!(Encoding::parse("base64").is_err());
    }
}
