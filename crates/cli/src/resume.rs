//! `amber resume NAME`: restore a session's newest image (replaying any journal records
//! written after it), deliver the given results, complete sleeps that are due, and continue.
//! A session with no image yet (a crash before the first one) is recovered by re-executing
//! its program against the journal.

use amber::durable::canonical_json::parse;
use amber::durable::catch_up::completion_of_op;
use amber::durable::journal::Journal;
use amber::durable::store::{LoadedSession, SessionStatus};
use amber::{OpKind, Outcome, Program, Runtime};
use clap::Args;

use crate::error::{CliResult, Failure};
use crate::host::{HostArgs, HostCommands};
use crate::outcome::{drive, report};
use crate::run::builder;
use crate::store::{with_session_options, Held, StoreLocation};

#[derive(Args)]
pub struct ResumeArgs {
    /// The session.
    pub(crate) name: String,
    /// Fulfil operation ID with a JSON value (repeatable).
    #[arg(long = "resolve", value_name = "ID=JSON")]
    pub(crate) resolves: Vec<String>,
    /// Reject operation ID with an Error carrying MESSAGE (repeatable).
    #[arg(long = "reject", value_name = "ID=MESSAGE")]
    pub(crate) rejects: Vec<String>,
    /// Answer an input operation with TEXT (without ID: the oldest pending input).
    #[arg(long = "input", value_name = "[ID=]TEXT")]
    pub(crate) inputs: Vec<String>,
    /// Approve the gated call waiting on approval ID (docs/manifest.md; repeatable).
    #[arg(long = "approve", value_name = "ID")]
    pub(crate) approves: Vec<String>,
    /// Deny approval ID: the call rejects with ERR_AMBER_NOT_APPROVED and REASON (repeatable).
    #[arg(long = "deny", value_name = "ID=REASON")]
    pub(crate) denies: Vec<String>,
    /// Who decides the approvals, journaled with each decision (free text, e.g. an e-mail).
    #[arg(long = "principal", value_name = "NAME", default_value = "cli")]
    pub(crate) principal: String,
    #[command(flatten)]
    pub(crate) host: HostArgs,
    #[command(flatten)]
    pub(crate) database: crate::database::DatabaseArg,
}

pub fn resume(args: ResumeArgs, location: &StoreLocation) -> CliResult<u8> {
    if let Some(url) = args.database.url()? {
        return crate::database_run::resume(&args, &url, location);
    }
    let store = location
        .open_existing()?
        .ok_or_else(|| Failure::usage(format!("no session {:?}: there is no session store here", args.name)))?;
    let held = Held { store: &store, lease: store.acquire(&args.name)? };
    let loaded = store.load(&args.name)?;
    let hosts = HostCommands::parse(&args.host)?.with_grants(crate::store::session_grants(&loaded)?);
    match loaded.meta.status {
        SessionStatus::Completed | SessionStatus::Failed => {
            return Err(Failure::usage(format!(
                "session {} has {}; there is nothing to resume (see `amber inspect {}`)",
                args.name,
                if loaded.meta.status == SessionStatus::Completed { "completed" } else { "failed" },
                args.name
            )));
        }
        SessionStatus::Running | SessionStatus::Suspended => {}
    }
    let (mut runtime, caught_up) = open_runtime(&loaded, store.dir())?;
    let mut result = caught_up;
    if let Ok(Outcome::Suspended(_)) = &result {
        deliver(&mut runtime, &args, &loaded.journal)?;
        runtime.complete_due_sleeps(amber::wall_clock_ms());
        result = runtime.resume();
    } else if !(args.resolves.is_empty()
        && args.rejects.is_empty()
        && args.inputs.is_empty()
        && args.approves.is_empty()
        && args.denies.is_empty())
    {
        errln!("amber: session {} was no longer waiting; the given results were not used", args.name);
    }
    let result = drive(&mut runtime, result, &hosts, Some(&held))?;
    held.finish(&mut runtime, &result)?;
    Ok(report(result, Some(&args.name)))
}

/// The runtime at the session's last committed state, and the outcome of catching up.
fn open_runtime(loaded: &LoadedSession, store_dir: &std::path::Path) -> CliResult<(Runtime, amber::Result<Outcome>)> {
    let name = &loaded.meta.name;
    match &loaded.image {
        Some(image) => {
            image.check_code_hashes(&loaded.sources)?;
            let mut runtime =
                crate::folder::with_session_files(with_session_options(builder(), loaded)?, loaded, store_dir)?
                    .restore(&image.bytes, Some(&loaded.journal))
                    .map_err(|e| Failure::from(e).context(format!("cannot restore session {name}")))?;
            let caught_up = runtime.resume();
            Ok((runtime, caught_up))
        }
        None => {
            let program = entry_program(loaded)?;
            let with_files =
                crate::folder::with_session_files(with_session_options(builder(), loaded)?, loaded, store_dir)?;
            let mut runtime = with_files.recover(&loaded.journal)?;
            let caught_up = runtime.run(&program);
            Ok((runtime, caught_up))
        }
    }
}

/// The session's entry program, from its stored sources.
pub fn entry_program(loaded: &LoadedSession) -> CliResult<Program> {
    let entry = &loaded.meta.entry;
    let source = loaded.sources.iter().find(|s| s.path == *entry).ok_or_else(|| {
        Failure::integrity(format!("session {} does not store its entry source {entry:?}", loaded.meta.name))
    })?;
    let module = loaded.meta.module;
    Ok(Program { filename: entry.clone(), source: source.text.clone(), module, commonjs: !module })
}

/// Applies `--resolve`, `--reject`, `--input`, `--approve` and `--deny`, in that order. An id the journal already
/// answered (the result of an earlier `resume` that crashed before it saved its image, so
/// the image still listed the operation) is passed over with a note: the committed result
/// stands, and retrying the same command is harmless.
fn deliver(runtime: &mut Runtime, args: &ResumeArgs, journal: &Journal) -> CliResult<()> {
    let answered_before = |runtime: &Runtime, flag: &str, id: u64| {
        if runtime.pending().iter().any(|op| op.id == id) {
            return false;
        }
        let Some(completion) = completion_of_op(journal, id) else { return false };
        errln!(
            "amber: operation {id} already has a result, committed at journal seq {}; {flag} {id} was not used",
            completion.seq
        );
        true
    };
    for spec in &args.resolves {
        let (id, json) = split_id(spec, "--resolve", "ID=JSON")?;
        if answered_before(runtime, "--resolve", id) {
            continue;
        }
        let value = parse(json).map_err(|e| {
            Failure::usage(format!(
                "--resolve {id}: not valid JSON ({e}); quote strings, e.g. --resolve {id}='\"text\"'"
            ))
        })?;
        runtime.resolve(id, value)?;
    }
    for spec in &args.rejects {
        let (id, message) = split_id(spec, "--reject", "ID=MESSAGE")?;
        if answered_before(runtime, "--reject", id) {
            continue;
        }
        runtime.reject(id, message)?;
    }
    let mut answered: Vec<u64> = Vec::new();
    for spec in &args.inputs {
        let explicit = spec.split_once('=').and_then(|(id, text)| id.parse::<u64>().ok().map(|id| (id, text)));
        let (id, text) = match explicit {
            Some((id, _)) if answered_before(runtime, "--input", id) => continue,
            Some(pair) => pair,
            None => {
                let oldest = runtime
                    .pending()
                    .into_iter()
                    .filter(|op| op.kind == OpKind::Input && !answered.contains(&op.id))
                    .find(|op| !args.inputs.iter().any(|s| s.starts_with(&format!("{}=", op.id))))
                    .ok_or_else(|| Failure::usage("--input: the session is not waiting on any input"))?;
                (oldest.id, spec.as_str())
            }
        };
        let is_input = runtime.pending().iter().any(|op| op.id == id && op.kind == OpKind::Input);
        if !is_input {
            return Err(Failure::usage(format!("--input {id}: operation {id} is not a pending input")));
        }
        runtime.resolve(id, serde_json::Value::String(text.to_string()))?;
        answered.push(id);
    }
    for spec in &args.approves {
        let id = spec
            .trim()
            .parse::<u64>()
            .map_err(|_| Failure::usage(format!("--approve: {spec:?} is not an operation id")))?;
        if answered_before(runtime, "--approve", id) {
            continue;
        }
        runtime.approve(id, &args.principal)?;
    }
    for spec in &args.denies {
        let (id, reason) = split_id(spec, "--deny", "ID=REASON")?;
        if answered_before(runtime, "--deny", id) {
            continue;
        }
        runtime.deny(id, &args.principal, reason)?;
    }
    Ok(())
}

/// `ID=REST` of a flag's value: the operation id and the rest.
pub(crate) fn split_id<'a>(spec: &'a str, flag: &str, form: &str) -> CliResult<(u64, &'a str)> {
    let (id, rest) =
        spec.split_once('=').ok_or_else(|| Failure::usage(format!("{flag} expects {form}, got {spec:?}")))?;
    let id = id.trim().parse::<u64>().map_err(|_| Failure::usage(format!("{flag}: {id:?} is not an operation id")))?;
    Ok((id, rest))
}
