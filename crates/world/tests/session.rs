//! The terminal game: scripted sessions' transcripts are golden snapshots
//! (in English and Japanese: a tour on foot, and a voyage between two
//! harbours by sea), save → load → continue gives the same transcript as
//! an uninterrupted run, and bad saves are refused with a reason.
//! `UPDATE_EXPECT=1` rewrites the snapshots.

use mangekyo_core::Seed;
use mangekyo_island::example;
use mangekyo_world::session::{Effect, transcript};
use mangekyo_world::{Game, LoadSaveError, Session};
use std::path::Path;

const SEED: u64 = 42;

fn lines_of(text: &'static str) -> Vec<&'static str> {
    text.lines().filter(|l| !l.trim().is_empty()).collect()
}

fn script() -> Vec<&'static str> {
    lines_of(include_str!("scripts/tour.txt"))
}

/// Seed 42 starts on a harbour with a sea route: sail there and back and
/// there again, search the far harbour, look at the map.
fn voyage() -> Vec<&'static str> {
    lines_of(include_str!("scripts/voyage.txt"))
}

fn session(lang: &str) -> Session {
    let defs = example::definitions();
    Session::new(Game::new(&defs, "island", Seed::new(SEED)).unwrap(), lang)
}

fn check_snapshot(name: &str, got: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    // The snapshot as it stood before this run: `UPDATE_EXPECT=1` writes
    // the new transcript and still fails on a change (as core's
    // `UPDATE_GOLDENS`), so a rewrite never passes silently.
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, got).unwrap();
    }
    assert!(
        got == want,
        "transcript {name} changed (UPDATE_EXPECT=1 to accept):\n{got}"
    );
}

#[test]
fn scripted_sessions_match_their_snapshots() {
    for lang in ["en", "ja"] {
        let got = transcript(&mut session(lang), &script(), true);
        check_snapshot(&format!("tour_seed{SEED}_{lang}.txt"), &got);
    }
}

#[test]
fn a_scripted_voyage_matches_its_snapshots() {
    for lang in ["en", "ja"] {
        let got = transcript(&mut session(lang), &voyage(), true);
        assert!(got.contains("sail 2"), "{got}");
        check_snapshot(&format!("voyage_seed{SEED}_{lang}.txt"), &got);
    }
}

#[test]
fn a_place_named_by_its_type_alone_is_not_named_twice() {
    // Seed 7: Spring is the island's only spring, so its name is its type.
    let defs = example::definitions();
    for (lang, alone, typed) in [
        (
            "en",
            "Spring — explored 0%",
            "High Plateau (Highland) — explored",
        ),
        ("ja", "泉 — 探索 0%", "高原）— 探索"),
    ] {
        let mut s = Session::new(Game::new(&defs, "island", Seed::new(7)).unwrap(), lang);
        let lines = [
            "explore", "explore", "explore", "explore", "travel 1", "explore", "explore",
            "travel 2", "look",
        ];
        let got = transcript(&mut s, &lines, false);
        assert!(got.contains(alone), "{lang}:\n{got}");
        assert!(
            got.contains(typed),
            "{lang}: other places keep their type:\n{got}"
        );
    }
}

#[test]
fn save_load_continue_equals_an_uninterrupted_run() {
    let lines = script();
    resumes_exactly(&lines, &[0, 1, 5, 12, 20, lines.len() - 1]);
}

#[test]
fn save_load_continue_equals_an_uninterrupted_voyage() {
    // Every cut: before and after each sailing, so boats that moved and
    // routes found from the other end are saved and restored.
    let lines = voyage();
    resumes_exactly(&lines, &(0..lines.len()).collect::<Vec<_>>());
}

fn resumes_exactly(lines: &[&str], cuts: &[usize]) {
    let defs = example::definitions();
    let whole = transcript(&mut session("en"), lines, false);
    for &cut in cuts {
        let mut first = session("en");
        let head = transcript(&mut first, &lines[..cut], false);
        let json = match first.handle("save").effect {
            Effect::Save { json, .. } => json,
            other => panic!("save gave {other:?}"),
        };
        let restored = Game::load(&defs, &json).unwrap_or_else(|e| panic!("cut {cut}: {e}"));
        assert_eq!(restored.world(), first.game().world());
        let mut second = Session::new(restored, "en");
        let tail = transcript(&mut second, &lines[cut..], false);
        assert_eq!(head + &tail, whole, "cut at {cut}");
    }
}

fn saved_json() -> (mangekyo_island::Definitions, serde_json::Value) {
    let defs = example::definitions();
    let mut s = session("en");
    transcript(&mut s, &["explore", "travel 1", "explore"], false);
    (defs, serde_json::from_str(&s.game().save()).unwrap())
}

fn refuse(defs: &mangekyo_island::Definitions, json: &str) -> LoadSaveError {
    match Game::load(defs, json) {
        Ok(_) => panic!("should be refused: {}", &json[..json.len().min(200)]),
        Err(e) => e,
    }
}

#[test]
fn corrupt_and_foreign_saves_are_refused_with_a_reason() {
    let (defs, save) = saved_json();
    let text = save.to_string();
    assert!(matches!(
        refuse(&defs, "not json"),
        LoadSaveError::Corrupt(_)
    ));
    assert!(matches!(
        refuse(&defs, &text[..text.len() / 2]),
        LoadSaveError::Corrupt(_)
    ));
    assert!(matches!(
        refuse(&defs, r#"{"format": "someone-else", "data": 1}"#),
        LoadSaveError::Foreign(_)
    ));
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = save.clone();
        f(&mut v);
        v.to_string()
    };
    let e = refuse(&defs, &edit(&|v| v["format_version"] = 3.into()));
    assert_eq!(e, LoadSaveError::Version { found: 3 });
    assert!(e.to_string().contains("version 3"));
    // Version 1 (built-in explore and travel) is refused with the reason.
    let e = refuse(&defs, &edit(&|v| v["format_version"] = 1.into()));
    assert!(
        matches!(e, LoadSaveError::Refused { found: 1, ref reason } if reason.contains("built in")),
        "{e}"
    );
    assert!(matches!(
        refuse(&defs, &edit(&|v| v["seed"] = 43.into())),
        LoadSaveError::OtherIsland(_)
    ));
    assert!(matches!(
        refuse(&defs, &edit(&|v| v["scope"] = "islet".into())),
        LoadSaveError::OtherIsland(_)
    ));
    assert!(matches!(
        refuse(&defs, &edit(&|v| v["play_draws"] = u64::MAX.into())),
        LoadSaveError::Inconsistent(_)
    ));
    assert!(matches!(
        refuse(&defs, &edit(&|v| v["surprise"] = 1.into())),
        LoadSaveError::Corrupt(_)
    ));
    // Tampering with the world: a path's minutes, progress out of range, a
    // path revealed without its progress, the explorer teleported.
    let objects = |v: &mut serde_json::Value| v["world"]["objects"].as_array_mut().unwrap().clone();
    let mut v = save.clone();
    let objs = objects(&mut v);
    let path_idx = objs.iter().position(|o| o["kind"] == "path").unwrap();
    let land_idx = objs
        .iter()
        .position(|o| {
            o["kind"] == "location" && o["props"]["exploration"]["value"].as_f64() > Some(0.0)
        })
        .unwrap();
    let e = refuse(
        &defs,
        &edit(&|v| v["world"]["objects"][path_idx]["props"]["travel_minutes"]["value"] = 1.into()),
    );
    assert!(
        matches!(e, LoadSaveError::Inconsistent(ref m) if m.contains("travel_minutes")),
        "{e}"
    );
    let e = refuse(
        &defs,
        &edit(&|v| v["world"]["objects"][land_idx]["props"]["exploration"]["value"] = 500.into()),
    );
    assert!(matches!(e, LoadSaveError::Inconsistent(_)), "{e}");
    let e = refuse(
        &defs,
        &edit(&|v| v["world"]["objects"][land_idx]["props"]["exploration"]["value"] = 0.into()),
    );
    assert!(
        matches!(e, LoadSaveError::Inconsistent(ref m) if m.contains("should be in")),
        "{e}"
    );
    let e = refuse(
        &defs,
        &edit(&|v| {
            let player = v["player"].as_u64().unwrap() as usize;
            v["world"]["objects"][player]["parent"] = serde_json::json!([0, "characters"]);
        }),
    );
    assert!(matches!(e, LoadSaveError::Inconsistent(_)), "{e}");
    // Other definitions (an edited world) give another island.
    let mut files: Vec<(String, String)> = example::sources()
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    files[3].1 = files[3].1.replace(
        "meters_per_distance_unit: 2500",
        "meters_per_distance_unit: 2600",
    );
    let other =
        mangekyo_island::load_definitions(files.iter().map(|(n, t)| (n.as_str(), t.as_str())))
            .unwrap();
    assert!(matches!(
        refuse(&other, &text),
        LoadSaveError::OtherIsland(_)
    ));
}
