//! Mistakes at the command line (issue 22): ranges checked before the first
//! byte is written, coordinates that are not numbers, languages the
//! definitions do not have, plans of petabytes, URLs that are not URLs.

mod common;

use std::path::{Path, PathBuf};

use common::mangekyo;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mk-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file under `dir`, hidden ones included.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files(&p));
        } else {
            out.push(p.display().to_string());
        }
    }
    out.sort();
    out
}

/// The example world's definitions.
fn example_defs() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/island").to_owned()
}

fn fails_with(args: &[&str], want: &str) {
    let o = mangekyo(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains(want),
        "{args:?} should fail naming {want:?}; status {}, stderr: {err}",
        o.status
    );
}

#[test]
fn a_chunk_range_off_the_map_fails_before_writing_anything() {
    let dir = scratch("chunks");
    let out = dir.join("chunks");
    let out_s = out.to_str().unwrap();
    fails_with(
        &[
            "planet", "chunk", "--lod", "9", "--cx", "150..160", "--output", out_s,
        ],
        "cx",
    );
    assert!(
        files(&dir).is_empty(),
        "nothing may be written: {:?}",
        files(&dir)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn noise_refuses_coordinates_that_are_not_finite() {
    let dir = scratch("noise");
    let png = dir.join("n.png");
    let png_s = png.to_str().unwrap();
    for (args, name) in [
        (vec!["--origin", "NaN", "0"], "--origin X"),
        (vec!["--origin", "0", "inf"], "--origin Y"),
        (vec!["--z", "NaN"], "--z"),
        (vec!["--z=-inf"], "--z"),
        (vec!["--warp", "NaN"], "--warp"),
        (vec!["--warp", "inf"], "--warp"),
    ] {
        let mut all = vec!["noise", "--size", "8", "-o", png_s];
        all.extend(args);
        fails_with(&all, name);
    }
    assert!(files(&dir).is_empty(), "{:?}", files(&dir));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_language_is_refused_like_the_server_does() {
    let defs = example_defs();
    fails_with(
        &["island", "generate", "--defs", &defs, "--lang", "xx"],
        "--lang must be one of en, ja",
    );
    fails_with(
        &[
            "island",
            "play",
            "--defs",
            &defs,
            "--lang",
            "xx",
            "--script",
            "/dev/null",
        ],
        "--lang must be one of en, ja",
    );
}

#[test]
fn huge_bakes_show_the_plan_and_are_refused_without_an_explicit_limit() {
    let dir = scratch("bake");
    let out = dir.join("out");
    let out_s = out.to_str().unwrap();
    for (args, what) in [
        (vec!["bake", "chunks", "--out", out_s], "chunks"),
        (
            vec!["bake", "tiles", "--zoom", "0..=30", "--out", out_s],
            "tiles",
        ),
    ] {
        let o = mangekyo(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?}: {err}");
        assert!(err.contains("plan: ") && err.contains(what), "{err}");
        assert!(err.contains("--max-items"), "{err}");
        assert!(
            err.contains("PB") || err.contains("EB"),
            "the bytes are shown: {err}"
        );
    }
    assert!(!out.exists(), "the target is not even created");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_public_url_must_be_an_http_url() {
    let dir = scratch("url");
    let out = dir.join("out");
    for bad in ["not a url", "cdn.example/terra/", "ftp://cdn.example/"] {
        fails_with(
            &[
                "bake",
                "tiles",
                "--zoom",
                "0",
                "--public-url",
                bad,
                "--out",
                out.to_str().unwrap(),
            ],
            "--public-url",
        );
    }
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_save_keeps_the_previous_one_and_leaves_no_stray_file() {
    let dir = scratch("save");
    let save = dir.join("game.json");
    let script = dir.join("script.txt");
    std::fs::write(&script, format!("save {}\n", save.display())).unwrap();
    let defs = example_defs();
    let play = |extra: &[&str]| {
        let mut args = vec!["island", "play", "--defs", &defs];
        args.extend(extra);
        mangekyo(&args)
    };
    let o = play(&["--script", script.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let first = std::fs::read_to_string(&save).unwrap();
    // A save into a directory that does not exist fails cleanly.
    let missing = dir.join("missing/game.json");
    std::fs::write(
        &script,
        format!(
            "explore\nsave {}\nsave {}\n",
            missing.display(),
            save.display()
        ),
    )
    .unwrap();
    let o = play(&["--script", script.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("Could not save"), "{out}");
    let second = std::fs::read_to_string(&save).unwrap();
    assert_ne!(first, second, "the later save replaced the first whole");
    let o = play(&["--load", save.to_str().unwrap(), "--script", "/dev/null"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        files(&dir),
        [save.display().to_string(), script.display().to_string()],
        "no temporary file is left"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn server_limits_out_of_range_stop_it_before_it_binds() {
    let dir = scratch("serve-limits");
    let db = dir.join("s.db");
    for (flag, value, says) in [
        ("--tier-computes", "0", "--tier-computes must be in 1..=64"),
        (
            "--tier-cache-mib",
            "0",
            "--tier-cache-mib must be in 1..=1048576",
        ),
    ] {
        let out = mangekyo(&[
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--db",
            db.to_str().unwrap(),
            flag,
            value,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{flag} {value}: {err}");
        assert!(err.contains(says), "{flag} {value}: {err}");
    }
}
