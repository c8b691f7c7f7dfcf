//! `amber run FILE`: run a program. With `--session NAME` the run is a durable session from
//! its first effect; without it, the run is kept in memory and becomes a session (with a
//! generated name) only if it suspends — a program that completes leaves nothing behind.

use std::io::Write;
use std::path::PathBuf;

use amber::durable::policy::Policy;
use amber::durable::store::{NewSession, SessionStore, Source};
use amber::engine::module::ModuleSource;
use amber::engine::vm::Stream;
use amber::engine::{Vm, VmOptions};
use amber::{Outcome, ProcessInputs, Program, Runtime, RuntimeBuilder};
use clap::Args;

use crate::error::{CliResult, Failure};
use crate::exit;
use crate::host::{HostArgs, HostCommands};
use crate::outcome::{drive, report};
use crate::store::{Held, RunOptions, StoreLocation};

#[derive(Args)]
pub struct RunArgs {
    /// The program to run.
    pub(crate) file: PathBuf,
    /// Keep the run as the durable session NAME (it must not exist yet).
    #[arg(long, value_name = "NAME")]
    pub(crate) session: Option<String>,
    /// Treat the file as an ES module (default for .mjs); imports are files relative to the
    /// importing module.
    #[arg(long)]
    pub(crate) module: bool,
    /// The host folder the program's filesystem shows, read-only and lazily, at its own path
    /// (default: FILE's project root, the nearest folder up with a package.json). What the
    /// program writes stays in the session; what it reads first is captured, so a resume or
    /// replay sees the same bytes (docs/vfs.md).
    #[arg(long = "fs", value_name = "DIR")]
    pub(crate) fs: Option<PathBuf>,
    /// Show PATH (relative to the folder) although hidden by default (.git, .ssh, .env*,
    /// keys, .amberignore matches); repeatable.
    #[arg(long = "fs-reveal", value_name = "PATH")]
    pub(crate) fs_reveal: Vec<String>,
    /// Let the program reach HOST (any port) or HOST:PORT over the network (`fetch`,
    /// `node:http`/`https`): comma-separated, repeatable; `*` allows every host, `*.example.com`
    /// its subdomains. Deny by default. Stored with the session.
    #[arg(long = "allow-net", value_name = "HOST[:PORT],...")]
    pub(crate) allow_net: Vec<String>,
    /// Give the program the secret environment variable NAME (`process.env.NAME`), from this
    /// process's environment: journal records and images hold a placeholder instead of the
    /// value, the session stores the name only, and resume and replay take the value from
    /// their own environment again. Repeatable.
    #[arg(long = "secret", value_name = "NAME")]
    pub(crate) secrets: Vec<String>,
    #[command(flatten)]
    pub(crate) host: HostArgs,
    #[command(flatten)]
    pub(crate) database: crate::database::DatabaseArg,
    /// The program manifest (docs/manifest.md): the host functions `amber.call` may reach,
    /// their argument schemas, timeouts, retries and approval rules, and surface policies.
    /// Default: `amber.json` beside FILE, if there is one; without a manifest every call goes
    /// out. Stored with the session.
    #[arg(long = "manifest", value_name = "FILE")]
    pub(crate) manifest: Option<PathBuf>,
    /// Instruction budget; exceeding it exits with status 5.
    #[arg(long, value_name = "N")]
    pub(crate) max_instructions: Option<u64>,
    /// Heap budget in bytes (suffixes K, M, G: powers of 1024); exceeding it exits with
    /// status 5. 0 means unlimited. The default protects a run without flags from a memory
    /// bomb; it is a constant, not derived from the machine, so a run behaves the same
    /// everywhere.
    #[arg(long, value_name = "BYTES", default_value = "4G", value_parser = parse_bytes)]
    pub(crate) max_heap: u64,
    /// How deep recursion through builtins may nest (a function calling itself through
    /// `forEach`, `call`, a getter, `toString`…) before a RangeError: each JS frame of such a
    /// recursion costs two levels. Native stack grows with it, outside --max-heap. Stored
    /// with the session.
    #[arg(long, value_name = "N", default_value_t = amber::engine::vm::DEFAULT_MAX_NATIVE_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) max_native_depth: u32,
    /// The program's filesystem is read-only: every write or delete fails with EROFS (the
    /// manifest's fs.readonly). Stored with the session.
    #[arg(long = "fs-readonly")]
    pub(crate) fs_readonly: bool,
    /// Largest file the program may write (suffixes K, M, G); past it EFBIG. Joins the
    /// manifest's fs.max_file_bytes (the smaller wins). Stored with the session.
    #[arg(long = "fs-max-file-bytes", value_name = "BYTES", value_parser = parse_bytes)]
    pub(crate) fs_max_file_bytes: Option<u64>,
    /// All files the program writes together (suffixes K, M, G); past it ENOSPC. Joins the
    /// manifest's fs.max_total_bytes (the smaller wins). Stored with the session.
    #[arg(long = "fs-max-total-bytes", value_name = "BYTES", value_parser = parse_bytes)]
    pub(crate) fs_max_total_bytes: Option<u64>,
    /// Files, directories and symlinks the program may make (the upper layer's entries; lower
    /// ones it reads do not count); past it ENOSPC. Default 1,000,000. Stored with the session.
    #[arg(long = "fs-max-entries", value_name = "N")]
    pub(crate) fs_max_entries: Option<u64>,
    /// The run's time zone (Date's local time, `Temporal.Now.timeZoneId()`, Intl's default):
    /// an IANA name such as Europe/Paris or an offset such as +05:30; default UTC, never the
    /// host's TZ. Stored with the session.
    #[arg(long = "tz", value_name = "ZONE")]
    pub(crate) tz: Option<String>,
    /// The run's default locale (what `Intl` and `toLocaleString` use when no locale is
    /// given): a BCP 47 tag such as de-DE; default en-US. Stored with the session; the
    /// host's LANG and LC_* are never read.
    #[arg(long = "locale", value_name = "TAG")]
    pub(crate) locale: Option<String>,
    /// Print the bytecode of every function instead of running.
    #[arg(long)]
    pub(crate) dump_bytecode: bool,
    /// Print execution statistics to stderr after the run.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Where a nondeterministic surface's values come from (docs/durability.md, "Policy"):
    /// SURFACE is random, crypto, clock, timers or fs; MODE is seeded, captured or disabled.
    /// Stored with the session; resume and replay run under it.
    #[arg(long = "policy", value_name = "SURFACE=MODE")]
    pub(crate) policy: Vec<String>,
    /// Give the program the environment variable NAME (`process.env`): NAME=VALUE sets it,
    /// NAME alone copies this process's value if it has one. Nothing else of the host's
    /// environment reaches the program. Stored with the session.
    #[arg(long = "env", value_name = "NAME[=VALUE]")]
    pub(crate) env: Vec<String>,
    /// The run's entropy seed, 64 hex digits (default: fresh randomness). Journaled like a
    /// fresh one; with --start-time, two runs of the same program give byte-identical images.
    #[arg(long, value_name = "HEX")]
    pub(crate) seed: Option<String>,
    /// The logical clock's start, in ms since the Unix epoch (default: the host's clock).
    /// Journaled like a captured one.
    #[arg(long = "start-time", value_name = "MS")]
    pub(crate) start_time: Option<u64>,
    /// Arguments for the program (`process.argv.slice(2)`), after FILE or after `--`.
    #[arg(value_name = "ARGS", trailing_var_arg = true, allow_hyphen_values = true)]
    pub(crate) args: Vec<String>,
}

/// `--seed HEX`: exactly 32 bytes as 64 hex digits.
fn parse_seed(hex: &str) -> CliResult<[u8; 32]> {
    let bad = || Failure::usage(format!("--seed {hex:?}: expected 64 hex digits (32 bytes)"));
    if hex.len() != 64 || !hex.is_ascii() {
        return Err(bad());
    }
    let mut seed = [0u8; 32];
    for (i, byte) in seed.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
    }
    Ok(seed)
}

/// The program's arguments and the environment `--env` gives it.
pub(crate) fn process_inputs(args: &[String], env: &[String]) -> CliResult<ProcessInputs> {
    let mut inputs = ProcessInputs { argv: args.to_vec(), env: Default::default() };
    for item in env {
        let (name, value) = match item.split_once('=') {
            Some((name, value)) => (name, Some(value.to_string())),
            None => (item.as_str(), std::env::var(item).ok()),
        };
        if name.is_empty() || name.contains('\0') {
            return Err(Failure::usage(format!("--env {item:?}: expected NAME or NAME=VALUE")));
        }
        if let Some(value) = value {
            inputs.env.insert(name.to_string(), value);
        }
    }
    Ok(inputs)
}

/// The durable policy with `--policy` overrides applied.
fn parse_policy(overrides: &[String]) -> CliResult<Policy> {
    let mut policy = Policy::durable();
    for item in overrides {
        let (surface, mode) = item
            .split_once('=')
            .ok_or_else(|| Failure::usage(format!("--policy {item:?}: expected SURFACE=MODE, e.g. random=captured")))?;
        policy = policy.with_named(surface, mode).map_err(|e| Failure::usage(format!("--policy {item:?}: {e}")))?;
    }
    Ok(policy)
}

/// The manifest a run uses: `--manifest FILE`, else `amber.json` beside the entry file if
/// there is one. (text, compiled grants)
fn read_manifest(
    flag: Option<&std::path::Path>,
    entry: &std::path::Path,
) -> CliResult<Option<(String, amber::grants::SharedGrants)>> {
    let beside = entry.parent().map(|dir| dir.join("amber.json")).filter(|p| p.is_file());
    let Some(path) = flag.map(std::path::Path::to_path_buf).or(beside) else { return Ok(None) };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Failure::usage(format!("cannot read the manifest {}: {e}", path.display())))?;
    let grants = amber::grants::Grants::from_text(&text)
        .map_err(|e| Failure::usage(format!("the manifest {}: {e}", path.display())))?;
    Ok(Some((text, std::sync::Arc::new(grants))))
}

/// The run's policy: the manifest's surface modes over the durable defaults; a `--policy`
/// flag for a surface the manifest also sets must agree with it.
fn manifest_policy(policy: Policy, grants: Option<&amber::grants::Grants>, flags: &[String]) -> CliResult<Policy> {
    let Some(grants) = grants else { return Ok(policy) };
    let manifest = grants.manifest();
    let mut merged = policy;
    for surface in amber::PolicySurface::ALL {
        if !manifest.policy_set.iter().any(|s| s == surface.name()) {
            continue;
        }
        let theirs = manifest.policy.mode(surface);
        let flagged = flags.iter().any(|f| f.split_once('=').is_some_and(|(s, _)| s == surface.name()));
        if flagged && policy.mode(surface) != theirs {
            return Err(Failure::usage(format!(
                "--policy {}={} conflicts with the manifest's \"{}\": \"{theirs}\"",
                surface.name(),
                policy.mode(surface),
                surface.name()
            )));
        }
        merged = merged.with(surface, theirs);
    }
    Ok(merged)
}

/// Program output: stdout and stderr as Node writes them.
pub fn print_hook(_vm: &mut Vm, stream: Stream, text: &str) {
    match stream {
        Stream::Stdout => {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{text}");
        }
        Stream::Stderr => {
            let _ = std::io::stdout().lock().flush();
            errln!("{text}");
            STDERR_MID_LINE.store(false, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// A partial line (no newline yet) when the run suspends or ends: printed as written, and
/// flushed (the process may exit next). Amber's own report on stderr starts on a line of its
/// own ([`end_partial_stderr`]).
pub fn partial_line_hook(_vm: &mut Vm, stream: Stream, text: &str) {
    match stream {
        Stream::Stdout => {
            let mut out = std::io::stdout().lock();
            let _ = write!(out, "{text}");
            let _ = out.flush();
        }
        Stream::Stderr => {
            let _ = std::io::stdout().lock().flush();
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "{text}");
            let _ = err.flush();
            STDERR_MID_LINE.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// The program left stderr in the middle of a line ([`partial_line_hook`]).
static STDERR_MID_LINE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Ends the program's partial stderr line, if it left one, so that what amber writes next to
/// stderr starts a line of its own.
pub fn end_partial_stderr() {
    if STDERR_MID_LINE.swap(false, std::sync::atomic::Ordering::Relaxed) {
        errln!();
    }
}

/// The module loader of `amber run`: Node's ES module resolution over the run's files
/// (builtins, relative and absolute paths, `node_modules` packages, CommonJS interop).
pub fn load_module(vm: &mut Vm, referrer: &str, specifier: &str) -> Result<(String, ModuleSource), String> {
    amber::node::loader::load_module(vm, referrer, specifier)
}

/// The builder every command starts from: durable policy, CLI output.
pub fn builder() -> RuntimeBuilder {
    let builder =
        Runtime::builder().print_hook(print_hook).partial_line_hook(partial_line_hook).module_loader(load_module);
    crate::transport::apply(crate::image_key::apply(builder))
}

pub fn run(args: RunArgs, location: &StoreLocation) -> CliResult<u8> {
    if let Some(url) = args.database.url()? {
        return crate::database_run::run(&args, &url, location);
    }
    let source = std::fs::read_to_string(&args.file)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", args.file.display())))?;
    // The entry is named by its absolute path, as Node names it: imports and requires
    // resolve against it, and a cycle back to the entry finds the same module.
    let filename = match std::fs::canonicalize(&args.file) {
        Ok(abs) => abs.display().to_string(),
        Err(_) => args.file.display().to_string(),
    };
    let format = amber::node::loader::resolve::format_of(&mut amber::node::loader::HostDisk, &filename);
    let module = args.module || format == amber::node::loader::resolve::Format::Module;
    if args.dump_bytecode {
        return Ok(dump_bytecode(&source, &filename, module));
    }
    let hosts = HostCommands::parse(&args.host)?;
    if let Some(name) = &args.session {
        amber::durable::store::validate_name(name)?;
    }
    let program = Program { filename: filename.clone(), source: source.clone(), module, commonjs: !module };
    let root = match &args.fs {
        Some(dir) => dir.clone(),
        None => crate::folder::project_root(std::path::Path::new(&filename)),
    };
    let folder = crate::folder::FolderSpec::new(&root, args.fs_reveal.clone())?;
    let process = process_inputs(&args.args, &args.env)?;
    let manifest = read_manifest(args.manifest.as_deref(), std::path::Path::new(&filename))?;
    let grants = manifest.as_ref().map(|(_, g)| g.clone());
    // The manifest's `net.allow` adds to `--allow-net`.
    let granted_hosts = grants.iter().flat_map(|g| g.manifest().net_allow.iter());
    let net = amber::net::NetPolicy::parse(args.allow_net.iter().chain(granted_hosts).map(String::as_str))
        .map_err(Failure::usage)?;
    let hosts = hosts.with_grants(grants.clone());
    if let Some(name) = args.secrets.iter().find(|n| process.env.contains_key(n.as_str())) {
        return Err(Failure::usage(format!("{name} is given both as --env and as --secret")));
    }
    let secrets = crate::store::secret_values(&args.secrets)?;
    if let Some(tz) = args.tz.as_deref().filter(|tz| !amber::engine::builtins::temporal::is_time_zone(tz)) {
        return Err(Failure::usage(format!("--tz {tz:?}: not a time zone (an IANA name or an offset such as +05:30)")));
    }
    if let Some(tag) = args.locale.as_deref().filter(|tag| !amber::engine::builtins::intl::is_locale(tag)) {
        return Err(Failure::usage(format!("--locale {tag:?}: not a locale (a BCP 47 tag such as en-US or de-DE)")));
    }
    let fs_limits = amber::FsLimits {
        readonly: args.fs_readonly,
        max_file_bytes: args.fs_max_file_bytes,
        max_total_bytes: args.fs_max_total_bytes,
        max_entries: args.fs_max_entries,
    };
    let mut sources = vec![
        Source::new(&program.filename, &source),
        RunOptions {
            max_instructions: args.max_instructions,
            max_heap: heap_limit(args.max_heap),
            max_native_depth: args.max_native_depth,
            time_zone: args.tz.as_deref(),
            locale: args.locale.as_deref(),
            process: &process,
            net: &net,
            secrets: &args.secrets,
            fs: fs_limits,
        }
        .source(),
        folder.source(),
    ];
    let policy = manifest_policy(parse_policy(&args.policy)?, grants.as_deref(), &args.policy)?;
    if let Some((text, _)) = &manifest {
        sources.push(Source::new(crate::store::MANIFEST_SOURCE, text));
    }
    let mut builder = builder();
    if let Some(hex) = &args.seed {
        builder = builder.seed(parse_seed(hex)?);
    }
    if let Some(ms) = args.start_time {
        builder = builder.start_time_ms(ms);
    }
    let runtime = builder
        .grants(grants)
        .fs_limits(fs_limits)
        .policy(policy)
        .max_instructions(args.max_instructions)
        .max_heap_bytes(heap_limit(args.max_heap))
        .max_native_depth(args.max_native_depth)
        .time_zone(args.tz.clone())
        .locale(args.locale.clone())
        .net_policy(net)
        .session_label(args.session.as_deref().unwrap_or(""))
        .process_inputs(process);
    let runtime = secrets.iter().fold(runtime, |b, (name, value)| b.secret(name, value));
    let mut runtime = folder.mount(runtime, location.dir()).build()?;
    let new_session = NewSession { entry: filename, module, policy, sources };

    let (code, runtime) = match &args.session {
        Some(name) => {
            let store = location.open()?;
            crate::fault::point();
            store.create_session(Some(name), &new_session).map_err(|e| match e {
                amber::durable::DurableError::AlreadyExists { .. } => Failure::usage(format!(
                    "session {name:?} already exists (continue it with `amber resume {name}`, or pick another name)"
                )),
                other => other.into(),
            })?;
            let held = Held { store: &store, lease: store.acquire(name)? };
            crate::fault::point();
            if args.stats {
                runtime.vm_mut().gc_observer = Some(time_gc);
            }
            let first = runtime.run(&program);
            let result = drive(&mut runtime, first, &hosts, Some(&held))?;
            held.finish(&mut runtime, &result)?;
            (report(result, Some(name)), runtime)
        }
        None => {
            if args.stats {
                runtime.vm_mut().gc_observer = Some(time_gc);
            }
            let first = runtime.run(&program);
            let result = drive(&mut runtime, first, &hosts, None)?;
            match result {
                Ok(Outcome::Suspended(_)) => {
                    let store = location.open()?;
                    let name = keep_as_session(&store, &new_session, &mut runtime, &result)?;
                    (report(result, Some(&name)), runtime)
                }
                other => (report(other, None), runtime),
            }
        }
    };
    if args.stats {
        print_stats(runtime.vm());
    }
    Ok(code)
}

/// A run that suspended without `--session` becomes a session with a generated name.
fn keep_as_session(
    store: &SessionStore,
    new: &NewSession,
    runtime: &mut Runtime,
    result: &amber::Result<Outcome>,
) -> CliResult<String> {
    let meta = store.create_session(None, new)?;
    let held = Held { store, lease: store.acquire(&meta.name)? };
    held.finish(runtime, result)?;
    errln!("amber: the run suspended; it is kept as session {}", meta.name);
    Ok(meta.name)
}

fn dump_bytecode(source: &str, filename: &str, module: bool) -> u8 {
    let mut vm = Vm::new(VmOptions::default());
    amber::node::install(&mut vm);
    let compiled = if module {
        amber::engine::module::parse_module(&mut vm, source, filename)
            .map(|id| vm.modules.get(id).and_then(|r| r.code))
            .map_err(|e| e.to_string())
    } else {
        amber::engine::compiler::compile_script(&mut vm, source, filename).map(Some).map_err(|e| e.to_string())
    };
    match compiled {
        Ok(Some(code)) => {
            let _ = write!(std::io::stdout().lock(), "{}", amber::engine::bytecode::dump(&vm.heap, code));
            exit::OK
        }
        Ok(None) => exit::OK,
        Err(e) => {
            errln!("{e}");
            exit::UNCAUGHT
        }
    }
}

pub fn print_stats(vm: &Vm) {
    let s = vm.stats;
    let h = vm.heap.stats;
    let total = s.ic_hits + s.ic_misses;
    let rate = if total > 0 { 100.0 * s.ic_hits as f64 / total as f64 } else { 0.0 };
    errln!(
        "instructions: {}\nallocations: {}\ncollections: {}\nheap estimate: {} bytes\ninline-cache hits: {} / {} ({rate:.1}%)",
        s.instructions,
        h.allocations,
        h.collections,
        vm.heap.bytes_estimate,
        s.ic_hits,
        total
    );
    let mut pauses = GC_PAUSES.with(|p| p.take());
    if !pauses.is_empty() {
        pauses.sort_by(f64::total_cmp);
        let at = |q: f64| pauses[((pauses.len() - 1) as f64 * q).round() as usize];
        let sum: f64 = pauses.iter().sum();
        errln!(
            "gc pauses (ms): {} total {sum:.1}, p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
            pauses.len(),
            at(0.5),
            at(0.9),
            at(0.99),
            at(1.0)
        );
    }
}

thread_local! {
    /// Start of the collection in progress, and every pause so far (ms), for `--stats`.
    static GC_STARTED: std::cell::Cell<Option<std::time::Instant>> = const { std::cell::Cell::new(None) };
    static GC_PAUSES: std::cell::Cell<Vec<f64>> = const { std::cell::Cell::new(Vec::new()) };
}

/// `--stats`: times each collection with the host clock (statistics only; the engine never
/// sees it).
fn time_gc(_vm: &Vm, phase: amber::engine::vm::GcPhase) {
    match phase {
        amber::engine::vm::GcPhase::Start => GC_STARTED.with(|s| s.set(Some(std::time::Instant::now()))),
        amber::engine::vm::GcPhase::End => {
            if let Some(start) = GC_STARTED.with(|s| s.take()) {
                let ms = start.elapsed().as_secs_f64() * 1000.0;
                GC_PAUSES.with(|p| {
                    let mut v = p.take();
                    v.push(ms);
                    p.set(v);
                });
            }
        }
    }
}

/// `--max-heap`'s value: 0 is unlimited.
pub(crate) fn heap_limit(bytes: u64) -> Option<u64> {
    (bytes != 0).then_some(bytes)
}

/// A byte count with an optional K, M or G suffix (powers of 1024).
pub(crate) fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, scale) = match t.as_bytes().last().map(u8::to_ascii_uppercase) {
        Some(b'K') => (&t[..t.len() - 1], 1u64 << 10),
        Some(b'M') => (&t[..t.len() - 1], 1 << 20),
        Some(b'G') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    let n: u64 = digits.parse().map_err(|_| format!("'{text}' is not a byte count (for example 512M)"))?;
    n.checked_mul(scale).ok_or_else(|| format!("'{text}' is too large"))
}
