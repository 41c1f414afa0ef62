//! `check`: designer findings beyond validity.

use mangekyo_island::{check::check, example, load_definitions};

fn with_edit(file: &str, from: &str, to: &str) -> mangekyo_island::Definitions {
    let files: Vec<(String, String)> = example::sources()
        .iter()
        .map(|(n, t)| {
            (
                n.to_string(),
                if n.ends_with(file) {
                    t.replacen(from, to, 1)
                } else {
                    t.to_string()
                },
            )
        })
        .collect();
    load_definitions(files.iter().map(|(n, t)| (n.as_str(), t.as_str()))).unwrap()
}

#[test]
fn the_example_world_has_no_findings() {
    assert_eq!(check(&example::definitions()), []);
}

#[test]
fn missing_translations_unused_definitions_and_clashes_are_found() {
    let missing = with_edit(
        "ja.yaml",
        "      scrub:\n        name: 低木林\n",
        "      scrub:\n",
    );
    let f = check(&missing);
    assert!(
        f.iter()
            .any(|f| f.path == "localization.ja.location_types.scrub.name"),
        "{f:?}"
    );
    let unused = with_edit(
        "objects.yaml",
        "object_defs:\n",
        "object_defs:\n  land.unused:\n    kind: location\n",
    );
    let f = check(&unused);
    assert!(
        f.iter()
            .any(|f| f.path == "object_defs.land.unused" && f.origin.is_some()),
        "{f:?}"
    );
    let clash = with_edit("en.yaml", "name: Beach", "name: Harbor");
    let f = check(&clash);
    assert!(
        f.iter()
            .any(|f| f.message.contains("both shown as \"Harbor\"")),
        "{f:?}"
    );
}
