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
//! 2. Columns: the 2D surface and entrance noises per column (cheap), then
//!    per voxel the density terms and the window of carve values that matter.
//! 3. Sub-blocks of 4³: the worm noise at the centre and its Lipschitz
//!    bound ([`crate::bound`]) may prove the worms leave (or carve) every
//!    voxel of the block.
//! 4. Voxels: the first worm field; in tube mode the second only where the
//!    first has not already decided.

use mangekyo_core::noise::Grid2;
use serde::{Deserialize, Serialize};

use crate::bound::abs_range;
use crate::field::{CaveField, Column, DENSITY_CLAMP, Terms};

/// Voxels along each axis of a chunk.
pub const CHUNK: usize = 32;

/// Samples along each axis of a padded chunk: one extra voxel on each side.
pub const PADDED: usize = CHUNK + 2;

/// Sub-blocks bounded as one: 4³ voxels, whose centre is at most 2.6
/// voxels from any of them (small enough for the bound to decide, large
/// enough that centre samples cost 1/64 of the voxels).
const SUB: usize = 4;

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
    need: Vec<Need>,
    second: Vec<u32>,
    windows: Vec<(f32, f32)>,
    pos: [Vec<f64>; 3],
    val: Vec<f32>,
    first: Vec<f32>,
    block_state: Vec<Block>,
    blocks: Vec<usize>,
}

/// What the sub-block pass knows of a sub-block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    /// No voxel of it needs the worms.
    Unused,
    /// Some voxels need the worms, and the bound does not decide them.
    Open,
    /// The worms provably leave every voxel of it.
    Uncarved,
    /// The worms provably carve every voxel of it.
    Carved,
}

/// Decides a sub-block from the bounds `m = (lo, hi)` of its worm value and
/// the widest window `(lo, hi)` of carve values that matter in it.
fn decide(field: &CaveField, m: (f64, f64), window: (f32, f32)) -> Block {
    // Relative slack on K·(m − w) for the two f32 roundings of the carve term.
    const SLACK: f64 = 1e-4;
    let (k, w) = (field.carve_scale as f64, field.width as f64);
    let (c_lo, c_hi) = (k * (m.0 - w), k * (m.1 - w));
    if c_lo - SLACK * (1.0 + c_lo.abs()) >= window.1 as f64 {
        Block::Uncarved
    } else if c_hi + SLACK * (1.0 + c_hi.abs()) <= window.0 as f64 {
        Block::Carved
    } else {
        Block::Open
    }
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
        let density = self.fill(field, &bounds, &columns);
        Samples {
            bounds,
            density,
            columns,
        }
    }

    fn fill(&mut self, field: &CaveField, b: &VoxelBox, columns: &[Column]) -> Density {
        let [nx, ny, nz] = b.size;
        let nb = [nx.div_ceil(SUB), ny.div_ceil(SUB)];
        let floor = field.floor();
        let mut out = vec![0.0f32; b.len()];
        self.need.clear();
        for k in 0..nz {
            for j in 0..ny {
                let y = b.min[1] + j as i64;
                let row = (k * ny + j) * nx;
                let block_row = ((k / SUB) * nb[1] + j / SUB) * nb[0];
                for i in 0..nx {
                    let t = Terms::new(columns[k * nx + i], floor, y);
                    let (lo, hi) = t.window();
                    if lo >= hi {
                        out[row + i] = t.uncarved();
                    } else {
                        let pos = [b.min[0] + i as i64, y, b.min[2] + k as i64].map(|v| v as f64);
                        self.need.push(Need {
                            idx: (row + i) as u32,
                            block: (block_row + i / SUB) as u32,
                            t,
                            pos,
                        });
                    }
                }
            }
        }
        if !self.need.is_empty() {
            self.decide_blocks(field, b, &mut out);
            self.carve(field, &mut out);
        }
        let first = out[0];
        if out.iter().all(|v| v.to_bits() == first.to_bits()) {
            Density::Uniform(first)
        } else {
            Density::Grid(out)
        }
    }

    /// Sub-block pass: where the centre's bound proves the carve term is
    /// outside every voxel's window, writes the result and drops the voxels.
    fn decide_blocks(&mut self, field: &CaveField, b: &VoxelBox, out: &mut [f32]) {
        let [nx, ny, nz] = b.size;
        let nb = [nx.div_ceil(SUB), ny.div_ceil(SUB), nz.div_ceil(SUB)];
        self.blocks.clear();
        self.block_state.clear();
        self.block_state
            .resize(nb[0] * nb[1] * nb[2], Block::Unused);
        self.windows.clear();
        self.windows
            .resize(self.block_state.len(), (f32::INFINITY, f32::NEG_INFINITY));
        for n in &self.need {
            let (lo, hi) = n.t.window();
            let w = &mut self.windows[n.block as usize];
            *w = (w.0.min(lo), w.1.max(hi));
            self.block_state[n.block as usize] = Block::Open;
        }
        let open = (0..self.windows.len()).filter(|&i| self.block_state[i] == Block::Open);
        self.blocks.extend(open);
        let centres: Vec<([f64; 3], f64)> = self
            .blocks
            .iter()
            .map(|&i| block_centre(b, nb, i))
            .collect();
        let n1 = sample_points(&field.worms[0], &centres, &mut self.pos);
        let n2 = if field.tubes() {
            sample_points(&field.worms[1], &centres, &mut self.pos)
        } else {
            Vec::new()
        };
        for (slot, &bi) in self.blocks.iter().enumerate() {
            let r = centres[slot].1;
            let (l1, u1) = abs_range(n1[slot], r, field.worm_lipschitz);
            let m = match n2.get(slot) {
                Some(&v) => {
                    let (l2, u2) = abs_range(v, r, field.worm_lipschitz);
                    (l1.max(l2), u1.max(u2))
                }
                None => (l1, u1),
            };
            self.block_state[bi] = decide(field, m, self.windows[bi]);
        }
        let states = &self.block_state;
        self.need.retain(|n| match states[n.block as usize] {
            Block::Uncarved => {
                out[n.idx as usize] = n.t.uncarved();
                false
            }
            Block::Carved => {
                out[n.idx as usize] = n.t.carved();
                false
            }
            _ => true,
        });
    }

    /// Voxel pass: the worm noise where it is still needed.
    fn carve(&mut self, field: &CaveField, out: &mut [f32]) {
        gather(self.need.iter().map(|n| n.pos), &mut self.pos);
        self.first.resize(self.need.len(), 0.0);
        let [xs, ys, zs] = &self.pos;
        field.worms[0].fill_points3(xs, ys, zs, &mut self.first);
        self.second.clear();
        for (slot, n) in self.need.iter().enumerate() {
            let c1 = field.carve_first(self.first[slot]);
            if !field.tubes() {
                out[n.idx as usize] = n.t.density(c1);
            } else if c1 >= n.t.window().1 {
                out[n.idx as usize] = n.t.uncarved();
            } else {
                self.second.push(slot as u32);
            }
        }
        if self.second.is_empty() {
            return;
        }
        gather(
            self.second.iter().map(|&s| self.need[s as usize].pos),
            &mut self.pos,
        );
        self.val.resize(self.second.len(), 0.0);
        let [xs, ys, zs] = &self.pos;
        field.worms[1].fill_points3(xs, ys, zs, &mut self.val);
        for (k, &slot) in self.second.iter().enumerate() {
            let n = &self.need[slot as usize];
            out[n.idx as usize] =
                n.t.density(field.carve(self.first[slot as usize], self.val[k]));
        }
    }
}

/// A voxel whose density needs the worm noise: where it goes, its
/// sub-block, its noise-free terms and its world position.
#[derive(Clone, Copy, Debug)]
struct Need {
    idx: u32,
    block: u32,
    t: Terms,
    pos: [f64; 3],
}

/// Splits positions into the three coordinate arrays a fill takes.
fn gather(points: impl Iterator<Item = [f64; 3]>, pos: &mut [Vec<f64>; 3]) {
    for p in pos.iter_mut() {
        p.clear();
    }
    for q in points {
        for a in 0..3 {
            pos[a].push(q[a]);
        }
    }
}

/// The centre of sub-block `index` and its distance to its farthest voxel.
fn block_centre(b: &VoxelBox, nb: [usize; 3], index: usize) -> ([f64; 3], f64) {
    let bi = [
        index % nb[0],
        (index / nb[0]) % nb[1],
        index / (nb[0] * nb[1]),
    ];
    let mut centre = [0.0; 3];
    let mut r2 = 0.0;
    for a in 0..3 {
        let start = bi[a] * SUB;
        let len = SUB.min(b.size[a] - start);
        let half = (len - 1) as f64 / 2.0;
        centre[a] = b.min[a] as f64 + start as f64 + half;
        r2 += half * half;
    }
    (centre, r2.sqrt())
}

/// One noise at many positions, through one fill.
fn sample_points(
    noise: &mangekyo_core::noise::Noise,
    pts: &[([f64; 3], f64)],
    pos: &mut [Vec<f64>; 3],
) -> Vec<f32> {
    for (a, p) in pos.iter_mut().enumerate() {
        p.clear();
        p.extend(pts.iter().map(|(c, _)| c[a]));
    }
    let mut out = vec![0.0; pts.len()];
    noise.fill_points3(&pos[0], &pos[1], &pos[2], &mut out);
    out
}

/// A box's density if the global bounds decide it: entirely above both
/// the highest surface and the floor by the clamp (air), or below the
/// floor by the clamp (rock).
fn uniform_from_bounds(field: &CaveField, b: &VoxelBox) -> Option<f32> {
    let (_, h_max) = field.surface_range();
    let y_lo = b.min[1] as f64;
    let y_hi = (b.min[1] + b.size[1] as i64 - 1) as f64;
    let d = DENSITY_CLAMP as f64;
    if y_lo >= h_max.max(field.floor()) + d {
        Some(-DENSITY_CLAMP)
    } else if y_hi <= field.floor() - d {
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
