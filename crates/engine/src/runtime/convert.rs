//! Type conversion (ECMA-262 §7.1): ToPrimitive, ToBoolean, ToNumber, ToString, ToObject,
//! ToPropertyKey, ToLength, ToIntegerOrInfinity, and Number::toString.

use crate::atoms::{atom, PropertyKey};
use crate::error::JsResult;
use crate::heap::object::{Class, Object};
use crate::runtime::call::{call, is_callable};
use crate::runtime::property::{get, get_method};
use crate::string::{is_js_whitespace, JsStr};
use crate::value::{Kind, ObjectId, StringId, Value};
use crate::vm::Vm;

/// Preferred type for ToPrimitive.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Hint {
    Default,
    Number,
    String,
}

/// ToPrimitive (§7.1.1).
pub fn to_primitive(vm: &mut Vm, v: Value, hint: Hint) -> JsResult<Value> {
    let Some(o) = v.as_object() else { return Ok(v) };
    let sym = PropertyKey::Symbol(vm.symbols.toPrimitive);
    if let Some(exotic) = get_method(vm, v, sym)? {
        let h = match hint {
            Hint::Default => "default",
            Hint::Number => "number",
            Hint::String => "string",
        };
        let hv = vm.str(h);
        let r = call(vm, exotic, v, &[hv])?;
        if r.is_object() {
            return Err(vm.type_error("Cannot convert object to primitive value"));
        }
        return Ok(r);
    }
    ordinary_to_primitive(vm, o, if hint == Hint::String { Hint::String } else { Hint::Number })
}

/// OrdinaryToPrimitive (§7.1.1.1).
pub fn ordinary_to_primitive(vm: &mut Vm, o: ObjectId, hint: Hint) -> JsResult<Value> {
    let order = if hint == Hint::String { [atom::toString, atom::valueOf] } else { [atom::valueOf, atom::toString] };
    for name in order {
        let m = get(vm, o, PropertyKey::Atom(name), Value::object(o))?;
        if is_callable(vm, m) {
            let r = call(vm, m, Value::object(o), &[])?;
            if !r.is_object() {
                return Ok(r);
            }
        }
    }
    Err(vm.type_error("Cannot convert object to primitive value"))
}

/// ToBoolean (§7.1.2).
pub fn to_boolean(vm: &Vm, v: Value) -> bool {
    if let Some(b) = v.truthy_without_heap() {
        return b;
    }
    match v.kind() {
        Kind::String(s) => vm.heap.string_len(s) != 0,
        Kind::BigInt(b) => !num_traits::Zero::is_zero(vm.heap.bigint(b)),
        _ => false,
    }
}

/// ToNumber (§7.1.4).
pub fn to_number(vm: &mut Vm, v: Value) -> JsResult<f64> {
    match v.kind() {
        Kind::Int(i) => Ok(i as f64),
        Kind::Float(f) => Ok(f),
        Kind::Undefined | Kind::Empty => Ok(f64::NAN),
        Kind::Null => Ok(0.0),
        Kind::Bool(b) => Ok(if b { 1.0 } else { 0.0 }),
        Kind::String(s) => Ok(string_to_number(vm.heap.flat(s))),
        Kind::Symbol(_) => Err(vm.type_error("Cannot convert a Symbol value to a number")),
        Kind::BigInt(_) => Err(vm.type_error("Cannot convert a BigInt value to a number")),
        Kind::Object(_) => {
            let p = to_primitive(vm, v, Hint::Number)?;
            to_number(vm, p)
        }
    }
}

/// ToNumeric: a number, or a BigInt value unchanged.
pub fn to_numeric(vm: &mut Vm, v: Value) -> JsResult<Value> {
    let p = to_primitive(vm, v, Hint::Number)?;
    if p.is_bigint() {
        return Ok(p);
    }
    Ok(Value::number(to_number(vm, p)?))
}

/// StringToNumber (§7.1.4.1.1).
pub fn string_to_number(s: &JsStr) -> f64 {
    let units = s.units();
    let start = units.iter().position(|&c| !is_js_whitespace(c)).unwrap_or(units.len());
    let end = units.iter().rposition(|&c| !is_js_whitespace(c)).map_or(start, |p| p + 1);
    let t: String = match String::from_utf16(&units[start..end]) {
        Ok(t) => t,
        Err(_) => return f64::NAN,
    };
    if t.is_empty() {
        return 0.0;
    }
    let radix = |p: &str, r: u32| -> f64 {
        if p.is_empty() || !p.chars().all(|c| c.is_digit(r)) {
            return f64::NAN;
        }
        p.chars().fold(0.0, |acc, c| acc * r as f64 + c.to_digit(r).unwrap_or(0) as f64)
    };
    if let Some(p) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return radix(p, 16);
    }
    if let Some(p) = t.strip_prefix("0o").or_else(|| t.strip_prefix("0O")) {
        return radix(p, 8);
    }
    if let Some(p) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        return radix(p, 2);
    }
    let (sign, body) = match t.as_bytes()[0] {
        b'+' => (1.0, &t[1..]),
        b'-' => (-1.0, &t[1..]),
        _ => (1.0, &t[..]),
    };
    if body == "Infinity" {
        return sign * f64::INFINITY;
    }
    // StrDecimalLiteral: digits, optional fraction, optional exponent; nothing else.
    let b = body.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let s = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - s
    };
    let int_digits = digits(&mut i);
    let mut frac_digits = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        frac_digits = digits(&mut i);
    }
    if int_digits + frac_digits == 0 {
        return f64::NAN;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return f64::NAN;
        }
    }
    if i != b.len() {
        return f64::NAN;
    }
    sign * body.parse::<f64>().unwrap_or(f64::NAN)
}

/// Number::toString(x) with radix 10 (§6.1.6.1.20): shortest round-trip digits.
pub fn number_to_string(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f == 0.0 {
        return "0".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    // Integers below 2^53 print exactly; larger ones take the shortest round-trip digits
    // padded with zeros (9223372036854775808 prints as 9223372036854776000).
    if f.fract() == 0.0 && f.abs() < 9007199254740992.0 {
        return format!("{}", f as i64);
    }
    let mut buf = ryu_js::Buffer::new();
    buf.format_finite(f).to_string()
}

/// Shared one-code-unit strings are not interned; this makes a fresh one.
pub fn char_value_cached(vm: &Vm, unit: u16) -> Value {
    // Called from read-only paths: a fresh allocation would need &mut. Single characters are
    // pre-allocated in the realm for Latin-1; other units fall back to a per-call string made
    // by the caller's mutable path. See `single_char`.
    match vm.single_chars.get(unit as usize) {
        Some(&v) => v,
        None => Value::UNDEFINED,
    }
}

/// A one-code-unit string.
pub fn single_char(vm: &mut Vm, unit: u16) -> Value {
    if let Some(&v) = vm.single_chars.get(unit as usize) {
        return v;
    }
    vm.js_str(JsStr::from_units(vec![unit]))
}

/// ToString (§7.1.17), returning a heap string handle.
pub fn to_string(vm: &mut Vm, v: Value) -> JsResult<StringId> {
    match v.kind() {
        Kind::String(s) => Ok(s),
        Kind::Object(_) => {
            let p = to_primitive(vm, v, Hint::String)?;
            to_string(vm, p)
        }
        Kind::Symbol(_) => Err(vm.type_error("Cannot convert a Symbol value to a string")),
        _ => {
            let s = to_js_str_primitive(vm, v);
            Ok(vm.heap.alloc_string(s))
        }
    }
}

/// ToString contents.
pub fn to_js_str(vm: &mut Vm, v: Value) -> JsResult<JsStr> {
    let s = to_string(vm, v)?;
    Ok(vm.heap.flat(s).clone())
}

/// ToString as Rust text (lossy for lone surrogates).
pub fn to_rust_string(vm: &mut Vm, v: Value) -> JsResult<String> {
    let s = to_string(vm, v)?;
    Ok(vm.heap.flat(s).to_rust_string())
}

/// ToString of a primitive that is not a string or symbol.
fn to_js_str_primitive(vm: &Vm, v: Value) -> JsStr {
    let s = match v.kind() {
        Kind::Undefined | Kind::Empty => "undefined".to_string(),
        Kind::Null => "null".into(),
        Kind::Bool(b) => if b { "true" } else { "false" }.into(),
        Kind::Int(i) => i.to_string(),
        Kind::Float(f) => number_to_string(f),
        Kind::BigInt(b) => vm.heap.bigint(b).to_string(),
        Kind::String(_) | Kind::Symbol(_) | Kind::Object(_) => String::new(),
    };
    JsStr::from_str(&s)
}

/// ToObject (§7.1.18).
pub fn to_object(vm: &mut Vm, v: Value) -> JsResult<ObjectId> {
    let (class, proto) = match v.kind() {
        Kind::Object(o) => return Ok(o),
        Kind::Undefined | Kind::Null | Kind::Empty => {
            // V8's kUndefinedOrNullToObject, whichever of the two it is.
            return Err(vm.type_error("Cannot convert undefined or null to object"));
        }
        Kind::Bool(b) => (Class::Boolean(b), vm.realm.boolean_prototype),
        Kind::Int(_) | Kind::Float(_) => (Class::Number(v.as_number().unwrap_or(0.0)), vm.realm.number_prototype),
        Kind::String(s) => {
            vm.heap.flat(s);
            (Class::String(s), vm.realm.string_prototype)
        }
        Kind::Symbol(s) => (Class::Symbol(s), vm.realm.symbol_prototype),
        Kind::BigInt(b) => (Class::BigInt(b), vm.realm.bigint_prototype),
    };
    let mut o = Object::new(Some(proto), class);
    o.extensible = true;
    Ok(vm.heap.alloc_object(o))
}

/// ToPropertyKey (§7.1.19).
pub fn to_property_key(vm: &mut Vm, v: Value) -> JsResult<PropertyKey> {
    match v.kind() {
        Kind::Int(i) if i >= 0 => Ok(PropertyKey::Index(i as u32)),
        Kind::String(s) => {
            let s = vm.heap.flat(s).clone();
            Ok(vm.heap.atoms.key_for(&s))
        }
        Kind::Symbol(s) => Ok(PropertyKey::Symbol(s)),
        Kind::Object(_) => {
            let p = to_primitive(vm, v, Hint::String)?;
            to_property_key(vm, p)
        }
        _ => {
            let s = to_js_str_primitive(vm, v);
            Ok(vm.heap.atoms.key_for(&s))
        }
    }
}

/// A property key as a JS value (string or symbol).
pub fn key_to_value(vm: &mut Vm, key: PropertyKey) -> Value {
    match key {
        PropertyKey::Index(i) => {
            let s = i.to_string();
            vm.str(&s)
        }
        PropertyKey::Atom(a) => {
            let s = vm.heap.atoms.get(a).clone();
            vm.js_str(s)
        }
        PropertyKey::Symbol(s) => Value::symbol(s),
    }
}

/// A property key for messages.
pub fn key_to_display(vm: &Vm, key: PropertyKey) -> String {
    match key {
        PropertyKey::Index(i) => i.to_string(),
        PropertyKey::Atom(a) => vm.heap.atoms.get(a).to_rust_string(),
        PropertyKey::Symbol(s) => {
            let d = vm.heap.symbol(s).and_then(|s| s.description.as_ref()).map(|d| d.to_rust_string());
            format!("Symbol({})", d.unwrap_or_default())
        }
    }
}

/// ToIntegerOrInfinity (§7.1.5).
pub fn to_integer_or_infinity(vm: &mut Vm, v: Value) -> JsResult<f64> {
    if let Some(i) = v.as_int() {
        return Ok(i as f64);
    }
    let n = to_number(vm, v)?;
    Ok(integer_part(n))
}

/// The truncated integer part, NaN → 0.
pub fn integer_part(n: f64) -> f64 {
    if n.is_nan() || n == 0.0 {
        0.0
    } else if n.is_infinite() {
        n
    } else {
        n.trunc() + 0.0
    }
}

/// ToLength (§7.1.20).
pub fn to_length(vm: &mut Vm, v: Value) -> JsResult<u64> {
    let n = to_integer_or_infinity(vm, v)?;
    Ok(if n <= 0.0 { 0 } else { n.min(9007199254740991.0) as u64 })
}

/// ToIndex (§7.1.22).
pub fn to_index(vm: &mut Vm, v: Value) -> JsResult<u64> {
    if v.is_undefined() {
        return Ok(0);
    }
    let n = to_integer_or_infinity(vm, v)?;
    if !(0.0..=9007199254740991.0).contains(&n) {
        return Err(vm.range_error("Invalid index"));
    }
    Ok(n as u64)
}

/// ToInt32 of a number.
pub fn f64_to_int32(f: f64) -> i32 {
    if f.is_finite() && f.abs() < 2147483648.0 {
        return f as i32;
    }
    if !f.is_finite() {
        return 0;
    }
    let m = f.trunc().rem_euclid(4294967296.0);
    m as u64 as u32 as i32
}

/// ToInt32 (§7.1.6).
pub fn to_int32(vm: &mut Vm, v: Value) -> JsResult<i32> {
    if let Some(i) = v.as_int() {
        return Ok(i);
    }
    Ok(f64_to_int32(to_number(vm, v)?))
}

/// ToUint32 (§7.1.7).
pub fn to_uint32(vm: &mut Vm, v: Value) -> JsResult<u32> {
    Ok(to_int32(vm, v)? as u32)
}

/// Relative index clamp used by slice, splice, at, fill…: `relative` resolved against `len`.
pub fn relative_index(relative: f64, len: u64) -> u64 {
    if relative < 0.0 {
        (len as f64 + relative).max(0.0) as u64
    } else {
        relative.min(len as f64) as u64
    }
}

/// Is `v` an array (IsArray, seeing through proxies)?
pub fn is_array(vm: &mut Vm, v: Value) -> JsResult<bool> {
    let Some(o) = v.as_object() else { return Ok(false) };
    match &vm.heap.obj(o).class {
        Class::Array(_) => Ok(true),
        Class::Proxy(p) => match p.target {
            Some(t) => is_array(vm, Value::object(t)),
            None => Err(vm.type_error("Cannot perform 'IsArray' on a proxy that has been revoked")),
        },
        _ => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_formatting_is_shortest_round_trip() {
        assert_eq!(number_to_string(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(number_to_string(1e21), "1e+21");
        assert_eq!(number_to_string(123.0), "123");
        assert_eq!(number_to_string(-1.5e-7), "-1.5e-7");
        assert_eq!(number_to_string(f64::NEG_INFINITY), "-Infinity");
    }

    #[test]
    fn string_to_number_follows_the_grammar() {
        let n = |s: &str| string_to_number(&JsStr::from_str(s));
        assert_eq!(n("  42 "), 42.0);
        assert_eq!(n("0x1F"), 31.0);
        assert_eq!(n(""), 0.0);
        assert!(n("1e").is_nan());
        assert!(n("12abc").is_nan());
        assert_eq!(n("-Infinity"), f64::NEG_INFINITY);
        assert_eq!(n(".5"), 0.5);
        assert!(n("-0x10").is_nan());
    }
}
