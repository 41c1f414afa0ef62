//! Stopping a bake cleanly on SIGTERM (`kill`, systemd, a batch scheduler
//! ending a job) or Ctrl-C: the batch in flight (at most [`BATCH_ITEMS`]
//! items) finishes, its outputs are journalled, and the bake ends with
//! 143 (SIGTERM) or 130 (SIGINT). Every output is complete and recorded,
//! so the same command resumes with nothing redone. A second signal ends
//! the process at once, as before the handler: writes are atomic
//! (`crate::atomic`), so even then no output is half written.
//!
//! [`BATCH_ITEMS`]: super::BATCH_ITEMS

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

/// A bake stopped by a signal: the error `main` turns into its exit code.
#[derive(Debug)]
pub(crate) struct Interrupted {
    /// `SIGTERM` or `SIGINT`.
    signal: &'static str,
    /// 128 + the signal's number, as a shell reports a process it killed.
    pub(crate) code: u8,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bake stopped by {}: every output written is complete and recorded; the same command resumes it",
            self.signal
        )
    }
}

impl std::error::Error for Interrupted {}

const SIGINT_EXIT: u8 = 130;
const SIGTERM_EXIT: u8 = 143;

/// Whether a stop was asked for; shared with the listening task.
#[derive(Debug, Clone, Default)]
pub(super) struct Stop(Arc<AtomicU8>);

impl Stop {
    /// Listens for SIGTERM and Ctrl-C on `runtime` from now on.
    pub(super) fn listen(runtime: &tokio::runtime::Runtime) -> Stop {
        let stop = Stop::default();
        let flag = Arc::clone(&stop.0);
        runtime.spawn(async move {
            #[cfg(unix)]
            let mut term =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
            loop {
                #[cfg(unix)]
                let term_signal = async {
                    match term.as_mut() {
                        Some(t) => {
                            t.recv().await;
                        }
                        None => std::future::pending::<()>().await,
                    }
                };
                #[cfg(not(unix))]
                let term_signal = std::future::pending::<()>();
                let code = tokio::select! {
                    _ = tokio::signal::ctrl_c() => SIGINT_EXIT,
                    () = term_signal => SIGTERM_EXIT,
                };
                if flag.swap(code, Ordering::SeqCst) != 0 {
                    std::process::exit(i32::from(code));
                }
                errln!(
                    "{}: stopping after the items in flight (a second signal stops at once)",
                    name(code)
                );
            }
        });
        stop
    }

    /// The stop asked for, if any.
    pub(super) fn asked(&self) -> Option<Interrupted> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            code => Some(Interrupted {
                signal: name(code),
                code,
            }),
        }
    }
}

fn name(code: u8) -> &'static str {
    if code == SIGTERM_EXIT {
        "SIGTERM"
    } else {
        "SIGINT"
    }
}
