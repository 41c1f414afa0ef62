//! A Hengband dungeon as one JSON document, whichever edge hands it out:
//! the service's `/v1/dungeon/{kind}s/{seed}`, `mangekyo dungeon …
//! --format json` and the WebAssembly package's `dungeon` all build with
//! [`build`] and write with [`json()`], so the three are one shape
//! (generator, version, kind, seed, parameters, grid, and what the builder
//! reported beside the grid).

use mangekyo_core::{ParamError, Seed};
use mangekyo_dungeon::{
    CavernParams, DungeonError, Grid, LakeParams, LevelParams, Rect, RoomParams, build_cavern,
    build_lake, build_level, build_room, view,
};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// What is built: one name per builder, the one list every surface uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DungeonKind {
    /// A fractal room or cave vault ([`RoomParams`]).
    Room,
    /// A whole-level cavern ([`CavernParams`]).
    Cavern,
    /// A lake across a level, or an elemental vault ([`LakeParams`]).
    Lake,
    /// Fractal rooms joined by corridors ([`LevelParams`]).
    Level,
}

impl DungeonKind {
    /// Every kind.
    pub const ALL: [DungeonKind; 4] = [
        DungeonKind::Room,
        DungeonKind::Cavern,
        DungeonKind::Lake,
        DungeonKind::Level,
    ];

    /// Every kind's name, as refusals list them.
    pub const EXPECTED: &'static str = "one of room, cavern, lake, level";

    /// The name: the document's `kind` (the service's path is its plural).
    pub fn name(self) -> &'static str {
        match self {
            DungeonKind::Room => "room",
            DungeonKind::Cavern => "cavern",
            DungeonKind::Lake => "lake",
            DungeonKind::Level => "level",
        }
    }
}

impl std::str::FromStr for DungeonKind {
    type Err = ParamError;

    /// A name; the error names `kind` and every name.
    fn from_str(text: &str) -> Result<DungeonKind, ParamError> {
        DungeonKind::ALL
            .into_iter()
            .find(|k| k.name() == text)
            .ok_or_else(|| ParamError::new("kind", format!("{text:?}"), DungeonKind::EXPECTED))
    }
}

/// A built dungeon: its grid and what the builder reported beside it
/// (`light`, `attempts`, `rect`, the lake's kind and form, a level's rooms
/// and corridors), as the document's extra fields.
#[derive(Debug)]
pub struct Built {
    /// The cells.
    pub grid: Grid,
    extra: Map<String, Value>,
}

/// A builder's parameters: which kind they build, and the build.
pub trait DungeonParams: Serialize {
    /// The kind these parameters build.
    const KIND: DungeonKind;

    /// Builds the dungeon of `seed`.
    fn build(&self, seed: Seed) -> Result<Built, DungeonError>;
}

fn rect(r: Rect) -> [i32; 4] {
    [r.xmin, r.ymin, r.xmax, r.ymax]
}

fn built(grid: Grid, extra: Value) -> Built {
    let extra = match extra {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    Built { grid, extra }
}

impl DungeonParams for RoomParams {
    const KIND: DungeonKind = DungeonKind::Room;

    fn build(&self, seed: Seed) -> Result<Built, DungeonError> {
        let r = build_room(self, seed)?;
        let extra = json!({ "light": r.light, "attempts": r.attempts.len() });
        Ok(built(r.grid, extra))
    }
}

impl DungeonParams for CavernParams {
    const KIND: DungeonKind = DungeonKind::Cavern;

    fn build(&self, seed: Seed) -> Result<Built, DungeonError> {
        let c = build_cavern(self, seed)?;
        let extra = json!({ "rect": rect(c.rect), "light": c.light, "attempts": c.attempts.len() });
        Ok(built(c.grid, extra))
    }
}

impl DungeonParams for LakeParams {
    const KIND: DungeonKind = DungeonKind::Lake;

    fn build(&self, seed: Seed) -> Result<Built, DungeonError> {
        let l = build_lake(self, seed)?;
        let extra = json!({
            "rect": rect(l.rect),
            "lake_kind": l.kind,
            "form": l.form,
            "attempts": l.attempts.len(),
        });
        Ok(built(l.grid, extra))
    }
}

impl DungeonParams for LevelParams {
    const KIND: DungeonKind = DungeonKind::Level;

    fn build(&self, seed: Seed) -> Result<Built, DungeonError> {
        let l = build_level(self, seed)?;
        let rooms: Vec<Value> = l
            .rooms
            .iter()
            .map(|r| json!({ "rect": rect(r.rect), "centre": [r.centre.x, r.centre.y], "light": r.light }))
            .collect();
        let extra = json!({ "rooms": rooms, "corridors": l.corridors });
        Ok(built(l.grid, extra))
    }
}

/// Builds the dungeon `params` describe for `seed`.
pub fn build<P: DungeonParams>(params: &P, seed: Seed) -> Result<Built, DungeonError> {
    params.build(seed)
}

/// The document of a dungeon built from `params` and `seed`: generator,
/// version, kind, seed, the parameters as parsed (defaults filled in), the
/// grid (`view::GridJson`) and the builder's extra fields.
pub fn json<P: DungeonParams>(params: &P, seed: Seed, built: &Built) -> Value {
    let mut doc = json!({
        "generator": "dungeon",
        "version": mangekyo_dungeon::GENERATOR_VERSION,
        "kind": P::KIND.name(),
        "seed": seed.value(),
        "params": serde_json::to_value(params).unwrap_or(Value::Null),
        "grid": view::GridJson(&built.grid),
    });
    if let Value::Object(doc) = &mut doc {
        doc.extend(built.extra.clone());
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_parses_back_and_an_unknown_one_names_kind() {
        for k in DungeonKind::ALL {
            assert_eq!(k.name().parse::<DungeonKind>(), Ok(k));
            assert!(DungeonKind::EXPECTED.contains(k.name()));
        }
        let e = "maze".parse::<DungeonKind>().unwrap_err();
        assert_eq!(e.name, "kind");
    }

    #[test]
    fn the_document_holds_the_grid_and_the_builders_report() {
        let params = LevelParams {
            width: 64,
            height: 32,
            rooms: 3,
            ..LevelParams::default()
        };
        let seed = Seed::from(5);
        let built = build(&params, seed).unwrap();
        let doc = json(&params, seed, &built);
        assert_eq!(doc["kind"], "level");
        assert_eq!(doc["seed"], 5);
        assert_eq!(doc["params"]["rooms"], 3);
        assert_eq!(doc["grid"]["width"], built.grid.width());
        assert!(doc["rooms"].is_array() && doc["corridors"].is_u64());
    }
}
