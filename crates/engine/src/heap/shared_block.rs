//! Shared Data Blocks (ECMA-262 §6.2.9): the memory of a SharedArrayBuffer, which every agent
//! holding the buffer reads and writes at once, with the waiter list of `Atomics.wait`,
//! `waitAsync` and `notify` on it (§25.4.3 WaiterList Records).
//!
//! This is the one piece of heap data that one VM does not own outright: a block is counted
//! by reference across the agents (threads) that hold it. Images still see plain data: a
//! block serializes as its bytes, and a restored VM gets a block of its own holding them
//! (the other agents do not come along). Only an in-process copy (`Vm::snapshot_roundtrip`,
//! the canonical copy) reattaches the same block, through [`carrying`].
//!
//! The memory is an array of 64-bit atomic words, little-endian: byte `i` is bits
//! `8 * (i % 8)..` of word `i / 8`. Plain reads and writes are relaxed, word by word, which
//! the memory model allows for unordered accesses (§29). Atomics operations are sequentially
//! consistent read-modify-writes of the word that holds the element: an element is aligned to
//! its size, so it never straddles two words.

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard};
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::agent::{AgentSignal, Deadline};

/// A handle on one shared data block. Clones name the same memory.
#[derive(Clone)]
pub struct SharedBlock(Arc<Memory>);

struct Memory {
    /// Grows (a growable SharedArrayBuffer) but never shrinks.
    words: RwLock<Vec<AtomicU64>>,
    len: AtomicUsize,
    /// The waiter list of every location in the block, in the order the waiters arrived.
    waiters: Mutex<Vec<Waiter>>,
    /// Signalled when `notify` removes a synchronous waiter.
    woken: Condvar,
}

struct Waiter {
    byte_index: usize,
    kind: WaiterKind,
}

impl Waiter {
    /// Is this `agent`'s async waiter `token`?
    fn is_async(&self, agent: &AgentSignal, token: u64) -> bool {
        matches!(&self.kind, WaiterKind::Async { agent: a, token: t } if *t == token && a.same(agent))
    }
}

enum WaiterKind {
    /// An agent blocked in `Atomics.wait`.
    Sync(u64),
    /// A pending `Atomics.waitAsync` promise of `agent`, which knows it by `token`.
    Async { agent: AgentSignal, token: u64 },
}

/// Identifies a blocked agent's waiter record (process-wide; never observable).
static NEXT_SYNC_WAITER: AtomicU64 = AtomicU64::new(1);

/// How a wait on a location ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WaitResult {
    /// The location did not hold the expected value.
    NotEqual,
    /// Another agent notified the waiter.
    Woken,
    TimedOut,
}

/// Extends `words` with zeroes to `n` words, None when the host refuses the memory.
fn zero_extend(words: &mut Vec<AtomicU64>, n: usize) -> Option<()> {
    words.try_reserve_exact(n.saturating_sub(words.len())).ok()?;
    while words.len() < n {
        words.push(AtomicU64::new(0));
    }
    Some(())
}

fn mask(size: usize) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * size)) - 1
    }
}

impl SharedBlock {
    /// A zeroed block of `len` bytes; None when the host refuses the memory.
    pub fn try_new(len: usize) -> Option<SharedBlock> {
        let mut words = Vec::new();
        zero_extend(&mut words, len.div_ceil(8))?;
        Some(SharedBlock(Arc::new(Memory {
            words: RwLock::new(words),
            len: AtomicUsize::new(len),
            waiters: Mutex::new(Vec::new()),
            woken: Condvar::new(),
        })))
    }

    /// A zeroed block of `len` bytes (empty if the host refuses the memory).
    pub fn new(len: usize) -> SharedBlock {
        SharedBlock::try_new(len).unwrap_or_else(|| SharedBlock::new(0))
    }

    pub fn from_bytes(bytes: &[u8]) -> SharedBlock {
        let block = SharedBlock::new(bytes.len());
        block.write(0, bytes);
        block
    }

    /// Do both name the same memory?
    pub fn same(&self, other: &SharedBlock) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Could an agent other than the one asking hold this block (and so notify a waiter)?
    pub fn held_elsewhere(&self) -> bool {
        Arc::strong_count(&self.0) > 1
    }

    fn words(&self) -> RwLockReadGuard<'_, Vec<AtomicU64>> {
        self.0.words.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn waiters(&self) -> MutexGuard<'_, Vec<Waiter>> {
        self.0.waiters.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn len(&self) -> usize {
        self.0.len.load(Ordering::SeqCst)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Grows the block to `new_len` bytes (zeroed). False if it already holds more (another
    /// agent grew it first) or the host refuses the memory.
    pub fn grow(&self, new_len: usize) -> bool {
        let mut words = self.0.words.write().unwrap_or_else(PoisonError::into_inner);
        if new_len < self.len() || zero_extend(&mut words, new_len.div_ceil(8)).is_none() {
            return false;
        }
        self.0.len.store(new_len, Ordering::SeqCst);
        true
    }

    /// Copies bytes from `offset` into `dst` (unordered). Bytes past the end are left alone.
    pub fn read(&self, offset: usize, dst: &mut [u8]) {
        let words = self.words();
        let mut i = 0;
        while i < dst.len() {
            let at = offset + i;
            let (w, b) = (at / 8, at % 8);
            let Some(word) = words.get(w) else { break };
            let n = (8 - b).min(dst.len() - i);
            let bytes = word.load(Ordering::Relaxed).to_le_bytes();
            dst[i..i + n].copy_from_slice(&bytes[b..b + n]);
            i += n;
        }
    }

    /// Copies `src` to the block at `offset` (unordered). Bytes past the end are dropped.
    pub fn write(&self, offset: usize, src: &[u8]) {
        let words = self.words();
        let mut i = 0;
        while i < src.len() {
            let at = offset + i;
            let (w, b) = (at / 8, at % 8);
            let Some(word) = words.get(w) else { break };
            let n = (8 - b).min(src.len() - i);
            let piece = &src[i..i + n];
            if n == 8 {
                let mut bytes = [0u8; 8];
                bytes.copy_from_slice(piece);
                word.store(u64::from_le_bytes(bytes), Ordering::Relaxed);
            } else {
                // Other bytes of the word may be written by other agents at the same time.
                let _ = word.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                    let mut bytes = old.to_le_bytes();
                    bytes[b..b + n].copy_from_slice(piece);
                    Some(u64::from_le_bytes(bytes))
                });
            }
            i += n;
        }
    }

    /// The whole block's bytes.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = vec![0; self.len()];
        self.read(0, &mut out);
        out
    }

    /// Reads the `size`-byte element at `offset` (sequentially consistent), zero-extended.
    pub fn load(&self, offset: usize, size: usize) -> u64 {
        if offset % 8 + size > 8 {
            return self.load_unaligned(offset, size);
        }
        let words = self.words();
        let Some(word) = words.get(offset / 8) else { return 0 };
        (word.load(Ordering::SeqCst) >> (8 * (offset % 8))) & mask(size)
    }

    /// Replaces the `size`-byte element at `offset` with `f(old)` in one sequentially
    /// consistent step, and answers `old`. `f` may run more than once (it must be pure).
    pub fn update(&self, offset: usize, size: usize, f: impl Fn(u64) -> u64) -> u64 {
        if offset % 8 + size > 8 {
            let old = self.load_unaligned(offset, size);
            self.write(offset, &f(old).to_le_bytes()[..size]);
            return old;
        }
        let words = self.words();
        let Some(word) = words.get(offset / 8) else { return 0 };
        let (shift, m) = (8 * (offset % 8), mask(size));
        let previous = word.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |old| {
            let new = f((old >> shift) & m) & m;
            Some((old & !(m << shift)) | (new << shift))
        });
        let old = match previous {
            Ok(v) | Err(v) => v,
        };
        (old >> shift) & m
    }

    /// Elements are aligned to their size, so no Atomics access comes here; a DataView's
    /// plain access may, and plain accesses are not atomic.
    fn load_unaligned(&self, offset: usize, size: usize) -> u64 {
        let mut bytes = [0u8; 8];
        self.read(offset, &mut bytes[..size.min(8)]);
        u64::from_le_bytes(bytes)
    }

    /// DoWait (§25.4.3.14) in sync mode, steps 11-31: if the element at `byte_index` holds
    /// `expected`, block this thread until another agent notifies it, `timeout` passes
    /// (None: never) or `agent` is cancelled.
    pub fn wait(
        &self,
        byte_index: usize,
        size: usize,
        expected: u64,
        timeout: Option<Duration>,
        agent: &AgentSignal,
    ) -> WaitResult {
        let deadline = Deadline::after(timeout);
        // 11. Perform EnterCriticalSection(WL).
        let mut list = self.waiters();
        // 14-17. If the value differs, leave the critical section: "not-equal".
        if self.load(byte_index, size) != expected {
            return WaitResult::NotEqual;
        }
        // 19-26. Add a waiter record.
        let id = NEXT_SYNC_WAITER.fetch_add(1, Ordering::Relaxed);
        list.push(Waiter { byte_index, kind: WaiterKind::Sync(id) });
        loop {
            // 27. SuspendThisAgent(WL, waiterRecord): notify removes the record.
            let present = list.iter().position(|w| matches!(w.kind, WaiterKind::Sync(i) if i == id));
            let Some(at) = present else { return WaitResult::Woken };
            let Some(remaining) = deadline.next_slice() else {
                list.remove(at);
                return WaitResult::TimedOut;
            };
            if agent.is_cancelled() {
                list.remove(at);
                return WaitResult::TimedOut;
            }
            list = self.0.woken.wait_timeout(list, remaining).unwrap_or_else(PoisonError::into_inner).0;
        }
    }

    /// DoWait in async mode, steps 11-26: if the element holds `expected`, add `agent`'s
    /// waiter `token` to the list (unless `zero_timeout`: then it times out at once).
    pub fn wait_async(
        &self,
        byte_index: usize,
        size: usize,
        expected: u64,
        zero_timeout: bool,
        agent: &AgentSignal,
        token: u64,
    ) -> WaitResult {
        let mut list = self.waiters();
        if self.load(byte_index, size) != expected {
            return WaitResult::NotEqual;
        }
        if zero_timeout {
            return WaitResult::TimedOut;
        }
        list.push(Waiter { byte_index, kind: WaiterKind::Async { agent: agent.clone(), token } });
        WaitResult::Woken
    }

    /// Puts back an async waiter a restored VM still has pending (its block is new).
    pub fn rejoin_async(&self, byte_index: usize, agent: &AgentSignal, token: u64) {
        let mut list = self.waiters();
        if !list.iter().any(|w| w.is_async(agent, token)) {
            list.push(Waiter { byte_index, kind: WaiterKind::Async { agent: agent.clone(), token } });
        }
    }

    /// Removes `agent`'s async waiter `token` (its timeout): false if a notify took it first.
    pub fn leave_async(&self, agent: &AgentSignal, token: u64) -> bool {
        let mut list = self.waiters();
        let at = list.iter().position(|w| w.is_async(agent, token));
        at.map(|i| list.remove(i)).is_some()
    }

    /// Atomics.notify (§25.4.16) steps 7-11: removes up to `count` waiters on `byte_index` in
    /// list order and wakes them. Blocked agents resume, other agents' async waiters are
    /// posted to them; the tokens of `me`'s own async waiters are returned for the caller to
    /// settle at once. Answers the number woken.
    pub fn notify(&self, byte_index: usize, count: f64, me: &AgentSignal) -> (usize, Vec<u64>) {
        let mut list = self.waiters();
        let (mut n, mut mine, mut woke_sync) = (0usize, Vec::new(), false);
        let mut i = 0;
        while i < list.len() && (n as f64) < count {
            if list[i].byte_index != byte_index {
                i += 1;
                continue;
            }
            match list.remove(i).kind {
                WaiterKind::Sync(_) => woke_sync = true,
                WaiterKind::Async { agent, token } if agent.same(me) => mine.push(token),
                WaiterKind::Async { agent, token } => agent.post(token),
            }
            n += 1;
        }
        drop(list);
        if woke_sync {
            self.0.woken.notify_all();
        }
        (n, mine)
    }
}

impl std::fmt::Debug for SharedBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SharedBlock({} bytes)", self.len())
    }
}

thread_local! {
    /// Blocks serialized inside a [`carrying`] scope, to be handed back in the same order by
    /// the deserializations of that scope.
    static CARRY: Cell<Option<VecDeque<SharedBlock>>> = const { Cell::new(None) };
}

/// Runs `f`, an in-process serialize-then-deserialize of state (a round trip or a canonical
/// copy), so that every shared block deserialized in it is the very block serialized at the
/// same position, not a copy: the copy keeps sharing memory with the other agents.
pub(crate) fn carrying<R>(f: impl FnOnce() -> R) -> R {
    let outer = CARRY.with(|c| c.replace(Some(VecDeque::new())));
    let r = f();
    CARRY.with(|c| c.set(outer));
    r
}

fn with_carry<R>(f: impl FnOnce(&mut VecDeque<SharedBlock>) -> R) -> Option<R> {
    CARRY.with(|c| {
        let mut queue = c.take()?;
        let r = f(&mut queue);
        c.set(Some(queue));
        Some(r)
    })
}

impl Serialize for SharedBlock {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        with_carry(|q| q.push_back(self.clone()));
        self.to_vec().serialize(s)
    }
}

impl<'de> Deserialize<'de> for SharedBlock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SharedBlock, D::Error> {
        let bytes = Vec::<u8>::deserialize(d)?;
        match with_carry(|q| q.pop_front()).flatten() {
            Some(block) => Ok(block),
            None => Ok(SharedBlock::from_bytes(&bytes)),
        }
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods, reason = "tests pace real threads against each other")]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_back_across_word_boundaries() {
        let block = SharedBlock::new(20);
        block.write(5, &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        let mut out = [0u8; 11];
        block.read(4, &mut out);
        assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0]);
        assert_eq!(block.to_vec().len(), 20);
        // Past the end: dropped on write, untouched on read.
        block.write(18, &[0xaa; 8]);
        assert_eq!(block.to_vec()[18..], [0xaa, 0xaa]);
    }

    #[test]
    fn an_update_changes_only_its_element() {
        let block = SharedBlock::new(16);
        block.write(0, &[0xff; 16]);
        let old = block.update(4, 2, |v| v.wrapping_add(2));
        assert_eq!(old, 0xffff);
        assert_eq!(block.load(4, 2), 1);
        assert_eq!(block.load(0, 4), 0xffff_ffff);
        assert_eq!(block.load(6, 2), 0xffff);
        assert_eq!(block.update(8, 8, |_| 7), u64::MAX);
        assert_eq!(block.load(8, 8), 7);
    }

    #[test]
    fn growing_keeps_the_contents_and_never_shrinks() {
        let block = SharedBlock::from_bytes(&[1, 2, 3]);
        assert!(block.grow(12));
        assert_eq!(block.to_vec(), [1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert!(!block.grow(4));
        assert_eq!(block.len(), 12);
    }

    #[test]
    fn a_blocked_agent_is_woken_by_another_thread() {
        let block = SharedBlock::new(8);
        let other = block.clone();
        let me = AgentSignal::new();
        let t = std::thread::spawn(move || loop {
            // Notify until the waiter is there to be woken.
            if other.notify(0, 1.0, &AgentSignal::new()).0 == 1 {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        });
        assert_eq!(block.wait(0, 4, 0, Some(Duration::from_secs(30)), &me), WaitResult::Woken);
        assert!(t.join().is_ok());
        assert_eq!(block.wait(0, 4, 1, None, &me), WaitResult::NotEqual);
        assert_eq!(block.wait(0, 4, 0, Some(Duration::from_millis(5)), &me), WaitResult::TimedOut);
    }

    #[test]
    fn notify_takes_waiters_in_order_and_posts_other_agents_tokens() {
        let block = SharedBlock::new(8);
        let (me, other) = (AgentSignal::new(), AgentSignal::new());
        assert_eq!(block.wait_async(0, 4, 0, false, &other, 1), WaitResult::Woken);
        assert_eq!(block.wait_async(0, 4, 0, false, &me, 2), WaitResult::Woken);
        assert_eq!(block.wait_async(4, 4, 0, false, &me, 3), WaitResult::Woken);
        assert_eq!(block.wait_async(0, 4, 0, true, &me, 4), WaitResult::TimedOut);
        assert_eq!(block.notify(0, f64::INFINITY, &me), (2, vec![2]));
        assert_eq!(other.take(), vec![1]);
        assert!(block.leave_async(&me, 3));
        assert!(!block.leave_async(&me, 3));
    }

    #[test]
    fn a_carrying_scope_hands_back_the_same_block() {
        let block = SharedBlock::from_bytes(&[9; 4]);
        let config = bincode::config::standard();
        let copy: SharedBlock = carrying(|| {
            let bytes = bincode::serde::encode_to_vec(&block, config).unwrap_or_default();
            bincode::serde::decode_from_slice(&bytes, config).map(|(b, _)| b).unwrap_or_else(|_| SharedBlock::new(0))
        });
        assert!(copy.same(&block));
        let bytes = bincode::serde::encode_to_vec(&block, config).unwrap_or_default();
        let fresh: SharedBlock =
            bincode::serde::decode_from_slice(&bytes, config).map(|(b, _)| b).unwrap_or_else(|_| SharedBlock::new(0));
        assert!(!fresh.same(&block));
        assert_eq!(fresh.to_vec(), [9; 4]);
    }
}
