//! The engine's JS behaviour tests: every `crates/engine/tests/js/**/<name>.js` (`.mjs`: an
//! ES module) runs through the engine's embedding API — a [`Vm`], its job queue, its virtual
//! timers and its image — and what it prints must equal `<name>.expected` (what `node`
//! prints for the same file) byte for byte. The programs print with `console.log` and wait
//! with `setTimeout`, so the VM gets the Node layer's console and timers (`amber_node::install`,
//! a dev-dependency); nothing else of it, and no runtime: programs that need `require`,
//! `node:` modules or a filesystem belong to the corpora of `crates/node` and `crates/cli`,
//! which run through the `amber` binary (crates/cli/tests/js_behaviour.rs).
//!
//! The few programs of the corpus whose output depends on the Node layer around a script
//! (`behaviour::THROUGH_AMBER_ONLY`, each with why) run only through `amber`.
//!
//! Each test mode (docs/testing.md) runs the whole corpus: plain, GC at every allocation,
//! fast tier off, and an image at every turn of the event loop; the GC mode's one slice is
//! `behaviour::STRESS_EXCEPTIONS` (programs of hundreds of thousands of objects collect less
//! often, one is left out).
#![allow(clippy::unwrap_used)]
// This file is the embedder, not the engine: it reads the corpus from disk and the modes from
// the environment, which crates/engine/clippy.toml forbids the engine itself.
#![allow(clippy::disallowed_methods)]

mod behaviour;

use std::cell::Cell;
use std::path::Path;

use amber_engine::builtins::promise::promise_state;
use amber_engine::error::RunError;
use amber_engine::module::ModuleSource;
use amber_engine::vm::Stream;
use amber_engine::{Vm, VmOptions};
use behaviour::{check_all, corpus, repo_root, Mode, Settings};

/// The logical clock a run starts at (what `Date.now()` reads first).
const START_MS: f64 = 1_700_000_000_000.0;

thread_local! {
    /// What the running program printed: stdout, and the first line it wrote to stderr. Per
    /// thread, as the modes run in parallel; the print hook is a plain `fn`, so it lives here
    /// and not in the VM (which the image mode replaces at every turn).
    static OUTPUT: Cell<(String, Option<String>)> = const { Cell::new((String::new(), None)) };
}

fn print(_: &mut Vm, stream: Stream, text: &str) {
    let (mut out, mut err) = OUTPUT.take();
    match stream {
        Stream::Stdout => {
            out.push_str(text);
            out.push('\n');
        }
        Stream::Stderr => {
            err.get_or_insert_with(|| text.lines().next().unwrap_or("").to_string());
        }
    }
    OUTPUT.set((out, err));
}

/// Resolves a specifier against the importing file's directory and reads the file: the
/// embedder's job, done here with the host filesystem (the corpus imports only siblings).
fn load_module(_: &mut Vm, referrer: &str, specifier: &str) -> Result<(String, ModuleSource), String> {
    let dir = Path::new(referrer).parent().unwrap_or(Path::new("/"));
    let path = dir.join(specifier);
    let resolved = path.canonicalize().map_err(|e| format!("Cannot find module '{specifier}': {e}"))?;
    let text = std::fs::read_to_string(&resolved).map_err(|e| format!("{}: {e}", resolved.display()))?;
    let name = resolved.display().to_string();
    let source = if name.ends_with(".json") { ModuleSource::Json(text) } else { ModuleSource::Text(text) };
    Ok((name, source))
}

/// A VM with the realm, the Node layer's console and timers, and `settings` as its options.
fn new_vm(settings: Settings) -> Vm {
    let mut options = VmOptions::default();
    if let Some(n) = settings.gc_interval {
        options.gc_interval = n;
    }
    options.fast_tier = !settings.fast_tier_off;
    let mut vm = Vm::new(options);
    amber_node::install(&mut vm);
    attach_host(&mut vm);
    set_clock(&mut vm, START_MS);
    vm
}

/// What a VM gets from its embedder rather than from an image.
fn attach_host(vm: &mut Vm) {
    vm.print_hook = Some(print);
    vm.module_loader = Some(load_module);
}

/// The logical clock.
fn set_clock(vm: &mut Vm, ms: f64) {
    vm.clock_ms = ms;
}

/// The image mode's turn: the VM's canonical copy, encoded against the baseline as images
/// are, decoded onto a fresh copy of the baseline with the host's hooks and functions
/// attached again, replaces the VM.
fn continue_from_image(vm: &mut Vm, baseline: &Vm) {
    let options = vm.options.clone();
    let canonical = vm.canonical_copy(baseline).unwrap_or_else(|e| panic!("canonical copy: {e}"));
    let payload = canonical.encode_state_relative(baseline).unwrap_or_else(|e| panic!("encoding the image: {e}"));
    drop(canonical);
    let mut restored = Vm::decode_state_relative(&payload, baseline.independent_copy())
        .unwrap_or_else(|e| panic!("restoring the image: {e}"));
    restored.options.gc_interval = options.gc_interval;
    restored.options.fast_tier = options.fast_tier;
    amber_node::register(&mut restored);
    attach_host(&mut restored);
    *vm = restored;
}

/// How a run ended, when not by running out of things to do.
enum End {
    Error(RunError),
    /// A promise rejected with nothing to handle it: what it was rejected with.
    Unhandled(String),
    Exit(i32),
}

/// A turn's end: an uncaught error, or `process.exit`.
fn ended(vm: &mut Vm, r: Result<(), RunError>) -> Result<(), End> {
    vm.stack.clear();
    vm.frames.clear();
    r.map_err(End::Error)?;
    match amber_node::modules::process::exit_requested(vm) {
        Some(code) => Err(End::Exit(code)),
        None => Ok(()),
    }
}

/// Microtask checkpoint: `process.nextTick` callbacks and the job queue, as Node orders
/// them; then an unhandled rejection ends the run (as in Node).
fn microtasks(vm: &mut Vm) -> Result<(), End> {
    let r = amber_node::modules::process::run_microtasks(vm);
    ended(vm, r)?;
    if let Some(&promise) = vm.pending_rejections.first() {
        let reason = promise.as_object().and_then(|p| promise_state(vm, p)).map_or(promise, |(_, r)| r);
        return Err(End::Unhandled(vm.to_display_string(reason)));
    }
    Ok(())
}

/// Runs timer or immediate `id`, then a microtask checkpoint.
fn fire(vm: &mut Vm, id: u64) -> Result<(), End> {
    let r = amber_node::timers::fire(vm, id).map(drop).map_err(|t| vm.run_error(t));
    ended(vm, r)?;
    microtasks(vm)
}

/// The event loop (Node's order): the script or module, then until nothing is left: a
/// microtask checkpoint, the timers due now, the immediates, or a jump of the logical clock
/// to the next timer. In the image mode every turn starts from an image.
fn run_program(vm: &mut Vm, file: &Path, baseline: Option<&Vm>) -> Result<(), End> {
    let source = std::fs::read_to_string(file).unwrap();
    let name = file.canonicalize().unwrap().display().to_string();
    if file.extension().is_some_and(|e| e == "mjs") {
        let r = vm.eval_module(&source, &name).map(drop);
        ended(vm, r)?;
        // Node evaluates the main module inside a promise job: its microtasks run before the
        // nextTick queue is first drained.
        let r = vm.run_jobs();
        ended(vm, r)?;
    } else {
        let r = vm.eval_script(&source, &name).map(drop);
        ended(vm, r)?;
    }
    loop {
        if let Some(baseline) = baseline {
            continue_from_image(vm, baseline);
        }
        microtasks(vm)?;
        if let Some((_, id)) = amber_node::timers::next_due(vm).filter(|(due, _)| *due <= vm.clock_ms) {
            fire(vm, id)?;
            continue;
        }
        let immediates = amber_node::timers::immediate_ids(vm);
        if !immediates.is_empty() {
            for id in immediates {
                fire(vm, id)?;
            }
            continue;
        }
        match amber_node::timers::next_ref_due(vm) {
            Some((due, _)) => set_clock(vm, due.max(vm.clock_ms)),
            None => return Ok(()),
        }
    }
}

/// `file`'s output under `settings`: stdout, then `--- exit N` and the first stderr line
/// when it ends with an error (exit 1, as `amber run` does) or a non-zero `process.exit`.
fn actual_output(file: &Path, settings: Settings) -> String {
    OUTPUT.set((String::new(), None));
    // Runs start from a copy of a sealed baseline, as the runtime's do, so the image mode
    // encodes against the VM the run grew from.
    let mut baseline = new_vm(settings);
    baseline.heap.seal_baseline();
    let mut vm = baseline.independent_copy();
    let end = run_program(&mut vm, file, settings.image_every_turn.then_some(&baseline));
    let (mut out, stderr) = OUTPUT.take();
    let (code, first) = match end {
        Ok(()) | Err(End::Exit(0)) => return out,
        Err(End::Exit(code)) => (code, stderr.unwrap_or_default()),
        Err(End::Error(e)) => (1, e.to_string().lines().next().unwrap_or("").to_string()),
        Err(End::Unhandled(reason)) => (1, format!("Uncaught (in promise) {reason}")),
    };
    out.push_str(&format!("--- exit {code}\n{first}\n"));
    out
}

fn run_mode(mode: Mode) {
    let root = repo_root(env!("CARGO_MANIFEST_DIR"));
    let mut files = corpus(&root, &["engine"]);
    behaviour::check_stress_exceptions(&root, &files, &["engine"]);
    behaviour::check_through_amber_only(&root, &files);
    files.retain(|f| !behaviour::through_amber_only(&root, f));
    check_all(&root, &files, mode, actual_output);
}

#[test]
fn js_behaviour() {
    run_mode(Mode::Plain);
}

#[test]
fn js_behaviour_under_gc_stress() {
    run_mode(Mode::GcStress);
}

#[test]
fn js_behaviour_with_fast_tier_off() {
    run_mode(Mode::FastTierOff);
}

#[test]
fn js_behaviour_imaged_every_turn() {
    run_mode(Mode::ImageEveryTurn);
}
