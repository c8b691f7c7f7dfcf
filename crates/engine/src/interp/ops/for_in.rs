//! for-in enumeration (EnumerateObjectProperties).

use crate::atoms::PropertyKey;
use crate::error::JsResult;
use crate::heap::object::{Class, IteratorState, Object};
use crate::runtime::convert::{key_to_value, to_object, to_property_key};
use crate::runtime::property;
use crate::value::Value;
use crate::vm::Vm;

/// for-in: collect enumerable string keys up the prototype chain (EnumerateObjectProperties).
pub fn for_in_start(vm: &mut Vm, v: Value) -> JsResult<Value> {
    let mut keys: Vec<Value> = Vec::new();
    if !v.is_nullish() {
        let o = to_object(vm, v)?;
        let mut seen: indexmap::IndexSet<PropertyKey, rustc_hash::FxBuildHasher> = Default::default();
        let mut cur = Some(o);
        while let Some(c) = cur {
            let own = property::own_property_keys(vm, c)?;
            for k in own {
                if matches!(k, PropertyKey::Symbol(_)) || !seen.insert(k) {
                    continue;
                }
                if let Some(d) = property::get_own_property(vm, c, k)? {
                    if d.enumerable == Some(true) {
                        let kv = key_to_value(vm, k);
                        keys.push(kv);
                    }
                }
            }
            vm.charge(1)?;
            cur = property::get_prototype_of(vm, c)?;
        }
        let iter = Class::Iterator(Box::new(IteratorState::ForIn { object: Value::object(o), keys, index: 0 }));
        return Ok(Value::object(vm.heap.alloc_object(Object::new(None, iter))));
    }
    let iter = Class::Iterator(Box::new(IteratorState::ForIn { object: Value::UNDEFINED, keys, index: 0 }));
    Ok(Value::object(vm.heap.alloc_object(Object::new(None, iter))))
}

/// Next key of a for-in iterator still present on the object.
pub fn for_in_next(vm: &mut Vm, it: Value) -> JsResult<Option<Value>> {
    let Some(o) = it.as_object() else { return Ok(None) };
    loop {
        let (object, key) = match &mut vm.heap.obj_mut(o).class {
            Class::Iterator(state) => match &mut **state {
                IteratorState::ForIn { object, keys, index } => {
                    let Some(&k) = keys.get(*index as usize) else { return Ok(None) };
                    *index += 1;
                    (*object, k)
                }
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        // Keys deleted during enumeration are skipped.
        let Some(obj) = object.as_object() else { return Ok(None) };
        let pk = to_property_key(vm, key)?;
        if property::has_property(vm, obj, pk)? {
            return Ok(Some(key));
        }
    }
}
