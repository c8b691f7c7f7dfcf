//! Legacy RegExp features (the Annex B "legacy RegExp" proposal):
//! https://github.com/tc39/proposal-regexp-legacy-features
//!
//! The static accessors `RegExp.$1`…`$9`, `input` (`$_`), `lastMatch` (`$&`), `lastParen`
//! (`$+`), `leftContext` (`` $` ``) and `rightContext` (`$'`) read the last successful match of
//! a RegExp with legacy features enabled. The state is plain data in the RegExp constructor's
//! captures (see [`Slot`]): the subject and code-unit ranges, substrings made when read.
//!
//! `[[LegacyFeaturesEnabled]]` is set by RegExpAlloc when `newTarget` is `%RegExp%`; objects
//! keep no such slot here, so it is read as "the object's prototype is `%RegExp.prototype%`"
//! (true of every `RegExp(…)` and literal, false of subclass instances); only
//! `RegExp.prototype.compile` consults it. Before the first match the accessors return "" like
//! V8; the accessors throw a TypeError for any receiver but `%RegExp%` (V8 does not).

use crate::builtins::arg;
use crate::error::JsResult;
use crate::heap::object::Class;
use crate::runtime::convert::to_string;
use crate::string::JsStr;
use crate::value::{ObjectId, StringId, Value};
use crate::vm::Vm;

use super::matcher::RawMatch;

/// Indices into the RegExp constructor's captures.
#[derive(Clone, Copy)]
enum Slot {
    /// [[RegExpInput]]: a string, or UNDEFINED before any match (reads "").
    Input = 0,
    /// The subject of the last match (UNDEFINED before any).
    Subject = 1,
    /// [[RegExpLastMatch]] range: start, end.
    Match = 2,
    /// [[RegExpLastParen]] range (-1 when the last group did not participate or there is none).
    LastParen = 4,
    /// [[RegExpParen1]]…[[RegExpParen9]] ranges.
    Parens = 6,
}

const SLOTS: usize = Slot::Parens as usize + 18;

/// Does `r` have legacy features enabled (see the module doc)?
pub(super) fn legacy_enabled(vm: &Vm, r: ObjectId) -> bool {
    vm.heap.obj(r).proto == Some(vm.realm.regexp_prototype)
}

fn statics(vm: &Vm) -> Vec<Value> {
    match &vm.heap.obj(vm.realm.regexp_constructor).class {
        Class::Native(n) => n.captures.clone(),
        _ => Vec::new(),
    }
}

fn set_statics(vm: &mut Vm, slots: Vec<Value>) {
    let ctor = vm.realm.regexp_constructor;
    if let Class::Native(n) = &mut vm.heap.obj_mut(ctor).class {
        n.captures = slots;
    }
}

/// RegExpBuiltinExec's last step for a successful match of `r` on `s`. NOTE: the proposal
/// invalidates the statics (later reads throw) when `r` has legacy features disabled; V8 updates
/// them for every match, subclass instances included, and so does this (no test262 test reads
/// invalidated statics; code that does would throw here but not in Node).
pub(super) fn record_match(vm: &mut Vm, _r: ObjectId, s: StringId, found: &RawMatch) {
    update_statics(vm, s, found);
}

/// UpdateLegacyRegExpStaticProperties ( C, S, startIndex, endIndex, capturedValues ).
pub(super) fn update_statics(vm: &mut Vm, s: StringId, found: &RawMatch) {
    let range = |r: Option<(usize, usize)>| match r {
        Some((a, b)) => [Value::number(a as f64), Value::number(b as f64)],
        None => [Value::int(-1), Value::int(-1)],
    };
    let mut slots = Vec::with_capacity(SLOTS);
    // 1–3. [[RegExpInput]] = S; [[RegExpLastMatch]] = S[startIndex..endIndex].
    slots.extend([Value::string(s), Value::string(s)]);
    slots.extend(range(Some((found.start, found.end))));
    // 4. [[RegExpLastParen]] = the last captured value, or "" with no groups.
    slots.extend(range(found.captures.last().copied().flatten()));
    // 7–8. [[RegExpParen1-9]] = the first nine captured values ("" when undefined).
    for i in 0..9 {
        slots.extend(range(found.captures.get(i).copied().flatten()));
    }
    set_statics(vm, slots);
}

/// GetLegacyRegExpStaticProperty ( C, thisValue, internalSlotName ) for a range slot, or the
/// left/right context (`which` 1 and 2).
fn get_static(vm: &mut Vm, this: Value, slot: usize, which: u8) -> JsResult<Value> {
    // 2. If SameValue(C, thisValue) is false, throw a TypeError exception.
    if this != Value::object(vm.realm.regexp_constructor) {
        return Err(vm.type_error("RegExp legacy static accessor called on an incompatible receiver"));
    }
    let slots = statics(vm);
    let subject = slots.get(Slot::Subject as usize).copied().unwrap_or_default();
    // 4. If value is empty, throw a TypeError exception.
    if subject.is_empty() {
        return Err(vm.type_error("RegExp legacy static properties are not available"));
    }
    let Some(s) = subject.as_string() else { return Ok(vm.str("")) };
    let text: JsStr = vm.heap.flat(s).clone();
    let at = |i: usize| slots.get(i).and_then(|v| v.as_number()).unwrap_or(-1.0);
    let (start, end) = match which {
        // leftContext: S[0..startIndex].
        1 => (0.0, at(Slot::Match as usize)),
        // rightContext: S[endIndex..].
        2 => (at(Slot::Match as usize + 1), text.len() as f64),
        _ => (at(slot), at(slot + 1)),
    };
    if start < 0.0 || end < start || end > text.len() as f64 {
        return Ok(vm.str(""));
    }
    // 5. Return value.
    Ok(vm.js_str(text.slice(start as usize, end as usize)))
}

/// ### get RegExp.input / get RegExp.$_
pub(super) fn get_input(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    if this != Value::object(vm.realm.regexp_constructor) {
        return Err(vm.type_error("RegExp legacy static accessor called on an incompatible receiver"));
    }
    let input = statics(vm).first().copied().unwrap_or_default();
    if input.is_empty() {
        return Err(vm.type_error("RegExp legacy static properties are not available"));
    }
    Ok(if input.is_string() { input } else { vm.str("") })
}

/// ### set RegExp.input / set RegExp.$_
/// SetLegacyRegExpStaticProperty ( C, thisValue, internalSlotName, val ).
pub(super) fn set_input(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. If SameValue(C, thisValue) is false, throw a TypeError exception.
    if this != Value::object(vm.realm.regexp_constructor) {
        return Err(vm.type_error("RegExp legacy static accessor called on an incompatible receiver"));
    }
    // 2. Let strVal be ? ToString(val).
    let str_val = to_string(vm, arg(args, 0))?;
    // 3. Set the value of the internal slot of C named internalSlotName to strVal.
    let mut slots = statics(vm);
    slots.resize(SLOTS, Value::UNDEFINED);
    slots[Slot::Input as usize] = Value::string(str_val);
    set_statics(vm, slots);
    Ok(Value::UNDEFINED)
}

/// ### get RegExp.lastMatch / get RegExp.$&
pub(super) fn get_last_match(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    get_static(vm, this, Slot::Match as usize, 0)
}

/// ### get RegExp.lastParen / get RegExp.$+
pub(super) fn get_last_paren(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    get_static(vm, this, Slot::LastParen as usize, 0)
}

/// ### get RegExp.leftContext / get RegExp.$`
pub(super) fn get_left_context(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    get_static(vm, this, 0, 1)
}

/// ### get RegExp.rightContext / get RegExp.$'
pub(super) fn get_right_context(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    get_static(vm, this, 0, 2)
}

macro_rules! paren_getters {
    ($($name:ident = $n:expr,)*) => {$(
        /// ### get RegExp.$1 … $9
        pub(super) fn $name(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
            get_static(vm, this, Slot::Parens as usize + 2 * ($n - 1), 0)
        }
    )*};
}

paren_getters! {
    get_paren1 = 1,
    get_paren2 = 2,
    get_paren3 = 3,
    get_paren4 = 4,
    get_paren5 = 5,
    get_paren6 = 6,
    get_paren7 = 7,
    get_paren8 = 8,
    get_paren9 = 9,
}
