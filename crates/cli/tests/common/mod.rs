//! Helpers shared by the CLI's end-to-end tests.

#![allow(dead_code)]

pub(crate) mod serve;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The tier cache the tests share (under the target directory, never the
/// user's own): planets' coarse tiers are computed once per test run, and
/// concurrent tests exercise the cache's atomic writes.
pub(crate) fn tier_cache() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tier-cache")
}

/// The `mangekyo` binary with the tests' tier cache.
pub(crate) fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mangekyo"));
    c.env("MANGEKYO_CACHE_DIR", tier_cache());
    c
}

/// Runs the `mangekyo` binary built for these tests (no backtraces, so
/// error output is exactly what a user sees).
pub(crate) fn mangekyo(args: &[&str]) -> Output {
    command()
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("run mangekyo")
}

/// A fresh, empty directory for one test.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mk-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `mangekyo` with its tier cache in `cache` (a test's own, not the
/// shared one).
pub(crate) fn with_cache(cache: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mangekyo"))
        .args(args)
        .env("MANGEKYO_CACHE_DIR", cache)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("run mangekyo")
}
