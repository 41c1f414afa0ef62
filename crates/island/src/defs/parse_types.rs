//! Location types and generation scopes: the YAML tree → drafts (see
//! `parse` for the shared machinery).

use super::parse::FileParser;
use super::{
    AxisPreference, CoastDef, ElevationDef, ExploreDef, Guarantee, HardLimit, LocationTypeDef,
    OrderBy, Prefer, ScopeDef, SeaRoutesDef, VariantDef,
};
use mangekyo_defs::read::{index, join};
use mangekyo_defs::yaml::{Node, Value};
use std::collections::BTreeMap;

/// The most sites a scope may ask for: ten times the 100k sites the
/// generator is benchmarked at, to refuse typos like `max: 1e12` before they
/// exhaust memory.
pub const MAX_SITE_COUNT: u32 = 1_000_000;

/// The fewest sites a scope may ask for: three non-collinear sites are the
/// smallest set with a triangulation (coast-ring sites never are collinear).
pub const MIN_SITE_COUNT: u32 = 3;

impl FileParser<'_, '_> {
    pub(crate) fn location_type(
        &mut self,
        name: &str,
        key: &Node,
        node: &Node,
        path: &str,
    ) -> Option<()> {
        let mut f = self.r.map(
            node,
            path,
            "a location type ({ object_def, axis_preferences, … })",
        )?;
        let object_def = f
            .req(&mut self.r, path, "object_def", "the name of an object def")
            .and_then(|n| {
                let p = join(path, "object_def");
                self.spot(n, &p);
                self.r.string(n, &p)
            });
        let preferences = f
            .req(
                &mut self.r,
                path,
                "axis_preferences",
                "a mapping from axes to { value, weight }",
            )
            .and_then(|n| self.preferences(n, &join(path, "axis_preferences")));
        let hard_limits = match f.opt("hard_limits") {
            Some(n) => self.hard_limits(n, &join(path, "hard_limits")),
            None => Some(BTreeMap::new()),
        };
        let fallback = match f.opt("fallback") {
            Some(n) => self.fallback(n, &join(path, "fallback")).map(Some),
            None => Some(None),
        };
        let variants = match f.opt("variants") {
            Some(n) => self.variants(n, &join(path, "variants")),
            None => Some(Vec::new()),
        };
        f.finish(
            &mut self.r,
            path,
            &[
                "object_def",
                "axis_preferences",
                "hard_limits",
                "fallback",
                "variants",
            ],
        );
        let def = LocationTypeDef {
            name: name.to_string(),
            object_def: object_def?,
            preferences: preferences?,
            hard_limits: hard_limits?,
            fallback: fallback?,
            variants: variants?,
            origin: self.origin(key),
        };
        self.draft.location_types.insert(name.to_string(), def);
        Some(())
    }

    fn preferences(&mut self, node: &Node, path: &str) -> Option<BTreeMap<String, AxisPreference>> {
        let mut f = self
            .r
            .map(node, path, "a mapping from axes to { value, weight }")?;
        let entries = f.all();
        if entries.is_empty() {
            self.r.error(
                node,
                path,
                "a location type needs at least one axis preference (it is how sites choose it)",
            );
            return None;
        }
        let mut out = BTreeMap::new();
        let mut ok = true;
        for (axis, key, value) in entries {
            let p = join(path, &axis);
            self.spot(key, &p);
            match self.preference(value, &p) {
                Some(pref) => {
                    out.insert(axis, pref);
                }
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// `{ value, weight }`, or a bare number (weight 1).
    fn preference(&mut self, node: &Node, path: &str) -> Option<AxisPreference> {
        if matches!(node.value, Value::Int(_) | Value::Float(_)) {
            return self
                .r
                .number(node, path)
                .map(|value| AxisPreference { value, weight: 1.0 });
        }
        let mut f = self.r.map(node, path, "{ value, weight } or a number")?;
        let value = f
            .req(&mut self.r, path, "value", "a number")
            .and_then(|n| self.r.number(n, &join(path, "value")));
        let weight = match f.opt("weight") {
            Some(n) => self
                .r
                .number_where(n, &join(path, "weight"), "> 0", |v| v > 0.0),
            None => Some(1.0),
        };
        f.finish(&mut self.r, path, &["value", "weight"]);
        Some(AxisPreference {
            value: value?,
            weight: weight?,
        })
    }

    fn hard_limits(&mut self, node: &Node, path: &str) -> Option<BTreeMap<String, HardLimit>> {
        let mut f = self
            .r
            .map(node, path, "a mapping from axes to { min, max }")?;
        let mut out = BTreeMap::new();
        let mut ok = true;
        for (axis, key, value) in f.all() {
            let p = join(path, &axis);
            self.spot(key, &p);
            match self.hard_limit(value, &p) {
                Some(l) => {
                    out.insert(axis, l);
                }
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn hard_limit(&mut self, node: &Node, path: &str) -> Option<HardLimit> {
        let mut f = self
            .r
            .map(node, path, "{ min, max } (either may be left out)")?;
        let min = f.opt("min").map(|n| self.r.number(n, &join(path, "min")));
        let max = f.opt("max").map(|n| self.r.number(n, &join(path, "max")));
        f.finish(&mut self.r, path, &["min", "max"]);
        if min.is_none() && max.is_none() {
            self.r
                .error(node, path, "a hard limit needs min, max or both");
            return None;
        }
        let limit = HardLimit {
            min: min.map_or(Some(None), |v| v.map(Some))?,
            max: max.map_or(Some(None), |v| v.map(Some))?,
        };
        if let (Some(lo), Some(hi)) = (limit.min, limit.max)
            && lo > hi
        {
            self.r
                .error(node, path, format!("min ({lo}) must not exceed max ({hi})"));
            return None;
        }
        Some(limit)
    }

    fn fallback(&mut self, node: &Node, path: &str) -> Option<i64> {
        let mut f = self.r.map(node, path, "{ priority }")?;
        let priority = f
            .req(
                &mut self.r,
                path,
                "priority",
                "a whole number; the highest priority wins",
            )
            .and_then(|n| {
                self.r.integer(
                    n,
                    &join(path, "priority"),
                    i64::from(i32::MIN),
                    i64::from(i32::MAX),
                )
            });
        f.finish(&mut self.r, path, &["priority"]);
        priority
    }

    fn variants(&mut self, node: &Node, path: &str) -> Option<Vec<VariantDef>> {
        let items = self.r.seq(node, path, "a list of { id, props }")?;
        let mut out: Vec<VariantDef> = Vec::new();
        let mut ok = true;
        for (i, item) in items.iter().enumerate() {
            let p = index(path, i);
            match self.variant(item, &p) {
                Some(v) if out.iter().any(|o| o.id == v.id) => {
                    self.r.error(
                        item,
                        &p,
                        format!("variant id '{}' is used twice in this type", v.id),
                    );
                    ok = false;
                }
                Some(v) => out.push(v),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn variant(&mut self, node: &Node, path: &str) -> Option<VariantDef> {
        let mut f = self.r.map(node, path, "{ id, props }")?;
        let id = f
            .req(&mut self.r, path, "id", "a name")
            .and_then(|n| self.r.string(n, &join(path, "id")));
        let mut props = Some(BTreeMap::new());
        if let Some(n) = f.opt("props") {
            let pp = join(path, "props");
            props = self
                .r
                .map(n, &pp, "a mapping from property names to numbers")
                .and_then(|mut pf| {
                    let mut out = BTreeMap::new();
                    let mut ok = true;
                    for (name, key, value) in pf.all() {
                        let p = join(&pp, &name);
                        self.spot(key, &p);
                        match self.r.number(value, &p) {
                            Some(v) => {
                                out.insert(name, v);
                            }
                            None => ok = false,
                        }
                    }
                    ok.then_some(out)
                });
        }
        f.finish(&mut self.r, path, &["id", "props"]);
        Some(VariantDef {
            id: id?,
            props: props?,
        })
    }

    pub(crate) fn scope(&mut self, name: &str, key: &Node, node: &Node, path: &str) -> Option<()> {
        let mut f = self.r.map(node, path, "a generation scope")?;
        let site_count = f
            .req(
                &mut self.r,
                path,
                "site_count",
                "{ min, max }, both inclusive",
            )
            .and_then(|n| self.site_count(n, &join(path, "site_count")));
        let meters = f
            .req(
                &mut self.r,
                path,
                "meters_per_distance_unit",
                "a number > 0",
            )
            .and_then(|n| {
                self.r
                    .number_where(n, &join(path, "meters_per_distance_unit"), "> 0", |v| {
                        v > 0.0
                    })
            });
        let elevation = f
            .req(&mut self.r, path, "elevation", "{ axis, top_meters }")
            .and_then(|n| self.elevation(n, &join(path, "elevation")));
        let detour = f
            .req(
                &mut self.r,
                path,
                "extra_edge_detour_threshold",
                "a number >= 1",
            )
            .and_then(|n| {
                self.r.number_where(
                    n,
                    &join(path, "extra_edge_detour_threshold"),
                    ">= 1 (a path is never shorter than the direct line)",
                    |v| v >= 1.0,
                )
            });
        let crowding = match f.opt("crowding_penalty_per_duplicate") {
            Some(n) => self.r.number_where(
                n,
                &join(path, "crowding_penalty_per_duplicate"),
                ">= 0",
                |v| v >= 0.0,
            ),
            None => Some(0.0),
        };
        let max_per_type = match f.opt("max_sites_per_type") {
            Some(n) => {
                self.spot(n, &join(path, "max_sites_per_type"));
                self.r
                    .integer(
                        n,
                        &join(path, "max_sites_per_type"),
                        1,
                        i64::from(MAX_SITE_COUNT),
                    )
                    .map(|v| Some(v as u32))
            }
            None => Some(None),
        };
        let coast = match f.opt("coast") {
            Some(n) => self.coast(n, &join(path, "coast")).map(Some),
            None => Some(None),
        };
        let guarantees = match f.opt("guarantees") {
            Some(n) => self.guarantees(n, &join(path, "guarantees")),
            None => Some(Vec::new()),
        };
        let start = f
            .req(
                &mut self.r,
                path,
                "start",
                "a list of location types, first match wins",
            )
            .and_then(|n| self.name_list(n, &join(path, "start")));
        let player = self.reference(&mut f, path, "player", "the object def of the explorer");
        let path_def = self.reference(
            &mut f,
            path,
            "path",
            "the object def every path spawns from",
        );
        let sea_routes = match f.opt("sea_routes") {
            Some(n) => self.sea_routes(n, &join(path, "sea_routes")).map(Some),
            None => Some(None),
        };
        let explore = f
            .req(&mut self.r, path, "explore", "{ minutes, progress }")
            .and_then(|n| self.explore(n, &join(path, "explore")));
        let endings = match f.opt("endings") {
            Some(n) => self.objects().endings(n, &join(path, "endings")),
            None => Some(Vec::new()),
        };
        let bot = match f.opt("bot") {
            Some(n) => self.objects().bot(n, &join(path, "bot")).map(Some),
            None => Some(None),
        };
        f.finish(&mut self.r, path, &SCOPE_KEYS);
        let scope = ScopeDef {
            endings: endings?,
            bot: bot?,
            name: name.to_string(),
            site_count: site_count?,
            meters_per_distance_unit: meters?,
            elevation: elevation?,
            extra_edge_detour_threshold: detour?,
            crowding_penalty_per_duplicate: crowding?,
            max_sites_per_type: max_per_type?,
            coast: coast?,
            guarantees: guarantees?,
            start: start?,
            player: player?,
            path: path_def?,
            sea_routes: sea_routes?,
            explore: explore?,
            origin: self.origin(key),
        };
        self.draft.scopes.insert(name.to_string(), scope);
        Some(())
    }

    /// A required string key whose position is kept for cross-checks.
    fn reference(
        &mut self,
        f: &mut mangekyo_defs::read::Fields,
        path: &str,
        key: &str,
        what: &str,
    ) -> Option<String> {
        let n = f.req(&mut self.r, path, key, what)?;
        let p = join(path, key);
        self.spot(n, &p);
        self.r.string(n, &p)
    }

    /// `{ between, path, nearest, meters_per_minute }`.
    fn sea_routes(&mut self, node: &Node, path: &str) -> Option<SeaRoutesDef> {
        self.spot(node, path);
        let mut f = self
            .r
            .map(node, path, "{ between, path, nearest, meters_per_minute }")?;
        let between = self.reference(
            &mut f,
            path,
            "between",
            "the location type whose sites the boats link",
        );
        let path_def = self.reference(
            &mut f,
            path,
            "path",
            "the object def each sea route spawns as (kind path)",
        );
        let nearest = match f.opt("nearest") {
            Some(n) => self
                .r
                .integer(n, &join(path, "nearest"), 1, i64::from(MAX_SITE_COUNT))
                .map(|v| Some(v as u32)),
            None => Some(None),
        };
        let speed = f
            .req(
                &mut self.r,
                path,
                "meters_per_minute",
                "the boats' speed, a number >= 1",
            )
            .and_then(|n| {
                self.r
                    .number_where(n, &join(path, "meters_per_minute"), ">= 1", |v| v >= 1.0)
            });
        f.finish(
            &mut self.r,
            path,
            &["between", "path", "nearest", "meters_per_minute"],
        );
        Some(SeaRoutesDef {
            between: between?,
            path: path_def?,
            nearest: nearest?,
            meters_per_minute: speed?,
        })
    }

    fn site_count(&mut self, node: &Node, path: &str) -> Option<(u32, u32)> {
        self.spot(node, path);
        let mut f = self.r.map(node, path, "{ min, max }")?;
        let (lo, hi) = (i64::from(MIN_SITE_COUNT), i64::from(MAX_SITE_COUNT));
        let min = f
            .req(&mut self.r, path, "min", "a whole number")
            .and_then(|n| self.r.integer(n, &join(path, "min"), lo, hi));
        let max = f
            .req(&mut self.r, path, "max", "a whole number")
            .and_then(|n| self.r.integer(n, &join(path, "max"), lo, hi));
        f.finish(&mut self.r, path, &["min", "max"]);
        let (min, max) = (min?, max?);
        if min > max {
            self.r.error(
                node,
                path,
                format!("min ({min}) must not exceed max ({max})"),
            );
            return None;
        }
        Some((min as u32, max as u32))
    }

    fn elevation(&mut self, node: &Node, path: &str) -> Option<ElevationDef> {
        let mut f = self.r.map(node, path, "{ axis, top_meters }")?;
        let axis = self.reference(&mut f, path, "axis", "the elevation axis");
        let top = f
            .req(
                &mut self.r,
                path,
                "top_meters",
                "metres at the axis maximum",
            )
            .and_then(|n| {
                self.r
                    .number_where(n, &join(path, "top_meters"), ">= 0", |v| v >= 0.0)
            });
        f.finish(&mut self.r, path, &["axis", "top_meters"]);
        Some(ElevationDef {
            axis: axis?,
            top_meters: top?,
        })
    }

    fn coast(&mut self, node: &Node, path: &str) -> Option<CoastDef> {
        let mut f = self
            .r
            .map(node, path, "{ clamp_ring_sites, band_max_distance }")?;
        let clamp = f
            .req(&mut self.r, path, "clamp_ring_sites", "true or false")
            .and_then(|n| self.r.boolean(n, &join(path, "clamp_ring_sites")));
        let band = f
            .req(
                &mut self.r,
                path,
                "band_max_distance",
                "a coastal_distance value",
            )
            .and_then(|n| {
                let p = join(path, "band_max_distance");
                self.spot(n, &p);
                self.r.number(n, &p)
            });
        f.finish(
            &mut self.r,
            path,
            &["clamp_ring_sites", "band_max_distance"],
        );
        Some(CoastDef {
            clamp_ring_sites: clamp?,
            band_max_distance: band?,
        })
    }

    fn guarantees(&mut self, node: &Node, path: &str) -> Option<Vec<Guarantee>> {
        let items = self
            .r
            .seq(node, path, "a list of { type, count, order_by }")?;
        let parsed: Vec<Option<Guarantee>> = items
            .iter()
            .enumerate()
            .map(|(i, n)| self.guarantee(n, &index(path, i)))
            .collect();
        parsed.into_iter().collect()
    }

    fn guarantee(&mut self, node: &Node, path: &str) -> Option<Guarantee> {
        let mut f = self.r.map(node, path, "{ type, count, order_by }")?;
        let ty = self.reference(&mut f, path, "type", "a location type");
        let count = f
            .req(&mut self.r, path, "count", "a whole number >= 1")
            .and_then(|n| {
                self.r
                    .integer(n, &join(path, "count"), 1, i64::from(MAX_SITE_COUNT))
            });
        let order_by = match f.opt("order_by") {
            Some(n) => self.order_by(n, &join(path, "order_by")).map(Some),
            None => Some(None),
        };
        f.finish(&mut self.r, path, &["type", "count", "order_by"]);
        Some(Guarantee {
            location_type: ty?,
            count: count? as u32,
            order_by: order_by?,
        })
    }

    fn order_by(&mut self, node: &Node, path: &str) -> Option<OrderBy> {
        let mut f = self.r.map(node, path, "{ axis, prefer }")?;
        let axis = self.reference(&mut f, path, "axis", "an axis");
        let prefer = f
            .req(&mut self.r, path, "prefer", "lowest or highest")
            .and_then(|n| {
                let p = join(path, "prefer");
                match self.r.string(n, &p)?.as_str() {
                    "lowest" => Some(Prefer::Lowest),
                    "highest" => Some(Prefer::Highest),
                    other => {
                        self.r.error(
                            n,
                            &p,
                            format!("unknown preference '{other}'; expected lowest or highest"),
                        );
                        None
                    }
                }
            });
        f.finish(&mut self.r, path, &["axis", "prefer"]);
        Some(OrderBy {
            axis: axis?,
            prefer: prefer?,
        })
    }

    fn name_list(&mut self, node: &Node, path: &str) -> Option<Vec<String>> {
        self.spot(node, path);
        let items = self.r.seq(node, path, "a list of names")?;
        if items.is_empty() {
            self.r.error(node, path, "the list must not be empty");
            return None;
        }
        let names: Vec<Option<String>> = items
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let p = index(path, i);
                self.spot(n, &p);
                self.r.string(n, &p)
            })
            .collect();
        names.into_iter().collect()
    }

    fn explore(&mut self, node: &Node, path: &str) -> Option<ExploreDef> {
        let mut f = self.r.map(node, path, "{ minutes, progress }")?;
        let minutes = f
            .req(&mut self.r, path, "minutes", "a whole number >= 1")
            .and_then(|n| self.r.integer(n, &join(path, "minutes"), 1, 24 * 60));
        let progress = f
            .req(&mut self.r, path, "progress", "a number > 0")
            .and_then(|n| {
                self.r
                    .number_where(n, &join(path, "progress"), "> 0", |v| v > 0.0)
            });
        f.finish(&mut self.r, path, &["minutes", "progress"]);
        Some(ExploreDef {
            minutes: minutes? as u32,
            progress: progress?,
        })
    }
}

/// The keys a generation scope may hold.
const SCOPE_KEYS: [&str; 15] = [
    "endings",
    "bot",
    "site_count",
    "meters_per_distance_unit",
    "elevation",
    "extra_edge_detour_threshold",
    "crowding_penalty_per_duplicate",
    "max_sites_per_type",
    "coast",
    "guarantees",
    "start",
    "player",
    "path",
    "sea_routes",
    "explore",
];
