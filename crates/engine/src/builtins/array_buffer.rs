//! ArrayBuffer (ECMA-262 §25.1) and SharedArrayBuffer (§25.2) objects, with resizable and
//! growable buffers: https://tc39.es/ecma262/#sec-arraybuffer-objects
//!
//! Also home of the buffer abstract operations the views (TypedArray, DataView, Atomics)
//! use: allocation with limits, detach, byte length.
//!
//! Limits: one buffer holds at most [`MAX_BYTE_LENGTH`] bytes (RangeError past it, so a
//! hostile length cannot abort the process), and allocating more than the heap budget
//! (`--max-heap`) left throws a RangeError too. Buffer bytes are added to the heap estimate.
//!
//! A SharedArrayBuffer's data block is a `SharedBlock` (`heap/shared_block.rs`), which
//! other agents (an embedder's threads) may hold too; views read and write it through
//! [`Bytes`], [`with_bytes_mut`] and [`write_raw`], never as a plain slice.

use crate::builtins::map::define_to_string_tag;
use crate::builtins::typed_array::element;
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::{JsResult, Limit, Throw};
use crate::heap::buffer_block_bytes;
use crate::heap::object::{ArrayBufferData, Class, DataBlock, Object};
use crate::heap::shared_block::SharedBlock;
use crate::native;
use crate::runtime::call::{construct, prototype_from_constructor};
use crate::runtime::convert::{relative_index, to_integer_or_infinity};
use crate::runtime::describe::{describe, Shown};
use crate::runtime::object::species_constructor;
use crate::runtime::property::get;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;
use std::borrow::Cow;
use std::ops::Range;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("ArrayBuffer", 1, array_buffer_constructor),
    native!("ArrayBuffer.isView", 1, is_view),
    native!("get ArrayBuffer[Symbol.species]", 0, species),
    native!("get ArrayBuffer.prototype.byteLength", 0, byte_length_getter),
    native!("get ArrayBuffer.prototype.detached", 0, detached_getter),
    native!("get ArrayBuffer.prototype.maxByteLength", 0, max_byte_length_getter),
    native!("get ArrayBuffer.prototype.resizable", 0, resizable_getter),
    native!("ArrayBuffer.prototype.resize", 1, resize),
    native!("ArrayBuffer.prototype.slice", 2, slice),
    native!("ArrayBuffer.prototype.transfer", 0, transfer),
    native!("ArrayBuffer.prototype.transferToFixedLength", 0, transfer_to_fixed_length),
    native!("SharedArrayBuffer", 1, shared_array_buffer_constructor),
    native!("get SharedArrayBuffer[Symbol.species]", 0, species),
    native!("get SharedArrayBuffer.prototype.byteLength", 0, shared_byte_length_getter),
    native!("SharedArrayBuffer.prototype.grow", 1, grow),
    native!("get SharedArrayBuffer.prototype.growable", 0, growable_getter),
    native!("get SharedArrayBuffer.prototype.maxByteLength", 0, shared_max_byte_length_getter),
    native!("SharedArrayBuffer.prototype.slice", 2, shared_slice),
];

/// The most bytes one buffer may hold (4 GiB, as in V8 on 64-bit hosts). It also keeps
/// every element index of a view within `u32`.
pub(crate) const MAX_BYTE_LENGTH: usize = 1 << 32;

/// The largest `maxByteLength` accepted (256 TiB, the user address space of 64-bit hosts);
/// the buffer itself still cannot grow past [`MAX_BYTE_LENGTH`].
const MAX_MAX_BYTE_LENGTH: u64 = 1 << 48;

/// Bytes copied per unit of fuel charged.
pub(crate) const BYTES_PER_FUEL: usize = 256;

pub(crate) fn init(vm: &mut Vm) {
    // 25.1.4 The ArrayBuffer Constructor; 25.1.6 Properties of the ArrayBuffer Prototype Object
    let proto = vm.realm.array_buffer_prototype;
    let ctor = make_constructor(vm, "ArrayBuffer", "ArrayBuffer", proto);
    install(vm, proto, "ArrayBuffer.prototype", NATIVES);
    install(vm, ctor, "ArrayBuffer", NATIVES);
    // 25.1.6.10 ArrayBuffer.prototype [ %Symbol.toStringTag% ]
    define_to_string_tag(vm, proto, "ArrayBuffer");

    // 25.2.3 The SharedArrayBuffer Constructor; 25.2.5 Properties of the Prototype Object
    let proto = vm.realm.shared_array_buffer_prototype;
    let ctor = make_constructor(vm, "SharedArrayBuffer", "SharedArrayBuffer", proto);
    install(vm, proto, "SharedArrayBuffer.prototype", NATIVES);
    install(vm, ctor, "SharedArrayBuffer", NATIVES);
    // 25.2.5.7 SharedArrayBuffer.prototype [ %Symbol.toStringTag% ]
    define_to_string_tag(vm, proto, "SharedArrayBuffer");
}

// ---- 25.1.4 The ArrayBuffer Constructor

/// ### 25.1.4.1 ArrayBuffer ( length [ , options ] )
/// https://tc39.es/ecma262/#sec-arraybuffer-length
fn array_buffer_constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor ArrayBuffer requires 'new'"));
    }
    // 2. Let byteLength be ? ToIndex(length).
    let byte_length = to_index_or(vm, arg(args, 0), "Invalid array buffer length")?;
    // 3. Let requestedMaxByteLength be ? GetArrayBufferMaxByteLengthOption(options).
    let max = get_array_buffer_max_byte_length_option(vm, arg(args, 1))?;
    // 4. Return ? AllocateArrayBuffer(NewTarget, byteLength, requestedMaxByteLength).
    let buffer = allocate_array_buffer_from(vm, new_target, byte_length, max, false)?;
    Ok(Value::object(buffer))
}

/// ### 25.1.3.7 GetArrayBufferMaxByteLengthOption ( options )
/// https://tc39.es/ecma262/#sec-getarraybuffermaxbytelengthoption
fn get_array_buffer_max_byte_length_option(vm: &mut Vm, options: Value) -> JsResult<Option<u64>> {
    // 1. If options is not an Object, return empty.
    let Some(o) = options.as_object() else {
        return Ok(None);
    };
    // 2. Let maxByteLength be ? Get(options, "maxByteLength").
    let key = vm.key("maxByteLength");
    let max = get(vm, o, key, options)?;
    // 3. If maxByteLength is undefined, return empty.
    if max.is_undefined() {
        return Ok(None);
    }
    // 4. Return ? ToIndex(maxByteLength).
    Ok(Some(to_index_or(vm, max, "Invalid array buffer max length")?))
}

/// ### 25.1.3.1 AllocateArrayBuffer ( constructor, byteLength [ , maxByteLength ] )
/// https://tc39.es/ecma262/#sec-allocatearraybuffer
///
/// With `shared`, AllocateSharedArrayBuffer (§25.2.2.1), whose steps are the same.
pub(crate) fn allocate_array_buffer_from(
    vm: &mut Vm,
    constructor: Value,
    byte_length: u64,
    max_byte_length: Option<u64>,
    shared: bool,
) -> JsResult<ObjectId> {
    // 1-2. If allocatingResizableBuffer is true and byteLength > maxByteLength, throw a RangeError.
    if let Some(max) = max_byte_length {
        if byte_length > max {
            return Err(vm.range_error("Invalid array buffer max length"));
        }
    }
    // 3. Let obj be ? OrdinaryCreateFromConstructor(constructor, "%ArrayBuffer.prototype%", slots).
    let default = if shared { vm.realm.shared_array_buffer_prototype } else { vm.realm.array_buffer_prototype };
    let proto = prototype_from_constructor(vm, constructor, default)?;
    allocate_array_buffer(vm, proto, byte_length, max_byte_length, shared)
}

/// AllocateArrayBuffer once the prototype is known: CreateByteDataBlock plus the object.
pub(crate) fn allocate_array_buffer(
    vm: &mut Vm,
    proto: ObjectId,
    byte_length: u64,
    max_byte_length: Option<u64>,
    shared: bool,
) -> JsResult<ObjectId> {
    // If it is not possible to create a Data Block consisting of maxByteLength bytes, throw
    // a RangeError exception. NOTE: the maximum is never reserved (the block grows on
    // resize, where MAX_BYTE_LENGTH applies); like V8, a maximum past what any host could
    // address is refused up front.
    let max = match max_byte_length {
        Some(m) if m > MAX_MAX_BYTE_LENGTH => return Err(vm.range_error("Invalid array buffer max length")),
        Some(m) => Some(m as usize),
        None => None,
    };
    // 4. Let block be ? CreateByteDataBlock(byteLength) (CreateSharedByteDataBlock when shared).
    let block = if shared {
        let n = reserve_bytes(vm, byte_length, 0)?;
        let Some(block) = SharedBlock::try_new(n) else {
            return Err(vm.range_error("Array buffer allocation failed"));
        };
        DataBlock::Shared(block)
    } else {
        DataBlock::Local(create_byte_data_block(vm, byte_length)?)
    };
    // 5-9. Set obj's slots.
    let data = ArrayBufferData { block, max_byte_length: max };
    Ok(vm.heap.alloc_object(Object::new(Some(proto), Class::ArrayBuffer(Box::new(data)))))
}

/// ### 6.2.9.1 CreateByteDataBlock ( size )
/// https://tc39.es/ecma262/#sec-createbytedatablock
///
/// A RangeError past [`MAX_BYTE_LENGTH`] or the heap budget, or when the host refuses the
/// memory; never an abort.
pub(crate) fn create_byte_data_block(vm: &mut Vm, size: u64) -> JsResult<Vec<u8>> {
    let n = reserve_bytes(vm, size, 0)?;
    let mut block = Vec::new();
    if block.try_reserve_exact(n).is_err() {
        return Err(vm.range_error("Array buffer allocation failed"));
    }
    block.resize(n, 0);
    Ok(block)
}

/// Check that a buffer may grow from `old` to `size` bytes against the heap budget, and
/// charge the work. Returns `size` as a usize. The bytes themselves are counted where the
/// block joins the heap: a new buffer's object counts its block (`heap::object_bytes`), and
/// a buffer that grows in place reports the growth ([`crate::heap::Heap::note_growth`]), so
/// the estimate is the one a collection computes and paces collections like any allocation.
///
/// A block larger than the whole budget can never fit: a RangeError, as V8 throws for an
/// allocation it cannot make. Otherwise a block may take the estimate past the budget by an
/// eighth of it at most, since a native cannot collect: the next instruction's collection
/// then decides whether the run is over its limit (exit 5) or was only carrying garbage. A
/// block that would go further stops the run here, as a string's would.
fn reserve_bytes(vm: &mut Vm, size: u64, old: usize) -> JsResult<usize> {
    if size > MAX_BYTE_LENGTH as u64 {
        return Err(vm.range_error("Array buffer allocation failed"));
    }
    let grow = size.saturating_sub(old as u64);
    if let Some(max) = vm.options.max_heap_bytes {
        if grow > max {
            return Err(vm.range_error("Array buffer allocation failed"));
        }
        if vm.heap.bytes_estimate.saturating_add(grow) > max.saturating_add(max / 8) {
            return Err(Throw::Limit(Limit::Heap));
        }
    }
    vm.charge(grow / BYTES_PER_FUEL as u64)?;
    Ok(size as usize)
}

/// ### 25.1.3.5 CloneArrayBuffer ( srcBuffer, srcByteOffset, srcLength )
/// https://tc39.es/ecma262/#sec-clonearraybuffer
///
/// Always makes a fixed-length %ArrayBuffer%; the caller has checked the source range.
pub(crate) fn clone_array_buffer(
    vm: &mut Vm,
    src: ObjectId,
    src_byte_offset: usize,
    src_length: usize,
) -> JsResult<ObjectId> {
    // 1. Assert: IsDetachedBuffer(srcBuffer) is false.
    // 2. Let targetBuffer be ? AllocateArrayBuffer(%ArrayBuffer%, srcLength).
    let proto = vm.realm.array_buffer_prototype;
    let target = allocate_array_buffer(vm, proto, src_length as u64, None, false)?;
    // 3-5. CopyDataBlockBytes(targetBlock, 0, srcBlock, srcByteOffset, srcLength).
    copy_between(vm, src, src_byte_offset, target, 0, src_length)?;
    // 6. Return targetBuffer.
    Ok(target)
}

// ---- Buffer abstract operations (§25.1.3) the views share

/// The buffer slots of `o`, if it is an ArrayBuffer or SharedArrayBuffer.
pub(crate) fn buffer_data(vm: &Vm, o: ObjectId) -> Option<&ArrayBufferData> {
    match &vm.heap.obj(o).class {
        Class::ArrayBuffer(d) => Some(d),
        _ => None,
    }
}

fn buffer_data_mut(vm: &mut Vm, o: ObjectId) -> Option<&mut ArrayBufferData> {
    match &mut vm.heap.obj_mut(o).class {
        Class::ArrayBuffer(d) => Some(d),
        _ => None,
    }
}

/// Is `v` an ArrayBuffer or SharedArrayBuffer object?
pub fn is_array_buffer(vm: &Vm, v: Value) -> Option<ObjectId> {
    let o = v.as_object()?;
    buffer_data(vm, o).map(|_| o)
}

/// ### 25.1.3.3 IsDetachedBuffer ( arrayBuffer )
pub fn is_detached(vm: &Vm, buffer: ObjectId) -> bool {
    buffer_data(vm, buffer).is_none_or(|d| matches!(d.block, DataBlock::Detached))
}

/// ### 25.2.2.2 IsSharedArrayBuffer ( obj )
pub fn is_shared(vm: &Vm, buffer: ObjectId) -> bool {
    buffer_data(vm, buffer).is_some_and(|d| matches!(d.block, DataBlock::Shared(_)))
}

/// The shared data block of a SharedArrayBuffer (clone it to hand it to another agent).
pub fn shared_block(vm: &Vm, buffer: ObjectId) -> Option<&SharedBlock> {
    match &buffer_data(vm, buffer)?.block {
        DataBlock::Shared(b) => Some(b),
        _ => None,
    }
}

/// A new SharedArrayBuffer of the running realm over `block`, which another agent holds
/// too (test262's `$262.agent.broadcast`); `max_byte_length` for a growable one.
pub fn new_shared_array_buffer(vm: &mut Vm, block: SharedBlock, max_byte_length: Option<usize>) -> Value {
    let proto = vm.realm.shared_array_buffer_prototype;
    let data = ArrayBufferData { block: DataBlock::Shared(block), max_byte_length };
    Value::object(vm.heap.alloc_object(Object::new(Some(proto), Class::ArrayBuffer(Box::new(data)))))
}

/// [[ArrayBufferMaxByteLength]] of a resizable or growable buffer.
pub fn max_byte_length(vm: &Vm, buffer: ObjectId) -> Option<usize> {
    buffer_data(vm, buffer)?.max_byte_length
}

/// ### 25.1.3.9 IsFixedLengthArrayBuffer ( arrayBuffer )
pub fn is_fixed_length(vm: &Vm, buffer: ObjectId) -> bool {
    buffer_data(vm, buffer).is_none_or(|d| d.max_byte_length.is_none())
}

/// ArrayBufferByteLength (§25.1.3.2); None when detached.
pub fn byte_length(vm: &Vm, buffer: ObjectId) -> Option<usize> {
    buffer_data(vm, buffer).and_then(|d| d.block.byte_length())
}

/// A buffer's bytes, to read: its own, or a shared block that other agents may be writing.
#[derive(Clone, Copy)]
pub enum Bytes<'a> {
    Local(&'a [u8]),
    Shared(&'a SharedBlock),
}

impl<'a> Bytes<'a> {
    pub fn len(self) -> usize {
        match self {
            Bytes::Local(b) => b.len(),
            Bytes::Shared(b) => b.len(),
        }
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The bytes of `range` (borrowed when they are the buffer's own); None out of range.
    pub fn get(self, range: Range<usize>) -> Option<Cow<'a, [u8]>> {
        match self {
            Bytes::Local(b) => b.get(range).map(Cow::Borrowed),
            Bytes::Shared(b) => {
                if range.start > range.end || range.end > b.len() {
                    return None;
                }
                let mut out = vec![0; range.end - range.start];
                b.read(range.start, &mut out);
                Some(Cow::Owned(out))
            }
        }
    }

    /// GetValueFromBuffer's raw bits: `size` bytes at `offset` (0 out of range).
    pub fn read_raw(self, offset: usize, size: usize, little: bool) -> u64 {
        match self {
            Bytes::Local(b) => element::read_raw(b, offset, size, little),
            Bytes::Shared(b) => {
                if offset + size > b.len() {
                    return 0;
                }
                let mut word = [0u8; 8];
                b.read(offset, &mut word[..size]);
                element::read_raw(&word, 0, size, little)
            }
        }
    }
}

/// The data block of a buffer; None when detached.
pub fn bytes(vm: &Vm, buffer: ObjectId) -> Option<Bytes<'_>> {
    match &buffer_data(vm, buffer)?.block {
        DataBlock::Detached => None,
        DataBlock::Local(b) => Some(Bytes::Local(b)),
        DataBlock::Shared(b) => Some(Bytes::Shared(b)),
    }
}

/// Runs `f` over the bytes of `range` of a buffer, writable; None when detached or out of
/// range. A shared block's bytes are copied out and back, so other agents' writes to the
/// range in between are lost, as the memory model allows for unordered writes.
pub fn with_bytes_mut<R>(
    vm: &mut Vm,
    buffer: ObjectId,
    range: Range<usize>,
    f: impl FnOnce(&mut [u8]) -> R,
) -> Option<R> {
    match &mut buffer_data_mut(vm, buffer)?.block {
        DataBlock::Detached => None,
        DataBlock::Local(b) => b.get_mut(range).map(f),
        DataBlock::Shared(b) => {
            let mut region = Bytes::Shared(b).get(range.clone())?.into_owned();
            let r = f(&mut region);
            b.write(range.start, &region);
            Some(r)
        }
    }
}

/// SetValueInBuffer's raw store: `size` bytes of `raw` at `offset` (nothing out of range).
pub(crate) fn write_raw(vm: &mut Vm, buffer: ObjectId, offset: usize, size: usize, raw: u64, little: bool) {
    let Some(d) = buffer_data_mut(vm, buffer) else { return };
    match &mut d.block {
        DataBlock::Detached => {}
        DataBlock::Local(b) => element::write_raw(b, offset, size, raw, little),
        DataBlock::Shared(b) => {
            if offset + size <= b.len() {
                let mut word = [0u8; 8];
                element::write_raw(&mut word, 0, size, raw, little);
                b.write(offset, &word[..size]);
            }
        }
    }
}

/// ### 25.1.3.5 DetachArrayBuffer ( arrayBuffer [ , key ] )
/// https://tc39.es/ecma262/#sec-detacharraybuffer
///
/// Returns the data block it held. (Hosts detach through `transfer` or structured clone.)
pub(crate) fn detach_array_buffer(vm: &mut Vm, buffer: ObjectId) -> Option<Vec<u8>> {
    // 1. Assert: IsSharedArrayBuffer(arrayBuffer) is false.
    // 4. Set arrayBuffer.[[ArrayBufferData]] to null.
    // 5. Set arrayBuffer.[[ArrayBufferByteLength]] to 0.
    let d = buffer_data_mut(vm, buffer)?;
    let DataBlock::Local(_) = d.block else { return None };
    let DataBlock::Local(block) = std::mem::replace(&mut d.block, DataBlock::Detached) else { return None };
    vm.heap.bytes_estimate = vm.heap.bytes_estimate.saturating_sub(buffer_block_bytes(block.len()));
    Some(block)
}

/// DetachArrayBuffer for embedders, as a host function: `detach(buffer)` (test262's
/// `$262.detachArrayBuffer`, or a host's structured clone with transfer). TypeError for
/// anything but a non-shared ArrayBuffer; detaching twice is harmless.
pub fn host_detach_array_buffer(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let Some(buffer) = is_array_buffer(vm, arg(args, 0)).filter(|&b| !is_shared(vm, b)) else {
        return Err(vm.type_error("detachArrayBuffer: the argument is not an ArrayBuffer"));
    };
    detach_array_buffer(vm, buffer);
    Ok(Value::NULL)
}

/// CopyDataBlockBytes (§6.2.9.3) between two buffers (or within one). Copies as memmove
/// does, fewer bytes when either range is short (callers check the ranges first).
pub(crate) fn copy_between(
    vm: &mut Vm,
    from: ObjectId,
    from_index: usize,
    to: ObjectId,
    to_index: usize,
    count: usize,
) -> JsResult<()> {
    vm.charge((count / BYTES_PER_FUEL) as u64)?;
    let (Some(from_len), Some(to_len)) = (byte_length(vm, from), byte_length(vm, to)) else {
        return Ok(());
    };
    let n = count.min(from_len.saturating_sub(from_index)).min(to_len.saturating_sub(to_index));
    if n == 0 {
        return Ok(());
    }
    if from == to {
        with_bytes_mut(vm, to, 0..to_len, |b| b.copy_within(from_index..from_index + n, to_index));
        return Ok(());
    }
    // Take a local source block out for the copy: the two buffers are distinct objects.
    let src = match buffer_data_mut(vm, from).map(|d| std::mem::replace(&mut d.block, DataBlock::Detached)) {
        Some(block) => block,
        None => return Ok(()),
    };
    let source: Cow<'_, [u8]> = match &src {
        DataBlock::Local(b) => Cow::Borrowed(&b[from_index..from_index + n]),
        DataBlock::Shared(b) => Bytes::Shared(b).get(from_index..from_index + n).unwrap_or_default(),
        DataBlock::Detached => Cow::Borrowed(&[]),
    };
    with_bytes_mut(vm, to, to_index..to_index + source.len(), |dst| dst.copy_from_slice(&source));
    drop(source);
    if let Some(d) = buffer_data_mut(vm, from) {
        d.block = src;
    }
    Ok(())
}

/// ToIndex with V8's message for the RangeError.
fn to_index_or(vm: &mut Vm, v: Value, message: &str) -> JsResult<u64> {
    if v.is_undefined() {
        return Ok(0);
    }
    let n = to_integer_or_infinity(vm, v)?;
    if !(0.0..=9007199254740991.0).contains(&n) {
        return Err(vm.range_error(message));
    }
    Ok(n as u64)
}

/// Require `this` to be a buffer of the given sharedness (RequireInternalSlot plus the
/// IsSharedArrayBuffer check every ArrayBuffer.prototype method starts with).
fn this_buffer(vm: &mut Vm, this: Value, shared: bool, method: &str) -> JsResult<ObjectId> {
    if let Some(o) = this.as_object() {
        if buffer_data(vm, o).is_some_and(|d| matches!(d.block, DataBlock::Shared(_)) == shared) {
            return Ok(o);
        }
    }
    let shown = describe(vm, this, Shown::Plain);
    Err(vm.type_error(format!("Method {method} called on incompatible receiver {shown}")))
}

// ---- 25.1.5 Properties of the ArrayBuffer Constructor

/// ### 25.1.5.1 ArrayBuffer.isView ( arg )
/// https://tc39.es/ecma262/#sec-arraybuffer.isview
fn is_view(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If arg is not an Object, return false.
    // 2. If arg has a [[ViewedArrayBuffer]] internal slot, return true.
    // 3. Return false.
    let view = arg(args, 0)
        .as_object()
        .is_some_and(|o| matches!(vm.heap.obj(o).class, Class::TypedArray(_) | Class::DataView(_)));
    Ok(Value::bool(view))
}

/// ### 25.1.5.3 get ArrayBuffer [ %Symbol.species% ] (and §25.2.4.2 for SharedArrayBuffer)
fn species(_vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return the this value.
    Ok(this)
}

// ---- 25.1.6 Properties of the ArrayBuffer Prototype Object

/// ### 25.1.6.1 get ArrayBuffer.prototype.byteLength
/// https://tc39.es/ecma262/#sec-get-arraybuffer.prototype.bytelength
fn byte_length_getter(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[ArrayBufferData]]); if IsSharedArrayBuffer(O), throw.
    let o = this_buffer(vm, this, false, "ArrayBuffer.prototype.byteLength")?;
    // 4. If IsDetachedBuffer(O) is true, return +0𝔽.
    // 5-6. Return 𝔽(O.[[ArrayBufferByteLength]]).
    Ok(Value::number(byte_length(vm, o).unwrap_or(0) as f64))
}

/// ### 25.1.6.3 get ArrayBuffer.prototype.detached
/// https://tc39.es/ecma262/#sec-get-arraybuffer.prototype.detached
fn detached_getter(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[ArrayBufferData]]); if IsSharedArrayBuffer(O), throw.
    let o = this_buffer(vm, this, false, "ArrayBuffer.prototype.detached")?;
    // 4. Return IsDetachedBuffer(O).
    Ok(Value::bool(is_detached(vm, o)))
}

/// ### 25.1.6.4 get ArrayBuffer.prototype.maxByteLength
/// https://tc39.es/ecma262/#sec-get-arraybuffer.prototype.maxbytelength
fn max_byte_length_getter(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[ArrayBufferData]]); if IsSharedArrayBuffer(O), throw.
    let o = this_buffer(vm, this, false, "ArrayBuffer.prototype.maxByteLength")?;
    // 4. If IsDetachedBuffer(O) is true, return +0𝔽.
    let Some(len) = byte_length(vm, o) else {
        return Ok(Value::int(0));
    };
    // 5-6. If IsFixedLengthArrayBuffer(O), length is [[ArrayBufferByteLength]];
    //      else [[ArrayBufferMaxByteLength]].
    let max = buffer_data(vm, o).and_then(|d| d.max_byte_length).unwrap_or(len);
    // 7. Return 𝔽(length).
    Ok(Value::number(max as f64))
}

/// ### 25.1.6.5 get ArrayBuffer.prototype.resizable
/// https://tc39.es/ecma262/#sec-get-arraybuffer.prototype.resizable
fn resizable_getter(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[ArrayBufferData]]); if IsSharedArrayBuffer(O), throw.
    let o = this_buffer(vm, this, false, "ArrayBuffer.prototype.resizable")?;
    // 4. If IsFixedLengthArrayBuffer(O) is false, return true; otherwise return false.
    Ok(Value::bool(!is_fixed_length(vm, o)))
}

/// ### 25.1.6.6 ArrayBuffer.prototype.resize ( newLength )
/// https://tc39.es/ecma262/#sec-arraybuffer.prototype.resize
fn resize(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[ArrayBufferMaxByteLength]]); if IsSharedArrayBuffer(O), throw.
    let o = this_buffer(vm, this, false, "ArrayBuffer.prototype.resize")?;
    let Some(max) = buffer_data(vm, o).and_then(|d| d.max_byte_length) else {
        let shown = describe(vm, this, Shown::Plain);
        return Err(
            vm.type_error(format!("Method ArrayBuffer.prototype.resize called on incompatible receiver {shown}"))
        );
    };
    // 4. Let newByteLength be ? ToIndex(newLength).
    let new_byte_length = to_index_or(vm, arg(args, 0), "ArrayBuffer.prototype.resize: Invalid length parameter")?;
    // 5. If IsDetachedBuffer(O) is true, throw a TypeError exception.
    let Some(old) = byte_length(vm, o) else {
        return Err(vm.type_error("Cannot perform ArrayBuffer.prototype.resize on a detached ArrayBuffer"));
    };
    // 6. If newByteLength > O.[[ArrayBufferMaxByteLength]], throw a RangeError exception.
    if new_byte_length > max as u64 {
        return Err(vm.range_error("ArrayBuffer.prototype.resize: Invalid length parameter"));
    }
    // 7-8. HostResizeArrayBuffer: none here; resize in place, zero-filling new bytes.
    let n = reserve_bytes(vm, new_byte_length, old)?;
    if let Some(DataBlock::Local(b)) = buffer_data_mut(vm, o).map(|d| &mut d.block) {
        b.resize(n, 0);
    }
    let (was, now) = (buffer_block_bytes(old), buffer_block_bytes(n));
    if now < was {
        vm.heap.bytes_estimate = vm.heap.bytes_estimate.saturating_sub(was - now);
    } else {
        vm.heap.note_growth(now - was);
    }
    // 9. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 25.1.6.7 ArrayBuffer.prototype.slice ( start, end )
/// https://tc39.es/ecma262/#sec-arraybuffer.prototype.slice
fn slice(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[ArrayBufferData]]); if IsSharedArrayBuffer(O), throw.
    let o = this_buffer(vm, this, false, "ArrayBuffer.prototype.slice")?;
    slice_impl(vm, o, args, false)
}

/// The shared steps of ArrayBuffer.prototype.slice and SharedArrayBuffer.prototype.slice.
fn slice_impl(vm: &mut Vm, o: ObjectId, args: &[Value], shared: bool) -> JsResult<Value> {
    let method = if shared { "SharedArrayBuffer.prototype.slice" } else { "ArrayBuffer.prototype.slice" };
    // 4. If IsDetachedBuffer(O) is true, throw a TypeError exception.
    // 5. Let len be O.[[ArrayBufferByteLength]].
    let Some(len) = byte_length(vm, o) else {
        return Err(vm.type_error(format!("Cannot perform {method} on a detached ArrayBuffer")));
    };
    let len = len as u64;
    // 6-9. Let first be the start clamped to [0, len].
    let relative_start = to_integer_or_infinity(vm, arg(args, 0))?;
    let first = relative_index(relative_start, len);
    // 10-13. Let final be the end (len if undefined) clamped to [0, len].
    let end = arg(args, 1);
    let relative_end = if end.is_undefined() { len as f64 } else { to_integer_or_infinity(vm, end)? };
    let fin = relative_index(relative_end, len);
    // 14. Let newLen be max(final - first, 0).
    let new_len = fin.saturating_sub(first);
    // 15. Let ctor be ? SpeciesConstructor(O, %ArrayBuffer%).
    let default = intrinsic_constructor(vm, shared);
    let ctor = species_constructor(vm, o, default)?;
    // 16. Let new be ? Construct(ctor, « 𝔽(newLen) »).
    let new = if ctor == default {
        // Fast path: the intrinsic constructor's prototype property is not writable, so
        // allocating directly is what Construct would do.
        let proto = if shared { vm.realm.shared_array_buffer_prototype } else { vm.realm.array_buffer_prototype };
        Value::object(allocate_array_buffer(vm, proto, new_len, None, shared)?)
    } else {
        construct(vm, ctor, &[Value::number(new_len as f64)], None)?
    };
    // 17. Perform ? RequireInternalSlot(new, [[ArrayBufferData]]).
    // 18. If IsSharedArrayBuffer(new) differs, throw a TypeError exception.
    let Some(new_o) = is_array_buffer(vm, new).filter(|&n| is_shared(vm, n) == shared) else {
        return Err(vm.type_error(format!("Method {method} returned an incompatible receiver")));
    };
    // 19. If IsDetachedBuffer(new) is true, throw a TypeError exception.
    if is_detached(vm, new_o) {
        return Err(vm.type_error(format!("Cannot perform {method} on a detached ArrayBuffer")));
    }
    // 20. If SameValue(new, O) is true, throw a TypeError exception.
    if new_o == o {
        return Err(vm.type_error(format!("ArrayBuffer subclass returned this from species constructor in {method}")));
    }
    // 21. If new.[[ArrayBufferByteLength]] < newLen, throw a TypeError exception.
    if (byte_length(vm, new_o).unwrap_or(0) as u64) < new_len {
        return Err(vm.type_error(format!("Species constructor returned a too-small buffer in {method}")));
    }
    // 22. NOTE: Side-effects of the above steps may have detached or resized O.
    // 23. If IsDetachedBuffer(O) is true, throw a TypeError exception.
    let Some(current_len) = byte_length(vm, o) else {
        return Err(vm.type_error(format!("Cannot perform {method} on a detached ArrayBuffer")));
    };
    // 24-26. Let fromBuf be O.[[ArrayBufferData]], toBuf new's; currentLen O's byte length.
    // 27. If first < currentLen, then
    let first = first as usize;
    if first < current_len {
        // a. Let count be min(newLen, currentLen - first).
        let count = (new_len as usize).min(current_len - first);
        // b. Perform CopyDataBlockBytes(toBuf, 0, fromBuf, first, count).
        copy_between(vm, o, first, new_o, 0, count)?;
    }
    // 28. Return new.
    Ok(new)
}

/// ### 25.1.6.8 ArrayBuffer.prototype.transfer ( [ newLength ] )
/// https://tc39.es/ecma262/#sec-arraybuffer.prototype.transfer
fn transfer(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Return ? ArrayBufferCopyAndDetach(O, newLength, preserve-resizability).
    array_buffer_copy_and_detach(vm, this, arg(args, 0), true, "ArrayBuffer.prototype.transfer")
}

/// ### 25.1.6.9 ArrayBuffer.prototype.transferToFixedLength ( [ newLength ] )
/// https://tc39.es/ecma262/#sec-arraybuffer.prototype.transfertofixedlength
fn transfer_to_fixed_length(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Return ? ArrayBufferCopyAndDetach(O, newLength, fixed-length).
    array_buffer_copy_and_detach(vm, this, arg(args, 0), false, "ArrayBuffer.prototype.transferToFixedLength")
}

/// ### 25.1.3.4 ArrayBufferCopyAndDetach ( arrayBuffer, newLength, preserveResizability )
/// https://tc39.es/ecma262/#sec-arraybuffercopyanddetach
fn array_buffer_copy_and_detach(
    vm: &mut Vm,
    array_buffer: Value,
    new_length: Value,
    preserve_resizability: bool,
    method: &str,
) -> JsResult<Value> {
    // 1-2. RequireInternalSlot(arrayBuffer, [[ArrayBufferData]]); if shared, throw.
    let o = this_buffer(vm, array_buffer, false, method)?;
    // 3. If newLength is undefined, let newByteLength be arrayBuffer.[[ArrayBufferByteLength]].
    // 4. Else, let newByteLength be ? ToIndex(newLength).
    let new_byte_length = if new_length.is_undefined() {
        byte_length(vm, o).unwrap_or(0) as u64
    } else {
        to_index_or(vm, new_length, "Invalid array buffer length")?
    };
    // 5. If IsDetachedBuffer(arrayBuffer) is true, throw a TypeError exception.
    if is_detached(vm, o) {
        return Err(vm.type_error(format!("Cannot perform {method} on a detached ArrayBuffer")));
    }
    // 6. If preserveResizability is preserve-resizability and IsFixedLengthArrayBuffer is
    //    false, let newMaxByteLength be arrayBuffer.[[ArrayBufferMaxByteLength]]; else empty.
    let new_max =
        if preserve_resizability { buffer_data(vm, o).and_then(|d| d.max_byte_length).map(|m| m as u64) } else { None };
    // 7. If arrayBuffer.[[ArrayBufferDetachKey]] is not undefined, throw a TypeError.
    //    (No host sets a detach key.)
    // 8. If newMaxByteLength is not empty and newByteLength > newMaxByteLength, throw a RangeError.
    if let Some(max) = new_max {
        if new_byte_length > max {
            return Err(vm.range_error(format!("{method}: Invalid length parameter")));
        }
    }
    if new_byte_length > MAX_BYTE_LENGTH as u64 {
        return Err(vm.range_error("Array buffer allocation failed"));
    }
    // 9. Let newBuffer be ? AllocateArrayBuffer(%ArrayBuffer%, newByteLength, newMaxByteLength).
    // 10-13. Copy min(newByteLength, old length) bytes. 14. Perform ! DetachArrayBuffer.
    // Fast path: the old block moves into the new buffer and is resized in place, which
    // is what allocating, copying and detaching amounts to.
    let old_len = byte_length(vm, o).unwrap_or(0);
    let n = reserve_bytes(vm, new_byte_length, old_len)?;
    let taken = buffer_data_mut(vm, o).map(|d| std::mem::replace(&mut d.block, DataBlock::Detached));
    let Some(DataBlock::Local(mut block)) = taken else {
        return Err(vm.type_error(format!("Cannot perform {method} on a detached ArrayBuffer")));
    };
    if n > block.len() && block.try_reserve_exact(n - block.len()).is_err() {
        // Allocation failed: the old buffer stays attached, as if step 9 threw.
        if let Some(d) = buffer_data_mut(vm, o) {
            d.block = DataBlock::Local(block);
        }
        return Err(vm.range_error("Array buffer allocation failed"));
    }
    block.resize(n, 0);
    block.shrink_to_fit();
    // The old buffer is detached; the new one's object counts the block (at any length).
    vm.heap.bytes_estimate = vm.heap.bytes_estimate.saturating_sub(buffer_block_bytes(old_len));
    let data = ArrayBufferData { block: DataBlock::Local(block), max_byte_length: new_max.map(|m| m as usize) };
    let proto = vm.realm.array_buffer_prototype;
    let new_buffer = vm.heap.alloc_object(Object::new(Some(proto), Class::ArrayBuffer(Box::new(data))));
    // 15. Return newBuffer.
    Ok(Value::object(new_buffer))
}

// ---- 25.2 SharedArrayBuffer Objects

/// ### 25.2.3.1 SharedArrayBuffer ( length [ , options ] )
/// https://tc39.es/ecma262/#sec-sharedarraybuffer-length
fn shared_array_buffer_constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor SharedArrayBuffer requires 'new'"));
    }
    // 2. Let byteLength be ? ToIndex(length).
    let byte_length = to_index_or(vm, arg(args, 0), "Invalid array buffer length")?;
    // 3. Let requestedMaxByteLength be ? GetArrayBufferMaxByteLengthOption(options).
    let max = get_array_buffer_max_byte_length_option(vm, arg(args, 1))?;
    // 4. Return ? AllocateSharedArrayBuffer(NewTarget, byteLength, requestedMaxByteLength).
    let buffer = allocate_array_buffer_from(vm, new_target, byte_length, max, true)?;
    Ok(Value::object(buffer))
}

/// ### 25.2.5.2 get SharedArrayBuffer.prototype.byteLength
/// https://tc39.es/ecma262/#sec-get-sharedarraybuffer.prototype.bytelength
fn shared_byte_length_getter(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[ArrayBufferData]]); if not shared, throw a TypeError.
    let o = this_buffer(vm, this, true, "SharedArrayBuffer.prototype.byteLength")?;
    // 4-5. Return 𝔽(ArrayBufferByteLength(O, seq-cst)).
    Ok(Value::number(byte_length(vm, o).unwrap_or(0) as f64))
}

/// ### 25.2.5.3 SharedArrayBuffer.prototype.grow ( newLength )
/// https://tc39.es/ecma262/#sec-sharedarraybuffer.prototype.grow
fn grow(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[ArrayBufferMaxByteLength]]); if not shared, throw.
    let o = this_buffer(vm, this, true, "SharedArrayBuffer.prototype.grow")?;
    let Some(max) = buffer_data(vm, o).and_then(|d| d.max_byte_length) else {
        let shown = describe(vm, this, Shown::Plain);
        return Err(
            vm.type_error(format!("Method SharedArrayBuffer.prototype.grow called on incompatible receiver {shown}"))
        );
    };
    // 4. Let newByteLength be ? ToIndex(newLength).
    let new_byte_length = to_index_or(vm, arg(args, 0), "SharedArrayBuffer.prototype.grow: Invalid length parameter")?;
    // 5-6. hostHandled: none.
    // 7-10. Let currentByteLength be the current length.
    let current = byte_length(vm, o).unwrap_or(0);
    // 11. If newByteLength = currentByteLength, return undefined.
    if new_byte_length == current as u64 {
        return Ok(Value::UNDEFINED);
    }
    // 12. If newByteLength < currentByteLength or newByteLength > O.[[ArrayBufferMaxByteLength]],
    //     throw a RangeError exception.
    if new_byte_length < current as u64 || new_byte_length > max as u64 {
        return Err(vm.range_error("SharedArrayBuffer.prototype.grow: Invalid length parameter"));
    }
    // 13-14. Grow the block, zero-filling the new bytes.
    //        (Another agent may grow the block at the same time: then the larger length stands,
    //        and a smaller request fails as step 12 would have.)
    let n = reserve_bytes(vm, new_byte_length, current)?;
    if let Some(block) = shared_block(vm, o) {
        if !block.grow(n) {
            return Err(vm.range_error("SharedArrayBuffer.prototype.grow: Invalid length parameter"));
        }
    }
    vm.heap.note_growth(buffer_block_bytes(n) - buffer_block_bytes(current));
    Ok(Value::UNDEFINED)
}

/// ### 25.2.5.4 get SharedArrayBuffer.prototype.growable
/// https://tc39.es/ecma262/#sec-get-sharedarraybuffer.prototype.growable
fn growable_getter(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[ArrayBufferData]]); if not shared, throw a TypeError.
    let o = this_buffer(vm, this, true, "SharedArrayBuffer.prototype.growable")?;
    // 4. If IsFixedLengthArrayBuffer(O) is false, return true; otherwise return false.
    Ok(Value::bool(!is_fixed_length(vm, o)))
}

/// ### 25.2.5.5 get SharedArrayBuffer.prototype.maxByteLength
/// https://tc39.es/ecma262/#sec-get-sharedarraybuffer.prototype.maxbytelength
fn shared_max_byte_length_getter(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[ArrayBufferData]]); if not shared, throw a TypeError.
    let o = this_buffer(vm, this, true, "SharedArrayBuffer.prototype.maxByteLength")?;
    // 4-6. The max for a growable buffer, else the byte length.
    let len = byte_length(vm, o).unwrap_or(0);
    let max = buffer_data(vm, o).and_then(|d| d.max_byte_length).unwrap_or(len);
    Ok(Value::number(max as f64))
}

/// ### 25.2.5.6 SharedArrayBuffer.prototype.slice ( start, end )
/// https://tc39.es/ecma262/#sec-sharedarraybuffer.prototype.slice
fn shared_slice(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-3. RequireInternalSlot(O, [[ArrayBufferData]]); if not shared, throw a TypeError.
    let o = this_buffer(vm, this, true, "SharedArrayBuffer.prototype.slice")?;
    // 4-. As ArrayBuffer.prototype.slice, with %SharedArrayBuffer% as the default species
    //     and the shared checks in place of the detached ones (a shared buffer never detaches).
    slice_impl(vm, o, args, true)
}

/// %ArrayBuffer% or %SharedArrayBuffer%. They are kept in the capture list of %TypedArray%
/// (see `typed_array::init`), because the realm has no slot for them and a prototype's
/// `constructor` property can be overwritten by JS.
pub(crate) fn intrinsic_constructor(vm: &Vm, shared: bool) -> Value {
    use crate::builtins::typed_array::{intrinsic_capture, ARRAY_BUFFER_CAPTURE};
    intrinsic_capture(vm, ARRAY_BUFFER_CAPTURE + usize::from(shared))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_byte_length_keeps_view_indices_in_u32() {
        assert_eq!(MAX_BYTE_LENGTH - 1, u32::MAX as usize);
    }
}
