//! The run's policy (DESIGN §7) as this runtime honours it: which modes each surface supports,
//! the throwing stubs that replace a surface the policy disables, and the journaled
//! `Math.random` of `random: captured`.

use amber_durable::policy::{Mode, Policy, PolicySurface};
use amber_engine::{HostFn, Value, Vm};

use crate::error::{Error, Result};

/// Modes this runtime can honour per surface (Host is never durable).
pub(crate) fn check_policy(policy: &Policy) -> Result<()> {
    policy.ensure_durable_safe()?;
    let supported: &[(PolicySurface, &[Mode])] = &[
        (PolicySurface::Random, &[Mode::Seeded, Mode::Captured, Mode::Disabled]),
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
    if policy.mode(PolicySurface::Crypto) == Mode::Disabled {
        vm.host_state.set(amber_node::modules::crypto::DISABLED_KEY, Vec::new());
    }
    if policy.mode(PolicySurface::Fs) == Mode::Disabled {
        vm.host_state.set(amber_node::modules::fs::DISABLED_KEY, Vec::new());
    }
    let mut replaced: Vec<(&str, &str, HostFn)> = DISABLED
        .iter()
        .filter(|(surface, ..)| policy.mode(*surface) == Mode::Disabled)
        .map(|&(_, host_name, object, _)| (host_name, object, disabled_surface as HostFn))
        .collect();
    if policy.mode(PolicySurface::Random) == Mode::Captured {
        replaced.push((CAPTURED_RANDOM, "Math", crate::entropy::captured_math_random as HostFn));
    }
    for (host_name, object, f) in replaced {
        // A restored heap already holds the replacements made when the run started (or at an
        // earlier restore): making them again would change the state.
        if applied(vm, host_name) {
            continue;
        }
        mark_applied(vm, host_name);
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
            vm.define_host_function(target, host_name, 0, f);
        }
    }
}

/// Host name of `Math.random` under `random: captured`.
const CAPTURED_RANDOM: &str = "amber.captured.Math.random";
/// `vm.host_state` entry listing the surface replacements already made (names, one per line).
const APPLIED_KEY: &str = "amber.policy.applied";

fn applied(vm: &Vm, host_name: &str) -> bool {
    vm.host_state.get(APPLIED_KEY).is_some_and(|names| names.split(|&b| b == b'\n').any(|n| n == host_name.as_bytes()))
}

fn mark_applied(vm: &mut Vm, host_name: &str) {
    match vm.host_state.get_mut(APPLIED_KEY) {
        Some(names) => {
            names.push(b'\n');
            names.extend_from_slice(host_name.as_bytes());
        }
        None => vm.host_state.set(APPLIED_KEY, host_name.as_bytes().to_vec()),
    }
}

pub(crate) fn register_policy(vm: &mut Vm) {
    for (_, host_name, _, _) in DISABLED {
        vm.register_host_function(host_name, disabled_surface);
    }
    vm.register_host_function(CAPTURED_RANDOM, crate::entropy::captured_math_random);
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
