//! The call stack as V8 (node 20) prints it in `error.stack` (its `CallSiteInfo`
//! serialization), so stack text that programs print, log or compare reads as it does
//! under node:
//!
//! - a function called with no receiver (undefined, null or the global object): `at name
//!   (file:line:col)`, or just `at file:line:col` when it has no name;
//! - a constructor: `at new Name (…)`;
//! - a method call: `at Type.name (…)`, where Type is the receiver's constructor's name (a
//!   class's own name for its static methods), left out when the function's name is not an
//!   identifier (`at get size [as size]`, `at #p`); and ` [as key]` when the function was
//!   found on the receiver under another key (`at Test.assert [as _assert]`), or
//!   `at Type.<anonymous>` for a nameless function;
//! - a function with no name: the member it was assigned to, as the compiler inferred it
//!   (`at exports.f`, `at Foo.m` for `Foo.prototype.m = function () {}`);
//! - a builtin on the stack: the same, at `(<anonymous>)` (`at Array.forEach (<anonymous>)`,
//!   `at new Promise (<anonymous>)`, `at JSON.parse (<anonymous>)`).
//!
//! Which builtins show: V8 prints a frame for every builtin that runs with a frame of its
//! own (those written in Torque, CSA or C++), and none for the few it runs as call
//! trampolines without one: `Function.prototype.call` and `apply`, `Reflect.apply` and
//! `construct`, and the `Array` constructor ([`frameless`]). The engine's internal closures
//! (promise resolving functions, await continuations, module steps) and the embedder's host
//! functions show none either: node runs their equivalents as internal JS or C++ with no
//! user-visible frame.
//!
//! After them, the async functions awaiting the running one (`at async f (…)`, see
//! [`async_sites`]).
//!
//! Built without running JS: properties are read only where they are data properties.

use crate::atoms::{atom, PropertyKey};
use crate::bytecode::FunctionKind;
use crate::heap::frame::{Frame, FrameKind};
use crate::heap::object::Class;
use crate::interp::frame::NativeFrame;
use crate::runtime::describe::{data_property, slot_along_chain};
use crate::value::{Kind, ObjectId, Value};
use crate::vm::Vm;

/// How many frames a stack shows (V8's `Error.stackTraceLimit` default).
const FRAMES: usize = 10;

/// How far up a prototype chain a receiver's properties are searched for a method's key.
const CHAIN_LIMIT: usize = 32;

/// The current call stack in V8's format (one `\n    at …` line per frame).
pub fn render(vm: &mut Vm) -> String {
    render_below(vm, None)
}

/// The call stack below the innermost call of `until` (V8's SKIP_UNTIL_SEEN): frames above
/// it and its own are left out, and a stack without it is empty. `Error` constructors skip
/// up to `new.target` (a subclass's constructor frames are not part of its stack) and
/// `Error.captureStackTrace(o, f)` up to `f`.
pub fn render_below(vm: &mut Vm, until: Option<Value>) -> String {
    let mut sites = call_sites(vm);
    sites.extend(async_sites(vm));
    if let Some(f) = until {
        match sites.iter().position(|s| s.callee == f) {
            Some(i) => drop(sites.drain(..=i)),
            None => sites.clear(),
        }
    }
    let mut out = String::new();
    for site in sites.into_iter().take(FRAMES) {
        out.push_str("\n    at ");
        out.push_str(&site.line(vm));
    }
    out
}

/// Every frame innermost first: the VM's JS frames with the builtins running between them.
fn call_sites(vm: &Vm) -> Vec<CallSite> {
    let mut sites = Vec::with_capacity(vm.frames.len() + vm.native_frames.len());
    let natives = &vm.native_frames;
    let mut next = natives.len();
    let push_natives_above = |sites: &mut Vec<CallSite>, next: &mut usize, depth: usize| {
        while *next > 0 && natives[*next - 1].depth as usize >= depth {
            *next -= 1;
            let caller = natives[..*next].last().filter(|c| c.depth == natives[*next].depth);
            if !called_inline(vm, &natives[*next], caller) {
                sites.extend(CallSite::of_native(vm, &natives[*next]));
            }
        }
    };
    for (i, frame) in vm.frames.iter().enumerate().rev() {
        push_natives_above(&mut sites, &mut next, i + 1);
        sites.push(CallSite::of(frame));
    }
    push_natives_above(&mut sites, &mut next, 0);
    sites
}

/// V8's async stack trace (its "zero-cost async stack traces"): when the running job is a
/// promise reaction, the async functions suspended in an `await` on the promise it will
/// settle, then on theirs, each as `async name (where it awaits)`. The chain starts at the
/// running async function's promise when the job resumed one, else at the promise the job's
/// handler settles, and follows a promise while it is pending with exactly one reaction:
/// an await's continuation (the awaiting function is a frame), a `Promise.all` or
/// `allSettled` element (`at async Promise.all (index 0)`, going on with the combinator's
/// promise), or a `then` whose derived promise it goes on with. An async generator ends it
/// (V8 goes on through its pending request).
fn async_sites(vm: &Vm) -> Vec<CallSite> {
    let mut sites = Vec::new();
    let Some((handler, derived)) = vm.current_reaction else { return sites };
    let mut promise = match await_continuation(vm, handler) {
        Some(state) => vm.frames.iter().rev().find_map(|f| match f.kind {
            FrameKind::Async { state: s, promise } if s == state => Some(promise),
            _ => None,
        }),
        None => derived.as_object(),
    };
    while let Some(p) = promise.take() {
        if sites.len() >= FRAMES {
            break;
        }
        let Class::Promise(data) = &vm.heap.obj(p).class else { break };
        let ([reaction], crate::heap::object::PromiseState::Pending) = (&data.fulfill_reactions[..], data.state) else {
            break;
        };
        match await_continuation(vm, reaction.handler).map(|s| &vm.heap.obj(s).class) {
            Some(Class::AsyncFunctionState(state)) => {
                let Some(saved) = &state.frame else { break };
                let frame = &saved.frame;
                sites.push(CallSite {
                    code: Some((frame.code, frame.pc)),
                    this: frame.this,
                    callee: frame.callee,
                    construct: false,
                    is_async: true,
                    text: None,
                });
                if let FrameKind::Async { promise: next, .. } = frame.kind {
                    promise = Some(next);
                }
            }
            Some(_) => break,
            None => match combinator_element(vm, reaction.handler) {
                Some((combinator, index, next)) => {
                    sites.push(CallSite::fixed(format!("async Promise.{combinator} (index {index})")));
                    promise = Some(next);
                }
                None => promise = reaction.capability.and_then(|(p, _, _)| p.as_object()),
            },
        }
    }
    sites
}

/// For a `Promise.all` or `allSettled` element's fulfill handler: the combinator's name, the
/// element's index and the promise the combinator returned.
fn combinator_element(vm: &Vm, handler: Value) -> Option<(&'static str, u32, ObjectId)> {
    let Class::Native(n) = &vm.heap.obj(handler.as_object()?).class else { return None };
    let combinator = match n.id.name() {
        "%Promise.all.resolveElement" => "all",
        "%Promise.allSettled.resolveElement" => "allSettled",
        _ => return None,
    };
    // Captures: alreadyCalled, index, values, the result capability's resolve, remaining.
    let index = n.captures.get(1)?.as_number()? as u32;
    let Class::Native(resolve) = &vm.heap.obj(n.captures.get(3)?.as_object()?).class else { return None };
    if resolve.id.name() != "%Promise.resolveFunction" {
        return None;
    }
    Some((combinator, index, resolve.captures.first()?.as_object()?))
}

/// The async function (or async generator) state an `await`'s continuation resumes, if
/// `handler` is one.
fn await_continuation(vm: &Vm, handler: Value) -> Option<ObjectId> {
    let Class::Native(n) = &vm.heap.obj(handler.as_object()?).class else { return None };
    match n.id.name() {
        "%AsyncResume.fulfilled" | "%AsyncResume.rejected" => n.captures.first()?.as_object(),
        _ => None,
    }
}

/// A builtin V8 reaches from another without a call of its own: `String.prototype.replace`
/// with an unmodified RegExp runs the RegExp's replace directly (node prints `at
/// String.replace` alone), where a subclass goes through `[Symbol.replace]` as the spec says.
fn called_inline(vm: &Vm, native: &NativeFrame, caller: Option<&NativeFrame>) -> bool {
    let Some(caller) = caller else { return false };
    let name = |f: ObjectId| match &vm.heap.obj(f).class {
        Class::Native(n) => n.id.name(),
        _ => "",
    };
    name(native.callee) == "RegExp.prototype[Symbol.replace]"
        && name(caller.callee) == "String.prototype.replace"
        && native.this.as_object().is_some_and(|r| {
            matches!(vm.heap.obj(r).class, Class::RegExp(_)) && vm.heap.obj(r).proto == Some(vm.realm.regexp_prototype)
        })
}

/// A builtin V8 runs without a frame of its own (see the module doc), or one of the
/// engine's internal closures or the embedder's host functions.
fn frameless(name: &str) -> bool {
    const TRAMPOLINES: [&str; 5] =
        ["Function.prototype.call", "Function.prototype.apply", "Reflect.apply", "Reflect.construct", "Array"];
    // `%Name%.method` are intrinsics' methods JS reaches (a generator's `next`); other
    // `%`-names are internal closures and hooks (`%Promise.resolveFunction`, `%HostFunction`).
    TRAMPOLINES.contains(&name) || (name.starts_with('%') && !name.contains("%."))
}

/// What a frame's line is made of (copied out: reading a name may flatten a string).
struct CallSite {
    /// None for a builtin.
    code: Option<(crate::heap::CodeId, u32)>,
    this: Value,
    callee: Value,
    construct: bool,
    /// An async function suspended in an await further out: `at async name (…)`.
    is_async: bool,
    /// The whole line, for a frame that is no call (`async Promise.all (index 0)`).
    text: Option<String>,
}

impl CallSite {
    fn of(frame: &Frame) -> CallSite {
        CallSite {
            code: Some((frame.code, frame.pc)),
            this: frame.this,
            callee: frame.callee,
            construct: matches!(frame.kind, FrameKind::Construct)
                || !(frame.new_target.is_undefined() || frame.new_target.is_null()),
            is_async: false,
            text: None,
        }
    }

    fn of_native(vm: &Vm, n: &NativeFrame) -> Option<CallSite> {
        let Class::Native(native) = &vm.heap.obj(n.callee).class else { return None };
        if frameless(native.id.name()) {
            return None;
        }
        Some(CallSite {
            code: None,
            this: n.this,
            callee: Value::object(n.callee),
            construct: n.construct,
            is_async: false,
            text: None,
        })
    }

    fn fixed(text: String) -> CallSite {
        CallSite {
            code: None,
            this: Value::UNDEFINED,
            callee: Value::UNDEFINED,
            construct: false,
            is_async: true,
            text: Some(text),
        }
    }

    fn line(&self, vm: &mut Vm) -> String {
        if let Some(text) = &self.text {
            return text.clone();
        }
        let Some((code_id, pc)) = self.code else {
            let name = self.callee.as_object().and_then(|f| function_name(vm, f)).unwrap_or_default();
            return match self.name(vm, &name, &name) {
                Some(callee) => format!("{callee} (<anonymous>)"),
                None => "<anonymous>".into(),
            };
        };
        let code = vm.heap.code(code_id);
        let (line, col) = code.position(pc.saturating_sub(1)).unwrap_or((0, 0));
        let file = vm.sources.get(code.source_id as usize).map_or("<anonymous>", |s| s.name.as_str());
        let location = format!("{file}:{line}:{col}");
        let (kind, name_atom, inferred) = (code.kind, code.name, code.inferred_name.clone());
        // V8's GetDebugName: the function's `name` (`[Symbol.iterator]`, `get size`, a
        // computed key), else the name the compiler gave it.
        let own_name = self.callee.as_object().and_then(|f| function_name(vm, f));
        let mut name = own_name.unwrap_or_else(|| vm.heap.atoms.get(name_atom).to_rust_string());
        // A function without a name is called by the member it was assigned to
        // (`exports.f`), and looked up on its receiver by that member's last key.
        let mut key = name.clone();
        if name.is_empty() && !inferred.is_empty() {
            name = inferred;
            key = name.rsplit('.').next().unwrap_or_default().to_string();
        }
        let callee = match kind {
            // A script's or module's top level, eval code: no function of its own.
            FunctionKind::Script | FunctionKind::Module | FunctionKind::Eval => None,
            // V8 gives an arrow the receiver it was called with, mostly none (a callback);
            // the frame here holds its lexical `this`, so it is named as a plain call.
            FunctionKind::Arrow | FunctionKind::AsyncArrow => (!name.is_empty()).then(|| name.clone()),
            _ => self.name(vm, &name, &key),
        };
        let marker = if self.is_async { "async " } else { "" };
        match callee {
            Some(callee) => format!("{marker}{callee} ({location})"),
            None => format!("{marker}{location}"),
        }
    }

    /// The text before the location, or None when V8 prints the location alone.
    /// `key` is the name a method is looked up by on the receiver (`name` unless inferred).
    fn name(&self, vm: &mut Vm, name: &str, key: &str) -> Option<String> {
        if self.construct {
            return Some(format!("new {}", if name.is_empty() { "<anonymous>" } else { name }));
        }
        if is_top_level(vm, self.this) {
            return (!name.is_empty()).then(|| name.to_string());
        }
        let type_name = type_name(vm, self.this);
        let method = method_name(vm, self.this, self.callee, key);
        Some(method_call(&type_name, name, method))
    }
}

/// V8's `AppendMethodCall`: the type is left out when the function's name is not an
/// identifier (`get size`, `#p`, `[Symbol.iterator]`) or is the type's own name.
fn method_call(type_name: &str, name: &str, method: Option<String>) -> String {
    let mut out = String::new();
    if name.is_empty() {
        out.push_str(type_name);
        out.push('.');
        out.push_str(method.as_deref().unwrap_or("<anonymous>"));
        return out;
    }
    if oxc_syntax::identifier::is_identifier_name(name) && name != type_name {
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

/// The receiver's type as V8 names it (`GetTypeName`, `JSReceiver::GetConstructorName`):
/// a primitive's wrapper; a class constructor's own name; the constructor its prototype
/// names (what made it); else a `Symbol.toStringTag` data property up the chain (`JSON`,
/// `Math`), then a `constructor` up the chain other than `Object`; else `Object`.
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
    let object = vm.heap.obj(o);
    match &object.class {
        Class::Proxy(_) => return "Proxy".into(),
        Class::Function(c) if vm.heap.code(c.code).is_class_constructor => {
            if let Some(name) = function_name(vm, o) {
                return name;
            }
        }
        Class::Generator(_) | Class::AsyncGenerator(_) => {
            // V8 names a generator object by the generator function that made it.
            if let Some(name) = generator_function(vm, o).and_then(|f| function_name(vm, f)) {
                return name;
            }
        }
        _ => {}
    }
    let proto = vm.heap.obj(o).proto;
    let named = |vm: &mut Vm, c: Value| {
        c.as_object()
            .filter(|&c| vm.heap.obj(c).is_callable())
            .and_then(|c| function_name(vm, c))
            .filter(|n| n != "Object")
    };
    if let Some(p) = proto {
        let own = own_data_property(vm, p, PropertyKey::Atom(atom::constructor)).unwrap_or_default();
        if let Some(name) = named(vm, own) {
            return name;
        }
    }
    let tag = data_property(vm, o, PropertyKey::Symbol(vm.symbols.toStringTag));
    if let Some(s) = tag.as_string() {
        return vm.heap.flat(s).to_rust_string();
    }
    if let Some(p) = proto {
        let inherited = data_property(vm, p, PropertyKey::Atom(atom::constructor));
        if let Some(name) = named(vm, inherited) {
            return name;
        }
    }
    if vm.heap.obj(o).is_callable() { "Function" } else { "Object" }.into()
}

/// The generator function whose call made generator object `g`: its frame's callee, on the
/// stack while it runs, saved in it while suspended.
fn generator_function(vm: &Vm, g: ObjectId) -> Option<ObjectId> {
    let live = vm.frames.iter().rev().find(|f| match f.kind {
        FrameKind::Generator(o) | FrameKind::AsyncGenerator(o) => o == g,
        _ => false,
    });
    let callee = match (live, &vm.heap.obj(g).class) {
        (Some(f), _) => f.callee,
        (None, Class::Generator(data)) => data.frame.as_ref()?.frame.callee,
        (None, Class::AsyncGenerator(data)) => data.frame.as_ref()?.frame.callee,
        _ => return None,
    };
    callee.as_object()
}

/// A function's non-empty `name`, if it is a data property holding a string.
fn function_name(vm: &mut Vm, f: ObjectId) -> Option<String> {
    let name = own_data_property(vm, f, PropertyKey::Atom(atom::name))?;
    let text = vm.heap.flat(name.as_string()?).to_rust_string();
    (!text.is_empty()).then_some(text)
}

/// V8's `GetMethodName`: the key under which the receiver (or its prototype chain) holds
/// `callee`, as a data property or an accessor's getter or setter — the function's own name
/// (without a `get `/`set ` prefix) when it is found under it, else the one enumerable
/// string key holding it.
fn method_name(vm: &mut Vm, this: Value, callee: Value, name: &str) -> Option<String> {
    let o = match this.kind() {
        Kind::Object(o) => o,
        // A primitive's methods are its wrapper prototype's.
        _ => crate::runtime::convert::to_object(vm, this).ok()?,
    };
    let key = name.strip_prefix("get ").or_else(|| name.strip_prefix("set ")).unwrap_or(name);
    if !key.is_empty() {
        let key = vm.key(key);
        if holds(vm, slot_along_chain(vm, o, key), callee) {
            if let PropertyKey::Atom(a) = key {
                return Some(vm.heap.atoms.get(a).to_rust_string());
            }
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
            if !flags.enumerable() || !holds(vm, Some((value, flags.is_accessor())), callee) {
                continue;
            }
            if let PropertyKey::Atom(a) = key {
                if found.is_some_and(|f| f != a) {
                    return None;
                }
                found = Some(a);
            }
        }
        cur = object.proto;
    }
    found.map(|a| vm.heap.atoms.get(a).to_rust_string())
}

/// Does a property slot hold `f`: as its value, or as an accessor's getter or setter?
fn holds(vm: &Vm, slot: Option<(Value, bool)>, f: Value) -> bool {
    match slot {
        Some((value, false)) => value == f,
        Some((pair, true)) => match pair.as_object().map(|p| &vm.heap.obj(p).class) {
            Some(Class::AccessorPair { get, set }) => *get == f || *set == f,
            _ => false,
        },
        None => false,
    }
}

/// V8's (node 20's) `StringEndsWithMethodName`: `name` is the method's key or ends in
/// `.key` (so a getter `get key` still shows ` [as key]`).
fn ends_with_method_name(name: &str, method: &str) -> bool {
    name == method || name.strip_suffix(method).is_some_and(|head| head.ends_with('.'))
}

fn own_data_property(vm: &Vm, o: ObjectId, key: PropertyKey) -> Option<Value> {
    let (value, flags) = vm.heap.obj(o).lookup_named(&vm.heap.shapes, key)?;
    (!flags.is_accessor()).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::{ends_with_method_name, frameless};

    #[test]
    fn a_method_name_is_recognized_at_the_end_of_a_function_name() {
        assert!(ends_with_method_name("run", "run"));
        assert!(ends_with_method_name("exports.run", "run"));
        assert!(!ends_with_method_name("get size", "size"));
        assert!(!ends_with_method_name("assert", "_assert"));
        assert!(!ends_with_method_name("rerun", "run"));
    }

    #[test]
    fn trampolines_and_internal_closures_have_no_frame() {
        assert!(frameless("Function.prototype.call"));
        assert!(frameless("Reflect.apply"));
        assert!(frameless("%Promise.resolveFunction"));
        assert!(frameless("%HostFunction"));
        assert!(!frameless("%GeneratorPrototype%.next"));
        assert!(!frameless("Array.prototype.forEach"));
        assert!(!frameless("Array.from"));
    }
}
