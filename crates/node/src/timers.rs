//! Timers: `setTimeout`, `setInterval`, `setImmediate` and their clears, over the VM's virtual
//! timer queue (`vm.timers`, DESIGN §6). `queueMicrotask` is the engine's (promise builtin).
//!
//! Node's rules: a delay that is not a number in [1, 2^31-1] becomes 1; a timer is due at
//! `vm.clock_ms + delay`; timers run in (due, id) order, then immediates in id order. This
//! module only schedules and fires; the embedder's event loop decides when (it owns the
//! logical clock). `setTimeout` returns a `Timeout` object (`ref`, `unref`, `hasRef`,
//! `refresh`, `close`, `[Symbol.toPrimitive]` → id) as Node does; the clears accept the object
//! or its numeric id. An unref'd timer still fires, but does not keep the loop alive.
//!
//! Every timer native is a host function whose captures are `[name, Timeout.prototype,
//! Immediate.prototype, id symbol, delay symbol]`: the prototypes and the private id key ride the image
//! with the functions that use them. The set of unref'd ids rides it too, in
//! `vm.host_state` under [`UNREF_KEY`] (u64 LE each).

use amber_engine::atoms::PropertyKey;
use amber_engine::builtins::{make_native, NativeId};
use amber_engine::error::JsResult;
use amber_engine::heap::shape::PropFlags;
use amber_engine::runtime::call::is_callable;
use amber_engine::runtime::convert::to_number;
use amber_engine::runtime::describe::{describe, Shown};
use amber_engine::runtime::property::get;
use amber_engine::vm::Timer;
use amber_engine::{HostFn, Value, Vm};

/// `vm.host_state` entry listing unref'd timer ids.
pub const UNREF_KEY: &str = "node.timers.unref";

/// Node's TIMEOUT_MAX: larger delays become 1.
const TIMEOUT_MAX: f64 = 2_147_483_647.0;

/// Globals: (host name, JS length, function).
const GLOBALS: &[(&str, u32, HostFn)] = &[
    ("setTimeout", 5, set_timeout),
    ("clearTimeout", 1, clear_timeout),
    ("setInterval", 5, set_interval),
    ("clearInterval", 1, clear_timeout),
    ("setImmediate", 4, set_immediate),
    ("clearImmediate", 1, clear_immediate),
];

/// Methods shared by `Timeout` and `Immediate` objects.
const METHODS: &[(&str, u32, HostFn)] = &[
    ("Timeout.prototype.ref", 0, timer_ref),
    ("Timeout.prototype.unref", 0, timer_unref),
    ("Timeout.prototype.hasRef", 0, timer_has_ref),
    ("Timeout.prototype.refresh", 0, timer_refresh),
    ("Timeout.prototype.close", 0, timer_close),
    ("Timeout.prototype[Symbol.toPrimitive]", 1, timer_to_primitive),
];

/// Capture slots of every timer native.
const CAP_TIMEOUT_PROTO: usize = 1;
const CAP_IMMEDIATE_PROTO: usize = 2;
const CAP_ID_SYMBOL: usize = 3;
const CAP_DELAY_SYMBOL: usize = 4;

/// Define the timer globals on a fresh VM.
pub fn install(vm: &mut Vm) {
    register(vm);
    let object_prototype = vm.realm.object_prototype;
    let timeout_proto = vm.heap.new_plain(Some(object_prototype));
    let immediate_proto = vm.heap.new_plain(Some(object_prototype));
    let id_symbol = vm.heap.alloc_symbol(Some(amber_engine::JsStr::from_str("timerId")));
    let delay_symbol = vm.heap.alloc_symbol(Some(amber_engine::JsStr::from_str("timerDelay")));
    let shared = [
        Value::object(timeout_proto),
        Value::object(immediate_proto),
        Value::symbol(id_symbol),
        Value::symbol(delay_symbol),
    ];
    let host = NativeId::builtin("%HostFunction");
    let make = |vm: &mut Vm, name: &str, length: u32| {
        let short = name.rsplit('.').next().unwrap_or(name);
        let short = short.strip_prefix("prototype[Symbol.").map_or(short.to_string(), |s| s.replace(']', ""));
        let mut captures = vec![vm.str(name)];
        captures.extend_from_slice(&shared);
        Value::object(make_native(vm, &short, host, length, false, captures))
    };
    for (name, length, _) in METHODS {
        let f = make(vm, name, *length);
        let key = match name.strip_prefix("Timeout.prototype[Symbol.") {
            Some(_) => match vm.well_known_symbol("toPrimitive") {
                Some(s) => PropertyKey::Symbol(s),
                None => continue,
            },
            None => vm.key(name.rsplit('.').next().unwrap_or(name)),
        };
        vm.define_builtin(timeout_proto, key, f, PropFlags::HIDDEN);
        vm.define_builtin(immediate_proto, key, f, PropFlags::HIDDEN);
    }
    for (proto, tag) in [(timeout_proto, "Timeout"), (immediate_proto, "Immediate")] {
        if let Some(s) = vm.well_known_symbol("toStringTag") {
            let tag = vm.str(tag);
            vm.define_builtin(proto, PropertyKey::Symbol(s), tag, PropFlags(PropFlags::CONFIGURABLE));
        }
    }
    let global = vm.global;
    for (name, length, _) in GLOBALS {
        let f = make(vm, name, *length);
        let key = vm.key(name);
        vm.define_builtin(global, key, f, PropFlags::DEFAULT);
    }
}

/// Re-bind the timer host functions (after restore).
pub fn register(vm: &mut Vm) {
    for (name, _, f) in GLOBALS.iter().chain(METHODS) {
        vm.register_host_function(name, *f);
    }
}

// ---- The event loop's side: what is due, and firing one timer.

/// The earliest (due, id) among timers (immediates excluded).
pub fn next_due(vm: &Vm) -> Option<(f64, u64)> {
    vm.timers
        .iter()
        .filter(|t| !t.immediate)
        .map(|t| (t.due, t.id))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
}

/// True if a timer or immediate that keeps the loop alive (not unref'd) is queued.
pub fn has_ref_timers(vm: &Vm) -> bool {
    let unref = unref_ids(vm);
    vm.timers.iter().any(|t| !unref.contains(&t.id))
}

/// The earliest (due, id) the idle loop wakes for, while some timer keeps the loop alive:
/// an unref'd timer due before the ref'd ones fires on time (node runs it at its deadline
/// while the loop is alive, as `AbortSignal.timeout` relies on); with only unref'd timers
/// left, None (the loop may end).
pub fn next_ref_due(vm: &Vm) -> Option<(f64, u64)> {
    let unref = unref_ids(vm);
    if !vm.timers.iter().any(|t| !t.immediate && !unref.contains(&t.id)) {
        return None;
    }
    vm.timers
        .iter()
        .filter(|t| !t.immediate)
        .map(|t| (t.due, t.id))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
}

/// Ids of queued immediates, in the order they run.
pub fn immediate_ids(vm: &Vm) -> Vec<u64> {
    let mut ids: Vec<u64> = vm.timers.iter().filter(|t| t.immediate).map(|t| t.id).collect();
    ids.sort_unstable();
    ids
}

/// Fire timer `id` if it is still queued (`Vm::run_timer`); a timeout or immediate that
/// fires stops counting as unref'd.
pub fn fire(vm: &mut Vm, id: u64) -> JsResult<bool> {
    if vm.timers.iter().any(|t| t.id == id && t.interval.is_none()) {
        set_unref(vm, id, false);
    }
    vm.run_timer(id)
}

// ---- Globals

/// `setTimeout(callback, delay, ...args)`.
fn set_timeout(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    schedule(vm, args, Kind::Timeout)
}

/// `setInterval(callback, delay, ...args)`.
fn set_interval(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    schedule(vm, args, Kind::Interval)
}

/// `setImmediate(callback, ...args)`.
fn set_immediate(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    schedule(vm, args, Kind::Immediate)
}

/// `clearTimeout(timer)` / `clearInterval(timer)`: either clears any timer (as in Node).
fn clear_timeout(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    vm.refuse_in_pure_step("clearTimeout")?;
    if let Some(id) = timer_id(vm, args.first().copied().unwrap_or(Value::UNDEFINED))? {
        remove(vm, id, |t| !t.immediate);
    }
    Ok(Value::UNDEFINED)
}

/// `clearImmediate(immediate)`.
fn clear_immediate(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    vm.refuse_in_pure_step("clearImmediate")?;
    if let Some(id) = timer_id(vm, args.first().copied().unwrap_or(Value::UNDEFINED))? {
        remove(vm, id, |t| t.immediate);
    }
    Ok(Value::UNDEFINED)
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Timeout,
    Interval,
    Immediate,
}

fn schedule(vm: &mut Vm, args: &[Value], kind: Kind) -> JsResult<Value> {
    // A live step's timers would not exist on replay, which skips the step.
    vm.refuse_in_pure_step(match kind {
        Kind::Timeout => "setTimeout",
        Kind::Interval => "setInterval",
        Kind::Immediate => "setImmediate",
    })?;
    let callback = args.first().copied().unwrap_or(Value::UNDEFINED);
    if !is_callable(vm, callback) {
        let shown = describe(vm, callback, Shown::Callee);
        return Err(vm.type_error(format!("The \"callback\" argument must be of type function. Received {shown}")));
    }
    let (delay, rest) = match kind {
        Kind::Immediate => (0.0, args.get(1..).unwrap_or(&[])),
        _ => {
            let after = match args.get(1) {
                Some(&v) => to_number(vm, v)?,
                None => 1.0,
            };
            // Node: `if (!(after >= 1 && after <= TIMEOUT_MAX)) after = 1`.
            let after = if (1.0..=TIMEOUT_MAX).contains(&after) { after } else { 1.0 };
            (after, args.get(2..).unwrap_or(&[]))
        }
    };
    let id = vm.next_timer_id;
    vm.next_timer_id += 1;
    let caps = vm.native_captures();
    let proto_slot = if kind == Kind::Immediate { CAP_IMMEDIATE_PROTO } else { CAP_TIMEOUT_PROTO };
    let proto = caps.get(proto_slot).and_then(|v| v.as_object()).unwrap_or(vm.realm.object_prototype);
    let handle = vm.heap.new_plain(Some(proto));
    for (slot, value) in [(CAP_ID_SYMBOL, id as f64), (CAP_DELAY_SYMBOL, delay)] {
        if let Some(symbol) = caps.get(slot).and_then(|v| v.as_symbol()) {
            vm.define_builtin(handle, PropertyKey::Symbol(symbol), Value::number(value), PropFlags::NONE);
        }
    }
    // Node calls the callback with the handle as `this` (`this.unref()`, `clearInterval(this)`).
    vm.timers.push(Timer {
        id,
        due: vm.clock_ms + delay,
        callback,
        this: Value::object(handle),
        args: rest.to_vec(),
        interval: (kind == Kind::Interval).then_some(delay),
        immediate: kind == Kind::Immediate,
    });
    Ok(Value::object(handle))
}

/// The timer id a clear function or method was given: a handle's private id, or a number
/// (or numeric string). Anything else names no timer.
fn timer_id(vm: &mut Vm, v: Value) -> JsResult<Option<u64>> {
    let n = if let Some(o) = v.as_object() {
        let caps = vm.native_captures();
        let Some(symbol) = caps.get(CAP_ID_SYMBOL).and_then(|s| s.as_symbol()) else { return Ok(None) };
        match get(vm, o, PropertyKey::Symbol(symbol), v)?.as_number() {
            Some(n) => n,
            None => return Ok(None),
        }
    } else if v.is_number() || v.is_string() {
        to_number(vm, v)?
    } else {
        return Ok(None);
    };
    Ok((n.is_finite() && n >= 1.0 && n.fract() == 0.0).then_some(n as u64))
}

fn remove(vm: &mut Vm, id: u64, matches: impl Fn(&Timer) -> bool) {
    vm.timers.retain(|t| t.id != id || !matches(t));
    if !vm.timers.iter().any(|t| t.id == id) {
        set_unref(vm, id, false);
    }
}

// ---- Timeout.prototype / Immediate.prototype

fn timer_ref(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    if let Some(id) = timer_id(vm, this)? {
        set_unref(vm, id, false);
    }
    Ok(this)
}

fn timer_unref(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    if let Some(id) = timer_id(vm, this)? {
        if vm.timers.iter().any(|t| t.id == id) {
            set_unref(vm, id, true);
        }
    }
    Ok(this)
}

fn timer_has_ref(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let id = timer_id(vm, this)?;
    Ok(Value::bool(id.is_none_or(|id| !unref_ids(vm).contains(&id))))
}

/// `refresh()`: restart the timer's delay from now (Node keeps the same id).
fn timer_refresh(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let (Some(id), Some(o)) = (timer_id(vm, this)?, this.as_object()) else { return Ok(this) };
    let caps = vm.native_captures();
    let Some(symbol) = caps.get(CAP_DELAY_SYMBOL).and_then(|s| s.as_symbol()) else { return Ok(this) };
    let Some(delay) = get(vm, o, PropertyKey::Symbol(symbol), this)?.as_number() else { return Ok(this) };
    let now = vm.clock_ms;
    if let Some(t) = vm.timers.iter_mut().find(|t| t.id == id && !t.immediate) {
        t.due = now + delay;
    }
    Ok(this)
}

fn timer_close(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    if let Some(id) = timer_id(vm, this)? {
        remove(vm, id, |_| true);
    }
    Ok(this)
}

fn timer_to_primitive(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(match timer_id(vm, this)? {
        Some(id) => Value::number(id as f64),
        None => Value::number(f64::NAN),
    })
}

// ---- The unref set in host state

fn unref_ids(vm: &Vm) -> Vec<u64> {
    vm.host_state
        .get(UNREF_KEY)
        .map(|bytes| {
            bytes.chunks_exact(8).filter_map(|c| <[u8; 8]>::try_from(c).ok()).map(u64::from_le_bytes).collect()
        })
        .unwrap_or_default()
}

fn set_unref(vm: &mut Vm, id: u64, unref: bool) {
    let mut ids = unref_ids(vm);
    let present = ids.contains(&id);
    if present == unref {
        return;
    }
    if unref {
        ids.push(id);
    } else {
        ids.retain(|&i| i != id);
    }
    let bytes: Vec<u8> = ids.iter().flat_map(|i| i.to_le_bytes()).collect();
    vm.host_state.set(UNREF_KEY, bytes);
}
