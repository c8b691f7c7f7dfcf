//! Approval of a capability's first use (the program manifest's `approve_capabilities`,
//! docs/manifest.md): the first request to each new network host, the first delete, the
//! first key generation.
//!
//! The operation that would use the capability first asks through `net.gate(capability,
//! key, call)` (node:internal/net), which issues an `approval` operation named after the
//! capability — `args` `{"call", "args": {"host"} | {"path"} | {"algorithm"}, "rule",
//! "capability"}` — and
//! answers its promise; the operation runs once a human approved it (`amber resume
//! --approve`, the server's approve route), and a denial rejects it with
//! `ERR_AMBER_NOT_APPROVED`. What was approved rides the VM (`host_state`), so images carry it
//! and a replay, which serves the same decisions, rebuilds it. The natives that do the work
//! check it as well, so no path around the JS gate reaches an unapproved host or deletes.

use std::collections::BTreeSet;

use amber_durable::canonical_json::parse;
use amber_durable::capability::Capability;
use amber_durable::journal::OpKind;
use amber_engine::builtins::promise::resolve_promise;
use amber_engine::error::{ErrorKind, JsResult};
use amber_engine::vm::HostOp;
use amber_engine::{Value, Vm};
use serde_json::json;

use crate::bridge::{coded_error, issue};
use crate::recorder::with_active;

/// `vm.host_state`: the hosts whose first request was approved, as a JSON array.
const NET_APPROVED_KEY: &str = "amber.approved.net_hosts";
/// The error code of an operation that needs an approval it cannot wait for.
pub(crate) const APPROVAL_REQUIRED: &str = "ERR_AMBER_APPROVAL_REQUIRED";

/// Whether the run's manifest gates `capability`'s first use.
fn gated(capability: Capability) -> bool {
    with_active(|r| r.grants.as_ref().map(|g| g.manifest().approve_capabilities.contains(&capability)))
        .flatten()
        .unwrap_or(false)
}

/// A host as approvals name it: lower case, without an IPv6 literal's brackets.
pub(crate) fn host_key(host: &str) -> String {
    host.trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase()
}

fn approved_hosts(vm: &Vm) -> BTreeSet<String> {
    vm.host_state.get(NET_APPROVED_KEY).and_then(|bytes| serde_json::from_slice(bytes).ok()).unwrap_or_default()
}

/// Whether a request to `host` must wait for an approval first.
pub(crate) fn net_awaits_approval(vm: &Vm, host: &str) -> bool {
    gated(Capability::Net) && !approved_hosts(vm).contains(&host_key(host))
}

/// The error of a request to a host that is not approved yet, made by a path that does not
/// ask (the gate is the way).
pub(crate) fn net_approval_required(vm: &mut Vm, host: &str) -> Value {
    let message = format!(
        "the first request to {host} waits for approval (the program manifest's approve_capabilities has Net): \
         use fetch or node:http, which ask for it"
    );
    coded_error(vm, ErrorKind::Error, APPROVAL_REQUIRED, &message)
}

/// `gate(capability, key, call)` → undefined when nothing needs to wait, else the Promise of
/// the approval (a pending one for the same capability and key is shared).
pub(crate) fn gate(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let text = |vm: &mut Vm, i: usize| -> JsResult<String> {
        let v = args.get(i).copied().unwrap_or(Value::UNDEFINED);
        let s = amber_engine::runtime::convert::to_string(vm, v)?;
        Ok(vm.heap.flat(s).to_rust_string())
    };
    let (capability, key, call) = (text(vm, 0)?, text(vm, 1)?, text(vm, 2)?);
    let Some(capability) = Capability::from_name(&capability).filter(|c| gated(*c)) else {
        return Ok(Value::UNDEFINED);
    };
    // Inside a step or an eval the operation itself refuses; nothing is asked.
    if with_active(|r| r.step_depth > 0 || r.sealed).unwrap_or(true) {
        return Ok(Value::UNDEFINED);
    }
    let (detail, rule) = match capability {
        Capability::Net => {
            let host = host_key(&key);
            if approved_hosts(vm).contains(&host) {
                return Ok(Value::UNDEFINED);
            }
            (json!({ "host": host }), format!("first use of Net host {host}"))
        }
        Capability::FsDelete | Capability::CryptoKeygen => {
            if !amber_node::capabilities::awaits_approval(vm, capability.name()) {
                return Ok(Value::UNDEFINED);
            }
            let detail = match capability {
                Capability::FsDelete => json!({ "path": key }),
                _ => json!({ "algorithm": key }),
            };
            (detail, format!("first use of {}", capability.name()))
        }
        _ => return Ok(Value::UNDEFINED),
    };
    // Concurrent first uses wait on one approval.
    let same = |op: &HostOp| {
        op.kind == OpKind::Approval.name()
            && op.name == capability.name()
            && (capability != Capability::Net
                || parse(&op.args_json).unwrap_or_default()["args"]["host"] == detail["host"])
    };
    if let Some(op) = vm.host_ops.iter().find(|op| same(op)) {
        return Ok(Value::object(op.promise));
    }
    let approval = json!({ "call": call, "args": detail, "rule": rule, "capability": capability.name() });
    issue(vm, OpKind::Approval, capability.name().to_string(), approval, None)
}

/// Settles an approval of a capability's first use: approved, the capability (for `Net`, the
/// host) is approved for the rest of the run and the waiting operation goes on; denied, it
/// rejects with `ERR_AMBER_NOT_APPROVED`.
pub(crate) fn settle(
    vm: &mut Vm,
    op: &HostOp,
    intent: &serde_json::Value,
    decision: &serde_json::Value,
) -> JsResult<()> {
    let approved = decision["approved"].as_bool() == Some(true);
    let capability = intent["capability"].as_str().and_then(Capability::from_name);
    if approved {
        match capability {
            Some(Capability::Net) => {
                let mut hosts = approved_hosts(vm);
                hosts.insert(intent["args"]["host"].as_str().unwrap_or_default().to_string());
                vm.host_state.set(NET_APPROVED_KEY, serde_json::to_vec(&hosts).unwrap_or_default());
            }
            Some(c @ (Capability::FsDelete | Capability::CryptoKeygen)) => {
                vm.host_state.set(&amber_node::capabilities::approved_key(c.name()), Vec::new());
            }
            _ => {}
        }
        return resolve_promise(vm, op.promise, Value::UNDEFINED);
    }
    let what = match capability {
        Some(Capability::Net) => format!("the first request to {}", intent["args"]["host"].as_str().unwrap_or("?")),
        Some(Capability::CryptoKeygen) => format!(
            "the first key generation ({} {})",
            intent["call"].as_str().unwrap_or("?"),
            intent["args"]["algorithm"].as_str().unwrap_or("?")
        ),
        _ => format!(
            "the first delete ({} '{}')",
            intent["call"].as_str().unwrap_or("?"),
            intent["args"]["path"].as_str().unwrap_or("?")
        ),
    };
    crate::gate::reject_not_approved(vm, op, &what, decision);
    Ok(())
}
