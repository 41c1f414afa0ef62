//! Compact little-endian binary forms of a chunk's mesh and density, for
//! the viewer (a `DataView` and typed arrays read them without copying).
//!
//! # Mesh (`MKCM`)
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `MKCM` |
//! | 4 | 2 | format version, u16 = 1 |
//! | 6 | 1 | kind: 0 smooth, 1 blocky |
//! | 7 | 1 | reserved, 0 |
//! | 8 | 4 | vertex count V, u32 |
//! | 12 | 4 | index count I, u32 (3 per triangle) |
//! | 16 | 24 | origin: world voxel of local (0,0,0), 3 × f64 (integers) |
//! | 40 | 4 | generator version, u32 |
//! | 44 | 4 | reserved, 0 |
//! | 48 | 12·V | positions, 3 × f32 per vertex, voxels relative to the origin |
//! | … | 12·V | normals, 3 × f32 per vertex, unit, out of the rock |
//! | … | V, padded to 4 | sky visibility, u8 per vertex (0 = closed cave, 255 = open sky), zero padding |
//! | … | 4·I | triangle indices, u32, counter-clockwise seen from the air |
//!
//! # Density (`MKCD`)
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `MKCD` |
//! | 4 | 2 | format version, u16 = 1 |
//! | 6 | 2 | reserved, 0 |
//! | 8 | 12 | samples along x, y, z: 3 × u32 (33 each for a chunk) |
//! | 20 | 4 | generator version, u32 |
//! | 24 | 24 | origin: world voxel of sample (0,0,0), 3 × f64 |
//! | 48 | 4·nx·ny·nz | density, f32, index `(z·ny + y)·nx + x`; air where ≤ 0 |
//! | … | 4·nx·nz | surface height per column, f32, index `z·nx + x` |
//!
//! A chunk's density block holds its 32³ voxels and the first voxels of
//! its +x, +y, +z neighbours (33³), so trilinear interpolation — what
//! [`CaveField::density_at`](crate::CaveField::density_at) computes — is
//! possible anywhere in the chunk from that chunk alone.

use crate::chunk::{CHUNK, Samples, sample_columns};
use crate::field::CaveField;
use crate::mesh::{Mesh, MeshKind};
use crate::version::Version;

/// Version of both layouts.
pub const FORMAT_VERSION: u16 = 1;

/// Bytes before the arrays in both layouts.
pub const HEADER_LEN: usize = 48;

/// Encodes a mesh that generator `version` made as `MKCM`.
pub fn encode_mesh(mesh: &Mesh, kind: MeshKind, version: Version) -> Vec<u8> {
    let v = mesh.vertex_count();
    let mut out = Vec::with_capacity(HEADER_LEN + v * 28 + 4 + mesh.indices.len() * 4);
    out.extend_from_slice(b"MKCM");
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(match kind {
        MeshKind::Smooth => 0,
        MeshKind::Blocky => 1,
    });
    out.push(0);
    out.extend_from_slice(&(v as u32).to_le_bytes());
    out.extend_from_slice(&(mesh.indices.len() as u32).to_le_bytes());
    for o in mesh.origin {
        out.extend_from_slice(&(o as f64).to_le_bytes());
    }
    out.extend_from_slice(&version.code().to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    for p in mesh.positions.iter().chain(&mesh.normals) {
        for c in p {
            out.extend_from_slice(&c.to_le_bytes());
        }
    }
    out.extend(
        mesh.sky
            .iter()
            .map(|s| (s.clamp(0.0, 1.0) * 255.0).round() as u8),
    );
    out.resize(out.len().next_multiple_of(4), 0);
    for i in &mesh.indices {
        out.extend_from_slice(&i.to_le_bytes());
    }
    out
}

/// Encodes the density of a sampled chunk as `MKCD`: the 33³ samples from
/// its first owned voxel, and the surface height of those columns.
///
/// Chunks decided uniform from the global bounds carry no columns; their
/// surface heights are sampled here.
///
/// # Panics
/// If `samples` is not a padded chunk box (34³).
pub fn encode_chunk_density(field: &CaveField, samples: &Samples) -> Vec<u8> {
    let n = CHUNK + 1;
    assert_eq!(
        samples.bounds.size,
        [CHUNK + 2; 3],
        "encode_chunk_density needs a padded chunk box"
    );
    let origin = samples.bounds.min.map(|m| m + 1);
    let mut out = Vec::with_capacity(HEADER_LEN + 4 * (n * n * n + n * n));
    out.extend_from_slice(b"MKCD");
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    for _ in 0..3 {
        out.extend_from_slice(&(n as u32).to_le_bytes());
    }
    out.extend_from_slice(&field.version().code().to_le_bytes());
    for o in origin {
        out.extend_from_slice(&(o as f64).to_le_bytes());
    }
    for k in 1..=n {
        for j in 1..=n {
            for i in 1..=n {
                out.extend_from_slice(&samples.get(i, j, k).to_le_bytes());
            }
        }
    }
    let columns = if samples.columns.is_empty() {
        sample_columns(field, &samples.bounds)
    } else {
        samples.columns.clone()
    };
    for k in 1..=n {
        for i in 1..=n {
            out.extend_from_slice(&columns[k * (CHUNK + 2) + i].h.to_le_bytes());
        }
    }
    out
}

/// A decoded `MKCM` mesh (for tests and Rust clients).
#[derive(Clone, Debug, PartialEq)]
pub struct DecodedMesh {
    /// The mesher that made it.
    pub kind: MeshKind,
    /// The mesh, with sky values as stored (multiples of 1/255).
    pub mesh: Mesh,
    /// The generator version recorded in it.
    pub generator_version: u32,
}

/// Why bytes are not a valid mesh or density block.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("invalid cave binary: {0}")]
pub struct WireError(pub &'static str);

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or_default())
}

fn f32s(b: &[u8], at: usize, n: usize) -> Vec<f32> {
    b[at..at + 4 * n]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Decodes an `MKCM` mesh, checking its magic, version and lengths.
pub fn decode_mesh(b: &[u8]) -> Result<DecodedMesh, WireError> {
    if b.len() < HEADER_LEN || &b[0..4] != b"MKCM" {
        return Err(WireError("not an MKCM mesh"));
    }
    if u16::from_le_bytes([b[4], b[5]]) != FORMAT_VERSION {
        return Err(WireError("unknown MKCM version"));
    }
    let kind = match b[6] {
        0 => MeshKind::Smooth,
        1 => MeshKind::Blocky,
        _ => return Err(WireError("unknown mesh kind")),
    };
    let (v, i) = (u32_at(b, 8) as usize, u32_at(b, 12) as usize);
    let sky_at = HEADER_LEN + 24 * v;
    let idx_at = (sky_at + v).next_multiple_of(4);
    if b.len() != idx_at + 4 * i {
        return Err(WireError("MKCM length does not match its counts"));
    }
    let origin: [i64; 3] = std::array::from_fn(|a| {
        f64::from_le_bytes(b[16 + 8 * a..24 + 8 * a].try_into().unwrap_or_default()) as i64
    });
    let triples = |at| {
        f32s(b, at, 3 * v)
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect()
    };
    let mesh = Mesh {
        origin,
        positions: triples(HEADER_LEN),
        normals: triples(HEADER_LEN + 12 * v),
        sky: b[sky_at..sky_at + v]
            .iter()
            .map(|&s| s as f32 / 255.0)
            .collect(),
        indices: (0..i).map(|n| u32_at(b, idx_at + 4 * n)).collect(),
    };
    if mesh.indices.iter().any(|&x| x as usize >= v) {
        return Err(WireError("MKCM index out of range"));
    }
    Ok(DecodedMesh {
        kind,
        mesh,
        generator_version: u32_at(b, 40),
    })
}

/// A decoded `MKCD` density block.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodedDensity {
    /// Samples along x, y, z.
    pub size: [usize; 3],
    /// World voxel of sample (0, 0, 0).
    pub origin: [i64; 3],
    /// Densities, x fastest.
    pub density: Vec<f32>,
    /// Surface height per column, x fastest.
    pub surface: Vec<f32>,
    /// The generator version recorded in it.
    pub generator_version: u32,
}

/// Decodes an `MKCD` density block.
pub fn decode_density(b: &[u8]) -> Result<DecodedDensity, WireError> {
    if b.len() < HEADER_LEN || &b[0..4] != b"MKCD" {
        return Err(WireError("not an MKCD density block"));
    }
    if u16::from_le_bytes([b[4], b[5]]) != FORMAT_VERSION {
        return Err(WireError("unknown MKCD version"));
    }
    let size = [8, 12, 16].map(|at| u32_at(b, at) as usize);
    let (n, cols) = (size[0] * size[1] * size[2], size[0] * size[2]);
    if b.len() != HEADER_LEN + 4 * (n + cols) {
        return Err(WireError("MKCD length does not match its size"));
    }
    let origin: [i64; 3] = std::array::from_fn(|a| {
        f64::from_le_bytes(b[24 + 8 * a..32 + 8 * a].try_into().unwrap_or_default()) as i64
    });
    Ok(DecodedDensity {
        generator_version: u32_at(b, 20),
        size,
        origin,
        density: f32s(b, HEADER_LEN, n),
        surface: f32s(b, HEADER_LEN + 4 * n, cols),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CaveField, CaveParams, ChunkCoord, Sampler, Seed, mesh};

    #[test]
    fn mesh_and_density_round_trip() {
        let f = CaveField::new(&CaveParams::default(), Seed::new(1)).unwrap();
        let s = Sampler::new().chunk(&f, ChunkCoord::new(0, 0, 0));
        let m = mesh::smooth(&f, &s);
        let bytes = encode_mesh(&m, MeshKind::Smooth, f.version());
        let back = decode_mesh(&bytes).unwrap();
        assert_eq!(back.kind, MeshKind::Smooth);
        assert_eq!(back.generator_version, Version::DEFAULT.code());
        let old = encode_mesh(&m, MeshKind::Smooth, Version::V2);
        assert_eq!(decode_mesh(&old).unwrap().generator_version, 2);
        assert_eq!(
            (back.mesh.positions, back.mesh.normals, back.mesh.indices),
            (m.positions, m.normals, m.indices)
        );
        assert_eq!(back.mesh.origin, m.origin);
        for (a, b) in back.mesh.sky.iter().zip(&m.sky) {
            assert!((a - b).abs() <= 0.5 / 255.0 + 1e-6);
        }
        let d = decode_density(&encode_chunk_density(&f, &s)).unwrap();
        assert_eq!(d.generator_version, f.version().code());
        assert_eq!(d.size, [33; 3]);
        assert_eq!(d.origin, [0, 0, 0]);
        assert_eq!(d.density[(5 * 33 + 6) * 33 + 7], f.density(7, 6, 5));
        assert_eq!(d.surface[3 * 33 + 2], f.surface_height(2.0, 3.0));
        let up = Sampler::new().chunk(&f, ChunkCoord::new(0, 5, 0));
        let d = decode_density(&encode_chunk_density(&f, &up)).unwrap();
        assert!(d.density.iter().all(|&v| v == -4.0));
        assert_eq!(d.surface[0], f.surface_height(0.0, 0.0));
        assert!(decode_mesh(&bytes[..bytes.len() - 1]).is_err());
        assert!(decode_density(b"MKCM").is_err());
    }
}
