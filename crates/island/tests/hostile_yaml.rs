//! Hostile YAML (issue 22): the definitions loader never panics, whatever
//! text it is given, and reports syntax errors before anything else.
//! Bounded case counts, so it runs in CI in seconds.

use mangekyo_island::{DefinitionsLoader, example, generate_island};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Text made of YAML's own punctuation, keys the loader knows and noise.
fn yamlish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("object_defs:".to_owned()),
        Just("location_types:".to_owned()),
        Just("generation_scopes:".to_owned()),
        Just("axes:".to_owned()),
        Just("site_count: { min: 1, max: 2 }".to_owned()),
        Just("&a [*a, *a]".to_owned()),
        Just("!!binary".to_owned()),
        Just("- ".to_owned()),
        Just("\n  ".to_owned()),
        Just("\n".to_owned()),
        Just("? ".to_owned()),
        Just("'".to_owned()),
        Just("\"\\u".to_owned()),
        "[a-z_]{1,8}: ".prop_map(|s| s),
        "[-0-9.eE+]{1,12}".prop_map(|s| s),
        "[{}\\[\\],:#&*!|>%@` \t]{1,4}".prop_map(|s| s),
        any::<String>(),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

#[test]
fn any_text_is_loaded_or_refused_with_diagnostics() {
    let cases = std::cell::Cell::new(0u32);
    runner(512)
        .run(&yamlish(), |text| {
            cases.set(cases.get() + 1);
            let mut loader = DefinitionsLoader::new();
            loader.add_source("fuzz.yaml", &text);
            if let Err(e) = loader.finish() {
                prop_assert!(!e.diagnostics.is_empty());
                for d in &e.diagnostics {
                    prop_assert_eq!(&d.file, "fuzz.yaml");
                }
            }
            Ok(())
        })
        .unwrap();
    eprintln!("yaml loader: {} arbitrary texts", cases.get());
}

/// An edit of one example file: a cut, a pasted fragment, or both.
fn edited_example() -> impl Strategy<Value = (usize, usize, usize, String)> {
    (
        0..example::sources().len(),
        any::<usize>(),
        0usize..64,
        prop_oneof![Just(String::new()), yamlish()],
    )
}

#[test]
fn edited_example_worlds_load_or_report_syntax_errors_first() {
    let cases = std::cell::Cell::new(0u32);
    let loaded = std::cell::Cell::new(0u32);
    let generated = std::cell::Cell::new(0u32);
    runner(256)
        .run(&edited_example(), |(file, at, cut, paste)| {
            cases.set(cases.get() + 1);
            let sources = example::sources();
            let mut texts: Vec<String> = sources.iter().map(|(_, t)| (*t).to_owned()).collect();
            let text = &mut texts[file];
            let mut start = at % (text.len() + 1);
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (start + cut).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.replace_range(start..end, &paste);
            let mut loader = DefinitionsLoader::new();
            for ((name, _), t) in sources.iter().zip(&texts) {
                loader.add_source(name, t);
            }
            match loader.finish() {
                Ok(defs) => {
                    loaded.set(loaded.get() + 1);
                    // Generate only what a server would (its island_sites
                    // budget); an edit may ask for a million sites.
                    let small = defs.scopes().values().all(|s| s.site_count.1 <= 2000);
                    if small {
                        for scope in defs.scopes().keys() {
                            let _ = generate_island(&defs, scope, 1.into());
                        }
                        generated.set(generated.get() + 1);
                    }
                }
                Err(e) => {
                    prop_assert!(!e.diagnostics.is_empty());
                    let names: Vec<&str> = sources.iter().map(|(n, _)| *n).collect();
                    let syntax: Vec<bool> = e
                        .diagnostics
                        .iter()
                        .map(|d| d.message.starts_with("invalid YAML"))
                        .collect();
                    for d in &e.diagnostics {
                        prop_assert!(names.contains(&d.file.as_str()), "{}", d.file);
                    }
                    // Syntax errors come before every follow-on error.
                    if let Some(last_syntax) = syntax.iter().rposition(|&s| s) {
                        prop_assert!(syntax[..=last_syntax].iter().all(|&s| s), "{e}");
                    }
                }
            }
            Ok(())
        })
        .unwrap();
    eprintln!(
        "yaml loader: {} edited example worlds ({} loaded, {} generated)",
        cases.get(),
        loaded.get(),
        generated.get()
    );
}
