//! The YAML tree of object defs' `interactions` (and property `start`
//! values) → [`InteractionDef`]s. Expressions are parsed here, so a typo
//! inside one is reported at its file:line:col; names they use are checked
//! later (`check_interact`), once every file is in.

use super::interact::{
    BotDef, ChangeMode, EffectDef, EndingDef, ExprError, InteractionDef, Outcome, Requirement,
    Texts, parse_condition, parse_expr, parse_object_ref, parse_value_ref,
};
use super::parse::FileParser;
use super::read::{index, join};
use crate::yaml::{Node, Value};
use std::collections::BTreeMap;

/// The keys an interaction may hold.
const INTERACTION_KEYS: [&str; 5] = ["duration", "requires", "effects", "text", "flavours"];

impl FileParser<'_, '_> {
    /// `{ min, max, start }` with `min <= start <= max` (`start` optional).
    pub(crate) fn property_range(
        &mut self,
        node: &Node,
        path: &str,
    ) -> Option<(f64, f64, Option<f64>)> {
        let mut f = self.r.map(node, path, "{ min, max, start }")?;
        let min = f
            .req(&mut self.r, path, "min", "a number")
            .and_then(|n| self.r.number(n, &join(path, "min")));
        let max = f
            .req(&mut self.r, path, "max", "a number")
            .and_then(|n| self.r.number(n, &join(path, "max")));
        let start = match f.opt("start") {
            Some(n) => Some(Some((self.r.number(n, &join(path, "start"))?, n))),
            None => Some(None),
        };
        f.finish(&mut self.r, path, &["min", "max", "start"]);
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
    pub(crate) fn interactions(
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
        let effects_node = f.req(&mut self.r, path, "effects", "a list of effects")?;
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
        f.finish(&mut self.r, path, &INTERACTION_KEYS);
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
            origin: self.origin(key),
        })
    }

    fn requirement(&mut self, node: &Node, path: &str) -> Option<Requirement> {
        let mut f = self.r.map(node, path, "{ test, refusal }")?;
        self.spot(node, path);
        let test = f
            .req(
                &mut self.r,
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
            .req(&mut self.r, path, "refusal", "texts per language")
            .and_then(|n| self.texts(n, &join(path, "refusal")));
        f.finish(&mut self.r, path, &["test", "refusal"]);
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
            f.finish(&mut self.r, path, &["change", "to", "by"]);
            Some(EffectDef::Change {
                target: target?,
                mode,
                value: value?,
            })
        } else if let Some(n) = f.opt("move") {
            let mover = self.string_parsed(n, &join(path, "move"), parse_object_ref);
            let to = f
                .req(&mut self.r, path, "to", "the object to move into")
                .and_then(|n| self.string_parsed(n, &join(path, "to"), parse_object_ref));
            let slot = match f.opt("slot") {
                Some(n) => Some(Some(self.r.string(n, &join(path, "slot"))?)),
                None => Some(None),
            };
            f.finish(&mut self.r, path, &["move", "to", "slot"]);
            Some(EffectDef::Move {
                mover: mover?,
                to: to?,
                slot: slot?,
            })
        } else if let Some(n) = f.opt("reveal") {
            let p = join(path, "reveal");
            let mut g = self.r.map(n, &p, "{ from, to, when, partner }")?;
            let from = g
                .req(&mut self.r, &p, "from", "a slot of self")
                .and_then(|n| self.r.string(n, &join(&p, "from")));
            let to = g
                .req(&mut self.r, &p, "to", "a slot of self")
                .and_then(|n| self.r.string(n, &join(&p, "to")));
            let when = g
                .req(&mut self.r, &p, "when", "a comparison about `it`")
                .and_then(|n| self.string_parsed(n, &join(&p, "when"), parse_condition));
            let partner = match g.opt("partner") {
                Some(n) => Some(Some(self.r.string(n, &join(&p, "partner"))?)),
                None => Some(None),
            };
            g.finish(&mut self.r, &p, &["from", "to", "when", "partner"]);
            f.finish(&mut self.r, path, &["reveal"]);
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
    pub(crate) fn endings(&mut self, node: &Node, path: &str) -> Option<Vec<EndingDef>> {
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
                .req(&mut self.r, &p, "when", "a comparison")
                .and_then(|n| self.string_parsed(n, &join(&p, "when"), parse_condition));
            let outcome = f
                .req(&mut self.r, &p, "outcome", "won or lost")
                .and_then(|n| {
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
                .req(&mut self.r, &p, "text", "texts per language")
                .and_then(|n| self.texts(n, &join(&p, "text")));
            f.finish(&mut self.r, &p, &["when", "outcome", "text"]);
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
    pub(crate) fn bot(&mut self, node: &Node, path: &str) -> Option<BotDef> {
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
        f.finish(
            &mut self.r,
            path,
            &["weights", "unvisited_bonus", "max_actions"],
        );
        ok.then_some(BotDef {
            weights,
            unvisited_bonus: bonus?,
            max_actions: max? as u32,
        })
    }

    /// A number or an expression string.
    fn expr_node(&mut self, node: &Node, path: &str) -> Option<super::interact::Expr> {
        match &node.value {
            Value::Int(i) => Some(super::interact::Expr::Num(*i as f64)),
            Value::Float(v) => Some(super::interact::Expr::Num(*v)),
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
