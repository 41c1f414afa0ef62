//! The engine knows no interaction, object def, location type, variant or
//! property of the example world by name: everything it does comes from the
//! definitions. This scans the code of `crates/world/src` (comments
//! stripped) for every such name the example world declares.

use mangekyo_defs::{PATH_PROPERTIES, PROGRESS_PROPERTY};
use mangekyo_island::example;
use std::collections::BTreeSet;
use std::path::Path;

/// The example world's own names. The spec's contract names (the progress
/// property, the path properties the spawner writes) are the engine's, not
/// the example's, and are left out.
fn example_names() -> BTreeSet<String> {
    let defs = example::definitions();
    let mut names = BTreeSet::new();
    for d in defs.object_defs().values() {
        names.insert(d.name.clone());
        names.extend(d.interactions.keys().cloned());
        names.extend(d.properties.keys().cloned());
    }
    for t in defs.location_types().values() {
        names.insert(t.name.clone());
        names.extend(t.variants.iter().map(|v| v.id.clone()));
    }
    names.extend(defs.axes().keys().cloned());
    names.remove(PROGRESS_PROPERTY);
    for p in PATH_PROPERTIES {
        names.remove(p);
    }
    names
}

/// Code without `//` comments (string literals containing `//` are not
/// expected in this crate; a false strip would only hide, never invent, a
/// hit, and the planted-name check below proves the scan sees code).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whole-word occurrences of `name` in `code` (a name with a dot, like an
/// object def's, matches as it stands).
fn mentions(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + name.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn hits(code: &str, names: &BTreeSet<String>) -> Vec<String> {
    names
        .iter()
        .filter(|n| mentions(code, n))
        .cloned()
        .collect()
}

#[test]
fn the_engine_names_nothing_of_the_example_world() {
    let names = example_names();
    assert!(names.len() > 40, "the example world's names: {names:?}");
    for n in [
        "explore",
        "travel",
        "rest",
        "stamina",
        "land.harbor",
        "harbor",
        // The sea routes: their path def, its interaction, the harbours'
        // property it reads and changes.
        "path.boat",
        "sail",
        "boats",
    ] {
        assert!(names.contains(n), "{n} is one of the example's names");
    }
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() >= 10);
    let mut found = Vec::new();
    for f in files {
        let code = code_of(&std::fs::read_to_string(&f).unwrap());
        for n in hits(&code, &names) {
            found.push(format!("{}: {n}", f.display()));
        }
    }
    assert!(
        found.is_empty(),
        "the engine names the example world:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_a_planted_name() {
    let names = example_names();
    let planted = code_of("let x = game.act(here, \"explore\"); // rest\nlet travel_minutes = 1;");
    assert_eq!(hits(&planted, &names), ["explore"]);
    // A spawner that looked for the boats' def or property by name.
    let planted = code_of("if def.name == \"path.boat\" { w.number(land, \"boats\") } // sail");
    assert_eq!(hits(&planted, &names), ["boats", "path.boat"]);
}
