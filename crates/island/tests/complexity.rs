//! The scaling claims as operation counts (never timings): the detour
//! search settles a bounded number of nodes per candidate edge however
//! large the island, so the path network is not quadratic.

use mangekyo_core::Pcg32;
use mangekyo_island::generate::delaunay::triangulate;
use mangekyo_island::generate::paths::{PathParams, build_path_network_with_work};
use mangekyo_island::generate::place::place_sites;

fn settled_per_query(n: u32) -> f64 {
    let mut rng = Pcg32::new(u64::from(n), 1);
    let pts: Vec<[f64; 2]> = place_sites((n, n), &mut rng)
        .into_iter()
        .map(|s| [s.x, s.y])
        .collect();
    let dt = triangulate(&pts).unwrap();
    let params = PathParams {
        meters_per_distance_unit: 2500.0,
        detour_threshold: 1.5,
    };
    let (_, work) = build_path_network_with_work(&pts, &vec![0.0; pts.len()], &dt.edges, params);
    assert!(
        work.queries as usize >= dt.edges.len() - pts.len(),
        "every non-tree edge is checked"
    );
    work.settled as f64 / work.queries as f64
}

#[test]
fn detour_search_work_per_edge_stays_flat() {
    let large = if std::env::var_os("MANGEKYO_SLOW_TESTS").is_some() {
        100_000
    } else {
        12_000
    };
    let (small, big) = (settled_per_query(1_500), settled_per_query(large));
    assert!(
        big < small * 1.6,
        "settled per query: {small:.1} at 1.5k, {big:.1} at {large}"
    );
}
