//! Every call into amber-engine lives here: building a VM for one execution, the host-defined
//! `print` and `$262`, evaluating the harness and the test, draining the job queue, and
//! reducing the engine's errors to an engine-neutral [`Execution`]. When the engine's API
//! changes, this is the one file to adapt.
//!
//! Architecture invariant: nothing outside this module names an `amber_engine` item.

use crate::frontmatter::Phase;
use crate::plan;
use crate::verdict::{Execution, Failure};
use amber_engine::module::ModuleSource;
use amber_engine::{ErrorKind, JsResult, Limit, RunError, Stream, Throw, Value, Vm, VmOptions};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

mod agents;

/// Per-execution limits and host behaviour.
#[derive(Clone, Debug)]
pub struct ExecOptions {
    pub max_instructions: u64,
    pub max_heap_bytes: Option<u64>,
    /// Image the VM through bincode and restore it at every safe point.
    pub snapshot_roundtrip: bool,
    /// The host's [[CanBlock]].
    pub can_block: bool,
    /// The unpacked suite; module names are relative to it.
    pub suite_dir: PathBuf,
    /// Testing aid (`--break-builtin`): this property path is deleted before the harness runs.
    pub break_builtin: Option<String>,
}

/// A script evaluated before the test (a harness file).
pub struct Script<'a> {
    pub filename: &'a str,
    pub source: &'a str,
}

/// The test itself, already transformed for its mode (the strict prefix is applied).
pub struct TestSource<'a> {
    pub filename: &'a str,
    pub source: &'a str,
    pub module: bool,
    /// The directory of the test file, against which `./x.js` module specifiers resolve.
    pub dir: &'a Path,
}

/// Longest output kept from `print` per execution.
const MAX_OUTPUT: usize = 64 * 1024;

/// What `print` was given during the current execution. A worker runs one execution at a time,
/// and host functions are plain `fn` pointers, so the buffer is process-wide.
static PRINTED: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn printed_take() -> Vec<String> {
    match PRINTED.lock() {
        Ok(mut p) => std::mem::take(&mut *p),
        Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
    }
}

fn printed_push(line: String) {
    let mut p = match PRINTED.lock() {
        Ok(p) => p,
        Err(poisoned) => poisoned.into_inner(),
    };
    let used: usize = p.iter().map(String::len).sum();
    if used + line.len() <= MAX_OUTPUT {
        p.push(line);
    }
}

/// Runs one execution: a fresh VM (a new realm), host bindings, the prelude, the test, then the
/// job queue.
pub fn execute(opts: &ExecOptions, prelude: &[Script<'_>], test: &TestSource<'_>) -> Execution {
    printed_take();
    if let Ok(mut dir) = SUITE_DIR.lock() {
        *dir = Some(opts.suite_dir.clone());
    }
    let failure = run(opts, prelude, test).err();
    agents::finish();
    Execution { failure, printed: printed_take() }
}

fn run(opts: &ExecOptions, prelude: &[Script<'_>], test: &TestSource<'_>) -> Result<(), Failure> {
    let mut vm = Vm::new(VmOptions {
        max_instructions: Some(opts.max_instructions),
        max_heap_bytes: opts.max_heap_bytes,
        ..VmOptions::default()
    });
    install_host(&mut vm);
    agents::begin(&vm);
    if let Some(path) = &opts.break_builtin {
        // The path is a checked dotted identifier path (`plan::valid_builtin_path`).
        vm.eval_script(&format!("delete {path};"), "break-builtin")
            .map_err(|e| Failure::Harness(format!("--break-builtin {path}: {}", describe(&e))))?;
    }
    for script in prelude {
        vm.eval_script(script.source, script.filename)
            .map_err(|e| Failure::Harness(format!("{}: {}", script.filename, describe(&e))))?;
        safe_point(&mut vm, opts)?;
    }
    if test.module {
        return run_module(&mut vm, opts, test);
    }
    vm.eval_script(test.source, test.filename).map_err(|e| failure(&e, Phase::Parse, Phase::Runtime))?;
    safe_point(&mut vm, opts)?;
    agents::run_event_loop(&mut vm, true).map_err(|e| failure(&e, Phase::Runtime, Phase::Runtime))?;
    safe_point(&mut vm, opts)?;
    Ok(())
}

/// The host value holding the entry module's evaluation promise.
const EVALUATION_PROMISE: &str = "test262.evaluation";

/// Module code, one phase at a time so a negative test's phase is exact: the entry's own
/// syntax errors are `parse`; loading the graph (a dependency's syntax error, a missing file)
/// and linking (an unresolvable import) are `resolution`; evaluation, including a rejected
/// top-level-await promise, is `runtime`.
fn run_module(vm: &mut Vm, opts: &ExecOptions, test: &TestSource<'_>) -> Result<(), Failure> {
    use amber_engine::module;
    let resolution = |e: &RunError| failure(e, Phase::Resolution, Phase::Resolution);
    let id =
        module::parse_module(vm, test.source, test.filename).map_err(|e| failure(&e, Phase::Parse, Phase::Parse))?;
    module::load_requested_modules(vm, id).map_err(|e| resolution(&e))?;
    module::link_module(vm, id).map_err(|e| resolution(&e))?;
    let promise = module::evaluate_module(vm, id).map_err(|e| failure(&e, Phase::Runtime, Phase::Runtime))?;
    // Held by the VM, not here: a round trip renumbers every handle.
    vm.set_host_value(EVALUATION_PROMISE, promise);
    safe_point(vm, opts)?;
    agents::run_event_loop(vm, true).map_err(|e| failure(&e, Phase::Runtime, Phase::Runtime))?;
    safe_point(vm, opts)?;
    let promise = vm.host_value(EVALUATION_PROMISE).unwrap_or(amber_engine::Value::UNDEFINED);
    let state = promise.as_object().and_then(|p| amber_engine::builtins::promise::promise_state(vm, p));
    if let Some((amber_engine::heap::object::PromiseState::Rejected, reason)) = state {
        let e = vm.run_error(Throw::Value(reason));
        return Err(failure(&e, Phase::Runtime, Phase::Runtime));
    }
    Ok(())
}

/// The suite directory module names resolve against (set by [`execute`]; a worker serves one
/// suite).
static SUITE_DIR: Mutex<Option<PathBuf>> = Mutex::new(None);

/// The engine's module loader: `./x.js` relative to the importing file, read from the suite.
/// Names are paths relative to the suite directory (`test/language/module-code/x_FIXTURE.js`).
fn load_module(_vm: &mut Vm, referrer: &str, specifier: &str) -> Result<(String, ModuleSource), String> {
    let name = plan::resolve_specifier(referrer, specifier)?;
    let root = match SUITE_DIR.lock() {
        Ok(dir) => dir.clone(),
        Err(poisoned) => poisoned.into_inner().clone(),
    }
    .ok_or_else(|| "no suite directory".to_string())?;
    let text = std::fs::read_to_string(root.join(&name))
        .map_err(|e| format!("Cannot load module '{specifier}' from '{referrer}': {e}"))?;
    Ok((name, ModuleSource::Text(text)))
}

/// `--snapshot-roundtrip`: image the whole VM and restore it in place.
fn safe_point(vm: &mut Vm, opts: &ExecOptions) -> Result<(), Failure> {
    if opts.snapshot_roundtrip {
        vm.snapshot_roundtrip().map_err(Failure::Snapshot)?;
    }
    Ok(())
}

/// Maps an engine error to a failure: a syntax error happened at `syntax_phase`, a thrown
/// error at `thrown_phase`.
fn failure(e: &RunError, syntax_phase: Phase, thrown_phase: Phase) -> Failure {
    match e {
        RunError::Syntax(report) => Failure::Error {
            phase: syntax_phase,
            name: "SyntaxError".into(),
            message: format!("{} ({}:{}:{})", report.message, report.filename, report.line, report.column),
        },
        RunError::Threw { name, stack, .. } => {
            Failure::Error { phase: thrown_phase, name: name.clone(), message: stack.clone() }
        }
        RunError::Limit(Limit::Fuel) => Failure::Limit(Limit::Fuel.to_string()),
        RunError::Limit(Limit::Heap) => Failure::OutOfMemory(Limit::Heap.to_string()),
    }
}

fn describe(e: &RunError) -> String {
    match e {
        RunError::Syntax(report) => {
            format!("SyntaxError: {} ({}:{}:{})", report.message, report.filename, report.line, report.column)
        }
        RunError::Threw { stack, .. } => stack.clone(),
        RunError::Limit(limit) => limit.to_string(),
    }
}

/// `print` and `$262` (INTERPRETING.md, "Host-Defined Functions").
fn install_host(vm: &mut Vm) {
    // Engine output (console) must not reach the worker's stdout, which carries the protocol.
    vm.print_hook = Some(host_console);
    // `import()` in scripts and static imports in modules load from the suite.
    vm.module_loader = Some(load_module);
    let global = vm.global_object();
    vm.define_host_function(global, "print", 1, host_print);
    vm.define_host_function(global, "setTimeout", 2, agents::host_set_timeout);
    install_262(vm);
}

/// `$262` of the running realm, on its global object.
fn install_262(vm: &mut Vm) -> Value {
    let global = vm.global_object();
    let t262 = vm.new_object();
    vm.define_host_function(t262, "$262.createRealm", 0, host_create_realm);
    vm.define_host_function(t262, "$262.evalScript", 1, host_eval_script);
    vm.define_host_function(t262, "$262.gc", 0, host_gc);
    vm.define_host_function(
        t262,
        "$262.detachArrayBuffer",
        1,
        amber_engine::builtins::array_buffer::host_detach_array_buffer,
    );
    vm.set_property(t262, "global", global);
    agents::install_main(vm, t262);
    // Not provided: IsHTMLDDA, AbstractModuleSource. The harness reports their absence itself.
    vm.set_property(global, "$262", t262);
    t262
}

/// `$262.createRealm()`: a new realm with its own intrinsics and global object, and a `$262`
/// of its own (whose `evalScript` runs there), which is the result.
fn host_create_realm(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let realm = vm.create_realm();
    let back = vm.current_realm;
    vm.switch_realm(realm);
    let t262 = install_262(vm);
    vm.switch_realm(back);
    Ok(t262)
}

/// The engine's output hook: kept with the test's output.
fn host_console(_vm: &mut Vm, _stream: Stream, text: &str) {
    printed_push(format!("[console] {text}"));
}

fn host_print(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let text = match args.first() {
        Some(&v) => vm.to_display_string(v),
        None => "undefined".to_string(),
    };
    printed_push(text);
    Ok(Value::UNDEFINED)
}

/// `$262.evalScript(source)`: parse and run a script as global code of the current realm; a
/// parse error throws a SyntaxError, an exception propagates as it is.
///
/// `Vm::eval_script` resets the frame stack (it is for the embedder at a safe point), so this
/// re-entrant call compiles and runs the script the way the engine's indirect eval does.
fn host_eval_script(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let source = match args.first() {
        Some(&v) => vm.to_display_string(v),
        None => "undefined".to_string(),
    };
    let code = match amber_engine::compiler::compile_script(vm, &source, "evalScript") {
        Ok(code) => code,
        Err(report) => return Err(vm.throw(ErrorKind::SyntaxError, &report.message)),
    };
    let global = vm.global_object();
    amber_engine::interp::run_code(vm, code, None, global, Value::UNDEFINED, Value::UNDEFINED)
}

/// `$262.gc()`: must throw when the host cannot collect. The engine collects only at
/// instruction boundaries, never from inside a native call, so there is no hook to call.
fn host_gc(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Err(Throw::Value(vm.make_error(ErrorKind::TypeError, "$262.gc: the engine offers no collection hook for hosts")))
}
