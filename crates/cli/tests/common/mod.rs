//! Helpers shared by the CLI's end-to-end tests.

#![allow(dead_code)]

pub(crate) mod serve;

use std::process::{Command, Output};

/// Runs the `mangekyo` binary built for these tests (no backtraces, so
/// error output is exactly what a user sees).
pub(crate) fn mangekyo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mangekyo"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("run mangekyo")
}
