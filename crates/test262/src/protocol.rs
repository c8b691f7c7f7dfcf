//! The runner ↔ worker protocol: one JSON object per line each way.
//!
//! The runner starts `amber-test262 --worker <options>` (see [`WorkerOptions::to_args`]) and
//! writes one [`Request`] per line to its stdin: one execution of one test in one mode. The
//! worker answers each with exactly one [`Response`] line on stdout, in order, and writes
//! nothing else there. A worker that reports `CRASH` (a caught panic) exits right after; the
//! runner starts a fresh one. A worker that does not answer within the timeout is killed.

use crate::expectations::Outcome;
use crate::frontmatter::Negative;
use crate::plan::Mode;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One execution of a test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// Echoed in the response.
    pub seq: u64,
    /// Test id: the path relative to `test/`.
    pub test: String,
    pub mode: Mode,
    /// Harness files (relative to `harness/`) evaluated first, in order.
    pub includes: Vec<String>,
    pub negative: Option<Negative>,
    #[serde(rename = "async")]
    pub is_async: bool,
    /// Makes the worker misbehave on purpose; only the runner's own tests send it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selftest: Option<SelfTest>,
}

/// Misbehaviours for testing the pool's isolation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SelfTest {
    /// Never answer (the watchdog must kill the worker: TIMEOUT).
    Hang,
    /// Panic on the test thread (caught: CRASH, then the worker exits).
    Panic,
    /// Abort the process (CRASH seen as a dead worker).
    Abort,
    /// Overflow the native stack of the test thread (the process dies: CRASH).
    Overflow,
    /// Answer PASS without running anything.
    Pass,
    /// Print a non-protocol line on stdout, then answer PASS.
    Noise,
}

/// The result of one execution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Response {
    pub seq: u64,
    /// PASS, FAIL, TIMEOUT (fuel ran out) or CRASH (a caught panic).
    pub outcome: Outcome,
    /// Why it failed (empty on PASS).
    pub message: String,
    /// What the test printed with `print`, one call per line.
    pub output: String,
}

/// How a worker is configured, passed as command-line arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerOptions {
    pub suite: PathBuf,
    pub max_instructions: u64,
    pub max_heap_mib: Option<u64>,
    pub stack_size_mib: usize,
    pub can_block: bool,
    pub snapshot_roundtrip: bool,
    /// Testing aid: a builtin deleted before every test (`--break-builtin`).
    pub break_builtin: Option<String>,
}

impl WorkerOptions {
    /// The arguments after `--worker`.
    pub fn to_args(&self) -> Vec<String> {
        let mut args = vec![
            "--suite".to_string(),
            self.suite.to_string_lossy().into_owned(),
            "--max-instructions".to_string(),
            self.max_instructions.to_string(),
            "--stack-size-mib".to_string(),
            self.stack_size_mib.to_string(),
            "--can-block".to_string(),
            self.can_block.to_string(),
        ];
        if let Some(heap) = self.max_heap_mib {
            args.push("--max-heap-mib".to_string());
            args.push(heap.to_string());
        }
        if self.snapshot_roundtrip {
            args.push("--snapshot-roundtrip".to_string());
        }
        if let Some(path) = &self.break_builtin {
            args.push("--break-builtin".to_string());
            args.push(path.clone());
        }
        args
    }

    /// Parses the arguments after `--worker`.
    pub fn from_args(args: &[String]) -> Result<WorkerOptions, String> {
        let mut opts = WorkerOptions {
            suite: PathBuf::new(),
            max_instructions: 0,
            max_heap_mib: None,
            stack_size_mib: 16,
            can_block: true,
            snapshot_roundtrip: false,
            break_builtin: None,
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
            let number = |name: &str, v: String| v.parse::<u64>().map_err(|_| format!("{name}: not a number: {v}"));
            match arg.as_str() {
                "--suite" => opts.suite = PathBuf::from(value(arg)?),
                "--max-instructions" => opts.max_instructions = number(arg, value(arg)?)?,
                "--max-heap-mib" => opts.max_heap_mib = Some(number(arg, value(arg)?)?),
                "--stack-size-mib" => {
                    opts.stack_size_mib = usize::try_from(number(arg, value(arg)?)?)
                        .map_err(|_| "--stack-size-mib too large".to_string())?
                }
                "--can-block" => {
                    opts.can_block = match value(arg)?.as_str() {
                        "true" => true,
                        "false" => false,
                        other => return Err(format!("--can-block: expected true or false, got {other}")),
                    }
                }
                "--snapshot-roundtrip" => opts.snapshot_roundtrip = true,
                "--break-builtin" => {
                    let path = value(arg)?;
                    if !crate::plan::valid_builtin_path(&path) {
                        return Err(format!("--break-builtin: not a property path: {path}"));
                    }
                    opts.break_builtin = Some(path);
                }
                other => return Err(format!("unknown worker argument {other}")),
            }
        }
        if opts.suite.as_os_str().is_empty() {
            return Err("--suite is required".into());
        }
        Ok(opts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter::Phase;

    #[test]
    fn request_wire_format() {
        let req = Request {
            seq: 7,
            test: "language/a.js".into(),
            mode: Mode::Strict,
            includes: vec!["assert.js".into(), "sta.js".into()],
            negative: Some(Negative { phase: Phase::Parse, error_type: "SyntaxError".into() }),
            is_async: false,
            selftest: None,
        };
        let line = serde_json::to_string(&req).unwrap();
        assert_eq!(
            line,
            r#"{"seq":7,"test":"language/a.js","mode":"strict","includes":["assert.js","sta.js"],"negative":{"phase":"parse","type":"SyntaxError"},"async":false}"#
        );
        assert_eq!(serde_json::from_str::<Request>(&line).unwrap(), req);
        let with_selftest: Request = serde_json::from_str(
            r#"{"seq":1,"test":"x","mode":"raw","includes":[],"negative":null,"async":true,"selftest":"hang"}"#,
        )
        .unwrap();
        assert_eq!(with_selftest.selftest, Some(SelfTest::Hang));
    }

    #[test]
    fn response_wire_format() {
        let resp = Response { seq: 3, outcome: Outcome::Timeout, message: "out of fuel".into(), output: String::new() };
        let line = serde_json::to_string(&resp).unwrap();
        assert_eq!(line, r#"{"seq":3,"outcome":"TIMEOUT","message":"out of fuel","output":""}"#);
        assert_eq!(serde_json::from_str::<Response>(&line).unwrap(), resp);
    }

    #[test]
    fn worker_args_round_trip() {
        let opts = WorkerOptions {
            suite: PathBuf::from("test262/suite"),
            max_instructions: 123,
            max_heap_mib: Some(512),
            stack_size_mib: 8,
            can_block: false,
            snapshot_roundtrip: true,
            break_builtin: Some("Array.prototype.at".into()),
        };
        assert_eq!(WorkerOptions::from_args(&opts.to_args()).unwrap(), opts);
        assert!(WorkerOptions::from_args(&["--bogus".to_string()]).is_err());
        assert!(WorkerOptions::from_args(&[]).is_err());
    }
}
