//! Shared memory between agents: two VMs on two threads share a SharedArrayBuffer's block.
//! `Atomics.wait` in one is woken by `Atomics.notify` in the other, a `waitAsync` promise is
//! settled from another agent, and a VM restored from an image keeps its pending waiters.
#![allow(clippy::unwrap_used)]
#![allow(clippy::disallowed_methods, reason = "tests pace real threads against each other")]

use std::time::Duration;

use amber_engine::builtins::array_buffer;
use amber_engine::heap::shared_block::SharedBlock;
use amber_engine::{Value, Vm, VmOptions};

fn eval_string(vm: &mut Vm, source: &str) -> String {
    let v = vm.eval_script(source, "check.js").unwrap_or_else(|e| panic!("{source}: {e:?}"));
    vm.to_display_string(v)
}

/// The block of the SharedArrayBuffer in global `name`.
fn block_of(vm: &mut Vm, name: &str) -> SharedBlock {
    let v = vm.eval_script(name, "get.js").unwrap();
    array_buffer::shared_block(vm, v.as_object().unwrap()).unwrap().clone()
}

/// A VM with `sab` bound to a SharedArrayBuffer over `block`.
fn vm_sharing(block: SharedBlock) -> Vm {
    let mut vm = Vm::new(VmOptions::default());
    let sab = array_buffer::new_shared_array_buffer(&mut vm, block, None);
    let global = vm.global_object();
    vm.set_property(global, "sab", sab);
    vm
}

#[test]
fn writes_and_atomics_are_seen_by_the_other_agent() {
    let mut main = Vm::new(VmOptions::default());
    eval_string(&mut main, "var sab = new SharedArrayBuffer(16); var i32 = new Int32Array(sab); i32[1] = 41;");
    let block = block_of(&mut main, "sab");
    let mut other = vm_sharing(block);
    assert_eq!(eval_string(&mut other, "var i32 = new Int32Array(sab); Atomics.add(i32, 1, 1)"), "41");
    assert_eq!(eval_string(&mut main, "i32[1] + ':' + new DataView(sab).getInt32(4, true)"), "42:42");
    // Only a sequentially consistent exchange can see the other's value.
    assert_eq!(eval_string(&mut main, "Atomics.compareExchange(i32, 1, 42, 7)"), "42");
    assert_eq!(eval_string(&mut other, "Atomics.load(i32, 1)"), "7");
}

#[test]
fn a_blocked_agent_is_woken_by_a_notify_from_another() {
    let mut main = Vm::new(VmOptions::default());
    eval_string(&mut main, "var sab = new SharedArrayBuffer(8); var i32 = new Int32Array(sab);");
    let block = block_of(&mut main, "sab");
    let waiter = std::thread::spawn(move || {
        let mut vm = vm_sharing(block);
        eval_string(&mut vm, "var i32 = new Int32Array(sab); Atomics.store(i32, 1, 1); Atomics.wait(i32, 0, 0, 60000)")
    });
    // Wait until the other agent is about to wait, then notify until it is woken.
    while eval_string(&mut main, "Atomics.load(i32, 1)") != "1" {
        std::thread::yield_now();
    }
    while eval_string(&mut main, "Atomics.notify(i32, 0)") != "1" {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(waiter.join().unwrap(), "ok");
    // Alone with its block, an agent's wait cannot be notified: it times out at once.
    assert_eq!(eval_string(&mut main, "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)"), "timed-out");
    assert_eq!(eval_string(&mut main, "Atomics.wait(i32, 0, 1)"), "not-equal");
}

#[test]
fn a_wait_async_promise_is_settled_by_another_agent() {
    let mut main = Vm::new(VmOptions::default());
    eval_string(
        &mut main,
        "var sab = new SharedArrayBuffer(8); var i32 = new Int32Array(sab); var outcome = 'pending';
         Atomics.waitAsync(i32, 0, 0).value.then(v => { outcome = v; });",
    );
    assert!(!main.awaits_other_agents());
    let block = block_of(&mut main, "sab");
    let mut other = vm_sharing(block);
    assert!(main.awaits_other_agents());
    assert_eq!(eval_string(&mut other, "Atomics.notify(new Int32Array(sab), 0)"), "1");
    main.run_jobs().unwrap();
    assert_eq!(eval_string(&mut main, "outcome"), "pending");
    assert!(main.take_agent_signals().unwrap());
    main.run_jobs().unwrap();
    assert_eq!(eval_string(&mut main, "outcome"), "ok");
    assert!(!main.awaits_other_agents());
}

#[test]
fn a_restored_vm_keeps_its_pending_waiters() {
    let mut vm = Vm::new(VmOptions::default());
    eval_string(
        &mut vm,
        "var i32 = new Int32Array(new SharedArrayBuffer(8)); i32[1] = 5; var outcome = [];
         Atomics.waitAsync(i32, 0, 0).value.then(v => outcome.push('first ' + v));
         Atomics.waitAsync(i32, 0, 0, 10).value.then(v => outcome.push('second ' + v));",
    );
    let bytes = vm.encode_state().unwrap();
    let mut restored = Vm::decode_state(&bytes).unwrap();
    assert_eq!(eval_string(&mut restored, "i32[1]"), "5");
    // The first waiter is back in the (new) block's list; the second times out on its timer.
    assert_eq!(eval_string(&mut restored, "Atomics.notify(i32, 0, 1)"), "1");
    let (id, _) = restored.next_timer().unwrap();
    assert!(restored.fire_timer(id).unwrap());
    restored.run_jobs().unwrap();
    assert_eq!(eval_string(&mut restored, "outcome.join()"), "first ok,second timed-out");
    assert_eq!(eval_string(&mut restored, "Atomics.notify(i32, 0)"), "0");
}

#[test]
fn an_in_process_round_trip_keeps_sharing_the_block() {
    let mut main = Vm::new(VmOptions::default());
    eval_string(&mut main, "var sab = new SharedArrayBuffer(8);");
    let block = block_of(&mut main, "sab");
    main.snapshot_roundtrip().unwrap();
    assert!(block_of(&mut main, "sab").same(&block));
    block.write(0, &[3]);
    assert_eq!(eval_string(&mut main, "new Uint8Array(sab)[0]"), "3");
    let _: Value = main.global_object();
}
