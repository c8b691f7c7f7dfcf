//! TypedArray objects (ECMA-262 §23.2): %TypedArray%, the twelve concrete constructors
//! (Float16Array and the BigInt arrays included), the integer-indexed exotic behaviour
//! (§10.4.5) the object internal methods call into, and the Uint8Array base64/hex methods
//! (https://tc39.es/proposal-arraybuffer-base64/). https://tc39.es/ecma262/#sec-typedarray-objects
//!
//! Layout: this file holds the registration table, `init`, the exotic-object hooks, the
//! abstract operations (§23.2.4) and the constructors; `prototype.rs` the methods of
//! %TypedArray.prototype%; `element.rs` element types and byte conversions (shared with
//! DataView and Atomics); `base64.rs` the Uint8Array encoding methods.
//!
//! A TypedArray is `Class::TypedArray(TypedArrayData)`: element kind, the viewed buffer,
//! the byte offset, and the element length (None: tracks a resizable buffer). Elements
//! live only in the buffer; the object's `elements` vector stays empty.

pub(crate) mod base64;
pub mod element;
pub(crate) mod prototype;

use crate::atoms::{atom, PropertyKey};
use crate::builtins::array_buffer;
use crate::builtins::map::alias_property;
use crate::builtins::{arg, install, make_constructor, make_native, NativeDef, NativeId};
use crate::error::JsResult;
use crate::heap::object::{Class, DataBlock, Object, TypedArrayData, TypedKind};
use crate::heap::shape::PropFlags;
use crate::heap::Arena;
use crate::native;
use crate::runtime::call::{call, construct, is_callable, is_constructor, prototype_from_constructor};
use crate::runtime::convert::{number_to_string, string_to_number, to_integer_or_infinity, to_object};
use crate::runtime::describe::{describe, Shown};
use crate::runtime::iterator::{get_iterator_from_method, iterator_step_value};
use crate::runtime::property::{get, get_method, length_of_array_like, PropertyDescriptor};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;
use element::{
    element_size, is_bigint_kind, kind_index, kind_name, kind_prototype, numeric_to_value, numeric_to_value_no_alloc,
    to_numeric_for, Numeric, KINDS,
};

pub(crate) const NATIVES: &[NativeDef] = &[
    // 23.2.1 The %TypedArray% Intrinsic Object; 23.2.2 its properties
    native!("TypedArray", 0, typed_array_constructor),
    native!("TypedArray.from", 1, from),
    native!("TypedArray.of", 0, of),
    native!("get TypedArray[Symbol.species]", 0, species),
    // 23.2.3 Properties of the %TypedArray% Prototype Object
    native!("TypedArray.prototype.at", 1, prototype::at),
    native!("get TypedArray.prototype.buffer", 0, prototype::buffer),
    native!("get TypedArray.prototype.byteLength", 0, prototype::byte_length),
    native!("get TypedArray.prototype.byteOffset", 0, prototype::byte_offset),
    native!("TypedArray.prototype.copyWithin", 2, prototype::copy_within),
    native!("TypedArray.prototype.entries", 0, prototype::entries),
    native!("TypedArray.prototype.every", 1, prototype::every),
    native!("TypedArray.prototype.fill", 1, prototype::fill),
    native!("TypedArray.prototype.filter", 1, prototype::filter),
    native!("TypedArray.prototype.find", 1, prototype::find),
    native!("TypedArray.prototype.findIndex", 1, prototype::find_index),
    native!("TypedArray.prototype.findLast", 1, prototype::find_last),
    native!("TypedArray.prototype.findLastIndex", 1, prototype::find_last_index),
    native!("TypedArray.prototype.forEach", 1, prototype::for_each),
    native!("TypedArray.prototype.includes", 1, prototype::includes),
    native!("TypedArray.prototype.indexOf", 1, prototype::index_of),
    native!("TypedArray.prototype.join", 1, prototype::join),
    native!("TypedArray.prototype.keys", 0, prototype::keys),
    native!("TypedArray.prototype.lastIndexOf", 1, prototype::last_index_of),
    native!("get TypedArray.prototype.length", 0, prototype::length),
    native!("TypedArray.prototype.map", 1, prototype::map),
    native!("TypedArray.prototype.reduce", 1, prototype::reduce),
    native!("TypedArray.prototype.reduceRight", 1, prototype::reduce_right),
    native!("TypedArray.prototype.reverse", 0, prototype::reverse),
    native!("TypedArray.prototype.set", 1, prototype::set),
    native!("TypedArray.prototype.slice", 2, prototype::slice),
    native!("TypedArray.prototype.some", 1, prototype::some),
    native!("TypedArray.prototype.sort", 1, prototype::sort),
    native!("TypedArray.prototype.subarray", 2, prototype::subarray),
    native!("TypedArray.prototype.toLocaleString", 0, prototype::to_locale_string),
    native!("TypedArray.prototype.toReversed", 0, prototype::to_reversed),
    native!("TypedArray.prototype.toSorted", 1, prototype::to_sorted),
    // 23.2.3.37 %TypedArray%.prototype.values; [Symbol.iterator] is the same function object.
    native!("TypedArray.prototype.values", 0, prototype::values),
    native!("TypedArray.prototype.with", 2, prototype::with),
    native!("get TypedArray.prototype[Symbol.toStringTag]", 0, prototype::to_string_tag),
    // 23.2.6 The TypedArray Constructors
    native!("Int8Array", 3, int8_array),
    native!("Uint8Array", 3, uint8_array),
    native!("Uint8ClampedArray", 3, uint8_clamped_array),
    native!("Int16Array", 3, int16_array),
    native!("Uint16Array", 3, uint16_array),
    native!("Int32Array", 3, int32_array),
    native!("Uint32Array", 3, uint32_array),
    native!("Float16Array", 3, float16_array),
    native!("Float32Array", 3, float32_array),
    native!("Float64Array", 3, float64_array),
    native!("BigInt64Array", 3, bigint64_array),
    native!("BigUint64Array", 3, biguint64_array),
    // Uint8Array base64 and hex (proposal-arraybuffer-base64)
    native!("Uint8Array.fromBase64", 1, base64::from_base64),
    native!("Uint8Array.fromHex", 1, base64::from_hex),
    native!("Uint8Array.prototype.setFromBase64", 1, base64::set_from_base64),
    native!("Uint8Array.prototype.setFromHex", 1, base64::set_from_hex),
    native!("Uint8Array.prototype.toBase64", 0, base64::to_base64),
    native!("Uint8Array.prototype.toHex", 0, base64::to_hex),
];

/// Index of %ArrayBuffer% in the capture list of %TypedArray% (after the twelve
/// constructors); %SharedArrayBuffer% follows it.
pub(crate) const ARRAY_BUFFER_CAPTURE: usize = 12;

/// 2^53 - 1, the largest length ToIndex admits.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Builds %TypedArray% and the concrete constructors. Runs after `array::init` (for
/// `Array.prototype.toString`) and `array_buffer::init` (for the buffer constructors).
pub(crate) fn init(vm: &mut Vm) {
    // 23.2.1 The %TypedArray% Intrinsic Object: not a global; [[Prototype]] %Function.prototype%.
    let proto = vm.realm.typed_array_prototype;
    let id = NativeId::builtin("TypedArray");
    let ctor = make_native(vm, "TypedArray", id, 0, true, Vec::new());
    vm.realm.typed_array_constructor = ctor;
    // 23.2.2.3 %TypedArray%.prototype { [[Writable]]: false, [[Enumerable]]: false, [[Configurable]]: false }
    vm.define_builtin(ctor, PropertyKey::Atom(atom::prototype), Value::object(proto), PropFlags::NONE);
    // 23.2.3.6 %TypedArray%.prototype.constructor
    vm.define_builtin(proto, PropertyKey::Atom(atom::constructor), Value::object(ctor), PropFlags::HIDDEN);
    install(vm, proto, "TypedArray.prototype", NATIVES);
    install(vm, ctor, "TypedArray", NATIVES);
    // 23.2.3.38 %TypedArray%.prototype [ %Symbol.iterator% ]: the same function object as values.
    let values = vm.key("values");
    let iterator = PropertyKey::Symbol(vm.symbols.iterator);
    alias_property(vm, proto, values, iterator);
    // 23.2.3.34 %TypedArray%.prototype.toString: the same function object as Array.prototype.toString.
    let array_proto = vm.realm.array_prototype;
    let to_string = PropertyKey::Atom(atom::toString);
    if let Some((f, _)) = vm.heap.obj(array_proto).lookup_named(&vm.heap.shapes, to_string) {
        vm.define_builtin(proto, to_string, f, PropFlags::HIDDEN);
    }

    // 23.2.6 The TypedArray Constructors; 23.2.7 their properties; 23.2.8 their prototypes.
    let mut captures = Vec::with_capacity(KINDS.len() + 2);
    let bytes_per_element = vm.key("BYTES_PER_ELEMENT");
    for kind in KINDS {
        let name = kind_name(kind);
        let kind_proto = kind_prototype(vm, kind);
        // 23.2.8: [[Prototype]] of each prototype is %TypedArray.prototype%.
        vm.heap.obj_mut(kind_proto).proto = Some(proto);
        let c = make_constructor(vm, name, name, kind_proto);
        // 23.2.7: [[Prototype]] of each constructor is %TypedArray%.
        vm.heap.obj_mut(c).proto = Some(ctor);
        // 23.2.7.1 / 23.2.8.1 TypedArray.BYTES_PER_ELEMENT and TypedArray.prototype.BYTES_PER_ELEMENT
        let size = Value::int(element_size(kind) as i32);
        vm.define_builtin(c, bytes_per_element, size, PropFlags::NONE);
        vm.define_builtin(kind_proto, bytes_per_element, size, PropFlags::NONE);
        if kind == TypedKind::Uint8 {
            install(vm, c, "Uint8Array", NATIVES);
            install(vm, kind_proto, "Uint8Array.prototype", NATIVES);
        }
        captures.push(Value::object(c));
    }
    // %ArrayBuffer% and %SharedArrayBuffer%, read while their prototypes are pristine.
    for buffer_proto in [vm.realm.array_buffer_prototype, vm.realm.shared_array_buffer_prototype] {
        let c = vm.heap.obj(buffer_proto).lookup_named(&vm.heap.shapes, PropertyKey::Atom(atom::constructor));
        captures.push(c.map_or(Value::UNDEFINED, |(v, _)| v));
    }
    if let Class::Native(n) = &mut vm.heap.obj_mut(ctor).class {
        n.captures = captures;
    }
}

/// An intrinsic kept in the capture list of %TypedArray%: the constructor of `KINDS[i]`,
/// then %ArrayBuffer% and %SharedArrayBuffer%.
pub(crate) fn intrinsic_capture(vm: &Vm, i: usize) -> Value {
    match &vm.heap.obj(vm.realm.typed_array_constructor).class {
        Class::Native(n) => n.captures.get(i).copied().unwrap_or(Value::UNDEFINED),
        _ => Value::UNDEFINED,
    }
}

/// The intrinsic constructor of a kind (%Int8Array% …), as Table 71 names it.
pub(crate) fn intrinsic_constructor(vm: &Vm, kind: TypedKind) -> Value {
    intrinsic_capture(vm, kind_index(kind))
}

// ---- 10.4.5 TypedArray exotic objects: the hooks `runtime::property` calls

/// The internal slots of a TypedArray, copied out.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slots {
    pub kind: TypedKind,
    pub buffer: ObjectId,
    pub byte_offset: usize,
    /// [[ArrayLength]]; None is auto (length-tracking).
    pub length: Option<usize>,
}

/// The slots of `o` if it is a TypedArray.
pub(crate) fn slots(vm: &Vm, o: ObjectId) -> Option<Slots> {
    match &vm.heap.obj(o).class {
        Class::TypedArray(t) => {
            Some(Slots { kind: t.kind, buffer: t.buffer, byte_offset: t.byte_offset, length: t.length })
        }
        _ => None,
    }
}

/// A TypedArray With Buffer Witness Record (§10.4.5.9) for an in-bounds view, resolved to
/// the current element length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TaRecord {
    pub kind: TypedKind,
    pub buffer: ObjectId,
    pub byte_offset: usize,
    /// TypedArrayLength (§10.4.5.12).
    pub length: usize,
}

impl TaRecord {
    /// TypedArrayByteLength (§10.4.5.11).
    pub(crate) fn byte_length(&self) -> usize {
        self.length * element_size(self.kind)
    }
}

/// IsTypedArrayOutOfBounds (§10.4.5.13) and TypedArrayLength (§10.4.5.12) of a view with
/// these slots (`element_size` 1 and a byte length for a DataView, §25.3.1.3): the element
/// length, or None when the buffer is detached or the view is out of bounds.
pub(crate) fn view_length(
    vm: &Vm,
    buffer: ObjectId,
    byte_offset: usize,
    length: Option<usize>,
    size: usize,
) -> Option<usize> {
    // 1-2. If IsDetachedBuffer(buffer) is true, the view is out of bounds.
    let buffer_byte_length = array_buffer::byte_length(vm, buffer)?;
    view_length_in(buffer_byte_length, byte_offset, length, size)
}

/// [`view_length`] over a buffer of `buffer_byte_length` bytes (not detached).
fn view_length_in(buffer_byte_length: usize, byte_offset: usize, length: Option<usize>, size: usize) -> Option<usize> {
    // 3-5. byteOffsetStart; byteOffsetEnd is the buffer length when length-tracking, else
    //      byteOffsetStart + length × elementSize.
    // 6. If byteOffsetStart > bufferByteLength or byteOffsetEnd > bufferByteLength, true.
    if byte_offset > buffer_byte_length {
        return None;
    }
    match length {
        // TypedArrayLength 3-7: floor((byteLength - byteOffset) / elementSize).
        None => Some((buffer_byte_length - byte_offset) / size.max(1)),
        Some(len) => {
            let end = len.checked_mul(size)?.checked_add(byte_offset)?;
            (end <= buffer_byte_length).then_some(len)
        }
    }
}

// ---- Fast paths for the interpreter's element access (`obj[i]`, `obj[i] = v`)
//
// They read the arenas directly, without `&Vm`, so the interpreter's fast tier can use them
// while it holds its own borrows of the heap. Each covers the common case exactly and says
// None/false for the rest (BigInt kinds, shared or detached buffers, an index out of
// bounds), which the general path handles; neither case runs JS or is observable.

/// The bytes of a view's buffer when it is a local (unshared, not detached) ArrayBuffer, and
/// the view's element length over them.
fn local_view<'a>(objects: &'a Arena<Object>, t: &TypedArrayData) -> Option<(&'a [u8], usize)> {
    let Class::ArrayBuffer(b) = &objects.get(t.buffer.0)?.class else { return None };
    let DataBlock::Local(bytes) = &b.block else { return None };
    let length = view_length_in(bytes.len(), t.byte_offset, t.length, element_size(t.kind))?;
    Some((bytes, length))
}

/// TypedArrayGetElement (§10.4.5.15) of `o` at integer `index`, when `o` is a TypedArray of
/// a Number kind over a local buffer and `index` is in bounds.
#[inline]
pub(crate) fn fast_get_element(objects: &Arena<Object>, o: ObjectId, index: usize) -> Option<Value> {
    let Class::TypedArray(t) = &objects.get(o.0)?.class else { return None };
    if is_bigint_kind(t.kind) {
        return None;
    }
    let (bytes, length) = local_view(objects, t)?;
    if index >= length {
        return None;
    }
    let size = element_size(t.kind);
    let raw = element::read_raw(bytes, t.byte_offset + index * size, size, true);
    numeric_to_value_no_alloc(element::decode(t.kind, raw))
}

/// TypedArraySetElement (§10.4.5.16) of `o` at integer `index` for a value that is already a
/// Number (so ToNumber is the identity), when `o` is a TypedArray of a Number kind over a
/// local buffer and `index` is in bounds. Returns whether it stored.
#[inline]
pub(crate) fn fast_set_element(objects: &mut Arena<Object>, o: ObjectId, index: usize, n: f64) -> bool {
    let Some(Class::TypedArray(t)) = objects.get(o.0).map(|object| &object.class) else { return false };
    if is_bigint_kind(t.kind) {
        return false;
    }
    let Some((_, length)) = local_view(objects, t) else { return false };
    if index >= length {
        return false;
    }
    let (kind, buffer, size) = (t.kind, t.buffer, element_size(t.kind));
    let at = t.byte_offset + index * size;
    let Some(Class::ArrayBuffer(b)) = objects.get_mut(buffer.0).map(|object| &mut object.class) else { return false };
    let DataBlock::Local(bytes) = &mut b.block else { return false };
    element::write_raw(bytes, at, size, element::encode(kind, Numeric::Number(n)), true);
    true
}

/// MakeTypedArrayWithBufferWitnessRecord (§10.4.5.9) for an in-bounds TypedArray; None when
/// `o` is not a TypedArray, or is out of bounds or detached.
pub(crate) fn record(vm: &Vm, o: ObjectId) -> Option<TaRecord> {
    let s = slots(vm, o)?;
    let length = view_length(vm, s.buffer, s.byte_offset, s.length, element_size(s.kind))?;
    Some(TaRecord { kind: s.kind, buffer: s.buffer, byte_offset: s.byte_offset, length })
}

/// Load element `index` of an in-bounds view (GetValueFromBuffer, §25.1.3.15).
pub(crate) fn read_element(vm: &Vm, rec: &TaRecord, index: usize) -> Numeric {
    let size = element_size(rec.kind);
    let raw = array_buffer::bytes(vm, rec.buffer).map_or(0, |b| b.read_raw(rec.byte_offset + index * size, size, true));
    element::decode(rec.kind, raw)
}

/// Store element `index` of an in-bounds view (SetValueInBuffer, §25.1.3.18).
pub(crate) fn write_element(vm: &mut Vm, rec: &TaRecord, index: usize, n: Numeric) {
    let size = element_size(rec.kind);
    let raw = element::encode(rec.kind, n);
    array_buffer::write_raw(vm, rec.buffer, rec.byte_offset + index * size, size, raw, true);
}

/// [[GetOwnProperty]] for an integer index (§10.4.5.1 with TypedArrayGetElement §10.4.5.15).
///
/// NOTE: a BigInt element needs a heap allocation, which `&Vm` cannot make: for
/// BigInt64Array and BigUint64Array the descriptor's value is undefined. Callers that need
/// the value (`[[Get]]`, `Object.getOwnPropertyDescriptor`) use [`get_index_value`].
pub fn get_own_index(vm: &Vm, o: ObjectId, index: u32) -> Option<PropertyDescriptor> {
    // TypedArrayGetElement 1. If IsValidIntegerIndex(O, index) is false, return undefined.
    let rec = record(vm, o)?;
    if index as usize >= rec.length {
        return None;
    }
    let value = numeric_to_value_no_alloc(read_element(vm, &rec, index as usize)).unwrap_or(Value::UNDEFINED);
    // 10.4.5.1 1.b.iii. Return the PropertyDescriptor { [[Value]]: value, [[Writable]]: true,
    //                   [[Enumerable]]: true, [[Configurable]]: true }.
    Some(PropertyDescriptor::data(value, PropFlags::DEFAULT))
}

/// TypedArrayGetElement (§10.4.5.15): the element value, or None (undefined) when `index`
/// is not a valid integer index. Allocates for BigInt kinds.
pub fn get_index_value(vm: &mut Vm, o: ObjectId, index: u32) -> Option<Value> {
    let rec = record(vm, o)?;
    if index as usize >= rec.length {
        return None;
    }
    let n = read_element(vm, &rec, index as usize);
    Some(numeric_to_value(vm, rec.kind, n))
}

/// [[GetOwnProperty]] for an integer index with the element's value, BigInts included.
pub fn get_own_index_value(vm: &mut Vm, o: ObjectId, index: u32) -> Option<PropertyDescriptor> {
    get_index_value(vm, o, index).map(|v| PropertyDescriptor::data(v, PropFlags::DEFAULT))
}

/// Get(O, k) on a TypedArray for an integer k: the element, or undefined out of bounds.
pub(crate) fn get_element(vm: &mut Vm, o: ObjectId, k: usize) -> Value {
    match u32::try_from(k) {
        Ok(i) => get_index_value(vm, o, i).unwrap_or(Value::UNDEFINED),
        Err(_) => Value::UNDEFINED,
    }
}

/// ### 10.4.5.3 [[DefineOwnProperty]] ( P, Desc ) for an integer index
/// https://tc39.es/ecma262/#sec-typedarray-defineownproperty
pub fn define_own_index(vm: &mut Vm, o: ObjectId, index: u32, desc: PropertyDescriptor) -> JsResult<bool> {
    // 1.b.i. If IsValidIntegerIndex(O, numericIndex) is false, return false.
    if !is_valid_index(vm, o, index) {
        return Ok(false);
    }
    // ii. If Desc has a [[Configurable]] field and Desc.[[Configurable]] is false, return false.
    // iii. If Desc has an [[Enumerable]] field and Desc.[[Enumerable]] is false, return false.
    // iv. If IsAccessorDescriptor(Desc) is true, return false.
    // v. If Desc has a [[Writable]] field and Desc.[[Writable]] is false, return false.
    if desc.configurable == Some(false)
        || desc.enumerable == Some(false)
        || desc.is_accessor()
        || desc.writable == Some(false)
    {
        return Ok(false);
    }
    // vi. If Desc has a [[Value]] field, perform ? TypedArraySetElement(O, numericIndex, Desc.[[Value]]).
    if let Some(v) = desc.value {
        set_index(vm, o, index, v)?;
    }
    // vii. Return true.
    Ok(true)
}

/// ### 10.4.5.16 TypedArraySetElement ( O, index, value )
/// https://tc39.es/ecma262/#sec-typedarraysetelement
pub fn set_index(vm: &mut Vm, o: ObjectId, index: u32, value: Value) -> JsResult<()> {
    let Some(s) = slots(vm, o) else { return Ok(()) };
    // 1. If O.[[ContentType]] is bigint, let numValue be ? ToBigInt(value).
    // 2. Otherwise, let numValue be ? ToNumber(value).
    let n = to_numeric_for(vm, s.kind, value)?;
    // 3. If IsValidIntegerIndex(O, index) is true, then SetValueInBuffer(...).
    write_index(vm, o, index as usize, n);
    // 4. Return unused.
    Ok(())
}

/// TypedArraySetElement for a canonical numeric key (see [`canonical_numeric_key`]): the
/// value is converted even when the key is never a valid index ("-0", "1.5"), as the spec's
/// [[Set]] does, and then dropped.
pub fn set_numeric_key(vm: &mut Vm, o: ObjectId, index: Option<u32>, value: Value) -> JsResult<()> {
    match index {
        Some(i) => set_index(vm, o, i, value),
        None => {
            let Some(s) = slots(vm, o) else { return Ok(()) };
            to_numeric_for(vm, s.kind, value)?;
            Ok(())
        }
    }
}

/// Store an already-converted value at `index` if it is a valid integer index.
pub(crate) fn write_index(vm: &mut Vm, o: ObjectId, index: usize, n: Numeric) {
    if let Some(rec) = record(vm, o) {
        if index < rec.length {
            write_element(vm, &rec, index, n);
        }
    }
}

/// ### 10.4.5.14 IsValidIntegerIndex ( O, index )
/// https://tc39.es/ecma262/#sec-isvalidintegerindex
pub fn is_valid_index(vm: &Vm, o: ObjectId, index: u32) -> bool {
    // 1. If IsDetachedBuffer(O.[[ViewedArrayBuffer]]) is true, return false.
    // 2-3. index is an integral Number, not -0 (an Index key always is).
    // 4-6. If IsTypedArrayOutOfBounds(taRecord) is true, return false.
    // 7-8. If index < 0 or index ≥ TypedArrayLength(taRecord), return false.
    record(vm, o).is_some_and(|rec| (index as usize) < rec.length)
}

/// TypedArrayLength, or 0 when out of bounds or detached (for [[OwnPropertyKeys]]).
pub fn length_of(vm: &Vm, o: ObjectId) -> usize {
    record(vm, o).map_or(0, |r| r.length)
}

/// TypedArrayLength when the array is in bounds; None when it is out of bounds or its buffer
/// is detached. %ArrayIteratorPrototype%.next (§23.1.5.2.1) throws a TypeError on None.
pub fn length_if_in_bounds(vm: &Vm, o: ObjectId) -> Option<usize> {
    record(vm, o).map(|r| r.length)
}

/// IsTypedArrayFixedLength is false (§10.4.5.2 [[PreventExtensions]] refuses): the array
/// tracks the length of a resizable buffer, or views one that can shrink.
pub fn is_length_tracking(vm: &Vm, o: ObjectId) -> bool {
    let Some(s) = slots(vm, o) else { return false };
    // IsTypedArrayFixedLength 1. If O.[[ArrayLength]] is auto, return false.
    // 2-4. If the buffer is not fixed-length and not shared, return false.
    s.length.is_none() || (!array_buffer::is_fixed_length(vm, s.buffer) && !array_buffer::is_shared(vm, s.buffer))
}

/// CanonicalNumericIndexString (§7.1.21) for a property key that is not an array index.
///
/// TypedArrays treat every canonical numeric string as an element key (§10.4.5): "-0",
/// "1.5", "-1", "NaN", "Infinity", "1e+21" are never valid integer indices, so [[Get]]
/// answers undefined, [[Set]] ignores the write (after no conversion), [[HasProperty]] and
/// [[GetOwnProperty]] find nothing and [[DefineOwnProperty]] fails — without consulting the
/// prototype chain. Returns None for an ordinary key; Some(Some(i)) for the one integer
/// index an `Atom` can hold ("4294967295", valid in a 4 GiB Uint8Array); Some(None) for a
/// numeric key that is never a valid index.
pub fn canonical_numeric_key(vm: &Vm, key: PropertyKey) -> Option<Option<u32>> {
    let s = match key {
        PropertyKey::Index(i) => return Some(Some(i)),
        PropertyKey::Symbol(_) => return None,
        PropertyKey::Atom(a) => vm.heap.atoms.get(a),
    };
    // Quick reject: numeric strings start with a digit, '-', 'I' or 'N'.
    let first = if s.is_empty() { return None } else { s.unit(0) };
    if !(first == b'-' as u16
        || first == b'I' as u16
        || first == b'N' as u16
        || (b'0' as u16..=b'9' as u16).contains(&first))
    {
        return None;
    }
    // 1. If argument is "-0", return -0𝔽.
    if s.len() == 2 && s.unit(0) == b'-' as u16 && s.unit(1) == b'0' as u16 {
        return Some(None);
    }
    // 2. Let n be ! ToNumber(argument).
    let n = string_to_number(s);
    // 3. If ! ToString(n) is argument, return n. 4. Return undefined.
    if number_to_string(n) != s.to_rust_string() {
        return None;
    }
    if n.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&n) {
        return Some(Some(n as u32));
    }
    Some(None)
}

// ---- 23.2.4 Abstract Operations for TypedArray Objects

/// ### 23.2.4.4 ValidateTypedArray ( O, order )
/// https://tc39.es/ecma262/#sec-validatetypedarray
///
/// `method` names the caller in messages ("%TypedArray%.prototype.fill").
pub(crate) fn validate_typed_array(vm: &mut Vm, o: Value, method: &str) -> JsResult<(ObjectId, TaRecord)> {
    // 1. Perform ? RequireInternalSlot(O, [[TypedArrayName]]).
    let Some(obj) = o.as_object().filter(|&obj| slots(vm, obj).is_some()) else {
        let shown = describe(vm, o, Shown::Plain);
        return Err(vm.type_error(format!("Method {method} called on incompatible receiver {shown}")));
    };
    // 2-3. Let taRecord be MakeTypedArrayWithBufferWitnessRecord(O, order).
    // 4. If IsTypedArrayOutOfBounds(taRecord) is true, throw a TypeError exception.
    match record(vm, obj) {
        Some(rec) => Ok((obj, rec)),
        None => Err(out_of_bounds(vm, method)),
    }
}

/// The TypeError for a detached or out-of-bounds view.
pub(crate) fn out_of_bounds(vm: &mut Vm, method: &str) -> crate::error::Throw {
    vm.type_error(format!("Cannot perform {method} on a detached or out-of-bounds ArrayBuffer"))
}

/// TypedArrayCreate's object (§23.2.4.2 step 1 / §10.4.5.17 TypedArrayCreate) with its slots.
fn make_typed_array(
    vm: &mut Vm,
    proto: ObjectId,
    kind: TypedKind,
    buffer: ObjectId,
    byte_offset: usize,
    length: Option<usize>,
) -> ObjectId {
    let data = TypedArrayData { kind, buffer, byte_offset, length };
    vm.heap.alloc_object(Object::new(Some(proto), Class::TypedArray(Box::new(data))))
}

/// ### 23.2.5.1.6 AllocateTypedArray ( constructorName, newTarget, defaultProto, length )
/// https://tc39.es/ecma262/#sec-allocatetypedarray
///
/// With the prototype already resolved (GetPrototypeFromConstructor is the caller's first
/// step) and AllocateTypedArrayBuffer (§23.2.5.1.7) folded in.
pub(crate) fn allocate_typed_array(vm: &mut Vm, kind: TypedKind, proto: ObjectId, length: u64) -> JsResult<ObjectId> {
    // AllocateTypedArrayBuffer 3-4. Let byteLength be elementSize × length.
    //   (Past 2^53 - 1 bytes no buffer could exist; below it, past MAX_BYTE_LENGTH,
    //   AllocateArrayBuffer fails as V8's does.)
    let Some(byte_length) = length.checked_mul(element_size(kind) as u64).filter(|&b| b <= MAX_SAFE_INTEGER) else {
        return Err(vm.range_error(format!("Invalid typed array length: {length}")));
    };
    // 5. Let data be ? AllocateArrayBuffer(%ArrayBuffer%, byteLength).
    let buffer_proto = vm.realm.array_buffer_prototype;
    let buffer = array_buffer::allocate_array_buffer(vm, buffer_proto, byte_length, None, false)?;
    // 6-9. Set O.[[ViewedArrayBuffer]], [[ByteLength]], [[ByteOffset]] (0), [[ArrayLength]].
    Ok(make_typed_array(vm, proto, kind, buffer, 0, Some(length as usize)))
}

/// ### 23.2.4.1 TypedArraySpeciesCreate ( exemplar, argumentList )
/// https://tc39.es/ecma262/#sec-typedarray-species-create
pub(crate) fn typed_array_species_create(
    vm: &mut Vm,
    exemplar: ObjectId,
    args: &[Value],
) -> JsResult<(ObjectId, TaRecord)> {
    let kind = slots(vm, exemplar).map_or(TypedKind::Uint8, |s| s.kind);
    // 1. Let defaultConstructor be the intrinsic for exemplar.[[TypedArrayName]].
    let default = intrinsic_constructor(vm, kind);
    // 2. Let constructor be ? SpeciesConstructor(exemplar, defaultConstructor).
    let constructor = crate::runtime::object::species_constructor(vm, exemplar, default)?;
    // 3. Let result be ? TypedArrayCreateFromConstructor(constructor, argumentList).
    let (result, rec) = typed_array_create_from_constructor(vm, constructor, args)?;
    // 4. If result.[[ContentType]] is not exemplar.[[ContentType]], throw a TypeError exception.
    if is_bigint_kind(rec.kind) != is_bigint_kind(kind) {
        return Err(vm.type_error("Content type of the species constructor's result does not match"));
    }
    // 5. Return result.
    Ok((result, rec))
}

/// ### 23.2.4.2 TypedArrayCreateFromConstructor ( constructor, argumentList )
/// https://tc39.es/ecma262/#sec-typedarraycreatefromconstructor
pub(crate) fn typed_array_create_from_constructor(
    vm: &mut Vm,
    constructor: Value,
    args: &[Value],
) -> JsResult<(ObjectId, TaRecord)> {
    // Fast path: an intrinsic constructor asked for a length. Its `prototype` property is
    // not writable, so direct allocation is what Construct would do.
    if let ([len], Some(kind)) = (args, KINDS.iter().copied().find(|&k| intrinsic_constructor(vm, k) == constructor)) {
        if len.as_number().is_some() {
            let length = typed_array_length_arg(vm, *len)?;
            let proto = kind_prototype(vm, kind);
            let o = allocate_typed_array(vm, kind, proto, length)?;
            let rec = TaRecord {
                kind,
                buffer: slots(vm, o).map_or(o, |s| s.buffer),
                byte_offset: 0,
                length: length as usize,
            };
            return Ok((o, rec));
        }
    }
    // 1. Let newTypedArray be ? Construct(constructor, argumentList).
    let new = construct(vm, constructor, args, None)?;
    // 2. Let taRecord be ? ValidateTypedArray(newTypedArray, seq-cst).
    let (o, rec) = validate_typed_array(vm, new, "Construct")?;
    // 3. If the number of elements in argumentList is 1 and argumentList[0] is a Number, then
    if let [len] = args {
        if let Some(n) = len.as_number() {
            // a. If IsTypedArrayOutOfBounds(taRecord) is true, throw a TypeError exception.
            // b. Let length be TypedArrayLength(taRecord).
            // c. If length < ℝ(argumentList[0]), throw a TypeError exception.
            if (rec.length as f64) < n {
                return Err(vm.type_error("The species constructor returned a TypedArray that is too short"));
            }
        }
    }
    // 4. Return newTypedArray.
    Ok((o, rec))
}

/// ### 23.2.4.3 TypedArrayCreateSameType ( exemplar, argumentList ) with a length argument
/// https://tc39.es/ecma262/#sec-typedarray-create-same-type
pub(crate) fn typed_array_create_same_type(
    vm: &mut Vm,
    exemplar_kind: TypedKind,
    length: usize,
) -> JsResult<(ObjectId, TaRecord)> {
    // 1-2. Let constructor be the intrinsic for exemplar.[[TypedArrayName]].
    // 3. Return ? TypedArrayCreateFromConstructor(constructor, argumentList) — the intrinsic
    //    with a length allocates directly.
    let proto = kind_prototype(vm, exemplar_kind);
    let o = allocate_typed_array(vm, exemplar_kind, proto, length as u64)?;
    let buffer = slots(vm, o).map_or(o, |s| s.buffer);
    Ok((o, TaRecord { kind: exemplar_kind, buffer, byte_offset: 0, length }))
}

/// ToIndex (§7.1.22) with V8's message for the RangeError: "<what> <value> ...".
pub(crate) fn to_index_with(vm: &mut Vm, v: Value, message: impl Fn(&str) -> String) -> JsResult<u64> {
    // 1. Let integer be ? ToIntegerOrInfinity(value).
    let integer = to_integer_or_infinity(vm, v)?;
    // 2. If integer is not in the inclusive interval from 0 to 2^53 - 1, throw a RangeError.
    if !(0.0..=9007199254740991.0).contains(&integer) {
        let shown = describe(vm, v, Shown::Plain);
        return Err(vm.range_error(message(&shown)));
    }
    // 3. Return integer.
    Ok(integer as u64)
}

/// ToIndex on a length argument.
fn typed_array_length_arg(vm: &mut Vm, v: Value) -> JsResult<u64> {
    to_index_with(vm, v, |shown| format!("Invalid typed array length: {shown}"))
}

// ---- 23.2.5 The TypedArray Constructors

macro_rules! concrete_constructors {
    ($($f:ident => $kind:ident,)*) => {$(
        /// ### 23.2.5.1 TypedArray ( ...args ), for one element type.
        fn $f(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
            construct_typed_array(vm, TypedKind::$kind, args)
        }
    )*};
}

concrete_constructors! {
    int8_array => Int8,
    uint8_array => Uint8,
    uint8_clamped_array => Uint8Clamped,
    int16_array => Int16,
    uint16_array => Uint16,
    int32_array => Int32,
    uint32_array => Uint32,
    float16_array => Float16,
    float32_array => Float32,
    float64_array => Float64,
    bigint64_array => BigInt64,
    biguint64_array => BigUint64,
}

/// ### 23.2.5.1 TypedArray ( ...args )
/// https://tc39.es/ecma262/#sec-typedarray
fn construct_typed_array(vm: &mut Vm, kind: TypedKind, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if new_target.is_undefined() {
        return Err(vm.type_error(format!("Constructor {} requires 'new'", kind_name(kind))));
    }
    // 2-3. Let constructorName and proto be those of this constructor.
    let default_proto = kind_prototype(vm, kind);
    // 4. Let numberOfArgs be the number of elements in args.
    // 5. If numberOfArgs = 0, return ? AllocateTypedArray(constructorName, NewTarget, proto, 0).
    let Some(&first_argument) = args.first() else {
        let proto = prototype_from_constructor(vm, new_target, default_proto)?;
        return Ok(Value::object(allocate_typed_array(vm, kind, proto, 0)?));
    };
    // 6. Else,
    //    a. Let firstArgument be args[0].
    //    b. If firstArgument is an Object, then
    if let Some(first) = first_argument.as_object() {
        // i. Let O be ? AllocateTypedArray(constructorName, NewTarget, proto).
        let proto = prototype_from_constructor(vm, new_target, default_proto)?;
        vm.roots.push(Value::object(proto));
        let o = match &vm.heap.obj(first).class {
            // ii. If firstArgument has a [[TypedArrayName]] internal slot, then
            //     1. Perform ? InitializeTypedArrayFromTypedArray(O, firstArgument).
            Class::TypedArray(_) => initialize_typed_array_from_typed_array(vm, kind, proto, first)?,
            // iii. Else if firstArgument has an [[ArrayBufferData]] internal slot, then
            //      1-2. Let byteOffset be args[1] and length args[2] (or undefined).
            //      3. Perform ? InitializeTypedArrayFromArrayBuffer(O, firstArgument, byteOffset, length).
            Class::ArrayBuffer(_) => {
                initialize_typed_array_from_array_buffer(vm, kind, proto, first, arg(args, 1), arg(args, 2))?
            }
            // iv. Else,
            _ => {
                // 1. Assert: firstArgument is an Object without either slot.
                // 2. Let usingIterator be ? GetMethod(firstArgument, %Symbol.iterator%).
                let key = PropertyKey::Symbol(vm.symbols.iterator);
                match get_method(vm, first_argument, key)? {
                    // 3. If usingIterator is not undefined, then
                    Some(using_iterator) => {
                        // a. Let values be ? IteratorToList(? GetIteratorFromMethod(firstArgument, usingIterator)).
                        let values = iterator_to_list(vm, first_argument, using_iterator)?;
                        // b. Perform ? InitializeTypedArrayFromList(O, values).
                        initialize_typed_array_from_list(vm, kind, proto, &values)?
                    }
                    // 4. Else,
                    //    a. NOTE: firstArgument is not an Iterable so assume it is already an array-like object.
                    //    b. Perform ? InitializeTypedArrayFromArrayLike(O, firstArgument).
                    None => initialize_typed_array_from_array_like(vm, kind, proto, first)?,
                }
            }
        };
        // v. Return O.
        return Ok(Value::object(o));
    }
    // c. Else,
    //    i. Assert: firstArgument is not an Object.
    //    ii. Let elementLength be ? ToIndex(firstArgument).
    let element_length = typed_array_length_arg(vm, first_argument)?;
    //    iii. Return ? AllocateTypedArray(constructorName, NewTarget, proto, elementLength).
    let proto = prototype_from_constructor(vm, new_target, default_proto)?;
    Ok(Value::object(allocate_typed_array(vm, kind, proto, element_length)?))
}

/// ### 23.2.5.1.2 InitializeTypedArrayFromTypedArray ( O, srcArray )
/// https://tc39.es/ecma262/#sec-initializetypedarrayfromtypedarray
fn initialize_typed_array_from_typed_array(
    vm: &mut Vm,
    kind: TypedKind,
    proto: ObjectId,
    src_array: ObjectId,
) -> JsResult<ObjectId> {
    // 1-6. srcData, elementType, elementSize, srcType, srcElementSize, srcByteOffset.
    // 7. Let srcRecord be MakeTypedArrayWithBufferWitnessRecord(srcArray, seq-cst).
    // 8. If IsTypedArrayOutOfBounds(srcRecord) is true, throw a TypeError exception.
    let Some(src) = record(vm, src_array) else {
        return Err(out_of_bounds(vm, "Construct"));
    };
    // 9. Let elementLength be TypedArrayLength(srcRecord).
    let element_length = src.length;
    // 10. Let byteLength be elementSize × elementLength.
    let byte_length = element_length * element_size(kind);
    let buffer = if src.kind == kind {
        // 11. If elementType is srcType, then
        //     a. Let data be ? CloneArrayBuffer(srcData, srcByteOffset, byteLength).
        array_buffer::clone_array_buffer(vm, src.buffer, src.byte_offset, byte_length)?
    } else {
        // 12. Else,
        //     b. If srcArray.[[ContentType]] is not O.[[ContentType]], throw a TypeError exception.
        //     (Checked before allocating: the order cannot be observed.)
        if is_bigint_kind(src.kind) != is_bigint_kind(kind) {
            return Err(vm.type_error("Cannot mix BigInt and other types, use explicit conversions"));
        }
        //     a. Let data be ? AllocateArrayBuffer(%ArrayBuffer%, byteLength).
        let buffer_proto = vm.realm.array_buffer_prototype;
        let data = array_buffer::allocate_array_buffer(vm, buffer_proto, byte_length as u64, None, false)?;
        //     c-f. Copy each element, converting: GetValueFromBuffer then SetValueInBuffer.
        vm.charge(element_length as u64 / 16)?;
        let target = TaRecord { kind, buffer: data, byte_offset: 0, length: element_length };
        for k in 0..element_length {
            let n = read_element(vm, &src, k);
            write_element(vm, &target, k, n);
        }
        data
    };
    // 13-17. Set O's slots.
    Ok(make_typed_array(vm, proto, kind, buffer, 0, Some(element_length)))
}

/// ### 23.2.5.1.3 InitializeTypedArrayFromArrayBuffer ( O, buffer, byteOffset, length )
/// https://tc39.es/ecma262/#sec-initializetypedarrayfromarraybuffer
pub(crate) fn initialize_typed_array_from_array_buffer(
    vm: &mut Vm,
    kind: TypedKind,
    proto: ObjectId,
    buffer: ObjectId,
    byte_offset: Value,
    length: Value,
) -> JsResult<ObjectId> {
    let name = kind_name(kind);
    // 1. Let elementSize be TypedArrayElementSize(O).
    let size = element_size(kind);
    // 2. Let offset be ? ToIndex(byteOffset).
    let offset =
        to_index_with(vm, byte_offset, |shown| format!("Start offset {shown} is outside the bounds of the buffer"))?;
    // 3. If offset modulo elementSize ≠ 0, throw a RangeError exception.
    if !offset.is_multiple_of(size as u64) {
        return Err(vm.range_error(format!("start offset of {name} should be a multiple of {size}")));
    }
    // 4. Let bufferIsFixedLength be IsFixedLengthArrayBuffer(buffer).
    let buffer_is_fixed_length = array_buffer::is_fixed_length(vm, buffer);
    // 5. If length is not undefined, then a. Let newLength be ? ToIndex(length).
    let new_length = if length.is_undefined() { None } else { Some(typed_array_length_arg(vm, length)?) };
    // 6. If IsDetachedBuffer(buffer) is true, throw a TypeError exception.
    // 7. Let bufferByteLength be ArrayBufferByteLength(buffer, seq-cst).
    let Some(buffer_byte_length) = array_buffer::byte_length(vm, buffer) else {
        return Err(vm.type_error("Cannot perform Construct on a detached ArrayBuffer"));
    };
    let buffer_byte_length = buffer_byte_length as u64;
    // 8. If length is undefined and bufferIsFixedLength is false, then
    let (array_length, offset) = if new_length.is_none() && !buffer_is_fixed_length {
        // a. If offset > bufferByteLength, throw a RangeError exception.
        if offset > buffer_byte_length {
            return Err(vm.range_error(format!("Start offset {offset} is outside the bounds of the buffer")));
        }
        // b. Set O.[[ByteLength]] to auto. c. Set O.[[ArrayLength]] to auto.
        (None, offset)
    } else {
        // 9. Else,
        let new_byte_length = match new_length {
            // a. If length is undefined, then
            None => {
                // i. If bufferByteLength modulo elementSize ≠ 0, throw a RangeError exception.
                if !buffer_byte_length.is_multiple_of(size as u64) {
                    return Err(vm.range_error(format!("byte length of {name} should be a multiple of {size}")));
                }
                // ii. Let newByteLength be bufferByteLength - offset.
                // iii. If newByteLength < 0, throw a RangeError exception.
                if offset > buffer_byte_length {
                    return Err(vm.range_error(format!("Start offset {offset} is outside the bounds of the buffer")));
                }
                buffer_byte_length - offset
            }
            // b. Else,
            Some(new_length) => {
                // i. Let newByteLength be newLength × elementSize.
                // ii. If offset + newByteLength > bufferByteLength, throw a RangeError exception.
                let fits = new_length
                    .checked_mul(size as u64)
                    .and_then(|b| b.checked_add(offset))
                    .is_some_and(|end| end <= buffer_byte_length);
                if !fits {
                    return Err(vm.range_error(format!("Invalid typed array length: {new_length}")));
                }
                new_length * size as u64
            }
        };
        // c. Set O.[[ByteLength]] to newByteLength. d. Set O.[[ArrayLength]] to newByteLength / elementSize.
        (Some((new_byte_length / size as u64) as usize), offset)
    };
    // 10. Set O.[[ViewedArrayBuffer]] to buffer. 11. Set O.[[ByteOffset]] to offset.
    Ok(make_typed_array(vm, proto, kind, buffer, offset as usize, array_length))
}

/// ### 23.2.5.1.4 InitializeTypedArrayFromList ( O, values )
/// https://tc39.es/ecma262/#sec-initializetypedarrayfromlist
fn initialize_typed_array_from_list(
    vm: &mut Vm,
    kind: TypedKind,
    proto: ObjectId,
    values: &[Value],
) -> JsResult<ObjectId> {
    // 1. Let len be the number of elements in values.
    let len = values.len();
    // 2. Perform ? AllocateTypedArrayBuffer(O, len).
    let o = allocate_typed_array(vm, kind, proto, len as u64)?;
    vm.roots.push(Value::object(o));
    // 3-4. Repeat, while k < len: Perform ? Set(O, Pk, kValue, true).
    for (k, &v) in values.iter().enumerate() {
        let n = to_numeric_for(vm, kind, v)?;
        write_index(vm, o, k, n);
    }
    // 5. Assert: values is now an empty List. 6. Return unused.
    Ok(o)
}

/// ### 23.2.5.1.5 InitializeTypedArrayFromArrayLike ( O, arrayLike )
/// https://tc39.es/ecma262/#sec-initializetypedarrayfromarraylike
fn initialize_typed_array_from_array_like(
    vm: &mut Vm,
    kind: TypedKind,
    proto: ObjectId,
    array_like: ObjectId,
) -> JsResult<ObjectId> {
    // 1. Let len be ? LengthOfArrayLike(arrayLike).
    let len = length_of_array_like(vm, array_like)?;
    // 2. Perform ? AllocateTypedArrayBuffer(O, len).
    let o = allocate_typed_array(vm, kind, proto, len)?;
    vm.roots.push(Value::object(o));
    // 3-4. Repeat, while k < len,
    for k in 0..len as usize {
        // a. Let Pk be ! ToString(𝔽(k)).
        // b. Let kValue be ? Get(arrayLike, Pk).
        let k_value = get(vm, array_like, PropertyKey::Index(k as u32), Value::object(array_like))?;
        // c. Perform ? Set(O, Pk, kValue, true).
        set_index(vm, o, k as u32, k_value)?;
    }
    // 5. Return unused.
    Ok(o)
}

/// IteratorToList ( GetIteratorFromMethod(obj, method) ) (§7.4.13): every value is pushed on
/// `vm.roots`, which keeps them alive until the calling native returns.
pub(crate) fn iterator_to_list(vm: &mut Vm, obj: Value, method: Value) -> JsResult<Vec<Value>> {
    // Fast path: a dense array iterated by the intrinsic array iterator yields its
    // elements; no user code can run while it does.
    if let Some(values) = dense_array_values(vm, obj, method) {
        return Ok(values);
    }
    let mut record = get_iterator_from_method(vm, obj, method, "Symbol.iterator")?;
    let mut values = Vec::new();
    // 1-2. Repeat: Let next be ? IteratorStepValue(iteratorRecord); if done, return values.
    while let Some(v) = iterator_step_value(vm, &mut record)? {
        vm.roots.push(v);
        values.push(v);
        vm.check_heap()?;
    }
    Ok(values)
}

/// The elements of a hole-free Array whose iteration is the untouched intrinsic one.
fn dense_array_values(vm: &Vm, obj: Value, method: Value) -> Option<Vec<Value>> {
    let o = obj.as_object()?;
    if method != Value::object(vm.realm.array_prototype_values) {
        return None;
    }
    let arr = vm.heap.obj(o);
    let Class::Array(a) = &arr.class else {
        return None;
    };
    if arr.elements.len() != a.length as usize || arr.elements.iter().any(|v| v.is_empty()) {
        return None;
    }
    // %ArrayIteratorPrototype%.next must be the intrinsic.
    let iter_proto = vm.heap.obj(vm.realm.array_iterator_prototype);
    let (next, flags) = iter_proto.lookup_named(&vm.heap.shapes, PropertyKey::Atom(atom::next))?;
    if flags.is_accessor() {
        return None;
    }
    match &vm.heap.obj(next.as_object()?).class {
        Class::Native(n) if n.id.name() == "%ArrayIteratorPrototype%.next" => Some(arr.elements.clone()),
        _ => None,
    }
}

// ---- 23.2.1 / 23.2.2 %TypedArray% and its properties

/// ### 23.2.1.1 %TypedArray% ( )
/// https://tc39.es/ecma262/#sec-%typedarray%
fn typed_array_constructor(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Throw a TypeError exception.
    Err(vm.type_error("Abstract class TypedArray not directly constructable"))
}

/// ### 23.2.2.1 %TypedArray%.from ( source [ , mapper [ , thisArg ] ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.from
fn from(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (source, mapper, this_arg) = (arg(args, 0), arg(args, 1), arg(args, 2));
    // 1. Let C be the this value.
    let c = this;
    // 2. If IsConstructor(C) is false, throw a TypeError exception.
    if !is_constructor(vm, c) {
        let shown = describe(vm, c, Shown::Plain);
        return Err(vm.type_error(format!("{shown} is not a constructor")));
    }
    // 3. If mapper is undefined, let mapping be false.
    // 4. Else, a. If IsCallable(mapper) is false, throw a TypeError exception. b. mapping is true.
    let mapping = !mapper.is_undefined();
    if mapping && !is_callable(vm, mapper) {
        let shown = describe(vm, mapper, Shown::Plain);
        return Err(vm.type_error(format!("{shown} is not a function")));
    }
    // 5. Let usingIterator be ? GetMethod(source, %Symbol.iterator%).
    let key = PropertyKey::Symbol(vm.symbols.iterator);
    let using_iterator = get_method(vm, source, key)?;
    // 6. If usingIterator is not undefined, then
    if let Some(using_iterator) = using_iterator {
        // a. Let values be ? IteratorToList(? GetIteratorFromMethod(source, usingIterator)).
        let values = iterator_to_list(vm, source, using_iterator)?;
        // b. Let len be the number of elements in values.
        let len = values.len();
        // c. Let targetObj be ? TypedArrayCreateFromConstructor(C, « 𝔽(len) »).
        let (target, _) = typed_array_create_from_constructor(vm, c, &[Value::number(len as f64)])?;
        vm.roots.push(Value::object(target));
        // d-e. Repeat, while k < len,
        for (k, &k_value) in values.iter().enumerate() {
            // iii. If mapping, let mappedValue be ? Call(mapper, thisArg, « kValue, 𝔽(k) »).
            let mapped =
                if mapping { call(vm, mapper, this_arg, &[k_value, Value::number(k as f64)])? } else { k_value };
            // v. Perform ? Set(targetObj, Pk, mappedValue, true).
            set_element(vm, target, k, mapped)?;
        }
        // g. Return targetObj.
        return Ok(Value::object(target));
    }
    // 7. NOTE: source is not an Iterable so assume it is already an array-like object.
    // 8. Let arrayLike be ! ToObject(source).
    let array_like = to_object(vm, source)?;
    vm.roots.push(Value::object(array_like));
    // 9. Let len be ? LengthOfArrayLike(arrayLike).
    let len = length_of_array_like(vm, array_like)?;
    // 10. Let targetObj be ? TypedArrayCreateFromConstructor(C, « 𝔽(len) »).
    let (target, _) = typed_array_create_from_constructor(vm, c, &[Value::number(len as f64)])?;
    vm.roots.push(Value::object(target));
    // 11-12. Repeat, while k < len,
    for k in 0..len as usize {
        // b. Let kValue be ? Get(arrayLike, Pk).
        let k_value = get(vm, array_like, PropertyKey::Index(k as u32), Value::object(array_like))?;
        // c-d. mappedValue.
        let mapped = if mapping { call(vm, mapper, this_arg, &[k_value, Value::number(k as f64)])? } else { k_value };
        // e. Perform ? Set(targetObj, Pk, mappedValue, true).
        set_element(vm, target, k, mapped)?;
    }
    // 13. Return targetObj.
    Ok(Value::object(target))
}

/// Set(O, 𝔽(k), v, true) on a TypedArray: [[Set]] with O as receiver is TypedArraySetElement
/// for a numeric key and never fails.
pub(crate) fn set_element(vm: &mut Vm, o: ObjectId, k: usize, v: Value) -> JsResult<()> {
    let Some(s) = slots(vm, o) else { return Ok(()) };
    let n = to_numeric_for(vm, s.kind, v)?;
    write_index(vm, o, k, n);
    Ok(())
}

/// ### 23.2.2.2 %TypedArray%.of ( ...items )
/// https://tc39.es/ecma262/#sec-%typedarray%.of
fn of(vm: &mut Vm, this: Value, items: &[Value]) -> JsResult<Value> {
    // 1. Let len be the number of elements in items.
    let len = items.len();
    // 2. Let C be the this value.
    // 3. If IsConstructor(C) is false, throw a TypeError exception.
    if !is_constructor(vm, this) {
        let shown = describe(vm, this, Shown::Plain);
        return Err(vm.type_error(format!("{shown} is not a constructor")));
    }
    // 4. Let newObj be ? TypedArrayCreateFromConstructor(C, « 𝔽(len) »).
    let (new_obj, _) = typed_array_create_from_constructor(vm, this, &[Value::number(len as f64)])?;
    vm.roots.push(Value::object(new_obj));
    // 5-6. Repeat, while k < len: Perform ? Set(newObj, Pk, kValue, true).
    for (k, &v) in items.iter().enumerate() {
        set_element(vm, new_obj, k, v)?;
    }
    // 7. Return newObj.
    Ok(Value::object(new_obj))
}

/// ### 23.2.2.4 get %TypedArray% [ %Symbol.species% ]
/// https://tc39.es/ecma262/#sec-get-%typedarray%-%symbol.species%
fn species(_vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return the this value.
    Ok(this)
}

/// Is `v` a TypedArray? (Has a [[TypedArrayName]] internal slot.) For embedders (inspect,
/// structured clone).
pub fn is_typed_array(vm: &Vm, v: Value) -> Option<ObjectId> {
    let o = v.as_object()?;
    slots(vm, o).map(|_| o)
}

/// The element type of a TypedArray object ([`element::kind_name`] gives its name).
pub fn kind_of(vm: &Vm, o: ObjectId) -> Option<TypedKind> {
    slots(vm, o).map(|s| s.kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_layout_matches_the_kind_table() {
        assert_eq!(KINDS.len(), ARRAY_BUFFER_CAPTURE);
        for (i, k) in KINDS.iter().enumerate() {
            assert_eq!(kind_index(*k), i);
        }
    }
}
