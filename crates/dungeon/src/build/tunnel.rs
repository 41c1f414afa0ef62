//! Corridors between rooms for [`crate::build_level`] (our addition, not
//! Hengband's tunneller): two L-shaped legs through a random waypoint.

use crate::grid::{Feature, Flags, Grid, Pos};
use crate::random::RandomSource;

/// Digs a corridor from `a` to `b` through a waypoint drawn inside their
/// bounding box, each leg an L whose bend side is drawn too. Every cell on
/// the way that is not already floor becomes floor (one floor pick each,
/// kind FLOOR, other bits kept); permanent walls are never dug. The path is
/// 4-connected, so `a` and `b` end up joined.
pub(crate) fn dig<R: RandomSource + ?Sized>(grid: &mut Grid, a: Pos, b: Pos, rng: &mut R) {
    let waypoint = Pos::new(between(a.x, b.x, rng), between(a.y, b.y, rng));
    dig_l(grid, a, waypoint, rng);
    dig_l(grid, waypoint, b, rng);
}

fn between<R: RandomSource + ?Sized>(p: i32, q: i32, rng: &mut R) -> i32 {
    p.min(q) + rng.randint0((p - q).abs() + 1)
}

fn dig_l<R: RandomSource + ?Sized>(grid: &mut Grid, from: Pos, to: Pos, rng: &mut R) {
    let bend = if rng.randint0(2) == 0 {
        Pos::new(to.x, from.y)
    } else {
        Pos::new(from.x, to.y)
    };
    dig_straight(grid, from, bend, rng);
    dig_straight(grid, bend, to, rng);
}

fn dig_straight<R: RandomSource + ?Sized>(grid: &mut Grid, from: Pos, to: Pos, rng: &mut R) {
    let (dx, dy) = ((to.x - from.x).signum(), (to.y - from.y).signum());
    let mut p = from;
    loop {
        carve(grid, p, rng);
        if p == to {
            return;
        }
        p = Pos::new(p.x + dx, p.y + dy);
    }
}

fn carve<R: RandomSource + ?Sized>(grid: &mut Grid, p: Pos, rng: &mut R) {
    let feature = grid.get(p).feature;
    if feature.is_floor() || feature == Feature::PermanentWall {
        return;
    }
    let floor = rng.floor_terrain();
    grid.place(p, floor, Flags::FLOOR);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{DungeonRng, FloorTable};
    use mangekyo_core::Seed;

    #[test]
    fn a_corridor_joins_its_ends() {
        let mut rng = DungeonRng::new(Seed::new(1), FloorTable::default());
        for _ in 0..50 {
            let mut g = Grid::new(30, 20);
            let (a, b) = (
                Pos::new(1 + rng.randint0(28), 1 + rng.randint0(18)),
                Pos::new(1 + rng.randint0(28), 1 + rng.randint0(18)),
            );
            dig(&mut g, a, b, &mut rng);
            assert!(g.get(a).feature.is_floor() && g.get(b).feature.is_floor());
            // 4-connected walk over floor from a reaches b.
            let mut seen = vec![false; 600];
            let mut stack = vec![a];
            while let Some(p) = stack.pop() {
                if !g.contains(p) || !g.get(p).feature.is_floor() || seen[(p.y * 30 + p.x) as usize]
                {
                    continue;
                }
                seen[(p.y * 30 + p.x) as usize] = true;
                stack.extend(
                    [(1, 0), (-1, 0), (0, 1), (0, -1)].map(|(dx, dy)| Pos::new(p.x + dx, p.y + dy)),
                );
            }
            assert!(seen[(b.y * 30 + b.x) as usize]);
        }
    }
}
