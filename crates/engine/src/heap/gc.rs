//! Precise mark-sweep collection over the arenas.
//!
//! Roots: the register stack, frames, intrinsics, well-known symbols, the global object and
//! lexical bindings, queued jobs, the symbol registry, the scoped root stack, pending
//! rejections. Collection runs only at interpreter instruction boundaries (see `interp`),
//! triggered by the allocation counter, never by wall time — so a restored VM collects at
//! exactly the same points as the original. Weak collections hold their entries strongly
//! (DESIGN §7: canonical images treat weak references as strong).

use crate::heap::children::{code_children, env_children, object_children};
use crate::heap::object::HeapStringChildren;
use crate::heap::{CodeId, EnvId, HeapString};
use crate::value::{Kind, Value};
use crate::vm::{Job, Vm};

struct Marks {
    objects: Vec<bool>,
    strings: Vec<bool>,
    symbols: Vec<bool>,
    bigints: Vec<bool>,
    envs: Vec<bool>,
    code: Vec<bool>,
}

/// Collect garbage now.
pub fn collect(vm: &mut Vm) {
    if let Some(observe) = vm.gc_observer {
        observe(vm, crate::vm::GcPhase::Start);
    }
    let heap = &vm.heap;
    let mut m = Marks {
        objects: vec![false; heap.objects.capacity()],
        strings: vec![false; heap.strings.capacity()],
        symbols: vec![false; heap.symbols.capacity()],
        bigints: vec![false; heap.bigints.capacity()],
        envs: vec![false; heap.envs.capacity()],
        code: vec![false; heap.code.capacity()],
    };
    let mut values: Vec<Value> = Vec::with_capacity(1024);
    let mut envs: Vec<EnvId> = Vec::new();
    let mut codes: Vec<CodeId> = Vec::new();
    roots(vm, &mut Gray { marks: &mut m, values: &mut values }, &mut envs, &mut codes);
    trace(vm, &mut m, values, envs, codes);
    let heap = &mut vm.heap;
    heap.objects.sweep(&m.objects);
    // Deleted Map/Set entries leave tombstones so live iterators keep their place; only
    // here, with every live iterator known, can they be squeezed out.
    crate::builtins::map::compact_collections(heap);
    heap.strings.sweep(&m.strings);
    heap.symbols.sweep(&m.symbols);
    heap.bigints.sweep(&m.bigints);
    heap.envs.sweep(&m.envs);
    heap.code.sweep(&m.code);
    heap.allocs_since_gc = 0;
    heap.bytes_since_gc = 0;
    heap.stats.collections += 1;
    vm.heap.bytes_estimate = estimate_bytes(vm);
    if let Some(observe) = vm.gc_observer {
        observe(vm, crate::vm::GcPhase::End);
    }
}

/// The heap-size estimate recomputed from what is live.
pub(crate) fn estimate_bytes(vm: &Vm) -> u64 {
    let h = &vm.heap;
    let objects: u64 = h.objects.iter().map(|(_, o)| crate::heap::object_bytes(o)).sum();
    let strings: u64 = h
        .strings
        .iter()
        .map(|(_, s)| match s {
            HeapString::Flat(f) => crate::heap::flat_string_bytes(f),
            HeapString::Rope { .. } => 32,
        })
        .sum();
    // The shape tree and the atom table are never collected; the queues are roots. Freed
    // arena slots keep their memory for reuse.
    let queues = crate::vm::job_queue_bytes(vm.jobs.len()) + vm.timers.len() as u64 * crate::vm::JOB_BYTES;
    let free = h.objects.free_bytes()
        + h.strings.free_bytes()
        + h.symbols.free_bytes()
        + h.bigints.free_bytes()
        + h.envs.free_bytes()
        + h.code.free_bytes();
    objects
        + free
        + strings
        + h.envs.iter().map(|(_, e)| crate::heap::env_bytes(e)).sum::<u64>()
        + h.code.live() as u64 * 256
        + h.shapes.bytes()
        + h.atoms.bytes()
        + queues
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

/// The mark phase's work list, marking as it takes: a handle goes on the list the first time
/// it is seen and never again (symbols and bigints, which hold nothing, are only marked).
/// Duplicates therefore cost nothing — a queue of a million microtasks of one callback, a
/// pending promise with a million reactions or a Map of a million numbers adds what is left
/// to trace, not every value it holds (the roots once copied every queued job's values, a
/// work list of an eighth of the heap at the moment the heap is largest).
struct Gray<'a> {
    marks: &'a mut Marks,
    values: &'a mut Vec<Value>,
}

impl Gray<'_> {
    fn take(&mut self, v: Value) {
        let m = &mut *self.marks;
        let (bits, push) = match v.kind() {
            Kind::Object(o) => (m.objects.get_mut(o.0 as usize), true),
            Kind::String(s) => (m.strings.get_mut(s.0 as usize), true),
            Kind::Symbol(s) => (m.symbols.get_mut(s.0 as usize), false),
            Kind::BigInt(b) => (m.bigints.get_mut(b.0 as usize), false),
            _ => return,
        };
        // A handle past the arena's end names nothing (the verifier reports it).
        if let Some(bit @ false) = bits {
            *bit = true;
            if push {
                self.values.push(v);
            }
        }
    }
}

impl Extend<Value> for Gray<'_> {
    fn extend<I: IntoIterator<Item = Value>>(&mut self, iter: I) {
        for v in iter {
            self.take(v);
        }
    }
}

fn trace(vm: &Vm, m: &mut Marks, mut values: Vec<Value>, mut envs: Vec<EnvId>, mut codes: Vec<CodeId>) {
    let heap = &vm.heap;
    loop {
        // Everything on `values` is marked already (see `Gray`): what is left is its children.
        if let Some(v) = values.pop() {
            let mut gray = Gray { marks: m, values: &mut values };
            match v.kind() {
                Kind::Object(o) => {
                    if let Some(obj) = heap.objects.get(o.0) {
                        object_children(obj, &heap.shapes, &mut gray, &mut envs, &mut codes);
                    }
                }
                Kind::String(s) => {
                    if let Some(hs) = heap.strings.get(s.0) {
                        hs.children(&mut gray);
                    }
                }
                _ => {}
            }
            continue;
        }
        if let Some(e) = envs.pop() {
            let i = e.0 as usize;
            if i >= m.envs.len() || m.envs[i] {
                continue;
            }
            m.envs[i] = true;
            if let Some(env) = heap.envs.get(e.0) {
                env_children(env, &mut Gray { marks: m, values: &mut values }, &mut envs);
            }
            continue;
        }
        if let Some(c) = codes.pop() {
            let i = c.0 as usize;
            if i >= m.code.len() || m.code[i] {
                continue;
            }
            m.code[i] = true;
            if let Some(code) = heap.code.get(c.0) {
                code_children(code, &mut Gray { marks: m, values: &mut values }, &mut codes);
            }
            continue;
        }
        break;
    }
}
