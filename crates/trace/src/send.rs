//! OTLP/HTTP export: one POST of protobuf bytes to a collector's `/v1/traces`.

use std::fmt;
use std::time::Duration;

use opentelemetry_proto::tonic::collector::trace::v1::{ExportTraceServiceRequest, ExportTraceServiceResponse};

/// How long one export may take before it is abandoned.
const EXPORT_TIMEOUT: Duration = Duration::from_secs(10);
/// A collector's answer is read up to this many bytes.
const MAX_RESPONSE_BYTES: u64 = 1 << 20;

/// Why an export failed.
#[derive(Debug)]
pub enum ExportError {
    /// The URL is not an http(s) URL.
    BadUrl(String),
    /// No answer (connection refused, timeout, TLS).
    Transport(String),
    /// The collector answered with a status other than 2xx.
    Status { status: u16, body: String },
    /// The collector took the request but rejected some spans (OTLP partial success).
    Rejected { spans: i64, message: String },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::BadUrl(url) => write!(f, "{url:?} is not an http:// or https:// URL"),
            ExportError::Transport(e) => write!(f, "no answer from the collector: {e}"),
            ExportError::Status { status, body } => write!(f, "the collector answered {status}: {body}"),
            ExportError::Rejected { spans, message } => {
                write!(f, "the collector rejected {spans} spans: {message}")
            }
        }
    }
}

impl std::error::Error for ExportError {}

/// The traces endpoint for `url`: as given when it already ends in `/v1/traces`, else with
/// that path appended (the OTLP/HTTP convention for a collector's base URL,
/// `OTEL_EXPORTER_OTLP_ENDPOINT`).
pub fn endpoint_url(url: &str) -> Result<String, ExportError> {
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return Err(ExportError::BadUrl(url.to_string()));
    }
    if url.trim_end_matches('/').ends_with("/v1/traces") {
        Ok(url.trim_end_matches('/').to_string())
    } else {
        Ok(format!("{}/v1/traces", url.trim_end_matches('/')))
    }
}

/// POST `request` as OTLP protobuf to the collector at `url` (see [`endpoint_url`]); Ok when
/// it answered 2xx and accepted every span. Returns the number of spans sent.
pub fn post(url: &str, request: &ExportTraceServiceRequest) -> Result<usize, ExportError> {
    let endpoint = endpoint_url(url)?;
    let body = crate::encode_protobuf(request);
    let agent: ureq::Agent =
        ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(EXPORT_TIMEOUT)).build().into();
    let mut response = agent
        .post(&endpoint)
        .header("Content-Type", "application/x-protobuf")
        .send(&body[..])
        .map_err(|e| ExportError::Transport(e.to_string()))?;
    let status = response.status().as_u16();
    let bytes = response
        .body_mut()
        .with_config()
        .limit(MAX_RESPONSE_BYTES)
        .read_to_vec()
        .map_err(|e| ExportError::Transport(e.to_string()))?;
    if !(200..300).contains(&status) {
        return Err(ExportError::Status { status, body: String::from_utf8_lossy(&bytes).chars().take(512).collect() });
    }
    // An empty body is a full success; otherwise it is an ExportTraceServiceResponse, whose
    // partial_success names spans the collector dropped.
    if let Ok(answer) = <ExportTraceServiceResponse as prost::Message>::decode(&bytes[..]) {
        if let Some(partial) = answer.partial_success.filter(|p| p.rejected_spans > 0) {
            return Err(ExportError::Rejected { spans: partial.rejected_spans, message: partial.error_message });
        }
    }
    let spans = request.resource_spans.iter().flat_map(|r| &r.scope_spans).map(|s| s.spans.len()).sum();
    Ok(spans)
}
