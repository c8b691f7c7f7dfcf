//! A worker thread: takes runnable sessions from the scheduler and runs one slice of each.
//!
//! A slice restores the session from its newest image (or starts it, or recovers it from its
//! journal when it crashed before its first image), delivers the results stored for it,
//! completes due sleeps, and runs until the program waits on something only the world can
//! answer. Network requests and `--host` operations are served inside the slice, each after
//! the records before it are committed (intent before effect). Every commit is one
//! transaction of journal records, the output captured (per thread) since the last commit, and
//! an image of the state after both: a crash restores from that image, so committed output is
//! never printed again and uncommitted output is printed by the re-run.

use std::cell::Cell;
use std::sync::atomic::Ordering;
use std::time::Instant;

use amber::durable::digest::Digest;
use amber::durable::journal::CallRecord;
use amber::durable::store::{NewSession, OutputChunk, OutputStream, SessionStatus, Source};
use amber::engine::vm::Stream;
use amber::engine::Vm;
use amber::lower::{BlobSource, HostFolder};
use amber::net::NetPolicy;
use amber::{OpKind, Outcome, PendingOp, Policy, ProcessInputs, Program, Runtime};
use amber_store::{OpResult, Progress, ServerStatus, Slice, SliceEnd};
use serde_json::json;

use crate::bundle::{self, MOUNT};
use crate::Shared;

thread_local! {
    /// Output of the slice running on this thread, not yet committed.
    static OUTPUT: Cell<Vec<OutputChunk>> = const { Cell::new(Vec::new()) };
}

fn capture_print(_vm: &mut Vm, stream: Stream, text: &str) {
    let stream = match stream {
        Stream::Stdout => OutputStream::Stdout,
        Stream::Stderr => OutputStream::Stderr,
    };
    OUTPUT.with(|o| {
        let mut chunks = o.take();
        chunks.push(OutputChunk { stream, text: text.to_string() });
        o.set(chunks);
    });
}

fn take_output() -> Vec<OutputChunk> {
    OUTPUT.with(Cell::take)
}

/// The session's policy: the durable default with its `policy` overrides; it must stay
/// durable (every surface seeded, captured or disabled).
/// The policy a session runs under: its own choices, then the manifest's surface modes (a
/// session that chose otherwise for a surface the manifest sets is refused).
pub(crate) fn run_policy(
    spec: &amber_store::SessionSpec,
    grants: Option<&amber::grants::Grants>,
) -> Result<Policy, String> {
    let mut policy = session_policy(spec)?;
    let Some(manifest) = grants.map(amber::grants::Grants::manifest) else { return Ok(policy) };
    for surface in amber::PolicySurface::ALL.into_iter().filter(|s| manifest.policy_set.iter().any(|n| n == s.name())) {
        let theirs = manifest.policy.mode(surface);
        if spec.policy.iter().any(|(s, _)| s == surface.name()) && policy.mode(surface) != theirs {
            return Err(format!(
                "policy: the session asks {}={} but the program's manifest sets {theirs}",
                surface.name(),
                policy.mode(surface)
            ));
        }
        policy = policy.with(surface, theirs);
    }
    Ok(policy)
}

pub(crate) fn session_policy(spec: &amber_store::SessionSpec) -> Result<Policy, String> {
    let mut policy = Policy::durable();
    for (surface, mode) in &spec.policy {
        policy = policy.with_named(surface, mode).map_err(|e| format!("policy: {e}"))?;
    }
    policy.ensure_durable_safe().map_err(|e| format!("policy: {e}"))?;
    Ok(policy)
}

/// Blobs (captured file reads, network bodies) from the server's store, whichever backend.
fn blob_source(shared: &Shared) -> BlobSource {
    let store = shared.store.clone();
    Box::new(move |hash| store.blob(&Digest(*hash)).ok().flatten())
}

/// The worker loop; returns when the scheduler stops.
pub fn run(shared: &Shared) {
    while let Some((id, tenant)) = shared.scheduler.next() {
        let started = Instant::now();
        shared.metrics.slice_started(&id);
        // The slice as a span of the session's trace (`--otlp`; crate::otlp::layer): its
        // run id is recorded at the first commit, once the run has one.
        let span = tracing::info_span!("amber.slice", session = %id, run_id = tracing::field::Empty);
        let entered = span.enter();
        match attempt(shared, &id) {
            Attempt::Ran(report) => after_slice(shared, &id, &tenant, &report),
            Attempt::AtLimit(message) => {
                // Its tenant's slots are taken on other servers: look again shortly (a slot
                // frees when one of those slices ends; no server is told of that).
                tracing::debug!(session = %id, reason = %message, "slice deferred");
                shared.scheduler.add_timer(&id, &tenant, amber::wall_clock_ms().saturating_add(AT_LIMIT_RETRY_MS));
            }
            Attempt::Elsewhere(message) => {
                // Another server holds the session (or took it over): it runs there.
                tracing::debug!(session = %id, reason = %message, "slice left to another server");
            }
            Attempt::StoreFailed(message) => {
                // The store failed (I/O, busy): nothing the session did is lost; it runs again
                // when next woken or when the server restarts.
                tracing::error!(session = %id, error = %message, "slice could not commit");
            }
            Attempt::Failed(_) => {}
        }
        drop(entered);
        drop(span);
        if let Some(exporter) = &shared.exporter {
            exporter.slice_ended(&id);
        }
        shared.metrics.slices.observe(started.elapsed().as_secs_f64());
        shared.metrics.slices_total.fetch_add(1, Ordering::Relaxed);
        shared.scheduler.done(&id, &tenant);
    }
}

/// How one attempt at a slice ended.
pub(crate) enum Attempt {
    /// The slice ran, or found the session finished or cancelled.
    Ran(SliceReport),
    /// The session's tenant runs its limit of sessions on the servers sharing the store.
    AtLimit(String),
    /// Another process holds the session's lease, or took it over mid-slice.
    Elsewhere(String),
    /// The store failed; the session is left as it was.
    StoreFailed(String),
    /// The session cannot run; it is recorded as failed with this message (if the store
    /// could record it).
    Failed(String),
}

/// Runs one slice of session `id`; a session that cannot run is recorded as failed.
pub(crate) fn attempt(shared: &Shared, id: &str) -> Attempt {
    take_output();
    match run_slice(shared, id) {
        Ok(report) => Attempt::Ran(report),
        Err(SliceError::AtLimit(message)) => Attempt::AtLimit(message),
        Err(SliceError::Elsewhere(message)) => Attempt::Elsewhere(message),
        Err(SliceError::Store(message)) => Attempt::StoreFailed(message),
        Err(SliceError::Session(message)) => {
            tracing::warn!(session = %id, error = %message, "session failed");
            let outcome = json!({ "error": { "code": "server", "message": message } });
            match shared.store.fail_session(id, &outcome) {
                Ok(()) => shared.events.publish(id, "status", json!({ "status": "failed", "outcome": outcome })),
                Err(e) => tracing::error!(session = %id, error = %e, "could not record the failure"),
            }
            Attempt::Failed(message)
        }
    }
}

/// How long a session refused for its tenant's limit waits before its next claim.
const AT_LIMIT_RETRY_MS: u64 = 100;

/// Why a slice did not finish.
enum SliceError {
    /// The store failed; the session is left as it was.
    Store(String),
    /// Another server holds the session's lease (or took it over mid-slice): nothing this
    /// slice did after the take-over was committed.
    Elsewhere(String),
    /// The session's tenant runs its limit of sessions on the servers sharing the store:
    /// nothing was claimed; it is tried again after [`AT_LIMIT_RETRY_MS`].
    AtLimit(String),
    /// The session cannot run (its program, entry or secrets are missing, its image or
    /// journal does not restore): it fails with this message.
    Session(String),
}

impl From<amber_store::StoreError> for SliceError {
    fn from(e: amber_store::StoreError) -> Self {
        match e {
            amber_store::StoreError::Busy(_) | amber_store::StoreError::LeaseLost(_) => {
                SliceError::Elsewhere(e.to_string())
            }
            amber_store::StoreError::AtLimit(message) => SliceError::AtLimit(message),
            amber_store::StoreError::Durable(amber::durable::DurableError::Store { .. })
            | amber_store::StoreError::Database(_) => SliceError::Store(e.to_string()),
            other => SliceError::Session(other.to_string()),
        }
    }
}

impl From<String> for SliceError {
    fn from(message: String) -> Self {
        SliceError::Session(message)
    }
}

/// What a slice left behind.
pub(crate) struct SliceReport {
    pub status: ServerStatus,
    pub pending: Vec<PendingOp>,
}

fn after_slice(shared: &Shared, id: &str, tenant: &str, report: &SliceReport) {
    shared.events.publish(id, "status", json!({ "status": report.status.name() }));
    if report.status != ServerStatus::Suspended {
        return;
    }
    for op in &report.pending {
        shared.events.publish(id, "op.issued", json!({ "id": op.id, "kind": op.kind.name(), "name": op.name }));
    }
    if report.pending.iter().any(|op| op.kind == OpKind::Call) {
        shared.ops_available.notify_waiters();
    }
    if let Some(due) = report.pending.iter().filter(|op| op.kind == OpKind::Sleep).filter_map(|op| op.due_time_ms).min()
    {
        shared.scheduler.add_timer(id, tenant, due);
    }
}

/// The slice's instruction budget (`--slice-instructions`): the VM runs with at most that
/// much of its whole-run fuel; the rest is held here and put back around every snapshot, so
/// images keep the session's true remaining budget. A slice that uses it all fails the session
/// with the limit error instead of holding its worker thread.
struct SliceFuel {
    hidden: u64,
}

impl SliceFuel {
    fn limit(runtime: &mut Runtime, cap: u64) -> SliceFuel {
        let vm = runtime.vm_mut();
        let given = vm.fuel.min(cap);
        let hidden = vm.fuel - given;
        vm.fuel = given;
        SliceFuel { hidden }
    }

    /// The image, taken with the whole-run budget in place.
    fn snapshot(&self, runtime: &mut Runtime) -> amber::Result<Vec<u8>> {
        runtime.vm_mut().fuel += self.hidden;
        let image = runtime.snapshot();
        runtime.vm_mut().fuel -= self.hidden;
        image
    }
}

/// What the runtime has produced since the last commit, taken out of it for one commit.
struct Taken {
    blobs: Vec<(Digest, std::sync::Arc<[u8]>)>,
    records: Vec<CallRecord>,
    output: Vec<OutputChunk>,
    image: Option<Vec<u8>>,
}

impl Taken {
    /// Takes the runtime's new blobs, records and output, with an image of where it stands
    /// (`imaged`: false for a session that finished, which nothing resumes, or ended in an
    /// error, which no image represents).
    fn from(runtime: &mut Runtime, fuel: &SliceFuel, imaged: bool) -> Result<Taken, SliceError> {
        let image = match imaged {
            true => Some(fuel.snapshot(runtime).map_err(|e| format!("imaging the session: {e}"))?),
            false => None,
        };
        Ok(Taken { blobs: runtime.take_blobs(), records: runtime.take_records(), output: take_output(), image })
    }

    /// Commits it through `commit` (inside a span naming its size), then publishes the output.
    fn commit(
        self,
        shared: &Shared,
        slice: &mut dyn Slice,
        runtime: &Runtime,
        commit: impl FnOnce(&mut dyn Slice, Progress<'_>) -> Result<(), SliceError>,
    ) -> Result<(), SliceError> {
        let refs: Vec<(Digest, &[u8])> = self.blobs.iter().map(|(h, b)| (*h, &b[..])).collect();
        if let Some(run_id) = runtime.run_id() {
            tracing::Span::current().record("run_id", run_id.as_str());
        }
        let _commit = tracing::info_span!(
            "amber.commit",
            records = self.records.len(),
            output_chunks = self.output.len(),
            image_bytes = self.image.as_ref().map_or(0, Vec::len)
        )
        .entered();
        let progress =
            Progress { blobs: &refs, records: &self.records, output: &self.output, image: self.image.as_deref() };
        commit(slice, progress)?;
        for chunk in &self.output {
            shared.events.publish(
                slice.row().id.as_str(),
                "output",
                json!({ "stream": chunk.stream, "text": chunk.text }),
            );
        }
        Ok(())
    }
}

/// Commits what the runtime has produced since the last commit, with an image of where it
/// stands (the session goes on: a crash restores from that image).
fn commit(shared: &Shared, slice: &mut dyn Slice, runtime: &mut Runtime, fuel: &SliceFuel) -> Result<(), SliceError> {
    Taken::from(runtime, fuel, true)?
        .commit(shared, slice, runtime, |slice, progress| Ok(slice.commit_progress(progress)?))
}

fn run_slice(shared: &Shared, id: &str) -> Result<SliceReport, SliceError> {
    let mut slice = match shared.store.open_slice(id) {
        Ok(slice) => slice,
        // Finished or cancelled meanwhile: nothing to run.
        Err(amber_store::StoreError::Conflict(_)) => {
            return Ok(SliceReport { status: ServerStatus::Cancelled, pending: Vec::new() })
        }
        Err(e) => return Err(e.into()),
    };
    if slice.row().cancel_requested {
        // Cancelled while it waited for a worker: stop here, without running it.
        drop(slice);
        shared.store.request_cancel(id)?;
        return Ok(SliceReport { status: ServerStatus::Cancelled, pending: Vec::new() });
    }
    let spec = slice.row().spec.clone();
    let program =
        shared.store.program(&spec.program)?.ok_or_else(|| format!("program {} is not in the store", spec.program))?;
    let sources = slice.loaded().map_or(&[][..], |loaded| &loaded.sources[..]);
    let Setup { manifest, policy, builder, entry } = setup(shared, id, &spec, &program, sources, false)?;
    let grants = manifest.as_ref().map(|(_, g)| g.clone());

    let (mut runtime, fuel, mut result) = match slice.loaded() {
        Some(loaded) => match &loaded.image {
            Some(image) => {
                // The image's code hashes must be the stored sources' (a re-sealed manifest
                // could otherwise pair a heap compiled from other code with these sources).
                image.check_code_hashes(&loaded.sources).map_err(|e| e.to_string())?;
                let mut runtime = builder.restore(&image.bytes, Some(&loaded.journal)).map_err(|e| e.to_string())?;
                let fuel = SliceFuel::limit(&mut runtime, shared.slice_instructions);
                let caught_up = runtime.resume();
                (runtime, fuel, caught_up)
            }
            None => {
                let mut runtime = builder.recover(&loaded.journal).map_err(|e| e.to_string())?;
                let fuel = SliceFuel::limit(&mut runtime, shared.slice_instructions);
                let first = runtime.run(&entry);
                (runtime, fuel, first)
            }
        },
        None => {
            let mut sources = vec![Source::new(&entry.filename, &entry.source)];
            if let Some((manifest_text, _)) = &manifest {
                sources.push(Source::new(amber::grants::MANIFEST_CODE_PATH, manifest_text));
            }
            let new = NewSession { entry: entry.filename.clone(), module: entry.module, policy, sources };
            slice.create_durable(&new)?;
            let mut runtime = builder.build().map_err(|e| e.to_string())?;
            let fuel = SliceFuel::limit(&mut runtime, shared.slice_instructions);
            let first = runtime.run(&entry);
            (runtime, fuel, first)
        }
    };

    if let Ok(Outcome::Suspended(_)) = &result {
        deliver(slice.as_mut(), &mut runtime)?;
        runtime.complete_due_sleeps(amber::wall_clock_ms());
        result = runtime.resume();
    }
    result = drive(shared, slice.as_mut(), &mut runtime, &fuel, result, id)?;
    finish(shared, slice.as_mut(), &mut runtime, &fuel, result, grants.as_deref(), id)
}

/// What a session runs, made ready: its program's manifest, the runtime builder the session's
/// spec describes (over the program's folder, mounted read-only at [`MOUNT`], where the
/// session's own module sources — an upgrade's new code — stand in for the folder's files),
/// and its entry program.
pub(crate) struct Setup {
    /// The manifest's text and compiled grants (None: a program deployed before manifests).
    pub manifest: Option<(String, amber::grants::SharedGrants)>,
    /// The policy the session runs under.
    pub policy: Policy,
    /// The runtime builder.
    pub builder: amber::RuntimeBuilder,
    /// The entry file, read from the program's folder.
    pub entry: Program,
}

/// The [`Setup`] of session `id` running `program` (its `spec` names it) with its stored
/// `sources`; `upgrading`: an upgrade replays, and the program's files that differ from what
/// the session ran are its new code (`HostFolder::upgrading_from`).
pub(crate) fn setup(
    shared: &Shared,
    id: &str,
    spec: &amber_store::SessionSpec,
    program: &amber_store::ProgramManifest,
    sources: &[Source],
    upgrading: bool,
) -> Result<Setup, String> {
    let dir = bundle::materialize(shared.store.as_ref(), &shared.store_dir, program)?;
    let manifest = bundle::grants_of(&dir)?;
    let grants = manifest.as_ref().map(|(_, g)| g.clone());
    let policy = run_policy(spec, grants.as_deref())?;
    let granted_hosts = grants.iter().flat_map(|g| g.manifest().net_allow.iter());

    let mut builder = Runtime::builder()
        .print_hook(capture_print)
        .module_loader(amber::node::loader::load_module)
        .policy(policy)
        .grants(grants.clone())
        .max_instructions(spec.max_instructions.or(shared.max_instructions))
        .max_heap_bytes(spec.max_heap.or(shared.max_heap))
        .time_zone(spec.time_zone.clone())
        .locale(spec.locale.clone())
        .net_policy(
            NetPolicy::parse(spec.allow_net.iter().chain(granted_hosts).map(String::as_str)).unwrap_or_default(),
        )
        .session_label(id)
        .process_inputs(ProcessInputs { argv: spec.argv.clone(), env: spec.env.clone().into_iter().collect() });
    for name in &spec.secrets {
        let value = std::env::var(name).map_err(|_| format!("the secret {name} is not in the server's environment"))?;
        builder = builder.secret(name, &value);
    }
    if let Some(key) = &shared.image_key {
        builder = builder.image_key(key.clone());
    }
    if shared.transport != amber::net::TransportConfig::default() {
        builder = builder.http_transport(Box::new(amber::net::UreqTransport::with_config(&shared.transport)?));
    }
    let entry_path = format!("{MOUNT}/{}", spec.entry);
    let folder = HostFolder::open(&dir, &[], Some(blob_source(shared)))
        .map_err(|e| format!("program folder {}: {e}", dir.display()))?;
    let code_files = sources
        .iter()
        .filter(|s| s.path != entry_path)
        .filter_map(|s| Some((s.path.strip_prefix(MOUNT)?.strip_prefix('/')?, s.text.as_str())));
    let folder = code_files.fold(folder, |folder, (rel, text)| folder.with_code_file(rel, text));
    let folder = match upgrading {
        true => folder.upgrading_from(&dir)?,
        false => folder,
    };
    let builder = builder.blob_source(blob_source(shared)).lower_folder(folder, MOUNT, MOUNT);

    let host_entry = dir.join(&spec.entry);
    let text = std::fs::read_to_string(&host_entry).map_err(|e| format!("entry {}: {e}", spec.entry))?;
    let format = amber::node::loader::resolve::format_of(
        &mut amber::node::loader::HostDisk,
        host_entry.to_str().unwrap_or_default(),
    );
    let module = format == amber::node::loader::resolve::Format::Module;
    let entry = Program { filename: entry_path, source: text, module, commonjs: !module };
    Ok(Setup { manifest, policy, builder, entry })
}

/// Delivers stored results for operations the VM still waits on (one it no longer lists was
/// delivered by an earlier slice whose bookkeeping a crash cut short: the journal has it).
fn deliver(slice: &mut dyn Slice, runtime: &mut Runtime) -> Result<(), SliceError> {
    let pending = runtime.pending();
    for (op, result) in slice.undelivered()? {
        let Some(kind) = pending.iter().find(|p| p.id == op).map(|p| p.kind) else { continue };
        let delivered = match result {
            OpResult::Result(value) if kind == OpKind::Approval => match amber::grants::Decision::from_json(&value) {
                Some(decision) => runtime.decide(op, &decision),
                None => Err(amber::Error::Usage(format!("the stored decision on approval {op} is not one"))),
            },
            OpResult::Result(value) => runtime.resolve(op, value),
            OpResult::Error(message) => runtime.reject(op, &message),
        };
        delivered.map_err(|e| format!("delivering operation {op}: {e}"))?;
    }
    Ok(())
}

/// Serves what the slice can itself (network, `--host` operations, due sleeps) until the
/// program waits on the world or ends.
fn drive(
    shared: &Shared,
    slice: &mut dyn Slice,
    runtime: &mut Runtime,
    fuel: &SliceFuel,
    first: amber::Result<Outcome>,
    id: &str,
) -> Result<amber::Result<Outcome>, SliceError> {
    let mut result = first;
    loop {
        let Ok(Outcome::Suspended(pending)) = &result else { return Ok(result) };
        if runtime.network_pending() {
            commit(shared, slice, runtime, fuel)?;
            if runtime.serve_network().map_err(|e| e.to_string())? {
                result = runtime.resume();
                continue;
            }
        }
        if let Some(hosts) = &shared.hosts {
            let served: Vec<PendingOp> =
                pending.iter().filter(|op| op.kind == OpKind::Call && hosts.serves(&op.name)).cloned().collect();
            if !served.is_empty() {
                commit(shared, slice, runtime, fuel)?;
                let run_id = runtime.run_id().unwrap_or_default();
                let outcomes = hosts.execute(&served, id, &run_id);
                for (op, (outcome, duration)) in served.iter().zip(outcomes) {
                    runtime.resolve_with_duration(op.id, outcome, duration).map_err(|e| e.to_string())?;
                }
                result = runtime.resume();
                continue;
            }
        }
        if !runtime.complete_due_sleeps(amber::wall_clock_ms()).is_empty() {
            result = runtime.resume();
            continue;
        }
        return Ok(result);
    }
}

fn finish(
    shared: &Shared,
    slice: &mut dyn Slice,
    runtime: &mut Runtime,
    fuel: &SliceFuel,
    result: amber::Result<Outcome>,
    grants: Option<&amber::grants::Grants>,
    id: &str,
) -> Result<SliceReport, SliceError> {
    let (durable, status, outcome) = match &result {
        Ok(Outcome::Suspended(_)) => (SessionStatus::Suspended, ServerStatus::Suspended, None),
        Ok(Outcome::Completed(value)) => {
            (SessionStatus::Completed, ServerStatus::Completed, Some(json!({ "value": value })))
        }
        Ok(Outcome::Exited(0)) => (SessionStatus::Completed, ServerStatus::Completed, Some(json!({ "exit_code": 0 }))),
        Ok(Outcome::Exited(code)) => (SessionStatus::Failed, ServerStatus::Failed, Some(json!({ "exit_code": code }))),
        Ok(Outcome::Threw(report)) => (
            SessionStatus::Failed,
            ServerStatus::Failed,
            Some(json!({ "error": {
                "name": report.name, "message": report.message, "stack": report.stack,
                "unhandled_rejection": report.in_promise, "syntax": report.syntax,
            } })),
        ),
        Err(amber::Error::Limit(amber::engine::Limit::Fuel)) if fuel.hidden > 0 => {
            let message = format!(
                "the slice instruction limit ({} instructions without waiting on an operation) was exceeded",
                shared.slice_instructions
            );
            (
                SessionStatus::Failed,
                ServerStatus::Failed,
                Some(json!({ "error": { "code": "limit", "message": message } })),
            )
        }
        Err(e) => {
            let code = match e {
                amber::Error::Limit(_) => "limit",
                amber::Error::Divergence { .. } | amber::Error::Image(_) => "integrity",
                amber::Error::Durable(_) => "durable",
                amber::Error::Usage(_) => "internal",
            };
            (
                SessionStatus::Failed,
                ServerStatus::Failed,
                Some(json!({ "error": { "code": code, "message": e.to_string() } })),
            )
        }
    };
    let pending = match &result {
        Ok(Outcome::Suspended(pending)) => pending.clone(),
        _ => Vec::new(),
    };
    let run_id = runtime.run_id().unwrap_or_default();
    let policy = |name: &str| bundle::op_policy(grants, name);
    let key = |op: &PendingOp| amber::idempotency_key(id, &run_id, op.seq);
    let end = SliceEnd { durable, status, outcome, pending: &pending, policy: &policy, key: &key };
    // Only a suspended session is imaged: a finished one's last records commit with its
    // final status, in one transaction, and nothing resumes it.
    let suspended = matches!(result, Ok(Outcome::Suspended(_)));
    Taken::from(runtime, fuel, suspended)?.commit(
        shared,
        slice,
        runtime,
        |slice, last| Ok(slice.finish(last, end)?),
    )?;
    Ok(SliceReport { status: slice.row().status, pending })
}
