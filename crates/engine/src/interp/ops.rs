//! Named handlers for the interpreter's heavier instructions: property access with inline
//! caches, globals, literals, classes, private names, iteration, arguments.

use crate::atoms::{atom, Atom, PropertyKey};
use crate::bytecode::{
    CodeBlock, ErrorHint, ErrorSite, FunctionKind, InlineCache, IC_ADD1, IC_ADD2, IC_OWN, IC_PROTO, IC_PROTO2,
};
use crate::error::{JsResult, Throw};
use crate::heap::object::{ArgumentsData, Class, Closure, IteratorState, Object, Props};
use crate::heap::shape::PropFlags;
use crate::heap::{Arena, CodeId};
use crate::runtime::call::{call, is_callable};
use crate::runtime::convert::{key_to_display, key_to_value, to_object, to_property_key};
use crate::runtime::property::{self, PropertyDescriptor};
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

// ---- errors

pub fn tdz_error(vm: &mut Vm, code: CodeId, register: u32) -> Throw {
    let name = vm.heap.code(code).register_names.get(register as usize).copied().unwrap_or(atom::empty);
    let n = vm.heap.atoms.get(name).to_rust_string();
    vm.reference_error(format!("Cannot access '{n}' before initialization"))
}

pub fn tdz_error_env(vm: &mut Vm, _code: CodeId, _slot: u32) -> Throw {
    vm.reference_error("Cannot access a lexical binding before initialization")
}

/// The error site of the instruction the top frame is executing, if it has one with `hint`
/// (a native called from JS runs with its caller's `Call` there, whose hint differs).
fn error_site(vm: &Vm, hint: impl Fn(ErrorHint) -> bool) -> Option<ErrorSite> {
    let frame = vm.frames.last()?;
    let site = vm.heap.code(frame.code).error_site(frame.pc.checked_sub(1)?)?;
    hint(site.hint).then(|| site.clone())
}

pub fn not_callable_error(vm: &mut Vm, v: Value) -> Throw {
    let shown = match error_site(vm, |h| h == ErrorHint::Callee) {
        Some(site) => site.text,
        None => crate::builtins::error::describe_for_message(vm, v),
    };
    vm.type_error(format!("{shown} is not a function"))
}

pub fn not_constructor_error(vm: &mut Vm, v: Value) -> Throw {
    let shown = match error_site(vm, |h| h == ErrorHint::Callee) {
        Some(site) => site.text,
        None => crate::builtins::error::describe_for_message(vm, v),
    };
    vm.type_error(format!("{shown} is not a constructor"))
}

/// V8's TypeError for a value GetIterator finds no iterator method on: named by the
/// iteration's error site, else by the value (`number 5 is not iterable (cannot read
/// property Symbol(Symbol.iterator))`).
pub fn not_iterable_error(vm: &mut Vm, v: Value, is_async: bool) -> Throw {
    let kind = if is_async { "async iterable" } else { "iterable" };
    let site = error_site(vm, |h| matches!(h, ErrorHint::Iterable | ErrorHint::CallResult | ErrorHint::SpreadArgument));
    let msg = match site {
        Some(ErrorSite { hint: ErrorHint::Iterable, text, .. }) => format!("{text} is not {kind}"),
        Some(ErrorSite { hint: ErrorHint::CallResult, text, .. }) => {
            format!("{text} is not a function or its return value is not {kind}")
        }
        Some(_) if v.is_nullish() => {
            let shown = crate::builtins::error::describe_for_message(vm, v);
            format!("{shown} is not iterable (cannot read property {shown})")
        }
        Some(_) => "Spread syntax requires ...iterable[Symbol.iterator] to be a function".to_string(),
        None => {
            let shown = crate::builtins::error::default_call_site(vm, v);
            format!("{shown} is not {kind} (cannot read property Symbol(Symbol.iterator))")
        }
    };
    vm.type_error(msg)
}

/// V8's TypeError for destructuring null or undefined (`RequireObjectCoercible`).
pub fn not_destructurable_error(vm: &mut Vm, v: Value) -> Throw {
    let what = if v.is_null() { "null" } else { "undefined" };
    let site = error_site(vm, |h| matches!(h, ErrorHint::Destructure | ErrorHint::NestedRead));
    let msg = match site {
        Some(ErrorSite { hint: ErrorHint::NestedRead, property: Some(p), .. }) => {
            format!("Cannot read properties of {what} (reading '{p}')")
        }
        Some(ErrorSite { hint: ErrorHint::NestedRead, .. }) => format!("Cannot read properties of {what}"),
        Some(ErrorSite { text, property, .. }) => {
            let text = if text.is_empty() { crate::builtins::error::default_call_site(vm, v) } else { text };
            match property {
                Some(p) => format!("Cannot destructure property '{p}' of '{text}' as it is {what}."),
                None => format!("Cannot destructure '{text}' as it is {what}."),
            }
        }
        None => format!("Cannot destructure '{what}' as it is {what}."),
    };
    vm.type_error(msg)
}

// ---- globals

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

// ---- properties

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
pub(super) fn ic_probe(objects: &Arena<Object>, cache: &InlineCache, obj: Value) -> Option<Value> {
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
pub(super) fn ic_add_applies(objects: &Arena<Object>, cache: &InlineCache, obj: Value) -> bool {
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
pub(super) fn ic_add(objects: &mut Arena<Object>, cache: &InlineCache, o: ObjectId, v: Value) {
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
    let (it, next) = get_iterator(vm, iterable, false)?;
    let root = vm.roots.len();
    vm.roots.extend([it, next]);
    let mut out = Vec::new();
    while let Some(v) = iterator_step(vm, it, next)? {
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

// ---- closures and classes

/// Create a closure for `functions[index]` of `code` in frame `fi`'s environment.
pub fn make_closure(vm: &mut Vm, fi: usize, code: CodeId, index: u32) -> JsResult<Value> {
    let Some(&fcode) = vm.heap.code(code).functions.get(index as usize) else {
        return Err(vm.type_error("invalid function index"));
    };
    let env = vm.frames.get(fi).and_then(|f| f.env);
    let f = instantiate_function(vm, fcode, env);
    if vm.heap.code(fcode).kind.is_arrow() {
        if let Some(frame) = vm.frames.get(fi) {
            let (this, nt, callee) = (frame.this, frame.new_target, frame.callee);
            let home = callee.as_object().and_then(|c| match &vm.heap.obj(c).class {
                Class::Function(cl) => cl.home_object,
                _ => None,
            });
            if let Class::Function(cl) = &mut vm.heap.obj_mut(f).class {
                cl.bound_this = this;
                cl.bound_new_target = nt;
                cl.home_object = home;
            }
        }
    }
    Ok(Value::object(f))
}

/// OrdinaryFunctionCreate + MakeConstructor as the code block's kind requires.
pub fn instantiate_function(vm: &mut Vm, fcode: CodeId, env: Option<crate::heap::EnvId>) -> ObjectId {
    let c: &CodeBlock = vm.heap.code(fcode);
    let (kind, name, length, strict) = (c.kind, c.name, c.length, c.strict);
    let proto = match kind {
        FunctionKind::Generator => vm.realm.generator_function_prototype,
        FunctionKind::AsyncGenerator => vm.realm.async_generator_function_prototype,
        FunctionKind::Async | FunctionKind::AsyncArrow => vm.realm.async_function_prototype,
        _ => vm.realm.function_prototype,
    };
    let closure = Closure {
        code: fcode,
        env,
        home_object: None,
        fields: Value::UNDEFINED,
        private_brand: Value::UNDEFINED,
        bound_this: Value::UNDEFINED,
        bound_new_target: Value::UNDEFINED,
    };
    let f = vm.heap.alloc_object(Object::new(Some(proto), Class::Function(closure)));
    let name_str = vm.heap.atoms.get(name).clone();
    vm.define_builtin(
        f,
        PropertyKey::Atom(atom::length),
        Value::int(length as i32),
        PropFlags(PropFlags::CONFIGURABLE),
    );
    let nv = vm.js_str(name_str);
    vm.define_builtin(f, PropertyKey::Atom(atom::name), nv, PropFlags(PropFlags::CONFIGURABLE));
    match kind {
        FunctionKind::Normal => {
            if !strict {
                // As in V8 (an extension the spec allows, 17.1): sloppy functions carry their
                // own `arguments` and `caller`, read as null, so reading them does not reach
                // Function.prototype's throwing accessors.
                vm.define_builtin(f, PropertyKey::Atom(atom::arguments), Value::NULL, PropFlags::NONE);
                vm.define_builtin(f, PropertyKey::Atom(atom::caller), Value::NULL, PropFlags::NONE);
            }
            let p = vm.new_object();
            if let Some(po) = p.as_object() {
                vm.define_builtin(po, PropertyKey::Atom(atom::constructor), Value::object(f), PropFlags::HIDDEN);
            }
            vm.define_builtin(f, PropertyKey::Atom(atom::prototype), p, PropFlags(PropFlags::WRITABLE));
        }
        FunctionKind::Generator | FunctionKind::AsyncGenerator => {
            let pp = if kind == FunctionKind::Generator {
                vm.realm.generator_prototype
            } else {
                vm.realm.async_generator_prototype
            };
            let p = vm.heap.new_plain(Some(pp));
            vm.define_builtin(f, PropertyKey::Atom(atom::prototype), Value::object(p), PropFlags(PropFlags::WRITABLE));
        }
        _ => {}
    }
    f
}

/// `class` evaluation core: `parent? → ctor proto`.
pub fn create_class(vm: &mut Vm, fi: usize, code: CodeId, index: u32, derived: bool, name: Atom) -> JsResult<()> {
    let (proto_parent, ctor_parent) = if derived {
        let parent = vm.stack.pop().unwrap_or_default();
        if parent.is_null() {
            (None, vm.realm.function_prototype)
        } else {
            if !crate::runtime::call::is_constructor(vm, parent) {
                return Err(vm.type_error("Class extends value is not a constructor or null"));
            }
            let Some(po) = parent.as_object() else {
                return Err(vm.type_error("Class extends value is not a constructor"));
            };
            let pp = property::get(vm, po, PropertyKey::Atom(atom::prototype), parent)?;
            if !pp.is_object() && !pp.is_null() {
                return Err(vm.type_error("Class extends value does not have valid prototype property"));
            }
            (pp.as_object(), po)
        }
    } else {
        (Some(vm.realm.object_prototype), vm.realm.function_prototype)
    };
    let proto = vm.heap.new_plain(proto_parent);
    let ctor = make_closure(vm, fi, code, index)?;
    let Some(c) = ctor.as_object() else { return Err(vm.type_error("class constructor")) };
    vm.heap.obj_mut(c).proto = Some(ctor_parent);
    if let Class::Function(cl) = &mut vm.heap.obj_mut(c).class {
        cl.home_object = Some(proto);
    }
    // Class constructors: `prototype` is non-writable; the function's own name/length stand.
    let _ = name;
    vm.define_builtin(c, PropertyKey::Atom(atom::prototype), Value::object(proto), PropFlags::NONE);
    vm.define_builtin(proto, PropertyKey::Atom(atom::constructor), ctor, PropFlags::HIDDEN);
    vm.stack.push(ctor);
    vm.stack.push(Value::object(proto));
    Ok(())
}

/// The current function's `this`, checking initialisation in derived constructors.
pub fn current_this(vm: &mut Vm, fi: usize) -> JsResult<Value> {
    let t = vm.frames[fi].this;
    if t.is_empty() {
        return Err(vm.reference_error(
            "Must call super constructor in derived class before accessing 'this' or returning from derived constructor",
        ));
    }
    Ok(t)
}

/// `super(...args)` in a derived constructor: construct the parent with our new.target.
/// SuperCall steps 1-6: construct the parent of the active function `func`.
#[inline(never)] // cold: keeps the dispatch loop small
fn construct_super(vm: &mut Vm, func: Value, args: &[Value], new_target: Value) -> JsResult<(ObjectId, Value)> {
    // 1-4. Let func be GetSuperConstructor(); if IsConstructor(func) is false, throw.
    let Some(c) = func.as_object() else { return Err(vm.syntax_error("'super' keyword unexpected here")) };
    let parent = property::get_prototype_of(vm, c)?;
    let parent = parent.map(Value::object).unwrap_or(Value::NULL);
    if !crate::runtime::call::is_constructor(vm, parent) {
        return Err(vm.type_error("Super constructor is not a constructor"));
    }
    // 5-6. Let result be ? Construct(func, argList, newTarget).
    Ok((c, crate::runtime::call::construct(vm, parent, args, Some(new_target))?))
}

#[inline(never)] // cold: keeps the dispatch loop small
pub fn super_call(vm: &mut Vm, fi: usize, args: &[Value]) -> JsResult<Value> {
    let (callee, new_target) = (vm.frames[fi].callee, vm.frames[fi].new_target);
    let (c, this) = construct_super(vm, callee, args, new_target)?;
    // Direct eval frames share the `this` binding of the constructor frame they run in.
    let mut bound = vec![fi];
    let mut j = fi;
    while j > 0 && vm.heap.code(vm.frames[j].code).kind == FunctionKind::Eval {
        j -= 1;
        bound.push(j);
    }
    if !vm.frames[j].this.is_empty() {
        return Err(vm.reference_error("Super constructor may only be called once"));
    }
    for k in bound {
        vm.frames[k].this = this;
    }
    crate::interp::calls::run_field_init(vm, c, this)?;
    Ok(this)
}

/// SuperCall where arrows may call it (§13.3.7.1): the constructor and its `this` binding
/// live in its function environment (`slot + 1` and `slot`, `depth` environments up), and
/// the constructor's frame, if it is still running, gets the binding too.
#[inline(never)] // cold: keeps the dispatch loop small
pub fn super_call_env(vm: &mut Vm, fi: usize, depth: u16, slot: u32, args: &[Value]) -> JsResult<Value> {
    let Some(env) = super::env_at(vm, vm.frames[fi].env, depth) else {
        return Err(vm.syntax_error("'super' keyword unexpected here"));
    };
    let slot = slot as usize;
    let func = vm.heap.env(env).slots.get(slot + 1).copied().unwrap_or_default();
    let new_target = vm.frames[fi].new_target;
    let (c, this) = construct_super(vm, func, args, new_target)?;
    // 7-10. Perform ? thisER.BindThisValue(result).
    if !vm.heap.env(env).slots.get(slot).copied().unwrap_or_default().is_empty() {
        return Err(vm.reference_error("Super constructor may only be called once"));
    }
    if let Some(s) = vm.heap.env_mut(env).slots.get_mut(slot) {
        *s = this;
    }
    // The constructor's frame reads `this` from itself: the running invocation whose
    // environment this is gets it too (and direct eval frames above it share it).
    for k in (0..=fi).rev() {
        let f = &vm.frames[k];
        if f.callee != func || !f.this.is_empty() {
            continue;
        }
        let mut e = f.env;
        let mut hops = 0;
        while let Some(id) = e {
            if id == env || hops > 10_000 {
                break;
            }
            e = vm.heap.env(id).parent;
            hops += 1;
        }
        if e == Some(env) {
            vm.frames[k].this = this;
            for j in k + 1..=fi {
                if vm.heap.code(vm.frames[j].code).kind == FunctionKind::Eval && vm.frames[j].this.is_empty() {
                    vm.frames[j].this = this;
                }
            }
            break;
        }
    }
    // 11. Perform ? InitializeInstanceFields(result, F).
    crate::interp::calls::run_field_init(vm, c, this)?;
    Ok(this)
}

/// The object `super.x` looks up from: the home object's prototype.
pub fn super_base(vm: &mut Vm, fi: usize) -> JsResult<Value> {
    let callee = vm.frames[fi].callee;
    let home = callee.as_object().and_then(|c| match &vm.heap.obj(c).class {
        Class::Function(cl) => cl.home_object,
        _ => None,
    });
    let Some(h) = home else { return Err(vm.syntax_error("'super' keyword unexpected here")) };
    Ok(property::get_prototype_of(vm, h)?.map(Value::object).unwrap_or(Value::NULL))
}

pub fn get_super(vm: &mut Vm, base: Value, key: Value, this: Value) -> JsResult<Value> {
    let k = to_property_key(vm, key)?;
    let Some(b) = base.as_object() else {
        let kd = key_to_display(vm, k);
        return Err(vm.type_error(format!("Cannot read properties of null (reading '{kd}')")));
    };
    property::get(vm, b, k, this)
}

/// PutValue of a super reference: a failed [[Set]] throws only in strict code.
pub fn set_super(vm: &mut Vm, base: Value, key: Value, v: Value, this: Value, strict: bool) -> JsResult<()> {
    let k = to_property_key(vm, key)?;
    let Some(b) = base.as_object() else { return Err(vm.type_error("Cannot set properties of null")) };
    let ok = property::set(vm, b, k, v, this)?;
    if !ok && strict {
        return Err(property::set_failure(vm, b, k, this));
    }
    Ok(())
}

// ---- private names: a private name is a symbol; its properties live in the object's
// named part keyed by that symbol, hidden from every reflective operation.

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

// ---- arguments and rest

pub fn create_arguments(vm: &mut Vm, fi: usize, mapped: bool) -> Value {
    let f = &vm.frames[fi];
    let (base, argc, params) = (f.base, f.argc, vm.heap.code(f.code).param_count);
    let mut values: Vec<Value> = Vec::with_capacity(argc as usize);
    for i in 0..argc.min(params) {
        values.push(vm.stack[(base + i) as usize]);
    }
    values.extend_from_slice(&vm.frames[fi].extra_args);
    let callee = vm.frames[fi].callee;
    let env = vm.frames[fi].env;
    let proto = vm.realm.object_prototype;
    let mapping: Vec<u32> = if mapped {
        // The compiler puts the parameters of functions with mapped arguments in the function
        // environment's first slots, in order.
        (0..argc).map(|i| if i < params { i } else { u32::MAX }).collect()
    } else {
        Vec::new()
    };
    let data = ArgumentsData { env: if mapped { env } else { None }, mapping };
    let mut obj = Object::new(Some(proto), Class::Arguments(data));
    let len = values.len();
    let heap = &mut vm.heap;
    for (i, v) in values.into_iter().enumerate() {
        obj.add_named(&mut heap.shapes, PropertyKey::Index(i as u32), v, PropFlags::DEFAULT);
    }
    obj.add_named(&mut heap.shapes, PropertyKey::Atom(atom::length), Value::int(len as i32), PropFlags::HIDDEN);
    let values_fn = Value::object(vm.realm.array_prototype_values);
    let iter_key = PropertyKey::Symbol(vm.symbols.iterator);
    obj.add_named(&mut vm.heap.shapes, iter_key, values_fn, PropFlags::HIDDEN);
    if mapped {
        obj.add_named(&mut vm.heap.shapes, PropertyKey::Atom(atom::callee), callee, PropFlags::HIDDEN);
    } else {
        let thrower = Value::object(vm.realm.throw_type_error);
        let pair = vm.heap.alloc_object(Object::new(None, Class::AccessorPair { get: thrower, set: thrower }));
        obj.add_named(
            &mut vm.heap.shapes,
            PropertyKey::Atom(atom::callee),
            Value::object(pair),
            PropFlags(PropFlags::ACCESSOR),
        );
    }
    Value::object(vm.heap.alloc_object(obj))
}

pub fn create_rest(vm: &mut Vm, fi: usize, from: u32) -> Value {
    let f = &vm.frames[fi];
    let (base, argc, params) = (f.base, f.argc, vm.heap.code(f.code).param_count);
    let mut values = Vec::new();
    for i in from..argc.min(params) {
        values.push(vm.stack[(base + i) as usize]);
    }
    let skip = from.saturating_sub(params) as usize;
    values.extend(vm.frames[fi].extra_args.iter().skip(skip).copied());
    vm.new_array(values)
}

// ---- unary operators

pub fn negate(vm: &mut Vm, v: Value) -> JsResult<Value> {
    if let Some(i) = v.as_int() {
        if i != 0 && i != i32::MIN {
            return Ok(Value::int(-i));
        }
    }
    let n = crate::runtime::convert::to_numeric(vm, v)?;
    if let Some(b) = n.as_bigint() {
        let r = -vm.heap.bigint(b).clone();
        return Ok(Value::bigint(vm.heap.alloc_bigint(r)));
    }
    Ok(Value::number(-n.as_number().unwrap_or(f64::NAN)))
}

pub fn bit_not(vm: &mut Vm, v: Value) -> JsResult<Value> {
    let n = crate::runtime::convert::to_numeric(vm, v)?;
    if let Some(b) = n.as_bigint() {
        let r = !vm.heap.bigint(b).clone();
        return Ok(Value::bigint(vm.heap.alloc_bigint(r)));
    }
    Ok(Value::int(!crate::runtime::convert::f64_to_int32(n.as_number().unwrap_or(0.0))))
}

pub fn increment(vm: &mut Vm, v: Value, delta: i32) -> JsResult<Value> {
    if let Some(i) = v.as_int() {
        if let Some(r) = i.checked_add(delta) {
            return Ok(Value::int(r));
        }
    }
    let n = crate::runtime::convert::to_numeric(vm, v)?;
    if let Some(b) = n.as_bigint() {
        let r = vm.heap.bigint(b).clone() + delta;
        return Ok(Value::bigint(vm.heap.alloc_bigint(r)));
    }
    Ok(Value::number(n.as_number().unwrap_or(f64::NAN) + delta as f64))
}

// ---- iteration

/// GetIterator(obj, sync|async) → (iterator, next method).
pub fn get_iterator(vm: &mut Vm, v: Value, is_async: bool) -> JsResult<(Value, Value)> {
    if is_async {
        if v.is_nullish() {
            return Err(not_iterable_error(vm, v, true));
        }
        let key = PropertyKey::Symbol(vm.symbols.asyncIterator);
        if let Some(m) = property::get_method(vm, v, key)? {
            let it = call(vm, m, v, &[])?;
            if !it.is_object() {
                return Err(vm.type_error("Result of the Symbol.asyncIterator method is not an object"));
            }
            let next = property::get_v(vm, it, PropertyKey::Atom(atom::next))?;
            return Ok((it, next));
        }
        let (it, next) = sync_iterator(vm, v, true)?;
        return crate::interp::generator::create_async_from_sync_iterator(vm, it, next);
    }
    if v.is_nullish() {
        return Err(not_iterable_error(vm, v, false));
    }
    sync_iterator(vm, v, false)
}

/// GetIterator(obj, sync) for a value that is not nullish; `for_async`: for an async
/// iteration (its message says `async iterable`).
fn sync_iterator(vm: &mut Vm, v: Value, for_async: bool) -> JsResult<(Value, Value)> {
    let key = PropertyKey::Symbol(vm.symbols.iterator);
    let m = property::get_method(vm, v, key)?;
    let Some(m) = m else {
        return Err(not_iterable_error(vm, v, for_async));
    };
    let it = call(vm, m, v, &[])?;
    if !it.is_object() {
        return Err(vm.type_error("Result of the Symbol.iterator method is not an object"));
    }
    let next = property::get_v(vm, it, PropertyKey::Atom(atom::next))?;
    Ok((it, next))
}

/// IteratorStepValue: Some(value) or None when done.
pub fn iterator_step(vm: &mut Vm, it: Value, next: Value) -> JsResult<Option<Value>> {
    // Fast path: the built-in array iterator over a dense array.
    if let Some(o) = it.as_object() {
        if next == Value::object(vm.realm.array_iterator_next) {
            if let Some(r) = crate::builtins::array::array_iterator_fast_step(vm, o)? {
                return Ok(r);
            }
        }
    }
    let r = call(vm, next, it, &[])?;
    let Some(ro) = r.as_object() else {
        return Err(vm.type_error("Iterator result is not an object"));
    };
    let done = property::get(vm, ro, PropertyKey::Atom(atom::done), r)?;
    if crate::runtime::convert::to_boolean(vm, done) {
        return Ok(None);
    }
    Ok(Some(property::get(vm, ro, PropertyKey::Atom(atom::value), r)?))
}

/// IteratorClose for a normal completion.
pub fn iterator_close(vm: &mut Vm, it: Value) -> JsResult<()> {
    let ret = property::get_method(vm, it, PropertyKey::Atom(atom::return_))?;
    if let Some(r) = ret {
        let res = call(vm, r, it, &[])?;
        if !res.is_object() {
            return Err(vm.type_error("Iterator result is not an object"));
        }
    }
    Ok(())
}

/// IteratorClose for a throw completion: errors from `return` are ignored (limits are not).
pub fn iterator_close_quiet(vm: &mut Vm, it: Value) -> JsResult<()> {
    let r = property::get_method(vm, it, PropertyKey::Atom(atom::return_)).and_then(|ret| match ret {
        Some(r) => call(vm, r, it, &[]).map(|_| ()),
        None => Ok(()),
    });
    match r {
        Err(Throw::Limit(l)) => Err(Throw::Limit(l)),
        _ => Ok(()),
    }
}

/// AsyncIteratorClose for a throw completion, up to the await: call `return` if present and
/// return its result and whether there was one to await. Errors getting or calling `return`
/// are ignored (the loop's own exception wins), limits are not.
pub fn async_iterator_close_quiet(vm: &mut Vm, it: Value) -> JsResult<(Value, bool)> {
    let r = property::get_method(vm, it, PropertyKey::Atom(atom::return_)).and_then(|ret| match ret {
        Some(r) => call(vm, r, it, &[]).map(|v| (v, true)),
        None => Ok((Value::UNDEFINED, false)),
    });
    match r {
        Err(Throw::Limit(l)) => Err(Throw::Limit(l)),
        Err(_) => Ok((Value::UNDEFINED, false)),
        Ok(r) => Ok(r),
    }
}

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

// ---- literals

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

// ---- explicit resource management

pub fn add_disposable(vm: &mut Vm, stack: Value, v: Value, hint: u8) -> JsResult<()> {
    crate::builtins::disposable::add_resource(vm, stack, v, hint)
}

pub fn dispose_resources(vm: &mut Vm, stack: Value) -> JsResult<()> {
    crate::builtins::disposable::dispose_all(vm, stack)
}

/// Is `v` callable (re-export for the generator module).
pub fn callable(vm: &Vm, v: Value) -> bool {
    is_callable(vm, v)
}
