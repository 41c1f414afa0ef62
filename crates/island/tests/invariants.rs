//! The generator's invariants over a thousand seeds of the example world and
//! a thousand islands of randomly generated valid definition sets.
//! `MANGEKYO_SLOW_TESTS=1` widens both sweeps tenfold.

mod common;

use common::{check_invariants, random_definitions};
use mangekyo_core::Seed;
use mangekyo_island::{example, generate_island, load_definitions};

fn sweep(base: u64) -> u64 {
    if std::env::var_os("MANGEKYO_SLOW_TESTS").is_some() {
        base * 10
    } else {
        base
    }
}

#[test]
fn example_world_holds_every_invariant_over_many_seeds() {
    let defs = example::definitions();
    for scope in ["island", "islet"] {
        let seeds = if scope == "island" {
            sweep(1000)
        } else {
            sweep(300)
        };
        for seed in 0..seeds {
            let map = generate_island(&defs, scope, Seed::new(seed)).unwrap();
            check_invariants(&defs, &map);
        }
    }
}

#[test]
fn example_labels_are_unique_in_every_language() {
    let defs = example::definitions();
    for seed in 0..sweep(200) {
        let map = generate_island(&defs, "island", Seed::new(seed)).unwrap();
        for lang in ["en", "ja"] {
            let mut labels: Vec<String> = map
                .sites
                .iter()
                .map(|s| defs.localization().label(lang, &s.name))
                .collect();
            labels.sort();
            let n = labels.len();
            labels.dedup();
            assert_eq!(labels.len(), n, "seed {seed} {lang}: {labels:?}");
        }
    }
}

#[test]
fn random_definition_sets_hold_every_invariant() {
    let mut islands = 0;
    for set in 0..sweep(250) {
        let files = random_definitions(set);
        let defs = load_definitions(files.iter().map(|(n, t)| (n.as_str(), t.as_str())))
            .unwrap_or_else(|e| panic!("random set {set} should load:\n{e}\n{files:#?}"));
        for seed in 0..4 {
            let map = generate_island(&defs, "s", Seed::new(seed))
                .unwrap_or_else(|e| panic!("set {set} seed {seed}: {e}"));
            check_invariants(&defs, &map);
            islands += 1;
        }
    }
    assert!(islands >= 1000);
}

#[test]
fn guarantees_hold_even_when_no_site_fits_their_limits() {
    // A guarantee whose type needs the highest elevation on an island whose
    // layers can never reach it: the guarantee is absolute, so the site is
    // forced (and marked so).
    let text = example::sources().map(|(n, t)| (n, t.to_string()));
    let mut files: Vec<(String, String)> = text
        .iter()
        .map(|(n, t)| (n.to_string(), t.clone()))
        .collect();
    for f in &mut files {
        f.1 = f.1.replace(
            "      elevation: { min: 7 }",
            "      elevation: { min: 10 }",
        );
    }
    let defs = load_definitions(files.iter().map(|(n, t)| (n.as_str(), t.as_str()))).unwrap();
    let mut forced = 0;
    for seed in 0..200 {
        let map = generate_island(&defs, "island", Seed::new(seed)).unwrap();
        check_invariants(&defs, &map);
        forced += map
            .sites
            .iter()
            .filter(|s| s.assigned_by == mangekyo_island::Assignment::ForcedGuarantee)
            .count();
    }
    assert!(
        forced > 0,
        "elevation 10 should be out of reach on some islands"
    );
}
