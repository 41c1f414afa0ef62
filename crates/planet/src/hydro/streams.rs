//! Streams below the coarse graph's rivers ([`crate::version::Streams::Cells`], issue 36):
//! the creeks and rills that drain every land cell where water runs off,
//! as a pure function of the cells around a sample.
//!
//! - **Creeks.** A land cell outside lakes drains along its edge to its
//!   receiver. Where that edge is no river (it drains less than the
//!   rivers' threshold), a creek runs along it, from the node's level to
//!   the receiver's (the sea's 0 or a lake's surface), with the discharge
//!   of the cell's runoff over the cells that drain through it.
//! - **Rills.** Inside the cell, [`FINE`]² jittered points each start a
//!   rill towards the cell's trunk (its creek or river): straight to the
//!   nearest point on the node's half of the edge, or into a neighbouring
//!   rill's source that lies nearer the trunk and ahead (within 50°), so
//!   rills join in branches. A rill starts at the coarse ground
//!   interpolated at its source, never below what it joins, so no
//!   stream's level rises downstream; its width follows the runoff of the
//!   fine cells above it (the rivers' hydraulic geometry).
//! - **Carving.** Each stream within reach cuts a parabolic channel
//!   below its water level and holds the ground between that level and
//!   valley walls rising at [`WALL_SLOPE`], fading out over its reach;
//!   over ground below its level it runs at the ground's height and
//!   raises nothing (there its water follows the ground, bumps and pits
//!   of the fine noise included);
//!   the sample keeps the lowest of these. The channel holding it (if
//!   any) gives its water.
//!
//! A sample reads the streams of its own cell and two rings around it,
//! binned by where they reach, so it is the same in every chunk that holds
//! it. Cells and their networks are built once per [`StreamCache`].

use super::rivers::channel;
use super::routing::NONE;
use super::{SECONDS_PER_YEAR, cell_area, sub};
use crate::atmosphere::Atmosphere;
use crate::atmosphere::fields::ClimateGrid;
use crate::geo::{Dir, cross, dot, normalise};
use crate::graph::SphereGraph;
use crate::projection::MapPoint;
use mangekyo_core::hash::mix64;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Rill sources per coarse cell edge: 4² per cell (30–37 km² each on
/// Earth's default graph, so rills drain tens of km² and creeks one
/// cell's few hundred).
pub const FINE: u32 = 4;
/// Sample bins per coarse cell edge (a sample tests only its bin's list).
const BINS: u32 = 8;
/// How far a rill source strays from its fine cell's centre, in fine cells.
const JITTER: f64 = 0.35;
/// Slope of a stream valley's walls, metres per metre (24°).
pub const WALL_SLOPE: f64 = 0.45;
/// How far a creek's valley reaches beyond its bank, metres.
const CREEK_REACH_M: f64 = 600.0;
/// How far a rill's valley reaches beyond its bank, metres.
const RILL_REACH_M: f64 = 250.0;
/// The least runoff that keeps a cell's streams, m/yr (hyper-arid ground
/// and ice draw none).
pub const MIN_RUNOFF_M: f64 = 0.02;
/// A stream's hashed bends: the peaks of its first three harmonics
/// (sin kπt, which vanish at both ends), as fractions of its length. The
/// first bows the whole stream, the others wiggle it.
const BENDS: [f64; 3] = [0.12, 0.05, 0.03];
/// Points along the node's half of its edge where rills may join.
const TRUNK_STEPS: u32 = 32;
/// A rill joins a neighbour's source within this angle of its way to the
/// trunk (cos 50°).
const JOIN_COS: f64 = 0.642_787_609_686_539_3;
/// Streams are drawn on graphs whose cells are at least this wide,
/// metres (Earth's default graph: 24.5 km): a stream strays from its cell
/// by at most a fifth of its length and its reach (under 0.7 km), so the
/// two rings of cells a sample reads hold every stream that reaches it.
pub const MIN_CELL_M: f64 = 8000.0;
/// At most this many upstream cells count towards a creek's discharge.
const UPSTREAM_CAP: usize = 64;
/// Entries a [`StreamCache`] keeps before it starts afresh (about 40 KB
/// each).
const CACHE_CELLS: usize = 2048;
/// Streams are drawn at sample spacings up to this, metres: beyond it a
/// 2–10 m channel and its valley are below a pixel (like the noise
/// octaves finer than the spacing, they are dropped).
pub const MAX_SPACING_M: f64 = 200.0;

/// One creek or rill: a chord with hashed bends, levels at both ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stream {
    a: Dir,
    b: Dir,
    ab: Dir,
    inv_len2: f64,
    len: f64,
    normal: Dir,
    /// The bends' amplitudes, unit sphere (signed).
    bends: [f64; 3],
    /// The most the bends move the centreline off the chord, unit sphere.
    bend: f64,
    /// The least factor by which the first-order distance shrinks a
    /// lateral offset (1 / √(1 + the bends' steepest slope²)).
    shrink: f64,
    /// Water level at the source and at the mouth, metres.
    z_a: f64,
    z_b: f64,
    /// Half the channel's width, metres.
    half: f64,
    /// Channel depth at the centreline, metres.
    depth: f64,
    /// Discharge, m³/s.
    discharge: f64,
    /// How far its valley reaches from the centreline, metres.
    reach: f64,
}

impl Stream {
    #[allow(clippy::too_many_arguments)]
    fn new(a: Dir, b: Dir, z_a: f64, z_b: f64, q: f64, reach: f64, key: u64) -> Stream {
        let ab = sub(b, a);
        let len2 = dot(ab, ab).max(f64::MIN_POSITIVE);
        let c = cross(a, b);
        let cn = dot(c, c).sqrt().max(f64::MIN_POSITIVE);
        let (width, depth) = channel(q);
        let h = mix64(key ^ 0x5354_5245_414d_5321);
        let len = len2.sqrt();
        let bends = [0, 1, 2].map(|i| {
            let u = ((h >> (20 * i)) & 0xf_ffff) as f64 / f64::from(1u32 << 20);
            (2.0 * u - 1.0) * BENDS[i] * len
        });
        let steepest: f64 = bends
            .iter()
            .enumerate()
            .map(|(i, b)| b.abs() * std::f64::consts::PI * (i + 1) as f64 / len)
            .sum();
        Stream {
            a,
            b,
            ab,
            inv_len2: 1.0 / len2,
            len: len2.sqrt(),
            normal: [c[0] / cn, c[1] / cn, c[2] / cn],
            bends,
            bend: bends.iter().map(|b| b.abs()).sum(),
            shrink: 1.0 / (1.0 + steepest * steepest).sqrt(),
            z_a,
            z_b: z_b.min(z_a),
            half: 0.5 * width,
            depth,
            discharge: q,
            reach: 0.5 * width + reach,
        }
    }

    /// The point of its centreline at `t` (0 at the source), unit vector.
    fn point(&self, t: f64) -> Dir {
        let mut off = 0.0;
        for (i, b) in self.bends.iter().enumerate() {
            off += b * libm::sin(std::f64::consts::PI * (i + 1) as f64 * t);
        }
        normalise([0, 1, 2].map(|i| self.a[i] + t * self.ab[i] + off * self.normal[i]))
    }

    /// Distance from `p` to the chord in the plane of the chord and its
    /// normal (unit sphere), without the bends: what [`Stream::distance`]
    /// measures, less the radial part the chord's sag adds. It never
    /// grows faster than `p` moves, and [`Stream::distance`] is at least
    /// `shrink` times it less `bend`.
    fn chord_distance(&self, p: Dir) -> f64 {
        let ap = sub(p, self.a);
        let raw = dot(ap, self.ab) * self.inv_len2;
        let along = (raw - raw.clamp(0.0, 1.0)) * self.len;
        let lateral = dot(ap, self.normal);
        (along * along + lateral * lateral).sqrt()
    }

    /// Distance from `p` to the centreline (metres on a planet of
    /// `radius`) and the position along it (0 at the source): the
    /// first-order distance to the bent chord (exact on the chord, and
    /// within `shrink` of the lateral offset off it).
    fn distance(&self, p: Dir, radius: f64) -> (f64, f64) {
        let ap = sub(p, self.a);
        let raw = dot(ap, self.ab) * self.inv_len2;
        let t = raw.clamp(0.0, 1.0);
        let along = (raw - t) * self.len;
        let (mut off, mut rate) = (0.0, 0.0);
        for (i, b) in self.bends.iter().enumerate() {
            let k = std::f64::consts::PI * (i + 1) as f64;
            off += b * libm::sin(k * t);
            rate += b * k * libm::cos(k * t) / self.len;
        }
        let lateral = (dot(ap, self.normal) - off) / (1.0 + rate * rate).sqrt();
        ((along * along + lateral * lateral).sqrt() * radius, t)
    }
}

/// What the coarse tier gives the streams.
pub struct StreamInputs<'a> {
    /// The planet's seed (rill sources are hashed with it).
    pub seed: u64,
    /// Planet radius, metres.
    pub radius: f64,
    /// The tier's graph.
    pub graph: &'a SphereGraph,
    /// Eroded ground per node, metres.
    pub eroded: &'a [f32],
    /// Receiver per node ([`NONE`] at the sea and closed basins' floors).
    pub receiver: &'a [u32],
    /// Lake surface per node (NaN outside lakes).
    pub lake_level: &'a dyn Fn(u32) -> f32,
    /// The river segment from node `k`, if its edge is a river.
    pub river: &'a dyn Fn(u32) -> Option<u32>,
    /// The point of river segment `s`'s axis at `t` (the curve its
    /// meanders swing about).
    pub axis: &'a dyn Fn(u32, f64) -> Dir,
    /// The climate grid and its graph, for each cell's runoff (without
    /// one, [`super::balance::RIVER_RUNOFF_M`] everywhere).
    pub climate: Option<(&'a ClimateGrid, &'a SphereGraph)>,
}

impl std::fmt::Debug for StreamInputs<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamInputs")
            .field("seed", &self.seed)
            .field("radius", &self.radius)
            .field("nodes", &self.eroded.len())
            .finish_non_exhaustive()
    }
}

/// The streams that can reach one cell's samples, binned.
#[derive(Debug)]
pub struct CellStreams {
    streams: Vec<Stream>,
    /// `ids[start[b]..start[b + 1]]`: the streams reaching bin `b`.
    start: Vec<u32>,
    ids: Vec<u32>,
}

/// What a sample gets from the streams.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StreamCut {
    /// Ground height, metres.
    pub height: f64,
    /// The water level and discharge of the channel holding the sample.
    pub channel: Option<(f64, f64)>,
}

impl CellStreams {
    /// Carves ground `h` at `p` (tangent-cube point `at`) in cell `cell`
    /// of `graph`.
    pub fn carve(
        &self,
        graph: &SphereGraph,
        radius: f64,
        cell: u32,
        p: Dir,
        at: MapPoint,
        h: f64,
    ) -> StreamCut {
        let (_, i, j) = graph.cell(cell);
        let n = f64::from(graph.n());
        let bin = |u: f64, i: u32| {
            let x = 0.5 * (u + 1.0) * n - f64::from(i);
            ((x * f64::from(BINS)).floor().max(0.0) as u32).min(BINS - 1)
        };
        let b = (bin(at.v, j) * BINS + bin(at.u, i)) as usize;
        let mut out = StreamCut {
            height: h,
            channel: None,
        };
        let mut best = f64::INFINITY;
        for &s in &self.ids[self.start[b] as usize..self.start[b + 1] as usize] {
            let st = &self.streams[s as usize];
            // The bends move the centreline at most `bend` off the chord,
            // and the first-order distance shrinks a lateral offset by at
            // most `shrink`.
            if st.shrink * (st.chord_distance(p) - st.bend) * radius >= st.reach {
                continue;
            }
            let (d, t) = st.distance(p, radius);
            if d >= st.reach {
                continue;
            }
            // Over ground below its level a stream runs at the ground's
            // height (it falls with it, and raises nothing: a levee there
            // would wall a coast or a valley floor off).
            let z = (st.z_a + (st.z_b - st.z_a) * t).min(h);
            let (v, wet) = if d < st.half {
                let r = d / st.half;
                (z - st.depth * (1.0 - r * r), true)
            } else {
                let rise = d - st.half;
                let u = rise / (st.reach - st.half);
                let fade = 1.0 - u * u * (3.0 - 2.0 * u);
                let target = h.min(z + WALL_SLOPE * rise);
                (h + (target - h) * fade, false)
            };
            if v < best {
                best = v;
                out.height = v;
                out.channel = wet.then_some((z, st.discharge));
            }
        }
        out
    }
}

/// The cells' streams, built on first use (one per tier reader, so per
/// request; every entry is a pure function of its cell, so what is cached
/// or dropped never changes a result).
#[derive(Debug, Default)]
pub struct StreamCache {
    cells: Mutex<Built>,
}

/// What a [`StreamCache`] holds: each cell's own network, and the binned
/// streams that can reach its samples.
#[derive(Debug, Default)]
struct Built {
    networks: BTreeMap<u32, Arc<Vec<Stream>>>,
    cells: BTreeMap<u32, Arc<CellStreams>>,
}

impl StreamCache {
    /// The streams that can reach samples in `cell`.
    pub fn cell(&self, inputs: &StreamInputs, cell: u32) -> Arc<CellStreams> {
        if let Some(c) = self.lock().cells.get(&cell) {
            return Arc::clone(c);
        }
        let built = Arc::new(cell_streams(inputs, cell, &|k| self.network(inputs, k)));
        let mut b = self.lock();
        if b.cells.len() >= CACHE_CELLS {
            // Entries are pure, so starting afresh changes no result.
            *b = Built::default();
        }
        Arc::clone(b.cells.entry(cell).or_insert(built))
    }

    /// Cell `k`'s own network.
    fn network(&self, inputs: &StreamInputs, k: u32) -> Arc<Vec<Stream>> {
        if let Some(n) = self.lock().networks.get(&k) {
            return Arc::clone(n);
        }
        let built = Arc::new(network(inputs, k));
        let mut b = self.lock();
        if b.networks.len() >= 4 * CACHE_CELLS {
            *b = Built::default();
        }
        Arc::clone(b.networks.entry(k).or_insert(built))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Built> {
        // A panic elsewhere cannot leave a half-written entry: entries
        // are inserted whole.
        self.cells.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The water level at node `k` (a lake's surface, the sea's 0, else its
/// ground: a dry closed basin's floor too).
fn level(inputs: &StreamInputs, k: u32) -> f64 {
    let lake = (inputs.lake_level)(k);
    if !lake.is_nan() {
        f64::from(lake)
    } else if inputs.receiver[k as usize] == NONE && inputs.eroded[k as usize] <= 0.0 {
        0.0
    } else {
        f64::from(inputs.eroded[k as usize])
    }
}

/// Cell `k`'s runoff, m/yr (0 on ice).
fn runoff(inputs: &StreamInputs, k: u32) -> f64 {
    let Some((grid, graph)) = inputs.climate else {
        return super::balance::RIVER_RUNOFF_M;
    };
    let (t_sea, ln_p) = grid.at(graph, inputs.graph.node(k));
    let t = Atmosphere::air_temperature(t_sea, f64::from(inputs.eroded[k as usize]));
    if t < crate::ecology::ICE_C + super::balance::ICE_MARGIN_C {
        return 0.0;
    }
    let p = libm::exp(ln_p) / 1000.0;
    p * super::balance::runoff_ratio(p, super::balance::pet_m(t))
}

/// The area draining through node `k`, m²: its cell and the cells whose
/// receivers lead to it (found through the neighbours, at most
/// [`UPSTREAM_CAP`] cells; below the rivers' threshold a creek drains
/// a few).
fn upstream_area(inputs: &StreamInputs, k: u32) -> f64 {
    let g = inputs.graph;
    let mut seen = vec![k];
    let mut next = 0;
    while next < seen.len() && seen.len() < UPSTREAM_CAP {
        let x = seen[next];
        next += 1;
        for m in g.neighbours(x) {
            if inputs.receiver[m as usize] == x && seen.len() < UPSTREAM_CAP {
                seen.push(m);
            }
        }
    }
    seen.iter().map(|&m| cell_area(g, m, inputs.radius)).sum()
}

/// Cell `k`'s own streams: its creek (unless its edge is a river) and
/// its rills.
fn network(inputs: &StreamInputs, k: u32) -> Vec<Stream> {
    let ku = k as usize;
    let r = inputs.receiver[ku];
    if r == NONE || !(inputs.lake_level)(k).is_nan() {
        return Vec::new();
    }
    let runoff = runoff(inputs, k);
    if runoff < MIN_RUNOFF_M {
        return Vec::new();
    }
    let g = inputs.graph;
    let (a, b) = (g.node(k), g.node(r));
    let (za, zb) = (level(inputs, k), level(inputs, r).min(level(inputs, k)));
    let area = cell_area(g, k, inputs.radius);
    let key = |i: u64| mix64(inputs.seed ^ (u64::from(k) << 8 | i));
    let river = (inputs.river)(k);
    let creek = Stream::new(
        a,
        b,
        za,
        zb,
        upstream_area(inputs, k) * runoff / SECONDS_PER_YEAR,
        CREEK_REACH_M,
        key(255),
    );
    let mut out = Vec::new();
    if river.is_none() {
        out.push(creek);
    }
    // The trunk rills run to: the river's axis, or the creek's centreline,
    // at 33 points along the node's half of the edge.
    let trunk: Vec<Dir> = (0..=TRUNK_STEPS)
        .map(|i| {
            let t = 0.5 * f64::from(i) / f64::from(TRUNK_STEPS);
            match river {
                Some(s) => (inputs.axis)(s, t),
                None => creek.point(t),
            }
        })
        .collect();
    let (face, i, j) = g.cell(k);
    let fine = FINE as usize;
    let fine_step = std::f64::consts::FRAC_PI_2 / f64::from(g.n()) / f64::from(FINE);
    struct Source {
        p: Dir,
        /// The nearest trunk point's index.
        at: usize,
        to_trunk: f64,
    }
    let sources: Vec<Source> = (0..fine * fine)
        .map(|idx| {
            let h = key(idx as u64);
            let jx = ((h >> 40) as f64 / (1u64 << 24) as f64 - 0.5) * 2.0 * JITTER;
            let jy = (((h >> 16) & 0xff_ffff) as f64 / (1u64 << 24) as f64 - 0.5) * 2.0 * JITTER;
            let fx = ((idx % fine) as f64 + 0.5 + jx) / f64::from(FINE);
            let fy = ((idx / fine) as f64 + 0.5 + jy) / f64::from(FINE);
            let p = g.lattice_dir(face, f64::from(i) - 0.5 + fx, f64::from(j) - 0.5 + fy);
            let (at, to_trunk) = trunk
                .iter()
                .map(|&q| {
                    let d = sub(p, q);
                    dot(d, d).sqrt()
                })
                .enumerate()
                .fold(
                    (0, f64::INFINITY),
                    |best, (i, d)| {
                        if d < best.1 { (i, d) } else { best }
                    },
                );
            Source { p, at, to_trunk }
        })
        .collect();
    let trunk_z = |at: usize| za + (zb - za) * 0.5 * at as f64 / f64::from(TRUNK_STEPS);
    let mut order: Vec<usize> = (0..sources.len()).collect();
    order.sort_by(|&x, &y| {
        sources[x]
            .to_trunk
            .total_cmp(&sources[y].to_trunk)
            .then(x.cmp(&y))
    });
    // Targets, nearest the trunk first: a neighbour's source already
    // placed, nearer the trunk and ahead, or the trunk itself.
    const TRUNK: usize = usize::MAX;
    let mut target = vec![TRUNK; sources.len()];
    let mut placed = vec![false; sources.len()];
    let mut z = vec![0.0f64; sources.len()];
    let mut kept = vec![false; sources.len()];
    for &s in &order {
        let src = &sources[s];
        placed[s] = true;
        if src.to_trunk < 0.15 * fine_step {
            continue;
        }
        let ground = g.interpolate_with(&mut |m| f64::from(inputs.eroded[m as usize]), src.p);
        if ground <= 0.0 {
            continue;
        }
        let way = normalise(sub(trunk[src.at], src.p));
        let (sx, sy) = (s % fine, s / fine);
        let mut best = JOIN_COS;
        for (dx, dy) in [
            (-1, -1),
            (0, -1),
            (1, -1),
            (-1, 0),
            (1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
        ] {
            let (nx, ny) = (sx as i64 + dx, sy as i64 + dy);
            if nx < 0 || ny < 0 || nx >= fine as i64 || ny >= fine as i64 {
                continue;
            }
            let m = ny as usize * fine + nx as usize;
            if !kept[m] || sources[m].to_trunk > src.to_trunk - 0.25 * fine_step {
                continue;
            }
            let c = dot(normalise(sub(sources[m].p, src.p)), way);
            if c > best {
                best = c;
                target[s] = m;
            }
        }
        let below = if target[s] == TRUNK {
            trunk_z(src.at)
        } else {
            z[target[s]]
        };
        z[s] = ground.max(below);
        kept[s] = true;
    }
    // Fine cells drained, furthest from the trunk first.
    let mut count = vec![1.0f64; sources.len()];
    for &s in order.iter().rev() {
        if kept[s] && target[s] != TRUNK {
            count[target[s]] += count[s];
        }
    }
    let fine_area = area / f64::from(FINE * FINE);
    for (s, src) in sources.iter().enumerate() {
        if !kept[s] {
            continue;
        }
        let (end, z_end) = if target[s] == TRUNK {
            (trunk[src.at], trunk_z(src.at))
        } else {
            (sources[target[s]].p, z[target[s]])
        };
        let q = count[s] * fine_area * runoff / SECONDS_PER_YEAR;
        out.push(Stream::new(
            src.p,
            end,
            z[s],
            z_end,
            q,
            RILL_REACH_M,
            key(s as u64 + 64),
        ));
    }
    out
}

/// The streams that can reach samples in `cell`, binned: the networks of
/// the cell and two rings around it (`network` gives each). A stream
/// strays from its cell by at most its bends (a fifth of a creek's
/// length) plus its reach, so nothing from further out reaches the cell.
fn cell_streams(
    inputs: &StreamInputs,
    cell: u32,
    network: &dyn Fn(u32) -> Arc<Vec<Stream>>,
) -> CellStreams {
    let g = inputs.graph;
    let mut around: Vec<u32> = g
        .neighbours(cell)
        .iter()
        .flat_map(|&m| g.neighbours(m))
        .chain([cell])
        .collect();
    around.sort_unstable();
    around.dedup();
    let (face, i, j) = g.cell(cell);
    let at = |x: f64, y: f64| {
        g.lattice_dir(
            face,
            f64::from(i) - 0.5 + x / f64::from(BINS),
            f64::from(j) - 0.5 + y / f64::from(BINS),
        )
    };
    // The farthest a point of the square [x0, x1]² (in bins) lies from
    // its centre (at a corner).
    let radius = |x0: f64, y0: f64, x1: f64, y1: f64, centre: Dir| {
        [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
            .iter()
            .map(|&(x, y)| {
                let d = sub(at(x, y), centre);
                dot(d, d).sqrt()
            })
            .fold(0.0f64, f64::max)
    };
    // Whether a stream can reach a point within `radius` of `centre`
    // (what `CellStreams::carve` tests first, widened by the radius).
    let reaches = |st: &Stream, centre: Dir, radius: f64| {
        st.chord_distance(centre) < st.reach / (st.shrink * inputs.radius) + st.bend + radius
    };
    let b = f64::from(BINS);
    let middle = at(0.5 * b, 0.5 * b);
    let whole = radius(0.0, 0.0, b, b, middle);
    let streams: Vec<Stream> = around
        .iter()
        .flat_map(|&m| network(m).iter().copied().collect::<Vec<_>>())
        .filter(|st| reaches(st, middle, whole))
        .collect();
    let bins = BINS as usize;
    let mut start = Vec::with_capacity(bins * bins + 1);
    let mut ids = Vec::new();
    start.push(0);
    for by in 0..bins {
        for bx in 0..bins {
            let (x, y) = (bx as f64, by as f64);
            let centre = at(x + 0.5, y + 0.5);
            let r = radius(x, y, x + 1.0, y + 1.0, centre);
            for (s, st) in streams.iter().enumerate() {
                if reaches(st, centre, r) {
                    ids.push(s as u32);
                }
            }
            start.push(ids.len() as u32);
        }
    }
    CellStreams {
        streams,
        start,
        ids,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Planet, PlanetParams, Version};

    /// Every creek runs from its node to its receiver's, and every rill
    /// into a rill's source or onto its cell's trunk, never rising: its
    /// mouth's level is what it joins, and a rill carries more than each
    /// rill that joins it.
    /// Where cells are narrower than [`MIN_CELL_M`] (a small planet),
    /// samples read no streams: their bends and valleys would leave the
    /// rings a sample reads.
    #[test]
    fn small_cells_draw_no_streams() {
        for (radius, streams) in [(6_371_000.0, true), (500_000.0, false)] {
            let planet = Planet::new(PlanetParams {
                generator_version: Version::Next,
                graph_n: 128,
                radius,
                ..PlanetParams::default()
            })
            .unwrap();
            let tier = Some(planet.coarse_tier().unwrap());
            let reader = planet.tier_reader(&tier).unwrap();
            assert_eq!(reader.streams.is_some(), streams, "radius {radius} m");
        }
    }

    #[test]
    fn streams_fall_into_what_they_join_and_grow_downstream() {
        let planet = Planet::new(PlanetParams {
            generator_version: Version::Next,
            graph_n: 128,
            ..PlanetParams::default()
        })
        .unwrap();
        let tier = Some(planet.coarse_tier().unwrap());
        let reader = planet.tier_reader(&tier).unwrap();
        let (mut creeks, mut rills, mut joins, mut on_trunk) = (0, 0, 0, 0);
        reader.with_stream_inputs(|inputs| {
            for k in 0..inputs.graph.len() as u32 {
                let net = network(inputs, k);
                let creek = net.iter().find(|s| s.reach == s.half + CREEK_REACH_M);
                for s in &net {
                    assert!(s.z_b <= s.z_a, "cell {k}: {s:?} rises");
                    assert!(s.discharge > 0.0 && s.half > 0.0 && s.depth > 0.0);
                    if Some(s) == creek {
                        let r = inputs.receiver[k as usize];
                        assert_eq!(s.b, inputs.graph.node(r));
                        assert_eq!(s.z_b, level(inputs, r).min(level(inputs, k)));
                        creeks += 1;
                        continue;
                    }
                    rills += 1;
                    if let Some(t) = net.iter().find(|&t| t.a == s.b && Some(t) != creek) {
                        assert_eq!(t.z_a, s.z_b, "cell {k}: a rill meets a source's level");
                        assert!(t.discharge > s.discharge);
                        joins += 1;
                    } else {
                        // On the trunk: the creek's centreline, or the
                        // river's axis (then within the river's reach).
                        // (The creek's distance is first order: its channel
                        // holds the mouth.)
                        let (d, within) = match creek {
                            Some(c) => (c.distance(s.b, inputs.radius).0, c.half),
                            None => {
                                let r = (inputs.river)(k).expect("no creek: a river");
                                let d = (0..=TRUNK_STEPS)
                                    .map(|i| {
                                        let t = 0.5 * f64::from(i) / f64::from(TRUNK_STEPS);
                                        let q = sub((inputs.axis)(r, t), s.b);
                                        dot(q, q).sqrt() * inputs.radius
                                    })
                                    .fold(f64::INFINITY, f64::min);
                                (d, 1.0)
                            }
                        };
                        assert!(d < within, "cell {k}: a rill ends {d} m off its trunk");
                        on_trunk += 1;
                    }
                }
            }
        });
        assert!(
            creeks > 1000 && rills > 10 * creeks,
            "{creeks} creeks, {rills} rills"
        );
        // Rills branch: a good share join another.
        assert!(joins * 5 > rills, "{joins} of {rills} rills join another");
        assert!(on_trunk > 0);
    }
}
