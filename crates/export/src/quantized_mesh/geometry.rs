//! The geometry a quantized-mesh header and its normals need: points on
//! an ellipsoid, the bounding sphere, the horizon occlusion point (in the
//! ellipsoid's scaled space, as CesiumJS tests it) and oct-encoded normals.

use super::{FAR_OCCLUSION_MAGNITUDE, QuantizedMeshTile};

/// An angle's sine and cosine, computed once per row or column.
#[derive(Clone, Copy, Debug)]
pub(super) struct SinCos {
    sin: f64,
    cos: f64,
}

impl SinCos {
    pub(super) fn of(angle: f64) -> Self {
        Self {
            sin: libm::sin(angle),
            cos: libm::cos(angle),
        }
    }
}

/// An ellipsoid of revolution (or any triaxial one) centred at the origin.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ellipsoid {
    radii: [f64; 3],
    radii_squared: [f64; 3],
}

impl Ellipsoid {
    pub(super) fn new(radii: [f64; 3]) -> Self {
        Self {
            radii,
            radii_squared: radii.map(|r| r * r),
        }
    }

    /// The outward unit normal of the ellipsoid at a geodetic latitude and
    /// longitude.
    pub(super) fn geodetic_normal(lat: SinCos, lon: SinCos) -> [f64; 3] {
        normalize([lat.cos * lon.cos, lat.cos * lon.sin, lat.sin])
    }

    /// Geodetic (latitude, longitude, height above the surface) to ECEF:
    /// the surface point whose normal is the geodetic normal, moved
    /// `height` along it (the same construction as CesiumJS's
    /// `Ellipsoid.cartographicToCartesian`).
    pub(super) fn ecef(&self, lat: SinCos, lon: SinCos, height: f64) -> [f64; 3] {
        let normal = Self::geodetic_normal(lat, lon);
        let k = [0, 1, 2].map(|i| self.radii_squared[i] * normal[i]);
        let gamma = dot(normal, k).sqrt();
        [0, 1, 2].map(|i| k[i] / gamma + normal[i] * height)
    }

    /// ECEF to the space where the ellipsoid is the unit sphere.
    pub(super) fn scaled(&self, p: [f64; 3]) -> [f64; 3] {
        [0, 1, 2].map(|i| p[i] / self.radii[i])
    }
}

pub(super) fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(super) fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(super) fn length(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

pub(super) fn normalize(a: [f64; 3]) -> [f64; 3] {
    let l = length(a);
    a.map(|x| x / l)
}

/// A sphere around the points: the centre of their axis-aligned box, the
/// radius to the farthest point. Not minimal, but it contains every point
/// by construction and is tight for the near-box shape of a tile.
pub(super) fn bounding_sphere(points: &[[f64; 3]]) -> ([f64; 3], f64) {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in points {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    let center = [0, 1, 2].map(|i| 0.5 * (lo[i] + hi[i]));
    let radius = points
        .iter()
        .map(|&p| length(sub(p, center)))
        .fold(0.0, f64::max);
    (center, radius)
}

/// The horizon occlusion point, in ellipsoid-scaled space, as CesiumJS's
/// `EllipsoidalOccluder.computeHorizonCullingPointFromPoints` defines it:
/// the point along the scaled direction to `direction_to` that is hidden
/// behind the ellipsoid only from where every point is hidden too. For
/// each point, with `α` its angle from that direction and `β = acos(1/|p|)`
/// the angle from its own direction to its horizon, the point needs a
/// distance of at least `1 / cos(α + β)`; the farthest need wins. Points
/// below the surface count as on it.
///
/// When some point lies 90° or more around (α + β ≥ 90°), no finite point
/// exists; the tile then gets one [`FAR_OCCLUSION_MAGNITUDE`] out.
pub(super) fn horizon_occlusion_point(
    ellipsoid: &Ellipsoid,
    direction_to: [f64; 3],
    points: &[[f64; 3]],
) -> [f64; 3] {
    let direction = normalize(ellipsoid.scaled(direction_to));
    let mut magnitude = 0.0f64;
    for &p in points {
        let scaled = ellipsoid.scaled(p);
        let mut magnitude_squared = dot(scaled, scaled);
        let mut point_magnitude = magnitude_squared.sqrt();
        let unit = scaled.map(|x| x / point_magnitude);
        magnitude_squared = magnitude_squared.max(1.0);
        point_magnitude = point_magnitude.max(1.0);
        let cos_alpha = dot(unit, direction);
        let sin_alpha = length(cross(unit, direction));
        let cos_beta = 1.0 / point_magnitude;
        let sin_beta = (magnitude_squared - 1.0).sqrt() * cos_beta;
        let cos_sum = cos_alpha * cos_beta - sin_alpha * sin_beta;
        if cos_sum <= 0.0 {
            return direction.map(|x| x * FAR_OCCLUSION_MAGNITUDE);
        }
        magnitude = magnitude.max(1.0 / cos_sum);
    }
    if !magnitude.is_finite() || magnitude > FAR_OCCLUSION_MAGNITUDE {
        magnitude = FAR_OCCLUSION_MAGNITUDE;
    }
    direction.map(|x| x * magnitude)
}

/// Two triangles per cell, split along the south-west–north-east diagonal,
/// as grid indices (`row · n + column`). With x east and y north, both
/// (SW, SE, NE) and (SW, NE, NW) turn counter-clockwise, and east × north
/// points up, so they face out of the ellipsoid.
pub(super) fn grid_triangles(n: usize) -> Vec<u32> {
    let mut triangles = Vec::with_capacity(6 * (n - 1) * (n - 1));
    for r in 0..n - 1 {
        for c in 0..n - 1 {
            let nw = (r * n + c) as u32;
            let ne = nw + 1;
            let sw = nw + n as u32;
            let se = sw + 1;
            triangles.extend_from_slice(&[sw, se, ne, sw, ne, nw]);
        }
    }
    triangles
}

/// Unit ECEF normals of the height surface at every grid sample: the cross
/// product of its east and north tangents, by central differences of the
/// ECEF positions. That is the ellipsoid's geodetic normal tilted by the
/// height gradient, and it keeps the planet's curvature exact. Where the
/// tangents degenerate (a row on a pole collapses to one point) the
/// geodetic normal stands in, so every tile's pole vertices agree.
///
/// Along the tile's edges the differences reach into the tile's border
/// when it has one (`QuantizedMeshTile::border`), positioned by the same
/// formula as the inside continued one step out (beyond a pole that is a
/// latitude past ±90°, the point across the pole, which is where a border
/// sampled there lies); a neighbouring tile whose border holds this
/// tile's samples then computes a shared vertex's normal from the same
/// heights. Without a border they are one-sided, and two neighbours can
/// disagree about a shared edge vertex's normal by degrees (shading
/// seams). The inside's normals are the same bits either way: its
/// positions and arithmetic do not depend on the border.
pub(super) fn grid_normals(tile: &QuantizedMeshTile<'_>, ellipsoid: &Ellipsoid) -> Vec<[f64; 3]> {
    let n = tile.n;
    let last = (n - 1) as f64;
    // The grid the positions are taken on: with a border it starts one
    // step before the tile (`off`), and is `m` samples a side.
    let (heights, m, off) = match tile.border {
        Some(border) => (border, n + 2, 1),
        None => (tile.heights, n, 0),
    };
    let step = |k: usize| k as f64 - off as f64;
    let lon: Vec<SinCos> = (0..m)
        .map(|c| SinCos::of(tile.west + (tile.east - tile.west) * step(c) / last))
        .collect();
    let lat: Vec<SinCos> = (0..m)
        .map(|r| SinCos::of(tile.north - (tile.north - tile.south) * step(r) / last))
        .collect();
    let positions: Vec<[f64; 3]> = (0..m * m)
        .map(|i| ellipsoid.ecef(lat[i / m], lon[i % m], f64::from(heights[i])))
        .collect();
    let at = |r: usize, c: usize| positions[r * m + c];
    (0..n * n)
        .map(|i| {
            // Grid indices; with a border the clamps below never bite.
            let (r, c) = (i / n + off, i % n + off);
            let east = sub(at(r, (c + 1).min(m - 1)), at(r, c.saturating_sub(1)));
            // Rows run south, so north is the row above.
            let north = sub(at(r.saturating_sub(1), c), at((r + 1).min(m - 1), c));
            let normal = cross(east, north);
            let (le, ln, lx) = (length(east), length(north), length(normal));
            // On a pole the row is one point and has no east; elsewhere the
            // tangents could only degenerate if they were parallel.
            if lat[r].cos.abs() < 1.0e-9 || lx <= 1.0e-12 * le * ln {
                Ellipsoid::geodetic_normal(lat[r], lon[c])
            } else {
                normal.map(|x| x / lx)
            }
        })
        .collect()
}

/// Oct-encodes a unit vector into two bytes, as CesiumJS's
/// `AttributeCompression.octEncode` does: project onto the octahedron
/// `|x| + |y| + |z| = 1`, fold the lower half over the upper, then map
/// each of x and y from [−1, 1] to 0..=255.
pub(super) fn oct_encode(v: [f64; 3]) -> [u8; 2] {
    let l1 = v[0].abs() + v[1].abs() + v[2].abs();
    let (mut x, mut y) = (v[0] / l1, v[1] / l1);
    if v[2] < 0.0 {
        let sign = |a: f64| if a < 0.0 { -1.0 } else { 1.0 };
        let (ox, oy) = (x, y);
        x = (1.0 - oy.abs()) * sign(ox);
        y = (1.0 - ox.abs()) * sign(oy);
    }
    let to_byte = |a: f64| ((a.clamp(-1.0, 1.0) * 0.5 + 0.5) * 255.0).round() as u8;
    [to_byte(x), to_byte(y)]
}
