//! The Boolean object (ECMA-262 §20.3): https://tc39.es/ecma262/#sec-boolean-objects

use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{Class, Object};
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::to_boolean;
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Boolean", 1, constructor),
    native!("Boolean.prototype.toString", 0, to_string),
    native!("Boolean.prototype.valueOf", 0, value_of),
];

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.boolean_prototype;
    // §20.3.3: the Boolean prototype object is itself a Boolean object whose [[BooleanData]]
    // is false.
    vm.heap.obj_mut(proto).class = Class::Boolean(false);
    let ctor = make_constructor(vm, "Boolean", "Boolean", proto);
    install(vm, proto, "Boolean.prototype", NATIVES);
    install(vm, ctor, "Boolean", NATIVES);
}

/// ### 20.3.1.1 Boolean ( value )
/// https://tc39.es/ecma262/#sec-boolean-constructor-boolean-value
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let b be ToBoolean(value).
    let b = to_boolean(vm, arg(args, 0));
    // 2. If NewTarget is undefined, return b.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Ok(Value::bool(b));
    }
    // 3. Let O be ? OrdinaryCreateFromConstructor(NewTarget, "%Boolean.prototype%",
    //    « [[BooleanData]] »).
    let default = vm.realm.boolean_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 4. Set O.[[BooleanData]] to b.
    let o = vm.heap.alloc_object(Object::new(Some(proto), Class::Boolean(b)));
    // 5. Return O.
    Ok(Value::object(o))
}

/// ThisBooleanValue (§20.3.3.3.1).
fn this_boolean_value(vm: &mut Vm, value: Value, method: &str) -> JsResult<bool> {
    // 1. If value is a Boolean, return value.
    if let Some(b) = value.as_bool() {
        return Ok(b);
    }
    // 2. If value is an Object and value has a [[BooleanData]] internal slot, then
    //    a. Let b be value.[[BooleanData]]. b. Assert: b is a Boolean. c. Return b.
    if let Some(o) = value.as_object() {
        if let Class::Boolean(b) = vm.heap.obj(o).class {
            return Ok(b);
        }
    }
    // 3. Throw a TypeError exception.
    Err(vm.type_error(format!("{method} requires that 'this' be a Boolean")))
}

/// ### 20.3.3.2 Boolean.prototype.toString ( )
/// https://tc39.es/ecma262/#sec-boolean.prototype.tostring
fn to_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let b be ? ThisBooleanValue(this value).
    let b = this_boolean_value(vm, this, "Boolean.prototype.toString")?;
    // 2. If b is true, return "true"; else return "false".
    Ok(vm.str(if b { "true" } else { "false" }))
}

/// ### 20.3.3.3 Boolean.prototype.valueOf ( )
/// https://tc39.es/ecma262/#sec-boolean.prototype.valueof
fn value_of(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return ? ThisBooleanValue(this value).
    Ok(Value::bool(this_boolean_value(vm, this, "Boolean.prototype.valueOf")?))
}
