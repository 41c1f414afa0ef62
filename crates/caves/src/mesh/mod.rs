//! Meshes of sampled boxes: smooth (surface nets) and blocky (greedy
//! faces), with normals and a per-vertex sky visibility.
//!
//! # Seam contract
//! A mesh of a box covers the voxels it *owns*: all but the first and last
//! layer on each axis (the padding). A chunk's padded box owns exactly the
//! chunk's 32³ voxels, so every edge (smooth) or face (blocky) of the world
//! belongs to exactly one chunk, and the vertices a chunk shares with its
//! neighbours are computed from the same samples by the same arithmetic.
//! Positions are relative to [`Mesh::origin`] (the first owned voxel), with
//! in-cell offsets rounded to 1/65536 voxel, so `origin + position` is the
//! same number in every chunk (exact for boxes up to 256 voxels a side).

mod blocky;
mod smooth;

pub use blocky::blocky;
pub use smooth::smooth;

use crate::chunk::Samples;
use crate::field::CaveField;
use crate::sky::open_heights;

/// A triangle mesh in box-local coordinates.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// World voxel of local position (0, 0, 0): the box's first owned voxel.
    pub origin: [i64; 3],
    /// Vertex positions, voxels relative to `origin`.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals, pointing out of the rock into the air.
    pub normals: Vec<[f32; 3]>,
    /// Sky visibility per vertex: 1 under open sky, 0 in closed caves
    /// (see [`crate::sky`]).
    pub sky: Vec<f32>,
    /// Triangles, three indices each, counter-clockwise seen from the air.
    pub indices: Vec<u32>,
}

impl Mesh {
    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.positions.len()
    }

    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }

    /// Whether the mesh has no triangle.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    /// The world position of vertex `v` (exact: f64 origin plus f32 offset).
    pub fn world_position(&self, v: usize) -> [f64; 3] {
        let p = self.positions[v];
        std::array::from_fn(|a| self.origin[a] as f64 + p[a] as f64)
    }

    /// Smallest and largest local position, or `None` for an empty mesh.
    pub fn bounds(&self) -> Option<([f32; 3], [f32; 3])> {
        let first = *self.positions.first()?;
        Some(self.positions.iter().fold((first, first), |(lo, hi), p| {
            (
                std::array::from_fn(|a| lo[a].min(p[a])),
                std::array::from_fn(|a| hi[a].max(p[a])),
            )
        }))
    }
}

/// Which mesher to use.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum MeshKind {
    /// Surface nets: one vertex per surface cell, smooth normals.
    #[default]
    Smooth,
    /// Cubes centred on the voxels, coplanar faces merged.
    Blocky,
}

/// Meshes `samples` with the chosen mesher.
pub fn mesh(field: &CaveField, samples: &Samples, kind: MeshKind) -> Mesh {
    match kind {
        MeshKind::Smooth => smooth(field, samples),
        MeshKind::Blocky => blocky(field, samples),
    }
}

/// The open height of every column of the box (`k · nx + i`).
pub(crate) fn box_open_heights(field: &CaveField, samples: &Samples) -> Vec<f32> {
    let [nx, _, _] = samples.bounds.size;
    let [x0, _, z0] = samples.bounds.min;
    let cols: Vec<_> = samples
        .columns
        .iter()
        .enumerate()
        .map(|(n, c)| (x0 + (n % nx) as i64, z0 + (n / nx) as i64, *c))
        .collect();
    open_heights(field, &cols)
}

/// The mesh origin of a box: its first owned voxel.
pub(crate) fn origin_of(samples: &Samples) -> [i64; 3] {
    samples.bounds.min.map(|m| m + 1)
}

/// Samples and meshes many chunks in parallel (rayon), in the order given;
/// the same meshes, bit for bit, as one by one.
pub fn mesh_chunks(field: &CaveField, coords: &[crate::ChunkCoord], kind: MeshKind) -> Vec<Mesh> {
    use rayon::prelude::*;
    coords
        .par_iter()
        .map_init(crate::Sampler::new, |s, &c| {
            mesh(field, &s.chunk(field, c), kind)
        })
        .collect()
}
