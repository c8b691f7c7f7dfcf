//! Amber's patch: a per-thread backtracking budget, so that a catastrophic pattern
//! (`/(a+)+b/` on a long run of `a`s) ends when its embedder's instruction budget does instead of
//! running for an exponential time. The classical backtracking executor spends one unit per
//! backtrack; when the budget is empty it stops as if its backtrack stack were exhausted, and
//! [`exhausted`] tells the caller the "no match" it got was not an answer.
//!
//! ```
//! regress::budget::set(1_000);
//! let re = regress::Regex::new("(a+)+b").unwrap();
//! assert!(re.find("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa").is_none());
//! assert!(regress::budget::exhausted());
//! regress::budget::set(u64::MAX);
//! ```

use std::cell::Cell;

std::thread_local! {
    static LEFT: Cell<u64> = const { Cell::new(u64::MAX) };
    static EXHAUSTED: Cell<bool> = const { Cell::new(false) };
}

/// Grants this thread `units` backtracks (`u64::MAX`: unlimited, the default) and clears
/// [`exhausted`].
pub fn set(units: u64) {
    LEFT.with(|l| l.set(units));
    EXHAUSTED.with(|e| e.set(false));
}

/// Backtracks left on this thread.
pub fn left() -> u64 {
    LEFT.with(Cell::get)
}

/// Whether a search on this thread ran out of budget since the last [`set`].
pub fn exhausted() -> bool {
    EXHAUSTED.with(Cell::get)
}

/// Spends one unit; false (and [`exhausted`] set) when none is left.
#[inline]
pub(crate) fn spend() -> bool {
    LEFT.with(|l| match l.get() {
        0 => {
            EXHAUSTED.with(|e| e.set(true));
            false
        }
        n => {
            l.set(n - 1);
            true
        }
    })
}
