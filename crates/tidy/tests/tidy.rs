//! Source-tree rules: every Rust file says what it holds, no stubs or
//! skipped tests (no ignore attribute, no early return on an environment variable,
//! no skip/only in the browser tests), every library denies missing docs, nothing reads the
//! developers' `shared/` folder, and README's test command is what CI runs.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// Every file below `dir` whose name ends with `ext`, skipping build output,
/// dependencies and fixtures.
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            if !(name.starts_with('.')
                || name.starts_with("target")
                || name == "node_modules"
                || name == "fixtures")
            {
                files(&p, ext, out);
            }
        } else if name.ends_with(ext) {
            out.push(p);
        }
    }
}

fn rust_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    files(&root().join("crates"), ".rs", &mut out);
    files(&root().join("benches"), ".rs", &mut out);
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap().display().to_string()
}

#[test]
fn every_rust_file_starts_with_a_module_doc() {
    let bad: Vec<String> = rust_files()
        .into_iter()
        .filter(|p| {
            !std::fs::read_to_string(p)
                .unwrap()
                .trim_start()
                .starts_with("//!")
        })
        .map(|p| rel(&p))
        .collect();
    assert!(
        bad.is_empty(),
        "these files lack a leading `//!` line saying what they hold: {bad:#?}"
    );
}

#[test]
fn no_stubs_debug_prints_or_skipped_tests() {
    // Spelled in pieces so this file does not trip its own check.
    let banned = [
        ["to", "do!("].concat(),
        ["unimple", "mented!("].concat(),
        ["db", "g!("].concat(),
        ["#[ig", "nore"].concat(),
        ["#[should", "_panic"].concat(),
    ];
    let mut hits = Vec::new();
    for p in rust_files() {
        let text = std::fs::read_to_string(&p).unwrap();
        for (n, line) in text.lines().enumerate() {
            for b in &banned {
                if line.contains(b.as_str()) {
                    hits.push(format!("{}:{}: {}", rel(&p), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        hits.is_empty(),
        "stubs, debug prints or skipped tests (check the Err explicitly instead of should_panic): {hits:#?}"
    );
}

#[test]
fn no_test_returns_early_on_an_environment_variable() {
    // A test that returns when a variable is unset reports "ok" having done
    // nothing: a way around the ban on skipped tests. Variables may widen
    // or narrow what a test checks, never switch it off. Flagged: a line
    // reading the environment whose statement (that line and the next
    // three) returns.
    let env = ["env::", "var"].concat();
    let ret = ["ret", "urn"].concat();
    let mut hits = Vec::new();
    for p in rust_files() {
        let text = std::fs::read_to_string(&p).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (n, line) in lines.iter().enumerate() {
            if !line.contains(env.as_str()) {
                continue;
            }
            let window = lines[n..(n + 4).min(lines.len())].join("\n");
            let code: String = window
                .lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n");
            let returns = code.contains(&format!("{ret};"))
                || code.contains(&format!("{ret} "))
                || code.contains(&format!("else {{ {ret}"));
            if returns {
                hits.push(format!("{}:{}: {}", rel(&p), n + 1, line.trim()));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "tests that return early on an environment variable (widen or narrow the check instead): {hits:#?}"
    );
}

#[test]
fn no_skipped_or_focused_browser_tests() {
    // node:test's skip/only/todo, in any spelling, would make the browser
    // suite pass without running a test (spelled in pieces, as above).
    let banned = [
        [".sk", "ip("].concat(),
        [".on", "ly("].concat(),
        [".to", "do("].concat(),
        ["sk", "ip:"].concat(),
        ["on", "ly:"].concat(),
        ["to", "do:"].concat(),
        ["--test-", "only"].concat(),
        ["--test-", "skip-pattern"].concat(),
        ["--test-", "name-pattern"].concat(),
    ];
    let mut scripts = Vec::new();
    files(&root().join("web/tests"), ".mjs", &mut scripts);
    files(&root().join("web/tests"), ".sh", &mut scripts);
    assert!(
        scripts.len() >= 5,
        "the browser tests were not found: {scripts:?}"
    );
    let mut hits = Vec::new();
    for p in scripts {
        let text = std::fs::read_to_string(&p).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for b in &banned {
                if code.contains(b.as_str()) {
                    hits.push(format!("{}:{}: {}", rel(&p), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        hits.is_empty(),
        "skipped or focused browser tests: {hits:#?}"
    );
}

#[test]
fn every_library_denies_missing_docs() {
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(root().join("crates")).unwrap().flatten() {
        let lib = entry.path().join("src/lib.rs");
        if lib.exists()
            && !std::fs::read_to_string(&lib)
                .unwrap()
                .contains("#![deny(missing_docs)]")
        {
            bad.push(rel(&lib));
        }
    }
    assert!(
        bad.is_empty(),
        "library roots without #![deny(missing_docs)]: {bad:?}"
    );
}

#[test]
fn nothing_reads_the_developers_shared_folder() {
    // The project must stand alone: fixtures are copied in, never read from ../shared.
    let mut all = rust_files();
    for ext in [".toml", ".sh", ".js", ".mjs", ".json", ".yaml"] {
        files(&root(), ext, &mut all);
    }
    let needle = ["..", "/shared/"].concat();
    let hits: Vec<String> = all
        .into_iter()
        .filter(|p| {
            std::fs::read_to_string(p)
                .map(|t| t.contains(&needle))
                .unwrap_or(false)
        })
        .map(|p| rel(&p))
        .collect();
    assert!(
        hits.is_empty(),
        "files that reach outside the repository into {needle}: {hits:?}"
    );
}

#[test]
fn readme_test_command_is_what_ci_runs() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    let command = "./scripts/test-all";
    let head: String = readme.lines().take(20).collect::<Vec<_>>().join("\n");
    assert!(
        head.contains(command),
        "README.md must start with the test command `{command}`"
    );
    assert!(
        head.contains("cargo run --release -- serve"),
        "README.md must start with the run command"
    );
    assert!(
        ci.contains(command),
        ".ci/run must call README's test command `{command}`"
    );
}
