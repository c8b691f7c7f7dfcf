//! [`Runtime`]: one durable run of a program — start it, drive its event loop until it is
//! idle, hand the host its pending operations, deliver their results, image it, restore it.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

use amber_durable::canonical_json::{check_depth, parse};
use amber_durable::capability::{Capability, CapabilityLedger};
use amber_durable::digest::{sha256, Digest};
use amber_durable::image::{decode_image, encode_image, HeapStats, Manifest, PendingOp};
use amber_durable::journal::{Attempt, CallRecord, CallResult, Journal, JournalHead, OpKind, RecordDraft, RecordKind};
use amber_durable::policy::Policy;
use amber_engine::error::SyntaxErrorReport;
use amber_engine::heap::object::{Class, PromiseState};
use amber_engine::vm::{PrintHook, Stream};
use amber_engine::{Value, Vm, VmOptions};
use amber_node::modules::process::ProcessInputs;
use amber_node::timers;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::event_loop::{op_kind, waiting_on, Core, Delivery};
use crate::grants::{Decision, SharedGrants, MANIFEST_CODE_PATH};
use crate::host_functions::{HostFunctions, Served};
use crate::json::primitive_to_json;
use crate::lower::{BlobSource, HostFolder};
use crate::net::{HttpHandler, HttpTransport, Net, NetPolicy};
use crate::policy::{apply_policy, check_policy, register_policy};
use crate::recorder::{describe, with_active, Recorder};
use crate::seed::VfsSeed;
use amber_engine::vfs::LowerLayer;
use std::sync::{Arc, Mutex};
mod answers;
mod builder;
mod image_every_turn;
mod repl;

use builder::{rebind_host_functions, with_kept_baseline, LowerMountSpec};
pub use builder::{FsLimits, RuntimeBuilder};

/// Engine version written on images; restore refuses any other. The `heap.N` revision names
/// the heap payload's schema (the engine's serde declarations): bump it whenever a heap type,
/// the `Op` enum or the `Vm` fields change shape, so an older image is refused by name
/// instead of failing to decode. 3: eval sites and var bags, arena floors. 5: shared data
/// blocks, pending waitAsync waiters. 7: Intl objects. 8: the overlay VFS (lower-layer inodes,
/// the mount and its manifest, source texts' lower spans). 9: Intl NumberFormat, ListFormat,
/// Segmenter, Segments and Segment Iterator slots, their prototypes in the realm. 10: Intl
/// DateTimeFormat, Locale, RelativeTimeFormat and DisplayNames slots and prototypes. 11:
/// DateTimeFormat's requested components and resolved hour cycle (Temporal formats), Intl
/// DurationFormat slots and prototype, Intl.supportedValuesOf. 12: code blocks' suspend sites
/// (the captured bindings in scope at each `Await`, for `$frames`). 13: decorator ops
/// (Decorate, RunInitializers, NewMetadata, DefineMetadata), Symbol.metadata. 14: code
/// blocks' error sites (the callee, iterable or destructured value a TypeError names). 15: the
/// VFS counts upper entries (`Inode::from_lower`, the upper-entry count, `max_entries`). 16:
/// code blobs (a code block's place in its source's blob, a source's blob hash, the code
/// arena's shared slots and blob table). 17: the opcode table (four instructions the compiler
/// never emitted removed, so the rest are renumbered) and code blocks' `max_stack`. 18: a
/// timer's `this` (Node's `Timeout` / `Immediate` object), code blocks' inferred names (the
/// member an anonymous function was assigned to, for stack frames). 19: superinstructions
/// (`GetPropCallee` replaces `GetPropKeep`+`Swap`, `GetThisProp`, `PutProp`/`PutElem`, the
/// register updates `IncLocal`…`PostDecLocal`, the compare-and-branch `JumpUnless…` ops).
pub const ENGINE_VERSION: &str =
    concat!("amber-engine ", env!("CARGO_PKG_VERSION"), "+heap.19+temporal_rs.0.2.6+icu4x.2.4.0");

/// `vm.host_state` entry the Math.random generator is seeded from (8 bytes LE).
const RANDOM_SEED_KEY: &str = "random.seed";
/// `vm.host_state` entry: the run's id ([`Runtime::run_id`]), 8 bytes.
const RUN_ID_KEY: &str = "amber.run_id";
/// `vm.host_state` entry holding this crate's own state ([`DurableState`], JSON).
const DURABLE_STATE_KEY: &str = "amber.durable";

/// A program to run: its file name (used in stack traces and divergence reports) and text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Path as shown in stack traces.
    pub filename: String,
    /// Source text.
    pub source: String,
    /// ES module: imports load through `Vm::module_loader`, which the embedder sets.
    pub module: bool,
    /// CommonJS module (when not `module`): run as `node` runs a `.js` file, with `require`,
    /// `module`, `exports`, `__filename` and `__dirname` (`filename` should be absolute).
    pub commonjs: bool,
}

impl Program {
    /// A classic script.
    pub fn script(filename: impl Into<String>, source: impl Into<String>) -> Program {
        Program { filename: filename.into(), source: source.into(), module: false, commonjs: false }
    }

    /// A CommonJS entry module (see [`Program::commonjs`]).
    pub fn commonjs(filename: impl Into<String>, source: impl Into<String>) -> Program {
        Program { filename: filename.into(), source: source.into(), module: false, commonjs: true }
    }
}

/// Where a run stands when [`Runtime::run`] or [`Runtime::resume`] returns.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The event loop ran dry: nothing pending, nothing scheduled. Carries the script's
    /// completion value when it is a primitive (else null).
    Completed(serde_json::Value),
    /// Idle, waiting on host operations (by id); deliver results and resume.
    Suspended(Vec<PendingOp>),
    /// An uncaught exception or unhandled rejection ended the run.
    Threw(ErrorReport),
    /// The program called `process.exit(code)`, or ran dry with a non-zero
    /// `process.exitCode`: the process exit status it asked for.
    Exited(i32),
}

/// An uncaught error, as Node reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorReport {
    /// Constructor name of the thrown error ("TypeError"), "" for non-errors.
    pub name: String,
    /// Its message.
    pub message: String,
    /// V8-format stack (`Name: message\n    at f (file:line:col)`), or the inspected value
    /// of a thrown non-error, or the full syntax error report.
    pub stack: String,
    /// An unhandled promise rejection rather than a synchronous throw.
    pub in_promise: bool,
    /// A syntax error: nothing ran.
    pub syntax: bool,
}

impl ErrorReport {
    pub(crate) fn syntax(report: &SyntaxErrorReport) -> ErrorReport {
        ErrorReport {
            name: "SyntaxError".into(),
            message: report.message.clone(),
            stack: report.to_string(),
            in_promise: false,
            syntax: true,
        }
    }

    pub(crate) fn thrown(vm: &mut Vm, value: Value, in_promise: bool) -> ErrorReport {
        let (name, message, stack) = vm.describe_thrown(value);
        let stack = if value.is_object() { stack } else { amber_node::inspect::inspect(vm, value) };
        ErrorReport { name, message, stack, in_promise, syntax: false }
    }
}

impl fmt::Display for ErrorReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.syntax, self.in_promise) {
            (true, _) => f.write_str(&self.stack),
            (false, true) => write!(f, "Uncaught (in promise) {}", self.stack),
            (false, false) => write!(f, "Uncaught {}", self.stack),
        }
    }
}

pub use crate::host_functions::HostHandler;

/// What one REPL input came to ([`Runtime::repl_eval`]).
#[derive(Clone, Debug, PartialEq)]
pub enum ReplEval {
    /// Its value, as Node's REPL shows it (strings quoted); `_` holds it.
    Value(String),
    /// It awaits at top level: run the event loop ([`Runtime::resume`]), then ask
    /// [`Runtime::repl_settled`].
    Awaiting,
    /// It threw (or did not parse); `_error` holds what it threw.
    Threw(ErrorReport),
    /// It ended the program (`process.exit`).
    Ended(Outcome),
}

/// Configures a [`Runtime`]: policy, limits, host functions, output, clocks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    NotStarted,
    Running,
    Ended,
}

/// One durable run (DESIGN §6–§8). See the crate docs for the life cycle.
pub struct Runtime {
    core: Core,
    policy: Policy,
    hosts: HostFunctions,
    deliveries: VecDeque<Delivery>,
    /// Per pending call retried in this process: the ms its recorded attempts and backoffs
    /// took, so each attempt record is stamped where it ended, not where the call began.
    attempts_elapsed: BTreeMap<u64, u64>,
    wall_clock: fn() -> u64,
    start_time_ms: Option<u64>,
    seed: Option<[u8; 32]>,
    image_key: Option<Vec<u8>>,
    code_hashes: BTreeMap<String, Digest>,
    vfs_seed: Option<VfsSeed>,
    vfs_seed_hash: Option<Digest>,
    lower: Option<LowerMountSpec>,
    process: ProcessInputs,
    net: Net,
    completion: serde_json::Value,
    state: State,
    repl: bool,
    /// [`RuntimeBuilder::partial_line_hook`].
    partial_print: Option<PrintHook>,
    grants: Option<SharedGrants>,
    fs_limits: FsLimits,
    /// [`RuntimeBuilder::image_every_turn`].
    image_every_turn: bool,
}

/// The code of a coded error message, `"TypeError [CODE]: …"` (Node's form).
pub(crate) fn error_code(message: &str) -> Option<String> {
    let (_, rest) = message.split_once(" [")?;
    let (code, _) = rest.split_once("]: ")?;
    (!code.is_empty() && !code.contains(' ')).then(|| code.to_string())
}

/// This crate's state riding the image (host_state [`DURABLE_STATE_KEY`]).
#[derive(Serialize, Deserialize, Default)]
struct DurableState {
    /// Logical issue time of each pending host operation.
    op_issue: Vec<(u64, f64)>,
    /// The script's completion value.
    completion: serde_json::Value,
    /// Journaled args of each request whose body is not finished, by intent seq.
    #[serde(default)]
    net_requests: Vec<(u64, serde_json::Value)>,
}

impl Runtime {
    /// A builder with the durable defaults.
    pub fn builder() -> RuntimeBuilder {
        RuntimeBuilder::new()
    }

    /// Restores a runtime from an image made by [`Runtime::snapshot`]: checks the seal (and
    /// HMAC with a key), the engine version, the policy and the heap's structure, re-binds the
    /// host functions `host` and the Node layer provide, and runs no JS. Then deliver results
    /// and call [`Runtime::resume`].
    pub fn restore(image: &[u8], host: RuntimeBuilder) -> Result<Runtime> {
        host.restore(image, None)
    }

    /// Starts `program`: captures (or, replaying, reads) the start time and seed, runs the
    /// script, then the event loop until it is idle.
    pub fn run(&mut self, program: &Program) -> Result<Outcome> {
        let outcome = self.run_program(program)?;
        self.after_end(outcome)
    }

    /// Starts the run (its run-start record, the clock and seeds) and sets up what every
    /// program runs over: the folder, `/tmp` and the home directory, `process`, the limits.
    fn set_up(&mut self) -> Result<()> {
        self.start()?;
        if let Some(seed) = self.vfs_seed.take() {
            let now = self.core.vm.clock_ms;
            seed.install(&mut self.core.vm, now).map_err(Error::usage)?;
            self.vfs_seed_hash = Some(seed.hash());
        }
        if let Some(spec) = &self.lower {
            let now = self.core.vm.clock_ms;
            let layer: Arc<Mutex<dyn LowerLayer>> = spec.folder.clone();
            let (at, cwd) = (spec.at.clone(), spec.cwd.clone());
            let mounted = self.core.js(|vm| {
                vm.vfs.mount_lower(&at, layer, now)?;
                vm.vfs.set_cwd(&cwd).or_else(|_| vm.vfs.set_cwd(&at))
            });
            if let Some(e) = self.core.recorder.fatal.take() {
                return Err(e);
            }
            mounted.map_err(|e| Error::usage(format!("cannot mount {at} as the lower layer: {e}")))?;
        }
        // `os.tmpdir()` is /tmp and `os.homedir()` /home/agent (node:os), as on Linux: a fresh
        // run has both, empty and writable (in the upper layer), unless the folder mounted at
        // / shows them.
        let now = self.core.vm.clock_ms;
        for (dir, mode) in [("/tmp", 0o1777), ("/home/agent", 0o755)] {
            let made = self.core.js(|vm| match vm.vfs.stat(dir) {
                Ok(_) => Ok(()),
                Err(_) => vm.vfs.mkdir_all(dir, mode, now).map(drop),
            });
            if let Some(e) = self.core.recorder.fatal.take() {
                return Err(e);
            }
            made.map_err(|e| Error::usage(format!("cannot make {dir}: {e}")))?;
        }
        let mut inputs = self.process.clone();
        for (name, value) in self.core.recorder.secrets.pairs() {
            inputs.env.insert(name.clone(), value.clone());
        }
        inputs.install(&mut self.core.vm);
        if let Some(spec) = &self.lower {
            let hashes = spec.folder.lock().map(|folder| folder.code_file_hashes(&spec.at)).unwrap_or_default();
            self.code_hashes.extend(hashes.into_iter().map(|(path, hash)| (path, Digest(hash))));
        }
        let mut fs = self.fs_limits;
        if let Some(grants) = &self.grants {
            self.code_hashes.insert(MANIFEST_CODE_PATH.to_string(), grants.hash());
            let granted = &grants.manifest().fs;
            let smaller = |a: Option<u64>, b: Option<u64>| match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            fs.readonly |= granted.readonly;
            fs.max_file_bytes = smaller(fs.max_file_bytes, granted.max_file_bytes);
            fs.max_total_bytes = smaller(fs.max_total_bytes, granted.max_total_bytes);
            // Net's gate is the runtime's own (crate::first_use); the node layer's surfaces
            // read theirs from the VM.
            for capability in &grants.manifest().approve_capabilities {
                let key = amber_node::capabilities::gate_key(capability.name());
                self.core.vm.host_state.set(&key, Vec::new());
            }
        }
        let limits = &mut self.core.vm.vfs.limits;
        limits.max_file_bytes = fs.max_file_bytes.unwrap_or(limits.max_file_bytes);
        limits.max_total_bytes = fs.max_total_bytes.unwrap_or(limits.max_total_bytes);
        limits.max_entries = fs.max_entries.unwrap_or(limits.max_entries);
        if fs.readonly {
            self.core.vm.host_state.set(amber_node::modules::fs::READONLY_KEY, Vec::new());
        }
        Ok(())
    }

    fn run_program(&mut self, program: &Program) -> Result<Outcome> {
        if self.state != State::NotStarted {
            return Err(Error::usage("this runtime has already started a program; use resume"));
        }
        self.set_up()?;
        self.code_hashes.insert(program.filename.clone(), Digest::of(program.source.as_bytes()));
        // TypeScript runs as the JavaScript it becomes (the code hash stays the TypeScript
        // text's): an ES module with its position map, or CommonJS, which `node:module`
        // transforms as it compiles the file.
        let typescript = amber_node::loader::typescript::is_typescript(&program.filename)
            .then(|| amber_node::loader::transform_entry(&mut self.core.vm, &program.filename, &program.source));
        let module = match &typescript {
            Some(Ok(t)) => t.module,
            _ => program.module,
        };
        let r = if let Some(transformed) = typescript {
            match transformed {
                Err(report) => Err(amber_engine::error::RunError::Syntax(report)),
                Ok(t) if t.module => self.core.js(|vm| vm.eval_mapped_module(&t.code, &program.filename, t.map)),
                Ok(_) => self.core.js(|vm| amber_node::loader::run_main(vm, &program.filename, &program.source)),
            }
        } else if program.module {
            self.core.js(|vm| vm.eval_module(&program.source, &program.filename))
        } else if program.commonjs {
            self.core.js(|vm| amber_node::loader::run_main(vm, &program.filename, &program.source))
        } else {
            self.core.js(|vm| vm.eval_script(&program.source, &program.filename))
        };
        let r = match r {
            Ok(value) => {
                self.completion = primitive_to_json(&mut self.core.vm, value);
                Ok(())
            }
            Err(e) => Err(e),
        };
        if let Some(outcome) = self.core.finish_slice(r)? {
            return Ok(self.end(outcome));
        }
        if module {
            // Node evaluates the main ES module inside a promise job: its microtasks run
            // before the nextTick queue is first drained.
            let r = self.core.js(|vm| vm.run_jobs());
            if let Some(outcome) = self.core.finish_slice(r)? {
                return Ok(self.end(outcome));
            }
        }
        self.drive()
    }

    /// Continues the event loop after results were delivered (or time passed).
    pub fn resume(&mut self) -> Result<Outcome> {
        match self.state {
            State::NotStarted => Err(Error::usage("no program has been started; use run")),
            State::Ended => Err(Error::usage("the program has already ended")),
            State::Running => {
                let mut outcome = self.drive()?;
                if self.repl {
                    self.repl_unhandled(&mut outcome);
                }
                self.after_end(outcome)
            }
        }
    }

    /// Replaying a run that ended: applies the rollbacks its host made after the end.
    fn after_end(&mut self, outcome: Outcome) -> Result<Outcome> {
        if !matches!(outcome, Outcome::Suspended(_)) {
            while self.core.recorder.peek().is_some_and(|r| r.kind == RecordKind::FsRollback) {
                self.apply_fs_rollback()?;
            }
        }
        Ok(outcome)
    }

    /// The changes the program made to the overlay's upper layer (docs/vfs.md), in path order:
    /// added, modified and deleted entries against the host folder, as `amber fs diff` lists
    /// them. An error when the run has no host folder.
    pub fn fs_diff(&mut self) -> Result<Vec<amber_engine::vfs::Change>> {
        crate::overlay::diff(&mut self.core.vm.vfs)
    }

    /// Writes the changes the program made to the overlay's upper layer to the host folder, or
    /// to `to`, as `amber fs commit` does (`crate::overlay`: refused as a whole, with the
    /// conflicts listed, when a host entry the run read has changed since; each file written
    /// atomically). Only between runs. The run's own view does not change: commit, then
    /// [`Runtime::fs_rollback`], to make the folder the run's lower layer again.
    pub fn fs_commit(&mut self, to: Option<&std::path::Path>) -> Result<crate::overlay::FsCommit> {
        self.fs_commit_with(to, &mut crate::overlay::write_atomically)
    }

    /// [`Runtime::fs_commit`], each file written by `write` (path, bytes, permission bits).
    pub fn fs_commit_with(
        &mut self,
        to: Option<&std::path::Path>,
        write: crate::overlay::HostWriter<'_>,
    ) -> Result<crate::overlay::FsCommit> {
        if !self.core.vm.frames.is_empty() {
            return Err(Error::usage("cannot commit while the program runs"));
        }
        crate::overlay::commit(&mut self.core.vm.vfs, to, write)
    }

    /// Discards every change the program made to the overlay's upper layer (docs/vfs.md), as
    /// `amber fs rollback` does: only between runs (suspended, or after the program ended), and
    /// journaled (an `fs-rollback` record, taken with [`Runtime::take_records`]), so a replay
    /// discards them at the same point. Open descriptors on the mounted tree are closed. Returns
    /// the number of changes dropped ([`amber_engine::vfs::Vfs::diff`]'s count).
    pub fn fs_rollback(&mut self) -> Result<u64> {
        if self.state == State::NotStarted {
            return Err(Error::usage("no program has run yet: there is nothing to roll back"));
        }
        if self.core.recorder.replaying() || self.core.recorder.strict {
            return Err(Error::usage("cannot roll back while journaled effects remain to be replayed"));
        }
        if !self.core.vm.frames.is_empty() {
            return Err(Error::usage("cannot roll back while the program runs"));
        }
        if self.core.vm.vfs.lower_mount().is_none() {
            return Err(Error::usage("the run has no host folder (lower layer) to roll back to"));
        }
        self.apply_fs_rollback()
    }

    /// Journals (or, replaying, matches) an fs-rollback record, then discards the upper layer.
    fn apply_fs_rollback(&mut self) -> Result<u64> {
        let diff = self.core.vm.vfs.diff().map_err(|e| Error::usage(format!("cannot list the changes: {e}")));
        let changes = diff?.len() as u64;
        let now = self.core.vm.clock_ms;
        self.core.recorder.record(RecordDraft::fs_rollback(changes, now.max(0.0) as u64), None)?;
        self.core.vm.vfs.rollback(now).map_err(|e| Error::usage(format!("cannot roll back: {e}")))?;
        Ok(changes)
    }

    /// From now on every effect is refused (`amber eval`: see [`crate::history::eval_sealed`]).
    pub(crate) fn seal(&mut self) {
        self.core.recorder.sealed = true;
        self.core.vm.effects_refused = true;
        crate::frames::install(&mut self.core.vm);
    }

    /// Evaluates `source` as a script in the program's realm and returns the value as
    /// `console.log` prints it (a string as itself, anything else through util.inspect), or
    /// Err with the thrown error's report. Runs no event loop.
    pub(crate) fn eval_for_log(
        &mut self,
        source: &str,
        filename: &str,
    ) -> Result<std::result::Result<String, ErrorReport>> {
        self.core.vm.pending_rejections.clear();
        let r = self.core.js(|vm| vm.eval_script(source, filename));
        let shown = match r {
            Ok(value) => match value.as_string() {
                Some(s) => Ok(self.core.vm.heap.flat(s).to_rust_string()),
                None => Ok(self.core.js(|vm| amber_node::inspect::inspect(vm, value))),
            },
            Err(e) => match self.core.finish_slice(Err(e))? {
                Some(Outcome::Threw(report)) => Err(report),
                Some(other) => return Err(Error::usage(format!("the expression ended the program: {other:?}"))),
                None => return Err(Error::usage("the expression stopped")),
            },
        };
        if let Some(e) = self.core.recorder.fatal.take() {
            return Err(e);
        }
        self.core.vm.stack.clear();
        self.core.vm.frames.clear();
        Ok(shown)
    }

    /// Going past the records served is a divergence from now on (`amber eval --at`: the run
    /// stops at the first effect after them).
    pub(crate) fn serve_strictly(&mut self) {
        self.core.recorder.strict = true;
    }

    /// Drops what a run stopped mid-slice left on the stack (its frames are gone; the heap,
    /// with every global and suspended function, stays).
    pub(crate) fn clear_stack(&mut self) {
        self.core.vm.stack.clear();
        self.core.vm.frames.clear();
    }

    /// Appends a marker record (an upgrade) after the records served, even to a strict
    /// replay, which is at its end.
    pub(crate) fn append_marker(&mut self, draft: RecordDraft) -> Result<()> {
        let strict = std::mem::replace(&mut self.core.recorder.strict, false);
        let appended = self.core.recorder.record(draft, None);
        self.core.recorder.strict = strict;
        appended.map(drop)
    }

    /// Pending host operations, by id.
    pub fn pending(&self) -> Vec<PendingOp> {
        pending_ops(&self.core.vm)
    }

    /// An image of the run (DESIGN §7): manifest + heap, sealed (and HMAC'd with a key).
    /// Only between runs (a safe point), and not while journaled effects remain to replay.
    pub fn snapshot(&mut self) -> Result<Vec<u8>> {
        if self.core.recorder.replaying() {
            return Err(Error::usage("cannot image a run while journaled effects remain to be replayed"));
        }
        self.observe_capabilities();
        let state = DurableState {
            op_issue: self.core.recorder.op_issue.iter().map(|(k, v)| (*k, *v)).collect(),
            completion: self.completion.clone(),
            net_requests: self.core.recorder.net_requests.iter().map(|(k, v)| (*k, v.clone())).collect(),
        };
        let bytes = serde_json::to_vec(&state).map_err(|e| Error::usage(format!("encoding runtime state: {e}")))?;
        self.core.vm.host_state.set(DURABLE_STATE_KEY, bytes);
        // The image holds the state in canonical form (the same logical state, whatever its
        // history, gives the same bytes), and the run goes on from that form, so a run that
        // continues in this process and one restored from the image are the same from here.
        let options = self.core.vm.options.clone();
        let (canonical, payload) = with_kept_baseline(&options, |base| {
            let mut canonical = self.core.vm.canonical_copy(base).map_err(Error::Image)?;
            // Secret values leave the image as markers, and come back right after.
            crate::secrets::hide_in_vm(&self.core.recorder.secrets, &mut canonical);
            let payload = canonical.encode_state_relative(base).map_err(Error::Image);
            crate::secrets::reveal_in_vm(&self.core.recorder.secrets, &mut canonical);
            Ok::<_, Error>((canonical, payload?))
        })?;
        self.core.vm = canonical;
        let mut manifest = Manifest::new(ENGINE_VERSION, self.policy);
        manifest.capabilities = self.core.recorder.ledger.clone();
        manifest.code_hashes = self.code_hashes.clone();
        manifest.vfs_seed_hash = self.vfs_seed_hash;
        manifest.pending = self.pending();
        manifest.journal_head = self.core.recorder.head();
        manifest.heap =
            HeapStats { objects: self.core.vm.heap.objects.live() as u64, bytes: self.core.vm.heap.bytes_estimate };
        manifest.logical_time_ms = self.logical_time_ms();
        manifest.code_blobs = self.core.vm.code_blob_hashes().into_iter().map(Digest).collect();
        Ok(encode_image(&manifest, &payload, self.image_key.as_deref())?)
    }

    /// sha256 of the VM's logical state (heap, queues, timers, pending operations, VFS) at a
    /// safe point, as lowercase hex: of its canonical form ([`Vm::write_canonical`]), which
    /// numbers what is reachable in traversal order and leaves out garbage, caches and
    /// counters. A straight run, a run imaged and restored at every suspension, and a replay
    /// of its journal (where steps return their records without running) reach the same hash.
    /// This runtime's own bookkeeping (issue times, the completion value) is left out: it is
    /// not program state.
    pub fn state_hash(&mut self) -> Result<String> {
        let mut hasher = amber_durable::digest::Hasher::new();
        self.core.vm.write_canonical(&[DURABLE_STATE_KEY], &mut |bytes| hasher.update(bytes)).map_err(Error::Image)?;
        Ok(amber_durable::digest::to_hex(&hasher.finish()))
    }

    /// Journal records appended since the last call, in seq order (persist them).
    pub fn take_records(&mut self) -> Vec<CallRecord> {
        self.core.recorder.take_fresh()
    }

    /// Where in the program the records taken by [`Runtime::take_records`] were made, by seq
    /// (`file:line:column`; host-made records have none): diagnostic, for traces.
    pub fn take_record_locations(&mut self) -> Vec<(u64, String)> {
        self.core.recorder.take_fresh_locations()
    }

    /// Lower-layer file bytes captured since the last call, and code blobs compiled since
    /// (the code of lower-layer modules, which images name), by sha256: store them (as blobs)
    /// before the records [`Runtime::take_records`] returns, and the images, that name them.
    pub fn take_blobs(&mut self) -> Vec<(Digest, Arc<[u8]>)> {
        let mut blobs = self.core.recorder.blobs.take_fresh();
        blobs.extend(self.core.vm.take_code_blobs().into_iter().map(|(h, b)| (Digest(h), b)));
        if let Some(spec) = &self.lower {
            if let Ok(mut folder) = spec.folder.lock() {
                blobs.extend(folder.take_fresh().into_iter().map(|(h, b)| (Digest(h), b)));
            }
        }
        blobs
    }

    /// The files an upgrade's new code changed or added (see [`HostFolder::upgrading_from`])
    /// since the last call; they join the code hashes.
    pub fn take_upgraded_files(&mut self) -> Vec<crate::lower::UpgradedFile> {
        let Some(spec) = &self.lower else { return Vec::new() };
        let files = spec.folder.lock().map(|mut folder| folder.take_upgraded(&spec.at)).unwrap_or_default();
        self.code_hashes.extend(files.iter().map(|f| (f.path.clone(), Digest::of(f.text.as_bytes()))));
        files
    }

    /// Whether the program waits on the network: commit the journal records
    /// ([`Runtime::take_blobs`], [`Runtime::take_records`]), call [`Runtime::serve_network`],
    /// then [`Runtime::resume`].
    pub fn network_pending(&self) -> bool {
        Net::pending(&self.core.vm)
    }

    /// Sends the requests the program made (their intents must be committed: take the records
    /// first) and waits until a response head or body bytes arrive, an exchange fails, or a
    /// timer falls due on the logical clock (journaled as a `clock` record). Returns whether
    /// there is something to [`Runtime::resume`] for. Requests pending in an image restored
    /// after a crash are sent again with the same `Idempotency-Key`.
    pub fn serve_network(&mut self) -> Result<bool> {
        if self.state != State::Running || self.core.recorder.replaying() {
            return Ok(false);
        }
        let run_id = self.run_id().unwrap_or_default();
        self.net.serve(&mut self.core, &mut self.deliveries, &run_id)
    }

    /// Length and head hash of the journal so far.
    pub fn journal_head(&self) -> JournalHead {
        self.core.recorder.head()
    }

    /// True while journaled effects remain to be replayed.
    pub fn replaying(&self) -> bool {
        self.core.recorder.replaying()
    }

    /// Surfaces the run touched.
    pub fn capabilities(&mut self) -> &CapabilityLedger {
        self.observe_capabilities();
        &self.core.recorder.ledger
    }

    /// The run's policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The logical clock (ms since the epoch).
    pub fn logical_time_ms(&self) -> u64 {
        let ms = self.core.vm.clock_ms;
        if ms.is_finite() && ms > 0.0 {
            ms as u64
        } else {
            0
        }
    }

    /// True once the program completed or threw.
    pub fn ended(&self) -> bool {
        self.state == State::Ended
    }

    /// Sha256 of the VFS seed the run started from, if it had one.
    pub fn vfs_seed_hash(&self) -> Option<Digest> {
        self.vfs_seed_hash
    }

    /// Sha256 of each source run, by file name.
    pub fn code_hashes(&self) -> &BTreeMap<String, Digest> {
        &self.code_hashes
    }

    /// This run's id: 16 hex digits derived from its journaled start (seed and start time),
    /// the same after every restore and replay of the run and different for every run (the
    /// seed is fresh randomness unless the embedder fixed it). Host idempotency keys use it.
    /// None before the run started.
    pub fn run_id(&self) -> Option<String> {
        let bytes = self.core.vm.host_state.get(RUN_ID_KEY)?;
        Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// The VM (statistics, inspection).
    pub fn vm(&self) -> &Vm {
        &self.core.vm
    }

    /// The VM, mutably (advanced embedders; keep to safe points).
    pub fn vm_mut(&mut self) -> &mut Vm {
        &mut self.core.vm
    }

    // ---- internals

    /// RunStart: capture (or, replaying, read) the start time and seed; set clock and seed.
    fn start(&mut self) -> Result<()> {
        let (start, seed) = match self.core.recorder.peek() {
            Some(record) => record
                .run_start_info()
                .ok_or_else(|| Error::Image(format!("journal seq {} is not a run-start record", record.seq)))?,
            None => (self.start_time_ms.unwrap_or_else(self.wall_clock), self.seed.unwrap_or_else(fresh_seed)),
        };
        self.core.recorder.record(RecordDraft::run_start(start, seed), None)?;
        self.core.set_clock(start as f64);
        let mut seed8 = [0u8; 8];
        seed8.copy_from_slice(&seed[..8]);
        self.core.vm.host_state.set(RANDOM_SEED_KEY, seed8.to_vec());
        let id = amber_durable::journal::run_id(start, &seed);
        self.core.vm.host_state.set(RUN_ID_KEY, id.to_vec());
        if self.policy.crypto == amber_durable::policy::Mode::Seeded {
            self.core.vm.host_state.set(crate::entropy::SEED_KEY, crate::entropy::initial_seeded_state(&seed));
        }
        self.state = State::Running;
        Ok(())
    }

    /// The event loop (DESIGN §6) until the program completes, throws or waits on the host.
    fn drive(&mut self) -> Result<Outcome> {
        loop {
            if self.image_every_turn {
                self.continue_from_image()?;
            }
            if let Some(outcome) = self.core.microtasks()? {
                return Ok(self.end(outcome));
            }
            let (ran, outcome) = self.core.timers_phase()?;
            if let Some(outcome) = outcome {
                return Ok(self.end(outcome));
            }
            if ran {
                continue;
            }
            let (ran, outcome) = self.core.check_phase()?;
            if let Some(outcome) = outcome {
                return Ok(self.end(outcome));
            }
            if ran {
                continue;
            }
            // Idle: deliver a result, jump the clock, or stop. Capabilities are observed here,
            // where a live run and its replay are at the same journal position whether the
            // results came from a suspension, an in-process host or the journal.
            self.observe_capabilities();
            let replaying = self.core.recorder.replaying();
            if replaying && !self.core.vm.host_ops.is_empty() {
                match self.core.recorder.peek().map(|r| (r.kind, r.function == crate::net::WAIT)) {
                    Some((RecordKind::Completion(_), _)) => {
                        if let Some(outcome) = self.core.deliver_replayed()? {
                            return Ok(self.end(outcome));
                        }
                        continue;
                    }
                    // The live run waited on the network until a timer fell due.
                    Some((RecordKind::Clock, true)) => {
                        let draft = RecordDraft::clock(crate::net::WAIT, serde_json::Value::Null, 0);
                        let (_, served) = self.core.recorder.record(draft, None)?;
                        let to = served.and_then(|r| match r.result {
                            Some(CallResult::Ok(v)) => v["to"].as_f64(),
                            _ => None,
                        });
                        if let Some(to) = to {
                            if let Some(outcome) = self.core.advance_to(to)? {
                                return Ok(self.end(outcome));
                            }
                        }
                        continue;
                    }
                    // The host rolled the filesystem back while the run was suspended here.
                    Some((RecordKind::FsRollback, _)) => {
                        self.apply_fs_rollback()?;
                        continue;
                    }
                    _ => return Err(self.idle_divergence()),
                }
            }
            if !replaying {
                if let Some(to) = self.net.clock_jump.take() {
                    if let Some(outcome) = self.core.advance_to(to)? {
                        return Ok(self.end(outcome));
                    }
                    continue;
                }
            }
            if !replaying {
                if let Some(delivery) = self.deliveries.pop_front() {
                    if let Some(outcome) = self.core.deliver_live(&delivery)? {
                        return Ok(self.end(outcome));
                    }
                    continue;
                }
            }
            if self.core.vm.host_ops.is_empty() {
                if let Some((due, _)) = timers::next_ref_due(&self.core.vm) {
                    if due > self.core.vm.clock_ms {
                        self.core.set_clock(due);
                    }
                    continue;
                }
                // A rollback the host made after the end is applied after the end (after_end).
                let rollback_next = self.core.recorder.peek().is_some_and(|r| r.kind == RecordKind::FsRollback);
                if replaying && !rollback_next {
                    return Err(self.idle_divergence());
                }
                // Node: 'beforeExit' may schedule more work; 'exit' is final.
                if let Some(outcome) = self.core.process_idle(false)? {
                    return Ok(self.end(outcome));
                }
                if timers::has_ref_timers(&self.core.vm) || !self.core.vm.host_ops.is_empty() {
                    continue;
                }
                if let Some(outcome) = self.core.process_idle(true)? {
                    return Ok(self.end(outcome));
                }
                let code = amber_node::modules::process::exit_code(&mut self.core.vm);
                if code != 0 {
                    return Ok(self.end(Outcome::Exited(code)));
                }
                let completion = self.completion.clone();
                return Ok(self.end(Outcome::Completed(completion)));
            }
            if !self.core.recorder.strict && self.serve_hosts() {
                continue;
            }
            self.flush_partial_lines(false);
            return Ok(Outcome::Suspended(self.pending()));
        }
    }

    /// Partial lines (written after the last newline) leave the run's state through the
    /// embedder's partial-line hook, as written: when the run suspends, so the process that
    /// wrote them prints them and a resumed process does not, and when it ends. Replaying,
    /// they leave the state unprinted, as a live run's would have at this point. Without the
    /// hook they stay until their newline, or are printed as lines at the end.
    fn flush_partial_lines(&mut self, ending: bool) {
        let Some(hook) = self.partial_print else {
            if ending {
                amber_node::modules::process::flush_output(&mut self.core.vm);
            }
            return;
        };
        let silent = self.core.recorder.silent();
        for stream in [Stream::Stdout, Stream::Stderr] {
            let text = amber_node::modules::process::take_partial_for(&mut self.core.vm, stream);
            if !text.is_empty() && !silent {
                hook(&mut self.core.vm, stream, &text);
            }
        }
    }

    /// Serve pending calls that have an in-process host function; true if any was served.
    /// Under the manifest's `retry`, a failing call is made again after the backoff (this
    /// thread waits), each failed attempt journaled (host_functions.rs).
    fn serve_hosts(&mut self) -> bool {
        let ops: Vec<PendingOp> = self
            .pending()
            .into_iter()
            .filter(|op| op.kind == OpKind::Call && self.hosts.serves(&op.name))
            .filter(|op| !self.deliveries.iter().any(|d| d.id == op.id))
            .collect();
        if ops.is_empty() {
            return false;
        }
        let served = self.hosts.serve(&ops, self.grants.as_ref());
        for (op, Served { result, duration_ms, attempts }) in ops.iter().zip(served) {
            // An attempt that cannot be journaled (a record over the limit) is left out; the
            // call's outcome is still delivered.
            for attempt in &attempts {
                if self.record_attempt(op.id, attempt).is_err() {
                    break;
                }
            }
            self.attempts_elapsed.remove(&op.id);
            self.deliveries.push_back(Delivery { id: op.id, result, duration_ms });
        }
        true
    }

    fn idle_divergence(&self) -> Error {
        let (seq, expected) = match self.core.recorder.peek() {
            Some(r) => (r.seq, describe(r.kind, &r.function, &r.args)),
            None => (self.core.recorder.next_seq(), "more records".to_string()),
        };
        let actual = if self.core.vm.host_ops.is_empty() {
            "nothing more: the program finished".to_string()
        } else {
            format!("nothing more: {}", waiting_on(&self.core.vm.host_ops))
        };
        Error::Divergence { seq, expected, actual, location: None }
    }

    fn end(&mut self, outcome: Outcome) -> Outcome {
        self.flush_partial_lines(true);
        self.observe_capabilities();
        if !self.repl {
            self.state = State::Ended;
        }
        outcome
    }

    /// Touches capabilities the engine does not report itself: timers and Math.random,
    /// observed at safe points (first-touch seq = the journal length then).
    fn observe_capabilities(&mut self) {
        let seq = self.core.recorder.next_seq();
        let vm = &self.core.vm;
        let random_used = matches!(&vm.heap.obj(vm.realm.math_random_state).class,
            Class::Internal(words) if words.first() == Some(&Value::TRUE));
        let timers_used = vm.next_timer_id > 1;
        let clock_read = vm.clock_read;
        let ledger = &mut self.core.recorder.ledger;
        if random_used {
            ledger.touch(Capability::Random, seq);
        }
        if timers_used {
            ledger.touch(Capability::Timer, seq);
        }
        if clock_read {
            ledger.touch(Capability::Clock, seq);
        }
        // Surfaces the node layer flags itself (fs, crypto, module loading), by ledger name.
        for name in amber_node::capabilities::touched(vm) {
            if let Some(&c) = Capability::ALL.iter().find(|c| c.name() == name) {
                ledger.touch(c, seq);
            }
        }
    }

    fn wall_duration(&self, id: u64) -> u64 {
        let now = (self.wall_clock)() as f64;
        let issue = self.core.recorder.op_issue.get(&id).copied().unwrap_or(self.core.vm.clock_ms);
        (now - issue).max(0.0) as u64
    }
}

/// The VM's pending host operations as the manifest lists them.
pub(crate) fn pending_ops(vm: &Vm) -> Vec<PendingOp> {
    let mut ops: Vec<PendingOp> = vm
        .host_ops
        .iter()
        .map(|op| PendingOp {
            id: op.id,
            seq: op.seq,
            kind: op_kind(op),
            name: op.name.clone(),
            args: parse(&op.args_json).unwrap_or(serde_json::Value::Null),
            due_time_ms: op.due_ms.map(|d| d.max(0.0).ceil() as u64),
        })
        .collect();
    ops.sort_by_key(|op| op.id);
    ops
}

/// Program output: suppressed while replaying, else to the embedder's hook or stdout/stderr.
fn print_through(vm: &mut Vm, stream: Stream, text: &str) {
    use std::io::Write as _;
    match with_active(|r| (r.silent(), r.print)) {
        Some((true, _)) => {}
        Some((false, Some(hook))) => hook(vm, stream, text),
        _ => match stream {
            // A closed stream (a pipe whose reader left) is not the program's failure.
            Stream::Stdout => {
                let _ = writeln!(std::io::stdout().lock(), "{text}");
            }
            Stream::Stderr => {
                let _ = writeln!(std::io::stderr().lock(), "{text}");
            }
        },
    }
}

fn take_durable_state(vm: &mut Vm) -> Result<DurableState> {
    match vm.host_state.get(DURABLE_STATE_KEY) {
        None => Ok(DurableState::default()),
        Some(bytes) => serde_json::from_slice(bytes).map_err(|e| Error::Image(format!("runtime state: {e}"))),
    }
}

/// Milliseconds since the Unix epoch by the system clock.
pub fn wall_clock_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// 32 bytes of fresh entropy: the OS-seeded keys of std's RandomState, time and pid, hashed.
fn fresh_seed() -> [u8; 32] {
    let mut input = Vec::new();
    for i in 0..4u64 {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(i);
        input.extend_from_slice(&h.finish().to_le_bytes());
    }
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    input.extend_from_slice(&nanos.to_le_bytes());
    input.extend_from_slice(&std::process::id().to_le_bytes());
    sha256(&input)
}
