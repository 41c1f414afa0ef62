//! Seams are tested, not assumed: neighbouring 257-sample chunks agree bit
//! for bit on their shared edge in every projection, and where two map
//! samples are one sphere point (cube edges, the octahedral border fold,
//! the date line, the poles) both chunks hold the same bits. Version 3
//! adds the water (`water`, `flow` and carved heights), which reads the
//! coarse tier: its planets use a 64-cell graph to keep the tier cheap.
//! Version 4 adds `precipitation` and `biome_weights` (and reads its
//! temperature, humidity and biomes off the tier's climate); it passes the
//! same checks, and its climate is the same function at every level.

use mangekyo_planet::Version;
use mangekyo_planet::{
    CHUNK_SIZE, Chunk, ChunkAddress, ChunkRequest, CubeFace, Dir, Edge, Layers, Planet,
    PlanetParams, Projection,
};
use std::collections::BTreeMap;

const N: usize = CHUNK_SIZE as usize + 1;

/// One test per version for a check that takes the version (every seam,
/// level-identity and determinism check runs on each released version and
/// on the next one, issue 35): each row names a test and its version.
macro_rules! per_version {
    ($check:ident => $($name:ident: $version:expr),+ $(,)?) => {
        $(
            #[test]
            fn $name() {
                $check($version);
            }
        )+
    };
}

/// The graph of a version-`v` test planet.
fn graph_n(v: Version) -> u32 {
    if v.has_water() {
        64
    } else {
        mangekyo_planet::DEFAULT_GRAPH_N
    }
}

/// A small planet (cube faces of 76 chunks at lod 0, 38 at max lod 1).
fn small(v: Version) -> Planet {
    Planet::new(PlanetParams {
        generator_version: v,
        graph_n: graph_n(v),
        radius: 250_000.0,
        pixel_size: 20.0,
        ..PlanetParams::default()
    })
    .unwrap()
}

/// A tiny planet (3 chunks along a cube face edge) whose edges can be
/// swept completely.
fn tiny(v: Version) -> Planet {
    Planet::new(PlanetParams {
        generator_version: v,
        graph_n: graph_n(v),
        radius: 10_000.0,
        pixel_size: 20.0,
        ..PlanetParams::default()
    })
    .unwrap()
}

fn earth(v: Version) -> Planet {
    Planet::new(PlanetParams {
        generator_version: v,
        graph_n: graph_n(v),
        ..PlanetParams::default()
    })
    .unwrap()
}

/// Samples chunks once each (all layers, shared edges).
struct Chunks<'a> {
    planet: &'a Planet,
    layers: Layers,
    cache: BTreeMap<ChunkAddress, Chunk>,
}

impl<'a> Chunks<'a> {
    fn new(planet: &'a Planet) -> Self {
        Chunks {
            planet,
            layers: planet.version().layers(),
            cache: BTreeMap::new(),
        }
    }

    /// Heights (and from version 3 the water, which carves them).
    fn heights(planet: &'a Planet) -> Self {
        let water = if planet.version().has_water() {
            Layers::WATER
        } else {
            Layers::NONE
        };
        Chunks {
            planet,
            layers: Layers::HEIGHT.union(water),
            cache: BTreeMap::new(),
        }
    }

    fn get(&mut self, address: ChunkAddress) -> &Chunk {
        let (planet, layers) = (self.planet, self.layers);
        self.cache.entry(address).or_insert_with(|| {
            planet
                .sample_chunk(&ChunkRequest {
                    address,
                    edge: Edge::Shared,
                    layers,
                })
                .unwrap()
        })
    }

    /// The bits of every sampled layer at sample (i, j).
    fn bits(&mut self, address: ChunkAddress, i: usize, j: usize) -> Vec<u32> {
        let c = self.get(address);
        let k = j * N + i;
        let floats = [
            &c.height,
            &c.temperature,
            &c.humidity,
            &c.uplift,
            &c.water,
            &c.flow,
            &c.precipitation,
        ];
        let mut out: Vec<u32> = floats
            .iter()
            .filter(|l| !l.is_empty())
            .map(|l| l[k].to_bits())
            .collect();
        out.extend(c.biome.get(k).map(|b| u32::from(b.index())));
        out.extend(c.plate.get(k).map(|&p| u32::from(p)));
        out.extend(
            c.biome_weights
                .get(k)
                .map(|w| u32::from_le_bytes(w.to_bytes())),
        );
        out
    }
}

fn addr(projection: Projection, lod: u32, cx: u64, cy: u64) -> ChunkAddress {
    ChunkAddress {
        projection,
        lod,
        cx: cx as u32,
        cy: cy as u32,
    }
}

/// Right and bottom neighbours inside one sheet share their edge samples.
fn check_neighbours(planet: &Planet, projection: Projection, lod: u32, spots: &[(u64, u64)]) {
    let mut chunks = Chunks::new(planet);
    let (w, h) = planet.space().chunk_grid(projection, lod);
    let per_face = if projection.has_faces() { w / 3 } else { w };
    for &(cx, cy) in spots {
        let a = addr(projection, lod, cx, cy);
        if cx % per_face + 1 < per_face {
            let right = addr(projection, lod, cx + 1, cy);
            for j in 0..N {
                assert_eq!(
                    chunks.bits(a, N - 1, j),
                    chunks.bits(right, 0, j),
                    "{a:?} right edge, row {j}"
                );
            }
        }
        let per_face_rows = if projection.has_faces() { h / 2 } else { h };
        if cy % per_face_rows + 1 < per_face_rows {
            let below = addr(projection, lod, cx, cy + 1);
            for i in 0..N {
                assert_eq!(
                    chunks.bits(a, i, N - 1),
                    chunks.bits(below, i, 0),
                    "{a:?} bottom edge, column {i}"
                );
            }
        }
    }
}

per_version! {
    neighbouring_chunks_share_their_edges_in_every_projection_at =>
    neighbouring_chunks_share_their_edges_in_every_projection: Version::V1,
    neighbouring_chunks_share_their_edges_in_every_projection_v2: Version::V2,
    neighbouring_chunks_share_their_edges_in_every_projection_v3: Version::V3,
    neighbouring_chunks_share_their_edges_in_every_projection_v4: Version::V4,
    neighbouring_chunks_share_their_edges_in_every_projection_next: Version::Next,
}

fn neighbouring_chunks_share_their_edges_in_every_projection_at(v: Version) {
    let (small, earth) = (small(v), earth(v));
    for projection in Projection::ALL {
        for lod in [0, small.space().max_lod()] {
            let (w, h) = small.space().chunk_grid(projection, lod);
            check_neighbours(
                &small,
                projection,
                lod,
                &[(0, 0), (w / 3, h / 2), (w - 2, h - 2), (1, h - 2)],
            );
        }
        let (w, h) = earth.space().chunk_grid(projection, 0);
        check_neighbours(&earth, projection, 0, &[(w / 2, h / 3)]);
        let top = earth.space().max_lod();
        let (w, h) = earth.space().chunk_grid(projection, top);
        check_neighbours(&earth, projection, top, &[(w / 5, h / 2), (w - 2, 0)]);
    }
}

per_version! {
    the_date_line_and_the_poles_are_one_set_of_points_at =>
    the_date_line_and_the_poles_are_one_set_of_points: Version::V1,
    the_date_line_and_the_poles_are_one_set_of_points_v2: Version::V2,
    the_date_line_and_the_poles_are_one_set_of_points_v3: Version::V3,
    the_date_line_and_the_poles_are_one_set_of_points_v4: Version::V4,
    the_date_line_and_the_poles_are_one_set_of_points_next: Version::Next,
}

fn the_date_line_and_the_poles_are_one_set_of_points_at(v: Version) {
    let planet = small(v);
    let mut chunks = Chunks::new(&planet);
    let p = Projection::Equirectangular;
    let lod = 0;
    let (w, h) = planet.space().chunk_grid(p, lod);
    for cy in [0, h / 2, h - 1] {
        for j in 0..N {
            assert_eq!(
                chunks.bits(addr(p, lod, w - 1, cy), N - 1, j),
                chunks.bits(addr(p, lod, 0, cy), 0, j),
                "row {j} of chunk row {cy}"
            );
        }
    }
    let north = chunks.bits(addr(p, lod, 0, 0), 0, 0);
    let south = chunks.bits(addr(p, lod, 0, h - 1), 0, N - 1);
    for cx in [0, 1, w / 2, w - 1] {
        for i in 0..N {
            assert_eq!(
                chunks.bits(addr(p, lod, cx, 0), i, 0),
                north,
                "north pole, chunk {cx} column {i}"
            );
            assert_eq!(
                chunks.bits(addr(p, lod, cx, h - 1), i, N - 1),
                south,
                "south pole, chunk {cx} column {i}"
            );
        }
    }
}

per_version! {
    the_octahedral_border_folds_onto_itself_at =>
    the_octahedral_border_folds_onto_itself: Version::V1,
    the_octahedral_border_folds_onto_itself_v2: Version::V2,
    the_octahedral_border_folds_onto_itself_v3: Version::V3,
    the_octahedral_border_folds_onto_itself_v4: Version::V4,
    the_octahedral_border_folds_onto_itself_next: Version::Next,
}

fn the_octahedral_border_folds_onto_itself_at(v: Version) {
    for (planet, all_layers) in [(small(v), true), (earth(v), false)] {
        let mut chunks = if all_layers {
            Chunks::new(&planet)
        } else {
            Chunks::heights(&planet)
        };
        let p = Projection::Octahedral;
        let lod = planet.space().max_lod();
        let (n, _) = planet.space().chunk_grid(p, lod);
        let cells = n * CHUNK_SIZE as u64;
        // Global sample g on the border and its mirror cells − g, over
        // chunks at both ends and the middle (a set closed under mirroring).
        let at = |g: u64| {
            (
                (g / 256).min(n - 1),
                (g - (g / 256).min(n - 1) * 256) as usize,
            )
        };
        let spans = [0, n / 2, n - 1].map(|c| c * 256..=c * 256 + 256);
        for g in spans.into_iter().flatten() {
            let ((c, k), (mc, mk)) = (at(g), at(cells - g));
            let last = n - 1;
            assert_eq!(
                chunks.bits(addr(p, lod, last, c), N - 1, k),
                chunks.bits(addr(p, lod, last, mc), N - 1, mk),
                "right border {g}"
            );
            assert_eq!(
                chunks.bits(addr(p, lod, 0, c), 0, k),
                chunks.bits(addr(p, lod, 0, mc), 0, mk),
                "left border {g}"
            );
            assert_eq!(
                chunks.bits(addr(p, lod, c, 0), k, 0),
                chunks.bits(addr(p, lod, mc, 0), mk, 0),
                "top border {g}"
            );
            assert_eq!(
                chunks.bits(addr(p, lod, c, last), k, N - 1),
                chunks.bits(addr(p, lod, mc, last), mk, N - 1),
                "bottom border {g}"
            );
        }
        let pole = chunks.bits(addr(p, lod, 0, 0), 0, 0);
        assert_eq!(chunks.bits(addr(p, lod, n - 1, n - 1), N - 1, N - 1), pole);
        assert_eq!(chunks.bits(addr(p, lod, 0, n - 1), 0, N - 1), pole);
    }
}

/// Where direction `d` lies on face `f`'s sample grid at `lod`, if it lies
/// on that face at a whole sample: the chunk (in the atlas) and the sample.
fn on_face(
    planet: &Planet,
    p: Projection,
    lod: u32,
    f: CubeFace,
    d: Dir,
) -> Option<(ChunkAddress, usize, usize)> {
    let [n, r, down] = f.axes();
    let dot = |a: Dir, b: Dir| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let depth = dot(d, n);
    if depth <= 0.0 {
        return None;
    }
    let (a, b) = (dot(d, r) / depth, dot(d, down) / depth);
    if a.abs() > 1.0 + 1e-9 || b.abs() > 1.0 + 1e-9 {
        return None;
    }
    let unwarp = |t: f64| {
        if p == Projection::TangentCube {
            libm::atan(t.clamp(-1.0, 1.0)) / std::f64::consts::FRAC_PI_4
        } else {
            t
        }
    };
    let (cells, _) = planet.space().sheet_cells(p);
    let per = planet.space().chunk_grid(p, lod).0 / 3;
    let index = |s: f64| {
        let x = (s + 1.0) * 0.5 * cells as f64 / f64::from(1u32 << lod);
        let k = x.round();
        ((x - k).abs() < 1e-5).then(|| {
            let g = k as u64;
            let c = (g / 256).min(per - 1);
            (c, (g - c * 256) as usize)
        })
    };
    let ((cx, i), (cy, j)) = (index(unwarp(a))?, index(unwarp(b))?);
    let fi = f.index() as u64;
    Some((addr(p, lod, cx + per * (fi % 3), cy + per * (fi / 3)), i, j))
}

/// Every sample on the face edges of the chosen chunks (indices along an
/// edge), seen from the other face (or two faces at a corner), holds the
/// same bits there.
fn check_cube_edges(planet: &Planet, p: Projection, lod: u32, along: &[u64]) {
    let mut chunks = Chunks::heights(planet);
    let per = planet.space().chunk_grid(p, lod).0 / 3;
    let mut matched = 0;
    for fa in CubeFace::ALL {
        let fi = fa.index() as u64;
        let (ox, oy) = (per * (fi % 3), per * (fi / 3));
        for &c in along.iter().filter(|&&c| c < per) {
            for k in 0..N {
                // The four edges of face A.
                let edges = [
                    (addr(p, lod, ox, oy + c), 0, k),
                    (addr(p, lod, ox + per - 1, oy + c), N - 1, k),
                    (addr(p, lod, ox + c, oy), k, 0),
                    (addr(p, lod, ox + c, oy + per - 1), k, N - 1),
                ];
                for (a, i, j) in edges {
                    let d = planet
                        .space()
                        .sample_direction(&a, i as u32, j as u32)
                        .unwrap();
                    for fb in CubeFace::ALL.into_iter().filter(|&f| f != fa) {
                        if let Some((b, bi, bj)) = on_face(planet, p, lod, fb, d) {
                            let (x, y) = (chunks.bits(a, i, j), chunks.bits(b, bi, bj));
                            assert_eq!(
                                x, y,
                                "{p} lod {lod}: {fa:?} {a:?} ({i}, {j}) vs {fb:?} {b:?} ({bi}, {bj})"
                            );
                            matched += 1;
                        }
                    }
                }
            }
        }
    }
    let chosen = along.iter().filter(|&&c| c < per).count();
    assert!(
        matched >= 6 * 4 * chosen * (N - 1),
        "{p} lod {lod}: only {matched} edge samples matched"
    );
}

per_version! {
    every_cube_edge_joins_bit_for_bit_at =>
    every_cube_edge_joins_bit_for_bit: Version::V1,
    every_cube_edge_joins_bit_for_bit_v2: Version::V2,
    every_cube_edge_joins_bit_for_bit_v3: Version::V3,
    every_cube_edge_joins_bit_for_bit_v4: Version::V4,
    every_cube_edge_joins_bit_for_bit_next: Version::Next,
}

fn every_cube_edge_joins_bit_for_bit_at(v: Version) {
    let planet = tiny(v);
    let all: Vec<u64> = (0..planet.space().quarter_chunks()).collect();
    for p in [Projection::Cube, Projection::TangentCube] {
        check_cube_edges(&planet, p, 0, &all);
    }
}

per_version! {
    cube_edges_join_on_an_earth_sized_planet_at =>
    cube_edges_join_on_an_earth_sized_planet: Version::V1,
    cube_edges_join_on_an_earth_sized_planet_v2: Version::V2,
}

fn cube_edges_join_on_an_earth_sized_planet_at(v: Version) {
    let planet = earth(v);
    for p in [Projection::Cube, Projection::TangentCube] {
        let per = planet.space().chunk_grid(p, 9).0 / 3;
        // Version 2 costs ~1.6× per sample (plates, crust across): its CI
        // run checks both ends of every edge (the corners) and leaves the
        // middle to `every_earth_cube_edge_chunk_v2`'s strided sweep.
        let along: &[u64] = if !v.has_plates() {
            &[0, per / 2, per - 1]
        } else {
            &[0, per - 1]
        };
        check_cube_edges(&planet, p, 9, along);
    }
    // And at full detail, one chunk at each end of every edge.
    let per = planet.space().quarter_chunks();
    check_cube_edges(&planet, Projection::TangentCube, 0, &[0, per - 1]);
}

// Every chunk along every cube edge of the Earth-sized planet at the
// coarsest level is about 1,200 chunks (minutes in a test build): CI
// checks a deterministic strided subset, every 16th chunk and both ends,
// on every edge. The full sweep is a separate command (README, "Slow
// sweeps"): `MANGEKYO_SLOW_TESTS=1 cargo test -p mangekyo-planet --release
// --test seams every_earth_cube_edge_chunk -- --nocapture`.
per_version! {
    every_earth_cube_edge_chunk_at =>
    every_earth_cube_edge_chunk: Version::V1,
    every_earth_cube_edge_chunk_v2: Version::V2,
}

fn every_earth_cube_edge_chunk_at(v: Version) {
    let planet = earth(v);
    let per = planet.space().chunk_grid(Projection::TangentCube, 9).0 / 3;
    let full = std::env::var("MANGEKYO_SLOW_TESTS").as_deref() == Ok("1");
    let stride = if full { 1 } else { 16 };
    let mut along: Vec<u64> = (0..per).step_by(stride).collect();
    if along.last() != Some(&(per - 1)) {
        along.push(per - 1);
    }
    eprintln!(
        "every_earth_cube_edge_chunk: {} of {per} chunks per edge checked ({})",
        along.len(),
        if full {
            "full sweep"
        } else {
            "every 16th; MANGEKYO_SLOW_TESTS=1 checks all"
        }
    );
    check_cube_edges(&planet, Projection::TangentCube, 9, &along);
}

/// A river that crosses a chunk edge is carved the same in both chunks:
/// walk a river's centreline until it passes from one chunk to its right
/// or lower neighbour, and compare the shared edge (heights, water, flow).
#[test]
fn a_river_crosses_a_chunk_edge_without_a_seam() {
    let planet = small(Version::V3);
    let tier = planet.coarse_tier().unwrap();
    let hydro = tier.hydro.as_ref().unwrap();
    let graph = mangekyo_planet::graph::SphereGraph::new(tier.n, planet.params().seed).unwrap();
    let field = hydro.field(
        &graph,
        planet.params().radius,
        planet.version().pipeline().channels,
    );
    let p = Projection::TangentCube;
    let mut crossings = 0;
    let mut chunks = Chunks::new(&planet);
    'segments: for (s, seg) in hydro.segments.iter().enumerate() {
        if f64::from(seg.width) < 1.5 * planet.space().metres_per_sample(0) {
            continue;
        }
        let mut last: Option<ChunkAddress> = None;
        for step in 0..=400 {
            let d: Dir = field.centre(s as u32, f64::from(step) / 400.0);
            let at = mangekyo_planet::LatLon::from_dir(d);
            let a = planet.space().locate(p, 0, at).unwrap().address;
            if let Some(b) = last.filter(|&b| b != a) {
                let (left, right) = if a.cx < b.cx || a.cy < b.cy {
                    (a, b)
                } else {
                    (b, a)
                };
                let mut wet = 0;
                if left.cy == right.cy && left.cx + 1 == right.cx {
                    for j in 0..N {
                        let x = chunks.bits(left, N - 1, j);
                        assert_eq!(x, chunks.bits(right, 0, j), "{left:?} | {right:?} row {j}");
                        wet += usize::from(chunks.get(left).flow[j * N + N - 1] > 0.0);
                    }
                } else if left.cx == right.cx && left.cy + 1 == right.cy {
                    for i in 0..N {
                        let x = chunks.bits(left, i, N - 1);
                        assert_eq!(
                            x,
                            chunks.bits(right, i, 0),
                            "{left:?} / {right:?} column {i}"
                        );
                        wet += usize::from(chunks.get(left).flow[(N - 1) * N + i] > 0.0);
                    }
                } else {
                    last = Some(a);
                    continue;
                }
                assert!(
                    wet >= 2,
                    "the river crossing {left:?}/{right:?} is on the edge ({wet} wet samples)"
                );
                crossings += 1;
                if crossings == 3 {
                    break 'segments;
                }
            }
            last = Some(a);
        }
    }
    assert_eq!(crossings, 3, "three river crossings checked");
}

/// A river wider than two sample spacings shows at every level where it
/// is: the chunk holding the middle of the widest river has flowing water
/// at each such level (coarser levels sample the same function).
#[test]
fn a_river_wider_than_two_samples_appears_at_every_level() {
    let planet = earth(Version::V3);
    let tier = planet.coarse_tier().unwrap();
    let hydro = tier.hydro.as_ref().unwrap();
    let graph = mangekyo_planet::graph::SphereGraph::new(tier.n, planet.params().seed).unwrap();
    let field = hydro.field(
        &graph,
        planet.params().radius,
        planet.version().pipeline().channels,
    );
    let widest = (0..hydro.segments.len())
        .max_by(|&a, &b| hydro.segments[a].width.total_cmp(&hydro.segments[b].width))
        .unwrap();
    let width = f64::from(hydro.segments[widest].width);
    let mid = mangekyo_planet::LatLon::from_dir(field.centre(widest as u32, 0.5));
    let mut levels = 0;
    for lod in 0..=planet.space().max_lod() {
        if width < 2.0 * planet.space().metres_per_sample(lod) {
            continue;
        }
        let address = planet
            .space()
            .locate(Projection::TangentCube, lod, mid)
            .unwrap()
            .address;
        let c = planet
            .sample_chunk(&ChunkRequest {
                address,
                edge: Edge::Shared,
                layers: Layers::WATER,
            })
            .unwrap();
        assert!(
            c.flow.iter().any(|&f| f > 0.0),
            "lod {lod}: the {width} m river is missing"
        );
        levels += 1;
    }
    assert!(levels >= 4, "{levels} levels checked");
}

/// Version 4's climate at coinciding samples of levels 0 and 1: the
/// precipitation and the dither are functions of position alone (bit for
/// bit), and the temperature differs only by the lapse rate over the
/// finer level's extra height detail.
#[test]
fn the_climate_is_one_function_at_every_level() {
    let planet = small(Version::V4);
    let layers = Layers {
        height: true,
        temperature: true,
        precipitation: true,
        ..Layers::NONE
    };
    let get = |lod, cx, cy| {
        let address = addr(Projection::TangentCube, lod, cx, cy);
        let c = planet
            .sample_chunk(&ChunkRequest {
                address,
                edge: Edge::Shared,
                layers,
            })
            .unwrap();
        let dirs = planet.space().chunk_directions(&address, N as u32).unwrap();
        (c, dirs)
    };
    let (coarse, coarse_dirs) = get(1, 5, 9);
    let (fine, fine_dirs) = get(0, 10, 18);
    let mut same = 0;
    for j in 0..=128 {
        for i in 0..=128 {
            let (a, b) = (j * N + i, 2 * j * N + 2 * i);
            if coarse_dirs[a] != fine_dirs[b] {
                continue;
            }
            same += 1;
            assert_eq!(
                coarse.precipitation[a].to_bits(),
                fine.precipitation[b].to_bits(),
                "precipitation at ({i}, {j})"
            );
            let lapse = |h: f32| -0.0065 * f64::from(h.max(0.0));
            let dt = f64::from(fine.temperature[b]) - f64::from(coarse.temperature[a]);
            let dh = lapse(fine.height[b]) - lapse(coarse.height[a]);
            assert!(
                (dt - dh).abs() < 1e-3,
                "temperature at ({i}, {j}): {dt} vs {dh}"
            );
        }
    }
    assert!(same > 10_000, "{same} coinciding samples");
}
