//! Web platform globals Node also has: the WHATWG streams (`internal/webstreams`, exported
//! as `node:stream/web`), `Blob`/`File` (`internal/blob`), `Headers`/`FormData`/`Request`/
//! `Response` (`internal/web/fetch`), `performance` (`node:perf_hooks`, [`performance`]),
//! `TextEncoder`/`TextDecoder` (`internal/encoding`, whose natives are here), `atob`/`btoa`
//! (from `node:buffer`) and `crypto` (Web Crypto, from `node:crypto`). Each is a lazy global
//! (see `modules::globals`): nothing runs until a program first reads it.

pub mod performance;

pub use performance::{record_time_origin, PERF_HOOKS};

use amber_engine::error::JsResult;
use amber_engine::runtime::convert::to_boolean;
use amber_engine::{HostFn, Value, Vm};

use crate::modules::buffer::{
    decode, new_uint8_array, str_arg, utf8_encode, view_bytes, with_view_bytes_mut, Encoding,
};
use crate::modules::Builtin;

/// `internal/webstreams`: the WHATWG streams (see `streams/common.js` for the layout).
pub const STREAMS: Builtin = Builtin {
    name: "internal/webstreams",
    source: concat!(
        include_str!("streams/common.js"),
        include_str!("streams/readable.js"),
        include_str!("streams/readable_bytes.js"),
        include_str!("streams/pipe.js"),
        include_str!("streams/writable.js"),
        include_str!("streams/transform.js"),
        include_str!("streams/compression.js"),
        include_str!("streams/text.js"),
    ),
    natives: &[],
    bare: false,
};

/// `internal/webstreams/adapters`: `Readable.fromWeb`/`toWeb`, `Writable.fromWeb`/`toWeb`.
pub const STREAM_ADAPTERS: Builtin = Builtin {
    name: "internal/webstreams/adapters",
    source: include_str!("streams/node_adapters.js"),
    natives: &[],
    bare: false,
};

/// `node:stream/web`: the streams' public classes.
pub const STREAM_WEB: Builtin = Builtin {
    name: "stream/web",
    source: "module.exports = { ...require('node:internal/webstreams') };",
    natives: &[],
    bare: true,
};

/// `internal/blob`: Blob and File (also `buffer.Blob` and `buffer.File`).
pub const BLOB: Builtin = Builtin { name: "internal/blob", source: include_str!("blob.js"), natives: &[], bare: false };

/// `internal/web/fetch`: Headers, FormData, Request, Response, and the two functions the
/// host side of `fetch()` uses (`responseFromHost`, `requestParts`; see `fetch/response.js`).
pub const FETCH: Builtin = Builtin {
    name: "internal/web/fetch",
    source: concat!(
        include_str!("fetch/headers.js"),
        include_str!("fetch/formdata.js"),
        include_str!("fetch/body.js"),
        include_str!("fetch/request.js"),
        include_str!("fetch/response.js"),
    ),
    natives: &[],
    bare: false,
};

/// `internal/fetch`: the global `fetch`, over the network binding (`node:internal/net`) and
/// the classes of `internal/web/fetch`.
pub const FETCH_FN: Builtin =
    Builtin { name: "internal/fetch", source: include_str!("fetch.js"), natives: &[], bare: false };

/// `internal/encoding`: TextEncoder and TextDecoder (WHATWG Encoding, as Node provides it).
pub const ENCODING: Builtin =
    Builtin { name: "internal/encoding", source: include_str!("encoding.js"), natives: NATIVES, bare: false };

const NATIVES: &[(&str, u32, HostFn)] =
    &[("encodeUtf8", 1, encode_utf8), ("encodeInto", 2, encode_into), ("decode", 3, decode_bytes)];

fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::UNDEFINED)
}

/// `encodeUtf8(string)` → Uint8Array (not a Buffer, as the spec says).
fn encode_utf8(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = str_arg(vm, arg(args, 0))?;
    let bytes = utf8_encode(s.iter());
    let proto = vm.realm.uint8_array_prototype;
    new_uint8_array(vm, proto, bytes)
}

/// `encodeInto(string, dest)` → [read (UTF-16 units), written (bytes)]: whole characters only.
fn encode_into(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = str_arg(vm, arg(args, 0))?;
    let counts = with_view_bytes_mut(vm, arg(args, 1), |dest| {
        let (mut read, mut written) = (0usize, 0usize);
        let mut tmp = [0u8; 4];
        for c in char::decode_utf16(s.iter()) {
            let (c, units) = match c {
                Ok(c) => (c, c.len_utf16()),
                Err(_) => ('\u{FFFD}', 1),
            };
            let bytes = c.encode_utf8(&mut tmp).as_bytes();
            if written + bytes.len() > dest.len() {
                break;
            }
            dest[written..written + bytes.len()].copy_from_slice(bytes);
            written += bytes.len();
            read += units;
        }
        (read, written)
    });
    let Some((read, written)) = counts else {
        return Err(vm.type_error("The \"dest\" argument must be an instance of Uint8Array."));
    };
    let r = Value::number(read as f64);
    let w = Value::number(written as f64);
    Ok(vm.new_array(vec![r, w]))
}

/// `decode(bytes, encoding ("utf-8" | "utf-16le" | "latin1"), fatal)` → string, or null when
/// `fatal` and the bytes are not valid in that encoding.
fn decode_bytes(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let which = amber_engine::runtime::convert::to_rust_string(vm, arg(args, 1))?;
    let fatal = to_boolean(vm, arg(args, 2));
    let Some(bytes) = view_bytes(vm, arg(args, 0)) else {
        return Err(vm.type_error("The \"input\" argument must be an instance of ArrayBuffer or ArrayBufferView."));
    };
    let s = match which.as_str() {
        "utf-16le" => {
            if fatal && !bytes.len().is_multiple_of(2) {
                return Ok(Value::NULL);
            }
            let units: Vec<u16> =
                bytes.chunks(2).map(|p| u16::from_le_bytes([p[0], *p.get(1).unwrap_or(&0)])).collect();
            let odd = !bytes.len().is_multiple_of(2);
            let mut out = Vec::with_capacity(units.len());
            let full = if odd { &units[..units.len() - 1] } else { &units[..] };
            for c in char::decode_utf16(full.iter().copied()) {
                match c {
                    Ok(c) => {
                        let mut buf = [0u16; 2];
                        out.extend_from_slice(c.encode_utf16(&mut buf));
                    }
                    Err(_) if fatal => return Ok(Value::NULL),
                    Err(_) => out.push(0xFFFD),
                }
            }
            if odd {
                out.push(0xFFFD);
            }
            amber_engine::JsStr::from_units(out)
        }
        // Node decodes its windows-1252 labels as ISO-8859-1 (each byte one code unit).
        "latin1" => amber_engine::JsStr::from_latin1(bytes.to_vec()),
        _ => {
            if fatal && std::str::from_utf8(&bytes).is_err() {
                return Ok(Value::NULL);
            }
            decode(&bytes, Encoding::Utf8)
        }
    };
    Ok(vm.js_str(s))
}
