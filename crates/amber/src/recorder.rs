//! The recorder: the runtime's view of the journal while JS runs.
//!
//! One type serves both directions. Records of an earlier run (a replay, or the tail after an
//! image) are *served*: each effect the program makes must match the next one by kind, name
//! and args hash, and the journal's result is used. Past their end the recorder goes *live*
//! and appends new records, chained from the same head — unless the replay is strict, where
//! going past the end is a divergence.
//!
//! Host functions are plain `fn` pointers (the heap holds no closures), so while JS runs the
//! recorder is parked in a thread-local slot ([`Active`]) where the `amber.*` natives find it.
//! The slot is a `Cell`: [`with_active`] takes the recorder out for a short, JS-free moment
//! and puts it back, so a nested use finds the slot empty instead of panicking.

use std::cell::Cell;
use std::collections::{BTreeMap, VecDeque};

use amber_durable::canonical_json::{args_hash, to_canonical_string};
use amber_durable::capability::CapabilityLedger;
use amber_durable::journal::{CallRecord, CallResult, JournalHead, RecordDraft, RecordKind};
use amber_engine::vm::PrintHook;

use crate::error::Error;

/// The runtime's journal state and everything the `amber.*` natives need.
#[derive(Default)]
pub(crate) struct Recorder {
    /// Records being served, starting at seq `replay_base`.
    replay: Vec<CallRecord>,
    replay_base: u64,
    /// Going past the served records is a divergence (`amber replay`).
    pub strict: bool,
    /// Length and last hash of the journal so far (served or appended).
    head: JournalHead,
    /// Records appended live and not yet taken by the embedder.
    fresh: Vec<CallRecord>,
    /// Where in the program the fresh records were made (`file:line:column`), by seq.
    fresh_locations: Vec<(u64, String)>,
    /// Surfaces touched, with first-touch seq.
    pub ledger: CapabilityLedger,
    /// `amber eval`: the state is a copy, and every effect is refused.
    pub sealed: bool,
    /// Nesting of live `amber.step` callbacks (host operations inside one throw).
    pub step_depth: u32,
    /// A divergence found inside a native: the run stops with it.
    pub fatal: Option<Error>,
    /// The embedder's output hook.
    pub print: Option<PrintHook>,
    /// Print program output while records are being served.
    pub print_while_replaying: bool,
    /// Logical issue time of each pending host operation, by op id.
    pub op_issue: BTreeMap<u64, f64>,
    /// Served lower-layer captures not yet asked for, by (function, canonical args). They
    /// are data rather than events: a capture made inside a step that replay skips is still
    /// there when the program later touches the same path (module docs of `lower.rs`).
    captures: BTreeMap<(String, String), VecDeque<CallRecord>>,
    /// What the network may reach (checked by `fetch` before anything is journaled).
    pub net_policy: crate::net::NetPolicy,
    /// The journaled args of each request whose body is not finished, by intent seq: what a
    /// re-send after a restore sends (rides the image in the runtime's state).
    pub net_requests: BTreeMap<u64, serde_json::Value>,
    /// Exchanges the program cancelled since the runtime last looked.
    pub net_cancels: Vec<u64>,
    /// HTTP bodies by hash (new ones for the embedder to store, old ones from its store).
    pub blobs: crate::blobs::Blobs,
    /// Values journaled records must not hold (see crate::secrets).
    pub secrets: crate::secrets::Secrets,
    /// The program manifest's grants, when the run has one (crate::gate).
    pub grants: Option<crate::grants::SharedGrants>,
}

impl Recorder {
    /// A recorder continuing the journal at `head` (a fresh run: the default head).
    pub fn at(head: JournalHead) -> Recorder {
        Recorder { head, replay_base: head.len, ..Recorder::default() }
    }

    /// Serve `records` (the whole journal) from the current head on.
    pub fn serve(&mut self, records: &[CallRecord], strict: bool) {
        let from = usize::try_from(self.head.len).unwrap_or(usize::MAX).min(records.len());
        self.replay = records[from..].to_vec();
        self.replay_base = self.head.len;
        self.strict = strict;
        self.pass_markers();
    }

    /// Steps over served fork and upgrade records at the head: they mark the journal's
    /// history and match nothing the program does (so "replaying" ends before a trailing one).
    fn pass_markers(&mut self) {
        while let Some(record) = self.peek().filter(|r| r.kind.is_marker()) {
            self.head = JournalHead::after(record);
        }
    }

    /// True while recorded effects remain to be served.
    pub fn replaying(&self) -> bool {
        self.head.len < self.replay_base + self.replay.len() as u64
    }

    /// True while program output should be suppressed.
    pub fn silent(&self) -> bool {
        (self.replaying() || self.strict) && !self.print_while_replaying
    }

    pub fn head(&self) -> JournalHead {
        self.head
    }

    /// The seq the next record gets.
    pub fn next_seq(&self) -> u64 {
        self.head.len
    }

    /// The next record to serve, if replaying.
    pub fn peek(&self) -> Option<&CallRecord> {
        let index = usize::try_from(self.head.len.checked_sub(self.replay_base)?).ok()?;
        self.replay.get(index)
    }

    /// Accept the served record at the head.
    fn consume(&mut self) -> Option<CallRecord> {
        let record = self.peek()?.clone();
        self.head = JournalHead::after(&record);
        self.pass_markers();
        Some(record)
    }

    /// Records appended live since the last call.
    pub fn take_fresh(&mut self) -> Vec<CallRecord> {
        std::mem::take(&mut self.fresh)
    }

    /// Where the records appended live since the last call were made.
    pub fn take_fresh_locations(&mut self) -> Vec<(u64, String)> {
        std::mem::take(&mut self.fresh_locations)
    }

    /// Expect-or-append: while replaying, the next record must match `draft` (kind, name,
    /// args hash and, for completions, the operation) and is returned; live, `draft` is
    /// appended and None returned. The record's seq comes first.
    pub fn record(&mut self, draft: RecordDraft, location: Option<&str>) -> Result<(u64, Option<CallRecord>), Error> {
        if self.sealed {
            return Err(Error::usage(format!(
                "{} is an effect, and effects are refused in amber eval (it evaluates on a copy of the state)",
                describe(draft.kind, &draft.function, &serde_json::Value::Null)
            )));
        }
        self.absorb_captures();
        let seq = self.head.len;
        if let Some(expected) = self.peek() {
            let matches = expected.kind == draft.kind
                && expected.function == draft.function
                && expected.args_hash == args_hash(&draft.args)
                && (!matches!(draft.kind, RecordKind::Completion(_)) || expected.parent_seq == draft.parent_seq);
            if !matches {
                return Err(Error::Divergence {
                    seq,
                    expected: describe(expected.kind, &expected.function, &expected.args),
                    actual: describe(draft.kind, &draft.function, &draft.args),
                    location: location.map(str::to_string),
                });
            }
            return Ok((seq, self.consume()));
        }
        if self.strict {
            return Err(Error::Divergence {
                seq,
                expected: "the end of the journal".into(),
                actual: describe(draft.kind, &draft.function, &draft.args),
                location: location.map(str::to_string),
            });
        }
        let record = CallRecord::chained(draft, seq, self.head.hash.0)?;
        self.head = JournalHead::after(&record);
        self.fresh.push(record);
        if let Some(location) = location.filter(|l| !l.is_empty() && !l.starts_with('<')) {
            self.fresh_locations.push((seq, location.to_string()));
        }
        Ok((seq, None))
    }

    /// Replaying: consumes and returns the next record if it is a completion (of whichever
    /// operation; the caller checks that operation is pending).
    pub fn take_completion(&mut self) -> Option<CallRecord> {
        self.absorb_captures();
        match self.peek() {
            Some(r) if matches!(r.kind, RecordKind::Completion(_)) => self.consume(),
            _ => None,
        }
    }
}

impl Recorder {
    /// Moves served capture records at the head into [`Recorder::captures`].
    fn absorb_captures(&mut self) {
        while let Some(record) = self.peek().filter(|r| r.kind == RecordKind::Capture) {
            let key = (record.function.clone(), to_canonical_string(&record.args));
            if let Some(record) = self.consume() {
                self.captures.entry(key).or_default().push_back(record);
            }
        }
    }

    /// The result the journal holds for a lower-layer capture, without serving it (an upgrade
    /// compares the new code's file with what the old code read).
    pub fn captured_result(&mut self, function: &str, args: &serde_json::Value) -> Option<serde_json::Value> {
        self.absorb_captures();
        let key = (function.to_string(), to_canonical_string(args));
        match self.captures.get(&key)?.front()?.result.as_ref()? {
            CallResult::Ok(value) => Some(value.clone()),
            CallResult::Err(_) => None,
        }
    }

    /// A lower-layer capture served from the journal: the record with the same function and
    /// args wherever it stood among the served records (None when there is none and the run is
    /// live: the caller reads the host and [`Recorder::record`]s the answer). Replaying, a
    /// capture the journal does not have means the program diverged: the error says how.
    pub fn served_capture(&mut self, draft: &RecordDraft, location: Option<&str>) -> Result<Option<CallRecord>, Error> {
        self.absorb_captures();
        let key = (draft.function.clone(), to_canonical_string(&draft.args));
        if let Some(record) = self.captures.get_mut(&key).and_then(VecDeque::pop_front) {
            return Ok(Some(record));
        }
        if self.replaying() || self.strict {
            return match self.record(draft.clone(), location) {
                Err(e) => Err(e),
                Ok((seq, _)) => Err(Error::Divergence {
                    seq,
                    expected: "another effect".into(),
                    actual: describe(draft.kind, &draft.function, &draft.args),
                    location: location.map(str::to_string),
                }),
            };
        }
        Ok(None)
    }
}

/// "call \"search\" with args {…}" (args cut at 200 bytes).
pub(crate) fn describe(kind: RecordKind, function: &str, args: &serde_json::Value) -> String {
    let what = amber_durable::journal::describe(kind, function);
    if args.is_null() {
        return what;
    }
    let mut text = to_canonical_string(args);
    if text.len() > 200 {
        let mut cut = 200;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push('…');
    }
    format!("{what} with args {text}")
}

/// A record's result as the runtime uses it.
pub(crate) fn result_of(record: &CallRecord) -> CallResult {
    record.result.clone().unwrap_or(CallResult::Ok(serde_json::Value::Null))
}

thread_local! {
    static ACTIVE: Cell<Option<Box<Recorder>>> = const { Cell::new(None) };
}

/// While alive, the recorder taken from `slot` is the thread's active recorder; dropping the
/// guard puts it back (and restores whatever was active before).
pub(crate) struct Active<'a> {
    slot: &'a mut Recorder,
    previous: Option<Box<Recorder>>,
}

impl<'a> Active<'a> {
    pub fn enter(slot: &'a mut Recorder) -> Active<'a> {
        let recorder = Box::new(std::mem::take(slot));
        let previous = ACTIVE.with(|a| a.replace(Some(recorder)));
        Active { slot, previous }
    }
}

impl Drop for Active<'_> {
    fn drop(&mut self) {
        let previous = self.previous.take();
        if let Some(recorder) = ACTIVE.with(|a| a.replace(previous)) {
            *self.slot = *recorder;
        }
    }
}

/// Runs `f` on the active recorder; None if there is none (no runtime is running JS on this
/// thread, or `f` itself asked).
pub(crate) fn with_active<R>(f: impl FnOnce(&mut Recorder) -> R) -> Option<R> {
    ACTIVE.with(|a| {
        let mut recorder = a.take()?;
        let out = f(&mut recorder);
        a.set(Some(recorder));
        Some(out)
    })
}

/// The VM's touch hook ([`amber_engine::vm::TouchHook`]): a surface's first touch is stamped
/// with the seq the journal is at as it happens (the next record's), so `FsRead`, `Random`
/// and `Clock` stand in the ledger in the order the program touched them, among the records
/// around them — the same in a live run and its replay, which serve the same records.
pub(crate) fn stamp_first_touch(_vm: &mut amber_engine::Vm, name: &str) {
    let Some(capability) = amber_durable::capability::Capability::from_name(name) else { return };
    with_active(|r| {
        let seq = r.next_seq();
        r.ledger.touch(capability, seq);
    });
}
