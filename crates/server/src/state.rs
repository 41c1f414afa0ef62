//! What every handler shares: the store, the caches, the compute gate,
//! the metrics and the limits.

use std::sync::Arc;

use mangekyo_store::Store;

use crate::access::{Access, Usage};
use crate::cache::ContentCache;
use crate::limits::{ComputeGate, Limits};
use crate::metrics::Metrics;
use crate::openapi::OpenApiJson;
use crate::planets::PlanetCache;
use crate::public_url::PublicUrl;
use crate::tiers::Tiers;

/// The shared state; cloning is cheap.
#[derive(Debug, Clone)]
pub struct AppState(Arc<Inner>);

/// The parts of [`AppState`].
#[derive(Debug)]
pub struct Inner {
    /// The planet store.
    pub store: Store,
    /// Planets read from the store, kept briefly.
    pub planets: PlanetCache,
    /// Generated responses.
    pub content: ContentCache,
    /// Where generation runs.
    pub gate: ComputeGate,
    /// Planets' coarse tiers.
    pub(crate) tiers: Tiers,
    /// The metrics registry.
    pub metrics: Arc<Metrics>,
    /// The limits in force.
    pub limits: Limits,
    /// The OpenAPI document, serialised once.
    pub openapi: OpenApiJson,
    /// Who may do what.
    pub access: Access,
    /// What each token has used of its quotas.
    pub(crate) usage: Usage,
    /// The base of absolute URLs (`--public-url`); without it they are
    /// built from checked request headers (`public_url.rs`).
    pub public_url: Option<PublicUrl>,
}

impl AppState {
    /// State over an open store, serving `openapi` as its document.
    pub fn new(
        store: Store,
        limits: Limits,
        openapi: OpenApiJson,
        access: Access,
        public_url: Option<PublicUrl>,
    ) -> AppState {
        let metrics = Arc::new(Metrics::new());
        AppState(Arc::new(Inner {
            store,
            planets: PlanetCache::new(),
            content: ContentCache::new(limits.cache_bytes, Arc::clone(&metrics)),
            gate: ComputeGate::new(&limits, Arc::clone(&metrics)),
            tiers: Tiers::new(
                limits.tier_cache_bytes,
                limits.tier_computes,
                Arc::clone(&metrics),
            ),
            metrics,
            limits,
            openapi,
            access,
            usage: Usage::default(),
            public_url,
        }))
    }
}

impl std::ops::Deref for AppState {
    type Target = Inner;

    fn deref(&self) -> &Inner {
        &self.0
    }
}
