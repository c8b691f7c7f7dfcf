//! WeakMap (ECMA-262 §24.3), WeakSet (§24.4), WeakRef (§26.1) and FinalizationRegistry
//! (§26.2): https://tc39.es/ecma262/#sec-weakmap-objects
//!
//! NOTE: Amber's collector treats weak references as strong (DESIGN §7, "treating weak
//! references as strong, scheduling no cleanup"): a WeakMap/WeakSet holds its keys, a WeakRef
//! its target and a FinalizationRegistry its cells like ordinary references, so `deref()`
//! never returns undefined and cleanup callbacks never run. This is allowed by the spec (a
//! host may keep any object alive) and keeps the heap, and thus every image, deterministic.
//! `FinalizationRegistry.prototype.cleanupSome` is not provided.

use crate::atoms::PropertyKey;
use crate::builtins::map::{
    add_entries_from_iterable, canonicalize_key, data, data_mut, define_to_string_tag, find,
    get_or_insert_computed_data, get_or_insert_data, insert, key_of, lookup, remove, require, Collection,
};
use crate::builtins::set::add_to;
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{Class, FinalizationData, Object};
use crate::native;
use crate::runtime::call::{call, is_callable, prototype_from_constructor};
use crate::runtime::describe::{describe, not_a_function, Shown};
use crate::runtime::iterator::{get_iterator_rooted, iterator_close, iterator_step_value};
use crate::runtime::operators::same_value;
use crate::runtime::property::get;
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("WeakMap", 0, weak_map_constructor),
    native!("WeakMap.prototype.delete", 1, weak_map_delete),
    native!("WeakMap.prototype.get", 1, weak_map_get),
    native!("WeakMap.prototype.set", 2, weak_map_set),
    native!("WeakMap.prototype.has", 1, weak_map_has),
    native!("WeakMap.prototype.getOrInsert", 2, weak_map_get_or_insert),
    native!("WeakMap.prototype.getOrInsertComputed", 2, weak_map_get_or_insert_computed),
    native!("WeakSet", 0, weak_set_constructor),
    native!("WeakSet.prototype.delete", 1, weak_set_delete),
    native!("WeakSet.prototype.has", 1, weak_set_has),
    native!("WeakSet.prototype.add", 1, weak_set_add),
    native!("WeakRef", 1, weak_ref_constructor),
    native!("WeakRef.prototype.deref", 0, weak_ref_deref),
    native!("FinalizationRegistry", 1, finalization_registry_constructor),
    native!("FinalizationRegistry.prototype.register", 2, finalization_registry_register),
    native!("FinalizationRegistry.prototype.unregister", 1, finalization_registry_unregister),
];

pub(crate) fn init(vm: &mut Vm) {
    for (name, proto, tag) in [
        ("WeakMap", vm.realm.weakmap_prototype, "WeakMap"),
        ("WeakSet", vm.realm.weakset_prototype, "WeakSet"),
        ("WeakRef", vm.realm.weakref_prototype, "WeakRef"),
        ("FinalizationRegistry", vm.realm.finalization_registry_prototype, "FinalizationRegistry"),
    ] {
        let ctor = make_constructor(vm, name, name, proto);
        let prefix = format!("{name}.prototype");
        install(vm, proto, &prefix, NATIVES);
        install(vm, ctor, name, NATIVES);
        define_to_string_tag(vm, proto, tag);
    }
}

/// ### 9.13 CanBeHeldWeakly ( v )
/// https://tc39.es/ecma262/#sec-canbeheldweakly
pub fn can_be_held_weakly(vm: &Vm, v: Value) -> bool {
    match v.kind() {
        // 1. If v is an Object, return true.
        Kind::Object(_) => true,
        // 2. If v is a Symbol and KeyForSymbol(v) is undefined, return true.
        Kind::Symbol(s) => !vm.heap.symbol(s).is_some_and(|sym| sym.registered),
        // 3. Return false.
        _ => false,
    }
}

// ---- WeakMap (§24.3)

/// ### 24.3.1.1 WeakMap ( [ iterable ] )
/// https://tc39.es/ecma262/#sec-weakmap-iterable
fn weak_map_constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor WeakMap requires 'new'"));
    }
    // 2. Let map be ? OrdinaryCreateFromConstructor(NewTarget, "%WeakMap.prototype%", « [[WeakMapData]] »).
    let default = vm.realm.weakmap_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 3. Set map.[[WeakMapData]] to a new empty List.
    let map = vm.heap.alloc_object(Object::new(Some(proto), Class::WeakMap(Box::default())));
    let map_v = Value::object(map);
    let iterable = arg(args, 0);
    // 4. If iterable is either undefined or null, return map.
    if iterable.is_nullish() {
        return Ok(map_v);
    }
    vm.roots.push(map_v);
    // 5. Let adder be ? Get(map, "set").
    let key = PropertyKey::Atom(crate::atoms::atom::set);
    let adder = get(vm, map, key, map_v)?;
    // 6. If IsCallable(adder) is false, throw a TypeError exception.
    if !is_callable(vm, adder) {
        let shown = describe(vm, adder, Shown::Plain);
        return Err(
            vm.type_error(format!("'{shown}' returned for property 'set' of object '#<WeakMap>' is not a function"))
        );
    }
    vm.roots.push(adder);
    // 7. Return ? AddEntriesFromIterable(map, iterable, adder).
    add_entries_from_iterable(vm, map_v, iterable, adder)
}

/// ### 24.3.3.2 WeakMap.prototype.delete ( key )
/// https://tc39.es/ecma262/#sec-weakmap.prototype.delete
fn weak_map_delete(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[WeakMapData]]).
    let m = require(vm, this, Collection::WeakMap, "WeakMap.prototype.delete")?;
    let k = arg(args, 0);
    // 3. If CanBeHeldWeakly(key) is false, return false.
    if !can_be_held_weakly(vm, k) {
        return Ok(Value::FALSE);
    }
    // 4-5. Empty the entry whose key is SameValue to key and return true; else false.
    let key = key_of(&mut vm.heap, k);
    Ok(Value::bool(data_mut(&mut vm.heap, m, Collection::WeakMap).is_some_and(|d| remove(d, &key))))
}

/// ### 24.3.3.3 WeakMap.prototype.get ( key )
/// https://tc39.es/ecma262/#sec-weakmap.prototype.get
fn weak_map_get(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[WeakMapData]]).
    let m = require(vm, this, Collection::WeakMap, "WeakMap.prototype.get")?;
    let k = arg(args, 0);
    // 3. If CanBeHeldWeakly(key) is false, return undefined.
    if !can_be_held_weakly(vm, k) {
        return Ok(Value::UNDEFINED);
    }
    // 4-5. Return the value of the entry for key, or undefined.
    let key = key_of(&mut vm.heap, k);
    Ok(data(&vm.heap, m, Collection::WeakMap).and_then(|d| lookup(d, &key)).unwrap_or(Value::UNDEFINED))
}

/// ### 24.3.3.4 WeakMap.prototype.has ( key )
/// https://tc39.es/ecma262/#sec-weakmap.prototype.has
fn weak_map_has(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[WeakMapData]]).
    let m = require(vm, this, Collection::WeakMap, "WeakMap.prototype.has")?;
    let k = arg(args, 0);
    // 3. If CanBeHeldWeakly(key) is false, return false.
    if !can_be_held_weakly(vm, k) {
        return Ok(Value::FALSE);
    }
    // 4-5. Return whether an entry for key exists.
    let key = key_of(&mut vm.heap, k);
    Ok(Value::bool(data(&vm.heap, m, Collection::WeakMap).is_some_and(|d| find(d, &key).is_some())))
}

/// ### 24.3.3.5 WeakMap.prototype.set ( key, value )
/// https://tc39.es/ecma262/#sec-weakmap.prototype.set
fn weak_map_set(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[WeakMapData]]).
    let m = require(vm, this, Collection::WeakMap, "WeakMap.prototype.set")?;
    let k = arg(args, 0);
    // 3. If CanBeHeldWeakly(key) is false, throw a TypeError exception.
    if !can_be_held_weakly(vm, k) {
        return Err(vm.type_error("Invalid value used as weak map key"));
    }
    // 4. For each Record p: if SameValue(p.[[Key]], key), set p.[[Value]] to value, return M.
    // 5-6. Append the Record { [[Key]]: key, [[Value]]: value } to M.[[WeakMapData]].
    let key = key_of(&mut vm.heap, k);
    let mut grown = 0;
    if let Some(d) = data_mut(&mut vm.heap, m, Collection::WeakMap) {
        let Some(g) = insert(d, key, k, arg(args, 1)) else {
            return Err(vm.range_error("WeakMap maximum size exceeded"));
        };
        grown = g;
    }
    vm.heap.note_growth(grown);
    // 7. Return M.
    Ok(this)
}

/// ### WeakMap.prototype.getOrInsert ( key, value )
/// https://tc39.es/proposal-upsert/#sec-weakmap.prototype.getOrInsert
fn weak_map_get_or_insert(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[WeakMapData]]).
    let m = require(vm, this, Collection::WeakMap, "WeakMap.prototype.getOrInsert")?;
    let k = arg(args, 0);
    // 3. If CanBeHeldWeakly(key) is false, throw a TypeError exception.
    if !can_be_held_weakly(vm, k) {
        return Err(vm.type_error("Invalid value used as weak map key"));
    }
    // 4-6. Return the existing value, or append { key, value } and return value.
    get_or_insert_data(vm, m, Collection::WeakMap, k, arg(args, 1))
}

/// ### WeakMap.prototype.getOrInsertComputed ( key, callbackfn )
/// https://tc39.es/proposal-upsert/#sec-weakmap.prototype.getOrInsertComputed
fn weak_map_get_or_insert_computed(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(M, [[WeakMapData]]).
    let m = require(vm, this, Collection::WeakMap, "WeakMap.prototype.getOrInsertComputed")?;
    let (k, callback) = (arg(args, 0), arg(args, 1));
    // 3. If CanBeHeldWeakly(key) is false, throw a TypeError exception.
    if !can_be_held_weakly(vm, k) {
        return Err(vm.type_error("Invalid value used as weak map key"));
    }
    // 4. If IsCallable(callbackfn) is false, throw a TypeError exception.
    if !is_callable(vm, callback) {
        return Err(not_a_function(vm, callback));
    }
    // 5-9. Return the existing value, or call callbackfn, then insert or overwrite.
    get_or_insert_computed_data(vm, m, Collection::WeakMap, k, callback)
}

// ---- WeakSet (§24.4)

/// ### 24.4.1.1 WeakSet ( [ iterable ] )
/// https://tc39.es/ecma262/#sec-weakset-iterable
fn weak_set_constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor WeakSet requires 'new'"));
    }
    // 2. Let set be ? OrdinaryCreateFromConstructor(NewTarget, "%WeakSet.prototype%", « [[WeakSetData]] »).
    let default = vm.realm.weakset_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 3. Set set.[[WeakSetData]] to a new empty List.
    let set = vm.heap.alloc_object(Object::new(Some(proto), Class::WeakSet(Box::default())));
    let set_v = Value::object(set);
    let iterable = arg(args, 0);
    // 4. If iterable is either undefined or null, return set.
    if iterable.is_nullish() {
        return Ok(set_v);
    }
    vm.roots.push(set_v);
    // 5. Let adder be ? Get(set, "add").
    let adder = get(vm, set, PropertyKey::Atom(crate::atoms::atom::add), set_v)?;
    // 6. If IsCallable(adder) is false, throw a TypeError exception.
    if !is_callable(vm, adder) {
        let shown = describe(vm, adder, Shown::Plain);
        return Err(
            vm.type_error(format!("'{shown}' returned for property 'add' of object '#<WeakSet>' is not a function"))
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

/// ### 24.4.3.1 WeakSet.prototype.add ( value )
/// https://tc39.es/ecma262/#sec-weakset.prototype.add
fn weak_set_add(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(S, [[WeakSetData]]).
    let s = require(vm, this, Collection::WeakSet, "WeakSet.prototype.add")?;
    let value = arg(args, 0);
    // 3. If CanBeHeldWeakly(value) is false, throw a TypeError exception.
    if !can_be_held_weakly(vm, value) {
        return Err(vm.type_error("Invalid value used in weak set"));
    }
    // 4-5. Append value unless an element is SameValue to it.
    add_to(vm, s, Collection::WeakSet, canonicalize_key(value))?;
    // 6. Return S.
    Ok(this)
}

/// ### 24.4.3.3 WeakSet.prototype.delete ( value )
/// https://tc39.es/ecma262/#sec-weakset.prototype.delete
fn weak_set_delete(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(S, [[WeakSetData]]).
    let s = require(vm, this, Collection::WeakSet, "WeakSet.prototype.delete")?;
    let value = arg(args, 0);
    // 3. If CanBeHeldWeakly(value) is false, return false.
    if !can_be_held_weakly(vm, value) {
        return Ok(Value::FALSE);
    }
    // 4-5. Replace the matching element with empty and return true; else return false.
    let key = key_of(&mut vm.heap, value);
    Ok(Value::bool(data_mut(&mut vm.heap, s, Collection::WeakSet).is_some_and(|d| remove(d, &key))))
}

/// ### 24.4.3.4 WeakSet.prototype.has ( value )
/// https://tc39.es/ecma262/#sec-weakset.prototype.has
fn weak_set_has(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(S, [[WeakSetData]]).
    let s = require(vm, this, Collection::WeakSet, "WeakSet.prototype.has")?;
    let value = arg(args, 0);
    // 3. If CanBeHeldWeakly(value) is false, return false.
    if !can_be_held_weakly(vm, value) {
        return Ok(Value::FALSE);
    }
    // 4-5. Return whether an element is SameValue to value.
    let key = key_of(&mut vm.heap, value);
    Ok(Value::bool(data(&vm.heap, s, Collection::WeakSet).is_some_and(|d| find(d, &key).is_some())))
}

// ---- WeakRef (§26.1)

/// ### 26.1.1.1 WeakRef ( target )
/// https://tc39.es/ecma262/#sec-weak-ref-target
fn weak_ref_constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor WeakRef requires 'new'"));
    }
    let target = arg(args, 0);
    // 2. If CanBeHeldWeakly(target) is false, throw a TypeError exception.
    if !can_be_held_weakly(vm, target) {
        return Err(vm.type_error("WeakRef: invalid target"));
    }
    // 3. Let weakRef be ? OrdinaryCreateFromConstructor(NewTarget, "%WeakRef.prototype%", « [[WeakRefTarget]] »).
    let default = vm.realm.weakref_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 4. Perform AddToKeptObjects(target). (Weak references are strong here: nothing to do.)
    // 5. Set weakRef.[[WeakRefTarget]] to target.
    let weak_ref = vm.heap.alloc_object(Object::new(Some(proto), Class::WeakRef(target)));
    // 6. Return weakRef.
    Ok(Value::object(weak_ref))
}

/// ### 26.1.3.2 WeakRef.prototype.deref ( )
/// https://tc39.es/ecma262/#sec-weak-ref.prototype.deref
fn weak_ref_deref(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(weakRef, [[WeakRefTarget]]).
    let target = this.as_object().and_then(|o| match vm.heap.obj(o).class {
        Class::WeakRef(t) => Some(t),
        _ => None,
    });
    let Some(target) = target else {
        let shown = describe(vm, this, Shown::Plain);
        return Err(vm.type_error(format!("Method WeakRef.prototype.deref called on incompatible receiver {shown}")));
    };
    // 3. Return WeakRefDeref(weakRef): the target (never emptied; see the module doc).
    Ok(target)
}

// ---- FinalizationRegistry (§26.2)

/// ### 26.2.1.1 FinalizationRegistry ( cleanupCallback )
/// https://tc39.es/ecma262/#sec-finalization-registry-cleanup-callback
fn finalization_registry_constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor FinalizationRegistry requires 'new'"));
    }
    let cleanup = arg(args, 0);
    // 2. If IsCallable(cleanupCallback) is false, throw a TypeError exception.
    if !is_callable(vm, cleanup) {
        return Err(vm.type_error("FinalizationRegistry: cleanup must be callable"));
    }
    // 3. Let finalizationRegistry be ? OrdinaryCreateFromConstructor(NewTarget,
    //    "%FinalizationRegistry.prototype%", « [[Realm]], [[CleanupCallback]], [[Cells]] »).
    let default = vm.realm.finalization_registry_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 4-7. Set [[Realm]], [[CleanupCallback]] and an empty [[Cells]].
    let data = FinalizationData { cleanup, cells: Vec::new() };
    let registry = vm.heap.alloc_object(Object::new(Some(proto), Class::FinalizationRegistry(Box::new(data))));
    // 8. Return finalizationRegistry.
    Ok(Value::object(registry))
}

/// RequireInternalSlot(finalizationRegistry, [[Cells]]).
fn require_registry(vm: &mut Vm, this: Value, method: &str) -> JsResult<ObjectId> {
    if let Some(o) = this.as_object() {
        if matches!(vm.heap.obj(o).class, Class::FinalizationRegistry(_)) {
            return Ok(o);
        }
    }
    let shown = describe(vm, this, Shown::Plain);
    Err(vm.type_error(format!("Method {method} called on incompatible receiver {shown}")))
}

/// ### 26.2.3.2 FinalizationRegistry.prototype.register ( target, heldValue [ , unregisterToken ] )
/// https://tc39.es/ecma262/#sec-finalization-registry.prototype.register
fn finalization_registry_register(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(finalizationRegistry, [[Cells]]).
    let r = require_registry(vm, this, "FinalizationRegistry.prototype.register")?;
    let (target, held, mut token) = (arg(args, 0), arg(args, 1), arg(args, 2));
    // 3. If CanBeHeldWeakly(target) is false, throw a TypeError exception.
    if !can_be_held_weakly(vm, target) {
        return Err(vm.type_error("FinalizationRegistry.prototype.register: invalid target"));
    }
    // 4. If SameValue(target, heldValue) is true, throw a TypeError exception.
    if same_value(target, held) {
        return Err(vm.type_error("FinalizationRegistry.prototype.register: target and holdings must not be same"));
    }
    // 5. If CanBeHeldWeakly(unregisterToken) is false, then
    if !can_be_held_weakly(vm, token) {
        // a. If unregisterToken is not undefined, throw a TypeError exception.
        if !token.is_undefined() {
            let shown = describe(vm, token, Shown::Plain);
            return Err(vm.type_error(format!("Invalid unregisterToken ('{shown}')")));
        }
        // b. Set unregisterToken to empty.
        token = Value::EMPTY;
    }
    // 6. Let cell be the Record { [[WeakRefTarget]]: target, [[HeldValue]]: heldValue,
    //    [[UnregisterToken]]: unregisterToken }.
    // 7. Append cell to finalizationRegistry.[[Cells]].
    if let Class::FinalizationRegistry(d) = &mut vm.heap.obj_mut(r).class {
        d.cells.push((target, held, token));
    }
    vm.check_heap()?;
    // 8. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 26.2.3.3 FinalizationRegistry.prototype.unregister ( unregisterToken )
/// https://tc39.es/ecma262/#sec-finalization-registry.prototype.unregister
fn finalization_registry_unregister(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(finalizationRegistry, [[Cells]]).
    let r = require_registry(vm, this, "FinalizationRegistry.prototype.unregister")?;
    let token = arg(args, 0);
    // 3. If CanBeHeldWeakly(unregisterToken) is false, throw a TypeError exception.
    if !can_be_held_weakly(vm, token) {
        let shown = describe(vm, token, Shown::Plain);
        return Err(vm.type_error(format!("Invalid unregisterToken ('{shown}')")));
    }
    // 4. Let removed be false.
    let mut removed = false;
    // 5. For each Record cell of finalizationRegistry.[[Cells]]: if cell.[[UnregisterToken]]
    //    is not empty and SameValue(cell.[[UnregisterToken]], unregisterToken) is true,
    //    remove cell and set removed to true.
    if let Class::FinalizationRegistry(d) = &mut vm.heap.obj_mut(r).class {
        let before = d.cells.len();
        d.cells.retain(|&(_, _, t)| t.is_empty() || !same_value(t, token));
        removed = d.cells.len() != before;
    }
    // 6. Return removed.
    Ok(Value::bool(removed))
}
