//! The coarse tier cache on disk: keyed as the server's store keys the
//! blob, verified on read (a corrupt file is recomputed and rewritten),
//! never holding an unreleased version, and changing no byte (issue 37).

use std::path::{Path, PathBuf};

use mangekyo_planet::tier::CoarseTier;

mod common;
use common::{scratch, with_cache};

/// A small version-4 planet (a coarse graph, so its tier takes a fraction
/// of a second) and one chunk of it.
fn run_chunk(cache: &Path, output: &Path, seed: &str, extra: &[&str]) -> (Vec<u8>, String) {
    let mut all = vec![
        "planet",
        "chunk",
        "--seed",
        seed,
        "--graph-n",
        "48",
        "--lod",
        "5",
        "--format",
        "bin",
        "--layers",
        "all",
        "-o",
    ];
    all.push(output.to_str().unwrap());
    all.extend_from_slice(extra);
    let o = with_cache(cache, &all);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    (std::fs::read(output).unwrap(), err)
}

/// The one tier file in `cache`.
fn tier_file(cache: &Path) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(cache.join("t1"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files.into_iter().next().unwrap()
}

const SEED: &str = "first minutes";

#[test]
fn the_tier_cache_is_keyed_verified_and_changes_no_byte() {
    let dir = scratch("tier-cache");
    let cache = dir.join("cache");
    let out = dir.join("chunk.mkpc");
    let (computed, _) = run_chunk(&cache, &out, SEED, &[]);
    let file = tier_file(&cache);
    // Named as the server's store names the blob: `t1/` and the key.
    let whole = std::fs::read(&file).unwrap();
    let tier = CoarseTier::from_bytes(&whole).expect("a whole blob");
    assert_eq!(
        file.file_name().unwrap().to_str().unwrap(),
        format!("{:016x}", tier.key)
    );
    // From the cache, and without it: the same bytes.
    let (cached, err) = run_chunk(&cache, &out, SEED, &[]);
    assert_eq!(cached, computed, "read from the cache");
    assert!(!err.contains("note:"), "{err}");
    let (fresh, _) = run_chunk(&cache, &out, SEED, &["--no-cache"]);
    assert_eq!(fresh, computed, "--no-cache");

    // Truncated, flipped, or another planet's tier under this key: each is
    // reported, ignored, recomputed and written whole again.
    let other = dir.join("other");
    let (_, _) = run_chunk(&other, &out, "someone else", &[]);
    let foreign = std::fs::read(tier_file(&other)).unwrap();
    let mut flipped = whole.clone();
    flipped[whole.len() / 2] ^= 0x40;
    for (what, bytes, says) in [
        (
            "truncated",
            whole[..whole.len() / 3].to_vec(),
            "ignoring the cached tier",
        ),
        ("flipped", flipped, "hash mismatch"),
        ("foreign", foreign, "holds the tier of key"),
        ("empty", Vec::new(), "ignoring the cached tier"),
    ] {
        std::fs::write(&file, &bytes).unwrap();
        let (again, err) = run_chunk(&cache, &out, SEED, &[]);
        assert_eq!(again, computed, "{what}");
        assert!(err.contains(says), "{what}: {err}");
        assert_eq!(
            std::fs::read(&file).unwrap(),
            whole,
            "{what}: rewritten whole"
        );
    }

    // An unreleased version's tier is never cached (its bytes may change
    // from one build to the next).
    let next = dir.join("next");
    run_chunk(&next, &out, SEED, &["--generator-version", "next"]);
    assert!(!next.join("t1").exists(), "a `next` tier was cached");
    std::fs::remove_dir_all(&dir).ok();
}
