//! A plain-text summary of an island: totals, a site table and a path table.

use super::number;
use crate::Definitions;
use crate::map::{Assignment, IslandMap};
use std::fmt::Write;

/// The summary, names in `lang`.
pub fn render(map: &IslandMap, defs: &Definitions, lang: &str) -> String {
    let loc = defs.localization();
    let label = |id: u32| loc.label(lang, &map.sites[id as usize].name);
    let mut out = String::new();
    let mst = map.edges.iter().filter(|e| e.mst).count();
    let km: f64 = map.edges.iter().map(|e| e.meters).sum::<f64>() / 1000.0;
    let _ = writeln!(
        out,
        "{} · seed {} · {} sites · {} paths ({mst} spanning tree, {} detour savers) · {:.1} km",
        map.scope,
        map.seed,
        map.sites.len(),
        map.edges.len(),
        map.edges.len() - mst,
        km
    );
    let width = map
        .sites
        .iter()
        .map(|s| display_width(&label(s.id)))
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        out,
        "\nsites\n  {:>3}  {}  {:<10} {:<9} axes",
        "id",
        pad("name", width),
        "type",
        "by"
    );
    for s in &map.sites {
        let axes: Vec<String> = s
            .axes
            .iter()
            .map(|(k, v)| format!("{k}={}", number(*v)))
            .collect();
        let ring = if s.on_coast_ring { " (coast)" } else { "" };
        let _ = writeln!(
            out,
            "  {:>3}  {}  {:<10} {:<9} {}{ring}",
            s.id,
            pad(&label(s.id), width),
            s.location_type,
            assignment(s.assigned_by),
            axes.join(" ")
        );
    }
    let _ = writeln!(out, "\npaths");
    for e in &map.edges {
        let kind = if e.mst { "tree" } else { "detour saver" };
        let _ = writeln!(
            out,
            "  {:>3} – {:<3} {} – {}  {:.2} km  {} min  {kind}",
            e.a,
            e.b,
            label(e.a),
            label(e.b),
            e.meters / 1000.0,
            e.travel_minutes
        );
    }
    out
}

fn assignment(a: Assignment) -> &'static str {
    match a {
        Assignment::Guarantee => "guarantee",
        Assignment::ForcedGuarantee => "forced",
        Assignment::Nearest => "nearest",
        Assignment::Fallback => "fallback",
    }
}

/// Terminal columns of `s`: East Asian wide characters take two.
pub fn display_width(s: &str) -> usize {
    s.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum()
}

fn is_wide(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6)
}

/// `s` padded with spaces to `width` terminal columns.
pub fn pad(s: &str, width: usize) -> String {
    let w = display_width(s);
    format!("{s}{}", " ".repeat(width.saturating_sub(w)))
}
