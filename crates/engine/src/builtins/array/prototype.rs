//! Array.prototype methods that read the array and return a value or a new array (§23.1.3):
//! generic over array-likes, with dense fast paths.
//! https://tc39.es/ecma262/#sec-properties-of-the-array-prototype-object

use super::abstract_ops::{array_create, array_species_create, callback, idx, key_for, set_length, this_obj};
use super::iterator::create_array_iterator;
use crate::atoms::{atom, PropertyKey};
use crate::builtins::arg;
use crate::builtins::array_sort::{collect_for_sort, sort_values};
use crate::error::JsResult;
use crate::runtime::call::{call, is_callable};
use crate::runtime::convert::{
    is_array, relative_index, to_boolean, to_integer_or_infinity, to_object, to_rust_string, to_string,
};
use crate::runtime::operators::{same_value_zero, strict_equals};
use crate::runtime::property::{create_data_property_or_throw, get, has_property, length_of_array_like};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(super) fn at(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let rel = to_integer_or_infinity(vm, arg(args, 0))?;
    let k = if rel >= 0.0 { rel } else { len as f64 + rel };
    if k < 0.0 || k >= len as f64 {
        return Ok(Value::UNDEFINED);
    }
    get(vm, o, idx(k as u64), Value::object(o))
}

/// IsConcatSpreadable (§23.1.3.2.1).
pub(super) fn is_concat_spreadable(vm: &mut Vm, v: Value) -> JsResult<bool> {
    let Some(o) = v.as_object() else { return Ok(false) };
    let key = PropertyKey::Symbol(vm.symbols.isConcatSpreadable);
    let s = get(vm, o, key, v)?;
    if !s.is_undefined() {
        return Ok(to_boolean(vm, s));
    }
    is_array(vm, v)
}

pub(super) fn concat(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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

pub(super) fn entries(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = to_object(vm, this)?;
    Ok(create_array_iterator(vm, Value::object(o), 2))
}

pub(super) fn keys(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = to_object(vm, this)?;
    Ok(create_array_iterator(vm, Value::object(o), 0))
}

pub(super) fn values(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = to_object(vm, this)?;
    Ok(create_array_iterator(vm, Value::object(o), 1))
}

/// The shared loop of every/some/forEach/find…: calls `f(value, k, O)` for each present
/// element (or each index when `visit_holes`), stopping when `step` returns Some.
pub(super) fn iterate<F>(
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

pub(super) fn every(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let r =
        iterate(vm, this, args, "every", false, false, |vm, _, _, r| Ok((!to_boolean(vm, r)).then_some(Value::FALSE)))?;
    Ok(r.unwrap_or(Value::TRUE))
}

pub(super) fn some(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let r = iterate(vm, this, args, "some", false, false, |vm, _, _, r| Ok(to_boolean(vm, r).then_some(Value::TRUE)))?;
    Ok(r.unwrap_or(Value::FALSE))
}

pub(super) fn for_each(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    iterate(vm, this, args, "forEach", false, false, |_, _, _, _| Ok(None))?;
    Ok(Value::UNDEFINED)
}

pub(super) fn find(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let r = iterate(vm, this, args, "find", false, true, |vm, v, _, r| Ok(to_boolean(vm, r).then_some(v)))?;
    Ok(r.unwrap_or(Value::UNDEFINED))
}

pub(super) fn find_index(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let r = iterate(vm, this, args, "findIndex", false, true, |vm, _, k, r| {
        Ok(to_boolean(vm, r).then_some(Value::number(k as f64)))
    })?;
    Ok(r.unwrap_or(Value::int(-1)))
}

pub(super) fn find_last(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let r = iterate(vm, this, args, "findLast", true, true, |vm, v, _, r| Ok(to_boolean(vm, r).then_some(v)))?;
    Ok(r.unwrap_or(Value::UNDEFINED))
}

pub(super) fn find_last_index(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let r = iterate(vm, this, args, "findLastIndex", true, true, |vm, _, k, r| {
        Ok(to_boolean(vm, r).then_some(Value::number(k as f64)))
    })?;
    Ok(r.unwrap_or(Value::int(-1)))
}

pub(super) fn filter(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
pub(super) fn flatten_into(
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

pub(super) fn flat(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let depth = if arg(args, 0).is_undefined() { 1.0 } else { to_integer_or_infinity(vm, arg(args, 0))?.max(0.0) };
    let a = array_species_create(vm, o, 0)?;
    vm.roots.push(Value::object(a));
    flatten_into(vm, a, o, len, 0, depth, None)?;
    Ok(Value::object(a))
}

pub(super) fn flat_map(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (o, len) = this_obj(vm, this)?;
    let f = callback(vm, arg(args, 0), "flatMap")?;
    let a = array_species_create(vm, o, 0)?;
    vm.roots.push(Value::object(a));
    flatten_into(vm, a, o, len, 0, 1.0, Some((f, arg(args, 1))))?;
    Ok(Value::object(a))
}

pub(super) fn includes(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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

pub(super) fn index_of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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

pub(super) fn last_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
pub(super) fn join(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
pub(super) fn join_with(vm: &mut Vm, o: ObjectId, len: u64, sep: &crate::string::JsStr) -> JsResult<Value> {
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

pub(super) fn map(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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

pub(super) fn reduce_impl(vm: &mut Vm, this: Value, args: &[Value], right: bool) -> JsResult<Value> {
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

pub(super) fn reduce(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    reduce_impl(vm, this, args, false)
}

pub(super) fn reduce_right(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    reduce_impl(vm, this, args, true)
}

pub(super) fn slice(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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

/// ### 23.1.3.32 Array.prototype.toLocaleString ( [ reserved1 [ , reserved2 ] ] ) as ECMA-402
/// §19.5.1 replaces it: each element's `toLocaleString` gets « locales, options ».
pub(super) fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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

pub(super) fn vm_key_tolocale(vm: &mut Vm) -> PropertyKey {
    vm.key("toLocaleString")
}

pub(super) fn to_reversed(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
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

pub(super) fn to_sorted(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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

pub(super) fn to_spliced(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
pub(super) fn to_string_method(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let o = to_object(vm, this)?;
    let f = get(vm, o, PropertyKey::Atom(atom::join), Value::object(o))?;
    if is_callable(vm, f) {
        return call(vm, f, Value::object(o), &[]);
    }
    // 3. Otherwise the intrinsic %Object.prototype.toString%, whatever the property now holds.
    crate::builtins::object::to_string(vm, Value::object(o), &[])
}

pub(super) fn with(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
