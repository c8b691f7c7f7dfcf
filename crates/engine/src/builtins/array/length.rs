//! The Array exotic object's `length` (§10.4.2.4 ArraySetLength).
//! https://tc39.es/ecma262/#sec-arraysetlength

use crate::atoms::PropertyKey;
use crate::error::JsResult;
use crate::heap::object::Class;
use crate::runtime::convert::to_number;
use crate::runtime::property::{delete, PropertyDescriptor};
use crate::value::ObjectId;
use crate::vm::Vm;

/// ArraySetLength.
pub fn array_set_length(vm: &mut Vm, a: ObjectId, desc: PropertyDescriptor) -> JsResult<bool> {
    let Class::Array(data) = vm.heap.obj(a).class else { return Ok(false) };
    let Some(value) = desc.value else {
        // Attribute-only change of `length`.
        if desc.configurable == Some(true) || desc.enumerable == Some(true) || desc.is_accessor() {
            return Ok(false);
        }
        if desc.writable == Some(true) && !data.length_writable {
            return Ok(false);
        }
        if desc.writable == Some(false) {
            if let Class::Array(d) = &mut vm.heap.obj_mut(a).class {
                d.length_writable = false;
            }
        }
        return Ok(true);
    };
    let new_len = crate::runtime::convert::to_uint32(vm, value)?;
    let number_len = to_number(vm, value)?;
    if new_len as f64 != number_len {
        return Err(vm.range_error("Invalid array length"));
    }
    if desc.configurable == Some(true) || desc.enumerable == Some(true) || desc.is_accessor() {
        return Ok(false);
    }
    let Class::Array(data) = vm.heap.obj(a).class else { return Ok(false) };
    if new_len == data.length {
        if desc.writable == Some(true) && !data.length_writable {
            return Ok(false);
        }
        if desc.writable == Some(false) {
            if let Class::Array(d) = &mut vm.heap.obj_mut(a).class {
                d.length_writable = false;
            }
        }
        return Ok(true);
    }
    if !data.length_writable {
        return Ok(false);
    }
    if new_len > data.length {
        if let Class::Array(d) = &mut vm.heap.obj_mut(a).class {
            d.length = new_len;
            if desc.writable == Some(false) {
                d.length_writable = false;
            }
        }
        return Ok(true);
    }
    // Shrinking: delete indices >= new_len from the top; stop at a non-configurable one.
    let obj = vm.heap.obj_mut(a);
    if obj.elements.len() > new_len as usize {
        obj.elements.truncate(new_len as usize);
    }
    let mut named: Vec<u32> = vm
        .heap
        .obj(a)
        .named_keys(&vm.heap.shapes)
        .into_iter()
        .filter_map(|(k, _)| if let PropertyKey::Index(i) = k { Some(i) } else { None })
        .filter(|&i| i >= new_len)
        .collect();
    named.sort_unstable_by(|x, y| y.cmp(x));
    let mut final_len = new_len;
    for i in named {
        if !delete(vm, a, PropertyKey::Index(i))? {
            final_len = i + 1;
            break;
        }
    }
    if let Class::Array(d) = &mut vm.heap.obj_mut(a).class {
        d.length = final_len;
        if desc.writable == Some(false) {
            d.length_writable = false;
        }
    }
    Ok(final_len == new_len)
}
