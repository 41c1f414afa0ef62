//! Exploration and travel: exploring to 100% reveals every path of a place
//! and no other, one direction reveals the other, refusals change nothing,
//! and the statistics count what the game does.

use mangekyo_core::Seed;
use mangekyo_island::{example, generate_island};
use mangekyo_world::discovery::{explores_until, path_required_progresses};
use mangekyo_world::object::{prop, slot};
use mangekyo_world::{Game, Refusal};

#[test]
fn exploring_to_the_end_reveals_every_path_of_the_place_and_only_those() {
    let defs = example::definitions();
    for seed in 0..100 {
        let mut game = Game::new(&defs, "island", Seed::new(seed)).unwrap();
        let here = game.here();
        let site = game.island().site_of(here).unwrap();
        let before = game.world().clone();
        while game.act(game.here(), "explore").is_ok() {}
        let w = game.world();
        assert!(
            w.slot(here, slot::UNDISCOVERED_FIXTURES).is_empty(),
            "seed {seed}: all paths known at 100%"
        );
        // Its edges' paths and, at a harbour, its sea routes.
        let degree = game.island().map().edges_of(site).count();
        let routes = game
            .island()
            .sea_routes()
            .iter()
            .filter(|r| r.a == site || r.b == site)
            .count();
        assert_eq!(w.slot(here, slot::FIXTURES).len(), degree + routes);
        for &land in game.island().lands() {
            if land == here {
                continue;
            }
            let found = w.slot(land, slot::FIXTURES);
            // Elsewhere only the return paths of this place's paths appear.
            for &p in found {
                assert_eq!(
                    w.object_ref(p, prop::DESTINATION_ID).unwrap(),
                    here,
                    "seed {seed}"
                );
            }
            let hidden_before = before.slot(land, slot::UNDISCOVERED_FIXTURES).len();
            assert_eq!(
                found.len() + w.slot(land, slot::UNDISCOVERED_FIXTURES).len(),
                hidden_before
            );
        }
    }
}

#[test]
fn discovering_one_direction_reveals_the_other() {
    let defs = example::definitions();
    let mut game = Game::new(&defs, "island", Seed::new(3)).unwrap();
    let here = game.here();
    let found = game.act(game.here(), "explore").unwrap();
    assert!(
        !found.ran.revealed.is_empty(),
        "the first explore always finds a path"
    );
    for p in found.ran.revealed {
        let back = game.world().object_ref(p, prop::RETURN_PATH_ID).unwrap();
        let dest = game.world().object_ref(p, prop::DESTINATION_ID).unwrap();
        assert_eq!(game.world().parent(back), Some((dest, slot::FIXTURES)));
        assert_eq!(
            game.world().object_ref(back, prop::DESTINATION_ID).unwrap(),
            here
        );
    }
}

#[test]
fn refused_actions_change_nothing() {
    let defs = example::definitions();
    let mut game = Game::new(&defs, "island", Seed::new(9)).unwrap();
    let here = game.here();
    let hidden = game.world().slot(here, slot::UNDISCOVERED_FIXTURES)[0];
    let before = game.world().clone();
    assert_eq!(game.act(hidden, "travel"), Err(Refusal::OutOfReach));
    let elsewhere = game
        .island()
        .lands()
        .iter()
        .copied()
        .find(|&l| l != here)
        .unwrap();
    let far_path = game.world().slot(elsewhere, slot::UNDISCOVERED_FIXTURES)[0];
    assert_eq!(game.act(far_path, "travel"), Err(Refusal::OutOfReach));
    assert_eq!(game.world(), &before);
    while game.act(game.here(), "explore").is_ok() {}
    let full = game.world().clone();
    let draws = game.rng().draws();
    assert!(matches!(
        game.act(game.here(), "explore"),
        Err(Refusal::Unmet(_))
    ));
    assert_eq!(game.world(), &full);
    assert_eq!(game.rng().draws(), draws);
}

#[test]
fn travel_follows_a_discovered_path_and_takes_its_minutes() {
    let defs = example::definitions();
    let mut game = Game::new(&defs, "island", Seed::new(5)).unwrap();
    game.act(game.here(), "explore").unwrap();
    let path = game.discovered_paths(game.here())[0];
    let clock = game.world().clock_minutes();
    let t = game.act(path.path, "travel").unwrap();
    assert_eq!(game.here(), path.destination);
    assert_eq!(t.ran.minutes, path.minutes);
    assert!(t.first_visit);
    assert_eq!(
        game.world().clock_minutes(),
        clock + u64::from(path.minutes)
    );
    assert_eq!(
        game.world().slot(path.destination, slot::CHARACTERS),
        [game.player()]
    );
}

#[test]
fn statistics_count_exactly_the_explores_the_game_needs() {
    // Stats and game share path_required_progresses: play every start site
    // until every path is known and compare with the stats' count.
    let defs = example::definitions();
    let scope = &defs.scopes()["island"];
    for seed in 0..60 {
        let map = generate_island(&defs, "island", Seed::new(seed)).unwrap();
        let mut game = Game::new(&defs, "island", Seed::new(seed)).unwrap();
        let here = game.here();
        let mut explores = 0;
        while game.hidden_path_count(here) > 0 {
            game.act(game.here(), "explore").unwrap();
            explores += 1;
        }
        let (_, max) = game.progress(here);
        let n = map.edges_of(game.island().site_of(here).unwrap()).count();
        let last = *path_required_progresses(n, max).last().unwrap();
        assert_eq!(
            explores,
            explores_until(0.0, last, scope.explore.progress, max),
            "seed {seed}"
        );
    }
}

#[test]
fn the_shipped_game_is_neither_won_nor_lost_by_default() {
    // The designer's tuning target for the example world: the scope's bot
    // wins between 30 % and 80 % of games (`island stats --bot`).
    let defs = example::definitions();
    let mut stats = mangekyo_world::bot::BotStats::default();
    for seed in 0..200 {
        stats.add(mangekyo_world::bot::play_one(&defs, "island", Seed::new(seed)).unwrap());
    }
    let rate = stats.win_rate();
    assert!((0.3..=0.8).contains(&rate), "{}", stats.render());
    assert!(stats.lost > 0 && stats.won > 0);
}
