//! Issue 36, where the next version's rivers run: they meet their lakes
//! without a gap (along every river that ends in a lake, its last segment,
//! and every lake's outlet river, from the lake's water to the end of its
//! first segment, the channel's centreline is wet at every sample), and
//! the rivers GeoJSON draws them along their valley floors (each link
//! follows its segments' curves, where the ground lies at the water
//! level or in the channel).

use mangekyo_planet::geo::{Dir, angle_between};
use mangekyo_planet::graph::SphereGraph;
use mangekyo_planet::hydro::routing::NONE;
use mangekyo_planet::{LatLon, Layers, Planet, PlanetParams, Version};

/// The longest dry stretch (metres) along `path`, sampled at lod 0.
fn longest_dry(planet: &Planet, path: &[Dir]) -> f64 {
    let layers = Layers {
        water: true,
        ..Layers::NONE
    };
    let spacing = planet.space().metres_per_sample(0);
    let water = planet.sample_dirs(path, spacing, layers).unwrap().water;
    let radius = planet.params().radius;
    let (mut run, mut worst) = (0.0f64, 0.0f64);
    for i in 0..path.len() {
        if water[i] > 0.0 {
            run = 0.0;
        } else if i > 0 {
            run += angle_between(path[i - 1], path[i]) * radius;
            worst = worst.max(run);
        }
    }
    worst
}

/// Inlet and outlet gaps (metres) of the lakes of a next planet of `seed`
/// on the graph of `n`, and how many lakes they belong to.
fn gaps(seed: u64, n: u32) -> (Vec<f64>, Vec<f64>, usize) {
    let planet = Planet::new(PlanetParams {
        generator_version: Version::Next,
        graph_n: n,
        seed,
        ..PlanetParams::default()
    })
    .unwrap();
    let tier = planet.coarse_tier().unwrap();
    let hydro = tier.hydro.as_ref().unwrap();
    let graph = SphereGraph::new(n, seed).unwrap();
    let field = hydro.field(
        &graph,
        planet.params().radius,
        planet.version().pipeline().channels,
    );
    let segs = field.segments();
    let steps = 400;
    let trace = |s: usize| -> Vec<Dir> {
        (0..=steps)
            .map(|j| field.centre(s as u32, f64::from(j) / f64::from(steps)))
            .collect()
    };
    let mut lakes = std::collections::BTreeSet::new();
    let inlets = (0..segs.len())
        .filter(|&s| segs[s].mouth == 2)
        .map(|s| {
            lakes.insert(hydro.lake[segs[s].to as usize]);
            longest_dry(&planet, &trace(s))
        })
        .collect();
    // An outlet river: from the lake's water (its node that spills to the
    // outlet) through the first segment out of the outlet.
    let outlets = hydro
        .lakes
        .iter()
        .enumerate()
        .filter(|(_, l)| l.outlet != NONE)
        .filter_map(|(id, l)| {
            let first = segs.iter().position(|s| s.from == l.outlet)?;
            // The connecting channel, where the version has one, is the
            // path from the lake's node; without one, the straight line
            // from the lake's node beside the outlet whose ground lies
            // lowest.
            let join = segs
                .iter()
                .position(|s| s.to == l.outlet && hydro.lake[s.from as usize] == id as u32);
            let mut path: Vec<Dir> = match join {
                Some(join) => trace(join),
                None => {
                    let spill = graph
                        .neighbours(l.outlet)
                        .iter()
                        .copied()
                        .filter(|&k| hydro.lake[k as usize] == id as u32)
                        .min_by(|&a, &b| {
                            hydro.eroded[a as usize]
                                .total_cmp(&hydro.eroded[b as usize])
                                .then(a.cmp(&b))
                        })?;
                    let (a, b) = (graph.node(spill), graph.node(l.outlet));
                    (0..steps)
                        .map(|j| {
                            let t = f64::from(j) / f64::from(steps);
                            let p = [0, 1, 2].map(|i| a[i] + t * (b[i] - a[i]));
                            let m = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                            p.map(|x| x / m)
                        })
                        .collect()
                }
            };
            path.extend(trace(first));
            lakes.insert(id as u32);
            Some(longest_dry(&planet, &path))
        })
        .collect();
    (inlets, outlets, lakes.len())
}

#[test]
fn rivers_run_into_and_out_of_lakes_without_a_gap() {
    let (mut inlets, mut outlets, mut lakes) = (Vec::new(), Vec::new(), 0);
    for seed in 1..=4 {
        let (i, o, l) = gaps(seed, 96);
        inlets.extend(i);
        outlets.extend(o);
        lakes += l;
    }
    let over = |v: &[f64], m: f64| v.iter().filter(|&&g| g > m).count();
    let worst = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    println!(
        "{lakes} lakes, {} inlets: {} dry over 0 m, {} over 2 km, worst {:.0} m; {} outlets: {} dry over 0 m, {} over 2 km, worst {:.0} m",
        inlets.len(),
        over(&inlets, 0.0),
        over(&inlets, 2000.0),
        worst(&inlets),
        outlets.len(),
        over(&outlets, 0.0),
        over(&outlets, 2000.0),
        worst(&outlets),
    );
    assert!(lakes >= 40, "{lakes} lakes are too few to judge");
    assert_eq!(over(&inlets, 0.0), 0, "an inlet runs dry before its lake");
    assert_eq!(
        over(&outlets, 0.0),
        0,
        "an outlet starts away from its lake"
    );
}

/// The rivers GeoJSON of a next planet follows its channels' courses
/// (their curves, or their meanders where they swing wide, so big rivers'
/// lines lie on their water), and a client drawing it over the terrain
/// sees each line on the valley floor:
/// the ground at every link point away from the nodes is the floodplain at
/// its segment's water level, or the channel below it.
#[test]
fn the_rivers_geojson_runs_along_the_valley_floors() {
    let n = 96;
    let planet = Planet::new(PlanetParams {
        generator_version: Version::Next,
        graph_n: n,
        seed: 3,
        ..PlanetParams::default()
    })
    .unwrap();
    let tier = planet.coarse_tier().unwrap();
    let hydro = tier.hydro.as_ref().unwrap();
    let graph = SphereGraph::new(n, 3).unwrap();
    let field = hydro.field(
        &graph,
        planet.params().radius,
        planet.version().pipeline().channels,
    );
    let segs = field.segments();
    let doc = mangekyo_planet::hydro::geojson::rivers_geojson(&planet, None).unwrap();
    let lines: Vec<&Vec<serde_json::Value>> = doc["features"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["properties"]["kind"] == "river")
        .map(|f| f["geometry"]["coordinates"].as_array().unwrap())
        .collect();
    // Links are runs of segments with one id, in order: each segment's
    // course (its curve, or its meanders where they swing wide) and the
    // last node.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, s) in segs.iter().enumerate() {
        match runs.last_mut() {
            Some((_, end)) if segs[*end - 1].link == s.link => *end = i + 1,
            _ => runs.push((i, i + 1)),
        }
    }
    assert_eq!(lines.len(), runs.len());
    let (mut dirs, mut levels) = (Vec::new(), Vec::new());
    let mut meandering = 0;
    for (line, &(start, end)) in lines.iter().zip(&runs) {
        let mut k = 0;
        for s in start..end {
            let course = field.course(s as u32, 8);
            if course.len() > 8 {
                meandering += 1;
            }
            for (c, want) in course.iter().enumerate() {
                let on = LatLon::from_dir(*want);
                let p = &line[k];
                let (lon, lat) = (p[0].as_f64().unwrap(), p[1].as_f64().unwrap());
                assert!(
                    (lon - on.lon).abs() < 2e-6 && (lat - on.lat).abs() < 2e-6,
                    "link point {k} of segment {s}: ({lon}, {lat}) is not on its course {on:?}"
                );
                let t = c as f64 / course.len() as f64;
                if (0.25..=0.75).contains(&t) {
                    dirs.push(*want);
                    levels.push(field.level(s as u32, t));
                }
                k += 1;
            }
        }
        assert_eq!(line.len(), k + 1, "a link's line ends at its last node");
    }
    assert!(
        meandering > 10,
        "{meandering} segments drawn along their meanders"
    );
    let layers = Layers {
        height: true,
        water: true,
        ..Layers::NONE
    };
    let spacing = planet.space().metres_per_sample(0);
    let got = planet.sample_dirs(&dirs, spacing, layers).unwrap();
    let on_floor = (0..dirs.len())
        .filter(|&i| {
            let (h, w) = (f64::from(got.height[i]), f64::from(got.water[i]));
            let z = levels[i];
            (h - z).abs() < 0.01 || (w > 0.0 && h < z && (h + w - z).abs() < 0.01)
        })
        .count();
    let share = on_floor as f64 / dirs.len() as f64;
    println!(
        "{} link points away from nodes, {:.1} % on their valley floor",
        dirs.len(),
        100.0 * share
    );
    assert!(dirs.len() > 1000 && share > 0.95, "{share}");
}
