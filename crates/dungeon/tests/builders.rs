//! The builders end to end: their grids satisfy §7 for the last pass,
//! overrides are honoured, output is deterministic, and hopeless or
//! out-of-range parameters get a clear error.

mod common;

use common::checks;
use mangekyo_dungeon::drivers::{self, Attempt, MAX_ATTEMPTS, Overrides};
use mangekyo_dungeon::{
    CavernParams, Cell, DungeonError, DungeonRng, Feature, Flags, FloorTable, Grid, LakeArgs,
    LakeKind, LakeParams, Pos, RoomKind, RoomParams, Seed, build_cavern, build_lake, build_room,
};

fn last(attempts: &[Attempt]) -> &Attempt {
    let a = attempts.last().expect("an attempt");
    assert!(a.outcome.succeeded);
    assert!(
        attempts[..attempts.len() - 1]
            .iter()
            .all(|a| !a.outcome.succeeded)
    );
    a
}

/// The grid as it was before `make_perm_walls` (the edge cells were
/// untouched or granite, which is `Cell::CLEARED` either way) and before the
/// vault's ICKY marks.
fn unwrapped(grid: &Grid) -> Grid {
    let mut g = grid.clone();
    for p in g.positions().collect::<Vec<_>>() {
        let c = g.cell_mut(p);
        if c.feature == Feature::PermanentWall {
            *c = Cell::CLEARED;
        }
        c.flags.remove(Flags::ICKY);
    }
    g
}

#[test]
fn rooms_and_vaults_satisfy_section_7() {
    for seed in 0..1000u64 {
        let kind = if seed % 4 == 0 {
            RoomKind::CaveVault
        } else {
            RoomKind::Fractal
        };
        let room = build_room(
            &RoomParams {
                kind,
                depth: 1 + (seed % 30) as u32,
                ..RoomParams::default()
            },
            Seed::new(seed),
        )
        .unwrap();
        let a = last(&room.attempts);
        assert_eq!(
            kind == RoomKind::CaveVault,
            room.grid
                .cells()
                .iter()
                .all(|c| c.flags.contains(Flags::ICKY))
        );
        checks::fracave(
            &unwrapped(&room.grid),
            &a.heights,
            a.cutoffs[0],
            room.light,
            true,
            a.outcome,
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

#[test]
fn caverns_satisfy_section_7() {
    for seed in 0..40u64 {
        let params = CavernParams {
            width: 60 + seed as u32 * 3,
            height: 20 + seed as u32,
            ..CavernParams::default()
        };
        let cavern = build_cavern(&params, Seed::new(seed)).unwrap();
        let a = last(&cavern.attempts);
        assert_eq!(a.cutoffs[0], (a.heights.sides().0) / 2);
        assert!((5..=8).contains(&a.grd));
        checks::fracave(
            &unwrapped(&cavern.grid),
            &a.heights,
            a.cutoffs[0],
            cavern.light,
            false,
            a.outcome,
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(
            cavern
                .grid
                .cells()
                .iter()
                .all(|c| !c.flags.contains(Flags::ROOM))
        );
    }
}

#[test]
fn lakes_satisfy_section_7() {
    for seed in 0..140u64 {
        let kind = LakeKind::ALL[(seed % 7) as usize];
        let params = LakeParams {
            kind,
            width: Some(66),
            height: Some(22),
            floors: mangekyo_dungeon::FloorTable::PLAIN,
            ..LakeParams::default()
        };
        let params = if kind.is_vault() {
            LakeParams {
                width: None,
                height: None,
                ..params
            }
        } else {
            params
        };
        let lake = build_lake(&params, Seed::new(seed)).unwrap();
        let a = last(&lake.attempts);
        let [c1, c2, c3] = a.cutoffs;
        let xsize = a.heights.sides().0;
        assert_eq!(
            c3,
            if kind.is_vault() {
                2 * xsize / 3
            } else {
                3 * xsize / 4
            }
        );
        assert!(
            c1 >= -5 && c1 <= 2 * (c3 / 2 - 1) - 5 && c2 == (c1 + c3) / 2,
            "{:?}",
            a.cutoffs
        );
        let feats = match kind {
            LakeKind::Lava => [Feature::DeepLava, Feature::ShallowLava, Feature::Floor],
            LakeKind::Water => [Feature::DeepWater, Feature::ShallowWater, Feature::Floor],
            LakeKind::Cave => [Feature::Floor, Feature::Floor, Feature::Rubble],
            LakeKind::EarthVault => [Feature::Rubble, Feature::Floor, Feature::Rubble],
            LakeKind::AirVault => [Feature::Grass, Feature::Tree, Feature::Grass],
            LakeKind::WaterVault => [
                Feature::ShallowWater,
                Feature::DeepWater,
                Feature::ShallowWater,
            ],
            LakeKind::FireVault => [
                Feature::ShallowLava,
                Feature::DeepLava,
                Feature::ShallowLava,
            ],
        };
        let args = LakeArgs {
            kind,
            cutoffs: a.cutoffs,
            lava_glows: true,
        };
        checks::lake(&unwrapped(&lake.grid), &a.heights, &args, feats, a.outcome)
            .unwrap_or_else(|e| panic!("seed {seed} {kind:?}: {e}"));
    }
}

#[test]
fn overrides_are_used_and_keep_the_other_draws() {
    let base = build_room(&RoomParams::default(), Seed::new(77)).unwrap();
    let p = RoomParams {
        grd: Some(3),
        roughness: Some(20),
        cutoff: Some(9),
        light: Some(false),
        ..RoomParams::default()
    };
    let room = build_room(&p, Seed::new(77)).unwrap();
    assert!(
        room.attempts
            .iter()
            .all(|a| (a.grd, a.roughness, a.cutoffs[0]) == (3, 20, 9))
    );
    assert!(!room.light);
    // Same size draw as without overrides: overriding never shifts the stream.
    assert_eq!(
        (room.grid.width(), room.grid.height()),
        (base.grid.width(), base.grid.height())
    );
    let sized = build_room(
        &RoomParams {
            width: Some(20),
            height: Some(10),
            ..RoomParams::default()
        },
        Seed::new(77),
    )
    .unwrap();
    assert_eq!((sized.grid.width(), sized.grid.height()), (21, 11));
}

#[test]
fn builders_are_deterministic() {
    for seed in [0u64, 1, 99, u64::MAX] {
        let s = Seed::new(seed);
        assert_eq!(
            build_room(&RoomParams::default(), s),
            build_room(&RoomParams::default(), s)
        );
        assert_eq!(
            build_cavern(&CavernParams::default(), s),
            build_cavern(&CavernParams::default(), s)
        );
        assert_eq!(
            build_lake(&LakeParams::default(), s),
            build_lake(&LakeParams::default(), s)
        );
    }
    let a = build_room(&RoomParams::default(), Seed::parse("alpha")).unwrap();
    let b = build_room(&RoomParams::default(), Seed::parse("beta")).unwrap();
    assert_ne!(a.grid, b.grid);
}

#[test]
fn hopeless_parameters_give_up_with_a_clear_error() {
    // A 4×4 rectangle has 9 interior cells, so no pass can reach 10: where
    // Hengband would loop forever, the driver stops with an error.
    let mut grid = Grid::new(9, 9);
    let mut rng = DungeonRng::new(Seed::new(1), FloorTable::default());
    let got = drivers::fractal_room(
        &mut grid,
        Pos::new(4, 4),
        (4, 4),
        true,
        &Overrides::default(),
        &mut rng,
    );
    let Err(err) = got else {
        panic!("a 4×4 room succeeded")
    };
    assert!(
        matches!(
            err,
            DungeonError::RetriesExhausted {
                what: "fractal room",
                attempts: MAX_ATTEMPTS,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("no fractal room with at least 10 cells after 1000 attempts"),
        "{err}"
    );
    assert!(
        grid.cells().iter().all(|&c| c == Cell::CLEARED),
        "failed passes leave granite"
    );
}

#[test]
fn out_of_range_parameters_name_the_allowed_range() {
    let cases: [(Result<(), DungeonError>, &str); 6] = [
        (
            RoomParams {
                width: Some(300),
                ..RoomParams::default()
            }
            .validate(),
            "width must be in 8..=254, got 300",
        ),
        (
            RoomParams {
                cutoff: Some(0),
                ..RoomParams::default()
            }
            .validate(),
            "cutoff must be in 1..=512, got 0",
        ),
        (
            RoomParams {
                roughness: Some(256),
                ..RoomParams::default()
            }
            .validate(),
            "roughness must be in 0..=255, got 256",
        ),
        (
            CavernParams {
                height: 4,
                ..CavernParams::default()
            }
            .validate(),
            "height must be in 8..=256, got 4",
        ),
        (
            CavernParams {
                grd: Some(255),
                ..CavernParams::default()
            }
            .validate(),
            "grd must be in 1..=254, got 255",
        ),
        (
            LakeParams {
                kind: LakeKind::FireVault,
                height: Some(300),
                ..LakeParams::default()
            }
            .validate(),
            "height must be in 8..=254, got 300",
        ),
    ];
    for (got, want) in cases {
        assert_eq!(got.unwrap_err().to_string(), want);
    }
}
