//! Step 5: the path network (the guide's `buildPathNetwork`): metres from the
//! scope's scale, Kruskal's minimum spanning tree, then detour savers
//! re-added, then travel minutes.

use crate::map::IslandEdge;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// Travel times are whole multiples of this many minutes, and at least one
/// multiple: a quarter hour is the grain a player plans a day in.
pub const TRAVEL_MINUTES_STEP: u32 = 15;

/// Walking speed on the flat: 4.5 km/h, a loaded walker on rough paths.
pub const WALKING_METERS_PER_MINUTE: f64 = 75.0;

/// Climbing rate: Naismith's rule (an extra hour per 600 m of ascent). An
/// edge is undirected and has one travel time, so the height difference
/// counts whichever way it is walked.
pub const CLIMB_METERS_PER_MINUTE: f64 = 10.0;

/// How the network is built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathParams {
    /// Metres per abstract distance unit.
    pub meters_per_distance_unit: f64,
    /// Re-add a non-MST edge when the network's path is longer than its
    /// direct length times this.
    pub detour_threshold: f64,
}

/// Minutes to walk `meters` with `climb_meters` of height difference,
/// rounded up to whole [`TRAVEL_MINUTES_STEP`]s, at least one step.
pub fn travel_minutes(meters: f64, climb_meters: f64) -> u32 {
    let minutes = meters / WALKING_METERS_PER_MINUTE + climb_meters.abs() / CLIMB_METERS_PER_MINUTE;
    let steps = (minutes / f64::from(TRAVEL_MINUTES_STEP)).ceil().max(1.0);
    (steps as u32).saturating_mul(TRAVEL_MINUTES_STEP)
}

/// A candidate edge with its sort key `(meters, a, b)`.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    meters: f64,
    a: u32,
    b: u32,
}

fn by_key(x: &Candidate, y: &Candidate) -> Ordering {
    x.meters
        .total_cmp(&y.meters)
        .then(x.a.cmp(&y.a))
        .then(x.b.cmp(&y.b))
}

/// The network over `delaunay` edges (`a < b`). `elevation_meters[i]` is site
/// `i`'s height. Edges come back sorted by `(a, b)`.
pub fn build_path_network(
    points: &[[f64; 2]],
    elevation_meters: &[f64],
    delaunay: &[(u32, u32)],
    params: PathParams,
) -> Vec<IslandEdge> {
    build_path_network_with_work(points, elevation_meters, delaunay, params).0
}

/// Work done by the detour search, for complexity checks: with the search
/// bounded by threshold × length, `settled / queries` stays flat as the
/// island grows (an unbounded search would grow it with n).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NetworkWork {
    /// Candidate edges checked (one bounded Dijkstra each).
    pub queries: u64,
    /// Nodes taken off the heap, over all queries.
    pub settled: u64,
}

/// [`build_path_network`], also reporting the work of the detour search.
pub fn build_path_network_with_work(
    points: &[[f64; 2]],
    elevation_meters: &[f64],
    delaunay: &[(u32, u32)],
    params: PathParams,
) -> (Vec<IslandEdge>, NetworkWork) {
    let mut candidates: Vec<Candidate> = delaunay
        .iter()
        .map(|&(a, b)| {
            let (p, q) = (points[a as usize], points[b as usize]);
            let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
            Candidate {
                meters: (dx * dx + dy * dy).sqrt() * params.meters_per_distance_unit,
                a,
                b,
            }
        })
        .collect();
    candidates.sort_by(by_key);
    let (mst, rest) = kruskal(points.len(), &candidates);
    let rank = spatial_ranks(points);
    let mut graph = Graph::new(&rank, &candidates);
    for &i in &mst {
        graph.activate(i);
    }
    let mut extra = Vec::new();
    for i in rest {
        let c = candidates[i];
        let (a, b) = (rank[c.a as usize], rank[c.b as usize]);
        if !graph.within(a, b, c.meters * params.detour_threshold) {
            graph.activate(i);
            extra.push(i);
        }
    }
    let edge = |c: &Candidate, mst: bool| {
        let climb = elevation_meters[c.b as usize] - elevation_meters[c.a as usize];
        IslandEdge {
            a: c.a,
            b: c.b,
            meters: c.meters,
            travel_minutes: travel_minutes(c.meters, climb),
            mst,
        }
    };
    let mut edges: Vec<IslandEdge> = mst
        .iter()
        .map(|&i| edge(&candidates[i], true))
        .chain(extra.iter().map(|&i| edge(&candidates[i], false)))
        .collect();
    edges.sort_by_key(|e| (e.a, e.b));
    (edges, graph.work)
}

/// Each site's position in Morton (Z-curve) order of its coordinates. The
/// search graph is numbered this way so that nodes near in space are near
/// in memory; site ids come from placement order, which is spatially
/// random. Shortest-path lengths do not depend on the numbering, so the
/// result is the same; only cache misses drop.
fn spatial_ranks(points: &[[f64; 2]]) -> Vec<u32> {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in points {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let cell = |v: f64, k: usize| {
        let span = (hi[k] - lo[k]).max(f64::MIN_POSITIVE);
        (((v - lo[k]) / span) * 65535.0) as u32
    };
    let mut order: Vec<(u64, u32)> = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (
                interleave(cell(p[0], 0)) | interleave(cell(p[1], 1)) << 1,
                i as u32,
            )
        })
        .collect();
    order.sort_unstable();
    let mut rank = vec![0u32; points.len()];
    for (r, &(_, i)) in order.iter().enumerate() {
        rank[i as usize] = r as u32;
    }
    rank
}

/// Spreads the low 16 bits of `v` to the even bits of a u64.
fn interleave(v: u32) -> u64 {
    let mut x = u64::from(v & 0xffff);
    x = (x | (x << 8)) & 0x00ff_00ff;
    x = (x | (x << 4)) & 0x0f0f_0f0f;
    x = (x | (x << 2)) & 0x3333_3333;
    (x | (x << 1)) & 0x5555_5555
}

/// Kruskal over sorted candidates: indices of the tree's edges, and of the
/// rest, both in key order.
fn kruskal(n: usize, sorted: &[Candidate]) -> (Vec<usize>, Vec<usize>) {
    let mut sets = UnionFind::new(n);
    let (mut tree, mut rest) = (Vec::with_capacity(n.saturating_sub(1)), Vec::new());
    for (i, c) in sorted.iter().enumerate() {
        if sets.union(c.a, c.b) {
            tree.push(i)
        } else {
            rest.push(i)
        }
    }
    (tree, rest)
}

/// Disjoint sets with path halving and union by size.
struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let grand = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = grand;
            x = grand;
        }
        x
    }

    /// Joins the sets of `a` and `b`; false if they were one already.
    fn union(&mut self, a: u32, b: u32) -> bool {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        if self.size[ra as usize] < self.size[rb as usize] {
            std::mem::swap(&mut ra, &mut rb);
        }
        self.parent[rb as usize] = ra;
        self.size[ra as usize] += self.size[rb as usize];
        true
    }
}

/// The growing network over a fixed frame: every candidate edge has a slot
/// in a compressed adjacency (rows in spatial order, see
/// [`spatial_ranks`]) that is switched on when the edge joins the network.
/// Rows are contiguous, so a search reads memory near where it already is.
/// Dijkstra buffers are reused across queries: a query resets only what it
/// touched (by a stamp), so m bounded queries cost the nodes they reach,
/// not m × n.
struct Graph {
    /// Row starts: node `v`'s slots are `row[v]..row[v + 1]`.
    row: Vec<u32>,
    slots: Vec<Slot>,
    /// The two slots of each candidate edge.
    slot_of: Vec<(u32, u32)>,
    dist: Vec<f64>,
    stamp: Vec<u32>,
    now: u32,
    heap: BinaryHeap<Reverse<(Dist, u32)>>,
    work: NetworkWork,
}

/// One direction of a candidate edge.
#[derive(Clone, Copy, Debug)]
struct Slot {
    to: u32,
    active: bool,
    len: f64,
}

/// An `f64` ordered by `total_cmp` (no NaN reaches here: lengths are
/// square roots of sums of squares).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Dist(f64);

impl Eq for Dist {}
impl PartialOrd for Dist {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Dist {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Graph {
    /// The frame for `candidates`, nodes numbered by `rank`.
    fn new(rank: &[u32], candidates: &[Candidate]) -> Self {
        let n = rank.len();
        let mut row = vec![0u32; n + 1];
        for c in candidates {
            row[rank[c.a as usize] as usize + 1] += 1;
            row[rank[c.b as usize] as usize + 1] += 1;
        }
        for v in 0..n {
            row[v + 1] += row[v];
        }
        let mut fill = row.clone();
        let mut slots = vec![
            Slot {
                to: 0,
                active: false,
                len: 0.0
            };
            2 * candidates.len()
        ];
        let mut slot_of = Vec::with_capacity(candidates.len());
        for c in candidates {
            let (a, b) = (rank[c.a as usize], rank[c.b as usize]);
            let (sa, sb) = (fill[a as usize], fill[b as usize]);
            slots[sa as usize] = Slot {
                to: b,
                active: false,
                len: c.meters,
            };
            slots[sb as usize] = Slot {
                to: a,
                active: false,
                len: c.meters,
            };
            fill[a as usize] += 1;
            fill[b as usize] += 1;
            slot_of.push((sa, sb));
        }
        Graph {
            row,
            slots,
            slot_of,
            dist: vec![0.0; n],
            stamp: vec![0; n],
            now: 0,
            heap: BinaryHeap::new(),
            work: NetworkWork::default(),
        }
    }

    /// Adds candidate `i` to the network.
    fn activate(&mut self, i: usize) {
        let (sa, sb) = self.slot_of[i];
        self.slots[sa as usize].active = true;
        self.slots[sb as usize].active = true;
    }

    fn tentative(&self, v: u32) -> f64 {
        if self.stamp[v as usize] == self.now {
            self.dist[v as usize]
        } else {
            f64::INFINITY
        }
    }

    /// Whether the network connects `from` and `to` by a path no longer than
    /// `bound`. Dijkstra that never pushes past `bound`: it explores only the
    /// disk of radius `bound` around `from`.
    fn within(&mut self, from: u32, to: u32, bound: f64) -> bool {
        self.now += 1;
        self.work.queries += 1;
        self.heap.clear();
        self.stamp[from as usize] = self.now;
        self.dist[from as usize] = 0.0;
        self.heap.push(Reverse((Dist(0.0), from)));
        while let Some(Reverse((Dist(d), v))) = self.heap.pop() {
            self.work.settled += 1;
            if v == to {
                return true;
            }
            if d > self.tentative(v) {
                continue;
            }
            for i in self.row[v as usize]..self.row[v as usize + 1] {
                let Slot { to: w, active, len } = self.slots[i as usize];
                if !active {
                    continue;
                }
                let nd = d + len;
                if nd <= bound && nd < self.tentative(w) {
                    self.stamp[w as usize] = self.now;
                    self.dist[w as usize] = nd;
                    self.heap.push(Reverse((Dist(nd), w)));
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minutes_are_whole_steps_of_at_least_one() {
        assert_eq!(travel_minutes(0.0, 0.0), TRAVEL_MINUTES_STEP);
        assert_eq!(travel_minutes(75.0 * 15.0, 0.0), 15);
        assert_eq!(travel_minutes(75.0 * 15.0 + 1.0, 0.0), 30);
        assert_eq!(travel_minutes(0.0, -100.0), 15);
        assert_eq!(travel_minutes(0.0, 600.0), 60);
    }

    #[test]
    fn square_with_diagonal_keeps_the_diagonal_only_if_it_saves_enough() {
        // Unit square 0-1-2-3 plus diagonal 0-2 (length √2 vs path 2).
        let pts = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        let tri = [(0, 1), (1, 2), (2, 3), (0, 3), (0, 2)];
        let run = |t| {
            build_path_network(
                &pts,
                &[0.0; 4],
                &tri,
                PathParams {
                    meters_per_distance_unit: 1000.0,
                    detour_threshold: t,
                },
            )
        };
        // MST: three unit edges; the fourth unit edge closes a 3-edge detour.
        let tight = run(1.2);
        assert_eq!(tight.iter().filter(|e| e.mst).count(), 3);
        assert!(tight.iter().any(|e| (e.a, e.b) == (0, 2)), "{tight:?}");
        let loose = run(3.5);
        assert_eq!(loose.len(), 3, "{loose:?}");
    }
}
