//! A whole-level cavern (Hengband's `build_cavern`): one fractal cave
//! filling the level, its edge made permanent.

use crate::build::{check_depth, check_level_side, overrides};
use crate::drivers::{self, Attempt};
use crate::error::DungeonError;
use crate::grid::{Grid, Rect};
use crate::random::{DungeonRng, FloorTable};
use mangekyo_core::Seed;
use serde::{Deserialize, Serialize};

/// Parameters of [`build_cavern`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CavernParams {
    /// Level width, 8..=256. Default 198 (Hengband's full level).
    pub width: u32,
    /// Level height, 8..=256. Default 66.
    pub height: u32,
    /// Largest correlated scale, 1..=254. Default: `randint1(4)+4` (5..=8).
    pub grd: Option<u32>,
    /// Edge noise, 0..=255. Default: `randint1(8)·randint1(4)`.
    pub roughness: Option<u32>,
    /// Floor cutoff, 1..=512. Default: half the rectangle's width (98 at 198).
    pub cutoff: Option<u32>,
    /// Light the cavern. Default: `depth <= randint1(50)`.
    pub light: Option<bool>,
    /// Dungeon depth, 1..=127, for the lighting rule. Default 1 (always lit);
    /// Hengband makes caverns only below depth 20.
    pub depth: u32,
    /// The dungeon's floor table.
    pub floors: FloorTable,
}

impl Default for CavernParams {
    fn default() -> Self {
        CavernParams {
            width: 198,
            height: 66,
            grd: None,
            roughness: None,
            cutoff: None,
            light: None,
            depth: 1,
            floors: FloorTable::default(),
        }
    }
}

impl CavernParams {
    /// Checks every field against its allowed range.
    pub fn validate(&self) -> Result<(), DungeonError> {
        check_level_side("width", self.width)?;
        check_level_side("height", self.height)?;
        overrides(self.grd, self.roughness, self.cutoff)?;
        check_depth(self.depth)?;
        self.floors.validate()
    }
}

/// A finished cavern level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cavern {
    /// The level: permanent walls on the edge, floor and granite inside.
    pub grid: Grid,
    /// The cave's rectangle (see [`drivers::level_rect`]).
    pub rect: Rect,
    /// Whether it was lit.
    pub light: bool,
    /// Every pass of the retry loop; the last one succeeded.
    pub attempts: Vec<Attempt>,
}

/// Builds a cavern level: the light draw, passes until the fill succeeds
/// (`room = false`: no ROOM flags, the wall ring becomes granite), then
/// permanent walls on the edge as Hengband's `make_perm_walls` does.
pub fn build_cavern(params: &CavernParams, seed: Seed) -> Result<Cavern, DungeonError> {
    params.validate()?;
    let ov = overrides(params.grd, params.roughness, params.cutoff)?;
    let mut rng = DungeonRng::new(seed, params.floors);
    let light = drivers::draw_light(&mut rng, params.depth as i32, 50, false);
    let light = params.light.unwrap_or(light);
    let mut grid = Grid::new(params.width as usize, params.height as usize);
    let attempts = drivers::cavern(&mut grid, light, &ov, &mut rng)?;
    grid.make_perm_walls();
    let rect = attempts.last().map_or(grid.bounds(), |a| a.heights.rect());
    Ok(Cavern {
        grid,
        rect,
        light,
        attempts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Feature;

    #[test]
    fn default_is_the_full_hengband_level() {
        let c = build_cavern(&CavernParams::default(), Seed::new(3)).unwrap();
        assert_eq!((c.grid.width(), c.grid.height()), (198, 66));
        assert_eq!(
            c.rect,
            Rect {
                xmin: 1,
                ymin: 1,
                xmax: 197,
                ymax: 65
            }
        );
        assert_eq!(c.attempts.last().unwrap().cutoffs[0], 98);
        let edge = c.grid.bounds();
        assert!(
            c.grid
                .positions()
                .filter(|&p| edge.on_perimeter(p))
                .all(|p| c.grid.get(p).feature == Feature::PermanentWall)
        );
    }

    #[test]
    fn odd_sizes_fit_inside_the_grid() {
        let p = CavernParams {
            width: 61,
            height: 23,
            ..CavernParams::default()
        };
        let c = build_cavern(&p, Seed::new(4)).unwrap();
        assert_eq!(
            c.rect,
            Rect {
                xmin: 1,
                ymin: 1,
                xmax: 59,
                ymax: 21
            }
        );
    }

    #[test]
    fn rejects_sizes_out_of_range() {
        let p = CavernParams {
            width: 300,
            ..CavernParams::default()
        };
        assert_eq!(
            build_cavern(&p, Seed::new(1)).unwrap_err().to_string(),
            "width must be in 8..=256, got 300"
        );
    }
}
