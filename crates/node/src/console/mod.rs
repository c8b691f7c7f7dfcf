//! `console`: log, info, debug, dirxml (stdout); error, warn, trace, assert (stderr) —
//! formatted like Node's `util.format`; `dir`, `count`/`countReset`, `time`/`timeLog`/
//! `timeEnd` (on the logical clock), `group`/`groupCollapsed`/`groupEnd` (every line
//! indented by two spaces a level, as Node's), `table` (`table.rs`), `clear` (a no-op: no
//! descriptor is a terminal).
//!
//! The counters, timers and group depth are plain data in `vm.host_state` (they ride an
//! image); a warning (an unknown label, a timer started twice) goes through
//! `process.emitWarning`, as in Node.

use amber_engine::error::JsResult;
use amber_engine::heap::shape::PropFlags;
use amber_engine::runtime::call::call;
use amber_engine::runtime::convert::{to_boolean, to_rust_string};
use amber_engine::runtime::property::get;
use amber_engine::vm::Stream;
use amber_engine::{Value, Vm};

use crate::inspect::{format_args, inspect_with, InspectOptions};

mod table;

/// The methods, in the order Node 20 defines them (`Object.keys(console)`): enumerable, like
/// Node's. `profile`, `profileEnd` and `timeStamp` do nothing without an inspector, as there.
const METHODS: &[(&str, amber_engine::HostFn)] = &[
    ("console.log", log),
    ("console.warn", error),
    ("console.dir", dir),
    ("console.time", time),
    ("console.timeEnd", time_end),
    ("console.timeLog", time_log),
    ("console.trace", trace),
    ("console.assert", assert),
    ("console.clear", clear),
    ("console.count", count),
    ("console.countReset", count_reset),
    ("console.group", group),
    ("console.groupEnd", group_end),
    ("console.table", table),
    ("console.debug", log),
    ("console.info", log),
    ("console.dirxml", log),
    ("console.error", error),
    ("console.groupCollapsed", group),
    ("console.profile", clear),
    ("console.profileEnd", clear),
    ("console.timeStamp", clear),
];
/// `vm.host_state` entry holding [`State`] (JSON).
const STATE: &str = "node.console";

/// What the console keeps between calls.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct State {
    /// Spaces before every line (`group` adds two, `groupEnd` removes two).
    indent: usize,
    /// `count` labels and their counts, in first-use order.
    counts: Vec<(String, u64)>,
    /// `time` labels and the logical clock when each started, in start order.
    timers: Vec<(String, f64)>,
}

fn load(vm: &Vm) -> State {
    vm.host_state.get(STATE).and_then(|bytes| serde_json::from_slice(bytes).ok()).unwrap_or_default()
}

fn store(vm: &mut Vm, state: &State) {
    let bytes = serde_json::to_vec(state).unwrap_or_default();
    vm.host_state.set(STATE, bytes);
}

/// Define the `console` global.
pub fn install(vm: &mut Vm) {
    let console = vm.new_object();
    let global = vm.global_object();
    for (name, f) in METHODS {
        vm.define_host_function_with(console, name, 0, *f, PropFlags::DEFAULT);
    }
    vm.set_property(global, "console", console);
}

/// Re-bind the console host functions (after restore).
pub fn register(vm: &mut Vm) {
    for (name, f) in METHODS {
        vm.register_host_function(name, *f);
    }
}

/// Print `text` on `stream` with the group indentation on every line, after any partial line
/// `process.stdout.write` left.
fn write(vm: &mut Vm, stream: Stream, text: &str) {
    let indent = load(vm).indent;
    let text = if indent == 0 {
        text.to_string()
    } else {
        let pad = " ".repeat(indent);
        format!("{pad}{}", text.replace('\n', &format!("\n{pad}")))
    };
    let s = crate::modules::process::take_partial_for(vm, stream) + &text;
    vm.print(stream, &s);
}

fn log(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = format_args(vm, args)?;
    write(vm, Stream::Stdout, &s);
    Ok(Value::UNDEFINED)
}

fn error(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = format_args(vm, args)?;
    write(vm, Stream::Stderr, &s);
    Ok(Value::UNDEFINED)
}

/// `console.table(tabularData, properties)` (see `table.rs`); data that is not an object is
/// logged.
fn table(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let data = args.first().copied().unwrap_or(Value::UNDEFINED);
    let properties = args.get(1).copied().unwrap_or(Value::UNDEFINED);
    match table::render(vm, data, properties)? {
        Some(text) => write(vm, Stream::Stdout, &text),
        None => return log(vm, this, &[data]),
    }
    Ok(Value::UNDEFINED)
}

fn trace(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = format_args(vm, args)?;
    let stack = amber_engine::builtins::error::stack_trace(vm);
    write(vm, Stream::Stderr, &format!("Trace: {s}{stack}"));
    Ok(Value::UNDEFINED)
}

/// `console.dir(obj, options)`: `util.inspect(obj, { customInspect: false, ...options })`.
fn dir(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let v = args.first().copied().unwrap_or(Value::UNDEFINED);
    let o = args.get(1).copied().unwrap_or(Value::UNDEFINED);
    let defaults = InspectOptions { custom_inspect: false, ..InspectOptions::default() };
    let opts = crate::modules::util::inspect_options(vm, o, defaults)?;
    let s = inspect_with(vm, v, opts);
    write(vm, Stream::Stdout, &s);
    Ok(Value::UNDEFINED)
}

/// `console.assert(value, ...data)`: nothing when `value` is truthy, else Node 20's
/// `args[0] = \`Assertion failed: ${args[0]}\`` (just `Assertion failed` without data) on
/// stderr.
fn assert(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    if to_boolean(vm, args.first().copied().unwrap_or(Value::UNDEFINED)) {
        return Ok(Value::UNDEFINED);
    }
    let mut data: Vec<Value> = args.iter().skip(1).copied().collect();
    let text = match data.first().copied() {
        Some(first) => format!("Assertion failed: {}", to_rust_string(vm, first)?),
        None => "Assertion failed".to_string(),
    };
    let text = vm.str(&text);
    match data.first_mut() {
        Some(first) => *first = text,
        None => data.push(text),
    }
    error(vm, Value::UNDEFINED, &data)
}

/// The label argument: `'default'` when undefined, else `${label}`.
fn label(vm: &mut Vm, args: &[Value]) -> JsResult<String> {
    match args.first().copied() {
        None => Ok("default".to_string()),
        Some(v) if v.is_undefined() => Ok("default".to_string()),
        Some(v) => to_rust_string(vm, v),
    }
}

/// `process.emitWarning(text)`, as Node's console warns.
fn warn(vm: &mut Vm, text: &str) -> JsResult<()> {
    let global = vm.global_object();
    let Some(g) = global.as_object() else { return Ok(()) };
    let key = vm.key("process");
    let process = get(vm, g, key, global)?;
    let Some(p) = process.as_object() else { return Ok(()) };
    let key = vm.key("emitWarning");
    let emit = get(vm, p, key, process)?;
    if amber_engine::runtime::call::is_callable(vm, emit) {
        let message = vm.str(text);
        call(vm, emit, process, &[message])?;
    }
    Ok(())
}

fn count(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let label = label(vm, args)?;
    let mut state = load(vm);
    let n = match state.counts.iter_mut().find(|(l, _)| *l == label) {
        Some(entry) => {
            entry.1 += 1;
            entry.1
        }
        None => {
            state.counts.push((label.clone(), 1));
            1
        }
    };
    store(vm, &state);
    write(vm, Stream::Stdout, &format!("{label}: {n}"));
    Ok(Value::UNDEFINED)
}

fn count_reset(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let label = label(vm, args)?;
    let mut state = load(vm);
    match state.counts.iter_mut().find(|(l, _)| *l == label) {
        Some(entry) => {
            entry.1 = 0;
            store(vm, &state);
        }
        None => warn(vm, &format!("Count for '{label}' does not exist"))?,
    }
    Ok(Value::UNDEFINED)
}

fn time(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let label = label(vm, args)?;
    let mut state = load(vm);
    if state.timers.iter().any(|(l, _)| *l == label) {
        warn(vm, &format!("Label '{label}' already exists for console.time()"))?;
        return Ok(Value::UNDEFINED);
    }
    let now = vm.now_ms();
    state.timers.push((label, now));
    store(vm, &state);
    Ok(Value::UNDEFINED)
}

/// Node's `formatTime`: `1.234ms`, `1.500s`, `1:05.000 (m:ss.mmm)`, `1:00:05.000 (h:mm:ss.mmm)`.
fn format_time(ms: f64) -> String {
    let (mut hours, mut minutes, mut seconds, mut ms) = (0.0, 0.0, 0.0, ms);
    if ms >= 1000.0 {
        if ms >= 60_000.0 {
            if ms >= 3_600_000.0 {
                hours = (ms / 3_600_000.0).floor();
                ms %= 3_600_000.0;
            }
            minutes = (ms / 60_000.0).floor();
            ms %= 60_000.0;
        }
        seconds = ms / 1000.0;
    }
    if hours != 0.0 || minutes != 0.0 {
        let fixed = format!("{seconds:.3}");
        let (s, frac) = fixed.split_once('.').unwrap_or((&fixed, "000"));
        let lead = if hours != 0.0 { format!("{hours}:{minutes:02}") } else { format!("{minutes}") };
        let unit = if hours != 0.0 { "h:m" } else { "" };
        return format!("{lead}:{s:0>2}.{frac} ({unit}m:ss.mmm)");
    }
    if seconds != 0.0 {
        return format!("{seconds:.3}s");
    }
    let rounded: f64 = format!("{ms:.3}").parse().unwrap_or(ms);
    format!("{}ms", amber_engine::runtime::convert::number_to_string(rounded))
}

/// The elapsed time of timer `label`, removing it when `end`; None (after a warning) when it
/// does not exist.
fn elapsed(vm: &mut Vm, label: &str, end: bool, method: &str) -> JsResult<Option<String>> {
    let mut state = load(vm);
    let Some(i) = state.timers.iter().position(|(l, _)| l == label) else {
        warn(vm, &format!("No such label '{label}' for console.{method}()"))?;
        return Ok(None);
    };
    let start = state.timers[i].1;
    if end {
        state.timers.remove(i);
        store(vm, &state);
    }
    let now = vm.now_ms();
    Ok(Some(format_time(now - start)))
}

fn time_log(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let label = label(vm, args)?;
    if let Some(t) = elapsed(vm, &label, false, "timeLog")? {
        let mut parts = vec![vm.str(&format!("{label}: {t}"))];
        parts.extend(args.iter().skip(1).copied());
        let s = format_args(vm, &parts)?;
        write(vm, Stream::Stdout, &s);
    }
    Ok(Value::UNDEFINED)
}

fn time_end(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let label = label(vm, args)?;
    if let Some(t) = elapsed(vm, &label, true, "timeEnd")? {
        write(vm, Stream::Stdout, &format!("{label}: {t}"));
    }
    Ok(Value::UNDEFINED)
}

/// `console.group(...label)`: the label (if any) logged, then two more spaces of indentation.
fn group(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    if !args.is_empty() {
        log(vm, this, args)?;
    }
    let mut state = load(vm);
    state.indent += 2;
    store(vm, &state);
    Ok(Value::UNDEFINED)
}

fn group_end(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let mut state = load(vm);
    state.indent = state.indent.saturating_sub(2);
    store(vm, &state);
    Ok(Value::UNDEFINED)
}

fn clear(_vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::UNDEFINED)
}
