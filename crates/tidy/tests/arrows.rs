//! Dependency arrows point inwards, read from `cargo metadata`: generators
//! never depend on the edges or on async/SQL/HTTP crates, `island` never
//! knows `world`, the format encoders know no generator, only `store`
//! knows SQL and only `server` knows HTTP, and no C code (zstd) reaches
//! the WebAssembly package (read from `cargo tree` for wasm32).
//!
//! Every edge between workspace crates is listed in `ALLOWED` below with
//! its reason, `mangekyo-core` included; a new edge is a design change:
//! add it there, with a reason, in the same commit (and an edge that is
//! gone must leave the table, so the table stays the map).

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
const GENERATORS: [&str; 7] = [
    "mangekyo-core",
    "mangekyo-defs",
    "mangekyo-planet",
    "mangekyo-caves",
    "mangekyo-dungeon",
    "mangekyo-island",
    "mangekyo-world",
];

/// Crates that mean I/O, async runtimes, HTTP or SQL.
const EDGE_CRATES: [&str; 11] = [
    "mangekyo-export",
    "mangekyo-formats",
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

/// Crates that speak SQL: only `mangekyo-store` may depend on them.
const SQL_CRATES: [&str; 6] = [
    "sqlx",
    "sqlx-core",
    "sqlx-sqlite",
    "sqlx-mysql",
    "sqlx-postgres",
    "rusqlite",
];

/// Crates that speak HTTP: only `mangekyo-server` may depend on them.
const HTTP_CRATES: [&str; 10] = [
    "axum",
    "axum-core",
    "hyper",
    "hyper-util",
    "http",
    "tower",
    "tower-http",
    "reqwest",
    "utoipa",
    "utoipa-axum",
];

/// Every workspace-internal edge that is allowed, with the reason.
const ALLOWED: &[(&str, &str, &str)] = &[
    // Generators: core is the shared floor (seeds, streams, noise, ParamError).
    (
        "mangekyo-planet",
        "mangekyo-core",
        "seeds, noise and ParamError",
    ),
    (
        "mangekyo-caves",
        "mangekyo-core",
        "seeds, noise and ParamError",
    ),
    (
        "mangekyo-dungeon",
        "mangekyo-core",
        "seeds, streams and ParamError",
    ),
    ("mangekyo-island", "mangekyo-core", "seeds and streams"),
    (
        "mangekyo-island",
        "mangekyo-defs",
        "one definition set: its YAML reader, and the object defs the island's types and scopes name",
    ),
    (
        "mangekyo-world",
        "mangekyo-core",
        "seeds and the play stream",
    ),
    (
        "mangekyo-world",
        "mangekyo-island",
        "the world spawns islands; never the other way",
    ),
    (
        "mangekyo-world",
        "mangekyo-defs",
        "the object defs and interactions the engine runs",
    ),
    // Formats: joins generators to the encoders, which know nothing of each other.
    (
        "mangekyo-formats",
        "mangekyo-core",
        "ParamError for refused format names",
    ),
    (
        "mangekyo-formats",
        "mangekyo-planet",
        "planet chunks and Roblox layers as bytes",
    ),
    (
        "mangekyo-formats",
        "mangekyo-caves",
        "cave meshes as glb and OBJ",
    ),
    (
        "mangekyo-formats",
        "mangekyo-dungeon",
        "the one dungeon JSON document of every edge",
    ),
    (
        "mangekyo-formats",
        "mangekyo-export",
        "the PNG, heightmap and glTF encoders",
    ),
    // The server: an edge that serves every generator.
    (
        "mangekyo-server",
        "mangekyo-core",
        "seeds and ParamError into ApiError",
    ),
    (
        "mangekyo-server",
        "mangekyo-planet",
        "planets, chunks and tiles over HTTP",
    ),
    ("mangekyo-server", "mangekyo-caves", "cave worlds over HTTP"),
    ("mangekyo-server", "mangekyo-dungeon", "dungeons over HTTP"),
    ("mangekyo-server", "mangekyo-island", "islands over HTTP"),
    (
        "mangekyo-server",
        "mangekyo-world",
        "the island game played over HTTP (one command per request)",
    ),
    (
        "mangekyo-server",
        "mangekyo-export",
        "PNG previews, tiles and dungeon pictures",
    ),
    (
        "mangekyo-server",
        "mangekyo-formats",
        "the same chunk bytes and ETags as the CLI",
    ),
    ("mangekyo-server", "mangekyo-store", "the planet registry"),
    // The CLI: an edge that drives every crate; the server only for `serve`.
    ("mangekyo", "mangekyo-core", "seeds and noise pictures"),
    ("mangekyo", "mangekyo-planet", "mangekyo planet and bake"),
    ("mangekyo", "mangekyo-caves", "mangekyo caves"),
    ("mangekyo", "mangekyo-dungeon", "mangekyo dungeon"),
    ("mangekyo", "mangekyo-island", "mangekyo island"),
    ("mangekyo", "mangekyo-world", "mangekyo island play"),
    ("mangekyo", "mangekyo-export", "pictures written to files"),
    (
        "mangekyo",
        "mangekyo-formats",
        "the same chunk bytes as the service",
    ),
    (
        "mangekyo",
        "mangekyo-server",
        "mangekyo serve runs it (and nothing else uses it)",
    ),
    (
        "mangekyo",
        "mangekyo-store",
        "mangekyo serve opens the store",
    ),
    // Benchmarks measure the generators.
    ("mangekyo-bench", "mangekyo-core", "noise benches"),
    ("mangekyo-bench", "mangekyo-planet", "planet benches"),
    ("mangekyo-bench", "mangekyo-caves", "cave benches"),
    ("mangekyo-bench", "mangekyo-dungeon", "dungeon benches"),
    ("mangekyo-bench", "mangekyo-island", "island benches"),
    (
        "mangekyo-bench",
        "mangekyo-formats",
        "terrain tile benches (quantized-mesh encoding)",
    ),
    // The WebAssembly package binds the generators for JavaScript.
    (
        "mangekyo-wasm",
        "mangekyo-caves",
        "cave chunks in the browser",
    ),
    (
        "mangekyo-wasm",
        "mangekyo-planet",
        "planet chunks in the browser",
    ),
    (
        "mangekyo-wasm",
        "mangekyo-dungeon",
        "dungeons in the browser",
    ),
    ("mangekyo-wasm", "mangekyo-island", "islands in the browser"),
    (
        "mangekyo-wasm",
        "mangekyo-formats",
        "the edges' cave chunk bytes and dungeon document (no `roblox` feature: no C code)",
    ),
];

fn allowed(from: &str, to: &str) -> bool {
    ALLOWED.iter().any(|(f, t, _)| *f == from && *t == to)
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

/// What may reach the WebAssembly package from the edge crates: the byte
/// forms every edge shares, without their C code.
const WASM_EDGES: [&str; 2] = ["mangekyo-formats", "mangekyo-export"];

/// Crates with C code behind them: none may reach the WebAssembly package
/// (no C toolchain for wasm32-unknown-unknown, and a browser runs it).
const C_CRATES: [&str; 4] = ["zstd", "zstd-sys", "zstd-safe", "cc"];

#[test]
fn the_webassembly_package_binds_generators_and_shared_formats_only() {
    // It runs in browsers and workers: no files, sockets or SQL behind it;
    // of the edges only the byte forms they all share.
    let g = graph();
    for bad in EDGE_CRATES {
        assert!(
            WASM_EDGES.contains(&bad) || !g["mangekyo-wasm"].iter().any(|d| d == bad),
            "mangekyo-wasm must not depend on {bad}"
        );
    }
}

#[test]
fn no_c_code_reaches_the_webassembly_package() {
    // The resolved graph for wasm32 (features as the package builds them):
    // `mangekyo-formats` without `roblox` brings no zstd.
    let out = std::process::Command::new(env!("CARGO"))
        .args([
            "tree",
            "-p",
            "mangekyo-wasm",
            "--target",
            "wasm32-unknown-unknown",
            "-e",
            "normal,build",
            "--prefix",
            "none",
            "--format",
            "{p}|{f}",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8(out.stdout).unwrap();
    let crates: Vec<(&str, &str)> = tree
        .lines()
        .filter_map(|l| {
            let (package, features) = l.split_once('|')?;
            Some((package.split(' ').next()?, features))
        })
        .collect();
    let formats = crates
        .iter()
        .find(|(name, _)| *name == "mangekyo-formats")
        .expect("mangekyo-wasm depends on mangekyo-formats");
    assert!(
        !formats.1.split(',').any(|f| f == "roblox"),
        "mangekyo-formats reaches wasm with its `roblox` feature: {}",
        formats.1
    );
    let c: Vec<&str> = crates
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| C_CRATES.contains(name))
        .collect();
    assert!(c.is_empty(), "C code reaches mangekyo-wasm: {c:?}");
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

#[test]
fn every_allowed_edge_exists() {
    let g = graph();
    let stale: Vec<String> = ALLOWED
        .iter()
        .filter(|(from, to, _)| !g.get(*from).is_some_and(|d| d.iter().any(|d| d == to)))
        .map(|(from, to, _)| format!("{from} -> {to}"))
        .collect();
    assert!(
        stale.is_empty(),
        "edges in the allow-table that no Cargo.toml has (remove them): {stale:?}"
    );
}

#[test]
fn export_knows_no_generator_and_no_generator_knows_export() {
    let g = graph();
    for dep in &g["mangekyo-export"] {
        assert!(
            !dep.starts_with("mangekyo-"),
            "mangekyo-export must know no workspace crate, found {dep}"
        );
    }
}

#[test]
fn only_store_knows_sql_and_only_server_knows_http() {
    let g = graph();
    let mut bad = Vec::new();
    for (from, deps) in &g {
        for to in deps {
            if SQL_CRATES.contains(&to.as_str()) && from != "mangekyo-store" {
                bad.push(format!("{from} -> {to} (only mangekyo-store knows SQL)"));
            }
            if HTTP_CRATES.contains(&to.as_str()) && from != "mangekyo-server" {
                bad.push(format!("{from} -> {to} (only mangekyo-server knows HTTP)"));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:?}");
}
