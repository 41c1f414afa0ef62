//! The flow oracles (`docs/planet.md`, "Test oracles") on real planets and on
//! synthetic surfaces: receivers form a forest rooted in the sea or a
//! closed lake, the flood order is a stack order, discharge is conserved
//! exactly, every receiver edge outside lakes runs strictly downhill, every
//! river ends in the sea or a lake, and the 1-D steady state of the
//! implicit stream-power step is S = (U/K)·A^(−1/2).

use mangekyo_planet::graph::SphereGraph;
use mangekyo_planet::hydro::Mesh;
use mangekyo_planet::hydro::balance::NodeBalance;
use mangekyo_planet::hydro::erosion::{self, ErosionParams};
use mangekyo_planet::hydro::rivers;
use mangekyo_planet::hydro::routing::{self, NONE};
use mangekyo_planet::version::Peaks;
use mangekyo_planet::{Planet, PlanetParams, Version};

fn planet(n: u32) -> Planet {
    Planet::new(PlanetParams {
        graph_n: n,
        ..PlanetParams::default()
    })
    .unwrap()
}

/// The default planet's graph of `n` and its tectonic ground: the mesh,
/// the heights before erosion, and which nodes are sea.
fn tectonic_ground(n: u32) -> (Mesh, Vec<f64>, Vec<bool>) {
    let planet = planet(n);
    let tier = planet.coarse_tier().unwrap();
    let graph = SphereGraph::new(n, planet.params().seed).unwrap();
    let mesh = Mesh::new(graph, planet.params().radius);
    let h0: Vec<f64> = tier.height.iter().map(|&h| f64::from(h)).collect();
    let ocean: Vec<bool> = h0.iter().map(|&h| h < 0.0).collect();
    (mesh, h0, ocean)
}

/// Position of each node in the stack.
fn ranks(order: &[u32]) -> Vec<usize> {
    let mut rank = vec![usize::MAX; order.len()];
    for (i, &k) in order.iter().enumerate() {
        rank[k as usize] = i;
    }
    rank
}

/// Checks that `hyd`'s receivers form a forest in stack order rooted in
/// the sea or a closed lake, with water that never rises downstream and
/// receiver edges outside lakes strictly downhill; returns what reaches
/// each node (its own runoff plus its donors' discharge).
fn forest_inflow(hyd: &erosion::Hydrology, ocean: &[bool]) -> Vec<u64> {
    let r = &hyd.routing;
    let rank = ranks(&r.order);
    assert!(
        rank.iter().all(|&x| x != usize::MAX),
        "every node is routed"
    );
    let mut inflow = hyd.runoff.clone();
    for (k, &to) in r.receiver.iter().enumerate() {
        if to == NONE {
            // Roots: the sea, or the exits and floors of closed lakes.
            let lake = r.lake[k];
            assert!(
                ocean[k] || (lake != NONE && r.lakes[lake as usize].endorheic),
                "node {k} is a root on land outside a closed lake"
            );
            continue;
        }
        assert!(!ocean[k], "sea node {k} drains somewhere");
        assert!(rank[to as usize] < rank[k], "{k} comes before its receiver");
        assert!(r.level[to as usize] <= r.level[k], "{k}: water rises");
        if r.lake[k] == NONE {
            assert!(
                hyd.height[k] > r.level[to as usize],
                "{k}: receiver edge outside a lake is not strictly downhill"
            );
        }
        inflow[to as usize] += hyd.discharge[k];
    }
    inflow
}

#[test]
fn drainage_is_a_conserving_forest_that_runs_downhill_to_the_sea_or_a_lake() {
    let (mesh, h0, ocean) = tectonic_ground(64);
    // Uneven rain, so conservation is not a count of cells.
    let rain: Vec<f64> = (0..mesh.len())
        .map(|k| 0.3 + 1.4 * ((k * 7919) % 1000) as f64 / 1000.0)
        .collect();
    let p = ErosionParams::default();
    let hyd = erosion::erode(&mesh, &h0, &ocean, &rain, &p);
    let r = &hyd.routing;
    let donors_sum = forest_inflow(&hyd, &ocean);
    assert_eq!(
        donors_sum, hyd.discharge,
        "each node's discharge is its own plus its donors'"
    );
    let at_roots: u64 = (0..mesh.len())
        .filter(|&k| r.receiver[k] == NONE)
        .map(|k| hyd.discharge[k])
        .sum();
    assert_eq!(
        at_roots,
        hyd.runoff.iter().sum::<u64>(),
        "every drop reaches a root"
    );
    for (id, lake) in r.lakes.iter().enumerate() {
        if lake.endorheic {
            assert!(p.evaporation * lake.area >= lake.inflow as f64, "lake {id}");
        } else {
            assert_ne!(
                r.lake[lake.outlet as usize], id as u32,
                "lake {id} spills outside"
            );
            assert!(
                r.level[lake.outlet as usize] <= lake.level,
                "lake {id}'s pass"
            );
        }
    }

    // Rivers: levels never rise, and following links downstream always
    // reaches the sea or a lake.
    let segs = rivers::extract(&mesh, &hyd, &ocean);
    assert!(segs.len() > 100, "{} segments", segs.len());
    let mut first_of = std::collections::BTreeMap::new();
    let mut last_of = std::collections::BTreeMap::new();
    for s in &segs {
        assert!(s.z_to <= s.z_from, "{s:?}");
        assert!(s.width > 0.0 && s.depth > 0.0 && s.discharge > 0.0);
        first_of.entry(s.from).or_insert(s.link);
        last_of.insert(s.link, *s);
    }
    for (&link, last) in &last_of {
        let (mut at, mut hops) = (*last, 0);
        while at.mouth == 0 {
            let next = first_of
                .get(&at.to)
                .unwrap_or_else(|| panic!("link {link} ends at node {} on land", at.to));
            at = last_of[next];
            hops += 1;
            assert!(hops < segs.len(), "link {link} loops");
        }
    }
}

/// A mesh of land rising towards +z with a bowl at the pole, sea below
/// z = −0.3.
fn bowl(mesh: &Mesh) -> (Vec<f64>, Vec<bool>) {
    let h: Vec<f64> = mesh
        .dirs
        .iter()
        .map(|d| {
            let rim = 3000.0 * (d[2] + 0.3);
            let r = ((1.0 - d[2]) * 2.0).sqrt(); // chord from the pole
            rim - 2500.0 * (1.0 - r / 0.5).max(0.0)
        })
        .collect();
    let ocean = h.iter().map(|&x| x < 0.0).collect();
    (h, ocean)
}

#[test]
fn a_lake_spills_at_its_pass_or_closes_when_evaporation_wins() {
    let mesh = Mesh::new(SphereGraph::new(16, 3).unwrap(), 1e6);
    let (h, ocean) = bowl(&mesh);
    let runoff: Vec<u64> = (0..mesh.len())
        .map(|k| {
            if ocean[k] {
                0
            } else {
                mesh.area[k].round() as u64
            }
        })
        .collect();
    let total: u64 = runoff.iter().sum();
    for (evaporation, closed) in [(0.0, false), (1e4, true)] {
        let mut r = routing::route(&mesh, &h, &ocean);
        let mut q = routing::accumulate(&r, &runoff);
        routing::close_endorheic(&mut r, &mut q, evaporation);
        let lakes: Vec<_> = r.lakes.iter().filter(|l| l.nodes.len() > 3).collect();
        assert_eq!(lakes.len(), 1, "one lake in the bowl: {:?}", r.lakes.len());
        let lake = lakes[0];
        assert_eq!(lake.endorheic, closed, "evaporation {evaporation}");
        let roots: u64 = (0..mesh.len())
            .filter(|&k| r.receiver[k] == NONE)
            .map(|k| q[k])
            .sum();
        assert_eq!(roots, total, "conserved with evaporation {evaporation}");
        let to_sea: u64 = (0..mesh.len()).filter(|&k| ocean[k]).map(|k| q[k]).sum();
        if closed {
            assert_eq!(
                to_sea + lake.inflow,
                total,
                "the closed lake keeps its inflow"
            );
        } else {
            assert_eq!(to_sea, total, "everything reaches the sea");
            assert!(r.level[lake.outlet as usize] <= lake.level);
            assert!(
                h[lake.outlet as usize] >= lake.level - 1e-9,
                "the outlet is the pass"
            );
        }
    }
}

#[test]
fn the_one_dimensional_steady_state_matches_stream_power() {
    // A chain of 200 nodes 1 km apart draining to node 0 (held at 0 m),
    // each adding 10⁶ m³/yr: q_i = (200 − i + 1)·10⁶ upstream of node i.
    let n = 200;
    let spacing = 1000.0;
    let q: Vec<u64> = (0..n).map(|i| (n - i) as u64 * 1_000_000).collect();
    let p = ErosionParams::default();
    let uplift = 0.01;
    let mut h = vec![0.0; n];
    for _ in 0..5000 {
        erosion::chain_step(&mut h, &q, spacing, uplift, &p);
    }
    let mut worst = 0.0f64;
    for i in 1..n {
        let slope = (h[i] - h[i - 1]) / spacing;
        // S = (U/K)·A^(−m/n) with n = 1, m = ½ (K·dt and U·dt folded in).
        let want = uplift / (p.k_dt * (q[i] as f64).sqrt());
        worst = worst.max((slope / want - 1.0).abs());
    }
    assert!(worst < 0.01, "worst relative slope error {worst}");
}

/// Erodes `h0` under a water balance of rain `p` (m/yr) at temperature
/// `t` (°C) per node.
fn balanced(
    mesh: &Mesh,
    h0: &[f64],
    ocean: &[bool],
    p: &[f64],
    t: &[f64],
) -> (erosion::Hydrology, NodeBalance) {
    let b = NodeBalance::new(mesh, p, t, ocean);
    let params = ErosionParams::for_peaks(Peaks::Bounded, 1.0);
    let hyd = erosion::erode_observed(mesh, h0, ocean, p, &params, Some(&b), &|_| true).unwrap();
    (hyd, b)
}

#[test]
fn with_a_water_balance_drainage_still_runs_downhill_and_closed_basins_end_in_balanced_lakes() {
    let (mesh, h0, ocean) = tectonic_ground(64);
    // Warm and dry towards the equator, cool and wet poleward, uneven.
    let t: Vec<f64> = mesh.dirs.iter().map(|d| 30.0 - 45.0 * d[2].abs()).collect();
    let rain: Vec<f64> = (0..mesh.len())
        .map(|k| 0.05 + 1.6 * mesh.dirs[k][2].abs() * ((k * 7919) % 1000) as f64 / 1000.0)
        .collect();
    let (hyd, b) = balanced(&mesh, &h0, &ocean, &rain, &t);
    let r = &hyd.routing;
    let inflow = forest_inflow(&hyd, &ocean);
    // Rivers only lose water on the way (where the air is dry), and only
    // there.
    for (k, &reaching) in inflow.iter().enumerate() {
        assert!(hyd.discharge[k] <= reaching, "node {k} gains water");
        if b.lake_evaporation[k] == 0.0 && r.receiver[k] != NONE {
            assert_eq!(
                hyd.discharge[k], reaching,
                "node {k} loses water in wet air"
            );
        }
    }
    // Runoff is a share of the rain: all of it nowhere dry.
    let rain_m3: f64 = (0..mesh.len())
        .filter(|&k| !ocean[k])
        .map(|k| rain[k] * mesh.area[k])
        .sum();
    let runoff_m3 = hyd.runoff.iter().sum::<u64>() as f64;
    assert!(
        runoff_m3 < 0.9 * rain_m3 && runoff_m3 > 0.1 * rain_m3,
        "{runoff_m3} of {rain_m3}"
    );
    // Closed basins: some land drains inland, and each terminal lake's
    // surface evaporates what reaches it.
    let closed: Vec<_> = r.lakes.iter().filter(|l| l.endorheic).collect();
    assert!(!closed.is_empty(), "no closed basin on a half-dry planet");
    for lake in closed {
        let e = b.evaporates(&mesh, lake);
        assert!(
            e >= lake.inflow as f64,
            "closed lake evaporates {e} of {}",
            lake.inflow
        );
        assert!(
            lake.nodes
                .iter()
                .all(|&k| hyd.height[k as usize] < lake.level)
        );
    }
}

#[test]
fn a_dry_bowl_ends_in_a_terminal_lake_and_a_wet_one_spills() {
    let mesh = Mesh::new(SphereGraph::new(24, 3).unwrap(), 1e6);
    let (h, ocean) = bowl(&mesh);
    let bowl_area: f64 = (0..mesh.len())
        .filter(|&k| mesh.dirs[k][2] > 0.87)
        .map(|k| mesh.area[k])
        .sum();
    for (rain, temperature, closed) in [(1.0, 20.0, true), (2.0, 2.0, false)] {
        let p = vec![rain; mesh.len()];
        let t = vec![temperature; mesh.len()];
        let (hyd, b) = balanced(&mesh, &h, &ocean, &p, &t);
        let r = &hyd.routing;
        let lake = r
            .lakes
            .iter()
            .max_by(|a, b| a.area.total_cmp(&b.area))
            .expect("a lake in the bowl");
        assert_eq!(
            lake.endorheic, closed,
            "rain {rain} at {temperature} °C: {lake:?}"
        );
        let to_sea: u64 = (0..mesh.len())
            .filter(|&k| r.receiver[k] != NONE && ocean[r.receiver[k] as usize])
            .map(|k| hyd.discharge[k])
            .sum();
        if closed {
            // Filled to balance: smaller than the bowl, its evaporation
            // meets its inflow within one cell's worth.
            let e = b.evaporates(&mesh, lake);
            let cell =
                b.lake_evaporation[lake.nodes[0] as usize] * mesh.area[lake.nodes[0] as usize];
            assert!(lake.area < 0.5 * bowl_area, "{} of {bowl_area}", lake.area);
            assert!(lake.nodes.len() > 2, "a salt flat, not a lake: {lake:?}");
            assert!(
                e >= lake.inflow as f64 && e - cell <= lake.inflow as f64,
                "{e} against {}",
                lake.inflow
            );
        } else {
            // Wet: every drop reaches the sea, through the bowl's lake.
            assert_eq!(to_sea, hyd.runoff.iter().sum::<u64>());
            assert!(r.level[lake.outlet as usize] <= lake.level);
        }
    }
}

/// How the channel turns at each node of a main stem (where a segment is
/// the largest inflow of a node that drains on), degrees, for a planet of
/// `version` on the graph of `n`: the angle between the centreline
/// arriving at the node and the one leaving it; and the sinuosity of runs
/// of four main-stem segments.
fn stem_turns(version: Version, n: u32) -> (Vec<f64>, Vec<f64>) {
    let planet = Planet::new(PlanetParams {
        generator_version: version,
        graph_n: n,
        ..PlanetParams::default()
    })
    .unwrap();
    let tier = planet.coarse_tier().unwrap();
    let hydro = tier.hydro.as_ref().unwrap();
    let graph = SphereGraph::new(n, planet.params().seed).unwrap();
    let field = hydro.field(&graph, planet.params().radius, version.pipeline().channels);
    let segs = field.segments();
    let mut out_of = vec![None; graph.len()];
    let mut main_in: Vec<Option<usize>> = vec![None; graph.len()];
    for (i, s) in segs.iter().enumerate() {
        out_of[s.from as usize] = Some(i);
        let m = &mut main_in[s.to as usize];
        if m.is_none_or(|k| s.discharge > segs[k].discharge) {
            *m = Some(i);
        }
    }
    let heading = |p: [f64; 3], q: [f64; 3]| {
        let d = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
        let m = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        d.map(|x| x / m)
    };
    let eps = 1e-4;
    let turns = (0..graph.len())
        .filter_map(|k| Some((main_in[k]?, out_of[k]?)))
        .map(|(i, o)| {
            let (i, o) = (i as u32, o as u32);
            let arrive = heading(field.centre(i, 1.0 - eps), field.centre(i, 1.0));
            let leave = heading(field.centre(o, 0.0), field.centre(o, eps));
            let c: f64 = (0..3).map(|a| arrive[a] * leave[a]).sum();
            libm::acos(c.clamp(-1.0, 1.0)).to_degrees()
        })
        .collect();
    let dist = |p: [f64; 3], q: [f64; 3]| {
        let d = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
        (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
    };
    // Sinuosity of main stems: channel length over the straight distance
    // across runs of 4 segments that each are their node's largest inflow,
    // the length measured in steps of a lod-3 sample (about 12 m on Earth,
    // as a player's chunks would trace it).
    let step = planet.space().metres_per_sample(3) / planet.params().radius;
    let lengths: Vec<f64> = (0..segs.len() as u32)
        .map(|s| {
            let chord = dist(field.centre(s, 0.0), field.centre(s, 1.0));
            let n = (2.0 * chord / step).ceil().max(32.0) as u32;
            (0..n)
                .map(|j| {
                    let (p, q) = (
                        field.centre(s, f64::from(j) / f64::from(n)),
                        field.centre(s, f64::from(j + 1) / f64::from(n)),
                    );
                    dist(p, q)
                })
                .sum()
        })
        .collect();
    let sinuosity = (0..segs.len())
        .filter_map(|first| {
            let mut run = vec![first];
            while run.len() < 4 {
                let next = out_of[segs[*run.last()?].to as usize]?;
                (main_in[segs[next].from as usize] == Some(*run.last()?)).then_some(())?;
                run.push(next);
            }
            let (a, b) = (
                field.centre(first as u32, 0.0),
                field.centre(*run.last()? as u32, 1.0),
            );
            let straight = dist(a, b);
            Some(run.iter().map(|&s| lengths[s]).sum::<f64>() / straight)
        })
        .collect();
    (turns, sinuosity)
}

/// Issue 36: version 4's channels are chords with a hashed S-bend, so a
/// main stem kinks at every node (every 22 km on Earth) and is nearly
/// straight between; the next version's follow a spline through the nodes,
/// turn smoothly there, and meander between them as Earth's rivers do
/// (main-stem sinuosity 1.2–2.0).
#[test]
fn main_stems_turn_smoothly_at_nodes_and_meander_in_the_next_version() {
    let pct = |mut v: Vec<f64>, p: f64| {
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * p) as usize]
    };
    let (chords, chord_sinuosity) = stem_turns(Version::V4, 64);
    let (curves, curve_sinuosity) = stem_turns(Version::Next, 64);
    assert!(chords.len() > 100 && curves.len() > 100);
    assert!(chord_sinuosity.len() > 100 && curve_sinuosity.len() > 40);
    let (k50, m10, m50, m90) = (
        pct(chord_sinuosity, 0.5),
        pct(curve_sinuosity.clone(), 0.1),
        pct(curve_sinuosity.clone(), 0.5),
        pct(curve_sinuosity, 0.9),
    );
    println!(
        "main-stem sinuosity over 4 segments: chords median {k50:.3}; \
         curves 10 % {m10:.3}, median {m50:.3}, 90 % {m90:.3}"
    );
    let (c50, c90) = (pct(chords.clone(), 0.5), pct(chords, 0.9));
    let (s50, s90) = (pct(curves.clone(), 0.5), pct(curves, 0.9));
    println!(
        "turns at main-stem nodes: chords median {c50:.1}°, 90 % {c90:.1}°; curves {s50:.1}°, {s90:.1}°"
    );
    assert!(c50 > 20.0, "version 4 kinks at its nodes: median {c50:.1}°");
    assert!(
        s50 < 2.0 && s90 < 10.0,
        "next turns smoothly: median {s50:.1}°, 90 % {s90:.1}°"
    );
    assert!(k50 < 1.2, "version 4's stems are nearly straight: {k50:.3}");
    assert!(
        m10 >= 1.2 && m90 <= 2.0,
        "next's stems meander as Earth's do (1.2–2.0): 10 % {m10:.3}, 90 % {m90:.3}"
    );
}
