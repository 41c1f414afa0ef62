//! `mangekyo bake` as a batch scheduler runs it: split into shards and
//! merged, it writes the same bytes as one unsharded run; killed halfway
//! and restarted, it redoes only what it cannot verify; and what it writes
//! is what `mangekyo serve` answers for the same planet, byte for byte,
//! with the manifest's hashes as the service's ETags.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::serve::Replica;
use mangekyo_store::Backend;
use mangekyo_store::testing::TestDb;
use serde_json::Value;

fn bin() -> Command {
    common::command()
}

/// A fresh directory under the system temp dir.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mk-bake-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A planet with levels of detail 0..=4 whose chunks are quick to sample.
fn params_file(dir: &Path) -> PathBuf {
    let path = dir.join("params.json");
    std::fs::write(
        &path,
        r#"{"seed": 5, "radius": 1000000.0, "pixel_size": 10.0}"#,
    )
    .unwrap();
    path
}

fn run(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = bin();
    cmd.args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = run(args, &[]);
    assert!(
        out.status.success(),
        "mangekyo {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Every file under `dir`, relative path → bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// `(generated, verified)` from a shard's summary line.
fn tally(stdout: &str) -> (u64, u64) {
    let line = stdout.lines().find(|l| l.contains("generated")).unwrap();
    let num = |word: &str| {
        let before = &line[..line.find(word).unwrap()];
        let n = before.trim_end().rsplit(['(', ' ', ',']).next().unwrap();
        n.parse::<u64>().unwrap()
    };
    (num(" generated"), num(" verified"))
}

#[test]
fn three_shards_merge_into_the_unsharded_bake() {
    let dir = scratch("shards");
    let params = params_file(&dir);
    let params = params.to_str().unwrap();
    let (whole, split) = (dir.join("whole"), dir.join("split"));
    let chunks = |out: &Path, shard: &str| -> Vec<String> {
        [
            "bake",
            "chunks",
            "--params",
            params,
            "--lods",
            "1..=2",
            "--region",
            "0..2,0..1",
            "--output",
            out.to_str().unwrap(),
            "--shard",
            shard,
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect()
    };
    let args = chunks(&whole, "0/1");
    let out = ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(tally(&out), (10, 0), "{out}");
    for i in 0..3 {
        let args = chunks(&split, &format!("{i}/3"));
        ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    }
    let mut merge = chunks(&split, "0/3");
    merge.push("--merge".into());
    ok(&merge.iter().map(String::as_str).collect::<Vec<_>>());
    let (a, b) = (tree(&whole), tree(&split));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    assert!(a == b, "the merged bake differs from the unsharded one");
    // 2 lod-2 chunks and the 8 lod-1 chunks beneath them, and the manifest.
    assert_eq!(a.len(), 11, "{:?}", a.keys());
    let manifest: Value = serde_json::from_slice(&a["manifest.json"]).unwrap();
    assert_eq!(manifest["items"], 10);
    for o in manifest["outputs"].as_array().unwrap() {
        let bytes = &a[o["path"].as_str().unwrap()];
        assert_eq!(o["bytes"].as_u64().unwrap(), bytes.len() as u64);
        let hash = format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes));
        assert_eq!(o["xxh3"], hash.as_str());
        assert_eq!(&bytes[..4], b"MKPC");
    }
    assert!(a.contains_key("chunks/tangent_cube/1/3/1.bin"));
    // The merge removes its working records, folders included.
    for out in [&whole, &split] {
        assert!(
            !out.join("_bake").exists(),
            "{} keeps _bake/",
            out.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn sigterm_stops_a_bake_with_everything_written_recorded() {
    let dir = scratch("sigterm");
    let params = params_file(&dir);
    let out = dir.join("out");
    // 1,365 tiles: far more than are done before the signal.
    let mut child = bin()
        .args(["bake", "tiles", "--params", params.to_str().unwrap()])
        .args(["--zoom", "0..=5", "--checkpoint-every", "1000"])
        .args(["--output", out.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Files under `dir`, counted while the bake renames into it.
    fn files(dir: &Path) -> usize {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return 0;
        };
        entries
            .flatten()
            .map(|e| {
                let path = e.path();
                if path.is_dir() { files(&path) } else { 1 }
            })
            .sum()
    }
    let tiles = |out: &Path| files(&out.join("tiles"));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while tiles(&out) == 0 {
        assert!(std::time::Instant::now() < deadline, "no tile in 300 s");
        assert!(child.try_wait().unwrap().is_none(), "the bake ended early");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("SIGTERM"), "{stderr}");
    let on_disk = tree(&out);
    // No half-written file (a hidden temporary), no manifest of a bake
    // that did not finish.
    assert!(
        on_disk
            .keys()
            .all(|k| !k.rsplit('/').next().unwrap().starts_with('.')),
        "{:?}",
        on_disk.keys()
    );
    assert!(!on_disk.contains_key("manifest.json"));
    let written: Vec<&String> = on_disk.keys().filter(|k| k.starts_with("tiles/")).collect();
    assert!(written.len() < 1365, "the signal stopped nothing");
    // Every tile on disk is journalled (the checkpoint every 1,000 would
    // otherwise have recorded none of them), so a rerun redoes nothing.
    let journaled: std::collections::BTreeSet<String> = on_disk
        .iter()
        .filter(|(k, _)| k.starts_with("_bake/journal/"))
        .flat_map(|(_, v)| {
            let m: Value = serde_json::from_slice(v).unwrap();
            m["outputs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["path"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    for tile in &written {
        assert!(journaled.contains(*tile), "{tile} is not recorded");
        assert!(
            on_disk[*tile].ends_with(&[0xae, 0x42, 0x60, 0x82]),
            "{tile}: a whole PNG"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_bake_resumes_without_redoing_verified_work() {
    let dir = scratch("resume");
    let params = params_file(&dir);
    let (clean, killed) = (dir.join("clean"), dir.join("killed"));
    let tiles = |out: &Path| -> Vec<String> {
        let p = params.to_str().unwrap();
        [
            "bake",
            "tiles",
            "--params",
            p,
            "--zoom",
            "0..=2",
            "--checkpoint-every",
            "3",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .chain(["--output".to_owned(), out.to_string_lossy().into_owned()])
        .collect()
    };
    let args = tiles(&clean);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(tally(&ok(&args)), (21, 0));
    // Dies after the second batch of 8 tiles is written, before its
    // checkpoint: 16 tiles on disk, 8 of them recorded.
    let args = tiles(&killed);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let died = run(&args, &[("MANGEKYO_BAKE_DIE_AFTER", "10")]);
    assert_eq!(died.status.code(), Some(137));
    let on_disk = tree(&killed);
    let tiles_written = on_disk.keys().filter(|k| k.starts_with("tiles/")).count();
    assert_eq!(tiles_written, 16);
    let journaled: Vec<String> = on_disk
        .iter()
        .filter(|(k, _)| k.starts_with("_bake/journal/"))
        .flat_map(|(_, v)| {
            let m: Value = serde_json::from_slice(v).unwrap();
            m["outputs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["path"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(journaled.len(), 8);
    // A recorded tile whose bytes changed since is not trusted.
    let spoiled = killed.join(&journaled[3]);
    let mut bytes = std::fs::read(&spoiled).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&spoiled, bytes).unwrap();
    assert_eq!(tally(&ok(&args)), (21 - 7, 7));
    assert!(tree(&clean) == tree(&killed), "the resumed bake differs");
    // Finished and run again: everything verifies, nothing is generated.
    assert_eq!(tally(&ok(&args)), (0, 21));
    let tilejson: Value =
        serde_json::from_slice(&std::fs::read(killed.join("tilejson.json")).unwrap()).unwrap();
    assert_eq!(tilejson["tiles"][0], "tiles/{z}/{x}/{y}.png");
    assert_eq!(
        (tilejson["minzoom"].as_u64(), tilejson["maxzoom"].as_u64()),
        (Some(0), Some(2))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn baked_files_are_the_services_answers() {
    let dir = scratch("service");
    let params = params_file(&dir);
    let p = params.to_str().unwrap();
    let (chunks, tiles) = (dir.join("chunks"), dir.join("tiles"));
    for (format, out) in [("bin", "bin"), ("png", "png"), ("json", "json")] {
        let out_dir = chunks.join(out);
        let args = [
            "bake",
            "chunks",
            "--params",
            p,
            "--lods",
            "2",
            "--region",
            "0..2,0..1",
            "--format",
            format,
            "--output",
            out_dir.to_str().unwrap(),
        ];
        ok(&args);
    }
    let args = [
        "bake",
        "tiles",
        "--params",
        p,
        "--zoom",
        "0..=1",
        "--output",
        tiles.to_str().unwrap(),
    ];
    ok(&args);
    let (pyramid, terrain) = (dir.join("pyramid"), dir.join("terrain"));
    ok(&[
        "bake",
        "pyramid",
        "--params",
        p,
        "--levels",
        "0..=1",
        "--region",
        "1..2,1..2",
        "--layers",
        "height,biome,water",
        "--output",
        pyramid.to_str().unwrap(),
    ]);
    ok(&[
        "bake",
        "terrain",
        "--params",
        p,
        "--zoom",
        "0..=1",
        "--output",
        terrain.to_str().unwrap(),
    ]);

    let db = TestDb::new(Backend::Sqlite).await;
    let server = Replica::start(&db);
    let client = reqwest::Client::new();
    let body: Value = serde_json::from_slice(&std::fs::read(&params).unwrap()).unwrap();
    let created = server.create_planet(&client, "baked", body).await;
    let id = created["id"].as_i64().unwrap();
    let pin = format!(
        "v={}&p={}",
        created["generator_version"],
        created["params_hash"].as_str().unwrap()
    );
    // (URL path, baked file, its bytes, its manifest hash) for every output.
    let mut wanted: Vec<(String, String, Vec<u8>, String)> = Vec::new();
    let mut add = |path: String, baked: &BTreeMap<String, Vec<u8>>, manifest: &Value, rel: &str| {
        let hash = manifest["outputs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["path"] == rel)
            .map(|o| o["xxh3"].as_str().unwrap().to_owned())
            .unwrap_or_else(|| panic!("{rel} is not in the manifest"));
        wanted.push((path, rel.to_owned(), baked[rel].clone(), hash));
    };
    for format in ["bin", "png", "json"] {
        let baked = tree(&chunks.join(format));
        let manifest: Value = serde_json::from_slice(&baked["manifest.json"]).unwrap();
        let names: Vec<String> = baked
            .keys()
            .filter(|k| k.starts_with("chunks/") && k.ends_with(format))
            .cloned()
            .collect();
        assert_eq!(names.len(), 2, "{format}: {names:?}");
        for rel in names {
            // chunks/{projection}/{lod}/{cx}/{cy}.{format}
            let stem = rel.trim_end_matches(&format!(".{format}")).to_owned();
            let parts: Vec<&str> = stem.split('/').collect();
            let path = format!(
                "/v1/planets/{id}/chunks/{}/{}/{}/{}?{pin}&format={format}",
                parts[1], parts[2], parts[3], parts[4]
            );
            add(path, &baked, &manifest, &rel);
        }
    }
    let baked = tree(&tiles);
    let manifest: Value = serde_json::from_slice(&baked["manifest.json"]).unwrap();
    let names: Vec<String> = baked
        .keys()
        .filter(|k| k.starts_with("tiles/"))
        .cloned()
        .collect();
    assert_eq!(names.len(), 5, "{names:?}");
    for rel in names {
        let stem = rel.trim_end_matches(".png").to_owned();
        let parts: Vec<&str> = stem.split('/').collect();
        let path = format!(
            "/v1/planets/{id}/tiles/{}/{}/{}?{pin}",
            parts[1], parts[2], parts[3]
        );
        add(path, &baked, &manifest, &rel);
    }
    // Pyramid tiles: face 4 (+z, atlas column 1 row 1) at level 0 and its
    // four children.
    let baked = tree(&pyramid);
    let manifest: Value = serde_json::from_slice(&baked["manifest.json"]).unwrap();
    let doc: Value = serde_json::from_slice(&baked["pyramid.json"]).unwrap();
    assert_eq!(doc["tile_size"], 257);
    let names: Vec<String> = baked
        .keys()
        .filter(|k| k.starts_with("pyramid/"))
        .cloned()
        .collect();
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(
        names.iter().all(|n| n.starts_with("pyramid/4/")),
        "{names:?}"
    );
    for rel in names {
        let stem = rel.trim_end_matches(".mkpt").to_owned();
        let parts: Vec<&str> = stem.split('/').collect();
        let path = format!(
            "/v1/planets/{id}/pyramid/{}/{}/{}/{}?{pin}&layers=height,biome,water",
            parts[1], parts[2], parts[3], parts[4]
        );
        add(path, &baked, &manifest, &rel);
    }
    // Terrain: the 2 + 8 tiles of levels 0 and 1, asked for as Cesium
    // asks (with vertex normals).
    let baked = tree(&terrain);
    let manifest: Value = serde_json::from_slice(&baked["manifest.json"]).unwrap();
    let layer: Value = serde_json::from_slice(&baked["layer.json"]).unwrap();
    assert_eq!(layer["format"], "quantized-mesh-1.0");
    assert_eq!(layer["maxzoom"], 1);
    let names: Vec<String> = baked
        .keys()
        .filter(|k| k.starts_with("terrain/"))
        .cloned()
        .collect();
    assert_eq!(names.len(), 10, "{names:?}");
    for rel in names {
        let path = format!("/v1/planets/{id}/{}?{pin}", rel.trim_start_matches('/'));
        add(path, &baked, &manifest, &rel);
    }
    assert_eq!(wanted.len(), 6 + 5 + 5 + 10);
    for (path, rel, bytes, hash) in wanted {
        let url = server.url(&path);
        let r = client
            .get(&url)
            .header(
                "accept",
                "application/vnd.quantized-mesh;extensions=octvertexnormals,*/*",
            )
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{url}");
        let etag = r.headers()["etag"].to_str().unwrap().to_owned();
        assert_eq!(
            etag,
            format!("\"{hash}\""),
            "{rel}: the manifest hash is the ETag"
        );
        assert!(
            r.bytes().await.unwrap() == bytes[..],
            "{rel}: the baked bytes differ from {url}"
        );
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_bake_flags_are_named() {
    let dir = scratch("flags");
    let out = dir.to_str().unwrap();
    for (args, want) in [
        (
            vec!["bake", "tiles", "--out", out, "--shard", "3/3"],
            "--shard 3/3",
        ),
        (
            vec!["bake", "tiles", "--out", out, "--zoom", "2..=1"],
            "must not exceed",
        ),
        (
            vec!["bake", "chunks", "--out", out, "--lods", "12"],
            "deepest level is 9",
        ),
        (
            vec!["bake", "chunks", "--out", out, "--format", "gif"],
            "--format \"gif\"",
        ),
        (
            vec!["bake", "tiles", "--out", out, "--size", "300"],
            "--size must be 256 or 512",
        ),
        (
            vec![
                "bake",
                "tiles",
                "--output",
                out,
                "--region",
                "0..9,0..1",
                "--zoom",
                "2",
            ],
            "region x 0..9",
        ),
        (
            vec!["bake", "tiles", "--out", "ftp://x/y"],
            "expected a directory",
        ),
        (
            vec!["bake", "terrain", "--out", out, "--zoom", "2..=3"],
            "starts at level 0",
        ),
        (
            vec!["bake", "pyramid", "--out", out, "--layers", "height,flow"],
            "--layers \"height,flow\"",
        ),
        (
            vec!["bake", "pyramid", "--out", out, "--levels", "16"],
            "deepest level is 15",
        ),
    ] {
        let o = run(&args, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(want), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
