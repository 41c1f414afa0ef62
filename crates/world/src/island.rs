//! `SpawnedIsland`: an island map together with the world objects that grew
//! from it. Built only by the spawner, all at once, so no site is ever
//! without its location.

use crate::object::ObjectId;
use mangekyo_island::{IslandMap, LocationName, SeaRoute};
use std::collections::BTreeMap;

/// The map and its site ⇄ object correspondence (the guide's
/// `SpawnedIsland`). The one source of location names: names belong to
/// sites, not to object defs.
#[derive(Clone, Debug, PartialEq)]
pub struct SpawnedIsland {
    map: IslandMap,
    lands: Vec<ObjectId>,
    site_of: BTreeMap<ObjectId, u32>,
    paths: BTreeMap<(u32, u32), ObjectId>,
    sea_routes: Vec<SeaRoute>,
    sea_paths: BTreeMap<(u32, u32), ObjectId>,
}

impl SpawnedIsland {
    /// Only the spawner builds one, with every site's land, every edge's
    /// two paths and every sea route's two paths.
    pub(crate) fn new(
        map: IslandMap,
        lands: Vec<ObjectId>,
        paths: BTreeMap<(u32, u32), ObjectId>,
        sea_routes: Vec<SeaRoute>,
        sea_paths: BTreeMap<(u32, u32), ObjectId>,
    ) -> Self {
        debug_assert_eq!(lands.len(), map.sites.len());
        debug_assert_eq!(paths.len(), 2 * map.edges.len());
        debug_assert_eq!(sea_paths.len(), 2 * sea_routes.len());
        let site_of = lands
            .iter()
            .enumerate()
            .map(|(i, &id)| (id, i as u32))
            .collect();
        SpawnedIsland {
            map,
            lands,
            site_of,
            paths,
            sea_routes,
            sea_paths,
        }
    }

    /// The map it was spawned from.
    pub fn map(&self) -> &IslandMap {
        &self.map
    }

    /// Location objects by site id.
    pub fn lands(&self) -> &[ObjectId] {
        &self.lands
    }

    /// The location of a site.
    pub fn land_of(&self, site: u32) -> Option<ObjectId> {
        self.lands.get(site as usize).copied()
    }

    /// The site of a location object.
    pub fn site_of(&self, land: ObjectId) -> Option<u32> {
        self.site_of.get(&land).copied()
    }

    /// The name of a location object.
    pub fn name_of(&self, land: ObjectId) -> Option<&LocationName> {
        self.site_of(land).map(|s| &self.map.sites[s as usize].name)
    }

    /// The path object from one site to another, if they share an edge.
    pub fn path(&self, from: u32, to: u32) -> Option<ObjectId> {
        self.paths.get(&(from, to)).copied()
    }

    /// Every land path object (an edge's), by (from site, to site).
    pub fn paths(&self) -> &BTreeMap<(u32, u32), ObjectId> {
        &self.paths
    }

    /// The scope's sea routes on this island, sorted by `(a, b)` (none
    /// without `sea_routes`).
    pub fn sea_routes(&self) -> &[SeaRoute] {
        &self.sea_routes
    }

    /// The sea-route path object from one site to another, if a route
    /// links them.
    pub fn sea_path(&self, from: u32, to: u32) -> Option<ObjectId> {
        self.sea_paths.get(&(from, to)).copied()
    }

    /// Every sea-route path object, by (from site, to site).
    pub fn sea_paths(&self) -> &BTreeMap<(u32, u32), ObjectId> {
        &self.sea_paths
    }

    /// Whether a path object is a sea route.
    pub fn is_sea_path(&self, path: ObjectId) -> bool {
        self.sea_paths.values().any(|&p| p == path)
    }

    /// Every path object, land and sea, with its (from, to) sites.
    pub fn all_paths(&self) -> impl Iterator<Item = ((u32, u32), ObjectId)> + '_ {
        self.paths
            .iter()
            .chain(&self.sea_paths)
            .map(|(&k, &v)| (k, v))
    }
}
