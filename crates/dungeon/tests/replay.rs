//! Replays all 47 Hengband fixtures through our generators: every draw's
//! kind and `n` must match the log, the log must be used up, and heights
//! (failed passes' included), features, flags, amount and return value must
//! match cell for cell. The §7 checks run on every fixture too.

mod common;

use common::{Fixture, Replay, checks, fixture_feature, load_fixtures};
use mangekyo_dungeon::drivers::{self, Attempt, Overrides};
use mangekyo_dungeon::{
    Cell, FillOutcome, FracaveArgs, Grid, HeightMap, HmapArgs, LakeArgs, LakeKind, Pos,
    generate_fracave, generate_hmap, generate_lake,
};

/// What a replay produced.
struct Run {
    grid: Grid,
    attempts: Vec<Attempt>,
}

fn run_type9(f: &Fixture, grid: &mut Grid, rng: &mut Replay) -> Vec<Attempt> {
    let drawn = drivers::draw_room_size(rng);
    let size = (f.int("w"), f.int("h"));
    if f.case != "room_fallback_8x8" {
        assert_eq!(drawn, size, "{}: drawn size", f.case);
    }
    let light = drivers::draw_light(rng, f.int("dun_level"), 25, f.flag("darkness"));
    assert_eq!(light, f.flag("light"), "{}: light", f.case);
    let centre = Pos::new(f.int("centre_x"), f.int("centre_y"));
    drivers::fractal_room(grid, centre, size, light, &Overrides::default(), rng).expect("room")
}

fn run_cavern(f: &Fixture, grid: &mut Grid, rng: &mut Replay) -> Vec<Attempt> {
    let light = drivers::draw_light(rng, f.int("dun_level"), 50, f.flag("darkness"));
    assert_eq!(light, f.flag("light"), "{}: light", f.case);
    let (centre, xsize, ysize) = drivers::level_rect(grid.width(), grid.height());
    assert_eq!(
        (centre, xsize, ysize),
        (
            Pos::new(f.int("x0"), f.int("y0")),
            f.int("xsize"),
            f.int("ysize")
        )
    );
    drivers::cavern(grid, light, &Overrides::default(), rng).expect("cavern")
}

fn hmap_args(f: &Fixture, cutoff: i32) -> HmapArgs {
    HmapArgs {
        centre: Pos::new(f.int("x0"), f.int("y0")),
        xsize: f.int("xsize"),
        ysize: f.int("ysize"),
        grd: f.int("grd"),
        roughness: f.int("roug"),
        cutoff,
    }
}

fn single(
    heights: HeightMap,
    cutoffs: [i32; 3],
    outcome: FillOutcome,
    f: &Fixture,
) -> Vec<Attempt> {
    vec![Attempt {
        grd: f.int("grd"),
        roughness: f.int("roug"),
        cutoffs,
        outcome,
        heights,
    }]
}

fn run_fracave(f: &Fixture, grid: &mut Grid, rng: &mut Replay) -> Vec<Attempt> {
    let cutoff = f.int("cutoff");
    let heights = generate_hmap(&hmap_args(f, cutoff), rng).expect("hmap");
    let args = FracaveArgs {
        cutoff,
        light: f.flag("light"),
        room: f.flag("room"),
    };
    let outcome = generate_fracave(grid, &heights, &args, rng).expect("fracave");
    checks::fracave(grid, &heights, cutoff, args.light, args.room, outcome)
        .unwrap_or_else(|e| panic!("{}: §7: {e}", f.case));
    single(heights, [cutoff, 0, 0], outcome, f)
}

fn lake_args(f: &Fixture) -> LakeArgs {
    let kind = LakeKind::from_number(f.int("type") as u8).expect("lake type");
    LakeArgs {
        kind,
        cutoffs: [f.int("c1"), f.int("c2"), f.int("c3")],
        lava_glows: !f.flag("darkness"),
    }
}

fn run_lake(f: &Fixture, grid: &mut Grid, rng: &mut Replay) -> Vec<Attempt> {
    let args = lake_args(f);
    assert_eq!(f.int("cutoff"), args.cutoffs[2]);
    let heights = generate_hmap(&hmap_args(f, args.cutoffs[2]), rng).expect("hmap");
    let outcome = generate_lake(grid, &heights, &args, rng).expect("lake");
    let feats = ["feat1", "feat2", "feat3"]
        .map(|k| fixture_feature(f.params[k].as_str().expect("feat name")));
    checks::lake(grid, &heights, &args, feats, outcome)
        .unwrap_or_else(|e| panic!("{}: §7: {e}", f.case));
    single(heights, args.cutoffs, outcome, f)
}

fn replay(f: &Fixture) -> Run {
    let mut grid = Grid::new(f.dungeon.width, f.dungeon.height);
    let mut rng = Replay::new(f);
    let attempts = match f.function.as_str() {
        "build_type9" => run_type9(f, &mut grid, &mut rng),
        "build_cavern" => run_cavern(f, &mut grid, &mut rng),
        "generate_hmap+generate_fracave" => run_fracave(f, &mut grid, &mut rng),
        "generate_hmap+generate_lake" => run_lake(f, &mut grid, &mut rng),
        other => panic!("{}: unknown function {other}", f.case),
    };
    assert_eq!(
        rng.left(),
        0,
        "{}: {} of {} draws left over",
        f.case,
        rng.left(),
        f.draws.len()
    );
    assert_eq!(rng.used(), f.draws.len());
    Run { grid, attempts }
}

fn compare_heights(f: &Fixture, what: &str, got: &HeightMap, want: &[i32]) {
    let r = got.rect();
    assert_eq!(
        (r.xmin, r.ymin, r.xmax, r.ymax),
        (f.window.xmin, f.window.ymin, f.window.xmax, f.window.ymax),
        "{}",
        f.case
    );
    assert_eq!(
        got.heights().len(),
        want.len(),
        "{}: {what}: cell count",
        f.case
    );
    for (i, (&g, &w)) in got.heights().iter().zip(want).enumerate() {
        let (x, y) = (i % f.window.width, i / f.window.width);
        assert_eq!(
            i32::from(g),
            w,
            "{}: {what}: height at window ({x}, {y})",
            f.case
        );
    }
}

fn compare_attempts(f: &Fixture, run: &Run) {
    let last = run.attempts.last().expect("an attempt");
    assert_eq!(last.outcome.succeeded, f.returned, "{}: returned", f.case);
    assert_eq!(last.outcome.amount, f.amount, "{}: amount", f.case);
    compare_heights(f, "heights", &last.heights, &f.heights);
    if f.attempts.is_empty() {
        return;
    }
    assert_eq!(
        run.attempts.len(),
        f.attempts.len(),
        "{}: attempt count",
        f.case
    );
    for (i, (got, want)) in run.attempts.iter().zip(&f.attempts).enumerate() {
        let got_params = (
            got.grd,
            got.roughness,
            got.cutoffs[0],
            got.outcome.amount,
            got.outcome.succeeded,
        );
        assert_eq!(
            got_params,
            (want.grd, want.roug, want.cutoff, want.amount, want.returned),
            "{}: attempt {i}",
            f.case
        );
        if let Some(h) = &want.heights {
            compare_heights(f, &format!("attempt {i} heights"), &got.heights, h);
        }
        checks::heightmap(&got.heights)
            .unwrap_or_else(|e| panic!("{}: attempt {i}: §7.2: {e}", f.case));
    }
    assert_eq!(
        f.attempts.last().map(|a| a.draws_end),
        Some(f.draws.len()),
        "{}: log ends with the last pass",
        f.case
    );
}

fn compare_cells(f: &Fixture, grid: &Grid) {
    let w = &f.window;
    for y in w.ymin..=w.ymax {
        for x in w.xmin..=w.xmax {
            let i = (y - w.ymin) as usize * w.width + (x - w.xmin) as usize;
            let cell = grid.get(Pos::new(x, y));
            assert_eq!(
                cell.feature,
                fixture_feature(&f.features[i]),
                "{}: feature at ({x}, {y})",
                f.case
            );
            let names: Vec<String> = cell
                .flags
                .names()
                .iter()
                .map(|n| n.to_uppercase())
                .collect();
            assert_eq!(names, f.flags[i], "{}: flags at ({x}, {y})", f.case);
        }
    }
    for p in grid.positions() {
        let inside = p.x >= w.xmin && p.x <= w.xmax && p.y >= w.ymin && p.y <= w.ymax;
        assert!(
            inside || grid.get(p) == Cell::CLEARED,
            "{}: {p:?} outside the window changed",
            f.case
        );
    }
}

#[test]
fn every_fixture_replays_exactly() {
    let fixtures = load_fixtures();
    assert_eq!(fixtures.len(), 47, "fixture count");
    for f in &fixtures {
        let run = replay(f);
        compare_attempts(f, &run);
        compare_cells(f, &run.grid);
        let last = run.attempts.last().expect("an attempt");
        checks::heightmap(&last.heights).unwrap_or_else(|e| panic!("{}: §7.2: {e}", f.case));
    }
}

#[test]
fn degenerate_draws_are_logged_and_replayed() {
    // The logs hold Hengband's n <= 1 calls (which draw nothing); the
    // replay pops them too, so their positions are checked, not skipped.
    let fixtures = load_fixtures();
    let degenerate: usize = fixtures
        .iter()
        .map(|f| f.draws.iter().filter(|d| d.1 <= 1).count())
        .sum();
    assert!(degenerate > 20_000, "{degenerate}");
}
