//! The RegExp object (ECMA-262 §22.2) on the `regress` engine:
//! https://tc39.es/ecma262/#sec-regexp-regular-expression-objects
//!
//! Matching runs on UTF-16 code units, so every index regress reports is a JS string index:
//! non-unicode patterns match through regress's UCS-2 input (each code unit is a character),
//! `u`/`v` patterns through its UTF-16 input (surrogate pairs combine, lone surrogates stay
//! lone). Latin-1 subjects are widened for the call.
//!
//! - **The compiled regex is a cache.** The object keeps `[[OriginalSource]]` and
//!   `[[OriginalFlags]]`; `RegExpData::compiled` is skipped by serde and rebuilt on first use
//!   after a restore. A small process-wide cache keyed by (source, flags) makes re-evaluated
//!   literals and `new RegExp(s)` in loops cheap; it holds no JS state.
//! - **Sticky.** regress has no anchored search. A sticky pattern `P` compiles as `(?:P)|()`:
//!   the attempt at `lastIndex` always succeeds, and the trailing empty group participating
//!   means `P` failed there. Group numbers are unchanged. A non-unicode `P` containing a
//!   decimal escape (which the extra group could capture) instead searches forward and rejects
//!   a match that does not start at `lastIndex` (correct, but a failing attempt scans to the end).
//! - **Fuel.** regress has no step limit and cannot be interrupted. Each match charges fuel
//!   after it returns, in proportion to the code units it scanned times a backtracking estimate
//!   (the pattern's quantifier count). A catastrophic pattern (`/(a+)+$/` against a long run of
//!   `a`s) still runs for exponential time inside one call before the charge lands:
//!   `--max-instructions` does not bound a single match.
//! - **Fast paths.** `@@replace`, `@@split` and global `@@match` on an unmodified RegExp (own
//!   properties = `lastIndex` holding a number, `%RegExp.prototype%` methods and flag getters
//!   untouched) loop inside Rust over one widened copy of the subject; JS cannot observe the
//!   difference because every skipped `Get`/`Set` would have hit an untouched builtin.
//! - **Where regress departs from ECMA-262**, the pattern is rewritten before compiling (see
//!   `matcher::regress_pattern`): Annex B `\u{…}` without `u`, surrogate pairs in group names,
//!   `\k<name>` of duplicated names, quantified `\b`. Known remaining differences: without
//!   `u`/`v`, `/s/i` matches `ſ` and `/i/i` matches `ı` (regress's Canonicalize lacks the
//!   "non-ASCII never folds to ASCII" rule).
//! - **Early errors** of regular expression literals: [`validate_literal`] is the compiler's check.
//! - **Legacy static properties** (`RegExp.$1`, `RegExp.lastMatch`, `RegExp.input`…, the
//!   Annex B legacy RegExp features proposal): `legacy.rs`.
//!
//! Layout: `mod.rs` holds the table, the constructor and RegExp creation (§22.2.3–22.2.5);
//! `prototype.rs` the prototype methods (§22.2.6); `exec.rs` the matching abstract operations
//! (§22.2.7), the RegExp String Iterator (§22.2.9) and GetSubstitution; `legacy.rs` the legacy
//! static accessors; `matcher.rs` the
//! regress glue (flags, pattern translation, compile cache, one match); `fast_path.rs` the
//! loops for unmodified RegExps.

mod exec;
mod fast_path;
mod legacy;
pub(crate) mod matcher;
mod prototype;

pub use exec::get_substitution;

use self::matcher::{char_code_points, compile_pattern, pattern_error, Flags};
use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::error::JsResult;
use crate::heap::object::{Class, Object, RegExpData};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::prototype_from_constructor;
use crate::runtime::convert::{number_to_string, to_boolean, to_js_str};
use crate::runtime::operators::same_value;
use crate::runtime::property::{get, set_or_throw};
use crate::string::JsStr;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("RegExp", 2, constructor),
    native!("RegExp.escape", 1, escape),
    native!("get RegExp[Symbol.species]", 0, get_species),
    native!("RegExp.prototype.compile", 2, prototype::compile),
    native!("RegExp.prototype.exec", 1, prototype::exec),
    native!("get RegExp.prototype.dotAll", 0, prototype::get_dot_all),
    native!("get RegExp.prototype.flags", 0, prototype::get_flags),
    native!("get RegExp.prototype.global", 0, prototype::get_global),
    native!("get RegExp.prototype.hasIndices", 0, prototype::get_has_indices),
    native!("get RegExp.prototype.ignoreCase", 0, prototype::get_ignore_case),
    native!("RegExp.prototype[Symbol.match]", 1, prototype::symbol_match),
    native!("RegExp.prototype[Symbol.matchAll]", 1, prototype::symbol_match_all),
    native!("get RegExp.prototype.multiline", 0, prototype::get_multiline),
    native!("RegExp.prototype[Symbol.replace]", 2, prototype::symbol_replace),
    native!("RegExp.prototype[Symbol.search]", 1, prototype::symbol_search),
    native!("get RegExp.prototype.source", 0, prototype::get_source),
    native!("RegExp.prototype[Symbol.split]", 2, prototype::symbol_split),
    native!("get RegExp.prototype.sticky", 0, prototype::get_sticky),
    native!("RegExp.prototype.test", 1, prototype::test),
    native!("RegExp.prototype.toString", 0, prototype::to_string_method),
    native!("get RegExp.prototype.unicode", 0, prototype::get_unicode),
    native!("get RegExp.prototype.unicodeSets", 0, prototype::get_unicode_sets),
    native!("%RegExpStringIteratorPrototype%.next", 0, exec::regexp_string_iterator_next),
    // Annex B legacy static accessors (see legacy.rs).
    native!("get RegExp.input", 0, legacy::get_input),
    native!("set RegExp.input", 1, legacy::set_input),
    native!("get RegExp.$_", 0, legacy::get_input),
    native!("set RegExp.$_", 1, legacy::set_input),
    native!("get RegExp.lastMatch", 0, legacy::get_last_match),
    native!("get RegExp.$&", 0, legacy::get_last_match),
    native!("get RegExp.lastParen", 0, legacy::get_last_paren),
    native!("get RegExp.$+", 0, legacy::get_last_paren),
    native!("get RegExp.leftContext", 0, legacy::get_left_context),
    native!("get RegExp.$`", 0, legacy::get_left_context),
    native!("get RegExp.rightContext", 0, legacy::get_right_context),
    native!("get RegExp.$'", 0, legacy::get_right_context),
    native!("get RegExp.$1", 0, legacy::get_paren1),
    native!("get RegExp.$2", 0, legacy::get_paren2),
    native!("get RegExp.$3", 0, legacy::get_paren3),
    native!("get RegExp.$4", 0, legacy::get_paren4),
    native!("get RegExp.$5", 0, legacy::get_paren5),
    native!("get RegExp.$6", 0, legacy::get_paren6),
    native!("get RegExp.$7", 0, legacy::get_paren7),
    native!("get RegExp.$8", 0, legacy::get_paren8),
    native!("get RegExp.$9", 0, legacy::get_paren9),
];

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.regexp_prototype;
    // 22.2.6: the RegExp prototype object is an ordinary object (not a RegExp instance).
    vm.heap.obj_mut(proto).proto = Some(vm.realm.object_prototype);
    let ctor = make_constructor(vm, "RegExp", "RegExp", proto);
    vm.realm.regexp_constructor = ctor;
    install(vm, proto, "RegExp.prototype", NATIVES);
    install(vm, ctor, "RegExp", NATIVES);

    // 22.2.9.2 The %RegExpStringIteratorPrototype% Object.
    let iter_proto = vm.realm.regexp_string_iterator_prototype;
    vm.heap.obj_mut(iter_proto).proto = Some(vm.realm.iterator_prototype);
    install(vm, iter_proto, "%RegExpStringIteratorPrototype%", NATIVES);
    let tag = PropertyKey::Symbol(vm.symbols.toStringTag);
    let name = vm.str("RegExp String Iterator");
    vm.define_builtin(iter_proto, tag, name, PropFlags(PropFlags::CONFIGURABLE));
}

// ---- 22.2.3 Abstract operations for RegExp creation

/// The early errors of a regular expression literal `/source/flags` (§13.2.7.2, §22.2.1.1),
/// for the compiler: `Err(message)` means the script is a SyntaxError before any of it runs.
/// The compiled pattern lands in the compile cache, so evaluating the literal reuses it.
pub fn validate_literal(source: &JsStr, flags: &JsStr) -> Result<(), String> {
    let Some(parsed) = Flags::parse(flags) else {
        return Err(format!("Invalid regular expression flags '{}'", flags.to_rust_string()));
    };
    compile_pattern(source, flags, parsed).map(drop).map_err(|m| {
        format!("Invalid regular expression: /{}/{}: {}", source.to_rust_string(), flags.to_rust_string(), m)
    })
}

/// RegExpCreate ( P, F ) (§22.2.3.1) for a regular expression literal: a new RegExp from
/// source text and flags, SyntaxError if either is invalid.
pub fn regexp_create(vm: &mut Vm, source: JsStr, flags: JsStr) -> JsResult<Value> {
    // 1. Let obj be ! RegExpAlloc(%RegExp%).
    let ctor = Value::object(vm.realm.regexp_constructor);
    let obj = regexp_alloc(vm, ctor)?;
    // 2. Return ? RegExpInitialize(obj, P, F).
    initialize_from(vm, obj, source, flags)?;
    Ok(Value::object(obj))
}

/// RegExpAlloc ( newTarget ) (§22.2.3.2).
fn regexp_alloc(vm: &mut Vm, new_target: Value) -> JsResult<ObjectId> {
    // 1. Let obj be ? OrdinaryCreateFromConstructor(newTarget, "%RegExp.prototype%",
    //    « [[OriginalSource]], [[OriginalFlags]], [[RegExpRecord]], [[RegExpMatcher]] »).
    let default = vm.realm.regexp_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    let data = RegExpData { source: JsStr::empty(), flags: JsStr::empty(), compiled: None };
    let obj = vm.heap.alloc_object(Object::new(Some(proto), Class::RegExp(Box::new(data))));
    // 2. Perform ! DefinePropertyOrThrow(obj, "lastIndex", PropertyDescriptor { [[Writable]]:
    //    true, [[Enumerable]]: false, [[Configurable]]: false }).
    vm.define_builtin(obj, PropertyKey::Atom(atom::lastIndex), Value::UNDEFINED, PropFlags(PropFlags::WRITABLE));
    // 3. Return obj.
    Ok(obj)
}

/// RegExpInitialize ( obj, pattern, flags ) (§22.2.3.3).
fn regexp_initialize(vm: &mut Vm, obj: ObjectId, pattern: Value, flags: Value) -> JsResult<()> {
    // 1. If pattern is undefined, let P be the empty String.
    // 2. Else, let P be ? ToString(pattern).
    let p = if pattern.is_undefined() { JsStr::empty() } else { to_js_str(vm, pattern)? };
    // 3. If flags is undefined, let F be the empty String.
    // 4. Else, let F be ? ToString(flags).
    let f = if flags.is_undefined() { JsStr::empty() } else { to_js_str(vm, flags)? };
    initialize_from(vm, obj, p, f)
}

/// RegExpInitialize steps 5–17, once P and F are strings.
fn initialize_from(vm: &mut Vm, obj: ObjectId, p: JsStr, f: JsStr) -> JsResult<()> {
    // 5. If F contains any code unit other than "d", "g", "i", "m", "s", "u", "v", or "y", or
    //    if F contains any code unit more than once, throw a SyntaxError exception.
    // 6–9. (u and v together are an early error of the pattern.)
    let Some(flags) = Flags::parse(&f) else {
        return Err(vm.syntax_error(format!("Invalid flags supplied to RegExp constructor '{}'", f.to_rust_string())));
    };
    // 10–12. Let parseResult be ParsePattern(patternText, u, v); if it is a List of
    //    SyntaxError objects, throw a SyntaxError exception.
    let re = compile_pattern(&p, &f, flags).map_err(|m| pattern_error(vm, &p, &f, &m))?;
    // 13–16. Set obj.[[OriginalSource]] to P, obj.[[OriginalFlags]] to F, and the matcher.
    if let Class::RegExp(d) = &mut vm.heap.obj_mut(obj).class {
        d.source = p;
        d.flags = f;
        d.compiled = Some(re);
    }
    // 17. Perform ? Set(obj, "lastIndex", +0𝔽, true).
    set_or_throw(vm, obj, PropertyKey::Atom(atom::lastIndex), Value::int(0))
}

// ---- 22.2.4 The RegExp constructor

/// IsRegExp ( argument ) (§7.2.8).
fn is_regexp(vm: &mut Vm, argument: Value) -> JsResult<bool> {
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

/// ### 22.2.4.1 RegExp ( pattern, flags )
/// https://tc39.es/ecma262/#sec-regexp-pattern-flags
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (pattern, flags) = (arg(args, 0), arg(args, 1));
    // 1. Let patternIsRegExp be ? IsRegExp(pattern).
    let pattern_is_regexp = is_regexp(vm, pattern)?;
    let new_target = vm.native_new_target();
    // 2. If NewTarget is undefined, then
    let new_target = if new_target.is_undefined() {
        // a. Let newTarget be the active function object.
        let active = vm.native_ctx.callee.map_or(Value::UNDEFINED, Value::object);
        // b. If patternIsRegExp is true and flags is undefined, then
        if pattern_is_regexp && flags.is_undefined() {
            // i. Let patternConstructor be ? Get(pattern, "constructor").
            let po = pattern.as_object().ok_or_else(|| vm.type_error("pattern is not an object"))?;
            let pattern_constructor = get(vm, po, PropertyKey::Atom(atom::constructor), pattern)?;
            // ii. If SameValue(newTarget, patternConstructor) is true, return pattern.
            if same_value(active, pattern_constructor) {
                return Ok(pattern);
            }
        }
        active
    } else {
        // 3. Else, let newTarget be NewTarget.
        new_target
    };
    vm.roots.push(new_target);
    // 4. If pattern is an Object and pattern has a [[RegExpMatcher]] internal slot, then
    let own = pattern.as_object().and_then(|o| match &vm.heap.obj(o).class {
        Class::RegExp(d) => Some((d.source.clone(), d.flags.clone())),
        _ => None,
    });
    let (p, f) = if let Some((source, original_flags)) = own {
        // a. Let P be pattern.[[OriginalSource]].
        let p = vm.js_str(source);
        vm.roots.push(p);
        // b. If flags is undefined, let F be pattern.[[OriginalFlags]].
        // c. Else, let F be flags.
        let f = if flags.is_undefined() { vm.js_str(original_flags) } else { flags };
        (p, f)
    } else if pattern_is_regexp {
        // 5. Else if patternIsRegExp is true, then
        let po = pattern.as_object().ok_or_else(|| vm.type_error("pattern is not an object"))?;
        // a. Let P be ? Get(pattern, "source").
        let p = get(vm, po, PropertyKey::Atom(atom::source), pattern)?;
        vm.roots.push(p);
        // b. If flags is undefined, then i. Let F be ? Get(pattern, "flags").
        // c. Else, let F be flags.
        let f = if flags.is_undefined() { get(vm, po, PropertyKey::Atom(atom::flags), pattern)? } else { flags };
        (p, f)
    } else {
        // 6. Else, let P be pattern and F be flags.
        (pattern, flags)
    };
    vm.roots.push(f);
    // 7. Let O be ? RegExpAlloc(newTarget).
    let o = regexp_alloc(vm, new_target)?;
    vm.roots.push(Value::object(o));
    // 8. Return ? RegExpInitialize(O, P, F).
    regexp_initialize(vm, o, p, f)?;
    Ok(Value::object(o))
}

/// ### 22.2.5.1 RegExp.escape ( S )
/// https://tc39.es/ecma262/#sec-regexp.escape
fn escape(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let s = arg(args, 0);
    // 1. If S is not a String, throw a TypeError exception.
    let Some(sid) = s.as_string() else {
        return Err(vm.type_error("RegExp.escape requires a string"));
    };
    let units = vm.heap.flat(sid).units();
    vm.charge(units.len() as u64)?;
    // 2. Let escaped be the empty String.
    let mut escaped: Vec<u16> = Vec::with_capacity(units.len() * 2);
    // 3. Let cpList be StringToCodePoints(S).
    // 4. For each code point c of cpList, do
    for c in char_code_points(&units) {
        // a. If escaped is the empty String and c is matched by either DecimalDigit or
        //    AsciiLetter, then … set escaped to "\x" followed by the two hex digits of c.
        if escaped.is_empty() && c < 0x80 && (c as u8).is_ascii_alphanumeric() {
            push_ascii(&mut escaped, &format!("\\x{c:02x}"));
        } else {
            // b. Else, set escaped to escaped + EncodeForRegExpEscape(c).
            encode_for_regexp_escape(&mut escaped, c);
        }
    }
    // 5. Return escaped.
    Ok(vm.js_str(JsStr::from_units(escaped)))
}

/// EncodeForRegExpEscape ( c ) (§22.2.5.1.1), appended to `out`.
fn encode_for_regexp_escape(out: &mut Vec<u16>, c: u32) {
    let ascii = |c: u32| if c < 0x80 { Some(c as u8) } else { None };
    // 1. If c is matched by SyntaxCharacter or c is U+002F (SOLIDUS), return "\" + c.
    if let Some(b) = ascii(c) {
        if b"^$\\.*+?()[]{}|/".contains(&b) {
            out.push(u16::from(b'\\'));
            out.push(u16::from(b));
            return;
        }
        // 2. Else if c is a ControlEscape code point, return "\" + its letter.
        let control = match b {
            0x09 => Some(b't'),
            0x0A => Some(b'n'),
            0x0B => Some(b'v'),
            0x0C => Some(b'f'),
            0x0D => Some(b'r'),
            _ => None,
        };
        if let Some(letter) = control {
            out.push(u16::from(b'\\'));
            out.push(u16::from(letter));
            return;
        }
    }
    // 3–4. Let toEscape be StringToCodePoints(",-=<>#&!%:;@~'`" + QUOTATION MARK).
    let other_punctuator = ascii(c).is_some_and(|b| b",-=<>#&!%:;@~'`\"".contains(&b));
    // 5. If toEscape contains c, c is matched by either WhiteSpace or LineTerminator, or c has
    //    the same numeric value as a leading surrogate or trailing surrogate, then
    let white = c <= 0xFFFF && crate::string::is_js_whitespace(c as u16);
    if other_punctuator || white || (0xD800..=0xDFFF).contains(&c) {
        // b. If cNum ≤ 0xFF, return "\x" + StringPad(hex, 2, "0", start).
        if c <= 0xFF {
            push_ascii(out, &format!("\\x{c:02x}"));
        } else {
            // c–f. Return the UnicodeEscape of each code unit of c.
            let mut buf = [0u16; 2];
            let units: &[u16] = match char::from_u32(c) {
                Some(ch) => ch.encode_utf16(&mut buf),
                None => {
                    buf[0] = c as u16;
                    &buf[..1]
                }
            };
            for &u in units {
                push_ascii(out, &format!("\\u{u:04x}"));
            }
        }
        return;
    }
    // 6. Return UTF16EncodeCodePoint(c).
    push_code_point(out, c);
}

fn push_ascii(out: &mut Vec<u16>, s: &str) {
    out.extend(s.bytes().map(u16::from));
}

fn push_code_point(out: &mut Vec<u16>, c: u32) {
    if c >= 0x10000 {
        let v = c - 0x10000;
        out.push(0xD800 + (v >> 10) as u16);
        out.push(0xDC00 + (v & 0x3FF) as u16);
    } else {
        out.push(c as u16);
    }
}

/// ### 22.2.5.3 get RegExp [ %Symbol.species% ]
fn get_species(_vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return the this value.
    Ok(this)
}

// ---- helpers

pub(super) fn require_object(vm: &mut Vm, this: Value, method: &str) -> JsResult<ObjectId> {
    match this.as_object() {
        Some(o) => Ok(o),
        None => Err(vm.type_error(format!("{method} called on a non-object"))),
    }
}

/// RequireInternalSlot(R, [[RegExpMatcher]]).
pub(super) fn require_regexp(vm: &mut Vm, this: Value, method: &str) -> JsResult<ObjectId> {
    match this.as_object() {
        Some(o) if matches!(vm.heap.obj(o).class, Class::RegExp(_)) => Ok(o),
        _ => Err(vm.type_error(format!("{method} called on an incompatible receiver"))),
    }
}

/// ToString(? Get(rx, "flags")) as code units.
pub(super) fn get_flags_string(vm: &mut Vm, rx: ObjectId) -> JsResult<Vec<u16>> {
    let f = get(vm, rx, PropertyKey::Atom(atom::flags), Value::object(rx))?;
    Ok(to_js_str(vm, f)?.units())
}

/// The property key of a numeric index (ToString(𝔽(n))).
pub(super) fn index_key(vm: &mut Vm, n: u64) -> PropertyKey {
    match u32::try_from(n) {
        Ok(i) if i != u32::MAX => PropertyKey::Index(i),
        _ => vm.key(&number_to_string(n as f64)),
    }
}

/// Fill a fresh array with `values` (CreateDataPropertyOrThrow on each index of an array
/// nothing else has seen: unobservable).
pub(super) fn set_array_elements(vm: &mut Vm, a: Value, values: Vec<Value>) {
    let Some(ao) = a.as_object() else { return };
    let len = values.len() as u32;
    let obj = vm.heap.obj_mut(ao);
    obj.elements = values;
    if let Class::Array(d) = &mut obj.class {
        d.length = len;
    }
}
