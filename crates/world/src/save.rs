//! Saves: JSON with a format version. Loading regenerates the island from
//! the definitions and seed, checks that the saved world is exactly that
//! island in a state the rules can reach, and only then returns a game; a
//! corrupt or foreign save is refused with the reason, never half-loaded.

use crate::object::{Kind, ObjectId, World, prop, slot};
use crate::play::{Game, PlayRng, spawn_with_explorer};
use mangekyo_core::Seed;
use mangekyo_defs::interact::EffectDef;
use mangekyo_island::{Definitions, IslandMap, generate_island};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The `format` field every save carries.
pub const SAVE_FORMAT: &str = "mangekyo-island-save";

/// The save layout this build writes and reads.
pub const SAVE_FORMAT_VERSION: u32 = 2;

/// Why a version-1 save cannot be continued: the rules of that engine were
/// built in, and its explorer had no properties for the defined ones.
pub(crate) const VERSION_1_REFUSAL: &str = "version-1 saves come from the engine whose actions were built in; their explorer has none of the properties that the defined interactions use, and their time and progress were spent under other rules, so the game cannot continue from them fairly; start a new game with the same seed";

/// The most play-stream draws a save may claim: replaying them is the
/// price of restoring the stream, and no honest game draws this many.
pub const MAX_PLAY_DRAWS: u64 = 10_000_000;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveFile {
    format: String,
    format_version: u32,
    generator_version: u32,
    island_fingerprint: String,
    scope: String,
    seed: u64,
    play_draws: u64,
    player: ObjectId,
    visited: Vec<ObjectId>,
    world: World,
}

/// Why a save was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadSaveError {
    /// Not JSON, or not the save layout.
    #[error("not a readable save: {0}")]
    Corrupt(String),
    /// Some other program's file.
    #[error("not a Mangekyo island save (format '{0}')")]
    Foreign(String),
    /// Another save layout version.
    #[error(
        "save format version {found} is not supported (this build reads version {SAVE_FORMAT_VERSION})"
    )]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// A known older layout this build will not continue, with the reason.
    #[error("save format version {found} is refused: {reason}")]
    Refused {
        /// The version in the file.
        found: u32,
        /// Why.
        reason: String,
    },
    /// The island it was made on is not the one these definitions give.
    #[error("this save belongs to a different island: {0}")]
    OtherIsland(String),
    /// The saved world is not a state the game can reach.
    #[error("the saved world is inconsistent: {0}")]
    Inconsistent(String),
}

/// A short, stable fingerprint of a map (FNV-1a of its JSON).
pub fn island_fingerprint(map: &IslandMap) -> String {
    let bytes = serde_json::to_vec(map).unwrap_or_default();
    format!("{:016x}", mangekyo_core::hash::fnv1a64(&bytes))
}

impl Game {
    /// The game as save JSON.
    pub fn save(&self) -> String {
        let file = SaveFile {
            format: SAVE_FORMAT.to_string(),
            format_version: SAVE_FORMAT_VERSION,
            generator_version: mangekyo_island::GENERATOR_VERSION,
            island_fingerprint: island_fingerprint(self.island.map()),
            scope: self.island.map().scope.clone(),
            seed: self.seed.value(),
            play_draws: self.rng.draws(),
            player: self.player,
            visited: self.visited.iter().copied().collect(),
            world: self.world.clone(),
        };
        serde_json::to_string_pretty(&file).unwrap_or_default()
    }

    /// Restores a game from save JSON made with the same definitions.
    pub fn load(defs: &Definitions, json: &str) -> Result<Game, LoadSaveError> {
        let head: serde_json::Value =
            serde_json::from_str(json).map_err(|e| LoadSaveError::Corrupt(e.to_string()))?;
        match head.get("format").and_then(|f| f.as_str()) {
            Some(SAVE_FORMAT) => {}
            other => return Err(LoadSaveError::Foreign(other.unwrap_or("none").to_string())),
        }
        let version = head
            .get("format_version")
            .and_then(|v| v.as_u64())
            .unwrap_or(0);
        if version == 1 {
            return Err(LoadSaveError::Refused {
                found: 1,
                reason: VERSION_1_REFUSAL.to_string(),
            });
        }
        if version != u64::from(SAVE_FORMAT_VERSION) {
            return Err(LoadSaveError::Version {
                found: u32::try_from(version).unwrap_or(u32::MAX),
            });
        }
        let file: SaveFile =
            serde_json::from_value(head).map_err(|e| LoadSaveError::Corrupt(e.to_string()))?;
        let seed = Seed::new(file.seed);
        let map = generate_island(defs, &file.scope, seed)
            .map_err(|e| LoadSaveError::OtherIsland(e.to_string()))?;
        if island_fingerprint(&map) != file.island_fingerprint {
            return Err(LoadSaveError::OtherIsland(format!(
                "seed {} of scope '{}' gives island {}, the save was made on {} (definitions or generator version {} changed?)",
                file.seed,
                file.scope,
                island_fingerprint(&map),
                file.island_fingerprint,
                file.generator_version
            )));
        }
        if file.play_draws > MAX_PLAY_DRAWS {
            return Err(LoadSaveError::Inconsistent(format!(
                "{} play-stream draws claimed (at most {MAX_PLAY_DRAWS})",
                file.play_draws
            )));
        }
        // The world as `Game::new` starts it, explorer included: the saved
        // one is checked against it object by object.
        let scope_def = defs
            .scope(&file.scope)
            .map_err(|e| LoadSaveError::OtherIsland(e.to_string()))?;
        let (fresh, island, _) = spawn_with_explorer(defs, scope_def, map)
            .map_err(|e| LoadSaveError::OtherIsland(e.to_string()))?;
        let game = Game {
            defs: defs.clone(),
            seed,
            world: file.world,
            island,
            player: file.player,
            rng: PlayRng::new(seed, file.play_draws),
            visited: file.visited.into_iter().collect(),
            ended: None,
        };
        verify(&game, &fresh).map_err(LoadSaveError::Inconsistent)?;
        let mut game = game;
        game.ended = game.first_ending();
        Ok(game)
    }
}

/// The saved world must be the freshly spawned one with only the things
/// play changes changed, each in a reachable way.
fn verify(game: &Game, fresh: &World) -> Result<(), String> {
    let w = &game.world;
    let objects = w.objects();
    let player_def = &game.scope().player;
    // Only what some interaction changes may differ from the spawn.
    let changeable: BTreeSet<&str> = game
        .defs
        .object_defs()
        .values()
        .flat_map(|d| d.interactions.values())
        .flat_map(|i| &i.effects)
        .filter_map(|e| match e {
            EffectDef::Change { target, .. } => Some(target.property.as_str()),
            _ => None,
        })
        .collect();
    // `fresh` holds the spawned world and the new explorer.
    if objects.len() != fresh.objects().len() {
        return Err(format!(
            "{} objects, expected {} (were the definitions edited since the save, e.g. sea routes added?)",
            objects.len(),
            fresh.objects().len()
        ));
    }
    for (saved, orig) in objects.iter().zip(fresh.objects()) {
        if saved.id != orig.id || saved.def != orig.def || saved.kind != orig.kind {
            return Err(format!(
                "object {} is a {} '{}', expected a {:?} '{}'",
                saved.id,
                kind_name(saved.kind),
                saved.def,
                orig.kind,
                orig.def
            ));
        }
        for (name, n) in &saved.props {
            let o = orig
                .props
                .get(name)
                .ok_or_else(|| format!("object {} has an unknown property '{name}'", saved.id))?;
            if (n.min, n.max) != (o.min, o.max) || !(n.min..=n.max).contains(&n.value) {
                return Err(format!(
                    "property {name} of object {} is {} (range {}..={})",
                    saved.id, n.value, o.min, o.max
                ));
            }
            let changeable = changeable.contains(name.as_str());
            if !changeable && n.value != o.value {
                return Err(format!(
                    "property {name} of object {} changed from {} to {}",
                    saved.id, o.value, n.value
                ));
            }
        }
        if saved.slots.keys().ne(orig.slots.keys()) {
            return Err(format!(
                "object {} has slots {:?}, expected {:?}",
                saved.id,
                saved.slots.keys().collect::<Vec<_>>(),
                orig.slots.keys().collect::<Vec<_>>()
            ));
        }
        if saved.props.len() != orig.props.len() {
            return Err(format!("object {} lost a property", saved.id));
        }
    }
    let player = objects.last().ok_or("no objects")?;
    if player.id != game.player || player.kind != Kind::Character || &player.def != player_def {
        return Err(format!(
            "the explorer should be object {} ('{player_def}')",
            objects.len() - 1
        ));
    }
    verify_places(game)
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::World => "world",
        Kind::Location => "location",
        Kind::Path => "path",
        Kind::Character => "character",
    }
}

/// Every object sits where the rules allow: locations in the world, the
/// explorer in one visited location, every path (land or sea) at its origin, discovered
/// exactly when exploring its origin or its destination revealed it.
fn verify_places(game: &Game) -> Result<(), String> {
    let w = &game.world;
    let lands = game.island.lands();
    if w.slot(w.root(), slot::LOCATIONS) != lands {
        return Err("the world's locations are not the island's".into());
    }
    if !w.slot(w.root(), slot::CHARACTERS).is_empty() {
        return Err("the explorer was never placed".into());
    }
    let here = game.here();
    if game.island.site_of(here).is_none() || w.slot(here, slot::CHARACTERS) != [game.player] {
        return Err("the explorer is not in exactly one location".into());
    }
    let visited: BTreeSet<ObjectId> = game.visited.iter().copied().collect();
    if !visited.contains(&here) || visited.iter().any(|v| game.island.site_of(*v).is_none()) {
        return Err("the visited places do not fit the explorer's position".into());
    }
    for ((from, _), path) in game.island.all_paths() {
        let origin = lands[from as usize];
        let discovered = due(game, path, origin) || {
            let back = w
                .object_ref(path, prop::RETURN_PATH_ID)
                .map_err(|e| e.to_string())?;
            let dest = w
                .object_ref(path, prop::DESTINATION_ID)
                .map_err(|e| e.to_string())?;
            due(game, back, dest)
        };
        let want = if discovered {
            slot::FIXTURES
        } else {
            slot::UNDISCOVERED_FIXTURES
        };
        if w.parent(path) != Some((origin, want)) {
            return Err(format!(
                "path {path} should be in {want} of location {origin}"
            ));
        }
    }
    for &land in lands {
        let inside =
            w.slot(land, slot::FIXTURES).len() + w.slot(land, slot::UNDISCOVERED_FIXTURES).len();
        let expected = game
            .island
            .all_paths()
            .filter(|((f, _), _)| lands[*f as usize] == land)
            .count();
        let others = w
            .slot(land, slot::CHARACTERS)
            .iter()
            .any(|&c| c != game.player);
        if inside != expected || others {
            return Err(format!(
                "location {land} holds objects that do not belong there"
            ));
        }
    }
    Ok(())
}

/// Whether exploring `land` has revealed `path`: only an explore reveals,
/// and every explore raises progress above its minimum, so a place never
/// explored has revealed nothing, even a path of threshold 0.
fn due(game: &Game, path: ObjectId, land: ObjectId) -> bool {
    let w = &game.world;
    let required = w
        .number(path, prop::REQUIRED_PROGRESS)
        .unwrap_or(f64::INFINITY);
    let (min, _) = w.range(land, prop::EXPLORATION).unwrap_or((0.0, 0.0));
    w.number(land, prop::EXPLORATION)
        .is_ok_and(|p| p > min && p >= required)
}
