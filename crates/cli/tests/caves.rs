//! `mangekyo caves` end to end: a chunk and a region as glb, a slice as
//! PNG, and one-line errors for bad values.

use std::path::PathBuf;
mod common;

use common::mangekyo;

/// A fresh path in the system temp directory for this test.
fn out(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("mangekyo-caves-{}-{name}", std::process::id()))
}

/// The JSON chunk of a glb, after checking the container header.
fn glb_json(bytes: &[u8]) -> serde_json::Value {
    assert_eq!(&bytes[..4], b"glTF");
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(u32_at(4), 2, "glTF version");
    assert_eq!(u32_at(8) as usize, bytes.len(), "declared length");
    let len = u32_at(12) as usize;
    assert_eq!(&bytes[16..20], b"JSON");
    serde_json::from_slice(&bytes[20..20 + len]).unwrap()
}

#[test]
fn a_chunk_and_a_region_become_glb() {
    // Chunk (2, 0, 3) of the world "hime", written to `path`.
    let write_chunk = |path: &PathBuf| {
        let o = mangekyo(&[
            "caves",
            "chunk",
            "--seed",
            "hime",
            "--chunk",
            "2,0,3",
            "-o",
            path.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let chunk = out("chunk.glb");
    write_chunk(&chunk);
    let doc = glb_json(&std::fs::read(&chunk).unwrap());
    let attributes = &doc["meshes"][0]["primitives"][0]["attributes"];
    for name in ["POSITION", "NORMAL", "COLOR_0", "_SKY"] {
        assert!(
            attributes.get(name).is_some(),
            "{name} missing: {attributes}"
        );
    }
    assert_eq!(
        doc["nodes"][0]["translation"],
        serde_json::json!([64.0, 0.0, 96.0])
    );

    let region = out("region.glb");
    let b = mangekyo(&[
        "caves",
        "export",
        "--from",
        "-1,0,-1",
        "--to",
        "0,1,0",
        "-o",
        region.to_str().unwrap(),
    ]);
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    let doc = glb_json(&std::fs::read(&region).unwrap());
    let nodes = doc["nodes"].as_array().unwrap().len();
    // 8 chunks, of which the 4 surface-layer ones at least hold caves.
    assert!((4..=8).contains(&nodes), "{nodes} nodes");
    let stderr = String::from_utf8_lossy(&b.stderr);
    assert!(
        stderr.starts_with("wrote ") && stderr.contains("8 chunks"),
        "{stderr}"
    );
    // A glTF parser reads it back: every vertex, placed by its node, lies
    // in the region's box (x, z in -32..32, y in 0..64, one voxel of slack
    // for the surface nets' border vertices).
    let (gltf, buffers, _) = gltf::import_slice(std::fs::read(&region).unwrap()).unwrap();
    let mut vertices = 0;
    for node in gltf.nodes() {
        let t = node.transform().decomposed().0;
        for primitive in node.mesh().unwrap().primitives() {
            let reader = primitive.reader(|b| Some(&buffers[b.index()]));
            for p in reader.read_positions().unwrap() {
                let w = [p[0] + t[0], p[1] + t[1], p[2] + t[2]];
                assert!(
                    (-33.0..=33.0).contains(&w[0])
                        && (-1.0..=65.0).contains(&w[1])
                        && (-33.0..=33.0).contains(&w[2]),
                    "vertex {w:?} outside the region"
                );
                vertices += 1;
            }
        }
    }
    assert!(vertices > 1000, "{vertices} vertices");

    // The chunk as OBJ holds the glb's vertices and triangles.
    let obj = out("chunk.obj");
    write_chunk(&obj);
    let text = std::fs::read_to_string(&obj).unwrap();
    let (gltf, _, _) = gltf::import_slice(std::fs::read(&chunk).unwrap()).unwrap();
    let primitive = gltf.meshes().next().unwrap().primitives().next().unwrap();
    let count = |attr: gltf::Semantic| primitive.get(&attr).unwrap().count();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("v ")).count(),
        count(gltf::Semantic::Positions)
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("f ")).count(),
        primitive.indices().unwrap().count() / 3
    );
    for p in [chunk, region, obj] {
        std::fs::remove_file(p).ok();
    }
}

#[test]
fn a_slice_becomes_a_png_of_the_asked_size() {
    let png = out("slice.png");
    let a = mangekyo(&[
        "caves",
        "slice",
        "--y",
        "20",
        "--size",
        "96",
        "40",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!((&bytes[12..16], be(16), be(20)), (&b"IHDR"[..], 96, 40));
    std::fs::remove_file(png).ok();
}

#[test]
fn bad_values_get_one_line_errors() {
    let params = out("bad.json");
    std::fs::write(&params, r#"{"octaves": 0}"#).unwrap();
    let cases: [(Vec<&str>, &str); 4] = [
        (
            vec!["caves", "chunk", "--params", params.to_str().unwrap()],
            "error: cave parameter `octaves` must be in 1..=16, got 0\n",
        ),
        (
            vec!["caves", "export", "--from", "1,0,0", "--to", "0,0,0"],
            "error: --to must not be below --from on x: 1 > 0\n",
        ),
        (
            vec!["caves", "slice", "--y", "5", "--size", "0", "10"],
            "error: picture side must be at least 1, got 0\n",
        ),
        (
            vec!["caves", "chunk", "-o", "chunk.txt"],
            "error: --output must end in .mkcm, .mkcd, .glb or .obj, got \"txt\"\n",
        ),
    ];
    for (args, want) in cases {
        let o = mangekyo(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), want, "{args:?}");
    }
    std::fs::remove_file(params).ok();
}

/// Every caves command takes a chunk as one `cx,cy,cz` argument, and says
/// which chunk it wrote in that form, never as a Rust struct's Debug text.
#[test]
fn chunk_coordinates_are_one_comma_syntax_in_and_out() {
    let glb = out("coords.glb");
    let o = mangekyo(&[
        "caves",
        "chunk",
        "--chunk",
        "-1,0,2",
        "-o",
        glb.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(stderr.contains("chunk -1,0,2:"), "{stderr}");
    assert!(!stderr.contains("ChunkCoord"), "{stderr}");
    let mkcd = out("coords.mkcd");
    let o = mangekyo(&[
        "caves",
        "chunk",
        "--chunk",
        "1,0,1",
        "-o",
        mkcd.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(stderr.contains("density of chunk 1,0,1"), "{stderr}");
    for p in [glb, mkcd] {
        std::fs::remove_file(p).ok();
    }
    // The old space-separated form is refused, and `--help` shows the one
    // form every caves command takes.
    let o = mangekyo(&["caves", "chunk", "--chunk", "0", "0", "0"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("unexpected argument '0'"), "{stderr}");
    let o = mangekyo(&["caves", "chunk", "--chunk", "0;0;0"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--chunk") && stderr.contains("\"cx,cy,cz\" in one argument"),
        "{stderr}"
    );
    for cmd in ["chunk", "export"] {
        let help = mangekyo(&["caves", cmd, "--help"]);
        let help = String::from_utf8_lossy(&help.stdout);
        assert!(help.contains("<CX,CY,CZ>"), "caves {cmd} --help: {help}");
    }
    // Out of the service's bound: refused by name, before any work.
    let o = mangekyo(&["caves", "export", "--from", "0,0,9999999"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--from"), "{stderr}");
}
