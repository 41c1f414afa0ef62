//! The table of parameter objects every surface must read alike
//! (`params_json_cases.txt`), against the planet crate's reader, which
//! the service, the CLI and the WebAssembly package all call.

use mangekyo_planet::{PlanetParams, Version};

/// (verdict, JSON text) rows of the shared table.
fn cases() -> Vec<(&'static str, &'static str)> {
    include_str!("params_json_cases.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split_once('\t').expect("verdict<TAB>json"))
        .collect()
}

#[test]
fn the_shared_table_is_what_the_reader_says() {
    let cases = cases();
    assert!(cases.len() >= 20);
    for (verdict, json) in cases {
        let got = PlanetParams::from_new_json_text(json);
        match verdict {
            "refuse" => assert!(got.is_err(), "{json} is refused, got {got:?}"),
            "default" => assert_eq!(
                got.unwrap_or_else(|e| panic!("{json}: {e}"))
                    .generator_version,
                Version::DEFAULT,
                "{json}"
            ),
            name => assert_eq!(
                got.unwrap_or_else(|e| panic!("{json}: {e}"))
                    .generator_version
                    .name(),
                name,
                "{json}"
            ),
        }
    }
}
