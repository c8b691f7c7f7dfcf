//! Module namespace exotic objects (§10.4.6): a frozen-looking view of a module's exports
//! whose values are read live from the exporting environments.
//!
//! The object has a null prototype, is not extensible, and owns one ordinary property,
//! `@@toStringTag` = "Module". Export names are not stored as properties: string keys go
//! through the functions here, symbol keys through the ordinary algorithms.
//! `runtime/property.rs` dispatches to this file for `Class::Namespace` objects.

use crate::atoms::{atom, PropertyKey};
use crate::error::JsResult;
use crate::heap::object::{Class, NamespaceData, NsBinding, NsExport, Object};
use crate::heap::shape::PropFlags;
use crate::module::ModuleId;
use crate::runtime::property::{self, PropertyDescriptor};
use crate::string::JsStr;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// ModuleNamespaceCreate(module, exports, phase): exports sorted by code units.
pub fn create(vm: &mut Vm, module: ModuleId, mut exports: Vec<(JsStr, NsBinding)>, deferred: bool) -> ObjectId {
    exports.sort_by(|a, b| a.0.iter().cmp(b.0.iter()));
    let exports = exports
        .into_iter()
        .map(|(name, binding)| {
            let key = vm.heap.atoms.key_for(&name);
            NsExport { name, key, binding }
        })
        .collect();
    let mut o = Object::new(None, Class::Namespace(Box::new(NamespaceData { module, deferred, exports })));
    o.extensible = false;
    let ns = vm.heap.alloc_object(o);
    // @@toStringTag: "Module" ("Deferred Module"), not writable, enumerable or configurable.
    let tag = vm.str(if deferred { "Deferred Module" } else { "Module" });
    let key = PropertyKey::Symbol(vm.symbols.toStringTag);
    if let Some(obj) = vm.heap.objects.get_mut(ns.0) {
        obj.add_named(&mut vm.heap.shapes, key, tag, PropFlags::NONE);
    }
    ns
}

/// Is `o` a module namespace object?
#[inline]
pub fn is_namespace(vm: &Vm, o: ObjectId) -> bool {
    matches!(vm.heap.obj(o).class, Class::Namespace(_))
}

fn binding_of(vm: &Vm, o: ObjectId, key: PropertyKey) -> Option<NsBinding> {
    match &vm.heap.obj(o).class {
        Class::Namespace(n) => n.exports.iter().find(|e| e.key == key).map(|e| e.binding),
        _ => None,
    }
}

fn deferred_module(vm: &Vm, o: ObjectId) -> Option<ModuleId> {
    match &vm.heap.obj(o).class {
        Class::Namespace(n) if n.deferred => Some(n.module),
        _ => None,
    }
}

/// IsSymbolLikeNamespaceKey: a symbol, or `then` on a deferred namespace (so awaiting or
/// resolving a promise with one does not evaluate the module).
fn is_symbol_like(vm: &Vm, o: ObjectId, key: PropertyKey) -> bool {
    match key {
        PropertyKey::Symbol(_) => true,
        PropertyKey::Atom(a) => a == atom::then && deferred_module(vm, o).is_some(),
        PropertyKey::Index(_) => false,
    }
}

/// GetModuleExportsList: a deferred namespace first evaluates its module synchronously
/// (TypeError when that is not possible now).
fn ensure_exports(vm: &mut Vm, o: ObjectId) -> JsResult<()> {
    if let Some(m) = deferred_module(vm, o) {
        if !crate::module::evaluate::ready_for_sync_execution(vm, m, &mut Vec::new()) {
            let name = crate::module::record(vm, m).name.clone();
            return Err(vm.type_error(format!("Cannot evaluate the deferred module '{name}' synchronously now")));
        }
        crate::module::evaluate::evaluate_module_sync(vm, m)?;
    }
    Ok(())
}

/// The live value of a binding (ReferenceError while it is uninitialised).
fn read(vm: &mut Vm, key: PropertyKey, b: NsBinding) -> JsResult<Value> {
    match b {
        NsBinding::Slot { env, slot } => {
            let v = vm.heap.env(env).slots.get(slot as usize).copied().unwrap_or(Value::EMPTY);
            if v.is_empty() {
                let n = crate::runtime::convert::key_to_display(vm, key);
                return Err(vm.reference_error(format!("Cannot access '{n}' before initialization")));
            }
            Ok(v)
        }
        NsBinding::Namespace(m) => Ok(Value::object(crate::module::link::get_namespace(vm, m))),
        NsBinding::DeferredNamespace(m) => Ok(Value::object(crate::module::link::get_deferred_namespace(vm, m))),
    }
}

/// [[GetOwnProperty]] (§10.4.6.5).
pub fn get_own_property(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> JsResult<Option<PropertyDescriptor>> {
    if is_symbol_like(vm, o, key) {
        return Ok(property::ordinary_get_own_property(vm, o, key));
    }
    ensure_exports(vm, o)?;
    let Some(b) = binding_of(vm, o, key) else { return Ok(None) };
    let value = read(vm, key, b)?;
    Ok(Some(PropertyDescriptor::data(value, PropFlags(PropFlags::WRITABLE | PropFlags::ENUMERABLE))))
}

/// [[DefineOwnProperty]] (§10.4.6.6).
pub fn define_own_property(vm: &mut Vm, o: ObjectId, key: PropertyKey, desc: PropertyDescriptor) -> JsResult<bool> {
    if is_symbol_like(vm, o, key) {
        return property::ordinary_define_own_property(vm, o, key, desc);
    }
    // 2-3. Let current be ? O.[[GetOwnProperty]](P); if undefined, return false.
    let Some(current) = get_own_property(vm, o, key)? else { return Ok(false) };
    // 4-7.
    if desc.configurable == Some(true)
        || desc.enumerable == Some(false)
        || desc.is_accessor()
        || desc.writable == Some(false)
    {
        return Ok(false);
    }
    // 8. If Desc has a [[Value]] field, return SameValue(Desc.[[Value]], current.[[Value]]).
    if let Some(v) = desc.value {
        return Ok(crate::runtime::operators::same_value_heap(vm, v, current.value.unwrap_or_default()));
    }
    Ok(true)
}

/// [[HasProperty]] (§10.4.6.7).
pub fn has_property(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> JsResult<bool> {
    if is_symbol_like(vm, o, key) {
        return Ok(property::ordinary_get_own_property(vm, o, key).is_some());
    }
    ensure_exports(vm, o)?;
    Ok(binding_of(vm, o, key).is_some())
}

/// [[Get]] (§10.4.6.8): symbol-like keys are ordinary own properties (the prototype is null).
pub fn get(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> JsResult<Value> {
    if is_symbol_like(vm, o, key) {
        return Ok(match vm.heap.obj(o).lookup_named(&vm.heap.shapes, key) {
            Some((v, f)) if !f.is_accessor() => v,
            _ => Value::UNDEFINED,
        });
    }
    ensure_exports(vm, o)?;
    match binding_of(vm, o, key) {
        Some(b) => read(vm, key, b),
        None => Ok(Value::UNDEFINED),
    }
}

/// [[Delete]] (§10.4.6.10): exports (and the non-configurable tag) cannot be deleted.
pub fn delete(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> JsResult<bool> {
    if is_symbol_like(vm, o, key) {
        return Ok(property::ordinary_get_own_property(vm, o, key).is_none_or(|d| d.configurable == Some(true)));
    }
    ensure_exports(vm, o)?;
    Ok(binding_of(vm, o, key).is_none())
}

/// [[OwnPropertyKeys]] (§10.4.6.11): the exports in order (without `then` when deferred),
/// then the symbol keys.
pub fn own_property_keys(vm: &mut Vm, o: ObjectId) -> JsResult<Vec<PropertyKey>> {
    ensure_exports(vm, o)?;
    let deferred = deferred_module(vm, o).is_some();
    let obj = vm.heap.obj(o);
    let mut keys: Vec<PropertyKey> = match &obj.class {
        Class::Namespace(n) => {
            n.exports.iter().map(|e| e.key).filter(|&k| !(deferred && k == PropertyKey::Atom(atom::then))).collect()
        }
        _ => Vec::new(),
    };
    keys.extend(
        obj.named_keys(&vm.heap.shapes).into_iter().map(|(k, _)| k).filter(|k| matches!(k, PropertyKey::Symbol(_))),
    );
    Ok(keys)
}
