//! The Math object (ECMA-262 §21.3): https://tc39.es/ecma262/#sec-math-object
//!
//! The transcendental functions (`sin`, `exp`, `log`, `pow`, …) are V8's: `ieee754` is a Rust
//! port of the fdlibm routines V8 computes them with, so results equal Node's to the last bit.
//! The exact operations (`sqrt`, `floor`, `trunc`, …) use the `libm` crate, whose answers IEEE
//! 754 fixes. Neither touches the platform's C library or CPU-specific instructions, so a
//! journal recorded on one machine replays with bit-identical results on another (DESIGN §4).
//!
//! `Math.random` is Seeded (DESIGN §7): the engine has no entropy of its own. Its xorshift128+
//! generator state lives in the heap, in the internal object `vm.realm.math_random_state`, so
//! it rides the image; on first use it is seeded from the embedder's `vm.host_state` entry
//! `"random.seed"` (8 bytes, little-endian; the durable layer captures it when a run starts),
//! or from a fixed seed when the embedder gave none.

use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{Class, Object};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::call;
use crate::runtime::convert::{to_boolean, to_number, to_uint32};
use crate::runtime::iterator::{close_on_throw, get_iterator_from_method};
use crate::runtime::operators::js_pow;
use crate::runtime::property::{get, get_method};
use crate::value::Value;
use crate::vm::Vm;

pub(crate) mod ieee754;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Math.abs", 1, abs),
    native!("Math.acos", 1, acos),
    native!("Math.acosh", 1, acosh),
    native!("Math.asin", 1, asin),
    native!("Math.asinh", 1, asinh),
    native!("Math.atan", 1, atan),
    native!("Math.atanh", 1, atanh),
    native!("Math.atan2", 2, atan2),
    native!("Math.cbrt", 1, cbrt),
    native!("Math.ceil", 1, ceil),
    native!("Math.clz32", 1, clz32),
    native!("Math.cos", 1, cos),
    native!("Math.cosh", 1, cosh),
    native!("Math.exp", 1, exp),
    native!("Math.expm1", 1, expm1),
    native!("Math.floor", 1, floor),
    native!("Math.fround", 1, fround),
    native!("Math.f16round", 1, f16round),
    native!("Math.hypot", 2, hypot),
    native!("Math.imul", 2, imul),
    native!("Math.log", 1, log),
    native!("Math.log1p", 1, log1p),
    native!("Math.log10", 1, log10),
    native!("Math.log2", 1, log2),
    native!("Math.max", 2, max),
    native!("Math.min", 2, min),
    native!("Math.pow", 2, pow),
    native!("Math.random", 0, random),
    native!("Math.round", 1, round),
    native!("Math.sign", 1, sign),
    native!("Math.sin", 1, sin),
    native!("Math.sinh", 1, sinh),
    native!("Math.sqrt", 1, sqrt),
    native!("Math.sumPrecise", 1, sum_precise),
    native!("Math.tan", 1, tan),
    native!("Math.tanh", 1, tanh),
    native!("Math.trunc", 1, trunc),
];

/// The seed used when the embedder provides no `"random.seed"` host-state entry.
const DEFAULT_SEED: u64 = 0x2545_F491_4F6C_DD1D;

/// Name of the host-state entry holding the Math.random seed.
pub const RANDOM_SEED_KEY: &str = "random.seed";

pub(crate) fn init(vm: &mut Vm) {
    // 21.3: the Math object is an ordinary object whose [[Prototype]] is %Object.prototype%.
    let proto = vm.realm.object_prototype;
    let math = vm.heap.new_plain(Some(proto));
    install(vm, math, "Math", NATIVES);

    // 21.3.1: the value properties are { [[Writable]]: false, [[Enumerable]]: false,
    // [[Configurable]]: false }.
    let constants: [(&str, f64); 8] = [
        ("E", std::f64::consts::E),
        ("LN10", std::f64::consts::LN_10),
        ("LN2", std::f64::consts::LN_2),
        ("LOG10E", std::f64::consts::LOG10_E),
        ("LOG2E", std::f64::consts::LOG2_E),
        ("PI", std::f64::consts::PI),
        ("SQRT1_2", std::f64::consts::FRAC_1_SQRT_2),
        ("SQRT2", std::f64::consts::SQRT_2),
    ];
    for (name, v) in constants {
        let key = vm.key(name);
        vm.define_builtin(math, key, Value::number(v), PropFlags::NONE);
    }
    // 21.3.1.9 Math [ %Symbol.toStringTag% ]: "Math", configurable only.
    let tag = vm.str("Math");
    let tag_key = PropertyKey::Symbol(vm.symbols.toStringTag);
    vm.define_builtin(math, tag_key, tag, PropFlags(PropFlags::CONFIGURABLE));

    let global = vm.global;
    let key = vm.key("Math");
    vm.define_builtin(global, key, Value::object(math), PropFlags::HIDDEN);

    // The generator state: unseeded until the first Math.random call (see the module doc).
    // Realm creation pre-allocates the slot; a slot still aliasing %Object.prototype% (the
    // default handle) gets an object of its own.
    let unseeded = Class::Internal(vec![Value::FALSE]);
    let state = vm.realm.math_random_state;
    if state == vm.realm.object_prototype || !vm.heap.objects.is_live(state.0) {
        vm.realm.math_random_state = vm.heap.alloc_object(Object::new(None, unseeded));
    } else {
        let o = vm.heap.obj_mut(state);
        o.proto = None;
        o.class = unseeded;
    }
}

/// A Math function of one Number: ToNumber, then `f`.
fn unary(vm: &mut Vm, args: &[Value], f: fn(f64) -> f64) -> JsResult<Value> {
    let x = to_number(vm, arg(args, 0))?;
    Ok(Value::number(f(x)))
}

/// ### 21.3.2.1 Math.abs ( x )
fn abs(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is NaN, return NaN. 3. If n is -0𝔽, return +0𝔽.
    // 4. If n is -∞𝔽, return +∞𝔽. 5. If n < -0𝔽, return -n. 6. Return n.
    unary(vm, args, libm::fabs)
}

/// ### 21.3.2.2 Math.acos ( x )
fn acos(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is NaN, n > 1𝔽, or n < -1𝔽, return NaN.
    // 3. If n is 1𝔽, return +0𝔽. 4. Return an implementation-approximated arc cosine of ℝ(n).
    unary(vm, args, ieee754::acos)
}

/// ### 21.3.2.3 Math.acosh ( x )
fn acosh(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is either NaN or +∞𝔽, return n. 3. If n is 1𝔽, return
    //    +0𝔽. 4. If n < 1𝔽, return NaN. 5. Return the inverse hyperbolic cosine of ℝ(n).
    unary(vm, args, ieee754::acosh)
}

/// ### 21.3.2.4 Math.asin ( x )
fn asin(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is one of NaN, +0𝔽, or -0𝔽, return n.
    // 3. If n > 1𝔽 or n < -1𝔽, return NaN. 4. Return the arc sine of ℝ(n).
    unary(vm, args, ieee754::asin)
}

/// ### 21.3.2.5 Math.asinh ( x )
fn asinh(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is not finite or n is either +0𝔽 or -0𝔽, return n.
    // 3. Return the inverse hyperbolic sine of ℝ(n).
    unary(vm, args, ieee754::asinh)
}

/// ### 21.3.2.6 Math.atan ( x )
fn atan(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is one of NaN, +0𝔽, or -0𝔽, return n.
    // 3. If n is +∞𝔽, return π/2. 4. If n is -∞𝔽, return -π/2. 5. Return the arc tangent.
    unary(vm, args, ieee754::atan)
}

/// ### 21.3.2.7 Math.atanh ( x )
fn atanh(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is one of NaN, +0𝔽, or -0𝔽, return n.
    // 3. If n > 1𝔽 or n < -1𝔽, return NaN. 4. If n is 1𝔽, return +∞𝔽. 5. If n is -1𝔽, return
    //    -∞𝔽. 6. Return the inverse hyperbolic tangent of ℝ(n).
    unary(vm, args, ieee754::atanh)
}

/// ### 21.3.2.8 Math.atan2 ( y, x )
fn atan2(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let ny be ? ToNumber(y).
    let ny = to_number(vm, arg(args, 0))?;
    // 2. Let nx be ? ToNumber(x).
    let nx = to_number(vm, arg(args, 1))?;
    // 3–16. The signed-zero, infinity and quadrant cases, then the arc tangent of ny / nx.
    Ok(Value::number(ieee754::atan2(ny, nx)))
}

/// ### 21.3.2.9 Math.cbrt ( x )
fn cbrt(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is not finite or n is either +0𝔽 or -0𝔽, return n.
    // 3. Return the cube root of ℝ(n).
    unary(vm, args, ieee754::cbrt)
}

/// ### 21.3.2.10 Math.ceil ( x )
fn ceil(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is not finite or n is either +0𝔽 or -0𝔽, return n.
    // 3. If n < -0𝔽 and n > -1𝔽, return -0𝔽. 4. If n is an integral Number, return n.
    // 5. Return the smallest integral Number value that is not less than n.
    unary(vm, args, libm::ceil)
}

/// ### 21.3.2.11 Math.clz32 ( x )
fn clz32(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToUint32(x).
    let n = to_uint32(vm, arg(args, 0))?;
    // 2. Let p be the number of leading zero bits in the unsigned 32-bit binary
    //    representation of n. 3. Return 𝔽(p).
    Ok(Value::int(n.leading_zeros() as i32))
}

/// ### 21.3.2.12 Math.cos ( x )
fn cos(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is not finite, return NaN. 3. If n is either +0𝔽 or
    //    -0𝔽, return 1𝔽. 4. Return the cosine of ℝ(n).
    unary(vm, args, ieee754::cos)
}

/// ### 21.3.2.13 Math.cosh ( x )
fn cosh(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is NaN, return NaN. 3. If n is either +∞𝔽 or -∞𝔽,
    //    return +∞𝔽. 4. If n is either +0𝔽 or -0𝔽, return 1𝔽. 5. Return the hyperbolic cosine.
    unary(vm, args, ieee754::cosh)
}

/// ### 21.3.2.14 Math.exp ( x )
fn exp(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is either NaN or +∞𝔽, return n. 3. If n is either +0𝔽
    //    or -0𝔽, return 1𝔽. 4. If n is -∞𝔽, return +0𝔽. 5. Return the exponential function.
    unary(vm, args, ieee754::exp)
}

/// ### 21.3.2.15 Math.expm1 ( x )
fn expm1(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is one of NaN, +0𝔽, -0𝔽, or +∞𝔽, return n.
    // 3. If n is -∞𝔽, return -1𝔽. 4. Return exp(ℝ(n)) - 1.
    unary(vm, args, ieee754::expm1)
}

/// ### 21.3.2.17 Math.floor ( x )
fn floor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is not finite or n is either +0𝔽 or -0𝔽, return n.
    // 3. If n < 1𝔽 and n > +0𝔽, return +0𝔽. 4. If n is an integral Number, return n.
    // 5. Return the greatest integral Number value that is not greater than n.
    unary(vm, args, libm::floor)
}

/// ### 21.3.2.18 Math.fround ( x )
fn fround(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is NaN, return NaN. 3. If n is one of +0𝔽, -0𝔽, +∞𝔽,
    //    or -∞𝔽, return n. 4. Let n32 be the result of converting n to IEEE 754-2019 binary32
    //    format using roundTiesToEven mode. 5. Let n64 be the result of converting n32 to
    //    binary64. 6. Return the ECMAScript Number value corresponding to n64.
    unary(vm, args, |n| n as f32 as f64)
}

/// ### 21.3.2.16 Math.f16round ( x )
fn f16round(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is NaN, return NaN. 3. If n is one of +0𝔽, -0𝔽, +∞𝔽,
    //    or -∞𝔽, return n. 4. Let n16 be the result of converting n to IEEE 754-2019 binary16
    //    format using roundTiesToEven mode. 5. Let n64 be the result of converting n16 to
    //    binary64. 6. Return the ECMAScript Number value corresponding to n64.
    unary(vm, args, round_to_f16)
}

/// A double rounded to the nearest binary16 value (ties to even), back as a double.
pub(crate) fn round_to_f16(n: f64) -> f64 {
    if n.is_nan() || n == 0.0 || n.is_infinite() {
        return n;
    }
    let a = n.abs();
    // Halfway between the largest finite half (65504) and 2^16 rounds to even: overflow.
    if a >= 65520.0 {
        return libm::copysign(f64::INFINITY, n);
    }
    // Unbiased binary exponent of a; halves below 2^-14 are subnormal with a fixed quantum.
    let e = ((a.to_bits() >> 52) & 0x7FF) as i32 - 1023;
    let quantum = e.max(-14) - 10;
    // Scaling by a power of two is exact; rint rounds ties to even.
    let rounded = libm::rint(libm::scalbn(a, -quantum));
    libm::copysign(libm::scalbn(rounded, quantum), n)
}

/// ### 21.3.2.19 Math.hypot ( ...args )
/// https://tc39.es/ecma262/#sec-math.hypot
fn hypot(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let coerced be a new empty List.
    // 2. For each element arg of args, do
    //    a. Let n be ? ToNumber(arg). b. Append n to coerced.
    let mut coerced = Vec::with_capacity(args.len());
    for &a in args {
        coerced.push(to_number(vm, a)?);
    }
    vm.charge(coerced.len() as u64 / 8)?;
    Ok(Value::number(hypot_of(&coerced)))
}

/// Math.hypot of coerced numbers: steps 3–7, computed as V8 does (scale by the largest
/// magnitude, Kahan-compensated sum of squares) so results match Node's.
pub(crate) fn hypot_of(coerced: &[f64]) -> f64 {
    // 3. For each element number of coerced, do
    //    a. If number is either +∞𝔽 or -∞𝔽, return +∞𝔽.
    // 4. Let onlyZero be true.
    // 5. For each element number of coerced, do
    //    a. If number is NaN, return NaN. b. If number is neither +0𝔽 nor -0𝔽, set onlyZero to
    //    false.
    // 6. If onlyZero is true, return +0𝔽.
    let mut max = 0.0f64;
    let mut one_is_nan = false;
    for &n in coerced {
        if n.is_nan() {
            one_is_nan = true;
        } else if n.abs() > max {
            max = n.abs();
        }
    }
    if max == f64::INFINITY {
        return f64::INFINITY;
    }
    if one_is_nan {
        return f64::NAN;
    }
    if max == 0.0 {
        return 0.0;
    }
    // 7. Return an implementation-approximated Number value representing the square root of
    //    the sum of squares of the mathematical values of the elements of coerced.
    let (mut sum, mut compensation) = (0.0f64, 0.0f64);
    for &n in coerced {
        let n = if n.is_nan() { 0.0 } else { n.abs() / max };
        let summand = n * n - compensation;
        let preliminary = sum + summand;
        compensation = (preliminary - sum) - summand;
        sum = preliminary;
    }
    libm::sqrt(sum) * max
}

/// ### 21.3.2.20 Math.imul ( x, y )
fn imul(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let a be ℝ(? ToUint32(x)).
    let a = to_uint32(vm, arg(args, 0))?;
    // 2. Let b be ℝ(? ToUint32(y)).
    let b = to_uint32(vm, arg(args, 1))?;
    // 3. Let product be (a × b) modulo 2^32.
    // 4. If product ≥ 2^31, return 𝔽(product - 2^32); otherwise return 𝔽(product).
    Ok(Value::int(a.wrapping_mul(b) as i32))
}

/// ### 21.3.2.21 Math.log ( x )
fn log(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is either NaN or +∞𝔽, return n. 3. If n is 1𝔽,
    //    return +0𝔽. 4. If n is either +0𝔽 or -0𝔽, return -∞𝔽. 5. If n < -0𝔽, return NaN.
    // 6. Return the natural logarithm of ℝ(n).
    unary(vm, args, ieee754::log)
}

/// ### 21.3.2.22 Math.log1p ( x )
fn log1p(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is one of NaN, +0𝔽, -0𝔽, or +∞𝔽, return n.
    // 3. If n is -1𝔽, return -∞𝔽. 4. If n < -1𝔽, return NaN. 5. Return ln(1 + ℝ(n)).
    unary(vm, args, ieee754::log1p)
}

/// ### 21.3.2.23 Math.log10 ( x )
fn log10(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is either NaN or +∞𝔽, return n. 3. If n is 1𝔽,
    //    return +0𝔽. 4. If n is either +0𝔽 or -0𝔽, return -∞𝔽. 5. If n < -0𝔽, return NaN.
    // 6. Return the base 10 logarithm of ℝ(n).
    unary(vm, args, ieee754::log10)
}

/// ### 21.3.2.24 Math.log2 ( x )
fn log2(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2–5. As Math.log10. 6. Return the base 2 logarithm of ℝ(n).
    unary(vm, args, ieee754::log2)
}

/// ### 21.3.2.25 Math.max ( ...args )
/// https://tc39.es/ecma262/#sec-math.max
fn max(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let coerced be a new empty List.
    // 2. For each element arg of args, do a. Let n be ? ToNumber(arg). b. Append n to coerced.
    let mut coerced = Vec::with_capacity(args.len());
    for &a in args {
        coerced.push(to_number(vm, a)?);
    }
    vm.charge(coerced.len() as u64 / 8)?;
    // 3. Let highest be -∞𝔽.
    let mut highest = f64::NEG_INFINITY;
    // 4. For each element number of coerced, do
    for number in coerced {
        // a. If number is NaN, return NaN.
        if number.is_nan() {
            return Ok(Value::NAN);
        }
        // b. If number is +0𝔽 and highest is -0𝔽, set highest to +0𝔽.
        // c. If number > highest, set highest to number.
        if number > highest || (number == 0.0 && highest == 0.0 && !number.is_sign_negative()) {
            highest = number;
        }
    }
    // 5. Return highest.
    Ok(Value::number(highest))
}

/// ### 21.3.2.26 Math.min ( ...args )
/// https://tc39.es/ecma262/#sec-math.min
fn min(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let coerced be a new empty List.
    // 2. For each element arg of args, do a. Let n be ? ToNumber(arg). b. Append n to coerced.
    let mut coerced = Vec::with_capacity(args.len());
    for &a in args {
        coerced.push(to_number(vm, a)?);
    }
    vm.charge(coerced.len() as u64 / 8)?;
    // 3. Let lowest be +∞𝔽.
    let mut lowest = f64::INFINITY;
    // 4. For each element number of coerced, do
    for number in coerced {
        // a. If number is NaN, return NaN.
        if number.is_nan() {
            return Ok(Value::NAN);
        }
        // b. If number is -0𝔽 and lowest is +0𝔽, set lowest to -0𝔽.
        // c. If number < lowest, set lowest to number.
        if number < lowest || (number == 0.0 && lowest == 0.0 && number.is_sign_negative()) {
            lowest = number;
        }
    }
    // 5. Return lowest.
    Ok(Value::number(lowest))
}

/// ### 21.3.2.27 Math.pow ( base, exponent )
fn pow(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Set base to ? ToNumber(base).
    let base = to_number(vm, arg(args, 0))?;
    // 2. Set exponent to ? ToNumber(exponent).
    let exponent = to_number(vm, arg(args, 1))?;
    // 3. Return Number::exponentiate(base, exponent).
    Ok(Value::number(js_pow(base, exponent)))
}

/// ### 21.3.2.28 Math.random ( )
/// https://tc39.es/ecma262/#sec-math.random
///
/// Returns a Number in [0, 1) from the seeded xorshift128+ generator (see the module doc).
fn random(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let state_obj = vm.realm.math_random_state;
    let words: Vec<Value> = match &vm.heap.obj(state_obj).class {
        Class::Internal(v) => v.clone(),
        _ => Vec::new(),
    };
    let (mut s0, mut s1) = match decode_state(&words) {
        Some(s) => s,
        None => {
            // The first draw: the Random capability.
            vm.touch_surface("Random");
            seed_state(seed_from_host(vm))
        }
    };
    let r = xorshift128plus(&mut s0, &mut s1);
    vm.heap.obj_mut(state_obj).class = Class::Internal(encode_state(s0, s1));
    Ok(Value::number(r))
}

/// The 8-byte seed from the embedder's host state, or the fixed default.
fn seed_from_host(vm: &Vm) -> u64 {
    vm.host_state
        .get(RANDOM_SEED_KEY)
        .and_then(|bytes| <[u8; 8]>::try_from(bytes).ok())
        .map_or(DEFAULT_SEED, u64::from_le_bytes)
}

/// Expand a 64-bit seed into a non-zero xorshift128+ state with SplitMix64.
pub(crate) fn seed_state(seed: u64) -> (u64, u64) {
    let mut z = seed;
    let mut next = || {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut x = z;
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    };
    let s0 = next();
    let s1 = next();
    if s0 == 0 && s1 == 0 {
        (1, 2)
    } else {
        (s0, s1)
    }
}

/// One xorshift128+ step (V8's shifts), as a double in [0, 1) with 53 random bits.
pub(crate) fn xorshift128plus(state0: &mut u64, state1: &mut u64) -> f64 {
    let mut s1 = *state0;
    let s0 = *state1;
    *state0 = s0;
    s1 ^= s1 << 23;
    s1 ^= s1 >> 17;
    s1 ^= s0;
    s1 ^= s0 >> 26;
    *state1 = s1;
    (state0.wrapping_add(*state1) >> 11) as f64 / (1u64 << 53) as f64
}

/// The state object holds [seeded, s0 high, s0 low, s1 high, s1 low], each word a u32 in an
/// int32 Value (no doubles, so the image holds exactly these bits).
/// The generator's state, None before the first draw. A memoized `amber.step` carries it in
/// its record, so a replay, which skips the step, continues the sequence where it left off.
pub fn random_state(vm: &Vm) -> Option<(u64, u64)> {
    match &vm.heap.obj(vm.realm.math_random_state).class {
        Class::Internal(words) => decode_state(words),
        _ => None,
    }
}

/// Puts the generator in a state [`random_state`] returned (an all-zero state, which
/// xorshift128+ never leaves, becomes the seeding fallback's).
pub fn set_random_state(vm: &mut Vm, (s0, s1): (u64, u64)) {
    let (s0, s1) = if s0 == 0 && s1 == 0 { (1, 2) } else { (s0, s1) };
    let state_obj = vm.realm.math_random_state;
    vm.heap.obj_mut(state_obj).class = Class::Internal(encode_state(s0, s1));
}

fn encode_state(s0: u64, s1: u64) -> Vec<Value> {
    let w = |x: u64| Value::int(x as u32 as i32);
    vec![Value::TRUE, w(s0 >> 32), w(s0), w(s1 >> 32), w(s1)]
}

fn decode_state(words: &[Value]) -> Option<(u64, u64)> {
    if words.first() != Some(&Value::TRUE) || words.len() != 5 {
        return None;
    }
    let w = |i: usize| words[i].as_int().map(|x| u64::from(x as u32));
    Some(((w(1)? << 32) | w(2)?, (w(3)? << 32) | w(4)?))
}

/// ### 21.3.2.29 Math.round ( x )
fn round(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    unary(vm, args, round_half_up)
}

/// Math.round steps 2–5 on a Number.
pub(crate) fn round_half_up(n: f64) -> f64 {
    // 2. If n is not finite or n is an integral Number, return n.
    if !n.is_finite() || n.trunc() == n {
        return n;
    }
    // 3. If n < 0.5𝔽 and n > +0𝔽, return +0𝔽.
    // 4. If n < -0𝔽 and n ≥ -0.5𝔽, return -0𝔽.
    // 5. Return the integral Number closest to n, preferring the Number closer to +∞ in the
    //    case of a tie. (n - floor(n) is exact for doubles, unlike n + 0.5.)
    let f = libm::floor(n);
    let r = if n - f >= 0.5 { f + 1.0 } else { f };
    if r == 0.0 {
        libm::copysign(0.0, n)
    } else {
        r
    }
}

/// ### 21.3.2.30 Math.sign ( x )
fn sign(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is one of NaN, +0𝔽, or -0𝔽, return n.
    // 3. If n < -0𝔽, return -1𝔽. 4. Return 1𝔽.
    unary(vm, args, |n| {
        if n.is_nan() || n == 0.0 {
            n
        } else if n < 0.0 {
            -1.0
        } else {
            1.0
        }
    })
}

/// ### 21.3.2.31 Math.sin ( x )
fn sin(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is one of NaN, +0𝔽, or -0𝔽, return n.
    // 3. If n is either +∞𝔽 or -∞𝔽, return NaN. 4. Return the sine of ℝ(n).
    unary(vm, args, ieee754::sin)
}

/// ### 21.3.2.32 Math.sinh ( x )
fn sinh(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is not finite or n is either +0𝔽 or -0𝔽, return n.
    // 3. Return the hyperbolic sine of ℝ(n).
    unary(vm, args, ieee754::sinh)
}

/// ### 21.3.2.33 Math.sqrt ( x )
fn sqrt(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is one of NaN, +0𝔽, -0𝔽, or +∞𝔽, return n.
    // 3. If n < -0𝔽, return NaN. 4. Return 𝔽(the square root of ℝ(n)).
    unary(vm, args, libm::sqrt)
}

/// ### 21.3.2.34 Math.sumPrecise ( items )
/// https://tc39.es/ecma262/#sec-math.sumprecise
fn sum_precise(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let items = arg(args, 0);
    // 1. Perform ? RequireObjectCoercible(items).
    if items.is_nullish() {
        return Err(vm.type_error("Math.sumPrecise called on null or undefined"));
    }
    // 2. Let iteratorRecord be ? GetIterator(items, sync).
    let iterator_key = PropertyKey::Symbol(vm.symbols.iterator);
    let Some(method) = get_method(vm, items, iterator_key)? else {
        return Err(vm.type_error("Math.sumPrecise requires an iterable"));
    };
    let record = get_iterator_from_method(vm, items, method, "Symbol.iterator")?;
    let (iterator, next) = (record.iterator, record.next_method);
    // 3. Let state be minus-zero. 4. Let sum be 0. 5. Let count be 0.
    let mut sum = PreciseSum::default();
    let mut count: u64 = 0;
    // 6. Let next be not-started. 7. Repeat, while next is not done,
    loop {
        // a. Set next to ? IteratorStepValue(iteratorRecord).
        let result = call(vm, next, iterator, &[])?;
        let Some(result_obj) = result.as_object() else {
            return Err(vm.type_error(format!(
                "Iterator result {} is not an object",
                crate::runtime::operators::type_of(vm, result)
            )));
        };
        let done = get(vm, result_obj, PropertyKey::Atom(atom::done), result)?;
        if to_boolean(vm, done) {
            break;
        }
        let value = get(vm, result_obj, PropertyKey::Atom(atom::value), result)?;
        // b. If next is not done, then
        //    i. Set count to count + 1.
        count += 1;
        vm.charge(4)?;
        //    ii. If count ≥ 2^53, then
        //        1. Let error be ThrowCompletion(a newly created RangeError object).
        //        2. Return ? IteratorClose(iteratorRecord, error).
        if count >= 1u64 << 53 {
            let error = vm.range_error("Math.sumPrecise: too many values");
            return close_on_throw(vm, iterator, error);
        }
        //    iii. NOTE: The above case is not expected to be reached in practice and is
        //         included only so that implementations may rely on inputs being "reasonably
        //         sized" without violating this specification.
        //    iv. If next is not a Number, then
        //        1. Let error be ThrowCompletion(a newly created TypeError object).
        //        2. Return ? IteratorClose(iteratorRecord, error).
        let Some(n) = value.as_number() else {
            let error = vm.type_error("Math.sumPrecise requires that every value be a Number");
            return close_on_throw(vm, iterator, error);
        };
        //    v. Let n be next.
        //    vi–vii. Track NaN and the infinities; add finite non -0 values exactly.
        sum.add(n);
    }
    // 8–12. Return the state's value, or 𝔽(sum) rounded to nearest, ties to even.
    Ok(Value::number(sum.value()))
}

/// Math.sumPrecise's state (§21.3.2.34 steps 3–4, 7.b.vi–vii and 8–12): the exact sum of the
/// finite values as an integer count of 2^-1074 (every double is a multiple of it).
#[derive(Default)]
pub(crate) struct PreciseSum {
    state: SumState,
    sum: BigInt,
}

#[derive(Default, PartialEq, Clone, Copy)]
enum SumState {
    #[default]
    MinusZero,
    Finite,
    PlusInfinity,
    MinusInfinity,
    NotANumber,
}

impl PreciseSum {
    pub(crate) fn add(&mut self, n: f64) {
        // vi. If state is not not-a-number, then
        if self.state == SumState::NotANumber {
            return;
        }
        if n.is_nan() {
            // 1. If n is NaN, set state to not-a-number.
            self.state = SumState::NotANumber;
        } else if n == f64::INFINITY {
            // 2. Else if n is +∞𝔽, then a. If state is minus-infinity, set state to
            //    not-a-number. b. Else, set state to plus-infinity.
            self.state =
                if self.state == SumState::MinusInfinity { SumState::NotANumber } else { SumState::PlusInfinity };
        } else if n == f64::NEG_INFINITY {
            // 3. Else if n is -∞𝔽, then a. If state is plus-infinity, set state to
            //    not-a-number. b. Else, set state to minus-infinity.
            self.state =
                if self.state == SumState::PlusInfinity { SumState::NotANumber } else { SumState::MinusInfinity };
        } else if !(n == 0.0 && n.is_sign_negative()) && matches!(self.state, SumState::MinusZero | SumState::Finite) {
            // 4. Else if n is not -0𝔽 and state is either minus-zero or finite, then
            //    a. Set state to finite. b. Set sum to sum + ℝ(n).
            self.state = SumState::Finite;
            let bits = n.to_bits();
            let biased = ((bits >> 52) & 0x7FF) as i64;
            let fraction = bits & ((1u64 << 52) - 1);
            let (mantissa, shift) = if biased == 0 { (fraction, 0) } else { (fraction | (1 << 52), biased - 1) };
            let magnitude = BigInt::from(mantissa) << shift as usize;
            if n < 0.0 {
                self.sum -= magnitude;
            } else {
                self.sum += magnitude;
            }
        }
    }

    pub(crate) fn value(&self) -> f64 {
        match self.state {
            // 8. If state is not-a-number, return NaN.
            SumState::NotANumber => f64::NAN,
            // 9. If state is plus-infinity, return +∞𝔽.
            SumState::PlusInfinity => f64::INFINITY,
            // 10. If state is minus-infinity, return -∞𝔽.
            SumState::MinusInfinity => f64::NEG_INFINITY,
            // 11. If state is minus-zero, return -0𝔽.
            SumState::MinusZero => -0.0,
            // 12. Return 𝔽(sum).
            SumState::Finite => scaled_to_f64(&self.sum),
        }
    }
}

/// s × 2^-1074 rounded to the nearest double, ties to even (+0 for zero).
fn scaled_to_f64(s: &BigInt) -> f64 {
    if s.is_zero() {
        return 0.0;
    }
    let negative = s.is_negative();
    let m = s.abs();
    let bits = m.bits();
    let (q, k) = if bits <= 53 {
        // Exact: every integer below 2^53 times 2^-1074 is a double.
        (m.to_u64().unwrap_or(0), 0i64)
    } else {
        // Round to 53 significant bits; the result is a normal double, so one rounding
        // suffices (scalbn below is exact or overflows to infinity).
        let k = bits - 53;
        let mut q = &m >> k as usize;
        let rem = &m - (&q << k as usize);
        let half = BigInt::one() << (k - 1) as usize;
        let odd = (&q & BigInt::one()).is_one();
        if rem > half || (rem == half && odd) {
            q += 1;
        }
        (q.to_u64().unwrap_or(0), k as i64)
    };
    let r = libm::scalbn(q as f64, (k - 1074) as i32);
    if negative {
        -r
    } else {
        r
    }
}

/// ### 21.3.2.35 Math.tan ( x )
fn tan(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is one of NaN, +0𝔽, or -0𝔽, return n.
    // 3. If n is either +∞𝔽 or -∞𝔽, return NaN. 4. Return the tangent of ℝ(n).
    unary(vm, args, ieee754::tan)
}

/// ### 21.3.2.36 Math.tanh ( x )
fn tanh(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is one of NaN, +0𝔽, or -0𝔽, return n.
    // 3. If n is +∞𝔽, return 1𝔽. 4. If n is -∞𝔽, return -1𝔽. 5. Return the hyperbolic tangent.
    unary(vm, args, ieee754::tanh)
}

/// ### 21.3.2.37 Math.trunc ( x )
fn trunc(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let n be ? ToNumber(x). 2. If n is not finite or n is either +0𝔽 or -0𝔽, return n.
    // 3. If n < 1𝔽 and n > +0𝔽, return +0𝔽. 4. If n < -0𝔽 and n > -1𝔽, return -0𝔽.
    // 5. Return the integral Number nearest n in the direction of +0𝔽.
    unary(vm, args, libm::trunc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_is_half_up_with_signed_zero() {
        assert_eq!(round_half_up(2.5), 3.0);
        assert_eq!(round_half_up(-2.5), -2.0);
        assert_eq!(round_half_up(0.49999999999999994), 0.0);
        assert!(round_half_up(-0.4).is_sign_negative());
        assert!(round_half_up(-0.5).is_sign_negative());
        assert_eq!(round_half_up(-0.6), -1.0);
        assert_eq!(round_half_up(4503599627370495.5), 4503599627370496.0);
    }

    #[test]
    fn f16_rounding() {
        assert_eq!(round_to_f16(1.337), 1.3369140625);
        assert_eq!(round_to_f16(65504.0), 65504.0);
        assert_eq!(round_to_f16(65519.99), 65504.0);
        assert_eq!(round_to_f16(65520.0), f64::INFINITY);
        assert_eq!(round_to_f16(5.960464477539063e-8), 5.960464477539063e-8);
        assert_eq!(round_to_f16(2.9e-8), 0.0);
        assert_eq!(round_to_f16(3.0e-8), 5.960464477539063e-8);
        assert!(round_to_f16(-1e-10).is_sign_negative());
    }

    #[test]
    fn hypot_matches_v8() {
        assert_eq!(hypot_of(&[3.0, 4.0]), 5.0);
        assert_eq!(hypot_of(&[f64::NAN, f64::INFINITY]), f64::INFINITY);
        assert!(hypot_of(&[f64::NAN, 1.0]).is_nan());
        assert_eq!(hypot_of(&[]), 0.0);
        assert_eq!(hypot_of(&[-0.0]), 0.0);
        assert_eq!(hypot_of(&[1e300, 1e300]), 1.4142135623730952e300);
    }

    fn sum(values: &[f64]) -> f64 {
        let mut s = PreciseSum::default();
        for &v in values {
            s.add(v);
        }
        s.value()
    }

    #[test]
    fn sum_precise_is_exact() {
        assert!(sum(&[]).is_sign_negative());
        assert!(sum(&[-0.0, -0.0]).is_sign_negative());
        assert!(!sum(&[-0.0, 0.0]).is_sign_negative());
        assert_eq!(sum(&[1e20, 0.1, -1e20]), 0.1);
        assert_eq!(sum(&[0.1, 0.2]), 0.30000000000000004);
        assert_eq!(sum(&[1.0, 1e-16, 1e-16]), 1.0000000000000002);
        assert_eq!(sum(&[f64::MAX, f64::MAX, -f64::MAX]), f64::MAX);
        assert_eq!(sum(&[f64::MAX, f64::MAX]), f64::INFINITY);
        assert_eq!(sum(&[5e-324, 5e-324]), 1e-323);
        assert!(sum(&[f64::INFINITY, f64::NEG_INFINITY]).is_nan());
        assert_eq!(sum(&[f64::INFINITY, 1.0]), f64::INFINITY);
        assert_eq!(sum(&[3.0, -3.0]), 0.0);
        assert!(!sum(&[3.0, -3.0]).is_sign_negative());
    }

    /// Math.random() twice in a fresh VM, seeded through host state when `seed` is given.
    fn two_randoms(seed: Option<u64>) -> (f64, f64) {
        let mut vm = Vm::new(crate::vm::VmOptions::default());
        if let Some(seed) = seed {
            vm.host_state.set(RANDOM_SEED_KEY, seed.to_le_bytes().to_vec());
        }
        let a = vm.eval_script("Math.random()", "a.js").expect("runs");
        let b = vm.eval_script("Math.random()", "b.js").expect("runs");
        (a.as_number().expect("number"), b.as_number().expect("number"))
    }

    #[test]
    fn math_random_follows_the_host_seed() {
        let (mut s0, mut s1) = seed_state(7);
        let first = xorshift128plus(&mut s0, &mut s1);
        let second = xorshift128plus(&mut s0, &mut s1);
        assert_eq!(two_randoms(Some(7)), (first, second));
        assert_ne!(two_randoms(Some(8)), (first, second));
        assert_eq!(two_randoms(None), two_randoms(Some(DEFAULT_SEED)));
    }

    #[test]
    fn random_is_deterministic_and_in_range() {
        let (mut a, mut b) = seed_state(42);
        let first: Vec<f64> = (0..1000).map(|_| xorshift128plus(&mut a, &mut b)).collect();
        assert!(first.iter().all(|&x| (0.0..1.0).contains(&x)));
        let (mut c, mut d) = seed_state(42);
        assert_eq!(xorshift128plus(&mut c, &mut d), first[0]);
        let words = encode_state(a, b);
        assert_eq!(decode_state(&words), Some((a, b)));
    }
}
