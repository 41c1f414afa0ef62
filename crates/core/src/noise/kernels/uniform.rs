//! Where every lane of a vector shares a cell (octaves much coarser than
//! the sample spacing): the cell's corner hashes computed once in scalar
//! and the gradients broadcast, the values every lane would compute
//! without the vector work.

use super::super::lattice::Lattice;
use super::super::simd::Simd;
use super::{Corners, GRAD2_X, GRAD2_Y, GRAD3_X, GRAD3_Y, GRAD3_Z};

/// The axis hashes of each axis's cell and the next (`Axis::h[1..]`) when
/// every lane holds the same ones: then every lane computes the same
/// corner hashes (whether the lanes share the cell or their hashes merely
/// collide), so they can be computed once.
#[inline(always)]
pub(super) fn uniform_hashes<S: Simd, const D: usize>(
    s: S,
    h: [&[S::I; 3]; D],
) -> Option<[[u32; 2]; D]> {
    let mut out = [[0; 2]; D];
    for (o, h) in out.iter_mut().zip(h) {
        *o = [s.uniform_i(h[1])?, s.uniform_i(h[2])?];
    }
    Some(out)
}

/// Corner hashes every lane shares ([`uniform_corners3`]).
pub(super) struct Broadcast(pub(super) [u32; 8]);

impl<S: Simd> Corners<S> for Broadcast {
    #[inline(always)]
    fn dot3(&self, s: S, i: usize, x: S::F, y: S::F, z: S::F) -> S::F {
        known_grad3(s, self.0[i], x, y, z)
    }
}

/// [`super::grad3`] for a hash every lane shares: the gradient's components are
/// broadcast instead of looked up per lane, and the dot product is the
/// table formula's, so the same bits ([`Simd::grad3`] allows only an exact
/// zero's sign to differ between backends).
#[inline(always)]
pub(super) fn known_grad3<S: Simd>(s: S, h: u32, x: S::F, y: S::F, z: S::F) -> S::F {
    let i = (h & 15) as usize;
    let xy = s.add(s.mul(s.splat(GRAD3_X[i]), x), s.mul(s.splat(GRAD3_Y[i]), y));
    s.add(xy, s.mul(s.splat(GRAD3_Z[i]), z))
}

/// [`super::grad2`] for a hash every lane shares (see [`known_grad3`]).
#[inline(always)]
pub(super) fn known_grad2<S: Simd>(s: S, h: u32, x: S::F, y: S::F) -> S::F {
    let i = (h & 15) as usize;
    s.add(s.mul(s.splat(GRAD2_X[i]), x), s.mul(s.splat(GRAD2_Y[i]), y))
}

/// The axis hashes of `cell` and the next along `axis`.
fn axis_hashes<H: Lattice>(cell: i64, axis: usize) -> [u32; 2] {
    [H::axis(cell, axis), H::axis(cell + 1, axis)]
}

/// A 2D cell's corner hashes from its axes' hashes (each the cell's and
/// the next's), indexed `bx | by << 1`.
#[inline(always)]
pub(super) fn corners2<H: Lattice>(hx: [u32; 2], hy: [u32; 2], seed: u32) -> [u32; 4] {
    // Scalar work, so a closure and array::from_fn are fine here.
    std::array::from_fn(|i| H::finish(hx[i & 1] ^ hy[i >> 1] ^ seed))
}

/// [`corners2`] in 3D: indexed `bx | by << 1 | bz << 2`.
#[inline(always)]
pub(super) fn corners3<H: Lattice>(
    hx: [u32; 2],
    hy: [u32; 2],
    hz: [u32; 2],
    seed: u32,
) -> [u32; 8] {
    std::array::from_fn(|i| H::finish(hx[i & 1] ^ hy[(i >> 1) & 1] ^ hz[i >> 2] ^ seed))
}

/// The i64 cell of every lane when all lanes share it.
#[inline(always)]
fn uniform_cell<S: Simd>(s: S, (lo, hi): (S::I, S::I)) -> Option<i64> {
    let lo = s.uniform_i(lo)?;
    let hi = s.uniform_i(hi)?;
    Some((u64::from(hi) << 32 | u64::from(lo)) as i64)
}

/// When every lane lies in one 2D cell (usual for octaves much coarser
/// than the sample spacing), its four corner hashes, indexed
/// `bx | by << 1`, computed once in scalar: the values every lane would
/// compute, without the vector work.
#[inline(always)]
pub(super) fn uniform_corners2<S: Simd, H: Lattice>(
    s: S,
    cells: [(S::I, S::I); 2],
    seed: u32,
) -> Option<[u32; 4]> {
    let cx = uniform_cell(s, cells[0])?;
    let cy = uniform_cell(s, cells[1])?;
    Some(corners2::<H>(
        axis_hashes::<H>(cx, 0),
        axis_hashes::<H>(cy, 1),
        seed,
    ))
}

/// Whether simplex takes the uniform-cell path: at 16 lanes only. At 8
/// (AVX2) the check and the per-lane corner picks measured as a loss (3D
/// simplex +6 %, 3D fBm3 simplex +12 %), while Perlin, which picks
/// nothing, gains there too.
#[inline(always)]
pub(super) fn simplex_picks_pay<S: Simd>() -> bool {
    S::LANES >= 16
}

/// [`uniform_corners2`] in 3D: eight corners, indexed `bx | by << 1 | bz << 2`.
#[inline(always)]
pub(super) fn uniform_corners3<S: Simd, H: Lattice>(
    s: S,
    cells: [(S::I, S::I); 3],
    seed: u32,
) -> Option<[u32; 8]> {
    let cx = uniform_cell(s, cells[0])?;
    let cy = uniform_cell(s, cells[1])?;
    let cz = uniform_cell(s, cells[2])?;
    Some(corners3::<H>(
        axis_hashes::<H>(cx, 0),
        axis_hashes::<H>(cy, 1),
        axis_hashes::<H>(cz, 2),
        seed,
    ))
}

/// The corner hash `c[bx | by << 1 | bz << 2]` per lane, each bit chosen by
/// a mask: bx is 0 where `x0` is set, by is `Y_SET` where `y` is set, bz is
/// 1 where `z1` is set (the polarities of the simplex step masks).
#[inline(always)]
pub(super) fn pick_corner3<S: Simd, const Y_SET: usize>(
    s: S,
    c: &[u32; 8],
    x0: S::M,
    y: S::M,
    z1: S::M,
) -> S::I {
    let (y_set, y_clear) = (2 * Y_SET, 2 - 2 * Y_SET);
    let z = [
        s.select_i(z1, s.splat_i(c[4]), s.splat_i(c[0])),
        s.select_i(z1, s.splat_i(c[5]), s.splat_i(c[1])),
        s.select_i(z1, s.splat_i(c[6]), s.splat_i(c[2])),
        s.select_i(z1, s.splat_i(c[7]), s.splat_i(c[3])),
    ];
    let x_0 = s.select_i(y, z[y_set], z[y_clear]);
    let x_1 = s.select_i(y, z[1 + y_set], z[1 + y_clear]);
    s.select_i(x0, x_0, x_1)
}
