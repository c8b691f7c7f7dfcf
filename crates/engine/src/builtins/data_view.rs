//! DataView objects (ECMA-262 §25.3): https://tc39.es/ecma262/#sec-dataview-objects
//!
//! A DataView is `Class::DataView(TypedArrayData)` with `kind` unused (Uint8) and `length`
//! its [[ByteLength]] (None: auto, tracking a resizable buffer).

use crate::builtins::array_buffer;
use crate::builtins::map::define_to_string_tag;
use crate::builtins::typed_array::element::{self, element_size, numeric_to_value, to_numeric_for};
use crate::builtins::typed_array::{to_index_with, view_length};
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{Class, Object, TypedArrayData, TypedKind};
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::to_boolean;
use crate::runtime::describe::{describe, Shown};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("DataView", 1, constructor),
    native!("get DataView.prototype.buffer", 0, buffer),
    native!("get DataView.prototype.byteLength", 0, byte_length),
    native!("get DataView.prototype.byteOffset", 0, byte_offset),
    native!("DataView.prototype.getBigInt64", 1, get_big_int64),
    native!("DataView.prototype.getBigUint64", 1, get_big_uint64),
    native!("DataView.prototype.getFloat16", 1, get_float16),
    native!("DataView.prototype.getFloat32", 1, get_float32),
    native!("DataView.prototype.getFloat64", 1, get_float64),
    native!("DataView.prototype.getInt8", 1, get_int8),
    native!("DataView.prototype.getInt16", 1, get_int16),
    native!("DataView.prototype.getInt32", 1, get_int32),
    native!("DataView.prototype.getUint8", 1, get_uint8),
    native!("DataView.prototype.getUint16", 1, get_uint16),
    native!("DataView.prototype.getUint32", 1, get_uint32),
    native!("DataView.prototype.setBigInt64", 2, set_big_int64),
    native!("DataView.prototype.setBigUint64", 2, set_big_uint64),
    native!("DataView.prototype.setFloat16", 2, set_float16),
    native!("DataView.prototype.setFloat32", 2, set_float32),
    native!("DataView.prototype.setFloat64", 2, set_float64),
    native!("DataView.prototype.setInt8", 2, set_int8),
    native!("DataView.prototype.setInt16", 2, set_int16),
    native!("DataView.prototype.setInt32", 2, set_int32),
    native!("DataView.prototype.setUint8", 2, set_uint8),
    native!("DataView.prototype.setUint16", 2, set_uint16),
    native!("DataView.prototype.setUint32", 2, set_uint32),
];

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.data_view_prototype;
    let ctor = make_constructor(vm, "DataView", "DataView", proto);
    install(vm, proto, "DataView.prototype", NATIVES);
    install(vm, ctor, "DataView", NATIVES);
    // 25.3.4.25 DataView.prototype [ %Symbol.toStringTag% ]
    define_to_string_tag(vm, proto, "DataView");
}

/// The slots of a DataView: buffer, byte offset, byte length (None: auto).
fn view_slots(vm: &Vm, o: ObjectId) -> Option<(ObjectId, usize, Option<usize>)> {
    match &vm.heap.obj(o).class {
        Class::DataView(d) => Some((d.buffer, d.byte_offset, d.length)),
        _ => None,
    }
}

/// RequireInternalSlot(view, [[DataView]]).
fn require_data_view(vm: &mut Vm, this: Value, method: &str) -> JsResult<(ObjectId, usize, Option<usize>)> {
    if let Some(s) = this.as_object().and_then(|o| view_slots(vm, o)) {
        return Ok(s);
    }
    let shown = describe(vm, this, Shown::Plain);
    Err(vm.type_error(format!("Method DataView.prototype.{method} called on incompatible receiver {shown}")))
}

/// GetViewByteLength (§25.3.1.2) when not out of bounds (IsViewOutOfBounds §25.3.1.3).
fn view_byte_length(vm: &Vm, buffer: ObjectId, byte_offset: usize, length: Option<usize>) -> Option<usize> {
    view_length(vm, buffer, byte_offset, length, 1)
}

/// ### 25.3.2.1 DataView ( buffer [ , byteOffset [ , byteLength ] ] )
/// https://tc39.es/ecma262/#sec-dataview-buffer-byteoffset-bytelength
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor DataView requires 'new'"));
    }
    // 2. Perform ? RequireInternalSlot(buffer, [[ArrayBufferData]]).
    let Some(buffer) = array_buffer::is_array_buffer(vm, arg(args, 0)) else {
        return Err(vm.type_error("First argument to DataView constructor must be an ArrayBuffer"));
    };
    // 3. Let offset be ? ToIndex(byteOffset).
    let byte_offset = arg(args, 1);
    let offset =
        to_index_with(vm, byte_offset, |shown| format!("Start offset {shown} is outside the bounds of the buffer"))?;
    // 4. If IsDetachedBuffer(buffer) is true, throw a TypeError exception.
    // 5. Let bufferByteLength be ArrayBufferByteLength(buffer, seq-cst).
    let Some(buffer_byte_length) = array_buffer::byte_length(vm, buffer) else {
        return Err(vm.type_error("Cannot perform DataView constructor on a detached ArrayBuffer"));
    };
    // 6. If offset > bufferByteLength, throw a RangeError exception.
    if offset > buffer_byte_length as u64 {
        return Err(vm.range_error(format!("Start offset {offset} is outside the bounds of the buffer")));
    }
    // 7. Let bufferIsFixedLength be IsFixedLengthArrayBuffer(buffer).
    let fixed = array_buffer::is_fixed_length(vm, buffer);
    let byte_length = arg(args, 2);
    // 8. If byteLength is undefined, then
    let view_byte_length = if byte_length.is_undefined() {
        // a. If bufferIsFixedLength is true, viewByteLength is bufferByteLength - offset.
        // b. Else, let viewByteLength be auto.
        if fixed {
            Some(buffer_byte_length as u64 - offset)
        } else {
            None
        }
    } else {
        // 9. Else,
        //    a. Let viewByteLength be ? ToIndex(byteLength).
        let n = to_index_with(vm, byte_length, |shown| format!("Invalid DataView length {shown}"))?;
        //    b. If offset + viewByteLength > bufferByteLength, throw a RangeError exception.
        if offset + n > buffer_byte_length as u64 {
            return Err(vm.range_error(format!("Invalid DataView length {n}")));
        }
        Some(n)
    };
    // 10. Let O be ? OrdinaryCreateFromConstructor(NewTarget, "%DataView.prototype%", slots).
    let default = vm.realm.data_view_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 11. If IsDetachedBuffer(buffer) is true, throw a TypeError exception.
    // 12. Set bufferByteLength to ArrayBufferByteLength(buffer, seq-cst).
    let Some(buffer_byte_length) = array_buffer::byte_length(vm, buffer) else {
        return Err(vm.type_error("Cannot perform DataView constructor on a detached ArrayBuffer"));
    };
    // 13. If offset > bufferByteLength, throw a RangeError exception.
    if offset > buffer_byte_length as u64 {
        return Err(vm.range_error(format!("Start offset {offset} is outside the bounds of the buffer")));
    }
    // 14. If byteLength is not undefined, then
    //     a. If offset + viewByteLength > bufferByteLength, throw a RangeError exception.
    if let (false, Some(n)) = (byte_length.is_undefined(), view_byte_length) {
        if offset + n > buffer_byte_length as u64 {
            return Err(vm.range_error(format!("Invalid DataView length {n}")));
        }
    }
    // 15-18. Set O.[[ViewedArrayBuffer]], [[ByteLength]], [[ByteOffset]].
    let data = TypedArrayData {
        kind: TypedKind::Uint8,
        buffer,
        byte_offset: offset as usize,
        length: view_byte_length.map(|n| n as usize),
    };
    let o = vm.heap.alloc_object(Object::new(Some(proto), Class::DataView(Box::new(data))));
    // 19. Return O.
    Ok(Value::object(o))
}

/// ### 25.3.4.1 get DataView.prototype.buffer
/// https://tc39.es/ecma262/#sec-get-dataview.prototype.buffer
fn buffer(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. Perform ? RequireInternalSlot(O, [[DataView]]).
    let (buffer, _, _) = require_data_view(vm, this, "buffer")?;
    // 4-5. Return O.[[ViewedArrayBuffer]].
    Ok(Value::object(buffer))
}

/// ### 25.3.4.2 get DataView.prototype.byteLength
/// https://tc39.es/ecma262/#sec-get-dataview.prototype.bytelength
fn byte_length(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. Perform ? RequireInternalSlot(O, [[DataView]]).
    let (buffer, offset, length) = require_data_view(vm, this, "byteLength")?;
    // 4-5. If IsViewOutOfBounds(viewRecord) is true, throw a TypeError exception.
    // 6-7. Return 𝔽(GetViewByteLength(viewRecord)).
    match view_byte_length(vm, buffer, offset, length) {
        Some(n) => Ok(Value::number(n as f64)),
        None => {
            Err(vm
                .type_error("Cannot perform DataView.prototype.byteLength on a detached or out-of-bounds ArrayBuffer"))
        }
    }
}

/// ### 25.3.4.3 get DataView.prototype.byteOffset
/// https://tc39.es/ecma262/#sec-get-dataview.prototype.byteoffset
fn byte_offset(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-3. Perform ? RequireInternalSlot(O, [[DataView]]).
    let (buffer, offset, length) = require_data_view(vm, this, "byteOffset")?;
    // 4-5. If IsViewOutOfBounds(viewRecord) is true, throw a TypeError exception.
    if view_byte_length(vm, buffer, offset, length).is_none() {
        return Err(
            vm.type_error("Cannot perform DataView.prototype.byteOffset on a detached or out-of-bounds ArrayBuffer")
        );
    }
    // 6-7. Return 𝔽(O.[[ByteOffset]]).
    Ok(Value::number(offset as f64))
}

/// ### 25.3.1.5 GetViewValue ( view, requestIndex, isLittleEndian, type )
/// https://tc39.es/ecma262/#sec-getviewvalue
fn get_view_value(
    vm: &mut Vm,
    view: Value,
    request_index: Value,
    is_little_endian: Value,
    kind: TypedKind,
    method: &str,
) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(view, [[DataView]]).
    let (buffer, view_offset, length) = require_data_view(vm, view, method)?;
    // 3. Let getIndex be ? ToIndex(requestIndex).
    let get_index = to_index_with(vm, request_index, |_| "Offset is outside the bounds of the DataView".into())?;
    // 4. Set isLittleEndian to ToBoolean(isLittleEndian).
    let little = to_boolean(vm, is_little_endian);
    // 5. Let viewOffset be view.[[ByteOffset]].
    // 6-8. If IsViewOutOfBounds(viewRecord) is true, throw a TypeError exception.
    let Some(view_size) = view_byte_length(vm, buffer, view_offset, length) else {
        return Err(vm.type_error(format!(
            "Cannot perform DataView.prototype.{method} on a detached or out-of-bounds ArrayBuffer"
        )));
    };
    // 9. Let viewSize be GetViewByteLength(viewRecord).
    // 10. Let elementSize be the Element Size value specified in Table 71 for Element Type type.
    let size = element_size(kind);
    // 11. If getIndex + elementSize > viewSize, throw a RangeError exception.
    if get_index + size as u64 > view_size as u64 {
        return Err(vm.range_error("Offset is outside the bounds of the DataView"));
    }
    // 12. Let getIndex be getIndex + viewOffset.
    let buffer_index = get_index as usize + view_offset;
    // 13. Return GetValueFromBuffer(view.[[ViewedArrayBuffer]], bufferIndex, type, false, unordered, isLittleEndian).
    let raw = array_buffer::bytes(vm, buffer).map_or(0, |b| b.read_raw(buffer_index, size, little));
    let n = element::decode(kind, raw);
    Ok(numeric_to_value(vm, kind, n))
}

/// ### 25.3.1.6 SetViewValue ( view, requestIndex, isLittleEndian, type, value )
/// https://tc39.es/ecma262/#sec-setviewvalue
fn set_view_value(
    vm: &mut Vm,
    view: Value,
    request_index: Value,
    is_little_endian: Value,
    kind: TypedKind,
    value: Value,
    method: &str,
) -> JsResult<Value> {
    // 1-2. Perform ? RequireInternalSlot(view, [[DataView]]).
    let (buffer, view_offset, length) = require_data_view(vm, view, method)?;
    // 3. Let getIndex be ? ToIndex(requestIndex).
    let get_index = to_index_with(vm, request_index, |_| "Offset is outside the bounds of the DataView".into())?;
    // 4-5. If IsBigIntElementType(type), let numberValue be ? ToBigInt(value); else ? ToNumber(value).
    let number_value = to_numeric_for(vm, kind, value)?;
    // 6. Set isLittleEndian to ToBoolean(isLittleEndian).
    let little = to_boolean(vm, is_little_endian);
    // 7. Let viewOffset be view.[[ByteOffset]].
    // 8-10. If IsViewOutOfBounds(viewRecord) is true, throw a TypeError exception.
    let Some(view_size) = view_byte_length(vm, buffer, view_offset, length) else {
        return Err(vm.type_error(format!(
            "Cannot perform DataView.prototype.{method} on a detached or out-of-bounds ArrayBuffer"
        )));
    };
    // 11. Let viewSize be GetViewByteLength(viewRecord).
    // 12. Let elementSize be the Element Size value specified in Table 71 for Element Type type.
    let size = element_size(kind);
    // 13. If getIndex + elementSize > viewSize, throw a RangeError exception.
    if get_index + size as u64 > view_size as u64 {
        return Err(vm.range_error("Offset is outside the bounds of the DataView"));
    }
    // 14. Let getIndex be getIndex + viewOffset.
    let buffer_index = get_index as usize + view_offset;
    // 15. Perform SetValueInBuffer(view.[[ViewedArrayBuffer]], bufferIndex, type, numberValue, false, unordered, isLittleEndian).
    let raw = element::encode(kind, number_value);
    array_buffer::write_raw(vm, buffer, buffer_index, size, raw, little);
    // 16. Return undefined.
    Ok(Value::UNDEFINED)
}

macro_rules! view_getters {
    ($($f:ident => $kind:ident, $name:literal;)*) => {$(
        /// ### 25.3.4 DataView.prototype.get<Type> ( byteOffset [ , littleEndian ] )
        ///
        /// 1. Let v be the this value.
        /// 2. If littleEndian is not present, set littleEndian to false.
        /// 3. Return ? GetViewValue(v, byteOffset, littleEndian, <Type>).
        fn $f(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
            get_view_value(vm, this, arg(args, 0), arg(args, 1), TypedKind::$kind, $name)
        }
    )*};
}

macro_rules! view_setters {
    ($($f:ident => $kind:ident, $name:literal;)*) => {$(
        /// ### 25.3.4 DataView.prototype.set<Type> ( byteOffset, value [ , littleEndian ] )
        ///
        /// 1. Let v be the this value.
        /// 2. If littleEndian is not present, set littleEndian to false.
        /// 3. Return ? SetViewValue(v, byteOffset, littleEndian, <Type>, value).
        fn $f(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
            set_view_value(vm, this, arg(args, 0), arg(args, 2), TypedKind::$kind, arg(args, 1), $name)
        }
    )*};
}

view_getters! {
    get_big_int64 => BigInt64, "getBigInt64";
    get_big_uint64 => BigUint64, "getBigUint64";
    get_float16 => Float16, "getFloat16";
    get_float32 => Float32, "getFloat32";
    get_float64 => Float64, "getFloat64";
    get_int16 => Int16, "getInt16";
    get_int32 => Int32, "getInt32";
    get_uint16 => Uint16, "getUint16";
    get_uint32 => Uint32, "getUint32";
}

view_setters! {
    set_big_int64 => BigInt64, "setBigInt64";
    set_big_uint64 => BigUint64, "setBigUint64";
    set_float16 => Float16, "setFloat16";
    set_float32 => Float32, "setFloat32";
    set_float64 => Float64, "setFloat64";
    set_int16 => Int16, "setInt16";
    set_int32 => Int32, "setInt32";
    set_uint16 => Uint16, "setUint16";
    set_uint32 => Uint32, "setUint32";
}

/// ### 25.3.4.7 DataView.prototype.getInt8 ( byteOffset )
/// https://tc39.es/ecma262/#sec-dataview.prototype.getint8
fn get_int8(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Return ? GetViewValue(v, byteOffset, true, int8).
    get_view_value(vm, this, arg(args, 0), Value::TRUE, TypedKind::Int8, "getInt8")
}

/// ### 25.3.4.12 DataView.prototype.getUint8 ( byteOffset )
/// https://tc39.es/ecma262/#sec-dataview.prototype.getuint8
fn get_uint8(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Return ? GetViewValue(v, byteOffset, true, uint8).
    get_view_value(vm, this, arg(args, 0), Value::TRUE, TypedKind::Uint8, "getUint8")
}

/// ### 25.3.4.20 DataView.prototype.setInt8 ( byteOffset, value )
/// https://tc39.es/ecma262/#sec-dataview.prototype.setint8
fn set_int8(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Return ? SetViewValue(v, byteOffset, true, int8, value).
    set_view_value(vm, this, arg(args, 0), Value::TRUE, TypedKind::Int8, arg(args, 1), "setInt8")
}

/// ### 25.3.4.25 DataView.prototype.setUint8 ( byteOffset, value )
/// https://tc39.es/ecma262/#sec-dataview.prototype.setuint8
fn set_uint8(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Return ? SetViewValue(v, byteOffset, true, uint8, value).
    set_view_value(vm, this, arg(args, 0), Value::TRUE, TypedKind::Uint8, arg(args, 1), "setUint8")
}
