//! CesiumJS terrain tiles in the `quantized-mesh-1.0` format
//! (<https://github.com/CesiumGS/quantized-mesh>), made from a regular
//! height grid over one geographic tile.
//!
//! CesiumJS's `CesiumTerrainProvider` streams these tiles, so a planet can be
//! flown over in a browser without converting it to anything else. The
//! format is a triangle mesh whose vertices are quantised to 15 bits inside
//! the tile's rectangle and height range, with a header that carries what
//! the client culls with (a bounding sphere and a horizon occlusion point)
//! and the tile's edge vertices (for the skirts that hide cracks between
//! tiles of different levels).
//!
//! The layout, all little-endian:
//!
//! 1. header: centre (ECEF `f64`×3), minimum and maximum height (`f32`),
//!    bounding sphere (centre `f64`×3, radius `f64`), horizon occlusion
//!    point (ellipsoid-scaled ECEF `f64`×3) — 88 bytes;
//! 2. `vertexCount` (`u32`), then `u`, `v` and `height` arrays of `u16`,
//!    each zig-zag delta encoded;
//! 3. zero padding to the index size, `triangleCount` (`u32`) and the
//!    triangle indices, high-water-mark encoded (`u16`, or `u32` when there
//!    are more than 65 536 vertices);
//! 4. west, south, east and north edge vertices: a `u32` count and plain
//!    indices each;
//! 5. optionally the oct-encoded vertex normals extension (id 1): central
//!    differences of the surface, one-sided along the edges unless the
//!    tile brings a one-sample border of heights (then neighbouring tiles
//!    agree about their shared vertices).
//!
//! Everything the header says about geometry (bounding sphere, horizon
//! point) is computed from the *dequantised* vertices — the positions the
//! client will actually build — so quantisation can never push a vertex
//! outside the bounds it is culled by. Trigonometry goes through `libm` so
//! the bytes are the same on every platform (a test pins them).

mod geometry;

use geometry::*;
use std::f64::consts::{FRAC_PI_2, PI};

/// Largest quantised `u`, `v` or height: the format's 15-bit range.
const MAX_SHORT: f64 = 32767.0;

/// More vertices than this and the indices are `u32` (the specification's
/// rule). CesiumJS reads the triangle indices by this rule but builds its
/// index arrays as `u32` from 65 536 vertices on, so a tile of exactly
/// 65 536 vertices (n = 256) decodes wrongly there; other sizes agree.
const MAX_U16_VERTICES: usize = 65536;

/// Extension id of the oct-encoded per-vertex normals.
const OCT_VERTEX_NORMALS: u8 = 1;

/// Scaled-space distance of the horizon occlusion point when no finite
/// point exists (a tile spanning a hemisphere, such as the two level-0
/// tiles, has vertices 90° from its centre). So far out, the point is
/// hidden only from cameras almost exactly behind the planet, which is as
/// close to "never cull by horizon" as one point can say.
const FAR_OCCLUSION_MAGNITUDE: f64 = 1.0e6;

/// Leave-room for rounding when checking bounds against the sphere and
/// poles: tile edges computed as `x · π / 2^z − π` can miss by an ulp.
const BOUNDS_SLACK: f64 = 1.0e-9;

/// One terrain tile to encode.
#[derive(Clone, Copy, Debug)]
pub struct QuantizedMeshTile<'a> {
    /// West edge, longitude in radians.
    pub west: f64,
    /// South edge, latitude in radians.
    pub south: f64,
    /// East edge, longitude in radians.
    pub east: f64,
    /// North edge, latitude in radians.
    pub north: f64,
    /// Heights in metres above the ellipsoid, `n × n` row-major: row 0 is
    /// the north edge, column 0 the west edge.
    pub heights: &'a [f32],
    /// Samples per side, ≥ 2 (the server uses 65).
    pub n: usize,
    /// Ellipsoid radii (x, y, z) in metres — the ellipsoid Cesium's tiling
    /// scheme uses for this planet (a sphere gives `[r, r, r]`).
    pub radii: [f64; 3],
    /// Append the oct-encoded per-vertex normals extension (extension id 1).
    pub normals: bool,
    /// The heights with a one-sample border, `(n + 2) × (n + 2)` row-major:
    /// the grid continued one step beyond every edge at the same spacing
    /// (row 0 one step north of the north edge, column 0 one step west of
    /// the west edge), its inside equal to `heights`. With it every normal
    /// is a central difference, at the edges too, so two neighbouring
    /// tiles whose borders hold each other's samples agree about their
    /// shared vertices; without it the edges are one-sided. Only the
    /// normals read it.
    pub border: Option<&'a [f32]>,
}

/// Why a tile cannot be encoded.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum QuantizedMeshError {
    /// Fewer than two samples per side: no cell to triangulate.
    #[error("n is {n}: a tile needs at least 2 samples per side")]
    TooFewSamples {
        /// Samples per side given.
        n: usize,
    },
    /// More samples per side than the 15-bit `u`/`v` grid has positions,
    /// so neighbouring columns would quantise onto one another.
    #[error("n is {n}: at most 32768 samples per side fit the 15-bit vertex grid")]
    TooManySamples {
        /// Samples per side given.
        n: usize,
    },
    /// The height slice is not `n × n` long.
    #[error("heights has {got} samples, expected {expected} (n = {n}, n × n)")]
    HeightsLength {
        /// Samples given.
        got: usize,
        /// `n × n`.
        expected: usize,
        /// Samples per side.
        n: usize,
    },
    /// A height is NaN or infinite.
    #[error("height at index {index} (row {row}, column {column}) is {value}, not finite")]
    NonFiniteHeight {
        /// Index into `heights`.
        index: usize,
        /// Its row (0 = north).
        row: usize,
        /// Its column (0 = west).
        column: usize,
        /// The value.
        value: f32,
    },
    /// The rectangle is empty, inverted, not finite or off the globe.
    #[error("bad bounds west {west}, south {south}, east {east}, north {north}: {reason}")]
    BadBounds {
        /// West edge given.
        west: f64,
        /// South edge given.
        south: f64,
        /// East edge given.
        east: f64,
        /// North edge given.
        north: f64,
        /// What is wrong with them.
        reason: &'static str,
    },
    /// The border is not `(n + 2) × (n + 2)` long.
    #[error("border has {got} samples, expected {expected} ((n + 2) × (n + 2), n = {n})")]
    BorderLength {
        /// Samples given.
        got: usize,
        /// `(n + 2) × (n + 2)`.
        expected: usize,
        /// Samples per side of the tile.
        n: usize,
    },
    /// A border height is NaN or infinite, or the border's inside is not
    /// the tile's heights.
    #[error(
        "border height at row {row}, column {column} (of the bordered grid) is {value}: {reason}"
    )]
    BadBorder {
        /// Its row in the bordered grid (0 = one step north of the tile).
        row: usize,
        /// Its column in the bordered grid (0 = one step west of the tile).
        column: usize,
        /// The value.
        value: f32,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A radius is zero, negative or not finite.
    #[error("bad ellipsoid radii {radii:?}: each must be finite and positive")]
    BadRadii {
        /// The radii given.
        radii: [f64; 3],
    },
}

/// Encodes one tile as `quantized-mesh-1.0` bytes (what a server sends as
/// `application/vnd.quantized-mesh`).
///
/// The grid becomes `n²` vertices and `2 (n − 1)²` triangles, two per cell
/// split along the south-west–north-east diagonal, counter-clockwise seen
/// from outside the ellipsoid (Cesium culls back faces by that winding).
pub fn encode(tile: &QuantizedMeshTile<'_>) -> Result<Vec<u8>, QuantizedMeshError> {
    validate(tile)?;
    let n = tile.n;
    let vertex_count = n * n;
    let ellipsoid = Ellipsoid::new(tile.radii);

    // Heights quantise over their own range; a flat tile uses a range of 1
    // so nothing divides by zero (every height is then 0 = the minimum).
    let (min_h, max_h) = tile
        .heights
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &h| {
            (lo.min(h), hi.max(h))
        });
    let range = f64::from(max_h) - f64::from(min_h);
    let range = if range > 0.0 { range } else { 1.0 };
    let quantize = |t: f64| (t * MAX_SHORT).round().clamp(0.0, MAX_SHORT) as u16;
    let q_height: Vec<u16> = tile
        .heights
        .iter()
        .map(|&h| quantize((f64::from(h) - f64::from(min_h)) / range))
        .collect();
    // u depends on the column only and v on the row only (v grows north,
    // rows grow south).
    let last = (n - 1) as f64;
    let q_u: Vec<u16> = (0..n).map(|c| quantize(c as f64 / last)).collect();
    let q_v: Vec<u16> = (0..n).map(|r| quantize((last - r as f64) / last)).collect();

    // The positions the client will build, from the quantised values the
    // way CesiumJS dequantises them (a lerp over the rectangle and range).
    let lerp = |a: f64, b: f64, t: f64| (1.0 - t) * a + t * b;
    let dq_lon: Vec<SinCos> = q_u
        .iter()
        .map(|&u| SinCos::of(lerp(tile.west, tile.east, f64::from(u) / MAX_SHORT)))
        .collect();
    let dq_lat: Vec<SinCos> = q_v
        .iter()
        .map(|&v| SinCos::of(lerp(tile.south, tile.north, f64::from(v) / MAX_SHORT)))
        .collect();
    let decoded: Vec<[f64; 3]> = (0..vertex_count)
        .map(|i| {
            let h = lerp(
                f64::from(min_h),
                f64::from(max_h),
                f64::from(q_height[i]) / MAX_SHORT,
            );
            ellipsoid.ecef(dq_lat[i / n], dq_lon[i % n], h)
        })
        .collect();

    let (sphere_center, sphere_radius) = bounding_sphere(&decoded);
    let horizon = horizon_occlusion_point(&ellipsoid, sphere_center, &decoded);

    // Triangles over grid indices, then vertices renumbered in the order
    // the triangles first use them: high-water-mark coding requires every
    // index to be at most one more than the largest seen so far.
    let triangles = grid_triangles(n);
    let mut new_of_old = vec![u32::MAX; vertex_count];
    let mut old_of_new = Vec::with_capacity(vertex_count);
    for &old in &triangles {
        let slot = &mut new_of_old[old as usize];
        if *slot == u32::MAX {
            *slot = old_of_new.len() as u32;
            old_of_new.push(old as usize);
        }
    }
    debug_assert_eq!(
        old_of_new.len(),
        vertex_count,
        "every grid vertex is in a triangle"
    );

    let wide = vertex_count > MAX_U16_VERTICES;
    let index_bytes = if wide { 4 } else { 2 };
    let normals_len = if tile.normals {
        5 + 2 * vertex_count
    } else {
        0
    };
    let mut out = Vec::with_capacity(
        88 + 4
            + 6 * vertex_count
            + 3
            + 4
            + triangles.len() * index_bytes
            + 16
            + 4 * n * index_bytes
            + normals_len,
    );

    // Header. The centre is the bounding sphere's: it is what CesiumJS
    // builds the tile relative to, so it should sit among the vertices.
    put_f64s(&mut out, &sphere_center);
    out.extend_from_slice(&min_h.to_le_bytes());
    out.extend_from_slice(&max_h.to_le_bytes());
    put_f64s(&mut out, &sphere_center);
    put_f64s(&mut out, &[sphere_radius]);
    put_f64s(&mut out, &horizon);

    // Vertex data.
    out.extend_from_slice(&(vertex_count as u32).to_le_bytes());
    put_zigzag_deltas(&mut out, old_of_new.iter().map(|&i| q_u[i % n]));
    put_zigzag_deltas(&mut out, old_of_new.iter().map(|&i| q_v[i / n]));
    put_zigzag_deltas(&mut out, old_of_new.iter().map(|&i| q_height[i]));

    // Index data, aligned to its own size.
    while !out.len().is_multiple_of(index_bytes) {
        out.push(0);
    }
    out.extend_from_slice(&((triangles.len() / 3) as u32).to_le_bytes());
    let mut highest = 0u32;
    for &old in &triangles {
        let index = new_of_old[old as usize];
        let code = highest - index;
        if code == 0 {
            highest += 1;
        }
        put_index(&mut out, code, wide);
    }

    // Edge vertices, in the order CesiumJS sorts them into anyway: west
    // south→north, south east→west, east north→south, north west→east.
    let west: Vec<usize> = (0..n).rev().map(|r| r * n).collect();
    let south: Vec<usize> = (0..n).rev().map(|c| (n - 1) * n + c).collect();
    let east: Vec<usize> = (0..n).map(|r| r * n + n - 1).collect();
    let north: Vec<usize> = (0..n).collect();
    for edge in [west, south, east, north] {
        out.extend_from_slice(&(edge.len() as u32).to_le_bytes());
        for old in edge {
            put_index(&mut out, new_of_old[old], wide);
        }
    }

    if tile.normals {
        let normals = grid_normals(tile, &ellipsoid);
        out.push(OCT_VERTEX_NORMALS);
        out.extend_from_slice(&((2 * vertex_count) as u32).to_le_bytes());
        for &old in &old_of_new {
            out.extend_from_slice(&oct_encode(normals[old]));
        }
    }
    Ok(out)
}

fn validate(tile: &QuantizedMeshTile<'_>) -> Result<(), QuantizedMeshError> {
    let n = tile.n;
    if n < 2 {
        return Err(QuantizedMeshError::TooFewSamples { n });
    }
    if n > 32768 {
        return Err(QuantizedMeshError::TooManySamples { n });
    }
    let expected = n * n;
    if tile.heights.len() != expected {
        return Err(QuantizedMeshError::HeightsLength {
            got: tile.heights.len(),
            expected,
            n,
        });
    }
    if let Some((index, &value)) = tile
        .heights
        .iter()
        .enumerate()
        .find(|(_, h)| !h.is_finite())
    {
        return Err(QuantizedMeshError::NonFiniteHeight {
            index,
            row: index / n,
            column: index % n,
            value,
        });
    }
    let bad = |reason| QuantizedMeshError::BadBounds {
        west: tile.west,
        south: tile.south,
        east: tile.east,
        north: tile.north,
        reason,
    };
    let edges = [tile.west, tile.south, tile.east, tile.north];
    if !edges.iter().all(|e| e.is_finite()) {
        return Err(bad("an edge is not finite"));
    }
    if tile.west >= tile.east {
        return Err(bad("west must be less than east"));
    }
    if tile.south >= tile.north {
        return Err(bad("south must be less than north"));
    }
    if tile.south < -FRAC_PI_2 - BOUNDS_SLACK || tile.north > FRAC_PI_2 + BOUNDS_SLACK {
        return Err(bad("latitudes must lie within ±π/2"));
    }
    if tile.west < -PI - BOUNDS_SLACK || tile.east > PI + BOUNDS_SLACK {
        return Err(bad("longitudes must lie within ±π"));
    }
    if let Some(border) = tile.border {
        let m = n + 2;
        if border.len() != m * m {
            return Err(QuantizedMeshError::BorderLength {
                got: border.len(),
                expected: m * m,
                n,
            });
        }
        for (i, &value) in border.iter().enumerate() {
            let (row, column) = (i / m, i % m);
            let inside = (1..=n).contains(&row) && (1..=n).contains(&column);
            let reason = if !value.is_finite() {
                "not finite"
            } else if inside
                && value.to_bits() != tile.heights[(row - 1) * n + column - 1].to_bits()
            {
                "not the tile's height there"
            } else {
                continue;
            };
            return Err(QuantizedMeshError::BadBorder {
                row,
                column,
                value,
                reason,
            });
        }
    }
    if !tile.radii.iter().all(|r| r.is_finite() && *r > 0.0) {
        return Err(QuantizedMeshError::BadRadii { radii: tile.radii });
    }
    Ok(())
}

fn put_f64s(out: &mut Vec<u8>, values: &[f64]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn put_index(out: &mut Vec<u8>, index: u32, wide: bool) {
    if wide {
        out.extend_from_slice(&index.to_le_bytes());
    } else {
        // Narrow only when there are at most 65 536 vertices.
        out.extend_from_slice(&(index as u16).to_le_bytes());
    }
}

/// Writes each value's difference from the previous one (the first from
/// 0), zig-zag mapped so small steps either way become small numbers.
/// Values are at most 32767, so every difference fits in 16 bits.
fn put_zigzag_deltas(out: &mut Vec<u8>, values: impl Iterator<Item = u16>) {
    let mut previous = 0i32;
    for value in values {
        let delta = i32::from(value) - previous;
        previous = i32::from(value);
        let zigzag = (delta << 1) ^ (delta >> 31);
        out.extend_from_slice(&(zigzag as u16).to_le_bytes());
    }
}

#[cfg(test)]
mod tests;
