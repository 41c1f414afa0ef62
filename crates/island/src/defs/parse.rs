//! The YAML tree of one file → draft definitions: shapes, types and value
//! ranges are checked here, references to other definitions later (in
//! `resolve`, once every file is in).

use super::{AxisDef, AxisRange, LayerDef, LayerKind, Localization, TypeNames};
use crate::error::Diagnostic;
use mangekyo_defs::parse::ObjectParser;
use mangekyo_defs::read::{Fields, Reader, Spots, index, join};
use mangekyo_defs::yaml::{Node, Value};
use mangekyo_defs::{ObjectDef, Origin};
use std::collections::{BTreeMap, BTreeSet};

/// The most grid levels an axis may have (a guard against `step: 1e-12`).
pub const MAX_AXIS_LEVELS: u64 = 1_000_000;

/// The top-level keys a definitions file may hold.
pub(crate) const ROOT_KEYS: [&str; 5] = [
    "object_defs",
    "axes",
    "location_types",
    "generation_scopes",
    "localization",
];

/// Definitions collected so far over all files, with the positions of every
/// definition key and every reference (by key path), and the names of
/// definitions that had errors (references to them are not reported again).
#[derive(Default)]
pub(crate) struct Draft {
    pub(crate) object_defs: BTreeMap<String, ObjectDef>,
    pub(crate) axes: BTreeMap<String, AxisDef>,
    pub(crate) location_types: BTreeMap<String, super::LocationTypeDef>,
    pub(crate) scopes: BTreeMap<String, super::ScopeDef>,
    pub(crate) localization: Localization,
    pub(crate) broken: BTreeSet<String>,
    pub(crate) spots: Spots,
    pub(crate) diags: Vec<Diagnostic>,
}

impl Draft {
    /// Whether a definition path like `axes.elevation` is taken (defined or
    /// broken).
    fn taken(&self, path: &str) -> Option<String> {
        if self.broken.contains(path) || self.is_defined(path) {
            return Some(
                self.spots
                    .get(path)
                    .map(|s| format!("{}:{}:{}", s.file, s.line, s.column))
                    .unwrap_or_default(),
            );
        }
        None
    }

    fn is_defined(&self, path: &str) -> bool {
        let (section, name) = path.split_once('.').unwrap_or((path, ""));
        match section {
            "object_defs" => self.object_defs.contains_key(name),
            "axes" => self.axes.contains_key(name),
            "location_types" => self.location_types.contains_key(name),
            "generation_scopes" => self.scopes.contains_key(name),
            _ => false,
        }
    }
}

/// Reading state of one file: the shared draft plus the file's reader.
pub(crate) struct FileParser<'d, 's> {
    pub(crate) draft: &'d mut Draft,
    pub(crate) r: Reader<'s>,
}

impl<'d, 's> FileParser<'d, 's> {
    /// Records the position of `node` under `path`.
    pub(crate) fn spot(&mut self, node: &Node, path: &str) {
        let spot = self.r.spot(node);
        self.draft.spots.insert(path.to_string(), spot);
    }

    /// The origin of a definition whose key is `node`.
    pub(crate) fn origin(&self, node: &Node) -> Origin {
        self.r.origin(node)
    }

    /// The world engine's parser over this file's reader and the set's
    /// spots (object defs, a scope's `endings` and `bot`).
    pub(crate) fn objects(&mut self) -> ObjectParser<'_, 's> {
        ObjectParser {
            r: &mut self.r,
            spots: &mut self.draft.spots,
        }
    }

    /// Claims `section.name` for a new definition, reporting duplicates.
    pub(crate) fn claim(&mut self, key: &Node, path: &str, what: &str) -> bool {
        if let Some(at) = self.draft.taken(path) {
            let name = path.split_once('.').map_or(path, |(_, n)| n);
            self.r.error(
                key,
                path,
                format!("{what} '{name}' is already defined at {at}"),
            );
            return false;
        }
        self.spot(key, path);
        true
    }

    /// Runs `parse` for one definition and files the result, or marks the
    /// name broken if it reported anything.
    pub(crate) fn define<T>(
        &mut self,
        key: &Node,
        path: &str,
        what: &str,
        parse: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Option<T> {
        if !self.claim(key, path, what) {
            return None;
        }
        let before = self.r.diags.len();
        let out = parse(self);
        if out.is_none() || self.r.diags.len() > before {
            self.draft.broken.insert(path.to_string());
            return None;
        }
        out
    }

    /// Parses the whole file.
    pub(crate) fn file(&mut self, root: &Node) {
        if root.value == Value::Null {
            return;
        }
        let Some(mut f) = self
            .r
            .map(root, "", "a mapping of sections (object_defs, axes, …)")
        else {
            return;
        };
        for (key, _, value) in section_entries(&mut f) {
            match key.as_str() {
                "object_defs" => self.each(
                    value,
                    "object_defs",
                    ("object def", "object defs"),
                    Self::object_def,
                ),
                "axes" => self.each(value, "axes", ("axis", "axes"), Self::axis),
                "location_types" => self.each(
                    value,
                    "location_types",
                    ("location type", "location types"),
                    Self::location_type,
                ),
                "generation_scopes" => self.each(
                    value,
                    "generation_scopes",
                    ("generation scope", "generation scopes"),
                    Self::scope,
                ),
                "localization" => self.localization(value),
                _ => {}
            }
        }
        f.finish(&mut self.r, "", &ROOT_KEYS);
    }

    /// Parses each `name: definition` entry of a section.
    fn each(
        &mut self,
        node: &Node,
        section: &str,
        (what, plural): (&str, &str),
        mut parse: impl FnMut(&mut Self, &str, &Node, &Node, &str) -> Option<()>,
    ) {
        if node.value == Value::Null {
            return;
        }
        let Some(mut f) = self
            .r
            .map(node, section, &format!("a mapping from names to {plural}"))
        else {
            return;
        };
        for (name, key, value) in f.all() {
            let path = join(section, &name);
            self.define(key, &path, what, |p| parse(p, &name, key, value, &path));
        }
    }

    fn object_def(&mut self, name: &str, key: &Node, node: &Node, path: &str) -> Option<()> {
        let def = self.objects().object_def(name, key, node, path)?;
        self.draft.object_defs.insert(name.to_string(), def);
        Some(())
    }

    fn axis(&mut self, name: &str, key: &Node, node: &Node, path: &str) -> Option<()> {
        let mut f = self.r.map(node, path, "an axis ({ range, layers })")?;
        let range = f
            .req(&mut self.r, path, "range", "{ min, max, step }")
            .and_then(|n| self.axis_range(n, &join(path, "range")));
        let layers = f
            .req(&mut self.r, path, "layers", "a list of layers")
            .and_then(|n| self.layers(n, &join(path, "layers")));
        f.finish(&mut self.r, path, &["range", "layers"]);
        let def = AxisDef {
            name: name.to_string(),
            range: range?,
            layers: layers?,
            origin: self.origin(key),
        };
        self.draft.axes.insert(name.to_string(), def);
        Some(())
    }

    fn axis_range(&mut self, node: &Node, path: &str) -> Option<AxisRange> {
        let mut f = self.r.map(node, path, "{ min, max, step }")?;
        let min = f
            .req(&mut self.r, path, "min", "a number")
            .and_then(|n| self.r.number(n, &join(path, "min")));
        let max = f
            .req(&mut self.r, path, "max", "a number")
            .and_then(|n| self.r.number(n, &join(path, "max")));
        let step = f
            .req(&mut self.r, path, "step", "a number > 0")
            .and_then(|n| {
                self.r
                    .number_where(n, &join(path, "step"), "> 0", |v| v > 0.0)
            });
        f.finish(&mut self.r, path, &["min", "max", "step"]);
        let range = AxisRange {
            min: min?,
            max: max?,
            step: step?,
        };
        if range.min >= range.max {
            self.r.error(
                node,
                path,
                format!("min ({}) must be below max ({})", range.min, range.max),
            );
            return None;
        }
        let steps = range.span() / range.step;
        if (steps - steps.round()).abs() > 1e-6 || steps.round() as u64 > MAX_AXIS_LEVELS {
            self.r.error(
                node,
                path,
                format!(
                    "max - min ({}) must be a whole number of steps ({}), at most {MAX_AXIS_LEVELS}",
                    range.span(),
                    range.step
                ),
            );
            return None;
        }
        Some(range)
    }

    fn layers(&mut self, node: &Node, path: &str) -> Option<Vec<LayerDef>> {
        let items = self.r.seq(node, path, "a list of layers")?;
        if items.is_empty() {
            self.r.error(node, path, "an axis needs at least one layer");
            return None;
        }
        let layers: Vec<Option<LayerDef>> = items
            .iter()
            .enumerate()
            .map(|(i, n)| self.layer(n, &index(path, i)))
            .collect();
        layers.into_iter().collect()
    }

    fn layer(&mut self, node: &Node, path: &str) -> Option<LayerDef> {
        let mut f = self.r.map(node, path, "a layer ({ kind, weight, … })")?;
        let weight = match f.opt("weight") {
            Some(n) => self
                .r
                .number_where(n, &join(path, "weight"), "> 0", |v| v > 0.0),
            None => Some(1.0),
        };
        let kind_node = f.req(&mut self.r, path, "kind", "distance_field or layered_noise")?;
        let kind = match self.r.string(kind_node, &join(path, "kind"))?.as_str() {
            "distance_field" => {
                f.finish(&mut self.r, path, &["kind", "weight"]);
                Some(LayerKind::DistanceField)
            }
            "layered_noise" => self.noise_layer(f, path),
            other => {
                self.r.error(
                    kind_node,
                    &join(path, "kind"),
                    format!(
                        "unknown layer kind '{other}'; expected distance_field or layered_noise"
                    ),
                );
                None
            }
        };
        Some(LayerDef {
            weight: weight?,
            kind: kind?,
        })
    }

    fn noise_layer(&mut self, mut f: Fields, path: &str) -> Option<LayerKind> {
        let seed_offset = match f.opt("seed_offset") {
            Some(n) => self
                .r
                .integer(n, &join(path, "seed_offset"), 0, i64::MAX)
                .map(|v| v as u64),
            None => Some(0),
        };
        let octaves = f
            .req(&mut self.r, path, "octaves", "a whole number in 1..=16")
            .and_then(|n| self.r.integer(n, &join(path, "octaves"), 1, 16));
        let frequency = f
            .req(&mut self.r, path, "frequency", "a number > 0")
            .and_then(|n| {
                self.r
                    .number_where(n, &join(path, "frequency"), "> 0", |v| v > 0.0)
            });
        f.finish(
            &mut self.r,
            path,
            &["kind", "weight", "seed_offset", "octaves", "frequency"],
        );
        Some(LayerKind::LayeredNoise {
            seed_offset: seed_offset?,
            octaves: octaves? as u32,
            frequency: frequency?,
        })
    }

    fn localization(&mut self, node: &Node) {
        let path = "localization";
        if node.value == Value::Null {
            return;
        }
        let Some(mut f) = self.r.map(
            node,
            path,
            "a mapping from language codes (en, ja, …) to strings",
        ) else {
            return;
        };
        for (lang, _, value) in f.all() {
            let p = join(path, &lang);
            self.language(&lang, value, &p);
        }
    }

    fn language(&mut self, lang: &str, node: &Node, path: &str) {
        let Some(mut f) = self.r.map(node, path, "{ ordinal, location_types }") else {
            return;
        };
        if let Some(n) = f.opt("ordinal") {
            let p = join(path, "ordinal");
            if let Some(pattern) = self.r.string(n, &p) {
                if !pattern.contains("{n}") {
                    self.r
                        .error(n, &p, "an ordinal pattern must contain {n} (the number)");
                } else if self
                    .draft
                    .localization
                    .languages
                    .get(lang)
                    .and_then(|l| l.ordinal.as_ref())
                    .is_some()
                {
                    self.r.error(
                        n,
                        &p,
                        format!("the ordinal pattern of '{lang}' is already defined"),
                    );
                } else {
                    self.draft
                        .localization
                        .languages
                        .entry(lang.to_string())
                        .or_default()
                        .ordinal = Some(pattern);
                }
            }
        }
        if let Some(n) = f.opt("location_types") {
            let p = join(path, "location_types");
            if let Some(mut types) = self.r.map(n, &p, "a mapping from location types to names") {
                for (ty, key, value) in types.all() {
                    self.type_names(lang, &ty, key, value, &join(&p, &ty));
                }
            }
        }
        self.draft
            .localization
            .languages
            .entry(lang.to_string())
            .or_default();
        f.finish(&mut self.r, path, &["ordinal", "location_types"]);
    }

    fn type_names(&mut self, lang: &str, ty: &str, key: &Node, node: &Node, path: &str) {
        let known = self
            .draft
            .localization
            .languages
            .get(lang)
            .is_some_and(|l| l.location_types.contains_key(ty));
        if known || self.draft.spots.contains_key(path) {
            let at = self
                .draft
                .spots
                .get(path)
                .map(|s| format!("{}:{}:{}", s.file, s.line, s.column))
                .unwrap_or_default();
            self.r.error(
                key,
                path,
                format!("names of '{ty}' in '{lang}' are already defined at {at}"),
            );
            return;
        }
        self.spot(key, path);
        let names = if let Value::Str(_) = node.value {
            self.r.string(node, path).map(|name| TypeNames {
                name: Some(name),
                variants: BTreeMap::new(),
            })
        } else {
            self.full_type_names(node, path)
        };
        if let Some(names) = names {
            self.draft
                .localization
                .languages
                .entry(lang.to_string())
                .or_default()
                .location_types
                .insert(ty.to_string(), names);
        }
    }

    fn full_type_names(&mut self, node: &Node, path: &str) -> Option<TypeNames> {
        let mut f = self.r.map(node, path, "a name, or { name, variants }")?;
        let name = f
            .opt("name")
            .and_then(|n| self.r.string(n, &join(path, "name")));
        let mut variants = BTreeMap::new();
        if let Some(n) = f.opt("variants") {
            let p = join(path, "variants");
            if let Some(mut vf) = self.r.map(n, &p, "a mapping from variant ids to names") {
                for (id, key, value) in vf.all() {
                    let vp = join(&p, &id);
                    self.spot(key, &vp);
                    if let Some(text) = self.r.string(value, &vp) {
                        variants.insert(id, text);
                    }
                }
            }
        }
        f.finish(&mut self.r, path, &["name", "variants"]);
        Some(TypeNames { name, variants })
    }
}

/// Entries of the root mapping, sections first in a fixed order so that
/// definitions are claimed in the same order whatever the file layout.
fn section_entries<'n>(f: &mut Fields<'n>) -> Vec<(String, &'n Node, &'n Node)> {
    let mut out = Vec::new();
    for key in ROOT_KEYS {
        if let Some(v) = f.opt(key) {
            out.push((key.to_string(), f.node(), v));
        }
    }
    out
}
