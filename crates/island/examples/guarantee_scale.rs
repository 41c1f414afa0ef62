//! Generates an island under a near-total guarantee (issue 38): N sites
//! and one guarantee asking for N − 1 of them, for a type every site admits
//! (`scrub`), for a type about two thirds of the sites admit (`village`:
//! more openings than admissible sites, so openings are refused every site
//! the rest still need; the hostile case), or split between two overlapping
//! types (`split`). Prints a digest of the chosen types, to compare builds;
//! time it from the shell, as clocks stay out of the generator crates (the
//! bench `island` has the timed row).
//!
//! `cargo build -p mangekyo-island --release --example guarantee_scale`, then
//! `time target/release/examples/guarantee_scale village 10000`

use mangekyo_island::{example, generate_island, load_definitions};

/// The guarantees of one shape for `n` sites, and the start type.
fn shape(name: &str, n: u32) -> (Vec<String>, &'static str) {
    let total = n - 1;
    match name {
        "scrub" => (vec![format!("{{ type: scrub, count: {total} }}")], "scrub"),
        "village" => (
            vec![format!(
                "{{ type: village, count: {total}, order_by: {{ axis: coastal_distance, prefer: lowest }} }}"
            )],
            "village",
        ),
        "split" => (
            vec![
                format!(
                    "{{ type: meadow, count: {}, order_by: {{ axis: elevation, prefer: highest }} }}",
                    total / 2
                ),
                format!(
                    "{{ type: forest, count: {}, order_by: {{ axis: moisture, prefer: lowest }} }}",
                    total - total / 2
                ),
            ],
            "meadow",
        ),
        other => panic!("unknown shape '{other}': expected scrub, village or split"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, n] = args.as_slice() else {
        panic!("usage: guarantee_scale scrub|village|split SITES");
    };
    let n: u32 = n.parse().expect("SITES is a whole number");
    let (guarantees, start) = shape(name, n);
    let files = example::resized_island(n, &guarantees, start);
    let defs = load_definitions(files.iter().map(|(a, b)| (a.as_str(), b.as_str())))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let map = generate_island(&defs, "island", 7.into()).unwrap_or_else(|e| panic!("{e}"));
    let guaranteed = map
        .sites
        .iter()
        .filter(|s| s.assigned_by == mangekyo_island::Assignment::Guarantee)
        .count();
    // FNV-1a over every site's type and how it was chosen, so runs of two
    // builds can be compared for identical choices.
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    for s in &map.sites {
        for b in format!("{}:{:?};", s.location_type, s.assigned_by).bytes() {
            digest = (digest ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    println!(
        "{name:>7} n={n:>6}: {} sites, {guaranteed} by guarantee, types {digest:016x}",
        map.sites.len()
    );
}
