//! Capability flags: which Node surfaces a run touched (DESIGN §7, the capability ledger).
//!
//! The node layer records the first touch of each named surface in VM state (so it rides the
//! image) and the embedder copies the names into its ledger (`amber`'s
//! `observe_capabilities`). Names are the durable ledger's: `FsRead`, `FsWrite`, `FsDelete`,
//! `CryptoHash`, `CryptoRandom`, `CryptoKeygen`, `ModuleLoad`, …
//!
//! Storage: `vm.host_state` entry [`KEY`], the names in first-touch order, one per line.

use amber_engine::Vm;

/// `vm.host_state` entry holding the touched names.
pub const KEY: &str = "node.capabilities";

/// Record that the program used surface `flag` (no-op after the first time). The first
/// time is reported to the embedder as it happens ([`Vm::touch_surface`]), so its ledger
/// stamps the journal position of the touch itself.
pub fn touch(vm: &mut Vm, flag: &str) {
    let first = match vm.host_state.get_mut(KEY) {
        Some(bytes) => {
            let seen = bytes.split(|&b| b == b'\n').any(|line| line == flag.as_bytes());
            if !seen {
                if !bytes.is_empty() {
                    bytes.push(b'\n');
                }
                bytes.extend_from_slice(flag.as_bytes());
            }
            !seen
        }
        None => {
            vm.host_state.set(KEY, flag.as_bytes().to_vec());
            true
        }
    };
    if first {
        vm.touch_surface(flag);
    }
}

/// The touched surfaces, in first-touch order.
pub fn touched(vm: &Vm) -> Vec<String> {
    let Some(bytes) = vm.host_state.get(KEY) else { return Vec::new() };
    bytes
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| String::from_utf8_lossy(line).into_owned())
        .collect()
}

/// `vm.host_state` entry present when the embedder has `capability`'s first use wait for a
/// human's approval (the program manifest's `approve_capabilities`). Until
/// [`approved_key`] is there too, the surface's synchronous operations throw
/// `ERR_AMBER_APPROVAL_REQUIRED` (they cannot wait); its asynchronous ones ask for the
/// approval first (`node:internal/net`'s `gate`) and go on once it is given.
pub fn gate_key(capability: &str) -> String {
    format!("node.gate.{capability}")
}

/// `vm.host_state` entry the embedder puts once `capability`'s first use was approved.
pub fn approved_key(capability: &str) -> String {
    format!("node.approved.{capability}")
}

/// Whether using `capability` now must wait for an approval not given yet.
pub fn awaits_approval(vm: &Vm, capability: &str) -> bool {
    let has = |key: String| vm.host_state.contains(&key);
    has(gate_key(capability)) && !has(approved_key(capability))
}

/// The error of a synchronous use of `capability` before its first use was approved:
/// `what` names the operation, `instead` the form that waits.
pub fn approval_required(vm: &mut Vm, capability: &str, what: &str, instead: &str) -> amber_engine::error::Throw {
    let message = format!(
        "{what}: the program manifest has the first use of {capability} wait for approval, and a synchronous call \
         cannot wait; use {instead}, which asks for it"
    );
    let e = vm.make_error(amber_engine::error::ErrorKind::Error, &message);
    vm.roots.push(e);
    let code = vm.str("ERR_AMBER_APPROVAL_REQUIRED");
    vm.set_property(e, "code", code);
    vm.roots.pop();
    amber_engine::error::Throw::Value(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_touch_order_without_duplicates() {
        let mut vm = Vm::new(amber_engine::VmOptions::default());
        assert!(touched(&vm).is_empty());
        touch(&mut vm, "FsWrite");
        touch(&mut vm, "FsRead");
        touch(&mut vm, "FsWrite");
        touch(&mut vm, "Fs");
        assert_eq!(touched(&vm), ["FsWrite", "FsRead", "Fs"]);
    }
}
