//! What rivers and lakes do to one sample (tier T3): the nearest river
//! segment of the sample's cell (by distance past its bank, then id) cuts
//! a parabolic channel whose centreline floor is the water level minus the
//! depth, and holds the ground of a valley corridor between the water
//! level and a gentle slope up from the bank; lakes fill ground below
//! their surface in their cells and the ring around them (not a river
//! channel there). Every input is global and every formula a function of
//! the direction alone, so rivers cross chunk edges, faces and levels
//! without a seam.

use super::rivers::{Segment, meander};
use super::sub;
use crate::geo::{Dir, cross, dot};
use crate::graph::{Ghosts, SphereGraph};
use crate::version::Channels;

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
fn end_slopes(graph: &SphereGraph, segments: &[Segment]) -> Vec<(f64, f64)> {
    const NONE: u32 = u32::MAX;
    let mut out_of = vec![NONE; graph.len()];
    let mut main_in = vec![NONE; graph.len()];
    for (i, s) in segments.iter().enumerate() {
        out_of[s.from as usize] = i as u32;
        let m = &mut main_in[s.to as usize];
        // The largest inflow, ties to the lower index: one choice per node.
        if *m == NONE || s.discharge > segments[*m as usize].discharge {
            *m = i as u32;
        }
    }
    segments
        .iter()
        .map(|s| {
            let (a, b) = (graph.node(s.from), graph.node(s.to));
            let ab = sub(b, a);
            let len = dot(ab, ab).sqrt();
            let u = [ab[0] / len, ab[1] / len, ab[2] / len];
            let c = cross(a, b);
            let cn = dot(c, c).sqrt();
            let n = [c[0] / cn, c[1] / cn, c[2] / cn];
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
            let after = out_of[s.to as usize];
            let m1 = match after {
                NONE => 0.0,
                k => slope(sub(graph.node(segments[k as usize].to), a)),
            };
            (m0, m1)
        })
        .collect()
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
    /// in its channel; infinite when none reaches the sample).
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
        let slopes = match channels {
            Channels::Chords => Vec::new(),
            Channels::Curves => end_slopes(graph, &segments),
        };
        let geometry = segments
            .iter()
            .enumerate()
            .map(|(i, s)| {
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
                    slopes: slopes.get(i).copied(),
                }
            })
            .collect();
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
        RiverField {
            radius,
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

    /// The segments, in tier order.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Distance (metres) from `p` to segment `s`'s centreline, and the
    /// position along it (0 at `from`, 1 at `to`).
    pub fn distance(&self, s: u32, p: Dir) -> (f64, f64) {
        let g = &self.geometry[s as usize];
        let ap = sub(p, g.a);
        let raw = dot(ap, g.ab) * g.inv_len2;
        let y = dot(ap, g.normal);
        let (raw, t) = match g.slopes {
            None => (raw, raw.clamp(0.0, 1.0)),
            Some(_) => {
                // A curve strays from its chord and turns against it, so
                // the chord's projection is only a start: two
                // Gauss–Newton steps towards the nearest point of the
                // curve (in the chord's frame), so the distance is
                // measured across the channel, not across the chord.
                let mut t = raw;
                for _ in 0..2 {
                    let c = t.clamp(0.0, 1.0);
                    let (f, df) = (g.lateral(c), g.lateral_slope(c));
                    let along = (raw - t) * g.len;
                    t += (along * g.len + df * (y - f)) / (g.len * g.len + df * df);
                }
                (raw, t.clamp(0.0, 1.0))
            }
        };
        let along = (raw - t) * g.len;
        let lateral = y - g.lateral(t);
        ((lateral * lateral + along * along).sqrt() * self.radius, t)
    }

    /// The point on segment `s`'s centreline at position `t` (unit vector).
    pub fn centre(&self, s: u32, t: f64) -> Dir {
        let g = &self.geometry[s as usize];
        let bend = g.lateral(t);
        let p = [
            g.a[0] + t * g.ab[0] + bend * g.normal[0],
            g.a[1] + t * g.ab[1] + bend * g.normal[1],
            g.a[2] + t * g.ab[2] + bend * g.normal[2],
        ];
        let n = dot(p, p).sqrt();
        [p[0] / n, p[1] / n, p[2] / n]
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
        let mut best: Option<(f64, u32, f64, f64)> = None;
        for &s in &self.ids[self.start[c] as usize..self.start[c + 1] as usize] {
            let (d, t) = self.distance(s, p);
            let g = &self.geometry[s as usize];
            if d >= g.reach {
                continue;
            }
            let e = d - 0.5 * f64::from(self.segments[s as usize].width);
            if best.is_none_or(|(be, bs, _, _)| e < be || (e == be && s < bs)) {
                best = Some((e, s, d, t));
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
        if let Some((e, s, d, t)) = best {
            let seg = &self.segments[s as usize];
            out.bank = e;
            out.width = f64::from(seg.width);
            let z = self.level(s, t);
            let half = 0.5 * f64::from(seg.width);
            if e < 0.0 {
                let r = d / half;
                let bed = z - f64::from(seg.depth) * (1.0 - r * r);
                out.height = bed;
                out.water = z - bed;
                out.flow = f64::from(seg.discharge);
                out.segment = Some(s);
            } else {
                let span = self.geometry[s as usize].reach - half;
                let u = (e / span).min(1.0);
                let fade = 1.0 - u * u * (3.0 - 2.0 * u);
                let target = h.min(z + VALLEY_SLOPE * e).max(z);
                out.height = h + (target - h) * fade;
            }
        }
        // A lake floods ground below its surface in its own cells and the
        // ring around them (its shores lie between nodes), but not a river
        // channel beside it, which runs below the lake from its pass.
        let lake = f64::from(if out.segment.is_some() {
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
