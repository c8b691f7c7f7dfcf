//! The global object and realm creation (ECMA-262 §9.3, §19): value properties, `eval`,
//! URI functions, and the order in which every builtin module initialises.

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, make_native, NativeDef, NativeId};
use crate::error::{ErrorKind, JsResult};
use crate::heap::object::{ArrayData, Class, NativeFunction, Object};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::realm::WellKnownSymbols;
use crate::runtime::convert::to_js_str;
use crate::string::JsStr;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("%FunctionPrototype", 0, function_prototype_call),
    native!("%ThrowTypeError", 0, throw_type_error),
    native!("%HostFunction", 0, host_function),
    native!("globalThis.eval", 1, eval),
    native!("globalThis.encodeURIComponent", 1, encode_uri_component),
    native!("globalThis.encodeURI", 1, encode_uri),
    native!("globalThis.decodeURIComponent", 1, decode_uri_component),
    native!("globalThis.decodeURI", 1, decode_uri),
    native!("globalThis.escape", 1, escape),
    native!("globalThis.unescape", 1, unescape),
];

/// Build every intrinsic and the global object, in a fixed order (the baseline heap).
pub fn create_realm(vm: &mut Vm) {
    // What every realm shares: the well-known symbols (§6.1.5.1) and the one-unit strings.
    for (name, desc) in WellKnownSymbols::NAMES {
        let s = vm.heap.alloc_symbol(Some(JsStr::from_str(desc)));
        vm.symbols.set(name, s);
    }
    vm.single_chars = (0u16..256).map(|u| vm.js_str(JsStr::from_units(vec![u]))).collect();
    create_intrinsics(vm);
}

/// The intrinsics and global object of the running realm (`vm.realm`, `vm.global`).
pub fn create_intrinsics(vm: &mut Vm) {
    let object_prototype = vm.heap.new_plain(None);
    vm.realm.object_prototype = object_prototype;
    let fp = Object::new(
        Some(object_prototype),
        Class::Native(NativeFunction {
            id: NativeId::builtin("%FunctionPrototype"),
            captures: Vec::new(),
            constructor: false,
            realm: vm.current_realm,
        }),
    );
    vm.realm.function_prototype = vm.heap.alloc_object(fp);
    let op = Some(object_prototype);
    let plain = |vm: &mut Vm, proto: Option<ObjectId>| vm.heap.new_plain(proto);
    let mut ap = Object::new(op, Class::Array(ArrayData { length: 0, length_writable: true }));
    ap.extensible = true;
    vm.realm.array_prototype = vm.heap.alloc_object(ap);
    let r = &mut vm.realm;
    let _ = r;
    vm.realm.string_prototype = {
        let s = vm.heap.alloc_string(JsStr::empty());
        vm.heap.alloc_object(Object::new(op, Class::String(s)))
    };
    vm.realm.number_prototype = vm.heap.alloc_object(Object::new(op, Class::Number(0.0)));
    vm.realm.boolean_prototype = vm.heap.alloc_object(Object::new(op, Class::Boolean(false)));
    vm.realm.symbol_prototype = plain(vm, op);
    vm.realm.bigint_prototype = plain(vm, op);
    vm.realm.error_prototype = plain(vm, op);
    let ep = Some(vm.realm.error_prototype);
    vm.realm.type_error_prototype = plain(vm, ep);
    vm.realm.reference_error_prototype = plain(vm, ep);
    vm.realm.syntax_error_prototype = plain(vm, ep);
    vm.realm.range_error_prototype = plain(vm, ep);
    vm.realm.eval_error_prototype = plain(vm, ep);
    vm.realm.uri_error_prototype = plain(vm, ep);
    vm.realm.aggregate_error_prototype = plain(vm, ep);
    vm.realm.suppressed_error_prototype = plain(vm, ep);
    vm.realm.iterator_prototype = plain(vm, op);
    vm.realm.async_iterator_prototype = plain(vm, op);
    let ip = Some(vm.realm.iterator_prototype);
    let aip = Some(vm.realm.async_iterator_prototype);
    vm.realm.array_iterator_prototype = plain(vm, ip);
    vm.realm.map_iterator_prototype = plain(vm, ip);
    vm.realm.set_iterator_prototype = plain(vm, ip);
    vm.realm.string_iterator_prototype = plain(vm, ip);
    vm.realm.regexp_string_iterator_prototype = plain(vm, ip);
    vm.realm.iterator_helper_prototype = plain(vm, ip);
    vm.realm.wrap_for_valid_iterator_prototype = plain(vm, ip);
    vm.realm.async_from_sync_iterator_prototype = plain(vm, aip);
    vm.realm.generator_prototype = plain(vm, ip);
    vm.realm.async_generator_prototype = plain(vm, aip);
    let fpp = Some(vm.realm.function_prototype);
    vm.realm.generator_function_prototype = plain(vm, fpp);
    vm.realm.async_generator_function_prototype = plain(vm, fpp);
    vm.realm.async_function_prototype = plain(vm, fpp);
    vm.realm.promise_prototype = plain(vm, op);
    vm.realm.regexp_prototype = plain(vm, op);
    vm.realm.date_prototype = plain(vm, op);
    vm.realm.map_prototype = plain(vm, op);
    vm.realm.set_prototype = plain(vm, op);
    vm.realm.weakmap_prototype = plain(vm, op);
    vm.realm.weakset_prototype = plain(vm, op);
    vm.realm.weakref_prototype = plain(vm, op);
    vm.realm.finalization_registry_prototype = plain(vm, op);
    vm.realm.array_buffer_prototype = plain(vm, op);
    vm.realm.shared_array_buffer_prototype = plain(vm, op);
    vm.realm.data_view_prototype = plain(vm, op);
    vm.realm.typed_array_prototype = plain(vm, op);
    let tap = Some(vm.realm.typed_array_prototype);
    vm.realm.int8_array_prototype = plain(vm, tap);
    vm.realm.uint8_array_prototype = plain(vm, tap);
    vm.realm.uint8_clamped_array_prototype = plain(vm, tap);
    vm.realm.int16_array_prototype = plain(vm, tap);
    vm.realm.uint16_array_prototype = plain(vm, tap);
    vm.realm.int32_array_prototype = plain(vm, tap);
    vm.realm.uint32_array_prototype = plain(vm, tap);
    vm.realm.float16_array_prototype = plain(vm, tap);
    vm.realm.float32_array_prototype = plain(vm, tap);
    vm.realm.float64_array_prototype = plain(vm, tap);
    vm.realm.bigint64_array_prototype = plain(vm, tap);
    vm.realm.biguint64_array_prototype = plain(vm, tap);
    vm.realm.disposable_stack_prototype = plain(vm, op);
    vm.realm.async_disposable_stack_prototype = plain(vm, op);
    vm.realm.math_random_state = plain(vm, None);
    vm.realm.shadow_realm_prototype = plain(vm, op);
    vm.realm.temporal_instant_prototype = plain(vm, op);
    vm.realm.temporal_zoned_date_time_prototype = plain(vm, op);
    vm.realm.temporal_plain_date_prototype = plain(vm, op);
    vm.realm.temporal_plain_time_prototype = plain(vm, op);
    vm.realm.temporal_plain_date_time_prototype = plain(vm, op);
    vm.realm.temporal_plain_year_month_prototype = plain(vm, op);
    vm.realm.temporal_plain_month_day_prototype = plain(vm, op);
    vm.realm.temporal_duration_prototype = plain(vm, op);
    vm.realm.intl_collator_prototype = plain(vm, op);
    vm.realm.intl_plural_rules_prototype = plain(vm, op);
    vm.realm.intl_number_format_prototype = plain(vm, op);
    vm.realm.intl_list_format_prototype = plain(vm, op);
    vm.realm.intl_locale_prototype = plain(vm, op);
    vm.realm.intl_relative_time_format_prototype = plain(vm, op);
    vm.realm.intl_display_names_prototype = plain(vm, op);
    vm.realm.intl_duration_format_prototype = plain(vm, op);
    vm.realm.intl_segmenter_prototype = plain(vm, op);
    vm.realm.intl_segments_prototype = plain(vm, op);
    vm.realm.intl_segment_iterator_prototype = plain(vm, op);
    vm.realm.intl_date_time_format_prototype = plain(vm, op);
    vm.global = plain(vm, op);
    let thrower = make_native(vm, "", NativeId::builtin("%ThrowTypeError"), 0, false, Vec::new());
    vm.heap.obj_mut(thrower).extensible = false;
    // %ThrowTypeError%'s own properties are non-configurable.
    for key in [atom::length, atom::name] {
        if let Some((v, _)) = vm.heap.obj(thrower).lookup_named(&vm.heap.shapes, PropertyKey::Atom(key)) {
            let heap = &mut vm.heap;
            if let Some(o) = heap.objects.get_mut(thrower.0) {
                o.redefine_named(&heap.shapes, PropertyKey::Atom(key), v, PropFlags::NONE);
            }
        }
    }
    vm.realm.throw_type_error = thrower;

    crate::builtins::object::init(vm);
    crate::builtins::function::init(vm);
    crate::builtins::array::init(vm);
    crate::builtins::array_from_async::init(vm);
    crate::builtins::error::init(vm);
    crate::builtins::iterator::init(vm);
    crate::builtins::generator::init(vm);
    crate::builtins::string::init(vm);
    crate::builtins::number::init(vm);
    crate::builtins::boolean::init(vm);
    crate::builtins::symbol::init(vm);
    crate::builtins::bigint::init(vm);
    crate::builtins::math::init(vm);
    crate::builtins::json::init(vm);
    crate::builtins::promise::init(vm);
    crate::builtins::map::init(vm);
    crate::builtins::set::init(vm);
    crate::builtins::weak::init(vm);
    crate::builtins::proxy::init(vm);
    crate::builtins::reflect::init(vm);
    crate::builtins::regexp::init(vm);
    crate::builtins::date::init(vm);
    crate::builtins::array_buffer::init(vm);
    crate::builtins::typed_array::init(vm);
    crate::builtins::data_view::init(vm);
    crate::builtins::atomics::init(vm);
    crate::builtins::disposable::init(vm);
    crate::builtins::shadow_realm::init(vm);
    crate::builtins::temporal::init(vm);
    crate::builtins::intl::init(vm);
    init(vm);
}

/// The global object's own value properties and functions.
fn init(vm: &mut Vm) {
    let g = vm.global;
    let gv = Value::object(g);
    let key = vm.key("globalThis");
    vm.define_builtin(g, key, gv, PropFlags::HIDDEN);
    vm.define_builtin(g, PropertyKey::Atom(atom::NaN), Value::NAN, PropFlags::NONE);
    vm.define_builtin(g, PropertyKey::Atom(atom::Infinity), Value::float(f64::INFINITY), PropFlags::NONE);
    vm.define_builtin(g, PropertyKey::Atom(atom::undefined), Value::UNDEFINED, PropFlags::NONE);
    install(vm, g, "globalThis", NATIVES);
    let eval_key = vm.key("eval");
    if let Some((f, _)) = vm.heap.obj(g).lookup_named(&vm.heap.shapes, eval_key) {
        if let Some(fo) = f.as_object() {
            vm.realm.eval_function = fo;
        }
    }
}

/// Function.prototype itself: accepts any arguments and returns undefined.
fn function_prototype_call(_vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::UNDEFINED)
}

/// A function the embedder registered by name (`Vm::define_host_function`).
fn host_function(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let caps = vm.native_captures();
    let name = caps.first().and_then(|v| v.as_string()).map(|s| vm.heap.flat(s).to_rust_string()).unwrap_or_default();
    let f = vm.host_functions.iter().find(|(n, _)| *n == name).map(|(_, f)| *f);
    match f {
        Some(f) => f(vm, this, args),
        None => Err(vm.type_error(format!("host function '{name}' is not registered"))),
    }
}

/// %ThrowTypeError% (§10.2.4.1).
fn throw_type_error(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Err(vm.type_error("'caller', 'callee', and 'arguments' properties may not be accessed on strict mode functions or the arguments objects for calls to them"))
}

/// ### 19.2.1 eval ( x ) — indirect when reached as a function call.
fn eval(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    crate::compiler::eval::indirect_eval(vm, arg(args, 0))
}

const URI_RESERVED: &str = ";/?:@&=+$,";
const URI_UNESCAPED_EXTRA: &str = "-_.!~*'()";

fn is_unreserved(c: u16) -> bool {
    c < 128 && ((c as u8).is_ascii_alphanumeric() || URI_UNESCAPED_EXTRA.as_bytes().contains(&(c as u8)))
}

/// Encode (§19.2.6.5): code units outside `keep` become %XX UTF-8 escapes.
fn encode(vm: &mut Vm, s: &JsStr, keep: impl Fn(u16) -> bool) -> JsResult<Value> {
    let units = s.units();
    let mut out = String::with_capacity(units.len());
    let mut k = 0;
    vm.charge(units.len() as u64)?;
    while k < units.len() {
        let c = units[k];
        if keep(c) {
            out.push(c as u8 as char);
            k += 1;
            continue;
        }
        let cp = match c {
            0xD800..=0xDBFF => match units.get(k + 1) {
                Some(&d) if (0xDC00..=0xDFFF).contains(&d) => {
                    k += 1;
                    0x10000 + (((c as u32) - 0xD800) << 10) + (d as u32 - 0xDC00)
                }
                _ => return Err(vm.throw(ErrorKind::UriError, "URI malformed")),
            },
            0xDC00..=0xDFFF => return Err(vm.throw(ErrorKind::UriError, "URI malformed")),
            _ => c as u32,
        };
        let ch = char::from_u32(cp).unwrap_or('\u{FFFD}');
        let mut buf = [0u8; 4];
        for b in ch.encode_utf8(&mut buf).bytes() {
            out.push_str(&format!("%{b:02X}"));
        }
        k += 1;
    }
    Ok(vm.str(&out))
}

/// Decode (§19.2.6.6): %XX escapes of UTF-8 sequences, except characters in `reserved`.
fn decode(vm: &mut Vm, s: &JsStr, reserved: &str) -> JsResult<Value> {
    let units = s.units();
    vm.charge(units.len() as u64)?;
    let mut out: Vec<u16> = Vec::with_capacity(units.len());
    let hex = |u: &[u16], i: usize| -> Option<u8> {
        let h = char::from_u32(*u.get(i + 1)? as u32)?.to_digit(16)?;
        let l = char::from_u32(*u.get(i + 2)? as u32)?.to_digit(16)?;
        Some((h * 16 + l) as u8)
    };
    let mut k = 0;
    while k < units.len() {
        let c = units[k];
        if c != b'%' as u16 {
            out.push(c);
            k += 1;
            continue;
        }
        let start = k;
        let Some(b) = hex(&units, k) else { return Err(vm.throw(ErrorKind::UriError, "URI malformed")) };
        k += 3;
        if b < 0x80 {
            if reserved.as_bytes().contains(&b) {
                out.extend_from_slice(&units[start..k]);
            } else {
                out.push(b as u16);
            }
            continue;
        }
        let n = if b & 0xE0 == 0xC0 {
            2
        } else if b & 0xF0 == 0xE0 {
            3
        } else if b & 0xF8 == 0xF0 {
            4
        } else {
            return Err(vm.throw(ErrorKind::UriError, "URI malformed"));
        };
        let mut bytes = vec![b];
        for _ in 1..n {
            if units.get(k) != Some(&(b'%' as u16)) {
                return Err(vm.throw(ErrorKind::UriError, "URI malformed"));
            }
            let Some(nb) = hex(&units, k) else { return Err(vm.throw(ErrorKind::UriError, "URI malformed")) };
            if nb & 0xC0 != 0x80 {
                return Err(vm.throw(ErrorKind::UriError, "URI malformed"));
            }
            bytes.push(nb);
            k += 3;
        }
        match std::str::from_utf8(&bytes) {
            Ok(text) => {
                for ch in text.chars() {
                    let mut buf = [0u16; 2];
                    out.extend_from_slice(ch.encode_utf16(&mut buf));
                }
            }
            Err(_) => return Err(vm.throw(ErrorKind::UriError, "URI malformed")),
        }
    }
    Ok(vm.js_str(JsStr::from_units(out)))
}

fn encode_uri_component(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = to_js_str(vm, arg(args, 0))?;
    encode(vm, &s, is_unreserved)
}

fn encode_uri(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = to_js_str(vm, arg(args, 0))?;
    encode(vm, &s, |c| {
        is_unreserved(c) || (c < 128 && (URI_RESERVED.as_bytes().contains(&(c as u8)) || c == b'#' as u16))
    })
}

fn decode_uri_component(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = to_js_str(vm, arg(args, 0))?;
    decode(vm, &s, "")
}

fn decode_uri(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = to_js_str(vm, arg(args, 0))?;
    decode(vm, &s, ";/?:@&=+$,#")
}

/// ### B.2.1.1 escape ( string )
fn escape(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = to_js_str(vm, arg(args, 0))?;
    let mut out = String::new();
    for c in s.iter() {
        if c < 128 && ((c as u8).is_ascii_alphanumeric() || b"@*_+-./".contains(&(c as u8))) {
            out.push(c as u8 as char);
        } else if c < 256 {
            out.push_str(&format!("%{c:02X}"));
        } else {
            out.push_str(&format!("%u{c:04X}"));
        }
    }
    Ok(vm.str(&out))
}

/// ### B.2.1.2 unescape ( string )
fn unescape(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = to_js_str(vm, arg(args, 0))?.units();
    let mut out = Vec::with_capacity(s.len());
    let hexval = |u: u16| char::from_u32(u as u32).and_then(|c| c.to_digit(16));
    let mut k = 0;
    while k < s.len() {
        let c = s[k];
        if c == b'%' as u16 {
            if k + 6 <= s.len() && s[k + 1] == b'u' as u16 {
                let digits: Option<Vec<u32>> = s[k + 2..k + 6].iter().map(|&u| hexval(u)).collect();
                if let Some(d) = digits {
                    out.push(d.iter().fold(0u32, |a, &x| a * 16 + x) as u16);
                    k += 6;
                    continue;
                }
            }
            if k + 3 <= s.len() {
                if let (Some(h), Some(l)) = (hexval(s[k + 1]), hexval(s[k + 2])) {
                    out.push((h * 16 + l) as u16);
                    k += 3;
                    continue;
                }
            }
        }
        out.push(c);
        k += 1;
    }
    Ok(vm.js_str(JsStr::from_units(out)))
}
