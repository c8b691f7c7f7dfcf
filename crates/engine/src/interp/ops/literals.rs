//! Template objects and regular expression literals.

use crate::atoms::{atom, PropertyKey};
use crate::error::JsResult;
use crate::heap::object::Class;
use crate::heap::shape::PropFlags;
use crate::heap::CodeId;
use crate::runtime::property;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// GetTemplateObject (§13.2.8.4), cached per site.
pub fn template_object(vm: &mut Vm, code: CodeId, index: u32) -> JsResult<Value> {
    if let Some(&v) = vm.heap.code(code).template_cache.get(index as usize) {
        if !v.is_undefined() {
            return Ok(v);
        }
    }
    let Some(site) = vm.heap.code(code).templates.get(index as usize).cloned() else {
        return Err(vm.type_error("invalid template"));
    };
    let cooked: Vec<Value> = site
        .cooked
        .iter()
        .map(|c| match c {
            Some(s) => vm.js_str(s.clone()),
            None => Value::UNDEFINED,
        })
        .collect();
    let raw: Vec<Value> = site.raw.iter().map(|s| vm.js_str(s.clone())).collect();
    let raw_arr = vm.new_array(raw);
    let arr = vm.new_array(cooked);
    if let (Some(a), Some(r)) = (arr.as_object(), raw_arr.as_object()) {
        vm.define_builtin(a, PropertyKey::Atom(atom::raw), raw_arr, PropFlags::NONE);
        freeze_array(vm, r);
        freeze_array(vm, a);
    }
    let code_block = vm.heap.code_mut(code);
    if code_block.template_cache.len() <= index as usize {
        code_block.template_cache.resize(index as usize + 1, Value::UNDEFINED);
    }
    code_block.template_cache[index as usize] = arr;
    Ok(arr)
}

fn freeze_array(vm: &mut Vm, a: ObjectId) {
    property::demote_elements(vm, a);
    let keys = property::ordinary_own_property_keys(vm, a);
    let obj = vm.heap.obj_mut(a);
    obj.extensible = false;
    if let Class::Array(d) = &mut obj.class {
        d.length_writable = false;
    }
    let shapes = vm.heap.shapes.clone();
    let obj = vm.heap.obj_mut(a);
    for k in keys {
        if let Some((v, f)) = obj.lookup_named(&shapes, k) {
            let nf = PropFlags(f.0 & !(PropFlags::WRITABLE | PropFlags::CONFIGURABLE));
            obj.redefine_named(&shapes, k, v, nf);
        }
    }
}

pub fn regexp_literal(vm: &mut Vm, code: CodeId, index: u32) -> JsResult<Value> {
    let Some((source, flags)) = vm.heap.code(code).regexps.get(index as usize).cloned() else {
        return Err(vm.type_error("invalid regexp"));
    };
    crate::builtins::regexp::regexp_create(vm, source, flags)
}
