//! `node:perf_hooks` and the `performance` global (`performance.js`) on the VM's logical
//! clock: the two natives it needs, and `performance.timeOrigin` kept in host state.

use amber_engine::error::JsResult;
use amber_engine::{Value, Vm};

use crate::modules::Builtin;

/// `node:perf_hooks`: `performance` (the lazy global) on the logical clock.
pub const PERF_HOOKS: Builtin = Builtin {
    name: "perf_hooks",
    source: include_str!("performance.js"),
    natives: &[("now", 0, performance_now), ("timeOrigin", 0, performance_time_origin)],
    bare: true,
};

/// `vm.host_state` entry: `performance.timeOrigin`, the logical clock when the run started
/// (f64 LE). It rides the image with the rest of host state, so a resumed run keeps it.
pub const TIME_ORIGIN_KEY: &str = "node.performance.timeOrigin";

/// Fixes `performance.timeOrigin` at the clock's current value, unless it is set already
/// (the loader calls this as the main program starts; it does not count as reading the clock).
pub fn record_time_origin(vm: &mut Vm) {
    if !vm.host_state.contains(TIME_ORIGIN_KEY) {
        vm.host_state.set(TIME_ORIGIN_KEY, vm.clock_ms.to_le_bytes().to_vec());
    }
}

fn time_origin(vm: &mut Vm) -> f64 {
    record_time_origin(vm);
    vm.host_state.get(TIME_ORIGIN_KEY).and_then(|b| <[u8; 8]>::try_from(b).ok()).map_or(0.0, f64::from_le_bytes)
}

/// `internal.now()`: the logical clock (ms since the epoch); marks the clock as read.
fn performance_now(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::number(vm.now_ms()))
}

/// `internal.timeOrigin()`: the clock when the run started.
fn performance_time_origin(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    vm.clock_read = true;
    Ok(Value::number(time_origin(vm)))
}
