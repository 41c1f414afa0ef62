//! Plates as a pure function of the direction (tier T0 of
//! `docs/planet.md`, "Tiers"): no simulation, so continents and
//! mountain belts do not depend on any grid resolution.
//!
//! ```text
//! seeds s_k, Euler vectors ω_k      hashes of (seed, k): never an RNG in traversal order
//! q      = normalize(p + a·warp(p))  domain-warped spherical Voronoi
//! a, b   = the two seeds nearest q;  d = (acos(q·s_b) − acos(q·s_a)) / 2
//! n      = tangential part of s_b − s_a;  v = (ω_b − ω_a) × q
//! c      = −v·n  (> 0: converging)        shear = |v − (v·n) n|
//! U      = plate_activity · profile(d, c, crust here, crust across) + sutures
//! ```
//! Distances are measured as angles and expressed in "Earth kilometres"
//! (angle × 6371 km), as the noise wavelengths scale with the radius: every
//! planet has Earth's proportions.

mod geojson;
mod joined;
pub mod layers;
mod nearest;
mod sided;
pub use geojson::{check_cell_deg, plates_geojson, plates_geojson_cancellable};

use crate::geo::{Dir, cross, dot, normalise};
use crate::layers::{Detail, Layer, NoiseBackend, Positions};
use crate::version::Boundaries;
use mangekyo_core::hash::{fnv1a64, mix64};
pub use mangekyo_core::noise::Level;
use mangekyo_core::noise::{Fractal, Kernel, LatticeHash, Noise, NoiseParams};
use serde::Serialize;

/// Kilometres per radian of the profiles (Earth's radius).
pub const KM_PER_RADIAN: f64 = 6371.0;
/// How far the Voronoi's domain warp moves a point, in radians: bends
/// boundaries into arcs without shredding plates.
pub const PLATE_WARP: f64 = 0.22;
/// Convergence (mm/yr) at which profiles reach 5/7 of their height.
const RATE_SCALE: f64 = 40.0;
/// Beyond this distance from a boundary no profile contributes.
const PROFILE_REACH_KM: f64 = 760.0;
/// Fewest plates derived from a seed (`plate_count = 0`) ..
const DERIVED_MIN: u32 = 10;
/// .. and how many more at most.
const DERIVED_SPAN: u64 = 15;
/// Octaves of the continent field read for the crust across a boundary.
const CRUST_OCTAVES: usize = 3;
/// Old sutures (a sparser Voronoi): count and height of the worn ranges.
const SUTURES: usize = 9;
const SUTURE_M: f64 = 450.0;

/// What a plate boundary does, from the relative velocity's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundaryKind {
    /// The plates approach (convergence above 35 % of the relative speed).
    Convergent,
    /// The plates part.
    Divergent,
    /// The plates slide past each other.
    Transform,
}

impl BoundaryKind {
    /// Classifies a relative velocity by its normal (`convergence`, > 0
    /// approaching) and tangential (`shear`) parts.
    pub fn classify(convergence: f64, shear: f64) -> BoundaryKind {
        let speed = (convergence * convergence + shear * shear).sqrt();
        if convergence > 0.35 * speed && convergence > 0.0 {
            BoundaryKind::Convergent
        } else if convergence < -0.35 * speed {
            BoundaryKind::Divergent
        } else {
            BoundaryKind::Transform
        }
    }

    /// `convergent`, `divergent`, `transform`.
    pub fn name(self) -> &'static str {
        match self {
            BoundaryKind::Convergent => "convergent",
            BoundaryKind::Divergent => "divergent",
            BoundaryKind::Transform => "transform",
        }
    }
}

/// The plate layout of one planet.
#[derive(Clone, Debug)]
pub struct Plates {
    seeds: Vec<Dir>,
    /// Euler vectors, radians per million years.
    omega: Vec<Dir>,
    /// Oceanic age rank: where two oceanic plates meet, the older sinks.
    age: Vec<u64>,
    sutures: Vec<Dir>,
    warp: [Noise; 3],
    warp_amplitude: f64,
}

/// A uniform direction from two hashes.
fn hashed_dir(h: u64) -> Dir {
    let u = (h >> 11) as f64 / (1u64 << 53) as f64;
    let v = (mix64(h) >> 11) as f64 / (1u64 << 53) as f64;
    let z = 2.0 * u - 1.0;
    let r = (1.0 - z * z).max(0.0).sqrt();
    let a = std::f64::consts::TAU * v;
    normalise([r * libm::cos(a), r * libm::sin(a), z])
}

fn salted(seed: u64, purpose: &str, k: u64) -> u64 {
    mix64(mix64(seed ^ fnv1a64(purpose.as_bytes())) ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// The number of plates of a planet: `plate_count`, or (0) one derived
/// from the seed in 10 ..= 24.
pub fn plate_count(seed: u64, plate_count: u32) -> usize {
    if plate_count != 0 {
        plate_count as usize
    } else {
        (DERIVED_MIN as u64 + salted(seed, "plate-count", 0) % DERIVED_SPAN) as usize
    }
}

/// One point's plate geometry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlatePoint {
    /// The plate it lies on.
    pub plate: u16,
    /// The plate across the nearest boundary.
    pub other: u16,
    /// Distance to that boundary, Earth km.
    pub distance_km: f64,
    /// Boundary normal at the point, towards `other`.
    pub normal: Dir,
    /// Closing speed across the boundary, mm/yr (Earth scale; < 0 parting).
    pub convergence: f64,
    /// Sliding speed along the boundary, mm/yr.
    pub shear: f64,
}

impl PlatePoint {
    /// The boundary's kind.
    pub fn kind(&self) -> BoundaryKind {
        BoundaryKind::classify(self.convergence, self.shear)
    }
}

/// A point's three nearest plates ([`Plates::locate_three`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Three {
    /// The nearest plate and the second.
    pub ab: PlatePoint,
    /// The nearest plate and the third.
    pub ac: PlatePoint,
    /// Dot-product gap to the second plate, km (0 on the boundary).
    pub second: f64,
    /// Dot-product gap to the third plate, km (infinite with two plates).
    pub third: f64,
}

/// Crust on both sides of a boundary (1 continental, 0 oceanic) and which
/// side sinks where two oceanic plates meet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crust {
    /// Continental weight on this side.
    pub here: f64,
    /// Continental weight across the boundary.
    pub across: f64,
    /// Whether this side is the older oceanic plate (it sinks).
    pub here_sinks: bool,
}

#[inline]
fn smoothstep(e0: f64, e1: f64, x: f64) -> f64 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// A bell of half-width ~`width` around `centre`: (1 − t²/4)⁴ ≈ e^(−t²)
/// near the centre, exactly 0 beyond |t| = 2 (compact support, C3, and no
/// transcendental function in the hot loop).
#[inline]
fn bump(x: f64, centre: f64, width: f64) -> f64 {
    let t = (x - centre) / width;
    let a = 1.0 - 0.25 * t * t;
    if a <= 0.0 {
        0.0
    } else {
        let a2 = a * a;
        a2 * a2
    }
}

/// The distance from `q` to the bisector of seeds `sa` (nearer) and
/// `sb`, in radians, as the sine of the angle (q·(sa − sb) / |sa − sb|):
/// exactly 0 on the boundary, within 0.4 % of the angle inside the
/// profiles' reach, and free of `acos`.
#[inline]
fn bisector_distance(q: Dir, sa: Dir, sb: Dir) -> f64 {
    let t = [sa[0] - sb[0], sa[1] - sb[1], sa[2] - sb[2]];
    let len = dot(t, t).sqrt();
    if len > 0.0 {
        (dot(q, t) / len).max(0.0)
    } else {
        0.0
    }
}

/// Uplift in metres (at plate activity 1) at `x_km` from a boundary
/// closing at `convergence` mm/yr (negative: parting), by crust pair:
/// collision orogen, trench + cordillera, trench + island arc, mid-ocean
/// ridge, rift. Every profile scales with the normal speed, so pure shear
/// (a transform) gives no relief.
pub fn boundary_uplift(x_km: f64, convergence: f64, crust: Crust) -> f64 {
    if x_km >= PROFILE_REACH_KM || !convergence.is_finite() {
        return 0.0;
    }
    let x = x_km.max(0.0);
    let (ch, ca) = (crust.here.clamp(0.0, 1.0), crust.across.clamp(0.0, 1.0));
    let (oh, oa) = (1.0 - ch, 1.0 - ca);
    if convergence > 0.0 {
        let f = convergence / (0.4 * RATE_SCALE + convergence);
        // Continent–continent: a wide orogen with a plateau (Himalaya–Tibet).
        let orogen = 5200.0 * bump(x, 0.0, 260.0) + 900.0 * bump(x, 0.0, 380.0);
        // Ocean here, continent across: this side sinks into a trench.
        let trench = -3600.0 * bump(x, 45.0, 45.0);
        // Continent here, ocean across: a cordillera inland of the coast.
        let cordillera = 4300.0 * bump(x, 190.0, 110.0) + 700.0 * bump(x, 150.0, 300.0);
        // Ocean–ocean: the older side sinks, the younger grows an arc.
        let oceanic = if crust.here_sinks {
            -4000.0 * bump(x, 35.0, 40.0)
        } else {
            3900.0 * bump(x, 110.0, 45.0)
        };
        f * (ch * ca * orogen + oh * ca * trench + ch * oa * cordillera + oh * oa * oceanic)
    } else {
        let g = -convergence / (0.3 * RATE_SCALE - convergence);
        // Oceanic spreading: a broad ridge above the abyss.
        let ridge = 2400.0 * bump(x, 0.0, 320.0);
        // Continental spreading: a narrow graben with raised shoulders.
        // Shoulders broad enough to lift the floor's surroundings: rifts
        // stay valleys on land (East Africa), not sea channels.
        let rift = -300.0 * bump(x, 0.0, 40.0) + 450.0 * bump(x, 90.0, 70.0);
        g * (oh * oa * ridge + ch * ca * rift + 0.5 * (oh * ca + ch * oa) * ridge * oh)
    }
}

impl Plates {
    /// The plates of a planet (`count` from [`plate_count`]).
    pub fn new(seed: u64, radius: f64, count: usize, hash: LatticeHash) -> Plates {
        let count = count.clamp(2, u16::MAX as usize);
        let seeds = (0..count)
            .map(|k| hashed_dir(salted(seed, "plate-seed", k as u64)))
            .collect();
        let omega = (0..count)
            .map(|k| {
                let axis = hashed_dir(salted(seed, "plate-pole", k as u64));
                let h = salted(seed, "plate-speed", k as u64);
                // 0.25 .. 1.05 °/Myr: 28 .. 117 mm/yr at the equator of the pole.
                let deg = 0.25 + 0.8 * ((h >> 11) as f64 / (1u64 << 53) as f64);
                let w = deg.to_radians();
                [axis[0] * w, axis[1] * w, axis[2] * w]
            })
            .collect();
        let age = (0..count)
            .map(|k| salted(seed, "plate-age", k as u64))
            .collect();
        let sutures = (0..SUTURES)
            .map(|k| hashed_dir(salted(seed, "suture-seed", k as u64)))
            .collect();
        let warp = [0u64, 1, 2].map(|axis| {
            let params = NoiseParams {
                kernel: Kernel::Perlin,
                fractal: Fractal::Fbm,
                octaves: 2,
                frequency: 1.0 / (0.9 * radius),
                lacunarity: 2.0,
                gain: 0.5,
                seed: salted(seed, "plate-warp", axis),
                warp: None,
                hash,
            };
            // In range by construction: 2 octaves, a positive frequency.
            Noise::new(params).unwrap_or_else(|e| unreachable!("plate warp: {e}"))
        });
        Plates {
            seeds,
            omega,
            age,
            sutures,
            warp,
            warp_amplitude: PLATE_WARP,
        }
    }

    /// Plates from explicit seeds and Euler vectors (rad/Myr), unwarped:
    /// for oracles with a known answer.
    pub fn from_parts(seeds: Vec<Dir>, omega: Vec<Dir>) -> Plates {
        let count = seeds.len().min(omega.len());
        let mut p = Plates::new(0, 1.0, count.max(2), LatticeHash::Hash1);
        p.seeds = seeds.into_iter().take(count).map(normalise).collect();
        p.omega = omega.into_iter().take(count).collect();
        p.age = (0..count as u64).collect();
        p.sutures.clear();
        p.warp_amplitude = 0.0;
        p
    }

    /// Number of plates.
    pub fn len(&self) -> usize {
        self.seeds.len()
    }

    /// Whether there are none (never, for a built planet).
    pub fn is_empty(&self) -> bool {
        self.seeds.is_empty()
    }

    /// Plate `k`'s seed direction.
    pub fn seed(&self, k: usize) -> Dir {
        self.seeds[k]
    }

    /// Plate `k`'s Euler vector (radians per million years).
    pub fn omega(&self, k: usize) -> Dir {
        self.omega[k]
    }

    /// The warped positions of `dirs` (the space the Voronoi lives in).
    pub fn warped(&self, dirs: &[Dir], radius: f64, level: Level) -> Vec<Dir> {
        if self.warp_amplitude == 0.0 {
            return dirs.to_vec();
        }
        let n = dirs.len();
        let axes: [Vec<f64>; 3] =
            std::array::from_fn(|a| dirs.iter().map(|d| d[a] * radius).collect());
        let mut w = [vec![0.0f32; n], vec![0.0f32; n], vec![0.0f32; n]];
        for (noise, out) in self.warp.iter().zip(w.iter_mut()) {
            noise.fill_points3_with(level, &axes[0], &axes[1], &axes[2], out);
        }
        let a = self.warp_amplitude;
        (0..n)
            .map(|i| {
                let d = dirs[i];
                normalise([
                    d[0] + a * f64::from(w[0][i]),
                    d[1] + a * f64::from(w[1][i]),
                    d[2] + a * f64::from(w[2][i]),
                ])
            })
            .collect()
    }

    /// The plate geometry at warped position `q` (ties go to the lower
    /// plate index, so the answer is a function of `q` alone).
    pub fn locate(&self, q: Dir) -> PlatePoint {
        self.locate_among(q, 0..self.seeds.len())
    }

    /// [`Plates::locate`] searching only the plates `among` (ascending;
    /// they must hold the two nearest, as [`Plates::candidates`] does).
    fn locate_among(&self, q: Dir, among: impl IntoIterator<Item = usize>) -> PlatePoint {
        let [(a, _), (b, _)] = nearest_two(q, &self.seeds, among);
        let distance = bisector_distance(q, self.seeds[a], self.seeds[b]);
        self.motion(q, a, b, distance.max(0.0))
    }

    /// [`Plates::locate`] and, with it, the pair of the nearest plate and
    /// the third nearest, and how much nearer (as km of dot product) the
    /// nearest is than the second and than the third: both 0 at a triple
    /// junction, and the same numbers from each of its three plates.
    pub fn locate_three(&self, q: Dir) -> Three {
        let n = self.nearest_three(q, 0..self.seeds.len());
        Three {
            ab: self.pair(q, n.plates[0], n.plates[1]),
            ac: self.pair(q, n.plates[0], n.plates[2]),
            second: n.second,
            third: n.third,
        }
    }

    /// The three nearest plates of `q` among `among` (ascending; they
    /// must hold the three nearest) and the gaps of [`Three`], without the
    /// pairs' motions.
    fn nearest_three(&self, q: Dir, among: impl IntoIterator<Item = usize>) -> Nearest3 {
        let mut best = [(0usize, f64::NEG_INFINITY); 3];
        for k in among {
            let d = dot(q, self.seeds[k]);
            if d > best[0].1 {
                best = [(k, d), best[0], best[1]];
            } else if d > best[1].1 {
                best = [best[0], (k, d), best[1]];
            } else if d > best[2].1 {
                best[2] = (k, d);
            }
        }
        let [(a, da), (b, db), (c, dc)] = best;
        let (c, third) = if self.seeds.len() > 2 {
            (c, (da - dc) * KM_PER_RADIAN)
        } else {
            (b, f64::INFINITY)
        };
        Nearest3 {
            plates: [a, b, c],
            second: (da - db) * KM_PER_RADIAN,
            third,
        }
    }

    /// The plates that can be among the `k` nearest of any of the warped
    /// positions `q` (see `nearest.rs`).
    fn candidates(&self, q: &[Dir], k: usize) -> Vec<usize> {
        nearest::candidates(q, &self.seeds, k)
    }

    /// The sutures that can be among the two nearest of any of `q`.
    fn suture_candidates(&self, q: &[Dir]) -> Vec<usize> {
        nearest::candidates(q, &self.sutures, 2)
    }

    /// Whether a boundary of the kind `kind` lies within `km` of warped
    /// position `q` (any plate pair, not only the nearest boundary).
    pub fn boundary_within(&self, q: Dir, km: f64, kind: BoundaryKind) -> bool {
        let here = self.locate(q);
        let a = here.plate as usize;
        for b in 0..self.seeds.len() {
            if b == a {
                continue;
            }
            let d = bisector_distance(q, self.seeds[a], self.seeds[b]);
            if d * KM_PER_RADIAN > km {
                continue;
            }
            let p = self.pair(q, a, b);
            if p.kind() == kind {
                return true;
            }
        }
        false
    }

    /// The relative motion of plates `a` and `b` at `q`, as for the
    /// nearest pair in [`Plates::locate`].
    pub fn pair(&self, q: Dir, a: usize, b: usize) -> PlatePoint {
        let distance = bisector_distance(q, self.seeds[a], self.seeds[b]);
        self.motion(q, a, b, distance)
    }

    /// [`Plates::pair`] where the boundary lies within the profiles' reach
    /// ([`PROFILE_REACH_KM`]): beyond it no profile reads the motion.
    fn pair_within(&self, q: Dir, a: usize, b: usize) -> Option<PlatePoint> {
        let distance = bisector_distance(q, self.seeds[a], self.seeds[b]);
        (distance * KM_PER_RADIAN < PROFILE_REACH_KM).then(|| self.motion(q, a, b, distance))
    }

    /// Plates `a` and `b` at `q` with the boundary `distance` (radians)
    /// away: the boundary normal and their relative velocity split into
    /// convergence and shear.
    fn motion(&self, q: Dir, a: usize, b: usize, distance: f64) -> PlatePoint {
        let (sa, sb) = (self.seeds[a], self.seeds[b]);
        let t = [sb[0] - sa[0], sb[1] - sa[1], sb[2] - sa[2]];
        let tq = dot(t, q);
        let n = [t[0] - tq * q[0], t[1] - tq * q[1], t[2] - tq * q[2]];
        let len = dot(n, n).sqrt();
        let normal = if len > 0.0 {
            [n[0] / len, n[1] / len, n[2] / len]
        } else {
            [0.0; 3]
        };
        let (wa, wb) = (self.omega[a], self.omega[b]);
        let v = cross([wb[0] - wa[0], wb[1] - wa[1], wb[2] - wa[2]], q);
        let vn = dot(v, normal);
        let tangential = [
            v[0] - vn * normal[0],
            v[1] - vn * normal[1],
            v[2] - vn * normal[2],
        ];
        PlatePoint {
            plate: a as u16,
            other: b as u16,
            distance_km: distance * KM_PER_RADIAN,
            normal,
            convergence: -vn * KM_PER_RADIAN,
            shear: dot(tangential, tangential).sqrt() * KM_PER_RADIAN,
        }
    }

    /// Whether plate `a` sinks under `b` where both are oceanic.
    pub fn sinks(&self, a: usize, b: usize) -> bool {
        (self.age[a], a) > (self.age[b], b)
    }

    /// The worn ranges of old sutures at warped position `q`, metres at
    /// plate activity 1 (before the continental mask).
    pub fn suture(&self, q: Dir) -> f64 {
        self.suture_among(q, 0..self.sutures.len())
    }

    /// [`Plates::suture`] searching only the sutures `among` (ascending;
    /// they must hold the two nearest).
    fn suture_among(&self, q: Dir, among: impl IntoIterator<Item = usize>) -> f64 {
        if self.sutures.len() < 2 {
            return 0.0;
        }
        let [(a, _), (b, _)] = nearest_two(q, &self.sutures, among);
        let x = bisector_distance(q, self.sutures[a], self.sutures[b]);
        SUTURE_M * bump(x * KM_PER_RADIAN, 0.0, 110.0)
    }
}

/// The two seeds nearest `q` among `among` (ascending) with their dot
/// products; ties go to the lower index. Starts from seeds 0 and 1, as
/// every search over all seeds did.
#[inline]
fn nearest_two(q: Dir, seeds: &[Dir], among: impl IntoIterator<Item = usize>) -> [(usize, f64); 2] {
    let (mut a, mut b) = (0usize, 1usize);
    let (mut da, mut db) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for k in among {
        let d = dot(q, seeds[k]);
        if d > da {
            (b, db) = (a, da);
            (a, da) = (k, d);
        } else if d > db {
            (b, db) = (k, d);
        }
    }
    [(a, da), (b, db)]
}

/// A point's three nearest plates and the gaps of [`Three`].
#[derive(Clone, Copy, Debug)]
struct Nearest3 {
    plates: [usize; 3],
    second: f64,
    third: f64,
}

/// Per-sample geology of a block: what the height and the `plate` and
/// `uplift` layers are made of.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GeologySamples {
    /// Plate id of each sample.
    pub plate: Vec<u16>,
    /// Tectonic uplift in metres (negative in trenches and rifts), scaled
    /// by plate activity.
    pub uplift: Vec<f32>,
}

/// The land field's continental weight: 1 well inland, 0 off the shelf.
#[inline]
pub(crate) fn continental(land: f32) -> f64 {
    smoothstep(-0.05, 0.03, f64::from(land))
}

/// What every boundary treatment reads besides the block itself: the
/// plates, the noise they sample the crust with, and the planet's scale.
#[derive(Clone, Copy)]
pub(crate) struct UpliftInputs<'a> {
    pub(crate) plates: &'a Plates,
    pub(crate) backend: &'a dyn NoiseBackend,
    pub(crate) detail: &'a Detail,
    /// The continent field's land threshold.
    pub(crate) threshold: f32,
    /// `plate_activity`.
    pub(crate) activity: f64,
    /// Planet radius, metres.
    pub(crate) radius: f64,
    pub(crate) level: Level,
}

/// Uplift and plates of a block of directions. `land` is the land field
/// (continent − threshold) at `dirs`.
pub(crate) fn uplift_block(
    boundaries: Boundaries,
    inputs: &UpliftInputs<'_>,
    dirs: &[Dir],
    land: &[f32],
    out: &mut GeologySamples,
) {
    match boundaries {
        Boundaries::Sided => sided::uplift_block_sided(inputs, dirs, land, out),
        Boundaries::Joined => joined::uplift_block_joined(inputs, dirs, land, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONT: Crust = Crust {
        here: 1.0,
        across: 1.0,
        here_sinks: false,
    };
    const OCEAN: Crust = Crust {
        here: 0.0,
        across: 0.0,
        here_sinks: false,
    };

    /// Two plates whose seeds sit at longitudes ∓10° on the equator: the
    /// boundary is the meridian 0°, its normal (from plate 0 to 1) +y.
    fn pair(w0: Dir, w1: Dir) -> Plates {
        let s = 10f64.to_radians();
        Plates::from_parts(
            vec![
                [libm::cos(s), -libm::sin(s), 0.0],
                [libm::cos(s), libm::sin(s), 0.0],
            ],
            vec![w0, w1],
        )
    }

    /// A point on the equator at longitude `deg`.
    fn at(deg: f64) -> Dir {
        let r = deg.to_radians();
        [libm::cos(r), libm::sin(r), 0.0]
    }

    fn uplift(plates: &Plates, deg: f64, crust: Crust) -> f64 {
        let p = plates.locate(at(deg));
        boundary_uplift(p.distance_km, p.convergence, crust)
    }

    const W: f64 = 0.012; // rad/Myr: 76 mm/yr at the equator.

    #[test]
    fn head_on_convergence_raises_mountains() {
        // Plate 0 turns about +z (moves east, +y), plate 1 about −z: head-on.
        let plates = pair([0.0, 0.0, W], [0.0, 0.0, -W]);
        let p = plates.locate(at(-0.5));
        assert_eq!(p.kind(), BoundaryKind::Convergent, "{p:?}");
        assert!(p.convergence > 100.0, "{p:?}");
        for deg in [-2.0, -0.5, 0.3, 1.5] {
            let u = uplift(&plates, deg, CONT);
            assert!(u > 1000.0, "collision at {deg}°: {u}");
        }
        // Ocean under continent: a trench on the ocean side, a cordillera inland.
        let trench = Crust {
            here: 0.0,
            across: 1.0,
            here_sinks: true,
        };
        assert!(uplift(&plates, -0.4, trench) < -1000.0);
        let cordillera = Crust {
            here: 1.0,
            across: 0.0,
            here_sinks: false,
        };
        assert!(uplift(&plates, 1.7, cordillera) > 1000.0);
    }

    #[test]
    fn divergence_makes_a_ridge_at_sea_and_a_rift_on_land() {
        let plates = pair([0.0, 0.0, -W], [0.0, 0.0, W]);
        let p = plates.locate(at(0.2));
        assert_eq!(p.kind(), BoundaryKind::Divergent, "{p:?}");
        assert!(uplift(&plates, 0.2, OCEAN) > 1000.0, "ridge");
        assert!(uplift(&plates, 0.1, CONT) < -150.0, "rift floor");
        assert!(uplift(&plates, 0.9, CONT) > 100.0, "rift shoulder");
    }

    #[test]
    fn pure_shear_makes_no_relief() {
        // Both turn about the boundary's own normal axis (+y), oppositely:
        // the relative velocity at the equator is along ±z, in the boundary.
        let plates = pair([0.0, W, 0.0], [0.0, -W, 0.0]);
        for deg in [-3.0, -0.2, 0.2, 3.0] {
            let p = plates.locate(at(deg));
            assert_eq!(p.kind(), BoundaryKind::Transform, "{p:?}");
            assert!(p.shear > 100.0, "{p:?}");
            for crust in [CONT, OCEAN] {
                let u = boundary_uplift(p.distance_km, p.convergence, crust);
                assert!(u.abs() < 1e-6, "{deg}°: {u}");
            }
        }
    }

    #[test]
    fn derived_plate_counts_stay_in_range() {
        for seed in 0..200 {
            assert!((10..=24).contains(&plate_count(seed, 0)));
        }
        assert_eq!(plate_count(5, 31), 31);
    }
}
