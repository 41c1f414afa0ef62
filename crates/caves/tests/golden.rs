//! Golden hashes of chunk densities and meshes. A change to any of them
//! changes the worlds people have built on: bump `GENERATOR_VERSION` and
//! update the values in the same commit, saying why.

mod common;

use common::field;
use mangekyo_caves::mesh::{blocky, smooth};
use mangekyo_caves::{CaveMode, ChunkCoord, GENERATOR_VERSION, Mesh, Sampler};
use xxhash_rust::xxh3::xxh3_64;

fn density_hash(mode: CaveMode, c: ChunkCoord) -> u64 {
    let f = field(mode, 42);
    let s = Sampler::new().chunk(&f, c);
    let bytes: Vec<u8> = s
        .to_vec()
        .iter()
        .flat_map(|v| v.to_bits().to_le_bytes())
        .collect();
    xxh3_64(&bytes)
}

fn mesh_hash(m: &Mesh) -> u64 {
    let mut bytes = Vec::new();
    for p in m.positions.iter().chain(&m.normals) {
        bytes.extend(p.iter().flat_map(|v| v.to_bits().to_le_bytes()));
    }
    bytes.extend(m.sky.iter().flat_map(|v| v.to_bits().to_le_bytes()));
    bytes.extend(m.indices.iter().flat_map(|i| i.to_le_bytes()));
    xxh3_64(&bytes)
}

#[test]
fn golden_chunks_and_meshes() {
    assert_eq!(GENERATOR_VERSION, 2);
    let got = [
        density_hash(CaveMode::Tubes, ChunkCoord::new(0, 0, 0)),
        density_hash(CaveMode::Tubes, ChunkCoord::new(-5, 1, 3)),
        density_hash(CaveMode::Sheets, ChunkCoord::new(2, 0, -7)),
    ];
    let f = field(CaveMode::Tubes, 42);
    let s = Sampler::new().chunk(&f, ChunkCoord::new(0, 0, 0));
    let meshes = [mesh_hash(&smooth(&f, &s)), mesh_hash(&blocky(&f, &s))];
    // Version 2: the worm lattice (see `GENERATOR_VERSION`'s history).
    let want_density: [u64; 3] = [0x8f6f53307a8a8286, 0xac0a063cabff7aeb, 0x55febbef70f35c13];
    let want_mesh: [u64; 2] = [0x1dda406b5ad1c82e, 0x577fa0026e7a882e];
    assert_eq!(got, want_density, "density goldens: {got:#x?}");
    assert_eq!(meshes, want_mesh, "mesh goldens: {meshes:#x?}");
}
