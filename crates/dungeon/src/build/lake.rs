//! Lakes of the seven kinds: across a whole level (Hengband's
//! `build_lake`) or as an elemental vault (`build_elemental_vault`).

use crate::build::{check_level_side, check_room_side, overrides};
use crate::drivers::{self, Attempt};
use crate::error::DungeonError;
use crate::grid::{Grid, Pos, Rect};
use crate::lake::LakeKind;
use crate::random::{DungeonRng, FloorTable};
use mangekyo_core::Seed;
use serde::{Deserialize, Serialize};

/// Where a lake is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LakeForm {
    /// Across a whole level (`build_lake`): `grd` 5..=7, `c3 = 3·xsize/4`,
    /// permanent walls on the edge.
    Level,
    /// An elemental vault (`build_elemental_vault`): `grd` 1, 2 or 4,
    /// `c3 = 2·xsize/3`, every cell marked ICKY (vault).
    Vault,
}

/// Parameters of [`build_lake`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LakeParams {
    /// The lake type. Default [`LakeKind::Water`].
    pub kind: LakeKind,
    /// Level or vault. Default: level for lava, water and cave (the kinds
    /// Hengband spreads across levels), vault for the four vault kinds.
    pub form: Option<LakeForm>,
    /// Level form: the grid width, 8..=256, default 198. Vault form: the
    /// even rectangle width, 8..=254, default drawn (22..=44).
    pub width: Option<u32>,
    /// Level form: grid height, 8..=256, default 66. Vault form: even
    /// rectangle height, 8..=254, default drawn (12..=22).
    pub height: Option<u32>,
    /// Largest correlated scale, 1..=254. Default drawn per form.
    pub grd: Option<u32>,
    /// Edge noise, 0..=255. Default `randint1(8)·randint1(4)`.
    pub roughness: Option<u32>,
    /// The outer band's cutoff `c3`, 1..=512. Default per form; `c1 =
    /// randint0(c3/2) + randint0(c3/2) − 5` and `c2 = (c1+c3)/2` follow it.
    pub cutoff: Option<u32>,
    /// Lava glows (GLOW on lava cells). Default true; false is Hengband's
    /// DARKNESS dungeon.
    pub light: Option<bool>,
    /// The dungeon's floor table (for the lake kinds that use floor).
    pub floors: FloorTable,
}

impl Default for LakeParams {
    fn default() -> Self {
        LakeParams {
            kind: LakeKind::Water,
            form: None,
            width: None,
            height: None,
            grd: None,
            roughness: None,
            cutoff: None,
            light: None,
            floors: FloorTable::default(),
        }
    }
}

impl LakeParams {
    /// The form used: the explicit one or the kind's usual one.
    pub fn resolved_form(&self) -> LakeForm {
        self.form.unwrap_or(if self.kind.is_vault() {
            LakeForm::Vault
        } else {
            LakeForm::Level
        })
    }

    /// Checks every field against its allowed range (sizes per form).
    pub fn validate(&self) -> Result<(), DungeonError> {
        match self.resolved_form() {
            LakeForm::Level => {
                check_level_side("width", self.width.unwrap_or(198))?;
                check_level_side("height", self.height.unwrap_or(66))?;
            }
            LakeForm::Vault => {
                check_room_side("width", self.width)?;
                check_room_side("height", self.height)?;
            }
        }
        overrides(self.grd, self.roughness, self.cutoff)?;
        self.floors.validate()
    }
}

/// A finished lake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lake {
    /// The level (level form) or the vault's rectangle (vault form).
    pub grid: Grid,
    /// The lake's rectangle.
    pub rect: Rect,
    /// The kind.
    pub kind: LakeKind,
    /// The form.
    pub form: LakeForm,
    /// Every pass of the retry loop; the last one succeeded.
    pub attempts: Vec<Attempt>,
}

/// Builds a lake. Level form: passes of `build_lake` over the whole grid,
/// then permanent walls on the edge. Vault form: the vault size draws, then
/// passes of `build_elemental_vault` on a grid the size of the rectangle.
pub fn build_lake(params: &LakeParams, seed: Seed) -> Result<Lake, DungeonError> {
    params.validate()?;
    let ov = overrides(params.grd, params.roughness, params.cutoff)?;
    let mut rng = DungeonRng::new(seed, params.floors);
    let lava_glows = params.light.unwrap_or(true);
    let form = params.resolved_form();
    let (grid, attempts) = match form {
        LakeForm::Level => {
            let (w, h) = (params.width.unwrap_or(198), params.height.unwrap_or(66));
            let mut grid = Grid::new(w as usize, h as usize);
            let attempts = drivers::lake_level(&mut grid, params.kind, lava_glows, &ov, &mut rng)?;
            grid.make_perm_walls();
            (grid, attempts)
        }
        LakeForm::Vault => {
            let (w, h) = drivers::draw_vault_size(&mut rng);
            let xsize = params.width.map_or(w / 2 * 2, |v| v as i32);
            let ysize = params.height.map_or(h / 2 * 2, |v| v as i32);
            let mut grid = Grid::new(xsize as usize + 1, ysize as usize + 1);
            let centre = Pos::new(xsize / 2, ysize / 2);
            let sides = (xsize, ysize);
            let attempts = drivers::elemental_vault(
                &mut grid,
                centre,
                sides,
                params.kind,
                lava_glows,
                &ov,
                &mut rng,
            )?;
            (grid, attempts)
        }
    };
    let rect = attempts.last().map_or(grid.bounds(), |a| a.heights.rect());
    Ok(Lake {
        grid,
        rect,
        kind: params.kind,
        form,
        attempts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Feature;

    #[test]
    fn every_kind_builds_with_its_features() {
        for kind in LakeKind::ALL {
            let lake = build_lake(
                &LakeParams {
                    kind,
                    ..LakeParams::default()
                },
                Seed::new(11),
            )
            .unwrap();
            let has = |f: Feature| lake.grid.cells().iter().any(|c| c.feature == f);
            match kind {
                LakeKind::Lava => assert!(has(Feature::DeepLava) || has(Feature::ShallowLava)),
                LakeKind::Water | LakeKind::WaterVault => {
                    assert!(has(Feature::DeepWater) || has(Feature::ShallowWater))
                }
                LakeKind::Cave | LakeKind::EarthVault => assert!(has(Feature::Rubble)),
                LakeKind::AirVault => assert!(has(Feature::Grass)),
                LakeKind::FireVault => assert!(has(Feature::ShallowLava)),
            }
            assert_eq!(lake.form == LakeForm::Vault, kind.is_vault());
        }
    }

    #[test]
    fn vault_sizes_must_be_even_level_sizes_need_not() {
        let p = LakeParams {
            kind: LakeKind::AirVault,
            width: Some(45),
            ..LakeParams::default()
        };
        assert!(matches!(
            p.validate(),
            Err(DungeonError::NotEven { param: "width", .. })
        ));
        let p = LakeParams {
            width: Some(65),
            height: Some(23),
            ..LakeParams::default()
        };
        assert!(p.validate().is_ok());
        let p = LakeParams {
            width: Some(7),
            ..LakeParams::default()
        };
        assert_eq!(
            p.validate().unwrap_err().to_string(),
            "width must be in 8..=256, got 7"
        );
    }
}
