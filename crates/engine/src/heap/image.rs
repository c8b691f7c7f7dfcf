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

use crate::bytecode::CodeBlock;
use crate::heap::code_blob::Link;
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
    code_blobs: Vec<[u8; 32]>,
    code: CodeDeltaOut<'a>,
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
    code_blobs: Vec<[u8; 32]>,
    code: CodeDeltaIn,
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

/// A code slot as written: the block, or (compiled from a lower-layer source) its place in a
/// code blob of the image's table plus its per-VM fields (`code_blob.rs`).
#[derive(Serialize)]
enum CodeSlotOut<'a> {
    Inline(&'a CodeBlock),
    Shared { blob: u32, index: u32, link: Link },
}

#[derive(Deserialize)]
enum CodeSlotIn {
    Inline(Box<CodeBlock>),
    Shared { blob: u32, index: u32, link: Link },
}

#[derive(Serialize)]
struct CodeDeltaOut<'a> {
    base_len: u32,
    changed: Vec<(u32, Option<CodeSlotOut<'a>>)>,
    tail: Vec<Option<CodeSlotOut<'a>>>,
    free: &'a [u32],
}

#[derive(Deserialize)]
struct CodeDeltaIn {
    base_len: u32,
    changed: Vec<(u32, Option<CodeSlotIn>)>,
    tail: Vec<Option<CodeSlotIn>>,
    free: Vec<u32>,
}

/// A code block a restore rebuilt from a code blob: the caller checks it against its source
/// once the source texts are back (`Vm::decode_state_with_blobs`).
pub struct SharedCode {
    /// Its handle.
    pub code: u32,
    /// The blob's sha256.
    pub blob: [u8; 32],
    /// The sha256 of the text the blob was compiled from.
    pub text_sha256: [u8; 32],
}

/// Where a restore finds code blobs by sha256 (the lower-layer blob lookup).
pub type CodeBlobLookup<'a> = Option<&'a mut dyn FnMut(&[u8; 32]) -> Option<Vec<u8>>>;

/// The code arena's delta, with every block shared from a code blob written as a reference
/// (its source names the blob, `sources` by source index); also the table of blob hashes,
/// sorted.
fn code_delta<'a>(
    now: &'a Arena<CodeBlock>,
    base: &Arena<CodeBlock>,
    sources: &[crate::heap::source::Source],
) -> Result<(Vec<[u8; 32]>, CodeDeltaOut<'a>), String> {
    let blob_of = |code: &CodeBlock| -> Option<(u32, [u8; 32])> {
        Some((code.shared?, sources.get(code.source_id as usize)?.code?))
    };
    let table: std::collections::BTreeSet<[u8; 32]> =
        now.items.iter().flatten().filter_map(|c| blob_of(c).map(|(_, h)| h)).collect();
    let table: Vec<[u8; 32]> = table.into_iter().collect();
    let slot = |code: &'a CodeBlock| -> CodeSlotOut<'a> {
        match blob_of(code).and_then(|(index, h)| Some((index, table.binary_search(&h).ok()? as u32))) {
            Some((index, blob)) => CodeSlotOut::Shared { blob, index, link: Link::of(code) },
            None => CodeSlotOut::Inline(code),
        }
    };
    let delta = arena_delta(now, base)?;
    let changed = delta.changed.into_iter().map(|(i, c)| (i, c.map(slot))).collect();
    let tail = delta.tail.iter().map(|c| c.as_ref().map(slot)).collect();
    Ok((table, CodeDeltaOut { base_len: delta.base_len, changed, tail, free: delta.free }))
}

/// Rebuilds the code slots of `delta` (blobs fetched through `lookup`, atoms re-interned
/// from `atoms`), noting each shared block in `shared`.
fn resolve_code(
    delta: CodeDeltaIn,
    table: &[[u8; 32]],
    atoms: &crate::atoms::Atoms,
    mut lookup: CodeBlobLookup<'_>,
    shared: &mut Vec<SharedCode>,
) -> Result<ArenaDeltaIn<CodeBlock>, String> {
    let mut opened: Vec<Option<crate::heap::code_blob::Blob>> = table.iter().map(|_| None).collect();
    let mut resolve = |at: u32, slot: Option<CodeSlotIn>| -> Result<Option<CodeBlock>, String> {
        let (blob, index, link) = match slot {
            None => return Ok(None),
            Some(CodeSlotIn::Inline(code)) => return Ok(Some(*code)),
            Some(CodeSlotIn::Shared { blob, index, link }) => (blob, index, link),
        };
        let hash =
            table.get(blob as usize).ok_or_else(|| format!("corrupt heap delta: code {at} names blob {blob}"))?;
        let name: String = hash.iter().map(|b| format!("{b:02x}")).collect();
        if opened[blob as usize].is_none() {
            let Some(lookup) = lookup.as_deref_mut() else {
                return Err(format!("the image names code blob {name}, but no blob store is attached"));
            };
            let bytes = lookup(hash).ok_or_else(|| {
                format!("code blob {name} is not in the store (missing, or its stored bytes do not have its hash)")
            })?;
            opened[blob as usize] = Some(crate::heap::code_blob::open(hash, &bytes, atoms)?);
        }
        let Some(opened) = &mut opened[blob as usize] else { return Err("code blob: lost".into()) };
        let code = opened.block(index, link).map_err(|e| format!("code blob {name}: {e}"))?;
        shared.push(SharedCode { code: at, blob: *hash, text_sha256: opened.text_sha256 });
        Ok(Some(code))
    };
    let mut changed = Vec::with_capacity(delta.changed.len());
    for (i, slot) in delta.changed {
        changed.push((i, resolve(i, slot)?));
    }
    let mut tail = Vec::with_capacity(delta.tail.len());
    for (k, slot) in delta.tail.into_iter().enumerate() {
        tail.push(resolve(delta.base_len.saturating_add(k as u32), slot)?);
    }
    Ok(ArenaDeltaIn { base_len: delta.base_len, changed, tail, free: delta.free })
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

/// Encode `heap` relative to `baseline`; code blocks shared from the code blobs that
/// `sources` (the VM's, by source index) name are written as references to them.
pub fn encode_delta(heap: &Heap, baseline: &Heap, sources: &[crate::heap::source::Source]) -> Result<Vec<u8>, String> {
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
    let (code_blobs, code) = code_delta(&heap.code, &baseline.code, sources)?;
    let delta = HeapDeltaOut {
        fingerprint: fingerprint(baseline)?,
        objects: arena_delta(&heap.objects, &baseline.objects)?,
        strings: arena_delta(&heap.strings, &baseline.strings)?,
        symbols: arena_delta(&heap.symbols, &baseline.symbols)?,
        bigints: arena_delta(&heap.bigints, &baseline.bigints)?,
        envs: arena_delta(&heap.envs, &baseline.envs)?,
        code_blobs,
        code,
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

/// Rebuild a heap from `bytes` (made by [`encode_delta`]) and the same baseline, fetching the
/// code blobs it names through `lookup`. Also returns the blocks rebuilt from code blobs, for
/// the caller to check against their sources.
pub fn decode_delta(
    bytes: &[u8],
    mut baseline: Heap,
    lookup: CodeBlobLookup<'_>,
) -> Result<(Heap, Vec<SharedCode>), String> {
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
    // Code last: blocks from code blobs name their atoms by text, in the table just rebuilt.
    if delta.code_blobs.windows(2).any(|w| w[0] >= w[1]) {
        return Err("corrupt heap delta: the code blob table is not sorted and distinct".into());
    }
    let mut shared = Vec::new();
    let code = resolve_code(delta.code, &delta.code_blobs, &baseline.atoms, lookup, &mut shared)?;
    apply_arena(&mut baseline.code, code, "code")?;
    baseline.allocs_since_gc = delta.allocs_since_gc;
    baseline.bytes_since_gc = delta.bytes_since_gc;
    baseline.bytes_estimate = delta.bytes_estimate;
    baseline.stats = delta.stats;
    Ok((baseline, shared))
}
