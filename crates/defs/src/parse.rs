//! The YAML tree of object defs (kind, properties with their `start`
//! values, `interactions`) and of a scope's `endings` and `bot` → the
//! definitions of [`crate::interact`]. Expressions are parsed here, so a
//! typo inside one is reported at its file:line:col; names they use are
//! checked later ([`crate::check`]), once every file is in.

use crate::interact::{
    BotDef, ChangeMode, EffectDef, EndingDef, Expr, ExprError, InteractionDef, Outcome,
    Requirement, Texts, parse_condition, parse_expr, parse_object_ref, parse_value_ref,
};
use crate::read::{Reader, Spots, index, join};
use crate::yaml::{Node, Value};
use crate::{ObjectDef, ObjectKind, PATH_PROPERTIES, PropertyRange};
use std::collections::BTreeMap;

/// The keys an interaction may hold.
const INTERACTION_KEYS: [&str; 5] = ["duration", "requires", "effects", "text", "flavours"];

/// Reads the world engine's definitions out of one file: the file's
/// reader, and the spots of the whole set (by key path) that the checks
/// once every file is in point at. The island's loader lends it both
/// while it reads a file's `object_defs` and a scope's `endings` and `bot`.
#[derive(Debug)]
pub struct ObjectParser<'a, 's> {
    /// The file's reader (its diagnostics collect here).
    pub r: &'a mut Reader<'s>,
    /// The set's spots.
    pub spots: &'a mut Spots,
}

impl ObjectParser<'_, '_> {
    /// Records the position of `node` under `path`.
    pub fn spot(&mut self, node: &Node, path: &str) {
        let spot = self.r.spot(node);
        self.spots.insert(path.to_string(), spot);
    }

    /// One object def (`{ kind, properties, interactions }`) named `name`,
    /// whose key is `key`; `None` if anything in it was reported.
    pub fn object_def(
        &mut self,
        name: &str,
        key: &Node,
        node: &Node,
        path: &str,
    ) -> Option<ObjectDef> {
        let mut f = self
            .r
            .map(node, path, "an object def ({ kind, properties })")?;
        let kind = f
            .req(self.r, path, "kind", "location, path or character")
            .and_then(|n| {
                let p = join(path, "kind");
                match self.r.string(n, &p)?.as_str() {
                    "location" => Some(ObjectKind::Location),
                    "path" => Some(ObjectKind::Path),
                    "character" => Some(ObjectKind::Character),
                    other => {
                        self.r.error(
                            n,
                            &p,
                            format!("unknown kind '{other}'; expected location, path or character"),
                        );
                        None
                    }
                }
            });
        let properties = match f.opt("properties") {
            Some(n) => self.properties(n, &join(path, "properties"), kind),
            None => Some((BTreeMap::new(), BTreeMap::new())),
        };
        let interactions = match f.opt("interactions") {
            Some(n) => self.interactions(n, &join(path, "interactions")),
            None => Some(BTreeMap::new()),
        };
        f.finish(self.r, path, &["kind", "properties", "interactions"]);
        let (properties, initial) = properties?;
        Some(ObjectDef {
            name: name.to_string(),
            kind: kind?,
            properties,
            initial,
            interactions: interactions?,
            origin: self.r.origin(key),
        })
    }

    fn properties(
        &mut self,
        node: &Node,
        path: &str,
        kind: Option<ObjectKind>,
    ) -> Option<(BTreeMap<String, PropertyRange>, BTreeMap<String, f64>)> {
        let mut f = self.r.map(
            node,
            path,
            "a mapping from property names to { min, max, start }",
        )?;
        let mut out = BTreeMap::new();
        let mut initial = BTreeMap::new();
        let mut ok = true;
        for (name, key, value) in f.all() {
            let p = join(path, &name);
            if kind == Some(ObjectKind::Path) && PATH_PROPERTIES.contains(&name.as_str()) {
                self.r.error(
                    key,
                    &p,
                    format!("'{name}' is written by the spawner on every path; remove it"),
                );
                ok = false;
                continue;
            }
            if name == crate::interact::ID_PROPERTY {
                self.r.error(
                    key,
                    &p,
                    "'id' is every object's instance id and cannot be declared",
                );
                ok = false;
                continue;
            }
            self.spot(key, &p);
            match self.property_range(value, &p) {
                Some((min, max, start)) => {
                    out.insert(name.clone(), PropertyRange { min, max });
                    if let Some(v) = start {
                        initial.insert(name, v);
                    }
                }
                None => ok = false,
            }
        }
        ok.then_some((out, initial))
    }

    /// `{ min, max, start }` with `min <= start <= max` (`start` optional).
    fn property_range(&mut self, node: &Node, path: &str) -> Option<(f64, f64, Option<f64>)> {
        let mut f = self.r.map(node, path, "{ min, max, start }")?;
        let min = f
            .req(self.r, path, "min", "a number")
            .and_then(|n| self.r.number(n, &join(path, "min")));
        let max = f
            .req(self.r, path, "max", "a number")
            .and_then(|n| self.r.number(n, &join(path, "max")));
        let start = match f.opt("start") {
            Some(n) => Some(Some((self.r.number(n, &join(path, "start"))?, n))),
            None => Some(None),
        };
        f.finish(self.r, path, &["min", "max", "start"]);
        let (min, max, start) = (min?, max?, start?);
        if min > max {
            self.r.error(
                node,
                path,
                format!("min ({min}) must not exceed max ({max})"),
            );
            return None;
        }
        if let Some((v, n)) = start
            && !(min..=max).contains(&v)
        {
            self.r.error(
                n,
                &join(path, "start"),
                format!("start ({v}) must lie within min..=max ({min}..={max})"),
            );
            return None;
        }
        Some((min, max, start.map(|(v, _)| v)))
    }

    /// `interactions: { name: { duration, requires, effects, text, flavours } }`.
    fn interactions(
        &mut self,
        node: &Node,
        path: &str,
    ) -> Option<BTreeMap<String, InteractionDef>> {
        let mut f = self.r.map(
            node,
            path,
            "a mapping from interaction names to interactions",
        )?;
        let mut out = BTreeMap::new();
        let mut ok = true;
        for (name, key, value) in f.all() {
            let p = join(path, &name);
            self.spot(key, &p);
            match self.interaction(&name, key, value, &p) {
                Some(i) => {
                    out.insert(name, i);
                }
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    fn interaction(
        &mut self,
        name: &str,
        key: &Node,
        node: &Node,
        path: &str,
    ) -> Option<InteractionDef> {
        let mut f = self.r.map(
            node,
            path,
            "an interaction ({ duration, requires, effects, text })",
        )?;
        let before = self.r.diags.len();
        let duration = f.opt("duration").map(|n| {
            let p = join(path, "duration");
            self.spot(n, &p);
            self.expr_node(n, &p)
        });
        let mut requires = Vec::new();
        if let Some(n) = f.opt("requires") {
            let p = join(path, "requires");
            for (i, item) in self
                .r
                .seq(n, &p, "a list of requirements")?
                .iter()
                .enumerate()
            {
                requires.extend(self.requirement(item, &index(&p, i)));
            }
        }
        let mut effects = Vec::new();
        let effects_node = f.req(self.r, path, "effects", "a list of effects")?;
        let p = join(path, "effects");
        for (i, item) in self
            .r
            .seq(effects_node, &p, "a list of effects")?
            .iter()
            .enumerate()
        {
            effects.extend(self.effect(item, &index(&p, i)));
        }
        let text = match f.opt("text") {
            Some(n) => self.texts(n, &join(path, "text"))?,
            None => Texts::new(),
        };
        let mut flavours = Vec::new();
        if let Some(n) = f.opt("flavours") {
            let p = join(path, "flavours");
            for (i, item) in self
                .r
                .seq(n, &p, "a list of texts per language")?
                .iter()
                .enumerate()
            {
                flavours.extend(self.texts(item, &index(&p, i)));
            }
        }
        f.finish(self.r, path, &INTERACTION_KEYS);
        if self.r.diags.len() > before {
            return None;
        }
        Some(InteractionDef {
            name: name.to_string(),
            duration: duration.flatten(),
            requires,
            effects,
            text,
            flavours,
            origin: self.r.origin(key),
        })
    }

    fn requirement(&mut self, node: &Node, path: &str) -> Option<Requirement> {
        let mut f = self.r.map(node, path, "{ test, refusal }")?;
        self.spot(node, path);
        let test = f
            .req(
                self.r,
                path,
                "test",
                "a comparison like `agent.stamina >= 10`",
            )
            .and_then(|n| {
                let p = join(path, "test");
                self.spot(n, &p);
                let text = self.r.string(n, &p)?;
                self.parsed(n, &p, parse_condition(&text))
            });
        let refusal = f
            .req(self.r, path, "refusal", "texts per language")
            .and_then(|n| self.texts(n, &join(path, "refusal")));
        f.finish(self.r, path, &["test", "refusal"]);
        Some(Requirement {
            test: test?,
            refusal: refusal?,
        })
    }

    fn effect(&mut self, node: &Node, path: &str) -> Option<EffectDef> {
        let mut f = self
            .r
            .map(node, path, "an effect ({ change }, { move } or { reveal })")?;
        self.spot(node, path);
        if let Some(n) = f.opt("change") {
            let target = self.string_parsed(n, &join(path, "change"), parse_value_ref);
            let (mode, value) = match (f.opt("to"), f.opt("by")) {
                (Some(v), None) => (ChangeMode::Set, self.expr_node(v, &join(path, "to"))),
                (None, Some(v)) => (ChangeMode::Add, self.expr_node(v, &join(path, "by"))),
                _ => {
                    self.r.error(
                        node,
                        path,
                        "a change needs exactly one of `to` (a new value) or `by` (an amount to add)",
                    );
                    (ChangeMode::Set, None)
                }
            };
            f.finish(self.r, path, &["change", "to", "by"]);
            Some(EffectDef::Change {
                target: target?,
                mode,
                value: value?,
            })
        } else if let Some(n) = f.opt("move") {
            let mover = self.string_parsed(n, &join(path, "move"), parse_object_ref);
            let to = f
                .req(self.r, path, "to", "the object to move into")
                .and_then(|n| self.string_parsed(n, &join(path, "to"), parse_object_ref));
            let slot = match f.opt("slot") {
                Some(n) => Some(Some(self.r.string(n, &join(path, "slot"))?)),
                None => Some(None),
            };
            f.finish(self.r, path, &["move", "to", "slot"]);
            Some(EffectDef::Move {
                mover: mover?,
                to: to?,
                slot: slot?,
            })
        } else if let Some(n) = f.opt("reveal") {
            let p = join(path, "reveal");
            let mut g = self.r.map(n, &p, "{ from, to, when, partner }")?;
            let from = g
                .req(self.r, &p, "from", "a slot of self")
                .and_then(|n| self.r.string(n, &join(&p, "from")));
            let to = g
                .req(self.r, &p, "to", "a slot of self")
                .and_then(|n| self.r.string(n, &join(&p, "to")));
            let when = g
                .req(self.r, &p, "when", "a comparison about `it`")
                .and_then(|n| self.string_parsed(n, &join(&p, "when"), parse_condition));
            let partner = match g.opt("partner") {
                Some(n) => Some(Some(self.r.string(n, &join(&p, "partner"))?)),
                None => Some(None),
            };
            g.finish(self.r, &p, &["from", "to", "when", "partner"]);
            f.finish(self.r, path, &["reveal"]);
            Some(EffectDef::Reveal {
                from: from?,
                to: to?,
                when: when?,
                partner: partner?,
            })
        } else {
            self.r.error(
                node,
                path,
                "expected one of the effects: change, move, reveal",
            );
            None
        }
    }

    /// `endings: [{ when, outcome, text }]`.
    pub fn endings(&mut self, node: &Node, path: &str) -> Option<Vec<EndingDef>> {
        let items = self.r.seq(node, path, "a list of endings")?;
        let mut out = Vec::new();
        let before = self.r.diags.len();
        for (i, item) in items.iter().enumerate() {
            let p = index(path, i);
            self.spot(item, &p);
            let Some(mut f) = self.r.map(item, &p, "{ when, outcome, text }") else {
                continue;
            };
            let when = f
                .req(self.r, &p, "when", "a comparison")
                .and_then(|n| self.string_parsed(n, &join(&p, "when"), parse_condition));
            let outcome = f.req(self.r, &p, "outcome", "won or lost").and_then(|n| {
                let q = join(&p, "outcome");
                match self.r.string(n, &q)?.as_str() {
                    "won" => Some(Outcome::Won),
                    "lost" => Some(Outcome::Lost),
                    other => {
                        self.r.error(
                            n,
                            &q,
                            format!("unknown outcome '{other}'; expected won or lost"),
                        );
                        None
                    }
                }
            });
            let text = f
                .req(self.r, &p, "text", "texts per language")
                .and_then(|n| self.texts(n, &join(&p, "text")));
            f.finish(self.r, &p, &["when", "outcome", "text"]);
            if let (Some(when), Some(outcome), Some(text)) = (when, outcome, text) {
                out.push(EndingDef {
                    when,
                    outcome,
                    text,
                });
            }
        }
        (self.r.diags.len() == before).then_some(out)
    }

    /// `bot: { weights, unvisited_bonus, max_actions }`.
    pub fn bot(&mut self, node: &Node, path: &str) -> Option<BotDef> {
        let mut f = self
            .r
            .map(node, path, "{ weights, unvisited_bonus, max_actions }")?;
        let mut weights = BTreeMap::new();
        let mut ok = true;
        if let Some(n) = f.opt("weights") {
            let p = join(path, "weights");
            if let Some(mut w) = self
                .r
                .map(n, &p, "a mapping from interaction names to weights")
            {
                for (name, key, value) in w.all() {
                    self.spot(key, &join(&p, &name));
                    match self
                        .r
                        .number_where(value, &join(&p, &name), ">= 0", |v| v >= 0.0)
                    {
                        Some(v) => {
                            weights.insert(name, v);
                        }
                        None => ok = false,
                    }
                }
            }
        }
        let bonus = match f.opt("unvisited_bonus") {
            Some(n) => self
                .r
                .number_where(n, &join(path, "unvisited_bonus"), "> 0", |v| v > 0.0),
            None => Some(1.0),
        };
        let max = match f.opt("max_actions") {
            Some(n) => self.r.integer(n, &join(path, "max_actions"), 1, 100_000),
            None => Some(2000),
        };
        f.finish(self.r, path, &["weights", "unvisited_bonus", "max_actions"]);
        ok.then_some(BotDef {
            weights,
            unvisited_bonus: bonus?,
            max_actions: max? as u32,
        })
    }

    /// A number or an expression string.
    fn expr_node(&mut self, node: &Node, path: &str) -> Option<Expr> {
        match &node.value {
            Value::Int(i) => Some(Expr::Num(*i as f64)),
            Value::Float(v) => Some(Expr::Num(*v)),
            _ => self.string_parsed(node, path, parse_expr),
        }
    }

    fn string_parsed<T>(
        &mut self,
        node: &Node,
        path: &str,
        parse: impl Fn(&str) -> Result<T, ExprError>,
    ) -> Option<T> {
        self.spot(node, path);
        let text = self.r.string(node, path)?;
        self.parsed(node, path, parse(&text))
    }

    /// Reports an expression error at its column within a one-line string.
    fn parsed<T>(&mut self, node: &Node, path: &str, r: Result<T, ExprError>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                // Plain and quoted scalars start one column apart; point at
                // the node when the offset cannot be placed for sure.
                let d = self.r.diagnostic(
                    node.line,
                    node.column,
                    path,
                    format!("{} (at character {})", e.message, e.at + 1),
                );
                self.r.diags.push(d);
                None
            }
        }
    }

    /// `{ en: "…", ja: "…" }`.
    fn texts(&mut self, node: &Node, path: &str) -> Option<Texts> {
        let mut f = self
            .r
            .map(node, path, "a mapping from language codes to text")?;
        let mut out = Texts::new();
        for (lang, _, value) in f.all() {
            let text = self.r.string(value, &join(path, &lang))?;
            out.insert(lang, text);
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Option<ObjectDef>, Vec<crate::Diagnostic>, Spots) {
        let root = crate::yaml::parse(text).unwrap();
        let mut r = Reader::new("objects.yaml", text);
        let mut spots = Spots::new();
        let def = ObjectParser {
            r: &mut r,
            spots: &mut spots,
        }
        .object_def("land.forest", &root, &root, "object_defs.land.forest");
        (def, r.diags, spots)
    }

    #[test]
    fn an_object_def_with_an_interaction_is_read_and_spotted() {
        let text = "kind: location\nproperties:\n  exploration: { min: 0, max: 100, start: 5 }\ninteractions:\n  explore:\n    duration: 30\n    effects:\n      - change: self.exploration\n        by: 10\n";
        let (def, diags, spots) = parse(text);
        assert_eq!(diags, []);
        let def = def.unwrap();
        assert_eq!(def.kind, ObjectKind::Location);
        assert_eq!(def.initial_value("exploration"), Some(5.0));
        let explore = &def.interactions["explore"];
        assert_eq!(explore.duration, Some(Expr::Num(30.0)));
        assert_eq!(explore.effects.len(), 1);
        let spot = &spots["object_defs.land.forest.interactions.explore"];
        assert_eq!((spot.line, spot.column), (5, 3));
    }

    #[test]
    fn every_problem_is_reported_with_its_place() {
        let text = "kind: lake\ninteractions:\n  swim:\n    duration: 1 +\n    effects: []\n";
        let (def, diags, _) = parse(text);
        assert_eq!(def, None);
        let at: Vec<(&str, u32)> = diags.iter().map(|d| (d.path.as_str(), d.line)).collect();
        assert_eq!(
            at,
            [
                ("object_defs.land.forest.kind", 1),
                ("object_defs.land.forest.interactions.swim.duration", 4),
            ]
        );
        assert!(
            diags[0]
                .message
                .contains("expected location, path or character")
        );
    }
}
