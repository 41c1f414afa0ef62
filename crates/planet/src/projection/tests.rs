//! Round trips over millions of random directions, the special lines
//! (cube edges and corners, the octahedral fold, poles and date line),
//! and bit equality where two map points are one sphere point.

use super::*;
use crate::geo::{angle_between, normalise};
use mangekyo_core::Pcg32;

const TOLERANCE: f64 = 1e-12;

/// Uniform random directions (rejection from the cube).
fn random_dirs(n: usize, seed: u64) -> Vec<Dir> {
    let mut rng = Pcg32::new(seed, 3);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let p = [0, 1, 2].map(|_| rng.next_f64() * 2.0 - 1.0);
        let r2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
        if r2 > 1e-6 && r2 <= 1.0 {
            out.push(normalise(p));
        }
    }
    out
}

fn assert_round_trip(proj: Projection, d: Dir) {
    let m = proj.forward(d);
    let back = proj
        .inverse(m)
        .unwrap_or_else(|e| panic!("{proj}: {d:?} → {m:?}: {e}"));
    let err = angle_between(d, back);
    assert!(
        err <= TOLERANCE,
        "{proj}: {d:?} → {m:?} → {back:?}, error {err:e} rad"
    );
}

#[test]
fn a_million_random_directions_round_trip_in_every_projection() {
    let dirs = random_dirs(1_000_000, 1);
    for proj in Projection::ALL {
        for &d in &dirs {
            assert_round_trip(proj, d);
        }
    }
}

/// Directions on the special lines: cube edges and corners, the
/// equator (octahedral diamond), the octahedral border meridians (x = 0
/// or y = 0 in the south), poles and the date line.
fn special_dirs() -> Vec<Dir> {
    let mut rng = Pcg32::new(5, 5);
    let mut out = Vec::new();
    for _ in 0..20_000 {
        let t = rng.next_f64() * 2.0 - 1.0;
        let s = if rng.chance(0.5) { 1.0 } else { -1.0 };
        let s2 = if rng.chance(0.5) { 1.0 } else { -1.0 };
        // Cube edges: two components of equal magnitude, the third smaller.
        out.push(normalise([s, s2, t]));
        out.push(normalise([t, s, s2]));
        out.push(normalise([s2, t, s]));
        // Equator and the southern fold meridians.
        let a = rng.next_f64() * std::f64::consts::TAU;
        out.push(normalise([libm::cos(a), libm::sin(a), 0.0]));
        out.push(normalise([0.0, t, -(1.0 - t.abs()) - 1e-3]));
        out.push(normalise([t, 0.0, -(1.0 - t.abs()) - 1e-3]));
        // The date line.
        out.push(normalise([-1.0, 0.0, t]));
    }
    for corner in 0..8 {
        let c = [corner & 1, (corner >> 1) & 1, (corner >> 2) & 1]
            .map(|b| if b == 1 { 1.0 } else { -1.0 });
        out.push(normalise(c));
    }
    out.extend([
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, -1.0, 0.0],
    ]);
    out
}

#[test]
fn special_lines_round_trip() {
    for proj in Projection::ALL {
        for d in special_dirs() {
            assert_round_trip(proj, d);
        }
    }
}

#[test]
fn random_map_points_round_trip_through_the_sphere() {
    let mut rng = Pcg32::new(8, 8);
    for proj in Projection::ALL {
        for _ in 0..200_000 {
            let face = proj
                .has_faces()
                .then(|| CubeFace::ALL[rng.bounded(6) as usize]);
            let m = MapPoint {
                face,
                u: rng.next_f64() * 2.0 - 1.0,
                v: rng.next_f64() * 2.0 - 1.0,
            };
            let d = proj.inverse(m).unwrap();
            let n = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            assert!((n - 1.0).abs() < 1e-15, "{proj}: |d| = {n}");
            let again = proj.inverse(proj.forward(d)).unwrap();
            assert!(angle_between(d, again) <= TOLERANCE, "{proj}: {m:?}");
        }
    }
}

fn bits(d: Dir) -> [u64; 3] {
    d.map(f64::to_bits)
}

/// Sample indices on a grid of `e` cells: where two faces or two border
/// points meet, the inverse gives identical bits.
#[test]
fn cube_edges_give_identical_bits_from_both_faces() {
    let e = 1000;
    for proj in [Projection::Cube, Projection::TangentCube] {
        let mut shared = 0;
        for fa in CubeFace::ALL {
            for k in 0..=e {
                // The four edges of face A, as (u, v) sample indices.
                for (i, j) in [(0, k), (e, k), (k, 0), (k, e)] {
                    let a = MapPoint {
                        face: Some(fa),
                        u: grid_coord(i, e),
                        v: grid_coord(j, e),
                    };
                    let da = proj.inverse(a).unwrap();
                    for fb in CubeFace::ALL.into_iter().filter(|&f| f != fa) {
                        if let Some((bi, bj)) = on_face_grid(fb, da, e, proj) {
                            let b = MapPoint {
                                face: Some(fb),
                                u: grid_coord(bi, e),
                                v: grid_coord(bj, e),
                            };
                            assert_eq!(
                                bits(da),
                                bits(proj.inverse(b).unwrap()),
                                "{proj} {fa:?} {a:?} vs {fb:?} {b:?}"
                            );
                            shared += 1;
                        }
                    }
                }
            }
        }
        // 12 edges × 1001 samples seen from both sides, corners from three faces.
        assert!(
            shared >= 12 * 2 * (e as usize - 1),
            "{proj}: only {shared} shared samples"
        );
    }
}

/// The sample indices of `d` on face `f`'s grid, if it lies on that face
/// (within the face square) at a whole sample.
fn on_face_grid(f: CubeFace, d: Dir, e: i64, proj: Projection) -> Option<(i64, i64)> {
    if f.depth(d) <= 0.0 {
        return None;
    }
    let (a, b) = f.plane_coords(d);
    if a.abs() > 1.0 + 1e-9 || b.abs() > 1.0 + 1e-9 {
        return None;
    }
    let (a, b) = (a.clamp(-1.0, 1.0), b.clamp(-1.0, 1.0));
    let (a, b) = if proj == Projection::TangentCube {
        (cube::unwarp(a), cube::unwarp(b))
    } else {
        (a, b)
    };
    let to_index = |s: f64| {
        let x = (s + 1.0) * 0.5 * e as f64;
        let r = x.round();
        ((x - r).abs() < 1e-6).then_some(r as i64)
    };
    Some((to_index(a)?, to_index(b)?))
}

#[test]
fn octahedral_border_and_corners_give_identical_bits() {
    let e = 1000;
    let p = Projection::Octahedral;
    let at = |i: i64, j: i64| {
        bits(
            p.inverse(MapPoint {
                face: None,
                u: grid_coord(i, e),
                v: grid_coord(j, e),
            })
            .unwrap(),
        )
    };
    for k in 0..=e {
        assert_eq!(at(0, k), at(0, e - k), "left border, row {k}");
        assert_eq!(at(e, k), at(e, e - k), "right border, row {k}");
        assert_eq!(at(k, 0), at(e - k, 0), "top border, column {k}");
        assert_eq!(at(k, e), at(e - k, e), "bottom border, column {k}");
    }
    let pole = bits([0.0, 0.0, -1.0]);
    for (i, j) in [(0, 0), (0, e), (e, 0), (e, e)] {
        assert_eq!(at(i, j), pole);
    }
}

#[test]
fn equirectangular_date_line_and_poles_give_identical_bits() {
    let (w, h) = (2000, 1000);
    let p = Projection::Equirectangular;
    let at = |i: i64, j: i64| {
        bits(
            p.inverse(MapPoint {
                face: None,
                u: grid_coord(i, w),
                v: grid_coord(j, h),
            })
            .unwrap(),
        )
    };
    for j in 0..=h {
        assert_eq!(at(0, j), at(w, j), "row {j}");
    }
    for i in 0..=w {
        assert_eq!(at(i, 0), bits([0.0, 0.0, 1.0]));
        assert_eq!(at(i, h), bits([0.0, 0.0, -1.0]));
    }
}

#[test]
fn tangent_warp_is_exactly_odd_and_exact_at_the_edges() {
    let e = 4096;
    for k in 0..=e {
        let s = grid_coord(k, e);
        assert_eq!(cube::warp(-s).to_bits(), (-cube::warp(s)).to_bits());
    }
    assert_eq!(cube::warp(1.0), 1.0);
    assert_eq!(cube::warp(-1.0), -1.0);
}

#[test]
fn bad_map_points_are_refused_with_their_name() {
    let p = Projection::TangentCube;
    let e = p
        .inverse(MapPoint {
            face: None,
            u: 0.0,
            v: 0.0,
        })
        .unwrap_err();
    assert!(e.to_string().contains("face"), "{e}");
    let e = p
        .inverse(MapPoint {
            face: Some(CubeFace::PosX),
            u: 1.5,
            v: 0.0,
        })
        .unwrap_err();
    assert!(e.to_string().contains('u'), "{e}");
    let e = Projection::Octahedral
        .inverse(MapPoint {
            face: None,
            u: 0.0,
            v: f64::NAN,
        })
        .unwrap_err();
    assert!(e.to_string().contains('v'), "{e}");
    let e = "mercator".parse::<Projection>().unwrap_err();
    assert!(
        e.to_string().contains("mercator") && e.to_string().contains("octahedral"),
        "{e}"
    );
}
