//! Cave chunks: time per 32³ chunk for the density (the box sampler) plus
//! the smooth mesh, on cave chunks and on chunks the bounds decide (all
//! air above the surface, all rock below the floor); and our surface nets
//! against the `fast-surface-nets` crate on the same sampled field.
//!
//! Two cave chunks per mode: `origin`, chunk (0, 0, 0) (the chunk earlier
//! runs quoted; fewer triangles than the average surface-layer chunk), and
//! `densest`, the chunk with the most smooth triangles among the 64 chunks
//! at cy = 0, cx, cz ∈ −4..4 (found at start-up and printed). The default
//! version's chunks, and `*_densest_v2`: version 2 (lattice hash 1) at its
//! own densest chunk, for the hash's share of a chunk.
//!
//! Fairness notes: both meshers get the same 34³ padded f32 grid (theirs
//! negated: their inside is negative). `fast-surface-nets` writes into a
//! buffer it reuses; `smooth_mesh` is our allocating call (a fresh `Mesh`,
//! whose page faults are a good part of its time), `smooth_mesh_reusing`
//! the like-for-like one (a `Mesher` into a recycled `Mesh`). Ours also computes each chunk's
//! open-sky heights (a per-column scan, part of every mesh) and the sky
//! value per vertex, and quantises positions for exact seams; theirs
//! computes normals the same way (face-sum gradient). Single-threaded.

use criterion::{BenchmarkId, Throughput};
use fast_surface_nets::ndshape::{ConstShape, ConstShape3u32};
use fast_surface_nets::{SurfaceNetsBuffer, surface_nets};
use mangekyo_bench::{criterion, print_ratios};
use mangekyo_caves::mesh::{blocky, smooth};
use mangekyo_caves::{
    CaveField, CaveMode, CaveParams, ChunkCoord, Density, Mesh, Mesher, Sampler, Seed, Version,
};
use std::hint::black_box;

type Padded = ConstShape3u32<34, 34, 34>;

fn field(mode: CaveMode) -> CaveField {
    field_at(Version::DEFAULT, mode)
}

fn field_at(version: Version, mode: CaveMode) -> CaveField {
    CaveField::with_version(
        &CaveParams {
            mode,
            ..CaveParams::default()
        },
        Seed::new(42),
        version,
    )
    .unwrap()
}

/// Chunk (0, 0, 0): voxels 0..32 on each axis hold the worm layer and the
/// floor, and in places the surface.
const ORIGIN: ChunkCoord = ChunkCoord::new(0, 0, 0);
const AIR: ChunkCoord = ChunkCoord::new(0, 3, 0);
const SOLID: ChunkCoord = ChunkCoord::new(0, -2, 0);

/// The chunk with the most smooth-mesh triangles at cy = 0 near the origin.
fn densest(f: &CaveField) -> ChunkCoord {
    let mut s = Sampler::new();
    let coords = (-4..4).flat_map(|z| (-4..4).map(move |x| ChunkCoord::new(x, 0, z)));
    coords
        .max_by_key(|&c| smooth(f, &s.chunk(f, c)).triangle_count())
        .unwrap_or(ORIGIN)
}

fn bench_chunks(c: &mut criterion::Criterion) {
    let mut g = c.benchmark_group("caves_chunk32");
    g.throughput(Throughput::Elements(1));
    for (mode, name) in [(CaveMode::Tubes, "tubes"), (CaveMode::Sheets, "sheets")] {
        let f = field(mode);
        let dense = densest(&f);
        for (coord, which) in [(ORIGIN, "origin"), (dense, "densest")] {
            let id = |what: &str| BenchmarkId::new(what, format!("{name}_{which}"));
            let mut s = Sampler::new();
            let samples = s.chunk(&f, coord);
            let m = smooth(&f, &samples);
            println!(
                "{name}_{which}: chunk {coord:?}, {} smooth triangles, {} blocky",
                m.triangle_count(),
                blocky(&f, &samples).triangle_count()
            );
            g.bench_function(id("density_smooth"), |b| {
                b.iter(|| smooth(&f, &s.chunk(&f, black_box(coord))))
            });
            g.bench_function(id("density"), |b| b.iter(|| s.chunk(&f, black_box(coord))));
            g.bench_function(id("smooth_mesh"), |b| {
                b.iter(|| smooth(&f, black_box(&samples)))
            });
            let (mut mesher, mut out) = (Mesher::new(), Mesh::default());
            g.bench_function(id("smooth_mesh_reusing"), |b| {
                b.iter(|| mesher.smooth_into(&f, black_box(&samples), &mut out))
            });
            g.bench_function(id("blocky_mesh"), |b| {
                b.iter(|| blocky(&f, black_box(&samples)))
            });
            let Density::Grid(d) = &samples.density else {
                unreachable!("the cave chunks hold caves")
            };
            let sdf: Vec<f32> = d.iter().map(|v| -v).collect();
            let mut buffer = SurfaceNetsBuffer::default();
            g.bench_function(id("fast_surface_nets"), |b| {
                b.iter(|| surface_nets(black_box(&sdf), &Padded {}, [0; 3], [33; 3], &mut buffer))
            });
        }
    }
    // Version 2 (lattice hash 1) beside the default, each at its own
    // densest chunk: what the faster hash buys a whole chunk.
    for (mode, name) in [(CaveMode::Tubes, "tubes"), (CaveMode::Sheets, "sheets")] {
        let f = field_at(Version::V2, mode);
        let coord = densest(&f);
        let mut s = Sampler::new();
        let id = |what: &str| BenchmarkId::new(what, format!("{name}_densest_v2"));
        g.bench_function(id("density_smooth"), |b| {
            b.iter(|| smooth(&f, &s.chunk(&f, black_box(coord))))
        });
        g.bench_function(id("density"), |b| b.iter(|| s.chunk(&f, black_box(coord))));
    }
    let f = field(CaveMode::Tubes);
    let mut s = Sampler::new();
    for (coord, name) in [(AIR, "all_air"), (SOLID, "all_solid")] {
        g.bench_function(BenchmarkId::new("density_smooth", name), |b| {
            b.iter(|| smooth(&f, &s.chunk(&f, black_box(coord))))
        });
    }
    g.finish();
    assert_eq!(Padded::USIZE, 34 * 34 * 34);
}

fn report(_: &mut criterion::Criterion) {
    let chunks = [
        "tubes_origin",
        "tubes_densest",
        "sheets_origin",
        "sheets_densest",
    ];
    let pairs: Vec<(String, String)> = ["smooth_mesh", "smooth_mesh_reusing"]
        .iter()
        .flat_map(|ours| {
            chunks
                .iter()
                .map(move |c| (format!("{ours}/{c}"), format!("fast_surface_nets/{c}")))
        })
        .collect();
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(a, b)| (&a[..], &b[..])).collect();
    print_ratios("caves_chunk32", 1.0, &pairs);
    println!("(samples/s above are chunks/s; medians are per chunk)");
    let mut ids: Vec<String> = Vec::new();
    for what in ["density_smooth", "density", "blocky_mesh"] {
        ids.extend(chunks.iter().map(|c| format!("{what}/{c}")));
    }
    for what in ["density_smooth", "density"] {
        ids.extend(["tubes_densest_v2", "sheets_densest_v2"].map(|c| format!("{what}/{c}")));
    }
    ids.extend(["density_smooth/all_air", "density_smooth/all_solid"].map(String::from));
    for id in &ids {
        if let Some(ns) = mangekyo_bench::median_ns("caves_chunk32", id) {
            println!("{id:>30} {:>9.4} ms per chunk ({ns:.0} ns)", ns / 1e6);
        }
    }
}

criterion::criterion_group! { name = benches; config = criterion(); targets = bench_chunks, report }
criterion::criterion_main!(benches);
