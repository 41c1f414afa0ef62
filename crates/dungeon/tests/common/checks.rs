//! The spec's §7 properties as checks over (grid, heightmap, outcome):
//! each returns the first violation as text so a sweep can name the seed.

use mangekyo_dungeon::{Cell, Feature, FillOutcome, Flags, Grid, HeightMap, LakeArgs, Pos, Rect};

fn err(what: impl Into<String>) -> Result<(), String> {
    Err(what.into())
}

/// The 8 neighbours of `p`.
pub(crate) fn n8(p: Pos) -> impl Iterator<Item = Pos> {
    mangekyo_dungeon::DIRECTIONS_8
        .into_iter()
        .map(move |(dx, dy)| Pos::new(p.x + dx, p.y + dy))
}

fn positions(r: Rect) -> impl Iterator<Item = Pos> {
    (r.ymin..=r.ymax).flat_map(move |y| (r.xmin..=r.xmax).map(move |x| Pos::new(x, y)))
}

/// §7.1–7.2: even sides in 4..=254, centre 0, corners maxsize, every
/// other perimeter cell above the cutoff.
pub(crate) fn heightmap(h: &HeightMap) -> Result<(), String> {
    let (xs, ys) = h.sides();
    if xs % 2 != 0 || ys % 2 != 0 || !(4..=254).contains(&xs) || !(4..=254).contains(&ys) {
        return err(format!("sides {xs}×{ys}"));
    }
    let r = h.rect();
    if h.at(h.centre()) != 0 || Rect::around(h.centre(), xs / 2, ys / 2) != r {
        return err("centre is not 0 or not the rectangle's centre");
    }
    let corners = [
        Pos::new(r.xmin, r.ymin),
        Pos::new(r.xmax, r.ymin),
        Pos::new(r.xmin, r.ymax),
        Pos::new(r.xmax, r.ymax),
    ];
    if corners.iter().any(|&c| i32::from(h.at(c)) != h.maxsize()) {
        return err("a corner is not maxsize");
    }
    for p in positions(r).filter(|&p| r.on_perimeter(p) && !corners.contains(&p)) {
        if i32::from(h.at(p)) <= h.cutoff() {
            return err(format!(
                "perimeter {p:?} = {} <= cutoff {}",
                h.at(p),
                h.cutoff()
            ));
        }
    }
    Ok(())
}

/// The 8-connected component of `{p strictly inside, in bounds, h ≤ c}`
/// holding the centre (empty when the centre itself is above `c`).
pub(crate) fn component(grid: &Grid, h: &HeightMap, c: i32) -> Vec<Pos> {
    let r = h.rect();
    let inside = |p: Pos| r.contains_strictly(p) && grid.in_bounds(p) && i32::from(h.at(p)) <= c;
    let mut seen = vec![false; (r.width() * r.height()) as usize];
    let idx = |p: Pos| ((p.y - r.ymin) * r.width() + (p.x - r.xmin)) as usize;
    let mut out = Vec::new();
    let mut stack = vec![h.centre()];
    while let Some(p) = stack.pop() {
        if !r.contains(p) || seen[idx(p)] || !inside(p) {
            continue;
        }
        seen[idx(p)] = true;
        out.push(p);
        stack.extend(n8(p));
    }
    out.sort();
    out
}

/// The fill's amount for a component: the centre alone is never accepted.
fn expected_amount(comp: &[Pos]) -> u32 {
    if comp.len() <= 1 {
        0
    } else {
        comp.len() as u32
    }
}

/// §7.3–7.8 for `generate_fracave` on a grid whose cells outside the
/// rectangle's reach started as [`Cell::CLEARED`].
pub(crate) fn fracave(
    grid: &Grid,
    h: &HeightMap,
    cutoff: i32,
    light: bool,
    room: bool,
    out: FillOutcome,
) -> Result<(), String> {
    let r = h.rect();
    let comp = component(grid, h, cutoff);
    if out.amount != expected_amount(&comp) {
        return err(format!(
            "amount {} but component has {} cells",
            out.amount,
            comp.len()
        ));
    }
    if out.succeeded != (out.amount >= 10) {
        return err("succeeded disagrees with amount >= 10");
    }
    if !out.succeeded {
        return positions(r).try_for_each(|p| match grid.get(p) {
            c if c == Cell::CLEARED => Ok(()),
            c => err(format!("failure left {p:?} as {c:?}")),
        });
    }
    let mut is_floor = vec![false; (r.width() * r.height()) as usize];
    let idx = |p: Pos| ((p.y - r.ymin) * r.width() + (p.x - r.xmin)) as usize;
    comp.iter().for_each(|&p| is_floor[idx(p)] = true);
    if !is_floor[idx(h.centre())] {
        return err("centre is not floor");
    }
    for p in positions(r) {
        let floor = is_floor[idx(p)];
        let ring = !floor && n8(p).any(|q| r.contains(q) && is_floor[idx(q)]);
        cell_after_fracave(grid.get(p), floor, ring, r.on_perimeter(p), light, room)
            .map_err(|e| format!("{p:?}: {e}"))?;
    }
    Ok(())
}

/// What one cell must be after a successful fracave.
fn cell_after_fracave(
    c: Cell,
    floor: bool,
    ring: bool,
    perimeter: bool,
    light: bool,
    room: bool,
) -> Result<(), String> {
    let glow = if light { Flags::GLOW } else { Flags::NONE };
    let tag = if room { Flags::ROOM } else { Flags::NONE };
    let (feature_ok, want) = if floor {
        (c.feature.is_floor(), glow | tag | Flags::FLOOR)
    } else if ring && room {
        (c.feature == Feature::OuterWall, glow | tag | Flags::OUTER)
    } else if ring && !perimeter {
        // A cavern's interior ring becomes granite but keeps its GLOW.
        (c.feature == Feature::Granite, glow | Flags::EXTRA)
    } else {
        (c.feature == Feature::Granite, Flags::EXTRA)
    };
    if !feature_ok || c.flags != want {
        return err(format!(
            "{c:?}, want flags {:?} (floor {floor}, ring {ring})",
            want.names()
        ));
    }
    if c.feature.is_floor() && !floor {
        return err("floor outside the component");
    }
    Ok(())
}

/// §7 for `generate_lake`: accepted = the component of `h ≤ c3`; bands by
/// height; granite elsewhere; failure = all floor.
pub(crate) fn lake(
    grid: &Grid,
    h: &HeightMap,
    args: &LakeArgs,
    feats: [Feature; 3],
    out: FillOutcome,
) -> Result<(), String> {
    let r = h.rect();
    let [c1, c2, c3] = args.cutoffs;
    let comp = component(grid, h, c3);
    if out.amount != expected_amount(&comp) || out.succeeded != (out.amount >= 10) {
        return err(format!("amount {} / component {}", out.amount, comp.len()));
    }
    if !out.succeeded {
        return positions(r).try_for_each(|p| {
            let c = grid.get(p);
            if c.feature.is_floor() && c.flags == Flags::FLOOR {
                Ok(())
            } else {
                err(format!("failure left {p:?} {c:?}"))
            }
        });
    }
    for p in positions(r) {
        let c = grid.get(p);
        let height = i32::from(h.at(p));
        let allowed: &[Feature] = if comp.binary_search(&p).is_err() {
            &[Feature::Granite]
        } else if height <= c1.max(c2) {
            &feats[..2]
        } else {
            &feats[2..]
        };
        if !allowed.contains(&c.feature) {
            return err(format!(
                "{p:?} h {height}: {:?} not in {allowed:?}",
                c.feature
            ));
        }
        let glow = args.lava_glows && c.feature.is_lava();
        let kind = if c.feature == Feature::Granite {
            Flags::EXTRA
        } else {
            Flags::NONE
        };
        let want = if glow { kind | Flags::GLOW } else { kind };
        if c.flags != want {
            return err(format!(
                "{p:?}: flags {:?} want {:?}",
                c.flags.names(),
                want.names()
            ));
        }
    }
    Ok(())
}

/// Every cell of `grid` outside `r` is still [`Cell::CLEARED`].
pub(crate) fn untouched_outside(grid: &Grid, r: Rect) -> Result<(), String> {
    match grid
        .positions()
        .find(|&p| !r.contains(p) && grid.get(p) != Cell::CLEARED)
    {
        Some(p) => err(format!("{p:?} outside the rectangle changed")),
        None => Ok(()),
    }
}

/// Every floor cell can reach every other by 8-neighbour steps over floor.
pub(crate) fn all_floor_reachable(grid: &Grid) -> Result<(), String> {
    let Some(start) = grid.positions().find(|&p| grid.get(p).feature.is_floor()) else {
        return err("no floor at all");
    };
    let w = grid.width();
    let mut seen = vec![false; grid.cells().len()];
    let mut stack = vec![start];
    let mut reached = 0;
    while let Some(p) = stack.pop() {
        let i = p.y as usize * w + p.x as usize;
        if !grid.contains(p) || seen[i] || !grid.get(p).feature.is_floor() {
            continue;
        }
        seen[i] = true;
        reached += 1;
        stack.extend(n8(p).filter(|&q| grid.contains(q)));
    }
    let total = grid.floor_count();
    if reached == total {
        Ok(())
    } else {
        err(format!("{reached} of {total} floor cells reachable"))
    }
}
