//! Property access for the interpreter: inline caches for named gets and sets, element
//! access, definitions from literals and classes, and the array literal and spread helpers.

use crate::atoms::{atom, Atom, PropertyKey};
use crate::bytecode::{InlineCache, IC_ADD1, IC_ADD2, IC_OWN, IC_PROTO, IC_PROTO2};
use crate::error::{JsResult, Throw};
use crate::heap::object::{Class, Object, Props};
use crate::heap::shape::PropFlags;
use crate::heap::{Arena, CodeId};
use crate::runtime::convert::{key_to_display, key_to_value, to_object, to_property_key};
use crate::runtime::iterator::{get_iterator, iterator_step, IteratorKind};
use crate::runtime::property::{self, PropertyDescriptor};
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

/// Classes whose [[Get]] of a named key is a shape lookup then the prototype: the only ones
/// an inline cache answers for.
#[inline(always)]
fn plain_named_get(class: &Class) -> bool {
    matches!(class, Class::Ordinary | Class::Function(_) | Class::Native(_) | Class::Error)
}

/// The value an inline cache entry gives for `obj`, if it still applies. Every fact the
/// answer depends on is checked against the current heap: the receiver's shape (which pins
/// its own keys), and for prototype hits the identity and shape of each object on the way to
/// the holder. No side effects, no allocation.
#[inline(always)]
pub(in crate::interp) fn ic_probe(objects: &Arena<Object>, cache: &InlineCache, obj: Value) -> Option<Value> {
    let object = objects.get(obj.as_object()?.0)?;
    let Props::Shaped { shape, slots } = &object.props else { return None };
    if cache.shape != shape.0 {
        return None;
    }
    let holder = match cache.state {
        IC_OWN => return slots.get(cache.slot as usize).copied(),
        IC_PROTO => {
            if !plain_named_get(&object.class) || object.proto != Some(ObjectId(cache.holder)) {
                return None;
            }
            objects.get(cache.holder)?
        }
        IC_PROTO2 => {
            if !plain_named_get(&object.class) || object.proto != Some(ObjectId(cache.mid)) {
                return None;
            }
            let mid = objects.get(cache.mid)?;
            let Props::Shaped { shape, .. } = &mid.props else { return None };
            if shape.0 != cache.mid_shape || !plain_named_get(&mid.class) || mid.proto != Some(ObjectId(cache.holder)) {
                return None;
            }
            objects.get(cache.holder)?
        }
        _ => return None,
    };
    let Props::Shaped { shape, slots } = &holder.props else { return None };
    if shape.0 != cache.holder_shape {
        return None;
    }
    slots.get(cache.slot as usize).copied()
}

/// Fill an inline cache for `obj.name` when the property is a data property of the receiver,
/// its prototype or the prototype's prototype, all plain shaped objects.
fn ic_fill(vm: &Vm, obj: ObjectId, name: Atom) -> Option<InlineCache> {
    let key = PropertyKey::Atom(name);
    let shapes = &vm.heap.shapes;
    let object = vm.heap.objects.get(obj.0)?;
    let Props::Shaped { shape, .. } = &object.props else { return None };
    if !plain_named_get(&object.class) {
        return None;
    }
    let mut cache = InlineCache { shape: shape.0, ..InlineCache::default() };
    if let Some((slot, flags)) = shapes.get(*shape).lookup(key) {
        return (!flags.is_accessor()).then_some(InlineCache { slot, state: IC_OWN, ..cache });
    }
    let mut cur = object.proto?;
    for state in [IC_PROTO, IC_PROTO2] {
        let p = vm.heap.objects.get(cur.0)?;
        let Props::Shaped { shape, .. } = &p.props else { return None };
        if !plain_named_get(&p.class) {
            return None;
        }
        if let Some((slot, flags)) = shapes.get(*shape).lookup(key) {
            if flags.is_accessor() {
                return None;
            }
            cache.state = state;
            cache.slot = slot;
            cache.holder = cur.0;
            cache.holder_shape = shape.0;
            return Some(cache);
        }
        cache.mid = cur.0;
        cache.mid_shape = shape.0;
        cur = p.proto?;
    }
    None
}

/// `obj.name` with the site's inline cache.
#[inline]
pub fn get_prop_ic(vm: &mut Vm, code: CodeId, obj: Value, name: Atom, ic: u32) -> JsResult<Value> {
    if let Some(o) = obj.as_object() {
        let cache = vm.heap.code(code).ics.get(ic as usize).copied().unwrap_or_default();
        if let Some(v) = ic_probe(&vm.heap.objects, &cache, obj) {
            vm.stats.ic_hits += 1;
            return Ok(v);
        }
        vm.stats.ic_misses += 1;
        if let Some(fill) = ic_fill(vm, o, name) {
            if let Some(c) = vm.heap.code_mut(code).ics.get_mut(ic as usize) {
                *c = fill;
            }
            if let Some(v) = ic_probe(&vm.heap.objects, &fill, obj) {
                return Ok(v);
            }
        }
        return property::get(vm, o, PropertyKey::Atom(name), obj);
    }
    get_primitive_prop(vm, obj, PropertyKey::Atom(name))
}

/// Property read on a primitive (no wrapper allocated for the common cases).
fn get_primitive_prop(vm: &mut Vm, v: Value, key: PropertyKey) -> JsResult<Value> {
    let proto = match v.kind() {
        Kind::String(s) => {
            if key == PropertyKey::Atom(atom::length) {
                return Ok(Value::int(vm.heap.string_len(s) as i32));
            }
            if let PropertyKey::Index(i) = key {
                if (i as usize) < vm.heap.string_len(s) {
                    let u = vm.heap.flat(s).unit(i as usize);
                    return Ok(crate::runtime::convert::single_char(vm, u));
                }
            }
            vm.realm.string_prototype
        }
        Kind::Int(_) | Kind::Float(_) => vm.realm.number_prototype,
        Kind::Bool(_) => vm.realm.boolean_prototype,
        Kind::Symbol(_) => vm.realm.symbol_prototype,
        Kind::BigInt(_) => vm.realm.bigint_prototype,
        Kind::Undefined | Kind::Null | Kind::Empty => {
            let k = key_to_display(vm, key);
            let what = if v.is_null() { "null" } else { "undefined" };
            return Err(vm.type_error(format!("Cannot read properties of {what} (reading '{k}')")));
        }
        Kind::Object(o) => return property::get(vm, o, key, v),
    };
    property::get(vm, proto, key, v)
}

/// GetValue/PutValue on a null or undefined base: ToObject throws before the key is
/// converted, so the message shows the key only when it is already a primitive.
pub(crate) fn nullish_base_error(vm: &mut Vm, base: Value, key: Value, what: &str, verb: &str) -> Throw {
    let b = if base.is_null() { "null" } else { "undefined" };
    let k = if key.is_object() { None } else { crate::runtime::convert::to_rust_string(vm, key).ok() };
    match k {
        Some(k) => vm.type_error(format!("Cannot {what} of {b} ({verb} '{k}')")),
        None => vm.type_error(format!("Cannot {what} of {b}")),
    }
}

/// `obj[key]`.
pub fn get_elem(vm: &mut Vm, obj: Value, key: Value) -> JsResult<Value> {
    // Fast path: dense array or TypedArray element by int index.
    if let (Some(o), Some(i)) = (obj.as_object(), key.as_int()) {
        if i >= 0 {
            let object = vm.heap.obj(o);
            match object.class {
                Class::Array(_) | Class::Ordinary => {
                    if let Some(&v) = object.elements.get(i as usize) {
                        if !v.is_empty() {
                            return Ok(v);
                        }
                    }
                }
                Class::TypedArray(_) => {
                    if let Some(v) = crate::builtins::typed_array::fast_get_element(&vm.heap.objects, o, i as usize) {
                        return Ok(v);
                    }
                }
                _ => {}
            }
        }
    }
    if obj.is_nullish() {
        return Err(nullish_base_error(vm, obj, key, "read properties", "reading"));
    }
    let k = to_property_key(vm, key)?;
    match obj.as_object() {
        Some(o) => property::get(vm, o, k, obj),
        None => get_primitive_prop(vm, obj, k),
    }
}

/// `obj.name = v` with the site's inline cache.
#[inline]
pub fn set_prop_ic(vm: &mut Vm, code: CodeId, obj: Value, name: Atom, ic: u32, v: Value, strict: bool) -> JsResult<()> {
    if let Some(o) = obj.as_object() {
        let cache = vm.heap.code(code).ics.get(ic as usize).copied().unwrap_or_default();
        if let Some(object) = vm.heap.objects.get_mut(o.0) {
            if let Props::Shaped { shape, slots } = &mut object.props {
                if cache.state == IC_OWN && cache.shape == shape.0 {
                    if let Some(s) = slots.get_mut(cache.slot as usize) {
                        vm.stats.ic_hits += 1;
                        *s = v;
                        return Ok(());
                    }
                }
                let shape = *shape;
                if let Some((slot, flags)) = vm.heap.shapes.get(shape).lookup(PropertyKey::Atom(name)) {
                    if flags.writable()
                        && !flags.is_accessor()
                        && matches!(object.class, Class::Ordinary | Class::Function(_))
                    {
                        if let Some(s) = slots.get_mut(slot as usize) {
                            *s = v;
                        }
                        if let Some(c) = vm.heap.code_mut(code).ics.get_mut(ic as usize) {
                            *c = InlineCache { shape: shape.0, slot, state: IC_OWN, ..InlineCache::default() };
                        }
                        vm.stats.ic_misses += 1;
                        return Ok(());
                    }
                }
            }
        }
    }
    if let Some(o) = obj.as_object() {
        // Adding a property: through the cached transition, or fill the cache with one.
        let cache = vm.heap.code(code).ics.get(ic as usize).copied().unwrap_or_default();
        if ic_add_applies(&vm.heap.objects, &cache, obj) {
            vm.stats.ic_hits += 1;
            ic_add(&mut vm.heap.objects, &cache, o, v);
            let grown = vm.heap.obj(o).named_slot_bytes();
            vm.heap.note_growth(grown);
            return Ok(());
        }
        if let Some(fill) = ic_fill_add(vm, o, name) {
            if let Some(c) = vm.heap.code_mut(code).ics.get_mut(ic as usize) {
                *c = fill;
            }
            if ic_add_applies(&vm.heap.objects, &fill, obj) {
                vm.stats.ic_misses += 1;
                ic_add(&mut vm.heap.objects, &fill, o, v);
                let grown = vm.heap.obj(o).named_slot_bytes();
                vm.heap.note_growth(grown);
                return Ok(());
            }
        }
    }
    vm.stats.ic_misses += 1;
    put_value(vm, obj, PropertyKey::Atom(name), v, strict)
}

/// Whether an IC_ADD entry applies to `obj`: [[Set]] of the key would create an own data
/// property with default attributes, because `obj` is a plain extensible object of the cached
/// shape (which lacks the key) and its prototype chain is exactly the cached objects, each of
/// its cached shape (which lacks the key: no setter, no read-only property to respect),
/// ending in null.
#[inline(always)]
pub(in crate::interp) fn ic_add_applies(objects: &Arena<Object>, cache: &InlineCache, obj: Value) -> bool {
    let Some(object) = obj.as_object().and_then(|o| objects.get(o.0)) else { return false };
    let Props::Shaped { shape, slots } = &object.props else { return false };
    if shape.0 != cache.shape
        || slots.len() != cache.slot as usize
        || !object.extensible
        || !matches!(object.class, Class::Ordinary)
    {
        return false;
    }
    let holder_proto = match cache.state {
        IC_ADD1 => object.proto,
        IC_ADD2 => {
            if object.proto != Some(ObjectId(cache.mid)) {
                return false;
            }
            let Some(mid) = objects.get(cache.mid) else { return false };
            match &mid.props {
                Props::Shaped { shape, .. } if shape.0 == cache.mid_shape && plain_named_get(&mid.class) => mid.proto,
                _ => return false,
            }
        }
        _ => return false,
    };
    if holder_proto != Some(ObjectId(cache.holder)) {
        return false;
    }
    let Some(holder) = objects.get(cache.holder) else { return false };
    matches!(&holder.props, Props::Shaped { shape, .. } if shape.0 == cache.holder_shape)
        && plain_named_get(&holder.class)
        && holder.proto.is_none()
}

/// Add the property an applicable IC_ADD entry describes.
#[inline(always)]
pub(in crate::interp) fn ic_add(objects: &mut Arena<Object>, cache: &InlineCache, o: ObjectId, v: Value) {
    if let Some(object) = objects.get_mut(o.0) {
        if let Props::Shaped { shape, slots } = &mut object.props {
            *shape = crate::heap::shape::ShapeId(cache.to_shape);
            slots.push(v);
        }
    }
}

/// An IC_ADD entry for `o.name = v` when that assignment adds an own property to a plain
/// object whose prototype chain (one or two plain shaped objects) lacks the key.
fn ic_fill_add(vm: &mut Vm, o: ObjectId, name: Atom) -> Option<InlineCache> {
    let key = PropertyKey::Atom(name);
    let object = vm.heap.objects.get(o.0)?;
    let Props::Shaped { shape, slots } = &object.props else { return None };
    let shapes = &vm.heap.shapes;
    if !object.extensible
        || !matches!(object.class, Class::Ordinary)
        || slots.len() >= crate::heap::shape::MAX_SHAPED_PROPERTIES
        || shapes.get(*shape).len() != slots.len()
        || shapes.get(*shape).lookup(key).is_some()
    {
        return None;
    }
    let from = *shape;
    let mut cache = InlineCache { shape: from.0, slot: slots.len() as u32, ..InlineCache::default() };
    let mut cur = object.proto?;
    for state in [IC_ADD1, IC_ADD2] {
        let p = vm.heap.objects.get(cur.0)?;
        let Props::Shaped { shape, .. } = &p.props else { return None };
        if !plain_named_get(&p.class) || shapes.get(*shape).lookup(key).is_some() {
            return None;
        }
        match p.proto {
            None => {
                cache.state = state;
                cache.holder = cur.0;
                cache.holder_shape = shape.0;
                cache.to_shape = vm.heap.shapes.transition(from, key, PropFlags::DEFAULT).0;
                return Some(cache);
            }
            Some(next) => {
                cache.mid = cur.0;
                cache.mid_shape = shape.0;
                cur = next;
            }
        }
    }
    None
}

/// PutValue for a property reference.
pub fn put_value(vm: &mut Vm, obj: Value, key: PropertyKey, v: Value, strict: bool) -> JsResult<()> {
    let o = match obj.as_object() {
        Some(o) => o,
        None => {
            if obj.is_nullish() {
                let k = key_to_display(vm, key);
                let what = if obj.is_null() { "null" } else { "undefined" };
                return Err(vm.type_error(format!("Cannot set properties of {what} (setting '{k}')")));
            }
            let wrapper = to_object(vm, obj)?;
            let ok = property::set(vm, wrapper, key, v, obj)?;
            if !ok && strict {
                return Err(property::set_failure(vm, wrapper, key, obj));
            }
            return Ok(());
        }
    };
    let ok = property::set(vm, o, key, v, obj)?;
    if !ok && strict {
        return Err(property::set_failure(vm, o, key, obj));
    }
    Ok(())
}

/// `obj[key] = v`.
pub fn set_elem(vm: &mut Vm, obj: Value, key: Value, v: Value, strict: bool) -> JsResult<()> {
    // Fast path: a Number into a TypedArray element by int index (the receiver is the
    // TypedArray, so [[Set]] is TypedArraySetElement, and ToNumber of a Number is itself).
    if let (Some(o), Some(i), Some(n)) = (obj.as_object(), key.as_int(), v.as_number()) {
        if i >= 0 && crate::builtins::typed_array::fast_set_element(&mut vm.heap.objects, o, i as usize, n) {
            return Ok(());
        }
    }
    if obj.is_nullish() {
        return Err(nullish_base_error(vm, obj, key, "set properties", "setting"));
    }
    let k = to_property_key(vm, key)?;
    put_value(vm, obj, k, v, strict)
}

pub fn delete_key(vm: &mut Vm, obj: Value, key: PropertyKey, strict: bool) -> JsResult<bool> {
    let o = to_object(vm, obj)?;
    let ok = property::delete(vm, o, key)?;
    if !ok && strict {
        let k = key_to_display(vm, key);
        return Err(vm.type_error(format!("Cannot delete property '{k}'")));
    }
    Ok(ok)
}

/// CreateDataPropertyOrThrow for literals and class fields.
pub fn define_field(vm: &mut Vm, obj: Value, key: PropertyKey, v: Value) -> JsResult<()> {
    let Some(o) = obj.as_object() else { return Ok(()) };
    property::create_data_property_or_throw(vm, o, key, v)
}

/// Define a method or accessor (flags: bit0 enumerable, bit1 getter, bit2 setter).
pub fn define_method(vm: &mut Vm, obj: Value, key: PropertyKey, f: Value, flags: u8) -> JsResult<()> {
    let Some(o) = obj.as_object() else { return Ok(()) };
    set_home_object(vm, f, obj);
    let enumerable = flags & 1 != 0;
    let prefix = if flags & 2 != 0 {
        1
    } else if flags & 4 != 0 {
        2
    } else {
        0
    };
    let kv = key_to_value(vm, key);
    set_function_name(vm, f, kv, prefix)?;
    let desc = if flags & 2 != 0 {
        PropertyDescriptor {
            get: Some(f),
            enumerable: Some(enumerable),
            configurable: Some(true),
            ..Default::default()
        }
    } else if flags & 4 != 0 {
        PropertyDescriptor {
            set: Some(f),
            enumerable: Some(enumerable),
            configurable: Some(true),
            ..Default::default()
        }
    } else {
        PropertyDescriptor {
            value: Some(f),
            writable: Some(true),
            enumerable: Some(enumerable),
            configurable: Some(true),
            ..Default::default()
        }
    };
    property::define_property_or_throw(vm, o, key, desc)
}

pub fn set_home_object(vm: &mut Vm, f: Value, home: Value) {
    if let (Some(fo), Some(h)) = (f.as_object(), home.as_object()) {
        if let Class::Function(c) = &mut vm.heap.obj_mut(fo).class {
            c.home_object = Some(h);
        }
    }
}

/// SetFunctionName (§10.2.9) if the function has no own `name` yet. prefix: 0 none, 1 get, 2 set.
pub fn set_function_name(vm: &mut Vm, f: Value, key: Value, prefix: u8) -> JsResult<()> {
    let Some(fo) = f.as_object() else { return Ok(()) };
    if !matches!(vm.heap.obj(fo).class, Class::Function(_)) {
        return Ok(());
    }
    let name_key = PropertyKey::Atom(atom::name);
    if let Some((v, _)) = vm.heap.obj(fo).lookup_named(&vm.heap.shapes, name_key) {
        // Anonymous functions are created with an empty name; a class with a static `name`
        // member keeps it. Accessors always get their "get "/"set " prefix.
        let is_empty_string = v.as_string().is_some_and(|s| vm.heap.string_len(s) == 0);
        if !is_empty_string && prefix == 0 {
            return Ok(());
        }
    }
    let mut name = if let Some(s) = key.as_symbol() {
        match vm.heap.symbol(s).and_then(|s| s.description.clone()) {
            Some(d) => format!("[{}]", d.to_rust_string()),
            None => String::new(),
        }
    } else {
        crate::runtime::convert::to_rust_string(vm, key)?
    };
    if prefix == 1 {
        name = format!("get {name}");
    } else if prefix == 2 {
        name = format!("set {name}");
    }
    let nv = vm.str(&name);
    vm.define_builtin(fo, name_key, nv, PropFlags(PropFlags::CONFIGURABLE));
    Ok(())
}

/// CopyDataProperties (§7.3.25), skipping `excluded` keys (as values).
pub fn copy_data_properties(vm: &mut Vm, target: Value, src: Value, excluded: &[Value]) -> JsResult<()> {
    if src.is_nullish() {
        return Ok(());
    }
    let Some(t) = target.as_object() else { return Ok(()) };
    let from = to_object(vm, src)?;
    let mut excluded_keys = Vec::with_capacity(excluded.len());
    for &e in excluded {
        excluded_keys.push(to_property_key(vm, e)?);
    }
    vm.roots.push(Value::object(from));
    let keys = property::own_property_keys(vm, from)?;
    for k in keys {
        if excluded_keys.contains(&k) {
            continue;
        }
        if let Some(d) = property::get_own_property(vm, from, k)? {
            if d.enumerable == Some(true) {
                let v = property::get(vm, from, k, Value::object(from))?;
                property::create_data_property_or_throw(vm, t, k, v)?;
            }
        }
    }
    Ok(())
}

/// Append to an array literal.
pub fn array_push(vm: &mut Vm, a: Value, v: Value) {
    if let Some(o) = a.as_object() {
        let obj = vm.heap.obj_mut(o);
        obj.elements.push(v);
        let len = obj.elements.len() as u32;
        if let Class::Array(d) = &mut obj.class {
            d.length = len;
        }
        vm.heap.note_growth(crate::heap::ELEMENT_BYTES);
        // Trailing holes are not stored densely forever: trim on the next non-hole push.
    }
}

/// `[...iterable]` into an array literal.
pub fn array_spread(vm: &mut Vm, a: Value, iterable: Value) -> JsResult<()> {
    let values = iterate_to_vec(vm, iterable)?;
    for v in values {
        array_push(vm, a, v);
    }
    Ok(())
}

/// Drain an iterable into a vector (fast path for plain arrays with the default iterator).
pub fn iterate_to_vec(vm: &mut Vm, iterable: Value) -> JsResult<Vec<Value>> {
    if let Some(o) = iterable.as_object() {
        if crate::builtins::array::has_default_iteration(vm, o) {
            let obj = vm.heap.obj(o);
            let len = match obj.class {
                Class::Array(a) => a.length as usize,
                _ => 0,
            };
            let mut out = Vec::with_capacity(len);
            for i in 0..len {
                let v = obj.elements.get(i).copied().unwrap_or(Value::EMPTY);
                out.push(if v.is_empty() { Value::UNDEFINED } else { v });
            }
            vm.charge(len as u64)?;
            return Ok(out);
        }
    }
    let record = get_iterator(vm, iterable, IteratorKind::Sync)?;
    let root = vm.roots.len();
    vm.roots.extend([record.iterator, record.next_method]);
    let mut out = Vec::new();
    while let Some(v) = iterator_step(vm, &record)? {
        vm.roots.push(v);
        out.push(v);
        vm.check_heap()?;
    }
    vm.roots.truncate(root);
    Ok(out)
}

/// Push the elements of an args array (from spread calls); returns the count.
pub fn push_array_elements(vm: &mut Vm, arr: Value) -> JsResult<u32> {
    let values = array_elements(vm, arr)?;
    let n = values.len() as u32;
    vm.stack.extend(values);
    Ok(n)
}

/// Elements of an internal args array.
pub fn array_elements(vm: &mut Vm, arr: Value) -> JsResult<Vec<Value>> {
    let Some(o) = arr.as_object() else { return Ok(Vec::new()) };
    let obj = vm.heap.obj(o);
    let len = match obj.class {
        Class::Array(a) => a.length as usize,
        _ => obj.elements.len(),
    };
    if len > 65_535 * 8 {
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    Ok((0..len).map(|i| obj.elements.get(i).copied().filter(|v| !v.is_empty()).unwrap_or(Value::UNDEFINED)).collect())
}
