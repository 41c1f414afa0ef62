//! Shared test helpers: the Hengband fixtures, a random source that
//! replays their draw logs, and the spec §7 property checks.

#![allow(dead_code)]

pub(crate) mod checks;

use mangekyo_dungeon::{Feature, RandomSource};
use serde::Deserialize;
use std::collections::VecDeque;
use std::path::PathBuf;

/// One fixture file (only the fields the tests read).
#[derive(Debug, Deserialize)]
pub(crate) struct Fixture {
    pub case: String,
    pub function: String,
    pub params: serde_json::Value,
    pub dungeon: Size,
    pub window: Window,
    pub returned: bool,
    pub amount: u32,
    #[serde(default)]
    pub attempts: Vec<FixtureAttempt>,
    pub draws: Vec<(String, i32, i32)>,
    pub heights: Vec<i32>,
    pub features: Vec<String>,
    pub flags: Vec<Vec<String>>,
}

/// The stub dungeon's size.
#[derive(Debug, Deserialize)]
pub(crate) struct Size {
    pub width: usize,
    pub height: usize,
}

/// The rectangle every grid array covers.
#[derive(Debug, Deserialize)]
pub(crate) struct Window {
    pub xmin: i32,
    pub ymin: i32,
    pub xmax: i32,
    pub ymax: i32,
    pub width: usize,
    pub height: usize,
}

/// One pass of a driver's retry loop.
#[derive(Debug, Deserialize)]
pub(crate) struct FixtureAttempt {
    pub grd: i32,
    pub roug: i32,
    pub cutoff: i32,
    pub amount: u32,
    pub returned: bool,
    pub draws_begin: usize,
    pub draws_end: usize,
    #[serde(default)]
    pub heights: Option<Vec<i32>>,
}

impl Fixture {
    /// An integer parameter.
    pub(crate) fn int(&self, key: &str) -> i32 {
        let v = self
            .params
            .get(key)
            .unwrap_or_else(|| panic!("{}: no param {key}", self.case));
        v.as_i64()
            .unwrap_or_else(|| panic!("{}: param {key} is not an integer", self.case))
            as i32
    }

    /// A boolean parameter.
    pub(crate) fn flag(&self, key: &str) -> bool {
        let v = self
            .params
            .get(key)
            .unwrap_or_else(|| panic!("{}: no param {key}", self.case));
        v.as_bool()
            .unwrap_or_else(|| panic!("{}: param {key} is not a bool", self.case))
    }
}

/// The fixture folder inside this crate.
pub(crate) fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hengband")
}

/// Every fixture, sorted by file name.
pub(crate) fn load_fixtures() -> Vec<Fixture> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
        .expect("fixture dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("index.json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("fixture readable");
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        })
        .collect()
}

/// The feature a fixture name stands for.
pub(crate) fn fixture_feature(name: &str) -> Feature {
    match name {
        "F1" => Feature::Floor,
        "F2" => Feature::DirtFloor,
        "F3" => Feature::MossFloor,
        "GRANITE" => Feature::Granite,
        "OUTER_WALL" => Feature::OuterWall,
        "DEEP_LAVA" => Feature::DeepLava,
        "SHALLOW_LAVA" => Feature::ShallowLava,
        "DEEP_WATER" => Feature::DeepWater,
        "SHALLOW_WATER" => Feature::ShallowWater,
        "RUBBLE" => Feature::Rubble,
        "GRASS" => Feature::Grass,
        "TREE" => Feature::Tree,
        other => panic!("unknown fixture feature {other}"),
    }
}

/// Replays a fixture's draw log: every call pops one entry and must match
/// its kind and `n` exactly (degenerate `n <= 1` calls included).
pub(crate) struct Replay {
    case: String,
    draws: VecDeque<(String, i32, i32)>,
    used: usize,
}

impl Replay {
    pub(crate) fn new(fixture: &Fixture) -> Self {
        Replay {
            case: fixture.case.clone(),
            draws: fixture.draws.iter().cloned().collect(),
            used: 0,
        }
    }

    /// How many entries were consumed.
    pub(crate) fn used(&self) -> usize {
        self.used
    }

    /// How many entries are left.
    pub(crate) fn left(&self) -> usize {
        self.draws.len()
    }

    fn pop(&mut self, kind: &str, n: Option<i32>) -> i32 {
        let at = self.used;
        let Some((k, logged_n, result)) = self.draws.pop_front() else {
            panic!(
                "{}: draw {at}: log exhausted, wanted {kind}({n:?})",
                self.case
            );
        };
        assert_eq!(
            k, kind,
            "{}: draw {at}: kind (n {n:?}, logged n {logged_n})",
            self.case
        );
        if let Some(n) = n {
            assert_eq!(logged_n, n, "{}: draw {at} ({kind}): n", self.case);
        }
        self.used += 1;
        result
    }
}

impl RandomSource for Replay {
    fn randint0(&mut self, n: i32) -> i32 {
        let r = self.pop("r0", Some(n));
        assert!(
            r >= 0 && (n <= 1 && r == 0 || r < n),
            "{}: r0({n}) logged {r}",
            self.case
        );
        r
    }

    fn randint1(&mut self, n: i32) -> i32 {
        let r = self.pop("r1", Some(n));
        assert!(
            n <= 1 && r == 1 || (1..=n).contains(&r),
            "{}: r1({n}) logged {r}",
            self.case
        );
        r
    }

    fn floor_terrain(&mut self) -> Feature {
        match self.pop("pf", Some(0)) {
            1 => Feature::Floor,
            2 => Feature::DirtFloor,
            3 => Feature::MossFloor,
            k => panic!("{}: pf result {k}", self.case),
        }
    }

    fn wall_terrain(&mut self) -> Feature {
        let k = self.pop("pw", Some(0));
        assert_eq!(k, 0, "{}: pw result", self.case);
        Feature::Granite
    }
}

/// A source that wraps another but makes the k-th floor pick return the
/// k-th floor kind cyclically (as the fixtures' harness does), so feat1 ≠
/// feat2 and the 74/26 mix is visible.
pub(crate) struct CyclingFloors<R> {
    pub inner: R,
    pub picks: usize,
}

impl<R: RandomSource> RandomSource for CyclingFloors<R> {
    fn randint0(&mut self, n: i32) -> i32 {
        self.inner.randint0(n)
    }
    fn randint1(&mut self, n: i32) -> i32 {
        self.inner.randint1(n)
    }
    fn floor_terrain(&mut self) -> Feature {
        let k = self.picks % 3;
        self.picks += 1;
        [Feature::Floor, Feature::DirtFloor, Feature::MossFloor][k]
    }
    fn wall_terrain(&mut self) -> Feature {
        self.inner.wall_terrain()
    }
}

/// Whether the heavier sweeps are switched on (`MANGEKYO_SLOW_TESTS=1`).
pub(crate) fn slow_tests() -> bool {
    std::env::var("MANGEKYO_SLOW_TESTS").is_ok_and(|v| v == "1")
}
