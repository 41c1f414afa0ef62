//! Which waiting coarse-tier computation runs next (issue 38): at most
//! `tier_computes` run at once, and when one ends the next is chosen by
//!
//! 1. demand: a tier some request asked for within [`DEMAND_FRESH`] (a
//!    chunk request waiting for it, a status poll) goes before one nobody
//!    has asked for since the `POST` that started it;
//! 2. fairness: then the tier whose least-charged client has used the
//!    least tier-computing time lately (decaying by half every
//!    [`HALF_LIFE`], running computations counted as they go) goes first,
//!    so one client's twenty `POST`s do not hold up another's one;
//! 3. arrival: then the older ticket.
//!
//! Besides slots, computations hold memory: each declares the bytes its
//! work needs at its peak (`CoarseTier::estimated_work_bytes`), and the
//! next in order starts only when those fit beside the running ones'
//! in the memory budget (alone, it always starts: a planet whose work
//! could never fit is refused at creation). The next in order waits
//! rather than let a smaller one pass it, so a large tier is never
//! starved by a stream of small ones. Every change of the bytes held is
//! reported (`on_reserved`), so the tier cache can shrink to make room.
//!
//! A computation's time is charged to the clients that asked for it,
//! shared equally. A ticket is entered while its tier is still being
//! looked for in the store (that needs no slot), then asks for its turn;
//! dropping it leaves the schedule, handing its slot on. The order only
//! decides when a tier is computed, never its bytes.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use crate::fair::Client;

/// How long a request's interest in a tier counts as demand: the longest
/// `Retry-After` a waiting request is given, so a client that follows it
/// keeps its tier demanded.
pub(crate) const DEMAND_FRESH: Duration = Duration::from_secs(super::MAX_RETRY_AFTER_S);

/// How fast a client's past tier-computing time stops counting against
/// it. Longer than the compute gate's (`fair::HALF_LIFE`, 10 s): a tier
/// takes seconds to half a minute, so a client's usage must outlast a few
/// of its computations to tell a flood from a newcomer.
pub(crate) const HALF_LIFE: Duration = Duration::from_secs(60);

/// Tier computations at once, and the order of those waiting (see the
/// module).
pub(crate) struct Schedule {
    state: Mutex<State>,
    /// Told the bytes running computations hold, under the state's lock
    /// (so reports arrive in order), after every change.
    on_reserved: Box<dyn Fn(u64) + Send + Sync>,
}

impl std::fmt::Debug for Schedule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Schedule")
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

/// A computation's place in the schedule; dropping it leaves the schedule
/// (a slot it held goes to the next in order, its time charged).
#[derive(Debug)]
pub(crate) struct Ticket {
    schedule: Arc<Schedule>,
    id: u64,
}

#[derive(Debug)]
struct State {
    free: usize,
    /// Bytes the running computations may hold together.
    budget: u64,
    /// Bytes the running computations hold.
    reserved: u64,
    next_ticket: u64,
    entries: BTreeMap<u64, Entry>,
    usage: BTreeMap<Client, Usage>,
}

#[derive(Debug)]
struct Entry {
    /// Who asked for it: its time is charged to them, shared.
    clients: BTreeSet<Client>,
    /// When a request last asked for it (a `POST` starting it is none).
    demanded: Option<Instant>,
    /// Bytes its work holds at its peak.
    work: u64,
    stage: Stage,
}

#[derive(Debug)]
enum Stage {
    /// Entered, not yet asking for a slot (loading from the store).
    Entered,
    /// Waiting for a slot; its turn is sent here.
    Waiting(oneshot::Sender<()>),
    /// Holding a slot since then.
    Running(Instant),
}

/// A client's tier-computing seconds, decayed to `at`.
#[derive(Debug, Clone, Copy)]
struct Usage {
    used: f64,
    at: Instant,
}

impl Usage {
    fn now(self, now: Instant) -> f64 {
        let halves = now.saturating_duration_since(self.at).as_secs_f64() / HALF_LIFE.as_secs_f64();
        self.used * 0.5f64.powf(halves)
    }
}

impl State {
    fn new(slots: usize, budget: u64) -> State {
        State {
            free: slots.max(1),
            budget,
            reserved: 0,
            next_ticket: 0,
            entries: BTreeMap::new(),
            usage: BTreeMap::new(),
        }
    }

    /// A new entry for `client`, demanded now or not, whose work holds
    /// `work` bytes.
    fn enter(&mut self, client: Client, demanded: bool, work: u64, now: Instant) -> u64 {
        let id = self.next_ticket;
        self.next_ticket += 1;
        self.entries.insert(
            id,
            Entry {
                clients: BTreeSet::from([client]),
                demanded: demanded.then_some(now),
                work,
                stage: Stage::Entered,
            },
        );
        id
    }

    /// `client` asks for `id` too; `demanded`: a request needs it now.
    fn ask(&mut self, id: u64, client: Client, demanded: bool, now: Instant) {
        if let Some(e) = self.entries.get_mut(&id) {
            e.clients.insert(client);
            if demanded {
                e.demanded = Some(now);
            }
        }
    }

    /// `client`'s tier-computing seconds as of `now`: its decayed past
    /// plus its share of what runs now.
    fn used(&self, client: &Client, now: Instant) -> f64 {
        let past = self.usage.get(client).map_or(0.0, |u| u.now(now));
        let running: f64 = self
            .entries
            .values()
            .filter(|e| e.clients.contains(client))
            .filter_map(|e| match e.stage {
                Stage::Running(since) => Some(
                    now.saturating_duration_since(since).as_secs_f64() / e.clients.len() as f64,
                ),
                _ => None,
            })
            .sum();
        past + running
    }

    /// The waiting entry to run next (see the module's order).
    fn next(&self, now: Instant) -> Option<u64> {
        self.entries
            .iter()
            .filter(|(_, e)| matches!(e.stage, Stage::Waiting(_)))
            .map(|(&id, e)| {
                let stale = e
                    .demanded
                    .is_none_or(|at| now.saturating_duration_since(at) > DEMAND_FRESH);
                let used = e
                    .clients
                    .iter()
                    .map(|c| self.used(c, now))
                    .min_by(f64::total_cmp)
                    .unwrap_or(0.0);
                (stale, used, id)
            })
            .min_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)))
            .map(|(_, _, id)| id)
    }

    /// Hands free slots to waiting entries, in order, while the next one's
    /// memory fits (or nothing runs).
    fn dispatch(&mut self, now: Instant) {
        while self.free > 0 {
            let Some(id) = self.next(now) else { break };
            let Some(entry) = self.entries.get_mut(&id) else {
                break;
            };
            if self.reserved > 0 && self.reserved.saturating_add(entry.work) > self.budget {
                // It waits for memory; nothing smaller passes it.
                break;
            }
            let Stage::Waiting(turn) = std::mem::replace(&mut entry.stage, Stage::Running(now))
            else {
                unreachable!("next picks a waiting entry")
            };
            if turn.send(()).is_ok() {
                self.free -= 1;
                self.reserved = self.reserved.saturating_add(entry.work);
            } else {
                // Its waiter went away: it leaves.
                self.entries.remove(&id);
            }
        }
    }

    /// `id` asks for a slot, its turn sent on `turn`.
    fn wait(&mut self, id: u64, turn: oneshot::Sender<()>, now: Instant) {
        if let Some(e) = self.entries.get_mut(&id) {
            e.stage = Stage::Waiting(turn);
        }
        self.dispatch(now);
    }

    /// Takes `id` out of the waiting list (its planets were deleted); one
    /// already running is left to stop at its next checkpoint.
    fn withdraw(&mut self, id: u64) {
        if self
            .entries
            .get(&id)
            .is_some_and(|e| !matches!(e.stage, Stage::Running(_)))
        {
            self.entries.remove(&id);
        }
    }

    /// `id` leaves: a slot it held is charged to its clients and handed on.
    fn leave(&mut self, id: u64, now: Instant) {
        let Some(entry) = self.entries.remove(&id) else {
            return;
        };
        if let Stage::Running(since) = entry.stage {
            let share =
                now.saturating_duration_since(since).as_secs_f64() / entry.clients.len() as f64;
            for client in entry.clients {
                let used = self.usage.get(&client).map_or(0.0, |u| u.now(now)) + share;
                self.usage.insert(client, Usage { used, at: now });
            }
            self.free += 1;
            self.reserved = self.reserved.saturating_sub(entry.work);
            self.dispatch(now);
        }
        // Only recent clients are remembered.
        if self.usage.len() > 64 {
            self.usage.retain(|_, u| u.now(now) > 1e-3);
        }
    }
}

impl Schedule {
    /// `slots` computations at once (at least one), holding at most
    /// `budget` bytes together (but one alone may hold more), each change
    /// of the bytes they hold told to `on_reserved`.
    pub(crate) fn new(
        slots: usize,
        budget: u64,
        on_reserved: impl Fn(u64) + Send + Sync + 'static,
    ) -> Arc<Schedule> {
        Arc::new(Schedule {
            state: Mutex::new(State::new(slots, budget)),
            on_reserved: Box::new(on_reserved),
        })
    }

    /// Runs `change` on the state, then reports the bytes held if it
    /// moved them.
    fn update<T>(&self, change: impl FnOnce(&mut State) -> T) -> T {
        let mut state = self.lock();
        let before = state.reserved;
        let out = change(&mut state);
        if state.reserved != before {
            (self.on_reserved)(state.reserved);
        }
        out
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // Every update leaves the state whole: a panic cannot tear it.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A ticket for a computation `client` started, whose work holds
    /// `work` bytes; `demanded`: a request needs it now (not a `POST`).
    pub(crate) fn enter(self: &Arc<Self>, client: Client, demanded: bool, work: u64) -> Ticket {
        let id = self.lock().enter(client, demanded, work, Instant::now());
        Ticket {
            schedule: Arc::clone(self),
            id,
        }
    }

    /// `client` asks for the computation of ticket `id` too.
    pub(crate) fn ask(&self, id: u64, client: Client, demanded: bool) {
        self.lock().ask(id, client, demanded, Instant::now());
    }

    /// Takes ticket `id` out of the waiting list: its turn never comes.
    pub(crate) fn withdraw(&self, id: u64) {
        self.lock().withdraw(id);
    }

    /// Computations running and waiting now.
    #[cfg(test)]
    fn counts(&self) -> (usize, usize) {
        let s = self.lock();
        let running = s
            .entries
            .values()
            .filter(|e| matches!(e.stage, Stage::Running(_)))
            .count();
        let waiting = s
            .entries
            .values()
            .filter(|e| matches!(e.stage, Stage::Waiting(_)))
            .count();
        (running, waiting)
    }
}

impl Ticket {
    /// The ticket's id (for [`Schedule::ask`] and [`Schedule::withdraw`]).
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Waits for a slot, held until the ticket drops: `false` when the
    /// ticket was withdrawn instead.
    pub(crate) async fn turn(&self) -> bool {
        let (tx, rx) = oneshot::channel();
        self.schedule
            .update(|s| s.wait(self.id, tx, Instant::now()));
        rx.await.is_ok()
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.schedule.update(|s| s.leave(self.id, Instant::now()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state with one slot held by a running entry of `holder`, and the
    /// receivers of the turns of entries made to wait.
    struct Fixture {
        state: State,
        t0: Instant,
        turns: BTreeMap<u64, oneshot::Receiver<()>>,
    }

    impl Fixture {
        fn new(holder: &str) -> (Fixture, u64) {
            let t0 = Instant::now();
            let mut f = Fixture {
                state: State::new(1, u64::MAX),
                t0,
                turns: BTreeMap::new(),
            };
            let held = f.waiting(holder, false, 0);
            assert_eq!(f.started(), vec![held], "a free slot is taken at once");
            (f, held)
        }

        fn at(&self, s: u64) -> Instant {
            self.t0 + Duration::from_secs(s)
        }

        /// An entry of `client`, entered and waiting at second `s`.
        fn waiting(&mut self, client: &str, demanded: bool, s: u64) -> u64 {
            self.waiting_for(client, demanded, s, 0)
        }

        /// [`Fixture::waiting`] for work of `work` bytes.
        fn waiting_for(&mut self, client: &str, demanded: bool, s: u64, work: u64) -> u64 {
            let now = self.at(s);
            let id = self.state.enter(Client::named(client), demanded, work, now);
            let (tx, rx) = oneshot::channel();
            self.turns.insert(id, rx);
            self.state.wait(id, tx, now);
            id
        }

        /// The entries whose turn came since the last look.
        fn started(&mut self) -> Vec<u64> {
            let mut out = Vec::new();
            for (&id, rx) in &mut self.turns {
                if rx.try_recv().is_ok() {
                    out.push(id);
                }
            }
            out
        }

        /// Ends the running `id` at second `s`: which entry runs next.
        fn end(&mut self, id: u64, s: u64) -> Vec<u64> {
            self.state.leave(id, self.at(s));
            self.started()
        }
    }

    #[test]
    fn a_demanded_tier_goes_before_older_ones_nobody_asked_for() {
        let (mut f, held) = Fixture::new("flood");
        let first = f.waiting("flood", false, 1);
        let second = f.waiting("flood", false, 2);
        let asked = f.waiting("flood", false, 3);
        // A chunk request for the newest one.
        f.state.ask(asked, Client::named("flood"), true, f.at(4));
        assert_eq!(
            f.end(held, 5),
            vec![asked],
            "first in, first out would run {first}"
        );
        assert_eq!(f.end(asked, 6), vec![first]);
        assert_eq!(f.end(first, 7), vec![second]);
    }

    #[test]
    fn demand_goes_stale() {
        let (mut f, held) = Fixture::new("a");
        let first = f.waiting("a", false, 0);
        let asked = f.waiting("a", true, 0);
        let stale = DEMAND_FRESH.as_secs() + 1;
        assert_eq!(
            f.end(held, stale),
            vec![first],
            "asked long ago: arrival order"
        );
        assert_eq!(f.end(first, stale + 1), vec![asked]);
    }

    #[test]
    fn the_client_that_used_least_goes_before_a_heavy_one() {
        let (mut f, held) = Fixture::new("heavy");
        let heavy = f.waiting("heavy", false, 1);
        let light = f.waiting("light", false, 2);
        // heavy's running tier took 10 s: light, though later, goes first.
        assert_eq!(
            f.end(held, 10),
            vec![light],
            "first in, first out would run {heavy}"
        );
        assert_eq!(f.end(light, 11), vec![heavy]);
        assert!(f.state.used(&Client::named("heavy"), f.at(10)) > 9.0);
    }

    #[test]
    fn demand_comes_before_fairness() {
        let (mut f, held) = Fixture::new("heavy");
        let light = f.waiting("light", false, 1);
        let heavy = f.waiting("heavy", true, 2);
        assert_eq!(f.end(held, 10), vec![heavy], "{light} was not asked for");
    }

    #[test]
    fn running_time_counts_before_it_ends_and_is_shared() {
        let t0 = Instant::now();
        let at = |s| t0 + Duration::from_secs(s);
        let mut s = State::new(2, u64::MAX);
        let (a, b) = (Client::named("a"), Client::named("b"));
        let run = s.enter(a.clone(), false, 0, at(0));
        let (tx, _rx) = oneshot::channel();
        s.wait(run, tx, at(0));
        s.ask(run, b.clone(), false, at(0));
        // Running 8 s for two clients: 4 s each, before it ends.
        assert!((s.used(&a, at(8)) - 4.0).abs() < 1e-9);
        s.leave(run, at(8));
        assert!((s.used(&b, at(8)) - 4.0).abs() < 1e-9);
        // Decayed by half after a half-life.
        let later = at(8) + HALF_LIFE;
        assert!((s.used(&b, later) - 2.0).abs() < 1e-9);
        assert_eq!(s.free, 2);
    }

    #[test]
    fn arrival_breaks_ties() {
        let (mut f, held) = Fixture::new("x");
        let a = f.waiting("a", false, 1);
        let b = f.waiting("b", false, 1);
        let c = f.waiting("a", false, 1);
        assert_eq!(f.end(held, 2), vec![a]);
        // a now used 1 s, b none.
        assert_eq!(f.end(a, 3), vec![b]);
        assert_eq!(f.end(b, 3), vec![c]);
    }

    #[test]
    fn a_withdrawn_entry_never_runs_and_a_running_one_stays() {
        let (mut f, held) = Fixture::new("a");
        let gone = f.waiting("a", false, 1);
        let next = f.waiting("a", false, 2);
        f.state.withdraw(gone);
        f.state.withdraw(held);
        assert!(
            f.turns.get_mut(&gone).unwrap().try_recv().is_err(),
            "its turn is closed"
        );
        assert_eq!(f.end(held, 3), vec![next]);
        assert!(!f.state.entries.contains_key(&gone));
    }

    #[tokio::test]
    async fn tickets_wait_for_slots_and_hand_them_on() {
        let schedule = Schedule::new(1, u64::MAX, |_| {});
        let first = schedule.enter(Client::named("a"), false, 0);
        assert!(first.turn().await);
        let second = schedule.enter(Client::named("a"), false, 0);
        let waiter = tokio::spawn(async move { (second.turn().await, second) });
        while schedule.counts() != (1, 1) {
            tokio::task::yield_now().await;
        }
        let third = schedule.enter(Client::named("b"), false, 0);
        let third_id = third.id();
        let withdrawn = tokio::spawn(async move { third.turn().await });
        while schedule.counts() != (1, 2) {
            tokio::task::yield_now().await;
        }
        schedule.withdraw(third_id);
        assert!(!withdrawn.await.unwrap(), "a withdrawn ticket gets no turn");
        drop(first);
        let (got, second) = waiter.await.unwrap();
        assert!(got);
        assert_eq!(schedule.counts(), (1, 0));
        drop(second);
        assert_eq!(schedule.counts(), (0, 0));
        assert_eq!(schedule.lock().free, 1, "the slot is free again, not lost");
    }

    /// Fixture with `slots` slots and a memory budget of `budget` bytes.
    fn with_budget(slots: usize, budget: u64) -> Fixture {
        Fixture {
            state: State::new(slots, budget),
            t0: Instant::now(),
            turns: BTreeMap::new(),
        }
    }

    #[test]
    fn the_next_waits_until_its_memory_fits_and_nothing_smaller_passes_it() {
        let mut f = with_budget(3, 100);
        let a = f.waiting_for("a", false, 0, 60);
        let b = f.waiting_for("b", false, 1, 60);
        let c = f.waiting_for("c", false, 2, 10);
        // Slots are free, but b's 60 do not fit beside a's, and c, though
        // it would fit, is behind b.
        assert_eq!(f.started(), vec![a]);
        assert_eq!(f.state.reserved, 60);
        assert_eq!(f.end(a, 3), vec![b, c], "both fit once a is done");
        assert_eq!(f.state.reserved, 70);
        f.end(b, 4);
        f.end(c, 4);
        assert_eq!((f.state.reserved, f.state.free), (0, 3));
    }

    #[test]
    fn work_over_the_budget_runs_alone() {
        let mut f = with_budget(2, 100);
        let big = f.waiting_for("a", false, 0, 150);
        let small = f.waiting_for("b", false, 1, 10);
        assert_eq!(f.started(), vec![big], "alone, it runs");
        assert_eq!(f.end(big, 2), vec![small]);
    }

    #[tokio::test]
    async fn the_bytes_held_are_reported_as_they_change() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let schedule = Schedule::new(2, 100, move |b| log.lock().unwrap().push(b));
        let first = schedule.enter(Client::named("a"), false, 30);
        let second = schedule.enter(Client::named("b"), false, 50);
        assert!(first.turn().await);
        assert!(second.turn().await);
        drop(first);
        drop(second);
        assert_eq!(*seen.lock().unwrap(), vec![30, 80, 50, 0]);
    }
}
