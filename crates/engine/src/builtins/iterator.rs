//! Iteration (ECMA-262 §27.1): the Iterator constructor, %Iterator.prototype% with its eager
//! methods and accessors, %WrapForValidIteratorPrototype%, %AsyncIteratorPrototype% and
//! %AsyncFromSyncIteratorPrototype%. https://tc39.es/ecma262/#sec-iteration
//! Section numbers follow the ES2026 draft; the proposals still in test262 (iterator includes,
//! join, chunking, joint iteration) link their proposal.
//!
//! The lazy helpers (`map`, `filter`, `take`, `drop`, `flatMap`, `chunks`, `windows`,
//! `Iterator.concat`, `Iterator.zip`, `Iterator.zipKeyed`) and %IteratorHelperPrototype% are in
//! `iterator_helpers.rs`; this file holds the iterator abstract operations both files use.

use crate::atoms::{atom, PropertyKey};
use crate::builtins::iterator_helpers::{self, HelperKind};
use crate::builtins::{arg, install, make_constructor, make_internal, make_native, NativeDef, NativeId};
use crate::error::{JsResult, Throw};
use crate::heap::object::{Class, IteratorState, Object};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{call, is_callable, prototype_from_constructor};
use crate::runtime::convert::{to_boolean, to_js_str};
use crate::runtime::iterator::{
    close_on_throw, create_iter_result_object, get_iterator_direct, get_iterator_flattenable, if_abrupt_close_iterator,
    iterator_close_normal, iterator_step, IteratorRecord,
};
use crate::runtime::operators::same_value_zero;
use crate::runtime::property::{
    create_data_property_or_throw, get, get_method, get_own_property, get_prototype_of, set,
};
use crate::string::JsStr;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Iterator", 0, constructor),
    native!("Iterator.from", 1, from),
    // The `constructor` accessor's functions capture %Iterator%, so `init` makes them itself.
    native!("%Iterator.prototype.constructor.get", 0, get_constructor),
    native!("%Iterator.prototype.constructor.set", 1, set_constructor),
    native!("Iterator.prototype.every", 1, every),
    native!("Iterator.prototype.find", 1, find),
    native!("Iterator.prototype.forEach", 1, for_each),
    native!("Iterator.prototype.includes", 1, includes),
    native!("Iterator.prototype.join", 1, join),
    native!("Iterator.prototype.reduce", 1, reduce),
    native!("Iterator.prototype.some", 1, some),
    native!("Iterator.prototype.toArray", 0, to_array),
    native!("Iterator.prototype[Symbol.dispose]", 0, dispose),
    native!("%IteratorPrototype%[Symbol.iterator]", 0, return_this),
    native!("get Iterator.prototype[Symbol.toStringTag]", 0, get_to_string_tag),
    native!("set Iterator.prototype[Symbol.toStringTag]", 1, set_to_string_tag),
    native!("%WrapForValidIteratorPrototype%.next", 0, wrap_next),
    native!("%WrapForValidIteratorPrototype%.return", 0, wrap_return),
    native!("%AsyncIteratorPrototype%[Symbol.asyncIterator]", 0, return_this),
    native!("%AsyncIteratorPrototype%[Symbol.asyncDispose]", 0, async_dispose),
    native!("%AsyncIteratorPrototype.asyncDispose.fulfilled", 1, async_dispose_fulfilled),
    native!("%AsyncIteratorPrototype.asyncDispose.rejected", 1, async_dispose_rejected),
    native!("%AsyncFromSyncIteratorPrototype%.next", 1, afs_next),
    native!("%AsyncFromSyncIteratorPrototype%.return", 1, afs_return),
    native!("%AsyncFromSyncIteratorPrototype%.throw", 1, afs_throw),
    native!("%AsyncFromSyncIterator.unwrap", 1, afs_unwrap),
    native!("%AsyncFromSyncIterator.closeAndRethrow", 1, afs_close_and_rethrow),
];

pub(crate) fn init(vm: &mut Vm) {
    let ip = vm.realm.iterator_prototype;
    let ctor = make_constructor(vm, "Iterator", "Iterator", ip);
    install(vm, ctor, "Iterator", NATIVES);
    install(vm, ip, "Iterator.prototype", NATIVES);
    install(vm, ip, "%IteratorPrototype%", NATIVES);
    // 27.1.4.1 Iterator.prototype.constructor: an accessor, not the data property
    // make_constructor wrote.
    let get_id = NativeId::by_name("%Iterator.prototype.constructor.get");
    let set_id = NativeId::by_name("%Iterator.prototype.constructor.set");
    if let (Some(get_id), Some(set_id)) = (get_id, set_id) {
        let getter = make_native(vm, "get constructor", get_id, 0, false, vec![Value::object(ctor)]);
        let setter = make_native(vm, "set constructor", set_id, 1, false, Vec::new());
        let pair = Class::AccessorPair { get: Value::object(getter), set: Value::object(setter) };
        let pair = vm.heap.alloc_object(Object::new(None, pair));
        let flags = PropFlags(PropFlags::CONFIGURABLE | PropFlags::ACCESSOR);
        vm.define_builtin(ip, PropertyKey::Atom(atom::constructor), Value::object(pair), flags);
    }
    iterator_helpers::init(vm, ctor);

    let wrap = vm.realm.wrap_for_valid_iterator_prototype;
    install(vm, wrap, "%WrapForValidIteratorPrototype%", NATIVES);
    let aip = vm.realm.async_iterator_prototype;
    install(vm, aip, "%AsyncIteratorPrototype%", NATIVES);
    let afs = vm.realm.async_from_sync_iterator_prototype;
    install(vm, afs, "%AsyncFromSyncIteratorPrototype%", NATIVES);
}

// ---- 27.1.3 The Iterator constructor

/// ### 27.1.3.1.1 Iterator ( )
/// https://tc39.es/ecma262/#sec-iterator-constructor
fn constructor(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is either undefined or the active function object, throw a TypeError exception.
    let new_target = vm.native_new_target();
    let active = vm.native_ctx.callee.map(Value::object);
    if new_target.is_undefined() || Some(new_target) == active {
        return Err(vm.type_error("Abstract class Iterator not directly constructable"));
    }
    // 2. Return ? OrdinaryCreateFromConstructor(NewTarget, "%Iterator.prototype%").
    let default = vm.realm.iterator_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    Ok(Value::object(vm.heap.new_plain(Some(proto))))
}

/// ### 27.1.3.2.2 Iterator.from ( O )
/// https://tc39.es/ecma262/#sec-iterator.from
fn from(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let iteratorRecord be ? GetIteratorFlattenable(O, iterate-string-primitives).
    let IteratorRecord { iterator, next_method: next, .. } = get_iterator_flattenable(vm, arg(args, 0), true)?;
    vm.roots.extend([iterator, next]);
    // 2. Let hasInstance be ? OrdinaryHasInstance(%Iterator%, iteratorRecord.[[Iterator]]).
    // NOTE: %Iterator%.prototype is non-writable and non-configurable, so OrdinaryHasInstance
    // reduces to looking for %Iterator.prototype% on the prototype chain (proxy traps included).
    let target = vm.realm.iterator_prototype;
    let mut cur = iterator.as_object();
    while let Some(o) = cur {
        cur = get_prototype_of(vm, o)?;
        // 3. If hasInstance is true, then
        if cur == Some(target) {
            // a. Return iteratorRecord.[[Iterator]].
            return Ok(iterator);
        }
        vm.charge(1)?;
    }
    // 4. Let wrapper be OrdinaryObjectCreate(%WrapForValidIteratorPrototype%, « [[Iterated]] »).
    // 5. Set wrapper.[[Iterated]] to iteratorRecord.
    // 6. Return wrapper.
    Ok(iterator_helpers::create_helper(vm, HelperKind::Wrap, iterator, next, Value::UNDEFINED, 0.0, Vec::new()))
}

/// The iterator record of a %WrapForValidIteratorPrototype% object (its [[Iterated]] slot).
fn wrapped_record(vm: &Vm, this: Value) -> Option<(Value, Value)> {
    let o = this.as_object()?;
    match &vm.heap.obj(o).class {
        Class::Iterator(st) => match **st {
            IteratorState::Helper { kind, underlying, next, .. } if HelperKind::of(kind) == Some(HelperKind::Wrap) => {
                Some((underlying, next))
            }
            _ => None,
        },
        _ => None,
    }
}

/// ### 27.1.3.2.2.1.1 %WrapForValidIteratorPrototype%.next ( )
/// https://tc39.es/ecma262/#sec-%wrapforvaliditeratorprototype%.next
fn wrap_next(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let O be this value.
    // 2. Perform ? RequireInternalSlot(O, [[Iterated]]).
    let Some((iterator, next)) = wrapped_record(vm, this) else {
        return Err(vm.type_error("%WrapForValidIteratorPrototype%.next called on an incompatible receiver"));
    };
    // 3. Let iteratorRecord be O.[[Iterated]].
    // 4. Return ? Call(iteratorRecord.[[NextMethod]], iteratorRecord.[[Iterator]]).
    call(vm, next, iterator, &[])
}

/// ### 27.1.3.2.2.1.2 %WrapForValidIteratorPrototype%.return ( )
/// https://tc39.es/ecma262/#sec-%wrapforvaliditeratorprototype%.return
fn wrap_return(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let O be this value.
    // 2. Perform ? RequireInternalSlot(O, [[Iterated]]).
    let Some((iterator, _)) = wrapped_record(vm, this) else {
        return Err(vm.type_error("%WrapForValidIteratorPrototype%.return called on an incompatible receiver"));
    };
    // 3. Let iterator be O.[[Iterated]].[[Iterator]].
    // 4. Assert: iterator is an Object.
    // 5. Let returnMethod be ? GetMethod(iterator, "return").
    let return_method = get_method(vm, iterator, PropertyKey::Atom(atom::return_))?;
    match return_method {
        // 6. If returnMethod is undefined, then
        //    a. Return CreateIteratorResultObject(undefined, true).
        None => Ok(create_iter_result_object(vm, Value::UNDEFINED, true)),
        // 7. Return ? Call(returnMethod, iterator).
        Some(m) => call(vm, m, iterator, &[]),
    }
}

// ---- 27.1.4 Properties of %Iterator.prototype%: accessors

/// ### 27.1.4.1.1 get Iterator.prototype.constructor
/// https://tc39.es/ecma262/#sec-get-iterator.prototype.constructor
fn get_constructor(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return %Iterator%.
    Ok(vm.native_captures().first().copied().unwrap_or_default())
}

/// ### 27.1.4.1.2 set Iterator.prototype.constructor
/// https://tc39.es/ecma262/#sec-set-iterator.prototype.constructor
fn set_constructor(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Perform ? SetterThatIgnoresPrototypeProperties(this value, %Iterator.prototype%, "constructor", v).
    let home = vm.realm.iterator_prototype;
    setter_that_ignores_prototype_properties(vm, this, home, PropertyKey::Atom(atom::constructor), arg(args, 0))?;
    // 2. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 27.1.4.15.1 get Iterator.prototype [ %Symbol.toStringTag% ]
/// https://tc39.es/ecma262/#sec-get-iterator.prototype-%symbol.tostringtag%
fn get_to_string_tag(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return "Iterator".
    Ok(vm.str("Iterator"))
}

/// ### 27.1.4.15.2 set Iterator.prototype [ %Symbol.toStringTag% ]
/// https://tc39.es/ecma262/#sec-set-iterator.prototype-%symbol.tostringtag%
fn set_to_string_tag(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Perform ? SetterThatIgnoresPrototypeProperties(this value, %Iterator.prototype%, %Symbol.toStringTag%, v).
    let home = vm.realm.iterator_prototype;
    let key = PropertyKey::Symbol(vm.symbols.toStringTag);
    setter_that_ignores_prototype_properties(vm, this, home, key, arg(args, 0))?;
    // 2. Return undefined.
    Ok(Value::UNDEFINED)
}

/// SetterThatIgnoresPrototypeProperties ( thisValue, home, p, v ) (§10.4.x): an accessor that
/// behaves like a data property on `home`'s instances but is read-only on `home` itself.
/// https://tc39.es/ecma262/#sec-SetterThatIgnoresPrototypeProperties
fn setter_that_ignores_prototype_properties(
    vm: &mut Vm,
    this: Value,
    home: ObjectId,
    p: PropertyKey,
    v: Value,
) -> JsResult<()> {
    // 1. If thisValue is not an Object, throw a TypeError exception.
    let Some(o) = this.as_object() else {
        return Err(vm.type_error("setter called on a non-object"));
    };
    // 2. If SameValue(thisValue, home) is true, then
    if o == home {
        // a. NOTE: Throwing here emulates assignment to a non-writable data property on the home object in strict mode code.
        // b. Throw a TypeError exception.
        return Err(vm.type_error("Cannot assign to read only property of Iterator.prototype"));
    }
    // 3. Let desc be ? thisValue.[[GetOwnProperty]](p).
    let desc = get_own_property(vm, o, p)?;
    match desc {
        // 4. If desc is undefined, then
        //    a. Perform ? CreateDataPropertyOrThrow(thisValue, p, v).
        None => create_data_property_or_throw(vm, o, p, v),
        // 5. Else,
        //    a. Perform ? Set(thisValue, p, v, true).
        Some(_) => {
            if set(vm, o, p, v, this)? {
                Ok(())
            } else {
                Err(vm.type_error("Cannot assign to read only property"))
            }
        }
    }
}

fn return_this(_vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(this)
}

// ---- 27.1.4 Properties of %Iterator.prototype%: the eager methods

/// Steps 1–2 shared by every %Iterator.prototype% method: the receiver must be an object.
fn require_object(vm: &mut Vm, this: Value, method: &str) -> JsResult<()> {
    if this.is_object() {
        Ok(())
    } else {
        Err(vm.type_error(format!("Iterator.prototype.{method} called on a non-object")))
    }
}

/// Steps 3–5 shared by the methods taking a callback: a non-callable `f` closes the receiver
/// (`IteratorClose(iterated, ThrowCompletion(TypeError))`); otherwise GetIteratorDirect(O).
fn callback_and_direct(vm: &mut Vm, this: Value, f: Value, method: &str) -> JsResult<IteratorRecord> {
    if !is_callable(vm, f) {
        let e = vm.type_error(format!("Iterator.prototype.{method}: argument is not a function"));
        return close_on_throw(vm, this, e);
    }
    get_iterator_direct(vm, this)
}

/// ### 27.1.4.3 Iterator.prototype.every ( predicate )
/// https://tc39.es/ecma262/#sec-iterator.prototype.every
fn every(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 7.b. If value is done, return true.
    // 7.e. If ToBoolean(result) is false, return ? IteratorClose(iterated, NormalCompletion(false)).
    let found = find_first(vm, this, arg(args, 0), false, "every")?;
    Ok(Value::bool(found.is_none()))
}

/// ### 27.1.4.5 Iterator.prototype.find ( predicate )
/// https://tc39.es/ecma262/#sec-iterator.prototype.find
fn find(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 7.b. If value is done, return undefined.
    // 7.e. If ToBoolean(result) is true, return ? IteratorClose(iterated, NormalCompletion(value)).
    let found = find_first(vm, this, arg(args, 0), true, "find")?;
    Ok(found.unwrap_or(Value::UNDEFINED))
}

/// The loop shared by `some`, `every` and `find` (§27.1.4.10, .3, .5): call `predicate` on each
/// value and stop at the first whose ToBoolean result is `stop_when`, closing the iterator
/// (`IteratorClose(iterated, NormalCompletion(…))`) and returning that value.
fn find_first(vm: &mut Vm, this: Value, predicate: Value, stop_when: bool, method: &str) -> JsResult<Option<Value>> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, throw a TypeError exception.
    require_object(vm, this, method)?;
    // 3–5. (a non-callable predicate closes O), then ? GetIteratorDirect(O).
    let record = callback_and_direct(vm, this, predicate, method)?;
    let iterator = record.iterator;
    vm.roots.push(record.next_method);
    // 6. Let counter be 0.
    let mut counter = 0.0;
    // 7. Repeat,
    loop {
        let mark = vm.roots.len();
        // a. Let value be ? IteratorStepValue(iterated).
        // b. If value is done, return the "not found" answer.
        let Some(value) = iterator_step(vm, &record)? else { return Ok(None) };
        vm.roots.push(value);
        // c. Let result be Completion(Call(predicate, undefined, « value, 𝔽(counter) »)).
        let result = call(vm, predicate, Value::UNDEFINED, &[value, Value::number(counter)]);
        // d. IfAbruptCloseIterator(result, iterated).
        let result = if_abrupt_close_iterator(vm, result, iterator)?;
        // e. If ToBoolean(result) is the stopping answer, return ? IteratorClose(iterated, NormalCompletion(…)).
        if to_boolean(vm, result) == stop_when {
            iterator_close_normal(vm, iterator)?;
            return Ok(Some(value));
        }
        // f. Set counter to counter + 1.
        counter += 1.0;
        vm.roots.truncate(mark);
    }
}

/// ### 27.1.4.7 Iterator.prototype.forEach ( procedure )
/// https://tc39.es/ecma262/#sec-iterator.prototype.foreach
fn for_each(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, throw a TypeError exception.
    require_object(vm, this, "forEach")?;
    // 3–5. (a non-callable procedure closes O), then ? GetIteratorDirect(O).
    let procedure = arg(args, 0);
    let record = callback_and_direct(vm, this, procedure, "forEach")?;
    let iterator = record.iterator;
    vm.roots.push(record.next_method);
    // 6. Let counter be 0.
    let mut counter = 0.0;
    // 7. Repeat,
    loop {
        // a. Let value be ? IteratorStepValue(iterated).
        // b. If value is done, return undefined.
        let Some(value) = iterator_step(vm, &record)? else { return Ok(Value::UNDEFINED) };
        // c. Let result be Completion(Call(procedure, undefined, « value, 𝔽(counter) »)).
        let result = call(vm, procedure, Value::UNDEFINED, &[value, Value::number(counter)]);
        // d. IfAbruptCloseIterator(result, iterated).
        if_abrupt_close_iterator(vm, result, iterator)?;
        // e. Set counter to counter + 1.
        counter += 1.0;
    }
}

/// ### Iterator.prototype.includes ( searchElement [ , skippedElements ] )
/// https://tc39.es/proposal-iterator-includes/ (Stage 2.7)
fn includes(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, throw a TypeError exception.
    require_object(vm, this, "includes")?;
    // 3. Let iterated be the Iterator Record { [[Iterator]]: O, [[NextMethod]]: undefined, [[Done]]: false }.
    let search_element = arg(args, 0);
    let skipped_elements = arg(args, 1);
    // 4. If skippedElements is undefined, let toSkip be 0.
    let to_skip = if skipped_elements.is_undefined() {
        0.0
    } else {
        match skipped_elements.as_number() {
            // 6. Else, let toSkip be skippedElements.
            Some(n) if n.is_infinite() || n.trunc() == n => n,
            // 5. Else if skippedElements is not one of +∞𝔽, -∞𝔽, or an integral Number, then
            //    a. Let error be ThrowCompletion(a newly created TypeError object).
            //    b. Return ? IteratorClose(iterated, error).
            _ => {
                let e = vm.type_error("Iterator.prototype.includes: skippedElements must be an integral number");
                return close_on_throw(vm, this, e);
            }
        }
    };
    // 7. If toSkip < -0𝔽, then
    //    a. Let error be ThrowCompletion(a newly created RangeError object).
    //    b. Return ? IteratorClose(iterated, error).
    // 8. If toSkip is finite and toSkip > 𝔽(2**53 - 1), then (the same).
    if to_skip < 0.0 || (to_skip.is_finite() && to_skip > MAX_SAFE_INTEGER) {
        let e = vm.range_error("Iterator.prototype.includes: skippedElements out of range");
        return close_on_throw(vm, this, e);
    }
    // 9. Let skipped be +0𝔽.
    let mut skipped = 0.0;
    // 10. Set iterated to ? GetIteratorDirect(O).
    let record = get_iterator_direct(vm, this)?;
    let iterator = record.iterator;
    vm.roots.push(record.next_method);
    // 11. Repeat,
    loop {
        // a. Let value be ? IteratorStepValue(iterated).
        // b. If value is done, return false.
        let Some(value) = iterator_step(vm, &record)? else { return Ok(Value::FALSE) };
        if skipped < to_skip {
            // c. If skipped < toSkip, set skipped to skipped + 1.
            skipped += 1.0;
        } else if same_value_zero(vm, value, search_element) {
            // d. Else if SameValueZero(value, searchElement) is true, then
            //    i. Return ? IteratorClose(iterated, NormalCompletion(true)).
            iterator_close_normal(vm, iterator)?;
            return Ok(Value::TRUE);
        }
    }
}

/// ### Iterator.prototype.join ( separator )
/// https://github.com/tc39/proposal-iterator-join (Stage 2.7)
fn join(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, throw a TypeError exception.
    require_object(vm, this, "join")?;
    // 3. Let iterated be the Iterator Record { [[Iterator]]: O, [[NextMethod]]: undefined, [[Done]]: false }.
    let separator = arg(args, 0);
    // 4. If separator is undefined, let sep be ",".
    // 5. Else, let sep be Completion(ToString(separator)); IfAbruptCloseIterator(sep, iterated).
    let sep = if separator.is_undefined() {
        JsStr::from_str(",")
    } else {
        let s = to_js_str(vm, separator);
        if_abrupt_close_iterator(vm, s, this)?
    };
    // 6. Set iterated to ? GetIteratorDirect(O).
    let record = get_iterator_direct(vm, this)?;
    let iterator = record.iterator;
    vm.roots.push(record.next_method);
    // 7. Let R be the empty String.
    let mut r: Vec<u16> = Vec::new();
    let mut first = true;
    // 8. Repeat,
    loop {
        // a. Let value be ? IteratorStepValue(iterated).
        // b. If value is done, return R.
        let Some(value) = iterator_step(vm, &record)? else {
            vm.charge(r.len() as u64 / 16)?;
            return Ok(vm.js_str(JsStr::from_units(r)));
        };
        // c. If this is not the first value, set R to the string-concatenation of R and sep.
        if !first {
            r.extend(sep.iter());
        }
        first = false;
        // d. If value is neither undefined nor null, then
        if !value.is_nullish() {
            // i. Let S be Completion(ToString(value)).
            // ii. IfAbruptCloseIterator(S, iterated).
            let s = to_js_str(vm, value);
            let s = if_abrupt_close_iterator(vm, s, iterator)?;
            // iii. Set R to the string-concatenation of R and S.
            r.extend(s.iter());
        }
        vm.charge(1 + sep.len() as u64)?;
        if r.len() > MAX_STRING_UNITS {
            let e = vm.range_error("Invalid string length");
            return close_on_throw(vm, iterator, e);
        }
    }
}

/// ### 27.1.4.9 Iterator.prototype.reduce ( reducer [ , initialValue ] )
/// https://tc39.es/ecma262/#sec-iterator.prototype.reduce
fn reduce(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, throw a TypeError exception.
    require_object(vm, this, "reduce")?;
    // 3. Let iterated be the Iterator Record { [[Iterator]]: O, [[NextMethod]]: undefined, [[Done]]: false }.
    // 4. If IsCallable(reducer) is false, then
    //    a. Let error be ThrowCompletion(a newly created TypeError object).
    //    b. Return ? IteratorClose(iterated, error).
    // 5. Set iterated to ? GetIteratorDirect(O).
    let reducer = arg(args, 0);
    let record = callback_and_direct(vm, this, reducer, "reduce")?;
    let iterator = record.iterator;
    vm.roots.push(record.next_method);
    let (mut accumulator, mut counter) = if args.len() < 2 {
        // 6. If initialValue is not present, then
        //    a. Let accumulator be ? IteratorStepValue(iterated).
        //    b. If accumulator is done, throw a TypeError exception.
        //    c. Let counter be 1.
        match iterator_step(vm, &record)? {
            Some(v) => (v, 1.0),
            None => return Err(vm.type_error("Reduce of empty iterator with no initial value")),
        }
    } else {
        // 7. Else,
        //    a. Let accumulator be initialValue.
        //    b. Let counter be 0.
        (args[1], 0.0)
    };
    // 8. Repeat,
    loop {
        let mark = vm.roots.len();
        vm.roots.push(accumulator);
        // a. Let value be ? IteratorStepValue(iterated).
        // b. If value is done, return accumulator.
        let Some(value) = iterator_step(vm, &record)? else { return Ok(accumulator) };
        vm.roots.push(value);
        // c. Let result be Completion(Call(reducer, undefined, « accumulator, value, 𝔽(counter) »)).
        let result = call(vm, reducer, Value::UNDEFINED, &[accumulator, value, Value::number(counter)]);
        // d. IfAbruptCloseIterator(result, iterated).
        // e. Set accumulator to result.
        accumulator = if_abrupt_close_iterator(vm, result, iterator)?;
        // f. Set counter to counter + 1.
        counter += 1.0;
        vm.roots.truncate(mark);
    }
}

/// ### 27.1.4.10 Iterator.prototype.some ( predicate )
/// https://tc39.es/ecma262/#sec-iterator.prototype.some
fn some(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 7.b. If value is done, return false.
    // 7.e. If ToBoolean(result) is true, return ? IteratorClose(iterated, NormalCompletion(true)).
    let found = find_first(vm, this, arg(args, 0), true, "some")?;
    Ok(Value::bool(found.is_some()))
}

/// ### 27.1.4.12 Iterator.prototype.toArray ( )
/// https://tc39.es/ecma262/#sec-iterator.prototype.toarray
fn to_array(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, throw a TypeError exception.
    require_object(vm, this, "toArray")?;
    // 3. Let iterated be ? GetIteratorDirect(O).
    let record = get_iterator_direct(vm, this)?;
    vm.roots.push(record.next_method);
    // 4. Let items be a new empty List.
    // NOTE: the items live on the root stack until the array is made.
    let base = vm.roots.len();
    // 5. Repeat,
    loop {
        // a. Let value be ? IteratorStepValue(iterated).
        // b. If value is done, return CreateArrayFromList(items).
        let Some(value) = iterator_step(vm, &record)? else {
            let items = vm.roots[base..].to_vec();
            return Ok(vm.new_array(items));
        };
        // c. Append value to items.
        vm.roots.push(value);
        vm.charge(1)?;
        vm.check_heap()?;
    }
}

/// The longest string `join` builds (the engine's string length limit).
const MAX_STRING_UNITS: usize = 1 << 29;

/// 2**53 - 1.
pub(crate) const MAX_SAFE_INTEGER: f64 = 9007199254740991.0;

/// ### 27.1.4.13 Iterator.prototype [ %Symbol.dispose% ] ( )
/// https://tc39.es/proposal-explicit-resource-management/#sec-%iteratorprototype%-@@dispose
fn dispose(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. Let return be ? GetMethod(O, "return").
    let return_method = get_method(vm, this, PropertyKey::Atom(atom::return_))?;
    // 3. If return is not undefined, then
    if let Some(m) = return_method {
        // a. Perform ? Call(return, O, « »).
        call(vm, m, this, &[])?;
    }
    // 4. Return undefined.
    Ok(Value::UNDEFINED)
}

// ---- 27.1.5 %AsyncIteratorPrototype%

/// ### 27.1.5.1 %AsyncIteratorPrototype% [ %Symbol.asyncDispose% ] ( )
/// https://tc39.es/proposal-explicit-resource-management/#sec-%asynciteratorprototype%-@@asyncdispose
fn async_dispose(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    use crate::builtins::promise::{
        new_promise, perform_then_internal, promise_resolve, reject_promise, resolve_promise,
    };
    // 1. Let O be the this value.
    // 2. Let promiseCapability be ! NewPromiseCapability(%Promise%).
    let promise = new_promise(vm);
    vm.roots.push(Value::object(promise));
    let r = (|| -> JsResult<()> {
        // 3. Let return be Completion(GetMethod(O, "return")).
        // 4. IfAbruptRejectPromise(return, promiseCapability).
        match get_method(vm, this, PropertyKey::Atom(atom::return_))? {
            // 5. If return is undefined, then
            //    a. Perform ! Call(promiseCapability.[[Resolve]], undefined, « undefined »).
            None => resolve_promise(vm, promise, Value::UNDEFINED),
            // 6. Else,
            Some(m) => {
                // a. Let result be Completion(Call(return, O)).
                // b. IfAbruptRejectPromise(result, promiseCapability).
                let result = call(vm, m, this, &[])?;
                // c. Let resultWrapper be Completion(PromiseResolve(%Promise%, result)).
                // d. IfAbruptRejectPromise(resultWrapper, promiseCapability).
                let wrapper = promise_resolve(vm, result)?;
                // e. Let unwrap be a new Abstract Closure that performs the following steps when called:
                //    i. Return undefined.
                // f. Let onFulfilled be CreateBuiltinFunction(unwrap, 1, "", « »).
                // g. Perform PerformPromiseThen(resultWrapper, onFulfilled, undefined, promiseCapability).
                let captures = vec![Value::object(promise)];
                let on_fulfilled =
                    make_internal(vm, "%AsyncIteratorPrototype.asyncDispose.fulfilled", 1, captures.clone());
                let on_rejected = make_internal(vm, "%AsyncIteratorPrototype.asyncDispose.rejected", 1, captures);
                perform_then_internal(vm, wrapper, Value::object(on_fulfilled), Value::object(on_rejected));
                Ok(())
            }
        }
    })();
    match r {
        Ok(()) => {}
        Err(Throw::Value(e)) => reject_promise(vm, promise, e),
        Err(limit) => return Err(limit),
    }
    // 7. Return promiseCapability.[[Promise]].
    Ok(Value::object(promise))
}

/// The `unwrap` closure of [Symbol.asyncDispose], fused with resolving its capability.
fn async_dispose_fulfilled(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    if let Some(p) = vm.native_captures().first().and_then(|v| v.as_object()) {
        crate::builtins::promise::resolve_promise(vm, p, Value::UNDEFINED)?;
    }
    Ok(Value::UNDEFINED)
}

/// [Symbol.asyncDispose]'s missing onRejected: the capability's reject.
fn async_dispose_rejected(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    if let Some(p) = vm.native_captures().first().and_then(|v| v.as_object()) {
        crate::builtins::promise::reject_promise(vm, p, arg(args, 0));
    }
    Ok(Value::UNDEFINED)
}

// ---- 27.1.6 %AsyncFromSyncIteratorPrototype%

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
            Err(Throw::Value(e)) if !done && close_on_rejection => {
                return close_on_throw(vm, sync_iter, Throw::Value(e))
            }
            Err(Throw::Value(e)) => return Err(Throw::Value(e)),
            Err(t) => return Err(t),
        };
        let unwrap =
            make_internal(vm, "%AsyncFromSyncIterator.unwrap", 1, vec![Value::bool(done), Value::object(promise)]);
        let on_rej = if done || !close_on_rejection {
            make_internal(
                vm,
                "%AsyncFromSyncIterator.closeAndRethrow",
                1,
                vec![Value::UNDEFINED, Value::object(promise)],
            )
        } else {
            make_internal(vm, "%AsyncFromSyncIterator.closeAndRethrow", 1, vec![sync_iter, Value::object(promise)])
        };
        crate::builtins::promise::perform_then_internal(
            vm,
            value_wrapper,
            Value::object(unwrap),
            Value::object(on_rej),
        );
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
    let r = crate::runtime::iterator::create_iter_result_object(vm, arg(args, 0), done);
    if let Some(p) = caps.get(1).and_then(|v| v.as_object()) {
        crate::builtins::promise::resolve_promise(vm, p, r)?;
    }
    Ok(Value::UNDEFINED)
}

fn afs_close_and_rethrow(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let caps = vm.native_captures();
    let sync_iter = caps.first().copied().unwrap_or_default();
    if sync_iter.is_object() {
        crate::runtime::iterator::iterator_close_quiet(vm, sync_iter)?;
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
        let r = crate::runtime::iterator::create_iter_result_object(vm, arg(args, 0), true);
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
        if let Err(Throw::Limit(l)) = crate::runtime::iterator::iterator_close_normal(vm, it) {
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
