//! Object defs: what can be spawned into a world (a location, a path, a
//! character), its number properties and its interactions, and the
//! property names the spawner and the explorer's progress give meaning to.

use crate::interact;
use std::collections::BTreeMap;

/// The location property whose value is exploration progress; its `max` is
/// "100% explored".
pub const PROGRESS_PROPERTY: &str = "exploration";

/// Path properties the spawner writes; object defs may not declare them.
pub const PATH_PROPERTIES: [&str; 4] = [
    "travel_minutes",
    "required_progress",
    "destination_id",
    "return_path_id",
];

/// Where a definition was written.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Origin {
    /// The source name given to the loader.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// What an object def spawns as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ObjectKind {
    /// A place: holds characters, fixtures and undiscovered fixtures.
    Location,
    /// A one-way path from one location to another.
    Path,
    /// An explorer.
    Character,
}

impl ObjectKind {
    /// The YAML spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ObjectKind::Location => "location",
            ObjectKind::Path => "path",
            ObjectKind::Character => "character",
        }
    }

    /// The slots an object of this kind has, each with the kinds it
    /// accepts (the spec's contract: a location holds characters, its
    /// discovered `fixtures` and its `undiscovered_fixtures`).
    pub fn slots(self) -> &'static [(&'static str, &'static [ObjectKind])] {
        match self {
            ObjectKind::Location => &[
                ("characters", &[ObjectKind::Character]),
                ("fixtures", &[ObjectKind::Path]),
                ("undiscovered_fixtures", &[ObjectKind::Path]),
            ],
            ObjectKind::Path | ObjectKind::Character => &[],
        }
    }

    /// Every kind, in declaration order.
    pub const ALL: [ObjectKind; 3] = [
        ObjectKind::Location,
        ObjectKind::Path,
        ObjectKind::Character,
    ];
}

/// Path properties the spawner writes that hold an instance id, with the
/// kind of object they name.
pub const PATH_REFERENCES: [(&str, ObjectKind); 2] = [
    ("destination_id", ObjectKind::Location),
    ("return_path_id", ObjectKind::Path),
];

/// Inclusive bounds of a number property.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PropertyRange {
    /// Smallest allowed value (also the initial value).
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
}

/// Something that can be spawned into the world.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectDef {
    /// Its global name, e.g. `land.forest`.
    pub name: String,
    /// What it spawns as.
    pub kind: ObjectKind,
    /// Number properties by name.
    pub properties: BTreeMap<String, PropertyRange>,
    /// Initial values that differ from a property's `min` (`start:`).
    pub initial: BTreeMap<String, f64>,
    /// What an agent can do with objects of this def, by name.
    pub interactions: BTreeMap<String, interact::InteractionDef>,
    /// Where it was defined.
    pub origin: Origin,
}

impl ObjectDef {
    /// The value a new object's property starts at.
    pub fn initial_value(&self, prop: &str) -> Option<f64> {
        let r = self.properties.get(prop)?;
        Some(self.initial.get(prop).copied().unwrap_or(r.min))
    }
}
