//! The world engine's definitions language: what the objects of a world
//! are and what agents can do with them, as data.
//!
//! Designers write one set of YAML files; `mangekyo-island` loads it
//! (axes, location types, generation scopes and localisation are the
//! island generator's) and this crate holds the part only the world engine
//! (`mangekyo-world`) runs: object defs ([`ObjectDef`]: kind, number
//! properties, interactions) and interactions as data ([`interact`]:
//! expressions, conditions, effects, a scope's endings and the statistics
//! bot), how they are read from YAML ([`parse::ObjectParser`]) and how they
//! are checked once every file is in ([`check::InteractionChecker`]).
//!
//! The YAML reader they are parsed with is here too ([`yaml`], [`read`]),
//! with the [`Diagnostic`] every definition error is: the island's loader
//! reads its own sections with the same reader, so one file's errors all
//! come out in one form.
//!
//! ```
//! use mangekyo_defs::interact::{CmpOp, parse_condition};
//! let c = parse_condition("agent.stamina >= 10").unwrap();
//! assert!(c.op == CmpOp::Ge && c.op.holds(12.0, 10.0));
//! ```
#![deny(missing_docs)]

pub mod check;
mod diagnostic;
pub mod interact;
mod object;
pub mod parse;
pub mod read;
pub mod yaml;

pub use diagnostic::Diagnostic;
pub use object::{
    ObjectDef, ObjectKind, Origin, PATH_PROPERTIES, PATH_REFERENCES, PROGRESS_PROPERTY,
    PropertyRange,
};
