//! The canonical form of a VM state: what the state *is*, independent of how the heap got laid
//! out (DESIGN §7, "canonical bytes").
//!
//! Two histories can reach the same logical state with different heaps: a live `amber.step`
//! runs its function and a replay does not, so the live heap has had garbage, extra shapes and
//! atoms, other free-list orders, other collection points, and warmer inline caches. A
//! canonical walk numbers every entity reachable from the roots in breadth-first traversal
//! order. Garbage is never reached. It serves two purposes:
//!
//! - [`write`] (the state hash) writes the walk with handles replaced by their numbers, atoms
//!   and shapes by their contents, strings flattened, Map/Set tables without tombstones, and
//!   without caches or counters (inline caches, fuel, statistics, collection pacing).
//! - [`compact`] (images) rebuilds the heap in the walk's numbering: baseline entities (below
//!   each arena's floor, see [`crate::heap::Arena`]) keep their handles, every other reached
//!   entity is renumbered from the floor up in traversal order, atoms and shapes past the
//!   baseline's are re-interned in the order the walk meets them, and strings are flattened.
//!   Encoding the rebuilt heap gives the same bytes for the same logical state, whatever the
//!   history.
//!
//! The traversal rides on serde: while a walk is active, the `Serialize` impls of the handle
//! types ([`crate::value::ObjectId`], `Value`, `Atom`, `ShapeId`, …) ask [`renumber`] for the
//! walk's number, and a handle seen for the first time is numbered and queued. Serializing an
//! entity therefore both writes it and discovers its children, in the order its fields are
//! declared, which is part of the logical state. Outside a walk the impls write the stored
//! handle, exactly as the derived impls did.

use std::cell::Cell;

use serde::{Serialize, Serializer};

use crate::atoms::{Atom, Atoms, PropertyKey};
use crate::heap::shape::{PropFlags, Shapes};
use crate::heap::{Heap, HeapString};
use crate::string::JsStr;
use crate::value::SymbolId;

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

/// Flattening ropes can multiply a heap's string contents (a rope is 32 bytes however long):
/// past this many code units in one state, hashing or imaging it is refused.
const MAX_FLAT_UNITS: u64 = 1 << 30;

/// What a walk is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The state hash: handles as traversal numbers from 0, atoms and shapes as contents.
    Hash,
    /// Image compaction: handles as rebuilt-heap handles, atoms and shapes as rebuilt-table ids.
    Compact,
}

/// A stored id → walk number table: entries are number + 1 (0: not reached yet).
#[derive(Default)]
struct Numbering {
    numbers: Vec<u32>,
    next: u32,
    /// Ids below this keep their number (baseline entities when compacting).
    floor: u32,
}

impl Numbering {
    fn starting_at(floor: u32) -> Numbering {
        Numbering { numbers: Vec::new(), next: floor, floor }
    }

    /// The number `id` was given, if any.
    fn mapped(&self, id: u32) -> Option<u32> {
        self.numbers.get(id as usize).and_then(|&n| n.checked_sub(1))
    }

    /// Gives `id` the number `n`.
    fn map(&mut self, id: u32, n: u32) {
        if self.numbers.len() <= id as usize {
            self.numbers.resize(id as usize + 1, 0);
        }
        self.numbers[id as usize] = n + 1;
    }

    /// The number of `id` and whether this is its first reach.
    fn number(&mut self, id: u32, keep_below_floor: bool) -> (u32, bool) {
        if let Some(n) = self.mapped(id) {
            return (n, false);
        }
        let n = if keep_below_floor && id < self.floor {
            id
        } else {
            self.next += 1;
            self.next - 1
        };
        self.map(id, n);
        (n, true)
    }
}

struct Walk {
    mode: Mode,
    arenas: [Numbering; ARENAS],
    /// Entities in the order they were reached (the walk's queue).
    queue: Vec<(Arena, u32)>,
    /// The walked heap's atom contents and shape key lists.
    atoms: Vec<JsStr>,
    shapes: Vec<Vec<(PropertyKey, PropFlags)>>,
    /// Source texts by first reach: their stored ids, in order.
    sources: Numbering,
    source_order: Vec<u32>,
    /// Compact: the rebuilt atom and shape tables, seeded with the baseline's, and the stored
    /// atoms and shapes past the baseline mapped into them.
    new_atoms: Atoms,
    atom_map: Numbering,
    new_shapes: Shapes,
    shape_map: Numbering,
    flat_units: u64,
}

impl Walk {
    fn number(&mut self, arena: Arena, id: u32) -> u32 {
        let keep = self.mode == Mode::Compact;
        let (n, first) = self.arenas[arena as usize].number(id, keep);
        if first {
            self.queue.push((arena, id));
        }
        n
    }

    fn source(&mut self, id: u32) -> u32 {
        if id == NO_SOURCE {
            return id;
        }
        let keep = self.mode == Mode::Compact;
        let (n, first) = self.sources.number(id, keep);
        if first && !(keep && id < self.sources.floor) {
            self.source_order.push(id);
        }
        n
    }

    /// Compact: the rebuilt table's atom for stored atom `id`.
    fn atom(&mut self, id: u32) -> u32 {
        if id < self.atom_map.floor {
            return id;
        }
        if let Some(n) = self.atom_map.mapped(id) {
            return n;
        }
        let text = self.atoms.get(id as usize).cloned().unwrap_or_else(JsStr::empty);
        let n = self.new_atoms.intern(&text).0;
        self.atom_map.map(id, n);
        n
    }

    /// Compact: the rebuilt table's shape for stored shape `id`, rebuilt by following
    /// transitions from the root with the shape's keys (every shape is reached that way, and
    /// its key list names it uniquely, see `shape.rs`).
    fn shape(&mut self, id: u32) -> u32 {
        if id < self.shape_map.floor {
            return id;
        }
        if let Some(n) = self.shape_map.mapped(id) {
            return n;
        }
        let keys = self.shapes.get(id as usize).cloned().unwrap_or_default();
        let mut shape = Shapes::ROOT;
        for (key, flags) in keys {
            let key = match key {
                PropertyKey::Index(i) => PropertyKey::Index(i),
                PropertyKey::Atom(a) => PropertyKey::Atom(Atom(self.atom(a.0))),
                PropertyKey::Symbol(s) => PropertyKey::Symbol(SymbolId(self.number(Arena::Symbol, s.0))),
            };
            shape = self.new_shapes.transition(shape, key, flags);
        }
        self.shape_map.map(id, shape.0);
        shape.0
    }
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

fn mode() -> Option<Mode> {
    with_walk(|w| w.mode)
}

/// The number to write for handle `index` of `arena`: the stored index outside a canonical
/// walk, else its number in the walk (numbering and queueing it when first reached).
#[inline]
pub(crate) fn renumber(arena: Arena, index: u32) -> u32 {
    with_walk(|w| w.number(arena, index)).unwrap_or(index)
}

/// Whether a canonical walk is active on this thread.
#[inline]
pub(crate) fn active() -> bool {
    mode().is_some()
}

/// Writes atom `index`: its contents when hashing, its rebuilt id when compacting.
pub(crate) fn serialize_atom<S: Serializer>(index: u32, s: S) -> Result<S::Ok, S::Error> {
    enum Out {
        Text(JsStr),
        Id(u32),
    }
    let out = with_walk(|w| match w.mode {
        Mode::Hash => Out::Text(w.atoms.get(index as usize).cloned().unwrap_or_else(JsStr::empty)),
        Mode::Compact => Out::Id(w.atom(index)),
    });
    match out {
        Some(Out::Text(text)) => text.serialize(s),
        Some(Out::Id(id)) => s.serialize_newtype_struct("Atom", &id),
        None => s.serialize_newtype_struct("Atom", &index),
    }
}

/// Writes shape `index`: its key list when hashing, its rebuilt id when compacting.
pub(crate) fn serialize_shape<S: Serializer>(index: u32, s: S) -> Result<S::Ok, S::Error> {
    enum Out {
        Keys(Vec<(PropertyKey, PropFlags)>),
        Id(u32),
    }
    let out = with_walk(|w| match w.mode {
        Mode::Hash => Out::Keys(w.shapes.get(index as usize).cloned().unwrap_or_default()),
        Mode::Compact => Out::Id(w.shape(index)),
    });
    match out {
        Some(Out::Keys(keys)) => keys.serialize(s),
        Some(Out::Id(id)) => s.serialize_newtype_struct("ShapeId", &id),
        None => s.serialize_newtype_struct("ShapeId", &index),
    }
}

/// The source index of what has no source text (JSON modules).
pub(crate) const NO_SOURCE: u32 = u32::MAX;

/// `serialize_with` for a source-text index (`CodeBlock::source_id`, module records): the
/// stored index outside a walk, the source's number in it.
pub(crate) fn source<S: Serializer>(index: &u32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u32(with_walk(|w| w.source(*index)).unwrap_or(*index))
}

/// `serialize_with` for caches that are not program state (inline caches, Map/Set hash
/// indexes): written as stored outside a walk and when compacting (which rebuilds them
/// afterwards), as nothing when hashing.
pub(crate) fn cache<T: Serialize, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    if mode() == Some(Mode::Hash) {
        s.serialize_unit()
    } else {
        value.serialize(s)
    }
}

/// `serialize_with` for a Map/Set entry table: without its tombstones when hashing (where
/// they fall depends on when the collector last compacted it), as stored otherwise
/// (compaction squeezes every table first).
pub(crate) fn live_entries<T: Serialize, S: Serializer>(entries: &[Option<T>], s: S) -> Result<S::Ok, S::Error> {
    if mode() == Some(Mode::Hash) {
        entries.iter().flatten().collect::<Vec<_>>().serialize(s)
    } else {
        entries.serialize(s)
    }
}

/// Runs `f` with a walk of `mode` active on this thread, and returns the walk.
fn walking<R>(walk: Walk, f: impl FnOnce() -> Result<R, String>) -> Result<(R, Box<Walk>), String> {
    WALK.with(|cell| cell.set(Some(Box::new(walk))));
    let result = f();
    let walk = WALK.with(|cell| cell.take());
    let walk = walk.ok_or("the canonical walk was lost")?;
    result.map(|r| (r, walk))
}

fn new_walk(heap: &Heap, mode: Mode, baseline: Option<(&Heap, u32)>) -> Walk {
    let floors = |h: Option<&Heap>| -> [Numbering; ARENAS] {
        let cap = |f: fn(&Heap) -> usize| h.map_or(0, |h| f(h) as u32);
        [
            Numbering::starting_at(cap(|h| h.objects.capacity())),
            Numbering::starting_at(cap(|h| h.strings.capacity())),
            Numbering::starting_at(cap(|h| h.symbols.capacity())),
            Numbering::starting_at(cap(|h| h.bigints.capacity())),
            Numbering::starting_at(cap(|h| h.envs.capacity())),
            Numbering::starting_at(cap(|h| h.code.capacity())),
        ]
    };
    let base_heap = baseline.map(|(h, _)| h);
    Walk {
        mode,
        arenas: floors(base_heap),
        queue: Vec::new(),
        atoms: (0..heap.atoms.len()).map(|i| heap.atoms.get(Atom(i as u32)).clone()).collect(),
        shapes: (0..heap.shapes.len()).map(|i| heap.shapes.slot(i).keys().to_vec()).collect(),
        sources: Numbering::starting_at(baseline.map_or(0, |(_, sources)| sources)),
        source_order: Vec::new(),
        new_atoms: base_heap.map_or_else(Atoms::new, |h| h.atoms.clone()),
        atom_map: Numbering::starting_at(base_heap.map_or(0, |h| h.atoms.len() as u32)),
        new_shapes: base_heap.map_or_else(Shapes::new, |h| h.shapes.clone()),
        shape_map: Numbering::starting_at(base_heap.map_or(0, |h| h.shapes.len() as u32)),
        flat_units: 0,
    }
}

/// Writes the canonical form of a state to `sink`: `roots` (the VM's non-heap state, which
/// the caller assembles without caches and counters), then every entity reached from them,
/// each as its arena tag, its length and its bytes, then the source texts code was compiled
/// from (with their position maps), in the order the walk reached them.
pub(crate) fn write<R: Serialize>(
    heap: &Heap,
    sources: &[crate::heap::source::Source],
    roots: &R,
    sink: &mut dyn FnMut(&[u8]),
) -> Result<(), String> {
    let walk = new_walk(heap, Mode::Hash, None);
    let ((), walk) = walking(walk, || write_active(heap, roots, sink))?;
    for &id in &walk.source_order {
        let source = sources.get(id as usize).map(|s| (s.name.as_str(), s.text.as_str(), &s.map));
        let bytes = encode(&source)?;
        sink(&[0xfe]);
        sink(&(bytes.len() as u64).to_le_bytes());
        sink(&bytes);
    }
    Ok(())
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
            Arena::String => encode(&string_contents(heap, index)?)?,
            Arena::Symbol => encode(&heap.symbols.get(index))?,
            Arena::BigInt => encode(&heap.bigints.get(index))?,
            Arena::Env => encode(&heap.envs.get(index))?,
            Arena::Code => encode(&heap.code.get(index))?,
        };
        emit(arena as u8, bytes);
    }
    Ok(())
}

/// A heap rebuilt in canonical numbering by [`compact`].
pub(crate) struct Compacted {
    /// `roots` re-encoded with the rebuilt handles (decode it as the roots' owned type).
    pub roots: Vec<u8>,
    pub heap: Heap,
    /// Stored ids of the reached source texts past the baseline's, in their new order.
    pub sources: Vec<u32>,
}

/// Rebuilds `heap` and `roots` in canonical numbering relative to `baseline` (the heap every
/// run starts from, whose first `baseline_sources` source texts it shares): what is reached
/// from the roots, nothing else. The rebuilt heap's counters, statistics and caches are the
/// caller's to reset; its arenas are sealed at the baseline's lengths and have no free slots.
pub(crate) fn compact<R: Serialize>(
    heap: &Heap,
    roots: &R,
    baseline: &Heap,
    baseline_sources: u32,
) -> Result<Compacted, String> {
    let walk = new_walk(heap, Mode::Compact, Some((baseline, baseline_sources)));
    let mut out = Heap::default();
    let (roots, walk) = walking(walk, || {
        let roots = encode(roots)?;
        let mut next = 0;
        while let Some((arena, index, number)) = with_walk(|w| {
            let &(arena, index) = w.queue.get(next)?;
            let number = w.arenas[arena as usize].numbers[index as usize] - 1;
            Some((arena, index, number))
        })
        .flatten()
        {
            next += 1;
            let missing = || format!("canonical walk: {arena:?} {index} is not live");
            match arena {
                Arena::Object => {
                    place(&mut out.objects.items, number, reencode(heap.objects.get(index).ok_or_else(missing)?)?)
                }
                Arena::String => {
                    let text = string_contents(heap, index)?.ok_or_else(missing)?;
                    place(&mut out.strings.items, number, HeapString::Flat(text));
                }
                Arena::Symbol => {
                    place(&mut out.symbols.items, number, heap.symbols.get(index).ok_or_else(missing)?.clone())
                }
                Arena::BigInt => {
                    place(&mut out.bigints.items, number, heap.bigints.get(index).ok_or_else(missing)?.clone())
                }
                Arena::Env => place(&mut out.envs.items, number, reencode(heap.envs.get(index).ok_or_else(missing)?)?),
                Arena::Code => place(&mut out.code.items, number, reencode(heap.code.get(index).ok_or_else(missing)?)?),
            }
        }
        Ok(roots)
    })?;
    let Walk { arenas, new_atoms, new_shapes, source_order, .. } = *walk;
    out.atoms = new_atoms;
    out.shapes = new_shapes;
    let floors: Vec<u32> = arenas.iter().map(|n| n.floor).collect();
    seal_at(&mut out.objects, floors[Arena::Object as usize]);
    seal_at(&mut out.strings, floors[Arena::String as usize]);
    seal_at(&mut out.symbols, floors[Arena::Symbol as usize]);
    seal_at(&mut out.bigints, floors[Arena::BigInt as usize]);
    seal_at(&mut out.envs, floors[Arena::Env as usize]);
    seal_at(&mut out.code, floors[Arena::Code as usize]);
    Ok(Compacted { roots, heap: out, sources: source_order })
}

fn place<T>(items: &mut Vec<Option<T>>, number: u32, value: T) {
    let i = number as usize;
    if items.len() <= i {
        items.resize_with(i + 1, || None);
    }
    items[i] = Some(value);
}

fn seal_at<T>(arena: &mut crate::heap::Arena<T>, floor: u32) {
    if arena.items.len() < floor as usize {
        arena.items.resize_with(floor as usize, || None);
    }
    arena.floor = floor;
    arena.free = (floor..arena.items.len() as u32).rev().filter(|&i| arena.items[i as usize].is_none()).collect();
}

/// An entity written with the walk active, read back: the same entity with rebuilt handles.
fn reencode<T: Serialize + serde::de::DeserializeOwned>(value: &T) -> Result<T, String> {
    let bytes = encode(value)?;
    let (value, _) = bincode::serde::decode_from_slice(&bytes, bincode::config::standard())
        .map_err(|e| format!("canonical walk: {e}"))?;
    Ok(value)
}

fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, String> {
    bincode::serde::encode_to_vec(value, bincode::config::standard()).map_err(|e| e.to_string())
}

/// A string's code units, ropes read through without flattening them (whether a rope has been
/// flattened depends on which code read it).
fn string_contents(heap: &Heap, index: u32) -> Result<Option<JsStr>, String> {
    let mut units: Vec<u16> = Vec::new();
    let mut stack = vec![index];
    while let Some(s) = stack.pop() {
        match heap.strings.get(s) {
            None => return Ok(None),
            Some(HeapString::Flat(f)) => units.extend(f.iter()),
            Some(HeapString::Rope { left, right, .. }) => {
                stack.push(right.0);
                stack.push(left.0);
            }
        }
    }
    let total = with_walk(|w| {
        w.flat_units += units.len() as u64;
        w.flat_units
    })
    .unwrap_or(0);
    if total > MAX_FLAT_UNITS {
        return Err(format!(
            "the state holds more than {MAX_FLAT_UNITS} code units of strings once ropes are flattened"
        ));
    }
    Ok(Some(JsStr::from_units(units)))
}
