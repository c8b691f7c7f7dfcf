//! The interpreter: one loop over bytecode, stackless for JS→JS calls.
//!
//! Start at [`run`]. Each arm of the dispatch is a few lines or calls a named handler in
//! `ops.rs`, `calls.rs` or `generator.rs`. A JS call pushes a [`Frame`] and continues the
//! loop; only calls from Rust (natives, the embedder) re-enter `run`, marking their frame
//! `stop_here`. Exceptions unwind through each code block's handler table.

pub mod calls;
mod fast;
pub mod frame;
pub mod generator;
pub mod names;
pub mod ops;
pub mod stack_trace;

use crate::atoms::PropertyKey;
use crate::bytecode::Op;
use crate::error::{ErrorKind, JsResult, Limit, Throw};
use crate::heap::frame::{Frame, FrameKind};
use crate::heap::object::Class;
use crate::heap::EnvId;
use crate::runtime::convert::{to_boolean, to_numeric, to_property_key};
use crate::runtime::describe::{describe, Shown};
use crate::runtime::iterator::{
    async_iterator_close_quiet, get_iterator, iterator_close_normal, iterator_close_quiet, iterator_step, IteratorKind,
    IteratorRecord,
};
use crate::runtime::operators::{self, Arith};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub use generator::resume_async;

/// Call closure `f` from Rust.
pub fn call_closure(
    vm: &mut Vm,
    f: ObjectId,
    this: Value,
    args: &[Value],
    new_target: Option<Value>,
) -> JsResult<Value> {
    vm.stack.push(Value::object(f));
    vm.stack.push(this);
    vm.stack.extend_from_slice(args);
    let kind = generator::kind_for_call(vm, f);
    match kind {
        Some(k) => generator::enter_special(vm, f, args.len() as u32, k, true)?,
        None => {
            calls::enter_closure(vm, f, args.len() as u32, new_target.unwrap_or_default(), FrameKind::Normal, true)?
        }
    }
    run(vm)
}

/// Construct with closure `f` from Rust.
pub fn construct_closure(vm: &mut Vm, f: ObjectId, args: &[Value], new_target: Value) -> JsResult<Value> {
    let this = if calls::is_derived(vm, f) { Value::EMPTY } else { calls::create_this(vm, new_target)? };
    vm.stack.push(Value::object(f));
    vm.stack.push(this);
    vm.stack.extend_from_slice(args);
    calls::enter_closure(vm, f, args.len() as u32, new_target, FrameKind::Construct, true)?;
    if !this.is_empty() {
        calls::run_field_init(vm, f, this).inspect_err(|_| {
            pop_frame(vm);
        })?;
    }
    run(vm)
}

/// Remove the top frame and its stack.
fn pop_frame(vm: &mut Vm) -> Option<Frame> {
    let f = vm.frames.pop()?;
    vm.stack.truncate(f.base.saturating_sub(2) as usize);
    // Back to the realm of whatever runs next (the calling frame's, or the Rust caller's),
    // which was the running one when this frame was pushed.
    vm.switch_realm(f.outer_realm);
    Some(f)
}

#[inline]
pub(crate) fn env_at(vm: &Vm, env: Option<EnvId>, depth: u16) -> Option<EnvId> {
    let mut e = env;
    for _ in 0..depth {
        e = e.and_then(|id| vm.heap.env(id).parent);
    }
    e
}

#[inline]
fn pop(vm: &mut Vm) -> Value {
    vm.stack.pop().unwrap_or_default()
}

#[inline]
fn top(vm: &Vm) -> Value {
    vm.stack.last().copied().unwrap_or_default()
}

/// The top of the stack, to replace. The verifier's stack-depth pass proves every
/// instruction that replaces the top has one; a push keeps an impossible empty stack safe.
#[inline]
fn top_mut(vm: &mut Vm) -> &mut Value {
    if vm.stack.is_empty() {
        vm.stack.push(Value::UNDEFINED);
    }
    let last = vm.stack.len() - 1;
    &mut vm.stack[last]
}

/// Result of one instruction.
pub(crate) enum Flow {
    Next,
    /// The `stop_here` frame finished with this value: return it to the Rust caller.
    Exit(Value),
}

/// Stack a level of Rust recursion may use before the next check: the interpreter loop, an
/// instruction's handler and the natives it calls on the way to the next re-entry.
pub(crate) const STACK_RED_ZONE: usize = 256 << 10;
/// Stack added each time the red zone is reached.
pub(crate) const STACK_SEGMENT: usize = 4 << 20;

/// Run until the innermost `stop_here` frame returns (or throws out).
///
/// JS→JS calls push frames and never recurse here; a native that calls back into JS does.
/// Such recursion grows the native stack on demand (a new segment when less than the red
/// zone is left), so its depth is bounded by `options.max_native_depth`, never by the
/// thread's stack size, and it never overflows.
pub fn run(vm: &mut Vm) -> JsResult<Value> {
    if vm.native_depth >= vm.options.max_native_depth {
        // Drop the frame our caller just pushed, then fail like a stack overflow.
        pop_frame(vm);
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    vm.native_depth += 1;
    let r = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || run_loop(vm));
    vm.native_depth -= 1;
    r
}

fn run_loop(vm: &mut Vm) -> JsResult<Value> {
    loop {
        if vm.options.fast_tier {
            fast::run(vm);
        }
        // `vm.roots` is scoped: what an instruction pushed there (an iterator, a spread
        // source, an iterator result) is held while the instruction runs and no longer, as a
        // native's roots are released when it returns (`runtime::call`). Without this every
        // for-of step and object spread the general path ran stayed reachable for the run.
        let roots = vm.roots.len();
        let flow = step(vm);
        vm.roots.truncate(roots);
        match flow {
            Ok(Flow::Next) => {}
            Ok(Flow::Exit(v)) => return Ok(v),
            Err(t) => {
                if let Some(v) = unwind(vm, t)? {
                    return Ok(v);
                }
            }
        }
    }
}

/// Transfer a throw to the nearest handler. Returns Err when it escapes the `stop_here`
/// frame, Ok(Some(v)) when an async frame absorbed it (its promise was rejected) and that
/// frame was the `stop_here` one, Ok(None) to continue the loop.
fn unwind(vm: &mut Vm, t: Throw) -> JsResult<Option<Value>> {
    let Throw::Value(exc) = t else {
        // Limits are not catchable: drop frames down to and including the stop_here frame.
        while let Some(f) = pop_frame(vm) {
            if f.stop_here {
                break;
            }
        }
        return Err(t);
    };
    loop {
        let Some(frame) = vm.frames.last() else { return Err(t) };
        let pc = frame.pc.saturating_sub(1);
        let code = vm.heap.code(frame.code);
        let handler = code.handlers.iter().find(|h| h.start <= pc && pc < h.end).copied();
        let registers = code.register_count;
        if let Some(h) = handler {
            let fi = vm.frames.len() - 1;
            let base = vm.frames[fi].base;
            let depth = vm.frames[fi].env_depth;
            for _ in h.env_depth..depth {
                let parent = vm.frames[fi].env.and_then(|e| vm.heap.env(e).parent);
                vm.frames[fi].env = parent;
            }
            vm.frames[fi].env_depth = h.env_depth.min(depth);
            // Cut the stack to the handler's depth. The verifier proves the depth at the
            // handler's target, not at every throw (an instruction may throw after popping),
            // so a stack that is short is filled up rather than trusted.
            vm.stack.resize((base + registers + h.depth) as usize, Value::UNDEFINED);
            vm.stack.push(exc);
            vm.frames[fi].pc = h.target;
            return Ok(None);
        }
        // No handler here: the frame completes abruptly.
        let Some(f) = pop_frame(vm) else { return Err(t) };
        match f.kind {
            FrameKind::Async { state, promise } => {
                generator::finish_async(vm, state, promise, Err(exc))?;
                if f.stop_here {
                    return Ok(Some(Value::object(promise)));
                }
                vm.stack.push(Value::object(promise));
                return Ok(None);
            }
            FrameKind::Generator(g) => generator::mark_completed(vm, g),
            FrameKind::AsyncGenerator(g) => {
                generator::async_generator_complete(vm, g, Err(exc))?;
                if f.stop_here {
                    return Ok(Some(Value::UNDEFINED));
                }
                vm.stack.push(Value::UNDEFINED);
                return Ok(None);
            }
            FrameKind::Normal | FrameKind::Construct => {}
        }
        if f.stop_here {
            return Err(t);
        }
    }
}

/// Finish the top frame with `value`.
fn do_return(vm: &mut Vm, mut value: Value) -> JsResult<Flow> {
    let Some(f) = pop_frame(vm) else { return Ok(Flow::Exit(value)) };
    match f.kind {
        FrameKind::Construct => {
            if !value.is_object() {
                let derived = f.callee.as_object().is_some_and(|c| calls::is_derived(vm, c));
                if !value.is_undefined() && derived {
                    return Err(vm.type_error("Derived constructors may only return object or undefined"));
                }
                value = f.this;
                if value.is_empty() {
                    return Err(vm.reference_error(
                        "Must call super constructor in derived class before accessing 'this' or returning from derived constructor",
                    ));
                }
            }
        }
        FrameKind::Generator(g) => {
            generator::mark_completed(vm, g);
        }
        FrameKind::Async { state, promise } => {
            generator::finish_async(vm, state, promise, Ok(value))?;
            value = Value::object(promise);
        }
        FrameKind::AsyncGenerator(g) => {
            generator::async_generator_complete(vm, g, Ok(value))?;
            value = Value::UNDEFINED;
        }
        FrameKind::Normal => {}
    }
    if f.stop_here {
        return Ok(Flow::Exit(value));
    }
    vm.stack.push(value);
    Ok(Flow::Next)
}

/// Fewest estimated bytes allocated between two collections: below this a collection costs
/// more than the memory it returns.
const GC_MIN_BYTES: u64 = 1 << 20;

/// Whether to collect before this instruction. Only allocation counts and the heap-size
/// estimate decide it (never wall time or addresses), and both ride the image, so a restored
/// run collects exactly when the original would have: at the latest every
/// `options.gc_interval` allocations, and sooner once the bytes allocated since the last
/// collection reach the bytes that survived it (the heap has doubled), but not before
/// `GC_MIN_BYTES`. Counting bytes, not objects, keeps peak memory near twice the live size
/// whether the garbage is small objects or long strings. And once the estimate passes
/// `--max-heap`: the collection decides whether the run is over the limit (what survives
/// it is) or only carried garbage, so a loop that grows one array or object without
/// allocating new cells stops at the limit, not at the next doubling.
#[inline]
fn gc_due(vm: &Vm) -> bool {
    let heap = &vm.heap;
    heap.allocs_since_gc >= vm.options.gc_interval
        || (heap.bytes_since_gc >= GC_MIN_BYTES && heap.bytes_since_gc.saturating_mul(2) >= heap.bytes_estimate)
        || vm.options.max_heap_bytes.is_some_and(|max| heap.bytes_estimate > max)
}

/// Execute one instruction of the top frame.
#[inline]
fn step(vm: &mut Vm) -> JsResult<Flow> {
    let Some(fi) = vm.frames.len().checked_sub(1) else { return Ok(Flow::Exit(Value::UNDEFINED)) };
    let frame = &mut vm.frames[fi];
    let pc = frame.pc;
    let code_id = frame.code;
    frame.pc = pc + 1;
    let Some(&op) = vm.heap.code(code_id).ops.get(pc as usize) else {
        return do_return(vm, Value::UNDEFINED);
    };
    if vm.fuel == 0 {
        return Err(Throw::Limit(Limit::Fuel));
    }
    vm.fuel -= 1;
    vm.stats.instructions += 1;
    if gc_due(vm) {
        crate::gc::collect(vm);
        vm.check_heap()?;
    }
    match op {
        Op::Undefined => vm.stack.push(Value::UNDEFINED),
        Op::Null => vm.stack.push(Value::NULL),
        Op::True => vm.stack.push(Value::TRUE),
        Op::False => vm.stack.push(Value::FALSE),
        Op::Empty => vm.stack.push(Value::EMPTY),
        Op::Int(i) => vm.stack.push(Value::int(i)),
        Op::Const(i) => {
            let v = vm.heap.code(code_id).constants.get(i as usize).copied().unwrap_or_default();
            vm.stack.push(v);
        }
        Op::Pop => {
            vm.stack.pop();
        }
        Op::Dup => vm.stack.push(top(vm)),
        Op::Dup2 => {
            let n = vm.stack.len();
            let (a, b) = (vm.stack[n - 2], vm.stack[n - 1]);
            vm.stack.push(a);
            vm.stack.push(b);
        }
        Op::Swap => {
            let n = vm.stack.len();
            vm.stack.swap(n - 1, n - 2);
        }
        Op::Rot3 => {
            let v = pop(vm);
            let n = vm.stack.len();
            vm.stack.insert(n - 2, v);
        }
        Op::Rot4 => {
            let v = pop(vm);
            let n = vm.stack.len();
            vm.stack.insert(n - 3, v);
        }
        Op::GetLocal(r) => {
            let base = vm.frames[fi].base;
            vm.stack.push(vm.stack[(base + r) as usize]);
        }
        Op::SetLocal(r) => {
            let base = vm.frames[fi].base;
            let v = pop(vm);
            vm.stack[(base + r) as usize] = v;
        }
        Op::GetLocalChecked(r) => {
            let base = vm.frames[fi].base;
            let v = vm.stack[(base + r) as usize];
            if v.is_empty() {
                return Err(ops::tdz_error(vm, code_id, r));
            }
            vm.stack.push(v);
        }
        Op::SetLocalChecked(r) => {
            let base = vm.frames[fi].base;
            if vm.stack[(base + r) as usize].is_empty() {
                return Err(ops::tdz_error(vm, code_id, r));
            }
            let v = pop(vm);
            vm.stack[(base + r) as usize] = v;
        }
        Op::GetEnv { depth, slot } => {
            let e = env_at(vm, vm.frames[fi].env, depth);
            let v = e.and_then(|e| vm.heap.env(e).slots.get(slot as usize).copied()).unwrap_or_default();
            vm.stack.push(v);
        }
        Op::GetEnvChecked { depth, slot } => {
            let e = env_at(vm, vm.frames[fi].env, depth);
            let v = e.and_then(|e| vm.heap.env(e).slots.get(slot as usize).copied()).unwrap_or_default();
            if v.is_empty() {
                return Err(ops::tdz_error_env(vm, code_id, slot));
            }
            vm.stack.push(v);
        }
        Op::SetEnv { depth, slot } => {
            let v = pop(vm);
            if let Some(e) = env_at(vm, vm.frames[fi].env, depth) {
                if let Some(s) = vm.heap.env_mut(e).slots.get_mut(slot as usize) {
                    *s = v;
                }
            }
        }
        Op::SetEnvChecked { depth, slot } => {
            let v = pop(vm);
            if let Some(e) = env_at(vm, vm.frames[fi].env, depth) {
                let cur = vm.heap.env(e).slots.get(slot as usize).copied().unwrap_or_default();
                if cur.is_empty() {
                    return Err(ops::tdz_error_env(vm, code_id, slot));
                }
                if let Some(s) = vm.heap.env_mut(e).slots.get_mut(slot as usize) {
                    *s = v;
                }
            }
        }
        Op::PushEnv(n) => {
            let parent = vm.frames[fi].env;
            let e = vm.heap.alloc_env(crate::heap::object::Env {
                parent,
                slots: vec![Value::EMPTY; n as usize],
                object: None,
                eval_vars: false,
            });
            vm.frames[fi].env = Some(e);
            vm.frames[fi].env_depth += 1;
        }
        Op::PopEnv => {
            let parent = vm.frames[fi].env.and_then(|e| vm.heap.env(e).parent);
            vm.frames[fi].env = parent;
            vm.frames[fi].env_depth = vm.frames[fi].env_depth.saturating_sub(1);
        }
        Op::CloneEnv => {
            if let Some(e) = vm.frames[fi].env {
                let copy = vm.heap.env(e).clone();
                let n = vm.heap.alloc_env(copy);
                vm.frames[fi].env = Some(n);
            }
        }
        Op::PushWithEnv => {
            let obj = pop(vm).as_object();
            let parent = vm.frames[fi].env;
            let e = vm.heap.alloc_env(crate::heap::object::Env {
                parent,
                slots: Vec::new(),
                object: obj,
                eval_vars: false,
            });
            vm.frames[fi].env = Some(e);
            vm.frames[fi].env_depth += 1;
        }
        Op::YieldRaw => {
            vm.yield_raw = true;
            return generator::yield_value(vm);
        }
        Op::MakeAccessorPair => {
            let set = pop(vm);
            let get = pop(vm);
            let pair = vm.heap.alloc_object(crate::heap::object::Object::new(None, Class::AccessorPair { get, set }));
            vm.stack.push(Value::object(pair));
        }
        Op::GetGlobal(name) => {
            let v = ops::get_global(vm, name, true)?;
            vm.stack.push(v);
        }
        Op::GetGlobalOrUndefined(name) => {
            let v = ops::get_global(vm, name, false)?;
            vm.stack.push(v);
        }
        Op::SetGlobal { name, strict } => {
            let v = pop(vm);
            ops::set_global(vm, name, v, strict)?;
        }
        Op::InitGlobalLexical(name) => {
            let v = pop(vm);
            if let Some(b) = vm.global_lexicals.get_mut(&name) {
                b.0 = v;
            }
        }
        Op::DeclareGlobals => ops::declare_globals(vm, code_id)?,
        Op::GetName(name) => {
            let v = names::get_name(vm, name, true)?;
            vm.stack.push(v);
        }
        Op::TypeofName(name) => {
            let v = names::get_name(vm, name, false)?;
            vm.stack.push(v);
        }
        Op::SetName { name, strict } => {
            let v = pop(vm);
            names::set_name(vm, name, v, strict)?;
        }
        Op::DeleteName(name) => {
            let r = names::delete_name(vm, name)?;
            vm.stack.push(Value::bool(r));
        }
        Op::GetNameThis(name) => {
            let (f, this) = names::get_name_this(vm, name)?;
            vm.stack.push(f);
            vm.stack.push(this);
        }
        Op::GetNameEnv { name, depth, slot, checked } => {
            let (v, _) = names::get_name_env(vm, name, depth, slot, checked)?;
            vm.stack.push(v);
        }
        Op::GetNameEnvThis { name, depth, slot, checked } => {
            let (f, this) = names::get_name_env(vm, name, depth, slot, checked)?;
            vm.stack.push(f);
            vm.stack.push(this);
        }
        Op::SetNameEnv { name, depth, slot, checked } => {
            let v = pop(vm);
            names::set_name_env(vm, name, depth, slot, checked, v)?;
        }
        Op::DeleteNameEnv { name, depth } => {
            let r = names::delete_name_env(vm, name, depth)?;
            vm.stack.push(Value::bool(r));
        }
        Op::ResolveName { name, depth } => {
            let base = names::resolve_name(vm, name, depth)?;
            vm.stack.push(base);
        }
        Op::GetNameRef { name, depth, slot, checked } => {
            let base = pop(vm);
            let v = names::get_name_ref(vm, base, name, depth, slot, checked)?;
            vm.stack.push(v);
        }
        Op::PutNameRef { name, depth, slot, checked } => {
            let v = pop(vm);
            let base = pop(vm);
            names::put_name_ref(vm, base, name, depth, slot, checked, v)?;
        }
        Op::DeclareEvalVar { name, depth } => names::declare_eval_var(vm, name, depth)?,
        Op::InitEvalVar { name, depth } => {
            let v = pop(vm);
            names::init_eval_var(vm, name, depth, v)?;
        }
        Op::GetProp { name, ic } => {
            let obj = pop(vm);
            let v = ops::get_prop_ic(vm, code_id, obj, name, ic)?;
            vm.stack.push(v);
        }
        Op::GetPropCallee { name, ic } => {
            // The receiver stays on the stack (a root) while a getter may run.
            let obj = top(vm);
            let v = ops::get_prop_ic(vm, code_id, obj, name, ic)?;
            under_receiver(vm, v, obj);
        }
        Op::GetThisProp { name, ic } => {
            let this = vm.frames[fi].this;
            vm.stack.push(this);
            let v = ops::get_prop_ic(vm, code_id, this, name, ic)?;
            *top_mut(vm) = v;
        }
        Op::SetProp { name, ic, strict } => {
            let v = pop(vm);
            let obj = pop(vm);
            ops::set_prop_ic(vm, code_id, obj, name, ic, v, strict)?;
            vm.stack.push(v);
        }
        Op::PutProp { name, ic, strict } => {
            let v = pop(vm);
            let obj = pop(vm);
            ops::set_prop_ic(vm, code_id, obj, name, ic, v, strict)?;
        }
        Op::GetElem => {
            let key = pop(vm);
            let obj = pop(vm);
            let v = ops::get_elem(vm, obj, key)?;
            vm.stack.push(v);
        }
        Op::GetElemCallee => {
            let key = pop(vm);
            let obj = top(vm);
            let v = ops::get_elem(vm, obj, key)?;
            under_receiver(vm, v, obj);
        }
        Op::SetElem { strict } => {
            let v = pop(vm);
            let key = pop(vm);
            let obj = pop(vm);
            ops::set_elem(vm, obj, key, v, strict)?;
            vm.stack.push(v);
        }
        Op::PutElem { strict } => {
            let v = pop(vm);
            let key = pop(vm);
            let obj = pop(vm);
            ops::set_elem(vm, obj, key, v, strict)?;
        }
        Op::DeleteProp { name, strict } => {
            let obj = pop(vm);
            let r = ops::delete_key(vm, obj, PropertyKey::Atom(name), strict)?;
            vm.stack.push(Value::bool(r));
        }
        Op::DeleteElem { strict } => {
            let key = pop(vm);
            let obj = pop(vm);
            let o = crate::runtime::convert::to_object(vm, obj)?;
            let k = to_property_key(vm, key)?;
            let r = ops::delete_key(vm, Value::object(o), k, strict)?;
            vm.stack.push(Value::bool(r));
        }
        Op::In => {
            let obj = pop(vm);
            let key = pop(vm);
            let Some(o) = obj.as_object() else {
                let (k, v) = (describe(vm, key, Shown::Plain), describe(vm, obj, Shown::Plain));
                return Err(vm.type_error(format!("Cannot use 'in' operator to search for '{k}' in {v}")));
            };
            let k = to_property_key(vm, key)?;
            let r = crate::runtime::property::has_property(vm, o, k)?;
            vm.stack.push(Value::bool(r));
        }
        Op::InstanceOf => {
            let c = pop(vm);
            let v = pop(vm);
            let r = operators::instance_of(vm, v, c)?;
            vm.stack.push(Value::bool(r));
        }
        Op::DefineField(name) => {
            let v = pop(vm);
            let obj = top(vm);
            ops::define_field(vm, obj, PropertyKey::Atom(name), v)?;
        }
        Op::DefineElem => {
            let v = pop(vm);
            let key = pop(vm);
            let obj = top(vm);
            let k = to_property_key(vm, key)?;
            ops::define_field(vm, obj, k, v)?;
        }
        Op::DefineMethod { name, flags } => {
            let f = pop(vm);
            let obj = top(vm);
            ops::define_method(vm, obj, PropertyKey::Atom(name), f, flags)?;
        }
        Op::DefineMethodElem { flags } => {
            let f = pop(vm);
            let key = pop(vm);
            let obj = top(vm);
            let k = to_property_key(vm, key)?;
            ops::define_method(vm, obj, k, f, flags)?;
        }
        Op::CopyDataProperties => {
            let src = pop(vm);
            let obj = top(vm);
            ops::copy_data_properties(vm, obj, src, &[])?;
        }
        Op::CopyRest(n) => {
            let n = n as usize;
            let at = vm.stack.len() - n;
            let excluded: Vec<Value> = vm.stack.split_off(at);
            let src = top(vm);
            let rest = vm.new_object();
            vm.stack.push(rest);
            ops::copy_data_properties(vm, rest, src, &excluded)?;
        }
        Op::SetProtoLiteral => {
            let proto = pop(vm);
            let obj = top(vm);
            if let Some(o) = obj.as_object() {
                if proto.is_object() || proto.is_null() {
                    vm.heap.obj_mut(o).proto = proto.as_object();
                }
            }
        }
        Op::SetHomeObject => {
            let n = vm.stack.len();
            let (home, f) = (vm.stack[n - 2], vm.stack[n - 1]);
            ops::set_home_object(vm, f, home);
        }
        Op::SetFunctionName { prefix } => {
            let n = vm.stack.len();
            let (f, key) = (vm.stack[n - 2], vm.stack[n - 1]);
            ops::set_function_name(vm, f, key, prefix)?;
        }
        Op::NewObject => {
            let o = vm.new_object();
            vm.stack.push(o);
        }
        Op::NewArray(n) => {
            // The capacity is only a hint (the literal's element count); an image can carry
            // any u32 here, so it is capped rather than trusted with a huge allocation.
            const MAX_HINT: usize = 4096;
            let a = vm.new_array(Vec::with_capacity((n as usize).min(MAX_HINT)));
            vm.stack.push(a);
        }
        Op::ArrayPush => {
            let v = pop(vm);
            let a = top(vm);
            ops::array_push(vm, a, v);
        }
        Op::ArrayHole => {
            let a = top(vm);
            ops::array_push(vm, a, Value::EMPTY);
        }
        Op::ArraySpread => {
            let iterable = pop(vm);
            let a = top(vm);
            ops::array_spread(vm, a, iterable)?;
        }
        Op::RequireObjectCoercible => {
            let v = top(vm);
            if v.is_nullish() {
                return Err(ops::not_destructurable_error(vm, v));
            }
        }
        Op::ToPropertyKey => {
            let v = pop(vm);
            let k = to_property_key(vm, v)?;
            let kv = crate::runtime::convert::key_to_value(vm, k);
            vm.stack.push(kv);
        }
        Op::ToPropertyKeyOfBase => {
            let v = pop(vm);
            let base = top(vm);
            if base.is_nullish() {
                return Err(ops::nullish_base_error(vm, base, v, "read properties", "reading"));
            }
            let k = to_property_key(vm, v)?;
            let kv = crate::runtime::convert::key_to_value(vm, k);
            vm.stack.push(kv);
        }
        Op::ToStringForConcat => {
            let v = pop(vm);
            let s = crate::runtime::convert::to_string(vm, v)?;
            vm.stack.push(Value::string(s));
        }
        Op::ToObject => {
            let v = pop(vm);
            let o = crate::runtime::convert::to_object(vm, v)?;
            vm.stack.push(Value::object(o));
        }
        Op::GetPrivate => {
            let key = pop(vm);
            let obj = pop(vm);
            let v = ops::private_get(vm, obj, key)?;
            vm.stack.push(v);
        }
        Op::SetPrivate => {
            let v = pop(vm);
            let key = pop(vm);
            let obj = pop(vm);
            ops::private_set(vm, obj, key, v)?;
            vm.stack.push(v);
        }
        Op::DefinePrivate => {
            let v = pop(vm);
            let key = pop(vm);
            let obj = top(vm);
            ops::private_define(vm, obj, key, v, false)?;
        }
        Op::DefinePrivateMethod => {
            let v = pop(vm);
            let key = pop(vm);
            let obj = top(vm);
            ops::private_define(vm, obj, key, v, true)?;
        }
        Op::HasPrivate => {
            let obj = pop(vm);
            let key = pop(vm);
            let Some(o) = obj.as_object() else {
                return Err(vm.type_error("Cannot use 'in' operator to search for a private field in a non-object"));
            };
            let r = ops::private_find(vm, o, key).is_some();
            vm.stack.push(Value::bool(r));
        }
        Op::NewPrivateName(desc) => {
            let d = vm.heap.atoms.get(desc).clone();
            let s = vm.heap.alloc_symbol(Some(d));
            vm.stack.push(Value::symbol(s));
        }
        Op::Closure(i) => {
            let f = ops::make_closure(vm, fi, code_id, i)?;
            vm.stack.push(f);
        }
        Op::Call(argc) => return op_call(vm, argc),
        Op::CallEval(argc) => return op_call_eval(vm, argc),
        Op::CallEvalSpread => {
            let args = pop(vm);
            let argc = ops::push_array_elements(vm, args)?;
            return op_call_eval(vm, argc);
        }
        Op::CallSpread => {
            let args = pop(vm);
            let argc = ops::push_array_elements(vm, args)?;
            return op_call(vm, argc);
        }
        Op::New(argc) => return op_new(vm, argc),
        Op::NewSpread => {
            let args = pop(vm);
            let argc = ops::push_array_elements(vm, args)?;
            return op_new(vm, argc);
        }
        Op::SuperCall(argc) => {
            let at = vm.stack.len() - argc as usize;
            let args = vm.stack.split_off(at);
            let this = ops::super_call(vm, fi, &args)?;
            vm.stack.push(this);
        }
        Op::SuperCallSpread => {
            let arr = pop(vm);
            let args = ops::array_elements(vm, arr)?;
            let this = ops::super_call(vm, fi, &args)?;
            vm.stack.push(this);
        }
        Op::SuperCallEnv { argc, depth, slot } => {
            let at = vm.stack.len() - argc as usize;
            let args = vm.stack.split_off(at);
            let this = ops::super_call_env(vm, fi, depth, slot, &args)?;
            vm.stack.push(this);
        }
        Op::SuperCallSpreadEnv { depth, slot } => {
            let arr = pop(vm);
            let args = ops::array_elements(vm, arr)?;
            let this = ops::super_call_env(vm, fi, depth, slot, &args)?;
            vm.stack.push(this);
        }
        Op::ThisFromEnv { depth, slot } => {
            let e = env_at(vm, vm.frames[fi].env, depth);
            let v = e.and_then(|e| vm.heap.env(e).slots.get(slot as usize).copied()).unwrap_or_default();
            if v.is_empty() {
                return Err(vm.reference_error(
                    "Must call super constructor in derived class before accessing 'this' or returning from derived constructor",
                ));
            }
            vm.stack.push(v);
        }
        Op::SuperBase => {
            let v = ops::super_base(vm, fi)?;
            vm.stack.push(v);
        }
        Op::GetSuper => {
            let key = pop(vm);
            let base = pop(vm);
            let this = ops::current_this(vm, fi)?;
            let v = ops::get_super(vm, base, key, this)?;
            vm.stack.push(v);
        }
        Op::SetSuper { strict } => {
            let v = pop(vm);
            let key = pop(vm);
            let base = pop(vm);
            let this = ops::current_this(vm, fi)?;
            ops::set_super(vm, base, key, v, this, strict)?;
            vm.stack.push(v);
        }
        Op::Return => {
            let v = pop(vm);
            return do_return(vm, v);
        }
        Op::This => {
            let t = vm.frames[fi].this;
            vm.stack.push(t);
        }
        Op::Callee => {
            let f = vm.frames[fi].callee;
            vm.stack.push(f);
        }
        Op::ThisChecked => {
            let t = ops::current_this(vm, fi)?;
            vm.stack.push(t);
        }
        Op::NewTarget => {
            let t = vm.frames[fi].new_target;
            vm.stack.push(t);
        }
        Op::ImportMeta => {
            let m = crate::compiler::module::import_meta(vm, code_id);
            vm.stack.push(m);
        }
        Op::DynamicImport => {
            let options = pop(vm);
            let spec = pop(vm);
            let p = crate::compiler::module::dynamic_import(vm, code_id, spec, options)?;
            vm.stack.push(p);
        }
        Op::DynamicImportPhase(phase) => {
            let options = pop(vm);
            let spec = pop(vm);
            let p = crate::module::dynamic::dynamic_import_phase(vm, code_id, spec, options, phase)?;
            vm.stack.push(p);
        }
        Op::GetImport(cell) => {
            let v = crate::module::get_import(vm, cell)?;
            vm.stack.push(v);
        }
        Op::CreateArguments(mapped) => {
            let a = ops::create_arguments(vm, fi, mapped == 1);
            vm.stack.push(a);
        }
        Op::CreateRest(from) => {
            let a = ops::create_rest(vm, fi, from);
            vm.stack.push(a);
        }
        Op::Add => {
            let b = pop(vm);
            let a = pop(vm);
            let r = operators::add(vm, a, b)?;
            vm.stack.push(r);
        }
        Op::Sub => binary(vm, Arith::Sub)?,
        Op::Mul => binary(vm, Arith::Mul)?,
        Op::Div => binary(vm, Arith::Div)?,
        Op::Mod => binary(vm, Arith::Mod)?,
        Op::Exp => binary(vm, Arith::Exp)?,
        Op::BitAnd => binary(vm, Arith::BitAnd)?,
        Op::BitOr => binary(vm, Arith::BitOr)?,
        Op::BitXor => binary(vm, Arith::BitXor)?,
        Op::Shl => binary(vm, Arith::Shl)?,
        Op::Sar => binary(vm, Arith::Sar)?,
        Op::Shr => binary(vm, Arith::Shr)?,
        Op::AddInt(k) => {
            let a = pop(vm);
            let r = operators::add(vm, a, Value::int(k))?;
            vm.stack.push(r);
        }
        Op::SubInt(k) => binary_int(vm, Arith::Sub, k)?,
        Op::MulInt(k) => binary_int(vm, Arith::Mul, k)?,
        Op::BitAndInt(k) => binary_int(vm, Arith::BitAnd, k)?,
        Op::BitOrInt(k) => binary_int(vm, Arith::BitOr, k)?,
        Op::BitXorInt(k) => binary_int(vm, Arith::BitXor, k)?,
        Op::ShlInt(k) => binary_int(vm, Arith::Shl, k)?,
        Op::SarInt(k) => binary_int(vm, Arith::Sar, k)?,
        Op::ShrInt(k) => binary_int(vm, Arith::Shr, k)?,
        Op::Neg => {
            let v = pop(vm);
            let r = ops::negate(vm, v)?;
            vm.stack.push(r);
        }
        Op::ToNumber => {
            let v = pop(vm);
            let n = crate::runtime::convert::to_number(vm, v)?;
            vm.stack.push(Value::number(n));
        }
        Op::ToNumeric => {
            let v = pop(vm);
            let n = to_numeric(vm, v)?;
            vm.stack.push(n);
        }
        Op::Not => {
            let v = pop(vm);
            let b = to_boolean(vm, v);
            vm.stack.push(Value::bool(!b));
        }
        Op::BitNot => {
            let v = pop(vm);
            let r = ops::bit_not(vm, v)?;
            vm.stack.push(r);
        }
        Op::Inc => {
            let v = pop(vm);
            let r = ops::increment(vm, v, 1)?;
            vm.stack.push(r);
        }
        Op::Dec => {
            let v = pop(vm);
            let r = ops::increment(vm, v, -1)?;
            vm.stack.push(r);
        }
        Op::IncLocal(r) => {
            update_local(vm, fi, r, 1)?;
        }
        Op::DecLocal(r) => {
            update_local(vm, fi, r, -1)?;
        }
        Op::PostIncLocal(r) => {
            let old = update_local(vm, fi, r, 1)?;
            vm.stack.push(old);
        }
        Op::PostDecLocal(r) => {
            let old = update_local(vm, fi, r, -1)?;
            vm.stack.push(old);
        }
        Op::TypeOf => {
            let v = pop(vm);
            let t = operators::type_of(vm, v);
            let s = vm.str(t);
            vm.stack.push(s);
        }
        Op::Eq => push_comparison(vm, Cmp::Eq)?,
        Op::Ne => push_comparison(vm, Cmp::Ne)?,
        Op::StrictEq => push_comparison(vm, Cmp::StrictEq)?,
        Op::StrictNe => push_comparison(vm, Cmp::StrictNe)?,
        Op::Lt => push_comparison(vm, Cmp::Lt)?,
        Op::Gt => push_comparison(vm, Cmp::Gt)?,
        Op::Le => push_comparison(vm, Cmp::Le)?,
        Op::Ge => push_comparison(vm, Cmp::Ge)?,
        Op::JumpUnlessLt(t) => jump_unless(vm, fi, Cmp::Lt, t)?,
        Op::JumpUnlessLe(t) => jump_unless(vm, fi, Cmp::Le, t)?,
        Op::JumpUnlessGt(t) => jump_unless(vm, fi, Cmp::Gt, t)?,
        Op::JumpUnlessGe(t) => jump_unless(vm, fi, Cmp::Ge, t)?,
        Op::JumpUnlessEq(t) => jump_unless(vm, fi, Cmp::Eq, t)?,
        Op::JumpUnlessNe(t) => jump_unless(vm, fi, Cmp::Ne, t)?,
        Op::JumpUnlessStrictEq(t) => jump_unless(vm, fi, Cmp::StrictEq, t)?,
        Op::JumpUnlessStrictNe(t) => jump_unless(vm, fi, Cmp::StrictNe, t)?,
        Op::Jump(t) => vm.frames[fi].pc = t,
        Op::JumpIfFalse(t) => {
            let v = pop(vm);
            if !to_boolean(vm, v) {
                vm.frames[fi].pc = t;
            }
        }
        Op::JumpIfTrue(t) => {
            let v = pop(vm);
            if to_boolean(vm, v) {
                vm.frames[fi].pc = t;
            }
        }
        Op::JumpIfFalseKeep(t) => {
            if !to_boolean(vm, top(vm)) {
                vm.frames[fi].pc = t;
            } else {
                vm.stack.pop();
            }
        }
        Op::JumpIfTrueKeep(t) => {
            if to_boolean(vm, top(vm)) {
                vm.frames[fi].pc = t;
            } else {
                vm.stack.pop();
            }
        }
        Op::JumpIfNotNullishKeep(t) => {
            if !top(vm).is_nullish() {
                vm.frames[fi].pc = t;
            } else {
                vm.stack.pop();
            }
        }
        Op::JumpIfNullishToUndefined(t) => {
            if top(vm).is_nullish() {
                vm.stack.pop();
                vm.stack.push(Value::UNDEFINED);
                vm.frames[fi].pc = t;
            }
        }
        Op::JumpIfNotUndefined(t) => {
            if !pop(vm).is_undefined() {
                vm.frames[fi].pc = t;
            }
        }
        Op::Throw => {
            let v = pop(vm);
            return Err(Throw::Value(v));
        }
        Op::ThrowError { kind, msg } => {
            let m = vm.heap.code(code_id).constants.get(msg as usize).copied().unwrap_or_default();
            let text = crate::runtime::convert::to_rust_string(vm, m)?;
            let kind = match kind {
                0 => ErrorKind::TypeError,
                1 => ErrorKind::ReferenceError,
                2 => ErrorKind::SyntaxError,
                _ => ErrorKind::RangeError,
            };
            return Err(vm.throw(kind, text));
        }
        Op::GetIterator => {
            let v = pop(vm);
            let record = get_iterator(vm, v, IteratorKind::Sync)?;
            vm.stack.push(record.iterator);
            vm.stack.push(record.next_method);
        }
        Op::GetAsyncIterator => {
            let v = pop(vm);
            let record = get_iterator(vm, v, IteratorKind::Async)?;
            vm.stack.push(record.iterator);
            vm.stack.push(record.next_method);
        }
        Op::IteratorStep(t) => {
            let n = vm.stack.len();
            let (it, next) = (vm.stack[n - 2], vm.stack[n - 1]);
            match iterator_step(vm, &IteratorRecord::new(it, next))? {
                Some(v) => vm.stack.push(v),
                None => vm.frames[fi].pc = t,
            }
        }
        Op::IteratorNextRaw => {
            let n = vm.stack.len();
            let (it, next) = (vm.stack[n - 2], vm.stack[n - 1]);
            let r = crate::runtime::call::call(vm, next, it, &[])?;
            vm.stack.push(r);
        }
        // The closing ops leave their operands on the stack (a root) while `return` runs,
        // which may collect: the exception being propagated must outlive it.
        Op::IteratorClose => {
            let it = vm.stack[vm.stack.len() - 2];
            iterator_close_normal(vm, it)?;
            vm.stack.truncate(vm.stack.len() - 2);
        }
        Op::IteratorCloseQuiet => {
            let n = vm.stack.len();
            let (it, exc) = (vm.stack[n - 3], vm.stack[n - 1]);
            iterator_close_quiet(vm, it)?;
            vm.stack.truncate(n - 3);
            vm.stack.push(exc);
        }
        Op::AsyncIteratorClose => {
            let it = vm.stack[vm.stack.len() - 2];
            let (result, called) =
                match crate::runtime::property::get_method(vm, it, PropertyKey::Atom(crate::atoms::atom::return_))? {
                    Some(r) => (crate::runtime::call::call(vm, r, it, &[])?, true),
                    None => (Value::UNDEFINED, false),
                };
            vm.stack.truncate(vm.stack.len() - 2);
            vm.stack.push(result);
            vm.stack.push(Value::bool(called));
        }
        Op::AsyncIteratorCloseQuiet => {
            let n = vm.stack.len();
            let (it, exc) = (vm.stack[n - 3], vm.stack[n - 1]);
            let (result, called) = async_iterator_close_quiet(vm, it)?;
            vm.stack.truncate(n - 3);
            vm.stack.push(exc);
            vm.stack.push(result);
            vm.stack.push(Value::bool(called));
        }
        Op::CheckIteratorResult => {
            if !vm.stack.last().is_some_and(|v| v.is_object()) {
                return Err(vm.type_error("Iterator result is not an object"));
            }
        }
        Op::ForInStart => {
            let v = pop(vm);
            let it = ops::for_in_start(vm, v)?;
            vm.stack.push(it);
        }
        Op::ForInNext(t) => {
            let it = top(vm);
            match ops::for_in_next(vm, it)? {
                Some(k) => vm.stack.push(k),
                None => vm.frames[fi].pc = t,
            }
        }
        Op::GeneratorStart => return generator::generator_start(vm),
        Op::Yield => return generator::yield_value(vm),
        Op::ResumeCheck(t) => {
            let mode = pop(vm);
            if mode == Value::int(1) {
                let v = pop(vm);
                return Err(Throw::Value(v));
            }
            if mode == Value::int(2) {
                vm.frames[fi].pc = t;
            }
        }
        Op::Await => return generator::await_value(vm),
        Op::DelegateStep => generator::delegate_step(vm)?,
        Op::CreateClass { code, derived, name } => ops::create_class(vm, fi, code_id, code, derived, name)?,
        Op::SetClassFields => {
            let fields = pop(vm);
            let ctor = top(vm);
            if let Some(c) = ctor.as_object() {
                if let Class::Function(cl) = &mut vm.heap.obj_mut(c).class {
                    cl.fields = fields;
                }
            }
        }
        Op::Decorate { kind, flags } => {
            // The verifier proved seven operands (the opcode table's pops); never index past them.
            let at = vm.stack.len().saturating_sub(7);
            let mut o: Vec<Value> = vm.stack.split_off(at);
            o.resize(7, Value::UNDEFINED);
            let d = crate::builtins::decorators::Decoration {
                kind: crate::builtins::decorators::DecoratorKind::from_u8(kind),
                flags,
                target: o[0],
                key: o[1],
                value: o[2],
                decorators: o[3],
                metadata: o[4],
                extras: o[5],
                inits: o[6],
            };
            let r = crate::builtins::decorators::decorate(vm, d)?;
            vm.stack.push(r);
        }
        Op::RunInitializers(with_value) => {
            let value = if with_value != 0 { Some(pop(vm)) } else { None };
            let list = pop(vm);
            let this = pop(vm);
            let r = crate::builtins::decorators::run_initializers(vm, this, list, value)?;
            vm.stack.push(r);
        }
        Op::NewMetadata => {
            let ctor = pop(vm);
            let m = crate::builtins::decorators::new_metadata(vm, ctor)?;
            vm.stack.push(m);
        }
        Op::DefineMetadata => {
            let metadata = pop(vm);
            let ctor = pop(vm);
            crate::builtins::decorators::define_metadata(vm, ctor, metadata)?;
        }
        Op::TemplateObject(i) => {
            let t = ops::template_object(vm, code_id, i)?;
            vm.stack.push(t);
        }
        Op::RegExpLiteral(i) => {
            let r = ops::regexp_literal(vm, code_id, i)?;
            vm.stack.push(r);
        }
        Op::Nop => {}
        Op::DisposeResources => {
            let s = pop(vm);
            ops::dispose_resources(vm, s)?;
        }
        Op::NewDisposableStack => {
            let s = crate::builtins::disposable::new_disposable_stack(vm);
            vm.stack.push(s);
        }
        Op::DisposeResourcesThrow => {
            let exc = pop(vm);
            let s = pop(vm);
            crate::builtins::disposable::dispose_resources(vm, s, Some(exc))?;
            return Err(Throw::Value(exc));
        }
        Op::DisposeResourcesAsync(with_exc) => {
            let s = pop(vm);
            let exc = if with_exc == 1 { Some(pop(vm)) } else { None };
            let p = crate::builtins::disposable::dispose_resources_async(vm, s, exc)?;
            vm.stack.push(p);
        }
        Op::AddDisposable(hint) => {
            let v = pop(vm);
            let s = top(vm);
            ops::add_disposable(vm, s, v, hint)?;
        }
    }
    Ok(Flow::Next)
}

#[inline]
/// `a → a op k`: the literal takes the right operand's place.
fn binary_int(vm: &mut Vm, op: Arith, k: i32) -> JsResult<()> {
    vm.stack.push(Value::int(k));
    binary(vm, op)
}

fn binary(vm: &mut Vm, op: Arith) -> JsResult<()> {
    let b = pop(vm);
    let a = pop(vm);
    // Fast path: int32 operands for the common arithmetic.
    if let (Some(x), Some(y)) = (a.as_int(), b.as_int()) {
        let r = match op {
            Arith::Sub => x.checked_sub(y).map(Value::int),
            Arith::Mul => x.checked_mul(y).filter(|&r| r != 0 || (x >= 0 && y >= 0)).map(Value::int),
            Arith::BitAnd => Some(Value::int(x & y)),
            Arith::BitOr => Some(Value::int(x | y)),
            Arith::BitXor => Some(Value::int(x ^ y)),
            Arith::Shl => Some(Value::int(x.wrapping_shl(y as u32 & 31))),
            Arith::Sar => Some(Value::int(x >> (y as u32 & 31))),
            _ => None,
        };
        if let Some(r) = r {
            vm.stack.push(r);
            return Ok(());
        }
    }
    let r = if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        operators::number_arith(op, x, y)
    } else {
        operators::arith(vm, op, a, b)?
    };
    vm.stack.push(r);
    Ok(())
}

/// A comparison operator: the ops that push its result and the `JumpUnless…` ops that
/// branch on it share one evaluation.
#[derive(Clone, Copy)]
enum Cmp {
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    StrictEq,
    StrictNe,
}

/// `a b →`: the comparison's result.
fn comparison(vm: &mut Vm, cmp: Cmp) -> JsResult<bool> {
    let b = pop(vm);
    let a = pop(vm);
    // (swap, negate): `a > b` is `b < a`, `a <= b` is `!(b < a)`, `a >= b` is `!(a < b)`,
    // where an undefined result (NaN) is false either way.
    let (swap, negate) = match cmp {
        Cmp::Eq => return operators::loose_equals(vm, a, b),
        Cmp::Ne => return operators::loose_equals(vm, a, b).map(|r| !r),
        Cmp::StrictEq => return Ok(operators::strict_equals(vm, a, b)),
        Cmp::StrictNe => return Ok(!operators::strict_equals(vm, a, b)),
        Cmp::Lt => (false, false),
        Cmp::Gt => (true, false),
        Cmp::Le => (true, true),
        Cmp::Ge => (false, true),
    };
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Ok(match cmp {
            Cmp::Lt => x < y,
            Cmp::Gt => x > y,
            Cmp::Le => x <= y,
            _ => x >= y,
        });
    }
    let r = if swap { operators::less_than(vm, b, a, false)? } else { operators::less_than(vm, a, b, true)? };
    Ok(match r {
        None => false,
        Some(r) => r != negate,
    })
}

fn push_comparison(vm: &mut Vm, cmp: Cmp) -> JsResult<()> {
    let r = comparison(vm, cmp)?;
    vm.stack.push(Value::bool(r));
    Ok(())
}

fn jump_unless(vm: &mut Vm, fi: usize, cmp: Cmp, target: u32) -> JsResult<()> {
    if !comparison(vm, cmp)? {
        vm.frames[fi].pc = target;
    }
    Ok(())
}

/// `reg = ToNumeric(reg) + delta`; returns the ToNumeric value (a postfix update's result).
fn update_local(vm: &mut Vm, fi: usize, reg: u32, delta: i32) -> JsResult<Value> {
    let slot = (vm.frames[fi].base + reg) as usize;
    let old = to_numeric(vm, vm.stack[slot])?;
    let new = ops::increment(vm, old, delta)?;
    vm.stack[slot] = new;
    Ok(old)
}

/// Replaces the receiver on top of the stack by `callee` and pushes the receiver back:
/// `obj → callee obj`, the order `Call` takes.
fn under_receiver(vm: &mut Vm, callee: Value, receiver: Value) {
    *top_mut(vm) = callee;
    vm.stack.push(receiver);
}

/// `callee this a1..an → result`: push a frame for closures, run natives in place.
/// A call that is a direct eval when its callee is this realm's %eval%.
fn op_call_eval(vm: &mut Vm, argc: u32) -> JsResult<Flow> {
    let n = vm.stack.len();
    let callee = vm.stack[n - argc as usize - 2];
    if callee != Value::object(vm.realm.eval_function) {
        return op_call(vm, argc);
    }
    let arg0 = if argc > 0 { vm.stack[n - argc as usize] } else { Value::UNDEFINED };
    vm.stack.truncate(n - argc as usize - 2);
    let r = crate::compiler::eval::direct_eval(vm, arg0)?;
    vm.stack.push(r);
    Ok(Flow::Next)
}

fn op_call(vm: &mut Vm, argc: u32) -> JsResult<Flow> {
    let n = vm.stack.len();
    let callee = vm.stack[n - argc as usize - 2];
    let Some(f) = callee.as_object() else {
        return Err(ops::not_callable_error(vm, callee));
    };
    match &vm.heap.obj(f).class {
        Class::Function(_) => {
            match generator::kind_for_call(vm, f) {
                Some(k) => generator::enter_special(vm, f, argc, k, false)?,
                None => calls::enter_closure(vm, f, argc, Value::UNDEFINED, FrameKind::Normal, false)?,
            }
            Ok(Flow::Next)
        }
        Class::Native(_) | Class::Bound(_) | Class::Proxy(_) => {
            let this = vm.stack[n - argc as usize - 1];
            let args: smallvec::SmallVec<[Value; 8]> = vm.stack[n - argc as usize..].iter().copied().collect();
            let r = crate::runtime::call::call(vm, callee, this, &args);
            vm.stack.truncate(n - argc as usize - 2);
            vm.stack.push(r?);
            Ok(Flow::Next)
        }
        _ => Err(ops::not_callable_error(vm, callee)),
    }
}

/// `ctor a1..an → object`.
fn op_new(vm: &mut Vm, argc: u32) -> JsResult<Flow> {
    let n = vm.stack.len();
    let ctor = vm.stack[n - argc as usize - 1];
    if !crate::runtime::call::is_constructor(vm, ctor) {
        return Err(ops::not_constructor_error(vm, ctor));
    }
    let Some(f) = ctor.as_object() else { return Err(ops::not_constructor_error(vm, ctor)) };
    if let Class::Function(_) = vm.heap.obj(f).class {
        let this = if calls::is_derived(vm, f) { Value::EMPTY } else { calls::create_this(vm, ctor)? };
        vm.stack.insert(n - argc as usize, this);
        calls::enter_closure(vm, f, argc, ctor, FrameKind::Construct, false)?;
        if !this.is_empty() {
            calls::run_field_init(vm, f, this)?;
        }
        return Ok(Flow::Next);
    }
    let args: smallvec::SmallVec<[Value; 8]> = vm.stack[n - argc as usize..].iter().copied().collect();
    let r = crate::runtime::call::construct(vm, ctor, &args, None);
    vm.stack.truncate(n - argc as usize - 1);
    vm.stack.push(r?);
    Ok(Flow::Next)
}

/// Run a compiled script, eval or module body as a new `stop_here` frame.
pub fn run_code(
    vm: &mut Vm,
    code: crate::heap::CodeId,
    env: Option<EnvId>,
    this: Value,
    callee: Value,
    new_target: Value,
) -> JsResult<Value> {
    if vm.frames.len() >= vm.options.max_stack_depth {
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    let c = vm.heap.code(code);
    let (registers, env_slots, realm) = (c.register_count, c.env_slots, c.realm);
    let outer_realm = vm.current_realm;
    vm.switch_realm(realm);
    vm.stack.push(callee);
    vm.stack.push(this);
    let base = vm.stack.len() as u32;
    vm.stack.resize((base + registers) as usize, Value::UNDEFINED);
    let env = if env_slots > 0 {
        Some(vm.heap.alloc_env(crate::heap::object::Env {
            parent: env,
            slots: vec![Value::EMPTY; env_slots as usize],
            object: None,
            eval_vars: false,
        }))
    } else {
        env
    };
    vm.frames.push(Frame {
        code,
        pc: 0,
        base,
        callee,
        this,
        new_target,
        env,
        env_depth: 0,
        argc: 0,
        extra_args: Vec::new(),
        kind: FrameKind::Normal,
        stop_here: true,
        outer_realm,
    });
    run(vm)
}
