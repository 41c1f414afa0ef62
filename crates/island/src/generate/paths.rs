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
    let mut graph = Graph::new(points.len());
    for c in &mst {
        graph.add(c.a, c.b, c.meters);
    }
    let mut extra = Vec::new();
    for c in rest {
        if !graph.within(c.a, c.b, c.meters * params.detour_threshold) {
            graph.add(c.a, c.b, c.meters);
            extra.push(c);
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
        .map(|c| edge(c, true))
        .chain(extra.iter().map(|c| edge(c, false)))
        .collect();
    edges.sort_by_key(|e| (e.a, e.b));
    edges
}

/// Kruskal over sorted candidates: the tree, and the rest in key order.
fn kruskal(n: usize, sorted: &[Candidate]) -> (Vec<Candidate>, Vec<Candidate>) {
    let mut sets = UnionFind::new(n);
    let (mut tree, mut rest) = (Vec::with_capacity(n.saturating_sub(1)), Vec::new());
    for &c in sorted {
        if sets.union(c.a, c.b) {
            tree.push(c)
        } else {
            rest.push(c)
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

/// The growing network, with Dijkstra buffers reused across queries: a
/// query resets only what it touched (by a stamp), so m bounded queries
/// cost the nodes they reach, not m × n.
struct Graph {
    adj: Vec<Vec<(u32, f64)>>,
    dist: Vec<f64>,
    stamp: Vec<u32>,
    now: u32,
    heap: BinaryHeap<Reverse<(Dist, u32)>>,
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
    fn new(n: usize) -> Self {
        Graph {
            adj: vec![Vec::new(); n],
            dist: vec![0.0; n],
            stamp: vec![0; n],
            now: 0,
            heap: BinaryHeap::new(),
        }
    }

    fn add(&mut self, a: u32, b: u32, w: f64) {
        self.adj[a as usize].push((b, w));
        self.adj[b as usize].push((a, w));
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
        self.heap.clear();
        self.stamp[from as usize] = self.now;
        self.dist[from as usize] = 0.0;
        self.heap.push(Reverse((Dist(0.0), from)));
        while let Some(Reverse((Dist(d), v))) = self.heap.pop() {
            if v == to {
                return true;
            }
            if d > self.tentative(v) {
                continue;
            }
            for i in 0..self.adj[v as usize].len() {
                let (w, len) = self.adj[v as usize][i];
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
