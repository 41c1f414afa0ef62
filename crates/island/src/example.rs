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

/// The example world's sources with its `island` scope resized to exactly
/// `sites` sites: its guarantees replaced by `guarantees` (YAML flow
/// mappings, one list item each), its start types by `start`, and no sea
/// routes (quadratic in the harbours) or per-type cap. The shape benches
/// and load tests scale an island with.
///
/// ```
/// use mangekyo_island::example;
/// let sources = example::resized_island(40, &["{ type: village, count: 39 }".into()], "village");
/// let defs = mangekyo_island::load_definitions(
///     sources.iter().map(|(n, t)| (n.as_str(), t.as_str())),
/// )
/// .unwrap();
/// assert!(defs.scopes().contains_key("island"));
/// ```
pub fn resized_island(sites: u32, guarantees: &[String], start: &str) -> Vec<(String, String)> {
    sources()
        .iter()
        .map(|&(name, text)| {
            let text = if name.ends_with("scopes.yaml") {
                resize_scopes(text, sites, guarantees, start)
            } else {
                text.to_owned()
            };
            (name.to_owned(), text)
        })
        .collect()
}

/// `scopes.yaml` with its first scope (`island`) resized as
/// [`resized_island`] says.
fn resize_scopes(text: &str, sites: u32, guarantees: &[String], start: &str) -> String {
    // The bundled text is fixed: a missing piece is a change to the
    // example that this function must follow (its doc test fails).
    let cut = |t: &str, from: &str, to: &str| -> (usize, usize) {
        let a = t
            .find(from)
            .unwrap_or_else(|| panic!("the example's scopes lost {from:?}"));
        let b = a + t[a..]
            .find(to)
            .unwrap_or_else(|| panic!("the example's scopes lost {to:?}"));
        (a, b)
    };
    let mut t = text.to_owned();
    let (a, b) = cut(&t, "    guarantees:\n", "    start:");
    let items: String = guarantees
        .iter()
        .map(|g| format!("      - {g}\n"))
        .collect();
    t.replace_range(a..b, &format!("    guarantees:\n{items}"));
    for (old, new) in [
        (
            "site_count: { min: 18, max: 24 }".to_owned(),
            format!("site_count: {{ min: {sites}, max: {sites} }}"),
        ),
        ("    max_sites_per_type: 3\n".to_owned(), String::new()),
        (
            "start: [harbor, beach]".to_owned(),
            format!("start: [{start}]"),
        ),
        (
            "    sea_routes: { between: harbor, path: path.boat, meters_per_minute: 150 }\n"
                .to_owned(),
            String::new(),
        ),
    ] {
        assert!(t.contains(&old), "the example's scopes lost {old:?}");
        t = t.replacen(&old, &new, 1);
    }
    t
}
