//! The TypeErrors and ReferenceErrors the interpreter throws, worded as V8 words them (named
//! by the instruction's error site where the compiler recorded one).

use crate::atoms::atom;
use crate::bytecode::{ErrorHint, ErrorSite};
use crate::error::Throw;
use crate::heap::CodeId;
use crate::runtime::describe::{describe, Shown};
use crate::value::Value;
use crate::vm::Vm;

pub fn tdz_error(vm: &mut Vm, code: CodeId, register: u32) -> Throw {
    let name = vm.heap.code(code).register_names.get(register as usize).copied().unwrap_or(atom::empty);
    let n = vm.heap.atoms.get(name).to_rust_string();
    vm.reference_error(format!("Cannot access '{n}' before initialization"))
}

pub fn tdz_error_env(vm: &mut Vm, _code: CodeId, _slot: u32) -> Throw {
    vm.reference_error("Cannot access a lexical binding before initialization")
}

/// The error site of the instruction the top frame is executing, if it has one with `hint`
/// (a native called from JS runs with its caller's `Call` there, whose hint differs).
fn error_site(vm: &Vm, hint: impl Fn(ErrorHint) -> bool) -> Option<ErrorSite> {
    let frame = vm.frames.last()?;
    let site = vm.heap.code(frame.code).error_site(frame.pc.checked_sub(1)?)?;
    hint(site.hint).then(|| site.clone())
}

pub fn not_callable_error(vm: &mut Vm, v: Value) -> Throw {
    let shown = match error_site(vm, |h| h == ErrorHint::Callee) {
        Some(site) => site.text,
        None => describe(vm, v, Shown::Callee),
    };
    vm.type_error(format!("{shown} is not a function"))
}

pub fn not_constructor_error(vm: &mut Vm, v: Value) -> Throw {
    let shown = match error_site(vm, |h| h == ErrorHint::Callee) {
        Some(site) => site.text,
        None => describe(vm, v, Shown::Callee),
    };
    vm.type_error(format!("{shown} is not a constructor"))
}

/// V8's TypeError for a value GetIterator finds no iterator method on: named by the
/// iteration's error site, else by the value (`number 5 is not iterable (cannot read
/// property Symbol(Symbol.iterator))`).
pub fn not_iterable_error(vm: &mut Vm, v: Value, is_async: bool) -> Throw {
    let kind = if is_async { "async iterable" } else { "iterable" };
    let site = error_site(vm, |h| matches!(h, ErrorHint::Iterable | ErrorHint::CallResult | ErrorHint::SpreadArgument));
    let msg = match site {
        Some(ErrorSite { hint: ErrorHint::Iterable, text, .. }) => format!("{text} is not {kind}"),
        Some(ErrorSite { hint: ErrorHint::CallResult, text, .. }) => {
            format!("{text} is not a function or its return value is not {kind}")
        }
        Some(_) if v.is_nullish() => {
            let shown = describe(vm, v, Shown::Callee);
            format!("{shown} is not iterable (cannot read property {shown})")
        }
        Some(_) => "Spread syntax requires ...iterable[Symbol.iterator] to be a function".to_string(),
        None => {
            let shown = describe(vm, v, Shown::Typed);
            format!("{shown} is not {kind} (cannot read property Symbol(Symbol.iterator))")
        }
    };
    vm.type_error(msg)
}

/// V8's TypeError for destructuring null or undefined (`RequireObjectCoercible`).
pub fn not_destructurable_error(vm: &mut Vm, v: Value) -> Throw {
    let what = if v.is_null() { "null" } else { "undefined" };
    let site = error_site(vm, |h| matches!(h, ErrorHint::Destructure | ErrorHint::NestedRead));
    let msg = match site {
        Some(ErrorSite { hint: ErrorHint::NestedRead, property: Some(p), .. }) => {
            format!("Cannot read properties of {what} (reading '{p}')")
        }
        Some(ErrorSite { hint: ErrorHint::NestedRead, .. }) => format!("Cannot read properties of {what}"),
        Some(ErrorSite { text, property, .. }) => {
            let text = if text.is_empty() { describe(vm, v, Shown::Typed) } else { text };
            match property {
                Some(p) => format!("Cannot destructure property '{p}' of '{text}' as it is {what}."),
                None => format!("Cannot destructure '{text}' as it is {what}."),
            }
        }
        None => format!("Cannot destructure '{what}' as it is {what}."),
    };
    vm.type_error(msg)
}
