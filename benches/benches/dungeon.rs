//! Hengband fractal caves: how many type-9 rooms per second, and how long a
//! full 198×66 cavern level takes (plus a corridor-joined level and the
//! bare heightmap + fill of one fixed room, to show where the time goes).
//!
//! Fairness note: no crate implements Hengband's fractal cave, so there is
//! no competitor here; each figure is ours alone. Room and level benches
//! advance the seed every iteration (sizes and retries vary as in play),
//! so they report the mean cost over seeds, not one lucky map. Everything
//! is single-threaded and allocates its grid per build, as a caller would.

use criterion::Throughput;
use mangekyo_bench::{criterion, median_ns};
use mangekyo_dungeon::{
    CavernParams, DungeonRng, FloorTable, FracaveArgs, Grid, HmapArgs, LevelParams, Pos,
    RoomParams, Seed, build_cavern, build_level, build_room, generate_fracave, generate_hmap,
};
use std::hint::black_box;

const ROOMS: &str = "dungeon_rooms";
const LEVELS: &str = "dungeon_levels";

fn bench_rooms(c: &mut criterion::Criterion) {
    let mut g = c.benchmark_group(ROOMS);
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    g.bench_function("type9_room_random_size", |b| {
        b.iter(|| {
            seed += 1;
            black_box(build_room(&RoomParams::default(), Seed::new(seed)).unwrap())
        })
    });
    // One pass on a fixed 40×24 rectangle: heightmap, then fill and walls.
    let args = HmapArgs {
        centre: Pos::new(21, 13),
        xsize: 40,
        ysize: 24,
        grd: 4,
        roughness: 16,
        cutoff: 12,
    };
    let mut rng = DungeonRng::new(Seed::new(1), FloorTable::default());
    g.bench_function("hmap_40x24", |b| {
        b.iter(|| black_box(generate_hmap(&args, &mut rng).unwrap()))
    });
    g.bench_function("hmap_plus_fracave_40x24", |b| {
        b.iter(|| {
            let h = generate_hmap(&args, &mut rng).unwrap();
            let mut grid = Grid::new(43, 27);
            let fill = FracaveArgs {
                cutoff: args.cutoff,
                light: true,
                room: true,
            };
            black_box(generate_fracave(&mut grid, &h, &fill, &mut rng).unwrap())
        })
    });
    g.finish();
}

fn bench_levels(c: &mut criterion::Criterion) {
    let mut g = c.benchmark_group(LEVELS);
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    g.bench_function("cavern_198x66", |b| {
        b.iter(|| {
            seed += 1;
            black_box(build_cavern(&CavernParams::default(), Seed::new(seed)).unwrap())
        })
    });
    g.bench_function("level_198x66_8_rooms", |b| {
        b.iter(|| {
            seed += 1;
            black_box(build_level(&LevelParams::default(), Seed::new(seed)).unwrap())
        })
    });
    g.finish();
}

fn report() {
    println!("\n== dungeon: medians ==");
    for (group, id) in [
        (ROOMS, "type9_room_random_size"),
        (ROOMS, "hmap_40x24"),
        (ROOMS, "hmap_plus_fracave_40x24"),
        (LEVELS, "cavern_198x66"),
        (LEVELS, "level_198x66_8_rooms"),
    ] {
        match median_ns(group, id) {
            Some(ns) => println!(
                "{id:>26} {:>10.1} µs {:>10.0} per second",
                ns / 1e3,
                1e9 / ns
            ),
            None => println!("{id:>26} not measured in this run"),
        }
    }
}

fn main() {
    let mut c = criterion();
    bench_rooms(&mut c);
    bench_levels(&mut c);
    c.final_summary();
    report();
}
