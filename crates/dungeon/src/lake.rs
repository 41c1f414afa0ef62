//! `generate_lake`: the same heightmap and fill with three height bands,
//! for Hengband's seven lake types.

use crate::error::DungeonError;
use crate::fill::{Bands, Visited, cave_fill};
use crate::fracave::{
    FillOutcome, MIN_CAVE_CELLS, check_fits, column_order, interior_order, perimeter_order,
};
use crate::grid::{Feature, Flags, Grid};
use crate::hmap::HeightMap;
use crate::random::RandomSource;
use serde::{Deserialize, Serialize};

/// Hengband's lake types (`LAKE_T_*`, numbered 1..=7 in the original).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LakeKind {
    /// 1: deep lava, shallow lava, floor.
    Lava,
    /// 2: deep water, shallow water, floor.
    Water,
    /// 3: a collapsed cave: floor, floor, rubble.
    Cave,
    /// 4: rubble, floor, rubble (elemental vault below depth 25).
    EarthVault,
    /// 5: grass, tree, grass (elemental vault, depth 25..50).
    AirVault,
    /// 6: shallow water, deep water, shallow water (depth 50..75).
    WaterVault,
    /// 7: shallow lava, deep lava, shallow lava (depth 75 and below).
    FireVault,
}

impl LakeKind {
    /// All seven, in the original's numbering order.
    pub const ALL: [LakeKind; 7] = [
        LakeKind::Lava,
        LakeKind::Water,
        LakeKind::Cave,
        LakeKind::EarthVault,
        LakeKind::AirVault,
        LakeKind::WaterVault,
        LakeKind::FireVault,
    ];

    /// The original's type number, 1..=7.
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The kind with the original's type number.
    pub fn from_number(n: u8) -> Option<LakeKind> {
        LakeKind::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    /// The snake_case name.
    pub const fn name(self) -> &'static str {
        match self {
            LakeKind::Lava => "lava",
            LakeKind::Water => "water",
            LakeKind::Cave => "cave",
            LakeKind::EarthVault => "earth_vault",
            LakeKind::AirVault => "air_vault",
            LakeKind::WaterVault => "water_vault",
            LakeKind::FireVault => "fire_vault",
        }
    }

    /// Whether the original builds this kind as an elemental vault (4..=7)
    /// rather than across a whole level (1..=3).
    pub const fn is_vault(self) -> bool {
        (self as u8) >= LakeKind::EarthVault as u8
    }

    /// The three band features, drawing the dungeon floor where the type
    /// asks for it, in the original's order (feat1, then feat2, then feat3).
    fn features<R: RandomSource + ?Sized>(self, rng: &mut R) -> [Feature; 3] {
        use Feature::*;
        match self {
            LakeKind::Lava => [DeepLava, ShallowLava, rng.floor_terrain()],
            LakeKind::Water => [DeepWater, ShallowWater, rng.floor_terrain()],
            LakeKind::Cave => {
                let f1 = rng.floor_terrain();
                [f1, rng.floor_terrain(), Rubble]
            }
            LakeKind::EarthVault => [Rubble, rng.floor_terrain(), Rubble],
            LakeKind::AirVault => [Grass, Tree, Grass],
            LakeKind::WaterVault => [ShallowWater, DeepWater, ShallowWater],
            LakeKind::FireVault => [ShallowLava, DeepLava, ShallowLava],
        }
    }
}

/// The inputs of `generate_lake` besides the heightmap (which was built
/// with `cutoff = c3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LakeArgs {
    /// The lake type.
    pub kind: LakeKind,
    /// Band cutoffs `c1 ≤ c2 ≤ c3` (not enforced: the original does not).
    pub cutoffs: [i32; 3],
    /// Lava cells get GLOW (the original: unless the dungeon is DARKNESS).
    pub lava_glows: bool,
}

/// Hengband's `generate_lake` on the rectangle of `hmap`. On failure
/// (fewer than 10 cells) the whole rectangle becomes floor, one floor pick
/// per cell. On success the perimeter, unreached cells and cells above `c3`
/// become granite; accepted cells carry no kind bit.
pub fn generate_lake<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    hmap: &HeightMap,
    args: &LakeArgs,
    rng: &mut R,
) -> Result<FillOutcome, DungeonError> {
    let rect = hmap.rect();
    check_fits(grid, rect)?;
    let feats = args.kind.features(rng);
    let bands = Bands {
        cutoffs: args.cutoffs,
        feats,
        infos: [Flags::NONE; 3],
    };
    let mut visited = Visited::new(rect);
    let amount = cave_fill(grid, hmap, &bands, &mut visited, rng);
    if amount < MIN_CAVE_CELLS {
        for p in column_order(rect) {
            let floor = rng.floor_terrain();
            grid.place(p, floor, Flags::FLOOR);
            grid.cell_mut(p).flags.remove(Flags::ICKY);
        }
        return Ok(FillOutcome {
            succeeded: false,
            amount,
        });
    }
    for p in perimeter_order(rect) {
        let wall = rng.wall_terrain();
        grid.place(p, wall, Flags::EXTRA);
        grid.cell_mut(p).flags.remove(Flags::ICKY);
    }
    for p in interior_order(rect) {
        if !visited.get(p) || grid.get(p).flags.contains(Flags::OUTER) {
            let wall = rng.wall_terrain();
            grid.place(p, wall, Flags::EXTRA);
        }
        let cell = grid.cell_mut(p);
        cell.flags.remove(Flags::ICKY | Flags::ROOM);
        if args.lava_glows && cell.feature.is_lava() {
            cell.flags.insert(Flags::GLOW);
        }
    }
    Ok(FillOutcome {
        succeeded: true,
        amount,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_round_trips() {
        for k in LakeKind::ALL {
            assert_eq!(LakeKind::from_number(k.number()), Some(k));
        }
        assert_eq!(LakeKind::from_number(0), None);
        assert_eq!(LakeKind::from_number(8), None);
        assert!(!LakeKind::Cave.is_vault() && LakeKind::EarthVault.is_vault());
    }
}
