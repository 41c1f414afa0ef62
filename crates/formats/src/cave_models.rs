//! Cave chunk meshes as models a generic 3D tool opens: glTF binary and
//! OBJ, one node (object) per chunk, translated to the chunk's origin,
//! with `COLOR_0` for plain viewers and the raw sky visibility as `_SKY`.
//!
//! It lives in the formats crate because it joins a generator (caves) to the format
//! encoders (export), which know nothing of each other; the server's
//! `format=glb` and `mangekyo caves chunk|export` both call it.
//! [`encode_chunk`] is one sampled chunk in any [`CaveFormat`], as the
//! service's chunk route and the WebAssembly package hand it out.

use mangekyo_caves::{
    CaveField, CaveFormat, ChunkCoord, Mesh, MeshKind, Samples, Version, mesh, view, wire,
};
use mangekyo_export::gltf::{MeshData, MeshError, encode_glb};

/// A model file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelFormat {
    /// glTF 2.0 binary (.glb).
    Glb,
    /// Wavefront OBJ (text).
    Obj,
}

/// One sampled chunk as `format` (meshed by `mesher` unless it is the
/// density): the service's chunk route and the WebAssembly package both
/// call this, so the two hand out the same bytes.
pub fn encode_chunk(
    field: &CaveField,
    coord: ChunkCoord,
    samples: &Samples,
    format: CaveFormat,
    mesher: MeshKind,
) -> Result<Vec<u8>, MeshError> {
    Ok(match format {
        CaveFormat::Density => wire::encode_chunk_density(field, samples),
        CaveFormat::Mesh => {
            wire::encode_mesh(&mesh::mesh(field, samples, mesher), mesher, field.version())
        }
        CaveFormat::Glb => encode(
            &[(coord, mesh::mesh(field, samples, mesher))],
            ModelFormat::Glb,
            field.version(),
        )?,
    })
}

/// Encodes chunk meshes that generator `version` made as one model
/// (the version is named in its `generator` field); empty meshes become
/// empty nodes.
pub fn encode(
    meshes: &[(ChunkCoord, Mesh)],
    format: ModelFormat,
    version: Version,
) -> Result<Vec<u8>, MeshError> {
    let names: Vec<String> = meshes
        .iter()
        .map(|(c, _)| format!("chunk_{}_{}_{}", c.x, c.y, c.z))
        .collect();
    let colours: Vec<Vec<[f32; 3]>> = meshes
        .iter()
        .map(|(_, m)| view::vertex_colours(m))
        .collect();
    let extras: Vec<[(&str, &[f32]); 1]> =
        meshes.iter().map(|(_, m)| [("SKY", &m.sky[..])]).collect();
    let data: Vec<MeshData> = meshes
        .iter()
        .enumerate()
        .map(|(n, (_, m))| MeshData {
            name: &names[n],
            positions: &m.positions,
            normals: Some(&m.normals),
            colors: Some(&colours[n]),
            extras: &extras[n],
            indices: &m.indices,
            translation: m.origin.map(|o| o as f64),
        })
        .collect();
    let generator = format!("mangekyo caves (generator {version})");
    match format {
        ModelFormat::Glb => encode_glb(&data, &generator),
        ModelFormat::Obj => {
            mangekyo_export::obj::encode_obj(&data, &generator).map(String::into_bytes)
        }
    }
}
