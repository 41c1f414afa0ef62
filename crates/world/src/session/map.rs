//! The `map` command: what the explorer knows, drawn in ASCII — visited
//! places, places a known path leads to, and the known paths between them
//! (sea routes only by their ends).
//! Nothing unknown is drawn, so the map fills in as the island is explored.

use super::text::words;
use crate::object::{ObjectId, slot};
use crate::play::Game;
use std::collections::BTreeSet;

/// Map width in characters (terminal cells are about twice as tall as
/// wide, so twice the height).
pub(super) const MAP_COLUMNS: usize = 61;

/// Map height in lines.
pub(super) const MAP_ROWS: usize = 27;

/// Island radii shown from the centre to the map's edge.
const EXTENT: f64 = 1.08;

fn cell(x: f64, y: f64) -> (usize, usize) {
    let cx = ((x / EXTENT + 1.0) * 0.5 * (MAP_COLUMNS - 1) as f64).round();
    let cy = ((1.0 - y / EXTENT) * 0.5 * (MAP_ROWS - 1) as f64).round();
    (
        cx.clamp(0.0, (MAP_COLUMNS - 1) as f64) as usize,
        cy.clamp(0.0, (MAP_ROWS - 1) as f64) as usize,
    )
}

/// Markers for known places other than the current one.
const MARKS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// Draws the map with a legend in `lang`.
pub(super) fn render(game: &Game, lang: &str) -> String {
    let island = game.island();
    let map = island.map();
    let world = game.world();
    let mut known: BTreeSet<ObjectId> = game.visited().clone();
    let mut lines = Vec::new();
    for &land in island.lands() {
        for p in world.slot(land, slot::FIXTURES) {
            if let Some(info) = game
                .discovered_paths(land)
                .into_iter()
                .find(|i| i.path == *p)
            {
                known.insert(info.destination);
                // Sea routes go round the coast, not across it: their
                // ends are drawn, a straight line would cross the land.
                let seen =
                    game.visited().contains(&land) || game.visited().contains(&info.destination);
                if seen && !info.sea {
                    lines.push((land, info.destination));
                }
            }
        }
    }
    let mut grid = vec![vec![b' '; MAP_COLUMNS]; MAP_ROWS];
    sea(&mut grid);
    let pos = |land: ObjectId| {
        let s = &map.sites[island.site_of(land).unwrap_or(0) as usize];
        cell(s.x, s.y)
    };
    for (a, b) in lines {
        draw_line(&mut grid, pos(a), pos(b));
    }
    let here = game.here();
    let w = words(lang);
    let mut legend = Vec::new();
    for &land in &known {
        let (x, y) = pos(land);
        // A place keeps its letter all game: letters follow site ids.
        let i = island.site_of(land).unwrap_or(0) as usize;
        let (mark, note) = if land == here {
            (b'@', w.map_here)
        } else if game.visited().contains(&land) {
            (MARKS[i % MARKS.len()], w.map_visited)
        } else {
            (MARKS[i % MARKS.len()], w.map_known)
        };
        grid[y][x] = mark;
        let name = island
            .name_of(land)
            .map(|n| game.definitions().localization().label(lang, n))
            .unwrap_or_default();
        let (p, max) = game.progress(land);
        legend.push(format!(
            "  {} {name} — {note}, {}%",
            mark as char,
            (100.0 * p / max).floor() as u32
        ));
    }
    let mut out: Vec<String> = grid
        .into_iter()
        .map(|row| String::from_utf8_lossy(&row).trim_end().to_string())
        .collect();
    out.push(String::new());
    out.extend(legend);
    out.join("\n")
}

/// `~` where the sea begins (outside the island's radius).
fn sea(grid: &mut [Vec<u8>]) {
    for (y, row) in grid.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            let fx = (x as f64 / (MAP_COLUMNS - 1) as f64 * 2.0 - 1.0) * EXTENT;
            let fy = (1.0 - y as f64 / (MAP_ROWS - 1) as f64 * 2.0) * EXTENT;
            let r = (fx * fx + fy * fy).sqrt();
            if r > 1.0 && r < 1.0 + 0.09 {
                *c = b'~';
            }
        }
    }
}

/// A path as dots between two cells (DDA, endpoints left for the markers).
fn draw_line(grid: &mut [Vec<u8>], a: (usize, usize), b: (usize, usize)) {
    let (dx, dy) = (b.0 as f64 - a.0 as f64, b.1 as f64 - a.1 as f64);
    let steps = dx.abs().max(dy.abs()) as usize;
    for i in 1..steps {
        let t = i as f64 / steps as f64;
        let x = (a.0 as f64 + dx * t).round() as usize;
        let y = (a.1 as f64 + dy * t).round() as usize;
        if grid[y][x] == b' ' || grid[y][x] == b'~' {
            grid[y][x] = b'.';
        }
    }
}
