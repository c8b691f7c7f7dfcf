//! The heap: one typed arena per kind of entity, named by `u32` handles.
//!
//! Rules (see README.md beside this file):
//! - every heap entity lives in an [`Arena`] and is named by a `u32` handle;
//! - no `Rc`, `RefCell`, `dyn`, closures or raw pointers in heap types; everything derives
//!   serde, so the whole heap is an image;
//! - collection happens only at interpreter safe spots (`gc.rs` at the crate root), never
//!   inside a native unless that native calls back into JS; values a native holds across such
//!   a call go on the scoped root stack (`Vm::roots`);
//! - the bottom layer: nothing here names the interpreter, builtins, modules, the runtime, the
//!   compiler, realms or the VM (`tests/layering.rs`); the types the heap stores live here.

pub mod canonical;
pub mod children;
pub mod code_blob;
pub mod frame;
pub mod gc;
pub mod image;
pub mod intl_slots;
pub mod object;
pub mod shape;
pub mod shared_block;
pub mod source;
pub mod temporal_slots;
pub mod verify;

use num_bigint::BigInt;
use serde::{Deserialize, Serialize};

use crate::atoms::Atoms;
use crate::bytecode::CodeBlock;
use crate::string::JsStr;
use crate::value::{BigIntId, ObjectId, StringId, SymbolId, Value};
use object::{Class, Env, Object, Symbol};
use shape::Shapes;

/// Handle of an environment record.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Deserialize, PartialOrd, Ord)]
pub struct EnvId(pub u32);

/// Handle of a compiled code block.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Deserialize, PartialOrd, Ord)]
pub struct CodeId(pub u32);

crate::value::handle_serialize!(EnvId => Env, CodeId => Code);

/// Index of a realm in `vm.realms` (`realm.rs`); the first realm is 0. Heap entities name
/// realms (a native function's, a code block's, a ShadowRealm's), so the index is defined here.
pub type RealmId = u32;

/// Index of a module record in the VM's module map (`module/mod.rs`); namespace objects name
/// modules.
pub type ModuleId = u32;

/// A vector of slots with a free list. Freed slots are `None` and are reused lowest-first
/// so allocation order is deterministic.
///
/// Slots below `floor` belong to the baseline (the heap every run starts from, see
/// `image.rs`) and are never reused once freed: a baseline slot then always names the same
/// baseline entity, in every history of every run, which canonical images rely on
/// (`canonical.rs`). What freeing one wastes is bounded by the baseline's size.
#[derive(Clone, Serialize, Deserialize)]
pub struct Arena<T> {
    items: Vec<Option<T>>,
    free: Vec<u32>,
    floor: u32,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { items: Vec::new(), free: Vec::new(), floor: 0 }
    }
}

impl<T> Arena<T> {
    /// Marks every current slot as baseline: freed ones are never reused.
    pub fn seal(&mut self) {
        self.floor = self.items.len() as u32;
        let floor = self.floor;
        self.free.retain(|&i| i >= floor);
    }

    /// Slots below this index are baseline slots.
    pub fn floor(&self) -> u32 {
        self.floor
    }

    pub fn alloc(&mut self, value: T) -> u32 {
        if let Some(i) = self.free.pop() {
            self.items[i as usize] = Some(value);
            i
        } else {
            self.items.push(Some(value));
            (self.items.len() - 1) as u32
        }
    }
    #[inline]
    pub fn get(&self, i: u32) -> Option<&T> {
        self.items.get(i as usize).and_then(|s| s.as_ref())
    }
    #[inline]
    pub fn get_mut(&mut self, i: u32) -> Option<&mut T> {
        self.items.get_mut(i as usize).and_then(|s| s.as_mut())
    }
    /// Slots, live or free (the collector's view).
    pub fn capacity(&self) -> usize {
        self.items.len()
    }
    pub fn live(&self) -> usize {
        self.items.len() - self.free.len()
    }
    /// Bytes the free slots hold: a freed slot's memory stays with the arena (reused, never
    /// returned), so the heap estimate counts it.
    pub fn free_bytes(&self) -> u64 {
        (self.free.len() * (std::mem::size_of::<Option<T>>() + 4)) as u64
    }
    pub fn is_live(&self, i: u32) -> bool {
        self.get(i).is_some()
    }
    /// Free every slot whose mark is false.
    pub fn sweep(&mut self, marks: &[bool]) -> usize {
        let mut freed = 0;
        for (i, slot) in self.items.iter_mut().enumerate() {
            if slot.is_some() && !marks.get(i).copied().unwrap_or(false) {
                *slot = None;
                freed += 1;
            }
        }
        // Rebuild the free list so the lowest index is reused first: deterministic layout.
        self.free = (self.floor..self.items.len() as u32).rev().filter(|&i| self.items[i as usize].is_none()).collect();
        freed
    }
    pub fn iter(&self) -> impl Iterator<Item = (u32, &T)> {
        self.items.iter().enumerate().filter_map(|(i, s)| s.as_ref().map(|v| (i as u32, v)))
    }
}

/// A string in the heap: flat contents, or a rope awaiting flattening (cheap concatenation).
#[derive(Clone, Serialize, Deserialize)]
pub enum HeapString {
    Flat(JsStr),
    Rope { left: StringId, right: StringId, len: u32 },
}

/// Ropes shorter than this are flattened at once: copying is cheaper than the indirection.
const MIN_ROPE_LEN: usize = 256;

/// What the heap-size estimate charges: an arena slot plus the heap blocks a value owns. The
/// estimate sizes `--max-heap` and paces the collector, so it follows real memory closely
/// enough that a heap of large strings is collected as often as a heap of small objects.
pub const OBJECT_BYTES: u64 = std::mem::size_of::<Object>() as u64 + 16;
const ENV_BYTES: usize = std::mem::size_of::<Env>() + 16;

/// Estimated bytes of `o`: its slot, its named and indexed property storage, its buffer.
pub fn object_bytes(o: &Object) -> u64 {
    OBJECT_BYTES
        + named_bytes(&o.props)
        + o.elements.len() as u64 * ELEMENT_BYTES
        + boxed_bytes(&o.class)
        + payload_bytes(&o.class)
}

/// The heap block of a boxed class payload (the `Box` itself, beyond the object's slot): a
/// promise's state and reaction lists, a typed array's view, a buffer's block header. A heap
/// of small promises or typed arrays is mostly these blocks, so leaving them out let such a
/// bomb reach 1.6 times its limit in RSS. Every kind is listed (no catch-all).
fn boxed_bytes(class: &object::Class) -> u64 {
    use object::Class as C;
    use std::mem::size_of_val;
    let n = match class {
        C::Bound(b) => size_of_val(&**b),
        C::RegExp(r) => size_of_val(&**r),
        C::Map(m) | C::Set(m) | C::WeakMap(m) | C::WeakSet(m) => size_of_val(&**m),
        C::FinalizationRegistry(f) => size_of_val(&**f),
        C::Promise(p) => size_of_val(&**p),
        C::Proxy(p) => size_of_val(&**p),
        C::Generator(g) | C::AsyncFunctionState(g) => size_of_val(&**g),
        C::AsyncGenerator(g) => size_of_val(&**g),
        C::ArrayBuffer(b) => size_of_val(&**b),
        C::TypedArray(t) | C::DataView(t) => size_of_val(&**t),
        C::Iterator(i) => size_of_val(&**i),
        C::Namespace(n) => size_of_val(&**n),
        C::Temporal(t) => size_of_val(&**t),
        C::Intl(i) => size_of_val(&**i),
        C::Ordinary
        | C::Array(_)
        | C::Arguments(_)
        | C::Function(_)
        | C::Native(_)
        | C::Error
        | C::Boolean(_)
        | C::Number(_)
        | C::String(_)
        | C::Symbol(_)
        | C::BigInt(_)
        | C::Date(_)
        | C::WeakRef(_)
        | C::AccessorPair { .. }
        | C::Internal(_)
        | C::ShadowRealm(_)
        | C::RawJson => 0,
    };
    malloc_bytes(n as u64)
}

/// What an ArrayBuffer's data block of `len` bytes costs: the allocator's block. Growth
/// sites charge the difference of two of these, so they agree with a collection's count.
pub fn buffer_block_bytes(len: usize) -> u64 {
    malloc_bytes(len as u64)
}

/// Estimated bytes of an object's named-property storage: its slot block, or its dictionary.
/// Every path that adds a property charges the difference this makes
/// ([`Object::named_slot_bytes`]), so the estimate between collections is the one a
/// collection recomputes.
pub fn named_bytes(props: &object::Props) -> u64 {
    match props {
        object::Props::Shaped { slots, .. } => block_bytes(slots.len() as u64, SLOT_BYTES),
        object::Props::Dict(map) => map.len() as u64 * DICT_ENTRY_BYTES,
    }
}

/// Estimated bytes of an environment record: its arena slot and its slot vector (allocated
/// once, at its final length). One function for allocation and collection, which disagreed
/// (a collection charged 48 bytes whatever the slots), so a heap of per-iteration
/// environments was undercounted between collections' views of it.
pub fn env_bytes(e: &Env) -> u64 {
    ENV_BYTES as u64 + malloc_bytes(e.slots.len() as u64 * 8)
}

/// A growable vector's heap block: the allocator's chunk header and at least the four
/// elements the vector's first allocation reserves. A small object's one or two slots cost
/// that block, not 8 bytes each — charging only the slots let a heap of `{ i }` objects
/// reach 1.5 times its limit in RSS. Computed from the length alone, so the estimate (and
/// so where a limit stops a run) is the same live and after a restore.
pub(crate) fn block_bytes(len: u64, element: u64) -> u64 {
    if len == 0 {
        0
    } else {
        16 + len.max(4) * element
    }
}

/// A pending promise's two reaction lists as the doubling vectors they are: what a heap of
/// `p.then(f)` calls really holds (the reactions themselves, each list's spare capacity and
/// allocator header), from the lengths alone so live and restored runs agree.
pub fn reactions_bytes(p: &object::PromiseData) -> u64 {
    let list = |len: usize| -> u64 {
        if len == 0 {
            0
        } else {
            16 + len.next_power_of_two().max(4) as u64 * std::mem::size_of::<object::Reaction>() as u64
        }
    };
    list(p.fulfill_reactions.len()) + list(p.reject_reactions.len())
}

/// Bytes charged per element of a dense `elements` vector, a property slot, and a growable
/// payload's entry (a Map entry with its index: two values and a hash slot).
pub const ELEMENT_BYTES: u64 = 8;
pub const SLOT_BYTES: u64 = 8;
/// A dictionary entry: the `IndexMap` bucket (hash, key, value and flags: 32 bytes) and its
/// index-table slot, which the table's load factor and doubling make up to 24 bytes.
pub const DICT_ENTRY_BYTES: u64 = 56;
pub const MAP_ENTRY_BYTES: u64 = 72;

/// Heap blocks owned by an object's class payload, beyond the object's slot. Every kind is
/// listed (no catch-all), so a new payload that can grow must say what it costs; the ones
/// that grow after allocation also report each growth (`Heap::note_growth`) where it happens.
fn payload_bytes(class: &object::Class) -> u64 {
    use object::Class as C;
    match class {
        C::ArrayBuffer(b) => b.block.byte_length().map_or(0, buffer_block_bytes),
        C::Map(m) | C::Set(m) | C::WeakMap(m) | C::WeakSet(m) => m.bytes(),
        C::Bound(b) => block_bytes(b.args.len() as u64, 8),
        C::Native(n) => block_bytes(n.captures.len() as u64, 8),
        C::Promise(p) => reactions_bytes(p),
        C::Generator(g) | C::AsyncFunctionState(g) => g.frame.as_ref().map_or(0, |f| f.stack.len() as u64 * 8),
        C::AsyncGenerator(g) => g.frame.as_ref().map_or(0, |f| f.stack.len() as u64 * 8) + g.queue.len() as u64 * 40,
        C::FinalizationRegistry(f) => f.cells.len() as u64 * 24,
        C::Internal(values) => block_bytes(values.len() as u64, 8),
        C::Ordinary
        | C::Array(_)
        | C::Arguments(_)
        | C::Function(_)
        | C::Error
        | C::Boolean(_)
        | C::Number(_)
        | C::String(_)
        | C::Symbol(_)
        | C::BigInt(_)
        | C::Date(_)
        | C::RegExp(_)
        | C::WeakRef(_)
        | C::Proxy(_)
        | C::TypedArray(_)
        | C::DataView(_)
        | C::AccessorPair { .. }
        | C::Iterator(_)
        | C::Namespace(_)
        | C::ShadowRealm(_)
        | C::RawJson
        // Temporal slots are fixed-size plain data.
        | C::Temporal(_)
        // Intl slots are a few short strings.
        | C::Intl(_) => 0,
    }
}

/// Estimated bytes of a flat string: its slot and the allocation of its code units (one or
/// two bytes each).
pub fn flat_string_bytes(s: &JsStr) -> u64 {
    std::mem::size_of::<Option<HeapString>>() as u64 + 16 + malloc_bytes(js_str_bytes(s))
}

/// Bytes of a string's code units.
pub(crate) fn js_str_bytes(s: &JsStr) -> u64 {
    match s {
        JsStr::Latin1(b) => b.len() as u64,
        JsStr::Utf16(u) => u.len() as u64 * 2,
    }
}

/// What a heap block of `n` bytes costs the process: the allocator rounds each block up to
/// 16 bytes with an 8-byte header, 32 at least. Small blocks (short strings, atoms) cost
/// several times their length, so the estimate counts the block, not the bytes asked for.
pub(crate) fn malloc_bytes(n: u64) -> u64 {
    if n == 0 {
        0
    } else {
        ((n + 8 + 15) & !15).max(32)
    }
}

/// All heap arenas.
#[derive(Clone, Serialize, Deserialize, Default)]
pub struct Heap {
    pub objects: Arena<Object>,
    pub strings: Arena<HeapString>,
    pub symbols: Arena<Symbol>,
    pub bigints: Arena<BigInt>,
    pub envs: Arena<Env>,
    pub code: Arena<CodeBlock>,
    pub shapes: Shapes,
    pub atoms: Atoms,
    /// Allocations since the last collection; with `bytes_since_gc`, drives the collector
    /// (never wall time).
    pub allocs_since_gc: u64,
    /// Estimated bytes allocated since the last collection.
    pub bytes_since_gc: u64,
    /// Estimated bytes of the heap (live at the last collection plus everything allocated
    /// since), for `--max-heap` and the collector.
    pub bytes_estimate: u64,
    pub stats: HeapStats,
}

/// Counters reported by `--stats` and the image manifest.
#[derive(Clone, Copy, Serialize, Deserialize, Default, Debug)]
pub struct HeapStats {
    pub allocations: u64,
    pub collections: u64,
}

impl Heap {
    pub fn new() -> Heap {
        Heap::default()
    }

    /// Marks everything allocated so far as the baseline (see [`Arena`]): call on the VM a
    /// run starts from, before the program allocates.
    pub fn seal_baseline(&mut self) {
        self.objects.seal();
        self.strings.seal();
        self.symbols.seal();
        self.bigints.seal();
        self.envs.seal();
        self.code.seal();
    }

    #[inline]
    fn note_alloc(&mut self, bytes: usize) {
        self.allocs_since_gc += 1;
        self.stats.allocations += 1;
        self.bytes_since_gc += bytes as u64;
        self.bytes_estimate += bytes as u64;
    }

    /// Storage that an existing object (or the shape tree, the atom table, a queue) grew by:
    /// counted like an allocation, so the collector and `--max-heap` see every growth path,
    /// not only new objects.
    #[inline]
    pub fn note_growth(&mut self, bytes: u64) {
        self.bytes_since_gc += bytes;
        self.bytes_estimate += bytes;
    }

    pub fn alloc_object(&mut self, object: Object) -> ObjectId {
        self.note_alloc(object_bytes(&object) as usize);
        ObjectId(self.objects.alloc(object))
    }

    /// A plain object with the given prototype.
    pub fn new_plain(&mut self, proto: Option<ObjectId>) -> ObjectId {
        self.alloc_object(Object::new(proto, Class::Ordinary))
    }

    /// The object behind a handle. Handles come from this heap and the collector frees only
    /// unreachable objects (the image verifier checks restored handles), so a dead or
    /// out-of-range one is an engine bug: loud in debug builds (the test modes run them),
    /// read as an empty object in release rather than a panic.
    #[inline]
    pub fn obj(&self, id: ObjectId) -> &Object {
        match self.objects.get(id.0) {
            Some(o) => o,
            None => dangling_object(id),
        }
    }

    #[inline]
    pub fn obj_mut(&mut self, id: ObjectId) -> &mut Object {
        let len = self.objects.capacity();
        match self.objects.get_mut(id.0) {
            Some(o) => o,
            None => panic!("invariant: object handle {} out of {} is live", id.0, len),
        }
    }

    pub fn alloc_string(&mut self, s: JsStr) -> StringId {
        self.note_alloc(flat_string_bytes(&s) as usize);
        StringId(self.strings.alloc(HeapString::Flat(s)))
    }

    pub fn alloc_str(&mut self, s: &str) -> Value {
        Value::string(self.alloc_string(JsStr::from_str(s)))
    }

    /// Length in code units without flattening.
    pub fn string_len(&self, id: StringId) -> usize {
        match self.strings.get(id.0) {
            Some(HeapString::Flat(s)) => s.len(),
            Some(HeapString::Rope { len, .. }) => *len as usize,
            None => 0,
        }
    }

    /// Concatenate, building a rope for long results so repeated `+=` stays linear.
    pub fn concat(&mut self, a: StringId, b: StringId) -> StringId {
        let (la, lb) = (self.string_len(a), self.string_len(b));
        if la == 0 {
            return b;
        }
        if lb == 0 {
            return a;
        }
        let len = la + lb;
        if len < MIN_ROPE_LEN || len > u32::MAX as usize {
            self.flat(b);
            let s = self.flat(a).clone().concat(self.flat_ref(b));
            return self.alloc_string(s);
        }
        self.note_alloc(32);
        StringId(self.strings.alloc(HeapString::Rope { left: a, right: b, len: len as u32 }))
    }

    /// Flatten a rope in place; returns the contents.
    pub fn flat(&mut self, id: StringId) -> &JsStr {
        if let Some(HeapString::Rope { .. }) = self.strings.get(id.0) {
            let mut units: Vec<u16> = Vec::with_capacity(self.string_len(id));
            // Iterative in-order walk: ropes can be deeper than the native stack.
            let mut stack = vec![id];
            while let Some(s) = stack.pop() {
                match self.strings.get(s.0) {
                    Some(HeapString::Flat(f)) => units.extend(f.iter()),
                    Some(HeapString::Rope { left, right, .. }) => {
                        stack.push(*right);
                        stack.push(*left);
                    }
                    None => {}
                }
            }
            if let Some(slot) = self.strings.get_mut(id.0) {
                *slot = HeapString::Flat(JsStr::from_units(units));
            }
        }
        self.flat_ref(id)
    }

    /// Contents of a string known to be flat (call [`Heap::flat`] first). A rope or a dead
    /// handle here is an engine bug: loud in debug builds, the empty string in release.
    pub fn flat_ref(&self, id: StringId) -> &JsStr {
        static EMPTY: std::sync::OnceLock<JsStr> = std::sync::OnceLock::new();
        match self.strings.get(id.0) {
            Some(HeapString::Flat(s)) => s,
            other => {
                debug_assert!(other.is_none(), "invariant: string {} is flat when read flat", id.0);
                debug_assert!(other.is_some(), "invariant: string handle {} is live", id.0);
                EMPTY.get_or_init(JsStr::empty)
            }
        }
    }

    pub fn alloc_symbol(&mut self, description: Option<JsStr>) -> SymbolId {
        self.note_alloc(32);
        SymbolId(self.symbols.alloc(Symbol { description, registered: false }))
    }

    pub fn symbol(&self, id: SymbolId) -> Option<&Symbol> {
        self.symbols.get(id.0)
    }

    pub fn alloc_bigint(&mut self, b: BigInt) -> BigIntId {
        self.note_alloc(32 + (b.bits() / 8) as usize);
        BigIntId(self.bigints.alloc(b))
    }

    /// The BigInt behind a handle; a dead one is an engine bug (see [`Heap::obj`]), zero in
    /// release.
    pub fn bigint(&self, id: BigIntId) -> &BigInt {
        static ZERO: std::sync::OnceLock<BigInt> = std::sync::OnceLock::new();
        self.bigints.get(id.0).unwrap_or_else(|| {
            debug_assert!(false, "invariant: bigint handle {} is live", id.0);
            ZERO.get_or_init(BigInt::default)
        })
    }

    pub fn alloc_env(&mut self, env: Env) -> EnvId {
        self.note_alloc(env_bytes(&env) as usize);
        EnvId(self.envs.alloc(env))
    }

    #[inline]
    pub fn env(&self, id: EnvId) -> &Env {
        match self.envs.get(id.0) {
            Some(e) => e,
            None => panic!("invariant: environment handle {} is live", id.0),
        }
    }

    #[inline]
    pub fn env_mut(&mut self, id: EnvId) -> &mut Env {
        match self.envs.get_mut(id.0) {
            Some(e) => e,
            None => panic!("invariant: environment handle {} is live", id.0),
        }
    }

    pub fn alloc_code(&mut self, code: CodeBlock) -> CodeId {
        self.note_alloc(64 + code.ops.len() * 8);
        CodeId(self.code.alloc(code))
    }

    #[inline]
    pub fn code(&self, id: CodeId) -> &CodeBlock {
        match self.code.get(id.0) {
            Some(c) => c,
            None => panic!("invariant: code handle {} is live", id.0),
        }
    }

    #[inline]
    pub fn code_mut(&mut self, id: CodeId) -> &mut CodeBlock {
        match self.code.get_mut(id.0) {
            Some(c) => c,
            None => panic!("invariant: code handle {} is live", id.0),
        }
    }
}

#[cold]
fn dangling_object(id: ObjectId) -> &'static Object {
    debug_assert!(false, "invariant: object handle {} is live", id.0);
    static DEAD: std::sync::OnceLock<Object> = std::sync::OnceLock::new();
    DEAD.get_or_init(|| Object::new(None, Class::Ordinary))
}
