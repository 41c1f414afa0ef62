//! A closed or full stdout or stderr ends the process quietly (141 for a
//! closed pipe, as a Unix tool that SIGPIPE ended) instead of panicking
//! with 101 (issue 37).

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;

/// A fresh, empty directory for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mk-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `mangekyo ARGS` with stdout and stderr as given; its exit status and
/// whatever it wrote to stderr when that was captured.
fn run_with(args: &[&str], stdout: Stdio, stderr: Stdio) -> (Option<i32>, String) {
    let o = common::command()
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .stdout(stdout)
        .stderr(stderr)
        .output()
        .expect("run mangekyo");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The write end of a pipe whose read end is already closed.
fn closed_pipe() -> Stdio {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Stdio::from(writer)
}

fn dev_full() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap(),
    )
}

#[test]
fn closed_pipes_end_the_process_quietly() {
    let dir = scratch("pipes");
    let glb = dir.join("chunk.glb");
    let glb = glb.to_str().unwrap();
    // stdout closed: the command's product cannot go anywhere; 141 as a
    // Unix tool that SIGPIPE ended, and no panic.
    for args in [
        &["island", "generate", "--seed", "42", "--format", "svg"][..],
        &["dungeon", "cavern", "--seed", "7"],
        &["planet", "projections", "--cells", "16"],
    ] {
        let (code, err) = run_with(args, closed_pipe(), Stdio::piped());
        assert_eq!(code, Some(141), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("error"),
            "{args:?}: {err}"
        );
    }
    // stderr closed too (`2>&1 | head -c1` once head has gone): the same.
    // A usage error keeps clap's status 2 (clap ignores the failed write).
    let mkpc = dir.join("chunk.mkpc");
    let mkpc = mkpc.to_str().unwrap();
    for (args, want) in [
        (&["caves", "chunk", "--chunk", "0,0,0", "-o", glb][..], 141),
        (
            &[
                "planet",
                "chunk",
                "--generator-version",
                "1",
                "--format",
                "bin",
                "-o",
                mkpc,
            ],
            141,
        ),
        (&["planet", "chunk", "--projection", "tangent-cube"], 2),
        (&["planet", "chunk", "--lod", "99"], 141),
    ] {
        let (code, _) = run_with(args, closed_pipe(), closed_pipe());
        assert_eq!(code, Some(want), "{args:?}");
    }
    assert!(Path::new(glb).is_file() && Path::new(mkpc).is_file());
    // stderr full: messages are lost, the work is not, no panic.
    let (code, _) = run_with(
        &["caves", "chunk", "--chunk", "1,0,1", "-o", glb],
        Stdio::null(),
        dev_full(),
    );
    assert_eq!(code, Some(0));
    // stdout full: its product is lost, which is an error the user sees.
    let (code, err) = run_with(
        &["island", "generate", "--seed", "42"],
        dev_full(),
        Stdio::piped(),
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.starts_with("error: writing to stdout") && !err.contains("panicked"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
