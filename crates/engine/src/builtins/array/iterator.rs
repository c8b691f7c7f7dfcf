//! Array iterators (§23.1.5): CreateArrayIterator and %ArrayIteratorPrototype%.next, with the
//! interpreter's fast step over dense arrays.
//! https://tc39.es/ecma262/#sec-array-iterator-objects

use crate::atoms::PropertyKey;
use crate::error::JsResult;
use crate::heap::object::{Class, IteratorState, Object};
use crate::runtime::property::{get, length_of_array_like};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// CreateArrayIterator (§23.1.5.1): kind 0 keys, 1 values, 2 entries.
pub fn create_array_iterator(vm: &mut Vm, target: Value, kind: u8) -> Value {
    let proto = vm.realm.array_iterator_prototype;
    let st = IteratorState::Array { target, index: 0, kind, done: false };
    Value::object(vm.heap.alloc_object(Object::new(Some(proto), Class::Iterator(Box::new(st)))))
}

pub(super) fn array_iterator_next(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let Some(it) = this.as_object() else {
        return Err(vm.type_error("next method called on incompatible receiver"));
    };
    let (target, index, kind, done) = match &vm.heap.obj(it).class {
        Class::Iterator(s) => match **s {
            IteratorState::Array { target, index, kind, done } => (target, index, kind, done),
            _ => return Err(vm.type_error("next method called on incompatible receiver")),
        },
        _ => return Err(vm.type_error("next method called on incompatible receiver")),
    };
    if done {
        return Ok(crate::runtime::iterator::create_iter_result_object(vm, Value::UNDEFINED, true));
    }
    let Some(t) = target.as_object() else {
        return Ok(crate::runtime::iterator::create_iter_result_object(vm, Value::UNDEFINED, true));
    };
    let len = match &vm.heap.obj(t).class {
        Class::TypedArray(_) => match crate::builtins::typed_array::length_if_in_bounds(vm, t) {
            Some(n) => n as u64,
            None => {
                return Err(vm.type_error(
                    "Cannot perform %ArrayIteratorPrototype%.next on a detached or out-of-bounds ArrayBuffer",
                ))
            }
        },
        _ => length_of_array_like(vm, t)?,
    };
    if index as u64 >= len {
        set_iter_state(vm, it, index, true);
        return Ok(crate::runtime::iterator::create_iter_result_object(vm, Value::UNDEFINED, true));
    }
    set_iter_state(vm, it, index + 1, false);
    let result = match kind {
        0 => Value::number(index as f64),
        1 => get(vm, t, PropertyKey::Index(index), target)?,
        _ => {
            let v = get(vm, t, PropertyKey::Index(index), target)?;
            vm.new_array(vec![Value::number(index as f64), v])
        }
    };
    Ok(crate::runtime::iterator::create_iter_result_object(vm, result, false))
}

pub(super) fn set_iter_state(vm: &mut Vm, it: ObjectId, new_index: u32, new_done: bool) {
    if let Class::Iterator(s) = &mut vm.heap.obj_mut(it).class {
        if let IteratorState::Array { index, done, .. } = &mut **s {
            *index = new_index;
            *done = new_done;
        }
    }
}

/// Fast step for `for-of` over a built-in array values iterator on a plain array:
/// Some(Some(v)) next value, Some(None) done, None when the fast path does not apply.
pub fn array_iterator_fast_step(vm: &mut Vm, it: ObjectId) -> JsResult<Option<Option<Value>>> {
    let (target, index, kind, done) = match &vm.heap.obj(it).class {
        Class::Iterator(s) => match **s {
            IteratorState::Array { target, index, kind, done } => (target, index, kind, done),
            _ => return Ok(None),
        },
        _ => return Ok(None),
    };
    if kind != 1 {
        return Ok(None);
    }
    if done {
        return Ok(Some(None));
    }
    let Some(t) = target.as_object() else { return Ok(None) };
    let obj = vm.heap.obj(t);
    let Class::Array(a) = obj.class else { return Ok(None) };
    if index >= a.length {
        set_iter_state(vm, it, index, true);
        return Ok(Some(None));
    }
    match obj.elements.get(index as usize) {
        Some(&v) if !v.is_empty() => {
            set_iter_state(vm, it, index + 1, false);
            Ok(Some(Some(v)))
        }
        _ => Ok(None),
    }
}
