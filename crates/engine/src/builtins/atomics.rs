//! The Atomics object (ECMA-262 §25.4): https://tc39.es/ecma262/#sec-atomics-object
//!
//! The engine runs a single agent, so every operation is trivially atomic, and the only
//! waiters `Atomics.notify` can wake are this agent's own `Atomics.waitAsync` promises:
//! - `Atomics.wait` answers "not-equal" when the value differs and otherwise "timed-out" at
//!   once, whatever the timeout: no other agent exists that could ever notify a blocked
//!   agent, so blocking would only hang the program.
//! - `Atomics.waitAsync` keeps a waiter list (§25.4.3.x WaiterList) in an internal object
//!   that `waitAsync` and `notify` capture: each waiter is (buffer, byte index, promise
//!   resolve function, timer id). A finite timeout is a virtual timer (`vm.timers`, DESIGN
//!   §6) that resolves the promise to "timed-out"; `Atomics.notify` resolves waiters to "ok"
//!   in FIFO order and cancels their timers.

use crate::atoms::PropertyKey;
use crate::builtins::array_buffer;
use crate::builtins::map::define_to_string_tag;
use crate::builtins::typed_array::element::{
    self, bigint_low_bits, element_size, is_bigint_kind, numeric_to_value, to_bigint, Numeric,
};
use crate::builtins::typed_array::{out_of_bounds, record, slots, to_index_with, TaRecord};
use crate::builtins::{arg, install, make_internal, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{Class, Object, TypedKind};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{call, construct};
use crate::runtime::convert::{f64_to_int32, to_integer_or_infinity, to_number};
use crate::value::{ObjectId, Value};
use crate::vm::{Timer, Vm};

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Atomics.add", 3, add),
    native!("Atomics.and", 3, and),
    native!("Atomics.compareExchange", 4, compare_exchange),
    native!("Atomics.exchange", 3, exchange),
    native!("Atomics.isLockFree", 1, is_lock_free),
    native!("Atomics.load", 2, load),
    native!("Atomics.or", 3, or),
    native!("Atomics.pause", 0, pause),
    native!("Atomics.store", 3, store),
    native!("Atomics.sub", 3, sub),
    native!("Atomics.wait", 4, wait),
    native!("Atomics.waitAsync", 4, wait_async),
    native!("Atomics.notify", 3, notify),
    native!("Atomics.xor", 3, xor),
    native!("%Atomics.waitAsyncExecutor", 2, wait_async_executor),
    native!("%Atomics.waitAsyncTimeout", 0, wait_async_timeout),
];

/// Fields of one waiter in the waiter list: buffer, byte index, resolve, timer id.
const WAITER_FIELDS: usize = 4;

pub(crate) fn init(vm: &mut Vm) {
    // 25.4 The Atomics Object: an ordinary object, [[Prototype]] %Object.prototype%.
    let atomics = vm.new_object();
    let Some(o) = atomics.as_object() else { return };
    install(vm, o, "Atomics", NATIVES);
    // The waiter list, shared by waitAsync and notify through their captures.
    let waiters = vm.heap.alloc_object(Object::new(None, Class::Internal(Vec::new())));
    for name in ["waitAsync", "notify"] {
        let key = vm.key(name);
        let f = vm.heap.obj(o).lookup_named(&vm.heap.shapes, key).and_then(|(f, _)| f.as_object());
        if let Some(f) = f {
            if let Class::Native(n) = &mut vm.heap.obj_mut(f).class {
                n.captures = vec![Value::object(waiters)];
            }
        }
    }
    // 25.4.17 Atomics [ %Symbol.toStringTag% ]
    define_to_string_tag(vm, o, "Atomics");
    let key = vm.key("Atomics");
    let global = vm.global;
    vm.define_builtin(global, key, atomics, PropFlags::HIDDEN);
}

/// ### 25.4.3.1 ValidateIntegerTypedArray ( typedArray, waitable )
/// https://tc39.es/ecma262/#sec-validateintegertypedarray
fn validate_integer_typed_array(vm: &mut Vm, typed_array: Value, waitable: bool) -> JsResult<(ObjectId, TaRecord)> {
    // 1. Let taRecord be ? ValidateTypedArray(typedArray, unordered).
    let Some(o) = typed_array.as_object().filter(|&o| slots(vm, o).is_some()) else {
        return Err(vm.type_error("[object Object] is not an integer shared typed array."));
    };
    let Some(rec) = record(vm, o) else {
        return Err(out_of_bounds(vm, "Atomics operation"));
    };
    // 2. NOTE: Bounds checking is not a synchronizing operation when typedArray's backing
    //    buffer is a growable SharedArrayBuffer.
    let ok = if waitable {
        // 3. If waitable is true, then
        //    a. If typedArray.[[TypedArrayName]] is neither "Int32Array" nor "BigInt64Array",
        //       throw a TypeError exception.
        matches!(rec.kind, TypedKind::Int32 | TypedKind::BigInt64)
    } else {
        // 4. Else,
        //    a. Let type be TypedArrayElementType(typedArray).
        //    b. If IsUnclampedIntegerElementType(type) is false and IsBigIntElementType(type)
        //       is false, throw a TypeError exception.
        !matches!(rec.kind, TypedKind::Uint8Clamped | TypedKind::Float16 | TypedKind::Float32 | TypedKind::Float64)
    };
    if !ok {
        let what = if waitable { "an Int32Array or BigInt64Array" } else { "an integer typed array" };
        return Err(vm.type_error(format!("Atomics operations require {what}")));
    }
    // 5. Return taRecord.
    Ok((o, rec))
}

/// ### 25.4.3.2 ValidateAtomicAccess ( taRecord, requestIndex )
/// https://tc39.es/ecma262/#sec-validateatomicaccess
fn validate_atomic_access(vm: &mut Vm, rec: &TaRecord, request_index: Value) -> JsResult<usize> {
    // 1. Let length be TypedArrayLength(taRecord).
    let length = rec.length;
    // 2. Let accessIndex be ? ToIndex(requestIndex).
    let access_index = to_index_with(vm, request_index, |_| "Invalid atomic access index".into())?;
    // 3. Assert: accessIndex ≥ 0.
    // 4. If accessIndex ≥ length, throw a RangeError exception.
    if access_index >= length as u64 {
        return Err(vm.range_error("Invalid atomic access index"));
    }
    // 5-7. Return (accessIndex × elementSize) + offset.
    Ok(access_index as usize * element_size(rec.kind) + rec.byte_offset)
}

/// ### 25.4.3.3 ValidateAtomicAccessOnIntegerTypedArray ( typedArray, requestIndex [ , waitable ] )
fn validate_atomic_access_on_integer_typed_array(
    vm: &mut Vm,
    typed_array: Value,
    request_index: Value,
    waitable: bool,
) -> JsResult<(ObjectId, TaRecord, usize)> {
    // 1-2. Let taRecord be ? ValidateIntegerTypedArray(typedArray, waitable).
    let (o, rec) = validate_integer_typed_array(vm, typed_array, waitable)?;
    // 3. Return ? ValidateAtomicAccess(taRecord, requestIndex).
    let byte_index = validate_atomic_access(vm, &rec, request_index)?;
    Ok((o, rec, byte_index))
}

/// ### 25.4.3.4 RevalidateAtomicAccess ( typedArray, byteIndexInBuffer )
/// https://tc39.es/ecma262/#sec-revalidateatomicaccess
fn revalidate_atomic_access(vm: &mut Vm, o: ObjectId, byte_index: usize) -> JsResult<TaRecord> {
    // 1. Let taRecord be MakeTypedArrayWithBufferWitnessRecord(typedArray, unordered).
    // 2. NOTE: Bounds checking is not a synchronizing operation.
    // 3. If IsTypedArrayOutOfBounds(taRecord) is true, throw a TypeError exception.
    let Some(rec) = record(vm, o) else {
        return Err(out_of_bounds(vm, "Atomics operation"));
    };
    // 4. Assert: byteIndexInBuffer ≥ typedArray.[[ByteOffset]].
    // 5. If byteIndexInBuffer ≥ taRecord.[[CachedBufferByteLength]], throw a RangeError exception.
    let buffer_length = array_buffer::byte_length(vm, rec.buffer).unwrap_or(0);
    if byte_index >= buffer_length {
        return Err(vm.range_error("Invalid atomic access index"));
    }
    // 6. Return unused.
    Ok(rec)
}

/// The value conversion of the read-modify-write operations: ToBigInt for bigint content,
/// else 𝔽(? ToIntegerOrInfinity(value)). Also returns the converted JS value.
fn to_atomic_operand(vm: &mut Vm, kind: TypedKind, value: Value) -> JsResult<(Numeric, Value)> {
    if is_bigint_kind(kind) {
        let b = to_bigint(vm, value)?;
        Ok((Numeric::BigInt(bigint_low_bits(vm.heap.bigint(b))), Value::bigint(b)))
    } else {
        let v = to_integer_or_infinity(vm, value)?;
        Ok((Numeric::Number(v), Value::number(v)))
    }
}

/// Load the raw element bits at a byte index.
fn load_raw(vm: &Vm, rec: &TaRecord, byte_index: usize) -> u64 {
    let bytes = array_buffer::bytes(vm, rec.buffer).unwrap_or(&[]);
    element::read_raw(bytes, byte_index, element_size(rec.kind), true)
}

/// Store raw element bits at a byte index.
fn store_raw(vm: &mut Vm, rec: &TaRecord, byte_index: usize, raw: u64) {
    let size = element_size(rec.kind);
    if let Some(bytes) = array_buffer::bytes_mut(vm, rec.buffer) {
        element::write_raw(bytes, byte_index, size, raw, true);
    }
}

/// ### 25.4.3.17 AtomicReadModifyWrite ( typedArray, index, value, op )
/// https://tc39.es/ecma262/#sec-atomicreadmodifywrite
fn atomic_read_modify_write(vm: &mut Vm, args: &[Value], op: fn(u64, u64) -> u64) -> JsResult<Value> {
    // 1. Let byteIndexInBuffer be ? ValidateAtomicAccessOnIntegerTypedArray(typedArray, index).
    let (o, rec, byte_index) = validate_atomic_access_on_integer_typed_array(vm, arg(args, 0), arg(args, 1), false)?;
    // 2-3. Let v be ? ToBigInt(value) or 𝔽(? ToIntegerOrInfinity(value)).
    let (v, _) = to_atomic_operand(vm, rec.kind, arg(args, 2))?;
    // 4. Perform ? RevalidateAtomicAccess(typedArray, byteIndexInBuffer).
    let rec = revalidate_atomic_access(vm, o, byte_index)?;
    // 5-9. Return GetModifySetValueInBuffer(buffer, byteIndexInBuffer, elementType, v, op):
    //      the old value; the new raw bytes are op(old bytes, NumericToRawBytes(v)).
    let size = element_size(rec.kind);
    let mask = if size == 8 { u64::MAX } else { (1u64 << (size * 8)) - 1 };
    let old = load_raw(vm, &rec, byte_index);
    let operand = element::encode(rec.kind, v);
    store_raw(vm, &rec, byte_index, op(old, operand) & mask);
    let n = element::decode(rec.kind, old);
    Ok(numeric_to_value(vm, rec.kind, n))
}

/// ### 25.4.4 Atomics.add ( typedArray, index, value )
/// https://tc39.es/ecma262/#sec-atomics.add
fn add(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let type be TypedArrayElementType(typedArray).
    // 2-3. Let add be a new read-modify-write modification function that adds the raw
    //      values (wrapping, as the raw-bytes integers do).
    // 4. Return ? AtomicReadModifyWrite(typedArray, index, value, add).
    atomic_read_modify_write(vm, args, u64::wrapping_add)
}

/// ### 25.4.5 Atomics.and ( typedArray, index, value )
/// https://tc39.es/ecma262/#sec-atomics.and
fn and(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Return ? AtomicReadModifyWrite(typedArray, index, value, ByteListBitwiseOp(&)).
    atomic_read_modify_write(vm, args, |a, b| a & b)
}

/// ### 25.4.6 Atomics.compareExchange ( typedArray, index, expectedValue, replacementValue )
/// https://tc39.es/ecma262/#sec-atomics.compareexchange
fn compare_exchange(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let byteIndexInBuffer be ? ValidateAtomicAccessOnIntegerTypedArray(typedArray, index).
    let (o, rec, byte_index) = validate_atomic_access_on_integer_typed_array(vm, arg(args, 0), arg(args, 1), false)?;
    // 2-5. Convert expectedValue, then replacementValue (ToBigInt or ToIntegerOrInfinity).
    let (expected, _) = to_atomic_operand(vm, rec.kind, arg(args, 2))?;
    let (replacement, _) = to_atomic_operand(vm, rec.kind, arg(args, 3))?;
    // 6. Perform ? RevalidateAtomicAccess(typedArray, byteIndexInBuffer).
    let rec = revalidate_atomic_access(vm, o, byte_index)?;
    // 7-12. Let expectedBytes and replacementBytes be NumericToRawBytes of each.
    let expected_bytes = element::encode(rec.kind, expected);
    let replacement_bytes = element::encode(rec.kind, replacement);
    // 13-14. Atomically: if the raw bytes equal expectedBytes, store replacementBytes.
    let raw = load_raw(vm, &rec, byte_index);
    if raw == expected_bytes {
        store_raw(vm, &rec, byte_index, replacement_bytes);
    }
    // 15. Return RawBytesToNumeric(elementType, rawBytesRead, isLittleEndian).
    let n = element::decode(rec.kind, raw);
    Ok(numeric_to_value(vm, rec.kind, n))
}

/// ### 25.4.7 Atomics.exchange ( typedArray, index, value )
/// https://tc39.es/ecma262/#sec-atomics.exchange
fn exchange(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Return ? AtomicReadModifyWrite(typedArray, index, value, second).
    atomic_read_modify_write(vm, args, |_, b| b)
}

/// ### 25.4.8 Atomics.isLockFree ( size )
/// https://tc39.es/ecma262/#sec-atomics.islockfree
fn is_lock_free(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToIntegerOrInfinity(size).
    let n = to_integer_or_infinity(vm, arg(args, 0))?;
    // 2-6. 1, 2, 4 and 8 byte accesses are lock-free (as on every 64-bit host V8 runs on);
    //      AR.[[IsLockFree4]] is always true.
    Ok(Value::bool(n == 1.0 || n == 2.0 || n == 4.0 || n == 8.0))
}

/// ### 25.4.9 Atomics.load ( typedArray, index )
/// https://tc39.es/ecma262/#sec-atomics.load
fn load(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let byteIndexInBuffer be ? ValidateAtomicAccessOnIntegerTypedArray(typedArray, index).
    let (o, _, byte_index) = validate_atomic_access_on_integer_typed_array(vm, arg(args, 0), arg(args, 1), false)?;
    // 2. Perform ? RevalidateAtomicAccess(typedArray, byteIndexInBuffer).
    let rec = revalidate_atomic_access(vm, o, byte_index)?;
    // 3-5. Return GetValueFromBuffer(buffer, byteIndexInBuffer, elementType, true, seq-cst).
    let n = element::decode(rec.kind, load_raw(vm, &rec, byte_index));
    Ok(numeric_to_value(vm, rec.kind, n))
}

/// ### 25.4.10 Atomics.or ( typedArray, index, value )
/// https://tc39.es/ecma262/#sec-atomics.or
fn or(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Return ? AtomicReadModifyWrite(typedArray, index, value, ByteListBitwiseOp(|)).
    atomic_read_modify_write(vm, args, |a, b| a | b)
}

/// ### 25.4.11 Atomics.pause ( [ N ] )
/// https://tc39.es/ecma262/#sec-atomics.pause
fn pause(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let n = arg(args, 0);
    // 1. If N is neither undefined nor an integral Number, throw a TypeError exception.
    if !n.is_undefined() {
        let integral = n.as_number().is_some_and(|f| f.is_finite() && f.trunc() == f);
        if !integral {
            return Err(vm.type_error("Atomics.pause argument must be undefined or an integer"));
        }
    }
    // 2-3. The host may spin-wait hint; a single agent has nothing to wait for.
    // 4. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 25.4.12 Atomics.store ( typedArray, index, value )
/// https://tc39.es/ecma262/#sec-atomics.store
fn store(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let byteIndexInBuffer be ? ValidateAtomicAccessOnIntegerTypedArray(typedArray, index).
    let (o, rec, byte_index) = validate_atomic_access_on_integer_typed_array(vm, arg(args, 0), arg(args, 1), false)?;
    // 2-3. Let v be ? ToBigInt(value) or 𝔽(? ToIntegerOrInfinity(value)).
    let (v, shown) = to_atomic_operand(vm, rec.kind, arg(args, 2))?;
    // 4. Perform ? RevalidateAtomicAccess(typedArray, byteIndexInBuffer).
    let rec = revalidate_atomic_access(vm, o, byte_index)?;
    // 5-7. Perform SetValueInBuffer(buffer, byteIndexInBuffer, elementType, v, true, seq-cst).
    store_raw(vm, &rec, byte_index, element::encode(rec.kind, v));
    // 8. Return v.
    Ok(shown)
}

/// ### 25.4.13 Atomics.sub ( typedArray, index, value )
/// https://tc39.es/ecma262/#sec-atomics.sub
fn sub(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-4. Return ? AtomicReadModifyWrite(typedArray, index, value, subtract).
    atomic_read_modify_write(vm, args, u64::wrapping_sub)
}

/// ### 25.4.14 Atomics.wait ( typedArray, index, value, timeout )
/// https://tc39.es/ecma262/#sec-atomics.wait
fn wait(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Return ? DoWait(sync, typedArray, index, value, timeout).
    let outcome = do_wait(vm, args)?;
    Ok(vm.str(outcome.text()))
}

/// ### 25.4.15 Atomics.waitAsync ( typedArray, index, value, timeout )
/// https://tc39.es/ecma262/#sec-atomics.waitasync
fn wait_async(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let waiters = vm.native_captures().first().copied().unwrap_or(Value::UNDEFINED);
    // 1. Return ? DoWait(async, typedArray, index, value, timeout).
    let outcome = do_wait(vm, args)?;
    // DoWait 16. Let resultObject be OrdinaryObjectCreate(%Object.prototype%).
    let result = vm.new_object();
    let Some(ro) = result.as_object() else {
        return Ok(result);
    };
    vm.roots.push(result);
    let (is_async, value) = match outcome {
        // 17. If v ≠ w: { async: false, value: "not-equal" }.
        WaitOutcome::NotEqual => (false, vm.str("not-equal")),
        // 18. If t = 0 and mode is async: { async: false, value: "timed-out" }.
        WaitOutcome::TimedOut { timeout: 0.0, .. } => (false, vm.str("timed-out")),
        // 19-31. Otherwise add a waiter with a new promise capability (the executor records
        //        it in the waiter list and arms the timeout); { async: true, value: promise }.
        WaitOutcome::TimedOut { buffer, byte_index, timeout } => {
            let captures =
                vec![waiters, Value::object(buffer), Value::number(byte_index as f64), Value::number(timeout)];
            let executor = make_internal(vm, "%Atomics.waitAsyncExecutor", 2, captures);
            let promise_ctor = Value::object(vm.realm.promise_constructor);
            let promise = construct(vm, promise_ctor, &[Value::object(executor)], None)?;
            (true, promise)
        }
    };
    let async_key = vm.key("async");
    let value_key = PropertyKey::Atom(crate::atoms::atom::value);
    vm.define_builtin(ro, async_key, Value::bool(is_async), PropFlags::DEFAULT);
    vm.define_builtin(ro, value_key, value, PropFlags::DEFAULT);
    // 32. Return resultObject.
    Ok(result)
}

/// The executor of a waitAsync promise: appends the waiter to the waiter list and, for a
/// finite timeout, arms a virtual timer that resolves the promise to "timed-out".
/// Captures: waiter list, buffer, byte index, timeout.
fn wait_async_executor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let captures = vm.native_captures();
    let (Some(&list), Some(&buffer), Some(&index), Some(&timeout)) =
        (captures.first(), captures.get(1), captures.get(2), captures.get(3))
    else {
        return Ok(Value::UNDEFINED);
    };
    let resolve = arg(args, 0);
    let timeout = timeout.as_number().unwrap_or(f64::INFINITY);
    let mut timer_id = Value::UNDEFINED;
    if timeout.is_finite() {
        // DoWait 28. If t is finite, the waiter times out after t milliseconds.
        let id = vm.next_timer_id;
        vm.next_timer_id += 1;
        let callback = make_internal(vm, "%Atomics.waitAsyncTimeout", 0, vec![list, resolve]);
        let due = vm.clock_ms + timeout;
        vm.timers.push(Timer {
            id,
            due,
            callback: Value::object(callback),
            args: Vec::new(),
            interval: None,
            immediate: false,
        });
        timer_id = Value::number(id as f64);
    }
    // DoWait 26. Perform AddWaiter(WL, waiterRecord).
    if let Some(Class::Internal(entries)) = list.as_object().map(|l| &mut vm.heap.obj_mut(l).class) {
        entries.extend([buffer, index, resolve, timer_id]);
    }
    Ok(Value::UNDEFINED)
}

/// A waitAsync timeout: if the waiter is still in the list, remove it and resolve its promise
/// to "timed-out" (DoWait's TimeoutWaiter). Captures: waiter list, resolve.
fn wait_async_timeout(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let captures = vm.native_captures();
    let (Some(&list), Some(&resolve)) = (captures.first(), captures.get(1)) else {
        return Ok(Value::UNDEFINED);
    };
    let mut found = false;
    if let Some(Class::Internal(entries)) = list.as_object().map(|l| &mut vm.heap.obj_mut(l).class) {
        if let Some(i) = (0..entries.len() / WAITER_FIELDS).find(|&i| entries[i * WAITER_FIELDS + 2] == resolve) {
            entries.drain(i * WAITER_FIELDS..(i + 1) * WAITER_FIELDS);
            found = true;
        }
    }
    if found {
        let timed_out = vm.str("timed-out");
        call(vm, resolve, Value::UNDEFINED, &[timed_out])?;
    }
    Ok(Value::UNDEFINED)
}

/// What DoWait decided, in a world of one agent.
#[derive(Clone, Copy, PartialEq, Debug)]
enum WaitOutcome {
    NotEqual,
    /// The value matched: a waiter on `byte_index` of `buffer` for `timeout` milliseconds
    /// (+∞ for none). A synchronous wait times out at once: nobody could notify it.
    TimedOut {
        buffer: ObjectId,
        byte_index: usize,
        timeout: f64,
    },
}

impl WaitOutcome {
    fn text(self) -> &'static str {
        match self {
            WaitOutcome::NotEqual => "not-equal",
            WaitOutcome::TimedOut { .. } => "timed-out",
        }
    }
}

/// ### 25.4.3.14 DoWait ( mode, typedArray, index, value, timeout )
/// https://tc39.es/ecma262/#sec-dowait
fn do_wait(vm: &mut Vm, args: &[Value]) -> JsResult<WaitOutcome> {
    // 1. Let taRecord be ? ValidateIntegerTypedArray(typedArray, true).
    let (_, rec) = validate_integer_typed_array(vm, arg(args, 0), true)?;
    // 2. Let buffer be taRecord.[[Object]].[[ViewedArrayBuffer]].
    // 3. If IsSharedArrayBuffer(buffer) is false, throw a TypeError exception.
    if !array_buffer::is_shared(vm, rec.buffer) {
        return Err(vm.type_error("Atomics.wait cannot be called on a non-shared ArrayBuffer"));
    }
    // 4. Let i be ? ValidateAtomicAccess(taRecord, index).
    let byte_index = validate_atomic_access(vm, &rec, arg(args, 1))?;
    // 5-7. Let v be ? ToBigInt64(value) (BigInt64Array) or ? ToInt32(value).
    let v = if rec.kind == TypedKind::BigInt64 {
        let b = to_bigint(vm, arg(args, 2))?;
        bigint_low_bits(vm.heap.bigint(b))
    } else {
        let n = to_number(vm, arg(args, 2))?;
        f64_to_int32(n) as u32 as u64
    };
    // 8. Let q be ? ToNumber(timeout).
    let q = to_number(vm, arg(args, 3))?;
    // 9. If q is NaN or +∞𝔽, let t be +∞; else if q is -∞𝔽, let t be 0; else max(ℝ(q), 0).
    let t = if q.is_nan() { f64::INFINITY } else { q.max(0.0) };
    // 10. If mode is sync and AgentCanSuspend() is false, throw a TypeError exception.
    //     (This agent may suspend, as Node's main thread may.)
    // 11-15. Enter the critical section; read w = GetValueFromBuffer(buffer, byteIndexInBuffer).
    //        (A SharedArrayBuffer never detaches or shrinks, so the index is still valid.)
    let w = load_raw(vm, &rec, byte_index);
    // 16-17. If v ≠ w, leave the critical section and answer "not-equal".
    if v != w {
        return Ok(WaitOutcome::NotEqual);
    }
    // 18-31. Otherwise wait (see WaitOutcome).
    Ok(WaitOutcome::TimedOut { buffer: rec.buffer, byte_index, timeout: t })
}

/// ### 25.4.16 Atomics.notify ( typedArray, index, count )
/// https://tc39.es/ecma262/#sec-atomics.notify
fn notify(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let list = vm.native_captures().first().copied().unwrap_or(Value::UNDEFINED);
    // 1. Let taRecord be ? ValidateIntegerTypedArray(typedArray, true).
    let (_, rec) = validate_integer_typed_array(vm, arg(args, 0), true)?;
    // 2. Let byteIndexInBuffer be ? ValidateAtomicAccess(taRecord, index).
    let byte_index = validate_atomic_access(vm, &rec, arg(args, 1))?;
    // 3. If count is undefined, let c be +∞.
    // 4. Else, let intCount be ? ToIntegerOrInfinity(count); let c be max(intCount, 0).
    let count = arg(args, 2);
    let c = if count.is_undefined() { f64::INFINITY } else { to_integer_or_infinity(vm, count)?.max(0.0) };
    // 5-6. If IsSharedArrayBuffer(buffer) is false, return +0𝔽.
    if !array_buffer::is_shared(vm, rec.buffer) {
        return Ok(Value::int(0));
    }
    // 7-11. Remove up to c waiters on (block, byteIndexInBuffer), in list order.
    let mut woken: Vec<Value> = Vec::new();
    let mut timers: Vec<Value> = Vec::new();
    if let Some(Class::Internal(entries)) = list.as_object().map(|l| &mut vm.heap.obj_mut(l).class) {
        let mut i = 0;
        while i + WAITER_FIELDS <= entries.len() && (woken.len() as f64) < c {
            let matches =
                entries[i] == Value::object(rec.buffer) && entries[i + 1].as_number() == Some(byte_index as f64);
            if matches {
                let removed: Vec<Value> = entries.drain(i..i + WAITER_FIELDS).collect();
                woken.push(removed[2]);
                timers.push(removed[3]);
            } else {
                i += WAITER_FIELDS;
            }
        }
    }
    // NotifyWaiter: cancel the timeout, then resolve the promise to "ok".
    for t in timers {
        if let Some(id) = t.as_number() {
            vm.timers.retain(|timer| timer.id as f64 != id);
        }
    }
    let n = woken.len();
    vm.roots.extend_from_slice(&woken);
    for resolve in woken {
        let ok = vm.str("ok");
        call(vm, resolve, Value::UNDEFINED, &[ok])?;
    }
    // 12. Return 𝔽(n).
    Ok(Value::number(n as f64))
}

/// ### 25.4.17 Atomics.xor ( typedArray, index, value )
/// https://tc39.es/ecma262/#sec-atomics.xor
fn xor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Return ? AtomicReadModifyWrite(typedArray, index, value, ByteListBitwiseOp(^)).
    atomic_read_modify_write(vm, args, |a, b| a ^ b)
}
