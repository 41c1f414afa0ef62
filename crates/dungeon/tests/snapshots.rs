//! Golden ASCII snapshots of a few rooms, caverns, lakes and a level, and
//! golden hashes of the decoded grids. The snapshots are plain text under
//! `tests/snapshots/`, compared exactly; run with `UPDATE_SNAPSHOTS=1` to
//! rewrite them after a deliberate change (and bump `GENERATOR_VERSION`).

use mangekyo_dungeon::{
    CavernParams, GENERATOR_VERSION, Grid, LakeKind, LakeParams, LevelParams, RoomKind, RoomParams,
    Seed, build_cavern, build_lake, build_level, build_room, view,
};
use std::path::PathBuf;

fn check_snapshot(name: &str, header: &str, grid: &Grid) {
    let text = format!("{header}\n{}", view::to_ascii(grid));
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.txt"));
    // Read before any rewrite: `UPDATE_SNAPSHOTS=1` writes the new grid and
    // still fails on a change (as core's `UPDATE_GOLDENS`); the next run passes.
    let want = std::fs::read_to_string(&path);
    if std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &text).expect("write snapshot");
    }
    let want = want.unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_SNAPSHOTS=1 to create it)",
            path.display()
        )
    });
    assert!(
        want == text,
        "{name}: grid differs from {}; got:\n{text}",
        path.display()
    );
}

fn room(seed: u64, params: RoomParams) -> Grid {
    build_room(&params, Seed::new(seed)).unwrap().grid
}

#[test]
fn rooms() {
    check_snapshot(
        "room_seed1",
        "# build_room, default params, seed 1",
        &room(1, RoomParams::default()),
    );
    check_snapshot(
        "room_seed2",
        "# build_room, default params, seed 2",
        &room(2, RoomParams::default()),
    );
    let big = RoomParams {
        width: Some(50),
        height: Some(36),
        grd: Some(8),
        roughness: Some(16),
        ..RoomParams::default()
    };
    check_snapshot(
        "room_50x36_grd8",
        "# build_room width 50 height 36 grd 8 roughness 16, seed 3",
        &room(3, big),
    );
    let vault = RoomParams {
        kind: RoomKind::CaveVault,
        ..RoomParams::default()
    };
    check_snapshot(
        "cave_vault_seed4",
        "# build_room kind cave_vault, seed 4",
        &room(4, vault),
    );
}

#[test]
fn caverns() {
    let small = CavernParams {
        width: 66,
        height: 22,
        ..CavernParams::default()
    };
    check_snapshot(
        "cavern_66x22_seed5",
        "# build_cavern 66x22, seed 5",
        &build_cavern(&small, Seed::new(5)).unwrap().grid,
    );
    let full = build_cavern(&CavernParams::default(), Seed::new(6))
        .unwrap()
        .grid;
    check_snapshot(
        "cavern_198x66_seed6",
        "# build_cavern default (198x66), seed 6",
        &full,
    );
}

#[test]
fn lakes() {
    let water = LakeParams {
        width: Some(66),
        height: Some(22),
        ..LakeParams::default()
    };
    check_snapshot(
        "lake_water_66x22_seed7",
        "# build_lake kind water 66x22, seed 7",
        &build_lake(&water, Seed::new(7)).unwrap().grid,
    );
    let lava = LakeParams {
        kind: LakeKind::Lava,
        width: Some(80),
        height: Some(24),
        ..LakeParams::default()
    };
    check_snapshot(
        "lake_lava_80x24_seed8",
        "# build_lake kind lava 80x24, seed 8",
        &build_lake(&lava, Seed::new(8)).unwrap().grid,
    );
    let air = LakeParams {
        kind: LakeKind::AirVault,
        ..LakeParams::default()
    };
    check_snapshot(
        "lake_air_vault_seed9",
        "# build_lake kind air_vault, seed 9",
        &build_lake(&air, Seed::new(9)).unwrap().grid,
    );
}

#[test]
fn level() {
    let p = LevelParams {
        width: 100,
        height: 40,
        rooms: 5,
        ..LevelParams::default()
    };
    check_snapshot(
        "level_100x40_seed10",
        "# build_level 100x40 rooms 5, seed 10",
        &build_level(&p, Seed::new(10)).unwrap().grid,
    );
}

/// xxh3 over the feature bytes and the little-endian flag bits, row-major.
fn grid_hash(grid: &Grid) -> u64 {
    let mut bytes = Vec::with_capacity(grid.cells().len() * 3);
    for c in grid.cells() {
        bytes.push(c.feature as u8);
        bytes.extend_from_slice(&c.flags.bits().to_le_bytes());
    }
    xxhash_rust::xxh3::xxh3_64(&bytes)
}

#[test]
fn golden_hashes() {
    // Moving any of these is a generator change: bump GENERATOR_VERSION.
    assert_eq!(GENERATOR_VERSION, 1);
    let got = [
        grid_hash(&room(1, RoomParams::default())),
        grid_hash(&room(
            4,
            RoomParams {
                kind: RoomKind::CaveVault,
                ..RoomParams::default()
            },
        )),
        grid_hash(
            &build_cavern(&CavernParams::default(), Seed::new(1))
                .unwrap()
                .grid,
        ),
        grid_hash(
            &build_lake(&LakeParams::default(), Seed::new(1))
                .unwrap()
                .grid,
        ),
        grid_hash(
            &build_lake(
                &LakeParams {
                    kind: LakeKind::FireVault,
                    ..LakeParams::default()
                },
                Seed::new(1),
            )
            .unwrap()
            .grid,
        ),
        grid_hash(
            &build_level(&LevelParams::default(), Seed::new(1))
                .unwrap()
                .grid,
        ),
    ];
    assert_eq!(got, GOLDEN, "got {got:#018x?}");
}

const GOLDEN: [u64; 6] = [
    0x03a33d5e9e934785,
    0xd13d4b9b29b13061,
    0x9c26f41710e0c2a4,
    0x769dcbbf5ce3fc0c,
    0x7fb3b86b3df1a7da,
    0xee92eed594992168,
];
