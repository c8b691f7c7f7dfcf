//! Global variable access and GlobalDeclarationInstantiation.

use crate::atoms::{Atom, PropertyKey};
use crate::error::JsResult;
use crate::heap::shape::PropFlags;
use crate::heap::CodeId;
use crate::runtime::property::{self, PropertyDescriptor};
use crate::value::Value;
use crate::vm::Vm;

use super::classes::make_closure;

/// Read a global: lexical declarations first, then the global object.
pub fn get_global(vm: &mut Vm, name: Atom, throw_if_missing: bool) -> JsResult<Value> {
    if let Some(&(v, _)) = vm.global_lexicals.get(&name) {
        if v.is_empty() {
            let n = vm.heap.atoms.get(name).to_rust_string();
            return Err(vm.reference_error(format!("Cannot access '{n}' before initialization")));
        }
        return Ok(v);
    }
    let g = vm.global;
    let key = PropertyKey::Atom(name);
    // Fast path: own data property of the global object.
    if let Some((v, flags)) = vm.heap.obj(g).lookup_named(&vm.heap.shapes, key) {
        if !flags.is_accessor() {
            return Ok(v);
        }
    }
    if !property::has_property(vm, g, key)? {
        if !throw_if_missing {
            return Ok(Value::UNDEFINED);
        }
        let n = vm.heap.atoms.get(name).to_rust_string();
        return Err(vm.reference_error(format!("{n} is not defined")));
    }
    property::get(vm, g, key, Value::object(g))
}

/// Assign a global.
pub fn set_global(vm: &mut Vm, name: Atom, v: Value, strict: bool) -> JsResult<()> {
    if let Some(&(cur, mutable)) = vm.global_lexicals.get(&name) {
        if cur.is_empty() {
            let n = vm.heap.atoms.get(name).to_rust_string();
            return Err(vm.reference_error(format!("Cannot access '{n}' before initialization")));
        }
        if !mutable {
            return Err(vm.type_error("Assignment to constant variable."));
        }
        if let Some(b) = vm.global_lexicals.get_mut(&name) {
            b.0 = v;
        }
        return Ok(());
    }
    let g = vm.global;
    let key = PropertyKey::Atom(name);
    if strict && !property::has_property(vm, g, key)? {
        let n = vm.heap.atoms.get(name).to_rust_string();
        return Err(vm.reference_error(format!("{n} is not defined")));
    }
    let ok = property::set(vm, g, key, v, Value::object(g))?;
    if !ok && strict {
        return Err(property::set_failure(vm, g, key, Value::object(g)));
    }
    Ok(())
}

/// GlobalDeclarationInstantiation (§16.1.7) for a script's code block.
pub fn declare_globals(vm: &mut Vm, code: CodeId) -> JsResult<()> {
    let decls = vm.heap.code(code).global_decls.clone();
    let g = vm.global;
    for &name in decls.lets.iter().chain(decls.consts.iter()) {
        if vm.global_lexicals.contains_key(&name) {
            let n = vm.heap.atoms.get(name).to_rust_string();
            return Err(vm.syntax_error(format!("Identifier '{n}' has already been declared")));
        }
        if let Some(d) = property::get_own_property(vm, g, PropertyKey::Atom(name))? {
            if d.configurable == Some(false) {
                let n = vm.heap.atoms.get(name).to_rust_string();
                return Err(vm.syntax_error(format!("Identifier '{n}' has already been declared")));
            }
        }
    }
    for &name in decls.vars.iter().chain(decls.functions.iter().map(|(n, _)| n)) {
        if vm.global_lexicals.contains_key(&name) {
            let n = vm.heap.atoms.get(name).to_rust_string();
            return Err(vm.syntax_error(format!("Identifier '{n}' has already been declared")));
        }
    }
    for &(name, _) in &decls.functions {
        let key = PropertyKey::Atom(name);
        let existing = property::get_own_property(vm, g, key)?;
        let ok = match existing {
            None => vm.heap.obj(g).extensible,
            Some(d) => {
                d.configurable == Some(true) || (d.is_data() && d.writable == Some(true) && d.enumerable == Some(true))
            }
        };
        if !ok {
            let n = vm.heap.atoms.get(name).to_rust_string();
            return Err(vm.type_error(format!("Cannot redefine global function '{n}'")));
        }
    }
    for &name in &decls.vars {
        let key = PropertyKey::Atom(name);
        if property::get_own_property(vm, g, key)?.is_none() && !vm.heap.obj(g).extensible {
            let n = vm.heap.atoms.get(name).to_rust_string();
            return Err(vm.type_error(format!("Cannot define global variable '{n}'")));
        }
    }
    for &name in &decls.lets {
        vm.global_lexicals.insert(name, (Value::EMPTY, true));
    }
    for &name in &decls.consts {
        vm.global_lexicals.insert(name, (Value::EMPTY, false));
    }
    let frame_index = vm.frames.len().saturating_sub(1);
    for &(name, fidx) in &decls.functions {
        let f = make_closure(vm, frame_index, code, fidx)?;
        let key = PropertyKey::Atom(name);
        let existing = property::get_own_property(vm, g, key)?;
        let base = PropFlags::WRITABLE | PropFlags::ENUMERABLE;
        let flags = if decls.configurable { base | PropFlags::CONFIGURABLE } else { base };
        let desc = match existing {
            Some(d) if d.configurable != Some(true) => PropertyDescriptor { value: Some(f), ..Default::default() },
            _ => PropertyDescriptor::data(f, PropFlags(flags)),
        };
        property::define_property_or_throw(vm, g, key, desc)?;
    }
    for &name in &decls.vars {
        let key = PropertyKey::Atom(name);
        if property::get_own_property(vm, g, key)?.is_none() {
            let base = PropFlags::WRITABLE | PropFlags::ENUMERABLE;
            let flags = if decls.configurable { base | PropFlags::CONFIGURABLE } else { base };
            let desc = PropertyDescriptor::data(Value::UNDEFINED, PropFlags(flags));
            property::define_property_or_throw(vm, g, key, desc)?;
        }
    }
    Ok(())
}
