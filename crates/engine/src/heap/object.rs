//! Objects: prototype, shaped or dictionary properties, dense elements, and the internal
//! slots of each exotic or builtin class.

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;
use serde::{Deserialize, Serialize};

use crate::atoms::PropertyKey;
use crate::heap::frame::SavedFrame;
use crate::heap::shape::{PropFlags, ShapeId, Shapes};
use crate::heap::{CodeId, EnvId, ModuleId, RealmId};
use crate::string::JsStr;
use crate::value::{BigIntId, ObjectId, StringId, SymbolId, Value};

/// Named (non-element) properties.
#[derive(Clone, Serialize, Deserialize)]
pub enum Props {
    /// Layout in a shared shape; `slots[i]` is the value of the shape's key `i`.
    Shaped { shape: ShapeId, slots: Vec<Value> },
    /// Own layout, for objects with many properties or deletions.
    Dict(Box<IndexMap<PropertyKey, (Value, PropFlags), FxBuildHasher>>),
}

/// Every object pays this many bytes before its slots and elements: growing `Object` (a
/// wider `Class` variant, a new field) is a decision about every program's memory and cache
/// use, to be made here, not by accident. Rare payloads belong behind a `Box`.
const _: () = assert!(std::mem::size_of::<Object>() <= 128, "Object grew past 128 bytes");

/// A heap object.
#[derive(Clone, Serialize, Deserialize)]
pub struct Object {
    pub proto: Option<ObjectId>,
    pub props: Props,
    /// Dense array-index properties with default attributes; `Value::EMPTY` is a hole.
    /// Invariant: an index key lives either here or in `props`, never both.
    pub elements: Vec<Value>,
    pub extensible: bool,
    pub class: Class,
}

impl Object {
    pub fn new(proto: Option<ObjectId>, class: Class) -> Object {
        Object {
            proto,
            props: Props::Shaped { shape: Shapes::ROOT, slots: Vec::new() },
            elements: Vec::new(),
            extensible: true,
            class,
        }
    }

    /// Whether the named part is empty (the common case for arrays), checked without a lookup.
    #[inline]
    pub fn has_no_named_props(&self) -> bool {
        matches!(self.props, Props::Shaped { shape: Shapes::ROOT, .. })
    }

    /// Own property lookup in the named part: (value or accessor pair, attributes).
    #[inline]
    pub fn lookup_named(&self, shapes: &Shapes, key: PropertyKey) -> Option<(Value, PropFlags)> {
        match &self.props {
            Props::Shaped { shape, slots } => shapes
                .get(*shape)
                .lookup(key)
                .map(|(slot, flags)| (slots.get(slot as usize).copied().unwrap_or_default(), flags)),
            Props::Dict(map) => map.get(&key).copied(),
        }
    }

    /// Overwrite the value of an existing named property, keeping its attributes.
    pub fn set_named_value(&mut self, shapes: &Shapes, key: PropertyKey, value: Value) -> bool {
        match &mut self.props {
            Props::Shaped { shape, slots } => match shapes.get(*shape).lookup(key) {
                Some((slot, _)) => {
                    if let Some(s) = slots.get_mut(slot as usize) {
                        *s = value;
                    }
                    true
                }
                None => false,
            },
            Props::Dict(map) => match map.get_mut(&key) {
                Some(entry) => {
                    entry.0 = value;
                    true
                }
                None => false,
            },
        }
    }

    /// Add a new named property (the caller checked it is absent).
    pub fn add_named(&mut self, shapes: &mut Shapes, key: PropertyKey, value: Value, flags: PropFlags) {
        match &mut self.props {
            Props::Shaped { shape, slots } => {
                if slots.len() < crate::heap::shape::MAX_SHAPED_PROPERTIES {
                    *shape = shapes.transition(*shape, key, flags);
                    slots.push(value);
                    return;
                }
                self.to_dictionary(shapes);
                self.add_named(shapes, key, value, flags);
            }
            Props::Dict(map) => {
                map.insert(key, (value, flags));
            }
        }
    }

    /// Bytes the named property just added grew this object's storage by (heap accounting;
    /// call after adding): the difference it made to [`crate::heap::named_bytes`], so a
    /// first slot costs its whole block and the next three nothing, as a collection counts.
    pub fn named_slot_bytes(&self) -> u64 {
        match &self.props {
            Props::Shaped { slots, .. } => {
                let n = slots.len() as u64;
                let block = |len| crate::heap::block_bytes(len, crate::heap::SLOT_BYTES);
                block(n) - block(n.saturating_sub(1))
            }
            Props::Dict(_) => crate::heap::DICT_ENTRY_BYTES,
        }
    }

    /// Leave the shape tree.
    pub fn to_dictionary(&mut self, shapes: &Shapes) {
        if let Props::Shaped { shape, slots } = &self.props {
            let map = shapes.get(*shape).keys().iter().zip(slots.iter()).map(|(&(k, f), &v)| (k, (v, f))).collect();
            self.props = Props::Dict(Box::new(map));
        }
    }

    /// Remove a named property; returns whether it existed.
    pub fn remove_named(&mut self, shapes: &Shapes, key: PropertyKey) -> bool {
        self.to_dictionary(shapes);
        match &mut self.props {
            Props::Dict(map) => map.shift_remove(&key).is_some(),
            Props::Shaped { .. } => false,
        }
    }

    /// Change a named property's attributes and value.
    pub fn redefine_named(&mut self, shapes: &Shapes, key: PropertyKey, value: Value, flags: PropFlags) {
        if let Props::Shaped { shape, slots } = &mut self.props {
            if let Some((slot, old)) = shapes.get(*shape).lookup(key) {
                if old == flags {
                    if let Some(s) = slots.get_mut(slot as usize) {
                        *s = value;
                    }
                    return;
                }
            }
        }
        self.to_dictionary(shapes);
        if let Props::Dict(map) = &mut self.props {
            if let Some(e) = map.get_mut(&key) {
                *e = (value, flags);
            } else {
                map.insert(key, (value, flags));
            }
        }
    }

    /// Named keys in insertion order.
    pub fn named_keys(&self, shapes: &Shapes) -> Vec<(PropertyKey, PropFlags)> {
        match &self.props {
            Props::Shaped { shape, .. } => shapes.get(*shape).keys().to_vec(),
            Props::Dict(map) => map.iter().map(|(&k, &(_, f))| (k, f)).collect(),
        }
    }

    /// Values held by the named part (for tracing).
    pub fn named_values(&self) -> Vec<Value> {
        match &self.props {
            Props::Shaped { slots, .. } => slots.clone(),
            Props::Dict(map) => map.values().map(|&(v, _)| v).collect(),
        }
    }

    pub fn is_callable(&self) -> bool {
        match &self.class {
            Class::Function(_) | Class::Native(_) | Class::Bound(_) => true,
            Class::Proxy(p) => p.callable,
            _ => false,
        }
    }
}

/// The class of an object: its exotic behaviour and internal slots.
#[derive(Clone, Serialize, Deserialize)]
pub enum Class {
    Ordinary,
    /// Array exotic object; elements beyond `elements.len()` up to `length` are holes.
    Array(ArrayData),
    Arguments(ArgumentsData),
    Function(Closure),
    Native(NativeFunction),
    Bound(Box<BoundFunction>),
    Error,
    Boolean(bool),
    Number(f64),
    String(StringId),
    Symbol(SymbolId),
    BigInt(BigIntId),
    Date(f64),
    RegExp(Box<RegExpData>),
    Map(Box<MapData>),
    Set(Box<MapData>),
    WeakMap(Box<MapData>),
    WeakSet(Box<MapData>),
    WeakRef(Value),
    FinalizationRegistry(Box<FinalizationData>),
    Promise(Box<PromiseData>),
    Proxy(Box<ProxyData>),
    Generator(Box<GeneratorData>),
    AsyncFunctionState(Box<GeneratorData>),
    AsyncGenerator(Box<AsyncGeneratorData>),
    ArrayBuffer(Box<ArrayBufferData>),
    TypedArray(Box<TypedArrayData>),
    DataView(Box<TypedArrayData>),
    /// The value of an accessor property slot.
    AccessorPair {
        get: Value,
        set: Value,
    },
    /// Built-in iterators (array, map, set, string, regexp string, for-in, iterator helpers).
    Iterator(Box<IteratorState>),
    /// Module namespace exotic object.
    Namespace(Box<NamespaceData>),
    /// Internal record objects (e.g. a Promise capability, a template registry entry).
    Internal(Vec<Value>),
    /// A ShadowRealm object: the realm it owns.
    ShadowRealm(RealmId),
    /// An object made by `JSON.rawJSON` (its [[IsRawJSON]] slot).
    RawJson,
    /// A Temporal object: its internal slots as plain data (`temporal_slots.rs`).
    Temporal(Box<crate::heap::temporal_slots::TemporalSlots>),
    /// An Intl object: its resolved locale and options as plain data (`intl_slots.rs`).
    Intl(Box<crate::heap::intl_slots::IntlSlots>),
}

#[derive(Clone, Copy, Serialize, Deserialize)]
pub struct ArrayData {
    pub length: u32,
    pub length_writable: bool,
}

/// Mapped arguments alias parameter bindings held in an environment.
#[derive(Clone, Serialize, Deserialize)]
pub struct ArgumentsData {
    /// Environment holding the parameters, and the slot for argument `i` (`u32::MAX` when
    /// unmapped). Empty for unmapped (strict) arguments.
    pub env: Option<EnvId>,
    pub mapping: Vec<u32>,
}

/// A function defined in JS.
#[derive(Clone, Serialize, Deserialize)]
pub struct Closure {
    pub code: CodeId,
    pub env: Option<EnvId>,
    /// The object whose [[Prototype]] `super` refers to (methods and class members).
    pub home_object: Option<ObjectId>,
    /// For class constructors: the function that initialises instance fields, or undefined.
    pub fields: Value,
    /// Reserved for class brands of private methods.
    pub private_brand: Value,
    /// Arrow functions: `this` and `new.target` captured when the arrow was created.
    pub bound_this: Value,
    pub bound_new_target: Value,
}

/// Index of a native function in the engine's native table (`builtins/mod.rs`). The table
/// owns what the index means: its lookups and its serde, which writes the native's stable
/// name (`"Array.prototype.map"`) rather than the index, are implemented there, so an image
/// does not depend on the table's order.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct NativeId(pub u32);

/// A function implemented in Rust, named by a stable id.
#[derive(Clone, Serialize, Deserialize)]
pub struct NativeFunction {
    pub id: NativeId,
    /// Per-instance data (bound resolving functions, captured state).
    pub captures: Vec<Value>,
    pub constructor: bool,
    /// The realm the function was created in (GetFunctionRealm); calling it runs there.
    pub realm: RealmId,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct BoundFunction {
    pub target: ObjectId,
    pub this: Value,
    pub args: Vec<Value>,
    pub constructor: bool,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct RegExpData {
    pub source: JsStr,
    pub flags: JsStr,
    /// Compiled form; rebuilt lazily after restore (not part of the image).
    #[serde(skip)]
    pub compiled: Option<std::sync::Arc<regress::Regex>>,
}

/// Key normalised for SameValueZero.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize, Debug)]
pub enum MapKey {
    /// Strings compare by contents.
    Str(JsStr),
    /// BigInts compare by value (decimal text).
    BigInt(String),
    /// Everything else by normalised bits (-0 → +0, integral doubles → int).
    Bits(u64),
}

/// Insertion-ordered hash table with tombstones, so live iterators keep their position.
#[derive(Clone, Serialize, Deserialize, Default)]
pub struct MapData {
    #[serde(serialize_with = "crate::heap::canonical::live_entries")]
    pub entries: Vec<Option<(Value, Value)>>,
    #[serde(serialize_with = "crate::heap::canonical::cache")]
    pub index: IndexMap<MapKey, u32, FxBuildHasher>,
    pub live: u32,
    /// No live entry sits before this position, so an iterator's scan starts here: a Map
    /// used as an LRU (delete the oldest, append) leaves its tombstones at the front, and a
    /// fresh iterator once walked all of them on every `keys().next()`. Kept in images, since
    /// the scan is charged to the fuel.
    pub head: u32,
}

impl MapData {
    /// The table's memory as the allocator holds it: the entry vector and the index as their
    /// doubling makes them (so this jumps when they grow — when the memory is taken), the
    /// index's buckets (hash, key, position) and its hash table of positions (one word and a
    /// control byte per bucket, at most 7/8 full). From the lengths alone, not the vectors'
    /// capacities: a restored table's vectors are allocated at their lengths, and the
    /// estimate — so when a run collects and where it stops — must be the same live and
    /// after a restore.
    pub fn bytes(&self) -> u64 {
        use std::mem::size_of;
        let entries = doubled(self.entries.len()) * size_of::<Option<(Value, Value)>>();
        // hashbrown: 4 or 8 buckets for small tables, else 8/7 of the items rounded up to a
        // power of two; indexmap keeps its bucket vector at the table's capacity.
        let n = self.index.len();
        let table_buckets = match n {
            0 => 0,
            1..=3 => 4,
            4..=7 => 8,
            _ => (n * 8 / 7).next_power_of_two(),
        };
        let capacity = if table_buckets <= 8 { table_buckets.saturating_sub(1) } else { table_buckets / 8 * 7 };
        let buckets = capacity * size_of::<(u64, MapKey, u32)>();
        let table = table_buckets * (size_of::<usize>() + 1);
        (entries + buckets + table) as u64
    }
}

/// The capacity a vector grown by pushes reaches for `len` elements: doubling from four.
fn doubled(len: usize) -> usize {
    if len == 0 {
        0
    } else {
        len.next_power_of_two().max(4)
    }
}

#[derive(Clone, Serialize, Deserialize)]
pub struct FinalizationData {
    pub cleanup: Value,
    pub cells: Vec<(Value, Value, Value)>,
}

#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Debug)]
pub enum PromiseState {
    Pending,
    Fulfilled,
    Rejected,
}

#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Debug)]
pub enum ReactionKind {
    Fulfill,
    Reject,
}

/// A promise reaction: a handler plus the capability (or async continuation) it settles.
#[derive(Clone, Serialize, Deserialize, Debug)]
pub struct Reaction {
    /// Promise capability record: promise, resolve, reject (undefined for await).
    pub capability: Option<(Value, Value, Value)>,
    pub kind: ReactionKind,
    pub handler: Value,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct PromiseData {
    pub state: PromiseState,
    pub result: Value,
    pub fulfill_reactions: Vec<Reaction>,
    pub reject_reactions: Vec<Reaction>,
    pub is_handled: bool,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct ProxyData {
    /// None once revoked.
    pub target: Option<ObjectId>,
    pub handler: Option<ObjectId>,
    pub callable: bool,
    pub constructor: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Debug)]
pub enum GeneratorState {
    SuspendedStart,
    SuspendedYield,
    Executing,
    Completed,
}

/// A suspended generator or async function: its frame lives here while it waits.
#[derive(Clone, Serialize, Deserialize)]
pub struct GeneratorData {
    pub state: GeneratorState,
    pub frame: Option<SavedFrame>,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct AsyncGeneratorData {
    pub state: GeneratorState,
    pub frame: Option<SavedFrame>,
    /// Pending requests: (completion kind 0 next / 1 throw / 2 return, value, capability).
    pub queue: Vec<(u8, Value, (Value, Value, Value))>,
    /// Awaiting a return's value (spec state "awaiting-return").
    pub awaiting_return: bool,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct ArrayBufferData {
    pub block: DataBlock,
    pub max_byte_length: Option<usize>,
}

/// The data block of an ArrayBuffer or SharedArrayBuffer (§6.2.9).
#[derive(Clone, Serialize, Deserialize)]
pub enum DataBlock {
    /// A detached ArrayBuffer's (null).
    Detached,
    /// An ArrayBuffer's own bytes.
    Local(Vec<u8>),
    /// A SharedArrayBuffer's, which other agents may hold too.
    Shared(crate::heap::shared_block::SharedBlock),
}

impl DataBlock {
    /// The byte length; None when detached.
    pub fn byte_length(&self) -> Option<usize> {
        match self {
            DataBlock::Detached => None,
            DataBlock::Local(b) => Some(b.len()),
            DataBlock::Shared(b) => Some(b.len()),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Debug)]
pub enum TypedKind {
    Int8,
    Uint8,
    Uint8Clamped,
    Int16,
    Uint16,
    Int32,
    Uint32,
    Float16,
    Float32,
    Float64,
    BigInt64,
    BigUint64,
}

/// A view on an ArrayBuffer (TypedArray or DataView).
#[derive(Clone, Serialize, Deserialize)]
pub struct TypedArrayData {
    pub kind: TypedKind,
    pub buffer: ObjectId,
    pub byte_offset: usize,
    /// None: length tracks a resizable buffer.
    pub length: Option<usize>,
}

/// Iterator internal state.
#[derive(Clone, Serialize, Deserialize)]
pub enum IteratorState {
    /// Array iterator over `target`: kind 0 keys, 1 values, 2 entries.
    Array {
        target: Value,
        index: u32,
        kind: u8,
        done: bool,
    },
    MapIter {
        target: ObjectId,
        index: u32,
        kind: u8,
        done: bool,
    },
    SetIter {
        target: ObjectId,
        index: u32,
        kind: u8,
        done: bool,
    },
    StringIter {
        target: StringId,
        index: u32,
        done: bool,
    },
    RegExpString {
        regexp: Value,
        string: Value,
        global: bool,
        unicode: bool,
        done: bool,
    },
    /// for-in: the keys collected up front, re-checked for presence as visited.
    ForIn {
        object: Value,
        keys: Vec<Value>,
        index: u32,
    },
    /// Iterator helpers and wrappers: free-form state.
    Helper {
        kind: u8,
        underlying: Value,
        next: Value,
        fun: Value,
        counter: f64,
        extra: Vec<Value>,
        done: bool,
    },
}

/// A module namespace's exports, sorted by name (see `module/namespace.rs`).
#[derive(Clone, Serialize, Deserialize)]
pub struct NamespaceData {
    pub module: ModuleId,
    /// A deferred namespace (`import defer`): string keys first evaluate the module.
    pub deferred: bool,
    pub exports: Vec<NsExport>,
}

/// Where an export's value lives.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub enum NsBinding {
    /// A binding of a module environment.
    Slot { env: EnvId, slot: u32 },
    /// Another module's namespace (`export * as ns from`), created on first read.
    Namespace(ModuleId),
    /// Another module's deferred namespace (a re-exported `import defer * as ns`).
    DeferredNamespace(ModuleId),
}

/// One export of a namespace: its name, property key and binding.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NsExport {
    pub name: JsStr,
    pub key: PropertyKey,
    pub binding: NsBinding,
}

/// One environment record: captured bindings of a scope.
#[derive(Clone, Serialize, Deserialize)]
pub struct Env {
    pub parent: Option<EnvId>,
    pub slots: Vec<Value>,
    /// For `with` scopes and sloppy direct eval: the binding object consulted by name.
    pub object: Option<ObjectId>,
    /// The object is the var bag of a function's variable environment, holding the `var`s
    /// and functions sloppy direct eval declared there (a declarative record's extra
    /// bindings: no `@@unscopables`, and a call through it gets `this` undefined).
    pub eval_vars: bool,
}

/// A symbol.
#[derive(Clone, Serialize, Deserialize)]
pub struct Symbol {
    pub description: Option<JsStr>,
    /// Set for symbols from `Symbol.for`.
    pub registered: bool,
}

/// Everything an object class holds, for the collector and the image verifier.
pub fn class_children(class: &Class, out: &mut impl Extend<Value>, envs: &mut Vec<EnvId>, codes: &mut Vec<CodeId>) {
    match class {
        Class::Ordinary | Class::Error | Class::Boolean(_) | Class::Number(_) | Class::Date(_) => {}
        Class::ShadowRealm(_) | Class::RawJson | Class::Temporal(_) => {}
        Class::Intl(s) => s.children(out),
        Class::Array(_) => {}
        Class::Arguments(a) => envs.extend(a.env),
        Class::Function(c) => {
            codes.push(c.code);
            envs.extend(c.env);
            out.extend(c.home_object.map(Value::object));
            out.extend([c.fields, c.private_brand, c.bound_this, c.bound_new_target]);
        }
        Class::Native(n) => out.extend(n.captures.iter().copied()),
        Class::Bound(b) => {
            out.extend([Value::object(b.target), b.this]);
            out.extend(b.args.iter().copied());
        }
        Class::String(s) => out.extend([Value::string(*s)]),
        Class::Symbol(s) => out.extend([Value::symbol(*s)]),
        Class::BigInt(b) => out.extend([Value::bigint(*b)]),
        Class::RegExp(_) => {}
        Class::Map(m) | Class::Set(m) | Class::WeakMap(m) | Class::WeakSet(m) => {
            for (k, v) in m.entries.iter().flatten() {
                out.extend([*k, *v]);
            }
        }
        Class::WeakRef(v) => out.extend([*v]),
        Class::FinalizationRegistry(f) => {
            out.extend([f.cleanup]);
            for (a, b, c) in &f.cells {
                out.extend([*a, *b, *c]);
            }
        }
        Class::Promise(p) => {
            out.extend([p.result]);
            for r in p.fulfill_reactions.iter().chain(p.reject_reactions.iter()) {
                out.extend([r.handler]);
                if let Some((a, b, c)) = r.capability {
                    out.extend([a, b, c]);
                }
            }
        }
        Class::Proxy(p) => {
            out.extend(p.target.map(Value::object));
            out.extend(p.handler.map(Value::object));
        }
        Class::Generator(g) | Class::AsyncFunctionState(g) => {
            if let Some(f) = &g.frame {
                f.children(out, envs, codes);
            }
        }
        Class::AsyncGenerator(g) => {
            if let Some(f) = &g.frame {
                f.children(out, envs, codes);
            }
            for (_, v, (a, b, c)) in &g.queue {
                out.extend([*v, *a, *b, *c]);
            }
        }
        Class::ArrayBuffer(_) => {}
        Class::TypedArray(t) | Class::DataView(t) => out.extend([Value::object(t.buffer)]),
        Class::AccessorPair { get, set } => out.extend([*get, *set]),
        Class::Iterator(it) => match &**it {
            IteratorState::Array { target, .. } => out.extend([*target]),
            IteratorState::MapIter { target, .. } | IteratorState::SetIter { target, .. } => {
                out.extend([Value::object(*target)])
            }
            IteratorState::StringIter { target, .. } => out.extend([Value::string(*target)]),
            IteratorState::RegExpString { regexp, string, .. } => out.extend([*regexp, *string]),
            IteratorState::ForIn { object, keys, .. } => {
                out.extend([*object]);
                out.extend(keys.iter().copied());
            }
            IteratorState::Helper { underlying, next, fun, extra, .. } => {
                out.extend([*underlying, *next, *fun]);
                out.extend(extra.iter().copied());
            }
        },
        Class::Namespace(n) => {
            for e in &n.exports {
                if let NsBinding::Slot { env, .. } = e.binding {
                    envs.push(env);
                }
            }
        }
        Class::Internal(v) => out.extend(v.iter().copied()),
    }
}

/// Handles a heap string holds (rope halves).
pub trait HeapStringChildren {
    fn children(&self, out: &mut impl Extend<Value>);
}

impl HeapStringChildren for crate::heap::HeapString {
    fn children(&self, out: &mut impl Extend<Value>) {
        if let crate::heap::HeapString::Rope { left, right, .. } = self {
            out.extend([Value::string(*left), Value::string(*right)]);
        }
    }
}
