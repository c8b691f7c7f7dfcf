//! `node:buffer`: Buffer (a Uint8Array subclass, as in Node), `atob`/`btoa`. The class and
//! its methods are JavaScript (`js/buffer.js`); the hot paths — encoding strings to bytes and
//! back (utf8, utf16le, latin1, ascii, base64, base64url, hex), searching, comparing and
//! filling — are the Rust natives here, shared with `node:string_decoder`, `node:crypto`
//! and the Web encoding globals through the byte helpers ([`view_bytes`], [`new_buffer`]).

use amber_engine::builtins::array_buffer;
use amber_engine::error::JsResult;
use amber_engine::heap::object::{ArrayBufferData, Class, DataBlock, Object, TypedArrayData, TypedKind};
use amber_engine::runtime::convert::to_number;
use amber_engine::{HostFn, JsStr, ObjectId, Value, Vm};
use std::borrow::Cow;

use super::Builtin;

pub const BUILTIN: Builtin =
    Builtin { name: "buffer", source: include_str!("js/buffer.js"), natives: NATIVES, bare: true };

const NATIVES: &[(&str, u32, HostFn)] = &[
    ("setPrototype", 1, set_prototype),
    ("fromString", 2, from_string),
    ("toString", 4, to_string),
    ("byteLength", 2, byte_length),
    ("write", 5, write),
    ("compare", 2, compare),
    ("indexOf", 4, index_of),
    ("fillPattern", 4, fill_pattern),
    ("copyBytes", 5, copy_bytes),
];

/// [`Vm::host_value`] entry: `Buffer.prototype`, the prototype natives give new buffers.
pub const PROTOTYPE: &str = "node.buffer.prototype";

/// A string encoding, by the index `js/buffer.js` passes (after normalizing the name).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    Utf8,
    Utf16le,
    Latin1,
    Ascii,
    Base64,
    Base64url,
    Hex,
}

impl Encoding {
    fn from_index(i: f64) -> Encoding {
        match i as i32 {
            1 => Encoding::Utf16le,
            2 => Encoding::Latin1,
            3 => Encoding::Ascii,
            4 => Encoding::Base64,
            5 => Encoding::Base64url,
            6 => Encoding::Hex,
            _ => Encoding::Utf8,
        }
    }
}

// ---- bytes of views

/// (buffer, byte offset, byte length) of a TypedArray, DataView or ArrayBuffer; None for
/// anything else or a detached / out-of-bounds view.
pub fn view_range(vm: &Vm, v: Value) -> Option<(ObjectId, usize, usize)> {
    let o = v.as_object()?;
    let (buffer, offset, length, size) = match &vm.heap.obj(o).class {
        Class::ArrayBuffer(data) => return Some((o, 0, data.block.byte_length()?)),
        Class::TypedArray(t) => (t.buffer, t.byte_offset, t.length, element_size(t.kind)),
        Class::DataView(t) => (t.buffer, t.byte_offset, t.length, 1),
        _ => return None,
    };
    let total = match &vm.heap.obj(buffer).class {
        Class::ArrayBuffer(data) => data.block.byte_length()?,
        _ => return None,
    };
    if offset > total {
        return None;
    }
    let bytes = match length {
        None => (total - offset) / size * size,
        Some(n) => n.checked_mul(size).filter(|b| offset + b <= total)?,
    };
    Some((buffer, offset, bytes))
}

fn element_size(kind: TypedKind) -> usize {
    amber_engine::builtins::typed_array::element::element_size(kind)
}

/// The bytes a view covers (see [`view_range`]): borrowed, or copied from shared memory.
pub fn view_bytes(vm: &Vm, v: Value) -> Option<Cow<'_, [u8]>> {
    let (buffer, offset, len) = view_range(vm, v)?;
    array_buffer::bytes(vm, buffer)?.get(offset..offset + len)
}

/// Runs `f` over the bytes a view covers, writable; None for anything but a live view.
pub fn with_view_bytes_mut<R>(vm: &mut Vm, v: Value, f: impl FnOnce(&mut [u8]) -> R) -> Option<R> {
    let (buffer, offset, len) = view_range(vm, v)?;
    array_buffer::with_bytes_mut(vm, buffer, offset..offset + len, f)
}

/// The bytes of a view argument, copied; a TypeError naming `what` otherwise.
pub fn bytes_arg(vm: &mut Vm, v: Value, what: &str) -> JsResult<Vec<u8>> {
    match view_bytes(vm, v) {
        Some(b) => Ok(b.to_vec()),
        None => Err(vm.type_error(format!("{what} must be a Buffer, TypedArray, DataView or ArrayBuffer"))),
    }
}

/// A new Uint8Array over `bytes` with prototype `proto`, counted against the heap budget.
pub fn new_uint8_array(vm: &mut Vm, proto: ObjectId, bytes: Vec<u8>) -> JsResult<Value> {
    let len = bytes.len();
    if let Some(max) = vm.options.max_heap_bytes {
        if len as u64 > max.saturating_sub(vm.heap.bytes_estimate) {
            return Err(vm.range_error("Array buffer allocation failed"));
        }
    }
    vm.charge(len as u64 / 256)?;
    vm.heap.bytes_estimate = vm.heap.bytes_estimate.saturating_add(len as u64);
    let data = ArrayBufferData { block: DataBlock::Local(bytes), max_byte_length: None };
    let ab_proto = vm.realm.array_buffer_prototype;
    let buffer = vm.heap.alloc_object(Object::new(Some(ab_proto), Class::ArrayBuffer(Box::new(data))));
    let view = TypedArrayData { kind: TypedKind::Uint8, buffer, byte_offset: 0, length: Some(len) };
    Ok(Value::object(vm.heap.alloc_object(Object::new(Some(proto), Class::TypedArray(Box::new(view))))))
}

/// A new Buffer holding `bytes` (a plain Uint8Array before `node:buffer` has loaded).
pub fn new_buffer(vm: &mut Vm, bytes: Vec<u8>) -> JsResult<Value> {
    let proto = vm.host_value(PROTOTYPE).and_then(|v| v.as_object()).unwrap_or(vm.realm.uint8_array_prototype);
    new_uint8_array(vm, proto, bytes)
}

/// True when `o` is a Buffer (its prototype is Buffer.prototype).
pub fn is_buffer(vm: &Vm, o: ObjectId) -> bool {
    let Some(proto) = vm.host_value(PROTOTYPE).and_then(|v| v.as_object()) else { return false };
    matches!(vm.heap.obj(o).class, Class::TypedArray(_)) && vm.heap.obj(o).proto == Some(proto)
}

/// Node's inspect form of a Buffer: `<Buffer 68 69>`, at most 50 bytes shown.
pub fn inspect_buffer(vm: &Vm, o: ObjectId) -> Option<String> {
    if !is_buffer(vm, o) {
        return None;
    }
    let bytes = view_bytes(vm, Value::object(o)).unwrap_or_default();
    let mut out = String::from("<Buffer");
    for b in bytes.iter().take(50) {
        out.push_str(&format!(" {b:02x}"));
    }
    if bytes.len() > 50 {
        let more = bytes.len() - 50;
        out.push_str(&format!(" ... {more} more byte{}", if more > 1 { "s" } else { "" }));
    }
    out.push('>');
    Some(out)
}

// ---- encoding

/// UTF-8 bytes of UTF-16 code units; a lone surrogate becomes U+FFFD (as Node does).
pub fn utf8_encode(units: impl Iterator<Item = u16>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut tmp = [0u8; 4];
    for c in char::decode_utf16(units) {
        let c = c.unwrap_or('\u{FFFD}');
        out.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
    }
    out
}

/// The UTF-8 length of `s` (lone surrogates count 3).
fn utf8_length(s: &JsStr) -> usize {
    match s {
        JsStr::Latin1(b) => b.iter().map(|&c| if c < 0x80 { 1 } else { 2 }).sum(),
        JsStr::Utf16(u) => char::decode_utf16(u.iter().copied()).map(|c| c.map_or(3, char::len_utf8)).sum(),
    }
}

/// UTF-8 decoding with WHATWG replacement (maximal subparts → U+FFFD), as Node does.
pub fn utf8_decode(bytes: &[u8]) -> JsStr {
    if bytes.is_ascii() {
        return JsStr::from_latin1(bytes.to_vec());
    }
    JsStr::from_str(&String::from_utf8_lossy(bytes))
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64 text of `bytes` (padded) or base64url (unpadded).
pub fn base64_encode(bytes: &[u8], url: bool) -> String {
    let table = if url { BASE64URL } else { BASE64 };
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        let chars = [(n >> 18) & 63, (n >> 12) & 63, (n >> 6) & 63, n & 63];
        for (i, &c) in chars.iter().enumerate() {
            if i <= chunk.len() {
                out.push(table[c as usize] as char);
            } else if !url {
                out.push('=');
            }
        }
    }
    out
}

fn base64_value(c: u16) -> Option<u32> {
    Some(match c {
        0x41..=0x5a => u32::from(c) - 0x41,
        0x61..=0x7a => u32::from(c) - 0x61 + 26,
        0x30..=0x39 => u32::from(c) - 0x30 + 52,
        0x2b | 0x2d => 62,
        0x2f | 0x5f => 63,
        _ => return None,
    })
}

/// Node's lenient base64 (either alphabet; other characters skipped; stops at `=`).
pub fn base64_decode(units: impl Iterator<Item = u16>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut acc = 0u32;
    let mut n = 0;
    for c in units {
        if c == u16::from(b'=') {
            break;
        }
        let Some(v) = base64_value(c) else { continue };
        acc = (acc << 6) | v;
        n += 1;
        if n == 4 {
            out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]);
            acc = 0;
            n = 0;
        }
    }
    match n {
        2 => out.push((acc >> 4) as u8),
        3 => out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]),
        _ => {}
    }
    out
}

/// Node's `base64ByteLength`: the length of the decoded bytes, estimated from the text.
fn base64_byte_length(s: &JsStr) -> usize {
    let mut len = s.len();
    for _ in 0..2 {
        if len > 0 && s.unit(len - 1) == u16::from(b'=') {
            len -= 1;
        }
    }
    len * 3 / 4
}

fn hex_value(c: u16) -> Option<u8> {
    match c {
        0x30..=0x39 => Some((c - 0x30) as u8),
        0x41..=0x46 => Some((c - 0x41 + 10) as u8),
        0x61..=0x66 => Some((c - 0x61 + 10) as u8),
        _ => None,
    }
}

/// Hex pairs until the first invalid one (Node truncates there).
fn hex_decode(s: &JsStr) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len() / 2);
    let mut i = 0;
    while i + 1 < s.len() {
        match (hex_value(s.unit(i)), hex_value(s.unit(i + 1))) {
            (Some(h), Some(l)) => out.push(h << 4 | l),
            _ => break,
        }
        i += 2;
    }
    out
}

/// Lower-case hex of `bytes`.
pub fn hex_encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 15) as usize] as char);
    }
    out
}

/// `s` encoded as bytes.
pub fn encode(s: &JsStr, enc: Encoding) -> Vec<u8> {
    match enc {
        Encoding::Utf8 => match s {
            JsStr::Latin1(b) if b.is_ascii() => b.to_vec(),
            _ => utf8_encode(s.iter()),
        },
        Encoding::Utf16le => s.iter().flat_map(u16::to_le_bytes).collect(),
        Encoding::Latin1 | Encoding::Ascii => s.iter().map(|u| u as u8).collect(),
        Encoding::Base64 | Encoding::Base64url => base64_decode(s.iter()),
        Encoding::Hex => hex_decode(s),
    }
}

/// `bytes` decoded as a string.
pub fn decode(bytes: &[u8], enc: Encoding) -> JsStr {
    match enc {
        Encoding::Utf8 => utf8_decode(bytes),
        Encoding::Utf16le => {
            JsStr::from_units(bytes.chunks_exact(2).map(|p| u16::from_le_bytes([p[0], p[1]])).collect())
        }
        Encoding::Latin1 => JsStr::from_latin1(bytes.to_vec()),
        Encoding::Ascii => JsStr::from_latin1(bytes.iter().map(|b| b & 0x7f).collect()),
        Encoding::Base64 => JsStr::from_latin1(base64_encode(bytes, false).into_bytes()),
        Encoding::Base64url => JsStr::from_latin1(base64_encode(bytes, true).into_bytes()),
        Encoding::Hex => JsStr::from_latin1(hex_encode(bytes).into_bytes()),
    }
}

// ---- natives

fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::UNDEFINED)
}

fn num_arg(vm: &mut Vm, args: &[Value], i: usize) -> JsResult<f64> {
    to_number(vm, arg(args, i))
}

/// A string argument's contents (ToString for anything else).
pub fn str_arg(vm: &mut Vm, v: Value) -> JsResult<JsStr> {
    match v.as_string() {
        Some(s) => Ok(vm.heap.flat(s).clone()),
        None => amber_engine::runtime::convert::to_js_str(vm, v),
    }
}

/// An index argument clamped to `0..=max`.
fn index_arg(vm: &mut Vm, args: &[Value], i: usize, default: usize, max: usize) -> JsResult<usize> {
    let v = arg(args, i);
    if v.is_undefined() {
        return Ok(default.min(max));
    }
    let n = to_number(vm, v)?;
    Ok(if n.is_nan() || n <= 0.0 {
        0
    } else if n >= max as f64 {
        max
    } else {
        n as usize
    })
}

fn encoding_arg(vm: &mut Vm, args: &[Value], i: usize) -> JsResult<Encoding> {
    Ok(Encoding::from_index(num_arg(vm, args, i)?))
}

/// `setPrototype(Buffer.prototype)`: once, when `node:buffer` loads.
fn set_prototype(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let proto = arg(args, 0);
    if proto.is_object() {
        vm.set_host_value(PROTOTYPE, proto);
    }
    Ok(Value::UNDEFINED)
}

/// `fromString(string, encoding)` → a new Buffer.
fn from_string(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = str_arg(vm, arg(args, 0))?;
    let enc = encoding_arg(vm, args, 1)?;
    let bytes = encode(&s, enc);
    new_buffer(vm, bytes)
}

/// `toString(view, encoding, start, end)` → string.
fn to_string(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let enc = encoding_arg(vm, args, 1)?;
    let len = view_range(vm, arg(args, 0)).map_or(0, |r| r.2);
    let start = index_arg(vm, args, 2, 0, len)?;
    let end = index_arg(vm, args, 3, len, len)?.max(start);
    let Some(bytes) = view_bytes(vm, arg(args, 0)) else {
        return Err(vm.type_error("argument must be a buffer"));
    };
    let s = decode(bytes.get(start..end).unwrap_or(&[]), enc);
    Ok(vm.js_str(s))
}

/// `byteLength(string, encoding)`.
fn byte_length(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = str_arg(vm, arg(args, 0))?;
    let n = match encoding_arg(vm, args, 1)? {
        Encoding::Utf8 => utf8_length(&s),
        Encoding::Utf16le => s.len() * 2,
        Encoding::Latin1 | Encoding::Ascii => s.len(),
        Encoding::Base64 | Encoding::Base64url => base64_byte_length(&s),
        Encoding::Hex => s.len() / 2,
    };
    Ok(Value::number(n as f64))
}

/// `write(buf, string, offset, length, encoding)` → bytes written; never a partial
/// character (utf8) or code unit (utf16le).
fn write(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = str_arg(vm, arg(args, 1))?;
    let enc = encoding_arg(vm, args, 4)?;
    let len = view_range(vm, arg(args, 0)).map_or(0, |r| r.2);
    let offset = index_arg(vm, args, 2, 0, len)?;
    let max = index_arg(vm, args, 3, len - offset, len - offset)?;
    let mut bytes = encode(&s, enc);
    if bytes.len() > max {
        let mut n = max;
        match enc {
            Encoding::Utf8 => {
                while n > 0 && (bytes[n] & 0xc0) == 0x80 {
                    n -= 1;
                }
            }
            Encoding::Utf16le => n &= !1,
            _ => {}
        }
        bytes.truncate(n);
    }
    let n = bytes.len();
    let written = with_view_bytes_mut(vm, arg(args, 0), |target| {
        if let Some(dst) = target.get_mut(offset..offset + n) {
            dst.copy_from_slice(&bytes);
        }
    });
    if written.is_none() {
        return Err(vm.type_error("argument must be a buffer"));
    }
    Ok(Value::number(n as f64))
}

/// `compare(a, b)` → -1, 0 or 1 (bytewise).
fn compare(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let a = bytes_arg(vm, arg(args, 0), "The \"source\" argument")?;
    let b = view_bytes(vm, arg(args, 1));
    let Some(b) = b else { return Err(vm.type_error("The \"target\" argument must be a Buffer or Uint8Array")) };
    Ok(Value::int(match a.as_slice().cmp(&b) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    }))
}

/// `indexOf(buf, needle, byteOffset, forward)` → index or -1. `byteOffset` is already
/// resolved (non-negative) by the caller.
fn index_of(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let needle = bytes_arg(vm, arg(args, 1), "The \"value\" argument")?;
    let offset = num_arg(vm, args, 2)?;
    let forward = amber_engine::runtime::convert::to_boolean(vm, arg(args, 3));
    let Some(hay) = view_bytes(vm, arg(args, 0)) else { return Ok(Value::int(-1)) };
    let len = hay.len();
    let found = if forward {
        let from = if offset.is_nan() || offset < 0.0 { 0 } else { offset.min(len as f64) as usize };
        if needle.is_empty() {
            Some(from)
        } else {
            (from..len.saturating_sub(needle.len() - 1)).find(|&i| hay[i..].starts_with(&needle))
        }
    } else {
        if offset < 0.0 {
            return Ok(Value::int(-1));
        }
        let last_start = len.checked_sub(needle.len());
        match last_start {
            None => None,
            Some(last) => {
                let from = if offset.is_nan() { last } else { (offset.min(last as f64)) as usize };
                (0..=from).rev().find(|&i| hay[i..].starts_with(&needle))
            }
        }
    };
    Ok(Value::number(found.map_or(-1.0, |i| i as f64)))
}

/// `fillPattern(buf, pattern, start, end)`: repeat `pattern` over `buf[start..end]`.
fn fill_pattern(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let pattern = bytes_arg(vm, arg(args, 1), "The \"value\" argument")?;
    let len = view_range(vm, arg(args, 0)).map_or(0, |r| r.2);
    let start = index_arg(vm, args, 2, 0, len)?;
    let end = index_arg(vm, args, 3, len, len)?;
    if pattern.is_empty() {
        return Ok(Value::UNDEFINED);
    }
    with_view_bytes_mut(vm, arg(args, 0), |bytes| {
        for (i, b) in bytes.iter_mut().enumerate().take(end).skip(start) {
            *b = pattern[(i - start) % pattern.len()];
        }
    });
    Ok(Value::UNDEFINED)
}

/// `copyBytes(source, target, targetStart, sourceStart, sourceEnd)` → bytes copied
/// (overlapping ranges allowed).
fn copy_bytes(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let src_len = view_range(vm, arg(args, 0)).map_or(0, |r| r.2);
    let dst_len = view_range(vm, arg(args, 1)).map_or(0, |r| r.2);
    let target_start = index_arg(vm, args, 2, 0, dst_len)?;
    let source_start = index_arg(vm, args, 3, 0, src_len)?;
    let source_end = index_arg(vm, args, 4, src_len, src_len)?.max(source_start);
    let n = (source_end - source_start).min(dst_len - target_start);
    let chunk = match view_bytes(vm, arg(args, 0)) {
        Some(b) => b[source_start..source_start + n].to_vec(),
        None => return Err(vm.type_error("argument must be a buffer")),
    };
    with_view_bytes_mut(vm, arg(args, 1), |dst| dst[target_start..target_start + n].copy_from_slice(&chunk));
    Ok(Value::number(n as f64))
}
