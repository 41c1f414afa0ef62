//! Source-tree rules: every Rust file says what it holds, no stubs or
//! skipped tests (no ignore attribute, no early return on an environment variable,
//! no skip/only in the browser tests), every library denies missing docs, nothing reads the
//! developers' `shared/` folder, README's test command is what CI runs, and
//! no closure in the noise kernels calls a lane operation.

use std::path::{Path, PathBuf};

use mangekyo_tidy::{root, walk};

/// Every file below `dir` whose name ends with `ext`, skipping build output,
/// dependencies and fixtures.
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    out.extend(
        walk(dir, &["fixtures"])
            .into_iter()
            .filter(|p| p.to_string_lossy().ends_with(ext)),
    );
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

/// The closures in `text` (a `|params|` after `(`, `,` or `=`, outside
/// macros that take a `|name|` pattern), each as its line number and body:
/// the rest of the line, or up to the matching brace when it opens one.
fn closures(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (n, line) in lines.iter().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        if code.contains("unswitch_kernel!") {
            continue;
        }
        let b = code.as_bytes();
        let mut i = 0;
        while let Some(off) = code[i..].find('|') {
            let start = i + off;
            // A closure may open its line, after an `=` or `(` ending the last.
            let before = match code[..start].trim_end() {
                "" if n > 0 => lines[n - 1].split("//").next().unwrap_or("").trim_end(),
                b => b,
            };
            let opens = before.ends_with('(') || before.ends_with(',') || before.ends_with('=');
            let end = code[start + 1..].find('|').map(|e| start + 1 + e);
            let Some(end) = end.filter(|_| opens && b.get(start + 1) != Some(&b'|')) else {
                i = start + 1;
                continue;
            };
            let mut body = code[end + 1..].to_string();
            if body.trim_start().starts_with('{') {
                let mut depth = 0i32;
                let rest = std::iter::once(&code[end + 1..]).chain(lines[n + 1..].iter().copied());
                body.clear();
                'scan: for l in rest {
                    for c in l.chars() {
                        body.push(c);
                        depth += i32::from(c == '{') - i32::from(c == '}');
                        if depth == 0 && c == '}' {
                            break 'scan;
                        }
                    }
                    body.push('\n');
                }
            }
            out.push((n + 1, body));
            i = end + 1;
        }
    }
    out
}

#[test]
fn no_closure_in_a_noise_kernel_calls_a_lane_operation() {
    // Closures are compiled without the caller's target features: at AVX2
    // one calling lane operations was outlined and each intrinsic in it
    // became a call (3D Perlin ran at a sixth of its speed). Kernels use
    // `#[inline(always)]` functions instead. Flagged: a closure in the
    // noise module whose body calls a method of the lane token `s`.
    let dir = root().join("crates/core/src/noise");
    let mut sources = Vec::new();
    files(&dir, ".rs", &mut sources);
    let mut hits = Vec::new();
    for p in sources.iter().filter(|p| !rel(p).ends_with("tests.rs")) {
        let text = std::fs::read_to_string(p).unwrap();
        for (line, body) in closures(&text) {
            let b = body.as_bytes();
            let calls = body
                .match_indices("s.")
                .any(|(k, _)| k == 0 || !(b[k - 1].is_ascii_alphanumeric() || b[k - 1] == b'_'));
            if calls {
                hits.push(format!("{}:{line}", rel(p)));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "closures calling lane operations in the noise kernels (use an #[inline(always)] fn): {hits:#?}"
    );
    // The scan itself finds a closure that calls one.
    let sample = "let d2 = |px: S::F| s.mul(px, px);\nlet v = (0..4).map(|i| {\n    s.splat(i)\n});\nlet d3 =\n    |p: S::F| s.mul(p, p);";
    assert_eq!(closures(sample).len(), 3);
    assert!(closures(sample).iter().all(|(_, b)| b.contains("s.")));
}
