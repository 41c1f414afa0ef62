//! A simple bot for designers: it plays many islands with the weights the
//! scope's `bot` section gives and reports how often it wins and how long
//! games last, so definitions can be tuned by numbers. It knows no
//! interaction by name: weights come from the definitions.

use crate::object::ObjectId;
use crate::play::{Game, PlayError};
use mangekyo_core::{Pcg32, Seed};
use mangekyo_defs::interact::{BotDef, Outcome};
use mangekyo_island::Definitions;
use std::collections::BTreeMap;

/// The bot's own stream, so its choices never move the game's `play` draws.
pub const BOT_PURPOSE: &str = "bot";

/// Weights when a scope has no `bot` section: every action alike.
fn default_bot() -> BotDef {
    BotDef {
        weights: Default::default(),
        unvisited_bonus: 1.0,
        max_actions: 2000,
    }
}

/// One game's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotGame {
    /// How it ended (`None`: out of actions or nothing possible).
    pub outcome: Option<Outcome>,
    /// Actions taken.
    pub actions: u32,
    /// Minutes on the clock at the end.
    pub minutes: u64,
    /// Actions taken per interaction name.
    pub uses: BTreeMap<String, u32>,
}

/// Plays one seed to its end.
pub fn play_one(defs: &Definitions, scope: &str, seed: Seed) -> Result<BotGame, PlayError> {
    let mut game = Game::new(defs, scope, seed)?;
    let bot = game.scope().bot.clone().unwrap_or_else(default_bot);
    let mut rng = Pcg32::for_purpose(seed, BOT_PURPOSE);
    let mut actions = 0;
    let mut uses = BTreeMap::new();
    while game.ending().is_none() && actions < bot.max_actions {
        let options = quickest_ways(&game, game.possible_actions());
        let weights: Vec<f64> = options
            .iter()
            .map(|(o, name)| {
                let w = bot.weights.get(name).copied().unwrap_or(1.0);
                let towards_new = game
                    .discovered_paths(game.here())
                    .iter()
                    .any(|p| p.path == *o && !game.visited().contains(&p.destination));
                if towards_new {
                    w * bot.unvisited_bonus
                } else {
                    w
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            break;
        }
        // A uniform draw in [0, total) from 32 random bits.
        let mut x = f64::from(rng.next_u32()) / 4_294_967_296.0 * total;
        let mut pick = options.len() - 1;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                pick = i;
                break;
            }
            x -= w;
        }
        let (o, name) = &options[pick];
        if game.act(*o, name).is_err() {
            break;
        }
        actions += 1;
        *uses.entry(name.clone()).or_default() += 1;
    }
    Ok(BotGame {
        outcome: game.ending().map(|e| e.outcome),
        actions,
        minutes: game.world().clock_minutes(),
        uses,
    })
}

/// Among actions on discovered paths that lead to the same place (a walk
/// and a sea route between neighbouring harbours), only the quickest stay,
/// ties all: the bot takes a boat when that is quicker and walks when
/// walking is. Other actions pass as they are, in their order.
pub fn quickest_ways(game: &Game, options: Vec<(ObjectId, String)>) -> Vec<(ObjectId, String)> {
    let paths = game.discovered_paths(game.here());
    let leads_to = |o: ObjectId| paths.iter().find(|p| p.path == o).map(|p| p.destination);
    let minutes = |o: ObjectId, name: &str| game.minutes_of(o, name).unwrap_or(u32::MAX);
    let mut best: BTreeMap<ObjectId, u32> = BTreeMap::new();
    for (o, name) in &options {
        if let Some(d) = leads_to(*o) {
            let m = minutes(*o, name);
            best.entry(d).and_modify(|b| *b = (*b).min(m)).or_insert(m);
        }
    }
    options
        .into_iter()
        .filter(|(o, name)| leads_to(*o).is_none_or(|d| minutes(*o, name) <= best[&d]))
        .collect()
}

/// Results over many seeds in constant memory: counts and histograms.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotStats {
    /// Games played.
    pub games: u64,
    /// Games won.
    pub won: u64,
    /// Games lost by an ending.
    pub lost: u64,
    /// Games by actions taken (index = actions).
    actions: Vec<u64>,
    /// Games by length in whole hours.
    hours: Vec<u64>,
    /// Per interaction name: (games that used it, times used).
    pub uses: BTreeMap<String, (u64, u64)>,
}

fn bump(h: &mut Vec<u64>, i: usize) {
    if h.len() <= i {
        h.resize(i + 1, 0);
    }
    h[i] += 1;
}

fn median(h: &[u64], n: u64) -> usize {
    let mut seen = 0;
    for (i, c) in h.iter().enumerate() {
        seen += c;
        if 2 * seen >= n {
            return i;
        }
    }
    0
}

impl BotStats {
    /// Adds one game.
    pub fn add(&mut self, g: BotGame) {
        self.games += 1;
        match g.outcome {
            Some(Outcome::Won) => self.won += 1,
            Some(Outcome::Lost) => self.lost += 1,
            None => {}
        }
        bump(&mut self.actions, g.actions as usize);
        bump(&mut self.hours, (g.minutes / 60) as usize);
        for (name, n) in g.uses {
            let u = self.uses.entry(name).or_default();
            u.0 += 1;
            u.1 += u64::from(n);
        }
    }

    /// Wins per game, 0..=1.
    pub fn win_rate(&self) -> f64 {
        self.won as f64 / self.games.max(1) as f64
    }

    /// The median number of actions per game.
    pub fn median_actions(&self) -> usize {
        median(&self.actions, self.games)
    }

    /// The median game length in whole hours of game time.
    pub fn median_hours(&self) -> usize {
        median(&self.hours, self.games)
    }

    /// A readable report.
    pub fn render(&self) -> String {
        let mut out = format!(
            "\nbot over {} games: won {} ({:.1}%), lost {}, unfinished {}; median {} actions, {} hours of game time\n",
            self.games,
            self.won,
            100.0 * self.win_rate(),
            self.lost,
            self.games - self.won - self.lost,
            self.median_actions(),
            self.median_hours()
        );
        if !self.uses.is_empty() {
            out.push_str("  interaction  share of actions  in % of games\n");
            let all: u64 = self.uses.values().map(|u| u.1).sum();
            for (name, (games, times)) in &self.uses {
                out.push_str(&format!(
                    "  {name:<11}  {:>15.1}%  {:>12.1}%\n",
                    100.0 * *times as f64 / all.max(1) as f64,
                    100.0 * *games as f64 / self.games.max(1) as f64
                ));
            }
        }
        out
    }
}
