//! `snapshot_roundtrip`: a generated program that waits on host operations (`amber.call`,
//! `amber.input`, `amber.sleep`, `amber.step`, timers) runs three ways with the same answers:
//! uninterrupted in one runtime; imaged at every suspension and restored into a fresh runtime
//! before the answers are delivered; and replayed from the first run's journal. Invariants: the
//! three agree on the output, the outcome and the journal; the first two end in
//! byte-identical images; and all three end in the same canonical state hash (a replay does not
//! run step functions, so its heap is laid out differently, but holds the same state).

use std::cell::Cell;

use amber::engine::vm::Stream;
use amber::engine::Vm;
use amber::{CallRecord, CallResult, Journal, OpKind, Outcome, PendingOp, Program, Runtime, RuntimeBuilder};
use arbitrary::{Arbitrary, Unstructured};
use serde_json::{json, Value};

use crate::gen::{self, Mode};

/// Fuel for the whole run (across restores).
const FUEL: u64 = 200_000;
/// Heap budget.
const HEAP: u64 = 64 << 20;
/// Suspensions served before the driver stops answering.
const MAX_ROUNDS: usize = 24;
const START: u64 = 1_700_000_000_000;

/// The fuzz input: a program and the host's answers.
#[derive(Arbitrary, Debug)]
pub struct Input {
    pub program: gen::Program,
    pub answers: Vec<Answer>,
}

/// What the host answers an operation with.
#[derive(Arbitrary, Debug, Clone)]
pub enum Answer {
    Null,
    Int(i32, u8),
    Str(u8, u8),
    List(Vec<i16>, u8),
    Object(u8, i32, u8),
    Reject(u8, u8),
}

impl Answer {
    fn result(&self) -> (CallResult, u64) {
        const WORDS: &[&str] = &["", "yes", "no", "TypeError: bad", "h\u{e9}llo", "\u{1F600}", "{\"a\":1}", "null"];
        let word = |i: &u8| WORDS[*i as usize % WORDS.len()].to_string();
        match self {
            Answer::Null => (CallResult::Ok(Value::Null), 0),
            Answer::Int(n, d) => (CallResult::Ok(json!(n)), u64::from(*d)),
            Answer::Str(s, d) => (CallResult::Ok(json!(word(s))), u64::from(*d)),
            Answer::List(items, d) => (CallResult::Ok(json!(items.iter().take(16).collect::<Vec<_>>())), u64::from(*d)),
            Answer::Object(k, v, d) => (CallResult::Ok(json!({ word(k): v, "n": [v, {"k": word(k)}] })), u64::from(*d)),
            Answer::Reject(m, d) => (CallResult::Err(word(m)), u64::from(*d)),
        }
    }
}

thread_local! {
    static OUT: Cell<String> = const { Cell::new(String::new()) };
}

fn capture(_vm: &mut Vm, stream: Stream, text: &str) {
    OUT.with(|o| {
        let mut out = o.take();
        if out.len() < 1 << 20 {
            if stream == Stream::Stderr {
                out.push_str("[err] ");
            }
            out.push_str(text);
            out.push('\n');
        }
        o.set(out);
    });
}

fn take_output() -> String {
    OUT.with(Cell::take)
}

fn builder() -> RuntimeBuilder {
    Runtime::builder()
        .print_hook(capture)
        .start_time_ms(START)
        .seed([7; 32])
        .wall_clock(|| START)
        .max_instructions(Some(FUEL))
        .max_heap_bytes(Some(HEAP))
}

/// How one way of running ended.
#[derive(Debug, PartialEq)]
struct Trace {
    /// The last outcome, or the error that stopped the run.
    end: String,
    output: String,
    records: Vec<CallRecord>,
    /// The image at the end, when the run can be imaged there.
    image: Option<Vec<u8>>,
    /// The canonical state hash at the end, likewise.
    hash: Option<String>,
}

/// `snapshot_roundtrip` on raw fuzz bytes.
pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(input) = Input::arbitrary(&mut u) else { return };
    check(&input);
}

/// The three ways agree on `input`.
pub fn check(input: &Input) {
    let source = gen::render(&input.program, Mode::Durable);
    let program = Program::script("fuzz.js", source.clone());
    take_output();
    let straight = drive(&program, input, false);
    let imaged = drive(&program, input, true);
    if let Err(e) = &imaged.end_result() {
        panic!("imaging at suspensions failed where the straight run did not: {e}\n{source}");
    }
    assert_eq!(straight.end, imaged.end, "outcome differs after image/restore\n{source}");
    assert_eq!(straight.output, imaged.output, "output differs after image/restore\n{source}");
    assert!(straight.records == imaged.records, "journal differs after image/restore\n{source}");
    assert!(straight.image == imaged.image, "final image differs after image/restore\n{source}");
    assert_eq!(straight.hash, imaged.hash, "final state hash differs after image/restore\n{source}");
    replay(&program, &straight, &source);
}

impl Trace {
    /// An imaging failure is a finding; anything else that ended a run is an outcome.
    fn end_result(&self) -> Result<(), &str> {
        if self.end.starts_with("image:") {
            Err(&self.end)
        } else {
            Ok(())
        }
    }
}

/// Runs `program`, answering every operation the same way; with `interrupt`, images and
/// restores the runtime at every suspension.
fn drive(program: &Program, input: &Input, interrupt: bool) -> Trace {
    let mut records = Vec::new();
    let mut rt = match builder().build() {
        Ok(rt) => rt,
        Err(e) => panic!("building a runtime failed: {e}"),
    };
    let mut outcome = rt.run(program);
    let mut rounds = 0;
    while let Ok(Outcome::Suspended(ops)) = &outcome {
        if rounds == MAX_ROUNDS {
            break;
        }
        rounds += 1;
        records.extend(rt.take_records());
        if interrupt {
            let image = match rt.snapshot() {
                Ok(image) => image,
                Err(e) => return Trace::failed(format!("image: snapshot at a suspension: {e}"), records),
            };
            rt = match Runtime::restore(&image, builder()) {
                Ok(rt) => rt,
                Err(e) => return Trace::failed(format!("image: restore at a suspension: {e}"), records),
            };
        }
        if let Err(e) = answer(&mut rt, ops, input) {
            panic!("delivering answers failed: {e}");
        }
        outcome = rt.resume();
    }
    records.extend(rt.take_records());
    let end = match &outcome {
        Ok(o) => format!("{o:?}"),
        Err(e) => format!("error: {e}"),
    };
    let image = if rt.replaying() { None } else { rt.snapshot().ok() };
    let hash = rt.state_hash().ok();
    Trace { end, output: take_output(), records, image, hash }
}

impl Trace {
    fn failed(end: String, records: Vec<CallRecord>) -> Trace {
        Trace { end, output: take_output(), records, image: None, hash: None }
    }
}

/// Answers calls and inputs from the input's answers (by seq); when only sleeps are pending,
/// wakes the earliest.
fn answer(rt: &mut Runtime, ops: &[PendingOp], input: &Input) -> amber::Result<()> {
    let mut answered = false;
    for op in ops {
        if op.kind == OpKind::Sleep {
            continue;
        }
        let (result, duration) = match input.answers.len() {
            0 => (CallResult::Ok(Value::Null), 1),
            n => input.answers[op.seq as usize % n].result(),
        };
        let result = match (op.kind, result) {
            (OpKind::Input, CallResult::Ok(v)) if !v.is_string() => CallResult::Ok(json!(v.to_string())),
            (_, r) => r,
        };
        rt.resolve_with_duration(op.id, result, duration)?;
        answered = true;
    }
    if !answered {
        if let Some(due) = ops.iter().filter_map(|op| op.due_time_ms).min() {
            rt.complete_due_sleeps(due);
        }
    }
    Ok(())
}

/// Replaying the straight run's journal from the top reproduces its outcome, output and state.
fn replay(program: &Program, straight: &Trace, source: &str) {
    if straight.end.starts_with("error:") {
        // A limit or a usage error ended the live run; the journal has no outcome to match.
        return;
    }
    let journal = match Journal::from_records(straight.records.clone()) {
        Ok(j) => j,
        Err(e) => panic!("the run's own journal does not verify: {e}\n{source}"),
    };
    let rt = builder().print_while_replaying(true).replay(&journal);
    let mut rt = match rt {
        Ok(rt) => rt,
        Err(e) => panic!("replay could not start: {e}"),
    };
    let outcome = rt.run(program);
    let end = match &outcome {
        Ok(o) => format!("{o:?}"),
        Err(e) => format!("error: {e}"),
    };
    let output = take_output();
    assert_eq!(straight.end, end, "replay outcome differs\n{source}");
    assert_eq!(straight.output, output, "replay output differs\n{source}");
    if outcome.is_ok() {
        assert_eq!(straight.hash, rt.state_hash().ok(), "replay state hash differs\n{source}");
    }
}
