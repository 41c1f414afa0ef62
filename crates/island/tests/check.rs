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

/// A set without a `localization` block generates in any language, every
/// name its identifier, and `check` only notes it (it once passed `check`
/// and then refused `--lang en` with "must be one of , got \"en\"").
#[test]
fn a_set_without_localization_generates_with_identifiers() {
    let sources: Vec<_> = example::sources()
        .into_iter()
        .filter(|(n, _)| !n.ends_with("en.yaml") && !n.ends_with("ja.yaml"))
        .collect();
    assert_eq!(sources.len(), 4, "the example's translations are en and ja");
    let defs = load_definitions(sources).unwrap();
    assert!(defs.localization().languages().is_empty());
    let f = check(&defs);
    assert!(
        f.iter()
            .any(|f| f.path == "localization" && f.message.contains("identifiers")),
        "{f:?}"
    );
    assert_eq!(defs.check_scope_and_lang("island", "en"), Ok(()));
    let refused = defs.check_scope_and_lang("nowhere", "en").unwrap_err();
    assert_eq!(refused.parameter, "scope");
    let map = mangekyo_island::generate_island(&defs, "island", 42.into()).unwrap();
    let text = mangekyo_island::view::text::render(&map, &defs, "en");
    for site in &map.sites {
        let id = &site.name.location_type;
        assert!(text.contains(id.as_str()), "{id} missing from:\n{text}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&mangekyo_island::view::json::to_string(&map, &defs, "en")).unwrap();
    let labels: Vec<&str> = json["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["label"].as_str().unwrap())
        .collect();
    let want: Vec<String> = map
        .sites
        .iter()
        .map(|s| match (&s.name.variant, s.name.ordinal) {
            (Some(v), _) => format!("{}/{v}", s.name.location_type),
            (None, Some(n)) => format!("{} {n}", s.name.location_type),
            (None, None) => s.name.location_type.clone(),
        })
        .collect();
    assert_eq!(labels, want);
}

/// A set that has languages still refuses one it lacks.
#[test]
fn a_set_with_languages_refuses_another() {
    let e = example::definitions()
        .check_scope_and_lang("island", "fr")
        .unwrap_err();
    assert_eq!(e.parameter, "lang");
    assert_eq!(e.known, ["en", "ja"]);
}
