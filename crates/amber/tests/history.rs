//! `amber::history` through the embedding API: a timeline, a runtime right after any record
//! (fork), evaluation on a sealed copy, and the strict replay that moves a run to new code.
#![allow(clippy::unwrap_used)]

mod support;

use std::collections::BTreeMap;

use amber::durable::digest::Digest;
use amber::history::{eval_sealed, fork_journal, journal_prefix, open_at, open_frozen_at, timeline, upgrade};
use amber::{CallRecord, Error, Journal, Outcome, Program, Runtime, RuntimeBuilder};
use serde_json::json;
use support::capture;

const START: u64 = 1_700_000_000_000;

fn builder() -> RuntimeBuilder {
    Runtime::builder().print_hook(capture).start_time_ms(START).seed([7; 32]).wall_clock(|| START + 5_000)
}

const AGENT: &str = r#"
globalThis.seen = [];
(async () => {
  const a = await amber.call("tool", { q: 1 });
  seen.push(a);
  const b = await amber.call("tool", { q: 2 });
  seen.push(b);
  globalThis.total = a + b;
})();
"#;

/// The session after op 1 was answered with 3: waiting on op 2. (journal, image)
fn session() -> (Journal, Vec<u8>) {
    let mut runtime = builder().build().unwrap();
    let mut records: Vec<CallRecord> = Vec::new();
    assert!(matches!(runtime.run(&Program::script("agent.js", AGENT)).unwrap(), Outcome::Suspended(_)));
    runtime.resolve(1, json!(3)).unwrap();
    assert!(matches!(runtime.resume().unwrap(), Outcome::Suspended(_)));
    records.extend(runtime.take_records());
    let image = runtime.snapshot().unwrap();
    (Journal::from_records(records).unwrap(), image)
}

#[test]
fn the_timeline_folds_each_completion_into_its_operation() {
    let (journal, _) = session();
    let entries = timeline(&journal, &std::collections::BTreeMap::from([(3, "agent.js:4:9".to_string())]));
    let summary: Vec<(u64, &str, Option<u64>, Option<u64>)> =
        entries.iter().map(|e| (e.seq, e.kind.as_str(), e.op_id, e.completed_seq)).collect();
    assert_eq!(summary, vec![(0, "run-start", None, None), (1, "call", Some(1), Some(2)), (3, "call", Some(2), None)]);
    assert_eq!(entries[1].to_json()["result"], json!({"ok": 3}));
    assert_eq!(entries[2].to_json()["pending"], json!(true));
    assert_eq!((entries[1].location.as_deref(), entries[2].location.as_deref()), (None, Some("agent.js:4:9")));
}

#[test]
fn a_fork_in_the_middle_waits_again_and_finishes_with_another_answer() {
    let program = Program::script("agent.js", AGENT);
    let (journal, image) = session();
    let forked = fork_journal("p", &journal, 1).unwrap();
    assert_eq!(forked.len(), 3);
    assert_eq!(forked.get(2).unwrap().fork_info(), Some(("p", 1, journal.get(1).unwrap().hash)));
    // The image was taken after seq 3, so the fork replays from the top.
    let (mut runtime, outcome) = open_at(builder(), &forked, Some(&image), &program).unwrap();
    let Outcome::Suspended(pending) = outcome.unwrap() else { panic!() };
    assert_eq!(pending.iter().map(|op| op.seq).collect::<Vec<_>>(), vec![1]);
    runtime.resolve(1, json!(10)).unwrap();
    runtime.resume().unwrap();
    runtime.resolve(2, json!(20)).unwrap();
    assert!(matches!(runtime.resume().unwrap(), Outcome::Completed(_)));
    assert_eq!(eval_sealed(&mut runtime, "total").unwrap().unwrap(), "30");
    // Its records follow the fork record, and the whole replays.
    let mut records = forked.records().to_vec();
    records.extend(runtime.take_records());
    let whole = Journal::from_records(records).unwrap();
    let mut replay = builder().replay(&whole).unwrap();
    assert!(matches!(replay.run(&program).unwrap(), Outcome::Completed(_)));

    // At the frontier, from the image: the same operation is pending.
    let at_end = fork_journal("p", &journal, 3).unwrap();
    let (_, outcome) = open_at(builder(), &at_end, Some(&image), &program).unwrap();
    let Outcome::Suspended(pending) = outcome.unwrap() else { panic!() };
    assert_eq!(pending.iter().map(|op| op.seq).collect::<Vec<_>>(), vec![3]);
    assert!(matches!(fork_journal("p", &journal, 9), Err(Error::Usage(_))));
}

#[test]
fn eval_on_a_sealed_copy_reads_state_and_refuses_effects() {
    let program = Program::script("agent.js", AGENT);
    let (journal, image) = session();
    let (mut runtime, _) = open_at(builder(), &journal, Some(&image), &program).unwrap();
    assert_eq!(eval_sealed(&mut runtime, "seen").unwrap().unwrap(), "[ 3 ]");
    let refused = eval_sealed(&mut runtime, "amber.call('x', {})").unwrap().unwrap_err().to_string();
    assert!(refused.contains("TypeError: amber.call cannot be used in amber eval"), "{refused}");
    assert!(runtime.take_records().is_empty(), "nothing was journaled");
    let prefix = journal_prefix(&journal, 1).unwrap();
    let mut early = open_frozen_at(builder(), &prefix, Some(&image), &program).unwrap();
    assert_eq!(eval_sealed(&mut early, "seen.length").unwrap().unwrap(), "0");
}

#[test]
fn upgrade_replays_new_code_and_appends_its_record_or_reports_the_divergence() {
    let (journal, _) = session();
    let from = BTreeMap::from([("agent.js".to_string(), Digest::of(AGENT.as_bytes()))]);
    let fixed = AGENT.replace("a + b", "a * b");
    let mut runtime =
        upgrade(builder(), &journal, &Program::script("agent.js", fixed.as_str()), &from).unwrap().runtime;
    let image = runtime.snapshot().unwrap();
    let records = runtime.take_records();
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].seq, 4);
    assert_eq!(records[0].args["to"]["agent.js"], json!(Digest::of(fixed.as_bytes()).to_string()));
    let mut all = journal.records().to_vec();
    all.extend(records);
    let upgraded = Journal::from_records(all).unwrap();
    let mut resumed = builder().restore(&image, Some(&upgraded)).unwrap();
    resumed.resolve(2, json!(4)).unwrap();
    assert!(matches!(resumed.resume().unwrap(), Outcome::Completed(_)));
    assert_eq!(eval_sealed(&mut resumed, "total").unwrap().unwrap(), "12");

    let diverging = AGENT.replace("{ q: 2 }", "{ q: 5 }");
    let err = upgrade(builder(), &journal, &Program::script("agent.js", diverging.as_str()), &from).err().unwrap();
    let Error::Divergence { seq, expected, actual, location } = err else { panic!("{err}") };
    assert_eq!(seq, 3);
    assert!(expected.contains("{\"q\":2}") && actual.contains("{\"q\":5}"), "{expected} / {actual}");
    assert_eq!(location.as_deref().map(|l| l.starts_with("agent.js:6:")), Some(true), "{location:?}");
    // Code that stops waiting (it completes without the second call) diverges at the end.
    let shorter = AGENT.replace("const b = await amber.call(\"tool\", { q: 2 });", "const b = 0;");
    let err = upgrade(builder(), &journal, &Program::script("agent.js", shorter.as_str()), &from).err().unwrap();
    assert!(matches!(err, Error::Divergence { seq: 3, .. }), "{err}");
}
