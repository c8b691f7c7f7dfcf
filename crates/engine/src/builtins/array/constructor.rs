//! The Array constructor and its functions (§23.1.1, §23.1.2).
//! https://tc39.es/ecma262/#sec-array-constructor

use super::abstract_ops::{array_create, idx, set_length};
use crate::atoms::PropertyKey;
use crate::builtins::arg;
use crate::error::JsResult;
use crate::heap::object::Class;
use crate::runtime::call::{call, construct, is_callable, is_constructor};
use crate::runtime::convert::{is_array, to_object};
use crate::runtime::iterator::{close_on_throw, get_iterator_from_method, iterator_step};
use crate::runtime::property::{self, create_data_property_or_throw, get, length_of_array_like};
use crate::value::Value;
use crate::vm::Vm;

/// ### 23.1.1.1 Array ( ...values )
pub(super) fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
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

pub(super) fn is_array_fn(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::bool(is_array(vm, arg(args, 0))?))
}

pub(super) fn species(_vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(this)
}

/// ### 23.1.2.3 Array.of ( ...items )
pub(super) fn of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
pub(super) fn from(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
        // The iterator and its `next` are rooted.
        let record = get_iterator_from_method(vm, items, iter_fn, "Symbol.iterator")?;
        let it = record.iterator;
        let mut k: u64 = 0;
        loop {
            let Some(v) = iterator_step(vm, &record)? else {
                set_length(vm, ao, k)?;
                return Ok(a);
            };
            let r = (|| {
                let v = if mapping { call(vm, mapfn, this_arg, &[v, Value::number(k as f64)])? } else { v };
                create_data_property_or_throw(vm, ao, idx(k), v)
            })();
            if let Err(e) = r {
                return close_on_throw(vm, it, e);
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
