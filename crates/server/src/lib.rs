//! Mangekyo over HTTP: every generator, cached by content, and the web
//! viewer.
//!
//! Generated content is a pure function of its URL, so caching is by
//! content: responses carry a strong ETag that is a hash of the body, URLs
//! that pin the generator version (and, for stored planets, the parameter
//! hash) are `immutable`, `If-None-Match` gets 304, and an in-memory cache
//! keeps recent results (generating each key once under concurrent
//! misses), with their zstd and gzip copies, each compressed once.
//! Generation and compression run on the blocking pool behind a bounded
//! gate; every refusal is a JSON error naming the parameter and what was
//! expected.
//!
//! - [`Server`]: binds, serves, shuts down gracefully and closes the store.
//! - [`Config`] / [`Limits`]: address, database, limits.
//! - [`app`]: the router over an [`AppState`], for in-process use.
//! - [`ApiError`]: the JSON error answer.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! use mangekyo_server::{Config, Server};
//! let config = Config { addr: "127.0.0.1:0".parse().unwrap(), db: "sqlite::memory:".parse().unwrap(), ..Config::default() };
//! let server = Server::bind(config).await.unwrap();
//! let addr = server.local_addr();
//! let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
//! let running = tokio::spawn(server.run(async { let _ = stopped.await; }));
//! let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
//! # use tokio::io::{AsyncReadExt, AsyncWriteExt};
//! stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
//! let mut reply = String::new();
//! stream.read_to_string(&mut reply).await.unwrap();
//! assert!(reply.starts_with("HTTP/1.1 200"));
//! stop.send(()).unwrap();
//! running.await.unwrap().unwrap();
//! # });
//! ```
#![deny(missing_docs)]

pub mod access;
mod cache;
pub(crate) mod cancel;
pub(crate) mod canonical;
pub(crate) mod compression;
pub(crate) mod conn;
pub(crate) mod content;
pub(crate) mod cost;
pub(crate) mod error;
pub(crate) mod extract;
pub(crate) mod fair;
pub(crate) mod generated;
pub(crate) mod generators;
pub(crate) mod heavy;
pub(crate) mod http_rules;
pub(crate) mod limits;
pub(crate) mod metrics;
mod middleware;
pub(crate) mod openapi;
pub(crate) mod openapi_statuses;
pub(crate) mod paced_body;
pub(crate) mod paced_write;
pub(crate) mod planets;
pub(crate) mod public_url;
pub(crate) mod routes;
pub(crate) mod state;
pub(crate) mod tiers;
pub(crate) mod viewer;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{Method, header};
use mangekyo_store::{DbUrl, Store, StoreOptions};
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{Any, CorsLayer};
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

pub use access::{Access, AccessOptions};
pub use cancel::Cancel;
pub use cost::Estimate;
pub use error::ApiError;
pub use heavy::limit_malloc_arenas;
pub use limits::Limits;
pub use public_url::PublicUrl;
pub use state::AppState;
pub use viewer::Viewer;
// What the rest of the workspace and the integration tests use; every
// other item stays inside the crate (`unreachable_pub` holds that).
pub use canonical::Spelled;
pub use extract::{QueryParams, parse_json};
pub use planets::{PLANET_TTL, parse_new_params, parse_params};
pub use routes::document as openapi_document;
pub use routes::planets::CreatePlanet;

/// The address served unless told otherwise.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// How the server is set up.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The planet store.
    pub db: DbUrl,
    /// How the store connects.
    pub store: StoreOptions,
    /// The limits.
    pub limits: Limits,
    /// The viewer's directory (default: found by [`Viewer::locate`]).
    pub web: Option<PathBuf>,
    /// Tokens and the rules for requests without one (decided for `addr`:
    /// [`Access::decide`]).
    pub access: AccessOptions,
    /// The public base URL of absolute URLs in answers (TileJSON's tile
    /// URLs); without it they come from the checked `Host` and
    /// `X-Forwarded-Proto` and are never cached as shared or immutable.
    pub public_url: Option<PublicUrl>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: DEFAULT_ADDR
                .parse()
                .unwrap_or_else(|_| unreachable!("the default address parses")),
            db: DbUrl::default(),
            store: StoreOptions::default(),
            limits: Limits::default(),
            web: None,
            access: AccessOptions::default(),
            public_url: None,
        }
    }
}

/// A bound server, ready to run.
#[derive(Debug)]
pub struct Server {
    listener: tokio::net::TcpListener,
    router: Router,
    state: AppState,
    limits: Limits,
}

impl Server {
    /// Opens (and migrates) the store and binds the address.
    pub async fn bind(config: Config) -> anyhow::Result<Server> {
        let store = Store::open_with(&config.db, &config.store)
            .await
            .with_context(|| format!("opening the planet store at {}", config.db.redacted()))?;
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .with_context(|| format!("listening on {}", config.addr))?;
        let viewer = Viewer::locate(config.web);
        match viewer.dir() {
            Some(dir) => tracing::info!(dir = %dir.display(), "serving the viewer"),
            None => tracing::info!("no viewer directory found; / shows a landing page"),
        }
        let access = Access::decide(config.addr, config.access);
        tracing::info!("access: {}", access.describe());
        let mut limits = config.limits;
        let file_limit = conn::raise_file_limit();
        let reserve = conn::RESERVED_FILE_HANDLES + u64::from(config.store.max_connections);
        let max_connections = conn::clamp_connections(limits.max_connections, file_limit, reserve);
        if max_connections < limits.max_connections {
            tracing::warn!(
                asked = limits.max_connections,
                file_limit = file_limit.unwrap_or_default(),
                reserve,
                max_connections,
                "max connections clamped below the process's file-handle limit (raise `ulimit -n` for more)"
            );
            limits.max_connections = max_connections;
        }
        let (router, state) = app_with(store, limits.clone(), viewer, access, config.public_url);
        Ok(Server {
            listener,
            router,
            state,
            limits,
        })
    }

    /// The address actually bound (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| unreachable!("a bound TCP listener has an address"))
    }

    /// Serves until `shutdown` completes, lets in-flight requests finish,
    /// then closes the store.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        tracing::info!(addr = %self.local_addr(), "serving");
        conn::serve(self.listener, self.router, &self.limits, shutdown).await;
        // Tiers still computing give up: they are caches, and nothing of
        // theirs is stored until they finish.
        self.state.tiers.close();
        self.state.store.close().await;
        Ok(())
    }
}

/// The router and its state over an open store, open to every request
/// (as a loopback server without tokens is), with no public URL
/// configured.
pub fn app(store: Store, limits: Limits, viewer: Viewer) -> (Router, AppState) {
    app_with(store, limits, viewer, Access::default(), None)
}

/// The router and its state over an open store, under `access`, absolute
/// URLs starting with `public_url` when given.
pub fn app_with(
    store: Store,
    limits: Limits,
    viewer: Viewer,
    access: Access,
    public_url: Option<PublicUrl>,
) -> (Router, AppState) {
    let (api, doc) = routes::api().split_for_parts();
    // Every origin may read; pages of the origins the operator named may
    // also write (the guard refuses other origins' writes whatever the
    // browser does with this answer).
    let cors = if access.write_origins.is_empty() {
        CorsLayer::new()
            .allow_origin(Any)
            .allow_methods([Method::GET, Method::HEAD])
    } else {
        let listed: Vec<header::HeaderValue> = access
            .write_origins
            .iter()
            .filter_map(|o| header::HeaderValue::from_str(o).ok())
            .collect();
        CorsLayer::new()
            .allow_origin(tower_http::cors::AllowOrigin::predicate(
                move |origin, parts| listed.contains(origin) || access::only_reads(parts),
            ))
            .allow_methods([Method::GET, Method::HEAD, Method::POST, Method::DELETE])
            .vary([header::ORIGIN])
    };
    let state = AppState::new(
        store,
        limits.clone(),
        openapi::OpenApiJson::new(&doc),
        access,
        public_url,
    );
    let cors = cors
        .allow_headers([
            header::CONTENT_TYPE,
            header::IF_NONE_MATCH,
            header::AUTHORIZATION,
        ])
        .expose_headers([
            header::ETAG,
            header::CACHE_CONTROL,
            header::HeaderName::from_static("mangekyo-height-min"),
            header::HeaderName::from_static("mangekyo-height-max"),
            header::HeaderName::from_static("mangekyo-metres-per-sample"),
            header::HeaderName::from_static("mangekyo-layer"),
            header::RETRY_AFTER,
            header::LOCATION,
        ]);
    let trace = TraceLayer::new_for_http()
        .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
        .on_response(DefaultOnResponse::new().level(Level::INFO));
    // Outermost first: a panic anywhere becomes a JSON 500; the coding is
    // negotiated (a 406 before any work) and the answer compressed on the
    // compute gate, cached beside its content (`compression.rs`); timeouts
    // and metrics wrap the handler alone.
    let middleware = ServiceBuilder::new()
        .layer(CatchPanicLayer::custom(|_| {
            axum::response::IntoResponse::into_response(ApiError::internal(
                "the handler",
                &"panicked",
            ))
        }))
        // Runs the request as its client for the fair gate: by address
        // out here (compression), by token once the guard knows it.
        .layer(axum::middleware::from_fn(fair::identify))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            compression::negotiate,
        ))
        .layer(trace)
        .layer(cors)
        .layer(axum::middleware::from_fn(http_rules::preconditions))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            middleware::observe,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            access::guard,
        ))
        .layer(axum::middleware::from_fn(fair::identify))
        .layer(axum::middleware::from_fn_with_state(
            limits.clone(),
            paced_body::pace,
        ))
        .layer(axum::Extension(limits::BodyLimit(limits.body_bytes)))
        .layer(DefaultBodyLimit::max(limits.body_bytes));
    let router = api
        .fallback(move |request: Request| {
            let viewer = viewer.clone();
            async move { viewer.serve(request).await }
        })
        .method_not_allowed_fallback(|request: Request| async move {
            axum::response::IntoResponse::into_response(ApiError::method_not_allowed(
                request.method().as_str(),
                request.uri().path(),
            ))
        })
        .layer(middleware)
        .with_state(state.clone());
    (router, state)
}
