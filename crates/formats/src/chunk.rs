//! Planet chunks as bytes: one list of formats with one set of names, and
//! one encoder that `mangekyo planet chunk`, `mangekyo bake` and the
//! service's chunk route all call, so a chunk is the same bytes whichever
//! edge wrote it.

use mangekyo_core::ParamError;
use mangekyo_export::{heightmap, png};
use mangekyo_planet::{Chunk, Layers, PlanetParams, view};

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
    /// `all`) was given or not. Heightmaps hold heights only (`all` means
    /// all they hold); a preview draws heights and biomes whatever was asked.
    pub fn layers(self, asked: Option<&str>) -> Result<Layers, FormatError> {
        let text = asked;
        let asked = asked.map(Layers::parse).transpose()?;
        if self.is_heightmap() {
            return match (asked, text) {
                (Some(l), Some(text)) if l != Layers::HEIGHT && l != Layers::ALL => {
                    let expected =
                        format!("height ({} holds heights only), or left out", self.name());
                    Err(ParamError::new("layers", text, expected).into())
                }
                _ => Ok(Layers::HEIGHT),
            };
        }
        Ok(match self {
            ChunkFormat::Preview => Layers {
                height: true,
                temperature: false,
                humidity: false,
                biome: true,
            },
            _ => asked.unwrap_or(Layers::ALL),
        })
    }
}

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
        let info = chunk.heightmap_info(self.format.name(), range.min, range.max);
        Ok(Some(serde_json::to_vec_pretty(&info)?))
    }
}

/// Encodes a sampled chunk of the planet with `params` in `format` (the
/// chunk must hold the layers [`ChunkFormat::layers`] chose).
pub fn encode(
    chunk: &Chunk,
    format: ChunkFormat,
    params: &PlanetParams,
) -> Result<EncodedChunk, FormatError> {
    let n = chunk.size;
    let (bytes, range) = match format {
        ChunkFormat::Json => (serde_json::to_vec(&chunk.json())?, None),
        ChunkFormat::Bin => (
            // The planet's own version: a file names what made it.
            planet_bin::encode(chunk, params.generator_version, params.content_hash()),
            None,
        ),
        ChunkFormat::Png16 | ChunkFormat::R16 => {
            let q = heightmap::quantize_u16(&chunk.height);
            let bytes = if format == ChunkFormat::Png16 {
                png::encode_gray16(n, n, &q.samples)?
            } else {
                heightmap::encode_r16_le(n, n, &q.samples)?
            };
            let range = HeightRange {
                min: q.min,
                max: q.max,
            };
            (bytes, Some(range))
        }
        ChunkFormat::F32 => {
            let (min, max) = chunk
                .height
                .iter()
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &h| {
                    (a.min(h), b.max(h))
                });
            let bytes = heightmap::encode_f32_le(n, n, &chunk.height)?;
            (bytes, Some(HeightRange { min, max }))
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
        assert_eq!(ChunkFormat::R16.layers(None).unwrap(), Layers::HEIGHT);
        assert_eq!(
            ChunkFormat::F32.layers(Some("all")).unwrap(),
            Layers::HEIGHT
        );
        assert!(ChunkFormat::Png16.layers(Some("biome")).is_err());
        let p = ChunkFormat::Preview.layers(Some("humidity")).unwrap();
        assert!(p.height && p.biome && !p.humidity);
        assert_eq!(ChunkFormat::Json.layers(None).unwrap(), Layers::ALL);
        assert!(ChunkFormat::Json.layers(Some("heights")).is_err());
    }
}
