//! Guards on a bake's scale and on its TileJSON URL, checked before the
//! target is opened, so a mistaken command writes nothing at all.
//!
//! A bake without `--region` covers the whole planet at every level asked
//! for: `bake chunks` at lod 0 of an Earth-sized planet is ~4·10⁹ chunks
//! (petabytes), `bake tiles --zoom 0..=30` ~1.5·10¹⁸ tiles. The plan is
//! printed (items and an upper bound of the bytes) and refused above
//! `--max-items` unless that flag is raised on purpose.

use anyhow::bail;
use mangekyo_formats::ChunkFormat;
use mangekyo_planet::Edge;

use super::render::Recipe;

/// Items a bake may plan without an explicit `--max-items`: a
/// continent-sized region of chunks, or web-map tiles to zoom 8.
pub(super) const DEFAULT_MAX_ITEMS: u64 = 100_000;

/// An upper bound of the bytes one item writes (uncompressed sizes; PNGs
/// and the service's formats are usually smaller).
pub(super) fn item_bytes(recipe: &Recipe) -> u64 {
    match recipe {
        Recipe::Chunks {
            format,
            edge,
            layers,
            ..
        } => {
            let side: u64 = match edge {
                Edge::Shared => 257,
                _ => 256,
            };
            let samples = side * side;
            let per_sample = match *format {
                ChunkFormat::Png16 | ChunkFormat::R16 => 2,
                ChunkFormat::F32 => 4,
                // RGB, usually far smaller once compressed.
                ChunkFormat::Preview => 3,
                other => {
                    let floats = [
                        layers.height,
                        layers.temperature,
                        layers.humidity,
                        layers.uplift,
                        layers.water,
                        layers.flow,
                        layers.precipitation,
                    ]
                    .iter()
                    .filter(|&&on| on)
                    .count() as u64;
                    // biome u8, plate u16, biome_weights 4 × u8.
                    let bytes = floats * 4
                        + u64::from(layers.biome)
                        + 2 * u64::from(layers.plate)
                        + 4 * u64::from(layers.biome_weights);
                    // JSON spells numbers out: about three bytes per byte.
                    if other == ChunkFormat::Json {
                        bytes * 3
                    } else {
                        bytes
                    }
                }
            };
            samples * per_sample + 512
        }
        Recipe::Tiles { size } => u64::from(*size) * u64::from(*size) * 3 + 512,
        // 257² samples: f32 height, u8 biome, f32 water.
        Recipe::Pyramid { .. } => 257 * 257 * 9 + 64,
        // 65² vertices: 6 bytes each, 2 of normals, ~12 of indices.
        Recipe::Terrain => 65 * 65 * 20 + 512,
    }
}

/// `bytes` for people: `3.5 PB`.
pub(super) fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 7] = ["B", "kB", "MB", "GB", "TB", "PB", "EB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Describes the plan on stderr and refuses it above `max_items`.
pub(super) fn check_scale(items: u64, recipe: &Recipe, max_items: u64) -> anyhow::Result<()> {
    let bytes = u128::from(items) * u128::from(item_bytes(recipe));
    let what = match recipe {
        Recipe::Chunks { .. } => "chunks",
        Recipe::Tiles { .. } => "tiles",
        Recipe::Pyramid { .. } => "pyramid tiles",
        Recipe::Terrain => "terrain tiles",
    };
    errln!("plan: {items} {what}, at most about {}", human_bytes(bytes));
    if items > max_items {
        bail!(
            "the plan holds {items} {what} (at most about {}), over the limit of {max_items}; \
             narrow it with --region or fewer levels, or raise --max-items to bake it on purpose",
            human_bytes(bytes)
        );
    }
    Ok(())
}

/// `--public-url`: empty (tile URLs relative to tilejson.json) or an
/// absolute http(s) URL with a host, ending in `/` or not.
pub(super) fn check_public_url(url: &str) -> anyhow::Result<()> {
    if url.is_empty() {
        return Ok(());
    }
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let host = rest.map(|r| r.split(['/', '?', '#']).next().unwrap_or(""));
    let clean = url.chars().all(|c| {
        c.is_ascii_graphic() && !matches!(c, '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}')
    });
    match host {
        Some(h) if !h.is_empty() && !h.starts_with(':') && clean => Ok(()),
        _ => bail!(
            "--public-url {url:?}: expected an http:// or https:// URL with a host (e.g. https://cdn.example/terra/), or nothing"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_urls() {
        for ok in [
            "",
            "https://cdn.example/terra/",
            "http://127.0.0.1:8080/t",
            "https://x",
        ] {
            assert!(check_public_url(ok).is_ok(), "{ok}");
        }
        for bad in [
            "cdn.example/terra",
            "ftp://x/",
            "https://",
            "https:///path",
            "https://a b/",
            "javascript:alert(1)",
            "https://x/\"",
        ] {
            assert!(check_public_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_layer_counts_towards_a_chunks_bytes() {
        let recipe = |layers| Recipe::Chunks {
            projection: mangekyo_planet::Projection::TangentCube,
            format: ChunkFormat::Bin,
            edge: Edge::Exclusive,
            layers,
        };
        let samples = 256 * 256;
        let v1 = item_bytes(&recipe(mangekyo_planet::Version::V1.layers()));
        assert_eq!(v1, samples * 13 + 512);
        let v4 = item_bytes(&recipe(mangekyo_planet::Version::V4.layers()));
        // + uplift, water, flow, precipitation (f32), plate (u16), weights (4 × u8).
        assert_eq!(v4, samples * (13 + 16 + 2 + 4) + 512);
    }

    #[test]
    fn scale_is_refused_above_the_limit() {
        let tiles = Recipe::Tiles { size: 256 };
        assert!(check_scale(100, &tiles, 100).is_ok());
        let err = check_scale(101, &tiles, 100).unwrap_err().to_string();
        assert!(
            err.contains("101 tiles") && err.contains("--max-items"),
            "{err}"
        );
        assert_eq!(human_bytes(3_500_000_000_000_000), "3.5 PB");
        assert_eq!(human_bytes(12), "12 B");
    }
}
