//! Sea routes (`sea_routes` in a scope): they link sites of the `between`
//! type only, every such site once an island has two, keep off the land,
//! never move the island's layout, and are a pure function of
//! (definitions, seed), pinned by golden hashes.

use mangekyo_core::Seed;
use mangekyo_island::generate::paths::TRAVEL_MINUTES_STEP;
use mangekyo_island::generate::sea::sea_distance;
use mangekyo_island::{
    Definitions, IslandMap, LoadError, SeaRoute, example, generate_island, load_definitions,
    sea_routes,
};
use std::collections::BTreeSet;
use xxhash_rust::xxh3::xxh3_64;

/// The example world with its files edited by `edit(name, text)`.
fn load_edited(edit: impl Fn(&str, &str) -> String) -> Result<Definitions, LoadError> {
    let files: Vec<(String, String)> = example::sources()
        .iter()
        .map(|(n, t)| (n.to_string(), edit(n, t)))
        .collect();
    load_definitions(files.iter().map(|(n, t)| (n.as_str(), t.as_str())))
}

/// The example world with `scopes.yaml` edited by `edit`.
fn edited(edit: impl Fn(&str) -> String) -> Definitions {
    load_edited(|n, t| {
        if n.ends_with("scopes.yaml") {
            edit(t)
        } else {
            t.to_string()
        }
    })
    .unwrap()
}

/// `text` without the lines of `sea_routes` keys.
fn without_sea_routes(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("sea_routes:"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ports(map: &IslandMap, ty: &str) -> Vec<u32> {
    map.sites
        .iter()
        .filter(|s| s.location_type == ty)
        .map(|s| s.id)
        .collect()
}

fn ends(routes: &[SeaRoute]) -> BTreeSet<u32> {
    routes.iter().flat_map(|r| [r.a, r.b]).collect()
}

#[test]
fn routes_link_harbours_only_and_every_harbour_has_one() {
    let defs = example::definitions();
    let sea = defs.scopes()["island"].sea_routes.clone().unwrap();
    let mut with_routes = 0;
    for seed in 0..300 {
        let map = generate_island(&defs, "island", Seed::new(seed)).unwrap();
        let routes = sea_routes(&defs, &map).unwrap();
        let harbours = ports(&map, &sea.between);
        for w in routes.windows(2) {
            assert!(
                (w[0].a, w[0].b) < (w[1].a, w[1].b),
                "seed {seed}: sorted, once"
            );
        }
        for r in &routes {
            let (a, b) = (&map.sites[r.a as usize], &map.sites[r.b as usize]);
            assert!(r.a < r.b, "seed {seed}");
            assert_eq!(a.location_type, sea.between, "seed {seed}: {r:?}");
            assert_eq!(b.location_type, sea.between, "seed {seed}: {r:?}");
            // Round the coast is never shorter than straight over the land.
            let (dx, dy) = (a.x - b.x, a.y - b.y);
            let straight = (dx * dx + dy * dy).sqrt() * 2500.0;
            assert!(r.meters > straight, "seed {seed}: {r:?}");
            assert!(r.travel_minutes >= TRAVEL_MINUTES_STEP);
            assert_eq!(r.travel_minutes % TRAVEL_MINUTES_STEP, 0);
            assert!(f64::from(r.travel_minutes) >= r.meters / sea.meters_per_minute);
        }
        if harbours.len() >= 2 {
            with_routes += 1;
            // Every harbour, and with no `nearest`, every pair.
            assert_eq!(
                ends(&routes),
                harbours.iter().copied().collect(),
                "seed {seed}"
            );
            let n = harbours.len();
            assert_eq!(routes.len(), n * (n - 1) / 2, "seed {seed}");
        } else {
            assert!(routes.is_empty(), "seed {seed}: one harbour, no route");
        }
    }
    assert!(
        (100..300).contains(&with_routes),
        "islands with two harbours or more: {with_routes} of 300"
    );
}

#[test]
fn nearest_links_each_site_to_its_nearest_others_only() {
    // Up to three harbours an island, so `nearest: 1` leaves some pairs out.
    let defs = edited(|t| {
        t.replacen(
            "sea_routes: { between: harbor, path: path.boat,",
            "sea_routes: { between: harbor, nearest: 1, path: path.boat,",
            1,
        )
    });
    assert_eq!(
        defs.scopes()["island"].sea_routes.as_ref().unwrap().nearest,
        Some(1)
    );
    let example = example::definitions();
    let mut fewer = 0;
    for seed in 0..200 {
        let map = generate_island(&defs, "island", Seed::new(seed)).unwrap();
        assert_eq!(
            map,
            generate_island(&example, "island", Seed::new(seed)).unwrap(),
            "seed {seed}: sea routes never move the island"
        );
        let routes = sea_routes(&defs, &map).unwrap();
        let ports_here = ports(&map, "harbor");
        let linked: BTreeSet<(u32, u32)> = routes.iter().map(|r| (r.a, r.b)).collect();
        let far = |p: u32, q: u32| {
            let (a, b) = (&map.sites[p as usize], &map.sites[q as usize]);
            sea_distance(a.x, a.y, b.x, b.y)
        };
        for &p in &ports_here {
            let nearest = ports_here
                .iter()
                .copied()
                .filter(|&q| q != p)
                .min_by(|&x, &y| far(p, x).total_cmp(&far(p, y)).then(x.cmp(&y)));
            if let Some(q) = nearest {
                assert!(
                    linked.contains(&(p.min(q), p.max(q))),
                    "seed {seed}: {p}–{q}"
                );
            }
        }
        // Every pair is some end's nearest.
        for &(a, b) in &linked {
            let is_nearest = |p: u32, q: u32| {
                ports_here
                    .iter()
                    .filter(|&&o| o != p)
                    .all(|&o| (far(p, q), q) <= (far(p, o), o))
            };
            assert!(is_nearest(a, b) || is_nearest(b, a), "seed {seed}: {a}–{b}");
        }
        let n = ports_here.len();
        fewer += usize::from(routes.len() < n * n.saturating_sub(1) / 2);
    }
    assert!(fewer > 0, "nearest: 1 left out some pair on some island");
}

#[test]
fn boats_unlinked_from_the_harbours_are_refused_at_load_time() {
    // Without `sea_routes` the boat's paths could lie anywhere, and a beach
    // has no `boats`: the sail interaction is refused where it is written.
    let err = load_edited(|n, t| {
        if n.ends_with("scopes.yaml") {
            without_sea_routes(t)
        } else {
            t.to_string()
        }
    })
    .unwrap_err();
    let objects = example::sources()[0].1;
    assert!(!err.diagnostics.is_empty());
    for d in &err.diagnostics {
        assert_eq!(d.file, "examples/island/objects.yaml", "{d}");
        assert!(
            d.path
                .starts_with("object_defs.path.boat.interactions.sail"),
            "{d}"
        );
        assert!(d.message.contains(".boats' can name object_def"), "{d}");
        let line = objects.lines().nth(d.line as usize - 1).unwrap();
        assert!(line.contains("boats"), "{d} points at {line:?}");
        assert!(d.column >= 1 && d.column as usize <= line.len(), "{d}");
    }
}

#[test]
fn a_world_without_boats_has_the_same_islands_and_no_routes() {
    // The boat's def, its bot weight and the scopes' sea routes removed.
    let defs = load_edited(|n, t| {
        if n.ends_with("scopes.yaml") {
            without_sea_routes(t).replace(" sail: 2,", "")
        } else if n.ends_with("objects.yaml") {
            let (head, tail) = t.split_at(t.find("  # A sea route").unwrap());
            head.to_string() + &tail[tail.find("  character.explorer:").unwrap()..]
        } else {
            t.to_string()
        }
    })
    .unwrap();
    assert!(defs.scopes().values().all(|s| s.sea_routes.is_none()));
    assert!(!defs.object_defs().contains_key("path.boat"));
    let example = example::definitions();
    for seed in 0..50 {
        let map = generate_island(&defs, "island", Seed::new(seed)).unwrap();
        assert_eq!(
            map,
            generate_island(&example, "island", Seed::new(seed)).unwrap()
        );
        assert!(sea_routes(&defs, &map).unwrap().is_empty());
    }
}

/// Every field of every route, f64s by their bits.
fn routes_hash(routes: &[SeaRoute]) -> u64 {
    let mut b = Vec::new();
    for r in routes {
        b.extend_from_slice(&(u64::from(r.a) << 32 | u64::from(r.b)).to_le_bytes());
        b.extend_from_slice(&r.meters.to_bits().to_le_bytes());
        b.extend_from_slice(&u64::from(r.travel_minutes).to_le_bytes());
    }
    xxh3_64(&b)
}

#[test]
fn golden_sea_routes_of_the_example_world() {
    // Pinned like the island goldens (tests/golden.rs): the same on every
    // machine (libm angles, no hash-map order); editing the example
    // world's sea routes or harbours moves them.
    let defs = example::definitions();
    let got: Vec<(u64, usize, u64)> = [0, 1, 42, 1_000_003]
        .into_iter()
        .map(|seed| {
            let map = generate_island(&defs, "island", Seed::new(seed)).unwrap();
            let routes = sea_routes(&defs, &map).unwrap();
            (seed, routes.len(), routes_hash(&routes))
        })
        .collect();
    let listing: String = got
        .iter()
        .map(|(s, n, h)| format!("    ({s}, {n}, {h:#018x}),\n"))
        .collect();
    assert_eq!(
        got,
        SEA_GOLDEN.to_vec(),
        "sea routes moved; now:\n{listing}"
    );
}

const SEA_GOLDEN: [(u64, usize, u64); 4] = [
    (0, 1, 0x4336244145793a85),
    (1, 3, 0xe3ecfba65a68ac1e),
    (42, 1, 0x5e136079bd109a74),
    (1_000_003, 1, 0x9ad659bf739415a6),
];
