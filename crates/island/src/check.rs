//! Designer checks beyond validity: unused definitions, missing and
//! clashing translations, types that only a fallback could ever produce.

use crate::defs::{COASTAL_DISTANCE_AXIS, Definitions};
use mangekyo_defs::Origin;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One thing worth a designer's look (the definitions are still valid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Key path of the definition concerned.
    pub path: String,
    /// Where it was defined, if it is a definition.
    pub origin: Option<Origin>,
    /// What is off.
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.origin {
            Some(o) => write!(f, "{o}: {}: {}", self.path, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

/// Every finding, in a stable order.
pub fn check(defs: &Definitions) -> Vec<Finding> {
    let mut out = Vec::new();
    unused_object_defs(defs, &mut out);
    unused_axes(defs, &mut out);
    impossible_types(defs, &mut out);
    idle_boats(defs, &mut out);
    translations(defs, &mut out);
    out
}

fn unused_object_defs(defs: &Definitions, out: &mut Vec<Finding>) {
    let mut used: BTreeSet<&str> = defs
        .location_types()
        .values()
        .map(|t| t.object_def.as_str())
        .collect();
    for s in defs.scopes().values() {
        used.insert(&s.player);
        used.insert(&s.path);
        if let Some(sea) = &s.sea_routes {
            used.insert(&sea.path);
        }
    }
    for (name, def) in defs.object_defs() {
        if !used.contains(name.as_str()) {
            out.push(Finding {
                path: format!("object_defs.{name}"),
                origin: Some(def.origin.clone()),
                message: "used by no location type or scope".into(),
            });
        }
    }
}

fn unused_axes(defs: &Definitions, out: &mut Vec<Finding>) {
    let mut used: BTreeSet<&str> = BTreeSet::new();
    for t in defs.location_types().values() {
        used.extend(t.preferences.keys().map(String::as_str));
        used.extend(t.hard_limits.keys().map(String::as_str));
    }
    for s in defs.scopes().values() {
        used.insert(&s.elevation.axis);
        used.extend(
            s.guarantees
                .iter()
                .filter_map(|g| g.order_by.as_ref())
                .map(|o| o.axis.as_str()),
        );
        if s.coast.is_some_and(|c| c.clamp_ring_sites) {
            used.insert(COASTAL_DISTANCE_AXIS);
        }
    }
    for (name, axis) in defs.axes() {
        if !used.contains(name.as_str()) {
            out.push(Finding {
                path: format!("axes.{name}"),
                origin: Some(axis.origin.clone()),
                message: "sampled for every site but used by no type, guarantee or scope".into(),
            });
        }
    }
}

/// Types whose hard limits no grid value satisfies can only appear as a
/// fallback (or a forced guarantee).
fn impossible_types(defs: &Definitions, out: &mut Vec<Finding>) {
    for t in defs.location_types().values() {
        for (axis, lim) in &t.hard_limits {
            let r = defs.axes()[axis].range;
            if !(0..=r.levels()).any(|k| lim.admits(r.level_value(k))) {
                out.push(Finding {
                    path: format!("location_types.{}.hard_limits.{axis}", t.name),
                    origin: Some(t.origin.clone()),
                    message: format!(
                        "admits no value of axis '{axis}', so the type is only ever a fallback"
                    ),
                });
            }
        }
    }
}

/// Sea routes that could never be sailed: one site of the type at most,
/// or a path def with nothing to do on it.
fn idle_boats(defs: &Definitions, out: &mut Vec<Finding>) {
    for s in defs.scopes().values() {
        let Some(sea) = &s.sea_routes else { continue };
        let path = format!("generation_scopes.{}.sea_routes", s.name);
        if s.max_sites_per_type == Some(1) {
            out.push(Finding {
                path: path.clone(),
                origin: Some(s.origin.clone()),
                message: format!(
                    "max_sites_per_type is 1, so no island has two '{}' sites to link",
                    sea.between
                ),
            });
        }
        if defs
            .object_defs()
            .get(&sea.path)
            .is_some_and(|d| d.interactions.is_empty())
        {
            out.push(Finding {
                path,
                origin: Some(s.origin.clone()),
                message: format!(
                    "object_def '{}' declares no interaction, so no sea route can be used",
                    sea.path
                ),
            });
        }
    }
}

fn translations(defs: &Definitions, out: &mut Vec<Finding>) {
    let loc = defs.localization();
    if loc.languages().is_empty() {
        out.push(Finding {
            path: "localization".into(),
            origin: None,
            message: "no language defined; names show as identifiers".into(),
        });
    }
    for lang in loc.languages().keys() {
        for missing in loc.missing(lang, defs) {
            out.push(Finding {
                path: format!("localization.{lang}.{missing}"),
                origin: None,
                message: "missing translation (players would see the identifier)".into(),
            });
        }
        clashing_labels(defs, lang, out);
    }
}

/// Two different names with the same text in one language would confuse a
/// player (the identifiers stay unique; the text would not).
fn clashing_labels(defs: &Definitions, lang: &str, out: &mut Vec<Finding>) {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for (ty, def) in defs.location_types() {
        let mut names = vec![(
            ty.clone(),
            crate::LocationName {
                location_type: ty.clone(),
                variant: None,
                ordinal: None,
            },
        )];
        for v in &def.variants {
            let name = crate::LocationName {
                location_type: ty.clone(),
                variant: Some(v.id.clone()),
                ordinal: None,
            };
            names.push((format!("{ty}/{}", v.id), name));
        }
        for (id, name) in names {
            let text = defs.localization().label(lang, &name);
            if let Some(other) = seen.insert(text.clone(), id.clone()) {
                out.push(Finding {
                    path: format!("localization.{lang}"),
                    origin: None,
                    message: format!("'{other}' and '{id}' are both shown as \"{text}\""),
                });
            }
        }
    }
}
