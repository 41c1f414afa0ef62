//! What a renderer reads off a mesh besides positions: smooth normals are
//! unit vectors pointing into the air, and the per-vertex sky visibility
//! keeps sunlight out of sealed caves while the open ground is sunlit.

mod common;

use common::field;
use mangekyo_caves::{CaveMode, ChunkCoord, MeshKind, Sampler, mesh};

/// The surface-layer chunks of a 3 × 3 patch (cy = 0 holds the ground and
/// the caves under it with the default parameters).
fn meshes(kind: MeshKind) -> Vec<mangekyo_caves::Mesh> {
    let f = field(CaveMode::Tubes, 42);
    let mut out = Vec::new();
    for cz in -1..=1 {
        for cx in -1..=1 {
            let samples = Sampler::new().chunk(&f, ChunkCoord::new(cx, 0, cz));
            out.push(mesh::mesh(&f, &samples, kind));
        }
    }
    out
}

#[test]
fn smooth_normals_are_unit_and_point_into_the_air() {
    let f = field(CaveMode::Tubes, 42);
    let (mut checked, mut outward) = (0usize, 0usize);
    for m in meshes(MeshKind::Smooth) {
        for (v, n) in m.normals.iter().enumerate() {
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            assert!((len - 1.0).abs() < 1e-3, "normal {n:?} has length {len}");
            let p = m.world_position(v);
            let at = |s: f64| {
                f.density_at(
                    p[0] + s * f64::from(n[0]),
                    p[1] + s * f64::from(n[1]),
                    p[2] + s * f64::from(n[2]),
                )
            };
            checked += 1;
            // Density > 0 is rock: ahead of the normal it falls.
            if at(0.75) < at(-0.75) {
                outward += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked} vertices");
    // Surface nets average the gradient over a cell: thin features can
    // turn a few vertices, never a noticeable share.
    assert!(
        outward as f64 > 0.99 * checked as f64,
        "{outward} of {checked} normals point into the air"
    );
}

#[test]
fn sealed_caves_get_no_sky_and_open_ground_does() {
    let f = field(CaveMode::Tubes, 42);
    // Columns with no karst entrance within 3 voxels: there the sky ends
    // at the ground.
    let sealed_around = |x: f64, z: f64| {
        (-3..=3).all(|dx| {
            (-3..=3).all(|dz| {
                !f.entrance_open(
                    x.floor() + f64::from(dx) + 0.5,
                    z.floor() + f64::from(dz) + 0.5,
                )
            })
        })
    };
    let lowest_ground = |x: f64, z: f64| {
        let mut low = f32::INFINITY;
        for dx in -2..=2 {
            for dz in -2..=2 {
                low = low.min(f.surface_height(x + f64::from(dx), z + f64::from(dz)));
            }
        }
        f64::from(low)
    };
    for kind in [MeshKind::Smooth, MeshKind::Blocky] {
        let (mut deep, mut ground) = (0usize, 0usize);
        for m in meshes(kind) {
            for v in 0..m.vertex_count() {
                let [x, y, z] = m.world_position(v);
                if !sealed_around(x, z) {
                    continue;
                }
                let sky = m.sky[v];
                assert!((0.0..=1.0).contains(&sky), "sky {sky}");
                if y < lowest_ground(x, z) - 5.0 {
                    deep += 1;
                    assert_eq!(
                        sky, 0.0,
                        "{kind:?}: cave vertex ({x}, {y}, {z}) sees the sky"
                    );
                } else if m.normals[v][1] > 0.9
                    && (y - f64::from(f.surface_height(x, z))).abs() < 0.5
                {
                    ground += 1;
                    assert!(
                        sky >= 0.5,
                        "{kind:?}: ground vertex ({x}, {y}, {z}) is dark ({sky})"
                    );
                }
            }
        }
        assert!(
            deep > 1000 && ground > 1000,
            "{kind:?}: {deep} cave and {ground} ground vertices checked"
        );
    }
}
