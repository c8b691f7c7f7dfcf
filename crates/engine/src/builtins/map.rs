//! The Map object (ECMA-262 §24.1): https://tc39.es/ecma262/#sec-map-objects
//!
//! Also home of the keyed-collection data operations that Set, WeakMap and WeakSet reuse:
//! [`MapData`] is an insertion-ordered list of entries with tombstones (so a live iterator
//! keeps its position across deletions, as the spec's "set to empty" requires) plus a hash
//! index by [`MapKey`], the SameValueZero identity of a key. The Map upsert proposal
//! (`getOrInsert`, `getOrInsertComputed`): https://tc39.es/proposal-upsert/
//!
//! NOTE: the index keys objects and symbols by handle bits, so anything that renumbers
//! handles (image canonicalisation) must call [`rebuild_index`] on every keyed collection.
//!
//! Emptied entries are dropped by [`compact_collections`], which the collector calls: only
//! it sees every live Map/Set iterator, whose positions it moves along with the entries.
//! Between collections a map used as a queue (add at the back, delete at the front) grows
//! its entry list by one slot per insertion.

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{Class, IteratorState, MapData, MapKey, Object};
use crate::heap::shape::PropFlags;
use crate::heap::Heap;
use crate::native;
use crate::runtime::call::{call, is_callable, prototype_from_constructor};
use crate::runtime::describe::{describe, not_a_function, Shown};
use crate::runtime::iterator::{create_iter_result_object, get_iterator_rooted, iterator_close, iterator_step_value};
use crate::runtime::property::get;
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Map", 0, constructor),
    native!("Map.groupBy", 2, group_by),
    native!("get Map[Symbol.species]", 0, species),
    native!("Map.prototype.get", 1, get_method_impl),
    native!("Map.prototype.set", 2, set),
    native!("Map.prototype.has", 1, has),
    native!("Map.prototype.delete", 1, delete),
    native!("Map.prototype.clear", 0, clear),
    native!("Map.prototype.entries", 0, entries),
    native!("Map.prototype.forEach", 1, for_each),
    native!("Map.prototype.keys", 0, keys),
    native!("get Map.prototype.size", 0, size),
    native!("Map.prototype.values", 0, values),
    native!("Map.prototype.getOrInsert", 2, get_or_insert),
    native!("Map.prototype.getOrInsertComputed", 2, get_or_insert_computed),
    native!("%MapIteratorPrototype%.next", 0, map_iterator_next),
];

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.map_prototype;
    let ctor = make_constructor(vm, "Map", "Map", proto);
    install(vm, proto, "Map.prototype", NATIVES);
    install(vm, ctor, "Map", NATIVES);
    // 24.1.3.14 Map.prototype [ %Symbol.toStringTag% ]
    define_to_string_tag(vm, proto, "Map");
    // 24.1.3.13 Map.prototype [ %Symbol.iterator% ]: the same function object as `entries`.
    let iterator = PropertyKey::Symbol(vm.symbols.iterator);
    let entries_key = vm.key("entries");
    alias_property(vm, proto, entries_key, iterator);

    // 24.1.5.2 The %MapIteratorPrototype% Object
    let iter_proto = vm.realm.map_iterator_prototype;
    let iterator_prototype = vm.realm.iterator_prototype;
    vm.heap.obj_mut(iter_proto).proto = Some(iterator_prototype);
    install(vm, iter_proto, "%MapIteratorPrototype%", NATIVES);
    define_to_string_tag(vm, iter_proto, "Map Iterator");
}

/// ### 24.1.1.1 Map ( [ iterable ] )
/// https://tc39.es/ecma262/#sec-map-iterable
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor Map requires 'new'"));
    }
    // 2. Let map be ? OrdinaryCreateFromConstructor(NewTarget, "%Map.prototype%", « [[MapData]] »).
    let default = vm.realm.map_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 3. Set map.[[MapData]] to a new empty List.
    let map = vm.heap.alloc_object(Object::new(Some(proto), Class::Map(Box::default())));
    let map_v = Value::object(map);
    let iterable = arg(args, 0);
    // 4. If iterable is either undefined or null, return map.
    if iterable.is_nullish() {
        return Ok(map_v);
    }
    vm.roots.push(map_v);
    // 5. Let adder be ? Get(map, "set").
    let adder = get(vm, map, PropertyKey::Atom(atom::set), map_v)?;
    // 6. If IsCallable(adder) is false, throw a TypeError exception.
    if !is_callable(vm, adder) {
        let shown = describe(vm, adder, Shown::Plain);
        return Err(
            vm.type_error(format!("'{shown}' returned for property 'set' of object '#<Map>' is not a function"))
        );
    }
    vm.roots.push(adder);
    // 7. Return ? AddEntriesFromIterable(map, iterable, adder).
    add_entries_from_iterable(vm, map_v, iterable, adder)
}

/// ### 24.1.1.2 AddEntriesFromIterable ( target, iterable, adder )
/// https://tc39.es/ecma262/#sec-add-entries-from-iterable
///
/// Shared with the WeakMap constructor.
pub(crate) fn add_entries_from_iterable(vm: &mut Vm, target: Value, iterable: Value, adder: Value) -> JsResult<Value> {
    // 1. Let iteratorRecord be ? GetIterator(iterable, sync).
    let mut record = get_iterator_rooted(vm, iterable)?;
    let mark = vm.roots.len();
    // 2. Repeat,
    loop {
        vm.roots.truncate(mark);
        // a. Let next be ? IteratorStepValue(iteratorRecord).
        // b. If next is done, return target.
        let Some(next) = iterator_step_value(vm, &mut record)? else {
            return Ok(target);
        };
        // c. If next is not an Object, then
        let Some(next_obj) = next.as_object() else {
            // i. Let error be ThrowCompletion(a newly created TypeError object).
            let shown = describe(vm, next, Shown::Plain);
            let error = vm.type_error(format!("Iterator value {shown} is not an entry object"));
            // ii. Return ? IteratorClose(iteratorRecord, error).
            return iterator_close(vm, &record, Err(error));
        };
        vm.roots.push(next);
        // d. Let k be Completion(Get(next, "0")).
        // e. IfAbruptCloseIterator(k, iteratorRecord).
        let k = match get(vm, next_obj, PropertyKey::Index(0), next) {
            Ok(k) => k,
            Err(e) => return iterator_close(vm, &record, Err(e)),
        };
        vm.roots.push(k);
        // f. Let v be Completion(Get(next, "1")).
        // g. IfAbruptCloseIterator(v, iteratorRecord).
        let v = match get(vm, next_obj, PropertyKey::Index(1), next) {
            Ok(v) => v,
            Err(e) => return iterator_close(vm, &record, Err(e)),
        };
        vm.roots.push(v);
        // h. Let status be Completion(Call(adder, target, « k, v »)).
        // i. IfAbruptCloseIterator(status, iteratorRecord).
        if let Err(e) = call(vm, adder, target, &[k, v]) {
            return iterator_close(vm, &record, Err(e));
        }
    }
}

/// ### 24.1.2.1 Map.groupBy ( items, callback )
/// https://tc39.es/ecma262/#sec-map.groupby
fn group_by(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (items, callback) = (arg(args, 0), arg(args, 1));
    // 1. Let groups be ? GroupBy(items, callback, zero).
    // 2. Let map be ! Construct(%Map%).
    // NOTE: the groups are collected straight into the result map (its creation is not
    // observable), which also keeps every grouped value reachable while callbacks run.
    let proto = vm.realm.map_prototype;
    let map = vm.heap.alloc_object(Object::new(Some(proto), Class::Map(Box::default())));
    vm.roots.push(Value::object(map));
    // GroupBy 1. Perform ? RequireObjectCoercible(items).
    if items.is_nullish() {
        return Err(vm.type_error("Map.groupBy called on null or undefined"));
    }
    // GroupBy 2. If IsCallable(callback) is false, throw a TypeError exception.
    if !is_callable(vm, callback) {
        return Err(not_a_function(vm, callback));
    }
    // GroupBy 4. Let iteratorRecord be ? GetIterator(items, sync).
    let mut record = get_iterator_rooted(vm, items)?;
    let mark = vm.roots.len();
    // GroupBy 5. Let k be 0.
    let mut k: u64 = 0;
    // GroupBy 6. Repeat,
    loop {
        vm.roots.truncate(mark);
        // a. If k ≥ 2**53 - 1, then throw (via IteratorClose) a TypeError.
        if k >= (1u64 << 53) - 1 {
            let error = vm.type_error("Too many elements to group");
            return iterator_close(vm, &record, Err(error));
        }
        // b. Let next be ? IteratorStepValue(iteratorRecord).
        // c. If next is done, then return groups.
        let Some(value) = iterator_step_value(vm, &mut record)? else {
            break;
        };
        vm.roots.push(value);
        // e. Let key be Completion(Call(callback, undefined, « value, 𝔽(k) »)).
        // f. IfAbruptCloseIterator(key, iteratorRecord).
        let key = match call(vm, callback, Value::UNDEFINED, &[value, Value::number(k as f64)]) {
            Ok(key) => key,
            Err(e) => return iterator_close(vm, &record, Err(e)),
        };
        // h. Else (keyCoercion is zero): if key is -0𝔽, set key to +0𝔽.
        let key = canonicalize_key(key);
        // i. Perform AddValueToKeyedGroup(groups, key, value).
        let map_key = key_of(&mut vm.heap, key);
        let group = data(&vm.heap, map, Collection::Map).and_then(|d| lookup(d, &map_key));
        match group.and_then(Value::as_object) {
            Some(elements) => {
                let obj = vm.heap.obj_mut(elements);
                let len = obj.elements.len();
                obj.elements.push(value);
                if let Class::Array(a) = &mut obj.class {
                    a.length = u32::try_from(len + 1).unwrap_or(u32::MAX);
                }
                vm.heap.note_growth(crate::heap::ELEMENT_BYTES);
            }
            None => {
                let elements = vm.new_array(vec![value]);
                let mut grown = 0;
                if let Some(d) = data_mut(&mut vm.heap, map, Collection::Map) {
                    let Some(g) = insert(d, map_key, key, elements) else {
                        return Err(vm.range_error("Map maximum size exceeded"));
                    };
                    grown = g;
                }
                vm.heap.note_growth(grown);
            }
        }
        vm.check_heap()?;
        // j. Set k to k + 1.
        k += 1;
    }
    // 3. For each Record { [[Key]], [[Elements]] } g of groups, append to map.[[MapData]].
    // 4. Return map.
    Ok(Value::object(map))
}

/// ### 24.1.2.2 get Map [ %Symbol.species% ]
/// https://tc39.es/ecma262/#sec-get-map-%symbol.species%
///
/// Shared by Set and Promise: returns the this value.
pub(crate) fn species(_vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return the this value.
    Ok(this)
}

/// ### 24.1.3.1 Map.prototype.clear ( )
/// https://tc39.es/ecma262/#sec-map.prototype.clear
fn clear(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Let M be the this value. Perform ? RequireInternalSlot(M, [[MapData]]).
    let m = require(vm, this, Collection::Map, "Map.prototype.clear")?;
    // 3. For each Record { [[Key]], [[Value]] } p of M.[[MapData]], set both to empty.
    if let Some(d) = data_mut(&mut vm.heap, m, Collection::Map) {
        let n = d.entries.len() as u64;
        clear_data(d);
        vm.charge(n)?;
    }
    // 4. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 24.1.3.3 Map.prototype.delete ( key )
/// https://tc39.es/ecma262/#sec-map.prototype.delete
fn delete(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[MapData]]).
    let m = require(vm, this, Collection::Map, "Map.prototype.delete")?;
    // 3. Set key to CanonicalizeKeyedCollectionKey(key).
    let key = key_of(&mut vm.heap, arg(args, 0));
    // 4. For each Record p of M.[[MapData]]: if p.[[Key]] is not empty and
    //    SameValue(p.[[Key]], key) is true, set both to empty and return true.
    // 5. Return false.
    let removed = data_mut(&mut vm.heap, m, Collection::Map).is_some_and(|d| remove(d, &key));
    Ok(Value::bool(removed))
}

/// ### 24.1.3.4 Map.prototype.entries ( )
/// https://tc39.es/ecma262/#sec-map.prototype.entries
fn entries(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let M be the this value.
    // 2. Return ? CreateMapIterator(M, key+value).
    create_map_iterator(vm, this, 2, "Map.prototype.entries")
}

/// ### 24.1.3.5 Map.prototype.forEach ( callbackfn [ , thisArg ] )
/// https://tc39.es/ecma262/#sec-map.prototype.foreach
fn for_each(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[MapData]]).
    let m = require(vm, this, Collection::Map, "Map.prototype.forEach")?;
    let (callback, this_arg) = (arg(args, 0), arg(args, 1));
    // 3. If IsCallable(callbackfn) is false, throw a TypeError exception.
    if !is_callable(vm, callback) {
        return Err(not_a_function(vm, callback));
    }
    // 4-7. Let entries be M.[[MapData]]; repeat while index < numEntries (re-read each
    //      round: the callback may add entries, which are visited).
    let mut index = 0;
    while let Some(entry) = entry_at(&vm.heap, m, Collection::Map, index) {
        index += 1;
        vm.charge(1)?;
        // d. If e.[[Key]] is not empty, then
        if let Some((k, v)) = entry {
            // i. Perform ? Call(callbackfn, thisArg, « e.[[Value]], e.[[Key]], M »).
            call(vm, callback, this_arg, &[v, k, this])?;
        }
    }
    // 8. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 24.1.3.6 Map.prototype.get ( key )
/// https://tc39.es/ecma262/#sec-map.prototype.get
fn get_method_impl(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[MapData]]).
    let m = require(vm, this, Collection::Map, "Map.prototype.get")?;
    // 3. Set key to CanonicalizeKeyedCollectionKey(key).
    let key = key_of(&mut vm.heap, arg(args, 0));
    // 4. For each Record p: if SameValue(p.[[Key]], key) is true, return p.[[Value]].
    // 5. Return undefined.
    Ok(data(&vm.heap, m, Collection::Map).and_then(|d| lookup(d, &key)).unwrap_or(Value::UNDEFINED))
}

/// ### 24.1.3.7 Map.prototype.has ( key )
/// https://tc39.es/ecma262/#sec-map.prototype.has
fn has(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[MapData]]).
    let m = require(vm, this, Collection::Map, "Map.prototype.has")?;
    // 3. Set key to CanonicalizeKeyedCollectionKey(key).
    let key = key_of(&mut vm.heap, arg(args, 0));
    // 4-5. Return true if an entry's key is SameValue to key, else false.
    Ok(Value::bool(data(&vm.heap, m, Collection::Map).is_some_and(|d| find(d, &key).is_some())))
}

/// ### 24.1.3.8 Map.prototype.keys ( )
/// https://tc39.es/ecma262/#sec-map.prototype.keys
fn keys(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 2. Return ? CreateMapIterator(M, key).
    create_map_iterator(vm, this, 0, "Map.prototype.keys")
}

/// ### 24.1.3.9 Map.prototype.set ( key, value )
/// https://tc39.es/ecma262/#sec-map.prototype.set
fn set(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[MapData]]).
    let m = require(vm, this, Collection::Map, "Map.prototype.set")?;
    // 3. Set key to CanonicalizeKeyedCollectionKey(key).
    let k = canonicalize_key(arg(args, 0));
    let key = key_of(&mut vm.heap, k);
    // 4. For each Record p: if SameValue(p.[[Key]], key), set p.[[Value]] to value; return M.
    // 5-6. Append the Record { [[Key]]: key, [[Value]]: value } to M.[[MapData]].
    let mut grown = 0;
    if let Some(d) = data_mut(&mut vm.heap, m, Collection::Map) {
        let Some(g) = insert(d, key, k, arg(args, 1)) else {
            return Err(vm.range_error("Map maximum size exceeded"));
        };
        grown = g;
    }
    vm.heap.note_growth(grown);
    // 7. Return M.
    Ok(this)
}

/// ### 24.1.3.10 get Map.prototype.size
/// https://tc39.es/ecma262/#sec-get-map.prototype.size
fn size(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[MapData]]).
    let m = require(vm, this, Collection::Map, "get Map.prototype.size")?;
    // 3-5. Count the entries whose key is not empty.
    let live = data(&vm.heap, m, Collection::Map).map_or(0, |d| d.live);
    Ok(Value::number(live as f64))
}

/// ### 24.1.3.11 Map.prototype.values ( )
/// https://tc39.es/ecma262/#sec-map.prototype.values
fn values(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 2. Return ? CreateMapIterator(M, value).
    create_map_iterator(vm, this, 1, "Map.prototype.values")
}

/// ### Map.prototype.getOrInsert ( key, value )
/// https://tc39.es/proposal-upsert/#sec-map.prototype.getOrInsert
fn get_or_insert(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[MapData]]).
    let m = require(vm, this, Collection::Map, "Map.prototype.getOrInsert")?;
    // 3. Set key to CanonicalizeKeyedCollectionKey(key).
    let k = canonicalize_key(arg(args, 0));
    let value = arg(args, 1);
    get_or_insert_data(vm, m, Collection::Map, k, value)
}

/// ### Map.prototype.getOrInsertComputed ( key, callbackfn )
/// https://tc39.es/proposal-upsert/#sec-map.prototype.getOrInsertComputed
fn get_or_insert_computed(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[MapData]]).
    let m = require(vm, this, Collection::Map, "Map.prototype.getOrInsertComputed")?;
    let callback = arg(args, 1);
    // 3. If IsCallable(callbackfn) is false, throw a TypeError exception.
    if !is_callable(vm, callback) {
        return Err(not_a_function(vm, callback));
    }
    // 4. Set key to CanonicalizeKeyedCollectionKey(key).
    let k = canonicalize_key(arg(args, 0));
    get_or_insert_computed_data(vm, m, Collection::Map, k, callback)
}

/// The common tail of Map/WeakMap `getOrInsert` (key already canonical and checked).
pub(crate) fn get_or_insert_data(
    vm: &mut Vm,
    m: ObjectId,
    which: Collection,
    k: Value,
    value: Value,
) -> JsResult<Value> {
    let key = key_of(&mut vm.heap, k);
    // For each Record p of M.[[MapData]]: if SameValue(p.[[Key]], key), return p.[[Value]].
    if let Some(existing) = data(&vm.heap, m, which).and_then(|d| lookup(d, &key)) {
        return Ok(existing);
    }
    // Append the Record { [[Key]]: key, [[Value]]: value } to M.[[MapData]].
    let mut grown = 0;
    if let Some(d) = data_mut(&mut vm.heap, m, which) {
        let Some(g) = insert(d, key, k, value) else {
            return Err(vm.range_error("Map maximum size exceeded"));
        };
        grown = g;
    }
    vm.heap.note_growth(grown);
    // Return value.
    Ok(value)
}

/// The common tail of Map/WeakMap `getOrInsertComputed` (key canonical, callback checked).
pub(crate) fn get_or_insert_computed_data(
    vm: &mut Vm,
    m: ObjectId,
    which: Collection,
    k: Value,
    callback: Value,
) -> JsResult<Value> {
    let key = key_of(&mut vm.heap, k);
    // For each Record p: if SameValue(p.[[Key]], key) is true, return p.[[Value]].
    if let Some(existing) = data(&vm.heap, m, which).and_then(|d| lookup(d, &key)) {
        return Ok(existing);
    }
    // Let value be ? Call(callbackfn, undefined, « key »).
    vm.roots.push(k);
    let value = call(vm, callback, Value::UNDEFINED, &[k])?;
    // NOTE: The Map may have been modified during execution of callbackfn.
    // For each Record p: if SameValue(p.[[Key]], key), set p.[[Value]] to value, return value.
    // Append the Record { [[Key]]: key, [[Value]]: value } to M.[[MapData]].
    let mut grown = 0;
    if let Some(d) = data_mut(&mut vm.heap, m, which) {
        let Some(g) = insert(d, key, k, value) else {
            return Err(vm.range_error("Map maximum size exceeded"));
        };
        grown = g;
    }
    vm.heap.note_growth(grown);
    // Return value.
    Ok(value)
}

/// ### 24.1.5.1 CreateMapIterator ( map, kind )
/// https://tc39.es/ecma262/#sec-createmapiterator
fn create_map_iterator(vm: &mut Vm, map: Value, kind: u8, method: &str) -> JsResult<Value> {
    // 1. Perform ? RequireInternalSlot(map, [[MapData]]).
    let target = require(vm, map, Collection::Map, method)?;
    // 2-3. The closure's state lives in the iterator object (index into the entry list).
    let proto = vm.realm.map_iterator_prototype;
    let state = IteratorState::MapIter { target, index: 0, kind, done: false };
    let it = vm.heap.alloc_object(Object::new(Some(proto), Class::Iterator(Box::new(state))));
    Ok(Value::object(it))
}

/// ### 24.1.5.2.1 %MapIteratorPrototype%.next ( )
/// https://tc39.es/ecma262/#sec-%mapiteratorprototype%.next
fn map_iterator_next(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return ? GeneratorResume(this value, empty, "%MapIteratorPrototype%").
    collection_iterator_next(vm, this, Collection::Map, "Map Iterator.prototype.next")
}

/// The body of the Map and Set iterator closures (§24.1.5.1 step 2, §24.2.6.1 step 2),
/// run one step: find the next live entry at or after the saved index.
pub(crate) fn collection_iterator_next(vm: &mut Vm, this: Value, which: Collection, method: &str) -> JsResult<Value> {
    let state = this.as_object().and_then(|o| match &vm.heap.obj(o).class {
        Class::Iterator(it) => match **it {
            IteratorState::MapIter { target, index, kind, done } if which == Collection::Map => {
                Some((o, target, index, kind, done))
            }
            IteratorState::SetIter { target, index, kind, done } if which == Collection::Set => {
                Some((o, target, index, kind, done))
            }
            _ => None,
        },
        _ => None,
    });
    let Some((it, target, index, kind, done)) = state else {
        let shown = describe(vm, this, Shown::Plain);
        return Err(vm.type_error(format!("Method {method} called on incompatible receiver {shown}")));
    };
    if done {
        return Ok(create_iter_result_object(vm, Value::UNDEFINED, true));
    }
    // c. Repeat, while index < numEntries: skip emptied entries.
    let mut i = index as usize;
    let mut found = None;
    let mut scanned = 0u64;
    if let Some(d) = data(&vm.heap, target, which) {
        // Positions before the head are tombstones (MapData::head).
        i = i.max(d.head as usize);
        while let Some(entry) = d.entries.get(i) {
            i += 1;
            scanned += 1;
            if let Some(e) = entry {
                found = Some(*e);
                break;
            }
        }
    }
    vm.charge(scanned)?;
    let new_index = u32::try_from(i).unwrap_or(u32::MAX);
    let finished = found.is_none();
    if let Class::Iterator(st) = &mut vm.heap.obj_mut(it).class {
        match &mut **st {
            IteratorState::MapIter { index, done, .. } | IteratorState::SetIter { index, done, .. } => {
                *index = new_index;
                *done = finished;
            }
            _ => {}
        }
    }
    // d. Return undefined (the generator completes: { value: undefined, done: true }).
    let Some((k, v)) = found else {
        return Ok(create_iter_result_object(vm, Value::UNDEFINED, true));
    };
    // iii. If kind is key, let result be e.[[Key]]; if value, e.[[Value]]; else
    //      CreateArrayFromList(« e.[[Key]], e.[[Value]] »). Set entries yield [e, e].
    let result = match (which, kind) {
        (_, 0) => k,
        (Collection::Set, 1) => k,
        (_, 1) => v,
        (Collection::Set, _) => vm.new_array(vec![k, k]),
        (_, _) => vm.new_array(vec![k, v]),
    };
    Ok(create_iter_result_object(vm, result, false))
}

// ---- Keyed-collection data operations (shared by Map, Set, WeakMap, WeakSet)

/// Which keyed collection an object's [[MapData]]/[[SetData]]/… slot belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Collection {
    Map,
    Set,
    WeakMap,
    WeakSet,
}

/// The collection data of `o` if it has the internal slot of `which`.
pub(crate) fn data(heap: &Heap, o: ObjectId, which: Collection) -> Option<&MapData> {
    match (&heap.obj(o).class, which) {
        (Class::Map(d), Collection::Map)
        | (Class::Set(d), Collection::Set)
        | (Class::WeakMap(d), Collection::WeakMap)
        | (Class::WeakSet(d), Collection::WeakSet) => Some(d),
        _ => None,
    }
}

/// Mutable collection data of `o` if it has the internal slot of `which`.
pub(crate) fn data_mut(heap: &mut Heap, o: ObjectId, which: Collection) -> Option<&mut MapData> {
    match (&mut heap.obj_mut(o).class, which) {
        (Class::Map(d), Collection::Map)
        | (Class::Set(d), Collection::Set)
        | (Class::WeakMap(d), Collection::WeakMap)
        | (Class::WeakSet(d), Collection::WeakSet) => Some(d),
        _ => None,
    }
}

/// RequireInternalSlot(this, [[MapData]] / [[SetData]] / …), with V8's message.
pub(crate) fn require(vm: &mut Vm, this: Value, which: Collection, method: &str) -> JsResult<ObjectId> {
    if let Some(o) = this.as_object() {
        if data(&vm.heap, o, which).is_some() {
            return Ok(o);
        }
    }
    let shown = describe(vm, this, Shown::Plain);
    Err(vm.type_error(format!("Method {method} called on incompatible receiver {shown}")))
}

/// Entry `index` of a collection's list: None past the end, Some(None) for an emptied one.
pub(crate) fn entry_at(heap: &Heap, o: ObjectId, which: Collection, index: usize) -> Option<Option<(Value, Value)>> {
    data(heap, o, which).and_then(|d| d.entries.get(index).copied())
}

/// ### 24.5.1 CanonicalizeKeyedCollectionKey ( key )
/// https://tc39.es/ecma262/#sec-canonicalizekeyedcollectionkey
///
/// -0 becomes +0; numbers also take their canonical encoding (integral → int), so equal
/// numbers are stored alike.
pub fn canonicalize_key(key: Value) -> Value {
    match key.as_number() {
        // 1. If key is -0𝔽, return +0𝔽 (adding +0 turns -0 into +0 and changes nothing else).
        Some(f) => Value::number(f + 0.0),
        // 2. Return key.
        None => key,
    }
}

/// The SameValueZero identity of `key`: strings by contents, BigInts by value, numbers by
/// canonical encoding (so NaN equals NaN and -0 equals +0), everything else by identity.
pub fn key_of(heap: &mut Heap, key: Value) -> MapKey {
    match key.kind() {
        Kind::String(s) => MapKey::Str(heap.flat(s).clone()),
        Kind::BigInt(b) => MapKey::BigInt(heap.bigint(b).to_string()),
        Kind::Int(_) | Kind::Float(_) => MapKey::Bits(canonicalize_key(key).to_bits()),
        _ => MapKey::Bits(key.to_bits()),
    }
}

/// Position of `key` in the entry list.
pub fn find(data: &MapData, key: &MapKey) -> Option<usize> {
    data.index.get(key).map(|&i| i as usize)
}

/// The value stored for `key`.
pub fn lookup(data: &MapData, key: &MapKey) -> Option<Value> {
    let i = find(data, key)?;
    data.entries.get(i).copied().flatten().map(|(_, v)| v)
}

/// Set the value of `key` (`k` is the canonical key value), appending a new entry when it
/// is absent. Returns false when the entry list is full (u32 positions).
/// Set `key` to `value` (appending an entry for a new key): the bytes the table grew by (0
/// for an update, and for most appends; a capacity doubling's worth when it had to grow), or
/// None when the table is full.
pub fn insert(data: &mut MapData, key: MapKey, k: Value, value: Value) -> Option<u64> {
    if let Some(i) = find(data, &key) {
        if let Some(Some(entry)) = data.entries.get_mut(i) {
            entry.1 = value;
            return Some(0);
        }
    }
    let i = u32::try_from(data.entries.len()).ok().filter(|&i| i != u32::MAX)?;
    let before = data.bytes();
    data.entries.push(Some((k, value)));
    data.index.insert(key, i);
    data.live += 1;
    Some(data.bytes().saturating_sub(before))
}

/// Empty the entry of `key`; returns whether there was one.
pub fn remove(data: &mut MapData, key: &MapKey) -> bool {
    let Some(i) = data.index.swap_remove(key) else {
        return false;
    };
    if let Some(slot) = data.entries.get_mut(i as usize) {
        *slot = None;
    }
    data.live = data.live.saturating_sub(1);
    if i == data.head {
        // Each position is passed once: amortised O(1) per removal.
        while data.entries.get(data.head as usize).is_some_and(Option::is_none) {
            data.head += 1;
        }
    }
    true
}

/// Empty every entry (positions are kept, so live iterators see later additions).
pub fn clear_data(data: &mut MapData) {
    for slot in &mut data.entries {
        *slot = None;
    }
    data.index.clear();
    data.live = 0;
    data.head = u32::try_from(data.entries.len()).unwrap_or(u32::MAX);
}

/// A copy holding only the live entries, in order (no tombstones).
pub fn copy_data(heap: &mut Heap, data: &MapData) -> MapData {
    let mut out = MapData::default();
    for (k, v) in data.entries.iter().flatten() {
        let key = key_of(heap, *k);
        let _ = insert(&mut out, key, *k, *v);
    }
    out
}

/// Drop the emptied entries of every keyed collection whose list is mostly tombstones, and
/// move each live Map/Set iterator over such a collection to the same logical position
/// (the number of live entries before it). For the collector, which sees every iterator;
/// O(heap). JS cannot observe it: iteration order and every iterator's next entry are kept.
pub fn compact_collections(heap: &mut Heap) {
    squeeze_where(heap, |dead, live| dead >= 16 && dead > live);
}

/// [`compact_collections`] for every collection with a tombstone: canonical images hold
/// none, since where they fall depends on when the collector last ran.
pub fn squeeze_collections(heap: &mut Heap) {
    squeeze_where(heap, |dead, _| dead > 0);
}

fn squeeze_where(heap: &mut Heap, squeeze: impl Fn(usize, usize) -> bool) {
    let mut targets: indexmap::IndexMap<u32, Vec<ObjectId>, rustc_hash::FxBuildHasher> = Default::default();
    for (id, obj) in heap.objects.iter() {
        if let Class::Map(d) | Class::Set(d) | Class::WeakMap(d) | Class::WeakSet(d) = &obj.class {
            let dead = d.entries.len().saturating_sub(d.live as usize);
            if squeeze(dead, d.live as usize) {
                targets.insert(id, Vec::new());
            }
        }
    }
    if targets.is_empty() {
        return;
    }
    for (id, obj) in heap.objects.iter() {
        if let Class::Iterator(it) = &obj.class {
            if let IteratorState::MapIter { target, .. } | IteratorState::SetIter { target, .. } = **it {
                if let Some(iters) = targets.get_mut(&target.0) {
                    iters.push(ObjectId(id));
                }
            }
        }
    }
    for (map, iterators) in targets {
        let (Class::Map(d) | Class::Set(d) | Class::WeakMap(d) | Class::WeakSet(d)) =
            &mut heap.obj_mut(ObjectId(map)).class
        else {
            continue;
        };
        // before[i] = the number of live entries at positions < i.
        let mut before = Vec::with_capacity(d.entries.len() + 1);
        let mut n = 0u32;
        for entry in &d.entries {
            before.push(n);
            n += u32::from(entry.is_some());
        }
        before.push(n);
        d.entries.retain(Option::is_some);
        d.head = 0;
        for position in d.index.values_mut() {
            *position = before.get(*position as usize).copied().unwrap_or(n);
        }
        for it in iterators {
            if let Class::Iterator(st) = &mut heap.obj_mut(it).class {
                if let IteratorState::MapIter { index, .. } | IteratorState::SetIter { index, .. } = &mut **st {
                    *index = before.get(*index as usize).copied().unwrap_or(n);
                }
            }
        }
    }
}

/// Recompute the hash index of a keyed collection from its entries: needed after object or
/// symbol handles were renumbered (image canonicalisation), since the index keys them by
/// handle bits.
pub fn rebuild_index(heap: &mut Heap, o: ObjectId) {
    let entries = match &heap.obj(o).class {
        Class::Map(d) | Class::Set(d) | Class::WeakMap(d) | Class::WeakSet(d) => d.entries.clone(),
        _ => return,
    };
    let mut index = indexmap::IndexMap::default();
    let mut live = 0;
    for (i, entry) in entries.iter().enumerate() {
        if let Some((k, _)) = entry {
            index.insert(key_of(heap, *k), u32::try_from(i).unwrap_or(u32::MAX));
            live += 1;
        }
    }
    if let Class::Map(d) | Class::Set(d) | Class::WeakMap(d) | Class::WeakSet(d) = &mut heap.obj_mut(o).class {
        d.index = index;
        d.live = live;
    }
}

// ---- Small helpers shared by this file's siblings

/// Define `obj[Symbol.toStringTag] = tag` { writable: false, enumerable: false, configurable: true }.
pub(crate) fn define_to_string_tag(vm: &mut Vm, obj: ObjectId, tag: &str) {
    let key = PropertyKey::Symbol(vm.symbols.toStringTag);
    let value = vm.str(tag);
    vm.define_builtin(obj, key, value, PropFlags(PropFlags::CONFIGURABLE));
}

/// Make `obj[to]` the same value as `obj[from]` (e.g. `[Symbol.iterator]` and `entries`).
pub(crate) fn alias_property(vm: &mut Vm, obj: ObjectId, from: PropertyKey, to: PropertyKey) {
    let existing = vm.heap.obj(obj).lookup_named(&vm.heap.shapes, from);
    if let Some((value, flags)) = existing {
        vm.define_builtin(obj, to, value, flags);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_value_zero_keys() {
        let mut heap = Heap::new();
        let a = heap.alloc_str("key");
        let b = heap.alloc_str("key");
        assert_eq!(key_of(&mut heap, a), key_of(&mut heap, b));
        assert_eq!(key_of(&mut heap, Value::number(-0.0)), key_of(&mut heap, Value::int(0)));
        assert_eq!(key_of(&mut heap, Value::float(3.0)), key_of(&mut heap, Value::int(3)));
        assert_eq!(key_of(&mut heap, Value::NAN), key_of(&mut heap, Value::float(f64::NAN)));
        assert_ne!(key_of(&mut heap, Value::int(1)), key_of(&mut heap, a));
        let x = Value::bigint(heap.alloc_bigint(10.into()));
        let y = Value::bigint(heap.alloc_bigint(10.into()));
        assert_eq!(key_of(&mut heap, x), key_of(&mut heap, y));
        assert!(Value::number(-0.0).as_number().is_some_and(|f| f.is_sign_negative()));
        assert_eq!(canonicalize_key(Value::number(-0.0)), Value::int(0));
    }

    #[test]
    fn tombstones_keep_positions() {
        let mut heap = Heap::new();
        let mut d = MapData::default();
        for i in 0..4 {
            let k = Value::int(i);
            assert!(insert(&mut d, key_of(&mut heap, k), k, Value::int(i * 10)).is_some());
        }
        assert!(remove(&mut d, &key_of(&mut heap, Value::int(1))));
        assert!(!remove(&mut d, &key_of(&mut heap, Value::int(1))));
        assert_eq!(d.live, 3);
        assert_eq!(d.entries.len(), 4);
        assert!(d.entries[1].is_none());
        // Overwriting keeps the position; re-adding a deleted key appends.
        assert_eq!(insert(&mut d, key_of(&mut heap, Value::int(2)), Value::int(2), Value::int(99)), Some(0));
        assert_eq!(find(&d, &key_of(&mut heap, Value::int(2))), Some(2));
        assert!(insert(&mut d, key_of(&mut heap, Value::int(1)), Value::int(1), Value::int(7)).is_some());
        assert_eq!(find(&d, &key_of(&mut heap, Value::int(1))), Some(4));
        assert_eq!(lookup(&d, &key_of(&mut heap, Value::int(2))), Some(Value::int(99)));
        clear_data(&mut d);
        assert_eq!(d.live, 0);
        assert_eq!(d.entries.len(), 5);
        assert_eq!(lookup(&d, &key_of(&mut heap, Value::int(2))), None);
        let copy = copy_data(&mut heap, &d);
        assert!(copy.entries.is_empty());
    }

    #[test]
    fn compaction_moves_iterators() {
        let mut heap = Heap::new();
        let mut d = MapData::default();
        for i in 0..40 {
            let k = Value::int(i);
            insert(&mut d, key_of(&mut heap, k), k, k);
        }
        for i in 0..30 {
            remove(&mut d, &key_of(&mut heap, Value::int(i)));
        }
        let map = heap.alloc_object(Object::new(None, Class::Map(Box::new(d))));
        // An iterator about to visit entry 35 (the 6th live one).
        let state = IteratorState::MapIter { target: map, index: 35, kind: 0, done: false };
        let it = heap.alloc_object(Object::new(None, Class::Iterator(Box::new(state))));
        compact_collections(&mut heap);
        let Class::Map(d) = &heap.obj(map).class else { panic!("map") };
        assert_eq!(d.entries.len(), 10);
        assert_eq!(find(d, &key_of(&mut Heap::new(), Value::int(35))), Some(5));
        let Class::Iterator(st) = &heap.obj(it).class else { panic!("iterator") };
        let IteratorState::MapIter { index, .. } = **st else { panic!("map iterator") };
        assert_eq!(index, 5);
        assert_eq!(d.entries.get(5).copied().flatten().map(|e| e.0), Some(Value::int(35)));
    }
}
