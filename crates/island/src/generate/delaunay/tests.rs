//! The canonical triangulation against a brute-force oracle of the same
//! definition, and against delaunator where Delaunay is unique.
//!
//! The oracle shares no predicate with the implementation (which uses the
//! `robust` crate's adaptive floats): it works on integer coordinates in
//! exact `i128` arithmetic, and breaks co-circular ties from the module
//! doc's definition directly, as the derivatives of the lifted 4×4
//! determinant in the perturbed heights, lowest id first. Test points are
//! integers (|x|, |y| ≤ 2²⁰), so the exact ties (lattice points on one
//! circle, grids) are real ties.

use super::*;
use mangekyo_core::Pcg32;

/// The exact integer of an integer-valued coordinate.
fn int(v: f64) -> i128 {
    assert!(
        v.fract() == 0.0 && v.abs() <= (1 << 20) as f64,
        "oracle input {v}"
    );
    v as i128
}

/// Exact orientation: > 0 when a, b, c turn counter-clockwise.
fn exact_orient(p: [[i128; 2]; 3]) -> i128 {
    let [a, b, c] = p;
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// The 4×4 determinant of rows `[x, y, z, 1]`, by cofactor expansion.
fn det4(rows: [[i128; 4]; 4]) -> i128 {
    let det3 = |m: [[i128; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    (0..4)
        .map(|col| {
            let keep: Vec<usize> = (0..4).filter(|&k| k != col).collect();
            let minor: [[i128; 3]; 3] = std::array::from_fn(|r| {
                let row = rows[r + 1];
                [row[keep[0]], row[keep[1]], row[keep[2]]]
            });
            let sign = if col % 2 == 0 { 1 } else { -1 };
            sign * rows[0][col] * det3(minor)
        })
        .sum()
}

/// Whether `d` is inside the circle through the counter-clockwise a, b, c,
/// ties broken by lifting site i to z = x² + y² + εᵢ, ε₀ ≫ ε₁ ≫ ….
fn exact_in_circle(pts: &[[i128; 2]], a: u32, b: u32, c: u32, d: u32) -> bool {
    let ids = [a, b, c, d];
    let lifted = |z: &dyn Fn(usize) -> i128| -> i128 {
        let rows: [[i128; 4]; 4] = std::array::from_fn(|r| {
            let p = pts[ids[r] as usize];
            [p[0], p[1], z(r), 1]
        });
        det4(rows)
    };
    // The lifted determinant's sign for d inside a counter-clockwise a, b, c:
    // fixed once on a triangle around the origin.
    let probe = [[-4, -4], [4, -4], [0, 4], [0, 0]];
    let orientation = det4(std::array::from_fn(|r| {
        let p: [i128; 2] = probe[r];
        [p[0], p[1], p[0] * p[0] + p[1] * p[1], 1]
    }))
    .signum();
    let det = orientation
        * lifted(&|r| {
            let p = pts[ids[r] as usize];
            p[0] * p[0] + p[1] * p[1]
        });
    if det != 0 {
        return det > 0;
    }
    // det(z + ε) = det(z) + Σ εᵢ ∂det/∂zᵢ; the lowest id with a non-zero
    // derivative decides.
    let mut order: Vec<usize> = (0..4).collect();
    order.sort_by_key(|&r| ids[r]);
    order
        .into_iter()
        .map(|r| orientation * lifted(&|k| i128::from(k == r)))
        .find(|&dz| dz != 0)
        .is_some_and(|dz| dz > 0)
}

/// Every counter-clockwise triangle whose perturbed circumcircle is empty:
/// the definition of the canonical triangulation, in O(n⁴).
fn brute_force(pts: &[[f64; 2]]) -> Vec<[u32; 3]> {
    let ip: Vec<[i128; 2]> = pts.iter().map(|p| [int(p[0]), int(p[1])]).collect();
    let n = pts.len() as u32;
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let o = exact_orient([ip[i as usize], ip[j as usize], ip[k as usize]]);
                if o == 0 {
                    continue;
                }
                let (a, b, c) = if o > 0 { (i, j, k) } else { (i, k, j) };
                if (0..n)
                    .filter(|&d| d != a && d != b && d != c)
                    .all(|d| !exact_in_circle(&ip, a, b, c, d))
                {
                    // Rotated so the smallest id comes first.
                    out.push([a, b, c]);
                }
            }
        }
    }
    out.sort_unstable();
    out
}

/// Every lattice point on the circle x² + y² = r², plus the centre if asked
/// (r = 5: 12 points, 25: 20, 65: 36 — all exactly co-circular).
fn ring(r: i64, centre: bool) -> Vec<[f64; 2]> {
    let mut pts = Vec::new();
    for x in -r..=r {
        for y in -r..=r {
            if x * x + y * y == r * r {
                pts.push([x as f64, y as f64]);
            }
        }
    }
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

/// Distinct random integer points in [-half, half]²: a small `half` makes
/// many co-circular and collinear ties.
fn random_lattice(n: usize, half: i64, seed: u64) -> Vec<[f64; 2]> {
    let mut rng = Pcg32::new(seed, 11);
    let mut pts: Vec<[f64; 2]> = Vec::new();
    while pts.len() < n {
        let span = (2 * half + 1) as u32;
        let p = [
            (i64::from(rng.bounded(span)) - half) as f64,
            (i64::from(rng.bounded(span)) - half) as f64,
        ];
        if !pts.contains(&p) {
            pts.push(p);
        }
    }
    pts
}

fn check_against_oracle(pts: &[[f64; 2]]) {
    let t = triangulate(pts).unwrap();
    assert_eq!(t.triangles, brute_force(pts), "points {pts:?}");
}

#[test]
fn cocircular_sets_match_the_oracle() {
    check_against_oracle(&ring(5, false));
    check_against_oracle(&ring(5, true));
    check_against_oracle(&ring(25, true));
    check_against_oracle(&ring(65, false));
    check_against_oracle(&grid(4));
    check_against_oracle(&grid(5));
}

#[test]
fn a_square_takes_the_diagonal_away_from_the_lowest_id() {
    // By hand from the definition: lifting site 0 most puts it above the
    // plane of the other three, so the lower hull is the triangle 1 2 3 and
    // the diagonal that avoids site 0.
    let square = [[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]];
    let t = triangulate(&square).unwrap();
    assert_eq!(t.triangles, [[0, 1, 3], [1, 2, 3]]);
    assert!(t.edges.contains(&(1, 3)) && !t.edges.contains(&(0, 2)));
    // The same square with site 0 at another corner: the diagonal follows.
    let turned = [[4.0, 0.0], [4.0, 4.0], [0.0, 4.0], [0.0, 0.0]];
    let t = triangulate(&turned).unwrap();
    assert!(
        t.edges.contains(&(1, 3)) && !t.edges.contains(&(0, 2)),
        "{:?}",
        t.edges
    );
    assert_eq!(brute_force(&turned), t.triangles);
}

#[test]
fn reordered_cocircular_input_still_matches_the_oracle() {
    // Different ids give a different (but again canonical) answer: the
    // oracle is the definition, whatever order delaunator inserts in.
    let mut rng = Pcg32::new(3, 3);
    for _ in 0..20 {
        let mut pts = ring(5, true);
        pts.extend(
            grid(3)
                .iter()
                .map(|p| [p[0] * 20.0 + 30.0, p[1] * 20.0 - 20.0]),
        );
        rng.shuffle(&mut pts);
        check_against_oracle(&pts);
    }
}

#[test]
fn random_sets_match_the_oracle() {
    for seed in 0..40 {
        // General position (wide) and full of ties (narrow).
        check_against_oracle(&random_lattice(5 + seed as usize % 16, 1 << 20, seed));
        check_against_oracle(&random_lattice(5 + seed as usize % 16, 3, seed));
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
    for pts in [random(300, 9), ring(65, true), grid(6)] {
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
