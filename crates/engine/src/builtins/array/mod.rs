//! Array objects (ECMA-262 §23.1): the Array exotic `length`, the constructor, every
//! prototype method (generic over array-likes, with dense fast paths), and array iterators.
//!
//! One file per job: `constructor.rs`, `prototype.rs` (methods that read), `mutation.rs`
//! (methods that change the array in place), `iterator.rs`, `length.rs` (the exotic `length`)
//! and `abstract_ops.rs` (what the methods share).

mod abstract_ops;
mod constructor;
mod iterator;
mod length;
mod mutation;
mod prototype;

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{install, make_constructor, NativeDef};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::value::Value;
use crate::vm::Vm;
pub(crate) use abstract_ops::key_for;
pub use abstract_ops::{array_create, has_default_iteration};
use constructor::{constructor, from, is_array_fn, of, species};
use iterator::array_iterator_next;
pub use iterator::{array_iterator_fast_step, create_array_iterator};
pub use length::array_set_length;
use mutation::{copy_within, fill, pop, push, reverse, shift, sort, splice, unshift};
use prototype::{
    at, concat, entries, every, filter, find, find_index, find_last, find_last_index, flat, flat_map, for_each,
    includes, index_of, join, keys, last_index_of, map, reduce, reduce_right, slice, some, to_locale_string,
    to_reversed, to_sorted, to_spliced, to_string_method, values, with,
};

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
