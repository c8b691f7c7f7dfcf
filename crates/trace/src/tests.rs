#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use amber_durable::journal::{Attempt, CallResult, Journal, OpKind, RecordDraft};
use opentelemetry_proto::tonic::common::v1::any_value;
use opentelemetry_proto::tonic::trace::v1::Span;
use serde_json::json;

use crate::{encode_json, encode_protobuf, trace_request, Selection, Service, SessionTrace};

const SERVICE: Service = Service { name: "amber", version: "test" };

/// A journal with a retried call, an approved call, a denied approval, a step, a fetch whose
/// URL holds a secret with a body read, and a call still pending.
fn journal() -> Journal {
    let mut j = Journal::new();
    let mut add = |d: RecordDraft| j.append(d).unwrap().seq;
    add(RecordDraft::run_start(1_000, [7; 32]));
    let search = add(RecordDraft::intent(OpKind::Call, "search", json!({"q": "x"}), 1_000));
    let flaky = Attempt {
        number: 1,
        code: Some("timeout".into()),
        error: "timed out".into(),
        duration_ms: 50,
        backoff_ms: 200,
    };
    add(RecordDraft::attempt(search, "search", &flaky, 1_050));
    add(RecordDraft::completion(OpKind::Call, search, "search", CallResult::Ok(json!([1])), 300, 1_300));
    let approval = add(RecordDraft::intent(
        OpKind::Approval,
        "pay",
        json!({"call": "pay", "args": {"amount": 500}, "rule": "/amount gt 100"}),
        1_300,
    ));
    let decision = json!({"approved": true, "principal": "ops", "reason": null, "decided_at_ms": 99});
    add(RecordDraft::completion(OpKind::Approval, approval, "pay", CallResult::Ok(decision), 5_000, 6_300));
    let pay = add(RecordDraft::intent(OpKind::Call, "pay", json!({"amount": 500}), 6_300).with_parent(approval));
    add(RecordDraft::completion(OpKind::Call, pay, "pay", CallResult::Err("Error: card declined".into()), 10, 6_310));
    let denied = add(RecordDraft::intent(
        OpKind::Approval,
        "wire",
        json!({"call": "wire", "args": {}, "rule": "always"}),
        6_310,
    ));
    let no = json!({"approved": false, "principal": "ops", "reason": "no", "decided_at_ms": 100});
    add(RecordDraft::completion(OpKind::Approval, denied, "wire", CallResult::Ok(no), 1, 6_311));
    add(RecordDraft::step("parse", CallResult::Ok(json!(3)), 6_311));
    let url = json!(["https://api.example.com/v1?key=", {"$secret": "KEY"}]);
    let fetch = add(RecordDraft::intent(OpKind::Http, "fetch", json!({"method": "POST", "url": url}), 6_311));
    let head = json!({"status": 503, "statusText": "busy", "headers": [], "url": url, "redirected": false});
    add(RecordDraft::completion(OpKind::Http, fetch, "fetch", CallResult::Ok(head), 20, 6_331));
    let read = add(RecordDraft::intent(OpKind::Http, "fetch.read", json!({"request": fetch, "offset": 0}), 6_331));
    add(RecordDraft::completion(OpKind::Http, read, "fetch.read", CallResult::Ok(json!({"done": true})), 1, 6_332));
    add(RecordDraft::random("crypto", json!("00ff"), 6_332));
    add(RecordDraft::intent(OpKind::Call, "later", json!({}), 6_332));
    j
}

fn spans(journal: &Journal, selection: Selection) -> Vec<Span> {
    let session =
        SessionTrace { name: "s1", records: journal.records(), state: Some("waiting"), ledger: None, locations: None };
    let request = trace_request(&session, &SERVICE, selection);
    request.resource_spans.into_iter().flat_map(|r| r.scope_spans).flat_map(|s| s.spans).collect()
}

fn attr<'a>(span: &'a Span, key: &str) -> Option<&'a any_value::Value> {
    span.attributes.iter().find(|kv| kv.key == key).and_then(|kv| kv.value.as_ref()?.value.as_ref())
}

fn text(span: &Span, key: &str) -> String {
    match attr(span, key) {
        Some(any_value::Value::StringValue(s)) => s.clone(),
        other => panic!("{}: {key} is {other:?}", span.name),
    }
}

fn named<'a>(spans: &'a [Span], name: &str) -> &'a Span {
    spans.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no span {name}"))
}

#[test]
fn operations_nest_under_the_session_with_attempts_and_approvals_as_children() {
    let j = journal();
    let spans = spans(&j, Selection::All);
    let names: Vec<&str> = spans.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "session",
            "call search",
            "attempt 1",
            "approval pay",
            "call pay",
            "approval wire",
            "step parse",
            "POST",
            "fetch.read",
            "call later"
        ]
    );
    let root = &spans[0];
    assert!(root.parent_span_id.is_empty());
    assert!(spans.iter().all(|s| s.trace_id == root.trace_id));
    let ids: BTreeSet<&Vec<u8>> = spans.iter().map(|s| &s.span_id).collect();
    assert_eq!(ids.len(), spans.len(), "span ids are unique");

    let search = named(&spans, "call search");
    assert_eq!(search.parent_span_id, root.span_id);
    assert_eq!(named(&spans, "attempt 1").parent_span_id, search.span_id);
    assert_eq!(text(search, "amber.idempotency_key"), format!("s1:{}:1", text(root, "amber.run_id")));
    assert_eq!(text(search, "amber.op.outcome"), "ok");
    assert_eq!((search.start_time_unix_nano, search.end_time_unix_nano), (1_000_000_000, 1_300_000_000));
    assert_eq!(text(named(&spans, "attempt 1"), "error.type"), "timeout");

    // The approved call spans its approval, which is its child; the denied one stands alone.
    let pay = named(&spans, "call pay");
    let approval = named(&spans, "approval pay");
    assert_eq!(pay.parent_span_id, root.span_id);
    assert_eq!(approval.parent_span_id, pay.span_id);
    assert_eq!(pay.start_time_unix_nano, approval.start_time_unix_nano);
    assert_eq!(text(approval, "amber.approval.principal"), "ops");
    assert_eq!(text(approval, "amber.approval.rule"), "/amount gt 100");
    assert_eq!(pay.status.as_ref().unwrap().message, "Error: card declined");
    let wire = named(&spans, "approval wire");
    assert_eq!(wire.parent_span_id, root.span_id);
    assert_eq!(attr(wire, "amber.approval.approved"), Some(&any_value::Value::BoolValue(false)));

    // HTTP: named by method, the secret redacted, 5xx an error, the body read its child.
    let post = named(&spans, "POST");
    assert_eq!(text(post, "url.full"), "https://api.example.com/v1?key=REDACTED");
    assert_eq!(attr(post, "http.response.status_code"), Some(&any_value::Value::IntValue(503)));
    assert_eq!(post.status.as_ref().unwrap().code, 2);
    assert_eq!(named(&spans, "fetch.read").parent_span_id, post.span_id);

    assert_eq!(text(named(&spans, "call later"), "amber.op.outcome"), "pending");
    assert_eq!(attr(root, "amber.journal.random_draws"), Some(&any_value::Value::IntValue(1)));
    let json = encode_json(&trace_request(
        &SessionTrace { name: "s1", records: j.records(), state: None, ledger: None, locations: None },
        &SERVICE,
        Selection::All,
    ));
    assert!(!json.contains("00ff"), "randomness is never exported");
    assert!(!json.contains("\"q\""), "arguments appear only as their hash");
}

#[test]
fn the_same_journal_gives_the_same_bytes() {
    let j = journal();
    let session = SessionTrace { name: "s1", records: j.records(), state: None, ledger: None, locations: None };
    let a = trace_request(&session, &SERVICE, Selection::All);
    let b = trace_request(&session, &SERVICE, Selection::All);
    assert_eq!(encode_protobuf(&a), encode_protobuf(&b));
    assert_eq!(encode_json(&a), encode_json(&b));
    // Another session name is another trace.
    let other = SessionTrace { name: "s2", ..session };
    assert_ne!(
        trace_request(&other, &SERVICE, Selection::All).resource_spans[0].scope_spans[0].spans[0].trace_id,
        a.resource_spans[0].scope_spans[0].spans[0].trace_id
    );
}

#[test]
fn live_windows_export_every_closed_span_once() {
    let j = journal();
    let all: BTreeSet<Vec<u8>> =
        spans(&j, Selection::All).into_iter().filter(|s| s.name != "call later").map(|s| s.span_id).collect();
    let mut seen = Vec::new();
    let n = j.len() as u64;
    // The journal grows in uneven slices; the last window finishes the session.
    let cuts = [0, 3, 4, 9, 12, n];
    for pair in cuts.windows(2) {
        let prefix = Journal::from_records(j.records()[..pair[1] as usize].to_vec()).unwrap();
        let window = Selection::Closed { from: pair[0], finished: pair[1] == n };
        seen.extend(spans(&prefix, window).into_iter().map(|s| s.span_id));
    }
    let unique: BTreeSet<Vec<u8>> = seen.iter().cloned().collect();
    assert_eq!(unique.len(), seen.len(), "no span is sent twice");
    assert_eq!(unique, all, "every complete span is sent");
}

#[test]
fn an_empty_journal_has_no_spans() {
    let session = SessionTrace { name: "s", records: &[], state: None, ledger: None, locations: None };
    let request = trace_request(&session, &SERVICE, Selection::All);
    assert!(request.resource_spans[0].scope_spans[0].spans.is_empty());
}

#[test]
fn spans_carry_the_program_location_of_their_record() {
    let j = journal();
    let locations: std::collections::BTreeMap<u64, String> =
        [(1, "/agent/main.js:3:22".to_string()), (10, "odd".to_string())].into_iter().collect();
    let session =
        SessionTrace { name: "s1", records: j.records(), state: None, ledger: None, locations: Some(&locations) };
    let request = trace_request(&session, &SERVICE, Selection::All);
    let spans: Vec<Span> =
        request.resource_spans.into_iter().flat_map(|r| r.scope_spans).flat_map(|s| s.spans).collect();
    let search = named(&spans, "call search");
    assert_eq!(text(search, "code.file.path"), "/agent/main.js");
    assert_eq!(attr(search, "code.line.number"), Some(&any_value::Value::IntValue(3)));
    assert_eq!(attr(search, "code.column.number"), Some(&any_value::Value::IntValue(22)));
    assert_eq!(text(named(&spans, "step parse"), "code.file.path"), "odd");
    assert!(attr(named(&spans, "call pay"), "code.file.path").is_none());
}

#[test]
fn host_spans_join_the_session_trace_under_its_root() {
    let j = journal();
    let spans = spans(&j, Selection::All);
    let root = &spans[0];
    let run_id = text(root, "amber.run_id");
    let host = crate::HostSpan {
        name: "amber.slice".into(),
        session: "s1".into(),
        run_id,
        span_id: crate::host_span_id(1, 2, 3),
        parent: None,
        start_unix_nano: 10,
        end_unix_nano: 20,
        attributes: vec![("amber.worker".into(), "0".into())],
    };
    let bad = crate::HostSpan { run_id: "zz".into(), ..host.clone() };
    let request = crate::host_spans_request(&[host, bad], &SERVICE);
    let out: Vec<Span> = request.resource_spans.into_iter().flat_map(|r| r.scope_spans).flat_map(|s| s.spans).collect();
    assert_eq!(out.len(), 1, "a span without a readable run id is left out");
    assert_eq!(out[0].trace_id, root.trace_id);
    assert_eq!(out[0].parent_span_id, root.span_id);
    assert_eq!(text(&out[0], "amber.worker"), "0");
}
