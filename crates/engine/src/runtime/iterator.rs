//! Operations on iterator objects (ECMA-262 §7.4): the one [`IteratorRecord`] and the
//! abstract operations the interpreter's iteration instructions and the builtins share.
//! https://tc39.es/ecma262/#sec-operations-on-iterator-objects
//!
//! Rooting: the operations whose doc says so push the values they make on `vm.roots`, for
//! natives (whose roots are dropped when they return). [`get_iterator`], [`iterator_step`]
//! and [`get_iterator_direct`] root nothing: the interpreter keeps their values on its
//! operand stack, and a native calling them roots the record itself.
//!
//! The closing operations take the [[Iterator]] alone where that is all they read, so
//! iterator helpers whose heap state holds the iterator and its `next` can close it.

use crate::atoms::{atom, PropertyKey};
use crate::error::{JsResult, Throw};
use crate::heap::shape::PropFlags;
use crate::runtime::call::call;
use crate::runtime::convert::to_boolean;
use crate::runtime::describe::{describe, Shown};
use crate::runtime::operators::type_of;
use crate::runtime::property::{get, get_method, get_v};
use crate::value::{Kind, Value};
use crate::vm::Vm;

/// ### 7.4.1 Iterator Records
/// https://tc39.es/ecma262/#sec-iterator-records
#[derive(Clone, Copy, Debug)]
pub struct IteratorRecord {
    /// [[Iterator]]
    pub iterator: Value,
    /// [[NextMethod]]
    pub next_method: Value,
    /// [[Done]]
    pub done: bool,
}

impl IteratorRecord {
    /// The Iterator Record { [[Iterator]]: iterator, [[NextMethod]]: next_method, [[Done]]: false }.
    #[inline]
    pub fn new(iterator: Value, next_method: Value) -> IteratorRecord {
        IteratorRecord { iterator, next_method, done: false }
    }
}

/// GetIterator's kind argument: `sync` or `async`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IteratorKind {
    Sync,
    Async,
}

/// ### 7.4.2 GetIteratorDirect ( obj )
/// https://tc39.es/ecma262/#sec-getiteratordirect
pub fn get_iterator_direct(vm: &mut Vm, obj: Value) -> JsResult<IteratorRecord> {
    // 1. Let nextMethod be ? Get(obj, "next").
    let next_method = get_v(vm, obj, PropertyKey::Atom(atom::next))?;
    // 2. Let iteratorRecord be the Iterator Record { [[Iterator]]: obj, [[NextMethod]]: nextMethod, [[Done]]: false }.
    // 3. Return iteratorRecord.
    Ok(IteratorRecord::new(obj, next_method))
}

/// ### 7.4.3 GetIteratorFromMethod ( obj, method )
/// https://tc39.es/ecma262/#sec-getiteratorfrommethod
///
/// The error message names the method `method_name` (`Symbol.iterator`, `keys`, as V8 words
/// it at each site). The iterator and its `next` are pushed on `vm.roots`.
pub fn get_iterator_from_method(vm: &mut Vm, obj: Value, method: Value, method_name: &str) -> JsResult<IteratorRecord> {
    // 1. Let iterator be ? Call(method, obj).
    let iterator = call(vm, method, obj, &[])?;
    // 2. If iterator is not an Object, throw a TypeError exception.
    if !iterator.is_object() {
        return Err(not_an_iterator_object(vm, method_name));
    }
    vm.roots.push(iterator);
    // 3. Let nextMethod be ? Get(iterator, "next").
    let next_method = get_v(vm, iterator, PropertyKey::Atom(atom::next))?;
    vm.roots.push(next_method);
    // 4-5. Return the Iterator Record { [[Iterator]], [[NextMethod]], [[Done]]: false }.
    Ok(IteratorRecord::new(iterator, next_method))
}

/// The TypeError of an iterator method returning a primitive.
fn not_an_iterator_object(vm: &mut Vm, method_name: &str) -> Throw {
    vm.type_error(format!("Result of the {method_name} method is not an object"))
}

/// ### 7.4.4 GetIterator ( obj, kind )
/// https://tc39.es/ecma262/#sec-getiterator
///
/// As the interpreter's iteration instructions run it: nothing is rooted, and a value
/// without an iterator method is named by the instruction's error site
/// ([`crate::interp::ops::not_iterable_error`]).
pub fn get_iterator(vm: &mut Vm, obj: Value, kind: IteratorKind) -> JsResult<IteratorRecord> {
    if obj.is_nullish() {
        return Err(crate::interp::ops::not_iterable_error(vm, obj, kind == IteratorKind::Async));
    }
    // 1. If kind is async, then
    if kind == IteratorKind::Async {
        // a. Let method be ? GetMethod(obj, %Symbol.asyncIterator%).
        let key = PropertyKey::Symbol(vm.symbols.asyncIterator);
        // b. If method is undefined, then
        let Some(method) = get_method(vm, obj, key)? else {
            // i. Let syncMethod be ? GetMethod(obj, %Symbol.iterator%).
            // ii. If syncMethod is undefined, throw a TypeError exception.
            // iii. Let syncIteratorRecord be ? GetIteratorFromMethod(obj, syncMethod).
            let sync_record = sync_iterator(vm, obj, true)?;
            // iv. Return CreateAsyncFromSyncIterator(syncIteratorRecord).
            return crate::interp::generator::create_async_from_sync_iterator(vm, sync_record);
        };
        // 3-4. Return ? GetIteratorFromMethod(obj, method) (unrooted).
        let iterator = call(vm, method, obj, &[])?;
        if !iterator.is_object() {
            return Err(not_an_iterator_object(vm, "Symbol.asyncIterator"));
        }
        return get_iterator_direct(vm, iterator);
    }
    // 2. Else, … (steps 3-4 as below)
    sync_iterator(vm, obj, false)
}

/// GetIterator(obj, sync) for a value that is not nullish, unrooted; `for_async`: for an
/// async iteration (its message says `async iterable`).
fn sync_iterator(vm: &mut Vm, obj: Value, for_async: bool) -> JsResult<IteratorRecord> {
    // 2.a. Let method be ? GetMethod(obj, %Symbol.iterator%).
    let key = PropertyKey::Symbol(vm.symbols.iterator);
    let method = get_method(vm, obj, key)?;
    // 3. If method is undefined, throw a TypeError exception.
    let Some(method) = method else {
        return Err(crate::interp::ops::not_iterable_error(vm, obj, for_async));
    };
    // 4. Return ? GetIteratorFromMethod(obj, method).
    let iterator = call(vm, method, obj, &[])?;
    if !iterator.is_object() {
        return Err(not_an_iterator_object(vm, "Symbol.iterator"));
    }
    get_iterator_direct(vm, iterator)
}

/// ### 7.4.4 GetIterator ( obj, sync )
/// https://tc39.es/ecma262/#sec-getiterator
///
/// As the built-in constructors and combinators call it (`new Set(x)`, `Promise.all(x)`):
/// the iterator and its `next` are pushed on `vm.roots`, and a value without an iterator
/// method is named by the value itself (`number 5 is not iterable …`).
pub fn get_iterator_rooted(vm: &mut Vm, obj: Value) -> JsResult<IteratorRecord> {
    let not_iterable = |vm: &mut Vm, obj: Value| {
        let shown = match obj.kind() {
            Kind::Undefined | Kind::Null => describe(vm, obj, Shown::Plain),
            Kind::Object(_) => "object".to_string(),
            _ => format!("{} {}", type_of(vm, obj), describe(vm, obj, Shown::Plain)),
        };
        vm.type_error(format!("{shown} is not iterable (cannot read property Symbol(Symbol.iterator))"))
    };
    if obj.is_nullish() {
        return Err(not_iterable(vm, obj));
    }
    // 2.a. Let method be ? GetMethod(obj, %Symbol.iterator%).
    let key = PropertyKey::Symbol(vm.symbols.iterator);
    let method = get_method(vm, obj, key)?;
    // 3. If method is undefined, throw a TypeError exception.
    let Some(method) = method else {
        return Err(not_iterable(vm, obj));
    };
    // 4. Return ? GetIteratorFromMethod(obj, method).
    get_iterator_from_method(vm, obj, method, "Symbol.iterator")
}

/// ### 7.4.5 GetIteratorFlattenable ( obj, primitiveHandling )
/// https://tc39.es/ecma262/#sec-getiteratorflattenable
///
/// `iterate_strings` is iterate-string-primitives, otherwise reject-primitives. The
/// iterator is pushed on `vm.roots` (its `next` is not).
pub fn get_iterator_flattenable(vm: &mut Vm, obj: Value, iterate_strings: bool) -> JsResult<IteratorRecord> {
    // 1. If obj is not an Object, then
    if !obj.is_object() {
        // a. If primitiveHandling is reject-primitives, throw a TypeError exception.
        // b. Assert: primitiveHandling is iterate-string-primitives.
        // c. If obj is not a String, throw a TypeError exception.
        if !iterate_strings || !obj.is_string() {
            return Err(vm.type_error("value is not an iterator or iterable object"));
        }
    }
    // 2. Let method be ? GetMethod(obj, %Symbol.iterator%).
    let method = get_method(vm, obj, PropertyKey::Symbol(vm.symbols.iterator))?;
    let iterator = match method {
        // 3. If method is undefined, then
        //    a. Let iterator be obj.
        None => obj,
        // 4. Else,
        //    a. Let iterator be ? Call(method, obj).
        Some(m) => call(vm, m, obj, &[])?,
    };
    // 5. If iterator is not an Object, throw a TypeError exception.
    if !iterator.is_object() {
        return Err(not_an_iterator_object(vm, "Symbol.iterator"));
    }
    vm.roots.push(iterator);
    // 6. Return ? GetIteratorDirect(iterator).
    get_iterator_direct(vm, iterator)
}

/// ### 7.4.9 IteratorStep ( iteratorRecord ), without reading the value
/// https://tc39.es/ecma262/#sec-iteratorstep
///
/// Whether `next` produced a result (false when done). Errors leave the iterator as done,
/// not closed.
pub fn iterator_step_result(vm: &mut Vm, record: &IteratorRecord) -> JsResult<bool> {
    // 1. Let result be ? IteratorNext(iteratorRecord).
    let result = call(vm, record.next_method, record.iterator, &[])?;
    let Some(ro) = result.as_object() else {
        return Err(vm.type_error("Iterator result is not an object"));
    };
    // 2. Let done be Completion(IteratorComplete(result)).
    let done = get(vm, ro, PropertyKey::Atom(atom::done), result)?;
    // 5. If done is true, return done; 6. Return result.
    Ok(!to_boolean(vm, done))
}

/// ### 7.4.10 IteratorStepValue ( iteratorRecord ), as the interpreter runs it
/// https://tc39.es/ecma262/#sec-iteratorstepvalue
///
/// `None` is done. Nothing is rooted and [[Done]] is not kept: the caller knows an abrupt
/// completion ended the iteration. The built-in array iterator over a dense array takes a
/// fast path (the for-of loop's common case).
#[inline]
pub fn iterator_step(vm: &mut Vm, record: &IteratorRecord) -> JsResult<Option<Value>> {
    let IteratorRecord { iterator, next_method, .. } = *record;
    // Fast path: the built-in array iterator over a dense array; `next` is the intrinsic,
    // so JS cannot tell the result object was never made.
    if let Some(o) = iterator.as_object() {
        if next_method == Value::object(vm.realm.array_iterator_next) {
            if let Some(r) = crate::builtins::array::array_iterator_fast_step(vm, o)? {
                return Ok(r);
            }
        }
    }
    // 1. Let result be ? IteratorNext(iteratorRecord).
    let result = call(vm, next_method, iterator, &[])?;
    let Some(ro) = result.as_object() else {
        return Err(vm.type_error("Iterator result is not an object"));
    };
    // 2. Let done be ? IteratorComplete(result).
    let done = get(vm, ro, PropertyKey::Atom(atom::done), result)?;
    // 3. If done is true, return done.
    if to_boolean(vm, done) {
        return Ok(None);
    }
    // 4. Return ? IteratorValue(result).
    Ok(Some(get(vm, ro, PropertyKey::Atom(atom::value), result)?))
}

/// ### 7.4.10 IteratorStepValue ( iteratorRecord )
/// https://tc39.es/ecma262/#sec-iteratorstepvalue
///
/// `None` is done. Any abrupt completion marks the record done; the result object is
/// pushed on `vm.roots`.
pub fn iterator_step_value(vm: &mut Vm, record: &mut IteratorRecord) -> JsResult<Option<Value>> {
    // IteratorStep 1. Let result be Completion(IteratorNext(iteratorRecord)).
    let result = call(vm, record.next_method, record.iterator, &[]);
    let result = match result {
        // IteratorNext 2-3. If result is a throw completion, set [[Done]] to true.
        Err(e) => {
            record.done = true;
            return Err(e);
        }
        Ok(r) => r,
    };
    // IteratorNext 5. If result is not an Object, set [[Done]] to true and throw a TypeError.
    let Some(ro) = result.as_object() else {
        record.done = true;
        let shown = describe(vm, result, Shown::Plain);
        return Err(vm.type_error(format!("Iterator result {shown} is not an object")));
    };
    vm.roots.push(result);
    // IteratorStep 3. Let done be Completion(IteratorComplete(result)).
    let done = match get(vm, ro, PropertyKey::Atom(atom::done), result) {
        Ok(d) => to_boolean(vm, d),
        Err(e) => {
            record.done = true;
            return Err(e);
        }
    };
    // IteratorStep 6. If done is true, set [[Done]] to true and return done.
    if done {
        record.done = true;
        return Ok(None);
    }
    // 3. Let value be Completion(IteratorValue(result)).
    // 4. If value is a throw completion, set iteratorRecord.[[Done]] to true.
    match get(vm, ro, PropertyKey::Atom(atom::value), result) {
        Ok(v) => Ok(Some(v)),
        Err(e) => {
            record.done = true;
            Err(e)
        }
    }
}

/// ### 7.4.11 IteratorClose ( iteratorRecord, completion )
/// https://tc39.es/ecma262/#sec-iteratorclose
pub fn iterator_close(vm: &mut Vm, record: &IteratorRecord, completion: JsResult<Value>) -> JsResult<Value> {
    // A resource limit unwinds without running more JS.
    if let Err(Throw::Limit(l)) = completion {
        return Err(Throw::Limit(l));
    }
    // 3. Let iterator be iteratorRecord.[[Iterator]].
    let iterator = record.iterator;
    // `return` may collect: the completion's value must outlive it (roots are truncated
    // when the native that called this returns).
    vm.roots.push(iterator);
    vm.roots.push(match &completion {
        Ok(v) | Err(Throw::Value(v)) => *v,
        Err(Throw::Limit(_)) => Value::UNDEFINED,
    });
    // 4. Let innerResult be Completion(GetMethod(iterator, "return")).
    let inner = match get_method(vm, iterator, PropertyKey::Atom(atom::return_)) {
        // 5. If innerResult is a normal completion, then
        Ok(None) => return completion,
        Ok(Some(ret)) => call(vm, ret, iterator, &[]),
        Err(e) => Err(e),
    };
    // 6. If completion is a throw completion, return ? completion.
    let value = completion?;
    // 7. If innerResult is a throw completion, return ? innerResult.
    let inner = inner?;
    // 8. If innerResult.[[Value]] is not an Object, throw a TypeError exception.
    if !inner.is_object() {
        let shown = describe(vm, inner, Shown::Plain);
        return Err(vm.type_error(format!("Iterator result {shown} is not an object")));
    }
    // 9. Return ? completion.
    Ok(value)
}

/// IteratorClose ( iteratorRecord, completion ) for a normal completion, as the
/// interpreter's `IteratorClose` runs it (the iterator stays on its stack meanwhile).
pub fn iterator_close_normal(vm: &mut Vm, iterator: Value) -> JsResult<()> {
    // 4. Let innerResult be Completion(GetMethod(iterator, "return")).
    let ret = get_method(vm, iterator, PropertyKey::Atom(atom::return_))?;
    // 5. If innerResult is a normal completion, then
    if let Some(r) = ret {
        // 7. If innerResult is a throw completion, return ? innerResult.
        let res = call(vm, r, iterator, &[])?;
        // 8. If innerResult.[[Value]] is not an Object, throw a TypeError exception.
        if !res.is_object() {
            return Err(vm.type_error("Iterator result is not an object"));
        }
    }
    Ok(())
}

/// IteratorClose ( iteratorRecord, completion ) for a throw completion, up to the rethrow:
/// errors getting or calling `return` are ignored (6. completion wins); limits are not.
pub fn iterator_close_quiet(vm: &mut Vm, iterator: Value) -> JsResult<()> {
    let r = get_method(vm, iterator, PropertyKey::Atom(atom::return_)).and_then(|ret| match ret {
        Some(r) => call(vm, r, iterator, &[]).map(|_| ()),
        None => Ok(()),
    });
    match r {
        Err(Throw::Limit(l)) => Err(Throw::Limit(l)),
        _ => Ok(()),
    }
}

/// IteratorClose(iteratorRecord, ThrowCompletion(error)): errors from `return` are dropped
/// and `error` is thrown (resource limits still win).
pub fn close_on_throw<T>(vm: &mut Vm, iterator: Value, error: Throw) -> JsResult<T> {
    if let Throw::Value(e) = error {
        vm.roots.push(e);
        iterator_close_quiet(vm, iterator)?;
    }
    Err(error)
}

/// ### 7.4.12 IfAbruptCloseIterator ( value, iteratorRecord )
/// https://tc39.es/ecma262/#sec-ifabruptcloseiterator
pub fn if_abrupt_close_iterator<T>(vm: &mut Vm, value: JsResult<T>, iterator: Value) -> JsResult<T> {
    match value {
        Ok(v) => Ok(v),
        Err(e) => close_on_throw(vm, iterator, e),
    }
}

/// IteratorCloseAll ( iters, completion ): close every iterator in reverse order, each one
/// seeing the completion the previous left; `Ok(())` stands for a normal or return completion.
/// https://tc39.es/proposal-joint-iteration/#sec-closeall
pub fn iterator_close_all(vm: &mut Vm, iters: &[Value], completion: JsResult<()>) -> JsResult<()> {
    let mut completion = completion;
    // 1. For each element iter of iters, in reverse List order, do
    for &iter in iters.iter().rev() {
        // a. Set completion to Completion(IteratorClose(iter, completion)).
        completion = match completion {
            Ok(()) => iterator_close_normal(vm, iter),
            Err(Throw::Value(e)) => {
                vm.roots.push(e);
                iterator_close_quiet(vm, iter)?;
                Err(Throw::Value(e))
            }
            Err(limit) => return Err(limit),
        };
    }
    // 2. Return ? completion.
    completion
}

/// ### 7.4.13 AsyncIteratorClose ( iteratorRecord, completion ) for a throw completion,
/// up to the Await: call `return` if present and return its result and whether there was
/// one to await. Errors getting or calling `return` are ignored (the loop's own exception
/// wins), limits are not.
/// https://tc39.es/ecma262/#sec-asynciteratorclose
pub fn async_iterator_close_quiet(vm: &mut Vm, iterator: Value) -> JsResult<(Value, bool)> {
    let r = get_method(vm, iterator, PropertyKey::Atom(atom::return_)).and_then(|ret| match ret {
        Some(r) => call(vm, r, iterator, &[]).map(|v| (v, true)),
        None => Ok((Value::UNDEFINED, false)),
    });
    match r {
        Err(Throw::Limit(l)) => Err(Throw::Limit(l)),
        Err(_) => Ok((Value::UNDEFINED, false)),
        Ok(r) => Ok(r),
    }
}

/// ### 7.4.14 CreateIteratorResultObject ( value, done )
/// https://tc39.es/ecma262/#sec-createiterresultobject
pub fn create_iter_result_object(vm: &mut Vm, value: Value, done: bool) -> Value {
    // 1. Let obj be OrdinaryObjectCreate(%Object.prototype%).
    let obj = vm.new_object();
    if let Some(o) = obj.as_object() {
        // 2. Perform ! CreateDataPropertyOrThrow(obj, "value", value).
        vm.define_builtin(o, PropertyKey::Atom(atom::value), value, PropFlags::DEFAULT);
        // 3. Perform ! CreateDataPropertyOrThrow(obj, "done", done).
        vm.define_builtin(o, PropertyKey::Atom(atom::done), Value::bool(done), PropFlags::DEFAULT);
    }
    // 4. Return obj.
    obj
}
