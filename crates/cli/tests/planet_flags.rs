//! A mistyped flag of any planet command is refused at once, naming what
//! was wrong and what is expected, not after the coarse tier's seconds
//! (issue 37).

use std::time::{Duration, Instant};

mod common;
use common::{scratch, with_cache};

/// Far below the coarse tier of the default planet (7 to 12 s), and still
/// far above a process start on a loaded machine.
const PROMPT: Duration = Duration::from_secs(1);

#[test]
fn mistyped_flags_are_refused_before_the_coarse_tier() {
    // An empty cache: nothing can hide a tier computed before the check.
    let cache = scratch("flags-cache");
    let missing = cache.join("no/such/dir/chunk.png");
    let missing = missing.to_str().unwrap();
    // (arguments, exit status, what the message must say)
    let cases: &[(&[&str], i32, &[&str])] = &[
        (
            &["planet", "chunk", "--projection", "tangent-cube"],
            2,
            &["--projection", "tangent-cube", "tangent_cube, octahedral"],
        ),
        (
            &["planet", "chunk", "--edge", "both"],
            2,
            &["--edge", "exclusive, shared"],
        ),
        (
            &["planet", "chunk", "--cx", "5..2"],
            2,
            &["--cx", "5..2 is empty"],
        ),
        (&["planet", "chunk", "--cy", "one"], 2, &["--cy", "A..B"]),
        (
            &["planet", "chunk", "--format", "pngg"],
            2,
            &["--format", "png16"],
        ),
        (&["planet", "chunk", "--lod", "99"], 1, &["lod", "99"]),
        (&["planet", "chunk", "--cx", "99999"], 1, &["cx", "99999"]),
        (&["planet", "chunk", "--layers", "heigth"], 1, &["heigth"]),
        (
            &["planet", "chunk", "--lat", "95", "--lon", "0"],
            1,
            &["lat", "95"],
        ),
        (
            &["planet", "chunk", "-o", missing],
            1,
            &["does not exist", "no/such/dir"],
        ),
        (&["planet", "preview", "--width", "17"], 1, &["width", "17"]),
        (
            &["planet", "preview", "--layer", "precip"],
            2,
            &["--layer", "precip", "precipitation"],
        ),
        (
            &["planet", "preview", "--overlay", "plate"],
            2,
            &["--overlay", "none, plates"],
        ),
        (
            &["planet", "preview", "-o", missing],
            1,
            &["does not exist"],
        ),
        (
            &["planet", "rivers", "--bbox", "10,0,0,5"],
            1,
            &["bbox", "10,0,0,5"],
        ),
        (&["planet", "rivers", "-o", missing], 1, &["does not exist"]),
        (&["planet", "plates", "--cell-deg", "7"], 1, &["cell_deg"]),
        (&["planet", "projections", "--cells", "2"], 1, &["--cells"]),
        (
            &[
                "bake",
                "chunks",
                "--projection",
                "tangent-cube",
                "-o",
                missing,
            ],
            1,
            &["tangent-cube"],
        ),
    ];
    for (args, code, wants) in cases {
        let started = Instant::now();
        let o = with_cache(&cache, args);
        let took = started.elapsed();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(*code), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        for want in *wants {
            assert!(err.contains(want), "{args:?}: no {want:?} in {err}");
        }
        assert!(took < PROMPT, "{args:?} took {took:?} to refuse");
    }
    // Nothing was computed, so nothing was cached.
    assert!(!cache.join("t1").exists());
    std::fs::remove_dir_all(&cache).ok();
}
