//! Operators (ECMA-262 §13, §7.2): addition, arithmetic with BigInt, relational comparison,
//! equality, typeof, instanceof.

use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

use crate::atoms::{atom, PropertyKey};
use crate::error::JsResult;
use crate::heap::object::Class;
use crate::runtime::call::{call, is_callable};
use crate::runtime::convert::{to_number, to_numeric, to_primitive, to_string, Hint};
use crate::runtime::property::{get, get_method};
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

/// The `+` operator (§13.15.3 ApplyStringOrNumericBinaryOperator).
pub fn add(vm: &mut Vm, a: Value, b: Value) -> JsResult<Value> {
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        return Ok(match x.checked_add(y) {
            Some(r) => Value::int(r),
            None => Value::float(x as f64 + y as f64),
        });
    }
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Ok(Value::number(x + y));
    }
    if let (Some(x), Some(y)) = (a.as_string(), b.as_string()) {
        return concat_strings(vm, x, y);
    }
    let lp = to_primitive(vm, a, Hint::Default)?;
    let rp = to_primitive(vm, b, Hint::Default)?;
    if lp.is_string() || rp.is_string() {
        let ls = to_string(vm, lp)?;
        let rs = to_string(vm, rp)?;
        return concat_strings(vm, ls, rs);
    }
    arith(vm, Arith::Add, lp, rp)
}

/// String concatenation for `+`: a RangeError past the engine's maximum string length (ropes
/// would otherwise let `s = s + s` describe strings far larger than memory).
fn concat_strings(vm: &mut Vm, x: crate::value::StringId, y: crate::value::StringId) -> JsResult<Value> {
    let len = vm.heap.string_len(x) as u64 + vm.heap.string_len(y) as u64;
    if len > crate::builtins::string::MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    Ok(Value::string(vm.heap.concat(x, y)))
}

/// Arithmetic and bitwise binary operators.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Exp,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Sar,
    Shr,
}

/// Numeric binary operator on any values (ToNumeric both, then Number or BigInt op).
pub fn arith(vm: &mut Vm, op: Arith, a: Value, b: Value) -> JsResult<Value> {
    let l = to_numeric(vm, a)?;
    let r = to_numeric(vm, b)?;
    match (l.as_bigint(), r.as_bigint()) {
        (Some(x), Some(y)) => {
            let (x, y) = (vm.heap.bigint(x).clone(), vm.heap.bigint(y).clone());
            bigint_arith(vm, op, x, y)
        }
        (None, None) => {
            let (x, y) = (l.as_number().unwrap_or(f64::NAN), r.as_number().unwrap_or(f64::NAN));
            Ok(number_arith(op, x, y))
        }
        _ => Err(vm.type_error("Cannot mix BigInt and other types, use explicit conversions")),
    }
}

/// Number::op for doubles.
pub fn number_arith(op: Arith, x: f64, y: f64) -> Value {
    use crate::runtime::convert::f64_to_int32 as i32of;
    match op {
        Arith::Add => Value::number(x + y),
        Arith::Sub => Value::number(x - y),
        Arith::Mul => Value::number(x * y),
        Arith::Div => Value::number(x / y),
        Arith::Mod => Value::number(js_fmod(x, y)),
        Arith::Exp => Value::number(js_pow(x, y)),
        Arith::BitAnd => Value::int(i32of(x) & i32of(y)),
        Arith::BitOr => Value::int(i32of(x) | i32of(y)),
        Arith::BitXor => Value::int(i32of(x) ^ i32of(y)),
        Arith::Shl => Value::int(i32of(x).wrapping_shl(i32of(y) as u32 & 31)),
        Arith::Sar => Value::int(i32of(x) >> (i32of(y) as u32 & 31)),
        Arith::Shr => Value::number(((i32of(x) as u32) >> (i32of(y) as u32 & 31)) as f64),
    }
}

/// `x % y` with JS semantics (sign of the dividend).
pub fn js_fmod(x: f64, y: f64) -> f64 {
    if y.is_infinite() && x.is_finite() {
        return x;
    }
    libm::fmod(x, y)
}

/// Number::exponentiate (§6.1.6.1.3), computed as V8 computes `**` and `Math.pow` so results
/// equal Node's to the last bit. fdlibm's `pow` already answers the spec's special cases
/// (a NaN exponent gives NaN, x^±0 = 1, (±1)^±∞ = NaN).
pub fn js_pow(x: f64, y: f64) -> f64 {
    crate::builtins::math::ieee754::pow(x, y)
}

fn bigint_arith(vm: &mut Vm, op: Arith, x: BigInt, y: BigInt) -> JsResult<Value> {
    let r = match op {
        Arith::Add => x + y,
        Arith::Sub => x - y,
        Arith::Mul => {
            vm.charge(((x.bits() + y.bits()) / 64) + 1)?;
            x * y
        }
        Arith::Div | Arith::Mod => {
            if y.is_zero() {
                return Err(vm.range_error("Division by zero"));
            }
            if op == Arith::Div {
                x / y
            } else {
                x % y
            }
        }
        Arith::Exp => {
            if y < BigInt::zero() {
                return Err(vm.range_error("Exponent must be non-negative"));
            }
            let Some(e) = y.to_u32() else { return Err(vm.range_error("Maximum BigInt size exceeded")) };
            if x.bits().saturating_mul(e as u64) > 1 << 24 {
                return Err(vm.range_error("Maximum BigInt size exceeded"));
            }
            vm.charge(x.bits().saturating_mul(e as u64) / 64 + 1)?;
            num_traits::pow(x, e as usize)
        }
        Arith::BitAnd => x & y,
        Arith::BitOr => x | y,
        Arith::BitXor => x ^ y,
        Arith::Shl | Arith::Sar => {
            let Some(s) = y.to_i64() else { return Err(vm.range_error("Maximum BigInt size exceeded")) };
            let s = if op == Arith::Sar { -s } else { s };
            if s >= 0 {
                if s > 1 << 24 {
                    return Err(vm.range_error("Maximum BigInt size exceeded"));
                }
                x << s as usize
            } else {
                let n = (-s).min(1 << 30) as usize;
                // Arithmetic shift right rounds toward negative infinity.
                if x < BigInt::zero() {
                    let one = BigInt::from(1);
                    -((-x - &one) >> n) - one
                } else {
                    x >> n
                }
            }
        }
        Arith::Shr => return Err(vm.type_error("BigInts have no unsigned right shift, use >> instead")),
    };
    Ok(Value::bigint(vm.heap.alloc_bigint(r)))
}

/// IsLessThan (§7.2.13): Some(true/false), or None for undefined (NaN involved).
pub fn less_than(vm: &mut Vm, a: Value, b: Value, left_first: bool) -> JsResult<Option<bool>> {
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        return Ok(Some(x < y));
    }
    let (px, py) = if left_first {
        let px = to_primitive(vm, a, Hint::Number)?;
        (px, to_primitive(vm, b, Hint::Number)?)
    } else {
        let py = to_primitive(vm, b, Hint::Number)?;
        (to_primitive(vm, a, Hint::Number)?, py)
    };
    if let (Some(sx), Some(sy)) = (px.as_string(), py.as_string()) {
        let x = vm.heap.flat(sx).clone();
        let y = vm.heap.flat(sy);
        return Ok(Some(x.iter().lt(y.iter())));
    }
    if let (Some(bx), Some(sy)) = (px.as_bigint(), py.as_string()) {
        let Some(y) = string_to_bigint(vm.heap.flat(sy)) else { return Ok(None) };
        return Ok(Some(*vm.heap.bigint(bx) < y));
    }
    if let (Some(sx), Some(by)) = (px.as_string(), py.as_bigint()) {
        let Some(x) = string_to_bigint(vm.heap.flat(sx)) else { return Ok(None) };
        return Ok(Some(x < *vm.heap.bigint(by)));
    }
    let nx = to_numeric(vm, px)?;
    let ny = to_numeric(vm, py)?;
    match (nx.as_bigint(), ny.as_bigint()) {
        (Some(x), Some(y)) => Ok(Some(vm.heap.bigint(x) < vm.heap.bigint(y))),
        (Some(x), None) => Ok(compare_bigint_number(vm.heap.bigint(x), ny.as_number().unwrap_or(f64::NAN))
            .map(|o| o == std::cmp::Ordering::Less)),
        (None, Some(y)) => Ok(compare_bigint_number(vm.heap.bigint(y), nx.as_number().unwrap_or(f64::NAN))
            .map(|o| o == std::cmp::Ordering::Greater)),
        (None, None) => {
            let (x, y) = (nx.as_number().unwrap_or(f64::NAN), ny.as_number().unwrap_or(f64::NAN));
            if x.is_nan() || y.is_nan() {
                Ok(None)
            } else {
                Ok(Some(x < y))
            }
        }
    }
}

/// Compare a BigInt with a Number; None when the number is NaN.
pub fn compare_bigint_number(x: &BigInt, y: f64) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    if y.is_nan() {
        return None;
    }
    if y == f64::INFINITY {
        return Some(Ordering::Less);
    }
    if y == f64::NEG_INFINITY {
        return Some(Ordering::Greater);
    }
    let fl = y.floor();
    let yi = num_bigint::BigInt::from(fl as i128);
    let yi = if fl.abs() >= 1.7e38 {
        BigInt::from_biguint(
            if fl < 0.0 { num_bigint::Sign::Minus } else { num_bigint::Sign::Plus },
            num_bigint::BigUint::from(0u8),
        ) + float_to_bigint(fl)
    } else {
        yi
    };
    match x.cmp(&yi) {
        Ordering::Equal => {
            if fl < y {
                Some(Ordering::Less)
            } else {
                Some(Ordering::Equal)
            }
        }
        o => Some(o),
    }
}

/// Exact integer value of an integral double.
pub fn float_to_bigint(f: f64) -> BigInt {
    let bits = f.to_bits();
    let sign = if bits >> 63 == 1 { -1 } else { 1 };
    let exp = ((bits >> 52) & 0x7FF) as i64 - 1075;
    let mant =
        if (bits >> 52) & 0x7FF == 0 { (bits & ((1 << 52) - 1)) << 1 } else { (bits & ((1 << 52) - 1)) | (1 << 52) };
    let m = BigInt::from(mant);
    let r = if exp >= 0 { m << exp as usize } else { m >> (-exp) as usize };
    if sign < 0 {
        -r
    } else {
        r
    }
}

/// StringToBigInt (§7.1.14): None when not a valid literal.
pub fn string_to_bigint(s: &crate::string::JsStr) -> Option<BigInt> {
    let t = s.to_rust_string();
    let t = t.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if t.is_empty() {
        return Some(BigInt::zero());
    }
    let (radix, body) = match t.get(..2) {
        Some("0x") | Some("0X") => (16, &t[2..]),
        Some("0o") | Some("0O") => (8, &t[2..]),
        Some("0b") | Some("0B") => (2, &t[2..]),
        _ => (10, t),
    };
    if radix != 10 && (body.is_empty() || body.starts_with(['+', '-'])) {
        return None;
    }
    let (neg, digits) = match body.strip_prefix('-') {
        Some(d) if radix == 10 => (true, d),
        _ => (false, body.strip_prefix('+').filter(|_| radix == 10).unwrap_or(body)),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let v = BigInt::parse_bytes(digits.as_bytes(), radix)?;
    Some(if neg { -v } else { v })
}

/// IsStrictlyEqual (§7.2.16).
pub fn strict_equals(vm: &mut Vm, a: Value, b: Value) -> bool {
    if a == b {
        return !matches!(a.kind(), Kind::Float(f) if f.is_nan());
    }
    match (a.kind(), b.kind()) {
        (Kind::Int(_) | Kind::Float(_), Kind::Int(_) | Kind::Float(_)) => a.as_number() == b.as_number(),
        (Kind::String(x), Kind::String(y)) => {
            if vm.heap.string_len(x) != vm.heap.string_len(y) {
                return false;
            }
            let xs = vm.heap.flat(x).clone();
            xs == *vm.heap.flat(y)
        }
        (Kind::BigInt(x), Kind::BigInt(y)) => vm.heap.bigint(x) == vm.heap.bigint(y),
        _ => false,
    }
}

/// SameValue with heap access for strings and bigints.
pub fn same_value_heap(vm: &mut Vm, a: Value, b: Value) -> bool {
    match (a.as_number(), b.as_number()) {
        (Some(x), Some(y)) => {
            if x.is_nan() && y.is_nan() {
                return true;
            }
            x == y && x.is_sign_negative() == y.is_sign_negative()
        }
        _ => strict_equals(vm, a, b),
    }
}

/// SameValue for values that need no heap to compare (numbers, identities); strings with
/// equal contents but different handles compare unequal — callers that can see such strings
/// compare contents first (`same_value_heap`).
pub fn same_value(a: Value, b: Value) -> bool {
    match (a.as_number(), b.as_number()) {
        (Some(x), Some(y)) => (x.is_nan() && y.is_nan()) || (x == y && x.is_sign_negative() == y.is_sign_negative()),
        _ => a == b,
    }
}

/// SameValueZero.
pub fn same_value_zero(vm: &mut Vm, a: Value, b: Value) -> bool {
    match (a.as_number(), b.as_number()) {
        (Some(x), Some(y)) => (x.is_nan() && y.is_nan()) || x == y,
        _ => strict_equals(vm, a, b),
    }
}

/// IsLooselyEqual (§7.2.15).
pub fn loose_equals(vm: &mut Vm, a: Value, b: Value) -> JsResult<bool> {
    use Kind::*;
    let (ka, kb) = (a.kind(), b.kind());
    match (ka, kb) {
        (Undefined | Null, Undefined | Null) => return Ok(true),
        (Object(o), Undefined | Null) | (Undefined | Null, Object(o)) => return Ok(is_htmldda(vm, o)),
        _ => {}
    }
    let same_type = std::mem::discriminant(&ka) == std::mem::discriminant(&kb) || (a.is_number() && b.is_number());
    if same_type {
        return Ok(strict_equals(vm, a, b));
    }
    match (ka, kb) {
        (Undefined | Null, _) | (_, Undefined | Null) => Ok(false),
        (Int(_) | Float(_), String(_)) => {
            let y = to_number(vm, b)?;
            Ok(a.as_number() == Some(y))
        }
        (String(_), Int(_) | Float(_)) => {
            let x = to_number(vm, a)?;
            Ok(Some(x) == b.as_number())
        }
        (BigInt(x), String(s)) | (String(s), BigInt(x)) => {
            let Some(n) = string_to_bigint(vm.heap.flat(s)) else { return Ok(false) };
            Ok(*vm.heap.bigint(x) == n)
        }
        (Bool(x), _) => loose_equals(vm, Value::int(x as i32), b),
        (_, Bool(y)) => loose_equals(vm, a, Value::int(y as i32)),
        (Object(_), Int(_) | Float(_) | String(_) | BigInt(_) | Symbol(_)) => {
            let p = to_primitive(vm, a, Hint::Default)?;
            loose_equals(vm, p, b)
        }
        (Int(_) | Float(_) | String(_) | BigInt(_) | Symbol(_), Object(_)) => {
            let p = to_primitive(vm, b, Hint::Default)?;
            loose_equals(vm, a, p)
        }
        (BigInt(x), Int(_) | Float(_)) => {
            Ok(compare_bigint_number(vm.heap.bigint(x), b.as_number().unwrap_or(f64::NAN))
                == Some(std::cmp::Ordering::Equal))
        }
        (Int(_) | Float(_), BigInt(y)) => {
            Ok(compare_bigint_number(vm.heap.bigint(y), a.as_number().unwrap_or(f64::NAN))
                == Some(std::cmp::Ordering::Equal))
        }
        _ => Ok(false),
    }
}

/// The [[IsHTMLDDA]] internal slot (test262's `$262.IsHTMLDDA`): an internal object marker.
pub fn is_htmldda(vm: &Vm, o: ObjectId) -> bool {
    matches!(&vm.heap.obj(o).class, Class::Internal(v) if v.first() == Some(&Value::EMPTY))
}

/// typeof (§13.5.3).
pub fn type_of(vm: &Vm, v: Value) -> &'static str {
    match v.kind() {
        Kind::Undefined | Kind::Empty => "undefined",
        Kind::Null => "object",
        Kind::Bool(_) => "boolean",
        Kind::Int(_) | Kind::Float(_) => "number",
        Kind::String(_) => "string",
        Kind::Symbol(_) => "symbol",
        Kind::BigInt(_) => "bigint",
        Kind::Object(o) => {
            if is_htmldda(vm, o) {
                "undefined"
            } else if vm.heap.obj(o).is_callable() {
                "function"
            } else {
                "object"
            }
        }
    }
}

/// InstanceofOperator (§13.10.2).
pub fn instance_of(vm: &mut Vm, v: Value, target: Value) -> JsResult<bool> {
    if !target.is_object() {
        return Err(vm.type_error("Right-hand side of 'instanceof' is not an object"));
    }
    let key = PropertyKey::Symbol(vm.symbols.hasInstance);
    if let Some(h) = get_method(vm, target, key)? {
        let r = call(vm, h, target, &[v])?;
        return Ok(crate::runtime::convert::to_boolean(vm, r));
    }
    if !is_callable(vm, target) {
        return Err(vm.type_error("Right-hand side of 'instanceof' is not callable"));
    }
    ordinary_has_instance(vm, target, v)
}

/// OrdinaryHasInstance (§7.3.21).
pub fn ordinary_has_instance(vm: &mut Vm, c: Value, o: Value) -> JsResult<bool> {
    if !is_callable(vm, c) {
        return Ok(false);
    }
    let Some(cid) = c.as_object() else { return Ok(false) };
    if let Class::Bound(b) = &vm.heap.obj(cid).class {
        let target = Value::object(b.target);
        return instance_of(vm, o, target);
    }
    let Some(mut cur) = o.as_object() else { return Ok(false) };
    let p = get(vm, cid, PropertyKey::Atom(atom::prototype), c)?;
    let Some(p) = p.as_object() else {
        return Err(vm.type_error("Function has non-object prototype in instanceof check"));
    };
    loop {
        match crate::runtime::property::get_prototype_of(vm, cur)? {
            Some(next) if next == p => return Ok(true),
            Some(next) => cur = next,
            None => return Ok(false),
        }
    }
}
