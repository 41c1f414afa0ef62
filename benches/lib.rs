//! Shared helpers for the benchmarks in `benches/benches/`: where criterion
//! writes its estimates, and a ratio table read back from them, so every
//! bench can print "ours vs theirs" medians side by side in one run.

use std::path::PathBuf;

/// Where the benches keep criterion's output: `criterion/` beside the
/// bench executable's directory (`target/release/criterion`).
pub fn criterion_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    let release = exe
        .parent()
        .and_then(|deps| deps.parent())
        .map(PathBuf::from)
        .unwrap_or_default();
    release.join("criterion")
}

/// A criterion configured for this shared 2-core machine: short, fixed
/// sampling, results under [`criterion_dir`].
pub fn criterion() -> criterion::Criterion {
    criterion::Criterion::default()
        .output_directory(&criterion_dir())
        .sample_size(20)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
        .configure_from_args()
}

/// The median time (ns) criterion recorded for `group/id`, if it ran.
pub fn median_ns(group: &str, id: &str) -> Option<f64> {
    let path = criterion_dir()
        .join(group)
        .join(id)
        .join("new")
        .join("estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["median"]["point_estimate"].as_f64()
}

/// Prints one line per comparison: both medians, samples per second, and
/// how many times faster `ours` is.
pub fn print_ratios(group: &str, samples: f64, pairs: &[(&str, &str)]) {
    println!("\n== {group}: medians, samples/s, speed-up of ours ==");
    for (ours, theirs) in pairs {
        match (median_ns(group, ours), median_ns(group, theirs)) {
            (Some(a), Some(b)) => println!(
                "{ours:>28} {:>9.3} ms {:>8.1} M/s | {theirs:>24} {:>9.3} ms {:>8.1} M/s | x{:.2}",
                a / 1e6,
                samples / a * 1e3,
                b / 1e6,
                samples / b * 1e3,
                b / a
            ),
            _ => println!("{ours} vs {theirs}: not measured in this run"),
        }
    }
}
