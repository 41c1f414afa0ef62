//! Shared test helpers: the invariant oracle every generated island must
//! pass, and a generator of random valid definition sets.

#![allow(dead_code)]

use mangekyo_core::Pcg32;
use mangekyo_island::generate::paths::{TRAVEL_MINUTES_STEP, travel_minutes};
use mangekyo_island::{Assignment, Definitions, IslandMap};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// Checks every invariant the issue names; panics with the seed and the
/// broken rule.
pub(crate) fn check_invariants(defs: &Definitions, map: &IslandMap) {
    let ctx = format!("scope {} seed {}", map.scope, map.seed);
    let scope = &defs.scopes()[&map.scope];
    let n = map.sites.len();
    assert!(
        (scope.site_count.0 as usize..=scope.site_count.1 as usize).contains(&n),
        "{ctx}: {n} sites"
    );
    for (i, s) in map.sites.iter().enumerate() {
        assert_eq!(s.id as usize, i, "{ctx}: ids are indices");
        for (axis, &v) in &s.axes {
            let r = defs.axes()[axis].range;
            assert!(
                (r.min..=r.max).contains(&v),
                "{ctx}: site {i} {axis}={v} outside range"
            );
            let k = (v - r.min) / r.step;
            assert!(
                (k - k.round()).abs() < 1e-6,
                "{ctx}: site {i} {axis}={v} off the grid"
            );
        }
        if let Some(c) = scope.coast.filter(|c| c.clamp_ring_sites)
            && s.on_coast_ring
        {
            assert!(
                s.axes["coastal_distance"] <= c.band_max_distance,
                "{ctx}: ring site {i} outside the coast band"
            );
        }
        if s.assigned_by.within_hard_limits() {
            assert!(
                defs.location_types()[&s.location_type].admits(&s.axes),
                "{ctx}: site {i} breaks hard limits of {}",
                s.location_type
            );
        }
        if s.assigned_by == Assignment::Fallback {
            assert!(
                defs.location_types()[&s.location_type].fallback.is_some(),
                "{ctx}: site {i} fallback type"
            );
            assert!(
                !defs.location_types().values().any(|t| t.admits(&s.axes)),
                "{ctx}: site {i} fell back although a type admits it"
            );
        }
    }
    assert!(
        map.sites.iter().take_while(|s| s.on_coast_ring).count()
            == map.sites.iter().filter(|s| s.on_coast_ring).count(),
        "{ctx}: ring first"
    );
    guarantees_met(defs, map, &ctx);
    edges_are_delaunay(map, &ctx);
    mst_is_minimum(
        map,
        defs.scopes()[&map.scope].meters_per_distance_unit,
        &ctx,
    );
    detour_rule_holds(defs, map, &ctx);
    minutes_are_steps(defs, map, &ctx);
    let names: BTreeSet<_> = map.sites.iter().map(|s| &s.name).collect();
    assert_eq!(names.len(), n, "{ctx}: names unique");
    for s in &map.sites {
        assert_eq!(s.name.location_type, s.location_type, "{ctx}: name type");
    }
}

fn guarantees_met(defs: &Definitions, map: &IslandMap, ctx: &str) {
    let scope = &defs.scopes()[&map.scope];
    let mut wanted: BTreeMap<&str, usize> = BTreeMap::new();
    for g in &scope.guarantees {
        *wanted.entry(&g.location_type).or_default() += g.count as usize;
    }
    for (ty, &k) in &wanted {
        let guaranteed = map
            .sites
            .iter()
            .filter(|s| {
                s.location_type == *ty
                    && matches!(
                        s.assigned_by,
                        Assignment::Guarantee | Assignment::ForcedGuarantee
                    )
            })
            .count();
        assert_eq!(guaranteed, k, "{ctx}: guarantee of {ty}");
    }
    let total: usize = wanted.values().sum();
    let all = map
        .sites
        .iter()
        .filter(|s| {
            matches!(
                s.assigned_by,
                Assignment::Guarantee | Assignment::ForcedGuarantee
            )
        })
        .count();
    assert_eq!(all, total, "{ctx}: guaranteed sites");
}

/// Placement puts sites in general position, so the Delaunay triangulation
/// is unique and delaunator's (an independent implementation) must agree.
fn edges_are_delaunay(map: &IslandMap, ctx: &str) {
    let pts: Vec<delaunator::Point> = map
        .sites
        .iter()
        .map(|s| delaunator::Point { x: s.x, y: s.y })
        .collect();
    let t = delaunator::triangulate(&pts);
    let mut dt = BTreeSet::new();
    for e in 0..t.triangles.len() {
        let (a, b) = (
            t.triangles[e] as u32,
            t.triangles[delaunator::next_halfedge(e)] as u32,
        );
        dt.insert((a.min(b), a.max(b)));
    }
    for e in &map.edges {
        assert!(e.a < e.b, "{ctx}: edge order");
        assert!(
            dt.contains(&(e.a, e.b)),
            "{ctx}: edge {}-{} is not Delaunay",
            e.a,
            e.b
        );
    }
}

fn dist(map: &IslandMap, a: u32, b: u32, scale: f64) -> f64 {
    let (p, q) = (&map.sites[a as usize], &map.sites[b as usize]);
    ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).sqrt() * scale
}

/// The MST edges connect every site with n − 1 edges, and their total is
/// Prim's minimum over the complete graph (the Euclidean MST lies inside
/// the Delaunay triangulation).
fn mst_is_minimum(map: &IslandMap, scale: f64, ctx: &str) {
    let n = map.sites.len();
    let mst: Vec<_> = map.edges.iter().filter(|e| e.mst).collect();
    assert_eq!(mst.len(), n - 1, "{ctx}: MST size");
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        if p[x] != x {
            let r = find(p, p[x]);
            p[x] = r;
        }
        p[x]
    }
    for e in &mst {
        let (a, b) = (
            find(&mut parent, e.a as usize),
            find(&mut parent, e.b as usize),
        );
        assert_ne!(a, b, "{ctx}: MST has a cycle");
        parent[a] = b;
    }
    let ours: f64 = mst.iter().map(|e| e.meters).sum();
    let mut in_tree = vec![false; n];
    let mut best = vec![f64::INFINITY; n];
    best[0] = 0.0;
    let mut total = 0.0;
    for _ in 0..n {
        let v = (0..n)
            .filter(|&v| !in_tree[v])
            .min_by(|&a, &b| best[a].total_cmp(&best[b]))
            .unwrap();
        in_tree[v] = true;
        total += best[v];
        for w in 0..n {
            if !in_tree[w] {
                best[w] = best[w].min(dist(map, v as u32, w as u32, scale));
            }
        }
    }
    assert!(
        (ours - total).abs() <= 1e-9 * ours.max(1.0),
        "{ctx}: MST total {ours} vs Prim {total}"
    );
}

/// Replays the re-add decisions with a plain, unbounded Dijkstra: every
/// re-added edge was longer by path than threshold × direct when it was
/// considered, and every other Delaunay edge was not.
fn detour_rule_holds(defs: &Definitions, map: &IslandMap, ctx: &str) {
    let scope = &defs.scopes()[&map.scope];
    let (scale, t) = (
        scope.meters_per_distance_unit,
        scope.extra_edge_detour_threshold,
    );
    let pts: Vec<[f64; 2]> = map.sites.iter().map(|s| [s.x, s.y]).collect();
    let dt = mangekyo_island::generate::delaunay::triangulate(&pts).unwrap();
    let kept: BTreeSet<(u32, u32)> = map
        .edges
        .iter()
        .filter(|e| !e.mst)
        .map(|e| (e.a, e.b))
        .collect();
    let mst: BTreeSet<(u32, u32)> = map
        .edges
        .iter()
        .filter(|e| e.mst)
        .map(|e| (e.a, e.b))
        .collect();
    let mut rest: Vec<(f64, u32, u32)> = dt
        .edges
        .iter()
        .filter(|e| !mst.contains(e))
        .map(|&(a, b)| (dist(map, a, b, scale), a, b))
        .collect();
    rest.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
    let n = map.sites.len();
    let mut adj: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for e in map.edges.iter().filter(|e| e.mst) {
        adj[e.a as usize].push((e.b as usize, e.meters));
        adj[e.b as usize].push((e.a as usize, e.meters));
    }
    for (len, a, b) in rest {
        let shortest = dijkstra(&adj, a as usize, b as usize);
        let limit = len * t;
        let added = kept.contains(&(a, b));
        if (shortest - limit).abs() > 1e-9 * limit {
            assert_eq!(
                added,
                shortest > limit,
                "{ctx}: edge {a}-{b}: path {shortest} vs limit {limit}"
            );
        }
        if added {
            adj[a as usize].push((b as usize, len));
            adj[b as usize].push((a as usize, len));
        }
    }
    assert!(
        kept.iter().all(|e| dt.edges.contains(e)),
        "{ctx}: extra edge outside the triangulation"
    );
}

fn dijkstra(adj: &[Vec<(usize, f64)>], from: usize, to: usize) -> f64 {
    let n = adj.len();
    let mut d = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    d[from] = 0.0;
    for _ in 0..n {
        let Some(v) = (0..n)
            .filter(|&v| !done[v] && d[v].is_finite())
            .min_by(|&a, &b| d[a].total_cmp(&d[b]))
        else {
            break;
        };
        done[v] = true;
        for &(w, len) in &adj[v] {
            d[w] = d[w].min(d[v] + len);
        }
    }
    d[to]
}

fn minutes_are_steps(defs: &Definitions, map: &IslandMap, ctx: &str) {
    let scope = &defs.scopes()[&map.scope];
    let axis = &scope.elevation.axis;
    let per = scope.meters_per_elevation_unit(defs);
    for e in &map.edges {
        assert!(
            e.travel_minutes >= TRAVEL_MINUTES_STEP && e.travel_minutes % TRAVEL_MINUTES_STEP == 0,
            "{ctx}: minutes {}",
            e.travel_minutes
        );
        let climb = (map.sites[e.b as usize].axes[axis] - map.sites[e.a as usize].axes[axis]) * per;
        assert_eq!(
            e.travel_minutes,
            travel_minutes(e.meters, climb),
            "{ctx}: minutes of {}-{}",
            e.a,
            e.b
        );
        assert!(
            (e.meters - dist(map, e.a, e.b, scope.meters_per_distance_unit)).abs() < 1e-6,
            "{ctx}: metres"
        );
    }
}

/// A random, valid definition set as YAML files (split at random), drawn
/// from `seed`. Valid by construction: a fallback type or an unlimited type
/// covers every site, guarantees fit the smallest island, hard limits of
/// guaranteed types admit grid values, a start type is guaranteed.
pub(crate) fn random_definitions(seed: u64) -> Vec<(String, String)> {
    let mut rng = Pcg32::new(seed, 0x5eed);
    let axis_count = 1 + rng.bounded(4) as usize;
    let mut axes = Vec::new();
    let mut axes_yaml = String::from("axes:\n");
    for i in 0..axis_count {
        let name = if i == 0 && rng.chance(0.5) {
            "coastal_distance".to_string()
        } else {
            format!("axis{i}")
        };
        let step = [1.0, 0.5, 2.0, 0.25][rng.bounded(4) as usize];
        let levels = 2 + rng.bounded(10);
        let min = f64::from(rng.bounded(5)) - 2.0;
        let max = min + step * f64::from(levels);
        let _ = writeln!(
            axes_yaml,
            "  {name}:\n    range: {{ min: {min}, max: {max}, step: {step} }}\n    layers:"
        );
        if rng.chance(0.7) {
            let _ = writeln!(
                axes_yaml,
                "      - {{ kind: distance_field, weight: {} }}",
                0.1 + rng.next_f64()
            );
        }
        let _ = writeln!(
            axes_yaml,
            "      - {{ kind: layered_noise, weight: {}, seed_offset: {}, octaves: {}, frequency: {} }}",
            0.1 + rng.next_f64(),
            rng.bounded(100),
            1 + rng.bounded(5),
            0.3 + 3.0 * rng.next_f64()
        );
        axes.push((name, min, max, step));
    }
    let type_count = 2 + rng.bounded(7) as usize;
    let mut types_yaml = String::from("location_types:\n");
    let mut objects_yaml =
        String::from("object_defs:\n  path.p:\n    kind: path\n  char.c:\n    kind: character\n");
    let has_fallback = rng.chance(0.7);
    for t in 0..type_count {
        let _ = writeln!(
            objects_yaml,
            "  land.t{t}:\n    kind: location\n    properties:\n      exploration: {{ min: 0, max: {} }}\n      p: {{ min: 0, max: 9 }}",
            10 + rng.bounded(200)
        );
        let _ = writeln!(
            types_yaml,
            "  t{t}:\n    object_def: land.t{t}\n    axis_preferences:"
        );
        for (name, min, max, _) in &axes {
            if rng.chance(0.7) || name == &axes[0].0 {
                let _ = writeln!(
                    types_yaml,
                    "      {name}: {{ value: {}, weight: {} }}",
                    min + (max - min) * rng.next_f64(),
                    0.2 + 2.0 * rng.next_f64()
                );
            }
        }
        // Type 0 stays unlimited when there is no fallback: it covers every site.
        let limit = (t > 0 || has_fallback) && rng.chance(0.6);
        if limit {
            let (name, min, _, step) = &axes[rng.bounded(axes.len() as u32) as usize];
            let lo = min + step * f64::from(rng.bounded(3));
            let hi = lo + step * f64::from(rng.bounded(6));
            let _ = writeln!(
                types_yaml,
                "    hard_limits:\n      {name}: {{ min: {lo}, max: {hi} }}"
            );
        }
        if has_fallback && t == type_count - 1 {
            let _ = writeln!(
                types_yaml,
                "    fallback: {{ priority: {} }}",
                rng.bounded(5)
            );
        }
        let variants = rng.bounded(4);
        if variants > 0 {
            let _ = writeln!(types_yaml, "    variants:");
            for v in 0..variants {
                let _ = writeln!(
                    types_yaml,
                    "      - {{ id: v{v}, props: {{ p: {} }} }}",
                    rng.bounded(10)
                );
            }
        }
    }
    let min_sites = 3 + rng.bounded(28);
    let max_sites = min_sites + rng.bounded(21);
    let mut guarantees = String::new();
    let mut budget = min_sites.min(6);
    let mut guaranteed = Vec::new();
    for _ in 0..rng.bounded(4) {
        if budget == 0 {
            break;
        }
        let t = rng.bounded(type_count as u32) as usize;
        let count = 1 + rng.bounded(budget.min(2));
        budget -= count;
        let order = if rng.chance(0.7) {
            let (axis, _, _, _) = &axes[rng.bounded(axes.len() as u32) as usize];
            format!(
                ", order_by: {{ axis: {axis}, prefer: {} }}",
                if rng.chance(0.5) { "lowest" } else { "highest" }
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            guarantees,
            "      - {{ type: t{t}, count: {count}{order} }}"
        );
        guaranteed.push((t, count));
    }
    if guaranteed.is_empty() {
        let _ = writeln!(guarantees, "      - {{ type: t0, count: 1 }}");
        guaranteed.push((0, 1));
    }
    let cap = guaranteed.iter().fold(BTreeMap::new(), |mut m, &(t, c)| {
        *m.entry(t).or_insert(0) += c;
        m
    });
    let max_per_type = cap.values().max().copied().unwrap_or(1) + rng.bounded(4);
    let coast = if axes.iter().any(|a| a.0 == "coastal_distance") && rng.chance(0.6) {
        let a = axes.iter().find(|a| a.0 == "coastal_distance").unwrap();
        format!(
            "    coast: {{ clamp_ring_sites: true, band_max_distance: {} }}\n",
            a.1 + a.3
        )
    } else {
        String::new()
    };
    let elevation = &axes[rng.bounded(axes.len() as u32) as usize].0;
    let scope_yaml = format!(
        "generation_scopes:\n  s:\n    site_count: {{ min: {min_sites}, max: {max_sites} }}\n    meters_per_distance_unit: {}\n    elevation: {{ axis: {elevation}, top_meters: {} }}\n    extra_edge_detour_threshold: {}\n    crowding_penalty_per_duplicate: {}\n    max_sites_per_type: {max_per_type}\n{coast}    guarantees:\n{guarantees}    start: [t{}]\n    player: char.c\n    path: path.p\n    explore: {{ minutes: 30, progress: 15 }}\n",
        100.0 + 5000.0 * rng.next_f64(),
        100.0 + 2000.0 * rng.next_f64(),
        1.0 + 2.0 * rng.next_f64(),
        rng.next_f64(),
        guaranteed[0].0
    );
    let localization = "localization:\n  en:\n    location_types:\n      t0: First\n".to_string();
    let mut files = vec![
        ("objects.yaml".to_string(), objects_yaml),
        ("axes.yaml".to_string(), axes_yaml),
        ("types.yaml".to_string(), types_yaml),
        ("scope.yaml".to_string(), scope_yaml),
        ("en.yaml".to_string(), localization),
    ];
    rng.shuffle(&mut files);
    files
}
