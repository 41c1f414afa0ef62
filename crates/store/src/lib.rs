//! The planet registry over SQL: SQLite by default, MariaDB/MySQL or
//! PostgreSQL by URL.
//!
//! A planet is a function of its parameters, so the store keeps only those
//! (as JSON text), the generator version they belong to, a unique name and
//! the creation time; chunks are regenerated on demand and never stored.
//! The store does not know the planet generator's types: callers validate
//! parameters and hand over a [`serde_json::Value`].
//!
//! - [`Store`]: an open connection pool; create, get, list, delete.
//! - [`DbUrl`] / [`Backend`]: which database, parsed from a URL or a file path.
//! - [`Planet`] / [`NewPlanet`]: the records.
//! - [`Store::put_blob`] / [`Store::load_blob`]: cached blobs by key (a
//!   planet's coarse tier), so restarts and replicas skip recomputing them;
//!   a blob is collected when the last planet that used it is deleted.
//! - [`Store::health`]: whether the store answers and can write.
//! - [`StoreError`]: what went wrong, split into client and operator faults.
//!
//! Every backend runs the same code through sqlx's `Any` driver with
//! runtime queries (no compile-time checked macros, so no live database is
//! needed to build); the schema is migrated at [`Store::open`] (and again
//! if it disappears under a running store: see [`Store::health`]) and
//! every write runs in a transaction that either commits before it is
//! acknowledged or is rolled back on a connection that is then closed
//! (`tx`).
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! use mangekyo_store::{DbUrl, NewPlanet, Store};
//! let store = Store::open(&DbUrl::parse("sqlite::memory:").unwrap()).await.unwrap();
//! let new = NewPlanet { name: "Terra".into(), params: serde_json::json!({"seed": 42}), generator_version: 1, owner: None };
//! let planet = store.create(&new).await.unwrap();
//! assert_eq!(store.get(planet.id).await.unwrap().unwrap().name, "Terra");
//! assert!(store.delete(planet.id).await.unwrap());
//! store.close().await;
//! # });
//! ```
#![deny(missing_docs)]

mod blob;
mod busy;
mod error;
mod health;
mod migrations;
mod planet;
mod sql;
mod tx;
mod url;
mod watch;

#[cfg(feature = "testing")]
pub mod testing;

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};

pub use blob::{MAX_BLOB_BYTES, MAX_KEY_BYTES, PART_BYTES};
pub use error::StoreError;
pub use planet::{MAX_NAME_CHARS, MAX_PARAMS_BYTES, NewPlanet, Planet, validate_name};
pub use url::{Backend, DEFAULT_SQLITE_FILE, DbUrl};

use planet::{PlanetRow, params_text};
use sql::{Statements, statements};
use tx::WriteTx;

/// The health query: reads the planets table through its primary key, so
/// a lost table or an unreadable file fails it (`SELECT 1` would not).
const PING: &str = "SELECT COUNT(*) FROM (SELECT id FROM planets LIMIT 1) AS t";

/// The most planets one [`Store::list`] call returns.
pub const MAX_LIST_LIMIT: u32 = 1000;

/// How a store connects.
#[derive(Debug, Clone)]
pub struct StoreOptions {
    /// How long to wait for a pooled connection (and, at open, for the
    /// database to answer at all) before giving up.
    pub acquire_timeout: Duration,
    /// The most connections the pool holds (in-memory SQLite always uses 1).
    pub max_connections: u32,
}

impl Default for StoreOptions {
    /// 10 s: long enough to ride out a burst of SQLite writes or a database
    /// that is still starting, short enough that a request fails rather
    /// than hangs when the database is gone. 8 connections: planet lookups
    /// are tiny and the server caches them.
    fn default() -> StoreOptions {
        StoreOptions {
            acquire_timeout: Duration::from_secs(10),
            max_connections: 8,
        }
    }
}

/// An open planet store.
///
/// Cloning is cheap and shares the pool.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    sql: &'static Statements,
    /// The SQLite file opened, checked before writes and by [`Store::ping`].
    file: Option<watch::FileWatch>,
    /// Whether the last write failed.
    writes: Arc<health::WriteHealth>,
    /// Held while the schema is migrated again, so one task does it.
    remigrating: Arc<tokio::sync::Mutex<()>>,
    /// A page limit imposed on every SQLite connection (tests fill the
    /// database with it; 0: none).
    #[cfg(feature = "testing")]
    page_limit: Arc<std::sync::atomic::AtomicU64>,
}

/// The name of the planet a probe write inserts and deletes again in one
/// transaction: a control character keeps it outside [`validate_name`],
/// so no planet can have it.
const PROBE_NAME: &str = "\u{1}mangekyo write probe";

/// The probe's parameters: about a page of filler, so that a database
/// with no free page left fails it as it fails a planet.
fn probe_params() -> String {
    format!("{{\"probe\":\"{}\"}}", "x".repeat(4096))
}

/// Why a pool that timed out at open got no connection: the pool retries
/// a refused or failed connection until its timeout and then says only
/// "pool timed out", so one direct attempt (within the same timeout) asks
/// the driver for the real cause: connection refused, authentication, an
/// unknown database. If that attempt connects (the database came up just
/// now) or also gets no answer, the answer says that instead.
async fn why_unreachable(url: &DbUrl, timeout: Duration) -> sqlx::Error {
    use sqlx::Connection;
    match tokio::time::timeout(timeout, sqlx::AnyConnection::connect(url.as_str())).await {
        Ok(Err(cause)) => cause,
        Ok(Ok(conn)) => {
            drop(conn.close().await);
            sqlx::Error::PoolTimedOut
        }
        Err(_) => sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!(
                "no connection within {:.1} s (the host does not answer)",
                timeout.as_secs_f64()
            ),
        )),
    }
}

impl Store {
    /// Connects with default [`StoreOptions`], creates a missing SQLite
    /// file, and applies the migrations.
    pub async fn open(url: &DbUrl) -> Result<Store, StoreError> {
        Store::open_with(url, &StoreOptions::default()).await
    }

    /// [`Store::open`] with explicit options.
    pub async fn open_with(url: &DbUrl, options: &StoreOptions) -> Result<Store, StoreError> {
        install_default_drivers();
        let backend = url.backend();
        let in_memory = backend == Backend::Sqlite && url.as_str().contains(":memory:");
        // Each in-memory SQLite connection is its own empty database: one
        // connection keeps the pool looking at a single one.
        let max = if in_memory {
            1
        } else {
            options.max_connections.max(1)
        };
        let pool_options = AnyPoolOptions::new()
            .max_connections(max)
            .acquire_timeout(options.acquire_timeout);
        #[cfg(feature = "testing")]
        let page_limit = Arc::new(std::sync::atomic::AtomicU64::new(0));
        #[cfg(feature = "testing")]
        let pool_options = testing::with_page_limit(pool_options, backend, &page_limit);
        let pool = match pool_options.connect(url.as_str()).await {
            Ok(pool) => pool,
            Err(sqlx::Error::PoolTimedOut) => {
                return Err(StoreError::Connect {
                    url: url.redacted(),
                    source: why_unreachable(url, options.acquire_timeout).await,
                });
            }
            Err(source) => {
                return Err(StoreError::Connect {
                    url: url.redacted(),
                    source,
                });
            }
        };
        if backend == Backend::Sqlite && !in_memory {
            // WAL lets readers proceed during a write; the setting lives in
            // the file, so once is enough.
            // Switching needs the file to itself: a store opening beside
            // another that is migrating is told "database is locked" at
            // once, without the busy timeout, so it waits and tries again.
            busy::retry(|| sqlx::query("PRAGMA journal_mode = WAL").execute(&pool)).await?;
        }
        migrations::run(backend, &pool).await?;
        let file = if backend == Backend::Sqlite && !in_memory {
            let options: sqlx::sqlite::SqliteConnectOptions =
                url.as_str().parse().map_err(|source| StoreError::Connect {
                    url: url.redacted(),
                    source,
                })?;
            Some(watch::FileWatch::new(options.get_filename())?)
        } else {
            None
        };
        tracing::info!(backend = backend.name(), url = %url.redacted(), "planet store open");
        Ok(Store {
            pool,
            backend,
            sql: statements(backend),
            file,
            writes: Arc::default(),
            remigrating: Arc::default(),
            #[cfg(feature = "testing")]
            page_limit,
        })
    }

    /// The backend this store talks to.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Stores a new planet and returns it with its id and creation time.
    ///
    /// Fails with [`StoreError::NameTaken`] if the name is in use (checked by
    /// the database's unique index, so concurrent creators cannot both win).
    pub async fn create(&self, new: &NewPlanet) -> Result<Planet, StoreError> {
        validate_name(&new.name)?;
        let params = params_text(&new.params)?;
        let created_at_ms = now_ms();
        let created = self.create_row(new, &params, created_at_ms).await;
        self.settle(created).await?.into_planet()
    }

    async fn create_row(
        &self,
        new: &NewPlanet,
        params: &str,
        created_at_ms: i64,
    ) -> Result<PlanetRow, StoreError> {
        self.check_file()?;
        let mut tx = WriteTx::begin(&self.pool, self.backend).await?;
        let inserted = self.insert_row(&mut tx, new, params, created_at_ms).await;
        let row = tx.finish(inserted).await?;
        // Committed into a file that was swapped out meanwhile is not
        // durable: never acknowledge it.
        self.check_file()?;
        Ok(row)
    }

    async fn insert_row(
        &self,
        tx: &mut WriteTx,
        new: &NewPlanet,
        params: &str,
        created_at_ms: i64,
    ) -> Result<PlanetRow, StoreError> {
        let version = i64::from(new.generator_version);
        let id = self
            .insert(
                tx,
                &new.name,
                params,
                version,
                created_at_ms,
                new.owner.as_deref(),
            )
            .await
            .map_err(|e| name_taken(e, &new.name))?;
        Ok(sqlx::query_as(self.sql.by_id)
            .bind(id)
            .fetch_one(tx.conn())
            .await?)
    }

    /// Inserts a planet row and returns its id.
    async fn insert(
        &self,
        tx: &mut WriteTx,
        name: &str,
        params: &str,
        generator_version: i64,
        created_at_ms: i64,
        owner: Option<&str>,
    ) -> Result<i64, sqlx::Error> {
        let insert = sqlx::query(self.sql.insert)
            .bind(name)
            .bind(params)
            .bind(generator_version)
            .bind(created_at_ms)
            .bind(owner);
        if self.sql.insert_returns_id {
            insert.fetch_one(tx.conn()).await?.try_get::<i64, _>(0)
        } else {
            let done = insert.execute(tx.conn()).await?;
            done.last_insert_id()
                .ok_or_else(|| sqlx::Error::Protocol("insert reported no id".into()))
        }
    }

    /// The planet with this id, if any.
    pub async fn get(&self, id: i64) -> Result<Option<Planet>, StoreError> {
        self.check_file()?;
        let row: Result<Option<PlanetRow>, _> = sqlx::query_as(self.sql.by_id)
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(StoreError::from);
        let row = self.settle_read(row).await?;
        row.map(PlanetRow::into_planet).transpose()
    }

    /// The planet with this name, if any.
    pub async fn get_by_name(&self, name: &str) -> Result<Option<Planet>, StoreError> {
        self.check_file()?;
        let row: Result<Option<PlanetRow>, _> = sqlx::query_as(self.sql.by_name)
            .bind(name)
            .fetch_optional(&self.pool)
            .await
            .map_err(StoreError::from);
        let row = self.settle_read(row).await?;
        row.map(PlanetRow::into_planet).transpose()
    }

    /// Up to `limit` planets (at most [`MAX_LIST_LIMIT`]) with ids above
    /// `after`, in id order: pass the last id seen to get the next page.
    pub async fn list(&self, after: i64, limit: u32) -> Result<Vec<Planet>, StoreError> {
        self.check_file()?;
        let limit = i64::from(limit.min(MAX_LIST_LIMIT));
        let rows: Result<Vec<PlanetRow>, _> = sqlx::query_as(self.sql.list_after)
            .bind(after)
            .bind(limit)
            .fetch_all(&self.pool)
            .await
            .map_err(StoreError::from);
        let rows = self.settle_read(rows).await?;
        rows.into_iter().map(PlanetRow::into_planet).collect()
    }

    /// Deletes the planet; `false` if there was none with this id. The
    /// blobs it used go with it unless another planet uses them too (see
    /// [`Store::load_blob`]).
    pub async fn delete(&self, id: i64) -> Result<bool, StoreError> {
        let deleted = self.delete_row(id).await;
        self.settle(deleted).await
    }

    async fn delete_row(&self, id: i64) -> Result<bool, StoreError> {
        self.check_file()?;
        let mut tx = WriteTx::begin(&self.pool, self.backend).await?;
        let deleted = self.delete_in(&mut tx, id).await;
        let deleted = tx.finish(deleted).await?;
        self.check_file()?;
        Ok(deleted)
    }

    async fn delete_in(&self, tx: &mut WriteTx, id: i64) -> Result<bool, StoreError> {
        {
            // Locks the row first: a blob write for this planet that is
            // under way finishes (and its reference is seen) or waits and
            // then finds the planet gone.
            let found = sqlx::query(self.sql.lock_planet)
                .bind(id)
                .fetch_optional(tx.conn())
                .await?;
            if found.is_none() {
                return Ok(false);
            }
            self.release_blobs(tx, id).await?;
            sqlx::query(self.sql.delete)
                .bind(id)
                .execute(tx.conn())
                .await?;
            Ok(true)
        }
    }

    /// How many planets `owner` has (for per-token quotas).
    pub async fn count_owned(&self, owner: &str) -> Result<u64, StoreError> {
        self.check_file()?;
        let n: i64 = sqlx::query_scalar(self.sql.count_owned)
            .bind(owner)
            .fetch_one(&self.pool)
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// The bytes stored under one blob key (0 if none).
    pub async fn blob_bytes(&self, key: &str) -> Result<u64, StoreError> {
        self.check_file()?;
        let n: i64 = sqlx::query_scalar(self.sql.blob_bytes)
            .bind(key)
            .fetch_one(&self.pool)
            .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// Checks the store is usable (for health checks): a real query on the
    /// planets table, and for SQLite that the file opened is still the
    /// file at its path.
    pub async fn ping(&self) -> Result<(), StoreError> {
        let pinged = self.ping_read().await;
        self.settle_read(pinged).await
    }

    async fn ping_read(&self) -> Result<(), StoreError> {
        self.check_file()?;
        sqlx::query(PING).fetch_one(&self.pool).await?;
        Ok(())
    }

    /// [`Store::ping`], and whether the store can write: after a write
    /// failed, this fails with [`StoreError::CannotWrite`] until a write
    /// succeeds again, and itself tries a small write (a planet inserted and
    /// deleted in one transaction, at most once a second) so that it
    /// notices when space or the database comes back. While writes work it
    /// only reads.
    pub async fn health(&self) -> Result<(), StoreError> {
        match self.writes.check() {
            health::Check::Read => {}
            health::Check::Failing { reason, for_s } => {
                return Err(StoreError::CannotWrite { reason, for_s });
            }
            health::Check::Probe => {
                let probed = self.probe_write().await;
                self.settle(probed).await?;
            }
        }
        self.ping().await
    }

    /// A write like a planet's, committed, that leaves nothing behind.
    async fn probe_write(&self) -> Result<(), StoreError> {
        self.check_file()?;
        let params = probe_params();
        let mut tx = WriteTx::begin(&self.pool, self.backend).await?;
        let probed = self.insert_and_delete(&mut tx, &params).await;
        tx.finish(probed).await?;
        self.check_file()
    }

    async fn insert_and_delete(&self, tx: &mut WriteTx, params: &str) -> Result<(), StoreError> {
        self.insert(tx, PROBE_NAME, params, 0, 0, None).await?;
        sqlx::query(self.sql.delete_by_name)
            .bind(PROBE_NAME)
            .execute(tx.conn())
            .await?;
        Ok(())
    }

    /// Records how a write went for [`Store::health`], and migrates again
    /// if the schema has gone (see [`Store::settle_read`]).
    async fn settle<T>(&self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        match &result {
            Ok(_) => self.writes.wrote(),
            Err(e) if e.is_client_error() => {}
            Err(e) => {
                self.writes.failed(e.to_string());
                self.remigrate_if_gone(e).await;
            }
        }
        result
    }

    /// After a failed read: if the tables are gone, creates them again.
    async fn settle_read<T>(&self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        if let Err(e) = &result {
            self.remigrate_if_gone(e).await;
        }
        result
    }

    /// A database dropped and created again (or restored empty) under a
    /// running store has no tables: every query fails until the schema is
    /// back. The store then migrates again, as a restart would, and says
    /// so in the log. The request that found it still fails; the next one
    /// works. Whatever planets the old database held are gone with it: the
    /// store starts empty, as a new server on the new database would.
    async fn remigrate_if_gone(&self, err: &StoreError) {
        if !err.is_missing_table() {
            return;
        }
        let _one = self.remigrating.lock().await;
        // On a blocking thread of its own: sqlx's migrator future is not
        // provably `Send` (its MySQL lock borrows a connection), and every
        // store future must be, to run in a spawned task.
        let (pool, backend) = (self.pool.clone(), self.backend);
        let runtime = tokio::runtime::Handle::current();
        let migrated =
            tokio::task::spawn_blocking(move || runtime.block_on(migrations::run(backend, &pool)))
                .await
                .unwrap_or_else(|e| Err(sqlx::migrate::MigrateError::Source(e.to_string().into())));
        match migrated {
            Ok(()) => tracing::warn!(
                backend = self.backend.name(),
                error = %err,
                "the store's tables were gone; the schema is migrated again (the store starts empty)"
            ),
            Err(e) => tracing::error!(error = %e, "migrating a store whose tables were gone"),
        }
    }

    /// Whether the SQLite file opened is still the one at its path (always
    /// true for server databases and in-memory SQLite).
    pub fn check_file(&self) -> Result<(), StoreError> {
        self.file.as_ref().map_or(Ok(()), watch::FileWatch::check)
    }

    /// Waits for checked-out connections to return, then closes the pool.
    pub async fn close(&self) {
        self.pool.close().await;
        tracing::info!(backend = self.backend.name(), "planet store closed");
    }
}

/// Maps a unique-index violation on insert to [`StoreError::NameTaken`].
fn name_taken(err: sqlx::Error, name: &str) -> StoreError {
    match err.as_database_error() {
        Some(db) if db.is_unique_violation() => StoreError::NameTaken {
            name: name.to_owned(),
        },
        _ => StoreError::Database(err),
    }
}

fn now_ms() -> i64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}
