//! The Promise combinators (ECMA-262 §27.2.4.1-3, §27.2.4.5): `Promise.all`, `allSettled`,
//! `any`, `race`, their element functions, and the keyed variants of the await-dictionary
//! proposal (`Promise.allKeyed`, `allSettledKeyed`):
//! https://tc39.es/ecma262/#sec-promise.all, https://tc39.es/proposal-await-dictionary/
//!
//! Element functions keep [[AlreadyCalled]], [[Index]], [[Values]], [[Capability]] and
//! [[RemainingElements]] in their captures; the values list and the count are shared
//! `Class::Internal` records.

use super::{
    capture_object, if_abrupt_reject_promise, new_promise_capability, new_record, record_get, record_set, Capability,
};
use crate::atoms::{atom, PropertyKey};
use crate::builtins::arg;
use crate::builtins::make_internal;
use crate::error::{ErrorKind, JsResult, Throw};
use crate::heap::object::Class;
use crate::heap::shape::PropFlags;
use crate::runtime::call::{call, invoke, is_callable};
use crate::runtime::convert::{key_to_value, to_property_key};
use crate::runtime::iterator::{get_iterator_rooted, iterator_close, iterator_step_value, IteratorRecord};
use crate::runtime::property::{create_data_property_or_throw, get, get_own_property, own_property_keys};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// Which combinator a shared loop runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Combinator {
    All,
    AllSettled,
    Any,
    Race,
}

/// ### 27.2.4.1 Promise.all ( iterable )
/// https://tc39.es/ecma262/#sec-promise.all
pub(super) fn all(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    combinator(vm, this, arg(args, 0), Combinator::All)
}

/// ### 27.2.4.2 Promise.allSettled ( iterable )
/// https://tc39.es/ecma262/#sec-promise.allsettled
pub(super) fn all_settled(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    combinator(vm, this, arg(args, 0), Combinator::AllSettled)
}

/// ### 27.2.4.3 Promise.any ( iterable )
/// https://tc39.es/ecma262/#sec-promise.any
pub(super) fn any(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    combinator(vm, this, arg(args, 0), Combinator::Any)
}

/// ### 27.2.4.5 Promise.race ( iterable )
/// https://tc39.es/ecma262/#sec-promise.race
pub(super) fn race(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    combinator(vm, this, arg(args, 0), Combinator::Race)
}

/// The shared outer steps of Promise.all / allSettled / any / race.
fn combinator(vm: &mut Vm, c: Value, iterable: Value, kind: Combinator) -> JsResult<Value> {
    // 1. Let C be the this value.
    if !c.is_object() {
        let name = match kind {
            Combinator::All => "Promise.all",
            Combinator::AllSettled => "Promise.allSettled",
            Combinator::Any => "Promise.any",
            Combinator::Race => "Promise.race",
        };
        return Err(vm.type_error(format!("{name} called on non-object")));
    }
    // 2. Let promiseCapability be ? NewPromiseCapability(C).
    let cap = new_promise_capability(vm, c)?;
    // 3. Let promiseResolve be Completion(GetPromiseResolve(C)).
    // 4. IfAbruptRejectPromise(promiseResolve, promiseCapability).
    let promise_resolve = match get_promise_resolve(vm, c) {
        Ok(f) => f,
        Err(e) => return if_abrupt_reject_promise(vm, Err(e), cap),
    };
    vm.roots.push(promise_resolve);
    // 5. Let iteratorRecord be Completion(GetIterator(iterable, sync)).
    // 6. IfAbruptRejectPromise(iteratorRecord, promiseCapability).
    let mut record = match get_iterator_rooted(vm, iterable) {
        Ok(r) => r,
        Err(e) => return if_abrupt_reject_promise(vm, Err(e), cap),
    };
    // 7. Let result be Completion(PerformPromiseAll(iteratorRecord, C, promiseCapability, promiseResolve)).
    let result = perform_combinator(vm, &mut record, c, cap, promise_resolve, kind);
    // 8. If result is an abrupt completion, then
    if result.is_err() {
        // a. If iteratorRecord.[[Done]] is false, set result to Completion(IteratorClose(iteratorRecord, result)).
        let result = if record.done { result } else { iterator_close(vm, &record, result) };
        // b. IfAbruptRejectPromise(result, promiseCapability).
        return if_abrupt_reject_promise(vm, result, cap);
    }
    // 9. Return ? result.
    result
}

/// ### 27.2.4.1.1 GetPromiseResolve ( promiseConstructor )
/// https://tc39.es/ecma262/#sec-getpromiseresolve
fn get_promise_resolve(vm: &mut Vm, c: Value) -> JsResult<Value> {
    // 1. Let promiseResolve be ? Get(promiseConstructor, "resolve").
    let promise_resolve = crate::runtime::property::get_v(vm, c, PropertyKey::Atom(atom::resolve))?;
    // 2. If IsCallable(promiseResolve) is false, throw a TypeError exception.
    if !is_callable(vm, promise_resolve) {
        return Err(vm.type_error("Promise resolve or reject function is not callable"));
    }
    // 3. Return promiseResolve.
    Ok(promise_resolve)
}

/// PerformPromiseAll (§27.2.4.1.2), PerformPromiseAllSettled (§27.2.4.2.1),
/// PerformPromiseAny (§27.2.4.3.1) and PerformPromiseRace (§27.2.4.5.1).
fn perform_combinator(
    vm: &mut Vm,
    record: &mut IteratorRecord,
    constructor: Value,
    cap: Capability,
    promise_resolve: Value,
    kind: Combinator,
) -> JsResult<Value> {
    // 1. Let values (errors for any) be a new empty List.
    let values = new_record(vm, Vec::new());
    // 2. Let remainingElementsCount be the Record { [[Value]]: 1 }.
    let remaining = new_record(vm, vec![Value::int(1)]);
    vm.roots.extend([Value::object(values), Value::object(remaining)]);
    // 3. Let index be 0.
    let mut index: u32 = 0;
    let mark = vm.roots.len();
    // 4. Repeat,
    loop {
        vm.roots.truncate(mark);
        // a. Let next be ? IteratorStepValue(iteratorRecord).
        let next = iterator_step_value(vm, record)?;
        // b. If next is done, then
        let Some(next) = next else {
            // (race) i. Return resultCapability.[[Promise]].
            if kind == Combinator::Race {
                return Ok(cap.promise);
            }
            // i. Set remainingElementsCount.[[Value]] to remainingElementsCount.[[Value]] - 1.
            // ii. If remainingElementsCount.[[Value]] = 0, then
            if decrement(vm, remaining) {
                let list = take_record(vm, values);
                vm.charge(list.len() as u64)?;
                // 1. Let valuesArray be CreateArrayFromList(values).
                let array = vm.new_array(list);
                if kind == Combinator::Any {
                    // (any) 1-3. Let error be a new AggregateError with "errors"; return
                    //       ThrowCompletion(error).
                    let error = aggregate_error(vm, array);
                    return Err(Throw::Value(error));
                }
                // 2. Perform ? Call(resultCapability.[[Resolve]], undefined, « valuesArray »).
                vm.roots.push(array);
                call(vm, cap.resolve, Value::UNDEFINED, &[array])?;
            }
            // iii. Return resultCapability.[[Promise]].
            return Ok(cap.promise);
        };
        vm.roots.push(next);
        // c. Append undefined to values.
        if kind != Combinator::Race {
            if let Class::Internal(list) = &mut vm.heap.obj_mut(values).class {
                list.push(Value::UNDEFINED);
            }
            vm.check_heap()?;
        }
        // d. Let nextPromise be ? Call(promiseResolve, constructor, « next »).
        let next_promise = call(vm, promise_resolve, constructor, &[next])?;
        vm.roots.push(next_promise);
        let shared = vec![Value::FALSE, Value::number(f64::from(index)), Value::object(values)];
        let (on_fulfilled, on_rejected) = match kind {
            // (race) e. Perform ? Invoke(nextPromise, "then", « resultCapability.[[Resolve]],
            //        resultCapability.[[Reject]] »).
            Combinator::Race => (cap.resolve, cap.reject),
            // (all) e-k. Let onFulfilled be CreateBuiltinFunction(Promise.all Resolve Element
            //       Functions, 1, "", …) with [[AlreadyCalled]] false, [[Index]] index,
            //       [[Values]] values, [[Capability]] and [[RemainingElements]].
            Combinator::All => {
                let mut captures = shared;
                captures.extend([cap.resolve, Value::object(remaining)]);
                let f = make_internal(vm, "%Promise.all.resolveElement", 1, captures);
                (Value::object(f), cap.reject)
            }
            // (allSettled) e-q. onFulfilled and onRejected share one alreadyCalled record.
            Combinator::AllSettled => {
                let already_called = Value::object(new_record(vm, vec![Value::FALSE]));
                let mut captures = shared;
                captures[0] = already_called;
                captures.extend([cap.resolve, Value::object(remaining)]);
                let f = make_internal(vm, "%Promise.allSettled.resolveElement", 1, captures.clone());
                let r = make_internal(vm, "%Promise.allSettled.rejectElement", 1, captures);
                (Value::object(f), Value::object(r))
            }
            // (any) e-k. Let onRejected be CreateBuiltinFunction(Promise.any Reject Element
            //       Functions, 1, "", …) over errors.
            Combinator::Any => {
                let mut captures = shared;
                captures.extend([cap.reject, Value::object(remaining)]);
                let r = make_internal(vm, "%Promise.any.rejectElement", 1, captures);
                (cap.resolve, Value::object(r))
            }
        };
        vm.roots.extend([on_fulfilled, on_rejected]);
        // l. Set remainingElementsCount.[[Value]] to remainingElementsCount.[[Value]] + 1.
        if kind != Combinator::Race {
            let n = record_get(vm, remaining, 0).as_number().unwrap_or(0.0);
            record_set(vm, remaining, 0, Value::number(n + 1.0));
        }
        // m. Perform ? Invoke(nextPromise, "then", « onFulfilled, onRejected »).
        invoke(vm, next_promise, PropertyKey::Atom(atom::then), &[on_fulfilled, on_rejected])?;
        // n. Set index to index + 1.
        index = index.checked_add(1).ok_or_else(|| vm.range_error("Too many promises"))?;
    }
}

/// remainingElementsCount.[[Value]] -= 1; returns whether it reached 0.
fn decrement(vm: &mut Vm, remaining: ObjectId) -> bool {
    let n = record_get(vm, remaining, 0).as_number().unwrap_or(0.0) - 1.0;
    record_set(vm, remaining, 0, Value::number(n));
    n == 0.0
}

/// The contents of a values/errors list record.
fn take_record(vm: &Vm, record: ObjectId) -> Vec<Value> {
    match &vm.heap.obj(record).class {
        Class::Internal(list) => list.clone(),
        _ => Vec::new(),
    }
}

/// A new AggregateError whose "errors" is `errors` (Promise.any's rejection).
fn aggregate_error(vm: &mut Vm, errors: Value) -> Value {
    // 1. Let error be a newly created AggregateError object.
    let error = vm.make_error(ErrorKind::AggregateError, "All promises were rejected");
    // 2. Perform ! DefinePropertyOrThrow(error, "errors", PropertyDescriptor { [[Configurable]]:
    //    true, [[Enumerable]]: false, [[Writable]]: true, [[Value]]: errors }).
    if let Some(e) = error.as_object() {
        vm.define_builtin(e, PropertyKey::Atom(atom::errors), errors, PropFlags::HIDDEN);
    }
    error
}

/// Mark the running element function as called; returns whether it already was
/// ([[AlreadyCalled]] in capture 0, either a boolean of its own or a shared record).
fn already_called(vm: &mut Vm) -> bool {
    let Some(callee) = vm.native_ctx.callee else {
        return true;
    };
    let flag = match &vm.heap.obj(callee).class {
        Class::Native(n) => n.captures.first().copied().unwrap_or(Value::TRUE),
        _ => return true,
    };
    if let Some(record) = flag.as_object() {
        // A shared { [[Value]] } record (allSettled).
        if record_get(vm, record, 0) == Value::TRUE {
            return true;
        }
        record_set(vm, record, 0, Value::TRUE);
        return false;
    }
    if flag == Value::TRUE {
        return true;
    }
    if let Class::Native(n) = &mut vm.heap.obj_mut(callee).class {
        if let Some(c) = n.captures.first_mut() {
            *c = Value::TRUE;
        }
    }
    false
}

/// The shared body of the element functions: store `x` at [[Index]] of [[Values]], count
/// down [[RemainingElements]], and when it reaches 0 settle the capability with the array
/// (resolve), an AggregateError of it (`aggregate`, Promise.any), or, for the keyed
/// combinators, CreateKeyedPromiseCombinatorResultObject(keys, values).
/// Captures: [alreadyCalled, index, values, resolve-or-reject, remaining, keys?].
fn element_done(vm: &mut Vm, x: Value, aggregate: bool) -> JsResult<Value> {
    let captures = vm.native_captures();
    let index = captures.get(1).and_then(|v| v.as_number()).unwrap_or(0.0) as usize;
    let (Some(values), Some(settle_fn), Some(remaining)) =
        (capture_object(&captures, 2), captures.get(3).copied(), capture_object(&captures, 4))
    else {
        return Ok(Value::UNDEFINED);
    };
    // Set values[index] to x.
    if let Class::Internal(list) = &mut vm.heap.obj_mut(values).class {
        if let Some(slot) = list.get_mut(index) {
            *slot = x;
        }
    }
    // Set remainingElementsCount.[[Value]] to remainingElementsCount.[[Value]] - 1.
    // If remainingElementsCount.[[Value]] = 0, then
    if decrement(vm, remaining) {
        let list = take_record(vm, values);
        vm.charge(list.len() as u64)?;
        let result = if let Some(keys) = capture_object(&captures, 5) {
            // (keyed) Let result be CreateKeyedPromiseCombinatorResultObject(keys, values).
            create_keyed_result_object(vm, keys, list)?
        } else {
            // Let valuesArray be CreateArrayFromList(values).
            let array = vm.new_array(list);
            if aggregate {
                aggregate_error(vm, array)
            } else {
                array
            }
        };
        // Return ? Call(promiseCapability.[[Resolve]] (or [[Reject]]), undefined, « valuesArray »).
        vm.roots.extend([settle_fn, result]);
        return call(vm, settle_fn, Value::UNDEFINED, &[result]);
    }
    // Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 27.2.4.1.3 Promise.all Resolve Element Functions
/// https://tc39.es/ecma262/#sec-promise.all-resolve-element-functions
pub(super) fn all_resolve_element(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. If F.[[AlreadyCalled]] is true, return undefined; set it to true.
    if already_called(vm) {
        return Ok(Value::UNDEFINED);
    }
    // 4-11.
    element_done(vm, arg(args, 0), false)
}

/// ### 27.2.4.2.2 Promise.allSettled Resolve Element Functions
/// https://tc39.es/ecma262/#sec-promise.allsettled-resolve-element-functions
pub(super) fn all_settled_resolve_element(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    settled_element(vm, arg(args, 0), true)
}

/// ### 27.2.4.2.3 Promise.allSettled Reject Element Functions
/// https://tc39.es/ecma262/#sec-promise.allsettled-reject-element-functions
pub(super) fn all_settled_reject_element(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    settled_element(vm, arg(args, 0), false)
}

fn settled_element(vm: &mut Vm, x: Value, fulfilled: bool) -> JsResult<Value> {
    // 1-4. Let alreadyCalled be F.[[AlreadyCalled]]; if alreadyCalled.[[Value]] is true,
    //      return undefined; set it to true.
    if already_called(vm) {
        return Ok(Value::UNDEFINED);
    }
    // 9. Let obj be OrdinaryObjectCreate(%Object.prototype%).
    let obj = vm.new_object();
    if let Some(o) = obj.as_object() {
        let (status, key) = if fulfilled { ("fulfilled", atom::value) } else { ("rejected", atom::reason) };
        // 10. Perform ! CreateDataPropertyOrThrow(obj, "status", "fulfilled" / "rejected").
        let status = vm.str(status);
        vm.define_builtin(o, PropertyKey::Atom(atom::status), status, PropFlags::DEFAULT);
        // 11. Perform ! CreateDataPropertyOrThrow(obj, "value" / "reason", x).
        vm.define_builtin(o, PropertyKey::Atom(key), x, PropFlags::DEFAULT);
    }
    // 12-15. Set values[index] to obj; count down; resolve with the array at 0.
    element_done(vm, obj, false)
}

/// ### 27.2.4.3.2 Promise.any Reject Element Functions
/// https://tc39.es/ecma262/#sec-promise.any-reject-element-functions
pub(super) fn any_reject_element(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. If F.[[AlreadyCalled]] is true, return undefined; set it to true.
    if already_called(vm) {
        return Ok(Value::UNDEFINED);
    }
    // 4-10. Set errors[index] to x; count down; at 0 reject with an AggregateError.
    element_done(vm, arg(args, 0), true)
}

/// ### Promise.allKeyed ( promises )
/// https://tc39.es/proposal-await-dictionary/#sec-promise.allkeyed
pub(super) fn all_keyed(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    keyed_combinator(vm, this, arg(args, 0), false)
}

/// ### Promise.allSettledKeyed ( promises )
/// https://tc39.es/proposal-await-dictionary/#sec-promise.allsettledkeyed
pub(super) fn all_settled_keyed(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    keyed_combinator(vm, this, arg(args, 0), true)
}

/// The shared outer steps of Promise.allKeyed / allSettledKeyed.
fn keyed_combinator(vm: &mut Vm, c: Value, promises: Value, settled: bool) -> JsResult<Value> {
    // 1. Let C be the this value.
    // 2. Let promiseCapability be ? NewPromiseCapability(C).
    let cap = new_promise_capability(vm, c)?;
    // 3. Let promiseResolve be Completion(GetPromiseResolve(C)).
    // 4. IfAbruptRejectPromise(promiseResolve, promiseCapability).
    let promise_resolve = match get_promise_resolve(vm, c) {
        Ok(f) => f,
        Err(e) => return if_abrupt_reject_promise(vm, Err(e), cap),
    };
    vm.roots.push(promise_resolve);
    // 5. If promises is not an Object, then
    let Some(promises_obj) = promises.as_object() else {
        // a. Let error be a newly created TypeError object.
        let name = if settled { "Promise.allSettledKeyed" } else { "Promise.allKeyed" };
        let error = vm.make_error(ErrorKind::TypeError, &format!("{name} argument must be an object"));
        // b. Perform ? Call(promiseCapability.[[Reject]], undefined, « error »).
        vm.roots.push(error);
        call(vm, cap.reject, Value::UNDEFINED, &[error])?;
        // c. Return promiseCapability.[[Promise]].
        return Ok(cap.promise);
    };
    // 6. Let result be Completion(PerformPromiseAllKeyed(variant, promises, C, promiseCapability, promiseResolve)).
    let result = perform_keyed(vm, promises_obj, c, cap, promise_resolve, settled);
    // 7. IfAbruptRejectPromise(result, promiseCapability).
    if_abrupt_reject_promise(vm, result, cap)?;
    // 8. Return promiseCapability.[[Promise]].
    Ok(cap.promise)
}

/// PerformPromiseAllKeyed ( variant, promises, constructor, resultCapability, promiseResolve )
/// https://tc39.es/proposal-await-dictionary/#sec-performpromiseallkeyed
fn perform_keyed(
    vm: &mut Vm,
    promises: ObjectId,
    constructor: Value,
    cap: Capability,
    promise_resolve: Value,
    settled: bool,
) -> JsResult<Value> {
    // 1. Let allKeys be ? promises.[[OwnPropertyKeys]]().
    let all_keys = own_property_keys(vm, promises)?;
    vm.charge(all_keys.len() as u64)?;
    // The keys stay reachable even if a getter deletes their properties.
    for &key in &all_keys {
        let k = key_to_value(vm, key);
        vm.roots.push(k);
    }
    // 2. Let keys be a new empty List. 3. Let values be a new empty List.
    let keys = new_record(vm, Vec::new());
    let values = new_record(vm, Vec::new());
    // 4. Let remainingElementsCount be the Record { [[Value]]: 1 }.
    let remaining = new_record(vm, vec![Value::int(1)]);
    vm.roots.extend([Value::object(keys), Value::object(values), Value::object(remaining)]);
    // 5. Let index be 0.
    let mut index: u32 = 0;
    let mark = vm.roots.len();
    // 6. For each element key of allKeys, do
    for key in all_keys {
        vm.roots.truncate(mark);
        // a. Let desc be ? promises.[[GetOwnProperty]](key).
        let desc = get_own_property(vm, promises, key)?;
        // b. If desc is not undefined and desc.[[Enumerable]] is true, then
        if desc.is_none_or(|d| d.enumerable != Some(true)) {
            continue;
        }
        // i. Let value be ? Get(promises, key).
        let value = get(vm, promises, key, Value::object(promises))?;
        vm.roots.push(value);
        // ii. Append key to keys. iii. Append undefined to values.
        let key_value = key_to_value(vm, key);
        for (record, v) in [(keys, key_value), (values, Value::UNDEFINED)] {
            if let Class::Internal(list) = &mut vm.heap.obj_mut(record).class {
                list.push(v);
            }
        }
        vm.check_heap()?;
        // iv. Let nextPromise be ? Call(promiseResolve, constructor, « value »).
        let next_promise = call(vm, promise_resolve, constructor, &[value])?;
        vm.roots.push(next_promise);
        // v-vi. Let onFulfilled (and, for all-settled, onRejected) be element functions with
        //       [[AlreadyCalled]], [[Index]], [[Keys]], [[Values]], [[Capability]] and
        //       [[RemainingElements]].
        let mut captures = vec![
            Value::FALSE,
            Value::number(f64::from(index)),
            Value::object(values),
            cap.resolve,
            Value::object(remaining),
            Value::object(keys),
        ];
        let (on_fulfilled, on_rejected) = if settled {
            captures[0] = Value::object(new_record(vm, vec![Value::FALSE]));
            let f = make_internal(vm, "%Promise.allSettled.resolveElement", 1, captures.clone());
            let r = make_internal(vm, "%Promise.allSettled.rejectElement", 1, captures);
            (Value::object(f), Value::object(r))
        } else {
            let f = make_internal(vm, "%Promise.all.resolveElement", 1, captures);
            (Value::object(f), cap.reject)
        };
        vm.roots.extend([on_fulfilled, on_rejected]);
        // vii. Set remainingElementsCount.[[Value]] to remainingElementsCount.[[Value]] + 1.
        let n = record_get(vm, remaining, 0).as_number().unwrap_or(0.0);
        record_set(vm, remaining, 0, Value::number(n + 1.0));
        // viii. Perform ? Invoke(nextPromise, "then", « onFulfilled, onRejected »).
        invoke(vm, next_promise, PropertyKey::Atom(atom::then), &[on_fulfilled, on_rejected])?;
        // ix. Set index to index + 1.
        index = index.checked_add(1).ok_or_else(|| vm.range_error("Too many promises"))?;
    }
    // 7. Set remainingElementsCount.[[Value]] to remainingElementsCount.[[Value]] - 1.
    // 8. If remainingElementsCount.[[Value]] = 0, then
    if decrement(vm, remaining) {
        // a. Let result be CreateKeyedPromiseCombinatorResultObject(keys, values).
        let list = take_record(vm, values);
        let result = create_keyed_result_object(vm, keys, list)?;
        // b. Perform ? Call(resultCapability.[[Resolve]], undefined, « result »).
        vm.roots.push(result);
        call(vm, cap.resolve, Value::UNDEFINED, &[result])?;
    }
    // 9. Return resultCapability.[[Promise]].
    Ok(cap.promise)
}

/// CreateKeyedPromiseCombinatorResultObject ( keys, values )
/// https://tc39.es/proposal-await-dictionary/#sec-createkeyedpromisecombinatorresultobject
fn create_keyed_result_object(vm: &mut Vm, keys: ObjectId, values: Vec<Value>) -> JsResult<Value> {
    let keys = take_record(vm, keys);
    // 1. Let obj be OrdinaryObjectCreate(null).
    let obj = vm.heap.new_plain(None);
    // 2. For each integer i such that 0 ≤ i < the number of elements in keys, do
    for (key, value) in keys.into_iter().zip(values) {
        // a. Perform ! CreateDataPropertyOrThrow(obj, keys[i], values[i]).
        let key = to_property_key(vm, key)?;
        create_data_property_or_throw(vm, obj, key, value)?;
    }
    // 3. Return obj.
    Ok(Value::object(obj))
}
