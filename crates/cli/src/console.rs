//! Writing to stdout and stderr without panicking.
//!
//! Rust's `print!` and `eprintln!` panic when a write fails, and Rust
//! programs ignore SIGPIPE, so `mangekyo … 2>&1 | head -c1` or
//! `mangekyo … 2>/dev/full` ended in a panic (exit 101). Every line the
//! CLI writes for a person goes through these macros instead:
//!
//! - a closed pipe (EPIPE) on either stream ends the process at once and
//!   quietly with status 141, what a shell reports for a Unix tool that
//!   SIGPIPE killed (128 + 13): the reader is gone, and there is no one
//!   left to tell. Files already written are whole (every file is renamed
//!   into place complete, see `atomic.rs`);
//! - any other failure writing stdout (a full disk) is an error the caller
//!   returns: stdout is that command's product;
//! - any other failure writing stderr is ignored: those lines are
//!   messages about the work, and the exit status still says how it went.
//!
//! Progress bars (indicatif) draw only when stderr is a terminal and
//! ignore their own write errors, so they never panic either.

use std::io::{self, Write};

/// The exit status for a closed pipe: 128 + SIGPIPE, as a shell reports a
/// process that SIGPIPE ended.
pub(crate) const CLOSED_PIPE_EXIT: u8 = 141;

/// Writes to stdout and flushes, so a failure is seen here, at the line
/// that caused it, and not lost when the process exits.
pub(crate) fn out(args: std::fmt::Arguments<'_>) -> anyhow::Result<()> {
    let mut stdout = io::stdout().lock();
    match stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(e) => {
            exit_if_closed(&e);
            Err(anyhow::Error::new(e).context("writing to stdout"))
        }
    }
}

/// Writes to stderr; see the module's comment for what a failure does.
pub(crate) fn err(args: std::fmt::Arguments<'_>) {
    if let Err(e) = io::stderr().lock().write_fmt(args) {
        exit_if_closed(&e);
    }
}

/// Ends the process quietly when `e` says the reader closed the pipe.
fn exit_if_closed(e: &io::Error) {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(i32::from(CLOSED_PIPE_EXIT));
    }
}

/// Whether an error came from writing to a closed pipe (a command that
/// returned the `io::Error` of its own `writeln!` rather than going
/// through [`out`]).
pub(crate) fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// `println!` to stdout that returns an error instead of panicking (use
/// with `?`).
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::console::out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` to stdout that returns an error instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::console::out(format_args!($($arg)*))
    };
}

/// `eprintln!` that never panics.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::console::err(format_args!("{}\n", format_args!($($arg)*)))
    };
}
