//! The image verifier over a whole decoded VM, before it runs: what only the VM knows (no
//! live frames, the realm table, the roots, the module map), around the heap's own checks
//! (`heap/verify.rs`: every entity, every handle, every operand, every suspended frame). A
//! crafted image fails here with a message instead of panicking later.

use crate::heap::verify::{check_entities, check_handles};
use crate::heap::{CodeId, EnvId};
use crate::vm::Vm;

/// Check the whole VM.
pub fn verify(vm: &Vm) -> Result<(), String> {
    if !vm.frames.is_empty() || !vm.stack.is_empty() {
        return Err("image taken outside a safe point (live frames)".into());
    }
    // Exactly the running realm's slot is empty; every realm a function names exists.
    let realms = vm.realms.len();
    let running = vm.current_realm as usize;
    if running >= realms || vm.realms.iter().enumerate().any(|(i, r)| r.is_none() != (i == running)) {
        return Err("the realm table is inconsistent".into());
    }
    let mut values = Vec::new();
    let mut envs: Vec<EnvId> = Vec::new();
    let mut codes: Vec<CodeId> = Vec::new();
    crate::gc::roots(vm, &mut values, &mut envs, &mut codes);
    check_entities(&vm.heap, realms, &mut values, &mut envs, &mut codes)?;
    crate::module::verify(vm)?;
    check_handles(&vm.heap, &values, &envs, &codes)
}
