//! `mangekyo island`: the subcommands end to end on the example world.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn mangekyo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mangekyo"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("mangekyo runs")
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn generate_prints_json_svg_and_text() {
    let json = stdout(&mangekyo(&[
        "island", "generate", "--seed", "42", "--format", "json", "--lang", "ja",
    ]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["seed"], 42);
    assert_eq!(v["scope"], "island");
    let sites = v["sites"].as_array().unwrap();
    assert!((18..=24).contains(&sites.len()));
    assert!(
        sites
            .iter()
            .all(|s| s["label"].is_string() && s["axes"]["elevation"].is_i64())
    );
    assert!(
        v["edges"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["travel_minutes"].as_u64().unwrap() % 15 == 0)
    );
    let svg = stdout(&mangekyo(&[
        "island", "generate", "--seed", "42", "--format", "svg",
    ]));
    assert!(svg.starts_with("<svg") && svg.contains("stroke-dasharray"));
    let text = stdout(&mangekyo(&["island", "generate", "--seed", "42"]));
    assert!(text.contains("spanning tree"));
}

#[test]
fn check_passes_the_example_and_lists_every_error_of_a_broken_set() {
    assert!(stdout(&mangekyo(&["island", "check"])).contains("no findings"));
    let bad = mangekyo(&[
        "island",
        "check",
        "--defs",
        "crates/island/tests/fixtures/broken/unknown_keys",
    ]);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("7 errors") && err.contains("did you mean 'axis_preferences'?"),
        "{err}"
    );
}

#[test]
fn stats_and_a_scripted_game_run() {
    let stats = stdout(&mangekyo(&["island", "stats", "--seeds", "20"]));
    assert!(
        stats.contains("20 islands") && stats.contains("path discovery"),
        "{stats}"
    );
    let dir = std::env::temp_dir().join(format!("mangekyo-island-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("s.txt");
    let save = dir.join("save.json");
    std::fs::write(
        &script,
        format!("explore\ntravel 1\nsave {}\nquit\n", save.display()),
    )
    .unwrap();
    let out = stdout(&mangekyo(&[
        "island",
        "play",
        "--seed",
        "7",
        "--script",
        script.to_str().unwrap(),
    ]));
    assert!(
        out.contains("> explore") && out.contains("You walk to"),
        "{out}"
    );
    let again = stdout(&mangekyo(&[
        "island",
        "play",
        "--load",
        save.to_str().unwrap(),
        "--script",
        script.to_str().unwrap(),
    ]));
    assert!(again.contains("You explore"), "{again}");
    std::fs::write(&save, "{\"format\": \"other\"}").unwrap();
    let refused = mangekyo(&[
        "island",
        "play",
        "--load",
        save.to_str().unwrap(),
        "--script",
        script.to_str().unwrap(),
    ]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a Mangekyo island save"));
    let _ = std::fs::remove_dir_all(dir);
}

/// Through the binary: a game saved, loaded and continued prints what the
/// uninterrupted game prints, and a save that cannot be written is refused
/// while the game goes on.
#[test]
fn save_load_continue_matches_an_uninterrupted_game() {
    let dir = std::env::temp_dir().join(format!("mangekyo-island-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("save.json");
    let play = |script: &str, load: Option<&std::path::Path>| -> String {
        let file = dir.join("script.txt");
        std::fs::write(&file, script).unwrap();
        let mut args = vec![
            "island",
            "play",
            "--seed",
            "11",
            "--script",
            file.to_str().unwrap(),
        ];
        if let Some(load) = load {
            args.extend(["--load", load.to_str().unwrap()]);
        }
        stdout(&mangekyo(&args))
    };
    let rest = "explore\npaths\ntravel 1\nexplore\nlook\nquit\n";
    let whole = play(&format!("explore\ntravel 1\n{rest}"), None);
    play(
        &format!("explore\ntravel 1\nsave {}\nquit\n", save.display()),
        None,
    );
    let resumed = play(rest, Some(&save));
    let after = |text: &str| text[text.find("\n> explore").unwrap()..].to_string();
    let tail = after(&resumed);
    assert!(whole.ends_with(&tail), "resumed:\n{tail}\nwhole:\n{whole}");
    assert!(tail.matches("> ").count() >= 6, "{tail}");

    let unwritable = dir.join("no-such-dir").join("save.json");
    let out = play(
        &format!("save {}\nlook\nquit\n", unwritable.display()),
        None,
    );
    assert!(
        out.contains("Could not save") && !out.contains("Saved to"),
        "{out}"
    );
    assert!(
        out.contains("> look"),
        "the game goes on after a failed save: {out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A definitions set without `localization` (the example with its en/ja
/// files left out): `check` passes and says names are identifiers, and
/// `generate` prints identifiers instead of refusing `--lang en`.
#[test]
fn a_set_without_localization_checks_and_generates() {
    let dir = std::env::temp_dir().join(format!("mangekyo-island-noloc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut copied = 0;
    for entry in std::fs::read_dir(root().join("examples/island")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        if path.extension().is_some_and(|x| x == "yaml") && !text.contains("localization:") {
            std::fs::write(dir.join(path.file_name().unwrap()), text).unwrap();
            copied += 1;
        }
    }
    assert_eq!(copied, 4, "objects, axes, types and scopes");
    let defs = dir.to_str().unwrap();
    let check = stdout(&mangekyo(&["island", "check", "--defs", defs]));
    assert!(
        check.contains("languages: none (names show as identifiers)"),
        "{check}"
    );
    let json = stdout(&mangekyo(&[
        "island", "generate", "--defs", defs, "--seed", "42", "--format", "json", "--lang", "en",
    ]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let sites = v["sites"].as_array().unwrap();
    assert!(sites.len() >= 18);
    for s in sites {
        let label = s["label"].as_str().unwrap();
        let ty = s["type"].as_str().unwrap();
        assert!(
            label.starts_with(ty),
            "{label} is not its type's identifier {ty}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The example world is built into the binary: outside the repository,
/// without `--defs`, `generate` answers what `--defs examples/island`
/// answers inside it, and `--defs` still overrides it.
#[test]
fn the_example_world_is_built_in_and_works_from_any_directory() {
    let elsewhere =
        std::env::temp_dir().join(format!("mangekyo-island-cwd-{}", std::process::id()));
    std::fs::create_dir_all(&elsewhere).unwrap();
    let outside = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_mangekyo"))
            .args(args)
            .current_dir(&elsewhere)
            .output()
            .expect("mangekyo runs")
    };
    for format in ["text", "json", "svg"] {
        let built_in = stdout(&outside(&[
            "island", "generate", "--seed", "42", "--format", format,
        ]));
        let from_files = stdout(&mangekyo(&[
            "island",
            "generate",
            "--defs",
            "examples/island",
            "--seed",
            "42",
            "--format",
            format,
        ]));
        assert_eq!(built_in, from_files, "--format {format}");
    }
    let check = stdout(&outside(&["island", "check"]));
    assert!(check.starts_with("ok: "), "{check}");
    // `--defs` names a directory that is not there: refused by name, not
    // silently replaced by the built-in world.
    let o = outside(&["island", "generate", "--defs", "examples/island"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("examples/island"), "{err}");
    std::fs::remove_dir_all(&elsewhere).ok();
}
