//! The agent side of shared memory (ECMA-262 §9.7 Agents): what another agent needs to reach
//! this one. A VM is one agent; several run at once only when an embedder starts them on
//! threads of its own (test262's `$262.agent`) and hands them the same SharedArrayBuffer.
//!
//! An [`AgentSignal`] is the mailbox through which `Atomics.notify` in one agent wakes an
//! `Atomics.waitAsync` waiter of another: the notifier posts the waiter's token, and the
//! owning VM settles the promise when its event loop next looks
//! ([`crate::Vm::take_agent_signals`]). It is host state, like the print hook: never in an
//! image, carried over by an in-process round trip.
//!
//! [`Deadline`] is the engine's one reading of a real clock (clippy's `disallowed-methods`
//! forbids it elsewhere): `Atomics.wait` blocks a thread until another agent's thread
//! notifies it, and its timeout is real time by nature. It is reachable only when an embedder
//! runs agents on threads of its own; a lone agent's wait never blocks (see `Atomics.wait`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// One agent's mailbox. Clones name the same agent.
#[derive(Clone, Default)]
pub struct AgentSignal(Arc<Mailbox>);

#[derive(Default)]
struct Mailbox {
    posts: Mutex<Posts>,
    posted: Condvar,
    /// Set by the embedder to stop the agent: its blocking waits return "timed-out" soon.
    cancelled: AtomicBool,
}

#[derive(Default)]
struct Posts {
    /// Tokens of this agent's async waiters that other agents have notified.
    tokens: Vec<u64>,
    nudged: bool,
}

/// How often a blocked agent looks at its cancel flag.
pub(crate) const CANCEL_POLL: Duration = Duration::from_millis(20);

impl AgentSignal {
    pub fn new() -> AgentSignal {
        AgentSignal::default()
    }

    /// Do both name the same agent?
    pub fn same(&self, other: &AgentSignal) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    fn posts(&self) -> MutexGuard<'_, Posts> {
        self.0.posts.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Another agent notified this agent's waiter `token`.
    pub(crate) fn post(&self, token: u64) {
        self.posts().tokens.push(token);
        self.0.posted.notify_all();
    }

    /// Wakes the agent from [`AgentSignal::wait_for_post`] without a notification: the
    /// embedder has news for it (test262's agents nudge the main agent when they report).
    pub fn nudge(&self) {
        self.posts().nudged = true;
        self.0.posted.notify_all();
    }

    /// The tokens notified since the last take, in notification order (and forgets a nudge).
    pub(crate) fn take(&self) -> Vec<u64> {
        let mut posts = self.posts();
        posts.nudged = false;
        std::mem::take(&mut posts.tokens)
    }

    /// Blocks until a notification is posted, the agent is nudged or cancelled, or `timeout`
    /// passes. Answers whether it was woken by a post or a nudge.
    pub fn wait_for_post(&self, timeout: Duration) -> bool {
        let deadline = Deadline::after(Some(timeout));
        let mut posts = self.posts();
        while posts.tokens.is_empty() && !posts.nudged && !self.is_cancelled() {
            let Some(slice) = deadline.next_slice() else { break };
            posts = self.0.posted.wait_timeout(posts, slice).unwrap_or_else(PoisonError::into_inner).0;
        }
        let woken = !posts.tokens.is_empty() || posts.nudged;
        posts.nudged = false;
        woken
    }

    /// Asks the agent to stop: blocking waits give up, as if timed out.
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::SeqCst);
        self.0.posted.notify_all();
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::SeqCst)
    }
}

/// When a blocking wait between agent threads gives up: a real-time instant, or never.
pub(crate) struct Deadline(Option<Instant>);

impl Deadline {
    /// `timeout` from now (None, or one too far to represent: never).
    #[allow(clippy::disallowed_methods, reason = "a wait between agent threads is real time (module docs)")]
    pub(crate) fn after(timeout: Option<Duration>) -> Deadline {
        Deadline(timeout.and_then(|t| Instant::now().checked_add(t)))
    }

    /// How long to block before looking again (at most [`CANCEL_POLL`], so a cancelled agent
    /// notices soon), or None once the deadline has passed.
    #[allow(clippy::disallowed_methods, reason = "a wait between agent threads is real time (module docs)")]
    pub(crate) fn next_slice(&self) -> Option<Duration> {
        match self.0 {
            None => Some(CANCEL_POLL),
            Some(d) => {
                let now = Instant::now();
                (now < d).then(|| (d - now).min(CANCEL_POLL))
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods, reason = "tests pace real threads against each other")]
mod tests {
    use super::*;

    #[test]
    fn a_post_from_another_thread_wakes_the_waiting_agent() {
        let agent = AgentSignal::new();
        let poster = agent.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(10));
            poster.post(7);
        });
        assert!(agent.wait_for_post(Duration::from_secs(10)));
        assert_eq!(agent.take(), vec![7]);
        assert!(t.join().is_ok());
        assert!(!agent.wait_for_post(Duration::from_millis(1)));
        agent.nudge();
        assert!(agent.wait_for_post(Duration::from_secs(10)));
        assert!(agent.take().is_empty());
    }

    #[test]
    fn cancelling_ends_a_wait_without_a_post() {
        let agent = AgentSignal::new();
        agent.cancel();
        assert!(!agent.wait_for_post(Duration::from_secs(10)));
        assert!(agent.same(&agent.clone()));
        assert!(!agent.same(&AgentSignal::new()));
    }
}
