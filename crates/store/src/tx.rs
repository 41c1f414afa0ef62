//! Write transactions that never outlive their error.
//!
//! sqlx's own `Transaction` counts its nesting depth itself and trusts the
//! count: when SQLite rolls a transaction back on its own (it may, on
//! `SQLITE_FULL` or an I/O error), sqlx's `ROLLBACK` then fails ("no
//! transaction is active") and the count stays one too high, so the next
//! `begin` on that pooled connection issues a `SAVEPOINT` and its "commit"
//! only releases the savepoint. After one more failure the connection sits
//! inside a transaction that is never committed: it answers every write as
//! done, holds the write lock, and every other connection is told
//! "database is locked". That is how a full disk turned into lost planets.
//!
//! So the store issues `BEGIN` / `COMMIT` / `ROLLBACK` itself and keeps no
//! count. A connection whose transaction did not commit, for any reason
//! (a failed statement, a failed commit, a cancelled request), is rolled
//! back if possible and then closed, never returned to the pool: its state
//! is unknown, and closing is the one way every backend ends the
//! transaction for certain (SQLite on `sqlite3_close`, a server when the
//! socket goes). Errors are rare, so a fresh connection is cheap.

use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool};

use crate::Backend;

/// A transaction on a pooled connection of its own.
pub(crate) struct WriteTx {
    conn: PoolConnection<Any>,
    backend: Backend,
    committed: bool,
}

impl WriteTx {
    /// Takes a connection and begins. SQLite begins `IMMEDIATE`: the write
    /// lock is taken at once (waiting under the busy timeout), so a
    /// transaction that reads before it writes cannot fail half-way when
    /// another writer got there first. MySQL transactions run `READ
    /// COMMITTED`, as PostgreSQL's do by default: each statement sees what
    /// others committed, and a subquery in a `DELETE` takes no shared locks
    /// (the blob collection in [`crate::blob`] relies on both).
    pub(crate) async fn begin(pool: &AnyPool, backend: Backend) -> Result<WriteTx, sqlx::Error> {
        let conn = pool.acquire().await?;
        let mut tx = WriteTx {
            conn,
            backend,
            committed: false,
        };
        let begun = match backend {
            Backend::Sqlite => tx.raw("BEGIN IMMEDIATE").await,
            Backend::MySql => match tx
                .raw("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
                .await
            {
                Ok(()) => tx.raw("BEGIN").await,
                Err(e) => Err(e),
            },
            Backend::Postgres => tx.raw("BEGIN").await,
        };
        // A failed BEGIN leaves the connection closed on drop, like any
        // transaction that did not commit.
        begun.map(|()| tx)
    }

    /// The connection, to run the transaction's statements on.
    pub(crate) fn conn(&mut self) -> &mut AnyConnection {
        &mut self.conn
    }

    /// Commits. On failure the transaction is rolled back (if the database
    /// still has one) and the connection is closed.
    async fn commit(&mut self) -> Result<(), sqlx::Error> {
        match self.raw("COMMIT").await {
            Ok(()) => {
                self.committed = true;
                Ok(())
            }
            Err(e) => {
                self.rollback().await;
                Err(e)
            }
        }
    }

    /// Commits if the transaction's statements succeeded; otherwise rolls
    /// back and closes the connection. Either way the answer is the
    /// statements' result, or the commit's error.
    pub(crate) async fn finish<T>(
        mut self,
        result: Result<T, crate::StoreError>,
    ) -> Result<T, crate::StoreError> {
        match result {
            Ok(value) => {
                self.commit().await?;
                Ok(value)
            }
            Err(e) => {
                self.rollback().await;
                Err(e)
            }
        }
    }

    /// Rolls back after a failure; the connection is closed on drop either
    /// way. Waiting for the rollback here, rather than leaving it to the
    /// close, frees SQLite's write lock before the caller answers.
    async fn rollback(&mut self) {
        if let Err(e) = self.raw("ROLLBACK").await {
            tracing::debug!(backend = self.backend.name(), error = %e, "rollback after a failed write");
        }
    }

    async fn raw(&mut self, sql: &'static str) -> Result<(), sqlx::Error> {
        sqlx::raw_sql(sql)
            .execute(&mut *self.conn)
            .await
            .map(|_| ())
    }
}

impl Drop for WriteTx {
    fn drop(&mut self) {
        if !self.committed {
            // A statement failed, the commit failed, or the future was
            // dropped mid-way (a client hung up): close, never reuse.
            self.conn.close_on_drop();
        }
    }
}
