//! The coarse tier T1 (`spec/planet-geology.md` §4): the planet's fields
//! sampled once on its sphere graph and kept as a canonical little-endian
//! blob, keyed by a hash of (generator version, parameters, N).
//!
//! Today T1 holds height, uplift and plate per node (what erosion, rivers
//! and climate will start from). It is a cache: chunks never read it, so
//! deleting a stored blob changes no chunk byte. Rows are computed in
//! parallel as pure gathers (each row has one writer and reads only the
//! parameters) and concatenated in index order: the blob is the same on
//! any number of threads and at every SIMD level (the noise kernels are
//! bit-identical across levels).

use crate::graph::SphereGraph;
use crate::layers::{Layer, NoiseBackend, Noises, Positions};
use crate::{Layers, Planet, PlanetError, PlanetParams};
use mangekyo_core::hash::fnv1a64;
use mangekyo_core::noise::Level;
use rayon::prelude::*;

/// The blob's first bytes.
pub const MAGIC: [u8; 4] = *b"MKT1";
/// The layout version of the blob (bump on any layout change).
pub const LAYOUT: u32 = 1;

/// The coarse fields of one planet on its sphere graph, in node order.
#[derive(Clone, PartialEq)]
pub struct CoarseTier {
    /// Cells along a face edge.
    pub n: u32,
    /// [`CoarseTier::key`] of the parameters it was computed from.
    pub key: u64,
    /// Height in metres above sea level at each node.
    pub height: Vec<f32>,
    /// Tectonic uplift in metres.
    pub uplift: Vec<f32>,
    /// Plate id.
    pub plate: Vec<u16>,
}

impl std::fmt::Debug for CoarseTier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CoarseTier")
            .field("n", &self.n)
            .field("key", &format_args!("{:016x}", self.key))
            .field("nodes", &self.height.len())
            .finish()
    }
}

/// The noise backend at a chosen SIMD level (to show levels agree).
struct AtLevel<'a> {
    noises: &'a Noises,
    level: Level,
}

impl NoiseBackend for AtLevel<'_> {
    fn fill(&self, layer: Layer, octaves: usize, pos: Positions<'_>, out: &mut [f32]) {
        let noise = self.noises.get(layer);
        if octaves >= noise.octave_frequencies().count() {
            noise.fill_points3_with(self.level, pos.x, pos.y, pos.z, out);
        } else {
            noise
                .truncated(octaves)
                .fill_points3_with(self.level, pos.x, pos.y, pos.z, out);
        }
    }
}

impl CoarseTier {
    /// The cache key: version, every parameter's exact bits and N (the
    /// parameters' content hash already covers version and N).
    pub fn key(params: &PlanetParams) -> u64 {
        let mut bytes = Vec::with_capacity(24);
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&LAYOUT.to_le_bytes());
        bytes.extend_from_slice(&params.generator_version.to_le_bytes());
        bytes.extend_from_slice(&params.graph_n.to_le_bytes());
        bytes.extend_from_slice(&params.content_hash().to_le_bytes());
        fnv1a64(&bytes)
    }

    /// Computes the tier of a version-2 planet on the current rayon pool,
    /// with the noise at SIMD `level` (the result does not depend on
    /// either). Use [`Planet::coarse_tier`] for the cached one.
    pub fn compute(planet: &Planet, level: Level) -> CoarseTier {
        CoarseTier::compute_observed(planet, level, &|_| true)
            .unwrap_or_else(|| unreachable!("never cancelled"))
    }

    /// [`CoarseTier::compute`], calling `observe(rows)` as rows of nodes
    /// finish (there are `6 · n` rows; from worker threads, in any order):
    /// when it answers `false` the work stops and `None` comes back. What
    /// it does changes no byte of the tier.
    pub fn compute_observed(
        planet: &Planet,
        level: Level,
        observe: &(dyn Fn(u32) -> bool + Sync),
    ) -> Option<CoarseTier> {
        let params = planet.params();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let n = params
            .graph_n
            .clamp(*crate::GRAPH_N_RANGE.start(), *crate::GRAPH_N_RANGE.end());
        // In range: clamped above (and validated by Planet::new).
        let graph = SphereGraph::new(n, params.seed)
            .unwrap_or_else(|e| unreachable!("graph_n checked: {e}"));
        let backend = AtLevel {
            noises: planet.noise_backend(),
            level,
        };
        // Octaves finer than a cell would only alias.
        let detail = planet.detail(CoarseTier::spacing(params.radius, n));
        let rows: Vec<(Vec<f32>, Vec<f32>, Vec<u16>)> = (0..6 * n)
            .into_par_iter()
            .map(|row| {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    return Default::default();
                }
                let dirs: Vec<_> = (row * n..(row + 1) * n).map(|k| graph.node(k)).collect();
                let mut geo = crate::geology::GeologySamples::default();
                let s = planet.evaluate_full(
                    &backend,
                    level,
                    &detail,
                    &dirs,
                    Layers::HEIGHT,
                    Some(&mut geo),
                );
                if !observe(1) {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                (s.height, geo.uplift, geo.plate)
            })
            .collect();
        if stop.into_inner() {
            return None;
        }
        let count = graph.len();
        let mut tier = CoarseTier {
            n,
            key: CoarseTier::key(params),
            height: Vec::with_capacity(count),
            uplift: Vec::with_capacity(count),
            plate: Vec::with_capacity(count),
        };
        for (h, u, p) in rows {
            tier.height.extend(h);
            tier.uplift.extend(u);
            tier.plate.extend(p);
        }
        Some(tier)
    }

    /// Rows of nodes [`CoarseTier::compute_observed`] reports for a tier
    /// of `n` cells per face edge.
    pub fn rows(n: u32) -> u32 {
        6 * n
    }

    /// Bytes the tier holds in memory (about its blob's size).
    pub fn heap_bytes(&self) -> usize {
        self.height.len() * 4 + self.uplift.len() * 4 + self.plate.len() * 2
    }

    /// The sample spacing of a tier of `n` cells per face edge, metres: a
    /// cell's width at the face centre (octaves finer than it are dropped).
    pub fn spacing(radius: f64, n: u32) -> f64 {
        std::f64::consts::FRAC_PI_2 * radius / f64::from(n)
    }

    /// The heights a tier of `n` cells per face edge holds at `nodes`,
    /// bit for bit as [`CoarseTier::compute`] stores them (each node is a
    /// pure function of its index): for checks that need a few nodes of a
    /// large tier.
    pub fn heights_at(planet: &Planet, n: u32, nodes: &[u32]) -> Result<Vec<f32>, PlanetError> {
        planet.require_plates()?;
        let graph = SphereGraph::new(n, planet.params().seed)?;
        if let Some(&k) = nodes.iter().find(|&&k| k as usize >= graph.len()) {
            return Err(PlanetError::address(
                "node",
                k,
                format!("below {}", graph.len()),
            ));
        }
        let dirs: Vec<_> = nodes.iter().map(|&k| graph.node(k)).collect();
        let detail = planet.detail(CoarseTier::spacing(planet.params().radius, n));
        Ok(planet
            .evaluate_full(
                planet.noise_backend(),
                Level::best(),
                &detail,
                &dirs,
                Layers::HEIGHT,
                None,
            )
            .height)
    }

    /// The sphere graph the fields live on (jitter seeded like the planet).
    pub fn graph(&self, seed: u64) -> Result<SphereGraph, PlanetError> {
        SphereGraph::new(self.n, seed)
    }

    /// The canonical blob: magic, layout, N, key, node count, then the
    /// height, uplift (f32) and plate (u16) arrays, all little-endian, and
    /// last an FNV-1a hash of everything before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let count = self.height.len();
        let mut out = Vec::with_capacity(32 + count * 10);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&LAYOUT.to_le_bytes());
        out.extend_from_slice(&self.n.to_le_bytes());
        out.extend_from_slice(&self.key.to_le_bytes());
        out.extend_from_slice(&(count as u64).to_le_bytes());
        for v in &self.height {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.uplift {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.plate {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let hash = fnv1a64(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// The blob's own hash (its last 8 bytes).
    pub fn hash(&self) -> u64 {
        let b = self.to_bytes();
        let mut last = [0u8; 8];
        last.copy_from_slice(&b[b.len() - 8..]);
        u64::from_le_bytes(last)
    }

    /// Reads a blob back, checking magic, layout, sizes and hash (a
    /// corrupt or foreign blob is refused, never half-read).
    pub fn from_bytes(bytes: &[u8]) -> Result<CoarseTier, PlanetError> {
        let bad = |why: &str| {
            PlanetError::address("blob", why.to_string(), "a coarse-tier blob of this build")
        };
        if bytes.len() < 36 || bytes[..4] != MAGIC {
            return Err(bad("no MKT1 header"));
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let mut h = [0u8; 8];
        h.copy_from_slice(tail);
        if fnv1a64(body) != u64::from_le_bytes(h) {
            return Err(bad("hash mismatch"));
        }
        let u32_at =
            |o: usize| u32::from_le_bytes([body[o], body[o + 1], body[o + 2], body[o + 3]]);
        let u64_at = |o: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&body[o..o + 8]);
            u64::from_le_bytes(b)
        };
        if u32_at(4) != LAYOUT {
            return Err(bad("another layout"));
        }
        let n = u32_at(8);
        let key = u64_at(12);
        let count = u64_at(20) as usize;
        if count != 6 * (n as usize) * (n as usize) || body.len() != 28 + count * 10 {
            return Err(bad("sizes disagree"));
        }
        let f32s = |from: usize| -> Vec<f32> {
            body[from..from + 4 * count]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        let height = f32s(28);
        let uplift = f32s(28 + 4 * count);
        let plate = body[28 + 8 * count..]
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(CoarseTier {
            n,
            key,
            height,
            uplift,
            plate,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blob_is_the_same_on_1_and_2_threads_and_every_simd_level() {
        let planet = Planet::new(PlanetParams {
            graph_n: 24,
            ..PlanetParams::default()
        })
        .unwrap();
        let run = |threads: usize, level: Level| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| CoarseTier::compute(&planet, level))
        };
        let reference = run(1, Level::Scalar);
        let want = reference.hash();
        for level in Level::ALL.into_iter().filter(|l| l.is_supported()) {
            for threads in [1, 2] {
                assert_eq!(
                    run(threads, level).hash(),
                    want,
                    "{level:?} on {threads} threads"
                );
            }
        }
        let bytes = reference.to_bytes();
        assert_eq!(CoarseTier::from_bytes(&bytes).unwrap(), reference);
        let mut broken = bytes.clone();
        broken[40] ^= 1;
        assert!(CoarseTier::from_bytes(&broken).is_err());
        assert_eq!(*planet.coarse_tier().unwrap(), reference);
        let nodes = [0, 17, 3455];
        let sparse = CoarseTier::heights_at(&planet, 24, &nodes).unwrap();
        for (k, h) in nodes.iter().zip(sparse) {
            assert_eq!(h.to_bits(), reference.height[*k as usize].to_bits());
        }
    }
}
