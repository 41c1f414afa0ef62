//! Blocky meshes: a unit cube centred on every rock voxel, only the faces
//! that touch air, and coplanar faces of equal sky merged into rectangles
//! (greedy meshing).
//!
//! A face belongs to the box that owns its rock voxel, so neighbouring
//! chunks never both draw, nor both miss, the face between them. Each face
//! takes the sky of the air voxel in front of it, quantised to 1/255 so
//! that faces can merge.

use super::{Mesh, box_open_heights, origin_of};
use crate::chunk::{Density, Samples};
use crate::field::CaveField;
use crate::sky::sky_at;

/// Meshes a sampled box with greedy blocky faces.
pub fn blocky(field: &CaveField, samples: &Samples) -> Mesh {
    let origin = origin_of(samples);
    let mut mesh = Mesh {
        origin,
        ..Mesh::default()
    };
    let Density::Grid(d) = &samples.density else {
        return mesh;
    };
    let size = samples.bounds.size;
    if size.iter().any(|&n| n < 3) {
        return mesh;
    }
    let open = box_open_heights(field, samples);
    let faces = Faces {
        d,
        size,
        open: &open,
        y0: samples.bounds.min[1],
    };
    for axis in 0..3 {
        for positive in [false, true] {
            faces.direction(axis, positive, &mut mesh);
        }
    }
    mesh
}

/// The sampled grid, for face queries.
struct Faces<'a> {
    d: &'a [f32],
    size: [usize; 3],
    open: &'a [f32],
    y0: i64,
}

impl Faces<'_> {
    fn solid(&self, v: [usize; 3]) -> bool {
        self.d[(v[2] * self.size[1] + v[1]) * self.size[0] + v[0]] > 0.0
    }

    /// 0 for no face, else 1 + the sky byte of the air voxel in front.
    fn key(&self, v: [usize; 3], axis: usize, positive: bool) -> u16 {
        let mut u = v;
        if positive {
            u[axis] += 1
        } else {
            u[axis] -= 1
        }
        if !self.solid(v) || self.solid(u) {
            return 0;
        }
        let open = self.open[u[2] * self.size[0] + u[0]];
        let sky = sky_at(open, (self.y0 + u[1] as i64) as f64);
        1 + (sky * 255.0).round() as u16
    }

    /// All merged faces facing `±axis`, slice by slice.
    fn direction(&self, axis: usize, positive: bool, mesh: &mut Mesh) {
        let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
        let (nb, nc) = (self.size[b] - 2, self.size[c] - 2);
        let mut mask = vec![0u16; nb * nc];
        for s in 1..self.size[axis] - 1 {
            for jc in 0..nc {
                for jb in 0..nb {
                    let mut v = [0; 3];
                    (v[axis], v[b], v[c]) = (s, jb + 1, jc + 1);
                    mask[jc * nb + jb] = self.key(v, axis, positive);
                }
            }
            merge(&mut mask, nb, nc, |rect| {
                emit(mesh, axis, positive, s, rect)
            });
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

/// Greedy merge: take the first unmerged face in row order, grow it along
/// b while the key matches, then along c while whole rows match.
fn merge(mask: &mut [u16], nb: usize, nc: usize, mut out: impl FnMut(Rect)) {
    for jc in 0..nc {
        let mut jb = 0;
        while jb < nb {
            let key = mask[jc * nb + jb];
            if key == 0 {
                jb += 1;
                continue;
            }
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
            jb = b1;
        }
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
