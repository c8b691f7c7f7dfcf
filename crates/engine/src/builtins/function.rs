//! The Function constructor and Function.prototype (ECMA-262 §20.2):
//! https://tc39.es/ecma262/#sec-function-objects

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, make_constructor, NativeDef};
use crate::bytecode::FunctionKind;
use crate::error::JsResult;
use crate::heap::object::{BoundFunction, Class, Object};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{call, is_callable, is_constructor};
use crate::runtime::convert::{to_integer_or_infinity, to_rust_string};
use crate::runtime::property::{get, has_own_property};
use crate::string::JsStr;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Function", 1, constructor),
    native!("Function.prototype.apply", 2, apply),
    native!("Function.prototype.bind", 1, bind),
    native!("Function.prototype.call", 1, call_method),
    native!("Function.prototype.toString", 0, to_string),
    native!("Function.prototype[Symbol.hasInstance]", 1, has_instance),
];

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.function_prototype;
    let ctor = make_constructor(vm, "Function", "Function", proto);
    vm.realm.function_constructor = ctor;
    vm.define_builtin(proto, PropertyKey::Atom(atom::length), Value::int(0), PropFlags(PropFlags::CONFIGURABLE));
    let empty = vm.str("");
    vm.define_builtin(proto, PropertyKey::Atom(atom::name), empty, PropFlags(PropFlags::CONFIGURABLE));
    install(vm, proto, "Function.prototype", NATIVES);
    // [Symbol.hasInstance] is non-writable, non-configurable.
    let key = PropertyKey::Symbol(vm.symbols.hasInstance);
    if let Some((v, _)) = vm.heap.obj(proto).lookup_named(&vm.heap.shapes, key) {
        vm.define_builtin(proto, key, v, PropFlags::NONE);
    }
    // Restricted `caller` and `arguments` accessors (§10.2.4).
    let thrower = Value::object(vm.realm.throw_type_error);
    for name in [atom::caller, atom::arguments] {
        let pair = vm.heap.alloc_object(Object::new(None, Class::AccessorPair { get: thrower, set: thrower }));
        vm.define_builtin(
            proto,
            PropertyKey::Atom(name),
            Value::object(pair),
            PropFlags(PropFlags::CONFIGURABLE | PropFlags::ACCESSOR),
        );
    }
}

/// The `name` of a function object, for messages.
pub fn function_name(vm: &Vm, f: ObjectId) -> String {
    match vm.heap.obj(f).lookup_named(&vm.heap.shapes, PropertyKey::Atom(atom::name)) {
        Some((v, _)) => v.as_string().map(|s| vm.heap.flat_ref(s).to_rust_string()).unwrap_or_default(),
        None => String::new(),
    }
}

/// CreateDynamicFunction (§20.2.1.1.1) for Function, GeneratorFunction, AsyncFunction and
/// AsyncGeneratorFunction.
pub fn create_dynamic_function(vm: &mut Vm, args: &[Value], kind: FunctionKind) -> JsResult<Value> {
    let (prefix, proto_default) = match kind {
        FunctionKind::Generator => ("function*", vm.realm.generator_function_prototype),
        FunctionKind::Async => ("async function", vm.realm.async_function_prototype),
        FunctionKind::AsyncGenerator => ("async function*", vm.realm.async_generator_function_prototype),
        _ => ("function", vm.realm.function_prototype),
    };
    let mut params = Vec::new();
    let (param_args, body_arg) = match args.split_last() {
        Some((last, rest)) => (rest, Some(*last)),
        None => (&[][..], None),
    };
    for &p in param_args {
        params.push(to_rust_string(vm, p)?);
    }
    let body = match body_arg {
        Some(b) => to_rust_string(vm, b)?,
        None => String::new(),
    };
    let params = params.join(",");
    // The parameters and body are checked separately so `/*` in one cannot swallow the other.
    let check_params = format!("({prefix} anonymous({params}\n) {{\n}})");
    let check_body = format!("({prefix} anonymous(\n) {{\n{body}\n}})");
    for text in [&check_params, &check_body] {
        if let Err(e) = crate::compiler::compile_script(vm, text, "anonymous") {
            return Err(vm.syntax_error(e.message));
        }
    }
    let source = format!("({prefix} anonymous({params}\n) {{\n{body}\n}})");
    let code = match crate::compiler::compile_dynamic_function(vm, &source, "anonymous") {
        Ok(c) => c,
        Err(e) => return Err(vm.syntax_error(e.message)),
    };
    let global = Value::object(vm.global);
    let f = crate::interp::run_code(vm, code, None, global, Value::UNDEFINED, Value::UNDEFINED)?;
    let nt = vm.native_new_target();
    if let (Some(fo), Some(_)) = (f.as_object(), nt.as_object()) {
        let proto = crate::runtime::call::prototype_from_constructor(vm, nt, proto_default)?;
        vm.heap.obj_mut(fo).proto = Some(proto);
    }
    Ok(f)
}

fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    create_dynamic_function(vm, args, FunctionKind::Normal)
}

/// ### 20.2.3.1 Function.prototype.apply ( thisArg, argArray )
fn apply(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    if !is_callable(vm, this) {
        return Err(vm.type_error("Function.prototype.apply was called on a non-function"));
    }
    let arg_array = arg(args, 1);
    if arg_array.is_nullish() {
        return call(vm, this, arg(args, 0), &[]);
    }
    let list = crate::builtins::reflect::create_list_from_array_like(vm, arg_array, false)?;
    call(vm, this, arg(args, 0), &list)
}

/// ### 20.2.3.2 Function.prototype.bind ( thisArg, ...args )
fn bind(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let Some(target) = this.as_object().filter(|_| is_callable(vm, this)) else {
        return Err(vm.type_error("Bind must be called on a function"));
    };
    let bound_args: Vec<Value> = args.iter().skip(1).copied().collect();
    let proto = crate::runtime::property::get_prototype_of(vm, target)?;
    let bf =
        BoundFunction { target, this: arg(args, 0), args: bound_args.clone(), constructor: is_constructor(vm, this) };
    let f = vm.heap.alloc_object(Object::new(proto, Class::Bound(Box::new(bf))));
    vm.roots.push(Value::object(f));
    // Length: max(0, target length - bound args) when the target has an own length number.
    let mut len = 0.0;
    if has_own_property(vm, target, PropertyKey::Atom(atom::length))? {
        let tl = get(vm, target, PropertyKey::Atom(atom::length), this)?;
        if let Some(n) = tl.as_number() {
            if n == f64::INFINITY {
                len = f64::INFINITY;
            } else if n.is_finite() {
                let n = to_integer_or_infinity(vm, tl)?;
                len = (n - bound_args.len() as f64).max(0.0);
            }
        }
    }
    vm.define_builtin(f, PropertyKey::Atom(atom::length), Value::number(len), PropFlags(PropFlags::CONFIGURABLE));
    let tn = get(vm, target, PropertyKey::Atom(atom::name), this)?;
    // A rope, not a copy: bound functions of bound functions would copy their growing
    // names quadratically ("bound bound bound …").
    let prefix = vm.heap.alloc_string(JsStr::from_str("bound "));
    let nv = match tn.as_string() {
        Some(s) => Value::string(vm.heap.concat(prefix, s)),
        None => Value::string(prefix),
    };
    vm.define_builtin(f, PropertyKey::Atom(atom::name), nv, PropFlags(PropFlags::CONFIGURABLE));
    Ok(Value::object(f))
}

/// ### 20.2.3.3 Function.prototype.call ( thisArg, ...args )
fn call_method(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    if !is_callable(vm, this) {
        return Err(vm.type_error("Function.prototype.call was called on a non-function"));
    }
    let rest: Vec<Value> = args.iter().skip(1).copied().collect();
    call(vm, this, arg(args, 0), &rest)
}

/// ### 20.2.3.5 Function.prototype.toString ( )
fn to_string(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    let Some(f) = this.as_object().filter(|&f| is_callable(vm, Value::object(f))) else {
        return Err(vm.type_error("Function.prototype.toString requires that 'this' be a Function"));
    };
    let text = source_text(vm, f);
    Ok(vm.str(&text))
}

/// What Function.prototype.toString gives for the callable object `f`: its source text, or
/// the NativeFunction form.
pub(crate) fn source_text(vm: &Vm, f: ObjectId) -> String {
    match &vm.heap.obj(f).class {
        Class::Function(c) => {
            let code = vm.heap.code(c.code);
            let (start, end) = code.span;
            let src = vm.sources.get(code.source_id as usize);
            match src.and_then(|s| s.text.get(start as usize..end as usize)) {
                Some(t) if end > start => t.to_string(),
                _ => format!("function {}() {{ [native code] }}", function_name(vm, f)),
            }
        }
        Class::Native(_) | Class::Bound(_) => format!("function {}() {{ [native code] }}", function_name(vm, f)),
        _ => "function () { [native code] }".to_string(),
    }
}

fn has_instance(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    Ok(Value::bool(crate::runtime::operators::ordinary_has_instance(vm, this, arg(args, 0))?))
}
