//! Array objects (ECMA-262 §23.1): the Array exotic `length`, the constructor, every
//! prototype method (generic over array-likes, with dense fast paths), and array iterators.

use crate::atoms::{atom, PropertyKey};
use crate::builtins::array_sort::{collect_for_sort, sort_values};
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{ArrayData, Class, IteratorState, Object};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{call, construct, is_callable, is_constructor};
use crate::runtime::convert::{
    is_array, relative_index, to_boolean, to_integer_or_infinity, to_number, to_object, to_rust_string, to_string,
};
use crate::runtime::operators::{same_value_zero, strict_equals};
use crate::runtime::property::{
    self, create_data_property_or_throw, delete, get, has_property, length_of_array_like, set_or_throw,
    PropertyDescriptor,
};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Array", 1, constructor),
    native!("Array.from", 1, from),
    native!("Array.isArray", 1, is_array_fn),
    native!("Array.of", 0, of),
    native!("get Array[Symbol.species]", 0, species),
    native!("Array.prototype.at", 1, at),
    native!("Array.prototype.concat", 1, concat),
    native!("Array.prototype.copyWithin", 2, copy_within),
    native!("Array.prototype.entries", 0, entries),
    native!("Array.prototype.every", 1, every),
    native!("Array.prototype.fill", 1, fill),
    native!("Array.prototype.filter", 1, filter),
    native!("Array.prototype.find", 1, find),
    native!("Array.prototype.findIndex", 1, find_index),
    native!("Array.prototype.findLast", 1, find_last),
    native!("Array.prototype.findLastIndex", 1, find_last_index),
    native!("Array.prototype.flat", 0, flat),
    native!("Array.prototype.flatMap", 1, flat_map),
    native!("Array.prototype.forEach", 1, for_each),
    native!("Array.prototype.includes", 1, includes),
    native!("Array.prototype.indexOf", 1, index_of),
    native!("Array.prototype.join", 1, join),
    native!("Array.prototype.keys", 0, keys),
    native!("Array.prototype.lastIndexOf", 1, last_index_of),
    native!("Array.prototype.map", 1, map),
    native!("Array.prototype.pop", 0, pop),
    native!("Array.prototype.push", 1, push),
    native!("Array.prototype.reduce", 1, reduce),
    native!("Array.prototype.reduceRight", 1, reduce_right),
    native!("Array.prototype.reverse", 0, reverse),
    native!("Array.prototype.shift", 0, shift),
    native!("Array.prototype.slice", 2, slice),
    native!("Array.prototype.some", 1, some),
    native!("Array.prototype.sort", 1, sort),
    native!("Array.prototype.splice", 2, splice),
    native!("Array.prototype.toLocaleString", 0, to_locale_string),
    native!("Array.prototype.toReversed", 0, to_reversed),
    native!("Array.prototype.toSorted", 1, to_sorted),
    native!("Array.prototype.toSpliced", 2, to_spliced),
    native!("Array.prototype.toString", 0, to_string_method),
    native!("Array.prototype.unshift", 1, unshift),
    native!("Array.prototype.values", 0, values),
    native!("Array.prototype.with", 2, with),
    native!("%ArrayIteratorPrototype%.next", 0, array_iterator_next),
];

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.array_prototype;
    let ctor = make_constructor(vm, "Array", "Array", proto);
    vm.realm.array_constructor = ctor;
    install(vm, proto, "Array.prototype", NATIVES);
    install(vm, ctor, "Array", NATIVES);
    // [Symbol.iterator] is the same function object as `values`.
    let values_key = vm.key("values");
    let values_fn = vm.heap.obj(proto).lookup_named(&vm.heap.shapes, values_key).map(|(v, _)| v);
    if let Some(v) = values_fn {
        let key = PropertyKey::Symbol(vm.symbols.iterator);
        vm.define_builtin(proto, key, v, PropFlags::HIDDEN);
        if let Some(o) = v.as_object() {
            vm.realm.array_prototype_values = o;
        }
    }
    // [Symbol.unscopables]
    let unscopables = vm.heap.new_plain(None);
    for name in [
        "at",
        "copyWithin",
        "entries",
        "fill",
        "find",
        "findIndex",
        "findLast",
        "findLastIndex",
        "flat",
        "flatMap",
        "includes",
        "keys",
        "toReversed",
        "toSorted",
        "toSpliced",
        "values",
    ] {
        let k = vm.key(name);
        vm.define_builtin(unscopables, k, Value::TRUE, PropFlags::DEFAULT);
    }
    let key = PropertyKey::Symbol(vm.symbols.unscopables);
    vm.define_builtin(proto, key, Value::object(unscopables), PropFlags(PropFlags::CONFIGURABLE));
    // %ArrayIteratorPrototype%
    let aip = vm.realm.array_iterator_prototype;
    install(vm, aip, "%ArrayIteratorPrototype%", NATIVES);
    if let Some((next, _)) = vm.heap.obj(aip).lookup_named(&vm.heap.shapes, PropertyKey::Atom(atom::next)) {
        if let Some(n) = next.as_object() {
            vm.realm.array_iterator_next = n;
        }
    }
    let tag = vm.str("Array Iterator");
    let key = PropertyKey::Symbol(vm.symbols.toStringTag);
    vm.define_builtin(aip, key, tag, PropFlags(PropFlags::CONFIGURABLE));
}

// ---- the Array exotic object's `length` (§10.4.2.4 ArraySetLength)

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

// ---- helpers

/// Is `o` a plain dense array whose iteration JS cannot observe (default iterator intact)?
pub fn has_default_iteration(vm: &Vm, o: ObjectId) -> bool {
    let obj = vm.heap.obj(o);
    let Class::Array(a) = obj.class else { return false };
    if obj.proto != Some(vm.realm.array_prototype) || a.length as usize != obj.elements.len() {
        return false;
    }
    if obj.elements.iter().any(|v| v.is_empty()) {
        return false;
    }
    let key = PropertyKey::Symbol(vm.symbols.iterator);
    if obj.lookup_named(&vm.heap.shapes, key).is_some() {
        return false;
    }
    let proto = vm.heap.obj(vm.realm.array_prototype);
    let iter_ok = proto
        .lookup_named(&vm.heap.shapes, key)
        .is_some_and(|(v, _)| v == Value::object(vm.realm.array_prototype_values));
    let next_ok = vm
        .heap
        .obj(vm.realm.array_iterator_prototype)
        .lookup_named(&vm.heap.shapes, PropertyKey::Atom(atom::next))
        .is_some_and(|(v, _)| v == Value::object(vm.realm.array_iterator_next));
    iter_ok && next_ok
}

/// ArraySpeciesCreate (§10.4.2.3).
fn array_species_create(vm: &mut Vm, original: ObjectId, length: u64) -> JsResult<ObjectId> {
    if !is_array(vm, Value::object(original))? {
        return array_create(vm, length);
    }
    let mut c = get(vm, original, PropertyKey::Atom(atom::constructor), Value::object(original))?;
    if is_constructor(vm, c) {
        // Another realm's %Array% makes an array of this realm (a cross-realm `concat` or
        // `map` must not change the result's prototype).
        let co = c.as_object().unwrap_or(original);
        let realm = crate::realm::function_realm(vm, co)?;
        if realm != vm.current_realm && co == vm.intrinsics_of(realm).array_constructor {
            c = Value::UNDEFINED;
        }
    }
    if let Some(co) = c.as_object() {
        let key = PropertyKey::Symbol(vm.symbols.species);
        c = get(vm, co, key, c)?;
        if c.is_null() {
            c = Value::UNDEFINED;
        }
    }
    if c.is_undefined() {
        return array_create(vm, length);
    }
    if !is_constructor(vm, c) {
        return Err(vm.type_error("object.constructor[Symbol.species] is not a constructor"));
    }
    let r = construct(vm, c, &[Value::number(length as f64)], None)?;
    r.as_object().ok_or_else(|| vm.type_error("species constructor returned a non-object"))
}

/// ArrayCreate (§10.4.2.2).
pub fn array_create(vm: &mut Vm, length: u64) -> JsResult<ObjectId> {
    if length > u32::MAX as u64 {
        return Err(vm.range_error("Invalid array length"));
    }
    let o = Object::new(
        Some(vm.realm.array_prototype),
        Class::Array(ArrayData { length: length as u32, length_writable: true }),
    );
    Ok(vm.heap.alloc_object(o))
}

fn this_obj(vm: &mut Vm, this: Value) -> JsResult<(ObjectId, u64)> {
    let o = to_object(vm, this)?;
    vm.roots.push(Value::object(o));
    let len = length_of_array_like(vm, o)?;
    Ok((o, len))
}

fn callback(vm: &mut Vm, f: Value, method: &str) -> JsResult<Value> {
    if !is_callable(vm, f) {
        // V8's messages: the value without running JS (`#<Object>`, `s`), flatMap's own.
        if method == "flatMap" {
            return Err(vm.type_error("flatMap mapper function is not callable"));
        }
        let shown = crate::builtins::map::display(vm, f);
        return Err(vm.type_error(format!("{shown} is not a function")));
    }
    Ok(f)
}

fn set_length(vm: &mut Vm, o: ObjectId, len: u64) -> JsResult<()> {
    set_or_throw(vm, o, PropertyKey::Atom(atom::length), Value::number(len as f64))
}

fn idx(i: u64) -> PropertyKey {
    if i < u32::MAX as u64 {
        PropertyKey::Index(i as u32)
    } else {
        PropertyKey::Atom(crate::atoms::atom::empty)
    }
}

/// Key for a (possibly > 2^32-2) index.
pub(super) fn key_for(vm: &mut Vm, i: u64) -> PropertyKey {
    if i < u32::MAX as u64 {
        PropertyKey::Index(i as u32)
    } else {
        vm.key(&i.to_string())
    }
}

// ---- constructor and statics

/// ### 23.1.1.1 Array ( ...values )
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let nt = vm.native_new_target();
    let nt = if nt.is_undefined() { vm.native_ctx.callee.map(Value::object).unwrap_or_default() } else { nt };
    let default = vm.realm.array_prototype;
    let proto = crate::runtime::call::prototype_from_constructor(vm, nt, default)?;
    let a = array_create(vm, 0)?;
    vm.heap.obj_mut(a).proto = Some(proto);
    if args.len() == 1 {
        let len = args[0];
        let int_len = if let Some(n) = len.as_number() {
            let l = crate::runtime::convert::f64_to_int32(n) as u32;
            if l as f64 != n {
                return Err(vm.range_error("Invalid array length"));
            }
            l
        } else {
            vm.heap.obj_mut(a).elements.push(len);
            1
        };
        if let Class::Array(d) = &mut vm.heap.obj_mut(a).class {
            d.length = int_len;
        }
        return Ok(Value::object(a));
    }
    vm.charge(args.len() as u64)?;
    let obj = vm.heap.obj_mut(a);
    obj.elements = args.to_vec();
    if let Class::Array(d) = &mut obj.class {
        d.length = args.len() as u32;
    }
    vm.heap.note_growth(args.len() as u64 * crate::heap::ELEMENT_BYTES);
    Ok(Value::object(a))
}

fn is_array_fn(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::bool(is_array(vm, arg(args, 0))?))
}

fn species(_vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(this)
}

/// ### 23.1.2.3 Array.of ( ...items )
fn of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let len = args.len();
    let a = if is_constructor(vm, this) {
        construct(vm, this, &[Value::number(len as f64)], None)?
    } else {
        Value::object(array_create(vm, len as u64)?)
    };
    let Some(ao) = a.as_object() else { return Err(vm.type_error("not an object")) };
    vm.roots.push(a);
    for (k, &v) in args.iter().enumerate() {
        create_data_property_or_throw(vm, ao, idx(k as u64), v)?;
    }
    set_length(vm, ao, len as u64)?;
    Ok(a)
}

/// ### 23.1.2.1 Array.from ( items [ , mapper [ , thisArg ] ] )
fn from(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let items = arg(args, 0);
    let mapfn = arg(args, 1);
    let this_arg = arg(args, 2);
    let mapping = !mapfn.is_undefined();
    if mapping && !is_callable(vm, mapfn) {
        return Err(vm.type_error("Array.from: when provided, the second argument must be a function"));
    }
    let key = PropertyKey::Symbol(vm.symbols.iterator);
    let using_iterator = property::get_method(vm, items, key)?;
    if let Some(iter_fn) = using_iterator {
        let a = if is_constructor(vm, this) {
            construct(vm, this, &[], None)?
        } else {
            Value::object(array_create(vm, 0)?)
        };
        let Some(ao) = a.as_object() else { return Err(vm.type_error("not an object")) };
        vm.roots.push(a);
        let it = call(vm, iter_fn, items, &[])?;
        if !it.is_object() {
            return Err(vm.type_error("Result of the Symbol.iterator method is not an object"));
        }
        let next = property::get_v(vm, it, PropertyKey::Atom(atom::next))?;
        vm.roots.extend([it, next]);
        let mut k: u64 = 0;
        loop {
            let Some(v) = crate::interp::ops::iterator_step(vm, it, next)? else {
                set_length(vm, ao, k)?;
                return Ok(a);
            };
            let r = (|| {
                let v = if mapping { call(vm, mapfn, this_arg, &[v, Value::number(k as f64)])? } else { v };
                create_data_property_or_throw(vm, ao, idx(k), v)
            })();
            if let Err(e) = r {
                return crate::builtins::iterator::close_on_throw(vm, it, e);
            }
            k += 1;
            vm.check_heap()?;
        }
    }
    let array_like = to_object(vm, items)?;
    vm.roots.push(Value::object(array_like));
    let len = length_of_array_like(vm, array_like)?;
    let a = if is_constructor(vm, this) {
        construct(vm, this, &[Value::number(len as f64)], None)?
    } else {
        Value::object(array_create(vm, len)?)
    };
    let Some(ao) = a.as_object() else { return Err(vm.type_error("not an object")) };
    vm.roots.push(a);
    for k in 0..len {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let v = get(vm, array_like, idx(k), Value::object(array_like))?;
        let v = if mapping { call(vm, mapfn, this_arg, &[v, Value::number(k as f64)])? } else { v };
        create_data_property_or_throw(vm, ao, idx(k), v)?;
    }
    set_length(vm, ao, len)?;
    Ok(a)
}

// ---- prototype methods

fn at(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let rel = to_integer_or_infinity(vm, arg(args, 0))?;
    let k = if rel >= 0.0 { rel } else { len as f64 + rel };
    if k < 0.0 || k >= len as f64 {
        return Ok(Value::UNDEFINED);
    }
    get(vm, o, idx(k as u64), Value::object(o))
}

/// IsConcatSpreadable (§23.1.3.2.1).
fn is_concat_spreadable(vm: &mut Vm, v: Value) -> JsResult<bool> {
    let Some(o) = v.as_object() else { return Ok(false) };
    let key = PropertyKey::Symbol(vm.symbols.isConcatSpreadable);
    let s = get(vm, o, key, v)?;
    if !s.is_undefined() {
        return Ok(to_boolean(vm, s));
    }
    is_array(vm, v)
}

fn concat(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let o = to_object(vm, this)?;
    vm.roots.push(Value::object(o));
    let a = array_species_create(vm, o, 0)?;
    vm.roots.push(Value::object(a));
    let mut n: u64 = 0;
    let items: Vec<Value> = std::iter::once(Value::object(o)).chain(args.iter().copied()).collect();
    for e in items {
        if is_concat_spreadable(vm, e)? {
            let Some(eo) = e.as_object() else { continue };
            let len = length_of_array_like(vm, eo)?;
            if n + len > 9007199254740991 {
                return Err(vm.type_error("Array length exceeds the maximum"));
            }
            // Charged per step, not up front: a getter may end a loop over a huge length.
            for k in 0..len {
                vm.charge(1)?;
                let pk = key_for(vm, k);
                if has_property(vm, eo, pk)? {
                    let v = get(vm, eo, pk, e)?;
                    let dk = key_for(vm, n);
                    create_data_property_or_throw(vm, a, dk, v)?;
                }
                n += 1;
            }
        } else {
            let dk = key_for(vm, n);
            create_data_property_or_throw(vm, a, dk, e)?;
            n += 1;
        }
        vm.check_heap()?;
    }
    set_length(vm, a, n)?;
    Ok(Value::object(a))
}

fn copy_within(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let to = relative_index(to_integer_or_infinity(vm, arg(args, 0))?, len);
    let from = relative_index(to_integer_or_infinity(vm, arg(args, 1))?, len);
    let fin =
        if arg(args, 2).is_undefined() { len } else { relative_index(to_integer_or_infinity(vm, arg(args, 2))?, len) };
    let count = fin.saturating_sub(from).min(len - to);
    vm.charge(count)?;
    let (mut from, mut to, dir) =
        if from < to && to < from + count { (from + count - 1, to + count - 1, -1i64) } else { (from, to, 1) };
    for _ in 0..count {
        let (fk, tk) = (key_for(vm, from), key_for(vm, to));
        if has_property(vm, o, fk)? {
            let v = get(vm, o, fk, Value::object(o))?;
            set_or_throw(vm, o, tk, v)?;
        } else if !delete(vm, o, tk)? {
            return Err(vm.type_error("Cannot delete property"));
        }
        from = (from as i64 + dir) as u64;
        to = (to as i64 + dir) as u64;
    }
    Ok(Value::object(o))
}

/// CreateArrayIterator (§23.1.5.1): kind 0 keys, 1 values, 2 entries.
pub fn create_array_iterator(vm: &mut Vm, target: Value, kind: u8) -> Value {
    let proto = vm.realm.array_iterator_prototype;
    let st = IteratorState::Array { target, index: 0, kind, done: false };
    Value::object(vm.heap.alloc_object(Object::new(Some(proto), Class::Iterator(Box::new(st)))))
}

fn entries(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = to_object(vm, this)?;
    Ok(create_array_iterator(vm, Value::object(o), 2))
}

fn keys(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = to_object(vm, this)?;
    Ok(create_array_iterator(vm, Value::object(o), 0))
}

fn values(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = to_object(vm, this)?;
    Ok(create_array_iterator(vm, Value::object(o), 1))
}

/// The shared loop of every/some/forEach/find…: calls `f(value, k, O)` for each present
/// element (or each index when `visit_holes`), stopping when `step` returns Some.
fn iterate<F>(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
    method: &str,
    reverse: bool,
    visit_holes: bool,
    mut step: F,
) -> JsResult<Option<Value>>
where
    F: FnMut(&mut Vm, Value, u64, Value) -> JsResult<Option<Value>>,
{
    let (o, len) = this_obj(vm, this)?;
    let f = callback(vm, arg(args, 0), method)?;
    let this_arg = arg(args, 1);
    for i in 0..len {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let k = if reverse { len - 1 - i } else { i };
        let pk = key_for(vm, k);
        if !visit_holes && !has_property(vm, o, pk)? {
            continue;
        }
        let v = get(vm, o, pk, Value::object(o))?;
        let r = call(vm, f, this_arg, &[v, Value::number(k as f64), Value::object(o)])?;
        if let Some(out) = step(vm, v, k, r)? {
            return Ok(Some(out));
        }
    }
    Ok(None)
}

fn every(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let r =
        iterate(vm, this, args, "every", false, false, |vm, _, _, r| Ok((!to_boolean(vm, r)).then_some(Value::FALSE)))?;
    Ok(r.unwrap_or(Value::TRUE))
}

fn some(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let r = iterate(vm, this, args, "some", false, false, |vm, _, _, r| Ok(to_boolean(vm, r).then_some(Value::TRUE)))?;
    Ok(r.unwrap_or(Value::FALSE))
}

fn for_each(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    iterate(vm, this, args, "forEach", false, false, |_, _, _, _| Ok(None))?;
    Ok(Value::UNDEFINED)
}

fn find(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let r = iterate(vm, this, args, "find", false, true, |vm, v, _, r| Ok(to_boolean(vm, r).then_some(v)))?;
    Ok(r.unwrap_or(Value::UNDEFINED))
}

fn find_index(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let r = iterate(vm, this, args, "findIndex", false, true, |vm, _, k, r| {
        Ok(to_boolean(vm, r).then_some(Value::number(k as f64)))
    })?;
    Ok(r.unwrap_or(Value::int(-1)))
}

fn find_last(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let r = iterate(vm, this, args, "findLast", true, true, |vm, v, _, r| Ok(to_boolean(vm, r).then_some(v)))?;
    Ok(r.unwrap_or(Value::UNDEFINED))
}

fn find_last_index(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let r = iterate(vm, this, args, "findLastIndex", true, true, |vm, _, k, r| {
        Ok(to_boolean(vm, r).then_some(Value::number(k as f64)))
    })?;
    Ok(r.unwrap_or(Value::int(-1)))
}

fn fill(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let start = relative_index(to_integer_or_infinity(vm, arg(args, 1))?, len);
    let end =
        if arg(args, 2).is_undefined() { len } else { relative_index(to_integer_or_infinity(vm, arg(args, 2))?, len) };
    vm.charge(end.saturating_sub(start))?;
    for k in start..end {
        let pk = key_for(vm, k);
        set_or_throw(vm, o, pk, arg(args, 0))?;
        // Filling a holey array grows its storage element by element: stop at the budget,
        // not after the whole range (`new Array(1e8).fill(0)`).
        vm.check_heap()?;
    }
    Ok(Value::object(o))
}

fn filter(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let f = callback(vm, arg(args, 0), "filter")?;
    let a = array_species_create(vm, o, 0)?;
    vm.roots.push(Value::object(a));
    let mut to = 0u64;
    for k in 0..len {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let pk = key_for(vm, k);
        if !has_property(vm, o, pk)? {
            continue;
        }
        let v = get(vm, o, pk, Value::object(o))?;
        vm.roots.push(v);
        let keep = call(vm, f, arg(args, 1), &[v, Value::number(k as f64), Value::object(o)])?;
        if to_boolean(vm, keep) {
            let tk = key_for(vm, to);
            create_data_property_or_throw(vm, a, tk, v)?;
            to += 1;
        }
    }
    Ok(Value::object(a))
}

/// FlattenIntoArray (§23.1.3.13.1).
#[allow(clippy::too_many_arguments)]
fn flatten_into(
    vm: &mut Vm,
    target: ObjectId,
    source: ObjectId,
    source_len: u64,
    start: u64,
    depth: f64,
    mapper: Option<(Value, Value)>,
) -> JsResult<u64> {
    let mut target_index = start;
    for k in 0..source_len {
        vm.charge(1)?;
        let pk = key_for(vm, k);
        if !has_property(vm, source, pk)? {
            continue;
        }
        let mut el = get(vm, source, pk, Value::object(source))?;
        if let Some((f, this_arg)) = mapper {
            el = call(vm, f, this_arg, &[el, Value::number(k as f64), Value::object(source)])?;
        }
        vm.roots.push(el);
        let should_flatten = depth > 0.0 && is_array(vm, el)?;
        if should_flatten {
            let Some(eo) = el.as_object() else { continue };
            let el_len = length_of_array_like(vm, eo)?;
            // Each level of nesting is a level of Rust recursion: counted and on a grown
            // stack, so `flat(Infinity)` of arrays nested a million deep is a RangeError.
            target_index = crate::runtime::call::nested(vm, |vm| {
                flatten_into(vm, target, eo, el_len, target_index, depth - 1.0, None)
            })?;
        } else {
            let tk = key_for(vm, target_index);
            create_data_property_or_throw(vm, target, tk, el)?;
            target_index += 1;
        }
        vm.charge(1)?;
    }
    Ok(target_index)
}

fn flat(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let depth = if arg(args, 0).is_undefined() { 1.0 } else { to_integer_or_infinity(vm, arg(args, 0))?.max(0.0) };
    let a = array_species_create(vm, o, 0)?;
    vm.roots.push(Value::object(a));
    flatten_into(vm, a, o, len, 0, depth, None)?;
    Ok(Value::object(a))
}

fn flat_map(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let f = callback(vm, arg(args, 0), "flatMap")?;
    let a = array_species_create(vm, o, 0)?;
    vm.roots.push(Value::object(a));
    flatten_into(vm, a, o, len, 0, 1.0, Some((f, arg(args, 1))))?;
    Ok(Value::object(a))
}

fn includes(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    if len == 0 {
        return Ok(Value::FALSE);
    }
    let n = to_integer_or_infinity(vm, arg(args, 1))?;
    if n == f64::INFINITY {
        return Ok(Value::FALSE);
    }
    let start = if n >= 0.0 { n as u64 } else { (len as f64 + n).max(0.0) as u64 };
    for k in start..len {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let pk = key_for(vm, k);
        let v = get(vm, o, pk, Value::object(o))?;
        if same_value_zero(vm, v, arg(args, 0)) {
            return Ok(Value::TRUE);
        }
        vm.charge(1)?;
    }
    Ok(Value::FALSE)
}

fn index_of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    if len == 0 {
        return Ok(Value::int(-1));
    }
    let n = to_integer_or_infinity(vm, arg(args, 1))?;
    if n == f64::INFINITY {
        return Ok(Value::int(-1));
    }
    let start = if n >= 0.0 { n as u64 } else { (len as f64 + n).max(0.0) as u64 };
    for k in start..len {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let pk = key_for(vm, k);
        if has_property(vm, o, pk)? {
            let v = get(vm, o, pk, Value::object(o))?;
            if strict_equals(vm, v, arg(args, 0)) {
                return Ok(Value::number(k as f64));
            }
        }
        vm.charge(1)?;
    }
    Ok(Value::int(-1))
}

fn last_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    if len == 0 {
        return Ok(Value::int(-1));
    }
    let n = if args.len() > 1 { to_integer_or_infinity(vm, args[1])? } else { len as f64 - 1.0 };
    if n == f64::NEG_INFINITY {
        return Ok(Value::int(-1));
    }
    let from = if n >= 0.0 { n.min(len as f64 - 1.0) } else { len as f64 + n };
    if from < 0.0 {
        return Ok(Value::int(-1));
    }
    let mut k = from as i64;
    while k >= 0 {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let pk = key_for(vm, k as u64);
        if has_property(vm, o, pk)? {
            let v = get(vm, o, pk, Value::object(o))?;
            if strict_equals(vm, v, arg(args, 0)) {
                return Ok(Value::number(k as f64));
            }
        }
        vm.charge(1)?;
        k -= 1;
    }
    Ok(Value::int(-1))
}

/// ### 23.1.3.18 Array.prototype.join ( separator )
fn join(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let sep = if arg(args, 0).is_undefined() {
        crate::string::JsStr::from_str(",")
    } else {
        let s = to_string(vm, arg(args, 0))?;
        vm.heap.flat(s).clone()
    };
    join_with(vm, o, len, &sep)
}

/// Guard against cycles (`a = [a]; a.join()`): V8 prints the cycle as empty.
fn join_with(vm: &mut Vm, o: ObjectId, len: u64, sep: &crate::string::JsStr) -> JsResult<Value> {
    if vm.join_stack.contains(&o) {
        return Ok(vm.str(""));
    }
    if vm.join_stack.len() > 10_000 {
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    vm.join_stack.push(o);
    let r = (|| {
        let mut units: Vec<u16> = Vec::new();
        for k in 0..len {
            // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
            vm.charge(1)?;
            if k > 0 {
                units.extend(sep.iter());
            }
            let pk = key_for(vm, k);
            let v = get(vm, o, pk, Value::object(o))?;
            if !v.is_nullish() {
                let s = to_string(vm, v)?;
                units.extend(vm.heap.flat(s).iter());
            }
            vm.charge(1 + sep.len() as u64)?;
            vm.check_string_growth(units.len() as u64)?;
        }
        vm.charge(units.len() as u64 / 16)?;
        Ok(vm.js_str(crate::string::JsStr::from_units(units)))
    })();
    vm.join_stack.pop();
    r
}

fn map(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let f = callback(vm, arg(args, 0), "map")?;
    let a = array_species_create(vm, o, len)?;
    vm.roots.push(Value::object(a));
    for k in 0..len {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let pk = key_for(vm, k);
        if !has_property(vm, o, pk)? {
            continue;
        }
        let v = get(vm, o, pk, Value::object(o))?;
        let mapped = call(vm, f, arg(args, 1), &[v, Value::number(k as f64), Value::object(o)])?;
        create_data_property_or_throw(vm, a, pk, mapped)?;
    }
    Ok(Value::object(a))
}

fn pop(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    if len == 0 {
        set_length(vm, o, 0)?;
        return Ok(Value::UNDEFINED);
    }
    let pk = key_for(vm, len - 1);
    let v = get(vm, o, pk, Value::object(o))?;
    if !delete(vm, o, pk)? {
        return Err(vm.type_error("Cannot delete array element"));
    }
    set_length(vm, o, len - 1)?;
    Ok(v)
}

/// ### 23.1.3.23 Array.prototype.push ( ...items )
fn push(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // Fast path: dense extensible array with writable length and no index properties in
    // its prototype chain — appending is unobservable beyond the result.
    if let Some(o) = this.as_object() {
        let obj = vm.heap.obj(o);
        if let Class::Array(a) = obj.class {
            if a.length_writable
                && obj.extensible
                && a.length as usize == obj.elements.len()
                && obj.proto == Some(vm.realm.array_prototype)
                && vm.heap.obj(vm.realm.array_prototype).elements.is_empty()
                && (a.length as u64 + args.len() as u64) < u32::MAX as u64
            {
                vm.charge(args.len() as u64)?;
                let obj = vm.heap.obj_mut(o);
                obj.elements.extend_from_slice(args);
                let n = obj.elements.len() as u32;
                if let Class::Array(d) = &mut obj.class {
                    d.length = n;
                }
                vm.heap.note_growth(args.len() as u64 * crate::heap::ELEMENT_BYTES);
                vm.check_heap()?;
                return Ok(Value::number(n as f64));
            }
        }
    }
    let (o, len) = this_obj(vm, this)?;
    if len + args.len() as u64 > 9007199254740991 {
        return Err(vm.type_error("Pushing items would exceed the maximum array length"));
    }
    let mut n = len;
    for &v in args {
        let pk = key_for(vm, n);
        set_or_throw(vm, o, pk, v)?;
        n += 1;
    }
    set_length(vm, o, n)?;
    Ok(Value::number(n as f64))
}

fn reduce_impl(vm: &mut Vm, this: Value, args: &[Value], right: bool) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let f = callback(vm, arg(args, 0), if right { "reduceRight" } else { "reduce" })?;
    let mut ks = (0..len).map(move |i| if right { len - 1 - i } else { i });
    let mut acc = None;
    if args.len() >= 2 {
        acc = Some(args[1]);
    } else {
        for k in ks.by_ref() {
            vm.charge(1)?;
            let pk = key_for(vm, k);
            if has_property(vm, o, pk)? {
                acc = Some(get(vm, o, pk, Value::object(o))?);
                break;
            }
        }
    }
    let Some(mut acc) = acc else { return Err(vm.type_error("Reduce of empty array with no initial value")) };
    for k in ks {
        vm.charge(1)?;
        let pk = key_for(vm, k);
        if has_property(vm, o, pk)? {
            let v = get(vm, o, pk, Value::object(o))?;
            vm.roots.push(acc);
            acc = call(vm, f, Value::UNDEFINED, &[acc, v, Value::number(k as f64), Value::object(o)])?;
        }
    }
    Ok(acc)
}

fn reduce(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    reduce_impl(vm, this, args, false)
}

fn reduce_right(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    reduce_impl(vm, this, args, true)
}

fn reverse(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let middle = len / 2;
    let mut lower = 0;
    while lower != middle {
        vm.charge(2)?;
        let upper = len - lower - 1;
        let (lk, uk) = (key_for(vm, lower), key_for(vm, upper));
        let lower_exists = has_property(vm, o, lk)?;
        let lv = if lower_exists { get(vm, o, lk, Value::object(o))? } else { Value::UNDEFINED };
        let upper_exists = has_property(vm, o, uk)?;
        let uv = if upper_exists { get(vm, o, uk, Value::object(o))? } else { Value::UNDEFINED };
        match (lower_exists, upper_exists) {
            (true, true) => {
                set_or_throw(vm, o, lk, uv)?;
                set_or_throw(vm, o, uk, lv)?;
            }
            (false, true) => {
                set_or_throw(vm, o, lk, uv)?;
                if !delete(vm, o, uk)? {
                    return Err(vm.type_error("Cannot delete property"));
                }
            }
            (true, false) => {
                if !delete(vm, o, lk)? {
                    return Err(vm.type_error("Cannot delete property"));
                }
                set_or_throw(vm, o, uk, lv)?;
            }
            (false, false) => {}
        }
        lower += 1;
    }
    Ok(Value::object(o))
}

fn shift(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    if len == 0 {
        set_length(vm, o, 0)?;
        return Ok(Value::UNDEFINED);
    }
    // Fast path: dense own elements, default attributes, plain prototype chain.
    if let Class::Array(a) = vm.heap.obj(o).class {
        let obj = vm.heap.obj(o);
        if a.length_writable
            && a.length as usize == obj.elements.len()
            && !obj.elements.iter().any(|v| v.is_empty())
            && obj.proto == Some(vm.realm.array_prototype)
            && vm.heap.obj(vm.realm.array_prototype).elements.is_empty()
        {
            vm.charge(len)?;
            let obj = vm.heap.obj_mut(o);
            let first = obj.elements.remove(0);
            if let Class::Array(d) = &mut obj.class {
                d.length -= 1;
            }
            return Ok(first);
        }
    }
    let first = get(vm, o, PropertyKey::Index(0), Value::object(o))?;
    vm.roots.push(first);
    for k in 1..len {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let (from, to) = (key_for(vm, k), key_for(vm, k - 1));
        if has_property(vm, o, from)? {
            let v = get(vm, o, from, Value::object(o))?;
            set_or_throw(vm, o, to, v)?;
        } else if !delete(vm, o, to)? {
            return Err(vm.type_error("Cannot delete property"));
        }
    }
    let last = key_for(vm, len - 1);
    if !delete(vm, o, last)? {
        return Err(vm.type_error("Cannot delete property"));
    }
    set_length(vm, o, len - 1)?;
    Ok(first)
}

fn slice(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let k = relative_index(to_integer_or_infinity(vm, arg(args, 0))?, len);
    let fin =
        if arg(args, 1).is_undefined() { len } else { relative_index(to_integer_or_infinity(vm, arg(args, 1))?, len) };
    let count = fin.saturating_sub(k);
    let a = array_species_create(vm, o, count)?;
    vm.roots.push(Value::object(a));
    vm.charge(count)?;
    let mut n = 0;
    for i in k..fin {
        let pk = key_for(vm, i);
        if has_property(vm, o, pk)? {
            let v = get(vm, o, pk, Value::object(o))?;
            let nk = key_for(vm, n);
            create_data_property_or_throw(vm, a, nk, v)?;
        }
        n += 1;
    }
    set_length(vm, a, n)?;
    Ok(Value::object(a))
}

fn sort(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let cmp = arg(args, 0);
    if !cmp.is_undefined() && !is_callable(vm, cmp) {
        return Err(vm.type_error("The comparison function must be either a function or undefined"));
    }
    let (o, len) = this_obj(vm, this)?;
    let mut items = collect_for_sort(vm, o, len, true)?;
    sort_values(vm, &mut items, cmp)?;
    let n = items.len() as u64;
    for (k, v) in items.into_iter().enumerate() {
        let pk = key_for(vm, k as u64);
        set_or_throw(vm, o, pk, v)?;
    }
    for k in n..len {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let pk = key_for(vm, k);
        if !delete(vm, o, pk)? {
            return Err(vm.type_error("Cannot delete property"));
        }
    }
    Ok(Value::object(o))
}

fn splice(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let start = relative_index(to_integer_or_infinity(vm, arg(args, 0))?, len);
    let (insert_count, delete_count) = match args.len() {
        0 => (0, 0),
        1 => (0, len - start),
        _ => {
            let dc = to_integer_or_infinity(vm, args[1])?;
            (args.len() - 2, (dc.max(0.0) as u64).min(len - start))
        }
    };
    let items: Vec<Value> = args.iter().skip(2).copied().collect();
    if len + insert_count as u64 - delete_count > 9007199254740991 {
        return Err(vm.type_error("Array length exceeds the maximum"));
    }
    let a = array_species_create(vm, o, delete_count)?;
    vm.roots.push(Value::object(a));
    // Charged per step (below), not by length: the work is around the spliced range.
    for k in 0..delete_count {
        vm.charge(1)?;
        let from = key_for(vm, start + k);
        if has_property(vm, o, from)? {
            let v = get(vm, o, from, Value::object(o))?;
            let to = key_for(vm, k);
            create_data_property_or_throw(vm, a, to, v)?;
        }
    }
    set_length(vm, a, delete_count)?;
    let ic = insert_count as u64;
    if ic < delete_count {
        for k in start..(len - delete_count) {
            vm.charge(1)?;
            let (from, to) = (key_for(vm, k + delete_count), key_for(vm, k + ic));
            if has_property(vm, o, from)? {
                let v = get(vm, o, from, Value::object(o))?;
                set_or_throw(vm, o, to, v)?;
            } else if !delete(vm, o, to)? {
                return Err(vm.type_error("Cannot delete property"));
            }
        }
        let mut k = len;
        while k > len - delete_count + ic {
            vm.charge(1)?;
            let pk = key_for(vm, k - 1);
            if !delete(vm, o, pk)? {
                return Err(vm.type_error("Cannot delete property"));
            }
            k -= 1;
        }
    } else if ic > delete_count {
        let mut k = len - delete_count;
        while k > start {
            vm.charge(1)?;
            let (from, to) = (key_for(vm, k + delete_count - 1), key_for(vm, k + ic - 1));
            if has_property(vm, o, from)? {
                let v = get(vm, o, from, Value::object(o))?;
                set_or_throw(vm, o, to, v)?;
            } else if !delete(vm, o, to)? {
                return Err(vm.type_error("Cannot delete property"));
            }
            k -= 1;
        }
    }
    for (i, v) in items.into_iter().enumerate() {
        let pk = key_for(vm, start + i as u64);
        set_or_throw(vm, o, pk, v)?;
    }
    set_length(vm, o, len - delete_count + ic)?;
    Ok(Value::object(a))
}

/// ### 23.1.3.32 Array.prototype.toLocaleString ( [ reserved1 [ , reserved2 ] ] ) as ECMA-402
/// §19.5.1 replaces it: each element's `toLocaleString` gets « locales, options ».
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (locales, options) = (arg(args, 0), arg(args, 1));
    let (o, len) = this_obj(vm, this)?;
    if vm.join_stack.contains(&o) {
        return Ok(vm.str(""));
    }
    vm.join_stack.push(o);
    let r = (|| {
        let mut parts = String::new();
        for k in 0..len {
            // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
            vm.charge(1)?;
            if k > 0 {
                parts.push(',');
            }
            let pk = key_for(vm, k);
            let v = get(vm, o, pk, Value::object(o))?;
            if !v.is_nullish() {
                let key = vm_key_tolocale(vm);
                // ECMA-402 4.c.i. Let S be ? ToString(? Invoke(nextElement, "toLocaleString", « locales, options »)).
                let s = crate::runtime::call::invoke(vm, v, key, &[locales, options])?;
                parts.push_str(&to_rust_string(vm, s)?);
            }
        }
        Ok(vm.str(&parts))
    })();
    vm.join_stack.pop();
    r
}

fn vm_key_tolocale(vm: &mut Vm) -> PropertyKey {
    vm.key("toLocaleString")
}

fn to_reversed(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let a = array_create(vm, len)?;
    vm.roots.push(Value::object(a));
    vm.charge(len)?;
    for k in 0..len {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let from = key_for(vm, len - k - 1);
        let v = get(vm, o, from, Value::object(o))?;
        let to = key_for(vm, k);
        create_data_property_or_throw(vm, a, to, v)?;
    }
    Ok(Value::object(a))
}

fn to_sorted(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let cmp = arg(args, 0);
    if !cmp.is_undefined() && !is_callable(vm, cmp) {
        return Err(vm.type_error("The comparison function must be either a function or undefined"));
    }
    let (o, len) = this_obj(vm, this)?;
    let a = array_create(vm, len)?;
    vm.roots.push(Value::object(a));
    let mut items = collect_for_sort(vm, o, len, false)?;
    sort_values(vm, &mut items, cmp)?;
    for (k, v) in items.into_iter().enumerate() {
        create_data_property_or_throw(vm, a, idx(k as u64), v)?;
    }
    Ok(Value::object(a))
}

fn to_spliced(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let start = relative_index(to_integer_or_infinity(vm, arg(args, 0))?, len);
    let skip = match args.len() {
        0 => 0,
        1 => len - start,
        _ => (to_integer_or_infinity(vm, args[1])?.max(0.0) as u64).min(len - start),
    };
    let items: Vec<Value> = args.iter().skip(2).copied().collect();
    let new_len = len + items.len() as u64 - skip;
    if new_len > 9007199254740991 {
        return Err(vm.type_error("Array length exceeds the maximum"));
    }
    let a = array_create(vm, new_len)?;
    vm.roots.push(Value::object(a));
    vm.charge(new_len)?;
    let mut i = 0u64;
    for k in 0..start {
        let pk = key_for(vm, k);
        let v = get(vm, o, pk, Value::object(o))?;
        create_data_property_or_throw(vm, a, idx(i), v)?;
        i += 1;
    }
    for v in items {
        create_data_property_or_throw(vm, a, idx(i), v)?;
        i += 1;
    }
    for k in (start + skip)..len {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let pk = key_for(vm, k);
        let v = get(vm, o, pk, Value::object(o))?;
        create_data_property_or_throw(vm, a, idx(i), v)?;
        i += 1;
    }
    Ok(Value::object(a))
}

/// ### 23.1.3.36 Array.prototype.toString ( )
fn to_string_method(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = to_object(vm, this)?;
    let f = get(vm, o, PropertyKey::Atom(atom::join), Value::object(o))?;
    if is_callable(vm, f) {
        return call(vm, f, Value::object(o), &[]);
    }
    // 3. Otherwise the intrinsic %Object.prototype.toString%, whatever the property now holds.
    crate::builtins::object::to_string(vm, Value::object(o), &[])
}

fn unshift(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let n = args.len() as u64;
    if n > 0 {
        if len + n > 9007199254740991 {
            return Err(vm.type_error("Array length exceeds the maximum"));
        }
        let mut k = len;
        while k > 0 {
            vm.charge(1)?;
            let (from, to) = (key_for(vm, k - 1), key_for(vm, k + n - 1));
            if has_property(vm, o, from)? {
                let v = get(vm, o, from, Value::object(o))?;
                set_or_throw(vm, o, to, v)?;
            } else if !delete(vm, o, to)? {
                return Err(vm.type_error("Cannot delete property"));
            }
            k -= 1;
        }
        for (j, &v) in args.iter().enumerate() {
            set_or_throw(vm, o, idx(j as u64), v)?;
        }
    }
    set_length(vm, o, len + n)?;
    Ok(Value::number((len + n) as f64))
}

fn with(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let rel = to_integer_or_infinity(vm, arg(args, 0))?;
    let actual = if rel >= 0.0 { rel } else { len as f64 + rel };
    if actual >= len as f64 || actual < 0.0 {
        return Err(vm.range_error("Invalid index"));
    }
    let a = array_create(vm, len)?;
    vm.roots.push(Value::object(a));
    vm.charge(len)?;
    for k in 0..len {
        // Every step costs fuel, holes included: a 2^32-long sparse array cannot run unmetered.
        vm.charge(1)?;
        let pk = key_for(vm, k);
        let v = if k as f64 == actual { arg(args, 1) } else { get(vm, o, pk, Value::object(o))? };
        create_data_property_or_throw(vm, a, idx(k), v)?;
    }
    Ok(Value::object(a))
}

// ---- %ArrayIteratorPrototype%.next (§23.1.5.2.1)

fn array_iterator_next(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let Some(it) = this.as_object() else {
        return Err(vm.type_error("next method called on incompatible receiver"));
    };
    let (target, index, kind, done) = match &vm.heap.obj(it).class {
        Class::Iterator(s) => match **s {
            IteratorState::Array { target, index, kind, done } => (target, index, kind, done),
            _ => return Err(vm.type_error("next method called on incompatible receiver")),
        },
        _ => return Err(vm.type_error("next method called on incompatible receiver")),
    };
    if done {
        return Ok(crate::interp::generator::iter_result(vm, Value::UNDEFINED, true));
    }
    let Some(t) = target.as_object() else {
        return Ok(crate::interp::generator::iter_result(vm, Value::UNDEFINED, true));
    };
    let len = match &vm.heap.obj(t).class {
        Class::TypedArray(_) => match crate::builtins::typed_array::length_if_in_bounds(vm, t) {
            Some(n) => n as u64,
            None => {
                return Err(vm.type_error(
                    "Cannot perform %ArrayIteratorPrototype%.next on a detached or out-of-bounds ArrayBuffer",
                ))
            }
        },
        _ => length_of_array_like(vm, t)?,
    };
    if index as u64 >= len {
        set_iter_state(vm, it, index, true);
        return Ok(crate::interp::generator::iter_result(vm, Value::UNDEFINED, true));
    }
    set_iter_state(vm, it, index + 1, false);
    let result = match kind {
        0 => Value::number(index as f64),
        1 => get(vm, t, PropertyKey::Index(index), target)?,
        _ => {
            let v = get(vm, t, PropertyKey::Index(index), target)?;
            vm.new_array(vec![Value::number(index as f64), v])
        }
    };
    Ok(crate::interp::generator::iter_result(vm, result, false))
}

fn set_iter_state(vm: &mut Vm, it: ObjectId, new_index: u32, new_done: bool) {
    if let Class::Iterator(s) = &mut vm.heap.obj_mut(it).class {
        if let IteratorState::Array { index, done, .. } = &mut **s {
            *index = new_index;
            *done = new_done;
        }
    }
}

/// Fast step for `for-of` over a built-in array values iterator on a plain array:
/// Some(Some(v)) next value, Some(None) done, None when the fast path does not apply.
pub fn array_iterator_fast_step(vm: &mut Vm, it: ObjectId) -> JsResult<Option<Option<Value>>> {
    let (target, index, kind, done) = match &vm.heap.obj(it).class {
        Class::Iterator(s) => match **s {
            IteratorState::Array { target, index, kind, done } => (target, index, kind, done),
            _ => return Ok(None),
        },
        _ => return Ok(None),
    };
    if kind != 1 {
        return Ok(None);
    }
    if done {
        return Ok(Some(None));
    }
    let Some(t) = target.as_object() else { return Ok(None) };
    let obj = vm.heap.obj(t);
    let Class::Array(a) = obj.class else { return Ok(None) };
    if index >= a.length {
        set_iter_state(vm, it, index, true);
        return Ok(Some(None));
    }
    match obj.elements.get(index as usize) {
        Some(&v) if !v.is_empty() => {
            set_iter_state(vm, it, index + 1, false);
            Ok(Some(Some(v)))
        }
        _ => Ok(None),
    }
}
