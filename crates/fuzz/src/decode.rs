//! `snapshot_decode`: hostile images and journals. A valid image and journal come from a seed
//! program; the fuzz input mutates them — the heap payload, the manifest, the framing, the
//! journal bytes, or the journal's records re-chained — and the image is re-sealed (sha256
//! recomputed) so that what gets fuzzed is the decoder and structural verifier behind the seal.
//! Then restore (or replay) and run briefly. Invariant: an error, never a panic, a hang or an
//! unbounded allocation; whatever restores runs within the limits the embedder sets.

use std::sync::OnceLock;

use amber::durable::digest::sha256;
use amber::durable::image::{decode_image, encode_image};
use amber::durable::journal::{CallResult, RecordDraft, RecordKind};
use amber::engine::vm::Stream;
use amber::engine::Vm;
use amber::{Journal, OpKind, Outcome, Program, Runtime, RuntimeBuilder};
use serde_json::{json, Value};

/// Fuel granted to whatever restores.
const FUEL: u64 = 50_000;
const HEAP: u64 = 64 << 20;
const START: u64 = 1_700_000_000_000;

/// The seed: a program with closures, classes, generators, collections, a pending timer and a
/// suspended async function, stopped on its second host call with a durable sleep pending.
pub const SEED_SOURCE: &str = r#"
class Box { #v; constructor(v) { this.#v = v; } get v() { return this.#v; } }
function* counter(n) { for (let i = 0; i < n; i++) yield i * 2; }
const shared = { list: [1, 2.5, "three", null, undefined, true], map: new Map([["k", new Set([1n, 2n])]]) };
shared.self = shared;
const re = /a(b+)c/gi; re.lastIndex = 1;
const view = new DataView(new ArrayBuffer(16)); view.setFloat64(0, Math.PI);
const sym = Symbol("tag");
shared[sym] = new WeakMap([[shared, new Box(new Date(0))]]);
setTimeout(() => console.log("timer", Date.now()), 5_000);
(async () => {
  const g = counter(4); g.next();
  const step = await amber.step("plan", () => [...counter(3)]);
  const first = await amber.call("search", { q: "amber", step });
  console.log("first", JSON.stringify(first), g.next().value, re.exec("xABBCx")?.[1]);
  const [second] = await Promise.all([amber.call("fetch", { url: "u" }), amber.sleep(10)]);
  const text = await amber.input("ok?");
  console.log("done", second, text, shared.list.length, view.getFloat64(0), new Box(3).v);
})();
"#;

struct Seed {
    image: Vec<u8>,
    journal: Vec<u8>,
}

fn seed() -> &'static Seed {
    static SEED: OnceLock<Seed> = OnceLock::new();
    SEED.get_or_init(|| {
        let mut rt = builder().build().expect("seed runtime builds");
        let program = Program::script("seed.js", SEED_SOURCE);
        let mut outcome = rt.run(&program).expect("seed runs");
        let mut records = Vec::new();
        // Answer the first call, stop on the second (with the sleep pending).
        if let Outcome::Suspended(ops) = &outcome {
            for op in ops {
                rt.resolve_with_duration(op.id, CallResult::Ok(json!({"hits": [1, "two"]})), 3).expect("resolve");
            }
            outcome = rt.resume().expect("seed resumes");
        }
        assert!(matches!(outcome, Outcome::Suspended(_)), "the seed suspends twice: {outcome:?}");
        records.extend(rt.take_records());
        let image = rt.snapshot().expect("seed images");
        let journal = Journal::from_records(records).expect("seed journal").encode().expect("journal encodes");
        Seed { image, journal }
    })
}

/// The seed image and encoded journal (the `session_store` target stores them).
pub(crate) fn seed_image_and_journal() -> (&'static [u8], &'static [u8]) {
    let seed = seed();
    (&seed.image, &seed.journal)
}

fn discard(_vm: &mut Vm, _stream: Stream, _text: &str) {}

pub(crate) fn builder() -> RuntimeBuilder {
    Runtime::builder()
        .print_hook(discard)
        .start_time_ms(START)
        .seed([9; 32])
        .wall_clock(|| START)
        .max_instructions(Some(FUEL))
        .max_heap_bytes(Some(HEAP))
}

/// Bytes in the seed image's heap payload (what mode 0's mutations address).
pub fn seed_payload_len() -> usize {
    decode_image(&seed().image, None).map_or(0, |(_, payload)| payload.len())
}

/// `snapshot_decode` on raw fuzz bytes: the first byte picks what is mutated.
pub fn run(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else { return };
    let seed = seed();
    match mode % 6 {
        0 | 1 => {
            // The heap payload, re-sealed.
            let Ok((manifest, mut payload)) = decode_image(&seed.image, None) else { return };
            mutate(&mut payload, rest);
            if let Ok(image) = encode_image(&manifest, &payload, None) {
                restore_and_run(&image, None);
            }
        }
        2 => {
            // Everything before the seal (framing, manifest, payload), re-sealed.
            let mut body = seed.image[..seed.image.len() - 32].to_vec();
            mutate(&mut body, rest);
            restore_and_run(&reseal(body), None);
        }
        3 => {
            // The fuzz input is the whole image body, sealed.
            restore_and_run(&reseal(rest.to_vec()), None);
        }
        4 => {
            // Journal bytes into the reader, then replay and restore-with-journal.
            let mut bytes = seed.journal.clone();
            mutate(&mut bytes, rest);
            if let Ok(journal) = Journal::decode(&bytes) {
                replay_and_restore(&journal);
            }
        }
        _ => {
            // Journal records edited, re-chained and re-hashed: replay must refuse or follow.
            if let Some(journal) = edit_records(&seed.journal, rest) {
                replay_and_restore(&journal);
            }
        }
    }
}

pub(crate) fn reseal(mut body: Vec<u8>) -> Vec<u8> {
    let seal = sha256(&body);
    body.extend_from_slice(&seal);
    body
}

/// Applies mutations from `ops` (5 bytes each: kind, 3-byte position, value) to `bytes`.
pub(crate) fn mutate(bytes: &mut Vec<u8>, ops: &[u8]) {
    for op in ops.chunks_exact(5).take(64) {
        if bytes.is_empty() {
            bytes.push(op[4]);
            continue;
        }
        let at = (usize::from(op[1]) | usize::from(op[2]) << 8 | usize::from(op[3]) << 16) % bytes.len();
        let v = op[4];
        match op[0] % 10 {
            0 => bytes[at] = v,
            1 => bytes[at] ^= 1 << (v % 8),
            2 => bytes.insert(at, v),
            3 => {
                bytes.remove(at);
            }
            4 => bytes[at] = bytes[at].wrapping_add(v),
            5 => {
                // A varint escape: a length or handle becomes large.
                let marker = [0xFB, 0xFC, 0xFD][usize::from(v % 3)];
                bytes[at] = marker;
            }
            6 => {
                let end = (at + usize::from(v) + 1).min(bytes.len());
                let chunk = bytes[at..end].to_vec();
                let to = (at + usize::from(v) * 7) % bytes.len();
                bytes.splice(to..to, chunk);
            }
            7 => bytes.truncate(at.max(1)),
            8 => {
                let end = (at + 4).min(bytes.len());
                for b in &mut bytes[at..end] {
                    *b = 0xFF;
                }
            }
            _ => {
                let end = (at + usize::from(v % 16) + 1).min(bytes.len());
                bytes.drain(at..end);
            }
        }
    }
}

/// Restores `image` (with `journal`) under the builder's limits (restore bounds the image's own
/// by them), answers what is pending and runs a little.
/// Whether `image` restores under image key `key` (and, if it does, runs as
/// [`restore_and_run`] runs it).
pub(crate) fn restore_with_key(image: &[u8], journal: Option<&Journal>, key: &[u8]) -> bool {
    let Ok(mut rt) = builder().image_key(key.to_vec()).restore(image, journal) else { return false };
    rt.vm_mut().stats.instructions = 0;
    let _ = rt.resume();
    crate::exec::check_limits(rt.vm(), &Ok(()));
    true
}

pub(crate) fn restore_and_run(image: &[u8], journal: Option<&Journal>) {
    let Ok(mut rt) = builder().restore(image, journal) else { return };
    rt.vm_mut().stats.instructions = 0;
    for _ in 0..4 {
        for op in rt.pending() {
            if op.kind == OpKind::Sleep {
                continue;
            }
            let _ = rt.resolve_with_duration(op.id, CallResult::Ok(json!(["answer", 1])), 1);
        }
        if let Some(due) = rt.next_sleep_due_ms() {
            rt.complete_due_sleeps(due);
        }
        match rt.resume() {
            Ok(Outcome::Suspended(_)) => {}
            _ => break,
        }
    }
    crate::exec::check_limits(rt.vm(), &Ok(()));
    // What restored and ran must image again.
    if !rt.replaying() {
        let _ = rt.snapshot();
    }
}

fn replay_and_restore(journal: &Journal) {
    if let Ok(mut rt) = builder().replay(journal) {
        let _ = rt.run(&Program::script("seed.js", SEED_SOURCE));
        crate::exec::check_limits(rt.vm(), &Ok(()));
    }
    restore_and_run(&seed().image, Some(journal));
}

/// The seed journal's records as drafts, edited by `ops` (4 bytes each: record, field, two
/// values), re-chained by appending; None if the journal refuses an edit.
fn edit_records(seed: &[u8], ops: &[u8]) -> Option<Journal> {
    let records = Journal::decode(seed).ok()?.records().to_vec();
    let mut drafts: Vec<RecordDraft> = records
        .into_iter()
        .map(|r| RecordDraft {
            parent_seq: r.parent_seq,
            kind: r.kind,
            function: r.function,
            args: r.args,
            result: r.result,
            duration_ms: r.duration_ms,
            timestamp: r.timestamp,
        })
        .collect();
    const NAMES: &[&str] = &["", "search", "fetch", "ok?", "plan", "step", "Date.now", "x"];
    const KINDS: &[RecordKind] = &[
        RecordKind::RunStart,
        RecordKind::Intent(OpKind::Call),
        RecordKind::Intent(OpKind::Input),
        RecordKind::Intent(OpKind::Sleep),
        RecordKind::Completion(OpKind::Call),
        RecordKind::Completion(OpKind::Input),
        RecordKind::Completion(OpKind::Sleep),
        RecordKind::Intent(OpKind::Http),
        RecordKind::Completion(OpKind::Http),
        RecordKind::Step,
        RecordKind::Clock,
        RecordKind::Random,
        // Markers: a mutated fork or upgrade record must be refused, never trusted.
        RecordKind::Fork,
        RecordKind::Upgrade,
        RecordKind::Attempt,
        RecordKind::FsRollback,
        RecordKind::Intent(OpKind::Approval),
        RecordKind::Completion(OpKind::Approval),
    ];
    for op in ops.chunks_exact(4).take(32) {
        if drafts.is_empty() {
            break;
        }
        let i = usize::from(op[0]) % drafts.len();
        let (a, b) = (op[2], op[3]);
        let d = &mut drafts[i];
        match op[1] % 12 {
            0 => d.kind = KINDS[usize::from(a) % KINDS.len()],
            1 => d.function = NAMES[usize::from(a) % NAMES.len()].to_string(),
            2 => d.parent_seq = if a == 0 { None } else { Some(u64::from(b)) },
            3 => d.duration_ms = u64::from(a) << (b % 64),
            4 => d.timestamp = u64::from(a) << (b % 64),
            5 => d.result = None,
            6 => d.result = Some(CallResult::Err(NAMES[usize::from(a) % NAMES.len()].to_string())),
            7 => d.result = Some(CallResult::Ok(answer_value(a, b))),
            8 => d.args = answer_value(a, b),
            9 => {
                drafts.remove(i);
            }
            10 => {
                let copy = drafts[i].clone();
                let to = usize::from(b) % (drafts.len() + 1);
                drafts.insert(to, copy);
            }
            _ => {
                let j = usize::from(b) % drafts.len();
                drafts.swap(i, j);
            }
        }
    }
    let mut journal = Journal::new();
    for d in drafts {
        journal.append(d).ok()?;
    }
    Some(journal)
}

fn answer_value(a: u8, b: u8) -> Value {
    match a % 8 {
        0 => Value::Null,
        1 => json!(b),
        2 => json!(f64::from(b) / 3.0),
        3 => json!("s".repeat(usize::from(b % 8))),
        4 => json!([a, b, [b]]),
        5 => json!({"seed": "00", "start_time_ms": b}),
        6 => json!({"seed": "ab".repeat(32), "start_time_ms": u64::from(b) << 40}),
        _ => json!({"hits": [b], "k": {"n": null}}),
    }
}
