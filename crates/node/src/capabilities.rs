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
    let first = match vm.host_state.iter_mut().find(|(k, _)| k == KEY) {
        Some((_, bytes)) => {
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
            vm.host_state.push((KEY.to_string(), flag.as_bytes().to_vec()));
            true
        }
    };
    if first {
        vm.touch_surface(flag);
    }
}

/// The touched surfaces, in first-touch order.
pub fn touched(vm: &Vm) -> Vec<String> {
    let Some((_, bytes)) = vm.host_state.iter().find(|(k, _)| k == KEY) else { return Vec::new() };
    bytes
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| String::from_utf8_lossy(line).into_owned())
        .collect()
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
