//! An SVG map of an island: the coastline through the ring sites, sea
//! routes (blue dashes round the coast), paths (MST solid, re-added detour
//! savers dashed) with travel minutes, sites coloured by type with
//! localised names, and a legend.

use super::number;
use crate::Definitions;
use crate::generate::place::ISLAND_RADIUS;
use crate::generate::sea::{SEA_RADIUS, SeaRoute, sea_arc, sea_routes};
use crate::map::{IslandMap, Site};
use std::fmt::Write;

/// Side of the square map area, in pixels.
pub const MAP_SIZE: f64 = 760.0;

/// Width of the legend column right of the map, in pixels.
pub const LEGEND_WIDTH: f64 = 230.0;

/// How far the drawn coastline lies outside the ring sites, in island
/// radii: enough that ring sites sit on land, not on the waterline.
pub const COAST_MARGIN: f64 = 0.07;

/// Type colours, assigned in type-name order: distinct hues that stay
/// readable on the sand fill and for common colour-vision deficiencies
/// (after Paul Tol's "muted" scheme, extended).
pub const PALETTE: [&str; 12] = [
    "#332288", "#88ccee", "#44aa99", "#117733", "#999933", "#ddcc77", "#cc6677", "#882255",
    "#aa4499", "#6f4e37", "#dd7733", "#777777",
];

/// Renders the map with labels in `lang`.
pub fn render(map: &IslandMap, defs: &Definitions, lang: &str) -> String {
    let mut svg = String::new();
    let (w, h) = (MAP_SIZE + LEGEND_WIDTH, MAP_SIZE);
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="Noto Sans CJK JP, Noto Sans, DejaVu Sans, sans-serif">"##
    );
    let _ = writeln!(svg, r##"<rect width="{w}" height="{h}" fill="#cfe6f2"/>"##);
    coastline(&mut svg, map);
    // A map from other definitions (no such scope) simply has no boats.
    let routes = sea_routes(defs, map).unwrap_or_default();
    sea(&mut svg, map, &routes);
    edges(&mut svg, map);
    sites(&mut svg, map, defs, lang);
    legend(&mut svg, map, defs, lang, &routes);
    svg.push_str("</svg>\n");
    svg
}

/// Island coordinates → pixels (y up → y down).
fn px(x: f64, y: f64) -> (f64, f64) {
    let scale = MAP_SIZE / 2.0 / (ISLAND_RADIUS * 1.08);
    (MAP_SIZE / 2.0 + x * scale, MAP_SIZE / 2.0 - y * scale)
}

fn type_colour(defs: &Definitions, ty: &str) -> &'static str {
    let i = defs
        .location_types()
        .keys()
        .position(|k| k == ty)
        .unwrap_or(0);
    PALETTE[i % PALETTE.len()]
}

/// A closed Catmull–Rom curve through the coast-ring sites, pushed outward.
fn coastline(svg: &mut String, map: &IslandMap) {
    let mut ring: Vec<(f64, f64)> = map
        .sites
        .iter()
        .filter(|s| s.on_coast_ring)
        .map(|s| {
            let r = (s.x * s.x + s.y * s.y).sqrt();
            let k = (r + COAST_MARGIN * ISLAND_RADIUS) / r;
            (s.x * k, s.y * k)
        })
        .collect();
    ring.sort_by(|a, b| libm::atan2(a.1, a.0).total_cmp(&libm::atan2(b.1, b.0)));
    if ring.len() < 3 {
        return;
    }
    let n = ring.len();
    let p = |i: usize| {
        let (x, y) = ring[i % n];
        px(x, y)
    };
    let mut d = String::new();
    let (x0, y0) = p(0);
    let _ = write!(d, "M{x0:.1},{y0:.1}");
    for i in 0..n {
        let (a, b, c, e) = (p(i + n - 1), p(i), p(i + 1), p(i + 2));
        let c1 = (b.0 + (c.0 - a.0) / 6.0, b.1 + (c.1 - a.1) / 6.0);
        let c2 = (c.0 - (e.0 - b.0) / 6.0, c.1 - (e.1 - b.1) / 6.0);
        let _ = write!(
            d,
            " C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
            c1.0, c1.1, c2.0, c2.1, c.0, c.1
        );
    }
    let _ = writeln!(
        svg,
        r##"<path d="{d} Z" fill="#efe4c4" stroke="#b9a36a" stroke-width="3"/>"##
    );
}

/// How sea routes are drawn: blue dashes, apart from the paths' browns.
const SEA_STYLE: &str = r##"fill="none" stroke="#1f5f8b" stroke-width="2" stroke-dasharray="2 5" stroke-linecap="round""##;

/// Distance between the lanes of drawn sea routes, in island radii
/// (about 4 px): three routes stay between the coastline and the frame.
const SEA_LANE: f64 = 0.012;

/// Sea routes: out from the first site, round the coast along
/// [`SEA_RADIUS`], in to the other, with the sailing minutes mid-arc.
fn sea(svg: &mut String, map: &IslandMap, routes: &[SeaRoute]) {
    if routes.is_empty() {
        return;
    }
    svg.push_str("<g id=\"sea-routes\">\n");
    for (i, route) in routes.iter().enumerate() {
        // Routes sharing a stretch of coast would hide each other: each
        // gets its own lane, a few pixels apart round SEA_RADIUS.
        let lane = SEA_RADIUS + (i as f64 - (routes.len() - 1) as f64 / 2.0) * SEA_LANE;
        let r_px = px(lane, 0.0).0 - px(0.0, 0.0).0;
        let (a, b) = (&map.sites[route.a as usize], &map.sites[route.b as usize]);
        let arc = sea_arc(a.x, a.y, b.x, b.y);
        let at = |angle: f64| px(lane * libm::cos(angle), lane * libm::sin(angle));
        let ((ax, ay), (bx, by)) = (px(a.x, a.y), px(b.x, b.y));
        let (ox, oy) = at(arc.start);
        let (ix, iy) = at(arc.start + arc.sweep);
        // y points down on screen, so anticlockwise on the island is
        // SVG's negative sweep direction.
        let sweep = u8::from(arc.sweep < 0.0);
        let _ = writeln!(
            svg,
            r#"<path d="M{ax:.1},{ay:.1} L{ox:.1},{oy:.1} A{r_px:.1},{r_px:.1} 0 0 {sweep} {ix:.1},{iy:.1} L{bx:.1},{by:.1}" {SEA_STYLE}/>"#
        );
        let (mx, my) = at(arc.start + arc.sweep / 2.0);
        let _ = writeln!(
            svg,
            r##"<text x="{mx:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#1f5f8b" stroke="#cfe6f2" stroke-width="3" paint-order="stroke">{}′</text>"##,
            my + 3.5,
            route.travel_minutes
        );
    }
    svg.push_str("</g>\n");
}

fn edges(svg: &mut String, map: &IslandMap) {
    svg.push_str("<g id=\"edges\">\n");
    for e in &map.edges {
        let (a, b) = (&map.sites[e.a as usize], &map.sites[e.b as usize]);
        let ((x1, y1), (x2, y2)) = (px(a.x, a.y), px(b.x, b.y));
        let style = if e.mst {
            r##"stroke="#5a4632" stroke-width="2.4""##
        } else {
            r##"stroke="#8c6f52" stroke-width="1.6" stroke-dasharray="7 5""##
        };
        let _ = writeln!(
            svg,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" {style}/>"#
        );
    }
    for e in &map.edges {
        let (a, b) = (&map.sites[e.a as usize], &map.sites[e.b as usize]);
        let (mx, my) = px((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
        let _ = writeln!(
            svg,
            r##"<text x="{mx:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#4a3a2a" stroke="#efe4c4" stroke-width="3" paint-order="stroke">{}′</text>"##,
            my + 3.5,
            e.travel_minutes
        );
    }
    svg.push_str("</g>\n");
}

fn sites(svg: &mut String, map: &IslandMap, defs: &Definitions, lang: &str) {
    svg.push_str("<g id=\"sites\">\n");
    for s in &map.sites {
        site(svg, s, defs, lang);
    }
    svg.push_str("</g>\n");
}

fn site(svg: &mut String, s: &Site, defs: &Definitions, lang: &str) {
    let (x, y) = px(s.x, s.y);
    let fill = type_colour(defs, &s.location_type);
    let outline = if s.assigned_by.within_hard_limits() {
        ""
    } else {
        r#" stroke-dasharray="3 2""#
    };
    let _ = writeln!(
        svg,
        r##"<circle cx="{x:.1}" cy="{y:.1}" r="8" fill="{fill}" stroke="#ffffff" stroke-width="2"{outline}><title>site {} · {}</title></circle>"##,
        s.id,
        escape(&s.location_type)
    );
    let label = escape(&defs.localization().label(lang, &s.name));
    let _ = writeln!(
        svg,
        r##"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#222" stroke="#efe4c4" stroke-width="3.5" paint-order="stroke">{label}</text>"##,
        y + 22.0
    );
}

/// The legend's own words, in English and Japanese (place names come from
/// the definitions).
struct LegendWords {
    tree: &'static str,
    extra: &'static str,
    sea: &'static str,
    summary: &'static str,
    minutes: &'static str,
    fallback: &'static str,
}

fn legend_words(lang: &str) -> LegendWords {
    if lang == "ja" {
        LegendWords {
            tree: "全域木の道",
            extra: "近道として足した道",
            sea: "航路（船）",
            summary: "{sites} か所、道の総延長 {km} km",
            minutes: "N′ = 移動にかかる分",
            fallback: "点線の縁 = 代替の型",
        }
    } else {
        LegendWords {
            tree: "spanning tree",
            extra: "detour savers",
            sea: "sea routes (boats)",
            summary: "{sites} sites, {km} km of paths",
            minutes: "N′ = travel minutes",
            fallback: "dashed ring = fallback type",
        }
    }
}

fn legend(svg: &mut String, map: &IslandMap, defs: &Definitions, lang: &str, routes: &[SeaRoute]) {
    let words = legend_words(lang);
    let x0 = MAP_SIZE + 10.0;
    let _ = writeln!(
        svg,
        r##"<rect x="{}" y="10" width="{}" height="{}" rx="8" fill="#ffffff" fill-opacity="0.85"/>"##,
        x0 - 4.0,
        LEGEND_WIDTH - 16.0,
        MAP_SIZE - 20.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="{x0}" y="36" font-size="15" font-weight="bold">{} · seed {}</text>"#,
        escape(&map.scope),
        map.seed
    );
    let mut y = 62.0;
    for ty in defs.location_types().keys() {
        let count = map.sites.iter().filter(|s| &s.location_type == ty).count();
        if count == 0 {
            continue;
        }
        let name = defs.localization().label(
            lang,
            &crate::LocationName {
                location_type: ty.clone(),
                variant: None,
                ordinal: None,
            },
        );
        let _ = writeln!(
            svg,
            r##"<circle cx="{}" cy="{}" r="7" fill="{}" stroke="#fff" stroke-width="1.5"/>"##,
            x0 + 10.0,
            y - 4.0,
            type_colour(defs, ty)
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{y}" font-size="13">{} × {count}</text>"#,
            x0 + 24.0,
            escape(&name)
        );
        y += 22.0;
    }
    y += 12.0;
    let (mst, extra) = (
        map.edges.iter().filter(|e| e.mst).count(),
        map.edges.iter().filter(|e| !e.mst).count(),
    );
    let km: f64 = map.edges.iter().map(|e| e.meters).sum::<f64>() / 1000.0;
    let mut rows = vec![
        (
            r##"stroke="#5a4632" stroke-width="2.4""##,
            format!("{} ({mst})", words.tree),
        ),
        (
            r##"stroke="#8c6f52" stroke-width="1.6" stroke-dasharray="7 5""##,
            format!("{} ({extra})", words.extra),
        ),
    ];
    if !routes.is_empty() {
        rows.push((SEA_STYLE, format!("{} ({})", words.sea, routes.len())));
    }
    for (style, text) in rows {
        let _ = writeln!(
            svg,
            r#"<line x1="{x0}" y1="{}" x2="{}" y2="{}" {style}/>"#,
            y - 4.0,
            x0 + 20.0,
            y - 4.0
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{y}" font-size="12">{text}</text>"#,
            x0 + 26.0
        );
        y += 20.0;
    }
    let notes = [
        words
            .summary
            .replace("{sites}", &map.sites.len().to_string())
            .replace("{km}", &number((km * 10.0).round() / 10.0)),
        words.minutes.to_string(),
        words.fallback.to_string(),
    ];
    for note in notes {
        let _ = writeln!(
            svg,
            r##"<text x="{x0}" y="{y}" font-size="11" fill="#444">{}</text>"##,
            escape(&note)
        );
        y += 17.0;
    }
}

/// Escapes text for XML content and attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}
