//! Planets as the server holds them: the stored record, its parameters
//! parsed and checked by the planet crate, the parameter hash that pins
//! URLs, and the built planet function, kept in memory per replica.
//!
//! Parameters are immutable (a planet is never edited, only deleted), so a
//! replica may keep a planet as long as it likes for URLs pinned by the
//! parameter hash; the short time-to-live only bounds how long a replica
//! keeps serving a planet another replica deleted.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use mangekyo_planet::params_json::MAX_SEED_BYTES;
use mangekyo_planet::tier::CoarseTier;
use mangekyo_planet::{ParamsJsonError, Planet, PlanetError, PlanetParams, Version};
use mangekyo_store::Store;
use quick_cache::sync::Cache;

use crate::content::Lifetime;
use crate::error::ApiError;
use crate::extract::Params;
use crate::generated::UNPINNED_SECONDS;

/// How long a replica trusts its copy of a planet record.
pub const PLANET_TTL: Duration = Duration::from_secs(10);

/// Planet records kept per replica (a record is a few hundred bytes; a
/// built planet holds its noise plans, a few KiB).
const PLANET_CACHE_ITEMS: usize = 4096;

/// A stored planet, ready to generate from.
#[derive(Debug)]
pub struct LoadedPlanet {
    /// The record from the store.
    pub record: mangekyo_store::Planet,
    /// The parameters, or why this build cannot generate them.
    params: Result<PlanetParams, ApiError>,
    /// `PlanetParams::content_hash` in hex: the `p` of pinned URLs.
    pub params_hash: String,
    built: OnceLock<Result<Arc<Planet>, ApiError>>,
}

impl LoadedPlanet {
    /// Parses and checks a record's parameters.
    pub fn new(record: mangekyo_store::Planet) -> LoadedPlanet {
        let params = parse_params(record.params.clone()).map_err(|e| unusable(&record, &e));
        let params_hash = match &params {
            Ok(p) => params_hash(p),
            Err(_) => String::new(),
        };
        LoadedPlanet {
            record,
            params,
            params_hash,
            built: OnceLock::new(),
        }
    }

    /// The parameters, if this build can generate them.
    pub fn params(&self) -> Result<&PlanetParams, ApiError> {
        self.params.as_ref().map_err(Clone::clone)
    }

    /// The planet function, built on first use (this is CPU work: call it
    /// from generation jobs, not from async code). It never holds a
    /// coarse tier: what samples a version that reads one samples through
    /// [`LoadedPlanet::sampler`] (sampling this one would compute the tier
    /// here, and keep it as long as the planet is cached).
    pub fn planet(&self) -> Result<Arc<Planet>, ApiError> {
        self.built
            .get_or_init(|| {
                let params = *self.params()?;
                Planet::new(params)
                    .map(Arc::new)
                    .map_err(|e| planet_error(&e))
            })
            .clone()
    }

    /// The planet function sampling with `tier`, what
    /// [`crate::tiers::ready_or_retry`] gave (`None` where samples read
    /// none). The tier stays with this use, never with the cached planet,
    /// so the tier cache alone decides how long a tier lives in memory.
    pub fn sampler(&self, tier: Option<&Arc<CoarseTier>>) -> Result<Arc<Planet>, ApiError> {
        let built = self.planet()?;
        match tier {
            None => Ok(built),
            Some(tier) => built
                .with_tier(Arc::clone(tier))
                .map(Arc::new)
                .map_err(|e| planet_error(&e)),
        }
    }

    /// The planet generator version it is generated with (its own), if
    /// this build can generate its parameters.
    pub fn version(&self) -> Result<Version, ApiError> {
        self.params().map(|p| p.generator_version)
    }

    /// The cache lifetime of a URL of this planet: immutable when it pins
    /// both a released generator version (`v`, the planet's own) and this
    /// planet's parameter hash (`p`), short when it pins neither or the
    /// version is unreleased (`v=next`: its bytes change between builds);
    /// a URL pinning other values names content this server cannot
    /// produce (404).
    pub fn lifetime(&self, query: &Params) -> Result<Lifetime, ApiError> {
        let version = self.version()?;
        // A number this build does not know (a newer server's version)
        // is content that cannot be produced here (404), not a bad URL.
        let v = match query.text("v") {
            None => None,
            Some("next") => Some("next".to_owned()),
            Some(_) => query
                .parse::<u32>("v", "a generator version: a number, or next")?
                .map(|n| n.to_string()),
        };
        let p = query.text("p");
        let gone = |parameter: &str, message: String, expected: String| ApiError {
            status: StatusCode::NOT_FOUND,
            code: "version_unavailable",
            message,
            parameter: Some(parameter.to_owned()),
            expected: Some(expected),
        };
        if let Some(v) = v.as_deref().filter(|&v| v != version.name()) {
            let message = format!(
                "planet {} is generated with planet generator version {version}; v={v} cannot be produced for it",
                self.record.id
            );
            return Err(gone("v", message, version.to_string()));
        }
        if let Some(p) = p.filter(|&p| p != self.params_hash) {
            let message = format!(
                "planet {} has parameter hash {}; the URL asks for p={p} (another planet, or another store)",
                self.record.id, self.params_hash
            );
            return Err(gone("p", message, self.params_hash.clone()));
        }
        Ok(if v.is_some() && p.is_some() && version.is_released() {
            Lifetime::Immutable
        } else {
            Lifetime::Seconds(UNPINNED_SECONDS)
        })
    }

    /// `?v=…&p=…` for this planet's pinned URLs.
    pub fn pin_query(&self) -> String {
        let version = self.version().map_or_else(|_| String::new(), |v| v.name());
        format!("v={version}&p={}", self.params_hash)
    }
}

/// The `p` of pinned URLs: the planet crate's content hash of the
/// parameters (their exact bits), in hex; equal on every replica.
pub(crate) fn params_hash(params: &PlanetParams) -> String {
    format!("{:016x}", params.content_hash())
}

/// Parses the parameters of a planet being created: as [`parse_params`],
/// but an object without `generator_version` makes a planet of the newest
/// version ([`Version::DEFAULT`]; stored records keep theirs). The planet
/// crate reads them ([`PlanetParams::from_new_json`]), as the CLI and the
/// WebAssembly package do, so one object is one planet everywhere.
pub fn parse_new_params(value: serde_json::Value) -> Result<PlanetParams, ApiError> {
    PlanetParams::from_new_json(value).map_err(|e| params_json_error(&e))
}

/// Parses a parameter object (omitted fields take the planet crate's
/// defaults; without `generator_version` it is version 1, what records
/// stored before versions existed mean) and checks it, naming the field at
/// fault as `params.<field>`.
pub fn parse_params(value: serde_json::Value) -> Result<PlanetParams, ApiError> {
    PlanetParams::from_json(value).map_err(|e| params_json_error(&e))
}

/// The planet crate's refusal of a parameter object as an HTTP answer.
fn params_json_error(err: &ParamsJsonError) -> ApiError {
    match err {
        ParamsJsonError::Malformed(_) => ApiError::malformed_body(err.to_string()),
        ParamsJsonError::NotObject(_) => {
            ApiError::invalid("params", err.to_string(), "a JSON object")
        }
        ParamsJsonError::SeedTooLong(_) => ApiError::invalid(
            "params.seed",
            err.to_string(),
            format!("at most {MAX_SEED_BYTES} bytes"),
        ),
        ParamsJsonError::Field { path, .. } => {
            ApiError::invalid(path, err.to_string(), "see PlanetParams in /openapi.json")
        }
        ParamsJsonError::Invalid(e) => planet_error(e),
    }
}

/// Deserialises a field that is present as `Some`, even when it is
/// `null` (serde's `Option` would make an explicit `null` look absent).
pub(crate) fn present<'de, D: serde::Deserializer<'de>>(
    de: D,
) -> Result<Option<serde_json::Value>, D::Error> {
    serde::Deserialize::deserialize(de).map(Some)
}

/// A planet crate refusal as an HTTP answer ([`ApiError::refused`]): the
/// parameter the planet crate names (`lod`, `cx`, `projection`, `layers`, …),
/// under `params.` for planet parameters, which requests carry in a
/// `params` object.
pub(crate) fn planet_error(err: &PlanetError) -> ApiError {
    if let PlanetError::Cancelled = err {
        return crate::cancel::cancelled();
    }
    let mut answer = ApiError::refused(err);
    if let PlanetError::Param(_) = err {
        answer.parameter = answer.parameter.map(|p| format!("params.{p}"));
    }
    answer
}

/// Why a stored planet cannot be generated by this build (409: the request
/// is fine, the stored planet is from another generator version).
fn unusable(record: &mangekyo_store::Planet, err: &ApiError) -> ApiError {
    ApiError {
        status: StatusCode::CONFLICT,
        code: "planet_unusable",
        message: format!(
            "planet {} was stored for planet generator version {} and this server (which generates {}) cannot use it: {}",
            record.id,
            record.generator_version,
            Version::expected(),
            err.message
        ),
        parameter: err.parameter.clone(),
        expected: err.expected.clone(),
    }
}

/// Recently read planets, by id.
#[derive(Debug)]
pub struct PlanetCache {
    cache: Cache<i64, (Arc<LoadedPlanet>, Instant)>,
}

impl Default for PlanetCache {
    fn default() -> PlanetCache {
        PlanetCache::new()
    }
}

impl PlanetCache {
    /// An empty cache.
    pub fn new() -> PlanetCache {
        PlanetCache {
            cache: Cache::new(PLANET_CACHE_ITEMS),
        }
    }

    /// The planet with `id`, from memory if read within [`PLANET_TTL`].
    pub async fn get(&self, store: &Store, id: i64) -> Result<Arc<LoadedPlanet>, ApiError> {
        if let Some((planet, at)) = self.cache.get(&id)
            && at.elapsed() < PLANET_TTL
        {
            return Ok(planet);
        }
        let record = store.get(id).await?.ok_or_else(|| no_planet(id))?;
        Ok(self.remember(record))
    }

    /// Wraps a record just read or created, and remembers it.
    pub fn remember(&self, record: mangekyo_store::Planet) -> Arc<LoadedPlanet> {
        let id = record.id;
        let planet = Arc::new(LoadedPlanet::new(record));
        self.cache.insert(id, (Arc::clone(&planet), Instant::now()));
        planet
    }

    /// Forgets `id` (after deleting it here).
    pub fn forget(&self, id: i64) {
        self.cache.remove(&id);
    }
}

/// 404 for a planet id that is not in the store.
pub(crate) fn no_planet(id: i64) -> ApiError {
    ApiError::not_found(format!("there is no planet {id}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parameters_are_checked_and_named() {
        let p = parse_params(json!({"seed": 7})).unwrap();
        assert_eq!((p.seed, p.radius), (7, PlanetParams::default().radius));
        let e = parse_params(json!({"radius": -5.0})).unwrap_err();
        assert_eq!(e.parameter.as_deref(), Some("params.radius"));
        let e = parse_params(json!({"radius": "big"})).unwrap_err();
        assert_eq!(e.parameter.as_deref(), Some("params.radius"));
        let e = parse_params(json!({"radus": 5})).unwrap_err();
        assert!(e.message.contains("radus"), "{}", e.message);
        let text = parse_params(json!({"seed": "terra"})).unwrap();
        assert_eq!(text.seed, mangekyo_core::Seed::parse("terra").value());
        assert_eq!(parse_params(json!({"seed": "42"})).unwrap().seed, 42);
        let e = parse_params(json!({"seed": "x".repeat(10_000)})).unwrap_err();
        assert_eq!(e.parameter.as_deref(), Some("params.seed"));
        assert_eq!(
            parse_params(json!({"generator_version": 2}))
                .unwrap()
                .generator_version,
            Version::V2
        );
        let e = parse_params(json!({"generator_version": 5})).unwrap_err();
        assert_eq!(e.parameter.as_deref(), Some("params.generator_version"));
        assert_eq!(
            parse_params(json!({})).unwrap().generator_version,
            Version::LEGACY
        );
        assert_eq!(
            parse_new_params(json!({})).unwrap().generator_version,
            Version::DEFAULT
        );
        let v3 = parse_new_params(json!({"generator_version": 3})).unwrap();
        assert_eq!(v3.generator_version, Version::V3);
        let v1 = parse_new_params(json!({"generator_version": 1})).unwrap();
        assert_eq!(v1.generator_version, Version::V1);
        let next = parse_new_params(json!({"generator_version": "next"})).unwrap();
        assert_eq!(next.generator_version, Version::Next);
        for (field, value) in [("graph_n", json!(8)), ("plate_count", json!(3))] {
            let e = parse_new_params(json!({ field: value })).unwrap_err();
            assert_eq!(e.parameter.unwrap(), format!("params.{field}"));
        }
    }

    fn record(version: Version) -> mangekyo_store::Planet {
        mangekyo_store::Planet {
            id: 3,
            name: "x".into(),
            params: serde_json::to_value(PlanetParams {
                generator_version: version,
                ..PlanetParams::default()
            })
            .unwrap(),
            generator_version: version.code(),
            created_at_ms: 0,
            owner: None,
        }
    }

    #[test]
    fn pins_decide_lifetimes() {
        let planet = LoadedPlanet::new(record(Version::V1));
        let q = |pairs: &[(&str, &str)]| Params::from_pairs("query", pairs);
        let v = Version::V1.name();
        let p = planet.params_hash.clone();
        assert_eq!(
            planet.lifetime(&q(&[("v", &v), ("p", &p)])).unwrap(),
            Lifetime::Immutable
        );
        assert_eq!(
            planet.lifetime(&q(&[])).unwrap(),
            Lifetime::Seconds(UNPINNED_SECONDS)
        );
        let stale = planet
            .lifetime(&q(&[("v", &v), ("p", "0000")]))
            .unwrap_err();
        assert_eq!(
            (stale.status, stale.parameter.as_deref()),
            (StatusCode::NOT_FOUND, Some("p"))
        );
        assert!(planet.lifetime(&q(&[("v", "999"), ("p", &p)])).is_err());
        assert!(planet.lifetime(&q(&[("v", "next"), ("p", &p)])).is_err());
        // The unreleased version is pinned like any other, but its bytes
        // change between builds: never immutable.
        let next = LoadedPlanet::new(record(Version::Next));
        let p = next.params_hash.clone();
        assert_eq!(next.pin_query(), format!("v=next&p={p}"));
        assert_eq!(
            next.lifetime(&q(&[("v", "next"), ("p", &p)])).unwrap(),
            Lifetime::Seconds(UNPINNED_SECONDS)
        );
        assert!(next.lifetime(&q(&[("v", "4"), ("p", &p)])).is_err());
    }

    #[test]
    fn records_from_other_versions_are_refused_by_name() {
        let mut params = serde_json::to_value(PlanetParams::default()).unwrap();
        params["generator_version"] = json!(11);
        let record = mangekyo_store::Planet {
            id: 9,
            name: "old".into(),
            params,
            generator_version: 11,
            created_at_ms: 0,
            owner: None,
        };
        let e = LoadedPlanet::new(record).params().unwrap_err();
        assert_eq!(
            (e.status, e.parameter.as_deref()),
            (StatusCode::CONFLICT, Some("params.generator_version"))
        );
        assert!(e.message.contains("planet 9"), "{}", e.message);
    }
}
