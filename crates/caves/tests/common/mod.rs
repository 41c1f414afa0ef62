//! Helpers shared by the integration tests.
#![allow(dead_code)]

use mangekyo_caves::{CaveField, CaveMode, CaveParams, Mesh, Seed, Version};

/// The default field (tubes) or the seed's sheets, for a seed, at the
/// newest version.
pub(crate) fn field(mode: CaveMode, seed: u64) -> CaveField {
    field_at(Version::DEFAULT, mode, seed)
}

/// [`field`] as generator `version` makes it.
pub(crate) fn field_at(version: Version, mode: CaveMode, seed: u64) -> CaveField {
    CaveField::with_version(
        &CaveParams {
            mode,
            ..CaveParams::default()
        },
        Seed::new(seed),
        version,
    )
    .unwrap()
}

/// One vertex in world coordinates with its attributes, as bits.
pub(crate) type Vertex = ([u64; 3], [u32; 3], u32);

/// Every triangle of `mesh` in world coordinates, each rotated to start at
/// its smallest vertex (winding kept), sorted.
pub(crate) fn world_triangles(mesh: &Mesh) -> Vec<[Vertex; 3]> {
    let vertex = |i: u32| -> Vertex {
        let i = i as usize;
        (
            mesh.world_position(i).map(f64::to_bits),
            mesh.normals[i].map(f32::to_bits),
            mesh.sky[i].to_bits(),
        )
    };
    let mut tris: Vec<[Vertex; 3]> = mesh
        .indices
        .chunks_exact(3)
        .map(|t| {
            let mut v = [vertex(t[0]), vertex(t[1]), vertex(t[2])];
            let first = (0..3).min_by_key(|&k| v[k]).unwrap();
            v.rotate_left(first);
            v
        })
        .collect();
    tris.sort();
    tris
}
