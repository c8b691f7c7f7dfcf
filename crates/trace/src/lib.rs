//! A session's journal as OpenTelemetry traces (docs/tracing.md).
//!
//! The journal already holds everything a trace needs: every host operation's intent and
//! completion with logical timestamps, the host's recorded durations, retries (attempt
//! records), approvals and steps. This crate turns those records into an OTLP
//! `ExportTraceServiceRequest` — one trace per session, one span per operation — and encodes
//! it as OTLP protobuf (what an OTLP/HTTP collector takes) or OTLP JSON (a file). It reads
//! no clock and no randomness: the same records give the same bytes, so a trace exported
//! twice, or from two machines, carries the same ids and a collector keeps one copy.
//!
//! Nothing secret leaves through a trace: arguments appear only as their hash, a request URL
//! that holds a secret shows `REDACTED` where the secret goes, randomness and the run's seed
//! are never exported.

mod host;
mod ids;
mod send;
mod spans;

pub use host::{host_span_id, host_spans_request, HostSpan};
pub use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
pub use send::{endpoint_url, post, ExportError};

use std::collections::BTreeMap;

use amber_durable::capability::CapabilityLedger;
use amber_durable::journal::CallRecord;

/// One session to trace.
pub struct SessionTrace<'a> {
    /// The session's name (part of the trace id and of every idempotency key).
    pub name: &'a str,
    /// Its journal's records, from seq 0.
    pub records: &'a [CallRecord],
    /// Its state as the store has it ("waiting", "done", "failed", …), if known.
    pub state: Option<&'a str>,
    /// The surfaces it touched and where first (the image's ledger), if known.
    pub ledger: Option<&'a CapabilityLedger>,
    /// Where in the program each record was made (`file:line:column`, by seq), if known.
    pub locations: Option<&'a BTreeMap<u64, String>>,
}

/// Who exports: the OTLP resource's `service.name` and `service.version`.
pub struct Service<'a> {
    pub name: &'a str,
    pub version: &'a str,
}

/// Which spans to export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Every span, operations still pending included (ended at the journal's last record,
    /// `amber.op.outcome` "pending"), and the session's root span whether or not it ended.
    All,
    /// What a live exporter sends after the journal grew past `from` records: the spans that
    /// closed at or after record `from` (an operation's completion, a step, an attempt) and
    /// are complete, and the root span once `finished` (a session's end). Sending each window
    /// once exports every span of a session exactly once.
    Closed { from: u64, finished: bool },
}

/// The session's spans as one OTLP export request (one resource, one scope).
pub fn trace_request(session: &SessionTrace, service: &Service, selection: Selection) -> ExportTraceServiceRequest {
    spans::request(session, service, selection)
}

/// OTLP protobuf bytes (`application/x-protobuf`).
pub fn encode_protobuf(request: &ExportTraceServiceRequest) -> Vec<u8> {
    prost::Message::encode_to_vec(request)
}

/// OTLP JSON (the protocol's JSON mapping: hex ids, 64-bit integers as strings), indented,
/// with a final newline.
pub fn encode_json(request: &ExportTraceServiceRequest) -> String {
    // A derived Serialize of plain data into a String cannot fail.
    let mut text = serde_json::to_string_pretty(request).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests;
