//! Hostile saves (issue 22): loading never panics; a save is either
//! refused with a reason or restores a game that saves back to the same
//! text. Bounded case counts, so it runs in CI in seconds.

use mangekyo_island::{Definitions, example, load_definitions};
use mangekyo_world::Game;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::Value;

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

fn defs() -> Definitions {
    load_definitions(example::sources()).unwrap()
}

/// A save of a game that has explored a little.
fn a_save(defs: &Definitions) -> String {
    let mut game = Game::new(defs, "island", 11.into()).unwrap();
    for _ in 0..4 {
        let _ = game.act(game.here(), "explore");
    }
    game.save()
}

/// Every path to a value in `v`, as JSON pointers.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                pointers(
                    x,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pointers(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// A replacement value: extremes, wrong types, small changes.
fn any_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (0u64..20).prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,12}".prop_map(Value::String),
        Just(Value::Array(vec![])),
        Just(Value::Object(serde_json::Map::new())),
    ]
}

#[test]
fn edited_saves_are_refused_or_restore_exactly() {
    let defs = defs();
    let save = a_save(&defs);
    let original: Value = serde_json::from_str(&save).unwrap();
    let mut paths = Vec::new();
    pointers(&original, String::new(), &mut paths);
    let cases = std::cell::Cell::new(0u32);
    let accepted = std::cell::Cell::new(0u32);
    let edits = proptest::collection::vec(
        (
            any::<prop::sample::Index>(),
            proptest::option::weighted(0.7, any_value()),
            any::<bool>(),
        ),
        1..4,
    );
    runner(128)
        .run(&edits, |edits| {
            cases.set(cases.get() + 1);
            let mut v = original.clone();
            for (index, value, remove) in edits {
                let path = index.get(&paths);
                // `None`: this edit leaves the save alone (so some cases
                // reach the accepting branch).
                let Some(value) = value else {
                    continue;
                };
                if path.is_empty() {
                    continue;
                }
                let (parent, key) = path.rsplit_once('/').unwrap();
                match v.pointer_mut(parent) {
                    Some(Value::Object(m)) if remove => {
                        m.remove(&key.replace("~1", "/").replace("~0", "~"));
                    }
                    Some(Value::Array(a)) if remove => {
                        if let Ok(i) = key.parse::<usize>()
                            && i < a.len()
                        {
                            a.remove(i);
                        }
                    }
                    _ => {
                        if let Some(slot) = v.pointer_mut(path) {
                            *slot = value;
                        }
                    }
                }
            }
            let text = serde_json::to_string_pretty(&v).unwrap();
            if let Ok(game) = Game::load(&defs, &text) {
                accepted.set(accepted.get() + 1);
                let again = game.save();
                let reloaded = Game::load(&defs, &again);
                prop_assert!(reloaded.is_ok(), "an accepted save saves back loadable");
                prop_assert_eq!(reloaded.unwrap().save(), again);
            }
            Ok(())
        })
        .unwrap();
    eprintln!(
        "save loading: {} edited saves ({} accepted and round-tripped)",
        cases.get(),
        accepted.get()
    );
}

#[test]
fn arbitrary_text_is_never_a_save() {
    let defs = defs();
    let save = a_save(&defs);
    let cases = std::cell::Cell::new(0u32);
    // Cuts of a real save (a half-written file) and arbitrary text.
    let text = prop_oneof![
        (0..save.len()).prop_map(move |mut n| {
            while !save.is_char_boundary(n) {
                n -= 1;
            }
            save[..n].to_owned()
        }),
        any::<String>(),
    ];
    runner(256)
        .run(&text, |t| {
            cases.set(cases.get() + 1);
            prop_assert!(Game::load(&defs, &t).is_err());
            Ok(())
        })
        .unwrap();
    eprintln!(
        "save loading: {} truncated or arbitrary texts, all refused",
        cases.get()
    );
}

#[test]
fn an_edited_explorer_is_refused() {
    let defs = defs();
    let save = a_save(&defs);
    let mut v: Value = serde_json::from_str(&save).unwrap();
    let objects = v["world"]["objects"].as_array_mut().unwrap();
    let explorer = objects.last_mut().unwrap();
    let (name, range) = explorer["props"]
        .as_object_mut()
        .unwrap()
        .iter_mut()
        .next()
        .unwrap();
    let name = name.clone();
    // The edit the fuzzer found: a wider range than the definition gives.
    range["max"] = serde_json::json!(9.021509749086732e17);
    let Err(err) = Game::load(&defs, &serde_json::to_string(&v).unwrap()) else {
        panic!("an explorer with an edited range is refused");
    };
    assert!(err.to_string().contains(&name), "{err}");
}

#[test]
fn saved_numbers_read_back_exactly() {
    // Property values are f64 and saves are JSON: a number must read back
    // as the one written, or an accepted save does not save back the same.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let f = f64::from_bits(x);
        if !f.is_finite() {
            continue;
        }
        let text = serde_json::to_string(&f).unwrap();
        let back: f64 = serde_json::from_str(&text).unwrap();
        assert_eq!(back.to_bits(), f.to_bits(), "{text}");
    }
    let text = "9.021509749086732e+17";
    let back: f64 = serde_json::from_str(text).unwrap();
    // The number the fuzzer found (an explorer's edited range) misread by an ulp.
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
}
