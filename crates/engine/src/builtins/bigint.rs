//! The BigInt object (ECMA-262 §21.2): https://tc39.es/ecma262/#sec-bigint-objects
//!
//! BigInt values are `num-bigint` integers in the heap's bigint arena. Results are limited to
//! [`MAX_BIGINT_BITS`] bits (V8's limit): larger ones throw a RangeError instead of exhausting
//! memory.

use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

use crate::atoms::PropertyKey;
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::Class;
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::convert::{number_to_string, to_index, to_integer_or_infinity, to_primitive, Hint};
use crate::runtime::operators::{float_to_bigint, string_to_bigint};
use crate::value::{Kind, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("BigInt", 1, constructor),
    native!("BigInt.asIntN", 2, as_int_n),
    native!("BigInt.asUintN", 2, as_uint_n),
    native!("BigInt.prototype.toLocaleString", 0, to_locale_string),
    native!("BigInt.prototype.toString", 0, to_string),
    native!("BigInt.prototype.valueOf", 0, value_of),
];

/// The largest BigInt the engine creates, in bits (V8's `BigInt::kMaxLengthBits`).
pub(crate) const MAX_BIGINT_BITS: u64 = 1 << 30;

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.bigint_prototype;
    let ctor = make_constructor(vm, "BigInt", "BigInt", proto);
    install(vm, proto, "BigInt.prototype", NATIVES);
    install(vm, ctor, "BigInt", NATIVES);
    // 21.2.3.5 BigInt.prototype [ %Symbol.toStringTag% ]: "BigInt", configurable only.
    let tag = vm.str("BigInt");
    let tag_key = PropertyKey::Symbol(vm.symbols.toStringTag);
    vm.define_builtin(proto, tag_key, tag, PropFlags(PropFlags::CONFIGURABLE));
}

/// ### 21.2.1.1 BigInt ( value )
/// https://tc39.es/ecma262/#sec-bigint-constructor-number-value
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is not undefined, throw a TypeError exception.
    if !vm.native_new_target().is_undefined() {
        return Err(vm.type_error("BigInt is not a constructor"));
    }
    // 2. Let prim be ? ToPrimitive(value, number).
    let prim = to_primitive(vm, arg(args, 0), Hint::Number)?;
    // 3. If prim is a Number, return ? NumberToBigInt(prim).
    if let Some(n) = prim.as_number() {
        let b = number_to_bigint(vm, n)?;
        return Ok(Value::bigint(vm.heap.alloc_bigint(b)));
    }
    // 4. Otherwise, return ? ToBigInt(prim).
    let b = to_bigint(vm, prim)?;
    Ok(Value::bigint(vm.heap.alloc_bigint(b)))
}

/// NumberToBigInt (§21.2.1.1.1).
pub(crate) fn number_to_bigint(vm: &mut Vm, number: f64) -> JsResult<BigInt> {
    // 1. If IsIntegralNumber(number) is false, throw a RangeError exception.
    if !number.is_finite() || number.trunc() != number {
        let shown = number_to_string(number);
        return Err(
            vm.range_error(format!("The number {shown} cannot be converted to a BigInt because it is not an integer"))
        );
    }
    // 2. Return ℤ(ℝ(number)).
    Ok(float_to_bigint(number))
}

/// ToBigInt (§7.1.13).
pub(crate) fn to_bigint(vm: &mut Vm, argument: Value) -> JsResult<BigInt> {
    // 1. Let prim be ? ToPrimitive(argument, number).
    let prim = to_primitive(vm, argument, Hint::Number)?;
    // 2. Return the value that prim corresponds to in Table 12.
    match prim.kind() {
        Kind::Undefined | Kind::Null | Kind::Empty => {
            let shown = if prim.is_null() { "null" } else { "undefined" };
            Err(vm.type_error(format!("Cannot convert {shown} to a BigInt")))
        }
        Kind::Bool(b) => Ok(if b { BigInt::one() } else { BigInt::zero() }),
        Kind::BigInt(b) => Ok(vm.heap.bigint(b).clone()),
        Kind::Int(_) | Kind::Float(_) => {
            let shown = number_to_string(prim.as_number().unwrap_or(f64::NAN));
            Err(vm.type_error(format!("Cannot convert {shown} to a BigInt")))
        }
        Kind::String(s) => {
            // 1. Let n be StringToBigInt(prim). 2. If n is undefined, throw a SyntaxError.
            let text = vm.heap.flat(s).clone();
            match string_to_bigint(&text) {
                Some(n) => Ok(n),
                None => Err(vm.syntax_error(format!("Cannot convert {} to a BigInt", text.to_rust_string()))),
            }
        }
        Kind::Symbol(sym) => {
            let shown = crate::builtins::symbol::symbol_descriptive_string(vm, sym).to_rust_string();
            Err(vm.type_error(format!("Cannot convert {shown} to a BigInt")))
        }
        Kind::Object(_) => Err(vm.type_error("Cannot convert object to a BigInt")),
    }
}

/// ### 21.2.2.1 BigInt.asIntN ( bits, bigint )
/// https://tc39.es/ecma262/#sec-bigint.asintn
fn as_int_n(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Set bits to ? ToIndex(bits).
    let bits = to_index(vm, arg(args, 0))?;
    // 2. Set bigint to ? ToBigInt(bigint).
    let bigint = to_bigint(vm, arg(args, 1))?;
    vm.charge(bigint.bits() / 64)?;
    // 3. Let mod be ℝ(bigint) modulo 2^bits.
    // 4. If mod ≥ 2^(bits - 1), return ℤ(mod - 2^bits); otherwise, return ℤ(mod).
    let r = as_int_n_value(&bigint, bits);
    Ok(Value::bigint(vm.heap.alloc_bigint(r)))
}

/// ### 21.2.2.2 BigInt.asUintN ( bits, bigint )
/// https://tc39.es/ecma262/#sec-bigint.asuintn
fn as_uint_n(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Set bits to ? ToIndex(bits).
    let bits = to_index(vm, arg(args, 0))?;
    // 2. Set bigint to ? ToBigInt(bigint).
    let bigint = to_bigint(vm, arg(args, 1))?;
    // A negative value wraps to 2^bits - |x|: that many bits must fit the size limit.
    if bigint.is_negative() && bits > MAX_BIGINT_BITS {
        return Err(vm.range_error("Maximum BigInt size exceeded"));
    }
    vm.charge(bigint.bits().max(if bigint.is_negative() { bits } else { 0 }) / 64)?;
    // 3. Return ℤ(ℝ(bigint) modulo 2^bits).
    let r = as_uint_n_value(&bigint, bits);
    Ok(Value::bigint(vm.heap.alloc_bigint(r)))
}

/// x modulo 2^bits, in [0, 2^bits).
pub(crate) fn as_uint_n_value(x: &BigInt, bits: u64) -> BigInt {
    if bits == 0 {
        return BigInt::zero();
    }
    // Fast path: a non-negative value that already fits is unchanged.
    if !x.is_negative() && x.bits() <= bits {
        return x.clone();
    }
    let modulus = BigInt::one() << bits as usize;
    let r = x % &modulus;
    if r.is_negative() {
        r + modulus
    } else {
        r
    }
}

/// x wrapped to a signed `bits`-bit integer, in [-2^(bits-1), 2^(bits-1)).
pub(crate) fn as_int_n_value(x: &BigInt, bits: u64) -> BigInt {
    if bits == 0 {
        return BigInt::zero();
    }
    // Fast path: |x| < 2^(bits-1) is unchanged (this also bounds the work below by x's size).
    if x.bits() < bits {
        return x.clone();
    }
    let r = as_uint_n_value(x, bits);
    if r.bits() == bits {
        r - (BigInt::one() << bits as usize)
    } else {
        r
    }
}

/// ThisBigIntValue (§21.2.3.4.1).
fn this_bigint_value(vm: &mut Vm, value: Value, method: &str) -> JsResult<Value> {
    // 1. If value is a BigInt, return value.
    if value.is_bigint() {
        return Ok(value);
    }
    // 2. If value is an Object and value has a [[BigIntData]] internal slot, then
    //    a. Assert: value.[[BigIntData]] is a BigInt. b. Return value.[[BigIntData]].
    if let Some(o) = value.as_object() {
        if let Class::BigInt(b) = vm.heap.obj(o).class {
            return Ok(Value::bigint(b));
        }
    }
    // 3. Throw a TypeError exception.
    Err(vm.type_error(format!("{method} requires that 'this' be a BigInt")))
}

/// ### 20.2.3.2 BigInt.prototype.toLocaleString ( [ locales [ , options ] ] ) (ECMA-402)
/// https://tc39.es/ecma402/#sup-bigint.prototype.tolocalestring
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let x be ? ThisBigIntValue(this value).
    let x = this_bigint_value(vm, this, "BigInt.prototype.toLocaleString")?;
    // 2-3. Return FormatNumeric(! Construct(%Intl.NumberFormat%, « locales, options »), ℝ(x)).
    let x = crate::builtins::intl::to_intl_mathematical_value(vm, x)?;
    crate::builtins::intl::number_to_locale_string(vm, x, arg(args, 0), arg(args, 1))
}

/// ### 21.2.3.3 BigInt.prototype.toString ( [ radix ] )
/// https://tc39.es/ecma262/#sec-bigint.prototype.tostring
fn to_string(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let x be ? ThisBigIntValue(this value).
    let x = this_bigint_value(vm, this, "BigInt.prototype.toString")?;
    // 2. If radix is undefined, let radixMV be 10.
    // 3. Else, let radixMV be ? ToIntegerOrInfinity(radix).
    let radix = arg(args, 0);
    let radix_mv = if radix.is_undefined() { 10.0 } else { to_integer_or_infinity(vm, radix)? };
    // 4. If radixMV is not in the inclusive interval from 2 to 36, throw a RangeError exception.
    if !(2.0..=36.0).contains(&radix_mv) {
        return Err(vm.range_error("toString() radix argument must be between 2 and 36"));
    }
    // 5. Return BigInt::toString(x, radixMV).
    let Some(b) = x.as_bigint() else { return Ok(Value::UNDEFINED) };
    vm.charge(vm.heap.bigint(b).bits() / 16)?;
    let s = vm.heap.bigint(b).to_str_radix(radix_mv as u32);
    Ok(vm.str(&s))
}

/// ### 21.2.3.4 BigInt.prototype.valueOf ( )
/// https://tc39.es/ecma262/#sec-bigint.prototype.valueof
fn value_of(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return ? ThisBigIntValue(this value).
    this_bigint_value(vm, this, "BigInt.prototype.valueOf")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(s: &str) -> BigInt {
        BigInt::parse_bytes(s.as_bytes(), 10).expect("test literal")
    }

    #[test]
    fn wraps_like_the_spec() {
        assert_eq!(as_int_n_value(&big("255"), 8), big("-1"));
        assert_eq!(as_int_n_value(&big("127"), 8), big("127"));
        assert_eq!(as_int_n_value(&big("128"), 8), big("-128"));
        assert_eq!(as_int_n_value(&big("-129"), 8), big("127"));
        assert_eq!(as_int_n_value(&big("-128"), 8), big("-128"));
        assert_eq!(as_int_n_value(&big("5"), 0), big("0"));
        assert_eq!(as_int_n_value(&big("-1"), 1_000_000_000), big("-1"));
        assert_eq!(as_uint_n_value(&big("-1"), 8), big("255"));
        assert_eq!(as_uint_n_value(&big("256"), 8), big("0"));
        assert_eq!(as_uint_n_value(&big("257"), 8), big("1"));
        assert_eq!(as_uint_n_value(&big("12345"), 1_000_000_000), big("12345"));
        assert_eq!(as_uint_n_value(&big("-1"), 64), big("18446744073709551615"));
        assert_eq!(as_int_n_value(&big("18446744073709551615"), 64), big("-1"));
    }
}
