//! Array.fromAsync (ES2026, §23.1.2.2): https://tc39.es/proposal-array-from-async/
//!
//! The spec runs the body as a built-in async function. Here it is a state machine: each
//! `Await` subscribes two internal natives (`%ArrayFromAsync.fulfilled` / `.rejected`) that
//! capture the call's record and the point to resume at. All state lives in that record, an
//! `Class::Internal` object (slots below), so a pending call survives a snapshot.

use crate::atoms::{atom, PropertyKey};
use crate::builtins::array::array_create;
use crate::builtins::promise::{new_promise, perform_then_internal, promise_resolve, reject_promise, resolve_promise};
use crate::builtins::{arg, install, make_internal, NativeDef};
use crate::error::{JsResult, Throw};
use crate::heap::object::{Class, Object};
use crate::interp::generator::create_async_from_sync_iterator;
use crate::native;
use crate::runtime::call::{call, construct, is_callable, is_constructor};
use crate::runtime::convert::{to_boolean, to_object};
use crate::runtime::iterator::get_iterator_from_method;
use crate::runtime::property::{create_data_property_or_throw, get, get_method, length_of_array_like, set_or_throw};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Array.fromAsync", 1, from_async),
    native!("%ArrayFromAsync.fulfilled", 1, on_fulfilled),
    native!("%ArrayFromAsync.rejected", 1, on_rejected),
];

pub(crate) fn init(vm: &mut Vm) {
    let ctor = vm.realm.array_constructor;
    install(vm, ctor, "Array", NATIVES);
}

// The record's slots.
/// promiseCapability.[[Promise]].
const PROMISE: usize = 0;
/// A, the result.
const RESULT: usize = 1;
/// iteratorRecord.[[Iterator]] (undefined on the array-like path).
const ITERATOR: usize = 2;
/// iteratorRecord.[[NextMethod]].
const NEXT: usize = 3;
/// mapfn (undefined when not mapping).
const MAPFN: usize = 4;
const THIS_ARG: usize = 5;
/// k.
const K: usize = 6;
/// arrayLike (array-like path).
const ARRAY_LIKE: usize = 7;
/// len (array-like path).
const LEN: usize = 8;
/// The error AsyncIteratorClose rethrows once `return`'s result has been awaited.
const ERROR: usize = 9;
const SLOTS: usize = 10;

/// Where an Await resumes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Resume {
    /// Iterator path, step 3.j.ii.4: `Set nextResult to ? Await(nextResult)`.
    NextResult = 0,
    /// Iterator path, step 3.j.ii.6.c: `Set mappedValue to Await(mappedValue)`.
    IterMapped = 1,
    /// AsyncIteratorClose step 4.d: awaiting `return`'s result before rethrowing.
    Closed = 2,
    /// Array-like path, step 3.k.vii.3: `Set kValue to ? Await(kValue)`.
    ArrayLikeValue = 3,
    /// Array-like path, step 3.k.vii.4.b: `Set mappedValue to ? Await(mappedValue)`.
    ArrayLikeMapped = 4,
}

impl Resume {
    fn from_value(v: Value) -> Option<Resume> {
        Some(match v.as_int()? {
            0 => Resume::NextResult,
            1 => Resume::IterMapped,
            2 => Resume::Closed,
            3 => Resume::ArrayLikeValue,
            4 => Resume::ArrayLikeMapped,
            _ => return None,
        })
    }
}

/// How the closure left off.
enum Flow {
    /// Suspended at an Await.
    Awaiting,
    /// Returned A.
    Done(Value),
}

/// ### 23.1.2.2 Array.fromAsync ( asyncItems [ , mapper [ , thisArg ] ] )
/// https://tc39.es/proposal-array-from-async/#sec-array.fromAsync
fn from_async(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let async_items = arg(args, 0);
    // 1. Let C be the this value.
    let c = this;
    // 2. Let promiseCapability be ! NewPromiseCapability(%Promise%).
    let promise = new_promise(vm);
    let mut slots = vec![Value::UNDEFINED; SLOTS];
    slots[PROMISE] = Value::object(promise);
    slots[MAPFN] = arg(args, 1);
    slots[THIS_ARG] = arg(args, 2);
    slots[K] = Value::int(0);
    let record = vm.heap.alloc_object(Object::new(None, Class::Internal(slots)));
    vm.roots.push(Value::object(record));
    // 3. Let fromAsyncClosure be a new Abstract Closure … (start, then the Resume points).
    // 4. Perform AsyncFunctionStart(promiseCapability, fromAsyncClosure).
    let flow = start(vm, record, c, async_items);
    settle(vm, record, flow)?;
    // 5. Return promiseCapability.[[Promise]].
    Ok(Value::object(promise))
}

/// The end of a run of the closure: a return resolves the promise, a throw rejects it.
fn settle(vm: &mut Vm, record: ObjectId, flow: JsResult<Flow>) -> JsResult<()> {
    let Some(promise) = slot(vm, record, PROMISE).as_object() else { return Ok(()) };
    match flow {
        Ok(Flow::Awaiting) => Ok(()),
        Ok(Flow::Done(a)) => resolve_promise(vm, promise, a),
        Err(Throw::Value(e)) => {
            reject_promise(vm, promise, e);
            Ok(())
        }
        Err(limit) => Err(limit),
    }
}

fn slot(vm: &Vm, record: ObjectId, i: usize) -> Value {
    match &vm.heap.obj(record).class {
        Class::Internal(v) => v.get(i).copied().unwrap_or_default(),
        _ => Value::UNDEFINED,
    }
}

fn set_slot(vm: &mut Vm, record: ObjectId, i: usize, value: Value) {
    if let Class::Internal(v) = &mut vm.heap.obj_mut(record).class {
        if let Some(s) = v.get_mut(i) {
            *s = value;
        }
    }
}

fn k_of(vm: &Vm, record: ObjectId) -> f64 {
    slot(vm, record, K).as_number().unwrap_or(0.0)
}

/// ! ToString(𝔽(k)) as a property key.
fn index_key(vm: &mut Vm, k: f64) -> PropertyKey {
    if k < u32::MAX as f64 {
        PropertyKey::Index(k as u32)
    } else {
        vm.key(&crate::runtime::convert::number_to_string(k))
    }
}

/// Await(value): subscribe the record's continuation for `resume`. A throw from
/// PromiseResolve is the Await's own throw completion.
fn await_value(vm: &mut Vm, record: ObjectId, resume: Resume, value: Value) -> JsResult<Flow> {
    let p = promise_resolve(vm, value)?;
    let captures = vec![Value::object(record), Value::int(resume as i32)];
    let fulfilled = make_internal(vm, "%ArrayFromAsync.fulfilled", 1, captures.clone());
    let rejected = make_internal(vm, "%ArrayFromAsync.rejected", 1, captures);
    perform_then_internal(vm, p, Value::object(fulfilled), Value::object(rejected));
    Ok(Flow::Awaiting)
}

/// fromAsyncClosure steps a–k, up to the first Await.
fn start(vm: &mut Vm, record: ObjectId, c: Value, async_items: Value) -> JsResult<Flow> {
    let mapfn = slot(vm, record, MAPFN);
    // a. If mapper is undefined, let mapping be false.
    // b. Else,
    //    i. If IsCallable(mapper) is false, throw a TypeError exception.
    //    ii. Let mapping be true.
    if !mapfn.is_undefined() && !is_callable(vm, mapfn) {
        return Err(vm.type_error("Array.fromAsync: when provided, the second argument must be a function"));
    }
    // c. Let usingAsyncIterator be ? GetMethod(asyncItems, %Symbol.asyncIterator%).
    let using_async_iterator = get_method(vm, async_items, PropertyKey::Symbol(vm.symbols.asyncIterator))?;
    // d. If usingAsyncIterator is undefined, then
    //    i. Let usingSyncIterator be ? GetMethod(asyncItems, %Symbol.iterator%).
    let using_sync_iterator = match using_async_iterator {
        Some(_) => None,
        None => get_method(vm, async_items, PropertyKey::Symbol(vm.symbols.iterator))?,
    };
    // e. Let iteratorRecord be undefined.
    let iterator_record = if let Some(method) = using_async_iterator {
        // f. If usingAsyncIterator is not undefined, then
        //    i. Set iteratorRecord to ? GetIteratorFromMethod(asyncItems, usingAsyncIterator).
        Some(get_iterator_from_method(vm, async_items, method, "iterator")?)
    } else if let Some(method) = using_sync_iterator {
        // g. Else if usingSyncIterator is not undefined, then
        //    i. Set iteratorRecord to CreateAsyncFromSyncIterator(? GetIteratorFromMethod(asyncItems, usingSyncIterator)).
        let sync_record = get_iterator_from_method(vm, async_items, method, "iterator")?;
        Some(create_async_from_sync_iterator(vm, sync_record)?)
    } else {
        None
    };
    // h. If iteratorRecord is not undefined, then
    if let Some(iterator_record) = iterator_record {
        set_slot(vm, record, ITERATOR, iterator_record.iterator);
        set_slot(vm, record, NEXT, iterator_record.next_method);
        // i. If IsConstructor(C) is true, then
        //    1. Let A be ? Construct(C).
        // ii. Else,
        //    1. Let A be ! ArrayCreate(0).
        let a = if is_constructor(vm, c) { construct(vm, c, &[], None)? } else { Value::object(array_create(vm, 0)?) };
        set_slot(vm, record, RESULT, a);
        // iii. Let k be 0.
        // iv. Repeat, … (iterator_loop)
        return iterator_loop(vm, record);
    }
    // i. Else,
    //    i. NOTE: asyncItems is neither an AsyncIterable nor an Iterable so assume it is an array-like object.
    //    ii. Let arrayLike be ! ToObject(asyncItems).
    let array_like = to_object(vm, async_items)?;
    set_slot(vm, record, ARRAY_LIKE, Value::object(array_like));
    //    iii. Let len be ? LengthOfArrayLike(arrayLike).
    let len = length_of_array_like(vm, array_like)?;
    set_slot(vm, record, LEN, Value::number(len as f64));
    //    iv. If IsConstructor(C) is true, then
    //        1. Let A be ? Construct(C, « 𝔽(len) »).
    //    v. Else,
    //        1. Let A be ? ArrayCreate(len).
    let a = if is_constructor(vm, c) {
        construct(vm, c, &[Value::number(len as f64)], None)?
    } else {
        Value::object(array_create(vm, len)?)
    };
    set_slot(vm, record, RESULT, a);
    //    vi. Let k be 0.
    //    vii. Repeat, while k < len, … (array_like_loop)
    array_like_loop(vm, record)
}

/// Step h.iv up to its Await: ask the iterator for the next result.
fn iterator_loop(vm: &mut Vm, record: ObjectId) -> JsResult<Flow> {
    let k = k_of(vm, record);
    // 1. If k ≥ 2**53 - 1, then
    if k >= crate::builtins::iterator::MAX_SAFE_INTEGER {
        //  a. Let error be ThrowCompletion(a newly created TypeError object).
        //  b. Return ? AsyncIteratorClose(iteratorRecord, error).
        let e = vm.type_error("Array.fromAsync: too many elements");
        return async_iterator_close(vm, record, e);
    }
    // 2. Let Pk be ! ToString(𝔽(k)).
    // 3. Let nextResult be ? Call(iteratorRecord.[[NextMethod]], iteratorRecord.[[Iterator]]).
    let (iterator, next) = (slot(vm, record, ITERATOR), slot(vm, record, NEXT));
    let next_result = call(vm, next, iterator, &[])?;
    // 4. Set nextResult to ? Await(nextResult).
    await_value(vm, record, Resume::NextResult, next_result)
}

/// Step h.iv.5–13, after `nextResult` is awaited.
fn iterator_next_result(vm: &mut Vm, record: ObjectId, next_result: Value) -> JsResult<Flow> {
    // 5. If nextResult is not an Object, throw a TypeError exception.
    let Some(ro) = next_result.as_object() else {
        return Err(vm.type_error("Iterator result is not an object"));
    };
    vm.roots.push(next_result);
    // 6. Let done be ? IteratorComplete(nextResult).
    let done = get(vm, ro, PropertyKey::Atom(atom::done), next_result)?;
    let k = k_of(vm, record);
    // 7. If done is true, then
    if to_boolean(vm, done) {
        //  a. Perform ? Set(A, "length", 𝔽(k), true).
        //  b. Return Completion Record { [[Type]]: return, [[Value]]: A, [[Target]]: empty }.
        return finish(vm, record, k);
    }
    // 8. Let nextValue be ? IteratorValue(nextResult).
    let next_value = get(vm, ro, PropertyKey::Atom(atom::value), next_result)?;
    let mapfn = slot(vm, record, MAPFN);
    // 9. If mapping is true, then
    if !mapfn.is_undefined() {
        //  a. Let mappedValue be Call(mapper, thisArg, « nextValue, 𝔽(k) »).
        let this_arg = slot(vm, record, THIS_ARG);
        let mapped = call(vm, mapfn, this_arg, &[next_value, Value::number(k)]);
        //  b. IfAbruptCloseAsyncIterator(mappedValue, iteratorRecord).
        let mapped = match mapped {
            Ok(v) => v,
            Err(e) => return async_iterator_close(vm, record, e),
        };
        //  c. Set mappedValue to Await(mappedValue).
        //  d. IfAbruptCloseAsyncIterator(mappedValue, iteratorRecord). (The rejection case is
        //     in `on_rejected`.)
        return match await_value(vm, record, Resume::IterMapped, mapped) {
            Err(e) => async_iterator_close(vm, record, e),
            ok => ok,
        };
    }
    // 10. Else, let mappedValue be nextValue.
    iterator_define(vm, record, next_value)
}

/// Step h.iv.11–13: store the (mapped) value and go round again.
fn iterator_define(vm: &mut Vm, record: ObjectId, mapped_value: Value) -> JsResult<Flow> {
    let k = k_of(vm, record);
    let a = slot(vm, record, RESULT);
    // 2. Let Pk be ! ToString(𝔽(k)).
    let pk = index_key(vm, k);
    // 11. Let defineStatus be Completion(CreateDataPropertyOrThrow(A, Pk, mappedValue)).
    let define_status = match a.as_object() {
        Some(ao) => create_data_property_or_throw(vm, ao, pk, mapped_value),
        None => Err(vm.type_error("Array.fromAsync: result is not an object")),
    };
    // 12. If defineStatus is an abrupt completion, return ? AsyncIteratorClose(iteratorRecord, defineStatus).
    if let Err(e) = define_status {
        return async_iterator_close(vm, record, e);
    }
    // 13. Set k to k + 1.
    set_slot(vm, record, K, Value::number(k + 1.0));
    iterator_loop(vm, record)
}

/// AsyncIteratorClose ( iteratorRecord, completion ) for a throw completion: call `return`,
/// await its result, then rethrow `error` whatever happened.
/// https://tc39.es/ecma262/#sec-asynciteratorclose
fn async_iterator_close(vm: &mut Vm, record: ObjectId, error: Throw) -> JsResult<Flow> {
    let Throw::Value(e) = error else { return Err(error) };
    set_slot(vm, record, ERROR, e);
    let iterator = slot(vm, record, ITERATOR);
    // 3. Let innerResult be Completion(GetMethod(iterator, "return")).
    // 4. If innerResult is a normal completion, then
    //    a. Let return be innerResult.[[Value]].
    //    b. If return is undefined, return ? completion.
    //    c. Set innerResult to Completion(Call(return, iterator)).
    //    d. If innerResult is a normal completion, set innerResult to Completion(Await(innerResult.[[Value]])).
    // 5. If completion is a throw completion, return ? completion.
    let inner_result = get_method(vm, iterator, PropertyKey::Atom(atom::return_)).and_then(|m| match m {
        Some(m) => call(vm, m, iterator, &[]).map(Some),
        None => Ok(None),
    });
    match inner_result {
        Ok(Some(result)) => match await_value(vm, record, Resume::Closed, result) {
            Err(Throw::Limit(l)) => Err(Throw::Limit(l)),
            Ok(flow) => Ok(flow),
            Err(_) => Err(error),
        },
        Err(Throw::Limit(l)) => Err(Throw::Limit(l)),
        _ => Err(error),
    }
}

/// Step i.vii up to its Await: read the next element, or finish.
fn array_like_loop(vm: &mut Vm, record: ObjectId) -> JsResult<Flow> {
    let k = k_of(vm, record);
    let len = slot(vm, record, LEN).as_number().unwrap_or(0.0);
    // vii. Repeat, while k < len,
    if k >= len {
        // viii. Perform ? Set(A, "length", 𝔽(len), true).
        // ix. Return Completion Record { [[Type]]: return, [[Value]]: A, [[Target]]: empty }.
        return finish(vm, record, len);
    }
    // 1. Let Pk be ! ToString(𝔽(k)).
    let pk = index_key(vm, k);
    // 2. Let kValue be ? Get(arrayLike, Pk).
    let array_like = slot(vm, record, ARRAY_LIKE);
    let Some(alo) = array_like.as_object() else { return Err(vm.type_error("Array.fromAsync: not an object")) };
    let k_value = get(vm, alo, pk, array_like)?;
    // 3. Set kValue to ? Await(kValue).
    await_value(vm, record, Resume::ArrayLikeValue, k_value)
}

/// Step i.vii.4–7, after kValue is awaited.
fn array_like_value(vm: &mut Vm, record: ObjectId, k_value: Value) -> JsResult<Flow> {
    let mapfn = slot(vm, record, MAPFN);
    // 4. If mapping is true, then
    if !mapfn.is_undefined() {
        //  a. Let mappedValue be ? Call(mapper, thisArg, « kValue, 𝔽(k) »).
        let this_arg = slot(vm, record, THIS_ARG);
        let k = k_of(vm, record);
        let mapped = call(vm, mapfn, this_arg, &[k_value, Value::number(k)])?;
        //  b. Set mappedValue to ? Await(mappedValue).
        return await_value(vm, record, Resume::ArrayLikeMapped, mapped);
    }
    // 5. Else, let mappedValue be kValue.
    array_like_define(vm, record, k_value)
}

/// Step i.vii.6–7: store the (mapped) value and go round again.
fn array_like_define(vm: &mut Vm, record: ObjectId, mapped_value: Value) -> JsResult<Flow> {
    let k = k_of(vm, record);
    let pk = index_key(vm, k);
    // 6. Perform ? CreateDataPropertyOrThrow(A, Pk, mappedValue).
    let a = slot(vm, record, RESULT);
    let Some(ao) = a.as_object() else { return Err(vm.type_error("Array.fromAsync: result is not an object")) };
    create_data_property_or_throw(vm, ao, pk, mapped_value)?;
    // 7. Set k to k + 1.
    set_slot(vm, record, K, Value::number(k + 1.0));
    array_like_loop(vm, record)
}

/// Perform ? Set(A, "length", 𝔽(len), true) and return A.
fn finish(vm: &mut Vm, record: ObjectId, len: f64) -> JsResult<Flow> {
    let a = slot(vm, record, RESULT);
    let Some(ao) = a.as_object() else { return Err(vm.type_error("Array.fromAsync: result is not an object")) };
    set_or_throw(vm, ao, PropertyKey::Atom(atom::length), Value::number(len))?;
    Ok(Flow::Done(a))
}

/// The record and resume point captured by a continuation.
fn continuation(vm: &Vm) -> Option<(ObjectId, Resume)> {
    let caps = vm.native_captures();
    let record = caps.first()?.as_object()?;
    let resume = Resume::from_value(*caps.get(1)?)?;
    Some((record, resume))
}

/// An Await in the closure was fulfilled with `args[0]`: continue from that point.
fn on_fulfilled(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let Some((record, resume)) = continuation(vm) else { return Ok(Value::UNDEFINED) };
    vm.roots.push(Value::object(record));
    let value = arg(args, 0);
    let flow = match resume {
        Resume::NextResult => iterator_next_result(vm, record, value),
        Resume::IterMapped => iterator_define(vm, record, value),
        Resume::Closed => Err(Throw::Value(slot(vm, record, ERROR))),
        Resume::ArrayLikeValue => array_like_value(vm, record, value),
        Resume::ArrayLikeMapped => array_like_define(vm, record, value),
    };
    settle(vm, record, flow)?;
    Ok(Value::UNDEFINED)
}

/// An Await in the closure was rejected with `args[0]`: the Await throws there.
fn on_rejected(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let Some((record, resume)) = continuation(vm) else { return Ok(Value::UNDEFINED) };
    vm.roots.push(Value::object(record));
    let reason = Throw::Value(arg(args, 0));
    let flow = match resume {
        // h.iv.9.d. IfAbruptCloseAsyncIterator(mappedValue, iteratorRecord).
        Resume::IterMapped => async_iterator_close(vm, record, reason),
        // AsyncIteratorClose 5. If completion is a throw completion, return ? completion.
        Resume::Closed => Err(Throw::Value(slot(vm, record, ERROR))),
        // `? Await(…)`: the rejection is the closure's throw.
        Resume::NextResult | Resume::ArrayLikeValue | Resume::ArrayLikeMapped => Err(reason),
    };
    settle(vm, record, flow)?;
    Ok(Value::UNDEFINED)
}
