//! PNG encoding of grey, RGB and RGBA images, 8 or 16 bits per sample.
//!
//! Compression and filters are fixed explicitly so the bytes only change
//! when the `png` crate changes its encoder; tests should still compare
//! decoded samples ([`decode`]), never file bytes.

use crate::ExportError;

/// Colour layout of an image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One grey sample per pixel.
    Gray,
    /// Red, green, blue.
    Rgb,
    /// Red, green, blue, alpha.
    Rgba,
}

impl Layout {
    fn channels(self) -> u32 {
        match self {
            Layout::Gray => 1,
            Layout::Rgb => 3,
            Layout::Rgba => 4,
        }
    }

    fn color_type(self) -> png::ColorType {
        match self {
            Layout::Gray => png::ColorType::Grayscale,
            Layout::Rgb => png::ColorType::Rgb,
            Layout::Rgba => png::ColorType::Rgba,
        }
    }
}

fn check(len: usize, width: u32, height: u32, layout: Layout) -> Result<(), ExportError> {
    let channels = layout.channels();
    let expected = width as usize * height as usize * channels as usize;
    if len != expected || width == 0 || height == 0 {
        return Err(ExportError::BufferSize {
            got: len,
            expected,
            width,
            height,
            channels,
        });
    }
    Ok(())
}

fn encode(
    width: u32,
    height: u32,
    layout: Layout,
    depth: png::BitDepth,
    data: &[u8],
) -> Result<Vec<u8>, ExportError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(layout.color_type());
        enc.set_depth(depth);
        enc.set_compression(png::Compression::Balanced);
        enc.set_filter(png::Filter::Adaptive);
        let mut writer = enc
            .write_header()
            .map_err(|e| ExportError::Png(e.to_string()))?;
        writer
            .write_image_data(data)
            .map_err(|e| ExportError::Png(e.to_string()))?;
        writer
            .finish()
            .map_err(|e| ExportError::Png(e.to_string()))?;
    }
    Ok(out)
}

/// Encodes 8-bit samples (`width × height × channels`, row-major).
pub fn encode8(
    width: u32,
    height: u32,
    layout: Layout,
    samples: &[u8],
) -> Result<Vec<u8>, ExportError> {
    check(samples.len(), width, height, layout)?;
    encode(width, height, layout, png::BitDepth::Eight, samples)
}

/// Encodes an 8-bit greyscale image.
pub fn encode_gray8(width: u32, height: u32, samples: &[u8]) -> Result<Vec<u8>, ExportError> {
    encode8(width, height, Layout::Gray, samples)
}

/// Encodes an 8-bit RGB image (3 bytes per pixel).
pub fn encode_rgb8(width: u32, height: u32, samples: &[u8]) -> Result<Vec<u8>, ExportError> {
    encode8(width, height, Layout::Rgb, samples)
}

/// Encodes 16-bit samples. PNG stores them big-endian; this takes native
/// `u16` values and does the byte order itself.
pub fn encode16(
    width: u32,
    height: u32,
    layout: Layout,
    samples: &[u16],
) -> Result<Vec<u8>, ExportError> {
    check(samples.len(), width, height, layout)?;
    let bytes: Vec<u8> = samples.iter().flat_map(|s| s.to_be_bytes()).collect();
    encode(width, height, layout, png::BitDepth::Sixteen, &bytes)
}

/// Encodes a 16-bit greyscale image (heightmaps).
pub fn encode_gray16(width: u32, height: u32, samples: &[u16]) -> Result<Vec<u8>, ExportError> {
    encode16(width, height, Layout::Gray, samples)
}

/// A decoded image, for tests and round trips.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Colour layout.
    pub layout: Layout,
    /// Samples, either 8-bit or 16-bit.
    pub samples: Samples,
}

/// Decoded sample storage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Samples {
    /// 8 bits per sample.
    Eight(Vec<u8>),
    /// 16 bits per sample, native order.
    Sixteen(Vec<u16>),
}

impl Decoded {
    /// The samples if the image is 8-bit.
    pub fn samples8(&self) -> Option<&[u8]> {
        match &self.samples {
            Samples::Eight(v) => Some(v),
            Samples::Sixteen(_) => None,
        }
    }

    /// The samples if the image is 16-bit.
    pub fn samples16(&self) -> Option<&[u16]> {
        match &self.samples {
            Samples::Sixteen(v) => Some(v),
            Samples::Eight(_) => None,
        }
    }
}

/// Decodes a grey, RGB or RGBA PNG of 8 or 16 bits per sample.
pub fn decode(bytes: &[u8]) -> Result<Decoded, ExportError> {
    let err = |e: png::DecodingError| ExportError::Png(e.to_string());
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .map_err(err)?;
    let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader.next_frame(&mut buf).map_err(err)?;
    buf.truncate(info.buffer_size());
    let layout = match info.color_type {
        png::ColorType::Grayscale => Layout::Gray,
        png::ColorType::Rgb => Layout::Rgb,
        png::ColorType::Rgba => Layout::Rgba,
        other => {
            return Err(ExportError::Png(format!(
                "unsupported colour type {other:?}"
            )));
        }
    };
    let samples = match info.bit_depth {
        png::BitDepth::Eight => Samples::Eight(buf),
        png::BitDepth::Sixteen => Samples::Sixteen(
            buf.chunks_exact(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect(),
        ),
        other => return Err(ExportError::Png(format!("unsupported bit depth {other:?}"))),
    };
    Ok(Decoded {
        width: info.width,
        height: info.height,
        layout,
        samples,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_bit_round_trip_keeps_every_sample() {
        let samples: Vec<u16> = (0..64u16).map(|i| i * 1021).collect();
        let bytes = encode_gray16(8, 8, &samples).unwrap();
        let back = decode(&bytes).unwrap();
        assert_eq!((back.width, back.height, back.layout), (8, 8, Layout::Gray));
        assert_eq!(back.samples16(), Some(&samples[..]));
    }

    #[test]
    fn rgb_round_trip() {
        let samples: Vec<u8> = (0..3 * 5 * 3).map(|i| i as u8).collect();
        let back = decode(&encode_rgb8(5, 3, &samples).unwrap()).unwrap();
        assert_eq!(back.layout, Layout::Rgb);
        assert_eq!(back.samples8(), Some(&samples[..]));
    }

    #[test]
    fn wrong_buffer_size_is_an_error_naming_the_sizes() {
        let err = encode_rgb8(4, 4, &[0; 10]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "buffer has 10 samples, expected 48 (4×4×3)"
        );
        assert!(encode_gray8(0, 4, &[]).is_err());
    }
}
