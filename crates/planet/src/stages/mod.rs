//! The sample pipeline: a version's stages built for one planet
//! ([`Stages`]), and the planet function evaluated block by block through
//! them: relief, then the water the coarse tier carved, then the climate
//! and the biomes. Each stage dispatches on the implementation its
//! version's [`Pipeline`] names; a stage that changes for a new version
//! gets a new implementation beside the old one, which stays frozen.
//!
//! The coarse tier samples through [`Stages`] too (its nodes are the same
//! function at a coarser spacing), so the tier never calls back into
//! [`crate::Planet`]: what samples read of the tier comes in as a
//! [`TierReader`], which the tier builds.

mod circulation;

pub(crate) use circulation::ClimateReader;

use crate::atmosphere::Atmosphere;
use crate::biome::{Biome, BiomeWeights};
use crate::chunk::Layers;
use crate::climate::{self, ocean_nearness};
use crate::ecology::ClassEdges;
use crate::geo::Dir;
use crate::geology::{self, GeologySamples, Plates};
use crate::graph::SphereGraph;
use crate::hydro::carve::{Carved, RiverField};
use crate::hydro::streams::{CellStreams, StreamCache, StreamInputs};
use crate::layers::{Detail, Layer, NoiseBackend, Noises, Positions};
use crate::terrain::{self, BLOCK, Scratch, Shape};
use crate::version::{Climate, Pipeline, Relief, Version, Water};
use crate::{MapPoint, PlanetError, PlanetParams, Projection};
use mangekyo_core::noise::Level;
use std::sync::Arc;

/// One planet's stages: its parameters with the noise layers, the relief
/// shape, the climate and (with plates) the plate layout its version's
/// pipeline needs.
#[derive(Clone, Debug)]
pub(crate) struct Stages {
    pub(crate) params: PlanetParams,
    pub(crate) pipeline: Pipeline,
    pub(crate) noises: Noises,
    shape: Shape,
    /// [`Climate::Bands`]: latitude and height (also the circulation's
    /// stand-in where no tier is read).
    bands: climate::Climate,
    /// [`Climate::Circulation`]: the circulation and the biome class edges.
    pub(crate) circulation: Option<(Atmosphere, ClassEdges)>,
    /// [`Relief::Plates`]: the plate layout.
    pub(crate) plates: Option<Plates>,
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
    /// Water over the ground, metres (with a water stage).
    pub water: Vec<f32>,
    /// River discharge, m³/s (with a water stage).
    pub flow: Vec<f32>,
    /// Precipitation, mm/yr (with the circulation climate).
    pub precipitation: Vec<f32>,
    /// The two strongest biomes and their weights (blended biomes).
    pub biome_weights: Vec<BiomeWeights>,
}

/// What samples read of the coarse tier: the erosion's change of height
/// (interpolated C1 from the nodes), the rivers and lakes, and with the
/// circulation climate its grid. Built by the tier
/// (`CoarseTier::reader`).
pub(crate) struct TierReader<'a> {
    pub(crate) graph: SphereGraph,
    pub(crate) seed: u64,
    pub(crate) radius: f64,
    /// Receiver per node (for the streams).
    pub(crate) receiver: &'a [u32],
    /// Tectonic height per node.
    pub(crate) height: &'a [f32],
    /// Eroded height per node.
    pub(crate) eroded: &'a [f32],
    pub(crate) field: &'a RiverField,
    pub(crate) climate: Option<ClimateReader<'a>>,
    /// [`Streams::Cells`]: the cells' streams built so far.
    pub(crate) streams: Option<StreamCache>,
}

/// The stream cell the last sample of a block read (samples in a row
/// mostly share one).
type LastCell = Option<(u32, Arc<CellStreams>)>;

impl TierReader<'_> {
    /// Calls `f` with what the streams read of the tier.
    pub(crate) fn with_stream_inputs<R>(&self, f: impl FnOnce(&StreamInputs) -> R) -> R {
        let lake = |k: u32| self.field.lake_level(k);
        let river = |k: u32| self.field.river_from(k);
        let axis = |s: u32, t: f64| self.field.axis(s, t);
        f(&StreamInputs {
            seed: self.seed,
            radius: self.radius,
            graph: &self.graph,
            eroded: self.eroded,
            receiver: self.receiver,
            lake_level: &lake,
            river: &river,
            axis: &axis,
            climate: self.climate.as_ref().map(|c| (c.grid, &c.graph)),
        })
    }

    /// Erosion and carving at direction `d` over tectonic height `h` (the
    /// streams too where `streams`), and (with the circulation climate)
    /// the wetland weight there.
    fn apply(
        &self,
        d: Dir,
        at: MapPoint,
        h: f64,
        streams: bool,
        last: &mut LastCell,
    ) -> (Carved, f64) {
        let (eroded, height) = (self.eroded, self.height);
        let delta = |k: u32| f64::from(eroded[k as usize]) - f64::from(height[k as usize]);
        let (cell, delta, wet) = match &self.climate {
            None => {
                let (cell, [v]) = self.graph.locate_and_interpolate_n_at(
                    Some(self.field.ghosts()),
                    &mut |k| [delta(k)],
                    d,
                    at,
                );
                (cell, v, 0.0)
            }
            Some(c) => {
                let (cell, [v, w]) = self.graph.locate_and_interpolate_n_at(
                    Some(self.field.ghosts()),
                    &mut |k| [delta(k), f64::from(c.wetland[k as usize]) / 255.0],
                    d,
                    at,
                );
                (cell, v, w.clamp(0.0, 1.0))
            }
        };
        let mut ground = h + delta;
        let mut stream = None;
        if let (true, Some(cache)) = (streams, &self.streams) {
            if last.as_ref().is_none_or(|(c, _)| *c != cell) {
                *last = Some((cell, self.with_stream_inputs(|i| cache.cell(i, cell))));
            }
            if let Some((_, cs)) = last.as_ref() {
                let cut = cs.carve(&self.graph, self.radius, cell, d, at, ground);
                ground = cut.height;
                stream = cut.channel;
            }
        }
        let mut carved = self.field.carve(d, cell, ground);
        // A stream's water where no river holds the sample and its level
        // is above the ground the river left.
        if let Some((z, q)) = stream.filter(|&(z, _)| z > carved.height && carved.segment.is_none())
        {
            carved.water = carved.water.max(z - carved.height);
            carved.flow = carved.flow.max(q);
        }
        (carved, wet)
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
    /// Per sample: the carving's bank distance and river width, and the
    /// wetland weight (read by the circulation's biomes).
    banks: Vec<(f64, f64, f64)>,
    /// Per sample: its tangent-cube point, where the tier's graphs are
    /// read (one projection for every graph).
    projected: Vec<MapPoint>,
}

impl Stages {
    /// Builds the stages of `params` (validated) at a finest spacing of
    /// `finest` metres.
    pub(crate) fn new(params: PlanetParams, finest: f64) -> Stages {
        let pipeline = params.generator_version.pipeline();
        let noises = Noises::new(params.seed, params.radius, finest, pipeline.noise);
        let shape = Shape {
            threshold: terrain::sea_threshold(&noises, params.radius, params.sea_level),
            plate_activity: params.plate_activity as f32,
        };
        let bands = climate::Climate::new(
            params.axial_tilt,
            params.solar_intensity,
            params.humidity_global,
        );
        let circulation = match pipeline.climate {
            Climate::Bands => None,
            Climate::Circulation => Some((
                Atmosphere::new(
                    params.axial_tilt,
                    params.solar_intensity,
                    params.humidity_global,
                ),
                ClassEdges::new(params.humidity_global),
            )),
        };
        let plates = match pipeline.relief {
            Relief::NoiseBelts => None,
            Relief::Plates => Some(Plates::new(
                params.seed,
                params.radius,
                geology::plate_count(params.seed, params.plate_count),
                pipeline.noise,
            )),
        };
        Stages {
            params,
            pipeline,
            noises,
            shape,
            bands,
            circulation,
            plates,
        }
    }

    /// Its version.
    pub(crate) fn version(&self) -> Version {
        self.params.generator_version
    }

    /// The octaves kept at a sample spacing of `spacing` metres.
    pub(crate) fn detail(&self, spacing: f64) -> Detail {
        Detail::for_spacing(&self.noises, spacing)
    }

    /// The plate layout, or a refusal naming `generator_version` for a
    /// version without plates.
    pub(crate) fn require_plates(&self) -> Result<&Plates, PlanetError> {
        self.plates.as_ref().ok_or_else(|| {
            PlanetError::param(
                "generator_version",
                self.version(),
                "a version with plates (2 or later)",
            )
        })
    }

    /// The planet function at `dirs`, block by block, with the plate
    /// warp's SIMD level chosen and, with plates, the `plate` and `uplift`
    /// layers collected into `geo`; `tier` is what samples read of the
    /// coarse tier (the water; absent while the tier itself is computed).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn evaluate(
        &self,
        backend: &dyn NoiseBackend,
        level: Level,
        detail: &Detail,
        dirs: &[Dir],
        layers: Layers,
        geo: Option<&mut GeologySamples>,
        tier: Option<&TierReader<'_>>,
    ) -> Samples {
        self.evaluate_until(backend, level, detail, dirs, layers, geo, tier, &|| true)
            .unwrap_or_else(|| unreachable!("never cancelled"))
    }

    /// [`Stages::evaluate`], asking `keep_going` before each block of
    /// `BLOCK` samples: `None` once it answers `false`. The blocks and
    /// their samples are those of `evaluate`, so a finished run is the
    /// same bytes.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn evaluate_until(
        &self,
        backend: &dyn NoiseBackend,
        level: Level,
        detail: &Detail,
        dirs: &[Dir],
        layers: Layers,
        mut geo: Option<&mut GeologySamples>,
        tier: Option<&TierReader<'_>>,
        keep_going: &dyn Fn() -> bool,
    ) -> Option<Samples> {
        let mut out = Samples::default();
        let mut work = Work::default();
        for block in dirs.chunks(BLOCK) {
            if !keep_going() {
                return None;
            }
            self.evaluate_block(
                backend, level, detail, block, layers, tier, &mut work, &mut out,
            );
            if let Some(g) = geo.as_deref_mut() {
                g.plate.extend_from_slice(&work.geology.plate);
                g.uplift.extend_from_slice(&work.geology.uplift);
            }
        }
        Some(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn evaluate_block(
        &self,
        backend: &dyn NoiseBackend,
        level: Level,
        detail: &Detail,
        dirs: &[Dir],
        layers: Layers,
        tier: Option<&TierReader<'_>>,
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
            projected,
        } = w;
        for (axis, p) in buf.iter_mut().enumerate() {
            p.clear();
            p.extend(dirs.iter().map(|d| d[axis] * r));
        }
        let [x, y, z] = &*buf;
        let pos = Positions { x, y, z };
        // The circulation reads its whole climate off the tier: every
        // climate layer needs the carved ground and the temperature. While
        // the tier is computed there is no reader, and the bands stand in
        // (the tier asks for no climate layer then).
        let circulation = match self.pipeline.climate {
            Climate::Bands => None,
            Climate::Circulation => tier
                .and_then(|t| t.climate.as_ref())
                .filter(|_| layers.has_climate()),
        };
        let need_height = layers.height
            || layers.temperature
            || layers.biome
            || layers.has_geology()
            || layers.has_water()
            || circulation.is_some();
        let carve = match self.pipeline.water {
            Water::None => None,
            Water::StreamPower(_) => tier.filter(|_| {
                layers.height
                    || layers.temperature
                    || layers.biome
                    || layers.has_water()
                    || circulation.is_some()
            }),
        };
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
        // Relief.
        if need_height {
            match (self.pipeline.relief, &self.plates) {
                (Relief::Plates, Some(plates)) => {
                    terrain::land(backend, detail, &self.shape, pos, &mut scratch.land);
                    let inputs = geology::UpliftInputs {
                        plates,
                        backend,
                        detail,
                        threshold: self.shape.threshold,
                        activity: self.params.plate_activity,
                        radius: r,
                        level,
                    };
                    geology::uplift_block(
                        self.pipeline.boundaries,
                        &inputs,
                        dirs,
                        &scratch.land,
                        geo,
                    );
                    let land = std::mem::take(&mut scratch.land);
                    terrain::heights_v2(
                        backend,
                        detail,
                        pos,
                        &land,
                        &geo.uplift,
                        self.pipeline.coast,
                        self.pipeline.sea_floor,
                        scratch,
                        height,
                    );
                    scratch.land = land;
                }
                // Built with the stages: plates exist for Relief::Plates.
                _ => terrain::heights(backend, detail, &self.shape, pos, scratch, height),
            }
        }
        projected.clear();
        if carve.is_some() || circulation.is_some() {
            projected.extend(dirs.iter().map(|&d| Projection::TangentCube.forward(d)));
        }
        // Water: erosion and the carving of rivers and lakes.
        banks.clear();
        if let Some(reader) = carve {
            let mut last = None;
            for i in 0..n {
                let (c, wet) = reader.apply(
                    dirs[i],
                    projected[i],
                    f64::from(height[i]),
                    detail.streams(),
                    &mut last,
                );
                height[i] = c.height as f32;
                water[i] = c.water as f32;
                flow[i] = c.flow as f32;
                banks.push((c.bank, c.width, wet));
            }
        }
        // Climate and biomes.
        if let Some(cr) = circulation {
            self.circulation_climate(
                backend,
                level,
                detail,
                dirs,
                pos,
                cr,
                layers,
                noise,
                out,
                (height, water, temperature, humidity, banks, &scratch.land),
                projected,
            );
        } else {
            if need_temperature {
                terrain::fill(backend, detail, Layer::Temperature, pos, noise);
                for i in 0..n {
                    temperature[i] = self.bands.temperature(dirs[i][2], height[i], noise[i]);
                }
            }
            if need_humidity {
                if !need_height {
                    terrain::land(backend, detail, &self.shape, pos, &mut scratch.land);
                }
                self.band_humidity(backend, detail, dirs, pos, &scratch.land, noise, humidity);
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
        // The circulation's biomes came with its climate.
        if layers.biome && circulation.is_none() {
            out.biome
                .extend((0..n).map(|i| Biome::classify(height[i], temperature[i], humidity[i])));
        }
    }

    /// Humidity from nearness to the ocean (read off the continent field,
    /// the planet's own low-pass: no mountains or detail, nothing finer
    /// than 0.011 R) and the humidity noise.
    #[allow(clippy::too_many_arguments)]
    fn band_humidity(
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
            out[i] = self.bands.humidity(dirs[i][2], nearness, noise[i]);
        }
    }
}
