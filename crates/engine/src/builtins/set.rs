//! The Set object (ECMA-262 §24.2), with the ES2025 set methods (union, intersection, …):
//! https://tc39.es/ecma262/#sec-set-objects
//!
//! A Set's [[SetData]] is a [`MapData`](crate::heap::object::MapData) whose entries hold
//! `(element, undefined)`; the data operations live in [`super::map`].

use crate::atoms::{atom, PropertyKey};
use crate::builtins::map::{
    alias_property, canonicalize_key, collection_iterator_next, copy_data, data, data_mut, define_to_string_tag,
    entry_at, find, insert, key_of, remove, require, Collection,
};
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{Class, IteratorState, MapData, Object};
use crate::native;
use crate::runtime::call::{call, is_callable, prototype_from_constructor};
use crate::runtime::convert::{to_boolean, to_integer_or_infinity, to_number};
use crate::runtime::describe::{describe, not_a_function, Shown};
use crate::runtime::iterator::{
    get_iterator_from_method, get_iterator_rooted, iterator_close, iterator_step_value, IteratorRecord,
};
use crate::runtime::property::get;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Set", 0, constructor),
    native!("get Set[Symbol.species]", 0, crate::builtins::map::species),
    native!("Set.prototype.has", 1, has),
    native!("Set.prototype.add", 1, add),
    native!("Set.prototype.delete", 1, delete),
    native!("Set.prototype.difference", 1, difference),
    native!("Set.prototype.clear", 0, clear),
    native!("Set.prototype.entries", 0, entries),
    native!("Set.prototype.forEach", 1, for_each),
    native!("Set.prototype.intersection", 1, intersection),
    native!("Set.prototype.isSubsetOf", 1, is_subset_of),
    native!("Set.prototype.isSupersetOf", 1, is_superset_of),
    native!("Set.prototype.isDisjointFrom", 1, is_disjoint_from),
    native!("get Set.prototype.size", 0, size),
    native!("Set.prototype.symmetricDifference", 1, symmetric_difference),
    native!("Set.prototype.union", 1, union),
    native!("Set.prototype.values", 0, values),
    native!("%SetIteratorPrototype%.next", 0, set_iterator_next),
];

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.set_prototype;
    let ctor = make_constructor(vm, "Set", "Set", proto);
    install(vm, proto, "Set.prototype", NATIVES);
    install(vm, ctor, "Set", NATIVES);
    // 24.2.4.15 Set.prototype.keys: the same function object as `values`.
    let values_key = vm.key("values");
    let keys_key = vm.key("keys");
    alias_property(vm, proto, values_key, keys_key);
    // 24.2.4.18 Set.prototype [ %Symbol.toStringTag% ]
    define_to_string_tag(vm, proto, "Set");
    // 24.2.4.17 Set.prototype [ %Symbol.iterator% ]: the same function object as `values`.
    let iterator = PropertyKey::Symbol(vm.symbols.iterator);
    alias_property(vm, proto, values_key, iterator);

    // 24.2.6.2 The %SetIteratorPrototype% Object
    let iter_proto = vm.realm.set_iterator_prototype;
    let iterator_prototype = vm.realm.iterator_prototype;
    vm.heap.obj_mut(iter_proto).proto = Some(iterator_prototype);
    install(vm, iter_proto, "%SetIteratorPrototype%", NATIVES);
    define_to_string_tag(vm, iter_proto, "Set Iterator");
}

/// ### 24.2.2.1 Set ( [ iterable ] )
/// https://tc39.es/ecma262/#sec-set-iterable
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Set requires 'new'"));
    }
    // 2. Let set be ? OrdinaryCreateFromConstructor(NewTarget, "%Set.prototype%", « [[SetData]] »).
    let default = vm.realm.set_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 3. Set set.[[SetData]] to a new empty List.
    let set = vm.heap.alloc_object(Object::new(Some(proto), Class::Set(Box::default())));
    let set_v = Value::object(set);
    let iterable = arg(args, 0);
    // 4. If iterable is either undefined or null, return set.
    if iterable.is_nullish() {
        return Ok(set_v);
    }
    vm.roots.push(set_v);
    // 5. Let adder be ? Get(set, "add").
    let adder = get(vm, set, PropertyKey::Atom(atom::add), set_v)?;
    // 6. If IsCallable(adder) is false, throw a TypeError exception.
    if !is_callable(vm, adder) {
        let shown = describe(vm, adder, Shown::Plain);
        return Err(
            vm.type_error(format!("'{shown}' returned for property 'add' of object '#<Set>' is not a function"))
        );
    }
    vm.roots.push(adder);
    // 7. Let iteratorRecord be ? GetIterator(iterable, sync).
    let mut record = get_iterator_rooted(vm, iterable)?;
    let mark = vm.roots.len();
    // 8. Repeat,
    loop {
        vm.roots.truncate(mark);
        // a. Let next be ? IteratorStepValue(iteratorRecord).
        // b. If next is done, return set.
        let Some(next) = iterator_step_value(vm, &mut record)? else {
            return Ok(set_v);
        };
        vm.roots.push(next);
        // c. Let status be Completion(Call(adder, set, « next »)).
        // d. IfAbruptCloseIterator(status, iteratorRecord).
        if let Err(e) = call(vm, adder, set_v, &[next]) {
            return iterator_close(vm, &record, Err(e));
        }
    }
}

/// ### 24.2.4.1 Set.prototype.add ( value )
/// https://tc39.es/ecma262/#sec-set.prototype.add
fn add(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(S, [[SetData]]).
    let s = require(vm, this, Collection::Set, "Set.prototype.add")?;
    // 3. Set value to CanonicalizeKeyedCollectionKey(value).
    let value = canonicalize_key(arg(args, 0));
    add_to(vm, s, Collection::Set, value)?;
    // 6. Return S.
    Ok(this)
}

/// Append `value` (canonical) to a set's data unless present (Set/WeakSet `add` steps 4-5).
pub(crate) fn add_to(vm: &mut Vm, s: ObjectId, which: Collection, value: Value) -> JsResult<()> {
    let key = key_of(&mut vm.heap, value);
    let mut grown = 0;
    if let Some(d) = data_mut(&mut vm.heap, s, which) {
        // 4. For each element e of S.[[SetData]]: if SameValue(e, value), return S.
        if find(d, &key).is_some() {
            return Ok(());
        }
        // 5. Append value to S.[[SetData]].
        let Some(g) = insert(d, key, value, Value::UNDEFINED) else {
            return Err(vm.range_error("Set maximum size exceeded"));
        };
        grown = g;
    }
    vm.heap.note_growth(grown);
    Ok(())
}

/// ### 24.2.4.2 Set.prototype.clear ( )
/// https://tc39.es/ecma262/#sec-set.prototype.clear
fn clear(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(S, [[SetData]]).
    let s = require(vm, this, Collection::Set, "Set.prototype.clear")?;
    // 3. For each element e of S.[[SetData]], replace it with empty.
    if let Some(d) = data_mut(&mut vm.heap, s, Collection::Set) {
        let n = d.entries.len() as u64;
        crate::builtins::map::clear_data(d);
        vm.charge(n)?;
    }
    // 4. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 24.2.4.4 Set.prototype.delete ( value )
/// https://tc39.es/ecma262/#sec-set.prototype.delete
fn delete(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(S, [[SetData]]).
    let s = require(vm, this, Collection::Set, "Set.prototype.delete")?;
    // 3. Set value to CanonicalizeKeyedCollectionKey(value).
    let key = key_of(&mut vm.heap, arg(args, 0));
    // 4-5. Replace the matching element with empty and return true; else return false.
    let removed = data_mut(&mut vm.heap, s, Collection::Set).is_some_and(|d| remove(d, &key));
    Ok(Value::bool(removed))
}

/// ### 24.2.4.6 Set.prototype.entries ( )
/// https://tc39.es/ecma262/#sec-set.prototype.entries
fn entries(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 2. Return ? CreateSetIterator(S, key+value).
    create_set_iterator(vm, this, 2, "Set.prototype.entries")
}

/// ### 24.2.4.7 Set.prototype.forEach ( callbackfn [ , thisArg ] )
/// https://tc39.es/ecma262/#sec-set.prototype.foreach
fn for_each(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(S, [[SetData]]).
    let s = require(vm, this, Collection::Set, "Set.prototype.forEach")?;
    let (callback, this_arg) = (arg(args, 0), arg(args, 1));
    // 3. If IsCallable(callbackfn) is false, throw a TypeError exception.
    if !is_callable(vm, callback) {
        return Err(not_a_function(vm, callback));
    }
    // 4-7. Repeat, while index < numEntries (re-read each round).
    let mut index = 0;
    while let Some(entry) = entry_at(&vm.heap, s, Collection::Set, index) {
        index += 1;
        vm.charge(1)?;
        // d. If e is not empty, then
        if let Some((e, _)) = entry {
            // i. Perform ? Call(callbackfn, thisArg, « e, e, S »).
            call(vm, callback, this_arg, &[e, e, this])?;
        }
    }
    // 8. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 24.2.4.8 Set.prototype.has ( value )
/// https://tc39.es/ecma262/#sec-set.prototype.has
fn has(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(S, [[SetData]]).
    let s = require(vm, this, Collection::Set, "Set.prototype.has")?;
    // 3-5. Return true if some element is SameValue to the canonical value.
    let key = key_of(&mut vm.heap, arg(args, 0));
    Ok(Value::bool(data(&vm.heap, s, Collection::Set).is_some_and(|d| find(d, &key).is_some())))
}

/// ### 24.2.4.14 get Set.prototype.size
/// https://tc39.es/ecma262/#sec-get-set.prototype.size
fn size(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(S, [[SetData]]).
    let s = require(vm, this, Collection::Set, "get Set.prototype.size")?;
    // 3. Let size be SetDataSize(S.[[SetData]]).
    let live = data(&vm.heap, s, Collection::Set).map_or(0, |d| d.live);
    // 4. Return 𝔽(size).
    Ok(Value::number(live as f64))
}

/// ### 24.2.4.16 Set.prototype.values ( )
/// https://tc39.es/ecma262/#sec-set.prototype.values
fn values(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 2. Return ? CreateSetIterator(S, value).
    create_set_iterator(vm, this, 1, "Set.prototype.values")
}

/// ### 24.2.4.19 Set.prototype.union ( other )
/// https://tc39.es/ecma262/#sec-set.prototype.union
fn union(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(O, [[SetData]]).
    let o = require(vm, this, Collection::Set, "Set.prototype.union")?;
    // 3. Let otherRec be ? GetSetRecord(other).
    let other = get_set_record(vm, arg(args, 0), "Set.prototype.union")?;
    // 4. Let keysIter be ? GetIteratorFromMethod(otherRec.[[SetObject]], otherRec.[[Keys]]).
    let mut keys_iter = keys_iterator(vm, &other)?;
    // 5. Let resultSetData be a copy of O.[[SetData]].
    let result = new_set_from_copy(vm, o)?;
    // 6. Let next be not-started. 7. Repeat, while next is not done,
    let mark = vm.roots.len();
    loop {
        vm.roots.truncate(mark);
        // a. Set next to ? IteratorStepValue(keysIter).
        let Some(next) = iterator_step_value(vm, &mut keys_iter)? else {
            break;
        };
        // b. If next is not done, then
        // i. Set next to CanonicalizeKeyedCollectionKey(next).
        let next = canonicalize_key(next);
        // ii. If SetDataHas(resultSetData, next) is false, append next to resultSetData.
        add_to(vm, result, Collection::Set, next)?;
        vm.check_heap()?;
    }
    // 8-9. Let result be OrdinaryObjectCreate(%Set.prototype%, « [[SetData]] ») holding
    //      resultSetData.
    // 10. Return result.
    Ok(Value::object(result))
}

/// ### 24.2.4.9 Set.prototype.intersection ( other )
/// https://tc39.es/ecma262/#sec-set.prototype.intersection
fn intersection(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(O, [[SetData]]).
    let o = require(vm, this, Collection::Set, "Set.prototype.intersection")?;
    // 3. Let otherRec be ? GetSetRecord(other).
    let other = get_set_record(vm, arg(args, 0), "Set.prototype.intersection")?;
    // 4. Let resultSetData be a new empty List.
    let result = new_set(vm, MapData::default());
    let mark = vm.roots.len();
    // 5. If SetDataSize(O.[[SetData]]) ≤ otherRec.[[Size]], then
    if set_data_size(vm, o) <= other.size {
        // a. Let thisSize be the number of elements in O.[[SetData]].
        // b. Let index be 0.
        let mut index = 0;
        // c. Repeat, while index < thisSize (thisSize re-read each round, step c.iii.4),
        while let Some(entry) = entry_at(&vm.heap, o, Collection::Set, index) {
            vm.roots.truncate(mark);
            // i. Let e be O.[[SetData]][index].
            // ii. Set index to index + 1.
            index += 1;
            vm.charge(1)?;
            // iii. If e is not empty, then
            let Some((e, _)) = entry else { continue };
            vm.roots.push(e);
            // 1. Let inOther be ToBoolean(? Call(otherRec.[[Has]], otherRec.[[SetObject]], « e »)).
            let in_other = call(vm, other.has, other.set_object, &[e])?;
            // 2. If inOther is true, then
            if to_boolean(vm, in_other) {
                // b. If SetDataHas(resultSetData, e) is false, append e to resultSetData.
                add_to(vm, result, Collection::Set, e)?;
            }
        }
    } else {
        // 6. Else,
        // a. Let keysIter be ? GetIteratorFromMethod(otherRec.[[SetObject]], otherRec.[[Keys]]).
        let mut keys_iter = keys_iterator(vm, &other)?;
        let mark = vm.roots.len();
        // b-c. Let next be not-started. Repeat, while next is not done,
        loop {
            vm.roots.truncate(mark);
            // i. Set next to ? IteratorStepValue(keysIter).
            let Some(next) = iterator_step_value(vm, &mut keys_iter)? else {
                break;
            };
            // ii.1. Set next to CanonicalizeKeyedCollectionKey(next).
            let next = canonicalize_key(next);
            // ii.2. Let inThis be SetDataHas(O.[[SetData]], next).
            let key = key_of(&mut vm.heap, next);
            let in_this = data(&vm.heap, o, Collection::Set).is_some_and(|d| find(d, &key).is_some());
            // ii.3. If inThis is true, then append next to resultSetData unless present.
            if in_this {
                add_to(vm, result, Collection::Set, next)?;
            }
        }
    }
    // 7-9. Return a new Set holding resultSetData.
    Ok(Value::object(result))
}

/// ### 24.2.4.5 Set.prototype.difference ( other )
/// https://tc39.es/ecma262/#sec-set.prototype.difference
fn difference(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(O, [[SetData]]).
    let o = require(vm, this, Collection::Set, "Set.prototype.difference")?;
    // 3. Let otherRec be ? GetSetRecord(other).
    let other = get_set_record(vm, arg(args, 0), "Set.prototype.difference")?;
    // 4. Let resultSetData be a copy of O.[[SetData]].
    let result = new_set_from_copy(vm, o)?;
    let mark = vm.roots.len();
    // 5. If SetDataSize(O.[[SetData]]) ≤ otherRec.[[Size]], then
    if set_data_size(vm, o) <= other.size {
        // a. Let thisSize be the number of elements in O.[[SetData]] (the copy's length).
        // b-c. Repeat, while index < thisSize,
        let mut index = 0;
        while let Some(entry) = entry_at(&vm.heap, result, Collection::Set, index) {
            vm.roots.truncate(mark);
            // i. Let e be resultSetData[index].
            index += 1;
            vm.charge(1)?;
            // ii. If e is not empty, then
            let Some((e, _)) = entry else { continue };
            vm.roots.push(e);
            // 1. Let inOther be ToBoolean(? Call(otherRec.[[Has]], otherRec.[[SetObject]], « e »)).
            let in_other = call(vm, other.has, other.set_object, &[e])?;
            // 2. If inOther is true, set resultSetData[index] to empty.
            if to_boolean(vm, in_other) {
                let key = key_of(&mut vm.heap, e);
                if let Some(d) = data_mut(&mut vm.heap, result, Collection::Set) {
                    remove(d, &key);
                }
            }
        }
    } else {
        // 6. Else,
        // a. Let keysIter be ? GetIteratorFromMethod(otherRec.[[SetObject]], otherRec.[[Keys]]).
        let mut keys_iter = keys_iterator(vm, &other)?;
        let mark = vm.roots.len();
        // b-c. Repeat, while next is not done,
        loop {
            vm.roots.truncate(mark);
            // i. Set next to ? IteratorStepValue(keysIter).
            let Some(next) = iterator_step_value(vm, &mut keys_iter)? else {
                break;
            };
            // ii.1. Set next to CanonicalizeKeyedCollectionKey(next).
            // ii.2-3. Let valueIndex be SetDataIndex(resultSetData, next); if found, set
            //         resultSetData[valueIndex] to empty.
            let key = key_of(&mut vm.heap, canonicalize_key(next));
            if let Some(d) = data_mut(&mut vm.heap, result, Collection::Set) {
                remove(d, &key);
            }
        }
    }
    // 7-9. Return a new Set holding resultSetData.
    Ok(Value::object(result))
}

/// ### 24.2.4.13 Set.prototype.symmetricDifference ( other )
/// https://tc39.es/ecma262/#sec-set.prototype.symmetricdifference
fn symmetric_difference(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(O, [[SetData]]).
    let o = require(vm, this, Collection::Set, "Set.prototype.symmetricDifference")?;
    // 3. Let otherRec be ? GetSetRecord(other).
    let other = get_set_record(vm, arg(args, 0), "Set.prototype.symmetricDifference")?;
    // 4. Let keysIter be ? GetIteratorFromMethod(otherRec.[[SetObject]], otherRec.[[Keys]]).
    let mut keys_iter = keys_iterator(vm, &other)?;
    // 5. Let resultSetData be a copy of O.[[SetData]].
    let result = new_set_from_copy(vm, o)?;
    let mark = vm.roots.len();
    // 6-7. Let next be not-started. Repeat, while next is not done,
    loop {
        vm.roots.truncate(mark);
        // a. Set next to ? IteratorStepValue(keysIter).
        let Some(next) = iterator_step_value(vm, &mut keys_iter)? else {
            break;
        };
        // b.i. Set next to CanonicalizeKeyedCollectionKey(next).
        let next = canonicalize_key(next);
        let key = key_of(&mut vm.heap, next);
        // b.ii-iv. Let resultIndex be SetDataIndex(resultSetData, next); alreadyInResult.
        let already_in_result = data(&vm.heap, result, Collection::Set).is_some_and(|d| find(d, &key).is_some());
        // b.v. If SetDataHas(O.[[SetData]], next) is true, then
        let in_this = data(&vm.heap, o, Collection::Set).is_some_and(|d| find(d, &key).is_some());
        if in_this {
            // 1. If alreadyInResult is true, set resultSetData[resultIndex] to empty.
            if already_in_result {
                if let Some(d) = data_mut(&mut vm.heap, result, Collection::Set) {
                    remove(d, &key);
                }
            }
        } else if !already_in_result {
            // b.vi. Else, if alreadyInResult is false, append next to resultSetData.
            let mut grown = 0;
            if let Some(d) = data_mut(&mut vm.heap, result, Collection::Set) {
                let Some(g) = insert(d, key, next, Value::UNDEFINED) else {
                    return Err(vm.range_error("Set maximum size exceeded"));
                };
                grown = g;
            }
            vm.heap.note_growth(grown);
            vm.check_heap()?;
        }
    }
    // 8-10. Return a new Set holding resultSetData.
    Ok(Value::object(result))
}

/// ### 24.2.4.11 Set.prototype.isSubsetOf ( other )
/// https://tc39.es/ecma262/#sec-set.prototype.issubsetof
fn is_subset_of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(O, [[SetData]]).
    let o = require(vm, this, Collection::Set, "Set.prototype.isSubsetOf")?;
    // 3. Let otherRec be ? GetSetRecord(other).
    let other = get_set_record(vm, arg(args, 0), "Set.prototype.isSubsetOf")?;
    // 4. If SetDataSize(O.[[SetData]]) > otherRec.[[Size]], return false.
    if set_data_size(vm, o) > other.size {
        return Ok(Value::FALSE);
    }
    // 5-7. Repeat, while index < thisSize (re-read each round),
    let mark = vm.roots.len();
    let mut index = 0;
    while let Some(entry) = entry_at(&vm.heap, o, Collection::Set, index) {
        vm.roots.truncate(mark);
        // a. Let e be O.[[SetData]][index]. b. Set index to index + 1.
        index += 1;
        vm.charge(1)?;
        // c. If e is not empty, then
        let Some((e, _)) = entry else { continue };
        vm.roots.push(e);
        // i. Let inOther be ToBoolean(? Call(otherRec.[[Has]], otherRec.[[SetObject]], « e »)).
        let in_other = call(vm, other.has, other.set_object, &[e])?;
        // ii. If inOther is false, return false.
        if !to_boolean(vm, in_other) {
            return Ok(Value::FALSE);
        }
    }
    // 8. Return true.
    Ok(Value::TRUE)
}

/// ### 24.2.4.12 Set.prototype.isSupersetOf ( other )
/// https://tc39.es/ecma262/#sec-set.prototype.issupersetof
fn is_superset_of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(O, [[SetData]]).
    let o = require(vm, this, Collection::Set, "Set.prototype.isSupersetOf")?;
    // 3. Let otherRec be ? GetSetRecord(other).
    let other = get_set_record(vm, arg(args, 0), "Set.prototype.isSupersetOf")?;
    // 4. If SetDataSize(O.[[SetData]]) < otherRec.[[Size]], return false.
    if set_data_size(vm, o) < other.size {
        return Ok(Value::FALSE);
    }
    // 5. Let keysIter be ? GetIteratorFromMethod(otherRec.[[SetObject]], otherRec.[[Keys]]).
    let mut keys_iter = keys_iterator(vm, &other)?;
    let mark = vm.roots.len();
    // 6-7. Repeat, while next is not done,
    loop {
        vm.roots.truncate(mark);
        // a. Set next to ? IteratorStepValue(keysIter).
        let Some(next) = iterator_step_value(vm, &mut keys_iter)? else {
            break;
        };
        // b. If next is not done, then
        // i. If SetDataHas(O.[[SetData]], next) is false, then
        let key = key_of(&mut vm.heap, next);
        if data(&vm.heap, o, Collection::Set).is_none_or(|d| find(d, &key).is_none()) {
            // 1. Perform ? IteratorClose(keysIter, NormalCompletion(unused)).
            iterator_close(vm, &keys_iter, Ok(Value::UNDEFINED))?;
            // 2. Return false.
            return Ok(Value::FALSE);
        }
    }
    // 8. Return true.
    Ok(Value::TRUE)
}

/// ### 24.2.4.10 Set.prototype.isDisjointFrom ( other )
/// https://tc39.es/ecma262/#sec-set.prototype.isdisjointfrom
fn is_disjoint_from(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(O, [[SetData]]).
    let o = require(vm, this, Collection::Set, "Set.prototype.isDisjointFrom")?;
    // 3. Let otherRec be ? GetSetRecord(other).
    let other = get_set_record(vm, arg(args, 0), "Set.prototype.isDisjointFrom")?;
    let mark = vm.roots.len();
    // 4. If SetDataSize(O.[[SetData]]) ≤ otherRec.[[Size]], then
    if set_data_size(vm, o) <= other.size {
        // a-c. Repeat, while index < thisSize (re-read each round),
        let mut index = 0;
        while let Some(entry) = entry_at(&vm.heap, o, Collection::Set, index) {
            vm.roots.truncate(mark);
            index += 1;
            vm.charge(1)?;
            // iii. If e is not empty, then
            let Some((e, _)) = entry else { continue };
            vm.roots.push(e);
            // 1. Let inOther be ToBoolean(? Call(otherRec.[[Has]], otherRec.[[SetObject]], « e »)).
            let in_other = call(vm, other.has, other.set_object, &[e])?;
            // 2. If inOther is true, return false.
            if to_boolean(vm, in_other) {
                return Ok(Value::FALSE);
            }
        }
    } else {
        // 5. Else,
        // a. Let keysIter be ? GetIteratorFromMethod(otherRec.[[SetObject]], otherRec.[[Keys]]).
        let mut keys_iter = keys_iterator(vm, &other)?;
        let mark = vm.roots.len();
        // b-c. Repeat, while next is not done,
        loop {
            vm.roots.truncate(mark);
            // i. Set next to ? IteratorStepValue(keysIter).
            let Some(next) = iterator_step_value(vm, &mut keys_iter)? else {
                break;
            };
            // ii.1. If SetDataHas(O.[[SetData]], next) is true, then
            let key = key_of(&mut vm.heap, next);
            if data(&vm.heap, o, Collection::Set).is_some_and(|d| find(d, &key).is_some()) {
                // a. Perform ? IteratorClose(keysIter, NormalCompletion(unused)).
                iterator_close(vm, &keys_iter, Ok(Value::UNDEFINED))?;
                // b. Return false.
                return Ok(Value::FALSE);
            }
        }
    }
    // 6. Return true.
    Ok(Value::TRUE)
}

/// ### 24.2.5.1 CreateSetIterator ( set, kind )
/// https://tc39.es/ecma262/#sec-createsetiterator
fn create_set_iterator(vm: &mut Vm, set: Value, kind: u8, method: &str) -> JsResult<Value> {
    // 1. Perform ? RequireInternalSlot(set, [[SetData]]).
    let target = require(vm, set, Collection::Set, method)?;
    // 2-3. The closure's state lives in the iterator object.
    let proto = vm.realm.set_iterator_prototype;
    let state = IteratorState::SetIter { target, index: 0, kind, done: false };
    let it = vm.heap.alloc_object(Object::new(Some(proto), Class::Iterator(Box::new(state))));
    Ok(Value::object(it))
}

/// ### 24.2.5.2.1 %SetIteratorPrototype%.next ( )
/// https://tc39.es/ecma262/#sec-%setiteratorprototype%.next
fn set_iterator_next(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return ? GeneratorResume(this value, empty, "%SetIteratorPrototype%").
    collection_iterator_next(vm, this, Collection::Set, "Set Iterator.prototype.next")
}

// ---- Set records (§24.2.1)

/// A Set Record (§24.2.1.1).
struct SetRecord {
    set_object: Value,
    /// May be +∞.
    size: f64,
    has: Value,
    keys: Value,
}

/// ### 24.2.1.2 GetSetRecord ( obj )
/// https://tc39.es/ecma262/#sec-getsetrecord
///
/// The record's values are pushed on `vm.roots`.
fn get_set_record(vm: &mut Vm, obj: Value, method: &str) -> JsResult<SetRecord> {
    // 1. If obj is not an Object, throw a TypeError exception.
    let Some(o) = obj.as_object() else {
        return Err(vm.type_error(format!("{method} argument must be an object")));
    };
    vm.roots.push(obj);
    // 2. Let rawSize be ? Get(obj, "size").
    let raw_size = get(vm, o, PropertyKey::Atom(atom::size), obj)?;
    // 3. Let numSize be ? ToNumber(rawSize).
    // NOTE: If rawSize is undefined, then numSize will be NaN.
    let num_size = to_number(vm, raw_size)?;
    // 4. If numSize is NaN, throw a TypeError exception.
    if num_size.is_nan() {
        return Err(vm.type_error("The .size property is NaN"));
    }
    // 5. Let intSize be ! ToIntegerOrInfinity(numSize).
    let int_size = to_integer_or_infinity(vm, Value::number(num_size))?;
    // 6. If intSize < 0, throw a RangeError exception.
    if int_size < 0.0 {
        let shown = describe(vm, Value::number(int_size), Shown::Plain);
        return Err(vm.range_error(format!("'{shown}' is an invalid size")));
    }
    // 7. Let has be ? Get(obj, "has").
    let has = get(vm, o, PropertyKey::Atom(atom::has), obj)?;
    // 8. If IsCallable(has) is false, throw a TypeError exception.
    if !is_callable(vm, has) {
        return Err(vm.type_error("string \"has\" is not a function"));
    }
    vm.roots.push(has);
    // 9. Let keys be ? Get(obj, "keys").
    let keys = get(vm, o, PropertyKey::Atom(atom::keys), obj)?;
    // 10. If IsCallable(keys) is false, throw a TypeError exception.
    if !is_callable(vm, keys) {
        return Err(vm.type_error("string \"keys\" is not a function"));
    }
    vm.roots.push(keys);
    // 11. Return a new Set Record { [[SetObject]]: obj, [[Size]]: intSize, [[Has]]: has, [[Keys]]: keys }.
    Ok(SetRecord { set_object: obj, size: int_size, has, keys })
}

/// GetIteratorFromMethod(otherRec.[[SetObject]], otherRec.[[Keys]]) (§7.4.2), with V8's
/// message for a `keys` result that is not an object.
fn keys_iterator(vm: &mut Vm, other: &SetRecord) -> JsResult<IteratorRecord> {
    get_iterator_from_method(vm, other.set_object, other.keys, "keys")
}

/// SetDataSize(O.[[SetData]]) (§24.2.1.5) as a number.
fn set_data_size(vm: &Vm, o: ObjectId) -> f64 {
    data(&vm.heap, o, Collection::Set).map_or(0.0, |d| d.live as f64)
}

/// A new %Set.prototype% object holding `data` (its creation is not observable), rooted.
fn new_set(vm: &mut Vm, data: MapData) -> ObjectId {
    let proto = vm.realm.set_prototype;
    let s = vm.heap.alloc_object(Object::new(Some(proto), Class::Set(Box::new(data))));
    vm.roots.push(Value::object(s));
    s
}

/// A new rooted Set holding a copy of O.[[SetData]] (the result of union, difference, …,
/// built in place so every element stays reachable while user code runs).
fn new_set_from_copy(vm: &mut Vm, o: ObjectId) -> JsResult<ObjectId> {
    let source = data(&vm.heap, o, Collection::Set).cloned().unwrap_or_default();
    vm.charge(source.entries.len() as u64)?;
    let copy = copy_data(&mut vm.heap, &source);
    let s = new_set(vm, copy);
    vm.check_heap()?;
    Ok(s)
}
