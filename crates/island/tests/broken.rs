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

fn load_case(dir: &Path) -> LoadError {
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
        Err(e) => e,
    }
}

#[test]
fn broken_fixtures_report_every_error_as_expected() {
    let mut mismatches = Vec::new();
    for dir in cases() {
        let err = load_case(&dir);
        let got: String = err
            .diagnostics
            .iter()
            .map(|d| d.to_string().lines().next().unwrap_or("").to_string() + "\n")
            .collect();
        let expected_path = dir.join("expected.txt");
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            mismatches.push(format!(
                "== {}\n-- expected\n{expected}-- got\n{got}",
                dir.display()
            ));
        }
        for d in &err.diagnostics {
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
        if let Err(e) = load_definitions(files) {
            errors += 1;
            assert!(
                e.diagnostics
                    .iter()
                    .all(|d| !d.message.is_empty() && !d.file.is_empty()),
                "{e}"
            );
        }
    }
    assert!(
        errors > rounds / 4,
        "most mutations break something ({errors})"
    );
}
