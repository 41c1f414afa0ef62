//! The climate on the coarse tier: a climate graph of at most
//! [`MAX_CLIMATE_N`] cells per face edge (about 70 km on Earth, plenty for
//! wind and rain, and ten times cheaper than the 10⁶-node graph) holding
//! sea-level temperature and the logarithm of precipitation at each node.
//! Chunks interpolate both (C1) and add what is finer: the lapse rate over
//! their own heights and the noise anomalies.

use super::Atmosphere;
use super::moisture::{self, Ground};
use crate::geo::Dir;
use crate::graph::{Ghosts, SphereGraph};
use crate::{MapPoint, Projection};
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, OnceLock};

/// Most cells along a face edge of the climate graph.
pub const MAX_CLIMATE_N: u32 = 128;
/// Distance over which the sea's influence fades inland, metres:
/// continentality is `1 − exp(−distance / this)`.
pub const CONTINENTALITY_M: f64 = 1.0e6;

/// The cells per face edge of the climate graph of a tier of `n`.
pub fn climate_n(n: u32) -> u32 {
    n.min(MAX_CLIMATE_N)
}

/// Sea-level temperature and log precipitation on the climate graph.
#[derive(Clone, Debug)]
pub struct ClimateGrid {
    /// Cells along a face edge.
    pub n: u32,
    /// Sea-level mean annual temperature, °C (continentality included).
    pub sea_temperature: Vec<f32>,
    /// Natural logarithm of the mean annual precipitation in mm/yr.
    pub ln_precipitation: Vec<f32>,
    /// The ghost table of the graph (built on first use; not stored).
    ghosts: Arc<OnceLock<Ghosts>>,
}

impl PartialEq for ClimateGrid {
    fn eq(&self, o: &Self) -> bool {
        self.n == o.n
            && self.sea_temperature == o.sea_temperature
            && self.ln_precipitation == o.ln_precipitation
    }
}

/// The ground the air passes over: the climate graph's nearest node.
struct Nodes<'a> {
    graph: &'a SphereGraph,
    height: &'a [f64],
    sea_temperature: &'a [f64],
}

impl Ground for Nodes<'_> {
    fn at(&self, d: Dir) -> (f64, f64) {
        let k = self.graph.locate(d) as usize;
        (self.height[k], self.sea_temperature[k])
    }
}

impl ClimateGrid {
    /// Builds the grid from ground heights on the tier's `main` graph
    /// (metres, negative at sea): each climate node reads the main node
    /// whose cell holds it.
    pub(crate) fn compute(
        atm: &Atmosphere,
        main: &SphereGraph,
        heights: &[f64],
        seed: u64,
        radius: f64,
    ) -> ClimateGrid {
        let n = climate_n(main.n());
        // In range: n comes from a valid graph, clamped to 128.
        let graph = SphereGraph::new(n, seed).unwrap_or_else(|e| unreachable!("{e}"));
        let dirs: Vec<Dir> = (0..graph.len() as u32).map(|k| graph.node(k)).collect();
        let height: Vec<f64> = dirs
            .par_iter()
            .map(|&d| heights[main.locate(d) as usize])
            .collect();
        let distance = coast_distance(&graph, &dirs, &height, radius);
        let sea_temperature: Vec<f64> = dirs
            .iter()
            .zip(&distance)
            .map(|(&d, &m)| {
                let c = 1.0 - libm::exp(-m / CONTINENTALITY_M);
                atm.sea_level_temperature(d, c)
            })
            .collect();
        let ground = Nodes {
            graph: &graph,
            height: &height,
            sea_temperature: &sea_temperature,
        };
        let ln_precipitation: Vec<f32> = dirs
            .par_iter()
            .map(|&d| libm::log(moisture::precipitation(atm, &ground, d)) as f32)
            .collect();
        ClimateGrid {
            n,
            sea_temperature: sea_temperature.iter().map(|&t| t as f32).collect(),
            ln_precipitation,
            ghosts: Arc::default(),
        }
    }

    /// A grid read back from a blob.
    pub(crate) fn from_parts(
        n: u32,
        sea_temperature: Vec<f32>,
        ln_precipitation: Vec<f32>,
    ) -> Self {
        ClimateGrid {
            n,
            sea_temperature,
            ln_precipitation,
            ghosts: Arc::default(),
        }
    }

    /// The climate graph (jittered like the tier's).
    pub fn graph(&self, seed: u64) -> SphereGraph {
        // In range: n was checked when the grid was made or read.
        SphereGraph::new(self.n, seed).unwrap_or_else(|e| unreachable!("{e}"))
    }

    /// Sea-level temperature (°C) and log precipitation at `d`.
    pub(crate) fn at(&self, graph: &SphereGraph, d: Dir) -> (f64, f64) {
        self.at_projected(graph, d, Projection::TangentCube.forward(d))
    }

    /// [`ClimateGrid::at`] with `d`'s tangent-cube point `at` from the
    /// caller.
    pub(crate) fn at_projected(&self, graph: &SphereGraph, d: Dir, at: MapPoint) -> (f64, f64) {
        let ghosts = self.ghosts.get_or_init(|| Ghosts::new(graph));
        let (t, p) = (&self.sea_temperature, &self.ln_precipitation);
        let (_, [a, b]) = graph.locate_and_interpolate_n_at(
            Some(ghosts),
            &mut |k| [f64::from(t[k as usize]), f64::from(p[k as usize])],
            d,
            at,
        );
        (a, b)
    }

    /// Sea-level temperature (°C) at the directions `dirs` (the water
    /// balance's evaporation).
    pub(crate) fn sea_temperature_c(&self, graph: &SphereGraph, dirs: &[Dir]) -> Vec<f64> {
        dirs.par_iter().map(|&d| self.at(graph, d).0).collect()
    }

    /// Precipitation in metres per year at the directions `dirs` (the
    /// erosion's rain).
    pub(crate) fn precipitation_m(&self, graph: &SphereGraph, dirs: &[Dir]) -> Vec<f64> {
        dirs.par_iter()
            .map(|&d| libm::exp(self.at(graph, d).1) / 1000.0)
            .collect()
    }
}

/// Distance from each node to the nearest sea node along the graph,
/// metres (0 at sea): a multi-source Dijkstra keyed (distance bits, node),
/// a total order, so ties never depend on the heap.
fn coast_distance(graph: &SphereGraph, dirs: &[Dir], height: &[f64], radius: f64) -> Vec<f64> {
    let mut dist = vec![f64::INFINITY; dirs.len()];
    let mut heap = BinaryHeap::new();
    for (k, &h) in height.iter().enumerate() {
        if h < 0.0 {
            dist[k] = 0.0;
            heap.push(Reverse((0u64, k as u32)));
        }
    }
    while let Some(Reverse((bits, k))) = heap.pop() {
        let d = f64::from_bits(bits);
        if d > dist[k as usize] {
            continue;
        }
        let a = dirs[k as usize];
        for m in graph.neighbours(k) {
            let b = dirs[m as usize];
            let (x, y, z) = (a[0] - b[0], a[1] - b[1], a[2] - b[2]);
            let chord = (x * x + y * y + z * z).sqrt();
            let nd = d + chord * radius;
            if nd < dist[m as usize] {
                dist[m as usize] = nd;
                heap.push(Reverse((nd.to_bits(), m)));
            }
        }
    }
    // A planet without sea is continental everywhere.
    for d in &mut dist {
        if d.is_infinite() {
            *d = f64::MAX;
        }
    }
    dist
}
