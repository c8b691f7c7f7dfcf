//! When and from what the heap is collected: the VM's side of the collector.
//!
//! Roots: the register stack, frames, intrinsics, well-known symbols, the global object and
//! lexical bindings, queued jobs, the symbol registry, the scoped root stack, pending
//! rejections. Collection runs only at interpreter instruction boundaries (see `interp`),
//! triggered by the allocation counter, never by wall time — so a restored VM collects at
//! exactly the same points as the original. The mark and sweep themselves are the heap's
//! (`heap/gc.rs`), which knows nothing of `Vm`.

use crate::heap::gc::{heap_bytes, mark, sweep};
use crate::heap::{CodeId, EnvId};
use crate::value::Value;
use crate::vm::{GcPhase, Job, Vm, JOB_BYTES};

/// Collect garbage now.
pub fn collect(vm: &mut Vm) {
    if let Some(observe) = vm.gc_observer {
        observe(vm, GcPhase::Start);
    }
    let marks = mark(&vm.heap, |gray, envs, codes| roots(vm, gray, envs, codes));
    sweep(&mut vm.heap, &marks);
    // Deleted Map/Set entries leave tombstones so live iterators keep their place; only
    // here, with every live iterator known, can they be squeezed out.
    crate::builtins::map::compact_collections(&mut vm.heap);
    vm.heap.bytes_estimate = estimate_bytes(vm);
    if let Some(observe) = vm.gc_observer {
        observe(vm, GcPhase::End);
    }
}

/// The heap-size estimate recomputed from what is live: the heap's own figure and the job
/// and timer queues (roots, which grow with the program too).
pub(crate) fn estimate_bytes(vm: &Vm) -> u64 {
    let queues = crate::vm::job_queue_bytes(vm.jobs.len()) + vm.timers.len() as u64 * JOB_BYTES;
    heap_bytes(&vm.heap) + queues
}

/// Every root of the VM. `Vm` is destructured without `..`: a new field does not compile
/// until it is listed here, as a root or with why it holds none.
pub fn roots(vm: &Vm, values: &mut impl Extend<Value>, envs: &mut Vec<EnvId>, codes: &mut Vec<CodeId>) {
    let Vm {
        // Roots.
        stack,
        frames,
        realm,
        symbols,
        global,
        global_lexicals,
        realms,
        jobs,
        symbol_registry,
        roots,
        native_ctx,
        pending_rejections,
        single_chars,
        timers,
        async_waiters,
        host_ops,
        host_values,
        modules,
        native_frames,
        // The running reaction job's handler and promise: the job's own roots hold both.
        current_reaction: _,
        // The arenas themselves (what the roots reach is kept).
        heap: _,
        // Objects being joined by `Array.prototype.join`: each is held by the frame joining it.
        join_stack: _,
        // A cache keyed by a string handle, not a root: a collection invalidates it.
        regexp_subject: _,
        // No handles: numbers, flags, options, host hooks and host bytes, source texts,
        // the filesystem (plain data) and code blob bytes.
        current_realm: _,
        options: _,
        fuel: _,
        sources: _,
        stats: _,
        yield_raw: _,
        native_depth: _,
        next_timer_id: _,
        agent: _,
        clock_ms: _,
        clock_read: _,
        pure_depth: _,
        effects_refused: _,
        next_op_seq: _,
        host_functions: _,
        print_hook: _,
        gc_observer: _,
        entropy_hook: _,
        touch_hook: _,
        host_state: _,
        module_loader: _,
        vfs: _,
        code_blobs: _,
    } = vm;
    values.extend(stack.iter().copied());
    for f in frames {
        f.children(values, envs, codes);
    }
    values.extend(realm.roots());
    for (name, _) in crate::realm::WellKnownSymbols::NAMES {
        if let Some(s) = symbols.by_name(name) {
            values.extend([Value::symbol(s)]);
        }
    }
    values.extend([Value::object(*global)]);
    values.extend(global_lexicals.values().map(|&(v, _)| v));
    for parked in realms.iter().flatten() {
        parked.children(values);
    }
    for job in jobs {
        job_children(job, values);
    }
    values.extend(symbol_registry.values().map(|&s| Value::symbol(s)));
    values.extend(roots.iter().copied());
    values.extend(pending_rejections.iter().copied());
    values.extend(single_chars.iter().copied());
    values.extend(native_ctx.callee.map(Value::object));
    values.extend([native_ctx.new_target]);
    for f in native_frames {
        values.extend([Value::object(f.callee), f.this]);
    }
    for t in timers {
        values.extend([t.callback, t.this]);
        values.extend(t.args.iter().copied());
    }
    values.extend(host_ops.iter().map(|op| Value::object(op.promise)));
    for w in async_waiters {
        values.extend([Value::object(w.buffer), Value::object(w.promise)]);
    }
    values.extend(host_values.iter().map(|&(_, v)| v));
    modules.children(values, envs, codes);
}

fn job_children(job: &Job, out: &mut impl Extend<Value>) {
    match job {
        Job::Reaction { reaction, argument } => {
            out.extend([reaction.handler, *argument]);
            out.extend(reaction.capability.map(|(a, b, c)| [a, b, c]).into_iter().flatten());
        }
        Job::ResolveThenable { promise, thenable, then } => out.extend([*promise, *thenable, *then]),
        Job::Callback { callback } => out.extend([*callback]),
    }
}
