//! Cave chunks: time per 32³ chunk for the density (the box sampler) plus
//! the smooth mesh, on a cave-dense chunk and on chunks the bounds decide
//! (all air above the surface, all rock below the floor); and our surface
//! nets against the `fast-surface-nets` crate on the same sampled field.
//!
//! Fairness notes: both meshers get the same 34³ padded f32 grid (theirs
//! negated: their inside is negative). Ours also computes each chunk's
//! open-sky heights (a per-column scan, part of every mesh) and the sky
//! value per vertex, and quantises positions for exact seams; theirs
//! computes normals the same way (face-sum gradient). Single-threaded.

use criterion::{BenchmarkId, Throughput};
use fast_surface_nets::ndshape::{ConstShape, ConstShape3u32};
use fast_surface_nets::{SurfaceNetsBuffer, surface_nets};
use mangekyo_bench::{criterion, print_ratios};
use mangekyo_caves::mesh::{blocky, smooth};
use mangekyo_caves::{CaveField, CaveMode, CaveParams, ChunkCoord, Density, Sampler, Seed};
use std::hint::black_box;

type Padded = ConstShape3u32<34, 34, 34>;

fn field(mode: CaveMode) -> CaveField {
    CaveField::new(
        &CaveParams {
            mode,
            ..CaveParams::default()
        },
        Seed::new(42),
    )
    .unwrap()
}

/// The cave-dense chunk: voxels 0..32 on each axis hold the surface, the
/// worm layer and the floor.
const DENSE: ChunkCoord = ChunkCoord::new(0, 0, 0);
const AIR: ChunkCoord = ChunkCoord::new(0, 3, 0);
const SOLID: ChunkCoord = ChunkCoord::new(0, -2, 0);

fn bench_chunks(c: &mut criterion::Criterion) {
    let mut g = c.benchmark_group("caves_chunk32");
    g.throughput(Throughput::Elements(1));
    for (mode, name) in [(CaveMode::Tubes, "tubes"), (CaveMode::Sheets, "sheets")] {
        let f = field(mode);
        let mut s = Sampler::new();
        g.bench_function(BenchmarkId::new("density_smooth", name), |b| {
            b.iter(|| smooth(&f, &s.chunk(&f, black_box(DENSE))))
        });
        g.bench_function(BenchmarkId::new("density", name), |b| {
            b.iter(|| s.chunk(&f, black_box(DENSE)))
        });
        let samples = s.chunk(&f, DENSE);
        g.bench_function(BenchmarkId::new("smooth_mesh", name), |b| {
            b.iter(|| smooth(&f, black_box(&samples)))
        });
        g.bench_function(BenchmarkId::new("blocky_mesh", name), |b| {
            b.iter(|| blocky(&f, black_box(&samples)))
        });
        let Density::Grid(d) = &samples.density else {
            unreachable!("the dense chunk holds caves")
        };
        let sdf: Vec<f32> = d.iter().map(|v| -v).collect();
        let mut buffer = SurfaceNetsBuffer::default();
        g.bench_function(BenchmarkId::new("fast_surface_nets", name), |b| {
            b.iter(|| surface_nets(black_box(&sdf), &Padded {}, [0; 3], [33; 3], &mut buffer))
        });
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
    let pairs = [
        ("smooth_mesh/tubes", "fast_surface_nets/tubes"),
        ("smooth_mesh/sheets", "fast_surface_nets/sheets"),
    ];
    print_ratios("caves_chunk32", 1.0, &pairs);
    println!("(samples/s above are chunks/s; medians are per chunk)");
    for id in [
        "density_smooth/tubes",
        "density_smooth/sheets",
        "density/tubes",
        "density/sheets",
        "blocky_mesh/tubes",
        "density_smooth/all_air",
        "density_smooth/all_solid",
    ] {
        if let Some(ns) = mangekyo_bench::median_ns("caves_chunk32", id) {
            println!("{id:>28} {:>9.4} ms per chunk", ns / 1e6);
        }
    }
}

criterion::criterion_group! { name = benches; config = criterion(); targets = bench_chunks, report }
criterion::criterion_main!(benches);
