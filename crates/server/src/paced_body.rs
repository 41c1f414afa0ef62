//! Request bodies that arrive too slowly are cut. A body must keep up an
//! average of [`Limits::body_min_rate`] bytes a second after a grace of
//! [`Limits::body_grace`]: a client trickling one byte every two seconds
//! otherwise holds a connection, and with it a slot under
//! `--max-connections`, for the whole request timeout. The check wraps
//! the body, so it runs only while a handler is reading it: a slow
//! handler never makes a client look slow.

use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use http_body::{Frame, SizeHint};
use tokio::time::{Instant, Sleep};

use crate::limits::Limits;

/// Why a body was cut: carried as the body's error, so the extractor can
/// answer 408 (`extract::body_error` finds it in the error's sources).
#[derive(Debug)]
pub(crate) struct TooSlow {
    /// Bytes that had arrived.
    pub received: u64,
    /// The rate asked for, bytes a second.
    pub min_rate: u64,
}

impl std::fmt::Display for TooSlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the request body arrived slower than {} bytes a second ({} bytes so far)",
            self.min_rate, self.received
        )
    }
}

impl std::error::Error for TooSlow {}

/// A body whose frames must come by a deadline that moves with what has
/// arrived: `start + grace + received / min_rate`.
struct Paced {
    inner: Body,
    start: Instant,
    grace: Duration,
    min_rate: u64,
    received: u64,
    deadline: Pin<Box<Sleep>>,
}

impl Paced {
    fn new(inner: Body, grace: Duration, min_rate: u64) -> Paced {
        let start = Instant::now();
        Paced {
            inner,
            start,
            grace,
            min_rate: min_rate.max(1),
            received: 0,
            deadline: Box::pin(tokio::time::sleep_until(start + grace)),
        }
    }

    fn due(&self) -> Instant {
        let earned = Duration::from_secs_f64(self.received as f64 / self.min_rate as f64);
        self.start + self.grace + earned
    }
}

impl http_body::Body for Paced {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::BoxError>>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                    let due = this.due();
                    this.deadline.as_mut().reset(due);
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => Poll::Ready(Some(Err(e.into()))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => {
                ready!(this.deadline.as_mut().poll(cx));
                Poll::Ready(Some(Err(Box::new(TooSlow {
                    received: this.received,
                    min_rate: this.min_rate,
                }))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Middleware: every request's body is [`Paced`].
pub(crate) async fn pace(
    State(limits): State<Limits>,
    request: Request,
    next: Next,
) -> axum::response::Response {
    let (parts, body) = request.into_parts();
    let body = Body::new(Paced::new(body, limits.body_grace, limits.body_min_rate));
    next.run(Request::from_parts(parts, body)).await
}

/// Whether `err` (or an error it wraps) is a body cut for being slow.
pub(crate) fn too_slow<'a>(err: &'a (dyn std::error::Error + 'static)) -> Option<&'a TooSlow> {
    let mut at = Some(err);
    while let Some(e) = at {
        if let Some(slow) = e.downcast_ref::<TooSlow>() {
            return Some(slow);
        }
        at = e.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `chunks` frames of `size` bytes, one every `every`.
    struct Trickle {
        chunks: usize,
        size: usize,
        every: Duration,
        next: Pin<Box<Sleep>>,
    }

    impl Trickle {
        fn new(chunks: usize, size: usize, every: Duration) -> Trickle {
            let next = Box::pin(tokio::time::sleep(every));
            Trickle {
                chunks,
                size,
                every,
                next,
            }
        }
    }

    impl http_body::Body for Trickle {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            if self.chunks == 0 {
                return Poll::Ready(None);
            }
            ready!(self.next.as_mut().poll(cx));
            let every = self.every;
            self.next.as_mut().reset(Instant::now() + every);
            self.chunks -= 1;
            Poll::Ready(Some(Ok(Frame::data(Bytes::from(vec![b'x'; self.size])))))
        }
    }

    async fn read(body: Trickle, grace: Duration, min_rate: u64) -> Result<Bytes, axum::Error> {
        axum::body::to_bytes(
            Body::new(Paced::new(Body::new(body), grace, min_rate)),
            usize::MAX,
        )
        .await
    }

    #[tokio::test]
    async fn a_trickle_is_cut_after_the_grace_and_a_steady_body_is_not() {
        let grace = Duration::from_millis(300);
        // 10 bytes a second against 1,000 asked: cut soon after the grace.
        let started = Instant::now();
        let err = read(
            Trickle::new(100, 1, Duration::from_millis(100)),
            grace,
            1000,
        )
        .await
        .unwrap_err();
        let slow = too_slow(&err).expect("the error says the body was too slow");
        assert!(slow.received < 10, "{slow}");
        let took = started.elapsed();
        assert!(took >= grace && took < Duration::from_secs(3), "{took:?}");
        // 10 kB a second against 1,000 asked: whole.
        let whole = read(
            Trickle::new(5, 1000, Duration::from_millis(100)),
            grace,
            1000,
        )
        .await
        .unwrap();
        assert_eq!(whole.len(), 5000);
    }
}
