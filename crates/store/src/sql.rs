//! The store's statements in each backend's placeholder style.
//!
//! sqlx's `Any` driver passes SQL through untouched, and PostgreSQL wants
//! `$1` where MySQL and SQLite take `?` (sqlx issue #3000), so each
//! statement is written out per dialect. They are `&'static str` on
//! purpose: no SQL is ever built from request data.

use crate::Backend;

/// The statements one backend runs.
#[derive(Debug)]
pub(crate) struct Statements {
    /// Inserts (name, params, generator_version, created_at_ms); on
    /// PostgreSQL it returns the id, elsewhere the driver reports it.
    pub insert: &'static str,
    /// Whether `insert` returns the id as a row.
    pub insert_returns_id: bool,
    /// One planet by id.
    pub by_id: &'static str,
    /// One planet by name.
    pub by_name: &'static str,
    /// Up to `limit` planets with an id above `after`, by id.
    pub list_after: &'static str,
    /// Deletes one planet by id.
    pub delete: &'static str,
    /// How many planets an owner has.
    pub count_owned: &'static str,
    /// The stored bytes of one blob.
    pub blob_bytes: &'static str,
    /// Deletes one planet by name (the health probe's).
    pub delete_by_name: &'static str,
    /// Reads one planet's id and locks its row for the transaction (SQLite
    /// has no row locks: its `BEGIN IMMEDIATE` already holds the database).
    pub lock_planet: &'static str,
    /// Reads one planet's id and keeps it from being deleted until the
    /// transaction ends.
    pub share_planet: &'static str,
}

macro_rules! select {
    ($tail:literal) => {
        concat!(
            "SELECT id, name, params, generator_version, created_at_ms, owner FROM planets ",
            $tail
        )
    };
}

/// SQLite: `?` placeholders, and `RETURNING` (SQLite ≥ 3.35; the bundled
/// library is newer) because sqlx's `Any` driver drops SQLite's rowid.
const SQLITE: Statements = Statements {
    insert: "INSERT INTO planets (name, params, generator_version, created_at_ms, owner) \
             VALUES (?, ?, ?, ?, ?) RETURNING id",
    insert_returns_id: true,
    blob_bytes: "SELECT COALESCE(SUM(LENGTH(bytes)), 0) FROM blob_parts WHERE blob_key = ?",
    lock_planet: "SELECT id FROM planets WHERE id = ?",
    share_planet: "SELECT id FROM planets WHERE id = ?",
    ..MYSQL
};

/// MySQL/MariaDB: `?` placeholders; MySQL has no `RETURNING`, the driver
/// reports `LAST_INSERT_ID()` instead.
const MYSQL: Statements = Statements {
    insert: "INSERT INTO planets (name, params, generator_version, created_at_ms, owner) \
             VALUES (?, ?, ?, ?, ?)",
    insert_returns_id: false,
    by_id: select!("WHERE id = ?"),
    by_name: select!("WHERE name = ?"),
    list_after: select!("WHERE id > ? ORDER BY id LIMIT ?"),
    delete: "DELETE FROM planets WHERE id = ?",
    count_owned: "SELECT COUNT(*) FROM planets WHERE owner = ?",
    // MySQL's SUM is DECIMAL, which sqlx's Any driver does not read as i64.
    blob_bytes: "SELECT CAST(COALESCE(SUM(LENGTH(bytes)), 0) AS SIGNED) FROM blob_parts WHERE blob_key = ?",
    delete_by_name: "DELETE FROM planets WHERE name = ?",
    lock_planet: "SELECT id FROM planets WHERE id = ? FOR UPDATE",
    share_planet: "SELECT id FROM planets WHERE id = ? LOCK IN SHARE MODE",
};

/// PostgreSQL: `$n` placeholders and `RETURNING`.
const POSTGRES: Statements = Statements {
    insert: "INSERT INTO planets (name, params, generator_version, created_at_ms, owner) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
    insert_returns_id: true,
    by_id: select!("WHERE id = $1"),
    by_name: select!("WHERE name = $1"),
    list_after: select!("WHERE id > $1 ORDER BY id LIMIT $2"),
    delete: "DELETE FROM planets WHERE id = $1",
    count_owned: "SELECT COUNT(*) FROM planets WHERE owner = $1",
    blob_bytes: "SELECT CAST(COALESCE(SUM(LENGTH(bytes)), 0) AS BIGINT) FROM blob_parts WHERE blob_key = $1",
    delete_by_name: "DELETE FROM planets WHERE name = $1",
    lock_planet: "SELECT id FROM planets WHERE id = $1 FOR UPDATE",
    share_planet: "SELECT id FROM planets WHERE id = $1 FOR SHARE",
};

/// The statements for `backend`.
pub(crate) fn statements(backend: Backend) -> &'static Statements {
    match backend {
        Backend::Sqlite => &SQLITE,
        Backend::MySql => &MYSQL,
        Backend::Postgres => &POSTGRES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLUMNS: &str = "id, name, params, generator_version, created_at_ms, owner";

    #[test]
    fn selects_read_every_column() {
        for s in [&SQLITE, &MYSQL, &POSTGRES] {
            for sql in [s.by_id, s.by_name, s.list_after] {
                assert!(sql.contains(COLUMNS), "{sql}");
            }
        }
    }

    #[test]
    fn postgres_statements_use_dollar_placeholders_only() {
        for sql in [
            POSTGRES.insert,
            POSTGRES.by_id,
            POSTGRES.by_name,
            POSTGRES.list_after,
            POSTGRES.delete,
            POSTGRES.count_owned,
            POSTGRES.blob_bytes,
            POSTGRES.delete_by_name,
            POSTGRES.lock_planet,
            POSTGRES.share_planet,
        ] {
            assert!(!sql.contains('?'), "{sql}");
        }
    }
}
