//! Which session runs next: one run queue per tenant, the tenant running the fewest sessions
//! served first, round-robin among equals (fair share: one tenant's 10,000 queued sessions
//! wait their turn behind another's 10 one at a time), a per-tenant limit of sessions running
//! at once, a bound on the sessions waiting, and the durable timers (sleeps, retry backoffs).
//!
//! Servers sharing a database count the sessions the *fleet* runs: the poll gives the
//! scheduler every tenant's live leases ([`Scheduler::set_fleet_leases`]), and a tenant busy on
//! other servers waits behind one that is not, so fair share holds across servers (the
//! per-tenant limit itself is enforced in the store's claim transaction).
//!
//! A session is at most once in the queues and at most once running; work that arrives for
//! a running session (a result, a cancel) marks it to run again when its slice ends.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

#[derive(Default)]
struct State {
    /// Runnable sessions per tenant, oldest first.
    queues: BTreeMap<String, VecDeque<String>>,
    /// Sessions in some queue.
    queued: BTreeSet<String>,
    /// Sessions running, and how many per tenant.
    running: BTreeSet<String>,
    running_per_tenant: BTreeMap<String, usize>,
    /// Running sessions to queue again when their slice ends.
    again: BTreeMap<String, String>,
    /// The tenant served last (round-robin among equals starts after it).
    last_tenant: Option<String>,
    /// Sessions per tenant running on other servers sharing the store, as of the last poll.
    elsewhere: BTreeMap<String, usize>,
    /// Durable timers: (due ms, session) → tenant; a session's empty id is a retry timer.
    timers: BTreeSet<(u64, String, String)>,
    stopping: bool,
}

/// The run queues and timers, shared by the API, the workers and the timer thread.
pub struct Scheduler {
    state: Mutex<State>,
    /// Workers wait here for a runnable session.
    runnable: Condvar,
    /// The timer thread waits here for the next due time (or a new, earlier timer).
    timers_changed: Condvar,
    tenant_limit: usize,
    max_queued: usize,
}

impl Scheduler {
    pub fn new(tenant_limit: usize, max_queued: usize) -> Scheduler {
        Scheduler {
            state: Mutex::new(State::default()),
            runnable: Condvar::new(),
            timers_changed: Condvar::new(),
            tenant_limit,
            max_queued,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock is a bug elsewhere; the state itself stays valid.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// True if the queues are full (new sessions are refused with 429).
    pub fn full(&self) -> bool {
        self.lock().queued.len() >= self.max_queued
    }

    /// Sessions waiting for a worker.
    pub fn queue_depth(&self) -> usize {
        self.lock().queued.len()
    }

    /// Makes `id` runnable (it runs again after its current slice if it is running).
    pub fn wake(&self, id: &str, tenant: &str) {
        let mut state = self.lock();
        if state.running.contains(id) {
            state.again.insert(id.to_string(), tenant.to_string());
            return;
        }
        if state.queued.insert(id.to_string()) {
            state.queues.entry(tenant.to_string()).or_default().push_back(id.to_string());
            self.runnable.notify_one();
        }
    }

    /// Wakes `id` at `due_ms` (wall clock).
    pub fn add_timer(&self, id: &str, tenant: &str, due_ms: u64) {
        let mut state = self.lock();
        state.timers.insert((due_ms, id.to_string(), tenant.to_string()));
        self.timers_changed.notify_all();
    }

    /// Wakes waiting tool workers at `at_ms` (a failed call becomes claimable again).
    pub fn add_retry_timer(&self, at_ms: u64) {
        self.add_timer("", "", at_ms);
    }

    /// The next session to run (blocking), or None once stopping.
    pub fn next(&self) -> Option<(String, String)> {
        let mut state = self.lock();
        loop {
            if state.stopping {
                return None;
            }
            if let Some(picked) = self.pick(&mut state) {
                return Some(picked);
            }
            state = self.runnable.wait(state).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// Sets the fleet's live leases per tenant (this server's included, as the store counts
    /// them): what runs elsewhere is what this server does not run itself.
    pub fn set_fleet_leases(&self, leases: &BTreeMap<String, u64>) {
        let mut state = self.lock();
        let elsewhere = leases
            .iter()
            .map(|(tenant, n)| {
                let here = state.running_per_tenant.get(tenant).copied().unwrap_or(0);
                (tenant.clone(), usize::try_from(*n).unwrap_or(usize::MAX).saturating_sub(here))
            })
            .filter(|(_, n)| *n > 0)
            .collect();
        state.elsewhere = elsewhere;
    }

    /// The queued tenant below its limit that runs the fewest sessions (here and elsewhere);
    /// among equals, the first after the last one served.
    fn pick(&self, state: &mut State) -> Option<(String, String)> {
        let tenants: Vec<String> = state.queues.keys().cloned().collect();
        let start = match &state.last_tenant {
            Some(last) => tenants.iter().position(|t| t > last).unwrap_or(0),
            None => 0,
        };
        let here = |state: &State, tenant: &str| state.running_per_tenant.get(tenant).copied().unwrap_or(0);
        let tenant = (0..tenants.len())
            .map(|offset| &tenants[(start + offset) % tenants.len()])
            .filter(|tenant| here(state, tenant) < self.tenant_limit)
            .min_by_key(|tenant| here(state, tenant) + state.elsewhere.get(*tenant).copied().unwrap_or(0))?
            .clone();
        let queue = state.queues.get_mut(&tenant)?;
        let id = queue.pop_front()?;
        if queue.is_empty() {
            state.queues.remove(&tenant);
        }
        state.queued.remove(&id);
        state.running.insert(id.clone());
        *state.running_per_tenant.entry(tenant.clone()).or_default() += 1;
        state.last_tenant = Some(tenant.clone());
        Some((id, tenant))
    }

    /// A worker finished a slice of `id`.
    pub fn done(&self, id: &str, tenant: &str) {
        let again = {
            let mut state = self.lock();
            state.running.remove(id);
            if let Some(n) = state.running_per_tenant.get_mut(tenant) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    state.running_per_tenant.remove(tenant);
                }
            }
            state.again.remove(id)
        };
        if let Some(tenant) = again {
            self.wake(id, &tenant);
        }
        // A slot of this tenant is free: a worker may now take one of its queued sessions.
        self.runnable.notify_one();
    }

    /// True once [`Scheduler::shutdown`] was called.
    pub fn stopping(&self) -> bool {
        self.lock().stopping
    }

    /// Waits `duration` (or until stopping); true once stopping.
    pub fn sleep_unless_stopping(&self, duration: Duration) -> bool {
        let state = self.lock();
        if state.stopping {
            return true;
        }
        let state = self.timers_changed.wait_timeout(state, duration).unwrap_or_else(|p| p.into_inner()).0;
        state.stopping
    }

    /// Stops handing out sessions; workers return from [`Scheduler::next`].
    pub fn shutdown(&self) {
        self.lock().stopping = true;
        self.runnable.notify_all();
        self.timers_changed.notify_all();
    }

    /// The timer thread: wakes sessions whose timers are due, and calls `retry_due` for
    /// retry timers (tool workers waiting on claims). Returns once stopping.
    pub fn run_timers(&self, retry_due: &dyn Fn()) {
        let mut state = self.lock();
        loop {
            if state.stopping {
                return;
            }
            let now = amber::wall_clock_ms();
            let mut due = Vec::new();
            while let Some(first) = state.timers.first().cloned() {
                if first.0 > now {
                    break;
                }
                state.timers.remove(&first);
                due.push(first);
            }
            if !due.is_empty() {
                drop(state);
                for (_, id, tenant) in due {
                    if id.is_empty() {
                        retry_due();
                    } else {
                        self.wake(&id, &tenant);
                    }
                }
                state = self.lock();
                continue;
            }
            let wait = state.timers.first().map_or(Duration::from_secs(60), |t| Duration::from_millis(t.0 - now));
            state = self.timers_changed.wait_timeout(state, wait).unwrap_or_else(|p| p.into_inner()).0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tenants_take_turns_and_respect_their_limit() {
        let s = Scheduler::new(2, 100);
        for i in 0..5 {
            s.wake(&format!("big-{i}"), "big");
        }
        s.wake("small-0", "small");
        s.wake("small-1", "small");
        let order: Vec<String> = (0..4).map(|_| s.next().unwrap().0).collect();
        assert_eq!(order, ["big-0", "small-0", "big-1", "small-1"]);
        // Both tenants are at their limit of 2: nothing more until one finishes.
        let picked = s.pick(&mut s.lock());
        assert_eq!(picked, None);
        s.done("big-0", "big");
        assert_eq!(s.next().unwrap().0, "big-2");
    }

    #[test]
    fn a_tenant_busy_on_other_servers_waits_behind_one_that_is_not() {
        let s = Scheduler::new(8, 100);
        for i in 0..3 {
            s.wake(&format!("big-{i}"), "big");
            s.wake(&format!("small-{i}"), "small");
        }
        // The fleet runs 3 of big's sessions, one of them here.
        assert_eq!(s.next().unwrap().0, "big-0");
        s.set_fleet_leases(&BTreeMap::from([("big".to_string(), 3)]));
        let order: Vec<String> = (0..4).map(|_| s.next().unwrap().0).collect();
        // small catches up to big's 3 first, then the two take turns.
        assert_eq!(order, ["small-0", "small-1", "small-2", "big-1"]);
    }

    #[test]
    fn work_for_a_running_session_runs_it_again_after_its_slice() {
        let s = Scheduler::new(4, 100);
        s.wake("a", "t");
        assert_eq!(s.next().unwrap().0, "a");
        s.wake("a", "t");
        assert_eq!(s.queue_depth(), 0);
        s.done("a", "t");
        assert_eq!(s.queue_depth(), 1);
        s.wake("a", "t");
        assert_eq!(s.queue_depth(), 1, "queued once");
    }

    #[test]
    fn timers_wake_their_sessions_when_due() {
        let s = std::sync::Arc::new(Scheduler::new(4, 100));
        s.add_timer("late", "t", amber::wall_clock_ms() + 50);
        s.add_timer("now", "t", 0);
        let timers = {
            let s = s.clone();
            std::thread::spawn(move || s.run_timers(&|| {}))
        };
        assert_eq!(s.next().unwrap().0, "now");
        assert_eq!(s.next().unwrap().0, "late");
        s.shutdown();
        timers.join().unwrap();
        assert_eq!(s.next(), None);
    }
}
