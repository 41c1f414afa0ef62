//! Chunks and the box sampler: the density of every voxel of a box, with
//! the 3D noise evaluated only where it can change a bit of the result.
//!
//! # Chunks and padding
//! Chunk `(cx, cy, cz)` owns the voxels `32·c .. 32·c + 32` on each axis.
//! Meshing it needs one more voxel on every side, so a chunk is sampled as
//! the 34³ box starting at `32·c − 1` ([`ChunkCoord::padded_box`]). Every
//! sample is [`CaveField::density`] of its voxel, bit for bit, whatever the
//! box: neighbouring chunks agree on the voxels they share.
//!
//! # Skipping work, without changing results
//! 1. The whole box: the surface lies within `base ± amplitude` and the
//!    floor is fixed, so a box entirely above (below) them by the density
//!    clamp is uniform air (rock), with no noise at all.
//! 2. Columns: the 2D surface and entrance noises per column (cheap).
//! 3. Rows: only the voxel rows between `floor − clamp` and the box's
//!    highest surface `+ clamp` can depend on the worms; the others take
//!    their noise-free density.
//! 4. The worm lattice ([`crate::lattice`]) is sampled only around those
//!    rows — one grid fill per worm field, 1/64 of the voxels at spacing
//!    4 — and blended separably; every voxel of those rows then costs a
//!    few arithmetic operations and no branch. Where a voxel's window is
//!    empty the formula gives its noise-free density anyway, bit for bit.
//!
//! (Version 1 bounded the per-voxel noise per 4³ sub-block with a
//! Lipschitz constant to skip noise; with the lattice the noise is already
//! 1/64 of the voxels and the remaining per-voxel blend is cheaper than
//! deciding sub-blocks, so the pass was removed.)

use std::ops::Range;

use mangekyo_core::noise::Grid2;
use serde::{Deserialize, Serialize};

use crate::field::{CaveField, Column, DENSITY_CLAMP, Terms, max};
use crate::lattice::{AxisPlaces, Planes, lerp};

/// Voxels along each axis of a chunk.
pub const CHUNK: usize = 32;

/// Samples along each axis of a padded chunk: one extra voxel on each side.
pub const PADDED: usize = CHUNK + 2;

/// A chunk's address: chunk `c` owns voxels `32·c .. 32·c + 32` per axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ChunkCoord {
    /// Chunk index along x.
    pub x: i32,
    /// Chunk index along y (up).
    pub y: i32,
    /// Chunk index along z.
    pub z: i32,
}

impl ChunkCoord {
    /// A chunk coordinate.
    pub const fn new(x: i32, y: i32, z: i32) -> ChunkCoord {
        ChunkCoord { x, y, z }
    }

    /// The world voxel of the chunk's first owned voxel.
    pub fn origin(self) -> [i64; 3] {
        [self.x, self.y, self.z].map(|c| c as i64 * CHUNK as i64)
    }

    /// The 34³ box a chunk is sampled as: its voxels and one more each side.
    pub fn padded_box(self) -> VoxelBox {
        VoxelBox {
            min: self.origin().map(|o| o - 1),
            size: [PADDED; 3],
        }
    }

    /// The chunk holding a world voxel.
    pub fn containing(voxel: [i64; 3]) -> ChunkCoord {
        let c = voxel.map(|v| v.div_euclid(CHUNK as i64) as i32);
        ChunkCoord::new(c[0], c[1], c[2])
    }
}

/// An axis-aligned box of voxels: `min .. min + size` per axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoxelBox {
    /// The first voxel.
    pub min: [i64; 3],
    /// Voxels along x, y and z.
    pub size: [usize; 3],
}

impl VoxelBox {
    /// Number of voxels.
    pub fn len(&self) -> usize {
        self.size.iter().product()
    }
    /// Whether the box holds no voxel.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The densities of a box: one value everywhere, or one per voxel.
#[derive(Clone, Debug, PartialEq)]
pub enum Density {
    /// Every voxel has this density (±[`DENSITY_CLAMP`]): proven without
    /// sampling, or found so.
    Uniform(f32),
    /// One density per voxel, index `(z · ny + y) · nx + x`.
    Grid(Vec<f32>),
}

/// The sampled densities of a box, and its columns' surface heights.
#[derive(Clone, Debug, PartialEq)]
pub struct Samples {
    /// The box sampled.
    pub bounds: VoxelBox,
    /// Its densities.
    pub density: Density,
    /// Surface height and ceiling buffer per column (`z · nx + x`); empty
    /// when the box was decided from the global bounds alone.
    pub(crate) columns: Vec<Column>,
}

impl Samples {
    /// The density of the voxel at box-local `(i, j, k)`.
    pub fn get(&self, i: usize, j: usize, k: usize) -> f32 {
        let [nx, ny, _] = self.bounds.size;
        match &self.density {
            Density::Uniform(d) => *d,
            Density::Grid(g) => g[(k * ny + j) * nx + i],
        }
    }

    /// Every density, expanded (x fastest).
    pub fn to_vec(&self) -> Vec<f32> {
        match &self.density {
            Density::Uniform(d) => vec![*d; self.bounds.len()],
            Density::Grid(g) => g.clone(),
        }
    }

    /// Whether the box is one density everywhere (so it holds no surface).
    pub fn is_uniform(&self) -> bool {
        matches!(self.density, Density::Uniform(_))
    }

    /// The surface height of box column `(i, k)`, if columns were sampled.
    pub fn surface(&self, i: usize, k: usize) -> Option<f32> {
        self.columns.get(k * self.bounds.size[0] + i).map(|c| c.h)
    }
}

/// Reusable working memory of the sampler; one per thread.
#[derive(Debug, Default)]
pub struct Sampler {
    axes: [AxisPlaces; 3],
    worms: [Planes; 2],
}

impl Sampler {
    /// A sampler with empty buffers.
    pub fn new() -> Sampler {
        Sampler::default()
    }

    /// Samples one padded chunk.
    pub fn chunk(&mut self, field: &CaveField, coord: ChunkCoord) -> Samples {
        self.sample(field, coord.padded_box())
    }

    /// Samples any box.
    pub fn sample(&mut self, field: &CaveField, bounds: VoxelBox) -> Samples {
        if let Some(d) = uniform_from_bounds(field, &bounds) {
            return Samples {
                bounds,
                density: Density::Uniform(d),
                columns: Vec::new(),
            };
        }
        let columns = sample_columns(field, &bounds);
        self.sample_with_columns(field, bounds, columns)
    }

    /// Samples a box whose columns are already known (`sample_columns`).
    pub(crate) fn sample_with_columns(
        &mut self,
        field: &CaveField,
        bounds: VoxelBox,
        columns: Vec<Column>,
    ) -> Samples {
        let density = self.fill(field, &bounds, &columns);
        Samples {
            bounds,
            density,
            columns,
        }
    }

    fn fill(&mut self, field: &CaveField, b: &VoxelBox, columns: &[Column]) -> Density {
        let [nx, ny, nz] = b.size;
        let floor = field.floor();
        let mut out = vec![0.0f32; b.len()];
        let rows = worm_rows(field, b, columns);
        if !rows.is_empty() {
            self.sample_lattice(field, b, &rows);
        }
        for k in 0..nz {
            let cols = &columns[k * nx..][..nx];
            for j in 0..ny {
                let y = (b.min[1] + j as i64) as f32;
                let row = &mut out[(k * ny + j) * nx..][..nx];
                if rows.contains(&j) {
                    self.carve_row(field, [j - rows.start, k], cols, y, row);
                } else {
                    for (o, c) in row.iter_mut().zip(cols) {
                        *o = Terms::new(*c, floor, y).uncarved();
                    }
                }
            }
        }
        let first = out[0];
        if out.iter().all(|v| v.to_bits() == first.to_bits()) {
            Density::Uniform(first)
        } else {
            Density::Grid(out)
        }
    }

    /// The worm lattice around voxel rows `rows` of the box, blended along
    /// x and y.
    fn sample_lattice(&mut self, field: &CaveField, b: &VoxelBox, rows: &Range<usize>) {
        let l = field.lattice;
        self.axes = [
            AxisPlaces::new(b.min[0], b.size[0], l),
            AxisPlaces::new(b.min[1] + rows.start as i64, rows.len(), l),
            AxisPlaces::new(b.min[2], b.size[2], l),
        ];
        let fields = if field.tubes() { 2 } else { 1 };
        for (planes, noise) in self.worms.iter_mut().zip(&field.worms).take(fields) {
            planes.fill(noise, l, &self.axes);
        }
    }

    /// One voxel row that may need the worms: the last (z) blend, the carve
    /// term and the density, for row `r` of the lattice rows and layer `k`.
    fn carve_row(
        &self,
        field: &CaveField,
        [r, k]: [usize; 2],
        cols: &[Column],
        y: f32,
        out: &mut [f32],
    ) {
        let az = &self.axes[2];
        let (lo, hi, tz) = (az.lo[k], az.hi[k], az.t[k]);
        let floor = field.floor();
        let (scale, width) = (field.carve_scale, field.width);
        // Equal lengths up front, so the loops carry no bounds checks and
        // vectorise.
        let n = out.len();
        let cols = &cols[..n];
        let (a_lo, a_hi) = (
            &self.worms[0].row(lo, r)[..n],
            &self.worms[0].row(hi, r)[..n],
        );
        if field.tubes() {
            let (b_lo, b_hi) = (
                &self.worms[1].row(lo, r)[..n],
                &self.worms[1].row(hi, r)[..n],
            );
            for i in 0..n {
                let n1 = lerp(a_lo[i], a_hi[i], tz);
                let n2 = lerp(b_lo[i], b_hi[i], tz);
                let c = scale * (max(n1.abs(), n2.abs()) - width);
                out[i] = Terms::new(cols[i], floor, y).density(c);
            }
        } else {
            for i in 0..n {
                let n1 = lerp(a_lo[i], a_hi[i], tz);
                let c = scale * (n1.abs() - width);
                out[i] = Terms::new(cols[i], floor, y).density(c);
            }
        }
    }
}

/// The box rows (a range of j) that may depend on the worms: a voxel's
/// carve window is empty where `f ≥ D` (the floor decides) or `s ≤ −D`
/// (above the surface), and with `h ≤ max h` (rounding is monotone) both
/// hold for a whole row at once; both bounds move monotonically with y, so
/// the remaining rows are one range.
fn worm_rows(field: &CaveField, b: &VoxelBox, columns: &[Column]) -> Range<usize> {
    let floor = field.floor();
    let h_max = columns
        .iter()
        .map(|c| c.h)
        .fold(f32::NEG_INFINITY, f32::max);
    let needs = |j: usize| {
        let y = (b.min[1] + j as i64) as f32;
        floor - y < DENSITY_CLAMP && h_max - y > -DENSITY_CLAMP
    };
    let ny = b.size[1];
    match (0..ny).position(needs) {
        Some(start) => {
            let end = (start..ny)
                .rposition(needs)
                .map_or(start, |e| start + e + 1);
            start..end
        }
        None => 0..0,
    }
}

/// A box's density if the global bounds decide it: entirely above both
/// the highest surface and the floor by the clamp (air), or below the
/// floor by the clamp (rock).
fn uniform_from_bounds(field: &CaveField, b: &VoxelBox) -> Option<f32> {
    let (_, h_max) = field.surface_range();
    let y_lo = b.min[1] as f64;
    let y_hi = (b.min[1] + b.size[1] as i64 - 1) as f64;
    let d = DENSITY_CLAMP as f64;
    let floor = field.floor() as f64;
    if y_lo >= h_max.max(floor) + d {
        Some(-DENSITY_CLAMP)
    } else if y_hi <= floor - d {
        Some(DENSITY_CLAMP)
    } else {
        None
    }
}

/// Surface height and ceiling buffer of every column of the box.
pub(crate) fn sample_columns(field: &CaveField, b: &VoxelBox) -> Vec<Column> {
    let grid = Grid2 {
        origin: [b.min[0] as f64, b.min[2] as f64],
        step: [1.0, 1.0],
        size: [b.size[0], b.size[2]],
    };
    let mut h = vec![0.0f32; grid.len()];
    let mut e = vec![0.0f32; grid.len()];
    field.surface.fill2(&grid, &mut h);
    field.entrance.fill2(&grid, &mut e);
    h.iter()
        .zip(&e)
        .map(|(&h, &e)| Column {
            h: field.height_of(h),
            b: field.buffer_of(e),
        })
        .collect()
}

/// Samples many chunks in parallel (rayon), in the order given: the result
/// is the same, bit for bit, as sampling them one by one.
pub fn sample_chunks(field: &CaveField, coords: &[ChunkCoord]) -> Vec<Samples> {
    use rayon::prelude::*;
    coords
        .par_iter()
        .map_init(Sampler::new, |s, &c| s.chunk(field, c))
        .collect()
}
