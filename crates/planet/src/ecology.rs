//! Version 4's biomes (`docs/planet.md`, "Stages"): smooth weights in
//! (temperature, precipitation), shares set by quantile tables, an
//! ecotone dither, and the overrides that beat climate (sea, fresh water,
//! ice, the tree line, beaches, river banks, wetlands).
//!
//! Temperature picks a band by physical thresholds (°C), so a hotter sun
//! really shrinks the ice. Within a band, precipitation is ranked against
//! the band's own distribution (a monotone piecewise-linear table of 33
//! quantiles of ln P, area-weighted over the tier's land), and the rank
//! picks the moisture class by cumulative target shares that
//! `humidity_global` moves: so biome shares hit their targets however the
//! rain model is tuned, and a wetter planet has more forest. Weights blend
//! across 1.5 °C either side of a band edge and ±0.05 of rank either side
//! of a class edge; they sum to 1. The discrete biome is settled in an
//! ecotone by a function of position alone (seam-free): version 4 adds a
//! hash of the lattice cell holding the sample to the weights; the next
//! version lets a smooth field pick among the close biomes, so borders
//! are its contours ([`Dither`]).

use crate::biome::{Biome, BiomeWeights};
use mangekyo_core::hash::mix64;

/// Temperature bands: polar, boreal, temperate, tropical.
pub const BANDS: usize = 4;
/// Upper edges of the first three bands, °C.
pub const BAND_EDGES_C: [f64; 3] = [-3.0, 5.0, 18.0];
/// Half-width of the blend across a band edge, °C.
pub const BAND_BLEND_C: f64 = 1.5;
/// Half-width of the blend across a moisture-class edge, in rank.
pub const CLASS_BLEND: f64 = 0.05;
/// Knots of each band's quantile table (ranks 0, 1/32, …, 1).
pub const KNOTS: usize = 33;
/// Dither amplitude: weights within this of each other are an ecotone.
pub const DITHER: f64 = 0.25;
/// Mean annual temperature below which land is ice, °C.
pub const ICE_C: f64 = -10.0;
/// Heights from which the tree line applies, metres (below it cold land
/// is tundra or taiga by climate).
pub const MOUNTAIN_M: f64 = 600.0;
/// The tree line: mountain land colder than this is alpine meadow, °C.
pub const TREELINE_C: f64 = 0.0;
/// Mountain land colder than this is bare rock and scree, °C.
pub const NIVAL_C: f64 = -6.0;
/// Coast up to this height is beach, metres.
pub const BEACH_M: f64 = 6.0;
/// Riparian land reaches this many river widths past the bank.
pub const RIPARIAN_WIDTHS: f64 = 5.0;

/// The moisture classes of each band, dry to wet.
pub const CLASSES: [&[Biome]; BANDS] = [
    &[Biome::Tundra],
    &[Biome::Tundra, Biome::Taiga],
    &[
        Biome::Desert,
        Biome::Grassland,
        Biome::Shrubland,
        Biome::TemperateForest,
    ],
    &[Biome::Desert, Biome::Savanna, Biome::Rainforest],
];

/// Cumulative target shares of the classes at `humidity_global` ½, dry
/// to wet (the last class takes the rest): Earth-like proportions.
const CUMULATIVE: [&[f64]; BANDS] = [&[], &[0.3], &[0.18, 0.42, 0.58], &[0.3, 0.62]];

/// How strongly `humidity_global` moves the class edges: each cumulative
/// share c becomes c^γ with γ = exp(this × (humidity_global − ½)).
const HUMIDITY_SHIFT: f64 = 2.2;

/// The class edges of every band for a planet's `humidity_global`.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassEdges {
    edges: [Vec<f64>; BANDS],
}

impl ClassEdges {
    /// Edges for `humidity_global` (0 ..= 1): higher means wetter classes
    /// take more of every band.
    pub fn new(humidity_global: f64) -> ClassEdges {
        let gamma = libm::exp(HUMIDITY_SHIFT * (humidity_global - 0.5));
        ClassEdges {
            edges: CUMULATIVE.map(|c| c.iter().map(|&x| libm::pow(x, gamma)).collect()),
        }
    }

    /// The target share of each class of `band`, dry to wet.
    pub fn shares(&self, band: usize) -> Vec<f64> {
        let e = &self.edges[band];
        let mut out = Vec::with_capacity(e.len() + 1);
        let mut last = 0.0;
        for &x in e {
            out.push(x - last);
            last = x;
        }
        out.push(1.0 - last);
        out
    }
}

/// The band of a temperature by hard thresholds (what the tables and the
/// share targets count).
pub fn band_of(t: f64) -> usize {
    BAND_EDGES_C.iter().filter(|&&e| t >= e).count()
}

/// Per-band quantile tables of ln P over the tier's climate land.
#[derive(Clone, Debug, PartialEq)]
pub struct BiomeTables {
    /// `knots[b][i]`: ln P at rank i/32 in band b (non-decreasing).
    pub knots: [[f32; KNOTS]; BANDS],
    /// Area of climate land in each band, as counted (fixed point, km²).
    pub area: [u64; BANDS],
}

impl BiomeTables {
    /// Tables from samples `(band, ln P, area weight)`: area-weighted
    /// quantiles, sorted by (ln P, index) so ties have one order. A band
    /// without samples gets a flat table (every rank ½).
    pub fn from_samples(samples: &[(u8, f32, u64)]) -> BiomeTables {
        let mut knots = [[0.0f32; KNOTS]; BANDS];
        let mut area = [0u64; BANDS];
        for (b, row) in knots.iter_mut().enumerate() {
            let mut mine: Vec<(f32, usize, u64)> = samples
                .iter()
                .enumerate()
                .filter(|(_, s)| usize::from(s.0) == b)
                .map(|(i, s)| (s.1, i, s.2))
                .collect();
            mine.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            let total: u64 = mine.iter().map(|s| s.2).sum();
            area[b] = total;
            if mine.is_empty() || total == 0 {
                continue;
            }
            let mut at = 0usize;
            let mut cum = u128::from(mine[0].2);
            for (i, k) in row.iter_mut().enumerate() {
                // First sample whose cumulative weight reaches i/32 of the total.
                let target = u128::from(total) * i as u128;
                while cum * (KNOTS as u128 - 1) < target && at + 1 < mine.len() {
                    at += 1;
                    cum += u128::from(mine[at].2);
                }
                *k = mine[at].0;
            }
            row[0] = mine[0].0;
        }
        BiomeTables { knots, area }
    }

    /// The rank of `ln_p` in `band`: 0 ..= 1, piecewise linear between the
    /// knots (½ in a band without samples).
    pub fn rank(&self, band: usize, ln_p: f64) -> f64 {
        if self.area[band] == 0 {
            return 0.5;
        }
        let k = &self.knots[band];
        let x = ln_p as f32;
        if x <= k[0] {
            return 0.0;
        }
        if x >= k[KNOTS - 1] {
            return 1.0;
        }
        // First knot above x (k is non-decreasing; x lies inside).
        let hi = k.partition_point(|&v| v <= x).clamp(1, KNOTS - 1);
        let (a, b) = (f64::from(k[hi - 1]), f64::from(k[hi]));
        let t = if b > a { (ln_p - a) / (b - a) } else { 0.5 };
        ((hi - 1) as f64 + t.clamp(0.0, 1.0)) / (KNOTS - 1) as f64
    }
}

/// A smooth step from 0 at `x = −w` to 1 at `x = w`.
fn step(x: f64, w: f64) -> f64 {
    let t = ((x + w) / (2.0 * w)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The smooth climate weights at (T, ln P), summed per biome; at most four
/// biomes, strongest first (ties by index).
pub fn climate_weights(
    t: f64,
    ln_p: f64,
    tables: &BiomeTables,
    edges: &ClassEdges,
) -> Vec<(Biome, f64)> {
    let mut band_w = [0.0; BANDS];
    // Membership is the product of "above the lower edge" and "below the
    // upper one": the bands' weights sum to 1.
    let above = BAND_EDGES_C.map(|e| step(t - e, BAND_BLEND_C));
    for (b, w) in band_w.iter_mut().enumerate() {
        let lower = if b == 0 { 1.0 } else { above[b - 1] };
        let upper = if b == BANDS - 1 { 0.0 } else { above[b] };
        *w = lower - upper;
    }
    let mut out: Vec<(Biome, f64)> = Vec::with_capacity(4);
    for (b, &wb) in band_w.iter().enumerate() {
        if wb <= 0.0 {
            continue;
        }
        let r = tables.rank(b, ln_p);
        let e = &edges.edges[b];
        for (c, &biome) in CLASSES[b].iter().enumerate() {
            let lower = if c == 0 {
                1.0
            } else {
                step(r - e[c - 1], CLASS_BLEND)
            };
            let upper = if c == e.len() {
                0.0
            } else {
                step(r - e[c], CLASS_BLEND)
            };
            let w = wb * (lower - upper);
            if w <= 0.0 {
                continue;
            }
            match out.iter_mut().find(|(x, _)| *x == biome) {
                Some(slot) => slot.1 += w,
                None => out.push((biome, w)),
            }
        }
    }
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// What one sample knows for its biome.
#[derive(Clone, Copy, Debug)]
pub struct Site {
    /// Ground height, metres.
    pub height: f64,
    /// Fresh water over the ground, metres (lakes and river channels).
    pub water: f64,
    /// Mean annual temperature at the ground, °C.
    pub temperature: f64,
    /// ln of precipitation in mm/yr.
    pub ln_p: f64,
    /// Wetland weight of the flats around, 0 ..= 1.
    pub wetland: f64,
    /// Within [`RIPARIAN_WIDTHS`] river widths past a bank.
    pub riparian: bool,
    /// On the sea's shore strip, where low ground is beach (everywhere,
    /// where beaches go by height alone).
    pub shore: bool,
    /// What settles the sample's ecotone.
    pub dither: Dither,
}

/// What settles an ecotone at a sample ([`crate::version::Ecotones`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dither {
    /// The hash of the lattice cell holding it ([`dither_hash`]).
    Cell(u64),
    /// The ecotone field there, mapped to `[0, 1]` ([`field_dither`]).
    Field(f64),
}

impl Dither {
    /// In `[0, 1)`: whether a wetland weight near ½ counts as wetland.
    fn wetland(self) -> f64 {
        match self {
            Dither::Cell(h) => unit(h, 0x57e7),
            // Another set of the field's contours than the biomes' (7 per
            // unit), so wetland edges do not trace the biome borders.
            Dither::Field(v) => (7.0 * v + 0.5).fract(),
        }
    }
}

/// Spreads the ecotone field (fBm, about `[-1, 1]` with a standard
/// deviation near 0.13) over `[0, 1]`: about 0.28 either side of ½, so
/// most of the range is used and little is clamped.
pub fn field_dither(noise: f32) -> Dither {
    Dither::Field((0.5 + 2.2 * f64::from(noise)).clamp(0.0, 1.0))
}

/// Uniform in [0, 1) from a hash and a salt.
fn unit(h: u64, salt: u64) -> f64 {
    (mix64(h ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15)) >> 11) as f64 / (1u64 << 53) as f64
}

/// The dither hash of a sample at `p` (metres from the centre) on a
/// lattice of `cell` metres, for a planet `seed`.
pub fn dither_hash(p: [f64; 3], cell: f64, seed: u64) -> u64 {
    let c = p.map(|x| (x / cell).floor() as i64 as u64);
    mix64(seed ^ mix64(c[0] ^ mix64(c[1] ^ mix64(c[2] ^ 0xb10e))))
}

/// The override of a site, if one applies (`None`: climate decides).
pub fn override_of(s: &Site) -> Option<Biome> {
    if s.height < 0.0 {
        return Some(if s.height < f64::from(crate::biome::DEEP_OCEAN_M) {
            Biome::DeepOcean
        } else {
            Biome::Ocean
        });
    }
    if s.water > 0.0 {
        return Some(Biome::FreshWater);
    }
    if s.temperature < ICE_C {
        return Some(Biome::SnowIce);
    }
    if s.height >= MOUNTAIN_M && s.temperature < NIVAL_C {
        return Some(Biome::BareRock);
    }
    if s.height >= MOUNTAIN_M && s.temperature < TREELINE_C {
        return Some(Biome::Alpine);
    }
    if s.height < BEACH_M && s.shore {
        return Some(Biome::Beach);
    }
    if s.riparian && s.temperature >= TREELINE_C {
        return Some(Biome::Riparian);
    }
    if s.wetland + DITHER * (s.dither.wetland() - 0.5) > 0.5 {
        return Some(Biome::Wetland);
    }
    None
}

/// The biome of a site and its two strongest climate weights.
pub fn classify(s: &Site, tables: &BiomeTables, edges: &ClassEdges) -> (Biome, BiomeWeights) {
    let over = override_of(s);
    if let Some(b @ (Biome::Ocean | Biome::DeepOcean)) = over {
        return (b, alone(b));
    }
    let w = climate_weights(s.temperature, s.ln_p, tables, edges);
    let quantise = |x: f64| (x * 255.0).round().clamp(0.0, 255.0) as u8;
    let weights = match w.as_slice() {
        [] => alone(Biome::Tundra),
        [(a, wa)] => BiomeWeights {
            first: *a,
            first_weight: quantise(*wa),
            second: *a,
            second_weight: 0,
        },
        [(a, wa), (b, wb), ..] => BiomeWeights {
            first: *a,
            first_weight: quantise(*wa),
            second: *b,
            second_weight: quantise(*wb),
        },
    };
    if let Some(b) = over {
        return (b, weights);
    }
    let b = match s.dither {
        Dither::Cell(h) => {
            let mut best = (Biome::Tundra, f64::NEG_INFINITY);
            for &(b, x) in &w {
                let score = x + DITHER * (unit(h, u64::from(b.index())) - 0.5);
                if score > best.1 {
                    best = (b, score);
                }
            }
            best.0
        }
        Dither::Field(v) => field_pick(&w, v),
    };
    (b, weights)
}

/// [`Dither::Field`]: the biomes within [`DITHER`] of the strongest
/// share `[0, 1)` in proportion to how far they are inside that band, in
/// biome order (never weight order, which swaps where two weights cross
/// and would draw a line there), and `v` picks one. So a border lies on
/// a contour of the field, and moves smoothly as the weights change.
fn field_pick(w: &[(Biome, f64)], v: f64) -> Biome {
    let top = w.iter().map(|e| e.1).fold(f64::NEG_INFINITY, f64::max);
    let mut close: Vec<(Biome, f64)> = w
        .iter()
        .map(|&(b, x)| (b, x - (top - DITHER)))
        .filter(|e| e.1 > 0.0)
        .collect();
    close.sort_by_key(|e| e.0.index());
    let total: f64 = close.iter().map(|e| e.1).sum();
    let mut at = v * total;
    for &(b, share) in &close {
        if at < share {
            return b;
        }
        at -= share;
    }
    close.last().map_or(Biome::Tundra, |e| e.0)
}

fn alone(b: Biome) -> BiomeWeights {
    BiomeWeights {
        first: b,
        first_weight: 255,
        second: b,
        second_weight: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables() -> BiomeTables {
        // ln P uniform over 0..8 in every band.
        let samples: Vec<(u8, f32, u64)> = (0..4000)
            .map(|i| ((i % 4) as u8, (i / 4) as f32 * 0.008, 1))
            .collect();
        BiomeTables::from_samples(&samples)
    }

    #[test]
    fn weights_are_smooth_sum_to_one_and_follow_the_table() {
        let (t, e) = (tables(), ClassEdges::new(0.5));
        for temp in [-20.0, -3.2, 4.0, 5.5, 12.0, 17.9, 30.0] {
            for lp in [0.0, 1.0, 2.3, 4.0, 6.5, 8.0] {
                let w = climate_weights(temp, lp, &t, &e);
                let sum: f64 = w.iter().map(|x| x.1).sum();
                assert!((sum - 1.0).abs() < 1e-9, "{temp} {lp} {w:?}");
            }
        }
        // Tropical and dry: desert; tropical and wet: rainforest.
        assert_eq!(climate_weights(28.0, 0.5, &t, &e)[0].0, Biome::Desert);
        assert_eq!(climate_weights(28.0, 7.5, &t, &e)[0].0, Biome::Rainforest);
        assert_eq!(climate_weights(0.0, 7.5, &t, &e)[0].0, Biome::Taiga);
        // Ranks follow the table.
        assert!((t.rank(2, 4.0) - 0.5).abs() < 0.01, "{}", t.rank(2, 4.0));
    }

    #[test]
    fn the_field_picks_close_biomes_in_proportion_and_moves_smoothly() {
        let (a, b, c) = (Biome::Desert, Biome::Savanna, Biome::Rainforest);
        // The band is 0.25 below the strongest (0.55): c is out of it and
        // never picked; a and b split [0, 1) by how far inside it they
        // are (0.1 and 0.25).
        let w = [(b, 0.55), (a, 0.4), (c, 0.05)];
        let picks: Vec<Biome> = (0..1000)
            .map(|i| field_pick(&w, (i as f64 + 0.5) / 1000.0))
            .collect();
        assert!(!picks.contains(&c));
        let share_a = picks.iter().filter(|&&p| p == a).count() as f64 / 1000.0;
        assert!((share_a - 0.1 / 0.35).abs() < 0.01, "{share_a}");
        // In biome order: a (lower index) takes the low end of the field.
        assert!(a.index() < b.index());
        assert_eq!(field_pick(&w, 0.0), a);
        assert_eq!(field_pick(&w, 0.999), b);
        // Where the weights cross, the pick does not jump: at one field
        // value, sweeping the weights moves the choice once, from b to a.
        let v = 0.3;
        let mut switches = 0;
        let mut last = None;
        for i in 0..=100 {
            let x = 0.3 + 0.4 * i as f64 / 100.0;
            let p = field_pick(&[(a, x), (b, 1.0 - x)], v);
            if last.is_some_and(|l| l != p) {
                switches += 1;
            }
            last = Some(p);
        }
        assert_eq!((switches, last), (1, Some(a)));
        // A lone biome, or a clear winner, is picked whatever the field.
        assert_eq!(field_pick(&[(c, 1.0)], 0.7), c);
        assert_eq!(field_pick(&[(c, 0.9), (a, 0.1)], 0.01), c);
    }

    #[test]
    fn wetter_planets_shift_shares_to_the_wet_classes() {
        let dry = ClassEdges::new(0.2).shares(3);
        let wet = ClassEdges::new(0.8).shares(3);
        assert!(dry[0] > wet[0] && dry[2] < wet[2], "{dry:?} {wet:?}");
        let s: f64 = ClassEdges::new(0.5).shares(2).iter().sum();
        assert!((s - 1.0).abs() < 1e-12);
    }
}
