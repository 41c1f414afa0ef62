//! The planet registry over SQL: SQLite by default, MariaDB/MySQL or PostgreSQL by URL.
#![deny(missing_docs)]
