//! `mangekyo serve`: the HTTP service (planets, chunks, tiles, caves,
//! dungeons, islands) and the web viewer, over a planet store.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use mangekyo_server::access::Tokens;
use mangekyo_server::{AccessOptions, Config, Limits, Server};
use mangekyo_store::DbUrl;

/// Flags of `mangekyo serve`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The planet store: a SQLite file path (created if missing), or a
    /// sqlite:, mysql://, mariadb:// or postgres:// URL.
    #[arg(long, default_value = mangekyo_store::DEFAULT_SQLITE_FILE)]
    db: String,
    /// Where to listen.
    #[arg(long, default_value = mangekyo_server::DEFAULT_ADDR)]
    addr: SocketAddr,
    /// The web viewer's directory (default: web/dist or web/ if present).
    #[arg(long)]
    web: Option<PathBuf>,
    /// Generation jobs at once (default: one per CPU core).
    #[arg(long)]
    workers: Option<usize>,
    /// Memory for generated responses, in MiB.
    #[arg(long, default_value_t = 256)]
    cache_mib: u64,
    /// Memory for planets' coarse tiers, kept and being computed, in MiB.
    /// A tier weighs up to 27 bytes per cell of its graph (6·graph_n²
    /// cells) and its computation holds about ten times that: 27 and 268
    /// MiB at the default graph_n 408, 163 and 1,666 MiB at the largest,
    /// 1024. Computations may hold three quarters of this; creating a
    /// planet whose tier or computation would not fit is refused (400
    /// naming graph_n).
    #[arg(long, default_value_t = 512)]
    tier_cache_mib: u64,
    /// Coarse tiers computed at once; the others wait, the ones requests
    /// are waiting for first, then fairly across clients. Each tier
    /// already uses every core, so 2 (the default) is for a small tier to
    /// pass a big one, not for speed.
    #[arg(long, default_value_t = 2)]
    tier_computes: usize,
    /// Seconds a request may take before it is answered 503.
    #[arg(long, default_value_t = 30)]
    timeout: u64,
    /// The most work one preview, plates or rivers GeoJSON, pyramid tile
    /// or posted island may ask for, in work units (about 100 ns of one
    /// core each); more is refused with 422 over_budget naming the
    /// parameter and the largest value that fits. The default, 30 s of
    /// one core, admits every preview up to 4096 wide.
    #[arg(long, default_value_t = mangekyo_server::Limits::default().job_cost)]
    job_cost: u64,
    /// Open connections at once; past it the oldest idle one is closed,
    /// or the new one refused. Clamped below the file-handle limit
    /// (`ulimit -n`, raised to its hard limit at start) less a reserve of
    /// 64 and the store's connections; the log says when.
    #[arg(long, default_value_t = 512)]
    max_connections: usize,
    /// Seconds a client may take to send its request headers (and a
    /// keep-alive connection may sit idle).
    #[arg(long, default_value_t = 10)]
    header_timeout: u64,
    /// The URL clients reach this server at (`https://maps.example`, with
    /// an optional path prefix): absolute URLs in answers (TileJSON's tile
    /// URLs) start with it, and such answers may then be cached by a CDN
    /// as immutable. Without it they are built from the request's checked
    /// `Host` and `X-Forwarded-Proto` and marked `private`.
    #[arg(long)]
    public_url: Option<mangekyo_server::PublicUrl>,
    /// Access tokens: a file of `name scope sha256:<hex> [quotas]` lines
    /// (`mangekyo token new` makes them). With tokens, creating and
    /// deleting planets needs one. The environment variable
    /// MANGEKYO_TOKENS may hold the lines themselves instead.
    #[arg(long, env = "MANGEKYO_TOKENS_FILE", value_name = "FILE")]
    tokens: Option<PathBuf>,
    /// Reading needs a token too (every route but /healthz).
    #[arg(long)]
    private: bool,
    /// Requests without a token may create and delete planets even when
    /// the server listens beyond loopback (off by default: a public server
    /// refuses anonymous writes).
    #[arg(long)]
    allow_anonymous_writes: bool,
    /// Refuse every write: a replica that only serves what the store holds.
    #[arg(long)]
    read_only: bool,
    /// A web origin (`https://host[:port]`) whose pages may create and
    /// delete planets (every origin may read). Repeat for more.
    #[arg(long, value_name = "ORIGIN", value_parser = parse_origin)]
    write_origin: Vec<String>,
}

/// `scheme://host[:port]`, as browsers send in `Origin`.
fn parse_origin(text: &str) -> Result<String, String> {
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
        .ok_or("expected http:// or https:// followed by host[:port]")?;
    if rest.is_empty() || rest.contains(['/', '?', '#', ' ', '@']) {
        return Err(
            "expected scheme://host[:port], no path (browsers send origins without one)".into(),
        );
    }
    Ok(text.to_ascii_lowercase())
}

/// The tokens from `--tokens`/MANGEKYO_TOKENS_FILE, or MANGEKYO_TOKENS.
fn read_tokens(file: Option<&std::path::Path>) -> anyhow::Result<Tokens> {
    let inline = std::env::var("MANGEKYO_TOKENS")
        .ok()
        .filter(|t| !t.trim().is_empty());
    match (file, inline) {
        (Some(_), Some(_)) => anyhow::bail!(
            "tokens come from both --tokens (or MANGEKYO_TOKENS_FILE) and MANGEKYO_TOKENS; give one"
        ),
        (Some(path), None) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading the tokens file {}", path.display()))?;
            Tokens::parse(&text, &path.display().to_string()).map_err(anyhow::Error::msg)
        }
        (None, Some(text)) => Tokens::parse(&text, "MANGEKYO_TOKENS").map_err(anyhow::Error::msg),
        (None, None) => Ok(Tokens::none()),
    }
}

/// Runs the subcommand until Ctrl-C or SIGTERM.
pub(crate) fn run(args: Args) -> anyhow::Result<()> {
    // Before any thread starts (see the function).
    mangekyo_server::limit_malloc_arenas();
    init_logging();
    let db = DbUrl::parse(&args.db)?;
    let defaults = Limits::default();
    let workers = args.workers.unwrap_or(defaults.workers).max(1);
    anyhow::ensure!(
        (1..=3600).contains(&args.timeout),
        "--timeout must be in 1..=3600 seconds, got {}",
        args.timeout
    );
    anyhow::ensure!(
        (1..=3600).contains(&args.header_timeout),
        "--header-timeout must be in 1..=3600 seconds, got {}",
        args.header_timeout
    );
    anyhow::ensure!(
        (1..=1_000_000).contains(&args.max_connections),
        "--max-connections must be in 1..=1000000, got {}",
        args.max_connections
    );
    anyhow::ensure!(
        (1..=1 << 20).contains(&args.tier_cache_mib),
        "--tier-cache-mib must be in 1..=1048576, got {}",
        args.tier_cache_mib
    );
    anyhow::ensure!(
        (1..=64).contains(&args.tier_computes),
        "--tier-computes must be in 1..=64 (tiers computed at once), got {}",
        args.tier_computes
    );
    anyhow::ensure!(
        args.job_cost >= 10_000_000,
        "--job-cost must be at least 10000000 work units (the default 1024-wide preview of any version fits), got {}",
        args.job_cost
    );
    let limits = Limits {
        max_connections: args.max_connections,
        job_cost: args.job_cost,
        header_timeout: Duration::from_secs(args.header_timeout),
        workers,
        queue: 64 * workers,
        cache_bytes: args.cache_mib * 1024 * 1024,
        tier_cache_bytes: args.tier_cache_mib * 1024 * 1024,
        tier_computes: args.tier_computes,
        timeout: Duration::from_secs(args.timeout),
        ..defaults
    };
    let access = AccessOptions {
        tokens: read_tokens(args.tokens.as_deref())?,
        private: args.private,
        allow_anonymous_writes: args.allow_anonymous_writes,
        read_only: args.read_only,
        write_origins: args.write_origin,
    };
    anyhow::ensure!(
        !(access.private && access.tokens.is_empty()),
        "--private needs tokens (--tokens FILE or MANGEKYO_TOKENS): no one could read otherwise"
    );
    let config = Config {
        addr: args.addr,
        db,
        limits,
        web: args.web,
        access,
        public_url: args.public_url,
        ..Config::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    let served = runtime.block_on(async {
        let server = Server::bind(config).await?;
        errln!("mangekyo serving on http://{}", server.local_addr());
        server.run(shutdown_signal()).await
    });
    // Generation jobs whose requests timed out may still be running on
    // blocking threads; their answers would go nowhere, so the process
    // does not wait for them (dropping the runtime would).
    runtime.shutdown_timeout(SHUTDOWN_GRACE);
    served
}

/// How long, after the last connection closed, the process waits for
/// blocking jobs before it exits.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// Logs to stderr; `RUST_LOG` overrides the default (`info`).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

/// Completes on Ctrl-C or (on Unix) SIGTERM, as sent by `kill`, systemd
/// and Kubernetes.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
    tracing::info!("shutting down: finishing in-flight requests");
}
