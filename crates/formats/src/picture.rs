//! Planet pictures as PNG: whole-planet previews and Terrarium web-map
//! tiles, as the service answers them and `mangekyo planet preview` and
//! `mangekyo bake tiles` write them.

use mangekyo_export::{heightmap, png};
use mangekyo_planet::tile::TileRequest;
use mangekyo_planet::view::RgbImage;
use mangekyo_planet::{Layers, Planet};

use crate::FormatError;

/// A colour picture (a preview, a chunk preview) as an RGB PNG.
pub fn encode_picture(image: &RgbImage) -> Result<Vec<u8>, FormatError> {
    Ok(png::encode_rgb8(image.width, image.height, &image.pixels)?)
}

/// The Terrarium elevation tile `request` of `planet` as an RGB PNG
/// (`raster-dem`, `encoding: "terrarium"`).
pub fn encode_tile(planet: &Planet, request: &TileRequest) -> Result<Vec<u8>, FormatError> {
    let samples = planet.sample_tile(request, Layers::HEIGHT)?;
    let rgb = heightmap::terrarium_rgb(&samples.height);
    Ok(png::encode_rgb8(request.size, request.size, &rgb)?)
}
