//! `cave_fill` and `hack_isnt_wall`: the breadth-first, 8-neighbour flood
//! fill from the centre that classifies cells by height band.

use crate::grid::{Feature, Flags, Grid, Pos, Rect};
use crate::hmap::HeightMap;
use crate::random::RandomSource;
use std::collections::VecDeque;

/// Hengband's neighbour order (`Direction::directions_8()`): S, N, E, W,
/// SE, SW, NE, NW as `(dx, dy)`. The order decides which cell draws next.
pub const DIRECTIONS_8: [(i32, i32); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

/// `randint1(100) < 75` selects the band's own feature: 74 of 100 values,
/// so the original's "75/25" is really 74/26. Kept for faithful statistics.
pub(crate) const OWN_FEATURE_BELOW: i32 = 75;

/// The three height bands of `fill_data`: cells with `h ≤ c1` take `feat[0]`
/// (74 %) or `feat[1]`, cells with `c1 < h ≤ c2` take `feat[1]` (74 %) or
/// `feat[0]`, cells with `c2 < h ≤ c3` take `feat[2]`, and higher cells
/// become outer wall. Each accepted cell gets its band's kind bits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bands {
    pub cutoffs: [i32; 3],
    pub feats: [Feature; 3],
    pub infos: [Flags; 3],
}

/// The fill's visited marks over the heightmap's rectangle (the original
/// borrows the `CAVE_ICKY` bit of the real grid for this).
pub(crate) struct Visited {
    rect: Rect,
    marks: Vec<bool>,
}

impl Visited {
    pub(crate) fn new(rect: Rect) -> Self {
        Visited {
            rect,
            marks: vec![false; (rect.width() * rect.height()) as usize],
        }
    }

    fn index(&self, p: Pos) -> usize {
        debug_assert!(self.rect.contains(p));
        ((p.y - self.rect.ymin) * self.rect.width() + (p.x - self.rect.xmin)) as usize
    }

    pub(crate) fn get(&self, p: Pos) -> bool {
        self.marks[self.index(p)]
    }

    fn mark(&mut self, p: Pos) {
        let i = self.index(p);
        self.marks[i] = true;
    }
}

/// `hack_isnt_wall`: classifies one unvisited cell and says whether the
/// fill continues through it.
fn classify<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    hmap: &HeightMap,
    bands: &Bands,
    visited: &mut Visited,
    p: Pos,
    rng: &mut R,
) -> bool {
    if visited.get(p) {
        return false;
    }
    visited.mark(p);
    let h = i32::from(hmap.at(p));
    let [c1, c2, c3] = bands.cutoffs;
    let band = if h <= c1 {
        if rng.randint1(100) < OWN_FEATURE_BELOW {
            0
        } else {
            1
        }
    } else if h <= c2 {
        if rng.randint1(100) < OWN_FEATURE_BELOW {
            1
        } else {
            0
        }
    } else if h <= c3 {
        2
    } else {
        grid.place(p, Feature::OuterWall, Flags::OUTER);
        return false;
    };
    let cell = grid.cell_mut(p);
    cell.feature = bands.feats[band];
    cell.flags.remove(Flags::KIND_MASK);
    cell.flags.insert(bands.infos[band]);
    true
}

/// `cave_fill` from the heightmap's centre. Returns `amount`: how many
/// cells were accepted (the centre counts once a neighbour reaches it).
///
/// The start cell is not classified when it is queued; its first accepted
/// neighbour examines it and queues it a second time, as in the original.
/// Neighbours off the level's interior or on/outside the rectangle's
/// perimeter are only marked visited.
pub(crate) fn cave_fill<R: RandomSource + ?Sized>(
    grid: &mut Grid,
    hmap: &HeightMap,
    bands: &Bands,
    visited: &mut Visited,
    rng: &mut R,
) -> u32 {
    let rect = hmap.rect();
    let mut amount = 0;
    let mut queue = VecDeque::from([hmap.centre()]);
    while let Some(p) = queue.pop_front() {
        for (dx, dy) in DIRECTIONS_8 {
            let q = Pos::new(p.x + dx, p.y + dy);
            if !grid.in_bounds(q) || !rect.contains_strictly(q) {
                visited.mark(q);
            } else if classify(grid, hmap, bands, visited, q, rng) {
                queue.push_back(q);
                amount += 1;
            }
        }
    }
    amount
}
