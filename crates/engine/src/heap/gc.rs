//! Precise mark-sweep collection over the arenas, from the roots the caller gives.
//!
//! The VM's roots and the moment to collect are the VM's business (`gc.rs` at the crate root:
//! `collect` lists the roots by destructuring `Vm`, runs [`mark`] and [`sweep`], and
//! recomputes the heap estimate). Weak collections hold their entries strongly (DESIGN §7:
//! canonical images treat weak references as strong).

use crate::heap::children::{code_children, env_children, object_children};
use crate::heap::object::HeapStringChildren;
use crate::heap::{CodeId, EnvId, Heap, HeapString};
use crate::value::{Kind, Value};

/// One mark bit per arena slot: what [`mark`] found reachable.
pub struct Marks {
    objects: Vec<bool>,
    strings: Vec<bool>,
    symbols: Vec<bool>,
    bigints: Vec<bool>,
    envs: Vec<bool>,
    code: Vec<bool>,
}

/// Marks everything reachable from the roots `roots` puts on the work list (values through
/// [`Gray`], environments and code blocks on the two vectors).
pub fn mark(heap: &Heap, roots: impl FnOnce(&mut Gray<'_>, &mut Vec<EnvId>, &mut Vec<CodeId>)) -> Marks {
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
    roots(&mut Gray { marks: &mut m, values: &mut values }, &mut envs, &mut codes);
    trace(heap, &mut m, values, envs, codes);
    m
}

/// Frees every slot `marks` did not reach and starts a new allocation count.
pub fn sweep(heap: &mut Heap, m: &Marks) {
    heap.objects.sweep(&m.objects);
    heap.strings.sweep(&m.strings);
    heap.symbols.sweep(&m.symbols);
    heap.bigints.sweep(&m.bigints);
    heap.envs.sweep(&m.envs);
    heap.code.sweep(&m.code);
    heap.allocs_since_gc = 0;
    heap.bytes_since_gc = 0;
    heap.stats.collections += 1;
}

/// The estimate of what the heap's live entities and free slots take: the heap's share of
/// the collector's pacing figure (the VM adds its queues).
pub fn heap_bytes(h: &Heap) -> u64 {
    let objects: u64 = h.objects.iter().map(|(_, o)| crate::heap::object_bytes(o)).sum();
    let strings: u64 = h
        .strings
        .iter()
        .map(|(_, s)| match s {
            HeapString::Flat(f) => crate::heap::flat_string_bytes(f),
            HeapString::Rope { .. } => 32,
        })
        .sum();
    // The shape tree and the atom table are never collected. Freed arena slots keep their
    // memory for reuse.
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
}

/// The mark phase's work list, marking as it takes: a handle goes on the list the first time
/// it is seen and never again (symbols and bigints, which hold nothing, are only marked).
/// Duplicates therefore cost nothing — a queue of a million microtasks of one callback, a
/// pending promise with a million reactions or a Map of a million numbers adds what is left
/// to trace, not every value it holds (the roots once copied every queued job's values, a
/// work list of an eighth of the heap at the moment the heap is largest).
pub struct Gray<'a> {
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

fn trace(heap: &Heap, m: &mut Marks, mut values: Vec<Value>, mut envs: Vec<EnvId>, mut codes: Vec<CodeId>) {
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
