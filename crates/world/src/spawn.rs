//! `spawn_island`: an island map becomes world objects (the guide's
//! `spawnIslandIntoWorld`).

use crate::discovery::{SEA_ROUTE_REQUIRED_PROGRESS, path_required_progresses};
use crate::island::SpawnedIsland;
use crate::object::{ObjectId, World, WorldError, prop, slot};
use mangekyo_defs::{ObjectDef, PropertyRange};
use mangekyo_island::{Definitions, IslandEdge, IslandMap, sea_routes};
use std::collections::BTreeMap;

/// Why a map could not be spawned with these definitions.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SpawnError {
    /// The map names something the definitions lack (it was generated from
    /// other definitions).
    #[error("the map does not fit these definitions: {0}")]
    Mismatch(String),
    /// A world operation was refused.
    #[error(transparent)]
    World(#[from] WorldError),
}

/// Largest id-valued property: instance ids are `u32`.
const ID_RANGE: PropertyRange = PropertyRange {
    min: 0.0,
    max: u32::MAX as f64,
};

/// Spawns `map`: one location per site in the world's `locations` (variant
/// props written); per site one path per edge, nearest first, into its
/// `undiscovered_fixtures` with `travel_minutes`, `required_progress`
/// (from [`path_required_progresses`]) and `destination_id`; then, if the
/// scope has `sea_routes`, two paths of the sea routes' def per route
/// (after every land path, so land paths keep their ids), found by the
/// first search of either end ([`SEA_ROUTE_REQUIRED_PROGRESS`]); then
/// every edge's and route's two paths get each other's id as
/// `return_path_id`.
pub fn spawn_island(
    defs: &Definitions,
    map: IslandMap,
) -> Result<(World, SpawnedIsland), SpawnError> {
    let scope = defs
        .scope(&map.scope)
        .map_err(|e| SpawnError::Mismatch(e.to_string()))?;
    let path_def = object_def(defs, &scope.path)?;
    let mut world = World::new();
    let mut lands = Vec::with_capacity(map.sites.len());
    for site in &map.sites {
        lands.push(spawn_location(
            defs,
            &mut world,
            &site.location_type,
            site.name.variant.as_deref(),
        )?);
    }
    let mut paths = BTreeMap::new();
    for site in &map.sites {
        let land = lands[site.id as usize];
        let (_, progress_max) = world.range(land, prop::EXPLORATION)?;
        let edges = edges_nearest_first(&map, site.id);
        let thresholds = path_required_progresses(edges.len(), progress_max);
        for (edge, required) in edges.into_iter().zip(thresholds) {
            let other = if edge.a == site.id { edge.b } else { edge.a };
            let way = Way {
                from: land,
                to: lands[other as usize],
                minutes: edge.travel_minutes,
                required,
            };
            paths.insert((site.id, other), spawn_path(&mut world, path_def, way)?);
        }
    }
    let routes = sea_routes(defs, &map).map_err(|e| SpawnError::Mismatch(e.to_string()))?;
    let mut sea_paths = BTreeMap::new();
    if let Some(sea) = &scope.sea_routes {
        let sea_def = object_def(defs, &sea.path)?;
        for r in &routes {
            for (from, to) in [(r.a, r.b), (r.b, r.a)] {
                let way = Way {
                    from: lands[from as usize],
                    to: lands[to as usize],
                    minutes: r.travel_minutes,
                    required: SEA_ROUTE_REQUIRED_PROGRESS,
                };
                sea_paths.insert((from, to), spawn_path(&mut world, sea_def, way)?);
            }
        }
    }
    let pairs = map.edges.iter().map(|e| (e.a, e.b, &paths));
    let sea_pairs = routes.iter().map(|r| (r.a, r.b, &sea_paths));
    for (a, b, ways) in pairs.chain(sea_pairs) {
        let (there, back) = (ways[&(a, b)], ways[&(b, a)]);
        world.set_number(there, prop::RETURN_PATH_ID, f64::from(back.0))?;
        world.set_number(back, prop::RETURN_PATH_ID, f64::from(there.0))?;
    }
    Ok((
        world,
        SpawnedIsland::new(map, lands, paths, routes, sea_paths),
    ))
}

/// One direction of an edge or route, as the spawner lays it.
struct Way {
    from: ObjectId,
    to: ObjectId,
    minutes: u32,
    required: f64,
}

/// A path of `def` into `way.from`'s `undiscovered_fixtures`, with the
/// path properties written (`return_path_id` once its partner exists).
fn spawn_path(world: &mut World, def: &ObjectDef, way: Way) -> Result<ObjectId, SpawnError> {
    let (_, progress_max) = world.range(way.from, prop::EXPLORATION)?;
    let extra = [
        (
            prop::TRAVEL_MINUTES,
            PropertyRange {
                min: 0.0,
                max: u32::MAX as f64,
            },
        ),
        (
            prop::REQUIRED_PROGRESS,
            PropertyRange {
                min: 0.0,
                max: progress_max,
            },
        ),
        (prop::DESTINATION_ID, ID_RANGE),
        (prop::RETURN_PATH_ID, ID_RANGE),
    ];
    let path = world.create(def, &extra);
    world.set_number(path, prop::TRAVEL_MINUTES, f64::from(way.minutes))?;
    world.set_number(path, prop::REQUIRED_PROGRESS, way.required)?;
    world.set_number(path, prop::DESTINATION_ID, f64::from(way.to.0))?;
    world.move_to_slot(path, way.from, slot::UNDISCOVERED_FIXTURES)?;
    Ok(path)
}

fn object_def<'d>(defs: &'d Definitions, name: &str) -> Result<&'d ObjectDef, SpawnError> {
    defs.object_defs()
        .get(name)
        .ok_or_else(|| SpawnError::Mismatch(format!("unknown object_def '{name}'")))
}

fn spawn_location(
    defs: &Definitions,
    world: &mut World,
    ty: &str,
    variant: Option<&str>,
) -> Result<ObjectId, SpawnError> {
    let ty_def = defs
        .location_types()
        .get(ty)
        .ok_or_else(|| SpawnError::Mismatch(format!("unknown location type '{ty}'")))?;
    let land = world.create(object_def(defs, &ty_def.object_def)?, &[]);
    if let Some(v) = variant {
        let var = ty_def.variants.iter().find(|x| x.id == v).ok_or_else(|| {
            SpawnError::Mismatch(format!("location type '{ty}' has no variant '{v}'"))
        })?;
        for (k, &value) in &var.props {
            world.set_number(land, k, value)?;
        }
    }
    world.move_to_slot(land, world.root(), slot::LOCATIONS)?;
    Ok(land)
}

/// A site's edges in discovery order: shortest first, ties by the other
/// end's id, so the nearest neighbours are found first.
pub fn edges_nearest_first(map: &IslandMap, site: u32) -> Vec<&IslandEdge> {
    let other = |e: &IslandEdge| if e.a == site { e.b } else { e.a };
    let mut edges: Vec<&IslandEdge> = map.edges_of(site).collect();
    edges.sort_by(|x, y| x.meters.total_cmp(&y.meters).then(other(x).cmp(&other(y))));
    edges
}
