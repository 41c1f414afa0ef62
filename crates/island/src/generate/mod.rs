//! `generate_island`: the six steps in order (the guide's
//! `TerrainGenerator.generateIsland`). Each step is a stateless function
//! over plain data; only placement (`layout` stream) and names (`names`
//! stream) draw random numbers.

pub mod axes;
mod core_noise;
pub mod delaunay;
pub mod grid;
mod matching;
pub mod names;
pub mod paths;
pub mod place;
pub mod sea;
pub mod types;

use crate::GenerateError;
use crate::defs::Definitions;
use crate::map::{IslandMap, Site};
use mangekyo_core::seed::purpose;
use mangekyo_core::{Pcg32, Seed};

/// Generates the island of `scope` for `seed`: a pure function of
/// (definitions, scope, seed).
///
/// ```
/// use mangekyo_island::{generate_island, load_definitions, example};
/// let defs = load_definitions(example::sources()).unwrap();
/// let a = generate_island(&defs, "island", 42.into()).unwrap();
/// let b = generate_island(&defs, "island", 42.into()).unwrap();
/// assert_eq!(a, b);
/// ```
pub fn generate_island(
    defs: &Definitions,
    scope: &str,
    seed: Seed,
) -> Result<IslandMap, GenerateError> {
    generate_island_cancellable(defs, scope, seed, &|| true)
}

/// [`generate_island`], asking `keep_going` between the steps and before
/// each guaranteed site the matcher decides: [`GenerateError::Cancelled`]
/// once it answers `false`. What it answers changes nothing in a finished
/// island.
pub fn generate_island_cancellable(
    defs: &Definitions,
    scope: &str,
    seed: Seed,
    keep_going: &dyn Fn() -> bool,
) -> Result<IslandMap, GenerateError> {
    let check = || {
        if keep_going() {
            Ok(())
        } else {
            Err(GenerateError::Cancelled)
        }
    };
    let scope_def = defs.scope(scope)?;
    let mut layout = Pcg32::for_purpose(seed, purpose::LAYOUT);
    let placed = place::place_sites(scope_def.site_count, &mut layout);
    check()?;
    let axis_values = axes::assign_axis_values(defs, scope_def, &placed, seed)?;
    check()?;
    let choices = types::assign_types_cancellable(defs, scope_def, &axis_values, keep_going)?;
    let points: Vec<[f64; 2]> = placed.iter().map(|s| [s.x, s.y]).collect();
    let triangulation = delaunay::triangulate(&points)?;
    check()?;
    let per_unit = scope_def.meters_per_elevation_unit(defs);
    let elevation_axis = &scope_def.elevation.axis;
    let elevation_min = defs.axes()[elevation_axis].range.min;
    let heights: Vec<f64> = axis_values
        .iter()
        .map(|v| (v[elevation_axis] - elevation_min) * per_unit)
        .collect();
    let params = paths::PathParams {
        meters_per_distance_unit: scope_def.meters_per_distance_unit,
        detour_threshold: scope_def.extra_edge_detour_threshold,
    };
    let edges = paths::build_path_network(&points, &heights, &triangulation.edges, params);
    let type_names: Vec<&str> = choices.iter().map(|c| c.location_type.as_str()).collect();
    let mut names_rng = Pcg32::for_purpose(seed, purpose::NAMES);
    let names = names::assign_names(defs, &type_names, &mut names_rng);
    let sites = placed
        .into_iter()
        .zip(axis_values)
        .zip(choices)
        .zip(names)
        .enumerate()
        .map(|(id, (((p, axes), choice), name))| Site {
            id: id as u32,
            x: p.x,
            y: p.y,
            on_coast_ring: p.on_coast_ring,
            axes,
            location_type: choice.location_type,
            assigned_by: choice.assigned_by,
            name,
        })
        .collect();
    Ok(IslandMap {
        seed,
        scope: scope.to_string(),
        sites,
        edges,
    })
}
