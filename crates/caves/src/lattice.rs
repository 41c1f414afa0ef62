//! The worm lattice: the 3D worm noises are evaluated only at the points of
//! a coarse *global* lattice and trilinearly interpolated in between, as
//! Minecraft's noise caves do.
//!
//! # Why
//! The worms are smooth at the scale of their finest octave (20 voxels at
//! the defaults), so sampling 3D noise at every voxel repeats nearly the
//! same information 64 times. The lattice samples it every
//! [`CaveField::lattice_spacing`] voxels instead (4 at the defaults: 1/64
//! of the noise work), with the tabulated grid fill of the noise core.
//!
//! # The rule (generator version 2)
//! The lattice points are the world voxels whose coordinates are all
//! multiples of the spacing `L`, so every box — a chunk, its neighbour, a
//! 2×2×2 query — sees the same points with the same noise values. A voxel
//! coordinate `v` lies in lattice cell `q = ⌊v / L⌋` at weight
//! `t = (v − qL) / L` (exact: `L` is a power of two); its upper corner is
//! `q + 1`, or `q` itself when `t = 0`, so a voxel on a lattice plane needs
//! nothing beyond it. The worm value is the raw noise (before `|·|`),
//! blended in one fixed order — along x, then y, then z — with
//! `lerp(a, b, t) = a + t · (b − a)` in f32:
//!
//! ```text
//! c_yz = lerp(n(x₀, y, z), n(x₁, y, z), tx)   for y ∈ {y₀, y₁}, z ∈ {z₀, z₁}
//! c_z  = lerp(c_y₀z, c_y₁z, ty)
//! n    = lerp(c_z₀, c_z₁, tz)
//! ```
//!
//! Point queries ([`CaveField::density`]) evaluate exactly this; the box
//! sampler evaluates it separably (all x-blends of a lattice row, then the
//! y-blends, then z) — the same operations on the same values, so the same
//! bits. Interpolating the raw noise and taking `|n|` afterwards keeps the
//! ridges where the noise crosses zero sharp, as tunnels need.
//!
//! # Bounds
//! For `t ∈ [0, 1)` the rounded `lerp` stays between its two inputs
//! (`t · (1 + ε)² < 1`, and rounding to nearest cannot pass a
//! representable endpoint), so an interpolated worm value lies between
//! the smallest and largest of its cell's corners, and therefore in the
//! noise's own range [-1, 1] (see [`crate::bound`]).
//!
//! [`CaveField::lattice_spacing`]: crate::CaveField::lattice_spacing
//! [`CaveField::density`]: crate::CaveField::density

use mangekyo_core::noise::{Grid3, Noise};

/// Widest lattice spacing, voxels: 4, as Minecraft's noise caves use
/// horizontally. Wider cells would flatten the ~4-voxel tunnels' shape.
pub const MAX_SPACING: i64 = 4;

/// Lattice points per period of the finest worm octave, at least. Linear
/// interpolation of a sine sampled 5 times a period stays within ~20% of
/// that octave's amplitude; finer worm settings get a finer lattice (down
/// to every voxel, which is then plain per-voxel noise).
pub const POINTS_PER_PERIOD: f64 = 5.0;

/// The lattice spacing for a worm fBm: the largest power of two up to
/// [`MAX_SPACING`] that keeps [`POINTS_PER_PERIOD`] points per period of
/// its finest octave (`1 / highest frequency`).
pub fn spacing_for(finest_frequency: f64) -> i64 {
    let period = 1.0 / finest_frequency;
    let mut l = MAX_SPACING;
    while l > 1 && (l as f64) * POINTS_PER_PERIOD > period {
        l /= 2;
    }
    l
}

/// `a + t · (b − a)`: the one blend every path uses.
#[inline(always)]
pub(crate) fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + t * (b - a)
}

/// Where a voxel coordinate lies on one lattice axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Place {
    /// Lower lattice index.
    pub(crate) lo: i64,
    /// Upper lattice index: `lo + 1`, or `lo` on a lattice plane.
    pub(crate) hi: i64,
    /// Weight of the upper corner, in [0, 1).
    pub(crate) t: f32,
}

/// The place of voxel coordinate `v` for spacing `l` (a power of two).
#[inline]
pub(crate) fn place(v: i64, l: i64) -> Place {
    let lo = v.div_euclid(l);
    let r = v - lo * l;
    Place {
        lo,
        hi: if r == 0 { lo } else { lo + 1 },
        t: r as f32 / l as f32,
    }
}

/// The interpolated worm value of one voxel from its 8 corner values,
/// indexed `[z][y][x]` (0 lower, 1 upper), in the fixed order.
#[inline]
pub(crate) fn trilinear(c: &[[[f32; 2]; 2]; 2], t: [f32; 3]) -> f32 {
    let cz: [f32; 2] = std::array::from_fn(|z| {
        let cy: [f32; 2] = std::array::from_fn(|y| lerp(c[z][y][0], c[z][y][1], t[0]));
        lerp(cy[0], cy[1], t[1])
    });
    lerp(cz[0], cz[1], t[2])
}

/// One noise at the lattice points of one voxel: its 8 corners.
pub(crate) fn corners(noise: &Noise, v: [i64; 3], l: i64) -> ([[[f32; 2]; 2]; 2], [f32; 3]) {
    let p = v.map(|c| place(c, l));
    let at = |a: usize, upper: usize| {
        let idx = if upper == 1 { p[a].hi } else { p[a].lo };
        (idx * l) as f64
    };
    let c = std::array::from_fn(|z| {
        std::array::from_fn(|y| {
            std::array::from_fn(|x| noise.sample3(at(0, x), at(1, y), at(2, z)))
        })
    });
    (c, [p[0].t, p[1].t, p[2].t])
}

/// Per voxel of a box axis: its place, with lattice indices relative to
/// the first lattice index of the box.
#[derive(Clone, Debug, Default)]
pub(crate) struct AxisPlaces {
    /// First lattice index (absolute).
    pub(crate) first: i64,
    /// Lattice points along the axis.
    pub(crate) count: usize,
    /// Relative lower index per voxel.
    pub(crate) lo: Vec<usize>,
    /// Relative upper index per voxel.
    pub(crate) hi: Vec<usize>,
    /// Weight per voxel.
    pub(crate) t: Vec<f32>,
}

impl AxisPlaces {
    /// The places of voxels `min .. min + n` (n ≥ 1).
    pub(crate) fn new(min: i64, n: usize, l: i64) -> AxisPlaces {
        let first = place(min, l).lo;
        let last = place(min + n as i64 - 1, l).hi;
        let mut a = AxisPlaces {
            first,
            count: (last - first + 1) as usize,
            lo: Vec::with_capacity(n),
            hi: Vec::with_capacity(n),
            t: Vec::with_capacity(n),
        };
        for v in min..min + n as i64 {
            let p = place(v, l);
            a.lo.push((p.lo - first) as usize);
            a.hi.push((p.hi - first) as usize);
            a.t.push(p.t);
        }
        a
    }

    /// The lattice grid of the axis, in world voxels: origin and step.
    fn grid(&self, l: i64) -> (f64, f64) {
        ((self.first * l) as f64, l as f64)
    }
}

/// A box's worm noise, blended down to one plane per lattice z-layer:
/// row `j` of layer `lz` holds the values at every voxel x of voxel row
/// `j` (of the y axis given) on lattice layer `lz`. The last blend, along
/// z, is left to the caller, per voxel.
#[derive(Debug, Default)]
pub(crate) struct Planes {
    lattice: Vec<f32>,
    rows_x: Vec<f32>,
    planes: Vec<f32>,
    nx: usize,
    plane_len: usize,
}

impl Planes {
    /// Samples `noise` on the lattice around the voxels of `axes` and
    /// blends it along x and y.
    pub(crate) fn fill(&mut self, noise: &Noise, l: i64, axes: &[AxisPlaces; 3]) {
        let [ax, ay, az] = axes;
        let (nx, ny, nyl, nzl) = (ax.lo.len(), ay.lo.len(), ay.count, az.count);
        let nxl = ax.count;
        let grid = Grid3 {
            origin: [ax.grid(l).0, ay.grid(l).0, az.grid(l).0],
            step: [l as f64; 3],
            size: [nxl, nyl, nzl],
        };
        self.lattice.resize(grid.len(), 0.0);
        noise.fill3(&grid, &mut self.lattice);
        self.nx = nx;
        self.plane_len = ny * nx;
        self.rows_x.resize(nyl * nx, 0.0);
        self.planes.resize(nzl * self.plane_len, 0.0);
        for lz in 0..nzl {
            // Along x: every lattice row of the layer at every voxel x.
            for ly in 0..nyl {
                let src = &self.lattice[(lz * nyl + ly) * nxl..][..nxl];
                let dst = &mut self.rows_x[ly * nx..][..nx];
                for (i, d) in dst.iter_mut().enumerate() {
                    *d = lerp(src[ax.lo[i]], src[ax.hi[i]], ax.t[i]);
                }
            }
            // Along y: every voxel row from its two lattice rows.
            let plane = &mut self.planes[lz * self.plane_len..][..self.plane_len];
            for j in 0..ny {
                let lo = &self.rows_x[ay.lo[j] * nx..][..nx];
                let hi = &self.rows_x[ay.hi[j] * nx..][..nx];
                let t = ay.t[j];
                let dst = &mut plane[j * nx..][..nx];
                for i in 0..nx {
                    dst[i] = lerp(lo[i], hi[i], t);
                }
            }
        }
    }

    /// Voxel row `r` of the y axis given, on lattice layer `lz`.
    #[inline]
    pub(crate) fn row(&self, lz: usize, r: usize) -> &[f32] {
        &self.planes[lz * self.plane_len + r * self.nx..][..self.nx]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_keeps_five_points_per_finest_period() {
        // Defaults: 0.025 with 2 octaves, finest 0.05 → period 20 → 4.
        assert_eq!(spacing_for(0.05), 4);
        assert_eq!(spacing_for(0.1), 2);
        assert_eq!(spacing_for(0.2), 1);
        assert_eq!(spacing_for(0.9), 1);
        assert_eq!(spacing_for(0.001), MAX_SPACING);
    }

    #[test]
    fn places_cover_negative_coordinates_and_lattice_planes() {
        assert_eq!(
            place(0, 4),
            Place {
                lo: 0,
                hi: 0,
                t: 0.0
            }
        );
        assert_eq!(
            place(-1, 4),
            Place {
                lo: -1,
                hi: 0,
                t: 0.75
            }
        );
        assert_eq!(
            place(-4, 4),
            Place {
                lo: -1,
                hi: -1,
                t: 0.0
            }
        );
        assert_eq!(
            place(9, 4),
            Place {
                lo: 2,
                hi: 3,
                t: 0.25
            }
        );
        assert_eq!(
            place(7, 1),
            Place {
                lo: 7,
                hi: 7,
                t: 0.0
            }
        );
        // A padded chunk box (-1 ..= 32) needs lattice points -1 ..= 8.
        let a = AxisPlaces::new(-1, 34, 4);
        assert_eq!((a.first, a.count), (-1, 10));
        assert_eq!((a.lo[33], a.hi[33]), (9, 9));
    }

    #[test]
    fn a_blend_never_leaves_its_corners() {
        // The property the bounds rely on, over awkward f32 pairs.
        let vals = [
            -1.0f32,
            -0.999_999_9,
            -0.3,
            -1e-7,
            -0.0,
            0.0,
            1e-30,
            0.1,
            0.333_333_34,
            0.999_999_94,
            1.0,
        ];
        for &a in &vals {
            for &b in &vals {
                for k in 0..4 {
                    let t = k as f32 / 4.0;
                    let v = lerp(a, b, t);
                    assert!(v >= a.min(b) && v <= a.max(b), "lerp({a}, {b}, {t}) = {v}");
                }
            }
        }
    }
}
