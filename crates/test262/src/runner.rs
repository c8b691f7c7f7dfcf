//! A run from the command line: load the configuration, unpack and index the suite, select and
//! plan the tests, run them on the worker pool with a progress bar, then report, compare and
//! update the committed results.

use crate::cli::Cli;
use crate::config::{self, Config};
use crate::expectations::{self, Expectations, Outcome};
use crate::index::SuiteIndex;
use crate::plan::{self, Mode};
use crate::pool::{self, Job, JobResult, PoolOptions};
use crate::protocol::{Request, WorkerOptions};
use crate::report::{self, ReportInput};
use crate::slice;
use crate::suite;
use crate::summary::{self, Summary};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Exit status of a run with a regression under `--compare`.
pub const EXIT_REGRESSION: i32 = 1;
/// Exit status of a usage, configuration or I/O error.
pub const EXIT_ERROR: i32 = 2;

pub fn main(cli: &Cli) -> i32 {
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("amber-test262: {e}");
            EXIT_ERROR
        }
    }
}

fn run(cli: &Cli) -> Result<i32, String> {
    let config_path = cli.config.clone().unwrap_or_else(|| PathBuf::from(config::DEFAULT_PATH));
    let config = Config::load(&config_path)?;
    if let Some(note) = suite::ensure_unpacked(&config.suite.dir, &config.suite.tarball, &config.suite.sha256)? {
        eprintln!("amber-test262: {note}");
    }
    let jobs = cli.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let index = SuiteIndex::load(&config.suite.dir, jobs)?;
    let out = &config.output.conformance_dir;
    if cli.report {
        let committed = expectations::load(&out.join("expectations.json"))?;
        let summary = write_summary_and_readme(&config, &index, &committed)?;
        print_figures(&summary);
        return Ok(0);
    }

    let selected = select(&index, cli, &config)?;
    let started = Instant::now();
    let results = run_selected(&index, &selected, &config, cli, jobs)?;
    let elapsed = started.elapsed();

    if cli.verbose {
        print_details(&results, selected.len() == 1);
    }
    let actual: Expectations = results.iter().map(|r| (r.id.clone(), r.outcome)).collect();
    write_last_run(&config.output.last_run, &results, cli)?;
    let counts = count(&actual);
    println!(
        "ran {} tests in {}: {} PASS, {} FAIL, {} TIMEOUT, {} CRASH, {} SKIP{}",
        actual.len(),
        format_duration(elapsed),
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        counts[4],
        if cli.snapshot_roundtrip { " (snapshot round-trip)" } else { "" }
    );

    let committed = expectations::load(&out.join("expectations.json"))?;
    let mut code = 0;
    if cli.compare {
        if committed.is_empty() {
            return Err(format!("--compare: no committed expectations in {}", out.join("expectations.json").display()));
        }
        let diff = expectations::diff(&committed, &actual);
        print!("{}", expectations::render_diff(&diff));
        println!(
            "compare: {} newly failing, {} newly passing, {} changed",
            diff.newly_failing.len(),
            diff.newly_passing.len(),
            diff.changed.len()
        );
        // The gate's closing line: a test passes the gate unless it regressed.
        let regressed = diff.newly_failing.len();
        println!("compare: {} passed, {regressed} failed", actual.len() - regressed);
        if diff.is_regression() {
            println!("compare: REGRESSION (tests that passed before fail now)");
            code = EXIT_REGRESSION;
        } else if !diff.newly_passing.is_empty() && !cli.update {
            println!("compare: no regression; run with --update to record the newly passing tests");
        }
    }
    let ids: BTreeSet<&str> = index.entries.iter().map(|e| e.id.as_str()).collect();
    let merged = expectations::merge(&committed, &actual, &|id| ids.contains(id));
    if cli.update {
        std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
        write(&out.join("expectations.json"), &expectations::to_json(&merged))?;
        let summary = write_summary_and_readme(&config, &index, &merged)?;
        print_figures(&summary);
        println!("updated {}", out.display());
    } else if selected.len() == index.entries.len() {
        print_figures(&summary::summarize(&config.suite.commit, &index.infos(), &actual));
    }
    Ok(code)
}

/// The tests to run, in id order: path filters, then the slice.
fn select(index: &SuiteIndex, cli: &Cli, config: &Config) -> Result<Vec<usize>, String> {
    let filters: Vec<String> = cli.filters.iter().map(|f| suite::normalize_filter(&index.dir, f)).collect();
    for (raw, f) in cli.filters.iter().zip(&filters) {
        if !index.entries.iter().any(|e| plan::path_matches(&e.id, f)) {
            return Err(format!("no test matches `{raw}`"));
        }
    }
    let in_slice: Option<BTreeSet<String>> = match cli.slice.as_deref() {
        Some("ci") => Some(slice::ci_slice(&index.ids(), config.slice.ci_stride).into_iter().collect()),
        Some(other) => return Err(format!("unknown slice {other}")),
        None => None,
    };
    Ok(index
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| filters.is_empty() || filters.iter().any(|f| plan::path_matches(&e.id, f)))
        .filter(|(_, e)| in_slice.as_ref().is_none_or(|s| s.contains(&e.id)))
        .map(|(i, _)| i)
        .collect())
}

/// Plans and runs the selected tests; tests that are skipped or whose metadata is broken get
/// their result without running.
fn run_selected(
    index: &SuiteIndex,
    selected: &[usize],
    config: &Config,
    cli: &Cli,
    jobs: usize,
) -> Result<Vec<JobResult>, String> {
    let mut results = Vec::with_capacity(selected.len());
    let mut work = Vec::new();
    for &i in selected {
        let entry = &index.entries[i];
        let meta = match &entry.meta {
            Ok(m) => m,
            Err(e) => {
                results.push(settled(&entry.id, Outcome::Fail, e.clone()));
                continue;
            }
        };
        if let Some(reason) = plan::skip_reason(&entry.id, meta, &config.skip, config.run.can_block) {
            results.push(settled(&entry.id, Outcome::Skip, reason));
            continue;
        }
        let includes = plan::includes(meta);
        let runs = plan::modes(meta)
            .into_iter()
            .map(|mode| Request {
                seq: 0,
                test: entry.id.clone(),
                mode,
                includes: includes.clone(),
                negative: meta.negative.clone(),
                is_async: meta.flags.is_async,
                selftest: None,
            })
            .collect();
        work.push(Job { id: entry.id.clone(), runs });
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find my own executable: {e}"))?;
    let opts = PoolOptions {
        exe,
        worker: WorkerOptions {
            suite: config.suite.dir.clone(),
            max_instructions: cli.max_instructions.unwrap_or(config.run.max_instructions),
            max_heap_mib: config.run.max_heap_mib,
            stack_size_mib: config.run.stack_size_mib,
            can_block: config.run.can_block,
            snapshot_roundtrip: cli.snapshot_roundtrip,
            break_builtin: cli.break_builtin.clone(),
        },
        jobs,
        timeout: Duration::from_millis(cli.timeout_ms.unwrap_or(config.run.timeout_ms)),
    };
    let bar = progress_bar(work.len() as u64);
    let tally = Mutex::new(([0u64; 5], Vec::with_capacity(work.len())));
    pool::run(&work, &opts, &|r: JobResult| {
        let Ok(mut t) = tally.lock() else { return };
        t.0[slot(r.outcome)] += 1;
        let c = t.0;
        t.1.push(r);
        drop(t);
        bar.set_message(format!("pass {} fail {} timeout {} crash {}", c[0], c[1], c[2], c[3]));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let (_, ran) = tally.into_inner().map_err(|_| "a driver thread panicked".to_string())?;
    results.extend(ran);
    results.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(results)
}

fn settled(id: &str, outcome: Outcome, message: String) -> JobResult {
    JobResult { id: id.to_string(), outcome, mode: None, message, output: String::new(), millis: 0 }
}

fn progress_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {pos}/{len} ETA {eta} | {msg}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn slot(o: Outcome) -> usize {
    Outcome::ALL.iter().position(|x| *x == o).unwrap_or(1)
}

fn count(results: &Expectations) -> [u64; 5] {
    let mut c = [0u64; 5];
    for o in results.values() {
        c[slot(*o)] += 1;
    }
    c
}

fn print_details(results: &[JobResult], show_passing: bool) {
    for r in results {
        if r.outcome == Outcome::Pass && !show_passing {
            continue;
        }
        let mode = r.mode.map_or(String::new(), |m: Mode| format!(" ({})", m.name()));
        println!("{} {}{mode}", r.outcome, r.id);
        if !r.message.is_empty() {
            println!("    {}", r.message.replace('\n', "\n    "));
        }
        if !r.output.is_empty() {
            println!("    output:\n      {}", r.output.replace('\n', "\n      "));
        }
    }
}

#[derive(Serialize)]
struct LastRunEntry<'a> {
    outcome: Outcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Option<Mode>,
    #[serde(skip_serializing_if = "str::is_empty")]
    message: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    output: &'a str,
    millis: u64,
}

#[derive(Serialize)]
struct LastRun<'a> {
    snapshot_roundtrip: bool,
    filters: &'a [String],
    slice: Option<&'a str>,
    results: BTreeMap<&'a str, LastRunEntry<'a>>,
}

/// Every result of the run with its message (not committed; for triage).
fn write_last_run(path: &Path, results: &[JobResult], cli: &Cli) -> Result<(), String> {
    let doc = LastRun {
        snapshot_roundtrip: cli.snapshot_roundtrip,
        filters: &cli.filters,
        slice: cli.slice.as_deref(),
        results: results
            .iter()
            .map(|r| {
                (
                    r.id.as_str(),
                    LastRunEntry {
                        outcome: r.outcome,
                        mode: r.mode,
                        message: truncate(&r.message, 2000),
                        output: truncate(&r.output, 2000),
                        millis: r.millis,
                    },
                )
            })
            .collect(),
    };
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    write(path, &text)
}

fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Writes `summary.json` and `README.md` for `results` over the whole suite.
fn write_summary_and_readme(config: &Config, index: &SuiteIndex, results: &Expectations) -> Result<Summary, String> {
    let out = &config.output.conformance_dir;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let infos = index.infos();
    let summary = summary::summarize(&config.suite.commit, &infos, results);
    write(&out.join("summary.json"), &summary::to_json(&summary))?;
    let readme = report::render(&ReportInput {
        summary: &summary,
        tests: &infos,
        results,
        proposed: &index.proposed,
        skip: &config.skip,
        ci_stride: config.slice.ci_stride,
    });
    write(&out.join("README.md"), &readme)?;
    Ok(summary)
}

fn print_figures(s: &Summary) {
    for (name, f) in [("full", &s.full), ("main", &s.main), ("core", &s.core)] {
        println!(
            "{name}: {}/{} ({:.2}%), {} crash, {} timeout, {} skip",
            f.passed, f.total, f.percent, f.crash, f.timeout, f.skip
        );
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}
