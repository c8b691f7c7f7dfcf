//! The Reflect object (ECMA-262 §28.1): https://tc39.es/ecma262/#sec-reflect-object
//!
//! Each function is the matching object internal method with its arguments checked, so a
//! Proxy trap can forward with `Reflect[trapName](...arguments)`.

use crate::atoms::PropertyKey;
use crate::builtins::proxy::{from_property_descriptor, to_property_descriptor};
use crate::builtins::{arg, install, NativeDef};
use crate::error::JsResult;
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{call, construct as construct_op, is_callable, is_constructor};
use crate::runtime::convert::{key_to_value, to_property_key};
use crate::runtime::describe::{describe, Shown};
use crate::runtime::property;
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Reflect.apply", 3, apply),
    native!("Reflect.construct", 2, construct),
    native!("Reflect.defineProperty", 3, define_property),
    native!("Reflect.deleteProperty", 2, delete_property),
    native!("Reflect.get", 2, get),
    native!("Reflect.getOwnPropertyDescriptor", 2, get_own_property_descriptor),
    native!("Reflect.getPrototypeOf", 1, get_prototype_of),
    native!("Reflect.has", 2, has),
    native!("Reflect.isExtensible", 1, is_extensible),
    native!("Reflect.ownKeys", 1, own_keys),
    native!("Reflect.preventExtensions", 1, prevent_extensions),
    native!("Reflect.set", 3, set),
    native!("Reflect.setPrototypeOf", 2, set_prototype_of),
];

/// Create the Reflect namespace object and define it on the global object (non-enumerable).
pub(crate) fn init(vm: &mut Vm) {
    let proto = Some(vm.realm.object_prototype);
    let reflect = vm.heap.new_plain(proto);
    install(vm, reflect, "Reflect", NATIVES);
    // 28.1.14 Reflect [ %Symbol.toStringTag% ]: "Reflect", { [[Writable]]: false,
    // [[Enumerable]]: false, [[Configurable]]: true }.
    let tag = vm.str("Reflect");
    let to_string_tag = PropertyKey::Symbol(vm.symbols.toStringTag);
    vm.define_builtin(reflect, to_string_tag, tag, PropFlags(PropFlags::CONFIGURABLE));
    let key = PropertyKey::Atom(vm.heap.atoms.intern_str("Reflect"));
    let global = vm.global;
    vm.define_builtin(global, key, Value::object(reflect), PropFlags::HIDDEN);
}

/// ### 28.1.1 Reflect.apply ( target, thisArgument, argumentsList )
/// https://tc39.es/ecma262/#sec-reflect.apply
fn apply(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let target = arg(args, 0);
    // 1. If IsCallable(target) is false, throw a TypeError exception.
    if !is_callable(vm, target) {
        let shown = describe_with_type(vm, target);
        return Err(vm.type_error(format!("Function.prototype.apply was called on {shown} and not a function")));
    }
    // 2. Let args be ? CreateListFromArrayLike(argumentsList).
    let list = create_list_from_array_like(vm, arg(args, 2), false)?;
    // 3. Perform PrepareForTailCall().
    // 4. Return ? Call(target, thisArgument, args).
    call(vm, target, arg(args, 1), &list)
}

/// ### 28.1.2 Reflect.construct ( target, argumentsList [ , newTarget ] )
/// https://tc39.es/ecma262/#sec-reflect.construct
fn construct(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let target = arg(args, 0);
    // 1. If IsConstructor(target) is false, throw a TypeError exception.
    if !is_constructor(vm, target) {
        let shown = describe(vm, target, Shown::Brief);
        return Err(vm.type_error(format!("{shown} is not a constructor")));
    }
    // 2. If newTarget is not present, set newTarget to target.
    // 3. Else if IsConstructor(newTarget) is false, throw a TypeError exception.
    let new_target = match args.get(2) {
        None => target,
        Some(&nt) => {
            if !is_constructor(vm, nt) {
                let shown = describe(vm, nt, Shown::Brief);
                return Err(vm.type_error(format!("{shown} is not a constructor")));
            }
            nt
        }
    };
    // 4. Let args be ? CreateListFromArrayLike(argumentsList).
    let list = create_list_from_array_like(vm, arg(args, 1), false)?;
    // 5. Return ? Construct(target, args, newTarget).
    construct_op(vm, target, &list, Some(new_target))
}

/// ### 28.1.3 Reflect.defineProperty ( target, propertyKey, attributes )
/// https://tc39.es/ecma262/#sec-reflect.defineproperty
fn define_property(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If target is not an Object, throw a TypeError exception.
    let target = require_object(vm, arg(args, 0), "Reflect.defineProperty")?;
    // 2. Let key be ? ToPropertyKey(propertyKey).
    let key = to_property_key(vm, arg(args, 1))?;
    root_key(vm, key);
    // 3. Let desc be ? ToPropertyDescriptor(attributes).
    let desc = to_property_descriptor(vm, arg(args, 2))?;
    // 4. Return ? target.[[DefineOwnProperty]](key, desc).
    property::define_own_property(vm, target, key, desc).map(Value::bool)
}

/// ### 28.1.4 Reflect.deleteProperty ( target, propertyKey )
/// https://tc39.es/ecma262/#sec-reflect.deleteproperty
fn delete_property(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If target is not an Object, throw a TypeError exception.
    let target = require_object(vm, arg(args, 0), "Reflect.deleteProperty")?;
    // 2. Let key be ? ToPropertyKey(propertyKey).
    let key = to_property_key(vm, arg(args, 1))?;
    root_key(vm, key);
    // 3. Return ? target.[[Delete]](key).
    property::delete(vm, target, key).map(Value::bool)
}

/// ### 28.1.5 Reflect.get ( target, propertyKey [ , receiver ] )
/// https://tc39.es/ecma262/#sec-reflect.get
fn get(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If target is not an Object, throw a TypeError exception.
    let target = require_object(vm, arg(args, 0), "Reflect.get")?;
    // 2. Let key be ? ToPropertyKey(propertyKey).
    let key = to_property_key(vm, arg(args, 1))?;
    root_key(vm, key);
    // 3. If receiver is not present, then
    //    a. Set receiver to target.
    let receiver = args.get(2).copied().unwrap_or(Value::object(target));
    // 4. Return ? target.[[Get]](key, receiver).
    property::get(vm, target, key, receiver)
}

/// ### 28.1.6 Reflect.getOwnPropertyDescriptor ( target, propertyKey )
/// https://tc39.es/ecma262/#sec-reflect.getownpropertydescriptor
fn get_own_property_descriptor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If target is not an Object, throw a TypeError exception.
    let target = require_object(vm, arg(args, 0), "Reflect.getOwnPropertyDescriptor")?;
    // 2. Let key be ? ToPropertyKey(propertyKey).
    let key = to_property_key(vm, arg(args, 1))?;
    root_key(vm, key);
    // 3. Let desc be ? target.[[GetOwnProperty]](key).
    let desc = property::get_own_property(vm, target, key)?;
    // 4. Return FromPropertyDescriptor(desc).
    from_property_descriptor(vm, desc)
}

/// ### 28.1.7 Reflect.getPrototypeOf ( target )
/// https://tc39.es/ecma262/#sec-reflect.getprototypeof
fn get_prototype_of(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If target is not an Object, throw a TypeError exception.
    let target = require_object(vm, arg(args, 0), "Reflect.getPrototypeOf")?;
    // 2. Return ? target.[[GetPrototypeOf]]().
    Ok(property::get_prototype_of(vm, target)?.map_or(Value::NULL, Value::object))
}

/// ### 28.1.8 Reflect.has ( target, propertyKey )
/// https://tc39.es/ecma262/#sec-reflect.has
fn has(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If target is not an Object, throw a TypeError exception.
    let target = require_object(vm, arg(args, 0), "Reflect.has")?;
    // 2. Let key be ? ToPropertyKey(propertyKey).
    let key = to_property_key(vm, arg(args, 1))?;
    root_key(vm, key);
    // 3. Return ? target.[[HasProperty]](key).
    property::has_property(vm, target, key).map(Value::bool)
}

/// ### 28.1.9 Reflect.isExtensible ( target )
/// https://tc39.es/ecma262/#sec-reflect.isextensible
fn is_extensible(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If target is not an Object, throw a TypeError exception.
    let target = require_object(vm, arg(args, 0), "Reflect.isExtensible")?;
    // 2. Return ? target.[[IsExtensible]]().
    property::is_extensible(vm, target).map(Value::bool)
}

/// ### 28.1.10 Reflect.ownKeys ( target )
/// https://tc39.es/ecma262/#sec-reflect.ownkeys
fn own_keys(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If target is not an Object, throw a TypeError exception.
    let target = require_object(vm, arg(args, 0), "Reflect.ownKeys")?;
    // 2. Let keys be ? target.[[OwnPropertyKeys]]().
    let keys = property::own_property_keys(vm, target)?;
    // 3. Return CreateArrayFromList(keys).
    vm.charge(keys.len() as u64)?;
    let values: Vec<Value> = keys.into_iter().map(|k| key_to_value(vm, k)).collect();
    vm.check_heap()?;
    Ok(vm.new_array(values))
}

/// ### 28.1.11 Reflect.preventExtensions ( target )
/// https://tc39.es/ecma262/#sec-reflect.preventextensions
fn prevent_extensions(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If target is not an Object, throw a TypeError exception.
    let target = require_object(vm, arg(args, 0), "Reflect.preventExtensions")?;
    // 2. Return ? target.[[PreventExtensions]]().
    property::prevent_extensions(vm, target).map(Value::bool)
}

/// ### 28.1.12 Reflect.set ( target, propertyKey, V [ , receiver ] )
/// https://tc39.es/ecma262/#sec-reflect.set
fn set(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If target is not an Object, throw a TypeError exception.
    let target = require_object(vm, arg(args, 0), "Reflect.set")?;
    // 2. Let key be ? ToPropertyKey(propertyKey).
    let key = to_property_key(vm, arg(args, 1))?;
    root_key(vm, key);
    // 3. If receiver is not present, then
    //    a. Set receiver to target.
    let receiver = args.get(3).copied().unwrap_or(Value::object(target));
    // 4. Return ? target.[[Set]](key, V, receiver).
    property::set(vm, target, key, arg(args, 2), receiver).map(Value::bool)
}

/// ### 28.1.13 Reflect.setPrototypeOf ( target, proto )
/// https://tc39.es/ecma262/#sec-reflect.setprototypeof
fn set_prototype_of(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If target is not an Object, throw a TypeError exception.
    let target = require_object(vm, arg(args, 0), "Reflect.setPrototypeOf")?;
    // 2. If proto is not an Object and proto is not null, throw a TypeError exception.
    let proto = arg(args, 1);
    let proto = match proto.kind() {
        Kind::Object(p) => Some(p),
        Kind::Null => None,
        _ => {
            let shown = describe(vm, proto, Shown::Brief);
            return Err(vm.type_error(format!("Object prototype may only be an Object or null: {shown}")));
        }
    };
    // 3. Return ? target.[[SetPrototypeOf]](proto).
    property::set_prototype_of(vm, target, proto).map(Value::bool)
}

// ---- abstract operations and helpers

/// Longest list CreateListFromArrayLike builds. V8 refuses far shorter argument lists with a
/// stack overflow; the cap keeps a hostile `{ length: 2 ** 32 }` from exhausting memory when
/// no fuel limit is set.
const MAX_LIST_LENGTH: u64 = 1 << 24;

/// ### 7.3.19 CreateListFromArrayLike ( obj [ , validElementTypes ] )
/// https://tc39.es/ecma262/#sec-createlistfromarraylike
///
/// `property_keys` selects validElementTypes = property-key (strings and symbols only).
/// Every element is pushed on `vm.roots`, so the list stays alive while later elements' getters
/// run; the caller's root scope releases them.
pub fn create_list_from_array_like(vm: &mut Vm, obj: Value, property_keys: bool) -> JsResult<Vec<Value>> {
    // 1. If validElementTypes is not present, set validElementTypes to all.
    // 2. If obj is not an Object, throw a TypeError exception.
    let Some(o) = obj.as_object() else {
        return Err(vm.type_error("CreateListFromArrayLike called on non-object"));
    };
    vm.roots.push(obj);
    // 3. Let len be ? LengthOfArrayLike(obj).
    let len = property::length_of_array_like(vm, o)?;
    if len > u32::MAX as u64 {
        return Err(vm.range_error("Invalid array length"));
    }
    if len > MAX_LIST_LENGTH {
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    // 4. Let list be a new empty List.
    let mut list = Vec::new();
    // 5. Let index be 0.
    // 6. Repeat, while index < len,
    for index in 0..len as u32 {
        vm.charge(1)?;
        // a. Let indexName be ! ToString(𝔽(index)).
        // b. Let next be ? Get(obj, indexName).
        let next = property::get(vm, o, PropertyKey::Index(index), obj)?;
        // c. If validElementTypes is property-key and next is not a property key, throw a TypeError exception.
        if property_keys && !next.is_string() && !next.is_symbol() {
            let shown = describe(vm, next, Shown::Brief);
            return Err(vm.type_error(format!("{shown} is not a valid property name")));
        }
        // d. Append next to list.
        vm.roots.push(next);
        list.push(next);
        // e. Set index to index + 1.
    }
    // 7. Return list.
    Ok(list)
}

/// Throw "<name> called on non-object" unless `v` is an object.
fn require_object(vm: &mut Vm, v: Value, name: &str) -> JsResult<ObjectId> {
    match v.as_object() {
        Some(o) => Ok(o),
        None => Err(vm.type_error(format!("{name} called on non-object"))),
    }
}

/// Keep a symbol key alive while JS runs (atoms are never collected): ToPropertyKey may
/// return a fresh symbol from a `Symbol.toPrimitive` method that nothing else holds.
fn root_key(vm: &mut Vm, key: PropertyKey) {
    if let PropertyKey::Symbol(s) = key {
        vm.roots.push(Value::symbol(s));
    }
}

/// "1, which is a number": V8's wording in Function.prototype.apply's error.
fn describe_with_type(vm: &mut Vm, v: Value) -> String {
    let shown = describe(vm, v, Shown::Brief);
    if v.is_null() {
        return format!("{shown}, which is null");
    }
    match crate::runtime::operators::type_of(vm, v) {
        "object" => format!("{shown}, which is an object"),
        ty => format!("{shown}, which is a {ty}"),
    }
}
