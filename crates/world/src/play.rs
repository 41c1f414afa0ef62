//! Playing an island: start-site selection, placing the explorer, and
//! acting (the guide's `selectStartSite`, `placePlayer`; its
//! `Location.explore` and `Path.travel` are now interactions defined in
//! YAML and run by [`Game::act`]). The `play` stream is the only
//! randomness; it has no downstream, so the island never depends on it.

use crate::interaction::{self, Context, NotRun, Ran};
use crate::island::SpawnedIsland;
use crate::object::{ObjectId, World, prop, slot};
use crate::spawn::{SpawnError, spawn_island};
use mangekyo_core::seed::purpose;
use mangekyo_core::{Pcg32, Seed};
use mangekyo_island::defs::ScopeDef;
use mangekyo_island::{Definitions, GenerateError, IslandMap, generate_island};
use std::collections::BTreeSet;

/// The play stream, counting its draws so a save can restore it by replay
/// (the core generator's state is private by design).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayRng {
    rng: Pcg32,
    draws: u64,
}

impl PlayRng {
    /// The `play` stream of `seed`, advanced by `draws` 32-bit draws.
    pub fn new(seed: Seed, draws: u64) -> Self {
        let mut r = PlayRng {
            rng: Pcg32::for_purpose(seed, purpose::PLAY),
            draws: 0,
        };
        (0..draws).for_each(|_| {
            r.next_u32();
        });
        r
    }

    /// 32-bit draws so far.
    pub fn draws(&self) -> u64 {
        self.draws
    }

    fn next_u32(&mut self) -> u32 {
        self.draws += 1;
        self.rng.next_u32()
    }

    /// Uniform on `0..n` without bias (the reference rejection rule, drawn
    /// through the counter). `n <= 1` gives 0 without drawing.
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let r = self.next_u32();
            if r >= threshold {
                return r % n;
            }
        }
    }
}

/// Why the game could not start.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// Generation failed.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// Spawning failed.
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// No site has any of the scope's start types (loading guarantees one,
    /// so only a map from other definitions gets here).
    #[error("no site has a start type ({0})")]
    NoStartSite(String),
}

/// An action refused; the world is unchanged.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The object is not within the explorer's reach (not the explorer,
    /// its place, or a discovered fixture there).
    #[error("that is not within reach")]
    OutOfReach,
    /// The object has no interaction of that name.
    #[error("that cannot be done with it")]
    NoSuchInteraction,
    /// A requirement does not hold; its refusal text, per language.
    #[error("{}", .0.get("en").map_or("not now", String::as_str))]
    Unmet(mangekyo_defs::interact::Texts),
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The definitions failed at run time.
    #[error("the definitions failed: {0}")]
    Broken(String),
}

/// What one action did.
#[derive(Clone, Debug, PartialEq)]
pub struct Acted {
    /// The object acted on.
    pub target: ObjectId,
    /// The interaction's name.
    pub interaction: String,
    /// What the interaction did.
    pub ran: Ran,
    /// Where the explorer was before.
    pub from: ObjectId,
    /// Whether the explorer arrived somewhere for the first time.
    pub first_visit: bool,
    /// The flavour line drawn when a reveal found nothing.
    pub flavour: Option<usize>,
    /// The ending this action reached (its index in the scope's endings).
    pub ended: Option<usize>,
}

/// A discovered path, as a player sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathInfo {
    /// The path object.
    pub path: ObjectId,
    /// Where it leads.
    pub destination: ObjectId,
    /// Its `travel_minutes`.
    pub minutes: u32,
    /// Whether it is a sea route (the scope's `sea_routes`) rather than a
    /// path of the network.
    pub sea: bool,
}

/// A game in progress: the world, the island, the explorer.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) defs: Definitions,
    pub(crate) seed: Seed,
    pub(crate) world: World,
    pub(crate) island: SpawnedIsland,
    pub(crate) player: ObjectId,
    pub(crate) rng: PlayRng,
    pub(crate) visited: BTreeSet<ObjectId>,
    pub(crate) ended: Option<usize>,
}

/// The start site (the guide's `selectStartSite`): the first type in the
/// scope's `start` list that the island has; among its sites one drawn
/// from the play stream.
pub fn select_start_site(map: &IslandMap, scope: &ScopeDef, rng: &mut PlayRng) -> Option<u32> {
    scope.start.iter().find_map(|ty| {
        let sites: Vec<u32> = map
            .sites
            .iter()
            .filter(|s| &s.location_type == ty)
            .map(|s| s.id)
            .collect();
        (!sites.is_empty()).then(|| sites[rng.below(sites.len() as u32) as usize])
    })
}

/// The spawned island and, right after it, the explorer, waiting in the
/// world's characters slot: how every game starts, and what a loaded save
/// is checked against.
pub(crate) fn spawn_with_explorer(
    defs: &Definitions,
    scope_def: &ScopeDef,
    map: IslandMap,
) -> Result<(World, SpawnedIsland, ObjectId), SpawnError> {
    let (mut world, island) = spawn_island(defs, map)?;
    let player_def = defs.object_defs().get(&scope_def.player).ok_or_else(|| {
        SpawnError::Mismatch(format!("unknown object_def '{}'", scope_def.player))
    })?;
    let player = world.create(player_def, &[]);
    world.move_to_slot(player, world.root(), slot::CHARACTERS)?;
    Ok((world, island, player))
}

impl Game {
    /// Generates, spawns and places the explorer on the start site.
    pub fn new(defs: &Definitions, scope: &str, seed: Seed) -> Result<Game, PlayError> {
        Self::with_play_rng(defs, scope, seed, PlayRng::new(seed, 0))
    }

    /// As [`Game::new`] with a given play stream (the guide's contract: the
    /// island never depends on what the play stream is).
    pub fn with_play_rng(
        defs: &Definitions,
        scope: &str,
        seed: Seed,
        mut rng: PlayRng,
    ) -> Result<Game, PlayError> {
        let map = generate_island(defs, scope, seed)?;
        let scope_def = defs.scope(scope)?;
        let (world, island, player) = spawn_with_explorer(defs, scope_def, map)?;
        let start = select_start_site(island.map(), scope_def, &mut rng)
            .ok_or_else(|| PlayError::NoStartSite(scope_def.start.join(", ")))?;
        let mut game = Game {
            defs: defs.clone(),
            seed,
            world,
            island,
            player,
            rng,
            visited: BTreeSet::new(),
            ended: None,
        };
        game.place_player(start)?;
        Ok(game)
    }

    /// Puts the explorer on a site (the guide's `placePlayer`).
    fn place_player(&mut self, site: u32) -> Result<ObjectId, SpawnError> {
        let land = self
            .island
            .land_of(site)
            .ok_or_else(|| SpawnError::Mismatch(format!("no site {site}")))?;
        self.world
            .move_to_slot(self.player, land, slot::CHARACTERS)?;
        self.visited.insert(land);
        Ok(land)
    }

    /// The world.
    pub fn world(&self) -> &World {
        &self.world
    }
    /// The spawned island.
    pub fn island(&self) -> &SpawnedIsland {
        &self.island
    }
    /// The definitions the game was built from.
    pub fn definitions(&self) -> &Definitions {
        &self.defs
    }
    /// The seed.
    pub fn seed(&self) -> Seed {
        self.seed
    }
    /// The explorer.
    pub fn player(&self) -> ObjectId {
        self.player
    }
    /// The play stream.
    pub fn rng(&self) -> &PlayRng {
        &self.rng
    }
    /// Locations visited so far.
    pub fn visited(&self) -> &BTreeSet<ObjectId> {
        &self.visited
    }

    /// The scope the island was generated for.
    pub fn scope(&self) -> &ScopeDef {
        &self.defs.scopes()[&self.island.map().scope]
    }

    /// The location the explorer is in.
    pub fn here(&self) -> ObjectId {
        self.world
            .parent(self.player)
            .map_or(self.world.root(), |(p, _)| p)
    }

    /// `(progress, max)` of a location.
    pub fn progress(&self, land: ObjectId) -> (f64, f64) {
        let v = self.world.number(land, prop::EXPLORATION).unwrap_or(0.0);
        let (_, max) = self
            .world
            .range(land, prop::EXPLORATION)
            .unwrap_or((0.0, 0.0));
        (v, max)
    }

    /// The discovered paths leaving a location, in discovery order.
    pub fn discovered_paths(&self, land: ObjectId) -> Vec<PathInfo> {
        self.world
            .slot(land, slot::FIXTURES)
            .iter()
            .filter_map(|&p| self.path_info(p))
            .collect()
    }

    /// Paths of a location still hidden.
    pub fn hidden_path_count(&self, land: ObjectId) -> usize {
        self.world.slot(land, slot::UNDISCOVERED_FIXTURES).len()
    }

    fn path_info(&self, path: ObjectId) -> Option<PathInfo> {
        Some(PathInfo {
            path,
            destination: self.world.object_ref(path, prop::DESTINATION_ID).ok()?,
            minutes: self.world.number(path, prop::TRAVEL_MINUTES).ok()? as u32,
            sea: self.island.is_sea_path(path),
        })
    }

    /// The objects the explorer can act on: itself, its place, and the
    /// discovered fixtures there, in that order.
    pub fn reachable(&self) -> Vec<ObjectId> {
        let here = self.here();
        let mut out = vec![self.player, here];
        out.extend_from_slice(self.world.slot(here, slot::FIXTURES));
        out
    }

    /// The interactions an object's def declares.
    pub fn interactions_of(
        &self,
        obj: ObjectId,
    ) -> Option<&std::collections::BTreeMap<String, mangekyo_defs::interact::InteractionDef>> {
        let def = &self.world.get(obj).ok()?.def;
        self.defs.object_defs().get(def).map(|d| &d.interactions)
    }

    /// Runs interaction `name` of `target` with the explorer as the agent.
    pub fn act(&mut self, target: ObjectId, name: &str) -> Result<Acted, Refusal> {
        if self.ended.is_some() {
            return Err(Refusal::Over);
        }
        if !self.reachable().contains(&target) {
            return Err(Refusal::OutOfReach);
        }
        let def = self
            .interactions_of(target)
            .and_then(|m| m.get(name))
            .cloned()
            .ok_or(Refusal::NoSuchInteraction)?;
        let ctx = Context {
            this: target,
            agent: self.player,
            it: None,
        };
        let from = self.here();
        let ran = interaction::run(&def, &mut self.world, &ctx).map_err(|e| match e {
            NotRun::Requirement(i) => Refusal::Unmet(def.requires[i].refusal.clone()),
            other => Refusal::Broken(other.to_string()),
        })?;
        let here = self.here();
        let first_visit = self.island.site_of(here).is_some() && self.visited.insert(here);
        let flavour = (ran.reveals && ran.revealed.is_empty() && !def.flavours.is_empty())
            .then(|| self.rng.below(def.flavours.len() as u32) as usize);
        self.ended = self.first_ending();
        Ok(Acted {
            target,
            interaction: name.to_string(),
            ran,
            from,
            first_visit,
            flavour,
            ended: self.ended,
        })
    }

    /// The first of the scope's endings whose condition holds now.
    pub(crate) fn first_ending(&self) -> Option<usize> {
        let ctx = Context {
            this: self.player,
            agent: self.player,
            it: None,
        };
        self.scope()
            .endings
            .iter()
            .position(|e| interaction::holds(&self.world, &ctx, &e.when).unwrap_or(false))
    }

    /// The ending reached, if the game is over.
    pub fn ending(&self) -> Option<&mangekyo_defs::interact::EndingDef> {
        self.ended.map(|i| &self.scope().endings[i])
    }

    /// Minutes interaction `name` of `target` would take now, with the
    /// explorer acting (`None` if the object has no such interaction or
    /// its duration cannot be evaluated).
    pub fn minutes_of(&self, target: ObjectId, name: &str) -> Option<u32> {
        let def = self.interactions_of(target)?.get(name)?;
        let ctx = Context {
            this: target,
            agent: self.player,
            it: None,
        };
        interaction::minutes_for(def, &self.world, &ctx).ok()
    }

    /// Every action whose requirements hold now: (object, interaction).
    pub fn possible_actions(&self) -> Vec<(ObjectId, String)> {
        if self.ended.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for o in self.reachable() {
            let Some(m) = self.interactions_of(o) else {
                continue;
            };
            let ctx = Context {
                this: o,
                agent: self.player,
                it: None,
            };
            for (name, def) in m {
                if interaction::first_unmet(def, &self.world, &ctx) == Ok(None) {
                    out.push((o, name.clone()));
                }
            }
        }
        out
    }

    /// `(fully explored, all)` locations.
    pub fn explored_count(&self) -> (usize, usize) {
        let lands = self.island.lands();
        let done = lands.iter().filter(|&&l| {
            let (p, m) = self.progress(l);
            p >= m
        });
        (done.count(), lands.len())
    }
}
