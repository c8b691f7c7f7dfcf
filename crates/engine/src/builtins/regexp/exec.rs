//! Abstract operations for RegExp matching (§22.2.7), RegExp String Iterator objects
//! (§22.2.9) and GetSubstitution (§22.1.3.19.1).

use super::fast_path::{builtin_ids, is_native};
use super::matcher::{is_lead, is_trail, match_string, matcher_of, RawMatch};
use crate::atoms::{atom, PropertyKey};
use crate::error::JsResult;
use crate::heap::object::{Class, IteratorState};
use crate::heap::shape::PropFlags;
use crate::runtime::call::{call, is_callable};
use crate::runtime::convert::{to_js_str, to_length, to_string};
use crate::runtime::property::{get, set_or_throw};
use crate::string::JsStr;
use crate::value::{ObjectId, StringId, Value};
use crate::vm::Vm;

// ---- 22.2.7 Abstract operations for RegExp matching

/// RegExpExec ( R, S ) (§22.2.7.1).
pub(super) fn regexp_exec(vm: &mut Vm, r: ObjectId, s: StringId) -> JsResult<Value> {
    // 1. Let exec be ? Get(R, "exec").
    let exec = get(vm, r, PropertyKey::Atom(atom::exec), Value::object(r))?;
    // 2. If IsCallable(exec) is true, then
    if is_callable(vm, exec) {
        // Fast path: the builtin exec on a RegExp skips a native call frame.
        if is_native(vm, exec, builtin_ids().exec) && matches!(vm.heap.obj(r).class, Class::RegExp(_)) {
            return regexp_builtin_exec(vm, r, s);
        }
        // a. Let result be ? Call(exec, R, « S »).
        let result = call(vm, exec, Value::object(r), &[Value::string(s)])?;
        // b. If result is not an Object and result is not null, throw a TypeError exception.
        if !result.is_object() && !result.is_null() {
            return Err(vm.type_error("exec result must be an object or null"));
        }
        // c. Return result.
        return Ok(result);
    }
    // 3. Perform ? RequireInternalSlot(R, [[RegExpMatcher]]).
    if !matches!(vm.heap.obj(r).class, Class::RegExp(_)) {
        return Err(vm.type_error("RegExp exec method called on an incompatible receiver"));
    }
    // 4. Return ? RegExpBuiltinExec(R, S).
    regexp_builtin_exec(vm, r, s)
}

/// RegExpBuiltinExec ( R, S ) (§22.2.7.2).
pub(super) fn regexp_builtin_exec(vm: &mut Vm, r: ObjectId, s: StringId) -> JsResult<Value> {
    let last_index_key = PropertyKey::Atom(atom::lastIndex);
    // 1. Let length be the length of S.
    let length = vm.heap.flat(s).len();
    // 2. Let lastIndex be ℝ(? ToLength(? Get(R, "lastIndex"))).
    let li = get(vm, r, last_index_key, Value::object(r))?;
    let mut last_index = to_length(vm, li)?;
    // 3. Let flags be R.[[OriginalFlags]].
    let Some(m) = matcher_of(vm, r)? else {
        return Err(vm.type_error("RegExp exec method called on an incompatible receiver"));
    };
    // 4–6. global, sticky, hasIndices.
    let (global, sticky) = (m.flags.global, m.flags.sticky);
    // 7. If global is false and sticky is false, set lastIndex to 0.
    if !global && !sticky {
        last_index = 0;
    }
    // 8–9. Let matcher be R.[[RegExpMatcher]]; fullUnicode for "u" or "v".
    // 10–12. Repeat: if lastIndex > length, fail; try the matcher at lastIndex; a failure
    //    of a sticky matcher fails; otherwise advance lastIndex (the matcher's search).
    let found = if last_index > length as u64 { None } else { match_string(vm, &m, s, last_index as usize)? };
    let Some(found) = found else {
        // 12.a / 12.c.i: if global or sticky, Perform ? Set(R, "lastIndex", +0𝔽, true).
        if global || sticky {
            set_or_throw(vm, r, last_index_key, Value::int(0))?;
        }
        // Return null.
        return Ok(Value::NULL);
    };
    // 13–15. Let e be r's endIndex (a code-unit index already).
    // 16. If global is true or sticky is true, Perform ? Set(R, "lastIndex", 𝔽(e), true).
    if global || sticky {
        set_or_throw(vm, r, last_index_key, Value::number(found.end as f64))?;
    }
    // Legacy RegExp features: UpdateLegacyRegExpStaticProperties or invalidate them.
    super::legacy::record_match(vm, r, s, &found);
    // 17–36. Build the match array.
    Ok(make_match_array(vm, s, &found, m.flags.has_indices))
}

/// RegExpBuiltinExec steps 17–36: the array for a successful match.
pub(super) fn make_match_array(vm: &mut Vm, s: StringId, found: &RawMatch, has_indices: bool) -> Value {
    // The pieces are cut while the subject is borrowed: copying the whole subject per match
    // made an `exec` loop over a long text quadratic.
    vm.heap.flat(s);
    let (whole, captures, named) = {
        let subject = vm.heap.flat_ref(s);
        let cut = |r: &Option<(usize, usize)>| r.map(|(a, b)| subject.slice(a, b));
        (
            subject.slice(found.start, found.end),
            found.captures.iter().map(cut).collect::<Vec<_>>(),
            found.named.iter().map(|(_, r)| cut(r)).collect::<Vec<_>>(),
        )
    };
    // 17. Let n be the number of elements in r's captures List.
    // 20. Let A be ! ArrayCreate(n + 1).
    // 27–33. A[0] is the matched substring; A[i] the ith capture or undefined.
    let mut elements = Vec::with_capacity(found.captures.len() + 1);
    elements.push(vm.js_str(whole));
    for c in captures {
        let v = match c {
            Some(piece) => vm.js_str(piece),
            None => Value::UNDEFINED,
        };
        elements.push(v);
    }
    let a = vm.new_array(elements);
    let Some(ao) = a.as_object() else { return a };
    // 22. Perform ! CreateDataPropertyOrThrow(A, "index", 𝔽(lastIndex)).
    vm.define_builtin(ao, PropertyKey::Atom(atom::index), Value::number(found.start as f64), PropFlags::DEFAULT);
    // 23. Perform ! CreateDataPropertyOrThrow(A, "input", S).
    vm.define_builtin(ao, PropertyKey::Atom(atom::input), Value::string(s), PropFlags::DEFAULT);
    // 30–31. If R contains any GroupName, let groups be OrdinaryObjectCreate(null);
    //    else undefined. 33.d: each named group's value is set on groups.
    let groups = if found.named.is_empty() {
        Value::UNDEFINED
    } else {
        let g = vm.heap.new_plain(None);
        for ((name, _), piece) in found.named.iter().zip(named) {
            let v = match piece {
                Some(piece) => vm.js_str(piece),
                None => Value::UNDEFINED,
            };
            let key = vm.key(name);
            vm.define_builtin(g, key, v, PropFlags::DEFAULT);
        }
        Value::object(g)
    };
    // 32. Perform ! CreateDataPropertyOrThrow(A, "groups", groups).
    vm.define_builtin(ao, PropertyKey::Atom(atom::groups), groups, PropFlags::DEFAULT);
    // 34. If hasIndices is true, then
    if has_indices {
        // a. Let indicesArray be MakeMatchIndicesIndexPairArray(S, indices, groupNames, hasGroups).
        let indices = make_match_indices_index_pair_array(vm, found);
        // b. Perform ! CreateDataPropertyOrThrow(A, "indices", indicesArray).
        vm.define_builtin(ao, PropertyKey::Atom(atom::indices), indices, PropFlags::DEFAULT);
    }
    // 35. Return A.
    a
}

/// MakeMatchIndicesIndexPairArray ( S, indices, groupNames, hasGroups ) (§22.2.7.8).
pub(super) fn make_match_indices_index_pair_array(vm: &mut Vm, found: &RawMatch) -> Value {
    let pair = |vm: &mut Vm, r: Option<(usize, usize)>| match r {
        // GetMatchIndexPair (§22.2.7.7): CreateArrayFromList(« 𝔽(start), 𝔽(end) »).
        Some((x, y)) => vm.new_array(vec![Value::number(x as f64), Value::number(y as f64)]),
        None => Value::UNDEFINED,
    };
    // 5. Let A be ! ArrayCreate(n). 9. A[i] = the index pair of indices[i] or undefined.
    let mut elements = vec![pair(vm, Some((found.start, found.end)))];
    for &c in &found.captures {
        let p = pair(vm, c);
        elements.push(p);
    }
    let a = vm.new_array(elements);
    let Some(ao) = a.as_object() else { return a };
    // 6–8. groups: OrdinaryObjectCreate(null) if hasGroups, else undefined; 9.e the pairs
    //    of named groups.
    let groups = if found.named.is_empty() {
        Value::UNDEFINED
    } else {
        let g = vm.heap.new_plain(None);
        for (name, range) in &found.named {
            let v = pair(vm, *range);
            let key = vm.key(name);
            vm.define_builtin(g, key, v, PropFlags::DEFAULT);
        }
        Value::object(g)
    };
    vm.define_builtin(ao, PropertyKey::Atom(atom::groups), groups, PropFlags::DEFAULT);
    // 10. Return A.
    a
}

/// AdvanceStringIndex ( S, index, unicode ) (§22.2.7.3).
pub(super) fn advance_string_index(s: &JsStr, index: usize, unicode: bool) -> usize {
    // 2. If unicode is false, return index + 1.
    if !unicode {
        return index + 1;
    }
    // 3. Let length be the length of S.
    // 4. If index + 1 ≥ length, return index + 1.
    if index + 1 >= s.len() {
        return index + 1;
    }
    // 5. Let cp be CodePointAt(S, index). 6. Return index + cp.[[CodeUnitCount]].
    if is_lead(s.unit(index)) && is_trail(s.unit(index + 1)) {
        index + 2
    } else {
        index + 1
    }
}

/// The empty-match step of the global loops: lastIndex = AdvanceStringIndex(S,
/// ToLength(Get(rx, "lastIndex")), fullUnicode).
pub(super) fn advance_last_index(vm: &mut Vm, rx: ObjectId, full_unicode: bool, s: StringId) -> JsResult<()> {
    let key = PropertyKey::Atom(atom::lastIndex);
    // a. Let thisIndex be ℝ(? ToLength(? Get(rx, "lastIndex"))).
    let li = get(vm, rx, key, Value::object(rx))?;
    let this_index = to_length(vm, li)?;
    // b. Let nextIndex be AdvanceStringIndex(S, thisIndex, fullUnicode).
    let next_index = if this_index >= vm.heap.string_len(s) as u64 {
        this_index + 1
    } else {
        advance_string_index(vm.heap.flat(s), this_index as usize, full_unicode) as u64
    };
    // c. Perform ? Set(rx, "lastIndex", 𝔽(nextIndex), true).
    set_or_throw(vm, rx, key, Value::number(next_index as f64))
}

// ---- 22.2.9 RegExp String Iterator objects

/// ### 22.2.9.2.1 %RegExpStringIteratorPrototype%.next ( )
/// https://tc39.es/ecma262/#sec-%regexpstringiteratorprototype%.next
pub(super) fn regexp_string_iterator_next(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // GeneratorValidate: this must be a RegExp String Iterator.
    let state = this.as_object().and_then(|o| match &vm.heap.obj(o).class {
        Class::Iterator(it) => match &**it {
            IteratorState::RegExpString { regexp, string, global, unicode, done } => {
                Some((o, *regexp, *string, *global, *unicode, *done))
            }
            _ => None,
        },
        _ => None,
    });
    let Some((it, regexp, string, global, full_unicode, done)) = state else {
        return Err(vm.type_error("%RegExpStringIterator%.next called on an incompatible receiver"));
    };
    if done {
        return Ok(crate::runtime::iterator::create_iter_result_object(vm, Value::UNDEFINED, true));
    }
    let r = match regexp_string_iterator_step(vm, regexp, string, global, full_unicode) {
        Ok(Some(m)) => {
            if !global {
                set_iterator_done(vm, it);
            }
            m
        }
        Ok(None) => {
            set_iterator_done(vm, it);
            return Ok(crate::runtime::iterator::create_iter_result_object(vm, Value::UNDEFINED, true));
        }
        Err(e) => {
            // An abrupt completion ends the generator.
            set_iterator_done(vm, it);
            return Err(e);
        }
    };
    Ok(crate::runtime::iterator::create_iter_result_object(vm, r, false))
}

/// CreateRegExpStringIterator's closure (§22.2.9.1) up to its next yield: the next match, or
/// None when it returns.
pub(super) fn regexp_string_iterator_step(
    vm: &mut Vm,
    regexp: Value,
    string: Value,
    global: bool,
    full_unicode: bool,
) -> JsResult<Option<Value>> {
    let (Some(r), Some(s)) = (regexp.as_object(), string.as_string()) else {
        return Err(vm.type_error("corrupt RegExp String Iterator"));
    };
    // a. Repeat,
    // i. Let match be ? RegExpExec(R, S).
    let m = regexp_exec(vm, r, s)?;
    // ii. If match is null, then 1. Return undefined.
    let Some(mo) = m.as_object() else { return Ok(None) };
    // iii. If global is false, then 1. Perform ? GeneratorYield(CreateIteratorResultObject(match,
    //     false)). 2. Return undefined.
    if !global {
        return Ok(Some(m));
    }
    vm.roots.push(m);
    // iv. Let matchStr be ? ToString(? Get(match, "0")).
    let first = get(vm, mo, PropertyKey::Index(0), m)?;
    let match_str = to_string(vm, first)?;
    // v. If matchStr is the empty String, then advance lastIndex.
    if vm.heap.string_len(match_str) == 0 {
        advance_last_index(vm, r, full_unicode, s)?;
    }
    // vi. Perform ? GeneratorYield(CreateIteratorResultObject(match, false)).
    Ok(Some(m))
}

pub(super) fn set_iterator_done(vm: &mut Vm, it: ObjectId) {
    if let Class::Iterator(state) = &mut vm.heap.obj_mut(it).class {
        if let IteratorState::RegExpString { done, .. } = &mut **state {
            *done = true;
        }
    }
}

// ---- 22.1.3.19.1 GetSubstitution

/// GetSubstitution ( matched, str, position, captures, namedCaptures, replacementTemplate )
/// (§22.1.3.19.1), shared with `String.prototype.replace`. `named_captures` is undefined or
/// an object; `captures[i]` is capture i + 1 (None when undefined).
pub fn get_substitution(
    vm: &mut Vm,
    matched: &JsStr,
    s: &JsStr,
    position: usize,
    captures: &[Option<JsStr>],
    named_captures: Value,
    template: &JsStr,
) -> JsResult<JsStr> {
    let mut result = Vec::new();
    append_substitution(vm, &mut result, matched, s, position, captures, named_captures, template)?;
    Ok(JsStr::from_units(result))
}

/// GetSubstitution, appending to `result`.
#[allow(clippy::too_many_arguments)]
pub(super) fn append_substitution(
    vm: &mut Vm,
    result: &mut Vec<u16>,
    matched: &JsStr,
    s: &JsStr,
    position: usize,
    captures: &[Option<JsStr>],
    named_captures: Value,
    template: &JsStr,
) -> JsResult<()> {
    const DOLLAR: u16 = 0x24;
    let digit = |c: Option<u16>| c.filter(|c| (0x30..=0x39).contains(c)).map(|c| usize::from(c - 0x30));
    // 1. Let stringLength be the length of str.
    let string_length = s.len();
    // 3–4. Let result be the empty String; let templateRemainder be replacementTemplate.
    let t = template.units();
    let at = |i: usize| t.get(i).copied();
    let mut i = 0;
    // 5. Repeat, while templateRemainder is not the empty String,
    while i < t.len() {
        let c = t[i];
        if c != DOLLAR {
            // h. Else, ref is the first code unit; refReplacement is ref.
            let next = t[i..].iter().position(|&u| u == DOLLAR).map_or(t.len(), |p| i + p);
            result.extend_from_slice(&t[i..next]);
            i = next;
            continue;
        }
        match at(i + 1) {
            // b. "$$": refReplacement is "$".
            Some(DOLLAR) => {
                result.push(DOLLAR);
                i += 2;
            }
            // c. "$`": the substring of str from 0 to position.
            Some(0x60) => {
                result.extend(s.slice(0, position.min(string_length)).iter());
                i += 2;
            }
            // d. "$&": matched.
            Some(0x26) => {
                result.extend(matched.iter());
                i += 2;
            }
            // e. "$'": the substring of str from min(position + matchLength, stringLength).
            Some(0x27) => {
                let tail_pos = (position + matched.len()).min(string_length);
                result.extend(s.slice(tail_pos, string_length).iter());
                i += 2;
            }
            // f. "$" followed by one or more decimal digits.
            next if digit(next).is_some() => {
                let d1 = digit(next).unwrap_or(0);
                let capture_len = captures.len();
                // i–vi. Two digits if present and in range, else one.
                let (index, digit_count) = match digit(at(i + 2)) {
                    Some(d2) if d1 * 10 + d2 <= capture_len => (d1 * 10 + d2, 2),
                    _ => (d1, 1),
                };
                // viii. If 1 ≤ index ≤ captureLen, the capture (or "" if undefined).
                if (1..=capture_len).contains(&index) {
                    if let Some(Some(cap)) = captures.get(index - 1) {
                        result.extend(cap.iter());
                    }
                } else {
                    // ix. Else, refReplacement is ref.
                    result.extend_from_slice(&t[i..i + 1 + digit_count]);
                }
                i += 1 + digit_count;
            }
            // g. "$<".
            Some(0x3C) => {
                // i. Let gtPos be StringIndexOf(templateRemainder, ">", 0).
                let gt_pos = t[i..].iter().position(|&u| u == 0x3E).map(|p| i + p);
                match gt_pos {
                    // ii. If gtPos = -1 or namedCaptures is undefined, ref is "$<".
                    Some(gt) if !named_captures.is_undefined() => {
                        // iii. 2. Let groupName be the substring from 2 to gtPos.
                        let group_name = JsStr::from_units(t[i + 2..gt].to_vec());
                        // 4. Let capture be ? Get(namedCaptures, groupName).
                        let Some(nc) = named_captures.as_object() else {
                            return Err(vm.type_error("named captures is not an object"));
                        };
                        let key = vm.heap.atoms.key_for(&group_name);
                        let capture = get(vm, nc, key, named_captures)?;
                        // 5–6. undefined → ""; else ? ToString(capture).
                        if !capture.is_undefined() {
                            let cs = to_js_str(vm, capture)?;
                            result.extend(cs.iter());
                        }
                        i = gt + 1;
                    }
                    _ => {
                        result.extend_from_slice(&t[i..i + 2]);
                        i += 2;
                    }
                }
            }
            // h. A lone "$".
            _ => {
                result.push(DOLLAR);
                i += 1;
            }
        }
    }
    // 6. Return result.
    Ok(())
}
