//! Generators, async functions and async generators: suspending a frame into a heap object
//! and resuming it. A suspended frame is plain data (`SavedFrame`), so an awaiting async
//! function survives an image round-trip.

use crate::atoms::{atom, PropertyKey};
use crate::bytecode::FunctionKind;
use crate::error::{JsResult, Throw};
use crate::heap::frame::{FrameKind, SavedFrame};
use crate::heap::object::{AsyncGeneratorData, Class, GeneratorData, GeneratorState, Object};
use crate::interp::{calls, pop_frame, run, unwind, Flow};
use crate::runtime::iterator::{create_iter_result_object, IteratorRecord};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// How a closure call must be entered.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Special {
    Generator,
    Async,
    AsyncGenerator,
}

pub fn kind_for_call(vm: &Vm, f: ObjectId) -> Option<Special> {
    let Class::Function(c) = &vm.heap.obj(f).class else { return None };
    match vm.heap.code(c.code).kind {
        FunctionKind::Generator => Some(Special::Generator),
        FunctionKind::AsyncGenerator => Some(Special::AsyncGenerator),
        FunctionKind::Async | FunctionKind::AsyncArrow => Some(Special::Async),
        _ => None,
    }
}

/// Enter a generator, async or async-generator function.
pub fn enter_special(vm: &mut Vm, f: ObjectId, argc: u32, kind: Special, stop_here: bool) -> JsResult<()> {
    match kind {
        Special::Generator | Special::AsyncGenerator => {
            calls::enter_closure(vm, f, argc, Value::UNDEFINED, FrameKind::Normal, stop_here)
        }
        Special::Async => {
            let promise = crate::builtins::promise::new_promise(vm);
            let state = vm.heap.alloc_object(Object::new(
                None,
                Class::AsyncFunctionState(Box::new(GeneratorData { state: GeneratorState::Executing, frame: None })),
            ));
            match calls::enter_closure(vm, f, argc, Value::UNDEFINED, FrameKind::Async { state, promise }, stop_here) {
                Ok(()) => Ok(()),
                Err(Throw::Value(e)) => {
                    // Errors before the body (stack overflow) reject the promise.
                    crate::builtins::promise::reject_promise(vm, promise, e);
                    if stop_here {
                        Err(Throw::Value(e))
                    } else {
                        vm.stack.push(Value::object(promise));
                        Ok(())
                    }
                }
                Err(t) => Err(t),
            }
        }
    }
}

/// Detach the top frame into a `SavedFrame`.
fn save_top_frame(vm: &mut Vm) -> Option<SavedFrame> {
    let f = vm.frames.last()?.clone();
    let stack = vm.stack[f.base as usize..].to_vec();
    pop_frame(vm);
    Some(SavedFrame { frame: f, stack })
}

/// Put a saved frame back on the stack as a `stop_here` frame.
fn restore_frame(vm: &mut Vm, mut saved: SavedFrame) {
    vm.stack.push(saved.frame.callee);
    vm.stack.push(saved.frame.this);
    saved.frame.base = vm.stack.len() as u32;
    saved.frame.stop_here = true;
    saved.frame.outer_realm = vm.current_realm;
    let realm = vm.heap.code(saved.frame.code).realm;
    vm.switch_realm(realm);
    vm.stack.extend_from_slice(&saved.stack);
    vm.frames.push(saved.frame);
}

/// `GeneratorStart`: parameters are bound; create the generator object and suspend.
pub(crate) fn generator_start(vm: &mut Vm) -> JsResult<Flow> {
    let Some(frame) = vm.frames.last() else { return Ok(Flow::Exit(Value::UNDEFINED)) };
    let callee = frame.callee;
    let is_async = vm.heap.code(frame.code).kind == FunctionKind::AsyncGenerator;
    let default = if is_async { vm.realm.async_generator_prototype } else { vm.realm.generator_prototype };
    let proto = calls::prototype_of_function(vm, callee, default)?;
    let class = if is_async {
        Class::AsyncGenerator(Box::new(AsyncGeneratorData {
            state: GeneratorState::SuspendedStart,
            frame: None,
            queue: Vec::new(),
            awaiting_return: false,
        }))
    } else {
        Class::Generator(Box::new(GeneratorData { state: GeneratorState::SuspendedStart, frame: None }))
    };
    let g = vm.heap.alloc_object(Object::new(Some(proto), class));
    let stop_here = vm.frames.last().is_some_and(|f| f.stop_here);
    let Some(mut saved) = save_top_frame(vm) else { return Ok(Flow::Exit(Value::UNDEFINED)) };
    saved.frame.kind = if is_async { FrameKind::AsyncGenerator(g) } else { FrameKind::Generator(g) };
    match &mut vm.heap.obj_mut(g).class {
        Class::Generator(d) => d.frame = Some(saved),
        Class::AsyncGenerator(d) => d.frame = Some(saved),
        _ => {}
    }
    if stop_here {
        return Ok(Flow::Exit(Value::object(g)));
    }
    vm.stack.push(Value::object(g));
    Ok(Flow::Next)
}

/// `Yield`: suspend the generator frame, handing `value` to the resumer.
pub(crate) fn yield_value(vm: &mut Vm) -> JsResult<Flow> {
    let value = vm.stack.pop().unwrap_or_default();
    let kind = vm.frames.last().map(|f| f.kind);
    match kind {
        Some(FrameKind::Generator(g)) => {
            let Some(saved) = save_top_frame(vm) else { return Ok(Flow::Exit(value)) };
            if let Class::Generator(d) = &mut vm.heap.obj_mut(g).class {
                d.frame = Some(saved);
                d.state = GeneratorState::SuspendedYield;
            }
            Ok(Flow::Exit(value))
        }
        Some(FrameKind::AsyncGenerator(g)) => async_generator_yield(vm, g, value),
        _ => Err(vm.syntax_error("yield outside a generator")),
    }
}

pub fn mark_completed(vm: &mut Vm, g: ObjectId) {
    match &mut vm.heap.obj_mut(g).class {
        Class::Generator(d) => {
            d.state = GeneratorState::Completed;
            d.frame = None;
        }
        Class::AsyncGenerator(d) => {
            d.state = GeneratorState::Completed;
            d.frame = None;
        }
        _ => {}
    }
}

/// Resume a generator: mode 0 next, 1 throw, 2 return. Returns the iterator result.
pub fn resume_generator(vm: &mut Vm, g: ObjectId, mode: u8, value: Value) -> JsResult<Value> {
    let (state, frame) = match &mut vm.heap.obj_mut(g).class {
        Class::Generator(d) => (d.state, d.frame.take()),
        _ => return Err(vm.type_error("next method called on incompatible receiver")),
    };
    match state {
        GeneratorState::Executing => {
            if let Class::Generator(d) = &mut vm.heap.obj_mut(g).class {
                d.frame = frame;
            }
            return Err(vm.type_error("Generator is already running"));
        }
        GeneratorState::Completed => {
            return match mode {
                1 => Err(Throw::Value(value)),
                2 => Ok(create_iter_result_object(vm, value, true)),
                _ => Ok(create_iter_result_object(vm, Value::UNDEFINED, true)),
            };
        }
        GeneratorState::SuspendedStart if mode != 0 => {
            mark_completed(vm, g);
            return if mode == 1 { Err(Throw::Value(value)) } else { Ok(create_iter_result_object(vm, value, true)) };
        }
        _ => {}
    }
    let Some(saved) = frame else { return Ok(create_iter_result_object(vm, Value::UNDEFINED, true)) };
    if let Class::Generator(d) = &mut vm.heap.obj_mut(g).class {
        d.state = GeneratorState::Executing;
    }
    restore_frame(vm, saved);
    let result = if state == GeneratorState::SuspendedStart {
        run(vm)
    } else {
        vm.stack.push(value);
        vm.stack.push(Value::int(mode as i32));
        run(vm)
    };
    let done = match &vm.heap.obj(g).class {
        Class::Generator(d) => d.state == GeneratorState::Completed,
        _ => true,
    };
    match result {
        Ok(v) => {
            if vm.yield_raw {
                vm.yield_raw = false;
                return Ok(v);
            }
            Ok(create_iter_result_object(vm, v, done))
        }
        Err(e) => {
            mark_completed(vm, g);
            Err(e)
        }
    }
}

/// `Await`: suspend the async frame until the awaited promise settles.
pub(crate) fn await_value(vm: &mut Vm) -> JsResult<Flow> {
    let value = vm.stack.pop().unwrap_or_default();
    let Some(frame) = vm.frames.last() else { return Ok(Flow::Exit(Value::UNDEFINED)) };
    let (state, result_for_caller) = match frame.kind {
        FrameKind::Async { state, promise } => (state, Value::object(promise)),
        FrameKind::AsyncGenerator(g) => (g, Value::UNDEFINED),
        _ => return Err(vm.syntax_error("await is only valid in async functions")),
    };
    let stop_here = frame.stop_here;
    let promise = crate::builtins::promise::promise_resolve(vm, value)?;
    let Some(saved) = save_top_frame(vm) else { return Ok(Flow::Exit(Value::UNDEFINED)) };
    match &mut vm.heap.obj_mut(state).class {
        Class::AsyncFunctionState(d) => d.frame = Some(saved),
        Class::AsyncGenerator(d) => d.frame = Some(saved),
        _ => {}
    }
    let on_ful = crate::builtins::make_internal(vm, "%AsyncResume.fulfilled", 1, vec![Value::object(state)]);
    let on_rej = crate::builtins::make_internal(vm, "%AsyncResume.rejected", 1, vec![Value::object(state)]);
    crate::builtins::promise::perform_then_internal(vm, promise, Value::object(on_ful), Value::object(on_rej));
    if stop_here {
        return Ok(Flow::Exit(result_for_caller));
    }
    vm.stack.push(result_for_caller);
    Ok(Flow::Next)
}

/// Continue an async function (or async generator) after its awaited promise settled.
pub fn resume_async(vm: &mut Vm, state: ObjectId, value: Value, is_throw: bool) -> JsResult<()> {
    let saved = match &mut vm.heap.obj_mut(state).class {
        Class::AsyncFunctionState(d) => d.frame.take(),
        Class::AsyncGenerator(d) => d.frame.take(),
        _ => None,
    };
    let Some(saved) = saved else { return Ok(()) };
    restore_frame(vm, saved);
    let r = if is_throw {
        match unwind(vm, Throw::Value(value)) {
            Ok(None) => run(vm),
            Ok(Some(v)) => Ok(v),
            Err(e) => Err(e),
        }
    } else {
        vm.stack.push(value);
        run(vm)
    };
    match r {
        Ok(_) => Ok(()),
        Err(Throw::Limit(l)) => Err(Throw::Limit(l)),
        // The frame's own promise absorbed JS errors; anything else escaping is a bug in
        // the async machinery, surfaced rather than swallowed.
        Err(e) => Err(e),
    }
}

/// Settle an async function's promise with its completion.
pub fn finish_async(vm: &mut Vm, _state: ObjectId, promise: ObjectId, result: Result<Value, Value>) -> JsResult<()> {
    match result {
        Ok(v) => crate::builtins::promise::resolve_promise(vm, promise, v),
        Err(e) => {
            crate::builtins::promise::reject_promise(vm, promise, e);
            Ok(())
        }
    }
}

// ---- async generators (§27.6)

/// AsyncGeneratorYield: settle the head request and suspend (or continue with the next one).
fn async_generator_yield(vm: &mut Vm, g: ObjectId, value: Value) -> JsResult<Flow> {
    let Some(saved) = save_top_frame(vm) else { return Ok(Flow::Exit(Value::UNDEFINED)) };
    if let Class::AsyncGenerator(d) = &mut vm.heap.obj_mut(g).class {
        d.frame = Some(saved);
        d.state = GeneratorState::SuspendedYield;
    }
    async_generator_settle_head(vm, g, Ok(value), false)?;
    async_generator_resume_next(vm, g)?;
    Ok(Flow::Exit(Value::UNDEFINED))
}

/// The body finished (returned or threw).
pub fn async_generator_complete(vm: &mut Vm, g: ObjectId, result: Result<Value, Value>) -> JsResult<()> {
    mark_completed(vm, g);
    async_generator_settle_head(vm, g, result, true)?;
    async_generator_resume_next(vm, g)
}

/// Resolve or reject the promise of the oldest pending request.
fn async_generator_settle_head(vm: &mut Vm, g: ObjectId, result: Result<Value, Value>, done: bool) -> JsResult<()> {
    let head = match &mut vm.heap.obj_mut(g).class {
        Class::AsyncGenerator(d) if !d.queue.is_empty() => Some(d.queue.remove(0)),
        _ => None,
    };
    let Some((_, _, (promise, _, _))) = head else { return Ok(()) };
    let Some(p) = promise.as_object() else { return Ok(()) };
    match result {
        Ok(v) => {
            let r = create_iter_result_object(vm, v, done);
            crate::builtins::promise::resolve_promise(vm, p, r)
        }
        Err(e) => {
            crate::builtins::promise::reject_promise(vm, p, e);
            Ok(())
        }
    }
}

/// Enqueue a request (mode 0 next, 1 throw, 2 return) and return its promise.
pub fn async_generator_enqueue(vm: &mut Vm, g: Value, mode: u8, value: Value) -> JsResult<Value> {
    let promise = crate::builtins::promise::new_promise(vm);
    let pv = Value::object(promise);
    let Some(go) = g.as_object().filter(|&o| matches!(vm.heap.obj(o).class, Class::AsyncGenerator(_))) else {
        let e = vm.make_error(crate::error::ErrorKind::TypeError, "not an async generator");
        crate::builtins::promise::reject_promise(vm, promise, e);
        return Ok(pv);
    };
    let executing = match &mut vm.heap.obj_mut(go).class {
        Class::AsyncGenerator(d) => {
            d.queue.push((mode, value, (pv, Value::UNDEFINED, Value::UNDEFINED)));
            d.state == GeneratorState::Executing || d.awaiting_return
        }
        _ => true,
    };
    if !executing {
        async_generator_resume_next(vm, go)?;
    }
    Ok(pv)
}

/// AsyncGeneratorResumeNext: run the generator for the head request, if it can run.
fn async_generator_resume_next(vm: &mut Vm, g: ObjectId) -> JsResult<()> {
    loop {
        let (state, head) = match &vm.heap.obj(g).class {
            Class::AsyncGenerator(d) => {
                if d.awaiting_return || d.state == GeneratorState::Executing {
                    return Ok(());
                }
                (d.state, d.queue.first().map(|(m, v, _)| (*m, *v)))
            }
            _ => return Ok(()),
        };
        let Some((mode, value)) = head else { return Ok(()) };
        if state == GeneratorState::SuspendedStart && mode != 0 {
            mark_completed(vm, g);
            continue;
        }
        if state == GeneratorState::Completed {
            match mode {
                0 => async_generator_settle_head(vm, g, Ok(Value::UNDEFINED), true)?,
                1 => async_generator_settle_head(vm, g, Err(value), true)?,
                _ => {
                    // Await the return value, then resolve {value, done: true}.
                    if let Class::AsyncGenerator(d) = &mut vm.heap.obj_mut(g).class {
                        d.awaiting_return = true;
                    }
                    let p = match crate::builtins::promise::promise_resolve(vm, value) {
                        Ok(p) => p,
                        Err(Throw::Value(e)) => {
                            if let Class::AsyncGenerator(d) = &mut vm.heap.obj_mut(g).class {
                                d.awaiting_return = false;
                            }
                            async_generator_settle_head(vm, g, Err(e), true)?;
                            continue;
                        }
                        Err(t) => return Err(t),
                    };
                    let on_ful = crate::builtins::make_internal(
                        vm,
                        "%AsyncGeneratorReturn.fulfilled",
                        1,
                        vec![Value::object(g)],
                    );
                    let on_rej =
                        crate::builtins::make_internal(vm, "%AsyncGeneratorReturn.rejected", 1, vec![Value::object(g)]);
                    crate::builtins::promise::perform_then_internal(
                        vm,
                        p,
                        Value::object(on_ful),
                        Value::object(on_rej),
                    );
                    return Ok(());
                }
            }
            continue;
        }
        // Suspended: resume the frame with the request.
        let saved = match &mut vm.heap.obj_mut(g).class {
            Class::AsyncGenerator(d) => {
                d.state = GeneratorState::Executing;
                d.frame.take()
            }
            _ => None,
        };
        let Some(saved) = saved else { return Ok(()) };
        restore_frame(vm, saved);
        let r = if state == GeneratorState::SuspendedStart {
            run(vm)
        } else {
            vm.stack.push(value);
            vm.stack.push(Value::int(mode as i32));
            run(vm)
        };
        r?;
        return Ok(());
    }
}

/// Settlement of an awaited `return` on a completed async generator.
pub fn async_generator_return_settled(vm: &mut Vm, g: ObjectId, value: Value, is_throw: bool) -> JsResult<()> {
    if let Class::AsyncGenerator(d) = &mut vm.heap.obj_mut(g).class {
        d.awaiting_return = false;
    }
    let r = if is_throw { Err(value) } else { Ok(value) };
    async_generator_settle_head(vm, g, r, true)?;
    async_generator_resume_next(vm, g)
}

/// One step of `yield*`: `iterator next received mode → iterator next result`.
/// mode 0 next, 1 throw, 2 return. Result is the inner iterator result, or for a missing
/// `throw` method a TypeError after closing.
pub fn delegate_step(vm: &mut Vm) -> JsResult<()> {
    let mode = vm.stack.pop().unwrap_or_default().as_int().unwrap_or(0);
    let received = vm.stack.pop().unwrap_or_default();
    let n = vm.stack.len();
    let (it, next) = (vm.stack[n - 2], vm.stack[n - 1]);
    let result = match mode {
        1 => {
            let m = crate::runtime::property::get_method(vm, it, PropertyKey::Atom(atom::throw_))?;
            match m {
                Some(t) => crate::runtime::call::call(vm, t, it, &[received])?,
                None => {
                    crate::runtime::iterator::iterator_close_normal(vm, it)?;
                    return Err(vm.type_error("The iterator does not provide a 'throw' method"));
                }
            }
        }
        2 => {
            let m = crate::runtime::property::get_method(vm, it, PropertyKey::Atom(atom::return_))?;
            match m {
                Some(r) => crate::runtime::call::call(vm, r, it, &[received])?,
                None => {
                    // No return method: complete with a {value, done: true}-shaped marker.
                    let r = create_iter_result_object(vm, received, true);
                    vm.stack.push(r);
                    return Ok(());
                }
            }
        }
        _ => crate::runtime::call::call(vm, next, it, &[received])?,
    };
    if !result.is_object() {
        return Err(vm.type_error("Iterator result is not an object"));
    }
    vm.stack.push(result);
    Ok(())
}

/// CreateAsyncFromSyncIterator (§27.1.6.1).
pub fn create_async_from_sync_iterator(vm: &mut Vm, sync: IteratorRecord) -> JsResult<IteratorRecord> {
    let proto = vm.realm.async_from_sync_iterator_prototype;
    let state = Class::Internal(vec![sync.iterator, sync.next_method]);
    let o = vm.heap.alloc_object(Object::new(Some(proto), state));
    let next_fn = crate::runtime::property::get(vm, proto, PropertyKey::Atom(atom::next), Value::object(o))?;
    Ok(IteratorRecord::new(Value::object(o), next_fn))
}
