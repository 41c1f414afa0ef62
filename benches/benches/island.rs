//! Islands: a 20-site island end to end (YAML already loaded), loading the
//! example world's YAML, a 10k-site island whose one guarantee asks for
//! 9,999 sites (issue 38: the guarantee matcher must stay polynomial on
//! hostile definitions), and the two steps that must scale, triangulation
//! and the path network, at 1k, 10k and 100k sites (plus placement, whose
//! best-candidate search must stay linear).
//!
//! Fairness notes.
//! - Triangulation: ours is delaunator plus exact, tie-broken Lawson flips
//!   (the canonical answer on co-circular input); `delaunator` alone is the
//!   fastest crate users would pick but gives a library-dependent answer on
//!   ties; `spade` (bulk load) is the exact-predicate crate users would pick
//!   for robustness. All three get the same best-candidate sites.
//! - Path network: ours is Kruskal with explicit tie keys plus a Dijkstra
//!   bounded by threshold × length; the comparator is the same algorithm
//!   as a user would write it with petgraph (`min_spanning_tree`, then
//!   `dijkstra` with a goal node for each candidate edge). Both include
//!   metres; ours also computes travel minutes.
//! - Everything is single-threaded.

use criterion::{BenchmarkId, Criterion, Throughput};
use mangekyo_bench::{criterion, median_ns};
use mangekyo_core::{Pcg32, Seed};
use mangekyo_island::generate::delaunay::triangulate;
use mangekyo_island::generate::paths::{PathParams, build_path_network};
use mangekyo_island::generate::place::place_sites;
use mangekyo_island::{example, generate_island, load_definitions};
use std::hint::black_box;

const E2E: &str = "island_end_to_end";
const TRI: &str = "island_triangulate";
const NET: &str = "island_path_network";
const PLACE: &str = "island_place";
const GUARANTEE: &str = "island_guarantee";
/// Sites of the near-total guarantee island.
const GUARANTEE_SITES: u32 = 10_000;
const SIZES: [u32; 3] = [1_000, 10_000, 100_000];
const PARAMS: PathParams = PathParams {
    meters_per_distance_unit: 2500.0,
    detour_threshold: 1.5,
};

fn sites(n: u32) -> Vec<[f64; 2]> {
    let mut rng = Pcg32::for_purpose(Seed::new(123), "layout");
    place_sites((n, n), &mut rng)
        .into_iter()
        .map(|s| [s.x, s.y])
        .collect()
}

fn heights(points: &[[f64; 2]]) -> Vec<f64> {
    points
        .iter()
        .map(|p| (1.0 - (p[0] * p[0] + p[1] * p[1]).sqrt()).max(0.0) * 900.0)
        .collect()
}

fn bench_end_to_end(c: &mut Criterion) {
    let sources = example::sources();
    let twenty: Vec<(String, String)> = sources
        .iter()
        .map(|(n, t)| {
            (
                n.to_string(),
                t.replace(
                    "site_count: { min: 18, max: 24 }",
                    "site_count: { min: 20, max: 20 }",
                ),
            )
        })
        .collect();
    let defs = load_definitions(twenty.iter().map(|(n, t)| (n.as_str(), t.as_str()))).unwrap();
    let mut g = c.benchmark_group(E2E);
    let mut seed = 0u64;
    g.bench_function("generate_20_sites", |b| {
        b.iter(|| {
            seed += 1;
            black_box(generate_island(&defs, "island", Seed::new(seed)).unwrap())
        })
    });
    g.bench_function("load_example_yaml", |b| {
        b.iter(|| black_box(load_definitions(sources).unwrap()))
    });
    g.finish();
}

/// The example world resized to `n` sites with one guarantee of `village`
/// (about two thirds of the sites admit it) for `n − 1` of them: more
/// openings than admissible sites, so most openings are refused every site
/// the rest still need (the expensive case for the matcher). No sea routes
/// and no per-type cap (`example::resized_island`).
fn near_total_guarantee_world(n: u32) -> Vec<(String, String)> {
    let village = format!(
        "{{ type: village, count: {}, order_by: {{ axis: coastal_distance, prefer: lowest }} }}",
        n - 1
    );
    example::resized_island(n, &[village], "village")
}

fn bench_guarantee(c: &mut Criterion) {
    let files = near_total_guarantee_world(GUARANTEE_SITES);
    let defs = load_definitions(files.iter().map(|(n, t)| (n.as_str(), t.as_str()))).unwrap();
    let mut g = c.benchmark_group(GUARANTEE);
    g.sample_size(10);
    g.bench_function(
        BenchmarkId::new("village_all_but_one", GUARANTEE_SITES),
        |b| b.iter(|| black_box(generate_island(&defs, "island", Seed::new(7)).unwrap())),
    );
    g.finish();
}

fn bench_triangulate(c: &mut Criterion) {
    let mut g = c.benchmark_group(TRI);
    g.sample_size(10);
    for n in SIZES {
        let pts = sites(n);
        g.throughput(Throughput::Elements(u64::from(n)));
        g.bench_with_input(BenchmarkId::new("ours_canonical", n), &pts, |b, pts| {
            b.iter(|| black_box(triangulate(pts).unwrap()))
        });
        let dpts: Vec<delaunator::Point> = pts
            .iter()
            .map(|p| delaunator::Point { x: p[0], y: p[1] })
            .collect();
        g.bench_with_input(BenchmarkId::new("delaunator", n), &dpts, |b, pts| {
            b.iter(|| black_box(delaunator::triangulate(pts)))
        });
        let spts: Vec<spade::Point2<f64>> =
            pts.iter().map(|p| spade::Point2::new(p[0], p[1])).collect();
        g.bench_with_input(BenchmarkId::new("spade", n), &spts, |b, pts| {
            b.iter(|| {
                use spade::Triangulation;
                let t = spade::DelaunayTriangulation::<spade::Point2<f64>>::bulk_load(pts.clone())
                    .unwrap();
                black_box(t.num_undirected_edges())
            })
        });
    }
    g.finish();
}

/// The same network written with petgraph, as a user would.
fn petgraph_network(points: &[[f64; 2]], edges: &[(u32, u32)]) -> usize {
    use petgraph::algo::{dijkstra, min_spanning_tree};
    use petgraph::data::Element;
    use petgraph::graph::{NodeIndex, UnGraph};
    let len = |a: u32, b: u32| {
        let (p, q) = (points[a as usize], points[b as usize]);
        ((q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1])).sqrt()
            * PARAMS.meters_per_distance_unit
    };
    let mut all = UnGraph::<(), f64>::with_capacity(points.len(), edges.len());
    for _ in points {
        all.add_node(());
    }
    for &(a, b) in edges {
        all.add_edge(
            NodeIndex::new(a as usize),
            NodeIndex::new(b as usize),
            len(a, b),
        );
    }
    let mut net = UnGraph::<(), f64>::with_capacity(points.len(), edges.len());
    for _ in points {
        net.add_node(());
    }
    let mut in_tree = std::collections::BTreeSet::new();
    for e in min_spanning_tree(&all) {
        if let Element::Edge {
            source,
            target,
            weight,
            ..
        } = e
        {
            net.add_edge(NodeIndex::new(source), NodeIndex::new(target), weight);
            in_tree.insert((source.min(target), source.max(target)));
        }
    }
    let mut rest: Vec<(f64, u32, u32)> = edges
        .iter()
        .filter(|&&(a, b)| !in_tree.contains(&(a as usize, b as usize)))
        .map(|&(a, b)| (len(a, b), a, b))
        .collect();
    rest.sort_by(|x, y| x.0.total_cmp(&y.0));
    for (l, a, b) in rest {
        let (na, nb) = (NodeIndex::new(a as usize), NodeIndex::new(b as usize));
        let d = dijkstra(&net, na, Some(nb), |e| *e.weight());
        if d.get(&nb).is_none_or(|&x| x > l * PARAMS.detour_threshold) {
            net.add_edge(na, nb, l);
        }
    }
    net.edge_count()
}

fn bench_network(c: &mut Criterion) {
    let mut g = c.benchmark_group(NET);
    g.sample_size(10);
    for n in SIZES {
        let pts = sites(n);
        let h = heights(&pts);
        let dt = triangulate(&pts).unwrap().edges;
        g.throughput(Throughput::Elements(u64::from(n)));
        g.bench_with_input(BenchmarkId::new("ours", n), &n, |b, _| {
            b.iter(|| black_box(build_path_network(&pts, &h, &dt, PARAMS)))
        });
        g.bench_with_input(BenchmarkId::new("petgraph", n), &n, |b, _| {
            b.iter(|| black_box(petgraph_network(&pts, &dt)))
        });
        let (ours, theirs) = (
            build_path_network(&pts, &h, &dt, PARAMS).len(),
            petgraph_network(&pts, &dt),
        );
        println!("path network n={n}: {ours} edges (petgraph version: {theirs})");
    }
    g.finish();
}

fn bench_place(c: &mut Criterion) {
    let mut g = c.benchmark_group(PLACE);
    g.sample_size(10);
    for n in SIZES {
        g.throughput(Throughput::Elements(u64::from(n)));
        g.bench_with_input(BenchmarkId::new("best_candidate", n), &n, |b, &n| {
            b.iter(|| {
                let mut rng = Pcg32::new(1, 2);
                black_box(place_sites((n, n), &mut rng))
            })
        });
    }
    g.finish();
}

fn report() {
    println!("\n== island: medians ==");
    for id in ["generate_20_sites", "load_example_yaml"] {
        if let Some(t) = median_ns(E2E, id) {
            println!("{E2E}/{id}: {:.1} µs", t / 1e3);
        }
    }
    if let Some(t) = median_ns(GUARANTEE, &format!("village_all_but_one/{GUARANTEE_SITES}")) {
        println!(
            "guarantee of {} of {GUARANTEE_SITES} sites: {:.1} ms end to end",
            GUARANTEE_SITES - 1,
            t / 1e6
        );
    }
    for n in SIZES {
        let get = |group: &str, id: &str| median_ns(group, &format!("{id}/{n}"));
        if let (Some(o), Some(d), Some(s)) = (
            get(TRI, "ours_canonical"),
            get(TRI, "delaunator"),
            get(TRI, "spade"),
        ) {
            println!(
                "triangulate n={n}: ours {:.2} ms, delaunator {:.2} ms, spade {:.2} ms (ours takes ×{:.2} delaunator's and ×{:.2} spade's time)",
                o / 1e6,
                d / 1e6,
                s / 1e6,
                o / d,
                o / s
            );
        }
        if let (Some(o), Some(p)) = (get(NET, "ours"), get(NET, "petgraph")) {
            println!(
                "path network n={n}: ours {:.2} ms, petgraph {:.2} ms (ours ×{:.2} faster)",
                o / 1e6,
                p / 1e6,
                p / o
            );
        }
        if let Some(t) = get(PLACE, "best_candidate") {
            println!(
                "placement n={n}: {:.2} ms ({:.0} ns/site)",
                t / 1e6,
                t / f64::from(n)
            );
        }
    }
}

fn main() {
    let mut c = criterion();
    bench_end_to_end(&mut c);
    bench_guarantee(&mut c);
    bench_triangulate(&mut c);
    bench_network(&mut c);
    bench_place(&mut c);
    c.final_summary();
    report();
}
