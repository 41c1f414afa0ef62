//! Throwaway databases for tests (feature `testing`): each [`TestDb`] is a
//! fresh SQLite file, MariaDB database or PostgreSQL schema with a unique
//! name, dropped again when the value is dropped, so tests can run
//! concurrently and repeatedly against the same servers.
//!
//! The servers come from `MANGEKYO_TEST_MYSQL` (default
//! `mysql://root@127.0.0.1:3306/test`) and `MANGEKYO_TEST_POSTGRES` (default
//! `postgres://postgres@127.0.0.1:5432/test`). An unreachable server fails
//! the test with a message saying so: a test that skipped silently would
//! pass without testing anything.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::AssertSqlSafe;
use sqlx::{AnyConnection, Connection};

use crate::{Backend, DbUrl, Store};

/// The page limit that stands for "no limit": SQLite's largest.
const NO_PAGE_LIMIT: u64 = 0xFFFF_FFFE;

/// Has every SQLite connection the pool hands out apply the page limit in
/// `limit` (0: none set yet, so no statement runs).
pub(crate) fn with_page_limit(
    options: sqlx::any::AnyPoolOptions,
    backend: Backend,
    limit: &std::sync::Arc<AtomicU64>,
) -> sqlx::any::AnyPoolOptions {
    if backend != Backend::Sqlite {
        return options;
    }
    // A pooled connection is checked before it is handed out again; a new
    // one only after it connects.
    let (reused, fresh) = (std::sync::Arc::clone(limit), std::sync::Arc::clone(limit));
    options
        .before_acquire(move |conn, _meta| {
            let pages = reused.load(Ordering::Relaxed);
            Box::pin(async move {
                apply_page_limit(conn, pages).await?;
                Ok(true)
            })
        })
        .after_connect(move |conn, _meta| {
            let pages = fresh.load(Ordering::Relaxed);
            Box::pin(apply_page_limit(conn, pages))
        })
}

async fn apply_page_limit(conn: &mut AnyConnection, pages: u64) -> Result<(), sqlx::Error> {
    if pages > 0 {
        let sql = format!("PRAGMA max_page_count = {pages}");
        sqlx::raw_sql(AssertSqlSafe(sql)).execute(conn).await?;
    }
    Ok(())
}

impl Store {
    /// Makes the SQLite database full: every connection gets a page limit
    /// no larger than the file already is (`SQLITE_FULL` on the next write
    /// that needs a page), or, with `false`, the largest limit again. What
    /// a full disk does, without needing one.
    ///
    /// # Panics
    /// On a store that is not SQLite.
    pub fn set_sqlite_full(&self, full: bool) {
        assert_eq!(self.backend, Backend::Sqlite, "a page limit is SQLite's");
        // SQLite never sets the limit below the file's size: 1 means "as
        // large as it is now".
        let pages = if full { 1 } else { NO_PAGE_LIMIT };
        self.page_limit.store(pages, Ordering::Relaxed);
    }
}

/// Every backend, for table-driven tests.
pub const BACKENDS: [Backend; 3] = [Backend::Sqlite, Backend::MySql, Backend::Postgres];

const DEFAULT_MYSQL: &str = "mysql://root@127.0.0.1:3306/test";
const DEFAULT_POSTGRES: &str = "postgres://postgres@127.0.0.1:5432/test";

/// A database that exists for one test.
#[derive(Debug)]
pub struct TestDb {
    url: DbUrl,
    cleanup: Cleanup,
    /// The statement that created the database or schema (servers only).
    create: Option<String>,
}

#[derive(Debug)]
enum Cleanup {
    File(PathBuf),
    Sql {
        admin_url: String,
        statement: String,
    },
}

impl TestDb {
    /// A fresh, empty database on `backend`.
    ///
    /// # Panics
    /// If the MariaDB or PostgreSQL server is unreachable (this is test
    /// support: the panic is the test failure, with the reason).
    pub async fn new(backend: Backend) -> TestDb {
        install();
        let name = unique_name();
        match backend {
            Backend::Sqlite => {
                let path = std::env::temp_dir().join(format!("{name}.db"));
                let url = DbUrl::sqlite_file(&path.to_string_lossy());
                TestDb {
                    url,
                    cleanup: Cleanup::File(path),
                    create: None,
                }
            }
            Backend::MySql => {
                let admin = admin_url("MANGEKYO_TEST_MYSQL", DEFAULT_MYSQL);
                let create = format!("CREATE DATABASE {name}");
                run_admin(&admin, &create).await;
                let url = DbUrl::parse(&with_database(&admin, &name)).expect("valid MySQL URL");
                let statement = format!("DROP DATABASE IF EXISTS {name}");
                TestDb {
                    url,
                    cleanup: Cleanup::Sql {
                        admin_url: admin,
                        statement,
                    },
                    create: Some(create),
                }
            }
            Backend::Postgres => {
                let admin = admin_url("MANGEKYO_TEST_POSTGRES", DEFAULT_POSTGRES);
                let create = format!("CREATE SCHEMA {name}");
                run_admin(&admin, &create).await;
                let sep = if admin.contains('?') { '&' } else { '?' };
                let url = format!("{admin}{sep}options=-c%20search_path%3D{name}");
                let url = DbUrl::parse(&url).expect("valid PostgreSQL URL");
                let statement = format!("DROP SCHEMA IF EXISTS {name} CASCADE");
                TestDb {
                    url,
                    cleanup: Cleanup::Sql {
                        admin_url: admin,
                        statement,
                    },
                    create: Some(create),
                }
            }
        }
    }

    /// The URL to open the store with.
    pub fn url(&self) -> &DbUrl {
        &self.url
    }

    /// A connection of its own to the database, for a test to look at (or
    /// damage) what the store wrote.
    ///
    /// # Panics
    /// If the database cannot be reached.
    pub async fn connect(&self) -> AnyConnection {
        install();
        AnyConnection::connect(self.url.as_str())
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", self.url.redacted()))
    }

    /// How many rows `table` holds (`planets`, `blob_parts`,
    /// `planet_blobs`), read behind the store's back.
    ///
    /// # Panics
    /// On an unknown table or an unreachable database.
    pub async fn count_rows(&self, table: &str) -> i64 {
        assert!(
            ["planets", "blob_parts", "planet_blobs"].contains(&table),
            "no table {table:?}"
        );
        let mut conn = self.connect().await;
        let sql = format!("SELECT COUNT(*) FROM {table}");
        let n = sqlx::query_scalar(AssertSqlSafe(sql))
            .fetch_one(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("counting {table}: {e}"));
        let _ = conn.close().await;
        n
    }

    /// Damages the stored blob under `key`: flips the bits of one byte in
    /// the middle of its first part, as a bad disk or a hand edit would.
    ///
    /// # Panics
    /// If no such blob is stored.
    pub async fn damage_blob(&self, key: &str) {
        let postgres = self.url.backend() == Backend::Postgres;
        let (read, write) = if postgres {
            (
                "SELECT bytes FROM blob_parts WHERE blob_key = $1 AND part = 0",
                "UPDATE blob_parts SET bytes = $1 WHERE blob_key = $2 AND part = 0",
            )
        } else {
            (
                "SELECT bytes FROM blob_parts WHERE blob_key = ? AND part = 0",
                "UPDATE blob_parts SET bytes = ? WHERE blob_key = ? AND part = 0",
            )
        };
        let mut conn = self.connect().await;
        let mut bytes: Vec<u8> = sqlx::query_scalar(read)
            .bind(key)
            .fetch_one(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("reading blob {key}: {e}"));
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x55;
        sqlx::query(write)
            .bind(bytes)
            .bind(key)
            .execute(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("damaging blob {key}: {e}"));
        let _ = conn.close().await;
    }

    /// Drops the MariaDB database (PostgreSQL schema) and creates it again,
    /// empty, under whatever store has it open: what an operator who
    /// drops and re-creates the database does.
    ///
    /// # Panics
    /// On SQLite, or if the server refuses.
    pub async fn drop_and_recreate(&self) {
        let (
            Cleanup::Sql {
                admin_url,
                statement,
            },
            Some(create),
        ) = (&self.cleanup, &self.create)
        else {
            panic!("only a MariaDB database or PostgreSQL schema is dropped and re-created");
        };
        run_admin(admin_url, statement).await;
        run_admin(admin_url, create).await;
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        match &self.cleanup {
            Cleanup::File(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let mut p = path.clone().into_os_string();
                    p.push(suffix);
                    let _ = std::fs::remove_file(p);
                }
            }
            Cleanup::Sql {
                admin_url,
                statement,
            } => {
                // Drop may run inside a test's runtime, which cannot be
                // blocked on: a helper thread gets its own.
                let (url, sql) = (admin_url.clone(), statement.clone());
                let _ = std::thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build();
                    if let Ok(rt) = rt {
                        rt.block_on(async {
                            if let Ok(mut conn) = AnyConnection::connect(&url).await {
                                let _ = sqlx::query(AssertSqlSafe(sql)).execute(&mut conn).await;
                                let _ = conn.close().await;
                            }
                        });
                    }
                })
                .join();
            }
        }
    }
}

fn install() {
    sqlx::any::install_default_drivers();
}

fn admin_url(var: &str, default: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| default.to_owned())
}

/// A lowercase identifier unique across processes and calls.
fn unique_name() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!(
        "mk_test_{}_{}_{n}",
        std::process::id(),
        nanos % 1_000_000_000_000
    )
}

/// `scheme://auth@host/db?q` with `db` replaced by `database`.
fn with_database(url: &str, database: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let (authority, _) = base
        .rsplit_once('/')
        .filter(|(a, _)| a.contains("://"))
        .unwrap_or((base, ""));
    match query {
        Some(q) => format!("{authority}/{database}?{q}"),
        None => format!("{authority}/{database}"),
    }
}

async fn run_admin(url: &str, sql: &str) {
    let mut conn = AnyConnection::connect(url).await.unwrap_or_else(|e| {
        panic!("test database server {url} is unreachable ({e}); start it (see README.md) or point the env var at one")
    });
    sqlx::query(AssertSqlSafe(sql.to_owned()))
        .execute(&mut conn)
        .await
        .unwrap_or_else(|e| panic!("{sql} on {url}: {e}"));
    let _ = conn.close().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_names_are_swapped_in_urls() {
        assert_eq!(
            with_database("mysql://root@h:3306/test", "x"),
            "mysql://root@h:3306/x"
        );
        assert_eq!(
            with_database("mysql://root@h/test?ssl-mode=disabled", "x"),
            "mysql://root@h/x?ssl-mode=disabled"
        );
        assert_eq!(with_database("mysql://root@h", "x"), "mysql://root@h/x");
    }
}
