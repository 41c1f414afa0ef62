//! `mangekyo dungeon` end to end: the binary's text, JSON and PNG output,
//! and its error messages for values out of range.

mod common;

use common::mangekyo;

#[test]
fn ascii_goes_to_stdout_and_is_deterministic() {
    let a = mangekyo(&["dungeon", "room", "--seed", "42"]);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    let b = mangekyo(&["dungeon", "room", "--seed", "42"]);
    assert_eq!(a.stdout, b.stdout);
    let text = String::from_utf8(a.stdout).unwrap();
    let widths: Vec<usize> = text.lines().map(str::len).collect();
    assert!(widths.iter().all(|&w| w == widths[0]) && text.contains('.') && text.contains('#'));
}

#[test]
fn json_has_the_documented_shape() {
    let out = mangekyo(&[
        "dungeon", "lake", "--kind", "lava", "--width", "40", "--height", "20", "--format", "json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&doc["generator"], &doc["kind"], &doc["lake_kind"]),
        (&"dungeon".into(), &"lake".into(), &"lava".into())
    );
    let v = &doc["grid"];
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["features", "flags", "height", "width"]);
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(40), Some(20))
    );
    assert_eq!(v["features"].as_array().unwrap().len(), 800);
    assert_eq!(v["flags"].as_array().unwrap().len(), 800);
    assert!(
        v["features"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f.as_str().unwrap().contains("lava"))
    );
}

#[test]
fn png_is_written_to_a_file() {
    let path =
        std::env::temp_dir().join(format!("mangekyo-dungeon-test-{}.png", std::process::id()));
    let p = path.to_str().unwrap();
    let out = mangekyo(&[
        "dungeon", "level", "--width", "60", "--height", "30", "--rooms", "3", "--format", "png",
        "--scale", "2", "-o", p,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let img = mangekyo_export::png::decode(&std::fs::read(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(img.samples8().map(<[u8]>::len), Some(120 * 60 * 3));
}

#[test]
fn out_of_range_values_name_the_parameter_and_range() {
    for (args, want) in [
        (
            &["dungeon", "room", "--width", "300"][..],
            "width must be in 8..=254, got 300",
        ),
        (
            &["dungeon", "cavern", "--grd", "0"][..],
            "grd must be in 1..=254, got 0",
        ),
        (
            &["dungeon", "lake", "--kind", "fire-vault", "--width", "45"][..],
            "width must be even",
        ),
        (
            &["dungeon", "level", "--rooms", "99"][..],
            "rooms must be in 1..=64, got 99",
        ),
        (
            &["dungeon", "room", "--format", "png"][..],
            "give a file with -o FILE",
        ),
        (
            &["dungeon", "lake", "--kind", "water", "--depth", "5"][..],
            "lakes have no depth rule",
        ),
    ] {
        let out = mangekyo(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// The overrides reach the builders: a bare `--light` lights every floor
/// cell, `--cutoff` moves the floor fraction, `lake --kind water` holds water.
#[test]
fn overrides_change_the_result() {
    let json = |args: &[&str]| -> serde_json::Value {
        let out = mangekyo(&[args, &["--format", "json"][..]].concat());
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["grid"].clone()
    };
    let floors = |v: &serde_json::Value| -> Vec<usize> {
        let features = v["features"].as_array().unwrap();
        (0..features.len())
            .filter(|&i| features[i].as_str().unwrap().contains("floor"))
            .collect()
    };
    let room = [
        "dungeon",
        "room",
        "--seed",
        "3",
        "--width",
        "40",
        "--height",
        "40",
        "--grd",
        "4",
        "--roughness",
        "2",
    ];
    let lit = json(&[&room[..], &["--light", "--cutoff", "40"]].concat());
    let lit_floors = floors(&lit);
    assert!(!lit_floors.is_empty());
    for &i in &lit_floors {
        let flags = lit["flags"][i].as_array().unwrap();
        assert!(
            flags.iter().any(|f| f == "glow"),
            "floor cell {i} is lit: {flags:?}"
        );
    }
    let dark = json(&[&room[..], &["--light", "false", "--cutoff", "40"]].concat());
    assert!(floors(&dark).iter().all(|&i| {
        !dark["flags"][i]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == "glow")
    }));
    let low = json(&[&room[..], &["--cutoff", "20"]].concat());
    let high = json(&[&room[..], &["--cutoff", "60"]].concat());
    assert!(
        floors(&low).len() < floors(&high).len(),
        "a higher cutoff opens more floor"
    );
    let lake = json(&[
        "dungeon", "lake", "--kind", "water", "--width", "40", "--height", "20",
    ]);
    let features = lake["features"].as_array().unwrap();
    assert!(
        features
            .iter()
            .any(|f| f.as_str().unwrap().contains("water"))
    );
}
