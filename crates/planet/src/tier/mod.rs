//! The coarse tier T1 (docs/planet.md, "Tiers"): the planet's
//! fields sampled once on its sphere graph and kept as a canonical
//! little-endian blob, keyed by a hash of (generator version, parameters,
//! N).
//!
//! What it holds follows its version's stages ([`TierLayout`]): with plates
//! height, uplift and plate per node; with a water stage the water
//! ([`HydroFields`]: eroded heights, receivers, lakes and river segments),
//! which samples read; with the circulation climate the climate
//! ([`ClimateTier`]: the climate grid, wetlands and biome tables,
//! `climate.rs`). It samples the planet function through the stages
//! (`crate::stages::Stages`), never through the planet, and hands samples
//! what they read of it as a `TierReader`. The blob's layout is in `blob.rs`. It is a cache of a pure
//! function: deleting a stored blob changes no chunk byte (it is computed
//! again, bit for bit). Rows are computed in
//! parallel as pure gathers (each row has one writer and reads only the
//! parameters) and concatenated in index order: the blob is the same on
//! any number of threads and at every SIMD level (the noise kernels are
//! bit-identical across levels).

mod blob;
mod climate;

use climate::{climate_tables, wetland};

use crate::atmosphere::fields::ClimateGrid;
use crate::ecology::{BANDS, BiomeTables, KNOTS};
use crate::geo::Dir;
use crate::graph::SphereGraph;
use crate::hydro::Mesh;
use crate::hydro::balance::{self, NodeBalance};
use crate::hydro::carve::RiverField;
use crate::hydro::erosion::{self, ErosionParams};
use crate::hydro::rivers::{self, RiverRule, Segment};
use crate::hydro::routing::NONE;
use crate::hydro::streams::StreamCache;
use crate::layers::{Layer, NoiseBackend, Noises, Positions};
use crate::stages::{ClimateReader, Stages, TierReader};
use crate::version::{Balance, Rain, TierLayout, Water};
use crate::version::{Channels, Streams};
use crate::{Layers, PlanetError, PlanetParams};
use mangekyo_core::hash::fnv1a64;
use mangekyo_core::noise::Level;
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};

/// The blob's first bytes.
pub const MAGIC: [u8; 4] = *b"MKT1";
/// The layout version of the blob (bump on any layout change): 1 holds
/// the plates' fields (version-2 planets), 2 adds the water (version 3).
pub const LAYOUT: u32 = 1;
/// The layout of a tier with water.
pub const LAYOUT_WATER: u32 = 2;
/// The layout of a tier with water and climate (version 4).
pub const LAYOUT_CLIMATE: u32 = 3;

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
    /// Version 3: erosion, drainage, lakes and rivers.
    pub hydro: Option<HydroFields>,
    /// Version 4: the climate and the biome tables.
    pub climate: Option<ClimateTier>,
}

/// The climate of a version-4 tier.
#[derive(Clone, Debug, PartialEq)]
pub struct ClimateTier {
    /// Sea-level temperature and log precipitation on the climate graph.
    pub grid: ClimateGrid,
    /// Wetland weight per tier node, in 255ths: flat ground (the receiver
    /// edge falls less than 3 m/km) that rains more than it can
    /// evaporate.
    pub wetland: Vec<u8>,
    /// The biome quantile tables.
    pub tables: BiomeTables,
}

/// Bytes per node that [`CoarseTier::estimated_heap_bytes`] allows for the
/// lakes and river segments (measured: about 1 on default planets).
pub const RIVER_BYTES_PER_NODE: u64 = 4;

/// Working bytes per node, per climate cell, and fixed, that a tier's
/// computation holds beyond the tier it keeps, by layout (see
/// [`CoarseTier::estimated_work_bytes`]). Measured peaks, the tier
/// included (`tests/tier_work_memory.rs` with
/// `MANGEKYO_TIER_MEMORY_N=408,1024`, release): plates 20–23 bytes a node
/// (the sampled rows); water 211–214 (the mesh's neighbours and areas, the
/// erosion's f64 fields, the routing's queue, which grows with the sea's
/// share); with the climate 240–248. The estimates are 1.15–1.31× those.
const WORK_PLATES: (u64, u64, u64) = (16, 0, 0);
const WORK_WATER: (u64, u64, u64) = (250, 0, 0);
const WORK_CLIMATE: (u64, u64, u64) = (250, 40, 0);

/// The water of a version-3 tier.
#[derive(Clone, Debug)]
pub struct HydroFields {
    /// Ground height after erosion, metres (chunks add the difference from
    /// `height`, interpolated, to the tectonic surface).
    pub eroded: Vec<f32>,
    /// Each node's receiver ([`crate::hydro::routing::NONE`] at roots).
    pub receiver: Vec<u32>,
    /// Lake id per node (`NONE` outside lakes).
    pub lake: Vec<u32>,
    /// The lakes.
    pub lakes: Vec<LakeRecord>,
    /// River segments, grouped by link.
    pub segments: Vec<Segment>,
    /// The river field built from them on first use (not stored).
    field: Arc<OnceLock<RiverField>>,
    /// The water budget, as measured when the tier was computed (`None`
    /// in a tier read back from a blob: blobs keep only what chunks use).
    pub budget: Option<WaterBudget>,
}

/// Where a tier's water goes, summed over land (for the closing checks
/// of a water balance: Earth's rivers carry about 38,000 km³/yr of
/// 110,000 km³/yr of rain on land, and about 18 % of land drains inland).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaterBudget {
    /// Land area, km².
    pub land_km2: f64,
    /// Rain on land, km³/yr.
    pub precipitation_km3: f64,
    /// What runs off land (rain less evapotranspiration), km³/yr.
    pub runoff_km3: f64,
    /// What rivers and land deliver to the sea, km³/yr.
    pub to_sea_km3: f64,
    /// Land whose water never reaches the sea (closed basins), km².
    pub inland_km2: f64,
    /// Lake surface, km².
    pub lakes_km2: f64,
}

impl PartialEq for HydroFields {
    fn eq(&self, o: &Self) -> bool {
        self.eroded == o.eroded
            && self.receiver == o.receiver
            && self.lake == o.lake
            && self.lakes == o.lakes
            && self.segments == o.segments
    }
}

/// A lake as the tier keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LakeRecord {
    /// Surface, metres.
    pub level: f32,
    /// Area, km².
    pub area_km2: f32,
    /// Inflow, m³/s.
    pub inflow: f32,
    /// The node its water spills to (`NONE` when endorheic).
    pub outlet: u32,
    /// No outlet: evaporation takes its inflow.
    pub endorheic: bool,
}

impl HydroFields {
    /// Erodes and drains the tier's heights under `precipitation` (m/yr
    /// per node: version 4's climate; version 3 stands in 0.25 +
    /// 1.75·humidity), calling `observe` after each stage. With
    /// `sea_temperature` (°C per node) the water balances
    /// ([`crate::version::Balance::Budyko`]); without, all rain runs off.
    pub fn compute(
        graph: SphereGraph,
        radius: f64,
        height: &[f32],
        precipitation: &[f64],
        sea_temperature: Option<&[f64]>,
        params: &ErosionParams,
        observe: &dyn Fn(u32) -> bool,
    ) -> Option<HydroFields> {
        let mesh = Mesh::new(graph, radius);
        if !observe(graph.n()) {
            return None;
        }
        let h0: Vec<f64> = height.iter().map(|&h| f64::from(h)).collect();
        let ocean: Vec<bool> = h0.iter().map(|&h| h < 0.0).collect();
        // Four reports (the steady state and three rounds) of n rows each.
        let rounds = params.iterations + 1;
        let rows = graph.n() * 4 / rounds;
        let water = sea_temperature.map(|t| {
            let air: Vec<f64> = t
                .iter()
                .zip(&h0)
                .map(|(&t, &h)| crate::atmosphere::Atmosphere::air_temperature(t, h))
                .collect();
            NodeBalance::new(&mesh, precipitation, &air, &ocean)
        });
        let hyd = erosion::erode_observed(
            &mesh,
            &h0,
            &ocean,
            precipitation,
            params,
            water.as_ref(),
            &|_| observe(rows),
        )?;
        let segments = match sea_temperature {
            Some(t) => {
                let ice = balance::ice(t, &hyd.height);
                let rule = RiverRule {
                    min_runoff_m: balance::RIVER_RUNOFF_M,
                    ice: Some(&ice),
                    lake_outlets: true,
                };
                rivers::extract_by(&mesh, &hyd, &ocean, &rule)
            }
            None => rivers::extract(&mesh, &hyd, &ocean),
        };
        let budget = water_budget(&mesh, &hyd, &ocean, precipitation);
        let lakes = hyd
            .routing
            .lakes
            .iter()
            .map(|l| LakeRecord {
                level: l.level as f32,
                area_km2: (l.area / 1e6) as f32,
                inflow: (l.inflow as f64 / crate::hydro::SECONDS_PER_YEAR) as f32,
                outlet: l.outlet,
                endorheic: l.endorheic,
            })
            .collect();
        let out = HydroFields {
            eroded: hyd.height.iter().map(|&h| h as f32).collect(),
            receiver: hyd.routing.receiver,
            lake: hyd.routing.lake,
            lakes,
            segments,
            field: Arc::default(),
            budget: Some(budget),
        };
        observe(graph.n());
        Some(out)
    }

    /// Each node's lake surface (NaN outside lakes).
    pub fn lake_level(&self) -> Vec<f32> {
        self.lake
            .iter()
            .map(|&l| {
                if l == NONE {
                    f32::NAN
                } else {
                    self.lakes[l as usize].level
                }
            })
            .collect()
    }

    /// The river field chunks carve with (built once, with the
    /// `channels` of the version the tier belongs to).
    pub fn field(&self, graph: &SphereGraph, radius: f64, channels: Channels) -> &RiverField {
        self.field.get_or_init(|| {
            RiverField::new(
                graph,
                radius,
                self.segments.clone(),
                &self.lake_level(),
                channels,
            )
        })
    }
}

/// The [`WaterBudget`] of an eroded tier (sums in node order).
fn water_budget(
    mesh: &Mesh,
    hyd: &erosion::Hydrology,
    ocean: &[bool],
    precipitation: &[f64],
) -> WaterBudget {
    let r = &hyd.routing;
    let root = crate::hydro::routing::roots(r);
    let mut b = WaterBudget {
        land_km2: 0.0,
        precipitation_km3: 0.0,
        runoff_km3: 0.0,
        to_sea_km3: 0.0,
        inland_km2: 0.0,
        lakes_km2: r.lakes.iter().map(|l| l.area).sum::<f64>() / 1e6,
    };
    for k in 0..mesh.len() {
        if ocean[k] {
            continue;
        }
        let a = mesh.area[k] / 1e6;
        b.land_km2 += a;
        b.precipitation_km3 += precipitation[k].max(0.0) * a / 1e3;
        b.runoff_km3 += hyd.runoff[k] as f64 / 1e9;
        if !ocean[root[k] as usize] {
            b.inland_km2 += a;
        }
        let to = r.receiver[k];
        if to != NONE && ocean[to as usize] {
            b.to_sea_km3 += hyd.discharge[k] as f64 / 1e9;
        }
    }
    b
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
        bytes.extend_from_slice(&params.generator_version.code().to_le_bytes());
        bytes.extend_from_slice(&params.graph_n.to_le_bytes());
        bytes.extend_from_slice(&params.content_hash().to_le_bytes());
        fnv1a64(&bytes)
    }

    /// Computes the tier of `stages`' planet on the current rayon pool,
    /// calling `observe(rows)` as rows of nodes finish (they add up to its
    /// [`TierLayout::rows`]; from worker threads, in any order): when it
    /// answers `false` the work stops and `None` comes back. Neither the
    /// pool, `level` (the noise's SIMD level) nor `observe` changes a byte.
    /// `crate::Planet::compute_tier` is the public entry.
    pub(crate) fn compute_observed(
        stages: &Stages,
        level: Level,
        observe: &(dyn Fn(u32) -> bool + Sync),
    ) -> Option<CoarseTier> {
        let params = &stages.params;
        let stop = std::sync::atomic::AtomicBool::new(false);
        let n = params
            .graph_n
            .clamp(*crate::GRAPH_N_RANGE.start(), *crate::GRAPH_N_RANGE.end());
        // In range: clamped above (and validated by Planet::new).
        let graph = SphereGraph::new(n, params.seed)
            .unwrap_or_else(|e| unreachable!("graph_n checked: {e}"));
        let backend = AtLevel {
            noises: &stages.noises,
            level,
        };
        // Octaves finer than a cell would only alias.
        let detail = stages.detail(CoarseTier::spacing(params.radius, n));
        let water = stages.pipeline.water;
        // The humidity stand-in for rain is sampled with the relief.
        let asked = if water == Water::StreamPower(Rain::HumidityProxy) {
            Layers {
                humidity: true,
                ..Layers::HEIGHT
            }
        } else {
            Layers::HEIGHT
        };
        // Per row: heights, uplift, plates, humidity (the stand-in rain).
        type Row = (Vec<f32>, Vec<f32>, Vec<u16>, Vec<f32>);
        let rows: Vec<Row> = (0..6 * n)
            .into_par_iter()
            .map(|row| {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    return Default::default();
                }
                let dirs: Vec<_> = (row * n..(row + 1) * n).map(|k| graph.node(k)).collect();
                let mut geo = crate::geology::GeologySamples::default();
                let s =
                    stages.evaluate(&backend, level, &detail, &dirs, asked, Some(&mut geo), None);
                if !observe(1) {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                (s.height, geo.uplift, geo.plate, s.humidity)
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
            hydro: None,
            climate: None,
        };
        let mut humidity = Vec::with_capacity(if asked.humidity { count } else { 0 });
        for (h, u, p, w) in rows {
            tier.height.extend(h);
            tier.uplift.extend(u);
            tier.plate.extend(p);
            humidity.extend(w);
        }
        let rain = match water {
            Water::None => return Some(tier),
            Water::StreamPower(rain) => rain,
        };
        let erosion = ErosionParams::for_peaks(stages.pipeline.peaks, params.plate_activity);
        let atm = match (rain, &stages.circulation) {
            (Rain::Climate, Some((atm, _))) => atm,
            // The stand-in rain (or no circulation to rain from).
            _ => {
                let precipitation: Vec<f64> = humidity
                    .iter()
                    .map(|&u| 0.25 + 1.75 * f64::from(u))
                    .collect();
                tier.hydro = Some(HydroFields::compute(
                    graph,
                    params.radius,
                    &tier.height,
                    &precipitation,
                    None,
                    &erosion,
                    observe,
                )?);
                return Some(tier);
            }
        };
        // The circulation's rain over the tectonic ground feeds
        // the erosion (one coupling iteration), then the climate is
        // computed again over the eroded ground.
        let dirs: Vec<Dir> = (0..count as u32).map(|k| graph.node(k)).collect();
        let h0: Vec<f64> = tier.height.iter().map(|&h| f64::from(h)).collect();
        let first = ClimateGrid::compute(atm, &graph, &h0, params.seed, params.radius);
        let first_graph = first.graph(params.seed);
        let rain = first.precipitation_m(&first_graph, &dirs);
        let sea_temperature = match stages.pipeline.balance {
            Balance::AllRain => None,
            Balance::Budyko => Some(first.sea_temperature_c(&first_graph, &dirs)),
        };
        if !observe(n) {
            return None;
        }
        let hydro = HydroFields::compute(
            graph,
            params.radius,
            &tier.height,
            &rain,
            sea_temperature.as_deref(),
            &erosion,
            observe,
        )?;
        let eroded: Vec<f64> = hydro.eroded.iter().map(|&h| f64::from(h)).collect();
        let grid = ClimateGrid::compute(atm, &graph, &eroded, params.seed, params.radius);
        let wetland = wetland(&grid, &dirs, &eroded, &hydro, params);
        if !observe(n) {
            return None;
        }
        tier.hydro = Some(hydro);
        tier.climate = Some(ClimateTier {
            grid,
            wetland,
            tables: BiomeTables::from_samples(&[]),
        });
        let tables = climate_tables(stages, &tier, &graph, &dirs, level, observe)?;
        if let Some(c) = tier.climate.as_mut() {
            c.tables = tables;
        }
        Some(tier)
    }

    /// Bytes the tier holds in memory (about its blob's size).
    pub fn heap_bytes(&self) -> usize {
        let water = self.hydro.as_ref().map_or(0, |h| {
            h.eroded.len() * 12
                + h.lakes.len() * std::mem::size_of::<LakeRecord>()
                + h.segments.len() * std::mem::size_of::<Segment>()
        });
        let climate = self.climate.as_ref().map_or(0, |c| {
            c.grid.sea_temperature.len() * 8 + c.wetland.len() + BANDS * (KNOTS * 4 + 8)
        });
        self.height.len() * 4 + self.uplift.len() * 4 + self.plate.len() * 2 + water + climate
    }

    /// An upper bound of [`CoarseTier::heap_bytes`] for a tier of
    /// `version` with `n` cells per face edge, from the sizes alone, so a
    /// service can refuse a `graph_n` its memory cannot hold before
    /// computing anything. Exact but for the rivers and lakes, whose count
    /// depends on the terrain: [`RIVER_BYTES_PER_NODE`] bounds them (the
    /// `estimates_bound_the_tiers` test checks it on real planets). 0 for a
    /// version without a tier.
    pub fn estimated_heap_bytes(version: crate::Version, n: u32) -> u64 {
        let nodes = 6 * u64::from(n) * u64::from(n);
        // height and uplift f32, plate u16
        let plates = nodes * 10;
        // eroded, receiver and lake (4 bytes each), then lakes and segments
        let water = nodes * (12 + RIVER_BYTES_PER_NODE);
        let cn = u64::from(crate::atmosphere::fields::climate_n(n));
        // the climate grid (two f32 per cell), wetlands (a byte per node)
        // and the biome tables
        let climate = 6 * cn * cn * 8 + nodes + (BANDS * (KNOTS * 4 + 8)) as u64;
        match version.tier_layout() {
            TierLayout::None => 0,
            TierLayout::Plates => plates,
            TierLayout::Water => plates + water,
            TierLayout::Climate => plates + water + climate,
        }
    }

    /// An upper bound of the heap a computation of the tier of `version`
    /// with `n` cells per face edge holds at its peak, the tier it keeps
    /// included, so a service can run only as many computations as its
    /// memory holds and refuse a `graph_n` it never could. The factors are
    /// the peaks measured per node (`tests/tier_work_memory.rs`, which
    /// checks the bound and that it stays within 1.5× of the peak) with a
    /// margin: the mesh, the erosion's f64 fields and the climate's passes
    /// dominate. 0 for a version without a tier.
    pub fn estimated_work_bytes(version: crate::Version, n: u32) -> u64 {
        let nodes = 6 * u64::from(n) * u64::from(n);
        let cn = u64::from(crate::atmosphere::fields::climate_n(n));
        let cells = 6 * cn * cn;
        let kept = CoarseTier::estimated_heap_bytes(version, n);
        let (per_node, per_cell, fixed) = match version.tier_layout() {
            TierLayout::None => return 0,
            TierLayout::Plates => WORK_PLATES,
            TierLayout::Water => WORK_WATER,
            TierLayout::Climate => WORK_CLIMATE,
        };
        kept + nodes * per_node + cells * per_cell + fixed
    }

    /// The sample spacing of a tier of `n` cells per face edge, metres: a
    /// cell's width at the face centre (octaves finer than it are dropped).
    pub fn spacing(radius: f64, n: u32) -> f64 {
        std::f64::consts::FRAC_PI_2 * radius / f64::from(n)
    }

    /// What samples read of this tier (`None` without water).
    pub(crate) fn reader(
        &self,
        seed: u64,
        radius: f64,
        channels: Channels,
        streams: Streams,
    ) -> Option<TierReader<'_>> {
        let hydro = self.hydro.as_ref()?;
        let graph = SphereGraph::new(self.n, seed).ok()?;
        Some(TierReader {
            graph,
            seed,
            radius,
            receiver: &hydro.receiver,
            // Streams need cells wide enough that their valleys and bends
            // stay within the two rings a sample reads.
            streams: (streams == Streams::Cells
                && CoarseTier::spacing(radius, self.n) >= crate::hydro::streams::MIN_CELL_M)
                .then(StreamCache::default),
            height: &self.height,
            eroded: &hydro.eroded,
            field: hydro.field(&graph, radius, channels),
            climate: self.climate.as_ref().map(|c| ClimateReader {
                graph: c.grid.graph(seed),
                grid: &c.grid,
                wetland: &c.wetland,
                tables: &c.tables,
            }),
        })
    }

    /// The layout it holds.
    pub fn layout(&self) -> TierLayout {
        match (&self.hydro, &self.climate) {
            (_, Some(_)) => TierLayout::Climate,
            (Some(_), None) => TierLayout::Water,
            (None, None) => TierLayout::Plates,
        }
    }

    /// The sphere graph the fields live on (jitter seeded like the planet).
    pub fn graph(&self, seed: u64) -> Result<SphereGraph, PlanetError> {
        SphereGraph::new(self.n, seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Planet;

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
                .install(|| planet.compute_tier(level).unwrap())
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
