//! Blocky meshes: a unit cube centred on every rock voxel, only the faces
//! that touch air, and coplanar faces of equal sky merged into rectangles
//! (greedy meshing).
//!
//! A face belongs to the box that owns its rock voxel, so neighbouring
//! chunks never both draw, nor both miss, the face between them. Each face
//! takes the sky of the air voxel in front of it, quantised to 1/255 so
//! that faces can merge.
//!
//! Speed: one byte per sample marks rock, the faces of a direction are one
//! vectorised pass over two offset byte slices, found by a memory-order
//! scan that skips eight samples at a time, put in each slice's mask order
//! by a counting sort, and merged visiting only those faces. (The first
//! version
//! tested faces through `[usize; 3]` positions indexed by a runtime axis —
//! six tests per voxel, each a store-forwarding stall and three bounds
//! checks — which made it cost the same ~200k slow tests per chunk however
//! few faces there were — and rescanned every slice's whole mask to merge.)

use super::smooth::rock_bytes;
use super::{Mesh, Mesher, box_open_heights, origin_of};
use crate::chunk::{Density, Samples};
use crate::field::CaveField;
use crate::sky::sky_at;

/// Meshes a sampled box with greedy blocky faces.
pub fn blocky(field: &CaveField, samples: &Samples) -> Mesh {
    let mut mesh = Mesh::default();
    Mesher::new().blocky_into(field, samples, &mut mesh);
    mesh
}

/// Greedy blocky faces of `samples` into `mesh` (cleared first), with the
/// mesher's buffers.
pub(super) fn blocky_into(m: &mut Mesher, field: &CaveField, samples: &Samples, mesh: &mut Mesh) {
    mesh.reset(origin_of(samples));
    let Density::Grid(d) = &samples.density else {
        return;
    };
    let size = samples.bounds.size;
    if size.iter().any(|&n| n < 3) {
        return;
    }
    rock_bytes(d, &mut m.rock);
    let faces = Faces {
        rock: &m.rock,
        size,
        stride: [1, size[0], size[0] * size[1]],
        open: box_open_heights(field, samples),
        y0: samples.bounds.min[1],
    };
    // Directions in the order -x, +x, -y, +y, -z, +z.
    for (d, found) in m.found.iter_mut().enumerate() {
        faces.face_bytes(d / 2, d % 2 == 1, &mut m.face);
        faces.find_faces(d / 2, d % 2 == 1, &m.face, found);
    }
    // Merging leaves at most one quad per face, about one per two here.
    let faces_total: usize = m.found.iter().map(Vec::len).sum();
    mesh.positions.reserve(2 * faces_total);
    mesh.normals.reserve(2 * faces_total);
    mesh.sky.reserve(2 * faces_total);
    mesh.indices.reserve(3 * faces_total);
    let mut work = Work {
        mask: &mut m.mask,
        start: &mut m.start,
        next: &mut m.next,
        bucketed: &mut m.bucketed,
    };
    for (d, found) in m.found.iter().enumerate() {
        faces.direction(d / 2, d % 2 == 1, found, &mut work, mesh);
    }
}

/// Working memory of the merge (the mesher's buffers).
struct Work<'a> {
    /// The current slice's face keys (`jc · nb + jb`), 0 for no face;
    /// all 0 between slices (the merge consumes every face).
    mask: &'a mut Vec<u16>,
    /// Per (slice, mask row) group, where its faces start in `bucketed`
    /// (one more entry).
    start: &'a mut Vec<u32>,
    /// The counting sort's running positions.
    next: &'a mut Vec<u32>,
    /// The faces grouped by slice and mask row: mask index and key.
    bucketed: &'a mut Vec<(u32, u16)>,
}

/// A face found in the memory-order scan: its slice, mask index and key.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Found {
    slice: u32,
    at: u32,
    key: u16,
}

/// The sampled grid, for face queries.
struct Faces<'a> {
    /// 1 where the sample is rock.
    rock: &'a [u8],
    size: [usize; 3],
    /// Linear strides of the samples along x, y, z.
    stride: [usize; 3],
    open: Vec<f32>,
    y0: i64,
}

impl Faces<'_> {
    /// The face key of a face whose air voxel is box voxel `u`: 1 + its
    /// sky byte.
    fn key(&self, u: [usize; 3]) -> u16 {
        let sky = sky_at(
            self.open[u[2] * self.size[0] + u[0]],
            (self.y0 + u[1] as i64) as f64,
        );
        // sky ∈ [0, 1]: truncating x + ½ rounds to nearest.
        1 + (sky * 255.0 + 0.5) as u16
    }

    /// All merged faces facing `±axis`: the faces found in memory order,
    /// grouped by slice, each slice merged.
    fn direction(
        &self,
        axis: usize,
        positive: bool,
        found: &[Found],
        work: &mut Work,
        mesh: &mut Mesh,
    ) {
        let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
        let (nb, nc) = (self.size[b] - 2, self.size[c] - 2);
        // Group by (slice, mask row) with a stable counting sort: within a
        // mask row the memory order of every axis is increasing jb, so the
        // groups list each slice's faces in mask order.
        let slices = self.size[axis];
        let group = |f: &Found| f.slice as usize * nc + f.at as usize / nb;
        work.start.clear();
        work.start.resize(slices * nc + 1, 0);
        for f in found {
            work.start[group(f) + 1] += 1;
        }
        for n in 1..work.start.len() {
            work.start[n] += work.start[n - 1];
        }
        work.bucketed.clear();
        work.bucketed.resize(found.len(), (0, 0));
        work.next.clear();
        work.next.extend_from_slice(work.start);
        for f in found {
            let slot = &mut work.next[group(f)];
            work.bucketed[*slot as usize] = (f.at, f.key);
            *slot += 1;
        }
        work.mask.clear();
        work.mask.resize(nb * nc, 0);
        for s in 1..slices - 1 {
            let listed =
                &work.bucketed[work.start[s * nc] as usize..work.start[(s + 1) * nc] as usize];
            for &(at, key) in listed {
                work.mask[at as usize] = key;
            }
            merge(work.mask, listed, nb, nc, |rect| {
                emit(mesh, axis, positive, s, rect)
            });
        }
    }

    /// Every face of the direction, in memory order, skipping eight
    /// samples at a time where there is none.
    fn find_faces(&self, axis: usize, positive: bool, face: &[u8], found: &mut Vec<Found>) {
        let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
        let nb = self.size[b] - 2;
        let [nx, ny, nz] = self.size;
        found.clear();
        for k in 1..nz - 1 {
            for j in 1..ny - 1 {
                let row = k * self.stride[2] + j * self.stride[1] + 1;
                let bytes = &face[row..row + nx - 2];
                let words = bytes.chunks_exact(8);
                let tail = words.remainder();
                let mut push = |i: usize| {
                    let v = [1 + i, j, k];
                    let mut u = v;
                    u[axis] = if positive { v[axis] + 1 } else { v[axis] - 1 };
                    found.push(Found {
                        slice: v[axis] as u32,
                        at: ((v[c] - 1) * nb + v[b] - 1) as u32,
                        key: self.key(u),
                    });
                };
                for (w, word) in words.enumerate() {
                    let mut bits = u64::from_le_bytes(word.try_into().unwrap_or_default());
                    while bits != 0 {
                        let t = (bits.trailing_zeros() / 8) as usize;
                        bits &= !(0xff << (8 * t));
                        push(8 * w + t);
                    }
                }
                let done = bytes.len() - tail.len();
                for (t, &f) in tail.iter().enumerate() {
                    if f != 0 {
                        push(done + t);
                    }
                }
            }
        }
    }

    /// `face[p] = 1` where sample `p` is rock and its neighbour along
    /// `±axis` air, for every `p` whose neighbour is in the box (the
    /// others are padding, never read, so left as they are): one pass over
    /// two offset byte slices.
    fn face_bytes(&self, axis: usize, positive: bool, face: &mut Vec<u8>) {
        let (n, off) = (self.rock.len(), self.stride[axis]);
        face.resize(n, 0);
        let (here, there, out) = if positive {
            (
                &self.rock[..n - off],
                &self.rock[off..],
                &mut face[..n - off],
            )
        } else {
            (&self.rock[off..], &self.rock[..n - off], &mut face[off..])
        };
        for ((o, &h), &t) in out.iter_mut().zip(here).zip(there) {
            *o = h & (t ^ 1);
        }
    }
}

/// A merged rectangle of one slice: `b0..b1 × c0..c1` (owned-voxel units)
/// with its face key.
#[derive(Clone, Copy, Debug)]
struct Rect {
    b0: usize,
    b1: usize,
    c0: usize,
    c1: usize,
    key: u16,
}

/// Greedy merge: take the first unmerged face in row order (the listed
/// faces, in mask order), grow it along b while the key matches, then
/// along c while whole rows match. Work grows with the faces, not with
/// the slice.
fn merge(mask: &mut [u16], listed: &[(u32, u16)], nb: usize, nc: usize, mut out: impl FnMut(Rect)) {
    for &(at, _) in listed {
        let at = at as usize;
        let key = mask[at];
        if key == 0 {
            continue;
        }
        let (jc, jb) = (at / nb, at % nb);
        let mut b1 = jb + 1;
        while b1 < nb && mask[jc * nb + b1] == key {
            b1 += 1;
        }
        let mut c1 = jc + 1;
        while c1 < nc && mask[c1 * nb + jb..c1 * nb + b1].iter().all(|&k| k == key) {
            c1 += 1;
        }
        for row in jc..c1 {
            mask[row * nb + jb..row * nb + b1].fill(0);
        }
        out(Rect {
            b0: jb,
            b1,
            c0: jc,
            c1,
            key,
        });
    }
}

/// Appends one rectangle as a quad. Owned voxel `s` (box index) has local
/// coordinate `s − 1`; its cube spans ±½ around it.
fn emit(mesh: &mut Mesh, axis: usize, positive: bool, s: usize, r: Rect) {
    let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
    let plane = s as f32 - 1.0 + if positive { 0.5 } else { -0.5 };
    let corner = |pb: usize, pc: usize| {
        let mut p = [0.0f32; 3];
        p[axis] = plane;
        p[b] = pb as f32 - 0.5;
        p[c] = pc as f32 - 0.5;
        p
    };
    // Counter-clockwise seen from +axis; reversed for faces facing −axis.
    let mut quad = [
        corner(r.b0, r.c0),
        corner(r.b1, r.c0),
        corner(r.b1, r.c1),
        corner(r.b0, r.c1),
    ];
    if !positive {
        quad.reverse();
    }
    let mut n = [0.0f32; 3];
    n[axis] = if positive { 1.0 } else { -1.0 };
    let base = mesh.positions.len() as u32;
    let sky = (r.key - 1) as f32 / 255.0;
    for p in quad {
        mesh.positions.push(p);
        mesh.normals.push(n);
        mesh.sky.push(sky);
    }
    mesh.indices
        .extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
}
