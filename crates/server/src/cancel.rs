//! Cooperative cancellation of generation work (issue 38): work whose
//! request went away (the client disconnected, or the request timeout
//! answered for it) or whose deadline passed stops at its next checkpoint
//! instead of holding a worker to the end.
//!
//! The compute gate makes one [`Cancel`] per job and hands it to the work
//! closure; the gate's future holds its [`Abandon`] guard, which marks the
//! job abandoned when that future is dropped. The deadline is the
//! request's start plus [`crate::Limits::timeout`] (set by the timeout
//! middleware for the request's task, [`within`]). Pure generation crates
//! never see this type: they take a plain `keep_going` closure, which
//! routes build from [`Cancel::keep_going`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::time::Instant;

use axum::http::StatusCode;

use crate::error::ApiError;

tokio::task_local! {
    static DEADLINE: Instant;
}

/// Runs `fut` (a request's handling) with `deadline` as the deadline of the
/// generation it starts.
pub(crate) async fn within<F: Future>(deadline: Instant, fut: F) -> F::Output {
    DEADLINE.scope(deadline, fut).await
}

/// The current request's deadline, if the task runs one.
pub(crate) fn deadline() -> Option<Instant> {
    DEADLINE.try_with(|d| *d).ok()
}

/// Why work stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reason {
    /// Its request went away before it finished.
    Abandoned,
    /// Its request's deadline passed.
    Deadline,
}

impl Reason {
    /// The metrics label.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Reason::Abandoned => "abandoned",
            Reason::Deadline => "deadline",
        }
    }
}

const RUNNING: u8 = 0;
const ABANDONED: u8 = 1;
const PAST_DEADLINE: u8 = 2;

#[derive(Debug)]
struct Flags {
    abandoned: AtomicBool,
    deadline: Instant,
    /// What a checkpoint saw when it stopped the work (`RUNNING`: none did).
    stopped: AtomicU8,
}

/// A job's stop signal, as the work sees it (cheap to clone; `Sync`, so
/// rayon workers may ask it too).
#[derive(Debug, Clone)]
pub struct Cancel(Arc<Flags>);

/// Held by the future that awaits a job: dropping it (the request went
/// away) tells the work to stop.
#[derive(Debug)]
pub(crate) struct Abandon(Arc<Flags>);

impl Drop for Abandon {
    fn drop(&mut self) {
        self.0.abandoned.store(true, Ordering::Relaxed);
    }
}

impl Cancel {
    /// A signal that stops at `deadline` or when the guard is dropped.
    pub(crate) fn new(deadline: Instant) -> (Cancel, Abandon) {
        let flags = Arc::new(Flags {
            abandoned: AtomicBool::new(false),
            deadline,
            stopped: AtomicU8::new(RUNNING),
        });
        (Cancel(Arc::clone(&flags)), Abandon(flags))
    }

    /// Whether the work should go on: its request still waits for it and
    /// its deadline is ahead. An atomic load and a clock read: ask it at
    /// coarse checkpoints (rows, blocks, rounds), not per sample. A `false`
    /// is remembered: the gate counts the job as cancelled.
    pub fn keep_going(&self) -> bool {
        let why = if self.0.abandoned.load(Ordering::Relaxed) {
            ABANDONED
        } else if Instant::now() >= self.0.deadline {
            PAST_DEADLINE
        } else {
            return true;
        };
        let _ = self
            .0
            .stopped
            .compare_exchange(RUNNING, why, Ordering::Relaxed, Ordering::Relaxed);
        false
    }

    /// Why a checkpoint stopped the work, if one did.
    pub(crate) fn stopped(&self) -> Option<Reason> {
        match self.0.stopped.load(Ordering::Relaxed) {
            ABANDONED => Some(Reason::Abandoned),
            PAST_DEADLINE => Some(Reason::Deadline),
            _ => None,
        }
    }

    /// `Ok` while the work should go on, else the error that ends it.
    pub fn check(&self) -> Result<(), ApiError> {
        if self.keep_going() {
            Ok(())
        } else {
            Err(cancelled())
        }
    }
}

/// The answer of work that stopped at a checkpoint: a 503 `timeout`, since
/// the only client that can still read it is one past its deadline (one
/// that went away reads nothing). Never cached: the cache keeps only
/// successes.
pub(crate) fn cancelled() -> ApiError {
    ApiError {
        status: StatusCode::SERVICE_UNAVAILABLE,
        code: "timeout",
        message:
            "the work stopped before it finished: the request ran past the server's time limit"
                .to_owned(),
        parameter: None,
        expected: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dropping_the_guard_stops_the_work_and_says_why() {
        let (cancel, abandon) = Cancel::new(Instant::now() + Duration::from_secs(60));
        assert!(cancel.keep_going());
        assert_eq!(cancel.stopped(), None);
        drop(abandon);
        assert!(!cancel.keep_going());
        assert_eq!(cancel.stopped(), Some(Reason::Abandoned));
        assert_eq!(cancel.check().unwrap_err().status.as_u16(), 503);
    }

    #[test]
    fn the_deadline_stops_the_work() {
        let (cancel, _abandon) = Cancel::new(Instant::now());
        assert!(!cancel.keep_going());
        assert_eq!(cancel.stopped(), Some(Reason::Deadline));
    }
}
