//! The binary form of a planet chunk (`format=bin`): a fixed 48-byte
//! little-endian header, then the layers.
//!
//! ```text
//! offset size  field
//!  0      4    magic "MKPC"
//!  4      2    u16 format version (1)
//!  6      2    u16 header length in bytes (48): data starts here
//!  8      4    u32 planet generator version
//! 12      1    u8  projection: 0 equirectangular, 1 cube, 2 tangent_cube, 3 octahedral
//! 13      1    u8  cube face 0..=5 in atlas order (+x, +y, -x, -y, +z, -z), 255 if none
//! 14      1    u8  edge: 0 exclusive (256 samples a side), 1 shared (257)
//! 15      1    u8  layer mask: 1 height, 2 temperature, 4 humidity, 8 biome,
//!                  16 uplift, 32 plate (generator version 2), 64 water,
//!                  128 flow (generator version 3)
//! 16      4    u32 lod
//! 20      4    u32 cx
//! 24      4    u32 cy
//! 28      4    u32 samples per side (n)
//! 32      8    f64 metres per sample
//! 40      8    u64 planet parameter hash (the `p` of pinned URLs)
//! 48      …    for each layer in the mask, in bit order, n·n samples row-major:
//!              height f32 (m), temperature f32 (°C), humidity f32 (0..1),
//!              biome u8 (index into the JSON form's biome_legend),
//!              uplift f32 (m), plate u16 (id), water f32 (m over the
//!              ground), flow f32 (m³/s); each layer starts on a
//!              multiple of 4 bytes (zero padding after biome when a layer
//!              follows it)
//! ```
//! Floats are IEEE 754 binary32; a decoder reads them as
//! `Float32Array(buffer, offset, n²)` on little-endian hosts, every offset
//! being 4-aligned. A version-1 chunk never has padding (biome is last).

use mangekyo_planet::{Chunk, CubeFace, Edge, Layers, Projection};

/// The magic bytes.
pub const MAGIC: &[u8; 4] = b"MKPC";
/// The layout version.
pub const FORMAT_VERSION: u16 = 1;
/// Header bytes before the first layer.
pub const HEADER_BYTES: u16 = 48;

fn projection_code(p: Projection) -> u8 {
    match p {
        Projection::Equirectangular => 0,
        Projection::Cube => 1,
        Projection::TangentCube => 2,
        Projection::Octahedral => 3,
    }
}

fn face_code(face: Option<CubeFace>) -> u8 {
    face.and_then(|f| CubeFace::ALL.iter().position(|&g| g == f))
        .map_or(255, |i| i as u8)
}

/// The header's layer mask of `layers` (1 height, 2 temperature, 4
/// humidity, 8 biome, 16 uplift, 32 plate, 64 water, 128 flow): also what names a layer set in
/// the service's cache keys, so a new layer gets its bit here once.
pub fn layer_mask(layers: Layers) -> u8 {
    u8::from(layers.height)
        | u8::from(layers.temperature) << 1
        | u8::from(layers.humidity) << 2
        | u8::from(layers.biome) << 3
        | u8::from(layers.uplift) << 4
        | u8::from(layers.plate) << 5
        | u8::from(layers.water) << 6
        | u8::from(layers.flow) << 7
}

/// Zero bytes up to the next multiple of 4.
fn pad4(out: &mut Vec<u8>) {
    out.resize(out.len().next_multiple_of(4), 0);
}

/// Encodes `chunk` (its non-empty layers) with `params_hash` in the header.
pub fn encode(chunk: &Chunk, generator_version: u32, params_hash: u64) -> Vec<u8> {
    let n2 = (chunk.size as usize).pow(2);
    let mask = layer_mask(Layers {
        height: !chunk.height.is_empty(),
        temperature: !chunk.temperature.is_empty(),
        humidity: !chunk.humidity.is_empty(),
        biome: !chunk.biome.is_empty(),
        uplift: !chunk.uplift.is_empty(),
        plate: !chunk.plate.is_empty(),
        water: !chunk.water.is_empty(),
        flow: !chunk.flow.is_empty(),
    });
    let mut out = Vec::with_capacity(usize::from(HEADER_BYTES) + 13 * n2);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&HEADER_BYTES.to_le_bytes());
    out.extend_from_slice(&generator_version.to_le_bytes());
    out.push(projection_code(chunk.address.projection));
    out.push(face_code(chunk.face));
    out.push(u8::from(chunk.edge == Edge::Shared));
    out.push(mask);
    for v in [
        chunk.address.lod,
        chunk.address.cx,
        chunk.address.cy,
        chunk.size,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&chunk.metres_per_sample.to_le_bytes());
    out.extend_from_slice(&params_hash.to_le_bytes());
    for layer in [&chunk.height, &chunk.temperature, &chunk.humidity] {
        for v in layer.iter() {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out.extend(chunk.biome.iter().map(|b| b.index()));
    if !chunk.uplift.is_empty() {
        pad4(&mut out);
        for v in &chunk.uplift {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    if !chunk.plate.is_empty() {
        pad4(&mut out);
        for v in &chunk.plate {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    for layer in [&chunk.water, &chunk.flow] {
        if !layer.is_empty() {
            pad4(&mut out);
            for v in layer.iter() {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    out
}

/// A decoded header and layers (tests and Rust clients).
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The generator version.
    pub generator_version: u32,
    /// The layer mask.
    pub mask: u8,
    /// lod, cx, cy.
    pub address: [u32; 3],
    /// Samples per side.
    pub size: u32,
    /// Metres per sample.
    pub metres_per_sample: f64,
    /// The parameter hash.
    pub params_hash: u64,
    /// Heights (empty if absent).
    pub height: Vec<f32>,
}

/// Decodes the header and the height layer; `None` if malformed.
pub fn decode(bytes: &[u8]) -> Option<Decoded> {
    let u32_at = |o: usize| Some(u32::from_le_bytes(bytes.get(o..o + 4)?.try_into().ok()?));
    if bytes.get(0..4)? != MAGIC
        || u16::from_le_bytes(bytes.get(4..6)?.try_into().ok()?) != FORMAT_VERSION
    {
        return None;
    }
    let start = usize::from(u16::from_le_bytes(bytes.get(6..8)?.try_into().ok()?));
    let mask = *bytes.get(15)?;
    let size = u32_at(28)?;
    let n2 = (size as usize).pow(2);
    let height = if mask & 1 == 1 {
        bytes
            .get(start..start + 4 * n2)?
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    } else {
        Vec::new()
    };
    Some(Decoded {
        generator_version: u32_at(8)?,
        mask,
        address: [u32_at(16)?, u32_at(20)?, u32_at(24)?],
        size,
        metres_per_sample: f64::from_le_bytes(bytes.get(32..40)?.try_into().ok()?),
        params_hash: u64::from_le_bytes(bytes.get(40..48)?.try_into().ok()?),
        height,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mangekyo_planet::{Chunk, ChunkAddress, ChunkRequest, Layers, Planet, PlanetParams};

    /// A shared-edge chunk with every layer of a small planet of `version`.
    fn sampled(version: u32) -> Chunk {
        let planet = Planet::new(PlanetParams {
            radius: 200_000.0,
            pixel_size: 50.0,
            generator_version: version,
            graph_n: 16,
            ..PlanetParams::default()
        })
        .unwrap();
        let req = ChunkRequest {
            address: ChunkAddress {
                projection: Projection::TangentCube,
                lod: 0,
                cx: 2,
                cy: 1,
            },
            edge: Edge::Shared,
            layers: Layers::all(version),
        };
        planet.sample_chunk(&req).unwrap()
    }

    #[test]
    fn round_trip_and_layout() {
        let chunk = sampled(1);
        let bytes = encode(&chunk, 1, 0xABCD);
        let n2 = 257 * 257;
        assert_eq!(bytes.len(), 48 + 3 * 4 * n2 + n2);
        assert_eq!(bytes[15], 0b1111);
        assert_eq!(bytes[13], face_code(chunk.face));
        let d = decode(&bytes).unwrap();
        assert_eq!(
            (d.address, d.size, d.params_hash, d.mask),
            ([0, 2, 1], 257, 0xABCD, 15)
        );
        assert_eq!(
            d.height.iter().map(|h| h.to_bits()).collect::<Vec<_>>(),
            chunk.height.iter().map(|h| h.to_bits()).collect::<Vec<_>>()
        );
        assert_eq!(bytes[bytes.len() - 1], chunk.biome[n2 - 1].index());
    }

    #[test]
    fn version_2_layers_follow_4_aligned() {
        let chunk = sampled(2);
        let bytes = encode(&chunk, 2, 1);
        let n2 = 257 * 257;
        assert_eq!(bytes[15], 0b11_1111);
        let uplift_at = (48usize + 3 * 4 * n2 + n2).next_multiple_of(4);
        let plate_at = uplift_at + 4 * n2;
        assert_eq!(bytes.len(), plate_at + 2 * n2);
        let u = f32::from_le_bytes(bytes[uplift_at..uplift_at + 4].try_into().unwrap());
        assert_eq!(u.to_bits(), chunk.uplift[0].to_bits());
        let last = u16::from_le_bytes(bytes[bytes.len() - 2..].try_into().unwrap());
        assert_eq!(last, chunk.plate[n2 - 1]);
    }
}
