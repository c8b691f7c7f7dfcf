//! The agent side of shared memory (ECMA-262 §9.7 Agents): what another agent needs to reach
//! this one. A VM is one agent; several run at once only when an embedder starts them on
//! threads of its own (test262's `$262.agent`) and hands them the same SharedArrayBuffer.
//!
//! An [`AgentSignal`] is the mailbox through which `Atomics.notify` in one agent wakes an
//! `Atomics.waitAsync` waiter of another: the notifier posts the waiter's token, and the
//! owning VM settles the promise when its event loop next looks
//! ([`crate::Vm::take_agent_signals`]). It is host state, like the print hook: never in an
//! image, carried over by an in-process round trip.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// One agent's mailbox. Clones name the same agent.
#[derive(Clone, Default)]
pub struct AgentSignal(Arc<Mailbox>);

#[derive(Default)]
struct Mailbox {
    /// Tokens of this agent's async waiters that other agents have notified.
    notified: Mutex<Vec<u64>>,
    posted: Condvar,
    /// Set by the embedder to stop the agent: its blocking waits return "timed-out" soon.
    cancelled: AtomicBool,
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

    fn notified(&self) -> MutexGuard<'_, Vec<u64>> {
        self.0.notified.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Another agent notified this agent's waiter `token`.
    pub(crate) fn post(&self, token: u64) {
        self.notified().push(token);
        self.0.posted.notify_all();
    }

    /// The tokens notified since the last take, in notification order.
    pub(crate) fn take(&self) -> Vec<u64> {
        std::mem::take(&mut *self.notified())
    }

    /// Blocks until a notification is posted, the agent is cancelled or `timeout` passes.
    /// Answers whether a notification is waiting.
    pub fn wait_for_post(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut notified = self.notified();
        while notified.is_empty() && !self.is_cancelled() {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            let slice = (deadline - now).min(CANCEL_POLL);
            notified = self.0.posted.wait_timeout(notified, slice).unwrap_or_else(PoisonError::into_inner).0;
        }
        !notified.is_empty()
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

#[cfg(test)]
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
