//! Database URLs: which backend a URL names, the SQLite default, and
//! password-free forms for logs.

use crate::StoreError;

/// The SQL backend behind a store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    /// SQLite in a file (the embedded default).
    Sqlite,
    /// MySQL or MariaDB.
    MySql,
    /// PostgreSQL.
    Postgres,
}

impl Backend {
    /// A short lowercase name (`sqlite`, `mysql`, `postgres`).
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::MySql => "mysql",
            Backend::Postgres => "postgres",
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The file the store uses when no URL is given.
pub const DEFAULT_SQLITE_FILE: &str = "mangekyo.db";

/// A database URL the store can open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DbUrl {
    backend: Backend,
    url: String,
}

impl DbUrl {
    /// Parses `sqlite:…`, `mysql://…`, `mariadb://…`, `postgres://…` or
    /// `postgresql://…`; anything without a scheme is a SQLite file path.
    ///
    /// SQLite files are created when missing (`mode=rwc`) unless the URL
    /// sets a `mode` itself.
    ///
    /// ```
    /// use mangekyo_store::{Backend, DbUrl};
    /// let url = DbUrl::parse("planets.db").unwrap();
    /// assert_eq!(url.backend(), Backend::Sqlite);
    /// assert_eq!(url.as_str(), "sqlite://planets.db?mode=rwc");
    /// let pg = DbUrl::parse("postgres://me:secret@db/planets").unwrap();
    /// assert_eq!(pg.redacted(), "postgres://me:***@db/planets");
    /// ```
    pub fn parse(text: &str) -> Result<DbUrl, StoreError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(invalid(
                text,
                "is empty; give a file path or a sqlite:, mysql:// or postgres:// URL",
            ));
        }
        let Some((scheme, _)) = text.split_once(':').filter(|(s, _)| is_scheme(s)) else {
            return Ok(DbUrl::sqlite_file(text));
        };
        let backend = match scheme.to_ascii_lowercase().as_str() {
            "sqlite" => Backend::Sqlite,
            "mysql" | "mariadb" => Backend::MySql,
            "postgres" | "postgresql" => Backend::Postgres,
            other => {
                let reason = format!(
                    "has scheme {other:?}; expected sqlite, mysql, mariadb, postgres or postgresql"
                );
                return Err(invalid(text, &reason));
            }
        };
        let mut url = text.to_owned();
        if backend == Backend::Sqlite && !has_query_key(&url, "mode") {
            url.push(if url.contains('?') { '&' } else { '?' });
            url.push_str("mode=rwc");
        }
        Ok(DbUrl { backend, url })
    }

    /// The URL of a SQLite file at `path`, created when missing.
    pub fn sqlite_file(path: &str) -> DbUrl {
        DbUrl {
            backend: Backend::Sqlite,
            url: format!("sqlite://{path}?mode=rwc"),
        }
    }

    /// The backend this URL names.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The full URL (may contain a password: do not log it).
    pub fn as_str(&self) -> &str {
        &self.url
    }

    /// The URL with any password replaced by `***`, for logs and errors.
    pub fn redacted(&self) -> String {
        redact(&self.url)
    }
}

impl std::str::FromStr for DbUrl {
    type Err = StoreError;

    fn from_str(text: &str) -> Result<DbUrl, StoreError> {
        DbUrl::parse(text)
    }
}

impl Default for DbUrl {
    fn default() -> DbUrl {
        DbUrl::sqlite_file(DEFAULT_SQLITE_FILE)
    }
}

/// A URL scheme is a letter followed by letters, digits, `+`, `-` or `.`;
/// a Windows drive letter (`C:`) is one letter and is treated as a path.
fn is_scheme(s: &str) -> bool {
    s.len() > 1
        && s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

fn has_query_key(url: &str, key: &str) -> bool {
    url.split_once('?')
        .is_some_and(|(_, q)| q.split('&').any(|kv| kv.split('=').next() == Some(key)))
}

fn invalid(url: &str, reason: &str) -> StoreError {
    StoreError::InvalidUrl {
        url: redact(url),
        reason: reason.to_owned(),
    }
}

/// Replaces the password in `scheme://user:password@host` with `***`.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) if userinfo.contains(':') => {
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{scheme}://{user}:***@{host}{tail}")
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_are_sqlite_files() {
        for path in ["mangekyo.db", "./data/p.sqlite", "/tmp/x.db", "C:/x.db"] {
            let url = DbUrl::parse(path).unwrap();
            assert_eq!(url.backend(), Backend::Sqlite, "{path}");
            assert_eq!(url.as_str(), format!("sqlite://{path}?mode=rwc"));
        }
    }

    #[test]
    fn schemes_pick_backends() {
        let cases = [
            ("sqlite::memory:", Backend::Sqlite),
            ("sqlite://a.db?mode=ro", Backend::Sqlite),
            ("mysql://root@127.0.0.1/test", Backend::MySql),
            ("mariadb://root@127.0.0.1/test", Backend::MySql),
            ("postgres://postgres@127.0.0.1/test", Backend::Postgres),
            ("PostgreSQL://u@h/db", Backend::Postgres),
        ];
        for (text, backend) in cases {
            assert_eq!(DbUrl::parse(text).unwrap().backend(), backend, "{text}");
        }
        assert_eq!(
            DbUrl::parse("sqlite://a.db?mode=ro").unwrap().as_str(),
            "sqlite://a.db?mode=ro"
        );
        assert_eq!(
            DbUrl::parse("sqlite::memory:").unwrap().as_str(),
            "sqlite::memory:?mode=rwc"
        );
    }

    #[test]
    fn unknown_schemes_and_empty_urls_are_named() {
        let err = DbUrl::parse("redis://:pw@h/0").unwrap_err().to_string();
        assert!(
            err.contains("\"redis\"") && err.contains("expected sqlite"),
            "{err}"
        );
        assert!(!err.contains("pw"), "password leaked: {err}");
        assert!(
            DbUrl::parse("  ")
                .unwrap_err()
                .to_string()
                .contains("is empty")
        );
    }

    #[test]
    fn passwords_never_reach_logs() {
        assert_eq!(
            redact("mysql://root:hunter2@db:3306/x"),
            "mysql://root:***@db:3306/x"
        );
        assert_eq!(redact("mysql://root@db/x"), "mysql://root@db/x");
        assert_eq!(redact("postgres://u:p@ss@h/x"), "postgres://u:***@h/x");
        assert_eq!(redact("sqlite://a.db"), "sqlite://a.db");
    }
}
