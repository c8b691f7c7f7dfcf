//! [[Call]] and [[Construct]] from Rust: natives call into JS through here (re-entering the
//! interpreter), JS→JS calls never do (they push a frame in the interpreter loop).

use crate::atoms::{atom, PropertyKey};
use crate::builtins::proxy;
use crate::error::{JsResult, Throw};
use crate::heap::object::Class;
use crate::value::{ObjectId, Value};
use crate::vm::{NativeCtx, Vm};

/// IsCallable.
#[inline]
pub fn is_callable(vm: &Vm, v: Value) -> bool {
    v.as_object().is_some_and(|o| vm.heap.obj(o).is_callable())
}

/// IsConstructor.
pub fn is_constructor(vm: &Vm, v: Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    match &vm.heap.obj(o).class {
        Class::Function(c) => {
            let code = vm.heap.code(c.code);
            code.kind.is_constructor()
        }
        Class::Native(n) => n.constructor,
        Class::Bound(b) => b.constructor,
        Class::Proxy(p) => p.constructor,
        _ => false,
    }
}

/// Native calls nested this deep from the last re-entry are cheap to leave unchecked:
/// the first levels of every call chain skip the stack check.
const UNCHECKED_NATIVE_DEPTH: u32 = 16;

/// Run `f` one level of Rust recursion deeper: natives calling natives (`join` on nested
/// arrays, bound functions of bound functions) recurse without re-entering the interpreter,
/// so they count towards `max_native_depth` and grow the stack like `interp::run` does.
#[inline]
pub(crate) fn nested<T>(vm: &mut Vm, f: impl FnOnce(&mut Vm) -> JsResult<T>) -> JsResult<T> {
    if vm.native_depth >= vm.options.max_native_depth {
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    vm.native_depth += 1;
    let r = if vm.native_depth.is_multiple_of(UNCHECKED_NATIVE_DEPTH) {
        stacker::maybe_grow(crate::interp::STACK_RED_ZONE, crate::interp::STACK_SEGMENT, || f(vm))
    } else {
        f(vm)
    };
    vm.native_depth -= 1;
    r
}

/// Run `f` where at least the interpreter's red zone of native stack is free, adding a
/// segment first if it is not: for recursive walks outside the engine (`util.inspect`)
/// that bound their own depth but not the stack each level costs.
pub fn with_stack<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(crate::interp::STACK_RED_ZONE, crate::interp::STACK_SEGMENT, f)
}

/// Call(F, V, args).
pub fn call(vm: &mut Vm, f: Value, this: Value, args: &[Value]) -> JsResult<Value> {
    let Some(fo) = f.as_object() else {
        return Err(vm.type_error("value is not a function"));
    };
    if matches!(vm.heap.obj(fo).class, Class::Function(_)) {
        return crate::interp::call_closure(vm, fo, this, args, None);
    }
    nested(vm, |vm| call_non_closure(vm, fo, this, args))
}

fn call_non_closure(vm: &mut Vm, fo: ObjectId, this: Value, args: &[Value]) -> JsResult<Value> {
    match &vm.heap.obj(fo).class {
        Class::Native(n) => {
            let (id, realm) = (n.id, n.realm);
            call_native(vm, fo, id, realm, this, args, Value::UNDEFINED)
        }
        Class::Function(_) => crate::interp::call_closure(vm, fo, this, args, None),
        Class::Bound(b) => {
            // A chain of bound functions is unwound here rather than recursed through, so
            // its length costs no native stack.
            let (mut target, mut bthis) = (b.target, b.this);
            let mut all = b.args.clone();
            all.extend_from_slice(args);
            while let Class::Bound(inner) = &vm.heap.obj(target).class {
                let mut next = inner.args.clone();
                next.extend_from_slice(&all);
                (all, target, bthis) = (next, inner.target, inner.this);
                vm.charge(1)?;
            }
            call(vm, Value::object(target), bthis, &all)
        }
        Class::Proxy(_) => proxy::call(vm, fo, this, args),
        _ => {
            let msg = "value is not a function";
            Err(vm.type_error(msg))
        }
    }
}

/// Run a native with its call context set (and in its realm), then restore the caller's.
#[allow(clippy::too_many_arguments)]
pub fn call_native(
    vm: &mut Vm,
    callee: ObjectId,
    id: crate::builtins::NativeId,
    realm: crate::heap::RealmId,
    this: Value,
    args: &[Value],
    new_target: Value,
) -> JsResult<Value> {
    let Some(def) = id.def() else { return Err(vm.type_error("unknown native function")) };
    let saved = vm.native_ctx;
    let roots = vm.roots.len();
    vm.native_ctx = NativeCtx { callee: Some(callee), new_target };
    let depth = vm.frames.len() as u32;
    let construct = !new_target.is_undefined();
    vm.native_frames.push(crate::interp::frame::NativeFrame { callee, this, construct, depth });
    let natives = vm.native_frames.len() - 1;
    if let Err(t) = vm.charge(1) {
        vm.native_ctx = saved;
        vm.native_frames.truncate(natives);
        return Err(t);
    }
    // A native runs in the realm it was created in: its errors and results are that realm's.
    let outer_realm = vm.current_realm;
    if realm != outer_realm {
        vm.switch_realm(realm);
    }
    let r = (def.f)(vm, this, args);
    if realm != outer_realm {
        vm.switch_realm(outer_realm);
    }
    vm.native_ctx = saved;
    vm.native_frames.truncate(natives);
    vm.roots.truncate(roots);
    r
}

/// Construct(F, args, newTarget).
pub fn construct(vm: &mut Vm, f: Value, args: &[Value], new_target: Option<Value>) -> JsResult<Value> {
    let new_target = new_target.unwrap_or(f);
    let Some(fo) = f.as_object() else {
        return Err(vm.type_error("value is not a constructor"));
    };
    if !is_constructor(vm, f) {
        return Err(vm.type_error("value is not a constructor"));
    }
    if matches!(vm.heap.obj(fo).class, Class::Function(_)) {
        return crate::interp::construct_closure(vm, fo, args, new_target);
    }
    nested(vm, |vm| construct_non_closure(vm, f, fo, args, new_target))
}

fn construct_non_closure(vm: &mut Vm, f: Value, fo: ObjectId, args: &[Value], new_target: Value) -> JsResult<Value> {
    match &vm.heap.obj(fo).class {
        Class::Native(n) => {
            let (id, realm) = (n.id, n.realm);
            call_native(vm, fo, id, realm, Value::UNDEFINED, args, new_target)
        }
        Class::Function(_) => crate::interp::construct_closure(vm, fo, args, new_target),
        Class::Bound(b) => {
            // Unwound like [[Call]] above: each bound level prepends its arguments and
            // replaces a newTarget that is itself.
            let mut current = f;
            let mut target = Value::object(b.target);
            let mut all = b.args.clone();
            all.extend_from_slice(args);
            let mut nt = if new_target == current { target } else { new_target };
            while let Some(Class::Bound(inner)) = target.as_object().map(|t| &vm.heap.obj(t).class) {
                let mut next = inner.args.clone();
                next.extend_from_slice(&all);
                current = target;
                target = Value::object(inner.target);
                all = next;
                if nt == current {
                    nt = target;
                }
                vm.charge(1)?;
            }
            construct(vm, target, &all, Some(nt))
        }
        Class::Proxy(_) => proxy::construct(vm, fo, args, new_target),
        _ => Err(vm.type_error("value is not a constructor")),
    }
}

/// GetPrototypeFromConstructor (§10.1.14): `newTarget.prototype` if an object, else the
/// intrinsic default.
pub fn prototype_from_constructor(vm: &mut Vm, new_target: Value, default: ObjectId) -> JsResult<ObjectId> {
    let Some(nt) = new_target.as_object() else { return Ok(default) };
    let p = crate::runtime::property::get(vm, nt, PropertyKey::Atom(atom::prototype), new_target)?;
    if let Some(p) = p.as_object() {
        return Ok(p);
    }
    // The fallback is the constructor's realm's intrinsic, not the running realm's.
    let realm = crate::realm::function_realm(vm, nt)?;
    Ok(crate::realm::same_intrinsic_in(vm, realm, default))
}

/// Invoke(V, P, args).
pub fn invoke(vm: &mut Vm, v: Value, key: PropertyKey, args: &[Value]) -> JsResult<Value> {
    let f = crate::runtime::property::get_v(vm, v, key)?;
    if !is_callable(vm, f) {
        let name = crate::runtime::convert::key_to_display(vm, key);
        return Err(vm.type_error(format!("{name} is not a function")));
    }
    call(vm, f, v, args)
}

/// The thrown value of a JS throw, or the limit to propagate.
pub fn thrown_value(t: Throw) -> Option<Value> {
    match t {
        Throw::Value(v) => Some(v),
        Throw::Limit(_) => None,
    }
}
