//! Error objects (ECMA-262 §20.5): Error, the NativeErrors, AggregateError, `cause`,
//! V8-format `stack` and `Error.captureStackTrace`.

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, make_constructor, make_native, NativeDef, NativeId};
use crate::error::JsResult;
use crate::heap::object::{Class, Object};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{is_callable, prototype_from_constructor};
use crate::runtime::convert::{to_rust_string, to_string};
use crate::runtime::property::{create_data_property_or_throw, get, has_property};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Error", 1, error_ctor),
    native!("TypeError", 1, type_error_ctor),
    native!("ReferenceError", 1, reference_error_ctor),
    native!("SyntaxError", 1, syntax_error_ctor),
    native!("RangeError", 1, range_error_ctor),
    native!("EvalError", 1, eval_error_ctor),
    native!("URIError", 1, uri_error_ctor),
    native!("AggregateError", 2, aggregate_error_ctor),
    native!("Error.prototype.toString", 0, to_string_method),
    native!("Error.captureStackTrace", 1, capture_stack_trace),
    native!("Error.isError", 1, is_error),
];

pub(crate) fn init(vm: &mut Vm) {
    let kinds: [(&str, ObjectId); 8] = [
        ("Error", vm.realm.error_prototype),
        ("TypeError", vm.realm.type_error_prototype),
        ("ReferenceError", vm.realm.reference_error_prototype),
        ("SyntaxError", vm.realm.syntax_error_prototype),
        ("RangeError", vm.realm.range_error_prototype),
        ("EvalError", vm.realm.eval_error_prototype),
        ("URIError", vm.realm.uri_error_prototype),
        ("AggregateError", vm.realm.aggregate_error_prototype),
    ];
    let mut error_ctor = None;
    for (name, proto) in kinds {
        let ctor = make_constructor(vm, name, name, proto);
        let nv = vm.str(name);
        vm.define_builtin(proto, PropertyKey::Atom(atom::name), nv, PropFlags::HIDDEN);
        let empty = vm.str("");
        vm.define_builtin(proto, PropertyKey::Atom(atom::message), empty, PropFlags::HIDDEN);
        match error_ctor {
            None => error_ctor = Some(ctor),
            Some(base) => vm.heap.obj_mut(ctor).proto = Some(base),
        }
    }
    let ep = vm.realm.error_prototype;
    install(vm, ep, "Error.prototype", NATIVES);
    if let Some(c) = error_ctor {
        install(vm, c, "Error", NATIVES);
        // V8's stackTraceLimit, read by npm code.
        let key = vm.key("stackTraceLimit");
        vm.define_builtin(c, key, Value::int(10), PropFlags::DEFAULT);
    }
    let _ = make_native;
    let _ = NativeId::by_name;
}

/// Shared constructor steps (§20.5.1.1): OrdinaryCreateFromConstructor, message, cause.
fn construct_error(vm: &mut Vm, default_proto: ObjectId, message: Value, options: Value) -> JsResult<ObjectId> {
    let nt = vm.native_new_target();
    let nt = if nt.is_undefined() { vm.native_ctx.callee.map(Value::object).unwrap_or_default() } else { nt };
    let proto = prototype_from_constructor(vm, nt, default_proto)?;
    let o = vm.heap.alloc_object(Object::new(Some(proto), Class::Error));
    vm.roots.push(Value::object(o));
    if !message.is_undefined() {
        let msg = to_string(vm, message)?;
        vm.define_builtin(o, PropertyKey::Atom(atom::message), Value::string(msg), PropFlags::HIDDEN);
    }
    // InstallErrorCause.
    if let Some(opts) = options.as_object() {
        if has_property(vm, opts, PropertyKey::Atom(atom::cause))? {
            let cause = get(vm, opts, PropertyKey::Atom(atom::cause), options)?;
            vm.define_builtin(o, PropertyKey::Atom(atom::cause), cause, PropFlags::HIDDEN);
        }
    }
    // V8 leaves out the frames of the constructor chain up to newTarget.
    attach_stack_below(vm, o, Some(nt));
    Ok(o)
}

macro_rules! native_error_ctor {
    ($fn:ident, $field:ident) => {
        fn $fn(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
            let proto = vm.realm.$field;
            Ok(Value::object(construct_error(vm, proto, arg(args, 0), arg(args, 1))?))
        }
    };
}

native_error_ctor!(error_ctor, error_prototype);
native_error_ctor!(type_error_ctor, type_error_prototype);
native_error_ctor!(reference_error_ctor, reference_error_prototype);
native_error_ctor!(syntax_error_ctor, syntax_error_prototype);
native_error_ctor!(range_error_ctor, range_error_prototype);
native_error_ctor!(eval_error_ctor, eval_error_prototype);
native_error_ctor!(uri_error_ctor, uri_error_prototype);

/// ### 20.5.7.1.1 AggregateError ( errors, message [ , options ] )
fn aggregate_error_ctor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let proto = vm.realm.aggregate_error_prototype;
    let o = construct_error(vm, proto, arg(args, 1), arg(args, 2))?;
    let errors = crate::interp::ops::iterate_to_vec(vm, arg(args, 0))?;
    let arr = vm.new_array(errors);
    vm.define_builtin(o, PropertyKey::Atom(atom::errors), arr, PropFlags::HIDDEN);
    Ok(Value::object(o))
}

/// ### 20.5.3.4 Error.prototype.toString ( )
fn to_string_method(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let Some(o) = this.as_object() else {
        return Err(vm.type_error("Error.prototype.toString requires that 'this' be an Object"));
    };
    let name = get(vm, o, PropertyKey::Atom(atom::name), this)?;
    let name = if name.is_undefined() { "Error".to_string() } else { to_rust_string(vm, name)? };
    let msg = get(vm, o, PropertyKey::Atom(atom::message), this)?;
    let msg = if msg.is_undefined() { String::new() } else { to_rust_string(vm, msg)? };
    let s = match (name.is_empty(), msg.is_empty()) {
        (true, _) => msg,
        (_, true) => name,
        _ => format!("{name}: {msg}"),
    };
    Ok(vm.str(&s))
}

/// `Error.captureStackTrace(obj)`: define a `stack` property on obj (V8 API used by npm code).
fn capture_stack_trace(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let Some(o) = arg(args, 0).as_object() else {
        return Err(vm.type_error("Invalid argument"));
    };
    // Frames up to `constructorOpt` are left out, or else up to this call itself.
    let until = match arg(args, 1) {
        f if is_callable(vm, f) => f,
        _ => vm.native_ctx.callee.map(Value::object).unwrap_or_default(),
    };
    let header = error_header(vm, o);
    let trace = crate::interp::stack_trace::render_below(vm, Some(until));
    let s = vm.str(&format!("{header}{trace}"));
    create_data_property_or_throw(vm, o, PropertyKey::Atom(atom::stack), s)?;
    Ok(Value::UNDEFINED)
}

/// `Error.isError(v)`: has an [[ErrorData]] slot.
fn is_error(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let v = arg(args, 0);
    Ok(Value::bool(v.as_object().is_some_and(|o| matches!(vm.heap.obj(o).class, Class::Error))))
}

/// "Name: message" read without running JS (own or inherited data properties only). A
/// string built by concatenation (a rope) is flattened, so a long message or name shows.
fn error_header(vm: &mut Vm, o: ObjectId) -> String {
    let read = |vm: &mut Vm, key| -> Option<String> {
        let mut cur = Some(o);
        while let Some(c) = cur {
            let obj = vm.heap.obj(c);
            if let Some((v, f)) = obj.lookup_named(&vm.heap.shapes, PropertyKey::Atom(key)) {
                if f.is_accessor() {
                    return None;
                }
                return v.as_string().map(|s| vm.heap.flat(s).to_rust_string());
            }
            cur = obj.proto;
        }
        None
    };
    let name = read(vm, atom::name).unwrap_or_else(|| "Error".into());
    let msg = read(vm, atom::message).unwrap_or_default();
    if msg.is_empty() {
        name
    } else {
        format!("{name}: {msg}")
    }
}

/// The current JS call stack in V8's format (one `\n    at …` line per frame).
pub fn stack_trace(vm: &mut Vm) -> String {
    crate::interp::stack_trace::render(vm)
}

/// Give a new error object its `stack` (non-enumerable own data property).
pub fn attach_stack(vm: &mut Vm, o: ObjectId) {
    attach_stack_below(vm, o, None);
}

/// [`attach_stack`] for an error an `Error` constructor makes: the stack below the innermost
/// call of `until` (its newTarget), as [`crate::interp::stack_trace::render_below`] cuts it.
pub fn attach_stack_below(vm: &mut Vm, o: ObjectId, until: Option<Value>) {
    let header = error_header(vm, o);
    let trace = crate::interp::stack_trace::render_below(vm, until);
    let s = vm.str(&format!("{header}{trace}"));
    vm.define_builtin(o, PropertyKey::Atom(atom::stack), s, PropFlags::HIDDEN);
}
