//! Chunk requests and sampled chunks: which layers, which edge mode, and
//! the JSON shape served to clients.

use crate::PlanetError;
use crate::biome::{Biome, BiomeWeights};
use crate::projection::CubeFace;
use crate::space::{CHUNK_SIZE, ChunkAddress};
use crate::version::Version;
use serde::{Deserialize, Serialize};

/// Whether a chunk repeats its neighbours' first row and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// 256 × 256 samples; neighbouring chunks do not overlap.
    #[default]
    Exclusive,
    /// 257 × 257 samples: the last row and column are the next chunks'
    /// first, bit for bit (the heightmap size Unity, Unreal and Godot import).
    Shared,
}

impl Edge {
    /// Samples along a side.
    pub fn size(self) -> u32 {
        match self {
            Edge::Exclusive => CHUNK_SIZE,
            Edge::Shared => CHUNK_SIZE + 1,
        }
    }

    /// The name used in JSON and URLs.
    pub fn name(self) -> &'static str {
        match self {
            Edge::Exclusive => "exclusive",
            Edge::Shared => "shared",
        }
    }
}

impl std::str::FromStr for Edge {
    type Err = PlanetError;
    fn from_str(s: &str) -> Result<Edge, PlanetError> {
        match s {
            "exclusive" | "256" => Ok(Edge::Exclusive),
            "shared" | "257" => Ok(Edge::Shared),
            _ => Err(PlanetError::Name {
                what: "edge",
                param: "edge",
                value: s.to_string(),
                allowed: "exclusive, shared",
            }),
        }
    }
}

/// Which layers to sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Layers {
    /// Height in metres above sea level.
    pub height: bool,
    /// Mean annual temperature in °C.
    pub temperature: bool,
    /// Humidity in 0..=1.
    pub humidity: bool,
    /// Biome index.
    pub biome: bool,
    /// Tectonic uplift in metres (generator version 2 and later).
    #[serde(default)]
    pub uplift: bool,
    /// Plate id (generator version 2 and later).
    #[serde(default)]
    pub plate: bool,
    /// Water over the ground in metres: sea, lake or river (generator
    /// version 3 and later).
    #[serde(default)]
    pub water: bool,
    /// River discharge in m³/s (generator version 3 and later).
    #[serde(default)]
    pub flow: bool,
    /// Mean annual precipitation in mm/yr (generator version 4 and later).
    #[serde(default)]
    pub precipitation: bool,
    /// The two strongest biomes and their weights (generator version 4
    /// and later).
    #[serde(default)]
    pub biome_weights: bool,
}

/// Every layer name, in the order lists and errors give them: the one
/// order of a list's canonical spelling (the service refuses others, so a
/// chunk has one URL).
pub const LAYER_ORDER: [&str; 10] = [
    "height",
    "temperature",
    "humidity",
    "biome",
    "uplift",
    "plate",
    "water",
    "flow",
    "precipitation",
    "biome_weights",
];

/// [`LAYER_ORDER`] and `all`, for messages.
const NAMES: &str = "height, temperature, humidity, biome, uplift, plate, water, flow, precipitation, biome_weights, all";

impl Layers {
    /// No layer (a base for struct updates).
    pub const NONE: Layers = Layers {
        height: false,
        temperature: false,
        humidity: false,
        biome: false,
        uplift: false,
        plate: false,
        water: false,
        flow: false,
        precipitation: false,
        biome_weights: false,
    };
    /// Every layer of version 1 (height and climate): what `all` means on
    /// a version-1 planet, and what its chunk formats hold.
    pub const ALL: Layers = Layers {
        height: true,
        temperature: true,
        humidity: true,
        biome: true,
        ..Layers::NONE
    };
    /// Heights only.
    pub const HEIGHT: Layers = Layers {
        height: true,
        ..Layers::NONE
    };
    /// The geology layers of version 2: `uplift` and `plate`.
    pub const GEOLOGY: Layers = Layers {
        uplift: true,
        plate: true,
        ..Layers::NONE
    };
    /// The water layers of version 3: `water` and `flow`.
    pub const WATER: Layers = Layers {
        water: true,
        flow: true,
        ..Layers::NONE
    };

    /// The climate layers of version 4: `precipitation` and
    /// `biome_weights`.
    pub const CLIMATE: Layers = Layers {
        precipitation: true,
        biome_weights: true,
        ..Layers::NONE
    };

    /// Both sets' layers.
    pub fn union(self, other: Layers) -> Layers {
        Layers {
            height: self.height || other.height,
            temperature: self.temperature || other.temperature,
            humidity: self.humidity || other.humidity,
            biome: self.biome || other.biome,
            uplift: self.uplift || other.uplift,
            plate: self.plate || other.plate,
            water: self.water || other.water,
            flow: self.flow || other.flow,
            precipitation: self.precipitation || other.precipitation,
            biome_weights: self.biome_weights || other.biome_weights,
        }
    }

    /// Whether `self` holds every layer of `other`.
    pub fn contains(self, other: Layers) -> bool {
        self.union(other) == self
    }

    /// Parses a comma-separated list (`height,biome`, or `all`) for a
    /// planet of the default version (`all` is every layer).
    pub fn parse(list: &str) -> Result<Layers, PlanetError> {
        Layers::parse_for(list, Version::DEFAULT)
    }

    /// Parses a comma-separated list for a planet of `generator_version`:
    /// `all` is [`Version::layers`], and a layer the version does not
    /// have (`uplift`, `plate` on version 1) is refused by name.
    pub fn parse_for(list: &str, generator_version: Version) -> Result<Layers, PlanetError> {
        let refuse = |value: &str| PlanetError::Name {
            what: "layer",
            param: "layers",
            value: value.to_string(),
            allowed: NAMES,
        };
        let mut l = Layers::NONE;
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match name {
                "all" => l = l.union(generator_version.layers()),
                "height" => l.height = true,
                "temperature" => l.temperature = true,
                "humidity" => l.humidity = true,
                "biome" => l.biome = true,
                "uplift" => l.uplift = true,
                "plate" => l.plate = true,
                "water" => l.water = true,
                "flow" => l.flow = true,
                "precipitation" => l.precipitation = true,
                "biome_weights" => l.biome_weights = true,
                _ => return Err(refuse(name)),
            }
        }
        if l.is_empty() {
            return Err(refuse(list));
        }
        generator_version.layers().check_has(l, generator_version)?;
        Ok(l)
    }

    /// Refuses `asked` layers that a planet of `generator_version` (whose
    /// layers are `self`) does not have, naming `layers`.
    pub(crate) fn check_has(
        self,
        asked: Layers,
        generator_version: Version,
    ) -> Result<(), PlanetError> {
        if self.contains(asked) {
            return Ok(());
        }
        let missing = asked.union(self);
        let value = if missing.precipitation != self.precipitation
            || missing.biome_weights != self.biome_weights
        {
            "precipitation or biome_weights"
        } else if missing.water != self.water || missing.flow != self.flow {
            "water or flow"
        } else {
            "uplift or plate"
        };
        Err(PlanetError::address(
            "layers",
            value,
            format!(
                "layers of a generator version {generator_version} planet (uplift and plate exist from version 2, water and flow from version 3, precipitation and biome_weights from version 4)"
            ),
        ))
    }

    /// Whether no layer is selected.
    pub fn is_empty(&self) -> bool {
        *self == Layers::NONE
    }

    /// Whether the geology (`uplift`, `plate`) is asked for.
    pub fn has_geology(&self) -> bool {
        self.uplift || self.plate
    }

    /// Whether the water (`water`, `flow`) is asked for.
    pub fn has_water(&self) -> bool {
        self.water || self.flow
    }

    /// Whether anything that needs the climate (`temperature`,
    /// `humidity`, `biome`, `precipitation`, `biome_weights`) is asked for.
    pub fn has_climate(&self) -> bool {
        self.temperature || self.humidity || self.biome || self.precipitation || self.biome_weights
    }
}

impl Default for Layers {
    fn default() -> Self {
        Layers::ALL
    }
}

/// One chunk to sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChunkRequest {
    /// Where.
    pub address: ChunkAddress,
    /// 256 or 257 samples per side.
    pub edge: Edge,
    /// What.
    pub layers: Layers,
}

/// A sampled chunk: row-major layers of `size × size` samples (empty when
/// not requested).
#[derive(Clone, Debug, PartialEq)]
pub struct Chunk {
    /// Where it was sampled.
    pub address: ChunkAddress,
    /// The cube face (cube projections only).
    pub face: Option<CubeFace>,
    /// 256 or 257.
    pub edge: Edge,
    /// Samples per side.
    pub size: u32,
    /// Nominal sample spacing in metres (along the equator).
    pub metres_per_sample: f64,
    /// Height in metres above sea level.
    pub height: Vec<f32>,
    /// Mean annual temperature in °C.
    pub temperature: Vec<f32>,
    /// Humidity in 0..=1.
    pub humidity: Vec<f32>,
    /// Biomes.
    pub biome: Vec<Biome>,
    /// Tectonic uplift in metres (version 2).
    pub uplift: Vec<f32>,
    /// Plate ids (version 2).
    pub plate: Vec<u16>,
    /// Water over the ground in metres: sea, lake or river (version 3).
    pub water: Vec<f32>,
    /// River discharge in m³/s (version 3).
    pub flow: Vec<f32>,
    /// Mean annual precipitation in mm/yr (version 4).
    pub precipitation: Vec<f32>,
    /// The two strongest biomes and their weights (version 4).
    pub biome_weights: Vec<BiomeWeights>,
    /// The generator version of the planet it was sampled from.
    pub generator_version: Version,
}

/// The JSON of a chunk (serialise with serde). Layers not requested are
/// omitted; `biome` holds indices into `biome_legend`.
#[derive(Clone, Debug, Serialize)]
pub struct ChunkJson<'a> {
    /// Projection name.
    pub projection: &'static str,
    /// Cube face name (`+x` …) or null.
    pub face: Option<&'static str>,
    /// Level of detail.
    pub lod: u32,
    /// Chunk column.
    pub cx: u32,
    /// Chunk row.
    pub cy: u32,
    /// Samples per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `exclusive` (256) or `shared` (257).
    pub edge: &'static str,
    /// Nominal sample spacing in metres.
    pub metres_per_sample: f64,
    /// The generator version that made it.
    pub generator_version: Version,
    /// The layers, row-major.
    pub layers: JsonLayers<'a>,
    /// Biome names by index.
    pub biome_legend: &'static [&'static str],
}

/// The layer arrays of [`ChunkJson`].
#[derive(Clone, Debug, Serialize)]
pub struct JsonLayers<'a> {
    /// Metres above sea level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<&'a [f32]>,
    /// °C.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<&'a [f32]>,
    /// 0..=1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub humidity: Option<&'a [f32]>,
    /// Indices into `biome_legend`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub biome: Option<Vec<u8>>,
    /// Tectonic uplift, metres (version 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uplift: Option<&'a [f32]>,
    /// Plate ids (version 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plate: Option<&'a [u16]>,
    /// Water over the ground, metres (version 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub water: Option<&'a [f32]>,
    /// River discharge, m³/s (version 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flow: Option<&'a [f32]>,
    /// Precipitation, mm/yr (version 4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precipitation: Option<&'a [f32]>,
    /// Four bytes per sample (version 4): the strongest biome (an index
    /// into `biome_legend`), its weight in 255ths, the second biome and its
    /// weight.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub biome_weights: Option<Vec<u8>>,
}

fn some_if<T>(v: &[T]) -> Option<&[T]> {
    (!v.is_empty()).then_some(v)
}

impl Chunk {
    /// The chunk in the served JSON shape.
    pub fn json(&self) -> ChunkJson<'_> {
        ChunkJson {
            projection: self.address.projection.name(),
            face: self.face.map(CubeFace::name),
            lod: self.address.lod,
            cx: self.address.cx,
            cy: self.address.cy,
            width: self.size,
            height: self.size,
            edge: self.edge.name(),
            metres_per_sample: self.metres_per_sample,
            generator_version: self.generator_version,
            layers: JsonLayers {
                height: some_if(&self.height),
                temperature: some_if(&self.temperature),
                humidity: some_if(&self.humidity),
                biome: some_if(&self.biome).map(|b| b.iter().map(|b| b.index()).collect()),
                uplift: some_if(&self.uplift),
                plate: some_if(&self.plate),
                water: some_if(&self.water),
                flow: some_if(&self.flow),
                precipitation: some_if(&self.precipitation),
                biome_weights: some_if(&self.biome_weights)
                    .map(|w| w.iter().flat_map(|w| w.to_bytes()).collect()),
            },
            biome_legend: Biome::legend(self.generator_version.biomes()),
        }
    }

    /// Describes the chunk's heightmap for a sidecar file next to an
    /// encoded one (`format`: `png16`, `r16` or `f32`; `min`/`max`: the
    /// heights that 0 and 65535 stand for).
    pub fn heightmap_info(&self, format: &'static str, min: f32, max: f32) -> HeightmapInfo {
        HeightmapInfo {
            format,
            width: self.size,
            height: self.size,
            byte_order: if format == "png16" { "big" } else { "little" },
            metres_per_sample: self.metres_per_sample,
            min_height: min,
            max_height: max,
            decode: if format == "f32" {
                "height_m = sample"
            } else {
                "height_m = min_height + sample / 65535 * (max_height - min_height)"
            },
            projection: self.address.projection.name(),
            face: self.face.map(CubeFace::name),
            lod: self.address.lod,
            cx: self.address.cx,
            cy: self.address.cy,
            edge: self.edge.name(),
            generator_version: self.generator_version,
            layer: None,
        }
    }
}

/// The sidecar JSON of an encoded heightmap.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeightmapInfo {
    /// `png16`, `r16` or `f32`.
    pub format: &'static str,
    /// Samples per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `little` (R16, f32) or `big` (PNG).
    pub byte_order: &'static str,
    /// Nominal sample spacing in metres.
    pub metres_per_sample: f64,
    /// The lowest height, metres (sample value 0).
    pub min_height: f32,
    /// The highest height, metres (sample value 65535).
    pub max_height: f32,
    /// How to turn a sample into metres.
    pub decode: &'static str,
    /// Projection name.
    pub projection: &'static str,
    /// Cube face or null.
    pub face: Option<&'static str>,
    /// Level of detail.
    pub lod: u32,
    /// Chunk column.
    pub cx: u32,
    /// Chunk row.
    pub cy: u32,
    /// `exclusive` or `shared`.
    pub edge: &'static str,
    /// The generator version.
    pub generator_version: Version,
    /// The layer held when it is not `height` (`uplift`, `plate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layer: Option<&'static str>,
}
