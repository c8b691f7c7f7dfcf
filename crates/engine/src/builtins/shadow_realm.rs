//! ShadowRealm (TC39 proposal, stage 2.7): https://tc39.es/proposal-shadowrealm/
//!
//! A ShadowRealm object owns a realm of its own (`Vm::create_realm`). Only primitives and
//! callables cross the boundary: a callable crosses as a wrapped function exotic object (a
//! native `%WrappedFunction%` whose realm is the side it was handed to and whose capture is
//! the target), and an exception crosses as a fresh TypeError of the receiving side.
//!
//! Not built: `importValue`. Amber's module map is shared by every realm, so a module
//! cannot yet be evaluated once per realm; `importValue` returns a promise rejected with a
//! TypeError that says so.

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, make_constructor, NativeDef, NativeId};
use crate::error::{ErrorKind, JsResult, Throw};
use crate::heap::object::{Class, NativeFunction, Object};
use crate::heap::shape::PropFlags;
use crate::heap::RealmId;
use crate::native;
use crate::realm::function_realm;
use crate::runtime::call::{call, is_callable, prototype_from_constructor};
use crate::runtime::property::{get, has_own_property};
use crate::value::Value;
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("ShadowRealm", 0, constructor),
    native!("ShadowRealm.prototype.evaluate", 1, evaluate),
    native!("ShadowRealm.prototype.importValue", 2, import_value),
    native!("%WrappedFunction", 0, wrapped_call),
];

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.shadow_realm_prototype;
    make_constructor(vm, "ShadowRealm", "ShadowRealm", proto);
    install(vm, proto, "ShadowRealm.prototype", NATIVES);
    crate::builtins::map::define_to_string_tag(vm, proto, "ShadowRealm");
}

/// ### ShadowRealm ( )
fn constructor(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor ShadowRealm requires 'new'"));
    }
    // 2. Let O be ? OrdinaryCreateFromConstructor(NewTarget, "%ShadowRealm.prototype%", …).
    let default = vm.realm.shadow_realm_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 3-11. A new realm with its own global object and default global bindings.
    let realm = vm.create_realm();
    let o = vm.heap.alloc_object(Object::new(Some(proto), Class::ShadowRealm(realm)));
    Ok(Value::object(o))
}

/// ValidateShadowRealmObject: the realm `this` owns.
fn this_realm(vm: &mut Vm, this: Value) -> JsResult<RealmId> {
    if let Some(o) = this.as_object() {
        if let Class::ShadowRealm(realm) = vm.heap.obj(o).class {
            return Ok(realm);
        }
    }
    Err(vm.type_error("receiver is not a ShadowRealm"))
}

/// ### ShadowRealm.prototype.evaluate ( sourceText ) — PerformShadowRealmEval.
fn evaluate(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let eval_realm = this_realm(vm, this)?;
    let Some(source) = arg(args, 0).as_string() else {
        return Err(vm.type_error("ShadowRealm.prototype.evaluate: the source text must be a string"));
    };
    let caller_realm = vm.current_realm;
    let text = vm.heap.flat(source).to_rust_string();
    // Parsed in the evaluation realm (its code belongs there); a parse error is the
    // caller's SyntaxError.
    vm.switch_realm(eval_realm);
    let compiled = crate::compiler::compile_script(vm, &text, "<ShadowRealm>");
    vm.switch_realm(caller_realm);
    let code = match compiled {
        Ok(code) => code,
        Err(report) => return Err(vm.throw(ErrorKind::SyntaxError, &report.message)),
    };
    let global = Value::object(vm.global_of(eval_realm));
    match crate::interp::run_code(vm, code, None, global, Value::UNDEFINED, Value::UNDEFINED) {
        Ok(v) => wrapped_value(vm, caller_realm, v),
        Err(Throw::Value(e)) => Err(crossing_error(vm, caller_realm, e)),
        Err(limit) => Err(limit),
    }
}

/// ### ShadowRealm.prototype.importValue ( specifier, exportName )
fn import_value(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    this_realm(vm, this)?;
    crate::runtime::convert::to_string(vm, arg(args, 0))?;
    if !arg(args, 1).is_string() {
        return Err(vm.type_error("ShadowRealm.prototype.importValue: the export name must be a string"));
    }
    let error =
        vm.make_error(ErrorKind::TypeError, "ShadowRealm.prototype.importValue: modules are not loaded per realm yet");
    let promise = crate::builtins::promise::new_promise(vm);
    crate::builtins::promise::reject_promise(vm, promise, error);
    Ok(Value::object(promise))
}

/// A TypeError of `realm` for an exception that crossed out of the other realm. Only its
/// message crosses, as text: the exception object itself must not.
fn crossing_error(vm: &mut Vm, realm: RealmId, exception: Value) -> Throw {
    let detail = exception
        .as_object()
        .and_then(|o| match vm.heap.obj(o).class {
            Class::Error => vm.heap.obj(o).lookup_named(&vm.heap.shapes, PropertyKey::Atom(atom::message)),
            _ => None,
        })
        .and_then(|(m, _)| m.as_string())
        .map(|s| vm.heap.flat(s).to_rust_string());
    let back = vm.current_realm;
    vm.switch_realm(realm);
    let message = match detail {
        Some(m) => format!("an exception crossed the ShadowRealm boundary: {m}"),
        None => "an exception crossed the ShadowRealm boundary".to_string(),
    };
    let t = vm.type_error(message);
    vm.switch_realm(back);
    t
}

/// GetWrappedValue ( callerRealm, value ): a primitive as it is, a callable wrapped for
/// `realm`, any other object a TypeError (of the running realm: the caller's side).
fn wrapped_value(vm: &mut Vm, realm: RealmId, value: Value) -> JsResult<Value> {
    let Some(target) = value.as_object() else { return Ok(value) };
    if !is_callable(vm, value) {
        // The running (calling) side's TypeError, whichever way the value was going.
        return Err(vm.type_error("only primitives and callables can cross the ShadowRealm boundary"));
    }
    // WrappedFunctionCreate: CopyNameAndLength, whose errors are TypeErrors of `realm`.
    let copied = copy_name_and_length(vm, target);
    let back = vm.current_realm;
    vm.switch_realm(realm);
    let result = match copied {
        Ok((length, name)) => {
            let proto = Some(vm.realm.function_prototype);
            let id = NativeId::builtin("%WrappedFunction");
            let f = NativeFunction { id, captures: vec![value], constructor: false, realm };
            let o = vm.heap.alloc_object(Object::new(proto, Class::Native(f)));
            vm.define_builtin(o, PropertyKey::Atom(atom::length), length, PropFlags(PropFlags::CONFIGURABLE));
            vm.define_builtin(o, PropertyKey::Atom(atom::name), name, PropFlags(PropFlags::CONFIGURABLE));
            Ok(Value::object(o))
        }
        Err(Throw::Value(_)) => Err(vm.type_error("the wrapped function's length or name could not be read")),
        Err(limit) => Err(limit),
    };
    vm.switch_realm(back);
    result
}

/// CopyNameAndLength ( F, Target ): the `length` and `name` a wrapper of `target` gets.
fn copy_name_and_length(vm: &mut Vm, target: crate::value::ObjectId) -> JsResult<(Value, Value)> {
    let mut length = Value::int(0);
    if has_own_property(vm, target, PropertyKey::Atom(atom::length))? {
        let l = get(vm, target, PropertyKey::Atom(atom::length), Value::object(target))?;
        if let Some(n) = l.as_number() {
            length = if n == f64::INFINITY {
                l
            } else if n == f64::NEG_INFINITY {
                Value::int(0)
            } else {
                let n = crate::runtime::convert::to_integer_or_infinity(vm, l)?;
                Value::number(n.max(0.0))
            };
        }
    }
    let name = get(vm, target, PropertyKey::Atom(atom::name), Value::object(target))?;
    let name = if name.is_string() { name } else { vm.str("") };
    Ok((length, name))
}

/// [[Call]] of a wrapped function exotic object: the target runs in its own realm with its
/// arguments and `this` wrapped for it, and what comes back is wrapped for this side. The
/// native already runs in the wrapper's realm (the caller's side).
fn wrapped_call(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let target = vm.native_captures().first().copied().unwrap_or_default();
    let caller_realm = vm.current_realm;
    let Some(target_obj) = target.as_object() else {
        return Err(vm.type_error("wrapped function has no target"));
    };
    let target_realm = match function_realm(vm, target_obj) {
        Ok(r) => r,
        Err(Throw::Value(e)) => return Err(crossing_error(vm, caller_realm, e)),
        Err(limit) => return Err(limit),
    };
    let mut wrapped_args = Vec::with_capacity(args.len());
    for &a in args {
        let w = wrapped_value(vm, target_realm, a)?;
        vm.roots.push(w);
        wrapped_args.push(w);
    }
    let wrapped_this = wrapped_value(vm, target_realm, this)?;
    match call(vm, target, wrapped_this, &wrapped_args) {
        Ok(v) => wrapped_value(vm, caller_realm, v),
        Err(Throw::Value(e)) => Err(crossing_error(vm, caller_realm, e)),
        Err(limit) => Err(limit),
    }
}
