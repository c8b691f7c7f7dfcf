//! `node:process` and the global `process`: a fixed virtual process (argv, env, pid,
//! versions, platform — see docs/node-compat.md), `nextTick` with Node's ordering, `exit`,
//! `hrtime` on the logical clock, and `stdout`/`stderr` writes through the print hook.
//!
//! nextTick: the queue is a JS array held under [`TICKS`] (a [`Vm::host_values`] root, so it
//! rides the image); [`RUN_TICKS`] is the JS function that drains it. The embedder's
//! microtask checkpoint calls [`run_microtasks`]: ticks, then promise jobs, again while ticks
//! were queued — Node's `processTicksAndRejections`.
//!
//! exit: `process.exit(code)` records the code in `vm.host_state` under [`EXIT_KEY`] and
//! unwinds every JS handler (an uncatchable throw); the embedder reads [`exit_requested`]
//! first when a slice ends. `process.exitCode` is read with [`exit_code`] when the loop
//! runs dry.
//!
//! Partial lines (`process.stdout.write("a")` without a newline) wait in `vm.host_state`
//! until a newline arrives (console output flushes them first). The embedder takes what is
//! left when the run stops ([`take_partial_for`]: the process that wrote a partial line prints
//! it, as written) or writes it as lines ([`flush_output`]).

use amber_engine::error::{JsResult, Limit, Throw};
use amber_engine::runtime::call::call;
use amber_engine::runtime::convert::{to_number, to_rust_string};
use amber_engine::runtime::property::get;
use amber_engine::vm::Stream;
use amber_engine::{Value, Vm};

use super::Builtin;

pub const BUILTIN: Builtin = Builtin {
    name: "process",
    source: include_str!("js/process.js"),
    natives: &[
        ("exit", 1, exit),
        ("clock", 0, clock),
        ("write", 2, write),
        ("heapBytes", 0, heap_bytes),
        ("tickQueue", 4, tick_queue),
        ("entry", 0, entry),
        ("inputs", 0, inputs),
    ],
    bare: true,
};

/// [`Vm::host_values`] entry: the nextTick queue (a JS array).
pub const TICKS: &str = "node.process.ticks";
/// [`Vm::host_values`] entry: the JS function that drains [`TICKS`].
pub const RUN_TICKS: &str = "node.process.runTicks";
/// [`Vm::host_values`] entry: the `process` object (for `exitCode`).
pub const PROCESS: &str = "node.process";
/// [`Vm::host_values`] entry: the JS function that emits `beforeExit` (phase 0) / `exit` (1).
pub const ON_IDLE: &str = "node.process.onIdle";
/// `vm.host_state` entry: the program's arguments and environment ([`ProcessInputs`] as
/// JSON), set by the embedder before the program starts.
pub const INPUTS_KEY: &str = "node.process.inputs";
/// `vm.host_state` entry: the code `process.exit` was called with (i32 LE).
pub const EXIT_KEY: &str = "node.process.exit";
const PARTIAL_OUT: &str = "node.process.stdout.partial";
const PARTIAL_ERR: &str = "node.process.stderr.partial";

/// A microtask checkpoint with nextTick: drain the tick queue, then promise jobs, and again
/// while either queued more ticks.
pub fn run_microtasks(vm: &mut Vm) -> Result<(), amber_engine::error::RunError> {
    loop {
        if pending_ticks(vm) > 0 {
            if let Some(runner) = vm.host_value(RUN_TICKS) {
                let r = call(vm, runner, Value::UNDEFINED, &[]);
                vm.stack.clear();
                vm.frames.clear();
                if let Err(t) = r {
                    return Err(vm.run_error(t));
                }
            }
        }
        vm.run_jobs()?;
        if pending_ticks(vm) == 0 {
            return Ok(());
        }
    }
}

fn pending_ticks(vm: &Vm) -> usize {
    let Some(q) = vm.host_value(TICKS).and_then(|v| v.as_object()) else { return 0 };
    match vm.heap.obj(q).class {
        amber_engine::heap::object::Class::Array(a) => a.length as usize,
        _ => 0,
    }
}

/// The loop ran dry: emit `beforeExit` (`exiting` false; the listeners may schedule more
/// work) or `exit` (`exiting` true). Nothing happens if the program never used `process`.
pub fn idle(vm: &mut Vm, exiting: bool) -> JsResult<()> {
    let Some(f) = vm.host_value(ON_IDLE) else { return Ok(()) };
    call(vm, f, Value::UNDEFINED, &[Value::bool(exiting)]).map(drop)
}

/// The code passed to `process.exit`, if the program called it.
pub fn exit_requested(vm: &Vm) -> Option<i32> {
    let b: [u8; 4] = vm.host_state.get(EXIT_KEY)?.try_into().ok()?;
    Some(i32::from_le_bytes(b))
}

/// `process.exitCode` when the program ran to its end (0 if unset or `process` unused).
pub fn exit_code(vm: &mut Vm) -> i32 {
    if let Some(code) = exit_requested(vm) {
        return code;
    }
    let Some(p) = vm.host_value(PROCESS) else { return 0 };
    let Some(o) = p.as_object() else { return 0 };
    let key = vm.key("exitCode");
    match get(vm, o, key, p) {
        Ok(v) => v.as_number().filter(|n| n.is_finite()).map_or(0, |n| n as i32),
        Err(_) => 0,
    }
}

/// Write out partial lines still waiting for a newline (the run is ending).
pub fn flush_output(vm: &mut Vm) {
    for (key, stream) in [(PARTIAL_OUT, Stream::Stdout), (PARTIAL_ERR, Stream::Stderr)] {
        let text = take_partial(vm, key);
        if !text.is_empty() {
            vm.print(stream, &text);
        }
    }
}

/// Text written without a trailing newline to `stream`, removed (console prefixes it).
pub fn take_partial_for(vm: &mut Vm, stream: Stream) -> String {
    take_partial(vm, if stream == Stream::Stdout { PARTIAL_OUT } else { PARTIAL_ERR })
}

fn take_partial(vm: &mut Vm, key: &str) -> String {
    vm.host_state.remove(key).and_then(|bytes| String::from_utf8(bytes).ok()).unwrap_or_default()
}

/// `internal.exit(code)`: stop the run with `code`.
fn exit(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let code = match args.first() {
        Some(&v) if !v.is_undefined() => to_number(vm, v)?,
        _ => 0.0,
    };
    let code = if code.is_finite() { code as i32 } else { 0 };
    vm.host_state.set(EXIT_KEY, code.to_le_bytes().to_vec());
    Err(Throw::Limit(Limit::Fuel))
}

/// `internal.clock()`: the logical clock, ms since the epoch.
fn clock(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::number(vm.now_ms()))
}

/// `internal.heapBytes()`: the heap's estimated size.
fn heap_bytes(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::number(vm.heap.bytes_estimate as f64))
}

/// `internal.write(fd, text)`: whole lines go to the print hook; a trailing partial line
/// waits for the next write (or the end of the run).
fn write(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let fd = match args.first() {
        Some(&v) => to_number(vm, v)?,
        None => 1.0,
    };
    let text = to_rust_string(vm, args.get(1).copied().unwrap_or(Value::UNDEFINED))?;
    let (key, stream) = if fd == 2.0 { (PARTIAL_ERR, Stream::Stderr) } else { (PARTIAL_OUT, Stream::Stdout) };
    let mut all = take_partial(vm, key);
    all.push_str(&text);
    match all.rfind('\n') {
        Some(i) => {
            let rest = all.split_off(i + 1);
            all.pop();
            vm.print(stream, &all);
            if !rest.is_empty() {
                vm.host_state.set(key, rest.into_bytes());
            }
        }
        None => {
            if !all.is_empty() {
                vm.host_state.set(key, all.into_bytes());
            }
        }
    }
    Ok(Value::TRUE)
}

/// `internal.entry()`: the program's file name (the first source compiled that is not a
/// builtin), or undefined.
fn entry(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let name = vm.sources.iter().map(|s| s.name.clone()).find(|n| !n.starts_with("node:"));
    Ok(match name {
        Some(n) => vm.str(&n),
        None => Value::UNDEFINED,
    })
}

/// What the embedder hands the program as `process.argv.slice(2)` and `process.env`. They are
/// inputs of the run like its source: the embedder stores them with the session so a replay
/// starts from the same ones, and they ride the image in `vm.host_state`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProcessInputs {
    /// User arguments, after the interpreter and entry paths.
    pub argv: Vec<String>,
    /// Environment variables, in name order.
    pub env: std::collections::BTreeMap<String, String>,
}

impl ProcessInputs {
    /// Records the inputs for `process` to read when it is first used.
    pub fn install(&self, vm: &mut Vm) {
        let bytes = serde_json::to_vec(self).unwrap_or_default();
        vm.host_state.set(INPUTS_KEY, bytes);
    }
}

/// `internal.inputs()`: the [`ProcessInputs`] JSON text, or undefined if none were given.
fn inputs(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let text = vm.host_state.get(INPUTS_KEY).map(|b| String::from_utf8_lossy(b).into_owned());
    Ok(match text {
        Some(t) => vm.str(&t),
        None => Value::UNDEFINED,
    })
}

/// `internal.tickQueue(queue, runner, process)`: hold the nextTick queue and its drain function.
fn tick_queue(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let queue = args.first().copied().unwrap_or(Value::UNDEFINED);
    let runner = args.get(1).copied().unwrap_or(Value::UNDEFINED);
    let process = args.get(2).copied().unwrap_or(Value::UNDEFINED);
    let on_idle = args.get(3).copied().unwrap_or(Value::UNDEFINED);
    vm.set_host_value(ON_IDLE, on_idle);
    vm.set_host_value(TICKS, queue);
    vm.set_host_value(RUN_TICKS, runner);
    vm.set_host_value(PROCESS, process);
    Ok(Value::UNDEFINED)
}
