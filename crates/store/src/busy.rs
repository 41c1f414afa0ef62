//! Waiting out SQLite's "database is locked" while another store, in this
//! process or another one, opens or migrates the same file.
//!
//! The busy timeout covers ordinary writes, but SQLite answers some calls
//! at once with `SQLITE_BUSY` where waiting could deadlock (a journal-mode
//! switch, a read transaction that wants to write): the caller must back
//! off and try again. Only those two answers are retried, with a deadline,
//! so a real error is reported at once.

use std::future::Future;
use std::time::{Duration, Instant};

use sqlx::migrate::MigrateError;

/// How long a store keeps trying before it reports the lock.
const DEADLINE: Duration = Duration::from_secs(10);

/// The first pause; each next one doubles, up to [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(5);
const MAX_PAUSE: Duration = Duration::from_millis(200);

/// How often a migration that failed for another reason is tried: two
/// stores opening one fresh file together can both try version 1, and the
/// loser fails only because the winner committed ("table already exists"),
/// so running the migrator again finds the migration applied (and checks
/// its checksum).
const MIGRATION_ATTEMPTS: usize = 3;

/// Runs `op` until it succeeds, fails for a reason other than a lock, or
/// the deadline passes.
pub(crate) async fn retry<T, F, Fut>(mut op: F) -> Result<T, sqlx::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, sqlx::Error>>,
{
    let mut backoff = Backoff::new();
    loop {
        match op().await {
            Err(e) if is_locked(&e) && backoff.wait().await => {}
            result => return result,
        }
    }
}

/// [`retry`] for the migrator, which also gets [`MIGRATION_ATTEMPTS`] for
/// errors that are not locks.
pub(crate) async fn retry_migration<F, Fut>(mut op: F) -> Result<(), MigrateError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<(), MigrateError>>,
{
    let mut backoff = Backoff::new();
    let mut other_failures = 0;
    loop {
        let error = match op().await {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        let locked = match &error {
            MigrateError::Execute(e) | MigrateError::ExecuteMigration(e, _) => is_locked(e),
            _ => false,
        };
        if !locked {
            other_failures += 1;
            if other_failures >= MIGRATION_ATTEMPTS {
                return Err(error);
            }
        }
        if !backoff.wait().await {
            return Err(error);
        }
    }
}

/// `SQLITE_BUSY` or `SQLITE_LOCKED`, with any extended code.
fn is_locked(error: &sqlx::Error) -> bool {
    let sqlx::Error::Database(db) = error else {
        return false;
    };
    match db.code().and_then(|c| c.parse::<i64>().ok()) {
        Some(code) => matches!(code & 0xff, 5 | 6),
        None => false,
    }
}

/// Doubling pauses until the deadline.
struct Backoff {
    start: Instant,
    pause: Duration,
}

impl Backoff {
    fn new() -> Backoff {
        Backoff {
            start: Instant::now(),
            pause: FIRST_PAUSE,
        }
    }

    /// Sleeps before the next try; false once the deadline has passed.
    async fn wait(&mut self) -> bool {
        if self.start.elapsed() >= DEADLINE {
            return false;
        }
        tokio::time::sleep(self.pause).await;
        self.pause = (self.pause * 2).min(MAX_PAUSE);
        true
    }
}
