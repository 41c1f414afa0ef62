//! CesiumJS terrain: a planet's geographic tiles as quantized-mesh 1.0
//! and the `layer.json` that makes them a terrain provider, the same bytes
//! from the server and from `mangekyo bake terrain`.
//!
//! The mesh is the surface a Cesium user stands or sails on: ground plus
//! water from generator version 3 (seas, lakes and rivers at their
//! levels), the ground clamped to sea level before it (versions 1 and 2
//! have no water layer). Heights are over a sphere of the planet's radius:
//! a Cesium client sets `new Cesium.Ellipsoid(r, r, r)` on its globe and
//! its terrain provider (`layer.json` carries `radius`).

use mangekyo_export::quantized_mesh::{self, QuantizedMeshTile};
use mangekyo_planet::geographic::GEO_TILE_SAMPLES;
use mangekyo_planet::version::TerrainTiles;
use mangekyo_planet::{GeoTile, Layers, Planet, Samples};
use serde_json::{Value, json};

use crate::FormatError;

/// The media type Cesium asks for and expects.
pub const CONTENT_TYPE: &str = "application/vnd.quantized-mesh";

/// The layers the surface is made of: the ground, and the water over it
/// where the version has water.
fn surface_layers(planet: &Planet) -> Layers {
    Layers {
        height: true,
        water: planet.version().layers().water,
        ..Layers::NONE
    }
}

/// The surface of sampled heights (and water, where sampled).
fn surface(planet: &Planet, s: &Samples) -> Vec<f32> {
    if planet.version().layers().water {
        s.height.iter().zip(&s.water).map(|(h, w)| h + w).collect()
    } else {
        s.height.iter().map(|h| h.max(0.0)).collect()
    }
}

/// The surface heights of one geographic tile, row 0 north: its own
/// samples, as versions with `TerrainTiles::OneSided` encode them (a
/// bordered version's tile is the inside of
/// [`surface_heights_with_border`], which differs only on the
/// antimeridian's eastern edge).
pub fn surface_heights(planet: &Planet, tile: &GeoTile) -> Result<Vec<f32>, FormatError> {
    let s = planet.sample_geo_tile(tile, surface_layers(planet))?;
    Ok(surface(planet, &s))
}

/// The surface heights of one geographic tile with a one-sample border
/// (`(GEO_TILE_SAMPLES + 2)²`, row 0 one step north of the tile): the
/// neighbouring tiles' own samples around the tile's, with the
/// antimeridian one set of directions (`GeoTile::directions_with_border`).
pub fn surface_heights_with_border(
    planet: &Planet,
    tile: &GeoTile,
) -> Result<Vec<f32>, FormatError> {
    let s = planet.sample_geo_tile_with_border(tile, surface_layers(planet))?;
    Ok(surface(planet, &s))
}

/// One tile as quantized-mesh 1.0, with the oct-encoded vertex normals
/// extension when `normals` (Cesium asks for it in its `Accept` header).
///
/// How the tile is sampled and its normals computed is the version's
/// choice ([`TerrainTiles`]). Released versions (1 to 4) keep one-sided
/// differences along the tile's edges, which leave shading seams between
/// neighbours (a few degrees on average, up to about 20° on steep
/// ground): their tiles were served under immutable URLs and are pinned
/// in `tests/stable_served.txt`, so those bytes stay as they are. From the
/// next version on the tile is sampled with a one-sample border at its
/// neighbours' own positions and every normal is a central difference,
/// so neighbours compute a shared vertex's normal from the same heights
/// and agree (`tests/terrain_seams.rs`). Either way the mesh (everything
/// before the extension) is the same with or without normals.
pub fn encode(planet: &Planet, tile: &GeoTile, normals: bool) -> Result<Vec<u8>, FormatError> {
    let (heights, border) = match planet.version().pipeline().terrain_tiles {
        TerrainTiles::OneSided => (surface_heights(planet, tile)?, None),
        TerrainTiles::Bordered => {
            let border = surface_heights_with_border(planet, tile)?;
            let (n, m) = (GEO_TILE_SAMPLES as usize, GEO_TILE_SAMPLES as usize + 2);
            let inside = (0..n * n)
                .map(|i| border[(i / n + 1) * m + i % n + 1])
                .collect();
            (inside, normals.then_some(border))
        }
    };
    let rect = tile.rect();
    let r = planet.params().radius;
    quantized_mesh::encode(&QuantizedMeshTile {
        west: rect.west,
        south: rect.south,
        east: rect.east,
        north: rect.north,
        heights: &heights,
        n: GEO_TILE_SAMPLES as usize,
        radii: [r, r, r],
        normals,
        border: border.as_deref(),
    })
    .map_err(|e| {
        FormatError::Param(mangekyo_core::ParamError::new(
            "tile",
            format!("{}/{}/{}", tile.z, tile.x, tile.y),
            format!("a tile the quantized-mesh encoder accepts ({e})"),
        ))
    })
}

/// The `layer.json` of a planet's terrain. `tiles` is the URL template
/// relative to the document (Cesium resolves it against the document's
/// own URL), e.g. `{z}/{x}/{y}.terrain?v=4&p=…`.
pub fn layer_json(planet: &Planet, name: &str, tiles: &str) -> Value {
    let max = planet.geo_max_level();
    let available: Vec<Value> = (0..=max)
        .map(|z| {
            let rows = 1u64 << z;
            json!([{"startX": 0, "startY": 0, "endX": 2 * rows - 1, "endY": rows - 1}])
        })
        .collect();
    json!({
        "tilejson": "2.1.0",
        "name": name,
        "description": format!("Terrain of a Mangekyo planet (sphere of radius {} m)", planet.params().radius),
        "version": "1.0.0",
        "format": "quantized-mesh-1.0",
        "scheme": "tms",
        "projection": "EPSG:4326",
        "bounds": [-180.0, -90.0, 180.0, 90.0],
        "minzoom": 0,
        "maxzoom": max,
        "tiles": [tiles],
        "available": available,
        "extensions": ["octvertexnormals"],
        "radius": planet.params().radius,
        "generator_version": planet.version(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use mangekyo_planet::PlanetParams;

    #[test]
    fn terrain_tiles_encode_and_the_layer_lists_every_level() {
        let planet = Planet::new(PlanetParams::default()).expect("planet");
        let t = GeoTile { z: 3, x: 9, y: 5 };
        let plain = encode(&planet, &t, false).expect("tile");
        let lit = encode(&planet, &t, true).expect("tile with normals");
        assert!(lit.len() > plain.len());
        // The header's min/max heights (offsets 24 and 28) hold the surface.
        let h = surface_heights(&planet, &t).expect("heights");
        let lo = f32::from_le_bytes(plain[24..28].try_into().unwrap());
        let hi = f32::from_le_bytes(plain[28..32].try_into().unwrap());
        let (mlo, mhi) = h
            .iter()
            .fold((f32::MAX, f32::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        assert_eq!((lo, hi), (mlo, mhi));
        assert!(mlo >= 0.0, "version 1 is clamped to the sea");
        let doc = layer_json(&planet, "earth", "{z}/{x}/{y}.terrain");
        assert_eq!(doc["maxzoom"], 18);
        assert_eq!(doc["available"].as_array().unwrap().len(), 19);
        assert_eq!(doc["available"][2][0]["endX"], 7);
    }

    #[test]
    fn a_bad_tile_is_named() {
        let planet = Planet::new(PlanetParams::default()).expect("planet");
        let e = encode(&planet, &GeoTile { z: 2, x: 8, y: 0 }, false).unwrap_err();
        assert!(format!("{e}").contains('x'), "{e}");
    }
}
