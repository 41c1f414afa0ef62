//! Spawning: every edge becomes exactly two paths that name each other,
//! destinations follow the layout, everything starts undiscovered, and the
//! layout never depends on the play stream.

use mangekyo_core::Seed;
use mangekyo_island::{example, generate_island};
use mangekyo_world::discovery::path_required_progresses;
use mangekyo_world::object::{Kind, prop, slot};
use mangekyo_world::play::PlayRng;
use mangekyo_world::spawn::edges_nearest_first;
use mangekyo_world::{Game, spawn_island};
use std::collections::BTreeSet;

#[test]
fn every_edge_becomes_two_paths_that_name_each_other() {
    let defs = example::definitions();
    for seed in 0..200 {
        let map = generate_island(&defs, "island", Seed::new(seed)).unwrap();
        let (world, island) = spawn_island(&defs, map.clone()).unwrap();
        assert_eq!(island.map(), &map);
        assert_eq!(world.slot(world.root(), slot::LOCATIONS), island.lands());
        assert_eq!(island.paths().len(), 2 * map.edges.len(), "seed {seed}");
        let mut seen = BTreeSet::new();
        for e in &map.edges {
            let (there, back) = (
                island.path(e.a, e.b).unwrap(),
                island.path(e.b, e.a).unwrap(),
            );
            assert!(
                seen.insert(there) && seen.insert(back),
                "seed {seed}: a path object is shared"
            );
            for (p, from, to) in [(there, e.a, e.b), (back, e.b, e.a)] {
                assert_eq!(world.get(p).unwrap().kind, Kind::Path);
                assert_eq!(
                    world.object_ref(p, prop::DESTINATION_ID).unwrap(),
                    island.land_of(to).unwrap()
                );
                assert_eq!(
                    world.number(p, prop::TRAVEL_MINUTES).unwrap(),
                    f64::from(e.travel_minutes)
                );
                assert_eq!(
                    world.parent(p),
                    Some((island.land_of(from).unwrap(), slot::UNDISCOVERED_FIXTURES))
                );
            }
            assert_eq!(world.object_ref(there, prop::RETURN_PATH_ID).unwrap(), back);
            assert_eq!(world.object_ref(back, prop::RETURN_PATH_ID).unwrap(), there);
        }
        for site in &map.sites {
            let land = island.land_of(site.id).unwrap();
            assert_eq!(island.site_of(land), Some(site.id));
            assert_eq!(island.name_of(land), Some(&site.name));
            assert!(
                world.slot(land, slot::FIXTURES).is_empty(),
                "everything starts undiscovered"
            );
            assert_eq!(world.number(land, prop::EXPLORATION).unwrap(), 0.0);
            // required_progress comes from the one shared function, nearest first.
            let (_, max) = world.range(land, prop::EXPLORATION).unwrap();
            let order: Vec<_> = edges_nearest_first(&map, site.id)
                .iter()
                .map(|e| if e.a == site.id { e.b } else { e.a })
                .collect();
            let want = path_required_progresses(order.len(), max);
            let got: Vec<f64> = order
                .iter()
                .map(|&o| {
                    world
                        .number(island.path(site.id, o).unwrap(), prop::REQUIRED_PROGRESS)
                        .unwrap()
                })
                .collect();
            assert_eq!(got, want);
            // Variant props are written.
            if let Some(v) = &site.name.variant {
                let ty = &defs.location_types()[&site.location_type];
                for (k, &val) in &ty.variants.iter().find(|x| &x.id == v).unwrap().props {
                    assert_eq!(world.number(land, k).unwrap(), val);
                }
            }
        }
    }
}

#[test]
fn the_layout_never_depends_on_the_play_stream() {
    let defs = example::definitions();
    // Over every seed, how many play streams started somewhere else than
    // the first: the start is drawn from the play stream, so it must vary
    // while the layout does not.
    let mut varied = 0;
    for seed in 0..50 {
        let map = generate_island(&defs, "island", Seed::new(seed)).unwrap();
        let mut starts = BTreeSet::new();
        for draws in [0, 1, 7, 1000] {
            let rng = PlayRng::new(Seed::new(seed ^ 0xdead_beef), draws);
            let mut game = Game::with_play_rng(&defs, "island", Seed::new(seed), rng).unwrap();
            for _ in 0..5 {
                let _ = game.act(game.here(), "explore");
            }
            assert_eq!(game.island().map(), &map, "seed {seed} draws {draws}");
            starts.insert(game.island().site_of(game.here()));
        }
        if starts.len() > 1 {
            varied += 1;
        }
    }
    assert!(
        varied >= 10,
        "the play stream chose more than one start on only {varied} of 50 seeds"
    );
}

#[test]
fn the_island_crate_does_not_depend_on_the_world_crate() {
    // The layering rule as a dependency-graph check: nothing reachable from
    // mangekyo-island through workspace dependencies is mangekyo-world.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let deps_of = |name: &str| -> Vec<String> {
        packages
            .iter()
            .find(|p| p["name"] == name)
            .map(|p| {
                p["dependencies"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|d| d["kind"].is_null())
                    .map(|d| d["name"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut stack = vec!["mangekyo-island".to_string()];
    let mut seen = BTreeSet::new();
    while let Some(p) = stack.pop() {
        assert_ne!(
            p, "mangekyo-world",
            "mangekyo-island reaches mangekyo-world: {seen:?}"
        );
        if seen.insert(p.clone()) {
            stack.extend(
                deps_of(&p)
                    .into_iter()
                    .filter(|d| d.starts_with("mangekyo")),
            );
        }
    }
    assert!(
        deps_of("mangekyo-world").contains(&"mangekyo-island".to_string()),
        "the check looks at real data"
    );
}
