//! The worker process (`amber-test262 --worker …`): reads [`Request`] lines on stdin, runs
//! each on a fresh thread with a configured native stack, and writes one [`Response`] line per
//! request on stdout. Harness files are read once per worker and reused for every test.
//!
//! A panic on the test thread is caught, reported as CRASH, and ends the worker (the runner
//! starts a fresh one, so no state survives a panic). An abort or a native stack overflow
//! kills the process; the runner sees it die and records CRASH.

use crate::exec::{self, ExecOptions, Script, TestSource};
use crate::expectations::Outcome;
use crate::plan::{self, Mode};
use crate::protocol::{Request, Response, SelfTest, WorkerOptions};
use crate::suite;
use crate::verdict;
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Harness sources by name, read on first use.
pub struct HarnessCache {
    dir: PathBuf,
    files: BTreeMap<String, Arc<str>>,
}

impl HarnessCache {
    pub fn new(dir: PathBuf) -> HarnessCache {
        HarnessCache { dir, files: BTreeMap::new() }
    }

    /// The source of `harness/<name>`.
    pub fn get(&mut self, name: &str) -> Result<Arc<str>, String> {
        if let Some(src) = self.files.get(name) {
            return Ok(src.clone());
        }
        if !plan::valid_include(name) {
            return Err(format!("invalid include name `{name}`"));
        }
        let path = self.dir.join(name);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("cannot read harness file {}: {e}", path.display()))?;
        let src: Arc<str> = Arc::from(text);
        self.files.insert(name.to_string(), src.clone());
        Ok(src)
    }
}

/// The last panic's message and location, recorded by the panic hook.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(non-string panic payload)".to_string());
        let location =
            info.location().map(|l| format!(" at {}:{}:{}", l.file(), l.line(), l.column())).unwrap_or_default();
        let text = format!("panic: {msg}{location}");
        eprintln!("{text}");
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = Some(text);
        }
    }));
}

/// The worker's main loop. Returns the process exit code.
pub fn main(args: &[String]) -> i32 {
    let opts = match WorkerOptions::from_args(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("amber-test262 --worker: {e}");
            return 2;
        }
    };
    install_panic_hook();
    let exec_opts = ExecOptions {
        max_instructions: opts.max_instructions,
        max_heap_bytes: opts.max_heap_mib.map(|m| m.saturating_mul(1024 * 1024)),
        snapshot_roundtrip: opts.snapshot_roundtrip,
        can_block: opts.can_block,
        suite_dir: opts.suite.clone(),
        break_builtin: opts.break_builtin.clone(),
    };
    let mut cache = HarnessCache::new(opts.suite.join("harness"));
    let stdin = io::stdin();
    // stdout is locked per response only: the test thread may print (stray engine output),
    // and holding the lock across a test would deadlock it.
    let stdout = io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return 2 };
        if line.trim().is_empty() {
            continue;
        }
        let req: Request = match serde_json::from_str(&line) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("amber-test262 --worker: bad request: {e}");
                return 2;
            }
        };
        let (response, fatal) = handle(&opts, &exec_opts, &mut cache, &req);
        let Ok(text) = serde_json::to_string(&response) else {
            return 2;
        };
        let mut out = stdout.lock();
        if writeln!(out, "{text}").and_then(|()| out.flush()).is_err() {
            return 2;
        }
        if fatal {
            return 101;
        }
    }
    0
}

/// Runs one request on its own thread. The flag says the worker must exit (after a panic).
fn handle(opts: &WorkerOptions, exec_opts: &ExecOptions, cache: &mut HarnessCache, req: &Request) -> (Response, bool) {
    let stack = opts.stack_size_mib.max(1).saturating_mul(1024 * 1024);
    let joined = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("test".into())
            .stack_size(stack)
            .spawn_scoped(scope, || run_request(&opts.suite, exec_opts, cache, req))
            .map(|handle| handle.join())
    });
    match joined {
        Ok(Ok(response)) => (response, false),
        Ok(Err(_)) => {
            let message = LAST_PANIC.lock().ok().and_then(|mut p| p.take()).unwrap_or_else(|| "panic".to_string());
            (crash(req.seq, message), true)
        }
        Err(e) => (crash(req.seq, format!("cannot start the test thread: {e}")), true),
    }
}

fn crash(seq: u64, message: String) -> Response {
    Response { seq, outcome: Outcome::Crash, message, output: String::new() }
}

fn run_request(suite_dir: &Path, exec_opts: &ExecOptions, cache: &mut HarnessCache, req: &Request) -> Response {
    if let Some(st) = req.selftest {
        return selftest(req.seq, st);
    }
    let fail = |message: String| Response { seq: req.seq, outcome: Outcome::Fail, message, output: String::new() };
    let path = suite::test_path(suite_dir, &req.test);
    let source = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => return fail(format!("cannot read {}: {e}", path.display())),
    };
    let mut harness = Vec::with_capacity(req.includes.len());
    for name in &req.includes {
        match cache.get(name) {
            Ok(src) => harness.push((format!("harness/{name}"), src)),
            Err(e) => return fail(e),
        }
    }
    let prelude: Vec<Script<'_>> = harness.iter().map(|(filename, src)| Script { filename, source: src }).collect();
    let text = match req.mode {
        Mode::Strict => format!("{}{source}", plan::STRICT_PREFIX),
        Mode::Sloppy | Mode::Module | Mode::Raw => source,
    };
    let filename = format!("test/{}", req.test);
    let dir = path.parent().unwrap_or(suite_dir);
    let test = TestSource { filename: &filename, source: &text, module: req.mode == Mode::Module, dir };
    let execution = exec::execute(exec_opts, &prelude, &test);
    let (outcome, message) = verdict::judge(&execution, req.negative.as_ref(), req.is_async);
    Response { seq: req.seq, outcome, message, output: execution.printed.join("\n") }
}

fn selftest(seq: u64, st: SelfTest) -> Response {
    match st {
        SelfTest::Hang => loop {
            std::thread::park();
        },
        SelfTest::Panic => panic!("selftest panic"),
        SelfTest::Abort => std::process::abort(),
        SelfTest::Overflow => {
            let depth = overflow(0, [0u8; 256]);
            Response {
                seq,
                outcome: Outcome::Fail,
                message: format!("stack did not overflow at depth {depth}"),
                output: String::new(),
            }
        }
        SelfTest::Noise => {
            println!("stray output on the protocol channel");
            selftest(seq, SelfTest::Pass)
        }
        SelfTest::Pass => Response { seq, outcome: Outcome::Pass, message: String::new(), output: String::new() },
    }
}

/// Recurses until the native stack runs out.
fn overflow(depth: u64, pad: [u8; 256]) -> u64 {
    let pad = std::hint::black_box(pad);
    if depth == u64::MAX {
        return depth;
    }
    overflow(depth + 1, pad).wrapping_add(u64::from(pad[(depth % 256) as usize]))
}
