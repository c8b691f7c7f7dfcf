//! Explicit resource management (ECMA-262 2026 §27.3–27.4, §20.5.8): DisposableStack,
//! AsyncDisposableStack, SuppressedError, and the runtime of `using` declarations:
//! https://tc39.es/ecma262/#sec-disposablestack-objects
//!
//! A dispose capability (the spec's list of DisposableResource records) lives in a
//! `Class::Internal` object — plain data: `[brand, state, (value, method, kind)…]`, where
//! `kind` says how the dispose method is called (see `Kind`). DisposableStack and
//! AsyncDisposableStack instances are such objects with their prototypes; the compiler's
//! `using` scopes use a prototype-less one ([`new_disposable_stack`]).
//!
//! `AsyncDisposableStack.prototype.disposeAsync` awaits each result through promise reactions
//! (a heap state object plus two internal continuation functions), so a suspended disposal is
//! plain heap data. Entry points for the interpreter's `using` scopes:
//! - [`dispose_all`] / [`dispose_resources`]: synchronous DisposeResources. Async-dispose
//!   methods (`await using`) are called but their promises are **not awaited** here;
//! - [`dispose_resources_async`]: the same as a promise the interpreter can `await`, which
//!   awaits each async result in order (more promise ticks than the spec's inline awaits).
//!
//! Awaiting for `await using` is the interpreter's work: it picks the second form.

use crate::atoms::{atom, PropertyKey};
use crate::builtins::{arg, install, make_constructor, make_internal, NativeDef};
use crate::error::{JsResult, Throw};
use crate::heap::object::{Class, Object};
use crate::heap::shape::PropFlags;
use crate::native;
use crate::runtime::call::{call, is_callable, prototype_from_constructor};
use crate::runtime::convert::to_string;
use crate::runtime::property::get_method;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("DisposableStack", 0, disposable_stack_constructor),
    native!("DisposableStack.prototype.adopt", 2, adopt),
    native!("DisposableStack.prototype.defer", 1, defer),
    native!("DisposableStack.prototype.dispose", 0, dispose),
    native!("get DisposableStack.prototype.disposed", 0, get_disposed),
    native!("DisposableStack.prototype.move", 0, move_stack),
    native!("DisposableStack.prototype.use", 1, use_resource),
    native!("AsyncDisposableStack", 0, async_disposable_stack_constructor),
    native!("AsyncDisposableStack.prototype.adopt", 2, async_adopt),
    native!("AsyncDisposableStack.prototype.defer", 1, async_defer),
    native!("AsyncDisposableStack.prototype.disposeAsync", 0, dispose_async),
    native!("get AsyncDisposableStack.prototype.disposed", 0, async_get_disposed),
    native!("AsyncDisposableStack.prototype.move", 0, async_move),
    native!("AsyncDisposableStack.prototype.use", 1, async_use),
    native!("SuppressedError", 3, suppressed_error_constructor),
    native!("%AsyncDisposableStack.fulfilled", 1, async_step_fulfilled),
    native!("%AsyncDisposableStack.rejected", 1, async_step_rejected),
];

pub(crate) fn init(vm: &mut Vm) {
    let tag_key = PropertyKey::Symbol(vm.symbols.toStringTag);

    // 27.3 DisposableStack.
    let proto = vm.realm.disposable_stack_prototype;
    make_constructor(vm, "DisposableStack", "DisposableStack", proto);
    install(vm, proto, "DisposableStack.prototype", NATIVES);
    // 27.3.3.6: DisposableStack.prototype[%Symbol.dispose%] is the "dispose" function object.
    alias(vm, proto, "dispose", PropertyKey::Symbol(vm.symbols.dispose));
    let tag = vm.str("DisposableStack");
    vm.define_builtin(proto, tag_key, tag, PropFlags(PropFlags::CONFIGURABLE));

    // 27.4 AsyncDisposableStack.
    let proto = vm.realm.async_disposable_stack_prototype;
    make_constructor(vm, "AsyncDisposableStack", "AsyncDisposableStack", proto);
    install(vm, proto, "AsyncDisposableStack.prototype", NATIVES);
    // 27.4.3.6: AsyncDisposableStack.prototype[%Symbol.asyncDispose%] is "disposeAsync".
    alias(vm, proto, "disposeAsync", PropertyKey::Symbol(vm.symbols.asyncDispose));
    let tag = vm.str("AsyncDisposableStack");
    vm.define_builtin(proto, tag_key, tag, PropFlags(PropFlags::CONFIGURABLE));

    // 20.5.8 SuppressedError: its constructor inherits from %Error%, its prototype from
    // %Error.prototype% (set when the realm allocated it).
    let proto = vm.realm.suppressed_error_prototype;
    vm.heap.obj_mut(proto).proto = Some(vm.realm.error_prototype);
    let ctor = make_constructor(vm, "SuppressedError", "SuppressedError", proto);
    let error_ctor =
        vm.heap.obj(vm.realm.error_prototype).lookup_named(&vm.heap.shapes, PropertyKey::Atom(atom::constructor));
    if let Some(ec) = error_ctor.and_then(|(v, _)| v.as_object()) {
        vm.heap.obj_mut(ctor).proto = Some(ec);
    }
    let name = vm.str("SuppressedError");
    vm.define_builtin(proto, PropertyKey::Atom(atom::name), name, PropFlags::HIDDEN);
    let empty = vm.str("");
    vm.define_builtin(proto, PropertyKey::Atom(atom::message), empty, PropFlags::HIDDEN);
}

/// Make `target[to]` the same function object as `target.from`.
fn alias(vm: &mut Vm, target: ObjectId, from: &str, to: PropertyKey) {
    let key = vm.key(from);
    if let Some((f, _)) = vm.heap.obj(target).lookup_named(&vm.heap.shapes, key) {
        vm.define_builtin(target, to, f, PropFlags::HIDDEN);
    }
}

// ---- the dispose capability

/// Brand of a DisposableStack's capability object (and of `using` scopes).
const BRAND_SYNC: i32 = 0x4453_0001;
/// Brand of an AsyncDisposableStack's capability object.
const BRAND_ASYNC: i32 = 0x4453_0002;
/// Index of the [[DisposableState]] slot: 0 pending, 1 disposed.
const STATE: usize = 1;
/// Index of the first resource triple.
const FIRST: usize = 2;

/// How a DisposableResource's method is called.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// sync-dispose: `Call(method, value)`.
    Sync = 0,
    /// async-dispose: `Await(Call(method, value))`.
    Async = 1,
    /// async-dispose through a synchronous @@dispose (GetDisposeMethod step 1.b.ii): the call's
    /// result is not awaited, only `undefined` is.
    AsyncFromSync = 2,
    /// DisposableStack.prototype.adopt: `Call(onDispose, undefined, « value »)`.
    SyncAdopt = 3,
    /// AsyncDisposableStack.prototype.adopt: `Await(Call(onDisposeAsync, undefined, « value »))`.
    AsyncAdopt = 4,
}

impl Kind {
    fn from_value(v: Value) -> Kind {
        match v.as_int() {
            Some(1) => Kind::Async,
            Some(2) => Kind::AsyncFromSync,
            Some(3) => Kind::SyncAdopt,
            Some(4) => Kind::AsyncAdopt,
            _ => Kind::Sync,
        }
    }

    fn is_async(self) -> bool {
        matches!(self, Kind::Async | Kind::AsyncFromSync | Kind::AsyncAdopt)
    }
}

/// A new capability object: NewDisposeCapability() (§27.3.1.? / §9.?) with a brand.
fn new_capability(vm: &mut Vm, proto: Option<ObjectId>, brand: i32) -> ObjectId {
    vm.heap.alloc_object(Object::new(proto, Class::Internal(vec![Value::int(brand), Value::int(0)])))
}

/// A new DisposableStack for a `using` scope (no prototype: it never reaches JS).
pub fn new_disposable_stack(vm: &mut Vm) -> Value {
    Value::object(new_capability(vm, None, BRAND_SYNC))
}

/// The capability object `v` if it carries `brand`.
fn capability(vm: &Vm, v: Value, brand: i32) -> Option<ObjectId> {
    let o = v.as_object()?;
    match &vm.heap.obj(o).class {
        Class::Internal(slots) if slots.first().and_then(|b| b.as_int()) == Some(brand) && slots.len() >= FIRST => {
            Some(o)
        }
        _ => None,
    }
}

fn is_disposed(vm: &Vm, o: ObjectId) -> bool {
    match &vm.heap.obj(o).class {
        Class::Internal(slots) => slots.get(STATE).and_then(|s| s.as_int()) == Some(1),
        _ => true,
    }
}

fn set_disposed(vm: &mut Vm, o: ObjectId) {
    if let Class::Internal(slots) = &mut vm.heap.obj_mut(o).class {
        if let Some(s) = slots.get_mut(STATE) {
            *s = Value::int(1);
        }
    }
}

fn push_resource(vm: &mut Vm, o: ObjectId, value: Value, method: Value, kind: Kind) {
    if let Class::Internal(slots) = &mut vm.heap.obj_mut(o).class {
        slots.extend([value, method, Value::int(kind as i32)]);
    }
}

/// Remove and return the resource list (value, method, kind), oldest first.
fn take_resources(vm: &mut Vm, o: ObjectId) -> Vec<(Value, Value, Kind)> {
    let Class::Internal(slots) = &mut vm.heap.obj_mut(o).class else { return Vec::new() };
    let rest: Vec<Value> = slots.drain(FIRST.min(slots.len())..).collect();
    rest.chunks_exact(3).map(|c| (c[0], c[1], Kind::from_value(c[2]))).collect()
}

/// GetDisposeMethod ( V, hint ) (§7.5.?): the method and how to call it, or None.
fn get_dispose_method(vm: &mut Vm, v: Value, is_async: bool) -> JsResult<Option<(Value, Kind)>> {
    // 1. If hint is async-dispose, then
    if is_async {
        // a. Let method be ? GetMethod(V, %Symbol.asyncDispose%).
        let key = PropertyKey::Symbol(vm.symbols.asyncDispose);
        if let Some(m) = get_method(vm, v, key)? {
            return Ok(Some((m, Kind::Async)));
        }
        // b. If method is undefined, then
        // i. Set method to ? GetMethod(V, %Symbol.dispose%).
        let key = PropertyKey::Symbol(vm.symbols.dispose);
        // ii. If method is not undefined, return a closure that calls it and returns a
        //     promise resolved with undefined (Kind::AsyncFromSync).
        return Ok(get_method(vm, v, key)?.map(|m| (m, Kind::AsyncFromSync)));
    }
    // 2. Else, a. Let method be ? GetMethod(V, %Symbol.dispose%).
    let key = PropertyKey::Symbol(vm.symbols.dispose);
    // 3. Return method.
    Ok(get_method(vm, v, key)?.map(|m| (m, Kind::Sync)))
}

/// AddDisposableResource ( disposeCapability, V, hint ) (§7.5.?) without a method.
fn add_disposable_resource(vm: &mut Vm, cap: ObjectId, v: Value, is_async: bool) -> JsResult<()> {
    // 1.a. If V is either null or undefined and hint is sync-dispose, return unused.
    if v.is_nullish() {
        if !is_async {
            return Ok(());
        }
        // b. NOTE: for async-dispose we record that a resource was added so that we will
        //    still Await when leaving the block (CreateDisposableResource 1.a: V and method
        //    undefined).
        push_resource(vm, cap, Value::UNDEFINED, Value::UNDEFINED, Kind::Async);
        return Ok(());
    }
    // c. Let resource be ? CreateDisposableResource(V, hint).
    // CreateDisposableResource 1.b.i. If V is not an Object, throw a TypeError exception.
    if !v.is_object() {
        return Err(vm.type_error("using declarations can only hold objects, null or undefined"));
    }
    // ii. Set method to ? GetDisposeMethod(V, hint).
    // iii. If method is undefined, throw a TypeError exception.
    let Some((method, kind)) = get_dispose_method(vm, v, is_async)? else {
        let which = if is_async { "Symbol.asyncDispose or Symbol.dispose" } else { "Symbol.dispose" };
        return Err(vm.type_error(format!("The value has no {which} method")));
    };
    // 3. Append resource to disposeCapability.[[DisposableResourceStack]].
    push_resource(vm, cap, v, method, kind);
    Ok(())
}

/// Add a `using` (hint 0, sync-dispose) or `await using` (hint 1, async-dispose) resource to
/// `stack`, a capability from [`new_disposable_stack`]: AddDisposableResource(…, V, hint).
pub fn add_resource(vm: &mut Vm, stack: Value, v: Value, hint: u8) -> JsResult<()> {
    let Some(cap) = capability(vm, stack, BRAND_SYNC).or_else(|| capability(vm, stack, BRAND_ASYNC)) else {
        return Err(vm.type_error("invalid disposable stack"));
    };
    add_disposable_resource(vm, cap, v, hint == 1)
}

/// DisposeResources for an `await using` scope, as a promise: it settles when every resource
/// has been disposed (async results awaited), fulfilled with undefined or rejected with the
/// final error (`completion`, the scope's pending throw, chained like [`dispose_resources`]).
/// The interpreter awaits it; this adds promise ticks compared with the spec's inline awaits.
pub fn dispose_resources_async(vm: &mut Vm, stack: Value, completion: Option<Value>) -> JsResult<Value> {
    let Some(cap) = stack
        .as_object()
        .filter(|_| capability(vm, stack, BRAND_SYNC).is_some() || capability(vm, stack, BRAND_ASYNC).is_some())
    else {
        return Err(vm.type_error("invalid disposable stack"));
    };
    let p = crate::builtins::promise::new_promise(vm);
    vm.roots.push(Value::object(p));
    set_disposed(vm, cap);
    start_async_disposal(vm, p, cap, completion)?;
    Ok(Value::object(p))
}

/// Run DisposeResources asynchronously over `cap`'s resources, settling `p` at the end.
fn start_async_disposal(vm: &mut Vm, p: ObjectId, cap: ObjectId, completion: Option<Value>) -> JsResult<()> {
    let resources = take_resources(vm, cap);
    let initial = completion.unwrap_or(Value::EMPTY);
    let mut slots = vec![Value::object(p), Value::int(resources.len() as i32), initial, Value::int(0)];
    for (v, m, k) in resources {
        slots.extend([v, m, Value::int(k as i32)]);
    }
    let state = vm.heap.alloc_object(Object::new(None, Class::Internal(slots)));
    vm.roots.push(Value::object(state));
    async_dispose_run(vm, state)
}

/// DisposeResources for a `using` scope that completed normally: dispose every resource of
/// `stack` in reverse order; throws the disposal error (SuppressedError-chained if several).
/// Async-dispose methods are called but their promises are not awaited (see the module doc).
pub fn dispose_all(vm: &mut Vm, stack: Value) -> JsResult<()> {
    dispose_resources(vm, stack, None)
}

/// DisposeResources ( disposeCapability, completion ) (§7.5.?) synchronously. `completion` is
/// the scope's pending throw, if any; the result is the scope's final completion: `Ok` if
/// nothing threw, else the thrown value — a disposal error thrown over an earlier one becomes a
/// SuppressedError { error: new, suppressed: earlier }.
pub fn dispose_resources(vm: &mut Vm, stack: Value, completion: Option<Value>) -> JsResult<()> {
    let Some(cap) = stack
        .as_object()
        .filter(|_| capability(vm, stack, BRAND_SYNC).is_some() || capability(vm, stack, BRAND_ASYNC).is_some())
    else {
        return Err(vm.type_error("invalid disposable stack"));
    };
    let mark = vm.roots.len();
    let r = dispose_sync(vm, cap, completion);
    vm.roots.truncate(mark);
    r
}

fn dispose_sync(vm: &mut Vm, cap: ObjectId, completion: Option<Value>) -> JsResult<()> {
    let resources = take_resources(vm, cap);
    // Hold the records while their methods run.
    for (v, m, _) in &resources {
        vm.roots.push(*v);
        vm.roots.push(*m);
    }
    let mut completion = completion;
    if let Some(c) = completion {
        vm.roots.push(c);
    }
    // 3. For each element resource of disposeCapability.[[DisposableResourceStack]], in
    //    reverse list order, do
    for (value, method, kind) in resources.into_iter().rev() {
        // e. If method is not undefined, then
        if method.is_undefined() {
            // f. Else, Assert: hint is async-dispose; set needsAwait to true (nothing to do
            //    without an await here).
            continue;
        }
        // i. Let result be Completion(Call(method, value)).
        let result = call_dispose_method(vm, value, method, kind);
        // iii. If result is a throw completion, then
        match result {
            Ok(_) => {}
            Err(Throw::Value(e)) => {
                completion = Some(chain_error(vm, e, completion));
                if let Some(c) = completion {
                    vm.roots.push(c);
                }
            }
            Err(limit) => return Err(limit),
        }
    }
    // 6. Set disposeCapability.[[DisposableResourceStack]] to a new empty List (done by take).
    // 7. Return ? completion.
    match completion {
        Some(e) => Err(Throw::Value(e)),
        None => Ok(()),
    }
}

/// Call a resource's dispose method as its kind says.
fn call_dispose_method(vm: &mut Vm, value: Value, method: Value, kind: Kind) -> JsResult<Value> {
    match kind {
        Kind::Sync | Kind::Async | Kind::AsyncFromSync => call(vm, method, value, &[]),
        Kind::SyncAdopt | Kind::AsyncAdopt => call(vm, method, Value::UNDEFINED, &[value]),
    }
}

/// DisposeResources step 3.e.iii: a new throw `result` over the current `completion`.
fn chain_error(vm: &mut Vm, result: Value, completion: Option<Value>) -> Value {
    match completion {
        // 1. If completion is a throw completion, then a–f: a SuppressedError whose "error" is
        //    result and "suppressed" the earlier error.
        Some(suppressed) => suppressed_error_at_disposal(vm, result, suppressed),
        // 2. Else, set completion to result.
        None => result,
    }
}

/// A SuppressedError created by DisposeResources, with V8's message.
fn suppressed_error_at_disposal(vm: &mut Vm, error: Value, suppressed: Value) -> Value {
    let proto = vm.realm.suppressed_error_prototype;
    let o = vm.heap.alloc_object(Object::new(Some(proto), Class::Error));
    let msg = vm.str("An error was suppressed during disposal");
    vm.define_builtin(o, PropertyKey::Atom(atom::message), msg, PropFlags::HIDDEN);
    // d–e. CreateNonEnumerableDataPropertyOrThrow(error, "error" / "suppressed", …).
    let (ek, sk) = (vm.key("error"), vm.key("suppressed"));
    vm.define_builtin(o, ek, error, PropFlags::HIDDEN);
    vm.define_builtin(o, sk, suppressed, PropFlags::HIDDEN);
    crate::builtins::error::attach_stack(vm, o);
    Value::object(o)
}

// ---- 27.3 DisposableStack objects

/// ### 27.3.1.1 DisposableStack ( )
/// https://tc39.es/ecma262/#sec-disposablestack
fn disposable_stack_constructor(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor DisposableStack requires 'new'"));
    }
    // 2. Let disposableStack be ? OrdinaryCreateFromConstructor(NewTarget,
    //    "%DisposableStack.prototype%", « [[DisposableState]], [[DisposeCapability]] »).
    let default = vm.realm.disposable_stack_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 3. Set disposableStack.[[DisposableState]] to pending.
    // 4. Set disposableStack.[[DisposeCapability]] to NewDisposeCapability().
    // 5. Return disposableStack.
    Ok(Value::object(new_capability(vm, Some(proto), BRAND_SYNC)))
}

/// RequireInternalSlot(this, [[DisposableState]]) and the "disposed → ReferenceError" check.
fn pending_stack(vm: &mut Vm, this: Value, brand: i32, method: &str) -> JsResult<ObjectId> {
    let Some(o) = capability(vm, this, brand) else {
        return Err(vm.type_error(format!("{method} called on an incompatible receiver")));
    };
    if is_disposed(vm, o) {
        let what = if brand == BRAND_SYNC { "DisposableStack" } else { "AsyncDisposableStack" };
        return Err(vm.reference_error(format!("Cannot call {method} on an already-disposed {what}")));
    }
    Ok(o)
}

/// ### 27.3.3.1 DisposableStack.prototype.adopt ( value, onDispose )
fn adopt(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    adopt_with(vm, this, args, BRAND_SYNC, Kind::SyncAdopt, "DisposableStack.prototype.adopt")
}

fn adopt_with(vm: &mut Vm, this: Value, args: &[Value], brand: i32, kind: Kind, name: &str) -> JsResult<Value> {
    let (value, on_dispose) = (arg(args, 0), arg(args, 1));
    // 1–3. RequireInternalSlot; if disposed, throw a ReferenceError exception.
    let o = pending_stack(vm, this, brand, name)?;
    // 4. If IsCallable(onDispose) is false, throw a TypeError exception.
    if !is_callable(vm, on_dispose) {
        return Err(vm.type_error("onDispose is not a function"));
    }
    // 5–7. Let F be a closure calling onDispose(value); AddDisposableResource(…, undefined,
    //    hint, F).
    push_resource(vm, o, value, on_dispose, kind);
    // 8. Return value.
    Ok(value)
}

/// ### 27.3.3.2 DisposableStack.prototype.defer ( onDispose )
fn defer(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    defer_with(vm, this, args, BRAND_SYNC, Kind::Sync, "DisposableStack.prototype.defer")
}

fn defer_with(vm: &mut Vm, this: Value, args: &[Value], brand: i32, kind: Kind, name: &str) -> JsResult<Value> {
    let on_dispose = arg(args, 0);
    // 1–3. RequireInternalSlot; if disposed, throw a ReferenceError exception.
    let o = pending_stack(vm, this, brand, name)?;
    // 4. If IsCallable(onDispose) is false, throw a TypeError exception.
    if !is_callable(vm, on_dispose) {
        return Err(vm.type_error("onDispose is not a function"));
    }
    // 5. Perform ? AddDisposableResource(…, undefined, hint, onDispose).
    push_resource(vm, o, Value::UNDEFINED, on_dispose, kind);
    // 6. Return undefined.
    Ok(Value::UNDEFINED)
}

/// ### 27.3.3.3 DisposableStack.prototype.dispose ( )
fn dispose(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1–2. Perform ? RequireInternalSlot(disposableStack, [[DisposableState]]).
    let Some(o) = capability(vm, this, BRAND_SYNC) else {
        return Err(vm.type_error("DisposableStack.prototype.dispose called on an incompatible receiver"));
    };
    // 3. If disposableStack.[[DisposableState]] is disposed, return undefined.
    if is_disposed(vm, o) {
        return Ok(Value::UNDEFINED);
    }
    // 4. Set disposableStack.[[DisposableState]] to disposed.
    set_disposed(vm, o);
    // 5. Return ? DisposeResources(disposableStack.[[DisposeCapability]], NormalCompletion(undefined)).
    dispose_sync(vm, o, None)?;
    Ok(Value::UNDEFINED)
}

/// ### 27.3.3.4 get DisposableStack.prototype.disposed
fn get_disposed(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    get_disposed_with(vm, this, BRAND_SYNC, "DisposableStack.prototype.disposed")
}

fn get_disposed_with(vm: &mut Vm, this: Value, brand: i32, name: &str) -> JsResult<Value> {
    // 1–2. Perform ? RequireInternalSlot(disposableStack, [[DisposableState]]).
    let Some(o) = capability(vm, this, brand) else {
        return Err(vm.type_error(format!("{name} getter called on an incompatible receiver")));
    };
    // 3. If disposableStack.[[DisposableState]] is disposed, return true. 4. Return false.
    Ok(Value::bool(is_disposed(vm, o)))
}

/// ### 27.3.3.5 DisposableStack.prototype.move ( )
fn move_stack(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    move_with(vm, this, BRAND_SYNC, "DisposableStack.prototype.move")
}

fn move_with(vm: &mut Vm, this: Value, brand: i32, name: &str) -> JsResult<Value> {
    // 1–3. RequireInternalSlot; if disposed, throw a ReferenceError exception.
    let o = pending_stack(vm, this, brand, name)?;
    // 4. Let newDisposableStack be ? OrdinaryCreateFromConstructor(%DisposableStack%,
    //    "%DisposableStack.prototype%", …) (its intrinsic prototype: nothing observable).
    let proto = if brand == BRAND_SYNC {
        vm.realm.disposable_stack_prototype
    } else {
        vm.realm.async_disposable_stack_prototype
    };
    let resources = take_resources(vm, o);
    let moved = new_capability(vm, Some(proto), brand);
    // 5–6. Its state is pending; its capability is disposableStack's.
    for (v, m, k) in resources {
        push_resource(vm, moved, v, m, k);
    }
    // 7. Set disposableStack.[[DisposeCapability]] to NewDisposeCapability().
    // 8. Set disposableStack.[[DisposableState]] to disposed.
    set_disposed(vm, o);
    // 9. Return newDisposableStack.
    Ok(Value::object(moved))
}

/// ### 27.3.3.7 DisposableStack.prototype.use ( value )
fn use_resource(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let value = arg(args, 0);
    // 1–3. RequireInternalSlot; if disposed, throw a ReferenceError exception.
    let o = pending_stack(vm, this, BRAND_SYNC, "DisposableStack.prototype.use")?;
    // 4. Perform ? AddDisposableResource(disposableStack.[[DisposeCapability]], value, sync-dispose).
    add_disposable_resource(vm, o, value, false)?;
    // 5. Return value.
    Ok(value)
}

// ---- 27.4 AsyncDisposableStack objects

/// ### 27.4.1.1 AsyncDisposableStack ( )
/// https://tc39.es/ecma262/#sec-asyncdisposablestack
fn async_disposable_stack_constructor(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    let new_target = vm.native_new_target();
    if new_target.is_undefined() {
        return Err(vm.type_error("Constructor AsyncDisposableStack requires 'new'"));
    }
    // 2. Let asyncDisposableStack be ? OrdinaryCreateFromConstructor(NewTarget,
    //    "%AsyncDisposableStack.prototype%", « [[AsyncDisposableState]], [[DisposeCapability]] »).
    let default = vm.realm.async_disposable_stack_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    // 3–5. Pending, with a new dispose capability.
    Ok(Value::object(new_capability(vm, Some(proto), BRAND_ASYNC)))
}

/// ### 27.4.3.1 AsyncDisposableStack.prototype.adopt ( value, onDisposeAsync )
fn async_adopt(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    adopt_with(vm, this, args, BRAND_ASYNC, Kind::AsyncAdopt, "AsyncDisposableStack.prototype.adopt")
}

/// ### 27.4.3.2 AsyncDisposableStack.prototype.defer ( onDisposeAsync )
fn async_defer(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    defer_with(vm, this, args, BRAND_ASYNC, Kind::Async, "AsyncDisposableStack.prototype.defer")
}

/// ### 27.4.3.4 get AsyncDisposableStack.prototype.disposed
fn async_get_disposed(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    get_disposed_with(vm, this, BRAND_ASYNC, "AsyncDisposableStack.prototype.disposed")
}

/// ### 27.4.3.5 AsyncDisposableStack.prototype.move ( )
fn async_move(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    move_with(vm, this, BRAND_ASYNC, "AsyncDisposableStack.prototype.move")
}

/// ### 27.4.3.7 AsyncDisposableStack.prototype.use ( value )
fn async_use(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    let value = arg(args, 0);
    // 1–3. RequireInternalSlot; if disposed, throw a ReferenceError exception.
    let o = pending_stack(vm, this, BRAND_ASYNC, "AsyncDisposableStack.prototype.use")?;
    // 4. Perform ? AddDisposableResource(…, value, async-dispose).
    add_disposable_resource(vm, o, value, true)?;
    // 5. Return value.
    Ok(value)
}

/// ### 27.4.3.3 AsyncDisposableStack.prototype.disposeAsync ( )
/// https://tc39.es/ecma262/#sec-asyncdisposablestack.prototype.disposeAsync
fn dispose_async(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    use crate::builtins::promise;
    // 2. Let promiseCapability be ! NewPromiseCapability(%Promise%).
    let p = promise::new_promise(vm);
    vm.roots.push(Value::object(p));
    // 3. If asyncDisposableStack does not have an [[AsyncDisposableState]] internal slot, then
    let Some(o) = capability(vm, this, BRAND_ASYNC) else {
        // a. Perform ! Call(promiseCapability.[[Reject]], undefined, « a new TypeError »).
        let e = vm.make_error(
            crate::error::ErrorKind::TypeError,
            "AsyncDisposableStack.prototype.disposeAsync called on an incompatible receiver",
        );
        promise::reject_promise(vm, p, e);
        // b. Return promiseCapability.[[Promise]].
        return Ok(Value::object(p));
    };
    // 4. If asyncDisposableStack.[[AsyncDisposableState]] is disposed, then
    if is_disposed(vm, o) {
        // a. Perform ! Call(promiseCapability.[[Resolve]], undefined, « undefined »).
        promise::resolve_promise(vm, p, Value::UNDEFINED)?;
        return Ok(Value::object(p));
    }
    // 5. Set asyncDisposableStack.[[AsyncDisposableState]] to disposed.
    set_disposed(vm, o);
    // 6. Let result be Completion(DisposeResources(asyncDisposableStack.[[DisposeCapability]],
    //    NormalCompletion(undefined))) — run as a chain of promise reactions from a state object;
    // 7–8. its end settles promiseCapability.
    start_async_disposal(vm, p, o, None)?;
    // 9. Return promiseCapability.[[Promise]].
    Ok(Value::object(p))
}

// The state of an asynchronous DisposeResources: [promise, remaining, completion (EMPTY when
// normal), flags (1 needsAwait, 2 hasAwaited), (value, method, kind)…].
const ST_PROMISE: usize = 0;
const ST_REMAINING: usize = 1;
const ST_COMPLETION: usize = 2;
const ST_FLAGS: usize = 3;
const ST_FIRST: usize = 4;
const NEEDS_AWAIT: i32 = 1;
const HAS_AWAITED: i32 = 2;

fn state_slot(vm: &Vm, state: ObjectId, i: usize) -> Value {
    match &vm.heap.obj(state).class {
        Class::Internal(s) => s.get(i).copied().unwrap_or_default(),
        _ => Value::UNDEFINED,
    }
}

fn set_state_slot(vm: &mut Vm, state: ObjectId, i: usize, v: Value) {
    if let Class::Internal(s) = &mut vm.heap.obj_mut(state).class {
        if let Some(slot) = s.get_mut(i) {
            *slot = v;
        }
    }
}

fn state_flags(vm: &Vm, state: ObjectId) -> i32 {
    state_slot(vm, state, ST_FLAGS).as_int().unwrap_or(0)
}

fn set_state_flags(vm: &mut Vm, state: ObjectId, flags: i32) {
    set_state_slot(vm, state, ST_FLAGS, Value::int(flags));
}

/// Record a throw completion in the state (DisposeResources 3.e.iii).
fn state_throw(vm: &mut Vm, state: ObjectId, e: Value) {
    let current = state_slot(vm, state, ST_COMPLETION);
    let completion = if current.is_empty() { None } else { Some(current) };
    let chained = chain_error(vm, e, completion);
    set_state_slot(vm, state, ST_COMPLETION, chained);
}

/// Await(v) inside the asynchronous DisposeResources: resume `state` when `v` settles.
fn state_await(vm: &mut Vm, state: ObjectId, v: Value) -> JsResult<()> {
    use crate::builtins::promise;
    let p = match promise::promise_resolve(vm, v) {
        Ok(p) => p,
        // An abrupt PromiseResolve makes the await throw: record it and go on.
        Err(Throw::Value(e)) => {
            state_throw(vm, state, e);
            return async_dispose_run(vm, state);
        }
        Err(limit) => return Err(limit),
    };
    let on_fulfilled = make_internal(vm, "%AsyncDisposableStack.fulfilled", 1, vec![Value::object(state)]);
    let on_rejected = make_internal(vm, "%AsyncDisposableStack.rejected", 1, vec![Value::object(state)]);
    promise::perform_then_internal(vm, p, Value::object(on_fulfilled), Value::object(on_rejected));
    Ok(())
}

/// Continue the asynchronous DisposeResources from `state` until it awaits or finishes.
fn async_dispose_run(vm: &mut Vm, state: ObjectId) -> JsResult<()> {
    loop {
        let remaining = state_slot(vm, state, ST_REMAINING).as_int().unwrap_or(0);
        let flags = state_flags(vm, state);
        if remaining <= 0 {
            // 4. If needsAwait is true and hasAwaited is false, then Perform ! Await(undefined).
            if flags & NEEDS_AWAIT != 0 && flags & HAS_AWAITED == 0 {
                set_state_flags(vm, state, flags | HAS_AWAITED);
                return state_await(vm, state, Value::UNDEFINED);
            }
            return async_dispose_finish(vm, state);
        }
        // 3. The next resource, in reverse list order.
        let i = remaining as usize - 1;
        let base = ST_FIRST + 3 * i;
        let (value, method) = (state_slot(vm, state, base), state_slot(vm, state, base + 1));
        let kind = Kind::from_value(state_slot(vm, state, base + 2));
        // d. If hint is sync-dispose and needsAwait is true and hasAwaited is false, then
        //    Perform ! Await(undefined); set needsAwait to false (the resource runs after it).
        if !kind.is_async() && flags & NEEDS_AWAIT != 0 && flags & HAS_AWAITED == 0 {
            set_state_flags(vm, state, flags & !NEEDS_AWAIT);
            return state_await(vm, state, Value::UNDEFINED);
        }
        set_state_slot(vm, state, ST_REMAINING, Value::int(remaining - 1));
        // e. If method is not undefined, then
        if method.is_undefined() {
            // f. Else, set needsAwait to true.
            set_state_flags(vm, state, flags | NEEDS_AWAIT);
            continue;
        }
        // i. Let result be Completion(Call(method, value)).
        match call_dispose_method(vm, value, method, kind) {
            Ok(result) => {
                // ii. If result is a normal completion and hint is async-dispose, then
                //     Set result to Completion(Await(result)); set hasAwaited to true.
                if kind.is_async() {
                    set_state_flags(vm, state, flags | HAS_AWAITED);
                    // The @@dispose adapter's promise resolves to undefined: its result is not awaited.
                    let awaited = if kind == Kind::AsyncFromSync { Value::UNDEFINED } else { result };
                    return state_await(vm, state, awaited);
                }
            }
            // iii. If result is a throw completion, chain it.
            Err(Throw::Value(e)) => {
                state_throw(vm, state, e);
                // The @@dispose adapter turns the throw into a rejected promise, which is
                // awaited: one tick, then the throw.
                if kind == Kind::AsyncFromSync {
                    set_state_flags(vm, state, flags | HAS_AWAITED);
                    return state_await(vm, state, Value::UNDEFINED);
                }
            }
            Err(limit) => return Err(limit),
        }
    }
}

/// Steps 7–8 of disposeAsync: settle its promise with DisposeResources' completion.
fn async_dispose_finish(vm: &mut Vm, state: ObjectId) -> JsResult<()> {
    use crate::builtins::promise;
    let Some(p) = state_slot(vm, state, ST_PROMISE).as_object() else { return Ok(()) };
    let completion = state_slot(vm, state, ST_COMPLETION);
    if completion.is_empty() {
        // 8. Perform ! Call(promiseCapability.[[Resolve]], undefined, « result »).
        promise::resolve_promise(vm, p, Value::UNDEFINED)
    } else {
        // 7. IfAbruptRejectPromise(result, promiseCapability).
        promise::reject_promise(vm, p, completion);
        Ok(())
    }
}

fn continuation_state(vm: &Vm) -> Option<ObjectId> {
    vm.native_captures().first().and_then(|v| v.as_object())
}

/// The fulfilled reaction of an await inside disposeAsync.
fn async_step_fulfilled(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    if let Some(state) = continuation_state(vm) {
        vm.roots.push(Value::object(state));
        async_dispose_run(vm, state)?;
    }
    Ok(Value::UNDEFINED)
}

/// The rejected reaction of an await inside disposeAsync: the awaited result is a throw.
fn async_step_rejected(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    if let Some(state) = continuation_state(vm) {
        vm.roots.push(Value::object(state));
        state_throw(vm, state, arg(args, 0));
        async_dispose_run(vm, state)?;
    }
    Ok(Value::UNDEFINED)
}

// ---- 20.5.8 SuppressedError objects

/// ### 20.5.8.1.1 SuppressedError ( error, suppressed, message )
/// https://tc39.es/ecma262/#sec-suppressederror
fn suppressed_error_constructor(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let (error, suppressed, message) = (arg(args, 0), arg(args, 1), arg(args, 2));
    // 1. If NewTarget is undefined, let newTarget be the active function object; else let
    //    newTarget be NewTarget.
    let nt = vm.native_new_target();
    let new_target = if nt.is_undefined() { vm.native_ctx.callee.map_or(Value::UNDEFINED, Value::object) } else { nt };
    // 2. Let O be ? OrdinaryCreateFromConstructor(newTarget, "%SuppressedError.prototype%",
    //    « [[ErrorData]] »).
    let default = vm.realm.suppressed_error_prototype;
    let proto = prototype_from_constructor(vm, new_target, default)?;
    let o = vm.heap.alloc_object(Object::new(Some(proto), Class::Error));
    vm.roots.push(Value::object(o));
    // 3. If message is not undefined, then
    if !message.is_undefined() {
        // a. Let messageString be ? ToString(message).
        let message_string = to_string(vm, message)?;
        // b. Perform CreateNonEnumerableDataPropertyOrThrow(O, "message", messageString).
        vm.define_builtin(o, PropertyKey::Atom(atom::message), Value::string(message_string), PropFlags::HIDDEN);
    }
    // 4. Perform CreateNonEnumerableDataPropertyOrThrow(O, "error", error).
    let ek = vm.key("error");
    vm.define_builtin(o, ek, error, PropFlags::HIDDEN);
    // 5. Perform CreateNonEnumerableDataPropertyOrThrow(O, "suppressed", suppressed).
    let sk = vm.key("suppressed");
    vm.define_builtin(o, sk, suppressed, PropFlags::HIDDEN);
    crate::builtins::error::attach_stack_below(vm, o, Some(new_target));
    // 6. Return O.
    Ok(Value::object(o))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::heap::object::PromiseState;
    use crate::runtime::property::get;
    use crate::vm::VmOptions;

    fn global(vm: &mut Vm, name: &str) -> Value {
        let g = vm.global;
        let key = vm.key(name);
        get(vm, g, key, Value::object(g)).unwrap()
    }

    fn text(vm: &mut Vm, v: Value) -> String {
        crate::runtime::convert::to_rust_string(vm, v).unwrap()
    }

    #[test]
    fn using_scope_disposes_in_reverse_and_chains_errors() {
        let mut vm = Vm::new(VmOptions::default());
        vm.eval_script(
            "var log = []; var a = { [Symbol.dispose]() { log.push('a'); throw 1; } };
             var b = { [Symbol.dispose]() { log.push('b'); throw 2; } };",
            "t.js",
        )
        .unwrap();
        let stack = new_disposable_stack(&mut vm);
        let (a, b) = (global(&mut vm, "a"), global(&mut vm, "b"));
        add_resource(&mut vm, stack, a, 0).unwrap();
        add_resource(&mut vm, stack, Value::NULL, 0).unwrap();
        add_resource(&mut vm, stack, b, 0).unwrap();
        assert!(add_resource(&mut vm, stack, Value::int(1), 0).is_err());
        let empty = vm.new_object();
        assert!(add_resource(&mut vm, stack, empty, 0).is_err());
        let Err(Throw::Value(e)) = dispose_all(&mut vm, stack) else { panic!("expected a throw") };
        let eo = e.as_object().unwrap();
        let (ek, sk) = (vm.key("error"), vm.key("suppressed"));
        assert_eq!(get(&mut vm, eo, ek, e).unwrap(), Value::int(1));
        assert_eq!(get(&mut vm, eo, sk, e).unwrap(), Value::int(2));
        let log = global(&mut vm, "log");
        assert_eq!(text(&mut vm, log), "b,a");
        // The scope's own throw is suppressed by a disposal error.
        let stack = new_disposable_stack(&mut vm);
        add_resource(&mut vm, stack, a, 0).unwrap();
        let Err(Throw::Value(e)) = dispose_resources(&mut vm, stack, Some(Value::int(9))) else { panic!() };
        let eo = e.as_object().unwrap();
        assert_eq!(get(&mut vm, eo, sk, e).unwrap(), Value::int(9));
    }

    #[test]
    fn async_disposal_awaits_in_order() {
        let mut vm = Vm::new(VmOptions::default());
        vm.eval_script(
            "var log = [];
             var x = { async [Symbol.asyncDispose]() { await null; log.push('x'); } };
             var y = { [Symbol.dispose]() { log.push('y'); } };",
            "t.js",
        )
        .unwrap();
        let stack = new_disposable_stack(&mut vm);
        let (x, y) = (global(&mut vm, "x"), global(&mut vm, "y"));
        add_resource(&mut vm, stack, x, 1).unwrap();
        add_resource(&mut vm, stack, y, 1).unwrap();
        let p = dispose_resources_async(&mut vm, stack, None).unwrap();
        vm.run_jobs().unwrap();
        let state = crate::builtins::promise::promise_state(&vm, p.as_object().unwrap()).map(|s| s.0);
        assert_eq!(state, Some(PromiseState::Fulfilled));
        let log = global(&mut vm, "log");
        assert_eq!(text(&mut vm, log), "y,x");
    }
}
