//! Iteration intrinsics (ECMA-262 §27.1): %IteratorPrototype%, %AsyncIteratorPrototype%,
//! and %AsyncFromSyncIteratorPrototype%.

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, make_internal, NativeDef};
use crate::error::{JsResult, Throw};
use crate::heap::object::Class;
use crate::native;
use crate::runtime::call::call;
use crate::runtime::property::{get, get_method};
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("%IteratorPrototype%[Symbol.iterator]", 0, return_this),
    native!("%AsyncIteratorPrototype%[Symbol.asyncIterator]", 0, return_this),
    native!("%AsyncFromSyncIteratorPrototype%.next", 1, afs_next),
    native!("%AsyncFromSyncIteratorPrototype%.return", 1, afs_return),
    native!("%AsyncFromSyncIteratorPrototype%.throw", 1, afs_throw),
    native!("%AsyncFromSyncIterator.unwrap", 1, afs_unwrap),
    native!("%AsyncFromSyncIterator.closeAndRethrow", 1, afs_close_and_rethrow),
];

pub(crate) fn init(vm: &mut Vm) {
    let ip = vm.realm.iterator_prototype;
    install(vm, ip, "%IteratorPrototype%", NATIVES);
    let aip = vm.realm.async_iterator_prototype;
    install(vm, aip, "%AsyncIteratorPrototype%", NATIVES);
    let afs = vm.realm.async_from_sync_iterator_prototype;
    install(vm, afs, "%AsyncFromSyncIteratorPrototype%", NATIVES);
}

fn return_this(_vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(this)
}

/// The sync iterator and its next method held by an async-from-sync iterator.
fn sync_record(vm: &Vm, this: Value) -> Option<(Value, Value)> {
    match this.as_object().map(|o| &vm.heap.obj(o).class) {
        Some(Class::Internal(v)) if v.len() >= 2 => Some((v[0], v[1])),
        _ => None,
    }
}

/// AsyncFromSyncIteratorContinuation (§27.1.6.4): a promise for {value, done} that awaits
/// the value; closes the sync iterator if the value rejects (and `close_on_rejection`).
fn continuation(vm: &mut Vm, result: Value, sync_iter: Value, close_on_rejection: bool) -> JsResult<Value> {
    let promise = crate::builtins::promise::new_promise(vm);
    let r = (|| -> JsResult<()> {
        let Some(ro) = result.as_object() else {
            return Err(vm.type_error("iterator result is not an object"));
        };
        let done = get(vm, ro, PropertyKey::Atom(atom::done), result)?;
        let done = crate::runtime::convert::to_boolean(vm, done);
        let value = get(vm, ro, PropertyKey::Atom(atom::value), result)?;
        let value_wrapper = match crate::builtins::promise::promise_resolve(vm, value) {
            Ok(p) => p,
            Err(Throw::Value(e)) => {
                if !done && close_on_rejection {
                    crate::interp::ops::iterator_close_quiet(vm, sync_iter)?;
                }
                return Err(Throw::Value(e));
            }
            Err(t) => return Err(t),
        };
        let unwrap = make_internal(vm, "%AsyncFromSyncIterator.unwrap", 1, vec![Value::bool(done), Value::object(promise)]);
        let on_rej = if done || !close_on_rejection {
            make_internal(vm, "%AsyncFromSyncIterator.closeAndRethrow", 1, vec![Value::UNDEFINED, Value::object(promise)])
        } else {
            make_internal(vm, "%AsyncFromSyncIterator.closeAndRethrow", 1, vec![sync_iter, Value::object(promise)])
        };
        crate::builtins::promise::perform_then_internal(vm, value_wrapper, Value::object(unwrap), Value::object(on_rej));
        Ok(())
    })();
    match r {
        Ok(()) => Ok(Value::object(promise)),
        Err(Throw::Value(e)) => {
            crate::builtins::promise::reject_promise(vm, promise, e);
            Ok(Value::object(promise))
        }
        Err(t) => Err(t),
    }
}

fn afs_unwrap(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let caps = vm.native_captures();
    let done = caps.first().copied().unwrap_or(Value::FALSE) == Value::TRUE;
    let r = crate::interp::generator::iter_result(vm, arg(args, 0), done);
    if let Some(p) = caps.get(1).and_then(|v| v.as_object()) {
        crate::builtins::promise::resolve_promise(vm, p, r)?;
    }
    Ok(Value::UNDEFINED)
}

fn afs_close_and_rethrow(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let caps = vm.native_captures();
    let sync_iter = caps.first().copied().unwrap_or_default();
    if sync_iter.is_object() {
        crate::interp::ops::iterator_close_quiet(vm, sync_iter)?;
    }
    if let Some(p) = caps.get(1).and_then(|v| v.as_object()) {
        crate::builtins::promise::reject_promise(vm, p, arg(args, 0));
    }
    Ok(Value::UNDEFINED)
}

fn rejected(vm: &mut Vm, e: Value) -> Value {
    let p = crate::builtins::promise::new_promise(vm);
    crate::builtins::promise::reject_promise(vm, p, e);
    Value::object(p)
}

fn afs_next(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let Some((it, next)) = sync_record(vm, this) else { return Err(vm.type_error("not an async-from-sync iterator")) };
    let r = if args.is_empty() { call(vm, next, it, &[]) } else { call(vm, next, it, &[args[0]]) };
    match r {
        Ok(result) => continuation(vm, result, it, true),
        Err(Throw::Value(e)) => Ok(rejected(vm, e)),
        Err(t) => Err(t),
    }
}

fn afs_return(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let Some((it, _)) = sync_record(vm, this) else { return Err(vm.type_error("not an async-from-sync iterator")) };
    let m = match get_method(vm, it, PropertyKey::Atom(atom::return_)) {
        Ok(m) => m,
        Err(Throw::Value(e)) => return Ok(rejected(vm, e)),
        Err(t) => return Err(t),
    };
    let Some(m) = m else {
        let r = crate::interp::generator::iter_result(vm, arg(args, 0), true);
        let p = crate::builtins::promise::new_promise(vm);
        crate::builtins::promise::resolve_promise(vm, p, r)?;
        return Ok(Value::object(p));
    };
    let r = if args.is_empty() { call(vm, m, it, &[]) } else { call(vm, m, it, &[args[0]]) };
    match r {
        Ok(result) if !result.is_object() => {
            let e = vm.make_error(crate::error::ErrorKind::TypeError, "iterator result is not an object");
            Ok(rejected(vm, e))
        }
        Ok(result) => continuation(vm, result, it, false),
        Err(Throw::Value(e)) => Ok(rejected(vm, e)),
        Err(t) => Err(t),
    }
}

fn afs_throw(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let Some((it, _)) = sync_record(vm, this) else { return Err(vm.type_error("not an async-from-sync iterator")) };
    let m = match get_method(vm, it, PropertyKey::Atom(atom::throw_)) {
        Ok(m) => m,
        Err(Throw::Value(e)) => return Ok(rejected(vm, e)),
        Err(t) => return Err(t),
    };
    let Some(m) = m else {
        // No throw method: close the iterator, then reject with a TypeError.
        if let Err(Throw::Limit(l)) = crate::interp::ops::iterator_close(vm, it) {
            return Err(Throw::Limit(l));
        }
        let e = vm.make_error(crate::error::ErrorKind::TypeError, "The iterator does not provide a 'throw' method");
        return Ok(rejected(vm, e));
    };
    let r = if args.is_empty() { call(vm, m, it, &[]) } else { call(vm, m, it, &[args[0]]) };
    match r {
        Ok(result) if !result.is_object() => {
            let e = vm.make_error(crate::error::ErrorKind::TypeError, "iterator result is not an object");
            Ok(rejected(vm, e))
        }
        Ok(result) => continuation(vm, result, it, true),
        Err(Throw::Value(e)) => Ok(rejected(vm, e)),
        Err(t) => Err(t),
    }
}
