//! Iterator helpers (ECMA-262 §27.1.2, §27.1.4): %IteratorHelperPrototype% and the lazy
//! methods that make helper objects — `map`, `filter`, `take`, `drop`, `flatMap`, `chunks`,
//! `windows`, `Iterator.concat`, `Iterator.zip` and `Iterator.zipKeyed`.
//! https://tc39.es/ecma262/#sec-iterator-helper-objects
//!
//! The spec writes each helper as an abstract closure run as a generator. Here a helper is a
//! plain-data state machine in `IteratorState::Helper`: `next` runs the closure from its last
//! Yield to the next one (`resume`), and `return` does what the closure does when that Yield
//! completes abruptly (`close`). The fields, by kind:
//!
//! | kind           | underlying, next          | fun            | counter    | extra                          |
//! |----------------|---------------------------|----------------|------------|--------------------------------|
//! | Wrap           | the [[Iterated]] record   | –              | –          | –                              |
//! | Map, Filter    | iterated                  | the callback   | counter    | –                              |
//! | Take, Drop     | iterated                  | –              | remaining  | –                              |
//! | FlatMap        | iterated                  | mapper         | counter    | [inner, innerNext] while alive |
//! | Chunks         | iterated¹                 | –              | chunkSize  | buffer                         |
//! | Windows        | iterated¹                 | allow-partial? | windowSize | buffer                         |
//! | Concat         | the current inner record  | –              | next index | [openMethod, iterable]…        |
//! | Zip, ZipKeyed  | –                         | mode           | iterCount  | [iter, next]…, padding…, keys… |
//!
//! ¹ undefined once the underlying iterator is exhausted and only the final Yield is left.
//! A zip iterator that finished in "longest" mode is null in its [iter, next] slot.
//!
//! The generator state lives in the high bits of `kind` (`STARTED` = suspended-yield,
//! `EXECUTING`); neither bit means suspended-start; `done` is completed.

use crate::atoms::PropertyKey;
use crate::builtins::iterator::MAX_SAFE_INTEGER;
use crate::builtins::map::define_to_string_tag;
use crate::builtins::{arg, install, NativeDef};
use crate::error::{JsResult, Throw};
use crate::heap::object::{Class, IteratorState, Object};
use crate::native;
use crate::runtime::call::{call, is_callable};
use crate::runtime::convert::{integer_part, key_to_value, to_boolean, to_number, to_property_key};
use crate::runtime::iterator::{
    close_on_throw, create_iter_result_object, get_iterator, get_iterator_direct, get_iterator_flattenable,
    if_abrupt_close_iterator, iterator_close_all, iterator_close_normal, iterator_step, iterator_step_result,
    IteratorKind, IteratorRecord,
};
use crate::runtime::property::{create_data_property_or_throw, get, get_method, get_own_property, own_property_keys};
use crate::string::JsStr;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

pub(crate) const NATIVES: &[NativeDef] = &[
    native!("Iterator.concat", 0, concat),
    native!("Iterator.zip", 1, zip),
    native!("Iterator.zipKeyed", 1, zip_keyed),
    native!("Iterator.prototype.map", 1, map),
    native!("Iterator.prototype.filter", 1, filter),
    native!("Iterator.prototype.take", 1, take),
    native!("Iterator.prototype.drop", 1, drop_),
    native!("Iterator.prototype.flatMap", 1, flat_map),
    native!("Iterator.prototype.chunks", 1, chunks),
    native!("Iterator.prototype.windows", 1, windows),
    native!("%IteratorHelperPrototype%.next", 0, helper_next),
    native!("%IteratorHelperPrototype%.return", 0, helper_return),
];

/// Called by `iterator::init` with %Iterator%.
pub(crate) fn init(vm: &mut Vm, iterator_constructor: ObjectId) {
    install(vm, iterator_constructor, "Iterator", NATIVES);
    let ip = vm.realm.iterator_prototype;
    install(vm, ip, "Iterator.prototype", NATIVES);
    let hp = vm.realm.iterator_helper_prototype;
    install(vm, hp, "%IteratorHelperPrototype%", NATIVES);
    // 27.1.2.1.3 %IteratorHelperPrototype% [ %Symbol.toStringTag% ] is "Iterator Helper".
    define_to_string_tag(vm, hp, "Iterator Helper");
}

// ---- the helper object

/// What a `IteratorState::Helper` object is (the low bits of its `kind` byte).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum HelperKind {
    /// A %WrapForValidIteratorPrototype% object (Iterator.from).
    Wrap,
    Map,
    Filter,
    Take,
    Drop,
    FlatMap,
    Chunks,
    Windows,
    Concat,
    Zip,
    ZipKeyed,
}

const KIND_MASK: u8 = 0x1f;
/// The closure has run and sits at a Yield (suspended-yield).
const STARTED: u8 = 0x40;
/// The closure is running (executing): `next` and `return` throw.
const EXECUTING: u8 = 0x80;

impl HelperKind {
    const ALL: [HelperKind; 11] = [
        HelperKind::Wrap,
        HelperKind::Map,
        HelperKind::Filter,
        HelperKind::Take,
        HelperKind::Drop,
        HelperKind::FlatMap,
        HelperKind::Chunks,
        HelperKind::Windows,
        HelperKind::Concat,
        HelperKind::Zip,
        HelperKind::ZipKeyed,
    ];

    /// The kind named by a `kind` byte.
    pub(crate) fn of(byte: u8) -> Option<HelperKind> {
        HelperKind::ALL.get((byte & KIND_MASK) as usize).copied()
    }
}

/// A new helper (or, for `Wrap`, wrapper) object in suspended-start.
pub(crate) fn create_helper(
    vm: &mut Vm,
    kind: HelperKind,
    underlying: Value,
    next: Value,
    fun: Value,
    counter: f64,
    extra: Vec<Value>,
) -> Value {
    let proto = match kind {
        HelperKind::Wrap => vm.realm.wrap_for_valid_iterator_prototype,
        _ => vm.realm.iterator_helper_prototype,
    };
    let state = IteratorState::Helper { kind: kind as u8, underlying, next, fun, counter, extra, done: false };
    Value::object(vm.heap.alloc_object(Object::new(Some(proto), Class::Iterator(Box::new(state)))))
}

/// A copy of a helper's fields other than `extra`.
#[derive(Clone, Copy)]
struct Fields {
    kind: HelperKind,
    flags: u8,
    underlying: Value,
    next: Value,
    fun: Value,
    counter: f64,
    done: bool,
}

fn fields(vm: &Vm, o: ObjectId) -> Option<Fields> {
    match &vm.heap.obj(o).class {
        Class::Iterator(st) => match **st {
            IteratorState::Helper { kind, underlying, next, fun, counter, done, .. } => Some(Fields {
                kind: HelperKind::of(kind)?,
                flags: kind & !KIND_MASK,
                underlying,
                next,
                fun,
                counter,
                done,
            }),
            _ => None,
        },
        _ => None,
    }
}

fn state_mut(vm: &mut Vm, o: ObjectId) -> Option<&mut IteratorState> {
    match &mut vm.heap.obj_mut(o).class {
        Class::Iterator(st) if matches!(**st, IteratorState::Helper { .. }) => Some(&mut **st),
        _ => None,
    }
}

fn set_flags(vm: &mut Vm, o: ObjectId, flags: u8) {
    if let Some(IteratorState::Helper { kind, .. }) = state_mut(vm, o) {
        *kind = (*kind & KIND_MASK) | flags;
    }
}

fn set_counter(vm: &mut Vm, o: ObjectId, value: f64) {
    if let Some(IteratorState::Helper { counter, .. }) = state_mut(vm, o) {
        *counter = value;
    }
}

fn set_underlying(vm: &mut Vm, o: ObjectId, iterator: Value, next_method: Value) {
    if let Some(IteratorState::Helper { underlying, next, .. }) = state_mut(vm, o) {
        *underlying = iterator;
        *next = next_method;
    }
}

fn extra(vm: &Vm, o: ObjectId) -> Vec<Value> {
    match &vm.heap.obj(o).class {
        Class::Iterator(st) => match &**st {
            IteratorState::Helper { extra, .. } => extra.clone(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

fn extra_at(vm: &Vm, o: ObjectId, i: usize) -> Value {
    match &vm.heap.obj(o).class {
        Class::Iterator(st) => match &**st {
            IteratorState::Helper { extra, .. } => extra.get(i).copied().unwrap_or_default(),
            _ => Value::UNDEFINED,
        },
        _ => Value::UNDEFINED,
    }
}

/// Run `f` on a helper's `extra` list.
fn with_extra<R>(vm: &mut Vm, o: ObjectId, f: impl FnOnce(&mut Vec<Value>) -> R) -> Option<R> {
    match state_mut(vm, o) {
        Some(IteratorState::Helper { extra, .. }) => Some(f(extra)),
        _ => None,
    }
}

/// The generator is completed: drop the state it no longer needs.
fn finish(vm: &mut Vm, o: ObjectId) {
    if let Some(IteratorState::Helper { kind, underlying, next, fun, extra, done, .. }) = state_mut(vm, o) {
        *kind &= KIND_MASK;
        *done = true;
        *underlying = Value::UNDEFINED;
        *next = Value::UNDEFINED;
        *fun = Value::UNDEFINED;
        *extra = Vec::new();
    }
}

/// GeneratorValidate's brand check: `this` is an Iterator Helper (it has [[UnderlyingIterators]]).
fn this_helper(vm: &mut Vm, this: Value, method: &str) -> JsResult<(ObjectId, Fields)> {
    let found = this.as_object().and_then(|o| fields(vm, o).map(|f| (o, f)));
    match found {
        Some((o, f)) if f.kind != HelperKind::Wrap => Ok((o, f)),
        _ => Err(vm.type_error(format!("%IteratorHelperPrototype%.{method} called on an incompatible receiver"))),
    }
}

// ---- 27.1.2.1 %IteratorHelperPrototype%

/// ### 27.1.2.1.1 %IteratorHelperPrototype%.next ( )
/// https://tc39.es/ecma262/#sec-%iteratorhelperprototype%.next
fn helper_next(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Return ? GeneratorResume(this value, undefined, "Iterator Helper").
    // GeneratorResume 1. Let state be ? GeneratorValidate(generator, generatorBrand).
    let (o, f) = this_helper(vm, this, "next")?;
    // GeneratorValidate 6. If state is executing, throw a TypeError exception.
    if f.flags & EXECUTING != 0 {
        return Err(vm.type_error("Iterator helper is already running"));
    }
    // GeneratorResume 2. If state is completed, return CreateIteratorResultObject(undefined, true).
    if f.done {
        return Ok(create_iter_result_object(vm, Value::UNDEFINED, true));
    }
    // GeneratorResume 3–9: run the closure (state executing) to its next Yield or its end.
    vm.roots.push(this);
    set_flags(vm, o, EXECUTING);
    match resume(vm, o, f) {
        Ok(Some(value)) => {
            set_flags(vm, o, STARTED);
            Ok(create_iter_result_object(vm, value, false))
        }
        Ok(None) => {
            finish(vm, o);
            Ok(create_iter_result_object(vm, Value::UNDEFINED, true))
        }
        Err(e) => {
            finish(vm, o);
            Err(e)
        }
    }
}

/// ### 27.1.2.1.2 %IteratorHelperPrototype%.return ( )
/// https://tc39.es/ecma262/#sec-%iteratorhelperprototype%.return
fn helper_return(vm: &mut Vm, this: Value, _args: &[Value]) -> JsResult<Value> {
    // 1. Let O be this value.
    // 2. Perform ? RequireInternalSlot(O, [[UnderlyingIterators]]).
    // 3. Assert: O has a [[GeneratorState]] slot.
    let (o, f) = this_helper(vm, this, "return")?;
    vm.roots.push(this);
    // 4. If O.[[GeneratorState]] is suspended-start, then
    if !f.done && f.flags & (STARTED | EXECUTING) == 0 {
        let underlying = underlying_iterators(vm, o, f);
        vm.roots.extend_from_slice(&underlying);
        // a. Set O.[[GeneratorState]] to completed.
        // b. NOTE: … Any execution state associated with O can be discarded at this point.
        finish(vm, o);
        // c. Perform ? IteratorCloseAll(O.[[UnderlyingIterators]], ReturnCompletion(undefined)).
        iterator_close_all(vm, &underlying, Ok(()))?;
        // d. Return CreateIteratorResultObject(undefined, true).
        return Ok(create_iter_result_object(vm, Value::UNDEFINED, true));
    }
    // 5. Let C be ReturnCompletion(undefined).
    // 6. Return ? GeneratorResumeAbrupt(O, C, "Iterator Helper").
    // GeneratorResumeAbrupt 1. Let state be ? GeneratorValidate(generator, generatorBrand).
    // GeneratorValidate 6. If state is executing, throw a TypeError exception.
    if f.flags & EXECUTING != 0 {
        return Err(vm.type_error("Iterator helper is already running"));
    }
    // GeneratorResumeAbrupt 3. If state is completed, then
    //    a. If abruptCompletion is a return completion, then
    //       i. Return CreateIteratorResultObject(abruptCompletion.[[Value]], true).
    if f.done {
        return Ok(create_iter_result_object(vm, Value::UNDEFINED, true));
    }
    // GeneratorResumeAbrupt 4–10: resume the closure at its Yield with the return completion;
    // every closure then closes what it holds open and returns.
    set_flags(vm, o, EXECUTING);
    let r = close(vm, o, f);
    finish(vm, o);
    r?;
    Ok(create_iter_result_object(vm, Value::UNDEFINED, true))
}

/// O.[[UnderlyingIterators]]: what `return` closes in suspended-start (and, for all but
/// flatMap, what the closure closes when a Yield completes abruptly).
fn underlying_iterators(vm: &Vm, o: ObjectId, f: Fields) -> Vec<Value> {
    match f.kind {
        HelperKind::Zip | HelperKind::ZipKeyed => zip_open_iters(vm, o, f.counter as usize, None),
        _ if f.underlying.is_object() => vec![f.underlying],
        _ => Vec::new(),
    }
}

/// Run the closure of a helper from its last Yield to the next: `Some(value)` is a Yield,
/// `None` the closure returning.
fn resume(vm: &mut Vm, o: ObjectId, f: Fields) -> JsResult<Option<Value>> {
    match f.kind {
        HelperKind::Map => map_step(vm, o, f),
        HelperKind::Filter => filter_step(vm, o, f),
        HelperKind::Take => take_step(vm, o, f),
        HelperKind::Drop => drop_step(vm, o, f),
        HelperKind::FlatMap => flat_map_step(vm, o, f),
        HelperKind::Chunks => chunks_step(vm, o, f),
        HelperKind::Windows => windows_step(vm, o, f),
        HelperKind::Concat => concat_step(vm, o, f),
        HelperKind::Zip | HelperKind::ZipKeyed => zip_step(vm, o, f),
        HelperKind::Wrap => Ok(None),
    }
}

/// The closure's answer to an abrupt (return) completion of its Yield.
fn close(vm: &mut Vm, o: ObjectId, f: Fields) -> JsResult<()> {
    if f.kind == HelperKind::FlatMap {
        if let [inner, _] = extra(vm, o)[..] {
            // 27.1.4.6 step 6.b.viii.4.b. If completion is an abrupt completion, then
            //   i. Let backupCompletion be Completion(IteratorClose(innerIterator, completion)).
            let backup = iterator_close_normal(vm, inner);
            //   ii. IfAbruptCloseIterator(backupCompletion, iterated).
            if_abrupt_close_iterator(vm, backup, f.underlying)?;
            //   iii. Return ? IteratorClose(iterated, completion).
            return iterator_close_normal(vm, f.underlying);
        }
    }
    // Every other closure: IfAbruptCloseIterator(completion, iterated), or for zip
    // IteratorCloseAll(openIters, completion), or for concat IteratorClose(iteratorRecord, completion).
    let open = underlying_iterators(vm, o, f);
    iterator_close_all(vm, &open, Ok(()))
}

// ---- 27.1.4 the lazy %Iterator.prototype% methods

/// Steps 1–5 of map, filter and flatMap, then a new helper: O must be an object; a
/// non-callable `f` closes O; then ? GetIteratorDirect(O).
fn callback_helper(vm: &mut Vm, this: Value, f: Value, kind: HelperKind, method: &str) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, throw a TypeError exception.
    if !this.is_object() {
        return Err(vm.type_error(format!("Iterator.prototype.{method} called on a non-object")));
    }
    // 3. Let iterated be the Iterator Record { [[Iterator]]: O, [[NextMethod]]: undefined, [[Done]]: false }.
    // 4. If IsCallable(f) is false, then
    if !is_callable(vm, f) {
        // a. Let error be ThrowCompletion(a newly created TypeError object).
        // b. Return ? IteratorClose(iterated, error).
        let e = vm.type_error(format!("Iterator.prototype.{method}: argument is not a function"));
        return close_on_throw(vm, this, e);
    }
    // 5. Set iterated to ? GetIteratorDirect(O).
    let IteratorRecord { iterator: iterated, next_method: next, .. } = get_iterator_direct(vm, this)?;
    // 6. Let closure be a new Abstract Closure … (the kind's step function below).
    // 7. Let result be CreateIteratorFromClosure(closure, "Iterator Helper", %IteratorHelperPrototype%, « [[UnderlyingIterators]] »).
    // 8. Set result.[[UnderlyingIterators]] to « iterated ».
    // 9. Return result.
    Ok(create_helper(vm, kind, iterated, next, f, 0.0, Vec::new()))
}

/// ### 27.1.4.8 Iterator.prototype.map ( mapper )
/// https://tc39.es/ecma262/#sec-iterator.prototype.map
fn map(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    callback_helper(vm, this, arg(args, 0), HelperKind::Map, "map")
}

/// Iterator.prototype.map step 6: the closure, from one Yield to the next.
fn map_step(vm: &mut Vm, o: ObjectId, f: Fields) -> JsResult<Option<Value>> {
    // b. Repeat,
    //   i. Let value be ? IteratorStepValue(iterated).
    //   ii. If value is done, return ReturnCompletion(undefined).
    let Some(value) = iterator_step(vm, &IteratorRecord::new(f.underlying, f.next))? else { return Ok(None) };
    //   iii. Let mapped be Completion(Call(mapper, undefined, « value, 𝔽(counter) »)).
    let mapped = call(vm, f.fun, Value::UNDEFINED, &[value, Value::number(f.counter)]);
    //   iv. IfAbruptCloseIterator(mapped, iterated).
    let mapped = if_abrupt_close_iterator(vm, mapped, f.underlying)?;
    //   vii. Set counter to counter + 1. (Before the Yield: only the mapper sees counter.)
    set_counter(vm, o, f.counter + 1.0);
    //   v. Let completion be Completion(Yield(mapped)).
    //   vi. IfAbruptCloseIterator(completion, iterated). (`close`)
    Ok(Some(mapped))
}

/// ### 27.1.4.4 Iterator.prototype.filter ( predicate )
/// https://tc39.es/ecma262/#sec-iterator.prototype.filter
fn filter(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    callback_helper(vm, this, arg(args, 0), HelperKind::Filter, "filter")
}

/// Iterator.prototype.filter step 6: the closure, from one Yield to the next.
fn filter_step(vm: &mut Vm, o: ObjectId, f: Fields) -> JsResult<Option<Value>> {
    let mut counter = f.counter;
    // b. Repeat,
    loop {
        let mark = vm.roots.len();
        // i. Let value be ? IteratorStepValue(iterated).
        // ii. If value is done, return ReturnCompletion(undefined).
        let Some(value) = iterator_step(vm, &IteratorRecord::new(f.underlying, f.next))? else { return Ok(None) };
        vm.roots.push(value);
        // iii. Let selected be Completion(Call(predicate, undefined, « value, 𝔽(counter) »)).
        let selected = call(vm, f.fun, Value::UNDEFINED, &[value, Value::number(counter)]);
        // iv. IfAbruptCloseIterator(selected, iterated).
        let selected = if_abrupt_close_iterator(vm, selected, f.underlying)?;
        // vi. Set counter to counter + 1.
        counter += 1.0;
        set_counter(vm, o, counter);
        // v. If ToBoolean(selected) is true, then
        //    1. Let completion be Completion(Yield(value)).
        //    2. IfAbruptCloseIterator(completion, iterated). (`close`)
        if to_boolean(vm, selected) {
            return Ok(Some(value));
        }
        vm.roots.truncate(mark);
    }
}

/// Steps 4–9 of take and drop: the limit as an integer or +∞; a bad limit closes O.
fn integer_limit(vm: &mut Vm, this: Value, limit: Value) -> JsResult<f64> {
    // 4. Let numLimit be Completion(ToNumber(limit)).
    // 5. IfAbruptCloseIterator(numLimit, iterated).
    let num_limit = to_number(vm, limit);
    let num_limit = if_abrupt_close_iterator(vm, num_limit, this)?;
    // 6. If numLimit is NaN, then
    //    a. Let error be ThrowCompletion(a newly created RangeError object).
    //    b. Return ? IteratorClose(iterated, error).
    // 7. If numLimit is finite and numLimit > 𝔽(2**53 - 1), then (the same).
    if num_limit.is_nan() || (num_limit.is_finite() && num_limit > MAX_SAFE_INTEGER) {
        let e = vm.range_error(format!("{} must be a non-negative safe integer or Infinity", number_text(num_limit)));
        return close_on_throw(vm, this, e);
    }
    // 8. Let integerLimit be ! ToIntegerOrInfinity(numLimit).
    let integer_limit = integer_part(num_limit);
    // 9. If integerLimit < 0, then (the same).
    if integer_limit < 0.0 {
        let e = vm.range_error(format!("{} must be a non-negative safe integer or Infinity", number_text(num_limit)));
        return close_on_throw(vm, this, e);
    }
    Ok(integer_limit)
}

fn number_text(n: f64) -> String {
    crate::runtime::convert::number_to_string(n)
}

/// ### 27.1.4.11 Iterator.prototype.take ( limit )
/// https://tc39.es/ecma262/#sec-iterator.prototype.take
fn take(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, throw a TypeError exception.
    if !this.is_object() {
        return Err(vm.type_error("Iterator.prototype.take called on a non-object"));
    }
    // 3. Let iterated be the Iterator Record { [[Iterator]]: O, [[NextMethod]]: undefined, [[Done]]: false }.
    // 4–9. (integerLimit, closing O when the limit is bad)
    let limit = integer_limit(vm, this, arg(args, 0))?;
    // 10. Set iterated to ? GetIteratorDirect(O).
    let IteratorRecord { iterator: iterated, next_method: next, .. } = get_iterator_direct(vm, this)?;
    // 11. Let closure be … (take_step).
    // 12–14. CreateIteratorFromClosure with [[UnderlyingIterators]] « iterated ».
    Ok(create_helper(vm, HelperKind::Take, iterated, next, Value::UNDEFINED, limit, Vec::new()))
}

/// Iterator.prototype.take step 11: the closure, from one Yield to the next.
fn take_step(vm: &mut Vm, o: ObjectId, f: Fields) -> JsResult<Option<Value>> {
    // a. Let remaining be integerLimit.
    let remaining = f.counter;
    // b. Repeat,
    //   i. If remaining = 0, then
    if remaining == 0.0 {
        //  1. Return ? IteratorClose(iterated, ReturnCompletion(undefined)).
        iterator_close_normal(vm, f.underlying)?;
        return Ok(None);
    }
    //   ii. If remaining ≠ +∞, then
    if remaining != f64::INFINITY {
        //  1. Set remaining to remaining - 1.
        set_counter(vm, o, remaining - 1.0);
    }
    //   iii. Let value be ? IteratorStepValue(iterated).
    //   iv. If value is done, return ReturnCompletion(undefined).
    let Some(value) = iterator_step(vm, &IteratorRecord::new(f.underlying, f.next))? else { return Ok(None) };
    //   v. Let completion be Completion(Yield(value)).
    //   vi. IfAbruptCloseIterator(completion, iterated). (`close`)
    Ok(Some(value))
}

/// ### 27.1.4.2 Iterator.prototype.drop ( limit )
/// https://tc39.es/ecma262/#sec-iterator.prototype.drop
fn drop_(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, throw a TypeError exception.
    if !this.is_object() {
        return Err(vm.type_error("Iterator.prototype.drop called on a non-object"));
    }
    // 3. Let iterated be the Iterator Record { [[Iterator]]: O, [[NextMethod]]: undefined, [[Done]]: false }.
    // 4–9. (integerLimit, closing O when the limit is bad)
    let limit = integer_limit(vm, this, arg(args, 0))?;
    // 10. Set iterated to ? GetIteratorDirect(O).
    let IteratorRecord { iterator: iterated, next_method: next, .. } = get_iterator_direct(vm, this)?;
    // 11. Let closure be … (drop_step).
    // 12–14. CreateIteratorFromClosure with [[UnderlyingIterators]] « iterated ».
    Ok(create_helper(vm, HelperKind::Drop, iterated, next, Value::UNDEFINED, limit, Vec::new()))
}

/// Iterator.prototype.drop step 11: the closure, from one Yield to the next.
fn drop_step(vm: &mut Vm, o: ObjectId, f: Fields) -> JsResult<Option<Value>> {
    // a. Let remaining be integerLimit.
    let mut remaining = f.counter;
    // b. Repeat, while remaining > 0,
    while remaining > 0.0 {
        // i. If remaining ≠ +∞, then
        if remaining != f64::INFINITY {
            // 1. Set remaining to remaining - 1.
            remaining -= 1.0;
            set_counter(vm, o, remaining);
        }
        // ii. Let next be ? IteratorStep(iterated).
        // iii. If next is done, return ReturnCompletion(undefined).
        if !iterator_step_result(vm, &IteratorRecord::new(f.underlying, f.next))? {
            return Ok(None);
        }
    }
    // c. Repeat,
    //   i. Let value be ? IteratorStepValue(iterated).
    //   ii. If value is done, return ReturnCompletion(undefined).
    let Some(value) = iterator_step(vm, &IteratorRecord::new(f.underlying, f.next))? else { return Ok(None) };
    //   iii. Let completion be Completion(Yield(value)).
    //   iv. IfAbruptCloseIterator(completion, iterated). (`close`)
    Ok(Some(value))
}

/// ### 27.1.4.6 Iterator.prototype.flatMap ( mapper )
/// https://tc39.es/ecma262/#sec-iterator.prototype.flatmap
fn flat_map(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    callback_helper(vm, this, arg(args, 0), HelperKind::FlatMap, "flatMap")
}

/// Iterator.prototype.flatMap step 6: the closure, from one Yield to the next. While an
/// inner iterator is alive it sits in `extra`.
fn flat_map_step(vm: &mut Vm, o: ObjectId, f: Fields) -> JsResult<Option<Value>> {
    let mut counter = f.counter;
    // b. Repeat,
    loop {
        let mark = vm.roots.len();
        // viii. Repeat, while innerAlive is true,
        if let [inner, inner_next] = extra(vm, o)[..] {
            // 1. Let innerValue be Completion(IteratorStepValue(innerIterator)).
            let inner_value = iterator_step(vm, &IteratorRecord::new(inner, inner_next));
            // 2. IfAbruptCloseIterator(innerValue, iterated).
            match if_abrupt_close_iterator(vm, inner_value, f.underlying)? {
                // 4. Else,
                //    a. Let completion be Completion(Yield(innerValue)).
                //    b. If completion is an abrupt completion, then … (`close`)
                Some(v) => return Ok(Some(v)),
                // 3. If innerValue is done, then
                //    a. Set innerAlive to false.
                None => {
                    with_extra(vm, o, Vec::clear);
                    // ix. Set counter to counter + 1.
                    counter += 1.0;
                    set_counter(vm, o, counter);
                }
            }
            continue;
        }
        // i. Let value be ? IteratorStepValue(iterated).
        // ii. If value is done, return ReturnCompletion(undefined).
        let Some(value) = iterator_step(vm, &IteratorRecord::new(f.underlying, f.next))? else { return Ok(None) };
        // iii. Let mapped be Completion(Call(mapper, undefined, « value, 𝔽(counter) »)).
        let mapped = call(vm, f.fun, Value::UNDEFINED, &[value, Value::number(counter)]);
        // iv. IfAbruptCloseIterator(mapped, iterated).
        let mapped = if_abrupt_close_iterator(vm, mapped, f.underlying)?;
        vm.roots.push(mapped);
        // v. Let innerIterator be Completion(GetIteratorFlattenable(mapped, reject-primitives)).
        let inner = get_iterator_flattenable(vm, mapped, false);
        // vi. IfAbruptCloseIterator(innerIterator, iterated).
        let IteratorRecord { iterator: inner, next_method: inner_next, .. } =
            if_abrupt_close_iterator(vm, inner, f.underlying)?;
        // vii. Let innerAlive be true.
        with_extra(vm, o, |e| *e = vec![inner, inner_next]);
        vm.roots.truncate(mark);
    }
}

/// Steps 4–6 of chunks and windows: the size must be an integral Number in [1, 2**32 - 1];
/// a bad one closes O.
fn chunk_size(vm: &mut Vm, this: Value, size: Value, what: &str) -> JsResult<f64> {
    // 4. If size is not a Number, throw a TypeError exception (closing iterated).
    // 5. If size is not an integral Number, throw a TypeError exception (closing iterated).
    let n = match size.as_number() {
        Some(n) if n.is_finite() && n.trunc() == n => n,
        _ => {
            let e = vm.type_error(format!("{what} must be an integral number"));
            return close_on_throw(vm, this, e);
        }
    };
    // 6. If size is not in the inclusive interval from 1𝔽 to 𝔽(2**32 - 1), then
    //    a. Let error be ThrowCompletion(a newly created RangeError object).
    //    b. Return ? IteratorClose(iterated, error).
    if !(1.0..=4294967295.0).contains(&n) {
        let e = vm.range_error(format!("{what} must be between 1 and 2**32 - 1"));
        return close_on_throw(vm, this, e);
    }
    Ok(n)
}

/// ### Iterator.prototype.chunks ( chunkSize )
/// https://tc39.es/proposal-iterator-chunking/ (Stage 2.7)
fn chunks(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, throw a TypeError exception.
    if !this.is_object() {
        return Err(vm.type_error("Iterator.prototype.chunks called on a non-object"));
    }
    // 3. Let iterated be the Iterator Record { [[Iterator]]: O, [[NextMethod]]: undefined, [[Done]]: false }.
    // 4–6. (chunkSize, closing O when bad)
    let size = chunk_size(vm, this, arg(args, 0), "chunkSize")?;
    // 7. Set iterated to ? GetIteratorDirect(O).
    let IteratorRecord { iterator: iterated, next_method: next, .. } = get_iterator_direct(vm, this)?;
    // 8. Let closure be … (chunks_step).
    // 9–11. CreateIteratorFromClosure with [[UnderlyingIterators]] « iterated ».
    Ok(create_helper(vm, HelperKind::Chunks, iterated, next, Value::UNDEFINED, size, Vec::new()))
}

/// Iterator.prototype.chunks step 8: the closure, from one Yield to the next.
fn chunks_step(vm: &mut Vm, o: ObjectId, f: Fields) -> JsResult<Option<Value>> {
    // After the final partial chunk: a.ii.2. Return ReturnCompletion(undefined).
    if !f.underlying.is_object() {
        return Ok(None);
    }
    let size = f.counter as usize;
    // a. Let buffer be a new empty List. (`extra`)
    // b. Repeat,
    loop {
        // i. Let value be ? IteratorStepValue(iterated).
        let value = iterator_step(vm, &IteratorRecord::new(f.underlying, f.next))?;
        // ii. If value is done, then
        let Some(value) = value else {
            let buffer = with_extra(vm, o, std::mem::take).unwrap_or_default();
            // 1. If buffer is not empty, then
            if buffer.is_empty() {
                // 2. Return ReturnCompletion(undefined).
                return Ok(None);
            }
            //    a. Perform Completion(Yield(CreateArrayFromList(buffer))).
            set_underlying(vm, o, Value::UNDEFINED, Value::UNDEFINED);
            return Ok(Some(vm.new_array(buffer)));
        };
        // iii. Append value to buffer.
        let len = with_extra(vm, o, |b| {
            b.push(value);
            b.len()
        })
        .unwrap_or_default();
        // iv. If the number of elements in buffer is ℝ(chunkSize), then
        if len >= size {
            // 1. Let completion be Completion(Yield(CreateArrayFromList(buffer))).
            // 2. IfAbruptCloseIterator(completion, iterated). (`close`)
            // 3. Set buffer to a new empty List.
            let buffer = with_extra(vm, o, std::mem::take).unwrap_or_default();
            return Ok(Some(vm.new_array(buffer)));
        }
        vm.check_heap()?;
    }
}

/// ### Iterator.prototype.windows ( windowSize [ , undersized ] )
/// https://tc39.es/proposal-iterator-chunking/ (Stage 2.7)
fn windows(vm: &mut Vm, this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let O be the this value.
    // 2. If O is not an Object, throw a TypeError exception.
    if !this.is_object() {
        return Err(vm.type_error("Iterator.prototype.windows called on a non-object"));
    }
    // 3. Let iterated be the Iterator Record { [[Iterator]]: O, [[NextMethod]]: undefined, [[Done]]: false }.
    // 4–6. (windowSize, closing O when bad)
    let size = chunk_size(vm, this, arg(args, 0), "windowSize")?;
    // 7. If undersized is undefined, set undersized to "only-full".
    // 8. If undersized is neither "only-full" nor "allow-partial", then
    //    a. Let error be ThrowCompletion(a newly created TypeError object).
    //    b. Return ? IteratorClose(iterated, error).
    let undersized = arg(args, 1);
    let allow_partial = if undersized.is_undefined() || is_string(vm, undersized, "only-full") {
        false
    } else if is_string(vm, undersized, "allow-partial") {
        true
    } else {
        let e = vm.type_error("undersized must be \"only-full\" or \"allow-partial\"");
        return close_on_throw(vm, this, e);
    };
    // 9. Set iterated to ? GetIteratorDirect(O).
    let IteratorRecord { iterator: iterated, next_method: next, .. } = get_iterator_direct(vm, this)?;
    // 10. Let closure be … (windows_step).
    // 11–13. CreateIteratorFromClosure with [[UnderlyingIterators]] « iterated ».
    Ok(create_helper(vm, HelperKind::Windows, iterated, next, Value::bool(allow_partial), size, Vec::new()))
}

/// Whether `v` is the String `text` (no coercion).
fn is_string(vm: &mut Vm, v: Value, text: &str) -> bool {
    v.as_string().is_some_and(|s| *vm.heap.flat(s) == JsStr::from_str(text))
}

/// Iterator.prototype.windows step 10: the closure, from one Yield to the next.
fn windows_step(vm: &mut Vm, o: ObjectId, f: Fields) -> JsResult<Option<Value>> {
    // After the final undersized window: a.ii.b. Return ReturnCompletion(undefined).
    if !f.underlying.is_object() {
        return Ok(None);
    }
    let size = f.counter as usize;
    let allow_partial = f.fun == Value::TRUE;
    // a. Let buffer be a new empty List. (`extra`)
    // b. Repeat,
    loop {
        // i. Let value be ? IteratorStepValue(iterated).
        let value = iterator_step(vm, &IteratorRecord::new(f.underlying, f.next))?;
        // ii. If value is done, then
        let Some(value) = value else {
            let buffer = extra(vm, o);
            // 1. If undersized is "allow-partial", buffer is not empty, and the number of
            //    elements in buffer < ℝ(windowSize), then
            if allow_partial && !buffer.is_empty() && buffer.len() < size {
                //  a. Perform Completion(Yield(CreateArrayFromList(buffer))).
                set_underlying(vm, o, Value::UNDEFINED, Value::UNDEFINED);
                return Ok(Some(vm.new_array(buffer)));
            }
            // 2. Return ReturnCompletion(undefined).
            return Ok(None);
        };
        let full = with_extra(vm, o, |b| {
            // iii. If the number of elements in buffer is ℝ(windowSize), then
            if b.len() >= size {
                // 1. Remove the first element from buffer.
                b.remove(0);
            }
            // iv. Append value to buffer.
            b.push(value);
            b.len() >= size
        })
        .unwrap_or_default();
        // v. If the number of elements in buffer is ℝ(windowSize), then
        if full {
            // 1. Let completion be Completion(Yield(CreateArrayFromList(buffer))).
            // 2. IfAbruptCloseIterator(completion, iterated). (`close`)
            let buffer = extra(vm, o);
            return Ok(Some(vm.new_array(buffer)));
        }
        vm.check_heap()?;
    }
}

// ---- 27.1.3.2 Iterator.concat

/// ### 27.1.3.2.1 Iterator.concat ( ...items )
/// https://tc39.es/ecma262/#sec-iterator.concat
fn concat(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    // 1. Let iterables be a new empty List.
    let mut iterables = Vec::with_capacity(args.len() * 2);
    // 2. For each element item of items, do
    for &item in args {
        // a. If item is not an Object, throw a TypeError exception.
        if !item.is_object() {
            return Err(vm.type_error("Iterator.concat: argument is not an object"));
        }
        // b. Let method be ? GetMethod(item, %Symbol.iterator%).
        let method = get_method(vm, item, PropertyKey::Symbol(vm.symbols.iterator))?;
        // c. If method is undefined, throw a TypeError exception.
        let Some(method) = method else {
            return Err(vm.type_error("Iterator.concat: argument is not iterable"));
        };
        vm.roots.push(method);
        // d. Append the Record { [[OpenMethod]]: method, [[Iterable]]: item } to iterables.
        iterables.extend([method, item]);
    }
    // 3. Let closure be … (concat_step).
    // 4. Let gen be CreateIteratorFromClosure(closure, "Iterator Helper", %IteratorHelperPrototype%, « [[UnderlyingIterators]] »).
    // 5. Set gen.[[UnderlyingIterators]] to a new empty List.
    // 6. Return gen.
    Ok(create_helper(vm, HelperKind::Concat, Value::UNDEFINED, Value::UNDEFINED, Value::UNDEFINED, 0.0, iterables))
}

/// Iterator.concat step 3: the closure, from one Yield to the next. The iterator being
/// drained is the helper's `underlying` record; `counter` indexes the next iterable.
fn concat_step(vm: &mut Vm, o: ObjectId, f: Fields) -> JsResult<Option<Value>> {
    let (mut inner, mut inner_next) = (f.underlying, f.next);
    let mut index = f.counter as usize;
    // a. For each Record iterable of iterables, do
    loop {
        if inner.is_object() {
            // v. Repeat, while innerAlive is true,
            //   1. Let innerValue be ? IteratorStepValue(iteratorRecord).
            match iterator_step(vm, &IteratorRecord::new(inner, inner_next))? {
                //   3. Else,
                //      a. Let completion be Completion(Yield(innerValue)).
                //      b. If completion is an abrupt completion, then
                //         i. Return ? IteratorClose(iteratorRecord, completion). (`close`)
                Some(v) => return Ok(Some(v)),
                //   2. If innerValue is done, then
                //      a. Set innerAlive to false.
                None => {
                    set_underlying(vm, o, Value::UNDEFINED, Value::UNDEFINED);
                    inner = Value::UNDEFINED;
                }
            }
            continue;
        }
        let method = extra_at(vm, o, 2 * index);
        let iterable = extra_at(vm, o, 2 * index + 1);
        // b. Return ReturnCompletion(undefined).
        if method.is_undefined() {
            return Ok(None);
        }
        index += 1;
        set_counter(vm, o, index as f64);
        // i. Let iter be ? Call(iterable.[[OpenMethod]], iterable.[[Iterable]]).
        let iter = call(vm, method, iterable, &[])?;
        // ii. If iter is not an Object, throw a TypeError exception.
        if !iter.is_object() {
            return Err(vm.type_error("Iterator.concat: Symbol.iterator did not return an object"));
        }
        vm.roots.push(iter);
        // iii. Let iteratorRecord be ? GetIteratorDirect(iter).
        IteratorRecord { iterator: inner, next_method: inner_next, .. } = get_iterator_direct(vm, iter)?;
        // iv. Let innerAlive be true.
        set_underlying(vm, o, inner, inner_next);
    }
}

// ---- Iterator.zip and Iterator.zipKeyed (joint iteration)

#[derive(Clone, Copy, PartialEq, Eq)]
enum ZipMode {
    Shortest,
    Longest,
    Strict,
}

impl ZipMode {
    fn from_value(v: Value) -> ZipMode {
        match v.as_int() {
            Some(1) => ZipMode::Longest,
            Some(2) => ZipMode::Strict,
            _ => ZipMode::Shortest,
        }
    }
    fn to_value(self) -> Value {
        Value::int(self as i32)
    }
}

/// Steps 2–7 of Iterator.zip and Iterator.zipKeyed: the mode and the padding option.
fn zip_options(vm: &mut Vm, options: Value) -> JsResult<(ZipMode, Value)> {
    // 2. Set options to ? GetOptionsObject(options).
    //    (GetOptionsObject: undefined becomes OrdinaryObjectCreate(null), which has no "mode".)
    if options.is_undefined() {
        return Ok((ZipMode::Shortest, Value::UNDEFINED));
    }
    let Some(oo) = options.as_object() else {
        return Err(vm.type_error("options must be an object"));
    };
    // 3. Let mode be ? Get(options, "mode").
    let key = vm.key("mode");
    let mode = get(vm, oo, key, options)?;
    // 4. If mode is undefined, set mode to "shortest".
    // 5. If mode is not one of "shortest", "longest", or "strict", throw a TypeError exception.
    let mode = if mode.is_undefined() || is_string(vm, mode, "shortest") {
        ZipMode::Shortest
    } else if is_string(vm, mode, "longest") {
        ZipMode::Longest
    } else if is_string(vm, mode, "strict") {
        ZipMode::Strict
    } else {
        return Err(vm.type_error("mode must be \"shortest\", \"longest\" or \"strict\""));
    };
    // 6. Let paddingOption be undefined.
    // 7. If mode is "longest", then
    if mode != ZipMode::Longest {
        return Ok((mode, Value::UNDEFINED));
    }
    //    a. Set paddingOption to ? Get(options, "padding").
    let key = vm.key("padding");
    let padding = get(vm, oo, key, options)?;
    //    b. If paddingOption is not undefined and paddingOption is not an Object, throw a TypeError exception.
    if !padding.is_undefined() && !padding.is_object() {
        return Err(vm.type_error("padding must be an object"));
    }
    Ok((mode, padding))
}

/// IfAbruptCloseIterators(value, iters) for a throw: close `iters` in reverse, ignoring their
/// errors, and give back the error to throw.
fn close_all_on_throw(vm: &mut Vm, iters: &[Value], error: Throw) -> Throw {
    match iterator_close_all(vm, iters, Err(error)) {
        Err(e) => e,
        Ok(()) => error,
    }
}

/// ### Iterator.zip ( iterables [ , options ] )
/// https://tc39.es/proposal-joint-iteration/#sec-iterator.zip (Stage 2.7)
fn zip(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let iterables = arg(args, 0);
    // 1. If iterables is not an Object, throw a TypeError exception.
    if !iterables.is_object() {
        return Err(vm.type_error("Iterator.zip: iterables is not an object"));
    }
    // 2–7. (mode and paddingOption)
    let (mode, padding_option) = zip_options(vm, arg(args, 1))?;
    vm.roots.push(padding_option);
    // 8. Let iters be a new empty List.
    let mut iters: Vec<Value> = Vec::new();
    let mut records: Vec<Value> = Vec::new();
    // 9. Let padding be a new empty List.
    // 10. Let inputIter be ? GetIterator(iterables, sync).
    let IteratorRecord { iterator: input, next_method: input_next, .. } =
        get_iterator(vm, iterables, IteratorKind::Sync)?;
    vm.roots.extend([input, input_next]);
    // 11. Let next be not-started.
    // 12. Repeat, while next is not done,
    loop {
        // a. Set next to Completion(IteratorStepValue(inputIter)).
        // b. IfAbruptCloseIterators(next, iters).
        let next = iterator_step(vm, &IteratorRecord::new(input, input_next))
            .map_err(|e| close_all_on_throw(vm, &iters, e))?;
        // c. If next is not done, then
        let Some(next) = next else { break };
        // i. Let iter be Completion(GetIteratorFlattenable(next, reject-strings)).
        let iter = get_iterator_flattenable(vm, next, false);
        // ii. IfAbruptCloseIterators(iter, the list-concatenation of « inputIter » and iters).
        let IteratorRecord { iterator: iter, next_method: iter_next, .. } = match iter {
            Ok(r) => r,
            Err(e) => {
                let mut all = vec![input];
                all.extend_from_slice(&iters);
                return Err(close_all_on_throw(vm, &all, e));
            }
        };
        // iii. Append iter to iters.
        vm.roots.extend([iter, iter_next]);
        iters.push(iter);
        records.extend([iter, iter_next]);
        vm.check_heap()?;
    }
    // 13. Let iterCount be the number of elements in iters.
    let iter_count = iters.len();
    // 14. If mode is "longest", then
    let mut padding = Vec::with_capacity(iter_count);
    if mode == ZipMode::Longest && !padding_option.is_undefined() {
        // b. Else,
        //   i. Let paddingIter be Completion(GetIterator(paddingOption, sync)).
        //   ii. IfAbruptCloseIterators(paddingIter, iters).
        let IteratorRecord { iterator: padding_iter, next_method: padding_next, .. } =
            get_iterator(vm, padding_option, IteratorKind::Sync).map_err(|e| close_all_on_throw(vm, &iters, e))?;
        vm.roots.extend([padding_iter, padding_next]);
        //   iii. Let usingIterator be true.
        let mut using_iterator = true;
        //   iv. Perform the following steps iterCount times:
        for _ in 0..iter_count {
            //   1. If usingIterator is true, then
            if using_iterator {
                //  a. Set next to Completion(IteratorStepValue(paddingIter)).
                //  b. IfAbruptCloseIterators(next, iters).
                let next = iterator_step(vm, &IteratorRecord::new(padding_iter, padding_next))
                    .map_err(|e| close_all_on_throw(vm, &iters, e))?;
                match next {
                    //  c. If next is done, then
                    //     i. Set usingIterator to false.
                    None => using_iterator = false,
                    //  d. Else,
                    //     i. Append next to padding.
                    Some(v) => {
                        vm.roots.push(v);
                        padding.push(v);
                    }
                }
            }
            //   2. If usingIterator is false, append undefined to padding.
            if !using_iterator {
                padding.push(Value::UNDEFINED);
            }
        }
        //   v. If usingIterator is true, then
        if using_iterator {
            //  1. Let completion be Completion(IteratorClose(paddingIter, NormalCompletion(unused))).
            //  2. IfAbruptCloseIterators(completion, iters).
            iterator_close_normal(vm, padding_iter).map_err(|e| close_all_on_throw(vm, &iters, e))?;
        }
    } else {
        // a. If paddingOption is undefined, then
        //    i. Perform the following steps iterCount times: Append undefined to padding.
        // (Outside "longest" the padding is never read.)
        padding.resize(iter_count, Value::UNDEFINED);
    }
    // 15. Let finishResults be … CreateArrayFromList(results).
    // 16. Return IteratorZip(iters, mode, padding, finishResults).
    Ok(iterator_zip(vm, HelperKind::Zip, records, mode, padding, Vec::new()))
}

/// ### Iterator.zipKeyed ( iterables [ , options ] )
/// https://tc39.es/proposal-joint-iteration/#sec-iterator.zipkeyed (Stage 2.7)
fn zip_keyed(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let iterables = arg(args, 0);
    // 1. If iterables is not an Object, throw a TypeError exception.
    let Some(io) = iterables.as_object() else {
        return Err(vm.type_error("Iterator.zipKeyed: iterables is not an object"));
    };
    // 2–7. (mode and paddingOption)
    let (mode, padding_option) = zip_options(vm, arg(args, 1))?;
    vm.roots.push(padding_option);
    // 8. Let iters be a new empty List.
    let mut iters: Vec<Value> = Vec::new();
    let mut records: Vec<Value> = Vec::new();
    // 9. Let padding be a new empty List.
    // 10. Let allKeys be ? iterables.[[OwnPropertyKeys]]().
    let all_keys = own_property_keys(vm, io)?;
    for key in &all_keys {
        if let PropertyKey::Symbol(s) = key {
            vm.roots.push(Value::symbol(*s));
        }
    }
    // 11. Let keys be a new empty List.
    let mut keys: Vec<PropertyKey> = Vec::new();
    let mut key_values: Vec<Value> = Vec::new();
    // 12. For each element key of allKeys, do
    for key in all_keys {
        // a. Let desc be Completion(iterables.[[GetOwnProperty]](key)).
        // b. IfAbruptCloseIterators(desc, iters).
        let desc = get_own_property(vm, io, key).map_err(|e| close_all_on_throw(vm, &iters, e))?;
        // c. If desc is not undefined and desc.[[Enumerable]] is true, then
        if desc.is_none_or(|d| d.enumerable != Some(true)) {
            continue;
        }
        // i. Let value be Completion(Get(iterables, key)).
        // ii. IfAbruptCloseIterators(value, iters).
        let value = get(vm, io, key, iterables).map_err(|e| close_all_on_throw(vm, &iters, e))?;
        // iii. If value is not undefined, then
        if value.is_undefined() {
            continue;
        }
        // 1. Append key to keys.
        let key_value = key_to_value(vm, key);
        vm.roots.extend([value, key_value]);
        keys.push(key);
        key_values.push(key_value);
        // 2. Let iter be Completion(GetIteratorFlattenable(value, reject-strings)).
        // 3. IfAbruptCloseIterators(iter, iters).
        let IteratorRecord { iterator: iter, next_method: iter_next, .. } =
            get_iterator_flattenable(vm, value, false).map_err(|e| close_all_on_throw(vm, &iters, e))?;
        // 4. Append iter to iters.
        vm.roots.extend([iter, iter_next]);
        iters.push(iter);
        records.extend([iter, iter_next]);
        vm.check_heap()?;
    }
    // 13. Let iterCount be the number of elements in iters.
    let iter_count = iters.len();
    // 14. If mode is "longest", then
    let mut padding = Vec::with_capacity(iter_count);
    if let (ZipMode::Longest, Some(po)) = (mode, padding_option.as_object()) {
        // b. Else,
        //    i. For each element key of keys, do
        for &key in &keys {
            // 1. Let value be Completion(Get(paddingOption, key)).
            // 2. IfAbruptCloseIterators(value, iters).
            let value = get(vm, po, key, padding_option).map_err(|e| close_all_on_throw(vm, &iters, e))?;
            // 3. Append value to padding.
            vm.roots.push(value);
            padding.push(value);
        }
    } else {
        // a. If paddingOption is undefined, then
        //    i. Perform the following steps iterCount times: Append undefined to padding.
        padding.resize(iter_count, Value::UNDEFINED);
    }
    // 15. Let finishResults be … an object with null prototype and one property per key.
    // 16. Return IteratorZip(iters, mode, padding, finishResults).
    Ok(iterator_zip(vm, HelperKind::ZipKeyed, records, mode, padding, key_values))
}

/// IteratorZip ( iters, mode, padding, finishResults ) steps 1–2 and 4–6: the helper.
/// `records` is [iter, next]… and `keys` is empty for Iterator.zip.
fn iterator_zip(
    vm: &mut Vm,
    kind: HelperKind,
    records: Vec<Value>,
    mode: ZipMode,
    padding: Vec<Value>,
    keys: Vec<Value>,
) -> Value {
    // 1. Let iterCount be the number of elements in iters.
    let iter_count = records.len() / 2;
    // 2. Let openIters be a copy of iters. (The non-null iters in `extra`.)
    let mut extra = records;
    extra.extend(padding);
    extra.extend(keys);
    // 3. Let closure be … (zip_step).
    // 4. Let gen be CreateIteratorFromClosure(closure, "Iterator Helper", %IteratorHelperPrototype%, « [[UnderlyingIterators]] »).
    // 5. Set gen.[[UnderlyingIterators]] to openIters.
    // 6. Return gen.
    create_helper(vm, kind, Value::UNDEFINED, Value::UNDEFINED, mode.to_value(), iter_count as f64, extra)
}

/// openIters: the zip's iterators still open, in order, leaving out `except`.
fn zip_open_iters(vm: &Vm, o: ObjectId, iter_count: usize, except: Option<usize>) -> Vec<Value> {
    (0..iter_count).filter(|&i| Some(i) != except).map(|i| extra_at(vm, o, 2 * i)).filter(|v| v.is_object()).collect()
}

/// IteratorZip step 3: the closure, from one Yield to the next.
fn zip_step(vm: &mut Vm, o: ObjectId, f: Fields) -> JsResult<Option<Value>> {
    let iter_count = f.counter as usize;
    let mode = ZipMode::from_value(f.fun);
    // a. If iterCount = 0, return ReturnCompletion(undefined).
    if iter_count == 0 {
        return Ok(None);
    }
    // b. Repeat,
    //   i. Let results be a new empty List.
    let mut results = Vec::with_capacity(iter_count);
    //   ii. Assert: openIters is not empty.
    //   iii. For each integer i such that 0 ≤ i < iterCount, in ascending order, do
    for i in 0..iter_count {
        // 1. Let iter be iters[i].
        let iter = extra_at(vm, o, 2 * i);
        let next = extra_at(vm, o, 2 * i + 1);
        let result = if iter.is_null() {
            // 2. If iter is null, then
            //    a. Assert: mode is "longest".
            //    b. Let result be padding[i].
            extra_at(vm, o, 2 * iter_count + i)
        } else {
            // 3. Else,
            //    a. Let result be Completion(IteratorStepValue(iter)).
            match iterator_step(vm, &IteratorRecord::new(iter, next)) {
                //    b. If result is an abrupt completion, then
                //       i. Remove iter from openIters.
                //       ii. Return ? IteratorCloseAll(openIters, result).
                Err(e) => {
                    let open = zip_open_iters(vm, o, iter_count, Some(i));
                    return Err(close_all_on_throw(vm, &open, e));
                }
                //    c. Set result to ! result.
                Ok(Some(v)) => v,
                //    d. If result is done, then
                Ok(None) => {
                    //   i. Remove iter from openIters.
                    let open = zip_open_iters(vm, o, iter_count, Some(i));
                    match mode {
                        //   ii. If mode is "shortest", then
                        //       i. Return ? IteratorCloseAll(openIters, ReturnCompletion(undefined)).
                        ZipMode::Shortest => {
                            iterator_close_all(vm, &open, Ok(()))?;
                            return Ok(None);
                        }
                        //   iii. Else if mode is "strict", then …
                        ZipMode::Strict => return zip_strict_end(vm, o, iter_count, i, &open),
                        //   iv. Else,
                        ZipMode::Longest => {
                            //   1. Assert: mode is "longest".
                            //   2. If openIters is empty, return ReturnCompletion(undefined).
                            if open.is_empty() {
                                return Ok(None);
                            }
                            //   3. Set iters[i] to null.
                            with_extra(vm, o, |e| {
                                e[2 * i] = Value::NULL;
                                e[2 * i + 1] = Value::UNDEFINED;
                            });
                            //   4. Let result be padding[i].
                            extra_at(vm, o, 2 * iter_count + i)
                        }
                    }
                }
            }
        };
        // 4. Append result to results.
        vm.roots.push(result);
        results.push(result);
    }
    //   iv. Set results to finishResults(results).
    let results = finish_results(vm, o, f.kind, iter_count, results)?;
    //   v. Let completion be Completion(Yield(results)).
    //   vi. If completion is an abrupt completion, then
    //       1. Return ? IteratorCloseAll(openIters, completion). (`close`)
    Ok(Some(results))
}

/// IteratorZip step 3.b.iii.3.d.iii: in "strict" mode iters[i] ended; every other iterator must
/// end now too.
fn zip_strict_end(vm: &mut Vm, o: ObjectId, iter_count: usize, i: usize, open: &[Value]) -> JsResult<Option<Value>> {
    // i. If i ≠ 0, then
    if i != 0 {
        //  1. Return ? IteratorCloseAll(openIters, ThrowCompletion(a newly created TypeError object)).
        let e = vm.type_error("Iterator.zip: iterables have different lengths (strict mode)");
        return Err(close_all_on_throw(vm, open, e));
    }
    // ii. For each integer k such that 1 ≤ k < iterCount, in ascending order, do
    for k in 1..iter_count {
        let iter = extra_at(vm, o, 2 * k);
        let next = extra_at(vm, o, 2 * k + 1);
        // The open iterators after iters[k]; iters[1..k] have ended.
        let rest: Vec<Value> = (k + 1..iter_count).map(|j| extra_at(vm, o, 2 * j)).collect();
        // i. Let open be Completion(IteratorStep(iters[k])).
        match iterator_step_result(vm, &IteratorRecord::new(iter, next)) {
            // ii. If open is an abrupt completion, then
            //     1. Remove iters[k] from openIters.
            //     2. Return ? IteratorCloseAll(openIters, open).
            Err(e) => return Err(close_all_on_throw(vm, &rest, e)),
            // iii. Set open to ! open.
            // iv. If open is done, then
            //     1. Remove iters[k] from openIters.
            Ok(false) => {}
            // v. Else,
            //     1. Return ? IteratorCloseAll(openIters, ThrowCompletion(a newly created TypeError object)).
            Ok(true) => {
                let mut open = vec![iter];
                open.extend(rest);
                let e = vm.type_error("Iterator.zip: iterables have different lengths (strict mode)");
                return Err(close_all_on_throw(vm, &open, e));
            }
        }
    }
    // iii. Return ReturnCompletion(undefined).
    Ok(None)
}

/// finishResults: an array for Iterator.zip; for Iterator.zipKeyed a null-prototype object
/// with each key (`CreateDataPropertyOrThrow` on a fresh ordinary object cannot fail).
fn finish_results(
    vm: &mut Vm,
    o: ObjectId,
    kind: HelperKind,
    iter_count: usize,
    results: Vec<Value>,
) -> JsResult<Value> {
    if kind == HelperKind::Zip {
        // 1. Return CreateArrayFromList(results).
        return Ok(vm.new_array(results));
    }
    // 1. Let obj be OrdinaryObjectCreate(null).
    let obj = vm.heap.new_plain(None);
    // 2. For each integer i such that 0 ≤ i < iterCount, do
    for (i, &result) in results.iter().enumerate() {
        // a. Perform ! CreateDataPropertyOrThrow(obj, keys[i], results[i]).
        let key_value = extra_at(vm, o, 3 * iter_count + i);
        let key = to_property_key(vm, key_value)?;
        create_data_property_or_throw(vm, obj, key, result)?;
    }
    // 3. Return obj.
    Ok(Value::object(obj))
}
