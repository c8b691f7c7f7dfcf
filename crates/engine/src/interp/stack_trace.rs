//! The call stack as V8 prints it in `error.stack` (its `CallSiteInfo` serialization), so
//! stack text that programs print, log or compare reads as it does under node:
//!
//! - a function called with no receiver (undefined, null or the global object): `at name
//!   (file:line:col)`, or just `at file:line:col` when it has no name;
//! - a constructor: `at new Name (…)`;
//! - a method call: `at Type.name (…)`, where Type is the receiver's constructor's name, and
//!   ` [as key]` when the function was found on the receiver under another key
//!   (`at Test.assert [as _assert]`), or `at Type.<anonymous>` for a nameless function.
//!
//! Built without running JS: properties are read only where they are data properties.
//! Native functions have no frame of their own here (V8 shows `at Array.forEach
//! (<anonymous>)` for them), and async frames carry no `async` marker.

use crate::atoms::{atom, PropertyKey};
use crate::bytecode::FunctionKind;
use crate::heap::object::Class;
use crate::interp::frame::{Frame, FrameKind};
use crate::runtime::describe::data_property;
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

/// How many frames a stack shows (V8's `Error.stackTraceLimit` default).
const FRAMES: usize = 10;

/// How far up a prototype chain a receiver's properties are searched for a method's key.
const CHAIN_LIMIT: usize = 32;

/// The current JS call stack in V8's format (one `\n    at …` line per frame).
pub fn render(vm: &mut Vm) -> String {
    let frames: Vec<CallSite> = vm.frames.iter().rev().take(FRAMES).map(CallSite::of).collect();
    let mut out = String::new();
    for site in frames {
        out.push_str("\n    at ");
        out.push_str(&site.line(vm));
    }
    out
}

/// What a frame's line is made of (copied out: reading a name may flatten a string).
struct CallSite {
    code: crate::heap::CodeId,
    pc: u32,
    this: Value,
    callee: Value,
    construct: bool,
}

impl CallSite {
    fn of(frame: &Frame) -> CallSite {
        CallSite {
            code: frame.code,
            pc: frame.pc,
            this: frame.this,
            callee: frame.callee,
            construct: matches!(frame.kind, FrameKind::Construct)
                || !(frame.new_target.is_undefined() || frame.new_target.is_null()),
        }
    }

    fn line(&self, vm: &mut Vm) -> String {
        let code = vm.heap.code(self.code);
        let (line, col) = code.position(self.pc.saturating_sub(1)).unwrap_or((0, 0));
        let file = vm.sources.get(code.source_id as usize).map_or("<anonymous>", |s| s.name.as_str());
        let location = format!("{file}:{line}:{col}");
        let (kind, name_atom) = (code.kind, code.name);
        let name = vm.heap.atoms.get(name_atom).to_rust_string();
        let callee = match kind {
            // A script's or module's top level, eval code: no function of its own.
            FunctionKind::Script | FunctionKind::Module | FunctionKind::Eval => None,
            // V8 gives an arrow the receiver it was called with, mostly none (a callback);
            // the frame here holds its lexical `this`, so it is named as a plain call.
            FunctionKind::Arrow | FunctionKind::AsyncArrow => (!name.is_empty()).then(|| name.clone()),
            _ => self.name(vm, &name, name_atom),
        };
        match callee {
            Some(callee) => format!("{callee} ({location})"),
            None => location,
        }
    }

    /// The text before the location, or None when V8 prints the location alone.
    fn name(&self, vm: &mut Vm, name: &str, name_atom: crate::atoms::Atom) -> Option<String> {
        if self.construct {
            return Some(format!("new {}", if name.is_empty() { "<anonymous>" } else { name }));
        }
        if is_top_level(vm, self.this) || name.starts_with('#') {
            // No receiver to name (a private method is named by itself, as V8 does).
            return (!name.is_empty()).then(|| name.to_string());
        }
        let type_name = type_name(vm, self.this);
        let method = method_name(vm, self.this, self.callee, (!name.is_empty()).then_some(name_atom));
        Some(method_call(&type_name, name, method))
    }
}

/// V8's `AppendMethodCall`.
fn method_call(type_name: &str, name: &str, method: Option<String>) -> String {
    let mut out = String::new();
    if name.is_empty() {
        out.push_str(type_name);
        out.push('.');
        out.push_str(method.as_deref().unwrap_or("<anonymous>"));
        return out;
    }
    if !name.starts_with(&format!("{type_name}.")) {
        out.push_str(type_name);
        out.push('.');
    }
    out.push_str(name);
    if let Some(method) = method.filter(|m| !ends_with_method_name(name, m)) {
        out.push_str(&format!(" [as {method}]"));
    }
    out
}

/// V8's `IsToplevel`: called with no receiver, or with the global object (a sloppy
/// function's `this` when it had none).
fn is_top_level(vm: &Vm, this: Value) -> bool {
    this.is_undefined() || this.is_null() || this.as_object() == Some(vm.global)
}

/// The receiver's type as V8 names it: a primitive's wrapper, a function's own name, else
/// the name of the constructor its prototype chain names.
fn type_name(vm: &mut Vm, this: Value) -> String {
    let o = match this.kind() {
        Kind::Object(o) => o,
        Kind::String(_) => return "String".into(),
        Kind::Int(_) | Kind::Float(_) => return "Number".into(),
        Kind::Bool(_) => return "Boolean".into(),
        Kind::Symbol(_) => return "Symbol".into(),
        Kind::BigInt(_) => return "BigInt".into(),
        _ => return "Object".into(),
    };
    if vm.heap.obj(o).is_callable() {
        return function_name(vm, o).unwrap_or_else(|| "Function".into());
    }
    data_property(vm, o, PropertyKey::Atom(atom::constructor))
        .as_object()
        .and_then(|c| function_name(vm, c))
        .unwrap_or_else(|| "Object".into())
}

/// A function's non-empty `name`, if it is a data property holding a string.
fn function_name(vm: &mut Vm, f: ObjectId) -> Option<String> {
    let name = own_data_property(vm, f, PropertyKey::Atom(atom::name))?;
    let text = vm.heap.flat(name.as_string()?).to_rust_string();
    (!text.is_empty()).then_some(text)
}

/// V8's `GetMethodName`: the key under which the receiver (or its prototype chain) holds
/// `callee` — the function's own name when it is found under it, else the one enumerable key.
fn method_name(vm: &Vm, this: Value, callee: Value, name: Option<crate::atoms::Atom>) -> Option<String> {
    let o = this.as_object()?;
    if let Some(name) = name {
        if data_property(vm, o, PropertyKey::Atom(name)) == callee {
            return Some(vm.heap.atoms.get(name).to_rust_string());
        }
    }
    // Else the one enumerable string key holding it; two such keys name nothing.
    let mut found = None;
    let mut cur = Some(o);
    for _ in 0..CHAIN_LIMIT {
        let Some(c) = cur else { break };
        let object = vm.heap.obj(c);
        if matches!(object.class, Class::Proxy(_)) {
            break;
        }
        let keys = object.named_keys(&vm.heap.shapes);
        for ((key, flags), value) in keys.into_iter().zip(object.named_values()) {
            if value != callee || flags.is_accessor() || !flags.enumerable() {
                continue;
            }
            if let PropertyKey::Atom(a) = key {
                if found.is_some() {
                    return None;
                }
                found = Some(a);
            }
        }
        cur = object.proto;
    }
    found.map(|a| vm.heap.atoms.get(a).to_rust_string())
}

/// V8's `StringEndsWithMethodName`: `name` is the method's key, or ends in `.key` or ` key`
/// (a getter's `get key`).
fn ends_with_method_name(name: &str, method: &str) -> bool {
    name == method || name.strip_suffix(method).is_some_and(|head| head.ends_with('.') || head.ends_with(' '))
}

fn own_data_property(vm: &Vm, o: ObjectId, key: PropertyKey) -> Option<Value> {
    let (value, flags) = vm.heap.obj(o).lookup_named(&vm.heap.shapes, key)?;
    (!flags.is_accessor()).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::ends_with_method_name;

    #[test]
    fn a_method_name_is_recognized_at_the_end_of_a_function_name() {
        assert!(ends_with_method_name("run", "run"));
        assert!(ends_with_method_name("exports.run", "run"));
        assert!(ends_with_method_name("get size", "size"));
        assert!(!ends_with_method_name("assert", "_assert"));
        assert!(!ends_with_method_name("rerun", "run"));
    }
}
