//! Fast paths for unmodified RegExps: `@@replace`, `@@split` and global `@@match` loop in Rust
//! over one copy of the subject when JS cannot observe the skipped `Get`/`Set` steps.

use super::exec::append_substitution;
use super::legacy::{record_match, update_statics};
use super::matcher::{is_lead, is_trail, matcher_of, run_matcher, subject_units, Matcher, RawMatch};
use super::prototype::FLAG_PROPERTIES;
use crate::atoms::{atom, PropertyKey};
use crate::builtins::NativeId;
use crate::error::JsResult;
use crate::heap::object::Class;
use crate::heap::shape::PropFlags;
use crate::runtime::call::call;
use crate::runtime::convert::{to_js_str, to_uint32};
use crate::string::JsStr;
use crate::value::{ObjectId, StringId, Value};
use crate::vm::Vm;

// ---- fast paths

/// Stable ids of the builtins the fast paths require untouched.
pub(super) struct BuiltinIds {
    pub(super) exec: Option<NativeId>,
    pub(super) flags: Option<NativeId>,
    pub(super) flag_getters: Vec<Option<NativeId>>,
    pub(super) species: Option<NativeId>,
}

pub(super) fn builtin_ids() -> &'static BuiltinIds {
    static IDS: std::sync::OnceLock<BuiltinIds> = std::sync::OnceLock::new();
    IDS.get_or_init(|| BuiltinIds {
        exec: NativeId::by_name("RegExp.prototype.exec"),
        flags: NativeId::by_name("get RegExp.prototype.flags"),
        flag_getters: FLAG_GETTER_NAMES.iter().map(|n| NativeId::by_name(n)).collect(),
        species: NativeId::by_name("get RegExp[Symbol.species]"),
    })
}

/// The stable names of the getters `get flags` reads, in FLAG_PROPERTIES order.
pub(super) const FLAG_GETTER_NAMES: &[&str] = &[
    "get RegExp.prototype.hasIndices",
    "get RegExp.prototype.global",
    "get RegExp.prototype.ignoreCase",
    "get RegExp.prototype.multiline",
    "get RegExp.prototype.dotAll",
    "get RegExp.prototype.unicode",
    "get RegExp.prototype.unicodeSets",
    "get RegExp.prototype.sticky",
];

pub(super) fn is_native(vm: &Vm, f: Value, id: Option<NativeId>) -> bool {
    let Some(id) = id else { return false };
    f.as_object().is_some_and(|o| matches!(&vm.heap.obj(o).class, Class::Native(n) if n.id == id))
}

/// The value (or accessor getter) of an own property, without running JS.
pub(super) fn own_slot(vm: &Vm, o: ObjectId, key: PropertyKey) -> Option<(Value, bool)> {
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
/// `RegExp[@@species]` and a data `@@match` too) — its matcher.
pub(super) fn pristine_matcher(vm: &mut Vm, rx: ObjectId, species: bool) -> JsResult<Option<Matcher>> {
    if !is_pristine(vm, rx, species) {
        return Ok(None);
    }
    matcher_of(vm, rx)
}

pub(super) fn is_pristine(vm: &Vm, rx: ObjectId, species: bool) -> bool {
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
        // Constructing the splitter reads rx[@@match] (IsRegExp): it must not be a getter.
        let m = own_slot(vm, proto, PropertyKey::Symbol(vm.symbols.match_));
        if m.is_none_or(|(_, acc)| acc) {
            return false;
        }
    }
    true
}

pub(super) fn set_last_index_fast(vm: &mut Vm, rx: ObjectId, v: usize) {
    let heap = &mut vm.heap;
    let shapes = &heap.shapes;
    if let Some(o) = heap.objects.get_mut(rx.0) {
        o.set_named_value(shapes, PropertyKey::Atom(atom::lastIndex), Value::number(v as f64));
    }
}

/// The matches a global matcher finds from lastIndex 0, as the spec's exec loop finds them.
pub(super) fn collect_global(vm: &mut Vm, m: &Matcher, units: &[u16]) -> JsResult<Vec<RawMatch>> {
    let full_unicode = m.flags.full_unicode();
    let mut out = Vec::new();
    let mut last_index = 0usize;
    while last_index <= units.len() {
        let Some(found) = run_matcher(vm, m, units, last_index)? else { break };
        last_index = if found.end == found.start { advance_units(units, found.end, full_unicode) } else { found.end };
        out.push(found);
        if out.len().is_multiple_of(4096) {
            vm.check_heap()?;
        }
    }
    Ok(out)
}

pub(super) fn advance_units(units: &[u16], index: usize, unicode: bool) -> usize {
    if unicode && index + 1 < units.len() && is_lead(units[index]) && is_trail(units[index + 1]) {
        index + 2
    } else {
        index + 1
    }
}

/// `@@match` on an unmodified global RegExp.
pub(super) fn match_all_fast(vm: &mut Vm, rx: ObjectId, m: &Matcher, s: StringId) -> JsResult<Value> {
    let units = subject_units(vm, s);
    let found = collect_global(vm, m, &units)?;
    // The final failing exec leaves lastIndex at 0; the last success sets the legacy statics.
    set_last_index_fast(vm, rx, 0);
    if let Some(last) = found.last() {
        record_match(vm, rx, s, last);
    }
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
pub(super) fn replace_fast(
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
    if let Some(last) = found.last() {
        record_match(vm, rx, s, last);
    }
    let template = match replace_value.as_string() {
        Some(t) if !functional_replace => vm.heap.flat(t).clone(),
        _ => JsStr::empty(),
    };
    let mut accumulated: Vec<u16> = Vec::with_capacity(units.len());
    let mut next_source_position = 0usize;
    for f in &found {
        let matched = subject.slice(f.start, f.end);
        let captures: Vec<Option<JsStr>> = f.captures.iter().map(|c| c.map(|(a, b)| subject.slice(a, b))).collect();
        let mark = vm.roots.len();
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
pub(super) fn last_index_number(vm: &Vm, rx: ObjectId) -> u64 {
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
pub(super) fn split_fast(vm: &mut Vm, m: &Matcher, s: StringId, limit: Value) -> JsResult<Value> {
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
        if let Some(z) = &z {
            update_statics(vm, s, z);
        }
        return Ok(if z.is_some() { vm.new_array(Vec::new()) } else { vm.new_array(vec![Value::string(s)]) });
    }
    let mut parts: Vec<Value> = Vec::new();
    // The splitter's last successful exec sets the legacy statics (it is a plain %RegExp%).
    let mut last_z: Option<RawMatch> = None;
    let (mut p, mut q) = (0usize, 0usize);
    while q < size {
        let Some(z) = run_matcher(vm, m, &units, q)? else { break };
        if z.start >= size {
            break;
        }
        let e = z.end.min(size);
        if e == p {
            q = advance_units(&units, z.start, full_unicode);
            last_z = Some(z);
            continue;
        }
        let t = vm.js_str(subject.slice(p, z.start));
        parts.push(t);
        if parts.len() as u64 == u64::from(lim) {
            update_statics(vm, s, &z);
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
                update_statics(vm, s, &z);
                return Ok(vm.new_array(parts));
            }
        }
        q = p;
        last_z = Some(z);
        if parts.len().is_multiple_of(4096) {
            vm.check_heap()?;
        }
    }
    if let Some(z) = &last_z {
        update_statics(vm, s, z);
    }
    let t = vm.js_str(subject.slice(p.min(size), size));
    parts.push(t);
    Ok(vm.new_array(parts))
}
