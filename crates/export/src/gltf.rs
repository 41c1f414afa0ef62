//! glTF 2.0 binary (`.glb`) for plain triangle meshes: positions, normals,
//! vertex colours and extra scalar attributes, one node per mesh.
//!
//! The JSON part is built from `gltf-json`'s typed structs (so the field
//! names and enums are the specification's); the GLB container around it
//! — a 12-byte header, a JSON chunk padded with spaces, a BIN chunk padded
//! with zeros, all 4-byte aligned — is written here.

use gltf_json as json;
use json::validation::Checked::Valid;
use json::validation::USize64;

/// One mesh, as plain slices. Every per-vertex slice has
/// `positions.len()` entries.
#[derive(Clone, Copy, Debug)]
pub struct MeshData<'a> {
    /// Name of the mesh and its node.
    pub name: &'a str,
    /// Vertex positions.
    pub positions: &'a [[f32; 3]],
    /// Unit vertex normals, if any.
    pub normals: Option<&'a [[f32; 3]]>,
    /// Linear RGB vertex colours in [0, 1] (`COLOR_0`), if any.
    pub colors: Option<&'a [[f32; 3]]>,
    /// Extra scalar attributes: (name, values). In glTF the name gets a
    /// leading `_` (application-specific semantics, e.g. `_SKY`).
    pub extras: &'a [(&'a str, &'a [f32])],
    /// Triangle list, three indices per triangle.
    pub indices: &'a [u32],
    /// Where the node puts the mesh (added to every position).
    pub translation: [f64; 3],
}

/// Why a mesh cannot be written.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MeshError {
    /// A per-vertex slice has the wrong length.
    #[error("mesh `{mesh}`: {attribute} has {got} entries, expected {expected} (one per vertex)")]
    AttributeLength {
        /// The mesh.
        mesh: String,
        /// The attribute (`normals`, `colors`, an extra's name).
        attribute: String,
        /// Entries given.
        got: usize,
        /// Vertices.
        expected: usize,
    },
    /// The index list is not whole triangles, or points past the vertices.
    #[error("mesh `{mesh}`: {what}")]
    Indices {
        /// The mesh.
        mesh: String,
        /// What is wrong.
        what: String,
    },
    /// A position is NaN or infinite.
    #[error("mesh `{mesh}`: vertex {vertex} has a non-finite position")]
    NonFinite {
        /// The mesh.
        mesh: String,
        /// The vertex.
        vertex: usize,
    },
    /// The JSON could not be serialised.
    #[error("glTF JSON: {0}")]
    Json(String),
}

impl MeshData<'_> {
    /// Checks lengths, indices and positions.
    pub fn validate(&self) -> Result<(), MeshError> {
        let n = self.positions.len();
        let name = || self.name.to_string();
        let check = |attribute: &str, got: usize| {
            if got == n {
                Ok(())
            } else {
                Err(MeshError::AttributeLength {
                    mesh: name(),
                    attribute: attribute.into(),
                    got,
                    expected: n,
                })
            }
        };
        if let Some(v) = self.normals {
            check("normals", v.len())?;
        }
        if let Some(v) = self.colors {
            check("colors", v.len())?;
        }
        for (extra, v) in self.extras {
            check(extra, v.len())?;
        }
        if !self.indices.len().is_multiple_of(3) {
            return Err(MeshError::Indices {
                mesh: name(),
                what: format!("{} indices is not whole triangles", self.indices.len()),
            });
        }
        if let Some(bad) = self.indices.iter().find(|&&i| i as usize >= n) {
            return Err(MeshError::Indices {
                mesh: name(),
                what: format!("index {bad} is past the {n} vertices"),
            });
        }
        if let Some(vertex) = self
            .positions
            .iter()
            .position(|p| !p.iter().all(|c| c.is_finite()))
        {
            return Err(MeshError::NonFinite {
                mesh: name(),
                vertex,
            });
        }
        Ok(())
    }
}

/// The BIN chunk being built, and the views and accessors into it.
struct Builder {
    root: json::Root,
    bin: Vec<u8>,
}

impl Builder {
    /// Appends bytes as a buffer view (4-byte aligned).
    fn view(
        &mut self,
        bytes: &[u8],
        target: json::buffer::Target,
    ) -> json::Index<json::buffer::View> {
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.bin.resize(self.bin.len().next_multiple_of(4), 0);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: Some(Valid(target)),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// A float accessor of `width` components per vertex.
    fn floats(
        &mut self,
        values: &[f32],
        width: usize,
        bounds: bool,
    ) -> json::Index<json::Accessor> {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let view = self.view(&bytes, json::buffer::Target::ArrayBuffer);
        let (min, max) = if bounds {
            min_max(values, width)
        } else {
            (None, None)
        };
        let type_ = match width {
            1 => json::accessor::Type::Scalar,
            2 => json::accessor::Type::Vec2,
            _ => json::accessor::Type::Vec3,
        };
        self.accessor(
            view,
            values.len() / width,
            json::accessor::ComponentType::F32,
            type_,
            min,
            max,
        )
    }

    fn accessor(
        &mut self,
        view: json::Index<json::buffer::View>,
        count: usize,
        component: json::accessor::ComponentType,
        type_: json::accessor::Type,
        min: Option<json::Value>,
        max: Option<json::Value>,
    ) -> json::Index<json::Accessor> {
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: Some(USize64(0)),
            count: USize64::from(count),
            component_type: Valid(json::accessor::GenericComponentType(component)),
            extensions: None,
            extras: Default::default(),
            type_: Valid(type_),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    /// One mesh: its accessors, primitive, mesh and node.
    fn mesh(
        &mut self,
        m: &MeshData,
        material: json::Index<json::Material>,
    ) -> json::Index<json::Node> {
        use json::mesh::Semantic;
        let mut attributes = std::collections::BTreeMap::new();
        let pos = self.floats(m.positions.as_flattened(), 3, true);
        attributes.insert(Valid(Semantic::Positions), pos);
        if let Some(n) = m.normals {
            attributes.insert(
                Valid(Semantic::Normals),
                self.floats(n.as_flattened(), 3, false),
            );
        }
        if let Some(c) = m.colors {
            attributes.insert(
                Valid(Semantic::Colors(0)),
                self.floats(c.as_flattened(), 3, false),
            );
        }
        for (name, values) in m.extras {
            attributes.insert(
                Valid(Semantic::Extras(name.to_string())),
                self.floats(values, 1, false),
            );
        }
        let bytes: Vec<u8> = m.indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let view = self.view(&bytes, json::buffer::Target::ElementArrayBuffer);
        let scalar = json::accessor::Type::Scalar;
        let indices = self.accessor(
            view,
            m.indices.len(),
            json::accessor::ComponentType::U32,
            scalar,
            None,
            None,
        );
        let primitive = json::mesh::Primitive {
            attributes,
            extensions: None,
            extras: Default::default(),
            indices: Some(indices),
            material: Some(material),
            mode: Valid(json::mesh::Mode::Triangles),
            targets: None,
        };
        let mesh = self.root.push(json::Mesh {
            extensions: None,
            extras: Default::default(),
            name: Some(m.name.to_string()),
            primitives: vec![primitive],
            weights: None,
        });
        self.root.push(json::Node {
            mesh: Some(mesh),
            name: Some(m.name.to_string()),
            translation: Some(m.translation.map(|v| v as f32)),
            ..Default::default()
        })
    }
}

/// Per-component minimum and maximum (glTF requires them on POSITION).
fn min_max(values: &[f32], width: usize) -> (Option<json::Value>, Option<json::Value>) {
    if values.is_empty() {
        return (
            Some(json::Value::from(vec![0.0f32; width])),
            Some(json::Value::from(vec![0.0f32; width])),
        );
    }
    let mut lo = vec![f32::INFINITY; width];
    let mut hi = vec![f32::NEG_INFINITY; width];
    for v in values.chunks_exact(width) {
        for a in 0..width {
            lo[a] = lo[a].min(v[a]);
            hi[a] = hi[a].max(v[a]);
        }
    }
    (Some(json::Value::from(lo)), Some(json::Value::from(hi)))
}

/// The one material: matte white, lit, so vertex colours show as given.
fn matte() -> json::Material {
    json::Material {
        name: Some("matte".into()),
        pbr_metallic_roughness: json::material::PbrMetallicRoughness {
            metallic_factor: json::material::StrengthFactor(0.0),
            roughness_factor: json::material::StrengthFactor(1.0),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// Encodes meshes as one `.glb`: a scene with one node per mesh.
pub fn encode_glb(meshes: &[MeshData], generator: &str) -> Result<Vec<u8>, MeshError> {
    for m in meshes {
        m.validate()?;
    }
    let mut b = Builder {
        root: json::Root::default(),
        bin: Vec::new(),
    };
    b.root.asset = json::Asset {
        generator: Some(generator.to_string()),
        version: "2.0".into(),
        ..Default::default()
    };
    let material = b.root.push(matte());
    let nodes: Vec<_> = meshes.iter().map(|m| b.mesh(m, material)).collect();
    let scene = b.root.push(json::Scene {
        extensions: None,
        extras: Default::default(),
        name: None,
        nodes,
    });
    b.root.scene = Some(scene);
    b.root.push(json::Buffer {
        byte_length: USize64::from(b.bin.len()),
        name: None,
        uri: None,
        extensions: None,
        extras: Default::default(),
    });
    let mut text = b
        .root
        .to_vec()
        .map_err(|e| MeshError::Json(e.to_string()))?;
    text.resize(text.len().next_multiple_of(4), b' ');
    Ok(container(&text, &b.bin))
}

/// The GLB container: header, JSON chunk, BIN chunk.
fn container(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tetra() -> (Vec<[f32; 3]>, Vec<[f32; 3]>, Vec<u32>) {
        let p = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 2.5],
        ];
        let n = vec![[0.0, 1.0, 0.0]; 4];
        (p, n, vec![0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3])
    }

    #[test]
    fn glb_reads_back_with_the_gltf_crate() {
        let (p, n, i) = tetra();
        let sky = [0.0, 0.25, 0.5, 1.0];
        let colors = vec![[0.5, 0.4, 0.3]; 4];
        let extras = [("SKY", &sky[..])];
        let meshes = [
            MeshData {
                name: "a",
                positions: &p,
                normals: Some(&n),
                colors: Some(&colors),
                extras: &extras,
                indices: &i,
                translation: [32.0, 0.0, -32.0],
            },
            MeshData {
                name: "b",
                positions: &p[..3],
                normals: None,
                colors: None,
                extras: &[],
                indices: &i[..3],
                translation: [0.0; 3],
            },
        ];
        let bytes = encode_glb(&meshes, "test").unwrap();
        assert_eq!(bytes.len() % 4, 0);
        let (doc, buffers, _) = gltf::import_slice(&bytes).unwrap();
        assert_eq!(doc.meshes().count(), 2);
        let node = doc.nodes().next().unwrap();
        assert_eq!(node.transform().decomposed().0, [32.0, 0.0, -32.0]);
        let prim = doc.meshes().next().unwrap().primitives().next().unwrap();
        let bb = prim.bounding_box();
        assert_eq!((bb.min, bb.max), ([0.0, 0.0, 0.0], [1.0, 1.0, 2.5]));
        let reader = prim.reader(|b| Some(&buffers[b.index()]));
        assert_eq!(reader.read_positions().unwrap().collect::<Vec<_>>(), p);
        assert_eq!(
            reader
                .read_indices()
                .unwrap()
                .into_u32()
                .collect::<Vec<_>>(),
            i
        );
        assert_eq!(reader.read_normals().unwrap().count(), 4);
        assert_eq!(
            reader
                .read_colors(0)
                .unwrap()
                .into_rgb_f32()
                .collect::<Vec<_>>(),
            colors
        );
        assert!(
            prim.attributes()
                .any(|(s, _)| s == gltf::Semantic::Extras("SKY".into()))
        );
    }

    #[test]
    fn bad_meshes_are_named() {
        let (p, n, i) = tetra();
        let short = MeshData {
            name: "m",
            positions: &p,
            normals: Some(&n[..3]),
            colors: None,
            extras: &[],
            indices: &i,
            translation: [0.0; 3],
        };
        assert_eq!(
            encode_glb(&[short], "t").unwrap_err().to_string(),
            "mesh `m`: normals has 3 entries, expected 4 (one per vertex)"
        );
        let past = MeshData {
            indices: &[0, 1, 9],
            normals: None,
            ..short
        };
        assert_eq!(
            encode_glb(&[past], "t").unwrap_err().to_string(),
            "mesh `m`: index 9 is past the 4 vertices"
        );
        let ragged = MeshData {
            indices: &[0, 1],
            normals: None,
            ..short
        };
        assert!(encode_glb(&[ragged], "t").is_err());
    }
}
