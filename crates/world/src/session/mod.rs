//! The terminal game as a pure function of lines in → text out. The CLI
//! feeds it stdin or a script and writes saves where it is told; a
//! transcript of a session is therefore a plain, testable string.

mod map;
mod status;
pub mod text;

pub use status::{PathStatus, Place, Status};

use crate::object::ObjectId;
use crate::play::{Acted, Game, Refusal};
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
        let args: Vec<&str> = words.collect();
        let arg = args.join(" ");
        match cmd.to_lowercase().as_str() {
            "help" | "h" | "?" => Reply::text(self.help()),
            "look" | "l" => Reply::text(self.look()),
            "paths" | "p" => Reply::text(self.paths()),
            "map" | "m" => Reply::text(map::render(&self.game, &self.lang)),
            "time" => Reply::text(self.time_and_progress()),
            "save" => self.save(&arg),
            "quit" | "q" | "exit" => Reply {
                text: self.w().bye.to_string(),
                effect: Effect::Quit,
            },
            other => Reply::text(self.act(other, &arg)),
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
                let template = if p.sea { w.path_line_sea } else { w.path_line };
                let line = fill(
                    template,
                    &[
                        ("dir", dir),
                        ("n", &(i + 1).to_string()),
                        ("place", &self.name(p.destination)),
                        ("minutes", &p.minutes.to_string()),
                        ("verbs", &self.verbs(p.path)),
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

    /// What can be done on an object, by its def's interaction names
    /// (joined by `/`): a sea route's command word.
    fn verbs(&self, obj: ObjectId) -> String {
        self.game
            .interactions_of(obj)
            .map(|m| m.keys().cloned().collect::<Vec<_>>().join("/"))
            .unwrap_or_default()
    }

    /// Every interaction name the definitions give, for `help`.
    fn help(&self) -> String {
        let mut names: Vec<&String> = self
            .game
            .definitions()
            .object_defs()
            .values()
            .flat_map(|d| d.interactions.keys())
            .collect();
        names.sort();
        names.dedup();
        let list = names
            .iter()
            .map(|n| format!("  {n}"))
            .collect::<Vec<_>>()
            .join("\n");
        fill(self.w().help, &[("commands", &list)])
    }

    /// A localised text: the session's language, else English, else any.
    fn tr<'t>(&self, texts: &'t mangekyo_defs::interact::Texts) -> &'t str {
        texts
            .get(&self.lang)
            .or_else(|| texts.get("en"))
            .or_else(|| texts.values().next())
            .map_or("", String::as_str)
    }

    /// The object a command acts on: with an argument, the discovered path
    /// of that number or leading to that place; without one, the first
    /// object within reach that has the interaction, unless only paths do.
    fn target(&self, cmd: &str, arg: &str) -> Result<ObjectId, String> {
        let w = self.w();
        let here = self.game.here();
        let has = |o: &ObjectId| {
            self.game
                .interactions_of(*o)
                .is_some_and(|m| m.contains_key(cmd))
        };
        let known = self.game.discovered_paths(here);
        if !arg.is_empty() {
            let path = match arg.parse::<usize>() {
                Ok(n) => known
                    .get(n.wrapping_sub(1))
                    .map(|p| p.path)
                    .ok_or_else(|| fill(w.no_such_path, &[("n", arg)]))?,
                Err(_) => {
                    // By name: a way there that takes this command first
                    // (a place can be reached on foot and by sea).
                    let wanted = arg.to_lowercase();
                    let there: Vec<ObjectId> = known
                        .iter()
                        .filter(|p| self.name(p.destination).to_lowercase().starts_with(&wanted))
                        .map(|p| p.path)
                        .collect();
                    there
                        .iter()
                        .copied()
                        .find(|p| has(p))
                        .or(there.first().copied())
                        .ok_or_else(|| w.unknown_path.to_string())?
                }
            };
            return if has(&path) {
                Ok(path)
            } else {
                Err(fill(w.cannot, &[("n", cmd)]))
            };
        }
        let reach = self.game.reachable();
        match reach.iter().take(2).find(|o| has(o)) {
            Some(&o) => Ok(o),
            None if reach.iter().any(has) => Err(w.which.to_string()),
            None => Err(fill(w.unknown_command, &[("n", cmd)])),
        }
    }

    fn act(&mut self, cmd: &str, arg: &str) -> String {
        let target = match self.target(cmd, arg) {
            Ok(t) => t,
            Err(text) => return text,
        };
        match self.game.act(target, cmd) {
            Ok(done) => self.acted(&done),
            Err(Refusal::Unmet(texts)) => {
                let place = self.name(self.game.here());
                fill(self.tr(&texts), &[("place", &place)])
            }
            Err(other) => other.to_string(),
        }
    }

    /// The text after an interaction: its own text, the paths it revealed,
    /// a flavour line, what is left to find, and where the explorer is now
    /// if it moved.
    fn acted(&self, done: &Acted) -> String {
        let w = self.w();
        let here = self.game.here();
        let def = self
            .game
            .interactions_of(done.target)
            .and_then(|m| m.get(&done.interaction));
        let mut lines = Vec::new();
        if let Some(def) = def {
            let target = self
                .path_destination(done.target)
                .map_or_else(|| self.name(done.target), |d| self.name(d));
            let mut text = fill(
                self.tr(&def.text),
                &[
                    ("place", &self.name(here)),
                    ("from", &self.name(done.from)),
                    ("minutes", &done.ran.minutes.to_string()),
                    ("target", &target),
                ],
            );
            text = self.fill_values(&text, done.target);
            if !text.is_empty() {
                if done.first_visit {
                    text.push_str(w.first_visit);
                }
                lines.push(text);
            }
            if let Some(i) = done.flavour {
                lines.push(self.tr(&def.flavours[i]).to_string());
            }
        }
        let known = self.game.discovered_paths(done.from);
        for path in &done.ran.revealed {
            if let Some((i, p)) = known.iter().enumerate().find(|(_, p)| p.path == *path) {
                lines.push(fill(
                    if p.sea { w.found_sea } else { w.found },
                    &[
                        ("dir", self.direction(done.from, p.destination)),
                        ("n", &(i + 1).to_string()),
                        ("place", &self.name(p.destination)),
                        ("minutes", &p.minutes.to_string()),
                        ("verbs", &self.verbs(p.path)),
                    ],
                ));
            }
        }
        if done.ran.reveals && done.ran.revealed.is_empty() {
            lines.push(match self.game.hidden_path_count(done.from) {
                0 => w.all_known.to_string(),
                1 => w.hidden_one.to_string(),
                n => fill(w.hidden, &[("count", &n.to_string())]),
            });
        }
        if done.ran.reveals {
            let (p, max) = self.game.progress(done.from);
            if p >= max {
                lines.push(fill(w.fully, &[("place", &self.name(done.from))]));
                let (full, all) = self.game.explored_count();
                if full == all {
                    lines.push(fill(
                        w.island_done,
                        &[("count", &all.to_string()), ("time", &self.time())],
                    ));
                }
            }
        }
        let mut out = lines.join("\n");
        if here != done.from {
            out.push_str("\n\n");
            out.push_str(&self.look());
        }
        if let Some(end) = self.game.ending() {
            out.push_str("\n\n");
            out.push_str(&fill(self.tr(&end.text), &[("time", &self.time())]));
        }
        out
    }

    /// The place a path leads to (None for anything else).
    fn path_destination(&self, obj: ObjectId) -> Option<ObjectId> {
        self.game
            .discovered_paths(self.game.world().parent(obj)?.0)
            .into_iter()
            .find(|p| p.path == obj)
            .map(|p| p.destination)
    }

    /// Fills `{=expr}` placeholders with values after the action (whole
    /// numbers; `self` is the object acted on).
    fn fill_values(&self, text: &str, this: ObjectId) -> String {
        let mut out = String::new();
        let mut tail = text;
        while let Some(i) = tail.find("{=") {
            out.push_str(&tail[..i]);
            let Some(j) = tail[i..].find('}') else {
                break;
            };
            let src = &tail[i + 2..i + j];
            let ctx = crate::interaction::Context {
                this,
                agent: self.game.player(),
                it: None,
            };
            match mangekyo_defs::interact::parse_expr(src)
                .ok()
                .and_then(|e| crate::interaction::eval(self.game.world(), &ctx, &e).ok())
            {
                Some(v) => out.push_str(&format!("{}", v.round() as i64)),
                None => out.push_str(&tail[i..i + j + 1]),
            }
            tail = &tail[i + j + 1..];
        }
        out.push_str(tail);
        out
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
