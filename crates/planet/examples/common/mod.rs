//! What the picture examples share: where they write (the first argument,
//! or `docs/images`) and writing an RGB image as a PNG.

use std::path::{Path, PathBuf};

/// The directory named by the first argument (default `docs/images`),
/// created if missing.
pub(crate) fn out_dir() -> Result<PathBuf, Box<dyn std::error::Error>> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "docs/images".into()),
    );
    std::fs::create_dir_all(&out)?;
    Ok(out)
}

/// Writes `rgb` (`w × h × 3` bytes) to `path` and says so.
pub(crate) fn write_png(
    path: &Path,
    w: u32,
    h: u32,
    rgb: &[u8],
) -> Result<(), Box<dyn std::error::Error>> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut enc = png::Encoder::new(file, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()?.write_image_data(rgb)?;
    println!("wrote {}", path.display());
    Ok(())
}
