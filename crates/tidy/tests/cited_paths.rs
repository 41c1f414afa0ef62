//! Every repository path cited in Markdown and in `//!`/`///` comments
//! exists: a doc that sends a reader to a moved or never-committed file is
//! wrong, and nothing else notices.
//!
//! A citation is a token with a `/` and a file ending (`crates/server/src/
//! routes/roblox.rs`, `docs/names.md`). It may be written from the
//! repository root, from the citing file's folder, or (as ARCHITECTURE.md
//! and module docs do) from inside a crate or its `src/`. URLs, paths out
//! of the repository (`../`, `/`), templates (`{z}`) and globs are not
//! citations.

use std::path::{Path, PathBuf};

use mangekyo_tidy::{root, walk};

/// File endings a citation has.
const ENDINGS: [&str; 14] = [
    ".rs", ".md", ".toml", ".js", ".mjs", ".json", ".sh", ".luau", ".txt", ".yaml", ".yml",
    ".html", ".css", ".png",
];

/// The cited paths in `text`.
fn citations(text: &str) -> Vec<String> {
    text.split(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '`' | '(' | ')' | '[' | ']' | '"' | '\'' | ',' | ';' | '<' | '>' | '|' | '*'
            )
    })
    .map(|t| t.trim_end_matches([':', '.', '!', '?']))
    .map(|t| t.split('#').next().unwrap_or(""))
    .filter(|t| {
        t.contains('/')
            && ENDINGS.iter().any(|e| t.ends_with(e))
            && !t.contains("://")
            && !t.starts_with("../")
            && !t.starts_with('/')
            && !t.starts_with('$')
            && !t.starts_with('~')
            && !t.contains(['{', '}', '?', '=', '@', '&'])
            && !t.contains("*")
            && !t.contains("target/")
    })
    .map(str::to_owned)
    .collect()
}

/// The places a citation may be written from.
fn bases(root: &Path, citing: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.to_path_buf(), citing.parent().unwrap().to_path_buf()];
    let mut crates: Vec<_> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    crates.sort();
    for c in crates {
        out.push(c.join("src"));
        out.push(c.clone());
    }
    out.push(root.join("benches"));
    out.push(root.join("web"));
    out
}

fn exists(root: &Path, citing: &Path, cited: &str) -> bool {
    bases(root, citing).iter().any(|b| b.join(cited).exists())
}

/// The doc-comment text of a Rust file (`//!` and `///` lines).
fn doc_comments(text: &str) -> String {
    text.lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("//!") || l.starts_with("///"))
        .map(|l| &l[3..])
        .collect::<Vec<_>>()
        .join("\n")
}

fn missing_citations(root: &Path) -> Vec<String> {
    let files = walk(root, &["vendor", "pkg", "dist"]);
    let mut missing = Vec::new();
    for p in files {
        let name = p.to_string_lossy().to_string();
        let text = if name.ends_with(".md") {
            std::fs::read_to_string(&p).unwrap_or_default()
        } else if name.ends_with(".rs") {
            doc_comments(&std::fs::read_to_string(&p).unwrap_or_default())
        } else {
            continue;
        };
        // Hengband's own file names, cited in the copied fixtures' notes.
        if name.contains("/fixtures/") {
            continue;
        }
        for cited in citations(&text) {
            if !exists(root, &p, &cited) {
                let rel = p.strip_prefix(root).unwrap().display();
                missing.push(format!("{rel}: {cited}"));
            }
        }
    }
    missing
}

#[test]
fn every_cited_repository_path_exists() {
    let missing = missing_citations(&root());
    assert!(
        missing.is_empty(),
        "paths cited in docs that are not in the repository: {missing:#?}"
    );
}

#[test]
fn the_scan_finds_planted_missing_paths() {
    let dir = std::env::temp_dir().join(format!("tidy-cited-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("crates/a/src")).unwrap();
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    std::fs::write(dir.join("crates/a/src/real.rs"), "//! See `real.rs`.\n").unwrap();
    std::fs::write(
        dir.join("crates/a/src/lib.rs"),
        "//! See `spec/planet-geology.md` §4 and crates/a/src/real.rs.\n/// Moved: crates/server/src/roblox.rs.\nfn f() {}\n// not a doc: crates/nowhere.rs\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("docs/guide.md"),
        "Read [the code](../crates/a/src/real.rs), `docs/gone.md`, https://x.invalid/a/b.md and `v1/planets/{id}/x.json`.\n",
    )
    .unwrap();
    let mut found = missing_citations(&dir);
    found.sort();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        found,
        [
            "crates/a/src/lib.rs: crates/server/src/roblox.rs",
            "crates/a/src/lib.rs: spec/planet-geology.md",
            "docs/guide.md: docs/gone.md",
        ]
    );
}
