//! Cached blobs by key: bytes a server computed once and keeps so that
//! restarts and other replicas can skip the work (a planet's coarse tier).
//!
//! A blob is a cache of a pure function, never the only copy of anything:
//! a missing blob is recomputed. The store checks nothing inside it (the
//! caller's format carries its own hash); it keeps the parts of one blob
//! together, written in one transaction, so a reader sees a whole blob or
//! none.

use sqlx::Row;

use crate::{Backend, Store, StoreError};

/// The most bytes in one stored part (under MariaDB's default 16 MiB packet
/// and its `MEDIUMBLOB`).
pub const PART_BYTES: usize = 4 << 20;

/// The longest key, bytes.
pub const MAX_KEY_BYTES: usize = 64;

/// The largest blob stored, bytes (a coarse tier at N = 1024 is 63 MB).
pub const MAX_BLOB_BYTES: usize = 256 << 20;

struct BlobSql {
    insert: &'static str,
    parts: &'static str,
    delete: &'static str,
}

/// `INSERT` that leaves an existing part alone: replicas that computed
/// the same blob together write the same bytes, and the first one wins.
const SQLITE: BlobSql = BlobSql {
    insert: "INSERT OR IGNORE INTO blob_parts (blob_key, part, bytes) VALUES (?, ?, ?)",
    parts: "SELECT part, bytes FROM blob_parts WHERE blob_key = ? ORDER BY part",
    delete: "DELETE FROM blob_parts WHERE blob_key = ?",
};

const MYSQL: BlobSql = BlobSql {
    insert: "INSERT IGNORE INTO blob_parts (blob_key, part, bytes) VALUES (?, ?, ?)",
    ..SQLITE
};

const POSTGRES: BlobSql = BlobSql {
    insert: "INSERT INTO blob_parts (blob_key, part, bytes) VALUES ($1, $2, $3) \
             ON CONFLICT DO NOTHING",
    parts: "SELECT part, bytes FROM blob_parts WHERE blob_key = $1 ORDER BY part",
    delete: "DELETE FROM blob_parts WHERE blob_key = $1",
};

fn sql(backend: Backend) -> &'static BlobSql {
    match backend {
        Backend::Sqlite => &SQLITE,
        Backend::MySql => &MYSQL,
        Backend::Postgres => &POSTGRES,
    }
}

fn check_key(key: &str) -> Result<(), StoreError> {
    if key.is_empty() || key.len() > MAX_KEY_BYTES || !key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(StoreError::InvalidBlob {
            reason: format!("key {key:?} must be 1 to {MAX_KEY_BYTES} printable ASCII characters"),
        });
    }
    Ok(())
}

impl Store {
    /// Stores `bytes` under `key`, in parts, in one transaction. A blob
    /// already stored under `key` is kept (the same key names the same
    /// bytes).
    pub async fn put_blob(&self, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        check_key(key)?;
        if bytes.is_empty() || bytes.len() > MAX_BLOB_BYTES {
            return Err(StoreError::InvalidBlob {
                reason: format!(
                    "blob {key:?} is {} bytes; 1 to {MAX_BLOB_BYTES} are stored",
                    bytes.len()
                ),
            });
        }
        self.check_file()?;
        let q = sql(self.backend());
        let mut tx = self.pool.begin().await?;
        for (part, piece) in bytes.chunks(PART_BYTES).enumerate() {
            sqlx::query(q.insert)
                .bind(key)
                .bind(part as i64)
                .bind(piece.to_vec())
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        self.check_file()?;
        Ok(())
    }

    /// The blob under `key`, if one is stored (its parts joined in order;
    /// a gap in the part numbers reads as no blob).
    pub async fn get_blob(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        check_key(key)?;
        self.check_file()?;
        let rows = sqlx::query(sql(self.backend()).parts)
            .bind(key)
            .fetch_all(&self.pool)
            .await?;
        if rows.is_empty() {
            return Ok(None);
        }
        let mut out = Vec::new();
        for (expected, row) in rows.iter().enumerate() {
            let part: i64 = row.try_get(0)?;
            if part != expected as i64 {
                return Ok(None);
            }
            let bytes: Vec<u8> = row.try_get(1)?;
            out.extend_from_slice(&bytes);
        }
        Ok(Some(out))
    }

    /// Deletes the blob under `key`; `false` if there was none.
    pub async fn delete_blob(&self, key: &str) -> Result<bool, StoreError> {
        check_key(key)?;
        self.check_file()?;
        let done = sqlx::query(sql(self.backend()).delete)
            .bind(key)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_blob_statements_use_dollar_placeholders_only() {
        for s in [POSTGRES.insert, POSTGRES.parts, POSTGRES.delete] {
            assert!(!s.contains('?'), "{s}");
        }
    }

    #[test]
    fn keys_are_short_printable_ascii() {
        assert!(check_key("t1/0123456789abcdef").is_ok());
        for bad in ["", "a b", "é", &"k".repeat(65)] {
            assert!(check_key(bad).is_err(), "{bad:?}");
        }
    }
}
