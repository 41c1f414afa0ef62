//! Wavefront OBJ for plain triangle meshes: one `o` per mesh, positions
//! (with the mesh's translation applied, in f64), optional vertex colours
//! as the common `v x y z r g b` extension, optional normals, and faces
//! numbered across the whole file. Extra attributes have no place in OBJ
//! and are left out.

use std::fmt::Write;

use crate::gltf::{MeshData, MeshError};

/// Encodes meshes as OBJ text.
pub fn encode_obj(meshes: &[MeshData], header: &str) -> Result<String, MeshError> {
    for m in meshes {
        m.validate()?;
    }
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "# {line}");
    }
    let mut base = 1usize;
    for m in meshes {
        write_mesh(&mut out, m, base);
        base += m.positions.len();
    }
    Ok(out)
}

fn write_mesh(out: &mut String, m: &MeshData, base: usize) {
    let _ = writeln!(out, "o {}", m.name.replace(char::is_whitespace, "_"));
    for (n, p) in m.positions.iter().enumerate() {
        let w: [f64; 3] = std::array::from_fn(|a| m.translation[a] + p[a] as f64);
        let _ = write!(out, "v {} {} {}", w[0], w[1], w[2]);
        if let Some(c) = m.colors {
            let _ = write!(out, " {} {} {}", c[n][0], c[n][1], c[n][2]);
        }
        out.push('\n');
    }
    if let Some(normals) = m.normals {
        for v in normals {
            let _ = writeln!(out, "vn {} {} {}", v[0], v[1], v[2]);
        }
    }
    for t in m.indices.chunks_exact(3) {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize + base);
        if m.normals.is_some() {
            let _ = writeln!(out, "f {a}//{a} {b}//{b} {c}//{c}");
        } else {
            let _ = writeln!(out, "f {a} {b} {c}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_are_numbered_across_meshes_and_translated() {
        let p = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let n = [[0.0f32, 0.0, 1.0]; 3];
        let m = MeshData {
            name: "chunk a",
            positions: &p,
            normals: Some(&n),
            colors: None,
            extras: &[],
            indices: &[0, 1, 2],
            translation: [10.0, 0.0, 0.0],
        };
        let text = encode_obj(
            &[
                m,
                MeshData {
                    normals: None,
                    translation: [0.0; 3],
                    ..m
                },
            ],
            "two\nlines",
        )
        .unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(&lines[..3], ["# two", "# lines", "o chunk_a"]);
        assert!(lines.contains(&"v 11 0 0"));
        assert!(lines.contains(&"f 1//1 2//2 3//3"));
        assert_eq!(lines.last(), Some(&"f 4 5 6"));
        assert_eq!(lines.iter().filter(|l| l.starts_with("v ")).count(), 6);
    }
}
