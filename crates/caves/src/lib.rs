//! Seamless chunked 3D voxel caves: surface, worms and karst entrances, meshed.
//!
//! A cave world is a density field over integer voxels, a pure function of
//! [`CaveParams`], a [`Seed`] and the voxel's coordinates: rock below a
//! rolling fBm surface (`base_height + fbm2 · amplitude`), carved by Perlin
//! worms — round tubes where two decorrelated `1 − |fbm3|` ridges cross
//! (the default), or the seed's sheets from one of them — above a solid
//! floor and below a ceiling buffer that karst entrances remove, so caves
//! open to the sky only inside the entrance mask. Density `> 0` is rock,
//! `≤ 0` is air, and the field is smooth enough for surface nets. The 3D
//! worm noises are sampled on a coarse global lattice (every 4 voxels at
//! the defaults) and blended trilinearly between its points, as
//! Minecraft's noise caves do ([`lattice`]): 1/64 of the noise work, the
//! same bits in every box.
//!
//! # Brief overview
//! - [`CaveField`]: the validated parameters and their noises; point
//!   queries ([`CaveField::density`], [`CaveField::surface_height`],
//!   [`CaveField::density_at`], [`CaveField::raycast`],
//!   [`CaveField::slide_move`]).
//! - [`ChunkCoord`] and [`Sampler`]: a chunk's 34³ padded box of densities,
//!   with the worm lattice sampled only around the rows where the worms
//!   can matter; [`sample_chunks`] in parallel.
//! - [`mesh`]: surface nets ([`mesh::smooth`]) and greedy blocky faces
//!   ([`mesh::blocky`]) into a [`Mesh`] with normals and sky visibility,
//!   or with a reusable [`Mesher`] into recycled meshes; [`wire`] encodes
//!   meshes and densities compactly for the viewer.
//! - [`names`]: the meshers' and chunk formats' names ([`MeshKind`],
//!   [`CaveFormat`]), the one list every surface parses them with.
//! - [`view`]: slices and an entrance map as RGB pictures.
//!
//! # Previews
//! `docs/images/caves_{tubes,sheets}.png` are the glb of
//! `mangekyo caves export --seed 42 [--mode sheets] --from -2,0,-2 --to 1,0,1`
//! seen from below (three.js in headless Chromium), `caves_blocky.png` of
//! `--mesh blocky --from 0,0,0 --to 1,1,1` from above, and
//! `caves_entrances.png` is `mangekyo caves slice --seed 42 --entrances
//! --size 1024 1024` (generator version 2).
//!
//! # Seam contract
//! Every sample of every box equals [`CaveField::density`] of its voxel,
//! bit for bit, whatever box or thread computed it. A chunk's mesh covers
//! exactly the edges (smooth) or faces (blocky) of its own 32³ voxels, so
//! neighbouring chunks meshed apart give the same triangles along their
//! border as meshed together: no cracks, no overlaps.
//!
//! ```
//! use mangekyo_caves::{CaveField, CaveParams, ChunkCoord, Sampler, Seed, mesh};
//!
//! let field = CaveField::new(&CaveParams::default(), Seed::parse("hime")).unwrap();
//! let samples = Sampler::new().chunk(&field, ChunkCoord::new(0, 0, 0));
//! let m = mesh::smooth(&field, &samples);
//! assert!(m.triangle_count() > 0);
//! // Samples are the point queries, bit for bit (box-local (1,1,1) is voxel (0,0,0)).
//! assert_eq!(samples.get(1, 1, 1).to_bits(), field.density(0, 0, 0).to_bits());
//! // The seed's sliding collision: high in the sky everything moves.
//! assert_eq!(field.slide_move([0.0, 100.0, 0.0], [1.0, 0.0, 1.0], 0.5), [1.0, 100.0, 1.0]);
//! ```
#![deny(missing_docs)]

pub mod bound;
pub mod chunk;
pub mod error;
pub mod field;
pub mod lattice;
pub mod manifest;
pub mod mesh;
pub mod names;
pub mod params;
pub mod query;
pub mod sky;
pub mod version;
pub mod view;
pub mod wire;

pub use chunk::{CHUNK, ChunkCoord, Density, PADDED, Sampler, Samples, VoxelBox, sample_chunks};
pub use error::CaveError;
pub use field::CaveField;
pub use mangekyo_core::Seed;
pub use manifest::{MAX_CHUNK_COORD, Manifest};
pub use mesh::{Mesh, MeshKind, Mesher, mesh_chunks};
pub use names::CaveFormat;
pub use params::{CaveMode, CaveParams};
pub use version::Version;

/// The version new content is made with: [`Version::DEFAULT`]'s number.
/// A field built with [`CaveField::with_version`] records its own; the
/// history is [`Version`]'s.
pub const GENERATOR_VERSION: u32 = Version::DEFAULT.code();
