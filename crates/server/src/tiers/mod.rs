//! Each version-2 planet's coarse tier (T1, `mangekyo_planet::tier`):
//! computed once per key on this replica (single-flight), kept in memory
//! under a byte cap (least recently used first out), and persisted in the
//! store as a blob so restarts and other replicas load it instead.
//!
//! Memory: the tiers live here only (requests borrow one for as long as
//! they sample, the cached planet functions never hold one), in one cache
//! shard of `tier_cache_bytes`, the tier cap. Computing a tier holds about
//! nine times the tier it keeps (`CoarseTier::estimated_work_bytes`), and
//! that working memory counts against the same cap: running computations
//! may hold up to three quarters of it together (`schedule.rs` starts the
//! next only when its work fits), and the cache shrinks by what they hold
//! while they run, evicting the least recently used tiers. So kept tiers
//! and working memory together stay under the cap, and a planet whose
//! computation alone would not fit is refused at creation
//! ([`Tiers::check_fits`]). A tier from elsewhere heavier than the cache
//! keeps (a planet created where the cap is higher) is computed alone and
//! kept alone in a slot of its own, the most recent such tier.
//!
//! The tier is a cache of a pure function: whichever replica computes or
//! loads it, it is the same bytes (its blob carries its own hash, checked
//! on load), and deleting it changes no chunk. Work runs in the
//! background, detached from the request that started it: `POST` answers
//! `202` with a status link while it runs, and a request that needs it
//! waits a bounded time, then gets `503` with `Retry-After`.
//!
//! Computations run at most `tier_computes` at once, the waiting ones in
//! order of demand, then fairly across clients (`schedule.rs`). Each run
//! knows which planets want it: when the last of them is deleted it leaves
//! the waiting list, or stops at its next row if running, and nothing of
//! it is kept or stored.

mod deleted;
mod schedule;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mangekyo_core::noise::Level;
use mangekyo_planet::tier::CoarseTier;
use mangekyo_planet::{GRAPH_N_RANGE, PlanetParams};
use mangekyo_store::Store;
use quick_cache::Weighter;
use quick_cache::sync::Cache;
use serde::Serialize;
use tokio::sync::watch;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::planets::LoadedPlanet;
use deleted::Deleted;
use schedule::{Schedule, Ticket};

/// Longest `Retry-After` advised, seconds.
const MAX_RETRY_AFTER_S: u64 = 60;

/// Share of the cache's bytes one entry may take (quick_cache refuses an
/// entry heavier than its hot region; its default share).
const HOT_ALLOCATION: f64 = 0.97;

/// Share of the tier cap that running computations may hold together
/// (`CoarseTier::estimated_work_bytes` each): the cache shrinks by what
/// they hold, so kept tiers and working memory together stay under the
/// cap, and the rest of it keeps the most used tiers while they run.
const WORK_SHARE: u64 = 3;
const WORK_SHARE_OF: u64 = 4;

#[derive(Debug, Clone)]
struct TierWeight;

/// Bytes an entry costs beyond its tier's own.
const ENTRY_OVERHEAD: u64 = 64;

impl Weighter<u64, (Arc<CoarseTier>, Origin)> for TierWeight {
    fn weight(&self, _key: &u64, (tier, _): &(Arc<CoarseTier>, Origin)) -> u64 {
        tier.heap_bytes() as u64 + ENTRY_OVERHEAD
    }
}

/// Where one tier stands.
#[derive(Debug, Clone)]
enum Progress {
    Computing {
        since: Instant,
        rows_done: Arc<AtomicU32>,
        rows: u32,
    },
    Ready(Arc<CoarseTier>, Origin),
    Failed(ApiError),
}

/// Where a ready tier came from on this replica.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// Read back from the store (another replica or an earlier run made it).
    Loaded,
    /// Computed here.
    Computed,
}

/// A tier's state as the status route shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct TierStatus {
    /// `not_needed` (version 1 has no tier), `computing`, `ready` or
    /// `failed`.
    pub state: &'static str,
    /// Share of the work done, 0..=1 (computing), or 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<f64>,
    /// Seconds to wait before asking again (computing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_s: Option<u64>,
    /// Cells along a face edge of the sphere graph.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph_n: Option<u32>,
    /// The tier's cache key, hex (the blob's name in the store is `t1/` and this).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The blob's own hash, hex: equal on every replica.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blob_hash: Option<String>,
    /// Ready: `loaded` from the store or `computed` on this replica.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<&'static str>,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What a request that needs a tier gets.
#[derive(Debug)]
pub(crate) enum Wait {
    /// The tier.
    Ready(Arc<CoarseTier>),
    /// Still computing after the wait: retry after this many seconds.
    Later(u64),
}

/// The coarse tiers of this replica. Dropping it (the server's state)
/// stops the computations still running.
#[derive(Debug)]
pub(crate) struct Tiers(Arc<Shared>);

/// What the background work shares with [`Tiers`].
#[derive(Debug)]
struct Shared {
    /// The kept tiers; its capacity is the cap less what running
    /// computations hold.
    memory: Arc<Cache<u64, (Arc<CoarseTier>, Origin), TierWeight>>,
    /// The tier cap: kept tiers and working memory together, bytes.
    capacity: u64,
    /// Bytes running computations may hold together.
    work_budget: u64,
    /// Weight of the heaviest entry `memory` keeps.
    largest: u64,
    /// The most recent tier heavier than `largest`: kept alone, so a planet
    /// created with a larger cap is still served (status `ready` stays
    /// ready) instead of being loaded again on every request.
    oversized: Mutex<Option<(u64, Arc<CoarseTier>, Origin)>>,
    running: Mutex<Runs>,
    /// When the waiting computations run.
    schedule: Arc<Schedule>,
    /// Set when the server stops: running computations give up.
    closed: Arc<AtomicBool>,
    /// (planet id, key) pairs whose use this replica has recorded in the
    /// store (see [`Shared::note_use`]).
    noted: Mutex<HashSet<(i64, u64)>>,
    metrics: Arc<Metrics>,
}

/// The tiers being loaded or computed, by key, and the planets deleted
/// lately.
#[derive(Debug, Default)]
struct Runs {
    by_key: BTreeMap<u64, Run>,
    deleted: Deleted,
}

/// One tier being loaded or computed.
#[derive(Debug)]
struct Run {
    /// Its place in the schedule.
    ticket: u64,
    rx: watch::Receiver<Progress>,
    /// The planets that asked for it and are not deleted: the run is
    /// cancelled when the last goes.
    wanted: BTreeSet<i64>,
    /// Set when cancelled: it stops at its next row and keeps nothing.
    cancelled: Arc<AtomicBool>,
}

/// Who asks for a tier: a request that needs it (a chunk, a status poll)
/// is demand, which the schedule serves first; the `POST` that creates a
/// planet is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ask {
    Created,
    Needed,
}

impl Tiers {
    /// Tiers kept up to `capacity_bytes` in memory, `computes` computed at
    /// once (at least one), counted in `metrics`.
    pub(crate) fn new(capacity_bytes: u64, computes: usize, metrics: Arc<Metrics>) -> Tiers {
        // Tiers weigh about 10 MB at the default N: few entries.
        let items = usize::try_from((capacity_bytes / (1 << 20)).clamp(4, 4096)).unwrap_or(4);
        let capacity = capacity_bytes.max(1);
        // One shard: quick_cache splits the bytes between its shards and
        // refuses an entry heavier than its shard's share, so with the
        // default split a 150 MB tier never stayed in a 512 MiB cache.
        // Tiers are looked up once per request: one lock is no contention.
        let options = quick_cache::OptionsBuilder::new()
            .estimated_items_capacity(items)
            .weight_capacity(capacity)
            .hot_allocation(HOT_ALLOCATION)
            .shards(1)
            .build()
            .unwrap_or_else(|e| unreachable!("complete cache options: {e:?}"));
        let memory = Arc::new(Cache::with_options(
            options,
            TierWeight,
            quick_cache::DefaultHashBuilder::default(),
            quick_cache::sync::DefaultLifecycle::default(),
        ));
        let work_budget = Self::work_budget(capacity);
        // Working memory comes out of the cache's room (least recently
        // used tiers leave first) and goes back when the work ends.
        let cache = Arc::clone(&memory);
        let schedule = Schedule::new(computes, work_budget, move |held| {
            cache.set_capacity(capacity.saturating_sub(held).max(1));
        });
        Tiers(Arc::new(Shared {
            memory,
            capacity,
            work_budget,
            largest: Self::largest_entry(capacity),
            oversized: Mutex::new(None),
            running: Mutex::new(Runs::default()),
            schedule,
            closed: Arc::new(AtomicBool::new(false)),
            noted: Mutex::new(HashSet::new()),
            metrics,
        }))
    }

    /// Weight of the heaviest tier a cache of `capacity` bytes keeps.
    fn largest_entry(capacity: u64) -> u64 {
        ((capacity as f64 * HOT_ALLOCATION) as u64).max(1)
    }

    /// Bytes computations may hold together under a cap of `capacity`.
    fn work_budget(capacity: u64) -> u64 {
        capacity / WORK_SHARE_OF * WORK_SHARE
    }

    /// Refuses parameters whose coarse tier, or its computation's
    /// working memory, would not fit in this replica's tier cap, naming
    /// `graph_n`, the memory it needs and the largest `graph_n` that fits.
    pub(crate) fn check_fits(&self, params: &PlanetParams) -> Result<(), ApiError> {
        let version = params.generator_version;
        if !version.has_plates() {
            return Ok(());
        }
        let shared = &self.0;
        let fits = |n: u32| {
            CoarseTier::estimated_heap_bytes(version, n) + ENTRY_OVERHEAD <= shared.largest
                && CoarseTier::estimated_work_bytes(version, n) <= shared.work_budget
        };
        if fits(params.graph_n) {
            return Ok(());
        }
        let mib = |b: u64| b.div_ceil(1 << 20);
        let message = format!(
            "graph_n {} makes a coarse tier of about {} MiB, whose computation holds about {} MiB \
             at its peak: more than this server's tier memory allows (computations may hold {} MiB \
             of the {} MiB tier cap, the rest keeps tiers; the operator sets it with \
             --tier-cache-mib)",
            params.graph_n,
            mib(CoarseTier::estimated_heap_bytes(version, params.graph_n)),
            mib(CoarseTier::estimated_work_bytes(version, params.graph_n)),
            shared.work_budget >> 20,
            shared.capacity >> 20,
        );
        let expected = match GRAPH_N_RANGE.clone().rev().find(|&n| fits(n)) {
            Some(n) => format!("graph_n at most {n} on this server"),
            None => {
                "a version without a coarse tier (this server's tier cache is too small for any)"
                    .to_owned()
            }
        };
        Err(ApiError::invalid("params.graph_n", message, expected))
    }

    /// The status of `planet`'s tier, starting its work if nothing has (a
    /// request asking is demand: see `schedule.rs`).
    pub(crate) fn status(
        &self,
        store: &Store,
        planet: &Arc<LoadedPlanet>,
    ) -> Result<TierStatus, ApiError> {
        self.status_as(store, planet, Ask::Needed)
    }

    fn status_as(
        &self,
        store: &Store,
        planet: &Arc<LoadedPlanet>,
        ask: Ask,
    ) -> Result<TierStatus, ApiError> {
        let params = *planet.params()?;
        if !params.generator_version.has_plates() {
            return Ok(TierStatus {
                state: "not_needed",
                progress: None,
                retry_after_s: None,
                graph_n: None,
                key: None,
                blob_hash: None,
                origin: None,
                error: None,
            });
        }
        let key = CoarseTier::key(&params);
        let (progress, _) = self.0.progress(store, planet, key, ask)?;
        let base = TierStatus {
            state: "computing",
            progress: None,
            retry_after_s: None,
            graph_n: Some(params.graph_n),
            key: Some(format!("{key:016x}")),
            blob_hash: None,
            origin: None,
            error: None,
        };
        Ok(match progress {
            Progress::Ready(tier, origin) => TierStatus {
                state: "ready",
                progress: Some(1.0),
                blob_hash: Some(format!("{:016x}", tier.hash())),
                origin: Some(match origin {
                    Origin::Loaded => "loaded",
                    Origin::Computed => "computed",
                }),
                ..base
            },
            Progress::Failed(e) => TierStatus {
                state: "failed",
                error: Some(e.message),
                ..base
            },
            p @ Progress::Computing { .. } => TierStatus {
                progress: Some(fraction(&p)),
                retry_after_s: Some(retry_after(&p)),
                ..base
            },
        })
    }

    /// What `POST /v1/planets` does with a new planet's tier: starts it
    /// (no demand yet: see `schedule.rs`), waits up to `wait` for it, and
    /// says where it stands.
    pub(crate) async fn start(
        &self,
        store: &Store,
        planet: &Arc<LoadedPlanet>,
        wait: Duration,
    ) -> Result<(Result<Wait, ApiError>, TierStatus), ApiError> {
        let waited = self.wait_as(store, planet, wait, Ask::Created).await;
        Ok((waited, self.status_as(store, planet, Ask::Created)?))
    }

    /// `planet`'s tier, waiting up to `wait` for it (starting its work if
    /// nothing has; a request waiting is demand). A failed computation is
    /// an error; the next request tries again.
    pub(crate) async fn wait(
        &self,
        store: &Store,
        planet: &Arc<LoadedPlanet>,
        wait: Duration,
    ) -> Result<Wait, ApiError> {
        self.wait_as(store, planet, wait, Ask::Needed).await
    }

    async fn wait_as(
        &self,
        store: &Store,
        planet: &Arc<LoadedPlanet>,
        wait: Duration,
        ask: Ask,
    ) -> Result<Wait, ApiError> {
        let shared = &self.0;
        let key = CoarseTier::key(planet.params()?);
        if let Some((tier, _)) = shared.get(key) {
            shared.note_use(store, planet, key);
            return Ok(Wait::Ready(tier));
        }
        let (now, rx) = shared.progress(store, planet, key, ask)?;
        let Some(mut rx) = rx else {
            // Ready by the time it was looked for again.
            return match now {
                Progress::Ready(tier, _) => Ok(Wait::Ready(tier)),
                _ => Ok(Wait::Later(1)),
            };
        };
        let settled = tokio::time::timeout(wait, async {
            loop {
                let now = rx.borrow_and_update().clone();
                match now {
                    Progress::Ready(tier, _) => return Ok(tier),
                    Progress::Failed(e) => return Err(e),
                    Progress::Computing { .. } => {}
                }
                if rx.changed().await.is_err() {
                    return Err(ApiError::internal(
                        "computing a coarse tier",
                        &"the computation ended without a result",
                    ));
                }
            }
        })
        .await;
        match settled {
            Ok(Ok(tier)) => {
                // Another planet's run may have made it: record this one's use.
                shared.note_use(store, planet, key);
                Ok(Wait::Ready(tier))
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Ok(Wait::Later(retry_after(&rx.borrow()))),
        }
    }

    /// Stops running computations (the server is shutting down).
    pub(crate) fn close(&self) {
        self.0.closed.store(true, Ordering::Relaxed);
    }

    /// Planet `id` was deleted: a tier no other live planet asked for
    /// leaves the waiting list, or stops at its next row if computing, and
    /// nothing of it is kept or stored; a later planet with the same
    /// parameters starts afresh.
    pub(crate) fn forget_planet(&self, id: i64) {
        let shared = &self.0;
        let mut cancelled = Vec::new();
        {
            let mut runs = shared.lock();
            runs.deleted.insert(id);
            // Flagged and withdrawn under the lock: a request arriving
            // after this finds no run and starts a fresh one.
            runs.by_key.retain(|&key, run| {
                run.wanted.remove(&id);
                if !run.wanted.is_empty() {
                    return true;
                }
                run.cancelled.store(true, Ordering::Relaxed);
                shared.schedule.withdraw(run.ticket);
                cancelled.push(key);
                false
            });
        }
        for key in cancelled {
            shared.metrics.tier_cancelled();
            tracing::info!(
                key = format_args!("{key:016x}"),
                planet = id,
                "coarse tier cancelled: its planets were deleted"
            );
        }
        shared.noted_lock().retain(|&(planet, _)| planet != id);
    }
}

impl Shared {
    /// The tier `key` if this replica keeps it.
    fn get(&self, key: u64) -> Option<(Arc<CoarseTier>, Origin)> {
        if let Some(kept) = self.memory.get(&key) {
            return Some(kept);
        }
        match &*self.oversized_lock() {
            Some((k, tier, origin)) if *k == key => Some((Arc::clone(tier), *origin)),
            _ => None,
        }
    }

    /// Keeps a tier just loaded or computed: in the cache, or alone in the
    /// oversized slot when heavier than the cache keeps (the previous one
    /// there is dropped).
    fn keep(&self, key: u64, tier: &Arc<CoarseTier>, origin: Origin) {
        if TierWeight.weight(&key, &(Arc::clone(tier), origin)) <= self.largest {
            self.memory.insert(key, (Arc::clone(tier), origin));
        } else {
            tracing::warn!(
                key = format_args!("{key:016x}"),
                bytes = tier.heap_bytes(),
                largest = self.largest,
                "coarse tier heavier than the tier cache keeps: held alone in the oversized slot"
            );
            *self.oversized_lock() = Some((key, Arc::clone(tier), origin));
        }
    }

    fn oversized_lock(&self) -> std::sync::MutexGuard<'_, Option<(u64, Arc<CoarseTier>, Origin)>> {
        self.oversized
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Runs> {
        // A panic while holding this lock leaves a map that is still whole.
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Records in the store, once per planet on this replica, that
    /// `planet` uses the stored tier `key`, so that deleting another planet
    /// with the same parameters keeps the blob. Loading and storing the
    /// tier record it too; this covers a planet served from a tier that
    /// another planet loaded or computed here. In the background: a
    /// request never waits for it, and a failure is tried again by the
    /// next request (it costs at most a recomputation after a restart).
    fn note_use(self: &Arc<Self>, store: &Store, planet: &Arc<LoadedPlanet>, key: u64) {
        if !planet.version().is_ok_and(|v| v.is_released()) {
            return;
        }
        let id = planet.record.id;
        if !self.noted_lock().insert((id, key)) {
            return;
        }
        let store = store.clone();
        let this = Arc::downgrade(self);
        tokio::spawn(async move {
            if let Err(e) = store.claim_blob(id, &blob_key(key)).await {
                tracing::warn!(planet = id, error = %e, "recording a planet's use of its tier");
                if let Some(shared) = this.upgrade() {
                    shared.noted_lock().remove(&(id, key));
                }
            }
        });
    }

    fn noted_lock(&self) -> std::sync::MutexGuard<'_, HashSet<(i64, u64)>> {
        self.noted
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Where `key` stands, and a receiver of its run's progress while one
    /// runs; starts loading or computing it when nothing is. Records that
    /// `planet` wants the run (see [`Tiers::forget_planet`]) and that the
    /// current request's client asked, as demand when `ask` says so. A
    /// planet deleted here is refused (404) rather than started again.
    fn progress(
        self: &Arc<Self>,
        store: &Store,
        planet: &Arc<LoadedPlanet>,
        key: u64,
        ask: Ask,
    ) -> Result<(Progress, Option<watch::Receiver<Progress>>), ApiError> {
        if let Some((tier, origin)) = self.get(key) {
            self.note_use(store, planet, key);
            return Ok((Progress::Ready(tier, origin), None));
        }
        let id = planet.record.id;
        let client = crate::fair::current();
        let demanded = ask == Ask::Needed;
        let mut runs = self.lock();
        if runs.deleted.contains(id) {
            return Err(crate::planets::no_planet(id));
        }
        if let Some(run) = runs.by_key.get_mut(&key) {
            run.wanted.insert(id);
            self.schedule.ask(run.ticket, client, demanded);
            return Ok((run.rx.borrow().clone(), Some(run.rx.clone())));
        }
        let rows = planet
            .params()
            .map_or(0, |p| p.generator_version.tier_layout().rows(p.graph_n));
        let start = Progress::Computing {
            since: Instant::now(),
            rows_done: Arc::new(AtomicU32::new(0)),
            rows,
        };
        let (tx, rx) = watch::channel(start.clone());
        let work = planet.params().map_or(0, |p| {
            CoarseTier::estimated_work_bytes(p.generator_version, p.graph_n)
        });
        let ticket = self.schedule.enter(client, demanded, work);
        let run_id = ticket.id();
        let cancelled = Arc::new(AtomicBool::new(false));
        runs.by_key.insert(
            key,
            Run {
                ticket: run_id,
                rx: rx.clone(),
                wanted: BTreeSet::from([id]),
                cancelled: Arc::clone(&cancelled),
            },
        );
        drop(runs);
        let this = Arc::clone(self);
        let (store, planet) = (store.clone(), Arc::clone(planet));
        tokio::spawn(async move {
            let result = this
                .load_or_compute(&store, &planet, key, ticket, &cancelled, &tx)
                .await;
            let outcome = match result {
                // Cancelled (its planets deleted) after it was done: not kept.
                Ok(_) if cancelled.load(Ordering::Relaxed) => Progress::Failed(deleted()),
                Ok(Some((tier, origin))) => {
                    this.keep(key, &tier, origin);
                    Progress::Ready(tier, origin)
                }
                Ok(None) => Progress::Failed(deleted()),
                Err(e) => {
                    tracing::warn!(key = format_args!("{key:016x}"), error = %e.message, "coarse tier failed");
                    Progress::Failed(e)
                }
            };
            // Forget the run first: a request arriving after this finds the
            // tier in memory, or (after a failure) starts a fresh try. A
            // cancelled run was forgotten already, and may have a successor.
            {
                let mut runs = this.lock();
                if runs.by_key.get(&key).is_some_and(|r| r.ticket == run_id) {
                    runs.by_key.remove(&key);
                }
            }
            let _ = tx.send(outcome);
        });
        Ok((start, Some(rx)))
    }

    /// Loads tier `key` from the store, or computes it in its turn of the
    /// schedule (`ticket`) and stores it. `Ok(None)`: cancelled (see
    /// [`Tiers::forget_planet`]), nothing stored.
    async fn load_or_compute(
        &self,
        store: &Store,
        planet: &Arc<LoadedPlanet>,
        key: u64,
        ticket: Ticket,
        cancelled: &Arc<AtomicBool>,
        progress: &watch::Sender<Progress>,
    ) -> Result<Option<(Arc<CoarseTier>, Origin)>, ApiError> {
        let blob_key = blob_key(key);
        // An unreleased version's tier is a function of this build, not of
        // its parameters alone: never read from or written to the store,
        // where another build's tier would match its key.
        let persist = planet.version()?.is_released();
        // Loading records that this planet uses the blob, so deleting
        // another planet with the same parameters keeps it.
        let planet_id = planet.record.id;
        let stored = if persist {
            store.load_blob(planet_id, &blob_key).await
        } else {
            Ok(None)
        };
        match stored {
            Ok(Some(bytes)) => match CoarseTier::from_bytes(&bytes) {
                Ok(tier) if tier.key == key => {
                    tracing::info!(key = %blob_key, bytes = bytes.len(), "coarse tier loaded");
                    self.noted_lock().insert((planet_id, key));
                    return Ok(Some((Arc::new(tier), Origin::Loaded)));
                }
                // A blob that fails its own checks is recomputed, and the
                // good bytes replace it below.
                Ok(_) => tracing::warn!(key = %blob_key, "stored tier has another key"),
                Err(e) => tracing::warn!(key = %blob_key, error = %e, "stored tier unreadable"),
            },
            Ok(None) => {}
            // The store being down costs a recomputation, not the answer.
            Err(e) => tracing::warn!(key = %blob_key, error = %e, "reading a stored tier"),
        }
        // Withdrawn while waiting: its planets were deleted.
        if !ticket.turn().await || cancelled.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let (rows_done, rows) = match &*progress.borrow() {
            Progress::Computing {
                rows_done, rows, ..
            } => (Arc::clone(rows_done), *rows),
            _ => unreachable!("a run computes until it ends"),
        };
        // The estimate of the time left counts from now: waiting in line
        // is not work done.
        progress.send_replace(Progress::Computing {
            since: Instant::now(),
            rows_done: Arc::clone(&rows_done),
            rows,
        });
        let (closed, stop) = (Arc::clone(&self.closed), Arc::clone(cancelled));
        let planet = Arc::clone(planet);
        let started = Instant::now();
        let computed =
            tokio::task::spawn_blocking(move || -> Result<Option<CoarseTier>, ApiError> {
                let built = planet.planet()?;
                // On the heavy lane's low-priority threads: chunks keep
                // their pace while a tier computes (`heavy.rs`).
                crate::heavy::pool()
                    .install(|| {
                        built.compute_tier_observed(Level::best(), &|rows| {
                            rows_done.fetch_add(rows, Ordering::Relaxed);
                            !closed.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed)
                        })
                    })
                    .map_err(|e| crate::planets::planet_error(&e))
            })
            .await
            .map_err(|e| ApiError::internal("computing a coarse tier", &e))??;
        // The slot goes to the next computation; storing needs none.
        drop(ticket);
        if cancelled.load(Ordering::Relaxed) {
            tracing::info!(key = %blob_key, "planets deleted; their tier computation stopped");
            return Ok(None);
        }
        let tier = computed.ok_or_else(|| {
            ApiError::internal("computing a coarse tier", &"the server is stopping")
        })?;
        self.metrics.tier_computed();
        let bytes = tier.to_bytes();
        tracing::info!(
            key = %blob_key,
            bytes = bytes.len(),
            ms = started.elapsed().as_millis() as u64,
            "coarse tier computed"
        );
        // Stored only whole, in one transaction; a failure to store it is
        // logged and costs only a recomputation elsewhere.
        if !persist {
            return Ok(Some((Arc::new(tier), Origin::Computed)));
        }
        match store.put_blob(planet_id, &blob_key, &bytes).await {
            Ok(true) => {
                self.noted_lock().insert((planet_id, key));
            }
            // Deleted while its tier computed: nothing is kept for it.
            Ok(false) => tracing::info!(key = %blob_key, "planet deleted; its tier is not stored"),
            Err(e) => tracing::warn!(key = %blob_key, error = %e, "storing a coarse tier"),
        }
        Ok(Some((Arc::new(tier), Origin::Computed)))
    }
}

/// What a request waiting for a cancelled tier gets: its planet is gone.
fn deleted() -> ApiError {
    ApiError::not_found("the planet was deleted while its coarse tier waited or computed")
}

impl Drop for Tiers {
    fn drop(&mut self) {
        self.close();
    }
}

/// Holds a request to a version-2 (or later) planet until its coarse tier
/// is ready (at most the `tier_wait` limit) and gives it, for
/// [`LoadedPlanet::sampler`]: `Err` is the answer to send instead, a 503
/// with `Retry-After`, or the tier's failure. Version 1 has no tier and
/// passes at once with `None`. The tier is never installed in the cached
/// planet function: it would outlive its eviction from the tier cache.
pub(crate) async fn ready_or_retry(
    state: &crate::state::AppState,
    planet: &Arc<LoadedPlanet>,
) -> Result<Option<Arc<CoarseTier>>, axum::response::Response> {
    use axum::response::IntoResponse;
    if !planet
        .version()
        .map_err(IntoResponse::into_response)?
        .has_plates()
    {
        return Ok(None);
    }
    match state
        .tiers
        .wait(&state.store, planet, state.limits.tier_wait)
        .await
    {
        Ok(Wait::Ready(tier)) => Ok(Some(tier)),
        Ok(Wait::Later(seconds)) => {
            let message = format!(
                "planet {}'s coarse tier is still computing; retry in {seconds} s (progress: /v1/planets/{}/status)",
                planet.record.id, planet.record.id
            );
            Err(ApiError::computing(message).with_retry_after(seconds))
        }
        Err(e) => Err(e.into_response()),
    }
}

/// [`ready_or_retry`] for what samples the planet function outside chunks
/// (previews, tiles, rivers): only version 3's samples read the tier.
pub(crate) async fn ready_for_samples(
    state: &crate::state::AppState,
    planet: &Arc<LoadedPlanet>,
) -> Result<Option<Arc<CoarseTier>>, axum::response::Response> {
    let version = planet
        .version()
        .map_err(axum::response::IntoResponse::into_response)?;
    if !version.samples_read_tier() {
        return Ok(None);
    }
    ready_or_retry(state, planet).await
}

/// The store's name for the tier with `key`.
pub(crate) fn blob_key(key: u64) -> String {
    format!("t1/{key:016x}")
}

fn fraction(p: &Progress) -> f64 {
    match p {
        Progress::Computing {
            rows_done, rows, ..
        } => f64::from(rows_done.load(Ordering::Relaxed)) / f64::from((*rows).max(1)),
        Progress::Ready(..) => 1.0,
        Progress::Failed(_) => 0.0,
    }
}

/// Seconds until a computing tier is likely done: the time so far scaled
/// by the work left, at least 1 and at most [`MAX_RETRY_AFTER_S`].
fn retry_after(p: &Progress) -> u64 {
    let Progress::Computing { since, .. } = p else {
        return 1;
    };
    let done = fraction(p);
    let elapsed = since.elapsed().as_secs_f64();
    let left = if done > 0.02 {
        elapsed * (1.0 - done) / done
    } else {
        // Nothing to go by yet: a default tier takes about a second.
        2.0
    };
    (left.ceil() as u64).clamp(1, MAX_RETRY_AFTER_S)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fair::Client;
    use crate::planets::PlanetCache;
    use mangekyo_planet::{ChunkAddress, ChunkRequest, Edge, Layers, Projection, Version};
    use mangekyo_store::testing::TestDb;
    use mangekyo_store::{Backend, NewPlanet};

    /// Issue 38: planets touched once each, with a tier cache that holds
    /// three of their tiers. The planets stay cached (as the planet cache
    /// keeps them) and each sampled a chunk with its tier, yet once the
    /// tier cache evicts a tier nothing keeps it alive: the live tiers
    /// weigh at most the cap.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn evicted_tiers_leave_no_live_reference() {
        const PLANETS: u64 = 12;
        let db = TestDb::new(Backend::Sqlite).await;
        let store = Store::open(db.url()).await.unwrap();
        let n = 16;
        let cap = 3 * (CoarseTier::estimated_heap_bytes(Version::DEFAULT, n) + ENTRY_OVERHEAD);
        let tiers = Tiers::new(cap, 1, Arc::new(Metrics::new()));
        let planets = PlanetCache::new();
        let mut touched = Vec::new();
        for seed in 0..PLANETS {
            let params = PlanetParams {
                seed,
                radius: 400_000.0,
                pixel_size: 50.0,
                graph_n: n,
                ..PlanetParams::default()
            };
            let record = store
                .create(&NewPlanet {
                    name: format!("p{seed}"),
                    params: serde_json::to_value(params).unwrap(),
                    generator_version: params.generator_version.code(),
                    owner: None,
                })
                .await
                .unwrap();
            let planet = planets.remember(record);
            let Wait::Ready(tier) = tiers
                .wait(&store, &planet, Duration::from_secs(300))
                .await
                .unwrap()
            else {
                panic!("planet {seed}: no tier in 300 s")
            };
            let weak = Arc::downgrade(&tier);
            let bytes = tier.heap_bytes() as u64;
            // What a chunk request does with it.
            let sampling = Arc::clone(&planet);
            tokio::task::spawn_blocking(move || {
                let req = ChunkRequest {
                    address: ChunkAddress {
                        projection: Projection::TangentCube,
                        lod: 0,
                        cx: 0,
                        cy: 0,
                    },
                    edge: Edge::Exclusive,
                    layers: Layers::ALL,
                };
                sampling
                    .sampler(Some(&tier))
                    .unwrap()
                    .sample_chunk(&req)
                    .unwrap();
            })
            .await
            .unwrap();
            touched.push((planet, weak, bytes));
        }
        let live: Vec<u64> = touched
            .iter()
            .filter(|(_, weak, _)| weak.upgrade().is_some())
            .map(|(_, _, bytes)| *bytes)
            .collect();
        let live_bytes: u64 = live.iter().sum();
        eprintln!(
            "{PLANETS} planets, cap {cap} bytes: {} tiers live, {live_bytes} bytes",
            live.len()
        );
        assert!(
            live_bytes <= cap,
            "{live_bytes} bytes of tiers live, cap {cap}"
        );
        assert!(live.len() <= 3, "{} tiers live", live.len());
        assert!(
            touched[0].1.upgrade().is_none(),
            "the first tier outlived its eviction"
        );
        for (planet, _, _) in &touched {
            assert!(
                !planet.planet().unwrap().has_tier(),
                "a cached planet holds a tier"
            );
        }
    }

    /// Issue 38: working memory comes out of the tier cache's room while
    /// a computation holds it, and goes back when it ends; a `graph_n`
    /// whose computation could never fit is refused by name.
    #[tokio::test]
    async fn computations_hold_their_memory_out_of_the_cap() {
        let cap: u64 = 512 << 20;
        let tiers = Tiers::new(cap, 2, Arc::new(Metrics::new()));
        let budget = Tiers::work_budget(cap);
        assert_eq!(budget, 384 << 20);
        let work = 100 << 20;
        let running = tiers.0.schedule.enter(Client::named("a"), false, work);
        assert!(running.turn().await);
        assert_eq!(tiers.0.memory.capacity(), cap - work);
        drop(running);
        assert_eq!(tiers.0.memory.capacity(), cap);
        let params = |graph_n| PlanetParams {
            graph_n,
            ..PlanetParams::default()
        };
        tiers
            .check_fits(&params(mangekyo_planet::DEFAULT_GRAPH_N))
            .unwrap();
        let largest = GRAPH_N_RANGE
            .clone()
            .rev()
            .find(|&n| CoarseTier::estimated_work_bytes(Version::DEFAULT, n) <= budget)
            .unwrap();
        tiers.check_fits(&params(largest)).unwrap();
        let refused = tiers.check_fits(&params(largest + 1)).unwrap_err();
        assert_eq!(refused.status.as_u16(), 400);
        let text = format!("{refused:?}");
        assert!(
            text.contains("params.graph_n") && text.contains(&format!("graph_n at most {largest}")),
            "{text}"
        );
    }

    #[test]
    fn retry_after_follows_the_work_left() {
        let half = Progress::Computing {
            since: Instant::now() - Duration::from_secs(10),
            rows_done: Arc::new(AtomicU32::new(50)),
            rows: 100,
        };
        assert!((fraction(&half) - 0.5).abs() < 1e-9);
        assert!(
            (9..=11).contains(&retry_after(&half)),
            "{}",
            retry_after(&half)
        );
        let fresh = Progress::Computing {
            since: Instant::now(),
            rows_done: Arc::new(AtomicU32::new(0)),
            rows: 100,
        };
        assert_eq!(retry_after(&fresh), 2);
        let slow = Progress::Computing {
            since: Instant::now() - Duration::from_secs(1000),
            rows_done: Arc::new(AtomicU32::new(10)),
            rows: 100,
        };
        assert_eq!(retry_after(&slow), MAX_RETRY_AFTER_S);
    }

    /// Issue 38: a tier two planets share (same parameters) keeps waiting
    /// while either lives, leaves the waiting list when both are deleted
    /// (counted, nothing computed), and a new planet with those parameters
    /// starts afresh.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_shared_tier_is_cancelled_only_with_its_last_planet() {
        let db = TestDb::new(Backend::Sqlite).await;
        let store = Store::open(db.url()).await.unwrap();
        let metrics = Arc::new(Metrics::new());
        let tiers = Tiers::new(64 << 20, 1, Arc::clone(&metrics));
        let planets = PlanetCache::new();
        let params = PlanetParams {
            seed: 5,
            radius: 400_000.0,
            pixel_size: 50.0,
            graph_n: 16,
            ..PlanetParams::default()
        };
        let key = CoarseTier::key(&params);
        let mut made = Vec::new();
        for name in ["a", "b", "c"] {
            let record = store
                .create(&NewPlanet {
                    name: name.to_owned(),
                    params: serde_json::to_value(params).unwrap(),
                    generator_version: params.generator_version.code(),
                    owner: None,
                })
                .await
                .unwrap();
            made.push(planets.remember(record));
        }
        // Another computation holds the only slot.
        let held = tiers.0.schedule.enter(Client::named("other"), false, 0);
        assert!(held.turn().await);
        let run = || {
            tiers
                .0
                .lock()
                .by_key
                .get(&key)
                .map(|r| (r.ticket, r.wanted.clone()))
        };
        for planet in &made[..2] {
            let (waited, status) = tiers.start(&store, planet, Duration::ZERO).await.unwrap();
            assert!(matches!(waited, Ok(Wait::Later(_))), "{waited:?}");
            assert_eq!(status.state, "computing");
        }
        let (first, wanted) = run().expect("one run for both");
        assert_eq!(
            wanted,
            BTreeSet::from([made[0].record.id, made[1].record.id])
        );
        tiers.forget_planet(made[0].record.id);
        assert_eq!(run().map(|r| r.0), Some(first), "b still wants it");
        tiers.forget_planet(made[1].record.id);
        assert_eq!(run(), None, "no live planet wants it");
        let text = metrics.render(0);
        assert!(
            text.contains(r#"mangekyo_tier_computes_total{result="cancelled"} 1"#),
            "{text}"
        );
        // A deleted planet's late request starts nothing.
        let late = tiers.wait(&store, &made[0], Duration::ZERO).await;
        assert_eq!(late.unwrap_err().status.as_u16(), 404);
        assert_eq!(run(), None);
        // The same parameters again: a fresh run, computed once the slot frees.
        let (started, _) = tiers.start(&store, &made[2], Duration::ZERO).await.unwrap();
        assert!(matches!(started, Ok(Wait::Later(_))), "{started:?}");
        let (fresh, _) = run().expect("a fresh run");
        assert_ne!(fresh, first);
        drop(held);
        let Wait::Ready(_) = tiers
            .wait(&store, &made[2], Duration::from_secs(300))
            .await
            .unwrap()
        else {
            panic!("no tier in 300 s")
        };
        let text = metrics.render(0);
        assert!(
            text.contains(r#"mangekyo_tier_computes_total{result="computed"} 1"#),
            "{text}"
        );
    }
}
