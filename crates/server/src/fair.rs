//! Who waits for a generation worker, and who goes first: the compute
//! gate's queue is fair across clients, not first come first served.
//!
//! A client is its token's name, else its address ([`identify`] sets it
//! for the request's task). When a worker frees, the waiting client that
//! has used the least worker time lately (usage decays by half every
//! [`HALF_LIFE`]) gets it, each client's own jobs in their order: one
//! client's thousand requests queue behind its own, and a client asking
//! for expensive work (previews, large GeoJSON) pays for it in priority
//! from the moment it starts (its cost estimate is charged up front,
//! `cost.rs`; the time held past the estimate when it ends).
//! When the queue is full, a newcomer pushes out the newest waiter of the
//! client holding the most places (answered 503 at once), so a flood from
//! one client cannot fill the queue against everyone else.
//!
//! Heavy jobs (seconds of work: previews, GeoJSON, posted islands; see
//! `heavy.rs`) hold at most all workers but one when there are two or
//! more, so a chunk never waits behind them for a worker: the lane
//! reserves the last worker for light work without idling the rest.

use std::collections::{BTreeMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::Request;
use axum::middleware::Next;
use tokio::sync::oneshot;

use crate::access::Principal;
use crate::error::ApiError;

/// How fast a client's past usage stops counting against it.
pub(crate) const HALF_LIFE: Duration = Duration::from_secs(10);

/// The peer address of a request's connection (set by `conn.rs`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PeerIp(pub IpAddr);

/// A client, as the queue tells them apart.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Client(Arc<str>);

impl Client {
    pub(crate) fn named(name: &str) -> Client {
        Client(Arc::from(name))
    }
}

tokio::task_local! {
    static CLIENT: Client;
}

/// Middleware (inside the access guard): the request runs as its client.
pub(crate) async fn identify(request: Request, next: Next) -> axum::response::Response {
    let client = match request.extensions().get::<Principal>() {
        Some(Principal::Token(token)) => Client::named(&format!("token {}", token.name)),
        _ => match request.extensions().get::<PeerIp>() {
            Some(PeerIp(ip)) => Client::named(&format!("address {ip}")),
            None => Client::default(),
        },
    };
    CLIENT.scope(client, next.run(request)).await
}

/// The client the current task works for (the unnamed one outside a
/// request).
pub(crate) fn current() -> Client {
    CLIENT.try_with(Clone::clone).unwrap_or_default()
}

/// `work` running as the current task's client: for a task spawned from
/// a request (task-locals do not cross `tokio::spawn`), so its jobs queue
/// and are charged as the request's own, not as nobody's.
pub(crate) fn as_current<F: std::future::Future>(
    work: F,
) -> impl std::future::Future<Output = F::Output> {
    CLIENT.scope(current(), work)
}

/// One waiter: its ticket (arrival order) and where its turn is sent.
#[derive(Debug)]
struct Waiter {
    ticket: u64,
    heavy: bool,
    turn: oneshot::Sender<Result<(), ApiError>>,
}

#[derive(Debug, Default)]
struct ClientState {
    /// Worker seconds used, decayed to `at`.
    used: f64,
    at: Option<Instant>,
    waiting: VecDeque<Waiter>,
}

impl ClientState {
    fn used_now(&self, now: Instant) -> f64 {
        match self.at {
            None => 0.0,
            Some(at) => {
                let halves =
                    now.saturating_duration_since(at).as_secs_f64() / HALF_LIFE.as_secs_f64();
                self.used * 0.5f64.powf(halves)
            }
        }
    }
}

#[derive(Debug)]
struct State {
    free: usize,
    /// Workers held by heavy jobs now, and the most they may hold.
    heavy: usize,
    heavy_cap: usize,
    waiting: usize,
    next_ticket: u64,
    clients: BTreeMap<Client, ClientState>,
}

/// Workers handed out fairly (see the module).
#[derive(Debug)]
pub(crate) struct FairQueue {
    state: Mutex<State>,
    queue: usize,
}

/// A worker held; dropping it frees the worker and charges the time held
/// to its client (less what was prepaid).
#[derive(Debug)]
pub(crate) struct Grant {
    queue: Arc<FairQueue>,
    client: Client,
    heavy: bool,
    since: Instant,
    prepaid: Duration,
}

impl Grant {
    /// Charges `estimate` of worker time to the client now, as the work
    /// starts, rather than when it ends: a client that asked for expensive
    /// work waits behind others for its next job at once. The time held is
    /// then charged only past the estimate.
    pub(crate) fn prepay(&mut self, estimate: Duration) {
        if estimate.is_zero() {
            return;
        }
        let mut s = self.queue.lock();
        charge(&mut s, &self.client, estimate, Instant::now());
        self.prepaid += estimate;
    }
}

impl Drop for Grant {
    fn drop(&mut self) {
        let used = self.since.elapsed().saturating_sub(self.prepaid);
        self.queue.release(&self.client, used, self.heavy);
    }
}

/// A place in the queue; dropped before its turn (the request went away),
/// it leaves the queue, and a turn that arrived unread is handed on.
struct Place {
    queue: Arc<FairQueue>,
    client: Client,
    heavy: bool,
    ticket: u64,
    turn: Option<oneshot::Receiver<Result<(), ApiError>>>,
}

impl Drop for Place {
    fn drop(&mut self) {
        let Some(mut turn) = self.turn.take() else {
            return;
        };
        turn.close();
        match turn.try_recv() {
            // The worker was given but never taken: pass it on.
            Ok(Ok(())) => self.queue.release(&self.client, Duration::ZERO, self.heavy),
            Ok(Err(_)) => {}
            Err(_) => self.queue.forget(&self.client, self.ticket),
        }
    }
}

impl FairQueue {
    /// `workers` at once, at most `queue` waiting.
    pub(crate) fn new(workers: usize, queue: usize) -> Arc<FairQueue> {
        let workers = workers.max(1);
        Arc::new(FairQueue {
            state: Mutex::new(State {
                free: workers,
                heavy: 0,
                heavy_cap: (workers - 1).max(1),
                waiting: 0,
                next_ticket: 0,
                clients: BTreeMap::new(),
            }),
            queue,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // Every update leaves the state whole: a panic cannot tear it.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Waiting now (all clients).
    #[cfg(test)]
    pub(crate) fn waiting(&self) -> usize {
        self.lock().waiting
    }

    /// Workers free now.
    #[cfg(test)]
    pub(crate) fn free(&self) -> usize {
        self.lock().free
    }

    /// A worker for `client`: at once if one is free and nobody waits,
    /// else in the client's fair turn; `Err` (503) when the queue is full
    /// and this client already holds the most places, or when pushed out.
    pub(crate) async fn acquire(
        self: &Arc<Self>,
        client: Client,
        heavy: bool,
    ) -> Result<Grant, ApiError> {
        let (ticket, rx) = {
            let mut s = self.lock();
            if s.free > 0 && s.waiting == 0 && (!heavy || s.heavy < s.heavy_cap) {
                s.free -= 1;
                s.heavy += usize::from(heavy);
                return Ok(self.grant(client, heavy));
            }
            if s.waiting >= self.queue && !push_out(&mut s, &client) {
                return Err(ApiError::busy());
            }
            let (tx, rx) = oneshot::channel();
            let ticket = s.next_ticket;
            s.next_ticket += 1;
            s.waiting += 1;
            s.clients
                .entry(client.clone())
                .or_default()
                .waiting
                .push_back(Waiter {
                    ticket,
                    heavy,
                    turn: tx,
                });
            // A free worker that heavy waiters may not take goes to this
            // one at once if it may.
            dispatch(&mut s, Instant::now());
            (ticket, rx)
        };
        let mut place = Place {
            queue: Arc::clone(self),
            client: client.clone(),
            heavy,
            ticket,
            turn: Some(rx),
        };
        let outcome = match place.turn.as_mut() {
            Some(turn) => turn.await,
            None => return Err(ApiError::busy()),
        };
        place.turn = None;
        match outcome {
            Ok(Ok(())) => Ok(self.grant(client, heavy)),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(ApiError::internal(
                "waiting for a worker",
                &"the queue closed",
            )),
        }
    }

    fn grant(self: &Arc<Self>, client: Client, heavy: bool) -> Grant {
        Grant {
            queue: Arc::clone(self),
            client,
            heavy,
            since: Instant::now(),
            prepaid: Duration::ZERO,
        }
    }

    /// A worker comes back from `client` after `used` (a heavy job's if
    /// `heavy`): charged to it, then handed on in fair order.
    fn release(&self, client: &Client, used: Duration, heavy: bool) {
        let now = Instant::now();
        let mut s = self.lock();
        charge(&mut s, client, used, now);
        s.free += 1;
        s.heavy -= usize::from(heavy);
        dispatch(&mut s, now);
        prune(&mut s, now);
    }

    /// Drops a waiter that went away before its turn.
    fn forget(&self, client: &Client, ticket: u64) {
        let mut s = self.lock();
        if let Some(c) = s.clients.get_mut(client)
            && let Some(i) = c.waiting.iter().position(|w| w.ticket == ticket)
        {
            c.waiting.remove(i);
            s.waiting -= 1;
            // A heavy waiter gone may unblock the light ones behind it.
            dispatch(&mut s, Instant::now());
        }
    }
}

/// Hands free workers to waiters: each time to the waiting client that
/// used least lately (ties by arrival) whose next job may run now (a heavy
/// one only under the lane's cap; a client's jobs keep their order).
fn dispatch(s: &mut State, now: Instant) {
    while s.free > 0 {
        let heavy_room = s.heavy < s.heavy_cap;
        let next = s
            .clients
            .iter()
            .filter_map(|(k, c)| {
                c.waiting
                    .front()
                    .filter(|w| heavy_room || !w.heavy)
                    .map(|w| (c.used_now(now), w.ticket, k.clone()))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let Some((_, _, k)) = next else {
            return;
        };
        let Some(w) = s.clients.get_mut(&k).and_then(|c| c.waiting.pop_front()) else {
            return;
        };
        s.waiting -= 1;
        if w.turn.send(Ok(())).is_ok() {
            s.free -= 1;
            s.heavy += usize::from(w.heavy);
        }
    }
}

/// Adds `used` worker time to `client`'s decayed usage.
fn charge(s: &mut State, client: &Client, used: Duration, now: Instant) {
    if used.is_zero() {
        return;
    }
    let c = s.clients.entry(client.clone()).or_default();
    c.used = c.used_now(now) + used.as_secs_f64();
    c.at = Some(now);
}

/// Makes room for `client` in a full queue by refusing the newest waiter
/// of the client holding the most places, if that is another client with
/// more places than this one would have. Whether room was made.
fn push_out(s: &mut State, client: &Client) -> bool {
    let mine = s.clients.get(client).map_or(0, |c| c.waiting.len());
    let Some((k, most)) = s
        .clients
        .iter()
        .map(|(k, c)| (k.clone(), c.waiting.len()))
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
    else {
        return false;
    };
    if k == *client || most <= mine + 1 {
        return false;
    }
    if let Some(w) = s.clients.get_mut(&k).and_then(|c| c.waiting.pop_back()) {
        s.waiting -= 1;
        let _ = w.turn.send(Err(ApiError::busy()));
        return true;
    }
    false
}

/// Forgets clients with nothing waiting whose usage has decayed away, so
/// the map holds only recent clients.
fn prune(s: &mut State, now: Instant) {
    if s.clients.len() > 64 {
        s.clients
            .retain(|_, c| !c.waiting.is_empty() || c.used_now(now) > 1e-3);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waits until `queue` has `n` waiting.
    async fn until_waiting(queue: &FairQueue, n: usize) {
        while queue.waiting() != n {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_newcomer_goes_before_a_busy_clients_backlog() {
        let queue = FairQueue::new(1, 100);
        let (a, b) = (Client::named("a"), Client::named("b"));
        let first = queue.acquire(a.clone(), false).await.unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for i in 0..5 {
            let (q, a, order) = (Arc::clone(&queue), a.clone(), Arc::clone(&order));
            tasks.push(tokio::spawn(async move {
                let g = q.acquire(a, false).await.unwrap();
                order.lock().unwrap().push(format!("a{i}"));
                drop(g);
            }));
            until_waiting(&queue, i + 1).await;
        }
        {
            let (q, b, order) = (Arc::clone(&queue), b.clone(), Arc::clone(&order));
            tasks.push(tokio::spawn(async move {
                let g = q.acquire(b, false).await.unwrap();
                order.lock().unwrap().push("b".to_owned());
                drop(g);
            }));
        }
        until_waiting(&queue, 6).await;
        // a has used a worker (charged on release); b has used none.
        std::thread::sleep(Duration::from_millis(20));
        drop(first);
        for t in tasks {
            t.await.unwrap();
        }
        let order = order.lock().unwrap().clone();
        assert_eq!(order[0], "b", "{order:?}");
        assert_eq!(&order[1..], ["a0", "a1", "a2", "a3", "a4"], "a's own order");
        assert_eq!(queue.free(), 1);
    }

    #[tokio::test]
    async fn a_prepaid_estimate_drops_the_client_at_once() {
        let queue = FairQueue::new(1, 100);
        let (a, b) = (Client::named("a"), Client::named("b"));
        // b has used 50 ms lately.
        let used = queue.acquire(b.clone(), false).await.unwrap();
        std::thread::sleep(Duration::from_millis(50));
        drop(used);
        let mut first = queue.acquire(a.clone(), false).await.unwrap();
        // a's expensive job has only just started: without the estimate
        // a would have used less than b and go first.
        first.prepay(Duration::from_secs(5));
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for (i, who) in [a.clone(), b.clone()].into_iter().enumerate() {
            let (q, order) = (Arc::clone(&queue), Arc::clone(&order));
            tasks.push(tokio::spawn(async move {
                let name = format!("{who:?}");
                let g = q.acquire(who, false).await.unwrap();
                order.lock().unwrap().push(name);
                drop(g);
            }));
            until_waiting(&queue, i + 1).await;
        }
        drop(first);
        for t in tasks {
            t.await.unwrap();
        }
        let order = order.lock().unwrap().clone();
        assert!(order[0].contains('b'), "b goes first: {order:?}");
    }

    #[tokio::test]
    async fn a_full_queue_pushes_out_the_flooders_newest() {
        let queue = FairQueue::new(1, 4);
        let (a, b) = (Client::named("a"), Client::named("b"));
        let held = queue.acquire(a.clone(), false).await.unwrap();
        let mut waiting = Vec::new();
        for i in 0..4 {
            let (q, a) = (Arc::clone(&queue), a.clone());
            waiting.push(tokio::spawn(
                async move { q.acquire(a, false).await.map(drop) },
            ));
            until_waiting(&queue, i + 1).await;
        }
        // a cannot queue a fifth; b can, pushing out a's newest.
        assert_eq!(
            queue
                .acquire(a.clone(), false)
                .await
                .unwrap_err()
                .status
                .as_u16(),
            503
        );
        let bq = Arc::clone(&queue);
        let bt = tokio::spawn(async move { bq.acquire(b, false).await.map(drop) });
        let pushed = waiting.pop().unwrap().await.unwrap();
        assert_eq!(pushed.unwrap_err().status.as_u16(), 503);
        drop(held);
        bt.await.unwrap().unwrap();
        for w in waiting {
            w.await.unwrap().unwrap();
        }
        assert_eq!((queue.free(), queue.waiting()), (1, 0));
    }

    #[tokio::test]
    async fn a_waiter_that_leaves_gives_its_place_back() {
        let queue = FairQueue::new(1, 4);
        let held = queue.acquire(Client::named("a"), false).await.unwrap();
        let q = Arc::clone(&queue);
        let gone =
            tokio::spawn(async move { q.acquire(Client::named("b"), false).await.map(drop) });
        until_waiting(&queue, 1).await;
        gone.abort();
        let _ = gone.await;
        assert_eq!(queue.waiting(), 0);
        drop(held);
        assert_eq!(queue.free(), 1, "the worker is free again, not lost");
    }

    #[tokio::test]
    async fn heavy_jobs_leave_a_worker_for_light_ones() {
        let queue = FairQueue::new(2, 16);
        let a = Client::named("a");
        let heavy = queue.acquire(a.clone(), true).await.unwrap();
        // A second heavy job waits though a worker is free...
        let q = Arc::clone(&queue);
        let second = tokio::spawn({
            let a = a.clone();
            async move { q.acquire(a, true).await }
        });
        until_waiting(&queue, 1).await;
        assert_eq!(queue.free(), 1);
        // ...and another client's light job takes that worker.
        let light = queue.acquire(Client::named("b"), false).await.unwrap();
        assert_eq!((queue.free(), queue.waiting()), (0, 1));
        drop(light);
        assert_eq!(queue.waiting(), 1, "the heavy job still waits for the lane");
        drop(heavy);
        let second = second.await.unwrap().unwrap();
        assert_eq!((queue.free(), queue.waiting()), (1, 0));
        drop(second);
        assert_eq!(queue.free(), 2);
        // One worker: the lane cannot reserve it.
        let single = FairQueue::new(1, 4);
        let h = single.acquire(a, true).await.unwrap();
        assert_eq!(single.free(), 0);
        drop(h);
    }
}
