//! Closures and classes: function objects from code blocks, class creation, `this`, `super`
//! calls and `super` property access.

use crate::atoms::{atom, Atom, PropertyKey};
use crate::bytecode::{CodeBlock, FunctionKind};
use crate::error::JsResult;
use crate::heap::object::{Class, Closure, Object};
use crate::heap::shape::PropFlags;
use crate::heap::CodeId;
use crate::runtime::convert::{key_to_display, to_property_key};
use crate::runtime::property;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// Create a closure for `functions[index]` of `code` in frame `fi`'s environment.
pub fn make_closure(vm: &mut Vm, fi: usize, code: CodeId, index: u32) -> JsResult<Value> {
    let Some(&fcode) = vm.heap.code(code).functions.get(index as usize) else {
        return Err(vm.type_error("invalid function index"));
    };
    let env = vm.frames.get(fi).and_then(|f| f.env);
    let f = instantiate_function(vm, fcode, env);
    if vm.heap.code(fcode).kind.is_arrow() {
        if let Some(frame) = vm.frames.get(fi) {
            let (this, nt, callee) = (frame.this, frame.new_target, frame.callee);
            let home = callee.as_object().and_then(|c| match &vm.heap.obj(c).class {
                Class::Function(cl) => cl.home_object,
                _ => None,
            });
            if let Class::Function(cl) = &mut vm.heap.obj_mut(f).class {
                cl.bound_this = this;
                cl.bound_new_target = nt;
                cl.home_object = home;
            }
        }
    }
    Ok(Value::object(f))
}

/// OrdinaryFunctionCreate + MakeConstructor as the code block's kind requires.
pub fn instantiate_function(vm: &mut Vm, fcode: CodeId, env: Option<crate::heap::EnvId>) -> ObjectId {
    let c: &CodeBlock = vm.heap.code(fcode);
    let (kind, name, length, strict) = (c.kind, c.name, c.length, c.strict);
    let proto = match kind {
        FunctionKind::Generator => vm.realm.generator_function_prototype,
        FunctionKind::AsyncGenerator => vm.realm.async_generator_function_prototype,
        FunctionKind::Async | FunctionKind::AsyncArrow => vm.realm.async_function_prototype,
        _ => vm.realm.function_prototype,
    };
    let closure = Closure {
        code: fcode,
        env,
        home_object: None,
        fields: Value::UNDEFINED,
        private_brand: Value::UNDEFINED,
        bound_this: Value::UNDEFINED,
        bound_new_target: Value::UNDEFINED,
    };
    let f = vm.heap.alloc_object(Object::new(Some(proto), Class::Function(closure)));
    let name_str = vm.heap.atoms.get(name).clone();
    vm.define_builtin(
        f,
        PropertyKey::Atom(atom::length),
        Value::int(length as i32),
        PropFlags(PropFlags::CONFIGURABLE),
    );
    let nv = vm.js_str(name_str);
    vm.define_builtin(f, PropertyKey::Atom(atom::name), nv, PropFlags(PropFlags::CONFIGURABLE));
    match kind {
        FunctionKind::Normal => {
            if !strict {
                // As in V8 (an extension the spec allows, 17.1): sloppy functions carry their
                // own `arguments` and `caller`, read as null, so reading them does not reach
                // Function.prototype's throwing accessors.
                vm.define_builtin(f, PropertyKey::Atom(atom::arguments), Value::NULL, PropFlags::NONE);
                vm.define_builtin(f, PropertyKey::Atom(atom::caller), Value::NULL, PropFlags::NONE);
            }
            let p = vm.new_object();
            if let Some(po) = p.as_object() {
                vm.define_builtin(po, PropertyKey::Atom(atom::constructor), Value::object(f), PropFlags::HIDDEN);
            }
            vm.define_builtin(f, PropertyKey::Atom(atom::prototype), p, PropFlags(PropFlags::WRITABLE));
        }
        FunctionKind::Generator | FunctionKind::AsyncGenerator => {
            let pp = if kind == FunctionKind::Generator {
                vm.realm.generator_prototype
            } else {
                vm.realm.async_generator_prototype
            };
            let p = vm.heap.new_plain(Some(pp));
            vm.define_builtin(f, PropertyKey::Atom(atom::prototype), Value::object(p), PropFlags(PropFlags::WRITABLE));
        }
        _ => {}
    }
    f
}

/// `class` evaluation core: `parent? → ctor proto`.
pub fn create_class(vm: &mut Vm, fi: usize, code: CodeId, index: u32, derived: bool, name: Atom) -> JsResult<()> {
    let (proto_parent, ctor_parent) = if derived {
        let parent = vm.stack.pop().unwrap_or_default();
        if parent.is_null() {
            (None, vm.realm.function_prototype)
        } else {
            if !crate::runtime::call::is_constructor(vm, parent) {
                return Err(vm.type_error("Class extends value is not a constructor or null"));
            }
            let Some(po) = parent.as_object() else {
                return Err(vm.type_error("Class extends value is not a constructor"));
            };
            let pp = property::get(vm, po, PropertyKey::Atom(atom::prototype), parent)?;
            if !pp.is_object() && !pp.is_null() {
                return Err(vm.type_error("Class extends value does not have valid prototype property"));
            }
            (pp.as_object(), po)
        }
    } else {
        (Some(vm.realm.object_prototype), vm.realm.function_prototype)
    };
    let proto = vm.heap.new_plain(proto_parent);
    let ctor = make_closure(vm, fi, code, index)?;
    let Some(c) = ctor.as_object() else { return Err(vm.type_error("class constructor")) };
    vm.heap.obj_mut(c).proto = Some(ctor_parent);
    if let Class::Function(cl) = &mut vm.heap.obj_mut(c).class {
        cl.home_object = Some(proto);
    }
    // Class constructors: `prototype` is non-writable; the function's own name/length stand.
    let _ = name;
    vm.define_builtin(c, PropertyKey::Atom(atom::prototype), Value::object(proto), PropFlags::NONE);
    vm.define_builtin(proto, PropertyKey::Atom(atom::constructor), ctor, PropFlags::HIDDEN);
    vm.stack.push(ctor);
    vm.stack.push(Value::object(proto));
    Ok(())
}

/// The current function's `this`, checking initialisation in derived constructors.
pub fn current_this(vm: &mut Vm, fi: usize) -> JsResult<Value> {
    let t = vm.frames[fi].this;
    if t.is_empty() {
        return Err(vm.reference_error(
            "Must call super constructor in derived class before accessing 'this' or returning from derived constructor",
        ));
    }
    Ok(t)
}

/// `super(...args)` in a derived constructor: construct the parent with our new.target.
/// SuperCall steps 1-6: construct the parent of the active function `func`.
#[inline(never)] // cold: keeps the dispatch loop small
fn construct_super(vm: &mut Vm, func: Value, args: &[Value], new_target: Value) -> JsResult<(ObjectId, Value)> {
    // 1-4. Let func be GetSuperConstructor(); if IsConstructor(func) is false, throw.
    let Some(c) = func.as_object() else { return Err(vm.syntax_error("'super' keyword unexpected here")) };
    let parent = property::get_prototype_of(vm, c)?;
    let parent = parent.map(Value::object).unwrap_or(Value::NULL);
    if !crate::runtime::call::is_constructor(vm, parent) {
        return Err(vm.type_error("Super constructor is not a constructor"));
    }
    // 5-6. Let result be ? Construct(func, argList, newTarget).
    Ok((c, crate::runtime::call::construct(vm, parent, args, Some(new_target))?))
}

#[inline(never)] // cold: keeps the dispatch loop small
pub fn super_call(vm: &mut Vm, fi: usize, args: &[Value]) -> JsResult<Value> {
    let (callee, new_target) = (vm.frames[fi].callee, vm.frames[fi].new_target);
    let (c, this) = construct_super(vm, callee, args, new_target)?;
    // Direct eval frames share the `this` binding of the constructor frame they run in.
    let mut bound = vec![fi];
    let mut j = fi;
    while j > 0 && vm.heap.code(vm.frames[j].code).kind == FunctionKind::Eval {
        j -= 1;
        bound.push(j);
    }
    if !vm.frames[j].this.is_empty() {
        return Err(vm.reference_error("Super constructor may only be called once"));
    }
    for k in bound {
        vm.frames[k].this = this;
    }
    crate::interp::calls::run_field_init(vm, c, this)?;
    Ok(this)
}

/// SuperCall where arrows may call it (§13.3.7.1): the constructor and its `this` binding
/// live in its function environment (`slot + 1` and `slot`, `depth` environments up), and
/// the constructor's frame, if it is still running, gets the binding too.
#[inline(never)] // cold: keeps the dispatch loop small
pub fn super_call_env(vm: &mut Vm, fi: usize, depth: u16, slot: u32, args: &[Value]) -> JsResult<Value> {
    let Some(env) = crate::interp::env_at(vm, vm.frames[fi].env, depth) else {
        return Err(vm.syntax_error("'super' keyword unexpected here"));
    };
    let slot = slot as usize;
    let func = vm.heap.env(env).slots.get(slot + 1).copied().unwrap_or_default();
    let new_target = vm.frames[fi].new_target;
    let (c, this) = construct_super(vm, func, args, new_target)?;
    // 7-10. Perform ? thisER.BindThisValue(result).
    if !vm.heap.env(env).slots.get(slot).copied().unwrap_or_default().is_empty() {
        return Err(vm.reference_error("Super constructor may only be called once"));
    }
    if let Some(s) = vm.heap.env_mut(env).slots.get_mut(slot) {
        *s = this;
    }
    // The constructor's frame reads `this` from itself: the running invocation whose
    // environment this is gets it too (and direct eval frames above it share it).
    for k in (0..=fi).rev() {
        let f = &vm.frames[k];
        if f.callee != func || !f.this.is_empty() {
            continue;
        }
        let mut e = f.env;
        let mut hops = 0;
        while let Some(id) = e {
            if id == env || hops > 10_000 {
                break;
            }
            e = vm.heap.env(id).parent;
            hops += 1;
        }
        if e == Some(env) {
            vm.frames[k].this = this;
            for j in k + 1..=fi {
                if vm.heap.code(vm.frames[j].code).kind == FunctionKind::Eval && vm.frames[j].this.is_empty() {
                    vm.frames[j].this = this;
                }
            }
            break;
        }
    }
    // 11. Perform ? InitializeInstanceFields(result, F).
    crate::interp::calls::run_field_init(vm, c, this)?;
    Ok(this)
}

/// The object `super.x` looks up from: the home object's prototype.
pub fn super_base(vm: &mut Vm, fi: usize) -> JsResult<Value> {
    let callee = vm.frames[fi].callee;
    let home = callee.as_object().and_then(|c| match &vm.heap.obj(c).class {
        Class::Function(cl) => cl.home_object,
        _ => None,
    });
    let Some(h) = home else { return Err(vm.syntax_error("'super' keyword unexpected here")) };
    Ok(property::get_prototype_of(vm, h)?.map(Value::object).unwrap_or(Value::NULL))
}

pub fn get_super(vm: &mut Vm, base: Value, key: Value, this: Value) -> JsResult<Value> {
    let k = to_property_key(vm, key)?;
    let Some(b) = base.as_object() else {
        let kd = key_to_display(vm, k);
        return Err(vm.type_error(format!("Cannot read properties of null (reading '{kd}')")));
    };
    property::get(vm, b, k, this)
}

/// PutValue of a super reference: a failed [[Set]] throws only in strict code.
pub fn set_super(vm: &mut Vm, base: Value, key: Value, v: Value, this: Value, strict: bool) -> JsResult<()> {
    let k = to_property_key(vm, key)?;
    let Some(b) = base.as_object() else { return Err(vm.type_error("Cannot set properties of null")) };
    let ok = property::set(vm, b, k, v, this)?;
    if !ok && strict {
        return Err(property::set_failure(vm, b, k, this));
    }
    Ok(())
}
