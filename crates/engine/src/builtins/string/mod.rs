//! The String object (ECMA-262 §22.1) and the String Iterator (§22.1.5), with the Annex B
//! additions (§B.2.2): https://tc39.es/ecma262/#sec-string-objects
//!
//! Methods work on the flat UTF-16 contents ([`JsStr`]); lone surrogates are kept as they are.
//! RegExp-based behaviour (`match`, `matchAll`, `replace`, `replaceAll`, `search`, `split`)
//! is reached through the `Symbol.match`/`Symbol.replace`/… protocol; the string-pattern
//! forms and [`get_substitution`] (shared with RegExp's `@@replace`) live here.

use unicode_normalization::UnicodeNormalization;

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{Class, IteratorState, Object};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{call, construct, invoke, is_callable, prototype_from_constructor};
use crate::runtime::convert::{
    single_char, to_boolean, to_integer_or_infinity, to_js_str, to_length, to_number, to_object, to_string, to_uint32,
};
use crate::runtime::property::{get, get_method, length_of_array_like};
use crate::string::{is_js_whitespace, JsStr};
use crate::value::{StringId, Value};
use crate::vm::Vm;

mod annex_b;
mod iterator;
mod replace;

use annex_b::{anchor, big, blink, bold, fixed, fontcolor, fontsize, italics, link, small, strike, sub, substr, sup};
use iterator::{iterator, string_iterator_next};
use replace::{replace, replace_all};

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("String", 1, constructor),
    native!("String.fromCharCode", 1, from_char_code),
    native!("String.fromCodePoint", 1, from_code_point),
    native!("String.raw", 1, raw),
    native!("String.prototype.at", 1, at),
    native!("String.prototype.charAt", 1, char_at),
    native!("String.prototype.charCodeAt", 1, char_code_at),
    native!("String.prototype.codePointAt", 1, code_point_at),
    native!("String.prototype.concat", 1, concat),
    native!("String.prototype.endsWith", 1, ends_with),
    native!("String.prototype.includes", 1, includes),
    native!("String.prototype.indexOf", 1, index_of),
    native!("String.prototype.isWellFormed", 0, is_well_formed),
    native!("String.prototype.lastIndexOf", 1, last_index_of),
    native!("String.prototype.localeCompare", 1, locale_compare),
    native!("String.prototype.match", 1, match_),
    native!("String.prototype.matchAll", 1, match_all),
    native!("String.prototype.normalize", 0, normalize),
    native!("String.prototype.padEnd", 1, pad_end),
    native!("String.prototype.padStart", 1, pad_start),
    native!("String.prototype.repeat", 1, repeat),
    native!("String.prototype.replace", 2, replace),
    native!("String.prototype.replaceAll", 2, replace_all),
    native!("String.prototype.search", 1, search),
    native!("String.prototype.slice", 2, slice),
    native!("String.prototype.split", 2, split),
    native!("String.prototype.startsWith", 1, starts_with),
    native!("String.prototype.substring", 2, substring),
    native!("String.prototype.toLocaleLowerCase", 0, to_locale_lower_case),
    native!("String.prototype.toLocaleUpperCase", 0, to_locale_upper_case),
    native!("String.prototype.toLowerCase", 0, to_lower_case),
    native!("String.prototype.toString", 0, to_string_method),
    native!("String.prototype.toUpperCase", 0, to_upper_case),
    native!("String.prototype.toWellFormed", 0, to_well_formed),
    native!("String.prototype.trim", 0, trim),
    native!("String.prototype.trimEnd", 0, trim_end),
    native!("String.prototype.trimStart", 0, trim_start),
    native!("String.prototype.valueOf", 0, value_of),
    native!("String.prototype[Symbol.iterator]", 0, iterator),
    // Annex B (§B.2.2).
    native!("String.prototype.substr", 2, substr),
    native!("String.prototype.anchor", 1, anchor),
    native!("String.prototype.big", 0, big),
    native!("String.prototype.blink", 0, blink),
    native!("String.prototype.bold", 0, bold),
    native!("String.prototype.fixed", 0, fixed),
    native!("String.prototype.fontcolor", 1, fontcolor),
    native!("String.prototype.fontsize", 1, fontsize),
    native!("String.prototype.italics", 0, italics),
    native!("String.prototype.link", 1, link),
    native!("String.prototype.small", 0, small),
    native!("String.prototype.strike", 0, strike),
    native!("String.prototype.sub", 0, sub),
    native!("String.prototype.sup", 0, sup),
    // §22.1.5.1 %StringIteratorPrototype%.
    native!("%StringIteratorPrototype%.next", 0, string_iterator_next),
];

/// The longest string the engine builds, in code units (V8's `String::kMaxLength` on 64-bit
/// hosts), so `repeat`/`padStart` fail with a RangeError as in Node rather than exhausting
/// memory.
pub(crate) const MAX_STRING_LENGTH: u64 = (1 << 29) - 24;

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.string_prototype;
    // §22.1.3: the String prototype object is a String exotic object whose [[StringData]] is
    // the empty String.
    let empty = vm.heap.alloc_string(JsStr::empty());
    vm.heap.obj_mut(proto).class = Class::String(empty);
    let ctor = make_constructor(vm, "String", "String", proto);
    install(vm, proto, "String.prototype", NATIVES);
    install(vm, ctor, "String", NATIVES);

    // B.2.2.15 / B.2.2.16: trimLeft and trimRight are the very function objects trimStart and
    // trimEnd.
    for (alias, original) in [("trimLeft", "trimStart"), ("trimRight", "trimEnd")] {
        let key = vm.key(original);
        if let Some((f, _)) = vm.heap.obj(proto).lookup_named(&vm.heap.shapes, key) {
            let alias_key = vm.key(alias);
            vm.define_builtin(proto, alias_key, f, PropFlags::HIDDEN);
        }
    }

    // §22.1.5.1: %StringIteratorPrototype% inherits from %Iterator.prototype%, has `next` and
    // [%Symbol.toStringTag%] "String Iterator" (configurable only).
    let iter_proto = vm.realm.string_iterator_prototype;
    vm.heap.obj_mut(iter_proto).proto = Some(vm.realm.iterator_prototype);
    install(vm, iter_proto, "%StringIteratorPrototype%", NATIVES);
    let tag = vm.str("String Iterator");
    let tag_key = PropertyKey::Symbol(vm.symbols.toStringTag);
    vm.define_builtin(iter_proto, tag_key, tag, PropFlags(PropFlags::CONFIGURABLE));
}

// ---- shared helpers

/// RequireObjectCoercible(this) then ToString, with V8's message naming the method.
fn this_str(vm: &mut Vm, this: Value, method: &str) -> JsResult<JsStr> {
    if this.is_nullish() {
        return Err(vm.type_error(format!("String.prototype.{method} called on null or undefined")));
    }
    to_js_str(vm, this)
}

/// RequireObjectCoercible(this) then ToString, as a flat, rooted heap string: methods that
/// read a few code units of a long string (charAt, slice, indexOf …) must not copy it.
fn this_string_id(vm: &mut Vm, this: Value, method: &str) -> JsResult<StringId> {
    if this.is_nullish() {
        return Err(vm.type_error(format!("String.prototype.{method} called on null or undefined")));
    }
    let id = to_string(vm, this)?;
    vm.heap.flat(id);
    vm.roots.push(Value::string(id));
    Ok(id)
}

/// The substring `from..to` of a flat heap string (one code unit: the shared single-char
/// string).
fn substring_of(vm: &mut Vm, id: StringId, from: usize, to: usize) -> Value {
    let s = vm.heap.flat_ref(id);
    if to == from + 1 {
        let unit = s.unit(from);
        return single_char(vm, unit);
    }
    if from == 0 && to == s.len() {
        return Value::string(id);
    }
    let sub = s.slice(from, to);
    vm.js_str(sub)
}

/// RequireObjectCoercible(this) only.
fn require_object_coercible(vm: &mut Vm, this: Value, method: &str) -> JsResult<()> {
    if this.is_nullish() {
        return Err(vm.type_error(format!("String.prototype.{method} called on null or undefined")));
    }
    Ok(())
}

/// A string value from code units.
fn units_value(vm: &mut Vm, units: Vec<u16>) -> Value {
    vm.js_str(JsStr::from_units(units))
}

/// The substring `from..to` of `s` as a value (one code unit: the shared single-char string).
fn substring_value(vm: &mut Vm, s: &JsStr, from: usize, to: usize) -> Value {
    if to == from + 1 {
        return single_char(vm, s.unit(from));
    }
    vm.js_str(s.slice(from, to))
}

/// Charge fuel for producing or scanning `units` code units, and check that a string of that
/// many units still fits the heap budget — before it is built, so an oversized `repeat` or
/// `padEnd` stops at the limit instead of allocating first.
pub(crate) fn charge_units(vm: &mut Vm, units: usize) -> JsResult<()> {
    vm.charge(units as u64 / 8)?;
    check_string_budget(vm, units)
}

/// Would a string of `units` code units still fit the heap budget?
pub(crate) fn check_string_budget(vm: &Vm, units: usize) -> JsResult<()> {
    if let Some(max) = vm.options.max_heap_bytes {
        if vm.heap.bytes_estimate.saturating_add(units as u64 * 2) > max {
            return Err(crate::error::Throw::Limit(crate::error::Limit::Heap));
        }
    }
    Ok(())
}

/// Clamp an integer-or-infinity to [0, len].
fn clamp_index(n: f64, len: usize) -> usize {
    if n <= 0.0 {
        0
    } else if n >= len as f64 {
        len
    } else {
        n as usize
    }
}

fn is_lead(u: u16) -> bool {
    (0xD800..=0xDBFF).contains(&u)
}

fn is_trail(u: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&u)
}

/// CodePointAt (§11.1.4): (code point, code unit count, is unpaired surrogate).
pub(crate) fn code_point_at_index(s: &JsStr, position: usize) -> (u32, usize, bool) {
    // 1. Let size be the length of string.
    // 2. Assert: position ≥ 0 and position < size.
    // 3. Let first be the code unit at index position within string.
    let first = s.unit(position);
    // 4. Let cp be the code point whose numeric value is the numeric value of first.
    // 5. If first is neither a leading surrogate nor a trailing surrogate, then
    //    a. Return the Record { [[CodePoint]]: cp, [[CodeUnitCount]]: 1,
    //       [[IsUnpairedSurrogate]]: false }.
    if !is_lead(first) && !is_trail(first) {
        return (u32::from(first), 1, false);
    }
    // 6. If first is a trailing surrogate or position + 1 = size, then
    //    a. Return the Record { [[CodePoint]]: cp, [[CodeUnitCount]]: 1,
    //       [[IsUnpairedSurrogate]]: true }.
    if is_trail(first) || position + 1 == s.len() {
        return (u32::from(first), 1, true);
    }
    // 7. Let second be the code unit at index position + 1 within string.
    let second = s.unit(position + 1);
    // 8. If second is not a trailing surrogate, then
    //    a. Return the Record { [[CodePoint]]: cp, [[CodeUnitCount]]: 1,
    //       [[IsUnpairedSurrogate]]: true }.
    if !is_trail(second) {
        return (u32::from(first), 1, true);
    }
    // 9. Set cp to UTF16SurrogatePairToCodePoint(first, second).
    let cp = (u32::from(first) - 0xD800) * 0x400 + (u32::from(second) - 0xDC00) + 0x10000;
    // 10. Return the Record { [[CodePoint]]: cp, [[CodeUnitCount]]: 2,
    //     [[IsUnpairedSurrogate]]: false }.
    (cp, 2, false)
}

/// UTF16EncodeCodePoint (§11.1.1), appended to `out`.
fn push_code_point(out: &mut Vec<u16>, cp: u32) {
    if cp < 0x10000 {
        out.push(cp as u16);
    } else {
        let c = cp - 0x10000;
        out.push((c / 0x400 + 0xD800) as u16);
        out.push((c % 0x400 + 0xDC00) as u16);
    }
}

/// IsRegExp (§7.2.8).
pub(crate) fn is_regexp(vm: &mut Vm, argument: Value) -> JsResult<bool> {
    // 1. If argument is not an Object, return false.
    let Some(o) = argument.as_object() else { return Ok(false) };
    // 2. Let matcher be ? Get(argument, %Symbol.match%).
    let key = PropertyKey::Symbol(vm.symbols.match_);
    let matcher = get(vm, o, key, argument)?;
    // 3. If matcher is not undefined, return ToBoolean(matcher).
    if !matcher.is_undefined() {
        return Ok(to_boolean(vm, matcher));
    }
    // 4. If argument has a [[RegExpMatcher]] internal slot, return true.
    // 5. Return false.
    Ok(matches!(vm.heap.obj(o).class, Class::RegExp(_)))
}

/// RegExpCreate (§22.2.3.1) through %RegExp%: the pattern is converted to a string first,
/// exactly as RegExpInitialize would, so the constructor's IsRegExp path is never taken.
fn regexp_create(vm: &mut Vm, pattern: Value, flags: Value) -> JsResult<Value> {
    let p = if pattern.is_undefined() { Value::UNDEFINED } else { Value::string(to_string(vm, pattern)?) };
    vm.roots.push(p);
    let ctor = Value::object(vm.realm.regexp_constructor);
    construct(vm, ctor, &[p, flags], None)
}

/// The first index ≥ `from` where `needle` occurs in `s` (StringIndexOf, §6.1.4.1).
fn string_index_of(s: &JsStr, needle: &JsStr, from: usize) -> Option<usize> {
    if from > s.len() {
        return None;
    }
    s.find(needle, from)
}

// ---- the constructor and its functions

/// ### 22.1.1.1 String ( value )
/// https://tc39.es/ecma262/#sec-string-constructor-string-value
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    // 1. If value is not present, then a. Let s be the empty String.
    let s: StringId = match args.first() {
        None => vm.heap.alloc_string(JsStr::empty()),
        // 2. Else,
        Some(&value) => {
            // a. If NewTarget is undefined and value is a Symbol, return
            //    SymbolDescriptiveString(value).
            if let (true, Some(sym)) = (new_target.is_undefined(), value.as_symbol()) {
                let d = crate::builtins::symbol::symbol_descriptive_string(vm, sym);
                return Ok(vm.js_str(d));
            }
            // b. Let s be ? ToString(value).
            to_string(vm, value)?
        }
    };
    // 3. If NewTarget is undefined, return s.
    if new_target.is_undefined() {
        return Ok(Value::string(s));
    }
    // 4. Return StringCreate(s, ? GetPrototypeFromConstructor(NewTarget, "%String.prototype%")).
    vm.roots.push(Value::string(s));
    let default = vm.realm.string_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    Ok(string_create(vm, s, proto))
}

/// StringCreate (§10.4.3.4): a String exotic object (its `length` and index properties are
/// synthesised by the property layer from the flat contents).
fn string_create(vm: &mut Vm, value: StringId, prototype: crate::value::ObjectId) -> Value {
    vm.heap.flat(value);
    Value::object(vm.heap.alloc_object(Object::new(Some(prototype), Class::String(value))))
}

/// ### 22.1.2.1 String.fromCharCode ( ...codeUnits )
/// https://tc39.es/ecma262/#sec-string.fromcharcode
fn from_char_code(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let result be the empty String.
    let mut result = Vec::with_capacity(args.len());
    // 2. For each element next of codeUnits, do
    for &next in args {
        // a. Let nextCU be the code unit whose numeric value is ℝ(? ToUint16(next)).
        // b. Set result to the string-concatenation of result and nextCU.
        result.push(to_uint32(vm, next)? as u16);
    }
    charge_units(vm, result.len())?;
    // 3. Return result.
    if result.len() == 1 {
        return Ok(single_char(vm, result[0]));
    }
    Ok(units_value(vm, result))
}

/// ### 22.1.2.2 String.fromCodePoint ( ...codePoints )
/// https://tc39.es/ecma262/#sec-string.fromcodepoint
fn from_code_point(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let result be the empty String.
    let mut result = Vec::with_capacity(args.len());
    // 2. For each element next of codePoints, do
    for &next in args {
        // a. Let nextCP be ? ToNumber(next).
        let next_cp = to_number(vm, next)?;
        // b. If IsIntegralNumber(nextCP) is false, throw a RangeError exception.
        // c. If ℝ(nextCP) < 0 or ℝ(nextCP) > 0x10FFFF, throw a RangeError exception.
        if !next_cp.is_finite() || next_cp.trunc() != next_cp || !(0.0..=1_114_111.0).contains(&next_cp) {
            let shown = crate::runtime::convert::number_to_string(next_cp);
            return Err(vm.range_error(format!("Invalid code point {shown}")));
        }
        // d. Set result to the string-concatenation of result and
        //    UTF16EncodeCodePoint(ℝ(nextCP)).
        push_code_point(&mut result, next_cp as u32);
    }
    charge_units(vm, result.len())?;
    // 3. Assert: If codePoints is empty, then result is the empty String.
    // 4. Return result.
    Ok(units_value(vm, result))
}

/// ### 22.1.2.4 String.raw ( template, ...substitutions )
/// https://tc39.es/ecma262/#sec-string.raw
fn raw(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let substitutions = args.get(1..).unwrap_or(&[]);
    // 1. Let substitutionCount be the number of elements in substitutions.
    let substitution_count = substitutions.len();
    // 2. Let cooked be ? ToObject(template).
    let cooked = to_object(vm, arg(args, 0))?;
    vm.roots.push(Value::object(cooked));
    // 3. Let literals be ? ToObject(? Get(cooked, "raw")).
    let raw_value = get(vm, cooked, PropertyKey::Atom(atom::raw), Value::object(cooked))?;
    let literals = to_object(vm, raw_value)?;
    vm.roots.push(Value::object(literals));
    // 4. Let literalCount be ? LengthOfArrayLike(literals).
    let literal_count = length_of_array_like(vm, literals)?;
    // 5. If literalCount ≤ 0, return the empty String.
    if literal_count == 0 {
        return Ok(vm.str(""));
    }
    // 6. Let R be the empty String.
    let mut r: Vec<u16> = Vec::new();
    // 7. Let nextIndex be 0.
    let mut next_index: u64 = 0;
    // 8. Repeat,
    loop {
        vm.charge(1)?;
        // a. Let nextLiteralVal be ? Get(literals, ! ToString(𝔽(nextIndex))).
        let key = index_key(vm, next_index);
        let next_literal_val = get(vm, literals, key, Value::object(literals))?;
        // b. Let nextLiteral be ? ToString(nextLiteralVal).
        let next_literal = to_js_str(vm, next_literal_val)?;
        // c. Set R to the string-concatenation of R and nextLiteral.
        r.extend(next_literal.iter());
        // d. If nextIndex + 1 = literalCount, return R.
        if next_index + 1 == literal_count {
            charge_units(vm, r.len())?;
            return Ok(units_value(vm, r));
        }
        // e. If nextIndex < substitutionCount, then
        if (next_index as usize) < substitution_count {
            // i. Let nextSubVal be substitutions[nextIndex].
            let next_sub_val = substitutions[next_index as usize];
            // ii. Let nextSub be ? ToString(nextSubVal).
            let next_sub = to_js_str(vm, next_sub_val)?;
            // iii. Set R to the string-concatenation of R and nextSub.
            r.extend(next_sub.iter());
        }
        vm.check_string_growth(r.len() as u64)?;
        // f. Set nextIndex to nextIndex + 1.
        next_index += 1;
    }
}

/// The property key of an integer index (array index or its canonical string).
fn index_key(vm: &mut Vm, i: u64) -> PropertyKey {
    match u32::try_from(i) {
        Ok(i) if i < u32::MAX => PropertyKey::Index(i),
        _ => vm.key(&i.to_string()),
    }
}

// ---- String.prototype

/// ### 22.1.3.1 String.prototype.at ( index )
/// https://tc39.es/ecma262/#sec-string.prototype.at
fn at(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let id = this_string_id(vm, this, "at")?;
    // 3. Let len be the length of S.
    let len = vm.heap.flat_ref(id).len() as f64;
    // 4. Let relativeIndex be ? ToIntegerOrInfinity(index).
    let relative_index = to_integer_or_infinity(vm, arg(args, 0))?;
    // 5. If relativeIndex ≥ 0, then a. Let k be relativeIndex.
    // 6. Else, a. Let k be len + relativeIndex.
    let k = if relative_index >= 0.0 { relative_index } else { len + relative_index };
    // 7. If k < 0 or k ≥ len, return undefined.
    if k < 0.0 || k >= len {
        return Ok(Value::UNDEFINED);
    }
    // 8. Return the substring of S from k to k + 1.
    Ok(substring_of(vm, id, k as usize, k as usize + 1))
}

/// ### 22.1.3.2 String.prototype.charAt ( pos )
/// https://tc39.es/ecma262/#sec-string.prototype.charat
fn char_at(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let id = this_string_id(vm, this, "charAt")?;
    // 3. Let position be ? ToIntegerOrInfinity(pos).
    let position = to_integer_or_infinity(vm, arg(args, 0))?;
    // 4. Let size be the length of S.
    // 5. If position < 0 or position ≥ size, return the empty String.
    if position < 0.0 || position >= vm.heap.flat_ref(id).len() as f64 {
        return Ok(vm.str(""));
    }
    // 6. Return the substring of S from position to position + 1.
    Ok(substring_of(vm, id, position as usize, position as usize + 1))
}

/// ### 22.1.3.3 String.prototype.charCodeAt ( pos )
/// https://tc39.es/ecma262/#sec-string.prototype.charcodeat
fn char_code_at(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let id = this_string_id(vm, this, "charCodeAt")?;
    // 3. Let position be ? ToIntegerOrInfinity(pos).
    let position = to_integer_or_infinity(vm, arg(args, 0))?;
    let s = vm.heap.flat_ref(id);
    // 4. Let size be the length of S.
    // 5. If position < 0 or position ≥ size, return NaN.
    if position < 0.0 || position >= s.len() as f64 {
        return Ok(Value::NAN);
    }
    // 6. Return the Number value for the numeric value of the code unit at index position
    //    within the String S.
    Ok(Value::int(i32::from(s.unit(position as usize))))
}

/// ### 22.1.3.4 String.prototype.codePointAt ( pos )
/// https://tc39.es/ecma262/#sec-string.prototype.codepointat
fn code_point_at(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let id = this_string_id(vm, this, "codePointAt")?;
    // 3. Let position be ? ToIntegerOrInfinity(pos).
    let position = to_integer_or_infinity(vm, arg(args, 0))?;
    let s = vm.heap.flat_ref(id);
    // 4. Let size be the length of S.
    // 5. If position < 0 or position ≥ size, return undefined.
    if position < 0.0 || position >= s.len() as f64 {
        return Ok(Value::UNDEFINED);
    }
    // 6. Let cp be CodePointAt(S, position).
    let (cp, _, _) = code_point_at_index(s, position as usize);
    // 7. Return 𝔽(cp.[[CodePoint]]).
    Ok(Value::int(cp as i32))
}

/// ### 22.1.3.5 String.prototype.concat ( ...args )
/// https://tc39.es/ecma262/#sec-string.prototype.concat
fn concat(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let s = this_str(vm, this, "concat")?;
    // 3. Let R be S.
    let mut r = s.units();
    // 4. For each element next of args, do
    for &next in args {
        // a. Let nextString be ? ToString(next).
        let next_string = to_js_str(vm, next)?;
        vm.check_string_growth((r.len() + next_string.len()) as u64)?;
        charge_units(vm, r.len() + next_string.len())?;
        // b. Set R to the string-concatenation of R and nextString.
        r.extend(next_string.iter());
    }
    // 5. Return R.
    Ok(units_value(vm, r))
}

/// ### 22.1.3.7 String.prototype.endsWith ( searchString [ , endPosition ] )
/// https://tc39.es/ecma262/#sec-string.prototype.endswith
fn ends_with(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let id = this_string_id(vm, this, "endsWith")?;
    // 3. Let isRegExp be ? IsRegExp(searchString).
    // 4. If isRegExp is true, throw a TypeError exception.
    let search_string = arg(args, 0);
    if is_regexp(vm, search_string)? {
        return Err(vm.type_error("First argument to String.prototype.endsWith must not be a regular expression"));
    }
    // 5. Let searchStr be ? ToString(searchString).
    let search_str = to_js_str(vm, search_string)?;
    // 6. Let len be the length of S.
    let len = vm.heap.flat_ref(id).len();
    // 7. If endPosition is undefined, let pos be len; else let pos be
    //    ? ToIntegerOrInfinity(endPosition).
    let end_position = arg(args, 1);
    let pos = if end_position.is_undefined() { len as f64 } else { to_integer_or_infinity(vm, end_position)? };
    // 8. Let end be the result of clamping pos between 0 and len.
    let end = clamp_index(pos, len);
    // 9. Let searchLength be the length of searchStr.
    let search_length = search_str.len();
    // 10. If searchLength = 0, return true.
    if search_length == 0 {
        return Ok(Value::TRUE);
    }
    // 11. Let start be end - searchLength.
    // 12. If start < 0, return false.
    let Some(start) = end.checked_sub(search_length) else { return Ok(Value::FALSE) };
    vm.charge(search_length as u64 / 8)?;
    // 13. Let substring be the substring of S from start to end.
    // 14. If substring is searchStr, return true.
    // 15. Return false.
    let s = vm.heap.flat_ref(id);
    Ok(Value::bool((0..search_length).all(|i| s.unit(start + i) == search_str.unit(i))))
}

/// ### 22.1.3.8 String.prototype.includes ( searchString [ , position ] )
/// https://tc39.es/ecma262/#sec-string.prototype.includes
fn includes(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let id = this_string_id(vm, this, "includes")?;
    // 3. Let isRegExp be ? IsRegExp(searchString).
    // 4. If isRegExp is true, throw a TypeError exception.
    let search_string = arg(args, 0);
    if is_regexp(vm, search_string)? {
        return Err(vm.type_error("First argument to String.prototype.includes must not be a regular expression"));
    }
    // 5. Let searchStr be ? ToString(searchString).
    let search_str = to_js_str(vm, search_string)?;
    // 6. Let pos be ? ToIntegerOrInfinity(position).
    // 7. Assert: If position is undefined, then pos is 0.
    let pos = to_integer_or_infinity(vm, arg(args, 1))?;
    // 8. Let len be the length of S.
    // 9. Let start be the result of clamping pos between 0 and len.
    let len = vm.heap.flat_ref(id).len();
    let start = clamp_index(pos, len);
    vm.charge(len as u64 / 8)?;
    // 10. Let index be StringIndexOf(S, searchStr, start).
    // 11. If index is not-found, return false.
    // 12. Return true.
    Ok(Value::bool(string_index_of(vm.heap.flat_ref(id), &search_str, start).is_some()))
}

/// ### 22.1.3.9 String.prototype.indexOf ( searchString [ , position ] )
/// https://tc39.es/ecma262/#sec-string.prototype.indexof
fn index_of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let id = this_string_id(vm, this, "indexOf")?;
    // 3. Let searchStr be ? ToString(searchString).
    let search_str = to_js_str(vm, arg(args, 0))?;
    // 4. Let pos be ? ToIntegerOrInfinity(position).
    // 5. Assert: If position is undefined, then pos is 0.
    let pos = to_integer_or_infinity(vm, arg(args, 1))?;
    // 6. Let len be the length of S.
    // 7. Let start be the result of clamping pos between 0 and len.
    let len = vm.heap.flat_ref(id).len();
    let start = clamp_index(pos, len);
    vm.charge(len as u64 / 8)?;
    // 8. Let result be StringIndexOf(S, searchStr, start).
    // 9. If result is not-found, return -1𝔽.
    // 10. Return 𝔽(result).
    Ok(match string_index_of(vm.heap.flat_ref(id), &search_str, start) {
        Some(i) => Value::number(i as f64),
        None => Value::int(-1),
    })
}

/// ### 22.1.3.10 String.prototype.isWellFormed ( )
/// https://tc39.es/ecma262/#sec-string.prototype.iswellformed
fn is_well_formed(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let s = this_str(vm, this, "isWellFormed")?;
    vm.charge(s.len() as u64 / 8)?;
    // 3. Return IsStringWellFormedUnicode(S).
    Ok(Value::bool(is_string_well_formed_unicode(&s)))
}

/// IsStringWellFormedUnicode (§7.2.9): no unpaired surrogates.
pub(crate) fn is_string_well_formed_unicode(s: &JsStr) -> bool {
    if let JsStr::Latin1(_) = s {
        return true;
    }
    let mut k = 0;
    while k < s.len() {
        let (_, count, unpaired) = code_point_at_index(s, k);
        if unpaired {
            return false;
        }
        k += count;
    }
    true
}

/// ### 22.1.3.11 String.prototype.lastIndexOf ( searchString [ , position ] )
/// https://tc39.es/ecma262/#sec-string.prototype.lastindexof
fn last_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let id = this_string_id(vm, this, "lastIndexOf")?;
    // 3. Let searchStr be ? ToString(searchString).
    let search_str = to_js_str(vm, arg(args, 0))?;
    // 4. Let numPos be ? ToNumber(position).
    // 5. Assert: If position is undefined, then numPos is NaN.
    let num_pos = to_number(vm, arg(args, 1))?;
    // 6. If numPos is NaN, let pos be +∞; otherwise, let pos be ! ToIntegerOrInfinity(numPos).
    let pos = if num_pos.is_nan() { f64::INFINITY } else { crate::runtime::convert::integer_part(num_pos) };
    // 7. Let len be the length of S.
    let len = vm.heap.flat_ref(id).len();
    // 8. Let searchLen be the length of searchStr.
    let search_len = search_str.len();
    if search_len > len {
        return Ok(Value::int(-1));
    }
    // 9. Let start be the result of clamping pos between 0 and len - searchLen.
    let start = clamp_index(pos, len - search_len);
    vm.charge(len as u64 / 8)?;
    // 10. If searchStr is the empty String, return 𝔽(start).
    // 11. For each integer i such that 0 ≤ i ≤ start, in descending order, do
    //     a. Let candidate be the substring of S from i to i + searchLen.
    //     b. If candidate is searchStr, return 𝔽(i).
    // 12. Return -1𝔽.
    Ok(match vm.heap.flat_ref(id).rfind(&search_str, start) {
        Some(i) => Value::number(i as f64),
        None => Value::int(-1),
    })
}

/// ### 19.1.1 String.prototype.localeCompare ( that [ , locales [ , options ] ] ) (ECMA-402)
/// https://tc39.es/ecma402/#sup-String.prototype.localeCompare
fn locale_compare(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let s = this_str(vm, this, "localeCompare")?;
    // 3. Let thatValue be ? ToString(that).
    let that_value = to_js_str(vm, arg(args, 0))?;
    let (s, that_value) = (vm.heap.alloc_string(s), vm.heap.alloc_string(that_value));
    // 4-5. Let collator be ? Construct(%Intl.Collator%, « locales, options »);
    //      return CompareStrings(collator, S, thatValue).
    crate::builtins::intl::locale_compare(vm, Value::string(s), Value::string(that_value), arg(args, 1), arg(args, 2))
}

/// ### 22.1.3.13 String.prototype.match ( regexp )
/// https://tc39.es/ecma262/#sec-string.prototype.match
fn match_(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let regexp = arg(args, 0);
    // 1. Let O be the this value.
    // 2. Perform ? RequireObjectCoercible(O).
    require_object_coercible(vm, this, "match")?;
    // 3. If regexp is an Object, then
    if regexp.is_object() {
        // a. Let matcher be ? GetMethod(regexp, %Symbol.match%).
        let key = PropertyKey::Symbol(vm.symbols.match_);
        // b. If matcher is not undefined, then
        if let Some(matcher) = get_method(vm, regexp, key)? {
            // i. Return ? Call(matcher, regexp, « O »).
            return call(vm, matcher, regexp, &[this]);
        }
    }
    // 4. Let S be ? ToString(O).
    let s = Value::string(to_string(vm, this)?);
    vm.roots.push(s);
    // 5. Let rx be ? RegExpCreate(regexp, undefined).
    let rx = regexp_create(vm, regexp, Value::UNDEFINED)?;
    // 6. Return ? Invoke(rx, %Symbol.match%, « S »).
    let key = PropertyKey::Symbol(vm.symbols.match_);
    invoke(vm, rx, key, &[s])
}

/// ### 22.1.3.14 String.prototype.matchAll ( regexp )
/// https://tc39.es/ecma262/#sec-string.prototype.matchall
fn match_all(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let regexp = arg(args, 0);
    // 1. Let O be the this value.
    // 2. Perform ? RequireObjectCoercible(O).
    require_object_coercible(vm, this, "matchAll")?;
    // 3. If regexp is an Object, then
    if let Some(ro) = regexp.as_object() {
        // a. Let isRegExp be ? IsRegExp(regexp).
        // b. If isRegExp is true, then
        if is_regexp(vm, regexp)? {
            // i. Let flags be ? Get(regexp, "flags").
            let flags = get(vm, ro, PropertyKey::Atom(atom::flags), regexp)?;
            // ii. Perform ? RequireObjectCoercible(flags).
            if flags.is_nullish() {
                return Err(vm.type_error(
                    "The .flags property of the argument to String.prototype.matchAll cannot be null or undefined",
                ));
            }
            // iii. If ? ToString(flags) does not contain "g", throw a TypeError exception.
            let flags = to_js_str(vm, flags)?;
            if !flags.iter().any(|c| c == u16::from(b'g')) {
                return Err(vm.type_error("String.prototype.matchAll called with a non-global RegExp argument"));
            }
        }
        // c. Let matcher be ? GetMethod(regexp, %Symbol.matchAll%).
        let key = PropertyKey::Symbol(vm.symbols.matchAll);
        // d. If matcher is not undefined, then
        if let Some(matcher) = get_method(vm, regexp, key)? {
            // i. Return ? Call(matcher, regexp, « O »).
            return call(vm, matcher, regexp, &[this]);
        }
    }
    // 4. Let S be ? ToString(O).
    let s = Value::string(to_string(vm, this)?);
    vm.roots.push(s);
    // 5. Let rx be ? RegExpCreate(regexp, "g").
    let g = vm.str("g");
    vm.roots.push(g);
    let rx = regexp_create(vm, regexp, g)?;
    // 6. Return ? Invoke(rx, %Symbol.matchAll%, « S »).
    let key = PropertyKey::Symbol(vm.symbols.matchAll);
    invoke(vm, rx, key, &[s])
}

/// ### 22.1.3.15 String.prototype.normalize ( [ form ] )
/// https://tc39.es/ecma262/#sec-string.prototype.normalize
fn normalize(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let s = this_str(vm, this, "normalize")?;
    // 3. If form is undefined, let f be "NFC".
    // 4. Else, let f be ? ToString(form).
    let form = arg(args, 0);
    let f = if form.is_undefined() { "NFC".to_string() } else { to_js_str(vm, form)?.to_rust_string() };
    // 5. If f is not one of "NFC", "NFD", "NFKC", or "NFKD", throw a RangeError exception.
    let form = match f.as_str() {
        "NFC" => NormalForm::Nfc,
        "NFD" => NormalForm::Nfd,
        "NFKC" => NormalForm::Nfkc,
        "NFKD" => NormalForm::Nfkd,
        _ => return Err(vm.range_error("The normalization form should be one of NFC, NFD, NFKC, NFKD.")),
    };
    charge_units(vm, s.len() * 2)?;
    // 6. Let ns be the String value that is the result of normalizing S into the normalization
    //    form named by f as specified in the latest Unicode Standard, Normalization Forms.
    // 7. Return ns.
    let ns = normalize_units(&s, form);
    Ok(vm.js_str(ns))
}

#[derive(Clone, Copy)]
enum NormalForm {
    Nfc,
    Nfd,
    Nfkc,
    Nfkd,
}

/// Normalize the well-formed runs of `s`; unpaired surrogates are kept in place (they are
/// not characters, and normalization never combines across them).
fn normalize_units(s: &JsStr, form: NormalForm) -> JsStr {
    // Fast path: ASCII is unchanged by every normalization form.
    if let JsStr::Latin1(b) = s {
        if b.is_ascii() {
            return s.clone();
        }
    }
    map_code_point_runs(s, |run| match form {
        NormalForm::Nfc => run.nfc().collect(),
        NormalForm::Nfd => run.nfd().collect(),
        NormalForm::Nfkc => run.nfkc().collect(),
        NormalForm::Nfkd => run.nfkd().collect(),
    })
}

/// ### 22.1.3.16 String.prototype.padEnd ( maxLength [ , fillString ] )
/// https://tc39.es/ecma262/#sec-string.prototype.padend
fn pad_end(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    require_object_coercible(vm, this, "padEnd")?;
    // 2. Return ? StringPaddingBuiltinsImpl(O, maxLength, fillString, end).
    string_padding_builtins_impl(vm, this, arg(args, 0), arg(args, 1), false)
}

/// ### 22.1.3.17 String.prototype.padStart ( maxLength [ , fillString ] )
/// https://tc39.es/ecma262/#sec-string.prototype.padstart
fn pad_start(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    require_object_coercible(vm, this, "padStart")?;
    // 2. Return ? StringPaddingBuiltinsImpl(O, maxLength, fillString, start).
    string_padding_builtins_impl(vm, this, arg(args, 0), arg(args, 1), true)
}

/// StringPaddingBuiltinsImpl (§22.1.3.17.1).
fn string_padding_builtins_impl(
    vm: &mut Vm,
    o: Value,
    max_length: Value,
    fill_string: Value,
    at_start: bool,
) -> JsResult<Value> {
    // 1. Let S be ? ToString(O).
    let s_id = to_string(vm, o)?;
    vm.roots.push(Value::string(s_id));
    // 2. Let intMaxLength be ℝ(? ToLength(maxLength)).
    let int_max_length = to_length(vm, max_length)?;
    // 3. Let stringLength be the length of S.
    let string_length = vm.heap.string_len(s_id) as u64;
    // 4. If intMaxLength ≤ stringLength, return S.
    if int_max_length <= string_length {
        return Ok(Value::string(s_id));
    }
    // 5. If fillString is undefined, set fillString to the String value consisting solely of
    //    the code unit 0x0020 (SPACE).
    // 6. Else, set fillString to ? ToString(fillString).
    let fill = if fill_string.is_undefined() { JsStr::from_str(" ") } else { to_js_str(vm, fill_string)? };
    // 7. Return StringPad(S, intMaxLength, fillString, placement).
    let s = vm.heap.flat(s_id).clone();
    if fill.is_empty() {
        return Ok(Value::string(s_id));
    }
    if int_max_length > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    charge_units(vm, int_max_length as usize)?;
    Ok(vm.js_str(string_pad(&s, int_max_length as usize, &fill, at_start)))
}

/// StringPad (§22.1.3.17.2).
pub(crate) fn string_pad(s: &JsStr, max_length: usize, fill_string: &JsStr, at_start: bool) -> JsStr {
    // 1. Let stringLength be the length of S.
    let string_length = s.len();
    // 2. If maxLength ≤ stringLength, return S.
    // 3. If fillString is the empty String, return S.
    if max_length <= string_length || fill_string.is_empty() {
        return s.clone();
    }
    // 4. Let fillLen be maxLength - stringLength.
    let fill_len = max_length - string_length;
    // 5. Let truncatedStringFiller be the String value consisting of repeated concatenations
    //    of fillString truncated to length fillLen.
    let fill = fill_string.units();
    let filler: Vec<u16> = fill.iter().copied().cycle().take(fill_len).collect();
    // 6. If placement is start, return the string-concatenation of truncatedStringFiller and S.
    // 7. Else, return the string-concatenation of S and truncatedStringFiller.
    let mut out = Vec::with_capacity(max_length);
    if at_start {
        out.extend_from_slice(&filler);
        out.extend(s.iter());
    } else {
        out.extend(s.iter());
        out.extend_from_slice(&filler);
    }
    JsStr::from_units(out)
}

/// ### 22.1.3.18 String.prototype.repeat ( count )
/// https://tc39.es/ecma262/#sec-string.prototype.repeat
fn repeat(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let s = this_str(vm, this, "repeat")?;
    // 3. Let n be ? ToIntegerOrInfinity(count).
    let n = to_integer_or_infinity(vm, arg(args, 0))?;
    // 4. If n < 0 or n = +∞, throw a RangeError exception.
    if n < 0.0 || n == f64::INFINITY {
        let shown = crate::runtime::convert::number_to_string(n);
        return Err(vm.range_error(format!("Invalid count value: {shown}")));
    }
    // 5. If n = 0, return the empty String.
    if n == 0.0 || s.is_empty() {
        return Ok(vm.str(""));
    }
    let total = s.len() as f64 * n;
    if total > MAX_STRING_LENGTH as f64 {
        return Err(vm.range_error("Invalid string length"));
    }
    // Charged in proportion to the result before building it.
    charge_units(vm, total as usize)?;
    // 6. Return the String value that is made from n copies of S appended together.
    let repeated = match &s {
        JsStr::Latin1(bytes) => JsStr::from_latin1(bytes.repeat(n as usize)),
        JsStr::Utf16(units) => JsStr::Utf16(units.repeat(n as usize).into()),
    };
    Ok(vm.js_str(repeated))
}

/// ### 22.1.3.21 String.prototype.search ( regexp )
/// https://tc39.es/ecma262/#sec-string.prototype.search
fn search(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let regexp = arg(args, 0);
    // 1. Let O be the this value.
    // 2. Perform ? RequireObjectCoercible(O).
    require_object_coercible(vm, this, "search")?;
    // 3. If regexp is an Object, then
    if regexp.is_object() {
        // a. Let searcher be ? GetMethod(regexp, %Symbol.search%).
        let key = PropertyKey::Symbol(vm.symbols.search);
        // b. If searcher is not undefined, then
        if let Some(searcher) = get_method(vm, regexp, key)? {
            // i. Return ? Call(searcher, regexp, « O »).
            return call(vm, searcher, regexp, &[this]);
        }
    }
    // 4. Let string be ? ToString(O).
    let string = Value::string(to_string(vm, this)?);
    vm.roots.push(string);
    // 5. Let rx be ? RegExpCreate(regexp, undefined).
    let rx = regexp_create(vm, regexp, Value::UNDEFINED)?;
    // 6. Return ? Invoke(rx, %Symbol.search%, « string »).
    let key = PropertyKey::Symbol(vm.symbols.search);
    invoke(vm, rx, key, &[string])
}

/// Resolve a relative start/end argument (already ToIntegerOrInfinity) against `len`, as
/// slice and substr do: negative counts from the end.
fn relative_to_len(n: f64, len: usize) -> usize {
    if n < 0.0 {
        clamp_index(len as f64 + n, len)
    } else {
        clamp_index(n, len)
    }
}

/// ### 22.1.3.22 String.prototype.slice ( start, end )
/// https://tc39.es/ecma262/#sec-string.prototype.slice
fn slice(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let id = this_string_id(vm, this, "slice")?;
    // 3. Let len be the length of S.
    let len = vm.heap.flat_ref(id).len();
    // 4. Let intStart be ? ToIntegerOrInfinity(start).
    let int_start = to_integer_or_infinity(vm, arg(args, 0))?;
    // 5. If intStart = -∞, let from be 0.
    // 6. Else if intStart < 0, let from be max(len + intStart, 0).
    // 7. Else, let from be min(intStart, len).
    let from = relative_to_len(int_start, len);
    // 8. If end is undefined, let intEnd be len; else let intEnd be ? ToIntegerOrInfinity(end).
    let end = arg(args, 1);
    let int_end = if end.is_undefined() { len as f64 } else { to_integer_or_infinity(vm, end)? };
    // 9. If intEnd = -∞, let to be 0.
    // 10. Else if intEnd < 0, let to be max(len + intEnd, 0).
    // 11. Else, let to be min(intEnd, len).
    let to = relative_to_len(int_end, len);
    // 12. If from ≥ to, return the empty String.
    if from >= to {
        return Ok(vm.str(""));
    }
    charge_units(vm, to - from)?;
    // 13. Return the substring of S from from to to.
    Ok(substring_of(vm, id, from, to))
}

/// ### 22.1.3.23 String.prototype.split ( separator, limit )
/// https://tc39.es/ecma262/#sec-string.prototype.split
fn split(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (separator, limit) = (arg(args, 0), arg(args, 1));
    // 1. Let O be the this value.
    // 2. Perform ? RequireObjectCoercible(O).
    require_object_coercible(vm, this, "split")?;
    // 3. If separator is an Object, then
    if separator.is_object() {
        // a. Let splitter be ? GetMethod(separator, %Symbol.split%).
        let key = PropertyKey::Symbol(vm.symbols.split);
        // b. If splitter is not undefined, then
        if let Some(splitter) = get_method(vm, separator, key)? {
            // i. Return ? Call(splitter, separator, « O, limit »).
            return call(vm, splitter, separator, &[this, limit]);
        }
    }
    // 4. Let S be ? ToString(O).
    let s_id = to_string(vm, this)?;
    vm.roots.push(Value::string(s_id));
    // 5. If limit is undefined, let lim be 2^32 - 1; else let lim be ℝ(? ToUint32(limit)).
    let lim = if limit.is_undefined() { u32::MAX } else { to_uint32(vm, limit)? } as usize;
    // 6. Let R be ? ToString(separator).
    let r = to_js_str(vm, separator)?;
    // 7. If lim = 0, then a. Return CreateArrayFromList(« »).
    if lim == 0 {
        return Ok(vm.new_array(Vec::new()));
    }
    // 8. If separator is undefined, then a. Return CreateArrayFromList(« S »).
    if separator.is_undefined() {
        return Ok(vm.new_array(vec![Value::string(s_id)]));
    }
    let s = vm.heap.flat(s_id).clone();
    // 9. Let separatorLength be the length of R.
    let separator_length = r.len();
    // 10. If separatorLength = 0, then
    if separator_length == 0 {
        // a. Let strLen be the length of S.
        // b. Let outLen be the result of clamping lim between 0 and strLen.
        let out_len = lim.min(s.len());
        charge_units(vm, out_len * 4)?;
        // c. Let head be the substring of S from 0 to outLen.
        // d. Let codeUnits be a List consisting of the sequence of code units that are the
        //    elements of head.
        // e. Return CreateArrayFromList(codeUnits).
        let code_units: Vec<Value> = (0..out_len).map(|i| single_char(vm, s.unit(i))).collect();
        return Ok(vm.new_array(code_units));
    }
    // 11. If S is the empty String, return CreateArrayFromList(« S »).
    if s.is_empty() {
        return Ok(vm.new_array(vec![Value::string(s_id)]));
    }
    vm.charge(s.len() as u64 / 8)?;
    // 12. Let substrings be a new empty List.
    let mut substrings: Vec<Value> = Vec::new();
    // 13. Let i be 0.
    let mut i = 0;
    // 14. Let j be StringIndexOf(S, R, 0).
    let mut j = string_index_of(&s, &r, 0);
    // 15. Repeat, while j is not not-found,
    while let Some(jj) = j {
        // a. Let T be the substring of S from i to j.
        // b. Append T to substrings.
        let t = substring_value(vm, &s, i, jj);
        substrings.push(t);
        // c. If the number of elements in substrings is lim, return
        //    CreateArrayFromList(substrings).
        if substrings.len() == lim {
            charge_units(vm, substrings.len() * 4)?;
            return Ok(vm.new_array(substrings));
        }
        // d. Set i to j + separatorLength.
        i = jj + separator_length;
        // e. Set j to StringIndexOf(S, R, i).
        j = string_index_of(&s, &r, i);
    }
    // 16. Let T be the substring of S from i.
    // 17. Append T to substrings.
    let t = substring_value(vm, &s, i, s.len());
    substrings.push(t);
    charge_units(vm, substrings.len() * 4)?;
    // 18. Return CreateArrayFromList(substrings).
    Ok(vm.new_array(substrings))
}

/// ### 22.1.3.24 String.prototype.startsWith ( searchString [ , position ] )
/// https://tc39.es/ecma262/#sec-string.prototype.startswith
fn starts_with(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let id = this_string_id(vm, this, "startsWith")?;
    // 3. Let isRegExp be ? IsRegExp(searchString).
    // 4. If isRegExp is true, throw a TypeError exception.
    let search_string = arg(args, 0);
    if is_regexp(vm, search_string)? {
        return Err(vm.type_error("First argument to String.prototype.startsWith must not be a regular expression"));
    }
    // 5. Let searchStr be ? ToString(searchString).
    let search_str = to_js_str(vm, search_string)?;
    // 6. Let len be the length of S.
    let len = vm.heap.flat_ref(id).len();
    // 7. If position is undefined, let pos be 0; else let pos be ? ToIntegerOrInfinity(position).
    let position = arg(args, 1);
    let pos = if position.is_undefined() { 0.0 } else { to_integer_or_infinity(vm, position)? };
    // 8. Let start be the result of clamping pos between 0 and len.
    let start = clamp_index(pos, len);
    // 9. Let searchLength be the length of searchStr.
    let search_length = search_str.len();
    // 10. If searchLength = 0, return true.
    if search_length == 0 {
        return Ok(Value::TRUE);
    }
    // 11. Let end be start + searchLength.
    let end = start + search_length;
    // 12. If end > len, return false.
    if end > len {
        return Ok(Value::FALSE);
    }
    vm.charge(search_length as u64 / 8)?;
    // 13. Let substring be the substring of S from start to end.
    // 14. If substring is searchStr, return true.
    // 15. Return false.
    let s = vm.heap.flat_ref(id);
    Ok(Value::bool((0..search_length).all(|i| s.unit(start + i) == search_str.unit(i))))
}

/// ### 22.1.3.25 String.prototype.substring ( start, end )
/// https://tc39.es/ecma262/#sec-string.prototype.substring
fn substring(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let id = this_string_id(vm, this, "substring")?;
    // 3. Let len be the length of S.
    let len = vm.heap.flat_ref(id).len();
    // 4. Let intStart be ? ToIntegerOrInfinity(start).
    let int_start = to_integer_or_infinity(vm, arg(args, 0))?;
    // 5. If end is undefined, let intEnd be len; else let intEnd be ? ToIntegerOrInfinity(end).
    let end = arg(args, 1);
    let int_end = if end.is_undefined() { len as f64 } else { to_integer_or_infinity(vm, end)? };
    // 6. Let finalStart be the result of clamping intStart between 0 and len.
    let final_start = clamp_index(int_start, len);
    // 7. Let finalEnd be the result of clamping intEnd between 0 and len.
    let final_end = clamp_index(int_end, len);
    // 8. Let from be min(finalStart, finalEnd).
    let from = final_start.min(final_end);
    // 9. Let to be max(finalStart, finalEnd).
    let to = final_start.max(final_end);
    if from == to {
        return Ok(vm.str(""));
    }
    charge_units(vm, to - from)?;
    // 10. Return the substring of S from from to to.
    Ok(substring_of(vm, id, from, to))
}

/// ### 19.1.2 String.prototype.toLocaleLowerCase ( [ locales ] ) (ECMA-402)
fn to_locale_lower_case(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let s = this_str(vm, this, "toLocaleLowerCase")?;
    charge_units(vm, s.len())?;
    // 3. Return ? TransformCase(S, locales, lower).
    let mapped = crate::builtins::intl::case_mapping::transform_case(vm, &s, arg(args, 0), false)?;
    Ok(vm.js_str(mapped))
}

/// ### 19.1.3 String.prototype.toLocaleUpperCase ( [ locales ] ) (ECMA-402)
fn to_locale_upper_case(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let s = this_str(vm, this, "toLocaleUpperCase")?;
    charge_units(vm, s.len())?;
    // 3. Return ? TransformCase(S, locales, upper).
    let mapped = crate::builtins::intl::case_mapping::transform_case(vm, &s, arg(args, 0), true)?;
    Ok(vm.js_str(mapped))
}

/// ### 22.1.3.28 String.prototype.toLowerCase ( )
/// https://tc39.es/ecma262/#sec-string.prototype.tolowercase
fn to_lower_case(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let s = this_str(vm, this, "toLowerCase")?;
    charge_units(vm, s.len())?;
    // 3. Let sText be StringToCodePoints(S).
    // 4. Let lowerText be toLowercase(sText) according to the Unicode Default Case Conversion
    //    algorithm.
    // 5. Let L be CodePointsToString(lowerText).
    // 6. Return L.
    Ok(vm.js_str(convert_case(&s, false)))
}

/// ### 22.1.3.29 String.prototype.toString ( )
/// https://tc39.es/ecma262/#sec-string.prototype.tostring
fn to_string_method(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return ? ThisStringValue(this value).
    this_string_value(vm, this, "String.prototype.toString")
}

/// ThisStringValue (§22.1.3.35.1).
fn this_string_value(vm: &mut Vm, value: Value, method: &str) -> JsResult<Value> {
    // 1. If value is a String, return value.
    if value.is_string() {
        return Ok(value);
    }
    // 2. If value is an Object and value has a [[StringData]] internal slot, then
    //    a. Let s be value.[[StringData]]. b. Assert: s is a String. c. Return s.
    if let Some(o) = value.as_object() {
        if let Class::String(s) = vm.heap.obj(o).class {
            return Ok(Value::string(s));
        }
    }
    // 3. Throw a TypeError exception.
    Err(vm.type_error(format!("{method} requires that 'this' be a String")))
}

/// ### 22.1.3.30 String.prototype.toUpperCase ( )
/// https://tc39.es/ecma262/#sec-string.prototype.touppercase
fn to_upper_case(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // It behaves in exactly the same way as String.prototype.toLowerCase, except that the
    // String is mapped using the toUppercase algorithm of the Unicode Default Case Conversion.
    let s = this_str(vm, this, "toUpperCase")?;
    charge_units(vm, s.len())?;
    Ok(vm.js_str(convert_case(&s, true)))
}

/// Unicode default case conversion of the well-formed runs (full mappings, final sigma);
/// unpaired surrogates are left as they are.
pub(crate) fn convert_case(s: &JsStr, upper: bool) -> JsStr {
    // Fast path: ASCII maps byte for byte.
    if let JsStr::Latin1(b) = s {
        if b.is_ascii() {
            let mapped: Vec<u8> =
                b.iter().map(|c| if upper { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() }).collect();
            return JsStr::from_latin1(mapped);
        }
    }
    map_code_point_runs(s, |run| if upper { run.to_uppercase() } else { run.to_lowercase() })
}

/// Maps each maximal run of well-formed code points through `map` (case mappings look at
/// their neighbours: Final_Sigma, Lithuanian dots; normalization composes within a run),
/// keeping lone surrogates where they are: they are not characters.
pub(crate) fn map_code_point_runs(s: &JsStr, map: impl Fn(&str) -> String) -> JsStr {
    let mut out: Vec<u16> = Vec::with_capacity(s.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut Vec<u16>| {
        if run.is_empty() {
            return;
        }
        out.extend(map(run).encode_utf16());
        run.clear();
    };
    let mut k = 0;
    while k < s.len() {
        let (cp, count, unpaired) = code_point_at_index(s, k);
        match char::from_u32(cp).filter(|_| !unpaired) {
            Some(c) => run.push(c),
            None => {
                flush(&mut run, &mut out);
                out.push(cp as u16);
            }
        }
        k += count;
    }
    flush(&mut run, &mut out);
    JsStr::from_units(out)
}

/// ### 22.1.3.31 String.prototype.toWellFormed ( )
/// https://tc39.es/ecma262/#sec-string.prototype.towellformed
fn to_well_formed(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let s = this_str(vm, this, "toWellFormed")?;
    charge_units(vm, s.len())?;
    // 3. Let strLen be the length of S.
    // 4. Let k be 0.
    // 5. Let result be the empty String.
    let mut result: Vec<u16> = Vec::with_capacity(s.len());
    let mut k = 0;
    // 6. Repeat, while k < strLen,
    while k < s.len() {
        // a. Let cp be CodePointAt(S, k).
        let (cp, count, unpaired) = code_point_at_index(&s, k);
        // b. If cp.[[IsUnpairedSurrogate]] is true, then
        //    i. Set result to the string-concatenation of result and 0xFFFD (REPLACEMENT
        //       CHARACTER).
        // c. Else, i. Set result to the string-concatenation of result and
        //    UTF16EncodeCodePoint(cp.[[CodePoint]]).
        push_code_point(&mut result, if unpaired { 0xFFFD } else { cp });
        // d. Set k to k + cp.[[CodeUnitCount]].
        k += count;
    }
    // 7. Return result.
    Ok(units_value(vm, result))
}

/// ### 22.1.3.32 String.prototype.trim ( )
/// https://tc39.es/ecma262/#sec-string.prototype.trim
fn trim(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value.
    // 2. Return ? TrimString(S, start+end).
    trim_string(vm, this, true, true, "trim")
}

/// ### 22.1.3.33 String.prototype.trimEnd ( )
/// https://tc39.es/ecma262/#sec-string.prototype.trimend
fn trim_end(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value.
    // 2. Return ? TrimString(S, end).
    trim_string(vm, this, false, true, "trimEnd")
}

/// ### 22.1.3.34 String.prototype.trimStart ( )
/// https://tc39.es/ecma262/#sec-string.prototype.trimstart
fn trim_start(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value.
    // 2. Return ? TrimString(S, start).
    trim_string(vm, this, true, false, "trimStart")
}

/// TrimString (§22.1.3.32.1).
fn trim_string(vm: &mut Vm, string: Value, start: bool, end: bool, method: &str) -> JsResult<Value> {
    // 1. Let str be ? RequireObjectCoercible(string).
    // 2. Let S be ? ToString(str).
    let s = this_str(vm, string, method)?;
    vm.charge(s.len() as u64 / 16)?;
    // 3. If where is start, then a. Let T be the String value that is a copy of S with leading
    //    white space removed.
    // 4. Else if where is end, then a. Let T be the String value that is a copy of S with
    //    trailing white space removed.
    // 5. Else, a. Assert: where is start+end. b. Let T be the String value that is a copy of S
    //    with both leading and trailing white space removed.
    // 6. Return T.
    let (from, to) = trimmed_range(&s, start, end);
    if from == 0 && to == s.len() {
        if let Some(id) = string.as_string() {
            return Ok(Value::string(id));
        }
    }
    Ok(vm.js_str(s.slice(from, to)))
}

/// The range of `s` left after removing WhiteSpace and LineTerminator code units from the
/// chosen ends.
pub(crate) fn trimmed_range(s: &JsStr, start: bool, end: bool) -> (usize, usize) {
    let len = s.len();
    let mut from = 0;
    if start {
        while from < len && is_js_whitespace(s.unit(from)) {
            from += 1;
        }
    }
    let mut to = len;
    if end {
        while to > from && is_js_whitespace(s.unit(to - 1)) {
            to -= 1;
        }
    }
    (from, to)
}

/// ### 22.1.3.35 String.prototype.valueOf ( )
/// https://tc39.es/ecma262/#sec-string.prototype.valueof
fn value_of(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return ? ThisStringValue(this value).
    this_string_value(vm, this, "String.prototype.valueOf")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> JsStr {
        JsStr::from_str(text)
    }

    #[test]
    fn code_points_and_surrogates() {
        let pair = JsStr::from_units(vec![0xD83D, 0xDE00, 0xD800, 0x61]);
        assert_eq!(code_point_at_index(&pair, 0), (0x1F600, 2, false));
        assert_eq!(code_point_at_index(&pair, 1), (0xDE00, 1, true));
        assert_eq!(code_point_at_index(&pair, 2), (0xD800, 1, true));
        assert!(!is_string_well_formed_unicode(&pair));
        assert!(is_string_well_formed_unicode(&s("héllo")));
    }

    #[test]
    fn padding_and_trimming() {
        assert_eq!(string_pad(&s("abc"), 10, &s("12"), true).to_rust_string(), "1212121abc");
        assert_eq!(string_pad(&s("abc"), 6, &s("xy"), false).to_rust_string(), "abcxyx");
        assert_eq!(trimmed_range(&s(" \u{a0}ab\n"), true, true), (2, 4));
        assert_eq!(trimmed_range(&s("   "), true, true), (3, 3));
    }

    #[test]
    fn case_conversion() {
        assert_eq!(convert_case(&s("Straße"), true).to_rust_string(), "STRASSE");
        assert_eq!(convert_case(&s("ΟΔΟΣ"), false).to_rust_string(), "οδος");
        assert_eq!(convert_case(&s("İ"), false).units(), vec![0x69, 0x307]);
        let lone = JsStr::from_units(vec![0x41, 0xD800, 0x42]);
        assert_eq!(convert_case(&lone, false).units(), vec![0x61, 0xD800, 0x62]);
        assert_eq!(convert_case(&s("ÿ"), true).to_rust_string(), "Ÿ");
    }

    #[test]
    fn normalization_keeps_lone_surrogates() {
        let text = JsStr::from_units(vec![0x65, 0x301, 0xDC00, 0x41, 0x30A]);
        assert_eq!(normalize_units(&text, NormalForm::Nfc).units(), vec![0xE9, 0xDC00, 0xC5]);
        assert_eq!(normalize_units(&s("é"), NormalForm::Nfd).units(), vec![0x65, 0x301]);
        assert_eq!(normalize_units(&s("ﬁ"), NormalForm::Nfkc).to_rust_string(), "fi");
    }
}
