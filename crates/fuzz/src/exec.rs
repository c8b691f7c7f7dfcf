//! The one way the targets build and drive a bare VM: fuel and heap limits, Node globals, output
//! discarded, jobs drained, and the limits checked afterwards.

use amber_engine::{Limit, RunError, Stream, Vm, VmOptions};

/// Instruction budget of one execution.
pub const FUEL: u64 = 100_000;
/// Heap budget of one execution.
pub const HEAP: u64 = 64 << 20;

/// A fresh VM with the fuzzing limits and the Node globals; output goes nowhere.
pub fn new_vm() -> Vm {
    let mut vm =
        Vm::new(VmOptions { max_instructions: Some(FUEL), max_heap_bytes: Some(HEAP), ..VmOptions::default() });
    amber_node::install(&mut vm);
    vm.print_hook = Some(discard);
    vm
}

fn discard(_vm: &mut Vm, _stream: Stream, _text: &str) {}

/// Runs `source` as a classic script, then the job queue; returns how it ended. Panics if a
/// limit was not honoured.
pub fn run_script(vm: &mut Vm, source: &str) -> Result<(), RunError> {
    let r = vm.eval_script(source, "fuzz.js").and_then(|_| vm.run_jobs());
    check_limits(vm, &r);
    r
}

/// The limits held: no more instructions than the fuel, and a heap near its budget unless the
/// run was stopped by it.
pub fn check_limits(vm: &Vm, r: &Result<(), RunError>) {
    if let Some(max) = vm.options.max_instructions {
        assert!(vm.stats.instructions <= max, "ran {} instructions on {max} fuel", vm.stats.instructions);
    }
    if let Some(max) = vm.options.max_heap_bytes {
        let heap_stopped = matches!(r, Err(RunError::Limit(Limit::Heap)));
        assert!(
            heap_stopped || vm.heap.bytes_estimate <= max.saturating_mul(2),
            "heap estimate {} is past twice the {max}-byte budget and the run was not stopped",
            vm.heap.bytes_estimate
        );
    }
}

/// Any state a script can leave at a safe point images and restores, and the restored VM still
/// runs.
pub fn check_image_roundtrip(vm: &mut Vm) {
    let bytes = match vm.encode_state() {
        Ok(bytes) => bytes,
        Err(e) => panic!("a safe-point state did not encode: {e}"),
    };
    if let Err(e) = vm.snapshot_roundtrip() {
        panic!("a safe-point state ({} bytes) did not restore: {e}", bytes.len());
    }
    vm.fuel = vm.fuel.min(1_000);
    let r = vm.run_jobs();
    check_limits(vm, &r);
}
