//! What can go wrong in the store, named so a caller can answer it well.

/// An error from the planet store.
///
/// The variants a client caused ([`StoreError::NameTaken`],
/// [`StoreError::InvalidName`], [`StoreError::InvalidParams`]) are separate
/// from the ones the operator must fix (URL, connection, migration) and from
/// plain database failures, so the server can map them to 4xx and 5xx.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database URL could not be understood.
    #[error("database URL {url:?}: {reason}")]
    InvalidUrl {
        /// The URL as given, with any password removed.
        url: String,
        /// What was wrong and what is accepted.
        reason: String,
    },
    /// The database could not be reached or opened.
    #[error("cannot open database {url}: {source}")]
    Connect {
        /// The URL, with any password removed.
        url: String,
        /// The driver's error.
        source: sqlx::Error,
    },
    /// The schema migrations failed.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// Another planet already has this name.
    #[error("a planet named {name:?} already exists")]
    NameTaken {
        /// The name asked for.
        name: String,
    },
    /// The planet name breaks the naming rules.
    #[error("name {reason}")]
    InvalidName {
        /// What the rule is and how the name broke it.
        reason: String,
    },
    /// The parameters are not a JSON object or are too large.
    #[error("params {reason}")]
    InvalidParams {
        /// What was wrong.
        reason: String,
    },
    /// A cached blob's key or size is outside what the store keeps.
    #[error("blob {reason}")]
    InvalidBlob {
        /// What was wrong.
        reason: String,
    },
    /// A stored row could not be read back (hand-edited or from a newer schema).
    #[error("planet {id} in the store is unreadable: {reason}")]
    CorruptRow {
        /// The row's id.
        id: i64,
        /// What could not be decoded.
        reason: String,
    },
    /// The SQLite file the store opened is no longer the file at its path
    /// (deleted or replaced under the running server): nothing written now
    /// would survive a restart, so writes are refused.
    #[error(
        "the SQLite file {path} is gone: {reason}; restart the server to open the file now at that path"
    )]
    FileReplaced {
        /// The file's path.
        path: String,
        /// What happened to it.
        reason: String,
    },
    /// The last write failed and none has succeeded since (reported by
    /// [`crate::Store::health`] between its probe writes).
    #[error("the store cannot write (for {for_s} s): {reason}")]
    CannotWrite {
        /// The last write's error.
        reason: String,
        /// Seconds since writes began to fail.
        for_s: u64,
    },
    /// Any other database failure.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
}

impl StoreError {
    /// Whether the caller (rather than the database or the operator) is at fault.
    pub fn is_client_error(&self) -> bool {
        matches!(
            self,
            StoreError::NameTaken { .. }
                | StoreError::InvalidName { .. }
                | StoreError::InvalidParams { .. }
        )
    }

    /// Whether the schema is gone (the database was dropped and created
    /// again, or the tables were dropped): migrating again brings it back.
    pub(crate) fn is_missing_table(&self) -> bool {
        let StoreError::Database(sqlx::Error::Database(db)) = self else {
            return false;
        };
        // MySQL/MariaDB 42S02 (ER_NO_SUCH_TABLE), PostgreSQL 42P01; SQLite
        // has only its generic error code and says so in words.
        matches!(db.code().as_deref(), Some("42S02" | "42P01"))
            || db.message().starts_with("no such table")
    }
}
