//! Fault injection for crash tests. With `AMBER_FAULT_KILL_AT=N` in the environment, the
//! process sends itself SIGKILL at the N-th durability point it passes (1-based): just before
//! and just after each write to the session store, and after each `--host` command has run
//! but before its result is committed. SIGKILL, not an error path: nothing is flushed, no
//! destructor runs, exactly as when the machine or the OOM killer stops the process. The crash
//! tests (crates/cli/tests/crash.rs) loop N over every point of a run and check that the
//! session resumes with nothing committed lost. Without the variable this costs one load of
//! an initialised `OnceLock` per point.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

const VARIABLE: &str = "AMBER_FAULT_KILL_AT";

/// A durability point: the process dies here if this is the point `AMBER_FAULT_KILL_AT` names.
pub fn point() {
    static TARGET: OnceLock<Option<u64>> = OnceLock::new();
    static PASSED: AtomicU64 = AtomicU64::new(0);
    let Some(target) = *TARGET.get_or_init(|| std::env::var(VARIABLE).ok().and_then(|v| v.parse().ok())) else {
        return;
    };
    if PASSED.fetch_add(1, Ordering::SeqCst) + 1 == target {
        let pid = std::process::id().to_string();
        let _ = std::process::Command::new("kill").args(["-KILL", &pid]).status();
        // `kill` unavailable: abort is the nearest thing (no flush, no destructors either).
        std::process::abort();
    }
}
