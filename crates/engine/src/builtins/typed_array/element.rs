//! Element types of TypedArrays, DataViews and Atomics (ECMA-262 §23.2 Table 71, §25.1.3):
//! sizes, names, and the conversions between JS values, numeric values and raw bytes
//! (NumericToRawBytes §25.1.3.17, RawBytesToNumeric §25.1.3.14).
//!
//! Raw bytes are read and written little-endian for TypedArrays (the spec leaves the
//! platform order open; a fixed order keeps images portable) and in the requested order for
//! DataView.

use num_bigint::{BigInt, Sign};

use crate::error::JsResult;
use crate::heap::object::TypedKind;
use crate::runtime::convert::{f64_to_int32, to_number, to_primitive, Hint};
use crate::runtime::describe::{describe, Shown};
use crate::runtime::operators::string_to_bigint;
use crate::value::{BigIntId, Kind, ObjectId, Value};
use crate::vm::Vm;

/// Every element type, in the order of the capture list of %TypedArray% (see `init`).
pub(crate) const KINDS: [TypedKind; 12] = [
    TypedKind::Int8,
    TypedKind::Uint8,
    TypedKind::Uint8Clamped,
    TypedKind::Int16,
    TypedKind::Uint16,
    TypedKind::Int32,
    TypedKind::Uint32,
    TypedKind::Float16,
    TypedKind::Float32,
    TypedKind::Float64,
    TypedKind::BigInt64,
    TypedKind::BigUint64,
];

/// Position of `kind` in [`KINDS`].
pub(crate) fn kind_index(kind: TypedKind) -> usize {
    KINDS.iter().position(|&k| k == kind).unwrap_or(0)
}

/// The Element Size column of Table 71.
pub fn element_size(kind: TypedKind) -> usize {
    match kind {
        TypedKind::Int8 | TypedKind::Uint8 | TypedKind::Uint8Clamped => 1,
        TypedKind::Int16 | TypedKind::Uint16 | TypedKind::Float16 => 2,
        TypedKind::Int32 | TypedKind::Uint32 | TypedKind::Float32 => 4,
        TypedKind::Float64 | TypedKind::BigInt64 | TypedKind::BigUint64 => 8,
    }
}

/// Is [[ContentType]] bigint?
pub(crate) fn is_bigint_kind(kind: TypedKind) -> bool {
    matches!(kind, TypedKind::BigInt64 | TypedKind::BigUint64)
}

/// The [[TypedArrayName]] of a kind (the Constructor Name column of Table 71).
pub fn kind_name(kind: TypedKind) -> &'static str {
    match kind {
        TypedKind::Int8 => "Int8Array",
        TypedKind::Uint8 => "Uint8Array",
        TypedKind::Uint8Clamped => "Uint8ClampedArray",
        TypedKind::Int16 => "Int16Array",
        TypedKind::Uint16 => "Uint16Array",
        TypedKind::Int32 => "Int32Array",
        TypedKind::Uint32 => "Uint32Array",
        TypedKind::Float16 => "Float16Array",
        TypedKind::Float32 => "Float32Array",
        TypedKind::Float64 => "Float64Array",
        TypedKind::BigInt64 => "BigInt64Array",
        TypedKind::BigUint64 => "BigUint64Array",
    }
}

/// The intrinsic %<Name>.prototype% of a kind.
pub(crate) fn kind_prototype(vm: &Vm, kind: TypedKind) -> ObjectId {
    let r = &vm.realm;
    match kind {
        TypedKind::Int8 => r.int8_array_prototype,
        TypedKind::Uint8 => r.uint8_array_prototype,
        TypedKind::Uint8Clamped => r.uint8_clamped_array_prototype,
        TypedKind::Int16 => r.int16_array_prototype,
        TypedKind::Uint16 => r.uint16_array_prototype,
        TypedKind::Int32 => r.int32_array_prototype,
        TypedKind::Uint32 => r.uint32_array_prototype,
        TypedKind::Float16 => r.float16_array_prototype,
        TypedKind::Float32 => r.float32_array_prototype,
        TypedKind::Float64 => r.float64_array_prototype,
        TypedKind::BigInt64 => r.bigint64_array_prototype,
        TypedKind::BigUint64 => r.biguint64_array_prototype,
    }
}

/// A numeric value ready to store, or just loaded: a Number, or a BigInt reduced to its low
/// 64 bits in two's complement (ToBigInt64 and ToBigUint64 agree on the bits; the element
/// kind says how to read them back).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Numeric {
    Number(f64),
    BigInt(u64),
}

/// ToBigInt (§7.1.13), as a heap BigInt (the input itself when it already is one).
pub(crate) fn to_bigint(vm: &mut Vm, value: Value) -> JsResult<BigIntId> {
    // 1. Let prim be ? ToPrimitive(argument, number).
    let prim = to_primitive(vm, value, Hint::Number)?;
    // 2. Return the value that prim corresponds to in Table 12.
    match prim.kind() {
        Kind::BigInt(b) => Ok(b),
        Kind::Bool(b) => Ok(vm.heap.alloc_bigint(BigInt::from(u8::from(b)))),
        Kind::String(s) => {
            let parsed = string_to_bigint(vm.heap.flat(s));
            match parsed {
                Some(n) => Ok(vm.heap.alloc_bigint(n)),
                None => {
                    let text = vm.heap.flat(s).to_rust_string();
                    Err(vm.syntax_error(format!("Cannot convert {text} to a BigInt")))
                }
            }
        }
        Kind::Undefined | Kind::Empty => Err(vm.type_error("Cannot convert undefined to a BigInt")),
        Kind::Null => Err(vm.type_error("Cannot convert null to a BigInt")),
        Kind::Int(_) | Kind::Float(_) => {
            let shown = describe(vm, prim, Shown::Plain);
            Err(vm.type_error(format!("Cannot convert {shown} to a BigInt")))
        }
        Kind::Symbol(_) => {
            let shown = describe(vm, prim, Shown::Plain);
            Err(vm.type_error(format!("Cannot convert {shown} to a BigInt")))
        }
        Kind::Object(_) => Err(vm.type_error("Cannot convert object to a BigInt")),
    }
}

/// The low 64 bits of a BigInt in two's complement (ToBigUint64's bits, §7.1.16).
pub(crate) fn bigint_low_bits(b: &BigInt) -> u64 {
    let (sign, digits) = b.to_u64_digits();
    let low = digits.first().copied().unwrap_or(0);
    if sign == Sign::Minus {
        low.wrapping_neg()
    } else {
        low
    }
}

/// The conversion TypedArraySetElement and SetViewValue make first: ToBigInt for bigint
/// content, ToNumber otherwise. May run JS.
pub(crate) fn to_numeric_for(vm: &mut Vm, kind: TypedKind, value: Value) -> JsResult<Numeric> {
    if is_bigint_kind(kind) {
        let b = to_bigint(vm, value)?;
        Ok(Numeric::BigInt(bigint_low_bits(vm.heap.bigint(b))))
    } else {
        if let Some(n) = value.as_number() {
            return Ok(Numeric::Number(n));
        }
        Ok(Numeric::Number(to_number(vm, value)?))
    }
}

/// The JS value of a loaded element (allocates for BigInt kinds).
pub(crate) fn numeric_to_value(vm: &mut Vm, kind: TypedKind, n: Numeric) -> Value {
    match n {
        Numeric::Number(f) => Value::number(f),
        Numeric::BigInt(bits) => {
            let b = if kind == TypedKind::BigUint64 { BigInt::from(bits) } else { BigInt::from(bits as i64) };
            Value::bigint(vm.heap.alloc_bigint(b))
        }
    }
}

/// The JS value of a loaded element when it needs no allocation (every Number kind).
pub(crate) fn numeric_to_value_no_alloc(n: Numeric) -> Option<Value> {
    match n {
        Numeric::Number(f) => Some(Value::number(f)),
        Numeric::BigInt(_) => None,
    }
}

/// A loaded element as an exact integer or number, for ordering (BigInt kinds as i128).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Ordered {
    Number(f64),
    Int(i128),
}

pub(crate) fn ordered(kind: TypedKind, n: Numeric) -> Ordered {
    match n {
        Numeric::Number(f) => Ordered::Number(f),
        Numeric::BigInt(bits) if kind == TypedKind::BigUint64 => Ordered::Int(bits as i128),
        Numeric::BigInt(bits) => Ordered::Int(bits as i64 as i128),
    }
}

/// NumericToRawBytes (§25.1.3.17): the element's bits in the low `element_size` bytes.
pub(crate) fn encode(kind: TypedKind, n: Numeric) -> u64 {
    let f = match n {
        Numeric::Number(f) => f,
        // Only bigint kinds receive BigInt values (the callers convert by content type).
        Numeric::BigInt(bits) => return if is_bigint_kind(kind) { bits } else { 0 },
    };
    match kind {
        TypedKind::Int8 | TypedKind::Uint8 => f64_to_int32(f) as u32 as u64 & 0xFF,
        TypedKind::Uint8Clamped => to_uint8_clamp(f) as u64,
        TypedKind::Int16 | TypedKind::Uint16 => f64_to_int32(f) as u32 as u64 & 0xFFFF,
        TypedKind::Int32 | TypedKind::Uint32 => f64_to_int32(f) as u32 as u64,
        TypedKind::Float16 => f64_to_f16_bits(f) as u64,
        TypedKind::Float32 => (f as f32).to_bits() as u64,
        TypedKind::Float64 => f.to_bits(),
        // A Number never reaches a bigint element (content types are checked first).
        TypedKind::BigInt64 | TypedKind::BigUint64 => 0,
    }
}

/// RawBytesToNumeric (§25.1.3.14).
pub(crate) fn decode(kind: TypedKind, raw: u64) -> Numeric {
    let f = match kind {
        TypedKind::Int8 => raw as u8 as i8 as f64,
        TypedKind::Uint8 | TypedKind::Uint8Clamped => raw as u8 as f64,
        TypedKind::Int16 => raw as u16 as i16 as f64,
        TypedKind::Uint16 => raw as u16 as f64,
        TypedKind::Int32 => raw as u32 as i32 as f64,
        TypedKind::Uint32 => raw as u32 as f64,
        TypedKind::Float16 => f16_bits_to_f64(raw as u16),
        TypedKind::Float32 => f32::from_bits(raw as u32) as f64,
        TypedKind::Float64 => f64::from_bits(raw),
        TypedKind::BigInt64 | TypedKind::BigUint64 => return Numeric::BigInt(raw),
    };
    Numeric::Number(f)
}

/// Load `size` bytes at `index` as an unsigned integer. Out-of-range reads (which callers
/// rule out by their bounds checks) read as 0 rather than panic.
pub(crate) fn read_raw(bytes: &[u8], index: usize, size: usize, little_endian: bool) -> u64 {
    let mut buf = [0u8; 8];
    let Some(src) = index.checked_add(size).and_then(|end| bytes.get(index..end)) else {
        return 0;
    };
    let Some(dst) = buf.get_mut(..size) else {
        return 0;
    };
    dst.copy_from_slice(src);
    if !little_endian {
        dst.reverse();
    }
    u64::from_le_bytes(buf)
}

/// Store the low `size` bytes of `raw` at `index` (ignored when out of range).
pub(crate) fn write_raw(bytes: &mut [u8], index: usize, size: usize, raw: u64, little_endian: bool) {
    let mut buf = raw.to_le_bytes();
    let Some(src) = buf.get_mut(..size) else {
        return;
    };
    if !little_endian {
        src.reverse();
    }
    if let Some(dst) = index.checked_add(size).and_then(|end| bytes.get_mut(index..end)) {
        dst.copy_from_slice(src);
    }
}

/// ToUint8Clamp (§7.1.12).
pub(crate) fn to_uint8_clamp(f: f64) -> u8 {
    // 2. If number is NaN, return +0.
    if f.is_nan() {
        return 0;
    }
    // 3-4. Clamp to [0, 255].
    if f <= 0.0 {
        return 0;
    }
    if f >= 255.0 {
        return 255;
    }
    // 5-10. Round half to even.
    f.round_ties_even() as u8
}

/// The binary16 value nearest to `x`, ties to even (IEEE 754 roundTiesToEven), as bits.
/// Rounds once from the double: going through f32 would round twice.
pub fn f64_to_f16_bits(x: f64) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return 0x7E00;
    }
    let a = x.abs();
    // The largest finite half is 65504; halfway to the next binade (65520) rounds to even,
    // which is infinity.
    if a >= 65520.0 {
        return sign | 0x7C00;
    }
    // Subnormal halves are multiples of 2^-24: scaling by 2^24 is exact, then round.
    if a < f64::from_bits(0x3F10_0000_0000_0000) {
        // 2^-14
        let m = (a * 16_777_216.0).round_ties_even() as u16;
        return sign | m;
    }
    let bits = a.to_bits();
    let exp = ((bits >> 52) & 0x7FF) as i32 - 1023;
    let mantissa = bits & ((1u64 << 52) - 1);
    // Keep 10 of the 52 fraction bits, rounding the other 42 half to even.
    let mut m = mantissa >> 42;
    let rest = mantissa & ((1u64 << 42) - 1);
    let half = 1u64 << 41;
    if rest > half || (rest == half && m & 1 == 1) {
        m += 1;
    }
    // A carry out of the fraction bumps the exponent, which the addition does by itself.
    let h = (((exp + 15) as u64) << 10) + m;
    sign | h as u16
}

/// The value of a binary16 bit pattern (exact in f64).
pub fn f16_bits_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1F) as i32;
    let m = (h & 0x3FF) as f64;
    match exp {
        0 => sign * m * f64::from_bits(0x3E70_0000_0000_0000), // m × 2^-24
        31 => {
            if m == 0.0 {
                sign * f64::INFINITY
            } else {
                f64::NAN
            }
        }
        _ => sign * (1024.0 + m) * libm::ldexp(1.0, exp - 25),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_rounds_to_nearest_even() {
        assert_eq!(f16_bits_to_f64(f64_to_f16_bits(1.337)), 1.3369140625);
        assert_eq!(f16_bits_to_f64(f64_to_f16_bits(65519.99)), 65504.0);
        assert_eq!(f16_bits_to_f64(f64_to_f16_bits(65520.0)), f64::INFINITY);
        assert_eq!(f16_bits_to_f64(f64_to_f16_bits(1e-8)), 0.0);
        assert_eq!(f16_bits_to_f64(f64_to_f16_bits(3e-8)), 5.960464477539063e-8);
        // 2^-25 is exactly halfway between 0 and the least subnormal: ties to even (0).
        assert_eq!(f64_to_f16_bits(libm::ldexp(1.0, -25)), 0);
        assert_eq!(f64_to_f16_bits(libm::ldexp(3.0, -25)), 2);
        assert_eq!(f64_to_f16_bits(-0.0), 0x8000);
        assert_eq!(f64_to_f16_bits(f64::NEG_INFINITY), 0xFC00);
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1).
        assert_eq!(f64_to_f16_bits(1.0 + libm::ldexp(1.0, -11)), 0x3C00);
        assert_eq!(f64_to_f16_bits(1.0 + 3.0 * libm::ldexp(1.0, -11)), 0x3C02);
        // Largest subnormal rounding up into the least normal.
        assert_eq!(f64_to_f16_bits(libm::ldexp(1.0, -14) - libm::ldexp(1.0, -26)), 0x0400);
        assert!(f16_bits_to_f64(0x7E00).is_nan());
    }

    #[test]
    fn f16_round_trips_every_finite_pattern() {
        for h in 0..=0xFFFFu16 {
            let f = f16_bits_to_f64(h);
            if f.is_nan() {
                continue;
            }
            assert_eq!(f64_to_f16_bits(f), h, "pattern {h:#06x}");
        }
    }

    #[test]
    fn integer_conversions_wrap_and_clamp() {
        assert_eq!(decode(TypedKind::Int8, encode(TypedKind::Int8, Numeric::Number(200.0))), Numeric::Number(-56.0));
        assert_eq!(encode(TypedKind::Uint8Clamped, Numeric::Number(2.5)), 2);
        assert_eq!(encode(TypedKind::Uint8Clamped, Numeric::Number(3.5)), 4);
        assert_eq!(encode(TypedKind::Uint8Clamped, Numeric::Number(-3.0)), 0);
        assert_eq!(encode(TypedKind::Uint32, Numeric::Number(-1.0)), 0xFFFF_FFFF);
        assert_eq!(bigint_low_bits(&BigInt::from(-1)), u64::MAX);
        assert_eq!(bigint_low_bits(&(BigInt::from(1) << 64u32)), 0);
    }

    #[test]
    fn raw_bytes_respect_endianness() {
        let mut b = [0u8; 4];
        write_raw(&mut b, 0, 4, 0x0102_0304, false);
        assert_eq!(b, [1, 2, 3, 4]);
        assert_eq!(read_raw(&b, 0, 4, true), 0x0403_0201);
        assert_eq!(read_raw(&b, 2, 4, true), 0);
    }
}
