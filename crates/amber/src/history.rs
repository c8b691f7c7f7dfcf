//! Looking into and evolving a durable run (issue 24): the journal as a timeline, a runtime
//! at the state right after any record (what `fork` and `eval --at` start from), evaluation
//! on a copy with effects refused, and the check that moves a run to new code (`upgrade`).
//!
//! None of these writes anything: they return journals, runtimes and records; the embedder
//! (the CLI, over the session store) decides what to persist. docs/durability.md, "Fork,
//! eval and upgrade", gives the guarantees.

use std::collections::BTreeMap;

use amber_durable::digest::{to_hex, Digest};
use amber_durable::journal::{CallResult, Journal, RecordDraft, RecordKind};
use serde_json::{json, Value};

use crate::error::{Error, Result};
use crate::runtime::{ErrorReport, Outcome, Program, Runtime, RuntimeBuilder};

/// One line of a journal's timeline: a host operation (its intent and, once answered, its
/// completion), or any other record.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineEntry {
    /// The record's seq (for an operation, its intent's: the operation's seq).
    pub seq: u64,
    /// "call", "input", "sleep", "http" for an operation; else the record kind
    /// ("run-start", "step", "clock", "random", "capture", "fork", "upgrade").
    pub kind: String,
    /// For an operation, its id (the intent's ordinal: what `--resolve ID=…` names).
    pub op_id: Option<u64>,
    /// Host-operation, step or source name.
    pub name: String,
    /// Arguments (`null` when the record has none).
    pub args: Value,
    /// The outcome; None for an operation still pending.
    pub result: Option<CallResult>,
    /// For an operation, the seq of its completion, once answered.
    pub completed_seq: Option<u64>,
    /// Logical time (ms since the epoch) when the record (the intent) was written.
    pub logical_time_ms: u64,
    /// For an answered operation, its recorded duration in ms.
    pub duration_ms: u64,
    /// Where in the program the record was made (`file:line:column`), when the session
    /// store noted it (a diagnostic outside the hash chain; host-made records have none).
    pub location: Option<String>,
}

impl TimelineEntry {
    /// The entry as JSON (`amber log --json`).
    pub fn to_json(&self) -> Value {
        let result = CallResult::to_json(self.result.as_ref());
        json!({
            "seq": self.seq,
            "kind": self.kind,
            "op_id": self.op_id,
            "name": self.name,
            "args": self.args,
            "result": result,
            "pending": self.op_id.is_some() && self.result.is_none(),
            "completed_seq": self.completed_seq,
            "logical_time_ms": self.logical_time_ms,
            "duration_ms": self.duration_ms,
            "location": self.location,
        })
    }
}

/// The journal as a timeline, in seq order: each operation once, at its intent, with its
/// completion folded in; every other record as it stands. `locations` (by seq, as the session
/// store keeps them) gives each entry its source location.
pub fn timeline(journal: &Journal, locations: &BTreeMap<u64, String>) -> Vec<TimelineEntry> {
    let mut entries = Vec::new();
    let mut op_id = 0;
    for record in journal.records() {
        let entry = |kind: String| TimelineEntry {
            seq: record.seq,
            kind,
            op_id: None,
            name: record.function.clone(),
            args: record.args.clone(),
            result: record.result.clone(),
            completed_seq: None,
            logical_time_ms: record.timestamp,
            duration_ms: record.duration_ms,
            location: locations.get(&record.seq).cloned(),
        };
        match record.kind {
            RecordKind::Completion(_) => {}
            RecordKind::Intent(op) => {
                op_id += 1;
                let completion = journal.completion(record.seq);
                entries.push(TimelineEntry {
                    op_id: Some(op_id),
                    result: completion.and_then(|c| c.result.clone()),
                    completed_seq: completion.map(|c| c.seq),
                    duration_ms: completion.map_or(0, |c| c.duration_ms),
                    ..entry(op.name().to_string())
                });
            }
            kind => entries.push(entry(kind.to_string())),
        }
    }
    entries
}

/// The journal a fork of session `parent` right after record `at` starts with: the parent's
/// records `0..=at`, then the fork record naming them (its `prev_hash` is record `at`'s hash).
pub fn fork_journal(parent: &str, journal: &Journal, at: u64) -> Result<Journal> {
    let record = journal.get(at).ok_or_else(|| {
        Error::usage(format!(
            "session {parent:?} has no journal record {at} (its records are 0 to {})",
            journal.len().saturating_sub(1)
        ))
    })?;
    let (hash, timestamp) = (record.hash, record.timestamp);
    let keep = usize::try_from(at + 1).unwrap_or(usize::MAX);
    let mut forked = Journal::from_records(journal.records()[..keep].to_vec())?;
    forked.append(RecordDraft::fork(parent, at, hash, timestamp))?;
    Ok(forked)
}

/// The records `0..=at` of `journal` (what `eval --at` evaluates after).
pub fn journal_prefix(journal: &Journal, at: u64) -> Result<Journal> {
    if at >= journal.len() as u64 {
        return Err(Error::usage(format!(
            "the journal has no record {at} (its records are 0 to {})",
            journal.len().saturating_sub(1)
        )));
    }
    let keep = usize::try_from(at + 1).unwrap_or(usize::MAX);
    Ok(Journal::from_records(journal.records()[..keep].to_vec())?)
}

/// A runtime at the end of `journal`, and the outcome of getting there: from `image` when it
/// was taken at or before the journal's end (restored, then the later records replayed), else
/// by re-executing `program` from the top against the journal. Past the journal's end the run
/// goes on live to its next safe point (a host operation's intent is an operation pending).
pub fn open_at(
    builder: RuntimeBuilder,
    journal: &Journal,
    image: Option<&[u8]>,
    program: &Program,
) -> Result<(Runtime, Result<Outcome>)> {
    let usable = image.filter(|bytes| {
        amber_durable::image::read_manifest_unverified(bytes)
            .is_ok_and(|summary| journal.has_prefix(&summary.manifest.journal_head))
    });
    match usable {
        Some(bytes) => {
            let mut runtime = builder.restore(bytes, Some(journal))?;
            let outcome = runtime.resume();
            Ok((runtime, outcome))
        }
        None => {
            let mut runtime = builder.recover(journal)?;
            let outcome = runtime.run(program);
            Ok((runtime, outcome))
        }
    }
}

/// A runtime frozen at the end of `journal`, for evaluation: like [`open_at`], but the run
/// stops at its first effect past the journal (the heap as it stands right after the last
/// record and the synchronous code that followed it, up to that effect) instead of going on
/// live. The stopped slice's own frame is gone; globals and suspended functions stay.
pub fn open_frozen_at(
    builder: RuntimeBuilder,
    journal: &Journal,
    image: Option<&[u8]>,
    program: &Program,
) -> Result<Runtime> {
    let usable = image.filter(|bytes| {
        amber_durable::image::read_manifest_unverified(bytes)
            .is_ok_and(|summary| journal.has_prefix(&summary.manifest.journal_head))
    });
    let (mut runtime, outcome) = match usable {
        Some(bytes) => {
            let mut runtime = builder.restore(bytes, Some(journal))?;
            runtime.serve_strictly();
            let outcome = runtime.resume();
            (runtime, outcome)
        }
        None => {
            let mut runtime = builder.replay(journal)?;
            let outcome = runtime.run(program);
            (runtime, outcome)
        }
    };
    match outcome {
        Ok(_) => Ok(runtime),
        Err(Error::Divergence { expected, .. }) if expected == "the end of the journal" => {
            runtime.clear_stack();
            Ok(runtime)
        }
        Err(e) => Err(e),
    }
}

/// Evaluates `source` in the program's global scope, with every effect refused (host calls,
/// input, sleeps, the network, journaled clock and random reads: a TypeError that says so),
/// and returns the value formatted as `console.log` would print it, or Err with the thrown
/// error's report. The runtime should be a copy: nothing is journaled, but the heap the
/// expression touches is changed (run no more, image nothing from it afterwards).
pub fn eval_sealed(runtime: &mut Runtime, source: &str) -> Result<std::result::Result<String, ErrorReport>> {
    runtime.seal();
    runtime.eval_for_log(source, "<eval>")
}

/// A session moved to new code ([`upgrade`]).
pub struct Upgraded {
    /// The runtime, on the new code, with the upgrade record appended: image it.
    pub runtime: Runtime,
    /// The modules the new code changed or added besides the entry (the folder given by
    /// [`crate::lower::HostFolder::upgrading_from`]). Store them as the session's sources;
    /// they stand in for the folder's files from now on
    /// ([`crate::lower::HostFolder::with_code_file`]).
    pub files: Vec<crate::lower::UpgradedFile>,
}

/// Replays `program` (the new code) strictly against `journal` (a suspended session's) and,
/// if it reaches the end without diverging and waits on the same operations, appends the
/// upgrade record (`from`: the old code hashes, to which the changed modules' captured hashes
/// are added; `to`: the new program's and the new modules') and returns the runtime, now on
/// the new code, ready to image. A divergence is returned as [`Error::Divergence`] (seq,
/// expected, actual, location); nothing is written either way.
pub fn upgrade(
    builder: RuntimeBuilder,
    journal: &Journal,
    program: &Program,
    from: &BTreeMap<String, Digest>,
) -> Result<Upgraded> {
    let mut runtime = builder.replay(journal)?;
    let outcome = runtime.run(program)?;
    let open: Vec<u64> = journal.open_intents().map(|r| r.seq).collect();
    let end = journal.len() as u64;
    match &outcome {
        Outcome::Suspended(pending) if pending.iter().map(|op| op.seq).eq(open.iter().copied()) => {}
        other => {
            let did = match other {
                Outcome::Suspended(pending) => format!(
                    "wait on operations with intent seqs {:?}",
                    pending.iter().map(|op| op.seq).collect::<Vec<_>>()
                ),
                Outcome::Completed(_) => "complete".into(),
                Outcome::Threw(report) => format!("throw {}", report.to_string().lines().next().unwrap_or("")),
                Outcome::Exited(code) => format!("exit with code {code}"),
            };
            return Err(Error::Divergence {
                seq: end,
                expected: format!("the session waiting on operations with intent seqs {open:?}"),
                actual: did,
                location: None,
            });
        }
    }
    let files = runtime.take_upgraded_files();
    let mut from = from.clone();
    from.extend(files.iter().filter_map(|f| Some((f.path.clone(), Digest(f.old?)))));
    let hashes = |map: &BTreeMap<String, Digest>| -> Value {
        Value::Object(map.iter().map(|(path, hash)| (path.clone(), Value::String(to_hex(&hash.0)))).collect())
    };
    let draft = RecordDraft::upgrade(hashes(&from), hashes(runtime.code_hashes()), runtime.logical_time_ms());
    runtime.append_marker(draft)?;
    Ok(Upgraded { runtime, files })
}
