//! One name per parameter on every surface: the library's parameter
//! structs (their JSON), the CLI's flags (clap, read from `--help`), the
//! OpenAPI document and `docs/names.md` agree. A flag renamed on one side
//! only, a field the document forgets, or a name the table lacks fails
//! here.

mod common;

use common::mangekyo;
use serde_json::Value;
use std::collections::BTreeSet;

/// Every `--flag` (and visible alias) that `mangekyo <args> --help` lists,
/// as snake_case.
fn flags(args: &[&str]) -> BTreeSet<String> {
    let mut all: Vec<&str> = args.to_vec();
    all.push("--help");
    let out = mangekyo(&all);
    assert!(out.status.success(), "{args:?} --help failed");
    let text = String::from_utf8(out.stdout).unwrap();
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']' || c == ':')
        .filter_map(|w| w.strip_prefix("--"))
        .filter(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-' || c.is_ascii_digit())
        })
        .map(|w| w.replace('-', "_"))
        .collect()
}

/// The query (and path) parameter names of the operation at `path`.
fn http_params(doc: &Value, path: &str, method: &str) -> BTreeSet<String> {
    doc["paths"][path][method]["parameters"]
        .as_array()
        .unwrap_or_else(|| panic!("{method} {path} is not in the document"))
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

/// The keys of a parameter struct's JSON.
fn fields(value: Value) -> BTreeSet<String> {
    value.as_object().unwrap().keys().cloned().collect()
}

fn names_table() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/names.md")).unwrap()
}

fn listed(table: &str, name: &str) -> bool {
    table.contains(&format!("`{name}`"))
}

#[test]
fn planet_parameters_have_one_name_everywhere() {
    let fields = fields(serde_json::to_value(mangekyo_planet::PlanetParams::default()).unwrap());
    let cli = flags(&["planet", "preview"]);
    let doc = mangekyo_server::openapi_document();
    let create =
        doc["components"]["schemas"]["CreatePlanet"]["properties"]["params"]["description"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
    let table = names_table();
    let mut wrong = Vec::new();
    for f in &fields {
        if !cli.contains(f) {
            wrong.push(format!(
                "PlanetParams.{f} has no CLI flag --{}",
                f.replace('_', "-")
            ));
        }
        if !create.contains(f.as_str()) {
            wrong.push(format!(
                "PlanetParams.{f} is not described in POST /v1/planets params"
            ));
        }
        if !listed(&table, f) {
            wrong.push(format!("PlanetParams.{f} is not in docs/names.md"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn cave_parameters_have_one_name_everywhere() {
    let fields = fields(serde_json::to_value(mangekyo_caves::CaveParams::default()).unwrap());
    let doc = mangekyo_server::openapi_document();
    let table = names_table();
    let mut wrong = Vec::new();
    for path in [
        "/v1/caves/{seed}",
        "/v1/caves/{seed}/chunks/{cx}/{cy}/{cz}",
        "/v1/caves/{seed}/density",
    ] {
        let http = http_params(&doc, path, "get");
        for f in &fields {
            if !http.contains(f) {
                wrong.push(format!("CaveParams.{f} is not a query parameter of {path}"));
            }
        }
        assert!(http.contains("seed"), "{path}");
    }
    for f in &fields {
        if !listed(&table, f) {
            wrong.push(format!("CaveParams.{f} is not in docs/names.md"));
        }
    }
    // The CLI takes cave parameters as the same JSON (`--params`), plus
    // the mode and the seed by name.
    let cli = flags(&["caves", "chunk"]);
    for shared in ["seed", "mode", "params", "mesher", "output"] {
        if !cli.contains(shared) {
            wrong.push(format!("mangekyo caves chunk has no --{shared}"));
        }
    }
    assert!(
        http_params(&doc, "/v1/caves/{seed}/chunks/{cx}/{cy}/{cz}", "get").contains("mesher"),
        "the chunk route's mesher"
    );
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn shared_settings_have_one_name_on_the_cli_and_over_http() {
    let doc = mangekyo_server::openapi_document();
    let table = names_table();
    // (CLI command, HTTP operation, names both must use)
    let pairs: [(&[&str], &str, &[&str]); 3] = [
        (
            &["island", "generate"],
            "/v1/islands/example/{seed}",
            &["seed", "scope", "lang", "format"],
        ),
        (
            &["dungeon", "cavern"],
            "/v1/dungeon/caverns/{seed}",
            &["seed"],
        ),
        (
            &["caves", "chunk"],
            "/v1/caves/{seed}/chunks/{cx}/{cy}/{cz}",
            &["seed", "mode", "mesher", "format"],
        ),
    ];
    let mut wrong = Vec::new();
    for (cli_args, path, names) in pairs {
        let cli = flags(cli_args);
        let http = http_params(&doc, path, "get");
        for name in names {
            if !cli.contains(*name) && *name != "format" {
                wrong.push(format!("mangekyo {} has no --{name}", cli_args.join(" ")));
            }
            if !http.contains(*name) {
                wrong.push(format!("GET {path} has no {name}"));
            }
            if !listed(&table, name) {
                wrong.push(format!("{name} is not in docs/names.md"));
            }
        }
    }
    // Every command that writes a file takes -o/--output.
    for cmd in [
        &["island", "generate"][..],
        &["planet", "preview"],
        &["planet", "chunk"],
        &["planet", "plates"],
        &["caves", "chunk"],
        &["caves", "export"],
        &["bake", "chunks"],
        &["bake", "tiles"],
    ] {
        if !flags(cmd).contains("output") {
            wrong.push(format!("mangekyo {} has no --output", cmd.join(" ")));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The text clap prints for `--flag` in `mangekyo <args> --help`: from the
/// flag to the next line that starts another flag.
fn flag_help(args: &[&str], flag: &str) -> String {
    let mut all: Vec<&str> = args.to_vec();
    all.push("--help");
    let text = String::from_utf8(mangekyo(&all).stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim_start().starts_with(flag))
        .unwrap_or_else(|| panic!("{args:?} has no {flag}"));
    let end = lines[start + 1..]
        .iter()
        .position(|l| l.trim_start().starts_with('-'))
        .map_or(lines.len(), |i| start + 1 + i);
    lines[start..end].join(" ")
}

#[test]
fn the_chunk_edge_has_one_default_on_every_surface() {
    // The library's default is what the service answers without `edge=`
    // (served bytes never change), so every other surface follows it; the
    // WebAssembly operations' own test checks theirs against it.
    let default = mangekyo_planet::Edge::default().name();
    assert_eq!(default, "exclusive");
    for args in [&["planet", "chunk"][..], &["bake", "chunks"][..]] {
        let help = flag_help(args, "--edge");
        assert!(
            help.contains(&format!("[default: {default}]")),
            "{args:?} --edge: {help}"
        );
    }
    let doc = mangekyo_server::openapi_document();
    let path = "/v1/planets/{id}/chunks/{projection}/{lod}/{cx}/{cy}";
    let edge = doc["paths"][path]["get"]["parameters"]
        .as_array()
        .unwrap_or_else(|| panic!("{path} is not in the document"))
        .iter()
        .find(|p| p["name"] == "edge")
        .unwrap_or_else(|| panic!("{path} has no edge parameter"));
    let description = edge["description"].as_str().unwrap_or_default();
    assert!(
        description.starts_with(&format!("{default} (")) && description.contains("the default"),
        "{path} edge: {description}"
    );
    let table = names_table();
    assert!(
        table.contains(&format!("`edge` defaults to `{default}` on every surface")),
        "docs/names.md names the one default"
    );
}
