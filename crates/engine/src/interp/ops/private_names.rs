//! Private names: a private name is a symbol; its properties live in the object's named part
//! keyed by that symbol, hidden from every reflective operation.

use crate::atoms::PropertyKey;
use crate::error::JsResult;
use crate::heap::object::Class;
use crate::heap::shape::PropFlags;
use crate::runtime::call::call;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// The source name of a private name (`#x`), for messages.
fn private_name(vm: &Vm, key: Value) -> String {
    key.as_symbol()
        .and_then(|s| vm.heap.symbol(s))
        .and_then(|sym| sym.description.as_ref())
        .map_or_else(|| "#<private>".to_string(), |d| d.to_rust_string())
}

pub fn private_find(vm: &Vm, o: ObjectId, key: Value) -> Option<(Value, PropFlags)> {
    let s = key.as_symbol()?;
    vm.heap.obj(o).lookup_named(&vm.heap.shapes, PropertyKey::Symbol(s))
}

pub fn private_get(vm: &mut Vm, obj: Value, key: Value) -> JsResult<Value> {
    let found = obj.as_object().and_then(|o| private_find(vm, o, key));
    let Some((v, flags)) = found else {
        return Err(vm.type_error("Cannot read private member from an object whose class did not declare it"));
    };
    if flags.is_accessor() {
        let getter = match v.as_object().map(|p| &vm.heap.obj(p).class) {
            Some(Class::AccessorPair { get, .. }) => *get,
            _ => Value::UNDEFINED,
        };
        if getter.is_undefined() {
            let name = private_name(vm, key);
            return Err(vm.type_error(format!("'{name}' was defined without a getter")));
        }
        return call(vm, getter, obj, &[]);
    }
    Ok(v)
}

pub fn private_set(vm: &mut Vm, obj: Value, key: Value, v: Value) -> JsResult<()> {
    let Some(o) = obj.as_object() else {
        return Err(vm.type_error("Cannot write private member to an object whose class did not declare it"));
    };
    let Some((cur, flags)) = private_find(vm, o, key) else {
        return Err(vm.type_error("Cannot write private member to an object whose class did not declare it"));
    };
    if flags.is_accessor() {
        let setter = match cur.as_object().map(|p| &vm.heap.obj(p).class) {
            Some(Class::AccessorPair { set, .. }) => *set,
            _ => Value::UNDEFINED,
        };
        if setter.is_undefined() {
            let name = private_name(vm, key);
            return Err(vm.type_error(format!("'{name}' was defined without a setter")));
        }
        call(vm, setter, obj, &[v])?;
        return Ok(());
    }
    if !flags.writable() {
        let name = private_name(vm, key);
        return Err(vm.type_error(format!("Private method '{name}' is not writable")));
    }
    if let Some(s) = key.as_symbol() {
        let heap = &mut vm.heap;
        if let Some(object) = heap.objects.get_mut(o.0) {
            object.set_named_value(&heap.shapes, PropertyKey::Symbol(s), v);
        }
    }
    Ok(())
}

/// Add a private field, method (`method`: not writable) or accessor (`v` an accessor-pair
/// object, from `MakeAccessorPair`).
pub fn private_define(vm: &mut Vm, obj: Value, key: Value, v: Value, method: bool) -> JsResult<()> {
    let (Some(o), Some(s)) = (obj.as_object(), key.as_symbol()) else { return Ok(()) };
    if private_find(vm, o, key).is_some() {
        return Err(vm.type_error("Cannot initialize private field twice on the same object"));
    }
    // PrivateFieldAdd / PrivateMethodOrAccessorAdd step 3 (nonextensible-applies-to-private):
    // a non-extensible object takes no new private elements. A proxy's own flag is never
    // cleared (its target's is what Object.preventExtensions changes), so a proxy takes
    // them, stored on the proxy object itself.
    if !vm.heap.obj(o).extensible {
        let name = private_name(vm, key);
        return Err(vm.type_error(format!("Cannot define private field {name} on a non-extensible object")));
    }
    let is_pair = v.as_object().is_some_and(|p| matches!(vm.heap.obj(p).class, Class::AccessorPair { .. }));
    let flags = match (is_pair, method) {
        (true, _) => PropFlags(PropFlags::ACCESSOR),
        (false, true) => PropFlags::NONE,
        (false, false) => PropFlags(PropFlags::WRITABLE),
    };
    let heap = &mut vm.heap;
    if let Some(object) = heap.objects.get_mut(o.0) {
        let before = crate::heap::named_bytes(&object.props);
        object.add_named(&mut heap.shapes, PropertyKey::Symbol(s), v, flags);
        let grown = crate::heap::named_bytes(&object.props).saturating_sub(before);
        heap.note_growth(grown);
    }
    Ok(())
}
