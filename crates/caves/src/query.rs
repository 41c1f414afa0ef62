//! Queries for games and the viewer: density anywhere, the surface height,
//! a ray cast and a sliding move for collision.
//!
//! Between voxels the world is the trilinear blend of the eight voxel
//! densities around a point ([`CaveField::density_at`]) — the same function
//! a client can evaluate from a chunk's density grid (see [`crate::wire`]),
//! and the one whose zero set the smooth mesh follows. Air is
//! `density ≤ 0`, as in the seed's collision test.

use crate::chunk::{Sampler, VoxelBox};
use crate::field::CaveField;

/// Longest ray, in voxels: a ray visits about this many cells, each a few
/// noise samples; 4096 voxels is 128 chunks, far beyond any view distance.
pub const MAX_RAY: f64 = 4096.0;

/// Steps per voxel when marching a ray: the trilinear density has at most
/// three zero crossings per cell along a line, and a quarter-voxel step
/// with bisection finds the first one in practice.
const RAY_STEPS_PER_VOXEL: f64 = 4.0;

/// Bisection rounds refining a ray hit: 2⁻²⁰ of a step.
const RAY_REFINE: u32 = 20;

/// Where a ray met rock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The hit point (world voxels).
    pub position: [f64; 3],
    /// Distance from the ray's origin.
    pub distance: f64,
    /// Unit normal of the rock there (out of the rock).
    pub normal: [f64; 3],
}

impl CaveField {
    /// The density at any point: the trilinear blend of the eight voxels
    /// around it (exactly [`CaveField::density`] at integer points).
    pub fn density_at(&self, x: f64, y: f64, z: f64) -> f32 {
        let base = [x, y, z].map(f64::floor);
        let t = [x - base[0], y - base[1], z - base[2]].map(|v| v as f32);
        // The eight voxels as one 2×2×2 box: the sampler gives each the
        // bits of `density`, sharing their columns and worm-lattice corners.
        let voxels = Sampler::new().sample(
            self,
            VoxelBox {
                min: base.map(|v| v as i64),
                size: [2; 3],
            },
        );
        let corner = |dx: usize, dy: usize, dz: usize| voxels.get(dx, dy, dz);
        let lerp = |a: f32, b: f32, t: f32| if t == 0.0 { a } else { a + t * (b - a) };
        let row = |dy, dz| {
            lerp(
                corner(0, dy, dz),
                if t[0] == 0.0 { 0.0 } else { corner(1, dy, dz) },
                t[0],
            )
        };
        let plane = |dz| lerp(row(0, dz), if t[1] == 0.0 { 0.0 } else { row(1, dz) }, t[1]);
        lerp(plane(0), if t[2] == 0.0 { 0.0 } else { plane(1) }, t[2])
    }

    /// Whether a point is air (`density_at ≤ 0`).
    pub fn is_air(&self, p: [f64; 3]) -> bool {
        self.density_at(p[0], p[1], p[2]) <= 0.0
    }

    /// The first point where a ray from `origin` along `direction` enters
    /// rock, within `max_distance` (clamped to [`MAX_RAY`]). A ray that
    /// starts inside rock hits at its origin. `None` for a zero or
    /// non-finite direction, or no hit.
    pub fn raycast(
        &self,
        origin: [f64; 3],
        direction: [f64; 3],
        max_distance: f64,
    ) -> Option<RayHit> {
        let len = direction.iter().map(|v| v * v).sum::<f64>().sqrt();
        if !(len.is_finite() && len > 0.0 && origin.iter().all(|v| v.is_finite())) {
            return None;
        }
        let dir = direction.map(|v| v / len);
        let max = max_distance.clamp(0.0, MAX_RAY);
        let at = |s: f64| std::array::from_fn::<f64, 3, _>(|a| origin[a] + dir[a] * s);
        let step = 1.0 / RAY_STEPS_PER_VOXEL;
        let (mut s0, mut s1) = (0.0, 0.0);
        let mut found = !self.is_air(origin);
        while !found && s1 < max {
            s0 = s1;
            s1 = (s1 + step).min(max);
            found = !self.is_air(at(s1));
        }
        if !found {
            return None;
        }
        // Bisect between the last air point and the first rock point.
        if s1 > 0.0 {
            for _ in 0..RAY_REFINE {
                let mid = 0.5 * (s0 + s1);
                if self.is_air(at(mid)) {
                    s0 = mid
                } else {
                    s1 = mid
                }
            }
        }
        let position = at(s1);
        Some(RayHit {
            position,
            distance: s1,
            normal: self.normal_at(position),
        })
    }

    /// The unit normal of the density at a point (out of the rock), by
    /// central differences half a voxel apart; straight up where flat.
    pub fn normal_at(&self, p: [f64; 3]) -> [f64; 3] {
        const H: f64 = 0.5;
        let g: [f64; 3] = std::array::from_fn(|a| {
            let (mut lo, mut hi) = (p, p);
            lo[a] -= H;
            hi[a] += H;
            (self.density_at(hi[0], hi[1], hi[2]) - self.density_at(lo[0], lo[1], lo[2])) as f64
        });
        let len = g.iter().map(|v| v * v).sum::<f64>().sqrt();
        if len > 0.0 {
            g.map(|v| -v / len)
        } else {
            [0.0, 1.0, 0.0]
        }
    }

    /// Moves `position` by `delta`, one axis at a time (x, then y, then z),
    /// keeping each axis's step only if it ends in air — the seed's sliding
    /// collision, so a body glides along walls instead of stopping. With
    /// `radius > 0` the body is a sphere: a step is kept only if the centre
    /// and six points on the sphere (±radius on each axis) are all air.
    pub fn slide_move(&self, position: [f64; 3], delta: [f64; 3], radius: f64) -> [f64; 3] {
        let mut p = position;
        for axis in 0..3 {
            if delta[axis] == 0.0 || !delta[axis].is_finite() {
                continue;
            }
            let mut q = p;
            q[axis] += delta[axis];
            if self.body_fits(q, radius) {
                p = q;
            }
        }
        p
    }

    /// Whether a sphere of `radius` at `centre` is in air (probed at its
    /// centre and the six axis points of its surface).
    pub fn body_fits(&self, centre: [f64; 3], radius: f64) -> bool {
        if !self.is_air(centre) {
            return false;
        }
        if radius.is_nan() || radius <= 0.0 {
            return true;
        }
        (0..6).all(|n| {
            let mut q = centre;
            q[n / 2] += if n % 2 == 0 { radius } else { -radius };
            self.is_air(q)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{CaveField, CaveParams, Seed};

    fn field() -> CaveField {
        CaveField::new(&CaveParams::default(), Seed::new(42)).unwrap()
    }

    #[test]
    fn density_at_integer_points_is_the_voxel_density() {
        let f = field();
        for (x, y, z) in [(0, 10, 0), (-17, 25, 33), (100, 3, -64)] {
            assert_eq!(
                f.density_at(x as f64, y as f64, z as f64).to_bits(),
                f.density(x, y, z).to_bits()
            );
        }
        // Halfway between two voxels is their mean.
        let (a, b) = (f.density(5, 12, 7), f.density(6, 12, 7));
        assert_eq!(f.density_at(5.5, 12.0, 7.0), a + 0.5 * (b - a));
    }

    #[test]
    fn a_ray_straight_down_lands_on_the_ground() {
        let f = field();
        for (x, z) in [(3.5, 4.5), (-40.25, 17.0), (250.0, -90.5)] {
            let hit = f.raycast([x, 80.0, z], [0.0, -1.0, 0.0], 200.0).unwrap();
            let [hx, hy, hz] = hit.position;
            assert_eq!((hx, hz), (x, z));
            assert!(!f.is_air(hit.position) && f.is_air([x, hy + 1e-4, z]));
            // The first rock from above is at or below the surface, and the
            // ground there faces up-ish.
            assert!(hy <= f.surface_height(x, z) as f64 + 1.0);
            assert!(hit.normal[1] > 0.0, "{:?}", hit.normal);
        }
        assert_eq!(f.raycast([0.0, 80.0, 0.0], [0.0, 1.0, 0.0], 200.0), None);
        assert_eq!(f.raycast([0.0, 80.0, 0.0], [0.0, 0.0, 0.0], 200.0), None);
    }

    #[test]
    fn sliding_keeps_the_free_axes_and_stops_at_walls() {
        let f = field();
        // In the open sky every axis moves.
        let p = f.slide_move([0.0, 90.0, 0.0], [0.5, -0.25, 0.5], 1.0);
        assert_eq!(p, [0.5, 89.75, 0.5]);
        // Straight down into the ground: y stops, x and z still slide.
        let ground = f
            .raycast([10.0, 80.0, 10.0], [0.0, -1.0, 0.0], 200.0)
            .unwrap()
            .position;
        let start = [10.0, ground[1] + 0.3, 10.0];
        let moved = f.slide_move(start, [0.2, -1.0, 0.2], 0.0);
        assert_eq!(moved[1], start[1]);
        assert!(f.is_air(moved));
        assert_eq!(moved[0], 10.2);
    }
}
