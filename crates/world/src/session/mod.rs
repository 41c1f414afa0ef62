//! The terminal game as a pure function of lines in → text out. The CLI
//! feeds it stdin or a script and writes saves where it is told; a
//! transcript of a session is therefore a plain, testable string.

mod map;
pub mod text;

use crate::object::ObjectId;
use crate::play::{Game, Refusal};
use mangekyo_island::LocationName;
use text::{Words, fill, words};

/// Where the clock starts: 08:00 on day 1, in minutes after midnight.
pub const START_OF_DAY_MINUTES: u64 = 8 * 60;

/// What the caller should do besides showing the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing.
    None,
    /// Write `json` to `file` (the default name if the player gave none).
    Save {
        /// The file the player named, or `None` for the default.
        file: Option<String>,
        /// The save.
        json: String,
    },
    /// The player quit.
    Quit,
}

/// The answer to one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// Text to show (no trailing newline).
    pub text: String,
    /// What else to do.
    pub effect: Effect,
}

impl Reply {
    fn text(text: String) -> Self {
        Reply {
            text,
            effect: Effect::None,
        }
    }
}

/// A game with a language, answering commands.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    lang: String,
}

impl Session {
    /// A session over `game` in `lang` (names from the definitions, the
    /// game's own words in English or Japanese).
    pub fn new(game: Game, lang: &str) -> Self {
        Session {
            game,
            lang: lang.to_string(),
        }
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn w(&self) -> &'static Words {
        words(&self.lang)
    }

    /// The opening text: the landing for a new game, the return for a
    /// loaded one.
    pub fn intro(&self) -> String {
        let here = self.name(self.game.here());
        let fresh = self.game.world().clock_minutes() == 0 && self.game.visited().len() == 1;
        let template = if fresh {
            self.w().intro
        } else {
            self.w().resumed
        };
        let intro = fill(template, &[("time", &self.time()), ("place", &here)]);
        format!("{intro}\n\n{}", self.look())
    }

    /// Answers one command line.
    pub fn handle(&mut self, line: &str) -> Reply {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return Reply::text(String::new());
        };
        let rest: Vec<&str> = words.collect();
        let arg = rest.join(" ");
        match cmd.to_lowercase().as_str() {
            "help" | "h" | "?" => Reply::text(self.w().help.to_string()),
            "look" | "l" => Reply::text(self.look()),
            "explore" | "e" | "x" => Reply::text(self.explore()),
            "paths" | "p" => Reply::text(self.paths()),
            "travel" | "t" | "go" => Reply::text(self.travel(&arg)),
            "map" | "m" => Reply::text(map::render(&self.game, &self.lang)),
            "time" => Reply::text(self.time_and_progress()),
            "save" => self.save(&arg),
            "quit" | "q" | "exit" => Reply {
                text: self.w().bye.to_string(),
                effect: Effect::Quit,
            },
            n if n.parse::<usize>().is_ok() => Reply::text(self.travel(n)),
            other => Reply::text(fill(self.w().unknown_command, &[("n", other)])),
        }
    }

    /// The localised name of a location.
    fn name(&self, land: ObjectId) -> String {
        match self.game.island().name_of(land) {
            Some(n) => self.game.definitions().localization().label(&self.lang, n),
            None => land.to_string(),
        }
    }

    fn kind(&self, land: ObjectId) -> String {
        let ty = self
            .game
            .island()
            .name_of(land)
            .map(|n| n.location_type.clone())
            .unwrap_or_default();
        self.game.definitions().localization().label(
            &self.lang,
            &LocationName {
                location_type: ty,
                variant: None,
                ordinal: None,
            },
        )
    }

    /// The compass point from one location to another: eight sectors of
    /// 45°, told apart by slope (tan 22.5° ≈ 0.4142) so no trigonometry
    /// (and no platform maths) is involved.
    fn direction(&self, from: ObjectId, to: ObjectId) -> &'static str {
        let island = self.game.island();
        let site = |l: ObjectId| &island.map().sites[island.site_of(l).unwrap_or(0) as usize];
        let (a, b) = (site(from), site(to));
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        const TAN_22_5: f64 = 0.414_213_562_373_095;
        let sector = if dy.abs() <= dx.abs() * TAN_22_5 {
            if dx >= 0.0 { 2 } else { 6 }
        } else if dx.abs() <= dy.abs() * TAN_22_5 {
            if dy >= 0.0 { 0 } else { 4 }
        } else {
            match (dx >= 0.0, dy >= 0.0) {
                (true, true) => 1,
                (true, false) => 3,
                (false, false) => 5,
                (false, true) => 7,
            }
        };
        self.w().compass[sector]
    }

    /// The clock as "Day 1, 08:00".
    fn time(&self) -> String {
        let t = START_OF_DAY_MINUTES + self.game.world().clock_minutes();
        let (day, hh, mm) = (1 + t / 1440, (t % 1440) / 60, t % 60);
        fill(
            self.w().time,
            &[
                ("day", &day.to_string()),
                ("hh", &format!("{hh:02}")),
                ("mm", &format!("{mm:02}")),
            ],
        )
    }

    fn pct(&self, land: ObjectId) -> String {
        let (p, max) = self.game.progress(land);
        format!("{}", (100.0 * p / max).floor() as u32)
    }

    fn look(&self) -> String {
        let here = self.game.here();
        let w = self.w();
        let (place, kind) = (self.name(here), self.kind(here));
        let template = if place == kind {
            w.place_alone
        } else {
            w.place
        };
        let mut out = fill(
            template,
            &[("place", &place), ("kind", &kind), ("pct", &self.pct(here))],
        );
        out.push('\n');
        out.push_str(&self.paths());
        out.push('\n');
        out.push_str(&fill(w.clock, &[("time", &self.time())]));
        out
    }

    fn paths(&self) -> String {
        let here = self.game.here();
        let w = self.w();
        let known = self.game.discovered_paths(here);
        let mut lines = Vec::new();
        if known.is_empty() {
            lines.push(w.no_paths.to_string());
        } else {
            lines.push(w.paths_header.to_string());
            for (i, p) in known.iter().enumerate() {
                let mark = if self.game.visited().contains(&p.destination) {
                    w.visited_mark
                } else {
                    ""
                };
                let dir = self.direction(here, p.destination);
                let line = fill(
                    w.path_line,
                    &[
                        ("dir", dir),
                        ("n", &(i + 1).to_string()),
                        ("place", &self.name(p.destination)),
                        ("minutes", &p.minutes.to_string()),
                    ],
                );
                lines.push(format!("{line}{mark}"));
            }
        }
        match self.game.hidden_path_count(here) {
            0 => lines.push(w.all_known.to_string()),
            1 => lines.push(w.hidden_one.to_string()),
            n => lines.push(fill(w.hidden, &[("count", &n.to_string())])),
        }
        lines.join("\n")
    }

    fn explore(&mut self) -> String {
        let here = self.game.here();
        let w = self.w();
        match self.game.explore() {
            Err(Refusal::FullyExplored) => fill(w.nothing_left, &[("place", &self.name(here))]),
            Err(other) => other.to_string(),
            Ok(done) => {
                let mut lines = vec![fill(
                    w.explore,
                    &[
                        ("place", &self.name(here)),
                        ("minutes", &done.minutes.to_string()),
                        ("pct", &self.pct(here)),
                    ],
                )];
                let known = self.game.discovered_paths(here);
                for path in &done.revealed {
                    if let Some((i, p)) = known.iter().enumerate().find(|(_, p)| p.path == *path) {
                        let n = (i + 1).to_string();
                        lines.push(fill(
                            w.found,
                            &[
                                ("dir", self.direction(here, p.destination)),
                                ("n", &n),
                                ("place", &self.name(p.destination)),
                                ("minutes", &p.minutes.to_string()),
                            ],
                        ));
                    }
                }
                if done.revealed.is_empty() {
                    lines.push(w.flavours[done.flavour as usize].to_string());
                    // Say how much is left, so a fruitless explore still
                    // tells the player whether to keep looking.
                    lines.push(match self.game.hidden_path_count(here) {
                        0 => w.all_known.to_string(),
                        1 => w.hidden_one.to_string(),
                        n => fill(w.hidden, &[("count", &n.to_string())]),
                    });
                }
                if done.progress.1 >= done.max {
                    lines.push(fill(w.fully, &[("place", &self.name(here))]));
                    let (full, all) = self.game.explored_count();
                    if full == all {
                        lines.push(fill(
                            w.island_done,
                            &[("count", &all.to_string()), ("time", &self.time())],
                        ));
                    }
                }
                lines.join("\n")
            }
        }
    }

    fn travel(&mut self, arg: &str) -> String {
        let w = self.w();
        if arg.is_empty() {
            return w.travel_usage.to_string();
        }
        let known = self.game.discovered_paths(self.game.here());
        let chosen = match arg.parse::<usize>() {
            Ok(n) => match known.get(n.wrapping_sub(1)) {
                Some(p) => p.path,
                None => return fill(w.no_such_path, &[("n", arg)]),
            },
            Err(_) => {
                let wanted = arg.to_lowercase();
                match known
                    .iter()
                    .find(|p| self.name(p.destination).to_lowercase().starts_with(&wanted))
                {
                    Some(p) => p.path,
                    None => return w.unknown_path.to_string(),
                }
            }
        };
        match self.game.travel(chosen) {
            Ok(t) => {
                let mut out = fill(
                    w.walk,
                    &[
                        ("place", &self.name(t.destination)),
                        ("minutes", &t.minutes.to_string()),
                    ],
                );
                if t.first_visit {
                    out.push_str(w.first_visit);
                }
                format!("{out}\n\n{}", self.look())
            }
            Err(Refusal::Undiscovered) => w.unknown_path.to_string(),
            Err(other) => other.to_string(),
        }
    }

    fn time_and_progress(&self) -> String {
        let (full, all) = self.game.explored_count();
        let progress = fill(
            self.w().progress,
            &[("n", &full.to_string()), ("count", &all.to_string())],
        );
        format!("{}\n{progress}", self.time())
    }

    fn save(&self, arg: &str) -> Reply {
        let file = (!arg.is_empty()).then(|| arg.to_string());
        let shown = file
            .clone()
            .unwrap_or_else(|| DEFAULT_SAVE_FILE.to_string());
        Reply {
            text: fill(self.w().saved, &[("place", &shown)]),
            effect: Effect::Save {
                file,
                json: self.game.save(),
            },
        }
    }
}

/// Where `save` writes when the player names no file.
pub const DEFAULT_SAVE_FILE: &str = "island-save.json";

/// Runs `lines` through a session and returns the transcript: the intro,
/// then each command after `> ` with its reply. Saves are not written
/// (their effect is ignored); `quit` ends the run.
pub fn transcript(session: &mut Session, lines: &[&str], with_intro: bool) -> String {
    let mut out = if with_intro {
        session.intro() + "\n"
    } else {
        String::new()
    };
    for line in lines {
        let reply = session.handle(line);
        out.push_str(&format!("\n> {line}\n{}\n", reply.text));
        if reply.effect == Effect::Quit {
            break;
        }
    }
    out
}
