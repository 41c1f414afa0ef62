//! Issue 35's water pictures for seed 42, coloured by biome (water is
//! fresh-water blue) and hill-shaded: the next version's largest terminal
//! lake (a closed basin's, filled to balance) and its largest lake that
//! spills, each at the spacing of lod 0 (around its middle), 3 and 6
//! (on its shore; 256² samples 6,144 m, 768 m and 96 m apart), and a big
//! river's valley at the same three spacings, and the creeks and rills of
//! a steep mountain cell at 96 m and 24 m. Version 4
//! has no counterpart to show: its continents lie elsewhere (noise hash 1).
//! This is an edge (it writes files); the planet is pure.
//!
//! `cargo run -p mangekyo-planet --release --example water_pictures [out_dir]`

use mangekyo_planet::graph::SphereGraph;
use mangekyo_planet::{Planet, PlanetParams, Version};

mod common;
use common::out_dir;
#[path = "common/ground.rs"]
mod ground;
use ground::write_ground;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = out_dir()?;
    let next = Planet::new(PlanetParams {
        generator_version: Version::Next,
        ..PlanetParams::default()
    })?;
    let tier = next.coarse_tier()?;
    let hydro = tier.hydro.as_ref().ok_or("the next version has water")?;
    let graph = SphereGraph::new(tier.n, next.params().seed)?;
    for (name, closed) in [("terminal", true), ("spilling", false)] {
        let Some(id) = (0..hydro.lakes.len())
            .filter(|&l| hydro.lakes[l].endorheic == closed)
            .max_by(|&a, &b| hydro.lakes[a].area_km2.total_cmp(&hydro.lakes[b].area_km2))
        else {
            continue;
        };
        let lake = hydro.lakes[id];
        // The lake's middle: the mean of its nodes' directions.
        let mut c = [0.0f64; 3];
        for k in (0..hydro.lake.len()).filter(|&k| hydro.lake[k] as usize == id) {
            let d = graph.node(k as u32);
            (0..3).for_each(|i| c[i] += d[i]);
        }
        let centre = ground::unit(c);
        // Its shore nearest the middle: halfway from a lake node to a
        // neighbour outside the lake.
        let dot = |d: [f64; 3]| d[0] * centre[0] + d[1] * centre[1] + d[2] * centre[2];
        let shore = (0..hydro.lake.len() as u32)
            .filter(|&k| hydro.lake[k as usize] as usize == id)
            .flat_map(|k| {
                graph
                    .neighbours(k)
                    .into_iter()
                    .filter(|&m| hydro.lake[m as usize] as usize != id)
                    .map(move |m| (k, m))
            })
            .map(|(k, m)| {
                let (a, b) = (graph.node(k), graph.node(m));
                ground::unit([0, 1, 2].map(|i| a[i] + b[i]))
            })
            .max_by(|&a, &b| dot(a).total_cmp(&dot(b)))
            .unwrap_or(centre);
        println!(
            "{name} lake: {:.0} km², surface {:.0} m, inflow {:.0} m³/s",
            lake.area_km2, lake.level, lake.inflow
        );
        // A spilling lake's outlet: halfway from the outlet to the lake's
        // node beside it that the outlet's river starts from (issue 36:
        // the river leaves the lake's water, not a cell away from it).
        let outlet = (lake.outlet != u32::MAX)
            .then(|| {
                let join = hydro
                    .segments
                    .iter()
                    .find(|s| s.to == lake.outlet && hydro.lake[s.from as usize] as usize == id)?;
                let (a, b) = (graph.node(join.from), graph.node(join.to));
                Some(ground::unit([0, 1, 2].map(|i| a[i] + b[i])))
            })
            .flatten();
        for (lod, spacing) in [(0, 6144.0), (3, 768.0), (6, 96.0)] {
            let at = if lod == 0 {
                centre
            } else {
                outlet.unwrap_or(shore)
            };
            write_ground(
                &next,
                at,
                spacing,
                true,
                &out.join(format!("water_next_{name}_lake_lod{lod}.png")),
            )?;
        }
    }
    // A river valley: the middle of the 40th largest river segment on
    // land (a big river, not a delta), where the channel bends between
    // two nodes (issue 36: the next version's channels turn smoothly).
    let field = hydro.field(
        &graph,
        next.params().radius,
        Version::Next.pipeline().channels,
    );
    let segments = field.segments();
    let mut inland: Vec<usize> = (0..segments.len())
        .filter(|&i| segments[i].mouth == 0)
        .collect();
    inland.sort_by(|&a, &b| segments[b].discharge.total_cmp(&segments[a].discharge));
    if let Some(&river) = inland.get(40) {
        let s = &segments[river];
        println!("river: {:.0} m³/s, {:.0} m wide", s.discharge, s.width);
        let at = field.centre(river as u32, 0.5);
        for (lod, spacing) in [(0, 6144.0), (3, 768.0), (6, 96.0)] {
            write_ground(
                &next,
                at,
                spacing,
                true,
                &out.join(format!("water_next_river_lod{lod}.png")),
            )?;
        }
    }
    // A median river where a player stands: its meanders at 96 m and
    // 12 m per sample, the floodplain between the loops.
    if let Some(&river) = inland.get(inland.len() / 2) {
        let s = &segments[river];
        println!("stream: {:.0} m³/s, {:.0} m wide", s.discharge, s.width);
        let at = field.centre(river as u32, 0.5);
        for (lod, spacing) in [(6, 96.0), (9, 12.0)] {
            write_ground(
                &next,
                at,
                spacing,
                true,
                &out.join(format!("water_next_stream_lod{lod}.png")),
            )?;
        }
    }
    // Creeks and rills below the rivers (issue 36): the steepest land
    // cell between 1,500 and 3,000 m within 40° of the equator (the
    // largest drop to its receiver), at 96 m and 24 m per sample.
    let steepest = (0..hydro.eroded.len() as u32)
        .filter(|&k| {
            let (h, r) = (hydro.eroded[k as usize], hydro.receiver[k as usize]);
            (1500.0..3000.0).contains(&h)
                && r != u32::MAX
                && hydro.lake[k as usize] == u32::MAX
                && graph.node(k)[2].abs() < 0.64
        })
        .max_by(|&a, &b| {
            let drop = |k: u32| {
                hydro.eroded[k as usize] - hydro.eroded[hydro.receiver[k as usize] as usize]
            };
            drop(a).total_cmp(&drop(b)).then(b.cmp(&a))
        });
    if let Some(k) = steepest {
        println!("streams: cell {k} at {:.0} m", hydro.eroded[k as usize]);
        for (tag, spacing) in [("96m", 96.0), ("24m", 24.0)] {
            write_ground(
                &next,
                graph.node(k),
                spacing,
                true,
                &out.join(format!("water_next_streams_{tag}.png")),
            )?;
        }
    }
    Ok(())
}
