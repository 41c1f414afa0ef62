//! Planets as the server holds them: the stored record, its parameter
//! hash, kept in memory for a few seconds per replica.
//!
//! Parameters are immutable (a planet is never edited, only deleted), so a
//! replica may keep a planet as long as it likes for URLs pinned by the
//! parameter hash; the short time-to-live only bounds how long a replica
//! keeps serving a planet another replica deleted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mangekyo_store::{Planet, Store};
use quick_cache::sync::Cache;
use xxhash_rust::xxh3::xxh3_64;

use crate::error::ApiError;

/// How long a replica trusts its copy of a planet record.
pub const PLANET_TTL: Duration = Duration::from_secs(10);

/// Planet records kept per replica (they are a few hundred bytes each).
const PLANET_CACHE_ITEMS: usize = 10_000;

/// A stored planet and its parameter hash.
#[derive(Debug)]
pub struct LoadedPlanet {
    /// The record from the store.
    pub record: Planet,
    /// [`params_hash`] of the record's parameters.
    pub params_hash: String,
}

/// The hash that pins a planet's parameters in URLs: 64-bit xxh3 of the
/// canonical JSON text, in hex, so equal parameters hash equally on every
/// replica.
pub fn params_hash(params: &serde_json::Value) -> String {
    let mut text = String::new();
    canonical_json(params, &mut text);
    format!("{:016x}", xxh3_64(text.as_bytes()))
}

/// Compact JSON with object keys sorted at every level. serde_json sorts
/// keys already unless some crate in the build turns on its
/// `preserve_order` feature; this does not depend on that.
fn canonical_json(value: &serde_json::Value, out: &mut String) {
    match value {
        serde_json::Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::Value::String(key.clone()).to_string());
                out.push(':');
                canonical_json(v, out);
            }
            out.push('}');
        }
        serde_json::Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical_json(v, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
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
        let record = store
            .get(id)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("there is no planet {id}")))?;
        let planet = Arc::new(self.load(record));
        self.cache.insert(id, (Arc::clone(&planet), Instant::now()));
        Ok(planet)
    }

    /// Wraps a record just read or created, and remembers it.
    pub fn load(&self, record: Planet) -> LoadedPlanet {
        let params_hash = params_hash(&record.params);
        LoadedPlanet {
            record,
            params_hash,
        }
    }

    /// Forgets `id` (after deleting it here).
    pub fn forget(&self, id: i64) {
        self.cache.remove(&id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_parameters_hash_equally_whatever_the_key_order() {
        let a: serde_json::Value = serde_json::from_str(r#"{"seed": 1, "radius": 2.5}"#).unwrap();
        let b: serde_json::Value = serde_json::from_str(r#"{"radius": 2.5, "seed": 1}"#).unwrap();
        assert_eq!(params_hash(&a), params_hash(&b));
        assert_ne!(
            params_hash(&a),
            params_hash(&serde_json::json!({"seed": 2, "radius": 2.5}))
        );
        assert_eq!(params_hash(&a).len(), 16);
        let mut text = String::new();
        canonical_json(
            &serde_json::json!({"b": [1, {"d": 1, "c": 2}], "a": "x"}),
            &mut text,
        );
        assert_eq!(text, r#"{"a":"x","b":[1,{"c":2,"d":1}]}"#);
    }
}
