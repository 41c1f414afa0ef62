//! Levels (our addition): rooms never overlap, the edge stays permanent,
//! and every floor cell is reachable from every other.

mod common;

use common::{checks, slow_tests};
use mangekyo_core::{Pcg32, Seed};
use mangekyo_dungeon::{Feature, LevelParams, build_level};

fn check_level(params: &LevelParams, seed: u64) {
    let level = build_level(params, Seed::new(seed)).unwrap();
    let g = &level.grid;
    let ctx = format!(
        "seed {seed} {}×{} rooms {}",
        params.width, params.height, params.rooms
    );
    checks::all_floor_reachable(g).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    assert!(!level.rooms.is_empty(), "{ctx}: no room");
    let edge = g.bounds();
    for p in g.positions().filter(|&p| edge.on_perimeter(p)) {
        assert_eq!(
            g.get(p).feature,
            Feature::PermanentWall,
            "{ctx}: edge {p:?}"
        );
    }
    for (i, a) in level.rooms.iter().enumerate() {
        assert!(g.get(a.centre).feature.is_floor(), "{ctx}: room {i} centre");
        assert!(
            edge.contains_strictly(mangekyo_dungeon::Pos::new(a.rect.xmin, a.rect.ymin)),
            "{ctx}: room {i} on the edge"
        );
        assert!(
            edge.contains_strictly(mangekyo_dungeon::Pos::new(a.rect.xmax, a.rect.ymax)),
            "{ctx}: room {i} on the edge"
        );
        for b in &level.rooms[i + 1..] {
            assert!(
                !a.rect.overlaps(&b.rect, 0),
                "{ctx}: rooms overlap: {a:?} {b:?}"
            );
        }
    }
    assert!(
        level.corridors + 1 >= level.rooms.len(),
        "{ctx}: too few corridors"
    );
}

#[test]
fn default_levels_are_fully_reachable() {
    let n = if slow_tests() { 10_000 } else { 1000 };
    for seed in 0..n {
        check_level(&LevelParams::default(), seed);
    }
}

#[test]
fn levels_of_any_size_are_fully_reachable() {
    let n = if slow_tests() { 10_000 } else { 1000 };
    let mut r = Pcg32::new(11, 3);
    for seed in 0..n {
        let params = LevelParams {
            width: r.next_int(16, 301) as u32,
            height: r.next_int(16, 121) as u32,
            rooms: r.next_int(1, 25) as u32,
            cutoff: if seed % 5 == 0 {
                Some(r.next_int(4, 30) as u32)
            } else {
                None
            },
            ..LevelParams::default()
        };
        check_level(&params, seed);
    }
}

#[test]
fn a_full_level_holds_several_rooms() {
    let rooms: Vec<usize> = (0..50)
        .map(|s| {
            build_level(&LevelParams::default(), Seed::new(s))
                .unwrap()
                .rooms
                .len()
        })
        .collect();
    let mean = rooms.iter().sum::<usize>() as f64 / rooms.len() as f64;
    assert!(mean >= 6.0, "mean rooms per 198×66 level {mean}");
}
