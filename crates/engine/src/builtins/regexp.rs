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
//! - **Not implemented:** the legacy static properties (`RegExp.$1`, `RegExp.lastMatch`,
//!   `RegExp.input`…), optional in the spec (Annex B proposal).

use std::sync::{Arc, Mutex};

use regress::Regex;

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, make_constructor, NativeDef, NativeId};
use crate::error::JsResult;
use crate::heap::object::{Class, IteratorState, Object, RegExpData};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{call, construct, is_callable, is_constructor, prototype_from_constructor};
use crate::runtime::convert::{
    number_to_string, to_boolean, to_integer_or_infinity, to_js_str, to_length, to_object, to_string, to_uint32,
};
use crate::runtime::operators::same_value;
use crate::runtime::property::{get, length_of_array_like, set_or_throw};
use crate::string::JsStr;
use crate::value::{ObjectId, StringId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("RegExp", 2, constructor),
    native!("RegExp.escape", 1, escape),
    native!("get RegExp[Symbol.species]", 0, get_species),
    native!("RegExp.prototype.compile", 2, compile),
    native!("RegExp.prototype.exec", 1, exec),
    native!("get RegExp.prototype.dotAll", 0, get_dot_all),
    native!("get RegExp.prototype.flags", 0, get_flags),
    native!("get RegExp.prototype.global", 0, get_global),
    native!("get RegExp.prototype.hasIndices", 0, get_has_indices),
    native!("get RegExp.prototype.ignoreCase", 0, get_ignore_case),
    native!("RegExp.prototype[Symbol.match]", 1, symbol_match),
    native!("RegExp.prototype[Symbol.matchAll]", 1, symbol_match_all),
    native!("get RegExp.prototype.multiline", 0, get_multiline),
    native!("RegExp.prototype[Symbol.replace]", 2, symbol_replace),
    native!("RegExp.prototype[Symbol.search]", 1, symbol_search),
    native!("get RegExp.prototype.source", 0, get_source),
    native!("RegExp.prototype[Symbol.split]", 2, symbol_split),
    native!("get RegExp.prototype.sticky", 0, get_sticky),
    native!("RegExp.prototype.test", 1, test),
    native!("RegExp.prototype.toString", 0, to_string_method),
    native!("get RegExp.prototype.unicode", 0, get_unicode),
    native!("get RegExp.prototype.unicodeSets", 0, get_unicode_sets),
    native!("%RegExpStringIteratorPrototype%.next", 0, regexp_string_iterator_next),
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

// ---- flags

/// The flags of a RegExp, parsed from `[[OriginalFlags]]`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Flags {
    has_indices: bool,
    global: bool,
    ignore_case: bool,
    multiline: bool,
    dot_all: bool,
    unicode: bool,
    unicode_sets: bool,
    sticky: bool,
}

impl Flags {
    /// Parse a flags string; None when it has an unknown or repeated flag, or both `u` and `v`
    /// (RegExpInitialize steps 4–5 of §22.2.3.3 and the pattern's early errors).
    fn parse(f: &JsStr) -> Option<Flags> {
        let mut flags = Flags::default();
        for c in f.iter() {
            let slot = match c {
                0x64 => &mut flags.has_indices,  // d
                0x67 => &mut flags.global,       // g
                0x69 => &mut flags.ignore_case,  // i
                0x6D => &mut flags.multiline,    // m
                0x73 => &mut flags.dot_all,      // s
                0x75 => &mut flags.unicode,      // u
                0x76 => &mut flags.unicode_sets, // v
                0x79 => &mut flags.sticky,       // y
                _ => return None,
            };
            if *slot {
                return None;
            }
            *slot = true;
        }
        if flags.unicode && flags.unicode_sets {
            return None;
        }
        Some(flags)
    }

    /// `u` or `v`: the pattern and input are read as code points.
    fn full_unicode(self) -> bool {
        self.unicode || self.unicode_sets
    }

    fn regress(self) -> regress::Flags {
        regress::Flags {
            icase: self.ignore_case,
            multiline: self.multiline,
            dot_all: self.dot_all,
            no_opt: false,
            unicode: self.unicode,
            unicode_sets: self.unicode_sets,
        }
    }
}

// ---- compilation

/// How a compiled regex realises the sticky flag.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Anchor {
    /// Not sticky: leftmost match at or after the start.
    Search,
    /// Compiled as `(?:P)|()`: one attempt; the last group participating means failure.
    Wrapped,
    /// Sticky, searched forward; a match not starting at the start is a failure.
    Scan,
}

fn anchor_for(source: &JsStr, flags: Flags) -> Anchor {
    if !flags.sticky {
        return Anchor::Search;
    }
    if flags.full_unicode() || !has_decimal_escape(source) {
        Anchor::Wrapped
    } else {
        Anchor::Scan
    }
}

/// Does the pattern contain `\1`…`\9` (a backreference or legacy octal escape)?
fn has_decimal_escape(source: &JsStr) -> bool {
    let mut units = source.iter();
    while let Some(c) = units.next() {
        if c == u16::from(b'\\') {
            if let Some(n) = units.next() {
                if (u16::from(b'1')..=u16::from(b'9')).contains(&n) {
                    return true;
                }
            }
        }
    }
    false
}

/// The pattern as regress reads it: code points for `u`/`v` patterns (surrogate pairs
/// combined), code units otherwise — adjusted where regress departs from ECMA-262:
/// - Annex B: without `u`/`v`, `\u{…}` is not a code point escape but `u` and a quantifier (or
///   literal braces), so the backslash is dropped;
/// - group names (`(?<name>`, `\k<name>`) are read as code points in every mode;
/// - `\b` and `\B` are assertions and cannot take a quantifier (regress accepts one).
fn regress_pattern(source: &JsStr, full_unicode: bool) -> Result<Vec<u32>, String> {
    let units = source.units();
    let chars: Vec<u32> = if full_unicode { char_code_points(&units) } else { units.iter().map(|&u| u32::from(u)).collect() };
    let at = |i: usize| chars.get(i).copied();
    let is = |i: usize, c: u8| at(i) == Some(u32::from(c));
    let mut out = Vec::with_capacity(chars.len());
    let mut class_depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == u32::from(b'\\') {
            if !full_unicode && is(i + 1, b'u') && is(i + 2, b'{') {
                out.push(u32::from(b'u'));
                i += 2;
                continue;
            }
            if class_depth == 0 && (is(i + 1, b'b') || is(i + 1, b'B')) && quantifier_at(&chars, i + 2) {
                return Err("Nothing to repeat".into());
            }
            if class_depth == 0 && is(i + 1, b'k') && is(i + 2, b'<') {
                out.extend_from_slice(&chars[i..i + 3]);
                i = copy_group_name(&chars, i + 3, &mut out);
                continue;
            }
            out.push(c);
            if let Some(n) = at(i + 1) {
                out.push(n);
            }
            i += 2;
            continue;
        }
        if c == u32::from(b'[') {
            // Classes nest only in `v` mode; elsewhere a `[` inside a class is literal.
            if class_depth == 0 || full_unicode {
                class_depth += 1;
            }
        } else if c == u32::from(b']') {
            class_depth = class_depth.saturating_sub(1);
        } else if c == u32::from(b'(') && class_depth == 0 && is(i + 1, b'?') && is(i + 2, b'<') && !is(i + 3, b'=') && !is(i + 3, b'!') {
            out.extend_from_slice(&chars[i..i + 3]);
            i = copy_group_name(&chars, i + 3, &mut out);
            continue;
        }
        out.push(c);
        i += 1;
    }
    Ok(out)
}

/// Copy a group name starting at `i` up to and including its `>`, combining surrogate pairs
/// (written literally or as `\uXXXX\uXXXX`) into code points. Returns the index after it.
fn copy_group_name(chars: &[u32], mut i: usize, out: &mut Vec<u32>) -> usize {
    let mut name: Vec<u16> = Vec::new();
    while i < chars.len() && chars[i] != u32::from(b'>') {
        match u16::try_from(chars[i]) {
            Ok(u) => name.push(u),
            Err(_) => {
                let mut buf = [0u16; 2];
                if let Some(ch) = char::from_u32(chars[i]) {
                    name.extend_from_slice(ch.encode_utf16(&mut buf));
                }
            }
        }
        i += 1;
    }
    out.extend(char_code_points(&name));
    if i < chars.len() {
        out.push(chars[i]);
        i += 1;
    }
    i
}

/// Does a quantifier (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`) start at `i`?
fn quantifier_at(chars: &[u32], i: usize) -> bool {
    let Some(&c) = chars.get(i) else { return false };
    if c == u32::from(b'*') || c == u32::from(b'+') || c == u32::from(b'?') {
        return true;
    }
    if c != u32::from(b'{') {
        return false;
    }
    let digit = |c: u32| (u32::from(b'0')..=u32::from(b'9')).contains(&c);
    let mut j = i + 1;
    let start = j;
    while chars.get(j).is_some_and(|&c| digit(c)) {
        j += 1;
    }
    if j == start {
        return false;
    }
    if chars.get(j) == Some(&u32::from(b',')) {
        j += 1;
        while chars.get(j).is_some_and(|&c| digit(c)) {
            j += 1;
        }
    }
    chars.get(j) == Some(&u32::from(b'}'))
}

fn char_code_points(units: &[u16]) -> Vec<u32> {
    let mut out = Vec::with_capacity(units.len());
    let mut i = 0;
    while i < units.len() {
        let c = units[i];
        if is_lead(c) && i + 1 < units.len() && is_trail(units[i + 1]) {
            out.push(0x10000 + ((u32::from(c) - 0xD800) << 10) + (u32::from(units[i + 1]) - 0xDC00));
            i += 2;
        } else {
            out.push(u32::from(c));
            i += 1;
        }
    }
    out
}

fn is_lead(c: u16) -> bool {
    (0xD800..=0xDBFF).contains(&c)
}

fn is_trail(c: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&c)
}

/// Entries kept by the process-wide compile cache.
const COMPILE_CACHE_SIZE: usize = 64;

type CacheEntry = (JsStr, JsStr, Arc<Regex>);

static COMPILE_CACHE: Mutex<Vec<CacheEntry>> = Mutex::new(Vec::new());

/// Compile `source` with `flags` (validated), through the process-wide cache.
fn compile_pattern(source: &JsStr, flags_str: &JsStr, flags: Flags) -> Result<Arc<Regex>, String> {
    if let Ok(mut cache) = COMPILE_CACHE.lock() {
        if let Some(i) = cache.iter().position(|(s, f, _)| s == source && f == flags_str) {
            let entry = cache.remove(i);
            let re = entry.2.clone();
            cache.push(entry);
            return Ok(re);
        }
    }
    let chars = regress_pattern(source, flags.full_unicode())?;
    // Parse the pattern as written: this is the early-error check.
    let plain = Regex::from_unicode(chars.iter().copied(), flags.regress()).map_err(|e| e.text)?;
    let re = match anchor_for(source, flags) {
        Anchor::Wrapped => {
            let mut wrapped: Vec<u32> = "(?:".chars().map(u32::from).collect();
            wrapped.extend_from_slice(&chars);
            wrapped.extend(")|()".chars().map(u32::from));
            Regex::from_unicode(wrapped.into_iter(), flags.regress()).map_err(|e| e.text)?
        }
        Anchor::Search | Anchor::Scan => plain,
    };
    let re = Arc::new(re);
    if let Ok(mut cache) = COMPILE_CACHE.lock() {
        if cache.len() >= COMPILE_CACHE_SIZE {
            cache.remove(0);
        }
        cache.push((source.clone(), flags_str.clone(), re.clone()));
    }
    Ok(re)
}

/// A RegExp's source, flags and matcher, compiling (and caching on the object) if needed.
struct Matcher {
    source: JsStr,
    flags: Flags,
    re: Arc<Regex>,
}

/// The matcher of `r`, or None if `r` is not a RegExp instance.
fn matcher_of(vm: &mut Vm, r: ObjectId) -> JsResult<Option<Matcher>> {
    let (source, flags_str, compiled) = match &vm.heap.obj(r).class {
        Class::RegExp(d) => (d.source.clone(), d.flags.clone(), d.compiled.clone()),
        _ => return Ok(None),
    };
    let Some(flags) = Flags::parse(&flags_str) else {
        return Err(vm.syntax_error(format!("Invalid regular expression flags '{}'", flags_str.to_rust_string())));
    };
    let re = match compiled {
        Some(re) => re,
        None => {
            let re = compile_pattern(&source, &flags_str, flags).map_err(|m| pattern_error(vm, &source, &flags_str, &m))?;
            if let Class::RegExp(d) = &mut vm.heap.obj_mut(r).class {
                d.compiled = Some(re.clone());
            }
            re
        }
    };
    Ok(Some(Matcher { source, flags, re }))
}

fn pattern_error(vm: &mut Vm, source: &JsStr, flags: &JsStr, message: &str) -> crate::error::Throw {
    vm.syntax_error(format!(
        "Invalid regular expression: /{}/{}: {}",
        source.to_rust_string(),
        flags.to_rust_string(),
        message
    ))
}

// ---- matching

/// A successful match, in code-unit indices.
struct RawMatch {
    start: usize,
    end: usize,
    /// Groups 1..=n; None for a group that did not participate.
    captures: Vec<Option<(usize, usize)>>,
    /// Named groups in order of first appearance, with the participating group's range.
    named: Vec<(String, Option<(usize, usize)>)>,
}

/// Fuel weight per scanned code unit: 1 plus the pattern's quantifiers, a rough estimate of
/// how much backtracking each position can cost.
fn backtrack_weight(source: &JsStr) -> u64 {
    let quantifiers = source.iter().filter(|&c| matches!(c, 0x2A | 0x2B | 0x3F | 0x7B)).count() as u64;
    1 + quantifiers.min(31)
}

/// Run the matcher on `units` from `start`: anchored there when sticky, else the leftmost
/// match at or after it. Charges fuel for the scanned span.
fn run_matcher(vm: &mut Vm, m: &Matcher, units: &[u16], start: usize) -> JsResult<Option<RawMatch>> {
    let mut start = start;
    // A `u`/`v` matcher reads code points: an index inside a surrogate pair denotes that pair.
    if m.flags.full_unicode() && start > 0 && start < units.len() && is_trail(units[start]) && is_lead(units[start - 1]) {
        start -= 1;
    }
    let anchor = anchor_for(&m.source, m.flags);
    let found = if m.flags.full_unicode() {
        m.re.find_from_utf16(units, start).next()
    } else {
        m.re.find_from_ucs2(units, start).next()
    };
    let scanned = match &found {
        Some(f) => f.range.end.saturating_sub(start),
        None => units.len().saturating_sub(start),
    };
    vm.charge((scanned as u64 + 1).saturating_mul(backtrack_weight(&m.source)))?;
    let Some(found) = found else { return Ok(None) };
    let mut captures: Vec<Option<(usize, usize)>> = found.captures.iter().map(|c| c.as_ref().map(|r| (r.start, r.end))).collect();
    match anchor {
        Anchor::Wrapped => {
            // The sentinel group is the last one; its participation means P failed here.
            if captures.pop().flatten().is_some() {
                return Ok(None);
            }
        }
        Anchor::Scan => {
            if found.range.start != start {
                return Ok(None);
            }
        }
        Anchor::Search => {}
    }
    let named = found.named_groups().map(|(n, r)| (n.to_string(), r.map(|r| (r.start, r.end)))).collect();
    Ok(Some(RawMatch { start: found.range.start, end: found.range.end, captures, named }))
}

/// The subject's code units (Latin-1 widened).
fn subject_units(vm: &mut Vm, s: StringId) -> Vec<u16> {
    vm.heap.flat(s).units()
}

// ---- 22.2.3 Abstract operations for RegExp creation

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
            if same_value((), active, pattern_constructor) {
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

// ---- 22.2.6 Properties of the RegExp prototype object

/// ### B.2.4.1 RegExp.prototype.compile ( pattern, flags )
/// https://tc39.es/ecma262/#sec-regexp.prototype.compile
fn compile(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let (pattern, flags) = (arg(args, 0), arg(args, 1));
    // 1. Let O be the this value.
    // 2. Perform ? RequireInternalSlot(O, [[RegExpMatcher]]).
    let o = require_regexp(vm, this, "RegExp.prototype.compile")?;
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
fn exec(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
fn get_flags(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
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
const FLAG_PROPERTIES: &[(&str, char)] = &[
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
fn regexp_has_flag(vm: &mut Vm, this: Value, pick: fn(Flags) -> bool, name: &str) -> JsResult<Value> {
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
fn get_dot_all(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.dot_all, "dotAll")
}

/// ### 22.2.6.5 get RegExp.prototype.global
fn get_global(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.global, "global")
}

/// ### 22.2.6.6 get RegExp.prototype.hasIndices
fn get_has_indices(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.has_indices, "hasIndices")
}

/// ### 22.2.6.7 get RegExp.prototype.ignoreCase
fn get_ignore_case(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.ignore_case, "ignoreCase")
}

/// ### 22.2.6.10 get RegExp.prototype.multiline
fn get_multiline(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.multiline, "multiline")
}

/// ### 22.2.6.15 get RegExp.prototype.sticky
fn get_sticky(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.sticky, "sticky")
}

/// ### 22.2.6.18 get RegExp.prototype.unicode
fn get_unicode(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.unicode, "unicode")
}

/// ### 22.2.6.19 get RegExp.prototype.unicodeSets
fn get_unicode_sets(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    regexp_has_flag(vm, this, |f| f.unicode_sets, "unicodeSets")
}

/// ### 22.2.6.8 RegExp.prototype [ %Symbol.match% ] ( string )
/// https://tc39.es/ecma262/#sec-regexp.prototype-%symbol.match%
fn symbol_match(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
fn symbol_match_all(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
fn symbol_replace(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
fn symbol_search(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
    if !same_value((), previous_last_index, Value::int(0)) {
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
fn get_source(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let R be the this value.
    // 2. If R is not an Object, throw a TypeError exception.
    let Some(r) = this.as_object() else {
        return Err(vm.type_error("RegExp.prototype.source getter called on non-object"));
    };
    // 3. If R does not have an [[OriginalSource]] internal slot, then
    let (src, flags) = match &vm.heap.obj(r).class {
        Class::RegExp(d) => (d.source.clone(), d.flags.clone()),
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
    let _ = flags;
    Ok(vm.js_str(escape_regexp_pattern(&src)))
}

/// EscapeRegExpPattern ( P, F ) (§22.2.6.13.1): the source in a form that reparses as the
/// same pattern inside `/…/`, as V8 writes it — `/` escaped outside classes, line
/// terminators as escapes, the empty pattern as `(?:)`.
fn escape_regexp_pattern(src: &JsStr) -> JsStr {
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
fn symbol_split(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
    let splitter_o = splitter.as_object().ok_or_else(|| vm.type_error("RegExp species constructor returned a non-object"))?;
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
fn test(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
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
fn to_string_method(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
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

// ---- 22.2.7 Abstract operations for RegExp matching

/// RegExpExec ( R, S ) (§22.2.7.1).
fn regexp_exec(vm: &mut Vm, r: ObjectId, s: StringId) -> JsResult<Value> {
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
fn regexp_builtin_exec(vm: &mut Vm, r: ObjectId, s: StringId) -> JsResult<Value> {
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
    let found = if last_index > length as u64 {
        None
    } else {
        let units = subject_units(vm, s);
        run_matcher(vm, &m, &units, last_index as usize)?
    };
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
    // 17–36. Build the match array.
    Ok(make_match_array(vm, s, &found, m.flags.has_indices))
}

/// RegExpBuiltinExec steps 17–36: the array for a successful match.
fn make_match_array(vm: &mut Vm, s: StringId, found: &RawMatch, has_indices: bool) -> Value {
    let subject = vm.heap.flat(s).clone();
    // 17. Let n be the number of elements in r's captures List.
    // 20. Let A be ! ArrayCreate(n + 1).
    // 27–33. A[0] is the matched substring; A[i] the ith capture or undefined.
    let mut elements = Vec::with_capacity(found.captures.len() + 1);
    elements.push(vm.js_str(subject.slice(found.start, found.end)));
    for c in &found.captures {
        let v = match c {
            Some((a, b)) => vm.js_str(subject.slice(*a, *b)),
            None => Value::UNDEFINED,
        };
        elements.push(v);
    }
    let a = vm.new_array(elements.clone());
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
        for (name, range) in &found.named {
            let v = match range {
                Some((x, y)) => vm.js_str(subject.slice(*x, *y)),
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
fn make_match_indices_index_pair_array(vm: &mut Vm, found: &RawMatch) -> Value {
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
fn advance_string_index(s: &JsStr, index: usize, unicode: bool) -> usize {
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
fn advance_last_index(vm: &mut Vm, rx: ObjectId, full_unicode: bool, s: StringId) -> JsResult<()> {
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
fn regexp_string_iterator_next(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
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
        return Ok(crate::interp::generator::iter_result(vm, Value::UNDEFINED, true));
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
            return Ok(crate::interp::generator::iter_result(vm, Value::UNDEFINED, true));
        }
        Err(e) => {
            // An abrupt completion ends the generator.
            set_iterator_done(vm, it);
            return Err(e);
        }
    };
    Ok(crate::interp::generator::iter_result(vm, r, false))
}

/// CreateRegExpStringIterator's closure (§22.2.9.1) up to its next yield: the next match, or
/// None when it returns.
fn regexp_string_iterator_step(
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

fn set_iterator_done(vm: &mut Vm, it: ObjectId) {
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
fn append_substitution(
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

// ---- fast paths

/// Stable ids of the builtins the fast paths require untouched.
struct BuiltinIds {
    exec: Option<NativeId>,
    flags: Option<NativeId>,
    flag_getters: Vec<Option<NativeId>>,
    species: Option<NativeId>,
}

fn builtin_ids() -> &'static BuiltinIds {
    static IDS: std::sync::OnceLock<BuiltinIds> = std::sync::OnceLock::new();
    IDS.get_or_init(|| BuiltinIds {
        exec: NativeId::by_name("RegExp.prototype.exec"),
        flags: NativeId::by_name("get RegExp.prototype.flags"),
        flag_getters: FLAG_GETTER_NAMES.iter().map(|n| NativeId::by_name(n)).collect(),
        species: NativeId::by_name("get RegExp[Symbol.species]"),
    })
}

/// The stable names of the getters `get flags` reads, in FLAG_PROPERTIES order.
const FLAG_GETTER_NAMES: &[&str] = &[
    "get RegExp.prototype.hasIndices",
    "get RegExp.prototype.global",
    "get RegExp.prototype.ignoreCase",
    "get RegExp.prototype.multiline",
    "get RegExp.prototype.dotAll",
    "get RegExp.prototype.unicode",
    "get RegExp.prototype.unicodeSets",
    "get RegExp.prototype.sticky",
];

fn is_native(vm: &Vm, f: Value, id: Option<NativeId>) -> bool {
    let Some(id) = id else { return false };
    f.as_object().is_some_and(|o| matches!(&vm.heap.obj(o).class, Class::Native(n) if n.id == id))
}

/// The value (or accessor getter) of an own property, without running JS.
fn own_slot(vm: &Vm, o: ObjectId, key: PropertyKey) -> Option<(Value, bool)> {
    let (v, flags) = vm.heap.obj(o).lookup_named(&vm.heap.shapes, key)?;
    if flags.is_accessor() {
        let getter = match v.as_object().map(|p| &vm.heap.obj(p).class) {
            Some(Class::AccessorPair { get, .. }) => *get,
            _ => Value::UNDEFINED,
        };
        Some((getter, true))
    } else {
        Some((v, false))
    }
}

/// If `rx` is a RegExp that JS cannot tell apart from a fresh one — own properties are just a
/// writable numeric `lastIndex`, the prototype is `%RegExp.prototype%` with `exec`, `flags`
/// and every flag getter untouched (and, for `species`, `constructor` and
/// `RegExp[@@species]` too) — its matcher.
fn pristine_matcher(vm: &mut Vm, rx: ObjectId, species: bool) -> JsResult<Option<Matcher>> {
    if !is_pristine(vm, rx, species) {
        return Ok(None);
    }
    matcher_of(vm, rx)
}

fn is_pristine(vm: &Vm, rx: ObjectId, species: bool) -> bool {
    let obj = vm.heap.obj(rx);
    let proto = vm.realm.regexp_prototype;
    if !matches!(obj.class, Class::RegExp(_)) || obj.proto != Some(proto) {
        return false;
    }
    let keys = obj.named_keys(&vm.heap.shapes);
    let last_index = PropertyKey::Atom(atom::lastIndex);
    if keys.len() != 1 || keys[0].0 != last_index || !keys[0].1.writable() || keys[0].1.is_accessor() {
        return false;
    }
    if !obj.lookup_named(&vm.heap.shapes, last_index).is_some_and(|(v, _)| v.is_number()) {
        return false;
    }
    let ids = builtin_ids();
    if !own_slot(vm, proto, PropertyKey::Atom(atom::exec)).is_some_and(|(v, acc)| !acc && is_native(vm, v, ids.exec)) {
        return false;
    }
    if !own_slot(vm, proto, PropertyKey::Atom(atom::flags)).is_some_and(|(v, acc)| acc && is_native(vm, v, ids.flags)) {
        return false;
    }
    for ((name, _), id) in FLAG_PROPERTIES.iter().zip(&ids.flag_getters) {
        let Some(atom) = vm.heap.atoms.lookup(&JsStr::from_str(name)) else { return false };
        if !own_slot(vm, proto, PropertyKey::Atom(atom)).is_some_and(|(v, acc)| acc && is_native(vm, v, *id)) {
            return false;
        }
    }
    if species {
        let ctor = vm.realm.regexp_constructor;
        let c = own_slot(vm, proto, PropertyKey::Atom(atom::constructor));
        if !c.is_some_and(|(v, acc)| !acc && v == Value::object(ctor)) {
            return false;
        }
        let s = own_slot(vm, ctor, PropertyKey::Symbol(vm.symbols.species));
        if !s.is_some_and(|(v, acc)| acc && is_native(vm, v, ids.species)) {
            return false;
        }
    }
    true
}

fn set_last_index_fast(vm: &mut Vm, rx: ObjectId, v: usize) {
    let heap = &mut vm.heap;
    let shapes = &heap.shapes;
    if let Some(o) = heap.objects.get_mut(rx.0) {
        o.set_named_value(shapes, PropertyKey::Atom(atom::lastIndex), Value::number(v as f64));
    }
}

/// The matches a global matcher finds from lastIndex 0, as the spec's exec loop finds them.
fn collect_global(vm: &mut Vm, m: &Matcher, units: &[u16]) -> JsResult<Vec<RawMatch>> {
    let full_unicode = m.flags.full_unicode();
    let mut out = Vec::new();
    let mut last_index = 0usize;
    while last_index <= units.len() {
        let Some(found) = run_matcher(vm, m, units, last_index)? else { break };
        last_index = if found.end == found.start {
            advance_units(units, found.end, full_unicode)
        } else {
            found.end
        };
        out.push(found);
        if out.len() % 4096 == 0 {
            vm.check_heap()?;
        }
    }
    Ok(out)
}

fn advance_units(units: &[u16], index: usize, unicode: bool) -> usize {
    if unicode && index + 1 < units.len() && is_lead(units[index]) && is_trail(units[index + 1]) {
        index + 2
    } else {
        index + 1
    }
}

/// `@@match` on an unmodified global RegExp.
fn match_all_fast(vm: &mut Vm, rx: ObjectId, m: &Matcher, s: StringId) -> JsResult<Value> {
    let units = subject_units(vm, s);
    let found = collect_global(vm, m, &units)?;
    // The final failing exec leaves lastIndex at 0.
    set_last_index_fast(vm, rx, 0);
    if found.is_empty() {
        return Ok(Value::NULL);
    }
    let subject = vm.heap.flat(s).clone();
    let mut elements = Vec::with_capacity(found.len());
    for f in &found {
        let v = vm.js_str(subject.slice(f.start, f.end));
        elements.push(v);
    }
    Ok(vm.new_array(elements))
}

/// `@@replace` on an unmodified RegExp.
fn replace_fast(
    vm: &mut Vm,
    rx: ObjectId,
    m: &Matcher,
    s: StringId,
    replace_value: Value,
    functional_replace: bool,
) -> JsResult<Value> {
    let units = subject_units(vm, s);
    let subject = vm.heap.flat(s).clone();
    let found = if m.flags.global {
        let found = collect_global(vm, m, &units)?;
        set_last_index_fast(vm, rx, 0);
        found
    } else {
        // One RegExpBuiltinExec: lastIndex is read (a number), and written if sticky.
        let start = if m.flags.sticky { last_index_number(vm, rx) } else { 0 };
        let one = if start > units.len() as u64 { None } else { run_matcher(vm, m, &units, start as usize)? };
        if m.flags.sticky {
            set_last_index_fast(vm, rx, one.as_ref().map_or(0, |f| f.end));
        }
        one.into_iter().collect()
    };
    let template = match replace_value.as_string() {
        Some(t) if !functional_replace => vm.heap.flat(t).clone(),
        _ => JsStr::empty(),
    };
    let mut accumulated: Vec<u16> = Vec::with_capacity(units.len());
    let mut next_source_position = 0usize;
    for f in &found {
        let matched = subject.slice(f.start, f.end);
        let captures: Vec<Option<JsStr>> = f.captures.iter().map(|c| c.map(|(a, b)| subject.slice(a, b))).collect();
        let groups = if f.named.is_empty() {
            Value::UNDEFINED
        } else {
            let g = vm.heap.new_plain(None);
            for (name, range) in &f.named {
                let v = match range {
                    Some((x, y)) => vm.js_str(subject.slice(*x, *y)),
                    None => Value::UNDEFINED,
                };
                let key = vm.key(name);
                vm.define_builtin(g, key, v, PropFlags::DEFAULT);
            }
            vm.roots.push(Value::object(g));
            Value::object(g)
        };
        let mark = vm.roots.len();
        let replacement = if functional_replace {
            let mut replacer_args = Vec::with_capacity(captures.len() + 4);
            let mv = vm.js_str(matched.clone());
            replacer_args.push(mv);
            vm.roots.push(mv);
            for c in captures {
                let v = match c {
                    Some(c) => vm.js_str(c),
                    None => Value::UNDEFINED,
                };
                vm.roots.push(v);
                replacer_args.push(v);
            }
            replacer_args.push(Value::number(f.start as f64));
            replacer_args.push(Value::string(s));
            if !groups.is_undefined() {
                replacer_args.push(groups);
            }
            let rv = call(vm, replace_value, Value::UNDEFINED, &replacer_args)?;
            to_js_str(vm, rv)?
        } else {
            let mut out = Vec::new();
            append_substitution(vm, &mut out, &matched, &subject, f.start, &captures, groups, &template)?;
            JsStr::from_units(out)
        };
        vm.roots.truncate(mark);
        if f.start >= next_source_position {
            accumulated.extend_from_slice(&units[next_source_position..f.start]);
            accumulated.extend(replacement.iter());
            next_source_position = f.end;
        }
        vm.charge(replacement.len() as u64)?;
    }
    if next_source_position < units.len() {
        accumulated.extend_from_slice(&units[next_source_position..]);
    }
    Ok(vm.js_str(JsStr::from_units(accumulated)))
}

/// lastIndex of a pristine RegExp (a number): ToLength of it.
fn last_index_number(vm: &Vm, rx: ObjectId) -> u64 {
    let v = vm.heap.obj(rx).lookup_named(&vm.heap.shapes, PropertyKey::Atom(atom::lastIndex)).map(|(v, _)| v);
    let n = v.and_then(Value::as_number).unwrap_or(0.0);
    if n.is_nan() || n <= 0.0 {
        0
    } else {
        n.min(9007199254740991.0) as u64
    }
}

/// `@@split` on an unmodified, non-sticky RegExp with the default species: the splitter's
/// sticky attempts at q, q+1, … are one forward search from q.
fn split_fast(vm: &mut Vm, m: &Matcher, s: StringId, limit: Value) -> JsResult<Value> {
    let lim = if limit.is_undefined() { u32::MAX } else { to_uint32(vm, limit)? };
    if lim == 0 {
        return Ok(vm.new_array(Vec::new()));
    }
    let units = subject_units(vm, s);
    let size = units.len();
    let subject = vm.heap.flat(s).clone();
    let full_unicode = m.flags.full_unicode();
    if size == 0 {
        let z = run_matcher(vm, m, &units, 0)?;
        return Ok(if z.is_some() { vm.new_array(Vec::new()) } else { vm.new_array(vec![Value::string(s)]) });
    }
    let mut parts: Vec<Value> = Vec::new();
    let (mut p, mut q) = (0usize, 0usize);
    while q < size {
        let Some(z) = run_matcher(vm, m, &units, q)? else { break };
        if z.start >= size {
            break;
        }
        let e = z.end.min(size);
        if e == p {
            q = advance_units(&units, z.start, full_unicode);
            continue;
        }
        let t = vm.js_str(subject.slice(p, z.start));
        parts.push(t);
        if parts.len() as u64 == u64::from(lim) {
            return Ok(vm.new_array(parts));
        }
        p = e;
        for c in &z.captures {
            let v = match c {
                Some((a, b)) => vm.js_str(subject.slice(*a, *b)),
                None => Value::UNDEFINED,
            };
            parts.push(v);
            if parts.len() as u64 == u64::from(lim) {
                return Ok(vm.new_array(parts));
            }
        }
        q = p;
        if parts.len() % 4096 == 0 {
            vm.check_heap()?;
        }
    }
    let t = vm.js_str(subject.slice(p.min(size), size));
    parts.push(t);
    Ok(vm.new_array(parts))
}

// ---- helpers

fn require_object(vm: &mut Vm, this: Value, method: &str) -> JsResult<ObjectId> {
    match this.as_object() {
        Some(o) => Ok(o),
        None => Err(vm.type_error(format!("{method} called on a non-object"))),
    }
}

/// RequireInternalSlot(R, [[RegExpMatcher]]).
fn require_regexp(vm: &mut Vm, this: Value, method: &str) -> JsResult<ObjectId> {
    match this.as_object() {
        Some(o) if matches!(vm.heap.obj(o).class, Class::RegExp(_)) => Ok(o),
        _ => Err(vm.type_error(format!("{method} called on an incompatible receiver"))),
    }
}

/// ToString(? Get(rx, "flags")) as code units.
fn get_flags_string(vm: &mut Vm, rx: ObjectId) -> JsResult<Vec<u16>> {
    let f = get(vm, rx, PropertyKey::Atom(atom::flags), Value::object(rx))?;
    Ok(to_js_str(vm, f)?.units())
}

/// SpeciesConstructor ( O, defaultConstructor ) (§7.3.22).
fn species_constructor(vm: &mut Vm, o: ObjectId, default: Value) -> JsResult<Value> {
    // 1. Let C be ? Get(O, "constructor").
    let c = get(vm, o, PropertyKey::Atom(atom::constructor), Value::object(o))?;
    // 2. If C is undefined, return defaultConstructor.
    if c.is_undefined() {
        return Ok(default);
    }
    // 3. If C is not an Object, throw a TypeError exception.
    let Some(co) = c.as_object() else {
        return Err(vm.type_error("object.constructor is not an object"));
    };
    // 4. Let S be ? Get(C, %Symbol.species%).
    let key = PropertyKey::Symbol(vm.symbols.species);
    let s = get(vm, co, key, c)?;
    // 5. If S is either undefined or null, return defaultConstructor.
    if s.is_nullish() {
        return Ok(default);
    }
    // 6. If IsConstructor(S) is true, return S.
    if is_constructor(vm, s) {
        return Ok(s);
    }
    // 7. Throw a TypeError exception.
    Err(vm.type_error("object.constructor[Symbol.species] is not a constructor"))
}

/// The property key of a numeric index (ToString(𝔽(n))).
fn index_key(vm: &mut Vm, n: u64) -> PropertyKey {
    match u32::try_from(n) {
        Ok(i) if i != u32::MAX => PropertyKey::Index(i),
        _ => vm.key(&number_to_string(n as f64)),
    }
}

/// Fill a fresh array with `values` (CreateDataPropertyOrThrow on each index of an array
/// nothing else has seen: unobservable).
fn set_array_elements(vm: &mut Vm, a: Value, values: Vec<Value>) {
    let Some(ao) = a.as_object() else { return };
    let len = values.len() as u32;
    let obj = vm.heap.obj_mut(ao);
    obj.elements = values;
    if let Class::Array(d) = &mut obj.class {
        d.length = len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    fn matcher(src: &str, flags: &str) -> Matcher {
        let (source, f) = (JsStr::from_str(src), JsStr::from_str(flags));
        let parsed = Flags::parse(&f).unwrap();
        Matcher { re: compile_pattern(&source, &f, parsed).unwrap(), source, flags: parsed }
    }

    #[test]
    fn flags_parse_rejects_repeats_and_unknowns() {
        assert!(Flags::parse(&JsStr::from_str("dgimsuy")).is_some());
        assert!(Flags::parse(&JsStr::from_str("gg")).is_none());
        assert!(Flags::parse(&JsStr::from_str("x")).is_none());
        assert!(Flags::parse(&JsStr::from_str("uv")).is_none());
    }

    #[test]
    fn sticky_wrapper_anchors_at_start() {
        let mut vm = Vm::new(crate::vm::VmOptions::default());
        let m = matcher("b", "y");
        let text = units("abcb");
        assert!(run_matcher(&mut vm, &m, &text, 0).unwrap().is_none());
        let hit = run_matcher(&mut vm, &m, &text, 1).unwrap().unwrap();
        assert_eq!((hit.start, hit.end, hit.captures.len()), (1, 2, 0));
        // A decimal escape falls back to scanning, with the same answers.
        let m = matcher("(a)\\1", "y");
        assert!(anchor_for(&m.source, m.flags) == Anchor::Scan);
        assert!(run_matcher(&mut vm, &m, &units("xaa"), 0).unwrap().is_none());
        assert!(run_matcher(&mut vm, &m, &units("xaa"), 1).unwrap().is_some());
    }

    #[test]
    fn indices_are_code_units() {
        let mut vm = Vm::new(crate::vm::VmOptions::default());
        let m = matcher(".", "u");
        let text = units("😀x");
        let hit = run_matcher(&mut vm, &m, &text, 0).unwrap().unwrap();
        assert_eq!((hit.start, hit.end), (0, 2));
        let m = matcher(".", "");
        let hit = run_matcher(&mut vm, &m, &text, 0).unwrap().unwrap();
        assert_eq!((hit.start, hit.end), (0, 1));
    }

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
