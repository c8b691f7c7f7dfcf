//! One journal record: its kinds, its draft form, and its exact bytes (`body ‖ hash`).

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::MAX_RECORD_BYTES;
use crate::canonical_json::{args_hash, parse, to_canonical_string};
use crate::digest::{from_hex32, sha256, to_hex};
use crate::error::{DurableError, Result};
use crate::wire;

/// The kind of a host operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpKind {
    /// `amber.call(name, args)`.
    Call,
    /// `amber.input(prompt)`.
    Input,
    /// `amber.sleep(ms)`.
    Sleep,
    /// A network request (`fetch`, `node:http`/`https`) or a read of its response body
    /// (docs/journal-format.md, "Network").
    Http,
    /// A human's decision on a call the program manifest gates (`approve`): its intent names
    /// the call and holds `{"call", "args", "rule"}`, its completion the decision
    /// `{"approved", "principal", "reason", "decided_at_ms"}` (docs/manifest.md). Since
    /// journal version 3.
    Approval,
}

impl OpKind {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            OpKind::Call => "call",
            OpKind::Input => "input",
            OpKind::Sleep => "sleep",
            OpKind::Http => "http",
            OpKind::Approval => "approval",
        }
    }

    /// Every kind, in index order.
    pub const ALL: [OpKind; 5] = [OpKind::Call, OpKind::Input, OpKind::Sleep, OpKind::Http, OpKind::Approval];

    /// The kind named `name` (as [`OpKind::name`] gives it).
    pub fn from_name(name: &str) -> Option<OpKind> {
        OpKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// What a journal record records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RecordKind {
    /// Run start (seq 0 only): start time and random seed captured from the host.
    RunStart,
    /// A host operation was issued (written before it executes).
    Intent(OpKind),
    /// A host operation finished; `parent_seq` is its intent's seq.
    Completion(OpKind),
    /// `amber.step(name, fn)` memoized its result.
    Step,
    /// A clock value captured from the host.
    Clock,
    /// Randomness captured from the host.
    Random,
    /// What the overlay's lower layer (the host folder) held at a path the run touched first:
    /// `function` "fs.lstat" or "fs.list", `args` `{"path": rel}` (docs/journal-format.md).
    Capture,
    /// The session was forked from another one (`amber fork`): `function` the parent
    /// session's name, `args` `{"parent", "seq", "hash"}` naming the parent's record this one
    /// follows (whose hash is also this record's `prev_hash`). A marker: replay passes over it.
    Fork,
    /// The session moved to new code (`amber upgrade`) after the new program replayed the
    /// journal up to here: `args` `{"from": {path: sha256}, "to": {path: sha256}}`. A marker.
    Upgrade,
    /// One failed attempt of a host call the host retries (the manifest's `retry`):
    /// `parent_seq` the call's intent, `args` `{"attempt": n, "code": CODE|null,
    /// "backoff_ms": ms before the next}`, `result` the attempt's error, `duration_ms` how long
    /// it ran. The call's completion is its last attempt. A marker (since version 3).
    Attempt,
    /// The overlay's upper layer was discarded between runs (`amber fs rollback`): `args`
    /// `{"changes": n}`, the number of changes dropped. Not a marker: replay applies it at
    /// the same point (the idle point the run was suspended at, or after the program ended),
    /// so the state replay reaches is the state the host left. Since version 4.
    FsRollback,
}

impl RecordKind {
    /// Fork, upgrade and attempt records note the journal's history or the host's work, not
    /// an effect of the program: replay passes over them, and nothing the program does
    /// matches them.
    pub fn is_marker(self) -> bool {
        matches!(self, RecordKind::Fork | RecordKind::Upgrade | RecordKind::Attempt)
    }

    /// The oldest journal format version that has this kind.
    pub fn since_version(self) -> u32 {
        match self {
            RecordKind::Fork | RecordKind::Upgrade => 2,
            RecordKind::Attempt | RecordKind::Intent(OpKind::Approval) | RecordKind::Completion(OpKind::Approval) => 3,
            RecordKind::FsRollback => 4,
            _ => 1,
        }
    }
}

impl fmt::Display for RecordKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordKind::RunStart => f.write_str("run-start"),
            RecordKind::Intent(op) => write!(f, "{}-intent", op.name()),
            RecordKind::Completion(op) => write!(f, "{}-completion", op.name()),
            RecordKind::Step => f.write_str("step"),
            RecordKind::Clock => f.write_str("clock"),
            RecordKind::Random => f.write_str("random"),
            RecordKind::Capture => f.write_str("capture"),
            RecordKind::Fork => f.write_str("fork"),
            RecordKind::Upgrade => f.write_str("upgrade"),
            RecordKind::Attempt => f.write_str("attempt"),
            RecordKind::FsRollback => f.write_str("fs-rollback"),
        }
    }
}

/// The outcome a record carries.
#[derive(Clone, Debug, PartialEq)]
pub enum CallResult {
    /// Success with a JSON value.
    Ok(Value),
    /// Failure with a message.
    Err(String),
}

impl CallResult {
    /// The outcome as `inspect --json` and `log --json` show it: `{"ok": value}` or
    /// `{"err": message}`; null for none.
    pub fn to_json(result: Option<&CallResult>) -> Value {
        match result {
            None => Value::Null,
            Some(CallResult::Ok(value)) => json!({ "ok": value }),
            Some(CallResult::Err(message)) => json!({ "err": message }),
        }
    }
}

/// One journal record.
#[derive(Clone, Debug, PartialEq)]
pub struct CallRecord {
    /// Position in the journal (0-based, contiguous).
    pub seq: u64,
    /// For a completion, its intent's seq; otherwise the step or operation that issued it.
    pub parent_seq: Option<u64>,
    /// What the record records.
    pub kind: RecordKind,
    /// Host-operation name, step name or capture source ("" for run start).
    pub function: String,
    /// Arguments: the call's for intents, `{"path"}` for lower-layer captures, `null` for completions,
    /// steps, clock and random reads.
    pub args: Value,
    /// sha256 of the canonical JSON of `args`.
    pub args_hash: [u8; 32],
    /// The outcome (`None` only for intents).
    pub result: Option<CallResult>,
    /// Recorded duration of a completed operation in ms (0 otherwise).
    pub duration_ms: u64,
    /// Logical time in ms since the Unix epoch when the record was written.
    pub timestamp: u64,
    /// Hash of the previous record ([`GENESIS_HASH`] for seq 0).
    pub prev_hash: [u8; 32],
    /// sha256(prev_hash ‖ body).
    pub hash: [u8; 32],
}

/// One failed attempt of a retried host call ([`RecordKind::Attempt`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// 1-based.
    pub number: u32,
    /// What kind of failure (`"timeout"`, `"exit:N"`, a host's code), if known.
    pub code: Option<String>,
    /// The error.
    pub error: String,
    /// How long the attempt ran, ms.
    pub duration_ms: u64,
    /// The wait before the next attempt, ms.
    pub backoff_ms: u64,
}

/// Most bytes of an attempt's error text a record keeps ([`RecordDraft::attempt`]).
pub const MAX_ATTEMPT_ERROR_BYTES: usize = 64 << 10;
/// Most bytes of an attempt's failure code a record keeps.
pub const MAX_ATTEMPT_CODE_BYTES: usize = 256;

/// `text` whole if it has at most `max` bytes, else its first bytes (on a character boundary)
/// and a note of how many were cut.
fn cut_text(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes cut)", &text[..end], text.len() - end)
}

/// A record before the journal numbers and chains it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordDraft {
    /// See [`CallRecord::parent_seq`].
    pub parent_seq: Option<u64>,
    /// See [`CallRecord::kind`].
    pub kind: RecordKind,
    /// See [`CallRecord::function`].
    pub function: String,
    /// See [`CallRecord::args`].
    pub args: Value,
    /// See [`CallRecord::result`].
    pub result: Option<CallResult>,
    /// See [`CallRecord::duration_ms`].
    pub duration_ms: u64,
    /// See [`CallRecord::timestamp`].
    pub timestamp: u64,
}

impl RecordDraft {
    /// Run start: `result` is `{"seed": "<64 hex>", "start_time_ms": n}`.
    pub fn run_start(start_time_ms: u64, seed: [u8; 32]) -> Self {
        let info = json!({ "seed": to_hex(&seed), "start_time_ms": start_time_ms });
        RecordDraft::plain(RecordKind::RunStart, "", Some(CallResult::Ok(info)), start_time_ms)
    }

    /// A host operation `name` was issued with `args`.
    pub fn intent(op: OpKind, name: &str, args: Value, timestamp: u64) -> Self {
        RecordDraft { args, ..RecordDraft::plain(RecordKind::Intent(op), name, None, timestamp) }
    }

    /// The host operation issued at `intent_seq` finished after `duration_ms`.
    pub fn completion(
        op: OpKind,
        intent_seq: u64,
        name: &str,
        result: CallResult,
        duration_ms: u64,
        timestamp: u64,
    ) -> Self {
        RecordDraft {
            parent_seq: Some(intent_seq),
            duration_ms,
            ..RecordDraft::plain(RecordKind::Completion(op), name, Some(result), timestamp)
        }
    }

    /// Step `name` produced `result`.
    pub fn step(name: &str, result: CallResult, timestamp: u64) -> Self {
        RecordDraft::plain(RecordKind::Step, name, Some(result), timestamp)
    }

    /// A clock value read from `source` (e.g. "Date.now").
    pub fn clock(source: &str, value: Value, timestamp: u64) -> Self {
        RecordDraft::plain(RecordKind::Clock, source, Some(CallResult::Ok(value)), timestamp)
    }

    /// Randomness read from `source` (e.g. "crypto.getRandomValues"), as JSON.
    pub fn random(source: &str, value: Value, timestamp: u64) -> Self {
        RecordDraft::plain(RecordKind::Random, source, Some(CallResult::Ok(value)), timestamp)
    }

    /// A lower-layer answer read from `source` ("fs.lstat", "fs.list") for `args`.
    pub fn capture(source: &str, args: Value, value: Value, timestamp: u64) -> Self {
        RecordDraft { args, ..RecordDraft::plain(RecordKind::Capture, source, Some(CallResult::Ok(value)), timestamp) }
    }

    /// The first record of a fork of session `parent` right after its record `parent_seq`,
    /// whose hash is `parent_hash` (the fork record's own `prev_hash` must be that hash).
    pub fn fork(parent: &str, parent_seq: u64, parent_hash: [u8; 32], timestamp: u64) -> Self {
        let args = json!({ "parent": parent, "seq": parent_seq, "hash": to_hex(&parent_hash) });
        RecordDraft {
            args,
            ..RecordDraft::plain(RecordKind::Fork, parent, Some(CallResult::Ok(Value::Null)), timestamp)
        }
    }

    /// The session's code moved from the sources hashed `from` to those hashed `to`
    /// (path → sha256 hex, in path order).
    pub fn upgrade(from: Value, to: Value, timestamp: u64) -> Self {
        let args = json!({ "from": from, "to": to });
        RecordDraft {
            args,
            ..RecordDraft::plain(RecordKind::Upgrade, "", Some(CallResult::Ok(Value::Null)), timestamp)
        }
    }

    /// A failed attempt of the call whose intent is at `intent_seq`. Its error text and code
    /// are cut to [`MAX_ATTEMPT_ERROR_BYTES`] and [`MAX_ATTEMPT_CODE_BYTES`] (a note says how
    /// much was cut): an attempt is a report, and a host's megabytes of stderr must never make
    /// the record too large for the journal, which would fail the run as an integrity error.
    pub fn attempt(intent_seq: u64, name: &str, attempt: &Attempt, timestamp: u64) -> Self {
        let code = attempt.code.as_deref().map(|c| cut_text(c, MAX_ATTEMPT_CODE_BYTES));
        let args = json!({ "attempt": attempt.number, "code": code, "backoff_ms": attempt.backoff_ms });
        let error = cut_text(&attempt.error, MAX_ATTEMPT_ERROR_BYTES);
        RecordDraft {
            args,
            parent_seq: Some(intent_seq),
            duration_ms: attempt.duration_ms,
            ..RecordDraft::plain(RecordKind::Attempt, name, Some(CallResult::Err(error)), timestamp)
        }
    }

    /// The host discarded the overlay's upper layer, `changes` changes, between runs.
    pub fn fs_rollback(changes: u64, timestamp: u64) -> Self {
        RecordDraft {
            args: json!({ "changes": changes }),
            ..RecordDraft::plain(RecordKind::FsRollback, "", Some(CallResult::Ok(Value::Null)), timestamp)
        }
    }

    /// This draft, issued by the step or operation at `parent_seq`.
    pub fn with_parent(mut self, parent_seq: u64) -> Self {
        self.parent_seq = Some(parent_seq);
        self
    }

    fn plain(kind: RecordKind, function: &str, result: Option<CallResult>, timestamp: u64) -> Self {
        RecordDraft {
            parent_seq: None,
            kind,
            function: function.to_string(),
            args: Value::Null,
            result,
            duration_ms: 0,
            timestamp,
        }
    }
}

/// A record's hash from its predecessor's and its own encoded body: sha256(prev_hash ‖ body).
fn chain_hash(prev_hash: &[u8; 32], body: &[u8]) -> [u8; 32] {
    let mut input = prev_hash.to_vec();
    input.extend_from_slice(body);
    sha256(&input)
}

/// The body of a record as encoded: everything but the hash, JSON as canonical text.
#[derive(Serialize, Deserialize)]
struct WireBody {
    seq: u64,
    parent_seq: Option<u64>,
    kind: RecordKind,
    function: String,
    args: String,
    args_hash: [u8; 32],
    result: Option<WireResult>,
    duration_ms: u64,
    timestamp: u64,
    prev_hash: [u8; 32],
}

#[derive(Serialize, Deserialize)]
enum WireResult {
    Ok(String),
    Err(String),
}

impl CallRecord {
    /// The encoded body: bincode 2 `standard()` of every field but `hash`.
    fn body_bytes(&self) -> Result<Vec<u8>> {
        let body = WireBody {
            seq: self.seq,
            parent_seq: self.parent_seq,
            kind: self.kind,
            function: self.function.clone(),
            args: to_canonical_string(&self.args),
            args_hash: self.args_hash,
            result: self.result.as_ref().map(|result| match result {
                CallResult::Ok(value) => WireResult::Ok(to_canonical_string(value)),
                CallResult::Err(message) => WireResult::Err(message.clone()),
            }),
            duration_ms: self.duration_ms,
            timestamp: self.timestamp,
            prev_hash: self.prev_hash,
        };
        wire::encode(&body, "journal record", MAX_RECORD_BYTES - 32)
    }

    /// The record `draft` becomes as the journal's record `seq`, following the record whose
    /// hash is `prev_hash`: its args hashed and its own hash computed. Every appended record is
    /// made here (the journal and the amber recorder's live records alike), so the chain has
    /// one definition.
    pub fn chained(draft: RecordDraft, seq: u64, prev_hash: [u8; 32]) -> Result<CallRecord> {
        let mut record = CallRecord {
            seq,
            parent_seq: draft.parent_seq,
            kind: draft.kind,
            function: draft.function,
            args_hash: args_hash(&draft.args),
            args: draft.args,
            result: draft.result,
            duration_ms: draft.duration_ms,
            timestamp: draft.timestamp,
            prev_hash,
            hash: [0; 32],
        };
        record.hash = record.compute_hash()?;
        Ok(record)
    }

    /// sha256(prev_hash ‖ body): what `hash` must equal.
    pub fn compute_hash(&self) -> Result<[u8; 32]> {
        Ok(chain_hash(&self.prev_hash, &self.body_bytes()?))
    }

    /// The record's bytes: body ‖ hash.
    pub fn encode(&self) -> Result<Vec<u8>> {
        let mut bytes = self.body_bytes()?;
        bytes.extend_from_slice(&self.hash);
        Ok(bytes)
    }

    /// Decodes one record and checks its own hash (not its link to a previous record).
    pub fn decode(bytes: &[u8]) -> Result<CallRecord> {
        CallRecord::decode_at(bytes, 0)
    }

    /// [`CallRecord::decode`] for a record found at `offset` in a larger container.
    pub(super) fn decode_at(bytes: &[u8], offset: u64) -> Result<CallRecord> {
        const WHAT: &str = "journal record";
        let Some(body_len) = bytes.len().checked_sub(32) else {
            return Err(DurableError::Truncated { what: WHAT, offset, needed: 32, available: bytes.len() as u64 });
        };
        let (body_bytes, hash_bytes) = bytes.split_at(body_len);
        let body: WireBody = wire::decode::<_, MAX_RECORD_BYTES>(body_bytes, WHAT, offset)?;
        let json = |text: &str| {
            parse(text).map_err(|e| DurableError::corrupt_at(WHAT, offset, format!("seq {}: {e}", body.seq)))
        };
        let result = match &body.result {
            None => None,
            Some(WireResult::Ok(text)) => Some(CallResult::Ok(json(text)?)),
            Some(WireResult::Err(message)) => Some(CallResult::Err(message.clone())),
        };
        let mut hash = [0u8; 32];
        hash.copy_from_slice(hash_bytes);
        let record = CallRecord {
            seq: body.seq,
            parent_seq: body.parent_seq,
            kind: body.kind,
            args: json(&body.args)?,
            function: body.function,
            args_hash: body.args_hash,
            result,
            duration_ms: body.duration_ms,
            timestamp: body.timestamp,
            prev_hash: body.prev_hash,
            hash,
        };
        // Canonical bytes only: the decoded record must re-encode to exactly what was read,
        // so in-memory verification and re-export agree with the stored hash.
        if record.body_bytes()? != body_bytes {
            return Err(DurableError::corrupt_at(
                WHAT,
                offset,
                format!("seq {}: not in canonical encoding", record.seq),
            ));
        }
        if chain_hash(&record.prev_hash, body_bytes) != record.hash {
            return Err(DurableError::BrokenChain {
                seq: record.seq,
                detail: "record hash does not match its content".into(),
            });
        }
        Ok(record)
    }

    /// For a run-start record: (start time in ms, random seed).
    pub fn run_start_info(&self) -> Option<(u64, [u8; 32])> {
        if self.kind != RecordKind::RunStart {
            return None;
        }
        let Some(CallResult::Ok(info)) = &self.result else {
            return None;
        };
        let start = info.get("start_time_ms")?.as_u64()?;
        let seed = from_hex32(info.get("seed")?.as_str()?)?;
        Some((start, seed))
    }

    /// For a fork record: (parent session, parent seq, parent record hash).
    pub fn fork_info(&self) -> Option<(&str, u64, [u8; 32])> {
        if self.kind != RecordKind::Fork {
            return None;
        }
        let parent = self.args.get("parent")?.as_str()?;
        let seq = self.args.get("seq")?.as_u64()?;
        let hash = from_hex32(self.args.get("hash")?.as_str()?)?;
        Some((parent, seq, hash))
    }

    /// A short description for messages: kind and name.
    pub fn describe(&self) -> String {
        describe(self.kind, &self.function)
    }

    /// The record as JSON, for `amber inspect --json` (hashes as hex).
    pub fn to_json(&self) -> Value {
        let result = CallResult::to_json(self.result.as_ref());
        json!({
            "seq": self.seq,
            "parent_seq": self.parent_seq,
            "kind": self.kind.to_string(),
            "function": self.function,
            "args": self.args,
            "args_hash": to_hex(&self.args_hash),
            "result": result,
            "duration_ms": self.duration_ms,
            "timestamp": self.timestamp,
            "prev_hash": to_hex(&self.prev_hash),
            "hash": to_hex(&self.hash),
        })
    }
}

/// "host call \"fetch\"", "step \"parse\"", …
pub fn describe(kind: RecordKind, function: &str) -> String {
    match kind {
        RecordKind::RunStart => "run start".to_string(),
        RecordKind::Intent(op) => format!("{} {function:?}", op.name()),
        RecordKind::Completion(op) => format!("completion of {} {function:?}", op.name()),
        RecordKind::Step => format!("step {function:?}"),
        RecordKind::Clock => format!("clock read {function:?}"),
        RecordKind::Random => format!("random read {function:?}"),
        RecordKind::Capture => format!("lower-layer read {function:?}"),
        RecordKind::Fork => format!("fork of session {function:?}"),
        RecordKind::Upgrade => "upgrade to new code".to_string(),
        RecordKind::Attempt => format!("failed attempt of call {function:?}"),
        RecordKind::FsRollback => "rollback of the filesystem's changes".to_string(),
    }
}
