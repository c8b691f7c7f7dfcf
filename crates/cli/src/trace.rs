//! `amber trace NAME [--otlp URL] [-o FILE] [--format otlp-json|otlp-proto]`: a session's
//! journal as OpenTelemetry traces (docs/tracing.md) — sent to an OTLP/HTTP collector, written
//! to a file, or (with neither) printed as OTLP JSON. Reads only; never runs the program.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use amber::durable::image::read_manifest_unverified;
use amber_trace::{encode_json, encode_protobuf, trace_request, Selection, Service, SessionTrace};
use clap::{Args, ValueEnum};

use crate::error::{CliResult, Failure};
use crate::exit;
use crate::store::StoreLocation;

#[derive(Args)]
pub struct TraceArgs {
    /// The session.
    name: String,
    /// Send the trace to this OTLP/HTTP collector (protobuf; `/v1/traces` is appended to a
    /// base URL such as http://localhost:4318).
    #[arg(long, value_name = "URL")]
    otlp: Option<String>,
    /// Write the trace to FILE ("-": standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// The encoding of the written trace.
    #[arg(long, value_enum, default_value_t = Format::OtlpJson)]
    format: Format,
    /// The resource's service.name.
    #[arg(long, value_name = "NAME", default_value = "amber")]
    service_name: String,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// OTLP JSON (the protocol's JSON mapping).
    OtlpJson,
    /// OTLP protobuf (an ExportTraceServiceRequest).
    OtlpProto,
}

pub fn trace(args: TraceArgs, location: &StoreLocation) -> CliResult<u8> {
    let store = location
        .open_existing()?
        .ok_or_else(|| Failure::usage(format!("no session {:?}: there is no session store here", args.name)))?;
    let loaded = store.load_to_show(&args.name)?;
    // The capability ledger rides the newest image; a finished session may have none.
    let ledger = loaded
        .image
        .as_ref()
        .and_then(|image| read_manifest_unverified(&image.bytes).ok())
        .map(|summary| summary.manifest.capabilities);
    let locations = store.locations(&args.name)?;
    let session = SessionTrace {
        name: &args.name,
        records: loaded.journal.records(),
        state: Some(loaded.meta.status.name()),
        ledger: ledger.as_ref(),
        locations: Some(&locations),
    };
    let service = Service { name: &args.service_name, version: amber::ENGINE_VERSION };
    let request = trace_request(&session, &service, Selection::All);
    if let Some(url) = &args.otlp {
        let spans = amber_trace::post(url, &request).map_err(|e| Failure::usage(format!("--otlp {url}: {e}")))?;
        errln!(
            "amber: sent {spans} spans of session {} to {}",
            args.name,
            amber_trace::endpoint_url(url).unwrap_or_default()
        );
    }
    let bytes = match args.format {
        Format::OtlpJson => encode_json(&request).into_bytes(),
        Format::OtlpProto => encode_protobuf(&request),
    };
    match &args.output {
        Some(path) if path.as_os_str() != "-" => crate::atomic::write_atomically(path, &bytes, None)
            .map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))?,
        // With --otlp and no -o, the collector has it: print nothing.
        None if args.otlp.is_some() => {}
        _ if args.format == Format::OtlpProto && std::io::stdout().is_terminal() => {
            return Err(Failure::usage("--format otlp-proto is binary: write it with -o FILE"));
        }
        // A closed stdout (`amber trace s | head`) is not an error.
        _ => {
            let _ = std::io::stdout().lock().write_all(&bytes);
        }
    }
    Ok(exit::OK)
}
