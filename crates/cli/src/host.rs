//! `--host NAME=CMD`: serve host operation NAME by running `sh -c CMD` with the operation's
//! args as JSON on stdin; its stdout (JSON) is the result, a non-zero exit a rejection with
//! its stderr as the message. The command sees `AMBER_SESSION`, `AMBER_OP_ID`, `AMBER_OP_SEQ`,
//! `AMBER_OP_NAME` and `AMBER_IDEMPOTENCY_KEY` (`session:seq`): an operation interrupted by a
//! crash runs again on resume (at least once), and the key lets the command notice.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

use amber::durable::canonical_json::{parse, to_canonical_string};
use amber::{CallResult, OpKind, PendingOp};

use crate::error::{CliResult, Failure};

/// The `--host` commands, by operation name.
#[derive(Default)]
pub struct HostCommands {
    commands: Vec<(String, String)>,
}

impl HostCommands {
    /// Parses `NAME=CMD` specifications.
    pub fn parse(specs: &[String]) -> CliResult<HostCommands> {
        let mut commands = Vec::new();
        for spec in specs {
            match spec.split_once('=') {
                Some((name, cmd)) if !name.is_empty() && !cmd.trim().is_empty() => {
                    commands.push((name.to_string(), cmd.to_string()));
                }
                _ => return Err(Failure::usage(format!("--host expects NAME=COMMAND, got {spec:?}"))),
            }
        }
        Ok(HostCommands { commands })
    }

    /// The command serving `op`, if any (only `amber.call` operations are served).
    pub fn command_for(&self, op: &PendingOp) -> Option<&str> {
        if op.kind != OpKind::Call {
            return None;
        }
        self.commands.iter().find(|(name, _)| *name == op.name).map(|(_, cmd)| cmd.as_str())
    }
}

/// Runs `cmd` for `op`; returns the outcome and how long it took (ms).
pub fn execute(cmd: &str, op: &PendingOp, session: &str, run_id: &str) -> (CallResult, u64) {
    let started = Instant::now();
    let result = run_command(cmd, op, session, run_id);
    let duration = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    (result, duration)
}

fn run_command(cmd: &str, op: &PendingOp, session: &str, run_id: &str) -> CallResult {
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
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return CallResult::Err(format!("host command for {:?} could not start: {e}", op.name)),
    };
    let input = to_canonical_string(&op.args) + "\n";
    let writer = child.stdin.take().map(|mut stdin| {
        std::thread::spawn(move || {
            // A command that does not read its input closes the pipe: not an error.
            let _ = stdin.write_all(input.as_bytes());
        })
    });
    let output = child.wait_with_output();
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    let output = match output {
        Ok(output) => output,
        Err(e) => return CallResult::Err(format!("host command for {:?} failed: {e}", op.name)),
    };
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();
        let status = output.status.code().map_or("a signal".to_string(), |c| format!("status {c}"));
        return CallResult::Err(if stderr.is_empty() {
            format!("host command for {:?} exited with {status}", op.name)
        } else {
            stderr
        });
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let text = stdout.trim();
    if text.is_empty() {
        return CallResult::Ok(serde_json::Value::Null);
    }
    match parse(text) {
        Ok(value) => CallResult::Ok(value),
        Err(e) => CallResult::Err(format!("host command for {:?} printed invalid JSON: {e}", op.name)),
    }
}

pub use amber::idempotency_key;
