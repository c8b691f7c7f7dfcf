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
use crate::heap::object::{Class, Object};
use crate::heap::shape::PropFlags;
use crate::heap::Heap;
use crate::interp::frame::Frame;
use crate::realm::{Intrinsics, WellKnownSymbols};
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
    /// Collect after this many allocations.
    pub gc_interval: u64,
}

impl Default for VmOptions {
    fn default() -> Self {
        VmOptions { max_instructions: None, max_heap_bytes: None, max_stack_depth: 200_000, gc_interval: 200_000 }
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

/// A source file the VM has compiled (kept for `Function.prototype.toString` and stacks).
#[derive(Clone, Serialize, Deserialize)]
pub struct Source {
    pub name: String,
    pub text: String,
}

/// A host function: registered by name, never serialized (re-registered after restore).
pub type HostFn = crate::builtins::NativeFn;

/// Output stream of the print hook.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// The engine has no I/O of its own: console output goes through this hook.
pub type PrintHook = fn(&mut Vm, Stream, &str);

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

#[derive(Serialize, Deserialize)]
pub struct Vm {
    pub heap: Heap,
    /// Registers and operand stacks of every frame, contiguous.
    pub stack: Vec<Value>,
    pub frames: Vec<Frame>,
    pub realm: Intrinsics,
    pub symbols: WellKnownSymbols,
    pub global: ObjectId,
    /// Top-level `let`/`const`/`class` bindings: value and whether mutable.
    pub global_lexicals: IndexMap<Atom, (Value, bool), FxBuildHasher>,
    pub jobs: VecDeque<Job>,
    pub symbol_registry: IndexMap<JsStr, SymbolId, FxBuildHasher>,
    pub options: VmOptions,
    /// Remaining fuel.
    pub fuel: u64,
    /// Values natives hold across calls into JS (scoped: truncated when the native returns).
    pub roots: Vec<Value>,
    pub sources: Vec<Source>,
    pub native_ctx: NativeCtx,
    pub stats: VmStats,
    /// Promises rejected with no handler yet (reported by the embedder when idle).
    pub pending_rejections: Vec<Value>,
    /// One-code-unit strings for Latin-1, shared (indexing a string allocates nothing).
    pub single_chars: Vec<Value>,
    /// Set by `yield*` delegation: the next yielded value is already an iterator result.
    pub yield_raw: bool,
    /// Native (host) functions registered by the embedder: name → function.
    #[serde(skip)]
    pub host_functions: Vec<(String, HostFn)>,
    #[serde(skip)]
    pub print_hook: Option<PrintHook>,
    /// Opaque embedder state riding the image (the node layer's VFS, the durable layer's
    /// operation table), as serialized bytes owned by the embedder.
    pub host_state: Vec<(String, Vec<u8>)>,
}

impl Vm {
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
            jobs: VecDeque::new(),
            symbol_registry: IndexMap::default(),
            options,
            fuel,
            roots: Vec::new(),
            sources: Vec::new(),
            native_ctx: NativeCtx::default(),
            stats: VmStats::default(),
            pending_rejections: Vec::new(),
            single_chars: Vec::new(),
            yield_raw: false,
            host_functions: Vec::new(),
            print_hook: None,
            host_state: Vec::new(),
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
                obj.add_named(&mut heap.shapes, key, value, flags);
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
    pub fn charge(&mut self, units: u64) -> JsResult<()> {
        if self.fuel < units {
            self.fuel = 0;
            return Err(Throw::Limit(Limit::Fuel));
        }
        self.fuel -= units;
        Ok(())
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

    /// Write program output through the embedder's hook (buffered to stdout when unset).
    pub fn print(&mut self, stream: Stream, text: &str) {
        match self.print_hook {
            Some(hook) => hook(self, stream, text),
            None => match stream {
                Stream::Stdout => println!("{text}"),
                Stream::Stderr => eprintln!("{text}"),
            },
        }
    }
}
