//! The journal: a sha256-chained log of every host effect a run observed (DESIGN §7).
//!
//! Records are numbered by `seq` = their index (0, 1, 2, …). A host operation's seq is the seq
//! of its `Intent` record; its `Completion` names that seq in `parent_seq`. Host-operation names
//! and step names live in separate namespaces: a record's [`RecordKind`] is part of everything
//! that matches it, so a host function called "step" never answers a step lookup.
//!
//! Bytes (see docs/journal-format.md): a record is `body ‖ hash`, where `body` is the bincode 2
//! `standard()` encoding of the record without its hash (JSON fields as RFC 8785 text) and
//! `hash = sha256(prev_hash ‖ body)`; the first record's `prev_hash` is 32 zero bytes.

mod head_mac;
mod record;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::canonical_json::{args_hash, check_depth, to_canonical_string};
use crate::digest::Digest;
use crate::error::{DurableError, Result};
use crate::wire::Reader;

pub use head_mac::{check_head_tag, head_tag};
pub use record::{describe, Attempt, CallRecord, CallResult, OpKind, RecordDraft, RecordKind};

/// Magic bytes of an encoded journal.
pub const JOURNAL_MAGIC: &[u8; 8] = b"AMBERJNL";
/// Journal and record format version. 2 added the `Fork` and `Upgrade` record kinds, 3 the
/// `Attempt` kind and the `Approval` operation kind, 4 the `FsRollback` kind (new variants at
/// the ends of `RecordKind` and `OpKind`, so every older record reads unchanged).
pub const JOURNAL_FORMAT_VERSION: u32 = 4;
/// The oldest journal file version [`Journal::decode`] reads.
pub const JOURNAL_OLDEST_READABLE_VERSION: u32 = 1;
/// Largest encoded record (body and hash) accepted when writing or reading.
pub const MAX_RECORD_BYTES: usize = 16 << 20;
/// Bytes a record's fixed fields and length prefixes can take at most (seq, parent, kind,
/// hashes, duration, timestamp, varints): what [`record_fits`] adds to the variable parts.
const RECORD_OVERHEAD_BYTES: usize = 256;

/// A run's id: 8 bytes derived from its journaled start (seed and start time), so every
/// restore and replay of the run has the same one, every run a different one (the seed is
/// fresh randomness unless the embedder fixed it), and the id does not reveal the seed. Host
/// idempotency keys and trace ids are made from it.
pub fn run_id(start_time_ms: u64, seed: &[u8; 32]) -> [u8; 8] {
    let mut input = b"amber run id".to_vec();
    input.extend_from_slice(seed);
    input.extend_from_slice(&start_time_ms.to_le_bytes());
    let digest = crate::digest::sha256(&input);
    let mut id = [0u8; 8];
    id.copy_from_slice(&digest[..8]);
    id
}

/// The key a host operation carries to its host (`AMBER_IDEMPOTENCY_KEY`, a request's
/// `Idempotency-Key` header): `session:run:seq` with the run id in hex, unique across sessions
/// and runs (two stores' sessions of the same name, or runs without a session, never share a
/// key) and the same when the operation is retried after a crash (the run id and seq are
/// journaled).
pub fn idempotency_key(session: &str, run_id: &str, seq: u64) -> String {
    format!("{session}:{run_id}:{seq}")
}

/// Whether a record with this function name, args and result stays within
/// [`MAX_RECORD_BYTES`]; Err with the bytes it would need. The runtime asks before it records
/// an effect, so an oversized argument or result rejects that one call instead of failing
/// the journal (and the session) when the record is written.
pub fn record_fits(
    function: &str,
    args: &serde_json::Value,
    result: Option<&CallResult>,
) -> std::result::Result<(), usize> {
    let result_bytes = match result {
        None => 0,
        Some(CallResult::Ok(value)) => crate::canonical_json::to_canonical_string(value).len(),
        Some(CallResult::Err(message)) => message.len(),
    };
    let bytes =
        RECORD_OVERHEAD_BYTES + function.len() + crate::canonical_json::to_canonical_string(args).len() + result_bytes;
    if bytes <= MAX_RECORD_BYTES {
        Ok(())
    } else {
        Err(bytes)
    }
}

/// `prev_hash` of the first record.
pub const GENESIS_HASH: [u8; 32] = [0; 32];

/// Length and last hash of a journal prefix; recorded on image manifests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalHead {
    /// Number of records.
    pub len: u64,
    /// Hash of the last record ([`GENESIS_HASH`] when empty).
    pub hash: Digest,
}

impl JournalHead {
    /// The head of a journal whose last record is `record`.
    pub fn after(record: &CallRecord) -> JournalHead {
        JournalHead { len: record.seq + 1, hash: Digest(record.hash) }
    }
}

/// An append-only, verified journal.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Journal {
    records: Vec<CallRecord>,
    /// Intent seq → completion seq.
    completions: BTreeMap<u64, u64>,
}

impl Journal {
    /// An empty journal.
    pub fn new() -> Self {
        Journal::default()
    }

    /// A journal of `records`, verified from seq 0 (fails with the first broken seq).
    pub fn from_records(records: Vec<CallRecord>) -> Result<Journal> {
        let mut journal = Journal::new();
        journal.records.reserve(records.len());
        for record in records {
            journal.push_checked(record).map_err(|(seq, detail)| DurableError::BrokenChain { seq, detail })?;
        }
        Ok(journal)
    }

    /// Numbers, chains and appends `draft`; on error the journal is unchanged.
    pub fn append(&mut self, draft: RecordDraft) -> Result<&CallRecord> {
        let seq = self.next_seq();
        let invalid = |detail: String| DurableError::InvalidRecord { seq, detail };
        check_depth(&draft.args, &format!("journal record seq {seq} args"))?;
        if let Some(CallResult::Ok(value)) = &draft.result {
            check_depth(value, &format!("journal record seq {seq} result"))?;
        }
        let record = CallRecord::chained(draft, seq, self.head_hash())?;
        self.push_checked(record).map_err(|(_, detail)| invalid(detail))?;
        self.records.last().ok_or_else(|| invalid("record vanished".into()))
    }

    /// Appends `record` if it validly extends the journal; else (seq, what is wrong).
    fn push_checked(&mut self, record: CallRecord) -> std::result::Result<(), (u64, String)> {
        let seq = record.seq;
        check_next(&self.records, &self.completions, &record).map_err(|detail| (seq, detail))?;
        if let (RecordKind::Completion(_), Some(intent)) = (record.kind, record.parent_seq) {
            self.completions.insert(intent, seq);
        }
        self.records.push(record);
        Ok(())
    }

    /// Every record, in seq order.
    pub fn records(&self) -> &[CallRecord] {
        &self.records
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True if there are no records.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The seq the next appended record will get.
    pub fn next_seq(&self) -> u64 {
        self.records.len() as u64
    }

    /// Hash of the last record ([`GENESIS_HASH`] when empty).
    pub fn head_hash(&self) -> [u8; 32] {
        self.records.last().map_or(GENESIS_HASH, |record| record.hash)
    }

    /// Length and head hash, for an image manifest.
    pub fn head(&self) -> JournalHead {
        JournalHead { len: self.next_seq(), hash: Digest(self.head_hash()) }
    }

    /// True if `head` describes a prefix of this journal.
    pub fn has_prefix(&self, head: &JournalHead) -> bool {
        match head.len.checked_sub(1) {
            None => head.hash.0 == GENESIS_HASH,
            Some(last) => self.get(last).is_some_and(|record| record.hash == head.hash.0),
        }
    }

    /// The record at `seq`.
    pub fn get(&self, seq: u64) -> Option<&CallRecord> {
        usize::try_from(seq).ok().and_then(|index| self.records.get(index))
    }

    /// The completion of the host operation whose intent is at `intent_seq`.
    pub fn completion(&self, intent_seq: u64) -> Option<&CallRecord> {
        self.completions.get(&intent_seq).and_then(|seq| self.get(*seq))
    }

    /// Intents with no completion: operations pending, or interrupted by a crash.
    pub fn open_intents(&self) -> impl Iterator<Item = &CallRecord> + '_ {
        self.records.iter().filter(|record| {
            matches!(record.kind, RecordKind::Intent(_)) && !self.completions.contains_key(&record.seq)
        })
    }

    /// The run-start record's (start time, seed), if the journal has one.
    pub fn run_start(&self) -> Option<(u64, [u8; 32])> {
        self.records.first().and_then(CallRecord::run_start_info)
    }

    /// Replay check: the record at `seq` must have this kind, name and args hash. `Ok(None)`
    /// past the end of the journal (the run goes live); `Divergence` on any mismatch.
    pub fn expect_record(
        &self,
        seq: u64,
        kind: RecordKind,
        function: &str,
        args: &Value,
    ) -> Result<Option<&CallRecord>> {
        let Some(record) = self.get(seq) else {
            return Ok(None);
        };
        let hash = args_hash(args);
        if record.kind != kind || record.function != function || record.args_hash != hash {
            let with_args = |kind, function: &str, args: &Value| {
                let mut text = to_canonical_string(args);
                if text.len() > 200 {
                    let mut cut = 200;
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    text.truncate(cut);
                    text.push('…');
                }
                format!("{} with args {text}", describe(kind, function))
            };
            return Err(DurableError::Divergence {
                seq,
                expected: with_args(record.kind, &record.function, &record.args),
                actual: with_args(kind, function, args),
            });
        }
        Ok(Some(record))
    }

    /// Re-checks the whole chain; reports the first broken seq.
    pub fn verify(&self) -> Result<()> {
        let mut completions = BTreeMap::new();
        for (index, record) in self.records.iter().enumerate() {
            check_next(&self.records[..index], &completions, record)
                .map_err(|detail| DurableError::BrokenChain { seq: record.seq, detail })?;
            if let (RecordKind::Completion(_), Some(intent)) = (record.kind, record.parent_seq) {
                completions.insert(intent, record.seq);
            }
        }
        Ok(())
    }

    /// The journal file: magic, version (the oldest that has every record's kind), record
    /// count, then length-prefixed records.
    pub fn encode(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        out.extend_from_slice(JOURNAL_MAGIC);
        // The oldest version that can hold these records: a journal of version-1 kinds only
        // stays readable by a version-1 reader.
        let version =
            self.records.iter().map(|r| r.kind.since_version()).max().unwrap_or(JOURNAL_OLDEST_READABLE_VERSION);
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(self.records.len() as u64).to_le_bytes());
        for record in &self.records {
            let bytes = record.encode()?;
            // encode() bounds the body, so the length fits the u32 frame.
            out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            out.extend_from_slice(&bytes);
        }
        Ok(out)
    }

    /// Decodes and verifies a journal file; never panics, allocates at most what it reads.
    pub fn decode(bytes: &[u8]) -> Result<Journal> {
        let mut reader = Reader::new(bytes);
        reader.magic(JOURNAL_MAGIC, "journal")?;
        let version = reader.u32_le("journal version")?;
        if !(JOURNAL_OLDEST_READABLE_VERSION..=JOURNAL_FORMAT_VERSION).contains(&version) {
            return Err(DurableError::UnsupportedVersion {
                what: "journal",
                found: version,
                supported: JOURNAL_FORMAT_VERSION,
            });
        }
        let count = reader.u64_le("journal record count")?;
        let records = decode_frames(&mut reader, count)?;
        reader.finish("journal")?;
        Journal::from_records(records)
    }
}

/// Reads `count` length-prefixed records (u32 LE length, then the record).
pub(crate) fn decode_frames(reader: &mut Reader<'_>, count: u64) -> Result<Vec<CallRecord>> {
    // Each frame is at least 4 + 32 bytes, so never reserve more than the input can hold.
    let plausible = (reader.remaining() / 36) as u64;
    let mut records = Vec::with_capacity(count.min(plausible) as usize);
    for _ in 0..count {
        let len = reader.u32_le("journal record length")?;
        if len as usize > MAX_RECORD_BYTES {
            return Err(DurableError::LimitExceeded {
                what: "journal record",
                size: u64::from(len),
                limit: MAX_RECORD_BYTES as u64,
            });
        }
        let offset = reader.offset();
        let bytes = reader.take(u64::from(len), "journal record")?;
        records.push(CallRecord::decode_at(bytes, offset)?);
    }
    Ok(records)
}

/// Checks that `record` validly follows `previous` (whose completions are `completions`).
fn check_next(
    previous: &[CallRecord],
    completions: &BTreeMap<u64, u64>,
    record: &CallRecord,
) -> std::result::Result<(), String> {
    let expected_seq = previous.len() as u64;
    if record.seq != expected_seq {
        return Err(format!("expected seq {expected_seq}, found seq {}", record.seq));
    }
    let prev_hash = previous.last().map_or(GENESIS_HASH, |last| last.hash);
    if record.kind == RecordKind::Fork {
        check_fork(record, prev_hash)?;
    }
    if record.prev_hash != prev_hash {
        return Err("prev_hash does not match the previous record's hash".into());
    }
    let computed = record.compute_hash().map_err(|e| e.to_string())?;
    if computed != record.hash {
        return Err("record hash does not match its content".into());
    }
    if record.args_hash != args_hash(&record.args) {
        return Err("args_hash does not match the canonical args".into());
    }
    if let Some(parent) = record.parent_seq {
        if parent >= record.seq {
            return Err(format!("parent_seq {parent} is not an earlier record"));
        }
    }
    match (record.kind, &record.result) {
        (RecordKind::Intent(_), Some(_)) => return Err("an intent carries no result".into()),
        (RecordKind::Intent(_), None) => {}
        (_, None) => return Err(format!("a {} record needs a result", record.kind)),
        _ => {}
    }
    match record.kind {
        RecordKind::RunStart if record.seq != 0 => Err("run-start record after seq 0".into()),
        RecordKind::RunStart if record.run_start_info().is_none() => {
            Err("run-start result must be {seed, start_time_ms}".into())
        }
        RecordKind::Upgrade if !(record.args["from"].is_object() && record.args["to"].is_object()) => {
            Err("an upgrade record's args must be {from, to}".into())
        }
        RecordKind::FsRollback if record.parent_seq.is_some() || !record.args["changes"].is_u64() => {
            Err("an fs-rollback record has no parent and its args are {changes}".into())
        }
        RecordKind::Attempt => {
            let Some(intent_seq) = record.parent_seq else {
                return Err("an attempt needs parent_seq (its call's intent seq)".into());
            };
            let intent = usize::try_from(intent_seq).ok().and_then(|index| previous.get(index));
            if !matches!(intent, Some(i) if i.kind == RecordKind::Intent(OpKind::Call) && i.function == record.function)
            {
                return Err(format!("parent_seq {intent_seq} is not an intent of call {:?}", record.function));
            }
            if !matches!(record.result, Some(CallResult::Err(_))) || !record.args["attempt"].is_u64() {
                return Err("an attempt record's result is the attempt's error and its args name the attempt".into());
            }
            match completions.get(&intent_seq) {
                Some(earlier) => Err(format!("operation at seq {intent_seq} already completed at seq {earlier}")),
                None => Ok(()),
            }
        }
        RecordKind::Completion(op) => {
            let Some(intent_seq) = record.parent_seq else {
                return Err("a completion needs parent_seq (its intent's seq)".into());
            };
            let intent = usize::try_from(intent_seq).ok().and_then(|index| previous.get(index));
            match intent {
                Some(intent) if intent.kind == RecordKind::Intent(op) && intent.function == record.function => {}
                _ => {
                    return Err(format!(
                        "parent_seq {intent_seq} is not an intent of {} {:?}",
                        op.name(),
                        record.function
                    ))
                }
            }
            match completions.get(&intent_seq) {
                Some(earlier) => Err(format!("operation at seq {intent_seq} already completed at seq {earlier}")),
                None => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

/// A fork record names the parent's record it follows; that is the record before it, so a
/// parent prefix that was edited, even re-chained with fresh hashes, fails here, by name.
fn check_fork(record: &CallRecord, prev_hash: [u8; 32]) -> std::result::Result<(), String> {
    let Some((parent, seq, hash)) = record.fork_info() else {
        return Err("a fork record's args must be {parent, seq, hash}".into());
    };
    if seq + 1 != record.seq {
        return Err(format!(
            "the fork record names record {seq} of session {parent:?}, but follows record {}",
            record.seq.saturating_sub(1)
        ));
    }
    if hash != prev_hash || hash != record.prev_hash {
        return Err(format!(
            "the fork record names record {seq} of session {parent:?} with hash {}, but that record \
             now has hash {}: the parent's journal changed after the fork",
            crate::digest::to_hex(&hash),
            crate::digest::to_hex(&prev_hash)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;

/// The blobs `records` name, each once, in hash order: the sha256 of every file a `capture`
/// record (`fs.lstat`) found, and every network body stored as a blob (`{"blob": HEX, "size"}`
/// in a request's args or a read's result). What an export must carry for the session to run
/// elsewhere, and what blob collection keeps (docs/durability.md, "Blob collection").
pub fn named_blobs(records: &[CallRecord]) -> Vec<Digest> {
    let mut out = std::collections::BTreeSet::new();
    for record in records {
        record_blobs(record, &mut out);
    }
    out.into_iter().collect()
}

/// Adds the blobs one record names (see [`named_blobs`]) to `out`.
pub fn record_blobs(record: &CallRecord, out: &mut std::collections::BTreeSet<Digest>) {
    let result = match &record.result {
        Some(CallResult::Ok(value)) => Some(value),
        _ => None,
    };
    if record.kind == RecordKind::Capture && record.function == "fs.lstat" {
        if let Some(value) = result.filter(|v| v["type"] == "file") {
            if let Some(hash) = value["sha256"].as_str().and_then(crate::digest::from_hex32) {
                out.insert(Digest(hash));
            }
        }
    }
    // Network bodies over the inline limit (amber's `net`): the request body in the args, a
    // read chunk in the result. Any `"blob"` holding a hash is taken, wherever it sits: a
    // value kept that no record needs costs only space, a needed one missed loses data.
    named_in_json(&record.args, out);
    if let Some(value) = result {
        named_in_json(value, out);
    }
}

fn named_in_json(value: &serde_json::Value, out: &mut std::collections::BTreeSet<Digest>) {
    match value {
        serde_json::Value::Object(map) => {
            if let Some(hash) = map.get("blob").and_then(|b| b.as_str()).and_then(crate::digest::from_hex32) {
                out.insert(Digest(hash));
            }
            map.values().for_each(|v| named_in_json(v, out));
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| named_in_json(v, out)),
        _ => {}
    }
}
