//! The `amber` global (DESIGN §8): `call`, `input`, `sleep` issue host operations and return
//! their promises; `step` memoizes a pure computation in the journal.
//!
//! Each native finds the runtime's [`Recorder`](crate::recorder) through the thread-local
//! slot. A divergence found here is recorded as fatal and unwinds as an uncatchable limit, so
//! no `try`/`catch` in the program can swallow it.

use amber_durable::canonical_json::to_canonical_string;
use amber_durable::capability::Capability;
use amber_durable::journal::{CallResult, OpKind, RecordDraft};
use amber_engine::builtins::promise::{is_promise, new_promise, reject_promise, resolve_promise};
use amber_engine::error::{ErrorKind, JsResult, Limit, Throw};
use amber_engine::runtime::call::{call, is_callable};
use amber_engine::runtime::convert::to_number;
use amber_engine::vm::HostOp;
use amber_engine::{HostFn, Value, Vm};
use serde_json::json;

use crate::error::Error;
use crate::json::{from_json, to_json};
use crate::recorder::{result_of, with_active};
use crate::step_state::{self, Watch};

const METHODS: &[(&str, u32, HostFn)] = &[
    ("amber.call", 2, amber_call),
    ("amber.input", 1, amber_input),
    ("amber.sleep", 1, amber_sleep),
    ("amber.step", 2, amber_step),
];

/// Define the `amber` global on a fresh VM.
pub(crate) fn install(vm: &mut Vm) {
    let amber = vm.new_object();
    for (name, length, f) in METHODS {
        vm.define_host_function(amber, name, *length, *f);
    }
    let global = vm.global_object();
    vm.set_property(global, "amber", amber);
}

/// Re-bind the `amber.*` host functions (after restore).
pub(crate) fn register(vm: &mut Vm) {
    for (name, _, f) in METHODS {
        vm.register_host_function(name, *f);
    }
}

/// `amber.call(name, args)`: a pending host operation; `args` must be JSON.
fn amber_call(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    usable(vm, "amber.call")?;
    let name = string_arg(vm, args.first().copied(), "amber.call", "the operation name")?;
    if name.is_empty() {
        return Err(vm.type_error("amber.call: the operation name must not be empty"));
    }
    let json_args = match args.get(1) {
        None => serde_json::Value::Null,
        Some(&v) => to_json(vm, v, "amber.call args")?,
    };
    crate::gate::call(vm, name, json_args)
}

/// `amber.input(prompt)`: a pending operation a human answers; resolves to a string.
fn amber_input(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    usable(vm, "amber.input")?;
    let prompt = match args.first() {
        None => String::new(),
        Some(v) if v.is_undefined() => String::new(),
        Some(&v) => string_arg(vm, Some(v), "amber.input", "the prompt")?,
    };
    let json_args = json!({ "prompt": prompt });
    issue(vm, OpKind::Input, prompt, json_args, None)
}

/// `amber.sleep(ms)`: a durable timer — a pending operation due at `clock + ms`.
fn amber_sleep(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    usable(vm, "amber.sleep")?;
    let ms = match args.first() {
        Some(&v) => to_number(vm, v)?,
        None => f64::NAN,
    };
    if !ms.is_finite() || ms < 0.0 {
        return Err(vm.range_error("amber.sleep: ms must be a finite number of milliseconds >= 0"));
    }
    let json_args = json!({ "ms": ms });
    issue(vm, OpKind::Sleep, "sleep".into(), json_args, Some(ms))
}

/// `amber.step(name, fn)`: live, runs `fn()` once and journals its JSON result or thrown
/// error; replayed, returns the journaled outcome without calling `fn`.
fn amber_step(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    usable(vm, "amber.step")?;
    // Bad arguments reject the returned promise (deterministically, so nothing is journaled).
    let name = match string_arg(vm, args.first().copied(), "amber.step", "the step name") {
        Ok(name) => name,
        Err(e) => return rejected(vm, e),
    };
    let f = args.get(1).copied().unwrap_or(Value::UNDEFINED);
    if !is_callable(vm, f) {
        let e = vm.type_error("amber.step: the second argument must be a function");
        return rejected(vm, e);
    }
    let location = current_location(vm);
    let timestamp = clock_u64(vm);
    let draft = |result| RecordDraft::step(&name, result, timestamp);
    // Replaying: the journal answers and `fn` is not called.
    let served = with_active(|r| {
        if r.peek().is_some() || r.strict {
            // A placeholder result: matching ignores results, only kind, name and args count.
            Some(r.record(draft(CallResult::Ok(serde_json::Value::Null)), Some(&location)))
        } else {
            None
        }
    })
    .flatten();
    let result = match served {
        Some(Ok((step_seq, Some(record)))) => {
            // What the live step left behind (generators, lookups, …), when it left anything.
            let state = with_active(|r| match r.peek() {
                Some(next) if step_state::is_state_of(next, step_seq) => {
                    Some(r.record(step_state::replay_draft(step_seq, timestamp), Some(&location)))
                }
                _ => None,
            })
            .flatten();
            match state {
                Some(Ok((_, Some(state_record)))) => step_state::apply(vm, &state_record),
                Some(Err(e)) => return Err(fatal(e)),
                _ => {}
            }
            result_of(&record)
        }
        Some(Ok((_, None))) => return Err(vm.type_error("amber.step: internal error (no record served)")),
        Some(Err(e)) => return Err(fatal(e)),
        None => {
            // Live.
            with_active(|r| r.step_depth += 1);
            vm.pure_depth += 1;
            let watch = Watch::start(vm);
            let mark = vm.roots.len();
            vm.roots.push(f);
            let outcome = call(vm, f, Value::UNDEFINED, &[]);
            vm.pure_depth = vm.pure_depth.saturating_sub(1);
            // A result the journal cannot hold rejects the step like a throw, and is journaled
            // as one: replay, which does not call `fn`, must reject it the same way. The
            // conversion (`toJSON`) is part of the step.
            let result = match outcome {
                Ok(v) if is_promise(vm, v) => Ok(CallResult::Err(format!(
                    "TypeError: amber.step {name:?}: the function returned a Promise; steps must be synchronous"
                ))),
                Ok(v) => match to_json(vm, v, &format!("amber.step {name:?} result")) {
                    Ok(json) => Ok(match amber_durable::journal::record_fits(&name, &serde_json::Value::Null, Some(&CallResult::Ok(json.clone()))) {
                        Ok(()) => CallResult::Ok(json),
                        Err(bytes) => CallResult::Err(format!(
                            "RangeError: amber.step {name:?}: the result is {bytes} bytes, over the journal's record limit of {} bytes",
                            amber_durable::journal::MAX_RECORD_BYTES
                        )),
                    }),
                    Err(Throw::Value(thrown)) => Ok(CallResult::Err(error_text(vm, thrown))),
                    Err(limit) => Err(limit),
                },
                Err(Throw::Value(thrown)) => Ok(CallResult::Err(error_text(vm, thrown))),
                Err(limit) => Err(limit),
            };
            vm.roots.truncate(mark);
            with_active(|r| r.step_depth = r.step_depth.saturating_sub(1));
            let result = match result {
                Ok(result) => result,
                Err(limit) => {
                    vm.vfs.take_lookups(); // ends the log: a limit unwinds the run
                    return Err(limit);
                }
            };
            let step_seq = match with_active(|r| r.record(draft(result.clone()), Some(&location))) {
                Some(Ok((seq, _))) => seq,
                Some(Err(e)) => return Err(fatal(e)),
                None => return Err(no_runtime(vm)),
            };
            if let Some(state) = watch.finish(vm, step_seq, timestamp) {
                match with_active(|r| r.record(state, Some(&location))) {
                    Some(Ok(_)) => {}
                    Some(Err(e)) => return Err(fatal(e)),
                    None => return Err(no_runtime(vm)),
                }
            }
            result
        }
    };
    let promise = new_promise(vm);
    let mark = vm.roots.len();
    vm.roots.push(Value::object(promise));
    let r = settle(vm, promise, &result);
    vm.roots.truncate(mark);
    r?;
    Ok(Value::object(promise))
}

/// A promise rejected with `e` (a limit still unwinds).
pub(crate) fn rejected(vm: &mut Vm, e: Throw) -> JsResult<Value> {
    let Throw::Value(reason) = e else { return Err(e) };
    let promise = new_promise(vm);
    reject_promise(vm, promise, reason);
    Ok(Value::object(promise))
}

/// Journal the intent and register the pending operation; returns its promise.
pub(crate) fn issue(
    vm: &mut Vm,
    kind: OpKind,
    name: String,
    args: serde_json::Value,
    sleep_ms: Option<f64>,
) -> JsResult<Value> {
    let location = current_location(vm);
    issue_from(vm, Issue { kind, name, args, sleep_ms, parent: None, promise: None, location })
}

/// A host operation to issue: what [`issue`] takes, plus what a follow-up operation (an
/// approved call, issued when its approval settles) carries over from the one before it.
pub(crate) struct Issue {
    pub kind: OpKind,
    pub name: String,
    pub args: serde_json::Value,
    pub sleep_ms: Option<f64>,
    /// The operation that issued this one (its intent's `parent_seq`).
    pub parent: Option<u64>,
    /// The promise the program already holds (else a new one).
    pub promise: Option<amber_engine::ObjectId>,
    /// Where the program asked for it.
    pub location: String,
}

/// [`issue`] in full.
pub(crate) fn issue_from(vm: &mut Vm, op: Issue) -> JsResult<Value> {
    let Issue { kind, name, args, sleep_ms, parent, promise, location } = op;
    // Arguments the journal cannot hold reject this call alone, before anything is recorded
    // (deterministically: a replay rejects it the same way).
    if let Err(bytes) = amber_durable::journal::record_fits(&name, &args, None) {
        let e = vm.range_error(format!(
            "amber.{}: the arguments are {bytes} bytes, over the journal's record limit of {} bytes",
            kind.name(),
            amber_durable::journal::MAX_RECORD_BYTES
        ));
        return rejected(vm, e);
    }
    let mut draft = RecordDraft::intent(kind, &name, args.clone(), clock_u64(vm));
    if let Some(parent) = parent {
        draft = draft.with_parent(parent);
    }
    let capability = match kind {
        OpKind::Call | OpKind::Approval => Capability::HostCall,
        OpKind::Input => Capability::Input,
        OpKind::Sleep => Capability::Sleep,
        OpKind::Http => Capability::Net,
    };
    let seq = match with_active(|r| {
        r.record(draft, Some(&location)).map(|(seq, _)| {
            r.ledger.touch(capability, seq);
            seq
        })
    }) {
        Some(Ok(seq)) => seq,
        Some(Err(e)) => return Err(fatal(e)),
        None => return Err(no_runtime(vm)),
    };
    vm.next_op_seq += 1;
    let id = vm.next_op_seq;
    let now = vm.clock_ms;
    with_active(|r| r.op_issue.insert(id, now));
    let promise = promise.unwrap_or_else(|| new_promise(vm));
    vm.host_ops.push(HostOp {
        id,
        seq,
        kind: kind.name().to_string(),
        name,
        args_json: to_canonical_string(&args),
        promise,
        due_ms: sleep_ms.map(|ms| now + ms),
        location,
    });
    Ok(Value::object(promise))
}

/// Fulfil or reject `promise` with a journaled outcome.
pub(crate) fn settle(vm: &mut Vm, promise: amber_engine::ObjectId, result: &CallResult) -> JsResult<()> {
    match result {
        CallResult::Ok(json) => {
            let v = from_json(vm, json)?;
            resolve_promise(vm, promise, v)
        }
        CallResult::Err(message) => {
            let reason = error_from_text(vm, message);
            reject_promise(vm, promise, reason);
            Ok(())
        }
    }
}

/// Fails if the run is stopping (a divergence) or a live step is running.
fn usable(vm: &mut Vm, what: &str) -> JsResult<()> {
    if with_active(|r| r.sealed).unwrap_or(false) {
        return Err(vm.type_error(format!(
            "{what} cannot be used in amber eval: it evaluates on a copy of the session's state, with effects refused"
        )));
    }
    match with_active(|r| (r.fatal.is_some(), r.step_depth > 0)) {
        None => Err(no_runtime(vm)),
        Some((true, _)) => Err(Throw::Limit(Limit::Fuel)),
        Some((_, true)) => {
            Err(vm.type_error(format!("{what} cannot be used inside amber.step: a step must be a pure computation")))
        }
        Some((false, false)) => Ok(()),
    }
}

/// Record `e` as the run's fatal error; the returned throw unwinds every handler.
pub(crate) fn fatal(e: Error) -> Throw {
    with_active(|r| {
        if r.fatal.is_none() {
            r.fatal = Some(e);
        }
    });
    Throw::Limit(Limit::Fuel)
}

fn no_runtime(vm: &mut Vm) -> Throw {
    vm.type_error("amber host operations need a running amber Runtime")
}

fn string_arg(vm: &mut Vm, v: Option<Value>, what: &str, name: &str) -> JsResult<String> {
    match v.and_then(|v| v.as_string()) {
        Some(s) => Ok(vm.heap.flat(s).to_rust_string()),
        None => Err(vm.type_error(format!("{what}: {name} must be a string"))),
    }
}

pub(crate) fn clock_u64(vm: &Vm) -> u64 {
    if vm.clock_ms.is_finite() && vm.clock_ms > 0.0 {
        vm.clock_ms as u64
    } else {
        0
    }
}

/// `file:line:col` of the innermost JS frame (the caller of the running native).
pub(crate) fn current_location(vm: &Vm) -> String {
    let Some(frame) = vm.frames.last() else { return "<host>".into() };
    let code = vm.heap.code(frame.code);
    let (line, col) = code.position(frame.pc.saturating_sub(1)).unwrap_or((0, 0));
    let file = vm.sources.get(code.source_id as usize).map_or("<anonymous>", |s| s.name.as_str());
    format!("{file}:{line}:{col}")
}

/// "TypeError: message" for a thrown value (as journaled for a failed step).
fn error_text(vm: &mut Vm, thrown: Value) -> String {
    let (name, message, _) = vm.describe_thrown(thrown);
    if name.is_empty() {
        message
    } else if message.is_empty() {
        name
    } else {
        format!("{name}: {message}")
    }
}

/// The error a journaled failure message rejects with: "TypeError: x" becomes a TypeError
/// with message "x"; anything else an Error with the whole text.
pub(crate) fn error_from_text(vm: &mut Vm, text: &str) -> Value {
    let kinds = [
        ErrorKind::TypeError,
        ErrorKind::RangeError,
        ErrorKind::ReferenceError,
        ErrorKind::SyntaxError,
        ErrorKind::EvalError,
        ErrorKind::UriError,
        ErrorKind::Error,
    ];
    for kind in kinds {
        let Some(rest) = text.strip_prefix(kind.name()) else { continue };
        if let Some(message) = rest.strip_prefix(": ") {
            return vm.make_error(kind, message);
        }
        // Node's form of a coded error: "TypeError [ERR_X]: message" carries `code`.
        let coded = rest.strip_prefix(" [").and_then(|r| r.split_once("]: "));
        if let Some((code, message)) = coded.filter(|(code, _)| is_error_code(code)) {
            return coded_error(vm, kind, code, message);
        }
    }
    vm.make_error(ErrorKind::Error, text)
}

/// An error code as Node spells them: upper-case letters, digits and underscores.
fn is_error_code(code: &str) -> bool {
    !code.is_empty() && code.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// A `kind` error whose `code` is `code`.
pub(crate) fn coded_error(vm: &mut Vm, kind: ErrorKind, code: &str, message: &str) -> Value {
    let error = vm.make_error(kind, message);
    let code = vm.str(code);
    vm.set_property(error, "code", code);
    error
}

/// "TypeError [ERR_X]: message": how a coded error is journaled (what [`error_from_text`]
/// reads back).
pub(crate) fn coded_error_text(kind: ErrorKind, code: &str, message: &str) -> String {
    format!("{} [{code}]: {message}", kind.name())
}
