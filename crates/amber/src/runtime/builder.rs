//! [`RuntimeBuilder`]: what a run is configured with, and the kept baseline VM every run starts from.

use super::*;

pub struct RuntimeBuilder {
    policy: Policy,
    options: VmOptions,
    hosts: HostFunctions,
    print: Option<PrintHook>,
    partial_print: Option<PrintHook>,
    module_loader: Option<amber_engine::module::ModuleLoader>,
    print_while_replaying: bool,
    wall_clock: fn() -> u64,
    start_time_ms: Option<u64>,
    seed: Option<[u8; 32]>,
    image_key: Option<Vec<u8>>,
    vfs_seed: Option<VfsSeed>,
    lower: Option<LowerMountSpec>,
    process: ProcessInputs,
    net_policy: NetPolicy,
    transport: Option<Box<dyn HttpTransport>>,
    session_label: String,
    blob_source: Option<BlobSource>,
    secrets: Vec<(String, String)>,
    grants: Option<SharedGrants>,
    fs_limits: FsLimits,
    /// [`RuntimeBuilder::image_every_turn`].
    image_every_turn: bool,
}

/// Limits on what the program may write to its filesystem ([`RuntimeBuilder::fs_limits`];
/// `amber run --fs-readonly`, `--fs-max-file-bytes`, `--fs-max-total-bytes`,
/// `--fs-max-entries`). They join the
/// program manifest's `fs` (read-only if either says so, the smaller of two limits), take
/// effect when the run starts, and ride its images.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FsLimits {
    /// Every write or delete fails with `EROFS`.
    pub readonly: bool,
    /// Largest file, bytes (`EFBIG` past it).
    pub max_file_bytes: Option<u64>,
    /// All files of the upper layer together, bytes (`ENOSPC` past it).
    pub max_total_bytes: Option<u64>,
    /// Entries of the upper layer: files, directories and symlinks the program made (`ENOSPC`
    /// past it; lower entries it reads do not count).
    pub max_entries: Option<u64>,
}

/// A host folder as the VFS's lower layer ([`RuntimeBuilder::lower_folder`]).
pub(super) struct LowerMountSpec {
    pub(super) folder: Arc<Mutex<HostFolder>>,
    /// The VFS directory it is mounted on.
    pub(super) at: String,
    /// The working directory a fresh run starts in (inside the mount, or the mount).
    pub(super) cwd: String,
}

impl Default for RuntimeBuilder {
    fn default() -> Self {
        RuntimeBuilder::new()
    }
}

impl RuntimeBuilder {
    /// Durable defaults (DESIGN §7), no limits, output to stdout/stderr; the test modes set
    /// in the environment (`crate::test_modes`: `AMBER_GC_INTERVAL`, `AMBER_FAST_TIER`,
    /// `AMBER_IMAGE_EVERY_TURN`).
    pub fn new() -> RuntimeBuilder {
        let mut options = VmOptions::default();
        let image_every_turn = crate::test_modes::from_env(&mut options);
        RuntimeBuilder {
            policy: Policy::durable(),
            options,
            hosts: HostFunctions::default(),
            print: None,
            partial_print: None,
            module_loader: None,
            print_while_replaying: false,
            wall_clock: wall_clock_ms,
            start_time_ms: None,
            seed: None,
            image_key: None,
            vfs_seed: None,
            lower: None,
            process: ProcessInputs::default(),
            net_policy: NetPolicy::deny_all(),
            transport: None,
            session_label: String::new(),
            blob_source: None,
            secrets: Vec::new(),
            grants: None,
            fs_limits: FsLimits::default(),
            image_every_turn,
        }
    }

    /// The program manifest's grants (docs/manifest.md): with them, `amber.call` reaches only
    /// granted functions with args their schema accepts, gated calls wait for
    /// [`Runtime::approve`], and the manifest's fs limits bound the VFS. Give a restore or a
    /// replay the same manifest: its hash rides the image, and another is refused.
    pub fn grants(mut self, grants: Option<SharedGrants>) -> Self {
        self.grants = grants;
        self
    }

    /// Filesystem limits beyond the manifest's ([`FsLimits`]); give a replay the same.
    pub fn fs_limits(mut self, limits: FsLimits) -> Self {
        self.fs_limits = limits;
        self
    }

    /// Whether the interpreter runs its fast tier ([`VmOptions::fast_tier`]; on by default).
    /// Off is a test mode: slower, and it shows a fast-tier shortcut that computes something
    /// the general path would not.
    pub fn fast_tier(mut self, on: bool) -> Self {
        self.options.fast_tier = on;
        self
    }

    /// The image test mode: at every turn of the event loop (before each microtask
    /// checkpoint, timer, immediate or delivery, while no JS runs) the runtime makes an image
    /// as [`Runtime::snapshot`] does, drops its VM and goes on with the VM restored from that
    /// image, as [`RuntimeBuilder::restore`] would. Nothing the program does may change;
    /// anything that does is state the image forgets. Slow; for tests. Not while replaying.
    pub fn image_every_turn(mut self, on: bool) -> Self {
        self.image_every_turn = on;
        self
    }

    /// The program's `process.argv.slice(2)` and `process.env` (default: none). They are
    /// inputs like the source: give the same ones to a replay of the run.
    pub fn process_inputs(mut self, inputs: ProcessInputs) -> Self {
        self.process = inputs;
        self
    }

    /// The determinism policy (Host modes are refused; see [`RuntimeBuilder::build`]).
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// Instruction budget (fuel) for the whole run, across restores.
    pub fn max_instructions(mut self, n: Option<u64>) -> Self {
        self.options.max_instructions = n;
        self
    }

    /// The run's time zone (`Temporal.Now`'s system zone): an IANA identifier or a UTC
    /// offset; None keeps "UTC". Check it first with [`amber_engine::builtins::temporal::is_time_zone`].
    pub fn time_zone(mut self, zone: Option<String>) -> Self {
        if let Some(zone) = zone {
            self.options.time_zone = zone;
        }
        self
    }

    /// The run's default locale (ECMA-402's DefaultLocale): a BCP 47 tag; None keeps
    /// "en-US". Check it first with [`amber_engine::builtins::intl::is_locale`].
    pub fn locale(mut self, locale: Option<String>) -> Self {
        if let Some(locale) = locale {
            self.options.locale = locale;
        }
        self
    }

    /// Approximate heap budget in bytes.
    pub fn max_heap_bytes(mut self, n: Option<u64>) -> Self {
        self.options.max_heap_bytes = n;
        self
    }

    /// How deep recursion that passes through builtins may nest (`forEach`, `call`, getters,
    /// `toString` calling back into JS: [`VmOptions::max_native_depth`], default
    /// [`amber_engine::vm::DEFAULT_MAX_NATIVE_DEPTH`], at least 1) before it throws a
    /// RangeError. Each level costs native stack, which grows on demand outside the heap
    /// budget, so this bounds that memory; a restored image's own limit is kept if lower.
    pub fn max_native_depth(mut self, n: u32) -> Self {
        self.options.max_native_depth = n.max(1);
        self
    }

    /// Collect garbage after at most `n` allocations ([`VmOptions::gc_interval`]; at least
    /// 1). Small values are the GC-stress mode: slow, and the surest way to find a value
    /// held without a root. Collections never change what a program computes.
    pub fn gc_interval(mut self, n: u64) -> Self {
        self.options.gc_interval = n.max(1);
        self
    }

    /// Serve `amber.call(name, …)` in-process: the runtime calls `handler` when the program
    /// is idle and journals its result like any host operation. The handler runs on a thread
    /// of its own (one per function), so a call can time out ([`Self::host_timeout`]); calls
    /// to different functions run concurrently, and their results are journaled in
    /// operation order. A later registration under the same name replaces an earlier one.
    pub fn host_function(
        mut self,
        name: &str,
        handler: impl FnMut(&PendingOp) -> std::result::Result<serde_json::Value, String> + Send + 'static,
    ) -> Self {
        self.hosts.add(name, Box::new(handler));
        self
    }

    /// The limit on one attempt of an in-process host function the program manifest gives no
    /// `timeout_ms` (the manifest's wins): past it the call rejects with
    /// `Error [timeout]: …` (code `timeout`, retried if the manifest's `retry_on` says so).
    /// Default: no limit.
    pub fn host_timeout(mut self, limit: Option<std::time::Duration>) -> Self {
        self.hosts.set_default_timeout(limit);
        self
    }

    /// Where program output (console.*) goes; default stdout/stderr.
    /// Where `import` finds modules: (referrer, specifier) → (resolved name, source text).
    /// Without one, a module's imports fail to load.
    pub fn module_loader(mut self, loader: amber_engine::module::ModuleLoader) -> Self {
        self.module_loader = Some(loader);
        self
    }

    pub fn print_hook(mut self, hook: PrintHook) -> Self {
        self.print = Some(hook);
        self
    }

    /// Where a partial line goes — text the program wrote with `process.stdout.write` (or
    /// stderr) after its last newline — when the run stops with one unfinished: the hook gets
    /// the text as written, and must not end it with a newline. It is called when the run
    /// suspends (so the process that wrote the text prints it; it leaves the run's state and
    /// the process that resumes the run does not print it again) and when the run ends (Node
    /// adds no newline at exit). Without this hook a partial line waits in the run's state
    /// until its newline comes, and the end of the run prints it as a line.
    pub fn partial_line_hook(mut self, hook: PrintHook) -> Self {
        self.partial_print = Some(hook);
        self
    }

    /// Print program output while journaled effects are being replayed (silent by default).
    pub fn print_while_replaying(mut self, yes: bool) -> Self {
        self.print_while_replaying = yes;
        self
    }

    /// The host's wall clock (ms since the epoch): run start, resolve durations, sleeps.
    pub fn wall_clock(mut self, clock: fn() -> u64) -> Self {
        self.wall_clock = clock;
        self
    }

    /// Fix the captured start time (default: the wall clock when the run starts).
    pub fn start_time_ms(mut self, ms: u64) -> Self {
        self.start_time_ms = Some(ms);
        self
    }

    /// Fix the captured random seed (default: fresh entropy).
    pub fn seed(mut self, seed: [u8; 32]) -> Self {
        self.seed = Some(seed);
        self
    }

    /// Authenticate images with HMAC-SHA256 under `key`.
    pub fn image_key(mut self, key: Vec<u8>) -> Self {
        self.image_key = Some(key);
        self
    }

    /// The files a fresh run starts with (copied into the VFS when it starts; its hash goes
    /// on the image manifest). A restored run has its VFS in the image and ignores this.
    pub fn vfs_seed(mut self, seed: VfsSeed) -> Self {
        self.vfs_seed = Some(seed);
        self
    }

    /// The overlay's lower layer (DESIGN §7, [`crate::lower`]): `folder` mounted read-only on
    /// the VFS directory `at` (normally its own host path), read lazily and captured; a fresh
    /// run starts in `cwd`. A restored run re-attaches `folder` to serve the bytes its image
    /// names (from the folder's blob source) and whatever it reads first from then on.
    pub fn lower_folder(mut self, folder: HostFolder, at: &str, cwd: &str) -> Self {
        self.lower =
            Some(LowerMountSpec { folder: Arc::new(Mutex::new(folder)), at: at.to_string(), cwd: cwd.to_string() });
        self
    }

    /// A runtime for a fresh run.
    /// What the network may reach (deny by default): `fetch` to any other host rejects with
    /// `TypeError: fetch failed` whose `cause.code` is `ERR_AMBER_NET_DENIED`. Give the same
    /// policy to every runtime of a session (resume, replay).
    pub fn net_policy(mut self, policy: NetPolicy) -> Self {
        self.net_policy = policy;
        self
    }

    /// The transport requests go out on (default: [`crate::net::UreqTransport`]).
    pub fn http_transport(mut self, transport: Box<dyn HttpTransport>) -> Self {
        self.transport = Some(transport);
        self
    }

    /// Answer requests with `handler` instead of the network (tests, custom transports).
    pub fn http_handler(mut self, handler: HttpHandler) -> Self {
        self.transport = Some(Box::new(crate::net::HandlerTransport(handler)));
        self
    }

    /// A secret the program reads as `process.env.NAME`: journal records and images hold a
    /// placeholder instead of `value` (see docs/host-api.md, "Secrets"), so the embedder that
    /// restores or replays the run passes it again. A restored image that needs a secret this
    /// builder was not given is refused.
    pub fn secret(mut self, name: &str, value: &str) -> Self {
        self.secrets.retain(|(n, _)| n != name);
        self.secrets.push((name.to_string(), value.to_string()));
        self
    }

    /// The session name in idempotency keys ([`crate::idempotency_key`]).
    pub fn session_label(mut self, name: &str) -> Self {
        self.session_label = name.to_string();
        self
    }

    /// Where blobs the journal names come from (HTTP bodies of earlier slices): the store
    /// the embedder puts [`Runtime::take_blobs`] into.
    pub fn blob_source(mut self, source: BlobSource) -> Self {
        self.blob_source = Some(source);
        self
    }

    pub fn build(self) -> Result<Runtime> {
        check_policy(&self.policy)?;
        let mut vm = with_kept_baseline(&self.options, Vm::independent_copy);
        apply_policy(&mut vm, &self.policy);
        Ok(self.into_runtime(vm, Recorder::at(JournalHead::default())))
    }

    /// A runtime that re-executes a program against `journal` from the top and fails with
    /// [`Error::Divergence`] as soon as the program does anything else (`amber replay`).
    pub fn replay(self, journal: &Journal) -> Result<Runtime> {
        self.serving(journal, true)
    }

    /// Like [`RuntimeBuilder::replay`], but once the journal is used up the run goes on live:
    /// recovers a session whose image is missing. An empty journal (a crash before the run
    /// committed anything) starts the run afresh.
    pub fn recover(self, journal: &Journal) -> Result<Runtime> {
        if journal.is_empty() {
            return self.build();
        }
        self.serving(journal, false)
    }

    fn serving(self, journal: &Journal, strict: bool) -> Result<Runtime> {
        if journal.run_start().is_none() {
            return Err(Error::Image("the journal has no run-start record at seq 0".into()));
        }
        let mut runtime = self.build()?;
        runtime.core.recorder.serve(journal.records(), strict);
        Ok(runtime)
    }

    /// Restore an image (see [`Runtime::restore`]); with `journal`, records past the image's
    /// journal head are replayed first (a crash after they were written, before the next
    /// image) and the run continues live.
    pub fn restore(mut self, image: &[u8], journal: Option<&Journal>) -> Result<Runtime> {
        let (manifest, payload) = decode_image(image, self.image_key.as_deref())?;
        manifest.check_engine_version(ENGINE_VERSION)?;
        manifest.policy.check_compatible(&self.policy)?;
        check_policy(&self.policy)?;
        if let Some(journal) = journal {
            if !journal.has_prefix(&manifest.journal_head) {
                return Err(Error::Image(format!(
                    "the image was taken at journal length {} with a head hash that this journal does not have",
                    manifest.journal_head.len
                )));
            }
        }
        // Sources that are lower-layer files come back from the folder's blobs.
        // So does the code compiled from them (code blobs): the folder's blobs, else the
        // embedder's blob source.
        let folder = self.lower.as_ref().map(|spec| spec.folder.clone());
        let mut source = self.blob_source.take();
        let mut blobs = |hash: &[u8; 32]| -> Option<Vec<u8>> {
            let from_folder =
                folder.as_ref().and_then(|folder| folder.lock().ok()?.bytes(hash).ok().map(|b| b.to_vec()));
            from_folder.or_else(|| source.as_mut()?(hash))
        };
        let start = with_kept_baseline(&self.options, Vm::independent_copy);
        let decoded = Vm::decode_state_with_blobs(&payload, start, Some(&mut blobs));
        self.blob_source = source;
        let mut vm = decoded.map_err(Error::Image)?;
        self.bound_limits(&mut vm)?;
        crate::manifest_check::check_against_payload(&manifest, &vm)?;
        crate::manifest_check::check_vfs_seed(&manifest, self.vfs_seed.as_ref())?;
        rebind_host_functions(&mut vm, &self.policy);
        let state = take_durable_state(&mut vm)?;
        let mut recorder = Recorder::at(manifest.journal_head);
        recorder.ledger = manifest.capabilities.clone();
        recorder.op_issue = state.op_issue.into_iter().collect();
        recorder.net_requests = state.net_requests.into_iter().collect();
        if let Some(journal) = journal {
            recorder.serve(journal.records(), false);
        }
        if let Some(spec) = &self.lower {
            vm.vfs.attach_lower(spec.folder.clone());
        }
        let secrets = crate::secrets::Secrets::new(self.secrets.clone());
        crate::secrets::reveal_in_vm(&secrets, &mut vm);
        if let Some(name) = crate::secrets::missing_in_vm(&vm) {
            return Err(Error::usage(format!(
                "the image needs the secret {name}: pass it to the runtime that restores it"
            )));
        }
        let made_under = manifest.code_hashes.get(MANIFEST_CODE_PATH).copied();
        if made_under != self.grants.as_ref().map(|g| g.hash()) {
            return Err(Error::Image(match made_under {
                Some(_) if self.grants.is_none() => {
                    "the image was made under a program manifest; restore it with the same manifest".into()
                }
                Some(_) => "the image was made under another program manifest than the one given".into(),
                None => "the image was made without a program manifest; restore it without one".into(),
            }));
        }
        let mut runtime = self.into_runtime(vm, recorder);
        runtime.code_hashes = manifest.code_hashes;
        runtime.vfs_seed_hash = manifest.vfs_seed_hash;
        runtime.completion = state.completion;
        runtime.state = State::Running;
        Ok(runtime)
    }

    /// An image carries the limits of the run that made it, and the fuel it has left; the
    /// restoring embedder's limits bound them, so a hostile or stale image cannot grant itself
    /// more instructions, heap or call depth than the host allows. Limits the embedder leaves
    /// unset keep the image's (the fuel budget is for the whole run, across restores). A heap
    /// already past the budget is refused here rather than at its first allocation.
    fn bound_limits(&self, vm: &mut Vm) -> Result<()> {
        let ours = &self.options;
        if let Some(max) = ours.max_instructions {
            vm.options.max_instructions = Some(vm.options.max_instructions.map_or(max, |theirs| theirs.min(max)));
            vm.fuel = vm.fuel.min(max);
        }
        if let Some(max) = ours.max_heap_bytes {
            vm.options.max_heap_bytes = Some(vm.options.max_heap_bytes.map_or(max, |theirs| theirs.min(max)));
        }
        vm.options.max_stack_depth = vm.options.max_stack_depth.min(ours.max_stack_depth);
        vm.options.max_native_depth = vm.options.max_native_depth.min(ours.max_native_depth);
        vm.options.gc_interval = ours.gc_interval;
        vm.options.fast_tier = ours.fast_tier;
        match vm.options.max_heap_bytes {
            Some(max) if vm.heap.bytes_estimate > max => Err(Error::Limit(amber_engine::Limit::Heap)),
            _ => Ok(()),
        }
    }

    fn into_runtime(self, mut vm: Vm, mut recorder: Recorder) -> Runtime {
        vm.print_hook = Some(print_through);
        vm.entropy_hook = Some(crate::entropy::hook_for(self.policy.crypto));
        vm.touch_hook = Some(crate::recorder::stamp_first_touch);
        vm.module_loader = self.module_loader;
        recorder.print = self.print;
        recorder.print_while_replaying = self.print_while_replaying;
        recorder.net_policy = self.net_policy;
        recorder.blobs = crate::blobs::Blobs::with_source(self.blob_source);
        recorder.secrets = crate::secrets::Secrets::new(self.secrets.clone());
        recorder.grants = self.grants.clone();
        Runtime {
            core: Core { vm, recorder },
            policy: self.policy,
            hosts: self.hosts,
            deliveries: VecDeque::new(),
            attempts_elapsed: BTreeMap::new(),
            wall_clock: self.wall_clock,
            start_time_ms: self.start_time_ms,
            seed: self.seed,
            image_key: self.image_key,
            code_hashes: BTreeMap::new(),
            vfs_seed: self.vfs_seed,
            vfs_seed_hash: None,
            lower: self.lower,
            process: self.process,
            net: Net::new(self.transport, self.session_label),
            completion: serde_json::Value::Null,
            state: State::NotStarted,
            repl: false,
            partial_print: self.partial_print,
            grants: self.grants,
            fs_limits: self.fs_limits,
            image_every_turn: self.image_every_turn,
        }
    }
}

/// The VM every run starts from: the realm, then the Node surface and the durable bridge.
/// Built the same way in every process (no host input), so images store only what a run
/// changed relative to it (DESIGN §7, `amber_engine::heap::image`).
fn baseline(options: &VmOptions) -> Vm {
    let mut vm = Vm::new(options.clone());
    amber_node::install(&mut vm);
    crate::bridge::install(&mut vm);
    crate::net::install(&mut vm);
    // Every CommonJS entry runs through node:module: evaluating it here puts its code and
    // objects in the baseline instead of in every image (about 10 KB of each one).
    if let Some(module) = amber_node::modules::builtin("node:module") {
        let _ = amber_node::modules::require_builtin(&mut vm, module);
        vm.stack.clear();
        vm.frames.clear();
    }
    vm.heap.seal_baseline();
    vm
}

/// [`baseline`], built once per thread and options and kept, lent to `f`: runs start from
/// copies of it ([`Vm::independent_copy`]), restores decode onto a copy, and
/// [`Runtime::snapshot`] encodes against it. Building one (the realm, the Node surface,
/// `node:module`) was about a third of a server slice's CPU for a short session, paid up to
/// three times per slice. A built baseline depends on nothing but its options, so a kept one
/// is the VM a fresh build would give. A few option sets are kept per thread, most recently
/// used last. The kept set is taken out of its cell while lent, so a nested call (none today)
/// would build its own rather than alias it.
pub(super) fn with_kept_baseline<R>(options: &VmOptions, f: impl FnOnce(&Vm) -> R) -> R {
    use std::cell::Cell;
    const KEPT: usize = 2;
    thread_local! {
        static KEPT_BASELINES: Cell<Vec<(String, Box<Vm>)>> = const { Cell::new(Vec::new()) };
    }
    // The fast tier does not ride the image (so not its serde form either), but the kept
    // baseline's options are the ones a run built on it starts with.
    let key = format!("{}{}", serde_json::to_string(options).unwrap_or_default(), options.fast_tier);
    let mut kept = KEPT_BASELINES.take();
    let entry = match kept.iter().position(|(k, _)| *k == key) {
        Some(at) => kept.remove(at),
        None => {
            if kept.len() >= KEPT {
                kept.remove(0);
            }
            (key, Box::new(baseline(options)))
        }
    };
    let result = f(&entry.1);
    kept.push(entry); // most recently used last
    KEPT_BASELINES.set(kept);
    result
}

/// Binds what an image names but cannot carry (native host functions of the Node layer, the
/// `amber` bridge, the network and the policy) on a VM decoded from an image.
pub(super) fn rebind_host_functions(vm: &mut Vm, policy: &Policy) {
    amber_node::register(vm);
    crate::bridge::register(vm);
    crate::net::register(vm);
    register_policy(vm);
    apply_policy(vm, policy);
}
