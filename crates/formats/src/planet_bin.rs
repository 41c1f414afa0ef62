//! The binary form of a planet chunk (`format=bin`): a fixed little-endian
//! header, then the layers.
//!
//! ```text
//! offset size  field
//!  0      4    magic "MKPC"
//!  4      2    u16 format version: 1, or 2 when a version-4 layer
//!                  (precipitation, biome_weights) is present
//!  6      2    u16 header length in bytes (48 in format 1, 52 in format
//!                  2): data starts here
//!  8      4    u32 planet generator version
//! 12      1    u8  projection: 0 equirectangular, 1 cube, 2 tangent_cube, 3 octahedral
//! 13      1    u8  cube face 0..=5 in atlas order (+x, +y, -x, -y, +z, -z), 255 if none
//! 14      1    u8  edge: 0 exclusive (256 samples a side), 1 shared (257)
//! 15      1    u8  layer mask, low 8 bits: 1 height, 2 temperature,
//!                  4 humidity, 8 biome, 16 uplift, 32 plate (generator
//!                  version 2), 64 water, 128 flow (generator version 3)
//! 16      4    u32 lod
//! 20      4    u32 cx
//! 24      4    u32 cy
//! 28      4    u32 samples per side (n)
//! 32      8    f64 metres per sample
//! 40      8    u64 planet parameter hash (the `p` of pinned URLs)
//!              format 2 only:
//! 48      2    u16 layer mask, high bits (the mask's bits 8..16, shifted
//!                  down): 1 (mask 256) precipitation, 2 (mask 512)
//!                  biome_weights (generator version 4)
//! 50      2    zero
//! 48|52   …    for each layer in the mask, in bit order, n·n samples row-major:
//!              height f32 (m), temperature f32 (°C), humidity f32 (0..1),
//!              biome u8 (index into the JSON form's biome_legend),
//!              uplift f32 (m), plate u16 (id), water f32 (m over the
//!              ground), flow f32 (m³/s), precipitation f32 (mm/yr),
//!              biome_weights 4 × u8 (the strongest biome, its weight in
//!              255ths, the second biome, its weight); each layer starts
//!              on a multiple of 4 bytes (zero padding after biome and
//!              plate when a layer follows them)
//! ```
//! Floats are IEEE 754 binary32; a decoder reads them as
//! `Float32Array(buffer, offset, n²)` on little-endian hosts, every offset
//! being 4-aligned. A version-1 chunk never has padding (biome is last).
//! A chunk without a version-4 layer is format 1 whatever its planet's
//! version, so the bytes served for generator versions 1–3 never change;
//! a reader finds the layers at the header length (offset 6) in both.

use mangekyo_planet::{Chunk, CubeFace, Edge, Layers, Projection, Version};

/// The magic bytes.
pub const MAGIC: &[u8; 4] = b"MKPC";
/// The layout version of chunks without a version-4 layer.
pub const FORMAT_VERSION: u16 = 1;
/// Header bytes before the first layer in format 1.
pub const HEADER_BYTES: u16 = 48;
/// The layout version of chunks with a version-4 layer (precipitation,
/// biome_weights): the mask no longer fits its byte.
pub const FORMAT_VERSION_2: u16 = 2;
/// Header bytes before the first layer in format 2 (format 1's 48, the
/// mask's high bits as a u16 and two zero bytes).
pub const HEADER_BYTES_2: u16 = 52;

/// Mask bit of the `precipitation` layer.
pub const PRECIPITATION_BIT: u16 = 1 << 8;
/// Mask bit of the `biome_weights` layer.
pub const BIOME_WEIGHTS_BIT: u16 = 1 << 9;

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

/// The layer mask of `layers` (1 height, 2 temperature, 4 humidity,
/// 8 biome, 16 uplift, 32 plate, 64 water, 128 flow, 256 precipitation,
/// 512 biome_weights): the header's (byte 15 holds the low 8 bits, format
/// 2's u16 at 48 the rest), and also what names a layer set in the
/// service's cache keys (in decimal, so the keys of the layers of versions
/// 1–3 are what they were when the mask was a byte), so a new layer gets
/// its bit here once.
pub fn layer_mask(layers: Layers) -> u16 {
    u16::from(layers.height)
        | u16::from(layers.temperature) << 1
        | u16::from(layers.humidity) << 2
        | u16::from(layers.biome) << 3
        | u16::from(layers.uplift) << 4
        | u16::from(layers.plate) << 5
        | u16::from(layers.water) << 6
        | u16::from(layers.flow) << 7
        | u16::from(layers.precipitation) << 8
        | u16::from(layers.biome_weights) << 9
}

/// The layers `chunk` holds (its non-empty ones).
fn layers_of(chunk: &Chunk) -> Layers {
    Layers {
        height: !chunk.height.is_empty(),
        temperature: !chunk.temperature.is_empty(),
        humidity: !chunk.humidity.is_empty(),
        biome: !chunk.biome.is_empty(),
        uplift: !chunk.uplift.is_empty(),
        plate: !chunk.plate.is_empty(),
        water: !chunk.water.is_empty(),
        flow: !chunk.flow.is_empty(),
        precipitation: !chunk.precipitation.is_empty(),
        biome_weights: !chunk.biome_weights.is_empty(),
    }
}

/// Zero bytes up to the next multiple of 4.
fn pad4(out: &mut Vec<u8>) {
    out.resize(out.len().next_multiple_of(4), 0);
}

/// Appends an f32 layer (4-aligned; nothing when empty).
fn put_f32s(out: &mut Vec<u8>, layer: &[f32]) {
    if !layer.is_empty() {
        pad4(out);
        for v in layer {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

/// Encodes `chunk` (its non-empty layers) with `params_hash` in the header:
/// format 1 unless it holds a version-4 layer, then format 2.
pub fn encode(chunk: &Chunk, generator_version: Version, params_hash: u64) -> Vec<u8> {
    let n2 = (chunk.size as usize).pow(2);
    let mask = layer_mask(layers_of(chunk));
    let high = mask >> 8;
    let (format, header) = if high == 0 {
        (FORMAT_VERSION, HEADER_BYTES)
    } else {
        (FORMAT_VERSION_2, HEADER_BYTES_2)
    };
    let mut out = Vec::with_capacity(usize::from(header) + 21 * n2);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&format.to_le_bytes());
    out.extend_from_slice(&header.to_le_bytes());
    out.extend_from_slice(&generator_version.code().to_le_bytes());
    out.push(projection_code(chunk.address.projection));
    out.push(face_code(chunk.face));
    out.push(u8::from(chunk.edge == Edge::Shared));
    out.push((mask & 0xFF) as u8);
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
    if format == FORMAT_VERSION_2 {
        out.extend_from_slice(&high.to_le_bytes());
        out.extend_from_slice(&[0, 0]);
    }
    debug_assert_eq!(out.len(), usize::from(header));
    for layer in [&chunk.height, &chunk.temperature, &chunk.humidity] {
        for v in layer.iter() {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out.extend(chunk.biome.iter().map(|b| b.index()));
    put_f32s(&mut out, &chunk.uplift);
    if !chunk.plate.is_empty() {
        pad4(&mut out);
        for v in &chunk.plate {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    put_f32s(&mut out, &chunk.water);
    put_f32s(&mut out, &chunk.flow);
    put_f32s(&mut out, &chunk.precipitation);
    if !chunk.biome_weights.is_empty() {
        pad4(&mut out);
        out.extend(chunk.biome_weights.iter().flat_map(|w| w.to_bytes()));
    }
    out
}

/// A decoded header and layers (tests and Rust clients). A layer the mask
/// does not name is empty.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The layout version: [`FORMAT_VERSION`] or [`FORMAT_VERSION_2`].
    pub format_version: u16,
    /// The generator version.
    pub generator_version: u32,
    /// Projection code (0 equirectangular, 1 cube, 2 tangent_cube, 3 octahedral).
    pub projection: u8,
    /// Cube face in atlas order, 255 if none.
    pub face: u8,
    /// Whether the chunk has shared edges (257 samples a side).
    pub shared: bool,
    /// The layer mask ([`layer_mask`]'s bits).
    pub mask: u16,
    /// lod, cx, cy.
    pub address: [u32; 3],
    /// Samples per side.
    pub size: u32,
    /// Metres per sample.
    pub metres_per_sample: f64,
    /// The parameter hash.
    pub params_hash: u64,
    /// Heights, m.
    pub height: Vec<f32>,
    /// Temperatures, °C.
    pub temperature: Vec<f32>,
    /// Humidity, 0..1.
    pub humidity: Vec<f32>,
    /// Biome indices.
    pub biome: Vec<u8>,
    /// Uplift, m.
    pub uplift: Vec<f32>,
    /// Plate ids.
    pub plate: Vec<u16>,
    /// Water over the ground, m.
    pub water: Vec<f32>,
    /// Discharge, m³/s.
    pub flow: Vec<f32>,
    /// Precipitation, mm/yr.
    pub precipitation: Vec<f32>,
    /// Biome weights: the strongest biome, its weight, the second, its
    /// weight (`BiomeWeights::to_bytes`).
    pub biome_weights: Vec<[u8; 4]>,
}

/// Decodes the header and every layer; `None` if malformed (a bad magic,
/// an unknown format version, a header length that is not the format's,
/// or fewer or more bytes than the mask's layers take).
pub fn decode(bytes: &[u8]) -> Option<Decoded> {
    let u16_at = |o: usize| Some(u16::from_le_bytes(bytes.get(o..o + 2)?.try_into().ok()?));
    let u32_at = |o: usize| Some(u32::from_le_bytes(bytes.get(o..o + 4)?.try_into().ok()?));
    if bytes.get(0..4)? != MAGIC {
        return None;
    }
    let format_version = u16_at(4)?;
    let start = u16_at(6)?;
    let high = match (format_version, start) {
        (FORMAT_VERSION, HEADER_BYTES) => 0,
        (FORMAT_VERSION_2, HEADER_BYTES_2) if bytes.get(50..52)? == [0, 0] => {
            let high = u16_at(48)?;
            // Bits 8 and 9 are all format 2 has, and it has one of them.
            if high == 0 || high >> 2 != 0 {
                return None;
            }
            high
        }
        _ => return None,
    };
    let mask = u16::from(*bytes.get(15)?) | high << 8;
    let size = u32_at(28)?;
    let n2 = usize::try_from(size).ok()?.checked_pow(2)?;
    let mut at = usize::from(start);
    let mut take = |on: bool, width: usize| -> Option<&[u8]> {
        if !on {
            return Some(&[]);
        }
        if width != 1 {
            at = at.next_multiple_of(4);
        }
        let slice = bytes.get(at..at.checked_add(width.checked_mul(n2)?)?)?;
        at += slice.len();
        Some(slice)
    };
    let f32s = |b: &[u8]| -> Vec<f32> {
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let bit = |k: u16| mask & (1 << k) != 0;
    let height = f32s(take(bit(0), 4)?);
    let temperature = f32s(take(bit(1), 4)?);
    let humidity = f32s(take(bit(2), 4)?);
    let biome = take(bit(3), 1)?.to_vec();
    let uplift = f32s(take(bit(4), 4)?);
    let plate = take(bit(5), 2)?
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let water = f32s(take(bit(6), 4)?);
    let flow = f32s(take(bit(7), 4)?);
    let precipitation = f32s(take(bit(8), 4)?);
    let biome_weights = take(bit(9), 4)?
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    if at != bytes.len() {
        return None;
    }
    Some(Decoded {
        format_version,
        generator_version: u32_at(8)?,
        projection: *bytes.get(12)?,
        face: *bytes.get(13)?,
        shared: *bytes.get(14)? == 1,
        mask,
        address: [u32_at(16)?, u32_at(20)?, u32_at(24)?],
        size,
        metres_per_sample: f64::from_le_bytes(bytes.get(32..40)?.try_into().ok()?),
        params_hash: u64::from_le_bytes(bytes.get(40..48)?.try_into().ok()?),
        height,
        temperature,
        humidity,
        biome,
        uplift,
        plate,
        water,
        flow,
        precipitation,
        biome_weights,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mangekyo_planet::{Chunk, ChunkAddress, ChunkRequest, Layers, Planet, PlanetParams};

    /// A shared-edge chunk with every layer of a small planet of `version`.
    fn sampled(version: Version) -> Chunk {
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
            layers: version.layers(),
        };
        planet.sample_chunk(&req).unwrap()
    }

    #[test]
    fn round_trip_and_layout() {
        let chunk = sampled(Version::V1);
        let bytes = encode(&chunk, Version::V1, 0xABCD);
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
        let chunk = sampled(Version::V2);
        let bytes = encode(&chunk, Version::V2, 1);
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

    /// Every layer of `chunk` equals the decoded one, bit for bit.
    fn assert_layers_equal(d: &Decoded, chunk: &Chunk) {
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for (got, want) in [
            (&d.height, &chunk.height),
            (&d.temperature, &chunk.temperature),
            (&d.humidity, &chunk.humidity),
            (&d.uplift, &chunk.uplift),
            (&d.water, &chunk.water),
            (&d.flow, &chunk.flow),
            (&d.precipitation, &chunk.precipitation),
        ] {
            assert_eq!(bits(got), bits(want));
        }
        assert_eq!(
            d.biome,
            chunk.biome.iter().map(|b| b.index()).collect::<Vec<_>>()
        );
        assert_eq!(d.plate, chunk.plate);
        assert_eq!(
            d.biome_weights,
            chunk
                .biome_weights
                .iter()
                .map(|w| w.to_bytes())
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn version_3_chunks_stay_format_1_and_decode_whole() {
        let chunk = sampled(Version::V3);
        let bytes = encode(&chunk, Version::V3, 7);
        assert_eq!(&bytes[4..8], &[1, 0, 48, 0], "format 1, 48-byte header");
        assert_eq!(bytes[15], 0xff);
        let d = decode(&bytes).unwrap();
        assert_eq!(
            (d.format_version, d.mask, d.generator_version),
            (1, 0xff, 3)
        );
        assert!(d.shared && d.face == face_code(chunk.face) && d.projection == 2);
        assert_layers_equal(&d, &chunk);
    }

    #[test]
    fn version_4_layers_make_format_2_with_a_52_byte_header() {
        let chunk = sampled(Version::V4);
        let n2 = 257 * 257;
        assert_eq!(chunk.precipitation.len(), n2);
        assert_eq!(chunk.biome_weights.len(), n2);
        let bytes = encode(&chunk, Version::V4, 9);
        assert_eq!(&bytes[4..8], &[2, 0, 52, 0], "format 2, 52-byte header");
        assert_eq!(bytes[15], 0xff, "the low 8 bits of the mask");
        assert_eq!(&bytes[48..52], &[3, 0, 0, 0], "the high bits, then zeros");
        // height, temperature, humidity, biome, uplift, plate, water, flow,
        // precipitation, biome_weights; each 4-aligned.
        let biome_end = 52 + 3 * 4 * n2 + n2;
        let plate_at = biome_end.next_multiple_of(4) + 4 * n2;
        let water_at = (plate_at + 2 * n2).next_multiple_of(4);
        let precipitation_at = water_at + 2 * 4 * n2;
        let weights_at = precipitation_at + 4 * n2;
        assert_eq!(bytes.len(), weights_at + 4 * n2);
        let p = f32::from_le_bytes(bytes[precipitation_at..][..4].try_into().unwrap());
        assert_eq!(p.to_bits(), chunk.precipitation[0].to_bits());
        assert_eq!(
            bytes[weights_at..weights_at + 4],
            chunk.biome_weights[0].to_bytes()
        );
        let d = decode(&bytes).unwrap();
        assert_eq!(
            (d.format_version, d.mask, d.generator_version),
            (2, 0x3ff, 4)
        );
        assert_layers_equal(&d, &chunk);

        // Either version-4 layer alone is format 2 too; without them a
        // version-4 chunk is format 1.
        for (layers, mask) in [
            (
                Layers {
                    precipitation: true,
                    ..Layers::NONE
                },
                PRECIPITATION_BIT,
            ),
            (
                Layers {
                    height: true,
                    biome_weights: true,
                    ..Layers::NONE
                },
                BIOME_WEIGHTS_BIT | 1,
            ),
            (Layers::HEIGHT, 1),
        ] {
            let mut part = chunk.clone();
            for (on, v) in [
                (layers.height, &mut part.height),
                (layers.temperature, &mut part.temperature),
                (layers.humidity, &mut part.humidity),
                (layers.uplift, &mut part.uplift),
                (layers.water, &mut part.water),
                (layers.flow, &mut part.flow),
                (layers.precipitation, &mut part.precipitation),
            ] {
                if !on {
                    v.clear();
                }
            }
            part.biome.clear();
            part.plate.clear();
            if !layers.biome_weights {
                part.biome_weights.clear();
            }
            let bytes = encode(&part, Version::V4, 9);
            let d = decode(&bytes).unwrap();
            assert_eq!(d.mask, mask);
            assert_eq!(d.format_version, if mask > 0xff { 2 } else { 1 });
            assert_eq!(layer_mask(layers), mask);
            assert_layers_equal(&d, &part);
        }
    }

    #[test]
    fn malformed_bytes_decode_to_none() {
        let chunk = sampled(Version::V1);
        let bytes = encode(&chunk, Version::V1, 1);
        assert!(decode(&bytes).is_some());
        assert!(decode(&bytes[..bytes.len() - 1]).is_none(), "short");
        let mut long = bytes.clone();
        long.push(0);
        assert!(decode(&long).is_none(), "trailing bytes");
        let mut other = bytes.clone();
        other[4] = 3;
        assert!(decode(&other).is_none(), "unknown format");
        let mut header = bytes;
        header[4] = 2;
        assert!(decode(&header).is_none(), "format 2 with a 48-byte header");
    }
}
