//! Spans the host process measured — a server's slice of a session, its restore and its
//! commits — joined to the session's trace, under its root span (docs/tracing.md, "Host
//! spans"). Their times are the host's wall clock, not the journal's logical time: they say
//! what the server spent, not what the program saw.

use amber_durable::digest::sha256;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use opentelemetry_proto::tonic::trace::v1::Span;

use crate::ids::{span_id, trace_id};
use crate::spans::{kv, string, wrap};
use crate::Service;

/// One span a host measured.
#[derive(Clone, Debug)]
pub struct HostSpan {
    pub name: String,
    /// The session it worked for, and the run's id (16 hex digits, `Runtime::run_id`).
    pub session: String,
    pub run_id: String,
    /// Its id ([`host_span_id`]) and its parent's; None: the session's root span.
    pub span_id: [u8; 8],
    pub parent: Option<[u8; 8]>,
    pub start_unix_nano: u64,
    pub end_unix_nano: u64,
    pub attributes: Vec<(String, String)>,
}

/// A fresh id for a host span: unique per process (`counter`) and across processes (`pid`,
/// the start time).
pub fn host_span_id(pid: u32, counter: u64, start_unix_nano: u64) -> [u8; 8] {
    let mut input = b"amber host span".to_vec();
    input.extend_from_slice(&pid.to_le_bytes());
    input.extend_from_slice(&counter.to_le_bytes());
    input.extend_from_slice(&start_unix_nano.to_le_bytes());
    let mut id = [0u8; 8];
    id.copy_from_slice(&sha256(&input)[..8]);
    if id == [0; 8] {
        id[7] = 1;
    }
    id
}

/// The spans as one export request; a span whose run id is not 16 hex digits is left out.
pub fn host_spans_request(spans: &[HostSpan], service: &Service) -> ExportTraceServiceRequest {
    let spans = spans
        .iter()
        .filter_map(|h| {
            let run = run_id_bytes(&h.run_id)?;
            let trace = trace_id(&h.session, &run);
            let parent = h.parent.unwrap_or_else(|| span_id(&trace, None));
            let mut attributes = vec![kv("amber.session", string(&h.session))];
            attributes.extend(h.attributes.iter().map(|(k, v)| kv(k, string(v))));
            Some(Span {
                trace_id: trace.to_vec(),
                span_id: h.span_id.to_vec(),
                parent_span_id: parent.to_vec(),
                name: h.name.clone(),
                kind: SpanKind::Internal as i32,
                start_time_unix_nano: h.start_unix_nano,
                end_time_unix_nano: h.end_unix_nano.max(h.start_unix_nano),
                attributes,
                ..Default::default()
            })
        })
        .collect();
    wrap(spans, service)
}

fn run_id_bytes(hex: &str) -> Option<[u8; 8]> {
    if hex.len() != 16 || !hex.is_ascii() {
        return None;
    }
    let mut id = [0u8; 8];
    for (i, byte) in id.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(id)
}
