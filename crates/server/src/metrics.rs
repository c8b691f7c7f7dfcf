//! `/metrics` in the Prometheus text format: sessions by status and operations by state (from
//! the store), queue depth, and latency histograms of slices and of the resume path (from an
//! operation's result arriving to the slice that delivers it starting).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use amber_store::Counts;

/// Histogram bucket bounds, seconds.
const BUCKETS: [f64; 12] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

#[derive(Default)]
pub struct Histogram {
    counts: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    /// Sum in microseconds.
    sum_us: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, seconds: f64) {
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            if seconds <= *bound {
                count.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_us.fetch_add((seconds * 1e6) as u64, Ordering::Relaxed);
    }

    fn write(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {}", count.load(Ordering::Relaxed));
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(out, "{name}_sum {}", self.sum_us.load(Ordering::Relaxed) as f64 / 1e6);
        let _ = writeln!(out, "{name}_count {count}");
    }
}

#[derive(Default)]
pub struct Metrics {
    pub slices: Histogram,
    pub resumes: Histogram,
    pub slices_total: AtomicU64,
    pub claims_total: AtomicU64,
    /// When each session's first undelivered result arrived (for the resume histogram).
    arrived: Mutex<BTreeMap<String, Instant>>,
}

impl Metrics {
    /// A result for `session` arrived now (the first one since its last slice counts).
    pub fn result_arrived(&self, session: &str) {
        if let Ok(mut arrived) = self.arrived.lock() {
            arrived.entry(session.to_string()).or_insert_with(Instant::now);
        }
    }

    /// A slice of `session` starts: observes how long its result waited.
    pub fn slice_started(&self, session: &str) {
        let started = self.arrived.lock().ok().and_then(|mut a| a.remove(session));
        if let Some(at) = started {
            self.resumes.observe(at.elapsed().as_secs_f64());
        }
    }

    pub fn render(&self, counts: &Counts, queue_depth: usize) -> String {
        let mut out = String::new();
        out.push_str("# HELP amber_sessions Sessions by status.\n# TYPE amber_sessions gauge\n");
        for status in amber_store::ServerStatus::ALL {
            let n = counts.sessions.get(&status).copied().unwrap_or(0);
            let _ = writeln!(out, "amber_sessions{{status=\"{}\"}} {n}", status.name());
        }
        out.push_str("# HELP amber_operations Operations by state.\n# TYPE amber_operations gauge\n");
        for state in amber_store::OpState::ALL {
            let n = counts.ops.get(&state).copied().unwrap_or(0);
            let _ = writeln!(out, "amber_operations{{state=\"{}\"}} {n}", state.name());
        }
        let _ = writeln!(
            out,
            "# HELP amber_run_queue_depth Runnable sessions waiting for a worker.\n# TYPE amber_run_queue_depth gauge\namber_run_queue_depth {queue_depth}"
        );
        let _ = writeln!(
            out,
            "# HELP amber_slices_total Slices run.\n# TYPE amber_slices_total counter\namber_slices_total {}",
            self.slices_total.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP amber_claims_total Operations handed to tool workers.\n# TYPE amber_claims_total counter\namber_claims_total {}",
            self.claims_total.load(Ordering::Relaxed)
        );
        self.slices.write(&mut out, "amber_slice_seconds", "Time to run one slice of a session, commit included.");
        self.resumes.write(
            &mut out,
            "amber_resume_seconds",
            "From an operation's result arriving to the slice that delivers it starting.",
        );
        out
    }
}
