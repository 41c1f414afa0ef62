//! World objects: an arena of objects with number properties (each with a
//! range) and named slots holding other objects, under one root.

use mangekyo_defs::{ObjectDef, ObjectKind, PropertyRange};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// An object's instance id: its index in the world, stable for its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ObjectId(pub u32);

impl fmt::Display for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// What an object is; decides its slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The root: `locations` and `characters`.
    World,
    /// A place: `characters`, `fixtures`, `undiscovered_fixtures`.
    Location,
    /// A one-way path; no slots.
    Path,
    /// An explorer; no slots.
    Character,
}

impl Kind {
    /// The slots an object of this kind has, with the kinds each accepts
    /// (the world's root here, the rest from the definitions' contract).
    pub fn slots(self) -> Vec<(&'static str, Vec<Kind>)> {
        let of = |k: ObjectKind| -> Vec<(&'static str, Vec<Kind>)> {
            k.slots()
                .iter()
                .map(|(n, a)| (*n, a.iter().map(|&k| Kind::from(k)).collect()))
                .collect()
        };
        match self {
            Kind::World => vec![
                (slot::LOCATIONS, vec![Kind::Location]),
                (slot::CHARACTERS, vec![Kind::Character]),
            ],
            Kind::Location => of(ObjectKind::Location),
            Kind::Path => of(ObjectKind::Path),
            Kind::Character => of(ObjectKind::Character),
        }
    }

    /// Whether this kind's slot `slot_name` accepts `kind`.
    pub fn accepts(self, slot_name: &str, kind: Kind) -> bool {
        self.slots()
            .iter()
            .any(|(n, a)| *n == slot_name && a.contains(&kind))
    }
}

impl From<ObjectKind> for Kind {
    fn from(k: ObjectKind) -> Self {
        match k {
            ObjectKind::Location => Kind::Location,
            ObjectKind::Path => Kind::Path,
            ObjectKind::Character => Kind::Character,
        }
    }
}

/// Slot names.
pub mod slot {
    /// The world's locations.
    pub const LOCATIONS: &str = "locations";
    /// Characters (in the world before they are placed, then in a location).
    pub const CHARACTERS: &str = "characters";
    /// A location's discovered paths.
    pub const FIXTURES: &str = "fixtures";
    /// A location's paths not yet discovered.
    pub const UNDISCOVERED_FIXTURES: &str = "undiscovered_fixtures";
}

/// Property names the spawner writes on paths.
pub mod prop {
    /// A location's exploration progress.
    pub const EXPLORATION: &str = mangekyo_defs::PROGRESS_PROPERTY;
    /// Minutes to walk a path.
    pub const TRAVEL_MINUTES: &str = "travel_minutes";
    /// The exploration progress at which a path is discovered.
    pub const REQUIRED_PROGRESS: &str = "required_progress";
    /// The location a path leads to (an instance id).
    pub const DESTINATION_ID: &str = "destination_id";
    /// The path back (an instance id).
    pub const RETURN_PATH_ID: &str = "return_path_id";
}

/// A number property: a value within its range.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Number {
    /// Current value.
    pub value: f64,
    /// Smallest allowed.
    pub min: f64,
    /// Largest allowed.
    pub max: f64,
}

/// One world object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Object {
    /// Its id.
    pub id: ObjectId,
    /// The object def it was created from (`"world"` for the root).
    pub def: String,
    /// What it is.
    pub kind: Kind,
    /// Number properties.
    pub props: BTreeMap<String, Number>,
    /// Slots and their contents, in insertion order.
    pub slots: BTreeMap<String, Vec<ObjectId>>,
    /// The object and slot holding this one.
    pub parent: Option<(ObjectId, String)>,
}

/// Why a world operation was refused (it changed nothing).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum WorldError {
    /// No such object.
    #[error("no object {0}")]
    NoObject(ObjectId),
    /// No such property on the object.
    #[error("object {id} ({def}) has no property '{prop}'")]
    NoProperty {
        /// The object.
        id: ObjectId,
        /// Its def.
        def: String,
        /// The property asked for.
        prop: String,
    },
    /// A value outside the property's range.
    #[error("{value} is outside {prop} ({min}..={max}) of object {id}")]
    OutOfRange {
        /// The object.
        id: ObjectId,
        /// The property.
        prop: String,
        /// The value refused.
        value: f64,
        /// Range minimum.
        min: f64,
        /// Range maximum.
        max: f64,
    },
    /// Moving an object into itself or into something it holds.
    #[error("object {obj} cannot move into {target}, which it holds")]
    Cycle {
        /// The object moved.
        obj: ObjectId,
        /// Where it was to go.
        target: ObjectId,
    },
    /// The slot does not exist or does not take this kind.
    #[error("object {target} has no slot '{slot}' for a {kind:?}")]
    BadSlot {
        /// The object that would hold it.
        target: ObjectId,
        /// The slot.
        slot: String,
        /// The kind refused.
        kind: Kind,
    },
}

/// The world: every object, the root, and the clock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct World {
    objects: Vec<Object>,
    clock_minutes: u64,
}

impl Default for World {
    fn default() -> Self {
        Self::new()
    }
}

impl World {
    /// A world holding only its root (id 0).
    pub fn new() -> Self {
        let mut w = World {
            objects: Vec::new(),
            clock_minutes: 0,
        };
        w.push("world", Kind::World, BTreeMap::new());
        w
    }

    /// The root object's id.
    pub fn root(&self) -> ObjectId {
        ObjectId(0)
    }

    /// Minutes since the world began.
    pub fn clock_minutes(&self) -> u64 {
        self.clock_minutes
    }

    /// Moves the clock forward.
    pub fn advance_clock(&mut self, minutes: u64) {
        self.clock_minutes += minutes;
    }

    /// Every object, by id.
    pub fn objects(&self) -> &[Object] {
        &self.objects
    }

    fn push(&mut self, def: &str, kind: Kind, props: BTreeMap<String, Number>) -> ObjectId {
        let id = ObjectId(self.objects.len() as u32);
        let slots = kind
            .slots()
            .iter()
            .map(|(s, _)| (s.to_string(), Vec::new()))
            .collect();
        self.objects.push(Object {
            id,
            def: def.to_string(),
            kind,
            props,
            slots,
            parent: None,
        });
        id
    }

    /// Creates an object from its def (properties at their minimum), held by
    /// nothing until moved into a slot. `extra` adds properties the def
    /// does not declare (the spawner's path properties).
    pub fn create(&mut self, def: &ObjectDef, extra: &[(&str, PropertyRange)]) -> ObjectId {
        let mut props: BTreeMap<String, Number> = def
            .properties
            .iter()
            .map(|(k, r)| {
                (
                    k.clone(),
                    Number {
                        value: def.initial_value(k).unwrap_or(r.min),
                        min: r.min,
                        max: r.max,
                    },
                )
            })
            .collect();
        for (k, r) in extra {
            props.insert(
                k.to_string(),
                Number {
                    value: r.min,
                    min: r.min,
                    max: r.max,
                },
            );
        }
        self.push(&def.name, def.kind.into(), props)
    }

    /// One object.
    pub fn get(&self, id: ObjectId) -> Result<&Object, WorldError> {
        self.objects
            .get(id.0 as usize)
            .ok_or(WorldError::NoObject(id))
    }

    /// A property's value.
    pub fn number(&self, id: ObjectId, prop: &str) -> Result<f64, WorldError> {
        let o = self.get(id)?;
        o.props
            .get(prop)
            .map(|n| n.value)
            .ok_or_else(|| WorldError::NoProperty {
                id,
                def: o.def.clone(),
                prop: prop.to_string(),
            })
    }

    /// A property's range.
    pub fn range(&self, id: ObjectId, prop: &str) -> Result<(f64, f64), WorldError> {
        let o = self.get(id)?;
        o.props
            .get(prop)
            .map(|n| (n.min, n.max))
            .ok_or_else(|| WorldError::NoProperty {
                id,
                def: o.def.clone(),
                prop: prop.to_string(),
            })
    }

    /// An object-id property (stored as a number, as the guide does).
    pub fn object_ref(&self, id: ObjectId, prop: &str) -> Result<ObjectId, WorldError> {
        Ok(ObjectId(self.number(id, prop)? as u32))
    }

    /// Sets a property within its range (the guide's
    /// `setNumberWithoutEvents`: no reactions run).
    pub fn set_number(&mut self, id: ObjectId, prop: &str, value: f64) -> Result<(), WorldError> {
        let o = self
            .objects
            .get_mut(id.0 as usize)
            .ok_or(WorldError::NoObject(id))?;
        let def = o.def.clone();
        let n = o
            .props
            .get_mut(prop)
            .ok_or_else(|| WorldError::NoProperty {
                id,
                def,
                prop: prop.to_string(),
            })?;
        if !(n.min..=n.max).contains(&value) {
            return Err(WorldError::OutOfRange {
                id,
                prop: prop.to_string(),
                value,
                min: n.min,
                max: n.max,
            });
        }
        n.value = value;
        Ok(())
    }

    /// The contents of a slot (empty if the object has no such slot).
    pub fn slot(&self, id: ObjectId, name: &str) -> &[ObjectId] {
        self.get(id)
            .ok()
            .and_then(|o| o.slots.get(name))
            .map_or(&[], Vec::as_slice)
    }

    /// Moves `obj` to the end of `target`'s slot (the guide's
    /// `moveToSlotOrRejection`): refused, changing nothing, if the slot does
    /// not exist, does not take the object's kind, or the move would put
    /// an object inside itself.
    pub fn move_to_slot(
        &mut self,
        obj: ObjectId,
        target: ObjectId,
        slot_name: &str,
    ) -> Result<(), WorldError> {
        let kind = self.get(obj)?.kind;
        let t = self.get(target)?;
        if !t.slots.contains_key(slot_name) || !t.kind.accepts(slot_name, kind) {
            return Err(WorldError::BadSlot {
                target,
                slot: slot_name.to_string(),
                kind,
            });
        }
        if self.holds(obj, target) {
            return Err(WorldError::Cycle { obj, target });
        }
        if let Some((p, s)) = self.objects[obj.0 as usize].parent.take()
            && let Some(v) = self.objects[p.0 as usize].slots.get_mut(&s)
        {
            v.retain(|&x| x != obj);
        }
        self.objects[target.0 as usize]
            .slots
            .entry(slot_name.to_string())
            .or_default()
            .push(obj);
        self.objects[obj.0 as usize].parent = Some((target, slot_name.to_string()));
        Ok(())
    }

    /// Moves `obj` into the first slot of `target` (in slot order) that
    /// accepts it (the guide's `moveIntoFirstAcceptingSlot`); the slot
    /// chosen, or the rejection.
    pub fn move_into_first_accepting_slot(
        &mut self,
        obj: ObjectId,
        target: ObjectId,
    ) -> Result<String, WorldError> {
        let kind = self.get(obj)?.kind;
        let t = self.get(target)?;
        let slot = t
            .kind
            .slots()
            .into_iter()
            .find(|(n, a)| a.contains(&kind) && t.slots.contains_key(*n))
            .map(|(n, _)| n.to_string())
            .ok_or_else(|| WorldError::BadSlot {
                target,
                slot: "(any)".into(),
                kind,
            })?;
        self.move_to_slot(obj, target, &slot)?;
        Ok(slot)
    }

    /// Whether `outer` is `inner` or holds it, at any depth.
    pub fn holds(&self, outer: ObjectId, inner: ObjectId) -> bool {
        let mut at = Some(inner);
        while let Some(id) = at {
            if id == outer {
                return true;
            }
            at = self.parent(id).map(|(p, _)| p);
        }
        false
    }

    /// The outermost holder of `obj` (the guide's `findRoot`): the
    /// world's root for anything placed, the object itself if loose.
    pub fn find_root(&self, obj: ObjectId) -> ObjectId {
        let mut at = obj;
        while let Some((p, _)) = self.parent(at) {
            at = p;
        }
        at
    }

    /// `id` if it is `root` or held by it at any depth (the guide's
    /// `findSelfOrDescendantByInstanceId`).
    pub fn find_self_or_descendant(&self, root: ObjectId, id: ObjectId) -> Option<ObjectId> {
        (self.get(id).is_ok() && self.holds(root, id)).then_some(id)
    }

    /// The object and slot holding `obj`.
    pub fn parent(&self, obj: ObjectId) -> Option<(ObjectId, &str)> {
        self.get(obj)
            .ok()?
            .parent
            .as_ref()
            .map(|(p, s)| (*p, s.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mangekyo_defs::Origin;

    fn def(kind: ObjectKind) -> ObjectDef {
        ObjectDef {
            name: "x".into(),
            kind,
            properties: [(
                "exploration".to_string(),
                PropertyRange {
                    min: 0.0,
                    max: 100.0,
                },
            )]
            .into(),
            initial: Default::default(),
            interactions: Default::default(),
            origin: Origin {
                file: String::new(),
                line: 0,
                column: 0,
            },
        }
    }

    #[test]
    fn slots_take_only_their_kind_and_refusals_change_nothing() {
        let mut w = World::new();
        let loc = w.create(&def(ObjectKind::Location), &[]);
        let ch = w.create(&def(ObjectKind::Character), &[]);
        let before = w.clone();
        assert!(matches!(
            w.move_to_slot(ch, w.root(), slot::LOCATIONS),
            Err(WorldError::BadSlot { .. })
        ));
        assert_eq!(w, before);
        w.move_to_slot(loc, w.root(), slot::LOCATIONS).unwrap();
        w.move_to_slot(ch, w.root(), slot::CHARACTERS).unwrap();
        w.move_to_slot(ch, loc, slot::CHARACTERS).unwrap();
        assert_eq!(w.slot(w.root(), slot::CHARACTERS), []);
        assert_eq!(w.slot(loc, slot::CHARACTERS), [ch]);
        assert_eq!(w.parent(ch), Some((loc, slot::CHARACTERS)));
    }

    #[test]
    fn properties_keep_their_range() {
        let mut w = World::new();
        let loc = w.create(&def(ObjectKind::Location), &[]);
        assert_eq!(w.number(loc, "exploration"), Ok(0.0));
        assert!(w.set_number(loc, "exploration", 101.0).is_err());
        assert_eq!(w.number(loc, "exploration"), Ok(0.0));
        w.set_number(loc, "exploration", 40.0).unwrap();
        assert_eq!(w.number(loc, "exploration"), Ok(40.0));
        assert!(matches!(
            w.number(loc, "nope"),
            Err(WorldError::NoProperty { .. })
        ));
    }
}
