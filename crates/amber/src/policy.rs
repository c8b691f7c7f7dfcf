//! The run's policy (DESIGN §7) as this runtime honours it: which modes each surface supports,
//! and the throwing stubs that replace a surface the policy disables.

use amber_durable::policy::{Mode, Policy, PolicySurface};
use amber_engine::{HostFn, Value, Vm};

use crate::error::{Error, Result};

/// Modes this runtime can honour per surface (Host is never durable).
pub(crate) fn check_policy(policy: &Policy) -> Result<()> {
    policy.ensure_durable_safe()?;
    let supported: &[(PolicySurface, &[Mode])] = &[
        (PolicySurface::Random, &[Mode::Seeded, Mode::Disabled]),
        (PolicySurface::Crypto, &[Mode::Captured, Mode::Seeded, Mode::Disabled]),
        (PolicySurface::Clock, &[Mode::Captured, Mode::Disabled]),
        (PolicySurface::Timers, &[Mode::Seeded, Mode::Disabled]),
        // Seeded: the VFS (seeded once, riding the image); node:fs never reaches the host.
        (PolicySurface::Fs, &[Mode::Seeded, Mode::Disabled]),
    ];
    for (surface, modes) in supported {
        let mode = policy.mode(*surface);
        if !modes.contains(&mode) {
            return Err(Error::usage(format!("policy {surface}={mode} is not supported by this runtime")));
        }
    }
    Ok(())
}

/// Globals replaced by a throwing stub when their surface is Disabled: (surface, host name,
/// object path on the global, property).
const DISABLED: &[(PolicySurface, &str, &str, &str)] = &[
    (PolicySurface::Random, "amber.disabled.Math.random", "Math", "random"),
    (PolicySurface::Clock, "amber.disabled.Date.now", "Date", "now"),
    (PolicySurface::Timers, "amber.disabled.setTimeout", "", "setTimeout"),
    (PolicySurface::Timers, "amber.disabled.setInterval", "", "setInterval"),
    (PolicySurface::Timers, "amber.disabled.setImmediate", "", "setImmediate"),
];

pub(crate) fn apply_policy(vm: &mut Vm, policy: &Policy) {
    if policy.mode(PolicySurface::Crypto) == Mode::Disabled
        && !vm.host_state.iter().any(|(k, _)| k == amber_node::modules::crypto::DISABLED_KEY)
    {
        vm.host_state.push((amber_node::modules::crypto::DISABLED_KEY.to_string(), Vec::new()));
    }
    if policy.mode(PolicySurface::Fs) == Mode::Disabled
        && !vm.host_state.iter().any(|(k, _)| k == amber_node::modules::fs::DISABLED_KEY)
    {
        vm.host_state.push((amber_node::modules::fs::DISABLED_KEY.to_string(), Vec::new()));
    }
    for (surface, host_name, object, _) in DISABLED {
        if policy.mode(*surface) != Mode::Disabled {
            continue;
        }
        let global = vm.global_object();
        let target = if object.is_empty() {
            global
        } else {
            let key = vm.key(object);
            vm.global_object()
                .as_object()
                .and_then(|g| amber_engine::runtime::property::get(vm, g, key, global).ok())
                .unwrap_or(Value::UNDEFINED)
        };
        if target.is_object() {
            vm.define_host_function(target, host_name, 0, disabled_surface as HostFn);
        }
    }
}

pub(crate) fn register_policy(vm: &mut Vm) {
    for (_, host_name, _, _) in DISABLED {
        vm.register_host_function(host_name, disabled_surface);
    }
}

/// The stub for a surface the policy disables.
fn disabled_surface(vm: &mut Vm, _this: Value, _args: &[Value]) -> amber_engine::JsResult<Value> {
    let name = vm
        .native_captures()
        .first()
        .and_then(|v| v.as_string())
        .map(|s| vm.heap.flat(s).to_rust_string())
        .unwrap_or_default();
    let shown = name.strip_prefix("amber.disabled.").unwrap_or(&name).to_string();
    let surface = DISABLED.iter().find(|(_, n, _, _)| *n == name).map_or("?", |(s, _, _, _)| s.name());
    Err(vm.type_error(format!("{shown} is disabled by the run's policy ({surface}: disabled)")))
}
