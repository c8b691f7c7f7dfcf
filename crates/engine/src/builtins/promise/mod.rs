//! Promise objects (ECMA-262 §27.2) and the promise job queue:
//! https://tc39.es/ecma262/#sec-promise-objects
//!
//! Jobs are plain data in `vm.jobs` ([`Job`]); [`run_jobs`] drains them in FIFO order. The
//! interpreter uses [`new_promise`], [`resolve_promise`], [`reject_promise`],
//! [`promise_resolve`] and [`perform_then_internal`] for async functions and `await`
//! (`await` passes the `%AsyncResume.*` natives defined here as reaction handlers).
//!
//! Closures of the spec (resolving functions, `Promise.all` element functions, `finally`
//! thunks) are internal natives whose state is in their captures; records the spec shares
//! between two closures (a resolving pair's [[AlreadyResolved]], `Promise.all`'s values and
//! remaining-elements count) are `Class::Internal` objects both capture.
//! HostPromiseRejectionTracker keeps `vm.pending_rejections`: a promise rejected with no
//! handler is pushed there, and removed when a handler is attached later.

mod combinators;

use crate::atoms::{atom, PropertyKey};
use crate::builtins::map::define_to_string_tag;
use crate::builtins::{arg, install, make_constructor, make_internal, make_native, NativeDef, NativeId};
use crate::error::{ErrorKind, JsResult, Throw};
use crate::heap::object::{Class, Object, PromiseData, PromiseState, Reaction, ReactionKind};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{call, construct, invoke, is_callable, is_constructor};
use crate::runtime::describe::{describe, Shown};
use crate::runtime::object::species_constructor;
use crate::runtime::property::{create_data_property_or_throw, get};
use crate::value::{Kind, ObjectId, Value};
use crate::vm::{Job, Vm};

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Promise", 1, constructor),
    native!("Promise.all", 1, combinators::all),
    native!("Promise.allSettled", 1, combinators::all_settled),
    native!("Promise.any", 1, combinators::any),
    native!("Promise.race", 1, combinators::race),
    native!("Promise.resolve", 1, resolve),
    native!("Promise.reject", 1, reject),
    native!("Promise.withResolvers", 0, with_resolvers),
    native!("Promise.try", 1, try_),
    native!("Promise.allKeyed", 1, combinators::all_keyed),
    native!("Promise.allSettledKeyed", 1, combinators::all_settled_keyed),
    native!("get Promise[Symbol.species]", 0, crate::builtins::map::species),
    native!("Promise.prototype.then", 2, then),
    native!("Promise.prototype.catch", 1, catch),
    native!("Promise.prototype.finally", 1, finally),
    native!("%Promise.resolveFunction", 1, resolve_function),
    native!("%Promise.rejectFunction", 1, reject_function),
    native!("%Promise.capabilityExecutor", 2, capability_executor),
    native!("%Promise.all.resolveElement", 1, combinators::all_resolve_element),
    native!("%Promise.allSettled.resolveElement", 1, combinators::all_settled_resolve_element),
    native!("%Promise.allSettled.rejectElement", 1, combinators::all_settled_reject_element),
    native!("%Promise.any.rejectElement", 1, combinators::any_reject_element),
    native!("%Promise.thenFinally", 1, then_finally),
    native!("%Promise.catchFinally", 1, catch_finally),
    native!("%Promise.valueThunk", 0, value_thunk),
    native!("%Promise.thrower", 0, thrower),
    native!("%AsyncResume.fulfilled", 1, async_resume_fulfilled),
    native!("%AsyncResume.rejected", 1, async_resume_rejected),
    native!("queueMicrotask", 1, queue_microtask),
];

pub(crate) fn init(vm: &mut Vm) {
    let proto = vm.realm.promise_prototype;
    let ctor = make_constructor(vm, "Promise", "Promise", proto);
    vm.realm.promise_constructor = ctor;
    install(vm, proto, "Promise.prototype", NATIVES);
    install(vm, ctor, "Promise", NATIVES);
    // 27.2.5.5 Promise.prototype [ %Symbol.toStringTag% ]
    define_to_string_tag(vm, proto, "Promise");

    // queueMicrotask (HTML; a Web IDL operation on the global: enumerable).
    if let Some(id) = NativeId::by_name("queueMicrotask") {
        let f = make_native(vm, "queueMicrotask", id, 1, false, Vec::new());
        let key = vm.key("queueMicrotask");
        let global = vm.global;
        vm.define_builtin(global, key, Value::object(f), PropFlags::DEFAULT);
    }
}

// ---- The interpreter's entry points

/// A new pending promise with %Promise.prototype%.
pub fn new_promise(vm: &mut Vm) -> ObjectId {
    let proto = vm.realm.promise_prototype;
    alloc_promise(vm, proto)
}

/// The resolve function's algorithm (§27.2.1.3.2 steps 7-16) on `promise`, thenables
/// included. The caller guarantees "already resolved" is false. Only resource limits throw.
pub fn resolve_promise(vm: &mut Vm, promise: ObjectId, resolution: Value) -> JsResult<()> {
    let mark = vm.roots.len();
    let r = resolve_promise_steps(vm, promise, resolution);
    vm.roots.truncate(mark);
    r
}

/// RejectPromise (§27.2.1.7). Does nothing if the promise is already settled.
pub fn reject_promise(vm: &mut Vm, promise: ObjectId, reason: Value) {
    // 1. Assert: The value of promise.[[PromiseState]] is pending.
    let Some((reactions, handled)) = settle(vm, promise, PromiseState::Rejected, reason) else {
        return;
    };
    // 7. If promise.[[PromiseIsHandled]] is false, perform HostPromiseRejectionTracker(promise, "reject").
    if !handled {
        vm.pending_rejections.push(Value::object(promise));
    }
    // 8. Perform TriggerPromiseReactions(reactions, reason).
    trigger_promise_reactions(vm, reactions, reason);
}

/// PromiseResolve(%Promise%, value) (§27.2.4.7.1).
pub fn promise_resolve(vm: &mut Vm, value: Value) -> JsResult<ObjectId> {
    let mark = vm.roots.len();
    let c = Value::object(vm.realm.promise_constructor);
    let r = promise_resolve_with(vm, c, value);
    vm.roots.truncate(mark);
    match r?.as_object() {
        Some(p) => Ok(p),
        None => Err(vm.type_error("PromiseResolve did not produce a promise")),
    }
}

/// PerformPromiseThen(promise, onFulfilled, onRejected) with no result capability
/// (§27.2.5.4.1), as `await` uses it.
pub fn perform_then_internal(vm: &mut Vm, promise: ObjectId, on_fulfilled: Value, on_rejected: Value) {
    perform_promise_then(vm, promise, on_fulfilled, on_rejected, None);
}

/// Run one job. A reaction handler's throw rejects the derived promise; a throw escaping
/// the job itself (a `queueMicrotask` callback, a throwing custom capability) is returned
/// for the embedder to report, as are resource limits.
pub fn run_job(vm: &mut Vm, job: Job) -> JsResult<()> {
    let mark = vm.roots.len();
    let r = match job {
        Job::Reaction { reaction, argument } => promise_reaction_job(vm, reaction, argument),
        Job::ResolveThenable { promise, thenable, then } => promise_resolve_thenable_job(vm, promise, thenable, then),
        Job::Callback { callback } => {
            vm.roots.push(callback);
            call(vm, callback, Value::UNDEFINED, &[]).map(drop)
        }
    };
    vm.roots.truncate(mark);
    r
}

/// Drain `vm.jobs` in FIFO order (jobs queued while running are run too). Stops at the first
/// job that throws, leaving the rest queued.
pub fn run_jobs(vm: &mut Vm) -> JsResult<()> {
    while let Some(job) = vm.jobs.pop_front() {
        run_job(vm, job)?;
    }
    Ok(())
}

/// IsPromise (§27.2.1.6).
pub fn is_promise(vm: &Vm, v: Value) -> bool {
    v.as_object().is_some_and(|o| matches!(vm.heap.obj(o).class, Class::Promise(_)))
}

/// A promise's state and result (for inspection).
pub fn promise_state(vm: &Vm, promise: ObjectId) -> Option<(PromiseState, Value)> {
    match &vm.heap.obj(promise).class {
        Class::Promise(d) => Some((d.state, d.result)),
        _ => None,
    }
}

// ---- 27.2.1 Promise abstract operations

/// A PromiseCapability Record (§27.2.1.1).
#[derive(Clone, Copy)]
struct Capability {
    promise: Value,
    resolve: Value,
    reject: Value,
}

impl Capability {
    fn as_tuple(self) -> (Value, Value, Value) {
        (self.promise, self.resolve, self.reject)
    }
}

fn alloc_promise(vm: &mut Vm, proto: ObjectId) -> ObjectId {
    // 4. Set promise.[[PromiseState]] to pending.
    // 5. Set promise.[[PromiseFulfillReactions]] to a new empty List.
    // 6. Set promise.[[PromiseRejectReactions]] to a new empty List.
    // 7. Set promise.[[PromiseIsHandled]] to false.
    let data = PromiseData {
        state: PromiseState::Pending,
        result: Value::UNDEFINED,
        fulfill_reactions: Vec::new(),
        reject_reactions: Vec::new(),
        is_handled: false,
    };
    vm.heap.alloc_object(Object::new(Some(proto), Class::Promise(Box::new(data))))
}

/// An internal record object (the spec's Records shared between closures).
fn new_record(vm: &mut Vm, slots: Vec<Value>) -> ObjectId {
    vm.heap.alloc_object(Object::new(None, Class::Internal(slots)))
}

fn record_get(vm: &Vm, record: ObjectId, i: usize) -> Value {
    match &vm.heap.obj(record).class {
        Class::Internal(slots) => slots.get(i).copied().unwrap_or(Value::UNDEFINED),
        _ => Value::UNDEFINED,
    }
}

fn record_set(vm: &mut Vm, record: ObjectId, i: usize, v: Value) {
    if let Class::Internal(slots) = &mut vm.heap.obj_mut(record).class {
        if let Some(s) = slots.get_mut(i) {
            *s = v;
        }
    }
}

/// Capture `i` of the running native, as an object.
fn capture_object(captures: &[Value], i: usize) -> Option<ObjectId> {
    captures.get(i).and_then(|v| v.as_object())
}

/// ### 27.2.1.3 CreateResolvingFunctions ( promise )
/// https://tc39.es/ecma262/#sec-createresolvingfunctions
fn create_resolving_functions(vm: &mut Vm, promise: ObjectId) -> (Value, Value) {
    // 1. Let alreadyResolved be the Record { [[Value]]: false }.
    let already_resolved = Value::object(new_record(vm, vec![Value::FALSE]));
    let captures = vec![Value::object(promise), already_resolved];
    // 2-6. Let resolve be CreateBuiltinFunction(stepsResolve, 1, "", « [[Promise]],
    //      [[AlreadyResolved]] ») with those slots set.
    let resolve = make_internal(vm, "%Promise.resolveFunction", 1, captures.clone());
    // 7-11. Let reject be CreateBuiltinFunction(stepsReject, 1, "", …) likewise.
    let reject = make_internal(vm, "%Promise.rejectFunction", 1, captures);
    // 12. Return the Record { [[Resolve]]: resolve, [[Reject]]: reject }.
    (Value::object(resolve), Value::object(reject))
}

/// ### 27.2.1.3.1 Promise Reject Functions
/// https://tc39.es/ecma262/#sec-promise-reject-functions
fn reject_function(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let captures = vm.native_captures();
    // 1-3. Let F be the active function object; promise = F.[[Promise]];
    //      alreadyResolved = F.[[AlreadyResolved]].
    let (Some(promise), Some(already_resolved)) = (capture_object(&captures, 0), capture_object(&captures, 1)) else {
        return Ok(Value::UNDEFINED);
    };
    // 5. If alreadyResolved.[[Value]] is true, return undefined.
    if record_get(vm, already_resolved, 0) == Value::TRUE {
        return Ok(Value::UNDEFINED);
    }
    // 6. Set alreadyResolved.[[Value]] to true.
    record_set(vm, already_resolved, 0, Value::TRUE);
    // 7. Perform RejectPromise(promise, reason).
    reject_promise(vm, promise, arg(args, 0));
    // 8. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 27.2.1.3.2 Promise Resolve Functions
/// https://tc39.es/ecma262/#sec-promise-resolve-functions
fn resolve_function(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let captures = vm.native_captures();
    // 1-3. Let F be the active function object; promise = F.[[Promise]];
    //      alreadyResolved = F.[[AlreadyResolved]].
    let (Some(promise), Some(already_resolved)) = (capture_object(&captures, 0), capture_object(&captures, 1)) else {
        return Ok(Value::UNDEFINED);
    };
    // 5. If alreadyResolved.[[Value]] is true, return undefined.
    if record_get(vm, already_resolved, 0) == Value::TRUE {
        return Ok(Value::UNDEFINED);
    }
    // 6. Set alreadyResolved.[[Value]] to true.
    record_set(vm, already_resolved, 0, Value::TRUE);
    // 7-16.
    resolve_promise_steps(vm, promise, arg(args, 0))?;
    Ok(Value::UNDEFINED)
}

/// Steps 7-16 of the resolve functions. Pushes on `vm.roots`.
fn resolve_promise_steps(vm: &mut Vm, promise: ObjectId, resolution: Value) -> JsResult<()> {
    // 7. If SameValue(resolution, promise) is true, then
    if resolution == Value::object(promise) {
        // a. Let selfResolutionError be a newly created TypeError object.
        let error = vm.make_error(ErrorKind::TypeError, "Chaining cycle detected for promise #<Promise>");
        // b. Perform RejectPromise(promise, selfResolutionError).
        reject_promise(vm, promise, error);
        // c. Return undefined.
        return Ok(());
    }
    // 8. If resolution is not an Object, then
    let Some(resolution_obj) = resolution.as_object() else {
        // a. Perform FulfillPromise(promise, resolution). b. Return undefined.
        fulfill_promise(vm, promise, resolution);
        return Ok(());
    };
    vm.roots.push(Value::object(promise));
    vm.roots.push(resolution);
    // 9. Let then be Completion(Get(resolution, "then")).
    let then = match get(vm, resolution_obj, PropertyKey::Atom(atom::then), resolution) {
        Ok(then) => then,
        // 10. If then is an abrupt completion, then
        Err(Throw::Value(e)) => {
            // a. Perform RejectPromise(promise, then.[[Value]]). b. Return undefined.
            reject_promise(vm, promise, e);
            return Ok(());
        }
        Err(limit) => return Err(limit),
    };
    // 11. Let thenAction be then.[[Value]].
    // 12. If IsCallable(thenAction) is false, then
    if !is_callable(vm, then) {
        // a. Perform FulfillPromise(promise, resolution). b. Return undefined.
        fulfill_promise(vm, promise, resolution);
        return Ok(());
    }
    // 13. Let thenJobCallback be HostMakeJobCallback(thenAction).
    // 14. Let job be NewPromiseResolveThenableJob(promise, resolution, thenJobCallback).
    // 15. Perform HostEnqueuePromiseJob(job.[[Job]], job.[[Realm]]).
    vm.enqueue_job(Job::ResolveThenable { promise: Value::object(promise), thenable: resolution, then });
    // 16. Return undefined.
    Ok(())
}

/// Move a pending promise to `state` with `result`; returns the reactions to trigger and
/// whether it was handled. None if it was not pending.
fn settle(vm: &mut Vm, promise: ObjectId, state: PromiseState, result: Value) -> Option<(Vec<Reaction>, bool)> {
    let Class::Promise(d) = &mut vm.heap.obj_mut(promise).class else {
        return None;
    };
    if d.state != PromiseState::Pending {
        return None;
    }
    // 2. Let reactions be promise.[[PromiseFulfillReactions]] (or Reject…).
    let reactions = match state {
        PromiseState::Rejected => std::mem::take(&mut d.reject_reactions),
        _ => std::mem::take(&mut d.fulfill_reactions),
    };
    // 3. Set promise.[[PromiseResult]] to value.
    d.result = result;
    // 4-5. Set promise.[[PromiseFulfillReactions]] and [[PromiseRejectReactions]] to undefined.
    d.fulfill_reactions = Vec::new();
    d.reject_reactions = Vec::new();
    // 6. Set promise.[[PromiseState]] to fulfilled (or rejected).
    d.state = state;
    Some((reactions, d.is_handled))
}

/// ### 27.2.1.4 FulfillPromise ( promise, value )
/// https://tc39.es/ecma262/#sec-fulfillpromise
fn fulfill_promise(vm: &mut Vm, promise: ObjectId, value: Value) {
    // 1-6. (see `settle`)
    let Some((reactions, _)) = settle(vm, promise, PromiseState::Fulfilled, value) else {
        return;
    };
    // 7. Perform TriggerPromiseReactions(reactions, value).
    trigger_promise_reactions(vm, reactions, value);
}

/// ### 27.2.1.5 NewPromiseCapability ( C )
/// https://tc39.es/ecma262/#sec-newpromisecapability
///
/// The capability's values are pushed on `vm.roots`.
fn new_promise_capability(vm: &mut Vm, c: Value) -> JsResult<Capability> {
    // Fast path: C is %Promise%. Constructing it runs no user code (its "prototype" is
    // non-writable and non-configurable, and the executor only stores the functions), so
    // the capability can be made directly.
    if c == Value::object(vm.realm.promise_constructor) {
        let promise = new_promise(vm);
        let (resolve, reject) = create_resolving_functions(vm, promise);
        let cap = Capability { promise: Value::object(promise), resolve, reject };
        vm.roots.extend([cap.promise, resolve, reject]);
        return Ok(cap);
    }
    // 1. If IsConstructor(C) is false, throw a TypeError exception.
    if !is_constructor(vm, c) {
        let shown = describe(vm, c, Shown::Plain);
        return Err(vm.type_error(format!("{shown} is not a constructor")));
    }
    // 2. NOTE: C is assumed to be a constructor function that supports the parameter
    //    conventions of the Promise constructor.
    // 3. Let resolvingFunctions be the Record { [[Resolve]]: undefined, [[Reject]]: undefined }.
    let record = new_record(vm, vec![Value::UNDEFINED, Value::UNDEFINED]);
    vm.roots.push(Value::object(record));
    // 4-5. Let executor be CreateBuiltinFunction(executorClosure, 2, "", « »).
    let executor = Value::object(make_internal(vm, "%Promise.capabilityExecutor", 2, vec![Value::object(record)]));
    vm.roots.push(executor);
    // 6. Let promise be ? Construct(C, « executor »).
    let promise = construct(vm, c, &[executor], None)?;
    vm.roots.push(promise);
    let (resolve, reject) = (record_get(vm, record, 0), record_get(vm, record, 1));
    // 7. If IsCallable(resolvingFunctions.[[Resolve]]) is false, throw a TypeError exception.
    // 8. If IsCallable(resolvingFunctions.[[Reject]]) is false, throw a TypeError exception.
    if !is_callable(vm, resolve) || !is_callable(vm, reject) {
        return Err(vm.type_error("Promise resolve or reject function is not callable"));
    }
    // 9. Return the PromiseCapability Record { [[Promise]]: promise, [[Resolve]], [[Reject]] }.
    Ok(Capability { promise, resolve, reject })
}

/// The executor closure of NewPromiseCapability (§27.2.1.5 step 4).
fn capability_executor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let captures = vm.native_captures();
    let Some(record) = capture_object(&captures, 0) else {
        return Ok(Value::UNDEFINED);
    };
    // a. If resolvingFunctions.[[Resolve]] is not undefined, throw a TypeError exception.
    // b. If resolvingFunctions.[[Reject]] is not undefined, throw a TypeError exception.
    if !record_get(vm, record, 0).is_undefined() || !record_get(vm, record, 1).is_undefined() {
        return Err(vm.type_error("Promise executor has already been invoked with non-undefined arguments"));
    }
    // c. Set resolvingFunctions.[[Resolve]] to resolve.
    record_set(vm, record, 0, arg(args, 0));
    // d. Set resolvingFunctions.[[Reject]] to reject.
    record_set(vm, record, 1, arg(args, 1));
    // e. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 27.2.1.8 TriggerPromiseReactions ( reactions, argument )
/// https://tc39.es/ecma262/#sec-triggerpromisereactions
fn trigger_promise_reactions(vm: &mut Vm, reactions: Vec<Reaction>, argument: Value) {
    // 1. For each element reaction of reactions, do
    for reaction in reactions {
        // a. Let job be NewPromiseReactionJob(reaction, argument).
        // b. Perform HostEnqueuePromiseJob(job.[[Job]], job.[[Realm]]).
        vm.enqueue_job(Job::Reaction { reaction, argument });
    }
}

/// HostPromiseRejectionTracker(promise, "handle") (§27.2.1.9).
fn rejection_handled(vm: &mut Vm, promise: ObjectId) {
    let p = Value::object(promise);
    vm.pending_rejections.retain(|&v| v != p);
}

/// IfAbruptRejectPromise ( value, capability ) (§27.2.1.1.1): a JS throw rejects the
/// capability's promise, which is then the result.
fn if_abrupt_reject_promise(vm: &mut Vm, completion: JsResult<Value>, cap: Capability) -> JsResult<Value> {
    match completion {
        Ok(v) => Ok(v),
        // a. Perform ? Call(capability.[[Reject]], undefined, « value.[[Value]] »).
        Err(Throw::Value(e)) => {
            vm.roots.push(e);
            call(vm, cap.reject, Value::UNDEFINED, &[e])?;
            // b. Return capability.[[Promise]].
            Ok(cap.promise)
        }
        Err(limit) => Err(limit),
    }
}

// ---- 27.2.2 Promise jobs

/// ### 27.2.2.1 NewPromiseReactionJob ( reaction, argument ) — the job's closure
/// https://tc39.es/ecma262/#sec-newpromisereactionjob
fn promise_reaction_job(vm: &mut Vm, reaction: Reaction, argument: Value) -> JsResult<()> {
    vm.roots.extend([argument, reaction.handler]);
    if let Some((p, res, rej)) = reaction.capability {
        vm.roots.extend([p, res, rej]);
    }
    // a. Let promiseCapability be reaction.[[Capability]].
    // b. Let type be reaction.[[Type]].
    // c. Let handler be reaction.[[Handler]].
    // d. If handler is empty, then
    let handler_result = if !is_callable(vm, reaction.handler) {
        match reaction.kind {
            // i. If type is fulfill, let handlerResult be NormalCompletion(argument).
            ReactionKind::Fulfill => Ok(argument),
            // ii. Else, let handlerResult be ThrowCompletion(argument).
            ReactionKind::Reject => Err(Throw::Value(argument)),
        }
    } else {
        // e. Else, let handlerResult be Completion(HostCallJobCallback(handler, undefined, « argument »)).
        let derived = reaction.capability.map_or(Value::UNDEFINED, |(p, _, _)| p);
        let outer = vm.current_reaction.replace((reaction.handler, derived));
        let r = call(vm, reaction.handler, Value::UNDEFINED, &[argument]);
        vm.current_reaction = outer;
        r
    };
    // f. If promiseCapability is undefined, then
    let Some((derived, resolve, reject)) = reaction.capability else {
        // i. Assert: handlerResult is not an abrupt completion. ii. Return empty.
        return handler_result.map(drop);
    };
    // g. Assert: promiseCapability is a PromiseCapability Record.
    // Fast path: a capability made by `then` for %Promise% keeps no resolving functions
    // (undefined): they never escape, and this job is the only one that settles the promise,
    // so settling it directly is what calling them would do.
    if let (true, Some(p)) = (resolve.is_undefined(), derived.as_object()) {
        return match handler_result {
            Err(Throw::Value(e)) => {
                reject_promise(vm, p, e);
                Ok(())
            }
            Err(limit) => Err(limit),
            Ok(v) => resolve_promise_steps(vm, p, v),
        };
    }
    match handler_result {
        // h. If handlerResult is an abrupt completion, then
        //    i. Return ? Call(promiseCapability.[[Reject]], undefined, « handlerResult.[[Value]] »).
        Err(Throw::Value(e)) => {
            vm.roots.push(e);
            call(vm, reject, Value::UNDEFINED, &[e]).map(drop)
        }
        Err(limit) => Err(limit),
        // i. Else, i. Return ? Call(promiseCapability.[[Resolve]], undefined, « handlerResult.[[Value]] »).
        Ok(v) => {
            vm.roots.push(v);
            call(vm, resolve, Value::UNDEFINED, &[v]).map(drop)
        }
    }
}

/// ### 27.2.2.2 NewPromiseResolveThenableJob ( promiseToResolve, thenable, then ) — the job
/// https://tc39.es/ecma262/#sec-newpromiseresolvethenablejob
fn promise_resolve_thenable_job(vm: &mut Vm, promise: Value, thenable: Value, then: Value) -> JsResult<()> {
    vm.roots.extend([promise, thenable, then]);
    let Some(promise) = promise.as_object() else {
        return Ok(());
    };
    // a. Let resolvingFunctions be CreateResolvingFunctions(promiseToResolve).
    let (resolve, reject) = create_resolving_functions(vm, promise);
    vm.roots.extend([resolve, reject]);
    // b. Let thenCallResult be Completion(HostCallJobCallback(then, thenable,
    //    « resolvingFunctions.[[Resolve]], resolvingFunctions.[[Reject]] »)).
    match call(vm, then, thenable, &[resolve, reject]) {
        // c. If thenCallResult is an abrupt completion, then
        //    i. Return ? Call(resolvingFunctions.[[Reject]], undefined, « thenCallResult.[[Value]] »).
        Err(Throw::Value(e)) => {
            vm.roots.push(e);
            call(vm, reject, Value::UNDEFINED, &[e]).map(drop)
        }
        Err(limit) => Err(limit),
        // d. Return ? thenCallResult.
        Ok(_) => Ok(()),
    }
}

// ---- 27.2.3 The Promise constructor

/// ### 27.2.3.1 Promise ( executor )
/// https://tc39.es/ecma262/#sec-promise-executor
fn constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let new_target = vm.native_new_target();
    let executor = arg(args, 0);
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if new_target.is_undefined() {
        return Err(vm.type_error("Promise constructor cannot be invoked without 'new'"));
    }
    // 2. If IsCallable(executor) is false, throw a TypeError exception.
    if !is_callable(vm, executor) {
        let shown = describe(vm, executor, Shown::Plain);
        return Err(vm.type_error(format!("Promise resolver {shown} is not a function")));
    }
    // 3. Let promise be ? OrdinaryCreateFromConstructor(NewTarget, "%Promise.prototype%", …).
    let default = vm.realm.promise_prototype;
    let proto = crate::runtime::call::prototype_from_constructor(vm, new_target, default)?;
    // 4-7. (pending, empty reaction lists, not handled)
    let promise = alloc_promise(vm, proto);
    vm.roots.push(Value::object(promise));
    // 8. Let resolvingFunctions be CreateResolvingFunctions(promise).
    let (resolve, reject) = create_resolving_functions(vm, promise);
    vm.roots.extend([resolve, reject]);
    // 9. Let completion be Completion(Call(executor, undefined, « resolve, reject »)).
    match call(vm, executor, Value::UNDEFINED, &[resolve, reject]) {
        Ok(_) => {}
        // 10. If completion is an abrupt completion, then
        //     a. Perform ? Call(resolvingFunctions.[[Reject]], undefined, « completion.[[Value]] »).
        Err(Throw::Value(e)) => {
            vm.roots.push(e);
            call(vm, reject, Value::UNDEFINED, &[e])?;
        }
        Err(limit) => return Err(limit),
    }
    // 11. Return promise.
    Ok(Value::object(promise))
}

// ---- 27.2.4 Properties of the Promise constructor (the combinators are in combinators.rs)

/// ### 27.2.4.6 Promise.reject ( r )
/// https://tc39.es/ecma262/#sec-promise.reject
fn reject(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let C be the this value.
    if !this.is_object() {
        return Err(vm.type_error("PromiseReject called on non-object"));
    }
    // 2. Let promiseCapability be ? NewPromiseCapability(C).
    let cap = new_promise_capability(vm, this)?;
    // 3. Perform ? Call(promiseCapability.[[Reject]], undefined, « r »).
    call(vm, cap.reject, Value::UNDEFINED, &[arg(args, 0)])?;
    // 4. Return promiseCapability.[[Promise]].
    Ok(cap.promise)
}

/// ### 27.2.4.7 Promise.resolve ( x )
/// https://tc39.es/ecma262/#sec-promise.resolve
fn resolve(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let C be the this value.
    // 2. If C is not an Object, throw a TypeError exception.
    if !this.is_object() {
        return Err(vm.type_error("PromiseResolve called on non-object"));
    }
    // 3. Return ? PromiseResolve(C, x).
    promise_resolve_with(vm, this, arg(args, 0))
}

/// ### 27.2.4.7.1 PromiseResolve ( C, x )
/// https://tc39.es/ecma262/#sec-promise-resolve
fn promise_resolve_with(vm: &mut Vm, c: Value, x: Value) -> JsResult<Value> {
    // 1. If IsPromise(x) is true, then
    if let (true, Some(xo)) = (is_promise(vm, x), x.as_object()) {
        vm.roots.push(x);
        // a. Let xConstructor be ? Get(x, "constructor").
        let x_constructor = get(vm, xo, PropertyKey::Atom(atom::constructor), x)?;
        // b. If SameValue(xConstructor, C) is true, return x.
        if x_constructor == c {
            return Ok(x);
        }
    }
    // Fast path: C is %Promise%; its capability functions are never exposed, so resolving the
    // new promise directly is the same as calling them.
    if c == Value::object(vm.realm.promise_constructor) {
        let promise = new_promise(vm);
        vm.roots.push(Value::object(promise));
        resolve_promise_steps(vm, promise, x)?;
        return Ok(Value::object(promise));
    }
    // 2. Let promiseCapability be ? NewPromiseCapability(C).
    let cap = new_promise_capability(vm, c)?;
    // 3. Perform ? Call(promiseCapability.[[Resolve]], undefined, « x »).
    call(vm, cap.resolve, Value::UNDEFINED, &[x])?;
    // 4. Return promiseCapability.[[Promise]].
    Ok(cap.promise)
}

/// ### 27.2.4.8 Promise.try ( callback, ...args )
/// https://tc39.es/ecma262/#sec-promise.try
fn try_(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let C be the this value.
    // 2. If C is not an Object, throw a TypeError exception.
    if !this.is_object() {
        return Err(vm.type_error("Promise.try called on non-object"));
    }
    // 3. Let promiseCapability be ? NewPromiseCapability(C).
    let cap = new_promise_capability(vm, this)?;
    let callback = arg(args, 0);
    let rest = args.get(1..).unwrap_or(&[]);
    // 4. Let status be Completion(Call(callback, undefined, args)).
    match call(vm, callback, Value::UNDEFINED, rest) {
        // 5. If status is an abrupt completion, then
        //    a. Perform ? Call(promiseCapability.[[Reject]], undefined, « status.[[Value]] »).
        Err(Throw::Value(e)) => {
            vm.roots.push(e);
            call(vm, cap.reject, Value::UNDEFINED, &[e])?;
        }
        Err(limit) => return Err(limit),
        // 6. Else, a. Perform ? Call(promiseCapability.[[Resolve]], undefined, « status.[[Value]] »).
        Ok(v) => {
            vm.roots.push(v);
            call(vm, cap.resolve, Value::UNDEFINED, &[v])?;
        }
    }
    // 7. Return promiseCapability.[[Promise]].
    Ok(cap.promise)
}

/// ### 27.2.4.9 Promise.withResolvers ( )
/// https://tc39.es/ecma262/#sec-promise.withResolvers
fn with_resolvers(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let C be the this value.
    if !this.is_object() {
        return Err(vm.type_error("Promise.withResolvers called on non-object"));
    }
    // 2. Let promiseCapability be ? NewPromiseCapability(C).
    let cap = new_promise_capability(vm, this)?;
    // 3. Let obj be OrdinaryObjectCreate(%Object.prototype%).
    let obj = vm.new_object();
    let Some(o) = obj.as_object() else {
        return Ok(obj);
    };
    // 4. Perform ! CreateDataPropertyOrThrow(obj, "promise", promiseCapability.[[Promise]]).
    create_data_property_or_throw(vm, o, PropertyKey::Atom(atom::promise), cap.promise)?;
    // 5. Perform ! CreateDataPropertyOrThrow(obj, "resolve", promiseCapability.[[Resolve]]).
    create_data_property_or_throw(vm, o, PropertyKey::Atom(atom::resolve), cap.resolve)?;
    // 6. Perform ! CreateDataPropertyOrThrow(obj, "reject", promiseCapability.[[Reject]]).
    create_data_property_or_throw(vm, o, PropertyKey::Atom(atom::reject), cap.reject)?;
    // 7. Return obj.
    Ok(obj)
}

// ---- 27.2.5 Properties of the Promise prototype object

/// ### 27.2.5.1 Promise.prototype.catch ( onRejected )
/// https://tc39.es/ecma262/#sec-promise.prototype.catch
fn catch(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let promise be the this value.
    // 2. Return ? Invoke(promise, "then", « undefined, onRejected »).
    invoke(vm, this, PropertyKey::Atom(atom::then), &[Value::UNDEFINED, arg(args, 0)])
}

/// ### 27.2.5.3 Promise.prototype.finally ( onFinally )
/// https://tc39.es/ecma262/#sec-promise.prototype.finally
fn finally(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let on_finally = arg(args, 0);
    // 1. Let promise be the this value.
    // 2. If promise is not an Object, throw a TypeError exception.
    let Some(promise) = this.as_object() else {
        return Err(vm.type_error("Promise.prototype.finally called on non-object"));
    };
    // 3. Let C be ? SpeciesConstructor(promise, %Promise%).
    let c = species_constructor(vm, promise, Value::object(vm.realm.promise_constructor))?;
    vm.roots.push(c);
    // 4. Assert: IsConstructor(C) is true.
    // 5. If IsCallable(onFinally) is false, then
    let (then_finally, catch_finally) = if !is_callable(vm, on_finally) {
        // a. Let thenFinally be onFinally. b. Let catchFinally be onFinally.
        (on_finally, on_finally)
    } else {
        // 6. Else,
        // a-b. Let thenFinally be CreateBuiltinFunction(thenFinallyClosure, 1, "", « »).
        let then_finally = make_internal(vm, "%Promise.thenFinally", 1, vec![on_finally, c]);
        // c-d. Let catchFinally be CreateBuiltinFunction(catchFinallyClosure, 1, "", « »).
        let catch_finally = make_internal(vm, "%Promise.catchFinally", 1, vec![on_finally, c]);
        (Value::object(then_finally), Value::object(catch_finally))
    };
    vm.roots.extend([then_finally, catch_finally]);
    // 7. Return ? Invoke(promise, "then", « thenFinally, catchFinally »).
    invoke(vm, this, PropertyKey::Atom(atom::then), &[then_finally, catch_finally])
}

/// thenFinallyClosure (§27.2.5.3 step 6.a). Captures: [onFinally, C].
fn then_finally(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    finally_reaction(vm, arg(args, 0), "%Promise.valueThunk")
}

/// catchFinallyClosure (§27.2.5.3 step 6.c). Captures: [onFinally, C].
fn catch_finally(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    finally_reaction(vm, arg(args, 0), "%Promise.thrower")
}

fn finally_reaction(vm: &mut Vm, value: Value, thunk: &str) -> JsResult<Value> {
    let captures = vm.native_captures();
    let on_finally = captures.first().copied().unwrap_or(Value::UNDEFINED);
    let c = captures.get(1).copied().unwrap_or(Value::UNDEFINED);
    vm.roots.extend([on_finally, c, value]);
    // i. Let result be ? Call(onFinally, undefined).
    let result = call(vm, on_finally, Value::UNDEFINED, &[])?;
    vm.roots.push(result);
    // ii. Let p be ? PromiseResolve(C, result).
    let p = promise_resolve_with(vm, c, result)?;
    vm.roots.push(p);
    // iii-iv. Let returnValue / throwReason be a closure that returns value / throws reason;
    //         valueThunk / thrower = CreateBuiltinFunction(…, 0, "", « »).
    let f = Value::object(make_internal(vm, thunk, 0, vec![value]));
    // v. Return ? Invoke(p, "then", « valueThunk / thrower »).
    invoke(vm, p, PropertyKey::Atom(atom::then), &[f])
}

/// returnValue (§27.2.5.3 step 6.a.iii): returns the captured value.
fn value_thunk(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(vm.native_captures().first().copied().unwrap_or(Value::UNDEFINED))
}

/// throwReason (§27.2.5.3 step 6.c.iii): throws the captured reason.
fn thrower(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Err(Throw::Value(vm.native_captures().first().copied().unwrap_or(Value::UNDEFINED)))
}

/// ### 27.2.5.4 Promise.prototype.then ( onFulfilled, onRejected )
/// https://tc39.es/ecma262/#sec-promise.prototype.then
fn then(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let promise be the this value.
    // 2. If IsPromise(promise) is false, throw a TypeError exception.
    let promise = match this.as_object() {
        Some(p) if is_promise(vm, this) => p,
        _ => {
            let shown = describe(vm, this, Shown::Plain);
            return Err(vm.type_error(format!("Method Promise.prototype.then called on incompatible receiver {shown}")));
        }
    };
    // 3. Let C be ? SpeciesConstructor(promise, %Promise%).
    let c = species_constructor(vm, promise, Value::object(vm.realm.promise_constructor))?;
    vm.roots.push(c);
    // 4. Let resultCapability be ? NewPromiseCapability(C).
    // Fast path: for %Promise% the capability's resolving functions would only be reachable
    // from the reactions made below, so none are made (see `promise_reaction_job`).
    let cap = if c == Value::object(vm.realm.promise_constructor) {
        let derived = Value::object(new_promise(vm));
        Capability { promise: derived, resolve: Value::UNDEFINED, reject: Value::UNDEFINED }
    } else {
        new_promise_capability(vm, c)?
    };
    // 5. Return PerformPromiseThen(promise, onFulfilled, onRejected, resultCapability).
    Ok(perform_promise_then(vm, promise, arg(args, 0), arg(args, 1), Some(cap)))
}

/// ### 27.2.5.4.1 PerformPromiseThen ( promise, onFulfilled, onRejected [ , resultCapability ] )
/// https://tc39.es/ecma262/#sec-performpromisethen
fn perform_promise_then(
    vm: &mut Vm,
    promise: ObjectId,
    on_fulfilled: Value,
    on_rejected: Value,
    capability: Option<Capability>,
) -> Value {
    // 1. Assert: IsPromise(promise) is true.
    // 2. If resultCapability is not present, set it to undefined.
    // 3-4. If IsCallable(onFulfilled) is false, let onFulfilledJobCallback be empty; else
    //      HostMakeJobCallback(onFulfilled).
    let on_fulfilled = if is_callable(vm, on_fulfilled) { on_fulfilled } else { Value::UNDEFINED };
    // 5-6. Likewise for onRejected.
    let on_rejected = if is_callable(vm, on_rejected) { on_rejected } else { Value::UNDEFINED };
    let cap = capability.map(Capability::as_tuple);
    // 7. Let fulfillReaction be the PromiseReaction Record { [[Capability]]: resultCapability,
    //    [[Type]]: fulfill, [[Handler]]: onFulfilledJobCallback }.
    let fulfill_reaction = Reaction { capability: cap, kind: ReactionKind::Fulfill, handler: on_fulfilled };
    // 8. Let rejectReaction be the PromiseReaction Record { …, [[Type]]: reject, … }.
    let reject_reaction = Reaction { capability: cap, kind: ReactionKind::Reject, handler: on_rejected };
    let Class::Promise(d) = &mut vm.heap.obj_mut(promise).class else {
        return Value::UNDEFINED;
    };
    let (state, result, was_handled) = (d.state, d.result, d.is_handled);
    // 12. Set promise.[[PromiseIsHandled]] to true.
    d.is_handled = true;
    match state {
        // 9. If promise.[[PromiseState]] is pending, then append both reactions.
        PromiseState::Pending => {
            let before = crate::heap::reactions_bytes(d);
            d.fulfill_reactions.push(fulfill_reaction);
            d.reject_reactions.push(reject_reaction);
            let grown = crate::heap::reactions_bytes(d) - before;
            vm.heap.note_growth(grown);
        }
        // 10. Else if promise.[[PromiseState]] is fulfilled, then
        PromiseState::Fulfilled => {
            // a. Let value be promise.[[PromiseResult]].
            // b. Let fulfillJob be NewPromiseReactionJob(fulfillReaction, value).
            // c. Perform HostEnqueuePromiseJob(fulfillJob.[[Job]], fulfillJob.[[Realm]]).
            vm.enqueue_job(Job::Reaction { reaction: fulfill_reaction, argument: result });
        }
        // 11. Else,
        PromiseState::Rejected => {
            // a-b. Let reason be promise.[[PromiseResult]].
            // c. If promise.[[PromiseIsHandled]] is false, perform
            //    HostPromiseRejectionTracker(promise, "handle").
            if !was_handled {
                rejection_handled(vm, promise);
            }
            // d. Let rejectJob be NewPromiseReactionJob(rejectReaction, reason).
            // e. Perform HostEnqueuePromiseJob(rejectJob.[[Job]], rejectJob.[[Realm]]).
            vm.enqueue_job(Job::Reaction { reaction: reject_reaction, argument: result });
        }
    }
    // 13. If resultCapability is undefined, return undefined.
    // 14. Else, return resultCapability.[[Promise]].
    capability.map_or(Value::UNDEFINED, |c| c.promise)
}

// ---- Await continuations and queueMicrotask

/// `await`'s fulfilled handler: resumes the suspended async function (captures: [state]).
fn async_resume_fulfilled(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let state = capture_object(&vm.native_captures(), 0);
    if let Some(state) = state {
        crate::interp::resume_async(vm, state, arg(args, 0), false)?;
    }
    Ok(Value::UNDEFINED)
}

/// `await`'s rejected handler: resumes the async function by throwing the reason into it.
fn async_resume_rejected(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let state = capture_object(&vm.native_captures(), 0);
    if let Some(state) = state {
        crate::interp::resume_async(vm, state, arg(args, 0), true)?;
    }
    Ok(Value::UNDEFINED)
}

/// ### queueMicrotask ( callback )
/// https://html.spec.whatwg.org/multipage/timers-and-user-prompts.html#dom-queuemicrotask
fn queue_microtask(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let callback = arg(args, 0);
    if !is_callable(vm, callback) {
        let received = match callback.kind() {
            Kind::Undefined | Kind::Null => describe(vm, callback, Shown::Plain),
            Kind::Object(_) => {
                format!(
                    "an instance of {}",
                    describe(vm, callback, Shown::Plain).trim_start_matches("#<").trim_end_matches('>')
                )
            }
            _ => {
                let t = crate::runtime::operators::type_of(vm, callback);
                let shown = describe(vm, callback, Shown::Plain);
                let shown = if callback.is_string() { format!("'{shown}'") } else { shown };
                format!("type {t} ({shown})")
            }
        };
        return Err(vm.type_error(format!("The \"callback\" argument must be of type function. Received {received}")));
    }
    // Queue a microtask that invokes callback (a thrown exception is reported).
    vm.enqueue_job(Job::Callback { callback });
    Ok(Value::UNDEFINED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_natives_are_registered() {
        // `make_internal` falls back to native 0 for an unknown name: catch typos here.
        for name in [
            "%Promise.resolveFunction",
            "%Promise.rejectFunction",
            "%Promise.capabilityExecutor",
            "%Promise.all.resolveElement",
            "%Promise.allSettled.resolveElement",
            "%Promise.allSettled.rejectElement",
            "%Promise.any.rejectElement",
            "%Promise.thenFinally",
            "%Promise.catchFinally",
            "%Promise.valueThunk",
            "%Promise.thrower",
            "%AsyncResume.fulfilled",
            "%AsyncResume.rejected",
        ] {
            assert!(NativeId::by_name(name).is_some(), "{name}");
        }
    }
}
