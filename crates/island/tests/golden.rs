//! Determinism: golden hashes of the JSON and of the decoded map, stream
//! independence, and file splitting. A change that moves a golden hash is a
//! deliberate generator change: bump `GENERATOR_VERSION` and update here.

use mangekyo_core::Seed;
use mangekyo_island::{
    Definitions, GENERATOR_VERSION, IslandMap, example, generate_island, load_definitions, view,
};
use xxhash_rust::xxh3::xxh3_64;

/// Every field of the map, f64s by their bits, in a fixed layout.
fn map_bytes(map: &IslandMap) -> Vec<u8> {
    let mut b = Vec::new();
    let mut put = |x: u64| b.extend_from_slice(&x.to_le_bytes());
    put(map.seed.value());
    for s in &map.sites {
        put(s.x.to_bits());
        put(s.y.to_bits());
        put(u64::from(s.on_coast_ring));
        for v in s.axes.values() {
            put(v.to_bits());
        }
        put(xxh3_64(s.location_type.as_bytes()));
        put(s.assigned_by as u64);
        put(xxh3_64(format!("{:?}", s.name).as_bytes()));
    }
    for e in &map.edges {
        put(u64::from(e.a) << 32 | u64::from(e.b));
        put(e.meters.to_bits());
        put(u64::from(e.travel_minutes) << 1 | u64::from(e.mst));
    }
    b
}

fn hashes(defs: &Definitions, scope: &str, seed: u64) -> (u64, u64) {
    let map = generate_island(defs, scope, Seed::new(seed)).unwrap();
    (
        xxh3_64(&map_bytes(&map)),
        xxh3_64(view::json::to_string(&map, defs, "en").as_bytes()),
    )
}

#[test]
fn golden_hashes_of_the_example_world() {
    let defs = example::definitions();
    assert_eq!(
        GENERATOR_VERSION, 1,
        "a version bump must come with new goldens below"
    );
    let got: Vec<(&str, u64, (u64, u64))> = [
        ("island", 0),
        ("island", 42),
        ("island", 1_000_003),
        ("islet", 7),
    ]
    .into_iter()
    .map(|(scope, seed)| (scope, seed, hashes(&defs, scope, seed)))
    .collect();
    let expected: Vec<(&str, u64, (u64, u64))> = GOLDEN.to_vec();
    let listing: String = got
        .iter()
        .map(|(s, n, (a, b))| format!("    (\"{s}\", {n}, ({a:#018x}, {b:#018x})),\n"))
        .collect();
    assert_eq!(got, expected, "golden hashes moved; now:\n{listing}");
}

/// Pinned (generator version, example world): editing `examples/island/`
/// moves them too, and that is not a generator version bump.
const GOLDEN: [(&str, u64, (u64, u64)); 4] = [
    ("island", 0, (0x063f54963c02b717, 0x17515ce76628b423)),
    ("island", 42, (0x32cbe4d1d83bcf86, 0xdd9db87e056ecf6c)),
    (
        "island",
        1_000_003,
        (0x4ee8136e7a630f7f, 0xa0ad3e7ea08e79e3),
    ),
    ("islet", 7, (0x4f73a2e9942bcb69, 0x96fb331c4f2ddac8)),
];

#[test]
fn text_seeds_are_stable_too() {
    let defs = example::definitions();
    let a = generate_island(&defs, "island", Seed::parse("treasure")).unwrap();
    let b = generate_island(&defs, "island", Seed::from_text("treasure")).unwrap();
    assert_eq!(a, b);
    assert_ne!(
        a,
        generate_island(&defs, "island", Seed::parse("treasure!")).unwrap()
    );
}

/// Everything but the names.
fn layout(map: &IslandMap) -> Vec<u8> {
    let mut m = map.clone();
    for s in &mut m.sites {
        s.name.variant = None;
        s.name.ordinal = None;
    }
    map_bytes(&m)
}

#[test]
fn drawing_more_or_fewer_names_moves_nothing_else() {
    let sources = example::sources();
    // No variants at all: the names stream draws nothing.
    let bare: Vec<(String, String)> = sources
        .iter()
        .map(|(n, t)| {
            let text = if n.ends_with("types.yaml") {
                t.lines()
                    .filter(|l| !l.contains("- { id:") && l.trim() != "variants:")
                    .collect::<Vec<_>>()
                    .join("\n")
            } else if n.ends_with("en.yaml") || n.ends_with("ja.yaml") {
                t.lines()
                    .filter(|l| !l.contains("variants:"))
                    .collect::<Vec<_>>()
                    .join("\n")
            } else {
                t.to_string()
            };
            (n.to_string(), text)
        })
        .collect();
    let full = example::definitions();
    let fewer = load_definitions(bare.iter().map(|(n, t)| (n.as_str(), t.as_str()))).unwrap();
    assert!(
        fewer
            .location_types()
            .values()
            .all(|t| t.variants.is_empty())
    );
    let mut names_differ = 0;
    for seed in 0..100 {
        let a = generate_island(&full, "island", Seed::new(seed)).unwrap();
        let b = generate_island(&fewer, "island", Seed::new(seed)).unwrap();
        assert_eq!(
            layout(&a),
            layout(&b),
            "seed {seed}: names moved the layout"
        );
        names_differ += usize::from(a.sites.iter().zip(&b.sites).any(|(x, y)| x.name != y.name));
    }
    assert!(
        names_differ > 90,
        "the variants did change names ({names_differ})"
    );
}

#[test]
fn splitting_the_definitions_over_files_changes_nothing() {
    let sources = example::sources();
    let as_given = example::definitions();
    // One file: every section once (the two languages under one key).
    let mut one = String::new();
    for (name, text) in &sources {
        if name.ends_with("ja.yaml") {
            one.push_str(&text.replacen("localization:\n", "", 1));
        } else {
            one.push_str(text);
        }
        one.push('\n');
    }
    let single = load_definitions([("all.yaml", one.as_str())]).unwrap();
    // Many files, reversed: every location type in a file of its own.
    let mut pieces: Vec<(String, String)> = Vec::new();
    for (name, text) in sources.iter().rev() {
        if name.ends_with("types.yaml") {
            let body: Vec<&str> = text
                .lines()
                .skip_while(|l| !l.starts_with("location_types:"))
                .skip(1)
                .collect();
            let mut chunk = String::new();
            for line in body {
                if line.starts_with("  ")
                    && !line.starts_with("   ")
                    && !line.trim_start().starts_with('#')
                    && !chunk.is_empty()
                {
                    pieces.push((
                        format!("type{}.yaml", pieces.len()),
                        format!("location_types:\n{chunk}"),
                    ));
                    chunk.clear();
                }
                chunk.push_str(line);
                chunk.push('\n');
            }
            pieces.push((
                format!("type{}.yaml", pieces.len()),
                format!("location_types:\n{chunk}"),
            ));
        } else {
            pieces.push((name.to_string(), text.to_string()));
        }
    }
    assert!(pieces.len() > 12, "types were split ({})", pieces.len());
    let split = load_definitions(pieces.iter().map(|(n, t)| (n.as_str(), t.as_str()))).unwrap();
    for seed in 0..50 {
        let a = generate_island(&as_given, "island", Seed::new(seed)).unwrap();
        let b = generate_island(&single, "island", Seed::new(seed)).unwrap();
        let c = generate_island(&split, "island", Seed::new(seed)).unwrap();
        assert_eq!(a, b, "seed {seed}: one file");
        assert_eq!(a, c, "seed {seed}: split files");
        assert_eq!(
            view::json::to_string(&a, &as_given, "ja"),
            view::json::to_string(&c, &split, "ja")
        );
    }
}

/// Generation that may be cancelled gives the same island when it is not,
/// and stops with `Cancelled` at a checkpoint when it is.
#[test]
fn cancellable_generation_is_the_same_or_stops() {
    use mangekyo_island::{GenerateError, generate_island_cancellable};
    use std::sync::atomic::{AtomicU32, Ordering};
    let defs = load_definitions(example::sources()).unwrap();
    let seed = Seed::from(42);
    let whole = generate_island(&defs, "island", seed).unwrap();
    let same = generate_island_cancellable(&defs, "island", seed, &|| true).unwrap();
    assert_eq!(map_bytes(&same), map_bytes(&whole));
    // Every checkpoint in turn: the first few steps, then each guarantee.
    for n in 0..8 {
        let asked = AtomicU32::new(0);
        let stop = || asked.fetch_add(1, Ordering::Relaxed) < n;
        let result = generate_island_cancellable(&defs, "island", seed, &stop);
        assert_eq!(
            result.unwrap_err(),
            GenerateError::Cancelled,
            "checkpoint {n}"
        );
    }
}
