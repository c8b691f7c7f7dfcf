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
    roots(vm, &mut values, &mut envs, &mut codes);
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
pub fn roots(vm: &Vm, values: &mut Vec<Value>, envs: &mut Vec<EnvId>, codes: &mut Vec<CodeId>) {
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
    values.extend_from_slice(stack);
    for f in frames {
        f.children(values, envs, codes);
    }
    values.extend(realm.roots());
    for (name, _) in crate::realm::WellKnownSymbols::NAMES {
        if let Some(s) = symbols.by_name(name) {
            values.push(Value::symbol(s));
        }
    }
    values.push(Value::object(*global));
    values.extend(global_lexicals.values().map(|&(v, _)| v));
    for parked in realms.iter().flatten() {
        parked.children(values);
    }
    for job in jobs {
        job_children(job, values);
    }
    values.extend(symbol_registry.values().map(|&s| Value::symbol(s)));
    values.extend_from_slice(roots);
    values.extend_from_slice(pending_rejections);
    values.extend_from_slice(single_chars);
    values.extend(native_ctx.callee.map(Value::object));
    values.push(native_ctx.new_target);
    for f in native_frames {
        values.extend([Value::object(f.callee), f.this]);
    }
    for t in timers {
        values.extend([t.callback, t.this]);
        values.extend_from_slice(&t.args);
    }
    values.extend(host_ops.iter().map(|op| Value::object(op.promise)));
    for w in async_waiters {
        values.extend([Value::object(w.buffer), Value::object(w.promise)]);
    }
    values.extend(host_values.iter().map(|&(_, v)| v));
    modules.children(values, envs, codes);
}

fn job_children(job: &Job, out: &mut Vec<Value>) {
    match job {
        Job::Reaction { reaction, argument } => {
            out.push(reaction.handler);
            if let Some((a, b, c)) = reaction.capability {
                out.extend([a, b, c]);
            }
            out.push(*argument);
        }
        Job::ResolveThenable { promise, thenable, then } => out.extend([*promise, *thenable, *then]),
        Job::Callback { callback } => out.push(*callback),
    }
}

/// Whether `v` names a heap entity not yet marked: only those go on the work list, so a
/// large array of numbers (or of one object, repeated) costs the mark phase no memory.
#[inline]
fn unmarked_handle(m: &Marks, v: Value) -> bool {
    match v.kind() {
        Kind::Object(o) => !m.objects.get(o.0 as usize).copied().unwrap_or(true),
        Kind::String(s) => !m.strings.get(s.0 as usize).copied().unwrap_or(true),
        Kind::Symbol(_) | Kind::BigInt(_) => true,
        _ => false,
    }
}

/// The mark phase's work list, taking only handles not yet marked: a pending promise with a
/// million reactions, or a Map of a million numbers, adds what is left to mark, not every
/// value it holds (which once made a collection's own work list a quarter of the heap).
struct Unmarked<'a> {
    marks: &'a Marks,
    values: &'a mut Vec<Value>,
}

impl Extend<Value> for Unmarked<'_> {
    fn extend<I: IntoIterator<Item = Value>>(&mut self, iter: I) {
        let marks = self.marks;
        self.values.extend(iter.into_iter().filter(|&v| unmarked_handle(marks, v)));
    }
}

fn trace(vm: &Vm, m: &mut Marks, mut values: Vec<Value>, mut envs: Vec<EnvId>, mut codes: Vec<CodeId>) {
    let heap = &vm.heap;
    loop {
        if let Some(v) = values.pop() {
            match v.kind() {
                Kind::Object(o) => {
                    let i = o.0 as usize;
                    if i >= m.objects.len() || m.objects[i] {
                        continue;
                    }
                    m.objects[i] = true;
                    let Some(obj) = heap.objects.get(o.0) else { continue };
                    let mut unmarked = Unmarked { marks: m, values: &mut values };
                    object_children(obj, &heap.shapes, &mut unmarked, &mut envs, &mut codes);
                }
                Kind::String(s) => {
                    let i = s.0 as usize;
                    if i >= m.strings.len() || m.strings[i] {
                        continue;
                    }
                    m.strings[i] = true;
                    if let Some(hs) = heap.strings.get(s.0) {
                        hs.children(&mut values);
                    }
                }
                Kind::Symbol(s) => {
                    if let Some(b) = m.symbols.get_mut(s.0 as usize) {
                        *b = true;
                    }
                }
                Kind::BigInt(b) => {
                    if let Some(x) = m.bigints.get_mut(b.0 as usize) {
                        *x = true;
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
                env_children(env, &mut Unmarked { marks: m, values: &mut values }, &mut envs);
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
                code_children(code, &mut Unmarked { marks: m, values: &mut values }, &mut codes);
            }
            continue;
        }
        break;
    }
}
