//! Planet generator versions are told apart in one place
//! (`crates/planet/src/version.rs`, the `Version` type): no other code
//! compares a version with a number or a variant, and no `match` on a
//! version lists numbers. A new version then adds a row there instead of
//! a branch in every crate that knows versions.

use std::path::{Path, PathBuf};

use mangekyo_tidy::{root, walk};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    out.extend(
        walk(dir, &[])
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "rs")),
    );
}

const OPERATORS: [&str; 6] = ["==", "!=", ">=", "<=", ">", "<"];

/// The operand next to position `at` in `code`, reading backwards
/// (`before`) or forwards: an expression made of identifier characters,
/// dots, `::` and call parentheses.
fn operand(code: &str, at: usize, before: bool) -> String {
    let b = code.as_bytes();
    let part = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':' | b'(' | b')');
    if before {
        let mut i = at;
        while i > 0 && b[i - 1] == b' ' {
            i -= 1;
        }
        let end = i;
        while i > 0 && part(b[i - 1]) {
            i -= 1;
        }
        code[i..end].to_string()
    } else {
        let mut i = at;
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        let start = i;
        while i < b.len() && part(b[i]) {
            i += 1;
        }
        code[start..i].to_string()
    }
}

/// A number literal (`4`, `3u32`) or a version variant (`Version::V4`).
fn is_version_value(s: &str) -> bool {
    let s = s.trim_matches(|c| c == '(' || c == ')');
    s.starts_with(|c: char| c.is_ascii_digit()) || s.contains("Version::")
}

fn names_a_version(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l.contains("version") && !l.contains("format_version") && !l.contains("layout")
}

/// Lines of `text` (1-based) that compare a version with a literal or a
/// variant, or `match` on a version with numbered arms.
fn literal_version_comparisons(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut hits = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let b = code.as_bytes();
        let mut flagged = false;
        for op in OPERATORS {
            for (k, _) in code.match_indices(op) {
                // `=>`, `->`, `<<`, `>>`, generics: not comparisons.
                let prev = if k > 0 { b[k - 1] } else { b' ' };
                let next = b.get(k + op.len()).copied().unwrap_or(b' ');
                if op.len() == 1
                    && (matches!(prev, b'=' | b'-' | b'<' | b'>' | b'!')
                        || matches!(next, b'=' | b'<' | b'>')
                        || prev != b' '
                        || next != b' ')
                {
                    continue;
                }
                let (lhs, rhs) = (operand(code, k, true), operand(code, k + op.len(), false));
                if (names_a_version(&lhs) && is_version_value(&rhs))
                    || (names_a_version(&rhs) && is_version_value(&lhs))
                {
                    flagged = true;
                }
            }
        }
        if code.trim_start().starts_with("match ") && names_a_version(code) {
            // Numbered arms within the match's first few lines.
            let arms = lines[n + 1..lines.len().min(n + 8)].iter().any(|l| {
                let t = l.trim_start();
                t.contains("=>")
                    && t.starts_with(|c: char| c.is_ascii_digit())
                    && !t.starts_with("0x")
            });
            flagged |= arms;
        }
        if flagged {
            hits.push(n + 1);
        }
    }
    hits
}

#[test]
fn no_code_compares_planet_versions_outside_the_version_type() {
    let root = root();
    // The crates that know planet versions: the planet crate and every
    // crate depending on it (others have versions of their own, such as
    // the world's save format).
    let mut sources = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.push(root.join("benches"));
    dirs.sort();
    for dir in dirs {
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
        if manifest.contains("name = \"mangekyo-planet\"")
            || manifest.contains("mangekyo-planet.workspace")
        {
            rust_files(&dir, &mut sources);
        }
    }
    assert!(sources.len() > 50, "found {} sources", sources.len());
    let own = root.join("crates/planet/src/version.rs");
    let this = root.join("crates/tidy/tests/versions.rs");
    let mut hits = Vec::new();
    for p in sources.iter().filter(|p| **p != own && **p != this) {
        let text = std::fs::read_to_string(p).unwrap();
        for line in literal_version_comparisons(&text) {
            let rel = p.strip_prefix(&root).unwrap().display();
            hits.push(format!("{rel}:{line}"));
        }
    }
    assert!(
        hits.is_empty(),
        "version comparisons outside crates/planet/src/version.rs (ask the Version type: layers(), has_plates(), tier_layout(), biomes(), pipeline()): {hits:#?}"
    );
}

#[test]
fn the_scan_finds_planted_comparisons() {
    let planted = [
        "if params.generator_version >= 3 {",
        "let v4 = planet.version() == 4;",
        "if 2 <= self.generator_version {",
        "(planet.version() >= Version::V2).then(|| 1)",
        "match generator_version {\n    0 | 1 => Layers::ALL,\n    _ => x,\n}",
        "if version < 4 { return; }",
    ];
    for text in planted {
        assert_eq!(
            literal_version_comparisons(text),
            [1],
            "not flagged: {text}"
        );
    }
    let fine = [
        "if planet.version().has_water() {",
        "let layout = if format_version == 2 { a } else { b };",
        "let x: Vec<u32> = y; if a < b {}",
        "match version.tier_layout() {\n    TierLayout::None => 0,\n}",
        "fn f() -> Result<u32, E> { Ok(4) }",
        "if self.version >= other.version {",
    ];
    for text in fine {
        assert!(
            literal_version_comparisons(text).is_empty(),
            "flagged: {text}"
        );
    }
}
