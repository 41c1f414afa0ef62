//! The server's limits, with their defaults and reasons, and the gate that
//! runs CPU-heavy generation off the async threads, a bounded number at a
//! time, fairly across clients.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::Request;

use crate::cancel::Cancel;
use crate::cost::Estimate;
use crate::error::ApiError;
use crate::fair::FairQueue;
use crate::metrics::Metrics;

/// Every limit the server enforces.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Largest request body in bytes. Default 1 MiB: a planet's parameters
    /// are a few hundred bytes and an island definition a few tens of KiB.
    pub body_bytes: usize,
    /// Generation jobs running at once. Default: one per CPU core, since
    /// generation is CPU-bound and more would only add queueing inside the
    /// thread pool.
    pub workers: usize,
    /// Generation jobs allowed to wait for a worker before new ones get
    /// 503. Default 64 per worker: a few seconds of work at chunk speeds.
    pub queue: usize,
    /// Wall-clock limit per request. Default 30 s.
    pub timeout: Duration,
    /// How long a request body may take before it must keep up
    /// [`Limits::body_min_rate`] (see `paced_body.rs`). Default 5 s.
    pub body_grace: Duration,
    /// The average rate, bytes a second, a request body must keep up after
    /// [`Limits::body_grace`], or the request is answered 408. Default
    /// 4 KiB/s: a full 1 MiB body gets over four minutes, a body trickled
    /// a byte at a time is cut after the grace.
    pub body_min_rate: u64,
    /// How long an answer's writes may stay blocked (the client not
    /// reading) before they must keep up [`Limits::send_min_rate`] (see
    /// `paced_write.rs`). Default 10 s.
    pub send_grace: Duration,
    /// The average rate, bytes a second, a blocked answer must keep up
    /// after [`Limits::send_grace`], or its connection is closed. Default
    /// 8 KiB/s: a 22 MB Roblox batch may take 45 minutes, a reader taking
    /// a byte a second is cut after the grace.
    pub send_min_rate: u64,
    /// Bytes of generated responses kept in memory. Default 256 MiB.
    pub cache_bytes: u64,
    /// Most items in one batch request. Default 64.
    pub batch_items: usize,
    /// Open connections at once. Default 512, well under the usual 1,024
    /// file handles (and clamped below the process's limit at start):
    /// past it the oldest connection still waiting for its request
    /// headers is closed, and when none is waiting the new one is refused
    /// with a fixed 503 (see `conn.rs`).
    pub max_connections: usize,
    /// How long a client may take to send a request's headers, counted from
    /// the moment the server is ready to read them (also the most a
    /// keep-alive connection stays idle). Default 10 s.
    pub header_timeout: Duration,
    /// Requests served on one keep-alive connection before it is closed
    /// (`Connection: close` on the last answer). Default 1,000.
    pub requests_per_connection: usize,
    /// Island sites a posted definition may ask for (the largest
    /// `site_count.max` of the requested scope). Default 10,000: the
    /// example world asks for 24, and generation costs grow faster than
    /// linearly with the count.
    pub island_sites: u32,
    /// The most work one preview, plates or rivers GeoJSON, pyramid tile
    /// or posted island may ask for, in work units (about 100 ns of one
    /// core each: `cost.rs`), estimated from the request before it is
    /// queued; more is refused with 422 `over_budget`. Default
    /// 300,000,000: 30 s of one core, the request timeout, so it refuses
    /// only work that could not finish in time on a loaded server, and
    /// admits every preview (4096 wide at version 4 is about 59 million)
    /// and plates GeoJSON (0.1° about 32 million).
    pub job_cost: u64,
    /// Bytes of planets' coarse tiers in memory, kept and being computed.
    /// Default 512 MiB: about twenty planets at the default graph size (up
    /// to 27 MiB each, `CoarseTier::estimated_heap_bytes`), or one
    /// computing (268 MiB, `CoarseTier::estimated_work_bytes`) beside ten;
    /// a planet whose tier or computation would not fit is refused at
    /// creation.
    pub tier_cache_bytes: u64,
    /// How long a request that needs a planet's coarse tier waits for it
    /// before it gets 503 with `Retry-After`. Default 2 s.
    pub tier_wait: Duration,
    /// How long `POST /v1/planets` waits for the new planet's coarse tier
    /// before it answers 202 with a status link instead of 201. Default
    /// 250 ms: a small tier is ready by then, the default one is not.
    pub tier_create_wait: Duration,
    /// Coarse tiers computed at once; more wait, the tiers requests are
    /// waiting for first, then fairly across clients. Default 2: each tier
    /// already uses every core (rayon), so more only share the same CPUs,
    /// but a second lets a small tier pass a big one instead of waiting
    /// behind it. At least 1.
    pub tier_computes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        let workers = std::thread::available_parallelism().map_or(2, usize::from);
        Limits {
            body_bytes: 1024 * 1024,
            workers,
            queue: 64 * workers,
            timeout: Duration::from_secs(30),
            body_grace: Duration::from_secs(5),
            body_min_rate: 4096,
            send_grace: Duration::from_secs(10),
            send_min_rate: 8192,
            cache_bytes: 256 * 1024 * 1024,
            batch_items: 64,
            max_connections: 512,
            header_timeout: Duration::from_secs(10),
            requests_per_connection: 1000,
            island_sites: 10_000,
            job_cost: crate::cost::DEFAULT_JOB_COST,
            tier_cache_bytes: 512 * 1024 * 1024,
            tier_wait: Duration::from_secs(2),
            tier_create_wait: Duration::from_millis(250),
            tier_computes: 2,
        }
    }
}

/// The body limit, as a request extension the JSON extractor reads to
/// name the limit in its error.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyLimit(pub usize);

/// The body limit in force for `req` (the default if none was set).
pub(crate) fn body_limit_of(req: &Request) -> usize {
    req.extensions()
        .get::<BodyLimit>()
        .map_or(Limits::default().body_bytes, |l| l.0)
}

/// Runs generation on the blocking thread pool, at most `workers` at once
/// and at most `queue` waiting, the waiting served fairly across clients
/// (`fair.rs`), each job cancellable (`cancel.rs`).
#[derive(Debug)]
pub struct ComputeGate {
    workers: Arc<FairQueue>,
    metrics: Arc<Metrics>,
    timeout: Duration,
}

/// Kinds of work that take seconds where a chunk takes milliseconds: they
/// run in the heavy lane (`heavy.rs`, `fair.rs`).
const HEAVY_KINDS: [&str; 4] = [
    "planet_preview",
    "planet_plates",
    "planet_rivers",
    "island_posted",
];

/// A job on the request lane that runs this long has likely allocated
/// and freed megabytes (a YAML parse of hundreds of KB, a big island): its
/// thread's free heap goes back to the system after it, as the heavy
/// lane's does after every job (`heavy::release_free_memory`, about a
/// millisecond, so at most 2 % of such a job).
const TRIM_AFTER: Duration = Duration::from_millis(50);

impl ComputeGate {
    /// A gate for `limits`, reporting to `metrics`.
    pub fn new(limits: &Limits, metrics: Arc<Metrics>) -> ComputeGate {
        ComputeGate {
            workers: FairQueue::new(limits.workers.max(1), limits.queue),
            metrics,
            timeout: limits.timeout,
        }
    }

    /// Runs `work` on a blocking thread once a worker is free for the
    /// current request's client (`fair::current`) and records its time
    /// under `kind`; `estimate` is charged to the client as the work
    /// starts (`cost.rs`), so its other jobs drop in priority at once.
    /// Answers 503 at once when the queue is full (or when another client
    /// pushes this one out of it).
    ///
    /// The worker moves into the blocking task, so the gate bounds the CPU
    /// in use, not just the requests waiting; but the work gets a
    /// [`Cancel`] that stops once this future is dropped (the client went
    /// away, or the request timeout answered) or the request's deadline
    /// passes, and long work asks it at coarse checkpoints and returns its
    /// error (never cached). A closure argument rather than a thread-local,
    /// because the checkpoints run on rayon's threads too, and every route
    /// then shows whether its work can stop.
    pub async fn run<T, F>(
        &self,
        kind: &'static str,
        estimate: Estimate,
        work: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> Result<T, ApiError> + Send + 'static,
    {
        // Outside a request (tests, compression outside the timeout
        // layer) the deadline counts from now.
        let deadline = crate::cancel::deadline().unwrap_or_else(|| Instant::now() + self.timeout);
        let heavy = HEAVY_KINDS.contains(&kind);
        let mut grant = match self.workers.acquire(crate::fair::current(), heavy).await {
            Ok(grant) => grant,
            Err(e) => {
                self.metrics.rejected_busy();
                return Err(e);
            }
        };
        grant.prepay(estimate.worker_time());
        let (cancel, _abandon) = Cancel::new(deadline);
        let metrics = Arc::clone(&self.metrics);
        let job = move || {
            let started = Instant::now();
            // A job whose request left while it waited for a thread
            // does not start.
            let result = cancel.check().and_then(|()| work(&cancel));
            let took = started.elapsed();
            metrics.generated(kind, took);
            if result.is_err()
                && let Some(reason) = cancel.stopped()
            {
                metrics.cancelled(kind, reason.name());
            }
            drop(grant);
            if !heavy && took >= TRIM_AFTER {
                crate::heavy::release_free_memory();
            }
            result
        };
        if heavy {
            return crate::heavy::pool().run(job).await?;
        }
        tokio::task::spawn_blocking(job)
            .await
            .map_err(|e| ApiError::internal("generation", &e))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    #[tokio::test]
    async fn a_full_queue_answers_busy_and_work_still_finishes() {
        let limits = Limits {
            workers: 1,
            queue: 1,
            ..Limits::default()
        };
        let gate = Arc::new(ComputeGate::new(&limits, Arc::new(Metrics::new())));
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let blocker = {
            let gate = Arc::clone(&gate);
            tokio::spawn(async move {
                gate.run("test", Estimate::NONE, move |_| {
                    rx.recv().map_err(|e| ApiError::internal("t", &e))
                })
                .await
            })
        };
        // Let the first job take the only worker.
        while gate.workers.free() > 0 {
            tokio::task::yield_now().await;
        }
        let queued = {
            let gate = Arc::clone(&gate);
            tokio::spawn(async move { gate.run("test", Estimate::NONE, |_| Ok(7)).await })
        };
        while gate.workers.waiting() == 0 {
            tokio::task::yield_now().await;
        }
        let refused = gate
            .run("test", Estimate::NONE, |_| Ok(8))
            .await
            .unwrap_err();
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        tx.send(()).unwrap();
        blocker.await.unwrap().unwrap();
        assert_eq!(queued.await.unwrap().unwrap(), 7);
        assert_eq!(
            gate.run("test", Estimate::NONE, |_| Ok(9)).await.unwrap(),
            9,
            "the gate recovers"
        );
    }

    #[tokio::test]
    async fn work_errors_and_panics_come_back_as_errors() {
        let gate = ComputeGate::new(&Limits::default(), Arc::new(Metrics::new()));
        let err = gate
            .run::<(), _>("test", Estimate::NONE, |_| Err(ApiError::not_found("x")))
            .await
            .unwrap_err();
        assert_eq!(err.status, StatusCode::NOT_FOUND);
        let err = gate
            .run::<(), _>("test", Estimate::NONE, |_| panic!("boom"))
            .await
            .unwrap_err();
        assert_eq!(err.status, StatusCode::INTERNAL_SERVER_ERROR);
    }

    /// Work that spins until its [`Cancel`] says stop; sends how it ended.
    fn spin(cancel: &Cancel, started: std::sync::mpsc::Sender<()>) -> Result<(), ApiError> {
        let _ = started.send(());
        while cancel.keep_going() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        cancel.check()
    }

    #[tokio::test]
    async fn dropping_the_waiting_future_stops_the_work_and_frees_the_worker() {
        let limits = Limits {
            workers: 1,
            ..Limits::default()
        };
        let metrics = Arc::new(Metrics::new());
        let gate = Arc::new(ComputeGate::new(&limits, Arc::clone(&metrics)));
        let (started_tx, started) = std::sync::mpsc::channel();
        let (ended_tx, ended) = std::sync::mpsc::channel();
        let job = {
            let gate = Arc::clone(&gate);
            tokio::spawn(async move {
                gate.run("test", Estimate::NONE, move |cancel| {
                    let out = spin(cancel, started_tx);
                    let _ = ended_tx.send(cancel.stopped());
                    out
                })
                .await
            })
        };
        tokio::task::spawn_blocking(move || started.recv())
            .await
            .unwrap()
            .unwrap();
        // The client goes away: the request's future is dropped.
        job.abort();
        let _ = job.await;
        let why = tokio::task::spawn_blocking(move || ended.recv_timeout(Duration::from_secs(10)))
            .await
            .unwrap()
            .expect("the work saw the stop");
        assert_eq!(why, Some(crate::cancel::Reason::Abandoned));
        // The worker is free again (the work ended, it did not run on).
        let next = tokio::time::timeout(
            Duration::from_secs(10),
            gate.run("test", Estimate::NONE, |_| Ok(1)),
        )
        .await
        .expect("the worker came back");
        assert_eq!(next.unwrap(), 1);
        let text = metrics.render(0);
        let line = r#"mangekyo_generation_cancelled_total{kind="test",reason="abandoned"} 1"#;
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }

    #[tokio::test]
    async fn work_past_its_deadline_stops_with_a_timeout() {
        let limits = Limits {
            timeout: Duration::from_millis(50),
            ..Limits::default()
        };
        let gate = ComputeGate::new(&limits, Arc::new(Metrics::new()));
        let (started, _) = std::sync::mpsc::channel();
        let err = tokio::time::timeout(
            Duration::from_secs(10),
            gate.run("test", Estimate::NONE, move |cancel| spin(cancel, started)),
        )
        .await
        .expect("the deadline stopped the work")
        .unwrap_err();
        assert_eq!(err.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(err.code, "timeout");
    }
}
