//! Journal records → OTLP spans (docs/tracing.md has the mapping a reader sees).
//!
//! One root span per session (run start → last record); one span per host operation, from
//! its intent to its completion; a retried call's failed attempts and an approval that gated
//! it are the call's child spans; a step is a span at the time it was memoized. Fork,
//! upgrade and first-use-of-a-capability markers are events on the root span. Clock, random
//! and lower-layer reads are counted on the root span, not exported one by one: there can be
//! thousands, and their values (randomness above all) are not for a trace.

use std::collections::BTreeMap;

use amber_durable::capability::Capability;
use amber_durable::digest::to_hex;
use amber_durable::journal::{idempotency_key, run_id, CallRecord, CallResult, OpKind, RecordKind};
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{any_value, AnyValue, InstrumentationScope, KeyValue};
use opentelemetry_proto::tonic::resource::v1::Resource;
use opentelemetry_proto::tonic::trace::v1::span::{Event, Link, SpanKind};
use opentelemetry_proto::tonic::trace::v1::status::StatusCode;
use opentelemetry_proto::tonic::trace::v1::{ResourceSpans, ScopeSpans, Span, Status};
use serde_json::Value;

use crate::ids::{span_id, trace_id};
use crate::{Selection, Service, SessionTrace};

/// The instrumentation scope every span is reported under.
const SCOPE: &str = "amber";
/// An error message longer than this is cut (collectors limit attribute and status sizes).
const MAX_MESSAGE_CHARS: usize = 1024;

pub(crate) fn request(session: &SessionTrace, service: &Service, selection: Selection) -> ExportTraceServiceRequest {
    let spans = match session.records.first().and_then(CallRecord::run_start_info) {
        Some((start, seed)) => Trace::new(session, run_id(start, &seed)).spans(selection),
        None => Vec::new(),
    };
    wrap(spans, service)
}

/// `spans` as one export request: one resource (the service), one scope.
pub(crate) fn wrap(spans: Vec<Span>, service: &Service) -> ExportTraceServiceRequest {
    let resource = Resource {
        attributes: vec![kv("service.name", string(service.name)), kv("service.version", string(service.version))],
        ..Default::default()
    };
    let scope =
        InstrumentationScope { name: SCOPE.into(), version: env!("CARGO_PKG_VERSION").into(), ..Default::default() };
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            resource: Some(resource),
            scope_spans: vec![ScopeSpans { scope: Some(scope), spans, schema_url: String::new() }],
            schema_url: String::new(),
        }],
    }
}

struct Trace<'a> {
    session: &'a SessionTrace<'a>,
    trace: [u8; 16],
    run_id: String,
    /// Completion records by their intent's seq.
    completions: BTreeMap<u64, &'a CallRecord>,
    /// Intent records by seq.
    intents: BTreeMap<u64, &'a CallRecord>,
    /// An approved call's intent by its approval's seq.
    gated: BTreeMap<u64, &'a CallRecord>,
    /// The logical time of the journal's last record: where the root span and pending
    /// operations end.
    end_ms: u64,
}

/// A span being built, with the journal position that closes it.
struct Built {
    span: Span,
    /// The record whose writing completed the span (a completion, a step, an attempt);
    /// None while an operation is pending.
    closed_at: Option<u64>,
}

impl<'a> Trace<'a> {
    fn new(session: &'a SessionTrace<'a>, run_id: [u8; 8]) -> Trace<'a> {
        let mut completions = BTreeMap::new();
        let mut intents = BTreeMap::new();
        for record in session.records {
            match record.kind {
                RecordKind::Completion(_) => {
                    if let Some(intent) = record.parent_seq {
                        completions.insert(intent, record);
                    }
                }
                RecordKind::Intent(_) => {
                    intents.insert(record.seq, record);
                }
                _ => {}
            }
        }
        let gated = intents
            .values()
            .filter(|r| r.kind == RecordKind::Intent(OpKind::Call))
            .filter_map(|&call| {
                let approval = intents.get(&call.parent_seq?)?;
                (approval.kind == RecordKind::Intent(OpKind::Approval)).then_some((approval.seq, call))
            })
            .collect();
        let end_ms = session.records.iter().map(|r| r.timestamp).max().unwrap_or(0);
        Trace {
            session,
            trace: trace_id(session.name, &run_id),
            run_id: to_hex(&run_id),
            completions,
            intents,
            gated,
            end_ms,
        }
    }

    fn spans(&self, selection: Selection) -> Vec<Span> {
        let mut built = Vec::new();
        for record in self.session.records {
            match record.kind {
                RecordKind::Intent(op) => built.push(self.operation(record, op)),
                RecordKind::Attempt => built.push(self.attempt(record)),
                RecordKind::Step => built.push(self.step(record)),
                _ => {}
            }
        }
        let mut spans: Vec<Span> = built
            .into_iter()
            .filter(|b| match selection {
                Selection::All => true,
                Selection::Closed { from, .. } => b.closed_at.is_some_and(|at| at >= from),
            })
            .map(|b| b.span)
            .collect();
        if matches!(selection, Selection::All | Selection::Closed { finished: true, .. }) {
            spans.insert(0, self.root());
        }
        spans
    }

    fn root(&self) -> Span {
        let records = self.session.records;
        let start_ms = records.first().map_or(0, |r| r.timestamp);
        let count = |kind: RecordKind| records.iter().filter(|r| r.kind == kind).count() as i64;
        let mut attributes = vec![
            kv("amber.session", string(self.session.name)),
            kv("amber.run_id", string(&self.run_id)),
            kv("amber.journal.records", int(records.len() as i64)),
            kv("amber.journal.head", string(&records.last().map(|r| to_hex(&r.hash)).unwrap_or_default())),
            kv("amber.journal.clock_reads", int(count(RecordKind::Clock))),
            kv("amber.journal.random_draws", int(count(RecordKind::Random))),
            kv("amber.journal.fs_captures", int(count(RecordKind::Capture))),
        ];
        if let Some(state) = self.session.state {
            attributes.push(kv("amber.session.state", string(state)));
        }
        let mut events = Vec::new();
        let mut links = Vec::new();
        for record in records {
            match record.kind {
                RecordKind::Fork => {
                    let parent = record.fork_info().map(|(name, seq, _)| (name.to_string(), seq));
                    let mut attrs = vec![kv("amber.seq", int(record.seq as i64))];
                    if let Some((name, seq)) = &parent {
                        attrs.push(kv("amber.fork.parent", string(name)));
                        attrs.push(kv("amber.fork.parent_seq", int(*seq as i64)));
                        // The parent's trace shares this run: link to its root span.
                        if let Some((start, seed)) = records.first().and_then(CallRecord::run_start_info) {
                            let parent_trace = trace_id(name, &run_id(start, &seed));
                            links.push(Link {
                                trace_id: parent_trace.to_vec(),
                                span_id: span_id(&parent_trace, None).to_vec(),
                                attributes: vec![kv("amber.link", string("fork parent"))],
                                ..Default::default()
                            });
                        }
                    }
                    events.push(event("fork", record.timestamp, attrs));
                }
                RecordKind::Upgrade => {
                    events.push(event("upgrade", record.timestamp, vec![kv("amber.seq", int(record.seq as i64))]));
                }
                RecordKind::FsRollback => {
                    let changes = record.args["changes"].as_i64().unwrap_or(0);
                    let attrs = vec![kv("amber.seq", int(record.seq as i64)), kv("amber.fs.changes", int(changes))];
                    events.push(event("fs rollback", record.timestamp, attrs));
                }
                _ => {}
            }
        }
        if let Some(ledger) = self.session.ledger {
            for (capability, seq) in ledger.iter() {
                let at = records.get(seq as usize).map_or(self.end_ms, |r| r.timestamp);
                events.push(event(
                    "first use",
                    at,
                    vec![kv("amber.capability", string(capability.name())), kv("amber.seq", int(seq as i64))],
                ));
            }
            events.sort_by_key(|e| e.time_unix_nano);
        }
        Span {
            trace_id: self.trace.to_vec(),
            span_id: span_id(&self.trace, None).to_vec(),
            name: "session".into(),
            kind: SpanKind::Internal as i32,
            start_time_unix_nano: nanos(start_ms),
            end_time_unix_nano: nanos(self.end_ms),
            attributes,
            events,
            links,
            ..Default::default()
        }
    }

    /// The span an operation's or step's child hangs under: the record that issued it, or
    /// the root.
    fn parent_of(&self, record: &CallRecord) -> Vec<u8> {
        let issuer = match (record.kind, record.function.as_str()) {
            // A body read belongs to its request.
            (RecordKind::Intent(OpKind::Http), READ) => record.args.get("request").and_then(Value::as_u64),
            _ => record.parent_seq,
        };
        match issuer.and_then(|seq| self.intents.get(&seq)) {
            // An approved call's intent names its approval; the call is the parent of both.
            Some(issuer) if issuer.kind == RecordKind::Intent(OpKind::Approval) => self.parent_of(issuer),
            Some(issuer) => span_id(&self.trace, Some(issuer.seq)).to_vec(),
            None => span_id(&self.trace, None).to_vec(),
        }
    }

    fn operation(&self, intent: &CallRecord, op: OpKind) -> Built {
        let completion = self.completions.get(&intent.seq).copied();
        // The call an approval gated, if it was approved and issued.
        let gated_call = self.gated.get(&intent.seq).copied();
        let mut attributes = vec![
            kv("amber.seq", int(intent.seq as i64)),
            kv("amber.op.kind", string(op.name())),
            kv("amber.op.name", string(&intent.function)),
            kv("amber.args_hash", string(&to_hex(&intent.args_hash))),
            kv("amber.capability", string(capability(op, &intent.function).name())),
        ];
        if op == OpKind::Call {
            attributes.push(kv(
                "amber.idempotency_key",
                string(&idempotency_key(self.session.name, &self.run_id, intent.seq)),
            ));
        }
        self.location(intent.seq, &mut attributes);
        let mut status = None;
        match completion.and_then(|c| c.result.as_ref()) {
            None => attributes.push(kv("amber.op.outcome", string("pending"))),
            Some(CallResult::Ok(value)) => {
                attributes.push(kv("amber.op.outcome", string("ok")));
                status = outcome_status(op, &intent.function, value);
            }
            Some(CallResult::Err(message)) => {
                attributes.push(kv("amber.op.outcome", string("error")));
                status = Some(error_status(message));
            }
        }
        if let Some(c) = completion {
            attributes.push(kv("amber.duration_ms", int(c.duration_ms as i64)));
        }
        let mut kind = SpanKind::Internal;
        let mut name = format!("{} {}", op.name(), intent.function);
        match op {
            OpKind::Call => kind = SpanKind::Client,
            OpKind::Input | OpKind::Sleep => name = op.name().to_string(),
            OpKind::Http => {
                kind = SpanKind::Client;
                http_attributes(intent, completion, &mut attributes, &mut name);
            }
            OpKind::Approval => approval_attributes(intent, completion, gated_call, &mut attributes),
        }
        // An approved call starts when its approval was asked for.
        let start_ms = match intent.parent_seq.and_then(|seq| self.intents.get(&seq)) {
            Some(approval) if op == OpKind::Call && approval.kind == RecordKind::Intent(OpKind::Approval) => {
                approval.timestamp
            }
            _ => intent.timestamp,
        };
        let parent = if op == OpKind::Approval {
            match gated_call {
                Some(call) => span_id(&self.trace, Some(call.seq)).to_vec(),
                None => self.parent_of(intent),
            }
        } else {
            self.parent_of(intent)
        };
        let end_ms = completion.map_or(self.end_ms, |c| c.timestamp).max(start_ms);
        Built {
            span: Span {
                trace_id: self.trace.to_vec(),
                span_id: span_id(&self.trace, Some(intent.seq)).to_vec(),
                parent_span_id: parent,
                name,
                kind: kind as i32,
                start_time_unix_nano: nanos(start_ms),
                end_time_unix_nano: nanos(end_ms),
                attributes,
                status,
                ..Default::default()
            },
            closed_at: completion.map(|c| c.seq),
        }
    }

    /// Where the program made the record at `seq`, as the semantic conventions' code
    /// attributes (`code.file.path`, `code.line.number`, `code.column.number`).
    fn location(&self, seq: u64, attributes: &mut Vec<KeyValue>) {
        let Some(location) = self.session.locations.and_then(|l| l.get(&seq)) else { return };
        let mut parts = location.rsplitn(3, ':');
        let (column, line, file) = (parts.next(), parts.next(), parts.next());
        match (file, line.and_then(|l| l.parse::<i64>().ok()), column.and_then(|c| c.parse::<i64>().ok())) {
            (Some(file), Some(line), Some(column)) => {
                attributes.push(kv("code.file.path", string(file)));
                attributes.push(kv("code.line.number", int(line)));
                attributes.push(kv("code.column.number", int(column)));
            }
            _ => attributes.push(kv("code.file.path", string(location))),
        }
    }

    fn attempt(&self, record: &CallRecord) -> Built {
        let number = record.args.get("attempt").and_then(Value::as_i64).unwrap_or(0);
        let mut attributes = vec![
            kv("amber.seq", int(record.seq as i64)),
            kv("amber.op.name", string(&record.function)),
            kv("amber.attempt", int(number)),
            kv("amber.duration_ms", int(record.duration_ms as i64)),
            kv("amber.attempt.backoff_ms", int(record.args.get("backoff_ms").and_then(Value::as_i64).unwrap_or(0))),
        ];
        if let Some(code) = record.args.get("code").and_then(Value::as_str) {
            attributes.push(kv("error.type", string(code)));
        }
        let status = match &record.result {
            Some(CallResult::Err(message)) => Some(error_status(message)),
            _ => None,
        };
        let parent = match record.parent_seq {
            Some(seq) => span_id(&self.trace, Some(seq)).to_vec(),
            None => span_id(&self.trace, None).to_vec(),
        };
        Built {
            span: Span {
                trace_id: self.trace.to_vec(),
                span_id: span_id(&self.trace, Some(record.seq)).to_vec(),
                parent_span_id: parent,
                name: format!("attempt {number}"),
                kind: SpanKind::Client as i32,
                start_time_unix_nano: nanos(record.timestamp.saturating_sub(record.duration_ms)),
                end_time_unix_nano: nanos(record.timestamp),
                attributes,
                status,
                ..Default::default()
            },
            closed_at: Some(record.seq),
        }
    }

    fn step(&self, record: &CallRecord) -> Built {
        let (outcome, status) = match &record.result {
            Some(CallResult::Err(message)) => ("error", Some(error_status(message))),
            _ => ("ok", None),
        };
        let mut attributes = vec![
            kv("amber.seq", int(record.seq as i64)),
            kv("amber.step.name", string(&record.function)),
            kv("amber.op.outcome", string(outcome)),
        ];
        self.location(record.seq, &mut attributes);
        Built {
            span: Span {
                trace_id: self.trace.to_vec(),
                span_id: span_id(&self.trace, Some(record.seq)).to_vec(),
                parent_span_id: self.parent_of(record),
                name: format!("step {}", record.function),
                kind: SpanKind::Internal as i32,
                start_time_unix_nano: nanos(record.timestamp),
                end_time_unix_nano: nanos(record.timestamp),
                attributes,
                status,
                ..Default::default()
            },
            closed_at: Some(record.seq),
        }
    }
}

/// The fetch intent of a request and of a body read (docs/journal-format.md, "Http").
const FETCH: &str = "fetch";
const READ: &str = "fetch.read";

/// HTTP client attributes (OpenTelemetry semantic conventions): the method and URL of a
/// request, its response status; the span is named by the method, as the conventions say.
fn http_attributes(
    intent: &CallRecord,
    completion: Option<&CallRecord>,
    attributes: &mut Vec<KeyValue>,
    name: &mut String,
) {
    let response = match completion.and_then(|c| c.result.as_ref()) {
        Some(CallResult::Ok(value)) => Some(value),
        _ => None,
    };
    if intent.function == READ {
        *name = READ.to_string();
    } else if intent.function == FETCH {
        let method = intent.args.get("method").and_then(Value::as_str).unwrap_or("GET");
        *name = method.to_string();
        attributes.push(kv("http.request.method", string(method)));
        if let Some(url) = intent.args.get("url") {
            attributes.push(kv("url.full", string(&redacted(url))));
        }
        if let Some(status) = response.and_then(|r| r.get("status")).and_then(Value::as_i64) {
            attributes.push(kv("http.response.status_code", int(status)));
        }
    }
    if let Some(code) = response.and_then(|r| r.get("error")).and_then(|e| e.get("code")).and_then(Value::as_str) {
        attributes.push(kv("error.type", string(code)));
    }
}

/// A URL as the journal holds it: a string, or PARTS (strings and `{"$secret": NAME}`) when
/// it carries a secret, whose place shows `REDACTED`.
fn redacted(url: &Value) -> String {
    match url {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts.iter().map(|p| p.as_str().unwrap_or("REDACTED")).collect(),
        other => other.to_string(),
    }
}

fn approval_attributes(
    intent: &CallRecord,
    completion: Option<&CallRecord>,
    gated_call: Option<&CallRecord>,
    attributes: &mut Vec<KeyValue>,
) {
    if let Some(rule) = intent.args.get("rule").and_then(Value::as_str) {
        attributes.push(kv("amber.approval.rule", string(rule)));
    }
    if let Some(call) = gated_call {
        attributes.push(kv("amber.approval.call_seq", int(call.seq as i64)));
    }
    let Some(CallResult::Ok(decision)) = completion.and_then(|c| c.result.as_ref()) else { return };
    if let Some(approved) = decision.get("approved").and_then(Value::as_bool) {
        attributes.push(kv("amber.approval.approved", AnyValue { value: Some(any_value::Value::BoolValue(approved)) }));
    }
    if let Some(principal) = decision.get("principal").and_then(Value::as_str) {
        attributes.push(kv("amber.approval.principal", string(principal)));
    }
    if let Some(reason) = decision.get("reason").and_then(Value::as_str) {
        attributes.push(kv("amber.approval.reason", string(reason)));
    }
    if let Some(at) = decision.get("decided_at_ms").and_then(Value::as_i64) {
        attributes.push(kv("amber.approval.decided_at_ms", int(at)));
    }
}

/// The span status of a successful completion: an HTTP client span whose response is a
/// network error or a status of 400 and up is an error (the semantic conventions' rule).
fn outcome_status(op: OpKind, function: &str, value: &Value) -> Option<Status> {
    if op != OpKind::Http {
        return None;
    }
    if let Some(error) = value.get("error") {
        let message = error.get("message").and_then(Value::as_str).unwrap_or("network error");
        return Some(error_status(message));
    }
    match value.get("status").and_then(Value::as_i64) {
        Some(status) if function == FETCH && status >= 400 => {
            Some(Status { code: StatusCode::Error as i32, message: String::new() })
        }
        _ => None,
    }
}

fn error_status(message: &str) -> Status {
    let message = match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &message[..cut]),
        None => message.to_string(),
    };
    Status { code: StatusCode::Error as i32, message }
}

/// The surface an operation uses (the capability ledger's names). An approval whose
/// function is a capability's name gates that capability's first use; otherwise it gates a
/// host call.
fn capability(op: OpKind, function: &str) -> Capability {
    match op {
        OpKind::Call => Capability::HostCall,
        OpKind::Input => Capability::Input,
        OpKind::Sleep => Capability::Sleep,
        OpKind::Http => Capability::Net,
        OpKind::Approval => Capability::from_name(function).unwrap_or(Capability::HostCall),
    }
}

fn event(name: &str, at_ms: u64, attributes: Vec<KeyValue>) -> Event {
    Event { time_unix_nano: nanos(at_ms), name: name.into(), attributes, dropped_attributes_count: 0 }
}

pub(crate) fn nanos(ms: u64) -> u64 {
    ms.saturating_mul(1_000_000)
}

pub(crate) fn kv(key: &str, value: AnyValue) -> KeyValue {
    KeyValue { key: key.into(), value: Some(value), ..Default::default() }
}

pub(crate) fn string(text: &str) -> AnyValue {
    AnyValue { value: Some(any_value::Value::StringValue(text.into())) }
}

fn int(n: i64) -> AnyValue {
    AnyValue { value: Some(any_value::Value::IntValue(n)) }
}
