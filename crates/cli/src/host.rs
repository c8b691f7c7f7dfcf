//! `--host NAME=CMD`: serve host operation NAME by running `sh -c CMD` with the operation's
//! args as JSON on stdin; its stdout (JSON) is the result, a non-zero exit a rejection with
//! its stderr as the message. The command sees `AMBER_SESSION`, `AMBER_OP_ID`, `AMBER_OP_SEQ`,
//! `AMBER_OP_NAME` and `AMBER_IDEMPOTENCY_KEY` (`session:run:seq`): an operation interrupted by
//! a crash runs again on resume (at least once), and the key lets the command notice.
//!
//! Each command runs in a process group of its own. With `--host-timeout MS` (or the program
//! manifest's `timeout_ms` for the function), a command still running after MS milliseconds
//! has its whole group killed (SIGKILL) and the attempt fails with code `timeout`, so a hung
//! tool cannot keep a session `running` forever. Under the manifest's `retry`, a failed
//! attempt is journaled and the command runs again after the backoff, with the same
//! idempotency key, until it succeeds, fails with a code outside `retry_on`, or runs out of
//! attempts (docs/manifest.md). A failing command may print one JSON line on stderr,
//! `{"code": "E_RATE", "message": "…"}`: the code classifies the failure and reaches the
//! program as `err.code`. The
//! operations a suspension hands the CLI run concurrently ([`execute_all`]); their results
//! are delivered, and so journaled, in operation order whatever order they finish in.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use amber::durable::canonical_json::{parse, to_canonical_string};
use amber::grants::{RetryPolicy, SharedGrants};
use amber::{Attempt, CallResult, OpKind, PendingOp};
use clap::Args;

use crate::error::{CliResult, Failure};

/// The `--host` flags `run` and `resume` share.
#[derive(Args)]
pub struct HostArgs {
    /// Serve host operation NAME with `sh -c CMD` (args JSON on stdin, JSON result on stdout).
    #[arg(long = "host", value_name = "NAME=CMD")]
    pub hosts: Vec<String>,
    /// Kill a host command (its whole process group) that runs longer than MS milliseconds;
    /// the call rejects with an Error saying it timed out. Default: no limit.
    #[arg(long = "host-timeout", value_name = "MS")]
    pub timeout_ms: Option<u64>,
}

/// The `--host` commands, by operation name, and the program manifest's per-function
/// timeouts and retry policies.
#[derive(Default)]
pub struct HostCommands {
    commands: Vec<(String, String)>,
    timeout: Option<Duration>,
    grants: Option<SharedGrants>,
}

/// What serving one operation came to: its outcome and duration (ms, attempts and waits
/// included), and each failed attempt before the last (to journal).
pub struct Served {
    pub result: CallResult,
    pub duration_ms: u64,
    pub attempts: Vec<Attempt>,
}

impl HostCommands {
    /// Parses `NAME=CMD` specifications and the timeout.
    pub fn parse(args: &HostArgs) -> CliResult<HostCommands> {
        let mut commands = Vec::new();
        for spec in &args.hosts {
            match spec.split_once('=') {
                Some((name, cmd)) if !name.is_empty() && !cmd.trim().is_empty() => {
                    commands.push((name.to_string(), cmd.to_string()));
                }
                _ => return Err(Failure::usage(format!("--host expects NAME=COMMAND, got {spec:?}"))),
            }
        }
        let timeout = match args.timeout_ms {
            Some(0) => return Err(Failure::usage("--host-timeout must be at least 1 ms")),
            ms => ms.map(Duration::from_millis),
        };
        Ok(HostCommands { commands, timeout, grants: None })
    }

    /// Serve under the manifest's `timeout_ms` and `retry` of each function.
    pub fn with_grants(mut self, grants: Option<SharedGrants>) -> HostCommands {
        self.grants = grants;
        self
    }

    /// True if no command is configured.
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// True if a command serves calls named `name`.
    pub fn serves(&self, name: &str) -> bool {
        self.commands.iter().any(|(n, _)| n == name)
    }

    /// The command serving `op`, if any (only `amber.call` operations are served).
    pub fn command_for(&self, op: &PendingOp) -> Option<&str> {
        if op.kind != OpKind::Call {
            return None;
        }
        self.commands.iter().find(|(name, _)| *name == op.name).map(|(_, cmd)| cmd.as_str())
    }

    /// The limit on one attempt of `name`: the manifest's `timeout_ms`, else `--host-timeout`.
    fn timeout_for(&self, name: &str) -> Option<Duration> {
        let granted = self.grants.as_ref().and_then(|g| g.grant(name)).and_then(|g| g.timeout_ms);
        granted.map(Duration::from_millis).or(self.timeout)
    }

    fn retry_for(&self, name: &str) -> Option<RetryPolicy> {
        self.grants.as_ref().and_then(|g| g.grant(name)).and_then(|g| g.retry.clone())
    }
}

/// Runs each `(op, cmd)` at once, each on its own thread (retrying as its policy says);
/// returns every outcome in the order given (operation order), whatever order they finished in.
pub fn execute_all(served: &[(PendingOp, String)], hosts: &HostCommands, session: &str, run_id: &str) -> Vec<Served> {
    std::thread::scope(|scope| {
        let running: Vec<_> =
            served.iter().map(|(op, cmd)| scope.spawn(move || execute(cmd, op, hosts, session, run_id))).collect();
        running
            .into_iter()
            .zip(served)
            .map(|(thread, (op, _))| {
                thread.join().unwrap_or_else(|_| Served {
                    result: CallResult::Err(format!("host command for {:?} failed: its thread panicked", op.name)),
                    duration_ms: 0,
                    attempts: Vec::new(),
                })
            })
            .collect()
    })
}

/// Runs `cmd` for `op` until it succeeds, fails in a way its retry policy does not retry, or
/// runs out of attempts. Every attempt carries the same idempotency key.
fn execute(cmd: &str, op: &PendingOp, hosts: &HostCommands, session: &str, run_id: &str) -> Served {
    let started = Instant::now();
    let timeout = hosts.timeout_for(&op.name);
    let retry = hosts.retry_for(&op.name);
    let max_attempts = retry.as_ref().map_or(1, |r| r.max_attempts);
    let mut attempts = Vec::new();
    let mut number = 1;
    loop {
        let attempt_started = Instant::now();
        let (result, code) = run_command(cmd, op, session, run_id, timeout);
        let failed = match &result {
            CallResult::Err(message) => Some(message.clone()),
            CallResult::Ok(_) => None,
        };
        let again = retry.as_ref().filter(|r| number < max_attempts && r.retries(code.as_deref()));
        match (failed, again) {
            (Some(error), Some(policy)) => {
                let backoff_ms = policy.backoff_after(number);
                attempts.push(Attempt { number, code, error, duration_ms: elapsed_ms(attempt_started), backoff_ms });
                std::thread::sleep(Duration::from_millis(backoff_ms));
                number += 1;
            }
            _ => return Served { result, duration_ms: elapsed_ms(started), attempts },
        }
    }
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// One attempt: the outcome, and for a failure its code (`"timeout"`, `"exit:N"`,
/// `"signal"`, `"spawn"`, `"invalid-json"`, or the `code` the command reported).
fn run_command(
    cmd: &str,
    op: &PendingOp,
    session: &str,
    run_id: &str,
    timeout: Option<Duration>,
) -> (CallResult, Option<String>) {
    let failure = |message: String, code: &str| (CallResult::Err(message), Some(code.to_string()));
    let child = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("AMBER_SESSION", session)
        .env("AMBER_OP_ID", op.id.to_string())
        .env("AMBER_OP_SEQ", op.seq.to_string())
        .env("AMBER_OP_NAME", &op.name)
        .env("AMBER_RUN_ID", run_id)
        .env("AMBER_IDEMPOTENCY_KEY", idempotency_key(session, run_id, op.seq))
        // A group of its own: a timeout kills whatever the command started, too.
        .process_group(0)
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return failure(format!("host command for {:?} could not start: {e}", op.name), "spawn"),
    };
    let input = to_canonical_string(&op.args) + "\n";
    let writer = child.stdin.take().map(|mut stdin| {
        std::thread::spawn(move || {
            // A command that does not read its input closes the pipe: not an error.
            let _ = stdin.write_all(input.as_bytes());
        })
    });
    let stdout = child.stdout.take().map(read_all);
    let stderr = child.stderr.take().map(read_all);
    let status = wait(&mut child, timeout);
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    let stdout = stdout.and_then(|t| t.join().ok()).unwrap_or_default();
    let stderr = stderr.and_then(|t| t.join().ok()).unwrap_or_default();
    let status = match status {
        Waited::Exited(status) => status,
        Waited::TimedOut(limit) => {
            return failure(
                format!(
                    "host command for {:?} timed out after {} ms; its process group was killed",
                    op.name,
                    limit.as_millis()
                ),
                "timeout",
            )
        }
        Waited::Failed(e) => return failure(format!("host command for {:?} failed: {e}", op.name), "spawn"),
    };
    if !status.success() {
        let stderr = String::from_utf8_lossy(&stderr).trim().to_string();
        let code = status.code().map_or("signal".to_string(), |c| format!("exit:{c}"));
        // A command may report a coded error as one JSON line: {"code": "E…", "message": "…"}.
        if let Ok(serde_json::Value::Object(report)) = serde_json::from_str::<serde_json::Value>(&stderr) {
            if let Some(reported) = report.get("code").and_then(|c| c.as_str()).filter(|c| is_code(c)) {
                let message = report.get("message").and_then(|m| m.as_str()).unwrap_or("");
                return failure(format!("Error [{reported}]: {message}"), reported);
            }
        }
        let status = status.code().map_or("a signal".to_string(), |c| format!("status {c}"));
        let message =
            if stderr.is_empty() { format!("host command for {:?} exited with {status}", op.name) } else { stderr };
        return failure(message, &code);
    }
    let stdout = String::from_utf8_lossy(&stdout);
    let text = stdout.trim();
    if text.is_empty() {
        return (CallResult::Ok(serde_json::Value::Null), None);
    }
    match parse(text) {
        Ok(value) => (CallResult::Ok(value), None),
        Err(e) => failure(format!("host command for {:?} printed invalid JSON: {e}", op.name), "invalid-json"),
    }
}

/// A failure code a command may report: letters, digits, `_`, `-`, `:` and `.`, at most 64.
fn is_code(code: &str) -> bool {
    !code.is_empty()
        && code.len() <= 64
        && code.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b':' | b'.'))
}

fn read_all(mut from: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = from.read_to_end(&mut bytes);
        bytes
    })
}

enum Waited {
    Exited(ExitStatus),
    TimedOut(Duration),
    Failed(std::io::Error),
}

/// Waits for `child`; past `timeout`, kills its process group and reaps it.
fn wait(child: &mut Child, timeout: Option<Duration>) -> Waited {
    let Some(limit) = timeout else {
        return child.wait().map_or_else(Waited::Failed, Waited::Exited);
    };
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Waited::Exited(status),
            Ok(None) if Instant::now() >= deadline => {
                kill_group(child);
                let _ = child.wait();
                return Waited::TimedOut(limit);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Waited::Failed(e),
        }
    }
}

/// SIGKILL to the child's process group (its pid is the group id: `process_group(0)`).
fn kill_group(child: &mut Child) {
    let group = format!("-{}", child.id());
    let killed = Command::new("kill").args(["-KILL", "--", &group]).stderr(Stdio::null()).status();
    if !killed.is_ok_and(|s| s.success()) {
        // No `kill` to run: at least the command itself goes.
        let _ = child.kill();
    }
}

pub use amber::idempotency_key;
