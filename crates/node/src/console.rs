//! `console`: log, info, debug (stdout); error, warn, trace (stderr) — formatted like Node's
//! `util.format`.

use amber_engine::error::JsResult;
use amber_engine::vm::Stream;
use amber_engine::{Value, Vm};

use crate::inspect::format_args;

const METHODS: &[(&str, amber_engine::HostFn)] = &[
    ("console.log", log),
    ("console.info", log),
    ("console.debug", log),
    ("console.error", error),
    ("console.warn", error),
    ("console.trace", trace),
];

/// Define the `console` global.
pub fn install(vm: &mut Vm) {
    let console = vm.new_object();
    let global = vm.global_object();
    for (name, f) in METHODS {
        vm.define_host_function(console, name, 0, *f);
    }
    vm.set_property(global, "console", console);
}

/// Re-bind the console host functions (after restore).
pub fn register(vm: &mut Vm) {
    for (name, f) in METHODS {
        vm.register_host_function(name, *f);
    }
}

fn log(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = format_args(vm, args)?;
    let s = crate::modules::process::take_partial_for(vm, Stream::Stdout) + &s;
    vm.print(Stream::Stdout, &s);
    Ok(Value::UNDEFINED)
}

fn error(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = format_args(vm, args)?;
    let s = crate::modules::process::take_partial_for(vm, Stream::Stderr) + &s;
    vm.print(Stream::Stderr, &s);
    Ok(Value::UNDEFINED)
}

fn trace(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = format_args(vm, args)?;
    let stack = amber_engine::builtins::error::stack_trace(vm);
    vm.print(Stream::Stderr, &format!("Trace: {s}{stack}"));
    Ok(Value::UNDEFINED)
}
