//! The virtual machine: heap, register stack, frames, realm, job queue, limits.
//!
//! Everything in [`Vm`] except the host hooks is plain data and serializes; at a safe point
//! (no frame on the stack) the whole VM is an image.

use std::collections::VecDeque;

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;
use serde::{Deserialize, Serialize};

use crate::atoms::{Atom, PropertyKey};
use crate::error::{ErrorKind, JsResult, Limit, Throw};
use crate::heap::frame::Frame;
use crate::heap::object::{Class, Object};
use crate::heap::shape::PropFlags;
use crate::heap::source::{LowerSpan, Source};
use crate::heap::{Heap, RealmId};
use crate::realm::{Intrinsics, ParkedRealm, WellKnownSymbols};
use crate::string::JsStr;
use crate::value::{ObjectId, SymbolId, Value};

/// Limits and switches an embedder sets.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VmOptions {
    /// Instruction budget (fuel); None = unlimited.
    pub max_instructions: Option<u64>,
    /// Approximate heap budget in bytes; None = unlimited.
    pub max_heap_bytes: Option<u64>,
    /// Maximum JS call depth before RangeError.
    pub max_stack_depth: usize,
    /// Maximum nesting of calls made from Rust (natives calling functions, and the
    /// interpreter re-entered from natives) before RangeError: the depth of recursion that
    /// passes through builtins (`forEach`, `call`, getters, `toString`). Each level costs
    /// native stack, which grows on demand (`interp::run`), so this bounds its memory.
    pub max_native_depth: u32,
    /// Collect after this many allocations (at the next instruction boundary), whatever
    /// their size. The default is for throughput; a small value is the GC-stress mode
    /// (`AMBER_GC_INTERVAL`, docs/limits.md): `1` collects at every instruction that follows
    /// an allocation, so a value a native holds unrooted across a call into JS is freed
    /// while it is still in use, and the test that reaches it fails.
    pub gc_interval: u64,
    /// The run's time zone (an IANA identifier or a UTC offset such as "+05:30"):
    /// `Temporal.Now`'s system time zone. It rides the image with the other options, so a
    /// resumed run keeps it; the host's `TZ` is never read.
    pub time_zone: String,
    /// The run's default locale (a BCP 47 tag such as "de-DE"): ECMA-402's DefaultLocale,
    /// what `Intl` constructors and `toLocaleString` use when no locale is given. It rides
    /// the image with the other options, so a resumed run keeps it; the host's `LANG` and
    /// `LC_*` are never read. Check it with [`crate::builtins::intl::is_locale`].
    pub locale: String,
    /// Whether the dispatch loop runs straight lines of simple ops in its fast tier
    /// (`interp/fast.rs`) before the general path. Off is a test mode (`AMBER_FAST_TIER=off`,
    /// docs/testing.md): every instruction then takes the general path, so a fast-tier arm
    /// that is not an exact shortcut of its general arm shows up as a changed output. A
    /// switch of the process that runs the VM, not state: it does not ride the image (the
    /// restoring embedder sets it), so images are the same bytes either way.
    #[serde(skip, default = "fast_tier_on")]
    pub fast_tier: bool,
}

fn fast_tier_on() -> bool {
    true
}

/// Default [`VmOptions::max_native_depth`]: recursion through a builtin costs two levels
/// per JS frame (the native and the interpreter re-entered from it), so this lets such a
/// recursion run past 10,000 JS frames, as deep as node's default stack allows.
pub const DEFAULT_MAX_NATIVE_DEPTH: u32 = 24_000;

impl Default for VmOptions {
    fn default() -> Self {
        VmOptions {
            max_instructions: None,
            max_heap_bytes: None,
            max_stack_depth: 200_000,
            max_native_depth: DEFAULT_MAX_NATIVE_DEPTH,
            gc_interval: 200_000,
            time_zone: "UTC".to_string(),
            locale: "en-US".to_string(),
            fast_tier: true,
        }
    }
}

/// Bytes a queued job costs the heap estimate.
pub(crate) const JOB_BYTES: u64 = std::mem::size_of::<Job>() as u64;

/// Bytes a job queue of `len` jobs holds: a buffer that doubles, so the next power of two of
/// jobs. A function of the length alone (not of the buffer's capacity), so the estimate, and
/// with it every collection's timing, is the same after an image is restored.
pub(crate) fn job_queue_bytes(len: usize) -> u64 {
    if len == 0 {
        0
    } else {
        len.next_power_of_two() as u64 * JOB_BYTES
    }
}

/// A queued job.
#[derive(Clone, Serialize, Deserialize, Debug)]
pub enum Job {
    /// PromiseReactionJob: run `handler` (or pass through) with `argument`, settle capability.
    Reaction { reaction: crate::heap::object::Reaction, argument: Value },
    /// PromiseResolveThenableJob.
    ResolveThenable { promise: Value, thenable: Value, then: Value },
    /// A plain callback (`queueMicrotask`).
    Callback { callback: Value },
}

/// Where a restore finds lower-layer bytes by sha256 (None: not there).
pub type BlobLookup<'a> = &'a mut dyn FnMut(&[u8; 32]) -> Option<Vec<u8>>;

/// The sources as an image carries them: each lower span cut out of its text.
fn elided(sources: &[Source]) -> Vec<Source> {
    sources
        .iter()
        .map(|s| match s.lower {
            Some(span) => {
                let (start, end) = (span.start as usize, span.start as usize + span.len as usize);
                let mut copy = s.clone();
                copy.text = format!("{}{}", s.text.get(..start).unwrap_or(""), s.text.get(end..).unwrap_or(""));
                copy
            }
            None => s.clone(),
        })
        .collect()
}

/// Puts every lower span back into its (elided) text, from `blobs`; a missing, wrong-sized,
/// non-UTF-8 or misplaced span is an error (a crafted image must not leave a text that the
/// positions recorded in code do not fit).
fn restore_spans(sources: &mut [Source], blobs: Option<BlobLookup<'_>>) -> Result<(), String> {
    let mut blobs = blobs;
    for s in sources.iter_mut() {
        let Some(span) = s.lower else { continue };
        let Some(lookup) = blobs.as_deref_mut() else {
            return Err(format!(
                "the image names source {:?} by its lower-layer hash, but no lower layer is attached",
                s.name
            ));
        };
        let bytes =
            lookup(&span.sha256).ok_or_else(|| format!("source {:?}: its bytes are not in the store", s.name))?;
        let fits = bytes.len() == span.len as usize
            && crate::vfs::lower::sha256(&bytes) == span.sha256
            && (span.start as usize) <= s.text.len()
            && s.text.is_char_boundary(span.start as usize);
        let text = String::from_utf8(bytes).ok().filter(|_| fits);
        let Some(text) = text else {
            return Err(format!("corrupt heap payload: source {:?} has a bad lower span", s.name));
        };
        s.text.insert_str(span.start as usize, &text);
    }
    Ok(())
}

/// Every code block an image rebuilt from a code blob (`shared`: its handle, the blob's hash
/// and the hash of the text the blob was compiled from) belongs to a source that names that
/// blob and has that text, so a later image names the same blob and positions fit the text.
fn check_shared_code(vm: &Vm, shared: &[crate::heap::image::SharedCode]) -> Result<(), String> {
    // Each source's text is hashed once, however many blocks it has.
    let mut checked: std::collections::BTreeSet<(u32, [u8; 32])> = std::collections::BTreeSet::new();
    for s in shared {
        let code = vm.heap.code.get(s.code).ok_or("corrupt heap delta: a shared code block is missing")?;
        let source = vm.sources.get(code.source_id as usize).filter(|source| source.code == Some(s.blob));
        let Some(source) = source else {
            return Err(format!("corrupt heap delta: code block {} names a code blob its source does not", s.code));
        };
        if !checked.insert((code.source_id, s.text_sha256)) {
            continue;
        }
        if crate::vfs::lower::sha256(source.text.as_bytes()) != s.text_sha256 {
            return Err(format!(
                "code blob {} was compiled from another text than source {:?}",
                hex(&s.blob),
                source.name
            ));
        }
    }
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A host function: registered by name, never serialized (re-registered after restore).
pub type HostFn = crate::builtins::NativeFn;

/// A virtual timer (setTimeout/setInterval/setImmediate), ordered by (due, id).
#[derive(Clone, Serialize, Deserialize, Debug)]
pub struct Timer {
    pub id: u64,
    /// Logical due time in milliseconds.
    pub due: f64,
    pub callback: Value,
    /// The `this` the callback is called with: Node's `Timeout` or `Immediate` object for the
    /// Node layer's timers (heap.18), undefined for the engine's own.
    pub this: Value,
    pub args: Vec<Value>,
    /// Repeat interval for setInterval.
    pub interval: Option<f64>,
    /// setImmediate (runs before timers due at the same tick).
    pub immediate: bool,
}

/// A pending host operation (`amber.call`, `amber.input`, `amber.sleep`): the durable layer
/// owns its meaning; the engine keeps it in the VM so its promise survives collection and
/// rides the image.
#[derive(Clone, Serialize, Deserialize, Debug)]
pub struct HostOp {
    pub id: u64,
    pub seq: u64,
    /// "call" | "input" | "sleep" | other kinds the embedder defines.
    pub kind: String,
    pub name: String,
    /// Arguments as canonical JSON text.
    pub args_json: String,
    pub promise: ObjectId,
    /// For sleeps: the logical due time in milliseconds.
    pub due_ms: Option<f64>,
    /// Source position of the call, for divergence reports.
    pub location: String,
}

/// Output stream of the print hook.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// Which edge of a garbage collection a [`GcObserver`] sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GcPhase {
    Start,
    End,
}

/// An embedder's view of collections (for pause statistics).
pub type GcObserver = fn(&Vm, GcPhase);

/// The engine has no I/O of its own: console output goes through this hook.
pub type PrintHook = fn(&mut Vm, Stream, &str);

/// The engine has no entropy of its own: crypto randomness (`crypto.randomBytes`, …) fills
/// the buffer through this hook, which follows the embedder's policy; Err says why it cannot.
pub type EntropyHook = fn(&mut Vm, &mut [u8]) -> Result<(), String>;

/// The first touch of a surface the embedder keeps a ledger of ("Clock", "Random", and the
/// node layer's names such as "FsRead"), called at the moment it happens, so the embedder
/// can stamp it with its journal position then rather than at the next safe point.
pub type TouchHook = fn(&mut Vm, &str);

/// Current native call's context.
#[derive(Clone, Copy, Serialize, Deserialize, Default)]
pub struct NativeCtx {
    pub callee: Option<ObjectId>,
    pub new_target: Value,
}

/// Counters for `--stats`.
#[derive(Clone, Copy, Serialize, Deserialize, Default, Debug)]
pub struct VmStats {
    pub instructions: u64,
    pub ic_hits: u64,
    pub ic_misses: u64,
}

/// Embedder state riding the image: bytes under string keys, in insertion order. The keys
/// are declared by their owners (the durable layer, the node layer, `Math.random`'s seed);
/// every reader and writer goes through these methods rather than searching the list.
#[derive(Clone, Default, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HostState(Vec<(String, Vec<u8>)>);

impl HostState {
    /// The bytes under `key`.
    pub fn get(&self, key: &str) -> Option<&[u8]> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_slice())
    }

    /// The bytes under `key`, to change in place.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Vec<u8>> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// True if `key` has an entry (flags are entries with no bytes).
    pub fn contains(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| k == key)
    }

    /// Sets `key` to `bytes` (in place if it exists, else appended).
    pub fn set(&mut self, key: &str, bytes: Vec<u8>) {
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = bytes,
            None => self.0.push((key.to_string(), bytes)),
        }
    }

    /// Removes `key`'s entry, returning its bytes.
    pub fn remove(&mut self, key: &str) -> Option<Vec<u8>> {
        let i = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(i).1)
    }

    /// Every entry's bytes, to rewrite in place (the durable layer swaps secret placeholders
    /// through all of them).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Vec<u8>> {
        self.0.iter_mut().map(|(_, v)| v)
    }

    /// Every entry, in insertion order.
    pub fn entries(&self) -> &[(String, Vec<u8>)] {
        &self.0
    }
}

/// `Clone` copies everything, including host state that names this VM's place in the world
/// (its agent mailbox): for a second, independent VM use [`Vm::independent_copy`].
#[derive(Clone, Serialize, Deserialize)]
pub struct Vm {
    /// Encoded separately (whole or baseline-relative): see [`Vm::encode_state`].
    #[serde(skip)]
    pub heap: Heap,
    /// Registers and operand stacks of every frame, contiguous.
    pub stack: Vec<Value>,
    pub frames: Vec<Frame>,
    pub realm: Intrinsics,
    pub symbols: WellKnownSymbols,
    pub global: ObjectId,
    /// Top-level `let`/`const`/`class` bindings: value and whether mutable.
    pub global_lexicals: IndexMap<Atom, (Value, bool), FxBuildHasher>,
    /// Every realm, by `RealmId`; the running one's slot is empty (its state is in `realm`,
    /// `global` and `global_lexicals` above). See `realm.rs`.
    pub realms: Vec<Option<ParkedRealm>>,
    pub current_realm: RealmId,
    pub jobs: VecDeque<Job>,
    pub symbol_registry: IndexMap<JsStr, SymbolId, FxBuildHasher>,
    pub options: VmOptions,
    /// Remaining fuel.
    pub fuel: u64,
    /// Values natives and instructions hold across calls into JS (scoped: truncated when the
    /// native returns, `runtime::call`, and when the instruction completes, `interp::run_loop`).
    pub roots: Vec<Value>,
    /// Encoded beside the rest (the baseline's own sources are not repeated in an image).
    #[serde(skip)]
    pub sources: Vec<Source>,
    pub native_ctx: NativeCtx,
    /// Builtins on the Rust stack, innermost last (`runtime::call::call_native`), for the
    /// `<anonymous>` frames of `error.stack`. A native runs inside a Rust call, so the list
    /// is empty at every safe point and never rides an image.
    #[serde(skip)]
    pub native_frames: Vec<crate::interp::frame::NativeFrame>,
    /// The last one-byte string a regexp searched, widened to the UTF-16 the matcher reads:
    /// an `exec` loop over one text widens it once, not once per match. A cache, never
    /// carried by an image or a copy.
    #[serde(skip)]
    pub regexp_subject: crate::builtins::regexp::matcher::WideSubject,
    /// The running promise reaction job's handler and the promise it settles (undefined for
    /// an await's): where an async stack trace starts (`interp/stack_trace.rs`). Set only
    /// while the job runs, whose roots hold both, so it never rides an image.
    #[serde(skip)]
    pub current_reaction: Option<(Value, Value)>,
    pub stats: VmStats,
    /// Promises rejected with no handler yet (reported by the embedder when idle).
    pub pending_rejections: Vec<Value>,
    /// One-code-unit strings for Latin-1, shared (indexing a string allocates nothing).
    /// Built with the realm; an image restores them from the baseline, or beside the rest.
    #[serde(skip)]
    pub single_chars: Vec<Value>,
    /// Set by `yield*` delegation: the next yielded value is already an iterator result.
    pub yield_raw: bool,
    /// Arrays being joined (cycle detection for join/toString/toLocaleString).
    pub join_stack: Vec<ObjectId>,
    /// Nested calls from Rust: natives and re-entries of the interpreter (bounded by
    /// `options.max_native_depth`).
    pub native_depth: u32,
    /// Virtual timers (DESIGN §6).
    pub timers: Vec<Timer>,
    /// Numbers timers and `Atomics.waitAsync` waiters.
    pub next_timer_id: u64,
    /// Pending `Atomics.waitAsync` promises (`builtins/atomics.rs`).
    pub async_waiters: Vec<crate::builtins::atomics::AsyncWaiter>,
    /// This agent's mailbox for notifications from other agents (`agent.rs`); host state,
    /// carried over by an in-process round trip like the print hook.
    #[serde(skip)]
    pub agent: crate::agent::AgentSignal,
    /// The logical clock in milliseconds since the epoch; `Date.now()` reads it.
    pub clock_ms: f64,
    /// Set when the program reads the clock (`Date.now()`, `new Date()`, `process.hrtime`…):
    /// the embedder's Clock capability. Read the clock through [`Vm::now_ms`].
    pub clock_read: bool,
    /// Nesting of live pure computations (`amber.step` callbacks, which a replay skips): while
    /// it is non-zero, effects a replay could not reproduce (VFS writes, timers) throw, through
    /// [`Vm::refuse_in_pure_step`]. Never imaged: a step is synchronous, so no safe point
    /// falls inside one.
    #[serde(skip)]
    pub pure_depth: u32,
    /// Set by `amber eval` (evaluation on a copy of a session's state): the effects a pure
    /// step refuses are refused here too, with a message that says why. Not image state.
    #[serde(skip)]
    pub effects_refused: bool,
    /// Pending host operations.
    pub host_ops: Vec<HostOp>,
    pub next_op_seq: u64,
    /// Native (host) functions registered by the embedder: name → function.
    #[serde(skip)]
    pub host_functions: Vec<(String, HostFn)>,
    /// Where `console` and `print` output goes; None drops it (the engine does no I/O).
    #[serde(skip)]
    pub print_hook: Option<PrintHook>,
    /// Called as each collection starts and ends (`--stats` times pauses with it; the engine
    /// itself has no clock). Never serialized.
    #[serde(skip)]
    pub gc_observer: Option<GcObserver>,
    /// Crypto randomness (see [`EntropyHook`]); re-set after restore like `print_hook`.
    #[serde(skip)]
    pub entropy_hook: Option<EntropyHook>,
    /// First touches of ledger surfaces (see [`TouchHook`]); re-set after restore like
    /// `print_hook`. Report through [`Vm::touch_surface`].
    #[serde(skip)]
    pub touch_hook: Option<TouchHook>,
    /// Opaque embedder state riding the image (the durable layer's state, the node layer's
    /// process inputs and flags), as bytes under keys the embedder owns ([`HostState`]).
    pub host_state: HostState,
    /// Heap values the embedder holds by name (the node layer's module caches): GC roots
    /// that ride the image. See [`Vm::host_value`].
    pub host_values: Vec<(String, Value)>,
    /// ES modules: records, the resolution map, import cells (`module/`).
    pub modules: crate::module::ModuleMap,
    /// The embedder's module loader (the engine has no I/O); re-set after restore.
    #[serde(skip)]
    pub module_loader: Option<crate::module::ModuleLoader>,
    /// The virtual filesystem (`node:fs`, module sources): plain data riding the image.
    pub vfs: crate::vfs::Vfs,
    /// Code blobs made by compiles in this process and not yet taken by the embedder
    /// ([`Vm::take_code_blobs`]), by sha256. Not image state: the store keeps them.
    #[serde(skip)]
    pub code_blobs: Vec<([u8; 32], std::sync::Arc<[u8]>)>,
}

impl Vm {
    /// A new VM equal to this one and independent of it: the heap and every table copied, and
    /// a mailbox of its own for other agents to reach it. An embedder that builds the same
    /// starting VM for every run (the realm plus its own globals) builds it once and takes
    /// copies: a copy costs memory traffic, a build runs the realm's and the embedder's setup.
    pub fn independent_copy(&self) -> Vm {
        let mut vm = self.clone();
        vm.agent = crate::agent::AgentSignal::new();
        vm
    }

    /// A fresh VM with a fully built realm.
    pub fn new(options: VmOptions) -> Vm {
        let fuel = options.max_instructions.unwrap_or(u64::MAX);
        let mut vm = Vm {
            heap: Heap::new(),
            stack: Vec::with_capacity(1024),
            frames: Vec::new(),
            realm: Intrinsics::default(),
            symbols: WellKnownSymbols::default(),
            global: ObjectId(0),
            global_lexicals: IndexMap::default(),
            realms: vec![None],
            current_realm: 0,
            jobs: VecDeque::new(),
            symbol_registry: IndexMap::default(),
            options,
            fuel,
            roots: Vec::new(),
            sources: Vec::new(),
            native_ctx: NativeCtx::default(),
            native_frames: Vec::new(),
            regexp_subject: Default::default(),
            current_reaction: None,
            stats: VmStats::default(),
            pending_rejections: Vec::new(),
            single_chars: Vec::new(),
            yield_raw: false,
            join_stack: Vec::new(),
            native_depth: 0,
            timers: Vec::new(),
            next_timer_id: 1,
            async_waiters: Vec::new(),
            agent: crate::agent::AgentSignal::new(),
            clock_ms: 0.0,
            clock_read: false,
            pure_depth: 0,
            effects_refused: false,
            host_ops: Vec::new(),
            next_op_seq: 0,
            host_functions: Vec::new(),
            print_hook: None,
            gc_observer: None,
            entropy_hook: None,
            touch_hook: None,
            host_state: HostState::default(),
            host_values: Vec::new(),
            modules: crate::module::ModuleMap::default(),
            module_loader: None,
            vfs: crate::vfs::Vfs::new(),
            code_blobs: Vec::new(),
        };
        crate::builtins::global::create_realm(&mut vm);
        vm
    }

    // ---- small helpers natives use everywhere

    /// A well-known symbol by its `Symbol.<name>` name.
    pub fn well_known_symbol(&self, name: &str) -> Option<SymbolId> {
        match name {
            "match" => Some(self.symbols.match_),
            _ => self.symbols.by_name(name),
        }
    }

    /// Intern a Rust string as a property key.
    pub fn key(&mut self, name: &str) -> PropertyKey {
        self.heap.atoms.key_for(&JsStr::from_str(name))
    }

    /// Define a property directly on an ordinary object being built (realm setup, literals).
    pub fn define_builtin(&mut self, target: ObjectId, key: PropertyKey, value: Value, flags: PropFlags) {
        let heap = &mut self.heap;
        let exists = heap.obj(target).lookup_named(&heap.shapes, key).is_some();
        let obj = heap.objects.get_mut(target.0);
        if let Some(obj) = obj {
            if exists {
                obj.redefine_named(&heap.shapes, key, value, flags);
            } else {
                // A new function's `length` and `name` are its slot block: charged here, as
                // a collection counts them, or a heap of closures outgrows the estimate.
                let before = crate::heap::named_bytes(&obj.props);
                obj.add_named(&mut heap.shapes, key, value, flags);
                let grown = crate::heap::named_bytes(&obj.props).saturating_sub(before);
                heap.note_growth(grown);
            }
        }
    }

    /// A new ordinary object with %Object.prototype%.
    pub fn new_object(&mut self) -> Value {
        let proto = self.realm.object_prototype;
        Value::object(self.heap.new_plain(Some(proto)))
    }

    /// A new array holding `values`.
    pub fn new_array(&mut self, values: Vec<Value>) -> Value {
        let mut o = Object::new(
            Some(self.realm.array_prototype),
            Class::Array(crate::heap::object::ArrayData { length: values.len() as u32, length_writable: true }),
        );
        o.elements = values;
        Value::object(self.heap.alloc_object(o))
    }

    /// A string value.
    pub fn str(&mut self, s: &str) -> Value {
        self.heap.alloc_str(s)
    }

    pub fn js_str(&mut self, s: JsStr) -> Value {
        Value::string(self.heap.alloc_string(s))
    }

    /// Create an error object of a native kind.
    pub fn make_error(&mut self, kind: ErrorKind, message: &str) -> Value {
        let proto = match kind {
            ErrorKind::Error => self.realm.error_prototype,
            ErrorKind::TypeError => self.realm.type_error_prototype,
            ErrorKind::ReferenceError => self.realm.reference_error_prototype,
            ErrorKind::SyntaxError => self.realm.syntax_error_prototype,
            ErrorKind::RangeError => self.realm.range_error_prototype,
            ErrorKind::EvalError => self.realm.eval_error_prototype,
            ErrorKind::UriError => self.realm.uri_error_prototype,
            ErrorKind::AggregateError => self.realm.aggregate_error_prototype,
        };
        let obj = self.heap.alloc_object(Object::new(Some(proto), Class::Error));
        let msg = self.str(message);
        self.define_builtin(obj, PropertyKey::Atom(crate::atoms::atom::message), msg, PropFlags::HIDDEN);
        crate::builtins::error::attach_stack(self, obj);
        Value::object(obj)
    }

    /// A throw of a new native error.
    pub fn throw(&mut self, kind: ErrorKind, message: impl AsRef<str>) -> Throw {
        Throw::Value(self.make_error(kind, message.as_ref()))
    }

    pub fn type_error(&mut self, message: impl AsRef<str>) -> Throw {
        self.throw(ErrorKind::TypeError, message)
    }

    pub fn range_error(&mut self, message: impl AsRef<str>) -> Throw {
        self.throw(ErrorKind::RangeError, message)
    }

    pub fn reference_error(&mut self, message: impl AsRef<str>) -> Throw {
        self.throw(ErrorKind::ReferenceError, message)
    }

    pub fn syntax_error(&mut self, message: impl AsRef<str>) -> Throw {
        self.throw(ErrorKind::SyntaxError, message)
    }

    /// Charge `units` of fuel for native work proportional to its size.
    #[inline]
    ///
    /// Natives charge as they loop, so this is also where a loop that grows storage meets
    /// the heap budget: the limit is exceeded by at most one step's growth.
    pub fn charge(&mut self, units: u64) -> JsResult<()> {
        if self.fuel < units {
            self.fuel = 0;
            return Err(Throw::Limit(Limit::Fuel));
        }
        self.fuel -= units;
        self.check_heap()
    }

    /// Queue a job; the queue's growth counts against the heap like any storage — as the
    /// doubling buffer it is ([`job_queue_bytes`]), so a queue that grows past the budget
    /// is stopped before its next reallocation, not after it.
    pub fn enqueue_job(&mut self, job: Job) {
        let before = job_queue_bytes(self.jobs.len());
        self.jobs.push_back(job);
        self.heap.note_growth(job_queue_bytes(self.jobs.len()) - before);
    }

    /// Check a string being built (`units` code units so far, not yet in the heap): over
    /// the maximum string length it is a RangeError, and its buffer counts against the heap
    /// budget while it grows, so a builder cannot reach gigabytes before it allocates.
    pub fn check_string_growth(&mut self, units: u64) -> JsResult<()> {
        if units > crate::builtins::string::MAX_STRING_LENGTH {
            return Err(self.range_error("Invalid string length"));
        }
        match self.options.max_heap_bytes {
            Some(max) if self.heap.bytes_estimate.saturating_add(units * 2) > max => Err(Throw::Limit(Limit::Heap)),
            _ => Ok(()),
        }
    }

    /// Check the heap budget (called at allocation-heavy points).
    #[inline]
    pub fn check_heap(&self) -> JsResult<()> {
        match self.options.max_heap_bytes {
            Some(max) if self.heap.bytes_estimate > max => Err(Throw::Limit(Limit::Heap)),
            _ => Ok(()),
        }
    }

    /// The current native call's `new.target` (undefined for a plain call).
    pub fn native_new_target(&self) -> Value {
        self.native_ctx.new_target
    }

    /// The current native function's captured values.
    pub fn native_captures(&self) -> Vec<Value> {
        match self.native_ctx.callee.map(|c| &self.heap.obj(c).class) {
            Some(Class::Native(n)) => n.captures.clone(),
            _ => Vec::new(),
        }
    }

    /// The global object.
    pub fn global_object(&self) -> Value {
        Value::object(self.global)
    }

    /// Write program output through the embedder's hook. Without one the output is dropped:
    /// the engine does no I/O of its own (an embedder that wants it sets `print_hook`).
    pub fn print(&mut self, stream: Stream, text: &str) {
        if let Some(hook) = self.print_hook {
            hook(self, stream, text);
        }
    }
}

/// First byte of a heap payload: the whole heap follows.
const PAYLOAD_FULL: u8 = 0;
/// First byte of a heap payload: a baseline-relative heap delta follows.
const PAYLOAD_DELTA: u8 = 1;

fn check_used(bytes: &[u8], used: usize) -> Result<(), String> {
    if used != bytes.len() {
        return Err(format!("corrupt heap payload: {} trailing bytes", bytes.len() - used));
    }
    Ok(())
}

/// bincode configuration of the heap payload: little-endian varints, 1 GiB limit so a
/// hostile payload cannot make the decoder allocate without bound.
fn payload_config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ 1 << 30 }>()
}

impl Vm {
    /// Compile and run a script (global code); returns its completion value. Does not run
    /// queued jobs: call [`Vm::run_jobs`].
    pub fn eval_script(&mut self, source: &str, filename: &str) -> Result<Value, crate::error::RunError> {
        let code = crate::compiler::compile_script(self, source, filename).map_err(crate::error::RunError::Syntax)?;
        let global = Value::object(self.global);
        let r = crate::interp::run_code(self, code, None, global, Value::UNDEFINED, Value::UNDEFINED);
        self.stack.clear();
        self.frames.clear();
        r.map_err(|t| self.run_error(t))
    }

    /// Load (through [`Vm::module_loader`]), link and evaluate `source` as the ES module
    /// `filename` (its resolved name, as the loader would return it). Returns the evaluation
    /// promise: with top-level await it settles as [`Vm::run_jobs`] runs jobs. A module that
    /// throws before awaiting is returned as the error.
    pub fn eval_module(&mut self, source: &str, filename: &str) -> Result<Value, crate::error::RunError> {
        crate::module::eval_module(self, source, filename)
    }

    /// [`Vm::eval_module`] of JavaScript made from another text (TypeScript): positions in
    /// stack traces are `map`'s original ones.
    pub fn eval_mapped_module(
        &mut self,
        source: &str,
        filename: &str,
        map: crate::source_map::PositionMap,
    ) -> Result<Value, crate::error::RunError> {
        crate::module::eval_mapped_module(self, source, filename, Some(map))
    }

    /// Drain the microtask queue.
    pub fn run_jobs(&mut self) -> Result<(), crate::error::RunError> {
        let r = crate::builtins::promise::run_jobs(self);
        self.stack.clear();
        self.frames.clear();
        r.map_err(|t| self.run_error(t))
    }

    /// Settle the `Atomics.waitAsync` promises that other agents have notified since the last
    /// call (their reactions join the job queue). An embedder running several agents calls
    /// this from its event loop; answers whether anything was settled.
    pub fn take_agent_signals(&mut self) -> Result<bool, crate::error::RunError> {
        let r = crate::builtins::atomics::settle_posted(self);
        r.map_err(|t| self.run_error(t))
    }

    /// Is any `Atomics.waitAsync` promise waiting on memory another agent holds (so that
    /// agent, not a timer, may settle it)?
    pub fn awaits_other_agents(&self) -> bool {
        self.async_waiters
            .iter()
            .any(|w| crate::builtins::array_buffer::shared_block(self, w.buffer).is_some_and(|b| b.held_elsewhere()))
    }

    /// The earliest virtual timer: (id, due time).
    pub fn next_timer(&self) -> Option<(u64, f64)> {
        let first = self.timers.iter().min_by(|a, b| a.due.total_cmp(&b.due).then(a.id.cmp(&b.id)))?;
        Some((first.id, first.due))
    }

    /// Run virtual timer `id` now, moving the logical clock to its due time if that is later:
    /// an embedder's event loop for engine-level timers (`Atomics.waitAsync` timeouts). See
    /// [`Vm::run_timer`]. Answers whether the timer was still pending.
    pub fn fire_timer(&mut self, id: u64) -> Result<bool, crate::error::RunError> {
        if let Some(t) = self.timers.iter().find(|t| t.id == id) {
            self.clock_ms = self.clock_ms.max(t.due);
        }
        let r = self.run_timer(id);
        r.map_err(|t| self.run_error(t))
    }

    /// Run timer `id` if it is still queued, at the current clock: a timeout or immediate is
    /// removed first; an interval is re-armed at `clock + interval` before its callback runs
    /// (so the callback may clear it). Returns false if no such timer was queued. Leaves no
    /// frame on the stack.
    pub fn run_timer(&mut self, id: u64) -> JsResult<bool> {
        let Some(index) = self.timers.iter().position(|t| t.id == id) else { return Ok(false) };
        let timer = self.timers.remove(index);
        if let Some(interval) = timer.interval {
            self.timers.push(Timer { due: self.clock_ms + interval, ..timer.clone() });
        }
        let mark = self.roots.len();
        self.roots.extend([timer.callback, timer.this]);
        self.roots.extend_from_slice(&timer.args);
        let r = crate::runtime::call::call(self, timer.callback, timer.this, &timer.args);
        self.roots.truncate(mark);
        self.stack.clear();
        self.frames.clear();
        r.map(|_| true)
    }

    /// Describe a throw for the embedder without running any JS.
    pub fn run_error(&mut self, t: Throw) -> crate::error::RunError {
        match t {
            Throw::Limit(l) => crate::error::RunError::Limit(l),
            Throw::Value(v) => {
                let (name, message, stack) = self.describe_thrown(v);
                crate::error::RunError::Threw { value: v, name, message, stack }
            }
        }
    }

    /// (constructor name, message, stack) of a thrown value, read from data properties only.
    pub fn describe_thrown(&mut self, v: Value) -> (String, String, String) {
        let read = |vm: &Vm, o: ObjectId, key: Atom| -> Option<Value> {
            let mut cur = Some(o);
            let mut depth = 0;
            while let (Some(c), true) = (cur, depth < 1000) {
                let obj = vm.heap.obj(c);
                if let Some((v, f)) = obj.lookup_named(&vm.heap.shapes, PropertyKey::Atom(key)) {
                    return (!f.is_accessor()).then_some(v);
                }
                cur = obj.proto;
                depth += 1;
            }
            None
        };
        let text = |vm: &mut Vm, v: Option<Value>| -> String {
            match v.and_then(|v| v.as_string()) {
                Some(s) => vm.heap.flat(s).to_rust_string(),
                None => String::new(),
            }
        };
        match v.as_object() {
            Some(o)
                if matches!(self.heap.obj(o).class, Class::Error)
                    || read(self, o, crate::atoms::atom::message).is_some() =>
            {
                let ctor = read(self, o, crate::atoms::atom::constructor).and_then(|c| c.as_object());
                let name = match ctor {
                    Some(c) => crate::builtins::function::function_name(self, c),
                    None => {
                        let n = read(self, o, crate::atoms::atom::name);
                        text(self, n)
                    }
                };
                let m = read(self, o, crate::atoms::atom::message);
                let message = text(self, m);
                let st = read(self, o, crate::atoms::atom::stack);
                let mut stack = text(self, st);
                if stack.is_empty() {
                    stack = if message.is_empty() { name.clone() } else { format!("{name}: {message}") };
                }
                (name, message, stack)
            }
            _ => {
                let s = self.to_display_string(v);
                (String::new(), s.clone(), s)
            }
        }
    }

    /// ToString for display; never throws (falls back to a placeholder) and never runs JS
    /// for objects.
    pub fn to_display_string(&mut self, v: Value) -> String {
        match v.kind() {
            crate::value::Kind::Object(o) => {
                if self.heap.obj(o).is_callable() {
                    format!("function {}", crate::builtins::function::function_name(self, o))
                } else {
                    "[object Object]".to_string()
                }
            }
            crate::value::Kind::Symbol(s) => {
                let d = self.heap.symbol(s).and_then(|s| s.description.as_ref()).map(|d| d.to_rust_string());
                format!("Symbol({})", d.unwrap_or_default())
            }
            _ => crate::runtime::convert::to_rust_string(self, v).unwrap_or_default(),
        }
    }

    /// Records that the newest source named `name` holds, from byte `start`, the lower-layer
    /// file of the same path byte for byte (see [`Source::lower`]); does nothing otherwise.
    pub fn mark_lower_span(&mut self, name: &str, start: usize) {
        let Some((sha256, size)) = self.vfs.peek_lower_file(name) else { return };
        let Some(source) = self.sources.iter_mut().rev().find(|s| s.name == name) else { return };
        let Some(bytes) =
            usize::try_from(size).ok().and_then(|n| source.text.as_bytes().get(start..start.checked_add(n)?))
        else {
            return;
        };
        if source.lower.is_none() && crate::vfs::lower::sha256(bytes) == sha256 {
            if let (Ok(start), Ok(len)) = (u32::try_from(start), u32::try_from(size)) {
                source.lower = Some(LowerSpan { sha256, start, len });
            }
        }
    }

    /// Install a host function as property `name` of `target`. The function is named in
    /// images by `name`; a restored VM needs the embedder to register it again.
    pub fn define_host_function(&mut self, target: Value, name: &str, length: u32, f: HostFn) -> Value {
        self.define_host_function_with(target, name, length, f, PropFlags::HIDDEN)
    }

    /// As [`Self::define_host_function`], the property having `flags` (`PropFlags::DEFAULT`:
    /// enumerable, like Node's `console` methods).
    pub fn define_host_function_with(
        &mut self,
        target: Value,
        name: &str,
        length: u32,
        f: HostFn,
        flags: PropFlags,
    ) -> Value {
        if !self.host_functions.iter().any(|(n, _)| n == name) {
            self.host_functions.push((name.to_string(), f));
        } else if let Some(e) = self.host_functions.iter_mut().find(|(n, _)| n == name) {
            e.1 = f;
        }
        let id = crate::builtins::NativeId::builtin("%HostFunction");
        let key_name = self.str(name);
        let short = name.rsplit('.').next().unwrap_or(name).to_string();
        let fo = crate::builtins::make_native(self, &short, id, length, false, vec![key_name]);
        if let Some(t) = target.as_object() {
            let key = self.key(&short);
            self.define_builtin(t, key, Value::object(fo), flags);
        }
        Value::object(fo)
    }

    /// Register (or re-register after restore) a host function by name.
    pub fn register_host_function(&mut self, name: &str, f: HostFn) {
        match self.host_functions.iter_mut().find(|(n, _)| n == name) {
            Some(e) => e.1 = f,
            None => self.host_functions.push((name.to_string(), f)),
        }
    }

    /// The logical clock, as the program reads it (marks the Clock capability as touched).
    pub fn now_ms(&mut self) -> f64 {
        self.mark_clock_read();
        self.clock_ms
    }

    /// A TypeError naming `what` inside a live pure computation (see [`Vm::pure_depth`]).
    pub fn refuse_in_pure_step(&mut self, what: &str) -> JsResult<()> {
        if self.effects_refused {
            return Err(self.type_error(format!(
                "{what} cannot be used in amber eval: it evaluates on a copy of the session's state, \
                 with effects refused"
            )));
        }
        if self.pure_depth == 0 {
            return Ok(());
        }
        Err(self.type_error(format!(
            "{what} cannot be used inside amber.step: a step must be a pure computation (a replay \
             returns its recorded result without running it, so its effects would be lost)"
        )))
    }

    /// The program read the clock: the Clock capability, reported at its first read.
    pub fn mark_clock_read(&mut self) {
        if !self.clock_read {
            self.clock_read = true;
            self.touch_surface("Clock");
        }
    }

    /// Reports the first touch of surface `name` to the embedder's [`TouchHook`]. Callers
    /// report once (the VM state that marks a surface touched rides the image, so a restored
    /// run does not report it again); the embedder's ledger keeps the first seq regardless.
    pub fn touch_surface(&mut self, name: &str) {
        if let Some(hook) = self.touch_hook {
            hook(self, name);
        }
    }

    /// The embedder's value named `name` (see [`Vm::host_values`]).
    pub fn host_value(&self, name: &str) -> Option<Value> {
        self.host_values.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }

    /// Hold `value` under `name` as a GC root that rides the image.
    pub fn set_host_value(&mut self, name: &str, value: Value) {
        match self.host_values.iter_mut().find(|(n, _)| n == name) {
            Some(e) => e.1 = value,
            None => self.host_values.push((name.to_string(), value)),
        }
    }

    /// Compile `source` as a script named `filename` and run it nested inside the current
    /// call (from a native or a module loader); returns its completion value. A syntax error
    /// is thrown as a SyntaxError naming the file and position.
    pub fn eval_nested(&mut self, source: &str, filename: &str) -> JsResult<Value> {
        self.eval_nested_mapped(source, filename, None)
    }

    /// [`Vm::eval_nested`] of a text the embedder provides as part of the engine (a builtin
    /// module's body): compiled once per process and rebuilt from the cache after that
    /// (`compiler/cache.rs`).
    pub fn eval_nested_cached(&mut self, source: &str, filename: &str) -> JsResult<Value> {
        let compiled = crate::compiler::cache::compile_cached_script(self, source, filename);
        self.run_nested_script(compiled, filename)
    }

    /// [`Vm::eval_nested`] of a text whose bytes from `lower_start` on are the lower-layer file
    /// at `filename` (a CommonJS module inside its wrapper): images name both the file's text
    /// and the code compiled from it by hash ([`Source::lower`], [`Source::code`]).
    pub fn eval_nested_lower(&mut self, source: &str, filename: &str, lower_start: usize) -> JsResult<Value> {
        let compiled = crate::compiler::compile_lower_script(self, source, filename, lower_start);
        self.run_nested_script(compiled, filename)
    }

    /// Runs a script compiled for one of the `eval_nested` forms in the global scope; a
    /// compile error becomes a SyntaxError naming its position in `filename`.
    fn run_nested_script(
        &mut self,
        compiled: Result<crate::heap::CodeId, crate::error::SyntaxErrorReport>,
        filename: &str,
    ) -> JsResult<Value> {
        let code = match compiled {
            Ok(c) => c,
            Err(e) => {
                let message = format!("{} ({}:{}:{})", e.message, filename, e.line, e.column);
                return Err(self.syntax_error(message));
            }
        };
        let global = Value::object(self.global);
        crate::interp::run_code(self, code, None, global, Value::UNDEFINED, Value::UNDEFINED)
    }

    /// Code blobs compiled since the last call, by sha256 (`heap/code_blob.rs`): store them
    /// where the restore's blob lookup finds them, before an image that names them.
    pub fn take_code_blobs(&mut self) -> Vec<([u8; 32], std::sync::Arc<[u8]>)> {
        std::mem::take(&mut self.code_blobs)
    }

    /// The code blobs an image of this state names (sorted): those of the sources that a live
    /// code block is shared from.
    pub fn code_blob_hashes(&self) -> Vec<[u8; 32]> {
        let set: std::collections::BTreeSet<[u8; 32]> = self
            .heap
            .code
            .iter()
            .filter(|(_, c)| c.shared.is_some())
            .filter_map(|(_, c)| self.sources.get(c.source_id as usize)?.code)
            .collect();
        set.into_iter().collect()
    }

    /// [`Vm::eval_nested`] of JavaScript made from another text (TypeScript).
    pub fn eval_nested_mapped(
        &mut self,
        source: &str,
        filename: &str,
        map: Option<crate::source_map::PositionMap>,
    ) -> JsResult<Value> {
        let compiled = crate::compiler::compile_mapped_script(self, source, filename, map);
        self.run_nested_script(compiled, filename)
    }

    /// Set a property by name (embedder convenience; runs setters).
    pub fn set_property(&mut self, target: Value, name: &str, value: Value) {
        if let Some(o) = target.as_object() {
            let key = self.key(name);
            let _ = crate::runtime::property::set(self, o, key, value, target);
        }
    }

    /// Encode the whole VM state (heap, queues, realm) — the image's heap payload. Only at a
    /// safe point (no frame running).
    pub fn encode_state(&self) -> Result<Vec<u8>, String> {
        self.check_safe_point()?;
        let parts = (PAYLOAD_FULL, &self.heap, elided(&self.sources), &self.single_chars, self);
        bincode::serde::encode_to_vec(parts, payload_config()).map_err(|e| e.to_string())
    }

    /// Encode the VM state with the heap relative to `baseline` (`heap/image.rs`): the
    /// baseline's unchanged objects are not written. `baseline` must be the VM every run of
    /// this embedder starts from (`Vm::new` plus the same installs), built the same way again
    /// to restore.
    pub fn encode_state_relative(&self, baseline: &Vm) -> Result<Vec<u8>, String> {
        self.check_safe_point()?;
        let delta = crate::heap::image::encode_delta(&self.heap, &baseline.heap, &self.sources)?;
        let base_sources = baseline.sources.len();
        let descends = self.sources.len() >= base_sources
            && self.sources.iter().zip(&baseline.sources).all(|(a, b)| a.name == b.name && a.text == b.text)
            && self.single_chars == baseline.single_chars;
        if !descends {
            return Err("the VM does not descend from this baseline (sources or realm differ)".into());
        }
        let parts = (PAYLOAD_DELTA, delta, elided(&self.sources[base_sources..]), self);
        bincode::serde::encode_to_vec(parts, payload_config()).map_err(|e| e.to_string())
    }

    /// Writes the canonical form of the state to `sink` (`heap/canonical.rs`): every value
    /// reachable from the roots, numbered in traversal order, without garbage, caches or
    /// counters, so two histories that reach the same logical state (a live `amber.step` and
    /// its replay) write the same bytes. `skip_host_state` names embedder entries that are
    /// bookkeeping rather than program state.
    /// Squeezes the VM's Map/Set tables first (which no program can observe), so a live
    /// iterator's position does not depend on when the collector last did.
    pub fn write_canonical(&mut self, skip_host_state: &[&str], sink: &mut dyn FnMut(&[u8])) -> Result<(), String> {
        self.check_safe_point()?;
        crate::builtins::map::squeeze_collections(&mut self.heap);
        #[derive(Serialize)]
        struct Roots<'a> {
            stack: &'a [Value],
            realm: &'a Intrinsics,
            symbols: &'a WellKnownSymbols,
            global: ObjectId,
            global_lexicals: &'a IndexMap<Atom, (Value, bool), FxBuildHasher>,
            realms: &'a [Option<ParkedRealm>],
            current_realm: RealmId,
            jobs: &'a VecDeque<Job>,
            symbol_registry: &'a IndexMap<JsStr, SymbolId, FxBuildHasher>,
            roots: &'a [Value],
            pending_rejections: &'a [Value],
            timers: &'a [Timer],
            next_timer_id: u64,
            async_waiters: &'a [crate::builtins::atomics::AsyncWaiter],
            clock_ms: f64,
            host_ops: &'a [HostOp],
            next_op_seq: u64,
            host_state: Vec<&'a (String, Vec<u8>)>,
            host_values: &'a [(String, Value)],
            modules: &'a crate::module::ModuleMap,
            vfs: &'a crate::vfs::Vfs,
        }
        let roots = Roots {
            stack: &self.stack,
            realm: &self.realm,
            symbols: &self.symbols,
            global: self.global,
            global_lexicals: &self.global_lexicals,
            realms: &self.realms,
            current_realm: self.current_realm,
            jobs: &self.jobs,
            symbol_registry: &self.symbol_registry,
            roots: &self.roots,
            pending_rejections: &self.pending_rejections,
            timers: &self.timers,
            next_timer_id: self.next_timer_id,
            async_waiters: &self.async_waiters,
            clock_ms: self.clock_ms,
            host_ops: &self.host_ops,
            next_op_seq: self.next_op_seq,
            host_state: self
                .host_state
                .entries()
                .iter()
                .filter(|(k, _)| !skip_host_state.contains(&k.as_str()))
                .collect(),
            host_values: &self.host_values,
            modules: &self.modules,
            vfs: &self.vfs,
        };
        crate::heap::canonical::write(&self.heap, &self.sources, &roots, sink)
    }

    /// This state rebuilt in canonical form relative to `baseline` (`heap/canonical.rs`):
    /// baseline entities keep their handles, everything else reachable is renumbered in
    /// traversal order, and garbage, Map/Set tombstones, unreached source texts, inline caches
    /// and counters are gone. The same logical state gives the same copy whatever its history,
    /// so its image bytes are canonical. The copy runs on exactly as this VM would (host
    /// bindings are carried over). Only at a safe point. Squeezes this VM's Map/Set tables,
    /// which no program can observe.
    pub fn canonical_copy(&mut self, baseline: &Vm) -> Result<Vm, String> {
        self.canonical_copy_against(&baseline.heap, &baseline.sources)
    }

    fn canonical_copy_against(&mut self, base_heap: &Heap, base_sources: &[Source]) -> Result<Vm, String> {
        self.check_safe_point()?;
        crate::builtins::map::squeeze_collections(&mut self.heap);
        let roots = (&self.single_chars, &*self);
        // Shared memory stays shared with the other agents: the copy gets the same blocks.
        let (compacted, decoded) = crate::heap::shared_block::carrying(|| {
            let compacted = crate::heap::canonical::compact(&self.heap, &roots, base_heap, base_sources.len() as u32)?;
            let decoded: Result<((Vec<Value>, Vm), usize), String> =
                bincode::serde::decode_from_slice(&compacted.roots, bincode::config::standard())
                    .map_err(|e| format!("canonical walk: {e}"));
            Ok::<_, String>((compacted, decoded?))
        })?;
        let ((single_chars, mut vm), _) = decoded;
        vm.heap = compacted.heap;
        vm.single_chars = single_chars;
        vm.sources = base_sources.to_vec();
        for &id in &compacted.sources {
            let source = self.sources.get(id as usize).ok_or("canonical walk: a source text is missing")?;
            vm.sources.push(source.clone());
        }
        self.carry_host_bindings(&mut vm);
        // Caches start as the baseline's (its own code) or cold; counters start as after a
        // collection. Fuel is program state only under an instruction budget.
        let codes: Vec<u32> = vm.heap.code.iter().map(|(i, _)| i).collect();
        for i in codes {
            let base = base_heap.code.get(i);
            if let Some(code) = vm.heap.code.get_mut(i) {
                code.ics = match base {
                    Some(b) if b.ics.len() == code.ics.len() => b.ics.clone(),
                    _ => vec![crate::bytecode::InlineCache::default(); code.ics.len()],
                };
            }
        }
        let collections: Vec<u32> = vm
            .heap
            .objects
            .iter()
            .filter(|(_, o)| matches!(o.class, Class::Map(_) | Class::Set(_) | Class::WeakMap(_) | Class::WeakSet(_)))
            .map(|(i, _)| i)
            .collect();
        for i in collections {
            crate::builtins::map::rebuild_index(&mut vm.heap, ObjectId(i));
        }
        vm.stats = VmStats::default();
        vm.heap.stats = crate::heap::HeapStats::default();
        vm.heap.allocs_since_gc = 0;
        vm.heap.bytes_since_gc = 0;
        vm.heap.bytes_estimate = crate::gc::estimate_bytes(&vm);
        if vm.options.max_instructions.is_none() {
            vm.fuel = u64::MAX;
        }
        Ok(vm)
    }

    /// Gives `to` this VM's host bindings, which images do not hold.
    fn carry_host_bindings(&self, to: &mut Vm) {
        to.host_functions = self.host_functions.clone();
        to.print_hook = self.print_hook;
        to.gc_observer = self.gc_observer;
        to.entropy_hook = self.entropy_hook;
        to.touch_hook = self.touch_hook;
        to.module_loader = self.module_loader;
        to.agent = self.agent.clone();
        to.code_blobs = self.code_blobs.clone();
    }

    fn check_safe_point(&self) -> Result<(), String> {
        if !self.frames.is_empty() {
            return Err("the VM is not at a safe point (frames are running)".into());
        }
        Ok(())
    }

    /// Decode a VM state produced by [`Vm::encode_state`]. Host bindings must be
    /// re-registered by the embedder.
    pub fn decode_state(bytes: &[u8]) -> Result<Vm, String> {
        let vm = Self::decode_with(bytes, None, None)?;
        crate::builtins::atomics::rejoin_waiters(&vm);
        Ok(vm)
    }

    /// Decode a state from [`Vm::encode_state_relative`] (or [`Vm::encode_state`]), given the
    /// same baseline the encoder used.
    pub fn decode_state_relative(bytes: &[u8], baseline: Vm) -> Result<Vm, String> {
        Self::decode_state_with_blobs(bytes, baseline, None)
    }

    /// [`Vm::decode_state_relative`] of an image whose sources name lower-layer files by hash
    /// (see [`Source::lower`]): `blobs` gives their bytes.
    pub fn decode_state_with_blobs(bytes: &[u8], baseline: Vm, blobs: Option<BlobLookup<'_>>) -> Result<Vm, String> {
        let vm = Self::decode_with(bytes, Some(baseline), blobs)?;
        crate::builtins::atomics::rejoin_waiters(&vm);
        Ok(vm)
    }

    fn decode_with(bytes: &[u8], baseline: Option<Vm>, mut blobs: Option<BlobLookup<'_>>) -> Result<Vm, String> {
        let corrupt = |e: bincode::error::DecodeError| format!("corrupt heap payload: {e}");
        let vm = match bytes.first().copied() {
            Some(PAYLOAD_FULL) => {
                type Parts = (u8, Heap, Vec<Source>, Vec<Value>, Vm);
                let ((_, heap, sources, single_chars, mut vm), used): (Parts, usize) =
                    bincode::serde::decode_from_slice(bytes, payload_config()).map_err(corrupt)?;
                check_used(bytes, used)?;
                vm.heap = heap;
                vm.sources = sources;
                restore_spans(&mut vm.sources, blobs)?;
                vm.single_chars = single_chars;
                vm
            }
            Some(PAYLOAD_DELTA) => {
                let Some(baseline) = baseline else {
                    return Err("the heap payload is baseline-relative: restore it against its baseline".into());
                };
                let ((_, delta, sources, mut vm), used): ((u8, Vec<u8>, Vec<Source>, Vm), usize) =
                    bincode::serde::decode_from_slice(bytes, payload_config()).map_err(corrupt)?;
                check_used(bytes, used)?;
                let (heap, shared) = crate::heap::image::decode_delta(
                    &delta,
                    baseline.heap,
                    blobs.as_deref_mut().map(|f| f as &mut dyn FnMut(&[u8; 32]) -> Option<Vec<u8>>),
                )?;
                vm.heap = heap;
                let mut sources = sources;
                restore_spans(&mut sources, blobs)?;
                vm.sources = baseline.sources;
                vm.sources.extend(sources);
                vm.single_chars = baseline.single_chars;
                check_shared_code(&vm, &shared)?;
                vm
            }
            Some(tag) => return Err(format!("corrupt heap payload: unknown encoding {tag}")),
            None => return Err("corrupt heap payload: empty".into()),
        };
        crate::verify::verify(&vm)?;
        Ok(vm)
    }

    /// Image the whole VM and continue in the restored copy (test262 `--snapshot-roundtrip`).
    /// The image is of the canonical copy against an empty baseline, so every entity is
    /// renumbered on the way: a handle held anywhere the image does not reach would show.
    pub fn snapshot_roundtrip(&mut self) -> Result<(), String> {
        let canonical = self.canonical_copy_against(&Heap::default(), &[])?;
        // In-process: shared memory (and the waiters in its lists) stays with the other agents.
        let mut restored = crate::heap::shared_block::carrying(|| {
            let bytes = canonical.encode_state()?;
            Vm::decode_with(&bytes, None, None)
        })?;
        self.carry_host_bindings(&mut restored);
        *self = restored;
        Ok(())
    }
}
