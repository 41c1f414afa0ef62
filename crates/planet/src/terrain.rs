//! Heights in metres: continents and ocean basins, mountain ridges along
//! the belts where plates meet, erosion-like detail, and the sea level.
//!
//! ```text
//! land   = continent − threshold            (threshold: the sea_level quantile)
//! base   = shelf/slope/abyss profile below 0, rising plains above
//! belt   = (1 − |belt noise| / BELT_HALF_WIDTH)²₊        mountain belts
//! h      = base + MOUNTAIN_M · plate_activity · belt · coastness · ridge²
//!               + MID_OCEAN_RIDGE_M · plate_activity · belt · deepness
//! h     += detail · (DETAIL_FLAT_M + DETAIL_RELIEF · |h|)
//! ```
//! The ridge layer is only evaluated where the mountain mask is non-zero
//! (about a sixth of the sphere): those samples are gathered, filled in
//! one call, and scattered back.

use crate::layers::{Detail, Layer, NoiseBackend, Noises, Positions};
use crate::version::{Coast, SeaFloor};

/// Half-width of a mountain belt in units of the belt noise (which spans
/// about ±0.6): belts cover roughly a third of the sphere.
pub(crate) const BELT_HALF_WIDTH: f32 = 0.2;
/// Height of the tallest ridges at plate activity 1, metres.
pub(crate) const MOUNTAIN_M: f32 = 6500.0;
/// Broad uplift of a mountain belt's land (the plateau ranges sit on), metres.
pub(crate) const BELT_UPLIFT_M: f32 = 900.0;
/// Height of mid-ocean ridges above the abyssal plain at plate activity 1, metres.
pub(crate) const MID_OCEAN_RIDGE_M: f32 = 1800.0;
/// Depth of the continental shelf's outer edge, metres.
pub(crate) const SHELF_M: f32 = 140.0;
/// Width of the shelf in units of the continent field.
pub(crate) const SHELF_WIDTH: f32 = 0.02;
/// Depth of the abyssal plain below the shelf edge, metres.
pub(crate) const ABYSS_M: f32 = 4300.0;
/// Where (in continent-field units offshore) the continental slope reaches the abyss.
pub(crate) const SLOPE_END: f32 = 0.12;
/// Plains: metres per continent-field unit inland (linear part).
pub(crate) const PLAIN_M: f32 = 1300.0;
/// Plains: metres per squared continent-field unit (uplands far inland).
pub(crate) const UPLAND_M: f32 = 2000.0;
/// Detail amplitude on flat ground, metres.
pub(crate) const DETAIL_FLAT_M: f32 = 25.0;
/// Detail amplitude per metre of large-scale relief: lowlands stay smooth,
/// mountains get rugged (the look of eroded terrain).
pub(crate) const DETAIL_RELIEF: f32 = 0.6;

/// Samples per evaluation block: keeps a block's arrays in cache.
pub(crate) const BLOCK: usize = 4096;

#[inline]
fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The large-scale height of `land` (continent field minus threshold).
#[inline]
fn base_height(land: f32) -> f32 {
    if land >= 0.0 {
        PLAIN_M * land + UPLAND_M * land * land
    } else {
        let s = -land;
        -(SHELF_M * (s / SHELF_WIDTH).min(1.0)
            + ABYSS_M * smoothstep(0.5 * SHELF_WIDTH, SLOPE_END, s))
    }
}

/// The height function's planet-level constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Shape {
    /// The continent value at sea level.
    pub(crate) threshold: f32,
    pub(crate) plate_activity: f32,
}

/// Reusable buffers of one block.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) land: Vec<f32>,
    belt: Vec<f32>,
    detail: Vec<f32>,
    mask: Vec<f32>,
    index: Vec<usize>,
    gathered: [Vec<f64>; 3],
    ridge: Vec<f32>,
}

/// Fills `out` with heights in metres (and `scratch.land` with the land
/// field, which the climate reuses).
pub(crate) fn heights(
    backend: &dyn NoiseBackend,
    detail: &Detail,
    shape: &Shape,
    pos: Positions<'_>,
    scratch: &mut Scratch,
    out: &mut [f32],
) {
    let n = out.len();
    let s = scratch;
    for v in [&mut s.land, &mut s.belt, &mut s.detail, &mut s.mask] {
        v.clear();
        v.resize(n, 0.0);
    }
    land(backend, detail, shape, pos, &mut s.land);
    fill(backend, detail, Layer::Belt, pos, &mut s.belt);
    for (i, h) in out.iter_mut().enumerate() {
        let b = (1.0 - s.belt[i].abs() / BELT_HALF_WIDTH).max(0.0);
        s.belt[i] = b * b * shape.plate_activity;
        let onshore = smoothstep(-0.03, 0.04, s.land[i]);
        s.mask[i] = s.belt[i] * onshore;
        *h = base_height(s.land[i])
            + BELT_UPLIFT_M * s.mask[i]
            + MID_OCEAN_RIDGE_M * s.belt[i] * smoothstep(-0.1, -0.25, s.land[i]);
    }
    add_mountains(backend, detail, pos, s, out);
    fill(backend, detail, Layer::Detail, pos, &mut s.detail);
    for (h, d) in out.iter_mut().zip(&s.detail) {
        *h += d * (DETAIL_FLAT_M + DETAIL_RELIEF * h.abs());
    }
}

/// The land field: the continent layer minus the sea-level threshold
/// (positive on land).
pub(crate) fn land(
    backend: &dyn NoiseBackend,
    detail: &Detail,
    shape: &Shape,
    pos: Positions<'_>,
    out: &mut Vec<f32>,
) {
    out.clear();
    out.resize(pos.x.len(), 0.0);
    fill(backend, detail, Layer::Continent, pos, out);
    for l in out.iter_mut() {
        *l -= shape.threshold;
    }
}

/// The ridge noise at the samples `s.index` names, into `s.ridge` (both
/// versions evaluate ridges only where mountains can be: most of a planet
/// is not).
fn ridges_at_index(
    backend: &dyn NoiseBackend,
    detail: &Detail,
    pos: Positions<'_>,
    s: &mut Scratch,
) {
    let axes = [pos.x, pos.y, pos.z];
    for (g, axis) in s.gathered.iter_mut().zip(axes) {
        g.clear();
        g.extend(s.index.iter().map(|&i| axis[i]));
    }
    s.ridge.clear();
    s.ridge.resize(s.index.len(), 0.0);
    let [gx, gy, gz] = &s.gathered;
    let gathered = Positions {
        x: gx,
        y: gy,
        z: gz,
    };
    backend.fill(
        Layer::Ridge,
        detail.octaves(Layer::Ridge),
        gathered,
        &mut s.ridge,
    );
}

/// Ridges, evaluated only where the mountain mask is positive.
fn add_mountains(
    backend: &dyn NoiseBackend,
    detail: &Detail,
    pos: Positions<'_>,
    s: &mut Scratch,
    out: &mut [f32],
) {
    s.index.clear();
    s.index.extend((0..out.len()).filter(|&i| s.mask[i] > 0.0));
    if s.index.is_empty() || detail.octaves(Layer::Ridge) == 0 {
        return;
    }
    ridges_at_index(backend, detail, pos, s);
    for (&i, &r) in s.index.iter().zip(&s.ridge) {
        let crest = 0.5 * (r + 1.0);
        out[i] += MOUNTAIN_M * s.mask[i] * crest * crest;
    }
}

/// Version 2: the large-scale hypsometry of the land field, metres. Land
/// rises gently (lowlands and shields; high ground comes from uplift),
/// the sea floor steps down a shelf and a continental slope to an abyssal
/// plain, where ridges and trenches come from the plates.
/// With [`Coast::Smooth`] the land side starts at the sea's level and
/// eases out to the lowland height over the shelf's width: the profile is
/// continuous, and it leaves the waterline at about the shelf's slope
/// (120 m over the shelf's width plus the plain's, against the shelf's
/// 140 m), so beaches are a strip and the coast has no kink either. A
/// smoothstep, flat at the waterline, made beaches of ten kilometres.
#[inline]
pub(crate) fn base_height_v2(land: f32, coast: Coast) -> f32 {
    if land >= 0.0 {
        let lowland = match coast {
            Coast::Step => V2_LOWLAND_M,
            Coast::Smooth => {
                let t = (land / SHELF_WIDTH).min(1.0);
                V2_LOWLAND_M * t * (2.0 - t)
            }
        };
        lowland + V2_PLAIN_M * land.min(0.6)
    } else {
        let s = -land;
        -(SHELF_M * (s / SHELF_WIDTH).min(1.0)
            + V2_ABYSS_M * smoothstep(0.5 * SHELF_WIDTH, V2_SLOPE_END, s))
    }
}

/// Version 2: height of the coast's landward edge, metres.
pub(crate) const V2_LOWLAND_M: f32 = 60.0;
/// Version 2: metres per land-field unit inland.
pub(crate) const V2_PLAIN_M: f32 = 1500.0;
/// Version 2: abyssal plain below the shelf edge, metres.
pub(crate) const V2_ABYSS_M: f32 = 4300.0;
/// Version 2: continental slope ends this far offshore (land-field units).
pub(crate) const V2_SLOPE_END: f32 = 0.09;

/// Version 2 heights from the land field and the tectonic uplift: ridged
/// ranges scale with positive uplift (mountains where plates converge),
/// trenches and rifts are the negative uplift, and detail amplitude
/// follows relief.
#[allow(clippy::too_many_arguments)] // the stage's inputs, each a different thing
pub(crate) fn heights_v2(
    backend: &dyn NoiseBackend,
    detail: &Detail,
    pos: Positions<'_>,
    land: &[f32],
    uplift: &[f32],
    coast: Coast,
    sea_floor: SeaFloor,
    s: &mut Scratch,
    out: &mut [f32],
) {
    let swell_m = match sea_floor {
        SeaFloor::Plain => V2_ABYSS_SWELL_M,
        SeaFloor::Basins => BASINS_SWELL_M,
    };
    let n = out.len();
    for v in [&mut s.detail, &mut s.mask, &mut s.belt] {
        v.clear();
        v.resize(n, 0.0);
    }
    // The abyss is not flat: broad swells and basins (the belt layer,
    // which version 2 does not need for mountains) spread its depths as
    // sea-floor age and hotspots do on Earth.
    fill(backend, detail, Layer::Belt, pos, &mut s.belt);
    for i in 0..n {
        let u = uplift[i];
        s.mask[i] = u.max(0.0);
        let abyss = smoothstep(0.5 * SHELF_WIDTH, V2_SLOPE_END, -land[i]);
        // The ridged texture is centred on the uplift (0.55 + 0.9·crest²
        // has mean ≈ 0.85), so a belt keeps its height and gains peaks.
        out[i] = base_height_v2(land[i], coast)
            + 0.85 * s.mask[i]
            + u.min(0.0)
            + swell_m * abyss * s.belt[i];
    }
    s.index.clear();
    s.index.extend((0..n).filter(|&i| s.mask[i] > RIDGE_FROM_M));
    if !s.index.is_empty() && detail.octaves(Layer::Ridge) > 0 {
        ridges_at_index(backend, detail, pos, s);
        for (&i, &r) in s.index.iter().zip(&s.ridge) {
            let crest = 0.5 * (r + 1.0);
            // Faded in above RIDGE_FROM_M, so skipping low uplift leaves
            // no step.
            let fade = smoothstep(RIDGE_FROM_M, 3.0 * RIDGE_FROM_M, s.mask[i]);
            out[i] += fade * s.mask[i] * (0.9 * crest * crest - 0.3);
        }
    }
    fill(backend, detail, Layer::Detail, pos, &mut s.detail);
    for ((h, d), m) in out.iter_mut().zip(&s.detail).zip(&s.mask) {
        let relief = m + 0.05 * h.abs().min(6000.0);
        *h += d * (DETAIL_FLAT_M + V2_DETAIL_RELIEF * relief);
    }
}

/// Version 2: depth variation of the abyssal plain per unit of the belt
/// layer (which spans about ±0.6), metres.
pub(crate) const V2_ABYSS_SWELL_M: f32 = 1400.0;

/// [`SeaFloor::Basins`]: depth variation of the abyss per unit of the
/// belt layer, metres (the deep floor spans about −2 to −7 km).
pub(crate) const BASINS_SWELL_M: f32 = 4600.0;

/// Version 2: uplift (metres) below which ranges get no ridged texture
/// (the ridge layer is evaluated only above it).
const RIDGE_FROM_M: f32 = 60.0;

/// Version 2: detail amplitude per metre of relief.
pub(crate) const V2_DETAIL_RELIEF: f32 = 0.35;

/// Fills `out` with `layer` at the octaves `detail` keeps (zero if none).
pub(crate) fn fill(
    backend: &dyn NoiseBackend,
    detail: &Detail,
    layer: Layer,
    pos: Positions<'_>,
    out: &mut [f32],
) {
    match detail.octaves(layer) {
        0 => out.fill(0.0),
        k => backend.fill(layer, k, pos, out),
    }
}

/// Points of a Fibonacci sphere for the sea-level quantile.
const QUANTILE_POINTS: usize = 16_384;

/// The continent value below which `sea_level` of the sphere lies: the
/// quantile over an even spread of points (a Fibonacci sphere), so every
/// seed gets the ocean fraction asked for.
pub(crate) fn sea_threshold(noises: &Noises, radius: f64, sea_level: f64) -> f32 {
    let golden = std::f64::consts::PI * (3.0 - 5.0f64.sqrt());
    let k = QUANTILE_POINTS;
    let mut pos: [Vec<f64>; 3] = Default::default();
    for i in 0..k {
        let z = 1.0 - (2.0 * i as f64 + 1.0) / k as f64;
        let r = (1.0 - z * z).sqrt();
        let a = golden * i as f64;
        pos[0].push(radius * r * libm::cos(a));
        pos[1].push(radius * r * libm::sin(a));
        pos[2].push(radius * z);
    }
    let mut values = vec![0.0f32; k];
    noises
        .get(Layer::Continent)
        .fill_points3(&pos[0], &pos[1], &pos[2], &mut values);
    values.sort_by(f32::total_cmp);
    if sea_level <= 0.0 {
        return values[0] - 1.0;
    }
    if sea_level >= 1.0 {
        return values[k - 1] + 1.0;
    }
    values[((sea_level * k as f64) as usize).min(k - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_profile_is_continuous_and_monotone() {
        let mut last = base_height(-1.0);
        for i in -1000..=1000 {
            let h = base_height(i as f32 / 1000.0);
            assert!(h >= last - 1e-3, "{i}: {h} < {last}");
            assert!((h - last).abs() < 60.0, "jump at {i}: {last} → {h}");
            last = h;
        }
        assert_eq!(base_height(0.0), 0.0);
    }
}
