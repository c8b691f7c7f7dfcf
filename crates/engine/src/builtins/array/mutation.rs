//! Array.prototype methods that change the array in place (§23.1.3): copyWithin, fill, pop,
//! push, reverse, shift, sort, splice, unshift.

use super::abstract_ops::{array_species_create, idx, key_for, set_length, this_obj};
use crate::atoms::PropertyKey;
use crate::builtins::arg;
use crate::builtins::array_sort::{collect_for_sort, sort_values};
use crate::error::JsResult;
use crate::heap::object::Class;
use crate::runtime::call::is_callable;
use crate::runtime::convert::{relative_index, to_integer_or_infinity};
use crate::runtime::property::{create_data_property_or_throw, delete, get, has_property, set_or_throw};
use crate::value::Value;
use crate::vm::Vm;

pub(super) fn copy_within(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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

pub(super) fn fill(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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

pub(super) fn pop(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
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
pub(super) fn push(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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

pub(super) fn reverse(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
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

pub(super) fn shift(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
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

pub(super) fn sort(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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

pub(super) fn splice(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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

pub(super) fn unshift(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
