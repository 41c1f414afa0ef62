//! Requests as a server receives them: malformed parameters and chunk or
//! tile addresses get errors that name the culprit; good chunks serialise
//! to the documented JSON shape and sidecar.

use mangekyo_planet::view::{PreviewLayer, chunk_preview};
use mangekyo_planet::{
    Biome, ChunkAddress, ChunkRequest, Edge, LatLon, Layers, Planet, PlanetError, PlanetParams,
    Projection, TileRequest, Version,
};

/// The default planet at generator version 1 (these checks describe the
/// version-1 function; version 2 has its own in `geology.rs`).
fn v1() -> PlanetParams {
    PlanetParams {
        generator_version: mangekyo_planet::Version::V1,
        ..PlanetParams::default()
    }
}

fn small() -> Planet {
    Planet::new(PlanetParams {
        radius: 300_000.0,
        pixel_size: 10.0,
        ..v1()
    })
    .unwrap()
}

fn named(e: PlanetError, what: &str) {
    let text = e.to_string();
    assert!(text.contains(what), "error should name `{what}`: {text}");
}

#[test]
fn malformed_parameters_are_named() {
    for (json, what) in [
        (r#"{"radius": -5}"#, "radius"),
        (r#"{"pixel_size": 0}"#, "pixel_size"),
        (r#"{"sea_level": 2}"#, "sea_level"),
        (r#"{"axial_tilt": 120}"#, "axial_tilt"),
        (r#"{"solar_intensity": 9}"#, "solar_intensity"),
        (r#"{"humidity_global": -1}"#, "humidity_global"),
        (r#"{"plate_activity": 3}"#, "plate_activity"),
    ] {
        let p: PlanetParams = serde_json::from_str(json).unwrap();
        named(Planet::new(p).unwrap_err(), what);
    }
    for (json, what) in [
        (r#"{"raduis": 5}"#, "raduis"),
        (r#"{"seed": "x"}"#, "expected u64"),
        (r#"{"radius": }"#, "line 1"),
        // A version this build does not generate is refused as it is read.
        (
            r#"{"generator_version": 99}"#,
            "released planet generator version",
        ),
        (r#"{"generator_version": "latest"}"#, "\"next\""),
    ] {
        let e = serde_json::from_str::<PlanetParams>(json)
            .unwrap_err()
            .to_string();
        assert!(e.contains(what), "{json}: {e}");
    }
}

#[test]
fn malformed_chunk_addresses_are_named() {
    let planet = small();
    let space = planet.space();
    let ok = ChunkAddress {
        projection: Projection::TangentCube,
        lod: 0,
        cx: 0,
        cy: 0,
    };
    let (w, h) = space.chunk_grid(Projection::TangentCube, 0);
    for (address, what) in [
        (
            ChunkAddress {
                lod: space.max_lod() + 1,
                ..ok
            },
            "lod",
        ),
        (ChunkAddress { cx: w as u32, ..ok }, "cx"),
        (ChunkAddress { cy: h as u32, ..ok }, "cy"),
        (
            ChunkAddress {
                cx: u32::MAX,
                cy: u32::MAX,
                ..ok
            },
            "cx",
        ),
        (
            ChunkAddress {
                lod: u32::MAX,
                ..ok
            },
            "lod",
        ),
    ] {
        named(
            planet
                .sample_chunk(&ChunkRequest {
                    address,
                    edge: Edge::Shared,
                    layers: Layers::ALL,
                })
                .unwrap_err(),
            what,
        );
    }
    let none = Layers::NONE;
    named(
        planet
            .sample_chunk(&ChunkRequest {
                address: ok,
                edge: Edge::Shared,
                layers: none,
            })
            .unwrap_err(),
        "layers",
    );
    named("mercator".parse::<Projection>().unwrap_err(), "mercator");
    named("258".parse::<Edge>().unwrap_err(), "edge");
    named(Layers::parse("height,rain").unwrap_err(), "rain");
    // Geology layers exist from version 2: a version-1 planet names `layers`.
    named(
        Layers::parse_for("height,plate", Version::V1).unwrap_err(),
        "layers",
    );
    assert_eq!(Layers::parse_for("all", Version::V1).unwrap(), Layers::ALL);
    assert_eq!(
        Layers::parse_for("all", Version::V2).unwrap(),
        Version::V2.layers()
    );
    assert!(Layers::parse_for("uplift", Version::V2).unwrap().uplift);
    named(
        space
            .locate(
                Projection::Cube,
                0,
                LatLon {
                    lat: f64::NAN,
                    lon: 0.0,
                },
            )
            .unwrap_err(),
        "lat",
    );
    named(
        planet
            .sample_dirs(&[[2.0, 0.0, 0.0]], 10.0, Layers::ALL)
            .unwrap_err(),
        "direction",
    );
    named(
        planet
            .sample_dirs(&[[1.0, 0.0, 0.0]], f64::NAN, Layers::ALL)
            .unwrap_err(),
        "spacing",
    );
    named(
        planet
            .sample_tile(
                &TileRequest {
                    z: 3,
                    x: 8,
                    y: 0,
                    size: 256,
                },
                Layers::HEIGHT,
            )
            .unwrap_err(),
        "x",
    );
    named(
        planet
            .preview(15, PreviewLayer::Biome, &|_| {})
            .unwrap_err(),
        "width",
    );
}

#[test]
fn a_chunk_serialises_to_the_documented_shape() {
    let planet = small();
    for (p, face) in [
        (Projection::TangentCube, serde_json::json!("+x")),
        (Projection::Octahedral, serde_json::Value::Null),
    ] {
        let address = ChunkAddress {
            projection: p,
            lod: 1,
            cx: 2,
            cy: 3,
        };
        let chunk = planet
            .sample_chunk(&ChunkRequest {
                address,
                edge: Edge::Shared,
                layers: Layers::ALL,
            })
            .unwrap();
        let v = serde_json::to_value(chunk.json()).unwrap();
        assert_eq!(v["projection"], p.name());
        assert_eq!(v["face"], face);
        assert_eq!(
            (v["lod"].as_u64(), v["cx"].as_u64(), v["cy"].as_u64()),
            (Some(1), Some(2), Some(3))
        );
        assert_eq!(
            (v["width"].as_u64(), v["height"].as_u64()),
            (Some(257), Some(257))
        );
        assert!(
            (v["metres_per_sample"].as_f64().unwrap() - planet.space().metres_per_sample(1)).abs()
                < 1e-12
        );
        for layer in ["height", "temperature", "humidity", "biome"] {
            assert_eq!(
                v["layers"][layer].as_array().map(Vec::len),
                Some(257 * 257),
                "{layer}"
            );
        }
        let legend = v["biome_legend"].as_array().unwrap();
        assert_eq!(legend.len(), Biome::ALL.len());
        assert!(
            v["layers"]["biome"]
                .as_array()
                .unwrap()
                .iter()
                .all(|b| (b.as_u64().unwrap() as usize) < legend.len())
        );
        assert_eq!(
            v["layers"]["height"][0].as_f64().unwrap() as f32,
            chunk.height[0]
        );
        assert!(
            v["layers"]["humidity"]
                .as_array()
                .unwrap()
                .iter()
                .all(|h| (0.0..=1.0).contains(&h.as_f64().unwrap()))
        );
    }
    let address = ChunkAddress {
        projection: Projection::Equirectangular,
        lod: 0,
        cx: 0,
        cy: 0,
    };
    let heights = planet
        .sample_chunk(&ChunkRequest {
            address,
            edge: Edge::Exclusive,
            layers: Layers::HEIGHT,
        })
        .unwrap();
    let v = serde_json::to_value(heights.json()).unwrap();
    assert!(
        v["layers"].get("temperature").is_none()
            && v["layers"]["height"].as_array().unwrap().len() == 256 * 256
    );
    let info = serde_json::to_value(heights.heightmap_info("r16", -10.0, 20.0)).unwrap();
    assert_eq!(
        (
            info["byte_order"].as_str(),
            info["width"].as_u64(),
            info["min_height"].as_f64()
        ),
        (Some("little"), Some(256), Some(-10.0))
    );
    assert_eq!(info["projection"], "equirectangular");
}

#[test]
fn previews_have_the_size_asked_for() {
    let planet = small();
    let image = planet.preview(64, PreviewLayer::Height, &|_| {}).unwrap();
    assert_eq!(
        (image.width, image.height, image.pixels.len()),
        (64, 32, 64 * 32 * 3)
    );
    let address = ChunkAddress {
        projection: Projection::TangentCube,
        lod: 0,
        cx: 5,
        cy: 5,
    };
    let chunk = planet
        .sample_chunk(&ChunkRequest {
            address,
            edge: Edge::Shared,
            layers: Layers::ALL,
        })
        .unwrap();
    let pic = chunk_preview(&chunk).unwrap();
    assert_eq!(pic.pixels.len(), 257 * 257 * 3);
    let heights_only = planet
        .sample_chunk(&ChunkRequest {
            address,
            edge: Edge::Shared,
            layers: Layers::HEIGHT,
        })
        .unwrap();
    assert!(chunk_preview(&heights_only).is_err());
}

#[test]
fn tiles_sample_the_same_planet() {
    let planet = small();
    let t = planet
        .sample_tile(
            &TileRequest {
                z: 2,
                x: 1,
                y: 1,
                size: 64,
            },
            Layers::HEIGHT,
        )
        .unwrap();
    assert_eq!(t.height.len(), 64 * 64);
    let d = TileRequest {
        z: 2,
        x: 1,
        y: 1,
        size: 64,
    }
    .directions();
    let spacing = 2.0 * std::f64::consts::PI * planet.params().radius / (64.0 * 4.0);
    let direct = planet.sample_dirs(&d, spacing, Layers::HEIGHT).unwrap();
    assert_eq!(direct.height, t.height);
}

/// A tier handed in per use (`Planet::with_tier`, as the server does)
/// samples the same bytes as the tier the planet computes itself, stays
/// with the returned planet alone (the shared one never holds it, so a
/// cache that drops the tier frees it), and one of other parameters is
/// refused by name.
#[test]
fn a_tier_given_per_use_samples_the_same_and_stays_with_that_use() {
    let params = PlanetParams {
        radius: 400_000.0,
        pixel_size: 50.0,
        graph_n: 32,
        ..PlanetParams::default()
    };
    assert!(Planet::new(params).unwrap().samples_need_tier());
    let shared = Planet::new(params).unwrap();
    let tier = std::sync::Arc::new(
        shared
            .compute_tier(mangekyo_core::noise::Level::best())
            .unwrap(),
    );
    let req = ChunkRequest {
        address: ChunkAddress {
            projection: Projection::TangentCube,
            lod: 0,
            cx: 0,
            cy: 0,
        },
        edge: Edge::Exclusive,
        layers: Layers::ALL,
    };
    let weak = std::sync::Arc::downgrade(&tier);
    let given = shared.with_tier(std::sync::Arc::clone(&tier)).unwrap();
    assert!(given.has_tier() && !shared.has_tier());
    let with_given = given.sample_chunk(&req).unwrap();
    drop((given, tier));
    assert!(weak.upgrade().is_none(), "the shared planet kept the tier");
    let own = Planet::new(params).unwrap();
    assert_eq!(with_given, own.sample_chunk(&req).unwrap());
    let other = Planet::new(PlanetParams { seed: 99, ..params }).unwrap();
    let refused = shared.with_tier(other.coarse_tier().unwrap()).err();
    named(refused.expect("another planet's tier is refused"), "tier");
}

/// `CoarseTier::estimated_heap_bytes`, which a server checks `graph_n`
/// against its tier memory with, bounds the real tier of every version
/// with one, and not loosely (within a factor of 1.5 once the nodes
/// dominate).
#[test]
fn estimates_bound_the_tiers() {
    use mangekyo_planet::tier::CoarseTier;
    for version in Version::released().filter(|v| v.has_plates()) {
        for (seed, n) in [(1, 24), (7, 48), (11, 64)] {
            let planet = Planet::new(PlanetParams {
                seed,
                radius: 400_000.0,
                pixel_size: 50.0,
                graph_n: n,
                generator_version: version,
                ..PlanetParams::default()
            })
            .unwrap();
            let real = planet.coarse_tier().unwrap().heap_bytes() as u64;
            let estimate = CoarseTier::estimated_heap_bytes(version, n);
            eprintln!("{version} n={n}: {real} bytes, estimate {estimate}");
            assert!(
                real <= estimate,
                "{version} n={n}: {real} bytes, over the estimate {estimate}"
            );
            if n >= 48 {
                assert!(
                    estimate * 2 <= real * 3,
                    "{version} n={n}: estimate {estimate} for {real} bytes"
                );
            }
        }
    }
    assert_eq!(CoarseTier::estimated_heap_bytes(Version::V1, 408), 0);
}

/// The `…_cancellable` variants (what a server's cancellation asks):
/// answering `true` gives the bytes of the plain call; answering `false`
/// at any checkpoint stops the work with `Cancelled`, which is no refused
/// parameter.
#[test]
fn cancellable_work_is_the_same_or_stops() {
    use mangekyo_core::Refusal;
    use mangekyo_planet::FaceTile;
    use mangekyo_planet::geology::layers::{PlateLayer, plates_layer, plates_layer_cancellable};
    use mangekyo_planet::geology::{plates_geojson, plates_geojson_cancellable};
    use mangekyo_planet::view::Overlay;
    use std::sync::atomic::{AtomicU32, Ordering};
    // Stops at the `n`th checkpoint.
    let after = |n: u32| {
        let asked = AtomicU32::new(0);
        move || asked.fetch_add(1, Ordering::Relaxed) < n
    };
    let planet = small();
    let image = planet
        .preview_cancellable(64, PreviewLayer::Biome, Overlay::None, &|_| true)
        .unwrap();
    assert_eq!(
        image,
        planet.preview(64, PreviewLayer::Biome, &|_| {}).unwrap()
    );
    let stop = after(2);
    let err = planet
        .preview_cancellable(64, PreviewLayer::Biome, Overlay::None, &|_| stop())
        .unwrap_err();
    assert_eq!(err, PlanetError::Cancelled);
    assert!(err.param().is_none(), "a cancellation is no refusal");

    let tile = FaceTile::new(planet.space(), 2, 1, 1, 0).unwrap();
    let layers = Layers {
        height: true,
        ..Layers::NONE
    };
    let whole = planet.sample_face_tile(&tile, layers).unwrap();
    let same = planet
        .sample_face_tile_cancellable(&tile, layers, &|| true)
        .unwrap();
    assert_eq!(same.height, whole.height);
    let stop = after(3);
    let err = planet.sample_face_tile_cancellable(&tile, layers, &stop);
    assert_eq!(err.unwrap_err(), PlanetError::Cancelled);

    let v2 = Planet::new(PlanetParams {
        generator_version: Version::V2,
        graph_n: 24,
        ..PlanetParams::default()
    })
    .unwrap();
    let doc = plates_geojson(&v2, 5.0).unwrap();
    assert_eq!(plates_geojson_cancellable(&v2, 5.0, &|| true).unwrap(), doc);
    for n in [0, 10, 40] {
        let stop = after(n);
        let err = plates_geojson_cancellable(&v2, 5.0, &stop).unwrap_err();
        assert_eq!(err, PlanetError::Cancelled, "stopped at checkpoint {n}");
    }
    let layer = plates_layer(&v2, 5.0, PlateLayer::Boundary).unwrap();
    let same = plates_layer_cancellable(&v2, 5.0, PlateLayer::Boundary, &|| true).unwrap();
    assert_eq!(same, layer);
    let stop = after(40);
    let err = plates_layer_cancellable(&v2, 5.0, PlateLayer::Plate, &stop).unwrap_err();
    assert_eq!(err, PlanetError::Cancelled);
}
