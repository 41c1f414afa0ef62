//! Cached blobs by key: bytes a server computed once and keeps so that
//! restarts and other replicas can skip the work (a planet's coarse tier).
//!
//! A blob is a cache of a pure function, never the only copy of anything:
//! a missing blob is recomputed. The store checks nothing inside it (the
//! caller's format carries its own hash); it keeps the parts of one blob
//! together, written in one transaction, so a reader sees a whole blob or
//! none. A write replaces what was stored, so a blob the caller found bad
//! and computed again is overwritten, not kept.
//!
//! Blob keys come from planet parameters, so several planets can share
//! one blob. `planet_blobs` records which planets use which blob (written
//! with the blob, or when a planet loads one); deleting a planet deletes,
//! in the same transaction, every blob it used that no other planet uses.

use sqlx::Row;

use crate::tx::WriteTx;
use crate::{Backend, Store, StoreError};

/// The most bytes in one stored part (under MariaDB's default 16 MiB packet
/// and its `MEDIUMBLOB`).
pub const PART_BYTES: usize = 4 << 20;

/// The longest key, bytes.
pub const MAX_KEY_BYTES: usize = 64;

/// The largest blob stored, bytes (a coarse tier at N = 1024 is 63 MB).
pub const MAX_BLOB_BYTES: usize = 256 << 20;

struct BlobSql {
    /// Writes one part, replacing what is stored under its key and number.
    upsert: &'static str,
    /// Removes the parts numbered from `?2` on (a longer blob was stored
    /// under the key before).
    trim: &'static str,
    parts: &'static str,
    /// [`BlobSql::parts`], keeping them from being collected until the
    /// transaction ends.
    parts_shared: &'static str,
    /// Locks a blob's parts for collection.
    lock_parts: &'static str,
    /// Whether blob `?1` is stored (its first part), keeping it from being
    /// collected until the transaction ends.
    first_part_shared: &'static str,
    delete: &'static str,
    /// Records that planet `?1` uses blob `?2`.
    add_ref: &'static str,
    /// The blobs planet `?1` uses, in key order (the order their parts are
    /// locked in, so two deletions never wait on each other in a circle).
    refs_of_planet: &'static str,
    drop_refs_of_planet: &'static str,
    drop_refs_of_blob: &'static str,
    /// Deletes blob `?1` unless a planet still uses it (`?2` is the key
    /// again).
    collect: &'static str,
}

/// Every write replaces: the server writes a blob after computing it, and
/// it computes one only when none is stored or the stored one failed its
/// checks, so what it writes is the good copy. Replicas that computed the
/// same blob together write the same bytes.
const SQLITE: BlobSql = BlobSql {
    upsert: "INSERT INTO blob_parts (blob_key, part, bytes) VALUES (?, ?, ?) \
             ON CONFLICT (blob_key, part) DO UPDATE SET bytes = excluded.bytes",
    trim: "DELETE FROM blob_parts WHERE blob_key = ? AND part >= ?",
    parts: "SELECT part, bytes FROM blob_parts WHERE blob_key = ? ORDER BY part",
    parts_shared: "SELECT part, bytes FROM blob_parts WHERE blob_key = ? ORDER BY part",
    lock_parts: "SELECT part FROM blob_parts WHERE blob_key = ? ORDER BY part",
    first_part_shared: "SELECT part FROM blob_parts WHERE blob_key = ? AND part = 0",
    delete: "DELETE FROM blob_parts WHERE blob_key = ?",
    add_ref: "INSERT OR IGNORE INTO planet_blobs (planet_id, blob_key) VALUES (?, ?)",
    refs_of_planet: "SELECT blob_key FROM planet_blobs WHERE planet_id = ? ORDER BY blob_key",
    drop_refs_of_planet: "DELETE FROM planet_blobs WHERE planet_id = ?",
    drop_refs_of_blob: "DELETE FROM planet_blobs WHERE blob_key = ?",
    collect: "DELETE FROM blob_parts WHERE blob_key = ? AND NOT EXISTS \
              (SELECT 1 FROM planet_blobs WHERE planet_blobs.blob_key = ?)",
};

const MYSQL: BlobSql = BlobSql {
    upsert: "INSERT INTO blob_parts (blob_key, part, bytes) VALUES (?, ?, ?) \
             ON DUPLICATE KEY UPDATE bytes = VALUES(bytes)",
    parts_shared: "SELECT part, bytes FROM blob_parts WHERE blob_key = ? ORDER BY part \
                   LOCK IN SHARE MODE",
    lock_parts: "SELECT part FROM blob_parts WHERE blob_key = ? ORDER BY part FOR UPDATE",
    first_part_shared: "SELECT part FROM blob_parts WHERE blob_key = ? AND part = 0 \
                        LOCK IN SHARE MODE",
    add_ref: "INSERT IGNORE INTO planet_blobs (planet_id, blob_key) VALUES (?, ?)",
    ..SQLITE
};

const POSTGRES: BlobSql = BlobSql {
    upsert: "INSERT INTO blob_parts (blob_key, part, bytes) VALUES ($1, $2, $3) \
             ON CONFLICT (blob_key, part) DO UPDATE SET bytes = EXCLUDED.bytes",
    trim: "DELETE FROM blob_parts WHERE blob_key = $1 AND part >= $2",
    parts: "SELECT part, bytes FROM blob_parts WHERE blob_key = $1 ORDER BY part",
    parts_shared: "SELECT part, bytes FROM blob_parts WHERE blob_key = $1 ORDER BY part FOR SHARE",
    lock_parts: "SELECT part FROM blob_parts WHERE blob_key = $1 ORDER BY part FOR UPDATE",
    first_part_shared: "SELECT part FROM blob_parts WHERE blob_key = $1 AND part = 0 FOR SHARE",
    delete: "DELETE FROM blob_parts WHERE blob_key = $1",
    add_ref: "INSERT INTO planet_blobs (planet_id, blob_key) VALUES ($1, $2) \
              ON CONFLICT DO NOTHING",
    refs_of_planet: "SELECT blob_key FROM planet_blobs WHERE planet_id = $1 ORDER BY blob_key",
    drop_refs_of_planet: "DELETE FROM planet_blobs WHERE planet_id = $1",
    drop_refs_of_blob: "DELETE FROM planet_blobs WHERE blob_key = $1",
    collect: "DELETE FROM blob_parts WHERE blob_key = $1 AND NOT EXISTS \
              (SELECT 1 FROM planet_blobs WHERE planet_blobs.blob_key = $2)",
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

/// Joins a blob's parts in order; a gap in the part numbers reads as no
/// blob.
fn join(rows: &[sqlx::any::AnyRow]) -> Result<Option<Vec<u8>>, sqlx::Error> {
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

impl Store {
    /// Stores `bytes` under `key` for planet `planet_id`, in parts, in one
    /// transaction, replacing whatever was stored under `key` (a blob that
    /// failed its checks is overwritten by the good one), and records that
    /// the planet uses it. `false`, and nothing stored, if the planet is
    /// gone: its blob would belong to no one.
    pub async fn put_blob(
        &self,
        planet_id: i64,
        key: &str,
        bytes: &[u8],
    ) -> Result<bool, StoreError> {
        check_key(key)?;
        if bytes.is_empty() || bytes.len() > MAX_BLOB_BYTES {
            return Err(StoreError::InvalidBlob {
                reason: format!(
                    "blob {key:?} is {} bytes; 1 to {MAX_BLOB_BYTES} are stored",
                    bytes.len()
                ),
            });
        }
        let put = self.put_parts(planet_id, key, bytes).await;
        self.settle(put).await
    }

    async fn put_parts(&self, planet_id: i64, key: &str, bytes: &[u8]) -> Result<bool, StoreError> {
        self.check_file()?;
        let mut tx = WriteTx::begin(&self.pool, self.backend).await?;
        let written = self.write_parts(&mut tx, planet_id, key, bytes).await;
        let stored = tx.finish(written).await?;
        self.check_file()?;
        Ok(stored)
    }

    async fn write_parts(
        &self,
        tx: &mut WriteTx,
        planet_id: i64,
        key: &str,
        bytes: &[u8],
    ) -> Result<bool, StoreError> {
        let q = sql(self.backend());
        {
            // The planet's row stays until this commits; a deletion that
            // got there first leaves no row, and then nothing is stored.
            let planet = sqlx::query(self.sql.share_planet)
                .bind(planet_id)
                .fetch_optional(tx.conn())
                .await?;
            if planet.is_none() {
                return Ok(false);
            }
            let mut parts = 0i64;
            for piece in bytes.chunks(PART_BYTES) {
                sqlx::query(q.upsert)
                    .bind(key)
                    .bind(parts)
                    .bind(piece.to_vec())
                    .execute(tx.conn())
                    .await?;
                parts += 1;
            }
            sqlx::query(q.trim)
                .bind(key)
                .bind(parts)
                .execute(tx.conn())
                .await?;
            sqlx::query(q.add_ref)
                .bind(planet_id)
                .bind(key)
                .execute(tx.conn())
                .await?;
            Ok(true)
        }
    }

    /// The blob under `key`, for planet `planet_id`: read, and recorded as
    /// used by that planet, in one transaction (so a deletion of the last
    /// other planet using it either sees this planet's use or has already
    /// removed the blob, and then this finds none). `None` if no whole blob
    /// is stored; the blob is read but not recorded if the planet is gone.
    pub async fn load_blob(
        &self,
        planet_id: i64,
        key: &str,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        check_key(key)?;
        let loaded = self.load_parts(planet_id, key).await;
        self.settle(loaded).await
    }

    async fn load_parts(&self, planet_id: i64, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.check_file()?;
        let mut tx = WriteTx::begin(&self.pool, self.backend).await?;
        let read = self.read_and_record(&mut tx, planet_id, key).await;
        tx.finish(read).await
    }

    async fn read_and_record(
        &self,
        tx: &mut WriteTx,
        planet_id: i64,
        key: &str,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        let q = sql(self.backend());
        {
            let planet = sqlx::query(self.sql.share_planet)
                .bind(planet_id)
                .fetch_optional(tx.conn())
                .await?;
            let rows = sqlx::query(q.parts_shared)
                .bind(key)
                .fetch_all(tx.conn())
                .await?;
            let blob = join(&rows)?;
            if blob.is_some() && planet.is_some() {
                sqlx::query(q.add_ref)
                    .bind(planet_id)
                    .bind(key)
                    .execute(tx.conn())
                    .await?;
            }
            Ok(blob)
        }
    }

    /// Records that planet `planet_id` uses the blob under `key` (a planet
    /// served from a blob another planet loaded), as [`Store::load_blob`]
    /// does without reading it. `false` if the blob or the planet is gone.
    pub async fn claim_blob(&self, planet_id: i64, key: &str) -> Result<bool, StoreError> {
        check_key(key)?;
        let claimed = self.claim(planet_id, key).await;
        self.settle(claimed).await
    }

    async fn claim(&self, planet_id: i64, key: &str) -> Result<bool, StoreError> {
        self.check_file()?;
        let mut tx = WriteTx::begin(&self.pool, self.backend).await?;
        let recorded = self.record_use(&mut tx, planet_id, key).await;
        tx.finish(recorded).await
    }

    async fn record_use(
        &self,
        tx: &mut WriteTx,
        planet_id: i64,
        key: &str,
    ) -> Result<bool, StoreError> {
        let q = sql(self.backend());
        {
            let planet = sqlx::query(self.sql.share_planet)
                .bind(planet_id)
                .fetch_optional(tx.conn())
                .await?;
            let blob = sqlx::query(q.first_part_shared)
                .bind(key)
                .fetch_optional(tx.conn())
                .await?;
            if planet.is_none() || blob.is_none() {
                return Ok(false);
            }
            sqlx::query(q.add_ref)
                .bind(planet_id)
                .bind(key)
                .execute(tx.conn())
                .await?;
            Ok(true)
        }
    }

    /// The blob under `key`, if one is stored (its parts joined in order;
    /// a gap in the part numbers reads as no blob). A plain read, recording
    /// no use: [`Store::load_blob`] is the server's.
    pub async fn get_blob(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        check_key(key)?;
        self.check_file()?;
        let rows = sqlx::query(sql(self.backend()).parts)
            .bind(key)
            .fetch_all(&self.pool)
            .await?;
        Ok(join(&rows)?)
    }

    /// Deletes the blob under `key` (and every planet's record of using
    /// it); `false` if there was none.
    pub async fn delete_blob(&self, key: &str) -> Result<bool, StoreError> {
        check_key(key)?;
        self.check_file()?;
        let mut tx = WriteTx::begin(&self.pool, self.backend).await?;
        let deleted = self.delete_parts(&mut tx, key).await;
        let deleted = tx.finish(deleted).await;
        self.settle(deleted).await
    }

    async fn delete_parts(&self, tx: &mut WriteTx, key: &str) -> Result<bool, StoreError> {
        let q = sql(self.backend());
        sqlx::query(q.drop_refs_of_blob)
            .bind(key)
            .execute(tx.conn())
            .await?;
        let done = sqlx::query(q.delete).bind(key).execute(tx.conn()).await?;
        Ok(done.rows_affected() > 0)
    }

    /// Inside a planet's deletion (its row locked): drops the planet's
    /// records of the blobs it uses and deletes each blob no other planet
    /// uses. Each blob's parts are locked first, so a concurrent load or
    /// write of the same blob for another planet either committed its
    /// record before (and the blob stays) or runs after (and finds no
    /// blob, so recomputes and writes it again).
    pub(crate) async fn release_blobs(
        &self,
        tx: &mut WriteTx,
        planet_id: i64,
    ) -> Result<(), StoreError> {
        let q = sql(self.backend());
        let keys: Vec<String> = sqlx::query_scalar(q.refs_of_planet)
            .bind(planet_id)
            .fetch_all(tx.conn())
            .await?;
        for key in &keys {
            sqlx::query(q.lock_parts)
                .bind(key)
                .fetch_all(tx.conn())
                .await?;
        }
        sqlx::query(q.drop_refs_of_planet)
            .bind(planet_id)
            .execute(tx.conn())
            .await?;
        for key in &keys {
            let done = sqlx::query(q.collect)
                .bind(key)
                .bind(key)
                .execute(tx.conn())
                .await?;
            if done.rows_affected() > 0 {
                tracing::info!(key = %key, planet = planet_id, "blob collected with its last planet");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_blob_statements_use_dollar_placeholders_only() {
        let p = &POSTGRES;
        for s in [
            p.upsert,
            p.trim,
            p.parts,
            p.parts_shared,
            p.lock_parts,
            p.first_part_shared,
            p.delete,
            p.add_ref,
            p.refs_of_planet,
            p.drop_refs_of_planet,
            p.drop_refs_of_blob,
            p.collect,
        ] {
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
