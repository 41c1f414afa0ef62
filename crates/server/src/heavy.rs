//! Work that takes seconds (previews, GeoJSON, posted islands, coarse
//! tiers) runs apart from work that answers in milliseconds (chunks,
//! tiles): on a thread pool of its own whose threads the kernel runs only
//! when the request threads and chunk workers leave a core idle.
//!
//! Why both a lane and a priority: a preview samples on every core
//! (rayon), so bounding how many heavy jobs hold workers (`fair.rs`)
//! alone would still leave a chunk one core in three; and lowering the
//! priority alone would leave a chunk waiting for a worker that a preview
//! holds for seconds. Together a cold chunk beside a heavy job costs
//! about what it costs alone, and the heavy job still gets every idle
//! cycle.
//!
//! On Linux the threads run at nice +10 (the kernel weighs a nice-10
//! thread about a tenth of a nice-0 one). Niceness is per thread there;
//! elsewhere it is per process, so other systems keep the default
//! priority and only the lane applies.

use crate::error::ApiError;

/// How much the pool's threads yield to the rest of the server.
#[cfg(target_os = "linux")]
const NICE: i32 = 10;

/// The process's heavy pool, one thread per core, started on first use
/// (one pool however many servers a process runs, as rayon's own).
pub(crate) fn pool() -> &'static HeavyPool {
    static POOL: std::sync::OnceLock<HeavyPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| HeavyPool::new(std::thread::available_parallelism().map_or(2, usize::from)))
}

/// The pool heavy work runs on (see the module).
#[derive(Debug)]
pub(crate) struct HeavyPool {
    pool: rayon::ThreadPool,
}

impl HeavyPool {
    /// A pool of `threads` low-priority threads.
    pub(crate) fn new(threads: usize) -> HeavyPool {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .thread_name(|i| format!("mangekyo-heavy-{i}"))
            .start_handler(|_| lower_priority())
            .build()
            .unwrap_or_else(|e| panic!("starting the heavy-work threads: {e}"));
        HeavyPool { pool }
    }

    /// Runs `work` on the pool (its parallel loops stay on the pool) and
    /// waits for it without blocking the async threads. A panic comes
    /// back as a 500.
    pub(crate) async fn run<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.pool.spawn(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let _ = tx.send(outcome);
            release_free_memory();
        });
        match rx.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(panic)) => Err(ApiError::internal("heavy work", &panic_text(&panic))),
            Err(e) => Err(ApiError::internal("heavy work", &e)),
        }
    }

    /// Runs `work` on the pool from a blocking thread (a coarse tier's
    /// computation, which already runs on one).
    pub(crate) fn install<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T {
        let out = self.pool.install(work);
        release_free_memory();
        out
    }
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_owned())
}

/// Hands the memory a heavy job freed back to the system. glibc keeps
/// freed heap pages in its per-thread arenas (and, once a large block
/// was freed, serves later large blocks from the heap too), so a server
/// that once computed a tier or a preview would otherwise keep that peak
/// resident for good. A trim costs about a millisecond, once per heavy
/// job of seconds.
pub(crate) fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim(3) takes a plain integer and only returns free
    // pages of glibc's own arenas to the kernel.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Caps glibc's malloc arenas at one per core, unless the operator set
/// `MALLOC_ARENA_MAX`; call it before the server starts its threads.
/// glibc gives each of up to eight arenas per core to threads as they
/// contend, and every arena keeps its own freed and fragmented pages: a
/// server whose request, blocking and heavy threads all allocate ends
/// up holding the same free memory many times over. Measured with the
/// full-scale abuse test (`crates/cli/tests/abuse.rs`) on 2 cores: peak
/// resident memory 60–140 MiB lower on the rows after the tier flood, the
/// rates unchanged. The allocations that matter here are large buffers
/// (chunks, tiers, previews), for which arena contention is no cost.
pub fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        let arenas = libc::c_int::try_from(cores.max(2)).unwrap_or(libc::c_int::MAX);
        // SAFETY: mallopt(3) takes two plain integers and only changes
        // glibc's allocator settings; M_ARENA_MAX is one of them.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, arenas);
        }
    }
}

/// Lowers the calling thread's priority (Linux: niceness is per thread).
#[cfg(target_os = "linux")]
fn lower_priority() {
    // SAFETY: nice(2) takes a plain integer and touches no memory of ours;
    // on Linux it changes only the calling thread. A failure (an already
    // higher niceness limit) leaves the default priority, which is safe.
    let _ = unsafe { libc::nice(NICE) };
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_on_the_pool_at_lower_priority_and_panics_come_back() {
        let pool = HeavyPool::new(2);
        let name = pool
            .run(|| std::thread::current().name().map(str::to_owned))
            .await
            .unwrap();
        assert!(name.is_some_and(|n| n.starts_with("mangekyo-heavy-")));
        #[cfg(target_os = "linux")]
        {
            // SAFETY: getpriority(2) reads the calling thread's niceness.
            let (here, there) = (
                unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) },
                pool.run(|| unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) })
                    .await
                    .unwrap(),
            );
            assert!(there > here, "pool niceness {there}, caller's {here}");
        }
        let err = pool.run(|| -> u8 { panic!("boom") }).await.unwrap_err();
        assert_eq!(err.status, axum::http::StatusCode::INTERNAL_SERVER_ERROR);
        // Parallel loops inside stay on the pool.
        let inside = pool
            .run(|| {
                use rayon::prelude::*;
                (0..64)
                    .into_par_iter()
                    .all(|_| rayon::current_thread_index().is_some())
            })
            .await
            .unwrap();
        assert!(inside);
    }
}
