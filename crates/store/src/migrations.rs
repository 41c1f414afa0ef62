//! The schema, as numbered migrations in each backend's dialect.
//!
//! The SQL is embedded in the binary (no migration folder to ship) and
//! applied at start by sqlx's migrator, which records what ran in
//! `_sqlx_migrations` and, on MySQL and PostgreSQL, holds an advisory lock
//! so replicas starting together migrate once.

use std::borrow::Cow;

use sqlx::AnyPool;
use sqlx::SqlSafeStr;
use sqlx::migrate::{MigrateError, Migration, MigrationType, Migrator};

use crate::{Backend, busy};

/// Version 1: the planets table.
///
/// Names are unique and compared byte for byte on every backend (MySQL's
/// default collation would fold case and accents, SQLite and PostgreSQL do
/// not). Ids are never reused, even after the newest planet is deleted
/// (SQLite needs `AUTOINCREMENT` for that), so a cached id never names a
/// different planet. Parameters are JSON text: portable across backends and
/// readable with any SQL client.
const CREATE_PLANETS: [(Backend, &str); 3] = [
    (
        Backend::Sqlite,
        "CREATE TABLE planets (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE,
            params TEXT NOT NULL,
            generator_version BIGINT NOT NULL,
            created_at_ms BIGINT NOT NULL
        )",
    ),
    (
        Backend::MySql,
        "CREATE TABLE planets (
            id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
            name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
            params MEDIUMTEXT CHARACTER SET utf8mb4 NOT NULL,
            generator_version BIGINT NOT NULL,
            created_at_ms BIGINT NOT NULL,
            CONSTRAINT planets_name_key UNIQUE (name)
        ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
    ),
    (
        Backend::Postgres,
        "CREATE TABLE planets (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            params TEXT NOT NULL,
            generator_version BIGINT NOT NULL,
            created_at_ms BIGINT NOT NULL
        )",
    ),
];

/// Version 2: cached blobs (a planet's coarse tier, T1), in parts.
///
/// A blob is a cache of a pure function: losing it costs a recomputation,
/// never a byte of output. It is cut into parts of at most
/// [`crate::blob::PART_BYTES`] so no statement exceeds MariaDB's default
/// 16 MiB packet, and all parts of one blob are written in one
/// transaction (readers see all of it or none).
const CREATE_BLOBS: [(Backend, &str); 3] = [
    (
        Backend::Sqlite,
        "CREATE TABLE blob_parts (
            blob_key TEXT NOT NULL,
            part BIGINT NOT NULL,
            bytes BLOB NOT NULL,
            PRIMARY KEY (blob_key, part)
        )",
    ),
    (
        Backend::MySql,
        "CREATE TABLE blob_parts (
            blob_key VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
            part BIGINT NOT NULL,
            bytes MEDIUMBLOB NOT NULL,
            PRIMARY KEY (blob_key, part)
        ) ENGINE=InnoDB",
    ),
    (
        Backend::Postgres,
        "CREATE TABLE blob_parts (
            blob_key TEXT NOT NULL,
            part BIGINT NOT NULL,
            bytes BYTEA NOT NULL,
            PRIMARY KEY (blob_key, part)
        )",
    ),
];

/// Version 3: which planets use which blob, so a blob is deleted with the
/// last planet that uses it (several planets with the same parameters
/// share one). Blobs stored before this version have no record until a
/// planet loads them, and are never collected until then. The foreign key
/// drops a planet's records with it even if a planet row is deleted by
/// hand (its blobs then stay, as before this version).
const CREATE_PLANET_BLOBS: [(Backend, &str); 3] = [
    (
        Backend::Sqlite,
        "CREATE TABLE planet_blobs (
            planet_id INTEGER NOT NULL REFERENCES planets (id) ON DELETE CASCADE,
            blob_key TEXT NOT NULL,
            PRIMARY KEY (planet_id, blob_key)
        );
        CREATE INDEX planet_blobs_by_key ON planet_blobs (blob_key)",
    ),
    (
        Backend::MySql,
        "CREATE TABLE planet_blobs (
            planet_id BIGINT NOT NULL,
            blob_key VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
            PRIMARY KEY (planet_id, blob_key),
            KEY planet_blobs_by_key (blob_key),
            CONSTRAINT planet_blobs_planet FOREIGN KEY (planet_id)
                REFERENCES planets (id) ON DELETE CASCADE
        ) ENGINE=InnoDB",
    ),
    (
        Backend::Postgres,
        "CREATE TABLE planet_blobs (
            planet_id BIGINT NOT NULL REFERENCES planets (id) ON DELETE CASCADE,
            blob_key TEXT NOT NULL,
            PRIMARY KEY (planet_id, blob_key)
        );
        CREATE INDEX planet_blobs_by_key ON planet_blobs (blob_key)",
    ),
];

/// Version 4: who created each planet.
///
/// The name of the access token that created the planet (the server's
/// `--tokens`), or NULL where no token was used (an open local server, or a
/// planet stored before tokens existed). Only the owner or an admin may
/// delete a planet; quotas count planets by owner.
const ADD_OWNERS: [(Backend, &str); 3] = [
    (
        Backend::Sqlite,
        "ALTER TABLE planets ADD COLUMN owner TEXT NULL",
    ),
    (
        Backend::MySql,
        "ALTER TABLE planets ADD COLUMN owner VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL",
    ),
    (
        Backend::Postgres,
        "ALTER TABLE planets ADD COLUMN owner TEXT NULL",
    ),
];

/// How long a MySQL store waits for another one's migration, in seconds.
const MYSQL_LOCK_TIMEOUT_S: i64 = 60;

/// Applies every pending migration, once even when replicas start together.
///
/// sqlx's migrator locks PostgreSQL itself. Its MySQL lock is
/// `GET_LOCK(name, -1)`, which MariaDB answers with NULL at once instead of
/// waiting (checked on 10.11), so MySQL gets a lock of our own around the
/// migrator. SQLite has no such lock: [`busy::retry_migration`] waits out
/// "database is locked" and runs the migrator again when it lost a race.
pub(crate) async fn run(backend: Backend, pool: &AnyPool) -> Result<(), MigrateError> {
    let migrator = migrator(backend);
    match backend {
        Backend::Postgres => migrator.run(pool).await,
        Backend::MySql => run_locked_mysql(&migrator, pool).await,
        Backend::Sqlite => busy::retry_migration(|| migrator.run(pool)).await,
    }
}

async fn run_locked_mysql(migrator: &Migrator, pool: &AnyPool) -> Result<(), MigrateError> {
    let mut conn = pool.acquire().await?;
    let got: Option<i64> =
        sqlx::query_scalar("SELECT GET_LOCK(CONCAT('mangekyo_migrate_', DATABASE()), ?)")
            .bind(MYSQL_LOCK_TIMEOUT_S)
            .fetch_one(&mut *conn)
            .await?;
    if got != Some(1) {
        let why =
            format!("another store held the migration lock for over {MYSQL_LOCK_TIMEOUT_S} s");
        return Err(MigrateError::Source(why.into()));
    }
    let result = migrator.run(&mut *conn).await;
    sqlx::query("SELECT RELEASE_LOCK(CONCAT('mangekyo_migrate_', DATABASE()))")
        .execute(&mut *conn)
        .await?;
    result
}

/// The migrator for `backend`, with every migration in its dialect.
pub(crate) fn migrator(backend: Backend) -> Migrator {
    let migration = |version: i64, name: &'static str, variants: &[(Backend, &'static str)]| {
        Migration::new(
            version,
            Cow::Borrowed(name),
            MigrationType::Simple,
            sql_for(variants, backend).into_sql_str(),
            false,
        )
    };
    Migrator::with_migrations(vec![
        migration(1, "create planets", &CREATE_PLANETS),
        migration(2, "create blob parts", &CREATE_BLOBS),
        migration(3, "create planet blob references", &CREATE_PLANET_BLOBS),
        migration(4, "add planet owners", &ADD_OWNERS),
    ])
}

fn sql_for(variants: &[(Backend, &'static str)], backend: Backend) -> &'static str {
    variants
        .iter()
        .find(|(b, _)| *b == backend)
        .map(|(_, sql)| *sql)
        .unwrap_or_else(|| unreachable!("every migration has a {backend} variant"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_backend_has_every_migration() {
        for backend in [Backend::Sqlite, Backend::MySql, Backend::Postgres] {
            let m = migrator(backend);
            let names: Vec<_> = m.iter().map(|mig| mig.description.to_string()).collect();
            assert_eq!(
                names,
                [
                    "create planets",
                    "create blob parts",
                    "create planet blob references",
                    "add planet owners"
                ]
            );
            let sql: Vec<_> = m.iter().map(|mig| mig.sql.as_str().to_owned()).collect();
            assert!(sql[0].contains("TABLE planets") && sql[1].contains("TABLE blob_parts"));
            assert!(sql[2].contains("TABLE planet_blobs"));
        }
    }
}
