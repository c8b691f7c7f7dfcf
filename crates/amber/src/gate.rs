//! The gate every `amber.call` passes when the run has a program manifest (crate::grants):
//! refused calls reject before anything is journaled; gated calls become an `approval`
//! operation first, and the call itself is issued only when a host approves it.
//!
//! An approved call is issued from the approval's settlement, inside the event loop, with the
//! promise the program already holds: live and in a replay alike the approval's completion is
//! followed by the call's intent (`parent_seq` = the approval's seq), so the journal has one
//! order and replay reproduces it without running anything the program cannot see.

use amber_durable::canonical_json::parse;
use amber_durable::journal::{CallResult, OpKind};
use amber_engine::builtins::promise::{new_promise, reject_promise};
use amber_engine::error::{ErrorKind, JsResult};
use amber_engine::vm::HostOp;
use amber_engine::{Value, Vm};
use serde_json::json;

use crate::bridge::{coded_error, current_location, issue, issue_from, Issue};
use crate::grants::{Admission, DENIED, INVALID_ARGS, INVALID_RESULT, NOT_APPROVED};
use crate::recorder::with_active;

/// `amber.call(name, args)` through the manifest (or straight out without one).
pub(crate) fn call(vm: &mut Vm, name: String, args: serde_json::Value) -> JsResult<Value> {
    let grants = with_active(|r| r.grants.clone()).flatten();
    let Some(grants) = grants else { return issue(vm, OpKind::Call, name, args, None) };
    match grants.admit(&name, &args) {
        Admission::Call => issue(vm, OpKind::Call, name, args, None),
        Admission::Denied => {
            let message = format!(
                "amber.call({name:?}): the program manifest grants no host function {name:?} \
                 (granted: {})",
                granted(&grants)
            );
            Ok(rejecting(vm, ErrorKind::Error, DENIED, &message, &[]))
        }
        Admission::InvalidArgs { pointer, reason } => {
            let at = if pointer.is_empty() { "the args".to_string() } else { format!("args{pointer}") };
            let message = format!("amber.call({name:?}): {at} fails the manifest's schema: {reason}");
            let (p, r) = (vm.str(&pointer), vm.str(&reason));
            Ok(rejecting(vm, ErrorKind::TypeError, INVALID_ARGS, &message, &[("pointer", p), ("reason", r)]))
        }
        Admission::Approve { rule } => {
            let approval_args = json!({ "call": name, "args": args, "rule": rule });
            issue(vm, OpKind::Approval, name, approval_args, None)
        }
    }
}

/// The names the manifest grants, for the denial message.
fn granted(grants: &crate::grants::Grants) -> String {
    let names: Vec<&str> = grants.manifest().host.keys().map(String::as_str).collect();
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// A promise rejected with a coded error carrying `extra` properties.
fn rejecting(vm: &mut Vm, kind: ErrorKind, code: &str, message: &str, extra: &[(&str, Value)]) -> Value {
    let error = coded_error(vm, kind, code, message);
    for (key, value) in extra {
        vm.set_property(error, key, *value);
    }
    let promise = new_promise(vm);
    reject_promise(vm, promise, error);
    Value::object(promise)
}

/// Settles an approval: an approved call is issued now on the promise the program holds; a
/// denied one rejects it with `ERR_AMBER_NOT_APPROVED`.
pub(crate) fn settle_approval(vm: &mut Vm, op: &HostOp, result: &CallResult) -> JsResult<()> {
    let decision = match result {
        CallResult::Ok(decision) => decision.clone(),
        CallResult::Err(message) => json!({ "approved": false, "principal": null, "reason": message }),
    };
    let approved = decision["approved"].as_bool() == Some(true);
    let intent = parse(&op.args_json).unwrap_or_default();
    if intent.get("capability").is_some() {
        return crate::first_use::settle(vm, op, &intent, &decision);
    }
    let name = intent["call"].as_str().unwrap_or(&op.name).to_string();
    if approved {
        let args = intent["args"].clone();
        let location = if op.location.is_empty() { current_location(vm) } else { op.location.clone() };
        let issue = Issue {
            kind: OpKind::Call,
            name,
            args,
            sleep_ms: None,
            parent: Some(op.seq),
            promise: Some(op.promise),
            location,
        };
        return issue_from(vm, issue).map(drop);
    }
    reject_not_approved(vm, op, &format!("amber.call({name:?})"), &decision);
    Ok(())
}

/// Rejects the promise `op` holds with `ERR_AMBER_NOT_APPROVED`: "WHAT was not approved by
/// PRINCIPAL: REASON", carrying `principal` and `reason`.
pub(crate) fn reject_not_approved(vm: &mut Vm, op: &HostOp, what: &str, decision: &serde_json::Value) {
    let who = decision["principal"].as_str().filter(|p| !p.is_empty()).map_or(String::new(), |p| format!(" by {p}"));
    let why = decision["reason"].as_str().filter(|r| !r.is_empty()).map_or(String::new(), |r| format!(": {r}"));
    let error = coded_error(vm, ErrorKind::Error, NOT_APPROVED, &format!("{what} was not approved{who}{why}"));
    for key in ["principal", "reason"] {
        if let Some(text) = decision[key].as_str() {
            let v = vm.str(text);
            vm.set_property(error, key, v);
        }
    }
    reject_promise(vm, op.promise, error);
}

/// A call's journaled result checked against the manifest's `result` schema: a result that
/// fails it rejects the call (the same way on replay, which serves the same result).
pub(crate) fn checked_result(name: &str, result: &CallResult) -> Option<CallResult> {
    let CallResult::Ok(value) = result else { return None };
    let grants = with_active(|r| r.grants.clone()).flatten()?;
    let failure = grants.check_result(name, value)?;
    let at = if failure.pointer.is_empty() { "the result".to_string() } else { format!("result{}", failure.pointer) };
    Some(CallResult::Err(crate::bridge::coded_error_text(
        ErrorKind::TypeError,
        INVALID_RESULT,
        &format!("amber.call({name:?}): {at} fails the manifest's schema: {}", failure.reason),
    )))
}
