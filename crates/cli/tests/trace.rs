//! `amber trace` (docs/tracing.md): a session with a step, calls, a call retried until its
//! third attempt and a call gated on an approval decided in a later process, exported to an
//! OTLP/HTTP receiver on the loopback interface (the span tree and attributes checked) and
//! written as OTLP JSON (compared with `tests/trace/session.otlp.json`, times and wall
//! durations normalized; `AMBER_UPDATE_EXPECTED=1` rewrites it after a reviewed change).
#![allow(clippy::unwrap_used)]

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use serde_json::Value;
use support::http_server::{Reply, TestServer};
use support::{expect, Sandbox};

const MANIFEST: &str = r#"{ "host": {
    "search": { "args": { "type": "object", "required": ["q"] } },
    "flaky": { "retry": { "max_attempts": 3, "backoff_ms": 20 } },
    "pay": { "args": { "type": "object", "required": ["amount"] },
             "approve": { "when": { "/amount": { "gt": 100 } } } } } }"#;

const AGENT: &str = r#"(async () => {
  const n = await amber.step("plan", () => 2);
  console.log("hits", await amber.call("search", { q: "amber", n }));
  console.log("flaky", await amber.call("flaky", {}));
  console.log("paid", await amber.call("pay", { amount: 500 }));
})();"#;

/// Runs the agent to its end in two processes; the session is "s".
fn session(sb: &Sandbox) {
    sb.write("agent/amber.json", MANIFEST);
    let agent = sb.write("agent/main.js", AGENT);
    let count = sb.dir.join("attempts");
    let flaky = format!(
        "flaky=echo x >> {c}; n=$(wc -l < {c}); if [ $n -lt 3 ]; then echo down >&2; exit 1; fi; echo $n",
        c = count.display()
    );
    let seed = "07".repeat(32);
    let out = sb.amber(&[
        "run",
        &agent,
        "--session",
        "s",
        "--seed",
        &seed,
        "--start-time",
        "1700000000000",
        "--host",
        "search=echo [1]",
        "--host",
        &flaky,
    ]);
    expect(&out, 75);
    assert_eq!(out.stdout, "hits [ 1 ]\nflaky 3\n");
    let out = sb.amber(&["resume", "s", "--approve", "3", "--principal", "alice", "--host", "pay=echo true"]);
    expect(&out, 0);
    assert_eq!(out.stdout, "paid true\n");
}

fn attr(span: &Span, key: &str) -> Option<Any> {
    span.attributes.iter().find(|kv| kv.key == key).and_then(|kv| kv.value.clone()?.value)
}

#[test]
fn a_session_is_exported_to_an_otlp_receiver_as_one_span_tree() {
    let sb = Sandbox::new("trace-otlp");
    session(&sb);
    let receiver = TestServer::start(|_, _| Reply::Full(200, vec![], Vec::new()));
    let out = sb.amber(&["trace", "s", "--otlp", &receiver.url("")]);
    expect(&out, 0);
    assert!(out.stderr.contains("sent 8 spans of session s"), "{}", out.stderr);
    let seen = receiver.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!((seen[0].method.as_str(), seen[0].path.as_str()), ("POST", "/v1/traces"));
    assert_eq!(seen[0].header("content-type"), Some("application/x-protobuf"));
    let request = ExportTraceServiceRequest::decode(&seen[0].body[..]).unwrap();
    let spans: Vec<Span> =
        request.resource_spans.into_iter().flat_map(|r| r.scope_spans).flat_map(|s| s.spans).collect();

    // name → (parent's name, span); one trace.
    let by_id: BTreeMap<Vec<u8>, &str> = spans.iter().map(|s| (s.span_id.clone(), s.name.as_str())).collect();
    let tree: Vec<(&str, &str)> =
        spans.iter().map(|s| (s.name.as_str(), by_id.get(&s.parent_span_id).copied().unwrap_or("-"))).collect();
    assert_eq!(
        tree,
        [
            ("session", "-"),
            ("step plan", "session"),
            ("call search", "session"),
            ("call flaky", "session"),
            ("attempt 1", "call flaky"),
            ("attempt 2", "call flaky"),
            ("approval pay", "call pay"),
            ("call pay", "session"),
        ]
    );
    assert!(spans.iter().all(|s| s.trace_id == spans[0].trace_id));

    let span = |name: &str| spans.iter().find(|s| s.name == name).unwrap();
    let run_id = match attr(span("session"), "amber.run_id") {
        Some(Any::StringValue(id)) => id,
        other => panic!("run id {other:?}"),
    };
    assert_eq!(attr(span("call flaky"), "amber.idempotency_key"), Some(Any::StringValue(format!("s:{run_id}:4"))));
    assert_eq!(attr(span("attempt 2"), "amber.attempt"), Some(Any::IntValue(2)));
    assert_eq!(attr(span("attempt 1"), "error.type"), Some(Any::StringValue("exit:1".into())));
    assert_eq!(span("attempt 1").status.as_ref().unwrap().message, "down");
    // Attempts follow each other inside their call.
    let (a1, a2, call) = (span("attempt 1"), span("attempt 2"), span("call flaky"));
    assert!(call.start_time_unix_nano <= a1.start_time_unix_nano);
    assert!(a1.end_time_unix_nano <= a2.start_time_unix_nano);
    assert!(a2.end_time_unix_nano <= call.end_time_unix_nano);
    let approval = span("approval pay");
    assert_eq!(attr(approval, "amber.approval.principal"), Some(Any::StringValue("alice".into())));
    assert_eq!(attr(approval, "amber.approval.approved"), Some(Any::BoolValue(true)));
    assert_eq!(attr(approval, "amber.approval.rule"), Some(Any::StringValue("/amount gt 100".into())));
    assert_eq!(span("call pay").start_time_unix_nano, approval.start_time_unix_nano);
    assert_eq!(attr(span("step plan"), "amber.op.outcome"), Some(Any::StringValue("ok".into())));
    // Where in the program each operation was asked for.
    assert_eq!(attr(span("call search"), "code.line.number"), Some(Any::IntValue(3)));
    assert_eq!(attr(span("call pay"), "code.line.number"), Some(Any::IntValue(5)));
    assert!(
        matches!(attr(span("call search"), "code.file.path"), Some(Any::StringValue(p)) if p.ends_with("agent/main.js"))
    );
    assert_eq!(attr(span("session"), "amber.session.state"), Some(Any::StringValue("completed".into())));
}

#[test]
fn the_otlp_json_file_matches_the_expected_trace() {
    let sb = Sandbox::new("trace-json");
    session(&sb);
    let file = sb.dir.join("s.otlp.json");
    let out = sb.amber(&["trace", "s", "--format", "otlp-json", "-o", file.to_str().unwrap()]);
    expect(&out, 0);
    let written = std::fs::read_to_string(&file).unwrap();
    // The same journal gives the same bytes.
    let out = sb.amber(&["trace", "s"]);
    assert_eq!(out.stdout, written);

    let mut value: Value = serde_json::from_str(&written).unwrap();
    normalize(&mut value);
    let actual = serde_json::to_string_pretty(&value).unwrap() + "\n";
    let expected_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/trace/session.otlp.json");
    if std::env::var_os("AMBER_UPDATE_EXPECTED").is_some() {
        std::fs::write(&expected_path, &actual).unwrap();
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap();
    assert_eq!(actual, expected, "the trace differs from {}", expected_path.display());
}

#[test]
fn a_bad_collector_is_a_clear_error() {
    let sb = Sandbox::new("trace-errors");
    session(&sb);
    let out = sb.amber(&["trace", "s", "--otlp", "ftp://example.com"]);
    expect(&out, 2);
    assert!(out.stderr.contains("is not an http:// or https:// URL"), "{}", out.stderr);
    let refusing = TestServer::start(|_, _| Reply::text(503, "overloaded"));
    let out = sb.amber(&["trace", "s", "--otlp", &refusing.url("/v1/traces")]);
    expect(&out, 2);
    assert!(out.stderr.contains("the collector answered 503: overloaded"), "{}", out.stderr);
    let out = sb.amber(&["trace", "nobody"]);
    expect(&out, 2);
}

/// Wall-clock values (span and event times follow the hosts' durations) and what depends on
/// them (the journal head hash), the engine version and the sandbox's path become
/// placeholders.
fn normalize(value: &mut Value) {
    const WALL: [&str; 5] = [
        "amber.duration_ms",
        "amber.approval.decided_at_ms",
        "amber.journal.head",
        "service.version",
        "code.file.path",
    ];
    match value {
        Value::Object(map) => {
            let wall = map.get("key").and_then(Value::as_str).is_some_and(|k| WALL.contains(&k));
            for (key, v) in map.iter_mut() {
                if key.ends_with("UnixNano") || (wall && key == "value") {
                    *v = Value::String("<normalized>".into());
                } else {
                    normalize(v);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(normalize),
        _ => {}
    }
}
