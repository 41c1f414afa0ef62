//! Cross-references and feasibility, checked once every file is loaded:
//! every name a definition uses exists and has the right kind, and every
//! scope's guarantees can be met.

use super::parse::Draft;
use super::{AxisDef, Definitions, LocationTypeDef, ScopeDef};
use crate::error::Diagnostic;
use mangekyo_defs::check::InteractionChecker;
use mangekyo_defs::read::{Spot, suggestion};
use mangekyo_defs::{ObjectDef, ObjectKind, PROGRESS_PROPERTY};
use std::collections::BTreeMap;

/// The most axis-value combinations the coverage check enumerates; past it
/// the check is skipped and generation reports an uncovered site instead.
pub const MAX_COVERAGE_POINTS: usize = 1_000_000;

/// Checks a complete draft; the definitions are usable only if the returned
/// list is empty.
pub(crate) fn resolve(draft: Draft) -> (Definitions, Vec<Diagnostic>) {
    let mut c = Checker {
        draft: &draft,
        diags: Vec::new(),
    };
    for ty in draft.location_types.values() {
        c.location_type(ty);
    }
    for scope in draft.scopes.values() {
        c.scope(scope);
    }
    c.coverage();
    c.localization();
    let mut ic = InteractionChecker::new(&draft.object_defs, path_ends(&draft));
    ic.check_all();
    for s in draft.scopes.values() {
        let base = format!("generation_scopes.{}", s.name);
        for (i, e) in s.endings.iter().enumerate() {
            ic.ending(&s.player, &e.when, &format!("{base}.endings[{i}].when"));
        }
        if let Some(b) = &s.bot {
            ic.bot_weights(b.weights.keys(), &format!("{base}.bot.weights"));
        }
    }
    for (path, message) in ic.errors {
        c.at(&path, message);
    }
    let diags = c.diags;
    let defs = Definitions {
        object_defs: draft.object_defs,
        axes: draft.axes,
        location_types: draft.location_types,
        scopes: draft.scopes,
        localization: draft.localization,
    };
    (defs, diags)
}

/// Where the paths of each path def can lie, as the spawner makes them: a
/// scope's `path` links any two locations, its `sea_routes.path` only
/// sites of the `between` type. `None`: any location (also for a path def
/// no scope uses); a path def whose only user is broken maps to no def,
/// so the broken reference is reported once, not again per property.
fn path_ends(draft: &Draft) -> BTreeMap<String, Option<Vec<String>>> {
    let mut ends: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    for s in draft.scopes.values() {
        ends.insert(s.path.clone(), None);
    }
    for s in draft.scopes.values() {
        let Some(sea) = &s.sea_routes else { continue };
        let Some(list) = ends
            .entry(sea.path.clone())
            .or_insert_with(|| Some(Vec::new()))
        else {
            continue;
        };
        if let Some(ty) = draft.location_types.get(&sea.between)
            && !list.contains(&ty.object_def)
        {
            list.push(ty.object_def.clone());
        }
    }
    ends
}

struct Checker<'d> {
    draft: &'d Draft,
    diags: Vec<Diagnostic>,
}

impl<'d> Checker<'d> {
    /// Reports at the spot of `path`, or of its nearest recorded parent.
    fn at(&mut self, path: &str, message: String) {
        let mut key = path;
        let spot = loop {
            if let Some(spot) = self.draft.spots.get(key) {
                break spot.clone();
            }
            match key.rfind(['.', '[']) {
                Some(i) => key = &key[..i],
                None => {
                    break Spot {
                        file: String::new(),
                        line: 0,
                        column: 0,
                        source_line: None,
                    };
                }
            }
        };
        self.diags.push(spot.diagnostic(path, message));
    }

    /// Whether `section.name` exists; reports it at `path` if it does not
    /// (unless it is a definition that already failed).
    fn exists<T>(
        &mut self,
        map: &BTreeMap<String, T>,
        section: &str,
        what: &str,
        name: &str,
        path: &str,
    ) -> bool {
        if map.contains_key(name) {
            return true;
        }
        if !self.draft.broken.contains(&format!("{section}.{name}")) {
            let hint = suggestion(name, map.keys().map(String::as_str))
                .map(|s| format!(" (did you mean '{s}'?)"))
                .unwrap_or_default();
            let known = if map.is_empty() {
                "none".to_string()
            } else {
                map.keys().cloned().collect::<Vec<_>>().join(", ")
            };
            self.at(
                path,
                format!("unknown {what} '{name}'{hint}; known: {known}"),
            );
        }
        false
    }

    fn axis(&mut self, name: &str, path: &str) -> Option<&'d AxisDef> {
        let draft = self.draft;
        self.exists(&draft.axes, "axes", "axis", name, path)
            .then(|| &draft.axes[name])
    }

    fn object_def(&mut self, name: &str, kind: ObjectKind, path: &str) -> Option<&'d ObjectDef> {
        let draft = self.draft;
        if !self.exists(&draft.object_defs, "object_defs", "object_def", name, path) {
            return None;
        }
        let def = &draft.object_defs[name];
        if def.kind != kind {
            self.at(
                path,
                format!(
                    "object_def '{name}' is a {}, but a {} is needed here",
                    def.kind.as_str(),
                    kind.as_str()
                ),
            );
            return None;
        }
        Some(def)
    }

    fn location_type(&mut self, ty: &'d LocationTypeDef) {
        let base = format!("location_types.{}", ty.name);
        let def = self.object_def(
            &ty.object_def,
            ObjectKind::Location,
            &format!("{base}.object_def"),
        );
        if let Some(def) = def {
            match def.properties.get(PROGRESS_PROPERTY) {
                Some(r) if r.max > r.min => {}
                _ => self.at(
                    &format!("{base}.object_def"),
                    format!(
                        "object_def '{}' needs a '{PROGRESS_PROPERTY}' property with min < max (a location's exploration progress; its max is 100% explored)",
                        def.name
                    ),
                ),
            }
        }
        for (axis, pref) in &ty.preferences {
            let path = format!("{base}.axis_preferences.{axis}");
            if let Some(a) = self.axis(axis, &path)
                && !(a.range.min..=a.range.max).contains(&pref.value)
            {
                let (lo, hi) = (a.range.min, a.range.max);
                self.at(
                    &path,
                    format!(
                        "preferred value {} is outside axis '{axis}' ({lo}..={hi})",
                        pref.value
                    ),
                );
            }
        }
        for axis in ty.hard_limits.keys() {
            self.axis(axis, &format!("{base}.hard_limits.{axis}"));
        }
        let Some(def) = def else { return };
        for (i, v) in ty.variants.iter().enumerate() {
            for (prop, &value) in &v.props {
                let path = format!("{base}.variants[{i}].props.{prop}");
                match def.properties.get(prop) {
                    None => {
                        let known = def
                            .properties
                            .keys()
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ");
                        self.at(
                            &path,
                            format!(
                                "object_def '{}' has no property '{prop}'; known: {known}",
                                def.name
                            ),
                        );
                    }
                    Some(r) if !(r.min..=r.max).contains(&value) => {
                        self.at(
                            &path,
                            format!(
                                "{value} is outside property '{prop}' ({}..={})",
                                r.min, r.max
                            ),
                        );
                    }
                    Some(_) => {}
                }
            }
        }
    }

    fn scope(&mut self, s: &ScopeDef) {
        let base = format!("generation_scopes.{}", s.name);
        let draft = self.draft;
        let mut refs_ok = self
            .axis(&s.elevation.axis, &format!("{base}.elevation.axis"))
            .is_some();
        for (i, g) in s.guarantees.iter().enumerate() {
            let path = format!("{base}.guarantees[{i}]");
            refs_ok &= self.exists(
                &draft.location_types,
                "location_types",
                "location type",
                &g.location_type,
                &format!("{path}.type"),
            );
            if let Some(o) = &g.order_by {
                refs_ok &= self
                    .axis(&o.axis, &format!("{path}.order_by.axis"))
                    .is_some();
            }
        }
        for (i, t) in s.start.iter().enumerate() {
            refs_ok &= self.exists(
                &draft.location_types,
                "location_types",
                "location type",
                t,
                &format!("{base}.start[{i}]"),
            );
        }
        self.object_def(&s.player, ObjectKind::Character, &format!("{base}.player"));
        self.object_def(&s.path, ObjectKind::Path, &format!("{base}.path"));
        if let Some(sea) = &s.sea_routes {
            let path = format!("{base}.sea_routes");
            self.exists(
                &draft.location_types,
                "location_types",
                "location type",
                &sea.between,
                &format!("{path}.between"),
            );
            self.object_def(&sea.path, ObjectKind::Path, &format!("{path}.path"));
        }
        if let Some(coast) = s.coast
            && coast.clamp_ring_sites
        {
            let path = format!("{base}.coast.band_max_distance");
            if !draft.axes.contains_key(super::COASTAL_DISTANCE_AXIS) {
                self.at(
                    &path,
                    format!(
                        "clamp_ring_sites needs an axis named '{}'",
                        super::COASTAL_DISTANCE_AXIS
                    ),
                );
            } else {
                let r = draft.axes[super::COASTAL_DISTANCE_AXIS].range;
                if !(r.min..=r.max).contains(&coast.band_max_distance) {
                    self.at(
                        &path,
                        format!(
                            "{} is outside axis '{}' ({}..={})",
                            coast.band_max_distance,
                            super::COASTAL_DISTANCE_AXIS,
                            r.min,
                            r.max
                        ),
                    );
                }
            }
        }
        if refs_ok {
            self.feasibility(s, &base);
        }
    }

    /// Guarantees that no island could meet are rejected here, not
    /// discovered by a generator that must return them.
    fn feasibility(&mut self, s: &ScopeDef, base: &str) {
        let total: u64 = s.guarantees.iter().map(|g| u64::from(g.count)).sum();
        if total > u64::from(s.site_count.0) {
            self.at(
                &format!("{base}.site_count"),
                format!("guarantees ask for {total} sites but site_count.min is {}; an island of that size could not hold them", s.site_count.0),
            );
        }
        let mut per_type: BTreeMap<&str, u64> = BTreeMap::new();
        for g in &s.guarantees {
            *per_type.entry(&g.location_type).or_default() += u64::from(g.count);
        }
        if let Some(cap) = s.max_sites_per_type {
            for (ty, n) in &per_type {
                if *n > u64::from(cap) {
                    self.at(
                        &format!("{base}.max_sites_per_type"),
                        format!(
                            "guarantees ask for {n} '{ty}' sites but max_sites_per_type is {cap}"
                        ),
                    );
                }
            }
        }
        for (i, g) in s.guarantees.iter().enumerate() {
            let ty = &self.draft.location_types[&g.location_type];
            for (axis, lim) in &ty.hard_limits {
                let Some(a) = self.draft.axes.get(axis) else {
                    continue;
                };
                let r = a.range;
                if !(0..=r.levels()).any(|k| lim.admits(r.level_value(k))) {
                    self.at(
                        &format!("{base}.guarantees[{i}].type"),
                        format!(
                            "guarantee of '{}' cannot be met: its hard limit on '{axis}' ({}) admits no value of the axis ({}..={} step {})",
                            g.location_type,
                            describe_limit(lim),
                            r.min,
                            r.max,
                            r.step
                        ),
                    );
                }
            }
        }
        if !s.start.iter().any(|t| per_type.contains_key(t.as_str())) {
            self.at(
                &format!("{base}.start"),
                format!("none of the start types ({}) is guaranteed, so an island could have no start site; add a guarantee for one", s.start.join(", ")),
            );
        }
    }

    /// Without a fallback type, every quantised axis combination must be
    /// accepted by some type, or generation could meet a site nobody takes.
    fn coverage(&mut self) {
        let types = &self.draft.location_types;
        if types.is_empty() || types.values().any(|t| t.fallback.is_some()) {
            return;
        }
        if let Some(point) = uncovered_point(&self.draft.axes, types) {
            let first = types
                .values()
                .next()
                .map(|t| format!("location_types.{}", t.name))
                .unwrap_or_default();
            let desc = point
                .iter()
                .map(|(a, v)| format!("{a}={v}"))
                .collect::<Vec<_>>()
                .join(", ");
            self.at(
                &first,
                format!("no location type accepts sites with {desc} and no type has a fallback; widen a hard limit or add `fallback: {{ priority: 1 }}` to a type"),
            );
        }
    }

    fn localization(&mut self) {
        let draft = self.draft;
        for (lang, l) in &draft.localization.languages {
            for (ty, names) in &l.location_types {
                let path = format!("localization.{lang}.location_types.{ty}");
                if !self.exists(
                    &draft.location_types,
                    "location_types",
                    "location type",
                    ty,
                    &path,
                ) {
                    continue;
                }
                let def = &draft.location_types[ty];
                for id in names.variants.keys() {
                    if !def.variants.iter().any(|v| &v.id == id) {
                        let known = def
                            .variants
                            .iter()
                            .map(|v| v.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ");
                        self.at(
                            &format!("{path}.variants.{id}"),
                            format!("location type '{ty}' has no variant '{id}'; known: {known}"),
                        );
                    }
                }
            }
        }
    }
}

fn describe_limit(l: &super::HardLimit) -> String {
    match (l.min, l.max) {
        (Some(a), Some(b)) => format!("{a}..={b}"),
        (Some(a), None) => format!("min {a}"),
        (None, Some(b)) => format!("max {b}"),
        (None, None) => "none".into(),
    }
}

/// An axis combination no type's hard limits admit, if any. Only grid values
/// where some limit starts or stops are tried (one representative of each
/// class of values that every limit treats alike).
fn uncovered_point(
    axes: &BTreeMap<String, AxisDef>,
    types: &BTreeMap<String, LocationTypeDef>,
) -> Option<Vec<(String, f64)>> {
    let mut reps: Vec<(String, Vec<f64>)> = Vec::new();
    for (name, axis) in axes {
        let limits: Vec<_> = types
            .values()
            .filter_map(|t| t.hard_limits.get(name))
            .collect();
        if limits.is_empty() {
            continue;
        }
        let r = axis.range;
        let mut vals = vec![r.min];
        for lim in limits {
            let grid = |pred: &dyn Fn(f64) -> bool| {
                (0..=r.levels())
                    .map(|k| r.level_value(k))
                    .find(|&v| pred(v))
            };
            if let Some(lo) = lim.min {
                vals.extend(grid(&|v| v >= lo));
            }
            if let Some(hi) = lim.max {
                vals.extend(grid(&|v| v > hi));
            }
        }
        vals.sort_by(f64::total_cmp);
        vals.dedup();
        reps.push((name.clone(), vals));
    }
    let total = reps
        .iter()
        .try_fold(1usize, |acc, (_, v)| acc.checked_mul(v.len()))?;
    if total > MAX_COVERAGE_POINTS {
        return None;
    }
    let mut point: BTreeMap<String, f64> = BTreeMap::new();
    for i in 0..total {
        let mut rest = i;
        for (name, vals) in &reps {
            point.insert(name.clone(), vals[rest % vals.len()]);
            rest /= vals.len();
        }
        if !types.values().any(|t| t.admits(&point)) {
            return Some(point.into_iter().collect());
        }
    }
    None
}
