//! The example world of `examples/island/`, built into the crate so the
//! server, benches and doc tests can use it without touching the
//! filesystem.

/// The example world's files as `(name, text)` pairs, in a fixed order.
pub fn sources() -> [(&'static str, &'static str); 6] {
    [
        (
            "examples/island/objects.yaml",
            include_str!("../../../examples/island/objects.yaml"),
        ),
        (
            "examples/island/axes.yaml",
            include_str!("../../../examples/island/axes.yaml"),
        ),
        (
            "examples/island/types.yaml",
            include_str!("../../../examples/island/types.yaml"),
        ),
        (
            "examples/island/scopes.yaml",
            include_str!("../../../examples/island/scopes.yaml"),
        ),
        (
            "examples/island/en.yaml",
            include_str!("../../../examples/island/en.yaml"),
        ),
        (
            "examples/island/ja.yaml",
            include_str!("../../../examples/island/ja.yaml"),
        ),
    ]
}

/// The example world, loaded.
///
/// ```
/// let defs = mangekyo_island::example::definitions();
/// assert!(defs.scopes().contains_key("island"));
/// ```
pub fn definitions() -> crate::Definitions {
    crate::load_definitions(sources()).expect("the bundled example world is valid (tested)")
}
