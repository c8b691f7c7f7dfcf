//! The `arguments` object and rest parameters.

use crate::atoms::{atom, PropertyKey};
use crate::heap::object::{ArgumentsData, Class, Object};
use crate::heap::shape::PropFlags;
use crate::value::Value;
use crate::vm::Vm;

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
