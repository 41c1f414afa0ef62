//! Whether the store can write, remembered from the writes themselves.
//!
//! A read (the ping) says nothing about a full disk: SQLite reads on while
//! every commit fails. So each write reports how it went; after a failure
//! the store counts as unable to write until a write succeeds again, and
//! while it is in that state a health check tries a small write of its own
//! (at most once per [`PROBE_EVERY`]), so health recovers by itself when
//! space or the database comes back, with no client write needed. A
//! healthy store's health check never writes.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The least time between two probe writes while writes fail.
pub(crate) const PROBE_EVERY: Duration = Duration::from_secs(1);

/// The last write failure, if the store has not written since.
#[derive(Debug, Default)]
pub(crate) struct WriteHealth {
    failure: Mutex<Option<Failure>>,
}

#[derive(Debug, Clone)]
struct Failure {
    reason: String,
    since: Instant,
    last_probe: Option<Instant>,
}

/// What a health check should do.
pub(crate) enum Check {
    /// Writes work as far as anyone knows: a read ping will do.
    Read,
    /// Writes failed and no probe is due: report this.
    Failing { reason: String, for_s: u64 },
    /// Writes failed: try one.
    Probe,
}

impl WriteHealth {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Failure>> {
        // The state is a plain value: a panic elsewhere leaves it whole.
        self.failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A write succeeded.
    pub(crate) fn wrote(&self) {
        let mut failure = self.lock();
        if let Some(f) = failure.take() {
            tracing::info!(
                after_s = f.since.elapsed().as_secs(),
                "planet store writes again"
            );
        }
    }

    /// A write failed for a reason that is the store's, not the caller's.
    pub(crate) fn failed(&self, reason: String) {
        let mut failure = self.lock();
        match failure.as_mut() {
            Some(f) => f.reason = reason,
            None => {
                tracing::error!(error = %reason, "planet store cannot write");
                *failure = Some(Failure {
                    reason,
                    since: Instant::now(),
                    last_probe: None,
                });
            }
        }
    }

    /// What a health check should do now; a [`Check::Probe`] answer counts
    /// as the probe having started.
    pub(crate) fn check(&self) -> Check {
        let mut failure = self.lock();
        let Some(f) = failure.as_mut() else {
            return Check::Read;
        };
        let due = f.last_probe.is_none_or(|at| at.elapsed() >= PROBE_EVERY);
        if due {
            f.last_probe = Some(Instant::now());
            Check::Probe
        } else {
            Check::Failing {
                reason: f.reason.clone(),
                for_s: f.since.elapsed().as_secs(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_lasts_until_a_write_and_probes_are_spaced() {
        let health = WriteHealth::default();
        assert!(matches!(health.check(), Check::Read));
        health.failed("disk full".into());
        assert!(matches!(health.check(), Check::Probe));
        match health.check() {
            Check::Failing { reason, .. } => assert_eq!(reason, "disk full"),
            _ => panic!("a second check within PROBE_EVERY must not probe again"),
        }
        health.wrote();
        assert!(matches!(health.check(), Check::Read));
    }
}
