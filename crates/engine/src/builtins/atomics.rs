//! The Atomics object (ECMA-262 §25.4): https://tc39.es/ecma262/#sec-atomics-object
//!
//! On a SharedArrayBuffer the operations act on its `SharedBlock` (`heap/shared_block.rs`),
//! which other agents (an embedder's threads) may hold: loads, stores and read-modify-writes
//! are sequentially consistent atomic operations there, and the block keeps the waiter list
//! (§25.4.3 WaiterList Records) that `wait`, `waitAsync` and `notify` share across agents.
//! On an ordinary ArrayBuffer only one agent can see the memory, so plain accesses are
//! atomic enough.
//! - `Atomics.wait` blocks the thread until notified, timed out or cancelled
//!   (`AgentSignal::cancel`). When no other agent holds the block nothing could notify it, so
//!   it answers "timed-out" at once instead of hanging the only agent.
//! - `Atomics.waitAsync` returns a promise. Its waiter record lives half in the VM
//!   (`Vm::async_waiters`: token, location, promise, timer; it rides the image) and half in
//!   the block's list (the token). A finite timeout is a virtual timer (DESIGN §6). A notify
//!   from this agent settles the promise at once; one from another agent posts the token to
//!   this agent's `AgentSignal`, and the embedder's event loop settles it
//!   (`Vm::take_agent_signals`).

use crate::atoms::PropertyKey;
use crate::builtins::array_buffer;
use crate::builtins::map::define_to_string_tag;
use crate::builtins::typed_array::element::{
    self, bigint_low_bits, element_size, is_bigint_kind, numeric_to_value, to_bigint, Numeric,
};
use crate::builtins::typed_array::{out_of_bounds, record, slots, to_index_with, TaRecord};
use crate::builtins::{arg, install, make_internal, NativeDef};
use crate::error::JsResult;
use crate::heap::object::TypedKind;
use crate::heap::shape::PropFlags;
use crate::heap::shared_block::WaitResult;
use crate::native;
use crate::runtime::convert::{f64_to_int32, to_integer_or_infinity, to_number};
use crate::value::{ObjectId, Value};
use crate::vm::{Timer, Vm};
use serde::{Deserialize, Serialize};
use std::time::Duration;

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
    native!("%Atomics.waitAsyncTimeout", 0, wait_async_timeout),
];

pub(crate) fn init(vm: &mut Vm) {
    // 25.4 The Atomics Object: an ordinary object, [[Prototype]] %Object.prototype%.
    let atomics = vm.new_object();
    let Some(o) = atomics.as_object() else { return };
    install(vm, o, "Atomics", NATIVES);
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

/// Load the raw element bits at a byte index (sequentially consistent on shared memory).
fn load_raw(vm: &Vm, rec: &TaRecord, byte_index: usize) -> u64 {
    let size = element_size(rec.kind);
    match array_buffer::bytes(vm, rec.buffer) {
        Some(array_buffer::Bytes::Shared(block)) => block.load(byte_index, size),
        Some(bytes) => bytes.read_raw(byte_index, size, true),
        None => 0,
    }
}

/// Replace the raw element bits at a byte index with `f(old)` as one atomic step; answers
/// the old bits. `f` may run more than once on shared memory.
fn modify_raw(vm: &mut Vm, rec: &TaRecord, byte_index: usize, f: impl Fn(u64) -> u64) -> u64 {
    let size = element_size(rec.kind);
    if let Some(block) = array_buffer::shared_block(vm, rec.buffer) {
        return block.update(byte_index, size, f);
    }
    let old = load_raw(vm, rec, byte_index);
    array_buffer::write_raw(vm, rec.buffer, byte_index, size, f(old), true);
    old
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
    let operand = element::encode(rec.kind, v);
    let old = modify_raw(vm, &rec, byte_index, |old| op(old, operand) & mask);
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
    let raw = modify_raw(vm, &rec, byte_index, |raw| if raw == expected_bytes { replacement_bytes } else { raw });
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
    // 2-3. A spin-wait hint for the processor.
    std::hint::spin_loop();
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
    let raw = element::encode(rec.kind, v);
    modify_raw(vm, &rec, byte_index, |_| raw);
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
    let w = do_wait(vm, args)?;
    let Some(block) = array_buffer::shared_block(vm, w.buffer) else {
        return Err(vm.type_error("Atomics.wait cannot be called on a non-shared ArrayBuffer"));
    };
    // 11-17. In the critical section, compare the value ("not-equal" if it differs).
    // 18-31. Suspend until notified ("ok") or the timeout passes ("timed-out"). When no other
    //        agent holds the block, nothing could ever notify: the wait times out at once
    //        rather than hang (or sleep) the only agent.
    let result = if block.held_elsewhere() {
        let timeout = w.timeout.is_finite().then(|| Duration::from_secs_f64(w.timeout / 1000.0));
        block.wait(w.byte_index, w.size, w.value, timeout, &vm.agent)
    } else if block.load(w.byte_index, w.size) != w.value {
        WaitResult::NotEqual
    } else {
        WaitResult::TimedOut
    };
    Ok(vm.str(wait_result_text(result)))
}

fn wait_result_text(r: WaitResult) -> &'static str {
    match r {
        WaitResult::NotEqual => "not-equal",
        WaitResult::Woken => "ok",
        WaitResult::TimedOut => "timed-out",
    }
}

/// ### 25.4.15 Atomics.waitAsync ( typedArray, index, value, timeout )
/// https://tc39.es/ecma262/#sec-atomics.waitasync
fn wait_async(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Return ? DoWait(async, typedArray, index, value, timeout).
    let w = do_wait(vm, args)?;
    // 11-26. In the critical section: "not-equal" if the value differs, "timed-out" at once
    //        for a zero timeout, else a waiter record (known to the block by its token).
    let token = vm.next_timer_id;
    vm.next_timer_id += 1;
    let zero = w.timeout == 0.0;
    let Some(block) = array_buffer::shared_block(vm, w.buffer) else {
        return Err(vm.type_error("Atomics.waitAsync cannot be called on a non-shared ArrayBuffer"));
    };
    let outcome = block.wait_async(w.byte_index, w.size, w.value, zero, &vm.agent, token);
    // 16. Let resultObject be OrdinaryObjectCreate(%Object.prototype%).
    let result = vm.new_object();
    let Some(ro) = result.as_object() else {
        return Ok(result);
    };
    vm.roots.push(result);
    let (is_async, value) = match outcome {
        // 17-18. { async: false, value: "not-equal" | "timed-out" }.
        WaitResult::NotEqual | WaitResult::TimedOut => (false, vm.str(wait_result_text(outcome))),
        // 19-31. A new promise, settled when the waiter is notified or times out (a virtual
        //        timer, DESIGN §6); { async: true, value: promise }.
        WaitResult::Woken => {
            let promise = crate::builtins::promise::new_promise(vm);
            let timer = w.timeout.is_finite().then(|| {
                let id = vm.next_timer_id;
                vm.next_timer_id += 1;
                let captures = vec![Value::number(token as f64)];
                let callback = make_internal(vm, "%Atomics.waitAsyncTimeout", 0, captures);
                let due = vm.clock_ms + w.timeout;
                vm.timers.push(Timer {
                    id,
                    due,
                    callback: Value::object(callback),
                    this: Value::UNDEFINED,
                    args: Vec::new(),
                    interval: None,
                    immediate: false,
                });
                id
            });
            vm.async_waiters.push(AsyncWaiter { token, buffer: w.buffer, byte_index: w.byte_index, promise, timer });
            (true, Value::object(promise))
        }
    };
    let async_key = vm.key("async");
    let value_key = PropertyKey::Atom(crate::atoms::atom::value);
    vm.define_builtin(ro, async_key, Value::bool(is_async), PropFlags::DEFAULT);
    vm.define_builtin(ro, value_key, value, PropFlags::DEFAULT);
    // 32. Return resultObject.
    Ok(result)
}

/// A waitAsync timeout (DoWait's TimeoutWaiter): if the waiter is still in the block's list,
/// take it out and settle its promise to "timed-out". If a notify took it first, the "ok"
/// is on its way. Captures: the waiter's token.
fn wait_async_timeout(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let Some(token) = vm.native_captures().first().and_then(|t| t.as_number()) else {
        return Ok(Value::UNDEFINED);
    };
    let token = token as u64;
    let Some(at) = vm.async_waiters.iter().position(|w| w.token == token) else {
        return Ok(Value::UNDEFINED);
    };
    let buffer = vm.async_waiters[at].buffer;
    let left = array_buffer::shared_block(vm, buffer).is_none_or(|b| b.leave_async(&vm.agent, token));
    if left {
        let waiter = vm.async_waiters.remove(at);
        let timed_out = vm.str("timed-out");
        crate::builtins::promise::resolve_promise(vm, waiter.promise, timed_out)?;
    }
    Ok(Value::UNDEFINED)
}

/// NotifyWaiter for this agent's async waiter `token`: cancel its timeout and settle its
/// promise to "ok".
fn settle_notified(vm: &mut Vm, token: u64) -> JsResult<()> {
    let Some(at) = vm.async_waiters.iter().position(|w| w.token == token) else {
        return Ok(());
    };
    let waiter = vm.async_waiters.remove(at);
    if let Some(id) = waiter.timer {
        vm.timers.retain(|t| t.id != id);
    }
    let ok = vm.str("ok");
    crate::builtins::promise::resolve_promise(vm, waiter.promise, ok)
}

/// Settles the async waiters other agents have notified since the last look; answers
/// whether there were any. See [`Vm::take_agent_signals`].
pub(crate) fn settle_posted(vm: &mut Vm) -> JsResult<bool> {
    let tokens = vm.agent.take();
    for &token in &tokens {
        settle_notified(vm, token)?;
    }
    Ok(!tokens.is_empty())
}

/// A restored VM's async waiters wait on blocks of their own: put them back in the blocks'
/// waiter lists (in their original order).
pub(crate) fn rejoin_waiters(vm: &Vm) {
    for w in &vm.async_waiters {
        if let Some(block) = array_buffer::shared_block(vm, w.buffer) {
            block.rejoin_async(w.byte_index, &vm.agent, w.token);
        }
    }
}

/// A pending `Atomics.waitAsync` of this agent: the VM's half of DoWait's waiter record (the
/// block's waiter list holds the token).
#[derive(Clone, Serialize, Deserialize, Debug)]
pub struct AsyncWaiter {
    pub token: u64,
    pub buffer: ObjectId,
    pub byte_index: usize,
    pub promise: ObjectId,
    /// The virtual timer of a finite timeout.
    pub timer: Option<u64>,
}

/// DoWait's validated operands: the location and the value expected there.
struct WaitOn {
    /// A SharedArrayBuffer.
    buffer: ObjectId,
    byte_index: usize,
    size: usize,
    value: u64,
    /// Milliseconds; +∞ for none.
    timeout: f64,
}

/// ### 25.4.3.14 DoWait ( mode, typedArray, index, value, timeout ), steps 1-10
/// https://tc39.es/ecma262/#sec-dowait
fn do_wait(vm: &mut Vm, args: &[Value]) -> JsResult<WaitOn> {
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
    let value = if rec.kind == TypedKind::BigInt64 {
        let b = to_bigint(vm, arg(args, 2))?;
        bigint_low_bits(vm.heap.bigint(b))
    } else {
        let n = to_number(vm, arg(args, 2))?;
        f64_to_int32(n) as u32 as u64
    };
    // 8. Let q be ? ToNumber(timeout).
    let q = to_number(vm, arg(args, 3))?;
    // 9. If q is NaN or +∞𝔽, let t be +∞; else if q is -∞𝔽, let t be 0; else max(ℝ(q), 0).
    let timeout = if q.is_nan() { f64::INFINITY } else { q.max(0.0) };
    // 10. If mode is sync and AgentCanSuspend() is false, throw a TypeError exception.
    //     (Every agent may suspend, as Node's main thread may.)
    Ok(WaitOn { buffer: rec.buffer, byte_index, size: element_size(rec.kind), value, timeout })
}

/// ### 25.4.16 Atomics.notify ( typedArray, index, count )
/// https://tc39.es/ecma262/#sec-atomics.notify
fn notify(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let taRecord be ? ValidateIntegerTypedArray(typedArray, true).
    let (_, rec) = validate_integer_typed_array(vm, arg(args, 0), true)?;
    // 2. Let byteIndexInBuffer be ? ValidateAtomicAccess(taRecord, index).
    let byte_index = validate_atomic_access(vm, &rec, arg(args, 1))?;
    // 3. If count is undefined, let c be +∞.
    // 4. Else, let intCount be ? ToIntegerOrInfinity(count); let c be max(intCount, 0).
    let count = arg(args, 2);
    let c = if count.is_undefined() { f64::INFINITY } else { to_integer_or_infinity(vm, count)?.max(0.0) };
    // 5-6. If IsSharedArrayBuffer(buffer) is false, return +0𝔽.
    let Some(block) = array_buffer::shared_block(vm, rec.buffer) else {
        return Ok(Value::int(0));
    };
    // 7-11. Remove up to c waiters on (block, byteIndexInBuffer) in list order and notify
    //       each: blocked agents resume, other agents' promises are posted to them, and this
    //       agent's own are settled here.
    let (n, mine) = block.notify(byte_index, c, &vm.agent);
    for token in mine {
        settle_notified(vm, token)?;
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
