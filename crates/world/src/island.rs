//! `SpawnedIsland`: an island map together with the world objects that grew
//! from it. Built only by the spawner, all at once, so no site is ever
//! without its location.

use crate::object::ObjectId;
use mangekyo_island::{IslandMap, LocationName};
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
}

impl SpawnedIsland {
    /// Only the spawner builds one, with every site's land and every
    /// edge's two paths.
    pub(crate) fn new(
        map: IslandMap,
        lands: Vec<ObjectId>,
        paths: BTreeMap<(u32, u32), ObjectId>,
    ) -> Self {
        debug_assert_eq!(lands.len(), map.sites.len());
        debug_assert_eq!(paths.len(), 2 * map.edges.len());
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

    /// Every path object, by (from site, to site).
    pub fn paths(&self) -> &BTreeMap<(u32, u32), ObjectId> {
        &self.paths
    }
}
