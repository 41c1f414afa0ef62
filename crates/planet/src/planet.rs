//! The planet: validated parameters with their built noise layers, and the
//! sampling of chunks and arbitrary directions.

use crate::atmosphere::fields::ClimateGrid;
use crate::atmosphere::{Atmosphere, pet};
use crate::biome::{Biome, BiomeWeights};
use crate::chunk::{Chunk, ChunkRequest, Layers};
use crate::climate::{Climate, LAPSE_RATE_C_PER_M, TEMPERATURE_NOISE_C, ocean_nearness};
use crate::ecology::{self, BiomeTables, ClassEdges, Site};
use crate::geo::Dir;
use crate::geology::{self, GeologySamples, Plates};
use crate::graph::SphereGraph;
use crate::hydro::carve::{Carved, RiverField};
use crate::layers::{Detail, Layer, NoiseBackend, Noises, Positions};
use crate::space::PlanetSpace;
use crate::terrain::{self, BLOCK, Scratch, Shape};
use crate::tier::{CoarseTier, HydroFields};
use crate::{PlanetError, PlanetParams};
use mangekyo_core::noise::{Level, Noise};
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};

mod climate_v4;

use climate_v4::ClimateView;

/// A planet, ready to sample. Built once from its parameters (which it
/// validates); cheap to share between threads (`Send + Sync`).
#[derive(Clone, Debug)]
pub struct Planet {
    params: PlanetParams,
    space: PlanetSpace,
    noises: Noises,
    shape: Shape,
    climate: Climate,
    /// Version 4: the climate's circulation and the biome class edges.
    atmosphere: Option<(Atmosphere, ClassEdges)>,
    /// Version 2 only: the plate layout.
    plates: Option<Plates>,
    /// Version 2 only: the coarse tier, computed on first use and shared
    /// by clones (a cache: it changes no sample).
    tier: Arc<OnceLock<Arc<CoarseTier>>>,
}

/// Samples at arbitrary directions, one entry per direction in each
/// requested layer (empty when not requested).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    /// Metres above sea level.
    pub height: Vec<f32>,
    /// Mean annual temperature, °C.
    pub temperature: Vec<f32>,
    /// Humidity, 0..=1.
    pub humidity: Vec<f32>,
    /// Biomes.
    pub biome: Vec<Biome>,
    /// Water over the ground, metres (version 3).
    pub water: Vec<f32>,
    /// River discharge, m³/s (version 3).
    pub flow: Vec<f32>,
    /// Precipitation, mm/yr (version 4).
    pub precipitation: Vec<f32>,
    /// The two strongest biomes and their weights (version 4).
    pub biome_weights: Vec<BiomeWeights>,
}

/// What version-3 samples read from the coarse tier: the erosion's change
/// of height (interpolated C1 from the nodes) and the rivers and lakes;
/// from version 4 also the climate.
pub(crate) struct WaterView<'a> {
    graph: SphereGraph,
    tier: &'a CoarseTier,
    hydro: &'a HydroFields,
    field: &'a RiverField,
    climate: Option<ClimateView<'a>>,
}

impl<'a> WaterView<'a> {
    pub(crate) fn new(tier: &'a CoarseTier, seed: u64, radius: f64) -> Option<WaterView<'a>> {
        let hydro = tier.hydro.as_ref()?;
        let graph = SphereGraph::new(tier.n, seed).ok()?;
        Some(WaterView {
            graph,
            tier,
            hydro,
            field: hydro.field(&graph, radius),
            climate: tier.climate.as_ref().map(|c| ClimateView {
                graph: c.grid.graph(seed),
                grid: &c.grid,
                wetland: &c.wetland,
                tables: &c.tables,
            }),
        })
    }

    /// Erosion and carving at direction `d` over tectonic height `h`, and
    /// (version 4) the wetland weight there.
    pub(crate) fn apply(&self, d: Dir, h: f64) -> (Carved, f64) {
        let (eroded, height) = (&self.hydro.eroded, &self.tier.height);
        let delta = |k: u32| f64::from(eroded[k as usize]) - f64::from(height[k as usize]);
        let (cell, delta, wet) = match &self.climate {
            None => {
                let (cell, v) = self.graph.locate_and_interpolate(
                    Some(self.field.ghosts()),
                    &mut |k| delta(k),
                    d,
                );
                (cell, v, 0.0)
            }
            Some(c) => {
                let (cell, [v, w]) = self.graph.locate_and_interpolate_n(
                    Some(self.field.ghosts()),
                    &mut |k| [delta(k), f64::from(c.wetland[k as usize]) / 255.0],
                    d,
                );
                (cell, v, w.clamp(0.0, 1.0))
            }
        };
        (self.field.carve(d, cell, h + delta), wet)
    }
}

/// Per-block working memory.
#[derive(Debug, Default)]
struct Work {
    pos: [Vec<f64>; 3],
    terrain: Scratch,
    height: Vec<f32>,
    temperature: Vec<f32>,
    humidity: Vec<f32>,
    noise: Vec<f32>,
    water: Vec<f32>,
    flow: Vec<f32>,
    geology: GeologySamples,
    /// Version 4, per sample: the carving's bank distance and river width,
    /// and the wetland weight.
    banks: Vec<(f64, f64, f64)>,
}

impl Planet {
    /// Validates `params` and builds the planet's noise layers and sea level.
    pub fn new(params: PlanetParams) -> Result<Planet, PlanetError> {
        params.validate()?;
        let space = PlanetSpace::new(&params);
        let noises = Noises::new(params.seed, params.radius, space.metres_per_sample(0));
        let shape = Shape {
            threshold: terrain::sea_threshold(&noises, params.radius, params.sea_level),
            plate_activity: params.plate_activity as f32,
        };
        let climate = Climate::new(
            params.axial_tilt,
            params.solar_intensity,
            params.humidity_global,
        );
        let atmosphere = (params.generator_version >= 4).then(|| {
            (
                Atmosphere::new(
                    params.axial_tilt,
                    params.solar_intensity,
                    params.humidity_global,
                ),
                ClassEdges::new(params.humidity_global),
            )
        });
        let plates = (params.generator_version >= 2).then(|| {
            Plates::new(
                params.seed,
                params.radius,
                geology::plate_count(params.seed, params.plate_count),
            )
        });
        Ok(Planet {
            params,
            space,
            noises,
            shape,
            climate,
            atmosphere,
            plates,
            tier: Arc::new(OnceLock::new()),
        })
    }

    /// Version 4's circulation (winds and insolation); `None` before.
    pub fn atmosphere(&self) -> Option<&Atmosphere> {
        self.atmosphere.as_ref().map(|a| &a.0)
    }

    /// The generator version it samples (its parameters').
    pub fn generator_version(&self) -> u32 {
        self.params.generator_version
    }

    /// The plate layout (version 2 and later; `None` for version 1).
    pub fn plates(&self) -> Option<&Plates> {
        self.plates.as_ref()
    }

    /// The coarse tier T1 (version 2): computed on first use, once per
    /// planet value and its clones, on the current rayon pool. Version 1
    /// has none and refuses by naming `generator_version`.
    pub fn coarse_tier(&self) -> Result<Arc<CoarseTier>, PlanetError> {
        self.require_plates()?;
        Ok(Arc::clone(self.tier.get_or_init(|| {
            Arc::new(CoarseTier::compute(self, Level::best()))
        })))
    }

    /// Gives the planet its coarse tier, computed elsewhere (a server's
    /// cache or store): the same value [`Planet::coarse_tier`] would
    /// compute. A tier of other parameters is refused by name; a planet
    /// that already has one keeps it.
    pub fn install_tier(&self, tier: Arc<CoarseTier>) -> Result<(), PlanetError> {
        self.require_plates()?;
        let want = CoarseTier::key(&self.params);
        if tier.key != want {
            return Err(PlanetError::address(
                "tier",
                format!("{:016x}", tier.key),
                format!("the coarse tier of these parameters ({want:016x})"),
            ));
        }
        let _ = self.tier.set(tier);
        Ok(())
    }

    /// Whether the coarse tier is at hand (installed or computed).
    pub fn has_tier(&self) -> bool {
        self.tier.get().is_some()
    }

    /// Whether samples read the coarse tier (version 3 and later: the
    /// water), so a service computes it before serving chunks.
    pub fn samples_need_tier(&self) -> bool {
        self.params.generator_version >= 3
    }

    /// The tier samples read, when they read one (computed on first use).
    pub(crate) fn water_tier(&self) -> Result<Option<Arc<CoarseTier>>, PlanetError> {
        if self.samples_need_tier() {
            Ok(Some(self.coarse_tier()?))
        } else {
            Ok(None)
        }
    }

    pub(crate) fn water_view<'a>(
        &self,
        tier: &'a Option<Arc<CoarseTier>>,
    ) -> Option<WaterView<'a>> {
        tier.as_deref()
            .and_then(|t| WaterView::new(t, self.params.seed, self.params.radius))
    }

    pub(crate) fn require_plates(&self) -> Result<&Plates, PlanetError> {
        self.plates.as_ref().ok_or_else(|| {
            PlanetError::param(
                "generator_version",
                self.params.generator_version,
                "2 or later (plates exist from version 2)",
            )
        })
    }

    /// The `plate` (id) and `uplift` (metres) layers of one chunk, on the
    /// same samples as [`Planet::sample_chunk`] (version 2; the same as
    /// asking it for [`Layers::GEOLOGY`]).
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
    /// (version 2), at a sample spacing of `spacing` metres.
    pub fn sample_geology(
        &self,
        dirs: &[Dir],
        spacing: f64,
    ) -> Result<GeologySamples, PlanetError> {
        self.require_plates()?;
        check_dirs(dirs, spacing)?;
        let mut geo = GeologySamples::default();
        self.evaluate_full(
            &self.noises,
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
        &self.params
    }

    /// Its sample grids.
    pub fn space(&self) -> &PlanetSpace {
        &self.space
    }

    /// The noise of one layer (its octave plan), for documentation and
    /// for benchmarks that rebuild the planet function on another library.
    pub fn layer_noise(&self, layer: Layer) -> &Noise {
        self.noises.get(layer)
    }

    /// The planet's own noise backend.
    pub(crate) fn noise_backend(&self) -> &Noises {
        &self.noises
    }

    /// The octaves kept at a sample spacing of `spacing` metres.
    pub fn detail(&self, spacing: f64) -> Detail {
        Detail::for_spacing(&self.noises, spacing)
    }

    /// The octaves kept at level of detail `lod`.
    pub fn detail_at_lod(&self, lod: u32) -> Detail {
        self.detail(self.space.metres_per_sample(lod))
    }

    /// Samples one chunk.
    pub fn sample_chunk(&self, req: &ChunkRequest) -> Result<Chunk, PlanetError> {
        self.sample_chunk_with(&self.noises, req)
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
        let version = self.params.generator_version;
        Layers::all(version).check_has(req.layers, version)?;
        let size = req.edge.size();
        let dirs = self.space.directions_unchecked(&req.address, size);
        let detail = self.detail_at_lod(req.address.lod);
        let mut geo = GeologySamples::default();
        let tier = self.water_tier()?;
        let s = self.evaluate_full(
            backend,
            Level::best(),
            &detail,
            &dirs,
            req.layers,
            req.layers.has_geology().then_some(&mut geo),
            self.water_view(&tier).as_ref(),
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
            generator_version: version,
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
        let version = self.params.generator_version;
        Layers::all(version).check_has(layers, version)?;
        self.evaluate(&self.noises, &self.detail(spacing), dirs, layers)
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
        if layers.is_empty() {
            return Err(PlanetError::address("layers", "none", "at least one layer"));
        }
        let version = self.params.generator_version;
        Layers::all(version).check_has(layers, version)?;
        let spacing = spacing.max(self.space.metres_per_sample(0));
        self.evaluate(&self.noises, &self.detail(spacing), dirs, layers)
    }

    /// The planet function at `dirs`, block by block (reading the coarse
    /// tier from version 3, computed on first use).
    pub(crate) fn evaluate(
        &self,
        backend: &dyn NoiseBackend,
        detail: &Detail,
        dirs: &[Dir],
        layers: Layers,
    ) -> Result<Samples, PlanetError> {
        let tier = self.water_tier()?;
        Ok(self.evaluate_full(
            backend,
            Level::best(),
            detail,
            dirs,
            layers,
            None,
            self.water_view(&tier).as_ref(),
        ))
    }

    /// [`Planet::evaluate`] with the plate warp's SIMD level chosen and,
    /// for version 2, the `plate` and `uplift` layers collected; with
    /// `water`, version 3's erosion and rivers applied to the heights.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn evaluate_full(
        &self,
        backend: &dyn NoiseBackend,
        level: Level,
        detail: &Detail,
        dirs: &[Dir],
        layers: Layers,
        mut geo: Option<&mut GeologySamples>,
        water: Option<&WaterView<'_>>,
    ) -> Samples {
        let mut out = Samples::default();
        let mut work = Work::default();
        for block in dirs.chunks(BLOCK) {
            self.evaluate_block(
                backend, level, detail, block, layers, water, &mut work, &mut out,
            );
            if let Some(g) = geo.as_deref_mut() {
                g.plate.extend_from_slice(&work.geology.plate);
                g.uplift.extend_from_slice(&work.geology.uplift);
            }
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn evaluate_block(
        &self,
        backend: &dyn NoiseBackend,
        level: Level,
        detail: &Detail,
        dirs: &[Dir],
        layers: Layers,
        water_view: Option<&WaterView<'_>>,
        w: &mut Work,
        out: &mut Samples,
    ) {
        let n = dirs.len();
        let r = self.params.radius;
        let Work {
            pos: buf,
            terrain: scratch,
            height,
            temperature,
            humidity,
            noise,
            water,
            flow,
            geology: geo,
            banks,
        } = w;
        for (axis, p) in buf.iter_mut().enumerate() {
            p.clear();
            p.extend(dirs.iter().map(|d| d[axis] * r));
        }
        let [x, y, z] = &*buf;
        let pos = Positions { x, y, z };
        // Version 4 reads its whole climate off the tier: every climate
        // layer needs the carved ground and the temperature.
        let climate_view = water_view.and_then(|v| v.climate.as_ref());
        let v4 = climate_view.is_some() && layers.has_climate();
        let need_height = layers.height
            || layers.temperature
            || layers.biome
            || layers.has_geology()
            || layers.has_water()
            || v4;
        let carve = water_view.filter(|_| {
            layers.height || layers.temperature || layers.biome || layers.has_water() || v4
        });
        let need_temperature = layers.temperature || layers.biome;
        let need_humidity = layers.humidity || layers.biome;
        for v in [
            &mut *height,
            &mut *temperature,
            &mut *humidity,
            &mut *noise,
            &mut *water,
            &mut *flow,
        ] {
            v.clear();
            v.resize(n, 0.0);
        }
        geo.plate.clear();
        geo.uplift.clear();
        match (&self.plates, need_height) {
            (_, false) => {}
            (None, true) => terrain::heights(backend, detail, &self.shape, pos, scratch, height),
            (Some(plates), true) => {
                terrain::land(backend, detail, &self.shape, pos, &mut scratch.land);
                geology::uplift_block(
                    plates,
                    backend,
                    detail,
                    self.shape.threshold,
                    self.params.plate_activity,
                    r,
                    level,
                    dirs,
                    &scratch.land,
                    geo,
                );
                let land = std::mem::take(&mut scratch.land);
                terrain::heights_v2(backend, detail, pos, &land, &geo.uplift, scratch, height);
                scratch.land = land;
            }
        }
        banks.clear();
        if let Some(view) = carve {
            for i in 0..n {
                let (c, wet) = view.apply(dirs[i], f64::from(height[i]));
                height[i] = c.height as f32;
                water[i] = c.water as f32;
                flow[i] = c.flow as f32;
                banks.push((c.bank, c.width, wet));
            }
        }
        let climate_v4 = climate_view.filter(|_| v4);
        if let Some(cv) = climate_v4 {
            self.climate_v4(
                backend,
                detail,
                dirs,
                pos,
                cv,
                layers,
                noise,
                out,
                (height, water, temperature, humidity, banks),
            );
        } else {
            if need_temperature {
                terrain::fill(backend, detail, Layer::Temperature, pos, noise);
                for i in 0..n {
                    temperature[i] = self.climate.temperature(dirs[i][2], height[i], noise[i]);
                }
            }
            if need_humidity {
                if !need_height {
                    terrain::land(backend, detail, &self.shape, pos, &mut scratch.land);
                }
                self.humidity(backend, detail, dirs, pos, &scratch.land, noise, humidity);
            }
        }
        if layers.height {
            out.height.extend_from_slice(height);
        }
        if layers.temperature {
            out.temperature.extend_from_slice(temperature);
        }
        if layers.humidity {
            out.humidity.extend_from_slice(humidity);
        }
        if layers.water {
            out.water.extend_from_slice(water);
        }
        if layers.flow {
            out.flow.extend_from_slice(flow);
        }
        // Version 4's biomes came with its climate.
        if layers.biome && climate_v4.is_none() {
            out.biome
                .extend((0..n).map(|i| Biome::classify(height[i], temperature[i], humidity[i])));
        }
    }

    /// Humidity from nearness to the ocean (read off the continent field,
    /// the planet's own low-pass: no mountains or detail, nothing finer
    /// than 0.011 R) and the humidity noise.
    #[allow(clippy::too_many_arguments)]
    fn humidity(
        &self,
        backend: &dyn NoiseBackend,
        detail: &Detail,
        dirs: &[Dir],
        pos: Positions<'_>,
        land: &[f32],
        noise: &mut [f32],
        out: &mut [f32],
    ) {
        terrain::fill(backend, detail, Layer::Humidity, pos, noise);
        for i in 0..dirs.len() {
            let nearness = ocean_nearness(land[i]);
            out[i] = self.climate.humidity(dirs[i][2], nearness, noise[i]);
        }
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
