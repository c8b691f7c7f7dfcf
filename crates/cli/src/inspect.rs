//! `amber inspect NAME|FILE [--json]`: a session (from the store), an export file or an image
//! file — policy, capabilities, pending operations, journal, heap statistics. Reads only;
//! never runs the program.

use std::path::Path;

use amber::durable::capability::{Capability, CapabilityLedger};
use amber::durable::catch_up::pending_at_journal_end;
use amber::durable::export::{decode_export, looks_like_export};
use amber::durable::image::{looks_like_image, read_manifest_unverified, ImageSummary, PendingOp};
use amber::durable::journal::{CallResult, Journal};
use amber::durable::policy::{Policy, PolicySurface};
use amber::durable::store::{LoadedSession, SessionMeta, StoredImage};
use clap::Args;
use serde_json::{json, Value};

use crate::database::DatabaseArg;
use crate::error::{CliResult, Failure};
use crate::exit;
use crate::folder::FolderSpec;
use crate::outcome::describe_op;
use crate::store::StoreLocation;
use crate::time::iso;
use amber_store::Store as _;

#[derive(Args)]
pub struct InspectArgs {
    /// A session name, or the path of an export or image file.
    target: String,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    database: DatabaseArg,
}

/// Everything inspect can show; parts are absent for a bare image file.
struct View {
    meta: Option<SessionMeta>,
    sources: Vec<(String, usize)>,
    /// The session's run options (the options source), when it stores them.
    options: Option<Value>,
    /// The program manifest the session runs under (its stored text), if any.
    manifest: Option<String>,
    /// The host folder the session runs over (the VFS's lower layer), if it has one.
    folder: Option<FolderSpec>,
    image: Option<(u64, usize, ImageSummary)>,
    journal: Option<Journal>,
}

impl View {
    /// A whole session: a stored one or an export's (the same parts).
    fn of_session(loaded: LoadedSession) -> CliResult<View> {
        Ok(View {
            folder: FolderSpec::of_session(&loaded)?,
            sources: loaded.sources.iter().map(|s| (s.path.clone(), s.text.len())).collect(),
            options: run_options(&loaded.sources),
            manifest: stored_manifest(&loaded.sources),
            image: loaded.image.as_ref().map(summarize).transpose()?,
            meta: Some(loaded.meta),
            journal: Some(loaded.journal),
        })
    }

    /// Journal records committed after the image was taken (a crash between the journal
    /// commit and the image save): by the journal position sealed in the image.
    fn records_past_image(&self) -> u64 {
        match (&self.image, &self.journal) {
            (Some((_, _, summary)), Some(journal)) => {
                (journal.len() as u64).saturating_sub(summary.manifest.journal_head.len)
            }
            _ => 0,
        }
    }

    /// The pending operations as the journal has them: the image's, caught up with the
    /// records committed after it (what `amber resume` would restore to).
    fn pending(&self) -> Vec<PendingOp> {
        let Some((_, _, summary)) = &self.image else { return Vec::new() };
        let manifest = &summary.manifest;
        match &self.journal {
            Some(journal) if self.records_past_image() > 0 => {
                pending_at_journal_end(&manifest.pending, manifest.journal_head.len, journal)
            }
            _ => manifest.pending.clone(),
        }
    }
}

pub fn inspect(args: InspectArgs, location: &StoreLocation) -> CliResult<u8> {
    let path = Path::new(&args.target);
    let view = if let Some(store) = args.database.open()? {
        // A session of the store servers share: its durable part, as the servers load it.
        match store.durable_session(&args.target).map_err(crate::database::store_failure)? {
            Some(loaded) => View::of_session(loaded)?,
            None => {
                let row = store.session(&args.target).map_err(crate::database::store_failure)?;
                return Err(Failure::usage(match row {
                    Some(row) => format!("session {:?} has not run yet (it is {})", args.target, row.status.name()),
                    None => format!("no session {:?} in the database", args.target),
                }));
            }
        }
    } else if path.is_file() {
        let bytes = std::fs::read(path).map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
        from_file(&bytes, &args.target)?
    } else {
        let store = location.open_existing()?.ok_or_else(|| {
            Failure::usage(format!("{:?} is neither a file nor a session (no session store here)", args.target))
        })?;
        View::of_session(store.load_to_show(&args.target)?)?
    };
    if args.json {
        let text = serde_json::to_string_pretty(&to_json(&view)).unwrap_or_default();
        outln!("{text}");
    } else {
        print_text(&view);
    }
    Ok(exit::OK)
}

/// The options source's JSON (limits, zone, locale, process inputs, network policy, secret
/// names), if the session has one.
fn run_options(sources: &[amber::durable::store::Source]) -> Option<Value> {
    let source = sources.iter().find(|s| s.path == crate::store::OPTIONS_SOURCE)?;
    serde_json::from_str(&source.text).ok()
}

fn stored_manifest(sources: &[amber::durable::store::Source]) -> Option<String> {
    sources.iter().find(|s| s.path == crate::store::MANIFEST_SOURCE).map(|s| s.text.clone())
}

/// One line per granted function: what the manifest checks and gates.
fn grants_lines(text: &str) -> Vec<String> {
    let grants = match amber::grants::Grants::from_text(text) {
        Ok(grants) => grants,
        Err(e) => return vec![format!("unreadable: {e}")],
    };
    let manifest = grants.manifest();
    let mut lines: Vec<String> = manifest
        .host
        .iter()
        .map(|(name, grant)| {
            let mut parts = Vec::new();
            if grant.args.is_some() {
                parts.push("args schema".to_string());
            }
            if grant.result.is_some() {
                parts.push("result schema".to_string());
            }
            if let Some(ms) = grant.timeout_ms {
                parts.push(format!("timeout {ms} ms"));
            }
            if let Some(retry) = &grant.retry {
                parts.push(format!("{} attempts, backoff {} ms", retry.max_attempts, retry.backoff_ms));
            }
            match &grant.approve {
                Some(amber::grants::ApprovalRule::Always) => parts.push("approval always".into()),
                Some(amber::grants::ApprovalRule::When(conditions)) => {
                    let rule: Vec<String> = conditions.iter().map(|(p, c)| format!("{p} {}", c.describe())).collect();
                    parts.push(format!("approval when {}", rule.join(", ")));
                }
                None => {}
            }
            if parts.is_empty() {
                name.clone()
            } else {
                format!("{name} ({})", parts.join("; "))
            }
        })
        .collect();
    if lines.is_empty() {
        lines.push("none (every amber.call is denied)".into());
    }
    lines
}

/// The network lines of `inspect`: the hosts the policy allows and the secrets' names (their
/// values are never stored).
fn network_text(options: &Value) -> (String, String) {
    let list = |key: &str, none: &str| {
        let items: Vec<&str> =
            options[key].as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        if items.is_empty() {
            none.to_string()
        } else {
            items.join(", ")
        }
    };
    (list("allow_net", "none (every request is denied)"), list("secrets", "none"))
}

fn from_file(bytes: &[u8], name: &str) -> CliResult<View> {
    if looks_like_export(bytes) {
        let exported = decode_export(bytes)?;
        return View::of_session(LoadedSession {
            meta: exported.meta,
            sources: exported.sources,
            image: exported.image,
            journal: exported.journal,
        });
    }
    if looks_like_image(bytes) {
        let summary = read_manifest_unverified(bytes)?;
        if !summary.seal_ok {
            return Err(Failure::integrity(format!("{name}: the image's seal does not match its bytes (corrupt)")));
        }
        return Ok(View {
            meta: None,
            sources: Vec::new(),
            options: None,
            manifest: None,
            folder: None,
            image: Some((summary.manifest.journal_head.len, bytes.len(), summary)),
            journal: None,
        });
    }
    Err(Failure::usage(format!("{name} is not an amber export or image file")))
}

fn summarize(image: &StoredImage) -> CliResult<(u64, usize, ImageSummary)> {
    let summary = read_manifest_unverified(&image.bytes)?;
    Ok((image.seq, image.bytes.len(), summary))
}

fn policy_text(policy: &Policy) -> String {
    PolicySurface::ALL.iter().map(|s| format!("{s}={}", policy.mode(*s))).collect::<Vec<_>>().join(" ")
}

/// The ledger in first-touch order. A host operation's seq is its own intent record, while
/// any other surface's is the record that came next after its touch, so at the same seq the
/// operation comes last; other ties stay in ledger order.
fn capabilities_text(ledger: &CapabilityLedger) -> String {
    if ledger.is_empty() {
        return "none".into();
    }
    let mut touched: Vec<_> = ledger.iter().collect();
    let is_operation =
        |cap: Capability| matches!(cap, Capability::HostCall | Capability::Input | Capability::Sleep | Capability::Net);
    touched.sort_by_key(|(cap, seq)| (*seq, is_operation(*cap)));
    touched.iter().map(|(cap, seq)| format!("{cap}@{seq}")).collect::<Vec<_>>().join(" ")
}

fn print_text(view: &View) {
    if let Some(meta) = &view.meta {
        outln!("session       {} ({})", meta.name, meta.status.name());
        outln!("entry         {}{}", meta.entry, if meta.module { " (module)" } else { "" });
        outln!("created       {}", iso(meta.created_ms));
        outln!("updated       {}", iso(meta.updated_ms));
        outln!("policy        {}", policy_text(&meta.policy));
    }
    if let Some(options) = &view.options {
        let (hosts, secrets) = network_text(options);
        outln!("network       {hosts}");
        outln!("secrets       {secrets} (names only; values come from the environment)");
        let zone = options["time_zone"].as_str().unwrap_or("UTC");
        let locale = options["locale"].as_str().unwrap_or("en-US");
        outln!("time zone     {zone}, locale {locale}");
    }
    if let Some(folder) = &view.folder {
        outln!("folder        {} (read-only lower layer, mounted at {})", folder.root, folder.root);
        outln!("cwd           {}", folder.cwd);
        let reveal = if folder.reveal.is_empty() { "none".to_string() } else { folder.reveal.join(", ") };
        outln!("revealed      {reveal}");
    } else if view.meta.is_some() {
        outln!("folder        none");
    }
    if let Some(text) = &view.manifest {
        for (i, line) in grants_lines(text).iter().enumerate() {
            outln!("{}{line}", if i == 0 { "grants        " } else { "              " });
        }
    } else if view.meta.is_some() {
        outln!("grants        no manifest (every amber.call goes out)");
    }
    for (path, len) in &view.sources {
        outln!("source        {path} ({len} bytes)");
    }
    match &view.image {
        None => outln!("image         none"),
        Some((seq, len, summary)) => {
            let m = &summary.manifest;
            outln!(
                "image         {len} bytes at journal seq {seq}, {}, seal {}{}",
                summary.engine_version,
                if summary.seal_ok { "ok" } else { "BAD" },
                if summary.authenticated { ", HMAC" } else { "" }
            );
            if view.meta.is_none() {
                outln!("policy        {}", policy_text(&m.policy));
            }
            outln!("logical time  {}", iso(m.logical_time_ms));
            outln!("heap          {} objects, {} bytes", m.heap.objects, m.heap.bytes);
            if let Some(hash) = &m.vfs_seed_hash {
                outln!("vfs seed      sha256:{hash}");
            }
            outln!("capabilities  {}", capabilities_text(&m.capabilities));
            let past = view.records_past_image();
            if past > 0 {
                outln!(
                    "caught up     {past} journal record{} committed after the image (pending operations as the journal has them)",
                    if past == 1 { "" } else { "s" }
                );
            }
            let pending = view.pending();
            outln!("pending       {}", pending.len());
            let now = amber::wall_clock_ms();
            for op in &pending {
                outln!("  {}  (seq {})", describe_op(op, now), op.seq);
            }
        }
    }
    if let Some(journal) = &view.journal {
        outln!(
            "journal       {} records, head {}",
            journal.len(),
            amber::durable::digest::to_hex(&journal.head_hash())
        );
        for r in journal.records() {
            let mut line = format!("  {:<4} {:<18} {}", r.seq, r.kind.to_string(), r.function);
            if !r.args.is_null() {
                line.push_str(&format!(" {}", r.args));
            }
            match &r.result {
                Some(CallResult::Ok(v)) if !v.is_null() => line.push_str(&format!(" -> {v}")),
                Some(CallResult::Err(e)) => line.push_str(&format!(" -> error: {e}")),
                _ => {}
            }
            if let Some(parent) = r.parent_seq {
                line.push_str(&format!(" (of seq {parent})"));
            }
            if r.duration_ms > 0 {
                line.push_str(&format!(" [{} ms]", r.duration_ms));
            }
            outln!("{line}");
        }
    }
}

fn to_json(view: &View) -> Value {
    let image = view.image.as_ref().map(|(seq, len, summary)| {
        json!({
            "seq": seq,
            "bytes": len,
            "engine_version": summary.engine_version,
            "seal_ok": summary.seal_ok,
            "authenticated": summary.authenticated,
            "manifest": summary.manifest,
        })
    });
    let manifest = view.image.as_ref().map(|(_, _, s)| &s.manifest);
    json!({
        "session": view.meta,
        "sources": view.sources.iter().map(|(p, l)| json!({"path": p, "bytes": l})).collect::<Vec<_>>(),
        "policy": view.meta.as_ref().map(|m| m.policy).or(manifest.map(|m| m.policy)),
        "allow_net": view.options.as_ref().map(|o| o["allow_net"].clone()),
        "secrets": view.options.as_ref().map(|o| o["secrets"].clone()),
        "time_zone": view.options.as_ref().map(|o| o["time_zone"].clone()),
        "locale": view.options.as_ref().map(|o| o["locale"].clone()),
        "manifest": view.manifest.as_ref().and_then(|t| serde_json::from_str::<Value>(t).ok()),
        "folder": view.folder.as_ref().map(|f| json!({
            "host": f.root,
            "mount": f.root,
            "cwd": f.cwd,
            "reveal": f.reveal,
        })),
        "capabilities": manifest.map(|m| &m.capabilities),
        "pending": view.image.as_ref().map(|_| view.pending()),
        "records_past_image": view.records_past_image(),
        "heap": manifest.map(|m| m.heap),
        "logical_time_ms": manifest.map(|m| m.logical_time_ms),
        "image": image,
        "journal": view.journal.as_ref().map(|j| j.records().iter().map(|r| r.to_json()).collect::<Vec<_>>()),
    })
}
