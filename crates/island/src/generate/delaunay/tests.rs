//! The canonical triangulation against a brute-force oracle of the same
//! definition, and against delaunator where Delaunay is unique.

use super::*;
use mangekyo_core::Pcg32;
use std::f64::consts::TAU;

/// Every counter-clockwise triangle whose perturbed circumcircle is empty:
/// the definition of the canonical triangulation, in O(n⁴).
fn brute_force(pts: &[[f64; 2]]) -> Vec<[u32; 3]> {
    let n = pts.len() as u32;
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let o = orient(pts, i, j, k);
                if o == 0.0 {
                    continue;
                }
                let (a, b, c) = if o > 0.0 { (i, j, k) } else { (i, k, j) };
                if (0..n)
                    .filter(|&d| d != a && d != b && d != c)
                    .all(|d| !in_circle_perturbed(pts, a, b, c, d))
                {
                    out.push([a, b, c]);
                }
            }
        }
    }
    out.sort_unstable();
    out
}

fn ring(n: usize, r: f64, centre: bool) -> Vec<[f64; 2]> {
    let mut pts: Vec<[f64; 2]> = (0..n)
        .map(|i| {
            let a = TAU * i as f64 / n as f64;
            [r * libm::cos(a), r * libm::sin(a)]
        })
        .collect();
    if centre {
        pts.push([0.0, 0.0]);
    }
    pts
}

fn grid(side: usize) -> Vec<[f64; 2]> {
    (0..side * side)
        .map(|i| [(i % side) as f64, (i / side) as f64])
        .collect()
}

fn random(n: usize, seed: u64) -> Vec<[f64; 2]> {
    let mut rng = Pcg32::new(seed, 7);
    (0..n)
        .map(|_| [rng.next_range_f64(-1.0, 1.0), rng.next_range_f64(-1.0, 1.0)])
        .collect()
}

fn check_against_oracle(pts: &[[f64; 2]]) {
    let t = triangulate(pts).unwrap();
    assert_eq!(t.triangles, brute_force(pts), "points {pts:?}");
}

#[test]
fn cocircular_sets_match_the_oracle() {
    check_against_oracle(&ring(16, 1.0, false));
    check_against_oracle(&ring(16, 1.0, true));
    check_against_oracle(&ring(7, 0.9, true));
    check_against_oracle(&grid(4));
    check_against_oracle(&grid(5));
}

#[test]
fn reordered_cocircular_input_still_matches_the_oracle() {
    // Different ids give a different (but again canonical) answer: the
    // oracle is the definition, whatever order delaunator inserts in.
    let mut rng = Pcg32::new(3, 3);
    for _ in 0..20 {
        let mut pts = ring(12, 1.0, true);
        pts.extend(grid(3).iter().map(|p| [p[0] * 0.2 - 0.3, p[1] * 0.2 - 0.3]));
        rng.shuffle(&mut pts);
        check_against_oracle(&pts);
    }
}

#[test]
fn random_sets_match_the_oracle() {
    for seed in 0..40 {
        check_against_oracle(&random(5 + seed as usize % 16, seed));
    }
}

#[test]
fn generic_points_agree_with_delaunator() {
    for seed in 0..5 {
        let pts = random(800, seed);
        let ours = triangulate(&pts).unwrap();
        let raw = delaunator::triangulate(
            &pts.iter()
                .map(|p| Point { x: p[0], y: p[1] })
                .collect::<Vec<_>>(),
        );
        let mut theirs: Vec<(u32, u32)> = (0..raw.triangles.len())
            .map(|e| {
                let (a, b) = (
                    raw.triangles[e] as u32,
                    raw.triangles[delaunator::next_halfedge(e)] as u32,
                );
                (a.min(b), a.max(b))
            })
            .collect();
        theirs.sort_unstable();
        theirs.dedup();
        assert_eq!(ours.edges, theirs);
    }
}

#[test]
fn euler_counts_hold() {
    for pts in [random(300, 9), ring(16, 1.0, true), grid(6)] {
        let t = triangulate(&pts).unwrap();
        let n = pts.len();
        let hull = delaunator::triangulate(
            &pts.iter()
                .map(|p| Point { x: p[0], y: p[1] })
                .collect::<Vec<_>>(),
        )
        .hull
        .len();
        // delaunator's hull skips collinear hull points; count them from the
        // edges instead: boundary edges belong to one triangle.
        let boundary = t.edges.len() * 2 - t.triangles.len() * 3;
        assert!(boundary >= hull);
        assert_eq!(t.triangles.len(), 2 * n - 2 - boundary);
        assert_eq!(t.edges.len(), 3 * n - 3 - boundary);
    }
}

#[test]
fn degenerate_inputs_do_not_panic() {
    assert_eq!(triangulate(&[]).unwrap().edges, []);
    assert_eq!(
        triangulate(&[[0.0, 0.0], [1.0, 0.0]]).unwrap().edges,
        [(0, 1)]
    );
    let line = triangulate(&[[0.0, 0.0], [2.0, 0.0], [1.0, 0.0]]).unwrap();
    assert_eq!(line.edges, [(0, 2), (1, 2)]);
    let dup = triangulate(&[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]);
    assert!(
        matches!(dup, Err(GenerateError::Triangulation(_))),
        "{dup:?}"
    );
}
