//! `amber log NAME [--json]`: a session's journal as a timeline — each host operation (intent
//! and completion on one line), step, sleep, input, clock and random read, capture, fork and
//! upgrade record, with its seq, logical time, duration and the source location that made it
//! — then the output the session committed. Reads only; never runs the program.

use amber::durable::journal::CallResult;
use amber::durable::store::OutputStream;
use amber::history::{timeline, TimelineEntry};
use clap::Args;
use serde_json::json;

use crate::error::{CliResult, Failure};
use crate::exit;
use crate::store::StoreLocation;
use crate::time::iso;

#[derive(Args)]
pub struct LogArgs {
    /// The session.
    name: String,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Output chunks shown at most (the rest are counted).
const OUTPUT_LIMIT: u64 = 100_000;

pub fn log(args: LogArgs, location: &StoreLocation) -> CliResult<u8> {
    let store = location
        .open_existing()?
        .ok_or_else(|| Failure::usage(format!("no session {:?}: there is no session store here", args.name)))?;
    let loaded = store.load_to_show(&args.name)?;
    let entries = timeline(&loaded.journal, &store.locations(&args.name)?);
    let output = store.output(&args.name, 0, OUTPUT_LIMIT)?;
    let fork = store.fork_parent(&args.name)?;
    if args.json {
        let value = json!({
            "session": args.name,
            "status": loaded.meta.status.name(),
            "fork_of": fork.as_ref().map(|(parent, seq)| json!({"session": parent, "seq": seq})),
            "records": loaded.journal.len(),
            "entries": entries.iter().map(TimelineEntry::to_json).collect::<Vec<_>>(),
            "output": output.iter().enumerate().map(|(i, c)| json!({"chunk": i, "stream": c.stream, "text": c.text})).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&value).unwrap_or_default());
        return Ok(exit::OK);
    }
    outln!("session {} ({}), {} journal records", args.name, loaded.meta.status.name(), loaded.journal.len());
    if let Some((parent, seq)) = &fork {
        outln!("forked from {parent} after its record {seq}");
    }
    let start = entries.first().map_or(0, |e| e.logical_time_ms);
    for entry in &entries {
        outln!("{}", line(entry, start));
    }
    if !output.is_empty() {
        outln!("output ({} chunks)", output.len());
        for chunk in &output {
            let stream = match chunk.stream {
                OutputStream::Stdout => "stdout",
                OutputStream::Stderr => "stderr",
            };
            outln!("  {stream:<6} {}", chunk.text);
        }
    }
    Ok(exit::OK)
}

/// `  5  +0.020s  call #2 "search" {"q":"x"} -> [1,2]  (answered at seq 7, 12 ms)`
fn line(entry: &TimelineEntry, start: u64) -> String {
    let offset = entry.logical_time_ms.saturating_sub(start);
    let mut text = format!("  {:<4} +{}.{:03}s  ", entry.seq, offset / 1000, offset % 1000);
    if entry.kind == "run-start" {
        text.push_str(&format!("run start at {}", iso(entry.logical_time_ms)));
        return text;
    }
    match entry.op_id {
        Some(id) => text.push_str(&format!("{} #{id} {:?}", entry.kind, entry.name)),
        None => text.push_str(&format!("{} {:?}", entry.kind, entry.name)),
    }
    if !entry.args.is_null() {
        text.push_str(&format!(" {}", shorten(&entry.args.to_string())));
    }
    match &entry.result {
        Some(CallResult::Ok(value)) if !value.is_null() => {
            text.push_str(&format!(" -> {}", shorten(&value.to_string())))
        }
        Some(CallResult::Err(message)) => text.push_str(&format!(" -> error: {}", shorten(message))),
        None if entry.op_id.is_some() => text.push_str("  (pending)"),
        _ => {}
    }
    if let Some(done) = entry.completed_seq {
        text.push_str(&format!("  (answered at seq {done}, {} ms)", entry.duration_ms));
    }
    if let Some(at) = &entry.location {
        text.push_str(&format!("  at {at}"));
    }
    text
}

/// At most 160 characters of `text`, cut at a character boundary.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(160) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}
