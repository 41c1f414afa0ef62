//! Connection hygiene: the accept loop under the router.
//!
//! `axum::serve` gives hyper no timer, so hyper's header-read timeout never
//! runs and a client that opens a socket and never finishes its headers
//! holds a file handle forever (the request timeout starts only once a
//! request exists). This loop drives hyper's HTTP/1 connections itself:
//!
//! - every connection has a header-read timeout, which also bounds how long
//!   a keep-alive connection may sit idle between requests;
//! - at most [`Limits::max_connections`] are open: past it the oldest
//!   connection with no request in flight (one still waiting for headers,
//!   or idle) is closed to make room, and when every connection is busy the
//!   new one gets a fixed 503 written without parsing anything;
//! - a client that stops reading an answer is cut once the answer falls
//!   below a minimum rate ([`PacedWrite`]);
//! - a keep-alive connection serves at most
//!   [`Limits::requests_per_connection`] requests;
//! - accept errors (`EMFILE` under a flood) back off instead of spinning,
//!   and the cap is clamped below the process's file-handle limit (raised
//!   to its hard limit first, [`raise_file_limit`]) so they stay rare;
//! - shutdown closes idle connections at once and lets requests in flight
//!   finish, for at most the request timeout.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tower::ServiceExt;

use crate::limits::Limits;
use crate::paced_write::PacedWrite;

/// The answer to a connection over the cap when none can be closed for it:
/// fixed bytes, written once without waiting, then the socket is dropped.
const REFUSAL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\n\
content-type: application/json\r\n\
retry-after: 1\r\n\
connection: close\r\n\
content-length: 110\r\n\
\r\n\
{\"error\":{\"status\":503,\"code\":\"too_many_connections\",\"message\":\"every connection is busy; retry in a second\"}}";

/// How long the accept loop pauses after an accept error (out of file
/// handles, out of memory) before trying again.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// File handles kept for everything but client connections: the
/// listener, the runtime's own (epoll, wakers, signal pipes), log and
/// viewer files, blobs being read (the store's pool is added to it).
pub(crate) const RESERVED_FILE_HANDLES: u64 = 64;

/// Connections at once for `wanted` (`--max-connections`) under a
/// process limit of `file_limit` handles, `reserve` of which other things
/// need: a connection past the limit is never accepted (`EMFILE`), so
/// evicting idle connections must start before it, or clients that open
/// sockets and send nothing keep everyone else out until the header
/// timeout. At least 1; `None` (no limit known) keeps `wanted`.
pub(crate) fn clamp_connections(wanted: usize, file_limit: Option<u64>, reserve: u64) -> usize {
    let Some(limit) = file_limit else {
        return wanted;
    };
    // A limit below the reserve: half of it still serves someone.
    let room = limit.saturating_sub(reserve).max(limit / 2).max(1);
    wanted.min(usize::try_from(room).unwrap_or(usize::MAX))
}

/// Raises this process's soft limit of open files to its hard limit (as
/// the Go runtime does at start; the soft limit is often 1,024 under a
/// hard limit of 500,000) and answers the soft limit in force after, or
/// `None` where it cannot be read.
#[cfg(unix)]
pub(crate) fn raise_file_limit() -> Option<u64> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE).ok()?;
    // An unlimited hard limit is not a valid soft one on Linux (it must be
    // at most fs.nr_open, 1,048,576 by default).
    let target = hard.min(1 << 20);
    if target > soft && setrlimit(Resource::RLIMIT_NOFILE, target, hard).is_ok() {
        return Some(target);
    }
    Some(soft)
}

/// No file-handle limit is known off Unix.
#[cfg(not(unix))]
pub(crate) fn raise_file_limit() -> Option<u64> {
    None
}

/// One open connection, as the registry sees it.
#[derive(Debug, Default)]
struct Slot {
    /// Requests being answered on it right now.
    in_flight: AtomicUsize,
    /// Requests it has served.
    served: AtomicUsize,
    /// Told to close to make room for a newer connection.
    evict: Notify,
}

/// The open connections, oldest first (ids only grow).
#[derive(Debug)]
struct Registry {
    open: Mutex<BTreeMap<u64, Arc<Slot>>>,
    next: AtomicU64,
    max: usize,
}

impl Registry {
    fn new(max: usize) -> Registry {
        Registry {
            open: Mutex::new(BTreeMap::new()),
            next: AtomicU64::new(0),
            max: max.max(1),
        }
    }

    /// Room for one more connection: its id and slot, or `None` when the
    /// cap is reached and every open connection has a request in flight.
    fn admit(&self) -> Option<(u64, Arc<Slot>)> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.len() >= self.max {
            let victim = open
                .iter()
                .find(|(_, s)| s.in_flight.load(Ordering::Acquire) == 0)
                .map(|(id, _)| *id)?;
            if let Some(slot) = open.remove(&victim) {
                slot.evict.notify_one();
            }
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let slot = Arc::new(Slot::default());
        open.insert(id, Arc::clone(&slot));
        Some((id, slot))
    }

    fn remove(&self, id: u64) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.remove(&id);
    }
}

/// Marks a request in flight on its connection until dropped.
struct Busy(Arc<Slot>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves `router` on `listener` until `shutdown` completes, then closes
/// idle connections and waits for requests in flight.
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: &Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let registry = Arc::new(Registry::new(limits.max_connections));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let per_connection = limits.requests_per_connection.max(1);
    let (stop, stopping) = watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let mut last_warning: Option<Instant> = None;
    tokio::pin!(shutdown);
    loop {
        while connections.try_join_next().is_some() {}
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => (stream, peer.ip()),
                Err(e) => {
                    // A reset before accept is the client's business; running
                    // out of handles is ours: say so at most once a second.
                    if !is_connection_error(&e) {
                        if last_warning.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                            tracing::warn!(error = %e, "accept failed; backing off");
                            last_warning = Some(Instant::now());
                        }
                        tokio::time::sleep(ACCEPT_BACKOFF).await;
                    }
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some((id, slot)) = registry.admit() else {
            refuse(&stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let connection = Connection {
            registry: Arc::clone(&registry),
            id,
            slot,
            per_connection,
            send_grace: limits.send_grace,
            send_min_rate: limits.send_min_rate,
            peer,
        };
        let stopping = stopping.clone();
        let builder = builder.clone();
        let router = router.clone();
        connections.spawn(connection.run(stream, router, builder, stopping));
    }
    drop(listener);
    let _ = stop.send(true);
    // Requests in flight get the request timeout to finish, no more: an
    // answer still unwritten by then would have been a 503 anyway.
    let drained = tokio::time::timeout(limits.timeout, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            connections = connections.len(),
            "closing connections still busy after the request timeout"
        );
        connections.shutdown().await;
    }
}

/// Writes the fixed refusal if the socket takes it at once, then drops it.
fn refuse(stream: &TcpStream) {
    let _ = stream.try_write(REFUSAL);
}

/// Errors that concern one connection only (it was reset before accept).
fn is_connection_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
    )
}

/// One accepted connection and its place in the registry.
struct Connection {
    registry: Arc<Registry>,
    id: u64,
    slot: Arc<Slot>,
    per_connection: usize,
    send_grace: Duration,
    send_min_rate: u64,
    /// The client's address: who the fair gate serves (`fair.rs`).
    peer: std::net::IpAddr,
}

impl Connection {
    async fn run(
        self,
        stream: TcpStream,
        router: Router,
        builder: hyper::server::conn::http1::Builder,
        mut stopping: watch::Receiver<bool>,
    ) {
        let slot = Arc::clone(&self.slot);
        let per_connection = self.per_connection;
        let peer = crate::fair::PeerIp(self.peer);
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(peer);
            let router = router.clone();
            let served = slot.served.fetch_add(1, Ordering::AcqRel) + 1;
            slot.in_flight.fetch_add(1, Ordering::AcqRel);
            let busy = Busy(Arc::clone(&slot));
            async move {
                let mut response = router.oneshot(request).await?;
                if served >= per_connection {
                    response
                        .headers_mut()
                        .insert(header::CONNECTION, HeaderValue::from_static("close"));
                }
                drop(busy);
                Ok::<_, Infallible>(response)
            }
        });
        let stream = PacedWrite::new(stream, self.send_grace, self.send_min_rate);
        let conn = builder.serve_connection(TokioIo::new(stream), service);
        tokio::pin!(conn);
        let mut closing = false;
        loop {
            tokio::select! {
                result = conn.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(error = %e, "connection ended");
                    }
                    break;
                }
                // The connection is polled only here, so no request can
                // start between this check and the drop.
                () = self.slot.evict.notified(), if !closing => {
                    if self.idle() {
                        tracing::debug!("closing an idle connection to make room");
                        break;
                    }
                    closing = true;
                    conn.as_mut().graceful_shutdown();
                }
                _ = stopping.changed(), if !closing => {
                    if self.idle() {
                        break;
                    }
                    closing = true;
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
        self.registry.remove(self.id);
    }

    fn idle(&self) -> bool {
        self.slot.in_flight.load(Ordering::Acquire) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_is_a_whole_http_answer() {
        let text = std::str::from_utf8(REFUSAL).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(body.len(), length);
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["error"]["code"], "too_many_connections");
    }

    #[test]
    fn the_registry_evicts_the_oldest_idle_connection_and_refuses_when_all_are_busy() {
        let registry = Registry::new(2);
        let (a, slot_a) = registry.admit().unwrap();
        let (_, slot_b) = registry.admit().unwrap();
        slot_b.in_flight.fetch_add(1, Ordering::AcqRel);
        // Full: the oldest idle one (a) makes room.
        let (_, slot_c) = registry.admit().unwrap();
        assert!(!registry.open.lock().unwrap().contains_key(&a));
        // A stored permit: a's task would wake at once.
        let woke = futures_now(slot_a.evict.notified());
        assert!(woke, "the evicted connection was told to close");
        // Full again, and both open connections are busy: refused.
        slot_c.in_flight.fetch_add(1, Ordering::AcqRel);
        assert!(registry.admit().is_none());
    }

    #[test]
    fn connections_stay_below_the_file_handle_limit() {
        // The measured case: 256 handles, the default 512 connections.
        assert_eq!(clamp_connections(512, Some(256), 72), 184);
        // Room enough: the operator's number.
        assert_eq!(clamp_connections(512, Some(65_536), 72), 512);
        // No limit known: unchanged.
        assert_eq!(clamp_connections(512, None, 72), 512);
        // A limit under the reserve still serves, with half of it.
        assert_eq!(clamp_connections(512, Some(40), 72), 20);
        assert_eq!(clamp_connections(512, Some(1), 72), 1);
        assert_eq!(clamp_connections(512, Some(0), 72), 1);
    }

    #[cfg(unix)]
    #[test]
    fn the_file_limit_is_raised_to_the_hard_limit() {
        use nix::sys::resource::{Resource, getrlimit};
        let now = raise_file_limit().expect("readable on Unix");
        let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE).unwrap();
        assert_eq!(now, soft);
        assert_eq!(soft, hard.min(1 << 20).max(soft));
    }

    /// Whether `f` is ready on its first poll.
    fn futures_now(f: impl Future<Output = ()>) -> bool {
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        let mut f = std::pin::pin!(f);
        f.as_mut().poll(&mut cx).is_ready()
    }
}
