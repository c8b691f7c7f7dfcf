//! `amber run --database` and `amber resume --database`: a session in the PostgreSQL
//! database that `amber serve --database` servers share, run by this process
//! (docs/server.md, "The CLI on a shared database").
//!
//! `run` deploys the program's folder as a program of the store (content-addressed: files the
//! store has are not stored again), creates the session and runs its slices here, each one a
//! server worker's slice (`amber_server::local`: the same fenced lease and commits). `resume`
//! stores the given results as the session's operation results — as the HTTP API or a tool
//! worker would — and runs the next slice. Between them, and meanwhile, any server sharing the
//! database may run the session instead: the CLI then follows it, printing the output the
//! session commits, wherever it ran, until the session waits on the world or ends.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use amber::durable::canonical_json::parse;
use amber::durable::store::{OutputChunk, OutputStream};
use amber::{OpKind, PendingOp};
use amber_server::local::{LocalRunner, SliceRun};
use amber_store::{OpResult, OpRow, OpState, ServerStatus, SessionSpec, Store, StoreError};
use serde_json::Value;

use crate::database::store_failure;
use crate::error::{CliResult, Failure};
use crate::exit;
use crate::host::{HostArgs, HostCommands};
use crate::outcome::{describe_op, program_exit_status, MAX_INLINE_WAIT_MS};
use crate::resume::{split_id, ResumeArgs};
use crate::run::RunArgs;
use crate::store::StoreLocation;

/// How long the CLI waits before looking again at a session another process is running.
const FOLLOW_INTERVAL: Duration = Duration::from_millis(100);

/// The runner over the database at `url`, serving the `--host` commands.
fn runner(url: &str, host: &HostArgs, location: &StoreLocation) -> CliResult<LocalRunner> {
    let hosts = HostCommands::parse(host)?;
    // The store directory caches materialized program bundles, as a server's does.
    let mut config = amber_server::ServerConfig::new(location.dir().to_path_buf());
    config.database = Some(url.to_string());
    config.image_key = crate::image_key::key();
    config.transport = crate::transport::config();
    config.max_heap = None;
    if !hosts.is_empty() {
        config.hosts = Some(Arc::new(crate::serve::ServeHosts(hosts)));
    }
    LocalRunner::open(config).map_err(Failure::usage)
}

/// `amber run FILE --database URL`.
pub fn run(args: &RunArgs, url: &str, location: &StoreLocation) -> CliResult<u8> {
    refuse_local_only_flags(args)?;
    let file = std::fs::canonicalize(&args.file)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", args.file.display())))?;
    let root = bundle_root(args.fs.as_deref(), &file)?;
    let entry = file
        .strip_prefix(&root)
        .map_err(|_| Failure::usage(format!("{} is not inside --fs {}", file.display(), root.display())))?
        .to_string_lossy()
        .into_owned();
    let mut files = match root == file.parent().map(Path::to_path_buf).unwrap_or_default() && !has_project(&root) {
        // A script outside any project is deployed alone (never the folder it happens to be
        // in: /tmp, a home directory).
        true => vec![(entry.clone(), read(&file)?)],
        false => crate::serve::program_files(&root)?,
    };
    // The manifest the local run would use (--manifest, else amber.json beside the entry) is
    // the program's: a server reads it at the bundle's root.
    if let Some(path) =
        args.manifest.clone().or_else(|| Some(file.with_file_name("amber.json")).filter(|p| p.is_file()))
    {
        let text = read(&path)?;
        amber::grants::Grants::from_text(&String::from_utf8_lossy(&text))
            .map_err(|e| Failure::usage(format!("the manifest {}: {e}", path.display())))?;
        files.retain(|(p, _)| p != crate::serve::MANIFEST_FILE);
        files.push((crate::serve::MANIFEST_FILE.to_string(), text));
    }
    let process = crate::run::process_inputs(&args.args, &args.env)?;
    let mut policy = BTreeMap::new();
    for item in &args.policy {
        let (surface, mode) = item
            .split_once('=')
            .ok_or_else(|| Failure::usage(format!("--policy {item:?}: expected SURFACE=MODE, e.g. random=captured")))?;
        policy.insert(surface.to_string(), mode.to_string());
    }
    let runner = runner(url, &args.host, location)?;
    let store = runner.store();
    let program = store.put_program(&files).map_err(|e| store_failure(e).context("storing the program"))?;
    let spec = SessionSpec {
        program: program.id,
        entry,
        argv: process.argv,
        env: process.env.into_iter().collect(),
        secrets: args.secrets.clone(),
        policy,
        allow_net: args.allow_net.clone(),
        tenant: "default".to_string(),
        max_instructions: args.max_instructions,
        max_heap: crate::run::heap_limit(args.max_heap),
        time_zone: args.tz.clone(),
        locale: args.locale.clone(),
    };
    amber_server::local::check_spec(&spec).map_err(Failure::usage)?;
    if let Some(name) = &args.session {
        amber::durable::store::validate_name(name)?;
    }
    let (row, created) = store.create_session(args.session.as_deref(), &spec).map_err(store_failure)?;
    if !created {
        return Err(Failure::usage(format!(
            "session {} already exists in the database; continue it with `amber resume {} --database`",
            row.id, row.id
        )));
    }
    follow(&runner, &row.id, 0)
}

/// `amber resume NAME --database URL`.
pub fn resume(args: &ResumeArgs, url: &str, location: &StoreLocation) -> CliResult<u8> {
    let runner = runner(url, &args.host, location)?;
    let store = runner.store();
    let name = &args.name;
    let row = store
        .session(name)
        .map_err(store_failure)?
        .ok_or_else(|| Failure::usage(format!("no session {name:?} in the database")))?;
    if matches!(row.status, ServerStatus::Completed | ServerStatus::Failed | ServerStatus::Cancelled) {
        return Err(Failure::usage(format!(
            "session {name} has {}; there is nothing to resume (see `amber inspect {name} --database`)",
            row.status.name()
        )));
    }
    let cursor = output_len(store, name)?;
    deliver(store, args)?;
    follow(&runner, name, cursor)
}

/// Flags of a local run a session in the database cannot carry (its spec has no place for
/// them); each is refused by name rather than dropped.
fn refuse_local_only_flags(args: &RunArgs) -> CliResult<()> {
    let given = [
        ("--module", args.module),
        ("--fs-reveal", !args.fs_reveal.is_empty()),
        ("--max-native-depth", args.max_native_depth != amber::engine::vm::DEFAULT_MAX_NATIVE_DEPTH),
        ("--fs-readonly", args.fs_readonly),
        ("--fs-max-file-bytes", args.fs_max_file_bytes.is_some()),
        ("--fs-max-total-bytes", args.fs_max_total_bytes.is_some()),
        ("--fs-max-entries", args.fs_max_entries.is_some()),
        ("--dump-bytecode", args.dump_bytecode),
        ("--stats", args.stats),
        ("--seed", args.seed.is_some()),
        ("--start-time", args.start_time.is_some()),
    ];
    match given.iter().find(|(_, set)| *set) {
        Some((flag, _)) => Err(Failure::usage(format!(
            "{flag} is not available with --database (a session in the database keeps only what a server's \
             session takes: docs/server.md); the program's amber.json can set filesystem limits"
        ))),
        None => Ok(()),
    }
}

/// The folder deployed as the program: `--fs DIR`, else the entry's project root.
fn bundle_root(fs: Option<&Path>, file: &Path) -> CliResult<PathBuf> {
    let root = match fs {
        Some(dir) => dir.to_path_buf(),
        None => crate::folder::project_root(file),
    };
    std::fs::canonicalize(&root).map_err(|e| Failure::usage(format!("cannot open {}: {e}", root.display())))
}

/// True if `dir` is a project (a `package.json` or `amber.json` in it).
fn has_project(dir: &Path) -> bool {
    dir.join("package.json").is_file() || dir.join(crate::serve::MANIFEST_FILE).is_file()
}

fn read(path: &Path) -> CliResult<Vec<u8>> {
    std::fs::read(path).map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))
}

/// Stores the results `--resolve`, `--reject`, `--input`, `--approve` and `--deny` give, in
/// that order, as the HTTP API stores them; the session's next slice delivers them.
fn deliver(store: &dyn Store, args: &ResumeArgs) -> CliResult<()> {
    let name = &args.name;
    let ops = store.session_ops(name).map_err(store_failure)?;
    let mut answers: Vec<(String, u64, OpResult)> = Vec::new();
    for spec in &args.resolves {
        let (id, json) = split_id(spec, "--resolve", "ID=JSON")?;
        let value = parse(json).map_err(|e| {
            Failure::usage(format!(
                "--resolve {id}: not valid JSON ({e}); quote strings, e.g. --resolve {id}='\"text\"'"
            ))
        })?;
        answers.push((format!("--resolve {id}"), id, OpResult::Result(value)));
    }
    for spec in &args.rejects {
        let (id, message) = split_id(spec, "--reject", "ID=MESSAGE")?;
        answers.push((format!("--reject {id}"), id, OpResult::Error(message.to_string())));
    }
    let mut inputs_taken: Vec<u64> = Vec::new();
    for spec in &args.inputs {
        let explicit = spec.split_once('=').and_then(|(id, text)| id.parse::<u64>().ok().map(|id| (id, text)));
        let (id, text) = match explicit {
            Some(pair) => pair,
            None => {
                let oldest = ops
                    .iter()
                    .filter(|op| op.kind == "input" && op.state == OpState::Pending && !inputs_taken.contains(&op.id))
                    .find(|op| !args.inputs.iter().any(|s| s.starts_with(&format!("{}=", op.id))))
                    .ok_or_else(|| Failure::usage("--input: the session is not waiting on any input"))?;
                (oldest.id, spec.as_str())
            }
        };
        if !ops.iter().any(|op| op.id == id && op.kind == "input") {
            return Err(Failure::usage(format!("--input {id}: operation {id} is not an input of session {name}")));
        }
        inputs_taken.push(id);
        answers.push((format!("--input {id}"), id, OpResult::Result(Value::String(text.to_string()))));
    }
    let decision = |approved: bool, reason: Option<&str>| amber::grants::Decision {
        approved,
        principal: args.principal.clone(),
        reason: reason.map(str::to_string),
        decided_at_ms: amber::wall_clock_ms(),
    };
    for spec in &args.approves {
        let id = spec
            .trim()
            .parse::<u64>()
            .map_err(|_| Failure::usage(format!("--approve: {spec:?} is not an operation id")))?;
        answers.push((format!("--approve {id}"), id, OpResult::Result(decision(true, None).to_json())));
    }
    for spec in &args.denies {
        let (id, reason) = split_id(spec, "--deny", "ID=REASON")?;
        answers.push((format!("--deny {id}"), id, OpResult::Result(decision(false, Some(reason)).to_json())));
    }
    for (flag, id, result) in answers {
        match store.resolve_op(name, id, &result, amber::wall_clock_ms()) {
            Ok(amber_store::ResolveOutcome::Accepted) => {}
            Ok(amber_store::ResolveOutcome::Duplicate) => {
                errln!("amber: operation {id} already has this result; {flag} changed nothing")
            }
            Err(StoreError::Conflict(message)) => {
                return Err(Failure::usage(format!("{flag}: {message}")));
            }
            Err(e) => return Err(store_failure(e).context(flag)),
        }
    }
    Ok(())
}

/// Runs (or follows) session `id` until it waits on the world or ends, printing its output
/// from chunk `cursor` on; returns the exit status `amber run` gives such an ending.
fn follow(runner: &LocalRunner, id: &str, mut cursor: u64) -> CliResult<u8> {
    let store = runner.store();
    loop {
        let ran = runner.run_slice(id).map_err(|e| Failure::usage(format!("session {id}: the store failed: {e}")))?;
        cursor = print_output(store, id, cursor)?;
        let row = store.session(id).map_err(store_failure)?.ok_or_else(|| {
            Failure::usage(format!("session {id} is no longer in the database (deleted by another process)"))
        })?;
        match row.status {
            ServerStatus::Completed | ServerStatus::Failed | ServerStatus::Cancelled => {
                return Ok(ended(&row.status, row.outcome.as_ref(), id))
            }
            ServerStatus::Suspended => {
                let ops = store.session_ops(id).map_err(store_failure)?;
                let waiting: Vec<&OpRow> =
                    ops.iter().filter(|op| matches!(op.state, OpState::Pending | OpState::Claimed)).collect();
                if ops.iter().any(|op| op.state == OpState::Completed) {
                    continue; // a result arrived (from a tool worker, the API): deliver it
                }
                if let Some(due) = near_sleep(&waiting) {
                    let now = amber::wall_clock_ms();
                    std::thread::sleep(Duration::from_millis(due.saturating_sub(now)));
                    continue;
                }
                print_waiting(id, &waiting);
                return Ok(exit::SUSPENDED);
            }
            // Another process runs it (or holds it until its lease expires): wait and look again.
            ServerStatus::Queued | ServerStatus::Running => {
                if let SliceRun::Elsewhere(_) = ran {
                    std::thread::sleep(FOLLOW_INTERVAL);
                }
            }
        }
    }
}

/// The due time of the sleep the session waits on, when it waits on nothing but sleeps and
/// the first is due within [`MAX_INLINE_WAIT_MS`] (the local run waits for those too).
fn near_sleep(waiting: &[&OpRow]) -> Option<u64> {
    if waiting.is_empty() || waiting.iter().any(|op| op.kind != "sleep") {
        return None;
    }
    let due = waiting.iter().filter_map(|op| op.due_time_ms).min()?;
    (due <= amber::wall_clock_ms().saturating_add(MAX_INLINE_WAIT_MS)).then_some(due)
}

/// Prints the session's committed output from chunk `from` on; returns the next cursor.
fn print_output(store: &dyn Store, id: &str, from: u64) -> CliResult<u64> {
    each_output(store, id, from, |chunk| match chunk.stream {
        OutputStream::Stdout => outln!("{}", chunk.text),
        OutputStream::Stderr => errln!("{}", chunk.text),
    })
}

/// How many output chunks the session has committed.
fn output_len(store: &dyn Store, id: &str) -> CliResult<u64> {
    each_output(store, id, 0, |_| {})
}

/// Calls `f` on each committed output chunk from `from` on, a page at a time; returns the
/// next cursor.
fn each_output(store: &dyn Store, id: &str, mut from: u64, mut f: impl FnMut(&OutputChunk)) -> CliResult<u64> {
    const PAGE: u64 = 1000;
    loop {
        let chunks = store.output(id, from, PAGE).map_err(store_failure)?;
        chunks.iter().for_each(&mut f);
        from += chunks.len() as u64;
        if (chunks.len() as u64) < PAGE {
            return Ok(from);
        }
    }
}

/// Reports how a session ended (stderr) and returns the exit status a local run gives it.
fn ended(status: &ServerStatus, outcome: Option<&Value>, id: &str) -> u8 {
    let none = Value::Null;
    let outcome = outcome.unwrap_or(&none);
    if *status == ServerStatus::Cancelled {
        errln!("amber: session {id} was cancelled");
        return exit::UNCAUGHT;
    }
    if let Some(code) = outcome["exit_code"].as_i64() {
        return program_exit_status(i32::try_from(code).unwrap_or(1));
    }
    if *status == ServerStatus::Completed {
        return exit::OK;
    }
    let error = &outcome["error"];
    match error["code"].as_str() {
        Some(code) => {
            let message = error["message"].as_str().unwrap_or("");
            errln!("amber: session {id}: {message}");
            match code {
                "limit" => exit::LIMIT,
                "integrity" => exit::INTEGRITY,
                "internal" => exit::INTERNAL,
                _ => exit::USAGE,
            }
        }
        None => {
            let stack = error["stack"].as_str().unwrap_or("");
            match (error["syntax"].as_bool() == Some(true), error["unhandled_rejection"].as_bool() == Some(true)) {
                (true, _) => errln!("{stack}"),
                (false, true) => errln!("Uncaught (in promise) {stack}"),
                (false, false) => errln!("Uncaught {stack}"),
            }
            exit::UNCAUGHT
        }
    }
}

/// The operations a suspended session waits on, and how to answer them.
fn print_waiting(id: &str, waiting: &[&OpRow]) {
    let now = amber::wall_clock_ms();
    errln!(
        "amber: suspended: session {id} is waiting on {} operation{}",
        waiting.len(),
        if waiting.len() == 1 { "" } else { "s" }
    );
    let mut hint = format!("amber: resume with: amber resume {id} --database");
    for op in waiting {
        let Some(kind) = OpKind::from_name(&op.kind) else { continue };
        let pending = PendingOp {
            id: op.id,
            seq: op.seq,
            kind,
            name: op.name.clone(),
            args: op.args.clone(),
            due_time_ms: op.due_time_ms,
        };
        errln!("  {}", describe_op(&pending, now));
        match kind {
            OpKind::Call if op.state == OpState::Claimed => {}
            OpKind::Call => hint.push_str(&format!(" --resolve {}='<json>'", op.id)),
            OpKind::Input => hint.push_str(&format!(" --input {}='<text>'", op.id)),
            OpKind::Approval => hint.push_str(&format!(" --approve {} (or --deny {}='<reason>')", op.id, op.id)),
            OpKind::Sleep | OpKind::Http => {}
        }
    }
    errln!("{hint}");
    errln!("amber: (a tool worker or an `amber serve` sharing the database may answer and run it meanwhile)");
}
