//! Baseline-relative heap encoding (DESIGN §7): an image stores only what differs from the
//! baseline heap — the heap every run starts from, built deterministically by `Vm::new`
//! plus the embedder's installs — so a small agent's image holds its own objects, not the
//! thousands of intrinsics it shares with every other run.
//!
//! For every arena the delta holds the baseline slots whose contents changed (or were
//! freed), every slot past the baseline's length, and the free list. Shapes and atoms are
//! append-only tables: changed baseline shapes (a builtin gained a transition) plus the
//! tail; atoms, immutable once interned, only the tail. "Changed" is decided by comparing
//! the bincode encoding of each slot with the baseline's, so the delta applied to the same
//! baseline rebuilds the heap exactly — layout, free lists and all — and a restored run
//! allocates, collects and encodes exactly as the original would have.
//!
//! The delta names its baseline by a fingerprint (FNV-1a over the baseline heap's
//! encoding); restoring against a different baseline (another engine build or embedder
//! install) is refused before anything is applied.

use serde::{Deserialize, Serialize};

use crate::heap::shape::Shape;
use crate::heap::{Arena, Heap, HeapStats};
use crate::string::JsStr;

/// Arena slots as written: baseline slots that differ, slots past the baseline, free list.
#[derive(Serialize)]
struct ArenaDeltaOut<'a, T> {
    base_len: u32,
    changed: Vec<(u32, Option<&'a T>)>,
    tail: &'a [Option<T>],
    free: &'a [u32],
}

#[derive(Deserialize)]
struct ArenaDeltaIn<T> {
    base_len: u32,
    changed: Vec<(u32, Option<T>)>,
    tail: Vec<Option<T>>,
    free: Vec<u32>,
}

#[derive(Serialize)]
struct HeapDeltaOut<'a> {
    fingerprint: u64,
    objects: ArenaDeltaOut<'a, crate::heap::object::Object>,
    strings: ArenaDeltaOut<'a, crate::heap::HeapString>,
    symbols: ArenaDeltaOut<'a, crate::heap::object::Symbol>,
    bigints: ArenaDeltaOut<'a, num_bigint::BigInt>,
    envs: ArenaDeltaOut<'a, crate::heap::object::Env>,
    code: ArenaDeltaOut<'a, crate::bytecode::CodeBlock>,
    shapes_base_len: u32,
    shapes_changed: Vec<(u32, &'a Shape)>,
    shapes_tail: &'a [Shape],
    atoms_base_len: u32,
    atoms_tail: Vec<&'a JsStr>,
    allocs_since_gc: u64,
    bytes_since_gc: u64,
    bytes_estimate: u64,
    stats: HeapStats,
}

#[derive(Deserialize)]
struct HeapDeltaIn {
    fingerprint: u64,
    objects: ArenaDeltaIn<crate::heap::object::Object>,
    strings: ArenaDeltaIn<crate::heap::HeapString>,
    symbols: ArenaDeltaIn<crate::heap::object::Symbol>,
    bigints: ArenaDeltaIn<num_bigint::BigInt>,
    envs: ArenaDeltaIn<crate::heap::object::Env>,
    code: ArenaDeltaIn<crate::bytecode::CodeBlock>,
    shapes_base_len: u32,
    shapes_changed: Vec<(u32, Shape)>,
    shapes_tail: Vec<Shape>,
    atoms_base_len: u32,
    atoms_tail: Vec<JsStr>,
    allocs_since_gc: u64,
    bytes_since_gc: u64,
    bytes_estimate: u64,
    stats: HeapStats,
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ 1 << 30 }>()
}

fn encoded<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
    bincode::serde::encode_to_vec(value, config()).map_err(|e| e.to_string())
}

/// FNV-1a, 64-bit: names a baseline (not a security check; images are sealed by sha256).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The fingerprint of a baseline heap.
pub fn fingerprint(baseline: &Heap) -> Result<u64, String> {
    Ok(fnv1a(&encoded(baseline)?))
}

fn arena_delta<'a, T: Serialize>(now: &'a Arena<T>, base: &Arena<T>) -> Result<ArenaDeltaOut<'a, T>, String> {
    let base_len = base.items.len().min(now.items.len());
    let mut changed = Vec::new();
    for i in 0..base_len {
        let (a, b) = (&now.items[i], &base.items[i]);
        let same = match (a, b) {
            (None, None) => true,
            (Some(x), Some(y)) => encoded(x)? == encoded(y)?,
            _ => false,
        };
        if !same {
            changed.push((i as u32, a.as_ref()));
        }
    }
    Ok(ArenaDeltaOut { base_len: base_len as u32, changed, tail: &now.items[base_len..], free: &now.free })
}

fn apply_arena<T>(base: &mut Arena<T>, delta: ArenaDeltaIn<T>, what: &str) -> Result<(), String> {
    let base_len = delta.base_len as usize;
    if base_len > base.items.len() {
        return Err(format!("corrupt heap delta: {what} baseline length {base_len} exceeds the baseline"));
    }
    base.items.truncate(base_len);
    for (i, slot) in delta.changed {
        match base.items.get_mut(i as usize) {
            Some(s) => *s = slot,
            None => return Err(format!("corrupt heap delta: {what} slot {i} is past the baseline")),
        }
    }
    base.items.extend(delta.tail);
    let len = base.items.len() as u32;
    if let Some(&bad) = delta.free.iter().find(|&&i| i >= len || base.items[i as usize].is_some()) {
        return Err(format!("corrupt heap delta: {what} free slot {bad} is out of range or live"));
    }
    if let Some(&bad) = delta.free.iter().find(|&&i| (i as usize) < base_len) {
        return Err(format!("corrupt heap delta: {what} free slot {bad} is a baseline slot"));
    }
    base.free = delta.free;
    base.floor = delta.base_len;
    Ok(())
}

/// Encode `heap` relative to `baseline`.
pub fn encode_delta(heap: &Heap, baseline: &Heap) -> Result<Vec<u8>, String> {
    let shapes_base_len = baseline.shapes.len().min(heap.shapes.len());
    let mut shapes_changed = Vec::new();
    for i in 0..shapes_base_len {
        let (a, b) = (heap.shapes.slot(i), baseline.shapes.slot(i));
        if encoded(a)? != encoded(b)? {
            shapes_changed.push((i as u32, a));
        }
    }
    let atoms_base_len = baseline.atoms.len().min(heap.atoms.len());
    for i in 0..atoms_base_len {
        if heap.atoms.get(crate::atoms::Atom(i as u32)) != baseline.atoms.get(crate::atoms::Atom(i as u32)) {
            return Err(format!("atom {i} differs from the baseline's: the heap does not descend from it"));
        }
    }
    let delta = HeapDeltaOut {
        fingerprint: fingerprint(baseline)?,
        objects: arena_delta(&heap.objects, &baseline.objects)?,
        strings: arena_delta(&heap.strings, &baseline.strings)?,
        symbols: arena_delta(&heap.symbols, &baseline.symbols)?,
        bigints: arena_delta(&heap.bigints, &baseline.bigints)?,
        envs: arena_delta(&heap.envs, &baseline.envs)?,
        code: arena_delta(&heap.code, &baseline.code)?,
        shapes_base_len: shapes_base_len as u32,
        shapes_changed,
        shapes_tail: heap.shapes.tail(shapes_base_len),
        atoms_base_len: atoms_base_len as u32,
        atoms_tail: (atoms_base_len..heap.atoms.len()).map(|i| heap.atoms.get(crate::atoms::Atom(i as u32))).collect(),
        allocs_since_gc: heap.allocs_since_gc,
        bytes_since_gc: heap.bytes_since_gc,
        bytes_estimate: heap.bytes_estimate,
        stats: heap.stats,
    };
    encoded(&delta)
}

/// Rebuild a heap from `bytes` (made by [`encode_delta`]) and the same baseline.
pub fn decode_delta(bytes: &[u8], mut baseline: Heap) -> Result<Heap, String> {
    let (delta, used): (HeapDeltaIn, usize) =
        bincode::serde::decode_from_slice(bytes, config()).map_err(|e| format!("corrupt heap delta: {e}"))?;
    if used != bytes.len() {
        return Err(format!("corrupt heap delta: {} trailing bytes", bytes.len() - used));
    }
    let expected = fingerprint(&baseline)?;
    if delta.fingerprint != expected {
        return Err(format!(
            "the image was taken against baseline heap {:016x}, but this engine builds {expected:016x} \
             (another engine build or embedder install); migrate by replaying the journal",
            delta.fingerprint
        ));
    }
    apply_arena(&mut baseline.objects, delta.objects, "object")?;
    apply_arena(&mut baseline.strings, delta.strings, "string")?;
    apply_arena(&mut baseline.symbols, delta.symbols, "symbol")?;
    apply_arena(&mut baseline.bigints, delta.bigints, "bigint")?;
    apply_arena(&mut baseline.envs, delta.envs, "environment")?;
    apply_arena(&mut baseline.code, delta.code, "code")?;
    baseline.shapes.rebuild(delta.shapes_base_len as usize, delta.shapes_changed, delta.shapes_tail)?;
    if delta.atoms_base_len as usize != baseline.atoms.len() {
        return Err("corrupt heap delta: the atom table does not extend the baseline's".into());
    }
    for s in &delta.atoms_tail {
        let before = baseline.atoms.len();
        baseline.atoms.intern(s);
        if baseline.atoms.len() == before {
            return Err("corrupt heap delta: a duplicate atom".into());
        }
    }
    baseline.allocs_since_gc = delta.allocs_since_gc;
    baseline.bytes_since_gc = delta.bytes_since_gc;
    baseline.bytes_estimate = delta.bytes_estimate;
    baseline.stats = delta.stats;
    Ok(baseline)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::vm::{Vm, VmOptions};

    #[test]
    fn a_delta_restores_the_exact_heap_and_omits_the_baseline() {
        let baseline = Vm::new(VmOptions::default());
        let mut vm = Vm::new(VmOptions::default());
        vm.heap.seal_baseline();
        let script = "var kept = { a: [1, 2, 3], s: 'x'.repeat(40) }; Array.prototype.extra = 1; delete Math.max;";
        vm.eval_script(script, "t.js").map_err(|e| e.to_string()).unwrap();
        let full = vm.encode_state().unwrap();
        let delta = vm.encode_state_relative(&baseline).unwrap();
        assert!(delta.len() * 10 < full.len(), "delta {} vs full {}", delta.len(), full.len());
        let restored = Vm::decode_state_relative(&delta, Vm::new(VmOptions::default())).unwrap();
        assert_eq!(restored.encode_state().unwrap(), full);
    }

    #[test]
    fn a_delta_is_refused_against_another_baseline() {
        let baseline = Vm::new(VmOptions::default());
        let delta = baseline.encode_state_relative(&baseline).unwrap();
        let mut other = Vm::new(VmOptions::default());
        other.eval_script("globalThis.changed = 1", "t.js").map_err(|e| e.to_string()).unwrap();
        let err = Vm::decode_state_relative(&delta, other).err().unwrap();
        assert!(err.contains("baseline"), "{err}");
        assert!(Vm::decode_state(&delta).is_err());
    }
}
