//! Chunks are seamless: samples equal point queries whatever the box,
//! parallel sampling equals sequential, and meshing neighbours apart or
//! together gives the same triangles along their border.

mod common;

use common::{field, world_triangles};
use mangekyo_caves::mesh::{blocky, smooth};
use mangekyo_caves::{
    CaveField, CaveMode, CaveParams, ChunkCoord, Density, Sampler, Seed, VoxelBox, sample_chunks,
};
use mangekyo_core::Pcg32;

#[test]
fn chunk_samples_equal_point_queries() {
    for (mode, coord) in [
        (CaveMode::Tubes, ChunkCoord::new(0, 0, 0)),
        (CaveMode::Tubes, ChunkCoord::new(-3, 1, 5)),
        (CaveMode::Sheets, ChunkCoord::new(2, 0, -1)),
    ] {
        let f = field(mode, 42);
        let s = Sampler::new().chunk(&f, coord);
        assert!(
            matches!(s.density, Density::Grid(_)),
            "{coord:?} should hold caves"
        );
        let b = s.bounds;
        for k in 0..b.size[2] {
            for j in 0..b.size[1] {
                for i in 0..b.size[0] {
                    let v = [
                        b.min[0] + i as i64,
                        b.min[1] + j as i64,
                        b.min[2] + k as i64,
                    ];
                    let want = f.density(v[0], v[1], v[2]);
                    assert_eq!(
                        s.get(i, j, k).to_bits(),
                        want.to_bits(),
                        "{mode:?} voxel {v:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn odd_boxes_and_other_lattice_spacings_equal_point_queries() {
    // Small boxes anywhere (negative, off the lattice, straddling the
    // rows that need worms), for the default lattice (4) and the finer
    // ones the spacing rule picks for faster worms (2, and 1: per voxel).
    let mut rng = Pcg32::new(11, 3);
    for (worm_frequency, spacing) in [(0.025, 4), (0.04, 2), (0.3, 1)] {
        for mode in [CaveMode::Tubes, CaveMode::Sheets] {
            let params = CaveParams {
                mode,
                worm_frequency,
                ..CaveParams::default()
            };
            let f = CaveField::new(&params, Seed::new(5)).unwrap();
            assert_eq!(f.lattice_spacing(), spacing);
            let mut sampler = Sampler::new();
            for _ in 0..40 {
                let b = VoxelBox {
                    min: [
                        rng.next_int(-300, 300),
                        rng.next_int(-6, 46),
                        rng.next_int(-300, 300),
                    ],
                    size: [1, 2, 3].map(|_| rng.next_int(1, 8) as usize),
                };
                let s = sampler.sample(&f, b);
                for k in 0..b.size[2] {
                    for j in 0..b.size[1] {
                        for i in 0..b.size[0] {
                            let v = [0, 1, 2].map(|a| b.min[a] + [i, j, k][a] as i64);
                            assert_eq!(
                                s.get(i, j, k).to_bits(),
                                f.density(v[0], v[1], v[2]).to_bits(),
                                "{mode:?} spacing {spacing} box {b:?} voxel {v:?}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn uniform_chunks_are_what_the_formula_says() {
    let f = field(CaveMode::Tubes, 42);
    for (coord, want) in [
        (ChunkCoord::new(0, 3, 0), -4.0f32),
        (ChunkCoord::new(7, -2, 1), 4.0),
    ] {
        let s = Sampler::new().chunk(&f, coord);
        assert_eq!(s.density, Density::Uniform(want), "{coord:?}");
        let o = coord.origin();
        for v in [[0, 0, 0], [31, 31, 31], [5, 17, 30]] {
            assert_eq!(f.density(o[0] + v[0], o[1] + v[1], o[2] + v[2]), want);
        }
    }
}

#[test]
fn parallel_shuffled_sampling_equals_sequential() {
    let f = field(CaveMode::Tubes, 9);
    let mut coords: Vec<ChunkCoord> = (-2..2)
        .flat_map(|x| (-1..2).flat_map(move |y| (-1..2).map(move |z| ChunkCoord::new(x, y, z))))
        .collect();
    Pcg32::new(5, 7).shuffle(&mut coords);
    let parallel = sample_chunks(&f, &coords);
    let mut sampler = Sampler::new();
    for (c, p) in coords.iter().zip(&parallel) {
        let seq = sampler.chunk(&f, *c);
        assert_eq!(seq.bounds, p.bounds);
        let bits = |s: &mangekyo_caves::Samples| {
            s.to_vec().iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        };
        assert_eq!(bits(&seq), bits(p), "chunk {c:?}");
    }
}

/// The padded box covering chunks `a` and `a + axis`.
fn pair_box(a: ChunkCoord, axis: usize) -> VoxelBox {
    let mut b = a.padded_box();
    b.size[axis] += 32;
    b
}

fn neighbour(a: ChunkCoord, axis: usize) -> ChunkCoord {
    let mut c = [a.x, a.y, a.z];
    c[axis] += 1;
    ChunkCoord::new(c[0], c[1], c[2])
}

#[test]
fn smooth_meshes_of_neighbours_meet_without_cracks() {
    for mode in [CaveMode::Tubes, CaveMode::Sheets] {
        let f = field(mode, 42);
        for axis in 0..3 {
            let a = ChunkCoord::new(1, 0, -2);
            let b = neighbour(a, axis);
            let mut s = Sampler::new();
            let apart = [smooth(&f, &s.chunk(&f, a)), smooth(&f, &s.chunk(&f, b))];
            let together = smooth(&f, &s.sample(&f, pair_box(a, axis)));
            let mut joined = world_triangles(&apart[0]);
            joined.extend(world_triangles(&apart[1]));
            joined.sort();
            let whole = world_triangles(&together);
            assert!(
                whole.len() > 1000,
                "{mode:?} axis {axis}: only {} triangles",
                whole.len()
            );
            assert_eq!(joined, whole, "{mode:?} axis {axis}");
            // The border really is crossed: some triangles of each chunk
            // touch the shared plane.
            let plane = b.origin()[axis] as f64 - 0.5;
            let touches = |m: &mangekyo_caves::Mesh| {
                (0..m.vertex_count()).any(|v| (m.world_position(v)[axis] - plane).abs() < 1.0)
            };
            assert!(
                touches(&apart[0]) && touches(&apart[1]),
                "{mode:?} axis {axis}: border not crossed"
            );
        }
    }
}

/// Every unit face a blocky mesh covers: (axis, facing +, the three
/// doubled world coordinates of the face centre).
fn unit_faces(m: &mangekyo_caves::Mesh) -> Vec<(usize, bool, [i64; 3])> {
    let mut out = Vec::new();
    for quad in m.indices.chunks_exact(6) {
        let (p0, p2) = (
            m.world_position(quad[0] as usize),
            m.world_position(quad[2] as usize),
        );
        let n = m.normals[quad[0] as usize];
        let axis = (0..3).find(|&a| n[a] != 0.0).unwrap();
        let lo: [f64; 3] = std::array::from_fn(|a| p0[a].min(p2[a]));
        let hi: [f64; 3] = std::array::from_fn(|a| p0[a].max(p2[a]));
        let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
        let mut ub = lo[b];
        while ub < hi[b] {
            let mut uc = lo[c];
            while uc < hi[c] {
                let mut centre = [0i64; 3];
                centre[axis] = (lo[axis] * 2.0) as i64;
                centre[b] = (ub * 2.0) as i64 + 1;
                centre[c] = (uc * 2.0) as i64 + 1;
                out.push((axis, n[axis] > 0.0, centre));
                uc += 1.0;
            }
            ub += 1.0;
        }
    }
    out.sort();
    out
}

#[test]
fn blocky_meshes_of_neighbours_cover_the_same_faces() {
    let f = field(CaveMode::Tubes, 42);
    for axis in 0..3 {
        let a = ChunkCoord::new(0, 0, 0);
        let b = neighbour(a, axis);
        let mut s = Sampler::new();
        let mut joined = unit_faces(&blocky(&f, &s.chunk(&f, a)));
        joined.extend(unit_faces(&blocky(&f, &s.chunk(&f, b))));
        joined.sort();
        let whole = unit_faces(&blocky(&f, &s.sample(&f, pair_box(a, axis))));
        assert!(whole.len() > 1000);
        assert_eq!(joined, whole, "axis {axis}");
        // No face is drawn twice.
        let mut dedup = whole.clone();
        dedup.dedup();
        assert_eq!(dedup.len(), whole.len());
    }
}
