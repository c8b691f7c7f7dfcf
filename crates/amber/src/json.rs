//! The host boundary's value conversion: JS values ↔ JSON (`serde_json::Value`).
//!
//! Going out (host-operation arguments, step results) is strict: `undefined`, functions,
//! symbols, BigInts, non-finite numbers and cycles are a TypeError naming the path
//! (`args.items[2]`), where `JSON.stringify` would drop or coerce them silently — a value
//! the host cannot see exactly must not be journaled. `toJSON` is honoured (Dates become
//! ISO strings), wrapper objects unwrap, only own enumerable string keys are written.
//! Nesting is bounded by [`MAX_DEPTH`], the journal's own limit.
//!
//! Coming in (results, journaled values) builds fresh arrays and ordinary objects; no JS runs.

use amber_engine::atoms::PropertyKey;
use amber_engine::builtins::promise::is_promise;
use amber_engine::error::JsResult;
use amber_engine::heap::object::Class;
use amber_engine::runtime::call::{call, is_callable};
use amber_engine::runtime::convert::{is_array, key_to_display};
use amber_engine::runtime::property::{
    create_data_property, get, get_own_property, length_of_array_like, own_property_keys,
};
use amber_engine::value::{Kind, ObjectId};
use amber_engine::{Value, Vm};
use serde_json::{Map, Number};

/// Deepest nesting of arrays and objects accepted (the journal refuses deeper values).
pub const MAX_DEPTH: usize = 100;

/// Converts `v` to JSON for the host; `what` names the value in errors ("amber.call args").
pub fn to_json(vm: &mut Vm, v: Value, what: &str) -> JsResult<serde_json::Value> {
    let mark = vm.roots.len();
    let mut seen = Vec::new();
    let r = convert_out(vm, v, "", what, &mut seen);
    vm.roots.truncate(mark);
    r
}

/// SerializeJSONProperty for the value `v` found under `key`, at `path` (for messages).
fn convert_out(vm: &mut Vm, v: Value, key: &str, path: &str, seen: &mut Vec<ObjectId>) -> JsResult<serde_json::Value> {
    let mut v = v;
    // toJSON (as JSON.stringify's SerializeJSONProperty step 2).
    if let Some(o) = v.as_object() {
        vm.roots.push(v);
        let to_json_key = vm.key("toJSON");
        let to_json = get(vm, o, to_json_key, v)?;
        if is_callable(vm, to_json) {
            let key_value = vm.str(key);
            v = call(vm, to_json, v, &[key_value])?;
            vm.roots.push(v);
        }
    }
    // Wrapper objects unwrap to their primitive (step 4).
    if let Some(o) = v.as_object() {
        match vm.heap.obj(o).class {
            Class::Number(n) => v = Value::number(n),
            Class::String(s) => v = Value::string(s),
            Class::Boolean(b) => v = Value::bool(b),
            Class::BigInt(_) => return Err(not_json(vm, path, "a BigInt")),
            _ => {}
        }
    }
    match v.kind() {
        Kind::Null => Ok(serde_json::Value::Null),
        Kind::Bool(b) => Ok(serde_json::Value::Bool(b)),
        Kind::Int(i) => Ok(serde_json::Value::Number(Number::from(i))),
        Kind::Float(f) => number(vm, f, path),
        Kind::String(s) => Ok(serde_json::Value::String(vm.heap.flat(s).to_rust_string())),
        Kind::Undefined | Kind::Empty => Err(not_json(vm, path, "undefined")),
        Kind::Symbol(_) => Err(not_json(vm, path, "a Symbol")),
        Kind::BigInt(_) => Err(not_json(vm, path, "a BigInt")),
        Kind::Object(o) => {
            if is_callable(vm, v) {
                return Err(not_json(vm, path, "a function"));
            }
            if is_promise(vm, v) {
                return Err(not_json(vm, path, "a Promise (await it first)"));
            }
            if seen.contains(&o) {
                return Err(vm.type_error(format!("{path} is not JSON-serializable: it contains a cycle")));
            }
            if seen.len() >= MAX_DEPTH {
                return Err(
                    vm.type_error(format!("{path} is not JSON-serializable: nested deeper than {MAX_DEPTH} levels"))
                );
            }
            seen.push(o);
            let r = if is_array(vm, v)? { array_out(vm, o, path, seen) } else { object_out(vm, o, path, seen) };
            seen.pop();
            r
        }
    }
}

fn number(vm: &mut Vm, f: f64, path: &str) -> JsResult<serde_json::Value> {
    if !f.is_finite() {
        return Err(not_json(vm, path, &amber_engine::runtime::convert::number_to_string(f)));
    }
    // Integers within 2^53 stay integers; -0 is 0 (as in JSON.stringify).
    if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 {
        return Ok(serde_json::Value::Number(Number::from(f as i64)));
    }
    Ok(Number::from_f64(f).map_or(serde_json::Value::Null, serde_json::Value::Number))
}

fn array_out(vm: &mut Vm, o: ObjectId, path: &str, seen: &mut Vec<ObjectId>) -> JsResult<serde_json::Value> {
    let len = length_of_array_like(vm, o)?;
    let mut out = Vec::new();
    for i in 0..len {
        vm.charge(1)?;
        let key = match u32::try_from(i) {
            Ok(i) if i < u32::MAX => PropertyKey::Index(i),
            _ => vm.key(&i.to_string()),
        };
        let item = get(vm, o, key, Value::object(o))?;
        out.push(convert_out(vm, item, &i.to_string(), &format!("{path}[{i}]"), seen)?);
    }
    Ok(serde_json::Value::Array(out))
}

fn object_out(vm: &mut Vm, o: ObjectId, path: &str, seen: &mut Vec<ObjectId>) -> JsResult<serde_json::Value> {
    let mut out = Map::new();
    for key in own_property_keys(vm, o)? {
        if matches!(key, PropertyKey::Symbol(_)) {
            continue;
        }
        vm.charge(1)?;
        match get_own_property(vm, o, key)? {
            Some(desc) if desc.enumerable == Some(true) => {}
            _ => continue,
        }
        let name = key_to_display(vm, key);
        let item = get(vm, o, key, Value::object(o))?;
        let child = if is_identifier(&name) { format!("{path}.{name}") } else { format!("{path}[{name:?}]") };
        let value = convert_out(vm, item, &name, &child, seen)?;
        out.insert(name, value);
    }
    Ok(serde_json::Value::Object(out))
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

fn not_json(vm: &mut Vm, path: &str, found: &str) -> amber_engine::Throw {
    vm.type_error(format!("{path} is not JSON-serializable: found {found}"))
}

/// Builds the JS value of a JSON value (fresh arrays and ordinary objects; runs no JS).
pub fn from_json(vm: &mut Vm, json: &serde_json::Value) -> JsResult<Value> {
    Ok(match json {
        serde_json::Value::Null => Value::NULL,
        serde_json::Value::Bool(b) => Value::bool(*b),
        serde_json::Value::Number(n) => Value::number(n.as_f64().unwrap_or(f64::NAN)),
        serde_json::Value::String(s) => vm.str(s),
        serde_json::Value::Array(items) => {
            let mut values = Vec::with_capacity(items.len());
            let mark = vm.roots.len();
            for item in items {
                let v = from_json(vm, item)?;
                vm.roots.push(v);
                values.push(v);
            }
            vm.roots.truncate(mark);
            vm.new_array(values)
        }
        serde_json::Value::Object(map) => {
            let obj = vm.new_object();
            let Some(o) = obj.as_object() else { return Ok(Value::NULL) };
            let mark = vm.roots.len();
            vm.roots.push(obj);
            for (k, item) in map {
                let v = from_json(vm, item)?;
                let key = vm.key(k);
                create_data_property(vm, o, key, v)?;
            }
            vm.roots.truncate(mark);
            obj
        }
    })
}

/// A primitive completion value as JSON (objects and undefined become null; runs no JS).
pub fn primitive_to_json(vm: &mut Vm, v: Value) -> serde_json::Value {
    match v.kind() {
        Kind::Bool(b) => serde_json::Value::Bool(b),
        Kind::Int(i) => serde_json::Value::Number(Number::from(i)),
        Kind::Float(f) => Number::from_f64(f).map_or(serde_json::Value::Null, serde_json::Value::Number),
        Kind::String(s) => serde_json::Value::String(vm.heap.flat(s).to_rust_string()),
        _ => serde_json::Value::Null,
    }
}
