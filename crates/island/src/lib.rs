//! Islands of sites from YAML definitions: placement, axes, types with guarantees, Delaunay, paths, names.
#![deny(missing_docs)]
