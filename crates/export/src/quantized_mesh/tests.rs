//! The encoder against a decoder written the way CesiumJS reads tiles.

use super::*;

/// A tile decoded the way CesiumJS's `CesiumTerrainProvider` does it.
#[derive(Debug)]
struct Decoded {
    center: [f64; 3],
    min_h: f32,
    max_h: f32,
    sphere_center: [f64; 3],
    sphere_radius: f64,
    horizon: [f64; 3],
    u: Vec<u16>,
    v: Vec<u16>,
    h: Vec<u16>,
    /// Offset of `triangleCount`.
    index_offset: usize,
    triangles: Vec<[u32; 3]>,
    west: Vec<u32>,
    south: Vec<u32>,
    east: Vec<u32>,
    north: Vec<u32>,
    normals: Option<Vec<[u8; 2]>>,
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let b: [u8; N] = self.bytes[self.pos..self.pos + N].try_into().unwrap();
        self.pos += N;
        b
    }
    fn f64(&mut self) -> f64 {
        f64::from_le_bytes(self.take())
    }
    fn vec3(&mut self) -> [f64; 3] {
        [self.f64(), self.f64(), self.f64()]
    }
    fn f32(&mut self) -> f32 {
        f32::from_le_bytes(self.take())
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn index(&mut self, wide: bool) -> u32 {
        if wide {
            self.u32()
        } else {
            u32::from(self.u16())
        }
    }
    fn zigzag(&mut self, count: usize) -> Vec<u16> {
        let mut value = 0i32;
        (0..count)
            .map(|_| {
                let z = i32::from(self.u16());
                value += (z >> 1) ^ -(z & 1);
                u16::try_from(value).unwrap()
            })
            .collect()
    }
    fn edge(&mut self, wide: bool) -> Vec<u32> {
        let count = self.u32();
        (0..count).map(|_| self.index(wide)).collect()
    }
}

fn decode(bytes: &[u8]) -> Decoded {
    let mut r = Reader { bytes, pos: 0 };
    let center = r.vec3();
    let min_h = r.f32();
    let max_h = r.f32();
    let sphere_center = r.vec3();
    let sphere_radius = r.f64();
    let horizon = r.vec3();
    assert_eq!(r.pos, 88);
    let count = r.u32() as usize;
    let u = r.zigzag(count);
    let v = r.zigzag(count);
    let h = r.zigzag(count);
    let wide = count > 65536;
    let size = if wide { 4 } else { 2 };
    while !r.pos.is_multiple_of(size) {
        assert_eq!(r.take::<1>(), [0], "padding is zeros");
    }
    let index_offset = r.pos;
    let triangle_count = r.u32() as usize;
    let mut highest = 0u32;
    let flat: Vec<u32> = (0..3 * triangle_count)
        .map(|_| {
            let code = r.index(wide);
            assert!(code <= highest, "high-water mark: code {code} > {highest}");
            let index = highest - code;
            if code == 0 {
                highest += 1;
            }
            index
        })
        .collect();
    let triangles = flat.chunks(3).map(|t| [t[0], t[1], t[2]]).collect();
    let west = r.edge(wide);
    let south = r.edge(wide);
    let east = r.edge(wide);
    let north = r.edge(wide);
    let mut normals = None;
    while r.pos < bytes.len() {
        let [id] = r.take::<1>();
        let len = r.u32() as usize;
        assert_eq!(id, 1, "only the normals extension is written");
        assert_eq!(len, 2 * count);
        normals = Some((0..count).map(|_| r.take::<2>()).collect());
    }
    assert_eq!(r.pos, bytes.len(), "nothing after the last extension");
    Decoded {
        center,
        min_h,
        max_h,
        sphere_center,
        sphere_radius,
        horizon,
        u,
        v,
        h,
        index_offset,
        triangles,
        west,
        south,
        east,
        north,
        normals,
    }
}

/// CesiumJS's `octDecode`.
fn oct_decode([x, y]: [u8; 2]) -> [f64; 3] {
    let from = |b: u8| f64::from(b) / 255.0 * 2.0 - 1.0;
    let (mut x, mut y) = (from(x), from(y));
    let z = 1.0 - (x.abs() + y.abs());
    if z < 0.0 {
        let sign = |a: f64| if a < 0.0 { -1.0 } else { 1.0 };
        let ox = x;
        x = (1.0 - y.abs()) * sign(ox);
        y = (1.0 - ox.abs()) * sign(y);
    }
    normalize([x, y, z])
}

/// ECEF positions of the decoded vertices, as CesiumJS builds them.
fn positions(d: &Decoded, tile: &QuantizedMeshTile<'_>) -> Vec<[f64; 3]> {
    let e = Ellipsoid::new(tile.radii);
    let lerp = |a: f64, b: f64, t: f64| (1.0 - t) * a + t * b;
    (0..d.u.len())
        .map(|i| {
            let lon = lerp(tile.west, tile.east, f64::from(d.u[i]) / MAX_SHORT);
            let lat = lerp(tile.south, tile.north, f64::from(d.v[i]) / MAX_SHORT);
            let h = lerp(
                f64::from(d.min_h),
                f64::from(d.max_h),
                f64::from(d.h[i]) / MAX_SHORT,
            );
            e.ecef(SinCos::of(lat), SinCos::of(lon), h)
        })
        .collect()
}

/// Mountains and valleys from a few waves, no randomness.
fn heights(n: usize, amplitude: f32) -> Vec<f32> {
    (0..n * n)
        .map(|i| {
            let (r, c) = ((i / n) as f32, (i % n) as f32);
            amplitude * (0.3 * r).sin() * (0.2 * c + 1.0).cos() + 3.0 * c - 2.0 * r
        })
        .collect()
}

fn tile(heights: &[f32], n: usize) -> QuantizedMeshTile<'_> {
    // 0.1 rad square north-east of (0.3, 0.6): well inside a hemisphere.
    QuantizedMeshTile {
        west: 0.3,
        south: 0.6,
        east: 0.4,
        north: 0.7,
        heights,
        n,
        radii: [6_378_137.0, 6_378_137.0, 6_356_752.314_245_179],
        normals: false,
        border: None,
    }
}

/// Grid (row, column) of each decoded vertex, from its u and v.
fn grid_cells(d: &Decoded, n: usize) -> Vec<(usize, usize)> {
    let last = (n - 1) as f64;
    (0..d.u.len())
        .map(|i| {
            let c = (f64::from(d.u[i]) * last / MAX_SHORT).round() as usize;
            let r = n - 1 - (f64::from(d.v[i]) * last / MAX_SHORT).round() as usize;
            (r, c)
        })
        .collect()
}

#[test]
fn vertices_round_trip_within_quantisation() {
    let n = 17;
    let hs = heights(n, 900.0);
    let t = tile(&hs, n);
    let d = decode(&encode(&t).unwrap());
    assert_eq!(d.u.len(), n * n);
    let min = hs.iter().copied().fold(f32::INFINITY, f32::min);
    let max = hs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    assert_eq!((d.min_h, d.max_h), (min, max));
    let step = f64::from(max - min) / MAX_SHORT;
    let cells = grid_cells(&d, n);
    let mut seen = vec![false; n * n];
    for (i, &(r, c)) in cells.iter().enumerate() {
        let g = r * n + c;
        assert!(!seen[g], "grid sample ({r}, {c}) appears twice");
        seen[g] = true;
        let last = (n - 1) as f64;
        assert_eq!(d.u[i], (c as f64 / last * MAX_SHORT).round() as u16);
        assert_eq!(
            d.v[i],
            ((n - 1 - r) as f64 / last * MAX_SHORT).round() as u16
        );
        let h = f64::from(min) + f64::from(d.h[i]) / MAX_SHORT * f64::from(max - min);
        let err = (h - f64::from(hs[g])).abs();
        assert!(err <= step + 1e-6, "height {g}: off by {err} > {step}");
    }
    assert!(seen.iter().all(|&s| s));
    // The corners reach the ends of the 15-bit range.
    assert_eq!(d.u.iter().max(), Some(&32767));
    assert_eq!(d.v.iter().min(), Some(&0));
    assert_eq!(d.h.iter().max(), Some(&32767));
    assert_eq!(d.h.iter().min(), Some(&0));
    assert_eq!(d.triangles.len(), 2 * (n - 1) * (n - 1));
    assert!(d.normals.is_none());
}

#[test]
fn a_flat_tile_quantises_to_zero_heights() {
    let hs = vec![250.0f32; 9];
    let d = decode(&encode(&tile(&hs, 3)).unwrap());
    assert_eq!((d.min_h, d.max_h), (250.0, 250.0));
    assert!(d.h.iter().all(|&h| h == 0));
}

#[test]
fn edge_lists_hold_exactly_the_edge_vertices() {
    let n = 9;
    let hs = heights(n, 300.0);
    let d = decode(&encode(&tile(&hs, n)).unwrap());
    let cells = grid_cells(&d, n);
    let edge = |list: &[u32]| {
        let mut cells: Vec<(usize, usize)> = list.iter().map(|&i| cells[i as usize]).collect();
        cells.sort_unstable();
        cells
    };
    let all = |f: &dyn Fn(usize) -> (usize, usize)| {
        let mut v: Vec<(usize, usize)> = (0..n).map(f).collect();
        v.sort_unstable();
        v
    };
    assert_eq!(edge(&d.west), all(&|r| (r, 0)));
    assert_eq!(edge(&d.east), all(&|r| (r, n - 1)));
    assert_eq!(edge(&d.north), all(&|c| (0, c)));
    assert_eq!(edge(&d.south), all(&|c| (n - 1, c)));
    // And by their quantised coordinates, as CesiumJS sorts them.
    assert!(d.west.iter().all(|&i| d.u[i as usize] == 0));
    assert!(d.east.iter().all(|&i| d.u[i as usize] == 32767));
    assert!(d.south.iter().all(|&i| d.v[i as usize] == 0));
    assert!(d.north.iter().all(|&i| d.v[i as usize] == 32767));
}

fn assert_counter_clockwise(t: &QuantizedMeshTile<'_>) {
    let d = decode(&encode(t).unwrap());
    let p = positions(&d, t);
    let mut covered = 0.0;
    for &[a, b, c] in &d.triangles {
        let (a, b, c) = (p[a as usize], p[b as usize], p[c as usize]);
        let normal = cross(sub(b, a), sub(c, a));
        let area = length(normal);
        // A row on a pole collapses: its triangles have no area and
        // no winding to check.
        if area < 1e-3 {
            continue;
        }
        covered += area;
        let outward = dot(normal, a) / (area * length(a));
        assert!(outward > 0.0, "triangle faces inward ({outward}) on {t:?}");
    }
    assert!(covered > 0.0);
}

#[test]
fn triangles_turn_counter_clockwise_seen_from_outside() {
    let n = 9;
    let hs = heights(n, 1500.0);
    let base = tile(&hs, n);
    assert_counter_clockwise(&base);
    // Every quarter of the globe, a sphere, an oblate and a prolate
    // ellipsoid, and tiles touching both poles and the antimeridian.
    let rects = [
        (-2.5, -1.2, -2.3, -1.0),
        (2.9, -0.1, PI, 0.1),
        (-PI, 1.3, -3.0, FRAC_PI_2),
        (1.0, -FRAC_PI_2, 1.2, -1.4),
        (-0.05, -0.05, 0.05, 0.05),
    ];
    for radii in [[1000.0; 3], base.radii, [3e6, 3e6, 4e6]] {
        for &(west, south, east, north) in &rects {
            assert_counter_clockwise(&QuantizedMeshTile {
                west,
                south,
                east,
                north,
                radii,
                // Heights well under the smallest radius.
                heights: &hs.iter().map(|h| h / 20.0).collect::<Vec<_>>(),
                ..base
            });
        }
    }
}

#[test]
fn bounding_sphere_contains_every_vertex() {
    let n = 33;
    let hs = heights(n, 4000.0);
    for normals in [false, true] {
        let t = QuantizedMeshTile {
            normals,
            ..tile(&hs, n)
        };
        let d = decode(&encode(&t).unwrap());
        assert_eq!(d.center, d.sphere_center);
        for p in positions(&d, &t) {
            let dist = length(sub(p, d.sphere_center));
            assert!(
                dist <= d.sphere_radius * (1.0 + 1e-12),
                "{dist} > {}",
                d.sphere_radius
            );
        }
        // Tight-ish: a 0.1 rad tile on Earth is about 640 km across.
        assert!(d.sphere_radius < 500_000.0, "{}", d.sphere_radius);
    }
}

/// CesiumJS's `EllipsoidalOccluder.isScaledSpacePointVisible` for a
/// camera outside the ellipsoid.
fn visible(camera: [f64; 3], point: [f64; 3]) -> bool {
    let vh_squared = dot(camera, camera) - 1.0;
    let vt = sub(point, camera);
    let vt_dot_vc = -dot(vt, camera);
    let occluded = vt_dot_vc > vh_squared && vt_dot_vc * vt_dot_vc / dot(vt, vt) > vh_squared;
    !occluded
}

#[test]
fn horizon_point_is_hidden_only_where_every_vertex_is() {
    let n = 17;
    let hs = heights(n, 6000.0);
    let mut tiles = vec![tile(&hs, n)];
    // Below-ellipsoid heights (trenches) and a polar tile.
    let deep: Vec<f32> = hs.iter().map(|h| h - 9000.0).collect();
    tiles.push(tile(&deep, n));
    tiles.push(QuantizedMeshTile {
        west: 0.0,
        south: 1.2,
        east: FRAC_PI_2,
        north: FRAC_PI_2,
        ..tile(&hs, n)
    });
    for t in &tiles {
        let d = decode(&encode(t).unwrap());
        let e = Ellipsoid::new(t.radii);
        let horizon_magnitude = length(d.horizon);
        assert!(horizon_magnitude > 1.0 && horizon_magnitude < 2.0);
        let horizon_angle = libm::acos(1.0 / horizon_magnitude);
        let axis = normalize(d.horizon);
        let scaled: Vec<[f64; 3]> = positions(&d, t).into_iter().map(|p| e.scaled(p)).collect();
        // Analytically: each vertex's angle from the axis plus its own
        // horizon angle stays within the point's horizon angle.
        for &s in &scaled {
            let m = length(s).max(1.0);
            let alpha = libm::acos(dot(normalize(s), axis).clamp(-1.0, 1.0));
            let beta = libm::acos(1.0 / m);
            assert!(
                alpha + beta <= horizon_angle + 1e-9,
                "{alpha} + {beta} > {horizon_angle}"
            );
        }
        // By Cesium's own test, from cameras all around: wherever the
        // point is hidden, so is every vertex (vertices under the
        // surface are checked where they would be on it).
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let mut hidden = 0;
        for _ in 0..4000 {
            let dir = normalize([next(), next(), next()]);
            let camera = dir.map(|x| x * (1.0005 + 2.0 * (next() + 1.0)));
            if visible(camera, d.horizon) {
                continue;
            }
            hidden += 1;
            for &s in &scaled {
                let on_surface = if length(s) < 1.0 { normalize(s) } else { s };
                assert!(
                    !visible(camera, on_surface),
                    "vertex visible from {camera:?}"
                );
            }
        }
        assert!(hidden > 100, "the point should be hidden from the far side");
    }
}

#[test]
fn a_hemisphere_tile_gets_a_far_horizon_point() {
    // Level 0 of the geographic scheme: the eastern hemisphere.
    let n = 5;
    let hs = heights(n, 100.0);
    let t = QuantizedMeshTile {
        west: 0.0,
        south: -FRAC_PI_2,
        east: PI,
        north: FRAC_PI_2,
        ..tile(&hs, n)
    };
    let d = decode(&encode(&t).unwrap());
    assert!(d.horizon.iter().all(|x| x.is_finite()));
    assert!((length(d.horizon) - FAR_OCCLUSION_MAGNITUDE).abs() < 1.0);
    // Pointing into the hemisphere (towards +y, longitude 90°).
    assert!(normalize(d.horizon)[1] > 0.99);
}

#[test]
fn normals_point_up_and_lean_away_from_slopes() {
    let n = 9;
    // Flat: every normal is the geodetic one (within oct precision).
    let flat = vec![100.0f32; n * n];
    let t = QuantizedMeshTile {
        normals: true,
        ..tile(&flat, n)
    };
    let d = decode(&encode(&t).unwrap());
    let normals = d.normals.as_ref().unwrap();
    let cells = grid_cells(&d, n);
    let last = (n - 1) as f64;
    let geodetic = |(r, c): (usize, usize)| {
        let lon = t.west + (t.east - t.west) * c as f64 / last;
        let lat = t.north - (t.north - t.south) * r as f64 / last;
        Ellipsoid::geodetic_normal(SinCos::of(lat), SinCos::of(lon))
    };
    for (i, &cell) in cells.iter().enumerate() {
        let got = oct_decode(normals[i]);
        assert!(dot(got, geodetic(cell)) > 0.9995, "{cell:?}: {got:?}");
    }
    // Rising eastwards: normals lean west (against the east tangent).
    let ramp: Vec<f32> = (0..n * n).map(|i| 20_000.0 * (i % n) as f32).collect();
    let t = QuantizedMeshTile {
        normals: true,
        ..tile(&ramp, n)
    };
    let d = decode(&encode(&t).unwrap());
    for (i, &(r, c)) in grid_cells(&d, n).iter().enumerate() {
        let got = oct_decode(d.normals.as_ref().unwrap()[i]);
        let lon = t.west + (t.east - t.west) * c as f64 / last;
        let east = [-libm::sin(lon), libm::cos(lon), 0.0];
        assert!(dot(got, geodetic((r, c))) > 0.5);
        assert!(dot(got, east) < -0.1, "({r}, {c}): {got:?}");
    }
}

#[test]
fn a_polar_row_gets_the_geodetic_normal() {
    let n = 5;
    let hs = heights(n, 50.0);
    let t = QuantizedMeshTile {
        west: 0.0,
        south: 1.4,
        east: 0.5,
        north: FRAC_PI_2,
        normals: true,
        ..tile(&hs, n)
    };
    let d = decode(&encode(&t).unwrap());
    for (i, &(r, _)) in grid_cells(&d, n).iter().enumerate() {
        let got = oct_decode(d.normals.as_ref().unwrap()[i]);
        assert!(got.iter().all(|x| x.is_finite()));
        if r == 0 {
            assert!(got[2] > 0.999, "{got:?}");
        }
    }
}

/// A smooth height function of longitude and latitude (radians), steep
/// at the test tiles' coarse spacing (about 40 km), and the `(n + 2)²`
/// bordered grid of it around a tile whose step is `(east − west) /
/// (n − 1)` both ways (as geographic tiles have).
fn relief(lon: f64, lat: f64) -> f32 {
    (60_000.0 * libm::sin(40.0 * lon) * libm::cos(55.0 * lat) + 20_000.0 * libm::sin(130.0 * lat))
        as f32
}

fn bordered(west: f64, north: f64, step: f64, n: usize) -> Vec<f32> {
    let m = n + 2;
    (0..m * m)
        .map(|i| {
            let (r, c) = ((i / m) as f64 - 1.0, (i % m) as f64 - 1.0);
            relief(west + step * c, north - step * r)
        })
        .collect()
}

fn inside(border: &[f32], n: usize) -> Vec<f32> {
    let m = n + 2;
    (0..n * n)
        .map(|i| border[(i / n + 1) * m + i % n + 1])
        .collect()
}

#[test]
fn a_border_leaves_the_inside_normals_and_the_mesh_as_they_were() {
    let n = 17;
    let step = 0.1 / (n - 1) as f64;
    let border = bordered(0.3, 0.7, step, n);
    let hs = inside(&border, n);
    let one_sided = QuantizedMeshTile {
        normals: true,
        ..tile(&hs, n)
    };
    let with = encode(&QuantizedMeshTile {
        border: Some(&border),
        ..one_sided
    })
    .unwrap();
    let without = encode(&one_sided).unwrap();
    assert_eq!(with.len(), without.len());
    let (a, b) = (decode(&with), decode(&without));
    let (na, nb) = (a.normals.clone().unwrap(), b.normals.clone().unwrap());
    let mut edge_changed = 0;
    for (i, &(r, c)) in grid_cells(&b, n).iter().enumerate() {
        let edge = r == 0 || c == 0 || r == n - 1 || c == n - 1;
        if edge {
            edge_changed += usize::from(na[i] != nb[i]);
        } else {
            assert_eq!(na[i], nb[i], "inside ({r}, {c})");
        }
    }
    assert!(
        edge_changed > n,
        "the border moves the edge normals ({edge_changed})"
    );
    let extension = 5 + 2 * n * n;
    assert_eq!(
        with[..with.len() - extension],
        without[..without.len() - extension]
    );
}

/// The largest angle in degrees between the two tiles' decoded normals at
/// their shared vertices, `a`'s east edge against `b`'s west edge.
fn east_west_seam(a: &QuantizedMeshTile<'_>, b: &QuantizedMeshTile<'_>) -> f64 {
    let n = a.n;
    let normal_at = |t: &QuantizedMeshTile<'_>, column: usize| {
        let d = decode(&encode(t).unwrap());
        let mut out = vec![[0.0; 3]; n];
        for (i, &(r, c)) in grid_cells(&d, n).iter().enumerate() {
            if c == column {
                out[r] = oct_decode(d.normals.as_ref().unwrap()[i]);
            }
        }
        out
    };
    let (ea, wb) = (normal_at(a, n - 1), normal_at(b, 0));
    ea.iter()
        .zip(&wb)
        .map(|(&p, &q)| libm::acos(dot(p, q).min(1.0)).to_degrees())
        .fold(0.0, f64::max)
}

#[test]
fn bordered_neighbours_agree_at_their_shared_edge() {
    let n = 17;
    let step = 0.1 / (n - 1) as f64;
    let (wa, wb) = (0.3, 0.4);
    let (ba, bb) = (bordered(wa, 0.7, step, n), bordered(wb, 0.7, step, n));
    let (ha, hb) = (inside(&ba, n), inside(&bb, n));
    let a = QuantizedMeshTile {
        normals: true,
        ..tile(&ha, n)
    };
    let b = QuantizedMeshTile {
        west: wb,
        east: wb + 0.1,
        ..QuantizedMeshTile {
            normals: true,
            ..tile(&hb, n)
        }
    };
    let one_sided = east_west_seam(&a, &b);
    let with = east_west_seam(
        &QuantizedMeshTile {
            border: Some(&ba),
            ..a
        },
        &QuantizedMeshTile {
            border: Some(&bb),
            ..b
        },
    );
    assert!(one_sided > 2.0, "one-sided edges disagree: {one_sided}°");
    assert!(with < 0.5, "bordered edges agree: {with}°");
}

#[test]
fn oct_encoding_matches_cesium_on_the_axes() {
    assert_eq!(oct_encode([0.0, 0.0, 1.0]), [128, 128]);
    assert_eq!(oct_encode([1.0, 0.0, 0.0]), [255, 128]);
    assert_eq!(oct_encode([0.0, -1.0, 0.0]), [128, 0]);
    assert_eq!(oct_encode([0.0, 0.0, -1.0]), [255, 255]);
    for v in [[0.3, -0.5, -0.8], [-0.9, 0.1, 0.2], [0.0, 0.6, -0.8]] {
        let v = normalize(v);
        assert!(dot(oct_decode(oct_encode(v)), v) > 0.9995);
    }
}

#[test]
fn errors_name_the_bad_input() {
    let hs = heights(4, 10.0);
    let base = tile(&hs, 4);
    let err = |t: QuantizedMeshTile<'_>| encode(&t).unwrap_err();
    assert_eq!(
        err(QuantizedMeshTile {
            n: 1,
            heights: &hs[..1],
            ..base
        }),
        QuantizedMeshError::TooFewSamples { n: 1 }
    );
    let e = err(QuantizedMeshTile { n: 5, ..base });
    assert_eq!(
        e,
        QuantizedMeshError::HeightsLength {
            got: 16,
            expected: 25,
            n: 5
        }
    );
    assert!(e.to_string().contains("16") && e.to_string().contains("25"));
    let mut nan = hs.clone();
    nan[6] = f32::NAN;
    let e = err(QuantizedMeshTile {
        heights: &nan,
        ..base
    });
    assert!(matches!(
        e,
        QuantizedMeshError::NonFiniteHeight {
            index: 6,
            row: 1,
            column: 2,
            ..
        }
    ));
    assert!(e.to_string().contains("index 6"), "{e}");
    let mut inf = hs.clone();
    inf[15] = f32::NEG_INFINITY;
    assert!(matches!(
        err(QuantizedMeshTile {
            heights: &inf,
            ..base
        }),
        QuantizedMeshError::NonFiniteHeight { index: 15, .. }
    ));
    for (west, south, east, north, why) in [
        (0.4, 0.6, 0.3, 0.7, "west must be less than east"),
        (0.3, 0.7, 0.4, 0.7, "south must be less than north"),
        (f64::NAN, 0.6, 0.4, 0.7, "not finite"),
        (0.3, 0.6, 0.4, 1.7, "±π/2"),
        (-3.2, 0.6, 0.4, 0.7, "±π"),
    ] {
        let e = err(QuantizedMeshTile {
            west,
            south,
            east,
            north,
            ..base
        });
        assert!(
            matches!(e, QuantizedMeshError::BadBounds { .. }) && e.to_string().contains(why),
            "{e}"
        );
    }
    assert!(matches!(
        err(QuantizedMeshTile {
            radii: [1.0, 0.0, 1.0],
            ..base
        }),
        QuantizedMeshError::BadRadii { .. }
    ));
    assert_eq!(
        err(QuantizedMeshTile { n: 40_000, ..base }),
        QuantizedMeshError::TooManySamples { n: 40_000 }
    );
    assert_eq!(
        err(QuantizedMeshTile {
            border: Some(&hs),
            ..base
        }),
        QuantizedMeshError::BorderLength {
            got: 16,
            expected: 36,
            n: 4
        }
    );
    let mut border = vec![0.0f32; 36];
    for (i, &h) in hs.iter().enumerate() {
        border[(i / 4 + 1) * 6 + i % 4 + 1] = h;
    }
    assert!(
        encode(&QuantizedMeshTile {
            border: Some(&border),
            ..base
        })
        .is_ok()
    );
    border[7] += 1.0;
    let e = err(QuantizedMeshTile {
        border: Some(&border),
        ..base
    });
    assert!(
        matches!(
            e,
            QuantizedMeshError::BadBorder {
                row: 1,
                column: 1,
                ..
            }
        ),
        "{e}"
    );
    border[7] -= 1.0;
    border[35] = f32::NAN;
    let e = err(QuantizedMeshTile {
        border: Some(&border),
        ..base
    });
    assert!(e.to_string().contains("not finite"), "{e}");
}

#[test]
fn more_than_65536_vertices_use_aligned_u32_indices() {
    let n = 257;
    let hs = heights(n, 2000.0);
    let t = QuantizedMeshTile {
        normals: true,
        ..tile(&hs, n)
    };
    let bytes = encode(&t).unwrap();
    let d = decode(&bytes);
    assert_eq!(d.u.len(), 66049);
    // 88 + 4 + 6 · 66049 = 396386: two bytes of padding before the indices.
    assert_eq!(d.index_offset, 396_388);
    assert_eq!(bytes[396_386..396_388], [0, 0]);
    assert_eq!(d.triangles.len(), 2 * 256 * 256);
    assert!(d.triangles.iter().flatten().all(|&i| (i as usize) < 66049));
    assert!(d.triangles.iter().flatten().any(|&i| i > 65535));
    assert_eq!(d.west.len(), n);
    assert!(d.west.iter().all(|&i| d.u[i as usize] == 0));
    assert_eq!(d.normals.unwrap().len(), 66049);
    let expected =
        88 + 4 + 6 * 66049 + 2 + 4 + 4 * 3 * 2 * 256 * 256 + 4 * (4 + 4 * n) + 5 + 2 * 66049;
    assert_eq!(bytes.len(), expected);
    assert_counter_clockwise(&t);
}

#[test]
fn sizes_of_a_server_tile() {
    let n = 65;
    let hs = heights(n, 3000.0);
    let plain = encode(&tile(&hs, n)).unwrap();
    // 88 header + 4 + 6·4225 vertices + 4 + 6·8192 indices + 4·(4 + 2·65) edges.
    assert_eq!(
        plain.len(),
        88 + 4 + 6 * 4225 + 4 + 6 * 8192 + 4 * (4 + 2 * 65)
    );
    let with = encode(&QuantizedMeshTile {
        normals: true,
        ..tile(&hs, n)
    })
    .unwrap();
    assert_eq!(with.len(), plain.len() + 5 + 2 * 4225);
    assert_eq!(with[..plain.len()], plain[..], "normals only append");
}

/// FNV-1a, 64-bit: enough to notice any change in the bytes.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn golden_bytes() {
    // Fixed inputs (no trigonometry in the heights) so only the encoder
    // can move the hash.
    let n = 5;
    let hs: Vec<f32> = (0..n * n)
        .map(|i| (i * 37 % 11) as f32 * 12.5 - 30.0)
        .collect();
    let t = QuantizedMeshTile {
        west: -0.5,
        south: 0.25,
        east: -0.25,
        north: 0.5,
        heights: &hs,
        n,
        radii: [1_000_000.0; 3],
        normals: false,
        border: None,
    };
    let plain = encode(&t).unwrap();
    let with = encode(&QuantizedMeshTile { normals: true, ..t }).unwrap();
    assert_eq!((plain.len(), with.len()), (494, 549));
    // A deliberate format change updates these; an accidental one fails.
    assert_eq!(
        (fnv1a64(&plain), fnv1a64(&with)),
        (0x091f_dc75_f346_6812, 0x7372_dc65_f9eb_9b5a)
    );
}
