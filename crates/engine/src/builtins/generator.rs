//! Generator and async function objects (ECMA-262 §27.3–§27.7): the GeneratorFunction,
//! AsyncGeneratorFunction and AsyncFunction constructors and prototypes, and the
//! %GeneratorPrototype% / %AsyncGeneratorPrototype% methods.

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, make_native, NativeDef, NativeId};
use crate::bytecode::FunctionKind;
use crate::error::JsResult;
use crate::heap::shape::PropFlags;
use crate::interp::generator::{async_generator_enqueue, async_generator_return_settled, resume_generator};
use crate::native;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("GeneratorFunction", 1, generator_function),
    native!("AsyncGeneratorFunction", 1, async_generator_function),
    native!("AsyncFunction", 1, async_function),
    native!("%GeneratorPrototype%.next", 1, next),
    native!("%GeneratorPrototype%.return", 1, return_),
    native!("%GeneratorPrototype%.throw", 1, throw),
    native!("%AsyncGeneratorPrototype%.next", 1, async_next),
    native!("%AsyncGeneratorPrototype%.return", 1, async_return),
    native!("%AsyncGeneratorPrototype%.throw", 1, async_throw),
    native!("%AsyncGeneratorReturn.fulfilled", 1, async_return_fulfilled),
    native!("%AsyncGeneratorReturn.rejected", 1, async_return_rejected),
];

pub(crate) fn init(vm: &mut Vm) {
    let gp = vm.realm.generator_prototype;
    let agp = vm.realm.async_generator_prototype;
    install(vm, gp, "%GeneratorPrototype%", NATIVES);
    install(vm, agp, "%AsyncGeneratorPrototype%", NATIVES);
    let tag_key = PropertyKey::Symbol(vm.symbols.toStringTag);
    for (proto, fproto, ctor_name, tag_fn, tag_proto) in [
        (gp, vm.realm.generator_function_prototype, "GeneratorFunction", "GeneratorFunction", "Generator"),
        (
            agp,
            vm.realm.async_generator_function_prototype,
            "AsyncGeneratorFunction",
            "AsyncGeneratorFunction",
            "AsyncGenerator",
        ),
    ] {
        // %GeneratorFunction.prototype%.prototype = %GeneratorPrototype% (and back-link).
        vm.define_builtin(
            fproto,
            PropertyKey::Atom(atom::prototype),
            Value::object(proto),
            PropFlags(PropFlags::CONFIGURABLE),
        );
        vm.define_builtin(
            proto,
            PropertyKey::Atom(atom::constructor),
            Value::object(fproto),
            PropFlags(PropFlags::CONFIGURABLE),
        );
        let t = vm.str(tag_proto);
        vm.define_builtin(proto, tag_key, t, PropFlags(PropFlags::CONFIGURABLE));
        let t = vm.str(tag_fn);
        vm.define_builtin(fproto, tag_key, t, PropFlags(PropFlags::CONFIGURABLE));
        make_hidden_constructor(vm, ctor_name, fproto);
    }
    let afp = vm.realm.async_function_prototype;
    let t = vm.str("AsyncFunction");
    vm.define_builtin(afp, tag_key, t, PropFlags(PropFlags::CONFIGURABLE));
    make_hidden_constructor(vm, "AsyncFunction", afp);
}

/// The GeneratorFunction-style constructors are not globals: reachable only through
/// prototypes' `constructor`.
fn make_hidden_constructor(vm: &mut Vm, name: &str, fproto: ObjectId) {
    let Some(id) = NativeId::by_name(name) else { return };
    let ctor = make_native(vm, name, id, 1, true, Vec::new());
    vm.heap.obj_mut(ctor).proto = Some(vm.realm.function_constructor);
    vm.define_builtin(ctor, PropertyKey::Atom(atom::prototype), Value::object(fproto), PropFlags::NONE);
    vm.define_builtin(
        fproto,
        PropertyKey::Atom(atom::constructor),
        Value::object(ctor),
        PropFlags(PropFlags::CONFIGURABLE),
    );
}

fn generator_function(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    crate::builtins::function::create_dynamic_function(vm, args, FunctionKind::Generator)
}

fn async_generator_function(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    crate::builtins::function::create_dynamic_function(vm, args, FunctionKind::AsyncGenerator)
}

fn async_function(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    crate::builtins::function::create_dynamic_function(vm, args, FunctionKind::Async)
}

fn generator_this(vm: &mut Vm, this: Value) -> JsResult<ObjectId> {
    match this.as_object() {
        Some(o) if matches!(vm.heap.obj(o).class, crate::heap::object::Class::Generator(_)) => Ok(o),
        _ => Err(vm.type_error("next method called on incompatible receiver")),
    }
}

/// ### 27.5.1.2 %GeneratorPrototype%.next ( value )
fn next(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let g = generator_this(vm, this)?;
    resume_generator(vm, g, 0, arg(args, 0))
}

/// ### 27.5.1.3 %GeneratorPrototype%.return ( value )
fn return_(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let g = generator_this(vm, this)?;
    resume_generator(vm, g, 2, arg(args, 0))
}

/// ### 27.5.1.4 %GeneratorPrototype%.throw ( exception )
fn throw(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let g = generator_this(vm, this)?;
    resume_generator(vm, g, 1, arg(args, 0))
}

fn async_next(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    async_generator_enqueue(vm, this, 0, arg(args, 0))
}

fn async_return(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    async_generator_enqueue(vm, this, 2, arg(args, 0))
}

fn async_throw(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    async_generator_enqueue(vm, this, 1, arg(args, 0))
}

fn async_return_fulfilled(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    if let Some(g) = vm.native_captures().first().and_then(|v| v.as_object()) {
        async_generator_return_settled(vm, g, arg(args, 0), false)?;
    }
    Ok(Value::UNDEFINED)
}

fn async_return_rejected(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    if let Some(g) = vm.native_captures().first().and_then(|v| v.as_object()) {
        async_generator_return_settled(vm, g, arg(args, 0), true)?;
    }
    Ok(Value::UNDEFINED)
}
