//! Names resolved at run time: through `with` objects and the var bags of sloppy direct
//! eval (object environments on the frame's chain), then a static location or the global
//! scope. The compiler emits these only where such an environment may sit between a
//! reference and its binding (see `Compiler::dynamic_reference`).

use crate::atoms::{Atom, PropertyKey};
use crate::error::JsResult;
use crate::heap::object::{Class, Object};
use crate::heap::shape::PropFlags;
use crate::heap::EnvId;
use crate::runtime::property::{self, PropertyDescriptor};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

use super::env_at;
use super::ops::{get_global, set_global};

/// An object environment whose HasBinding(name) is true, among the first `limit`
/// environments of the current frame's chain (all of them when `limit` is None): the
/// object, and whether it is a `with` object (the `this` of calls through it).
fn find_binding_object(vm: &mut Vm, name: Atom, limit: Option<u16>) -> JsResult<Option<(ObjectId, bool)>> {
    let mut env = vm.frames.last().and_then(|f| f.env);
    let key = PropertyKey::Atom(name);
    let mut hops = 0u16;
    while let Some(e) = env {
        if limit.is_some_and(|l| hops >= l) {
            break;
        }
        let record = vm.heap.env(e);
        let (object, eval_vars, parent) = (record.object, record.eval_vars, record.parent);
        if let Some(o) = object {
            if eval_vars {
                // A var bag: an ordinary object without a prototype, so this is its own
                // property lookup and has no side effects.
                if property::has_own_property(vm, o, key)? {
                    return Ok(Some((o, false)));
                }
            } else if property::has_property(vm, o, key)? && !unscopable(vm, o, key)? {
                return Ok(Some((o, true)));
            }
        }
        env = parent;
        hops = hops.saturating_add(1);
    }
    Ok(None)
}

/// Object Environment Record HasBinding steps 3-4: is `key` blocked by `@@unscopables`?
fn unscopable(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> JsResult<bool> {
    let unscopables = PropertyKey::Symbol(vm.symbols.unscopables);
    let u = property::get(vm, o, unscopables, Value::object(o))?;
    match u.as_object() {
        Some(uo) => {
            let b = property::get(vm, uo, key, u)?;
            Ok(crate::runtime::convert::to_boolean(vm, b))
        }
        None => Ok(false),
    }
}

fn caller_is_strict(vm: &Vm) -> bool {
    vm.frames.last().is_some_and(|f| vm.heap.code(f.code).strict)
}

/// Object Environment Record GetBindingValue: the binding may have gone since HasBinding
/// (a getter of `@@unscopables` can delete it).
fn object_binding_value(vm: &mut Vm, o: ObjectId, is_with: bool, name: Atom) -> JsResult<Value> {
    let key = PropertyKey::Atom(name);
    if is_with && !property::has_property(vm, o, key)? {
        if caller_is_strict(vm) {
            return Err(unresolvable(vm, name));
        }
        return Ok(Value::UNDEFINED);
    }
    property::get(vm, o, key, Value::object(o))
}

/// Object Environment Record SetMutableBinding.
fn set_object_binding(vm: &mut Vm, o: ObjectId, is_with: bool, name: Atom, v: Value, strict: bool) -> JsResult<()> {
    let key = PropertyKey::Atom(name);
    if is_with && !property::has_property(vm, o, key)? && strict {
        return Err(unresolvable(vm, name));
    }
    let ok = property::set(vm, o, key, v, Value::object(o))?;
    if !ok && strict {
        return Err(property::set_failure(vm, o, key, Value::object(o)));
    }
    Ok(())
}

fn unresolvable(vm: &mut Vm, name: Atom) -> crate::error::Throw {
    let n = vm.heap.atoms.get(name).to_rust_string();
    vm.reference_error(format!("{n} is not defined"))
}

fn tdz_error(vm: &mut Vm, name: Atom) -> crate::error::Throw {
    let n = vm.heap.atoms.get(name).to_rust_string();
    vm.reference_error(format!("Cannot access '{n}' before initialization"))
}

/// Look a name up through the object environments of the current frame, then globals.
pub fn get_name(vm: &mut Vm, name: Atom, throw_if_missing: bool) -> JsResult<Value> {
    if let Some((o, is_with)) = find_binding_object(vm, name, None)? {
        return object_binding_value(vm, o, is_with, name);
    }
    get_global(vm, name, throw_if_missing)
}

/// A callee by name and its `this`.
pub fn get_name_this(vm: &mut Vm, name: Atom) -> JsResult<(Value, Value)> {
    if let Some((o, is_with)) = find_binding_object(vm, name, None)? {
        let f = object_binding_value(vm, o, is_with, name)?;
        return Ok((f, if is_with { Value::object(o) } else { Value::UNDEFINED }));
    }
    Ok((get_global(vm, name, true)?, Value::UNDEFINED))
}

pub fn set_name(vm: &mut Vm, name: Atom, v: Value, strict: bool) -> JsResult<()> {
    if let Some((o, is_with)) = find_binding_object(vm, name, None)? {
        return set_object_binding(vm, o, is_with, name, v, strict);
    }
    set_global(vm, name, v, strict)
}

pub fn delete_name(vm: &mut Vm, name: Atom) -> JsResult<bool> {
    let key = PropertyKey::Atom(name);
    if let Some((o, _)) = find_binding_object(vm, name, None)? {
        return property::delete(vm, o, key);
    }
    if vm.global_lexicals.contains_key(&name) {
        return Ok(false);
    }
    let g = vm.global;
    property::delete(vm, g, key)
}

fn env_slot(vm: &Vm, depth: u16, slot: u32) -> (Option<EnvId>, Value) {
    let e = env_at(vm, vm.frames.last().and_then(|f| f.env), depth);
    (e, e.and_then(|e| vm.heap.env(e).slots.get(slot as usize).copied()).unwrap_or_default())
}

/// A binding `depth` environments up, unless an object environment on the way has the name.
pub fn get_name_env(vm: &mut Vm, name: Atom, depth: u16, slot: u32, checked: bool) -> JsResult<(Value, Value)> {
    if let Some((o, is_with)) = find_binding_object(vm, name, Some(depth))? {
        let v = object_binding_value(vm, o, is_with, name)?;
        return Ok((v, if is_with { Value::object(o) } else { Value::UNDEFINED }));
    }
    let (_, v) = env_slot(vm, depth, slot);
    if checked && v.is_empty() {
        return Err(tdz_error(vm, name));
    }
    Ok((v, Value::UNDEFINED))
}

pub fn set_name_env(vm: &mut Vm, name: Atom, depth: u16, slot: u32, checked: bool, v: Value) -> JsResult<()> {
    if let Some((o, is_with)) = find_binding_object(vm, name, Some(depth))? {
        let strict = caller_is_strict(vm);
        return set_object_binding(vm, o, is_with, name, v, strict);
    }
    let (e, cur) = env_slot(vm, depth, slot);
    if checked && cur.is_empty() {
        return Err(tdz_error(vm, name));
    }
    if let Some(s) = e.and_then(|e| vm.heap.env_mut(e).slots.get_mut(slot as usize)) {
        *s = v;
    }
    Ok(())
}

pub fn delete_name_env(vm: &mut Vm, name: Atom, depth: u16) -> JsResult<bool> {
    if let Some((o, _)) = find_binding_object(vm, name, Some(depth))? {
        return property::delete(vm, o, PropertyKey::Atom(name));
    }
    Ok(false)
}

/// `depth` of a reference resolved through the whole chain and the global scope.
const WHOLE_CHAIN: u16 = u16::MAX;

/// ResolveBinding for an assignment, which must not look again after evaluating its right
/// side: the object environment's object holding the name, or undefined for the static
/// location (env slot, or global when `depth` is `WHOLE_CHAIN`).
pub fn resolve_name(vm: &mut Vm, name: Atom, depth: u16) -> JsResult<Value> {
    let limit = (depth != WHOLE_CHAIN).then_some(depth);
    Ok(find_binding_object(vm, name, limit)?.map_or(Value::UNDEFINED, |(o, _)| Value::object(o)))
}

/// GetValue of a reference from [`resolve_name`].
pub fn get_name_ref(vm: &mut Vm, base: Value, name: Atom, depth: u16, slot: u32, checked: bool) -> JsResult<Value> {
    if let Some(o) = base.as_object() {
        return object_binding_value(vm, o, true, name);
    }
    if depth == WHOLE_CHAIN {
        return get_global(vm, name, true);
    }
    let (_, v) = env_slot(vm, depth, slot);
    if checked && v.is_empty() {
        return Err(tdz_error(vm, name));
    }
    Ok(v)
}

/// PutValue of a reference from [`resolve_name`].
pub fn put_name_ref(
    vm: &mut Vm,
    base: Value,
    name: Atom,
    depth: u16,
    slot: u32,
    checked: bool,
    v: Value,
) -> JsResult<()> {
    let strict = caller_is_strict(vm);
    if let Some(o) = base.as_object() {
        return set_object_binding(vm, o, true, name, v, strict);
    }
    if depth == WHOLE_CHAIN {
        return set_global(vm, name, v, strict);
    }
    let (e, cur) = env_slot(vm, depth, slot);
    if checked && cur.is_empty() {
        return Err(tdz_error(vm, name));
    }
    if let Some(s) = e.and_then(|e| vm.heap.env_mut(e).slots.get_mut(slot as usize)) {
        *s = v;
    }
    Ok(())
}

/// The var bag of the environment `depth` up, created on first use.
fn eval_var_bag(vm: &mut Vm, depth: u16) -> Option<ObjectId> {
    let e = env_at(vm, vm.frames.last().and_then(|f| f.env), depth)?;
    if let Some(o) = vm.heap.env(e).object {
        return Some(o);
    }
    let o = vm.heap.alloc_object(Object::new(None, Class::Ordinary));
    let record = vm.heap.env_mut(e);
    record.object = Some(o);
    record.eval_vars = true;
    Some(o)
}

/// EvalDeclarationInstantiation step 17/18 for a function's variable environment:
/// CreateMutableBinding(name, true) and InitializeBinding(name, undefined) unless bound.
pub fn declare_eval_var(vm: &mut Vm, name: Atom, depth: u16) -> JsResult<()> {
    let Some(o) = eval_var_bag(vm, depth) else { return Ok(()) };
    let key = PropertyKey::Atom(name);
    if !property::has_own_property(vm, o, key)? {
        let flags = PropFlags(PropFlags::WRITABLE | PropFlags::ENUMERABLE | PropFlags::CONFIGURABLE);
        property::define_property_or_throw(vm, o, key, PropertyDescriptor::data(Value::UNDEFINED, flags))?;
    }
    Ok(())
}

/// A function declaration of eval code bound in the var bag (SetMutableBinding or
/// InitializeBinding: either way the bag's property takes the function).
pub fn init_eval_var(vm: &mut Vm, name: Atom, depth: u16, v: Value) -> JsResult<()> {
    let Some(o) = eval_var_bag(vm, depth) else { return Ok(()) };
    let flags = PropFlags(PropFlags::WRITABLE | PropFlags::ENUMERABLE | PropFlags::CONFIGURABLE);
    property::define_property_or_throw(vm, o, PropertyKey::Atom(name), PropertyDescriptor::data(v, flags))
}
