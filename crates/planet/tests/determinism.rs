//! Determinism: golden hashes of chunks for fixed parameters, and the same
//! chunk sampled alone, within a batch, on one thread or many, and through
//! the point API, gives the same bits.

use mangekyo_planet::Version;
use mangekyo_planet::{
    Chunk, ChunkAddress, ChunkRequest, Edge, Layers, Planet, PlanetParams, Projection,
};
use xxhash_rust::xxh3::xxh3_64;

fn floats(v: &[f32]) -> u64 {
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_bits().to_le_bytes()).collect();
    xxh3_64(&bytes)
}

/// Hashes of the four layers: height, temperature, humidity, biome indices.
fn hashes(c: &Chunk) -> [u64; 4] {
    let biomes: Vec<u8> = c.biome.iter().map(|b| b.index()).collect();
    [
        floats(&c.height),
        floats(&c.temperature),
        floats(&c.humidity),
        xxh3_64(&biomes),
    ]
}

/// The default planet at generator version `v` (on a small graph where
/// the version has water: its tier, computed per planet here, is the
/// erosion and the climate, too slow for a debug build at N = 408).
fn params(v: Version) -> PlanetParams {
    PlanetParams {
        generator_version: v,
        graph_n: if v.has_water() {
            64
        } else {
            mangekyo_planet::DEFAULT_GRAPH_N
        },
        ..PlanetParams::default()
    }
}

fn request(projection: Projection, lod: u32, cx: u32, cy: u32) -> ChunkRequest {
    ChunkRequest {
        address: ChunkAddress {
            projection,
            lod,
            cx,
            cy,
        },
        edge: Edge::Shared,
        layers: Layers::ALL,
    }
}

/// Per projection, a mountain chunk at full detail (lat 10°, lon 20°) and
/// a coast with seven biomes at the coarsest level (lat 50°, lon −20°), on
/// the default planet. A change here is a deliberate
/// `GENERATOR_VERSION` bump.
const GOLDEN: [(Projection, u32, u32, u32, [u64; 4]); 8] = [
    (
        Projection::Equirectangular,
        0,
        58_026,
        23_210,
        [
            0x7e9e0be9409f006b,
            0x7eefb36d1f4e6988,
            0x5be6d76a046522d7,
            0x4f9bcb3ea40f7fd3,
        ],
    ),
    (
        Projection::Equirectangular,
        9,
        90,
        22,
        [
            0x652e03e7b709474b,
            0x8f6ef377d82b2215,
            0x95f6181e098d407d,
            0x0fa4e6f3de090cc4,
        ],
    ),
    (
        Projection::Cube,
        0,
        17_807,
        10_606,
        [
            0x02a305a5739bdb7b,
            0x76bba0de23ac9fd6,
            0xb7caea0e97cff448,
            0x4f9bcb3ea40f7fd3,
        ],
    ),
    (
        Projection::Cube,
        9,
        69,
        96,
        [
            0xe8ea87191cbe968a,
            0xe23b4247f4285e37,
            0x09f0e2c012fd9398,
            0xbcc240a641f008d7,
        ],
    ),
    (
        Projection::TangentCube,
        0,
        18_858,
        9_972,
        [
            0x7c8e8b984c5a41d0,
            0x406b4ab71bfa7773,
            0x49a4b0587f60266b,
            0x4f9bcb3ea40f7fd3,
        ],
    ),
    (
        Projection::TangentCube,
        9,
        67,
        98,
        [
            0xa1ab85e063d26296,
            0xbc36ccf2507d57f6,
            0x6b97cfa23f94848f,
            0x54df8cf7f3b26268,
        ],
    ),
    (
        Projection::Octahedral,
        0,
        42_940,
        32_237,
        [
            0x29c702102075eebc,
            0x500d049e1eb25600,
            0x7c1d3cac59876cd1,
            0x4f9bcb3ea40f7fd3,
        ],
    ),
    (
        Projection::Octahedral,
        9,
        70,
        43,
        [
            0x06bb518422718710,
            0xcc5afde38d7cc3d5,
            0x5a45938530b8a5f1,
            0x635e6fa9ef91fd17,
        ],
    ),
];

#[test]
fn golden_chunks_of_the_default_planet() {
    let v = Version::V1;
    let planet = Planet::new(params(v)).unwrap();
    let mut report = String::new();
    let mut ok = true;
    for (p, lod, cx, cy, want) in GOLDEN {
        let got = hashes(&planet.sample_chunk(&request(p, lod, cx, cy)).unwrap());
        let [h, t, m, b] = got;
        report += &format!(
            "    (Projection::{p:?}, {lod}, {cx}, {cy}, [{h:#018x}, {t:#018x}, {m:#018x}, {b:#018x}]),\n"
        );
        ok &= got == want;
    }
    assert!(
        ok,
        "chunk hashes moved (bump GENERATOR_VERSION if deliberate):\n{report}"
    );
}

fn batch() -> Vec<ChunkRequest> {
    let mut reqs = Vec::new();
    for (k, p) in Projection::ALL.into_iter().enumerate() {
        for lod in [0, 5] {
            let (cx, cy) = (3 + k as u32, 7 + lod);
            reqs.push(request(p, lod, cx, cy));
            reqs.push(ChunkRequest {
                edge: Edge::Exclusive,
                layers: Layers::parse("height,biome").unwrap(),
                ..request(p, lod, cx + 1, cy)
            });
        }
    }
    reqs
}

#[test]
fn alone_in_a_batch_and_on_any_number_of_threads_agree() {
    alone_in_a_batch_and_on_any_number_of_threads_agree_at(Version::V1);
}

/// The same on a version-2 (plates) planet.
#[test]
fn alone_in_a_batch_and_on_any_number_of_threads_agree_v2() {
    alone_in_a_batch_and_on_any_number_of_threads_agree_at(Version::V2);
}

/// The same on the next version (issue 35: every seam, level-identity
/// and determinism test runs on it).
#[test]
fn alone_in_a_batch_and_on_any_number_of_threads_agree_next() {
    alone_in_a_batch_and_on_any_number_of_threads_agree_at(Version::Next);
}

fn alone_in_a_batch_and_on_any_number_of_threads_agree_at(v: Version) {
    let planet = Planet::new(PlanetParams {
        radius: 1.0e6,
        pixel_size: 5.0,
        ..params(v)
    })
    .unwrap();
    let reqs = batch();
    let alone: Vec<Chunk> = reqs
        .iter()
        .map(|r| planet.sample_chunk(r).unwrap())
        .collect();
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let together: Vec<Chunk> = pool
            .install(|| planet.sample_chunks(&reqs))
            .into_iter()
            .map(Result::unwrap)
            .collect();
        for (a, b) in alone.iter().zip(&together) {
            assert_eq!(hashes(a), hashes(b), "{:?} on {threads} threads", a.address);
        }
    }
    // A request's result does not depend on what else is in the batch.
    let shuffled: Vec<ChunkRequest> = reqs.iter().rev().copied().collect();
    let back: Vec<Chunk> = planet
        .sample_chunks(&shuffled)
        .into_iter()
        .rev()
        .map(Result::unwrap)
        .collect();
    for (a, b) in alone.iter().zip(&back) {
        assert_eq!(hashes(a), hashes(b), "{:?} reversed", a.address);
    }
}

#[test]
fn the_point_api_agrees_with_chunks() {
    the_point_api_agrees_with_chunks_at(Version::V1);
}

/// The same on a version-2 (plates) planet.
#[test]
fn the_point_api_agrees_with_chunks_v2() {
    the_point_api_agrees_with_chunks_at(Version::V2);
}

/// The same on the next version (issue 35: every seam, level-identity
/// and determinism test runs on it).
#[test]
fn the_point_api_agrees_with_chunks_next() {
    the_point_api_agrees_with_chunks_at(Version::Next);
}

fn the_point_api_agrees_with_chunks_at(v: Version) {
    let planet = Planet::new(PlanetParams {
        radius: 1.0e6,
        pixel_size: 5.0,
        ..params(v)
    })
    .unwrap();
    for p in Projection::ALL {
        let req = request(p, 2, 9, 4);
        let chunk = planet.sample_chunk(&req).unwrap();
        let dirs = planet.space().chunk_directions(&req.address, 257).unwrap();
        assert_eq!(
            dirs[257 * 100 + 33],
            planet
                .space()
                .sample_direction(&req.address, 33, 100)
                .unwrap()
        );
        let s = planet
            .sample_dirs(&dirs, planet.space().metres_per_sample(2), Layers::ALL)
            .unwrap();
        assert_eq!(floats(&s.height), floats(&chunk.height), "{p}");
        assert_eq!(floats(&s.humidity), floats(&chunk.humidity), "{p}");
        assert_eq!(s.biome, chunk.biome, "{p}");
    }
}

#[test]
fn the_same_parameters_give_the_same_planet_and_others_do_not() {
    the_same_parameters_give_the_same_planet_and_others_do_not_at(Version::V1);
}

/// The same on a version-2 (plates) planet.
#[test]
fn the_same_parameters_give_the_same_planet_and_others_do_not_v2() {
    the_same_parameters_give_the_same_planet_and_others_do_not_at(Version::V2);
}

/// The same on the next version (issue 35: every seam, level-identity
/// and determinism test runs on it).
#[test]
fn the_same_parameters_give_the_same_planet_and_others_do_not_next() {
    the_same_parameters_give_the_same_planet_and_others_do_not_at(Version::Next);
}

fn the_same_parameters_give_the_same_planet_and_others_do_not_at(v: Version) {
    let a = Planet::new(params(v)).unwrap();
    let b = Planet::new(params(v)).unwrap();
    let c = Planet::new(PlanetParams {
        seed: 43,
        ..params(v)
    })
    .unwrap();
    let r = request(Projection::TangentCube, 9, 36, 19);
    let (ha, hb, hc) = (
        hashes(&a.sample_chunk(&r).unwrap()),
        hashes(&b.sample_chunk(&r).unwrap()),
        hashes(&c.sample_chunk(&r).unwrap()),
    );
    assert_eq!(ha, hb);
    assert_ne!(ha[0], hc[0]);
}

/// Version 2's own golden hashes (a chunk of each kind and the coarse
/// tier's blob at N = 24): any drift in plates, hypsometry or the blob
/// layout shows here and needs a new version, never a silent change.
#[test]
fn golden_chunks_and_tier_of_a_version_2_planet() {
    let planet = Planet::new(params(Version::V2)).unwrap();
    let mut got = Vec::new();
    for (p, lod, cx, cy) in [
        (Projection::TangentCube, 9, 67, 98),
        (Projection::Octahedral, 9, 70, 43),
    ] {
        got.push(hashes(&planet.sample_chunk(&request(p, lod, cx, cy)).unwrap())[0]);
    }
    let small = Planet::new(PlanetParams {
        graph_n: 24,
        ..params(Version::V2)
    })
    .unwrap();
    got.push(small.coarse_tier().unwrap().hash());
    let want: [u64; 3] = [0x2a4296379528c273, 0x16e6a187715edaf9, 0xe7c76c02b80e2fd4];
    assert_eq!(
        got, want,
        "version-2 hashes moved ({got:#018x?}); a deliberate change is a new generator version"
    );
}

/// Version 4's own golden hashes on a coarse tier (N = 24, so the tier
/// with erosion and climate computes in a moment): every layer of two
/// chunks (the four of [`hashes`], precipitation and the biome weights)
/// and the tier's blob. Any drift in the climate, the biome tables or the
/// blob layout shows here and needs a new version.
#[test]
fn golden_chunks_and_tier_of_a_version_4_planet() {
    let planet = Planet::new(PlanetParams {
        graph_n: 24,
        ..params(Version::V4)
    })
    .unwrap();
    let mut got = Vec::new();
    // A mountain chunk and the subtropical desert east of it.
    let desert = planet
        .space()
        .locate(
            Projection::TangentCube,
            9,
            mangekyo_planet::LatLon {
                lat: 30.0,
                lon: 60.0,
            },
        )
        .unwrap()
        .address;
    for (cx, cy) in [(67, 98), (desert.cx, desert.cy)] {
        let mut req = request(Projection::TangentCube, 9, cx, cy);
        req.layers = Layers {
            precipitation: true,
            biome_weights: true,
            ..Layers::ALL
        };
        let c = planet.sample_chunk(&req).unwrap();
        // The chunks hold an ecotone at least, so the hashes see the blend.
        let mut kinds: Vec<u8> = c.biome.iter().map(|b| b.index()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        assert!(kinds.len() >= 2, "({cx}, {cy}) biomes {kinds:?}");
        let weights: Vec<u8> = c
            .biome_weights
            .iter()
            .flat_map(|w| {
                [
                    w.first.index(),
                    w.first_weight,
                    w.second.index(),
                    w.second_weight,
                ]
            })
            .collect();
        got.extend(hashes(&c));
        got.push(floats(&c.precipitation));
        got.push(xxh3_64(&weights));
    }
    got.push(planet.coarse_tier().unwrap().hash());
    let want: [u64; 13] = [
        0x34ae6ffe48c05466,
        0x5c7f9c5ebe861e04,
        0xcfed61a2d853c340,
        0x4f24fa38f1ebf323,
        0x62ee5a0e0508e243,
        0xcef8bb8a33dee558,
        0x06892e55a0fab7e4,
        0xc62e4926690a5ab3,
        0xcb6f0f48d1bd09ef,
        0x8736ec001d52ff42,
        0xad80823a42a3a7e1,
        0xeedaa0079921b9f4,
        0x332e044ca6b871f1,
    ];
    assert_eq!(
        got, want,
        "version-4 hashes moved ({got:#018x?}); a deliberate change is a new generator version"
    );
}
