//! The canonical form of a VM state: what the state *is*, independent of how the heap got laid
//! out (DESIGN §7, "canonical bytes").
//!
//! Two histories can reach the same logical state with different heaps: a live `amber.step`
//! runs its function and a replay does not, so the live heap has had garbage, extra shapes and
//! atoms, other free-list orders, other collection points, and warmer inline caches. The
//! canonical form numbers every entity reachable from the roots in a breadth-first traversal
//! order and writes it with handles replaced by those numbers, atoms and shapes by their
//! contents, strings flattened, Map/Set tables without tombstones, and without caches or
//! counters (inline caches, fuel, statistics, collection pacing). Garbage is never reached.
//!
//! The traversal rides on serde: while a canonical walk is active, the `Serialize` impls of
//! the handle types ([`crate::value::ObjectId`], `Value`, `Atom`, `ShapeId`, …) ask
//! [`renumber`] for the canonical number, and a handle seen for the first time is numbered and
//! queued. Serializing an entity therefore both writes it and discovers its children, in the
//! order its fields are declared, which is part of the logical state. Outside a walk the impls
//! write the stored handle, exactly as the derived impls did.

use std::cell::Cell;

use serde::{Serialize, Serializer};

use crate::atoms::PropertyKey;
use crate::heap::shape::PropFlags;
use crate::heap::{Heap, HeapString};
use crate::string::JsStr;

/// The arenas whose entities the walk numbers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Arena {
    Object = 0,
    String = 1,
    Symbol = 2,
    BigInt = 3,
    Env = 4,
    Code = 5,
}

const ARENAS: usize = 6;

struct Walk {
    /// Per arena: stored index → canonical number + 1 (0: not reached yet).
    numbers: [Vec<u32>; ARENAS],
    next: [u32; ARENAS],
    /// Entities in the order they were reached (the walk's queue).
    queue: Vec<(Arena, u32)>,
    /// Atom contents and shape key lists, so handles to them can be written as contents.
    atoms: Vec<JsStr>,
    shapes: Vec<Vec<(PropertyKey, PropFlags)>>,
}

thread_local! {
    static WALK: Cell<Option<Box<Walk>>> = const { Cell::new(None) };
}

fn with_walk<R>(f: impl FnOnce(&mut Walk) -> R) -> Option<R> {
    WALK.with(|cell| {
        let mut walk = cell.take()?;
        let r = f(&mut walk);
        cell.set(Some(walk));
        Some(r)
    })
}

/// The number to write for handle `index` of `arena`: the stored index outside a canonical
/// walk, else its canonical number (numbering and queueing it when first reached).
#[inline]
pub(crate) fn renumber(arena: Arena, index: u32) -> u32 {
    with_walk(|w| {
        let a = arena as usize;
        let numbers = &mut w.numbers[a];
        if numbers.len() <= index as usize {
            numbers.resize(index as usize + 1, 0);
        }
        match numbers[index as usize] {
            0 => {
                let n = w.next[a];
                w.next[a] += 1;
                numbers[index as usize] = n + 1;
                w.queue.push((arena, index));
                n
            }
            n => n - 1,
        }
    })
    .unwrap_or(index)
}

/// Whether a canonical walk is active on this thread.
#[inline]
pub(crate) fn active() -> bool {
    with_walk(|_| ()).is_some()
}

/// Writes atom `index` (its contents during a walk).
pub(crate) fn serialize_atom<S: Serializer>(index: u32, s: S) -> Result<S::Ok, S::Error> {
    match with_walk(|w| w.atoms.get(index as usize).cloned()) {
        Some(text) => text.unwrap_or_else(JsStr::empty).serialize(s),
        None => s.serialize_newtype_struct("Atom", &index),
    }
}

/// Writes shape `index` (its key list during a walk).
pub(crate) fn serialize_shape<S: Serializer>(index: u32, s: S) -> Result<S::Ok, S::Error> {
    match with_walk(|w| w.shapes.get(index as usize).cloned()) {
        Some(keys) => keys.unwrap_or_default().serialize(s),
        None => s.serialize_newtype_struct("ShapeId", &index),
    }
}

/// `serialize_with` for caches that are not program state (inline caches, Map/Set hash
/// indexes): written as stored outside a walk, as nothing during one.
pub(crate) fn cache<T: Serialize, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    if active() {
        s.serialize_unit()
    } else {
        value.serialize(s)
    }
}

/// `serialize_with` for a Map/Set entry table: with its tombstones outside a walk, without
/// them during one (where they fall depends on when the collector last compacted it).
pub(crate) fn live_entries<T: Serialize, S: Serializer>(entries: &[Option<T>], s: S) -> Result<S::Ok, S::Error> {
    if active() {
        entries.iter().flatten().collect::<Vec<_>>().serialize(s)
    } else {
        entries.serialize(s)
    }
}

/// Writes the canonical form of a state to `sink`: `roots` (the VM's non-heap state, which
/// the caller assembles without caches and counters), then every entity reached from them,
/// each as its arena tag, its length and its bytes.
pub(crate) fn write<R: Serialize>(heap: &Heap, roots: &R, sink: &mut dyn FnMut(&[u8])) -> Result<(), String> {
    let walk = Walk {
        numbers: Default::default(),
        next: [0; ARENAS],
        queue: Vec::new(),
        atoms: (0..heap.atoms.len()).map(|i| heap.atoms.get(crate::atoms::Atom(i as u32)).clone()).collect(),
        shapes: (0..heap.shapes.len()).map(|i| heap.shapes.slot(i).keys().to_vec()).collect(),
    };
    WALK.with(|cell| cell.set(Some(Box::new(walk))));
    let result = write_active(heap, roots, sink);
    WALK.with(|cell| cell.set(None));
    result
}

fn write_active<R: Serialize>(heap: &Heap, roots: &R, sink: &mut dyn FnMut(&[u8])) -> Result<(), String> {
    let mut emit = |tag: u8, bytes: Vec<u8>| {
        sink(&[tag]);
        sink(&(bytes.len() as u64).to_le_bytes());
        sink(&bytes);
    };
    emit(0xff, encode(roots)?);
    let mut next = 0;
    while let Some((arena, index)) = with_walk(|w| w.queue.get(next).copied()).flatten() {
        next += 1;
        let bytes = match arena {
            Arena::Object => encode(&heap.objects.get(index))?,
            Arena::String => encode(&string_contents(heap, index))?,
            Arena::Symbol => encode(&heap.symbols.get(index))?,
            Arena::BigInt => encode(&heap.bigints.get(index))?,
            Arena::Env => encode(&heap.envs.get(index))?,
            Arena::Code => encode(&heap.code.get(index))?,
        };
        emit(arena as u8, bytes);
    }
    Ok(())
}

fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
    bincode::serde::encode_to_vec(value, bincode::config::standard()).map_err(|e| e.to_string())
}

/// A string's code units, ropes read through without flattening them (whether a rope has been
/// flattened depends on which code read it).
fn string_contents(heap: &Heap, index: u32) -> Option<JsStr> {
    let mut units: Vec<u16> = Vec::new();
    let mut stack = vec![index];
    while let Some(s) = stack.pop() {
        match heap.strings.get(s)? {
            HeapString::Flat(f) => units.extend(f.iter()),
            HeapString::Rope { left, right, .. } => {
                stack.push(right.0);
                stack.push(left.0);
            }
        }
    }
    Some(JsStr::from_units(units))
}
