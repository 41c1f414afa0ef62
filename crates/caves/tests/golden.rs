//! Golden hashes of chunk densities and meshes, for every version this
//! build generates. A change to any of them changes the worlds people have
//! built on: add a version (`mangekyo_caves::Version`) instead, and pin its
//! own values here, saying why.

mod common;

use common::field_at;
use mangekyo_caves::mesh::{blocky, smooth};
use mangekyo_caves::{CaveMode, ChunkCoord, Mesh, Sampler, Version};
use xxhash_rust::xxh3::xxh3_64;

fn density_hash(version: Version, mode: CaveMode, c: ChunkCoord) -> u64 {
    let f = field_at(version, mode, 42);
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

/// Three density hashes (tubes at the origin and at (−5, 1, 3), sheets at
/// (2, 0, −7)) and the smooth and blocky meshes of the origin chunk.
fn hashes(version: Version) -> ([u64; 3], [u64; 2]) {
    let density = [
        density_hash(version, CaveMode::Tubes, ChunkCoord::new(0, 0, 0)),
        density_hash(version, CaveMode::Tubes, ChunkCoord::new(-5, 1, 3)),
        density_hash(version, CaveMode::Sheets, ChunkCoord::new(2, 0, -7)),
    ];
    let f = field_at(version, CaveMode::Tubes, 42);
    let s = Sampler::new().chunk(&f, ChunkCoord::new(0, 0, 0));
    (
        density,
        [mesh_hash(&smooth(&f, &s)), mesh_hash(&blocky(&f, &s))],
    )
}

/// The pinned values, one row per version. A version missing here fails
/// the test: every version generated is pinned.
fn want(version: Version) -> ([u64; 3], [u64; 2]) {
    match version {
        // The worm lattice (see `Version`'s history).
        Version::V2 => (
            [0x8f6f53307a8a8286, 0xac0a063cabff7aeb, 0x55febbef70f35c13],
            [0x1dda406b5ad1c82e, 0x577fa0026e7a882e],
        ),
        // Version 2's formulas on lattice hash 2.
        Version::V3 => (
            [0x88912a063ca2cf87, 0x1bc000dcad1c37ce, 0xc3abba4fcdac9501],
            [0x2b6831357cf0cdf0, 0xd2d5345571ea3ff3],
        ),
    }
}

#[test]
fn golden_chunks_and_meshes() {
    for version in Version::ALL {
        let (density, meshes) = hashes(version);
        let (want_density, want_mesh) = want(version);
        assert_eq!(
            density, want_density,
            "version {version} density goldens: {density:#x?}"
        );
        assert_eq!(
            meshes, want_mesh,
            "version {version} mesh goldens: {meshes:#x?}"
        );
    }
}

#[test]
fn versions_differ_only_where_they_say() {
    // Versions 2 and 3 differ by the hash alone: different worlds, the same
    // parameters and the same streaming facts.
    let [a, b] = [Version::V2, Version::V3].map(|v| field_at(v, CaveMode::Tubes, 42));
    let (sa, sb) = (
        Sampler::new().chunk(&a, ChunkCoord::new(0, 0, 0)),
        Sampler::new().chunk(&b, ChunkCoord::new(0, 0, 0)),
    );
    assert_ne!(sa.to_vec(), sb.to_vec(), "hash 2 draws a different world");
    let (ma, mb) = (
        mangekyo_caves::Manifest::of(&a),
        mangekyo_caves::Manifest::of(&b),
    );
    assert_eq!(
        (ma.chunk_y, ma.surface_range, ma.ceiling),
        (mb.chunk_y, mb.surface_range, mb.ceiling)
    );
    assert_eq!((ma.version, mb.version), (Version::V2, Version::V3));
}
