//! The Number object (ECMA-262 §21.1) and the global number functions (§19.2.2–19.2.5):
//! https://tc39.es/ecma262/#sec-number-objects
//!
//! Formatting is exact: `toFixed`, `toExponential` and `toPrecision` round the double's exact
//! binary value (expanded with `num-bigint`), never Rust's float formatting; `toString(radix)`
//! reproduces V8's digit generation so output matches Node byte for byte.

use num_bigint::BigUint;
use num_traits::{One, Pow, ToPrimitive, Zero};

use crate::builtins::{arg, install, make_constructor, make_native, NativeDef, NativeId};
use crate::error::JsResult;
use crate::heap::object::{Class, Object};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::{number_to_string, to_integer_or_infinity, to_js_str, to_number, to_numeric};
use crate::string::{is_js_whitespace, JsStr};
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Number", 1, constructor),
    native!("Number.isFinite", 1, number_is_finite),
    native!("Number.isInteger", 1, number_is_integer),
    native!("Number.isNaN", 1, number_is_nan),
    native!("Number.isSafeInteger", 1, number_is_safe_integer),
    native!("Number.parseFloat", 1, parse_float),
    native!("Number.parseInt", 2, parse_int),
    native!("Number.prototype.toExponential", 1, to_exponential),
    native!("Number.prototype.toFixed", 1, to_fixed),
    native!("Number.prototype.toLocaleString", 0, to_locale_string),
    native!("Number.prototype.toPrecision", 1, to_precision),
    native!("Number.prototype.toString", 1, to_string),
    native!("Number.prototype.valueOf", 0, value_of),
    // The global functions (§19.2); parseFloat/parseInt are the Number.* objects themselves.
    native!("isFinite", 1, global_is_finite),
    native!("isNaN", 1, global_is_nan),
];

/// 2^53 - 1.
const MAX_SAFE_INTEGER: f64 = 9007199254740991.0;

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.number_prototype;
    // The Number prototype object is itself a Number object whose [[NumberData]] is +0.
    vm.heap.obj_mut(proto).class = Class::Number(0.0);
    let ctor = make_constructor(vm, "Number", "Number", proto);
    install(vm, proto, "Number.prototype", NATIVES);
    install(vm, ctor, "Number", NATIVES);

    // 21.1.2.1 – 21.1.2.14: the value properties are { [[Writable]]: false,
    // [[Enumerable]]: false, [[Configurable]]: false }.
    let constants: [(&str, f64); 8] = [
        ("EPSILON", f64::EPSILON),
        ("MAX_SAFE_INTEGER", MAX_SAFE_INTEGER),
        ("MAX_VALUE", f64::MAX),
        ("MIN_SAFE_INTEGER", -MAX_SAFE_INTEGER),
        ("MIN_VALUE", 5e-324),
        ("NaN", f64::NAN),
        ("NEGATIVE_INFINITY", f64::NEG_INFINITY),
        ("POSITIVE_INFINITY", f64::INFINITY),
    ];
    for (name, v) in constants {
        let key = vm.key(name);
        vm.define_builtin(ctor, key, Value::number(v), PropFlags::NONE);
    }

    // 19.2.4 / 19.2.5: the global parseFloat and parseInt are the same function objects as
    // Number.parseFloat and Number.parseInt (21.1.2.12, 21.1.2.13).
    let global = vm.global;
    for name in ["parseFloat", "parseInt"] {
        let key = vm.key(name);
        let f = vm.heap.obj(ctor).lookup_named(&vm.heap.shapes, key).map(|(v, _)| v);
        if let Some(f) = f {
            vm.define_builtin(global, key, f, PropFlags::HIDDEN);
        }
    }
    for (name, length) in [("isFinite", 1), ("isNaN", 1)] {
        if let Some(id) = NativeId::by_name(name) {
            let f = make_native(vm, name, id, length, false, Vec::new());
            let key = vm.key(name);
            vm.define_builtin(global, key, Value::object(f), PropFlags::HIDDEN);
        }
    }
}

/// ### 21.1.1.1 Number ( value )
/// https://tc39.es/ecma262/#sec-number-constructor-number-value
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If value is present, then
    let n = if let Some(&value) = args.first() {
        // a. Let prim be ? ToNumeric(value).
        let prim = to_numeric(vm, value)?;
        // b. If prim is a BigInt, let n be 𝔽(ℝ(prim)).
        match prim.as_bigint() {
            Some(b) => vm.heap.bigint(b).to_f64().unwrap_or(f64::NAN),
            // c. Otherwise, let n be prim.
            None => prim.as_number().unwrap_or(f64::NAN),
        }
    } else {
        // 2. Else, let n be +0𝔽.
        0.0
    };
    // 3. If NewTarget is undefined, return n.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Ok(Value::number(n));
    }
    // 4. Let O be ? OrdinaryCreateFromConstructor(NewTarget, "%Number.prototype%",
    //    « [[NumberData]] »).
    let default = vm.realm.number_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 5. Set O.[[NumberData]] to n.
    let o = vm.heap.alloc_object(Object::new(Some(proto), Class::Number(n)));
    // 6. Return O.
    Ok(Value::object(o))
}

/// ### 21.1.2.2 Number.isFinite ( number )
fn number_is_finite(_vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If number is not a Number, return false.
    // 2. If number is not finite, return false.
    // 3. Otherwise, return true.
    Ok(Value::bool(arg(args, 0).as_number().is_some_and(f64::is_finite)))
}

/// ### 21.1.2.3 Number.isInteger ( number )
fn number_is_integer(_vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Return IsIntegralNumber(number).
    Ok(Value::bool(arg(args, 0).as_number().is_some_and(is_integral)))
}

/// ### 21.1.2.4 Number.isNaN ( number )
fn number_is_nan(_vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If number is not a Number, return false.
    // 2. If number is NaN, return true.
    // 3. Otherwise, return false.
    Ok(Value::bool(arg(args, 0).as_number().is_some_and(f64::is_nan)))
}

/// ### 21.1.2.5 Number.isSafeInteger ( number )
fn number_is_safe_integer(_vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If IsIntegralNumber(number) is true, then
    //    a. If abs(ℝ(number)) ≤ 2^53 - 1, return true.
    // 2. Return false.
    let safe = arg(args, 0).as_number().is_some_and(|n| is_integral(n) && n.abs() <= MAX_SAFE_INTEGER);
    Ok(Value::bool(safe))
}

/// IsIntegralNumber (§7.2.6) of a Number.
fn is_integral(n: f64) -> bool {
    n.is_finite() && n.trunc() == n
}

/// ### 19.2.2 isFinite ( number )
fn global_is_finite(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let num be ? ToNumber(number).
    let num = to_number(vm, arg(args, 0))?;
    // 2. If num is not finite, return false.
    // 3. Otherwise, return true.
    Ok(Value::bool(num.is_finite()))
}

/// ### 19.2.3 isNaN ( number )
fn global_is_nan(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let num be ? ToNumber(number).
    let num = to_number(vm, arg(args, 0))?;
    // 2. If num is NaN, return true.
    // 3. Otherwise, return false.
    Ok(Value::bool(num.is_nan()))
}

/// ### 19.2.4 parseFloat ( string )
/// https://tc39.es/ecma262/#sec-parsefloat-string
fn parse_float(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let inputString be ? ToString(string).
    let input = to_js_str(vm, arg(args, 0))?;
    vm.charge(input.len() as u64 / 16)?;
    // 2-6. Trim leading white space; the longest prefix satisfying StrDecimalLiteral, or NaN.
    Ok(Value::number(parse_float_str(&input)))
}

/// ### 19.2.5 parseInt ( string, radix )
/// https://tc39.es/ecma262/#sec-parseint-string-radix
fn parse_int(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let inputString be ? ToString(string).
    let input = to_js_str(vm, arg(args, 0))?;
    // 6. Let R be ℝ(? ToInt32(radix)).
    let radix = crate::runtime::convert::to_int32(vm, arg(args, 1))?;
    vm.charge(input.len() as u64 / 16)?;
    Ok(Value::number(parse_int_str(&input, radix)))
}

/// parseFloat on string contents: the longest StrDecimalLiteral prefix after white space.
pub(crate) fn parse_float_str(input: &JsStr) -> f64 {
    // 2. Let trimmedString be ! TrimString(inputString, start).
    let start = (0..input.len()).find(|&i| !is_js_whitespace(input.unit(i))).unwrap_or(input.len());
    let unit = |i: usize| if i < input.len() { input.unit(i) } else { 0 };
    let mut i = start;
    // 3. Let trimmed be StringToCodePoints(trimmedString).
    // 4. Let trimmedPrefix be the longest prefix of trimmed that satisfies the syntax of a
    //    StrDecimalLiteral, which might be trimmed itself. If there is no such prefix, return NaN.
    let mut negative = false;
    if unit(i) == u16::from(b'+') || unit(i) == u16::from(b'-') {
        negative = unit(i) == u16::from(b'-');
        i += 1;
    }
    let infinity: Vec<u16> = "Infinity".encode_utf16().collect();
    if i + infinity.len() <= input.len() && (0..infinity.len()).all(|k| input.unit(i + k) == infinity[k]) {
        return if negative { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    let is_digit = |c: u16| (u16::from(b'0')..=u16::from(b'9')).contains(&c);
    let mut text = String::new();
    if negative {
        text.push('-');
    }
    let mut digits = 0;
    while is_digit(unit(i)) {
        text.push(char::from(unit(i) as u8));
        i += 1;
        digits += 1;
    }
    if unit(i) == u16::from(b'.') {
        let mut frac = String::from(".");
        let mut j = i + 1;
        while is_digit(unit(j)) {
            frac.push(char::from(unit(j) as u8));
            j += 1;
            digits += 1;
        }
        if frac.len() > 1 || digits > 0 {
            text.push_str(&frac);
            i = j;
        }
    }
    if digits == 0 {
        return f64::NAN;
    }
    if unit(i) == u16::from(b'e') || unit(i) == u16::from(b'E') {
        let mut exp = String::from("e");
        let mut j = i + 1;
        if unit(j) == u16::from(b'+') || unit(j) == u16::from(b'-') {
            exp.push(char::from(unit(j) as u8));
            j += 1;
        }
        let mut exp_digits = 0;
        while is_digit(unit(j)) {
            exp.push(char::from(unit(j) as u8));
            j += 1;
            exp_digits += 1;
        }
        if exp_digits > 0 {
            text.push_str(&exp);
        }
    }
    // 5. Let parsedNumber be ParseText(trimmedPrefix, StrDecimalLiteral).
    // 6. Return StringToNumber(CodePointsToString(trimmedPrefix)) (correctly rounded; -0 kept).
    text.parse::<f64>().unwrap_or(f64::NAN)
}

/// parseInt on string contents with the radix already converted by ToInt32.
pub(crate) fn parse_int_str(input: &JsStr, radix: i32) -> f64 {
    let len = input.len();
    // 2. Let S be ! TrimString(inputString, start).
    let mut i = (0..len).find(|&i| !is_js_whitespace(input.unit(i))).unwrap_or(len);
    // 3. Let sign be 1.
    // 4. If S is not empty and the first code unit of S is the code unit 0x002D (HYPHEN-MINUS),
    //    set sign to -1.
    let mut sign = 1.0;
    if i < len && input.unit(i) == u16::from(b'-') {
        sign = -1.0;
    }
    // 5. If S is not empty and the first code unit of S is either the code unit 0x002B (PLUS
    //    SIGN) or the code unit 0x002D (HYPHEN-MINUS), remove the first code unit from S.
    if i < len && (input.unit(i) == u16::from(b'+') || input.unit(i) == u16::from(b'-')) {
        i += 1;
    }
    // 7. Let stripPrefix be true.
    let mut strip_prefix = true;
    let mut r = radix;
    // 8. If R ≠ 0, then
    if r != 0 {
        // a. If R < 2 or R > 36, return NaN.
        if !(2..=36).contains(&r) {
            return f64::NAN;
        }
        // b. If R ≠ 16, set stripPrefix to false.
        if r != 16 {
            strip_prefix = false;
        }
    } else {
        // 9. Else, set R to 10.
        r = 10;
    }
    // 10. If stripPrefix is true, then
    //     a. If the length of S is at least 2 and the first two code units of S are either
    //        "0x" or "0X", remove the first two code units from S and set R to 16.
    if strip_prefix
        && i + 1 < len
        && input.unit(i) == u16::from(b'0')
        && (input.unit(i + 1) == u16::from(b'x') || input.unit(i + 1) == u16::from(b'X'))
    {
        i += 2;
        r = 16;
    }
    // 11. If S contains a code unit that is not a radix-R digit, let end be the index within S
    //     of the first such code unit; otherwise, let end be the length of S.
    // 12. Let Z be the substring of S from 0 to end.
    let mut digits: Vec<u8> = Vec::new();
    while i < len {
        match digit_value(input.unit(i)) {
            Some(d) if u32::from(d) < r as u32 => digits.push(d),
            _ => break,
        }
        i += 1;
    }
    // 13. If Z is empty, return NaN.
    if digits.is_empty() {
        return f64::NAN;
    }
    // 14. Let mathInt be the integer value that is represented by Z in radix-R notation …
    //     (exact for radices 2, 4, 8, 10, 16 and 32; otherwise V8's approximation).
    let math_int = radix_digits_to_f64(&digits, r as u32);
    // 15. If mathInt = 0, then a. If sign = -1, return -0𝔽. b. Return +0𝔽.
    // 16. Return 𝔽(sign × mathInt).
    sign * math_int
}

/// The value of an ASCII digit or letter as a radix digit.
fn digit_value(c: u16) -> Option<u8> {
    let c = u8::try_from(c).ok()?;
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'z' => Some(c - b'a' + 10),
        b'A'..=b'Z' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Digits (each < radix) as a double: correctly rounded when the spec requires it (radix 10
/// and powers of two); for other radices V8's 32-bit chunked accumulation, so results match.
fn radix_digits_to_f64(digits: &[u8], radix: u32) -> f64 {
    let first = digits.iter().position(|&d| d != 0).unwrap_or(digits.len());
    let digits = &digits[first..];
    if digits.is_empty() {
        return 0.0;
    }
    let exact = radix == 10 || radix.is_power_of_two();
    if exact {
        // Anything over 1100 significant bits overflows a double; skip the big arithmetic.
        let bits = (digits.len() as f64 - 1.0) * f64::from(radix).log2();
        if bits > 1100.0 {
            return f64::INFINITY;
        }
        let n = digits.iter().fold(BigUint::zero(), |acc, &d| acc * radix + u32::from(d));
        return n.to_f64().unwrap_or(f64::INFINITY);
    }
    // V8 NumberParseIntHelper::HandleGenericCase.
    const MAXIMUM_MULTIPLIER: u32 = 0xFFFF_FFFF / 36;
    let mut result = 0.0f64;
    let mut i = 0;
    while i < digits.len() {
        let (mut part, mut multiplier) = (0u32, 1u32);
        while i < digits.len() {
            let m = multiplier * radix;
            if m > MAXIMUM_MULTIPLIER {
                break;
            }
            part = part * radix + u32::from(digits[i]);
            multiplier = m;
            i += 1;
        }
        result = result * f64::from(multiplier) + f64::from(part);
    }
    result
}

/// thisNumberValue (§21.1.3.7.1): a Number, or a Number object's [[NumberData]].
fn this_number_value(vm: &mut Vm, this: Value, method: &str) -> JsResult<f64> {
    if let Some(n) = this.as_number() {
        return Ok(n);
    }
    if let Some(o) = this.as_object() {
        if let Class::Number(n) = vm.heap.obj(o).class {
            return Ok(n);
        }
    }
    Err(vm.type_error(format!("{method} requires that 'this' be a Number")))
}

/// ### 21.1.3.2 Number.prototype.toExponential ( fractionDigits )
/// https://tc39.es/ecma262/#sec-number.prototype.toexponential
fn to_exponential(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let x be ? ThisNumberValue(this value).
    let x = this_number_value(vm, this, "Number.prototype.toExponential")?;
    // 2. Let f be ? ToIntegerOrInfinity(fractionDigits).
    let fraction_digits = arg(args, 0);
    let f = to_integer_or_infinity(vm, fraction_digits)?;
    // 3. Assert: If fractionDigits is undefined, then f is 0.
    // 4. If x is not finite, return Number::toString(x, 10).
    if !x.is_finite() {
        return Ok(vm.str(&number_to_string(x)));
    }
    // 5. If f < 0 or f > 100, throw a RangeError exception.
    if !(0.0..=100.0).contains(&f) {
        return Err(vm.range_error("toExponential() argument must be between 0 and 100"));
    }
    let digits = if fraction_digits.is_undefined() { None } else { Some(f as u32) };
    Ok(vm.str(&format_exponential(x, digits)))
}

/// ### 21.1.3.3 Number.prototype.toFixed ( fractionDigits )
/// https://tc39.es/ecma262/#sec-number.prototype.tofixed
fn to_fixed(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let x be ? ThisNumberValue(this value).
    let x = this_number_value(vm, this, "Number.prototype.toFixed")?;
    // 2. Let f be ? ToIntegerOrInfinity(fractionDigits).
    // 3. Assert: If fractionDigits is undefined, then f is 0.
    let f = to_integer_or_infinity(vm, arg(args, 0))?;
    // 4. If f is not finite, throw a RangeError exception.
    // 5. If f < 0 or f > 100, throw a RangeError exception.
    if !(0.0..=100.0).contains(&f) {
        return Err(vm.range_error("toFixed() digits argument must be between 0 and 100"));
    }
    // 6. If x is not finite, return Number::toString(x, 10).
    if !x.is_finite() {
        return Ok(vm.str(&number_to_string(x)));
    }
    Ok(vm.str(&format_fixed(x, f as u32)))
}

/// ### 20.1.3.4 Number.prototype.toLocaleString ( [ locales [ , options ] ] ) (ECMA-402)
/// https://tc39.es/ecma402/#sup-number.prototype.tolocalestring
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let x be ? ThisNumberValue(this value).
    let x = this_number_value(vm, this, "Number.prototype.toLocaleString")?;
    // 2-3. Return FormatNumeric(! Construct(%Intl.NumberFormat%, « locales, options »), x).
    let x = crate::builtins::intl::MathValue::from_f64(x);
    crate::builtins::intl::number_to_locale_string(vm, x, arg(args, 0), arg(args, 1))
}

/// ### 21.1.3.5 Number.prototype.toPrecision ( precision )
/// https://tc39.es/ecma262/#sec-number.prototype.toprecision
fn to_precision(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let x be ? ThisNumberValue(this value).
    let x = this_number_value(vm, this, "Number.prototype.toPrecision")?;
    // 2. If precision is undefined, return ! ToString(x).
    let precision = arg(args, 0);
    if precision.is_undefined() {
        return Ok(vm.str(&number_to_string(x)));
    }
    // 3. Let p be ? ToIntegerOrInfinity(precision).
    let p = to_integer_or_infinity(vm, precision)?;
    // 4. If x is not finite, return Number::toString(x, 10).
    if !x.is_finite() {
        return Ok(vm.str(&number_to_string(x)));
    }
    // 5. If p < 1 or p > 100, throw a RangeError exception.
    if !(1.0..=100.0).contains(&p) {
        return Err(vm.range_error("toPrecision() argument must be between 1 and 100"));
    }
    Ok(vm.str(&format_precision(x, p as u32)))
}

/// ### 21.1.3.6 Number.prototype.toString ( [ radix ] )
/// https://tc39.es/ecma262/#sec-number.prototype.tostring
fn to_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let x be ? ThisNumberValue(this value).
    let x = this_number_value(vm, this, "Number.prototype.toString")?;
    // 2. If radix is undefined, let radixMV be 10.
    // 3. Else, let radixMV be ? ToIntegerOrInfinity(radix).
    let radix = arg(args, 0);
    let radix_mv = if radix.is_undefined() { 10.0 } else { to_integer_or_infinity(vm, radix)? };
    // 4. If radixMV is not in the inclusive interval from 2 to 36, throw a RangeError exception.
    if !(2.0..=36.0).contains(&radix_mv) {
        return Err(vm.range_error("toString() radix argument must be between 2 and 36"));
    }
    // 5. Return Number::toString(x, radixMV).
    let s = number_to_string_radix(x, radix_mv as u32);
    vm.charge(s.len() as u64 / 16)?;
    Ok(vm.str(&s))
}

/// ### 21.1.3.7 Number.prototype.valueOf ( )
fn value_of(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return ? ThisNumberValue(this value).
    let x = this_number_value(vm, this, "Number.prototype.valueOf")?;
    Ok(Value::number(x))
}

// ---- exact decimal formatting

/// A finite non-negative double as an exact binary fraction: x = mantissa × 2^exponent.
fn decompose(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7FF) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    }
}

/// The integer n closest to x × 10^k for finite x ≥ 0, the larger one on a tie — computed on
/// the double's exact value.
fn scaled_round(x: f64, k: i32) -> BigUint {
    let (num, den) = scaled_fraction(x, k);
    (num * 2u32 + &den) / (den * 2u32)
}

/// x × 10^k as an exact fraction (numerator, denominator).
fn scaled_fraction(x: f64, k: i32) -> (BigUint, BigUint) {
    let (m, e2) = decompose(x);
    let mut num = BigUint::from(m);
    let mut den = BigUint::one();
    if e2 >= 0 {
        num <<= e2 as usize;
    } else {
        den <<= e2.unsigned_abs() as usize;
    }
    let ten = BigUint::from(10u32);
    if k >= 0 {
        num *= Pow::pow(&ten, k as u32);
    } else {
        den *= Pow::pow(&ten, k.unsigned_abs());
    }
    (num, den)
}

/// For finite x > 0: the decimal digits of the integer n with 10^(p-1) ≤ n < 10^p for which
/// n × 10^(e-p+1) - x is closest to zero (the larger n on a tie), and that e.
fn precision_digits(x: f64, p: u32) -> (String, i32) {
    // e: the exponent of x's leading digit, exactly (10^e ≤ x < 10^(e+1)). log10 rounds, so
    // it can be one off (log10(9.999999999999999e-22) is -21 exactly).
    let mut e = x.log10().floor() as i32;
    while e > -400 && cmp_pow10(x, e) == std::cmp::Ordering::Less {
        e -= 1;
    }
    while e < 400 && cmp_pow10(x, e + 1) != std::cmp::Ordering::Less {
        e += 1;
    }
    // n rounds half up (the larger n on a tie); rounding up to 10^p moves to the next power.
    let ten = BigUint::from(10u32);
    let high: BigUint = Pow::pow(&ten, p);
    let mut n = scaled_round(x, p as i32 - 1 - e);
    if n >= high {
        n /= 10u32;
        e += 1;
    }
    (n.to_string(), e)
}

/// Compares finite x > 0 with 10^k exactly (x × 10^-k against 1).
fn cmp_pow10(x: f64, k: i32) -> std::cmp::Ordering {
    let (num, den) = scaled_fraction(x, -k);
    num.cmp(&den)
}

/// The shortest round-trip digits of finite x > 0 and the exponent of the first digit.
fn shortest_digits(x: f64) -> (String, i32) {
    let mut buffer = ryu_js::Buffer::new();
    let s = buffer.format_finite(x);
    let (mantissa, exp) = match s.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (s, 0),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: String = format!("{int_part}{frac_part}");
    let leading = all.len() - all.trim_start_matches('0').len();
    let digits = all.trim_start_matches('0').trim_end_matches('0').to_string();
    let e = exp + int_part.len() as i32 - 1 - leading as i32;
    (if digits.is_empty() { "0".to_string() } else { digits }, e)
}

/// Number::toString(x) for toFixed: 21.1.3.3 steps 7–14 for finite x.
pub(crate) fn format_fixed(x: f64, f: u32) -> String {
    // 7. Set x to ℝ(x).
    // 8. Let s be the empty String.
    // 9. If x < 0, then a. Set s to "-". b. Set x to -x.
    let (s, x) = if x < 0.0 { ("-", -x) } else { ("", x) };
    // 10. If x ≥ 10^21, then a. Let m be ! ToString(𝔽(x)).
    if x >= 1e21 {
        return format!("{s}{}", number_to_string(x));
    }
    // 11. Else,
    //     a. Let n be an integer for which n / 10^f - x is as close to zero as possible. If
    //        there are two such n, pick the larger n.
    let n = scaled_round(x, f as i32);
    //     b. If n = 0, let m be "0". Otherwise, let m be the String value consisting of the
    //        digits of the decimal representation of n (in order, with no leading zeroes).
    let mut m = n.to_string();
    //     c. If f ≠ 0, then
    if f != 0 {
        // i. Let k be the length of m.
        let mut k = m.len();
        // ii. If k ≤ f, then
        if k <= f as usize {
            // 1. Let z be the String value consisting of f + 1 - k occurrences of "0".
            // 2. Set m to the string-concatenation of z and m.
            // 3. Set k to f + 1.
            m = format!("{}{m}", "0".repeat(f as usize + 1 - k));
            k = f as usize + 1;
        }
        // iii. Let a be the first k - f code units of m.
        // iv. Let b be the other f code units of m.
        // v. Set m to the string-concatenation of a, ".", and b.
        let (a, b) = m.split_at(k - f as usize);
        m = format!("{a}.{b}");
    }
    // 12. Return the string-concatenation of s and m.
    format!("{s}{m}")
}

/// 21.1.3.2 steps 6–15 for finite x; `fraction_digits` None means "as many as needed".
pub(crate) fn format_exponential(x: f64, fraction_digits: Option<u32>) -> String {
    // 7. Let s be the empty String.
    // 8. If x < 0, then a. Set s to "-". b. Set x to -x.
    let (s, x) = if x < 0.0 { ("-", -x) } else { ("", x) };
    // 9. If x = 0, then a. Let m be the String value consisting of f + 1 occurrences of "0".
    //    b. Let e be 0.
    let (m, e) = if x == 0.0 {
        ("0".repeat(fraction_digits.unwrap_or(0) as usize + 1), 0)
    } else {
        match fraction_digits {
            // 10.a. If fractionDigits is not undefined, let e and n be integers such that
            //       10^f ≤ n < 10^(f+1) and for which n × 10^(e-f) - x is as close to zero as
            //       possible. If there are two such sets of e and n, pick the larger n.
            Some(f) => precision_digits(x, f + 1),
            // 10.b. Else, let e, n, and f be integers such that f ≥ 0, 10^f ≤ n < 10^(f+1),
            //       𝔽(n × 10^(e-f)) is 𝔽(x), and f is as small as possible.
            None => shortest_digits(x),
        }
    };
    // 11. If f ≠ 0, then a. Let a be the first code unit of m. b. Let b be the remaining f
    //     code units of m. c. Set m to the string-concatenation of a, ".", and b.
    let m = if m.len() > 1 { format!("{}.{}", &m[..1], &m[1..]) } else { m };
    // 12. If e = 0, then a. Let c be "+". b. Let d be "0".
    // 13. Else, a. If e > 0, let c be "+". b. Else, i. Assert: e < 0. ii. Let c be "-".
    //     iii. Set e to -e. c. Let d be the String value consisting of the digits of the
    //     decimal representation of e (in order, with no leading zeroes).
    let c = if e >= 0 { '+' } else { '-' };
    // 14. Set m to the string-concatenation of m, "e", c, and d.
    // 15. Return the string-concatenation of s and m.
    format!("{s}{m}e{c}{}", e.unsigned_abs())
}

/// 21.1.3.5 steps 6–14 for finite x and 1 ≤ p ≤ 100.
pub(crate) fn format_precision(x: f64, p: u32) -> String {
    // 7. Let s be the empty String.
    // 8. If x < 0, then a. Set s to the code unit 0x002D (HYPHEN-MINUS). b. Set x to -x.
    let (s, x) = if x < 0.0 { ("-", -x) } else { ("", x) };
    // 9. If x = 0, then a. Let m be the String value consisting of p occurrences of the code
    //    unit 0x0030 (DIGIT ZERO). b. Let e be 0.
    // 10. Else, a. Let e and n be integers such that 10^(p-1) ≤ n < 10^p and for which
    //     n × 10^(e-p+1) - x is as close to zero as possible. If there are two such sets of e
    //     and n, pick the e and n for which n × 10^(e-p+1) is larger.
    //     b. Let m be the String value consisting of the digits of the decimal representation
    //     of n (in order, with no leading zeroes).
    let (m, e) = if x == 0.0 { ("0".repeat(p as usize), 0) } else { precision_digits(x, p) };
    //     c. If e < -6 or e ≥ p, then
    if !x.is_nan() && x != 0.0 && (e < -6 || e >= p as i32) {
        // i. Assert: e ≠ 0.
        // ii. If p ≠ 1, then 1. Let a be the first code unit of m. 2. Let b be the remaining
        //     p - 1 code units of m. 3. Set m to the string-concatenation of a, ".", and b.
        let m = if p != 1 { format!("{}.{}", &m[..1], &m[1..]) } else { m };
        // iii. If e > 0, then 1. Let c be the code unit 0x002B (PLUS SIGN).
        // iv. Else, 1. Assert: e < 0. 2. Let c be the code unit 0x002D (HYPHEN-MINUS).
        //     3. Set e to -e.
        let c = if e > 0 { '+' } else { '-' };
        // v. Let d be the String value consisting of the digits of the decimal
        //    representation of e (in order, with no leading zeroes).
        // vi. Return the string-concatenation of s, m, the code unit 0x0065 (LATIN SMALL
        //     LETTER E), c, and d.
        return format!("{s}{m}e{c}{}", e.unsigned_abs());
    }
    // 11. If e = p - 1, return the string-concatenation of s and m.
    if e == p as i32 - 1 {
        return format!("{s}{m}");
    }
    // 12. If e ≥ 0, then a. Set m to the string-concatenation of the first e + 1 code units of
    //     m, the code unit 0x002E (FULL STOP), and the remaining p - (e + 1) code units of m.
    if e >= 0 {
        let (a, b) = m.split_at(e as usize + 1);
        return format!("{s}{a}.{b}");
    }
    // 13. Else, a. Set m to the string-concatenation of the code unit 0x0030 (DIGIT ZERO), the
    //     code unit 0x002E (FULL STOP), -(e + 1) occurrences of the code unit 0x0030 (DIGIT
    //     ZERO), and the String m.
    // 14. Return the string-concatenation of s and m.
    format!("{s}0.{}{m}", "0".repeat((-(e + 1)) as usize))
}

/// Number::toString(x, radix) (§6.1.6.1.20) for radix 2..=36, with V8's digit generation for
/// radices other than 10 (DoubleToRadixCString): fraction digits stop once they no longer
/// distinguish x from its neighbours, rounding half to even.
pub(crate) fn number_to_string_radix(x: f64, radix: u32) -> String {
    if radix == 10 || !x.is_finite() {
        return number_to_string(x);
    }
    if x == 0.0 {
        return "0".to_string();
    }
    const CHARS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let radix_f = f64::from(radix);
    let negative = x < 0.0;
    let value = x.abs();
    let mut integer = value.floor();
    let mut fraction = value - integer;
    // We only compute fractional digits up to the input double's precision.
    let mut delta = 0.5 * (next_double(value) - value);
    delta = delta.max(next_double(0.0));
    let mut frac_digits: Vec<u8> = Vec::new();
    if fraction >= delta {
        loop {
            // Shift up by one digit.
            fraction *= radix_f;
            delta *= radix_f;
            // Write digit.
            let digit = fraction as u32;
            frac_digits.push(digit as u8);
            // Calculate remainder.
            fraction -= f64::from(digit);
            // Round to even.
            if (fraction > 0.5 || (fraction == 0.5 && digit & 1 == 1)) && fraction + delta > 1.0 {
                // Back-trace already written digits in case of carry-over.
                loop {
                    match frac_digits.pop() {
                        None => {
                            // Carry over to the integer part.
                            integer += 1.0;
                            break;
                        }
                        Some(d) if u32::from(d) + 1 < radix => {
                            frac_digits.push(d + 1);
                            break;
                        }
                        Some(_) => {}
                    }
                }
                break;
            }
            if fraction < delta {
                break;
            }
        }
    }
    // Compute integer digits. Fill unrepresented digits with zero.
    let mut int_digits: Vec<u8> = Vec::new();
    while binary_exponent(integer / radix_f) > 0 {
        integer /= radix_f;
        int_digits.push(b'0');
    }
    loop {
        let remainder = integer % radix_f;
        int_digits.push(CHARS[remainder as usize % 36]);
        integer = (integer - remainder) / radix_f;
        if integer <= 0.0 {
            break;
        }
    }
    let mut out = String::with_capacity(int_digits.len() + frac_digits.len() + 2);
    if negative {
        out.push('-');
    }
    out.extend(int_digits.iter().rev().map(|&c| char::from(c)));
    if !frac_digits.is_empty() {
        out.push('.');
        out.extend(frac_digits.iter().map(|&d| char::from(CHARS[d as usize % 36])));
    }
    out
}

/// The next double above a finite non-negative x.
fn next_double(x: f64) -> f64 {
    if x == 0.0 {
        return f64::from_bits(1);
    }
    f64::from_bits(x.to_bits() + 1)
}

/// V8's `Double::Exponent`: e such that x = significand × 2^e with a 53-bit significand.
fn binary_exponent(x: f64) -> i32 {
    decompose(x.abs()).1
}

#[cfg(test)]
// The tests format values like 3.14159 that clippy takes for π.
#[allow(clippy::approx_constant)]
mod tests {
    use super::*;

    #[test]
    fn to_fixed_rounds_the_exact_value() {
        assert_eq!(format_fixed(1.005, 2), "1.00"); // 1.005 is 1.00499999999999989…
        assert_eq!(format_fixed(1.5, 0), "2");
        assert_eq!(format_fixed(2.5, 0), "3");
        assert_eq!(format_fixed(0.5, 0), "1");
        assert_eq!(format_fixed(-1.5, 0), "-2");
        assert_eq!(format_fixed(0.000001, 2), "0.00");
        assert_eq!(format_fixed(-0.0000001, 2), "-0.00");
        assert_eq!(format_fixed(123.456, 10), "123.4560000000");
        assert_eq!(format_fixed(0.1, 20), "0.10000000000000000555");
        assert_eq!(format_fixed(1e21, 2), "1e+21");
        assert_eq!(format_fixed(1.23e20, 2), "123000000000000000000.00");
        assert_eq!(
            format_fixed(5e-324, 100),
            "0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        );
    }

    #[test]
    fn to_exponential_matches_v8() {
        assert_eq!(format_exponential(123456.0, Some(2)), "1.23e+5");
        assert_eq!(format_exponential(123456.0, None), "1.23456e+5");
        assert_eq!(format_exponential(0.0, Some(2)), "0.00e+0");
        assert_eq!(format_exponential(0.00015, None), "1.5e-4");
        assert_eq!(format_exponential(1.0, None), "1e+0");
        assert_eq!(format_exponential(-9.99, Some(1)), "-1.0e+1");
        assert_eq!(format_exponential(1.25, Some(1)), "1.3e+0");
        assert_eq!(format_exponential(1.35, Some(1)), "1.4e+0"); // 1.350000000000000088…
        assert_eq!(format_exponential(5e-324, None), "5e-324");
        assert_eq!(format_exponential(f64::MAX, Some(20)), "1.79769313486231570815e+308");
    }

    #[test]
    fn to_precision_matches_v8() {
        assert_eq!(format_precision(5.123456, 5), "5.1235");
        assert_eq!(format_precision(0.000123, 2), "0.00012");
        assert_eq!(format_precision(1234.5, 2), "1.2e+3");
        assert_eq!(format_precision(0.0000001, 1), "1e-7");
        assert_eq!(format_precision(0.000001, 1), "0.000001");
        assert_eq!(format_precision(123.0, 3), "123");
        assert_eq!(format_precision(999.9, 3), "1.00e+3");
        assert_eq!(format_precision(0.0, 3), "0.00");
        assert_eq!(format_precision(-1.5, 1), "-2");
        assert_eq!(format_precision(0.1, 30), "0.100000000000000005551115123126");
        assert_eq!(format_precision(1e21, 1), "1e+21");
        // log10 rounds this one's exponent up to -21.
        assert_eq!(format_precision(1e-21, 16), "9.999999999999999e-22");
        assert_eq!(format_precision(1e-21, 7), "1.000000e-21");
        assert_eq!(format_precision(9.5, 1), "1e+1");
    }

    #[test]
    fn radix_strings_match_v8() {
        assert_eq!(number_to_string_radix(255.0, 16), "ff");
        assert_eq!(number_to_string_radix(-255.0, 2), "-11111111");
        assert_eq!(number_to_string_radix(0.5, 2), "0.1");
        assert_eq!(number_to_string_radix(0.1, 2), "0.0001100110011001100110011001100110011001100110011001101");
        assert_eq!(number_to_string_radix(0.1, 3), "0.0022002200220022002200220022002201");
        assert_eq!(number_to_string_radix(3.14159, 36), "3.53i0tuycp");
        assert_eq!(number_to_string_radix(2f64.powi(60), 2), format!("1{}", "0".repeat(60)));
        assert_eq!(number_to_string_radix(1e21, 36), "5v1j4f4ds7c000");
        assert_eq!(number_to_string_radix(-0.0, 2), "0");
    }

    #[test]
    fn parse_int_and_float() {
        let pi = |s: &str, r: i32| parse_int_str(&JsStr::from_str(s), r);
        assert_eq!(pi("  42px", 0), 42.0);
        assert_eq!(pi("0x1f", 0), 31.0);
        assert_eq!(pi("0x1f", 16), 31.0);
        assert!(pi("0x1f", 10) == 0.0);
        assert!(pi("z", 10).is_nan());
        assert_eq!(pi("z", 36), 35.0);
        assert!(pi("-0", 10).is_sign_negative());
        assert_eq!(pi("123456789012345678901234567890", 10), 1.2345678901234568e29);
        assert!(pi("1", 37).is_nan());
        let pf = |s: &str| parse_float_str(&JsStr::from_str(s));
        assert_eq!(pf("3.14abc"), 3.14);
        assert_eq!(pf("  -.5e3x"), -500.0);
        assert_eq!(pf("1e"), 1.0);
        assert_eq!(pf("1.e5"), 100000.0);
        assert_eq!(pf("-Infinityx"), f64::NEG_INFINITY);
        assert!(pf(".").is_nan());
        assert!(pf("e5").is_nan());
        assert!(pf("-0").is_sign_negative());
    }
}
