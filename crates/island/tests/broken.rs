//! Broken definitions give every error, located, never a panic. Each
//! directory under `fixtures/broken/` is one loading (its YAML files in name
//! order); `expected.txt` holds the first line of every diagnostic.
//! `UPDATE_EXPECT=1` rewrites the expectations.

use mangekyo_island::{LoadError, example, load_definitions};
use std::path::{Path, PathBuf};

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn load_case_with_texts(dir: &Path) -> (LoadError, Vec<(String, String)>) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let case = dir.file_name().unwrap().to_string_lossy().to_string();
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            (
                format!("{case}/{}", f.file_name().unwrap().to_string_lossy()),
                std::fs::read_to_string(f).unwrap(),
            )
        })
        .collect();
    match load_definitions(texts.iter().map(|(n, t)| (n.as_str(), t.as_str()))) {
        Ok(_) => panic!("{case} should not load"),
        Err(e) => (e, texts),
    }
}

/// `file:line:column` of an expected first line (`file` alone for an
/// error with no place), parsed independently of `Diagnostic`'s Display.
fn expected_location(line: &str) -> (String, u32, u32) {
    let head = line.split(": ").next().unwrap_or("");
    let mut parts = head.rsplitn(3, ':');
    let (c, l, f) = (parts.next(), parts.next(), parts.next());
    match (
        f,
        l.and_then(|l| l.parse().ok()),
        c.and_then(|c| c.parse().ok()),
    ) {
        (Some(f), Some(l), Some(c)) => (f.to_owned(), l, c),
        _ => (head.to_owned(), 0, 0),
    }
}

/// A located diagnostic points at a real place: its quoted source line is
/// that line of the named file, and its column lies within it.
fn assert_points_into(d: &mangekyo_island::Diagnostic, texts: &[(String, String)], case: &str) {
    if d.line == 0 {
        return;
    }
    let text = &texts
        .iter()
        .find(|(n, _)| *n == d.file)
        .unwrap_or_else(|| panic!("{case}: {d} names an unknown file"))
        .1;
    let line = text
        .lines()
        .nth(d.line as usize - 1)
        .unwrap_or_else(|| panic!("{case}: {d}: line {} is past the end", d.line));
    assert_eq!(
        d.source_line.as_deref(),
        Some(line),
        "{case}: {d} quotes another line"
    );
    assert!(
        d.column >= 1 && d.column as usize <= line.chars().count() + 1,
        "{case}: {d}: column {} outside {line:?}",
        d.column
    );
}

#[test]
fn broken_fixtures_report_every_error_as_expected() {
    let mut mismatches = Vec::new();
    for dir in cases() {
        let (err, texts) = load_case_with_texts(&dir);
        let got: String = err
            .diagnostics
            .iter()
            .map(|d| d.to_string().lines().next().unwrap_or("").to_string() + "\n")
            .collect();
        let expected_path = dir.join("expected.txt");
        // Read before any rewrite: `UPDATE_EXPECT=1` writes the new
        // expectations and still fails on a change (as core's
        // `UPDATE_GOLDENS`), so a rewrite never passes silently.
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(&expected_path, &got).unwrap();
        }
        if got != expected {
            mismatches.push(format!(
                "== {}\n-- expected\n{expected}-- got\n{got}",
                dir.display()
            ));
            continue;
        }
        // The structured location of every error, field by field, against
        // the expected one (not only through Display).
        for (d, want) in err.diagnostics.iter().zip(expected.lines()) {
            let (file, line, column) = expected_location(want);
            assert_eq!(
                (d.file.as_str(), d.line, d.column),
                (file.as_str(), line, column),
                "{}: location of {want}",
                dir.display()
            );
            assert_points_into(d, &texts, &dir.display().to_string());
            if d.line > 0 {
                let shown = d.to_string();
                assert!(
                    shown.contains(" | ") && shown.contains('^'),
                    "{}: a located error shows its line:\n{shown}",
                    dir.display()
                );
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn mutated_example_files_never_panic() {
    // Delete, duplicate or garble one line of one example file, many ways:
    // the loader must answer Ok or Err, with a location for every error.
    let sources = example::sources();
    let mut rng = mangekyo_core::Pcg32::new(11, 13);
    let mut errors = 0;
    let mut located = 0;
    let rounds = if std::env::var_os("MANGEKYO_SLOW_TESTS").is_some() {
        2000
    } else {
        150
    };
    for _ in 0..rounds {
        let pick = rng.bounded(sources.len() as u32) as usize;
        let mut lines: Vec<String> = sources[pick].1.lines().map(String::from).collect();
        let i = rng.bounded(lines.len() as u32) as usize;
        match rng.bounded(4) {
            0 => {
                lines.remove(i);
            }
            1 => lines.insert(i, lines[i].clone()),
            2 => lines[i] = lines[i].replacen(':', "", 1),
            _ => {
                let cut = rng.bounded(lines[i].chars().count() as u32 + 1) as usize;
                lines[i] = lines[i].chars().take(cut).collect();
            }
        }
        let text = lines.join("\n");
        let files: Vec<(&str, &str)> = sources
            .iter()
            .enumerate()
            .map(|(k, (n, t))| (*n, if k == pick { text.as_str() } else { *t }))
            .collect();
        if let Err(e) = load_definitions(files.iter().copied()) {
            errors += 1;
            let texts: Vec<(String, String)> = files
                .iter()
                .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
                .collect();
            for d in &e.diagnostics {
                assert!(!d.message.is_empty(), "{e}");
                // Every error is located: at a line and column of a real
                // file whose text it quotes.
                assert!(d.line > 0 && d.column > 0, "an error without a place: {d}");
                assert_points_into(d, &texts, "mutation");
            }
            located += e.diagnostics.len();
        }
    }
    assert!(
        errors > rounds / 4,
        "most mutations break something ({errors})"
    );
    assert!(located >= errors, "every failed load names its errors");
}
