//! The worker pool's isolation, with the real worker binary and its self-test requests (no
//! engine involved): a hung worker is killed by the watchdog (TIMEOUT), a panic, an abort and a
//! native stack overflow are each a CRASH, and the tests after them still run.
#![allow(clippy::unwrap_used)]

use amber_test262::expectations::Outcome;
use amber_test262::plan::Mode;
use amber_test262::pool::{self, Job, JobResult, PoolOptions};
use amber_test262::protocol::{Request, SelfTest, WorkerOptions};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn job(id: &str, selftests: &[SelfTest]) -> Job {
    Job {
        id: id.to_string(),
        runs: selftests
            .iter()
            .map(|&st| Request {
                seq: 0,
                test: id.to_string(),
                mode: Mode::Sloppy,
                includes: vec![],
                negative: None,
                is_async: false,
                selftest: Some(st),
            })
            .collect(),
    }
}

fn run(jobs: &[Job], workers: usize) -> Vec<JobResult> {
    let opts = PoolOptions {
        exe: PathBuf::from(env!("CARGO_BIN_EXE_amber-test262")),
        worker: WorkerOptions {
            suite: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mini-suite"),
            max_instructions: 1_000,
            max_heap_mib: None,
            stack_size_mib: 1,
            can_block: true,
            snapshot_roundtrip: false,
            break_builtin: None,
        },
        jobs: workers,
        timeout: Duration::from_millis(1_500),
    };
    let results = Mutex::new(Vec::new());
    pool::run(jobs, &opts, &|r| results.lock().unwrap().push(r));
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.id.cmp(&b.id));
    results
}

#[test]
fn hang_panic_abort_and_overflow_are_contained() {
    use SelfTest::*;
    let jobs = vec![
        job("00-pass", &[Pass]),
        job("01-hang", &[Hang]),
        job("02-pass", &[Pass, Pass]),
        job("03-panic", &[Panic]),
        job("04-pass", &[Pass]),
        job("05-abort", &[Abort]),
        job("06-pass", &[Pass]),
        job("07-overflow", &[Overflow]),
        job("08-pass", &[Pass]),
        job("09-second-mode-crashes", &[Pass, Panic]),
        job("10-stops-at-first-failure", &[Hang, Panic]),
        job("11-pass", &[Pass]),
        job("12-noise", &[Noise]),
    ];
    let started = Instant::now();
    let results = run(&jobs, 2);
    let elapsed = started.elapsed();
    let outcomes: Vec<(&str, Outcome)> = results.iter().map(|r| (r.id.as_str(), r.outcome)).collect();
    assert_eq!(
        outcomes,
        [
            ("00-pass", Outcome::Pass),
            ("01-hang", Outcome::Timeout),
            ("02-pass", Outcome::Pass),
            ("03-panic", Outcome::Crash),
            ("04-pass", Outcome::Pass),
            ("05-abort", Outcome::Crash),
            ("06-pass", Outcome::Pass),
            ("07-overflow", Outcome::Crash),
            ("08-pass", Outcome::Pass),
            ("09-second-mode-crashes", Outcome::Crash),
            ("10-stops-at-first-failure", Outcome::Timeout),
            ("11-pass", Outcome::Pass),
            ("12-noise", Outcome::Pass),
        ]
    );
    let msg = |id: &str| results.iter().find(|r| r.id == id).unwrap().message.clone();
    assert!(msg("01-hang").contains("watchdog"), "{}", msg("01-hang"));
    assert!(msg("03-panic").contains("selftest panic"), "{}", msg("03-panic"));
    assert!(msg("05-abort").contains("SIGABRT"), "{}", msg("05-abort"));
    assert!(msg("07-overflow").contains("overflow"), "{}", msg("07-overflow"));
    let noise = results.iter().find(|r| r.id == "12-noise").unwrap();
    assert!(noise.output.contains("stray output"), "{noise:?}");
    // Two hangs at 1.5 s each; nothing waits longer than the watchdog.
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
}

#[test]
fn a_missing_worker_binary_is_a_crash_not_a_hang() {
    let opts = PoolOptions {
        exe: PathBuf::from("/nonexistent/amber-test262"),
        worker: WorkerOptions {
            suite: PathBuf::from("."),
            max_instructions: 1,
            max_heap_mib: None,
            stack_size_mib: 1,
            can_block: true,
            snapshot_roundtrip: false,
            break_builtin: None,
        },
        jobs: 1,
        timeout: Duration::from_secs(5),
    };
    let results = Mutex::new(Vec::new());
    pool::run(&[job("a", &[SelfTest::Pass])], &opts, &|r| results.lock().unwrap().push(r));
    let results = results.into_inner().unwrap();
    assert_eq!(results[0].outcome, Outcome::Crash);
    assert!(results[0].message.contains("cannot start a worker"));
}
