//! ECMA-402's option-reading abstract operations (§9.2): CoerceOptionsToObject, GetOption
//! (string and boolean), DefaultNumberOption and GetNumberOption. Every constructor reads its options through
//! these, one property at a time in its spec order (test262 observes the getters).

use crate::error::JsResult;
use crate::runtime::convert::{to_boolean, to_number, to_object, to_rust_string};
use crate::runtime::property::get;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// ### CoerceOptionsToObject ( options ): undefined is an empty bag (None), anything else
/// ToObject.
pub(crate) fn coerce_options_to_object(vm: &mut Vm, options: Value) -> JsResult<Option<ObjectId>> {
    // 1. If options is undefined, return OrdinaryObjectCreate(null).
    if options.is_undefined() {
        return Ok(None);
    }
    // 2. Return ? ToObject(options).
    to_object(vm, options).map(Some)
}

/// `? Get(options, property)`, undefined for an absent bag.
pub(crate) fn get_raw(vm: &mut Vm, options: Option<ObjectId>, name: &str) -> JsResult<Value> {
    match options {
        None => Ok(Value::UNDEFINED),
        Some(o) => {
            let key = vm.key(name);
            get(vm, o, key, Value::object(o))
        }
    }
}

/// ### GetOption ( options, property, string, values, default ): the string value, checked
/// against `values` (empty: any string); None when undefined and there is no default.
pub(crate) fn get_string_option(
    vm: &mut Vm,
    options: Option<ObjectId>,
    name: &str,
    values: &[&str],
    default: Option<&str>,
) -> JsResult<Option<String>> {
    // 1. Let value be ? Get(options, property).
    let value = get_raw(vm, options, name)?;
    // 2. If value is undefined, then return default (a required option throws).
    if value.is_undefined() {
        return Ok(default.map(str::to_string));
    }
    // 5. Else, set value to ? ToString(value).
    let s = to_rust_string(vm, value)?;
    // 6. If values is not empty and values does not contain value, throw a RangeError.
    if !values.is_empty() && !values.contains(&s.as_str()) {
        return Err(vm.range_error(format!("Value {s} out of range for options property {name}")));
    }
    Ok(Some(s))
}

/// ### GetOption ( options, property, boolean, empty, default ).
pub(crate) fn get_boolean_option(vm: &mut Vm, options: Option<ObjectId>, name: &str) -> JsResult<Option<bool>> {
    let value = get_raw(vm, options, name)?;
    if value.is_undefined() {
        return Ok(None);
    }
    // 4. If type is boolean, set value to ToBoolean(value).
    Ok(Some(to_boolean(vm, value)))
}

/// ### DefaultNumberOption ( value, minimum, maximum, fallback )
pub(crate) fn default_number_option(
    vm: &mut Vm,
    value: Value,
    minimum: f64,
    maximum: f64,
    fallback: Option<f64>,
    name: &str,
) -> JsResult<Option<f64>> {
    // 1. If value is undefined, return fallback.
    if value.is_undefined() {
        return Ok(fallback);
    }
    // 2. Set value to ? ToNumber(value).
    let n = to_number(vm, value)?;
    // 3. If value is NaN or less than minimum or greater than maximum, throw a RangeError.
    if n.is_nan() || n < minimum || n > maximum {
        return Err(vm.range_error(format!("{name} value is out of range.")));
    }
    // 4. Return floor(value).
    Ok(Some(n.floor()))
}

/// ### GetNumberOption ( options, property, minimum, maximum, fallback )
pub(crate) fn get_number_option(
    vm: &mut Vm,
    options: Option<ObjectId>,
    name: &str,
    minimum: f64,
    maximum: f64,
    fallback: Option<f64>,
) -> JsResult<Option<f64>> {
    // 1. Let value be ? Get(options, property).
    let value = get_raw(vm, options, name)?;
    // 2. Return ? DefaultNumberOption(value, minimum, maximum, fallback).
    default_number_option(vm, value, minimum, maximum, fallback, name)
}
