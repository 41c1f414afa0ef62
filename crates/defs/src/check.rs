//! Interactions checked once every file is loaded: every property an
//! expression reads or an effect changes exists on every object the
//! reference can name, every hop goes through a property holding an
//! instance id, and every move has a slot that accepts what moves. A
//! definition that could fail while playing is refused while loading.

use crate::interact::{
    Condition, EffectDef, Expr, ID_PROPERTY, InteractionDef, ObjectRef, RefRoot, ValueRef,
};
use crate::{ObjectDef, ObjectKind, PATH_PROPERTIES, PATH_REFERENCES};
use std::collections::BTreeMap;

/// What a reference can name: some object defs, or the world's root.
#[derive(Clone, Debug)]
enum Ty<'d> {
    Defs(Vec<&'d ObjectDef>),
    World,
}

/// Slots with the kinds each accepts.
type SlotTable = &'static [(&'static str, &'static [ObjectKind])];

/// The slots of the world's root (not an object def; the spawner makes it).
const WORLD_SLOTS: [(&str, &[ObjectKind]); 2] = [
    ("locations", &[ObjectKind::Location]),
    ("characters", &[ObjectKind::Character]),
];

/// Checks every interaction, ending and bot weight against the object
/// defs; what it finds collects in [`InteractionChecker::errors`].
#[derive(Debug)]
pub struct InteractionChecker<'d> {
    defs: &'d BTreeMap<String, ObjectDef>,
    /// The location defs each path def's paths can start and end at
    /// (`None`: any location).
    path_ends: BTreeMap<String, Option<Vec<String>>>,
    /// (key path, message) pairs.
    pub errors: Vec<(String, String)>,
}

impl<'d> InteractionChecker<'d> {
    /// A checker over `defs`, where `path_ends` names the location defs
    /// each path def's paths can start and end at (`None`: any location).
    pub fn new(
        defs: &'d BTreeMap<String, ObjectDef>,
        path_ends: BTreeMap<String, Option<Vec<String>>>,
    ) -> Self {
        InteractionChecker {
            defs,
            path_ends,
            errors: Vec::new(),
        }
    }

    /// The locations paths of these defs lie between: where a path is
    /// (`here` while acting on it) and where it leads (`destination_id`).
    fn ends_of(&self, paths: &[&'d ObjectDef]) -> Ty<'d> {
        let mut names: Vec<&str> = Vec::new();
        for p in paths {
            match self.path_ends.get(&p.name) {
                Some(Some(list)) => names.extend(list.iter().map(String::as_str)),
                _ => return self.of_kind(ObjectKind::Location),
            }
        }
        Ty::Defs(
            self.defs
                .values()
                .filter(|d| d.kind == ObjectKind::Location && names.contains(&d.name.as_str()))
                .collect(),
        )
    }

    fn of_kind(&self, kind: ObjectKind) -> Ty<'d> {
        Ty::Defs(self.defs.values().filter(|d| d.kind == kind).collect())
    }

    /// An ending's condition, with `self` the explorer's def.
    pub fn ending(&mut self, player: &str, c: &Condition, path: &str) {
        if let Some(def) = self.defs.get(player) {
            self.condition(def, c, None, path);
        }
    }

    /// Bot weights must name interactions some def declares.
    pub fn bot_weights(&mut self, names: impl Iterator<Item = &'d String>, path: &str) {
        let known: std::collections::BTreeSet<&str> = self
            .defs
            .values()
            .flat_map(|d| d.interactions.keys().map(String::as_str))
            .collect();
        for n in names {
            if !known.contains(n.as_str()) {
                self.errors.push((
                    format!("{path}.{n}"),
                    format!(
                        "no object def has an interaction '{n}'; known: {}",
                        known.iter().copied().collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
        }
    }

    /// Checks every interaction of every object def.
    pub fn check_all(&mut self) {
        for def in self.defs.values() {
            for i in def.interactions.values() {
                let base = format!("object_defs.{}.interactions.{}", def.name, i.name);
                self.interaction(def, i, &base);
            }
        }
    }

    fn interaction(&mut self, def: &'d ObjectDef, i: &InteractionDef, base: &str) {
        if let Some(d) = &i.duration {
            self.expr(def, d, None, &format!("{base}.duration"));
        }
        for (k, r) in i.requires.iter().enumerate() {
            self.condition(def, &r.test, None, &format!("{base}.requires[{k}].test"));
        }
        for (k, e) in i.effects.iter().enumerate() {
            let path = format!("{base}.effects[{k}]");
            match e {
                EffectDef::Change { target, value, .. } => {
                    let p = format!("{path}.change");
                    if target.property == ID_PROPERTY {
                        self.errors
                            .push((p.clone(), "an instance id cannot be changed".into()));
                    } else {
                        self.value(def, target, None, &p);
                    }
                    self.expr(def, value, None, &path);
                }
                EffectDef::Move { mover, to, slot } => {
                    if mover == to
                        || to.root == mover.root
                            && mover.hops.is_empty()
                            && to.root == RefRoot::This
                    {
                        self.errors.push((
                            format!("{path}.to"),
                            format!("'{mover}' would move into '{to}', which is itself: a cyclic reference"),
                        ));
                        continue;
                    }
                    let m = self.object(def, mover, None, &format!("{path}.move"));
                    let t = self.object(def, to, None, &format!("{path}.to"));
                    if let (Some(m), Some(t)) = (m, t) {
                        self.move_fits(&m, &t, slot.as_deref(), &path);
                    }
                }
                EffectDef::Reveal {
                    from,
                    to,
                    when,
                    partner,
                } => {
                    let p = format!("{path}.reveal");
                    let slots = def.kind.slots();
                    let mut accepted = Vec::new();
                    for s in [from, to] {
                        match slots.iter().find(|(n, _)| n == s) {
                            Some((_, kinds)) => accepted.extend_from_slice(kinds),
                            None => self.errors.push((
                                p.clone(),
                                format!(
                                    "a {} has no slot '{s}'; its slots: {}",
                                    def.kind.as_str(),
                                    names(slots)
                                ),
                            )),
                        }
                    }
                    let it = Ty::Defs(
                        self.defs
                            .values()
                            .filter(|d| accepted.contains(&d.kind))
                            .collect(),
                    );
                    self.condition(def, when, Some(&it), &format!("{p}.when"));
                    if let Some(prop) = partner {
                        self.hop(&it, prop, &format!("{p}.partner"));
                    }
                }
            }
        }
    }

    fn condition(&mut self, def: &'d ObjectDef, c: &Condition, it: Option<&Ty<'d>>, path: &str) {
        self.expr(def, &c.left, it, path);
        self.expr(def, &c.right, it, path);
    }

    fn expr(&mut self, def: &'d ObjectDef, e: &Expr, it: Option<&Ty<'d>>, path: &str) {
        for v in e.values() {
            self.value(def, v, it, path);
        }
    }

    fn value(&mut self, def: &'d ObjectDef, v: &ValueRef, it: Option<&Ty<'d>>, path: &str) {
        let Some(ty) = self.object(def, &v.object, it, path) else {
            return;
        };
        if v.property == ID_PROPERTY {
            return;
        }
        let defs = match ty {
            Ty::World => {
                self.errors.push((
                    path.to_string(),
                    format!("the world has no property '{}'", v.property),
                ));
                return;
            }
            Ty::Defs(d) => d,
        };
        for d in defs {
            let spawner_written =
                d.kind == ObjectKind::Path && PATH_PROPERTIES.contains(&v.property.as_str());
            if !spawner_written && !d.properties.contains_key(&v.property) {
                let known: Vec<&str> = d.properties.keys().map(String::as_str).collect();
                self.errors.push((
                    path.to_string(),
                    format!(
                        "'{v}' can name object_def '{}', which has no property '{}'; known: {}",
                        d.name,
                        v.property,
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ),
                ));
                return;
            }
        }
    }

    fn object(
        &mut self,
        def: &'d ObjectDef,
        r: &ObjectRef,
        it: Option<&Ty<'d>>,
        path: &str,
    ) -> Option<Ty<'d>> {
        let mut ty = match r.root {
            RefRoot::This => Ty::Defs(vec![def]),
            RefRoot::Agent => self.of_kind(ObjectKind::Character),
            // Acting on a path, the agent stands where the path starts.
            RefRoot::Here if def.kind == ObjectKind::Path => self.ends_of(&[def]),
            RefRoot::Here => self.of_kind(ObjectKind::Location),
            RefRoot::World => Ty::World,
            RefRoot::It => match it {
                Some(t) => t.clone(),
                None => {
                    self.errors.push((
                        path.to_string(),
                        "`it` names the object a reveal considers; it is known only in a reveal's `when`".into(),
                    ));
                    return None;
                }
            },
        };
        for h in &r.hops {
            ty = self.hop(&ty, h, path)?;
        }
        Some(ty)
    }

    /// Follows a property holding an instance id.
    fn hop(&mut self, ty: &Ty<'d>, prop: &str, path: &str) -> Option<Ty<'d>> {
        let defs = match ty {
            Ty::World => {
                self.errors.push((
                    path.to_string(),
                    format!("the world has no property '{prop}'"),
                ));
                return None;
            }
            Ty::Defs(d) => d,
        };
        let target = PATH_REFERENCES.iter().find(|(p, _)| *p == prop);
        for d in defs {
            match target {
                Some(_) if d.kind == ObjectKind::Path => {}
                _ => {
                    self.errors.push((
                        path.to_string(),
                        format!(
                            "'{prop}' of object_def '{}' does not hold an instance id; only a path's {} do",
                            d.name,
                            PATH_REFERENCES
                                .iter()
                                .map(|(p, _)| *p)
                                .collect::<Vec<_>>()
                                .join(" and ")
                        ),
                    ));
                    return None;
                }
            }
        }
        // A path leads between the locations its def's paths join, and
        // its return path has its own def (the spawner makes both alike).
        Some(match target {
            Some((_, ObjectKind::Location)) => self.ends_of(defs),
            Some((_, ObjectKind::Path)) => Ty::Defs(defs.clone()),
            Some((_, k)) => self.of_kind(*k),
            None => Ty::Defs(Vec::new()),
        })
    }

    fn move_fits(&mut self, mover: &Ty<'d>, to: &Ty<'d>, slot: Option<&str>, path: &str) {
        let movers: Vec<ObjectKind> = match mover {
            Ty::World => {
                self.errors
                    .push((format!("{path}.move"), "the world cannot move".into()));
                return;
            }
            Ty::Defs(d) => d.iter().map(|d| d.kind).collect(),
        };
        let dests: Vec<(String, SlotTable)> = match to {
            Ty::World => vec![("the world".into(), &WORLD_SLOTS[..])],
            Ty::Defs(d) => d
                .iter()
                .map(|d| (format!("object_def '{}'", d.name), d.kind.slots()))
                .collect(),
        };
        for (dest, slots) in dests {
            for &m in &movers {
                let ok = match slot {
                    Some(s) => match slots.iter().find(|(n, _)| *n == s) {
                        Some((_, accepts)) => accepts.contains(&m),
                        None => {
                            self.errors.push((
                                format!("{path}.slot"),
                                format!("{dest} has no slot '{s}'; its slots: {}", names(slots)),
                            ));
                            return;
                        }
                    },
                    None => slots.iter().any(|(_, a)| a.contains(&m)),
                };
                if !ok {
                    let (p, what) = match slot {
                        Some(s) => (
                            format!("{path}.slot"),
                            format!("slot '{s}' of {dest} accepts no {}", m.as_str()),
                        ),
                        None => (
                            format!("{path}.to"),
                            format!("no slot of {dest} accepts a {}", m.as_str()),
                        ),
                    };
                    self.errors
                        .push((p, format!("{what}; the move could never happen")));
                    return;
                }
            }
        }
    }
}

fn names(slots: &[(&str, &[ObjectKind])]) -> String {
    if slots.is_empty() {
        return "none".into();
    }
    slots.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}
