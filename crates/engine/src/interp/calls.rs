//! Entering and leaving JS frames: FunctionDeclarationInstantiation's runtime part
//! (argument registers, `this` binding, the function environment) and returns.

use crate::atoms::{atom, PropertyKey};
use crate::bytecode::FunctionKind;
use crate::error::JsResult;
use crate::heap::frame::{Frame, FrameKind};
use crate::heap::object::{Class, Env, Object};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// Push a frame for closure `f`, whose callee, `this` and `argc` arguments are the top
/// `argc + 2` values of the stack.
pub fn enter_closure(
    vm: &mut Vm,
    f: ObjectId,
    argc: u32,
    new_target: Value,
    kind: FrameKind,
    stop_here: bool,
) -> JsResult<()> {
    if vm.frames.len() >= vm.options.max_stack_depth {
        vm.stack.truncate(vm.stack.len() - argc as usize - 2);
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    let Class::Function(closure) = &vm.heap.obj(f).class else {
        return Err(vm.type_error("not a function"));
    };
    let (code_id, closure_env) = (closure.code, closure.env);
    let (bound_this, bound_new_target) = (closure.bound_this, closure.bound_new_target);
    let code = vm.heap.code(code_id);
    let (params, registers, max_stack, env_slots, strict, fkind, realm) =
        (code.param_count, code.register_count, code.max_stack, code.env_slots, code.strict, code.kind, code.realm);
    if code.is_class_constructor && new_target.is_undefined() {
        vm.stack.truncate(vm.stack.len() - argc as usize - 2);
        let name = crate::builtins::function::function_name(vm, f);
        // [[Call]] step 2: the TypeError is created in the callee's realm.
        let outer_realm = vm.current_realm;
        vm.switch_realm(realm);
        let error = if name.is_empty() {
            vm.type_error("Class constructors cannot be invoked without 'new'")
        } else {
            vm.type_error(format!("Class constructor {name} cannot be invoked without 'new'"))
        };
        vm.switch_realm(outer_realm);
        return Err(error);
    }
    let base = vm.stack.len() as u32 - argc;
    // The callee's realm runs from here: its global is sloppy `this`, its intrinsics make the
    // function environment's objects (and the rest of the body's).
    let outer_realm = vm.current_realm;
    vm.switch_realm(realm);
    // this binding (OrdinaryCallBindThis): sloppy functions see the global object for
    // nullish and a wrapper for primitives; arrows get theirs from the environment.
    let mut this = vm.stack[base as usize - 1];
    let mut new_target = new_target;
    if fkind.is_arrow() {
        this = bound_this;
        new_target = bound_new_target;
        vm.stack[base as usize - 1] = this;
    } else if !strict && !matches!(kind, FrameKind::Construct) {
        if this.is_nullish() {
            this = Value::object(vm.global);
        } else if !this.is_object() {
            this = match crate::runtime::convert::to_object(vm, this) {
                Ok(o) => Value::object(o),
                Err(t) => {
                    vm.switch_realm(outer_realm);
                    return Err(t);
                }
            };
        }
        vm.stack[base as usize - 1] = this;
    }
    let mut extra_args = Vec::new();
    if argc > params {
        extra_args = vm.stack.split_off((base + params) as usize);
    } else {
        vm.stack.resize((base + params) as usize, Value::UNDEFINED);
    }
    vm.stack.resize((base + registers) as usize, Value::UNDEFINED);
    // The verifier bounds the code's operand stack: room for all of it now, none mid-frame.
    vm.stack.reserve(max_stack as usize);
    let env = if env_slots > 0 {
        Some(vm.heap.alloc_env(Env {
            parent: closure_env,
            slots: vec![Value::EMPTY; env_slots as usize],
            object: None,
            eval_vars: false,
        }))
    } else {
        closure_env
    };
    vm.frames.push(Frame {
        code: code_id,
        pc: 0,
        base,
        callee: Value::object(f),
        this,
        new_target,
        env,
        env_depth: 0,
        argc,
        extra_args,
        kind,
        stop_here,
        outer_realm,
    });
    Ok(())
}

/// OrdinaryCreateFromConstructor for a base constructor's `this`.
pub fn create_this(vm: &mut Vm, new_target: Value) -> JsResult<Value> {
    let default = vm.realm.object_prototype;
    let proto = crate::runtime::call::prototype_from_constructor(vm, new_target, default)?;
    Ok(Value::object(vm.heap.alloc_object(Object::new(Some(proto), Class::Ordinary))))
}

/// Is this closure a derived-class constructor (its `this` starts uninitialised)?
pub fn is_derived(vm: &Vm, f: ObjectId) -> bool {
    match &vm.heap.obj(f).class {
        Class::Function(c) => vm.heap.code(c.code).kind == FunctionKind::DerivedConstructor,
        _ => false,
    }
}

/// Run the instance-field initialiser of class constructor `f` on `this`.
pub fn run_field_init(vm: &mut Vm, f: ObjectId, this: Value) -> JsResult<()> {
    let fields = match &vm.heap.obj(f).class {
        Class::Function(c) => c.fields,
        _ => Value::UNDEFINED,
    };
    if fields.is_object() {
        crate::runtime::call::call(vm, fields, this, &[])?;
    }
    Ok(())
}

/// The `prototype` of a function for generator objects, falling back to `default`.
pub fn prototype_of_function(vm: &mut Vm, f: Value, default: ObjectId) -> JsResult<ObjectId> {
    let Some(fo) = f.as_object() else { return Ok(default) };
    let p = crate::runtime::property::get(vm, fo, PropertyKey::Atom(atom::prototype), f)?;
    Ok(p.as_object().unwrap_or(default))
}
