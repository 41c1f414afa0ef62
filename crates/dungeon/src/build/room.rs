//! A single fractal room (Hengband's room type 9) or cave vault, on a grid
//! exactly the size of its rectangle.

use crate::build::{check_depth, check_room_side, overrides};
use crate::drivers::{self, Attempt};
use crate::error::DungeonError;
use crate::grid::{Grid, Pos, Rect};
use crate::random::{DungeonRng, FloorTable};
use mangekyo_core::Seed;
use serde::{Deserialize, Serialize};

/// Which of Hengband's room builders to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomKind {
    /// Room type 9, "fractal cave": 8..=50 × 8..=36, lit by depth.
    #[default]
    Fractal,
    /// The cave vault (vault kind 3 or 11 of type 10): 22..=44 × 12..=22,
    /// unlit, every cell marked ICKY (vault).
    CaveVault,
}

/// Parameters of [`build_room`]. Every field has a default; `None` means
/// "draw it as Hengband does".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RoomParams {
    /// Which builder. Default [`RoomKind::Fractal`].
    pub kind: RoomKind,
    /// Even width of the rectangle (the grid is one wider), 8..=254.
    /// Default: drawn (fractal 8..=50, vault 22..=44).
    pub width: Option<u32>,
    /// Even height, 8..=254. Default: drawn (fractal 8..=36, vault 12..=22).
    pub height: Option<u32>,
    /// Largest correlated scale in cells, 1..=254. Default: `1 << randint0(4)`.
    pub grd: Option<u32>,
    /// Edge noise, 0..=255 (16 = normal). Default: `randint1(8)·randint1(4)`.
    pub roughness: Option<u32>,
    /// Floor cutoff height, 1..=512. Default: the sum of four draws,
    /// about (width + height)/4.
    pub cutoff: Option<u32>,
    /// Light the room. Default: `depth <= randint1(25)` for fractal rooms,
    /// never for cave vaults.
    pub light: Option<bool>,
    /// Dungeon depth, 1..=127, for the lighting rule. Default 1 (always lit);
    /// Hengband builds fractal rooms from depth 10 on.
    pub depth: u32,
    /// The dungeon's floor table. Default 60/30/10 floor/dirt/moss.
    pub floors: FloorTable,
}

impl Default for RoomParams {
    fn default() -> Self {
        RoomParams {
            kind: RoomKind::Fractal,
            width: None,
            height: None,
            grd: None,
            roughness: None,
            cutoff: None,
            light: None,
            depth: 1,
            floors: FloorTable::default(),
        }
    }
}

impl RoomParams {
    /// Checks every field against its allowed range.
    pub fn validate(&self) -> Result<(), DungeonError> {
        check_room_side("width", self.width)?;
        check_room_side("height", self.height)?;
        overrides(self.grd, self.roughness, self.cutoff)?;
        check_depth(self.depth)?;
        self.floors.validate()
    }
}

/// A finished room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room {
    /// The rectangle's cells (perimeter included): floor, wall ring, granite.
    pub grid: Grid,
    /// Whether it was lit.
    pub light: bool,
    /// Every pass of the retry loop; the last one succeeded.
    pub attempts: Vec<Attempt>,
}

impl Room {
    /// The rectangle, which here is the whole grid.
    pub fn rect(&self) -> Rect {
        self.grid.bounds()
    }

    /// The centre cell (always floor).
    pub fn centre(&self) -> Pos {
        let r = self.rect();
        Pos::new(r.xmax / 2, r.ymax / 2)
    }
}

/// Builds one room from `params` on the seed's `dungeon` stream.
///
/// The draws follow Hengband: the size (made even when overridden), the
/// light draw (fractal rooms), then passes until one succeeds.
pub fn build_room(params: &RoomParams, seed: Seed) -> Result<Room, DungeonError> {
    params.validate()?;
    let ov = overrides(params.grd, params.roughness, params.cutoff)?;
    let mut rng = DungeonRng::new(seed, params.floors);
    let (drawn, light) = match params.kind {
        RoomKind::Fractal => {
            let size = drivers::draw_room_size(&mut rng);
            (
                size,
                drivers::draw_light(&mut rng, params.depth as i32, 25, false),
            )
        }
        RoomKind::CaveVault => {
            let (w, h) = drivers::draw_vault_size(&mut rng);
            ((w / 2 * 2, h / 2 * 2), false)
        }
    };
    let light = params.light.unwrap_or(light);
    let xsize = params.width.map_or(drawn.0, |w| w as i32);
    let ysize = params.height.map_or(drawn.1, |h| h as i32);
    let mut grid = Grid::new(xsize as usize + 1, ysize as usize + 1);
    let centre = Pos::new(xsize / 2, ysize / 2);
    let attempts = match params.kind {
        RoomKind::Fractal => {
            drivers::fractal_room(&mut grid, centre, (xsize, ysize), light, &ov, &mut rng)?
        }
        RoomKind::CaveVault => {
            drivers::cave_vault(&mut grid, centre, (xsize, ysize), light, &ov, &mut rng)?
        }
    };
    Ok(Room {
        grid,
        light,
        attempts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_build_a_room_with_floor_at_the_centre() {
        let room = build_room(&RoomParams::default(), Seed::new(1)).unwrap();
        assert!(room.grid.get(room.centre()).feature.is_floor());
        let (w, h) = (room.grid.width(), room.grid.height());
        assert!((9..=51).contains(&w) && (9..=37).contains(&h) && w % 2 == 1 && h % 2 == 1);
        assert!(room.attempts.last().unwrap().outcome.succeeded);
    }

    #[test]
    fn bad_sizes_name_the_parameter() {
        let p = RoomParams {
            width: Some(6),
            ..RoomParams::default()
        };
        assert_eq!(
            build_room(&p, Seed::new(1)).unwrap_err().to_string(),
            "width must be in 8..=254, got 6"
        );
        let p = RoomParams {
            height: Some(11),
            ..RoomParams::default()
        };
        assert!(matches!(
            build_room(&p, Seed::new(1)),
            Err(DungeonError::NotEven {
                param: "height",
                got: 11
            })
        ));
        let p = RoomParams {
            grd: Some(0),
            ..RoomParams::default()
        };
        assert_eq!(
            p.validate().unwrap_err().to_string(),
            "grd must be in 1..=254, got 0"
        );
        let p = RoomParams {
            depth: 0,
            ..RoomParams::default()
        };
        assert_eq!(
            p.validate().unwrap_err().to_string(),
            "depth must be in 1..=127, got 0"
        );
    }

    #[test]
    fn parses_from_json_with_defaults() {
        let p: RoomParams = serde_json::from_str(r#"{"kind":"cave_vault","cutoff":12}"#).unwrap();
        assert_eq!(p.kind, RoomKind::CaveVault);
        assert_eq!((p.cutoff, p.depth), (Some(12), 1));
        assert!(serde_json::from_str::<RoomParams>(r#"{"cutof":12}"#).is_err());
    }

    #[test]
    fn cave_vaults_are_icky_and_unlit() {
        let p = RoomParams {
            kind: RoomKind::CaveVault,
            ..RoomParams::default()
        };
        let room = build_room(&p, Seed::new(5)).unwrap();
        assert!(!room.light);
        assert!(
            room.grid
                .cells()
                .iter()
                .all(|c| c.flags.contains(crate::grid::Flags::ICKY))
        );
    }
}
