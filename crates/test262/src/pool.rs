//! A pool of worker processes, one driver thread each. A driver takes the next test, sends one
//! request per mode, and waits for each answer under a wall-clock watchdog: past the timeout it
//! kills the worker (TIMEOUT); if the worker dies (abort, stack overflow) or reports a caught
//! panic, the test is a CRASH. Either way the driver starts a fresh worker and goes on.

use crate::expectations::Outcome;
use crate::plan::Mode;
use crate::protocol::{Request, Response, WorkerOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How to start workers and how long to wait for them.
#[derive(Clone, Debug)]
pub struct PoolOptions {
    /// The `amber-test262` executable (workers are the same binary with `--worker`).
    pub exe: PathBuf,
    pub worker: WorkerOptions,
    pub jobs: usize,
    /// Wall-clock limit for one execution.
    pub timeout: Duration,
}

/// A test to run: one request per mode (their `seq` fields are filled in by the pool).
#[derive(Clone, Debug)]
pub struct Job {
    pub id: String,
    pub runs: Vec<Request>,
}

/// A test's result: the first execution that did not pass, or the last one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobResult {
    pub id: String,
    pub outcome: Outcome,
    pub mode: Option<Mode>,
    pub message: String,
    pub output: String,
    /// Wall-clock time of all its executions.
    pub millis: u64,
}

/// Runs every job on `opts.jobs` workers, calling `on_result` (from the driver threads) as each
/// test finishes.
pub fn run(jobs: &[Job], opts: &PoolOptions, on_result: &(dyn Fn(JobResult) + Sync)) {
    let next = AtomicUsize::new(0);
    let seq = AtomicU64::new(1);
    let threads = opts.jobs.clamp(1, jobs.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut driver = Driver { opts, worker: None, seq: &seq };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    on_result(driver.run_job(job));
                }
                if let Some(w) = driver.worker.take() {
                    w.shutdown();
                }
            });
        }
    });
}

struct Driver<'a> {
    opts: &'a PoolOptions,
    worker: Option<Worker>,
    seq: &'a AtomicU64,
}

impl Driver<'_> {
    /// Waits for the answer to `seq` under the watchdog. Lines on the worker's stdout that are
    /// not a response (stray output that slipped past the engine's print hook) are kept as
    /// output, not mistaken for the protocol.
    fn await_response(&mut self, mut worker: Worker, seq: u64) -> (Outcome, String, String) {
        let deadline = Instant::now() + self.opts.timeout;
        let mut stray = String::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match worker.lines.recv_timeout(left) {
                Ok(text) => {
                    let resp = match serde_json::from_str::<Response>(&text) {
                        Ok(resp) if resp.seq == seq => resp,
                        Ok(resp) => {
                            worker.kill();
                            let why = format!("protocol error: answer for seq {} while waiting for {seq}", resp.seq);
                            return (Outcome::Crash, why, stray);
                        }
                        Err(_) => {
                            if stray.len() < 64 * 1024 {
                                stray.push_str(&text);
                                stray.push('\n');
                            }
                            continue;
                        }
                    };
                    if resp.outcome == Outcome::Crash {
                        // The worker exits after reporting a panic.
                        worker.kill();
                    } else {
                        self.worker = Some(worker);
                    }
                    let output = if stray.is_empty() { resp.output } else { format!("{stray}{}", resp.output) };
                    return (resp.outcome, resp.message, output);
                }
                Err(RecvTimeoutError::Timeout) => {
                    worker.kill();
                    let why = format!("killed by the watchdog after {} ms", self.opts.timeout.as_millis());
                    return (Outcome::Timeout, why, stray);
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = worker.kill();
                    let tail = worker.stderr_tail();
                    let why = if tail.is_empty() {
                        format!("worker died ({status})")
                    } else {
                        format!("worker died ({status}): {tail}")
                    };
                    return (Outcome::Crash, why, stray);
                }
            }
        }
    }

    fn run_job(&mut self, job: &Job) -> JobResult {
        let started = Instant::now();
        let mut last = JobResult {
            id: job.id.clone(),
            outcome: Outcome::Pass,
            mode: None,
            message: String::new(),
            output: String::new(),
            millis: 0,
        };
        for run in &job.runs {
            let mut req = run.clone();
            req.seq = self.seq.fetch_add(1, Ordering::Relaxed);
            let (outcome, message, output) = self.execute(&req);
            last = JobResult { id: job.id.clone(), outcome, mode: Some(req.mode), message, output, millis: 0 };
            if outcome != Outcome::Pass {
                break;
            }
        }
        last.millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        last
    }

    /// One execution, with the watchdog; restarts the worker when it has to.
    fn execute(&mut self, req: &Request) -> (Outcome, String, String) {
        let line = match serde_json::to_string(req) {
            Ok(l) => l,
            Err(e) => return (Outcome::Crash, format!("cannot encode request: {e}"), String::new()),
        };
        // A worker can only be found dead when writing to it; a fresh one gets one more try.
        let mut ready = None;
        for _ in 0..2 {
            let mut worker = match self.worker.take() {
                Some(w) => w,
                None => match Worker::spawn(self.opts) {
                    Ok(w) => w,
                    Err(e) => {
                        let why = format!("cannot start a worker ({}): {e}", self.opts.exe.display());
                        return (Outcome::Crash, why, String::new());
                    }
                },
            };
            if worker.send(&line).is_ok() {
                ready = Some(worker);
                break;
            }
            worker.kill();
        }
        let Some(worker) = ready else {
            let why = "the worker died before the test started".to_string();
            return (Outcome::Crash, why, String::new());
        };
        self.await_response(worker, req.seq)
    }
}

/// Bytes of a worker's stderr kept for crash reports.
const STDERR_TAIL: usize = 4096;

struct Worker {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl Worker {
    fn spawn(opts: &PoolOptions) -> std::io::Result<Worker> {
        let mut child = Command::new(&opts.exe)
            .arg("--worker")
            .args(opts.worker.to_args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr_pipe = child.stderr.take();
        let (tx, rx) = mpsc::channel();
        if let Some(stdout) = stdout {
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        let stderr = Arc::new(Mutex::new(Vec::new()));
        if let Some(mut pipe) = stderr_pipe {
            let tail = stderr.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut t) = tail.lock() {
                        t.extend_from_slice(&buf[..n]);
                        let excess = t.len().saturating_sub(STDERR_TAIL);
                        t.drain(..excess);
                    }
                }
            });
        }
        Ok(Worker { child, stdin, lines: rx, stderr })
    }

    fn send(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self.stdin.as_mut().ok_or_else(|| std::io::Error::other("stdin closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// Kills the worker (if still running) and reaps it; returns how it ended.
    fn kill(&mut self) -> String {
        self.stdin = None;
        let _ = self.child.kill();
        match self.child.wait() {
            Ok(status) => describe_status(status),
            Err(e) => format!("unknown status: {e}"),
        }
    }

    fn stderr_tail(&self) -> String {
        // The stderr thread may still be draining the pipe of a process that just died.
        std::thread::sleep(Duration::from_millis(20));
        let bytes = self.stderr.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).trim().replace('\n', " | ")
    }

    /// Closes stdin so the worker exits on its own, then reaps it.
    fn shutdown(mut self) {
        self.stdin = None;
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            let name = match sig {
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                _ => "",
            };
            return format!("signal {sig}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => "unknown exit".to_string(),
    }
}
