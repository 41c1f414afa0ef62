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

/// Reusable working memory of the meshers, one per thread (as
/// [`crate::Sampler`] is for sampling): meshing many chunks with one
/// `Mesher`, into recycled [`Mesh`]es, allocates nothing once the buffers
/// have grown — the way `fast-surface-nets` reuses its buffer.
#[derive(Debug, Default)]
pub struct Mesher {
    rock: Vec<u8>,
    changes: Vec<u8>,
    rows: Vec<u32>,
    cells: Vec<u32>,
    face: Vec<u8>,
    mask: Vec<u16>,
    found: [Vec<blocky::Found>; 6],
    start: Vec<u32>,
    next: Vec<u32>,
    bucketed: Vec<(u32, u16)>,
}

impl Mesher {
    /// A mesher with empty buffers.
    pub fn new() -> Mesher {
        Mesher::default()
    }

    /// Surface nets of `samples` into `mesh`, which is cleared first (its
    /// capacity is kept): the same mesh as [`smooth`].
    pub fn smooth_into(&mut self, field: &CaveField, samples: &Samples, mesh: &mut Mesh) {
        smooth::smooth_into(self, field, samples, mesh)
    }

    /// Greedy blocky faces of `samples` into `mesh`, which is cleared
    /// first: the same mesh as [`blocky`].
    pub fn blocky_into(&mut self, field: &CaveField, samples: &Samples, mesh: &mut Mesh) {
        blocky::blocky_into(self, field, samples, mesh)
    }

    /// The chosen mesher into `mesh`.
    pub fn mesh_into(
        &mut self,
        field: &CaveField,
        samples: &Samples,
        kind: MeshKind,
        mesh: &mut Mesh,
    ) {
        match kind {
            MeshKind::Smooth => self.smooth_into(field, samples, mesh),
            MeshKind::Blocky => self.blocky_into(field, samples, mesh),
        }
    }
}

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

    /// Empties the mesh (keeping its capacity) for a box at `origin`.
    pub(crate) fn reset(&mut self, origin: [i64; 3]) {
        self.origin = origin;
        self.positions.clear();
        self.normals.clear();
        self.sky.clear();
        self.indices.clear();
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
    let mut out = Mesh::default();
    Mesher::new().mesh_into(field, samples, kind, &mut out);
    out
}

/// The open height of every column of the box (`k · nx + i`).
pub(crate) fn box_open_heights(field: &CaveField, samples: &Samples) -> Vec<f32> {
    let [nx, _, nz] = samples.bounds.size;
    let [x0, _, z0] = samples.bounds.min;
    open_heights(field, [x0, z0], [nx, nz], &samples.columns)
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
        .map_init(
            || (crate::Sampler::new(), Mesher::new()),
            |(s, m), &c| {
                let mut out = Mesh::default();
                m.mesh_into(field, &s.chunk(field, c), kind, &mut out);
                out
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CaveParams, ChunkCoord, Sampler, Seed};

    #[test]
    fn a_reused_mesher_gives_the_fresh_meshes() {
        let f = CaveField::new(&CaveParams::default(), Seed::new(42)).unwrap();
        let mut sampler = Sampler::new();
        let (mut mesher, mut out) = (Mesher::new(), Mesh::default());
        // A dense chunk, a sparse one, a uniform one, and a larger box.
        let boxes = [
            ChunkCoord::new(2, 0, 3).padded_box(),
            ChunkCoord::new(0, 1, 0).padded_box(),
            ChunkCoord::new(0, 3, 0).padded_box(),
            crate::VoxelBox {
                min: [-40, -1, 7],
                size: [70, 40, 20],
            },
        ];
        for b in boxes {
            let s = sampler.sample(&f, b);
            for kind in [MeshKind::Smooth, MeshKind::Blocky] {
                mesher.mesh_into(&f, &s, kind, &mut out);
                assert_eq!(out, mesh(&f, &s, kind), "{b:?} {kind:?}");
            }
        }
        assert!(out.is_empty() || out.vertex_count() > 0);
    }
}
