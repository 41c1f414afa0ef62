//! Repository-wide checks, run by `cargo test -p mangekyo-tidy`.
//!
//! The checks live in `tests/`, where they read the source tree (`tidy.rs`,
//! `versions.rs`, `cited_paths.rs`) and `cargo metadata` (`arrows.rs`).
//! Like rust-analyzer's tidy test, they make style and architecture rules
//! fail the build instead of living in review comments. The library holds
//! only what they share: where the repository is and how its files are
//! walked.
#![deny(missing_docs)]

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}

/// Every file below `dir`, sorted, skipping hidden folders, build output
/// (`target*`), `node_modules` and the folders named in `skip`.
pub fn walk(dir: &Path, skip: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk_into(dir, skip, &mut out);
    out
}

fn walk_into(dir: &Path, skip: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if p.is_dir() {
            if !(name.starts_with('.')
                || name.starts_with("target")
                || name == "node_modules"
                || skip.contains(&name.as_str()))
            {
                walk_into(&p, skip, out);
            }
        } else {
            out.push(p);
        }
    }
}
