//! Bytecode: the instruction set and the compiled code block.
//!
//! The instruction set is declared once, in the opcode table (`bytecode/table.rs`), which
//! generates [`Op`] and everything that lists instructions: stack effects, control transfer,
//! operands by kind (jump patching and the image verifier's checks), names for
//! `--dump-bytecode`. It is a stack machine with registers: locals live in frame registers,
//! temporaries on the operand stack above them (QuickJS's model).

use serde::{Deserialize, Serialize};

mod table;

pub use table::{Control, Op, Operand, OperandKind, Operands, MAX_OPERANDS, MAX_SLOTS};

use crate::atoms::Atom;
use crate::heap::{CodeId, Heap, RealmId};
use crate::string::JsStr;
use crate::value::Value;

/// What kind of function a code block is.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum FunctionKind {
    Script,
    Module,
    Eval,
    Normal,
    Arrow,
    Method,
    ClassConstructor,
    DerivedConstructor,
    Generator,
    Async,
    AsyncArrow,
    AsyncGenerator,
    /// Synthetic: class field initialisers and static blocks.
    FieldInit,
}

impl FunctionKind {
    pub fn is_generator(self) -> bool {
        matches!(self, FunctionKind::Generator | FunctionKind::AsyncGenerator)
    }
    pub fn is_async(self) -> bool {
        matches!(self, FunctionKind::Async | FunctionKind::AsyncArrow | FunctionKind::AsyncGenerator)
    }
    pub fn is_arrow(self) -> bool {
        matches!(self, FunctionKind::Arrow | FunctionKind::AsyncArrow)
    }
    /// Can be called with `new`?
    pub fn is_constructor(self) -> bool {
        matches!(self, FunctionKind::Normal | FunctionKind::ClassConstructor | FunctionKind::DerivedConstructor)
    }
}

/// An exception handler: instructions in `start..end` that throw continue at `target` with
/// the operand stack cut to `depth` values above the registers and the exception pushed.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Handler {
    pub start: u32,
    pub end: u32,
    pub target: u32,
    pub depth: u32,
    pub env_depth: u32,
}

/// An inline-cache entry: last receiver shape seen at a property site and where the
/// property was found. A hit re-checks everything the answer depends on against the current
/// heap (shapes never change their keys, so a shape id pins an object's own layout), so a
/// stale or renumbered entry can only miss, never answer wrongly.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, Default)]
pub struct InlineCache {
    /// Receiver shape.
    pub shape: u32,
    /// Slot of the data property in the object that holds it.
    pub slot: u32,
    /// [`IC_EMPTY`], [`IC_OWN`], [`IC_PROTO`], [`IC_PROTO2`], [`IC_ADD1`] or [`IC_ADD2`].
    pub state: u8,
    /// IC_PROTO2: the receiver's prototype (which lacks the key) and its shape.
    pub mid: u32,
    pub mid_shape: u32,
    /// IC_PROTO / IC_PROTO2: the prototype that holds the property, and its shape.
    pub holder: u32,
    pub holder_shape: u32,
    /// IC_ADD1 / IC_ADD2: the receiver's shape after the property is added at `slot`.
    pub to_shape: u32,
}

/// Inline-cache states.
pub const IC_EMPTY: u8 = 0;
/// Own data property of the receiver.
pub const IC_OWN: u8 = 1;
/// Data property of the receiver's prototype.
pub const IC_PROTO: u8 = 2;
/// Data property of the prototype's prototype.
pub const IC_PROTO2: u8 = 3;
/// Assignment that adds the property: prototype chain `[holder]`, none of which has the key.
pub const IC_ADD1: u8 = 4;
/// Assignment that adds the property: prototype chain `[mid, holder]`, none with the key.
pub const IC_ADD2: u8 = 5;

/// A template literal's strings.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TemplateSite {
    pub cooked: Vec<Option<JsStr>>,
    pub raw: Vec<JsStr>,
}

/// Declarations a script or eval makes in the global scope.
#[derive(Clone, Debug, Serialize, Deserialize, Default)]
pub struct GlobalDecls {
    pub vars: Vec<Atom>,
    /// Functions: name and index into `functions`.
    pub functions: Vec<(Atom, u32)>,
    pub lets: Vec<Atom>,
    pub consts: Vec<Atom>,
    /// Eval code: var and function bindings are created configurable (deletable).
    pub configurable: bool,
}

/// The scope a direct eval call site hands to its eval code (EvalDeclarationInstantiation
/// needs the caller's bindings by name; the compiler resolved them to env slots).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EvalSite {
    /// pc of the `CallEval`.
    pub pc: u32,
    /// Env level current at the call.
    pub level: u32,
    /// Env level of the caller's variable environment when sloppy eval code's `var`s join it
    /// (none: they stay in the eval's own environment).
    pub var_level: Option<u32>,
    /// Bindings in env slots, innermost first; private names are spelled `#name`.
    pub names: Vec<EvalName>,
    /// What the eval code may contain here (`compiler::eval::NEW_TARGET` and its siblings).
    pub context: u8,
}

/// Where an `Await` suspends its frame, with the bindings of the function's own environments
/// in scope there, innermost level first: a suspended frame's registers are named by
/// `register_names`, but a variable a closure captures lives in an environment slot, which
/// only this names (`$frames` in `amber eval`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SuspendSite {
    /// pc of the `Await`.
    pub pc: u32,
    /// Env level current at the `Await` (the frame's innermost environment).
    pub level: u32,
    /// The bindings, by the environment level and slot holding each.
    pub names: Vec<EnvBinding>,
}

/// What a TypeError thrown at one instruction says about its operand, rendered by the
/// compiler the way V8's CallPrinter renders the source (`o.k` for `o["k"]`, `fn(...)` for a
/// call's result, `(intermediate value)` for what it does not print). Plain data looked up
/// by pc only when the error is built, so the instruction pays nothing when it succeeds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ErrorSite {
    /// pc of the instruction (the op [`ErrorHint::fits`] names).
    pub pc: u32,
    pub hint: ErrorHint,
    /// The rendered operand: the callee, the iterable, the destructured value.
    pub text: String,
    /// `Destructure` and `NestedRead`: the pattern's first property named by a static key.
    pub property: Option<String>,
}

/// Which message an [`ErrorSite`] builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorHint {
    /// `Call`/`New` family: `{text} is not a function` / `is not a constructor`.
    Callee,
    /// `GetIterator`, `GetAsyncIterator` or an array literal's `ArraySpread`:
    /// `{text} is not iterable` (`async iterable`).
    Iterable,
    /// As `Iterable` when the iterable is a call's result: `{text} is not a function or its
    /// return value is not iterable`.
    CallResult,
    /// A spread argument's `ArraySpread`: V8's `Spread syntax requires ...` message.
    SpreadArgument,
    /// `RequireObjectCoercible` of a pattern: `Cannot destructure property '{property}' of
    /// '{text}' as it is null.` (an empty text: the value's own rendering, as for a parameter).
    Destructure,
    /// `RequireObjectCoercible` of a pattern nested in another, which V8 reads like a
    /// property access: `Cannot read properties of null (reading '{property}')`.
    NestedRead,
}

impl ErrorHint {
    /// Whether a site with this hint may sit at `op` (the image verifier's check).
    pub fn fits(self, op: Op) -> bool {
        match self {
            ErrorHint::Callee => matches!(
                op,
                Op::Call(_) | Op::CallSpread | Op::CallEval(_) | Op::CallEvalSpread | Op::New(_) | Op::NewSpread
            ),
            ErrorHint::Iterable | ErrorHint::CallResult => {
                matches!(op, Op::GetIterator | Op::GetAsyncIterator | Op::ArraySpread)
            }
            ErrorHint::SpreadArgument => op == Op::ArraySpread,
            ErrorHint::Destructure | ErrorHint::NestedRead => op == Op::RequireObjectCoercible,
        }
    }
}

/// A binding held in an environment slot.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct EnvBinding {
    pub name: Atom,
    pub level: u32,
    pub slot: u32,
}

/// A binding visible to direct eval code.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct EvalName {
    pub name: Atom,
    pub level: u32,
    pub slot: u32,
    pub kind: EvalBindingKind,
}

/// What eval code may do with a caller's binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EvalBindingKind {
    /// `var`, parameter, function: an eval `var` of the name at the var level reuses it.
    Var,
    /// `let`, `class`, block-level function: an eval `var` of the name is a SyntaxError.
    Lexical,
    Const,
    /// A catch clause's simple parameter (Annex B.3.4: an eval `var` may share its name).
    CatchParameter,
    /// A named function expression's own name: assignments are ignored (TypeError if strict).
    FunctionName,
}

/// A compiled function, script, module or eval body.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CodeBlock {
    pub name: Atom,
    /// V8's inferred name for a function that has none of its own, from the member it is
    /// assigned to (`exports.f = function () {}` is `exports.f`, `Foo.prototype.m = …` is
    /// `Foo.m`): what stack frames call it (heap.18). Empty when there is none; never `name`.
    pub inferred_name: String,
    /// The realm whose code this is: closures made from it belong to that realm, and a frame
    /// running it runs there.
    pub realm: RealmId,
    pub kind: FunctionKind,
    pub strict: bool,
    pub ops: Vec<Op>,
    pub constants: Vec<Value>,
    pub functions: Vec<CodeId>,
    pub templates: Vec<TemplateSite>,
    /// Cached template objects per site (created on first evaluation).
    pub template_cache: Vec<Value>,
    pub regexps: Vec<(JsStr, JsStr)>,
    pub handlers: Vec<Handler>,
    #[serde(serialize_with = "crate::heap::canonical::cache")]
    pub ics: Vec<InlineCache>,
    /// Declared parameter count (the function's `length` is `length`).
    pub param_count: u32,
    pub length: u32,
    /// Registers: parameters first, then locals.
    pub register_count: u32,
    /// Most operand-stack values above the registers the code holds at once: computed by
    /// the compiler from the same stack-depth pass the image verifier runs, which refuses a
    /// block whose code could exceed it. Frames reserve registers plus this much.
    pub max_stack: u32,
    /// Register names, for TDZ errors and debugging.
    pub register_names: Vec<Atom>,
    /// Slots of the function-level environment created on entry (0: none).
    pub env_slots: u32,
    pub global_decls: GlobalDecls,
    /// Source file index and the function's source span (for `toString` and stack traces).
    #[serde(serialize_with = "crate::heap::canonical::source")]
    pub source_id: u32,
    pub span: (u32, u32),
    /// (pc, line, column) at statement and call boundaries, ascending by pc.
    pub lines: Vec<(u32, u32, u32)>,
    /// Uses `this` captured from an enclosing arrow-visible scope: index of the env slot.
    pub has_simple_params: bool,
    /// Whether the function needs a mapped arguments object.
    pub uses_arguments: bool,
    /// Classes: is a class constructor (calling it without `new` throws).
    pub is_class_constructor: bool,
    /// What each direct eval call site can see, by the pc of its `CallEval`.
    pub eval_sites: Vec<EvalSite>,
    /// The captured bindings in scope at each `Await` (where any are), by its pc.
    pub suspend_sites: Vec<SuspendSite>,
    /// What a TypeError at a call, `new`, iteration or destructuring names, ascending by pc.
    pub error_sites: Vec<ErrorSite>,
    /// Absolute env level of the environment the function's closure captures.
    pub base_env_level: u32,
    /// First pc past parameter initialisation (0: none): a direct eval before it runs in a
    /// parameter initialiser, where declaring `var arguments` is a SyntaxError.
    pub params_end: u32,
    /// The block's place in the code blob of its source (`heap/code_blob.rs`), when that
    /// source is a lower-layer file: images name the blob instead of carrying the block.
    pub shared: Option<u32>,
}

impl CodeBlock {
    /// The error site of the instruction at `pc`, if the compiler recorded one.
    pub fn error_site(&self, pc: u32) -> Option<&ErrorSite> {
        let i = self.error_sites.binary_search_by_key(&pc, |s| s.pc).ok()?;
        self.error_sites.get(i)
    }

    /// Source position of the instruction at `pc`.
    pub fn position(&self, pc: u32) -> Option<(u32, u32)> {
        let i = self.lines.partition_point(|&(p, _, _)| p <= pc);
        if i == 0 {
            self.lines.first().map(|&(_, l, c)| (l, c))
        } else {
            self.lines.get(i - 1).map(|&(_, l, c)| (l, c))
        }
    }
}

/// `--dump-bytecode`: every function reachable from `root`, depth first.
pub fn dump(heap: &Heap, root: CodeId) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut todo = vec![root];
    let mut seen = Vec::new();
    while let Some(id) = todo.pop() {
        if seen.contains(&id) {
            continue;
        }
        seen.push(id);
        let code = heap.code(id);
        let name = heap.atoms.get(code.name).to_rust_string();
        let name = if name.is_empty() { "<anonymous>".to_string() } else { name };
        let (line, _) = code.position(0).unwrap_or((0, 0));
        let _ = writeln!(
            out,
            "== {name} [{:?}{}] line {line}, params {}, registers {}, max stack {}, env slots {}",
            code.kind,
            if code.strict { ", strict" } else { "" },
            code.param_count,
            code.register_count,
            code.max_stack,
            code.env_slots
        );
        for (pc, op) in code.ops.iter().enumerate() {
            // The table's name and named operands; a name operand is shown as its text.
            let _ = write!(out, "  {pc:5}  {}", op.name());
            for (field, kind, value) in op.operands().iter() {
                match kind {
                    OperandKind::Atom => {
                        let text = heap.atoms.get(Atom(value)).to_rust_string();
                        let _ = write!(out, " {field}={text:?}");
                    }
                    _ => {
                        let _ = write!(out, " {field}={value}");
                    }
                }
            }
            out.push('\n');
        }
        for h in &code.handlers {
            let _ = writeln!(out, "  handler [{}, {}) -> {} depth {}", h.start, h.end, h.target, h.depth);
        }
        out.push('\n');
        todo.extend(code.functions.iter().rev());
    }
    out
}
