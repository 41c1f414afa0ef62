//! What rivers and lakes do to one sample (tier T3): the nearest river
//! segment of the sample's cell (by distance past its bank, then id) cuts
//! a parabolic channel whose centreline floor is the water level minus the
//! depth, and holds the ground of a valley corridor between the water
//! level and a gentle slope up from the bank; lakes fill ground below
//! their surface in their cells and the ring around them (not a river
//! channel there). With [`Channels::Curves`] the channel meanders about
//! the segment's curve, and the corridor's floor is flat at the water
//! level across the meander belt (a floodplain that widens with the
//! river). Every input is global and every formula a function of the
//! direction alone, so rivers cross chunk edges, faces and levels without
//! a seam.

use super::rivers::{Segment, meander};
use super::sub;
use crate::geo::{Dir, cross, dot, normalise};
use crate::graph::{Ghosts, SphereGraph};
use crate::version::Channels;
use mangekyo_core::hash::mix64;

/// Slope of the valley walls up from a bank, metres per metre.
pub const VALLEY_SLOPE: f64 = 0.06;
/// The valley corridor beyond the bank: this many metres plus ten widths.
pub const VALLEY_REACH_M: f64 = 3000.0;
/// The corridor never reaches further than this fraction of a cell
/// (so a segment listed one ring around the cells it crosses is always
/// found by every sample it touches).
pub const REACH_CELLS: f64 = 0.3;

/// S-bend shape, peak ±1 (t(1 − t)(1 − 2t) · 6√3).
const BEND: f64 = 10.392_304_845_413_264;
/// [`Channels::Curves`]' S-bend, flat at both ends so the channel keeps
/// the tangent it has at each node: t²(1 − t)²(1 − 2t) · 25√5, peak ±1
/// (at t = (5 ∓ √5)/10).
const BEND_FLAT: f64 = 55.901_699_437_494_74;

/// [`Channels::Curves`]: end slopes (lateral per along, against the
/// chord) are held within ±1 (45°, a right-angle turn's Catmull–Rom
/// tangent), so a centreline strays at most a quarter of its chord from
/// it and stays among the cells the segment is listed in.
const MAX_SLOPE: f64 = 1.0;

/// [`Channels::Curves`]: meander wavelength in channel widths (Leopold and
/// Wolman measured 10–14 on alluvial rivers).
const MEANDER_WAVELENGTH_W: f64 = 11.0;
/// The meander belt (half-width, metres) from which a river's drawn
/// course ([`RiverField::course`]) follows its meanders rather than their
/// axis: narrower belts stay within a few hundred metres of the axis.
pub const COURSE_BELT_M: f64 = 500.0;
/// Meander amplitude per wavelength, before the per-segment factor
/// (0.75–1.25), the swell and the warp: 0.18 gives the train a peak
/// slope of 2π · 0.18 = 1.13 against its curve, a sine's sinuosity of
/// 1.27 (and main stems, with their curves, the warp and the apexes,
/// about 1.45).
const MEANDER_AMPLITUDE: f64 = 0.18;
/// The slow swell of the amplitude along a segment (±30 %), so loops differ.
const MEANDER_SWELL: f64 = 0.3;
/// How far the local wavelength strays from the train's (a phase warp of
/// ±35 %, one cycle per about six half-waves), so loops are not evenly
/// spaced.
const MEANDER_WARP: f64 = 0.35;
/// The third harmonic added to each loop (towards a square wave, away
/// from a triangle): flattened apexes and steep crossings, as grown loops
/// have. The loop's peak is 1 − 0.1 = 0.9 of the amplitude (sin φ +
/// c·sin 3φ peaks at π/2 while c ≤ 1/9).
const MEANDER_APEX: f64 = 0.1;
/// The meander belt's half-width never exceeds this fraction of a cell:
/// a wider river keeps its wavelength and meanders less (the largest, a
/// few km wide, run nearly straight between nodes, as the lower Amazon
/// does). The corridor's reach gives the room up, so the belt plus the
/// corridor still stay within [`REACH_CELLS`].
const MEANDER_CELLS: f64 = 0.12;

/// [`Channels::Curves`]: a train of meanders along a segment's curve.
#[derive(Clone, Copy, Debug)]
struct Meander {
    /// Peak offset before the swell, unit sphere, signed (the side of the
    /// first loop).
    amp: f64,
    /// Half-waves along the segment: a whole number, so the train meets
    /// the curve at both nodes.
    halves: f64,
    /// Phase of the swell, radians.
    phase: f64,
    /// Cycles of the phase warp along the segment (whole, so the warp
    /// leaves the ends in place), and its signed strength.
    warps: f64,
    warp: f64,
}

impl Meander {
    /// A segment's train, for a channel `width_m` wide along a chord of
    /// `len_m` on a graph of cell spacing `spacing_m`; its shape hashed
    /// from the segment's nodes. Also the belt's half-width, metres (the
    /// largest offset).
    fn new(
        from: u32,
        to: u32,
        width_m: f64,
        len_m: f64,
        spacing_m: f64,
        radius: f64,
    ) -> (Meander, f64) {
        let h = mix64((u64::from(from) << 32 | u64::from(to)) ^ 0x4b49_4e4f_5348_4954);
        let unit = |k: u32| ((h >> k) & 0xff_ffff) as f64 / f64::from(1u32 << 24);
        let lambda = MEANDER_WAVELENGTH_W * width_m;
        let cap = MEANDER_CELLS * spacing_m / ((1.0 + MEANDER_SWELL) * (1.0 - MEANDER_APEX));
        let amp = (MEANDER_AMPLITUDE * lambda * (0.75 + 0.5 * unit(0))).min(cap);
        let side = if h >> 63 == 0 { 1.0 } else { -1.0 };
        let halves = (2.0 * len_m / lambda).round().max(1.0);
        let train = Meander {
            amp: side * amp / radius,
            halves,
            phase: std::f64::consts::TAU * unit(24),
            warps: (halves / 6.0).round().max(1.0),
            warp: if h >> 62 & 1 == 0 {
                MEANDER_WARP
            } else {
                -MEANDER_WARP
            },
        };
        (train, amp * (1.0 + MEANDER_SWELL) * (1.0 - MEANDER_APEX))
    }

    /// How much of the train shows at `t`: it fades in over a quarter wave
    /// at each end (smoothstep, flat at 0), so the channel leaves and meets
    /// each node along its curve, and the belt narrows to the channel there
    /// (so segments' belts, which differ, meet at a node without a step).
    fn fade(&self, t: f64) -> f64 {
        let q = (2.0 * self.halves * t.min(1.0 - t)).clamp(0.0, 1.0);
        q * q * (3.0 - 2.0 * q)
    }

    /// The offset from the curve along its normal at `t` (unit sphere), and
    /// its rate d/dt. The rate leaves out the slow envelopes' own rates
    /// (the fade at the ends and the swell): it only corrects the channel's
    /// width where the train crosses its curve, and is exact at the nodes,
    /// where the offset and its rate are both 0.
    fn offset(&self, t: f64) -> (f64, f64) {
        use std::f64::consts::{PI, TAU};
        // The phase, warped: φ = πh·(t + γ·sin(2πmt)/(2πm)), which keeps
        // φ(0) = 0 and φ(1) = πh and always grows (|γ| < 1).
        let (m, turn) = (self.warps, TAU * self.warps * t);
        let phi = PI * self.halves * (t + self.warp * libm::sin(turn) / (TAU * m));
        let w = PI * self.halves * (1.0 + self.warp * libm::cos(turn));
        let fade = self.fade(t);
        let swell = 1.0 + MEANDER_SWELL * libm::sin(0.29 * phi + self.phase);
        let a = self.amp * fade * swell;
        (
            a * (libm::sin(phi) + MEANDER_APEX * libm::sin(3.0 * phi)),
            a * w * (libm::cos(phi) + 3.0 * MEANDER_APEX * libm::cos(3.0 * phi)),
        )
    }
}

/// A segment's geometry on the unit sphere.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    a: Dir,
    ab: Dir,
    inv_len2: f64,
    len: f64,
    normal: Dir,
    amp: f64,
    reach: f64,
    /// [`Channels::Curves`]: the centreline's slopes against the chord
    /// at `from` and `to` (a cubic Hermite offset); `None` for chords.
    slopes: Option<(f64, f64)>,
    /// [`Channels::Curves`]: the meanders about the curve; `None` for
    /// chords.
    meander: Option<Meander>,
    /// The meander belt's half-width, metres (0 for chords).
    belt: f64,
}

impl Geometry {
    /// The centreline's offset from the chord along `normal` at position
    /// `t` (unit sphere): the S-bend; with curves, one flat at its ends
    /// plus the Hermite cubic that leaves and meets the chord at the end
    /// slopes.
    fn lateral(&self, t: f64) -> f64 {
        match self.slopes {
            None => self.amp * BEND * t * (1.0 - t) * (1.0 - 2.0 * t),
            Some((m0, m1)) => {
                let (t2, u) = (t * t, 1.0 - t);
                let bend = self.amp * BEND_FLAT * t2 * u * u * (1.0 - 2.0 * t);
                let h10 = t2 * t - 2.0 * t2 + t;
                let h11 = t2 * t - t2;
                bend + self.len * (m0 * h10 + m1 * h11)
            }
        }
    }

    /// The curve's point at `t`, off the unit sphere (the chord's point
    /// moved by [`Geometry::lateral`] along the chord's normal).
    fn on_curve(&self, t: f64) -> Dir {
        let bend = self.lateral(t);
        [0, 1, 2].map(|i| self.a[i] + t * self.ab[i] + bend * self.normal[i])
    }

    /// d[`Geometry::lateral`]/dt of a curve (0 for chords, which never
    /// ask).
    fn lateral_slope(&self, t: f64) -> f64 {
        let Some((m0, m1)) = self.slopes else {
            return 0.0;
        };
        let u = 1.0 - t;
        let w = 1.0 - 2.0 * t;
        let bend = self.amp * BEND_FLAT * (2.0 * t * u * w * w - 2.0 * t * t * u * u);
        let h10 = 3.0 * t * t - 4.0 * t + 1.0;
        let h11 = 3.0 * t * t - 2.0 * t;
        bend + self.len * (m0 * h10 + m1 * h11)
    }
}

/// [`Channels::Curves`]: each segment's end slopes. The tangent at a node
/// is the chord from the node before it to the node after it along the
/// river: before `from`, the start of its largest inflowing segment (none
/// at a source); after `to`, the end of its outflowing one (none at a
/// mouth). So consecutive segments of one stem share their tangent at the
/// node between them, and the channel turns there smoothly.
fn end_slopes(graph: &SphereGraph, segments: &[Segment], geometry: &[Geometry]) -> Vec<(f64, f64)> {
    const NONE: u32 = u32::MAX;
    let mut out_of = vec![NONE; graph.len()];
    let mut main_in = vec![NONE; graph.len()];
    for (i, s) in segments.iter().enumerate() {
        out_of[s.from as usize] = i as u32;
        // A river that ends in a lake or the sea is no node's inflow (a
        // lake's outlet river may start at the node it ends at).
        if s.mouth != 0 {
            continue;
        }
        let m = &mut main_in[s.to as usize];
        // The largest inflow, ties to the lower index: one choice per node.
        if *m == NONE || s.discharge > segments[*m as usize].discharge {
            *m = i as u32;
        }
    }
    segments
        .iter()
        .zip(geometry)
        .map(|(s, g)| {
            let (a, b) = (g.a, graph.node(s.to));
            let u = [g.ab[0] / g.len, g.ab[1] / g.len, g.ab[2] / g.len];
            let n = g.normal;
            // Lateral per along of tangent `t` against this chord, held
            // within ±MAX_SLOPE (a tangent turned back counts as the most).
            let slope = |t: Dir| {
                let (tu, tn) = (dot(t, u), dot(t, n));
                (tn / tu.max(tn.abs()).max(1e-12)).clamp(-MAX_SLOPE, MAX_SLOPE)
            };
            let before = main_in[s.from as usize];
            let m0 = match before {
                NONE => 0.0,
                k => slope(sub(b, graph.node(segments[k as usize].from))),
            };
            let after = match s.mouth {
                0 => out_of[s.to as usize],
                _ => NONE,
            };
            let m1 = match after {
                NONE => 0.0,
                k => slope(sub(graph.node(segments[k as usize].to), a)),
            };
            (m0, m1)
        })
        .collect()
}

/// How far a sample lies from one segment (see [`RiverField::distance`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Near {
    /// From the segment's curve (the meander belt's axis), metres.
    pub curve: f64,
    /// From its channel's centreline, metres (the curve's distance for
    /// chords).
    pub channel: f64,
    /// Position along the segment, 0 at `from` and 1 at `to`.
    pub t: f64,
    /// The signed distance from the curve along its normal, unit sphere.
    pub lateral: f64,
}

/// What a sample gets from the water.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Carved {
    /// Ground height, metres.
    pub height: f64,
    /// Water over the ground (sea, lake or river), metres.
    pub water: f64,
    /// River discharge, m³/s (0 off rivers).
    pub flow: f64,
    /// The river segment whose channel holds the sample, if any.
    pub segment: Option<u32>,
    /// Metres past the bank of the nearest river within reach (negative
    /// in its channel; infinite when none reaches the sample). Beside a
    /// meandering channel it counts from the belt's edge (0 across the
    /// floodplain).
    pub bank: f64,
    /// That river's width, metres (0 when none).
    pub width: f64,
}

/// The rivers and lakes of one planet, ready to carve samples.
#[derive(Clone, Debug)]
pub struct RiverField {
    radius: f64,
    segments: Vec<Segment>,
    geometry: Vec<Geometry>,
    start: Vec<u32>,
    ids: Vec<u32>,
    lake_own: Vec<f32>,
    lake_near: Vec<f32>,
    /// The river segment from each node (`u32::MAX` where its edge is no
    /// river; the first listed, for a lake node two lakes spill from).
    river_from: Vec<u32>,
    ghosts: Ghosts,
}

impl RiverField {
    /// Builds the field from the tier's segments and per-node lake levels
    /// (`lake_level[k]` NaN outside lakes) on `graph`.
    pub fn new(
        graph: &SphereGraph,
        radius: f64,
        segments: Vec<Segment>,
        lake_level: &[f32],
        channels: Channels,
    ) -> RiverField {
        let spacing = std::f64::consts::FRAC_PI_2 * radius / f64::from(graph.n());
        let cap = REACH_CELLS * spacing;
        let mut geometry: Vec<Geometry> = segments
            .iter()
            .map(|s| {
                let (a, b) = (graph.node(s.from), graph.node(s.to));
                let ab = sub(b, a);
                let len2 = dot(ab, ab);
                let c = cross(a, b);
                let cn = dot(c, c).sqrt();
                let half = 0.5 * f64::from(s.width);
                Geometry {
                    a,
                    ab,
                    inv_len2: 1.0 / len2,
                    len: len2.sqrt(),
                    normal: [c[0] / cn, c[1] / cn, c[2] / cn],
                    amp: meander(s.from, s.to) * len2.sqrt(),
                    reach: (half + VALLEY_REACH_M + 10.0 * f64::from(s.width))
                        .min(cap)
                        .max(half),
                    slopes: None,
                    meander: None,
                    belt: 0.0,
                }
            })
            .collect();
        if channels == Channels::Curves {
            let slopes = end_slopes(graph, &segments, &geometry);
            for ((g, s), m) in geometry.iter_mut().zip(&segments).zip(slopes) {
                let width = f64::from(s.width);
                let (train, belt) =
                    Meander::new(s.from, s.to, width, g.len * radius, spacing, radius);
                let half = 0.5 * width;
                g.slopes = Some(m);
                g.meander = Some(train);
                g.belt = belt;
                g.reach = (half + belt + VALLEY_REACH_M + 10.0 * width)
                    .min(cap)
                    .max(half + belt);
            }
        }
        let (start, ids) = super::rivers::index(graph, &segments);
        let lake_near = (0..graph.len() as u32)
            .map(|k| {
                let mut best = lake_level[k as usize];
                for m in graph.neighbours(k) {
                    let l = lake_level[m as usize];
                    if !l.is_nan() && (best.is_nan() || l > best) {
                        best = l;
                    }
                }
                best
            })
            .collect();
        let mut river_from = vec![u32::MAX; graph.len()];
        for (i, s) in segments.iter().enumerate().rev() {
            river_from[s.from as usize] = i as u32;
        }
        RiverField {
            radius,
            river_from,
            segments,
            geometry,
            start,
            ids,
            lake_own: lake_level.to_vec(),
            lake_near,
            ghosts: Ghosts::new(graph),
        }
    }

    /// The graph's ghost points, for interpolating the tier's fields.
    pub fn ghosts(&self) -> &Ghosts {
        &self.ghosts
    }

    /// Node `k`'s lake surface, metres (NaN outside lakes).
    pub fn lake_level(&self, k: u32) -> f32 {
        self.lake_own[k as usize]
    }

    /// The river segment from node `k`, if its edge is a river.
    pub fn river_from(&self, k: u32) -> Option<u32> {
        Some(self.river_from[k as usize]).filter(|&s| s != u32::MAX)
    }

    /// The segments, in tier order.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// How far `p` lies from segment `s`'s curve (metres), and the
    /// position along it (0 at `from`, 1 at `to`); `channel` is the same
    /// distance (see [`RiverField::distance`] for the meanders').
    pub fn curve_distance(&self, s: u32, p: Dir) -> Near {
        let g = &self.geometry[s as usize];
        let ap = sub(p, g.a);
        let raw = dot(ap, g.ab) * g.inv_len2;
        let y = dot(ap, g.normal);
        let t = match g.slopes {
            None => raw.clamp(0.0, 1.0),
            Some(_) => {
                // A curve strays from its chord and turns against it, so
                // the chord's projection is only a start: Gauss–Newton
                // steps towards the nearest point of the curve (in the
                // chord's frame), so the distance is measured across the
                // channel, not across the chord. The third step settles
                // points a meander belt off the curve.
                let mut t = raw;
                for _ in 0..3 {
                    let c = t.clamp(0.0, 1.0);
                    let (f, df) = (g.lateral(c), g.lateral_slope(c));
                    let along = (raw - t) * g.len;
                    t += (along * g.len + df * (y - f)) / (g.len * g.len + df * df);
                }
                t.clamp(0.0, 1.0)
            }
        };
        let along = (raw - t) * g.len;
        let lateral = y - g.lateral(t);
        let curve = (lateral * lateral + along * along).sqrt();
        Near {
            curve: curve * self.radius,
            channel: curve * self.radius,
            t,
            lateral: lateral.signum() * curve,
        }
    }

    /// [`RiverField::curve_distance`] with the channel's distance: for
    /// meanders, the distance to the train's centreline.
    pub fn distance(&self, s: u32, p: Dir) -> Near {
        let near = self.curve_distance(s, p);
        let g = &self.geometry[s as usize];
        match g.meander {
            None => near,
            Some(m) => Near {
                channel: self.meander_distance(g, m, &near),
                ..near
            },
        }
    }

    /// The distance (metres) from a sample `near` segment `g`'s curve to
    /// the centreline of its meanders `m`: the curve moved by the train's
    /// offset along its normal. Near the channel that is the signed
    /// distance from the curve less the offset, over the train's secant
    /// (the first-order distance to an offset curve), so the channel keeps
    /// its width where it crosses. That estimate swings with the phase
    /// beyond the belt, where the channel is at least the distance past
    /// the belt's edge away: the larger of the two counts.
    fn meander_distance(&self, g: &Geometry, m: Meander, near: &Near) -> f64 {
        let (off, rate) = m.offset(near.t);
        let df = g.lateral_slope(near.t);
        let speed2 = g.len * g.len + df * df;
        let across = (near.lateral - off).abs() / (1.0 + rate * rate / speed2).sqrt();
        let curve = near.curve / self.radius;
        across.max(curve - m.fade(near.t) * g.belt / self.radius) * self.radius
    }

    /// The point on segment `s`'s curve at position `t` (unit vector): the
    /// axis its meanders swing about (the channel's centreline, for
    /// chords).
    pub fn axis(&self, s: u32, t: f64) -> Dir {
        normalise(self.geometry[s as usize].on_curve(t))
    }

    /// The point on segment `s`'s channel centreline at position `t`
    /// (unit vector): on its curve, moved by the meanders along the
    /// curve's normal.
    pub fn centre(&self, s: u32, t: f64) -> Dir {
        let g = &self.geometry[s as usize];
        let mut p = g.on_curve(t);
        if let Some(m) = g.meander {
            // The curve's normal in the chord's frame: (−f′, |ab|) over
            // its length, against (along, lateral).
            let (off, _) = m.offset(t);
            let df = g.lateral_slope(t);
            let k = off / (g.len * g.len + df * df).sqrt();
            for (i, x) in p.iter_mut().enumerate() {
                *x += k * (g.len * g.normal[i] - df * g.ab[i] / g.len);
            }
        }
        normalise(p)
    }

    /// Points along segment `s`'s course, to draw it as a line: from its
    /// `from` node (included) towards its `to` node (left out: the next
    /// segment's first point). Where its meanders swing wide enough to
    /// show on a map (a belt of at least [`COURSE_BELT_M`]), the channel's
    /// centreline at four points a half-wave, so the line stays on the
    /// water; otherwise its curve at `points`.
    pub fn course(&self, s: u32, points: u32) -> Vec<Dir> {
        let g = &self.geometry[s as usize];
        match g.meander {
            Some(m) if g.belt >= COURSE_BELT_M => {
                let n = ((4.0 * m.halves) as u32).max(points);
                (0..n)
                    .map(|k| self.centre(s, f64::from(k) / f64::from(n)))
                    .collect()
            }
            _ => (0..points)
                .map(|k| self.axis(s, f64::from(k) / f64::from(points)))
                .collect(),
        }
    }

    /// The water level of segment `s` at position `t`: linear between its
    /// nodes' levels, so it never rises downstream.
    pub fn level(&self, s: u32, t: f64) -> f64 {
        let seg = &self.segments[s as usize];
        f64::from(seg.z_from) + (f64::from(seg.z_to) - f64::from(seg.z_from)) * t
    }

    /// Carves ground `h` (metres) at direction `p` in graph cell `cell`.
    pub fn carve(&self, p: Dir, cell: u32, h: f64) -> Carved {
        let c = cell as usize;
        let mut best: Option<(f64, u32, Near)> = None;
        for &s in &self.ids[self.start[c] as usize..self.start[c + 1] as usize] {
            let mut near = self.curve_distance(s, p);
            let g = &self.geometry[s as usize];
            if near.curve >= g.reach {
                continue;
            }
            if let Some(m) = g.meander {
                near.channel = self.meander_distance(g, m, &near);
            }
            let e = near.channel - 0.5 * f64::from(self.segments[s as usize].width);
            if best.is_none_or(|(be, bs, _)| e < be || (e == be && s < bs)) {
                best = Some((e, s, near));
            }
        }
        let mut out = Carved {
            height: h,
            water: 0.0,
            flow: 0.0,
            segment: None,
            bank: f64::INFINITY,
            width: 0.0,
        };
        if let Some((e, s, near)) = best {
            let seg = &self.segments[s as usize];
            let g = &self.geometry[s as usize];
            out.width = f64::from(seg.width);
            let z = self.level(s, near.t);
            let half = 0.5 * f64::from(seg.width);
            // Beyond the channel, banks and the corridor count from the
            // belt's edge (the bank, for chords): the floor between
            // meanders is a floodplain at the water level, and the land
            // along a river (riparian) a band that holds its loops.
            let (rise, span) = match g.meander {
                None => (e, g.reach - half),
                Some(m) => {
                    let belt = m.fade(near.t) * g.belt;
                    (
                        (near.curve - half - belt).max(0.0),
                        (g.reach - half - belt).max(f64::MIN_POSITIVE),
                    )
                }
            };
            out.bank = if e < 0.0 { e } else { rise };
            // A channel out of a lake (it starts at a lake's node) only
            // cuts: the lake's floor beside it stays where it is.
            let from_lake = !self.lake_own[seg.from as usize].is_nan();
            if e < 0.0 {
                let r = near.channel / half;
                let bed = z - f64::from(seg.depth) * (1.0 - r * r);
                out.height = if from_lake { bed.min(h) } else { bed };
                out.water = z - out.height;
                out.flow = f64::from(seg.discharge);
                out.segment = Some(s);
            } else {
                let u = (rise / span).min(1.0);
                let fade = 1.0 - u * u * (3.0 - 2.0 * u);
                let target = h.min(z + VALLEY_SLOPE * rise).max(z);
                out.height = h + (target - h) * fade;
                if from_lake {
                    // Nor does its floodplain raise the lake's floor.
                    out.height = out.height.min(h);
                }
            }
        }
        // A lake floods ground below its surface in its own cells and the
        // ring around them (its shores lie between nodes), but not a river
        // channel beside it, which runs below the lake from its pass.
        // Along a channel out of a lake, the lake floods the corridor's
        // ground below its surface too, so it reaches the channel's start
        // over the ground the channel only cuts.
        let from_lake = best
            .map(|(_, s, _)| self.lake_own[self.segments[s as usize].from as usize])
            .filter(|l| !l.is_nan());
        let lake = f64::from(if let Some(l) = from_lake {
            l
        } else if out.segment.is_some() {
            self.lake_own[c]
        } else {
            self.lake_near[c]
        });
        if !lake.is_nan() && out.height < lake {
            out.water = out.water.max(lake - out.height);
        }
        if out.height < 0.0 {
            out.water = out.water.max(-out.height);
        }
        out
    }
}
