//! The result of generation: plain data, no world objects, no handles.

use mangekyo_core::Seed;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A site's name as identifiers: the text comes from
/// [`crate::Localization::label`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct LocationName {
    /// The location type.
    #[serde(rename = "type")]
    pub location_type: String,
    /// The variant id, if the site got one.
    pub variant: Option<String>,
    /// The ordinal (1, 2, …), for sites past the type's variants.
    pub ordinal: Option<u32>,
}

/// How a site got its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Assignment {
    /// Matched to a guarantee, within the type's hard limits.
    Guarantee,
    /// Matched to a guarantee that no admissible site was left for; the
    /// guarantee is absolute, so the site takes it outside the hard limits.
    ForcedGuarantee,
    /// The nearest admissible type (the normal case).
    Nearest,
    /// No type admitted the site; the highest-priority fallback took it.
    Fallback,
}

impl Assignment {
    /// Whether the site's type's hard limits are guaranteed to hold.
    pub fn within_hard_limits(self) -> bool {
        matches!(self, Assignment::Guarantee | Assignment::Nearest)
    }
}

/// One site of the island.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Site {
    /// Index in [`IslandMap::sites`].
    pub id: u32,
    /// Abstract x; the island is the disk of radius `ISLAND_RADIUS` at 0.
    pub x: f64,
    /// Abstract y.
    pub y: f64,
    /// Placed on the coast ring (not by best-candidate sampling).
    pub on_coast_ring: bool,
    /// Quantised axis values by axis name.
    pub axes: BTreeMap<String, f64>,
    /// The location type.
    pub location_type: String,
    /// How the type was chosen.
    pub assigned_by: Assignment,
    /// The site's name.
    pub name: LocationName,
}

/// One undirected edge of the path network (`a < b`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IslandEdge {
    /// The lower site id.
    pub a: u32,
    /// The higher site id.
    pub b: u32,
    /// Length in metres.
    pub meters: f64,
    /// Travel time in minutes: whole steps of `TRAVEL_MINUTES_STEP`, at
    /// least one.
    pub travel_minutes: u32,
    /// Part of the minimum spanning tree (otherwise re-added as a detour
    /// saver).
    pub mst: bool,
}

/// A generated island: sites and the path network between them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IslandMap {
    /// The seed it was generated from.
    pub seed: Seed,
    /// The scope it was generated for.
    pub scope: String,
    /// Sites by id: the coast ring first, then interior sites.
    pub sites: Vec<Site>,
    /// Edges sorted by `(a, b)`.
    pub edges: Vec<IslandEdge>,
}

impl IslandMap {
    /// The edges touching `site`, in `(a, b)` order.
    pub fn edges_of(&self, site: u32) -> impl Iterator<Item = &IslandEdge> {
        self.edges
            .iter()
            .filter(move |e| e.a == site || e.b == site)
    }

    /// Number of edges per site.
    pub fn degrees(&self) -> Vec<u32> {
        let mut d = vec![0u32; self.sites.len()];
        for e in &self.edges {
            d[e.a as usize] += 1;
            d[e.b as usize] += 1;
        }
        d
    }
}
