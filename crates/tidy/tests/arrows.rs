//! Dependency arrows point inwards, read from `cargo metadata`: generators
//! never depend on the edges or on async/SQL/HTTP crates, `island` never
//! knows `world`, and the format encoders know no generator.
//!
//! A new edge between workspace crates is a design change: add it to
//! `ALLOWED` below, with a reason, in the same commit.

use serde_json::Value;
use std::collections::BTreeMap;

/// Normal (non-dev) dependencies of every workspace package, by name.
fn graph() -> BTreeMap<String, Vec<String>> {
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut g = BTreeMap::new();
    for p in meta["packages"].as_array().unwrap() {
        let deps = p["dependencies"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["kind"].is_null())
            .map(|d| d["name"].as_str().unwrap().to_string())
            .collect();
        g.insert(p["name"].as_str().unwrap().to_string(), deps);
    }
    g
}

/// The generator crates: pure functions of their inputs.
const GENERATORS: [&str; 6] = [
    "mangekyo-core",
    "mangekyo-planet",
    "mangekyo-caves",
    "mangekyo-dungeon",
    "mangekyo-island",
    "mangekyo-world",
];

/// Crates that mean I/O, async runtimes, HTTP or SQL.
const EDGE_CRATES: [&str; 10] = [
    "mangekyo-export",
    "mangekyo-store",
    "mangekyo-server",
    "mangekyo",
    "tokio",
    "axum",
    "sqlx",
    "hyper",
    "reqwest",
    "tower-http",
];

/// Workspace-internal edges that are allowed, with the reason.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "mangekyo-world",
        "mangekyo-island",
        "the world spawns islands; never the other way",
    ),
    (
        "mangekyo-server",
        "*",
        "the server is an edge and may serve every generator",
    ),
    (
        "mangekyo",
        "*",
        "the CLI is an edge and may drive every crate",
    ),
    ("mangekyo-bench", "*", "benchmarks measure every crate"),
];

fn allowed(from: &str, to: &str) -> bool {
    to == "mangekyo-core"
        || ALLOWED
            .iter()
            .any(|(f, t, _)| *f == from && (*t == "*" || *t == to))
}

#[test]
fn generators_never_depend_on_edges() {
    let g = graph();
    for gen_crate in GENERATORS {
        let deps = &g[gen_crate];
        for bad in EDGE_CRATES {
            assert!(
                !deps.iter().any(|d| d == bad),
                "{gen_crate} must not depend on {bad}"
            );
        }
    }
}

#[test]
fn island_does_not_know_the_world() {
    let g = graph();
    assert!(
        !g["mangekyo-island"].iter().any(|d| d == "mangekyo-world"),
        "the layout must not depend on world objects"
    );
}

#[test]
fn every_workspace_edge_is_allowed() {
    let g = graph();
    let workspace: Vec<&String> = g.keys().collect();
    let mut bad = Vec::new();
    for (from, deps) in &g {
        for to in deps {
            if workspace.contains(&to) && !allowed(from, to) {
                bad.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "edges not in the allow-table of crates/tidy/tests/arrows.rs: {bad:?}"
    );
}
