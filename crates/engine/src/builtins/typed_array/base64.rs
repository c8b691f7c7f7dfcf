//! Uint8Array to and from base64 and hex (ES2026, proposal-arraybuffer-base64):
//! https://tc39.es/proposal-arraybuffer-base64/spec/
//!
//! The decoders run no user code: every option is read before decoding starts.

use crate::builtins::arg;
use crate::builtins::array_buffer::{self, BYTES_PER_FUEL};
use crate::builtins::typed_array::{allocate_typed_array, out_of_bounds, record, slots, TaRecord};
use crate::error::{JsResult, Throw};
use crate::heap::object::TypedKind;
use crate::heap::shape::PropFlags;
use crate::runtime::convert::to_boolean;
use crate::runtime::describe::{describe, Shown};
use crate::runtime::property::get;
use crate::string::JsStr;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// The standard base64 alphabet (RFC 4648 §4).
const BASE64_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/// The URL-safe alphabet (RFC 4648 §5).
const BASE64URL_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

#[derive(Clone, Copy, PartialEq, Debug)]
enum Alphabet {
    Base64,
    Base64Url,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum LastChunkHandling {
    Loose,
    Strict,
    StopBeforePartial,
}

/// The result of FromBase64 / FromHex: code units read, bytes decoded, and whether decoding
/// stopped at a SyntaxError (the bytes before it still count for setFrom*).
#[derive(Debug, PartialEq)]
struct Decoded {
    read: usize,
    bytes: Vec<u8>,
    error: bool,
}

/// ### ValidateUint8Array ( ta )
fn validate_uint8_array(vm: &mut Vm, ta: Value, method: &str) -> JsResult<ObjectId> {
    // 1. Perform ? RequireInternalSlot(ta, [[TypedArrayName]]).
    // 2. If ta.[[TypedArrayName]] is not "Uint8Array", throw a TypeError exception.
    if let Some(o) = ta.as_object() {
        if slots(vm, o).is_some_and(|s| s.kind == TypedKind::Uint8) {
            return Ok(o);
        }
    }
    let shown = describe(vm, ta, Shown::Plain);
    Err(vm.type_error(format!("Method Uint8Array.prototype.{method} called on incompatible receiver {shown}")))
}

/// GetUint8ArrayBytes ( ta ) 1-4: the record of an in-bounds Uint8Array, else a TypeError.
fn uint8_array_record(vm: &mut Vm, ta: ObjectId, method: &str) -> JsResult<TaRecord> {
    match record(vm, ta) {
        Some(r) => Ok(r),
        None => Err(out_of_bounds(vm, &format!("Uint8Array.prototype.{method}"))),
    }
}

/// The string argument: TypeError unless it is a String.
fn require_string(vm: &mut Vm, v: Value) -> JsResult<JsStr> {
    match v.as_string() {
        Some(s) => Ok(vm.heap.flat(s).clone()),
        None => Err(vm.type_error("The first argument must be a string")),
    }
}

/// GetOptionsObject ( options ): undefined reads as no options; a non-object is a TypeError.
fn get_options_object(vm: &mut Vm, options: Value) -> JsResult<Option<ObjectId>> {
    if options.is_undefined() {
        return Ok(None);
    }
    match options.as_object() {
        Some(o) => Ok(Some(o)),
        None => Err(vm.type_error("The options argument must be an object")),
    }
}

/// Get(opts, name) for an options object (undefined when there is none).
fn get_option(vm: &mut Vm, opts: Option<ObjectId>, name: &str) -> JsResult<Value> {
    let Some(o) = opts else {
        return Ok(Value::UNDEFINED);
    };
    let key = vm.key(name);
    get(vm, o, key, Value::object(o))
}

/// Steps reading `alphabet`: undefined is "base64"; anything but the two names a TypeError.
fn get_alphabet(vm: &mut Vm, opts: Option<ObjectId>) -> JsResult<Alphabet> {
    let alphabet = get_option(vm, opts, "alphabet")?;
    if alphabet.is_undefined() {
        return Ok(Alphabet::Base64);
    }
    if let Some(s) = alphabet.as_string() {
        match vm.heap.flat(s).to_rust_string().as_str() {
            "base64" => return Ok(Alphabet::Base64),
            "base64url" => return Ok(Alphabet::Base64Url),
            _ => {}
        }
    }
    Err(vm.type_error("expected alphabet to be either \"base64\" or \"base64url\""))
}

/// Steps reading `lastChunkHandling`: undefined is "loose".
fn get_last_chunk_handling(vm: &mut Vm, opts: Option<ObjectId>) -> JsResult<LastChunkHandling> {
    let handling = get_option(vm, opts, "lastChunkHandling")?;
    if handling.is_undefined() {
        return Ok(LastChunkHandling::Loose);
    }
    if let Some(s) = handling.as_string() {
        match vm.heap.flat(s).to_rust_string().as_str() {
            "loose" => return Ok(LastChunkHandling::Loose),
            "strict" => return Ok(LastChunkHandling::Strict),
            "stop-before-partial" => return Ok(LastChunkHandling::StopBeforePartial),
            _ => {}
        }
    }
    Err(vm.type_error("expected lastChunkHandling to be either \"loose\", \"strict\", or \"stop-before-partial\""))
}

/// A new Uint8Array holding `bytes` (AllocateTypedArray then copy).
fn new_uint8_array(vm: &mut Vm, bytes: &[u8]) -> JsResult<Value> {
    let proto = vm.realm.uint8_array_prototype;
    let ta = allocate_typed_array(vm, TypedKind::Uint8, proto, bytes.len() as u64)?;
    if let Some(r) = record(vm, ta) {
        array_buffer::with_bytes_mut(vm, r.buffer, 0..bytes.len(), |d| d.copy_from_slice(bytes));
    }
    Ok(Value::object(ta))
}

/// SetUint8ArrayBytes ( into, bytes ): write at the start of the view.
fn set_uint8_array_bytes(vm: &mut Vm, rec: &TaRecord, bytes: &[u8]) {
    let range = rec.byte_offset..rec.byte_offset + bytes.len();
    array_buffer::with_bytes_mut(vm, rec.buffer, range, |d| d.copy_from_slice(bytes));
}

/// The { read, written } result object of the setFrom* methods.
fn read_written(vm: &mut Vm, read: usize, written: usize) -> Value {
    let obj = vm.new_object();
    if let Some(o) = obj.as_object() {
        let read_key = vm.key("read");
        let written_key = vm.key("written");
        vm.define_builtin(o, read_key, Value::number(read as f64), PropFlags::DEFAULT);
        vm.define_builtin(o, written_key, Value::number(written as f64), PropFlags::DEFAULT);
    }
    obj
}

/// ### Uint8Array.fromBase64 ( string [ , options ] )
pub(crate) fn from_base64(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If string is not a String, throw a TypeError exception.
    let string = require_string(vm, arg(args, 0))?;
    // 2. Let opts be ? GetOptionsObject(options).
    let opts = get_options_object(vm, arg(args, 1))?;
    // 3-5. Let alphabet be ? Get(opts, "alphabet"), validated.
    let alphabet = get_alphabet(vm, opts)?;
    // 6-8. Let lastChunkHandling be ? Get(opts, "lastChunkHandling"), validated.
    let last = get_last_chunk_handling(vm, opts)?;
    // 9. Let result be FromBase64(string, alphabet, lastChunkHandling).
    vm.charge((string.len() / BYTES_PER_FUEL) as u64)?;
    let result = decode_base64(&string, alphabet, last, usize::MAX);
    // 10. If result.[[Error]] is not none, throw result.[[Error]].
    if result.error {
        return Err(vm.syntax_error("Invalid base64 string"));
    }
    // 11-14. Let ta be ? AllocateTypedArray("Uint8Array", %Uint8Array%, %Uint8Array.prototype%,
    //        resultLength); copy the bytes; return ta.
    new_uint8_array(vm, &result.bytes)
}

/// ### Uint8Array.fromHex ( string )
pub(crate) fn from_hex(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If string is not a String, throw a TypeError exception.
    let string = require_string(vm, arg(args, 0))?;
    // 2. Let result be FromHex(string).
    vm.charge((string.len() / BYTES_PER_FUEL) as u64)?;
    let result = decode_hex(&string, usize::MAX);
    // 3. If result.[[Error]] is not none, throw result.[[Error]].
    if result.error {
        return Err(vm.syntax_error("Input string must contain hex characters in even length"));
    }
    // 4-7. Allocate a Uint8Array of the result's length and copy.
    new_uint8_array(vm, &result.bytes)
}

/// ### Uint8Array.prototype.setFromBase64 ( string [ , options ] )
pub(crate) fn set_from_base64(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let into be the this value; perform ? ValidateUint8Array(into).
    let into = validate_uint8_array(vm, this, "setFromBase64")?;
    // 3. If string is not a String, throw a TypeError exception.
    let string = require_string(vm, arg(args, 0))?;
    // 4. Let opts be ? GetOptionsObject(options).
    let opts = get_options_object(vm, arg(args, 1))?;
    // 5-7. alphabet.
    let alphabet = get_alphabet(vm, opts)?;
    // 8-10. lastChunkHandling.
    let last = get_last_chunk_handling(vm, opts)?;
    // 11. Let taRecord be MakeTypedArrayWithBufferWitnessRecord(into, seq-cst).
    // 12. If IsTypedArrayOutOfBounds(taRecord) is true, throw a TypeError exception.
    let rec = uint8_array_record(vm, into, "setFromBase64")?;
    // 13. Let byteLength be TypedArrayLength(taRecord).
    // 14. Let result be FromBase64(string, alphabet, lastChunkHandling, byteLength).
    vm.charge((string.len() / BYTES_PER_FUEL) as u64)?;
    let result = decode_base64(&string, alphabet, last, rec.length);
    // 15-18. Let bytes be result.[[Bytes]]; written its length; SetUint8ArrayBytes(into, bytes).
    set_uint8_array_bytes(vm, &rec, &result.bytes);
    // 19. If result.[[Error]] is not none, throw result.[[Error]].
    if result.error {
        return Err(vm.syntax_error("Invalid base64 string"));
    }
    // 20-23. Return { read: result.[[Read]], written }.
    Ok(read_written(vm, result.read, result.bytes.len()))
}

/// ### Uint8Array.prototype.setFromHex ( string )
pub(crate) fn set_from_hex(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let into be the this value; perform ? ValidateUint8Array(into).
    let into = validate_uint8_array(vm, this, "setFromHex")?;
    // 3. If string is not a String, throw a TypeError exception.
    let string = require_string(vm, arg(args, 0))?;
    // 4. Let taRecord be MakeTypedArrayWithBufferWitnessRecord(into, seq-cst).
    // 5. If IsTypedArrayOutOfBounds(taRecord) is true, throw a TypeError exception.
    let rec = uint8_array_record(vm, into, "setFromHex")?;
    // 6. Let byteLength be TypedArrayLength(taRecord).
    // 7. Let result be FromHex(string, byteLength).
    vm.charge((string.len() / BYTES_PER_FUEL) as u64)?;
    let result = decode_hex(&string, rec.length);
    // 8-11. SetUint8ArrayBytes(into, bytes).
    set_uint8_array_bytes(vm, &rec, &result.bytes);
    // 12. If result.[[Error]] is not none, throw result.[[Error]].
    if result.error {
        return Err(vm.syntax_error("Input string must contain hex characters in even length"));
    }
    // 13-16. Return { read, written }.
    Ok(read_written(vm, result.read, result.bytes.len()))
}

/// ### Uint8Array.prototype.toBase64 ( [ options ] )
pub(crate) fn to_base64(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1-2. Let O be the this value; perform ? ValidateUint8Array(O).
    let o = validate_uint8_array(vm, this, "toBase64")?;
    // 3. Let opts be ? GetOptionsObject(options).
    let opts = get_options_object(vm, arg(args, 0))?;
    // 4-6. alphabet.
    let alphabet = get_alphabet(vm, opts)?;
    // 7. Let omitPadding be ToBoolean(? Get(opts, "omitPadding")).
    let omit = get_option(vm, opts, "omitPadding")?;
    let omit_padding = to_boolean(vm, omit);
    // 8. Let toEncode be ? GetUint8ArrayBytes(O).
    let rec = uint8_array_record(vm, o, "toBase64")?;
    let bytes = array_buffer::bytes(vm, rec.buffer)
        .and_then(|b| b.get(rec.byte_offset..rec.byte_offset + rec.length))
        .unwrap_or_default();
    // 9-10. Encode with the alphabet, padding unless omitted.
    let out = encode_base64(&bytes, alphabet, omit_padding);
    vm.charge((out.len() / BYTES_PER_FUEL) as u64)?;
    check_string_length(vm, out.len())?;
    // 11. Return CodePointsToString(outAscii).
    Ok(vm.js_str(JsStr::from_latin1(out)))
}

/// ### Uint8Array.prototype.toHex ( )
pub(crate) fn to_hex(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1-2. Let O be the this value; perform ? ValidateUint8Array(O).
    let o = validate_uint8_array(vm, this, "toHex")?;
    // 3. Let toEncode be ? GetUint8ArrayBytes(O).
    let rec = uint8_array_record(vm, o, "toHex")?;
    let bytes = array_buffer::bytes(vm, rec.buffer)
        .and_then(|b| b.get(rec.byte_offset..rec.byte_offset + rec.length))
        .unwrap_or_default();
    // 4-5. For each byte, append its two lowercase hex digits.
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = Vec::with_capacity(bytes.len() * 2);
    for &b in bytes.iter() {
        out.push(DIGITS[(b >> 4) as usize]);
        out.push(DIGITS[(b & 15) as usize]);
    }
    vm.charge((out.len() / BYTES_PER_FUEL) as u64)?;
    check_string_length(vm, out.len())?;
    // 6. Return out.
    Ok(vm.js_str(JsStr::from_latin1(out)))
}

/// RangeError past V8's longest string.
fn check_string_length(vm: &mut Vm, len: usize) -> Result<(), Throw> {
    if len > (1 << 29) - 24 {
        return Err(vm.range_error("Invalid string length"));
    }
    Ok(())
}

/// Base64 encoding of `bytes` (RFC 4648), optionally without `=` padding.
fn encode_base64(bytes: &[u8], alphabet: Alphabet, omit_padding: bool) -> Vec<u8> {
    let table = match alphabet {
        Alphabet::Base64 => BASE64_ALPHABET,
        Alphabet::Base64Url => BASE64URL_ALPHABET,
    };
    let mut out = Vec::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let digits = [(n >> 18) & 63, (n >> 12) & 63, (n >> 6) & 63, n & 63];
        let keep = chunk.len() + 1;
        for &d in &digits[..keep] {
            out.push(table[d as usize]);
        }
        if !omit_padding {
            out.extend(std::iter::repeat_n(b'=', 4 - keep));
        }
    }
    out
}

/// The 6-bit value of a standard-alphabet base64 character.
fn base64_value(c: u16) -> Option<u32> {
    let c = u8::try_from(c).ok()?;
    BASE64_ALPHABET.iter().position(|&a| a == c).map(|p| p as u32)
}

/// SkipAsciiWhitespace ( string, index )
fn skip_ascii_whitespace(s: &JsStr, mut index: usize) -> usize {
    while index < s.len() && matches!(s.unit(index), 0x09 | 0x0A | 0x0C | 0x0D | 0x20) {
        index += 1;
    }
    index
}

/// DecodeBase64Chunk ( chunk [ , throwOnExtraBits ] ): Err when the padding bits are set and
/// must not be.
fn decode_base64_chunk(chunk: &[u32], throw_on_extra_bits: bool) -> Result<Vec<u8>, ()> {
    // 1-4. Pad a partial chunk with "A"s (zero bits).
    let c = |i: usize| chunk.get(i).copied().unwrap_or(0);
    // 5-6. Decode the four characters into three bytes.
    let n = (c(0) << 18) | (c(1) << 12) | (c(2) << 6) | c(3);
    let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
    match chunk.len() {
        // 7. If chunkLength = 2: if throwOnExtraBits and bytes[1] ≠ 0, throw; return « bytes[0] ».
        2 => {
            if throw_on_extra_bits && bytes[1] != 0 {
                return Err(());
            }
            Ok(vec![bytes[0]])
        }
        // 8. If chunkLength = 3: if throwOnExtraBits and bytes[2] ≠ 0, throw; return bytes[0..2].
        3 => {
            if throw_on_extra_bits && bytes[2] != 0 {
                return Err(());
            }
            Ok(vec![bytes[0], bytes[1]])
        }
        // 9. Else, return bytes.
        _ => Ok(bytes.to_vec()),
    }
}

/// ### FromBase64 ( string, alphabet, lastChunkHandling [ , maxLength ] )
fn decode_base64(string: &JsStr, alphabet: Alphabet, last: LastChunkHandling, max_length: usize) -> Decoded {
    let done = |read: usize, bytes: Vec<u8>| Decoded { read, bytes, error: false };
    let fail = |read: usize, bytes: Vec<u8>| Decoded { read, bytes, error: true };
    // 3. If maxLength = 0, return { [[Read]]: 0, [[Bytes]]: « », [[Error]]: none }.
    if max_length == 0 {
        return done(0, Vec::new());
    }
    // 4-9. read, bytes, chunk, chunkLength, index, length.
    let mut read = 0;
    let mut bytes: Vec<u8> = Vec::new();
    let mut chunk: Vec<u32> = Vec::with_capacity(4);
    let mut index = 0;
    let length = string.len();
    // 10. Repeat,
    loop {
        // a. Set index to SkipAsciiWhitespace(string, index).
        index = skip_ascii_whitespace(string, index);
        // b. If index = length, then
        if index == length {
            // i. If chunkLength > 0, then
            if !chunk.is_empty() {
                match last {
                    // 1. If lastChunkHandling is "stop-before-partial", return { read, bytes, none }.
                    LastChunkHandling::StopBeforePartial => return done(read, bytes),
                    // 2. Else if lastChunkHandling is "loose", then
                    LastChunkHandling::Loose => {
                        // a. If chunkLength = 1, return an error.
                        if chunk.len() == 1 {
                            return fail(read, bytes);
                        }
                        // b. Set bytes to bytes + ! DecodeBase64Chunk(chunk, false).
                        bytes.extend(decode_base64_chunk(&chunk, false).unwrap_or_default());
                    }
                    // 3. Else (strict), return an error.
                    LastChunkHandling::Strict => return fail(read, bytes),
                }
            }
            // ii. Return { [[Read]]: length, [[Bytes]]: bytes, [[Error]]: none }.
            return done(length, bytes);
        }
        // c. Let char be the substring of string from index to index + 1.
        let mut ch = string.unit(index);
        // d. Set index to index + 1.
        index += 1;
        // e. If char is "=", then
        if ch == b'=' as u16 {
            // i. If chunkLength < 2, return an error.
            if chunk.len() < 2 {
                return fail(read, bytes);
            }
            // ii. Set index to SkipAsciiWhitespace(string, index).
            index = skip_ascii_whitespace(string, index);
            // iii. If chunkLength = 2, then
            if chunk.len() == 2 {
                // 1. If index = length, then
                if index == length {
                    // a. If lastChunkHandling is "stop-before-partial", return { read, bytes, none }.
                    if last == LastChunkHandling::StopBeforePartial {
                        return done(read, bytes);
                    }
                    // b. Return an error.
                    return fail(read, bytes);
                }
                // 2. Set char to the substring of string from index to index + 1.
                // 3. If char is "=", set index to SkipAsciiWhitespace(string, index + 1).
                if string.unit(index) == b'=' as u16 {
                    index = skip_ascii_whitespace(string, index + 1);
                }
            }
            // iv. If index < length, return an error.
            if index < length {
                return fail(read, bytes);
            }
            // v. If lastChunkHandling is "strict", let throwOnExtraBits be true; else false.
            let throw_on_extra_bits = last == LastChunkHandling::Strict;
            // vi. Let decodeResult be DecodeBase64Chunk(chunk, throwOnExtraBits).
            // vii. If decodeResult is an abrupt completion, return an error.
            match decode_base64_chunk(&chunk, throw_on_extra_bits) {
                // viii. Set bytes to bytes + decodeResult. ix. Return { length, bytes, none }.
                Ok(decoded) => {
                    bytes.extend(decoded);
                    return done(length, bytes);
                }
                Err(()) => return fail(read, bytes),
            }
        }
        // f. If alphabet is "base64url", then
        if alphabet == Alphabet::Base64Url {
            // i. If char is either "+" or "/", return an error.
            if ch == b'+' as u16 || ch == b'/' as u16 {
                return fail(read, bytes);
            }
            // ii-iii. Map "-" to "+" and "_" to "/".
            if ch == b'-' as u16 {
                ch = b'+' as u16;
            } else if ch == b'_' as u16 {
                ch = b'/' as u16;
            }
        }
        // g. If the sole code unit of char is not an element of the standard base64 alphabet,
        //    return an error.
        let Some(value) = base64_value(ch) else {
            return fail(read, bytes);
        };
        // h. Let remaining be maxLength - the length of bytes.
        let remaining = max_length - bytes.len();
        // i. If remaining = 1 and chunkLength = 2, or if remaining = 2 and chunkLength = 3, then
        //    i. Return { [[Read]]: read, [[Bytes]]: bytes, [[Error]]: none }.
        if (remaining == 1 && chunk.len() == 2) || (remaining == 2 && chunk.len() == 3) {
            return done(read, bytes);
        }
        // j-k. Set chunk to chunk + char; chunkLength to its length.
        chunk.push(value);
        // l. If chunkLength = 4, then
        if chunk.len() == 4 {
            // i. Set bytes to bytes + ! DecodeBase64Chunk(chunk).
            bytes.extend(decode_base64_chunk(&chunk, false).unwrap_or_default());
            // ii-iii. Set chunk to the empty String; chunkLength to 0.
            chunk.clear();
            // iv. Set read to index.
            read = index;
            // v. If the length of bytes = maxLength, return { read, bytes, none }.
            if bytes.len() == max_length {
                return done(read, bytes);
            }
        }
    }
}

/// The value of a hex digit.
fn hex_value(c: u16) -> Option<u8> {
    let c = u8::try_from(c).ok()?;
    (c as char).to_digit(16).map(|d| d as u8)
}

/// ### FromHex ( string [ , maxLength ] )
fn decode_hex(string: &JsStr, max_length: usize) -> Decoded {
    // 2-4. Let length be the length of string; bytes « »; read 0.
    let length = string.len();
    let mut bytes = Vec::new();
    let mut read = 0;
    // 5. If length modulo 2 is not 0, return an error.
    if !length.is_multiple_of(2) {
        return Decoded { read, bytes, error: true };
    }
    // 6. Repeat, while read < length and the length of bytes < maxLength,
    while read < length && bytes.len() < max_length {
        // a. Let hexits be the substring of string from read to read + 2.
        // b. If hexits contains any code units which are not in "0123456789abcdefABCDEF", error.
        let (Some(hi), Some(lo)) = (hex_value(string.unit(read)), hex_value(string.unit(read + 1))) else {
            return Decoded { read, bytes, error: true };
        };
        // c. Set read to read + 2.
        read += 2;
        // d-e. Append the byte.
        bytes.push(hi << 4 | lo);
    }
    // 7. Return { [[Read]]: read, [[Bytes]]: bytes, [[Error]]: none }.
    Decoded { read, bytes, error: false }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(s: &str, last: LastChunkHandling, max: usize) -> Decoded {
        decode_base64(&JsStr::from_str(s), Alphabet::Base64, last, max)
    }

    #[test]
    fn base64_round_trips() {
        assert_eq!(encode_base64(b"hello", Alphabet::Base64, false), b"aGVsbG8=");
        assert_eq!(encode_base64(b"hello", Alphabet::Base64, true), b"aGVsbG8");
        assert_eq!(encode_base64(&[0xfb, 0xff], Alphabet::Base64Url, false), b"-_8=");
        assert_eq!(b64("aGVsbG8=", LastChunkHandling::Loose, usize::MAX).bytes, b"hello");
        assert_eq!(b64(" aGVs bG8 ", LastChunkHandling::Loose, usize::MAX).bytes, b"hello");
    }

    #[test]
    fn base64_last_chunk_handling() {
        assert!(!b64("aGVsbG8", LastChunkHandling::Loose, usize::MAX).error);
        assert!(b64("aGVsbG8", LastChunkHandling::Strict, usize::MAX).error);
        let partial = b64("aGVsbG8", LastChunkHandling::StopBeforePartial, usize::MAX);
        assert_eq!((partial.read, partial.bytes.as_slice(), partial.error), (4, &b"hel"[..], false));
        // Extra bits set in the last chunk: strict rejects, loose accepts.
        assert!(b64("aGVsbG9=", LastChunkHandling::Strict, usize::MAX).error);
        assert!(!b64("aGVsbG9=", LastChunkHandling::Loose, usize::MAX).error);
        assert!(b64("a", LastChunkHandling::Loose, usize::MAX).error);
        assert!(b64("aGVsbG8=x", LastChunkHandling::Loose, usize::MAX).error);
    }

    #[test]
    fn base64_stops_at_max_length() {
        let d = b64("aGVsbG8=", LastChunkHandling::Loose, 3);
        assert_eq!((d.read, d.bytes.as_slice()), (4, &b"hel"[..]));
        let d = b64("aGVsbG8=", LastChunkHandling::Loose, 4);
        assert_eq!((d.read, d.bytes.as_slice()), (4, &b"hel"[..]));
    }

    #[test]
    fn hex_decodes_and_rejects() {
        let d = decode_hex(&JsStr::from_str("cafeBABE"), usize::MAX);
        assert_eq!(d.bytes, [0xca, 0xfe, 0xba, 0xbe]);
        assert!(decode_hex(&JsStr::from_str("abc"), usize::MAX).error);
        let d = decode_hex(&JsStr::from_str("aazz"), usize::MAX);
        assert_eq!((d.read, d.bytes.as_slice(), d.error), (2, &[0xaa][..], true));
        let d = decode_hex(&JsStr::from_str("aabbcc"), 2);
        assert_eq!((d.read, d.bytes.len()), (4, 2));
    }
}
