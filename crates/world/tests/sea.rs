//! Sea routes in the world: every route becomes two paths of the sea
//! routes' def that name each other, found by the first search of either
//! harbour; sailing moves the explorer between the two harbours and takes
//! the declared duration; the boat stays at the other end, and a harbour
//! without boats sends none; saves keep all of it.

use mangekyo_core::Seed;
use mangekyo_island::{example, generate_island, sea_routes};
use mangekyo_world::interaction::{Context, minutes_for};
use mangekyo_world::object::{Kind, prop, slot};
use mangekyo_world::{Game, Refusal, spawn_island};
use std::collections::BTreeSet;

/// The example's names, which the engine may not know but its tests may.
const HARBOUR: &str = "harbor";
const SAIL: &str = "sail";
const BOATS: &str = "boats";

#[test]
fn every_route_becomes_two_sea_paths_that_name_each_other() {
    let defs = example::definitions();
    let sea = defs.scopes()["island"].sea_routes.clone().unwrap();
    let mut harbours_with_boats = 0;
    for seed in 0..200 {
        let map = generate_island(&defs, "island", Seed::new(seed)).unwrap();
        let routes = sea_routes(&defs, &map).unwrap();
        let (world, island) = spawn_island(&defs, map.clone()).unwrap();
        assert_eq!(island.sea_routes(), routes.as_slice());
        assert_eq!(island.sea_paths().len(), 2 * routes.len(), "seed {seed}");
        // Land paths keep their ids: every sea path comes after them.
        let last_land = island.paths().values().max().copied();
        assert!(island.sea_paths().values().all(|&p| Some(p) > last_land));
        let mut seen = BTreeSet::new();
        for r in &routes {
            let (there, back) = (
                island.sea_path(r.a, r.b).unwrap(),
                island.sea_path(r.b, r.a).unwrap(),
            );
            assert!(seen.insert(there) && seen.insert(back), "seed {seed}");
            for (p, from, to) in [(there, r.a, r.b), (back, r.b, r.a)] {
                let o = world.get(p).unwrap();
                assert_eq!((o.kind, o.def.as_str()), (Kind::Path, sea.path.as_str()));
                assert!(island.is_sea_path(p));
                assert_eq!(
                    world.object_ref(p, prop::DESTINATION_ID).unwrap(),
                    island.land_of(to).unwrap()
                );
                assert_eq!(
                    world.number(p, prop::TRAVEL_MINUTES).unwrap(),
                    f64::from(r.travel_minutes)
                );
                assert_eq!(world.number(p, prop::REQUIRED_PROGRESS).unwrap(), 0.0);
                assert_eq!(
                    world.parent(p),
                    Some((island.land_of(from).unwrap(), slot::UNDISCOVERED_FIXTURES))
                );
            }
            assert_eq!(world.object_ref(there, prop::RETURN_PATH_ID).unwrap(), back);
            assert_eq!(world.object_ref(back, prop::RETURN_PATH_ID).unwrap(), there);
        }
        // Every harbour with boats has a route once there are two harbours
        // (a lone harbour is named by its type and has no variant's boats).
        let harbours: Vec<u32> = map
            .sites
            .iter()
            .filter(|s| s.location_type == HARBOUR)
            .map(|s| s.id)
            .collect();
        for &h in &harbours {
            let land = island.land_of(h).unwrap();
            if world.number(land, BOATS).unwrap() >= 1.0 {
                harbours_with_boats += 1;
                assert!(harbours.len() >= 2, "seed {seed}: boats at a lone harbour");
                assert!(
                    routes.iter().any(|r| r.a == h || r.b == h),
                    "seed {seed}: harbour {h} has boats and no route"
                );
            }
        }
    }
    assert!(harbours_with_boats > 100, "{harbours_with_boats}");
}

/// A game on an island with sea routes, started on a harbour with one,
/// after the first search there.
fn at_a_harbour_with_a_route() -> (Game, u64) {
    let defs = example::definitions();
    for seed in 0..100 {
        let mut game = Game::new(&defs, "island", Seed::new(seed)).unwrap();
        let site = game.island().site_of(game.here()).unwrap();
        if !game
            .island()
            .sea_routes()
            .iter()
            .any(|r| r.a == site || r.b == site)
        {
            continue;
        }
        game.act(game.here(), "explore").unwrap();
        return (game, seed);
    }
    panic!("no start harbour with a sea route in 100 seeds");
}

#[test]
fn the_first_search_of_a_harbour_finds_its_routes_both_ways() {
    let (game, seed) = at_a_harbour_with_a_route();
    let here = game.here();
    let site = game.island().site_of(here).unwrap();
    let sea: Vec<_> = game
        .discovered_paths(here)
        .into_iter()
        .filter(|p| p.sea)
        .collect();
    let routes = game
        .island()
        .sea_routes()
        .iter()
        .filter(|r| r.a == site || r.b == site)
        .count();
    assert_eq!(sea.len(), routes, "seed {seed}");
    for p in sea {
        let back = game
            .world()
            .object_ref(p.path, prop::RETURN_PATH_ID)
            .unwrap();
        assert_eq!(
            game.world().parent(back),
            Some((p.destination, slot::FIXTURES))
        );
    }
}

#[test]
fn sailing_moves_between_the_harbours_and_takes_the_declared_duration() {
    let (mut game, seed) = at_a_harbour_with_a_route();
    let from = game.here();
    let route = game
        .discovered_paths(from)
        .into_iter()
        .find(|p| p.sea)
        .unwrap();
    // The duration as the definitions declare it, evaluated before.
    let def = game.interactions_of(route.path).unwrap()[SAIL].clone();
    let ctx = Context {
        this: route.path,
        agent: game.player(),
        it: None,
    };
    let declared = minutes_for(&def, game.world(), &ctx).unwrap();
    assert_eq!(
        declared, route.minutes,
        "the example sails in travel_minutes"
    );
    let boats = |g: &Game, land| g.world().number(land, BOATS).unwrap();
    let (here_before, there_before) = (boats(&game, from), boats(&game, route.destination));
    let clock = game.world().clock_minutes();
    assert!(
        game.possible_actions()
            .contains(&(route.path, SAIL.to_string())),
        "seed {seed}: sailing is open"
    );
    let done = game.act(route.path, SAIL).unwrap();
    assert_eq!(game.here(), route.destination);
    assert_eq!(done.from, from);
    assert_eq!(done.ran.minutes, declared);
    assert_eq!(game.world().clock_minutes(), clock + u64::from(declared));
    assert!(done.first_visit);
    let dest_site = game.island().site_of(route.destination).unwrap();
    assert_eq!(
        game.island().map().sites[dest_site as usize].location_type,
        HARBOUR
    );
    // The boat stays at the other harbour.
    assert_eq!(boats(&game, from), here_before - 1.0);
    assert_eq!(
        boats(&game, route.destination),
        (there_before + 1.0).min(game.world().range(route.destination, BOATS).unwrap().1)
    );
    // Walking paths cannot be sailed, sea routes cannot be walked.
    let back = game
        .discovered_paths(game.here())
        .into_iter()
        .find(|p| p.sea && p.destination == from)
        .unwrap();
    assert_eq!(
        game.act(back.path, "travel"),
        Err(Refusal::NoSuchInteraction)
    );
    if let Some(walk) = game
        .discovered_paths(game.here())
        .into_iter()
        .find(|p| !p.sea)
    {
        assert_eq!(game.act(walk.path, SAIL), Err(Refusal::NoSuchInteraction));
    }
}

#[test]
fn a_harbour_whose_boats_have_all_sailed_sends_none() {
    let (game, _) = at_a_harbour_with_a_route();
    let here = game.here();
    let route = game
        .discovered_paths(here)
        .into_iter()
        .find(|p| p.sea)
        .unwrap();
    // Every boat away: a state play reaches (sail out, walk back), made
    // here by editing the save, which loading accepts since sailing
    // changes `boats`.
    let mut save: serde_json::Value = serde_json::from_str(&game.save()).unwrap();
    save["world"]["objects"][here.0 as usize]["props"][BOATS]["value"] = 0.into();
    let defs = example::definitions();
    let mut emptied = Game::load(&defs, &save.to_string()).unwrap();
    let before = emptied.world().clone();
    assert!(
        !emptied
            .possible_actions()
            .contains(&(route.path, SAIL.to_string()))
    );
    match emptied.act(route.path, SAIL) {
        Err(Refusal::Unmet(texts)) => assert!(texts["en"].contains("away"), "{texts:?}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(emptied.world(), &before, "a refusal changes nothing");
}

#[test]
fn the_bot_sails_on_some_islands() {
    let defs = example::definitions();
    let mut sailed = 0;
    for seed in 0..60 {
        let g = mangekyo_world::bot::play_one(&defs, "island", Seed::new(seed)).unwrap();
        sailed += usize::from(g.uses.get(SAIL).is_some_and(|&n| n > 0));
    }
    assert!(sailed >= 10, "the bot sailed in {sailed} of 60 games");
}

#[test]
fn the_bot_takes_the_quicker_of_a_walk_and_a_sail_to_one_place() {
    // Neighbouring harbours: a trail and a sea route lead to the same
    // place, and the bot considers only the quicker (both when equal).
    let defs = example::definitions();
    let mut checked = 0;
    for seed in 0..300 {
        let mut game = Game::new(&defs, "island", Seed::new(seed)).unwrap();
        while game.act(game.here(), "explore").is_ok() {}
        let paths = game.discovered_paths(game.here());
        let options = game.possible_actions();
        let kept = mangekyo_world::bot::quickest_ways(&game, options.clone());
        for sea in paths.iter().filter(|p| p.sea) {
            let Some(walk) = paths
                .iter()
                .find(|p| !p.sea && p.destination == sea.destination)
            else {
                continue;
            };
            let open = |o| options.iter().any(|(x, _)| *x == o);
            if !open(sea.path) || !open(walk.path) {
                continue;
            }
            checked += 1;
            let has = |o| kept.iter().any(|(x, _)| *x == o);
            assert_eq!(has(sea.path), sea.minutes <= walk.minutes, "seed {seed}");
            assert_eq!(has(walk.path), walk.minutes <= sea.minutes, "seed {seed}");
        }
        // Everything else passes as it was.
        assert!(
            options
                .iter()
                .filter(|(o, _)| !paths.iter().any(|p| p.path == *o))
                .all(|a| kept.contains(a)),
            "seed {seed}"
        );
    }
    assert!(
        checked > 0,
        "no start harbour with a trail and a route to one place"
    );
}
