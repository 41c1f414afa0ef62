//! Who may do what: bearer tokens with scopes, the rule for requests
//! without one, writes from browsers, per-token quotas and read-only
//! replicas.
//!
//! A token is a secret the operator hands to a client; the server keeps
//! only its SHA-256 ([`Tokens::parse`] reads `name scope sha256:<hex>`
//! lines, `mangekyo token new` makes them). A plain hash is enough because
//! tokens are 256 random bits, not passwords: there is nothing to guess.
//!
//! Scopes nest: `read` ⊂ `create` ⊂ `admin`. Reading (every GET, and the
//! POSTs that only compute: islands, Roblox batches) needs `read`;
//! creating a planet and deleting one's own need `create`; deleting anyone's
//! needs `admin`. What a request without a token may do is the server's
//! [`Access::anonymous`]: everything on an open loopback server (the local
//! viewer), reading elsewhere.

use std::collections::{BTreeMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::state::AppState;

mod tokens;

pub use tokens::{Quota, SECRET_PREFIX, Scope, Token, Tokens, token_line};

/// How the server decides who may do what.
#[derive(Debug, Clone)]
pub struct Access {
    /// The configured tokens.
    pub tokens: Tokens,
    /// What a request without a token may do; `None`: nothing but health.
    pub anonymous: Option<Scope>,
    /// Refuse every write (a replica that only serves).
    pub read_only: bool,
    /// Browser origins (`https://host[:port]`) allowed to write besides the
    /// server's own; every origin may read.
    pub write_origins: Vec<String>,
}

/// The operator's choices [`Access::decide`] turns into an [`Access`].
#[derive(Debug, Clone, Default)]
pub struct AccessOptions {
    /// The configured tokens.
    pub tokens: Tokens,
    /// Reading needs a token too.
    pub private: bool,
    /// Requests without a token may write even off loopback (the operator
    /// opts out of the safe default by name).
    pub allow_anonymous_writes: bool,
    /// Refuse every write.
    pub read_only: bool,
    /// Browser origins allowed to write.
    pub write_origins: Vec<String>,
}

impl Default for Access {
    /// Open: what a test or an in-process server on loopback gets.
    fn default() -> Access {
        Access {
            tokens: Tokens::none(),
            anonymous: Some(Scope::Admin),
            read_only: false,
            write_origins: Vec::new(),
        }
    }
}

impl Access {
    /// The rules for a server bound to `addr`. Without tokens, a loopback
    /// server stays open (the local viewer creates and deletes planets);
    /// any other address refuses anonymous writes unless the operator
    /// allows them by name. With tokens, a request without one may read
    /// (unless `private`), and writes need a token.
    pub fn decide(addr: SocketAddr, options: AccessOptions) -> Access {
        let anonymous = if options.private {
            None
        } else if options.allow_anonymous_writes
            || (options.tokens.is_empty() && addr.ip().is_loopback())
        {
            Some(if options.tokens.is_empty() {
                Scope::Admin
            } else {
                Scope::Create
            })
        } else {
            Some(Scope::Read)
        };
        Access {
            tokens: options.tokens,
            anonymous,
            read_only: options.read_only,
            write_origins: options.write_origins,
        }
    }

    /// A sentence for the start-up log.
    pub fn describe(&self) -> String {
        let anonymous = match self.anonymous {
            None => "requests without a token are refused (private)".to_owned(),
            Some(Scope::Read) => "requests without a token may only read".to_owned(),
            Some(Scope::Create) => "requests without a token may read and create".to_owned(),
            Some(Scope::Admin) => "requests without a token may do anything (open)".to_owned(),
        };
        let read_only = if self.read_only {
            "; read-only: every write is refused"
        } else {
            ""
        };
        format!("{} token(s); {anonymous}{read_only}", self.tokens.len())
    }
}

/// Who sent a request, as the handlers see it.
#[derive(Debug, Clone)]
pub enum Principal {
    /// No token; may do what [`Access::anonymous`] allows.
    Anonymous(Scope),
    /// A configured token.
    Token(Arc<Token>),
}

impl Principal {
    /// What it may do.
    pub fn scope(&self) -> Scope {
        match self {
            Principal::Anonymous(scope) => *scope,
            Principal::Token(t) => t.scope,
        }
    }

    /// The owner its planets record.
    pub fn owner(&self) -> Option<&str> {
        match self {
            Principal::Anonymous(_) => None,
            Principal::Token(t) => Some(&t.name),
        }
    }

    /// Whether it may delete a planet owned by `owner`: an admin any, a
    /// creator its own (a request without a token, those made without one).
    pub fn may_delete(&self, owner: Option<&str>) -> bool {
        self.scope() >= Scope::Admin || (self.scope() >= Scope::Create && self.owner() == owner)
    }
}

/// The routes that write: everything else only reads (or computes).
fn needs(method: &Method, route: Option<&str>) -> Scope {
    match (method.as_str(), route) {
        ("POST", Some("/v1/planets")) | ("DELETE", Some("/v1/planets/{id}")) => Scope::Create,
        _ => Scope::Read,
    }
}

/// Checks every request against the rules before its handler runs, and
/// hands the handler its [`Principal`].
pub(crate) async fn guard(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let access = &state.access;
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_owned());
    // Load balancers probe health without credentials.
    if route.as_deref() == Some("/healthz") {
        return next.run(request).await;
    }
    let method = request.method().clone();
    let needed = needs(&method, route.as_deref());
    let headers = request.headers();
    if !is_safe(&method)
        && let Some(refusal) = cross_origin(headers, &access.write_origins)
    {
        return refusal.into_response();
    }
    let principal = match bearer(headers) {
        Ok(None) => match access.anonymous {
            Some(scope) => Principal::Anonymous(scope),
            None => {
                return unauthorized(
                    "this server is private: every request needs a token with scope read",
                );
            }
        },
        Ok(Some(secret)) => match access.tokens.find(secret) {
            Some(token) => Principal::Token(Arc::clone(token)),
            None => return unauthorized("the bearer token is not one this server knows"),
        },
        Err(why) => return unauthorized(why),
    };
    if needed > Scope::Read && access.read_only {
        return ApiError::forbidden(
            "read_only",
            "this server is read-only: it serves planets but creates and deletes none",
        )
        .into_response();
    }
    if principal.scope() < needed {
        let message = format!(
            "{} {} needs a token with scope {needed}",
            method,
            route.as_deref().unwrap_or("this route")
        );
        return match principal {
            Principal::Anonymous(_) => unauthorized(&message),
            Principal::Token(t) => ApiError::forbidden(
                "insufficient_scope",
                format!("{message}; token {:?} has scope {}", t.name, t.scope),
            )
            .into_response(),
        };
    }
    let private = access.anonymous.is_none();
    request.extensions_mut().insert(principal);
    let mut response = next.run(request).await;
    if private {
        // A shared cache must not hand what a token read to a request
        // without one.
        privatise(response.headers_mut());
    }
    response
}

/// Whether a request (or the request a CORS preflight announces) only
/// reads.
pub(crate) fn only_reads(parts: &axum::http::request::Parts) -> bool {
    if parts.method == Method::OPTIONS {
        return parts
            .headers
            .get(header::ACCESS_CONTROL_REQUEST_METHOD)
            .is_some_and(|m| m == "GET" || m == "HEAD");
    }
    is_safe(&parts.method)
}

fn is_safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// A write sent by a page of another origin than the server's own (or a
/// configured one) is refused, whatever its credentials: CORS only stops
/// the page reading the answer, not the server acting on the request.
fn cross_origin(headers: &HeaderMap, allowed: &[String]) -> Option<ApiError> {
    let origin = headers.get(header::ORIGIN)?;
    let origin = origin.to_str().unwrap_or("(not text)");
    let own = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|host| {
            ["http://", "https://"]
                .iter()
                .any(|scheme| origin.strip_prefix(scheme) == Some(host))
        });
    if own || allowed.iter().any(|a| a == origin) {
        return None;
    }
    Some(ApiError::forbidden(
        "cross_origin",
        format!(
            "writes from the web origin {origin:?} are refused; the operator allows an origin with --write-origin"
        ),
    ))
}

/// The secret of an `Authorization: Bearer …` header, if there is one.
fn bearer(headers: &HeaderMap) -> Result<Option<&str>, &'static str> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value
        .to_str()
        .map_err(|_| "the Authorization header is not text")?;
    let (scheme, secret) = value
        .split_once(' ')
        .ok_or("the Authorization header must be `Bearer <token>`")?;
    if !scheme.eq_ignore_ascii_case("bearer") || secret.trim().is_empty() {
        return Err("the Authorization header must be `Bearer <token>`");
    }
    Ok(Some(secret.trim()))
}

fn unauthorized(message: &str) -> Response {
    let mut response = ApiError::unauthorized(message).into_response();
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"mangekyo\""),
    );
    response
}

/// `public` becomes `private` (immutable and max-age stay: the browser
/// may keep what it was allowed to read).
fn privatise(headers: &mut HeaderMap) {
    let Some(value) = headers
        .get(header::CACHE_CONTROL)
        .and_then(|v| v.to_str().ok())
    else {
        return;
    };
    if value.contains("public") {
        let private = value.replace("public", "private");
        if let Ok(v) = HeaderValue::from_str(&private) {
            headers.insert(header::CACHE_CONTROL, v);
        }
    }
}

/// Tier computations each token started in the last hour.
#[derive(Debug, Default)]
pub(crate) struct Usage {
    starts: Mutex<BTreeMap<String, VecDeque<Instant>>>,
}

const HOUR: Duration = Duration::from_secs(3600);

impl Usage {
    /// Counts a tier computation for `token` if its quota allows one now;
    /// otherwise the seconds until it will.
    pub(crate) fn start_tier(&self, token: &Token, now: Instant) -> Result<(), u64> {
        let Some(limit) = token.quota.tiers_per_hour else {
            return Ok(());
        };
        let mut starts = self.starts.lock().unwrap_or_else(|e| e.into_inner());
        let window = starts.entry(token.name.clone()).or_default();
        while window
            .front()
            .is_some_and(|t| now.duration_since(*t) >= HOUR)
        {
            window.pop_front();
        }
        if window.len() >= limit as usize {
            let oldest = window.front().copied().unwrap_or(now);
            let wait = HOUR.saturating_sub(now.duration_since(oldest));
            return Err(wait.as_secs().max(1));
        }
        window.push_back(now);
        Ok(())
    }
}

/// The refusal of a request over its token's quota.
pub(crate) fn over_quota(token: &Token, what: &str, retry_after: Option<u64>) -> Response {
    let error = ApiError::quota(format!("token {:?} is over its quota: {what}", token.name));
    match retry_after {
        Some(seconds) => {
            let mut response = error.into_response();
            if let Ok(v) = HeaderValue::from_str(&seconds.to_string()) {
                response.headers_mut().insert(header::RETRY_AFTER, v);
            }
            response
        }
        None => error.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "mgk_0123456789abcdef";

    fn line(name: &str, scope: Scope) -> String {
        token_line(name, scope, SECRET).unwrap()
    }

    #[test]
    fn token_files_keep_hashes_and_find_secrets() {
        let text = format!(
            "# ops\n\n{} planets=3 tiers_per_hour=10 storage_mib=500\n",
            line("alice", Scope::Create)
        );
        let tokens = Tokens::parse(&text, "tokens.txt").unwrap();
        let alice = tokens.find(SECRET).unwrap();
        assert_eq!((alice.name.as_str(), alice.scope), ("alice", Scope::Create));
        assert_eq!(
            alice.quota,
            Quota {
                planets: Some(3),
                tiers_per_hour: Some(10),
                storage_mib: Some(500)
            }
        );
        assert!(tokens.find("mgk_wrong").is_none());
        assert!(!text.contains(SECRET), "the file holds no secret");
    }

    #[test]
    fn bad_token_lines_are_named() {
        let cases = [
            ("alice create", "expected `name scope"),
            (
                &*format!("alice root sha256:{}", "0".repeat(64)),
                "scope \"root\"",
            ),
            ("alice read mgk_plain_secret", "never the secret itself"),
            (
                &*format!("alice read sha256:{}", "0".repeat(63)),
                "64 hex digits",
            ),
            (
                &*format!("al ice read sha256:{}", "0".repeat(64)),
                "scope \"ice\"",
            ),
            (
                &*format!("alice read sha256:{} cpu=3", "0".repeat(64)),
                "unknown quota",
            ),
            (
                &*format!("alice read sha256:{} planets=-1", "0".repeat(64)),
                "whole number",
            ),
            (
                &*format!("a/b read sha256:{}", "0".repeat(64)),
                "must be 1 to 64",
            ),
        ];
        for (text, want) in cases {
            let err = Tokens::parse(&format!("# x\n{text}\n"), "t.txt").unwrap_err();
            assert!(err.starts_with("t.txt line 2: "), "{err}");
            assert!(err.contains(want), "{text}: {err}");
        }
        let twice = format!("{}\n{}\n", line("a", Scope::Read), line("a", Scope::Admin));
        assert!(
            Tokens::parse(&twice, "t")
                .unwrap_err()
                .contains("already used on line 1")
        );
        let same = format!("{}\n{}\n", line("a", Scope::Read), line("b", Scope::Admin));
        assert!(Tokens::parse(&same, "t").unwrap_err().contains("twice"));
    }

    #[test]
    fn the_default_is_open_only_on_loopback_without_tokens() {
        let loopback: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let v6: SocketAddr = "[::1]:8080".parse().unwrap();
        let public: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let tokens = Tokens::parse(&line("a", Scope::Admin), "t").unwrap();
        let decide = |addr, options| Access::decide(addr, options).anonymous;
        assert_eq!(
            decide(loopback, AccessOptions::default()),
            Some(Scope::Admin)
        );
        assert_eq!(decide(v6, AccessOptions::default()), Some(Scope::Admin));
        assert_eq!(decide(public, AccessOptions::default()), Some(Scope::Read));
        let opt_out = AccessOptions {
            allow_anonymous_writes: true,
            ..AccessOptions::default()
        };
        assert_eq!(decide(public, opt_out), Some(Scope::Admin));
        let with_tokens = AccessOptions {
            tokens: tokens.clone(),
            ..AccessOptions::default()
        };
        assert_eq!(decide(loopback, with_tokens), Some(Scope::Read));
        let private = AccessOptions {
            tokens,
            private: true,
            ..AccessOptions::default()
        };
        assert_eq!(decide(loopback, private), None);
    }

    #[test]
    fn owners_and_admins_delete() {
        let token = |name: &str, scope| {
            Principal::Token(Arc::new(Token {
                name: name.to_owned(),
                scope,
                quota: Quota::default(),
            }))
        };
        assert!(token("alice", Scope::Create).may_delete(Some("alice")));
        assert!(!token("alice", Scope::Create).may_delete(Some("bob")));
        assert!(!token("alice", Scope::Create).may_delete(None));
        assert!(!token("alice", Scope::Read).may_delete(Some("alice")));
        assert!(token("root", Scope::Admin).may_delete(Some("bob")));
        assert!(Principal::Anonymous(Scope::Admin).may_delete(Some("bob")));
        assert!(Principal::Anonymous(Scope::Create).may_delete(None));
        assert!(!Principal::Anonymous(Scope::Create).may_delete(Some("bob")));
    }

    #[test]
    fn tier_quotas_slide_over_the_hour() {
        let usage = Usage::default();
        let token = Token {
            name: "a".into(),
            scope: Scope::Create,
            quota: Quota {
                tiers_per_hour: Some(2),
                ..Quota::default()
            },
        };
        let t0 = Instant::now();
        assert!(usage.start_tier(&token, t0).is_ok());
        assert!(
            usage
                .start_tier(&token, t0 + Duration::from_secs(600))
                .is_ok()
        );
        let wait = usage
            .start_tier(&token, t0 + Duration::from_secs(1200))
            .unwrap_err();
        assert_eq!(wait, 2400, "until the first start is an hour old");
        assert!(usage.start_tier(&token, t0 + HOUR).is_ok());
    }

    #[test]
    fn writes_from_other_origins_are_refused() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:8080"));
        assert!(
            cross_origin(&h, &[]).is_none(),
            "no Origin: not a browser page"
        );
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:8080"),
        );
        assert!(cross_origin(&h, &[]).is_none(), "the viewer itself");
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://evil.example"),
        );
        assert_eq!(cross_origin(&h, &[]).unwrap().code, "cross_origin");
        assert!(cross_origin(&h, &["https://evil.example".to_owned()]).is_none());
        h.insert(header::ORIGIN, HeaderValue::from_static("null"));
        assert!(cross_origin(&h, &[]).is_some(), "sandboxed pages send null");
    }
}
