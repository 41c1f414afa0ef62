//! The planet: its parameters with the stages of its version built
//! (`stages/`), the coarse tier computed on first use, and the sampling of
//! chunks and arbitrary directions.

use crate::atmosphere::Atmosphere;
use crate::chunk::{Chunk, ChunkRequest, Layers};
use crate::geo::Dir;
use crate::geology::{GeologySamples, Plates};
use crate::graph::SphereGraph;
use crate::layers::{Detail, Layer, NoiseBackend, Noises};
use crate::space::PlanetSpace;
use crate::stages::{Samples, Stages, TierReader};
use crate::tier::CoarseTier;
use crate::version::Version;
use crate::{PlanetError, PlanetParams};
use mangekyo_core::noise::{Level, Noise};
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};

/// A planet, ready to sample. Built once from its parameters (which it
/// validates); cheap to share between threads (`Send + Sync`) and to
/// clone (the stages are shared).
#[derive(Clone, Debug)]
pub struct Planet {
    space: PlanetSpace,
    /// Behind an `Arc` so [`Planet::with_tier`] costs a few pointer copies.
    stages: Arc<Stages>,
    /// The coarse tier (versions with plates), computed on first use and
    /// shared by clones (a cache: it changes no sample).
    tier: Arc<OnceLock<Arc<CoarseTier>>>,
}

impl Planet {
    /// Validates `params` and builds the stages of its version.
    pub fn new(params: PlanetParams) -> Result<Planet, PlanetError> {
        params.validate()?;
        let space = PlanetSpace::new(&params);
        let stages = Stages::new(params, space.metres_per_sample(0));
        Ok(Planet {
            space,
            stages: Arc::new(stages),
            tier: Arc::new(OnceLock::new()),
        })
    }

    /// This planet sampling with `tier`, a coarse tier computed elsewhere
    /// (the same value [`Planet::coarse_tier`] would compute), without
    /// giving it to `self`: the stages are shared, the tier is the
    /// returned planet's alone. A server keeps one planet per parameters
    /// and its tiers in a cache of their own; a planet holding its tier
    /// would keep every tier the cache evicts alive. A tier of other
    /// parameters is refused by name.
    pub fn with_tier(&self, tier: Arc<CoarseTier>) -> Result<Planet, PlanetError> {
        self.check_tier(&tier)?;
        Ok(Planet {
            space: self.space,
            stages: Arc::clone(&self.stages),
            tier: Arc::new(OnceLock::from(tier)),
        })
    }

    /// Refuses a tier of other parameters (or a version without one).
    fn check_tier(&self, tier: &CoarseTier) -> Result<(), PlanetError> {
        self.require_plates()?;
        let want = CoarseTier::key(self.params());
        if tier.key != want {
            return Err(PlanetError::address(
                "tier",
                format!("{:016x}", tier.key),
                format!("the coarse tier of these parameters ({want:016x})"),
            ));
        }
        Ok(())
    }

    /// The circulation (winds and insolation) of a version with the
    /// circulation climate; `None` before.
    pub fn atmosphere(&self) -> Option<&Atmosphere> {
        self.stages.circulation.as_ref().map(|a| &a.0)
    }

    /// The generator version it samples (its parameters').
    pub fn version(&self) -> Version {
        self.stages.version()
    }

    /// The plate layout (versions with plates; `None` for version 1).
    pub fn plates(&self) -> Option<&Plates> {
        self.stages.plates.as_ref()
    }

    /// The coarse tier T1 (versions with plates): computed on first use,
    /// once per planet value and its clones, on the current rayon pool.
    /// Version 1 has none and refuses by naming `generator_version`.
    pub fn coarse_tier(&self) -> Result<Arc<CoarseTier>, PlanetError> {
        self.require_plates()?;
        Ok(Arc::clone(self.tier.get_or_init(|| {
            Arc::new(
                CoarseTier::compute_observed(&self.stages, Level::best(), &|_| true)
                    .unwrap_or_else(|| unreachable!("never cancelled")),
            )
        })))
    }

    /// Computes the coarse tier afresh with the noise at SIMD `level` on
    /// the current rayon pool (the result depends on neither); use
    /// [`Planet::coarse_tier`] for the cached one. Version 1 has no tier
    /// and refuses by naming `generator_version`.
    pub fn compute_tier(&self, level: Level) -> Result<CoarseTier, PlanetError> {
        self.compute_tier_observed(level, &|_| true)
            .map(|t| t.unwrap_or_else(|| unreachable!("never cancelled")))
    }

    /// [`Planet::compute_tier`], calling `observe(rows)` as rows of nodes
    /// finish (they add up to [`crate::version::TierLayout::rows`] of its
    /// version; from worker threads, in any order): when it answers
    /// `false` the work stops and `Ok(None)` comes back. What it does
    /// changes no byte of the tier.
    pub fn compute_tier_observed(
        &self,
        level: Level,
        observe: &(dyn Fn(u32) -> bool + Sync),
    ) -> Result<Option<CoarseTier>, PlanetError> {
        self.require_plates()?;
        Ok(CoarseTier::compute_observed(&self.stages, level, observe))
    }

    /// Gives the planet its coarse tier, computed elsewhere (a server's
    /// cache or store): the same value [`Planet::coarse_tier`] would
    /// compute. A tier of other parameters is refused by name; a planet
    /// that already has one keeps it. It lives as long as the planet and
    /// its clones: see [`Planet::with_tier`] for a tier per use.
    pub fn install_tier(&self, tier: Arc<CoarseTier>) -> Result<(), PlanetError> {
        self.check_tier(&tier)?;
        let _ = self.tier.set(tier);
        Ok(())
    }

    /// Whether the coarse tier is at hand (installed or computed).
    pub fn has_tier(&self) -> bool {
        self.tier.get().is_some()
    }

    /// Whether samples read the coarse tier (versions with water), so a
    /// service computes it before serving chunks.
    pub fn samples_need_tier(&self) -> bool {
        self.version().samples_read_tier()
    }

    /// The tier samples read, when they read one (computed on first use).
    pub(crate) fn water_tier(&self) -> Result<Option<Arc<CoarseTier>>, PlanetError> {
        if self.samples_need_tier() {
            Ok(Some(self.coarse_tier()?))
        } else {
            Ok(None)
        }
    }

    /// What samples read of `tier`.
    pub(crate) fn tier_reader<'a>(
        &self,
        tier: &'a Option<Arc<CoarseTier>>,
    ) -> Option<TierReader<'a>> {
        let p = self.params();
        let pipeline = self.version().pipeline();
        tier.as_deref()
            .and_then(|t| t.reader(p.seed, p.radius, pipeline.channels, pipeline.streams))
    }

    pub(crate) fn require_plates(&self) -> Result<&Plates, PlanetError> {
        self.stages.require_plates()
    }

    /// The `plate` (id) and `uplift` (metres) layers of one chunk, on the
    /// same samples as [`Planet::sample_chunk`] (versions with plates; the
    /// same as asking it for [`Layers::GEOLOGY`]).
    pub fn sample_chunk_geology(&self, req: &ChunkRequest) -> Result<GeologySamples, PlanetError> {
        self.require_plates()?;
        let chunk = self.sample_chunk(&ChunkRequest {
            layers: Layers::GEOLOGY,
            ..*req
        })?;
        Ok(GeologySamples {
            plate: chunk.plate,
            uplift: chunk.uplift,
        })
    }

    /// The `plate` and `uplift` layers at arbitrary unit directions
    /// (versions with plates), at a sample spacing of `spacing` metres.
    pub fn sample_geology(
        &self,
        dirs: &[Dir],
        spacing: f64,
    ) -> Result<GeologySamples, PlanetError> {
        self.require_plates()?;
        check_dirs(dirs, spacing)?;
        let mut geo = GeologySamples::default();
        self.stages.evaluate(
            &self.stages.noises,
            Level::best(),
            &self.detail(spacing),
            dirs,
            Layers::HEIGHT,
            Some(&mut geo),
            None,
        );
        Ok(geo)
    }

    /// The parameters it was built from.
    pub fn params(&self) -> &PlanetParams {
        &self.stages.params
    }

    /// Its sample grids.
    pub fn space(&self) -> &PlanetSpace {
        &self.space
    }

    /// The noise of one layer (its octave plan), for documentation and
    /// for benchmarks that rebuild the planet function on another library.
    pub fn layer_noise(&self, layer: Layer) -> &Noise {
        self.stages.noises.get(layer)
    }

    /// The planet's own noise backend.
    pub(crate) fn noise_backend(&self) -> &Noises {
        &self.stages.noises
    }

    /// The octaves kept at a sample spacing of `spacing` metres.
    pub fn detail(&self, spacing: f64) -> Detail {
        self.stages.detail(spacing)
    }

    /// The octaves kept at level of detail `lod`.
    pub fn detail_at_lod(&self, lod: u32) -> Detail {
        self.detail(self.space.metres_per_sample(lod))
    }

    /// Refuses layers its version does not have.
    fn check_layers(&self, layers: Layers) -> Result<(), PlanetError> {
        let version = self.version();
        version.layers().check_has(layers, version)
    }

    /// Samples one chunk.
    pub fn sample_chunk(&self, req: &ChunkRequest) -> Result<Chunk, PlanetError> {
        self.sample_chunk_with(&self.stages.noises, req)
    }

    /// Samples one chunk with another noise backend (benchmarks).
    pub fn sample_chunk_with(
        &self,
        backend: &dyn NoiseBackend,
        req: &ChunkRequest,
    ) -> Result<Chunk, PlanetError> {
        self.space.check(&req.address)?;
        if req.layers.is_empty() {
            return Err(PlanetError::address("layers", "none", "at least one layer"));
        }
        self.check_layers(req.layers)?;
        let size = req.edge.size();
        let dirs = self.space.directions_unchecked(&req.address, size);
        let detail = self.detail_at_lod(req.address.lod);
        let mut geo = GeologySamples::default();
        let tier = self.water_tier()?;
        let s = self.stages.evaluate(
            backend,
            Level::best(),
            &detail,
            &dirs,
            req.layers,
            req.layers.has_geology().then_some(&mut geo),
            self.tier_reader(&tier).as_ref(),
        );
        Ok(Chunk {
            address: req.address,
            face: self.space.face_of(&req.address).0,
            edge: req.edge,
            size,
            metres_per_sample: self.space.metres_per_sample(req.address.lod),
            height: s.height,
            temperature: s.temperature,
            humidity: s.humidity,
            biome: s.biome,
            uplift: if req.layers.uplift {
                geo.uplift
            } else {
                Vec::new()
            },
            plate: if req.layers.plate {
                geo.plate
            } else {
                Vec::new()
            },
            water: s.water,
            flow: s.flow,
            precipitation: s.precipitation,
            biome_weights: s.biome_weights,
            generator_version: self.version(),
        })
    }

    /// Samples many chunks in parallel (rayon), each exactly as
    /// [`Planet::sample_chunk`] would alone; results are in request order.
    pub fn sample_chunks(&self, reqs: &[ChunkRequest]) -> Vec<Result<Chunk, PlanetError>> {
        reqs.par_iter().map(|r| self.sample_chunk(r)).collect()
    }

    /// Samples arbitrary directions (unit vectors) at a sample spacing of
    /// `spacing` metres (which decides the octaves kept).
    pub fn sample_dirs(
        &self,
        dirs: &[Dir],
        spacing: f64,
        layers: Layers,
    ) -> Result<Samples, PlanetError> {
        check_dirs(dirs, spacing)?;
        self.check_layers(layers)?;
        self.evaluate(&self.stages.noises, &self.detail(spacing), dirs, layers)
    }

    /// Samples the directions of a tile whose samples are `spacing` metres
    /// apart: octaves finer than that are dropped, never finer than the
    /// planet's pixel size. Tiles of every scheme (web, pyramid, terrain)
    /// sample through here.
    pub(crate) fn sample_tile_dirs(
        &self,
        dirs: &[Dir],
        spacing: f64,
        layers: Layers,
    ) -> Result<Samples, PlanetError> {
        self.sample_tile_dirs_until(dirs, spacing, layers, &|| true)
    }

    /// [`Planet::sample_tile_dirs`], asking `keep_going` before each block
    /// of samples: [`PlanetError::Cancelled`] once it answers `false`.
    pub(crate) fn sample_tile_dirs_until(
        &self,
        dirs: &[Dir],
        spacing: f64,
        layers: Layers,
        keep_going: &dyn Fn() -> bool,
    ) -> Result<Samples, PlanetError> {
        if layers.is_empty() {
            return Err(PlanetError::address("layers", "none", "at least one layer"));
        }
        self.check_layers(layers)?;
        let spacing = spacing.max(self.space.metres_per_sample(0));
        let tier = self.water_tier()?;
        self.stages
            .evaluate_until(
                &self.stages.noises,
                Level::best(),
                &self.detail(spacing),
                dirs,
                layers,
                None,
                self.tier_reader(&tier).as_ref(),
                keep_going,
            )
            .ok_or(PlanetError::Cancelled)
    }

    /// The planet function at `dirs`, block by block (reading the coarse
    /// tier where samples do, computed on first use).
    pub(crate) fn evaluate(
        &self,
        backend: &dyn NoiseBackend,
        detail: &Detail,
        dirs: &[Dir],
        layers: Layers,
    ) -> Result<Samples, PlanetError> {
        let tier = self.water_tier()?;
        Ok(self.stages.evaluate(
            backend,
            Level::best(),
            detail,
            dirs,
            layers,
            None,
            self.tier_reader(&tier).as_ref(),
        ))
    }

    /// The stages, for the samplers of this crate that read the tier
    /// themselves (previews).
    pub(crate) fn stages(&self) -> &Stages {
        &self.stages
    }
}

impl CoarseTier {
    /// The heights a tier of `n` cells per face edge holds at `nodes`,
    /// bit for bit as [`Planet::compute_tier`] stores them (each node is a
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
            .stages
            .evaluate(
                planet.noise_backend(),
                Level::best(),
                &detail,
                &dirs,
                Layers::HEIGHT,
                None,
                None,
            )
            .height)
    }
}

/// Checks a sample spacing and that every direction is a unit vector.
fn check_dirs(dirs: &[Dir], spacing: f64) -> Result<(), PlanetError> {
    if !(spacing.is_finite() && spacing > 0.0) {
        return Err(PlanetError::address(
            "spacing",
            spacing,
            "a finite number of metres > 0",
        ));
    }
    for (k, d) in dirs.iter().enumerate() {
        let n2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (n2 - 1.0).abs() >= 1e-9 || n2.is_nan() {
            return Err(PlanetError::address(
                "direction",
                format!("#{k} {d:?}"),
                "a unit vector",
            ));
        }
    }
    Ok(())
}
