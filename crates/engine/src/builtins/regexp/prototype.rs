//! Properties of the RegExp prototype object (ECMA-262 §22.2.6).

use super::exec::{advance_last_index, advance_string_index, get_substitution, regexp_builtin_exec, regexp_exec};
use super::fast_path::{match_all_fast, pristine_matcher, replace_fast, split_fast};
use super::matcher::Flags;
use super::{
    get_flags_string, index_key, initialize_from, push_ascii, regexp_initialize, require_object, require_regexp,
    set_array_elements,
};
use crate::atoms::{atom, PropertyKey};
use crate::builtins::arg;
use crate::error::JsResult;
use crate::heap::object::{Class, IteratorState, Object};
use crate::runtime::call::{call, construct, is_callable};
use crate::runtime::convert::{
    to_boolean, to_integer_or_infinity, to_js_str, to_length, to_object, to_string, to_uint32,
};
use crate::runtime::object::species_constructor;
use crate::runtime::operators::same_value;
use crate::runtime::property::{get, length_of_array_like, set_or_throw};
use crate::string::JsStr;
use crate::value::Value;
use crate::vm::Vm;

// ---- 22.2.6 Properties of the RegExp prototype object

/// ### B.2.4.1 RegExp.prototype.compile ( pattern, flags )
/// https://tc39.es/ecma262/#sec-regexp.prototype.compile
pub(super) fn compile(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (pattern, flags) = (arg(args, 0), arg(args, 1));
    // 1. Let O be the this value.
    // 2. Perform ? RequireInternalSlot(O, [[RegExpMatcher]]).
    let o = require_regexp(vm, this, "RegExp.prototype.compile")?;
    // Legacy RegExp features: if O.[[LegacyFeaturesEnabled]] is false, throw a TypeError.
    if !super::legacy::legacy_enabled(vm, o) {
        return Err(vm.type_error("RegExp.prototype.compile called on a RegExp subclass instance"));
    }
    // 3. If pattern is an Object and pattern has a [[RegExpMatcher]] internal slot, then
    let own = pattern.as_object().and_then(|po| match &vm.heap.obj(po).class {
        Class::RegExp(d) => Some((d.source.clone(), d.flags.clone())),
        _ => None,
    });
    if let Some((p, f)) = own {
        // a. If flags is not undefined, throw a TypeError exception.
        if !flags.is_undefined() {
            return Err(vm.type_error("Cannot supply flags when constructing one RegExp from another"));
        }
        // b–c. Let P be pattern.[[OriginalSource]], F be pattern.[[OriginalFlags]].
        // 5. Return ? RegExpInitialize(O, P, F).
        initialize_from(vm, o, p, f)?;
    } else {
        // 4. Else, let P be pattern and F be flags.
        // 5. Return ? RegExpInitialize(O, P, F).
        regexp_initialize(vm, o, pattern, flags)?;
    }
    Ok(this)
}

/// ### 22.2.6.2 RegExp.prototype.exec ( string )
/// https://tc39.es/ecma262/#sec-regexp.prototype.exec
pub(super) fn exec(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let R be the this value.
    // 2. Perform ? RequireInternalSlot(R, [[RegExpMatcher]]).
    let r = require_regexp(vm, this, "RegExp.prototype.exec")?;
    // 3. Let S be ? ToString(string).
    let s = to_string(vm, arg(args, 0))?;
    vm.roots.push(Value::string(s));
    // 4. Return ? RegExpBuiltinExec(R, S).
    regexp_builtin_exec(vm, r, s)
}

/// ### 22.2.6.4 get RegExp.prototype.flags
/// https://tc39.es/ecma262/#sec-get-regexp.prototype.flags
pub(super) fn get_flags(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let R be the this value.
    // 2. If R is not an Object, throw a TypeError exception.
    let Some(r) = this.as_object() else {
        return Err(vm.type_error("RegExp.prototype.flags getter called on non-object"));
    };
    // 3. Let codeUnits be a new empty List.
    let mut code_units = String::new();
    // 4–19. For each flag, in the order "hasIndices" d, "global" g, "ignoreCase" i,
    //    "multiline" m, "dotAll" s, "unicode" u, "unicodeSets" v, "sticky" y: if
    //    ToBoolean(? Get(R, name)) is true, append the flag's code unit.
    for (name, c) in FLAG_PROPERTIES {
        let key = vm.key(name);
        let v = get(vm, r, key, this)?;
        if to_boolean(vm, v) {
            code_units.push(*c);
        }
    }
    // 20. Return the String value whose code units are the elements of codeUnits.
    Ok(vm.str(&code_units))
}

/// The flag accessors read by `get flags`, in its order.
pub(super) const FLAG_PROPERTIES: &[(&str, char)] = &[
    ("hasIndices", 'd'),
    ("global", 'g'),
    ("ignoreCase", 'i'),
    ("multiline", 'm'),
    ("dotAll", 's'),
    ("unicode", 'u'),
    ("unicodeSets", 'v'),
    ("sticky", 'y'),
];

/// RegExpHasFlag ( R, codeUnit ) (§22.2.6.4.1).
pub(super) fn regexp_has_flag(vm: &mut Vm, this: Value, pick: fn(Flags) -> bool, name: &str) -> JsResult<Value> {
    // 1. If R is not an Object, throw a TypeError exception.
    let Some(r) = this.as_object() else {
        return Err(vm.type_error(format!("RegExp.prototype.{name} getter called on non-object")));
    };
    // 2. If R does not have an [[OriginalFlags]] internal slot, then
    let flags = match &vm.heap.obj(r).class {
        Class::RegExp(d) => d.flags.clone(),
        _ => {
            // a. If SameValue(R, %RegExp.prototype%) is true, return undefined.
            if r == vm.realm.regexp_prototype {
                return Ok(Value::UNDEFINED);
            }
            // b. Otherwise, throw a TypeError exception.
            return Err(vm.type_error(format!("RegExp.prototype.{name} getter called on non-RegExp object")));
        }
    };
    // 3. Let flags be R.[[OriginalFlags]].
    // 4. If flags contains codeUnit, return true. 5. Return false.
    Ok(Value::bool(Flags::parse(&flags).is_some_and(pick)))
}

/// ### 22.2.6.3 get RegExp.prototype.dotAll
pub(super) fn get_dot_all(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.dot_all, "dotAll")
}

/// ### 22.2.6.5 get RegExp.prototype.global
pub(super) fn get_global(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.global, "global")
}

/// ### 22.2.6.6 get RegExp.prototype.hasIndices
pub(super) fn get_has_indices(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.has_indices, "hasIndices")
}

/// ### 22.2.6.7 get RegExp.prototype.ignoreCase
pub(super) fn get_ignore_case(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.ignore_case, "ignoreCase")
}

/// ### 22.2.6.10 get RegExp.prototype.multiline
pub(super) fn get_multiline(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.multiline, "multiline")
}

/// ### 22.2.6.15 get RegExp.prototype.sticky
pub(super) fn get_sticky(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.sticky, "sticky")
}

/// ### 22.2.6.18 get RegExp.prototype.unicode
pub(super) fn get_unicode(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.unicode, "unicode")
}

/// ### 22.2.6.19 get RegExp.prototype.unicodeSets
pub(super) fn get_unicode_sets(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.unicode_sets, "unicodeSets")
}

/// ### 22.2.6.8 RegExp.prototype [ %Symbol.match% ] ( string )
/// https://tc39.es/ecma262/#sec-regexp.prototype-%symbol.match%
pub(super) fn symbol_match(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let rx be the this value.
    // 2. If rx is not an Object, throw a TypeError exception.
    let rx = require_object(vm, this, "RegExp.prototype[Symbol.match]")?;
    // 3. Let S be ? ToString(string).
    let s = to_string(vm, arg(args, 0))?;
    vm.roots.push(Value::string(s));
    // Fast path: an unmodified global RegExp; every skipped Get/Set hits an untouched builtin.
    if let Some(m) = pristine_matcher(vm, rx, false)? {
        if m.flags.global {
            return match_all_fast(vm, rx, &m, s);
        }
    }
    // 4. Let flags be ? ToString(? Get(rx, "flags")).
    let flags = get_flags_string(vm, rx)?;
    // 5. If flags does not contain "g", then a. Return ? RegExpExec(rx, S).
    if !flags.contains(&u16::from(b'g')) {
        return regexp_exec(vm, rx, s);
    }
    // 6. Else,
    // a. If flags contains "u" or flags contains "v", let fullUnicode be true.
    let full_unicode = flags.contains(&u16::from(b'u')) || flags.contains(&u16::from(b'v'));
    // b. Perform ? Set(rx, "lastIndex", +0𝔽, true).
    set_or_throw(vm, rx, PropertyKey::Atom(atom::lastIndex), Value::int(0))?;
    // c. Let A be ! ArrayCreate(0).
    let a = vm.new_array(Vec::new());
    vm.roots.push(a);
    // d. Let n be 0.
    let mut matches: Vec<Value> = Vec::new();
    // e. Repeat,
    loop {
        // i. Let result be ? RegExpExec(rx, S).
        let result = regexp_exec(vm, rx, s)?;
        // ii. If result is null, then 1. If n = 0, return null. 2. Return A.
        let Some(ro) = result.as_object() else {
            if matches.is_empty() {
                return Ok(Value::NULL);
            }
            set_array_elements(vm, a, matches);
            return Ok(a);
        };
        // iii. Else,
        // 1. Let matchStr be ? ToString(? Get(result, "0")).
        let first = get(vm, ro, PropertyKey::Index(0), result)?;
        let match_str = to_string(vm, first)?;
        // 2. Perform ! CreateDataPropertyOrThrow(A, ! ToString(𝔽(n)), matchStr).
        matches.push(Value::string(match_str));
        vm.roots.push(Value::string(match_str));
        // 3. If matchStr is the empty String, then
        if vm.heap.string_len(match_str) == 0 {
            advance_last_index(vm, rx, full_unicode, s)?;
        }
        // 4. Set n to n + 1.
        vm.check_heap()?;
    }
}

/// ### 22.2.6.9 RegExp.prototype [ %Symbol.matchAll% ] ( string )
/// https://tc39.es/ecma262/#sec-regexp-prototype-%symbol.matchall%
pub(super) fn symbol_match_all(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let R be the this value.
    // 2. If R is not an Object, throw a TypeError exception.
    let r = require_object(vm, this, "RegExp.prototype[Symbol.matchAll]")?;
    // 3. Let S be ? ToString(string).
    let s = to_string(vm, arg(args, 0))?;
    vm.roots.push(Value::string(s));
    // 4. Let C be ? SpeciesConstructor(R, %RegExp%).
    let default = Value::object(vm.realm.regexp_constructor);
    let c = species_constructor(vm, r, default)?;
    vm.roots.push(c);
    // 5. Let flags be ? ToString(? Get(R, "flags")).
    let flags = get_flags_string(vm, r)?;
    let flags_v = vm.js_str(JsStr::from_units(flags.clone()));
    vm.roots.push(flags_v);
    // 6. Let matcher be ? Construct(C, « R, flags »).
    let matcher = construct(vm, c, &[this, flags_v], None)?;
    vm.roots.push(matcher);
    // 7. Let lastIndex be ? ToLength(? Get(R, "lastIndex")).
    let li = get(vm, r, PropertyKey::Atom(atom::lastIndex), this)?;
    let last_index = to_length(vm, li)?;
    // 8. Perform ? Set(matcher, "lastIndex", lastIndex, true).
    let mo = matcher.as_object().ok_or_else(|| vm.type_error("RegExp species constructor returned a non-object"))?;
    set_or_throw(vm, mo, PropertyKey::Atom(atom::lastIndex), Value::number(last_index as f64))?;
    // 9–10. global if flags contains "g".
    let global = flags.contains(&u16::from(b'g'));
    // 11–12. fullUnicode if flags contains "u" or "v".
    let unicode = flags.contains(&u16::from(b'u')) || flags.contains(&u16::from(b'v'));
    // 13. Return CreateRegExpStringIterator(matcher, S, global, fullUnicode).
    let state = IteratorState::RegExpString { regexp: matcher, string: Value::string(s), global, unicode, done: false };
    let proto = vm.realm.regexp_string_iterator_prototype;
    let it = vm.heap.alloc_object(Object::new(Some(proto), Class::Iterator(Box::new(state))));
    Ok(Value::object(it))
}

/// ### 22.2.6.11 RegExp.prototype [ %Symbol.replace% ] ( string, replaceValue )
/// https://tc39.es/ecma262/#sec-regexp.prototype-%symbol.replace%
pub(super) fn symbol_replace(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let mut replace_value = arg(args, 1);
    // 1. Let rx be the this value.
    // 2. If rx is not an Object, throw a TypeError exception.
    let rx = require_object(vm, this, "RegExp.prototype[Symbol.replace]")?;
    // 3. Let S be ? ToString(string).
    let s = to_string(vm, arg(args, 0))?;
    vm.roots.push(Value::string(s));
    // 4. Let lengthS be the length of S.
    let length_s = vm.heap.string_len(s);
    // 5. Let functionalReplace be IsCallable(replaceValue).
    let functional_replace = is_callable(vm, replace_value);
    // 6. If functionalReplace is false, then a. Set replaceValue to ? ToString(replaceValue).
    if !functional_replace {
        replace_value = Value::string(to_string(vm, replace_value)?);
        vm.roots.push(replace_value);
    }
    // Fast path: an unmodified RegExp collects its matches without observable steps.
    if let Some(m) = pristine_matcher(vm, rx, false)? {
        return replace_fast(vm, rx, &m, s, replace_value, functional_replace);
    }
    // 7. Let flags be ? ToString(? Get(rx, "flags")).
    let flags = get_flags_string(vm, rx)?;
    // 8. If flags contains "g", let global be true. Otherwise, let global be false.
    let global = flags.contains(&u16::from(b'g'));
    // 9. If global is true, then
    let full_unicode = flags.contains(&u16::from(b'u')) || flags.contains(&u16::from(b'v'));
    if global {
        // b. Perform ? Set(rx, "lastIndex", +0𝔽, true).
        set_or_throw(vm, rx, PropertyKey::Atom(atom::lastIndex), Value::int(0))?;
    }
    // 10. Let results be a new empty List.
    let mut results: Vec<Value> = Vec::new();
    // 11–12. Repeat, while done is false,
    loop {
        // a. Let result be ? RegExpExec(rx, S).
        let result = regexp_exec(vm, rx, s)?;
        // b. If result is null, set done to true.
        let Some(ro) = result.as_object() else { break };
        // c. i. Append result to results.
        results.push(result);
        vm.roots.push(result);
        // ii. If global is false, set done to true.
        if !global {
            break;
        }
        // iii. 1. Let matchStr be ? ToString(? Get(result, "0")).
        let first = get(vm, ro, PropertyKey::Index(0), result)?;
        let match_str = to_string(vm, first)?;
        // 2. If matchStr is the empty String, advance lastIndex.
        if vm.heap.string_len(match_str) == 0 {
            advance_last_index(vm, rx, full_unicode, s)?;
        }
        vm.check_heap()?;
    }
    // 13. Let accumulatedResult be the empty String.
    let mut accumulated: Vec<u16> = Vec::new();
    // 14. Let nextSourcePosition be 0.
    let mut next_source_position = 0usize;
    let subject = vm.heap.flat(s).clone();
    // 15. For each element result of results, do
    for result in results {
        let ro = result.as_object().ok_or_else(|| vm.type_error("exec result is not an object"))?;
        // a. Let resultLength be ? LengthOfArrayLike(result).
        let result_length = length_of_array_like(vm, ro)?;
        // b. Let nCaptures be max(resultLength - 1, 0).
        let n_captures = result_length.saturating_sub(1);
        // c. Let matched be ? ToString(? Get(result, "0")).
        let first = get(vm, ro, PropertyKey::Index(0), result)?;
        let matched_id = to_string(vm, first)?;
        vm.roots.push(Value::string(matched_id));
        let matched = vm.heap.flat(matched_id).clone();
        // d. Let matchLength be the length of matched.
        let match_length = matched.len();
        // e. Let position be ? ToIntegerOrInfinity(? Get(result, "index")).
        let index = get(vm, ro, PropertyKey::Atom(atom::index), result)?;
        let position = to_integer_or_infinity(vm, index)?;
        // f. Set position to the result of clamping position between 0 and lengthS.
        let position = position.clamp(0.0, length_s as f64) as usize;
        // g–i. Let captures be the ToString of each of result[1..=nCaptures] (undefined kept).
        let mut captures: Vec<Option<JsStr>> = Vec::new();
        let mut capture_values: Vec<Value> = Vec::new();
        let mut n = 1u64;
        while n <= n_captures {
            let key = index_key(vm, n);
            let cap_n = get(vm, ro, key, result)?;
            if cap_n.is_undefined() {
                captures.push(None);
                capture_values.push(Value::UNDEFINED);
            } else {
                let c = to_string(vm, cap_n)?;
                vm.roots.push(Value::string(c));
                captures.push(Some(vm.heap.flat(c).clone()));
                capture_values.push(Value::string(c));
            }
            n += 1;
        }
        // j. Let namedCaptures be ? Get(result, "groups").
        let mut named_captures = get(vm, ro, PropertyKey::Atom(atom::groups), result)?;
        vm.roots.push(named_captures);
        // k. If functionalReplace is true, then
        let replacement: JsStr = if functional_replace {
            // i. Let replacerArgs be « matched », captures, « 𝔽(position), S ».
            let mut replacer_args = Vec::with_capacity(capture_values.len() + 4);
            replacer_args.push(Value::string(matched_id));
            replacer_args.extend(capture_values);
            replacer_args.push(Value::number(position as f64));
            replacer_args.push(Value::string(s));
            // ii. If namedCaptures is not undefined, append namedCaptures.
            if !named_captures.is_undefined() {
                replacer_args.push(named_captures);
            }
            // iii. Let replacementValue be ? Call(replaceValue, undefined, replacerArgs).
            let replacement_value = call(vm, replace_value, Value::UNDEFINED, &replacer_args)?;
            // iv. Let replacement be ? ToString(replacementValue).
            to_js_str(vm, replacement_value)?
        } else {
            // l. i. If namedCaptures is not undefined, set it to ? ToObject(namedCaptures).
            if !named_captures.is_undefined() {
                named_captures = Value::object(to_object(vm, named_captures)?);
                vm.roots.push(named_captures);
            }
            // ii. Let replacement be ? GetSubstitution(matched, S, position, captures,
            //     namedCaptures, replaceValue).
            let template = match replace_value.as_string() {
                Some(t) => vm.heap.flat(t).clone(),
                None => JsStr::empty(),
            };
            get_substitution(vm, &matched, &subject, position, &captures, named_captures, &template)?
        };
        // m. If position ≥ nextSourcePosition, then
        if position >= next_source_position {
            // ii. Set accumulatedResult to accumulatedResult + S[nextSourcePosition..position]
            //     + replacement.
            accumulated.extend(subject.slice(next_source_position, position).iter());
            accumulated.extend(replacement.iter());
            // iii. Set nextSourcePosition to position + matchLength.
            next_source_position = position + match_length;
        }
        vm.charge(replacement.len() as u64)?;
    }
    // 16. If nextSourcePosition ≥ lengthS, return accumulatedResult.
    // 17. Return accumulatedResult + the substring of S from nextSourcePosition.
    if next_source_position < length_s {
        accumulated.extend(subject.slice(next_source_position, length_s).iter());
    }
    Ok(vm.js_str(JsStr::from_units(accumulated)))
}

/// ### 22.2.6.12 RegExp.prototype [ %Symbol.search% ] ( string )
/// https://tc39.es/ecma262/#sec-regexp.prototype-%symbol.search%
pub(super) fn symbol_search(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let rx be the this value.
    // 2. If rx is not an Object, throw a TypeError exception.
    let rx = require_object(vm, this, "RegExp.prototype[Symbol.search]")?;
    // 3. Let S be ? ToString(string).
    let s = to_string(vm, arg(args, 0))?;
    vm.roots.push(Value::string(s));
    let key = PropertyKey::Atom(atom::lastIndex);
    // 4. Let previousLastIndex be ? Get(rx, "lastIndex").
    let previous_last_index = get(vm, rx, key, this)?;
    vm.roots.push(previous_last_index);
    // 5. If SameValue(previousLastIndex, +0𝔽) is false, then
    if !same_value(previous_last_index, Value::int(0)) {
        // a. Perform ? Set(rx, "lastIndex", +0𝔽, true).
        set_or_throw(vm, rx, key, Value::int(0))?;
    }
    // 6. Let result be ? RegExpExec(rx, S).
    let result = regexp_exec(vm, rx, s)?;
    vm.roots.push(result);
    // 7. Let currentLastIndex be ? Get(rx, "lastIndex").
    let current_last_index = get(vm, rx, key, this)?;
    // 8. If SameValue(currentLastIndex, previousLastIndex) is false, then
    if !crate::runtime::operators::same_value_heap(vm, current_last_index, previous_last_index) {
        // a. Perform ? Set(rx, "lastIndex", previousLastIndex, true).
        set_or_throw(vm, rx, key, previous_last_index)?;
    }
    // 9. If result is null, return -1𝔽.
    let Some(ro) = result.as_object() else { return Ok(Value::int(-1)) };
    // 10. Return ? Get(result, "index").
    get(vm, ro, PropertyKey::Atom(atom::index), result)
}

/// ### 22.2.6.13 get RegExp.prototype.source
/// https://tc39.es/ecma262/#sec-get-regexp.prototype.source
pub(super) fn get_source(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let R be the this value.
    // 2. If R is not an Object, throw a TypeError exception.
    let Some(r) = this.as_object() else {
        return Err(vm.type_error("RegExp.prototype.source getter called on non-object"));
    };
    // 3. If R does not have an [[OriginalSource]] internal slot, then
    let src = match &vm.heap.obj(r).class {
        Class::RegExp(d) => d.source.clone(),
        _ => {
            // a. If SameValue(R, %RegExp.prototype%) is true, return "(?:)".
            if r == vm.realm.regexp_prototype {
                return Ok(vm.str("(?:)"));
            }
            // b. Otherwise, throw a TypeError exception.
            return Err(vm.type_error("RegExp.prototype.source getter called on non-RegExp object"));
        }
    };
    // 4–6. Return EscapeRegExpPattern(src, flags).
    Ok(vm.js_str(escape_regexp_pattern(&src)))
}

/// EscapeRegExpPattern ( P, F ) (§22.2.6.13.1): the source in a form that reparses as the
/// same pattern inside `/…/`, as V8 writes it — `/` escaped outside classes, line
/// terminators as escapes, the empty pattern as `(?:)`.
pub(super) fn escape_regexp_pattern(src: &JsStr) -> JsStr {
    if src.is_empty() {
        return JsStr::from_str("(?:)");
    }
    let units = src.units();
    let mut out: Vec<u16> = Vec::with_capacity(units.len() + 2);
    let mut in_class = false;
    let mut i = 0;
    while i < units.len() {
        let c = units[i];
        match c {
            0x5C => {
                // A backslash before a line terminator is dropped: the terminator is escaped.
                if units.get(i + 1).is_some_and(|&n| matches!(n, 0x0A | 0x0D | 0x2028 | 0x2029)) {
                    i += 1;
                    continue;
                }
                out.push(c);
                if let Some(&n) = units.get(i + 1) {
                    out.push(n);
                    i += 1;
                }
            }
            0x2F if !in_class => push_ascii(&mut out, "\\/"),
            0x5B => {
                in_class = true;
                out.push(c);
            }
            0x5D => {
                in_class = false;
                out.push(c);
            }
            0x0A => push_ascii(&mut out, "\\n"),
            0x0D => push_ascii(&mut out, "\\r"),
            0x2028 => push_ascii(&mut out, "\\u2028"),
            0x2029 => push_ascii(&mut out, "\\u2029"),
            _ => out.push(c),
        }
        i += 1;
    }
    JsStr::from_units(out)
}

/// ### 22.2.6.14 RegExp.prototype [ %Symbol.split% ] ( string, limit )
/// https://tc39.es/ecma262/#sec-regexp.prototype-%symbol.split%
pub(super) fn symbol_split(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let limit = arg(args, 1);
    // 1. Let rx be the this value.
    // 2. If rx is not an Object, throw a TypeError exception.
    let rx = require_object(vm, this, "RegExp.prototype[Symbol.split]")?;
    // 3. Let S be ? ToString(string).
    let s = to_string(vm, arg(args, 0))?;
    vm.roots.push(Value::string(s));
    // Fast path: an unmodified, non-sticky RegExp whose species is %RegExp%.
    if let Some(m) = pristine_matcher(vm, rx, true)? {
        if !m.flags.sticky {
            return split_fast(vm, &m, s, limit);
        }
    }
    // 4. Let C be ? SpeciesConstructor(rx, %RegExp%).
    let default = Value::object(vm.realm.regexp_constructor);
    let c = species_constructor(vm, rx, default)?;
    vm.roots.push(c);
    // 5. Let flags be ? ToString(? Get(rx, "flags")).
    let mut flags = get_flags_string(vm, rx)?;
    // 6. If flags contains "u" or flags contains "v", let unicodeMatching be true.
    let unicode_matching = flags.contains(&u16::from(b'u')) || flags.contains(&u16::from(b'v'));
    // 7. If flags contains "y", let newFlags be flags; else flags + "y".
    if !flags.contains(&u16::from(b'y')) {
        flags.push(u16::from(b'y'));
    }
    let new_flags = vm.js_str(JsStr::from_units(flags));
    vm.roots.push(new_flags);
    // 8. Let splitter be ? Construct(C, « rx, newFlags »).
    let splitter = construct(vm, c, &[this, new_flags], None)?;
    vm.roots.push(splitter);
    let splitter_o =
        splitter.as_object().ok_or_else(|| vm.type_error("RegExp species constructor returned a non-object"))?;
    // 9. Let A be ! ArrayCreate(0).
    let a = vm.new_array(Vec::new());
    vm.roots.push(a);
    let mut parts: Vec<Value> = Vec::new();
    // 10. Let lengthA be 0.
    // 11. If limit is undefined, let lim be 2^32 - 1; else let lim be ℝ(? ToUint32(limit)).
    let lim = if limit.is_undefined() { u32::MAX } else { to_uint32(vm, limit)? };
    // 12. If lim = 0, return A.
    if lim == 0 {
        return Ok(a);
    }
    // 13. If S is the empty String, then
    let size = vm.heap.string_len(s);
    if size == 0 {
        // a. Let z be ? RegExpExec(splitter, S).
        let z = regexp_exec(vm, splitter_o, s)?;
        // b. If z is not null, return A.
        if !z.is_null() {
            return Ok(a);
        }
        // c. Perform ! CreateDataPropertyOrThrow(A, "0", S). d. Return A.
        set_array_elements(vm, a, vec![Value::string(s)]);
        return Ok(a);
    }
    let subject = vm.heap.flat(s).clone();
    // 14. Let size be the length of S. 15. Let p be 0. 16. Let q be p.
    let (mut p, mut q) = (0usize, 0usize);
    let key = PropertyKey::Atom(atom::lastIndex);
    // 17. Repeat, while q < size,
    while q < size {
        // a. Perform ? Set(splitter, "lastIndex", 𝔽(q), true).
        set_or_throw(vm, splitter_o, key, Value::number(q as f64))?;
        // b. Let z be ? RegExpExec(splitter, S).
        let z = regexp_exec(vm, splitter_o, s)?;
        // c. If z is null, set q to AdvanceStringIndex(S, q, unicodeMatching).
        let Some(zo) = z.as_object() else {
            q = advance_string_index(&subject, q, unicode_matching);
            continue;
        };
        vm.roots.push(z);
        // d. Else,
        // i. Let e be ℝ(? ToLength(? Get(splitter, "lastIndex"))).
        let e = get(vm, splitter_o, key, splitter)?;
        // ii. Set e to min(e, size).
        let e = (to_length(vm, e)? as usize).min(size);
        // iii. If e = p, set q to AdvanceStringIndex(S, q, unicodeMatching).
        if e == p {
            q = advance_string_index(&subject, q, unicode_matching);
            continue;
        }
        // iv. 1. Let T be the substring of S from p to q.
        let t = vm.js_str(subject.slice(p, q.min(size).max(p)));
        // 2–3. Append T to A; 4. If lengthA = lim, return A.
        parts.push(t);
        vm.roots.push(t);
        if parts.len() as u64 == u64::from(lim) {
            set_array_elements(vm, a, parts);
            return Ok(a);
        }
        // 5. Set p to e.
        p = e;
        // 6. Let numberOfCaptures be ? LengthOfArrayLike(z).
        // 7. Set numberOfCaptures to max(numberOfCaptures - 1, 0).
        let number_of_captures = length_of_array_like(vm, zo)?.saturating_sub(1);
        // 8–9. For i in 1..=numberOfCaptures: append ? Get(z, ToString(i)).
        for i in 1..=number_of_captures {
            let key_i = index_key(vm, i);
            let next_capture = get(vm, zo, key_i, z)?;
            parts.push(next_capture);
            vm.roots.push(next_capture);
            if parts.len() as u64 == u64::from(lim) {
                set_array_elements(vm, a, parts);
                return Ok(a);
            }
        }
        // 10. Set q to p.
        q = p;
        vm.check_heap()?;
    }
    // 18. Let T be the substring of S from p to size.
    // 19. Perform ! CreateDataPropertyOrThrow(A, ! ToString(𝔽(lengthA)), T).
    let t = vm.js_str(subject.slice(p.min(size), size));
    parts.push(t);
    // 20. Return A.
    set_array_elements(vm, a, parts);
    Ok(a)
}

/// ### 22.2.6.16 RegExp.prototype.test ( S )
/// https://tc39.es/ecma262/#sec-regexp.prototype.test
pub(super) fn test(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let R be the this value.
    // 2. If R is not an Object, throw a TypeError exception.
    let r = require_object(vm, this, "RegExp.prototype.test")?;
    // 3. Let string be ? ToString(S).
    let s = to_string(vm, arg(args, 0))?;
    vm.roots.push(Value::string(s));
    // 4. Let match be ? RegExpExec(R, string).
    let m = regexp_exec(vm, r, s)?;
    // 5. If match is not null, return true; else return false.
    Ok(Value::bool(!m.is_null()))
}

/// ### 22.2.6.17 RegExp.prototype.toString ( )
/// https://tc39.es/ecma262/#sec-regexp.prototype.tostring
pub(super) fn to_string_method(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let R be the this value.
    // 2. If R is not an Object, throw a TypeError exception.
    let r = require_object(vm, this, "RegExp.prototype.toString")?;
    // 3. Let pattern be ? ToString(? Get(R, "source")).
    let source = get(vm, r, PropertyKey::Atom(atom::source), this)?;
    let pattern = to_js_str(vm, source)?;
    // 4. Let flags be ? ToString(? Get(R, "flags")).
    let flags = get_flags_string(vm, r)?;
    // 5. Let result be the string-concatenation of "/", pattern, "/", and flags.
    let mut result: Vec<u16> = Vec::with_capacity(pattern.len() + flags.len() + 2);
    result.push(u16::from(b'/'));
    result.extend(pattern.iter());
    result.push(u16::from(b'/'));
    result.extend(flags);
    // 6. Return result.
    Ok(vm.js_str(JsStr::from_units(result)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn escape_pattern_matches_v8() {
        let e = |s: &str| escape_regexp_pattern(&JsStr::from_str(s)).to_rust_string();
        assert_eq!(e(""), "(?:)");
        assert_eq!(e("/"), "\\/");
        assert_eq!(e("[/]"), "[/]");
        assert_eq!(e("a\nb"), "a\\nb");
        assert_eq!(e("\\\n"), "\\n");
        assert_eq!(e("\\/"), "\\/");
    }
}
