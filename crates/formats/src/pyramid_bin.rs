//! The binary form of a pyramid tile (`MKPT`): what the viewer's globe
//! streams. A fixed little-endian header, then the layers a globe draws.
//!
//! ```text
//! offset size  field
//!  0      4    magic "MKPT"
//!  4      2    u16 format version: 1
//!  6      1    u8  cube face 0..=5 in atlas order (+x, +y, -x, -y, +z, -z)
//!  7      1    u8  level
//!  8      4    u32 x
//! 12      4    u32 y
//! 16      2    u16 samples per side (n = 257)
//! 18      2    u16 layer mask: 1 height, 2 biome, 4 water
//! 20      4    f32 lowest height in the tile (m)
//! 24      4    f32 highest height in the tile (m)
//! 28      4    u32 planet generator version
//! 32      8    f64 nominal metres per sample
//! 40      …    for each layer in the mask, in bit order, n·n samples
//!              row-major (row 0 at the face's top, column 0 at its left):
//!              height f32 (m), biome u8 (index into the legend of
//!              `pyramid.json`) zero-padded to a multiple of 4 bytes,
//!              water f32 (m of water over the ground: sea, lake, river)
//! ```
//! The min/max let a client bound the tile (culling, skirts) before it
//! reads the samples; every float layer starts 4-aligned so a browser reads
//! it as a `Float32Array` in place.

use mangekyo_planet::pyramid::TILE_SAMPLES;
use mangekyo_planet::view::biome_colour;
use mangekyo_planet::{Biome, CubeFace, FaceTile, Layers, Planet, Samples, Version};
use serde_json::{Value, json};

use crate::FormatError;

/// The magic bytes.
pub const MAGIC: &[u8; 4] = b"MKPT";
/// The layout version.
pub const FORMAT_VERSION: u16 = 1;
/// Header bytes before the first layer.
pub const HEADER_BYTES: usize = 40;

/// The layers a pyramid tile can carry, with their mask bits.
const LAYERS: [(&str, u16); 3] = [("height", 1), ("biome", 2), ("water", 4)];

/// The layer mask of `layers`, or an error naming `layers` when one of
/// them has no place in a pyramid tile.
pub fn layer_mask(layers: Layers) -> Result<u16, FormatError> {
    let others = [
        ("temperature", layers.temperature),
        ("humidity", layers.humidity),
        ("uplift", layers.uplift),
        ("plate", layers.plate),
        ("flow", layers.flow),
        ("precipitation", layers.precipitation),
        ("biome_weights", layers.biome_weights),
    ];
    let refused: Vec<&str> = others
        .iter()
        .filter(|(_, on)| *on)
        .map(|(n, _)| *n)
        .collect();
    if !refused.is_empty() {
        return Err(mangekyo_core::ParamError::new(
            "layers",
            refused.join(","),
            "height, biome and water (what pyramid tiles carry)",
        )
        .into());
    }
    Ok(LAYERS
        .iter()
        .filter(|(name, _)| match *name {
            "height" => layers.height,
            "biome" => layers.biome,
            _ => layers.water,
        })
        .map(|(_, bit)| bit)
        .sum())
}

/// `pyramid.json`: what a globe needs to place and colour a planet's tiles
/// (radius, levels and their spacings, face frames, layers, biome legend
/// and colours), with `tiles` the URL template of the tiles (`{face}` is
/// the index 0..=5).
pub fn document(planet: &Planet, tiles: &str) -> Value {
    let version = planet.version();
    let space = planet.space();
    let max_level = space.pyramid_max_level();
    let faces: Vec<Value> = CubeFace::ALL
        .iter()
        .map(|f| {
            let [normal, right, down] = f.axes();
            json!({"index": f.index(), "name": f.name(), "normal": normal, "right": right, "down": down})
        })
        .collect();
    // Sea biomes take the colour of shallow water; a client shades depth.
    let colours: Vec<[u8; 3]> = Biome::all(version.biomes())
        .iter()
        .map(|&b| biome_colour(b, -200.0).map(|c| c.round().clamp(0.0, 255.0) as u8))
        .collect();
    let mut layers = vec!["height", "biome"];
    if version.layers().water {
        layers.push("water");
    }
    json!({
        "radius": planet.params().radius,
        "tile_size": TILE_SAMPLES,
        "max_level": max_level,
        "generator_version": version,
        "warp": "tangent",
        "faces": faces,
        "layers": layers,
        "biome_legend": Biome::legend(version.biomes()),
        "biome_colours": colours,
        "metres_per_sample": (0..=max_level).map(|l| space.pyramid_spacing(l)).collect::<Vec<_>>(),
        "tiles": tiles,
    })
}

/// Encodes a sampled tile (`samples` from `Planet::sample_face_tile` with
/// `layers`).
pub fn encode(
    tile: &FaceTile,
    layers: Layers,
    samples: &Samples,
    generator_version: Version,
    metres_per_sample: f64,
) -> Result<Vec<u8>, FormatError> {
    let mask = layer_mask(layers)?;
    let n = TILE_SAMPLES as usize;
    let count = n * n;
    let (lo, hi) = samples
        .height
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &h| {
            (lo.min(h), hi.max(h))
        });
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (0.0, 0.0) };
    let mut out = Vec::with_capacity(HEADER_BYTES + 9 * count + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(tile.face.index() as u8);
    // Levels stop at 24, far below 256.
    out.push(tile.level.min(255) as u8);
    out.extend_from_slice(&tile.x.to_le_bytes());
    out.extend_from_slice(&tile.y.to_le_bytes());
    out.extend_from_slice(&(TILE_SAMPLES as u16).to_le_bytes());
    out.extend_from_slice(&mask.to_le_bytes());
    out.extend_from_slice(&lo.to_le_bytes());
    out.extend_from_slice(&hi.to_le_bytes());
    out.extend_from_slice(&generator_version.code().to_le_bytes());
    out.extend_from_slice(&metres_per_sample.to_le_bytes());
    let floats = |out: &mut Vec<u8>, v: &[f32], name: &'static str| {
        if v.len() != count {
            return Err(FormatError::Planet(mangekyo_planet::PlanetError::Address {
                what: "layers",
                value: format!("{name} with {} samples", v.len()),
                allowed: format!("{count} samples"),
            }));
        }
        for x in v {
            out.extend_from_slice(&x.to_le_bytes());
        }
        Ok(())
    };
    if layers.height {
        floats(&mut out, &samples.height, "height")?;
    }
    if layers.biome {
        if samples.biome.len() != count {
            return Err(FormatError::Planet(mangekyo_planet::PlanetError::Address {
                what: "layers",
                value: format!("biome with {} samples", samples.biome.len()),
                allowed: format!("{count} samples"),
            }));
        }
        out.extend(samples.biome.iter().map(|b| b.index()));
        while out.len() % 4 != 0 {
            out.push(0);
        }
    }
    if layers.water {
        floats(&mut out, &samples.water, "water")?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mangekyo_planet::{Planet, PlanetParams};

    #[test]
    fn a_tile_has_its_header_and_aligned_layers() {
        let planet = Planet::new(PlanetParams::default()).expect("planet");
        let tile = FaceTile::new(planet.space(), 4, 2, 1, 3).expect("tile");
        let layers = Layers {
            height: true,
            biome: true,
            ..Layers::NONE
        };
        let s = planet.sample_face_tile(&tile, layers).expect("samples");
        let bytes = encode(&tile, layers, &s, Version::V1, 1234.5).expect("encode");
        let n = 257 * 257;
        assert_eq!(&bytes[..4], b"MKPT");
        assert_eq!(bytes[6], 4);
        assert_eq!(bytes[7], 2);
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 1);
        assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), 3);
        assert_eq!(u16::from_le_bytes([bytes[18], bytes[19]]), 3);
        assert_eq!(bytes.len(), HEADER_BYTES + 4 * n + n.next_multiple_of(4));
        let lo = f32::from_le_bytes(bytes[20..24].try_into().unwrap());
        let hi = f32::from_le_bytes(bytes[24..28].try_into().unwrap());
        let h0 = f32::from_le_bytes(bytes[40..44].try_into().unwrap());
        assert_eq!(h0.to_bits(), s.height[0].to_bits());
        assert!(lo <= h0 && h0 <= hi && lo < hi);
        assert_eq!(bytes[HEADER_BYTES + 4 * n], s.biome[0].index());
    }

    #[test]
    fn other_layers_are_refused_by_name() {
        let layers = Layers {
            height: true,
            temperature: true,
            ..Layers::NONE
        };
        match layer_mask(layers) {
            Err(FormatError::Param(p)) => assert!(format!("{p}").contains("layers"), "{p}"),
            other => panic!("{other:?}"),
        }
    }
}
