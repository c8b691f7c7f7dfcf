//! String.prototype methods of Annex B (§B.2.2): substr and the HTML methods.

use super::*;

// ---- Annex B

/// ### B.2.2.1 String.prototype.substr ( start, length )
/// https://tc39.es/ecma262/#sec-string.prototype.substr
pub(super) fn substr(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be ? RequireObjectCoercible(this value).
    // 2. Let S be ? ToString(O).
    let id = this_string_id(vm, this, "substr")?;
    // 3. Let size be the length of S.
    let size = vm.heap.flat_ref(id).len();
    // 4. Let intStart be ? ToIntegerOrInfinity(start).
    let int_start = to_integer_or_infinity(vm, arg(args, 0))?;
    // 5. If intStart = -∞, set intStart to 0.
    // 6. Else if intStart < 0, set intStart to max(size + intStart, 0).
    // 7. Else, set intStart to min(intStart, size).
    let int_start = relative_to_len(int_start, size);
    // 8. If length is undefined, let intLength be size; otherwise let intLength be
    //    ? ToIntegerOrInfinity(length).
    let length = arg(args, 1);
    let int_length = if length.is_undefined() { size as f64 } else { to_integer_or_infinity(vm, length)? };
    // 9. Set intLength to the result of clamping intLength between 0 and size.
    let int_length = clamp_index(int_length, size);
    // 10. Let intEnd be min(intStart + intLength, size).
    let int_end = (int_start + int_length).min(size);
    if int_start >= int_end {
        return Ok(vm.str(""));
    }
    charge_units(vm, int_end - int_start)?;
    // 11. Return the substring of S from intStart to intEnd.
    Ok(substring_of(vm, id, int_start, int_end))
}

/// CreateHTML (§B.2.2.2.1).
fn create_html(vm: &mut Vm, string: Value, tag: &str, attribute: &str, value: Value, method: &str) -> JsResult<Value> {
    // 1. Let str be ? RequireObjectCoercible(string).
    // 2. Let S be ? ToString(str).
    let s = this_str(vm, string, method)?;
    // 3. Let p1 be the string-concatenation of "<" and tag.
    let mut p: Vec<u16> = format!("<{tag}").encode_utf16().collect();
    // 4. If attribute is not the empty String, then
    if !attribute.is_empty() {
        // a. Let V be ? ToString(value).
        let v = to_js_str(vm, value)?;
        // b. Let escapedV be the String value that is the same as V except that each
        //    occurrence of the code unit 0x0022 (QUOTATION MARK) in V has been replaced with
        //    the six code unit sequence "&quot;".
        // c. Set p1 to the string-concatenation of: p1, the code unit 0x0020 (SPACE),
        //    attribute, the code unit 0x003D (EQUALS SIGN), the code unit 0x0022 (QUOTATION
        //    MARK), escapedV, the code unit 0x0022 (QUOTATION MARK).
        p.extend(format!(" {attribute}=\"").encode_utf16());
        for c in v.iter() {
            if c == u16::from(b'"') {
                p.extend("&quot;".encode_utf16());
            } else {
                p.push(c);
            }
        }
        p.push(u16::from(b'"'));
    }
    // 5. Let p2 be the string-concatenation of p1 and ">".
    p.push(u16::from(b'>'));
    // 6. Let p3 be the string-concatenation of p2 and S.
    p.extend(s.iter());
    // 7. Let p4 be the string-concatenation of p3, "</", tag, and ">".
    p.extend(format!("</{tag}>").encode_utf16());
    charge_units(vm, p.len())?;
    // 8. Return p4.
    Ok(units_value(vm, p))
}

/// ### B.2.2.2 String.prototype.anchor ( name )
pub(super) fn anchor(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "a", "name", name).
    create_html(vm, this, "a", "name", arg(args, 0), "anchor")
}

/// ### B.2.2.3 String.prototype.big ( )
pub(super) fn big(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "big", "", "").
    create_html(vm, this, "big", "", Value::UNDEFINED, "big")
}

/// ### B.2.2.4 String.prototype.blink ( )
pub(super) fn blink(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "blink", "", "").
    create_html(vm, this, "blink", "", Value::UNDEFINED, "blink")
}

/// ### B.2.2.5 String.prototype.bold ( )
pub(super) fn bold(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "b", "", "").
    create_html(vm, this, "b", "", Value::UNDEFINED, "bold")
}

/// ### B.2.2.6 String.prototype.fixed ( )
pub(super) fn fixed(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "tt", "", "").
    create_html(vm, this, "tt", "", Value::UNDEFINED, "fixed")
}

/// ### B.2.2.7 String.prototype.fontcolor ( colour )
pub(super) fn fontcolor(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "font", "color", colour).
    create_html(vm, this, "font", "color", arg(args, 0), "fontcolor")
}

/// ### B.2.2.8 String.prototype.fontsize ( size )
pub(super) fn fontsize(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "font", "size", size).
    create_html(vm, this, "font", "size", arg(args, 0), "fontsize")
}

/// ### B.2.2.9 String.prototype.italics ( )
pub(super) fn italics(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "i", "", "").
    create_html(vm, this, "i", "", Value::UNDEFINED, "italics")
}

/// ### B.2.2.10 String.prototype.link ( url )
pub(super) fn link(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "a", "href", url).
    create_html(vm, this, "a", "href", arg(args, 0), "link")
}

/// ### B.2.2.11 String.prototype.small ( )
pub(super) fn small(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "small", "", "").
    create_html(vm, this, "small", "", Value::UNDEFINED, "small")
}

/// ### B.2.2.12 String.prototype.strike ( )
pub(super) fn strike(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "strike", "", "").
    create_html(vm, this, "strike", "", Value::UNDEFINED, "strike")
}

/// ### B.2.2.13 String.prototype.sub ( )
pub(super) fn sub(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "sub", "", "").
    create_html(vm, this, "sub", "", Value::UNDEFINED, "sub")
}

/// ### B.2.2.14 String.prototype.sup ( )
pub(super) fn sup(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let S be the this value. 2. Return ? CreateHTML(S, "sup", "", "").
    create_html(vm, this, "sup", "", Value::UNDEFINED, "sup")
}
