//! The random source the generators draw from: Hengband's `randint0` /
//! `randint1` plus the dungeon's floor and wall terrain picks, behind one
//! small trait so a test can feed in a recorded draw log.

use crate::error::DungeonError;
use crate::grid::Feature;
use mangekyo_core::seed::purpose;
use mangekyo_core::{Pcg32, Seed};
use serde::{Deserialize, Serialize};

/// Everything the generators ask of chance, call by call.
///
/// The generators call these in exactly the order the original does, one
/// call per Hengband call, including the degenerate ones (`n ≤ 1`), so a
/// source that replays a recorded log can check every call's kind and `n`.
/// A source that really draws must follow Hengband's rule: for `n ≤ 1`,
/// `randint0` returns 0 and `randint1` returns 1 **without** consuming
/// randomness (the original short-circuits before touching its RNG).
pub trait RandomSource {
    /// Uniform on `0..n`; 0 when `n ≤ 1`.
    fn randint0(&mut self, n: i32) -> i32;
    /// Uniform on `1..=n`; 1 when `n ≤ 1`.
    fn randint1(&mut self, n: i32) -> i32;
    /// The dungeon's floor pick (`select_floor_terrain_id`): one of the floor kinds.
    fn floor_terrain(&mut self) -> Feature;
    /// The dungeon's wall pick (`select_wall_terrain_id`).
    fn wall_terrain(&mut self) -> Feature;
}

impl<R: RandomSource + ?Sized> RandomSource for &mut R {
    fn randint0(&mut self, n: i32) -> i32 {
        (**self).randint0(n)
    }
    fn randint1(&mut self, n: i32) -> i32 {
        (**self).randint1(n)
    }
    fn floor_terrain(&mut self) -> Feature {
        (**self).floor_terrain()
    }
    fn wall_terrain(&mut self) -> Feature {
        (**self).wall_terrain()
    }
}

/// Relative weights of the three floor kinds in a dungeon's floor table
/// (Hengband keeps one per dungeon; these defaults are ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FloorTable {
    /// Weight of [`Feature::Floor`]. Default 60.
    pub floor: u32,
    /// Weight of [`Feature::DirtFloor`]. Default 30.
    pub dirt_floor: u32,
    /// Weight of [`Feature::MossFloor`]. Default 10.
    pub moss_floor: u32,
}

impl Default for FloorTable {
    fn default() -> Self {
        FloorTable {
            floor: 60,
            dirt_floor: 30,
            moss_floor: 10,
        }
    }
}

/// The largest weight a floor table entry may have: keeps the sum far
/// inside `u32` and is finer than any table Hengband ships.
pub const MAX_FLOOR_WEIGHT: u32 = 10_000;

impl FloorTable {
    /// Only one floor kind, [`Feature::Floor`].
    pub const PLAIN: FloorTable = FloorTable {
        floor: 1,
        dirt_floor: 0,
        moss_floor: 0,
    };

    /// Checks the weights: each in `0..=MAX_FLOOR_WEIGHT`, not all zero.
    pub fn validate(&self) -> Result<(), DungeonError> {
        for (name, w) in self.entries() {
            crate::error::check_range(name, i64::from(w), 0, i64::from(MAX_FLOOR_WEIGHT))?;
        }
        if self.entries().iter().all(|&(_, w)| w == 0) {
            return Err(DungeonError::EmptyFloorTable);
        }
        Ok(())
    }

    fn entries(&self) -> [(&'static str, u32); 3] {
        [
            ("floors.floor", self.floor),
            ("floors.dirt_floor", self.dirt_floor),
            ("floors.moss_floor", self.moss_floor),
        ]
    }

    /// Picks a floor kind. A table with a single non-zero entry answers
    /// without drawing, like Hengband's degenerate `randint`.
    fn pick(&self, rng: &mut Pcg32) -> Feature {
        const KINDS: [Feature; 3] = [Feature::Floor, Feature::DirtFloor, Feature::MossFloor];
        let weights = [self.floor, self.dirt_floor, self.moss_floor];
        let live = weights.iter().filter(|&&w| w > 0).count();
        if live <= 1 {
            let i = weights.iter().position(|&w| w > 0).unwrap_or(0);
            return KINDS[i];
        }
        let mut r = rng.bounded(weights.iter().sum());
        for (kind, w) in KINDS.into_iter().zip(weights) {
            if r < w {
                return kind;
            }
            r -= w;
        }
        unreachable!("r < sum of weights")
    }
}

/// Our random source: PCG32 on the seed's `dungeon` stream, with Hengband's
/// `randint` semantics and a [`FloorTable`]. Our dungeons have a single wall
/// terrain (granite), so the wall pick never draws.
#[derive(Clone, Debug)]
pub struct DungeonRng {
    pcg: Pcg32,
    floors: FloorTable,
}

impl DungeonRng {
    /// The `dungeon` stream of `seed` (`Pcg32::for_purpose(seed, "dungeon")`).
    pub fn new(seed: Seed, floors: FloorTable) -> Self {
        DungeonRng::from_pcg(Pcg32::for_purpose(seed, purpose::DUNGEON), floors)
    }

    /// Wraps an existing generator.
    pub fn from_pcg(pcg: Pcg32, floors: FloorTable) -> Self {
        DungeonRng { pcg, floors }
    }

    /// The underlying generator (to check how far it has advanced).
    pub fn pcg(&self) -> &Pcg32 {
        &self.pcg
    }
}

impl RandomSource for DungeonRng {
    fn randint0(&mut self, n: i32) -> i32 {
        if n <= 1 {
            return 0;
        }
        self.pcg.bounded(n as u32) as i32
    }

    fn randint1(&mut self, n: i32) -> i32 {
        if n <= 1 {
            return 1;
        }
        1 + self.pcg.bounded(n as u32) as i32
    }

    fn floor_terrain(&mut self) -> Feature {
        self.floors.pick(&mut self.pcg)
    }

    fn wall_terrain(&mut self) -> Feature {
        Feature::Granite
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn degenerate_calls_draw_nothing() {
        let mut rng = DungeonRng::new(Seed::new(1), FloorTable::PLAIN);
        let before = rng.pcg().clone();
        assert_eq!(rng.randint0(1), 0);
        assert_eq!(rng.randint0(0), 0);
        assert_eq!(rng.randint1(1), 1);
        assert_eq!(rng.randint1(0), 1);
        assert_eq!(rng.randint1(-3), 1);
        assert_eq!(rng.floor_terrain(), Feature::Floor);
        assert_eq!(rng.wall_terrain(), Feature::Granite);
        assert_eq!(rng.pcg(), &before);
    }

    #[test]
    fn randint_ranges() {
        let mut rng = DungeonRng::new(Seed::new(2), FloorTable::default());
        let mut seen = [false; 100];
        for _ in 0..10_000 {
            let v = rng.randint1(100);
            assert!((1..=100).contains(&v));
            seen[(v - 1) as usize] = true;
            let z = rng.randint0(4);
            assert!((0..4).contains(&z));
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn floor_table_weights() {
        let mut rng = DungeonRng::new(
            Seed::new(3),
            FloorTable {
                floor: 1,
                dirt_floor: 1,
                moss_floor: 2,
            },
        );
        let mut n = [0u32; 3];
        for _ in 0..8000 {
            n[rng.floor_terrain() as usize] += 1;
        }
        assert!(
            n[0] > 1800 && n[0] < 2200 && n[2] > 3800 && n[2] < 4200,
            "{n:?}"
        );
    }

    #[test]
    fn floor_table_validation() {
        let empty = FloorTable {
            floor: 0,
            dirt_floor: 0,
            moss_floor: 0,
        };
        assert_eq!(empty.validate(), Err(DungeonError::EmptyFloorTable));
        let big = FloorTable {
            floor: MAX_FLOOR_WEIGHT + 1,
            ..FloorTable::default()
        };
        assert_eq!(
            big.validate().unwrap_err().to_string(),
            "floors.floor must be in 0..=10000, got 10001"
        );
    }
}
