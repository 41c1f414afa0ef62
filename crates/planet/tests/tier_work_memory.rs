//! The heap a coarse tier's computation holds at its peak stays within
//! `CoarseTier::estimated_work_bytes`, which a server uses to run only as
//! many computations as its memory holds and to refuse, at creation, a
//! `graph_n` whose computation never could; and the estimate is not so
//! loose that it refuses graphs that would fit.
//!
//! Measured with a counting allocator, so this binary holds one test: the
//! counters are the process's. `MANGEKYO_TIER_MEMORY_N=408,1024` adds
//! sizes (a release build: minutes each), which is how the factors in
//! the estimate were set.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use mangekyo_planet::tier::CoarseTier;
use mangekyo_planet::{Planet, PlanetParams, Version};

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counters only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's pointer, layout and size.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Both blocks may be live for a moment: count the new first.
            grew(new_size);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak heap above what was live before, while computing the tier of
/// `version` at `n` (the tier itself included), and the tier's own bytes.
fn measure(version: Version, n: u32) -> (u64, u64) {
    let planet = Planet::new(PlanetParams {
        seed: 7,
        graph_n: n,
        generator_version: version,
        ..PlanetParams::default()
    })
    .unwrap();
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let tier = planet
        .compute_tier(mangekyo_core::noise::Level::best())
        .unwrap();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    (peak as u64, tier.heap_bytes() as u64)
}

#[test]
fn the_work_estimate_bounds_a_tier_computation_closely() {
    let mut sizes = vec![48, 96];
    if let Ok(more) = std::env::var("MANGEKYO_TIER_MEMORY_N") {
        sizes.extend(more.split(',').map(|n| n.trim().parse::<u32>().unwrap()));
    }
    let tiered: Vec<Version> = Version::ALL
        .into_iter()
        .filter(|v| v.has_plates())
        .collect();
    assert!(!tiered.is_empty());
    let mut failures = Vec::new();
    for &version in &tiered {
        for &n in &sizes {
            let (peak, kept) = measure(version, n);
            let estimate = CoarseTier::estimated_work_bytes(version, n);
            let nodes = 6 * u64::from(n) * u64::from(n);
            eprintln!(
                "{version} n={n}: peak {peak} bytes ({:.1} per node, {:.1}× the tier's {kept}), estimate {estimate}",
                peak as f64 / nodes as f64,
                peak as f64 / kept as f64,
            );
            if peak > estimate {
                failures.push(format!(
                    "{version} n={n}: the computation held {peak} bytes, over its estimate {estimate}"
                ));
            }
            if estimate > peak + peak / 2 {
                failures.push(format!(
                    "{version} n={n}: estimate {estimate} for a peak of {peak} bytes: too loose"
                ));
            }
            assert!(
                CoarseTier::estimated_heap_bytes(version, n) <= estimate,
                "the work includes the tier it keeps"
            );
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(CoarseTier::estimated_work_bytes(Version::V1, 408), 0);
}
