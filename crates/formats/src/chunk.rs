//! Planet chunks as bytes: one list of formats with one set of names, and
//! one encoder that `mangekyo planet chunk`, `mangekyo bake` and the
//! service's chunk route all call, so a chunk is the same bytes whichever
//! edge wrote it.

use mangekyo_core::ParamError;
use mangekyo_export::{heightmap, png};
use mangekyo_planet::{Chunk, Layers, PlanetParams, Version, view};

use crate::{FormatError, planet_bin};

/// What a planet chunk is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChunkFormat {
    /// Every requested layer as JSON (`Chunk::json`).
    Json,
    /// The `MKPC` binary layout ([`planet_bin`]): every requested layer.
    Bin,
    /// 16-bit greyscale PNG of heights, quantised over the chunk's range.
    Png16,
    /// The same samples as raw little-endian u16 (R16).
    R16,
    /// Raw little-endian f32 heights in metres.
    F32,
    /// A biome-coloured, hill-shaded picture (RGB PNG) for people.
    Preview,
}

impl ChunkFormat {
    /// Every format, in the order lists and errors name them.
    pub const ALL: [ChunkFormat; 6] = [
        ChunkFormat::Json,
        ChunkFormat::Bin,
        ChunkFormat::Png16,
        ChunkFormat::R16,
        ChunkFormat::F32,
        ChunkFormat::Preview,
    ];

    /// Older names still accepted: `png` is what the HTTP API and bake
    /// called `png16` before the names were unified, and pinned URLs and
    /// scripts keep working.
    pub const ALIASES: [(&'static str, ChunkFormat); 1] = [("png", ChunkFormat::Png16)];

    /// What every list of names says when a format is refused.
    pub const EXPECTED: &'static str = "one of json, bin, png16 (or png), r16, f32, preview";

    /// The format's one name (`format=`, `--format`, bake plans).
    pub fn name(self) -> &'static str {
        match self {
            ChunkFormat::Json => "json",
            ChunkFormat::Bin => "bin",
            ChunkFormat::Png16 => "png16",
            ChunkFormat::R16 => "r16",
            ChunkFormat::F32 => "f32",
            ChunkFormat::Preview => "preview",
        }
    }

    /// The file extension of a chunk in this format.
    pub fn extension(self) -> &'static str {
        match self {
            ChunkFormat::Png16 | ChunkFormat::Preview => "png",
            other => other.name(),
        }
    }

    /// The media type of a chunk in this format.
    pub fn content_type(self) -> &'static str {
        match self {
            ChunkFormat::Json => "application/json",
            ChunkFormat::Bin | ChunkFormat::R16 | ChunkFormat::F32 => "application/octet-stream",
            ChunkFormat::Png16 | ChunkFormat::Preview => "image/png",
        }
    }

    /// Whether the format holds heights alone (and so has a range that
    /// says how to read its samples: headers over HTTP, a sidecar in files).
    pub fn is_heightmap(self) -> bool {
        matches!(
            self,
            ChunkFormat::Png16 | ChunkFormat::R16 | ChunkFormat::F32
        )
    }

    /// The layers to sample for this format when `asked` (a comma list, or
    /// `all`) was given or not, for a planet of `version`. Heightmaps hold
    /// one layer: `height` (the default, and what `all` means for them),
    /// or any other single float layer the version has (`uplift`, `plate`,
    /// `water`, `flow`, `precipitation`; `biome_weights`, four bytes a
    /// sample, is not a heightmap). A preview draws heights and biomes
    /// (with rivers and lakes where the version has water), with plate
    /// boundaries when `plate` is asked. JSON and `bin` hold every asked
    /// layer (default: every layer of the version).
    pub fn layers(self, asked: Option<&str>, version: Version) -> Result<Layers, FormatError> {
        let text = asked;
        let asked = asked.map(|l| Layers::parse_for(l, version)).transpose()?;
        let picture = Layers {
            height: true,
            biome: true,
            ..Layers::NONE
        };
        let all = version.layers();
        if self.is_heightmap() {
            let single = [
                ("height", Layers::HEIGHT),
                ("uplift", UPLIFT),
                ("plate", PLATE),
                ("water", WATER),
                ("flow", FLOW),
                ("precipitation", PRECIPITATION),
            ];
            return match (asked, text) {
                (Some(l), _) if l == all => Ok(Layers::HEIGHT),
                (Some(l), Some(text)) if !single.iter().any(|(_, s)| *s == l) => {
                    let names: Vec<&str> = single
                        .iter()
                        .filter(|(_, s)| all.contains(*s))
                        .map(|(name, _)| *name)
                        .collect();
                    let expected = if names.len() == 1 {
                        format!("height ({} holds heights only), or left out", self.name())
                    } else {
                        format!(
                            "one of {} ({} holds one layer), or left out",
                            names.join(", "),
                            self.name()
                        )
                    };
                    Err(ParamError::new("layers", text, expected).into())
                }
                (Some(l), _) => Ok(l),
                (None, _) => Ok(Layers::HEIGHT),
            };
        }
        Ok(match self {
            ChunkFormat::Preview => Layers {
                plate: asked.is_some_and(|l| l.plate) && all.plate,
                water: all.water,
                ..picture
            },
            _ => asked.unwrap_or(all),
        })
    }
}

const UPLIFT: Layers = Layers {
    uplift: true,
    ..Layers::NONE
};
const PLATE: Layers = Layers {
    plate: true,
    ..Layers::NONE
};
const WATER: Layers = Layers {
    water: true,
    ..Layers::NONE
};
const FLOW: Layers = Layers {
    flow: true,
    ..Layers::NONE
};
const PRECIPITATION: Layers = Layers {
    precipitation: true,
    ..Layers::NONE
};

impl std::fmt::Display for ChunkFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ChunkFormat {
    type Err = ParamError;

    /// A name or an alias; the error names `format` and every name.
    fn from_str(text: &str) -> Result<ChunkFormat, ParamError> {
        ChunkFormat::ALL
            .into_iter()
            .find(|f| f.name() == text)
            .or_else(|| {
                ChunkFormat::ALIASES
                    .into_iter()
                    .find_map(|(alias, f)| (alias == text).then_some(f))
            })
            .ok_or_else(|| ParamError::new("format", format!("{text:?}"), ChunkFormat::EXPECTED))
    }
}

/// The heights' range in a heightmap chunk: how its samples map to metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeightRange {
    /// The lowest height, metres (sample 0 of png16/r16).
    pub min: f32,
    /// The highest height, metres (sample 65535 of png16/r16).
    pub max: f32,
}

/// A chunk as bytes, with what a reader needs to decode a heightmap.
#[derive(Debug, Clone, PartialEq)]
pub struct EncodedChunk {
    /// The format.
    pub format: ChunkFormat,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// For heightmap formats, the heights' range.
    pub range: Option<HeightRange>,
}

impl EncodedChunk {
    /// The pretty JSON sidecar files carry beside a heightmap (the service
    /// sends the same facts as `mangekyo-height-*` headers); `None` for
    /// formats that describe themselves.
    pub fn sidecar(&self, chunk: &Chunk) -> Result<Option<Vec<u8>>, FormatError> {
        let Some(range) = self.range else {
            return Ok(None);
        };
        let mut info = chunk.heightmap_info(self.format.name(), range.min, range.max);
        info.layer = Some(heightmap_layer(chunk)).filter(|&l| l != "height");
        Ok(Some(serde_json::to_vec_pretty(&info)?))
    }
}

/// The one layer a heightmap chunk holds: heights, uplift, water (metres),
/// flow (m³/s), precipitation (mm/yr) or plate ids (exact integers).
enum Single<'a> {
    Metres(&'a [f32]),
    Plate(&'a [u16]),
}

/// The layer a heightmap holds: the chunk's only sampled one of height,
/// uplift, water, flow, precipitation and plate ([`ChunkFormat::layers`]
/// asks for exactly one).
fn single_layer(chunk: &Chunk) -> Single<'_> {
    if !chunk.height.is_empty() {
        Single::Metres(&chunk.height)
    } else if !chunk.uplift.is_empty() {
        Single::Metres(&chunk.uplift)
    } else if !chunk.water.is_empty() {
        Single::Metres(&chunk.water)
    } else if !chunk.flow.is_empty() {
        Single::Metres(&chunk.flow)
    } else if !chunk.precipitation.is_empty() {
        Single::Metres(&chunk.precipitation)
    } else {
        Single::Plate(&chunk.plate)
    }
}

/// A heightmap's bytes and range. Metres are quantised over the chunk's
/// own range (png16, r16) or written as they are (f32); plate ids are
/// written exactly (png16/r16 samples are the ids, with the range 0 ..=
/// 65535 so the usual decoding gives them back; f32 holds them as floats).
fn heightmap_bytes(
    chunk: &Chunk,
    format: ChunkFormat,
) -> Result<(Vec<u8>, HeightRange), FormatError> {
    let n = chunk.size;
    let span = |v: &[f32]| {
        v.iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &h| {
                (a.min(h), b.max(h))
            })
    };
    Ok(match (single_layer(chunk), format) {
        (Single::Metres(v), ChunkFormat::F32) => {
            let (min, max) = span(v);
            (heightmap::encode_f32_le(n, n, v)?, HeightRange { min, max })
        }
        (Single::Plate(ids), ChunkFormat::F32) => {
            let v: Vec<f32> = ids.iter().map(|&p| f32::from(p)).collect();
            let (min, max) = span(&v);
            (
                heightmap::encode_f32_le(n, n, &v)?,
                HeightRange { min, max },
            )
        }
        (layer, _) => {
            let (samples, range) = match layer {
                Single::Metres(v) => {
                    let q = heightmap::quantize_u16(v);
                    let range = HeightRange {
                        min: q.min,
                        max: q.max,
                    };
                    (q.samples, range)
                }
                Single::Plate(ids) => {
                    let range = HeightRange {
                        min: 0.0,
                        max: 65535.0,
                    };
                    (ids.to_vec(), range)
                }
            };
            let bytes = if format == ChunkFormat::Png16 {
                png::encode_gray16(n, n, &samples)?
            } else {
                heightmap::encode_r16_le(n, n, &samples)?
            };
            (bytes, range)
        }
    })
}

/// The name of the layer a heightmap chunk holds (`height`, `uplift`,
/// `water`, `flow`, `precipitation`, `plate`): the `mangekyo-layer` header
/// and the sidecar's `layer`.
pub fn heightmap_layer(chunk: &Chunk) -> &'static str {
    if !chunk.height.is_empty() {
        "height"
    } else if !chunk.uplift.is_empty() {
        "uplift"
    } else if !chunk.water.is_empty() {
        "water"
    } else if !chunk.flow.is_empty() {
        "flow"
    } else if !chunk.precipitation.is_empty() {
        "precipitation"
    } else {
        "plate"
    }
}

/// Encodes a sampled chunk of the planet with `params` in `format` (the
/// chunk must hold the layers [`ChunkFormat::layers`] chose).
pub fn encode(
    chunk: &Chunk,
    format: ChunkFormat,
    params: &PlanetParams,
) -> Result<EncodedChunk, FormatError> {
    let (bytes, range) = match format {
        ChunkFormat::Json => (serde_json::to_vec(&chunk.json())?, None),
        ChunkFormat::Bin => (
            // The planet's own version: a file names what made it.
            planet_bin::encode(chunk, params.generator_version, params.content_hash()),
            None,
        ),
        ChunkFormat::Png16 | ChunkFormat::R16 | ChunkFormat::F32 => {
            let (bytes, range) = heightmap_bytes(chunk, format)?;
            (bytes, Some(range))
        }
        ChunkFormat::Preview => {
            let image = view::chunk_preview(chunk)?;
            (crate::picture::encode_picture(&image)?, None)
        }
    };
    Ok(EncodedChunk {
        format,
        bytes,
        range,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_parse_and_others_are_refused_by_name() {
        for f in ChunkFormat::ALL {
            assert_eq!(f.name().parse::<ChunkFormat>().unwrap(), f);
        }
        assert_eq!("png".parse::<ChunkFormat>().unwrap(), ChunkFormat::Png16);
        let e = "gif".parse::<ChunkFormat>().unwrap_err();
        assert_eq!(e.name, "format");
        assert!(e.to_string().contains("\"gif\""), "{e}");
    }

    #[test]
    fn heightmaps_hold_heights_and_previews_heights_and_biomes() {
        for v in [Version::V1, Version::V2] {
            assert_eq!(ChunkFormat::R16.layers(None, v).unwrap(), Layers::HEIGHT);
            assert_eq!(
                ChunkFormat::F32.layers(Some("all"), v).unwrap(),
                Layers::HEIGHT
            );
            assert!(ChunkFormat::Png16.layers(Some("biome"), v).is_err());
            let p = ChunkFormat::Preview.layers(Some("humidity"), v).unwrap();
            assert!(p.height && p.biome && !p.humidity && !p.plate);
            assert_eq!(ChunkFormat::Json.layers(None, v).unwrap(), v.layers());
            assert!(ChunkFormat::Json.layers(Some("heights"), v).is_err());
        }
        assert_eq!(
            ChunkFormat::R16.layers(Some("plate"), Version::V2).unwrap(),
            PLATE
        );
        assert!(
            ChunkFormat::R16
                .layers(Some("height,plate"), Version::V2)
                .is_err()
        );
        let e = ChunkFormat::R16
            .layers(Some("plate"), Version::V1)
            .unwrap_err();
        assert!(e.to_string().contains("layers"), "{e}");
        assert!(
            ChunkFormat::Json
                .layers(Some("uplift"), Version::V1)
                .is_err()
        );
        assert!(
            ChunkFormat::Preview
                .layers(Some("plate"), Version::V2)
                .unwrap()
                .plate
        );
    }

    #[test]
    fn precipitation_is_a_heightmap_layer_from_version_4() {
        assert_eq!(
            ChunkFormat::F32
                .layers(Some("precipitation"), Version::V4)
                .unwrap(),
            PRECIPITATION
        );
        assert_eq!(
            ChunkFormat::Png16.layers(Some("all"), Version::V4).unwrap(),
            Layers::HEIGHT
        );
        for v in [Version::V1, Version::V2, Version::V3] {
            let e = ChunkFormat::F32
                .layers(Some("precipitation"), v)
                .unwrap_err()
                .to_string();
            assert!(e.contains("layers") && e.contains("precipitation"), "{e}");
        }
        // Versions 1–3 keep their words; version 4 names precipitation.
        let e = ChunkFormat::R16
            .layers(Some("height,flow"), Version::V3)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "layers must be one of height, uplift, plate, water, flow (r16 holds one layer), or left out, got height,flow"
        );
        let e = ChunkFormat::R16
            .layers(Some("biome_weights"), Version::V4)
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("one of height, uplift, plate, water, flow, precipitation (r16"),
            "{e}"
        );
        assert_eq!(
            ChunkFormat::Json.layers(None, Version::V4).unwrap(),
            Version::V4.layers()
        );
        assert!(Version::V4.layers().precipitation && Version::V4.layers().biome_weights);
        let bin = ChunkFormat::Bin
            .layers(Some("height,biome_weights"), Version::V4)
            .unwrap();
        assert!(bin.height && bin.biome_weights && !bin.precipitation);
        let p = ChunkFormat::Preview
            .layers(Some("precipitation"), Version::V4)
            .unwrap();
        assert!(p.height && p.biome && p.water && !p.precipitation);
    }
}
