//! The roguelike grid: a terrain [`Feature`] and Hengband's per-cell info
//! bits ([`Flags`]) for every cell, plus positions and rectangles.

use std::fmt;

/// A cell position: `x` grows east, `y` grows south, `(0, 0)` is the
/// north-west corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

impl Pos {
    /// The position `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Self {
        Pos { x, y }
    }
}

/// What stands on a cell.
///
/// The three floor kinds stand for the three entries a Hengband dungeon's
/// floor table can hold; a fractal cave mixes two of them 74/26. Every floor
/// kind's [`Feature::name`] contains `floor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Feature {
    /// Plain stone floor.
    Floor = 0,
    /// Earthen floor.
    DirtFloor = 1,
    /// Moss-covered floor.
    MossFloor = 2,
    /// Ordinary diggable rock (Hengband `GB_EXTRA`, the dungeon's wall).
    Granite = 3,
    /// The wall ring of a room (Hengband `GB_OUTER`).
    OuterWall = 4,
    /// Undiggable rock at the level's edge (Hengband `GB_SOLID_PERM`).
    PermanentWall = 5,
    /// Deep lava: burns anything that enters.
    DeepLava = 6,
    /// Shallow lava.
    ShallowLava = 7,
    /// Deep water: swim or drown.
    DeepWater = 8,
    /// Shallow water: wadeable.
    ShallowWater = 9,
    /// Rubble: passable after digging.
    Rubble = 10,
    /// Grass.
    Grass = 11,
    /// A tree.
    Tree = 12,
}

impl Feature {
    /// Every feature, in discriminant order.
    pub const ALL: [Feature; 13] = [
        Feature::Floor,
        Feature::DirtFloor,
        Feature::MossFloor,
        Feature::Granite,
        Feature::OuterWall,
        Feature::PermanentWall,
        Feature::DeepLava,
        Feature::ShallowLava,
        Feature::DeepWater,
        Feature::ShallowWater,
        Feature::Rubble,
        Feature::Grass,
        Feature::Tree,
    ];

    /// The stable snake_case name used in JSON output.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Floor => "floor",
            Feature::DirtFloor => "dirt_floor",
            Feature::MossFloor => "moss_floor",
            Feature::Granite => "granite",
            Feature::OuterWall => "outer_wall",
            Feature::PermanentWall => "permanent_wall",
            Feature::DeepLava => "deep_lava",
            Feature::ShallowLava => "shallow_lava",
            Feature::DeepWater => "deep_water",
            Feature::ShallowWater => "shallow_water",
            Feature::Rubble => "rubble",
            Feature::Grass => "grass",
            Feature::Tree => "tree",
        }
    }

    /// One of the three floor kinds.
    pub const fn is_floor(self) -> bool {
        matches!(
            self,
            Feature::Floor | Feature::DirtFloor | Feature::MossFloor
        )
    }

    /// Granite, an outer wall or a permanent wall.
    pub const fn is_wall(self) -> bool {
        matches!(
            self,
            Feature::Granite | Feature::OuterWall | Feature::PermanentWall
        )
    }

    /// Deep or shallow lava (lit by a lake unless the dungeon is dark).
    pub const fn is_lava(self) -> bool {
        matches!(self, Feature::DeepLava | Feature::ShallowLava)
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Hengband's per-cell info bits (`CAVE_*`), with the same bit values.
///
/// `ICKY` is both the fill's "visited" mark in the original and the vault
/// marker; our fill keeps its visited marks in a separate bitmap, so `ICKY`
/// only survives into output as the vault marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Flags(u16);

impl Flags {
    /// No bit set.
    pub const NONE: Flags = Flags(0);
    /// Known to the player (never set by the generators).
    pub const MARK: Flags = Flags(0x0001);
    /// Self-lit.
    pub const GLOW: Flags = Flags(0x0002);
    /// Vault (and, in the original, the fill's visited mark).
    pub const ICKY: Flags = Flags(0x0004);
    /// Part of a room: its floor and wall ring.
    pub const ROOM: Flags = Flags(0x0008);
    /// Kind bit: a floor placed as floor.
    pub const FLOOR: Flags = Flags(0x0200);
    /// Kind bit: ordinary (diggable) wall.
    pub const EXTRA: Flags = Flags(0x0400);
    /// Kind bit: an inner room wall.
    pub const INNER: Flags = Flags(0x0800);
    /// Kind bit: a room's outer wall.
    pub const OUTER: Flags = Flags(0x1000);
    /// Kind bit: solid (permanent) wall.
    pub const SOLID: Flags = Flags(0x2000);
    /// Kind bit: vault wall.
    pub const VAULT: Flags = Flags(0x4000);
    /// Hengband's `CAVE_MASK`: the kind bits that placing a feature clears.
    pub const KIND_MASK: Flags = Flags(0x0200 | 0x0400 | 0x0800 | 0x1000 | 0x2000 | 0x4000);

    /// Every named flag with its name, in bit order (the order of
    /// [`Flags::names`]).
    pub const NAMED: [(Flags, &'static str); 10] = [
        (Flags::MARK, "mark"),
        (Flags::GLOW, "glow"),
        (Flags::ICKY, "icky"),
        (Flags::ROOM, "room"),
        (Flags::FLOOR, "floor"),
        (Flags::EXTRA, "extra"),
        (Flags::INNER, "inner"),
        (Flags::OUTER, "outer"),
        (Flags::SOLID, "solid"),
        (Flags::VAULT, "vault"),
    ];

    /// The raw bits (Hengband's values).
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Flags from raw bits; unknown bits are dropped.
    pub const fn from_bits(bits: u16) -> Flags {
        let mut known = 0;
        let mut i = 0;
        while i < Flags::NAMED.len() {
            known |= Flags::NAMED[i].0.0;
            i += 1;
        }
        Flags(bits & known)
    }

    /// Whether every bit of `other` is set.
    pub const fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether any bit of `other` is set.
    pub const fn intersects(self, other: Flags) -> bool {
        self.0 & other.0 != 0
    }

    /// Sets the bits of `other`.
    pub fn insert(&mut self, other: Flags) {
        self.0 |= other.0;
    }

    /// Clears the bits of `other`.
    pub fn remove(&mut self, other: Flags) {
        self.0 &= !other.0;
    }

    /// The union of both.
    pub const fn union(self, other: Flags) -> Flags {
        Flags(self.0 | other.0)
    }

    /// The names of the set bits, in bit order.
    pub fn names(self) -> Vec<&'static str> {
        Flags::NAMED
            .iter()
            .filter(|(f, _)| self.contains(*f))
            .map(|(_, n)| *n)
            .collect()
    }
}

impl std::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, rhs: Flags) -> Flags {
        self.union(rhs)
    }
}

/// One cell: its terrain and its info bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// The terrain.
    pub feature: Feature,
    /// Hengband's info bits.
    pub flags: Flags,
}

impl Cell {
    /// What a freshly cleared Hengband level holds: granite, kind `EXTRA`.
    pub const CLEARED: Cell = Cell {
        feature: Feature::Granite,
        flags: Flags::EXTRA,
    };
}

/// An inclusive rectangle `xmin..=xmax × ymin..=ymax`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    /// West edge (inclusive).
    pub xmin: i32,
    /// North edge (inclusive).
    pub ymin: i32,
    /// East edge (inclusive).
    pub xmax: i32,
    /// South edge (inclusive).
    pub ymax: i32,
}

impl Rect {
    /// The rectangle `centre ± (xhalf, yhalf)`, inclusive.
    pub const fn around(centre: Pos, xhalf: i32, yhalf: i32) -> Rect {
        Rect {
            xmin: centre.x - xhalf,
            ymin: centre.y - yhalf,
            xmax: centre.x + xhalf,
            ymax: centre.y + yhalf,
        }
    }

    /// Cells per row.
    pub const fn width(&self) -> i32 {
        self.xmax - self.xmin + 1
    }

    /// Rows.
    pub const fn height(&self) -> i32 {
        self.ymax - self.ymin + 1
    }

    /// Whether `p` lies in the rectangle (perimeter included).
    pub const fn contains(&self, p: Pos) -> bool {
        p.x >= self.xmin && p.x <= self.xmax && p.y >= self.ymin && p.y <= self.ymax
    }

    /// Whether `p` lies strictly inside (not on the perimeter).
    pub const fn contains_strictly(&self, p: Pos) -> bool {
        p.x > self.xmin && p.x < self.xmax && p.y > self.ymin && p.y < self.ymax
    }

    /// Whether `p` lies on the perimeter.
    pub const fn on_perimeter(&self, p: Pos) -> bool {
        self.contains(p) && !self.contains_strictly(p)
    }

    /// Whether the two rectangles come closer than `gap` cells: with gap 0
    /// they share a cell, with gap 1 they also may not touch.
    pub const fn overlaps(&self, other: &Rect, gap: i32) -> bool {
        self.xmin <= other.xmax + gap
            && other.xmin <= self.xmax + gap
            && self.ymin <= other.ymax + gap
            && other.ymin <= self.ymax + gap
    }
}

/// A `width × height` grid of cells, row-major (x fastest).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    width: i32,
    height: i32,
    cells: Vec<Cell>,
}

impl Grid {
    /// A freshly cleared level: every cell [`Cell::CLEARED`].
    ///
    /// # Panics
    /// If a side is zero or the grid would exceed `i32` coordinates; the
    /// builders validate sizes before they get here.
    pub fn new(width: usize, height: usize) -> Grid {
        assert!(width > 0 && height > 0, "grid sides must be positive");
        let (w, h) = (
            i32::try_from(width).expect("width fits i32"),
            i32::try_from(height).expect("height fits i32"),
        );
        Grid {
            width: w,
            height: h,
            cells: vec![Cell::CLEARED; width * height],
        }
    }

    /// Cells per row.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// The whole grid as a rectangle.
    pub fn bounds(&self) -> Rect {
        Rect {
            xmin: 0,
            ymin: 0,
            xmax: self.width - 1,
            ymax: self.height - 1,
        }
    }

    /// Whether `p` is on the grid.
    pub fn contains(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    /// Hengband's `in_bounds`: strictly inside the level's edge ring.
    pub fn in_bounds(&self, p: Pos) -> bool {
        p.x > 0 && p.y > 0 && p.x < self.width - 1 && p.y < self.height - 1
    }

    fn index(&self, p: Pos) -> usize {
        debug_assert!(
            self.contains(p),
            "{p:?} outside {}×{}",
            self.width,
            self.height
        );
        p.y as usize * self.width as usize + p.x as usize
    }

    /// The cell at `p`.
    ///
    /// # Panics
    /// If `p` is off the grid.
    pub fn get(&self, p: Pos) -> Cell {
        self.cells[self.index(p)]
    }

    /// The cell at `p`, mutably.
    ///
    /// # Panics
    /// If `p` is off the grid.
    pub fn cell_mut(&mut self, p: Pos) -> &mut Cell {
        let i = self.index(p);
        &mut self.cells[i]
    }

    /// All cells, row-major.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// One row of cells.
    pub fn row(&self, y: usize) -> &[Cell] {
        let w = self.width as usize;
        &self.cells[y * w..(y + 1) * w]
    }

    /// Every position, row-major.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + use<> {
        let (w, h) = (self.width, self.height);
        (0..h).flat_map(move |y| (0..w).map(move |x| Pos::new(x, y)))
    }

    /// Hengband's `place_grid`: sets the feature, clears the kind bits and
    /// sets `kind` (one of the `Flags` kind bits). Other bits (GLOW, ROOM,
    /// ICKY) stay as they were.
    pub fn place(&mut self, p: Pos, feature: Feature, kind: Flags) {
        let cell = self.cell_mut(p);
        cell.feature = feature;
        cell.flags.remove(Flags::KIND_MASK);
        cell.flags.insert(kind);
    }

    /// Hengband's `make_perm_walls`: the outermost ring becomes permanent
    /// wall (kind `SOLID`).
    pub fn make_perm_walls(&mut self) {
        let b = self.bounds();
        for p in self
            .positions()
            .filter(|&p| b.on_perimeter(p))
            .collect::<Vec<_>>()
        {
            self.place(p, Feature::PermanentWall, Flags::SOLID);
        }
    }

    /// How many cells hold a floor kind.
    pub fn floor_count(&self) -> usize {
        self.cells.iter().filter(|c| c.feature.is_floor()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_names_follow_bit_order() {
        let f = Flags::ROOM | Flags::GLOW | Flags::FLOOR;
        assert_eq!(f.names(), ["glow", "room", "floor"]);
        assert_eq!(Flags::from_bits(0xffff).names().len(), 10);
    }

    #[test]
    fn place_keeps_non_kind_bits() {
        let mut g = Grid::new(3, 3);
        let p = Pos::new(1, 1);
        g.cell_mut(p).flags.insert(Flags::GLOW | Flags::ROOM);
        g.place(p, Feature::OuterWall, Flags::OUTER);
        assert_eq!(g.get(p).flags, Flags::GLOW | Flags::ROOM | Flags::OUTER);
    }

    #[test]
    fn perm_walls_ring_the_grid() {
        let mut g = Grid::new(5, 4);
        g.make_perm_walls();
        let perm = g
            .cells()
            .iter()
            .filter(|c| c.feature == Feature::PermanentWall)
            .count();
        assert_eq!(perm, 5 * 4 - 3 * 2);
        assert_eq!(g.get(Pos::new(2, 2)), Cell::CLEARED);
    }

    #[test]
    fn rect_overlap_gap() {
        let a = Rect {
            xmin: 0,
            ymin: 0,
            xmax: 4,
            ymax: 4,
        };
        let b = Rect {
            xmin: 5,
            ymin: 0,
            xmax: 8,
            ymax: 4,
        };
        assert!(!a.overlaps(&b, 0));
        assert!(a.overlaps(&b, 1));
        assert!(a.on_perimeter(Pos::new(4, 2)) && !a.on_perimeter(Pos::new(3, 2)));
    }

    #[test]
    fn floor_names_contain_floor() {
        for f in Feature::ALL {
            assert_eq!(f.is_floor(), f.name().contains("floor"), "{f}");
        }
    }
}
