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

use crate::{Backend, DbUrl};

/// Every backend, for table-driven tests.
pub const BACKENDS: [Backend; 3] = [Backend::Sqlite, Backend::MySql, Backend::Postgres];

const DEFAULT_MYSQL: &str = "mysql://root@127.0.0.1:3306/test";
const DEFAULT_POSTGRES: &str = "postgres://postgres@127.0.0.1:5432/test";

/// A database that exists for one test.
#[derive(Debug)]
pub struct TestDb {
    url: DbUrl,
    cleanup: Cleanup,
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
                }
            }
            Backend::MySql => {
                let admin = admin_url("MANGEKYO_TEST_MYSQL", DEFAULT_MYSQL);
                run_admin(&admin, &format!("CREATE DATABASE {name}")).await;
                let url = DbUrl::parse(&with_database(&admin, &name)).expect("valid MySQL URL");
                let statement = format!("DROP DATABASE IF EXISTS {name}");
                TestDb {
                    url,
                    cleanup: Cleanup::Sql {
                        admin_url: admin,
                        statement,
                    },
                }
            }
            Backend::Postgres => {
                let admin = admin_url("MANGEKYO_TEST_POSTGRES", DEFAULT_POSTGRES);
                run_admin(&admin, &format!("CREATE SCHEMA {name}")).await;
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
                }
            }
        }
    }

    /// The URL to open the store with.
    pub fn url(&self) -> &DbUrl {
        &self.url
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
