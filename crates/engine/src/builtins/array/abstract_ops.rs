//! The abstract operations Array's methods share (ArrayCreate, ArraySpeciesCreate) and their
//! small helpers.

use crate::atoms::{atom, PropertyKey};
use crate::error::JsResult;
use crate::heap::object::{ArrayData, Class, Object};
use crate::runtime::call::{construct, is_callable, is_constructor};
use crate::runtime::convert::{is_array, to_object};
use crate::runtime::describe::{describe, Shown};
use crate::runtime::property::{get, length_of_array_like, set_or_throw};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// Is `o` a plain dense array whose iteration JS cannot observe (default iterator intact)?
pub fn has_default_iteration(vm: &Vm, o: ObjectId) -> bool {
    let obj = vm.heap.obj(o);
    let Class::Array(a) = obj.class else { return false };
    if obj.proto != Some(vm.realm.array_prototype) || a.length as usize != obj.elements.len() {
        return false;
    }
    if obj.elements.iter().any(|v| v.is_empty()) {
        return false;
    }
    let key = PropertyKey::Symbol(vm.symbols.iterator);
    if obj.lookup_named(&vm.heap.shapes, key).is_some() {
        return false;
    }
    let proto = vm.heap.obj(vm.realm.array_prototype);
    let iter_ok = proto
        .lookup_named(&vm.heap.shapes, key)
        .is_some_and(|(v, _)| v == Value::object(vm.realm.array_prototype_values));
    let next_ok = vm
        .heap
        .obj(vm.realm.array_iterator_prototype)
        .lookup_named(&vm.heap.shapes, PropertyKey::Atom(atom::next))
        .is_some_and(|(v, _)| v == Value::object(vm.realm.array_iterator_next));
    iter_ok && next_ok
}

/// ArraySpeciesCreate (§10.4.2.3).
pub(super) fn array_species_create(vm: &mut Vm, original: ObjectId, length: u64) -> JsResult<ObjectId> {
    if !is_array(vm, Value::object(original))? {
        return array_create(vm, length);
    }
    let mut c = get(vm, original, PropertyKey::Atom(atom::constructor), Value::object(original))?;
    if is_constructor(vm, c) {
        // Another realm's %Array% makes an array of this realm (a cross-realm `concat` or
        // `map` must not change the result's prototype).
        let co = c.as_object().unwrap_or(original);
        let realm = crate::realm::function_realm(vm, co)?;
        if realm != vm.current_realm && co == vm.intrinsics_of(realm).array_constructor {
            c = Value::UNDEFINED;
        }
    }
    if let Some(co) = c.as_object() {
        let key = PropertyKey::Symbol(vm.symbols.species);
        c = get(vm, co, key, c)?;
        if c.is_null() {
            c = Value::UNDEFINED;
        }
    }
    if c.is_undefined() {
        return array_create(vm, length);
    }
    if !is_constructor(vm, c) {
        return Err(vm.type_error("object.constructor[Symbol.species] is not a constructor"));
    }
    let r = construct(vm, c, &[Value::number(length as f64)], None)?;
    r.as_object().ok_or_else(|| vm.type_error("species constructor returned a non-object"))
}

/// ArrayCreate (§10.4.2.2).
pub fn array_create(vm: &mut Vm, length: u64) -> JsResult<ObjectId> {
    if length > u32::MAX as u64 {
        return Err(vm.range_error("Invalid array length"));
    }
    let o = Object::new(
        Some(vm.realm.array_prototype),
        Class::Array(ArrayData { length: length as u32, length_writable: true }),
    );
    Ok(vm.heap.alloc_object(o))
}

pub(super) fn this_obj(vm: &mut Vm, this: Value) -> JsResult<(ObjectId, u64)> {
    let o = to_object(vm, this)?;
    vm.roots.push(Value::object(o));
    let len = length_of_array_like(vm, o)?;
    Ok((o, len))
}

pub(super) fn callback(vm: &mut Vm, f: Value, method: &str) -> JsResult<Value> {
    if !is_callable(vm, f) {
        // V8's messages: the value without running JS (`#<Object>`, `s`), flatMap's own.
        if method == "flatMap" {
            return Err(vm.type_error("flatMap mapper function is not callable"));
        }
        let shown = describe(vm, f, Shown::Plain);
        return Err(vm.type_error(format!("{shown} is not a function")));
    }
    Ok(f)
}

pub(super) fn set_length(vm: &mut Vm, o: ObjectId, len: u64) -> JsResult<()> {
    set_or_throw(vm, o, PropertyKey::Atom(atom::length), Value::number(len as f64))
}

pub(super) fn idx(i: u64) -> PropertyKey {
    if i < u32::MAX as u64 {
        PropertyKey::Index(i as u32)
    } else {
        PropertyKey::Atom(crate::atoms::atom::empty)
    }
}

/// Key for a (possibly > 2^32-2) index.
pub(crate) fn key_for(vm: &mut Vm, i: u64) -> PropertyKey {
    if i < u32::MAX as u64 {
        PropertyKey::Index(i as u32)
    } else {
        vm.key(&i.to_string())
    }
}
