//! The validated definitions an island is generated from: axes, location
//! types, generation scopes and localisation, beside the object defs
//! (`mangekyo-defs`, the world engine's) they refer to.
//!
//! Built only by [`crate::DefinitionsLoader`] (or [`crate::load_definitions`]),
//! so a [`Definitions`] value always has its cross-references resolved and
//! its scopes' guarantees checked feasible.

mod localize;
mod parse;
mod parse_types;
mod resolve;

pub mod load;

pub use localize::{DEFAULT_ORDINAL_PATTERN, Language, Localization, TypeNames};
pub use parse::MAX_AXIS_LEVELS;
pub use parse_types::{MAX_SITE_COUNT, MIN_SITE_COUNT};
pub use resolve::MAX_COVERAGE_POINTS;

use mangekyo_defs::{ObjectDef, Origin, interact};
use std::collections::BTreeMap;

/// The axis whose values the coast band clamps (see [`CoastDef`]). The name
/// is special because the scope's `coast` section refers to it implicitly.
pub const COASTAL_DISTANCE_AXIS: &str = "coastal_distance";

/// The quantisation grid of an axis: values are `min + k·step`, `min..=max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisRange {
    /// Lowest value.
    pub min: f64,
    /// Highest value; `max - min` is a whole number of steps.
    pub max: f64,
    /// Grid spacing, > 0.
    pub step: f64,
}

impl AxisRange {
    /// `max - min`, > 0.
    pub fn span(&self) -> f64 {
        self.max - self.min
    }

    /// The number of grid steps from `min` to `max`.
    pub fn levels(&self) -> u64 {
        (self.span() / self.step).round() as u64
    }

    /// The grid value `min + k·step`, tidied to 9 decimals so that steps like
    /// 0.1 print as designers wrote them.
    pub fn level_value(&self, k: u64) -> f64 {
        let v = self.min + k as f64 * self.step;
        (v * 1e9).round() / 1e9
    }

    /// Maps `t` in `[0, 1]` onto the nearest grid value.
    pub fn quantise(&self, t: f64) -> f64 {
        let k = (t.clamp(0.0, 1.0) * self.levels() as f64).round() as u64;
        self.level_value(k.min(self.levels()))
    }

    /// The largest grid value `<= v` (clamped into the range).
    pub fn floor_to_grid(&self, v: f64) -> f64 {
        let k = ((v - self.min) / self.step + 1e-9).floor().max(0.0) as u64;
        self.level_value(k.min(self.levels()))
    }
}

/// One layer of an axis: a value in `[0, 1]` per site and a weight.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerDef {
    /// Weight in the axis's weighted mean, > 0.
    pub weight: f64,
    /// What the layer samples.
    pub kind: LayerKind,
}

/// What a [`LayerDef`] samples.
#[derive(Clone, Debug, PartialEq)]
pub enum LayerKind {
    /// `1 - r / ISLAND_RADIUS`: high in the middle, low at the shore.
    DistanceField,
    /// Fractal value noise (fBm) mapped from `[-1, 1]` to `[0, 1]`.
    LayeredNoise {
        /// Mixed into the seed so two noise layers differ.
        seed_offset: u64,
        /// fBm octaves, 1..=16.
        octaves: u32,
        /// Base frequency in cycles per island radius, > 0.
        frequency: f64,
    },
}

/// An axis: a value every site gets.
#[derive(Clone, Debug, PartialEq)]
pub struct AxisDef {
    /// Its name.
    pub name: String,
    /// The grid values snap to.
    pub range: AxisRange,
    /// Weighted mean of these, in order.
    pub layers: Vec<LayerDef>,
    /// Where it was defined.
    pub origin: Origin,
}

/// A type's ideal value on one axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisPreference {
    /// The ideal value.
    pub value: f64,
    /// Its weight in the normalised distance, > 0.
    pub weight: f64,
}

/// Inclusive bounds a site must satisfy on one axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HardLimit {
    /// Lowest allowed value, if any.
    pub min: Option<f64>,
    /// Highest allowed value, if any.
    pub max: Option<f64>,
}

impl HardLimit {
    /// Whether `v` lies within the bounds.
    pub fn admits(&self, v: f64) -> bool {
        self.min.is_none_or(|m| v >= m) && self.max.is_none_or(|m| v <= m)
    }
}

/// A variant of a location type: told apart by name and property values.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantDef {
    /// Its id, unique within the type.
    pub id: String,
    /// Property values written into the spawned location.
    pub props: BTreeMap<String, f64>,
}

/// A kind of place sites can become.
#[derive(Clone, Debug, PartialEq)]
pub struct LocationTypeDef {
    /// Its name.
    pub name: String,
    /// The object def a site of this type spawns as (kind `location`).
    pub object_def: String,
    /// Ideal point, by axis name (never empty).
    pub preferences: BTreeMap<String, AxisPreference>,
    /// Bounds, by axis name.
    pub hard_limits: BTreeMap<String, HardLimit>,
    /// `Some(priority)` if the type may take sites no type accepts.
    pub fallback: Option<i64>,
    /// Variants, in declaration order.
    pub variants: Vec<VariantDef>,
    /// Where it was defined.
    pub origin: Origin,
}

impl LocationTypeDef {
    /// Whether the site's axis values satisfy every hard limit.
    pub fn admits(&self, axes: &BTreeMap<String, f64>) -> bool {
        self.hard_limits
            .iter()
            .all(|(axis, lim)| axes.get(axis).is_some_and(|&v| lim.admits(v)))
    }
}

/// Which end of an axis a guarantee prefers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prefer {
    /// Smallest values first.
    Lowest,
    /// Largest values first.
    Highest,
}

/// The order in which a guarantee considers sites.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderBy {
    /// The axis sites are sorted by.
    pub axis: String,
    /// Which end comes first.
    pub prefer: Prefer,
}

/// "At least `count` sites of `location_type`", absolute.
#[derive(Clone, Debug, PartialEq)]
pub struct Guarantee {
    /// The guaranteed type.
    pub location_type: String,
    /// How many, >= 1.
    pub count: u32,
    /// Site order; `None` means site id order.
    pub order_by: Option<OrderBy>,
}

/// The coast band rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoastDef {
    /// Clamp coast-ring sites' `coastal_distance` to the band.
    pub clamp_ring_sites: bool,
    /// The band's largest `coastal_distance`.
    pub band_max_distance: f64,
}

/// How elevation becomes metres.
#[derive(Clone, Debug, PartialEq)]
pub struct ElevationDef {
    /// The elevation axis.
    pub axis: String,
    /// Metres at the axis maximum.
    pub top_meters: f64,
}

/// One explore action.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExploreDef {
    /// Minutes one explore takes, >= 1.
    pub minutes: u32,
    /// Progress one explore adds, > 0.
    pub progress: f64,
}

/// Sea routes: the boats' lines between sites of one location type (the
/// scope key `sea_routes`). Which pairs are linked is a pure function of
/// the map ([`crate::generate::sea::sea_routes`]); the spawner makes two
/// paths of `path` per route, as it does per edge of the path network.
#[derive(Clone, Debug, PartialEq)]
pub struct SeaRoutesDef {
    /// The location type whose sites are linked (`between`).
    pub between: String,
    /// The object def each route spawns as (kind `path`).
    pub path: String,
    /// Each site links to this many nearest others (by sea); `None`: to
    /// every other.
    pub nearest: Option<u32>,
    /// Boat speed: the metres of a route become its `travel_minutes` in
    /// whole steps of the walking time's grain.
    pub meters_per_minute: f64,
}

/// A generation scope: everything one kind of island needs.
#[derive(Clone, Debug, PartialEq)]
pub struct ScopeDef {
    /// Its name.
    pub name: String,
    /// Inclusive bounds of the site count.
    pub site_count: (u32, u32),
    /// Metres per abstract distance unit (the island radius is 1 unit).
    pub meters_per_distance_unit: f64,
    /// The elevation axis and its top.
    pub elevation: ElevationDef,
    /// A non-MST edge is re-added when the network's path is longer than
    /// its direct length times this (>= 1).
    pub extra_edge_detour_threshold: f64,
    /// Score multiplier per existing site of the same type (>= 0).
    pub crowding_penalty_per_duplicate: f64,
    /// Soft cap of sites per type.
    pub max_sites_per_type: Option<u32>,
    /// Coast band rule, if any.
    pub coast: Option<CoastDef>,
    /// Guarantees, in declaration order.
    pub guarantees: Vec<Guarantee>,
    /// Start-site preference: first type present wins.
    pub start: Vec<String>,
    /// Object def of the explorer (kind `character`).
    pub player: String,
    /// Object def every path spawns from (kind `path`).
    pub path: String,
    /// Boats between sites of one type, if the scope has any.
    pub sea_routes: Option<SeaRoutesDef>,
    /// One explore action.
    pub explore: ExploreDef,
    /// How a game ends, checked in order after every action.
    pub endings: Vec<interact::EndingDef>,
    /// How the statistics bot plays, if the designer gave it weights.
    pub bot: Option<interact::BotDef>,
    /// Where it was defined.
    pub origin: Origin,
}

impl ScopeDef {
    /// The search step the path-discovery statistics model (the spec's
    /// scope key `explore`); the game itself runs whatever interaction the
    /// object defs declare.
    pub fn discovery_step(&self) -> ExploreDef {
        self.explore
    }

    /// Metres per elevation-axis unit: `top_meters / (max - min)` of the
    /// elevation axis (the guide's `metersPerElevationUnit`).
    pub fn meters_per_elevation_unit(&self, defs: &Definitions) -> f64 {
        let span = defs.axes[&self.elevation.axis].range.span();
        self.elevation.top_meters / span
    }
}

/// The whole, validated definition set.
#[derive(Clone, Debug, PartialEq)]
pub struct Definitions {
    pub(crate) object_defs: BTreeMap<String, ObjectDef>,
    pub(crate) axes: BTreeMap<String, AxisDef>,
    pub(crate) location_types: BTreeMap<String, LocationTypeDef>,
    pub(crate) scopes: BTreeMap<String, ScopeDef>,
    pub(crate) localization: Localization,
}

impl Definitions {
    /// Object defs by name.
    pub fn object_defs(&self) -> &BTreeMap<String, ObjectDef> {
        &self.object_defs
    }
    /// Axes by name.
    pub fn axes(&self) -> &BTreeMap<String, AxisDef> {
        &self.axes
    }
    /// Location types by name.
    pub fn location_types(&self) -> &BTreeMap<String, LocationTypeDef> {
        &self.location_types
    }
    /// Generation scopes by name.
    pub fn scopes(&self) -> &BTreeMap<String, ScopeDef> {
        &self.scopes
    }
    /// One scope, or a [`crate::GenerateError::UnknownScope`].
    pub fn scope(&self, name: &str) -> Result<&ScopeDef, crate::GenerateError> {
        self.scopes
            .get(name)
            .ok_or_else(|| crate::GenerateError::UnknownScope {
                name: name.to_string(),
                known: self.scopes.keys().cloned().collect::<Vec<_>>().join(", "),
            })
    }
    /// Translations.
    pub fn localization(&self) -> &Localization {
        &self.localization
    }
    /// `Ok` when `scope` names a generation scope and `lang` a language
    /// of these definitions; the CLI and the server both refuse the rest
    /// with this one message. A set without a `localization` block takes
    /// any `lang`: it has no language to choose, and every name falls back
    /// to its identifier (as [`Localization::label`] does), which `check`
    /// reports as a finding, not an error.
    pub fn check_scope_and_lang(&self, scope: &str, lang: &str) -> Result<(), UnknownChoice> {
        let choose = |parameter, got: &str, known: Vec<&String>| {
            if known.iter().any(|k| k.as_str() == got) {
                Ok(())
            } else {
                Err(UnknownChoice {
                    parameter,
                    got: got.to_owned(),
                    known: known.into_iter().cloned().collect(),
                })
            }
        };
        choose("scope", scope, self.scopes.keys().collect())?;
        let languages = self.localization.languages();
        if languages.is_empty() {
            return Ok(());
        }
        choose("lang", lang, languages.keys().collect())
    }
}

/// A scope or language the definitions do not have.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{parameter} must be one of {}, got {got:?}", known.join(", "))]
pub struct UnknownChoice {
    /// The parameter: `scope` or `lang`.
    pub parameter: &'static str,
    /// The value given.
    pub got: String,
    /// The values the definitions have, sorted.
    pub known: Vec<String>,
}
