//! Heightmap encodings over plain buffers: 16-bit quantisation, R16
//! (raw little-endian `u16`), raw little-endian `f32`, and Terrarium RGB
//! (the web-map elevation tile encoding).
//!
//! None of these formats carries its size or scale, so the caller writes
//! a sidecar (width, height, metres per sample, the heights that 0 and
//! 65535 stand for, byte order) next to the bytes.

use crate::ExportError;

/// Heights mapped onto `0 ..= 65535`: `sample = round((h − min) / (max −
/// min) · 65535)`, and back `h ≈ min + sample / 65535 · (max − min)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantized {
    /// One sample per height.
    pub samples: Vec<u16>,
    /// The height sample 0 stands for.
    pub min: f32,
    /// The height sample 65535 stands for.
    pub max: f32,
}

impl Quantized {
    /// The height a sample stands for.
    pub fn height(&self, sample: u16) -> f32 {
        self.min + f32::from(sample) / 65535.0 * (self.max - self.min)
    }
}

/// Quantises heights to 16 bits over their own range (a flat map gives
/// all zeros). Non-finite heights are treated as the minimum.
pub fn quantize_u16(heights: &[f32]) -> Quantized {
    let finite = || heights.iter().copied().filter(|h| h.is_finite());
    let min = finite().fold(f32::INFINITY, f32::min);
    let max = finite().fold(f32::NEG_INFINITY, f32::max);
    if !(min.is_finite() && max.is_finite()) || max <= min {
        let base = if min.is_finite() { min } else { 0.0 };
        return Quantized {
            samples: vec![0; heights.len()],
            min: base,
            max: base,
        };
    }
    let scale = 65535.0 / (f64::from(max) - f64::from(min));
    let samples = heights
        .iter()
        .map(|&h| {
            let h = if h.is_finite() { h } else { min };
            ((f64::from(h) - f64::from(min)) * scale)
                .round()
                .clamp(0.0, 65535.0) as u16
        })
        .collect();
    Quantized { samples, min, max }
}

fn check(len: usize, width: u32, height: u32) -> Result<(), ExportError> {
    let expected = width as usize * height as usize;
    if len != expected || width == 0 || height == 0 {
        return Err(ExportError::BufferSize {
            got: len,
            expected,
            width,
            height,
            channels: 1,
        });
    }
    Ok(())
}

/// R16: `width × height` little-endian `u16`, row-major, no header.
pub fn encode_r16_le(width: u32, height: u32, samples: &[u16]) -> Result<Vec<u8>, ExportError> {
    check(samples.len(), width, height)?;
    Ok(samples.iter().flat_map(|s| s.to_le_bytes()).collect())
}

/// Reads R16 bytes back (a trailing odd byte is an error).
pub fn decode_r16_le(bytes: &[u8]) -> Result<Vec<u16>, ExportError> {
    if !bytes.len().is_multiple_of(2) {
        return Err(ExportError::BufferSize {
            got: bytes.len(),
            expected: bytes.len() + 1,
            width: 0,
            height: 0,
            channels: 1,
        });
    }
    Ok(bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect())
}

/// Raw `f32`: `width × height` little-endian IEEE-754 floats, row-major.
pub fn encode_f32_le(width: u32, height: u32, values: &[f32]) -> Result<Vec<u8>, ExportError> {
    check(values.len(), width, height)?;
    Ok(values.iter().flat_map(|v| v.to_le_bytes()).collect())
}

/// Reads raw little-endian `f32` bytes back.
pub fn decode_f32_le(bytes: &[u8]) -> Result<Vec<f32>, ExportError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(ExportError::BufferSize {
            got: bytes.len(),
            expected: bytes.len().div_ceil(4) * 4,
            width: 0,
            height: 0,
            channels: 1,
        });
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// Terrarium RGB: `height + 32768 = R·256 + G + B/256` metres, 3 bytes per
/// height (Mapzen's elevation tiles, read by MapLibre and geo-three).
/// Heights are clamped to the encodable −32768 ..< 32768 m.
pub fn terrarium_rgb(heights: &[f32]) -> Vec<u8> {
    heights
        .iter()
        .flat_map(|&h| {
            let v = (f64::from(h) + 32768.0).clamp(0.0, 65535.996);
            let whole = v.floor();
            let r = (whole / 256.0).floor();
            let g = whole - r * 256.0;
            let b = ((v - whole) * 256.0).floor();
            [r as u8, g as u8, b as u8]
        })
        .collect()
}

/// The height a Terrarium pixel stands for.
pub fn terrarium_height(rgb: [u8; 3]) -> f32 {
    (f64::from(rgb[0]) * 256.0 + f64::from(rgb[1]) + f64::from(rgb[2]) / 256.0 - 32768.0) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r16_and_f32_round_trip() {
        let h = [-4200.5f32, 0.0, 12.25, 8848.0];
        let q = quantize_u16(&h);
        assert_eq!(q.samples.first(), Some(&0));
        assert_eq!(q.samples.last(), Some(&65535));
        let bytes = encode_r16_le(2, 2, &q.samples).unwrap();
        assert_eq!(bytes[6..8], [0xff, 0xff]);
        assert_eq!(decode_r16_le(&bytes).unwrap(), q.samples);
        for (s, h) in q.samples.iter().zip(h) {
            assert!((q.height(*s) - h).abs() <= (q.max - q.min) / 65535.0, "{h}");
        }
        let f = encode_f32_le(2, 2, &h).unwrap();
        assert_eq!(decode_f32_le(&f).unwrap(), h);
    }

    #[test]
    fn flat_and_wrongly_sized_maps() {
        let q = quantize_u16(&[5.0; 4]);
        assert_eq!((q.samples, q.min, q.max), (vec![0; 4], 5.0, 5.0));
        assert!(encode_r16_le(3, 2, &[0; 4]).is_err());
        assert!(encode_f32_le(0, 0, &[]).is_err());
        assert!(decode_r16_le(&[1, 2, 3]).is_err());
    }

    #[test]
    fn terrarium_round_trips_to_a_256th_of_a_metre() {
        for h in [-11000.0f32, -0.5, 0.0, 1.0 / 256.0, 8848.86, 32767.9] {
            let rgb = terrarium_rgb(&[h]);
            let back = terrarium_height([rgb[0], rgb[1], rgb[2]]);
            assert!((back - h).abs() <= 1.0 / 256.0 + 1e-3, "{h} → {back}");
        }
        assert_eq!(terrarium_rgb(&[0.0]), vec![128, 0, 0]);
    }
}
