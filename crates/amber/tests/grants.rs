//! Capability grants through the embedding API: complete mediation of `amber.call` by the
//! program manifest (denied, invalid args), approvals across a snapshot and restore, retry
//! attempts in the journal, and replays of each that do not diverge.
#![allow(clippy::unwrap_used)]

mod support;

use std::sync::Arc;

use amber::grants::Grants;
use amber::{Attempt, CallRecord, Journal, OpKind, Outcome, Program, Runtime, RuntimeBuilder};
use serde_json::json;
use support::{capture, take_output};

const START: u64 = 1_700_000_000_000;

const MANIFEST: &str = r#"{
  "host": {
    "search": { "args": { "type": "object", "required": ["q"],
                          "properties": { "q": { "type": "string", "minLength": 1 } } } },
    "pay": { "args": { "type": "object", "required": ["amount"] },
             "approve": { "when": { "/amount": { "gt": 100 } } } },
    "count": { "result": { "type": "integer" } }
  }
}"#;

fn grants(text: &str) -> Option<Arc<Grants>> {
    Some(Arc::new(Grants::from_text(text).unwrap()))
}

fn builder(manifest: &str) -> RuntimeBuilder {
    Runtime::builder()
        .print_hook(capture)
        .start_time_ms(START)
        .seed([3; 32])
        .wall_clock(|| START + 1_000)
        .grants(grants(manifest))
}

/// Each line the program prints: `name: outcome`.
const AGENT: &str = r#"
const report = (what, p) => p.then(
  (v) => console.log(`${what}: ok ${JSON.stringify(v)}`),
  (e) => console.log(`${what}: ${e.name} ${e.code} ${e.pointer ?? ""} ${e.message}`));
(async () => {
  const name = ["sea", "rch"].join("");
  await report("computed", amber.call("s" + "hell", { cmd: "rm -rf /" }));
  await report("empty", amber.call(name, { q: "" }));
  await report("missing", amber.call(name, {}));
  await report("small", amber.call("pay", { amount: 50 }));
  await report("large", amber.call("pay", { amount: 500 }));
  await report("large2", amber.call("pay", { amount: 900 }));
  await report("count", amber.call("count"));
})();
"#;

fn pending_kinds(outcome: &Outcome) -> Vec<(u64, OpKind, String)> {
    match outcome {
        Outcome::Suspended(ops) => ops.iter().map(|op| (op.id, op.kind, op.name.clone())).collect(),
        other => panic!("expected a suspension, got {other:?}"),
    }
}

/// Runs AGENT to its end: op ids follow the order the calls are issued in.
fn live_run() -> (Vec<CallRecord>, String) {
    let program = Program::script("agent.js", AGENT);
    let mut records = Vec::new();
    let mut runtime = builder(MANIFEST).build().unwrap();
    let first = runtime.run(&program).unwrap();
    // The refused calls journaled nothing; the first call out is the small payment.
    assert_eq!(pending_kinds(&first), vec![(1, OpKind::Call, "pay".into())]);
    runtime.resolve(1, json!("paid 50")).unwrap();
    let next = runtime.resume().unwrap();
    let Outcome::Suspended(ops) = &next else { panic!() };
    assert_eq!((ops[0].kind, ops[0].args["rule"].as_str()), (OpKind::Approval, Some("/amount gt 100")));
    assert_eq!(ops[0].args["args"], json!({ "amount": 500 }));
    // A gated call cannot be answered as if it had run.
    assert!(runtime.resolve(2, json!("paid")).unwrap_err().to_string().contains("approve or deny"));
    records.extend(runtime.take_records());

    // The approval waits across processes: image it, restore it, decide it.
    let image = runtime.snapshot().unwrap();
    let mut runtime = Runtime::restore(&image, builder(MANIFEST)).unwrap();
    runtime.approve(2, "alice@example.com").unwrap();
    let next = runtime.resume().unwrap();
    assert_eq!(pending_kinds(&next), vec![(3, OpKind::Call, "pay".into())]);
    runtime.resolve(3, json!("paid 500")).unwrap();
    let next = runtime.resume().unwrap();
    assert_eq!(pending_kinds(&next), vec![(4, OpKind::Approval, "pay".into())]);
    runtime.deny(4, "bob", "over the weekly limit").unwrap();
    let next = runtime.resume().unwrap();
    assert_eq!(pending_kinds(&next), vec![(5, OpKind::Call, "count".into())]);
    runtime.resolve(5, json!("three")).unwrap();
    assert_eq!(runtime.resume().unwrap(), Outcome::Completed(serde_json::Value::Null));
    records.extend(runtime.take_records());
    (records, take_output())
}

#[test]
fn the_manifest_mediates_every_call_and_replay_agrees() {
    let (records, output) = live_run();
    assert_eq!(
        output,
        "computed: Error ERR_AMBER_DENIED  amber.call(\"shell\"): the program manifest grants no host function \"shell\" (granted: count, pay, search)\n\
         empty: TypeError ERR_AMBER_INVALID_ARGS /q amber.call(\"search\"): args/q fails the manifest's schema: \"\" is shorter than 1 character\n\
         missing: TypeError ERR_AMBER_INVALID_ARGS  amber.call(\"search\"): the args fails the manifest's schema: \"q\" is a required property\n\
         small: ok \"paid 50\"\n\
         large: ok \"paid 500\"\n\
         large2: Error ERR_AMBER_NOT_APPROVED  amber.call(\"pay\") was not approved by bob: over the weekly limit\n\
         count: TypeError ERR_AMBER_INVALID_RESULT  amber.call(\"count\"): the result fails the manifest's schema: \"three\" is not of type \"integer\"\n"
    );
    // The journal: the approval's decision (who, when), then the approved call as its child.
    let approval = records.iter().find(|r| r.kind.to_string() == "approval-completion").unwrap();
    let decision = match &approval.result {
        Some(amber::CallResult::Ok(v)) => v.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        decision,
        json!({ "approved": true, "principal": "alice@example.com", "reason": null, "decided_at_ms": START + 1_000 })
    );
    let approved_call =
        records.iter().find(|r| r.parent_seq == approval.parent_seq && r.kind.to_string() == "call-intent");
    assert_eq!(approved_call.map(|r| r.function.as_str()), Some("pay"));
    assert!(!records.iter().any(|r| r.function == "shell" || r.function == "search"), "refused calls journal nothing");

    // Replay from the top, with every image gone: the same decisions, no divergence.
    let journal = Journal::from_records(records).unwrap();
    let mut replay = builder(MANIFEST).print_while_replaying(true).replay(&journal).unwrap();
    assert_eq!(replay.run(&Program::script("agent.js", AGENT)).unwrap(), Outcome::Completed(serde_json::Value::Null));
    assert_eq!(take_output(), output);
}

#[test]
fn a_restore_under_another_manifest_is_refused() {
    let program = Program::script("agent.js", AGENT);
    let mut runtime = builder(MANIFEST).build().unwrap();
    runtime.run(&program).unwrap();
    let image = runtime.snapshot().unwrap();
    let other = MANIFEST.replace("\"gt\": 100", "\"gt\": 1000");
    let refused = |b: RuntimeBuilder| Runtime::restore(&image, b).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(refused(builder(&other)).contains("another program manifest"), "{}", refused(builder(&other)));
    assert!(refused(builder(MANIFEST).grants(None)).contains("restore it with the same manifest"));
    assert!(Runtime::restore(&image, builder(MANIFEST)).is_ok());
    take_output();
}

#[test]
fn failed_attempts_are_journaled_and_replay_passes_over_them() {
    let program = Program::script("agent.js", r#"amber.call("search", { q: "x" }).then((v) => console.log(v));"#);
    let mut runtime = builder(MANIFEST).build().unwrap();
    let first = runtime.run(&program).unwrap();
    assert_eq!(pending_kinds(&first), vec![(1, OpKind::Call, "search".into())]);
    let attempt = |number, code: &str, backoff_ms| Attempt {
        number,
        code: Some(code.into()),
        error: "Error: flaky".into(),
        duration_ms: 30,
        backoff_ms,
    };
    runtime.record_attempt(1, &attempt(1, "exit:1", 200)).unwrap();
    runtime.record_attempt(1, &attempt(2, "timeout", 400)).unwrap();
    assert!(runtime.record_attempt(9, &attempt(1, "x", 1)).is_err());
    runtime.resolve_with_duration(1, amber::CallResult::Ok(json!("found")), 700).unwrap();
    assert_eq!(runtime.resume().unwrap(), Outcome::Completed(serde_json::Value::Null));
    let records = runtime.take_records();
    let kinds: Vec<String> = records.iter().map(|r| r.kind.to_string()).collect();
    assert_eq!(kinds, vec!["run-start", "call-intent", "attempt", "attempt", "call-completion"]);
    assert_eq!(records[3].args, json!({ "attempt": 2, "code": "timeout", "backoff_ms": 400 }));
    assert_eq!(take_output(), "found\n");
    let journal = Journal::from_records(records).unwrap();
    assert_eq!(Journal::decode(&journal.encode().unwrap()).unwrap().records().len(), 5);
    let mut replay = builder(MANIFEST).print_while_replaying(true).replay(&journal).unwrap();
    assert_eq!(replay.run(&program).unwrap(), Outcome::Completed(serde_json::Value::Null));
    assert_eq!(take_output(), "found\n");
}

#[test]
fn an_in_process_host_function_is_retried_by_its_policy() {
    let manifest =
        r#"{ "host": { "flaky": { "retry": { "max_attempts": 4, "backoff_ms": 1, "retry_on": ["E_BUSY"] } } } }"#;
    let mut calls = 0;
    let program = Program::script("agent.js", r#"amber.call("flaky", {}).then((v) => console.log("got", v));"#);
    let mut runtime = builder(manifest)
        .host_function("flaky", move |_| {
            calls += 1;
            if calls < 3 {
                Err("Error [E_BUSY]: try later".into())
            } else {
                Ok(json!(calls))
            }
        })
        .build()
        .unwrap();
    assert_eq!(runtime.run(&program).unwrap(), Outcome::Completed(serde_json::Value::Null));
    assert_eq!(take_output(), "got 3\n");
    let records = runtime.take_records();
    let codes: Vec<&serde_json::Value> =
        records.iter().filter(|r| r.kind.to_string() == "attempt").map(|r| &r.args["code"]).collect();
    assert_eq!(codes, vec![&json!("E_BUSY"), &json!("E_BUSY")]);
    // A code outside retry_on is not retried.
    let mut runtime = builder(manifest).host_function("flaky", |_| Err("Error [E_GONE]: no".into())).build().unwrap();
    let program =
        Program::script("agent.js", r#"amber.call("flaky", {}).catch((e) => console.log(e.code, e.message));"#);
    assert_eq!(runtime.run(&program).unwrap(), Outcome::Completed(serde_json::Value::Null));
    assert_eq!(take_output(), "E_GONE no\n");
    assert!(!runtime.take_records().iter().any(|r| r.kind.to_string() == "attempt"));
}

#[test]
fn a_hung_in_process_host_function_times_out_and_replay_agrees() {
    // `hang` never answers in time (manifest timeout_ms); `quick` runs beside it, on its own
    // thread, and `later` has no manifest limit, so the builder's default applies.
    let manifest = r#"{ "host": { "hang": { "timeout_ms": 100 }, "quick": {}, "later": {} } }"#;
    let agent = r#"
      const report = (what, p) => p.then((v) => console.log(what, "ok", v), (e) => console.log(what, e.code, e.message));
      Promise.all([report("hang", amber.call("hang", {})), report("quick", amber.call("quick", {}))])
        .then(() => report("later", amber.call("later", {})));
    "#;
    let program = Program::script("agent.js", agent);
    let sleeper = |ms: u64| {
        move |_: &amber::PendingOp| -> Result<serde_json::Value, String> {
            std::thread::sleep(std::time::Duration::from_millis(ms));
            Ok(json!(ms))
        }
    };
    let started = std::time::Instant::now();
    let mut runtime = builder(manifest)
        .host_function("hang", sleeper(5_000))
        .host_function("quick", sleeper(10))
        .host_function("later", sleeper(5_000))
        .host_timeout(Some(std::time::Duration::from_millis(150)))
        .build()
        .unwrap();
    assert_eq!(runtime.run(&program).unwrap(), Outcome::Completed(serde_json::Value::Null));
    let output = take_output();
    assert_eq!(
        output,
        "hang undefined host function \"hang\" timed out after 100 ms\n\
         quick ok 10\n\
         later undefined host function \"later\" timed out after 150 ms\n"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(3), "the run waited for a hung handler");
    // The rejections are journaled: a replay from the top calls no handler and agrees.
    let journal = Journal::from_records(runtime.take_records()).unwrap();
    let mut replay = builder(manifest).print_while_replaying(true).replay(&journal).unwrap();
    assert_eq!(replay.run(&program).unwrap(), Outcome::Completed(serde_json::Value::Null));
    assert_eq!(take_output(), output);
}
