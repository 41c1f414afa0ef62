//! Slow readers are cut. Once a connection's writes stall (the client's
//! socket is full), the answer must go on leaving at an average of
//! [`Limits::send_min_rate`] bytes a second after a grace of
//! [`Limits::send_grace`], or the connection is closed with the answer
//! unfinished. A client reading a byte a second otherwise keeps a large
//! answer (a 22 MB Roblox batch) in memory for hours.
//!
//! The clock runs only while writes are blocked: an answer the socket
//! takes at once never starts it, and a write that goes through at once
//! after another one (the client caught up) stops it.

use std::io::IoSlice;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

#[cfg(doc)]
use crate::limits::Limits;

/// Since when writes have been blocked, and what has left since.
#[derive(Debug, Clone, Copy)]
struct Stall {
    since: Instant,
    sent: u64,
}

/// A socket whose writes must keep up a minimum rate while blocked.
#[derive(Debug)]
pub(crate) struct PacedWrite<S> {
    inner: S,
    grace: Duration,
    min_rate: u64,
    stall: Option<Stall>,
    /// Whether the last write went through (the socket had room).
    flowing: bool,
    deadline: Pin<Box<Sleep>>,
}

impl<S> PacedWrite<S> {
    pub(crate) fn new(inner: S, grace: Duration, min_rate: u64) -> PacedWrite<S> {
        PacedWrite {
            inner,
            grace,
            min_rate: min_rate.max(1),
            stall: None,
            flowing: true,
            deadline: Box::pin(tokio::time::sleep(Duration::ZERO)),
        }
    }

    /// Counts what one write attempt did, and fails it once the stall has
    /// lasted longer than its bytes allow.
    fn account(
        &mut self,
        cx: &mut Context<'_>,
        result: Poll<std::io::Result<usize>>,
    ) -> Poll<std::io::Result<usize>> {
        match result {
            Poll::Ready(Ok(n)) => {
                if self.flowing {
                    // Two writes in a row went through: not stalled.
                    self.stall = None;
                }
                if let Some(stall) = &mut self.stall {
                    stall.sent += n as u64;
                    let earned = Duration::from_secs_f64(stall.sent as f64 / self.min_rate as f64);
                    let due = stall.since + self.grace + earned;
                    self.deadline.as_mut().reset(due);
                }
                self.flowing = true;
                Poll::Ready(Ok(n))
            }
            Poll::Pending => {
                self.flowing = false;
                if self.stall.is_none() {
                    let now = Instant::now();
                    self.stall = Some(Stall {
                        since: now,
                        sent: 0,
                    });
                    self.deadline.as_mut().reset(now + self.grace);
                }
                ready!(self.deadline.as_mut().poll(cx));
                let sent = self.stall.map_or(0, |s| s.sent);
                Poll::Ready(Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!(
                        "the client read slower than {} bytes a second ({sent} bytes while blocked)",
                        self.min_rate
                    ),
                )))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for PacedWrite<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for PacedWrite<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        let result = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.account(cx, result)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        let result = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.account(cx, result)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// Writes `len` bytes through a 64-byte pipe whose reader takes
    /// `per_read` bytes every `every`; the writer's result and how long it
    /// took.
    async fn send(len: usize, per_read: usize, every: Duration) -> (std::io::Result<()>, Duration) {
        let (writer, mut reader) = tokio::io::duplex(64);
        let mut paced = PacedWrite::new(writer, Duration::from_millis(300), 2000);
        let read = tokio::spawn(async move {
            let mut buf = vec![0u8; per_read];
            loop {
                tokio::time::sleep(every).await;
                match reader.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        });
        let started = Instant::now();
        let out = paced.write_all(&vec![7u8; len]).await;
        let took = started.elapsed();
        read.abort();
        (out, took)
    }

    #[tokio::test]
    async fn a_slow_reader_is_cut_and_a_steady_one_is_not() {
        // 10 bytes a second against 2,000 asked: cut after the grace.
        let (out, took) = send(10_000, 1, Duration::from_millis(100)).await;
        let err = out.unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::TimedOut, "{err}");
        assert!(
            took >= Duration::from_millis(300) && took < Duration::from_secs(3),
            "{took:?}"
        );
        // 64 bytes every 10 ms (6.4 kB/s): whole, though blocked throughout.
        let (out, _) = send(6_400, 64, Duration::from_millis(10)).await;
        out.unwrap();
    }
}
