//! What a player's screen shows besides the text: the clock, where the
//! explorer is, the explorer's own numbers, the discovered paths and the
//! actions open now. Plain data for a graphical client (the viewer's play
//! panel); the engine still names no interaction or property: every
//! number and action comes from the definitions.

use super::Session;
use serde::Serialize;
use std::collections::BTreeMap;

/// The state of a game as a client draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Status {
    /// The clock, localised ("Day 1, 08:00").
    pub time: String,
    /// Minutes since the game started.
    pub clock_minutes: u64,
    /// Where the explorer is.
    pub here: Place,
    /// The explorer's number properties by name (from its object def).
    pub agent: BTreeMap<String, f64>,
    /// The discovered paths from here, numbered as the text numbers them.
    pub paths: Vec<PathStatus>,
    /// Paths from here not yet discovered.
    pub hidden_paths: usize,
    /// Interactions whose requirements hold now on the explorer or the
    /// place (command: the name alone).
    pub actions: Vec<String>,
    /// `[fully explored, all]` locations.
    pub explored: [usize; 2],
    /// Every site the explorer has been to (ids of the island map).
    pub visited_sites: Vec<u32>,
    /// The ending's text once the game is over.
    pub ended: Option<String>,
}

/// A location as the player sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Place {
    /// Its site id on the island map.
    pub site: u32,
    /// Its localised name.
    pub name: String,
    /// How far it is explored, in whole percent.
    pub explored_pct: u32,
}

/// A discovered path.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PathStatus {
    /// Its number in the text (`travel 2`).
    pub n: usize,
    /// The site it leads to.
    pub site: u32,
    /// That site's localised name.
    pub name: String,
    /// Its `travel_minutes`.
    pub minutes: u32,
    /// Whether it is a sea route.
    pub sea: bool,
    /// Whether the explorer has been there.
    pub visited: bool,
    /// Interactions possible on the path now (command: `name n`).
    pub actions: Vec<String>,
}

impl Session {
    /// The state of the game as a client draws it.
    pub fn status(&self) -> Status {
        let game = &self.game;
        let here = game.here();
        let island = game.island();
        let possible = game.possible_actions();
        let on = |obj| {
            let mut names: Vec<String> = possible
                .iter()
                .filter(|(o, _)| *o == obj)
                .map(|(_, n)| n.clone())
                .collect();
            names.dedup();
            names
        };
        let mut actions = on(game.player());
        actions.extend(on(here));
        actions.sort();
        actions.dedup();
        let paths = game
            .discovered_paths(here)
            .iter()
            .enumerate()
            .map(|(i, p)| PathStatus {
                n: i + 1,
                site: island.site_of(p.destination).unwrap_or(0),
                name: self.name(p.destination),
                minutes: p.minutes,
                sea: p.sea,
                visited: game.visited().contains(&p.destination),
                actions: on(p.path),
            })
            .collect();
        let agent = game
            .world()
            .get(game.player())
            .map(|o| o.props.iter().map(|(k, n)| (k.clone(), n.value)).collect())
            .unwrap_or_default();
        let (full, all) = game.explored_count();
        let mut visited_sites: Vec<u32> = game
            .visited()
            .iter()
            .filter_map(|&l| island.site_of(l))
            .collect();
        visited_sites.sort_unstable();
        Status {
            time: self.time(),
            clock_minutes: game.world().clock_minutes(),
            here: Place {
                site: island.site_of(here).unwrap_or(0),
                name: self.name(here),
                explored_pct: self.pct(here).parse().unwrap_or(0),
            },
            agent,
            paths,
            hidden_paths: game.hidden_path_count(here),
            actions,
            explored: [full, all],
            visited_sites,
            ended: game
                .ending()
                .map(|e| super::text::fill(self.tr(&e.text), &[("time", &self.time())])),
        }
    }
}
