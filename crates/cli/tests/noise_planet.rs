//! `mangekyo noise` and `mangekyo planet` end to end: the pictures and
//! heightmaps the binary writes are what the libraries compute, the
//! sidecar describes the file, and bad values get one-line errors.

use mangekyo_planet::{ChunkAddress, ChunkRequest, Edge, Layers, Planet, PlanetParams, Projection};
use std::path::PathBuf;
mod common;

use common::mangekyo;
use std::process::Output;

fn ok(args: &[&str]) -> Output {
    let o = mangekyo(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// A fresh path in the system temp directory for this test.
fn out(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("mangekyo-np-{}-{name}", std::process::id()))
}

#[test]
fn noise_pictures_are_deterministic_and_follow_the_seed() {
    let picture = |seed: &str, name: &str| -> Vec<u8> {
        let path = out(name);
        ok(&[
            "noise",
            "--kind",
            "simplex",
            "--fractal",
            "fbm",
            "--octaves",
            "6",
            "--seed",
            seed,
            "--size",
            "64",
            "-o",
            path.to_str().unwrap(),
        ]);
        let png = mangekyo_export::png::decode(&std::fs::read(&path).unwrap()).unwrap();
        std::fs::remove_file(path).ok();
        assert_eq!((png.width, png.height), (64, 64));
        png.samples8().unwrap().to_vec()
    };
    let a = picture("7", "a.png");
    assert_eq!(
        a,
        picture("7", "b.png"),
        "the same seed draws the same picture"
    );
    assert_ne!(a, picture("8", "c.png"), "another seed draws another");
    let mean = a.iter().map(|&v| f64::from(v)).sum::<f64>() / a.len() as f64;
    let variance = a
        .iter()
        .map(|&v| (f64::from(v) - mean).powi(2))
        .sum::<f64>()
        / a.len() as f64;
    assert!(
        variance > 100.0,
        "the picture is not flat (variance {variance})"
    );

    let bad = mangekyo(&[
        "noise",
        "--octaves",
        "0",
        "-o",
        out("bad.png").to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.starts_with("error: ") && err.contains("octaves"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_planet_chunk_heightmap_is_the_librarys_chunk() {
    let path = out("chunk.f32");
    let args = [
        "planet",
        "chunk",
        "--projection",
        "octahedral",
        "--lod",
        "9",
        "--cx",
        "1",
        "--cy",
        "2",
        "--format",
        "f32",
        "-o",
    ];
    ok(&[&args[..], &[path.to_str().unwrap()]].concat());
    let bytes = std::fs::read(&path).unwrap();
    let sidecar: serde_json::Value =
        serde_json::from_slice(&std::fs::read(format!("{}.json", path.display())).unwrap())
            .unwrap();
    std::fs::remove_file(&path).ok();
    std::fs::remove_file(format!("{}.json", path.display())).ok();

    let planet = Planet::new(PlanetParams::default()).unwrap();
    let chunk = planet
        .sample_chunk(&ChunkRequest {
            address: ChunkAddress {
                projection: Projection::Octahedral,
                lod: 9,
                cx: 1,
                cy: 2,
            },
            edge: Edge::Exclusive,
            layers: Layers::HEIGHT,
        })
        .unwrap();
    let written: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(written.len(), 256 * 256, "exclusive edges by default");
    assert!(
        written
            .iter()
            .zip(&chunk.height)
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "the file holds the library's heights bit for bit"
    );
    assert_eq!(sidecar["width"], 256);
    assert_eq!(sidecar["projection"], "octahedral");
    assert_eq!(
        (
            sidecar["lod"].as_u64(),
            sidecar["cx"].as_u64(),
            sidecar["cy"].as_u64()
        ),
        (Some(9), Some(1), Some(2))
    );
    assert_eq!(sidecar["byte_order"], "little");
    let max = chunk
        .height
        .iter()
        .copied()
        .fold(f32::NEG_INFINITY, f32::max);
    // Written as the shortest decimal that reads back as the same f32.
    assert_eq!(sidecar["max_height"].as_f64().map(|m| m as f32), Some(max));
}

#[test]
fn previews_and_the_distortion_table() {
    let path = out("planet.png");
    ok(&[
        "planet",
        "preview",
        "--width",
        "64",
        "-o",
        path.to_str().unwrap(),
    ]);
    let png = mangekyo_export::png::decode(&std::fs::read(&path).unwrap()).unwrap();
    std::fs::remove_file(path).ok();
    assert_eq!(
        (png.width, png.height),
        (64, 32),
        "equirectangular: twice as wide as high"
    );

    let table = String::from_utf8(ok(&["planet", "projections", "--cells", "64"]).stdout).unwrap();
    let ratio = |name: &str| -> f64 {
        let line = table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} row in\n{table}"));
        line.split_whitespace()
            .nth_back(1)
            .unwrap()
            .parse()
            .unwrap()
    };
    // The tangent cube is the most even map; the plain cube about 5.2.
    assert!((1.3..1.5).contains(&ratio("tangent_cube")), "{table}");
    assert!((4.5..6.0).contains(&ratio("cube")), "{table}");
    assert!(ratio("tangent_cube") < ratio("octahedral"), "{table}");

    // Values the library refuses exit 1; names clap's value parsers refuse
    // while reading the flags exit 2, as clap's other usage errors do.
    for (args, want, code) in [
        (&["planet", "chunk", "--radius=-5"][..], "radius", 1),
        (&["planet", "chunk", "--lod", "99"][..], "lod", 1),
        (
            &["planet", "chunk", "--projection", "mercator"][..],
            "mercator",
            2,
        ),
    ] {
        let o = mangekyo(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(want),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn planet_plates_writes_the_librarys_geojson_and_refuses_version_1() {
    let path = out("plates.geojson");
    let o = ok(&[
        "planet",
        "plates",
        "--seed",
        "7",
        "--cell-deg",
        "2",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("features"));
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let params = PlanetParams {
        seed: 7,
        ..PlanetParams::default()
    };
    let planet = Planet::new(params).unwrap();
    let expected = mangekyo_planet::geology::plates_geojson(&planet, 2.0).unwrap();
    // Through the same text, so float parsing treats both sides alike.
    let expected: serde_json::Value =
        serde_json::from_slice(&serde_json::to_vec(&expected).unwrap()).unwrap();
    assert!(written == expected, "the file is the library's GeoJSON");
    let features = written["features"].as_array().unwrap();
    let plates = features
        .iter()
        .filter(|f| f["properties"]["kind"] == "plate")
        .count();
    assert!((8..=40).contains(&plates), "{plates} plates");
    for f in features
        .iter()
        .filter(|f| f["properties"]["kind"] == "boundary")
    {
        let t = f["properties"]["type"].as_str().unwrap();
        assert!(
            ["convergent", "divergent", "transform"].contains(&t),
            "boundary type {t}"
        );
    }
    std::fs::remove_file(&path).unwrap();

    let refused = mangekyo(&[
        "planet",
        "plates",
        "--generator-version",
        "1",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("generator_version"), "{err}");
    assert!(!path.exists(), "nothing is written on an error");
}

#[test]
fn planet_rivers_writes_the_librarys_geojson_and_refuses_bad_boxes() {
    let path = out("rivers.geojson");
    let small = ["--seed", "5", "--radius", "400000", "--graph-n", "32"];
    let mut args = vec!["planet", "rivers"];
    args.extend(small);
    args.extend(["-o", path.to_str().unwrap()]);
    let o = ok(&args);
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(said.contains("drains to the sea"), "{said}");
    let written = std::fs::read(&path).unwrap();
    let planet = Planet::new(PlanetParams {
        seed: 5,
        radius: 400_000.0,
        graph_n: 32,
        ..PlanetParams::default()
    })
    .unwrap();
    let expected = mangekyo_planet::hydro::geojson::rivers_geojson(&planet, None).unwrap();
    assert_eq!(
        written,
        serde_json::to_vec(&expected).unwrap(),
        "the file is the library's GeoJSON"
    );
    std::fs::remove_file(&path).unwrap();

    for (extra, named) in [
        (vec!["--bbox", "10,0,5,1"], "bbox"),
        (vec!["--bbox", "0,0,0,1"], "bbox"),
        (vec!["--bbox", "-200,0,5,1"], "bbox"),
        (vec!["--generator-version", "2"], "generator_version"),
    ] {
        let mut args = vec!["planet", "rivers"];
        args.extend(small);
        args.extend(extra.iter().copied());
        args.extend(["-o", path.to_str().unwrap()]);
        let refused = mangekyo(&args);
        assert!(!refused.status.success(), "{extra:?}");
        let err = String::from_utf8_lossy(&refused.stderr);
        assert!(err.contains(named), "{extra:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
        assert!(!path.exists(), "nothing is written on an error");
    }
}

#[test]
fn version_4_previews_and_chunks_carry_the_climate_layers() {
    let small = [
        "--seed",
        "5",
        "--radius",
        "400000",
        "--pixel-size",
        "50",
        "--graph-n",
        "32",
    ];
    // Whole-planet previews of temperature and precipitation.
    for layer in ["temperature", "precipitation"] {
        let path = out(&format!("{layer}.png"));
        let mut args = vec!["planet", "preview", "--width", "64", "--layer", layer];
        args.extend(small);
        args.extend(["-o", path.to_str().unwrap()]);
        ok(&args);
        let png = mangekyo_export::png::decode(&std::fs::read(&path).unwrap()).unwrap();
        std::fs::remove_file(&path).ok();
        assert_eq!((png.width, png.height), (64, 32), "{layer}");
    }
    // bin with every layer is MKPC format 2; precipitation is a heightmap.
    let planet = Planet::new(PlanetParams {
        seed: 5,
        radius: 400_000.0,
        pixel_size: 50.0,
        graph_n: 32,
        ..PlanetParams::default()
    })
    .unwrap();
    assert_eq!(planet.version(), mangekyo_planet::Version::DEFAULT);
    let sampled = planet
        .sample_chunk(&ChunkRequest {
            address: ChunkAddress {
                projection: Projection::TangentCube,
                lod: 0,
                cx: 2,
                cy: 1,
            },
            edge: Edge::Exclusive,
            layers: mangekyo_planet::Version::V4.layers(),
        })
        .unwrap();
    let chunk = |format: &str, layers: &str, name: &str| -> Vec<u8> {
        let path = out(name);
        let mut args = vec![
            "planet", "chunk", "--cx", "2", "--cy", "1", "--format", format, "--layers", layers,
        ];
        args.extend(small);
        args.extend(["-o", path.to_str().unwrap()]);
        ok(&args);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).ok();
        std::fs::remove_file(format!("{}.json", path.display())).ok();
        bytes
    };
    let bin = chunk("bin", "all", "v4.bin");
    let want = mangekyo_formats::chunk::encode(
        &sampled,
        mangekyo_formats::ChunkFormat::Bin,
        planet.params(),
    )
    .unwrap();
    assert!(bin == want.bytes, "the file is the library's bin");
    let d = mangekyo_formats::planet_bin::decode(&bin).unwrap();
    assert_eq!((d.format_version, d.mask), (2, 0x3ff));
    let f32s = chunk("f32", "precipitation", "precipitation.f32");
    let bits: Vec<u32> = f32s
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(
        bits,
        sampled
            .precipitation
            .iter()
            .map(|p| p.to_bits())
            .collect::<Vec<_>>()
    );

    // A version-3 planet has no precipitation: one-line errors, no file.
    let path = out("v3.png");
    for args in [
        vec![
            "planet",
            "preview",
            "--width",
            "64",
            "--layer",
            "precipitation",
        ],
        vec![
            "planet",
            "chunk",
            "--format",
            "f32",
            "--layers",
            "precipitation",
        ],
        vec![
            "planet",
            "chunk",
            "--format",
            "bin",
            "--layers",
            "biome_weights",
        ],
    ] {
        let mut args = args;
        args.extend(small);
        args.extend(["--generator-version", "3", "-o", path.to_str().unwrap()]);
        let refused = mangekyo(&args);
        assert!(!refused.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&refused.stderr);
        assert!(
            err.contains("precipitation") || err.contains("biome_weights"),
            "{args:?}: {err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
        assert!(!path.exists(), "nothing is written on an error");
    }
}
