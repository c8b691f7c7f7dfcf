//! Object internal methods (ECMA-262 §10.1 ordinary objects, §10.4 exotic objects):
//! [[GetOwnProperty]], [[DefineOwnProperty]], [[Get]], [[Set]], [[Delete]], [[HasProperty]],
//! [[OwnPropertyKeys]], [[GetPrototypeOf]], [[SetPrototypeOf]], [[PreventExtensions]].
//!
//! Ordinary objects take fast paths; Array, String, arguments, TypedArray and Proxy objects
//! follow their exotic algorithms.

use crate::atoms::{atom, PropertyKey};
use crate::builtins::proxy;
use crate::error::JsResult;
use crate::heap::object::{Class, Object};
use crate::heap::shape::PropFlags;
use crate::module::namespace;
use crate::runtime::call::call;
use crate::runtime::describe::{describe, Shown};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// A property descriptor with optional fields (§6.2.6).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PropertyDescriptor {
    pub value: Option<Value>,
    pub writable: Option<bool>,
    pub get: Option<Value>,
    pub set: Option<Value>,
    pub enumerable: Option<bool>,
    pub configurable: Option<bool>,
}

impl PropertyDescriptor {
    /// A complete data descriptor.
    pub fn data(value: Value, flags: PropFlags) -> Self {
        PropertyDescriptor {
            value: Some(value),
            writable: Some(flags.writable()),
            get: None,
            set: None,
            enumerable: Some(flags.enumerable()),
            configurable: Some(flags.configurable()),
        }
    }
    pub fn is_accessor(&self) -> bool {
        self.get.is_some() || self.set.is_some()
    }
    pub fn is_data(&self) -> bool {
        self.value.is_some() || self.writable.is_some()
    }
    fn flags(&self) -> PropFlags {
        let mut f = 0;
        if self.writable == Some(true) {
            f |= PropFlags::WRITABLE;
        }
        if self.enumerable == Some(true) {
            f |= PropFlags::ENUMERABLE;
        }
        if self.configurable == Some(true) {
            f |= PropFlags::CONFIGURABLE;
        }
        if self.is_accessor() {
            f |= PropFlags::ACCESSOR;
            f &= !PropFlags::WRITABLE;
        }
        PropFlags(f)
    }
}

fn accessor_parts(vm: &Vm, pair: Value) -> (Value, Value) {
    match pair.as_object().map(|p| &vm.heap.obj(p).class) {
        Some(Class::AccessorPair { get, set }) => (*get, *set),
        _ => (Value::UNDEFINED, Value::UNDEFINED),
    }
}

fn stored_to_descriptor(vm: &Vm, value: Value, flags: PropFlags) -> PropertyDescriptor {
    if flags.is_accessor() {
        let (get, set) = accessor_parts(vm, value);
        PropertyDescriptor {
            value: None,
            writable: None,
            get: Some(get),
            set: Some(set),
            enumerable: Some(flags.enumerable()),
            configurable: Some(flags.configurable()),
        }
    } else {
        PropertyDescriptor::data(value, flags)
    }
}

/// Is this object exotic in a way that bypasses the ordinary fast paths?
#[inline]
fn is_proxy(vm: &Vm, o: ObjectId) -> bool {
    matches!(vm.heap.obj(o).class, Class::Proxy(_))
}

/// A string key of a module namespace object: handled by `module/namespace.rs` (symbol keys
/// are ordinary properties).
#[inline]
fn is_namespace_export_key(vm: &Vm, o: ObjectId, key: PropertyKey) -> bool {
    !matches!(key, PropertyKey::Symbol(_)) && namespace::is_namespace(vm, o)
}

/// OrdinaryGetOwnProperty plus the exotic cases that synthesise properties.
pub fn get_own_property(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> JsResult<Option<PropertyDescriptor>> {
    if is_proxy(vm, o) {
        return proxy::get_own_property(vm, o, key);
    }
    if is_namespace_export_key(vm, o, key) {
        return namespace::get_own_property(vm, o, key);
    }
    if let Class::TypedArray(_) = vm.heap.obj(o).class {
        if let Some(index) = crate::builtins::typed_array::canonical_numeric_key(vm, key) {
            return Ok(index.and_then(|i| crate::builtins::typed_array::get_own_index_value(vm, o, i)));
        }
    }
    Ok(own_property_with_units(vm, o, key))
}

/// OrdinaryGetOwnProperty where the caller can allocate: a String exotic's index property
/// gets its code unit as a string. The read-only `ordinary_get_own_property` cannot make one
/// for a unit outside Latin-1 (its value is undefined there); every path that needs the value
/// comes here.
fn own_property_with_units(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> Option<PropertyDescriptor> {
    let mut desc = ordinary_get_own_property(vm, o, key);
    if let (Some(d), Some(unit)) = (desc.as_mut(), string_unit(vm, o, key)) {
        d.value = Some(crate::runtime::convert::single_char(vm, unit));
    }
    desc
}

/// The code unit at index `key` of String exotic `o` (StringGetOwnProperty, §10.4.3.5).
fn string_unit(vm: &Vm, o: ObjectId, key: PropertyKey) -> Option<u16> {
    let (Class::String(s), PropertyKey::Index(i)) = (&vm.heap.obj(o).class, key) else { return None };
    ((i as usize) < vm.heap.string_len(*s)).then(|| vm.heap.flat_ref(*s).unit(i as usize))
}

/// Own property of a non-proxy object (String and TypedArray exotics included).
pub fn ordinary_get_own_property(vm: &Vm, o: ObjectId, key: PropertyKey) -> Option<PropertyDescriptor> {
    let obj = vm.heap.obj(o);
    if let PropertyKey::Index(i) = key {
        if let Some(&v) = obj.elements.get(i as usize) {
            if !v.is_empty() {
                return Some(PropertyDescriptor::data(v, element_flags(obj)));
            }
        }
        match &obj.class {
            Class::String(s) => {
                let s = *s;
                let len = vm.heap.string_len(s);
                if (i as usize) < len {
                    let unit = vm.heap.flat_ref(s).unit(i as usize);
                    // Strings are flattened when boxed, so flat_ref sees the contents.
                    return Some(PropertyDescriptor::data(
                        crate::runtime::convert::char_value_cached(vm, unit),
                        PropFlags(PropFlags::ENUMERABLE),
                    ));
                }
            }
            Class::TypedArray(_) => return crate::builtins::typed_array::get_own_index(vm, o, i),
            _ => {}
        }
    }
    if let (Class::TypedArray(_), PropertyKey::Atom(_)) = (&obj.class, key) {
        if let Some(index) = crate::builtins::typed_array::canonical_numeric_key(vm, key) {
            return index.and_then(|i| crate::builtins::typed_array::get_own_index(vm, o, i));
        }
    }
    match (&obj.class, key) {
        (Class::Array(a), PropertyKey::Atom(atom::length)) => {
            let flags = if a.length_writable { PropFlags(PropFlags::WRITABLE) } else { PropFlags::NONE };
            return Some(PropertyDescriptor::data(Value::number(a.length as f64), flags));
        }
        (Class::String(s), PropertyKey::Atom(atom::length)) => {
            return Some(PropertyDescriptor::data(Value::int(vm.heap.string_len(*s) as i32), PropFlags::NONE));
        }
        _ => {}
    }
    let (v, flags) = obj.lookup_named(&vm.heap.shapes, key)?;
    if let (Class::Arguments(args), PropertyKey::Index(i)) = (&obj.class, key) {
        if let (Some(env), Some(&slot)) = (args.env, args.mapping.get(i as usize)) {
            if slot != u32::MAX {
                let live = vm.heap.env(env).slots.get(slot as usize).copied().unwrap_or_default();
                return Some(PropertyDescriptor::data(live, flags));
            }
        }
    }
    Some(stored_to_descriptor(vm, v, flags))
}

/// Attributes of dense elements: default, unless the object was frozen/sealed (then the
/// elements moved to the named part) — so always default here.
#[inline]
fn element_flags(_obj: &Object) -> PropFlags {
    PropFlags::DEFAULT
}

/// [[DefineOwnProperty]] (§10.1.6, with Array §10.4.2.1 and arguments §10.4.4.2 exotics).
pub fn define_own_property(vm: &mut Vm, o: ObjectId, key: PropertyKey, desc: PropertyDescriptor) -> JsResult<bool> {
    match &vm.heap.obj(o).class {
        Class::Proxy(_) => return proxy::define_own_property(vm, o, key, desc),
        Class::Namespace(_) if !matches!(key, PropertyKey::Symbol(_)) => {
            return namespace::define_own_property(vm, o, key, desc);
        }
        Class::Array(_) => {
            if key == PropertyKey::Atom(atom::length) {
                return crate::builtins::array::array_set_length(vm, o, desc);
            }
            if let PropertyKey::Index(i) = key {
                let Class::Array(a) = vm.heap.obj(o).class else { unreachable!() };
                if i >= a.length && !a.length_writable {
                    return Ok(false);
                }
                if !ordinary_define_own_property(vm, o, key, desc)? {
                    return Ok(false);
                }
                if let Class::Array(a) = &mut vm.heap.obj_mut(o).class {
                    if i >= a.length {
                        a.length = i + 1;
                    }
                }
                return Ok(true);
            }
        }
        Class::TypedArray(_) => {
            if let Some(index) = crate::builtins::typed_array::canonical_numeric_key(vm, key) {
                return match index {
                    Some(i) => crate::builtins::typed_array::define_own_index(vm, o, i, desc),
                    None => Ok(false),
                };
            }
        }
        Class::Arguments(a) if a.env.is_some() => {
            if let PropertyKey::Index(i) = key {
                return define_arguments_index(vm, o, i, desc);
            }
        }
        Class::String(s) => {
            if let PropertyKey::Index(i) = key {
                if (i as usize) < vm.heap.string_len(*s) {
                    let current = own_property_with_units(vm, o, key);
                    let desc = same_string_contents(vm, desc, current);
                    return Ok(is_compatible(vm.heap.obj(o).extensible, desc, current));
                }
            }
        }
        _ => {}
    }
    ordinary_define_own_property(vm, o, key, desc)
}

fn define_arguments_index(vm: &mut Vm, o: ObjectId, i: u32, desc: PropertyDescriptor) -> JsResult<bool> {
    let mapped_slot = match &vm.heap.obj(o).class {
        Class::Arguments(a) => a.mapping.get(i as usize).copied().filter(|&s| s != u32::MAX).zip(a.env),
        _ => None,
    };
    let mut new_desc = desc;
    if let Some((slot, env)) = mapped_slot {
        if desc.is_data() && desc.value.is_none() && desc.writable == Some(false) {
            let live = vm.heap.env(env).slots.get(slot as usize).copied().unwrap_or_default();
            new_desc.value = Some(live);
        }
    }
    if !ordinary_define_own_property(vm, o, PropertyKey::Index(i), new_desc)? {
        return Ok(false);
    }
    if let Some((slot, env)) = mapped_slot {
        if desc.is_accessor() {
            unmap_argument(vm, o, i);
        } else {
            if let Some(v) = desc.value {
                if let Some(s) = vm.heap.env_mut(env).slots.get_mut(slot as usize) {
                    *s = v;
                }
            }
            if desc.writable == Some(false) {
                unmap_argument(vm, o, i);
            }
        }
    }
    Ok(true)
}

fn unmap_argument(vm: &mut Vm, o: ObjectId, i: u32) {
    if let Class::Arguments(a) = &mut vm.heap.obj_mut(o).class {
        if let Some(m) = a.mapping.get_mut(i as usize) {
            *m = u32::MAX;
        }
    }
}

/// IsCompatiblePropertyDescriptor without applying (§10.1.6.2 with O = undefined).
pub fn is_compatible(extensible: bool, desc: PropertyDescriptor, current: Option<PropertyDescriptor>) -> bool {
    validate(extensible, desc, current).is_some()
}

/// ValidateAndApplyPropertyDescriptor's validation: returns the descriptor to store.
fn validate(
    extensible: bool,
    desc: PropertyDescriptor,
    current: Option<PropertyDescriptor>,
) -> Option<PropertyDescriptor> {
    let Some(cur) = current else {
        if !extensible {
            return None;
        }
        let mut d = desc;
        if d.is_accessor() {
            d.get.get_or_insert(Value::UNDEFINED);
            d.set.get_or_insert(Value::UNDEFINED);
        } else {
            d.value.get_or_insert(Value::UNDEFINED);
            d.writable.get_or_insert(false);
        }
        d.enumerable.get_or_insert(false);
        d.configurable.get_or_insert(false);
        return Some(d);
    };
    if cur.configurable == Some(false) {
        if desc.configurable == Some(true) {
            return None;
        }
        if desc.enumerable.is_some() && desc.enumerable != cur.enumerable {
            return None;
        }
        let generic = !desc.is_accessor() && !desc.is_data();
        if !generic && desc.is_accessor() != cur.is_accessor() {
            return None;
        }
        if cur.is_accessor() {
            if desc.get.is_some_and(|g| Some(g) != cur.get) || desc.set.is_some_and(|s| Some(s) != cur.set) {
                return None;
            }
        } else if cur.writable == Some(false) {
            if desc.writable == Some(true) {
                return None;
            }
            if let Some(v) = desc.value {
                if !crate::runtime::operators::same_value(v, cur.value.unwrap_or_default()) {
                    return None;
                }
            }
        }
    }
    // Merge.
    let mut merged = cur;
    if desc.is_accessor() && !cur.is_accessor() {
        merged = PropertyDescriptor {
            value: None,
            writable: None,
            get: Some(Value::UNDEFINED),
            set: Some(Value::UNDEFINED),
            enumerable: cur.enumerable,
            configurable: cur.configurable,
        };
    } else if desc.is_data() && cur.is_accessor() {
        merged = PropertyDescriptor {
            value: Some(Value::UNDEFINED),
            writable: Some(false),
            get: None,
            set: None,
            enumerable: cur.enumerable,
            configurable: cur.configurable,
        };
    }
    if let Some(v) = desc.value {
        merged.value = Some(v);
    }
    if let Some(w) = desc.writable {
        merged.writable = Some(w);
    }
    if let Some(g) = desc.get {
        merged.get = Some(g);
    }
    if let Some(s) = desc.set {
        merged.set = Some(s);
    }
    if let Some(e) = desc.enumerable {
        merged.enumerable = Some(e);
    }
    if let Some(c) = desc.configurable {
        merged.configurable = Some(c);
    }
    Some(merged)
}

/// OrdinaryDefineOwnProperty (§10.1.6.1).
pub fn ordinary_define_own_property(
    vm: &mut Vm,
    o: ObjectId,
    key: PropertyKey,
    desc: PropertyDescriptor,
) -> JsResult<bool> {
    let current = ordinary_get_own_property(vm, o, key);
    let extensible = vm.heap.obj(o).extensible;
    let desc = same_string_contents(vm, desc, current);
    let Some(merged) = validate(extensible, desc, current) else { return Ok(false) };
    write_property(vm, o, key, merged, current.is_some());
    Ok(true)
}

/// Strings with equal contents but different handles are the same value: before `validate`
/// refuses to change a frozen property, give `desc` the current handle when the contents agree.
fn same_string_contents(
    vm: &mut Vm,
    desc: PropertyDescriptor,
    current: Option<PropertyDescriptor>,
) -> PropertyDescriptor {
    match (current, desc.value) {
        (Some(cur), Some(v)) if cur.writable == Some(false) && cur.configurable == Some(false) => {
            if crate::runtime::operators::same_value_heap(vm, v, cur.value.unwrap_or_default()) {
                PropertyDescriptor { value: cur.value, ..desc }
            } else {
                desc
            }
        }
        _ => desc,
    }
}

/// Store a complete descriptor.
fn write_property(vm: &mut Vm, o: ObjectId, key: PropertyKey, d: PropertyDescriptor, exists: bool) {
    let flags = d.flags();
    let stored = if d.is_accessor() {
        let pair = Class::AccessorPair { get: d.get.unwrap_or_default(), set: d.set.unwrap_or_default() };
        Value::object(vm.heap.alloc_object(Object::new(None, pair)))
    } else {
        d.value.unwrap_or_default()
    };
    let heap = &mut vm.heap;
    let Some(obj) = heap.objects.get_mut(o.0) else { return };
    if let PropertyKey::Index(i) = key {
        let i = i as usize;
        if flags == PropFlags::DEFAULT && !matches!(obj.class, Class::Arguments(_)) {
            let named = obj.lookup_named(&heap.shapes, key).is_some();
            if !named && i < obj.elements.len() + 1024 && i <= obj.elements.len() * 2 + 16 {
                let grown = (i + 1).saturating_sub(obj.elements.len()) as u64;
                if grown > 0 {
                    obj.elements.resize(i + 1, Value::EMPTY);
                }
                obj.elements[i] = stored;
                heap.note_growth(grown * crate::heap::ELEMENT_BYTES);
                return;
            }
        }
        if let Some(slot) = obj.elements.get_mut(i) {
            *slot = Value::EMPTY;
        }
    }
    if exists && obj.lookup_named(&heap.shapes, key).is_some() {
        obj.redefine_named(&heap.shapes, key, stored, flags);
    } else {
        let before = crate::heap::named_bytes(&obj.props);
        obj.add_named(&mut heap.shapes, key, stored, flags);
        let grown = crate::heap::named_bytes(&obj.props).saturating_sub(before);
        heap.note_growth(grown);
    }
}

/// DefinePropertyOrThrow.
pub fn define_property_or_throw(vm: &mut Vm, o: ObjectId, key: PropertyKey, desc: PropertyDescriptor) -> JsResult<()> {
    if define_own_property(vm, o, key, desc)? {
        Ok(())
    } else {
        let name = crate::runtime::convert::key_to_display(vm, key);
        Err(vm.type_error(format!("Cannot redefine property: {name}")))
    }
}

/// CreateDataProperty.
pub fn create_data_property(vm: &mut Vm, o: ObjectId, key: PropertyKey, value: Value) -> JsResult<bool> {
    // Fast path: ordinary extensible object without the key — append. JS cannot observe the
    // difference because no exotic behaviour or existing attribute is involved.
    let obj = vm.heap.obj(o);
    if matches!(obj.class, Class::Ordinary) && obj.extensible {
        if let PropertyKey::Atom(_) | PropertyKey::Symbol(_) = key {
            if obj.lookup_named(&vm.heap.shapes, key).is_none() {
                let heap = &mut vm.heap;
                if let Some(obj) = heap.objects.get_mut(o.0) {
                    let before = crate::heap::named_bytes(&obj.props);
                    obj.add_named(&mut heap.shapes, key, value, PropFlags::DEFAULT);
                    let grown = crate::heap::named_bytes(&obj.props).saturating_sub(before);
                    heap.note_growth(grown);
                }
                return Ok(true);
            }
        }
    }
    define_own_property(vm, o, key, PropertyDescriptor::data(value, PropFlags::DEFAULT))
}

/// CreateDataPropertyOrThrow.
pub fn create_data_property_or_throw(vm: &mut Vm, o: ObjectId, key: PropertyKey, value: Value) -> JsResult<()> {
    if create_data_property(vm, o, key, value)? {
        Ok(())
    } else {
        let name = crate::runtime::convert::key_to_display(vm, key);
        Err(vm.type_error(format!("Cannot define property {name}")))
    }
}

/// [[Get]] (§10.1.8) with `receiver`.
pub fn get(vm: &mut Vm, o: ObjectId, key: PropertyKey, receiver: Value) -> JsResult<Value> {
    let mut cur = o;
    loop {
        let obj = vm.heap.obj(cur);
        // Fast path: dense element or shaped/dictionary data property of a non-exotic object.
        if let PropertyKey::Index(i) = key {
            if let Some(&v) = obj.elements.get(i as usize) {
                if !v.is_empty() && !matches!(obj.class, Class::Arguments(_) | Class::Proxy(_) | Class::TypedArray(_)) {
                    return Ok(v);
                }
            }
        }
        match &obj.class {
            Class::Proxy(_) => return proxy::get(vm, cur, key, receiver),
            Class::Namespace(_) => return namespace::get(vm, cur, key),
            Class::Ordinary | Class::Function(_) | Class::Native(_) | Class::Error => {
                if let Some((v, flags)) = obj.lookup_named(&vm.heap.shapes, key) {
                    if flags.is_accessor() {
                        let (getter, _) = accessor_parts(vm, v);
                        if getter.is_undefined() {
                            return Ok(Value::UNDEFINED);
                        }
                        return call(vm, getter, receiver, &[]);
                    }
                    return Ok(v);
                }
            }
            Class::TypedArray(_) if crate::builtins::typed_array::canonical_numeric_key(vm, key).is_some() => {
                let index = crate::builtins::typed_array::canonical_numeric_key(vm, key).flatten();
                return Ok(index
                    .and_then(|i| crate::builtins::typed_array::get_index_value(vm, cur, i))
                    .unwrap_or(Value::UNDEFINED));
            }
            // A String exotic's index properties (see `own_property_with_units`).
            Class::String(_) if string_unit(vm, cur, key).is_some() => {
                let unit = string_unit(vm, cur, key).unwrap_or_default();
                return Ok(crate::runtime::convert::single_char(vm, unit));
            }
            _ => {
                if let Some(desc) = ordinary_get_own_property(vm, cur, key) {
                    if desc.is_accessor() {
                        let getter = desc.get.unwrap_or_default();
                        if getter.is_undefined() {
                            return Ok(Value::UNDEFINED);
                        }
                        return call(vm, getter, receiver, &[]);
                    }
                    return Ok(desc.value.unwrap_or_default());
                }
                if let (Class::TypedArray(_), PropertyKey::Index(_)) = (&obj.class, key) {
                    return Ok(Value::UNDEFINED);
                }
            }
        }
        match vm.heap.obj(cur).proto {
            Some(p) => cur = p,
            None => return Ok(Value::UNDEFINED),
        }
    }
}

/// [[Set]] (§10.1.9): returns false when the assignment failed (strict callers throw).
pub fn set(vm: &mut Vm, o: ObjectId, key: PropertyKey, value: Value, receiver: Value) -> JsResult<bool> {
    // Fast path: receiver is the object itself, an own writable data property of a plain object.
    if receiver == Value::object(o) {
        let heap = &mut vm.heap;
        if let Some(obj) = heap.objects.get_mut(o.0) {
            if matches!(obj.class, Class::Ordinary | Class::Function(_)) {
                if let PropertyKey::Index(i) = key {
                    if let Some(slot) = obj.elements.get_mut(i as usize) {
                        if !slot.is_empty() {
                            *slot = value;
                            return Ok(true);
                        }
                    }
                } else if let Some((_, flags)) = obj.lookup_named(&heap.shapes, key) {
                    if flags.writable() && !flags.is_accessor() {
                        obj.set_named_value(&heap.shapes, key, value);
                        return Ok(true);
                    }
                }
            } else if let (Class::Array(a), PropertyKey::Index(i)) = (&obj.class, key) {
                let i = i as usize;
                if let Some(slot) = obj.elements.get_mut(i) {
                    if !slot.is_empty() {
                        *slot = value;
                        return Ok(true);
                    }
                }
                // Appending to a dense array whose prototype chain has no indexed properties.
                // The named part may hold index `i` already (an array filled out of order):
                // with default attributes it moves into the elements, with others the
                // ordinary path applies them.
                if i == obj.elements.len() && obj.extensible && a.length_writable && i < u32::MAX as usize - 1 {
                    let held = if obj.has_no_named_props() {
                        Some(false)
                    } else {
                        index_held_by_default(obj, &heap.shapes, key)
                    };
                    if let Some(held) = held {
                        if proto_chain_has_no_elements(vm, o) {
                            let heap = &mut vm.heap;
                            if let Some(obj) = heap.objects.get_mut(o.0) {
                                if held {
                                    obj.remove_named(&heap.shapes, key);
                                }
                                obj.elements.push(value);
                                if held {
                                    absorb_following_indices(obj, &heap.shapes);
                                }
                                if let Class::Array(a) = &mut obj.class {
                                    if a.length as usize <= i {
                                        a.length = i as u32 + 1;
                                    }
                                }
                                heap.note_growth(crate::heap::ELEMENT_BYTES);
                                return Ok(true);
                            }
                        }
                    }
                }
            }
        }
    }
    ordinary_set(vm, o, key, value, receiver)
}

/// For the dense-append path: `Some(true)` if the named part holds `key` as a data property
/// with default attributes (it can move into the elements), `Some(false)` if it does not hold
/// it at all, `None` if it holds it otherwise. Out of line: keeps [`set`] small.
#[inline(never)]
fn index_held_by_default(
    obj: &crate::heap::object::Object,
    shapes: &crate::heap::shape::Shapes,
    key: PropertyKey,
) -> Option<bool> {
    match obj.lookup_named(shapes, key) {
        None => Some(false),
        Some((_, flags)) if flags == PropFlags::DEFAULT => Some(true),
        Some(_) => None,
    }
}

/// After an append, moves the indices right past the elements that the named part holds as
/// default data properties into the elements, so an array filled out of order becomes dense.
#[inline(never)]
fn absorb_following_indices(obj: &mut crate::heap::object::Object, shapes: &crate::heap::shape::Shapes) {
    while !obj.has_no_named_props() {
        let Ok(next) = u32::try_from(obj.elements.len()) else { return };
        let key = PropertyKey::Index(next);
        match obj.lookup_named(shapes, key) {
            Some((v, flags)) if flags == PropFlags::DEFAULT && !v.is_empty() => {
                obj.remove_named(shapes, key);
                obj.elements.push(v);
            }
            _ => return,
        }
    }
}

fn proto_chain_has_no_elements(vm: &Vm, o: ObjectId) -> bool {
    let mut cur = vm.heap.obj(o).proto;
    while let Some(p) = cur {
        let obj = vm.heap.obj(p);
        if !obj.elements.is_empty() || !matches!(obj.class, Class::Ordinary | Class::Array(_)) {
            return false;
        }
        if let crate::heap::object::Props::Dict(m) = &obj.props {
            if m.keys().any(|k| matches!(k, PropertyKey::Index(_))) {
                return false;
            }
        } else if let crate::heap::object::Props::Shaped { shape, .. } = &obj.props {
            if vm.heap.shapes.get(*shape).keys().iter().any(|(k, _)| matches!(k, PropertyKey::Index(_))) {
                return false;
            }
        }
        cur = obj.proto;
    }
    true
}

/// OrdinarySet / OrdinarySetWithOwnDescriptor (§10.1.9.2).
fn ordinary_set(vm: &mut Vm, o: ObjectId, key: PropertyKey, value: Value, receiver: Value) -> JsResult<bool> {
    let mut cur = o;
    let own_desc = loop {
        if is_proxy(vm, cur) {
            return proxy::set(vm, cur, key, value, receiver);
        }
        // A module namespace's [[Set]] always fails (§10.4.6.9).
        if namespace::is_namespace(vm, cur) {
            return Ok(false);
        }
        if let Class::TypedArray(_) = vm.heap.obj(cur).class {
            if let Some(index) = crate::builtins::typed_array::canonical_numeric_key(vm, key) {
                if receiver == Value::object(cur) {
                    crate::builtins::typed_array::set_numeric_key(vm, cur, index, value)?;
                    return Ok(true);
                }
                if !index.is_some_and(|i| crate::builtins::typed_array::is_valid_index(vm, cur, i)) {
                    return Ok(true);
                }
            }
        }
        if let Some(d) = ordinary_get_own_property(vm, cur, key) {
            break d;
        }
        match vm.heap.obj(cur).proto {
            Some(p) => cur = p,
            None => break PropertyDescriptor::data(Value::UNDEFINED, PropFlags::DEFAULT),
        }
    };
    if own_desc.is_data() {
        if own_desc.writable == Some(false) {
            return Ok(false);
        }
        let Some(r) = receiver.as_object() else { return Ok(false) };
        match get_own_property(vm, r, key)? {
            Some(existing) => {
                if existing.is_accessor() || existing.writable == Some(false) {
                    return Ok(false);
                }
                define_own_property(vm, r, key, PropertyDescriptor { value: Some(value), ..Default::default() })
            }
            None => create_data_property(vm, r, key, value),
        }
    } else {
        let setter = own_desc.set.unwrap_or_default();
        if setter.is_undefined() {
            return Ok(false);
        }
        call(vm, setter, receiver, &[value])?;
        Ok(true)
    }
}

/// [[HasProperty]].
pub fn has_property(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> JsResult<bool> {
    let mut cur = o;
    loop {
        if is_proxy(vm, cur) {
            return proxy::has(vm, cur, key);
        }
        if is_namespace_export_key(vm, cur, key) {
            return namespace::has_property(vm, cur, key);
        }
        if let Class::TypedArray(_) = vm.heap.obj(cur).class {
            if let Some(index) = crate::builtins::typed_array::canonical_numeric_key(vm, key) {
                return Ok(index.is_some_and(|i| crate::builtins::typed_array::is_valid_index(vm, cur, i)));
            }
        }
        if ordinary_get_own_property(vm, cur, key).is_some() {
            return Ok(true);
        }
        match vm.heap.obj(cur).proto {
            Some(p) => cur = p,
            None => return Ok(false),
        }
    }
}

/// HasOwnProperty.
pub fn has_own_property(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> JsResult<bool> {
    Ok(get_own_property(vm, o, key)?.is_some())
}

/// [[Delete]].
pub fn delete(vm: &mut Vm, o: ObjectId, key: PropertyKey) -> JsResult<bool> {
    if is_proxy(vm, o) {
        return proxy::delete(vm, o, key);
    }
    if is_namespace_export_key(vm, o, key) {
        return namespace::delete(vm, o, key);
    }
    let Some(desc) = ordinary_get_own_property(vm, o, key) else { return Ok(true) };
    if desc.configurable != Some(true) {
        return Ok(false);
    }
    if let Class::TypedArray(_) = vm.heap.obj(o).class {
        if let PropertyKey::Index(_) = key {
            return Ok(false);
        }
    }
    unmap_argument_if_index(vm, o, key);
    let heap = &mut vm.heap;
    let obj = heap.obj_mut(o);
    if let PropertyKey::Index(i) = key {
        if let Some(slot) = obj.elements.get_mut(i as usize) {
            if !slot.is_empty() {
                *slot = Value::EMPTY;
                // Keep the dense vector tight at the end so pushes stay fast.
                while obj.elements.last() == Some(&Value::EMPTY) {
                    obj.elements.pop();
                }
                return Ok(true);
            }
        }
    }
    let shapes = &heap.shapes;
    let obj = match heap.objects.get_mut(o.0) {
        Some(obj) => obj,
        None => return Ok(true),
    };
    obj.remove_named(shapes, key);
    Ok(true)
}

fn unmap_argument_if_index(vm: &mut Vm, o: ObjectId, key: PropertyKey) {
    if let (Class::Arguments(_), PropertyKey::Index(i)) = (&vm.heap.obj(o).class, key) {
        unmap_argument(vm, o, i);
    }
}

/// [[OwnPropertyKeys]]: integer indices ascending, then strings, then symbols, in creation order.
pub fn own_property_keys(vm: &mut Vm, o: ObjectId) -> JsResult<Vec<PropertyKey>> {
    if is_proxy(vm, o) {
        return proxy::own_keys(vm, o);
    }
    if namespace::is_namespace(vm, o) {
        return namespace::own_property_keys(vm, o);
    }
    Ok(ordinary_own_property_keys(vm, o))
}

pub fn ordinary_own_property_keys(vm: &Vm, o: ObjectId) -> Vec<PropertyKey> {
    let obj = vm.heap.obj(o);
    let mut indices: Vec<u32> = Vec::new();
    match &obj.class {
        Class::String(s) => indices.extend(0..vm.heap.string_len(*s) as u32),
        Class::TypedArray(_) => indices.extend(0..crate::builtins::typed_array::length_of(vm, o) as u32),
        _ => {}
    }
    indices.extend(obj.elements.iter().enumerate().filter(|(_, v)| !v.is_empty()).map(|(i, _)| i as u32));
    let named = obj.named_keys(&vm.heap.shapes);
    let mut extra_index = false;
    for (k, _) in &named {
        if let PropertyKey::Index(i) = k {
            indices.push(*i);
            extra_index = true;
        }
    }
    if extra_index || matches!(obj.class, Class::String(_)) {
        indices.sort_unstable();
        indices.dedup();
    }
    let mut keys: Vec<PropertyKey> = indices.into_iter().map(PropertyKey::Index).collect();
    if matches!(obj.class, Class::Array(_)) {
        keys.push(PropertyKey::Atom(atom::length));
    }
    if let Class::String(_) = obj.class {
        keys.push(PropertyKey::Atom(atom::length));
    }
    keys.extend(named.iter().filter(|(k, _)| matches!(k, PropertyKey::Atom(_))).map(|(k, _)| *k));
    keys.extend(named.iter().filter(|(k, _)| matches!(k, PropertyKey::Symbol(_))).map(|(k, _)| *k));
    keys
}

/// [[GetPrototypeOf]].
pub fn get_prototype_of(vm: &mut Vm, o: ObjectId) -> JsResult<Option<ObjectId>> {
    if is_proxy(vm, o) {
        return proxy::get_prototype_of(vm, o);
    }
    Ok(vm.heap.obj(o).proto)
}

/// [[SetPrototypeOf]] (§10.1.2.1).
pub fn set_prototype_of(vm: &mut Vm, o: ObjectId, proto: Option<ObjectId>) -> JsResult<bool> {
    if is_proxy(vm, o) {
        return proxy::set_prototype_of(vm, o, proto);
    }
    let obj = vm.heap.obj(o);
    if obj.proto == proto {
        return Ok(true);
    }
    if !obj.extensible || is_immutable_prototype(vm, o) {
        return Ok(false);
    }
    let mut p = proto;
    while let Some(pp) = p {
        if pp == o {
            return Ok(false);
        }
        if is_proxy(vm, pp) {
            break;
        }
        p = vm.heap.obj(pp).proto;
    }
    vm.heap.obj_mut(o).proto = proto;
    Ok(true)
}

fn is_immutable_prototype(vm: &Vm, o: ObjectId) -> bool {
    o == vm.realm.object_prototype
}

/// [[IsExtensible]].
pub fn is_extensible(vm: &mut Vm, o: ObjectId) -> JsResult<bool> {
    if is_proxy(vm, o) {
        return proxy::is_extensible(vm, o);
    }
    Ok(vm.heap.obj(o).extensible)
}

/// [[PreventExtensions]].
pub fn prevent_extensions(vm: &mut Vm, o: ObjectId) -> JsResult<bool> {
    if is_proxy(vm, o) {
        return proxy::prevent_extensions(vm, o);
    }
    if let Class::TypedArray(_) = vm.heap.obj(o).class {
        if crate::builtins::typed_array::is_length_tracking(vm, o) {
            return Ok(false);
        }
    }
    vm.heap.obj_mut(o).extensible = false;
    Ok(true)
}

/// Move dense elements to the named part so their attributes can change (freeze, seal,
/// defineProperty with non-default attributes all go through here first).
pub fn demote_elements(vm: &mut Vm, o: ObjectId) {
    let heap = &mut vm.heap;
    let Some(obj) = heap.objects.get_mut(o.0) else { return };
    if obj.elements.is_empty() {
        return;
    }
    // A dictionary entry costs more than an element: the difference is growth.
    let before = crate::heap::named_bytes(&obj.props) + obj.elements.len() as u64 * crate::heap::ELEMENT_BYTES;
    let elements = std::mem::take(&mut obj.elements);
    for (i, v) in elements.into_iter().enumerate() {
        if !v.is_empty() {
            obj.add_named(&mut heap.shapes, PropertyKey::Index(i as u32), v, PropFlags::DEFAULT);
        }
    }
    let grown = crate::heap::named_bytes(&obj.props).saturating_sub(before);
    heap.note_growth(grown);
}

/// Get(O, P) for a property key given as an atom, on any value (GetV: primitives box).
pub fn get_v(vm: &mut Vm, v: Value, key: PropertyKey) -> JsResult<Value> {
    match v.as_object() {
        Some(o) => get(vm, o, key, v),
        None => {
            let o = crate::runtime::convert::to_object(vm, v)?;
            get(vm, o, key, v)
        }
    }
}

/// GetMethod: undefined/null → None; non-callable → TypeError.
pub fn get_method(vm: &mut Vm, v: Value, key: PropertyKey) -> JsResult<Option<Value>> {
    let f = get_v(vm, v, key)?;
    if f.is_nullish() {
        return Ok(None);
    }
    if !crate::runtime::call::is_callable(vm, f) {
        let name = crate::runtime::convert::key_to_display(vm, key);
        return Err(vm.type_error(format!("{name} is not a function")));
    }
    Ok(Some(f))
}

/// Set(O, P, V, Throw).
pub fn set_or_throw(vm: &mut Vm, o: ObjectId, key: PropertyKey, value: Value) -> JsResult<()> {
    if set(vm, o, key, value, Value::object(o))? {
        Ok(())
    } else {
        Err(set_failure(vm, o, key, Value::object(o)))
    }
}

/// The TypeError a [[Set]] of `key` on `target` (with `receiver`) that returned false throws
/// in strict code, worded as V8 words it, which npm code and tests match on. The cause is
/// found again without running JS: a proxy on the way (its trap said no), a read-only data
/// property or a getter-only accessor on the prototype chain, a read-only array `length`, or
/// a receiver that is not extensible or not an object.
pub fn set_failure(vm: &mut Vm, target: ObjectId, key: PropertyKey, receiver: Value) -> crate::error::Throw {
    let name = crate::runtime::convert::key_to_display(vm, key);
    let read_only = |vm: &mut Vm, name: &str| {
        let shown = describe(vm, receiver, Shown::TypedQuoted);
        vm.type_error(format!("Cannot assign to read only property '{name}' of {shown}"))
    };
    let mut cur = Some(target);
    let mut depth = 0;
    while let Some(c) = cur {
        depth += 1;
        if depth > 10_000 || is_namespace_export_key(vm, c, key) {
            break;
        }
        if is_proxy(vm, c) {
            return vm.type_error(format!("'set' on proxy: trap returned falsish for property '{name}'"));
        }
        if let Some(d) = ordinary_get_own_property(vm, c, key) {
            if d.get.is_some() || d.set.is_some() {
                if d.set.is_none_or(|s| s.is_undefined()) {
                    let holder = describe(vm, Value::object(c), Shown::Plain);
                    return vm.type_error(format!("Cannot set property {name} of {holder} which has only a getter"));
                }
            } else if d.writable == Some(false) {
                return read_only(vm, &name);
            }
            break;
        }
        cur = vm.heap.obj(c).proto;
    }
    let Some(r) = receiver.as_object() else {
        // OrdinarySetWithOwnDescriptor: a primitive receiver cannot get the property.
        let shown = describe(vm, receiver, Shown::TypedQuoted);
        return vm.type_error(format!("Cannot create property '{name}' on {shown}"));
    };
    {
        if !is_proxy(vm, r) {
            let own = ordinary_get_own_property(vm, r, key);
            if own.as_ref().is_some_and(|d| d.writable == Some(false) || d.get.is_some() || d.set.is_some()) {
                return read_only(vm, &name);
            }
            if own.is_none() && !vm.heap.obj(r).extensible {
                return vm.type_error(format!("Cannot add property {name}, object is not extensible"));
            }
            if let (Class::Array(_), PropertyKey::Index(i)) = (&vm.heap.obj(r).class, key) {
                let length = ordinary_get_own_property(vm, r, PropertyKey::Atom(atom::length));
                let len = length.as_ref().and_then(|d| d.value).and_then(|v| v.as_number()).unwrap_or(0.0);
                if length.is_some_and(|d| d.writable == Some(false)) && f64::from(i) >= len {
                    return read_only(vm, "length");
                }
            }
        }
    }
    read_only(vm, &name)
}

/// LengthOfArrayLike.
pub fn length_of_array_like(vm: &mut Vm, o: ObjectId) -> JsResult<u64> {
    if let Class::Array(a) = vm.heap.obj(o).class {
        return Ok(a.length as u64);
    }
    let len = get(vm, o, PropertyKey::Atom(atom::length), Value::object(o))?;
    crate::runtime::convert::to_length(vm, len)
}
