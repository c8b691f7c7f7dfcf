//! The regress glue: flags, pattern translation, the compile cache, one match.

use std::sync::{Arc, Mutex};

use regress::Regex;

use crate::error::{JsResult, Limit, Throw};
use crate::heap::object::Class;
use crate::string::JsStr;
use crate::value::{ObjectId, StringId};
use crate::vm::Vm;

// ---- flags

/// The flags of a RegExp, parsed from `[[OriginalFlags]]`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(super) struct Flags {
    pub(super) has_indices: bool,
    pub(super) global: bool,
    pub(super) ignore_case: bool,
    pub(super) multiline: bool,
    pub(super) dot_all: bool,
    pub(super) unicode: bool,
    pub(super) unicode_sets: bool,
    pub(super) sticky: bool,
}

impl Flags {
    /// Parse a flags string; None when it has an unknown or repeated flag, or both `u` and `v`
    /// (RegExpInitialize steps 4–5 of §22.2.3.3 and the pattern's early errors).
    pub(super) fn parse(f: &JsStr) -> Option<Flags> {
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
    pub(super) fn full_unicode(self) -> bool {
        self.unicode || self.unicode_sets
    }

    pub(super) fn regress(self) -> regress::Flags {
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
pub(super) enum Anchor {
    /// Not sticky: leftmost match at or after the start.
    Search,
    /// Compiled as `(?:P)|()`: one attempt; the last group participating means failure.
    Wrapped,
    /// Sticky, searched forward; a match not starting at the start is a failure.
    Scan,
}

pub(super) fn anchor_for(source: &JsStr, flags: Flags) -> Anchor {
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
pub(super) fn has_decimal_escape(source: &JsStr) -> bool {
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
/// - `\k<name>` of a duplicated name refers to whichever group participated: regress binds it
///   to the first, so it becomes `(?:\i\j…)` (a non-participating group's backreference
///   matches the empty string, and at most one of them participates);
/// - `\b` and `\B` are assertions and cannot take a quantifier (regress accepts one).
pub(super) fn regress_pattern(source: &JsStr, flags: Flags) -> Result<Vec<u32>, String> {
    let full_unicode = flags.full_unicode();
    let units = source.units();
    let chars: Vec<u32> =
        if full_unicode { char_code_points(&units) } else { units.iter().map(|&u| u32::from(u)).collect() };
    let groups = capture_group_names(&chars, flags.unicode_sets);
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
                let mut name = Vec::new();
                let next = copy_group_name(&chars, i + 3, &mut name);
                let bare = name.strip_suffix(&[u32::from(b'>')]).unwrap_or(&name);
                let numbers: Vec<usize> =
                    groups.iter().enumerate().filter(|(_, n)| n.as_deref() == Some(bare)).map(|(k, _)| k + 1).collect();
                if numbers.len() > 1 {
                    out.extend("(?:".chars().map(u32::from));
                    for n in numbers {
                        out.push(u32::from(b'\\'));
                        out.extend(n.to_string().chars().map(u32::from));
                    }
                    out.push(u32::from(b')'));
                } else {
                    out.extend_from_slice(&chars[i..i + 3]);
                    out.extend(name);
                }
                i = next;
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
            if class_depth == 0 || flags.unicode_sets {
                class_depth += 1;
            }
        } else if c == u32::from(b']') {
            class_depth = class_depth.saturating_sub(1);
        } else if c == u32::from(b'(')
            && class_depth == 0
            && is(i + 1, b'?')
            && is(i + 2, b'<')
            && !is(i + 3, b'=')
            && !is(i + 3, b'!')
        {
            out.extend_from_slice(&chars[i..i + 3]);
            i = copy_group_name(&chars, i + 3, &mut out);
            continue;
        }
        out.push(c);
        i += 1;
    }
    Ok(out)
}

/// The capturing groups of a pattern in order: each one's name (as code points), or None.
fn capture_group_names(chars: &[u32], unicode_sets: bool) -> Vec<Option<Vec<u32>>> {
    let is = |i: usize, c: u8| chars.get(i) == Some(&u32::from(c));
    let mut groups = Vec::new();
    let mut class_depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == u32::from(b'\\') {
            i += 2;
            continue;
        }
        if c == u32::from(b'[') {
            if class_depth == 0 || unicode_sets {
                class_depth += 1;
            }
        } else if c == u32::from(b']') {
            class_depth = class_depth.saturating_sub(1);
        } else if c == u32::from(b'(') && class_depth == 0 {
            if !is(i + 1, b'?') {
                groups.push(None);
            } else if is(i + 2, b'<') && !is(i + 3, b'=') && !is(i + 3, b'!') {
                let mut name = Vec::new();
                i = copy_group_name(chars, i + 3, &mut name);
                name.pop_if(|c| *c == u32::from(b'>'));
                groups.push(Some(name));
                continue;
            }
        }
        i += 1;
    }
    groups
}

/// Copy a group name starting at `i` up to and including its `>`, combining surrogate pairs
/// (written literally or as `\uXXXX\uXXXX`) into code points. Returns the index after it.
pub(super) fn copy_group_name(chars: &[u32], mut i: usize, out: &mut Vec<u32>) -> usize {
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
pub(super) fn quantifier_at(chars: &[u32], i: usize) -> bool {
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

pub(super) fn char_code_points(units: &[u16]) -> Vec<u32> {
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

pub(super) fn is_lead(c: u16) -> bool {
    (0xD800..=0xDBFF).contains(&c)
}

pub(super) fn is_trail(c: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&c)
}

/// Entries kept by the process-wide compile cache.
pub(super) const COMPILE_CACHE_SIZE: usize = 64;

pub(super) type CacheEntry = (JsStr, JsStr, Arc<Regex>);

pub(super) static COMPILE_CACHE: Mutex<Vec<CacheEntry>> = Mutex::new(Vec::new());

/// Compile `source` with `flags` (validated), through the process-wide cache.
pub(super) fn compile_pattern(source: &JsStr, flags_str: &JsStr, flags: Flags) -> Result<Arc<Regex>, String> {
    if let Ok(mut cache) = COMPILE_CACHE.lock() {
        if let Some(i) = cache.iter().position(|(s, f, _)| s == source && f == flags_str) {
            let entry = cache.remove(i);
            let re = entry.2.clone();
            cache.push(entry);
            return Ok(re);
        }
    }
    let chars = regress_pattern(source, flags)?;
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
pub(super) struct Matcher {
    pub(super) source: JsStr,
    pub(super) flags: Flags,
    pub(super) re: Arc<Regex>,
}

/// The matcher of `r`, or None if `r` is not a RegExp instance.
pub(super) fn matcher_of(vm: &mut Vm, r: ObjectId) -> JsResult<Option<Matcher>> {
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
            let re =
                compile_pattern(&source, &flags_str, flags).map_err(|m| pattern_error(vm, &source, &flags_str, &m))?;
            if let Class::RegExp(d) = &mut vm.heap.obj_mut(r).class {
                d.compiled = Some(re.clone());
            }
            re
        }
    };
    Ok(Some(Matcher { source, flags, re }))
}

pub(super) fn pattern_error(vm: &mut Vm, source: &JsStr, flags: &JsStr, message: &str) -> crate::error::Throw {
    vm.syntax_error(format!(
        "Invalid regular expression: /{}/{}: {}",
        source.to_rust_string(),
        flags.to_rust_string(),
        message
    ))
}

// ---- matching

/// A successful match, in code-unit indices.
pub(super) struct RawMatch {
    pub(super) start: usize,
    pub(super) end: usize,
    /// Groups 1..=n; None for a group that did not participate.
    pub(super) captures: Vec<Option<(usize, usize)>>,
    /// Named groups in order of first appearance, with the participating group's range.
    pub(super) named: Vec<(String, Option<(usize, usize)>)>,
}

/// Fuel weight per scanned code unit: 1 plus the pattern's quantifiers, a rough estimate of
/// how much backtracking each position can cost.
pub(super) fn backtrack_weight(source: &JsStr) -> u64 {
    let quantifiers = source.iter().filter(|&c| matches!(c, 0x2A | 0x2B | 0x3F | 0x7B)).count() as u64;
    1 + quantifiers.min(31)
}

/// Run the matcher on `units` from `start`: anchored there when sticky, else the leftmost
/// match at or after it. Charges fuel for the scanned span.
pub(super) fn run_matcher(vm: &mut Vm, m: &Matcher, units: &[u16], start: usize) -> JsResult<Option<RawMatch>> {
    let (found, scanned) = bounded(vm, || find_match(m, units, start))?;
    charge_match(vm, m, scanned)?;
    Ok(found)
}

/// [`run_matcher`] on a heap string, reading a UTF-16 subject in place.
pub(super) fn match_string(vm: &mut Vm, m: &Matcher, s: StringId, start: usize) -> JsResult<Option<RawMatch>> {
    vm.heap.flat(s);
    let mut wide = std::mem::take(&mut vm.regexp_subject);
    let collections = vm.heap.stats.collections;
    let subject = match vm.heap.flat_ref(s) {
        JsStr::Utf16(units) => &units[..],
        JsStr::Latin1(bytes) => wide.of(s, collections, bytes),
    };
    // The subject is borrowed from the heap while regress runs; the fuel is settled after.
    let budget = vm.fuel;
    let (result, spent) = with_backtrack_budget(budget, || find_match(m, subject, start));
    vm.regexp_subject = wide;
    let (found, scanned) = settle_backtracks(vm, result, spent)?;
    charge_match(vm, m, scanned)?;
    Ok(found)
}

/// A one-byte string widened to UTF-16, remembered by handle until the next collection (a
/// handle is reused only after the collection that freed it) and never copied: a copy of the
/// VM (canonical images renumber handles) starts without it.
#[derive(Default)]
pub struct WideSubject(Option<(StringId, u64, Vec<u16>)>);

impl Clone for WideSubject {
    fn clone(&self) -> Self {
        WideSubject(None)
    }
}

impl WideSubject {
    /// `bytes` (the string `s`'s, read after `collections` collections) as UTF-16 units.
    fn of(&mut self, s: StringId, collections: u64, bytes: &[u8]) -> &[u16] {
        let fresh =
            matches!(&self.0, Some((id, at, units)) if *id == s && *at == collections && units.len() == bytes.len());
        if !fresh {
            self.0 = Some((s, collections, bytes.iter().map(|&b| u16::from(b)).collect()));
        }
        self.0.as_ref().map_or(&[], |(_, _, units)| units)
    }
}

/// Runs a regress search on at most the VM's remaining fuel in backtracks, and charges them.
fn bounded<T>(vm: &mut Vm, search: impl FnOnce() -> T) -> JsResult<T> {
    let (result, spent) = with_backtrack_budget(vm.fuel, search);
    settle_backtracks(vm, result, spent)
}

/// `search` with regress's per-thread backtrack budget set to `budget`: its result, and the
/// backtracks it spent (`None` if it ran out, so its "no match" is not an answer).
fn with_backtrack_budget<T>(budget: u64, search: impl FnOnce() -> T) -> (T, Option<u64>) {
    regress::budget::set(budget);
    let result = search();
    let spent = (!regress::budget::exhausted()).then(|| budget - regress::budget::left());
    regress::budget::set(u64::MAX);
    (result, spent)
}

/// Charges a search's backtracks to the fuel; a search that ran out is the fuel limit.
fn settle_backtracks<T>(vm: &mut Vm, result: T, spent: Option<u64>) -> JsResult<T> {
    match spent {
        Some(units) => {
            vm.charge(units)?;
            Ok(result)
        }
        None => {
            vm.fuel = 0;
            Err(Throw::Limit(Limit::Fuel))
        }
    }
}

/// Fuel for a match that scanned `scanned` code units (charged after regress returns: it
/// cannot be interrupted).
pub(super) fn charge_match(vm: &mut Vm, m: &Matcher, scanned: usize) -> JsResult<()> {
    vm.charge((scanned as u64 + 1).saturating_mul(backtrack_weight(&m.source)))
}

/// The match regress finds, and how many code units the search covered.
pub(super) fn find_match(m: &Matcher, units: &[u16], start: usize) -> (Option<RawMatch>, usize) {
    let mut start = start;
    // A `u`/`v` matcher reads code points: an index inside a surrogate pair denotes that pair.
    if m.flags.full_unicode() && start > 0 && start < units.len() && is_trail(units[start]) && is_lead(units[start - 1])
    {
        start -= 1;
    }
    let found = if m.flags.full_unicode() {
        m.re.find_from_utf16(units, start).next()
    } else {
        m.re.find_from_ucs2(units, start).next()
    };
    let scanned = match &found {
        Some(f) => f.range.end.saturating_sub(start),
        None => units.len().saturating_sub(start),
    };
    let Some(found) = found else { return (None, scanned) };
    let mut captures: Vec<Option<(usize, usize)>> =
        found.captures.iter().map(|c| c.as_ref().map(|r| (r.start, r.end))).collect();
    match anchor_for(&m.source, m.flags) {
        Anchor::Wrapped => {
            // The sentinel group is the last one; its participation means P failed here.
            if captures.pop().flatten().is_some() {
                return (None, scanned);
            }
        }
        Anchor::Scan => {
            if found.range.start != start {
                return (None, scanned);
            }
        }
        Anchor::Search => {}
    }
    let named = found.named_groups().map(|(n, r)| (n.to_string(), r.map(|r| (r.start, r.end)))).collect();
    (Some(RawMatch { start: found.range.start, end: found.range.end, captures, named }), scanned)
}

/// The subject's code units (Latin-1 widened), for the loops that match one subject many times.
pub(super) fn subject_units(vm: &mut Vm, s: StringId) -> Vec<u16> {
    vm.heap.flat(s).units()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
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
}
