//! String.prototype.replace and replaceAll, and GetSubstitution (§22.1.3.19.1).

use super::*;
use crate::string::StrBuilder;

/// ### 22.1.3.19 String.prototype.replace ( searchValue, replaceValue )
/// https://tc39.es/ecma262/#sec-string.prototype.replace
pub(super) fn replace(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (search_value, replace_value) = (arg(args, 0), arg(args, 1));
    // 1. Let O be the this value.
    // 2. Perform ? RequireObjectCoercible(O).
    require_object_coercible(vm, this, "replace")?;
    // 3. If searchValue is an Object, then
    if search_value.is_object() {
        // a. Let replacer be ? GetMethod(searchValue, %Symbol.replace%).
        let key = PropertyKey::Symbol(vm.symbols.replace);
        // b. If replacer is not undefined, then
        if let Some(replacer) = get_method(vm, search_value, key)? {
            // i. Return ? Call(replacer, searchValue, « O, replaceValue »).
            return call(vm, replacer, search_value, &[this, replace_value]);
        }
    }
    // 4. Let string be ? ToString(O).
    let string_id = to_string(vm, this)?;
    vm.roots.push(Value::string(string_id));
    // 5. Let searchString be ? ToString(searchValue).
    let search_id = to_string(vm, search_value)?;
    vm.roots.push(Value::string(search_id));
    // 6. Let functionalReplace be IsCallable(replaceValue).
    let functional_replace = is_callable(vm, replace_value);
    // 7. If functionalReplace is false, then
    //    a. Set replaceValue to ? ToString(replaceValue).
    let template = if functional_replace { None } else { Some(to_js_str(vm, replace_value)?) };
    let string = vm.heap.flat(string_id).clone();
    let search_string = vm.heap.flat(search_id).clone();
    // 8. Let searchLength be the length of searchString.
    let search_length = search_string.len();
    vm.charge(string.len() as u64 / 8)?;
    // 9. Let position be StringIndexOf(string, searchString, 0).
    // 10. If position is not-found, return string.
    let Some(position) = string_index_of(&string, &search_string, 0) else {
        return Ok(Value::string(string_id));
    };
    // 11. Let preceding be the substring of string from 0 to position.
    // 12. Let following be the substring of string from position + searchLength.
    // 13. If functionalReplace is true, then
    let replacement = match template {
        None => {
            // a. Let replacement be ? ToString(? Call(replaceValue, undefined, « searchString,
            //    𝔽(position), string »)).
            let r = call(
                vm,
                replace_value,
                Value::UNDEFINED,
                &[Value::string(search_id), Value::number(position as f64), Value::string(string_id)],
            )?;
            to_js_str(vm, r)?
        }
        // 14. Else,
        Some(template) => {
            // a. Assert: replaceValue is a String.
            // b. Let captures be a new empty List.
            // c. Let replacement be ! GetSubstitution(searchString, string, position, captures,
            //    undefined, replaceValue).
            get_substitution(vm, &search_string, &string, position, &[], Value::UNDEFINED, &template)?
        }
    };
    // 15. Return the string-concatenation of preceding, replacement, and following.
    let length = string.len() - search_length + replacement.len();
    vm.check_string_growth(length as u64)?;
    charge_units(vm, length)?;
    let mut out = StrBuilder::with_capacity(length);
    out.push_range(&string, 0, position);
    out.push_str(&replacement);
    out.push_range(&string, position + search_length, string.len());
    Ok(vm.js_str(out.finish()))
}

/// GetSubstitution (§22.1.3.19.1): expand `$$`, `$&`, `` $` ``, `$'`, `$n`, `$nn` and
/// `$<name>` in `template`. `captures` are the capture groups 1..; `named_captures` is the
/// groups object or undefined. Only `$<name>` can run JS (a getter on the groups object).
pub(crate) fn get_substitution(
    vm: &mut Vm,
    matched: &JsStr,
    string: &JsStr,
    position: usize,
    captures: &[Option<JsStr>],
    named_captures: Value,
    template: &JsStr,
) -> JsResult<JsStr> {
    const DOLLAR: u16 = b'$' as u16;
    let is_digit = |c: u16| (u16::from(b'0')..=u16::from(b'9')).contains(&c);
    // 1. Let stringLength be the length of str.
    let string_length = string.len();
    // 2. Assert: position ≤ stringLength.
    let position = position.min(string_length);
    // 3. Let result be the empty String.
    let mut result: Vec<u16> = Vec::with_capacity(template.len());
    // 4. Let templateRemainder be replacementTemplate.
    let t = template;
    let tlen = t.len();
    let at = |i: usize| if i < tlen { t.unit(i) } else { 0 };
    let mut k = 0;
    // 5. Repeat, while templateRemainder is not the empty String,
    while k < tlen {
        vm.charge(1)?;
        let c0 = t.unit(k);
        // (A run without `$` is copied as is: each of its code units is a ref of length 1.)
        if c0 != DOLLAR {
            result.push(c0);
            k += 1;
            continue;
        }
        let c1 = at(k + 1);
        // a. NOTE: The following steps isolate ref (a prefix of templateRemainder), determine
        //    refReplacement (its replacement), and then append that replacement to result.
        let ref_length: usize;
        if k + 1 < tlen && c1 == DOLLAR {
            // b. If templateRemainder starts with "$$", then
            //    i. Let ref be "$$". ii. Let refReplacement be "$".
            ref_length = 2;
            result.push(DOLLAR);
        } else if k + 1 < tlen && c1 == u16::from(b'`') {
            // c. Else if templateRemainder starts with "$`", then
            //    i. Let ref be "$`". ii. Let refReplacement be the substring of str from 0 to
            //    position.
            ref_length = 2;
            result.extend((0..position).map(|i| string.unit(i)));
        } else if k + 1 < tlen && c1 == u16::from(b'&') {
            // d. Else if templateRemainder starts with "$&", then
            //    i. Let ref be "$&". ii. Let refReplacement be matched.
            ref_length = 2;
            result.extend(matched.iter());
        } else if k + 1 < tlen && c1 == u16::from(b'\'') {
            // e. Else if templateRemainder starts with "$'" (DOLLAR SIGN followed by
            //    APOSTROPHE), then
            //    i. Let ref be "$'". ii. Let matchLength be the length of matched.
            //    iii. Let tailPos be position + matchLength.
            //    iv. Let refReplacement be the substring of str from min(tailPos, stringLength).
            //    v. NOTE: tailPos can exceed stringLength only if this abstract operation was
            //       invoked by a call to the intrinsic %Symbol.replace% method of
            //       %RegExp.prototype% on an object whose "exec" property is not the intrinsic
            //       %RegExp.prototype.exec%.
            ref_length = 2;
            let tail_pos = (position + matched.len()).min(string_length);
            result.extend((tail_pos..string_length).map(|i| string.unit(i)));
        } else if k + 1 < tlen && is_digit(c1) {
            // f. Else if templateRemainder starts with "$" followed by 1 or more decimal
            //    digits, then
            //    i. If templateRemainder starts with "$" followed by 2 or more decimal digits,
            //       let digitCount be 2. Otherwise, let digitCount be 1.
            let mut digit_count = if k + 2 < tlen && is_digit(at(k + 2)) { 2 } else { 1 };
            //    ii. Let digits be the substring of templateRemainder from 1 to 1 + digitCount.
            //    iii. Let index be ℝ(StringToNumber(digits)).
            let d1 = usize::from(c1 - u16::from(b'0'));
            let mut index = if digit_count == 2 { d1 * 10 + usize::from(at(k + 2) - u16::from(b'0')) } else { d1 };
            //    iv. Assert: 0 ≤ index ≤ 99.
            //    v. Let captureLen be the number of elements in captures.
            let capture_len = captures.len();
            //    vi. If index > captureLen and digitCount = 2, then
            if index > capture_len && digit_count == 2 {
                // 1. NOTE: When a two-digit replacement pattern specifies an index exceeding
                //    the count of capturing groups, it is reinterpreted as a one-digit
                //    replacement pattern followed by a literal digit.
                // 2. Set digitCount to 1.
                // 3. Set digits to the substring of digits from 0 to 1.
                // 4. Set index to ℝ(StringToNumber(digits)).
                digit_count = 1;
                index = d1;
            }
            //    vii. Let ref be the substring of templateRemainder from 0 to 1 + digitCount.
            ref_length = 1 + digit_count;
            //    viii. If 1 ≤ index ≤ captureLen, then
            if (1..=capture_len).contains(&index) {
                // 1. Let capture be captures[index - 1].
                // 2. If capture is undefined, then a. Let refReplacement be the empty String.
                // 3. Else, a. Let refReplacement be capture.
                if let Some(capture) = &captures[index - 1] {
                    result.extend(capture.iter());
                }
            } else {
                // ix. Else, 1. Let refReplacement be ref.
                result.extend((k..k + ref_length).map(|i| t.unit(i)));
            }
        } else if k + 1 < tlen && c1 == u16::from(b'<') {
            // g. Else if templateRemainder starts with "$<", then
            //    i. Let gtPos be StringIndexOf(templateRemainder, ">", 0).
            let gt_pos = (k..tlen).find(|&i| t.unit(i) == u16::from(b'>'));
            match gt_pos {
                //    ii. If gtPos is not-found or namedCaptures is undefined, then
                //        1. Let ref be "$<". 2. Let refReplacement be ref.
                Some(gt) if !named_captures.is_undefined() => {
                    // iii. Else,
                    //      1. Let ref be the substring of templateRemainder from 0 to gtPos + 1.
                    ref_length = gt + 1 - k;
                    //      2. Let groupName be the substring of templateRemainder from 2 to
                    //         gtPos.
                    let group_name = t.slice(k + 2, gt);
                    //      3. Assert: namedCaptures is an Object.
                    //      4. Let capture be ? Get(namedCaptures, groupName).
                    let capture = match named_captures.as_object() {
                        Some(nc) => {
                            let key = vm.heap.atoms.key_for(&group_name);
                            get(vm, nc, key, named_captures)?
                        }
                        None => Value::UNDEFINED,
                    };
                    //      5. If capture is undefined, then
                    //         a. Let refReplacement be the empty String.
                    //      6. Else, a. Let refReplacement be ? ToString(capture).
                    if !capture.is_undefined() {
                        let c = to_js_str(vm, capture)?;
                        result.extend(c.iter());
                    }
                }
                _ => {
                    ref_length = 2;
                    result.extend([DOLLAR, u16::from(b'<')]);
                }
            }
        } else {
            // h. Else, i. Let ref be the substring of templateRemainder from 0 to 1.
            //    ii. Let refReplacement be ref.
            ref_length = 1;
            result.push(DOLLAR);
        }
        // i. Let refLength be the length of ref.
        // j. Set templateRemainder to the substring of templateRemainder from refLength.
        // k. Set result to the string-concatenation of result and refReplacement.
        k += ref_length;
        vm.check_string_growth(result.len() as u64)?;
    }
    // 6. Return result.
    Ok(JsStr::from_units(result))
}

/// ### 22.1.3.20 String.prototype.replaceAll ( searchValue, replaceValue )
/// https://tc39.es/ecma262/#sec-string.prototype.replaceall
pub(super) fn replace_all(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (search_value, replace_value) = (arg(args, 0), arg(args, 1));
    // 1. Let O be the this value.
    // 2. Perform ? RequireObjectCoercible(O).
    require_object_coercible(vm, this, "replaceAll")?;
    // 3. If searchValue is an Object, then
    if let Some(so) = search_value.as_object() {
        // a. Let isRegExp be ? IsRegExp(searchValue).
        // b. If isRegExp is true, then
        if is_regexp(vm, search_value)? {
            // i. Let flags be ? Get(searchValue, "flags").
            let flags = get(vm, so, PropertyKey::Atom(atom::flags), search_value)?;
            // ii. Perform ? RequireObjectCoercible(flags).
            if flags.is_nullish() {
                return Err(vm.type_error("String.prototype.replaceAll called on null or undefined"));
            }
            // iii. If ? ToString(flags) does not contain "g", throw a TypeError exception.
            let flags = to_js_str(vm, flags)?;
            if !flags.iter().any(|c| c == u16::from(b'g')) {
                return Err(vm.type_error("String.prototype.replaceAll called with a non-global RegExp argument"));
            }
        }
        // c. Let replacer be ? GetMethod(searchValue, %Symbol.replace%).
        let key = PropertyKey::Symbol(vm.symbols.replace);
        // d. If replacer is not undefined, then
        if let Some(replacer) = get_method(vm, search_value, key)? {
            // i. Return ? Call(replacer, searchValue, « O, replaceValue »).
            return call(vm, replacer, search_value, &[this, replace_value]);
        }
    }
    // 4. Let string be ? ToString(O).
    let string_id = to_string(vm, this)?;
    vm.roots.push(Value::string(string_id));
    // 5. Let searchString be ? ToString(searchValue).
    let search_id = to_string(vm, search_value)?;
    vm.roots.push(Value::string(search_id));
    // 6. Let functionalReplace be IsCallable(replaceValue).
    let functional_replace = is_callable(vm, replace_value);
    // 7. If functionalReplace is false, then
    //    a. Set replaceValue to ? ToString(replaceValue).
    let template = if functional_replace { None } else { Some(to_js_str(vm, replace_value)?) };
    let string = vm.heap.flat(string_id).clone();
    let search_string = vm.heap.flat(search_id).clone();
    // 8. Let searchLength be the length of searchString.
    let search_length = search_string.len();
    // 9. Let advanceBy be max(1, searchLength).
    let advance_by = search_length.max(1);
    // 10. Let matchPositions be a new empty List.
    let mut match_positions: Vec<usize> = Vec::new();
    // 11. Let position be StringIndexOf(string, searchString, 0).
    let mut position = string_index_of(&string, &search_string, 0);
    // 12. Repeat, while position is not not-found,
    while let Some(p) = position {
        // a. Append position to matchPositions.
        match_positions.push(p);
        // b. Set position to StringIndexOf(string, searchString, position + advanceBy).
        position = string_index_of(&string, &search_string, p + advance_by);
    }
    vm.charge((string.len() + match_positions.len()) as u64 / 8)?;
    // 13. Let endOfLastMatch be 0.
    let mut end_of_last_match = 0;
    // 14. Let result be the empty String.
    let mut result = StrBuilder::with_capacity(string.len());
    // 15. For each element p of matchPositions, do
    for p in match_positions {
        // a. Let preserved be the substring of string from endOfLastMatch to p.
        result.push_range(&string, end_of_last_match, p);
        // b. If functionalReplace is true, then
        let replacement = match &template {
            None => {
                // i. Let replacement be ? ToString(? Call(replaceValue, undefined,
                //    « searchString, 𝔽(p), string »)).
                let r = call(
                    vm,
                    replace_value,
                    Value::UNDEFINED,
                    &[Value::string(search_id), Value::number(p as f64), Value::string(string_id)],
                )?;
                to_js_str(vm, r)?
            }
            // c. Else,
            Some(template) => {
                // i. Assert: replaceValue is a String.
                // ii. Let captures be a new empty List.
                // iii. Let replacement be ! GetSubstitution(searchString, string, p, captures,
                //      undefined, replaceValue).
                get_substitution(vm, &search_string, &string, p, &[], Value::UNDEFINED, template)?
            }
        };
        // d. Set result to the string-concatenation of result, preserved, and replacement.
        vm.check_string_growth((result.len() + replacement.len()) as u64)?;
        result.push_str(&replacement);
        // e. Set endOfLastMatch to p + searchLength.
        end_of_last_match = p + search_length;
    }
    // 16. If endOfLastMatch < the length of string, then
    //     a. Set result to the string-concatenation of result and the substring of string from
    //        endOfLastMatch.
    charge_units(vm, result.len() + string.len() - end_of_last_match)?;
    result.push_range(&string, end_of_last_match, string.len());
    // 17. Return result.
    Ok(vm.js_str(result.finish()))
}
