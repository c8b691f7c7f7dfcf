//! Properties of the %TypedArray% prototype object (ECMA-262 §23.2.3):
//! https://tc39.es/ecma262/#sec-properties-of-the-%typedarrayprototype%-object
//!
//! Reads inside loops that call back into JS go through [`get_element`], which re-checks
//! the bounds each time: a callback may detach or shrink the buffer, after which the spec's
//! Get(O, Pk) answers undefined. Loops that run no JS read the bytes directly.

use std::cmp::Ordering;

use num_traits::ToPrimitive;

use crate::atoms::PropertyKey;
use crate::builtins::arg;
use crate::builtins::array_buffer::{self, BYTES_PER_FUEL};
use crate::builtins::typed_array::element::{
    self, element_size, is_bigint_kind, kind_name, numeric_to_value, ordered, to_numeric_for, Numeric, Ordered,
};
use crate::builtins::typed_array::{
    get_element, initialize_typed_array_from_array_buffer, intrinsic_constructor, out_of_bounds, read_element, record,
    set_element, slots, typed_array_create_from_constructor, typed_array_create_same_type, typed_array_species_create,
    validate_typed_array, write_element, write_index, TaRecord,
};
use crate::error::JsResult;
use crate::heap::object::{Class, IteratorState, Object, TypedKind};
use crate::runtime::call::{call, invoke, is_callable};
use crate::runtime::convert::{
    number_to_string, relative_index, to_boolean, to_integer_or_infinity, to_number, to_string,
};
use crate::runtime::describe::{describe, Shown};
use crate::runtime::object::species_constructor;
use crate::string::JsStr;
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

/// The longest string `join` builds (V8's String::kMaxLength).
const MAX_STRING_LENGTH: usize = (1 << 29) - 24;

/// Elements handled per unit of fuel in loops that run no JS.
const ELEMENTS_PER_FUEL: usize = 16;

/// ValidateTypedArray for a %TypedArray%.prototype method.
fn this_typed_array(vm: &mut Vm, this: Value, method: &str) -> JsResult<(ObjectId, TaRecord)> {
    validate_typed_array(vm, this, &format!("%TypedArray%.prototype.{method}"))
}

/// RequireInternalSlot(O, [[TypedArrayName]]) without the bounds check.
fn require_typed_array(vm: &mut Vm, this: Value, method: &str) -> JsResult<ObjectId> {
    if let Some(o) = this.as_object().filter(|&o| slots(vm, o).is_some()) {
        return Ok(o);
    }
    let shown = describe(vm, this, Shown::Plain);
    Err(vm.type_error(format!("Method %TypedArray%.prototype.{method} called on incompatible receiver {shown}")))
}

/// The callback argument, or the TypeError for a non-callable one.
fn require_callable(vm: &mut Vm, f: Value) -> JsResult<Value> {
    if is_callable(vm, f) {
        return Ok(f);
    }
    let shown = describe(vm, f, Shown::Plain);
    Err(vm.type_error(format!("{shown} is not a function")))
}

/// Charge for `n` elements of work that runs no JS.
fn charge_elements(vm: &mut Vm, n: usize) -> JsResult<()> {
    vm.charge((n / ELEMENTS_PER_FUEL) as u64)
}

/// ToIntegerOrInfinity then the relative-index clamp into [0, len].
fn relative(vm: &mut Vm, v: Value, len: usize, default_len: bool) -> JsResult<usize> {
    if default_len && v.is_undefined() {
        return Ok(len);
    }
    let r = to_integer_or_infinity(vm, v)?;
    Ok(relative_index(r, len as u64) as usize)
}

/// ### 23.2.3.1 %TypedArray%.prototype.at ( index )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.at
pub(crate) fn at(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "at")?;
    // 3. Let len be TypedArrayLength(taRecord).
    let len = rec.length as f64;
    // 4. Let relativeIndex be ? ToIntegerOrInfinity(index).
    let relative_index = to_integer_or_infinity(vm, arg(args, 0))?;
    // 5-6. If relativeIndex ≥ 0, let k be relativeIndex; else len + relativeIndex.
    let k = if relative_index >= 0.0 { relative_index } else { len + relative_index };
    // 7. If k < 0 or k ≥ len, return undefined.
    if k < 0.0 || k >= len {
        return Ok(Value::UNDEFINED);
    }
    // 8. Return ! Get(O, ! ToString(𝔽(k))).
    Ok(get_element(vm, o, k as usize))
}

/// ### 23.2.3.2 get %TypedArray%.prototype.buffer
/// https://tc39.es/ecma262/#sec-get-%typedarray%.prototype.buffer
pub(crate) fn buffer(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. Perform ? RequireInternalSlot(O, [[TypedArrayName]]).
    let o = require_typed_array(vm, this, "buffer")?;
    // 4-5. Return O.[[ViewedArrayBuffer]].
    Ok(slots(vm, o).map_or(Value::UNDEFINED, |s| Value::object(s.buffer)))
}

/// ### 23.2.3.3 get %TypedArray%.prototype.byteLength
/// https://tc39.es/ecma262/#sec-get-%typedarray%.prototype.bytelength
pub(crate) fn byte_length(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. Perform ? RequireInternalSlot(O, [[TypedArrayName]]).
    let o = require_typed_array(vm, this, "byteLength")?;
    // 4-6. Return 𝔽(TypedArrayByteLength(taRecord)) (0 when out of bounds).
    Ok(Value::number(record(vm, o).map_or(0, |r| r.byte_length()) as f64))
}

/// ### 23.2.3.4 get %TypedArray%.prototype.byteOffset
/// https://tc39.es/ecma262/#sec-get-%typedarray%.prototype.byteoffset
pub(crate) fn byte_offset(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. Perform ? RequireInternalSlot(O, [[TypedArrayName]]).
    let o = require_typed_array(vm, this, "byteOffset")?;
    // 4-5. If IsTypedArrayOutOfBounds(taRecord) is true, return +0𝔽.
    // 6-7. Return 𝔽(O.[[ByteOffset]]).
    Ok(Value::number(record(vm, o).map_or(0, |r| r.byte_offset) as f64))
}

/// ### 23.2.3.6 %TypedArray%.prototype.copyWithin ( target, start [ , end ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.copywithin
pub(crate) fn copy_within(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "copyWithin")?;
    // 3. Let len be TypedArrayLength(taRecord).
    let len = rec.length;
    // 4-6. Let targetIndex be the relative target clamped to [0, len].
    let target_index = relative(vm, arg(args, 0), len, false)?;
    // 7-9. Let startIndex be the relative start clamped to [0, len].
    let start_index = relative(vm, arg(args, 1), len, false)?;
    // 10-12. Let endIndex be the relative end (len if undefined) clamped to [0, len].
    let end_index = relative(vm, arg(args, 2), len, true)?;
    // 13. Let count be min(endIndex - startIndex, len - targetIndex).
    let count = end_index.saturating_sub(start_index).min(len - target_index);
    // 14. If count > 0, then
    if count > 0 {
        // a. NOTE: The copying must be performed in a manner that preserves the bit-level encoding.
        // b-c. Let taRecord be MakeTypedArrayWithBufferWitnessRecord(O, seq-cst).
        // d. If IsTypedArrayOutOfBounds(taRecord) is true, throw a TypeError exception.
        let Some(rec) = record(vm, o) else {
            return Err(out_of_bounds(vm, "%TypedArray%.prototype.copyWithin"));
        };
        // e. Set len to TypedArrayLength(taRecord).
        let len = rec.length;
        // f. NOTE: Side-effects of the above steps may have reduced the size of O, in which
        //    case copying should proceed with the longest still-applicable prefix.
        // g. Set count to min(count, len - startIndex, len - targetIndex).
        let count = count.min(len.saturating_sub(start_index)).min(len.saturating_sub(target_index));
        // h-i. Let elementSize and byteOffset be those of O.
        let size = element_size(rec.kind);
        let byte_offset = rec.byte_offset;
        // j-m. toByteIndex, fromByteIndex, countBytes (bufferByteLimit no longer cuts the
        //      copy short: both ranges now lie within len).
        let to = target_index * size + byte_offset;
        let from = start_index * size + byte_offset;
        let n = count * size;
        // n-o. Copy the bytes, backwards when the ranges overlap with from < to (memmove).
        array_buffer::copy_between(vm, rec.buffer, from, rec.buffer, to, n)?;
    }
    // 15. Return O.
    Ok(this)
}

/// CreateArrayIterator (§23.1.5.1) over a TypedArray; kind 0 keys, 1 values, 2 entries.
fn create_array_iterator(vm: &mut Vm, o: ObjectId, kind: u8) -> Value {
    let proto = vm.realm.array_iterator_prototype;
    let state = IteratorState::Array { target: Value::object(o), index: 0, kind, done: false };
    Value::object(vm.heap.alloc_object(Object::new(Some(proto), Class::Iterator(Box::new(state)))))
}

/// ### 23.2.3.7 %TypedArray%.prototype.entries ( )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.entries
pub(crate) fn entries(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? ValidateTypedArray(O, seq-cst).
    let (o, _) = this_typed_array(vm, this, "entries")?;
    // 3. Return CreateArrayIterator(O, key+value).
    Ok(create_array_iterator(vm, o, 2))
}

/// ### 23.2.3.8 %TypedArray%.prototype.every ( callback [ , thisArg ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.every
pub(crate) fn every(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "every")?;
    // 3. Let len be TypedArrayLength(taRecord).
    // 4. If IsCallable(callback) is false, throw a TypeError exception.
    let callback = require_callable(vm, arg(args, 0))?;
    let this_arg = arg(args, 1);
    // 5-6. Repeat, while k < len,
    for k in 0..rec.length {
        // b. Let kValue be ! Get(O, Pk).
        let k_value = get_element(vm, o, k);
        // c. Let testResult be ToBoolean(? Call(callback, thisArg, « kValue, 𝔽(k), O »)).
        let r = call(vm, callback, this_arg, &[k_value, Value::number(k as f64), this])?;
        // d. If testResult is false, return false.
        if !to_boolean(vm, r) {
            return Ok(Value::FALSE);
        }
    }
    // 7. Return true.
    Ok(Value::TRUE)
}

/// ### 23.2.3.9 %TypedArray%.prototype.fill ( value [ , start [ , end ] ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.fill
pub(crate) fn fill(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "fill")?;
    // 3. Let len be TypedArrayLength(taRecord).
    let len = rec.length;
    // 4-5. Set value to ? ToBigInt(value) or ? ToNumber(value) by content type.
    let value = to_numeric_for(vm, rec.kind, arg(args, 0))?;
    // 6-9. Let startIndex be the relative start clamped to [0, len].
    let start_index = relative(vm, arg(args, 1), len, false)?;
    // 10-13. Let endIndex be the relative end (len if undefined) clamped to [0, len].
    let end_index = relative(vm, arg(args, 2), len, true)?;
    // 14. Set taRecord to MakeTypedArrayWithBufferWitnessRecord(O, seq-cst).
    // 15. If IsTypedArrayOutOfBounds(taRecord) is true, throw a TypeError exception.
    let Some(rec) = record(vm, o) else {
        return Err(out_of_bounds(vm, "%TypedArray%.prototype.fill"));
    };
    // 16. Set len to TypedArrayLength(taRecord).
    // 17. Set endIndex to min(endIndex, len).
    let end_index = end_index.min(rec.length);
    // 18-19. Repeat, while k < endIndex: Perform ! Set(O, Pk, value, true).
    if start_index < end_index {
        let size = element_size(rec.kind);
        vm.charge(((end_index - start_index) * size / BYTES_PER_FUEL) as u64)?;
        let raw = element::encode(rec.kind, value);
        let range = rec.byte_offset + start_index * size..rec.byte_offset + end_index * size;
        array_buffer::with_bytes_mut(vm, rec.buffer, range, |region| {
            if size == 1 {
                region.fill(raw as u8);
            } else {
                let pattern = raw.to_le_bytes();
                for chunk in region.chunks_exact_mut(size) {
                    chunk.copy_from_slice(&pattern[..size]);
                }
            }
        });
    }
    // 20. Return O.
    Ok(this)
}

/// ### 23.2.3.10 %TypedArray%.prototype.filter ( callback [ , thisArg ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.filter
pub(crate) fn filter(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "filter")?;
    // 3. Let len be TypedArrayLength(taRecord).
    // 4. If IsCallable(callback) is false, throw a TypeError exception.
    let callback = require_callable(vm, arg(args, 0))?;
    let this_arg = arg(args, 1);
    // 5. Let kept be a new empty List.
    let mut kept = Vec::new();
    // 6-8. Repeat, while k < len,
    for k in 0..rec.length {
        // b. Let kValue be ! Get(O, Pk).
        let k_value = get_element(vm, o, k);
        // c. Let selected be ToBoolean(? Call(callback, thisArg, « kValue, 𝔽(k), O »)).
        let selected = call(vm, callback, this_arg, &[k_value, Value::number(k as f64), this])?;
        // d. If selected is true, append kValue to kept and increment captured.
        if to_boolean(vm, selected) {
            vm.roots.push(k_value);
            kept.push(k_value);
        }
    }
    // 9. Let A be ? TypedArraySpeciesCreate(O, « 𝔽(captured) »).
    let (a, _) = typed_array_species_create(vm, o, &[Value::number(kept.len() as f64)])?;
    // 10-11. For each element e of kept: Perform ! Set(A, ! ToString(𝔽(n)), e, true).
    for (n, &e) in kept.iter().enumerate() {
        set_element(vm, a, n, e)?;
    }
    // 12. Return A.
    Ok(Value::object(a))
}

/// FindViaPredicate (§23.1.3.12.1) over a TypedArray: (index, value) of the first match.
fn find_via_predicate(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
    method: &str,
    ascending: bool,
) -> JsResult<Option<(usize, Value)>> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, method)?;
    // 3. Let len be TypedArrayLength(taRecord).
    let len = rec.length;
    // FindViaPredicate 1. If IsCallable(predicate) is false, throw a TypeError exception.
    let predicate = require_callable(vm, arg(args, 0))?;
    let this_arg = arg(args, 1);
    // 2-4. For each integer k of indices (ascending or descending),
    for i in 0..len {
        let k = if ascending { i } else { len - 1 - i };
        // b. Let kValue be ! Get(O, Pk).
        let k_value = get_element(vm, o, k);
        // c. Let testResult be ? Call(predicate, thisArg, « kValue, 𝔽(k), O »).
        let r = call(vm, predicate, this_arg, &[k_value, Value::number(k as f64), this])?;
        // d. If ToBoolean(testResult) is true, return the Record { [[Index]], [[Value]] }.
        if to_boolean(vm, r) {
            return Ok(Some((k, k_value)));
        }
    }
    // 5. Return the Record { [[Index]]: -1𝔽, [[Value]]: undefined }.
    Ok(None)
}

/// ### 23.2.3.11 %TypedArray%.prototype.find ( predicate [ , thisArg ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.find
pub(crate) fn find(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 4-5. Let findRec be ? FindViaPredicate(O, len, ascending, predicate, thisArg); return its [[Value]].
    Ok(find_via_predicate(vm, this, args, "find", true)?.map_or(Value::UNDEFINED, |(_, v)| v))
}

/// ### 23.2.3.12 %TypedArray%.prototype.findIndex ( predicate [ , thisArg ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.findindex
pub(crate) fn find_index(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 4-5. Return findRec.[[Index]].
    Ok(Value::number(find_via_predicate(vm, this, args, "findIndex", true)?.map_or(-1.0, |(k, _)| k as f64)))
}

/// ### 23.2.3.13 %TypedArray%.prototype.findLast ( predicate [ , thisArg ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.findlast
pub(crate) fn find_last(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(find_via_predicate(vm, this, args, "findLast", false)?.map_or(Value::UNDEFINED, |(_, v)| v))
}

/// ### 23.2.3.14 %TypedArray%.prototype.findLastIndex ( predicate [ , thisArg ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.findlastindex
pub(crate) fn find_last_index(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::number(find_via_predicate(vm, this, args, "findLastIndex", false)?.map_or(-1.0, |(k, _)| k as f64)))
}

/// ### 23.2.3.15 %TypedArray%.prototype.forEach ( callback [ , thisArg ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.foreach
pub(crate) fn for_each(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "forEach")?;
    // 4. If IsCallable(callback) is false, throw a TypeError exception.
    let callback = require_callable(vm, arg(args, 0))?;
    let this_arg = arg(args, 1);
    // 5-6. Repeat, while k < len,
    for k in 0..rec.length {
        // b. Let kValue be ! Get(O, Pk).
        let k_value = get_element(vm, o, k);
        // c. Perform ? Call(callback, thisArg, « kValue, 𝔽(k), O »).
        call(vm, callback, this_arg, &[k_value, Value::number(k as f64), this])?;
    }
    // 7. Return undefined.
    Ok(Value::UNDEFINED)
}

/// How a search compares elements: SameValueZero (includes) or IsStrictlyEqual (indexOf).
#[derive(Clone, Copy, PartialEq)]
enum Equality {
    SameValueZero,
    Strict,
}

/// Does element `n` equal the search element? Elements are Numbers or BigInts, so neither
/// comparison runs JS.
fn element_matches(vm: &mut Vm, kind: TypedKind, n: Numeric, search: Value, eq: Equality) -> bool {
    match (n, search.kind()) {
        (Numeric::Number(x), Kind::Int(_) | Kind::Float(_)) => {
            let y = search.as_number().unwrap_or(f64::NAN);
            x == y || (eq == Equality::SameValueZero && x.is_nan() && y.is_nan())
        }
        (Numeric::BigInt(_), Kind::BigInt(b)) => {
            let Ordered::Int(x) = ordered(kind, n) else {
                return false;
            };
            vm.heap.bigint(b).to_i128() == Some(x)
        }
        _ => false,
    }
}

/// ### 23.2.3.16 %TypedArray%.prototype.includes ( searchElement [ , fromIndex ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.includes
pub(crate) fn includes(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "includes")?;
    // 3. Let len be TypedArrayLength(taRecord).
    let len = rec.length;
    // 4. If len = 0, return false.
    if len == 0 {
        return Ok(Value::FALSE);
    }
    // 5. Let n be ? ToIntegerOrInfinity(fromIndex).
    let n = to_integer_or_infinity(vm, arg(args, 1))?;
    // 6-7. If n = +∞, return false; else if n = -∞, set n to 0.
    if n == f64::INFINITY {
        return Ok(Value::FALSE);
    }
    // 8-9. If n ≥ 0, let k be n; else let k be max(len + n, 0).
    let k = relative_index(n, len as u64) as usize;
    let search = arg(args, 0);
    // 10. Repeat, while k < len: Let elementK be ! Get(O, ! ToString(𝔽(k))); if
    //     SameValueZero(searchElement, elementK) is true, return true.
    // Elements past the current length (the buffer shrank during ToIntegerOrInfinity) read
    // as undefined.
    let current = record(vm, o);
    let valid = current.map_or(0, |r| r.length).min(len);
    if search.is_undefined() {
        return Ok(Value::bool(k.max(valid) < len));
    }
    if let Some(cur) = current {
        charge_elements(vm, valid.saturating_sub(k))?;
        for i in k..valid {
            let e = read_element(vm, &cur, i);
            if element_matches(vm, cur.kind, e, search, Equality::SameValueZero) {
                return Ok(Value::TRUE);
            }
        }
    }
    // 11. Return false.
    Ok(Value::FALSE)
}

/// ### 23.2.3.17 %TypedArray%.prototype.indexOf ( searchElement [ , fromIndex ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.indexof
pub(crate) fn index_of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "indexOf")?;
    // 3. Let len be TypedArrayLength(taRecord).
    let len = rec.length;
    // 4. If len = 0, return -1𝔽.
    if len == 0 {
        return Ok(Value::int(-1));
    }
    // 5. Let n be ? ToIntegerOrInfinity(fromIndex).
    let n = to_integer_or_infinity(vm, arg(args, 1))?;
    // 6-7. If n = +∞, return -1𝔽; else if n = -∞, set n to 0.
    if n == f64::INFINITY {
        return Ok(Value::int(-1));
    }
    // 8-9. If n ≥ 0, let k be n; else let k be max(len + n, 0).
    let k = relative_index(n, len as u64) as usize;
    // 10. Repeat, while k < len: if HasProperty(O, Pk), compare with IsStrictlyEqual.
    //     Indices past the current length are absent.
    let search = arg(args, 0);
    if let Some(cur) = record(vm, o) {
        let valid = cur.length.min(len);
        charge_elements(vm, valid.saturating_sub(k))?;
        for i in k..valid {
            let e = read_element(vm, &cur, i);
            if element_matches(vm, cur.kind, e, search, Equality::Strict) {
                return Ok(Value::number(i as f64));
            }
        }
    }
    // 11. Return -1𝔽.
    Ok(Value::int(-1))
}

/// ### 23.2.3.18 %TypedArray%.prototype.join ( separator )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.join
pub(crate) fn join(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "join")?;
    // 3. Let len be TypedArrayLength(taRecord).
    let len = rec.length;
    // 4-5. If separator is undefined, let sep be ","; else let sep be ? ToString(separator).
    let separator = arg(args, 0);
    let sep: Vec<u16> = if separator.is_undefined() {
        vec![b',' as u16]
    } else {
        let s = to_string(vm, separator)?;
        vm.heap.flat(s).units()
    };
    // 6. Let R be the empty String.
    let mut r: Vec<u16> = Vec::new();
    // Elements past the current length (after ToString(separator)) read as undefined: "".
    let current = record(vm, o);
    let valid = current.map_or(0, |c| c.length).min(len);
    vm.charge(len as u64)?;
    // 7-8. Repeat, while k < len,
    for k in 0..len {
        // a. If k > 0, set R to the string-concatenation of R and sep.
        if k > 0 {
            r.extend_from_slice(&sep);
        }
        // b. Let element be ! Get(O, ! ToString(𝔽(k))).
        // c. If element is undefined, let next be the empty String; otherwise ! ToString(element).
        if let (Some(cur), true) = (current, k < valid) {
            let e = read_element(vm, &cur, k);
            let text = match ordered(cur.kind, e) {
                Ordered::Number(f) => number_to_string(f),
                Ordered::Int(i) => i.to_string(),
            };
            // d. Set R to the string-concatenation of R and next.
            r.extend(text.bytes().map(u16::from));
        }
        if r.len() > MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
    }
    // 9. Return R.
    Ok(vm.js_str(JsStr::from_units(r)))
}

/// ### 23.2.3.19 %TypedArray%.prototype.keys ( )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.keys
pub(crate) fn keys(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? ValidateTypedArray(O, seq-cst).
    let (o, _) = this_typed_array(vm, this, "keys")?;
    // 3. Return CreateArrayIterator(O, key).
    Ok(create_array_iterator(vm, o, 0))
}

/// ### 23.2.3.20 %TypedArray%.prototype.lastIndexOf ( searchElement [ , fromIndex ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.lastindexof
pub(crate) fn last_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "lastIndexOf")?;
    // 3. Let len be TypedArrayLength(taRecord).
    let len = rec.length as f64;
    // 4. If len = 0, return -1𝔽.
    if rec.length == 0 {
        return Ok(Value::int(-1));
    }
    // 5. If fromIndex is present, let n be ? ToIntegerOrInfinity(fromIndex); else let n be len - 1.
    let n = if args.len() > 1 { to_integer_or_infinity(vm, args[1])? } else { len - 1.0 };
    // 6. If n = -∞, return -1𝔽.
    if n == f64::NEG_INFINITY {
        return Ok(Value::int(-1));
    }
    // 7-8. If n ≥ 0, let k be min(n, len - 1); else let k be len + n.
    let k = if n >= 0.0 { n.min(len - 1.0) } else { len + n };
    if k < 0.0 {
        return Ok(Value::int(-1));
    }
    // 9. Repeat, while k ≥ 0: if HasProperty(O, Pk), compare with IsStrictlyEqual.
    let search = arg(args, 0);
    if let Some(cur) = record(vm, o) {
        let k = k as usize;
        charge_elements(vm, k)?;
        for i in (0..=k).rev() {
            if i >= cur.length {
                continue;
            }
            let e = read_element(vm, &cur, i);
            if element_matches(vm, cur.kind, e, search, Equality::Strict) {
                return Ok(Value::number(i as f64));
            }
        }
    }
    // 10. Return -1𝔽.
    Ok(Value::int(-1))
}

/// ### 23.2.3.21 get %TypedArray%.prototype.length
/// https://tc39.es/ecma262/#sec-get-%typedarray%.prototype.length
pub(crate) fn length(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. Perform ? RequireInternalSlot(O, [[TypedArrayName]]).
    let o = require_typed_array(vm, this, "length")?;
    // 4-6. If IsTypedArrayOutOfBounds(taRecord) is true, return +0𝔽.
    // 7-8. Return 𝔽(TypedArrayLength(taRecord)).
    Ok(Value::number(record(vm, o).map_or(0, |r| r.length) as f64))
}

/// ### 23.2.3.22 %TypedArray%.prototype.map ( callback [ , thisArg ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.map
pub(crate) fn map(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "map")?;
    // 3. Let len be TypedArrayLength(taRecord).
    let len = rec.length;
    // 4. If IsCallable(callback) is false, throw a TypeError exception.
    let callback = require_callable(vm, arg(args, 0))?;
    let this_arg = arg(args, 1);
    // 5. Let A be ? TypedArraySpeciesCreate(O, « 𝔽(len) »).
    let (a, _) = typed_array_species_create(vm, o, &[Value::number(len as f64)])?;
    vm.roots.push(Value::object(a));
    // 6-7. Repeat, while k < len,
    for k in 0..len {
        // b. Let kValue be ! Get(O, Pk).
        let k_value = get_element(vm, o, k);
        // c. Let mappedValue be ? Call(callback, thisArg, « kValue, 𝔽(k), O »).
        let mapped = call(vm, callback, this_arg, &[k_value, Value::number(k as f64), this])?;
        // d. Perform ? Set(A, Pk, mappedValue, true).
        set_element(vm, a, k, mapped)?;
    }
    // 8. Return A.
    Ok(Value::object(a))
}

/// ### 23.2.3.23 %TypedArray%.prototype.reduce ( callback [ , initialValue ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.reduce
pub(crate) fn reduce(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    reduce_impl(vm, this, args, "reduce", true)
}

/// ### 23.2.3.24 %TypedArray%.prototype.reduceRight ( callback [ , initialValue ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.reduceright
pub(crate) fn reduce_right(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    reduce_impl(vm, this, args, "reduceRight", false)
}

fn reduce_impl(vm: &mut Vm, this: Value, args: &[Value], method: &str, ascending: bool) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, method)?;
    // 3. Let len be TypedArrayLength(taRecord).
    let len = rec.length;
    // 4. If IsCallable(callback) is false, throw a TypeError exception.
    let callback = require_callable(vm, arg(args, 0))?;
    // 5. If len = 0 and initialValue is not present, throw a TypeError exception.
    if len == 0 && args.len() < 2 {
        return Err(vm.type_error("Reduce of empty array with no initial value"));
    }
    let index = |i: usize| if ascending { i } else { len - 1 - i };
    // 6-8. Let accumulator be initialValue, or the first element (k advances past it).
    let (mut accumulator, start) = if args.len() >= 2 { (args[1], 0) } else { (get_element(vm, o, index(0)), 1) };
    let mark = vm.roots.len();
    // 9. Repeat, while k < len (k ≥ 0 for reduceRight),
    for i in start..len {
        let k = index(i);
        // b. Let kValue be ! Get(O, Pk).
        let k_value = get_element(vm, o, k);
        // c. Set accumulator to ? Call(callback, undefined, « accumulator, kValue, 𝔽(k), O »).
        accumulator = call(vm, callback, Value::UNDEFINED, &[accumulator, k_value, Value::number(k as f64), this])?;
        vm.roots.truncate(mark);
        vm.roots.push(accumulator);
    }
    // 10. Return accumulator.
    Ok(accumulator)
}

/// ### 23.2.3.25 %TypedArray%.prototype.reverse ( )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.reverse
pub(crate) fn reverse(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (_, rec) = this_typed_array(vm, this, "reverse")?;
    // 3-7. Swap the elements at lower and upper = len - lower - 1 until they meet.
    let size = element_size(rec.kind);
    vm.charge((rec.byte_length() / BYTES_PER_FUEL) as u64)?;
    let range = rec.byte_offset..rec.byte_offset + rec.byte_length();
    array_buffer::with_bytes_mut(vm, rec.buffer, range, |region| {
        // Reversing the bytes reverses the element order and each element's bytes;
        // reversing each element again restores its bytes.
        region.reverse();
        if size > 1 {
            for chunk in region.chunks_exact_mut(size) {
                chunk.reverse();
            }
        }
    });
    // 8. Return O.
    Ok(this)
}

/// ### 23.2.3.26 %TypedArray%.prototype.set ( source [ , offset ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.set
pub(crate) fn set(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let target be the this value.
    // 2. Perform ? RequireInternalSlot(target, [[TypedArrayName]]).
    let target = require_typed_array(vm, this, "set")?;
    // 3. Assert: target has a [[ViewedArrayBuffer]] internal slot.
    // 4. Let targetOffset be ? ToIntegerOrInfinity(offset).
    let target_offset = to_integer_or_infinity(vm, arg(args, 1))?;
    // 5. If targetOffset < 0, throw a RangeError exception.
    if target_offset < 0.0 {
        return Err(vm.range_error("offset is out of bounds"));
    }
    let source = arg(args, 0);
    match source.as_object().filter(|&s| slots(vm, s).is_some()) {
        // 6. If source is an Object that has a [[TypedArrayName]] internal slot, then
        //    a. Perform ? SetTypedArrayFromTypedArray(target, targetOffset, source).
        Some(src) => set_typed_array_from_typed_array(vm, target, target_offset, src)?,
        // 7. Else, a. Perform ? SetTypedArrayFromArrayLike(target, targetOffset, source).
        None => set_typed_array_from_array_like(vm, target, target_offset, source)?,
    }
    // 8. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 23.2.3.26.1 SetTypedArrayFromTypedArray ( target, targetOffset, source )
/// https://tc39.es/ecma262/#sec-settypedarrayfromtypedarray
fn set_typed_array_from_typed_array(
    vm: &mut Vm,
    target: ObjectId,
    target_offset: f64,
    source: ObjectId,
) -> JsResult<()> {
    const METHOD: &str = "%TypedArray%.prototype.set";
    // 1-2. Let targetRecord be MakeTypedArrayWithBufferWitnessRecord(target, seq-cst).
    // 3. If IsTypedArrayOutOfBounds(targetRecord) is true, throw a TypeError exception.
    let Some(t) = record(vm, target) else {
        return Err(out_of_bounds(vm, METHOD));
    };
    // 4. Let targetLength be TypedArrayLength(targetRecord).
    // 5-6. Let srcRecord be MakeTypedArrayWithBufferWitnessRecord(source, seq-cst).
    // 7. If IsTypedArrayOutOfBounds(srcRecord) is true, throw a TypeError exception.
    let Some(s) = record(vm, source) else {
        return Err(out_of_bounds(vm, METHOD));
    };
    // 8. Let srcLength be TypedArrayLength(srcRecord).
    // 9-14. Types, element sizes and byte offsets.
    // 15. If targetOffset = +∞, throw a RangeError exception.
    // 16. If srcLength + targetOffset > targetLength, throw a RangeError exception.
    if target_offset == f64::INFINITY || s.length as f64 + target_offset > t.length as f64 {
        return Err(vm.range_error("offset is out of bounds"));
    }
    let target_offset = target_offset as usize;
    // 17. If target.[[ContentType]] is not source.[[ContentType]], throw a TypeError exception.
    if is_bigint_kind(t.kind) != is_bigint_kind(s.kind) {
        return Err(vm.type_error("Cannot mix BigInt and other types, use explicit conversions"));
    }
    let target_size = element_size(t.kind);
    // 21. Let targetByteIndex be (targetOffset × targetElementSize) + targetByteOffset.
    let target_byte_index = target_offset * target_size + t.byte_offset;
    // 23. If srcType is targetType, then
    if s.kind == t.kind {
        // a. NOTE: The transfer must be performed in a manner that preserves the bit-level encoding.
        // b. Repeat, while targetByteIndex < limit: copy one byte. (18-20: a source in the
        //    same buffer is cloned first, which a memmove copy amounts to.)
        array_buffer::copy_between(vm, s.buffer, s.byte_offset, t.buffer, target_byte_index, s.byte_length())?;
        return Ok(());
    }
    // 18-20. If the buffers are the same, clone the source bytes first; reading them all out
    //        before writing does the same for distinct buffers.
    vm.charge((s.length / ELEMENTS_PER_FUEL) as u64)?;
    let values: Vec<Numeric> = (0..s.length).map(|k| read_element(vm, &s, k)).collect();
    // 24. Else, repeat, while targetByteIndex < limit: convert each element through its
    //     numeric value (GetValueFromBuffer then SetValueInBuffer).
    for (k, n) in values.into_iter().enumerate() {
        write_element(vm, &t, target_offset + k, n);
    }
    // 25. Return unused.
    Ok(())
}

/// ### 23.2.3.26.2 SetTypedArrayFromArrayLike ( target, targetOffset, source )
/// https://tc39.es/ecma262/#sec-settypedarrayfromarraylike
fn set_typed_array_from_array_like(vm: &mut Vm, target: ObjectId, target_offset: f64, source: Value) -> JsResult<()> {
    // 1. Let targetRecord be MakeTypedArrayWithBufferWitnessRecord(target, seq-cst).
    // 2. If IsTypedArrayOutOfBounds(targetRecord) is true, throw a TypeError exception.
    let Some(t) = record(vm, target) else {
        return Err(out_of_bounds(vm, "%TypedArray%.prototype.set"));
    };
    // 3. Let targetLength be TypedArrayLength(targetRecord).
    // 4. Let src be ? ToObject(source).
    let src = crate::runtime::convert::to_object(vm, source)?;
    vm.roots.push(Value::object(src));
    // 5. Let srcLength be ? LengthOfArrayLike(src).
    let src_length = crate::runtime::property::length_of_array_like(vm, src)?;
    // 6. If targetOffset = +∞, throw a RangeError exception.
    // 7. If srcLength + targetOffset > targetLength, throw a RangeError exception.
    if target_offset == f64::INFINITY || src_length as f64 + target_offset > t.length as f64 {
        return Err(vm.range_error("offset is out of bounds"));
    }
    let target_offset = target_offset as usize;
    // 8-9. Repeat, while k < srcLength,
    for k in 0..src_length as usize {
        // a-b. Let value be ? Get(src, Pk).
        let value = crate::runtime::property::get(vm, src, PropertyKey::Index(k as u32), Value::object(src))?;
        // c. Let targetIndex be 𝔽(targetOffset + k).
        // d. Perform ? TypedArraySetElement(target, targetIndex, value).
        set_element(vm, target, target_offset + k, value)?;
    }
    // 10. Return unused.
    Ok(())
}

/// ### 23.2.3.27 %TypedArray%.prototype.slice ( start, end )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.slice
pub(crate) fn slice(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "slice")?;
    // 3. Let srcArrayLength be TypedArrayLength(taRecord).
    let len = rec.length;
    // 4-6. Let startIndex be the relative start clamped to [0, srcArrayLength].
    let start_index = relative(vm, arg(args, 0), len, false)?;
    // 7-9. Let endIndex be the relative end (srcArrayLength if undefined), clamped.
    let end_index = relative(vm, arg(args, 1), len, true)?;
    // 10. Let countBytes be max(endIndex - startIndex, 0).
    let count = end_index.saturating_sub(start_index);
    // 11. Let A be ? TypedArraySpeciesCreate(O, « 𝔽(countBytes) »).
    let (a, _) = typed_array_species_create(vm, o, &[Value::number(count as f64)])?;
    // 12. If countBytes > 0, then
    if count > 0 {
        // a. Set taRecord to MakeTypedArrayWithBufferWitnessRecord(O, seq-cst).
        // b. If IsTypedArrayOutOfBounds(taRecord) is true, throw a TypeError exception.
        let Some(src) = record(vm, o) else {
            return Err(out_of_bounds(vm, "%TypedArray%.prototype.slice"));
        };
        // c. Set endIndex to min(endIndex, TypedArrayLength(taRecord)).
        let end_index = end_index.min(src.length);
        // d. Set countBytes to max(endIndex - startIndex, 0).
        let count = end_index.saturating_sub(start_index);
        let Some(dst) = record(vm, a) else {
            return Ok(Value::object(a));
        };
        // e-f. Let srcType and targetType be the element types.
        if src.kind == dst.kind {
            // g. If srcType is targetType, then
            //    i. NOTE: The transfer must be performed in a manner that preserves the bit-level encoding.
            //    ii-viii. srcBuffer, targetBuffer, elementSize, srcByteOffset, srcByteIndex,
            //             targetByteIndex, endByteIndex = targetByteIndex + countBytes × elementSize.
            let size = element_size(src.kind);
            let src_byte_index = start_index * size + src.byte_offset;
            let target_byte_index = dst.byte_offset;
            let count_bytes = (count * size).min(dst.byte_length());
            //    ix. Repeat, while targetByteIndex < endByteIndex: copy one byte (Uint8), forward.
            if src.buffer == dst.buffer {
                // Forward byte order is observable when the ranges overlap in one buffer.
                vm.charge((count_bytes / BYTES_PER_FUEL) as u64)?;
                let whole = 0..array_buffer::byte_length(vm, src.buffer).unwrap_or(0);
                array_buffer::with_bytes_mut(vm, src.buffer, whole, |bytes| {
                    for i in 0..count_bytes {
                        let (Some(&b), true) = (bytes.get(src_byte_index + i), target_byte_index + i < bytes.len())
                        else {
                            break;
                        };
                        bytes[target_byte_index + i] = b;
                    }
                });
            } else {
                array_buffer::copy_between(vm, src.buffer, src_byte_index, dst.buffer, target_byte_index, count_bytes)?;
            }
        } else {
            // h. Else,
            //    i. Let n be 0. ii. Let k be startIndex.
            //    iii. Repeat, while k < endIndex: kValue = ! Get(O, Pk); ! Set(A, 𝔽(n), kValue, true).
            //    (Content types match, so converting through the numeric value is exact.)
            charge_elements(vm, count)?;
            for n in 0..count {
                let v = read_element(vm, &src, start_index + n);
                write_index(vm, a, n, v);
            }
        }
    }
    // 13. Return A.
    Ok(Value::object(a))
}

/// ### 23.2.3.28 %TypedArray%.prototype.some ( callback [ , thisArg ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.some
pub(crate) fn some(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "some")?;
    // 4. If IsCallable(callback) is false, throw a TypeError exception.
    let callback = require_callable(vm, arg(args, 0))?;
    let this_arg = arg(args, 1);
    // 5-6. Repeat, while k < len,
    for k in 0..rec.length {
        // b. Let kValue be ! Get(O, Pk).
        let k_value = get_element(vm, o, k);
        // c. Let testResult be ToBoolean(? Call(callback, thisArg, « kValue, 𝔽(k), O »)).
        let r = call(vm, callback, this_arg, &[k_value, Value::number(k as f64), this])?;
        // d. If testResult is true, return true.
        if to_boolean(vm, r) {
            return Ok(Value::TRUE);
        }
    }
    // 7. Return false.
    Ok(Value::FALSE)
}

/// ### 23.2.3.29 %TypedArray%.prototype.sort ( comparator )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.sort
pub(crate) fn sort(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If comparator is not undefined and IsCallable(comparator) is false, throw a TypeError.
    let comparator = check_comparator(vm, arg(args, 0))?;
    // 2-3. Let taRecord be ? ValidateTypedArray(obj, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "sort")?;
    // 4. Let len be TypedArrayLength(taRecord).
    // 5-6. Let SortCompare compare with the comparator, or numerically.
    // 7. Let sortedList be ? SortIndexedProperties(obj, len, SortCompare, read-through-holes).
    let sorted = sort_indexed(vm, rec, comparator)?;
    // 8-9. Repeat, while j < len: Perform ! Set(obj, ! ToString(𝔽(j)), sortedList[j], true).
    for (j, n) in sorted.into_iter().enumerate() {
        write_index(vm, o, j, n);
    }
    // 10. Return obj.
    Ok(this)
}

/// The comparator argument of sort/toSorted: None for undefined; TypeError if not callable.
fn check_comparator(vm: &mut Vm, comparator: Value) -> JsResult<Option<Value>> {
    if comparator.is_undefined() {
        return Ok(None);
    }
    if !is_callable(vm, comparator) {
        return Err(vm.type_error("The comparison function must be either a function or undefined"));
    }
    Ok(Some(comparator))
}

/// SortIndexedProperties (§23.1.3.30.1) over the elements of an in-bounds TypedArray with
/// TypedArray SortCompare (§23.2.4.7); the sorted values, converted for writing back.
fn sort_indexed(vm: &mut Vm, rec: TaRecord, comparator: Option<Value>) -> JsResult<Vec<Numeric>> {
    let len = rec.length;
    let kind = rec.kind;
    let mut items: Vec<Numeric> = (0..len).map(|k| read_element(vm, &rec, k)).collect();
    let Some(comparator) = comparator else {
        // TypedArray SortCompare without a comparator: numeric order, -0 before +0, NaN last.
        // A total order: the std sort cannot see an inconsistent comparison.
        let log = usize::BITS - len.leading_zeros();
        vm.charge((len as u64 * log as u64) / ELEMENTS_PER_FUEL as u64)?;
        items.sort_by(|&a, &b| compare_default(ordered(kind, a), ordered(kind, b)));
        return Ok(items);
    };
    // The comparator sees JS values: make them once and keep them rooted.
    let mut values: Vec<Value> = Vec::with_capacity(len);
    for n in items {
        let v = numeric_to_value(vm, kind, n);
        vm.roots.push(v);
        values.push(v);
    }
    merge_sort(vm, &mut values, &mut |vm, x, y| {
        // 2.a. Let v be ? ToNumber(? Call(comparator, undefined, « x, y »)).
        let r = call(vm, comparator, Value::UNDEFINED, &[x, y])?;
        let v = to_number(vm, r)?;
        // b. If v is NaN, return +0𝔽. c. Return v.
        Ok(v > 0.0)
    })?;
    let mut out = Vec::with_capacity(len);
    for v in values {
        out.push(to_numeric_for(vm, kind, v)?);
    }
    Ok(out)
}

/// TypedArray SortCompare (§23.2.4.7) steps 3-10: numeric order, -0 before +0, NaN last.
fn compare_default(x: Ordered, y: Ordered) -> Ordering {
    match (x, y) {
        (Ordered::Int(a), Ordered::Int(b)) => a.cmp(&b),
        (Ordered::Number(a), Ordered::Number(b)) => match (a.is_nan(), b.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ if a == 0.0 && b == 0.0 => b.is_sign_negative().cmp(&a.is_sign_negative()),
            _ => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
        },
        (Ordered::Int(_), Ordered::Number(_)) => Ordering::Less,
        (Ordered::Number(_), Ordered::Int(_)) => Ordering::Greater,
    }
}

/// A stable bottom-up merge sort whose comparison may call into JS and fail.
/// `greater(a, b)` answers whether `a` sorts after `b`. Whatever the answers (an
/// inconsistent comparator), it terminates after O(n log n) comparisons without panicking.
pub(crate) fn merge_sort<T: Copy>(
    vm: &mut Vm,
    items: &mut Vec<T>,
    greater: &mut dyn FnMut(&mut Vm, T, T) -> JsResult<bool>,
) -> JsResult<()> {
    let n = items.len();
    if n < 2 {
        return Ok(());
    }
    let mut buf: Vec<T> = items.clone();
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut l, mut r) = (start, mid);
            for slot in &mut buf[start..end] {
                let take_right = if l >= mid {
                    true
                } else if r >= end {
                    false
                } else {
                    greater(vm, items[l], items[r])?
                };
                if take_right {
                    *slot = items[r];
                    r += 1;
                } else {
                    *slot = items[l];
                    l += 1;
                }
            }
            start = end;
        }
        std::mem::swap(items, &mut buf);
        width *= 2;
    }
    Ok(())
}

/// ### 23.2.3.30 %TypedArray%.prototype.subarray ( start, end )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.subarray
pub(crate) fn subarray(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. Perform ? RequireInternalSlot(O, [[TypedArrayName]]).
    let o = require_typed_array(vm, this, "subarray")?;
    let Some(s) = slots(vm, o) else {
        return Ok(Value::UNDEFINED);
    };
    // 4. Let buffer be O.[[ViewedArrayBuffer]].
    let buffer = s.buffer;
    // 5. Let srcRecord be MakeTypedArrayWithBufferWitnessRecord(O, seq-cst).
    // 6. If IsTypedArrayOutOfBounds(srcRecord), let srcLength be 0; else TypedArrayLength(srcRecord).
    let src_length = record(vm, o).map_or(0, |r| r.length);
    // 7-10. Let startIndex be the relative start clamped to [0, srcLength].
    let start_index = relative(vm, arg(args, 0), src_length, false)?;
    // 11. Let elementSize be TypedArrayElementSize(O).
    let size = element_size(s.kind);
    // 12. Let srcByteOffset be O.[[ByteOffset]].
    // 13. Let beginByteOffset be srcByteOffset + (startIndex × elementSize).
    let begin_byte_offset = s.byte_offset + start_index * size;
    let end = arg(args, 1);
    // 14. If O.[[ArrayLength]] is auto and end is undefined, then
    //     a. Let argumentsList be « buffer, 𝔽(beginByteOffset) ».
    // 15. Else,
    //     a-d. Let endIndex be the relative end (srcLength if undefined), clamped.
    //     e. Let newLength be max(endIndex - startIndex, 0).
    //     f. Let argumentsList be « buffer, 𝔽(beginByteOffset), 𝔽(newLength) ».
    let new_length = if s.length.is_none() && end.is_undefined() {
        None
    } else {
        let end_index = relative(vm, end, src_length, true)?;
        Some(end_index.saturating_sub(start_index))
    };
    // 16. Return ? TypedArraySpeciesCreate(O, argumentsList).
    let mut args_list = vec![Value::object(buffer), Value::number(begin_byte_offset as f64)];
    if let Some(n) = new_length {
        args_list.push(Value::number(n as f64));
    }
    // Fast path: the default species constructs directly (its prototype is not writable).
    let default = intrinsic_constructor(vm, s.kind);
    let constructor = species_constructor(vm, o, default)?;
    if constructor == default {
        let proto = element::kind_prototype(vm, s.kind);
        let length_arg = new_length.map_or(Value::UNDEFINED, |n| Value::number(n as f64));
        let offset_arg = Value::number(begin_byte_offset as f64);
        let r = initialize_typed_array_from_array_buffer(vm, s.kind, proto, buffer, offset_arg, length_arg)?;
        return Ok(Value::object(r));
    }
    let (r, rec) = typed_array_create_from_constructor(vm, constructor, &args_list)?;
    if is_bigint_kind(rec.kind) != is_bigint_kind(s.kind) {
        return Err(vm.type_error("Content type of the species constructor's result does not match"));
    }
    Ok(Value::object(r))
}

/// ### 23.2.3.31 %TypedArray%.prototype.toLocaleString ( [ reserved1 [ , reserved2 ] ] )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.tolocalestring
///
/// Array.prototype.toLocaleString (§23.1.3.32) over TypedArrayLength; like V8, the list
/// separator is "," and the locales and options arguments are passed on (ECMA-402).
pub(crate) fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let array be the this value. 2. Perform ? ValidateTypedArray(array, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "toLocaleString")?;
    // 3. Let len be TypedArrayLength(taRecord).
    let len = rec.length;
    let key = vm.key("toLocaleString");
    // 4-5. Let R be the empty String; separator ",".
    let mut r: Vec<u16> = Vec::new();
    // 6. Repeat, while k < len,
    for k in 0..len {
        // a. If k > 0, set R to the string-concatenation of R and separator.
        if k > 0 {
            r.push(b',' as u16);
        }
        // b. Let nextElement be ? Get(array, ! ToString(𝔽(k))).
        let next = get_element(vm, o, k);
        // c. If nextElement is neither undefined nor null, then
        if !next.is_nullish() {
            // i. Let S be ? ToString(? Invoke(nextElement, "toLocaleString", « locales, options »)).
            let passed: &[Value] = if args.is_empty() { &[] } else { &args[..args.len().min(2)] };
            let s = invoke(vm, next, key, passed)?;
            let s = to_string(vm, s)?;
            // ii. Set R to the string-concatenation of R and S.
            r.extend(vm.heap.flat(s).iter());
        }
        if r.len() > MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
    }
    // 7. Return R.
    Ok(vm.js_str(JsStr::from_units(r)))
}

/// ### 23.2.3.32 %TypedArray%.prototype.toReversed ( )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.toreversed
pub(crate) fn to_reversed(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (_, rec) = this_typed_array(vm, this, "toReversed")?;
    // 3. Let length be TypedArrayLength(taRecord).
    let length = rec.length;
    // 4. Let A be ? TypedArrayCreateSameType(O, « 𝔽(length) »).
    let (a, dst) = typed_array_create_same_type(vm, rec.kind, length)?;
    // 5-6. Repeat, while k < length: Set(A, 𝔽(k), ! Get(O, 𝔽(length - k - 1)), true).
    charge_elements(vm, length)?;
    for k in 0..length {
        let v = read_element(vm, &rec, length - k - 1);
        write_element(vm, &dst, k, v);
    }
    // 7. Return A.
    Ok(Value::object(a))
}

/// ### 23.2.3.33 %TypedArray%.prototype.toSorted ( comparator )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.tosorted
pub(crate) fn to_sorted(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If comparator is not undefined and IsCallable(comparator) is false, throw a TypeError.
    let comparator = check_comparator(vm, arg(args, 0))?;
    // 2-3. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (_, rec) = this_typed_array(vm, this, "toSorted")?;
    // 4. Let len be TypedArrayLength(taRecord).
    // 5. Let A be ? TypedArrayCreateSameType(O, « 𝔽(len) »).
    let (a, _) = typed_array_create_same_type(vm, rec.kind, rec.length)?;
    vm.roots.push(Value::object(a));
    // 6-7. Let sortedList be ? SortIndexedProperties(O, len, SortCompare, read-through-holes).
    let sorted = sort_indexed(vm, rec, comparator)?;
    // 8-9. Repeat, while j < len: Perform ! Set(A, ! ToString(𝔽(j)), sortedList[j], true).
    for (j, n) in sorted.into_iter().enumerate() {
        write_index(vm, a, j, n);
    }
    // 10. Return A.
    Ok(Value::object(a))
}

/// ### 23.2.3.37 %TypedArray%.prototype.values ( )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.values
pub(crate) fn values(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Perform ? ValidateTypedArray(O, seq-cst).
    let (o, _) = this_typed_array(vm, this, "values")?;
    // 3. Return CreateArrayIterator(O, value).
    Ok(create_array_iterator(vm, o, 1))
}

/// ### 23.2.3.36 %TypedArray%.prototype.with ( index, value )
/// https://tc39.es/ecma262/#sec-%typedarray%.prototype.with
pub(crate) fn with(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let taRecord be ? ValidateTypedArray(O, seq-cst).
    let (o, rec) = this_typed_array(vm, this, "with")?;
    // 3. Let len be TypedArrayLength(taRecord).
    let len = rec.length;
    // 4. Let relativeIndex be ? ToIntegerOrInfinity(index).
    let relative_index = to_integer_or_infinity(vm, arg(args, 0))?;
    // 5-6. If relativeIndex ≥ 0, let actualIndex be relativeIndex; else len + relativeIndex.
    let actual_index = if relative_index >= 0.0 { relative_index } else { len as f64 + relative_index };
    // 7-8. Let numericValue be ? ToBigInt(value) or ? ToNumber(value) by content type.
    let numeric_value = to_numeric_for(vm, rec.kind, arg(args, 1))?;
    // 9. If IsValidIntegerIndex(O, 𝔽(actualIndex)) is false, throw a RangeError exception.
    let current = record(vm, o).map_or(0, |r| r.length);
    if actual_index < 0.0 || actual_index >= current as f64 {
        return Err(vm.range_error("Invalid typed array index"));
    }
    let actual_index = actual_index as usize;
    // 10. Let A be ? TypedArrayCreateSameType(O, « 𝔽(len) »).
    let (a, dst) = typed_array_create_same_type(vm, rec.kind, len)?;
    // 11-12. Repeat, while k < len: fromValue is numericValue at actualIndex, else ! Get(O, Pk);
    //        Perform ! Set(A, Pk, fromValue, true).
    charge_elements(vm, len)?;
    let src = record(vm, o);
    for k in 0..len {
        let from_value = if k == actual_index {
            numeric_value
        } else {
            match src {
                Some(s) if k < s.length => read_element(vm, &s, k),
                // NOTE: Get(O, Pk) is undefined past the current length (the buffer shrank
                // during ToNumber(value)): ToNumber gives NaN. ToBigInt(undefined) would throw
                // where the spec asserts it cannot; write 0n instead.
                _ if is_bigint_kind(rec.kind) => Numeric::BigInt(0),
                _ => Numeric::Number(f64::NAN),
            }
        };
        write_element(vm, &dst, k, from_value);
    }
    // 13. Return A.
    Ok(Value::object(a))
}

/// ### 23.2.3.40 get %TypedArray%.prototype [ %Symbol.toStringTag% ]
/// https://tc39.es/ecma262/#sec-get-%typedarray%.prototype-%symbol.tostringtag%
pub(crate) fn to_string_tag(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, return undefined.
    // 3. If O does not have a [[TypedArrayName]] internal slot, return undefined.
    let Some(s) = this.as_object().and_then(|o| slots(vm, o)) else {
        return Ok(Value::UNDEFINED);
    };
    // 4-6. Return O.[[TypedArrayName]].
    Ok(vm.str(kind_name(s.kind)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_order_puts_negative_zero_first_and_nan_last() {
        let mut v = [
            Ordered::Number(f64::NAN),
            Ordered::Number(0.0),
            Ordered::Number(-0.0),
            Ordered::Number(-1.0),
            Ordered::Number(f64::INFINITY),
        ];
        v.sort_by(|&a, &b| compare_default(a, b));
        let shown: Vec<String> = v
            .iter()
            .map(|o| match o {
                Ordered::Number(f) => format!("{f:?}"),
                Ordered::Int(i) => i.to_string(),
            })
            .collect();
        assert_eq!(shown, ["-1.0", "-0.0", "0.0", "inf", "NaN"]);
    }
}
