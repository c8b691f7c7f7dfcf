//! Bytecode: the instruction set and the compiled code block.
//!
//! The [`Op`] enum *is* the opcode table: each variant names an instruction and its operands,
//! serde encodes it for images, `Debug` prints it for `--dump-bytecode`, and
//! [`Op::stack_effect`] gives what the compiler's depth tracking and the image verifier need.
//! It is a stack machine with registers: locals live in frame registers, temporaries on the
//! operand stack above them (QuickJS's model).
//!
//! Stack notation in the docs: `a b → c` pops `b` then `a`, pushes `c`.

use serde::{Deserialize, Serialize};

use crate::atoms::Atom;
use crate::heap::CodeId;
use crate::string::JsStr;
use crate::value::Value;

/// One instruction. Jump targets are absolute instruction indices.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub enum Op {
    // ---- constants
    Undefined,
    Null,
    True,
    False,
    /// Push the internal empty marker (array holes, TDZ initial values).
    Empty,
    Int(i32),
    /// Push `constants[i]`.
    Const(u32),

    // ---- stack shuffles
    Pop,
    Dup,
    /// `a b → a b a b`
    Dup2,
    Swap,
    /// `a b → a b a`
    Over,
    /// `a b c → c a b`
    Rot3,
    /// `a b c d → d a b c`
    Rot4,

    // ---- registers and environments
    GetLocal(u32),
    /// Pops into a register.
    SetLocal(u32),
    /// Like GetLocal but throws ReferenceError on an uninitialised (TDZ) binding.
    GetLocalChecked(u32),
    /// Pops into an initialised register; ReferenceError if still in its TDZ.
    SetLocalChecked(u32),
    GetEnv {
        depth: u16,
        slot: u32,
    },
    SetEnv {
        depth: u16,
        slot: u32,
    },
    GetEnvChecked {
        depth: u16,
        slot: u32,
    },
    SetEnvChecked {
        depth: u16,
        slot: u32,
    },
    /// Push a new environment with `n` slots (initialised to the empty marker).
    PushEnv(u32),
    PopEnv,
    /// Replace the current environment with a copy (per-iteration `let` bindings).
    CloneEnv,
    /// `obj →`: push an object environment for a `with` statement.
    PushWithEnv,

    // ---- globals and dynamic names
    /// Global lookup: lexical declarations, then the global object; ReferenceError if absent.
    GetGlobal(Atom),
    /// As GetGlobal but absent reads as undefined (`typeof x`).
    GetGlobalOrUndefined(Atom),
    /// Pops into a global: ReferenceError when absent in strict code, creates it in sloppy.
    SetGlobal {
        name: Atom,
        strict: bool,
    },
    /// Pops into a global lexical binding being initialised (`let`/`const`/`class` at top level).
    InitGlobalLexical(Atom),
    /// Script prologue: GlobalDeclarationInstantiation from the code block's declarations.
    DeclareGlobals,
    /// Names looked up through `with` objects, then the static location (see compiler).
    GetName(Atom),
    SetName {
        name: Atom,
        strict: bool,
    },
    /// As GetName, but an unresolvable name reads as undefined (the operand of `typeof`).
    TypeofName(Atom),
    DeleteName(Atom),
    /// `→ callee this`: a call's callee by name; `this` is the `with` object that holds it.
    GetNameThis(Atom),
    /// A binding `depth` environments up, unless one of the object environments on the way
    /// (a `with` object or a direct eval's var bag) has the name first.
    GetNameEnv {
        name: Atom,
        depth: u16,
        slot: u32,
        checked: bool,
    },
    /// As GetNameEnv, pushing `callee this`.
    GetNameEnvThis {
        name: Atom,
        depth: u16,
        slot: u32,
        checked: bool,
    },
    /// Pops into the binding GetNameEnv would read.
    SetNameEnv {
        name: Atom,
        depth: u16,
        slot: u32,
        checked: bool,
    },
    /// `delete name` of a binding `depth` environments up: deletes from an object
    /// environment on the way that has the name, else false (bindings are not deletable).
    DeleteNameEnv {
        name: Atom,
        depth: u16,
    },
    /// `→ base`: resolve a name once for an assignment (`depth` as for GetNameEnv;
    /// `u16::MAX`: the whole chain, then the global scope). The base is the object
    /// environment's object that has it, or undefined for the static location.
    ResolveName {
        name: Atom,
        depth: u16,
    },
    /// `base → value`: GetValue of a resolved name.
    GetNameRef {
        name: Atom,
        depth: u16,
        slot: u32,
        checked: bool,
    },
    /// `base value →`: PutValue of a resolved name.
    PutNameRef {
        name: Atom,
        depth: u16,
        slot: u32,
        checked: bool,
    },
    /// Sloppy direct eval in a function: CreateMutableBinding(name, deletable) in the var
    /// environment `depth` up (its var bag), unless the bag has it already.
    DeclareEvalVar {
        name: Atom,
        depth: u16,
    },
    /// Pops into the var bag binding `name` of the environment `depth` up (a function
    /// declaration of eval code).
    InitEvalVar {
        name: Atom,
        depth: u16,
    },

    // ---- properties
    /// `obj → value`
    GetProp {
        name: Atom,
        ic: u32,
    },
    /// `obj → obj value` (method calls keep the receiver)
    GetPropKeep {
        name: Atom,
        ic: u32,
    },
    /// `obj value → value`
    SetProp {
        name: Atom,
        ic: u32,
        strict: bool,
    },
    /// `obj key → value`
    GetElem,
    /// `obj key → obj value`
    GetElemKeep,
    /// `obj key value → value`
    SetElem {
        strict: bool,
    },
    /// `obj → bool`
    DeleteProp {
        name: Atom,
        strict: bool,
    },
    /// `obj key → bool`
    DeleteElem {
        strict: bool,
    },
    /// `key obj → bool`
    In,
    /// `value ctor → bool`
    InstanceOf,
    /// `obj value → obj`: define an own enumerable data property (object literals).
    DefineField(Atom),
    /// `obj key value → obj`
    DefineElem,
    /// `obj fn → obj`: define a method (sets its home object); flags: bit0 enumerable,
    /// bit1 getter, bit2 setter.
    DefineMethod {
        name: Atom,
        flags: u8,
    },
    /// `obj key fn → obj`
    DefineMethodElem {
        flags: u8,
    },
    /// `obj src → obj`: object spread.
    CopyDataProperties,
    /// `src k1..kn → src rest`: rest pattern excluding the n keys above `src`.
    CopyRest(u32),
    /// `obj proto → obj`: `__proto__: v` in a literal.
    SetProtoLiteral,
    /// `home fn → home fn`: set a closure's home object (computed-key methods).
    SetHomeObject,
    /// Give an anonymous function its name: `fn key → fn key`.
    SetFunctionName {
        prefix: u8,
    },
    NewObject,
    /// `→ array` with a capacity hint.
    NewArray(u32),
    /// `array value → array`
    ArrayPush,
    /// `array → array` (length += 1, a hole)
    ArrayHole,
    /// `array iterable → array`
    ArraySpread,
    /// `obj → obj` (TypeError on null/undefined; for destructuring)
    RequireObjectCoercible,
    ToPropertyKey,
    /// `base key → base key`: ToPropertyKey of a member reference's key, after checking the
    /// base: a null or undefined base throws first (GetValue's ToObject precedes the key's
    /// conversion), as compound assignment and update expressions need.
    ToPropertyKeyOfBase,
    /// `value → string` for template substitutions.
    ToStringForConcat,
    /// `value → object`
    ToObject,

    // ---- private names (`#x`): the private key symbol is on the stack
    /// `obj key → value`
    GetPrivate,
    /// `obj key value → value`
    SetPrivate,
    /// `obj key value → obj`: add a private field (TypeError if present).
    DefinePrivate,
    /// As `DefinePrivate`, for a private method: the name cannot be assigned (PrivateSet
    /// throws a TypeError on a method).
    DefinePrivateMethod,
    /// `key obj → bool`
    HasPrivate,
    /// `→ symbol`: a fresh private name with the given description.
    NewPrivateName(Atom),

    // ---- functions and calls
    /// Create a closure for `functions[i]` in the current environment.
    Closure(u32),
    /// `callee this a1..an → result`
    Call(u32),
    /// `callee this args-array → result`
    CallSpread,
    /// Direct eval: `callee this a1..an → result`
    CallEval(u32),
    /// `eval(...args)`: a direct eval whose arguments are an array (as `CallSpread`).
    CallEvalSpread,
    /// `ctor a1..an → object`
    New(u32),
    /// `ctor args-array → object`
    NewSpread,
    /// `a1..an → this` in a derived constructor.
    SuperCall(u32),
    /// `args-array → this`
    SuperCallSpread,
    /// `a1..an → this` where arrows may share the constructor's `this` (see
    /// `ThisFromEnv`): the function environment's slot `slot` (`depth` environments up) holds
    /// `this`, slot `slot + 1` the constructor.
    SuperCallEnv {
        argc: u16,
        depth: u16,
        slot: u32,
    },
    /// `args-array → this`, as `SuperCallEnv`.
    SuperCallSpreadEnv {
        depth: u16,
        slot: u32,
    },
    /// `→ this` in an arrow inside a derived constructor: the constructor environment's
    /// `this` slot (ReferenceError before super()).
    ThisFromEnv {
        depth: u16,
        slot: u32,
    },
    /// `→ super's [[Prototype]]-based base` for `super.x`: pushes the home object's prototype.
    SuperBase,
    /// `base key → value` with this as receiver.
    GetSuper,
    /// `base key value → value`
    SetSuper {
        strict: bool,
    },
    Return,
    This,
    /// `this` in a derived constructor: ReferenceError before super().
    ThisChecked,
    NewTarget,
    /// `→ f`: the running function (a named function expression's own name binding).
    Callee,
    ImportMeta,
    /// Read an imported binding through import cell `i` (`vm.modules.cells`); ReferenceError
    /// while the exporting binding is uninitialised.
    GetImport(u32),
    /// `specifier options → promise`
    DynamicImport,
    /// `import.defer(…)` (1) / `import.source(…)` (2): `specifier options → promise`
    DynamicImportPhase(u8),
    /// Push the arguments object: 0 unmapped, 1 mapped.
    CreateArguments(u8),
    /// Push an array of the arguments from index `n` on.
    CreateRest(u32),

    // ---- operators
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Exp,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Sar,
    Shr,
    Neg,
    /// Unary `+`: ToNumber.
    ToNumber,
    ToNumeric,
    Not,
    BitNot,
    Inc,
    Dec,
    TypeOf,
    Eq,
    Ne,
    StrictEq,
    StrictNe,
    Lt,
    Le,
    Gt,
    Ge,

    // ---- control flow
    Jump(u32),
    /// Pops; jumps when falsy.
    JumpIfFalse(u32),
    /// Pops; jumps when truthy.
    JumpIfTrue(u32),
    /// Keeps the value and jumps when falsy; pops it otherwise (`&&`).
    JumpIfFalseKeep(u32),
    /// Keeps the value and jumps when truthy; pops it otherwise (`||`).
    JumpIfTrueKeep(u32),
    /// Keeps the value and jumps when it is not nullish; pops it otherwise (`??`).
    JumpIfNotNullishKeep(u32),
    /// When the value is nullish: replace it by undefined and jump (optional chains).
    JumpIfNullishToUndefined(u32),
    /// Pops; jumps when not undefined (default values).
    JumpIfNotUndefined(u32),
    Throw,
    /// Throw a new error: kind (0 TypeError, 1 ReferenceError, 2 SyntaxError, 3 RangeError)
    /// with message `constants[msg]`.
    ThrowError {
        kind: u8,
        msg: u32,
    },

    // ---- iteration
    /// `iterable → iterator next`
    GetIterator,
    /// `iterable → iterator next` (async, with sync fallback)
    GetAsyncIterator,
    /// `iterator next → iterator next value`, or jump to target (nothing pushed) when done.
    IteratorStep(u32),
    /// `iterator next → iterator next result` (raw `next()` call, result unchecked)
    IteratorNextRaw,
    /// `iterator next → `: call `return` if present (normal completion).
    IteratorClose,
    /// `iterator next exc → exc`: close for an abrupt (throw) completion, ignoring errors from return.
    IteratorCloseQuiet,
    /// `iterator next → result called`: for-await's AsyncIteratorClose for a normal completion:
    /// call `return` if present (`called`); its result is then awaited and checked.
    AsyncIteratorClose,
    /// `iterator next exc → exc result called`: AsyncIteratorClose for a throw completion: call
    /// `return` if present, ignoring its errors; `called` says whether a result is to be awaited.
    AsyncIteratorCloseQuiet,
    /// `result → result`: a TypeError unless the (awaited) result of `return` is an object.
    CheckIteratorResult,
    /// `obj → for-in iterator`
    ForInStart,
    /// `iter → iter key` or jump when done.
    ForInNext(u32),

    // ---- generators and async
    /// Suspend a freshly-started generator (after parameter setup), returning the generator
    /// object to the caller.
    GeneratorStart,
    /// `value → received mode`: suspend; resumes with the sent value and a mode
    /// (0 next, 2 return; throw resumes by throwing).
    Yield,
    /// `value mode → value`: mode throw throws the value; mode return jumps to target
    /// with the value; next continues.
    ResumeCheck(u32),
    /// `result →` : `yield*` in a sync generator hands the inner result object through.
    YieldRaw,
    /// `get set → pair`: an accessor pair for private accessors.
    MakeAccessorPair,
    /// `value → result`: suspend until the promise settles (throws on rejection).
    Await,
    /// `iterator next received mode → iterator next result`: one step of `yield*` delegation:
    /// calls next/throw/return on the inner iterator with the received value.
    DelegateStep,
    /// Async-generator `yield`: await the value first (`value → value`).
    AsyncYieldPrep,

    // ---- classes
    /// `parent? → ctor proto`: create a class from `functions[code]`.
    CreateClass {
        code: u32,
        derived: bool,
        name: Atom,
    },
    /// `ctor fields-fn → ctor`: attach the instance field initialiser.
    SetClassFields,
    /// Run this constructor's field initialiser on `this`.
    RunFieldInit,
    // ---- decorators (the run-time half is builtins/decorators.rs)
    /// `target key value decorators metadata extras inits → result`: apply one element's
    /// decorators (or, kind 0, the class's); `kind` is a `DecoratorKind`, `flags` bit 0
    /// static, bit 1 private.
    Decorate {
        kind: u8,
        flags: u8,
    },
    /// `this list → undefined` (0) or `this list value → value` (1): call each initializer
    /// of the list on `this` (threading the value through a field's initializers).
    RunInitializers(u8),
    /// `ctor → metadata`: a decorated class's metadata object (inherits the parent's).
    NewMetadata,
    /// `ctor metadata →`: define `ctor[Symbol.metadata]`.
    DefineMetadata,

    // ---- misc
    /// Push the template object for site `i` (cached per code block).
    TemplateObject(u32),
    /// `→ regexp` for literal `regexps[i]`.
    RegExpLiteral(u32),
    /// `value → value` (ToPropertyKey of class computed keys is done with ToPropertyKey)
    Nop,
    Debugger,
    /// Dispose the resources of a `using` scope: `stack-object → `.
    DisposeResources,
    /// `→ stack`: a fresh DisposableStack for a `using` scope.
    NewDisposableStack,
    /// `stack exc →`: dispose after an abrupt throw, then throw the final error.
    DisposeResourcesThrow,
    /// `stack → promise`: dispose an `await using` scope (flag 1: an exception is below the
    /// stack: `exc stack → promise`).
    DisposeResourcesAsync(u8),
    /// `stack value hint → stack`: add a resource to a disposable stack (`using`).
    AddDisposable(u8),
}

// Every instruction is one word; this keeps the dispatch loop's fetch a single load.
const _: () = assert!(std::mem::size_of::<Op>() <= 12);

impl Op {
    /// (pops, pushes) for the compiler's static stack-depth tracking. Ops that jump on one
    /// path report the fall-through effect; the compiler adjusts at their targets.
    pub fn stack_effect(self) -> (u32, u32) {
        use Op::*;
        match self {
            Undefined | Null | True | False | Empty | Int(_) | Const(_) => (0, 1),
            Pop => (1, 0),
            Dup => (1, 2),
            Dup2 => (2, 4),
            Swap => (2, 2),
            Over => (2, 3),
            Rot3 => (3, 3),
            Rot4 => (4, 4),
            GetLocal(_) | GetLocalChecked(_) | GetEnv { .. } | GetEnvChecked { .. } => (0, 1),
            SetLocal(_) | SetLocalChecked(_) | SetEnv { .. } | SetEnvChecked { .. } => (1, 0),
            PushWithEnv => (1, 0),
            YieldRaw => (1, 2),
            MakeAccessorPair => (2, 1),
            PushEnv(_) | PopEnv | CloneEnv | DeclareGlobals | Nop | Debugger | RunFieldInit => (0, 0),
            GetGlobal(_) | GetGlobalOrUndefined(_) | GetName(_) | TypeofName(_) | DeleteName(_) => (0, 1),
            GetNameEnv { .. } | DeleteNameEnv { .. } => (0, 1),
            GetNameThis(_) | GetNameEnvThis { .. } => (0, 2),
            SetGlobal { .. } | InitGlobalLexical(_) | SetName { .. } | SetNameEnv { .. } | InitEvalVar { .. } => (1, 0),
            DeclareEvalVar { .. } => (0, 0),
            ResolveName { .. } => (0, 1),
            GetNameRef { .. } => (1, 1),
            PutNameRef { .. } => (2, 0),
            GetProp { .. } => (1, 1),
            GetPropKeep { .. } => (1, 2),
            SetProp { .. } => (2, 1),
            GetElem => (2, 1),
            GetElemKeep => (2, 2),
            SetElem { .. } => (3, 1),
            DeleteProp { .. } => (1, 1),
            DeleteElem { .. } => (2, 1),
            In | InstanceOf => (2, 1),
            DefineField(_) => (2, 1),
            DefineElem => (3, 1),
            DefineMethod { .. } => (2, 1),
            DefineMethodElem { .. } => (3, 1),
            CopyDataProperties => (2, 1),
            CopyRest(n) => (n.saturating_add(1), 2),
            SetProtoLiteral => (2, 1),
            SetHomeObject => (2, 2),
            SetFunctionName { .. } => (2, 2),
            NewObject | NewArray(_) => (0, 1),
            ArrayPush | ArraySpread => (2, 1),
            ArrayHole => (1, 1),
            RequireObjectCoercible | ToPropertyKey | ToStringForConcat | ToObject => (1, 1),
            ToPropertyKeyOfBase => (2, 2),
            GetPrivate => (2, 1),
            SetPrivate => (3, 1),
            DefinePrivate | DefinePrivateMethod => (3, 1),
            HasPrivate => (2, 1),
            NewPrivateName(_) => (0, 1),
            Closure(_) => (0, 1),
            Call(n) | CallEval(n) => (n.saturating_add(2), 1),
            CallSpread | CallEvalSpread => (3, 1),
            New(n) => (n.saturating_add(1), 1),
            NewSpread => (2, 1),
            SuperCall(n) => (n, 1),
            SuperCallSpread => (1, 1),
            SuperCallEnv { argc, .. } => (argc as u32, 1),
            SuperCallSpreadEnv { .. } => (1, 1),
            ThisFromEnv { .. } => (0, 1),
            SuperBase => (0, 1),
            GetSuper => (2, 1),
            SetSuper { .. } => (3, 1),
            Return => (1, 0),
            This | ThisChecked | NewTarget | Callee | ImportMeta | CreateArguments(_) | CreateRest(_) => (0, 1),
            GetImport(_) => (0, 1),
            DynamicImport | DynamicImportPhase(_) => (2, 1),
            Add | Sub | Mul | Div | Mod | Exp | BitAnd | BitOr | BitXor | Shl | Sar | Shr => (2, 1),
            Eq | Ne | StrictEq | StrictNe | Lt | Le | Gt | Ge => (2, 1),
            Neg | ToNumber | ToNumeric | Not | BitNot | Inc | Dec | TypeOf => (1, 1),
            Jump(_) => (0, 0),
            JumpIfFalse(_) | JumpIfTrue(_) | JumpIfNotUndefined(_) => (1, 0),
            // Fall-through pops; the jump path keeps the value.
            JumpIfFalseKeep(_) | JumpIfTrueKeep(_) | JumpIfNotNullishKeep(_) => (1, 0),
            JumpIfNullishToUndefined(_) => (1, 1),
            Throw => (1, 0),
            ThrowError { .. } => (0, 0),
            GetIterator | GetAsyncIterator => (1, 2),
            IteratorStep(_) => (2, 3),
            IteratorNextRaw => (2, 3),
            IteratorClose => (2, 0),
            IteratorCloseQuiet => (3, 1),
            AsyncIteratorClose => (2, 2),
            AsyncIteratorCloseQuiet => (3, 3),
            CheckIteratorResult => (1, 1),
            ForInStart => (1, 1),
            ForInNext(_) => (1, 2),
            GeneratorStart => (0, 0),
            Yield => (1, 2),
            ResumeCheck(_) => (2, 1),
            Await => (1, 1),
            DelegateStep => (4, 3),
            AsyncYieldPrep => (1, 1),
            CreateClass { derived, .. } => (u32::from(derived), 2),
            SetClassFields => (2, 1),
            Decorate { .. } => (7, 1),
            RunInitializers(v) => (2 + u32::from(v != 0), 1),
            NewMetadata => (1, 1),
            DefineMetadata => (2, 0),
            TemplateObject(_) | RegExpLiteral(_) => (0, 1),
            DisposeResources => (1, 0),
            NewDisposableStack => (0, 1),
            DisposeResourcesThrow => (2, 0),
            DisposeResourcesAsync(f) => (1 + u32::from(f), 1),
            AddDisposable(_) => (2, 1),
        }
    }

    /// The jump target, if this instruction can jump.
    pub fn jump_target(self) -> Option<u32> {
        use Op::*;
        match self {
            Jump(t)
            | JumpIfFalse(t)
            | JumpIfTrue(t)
            | JumpIfFalseKeep(t)
            | JumpIfTrueKeep(t)
            | JumpIfNotNullishKeep(t)
            | JumpIfNullishToUndefined(t)
            | JumpIfNotUndefined(t)
            | IteratorStep(t)
            | ForInNext(t)
            | ResumeCheck(t) => Some(t),
            _ => None,
        }
    }
}

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
    /// The realm whose code this is: closures made from it belong to that realm, and a frame
    /// running it runs there.
    pub realm: crate::realm::RealmId,
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
pub fn dump(vm: &crate::vm::Vm, root: CodeId) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut todo = vec![root];
    let mut seen = Vec::new();
    while let Some(id) = todo.pop() {
        if seen.contains(&id) {
            continue;
        }
        seen.push(id);
        let code = vm.heap.code(id);
        let name = vm.heap.atoms.get(code.name).to_rust_string();
        let name = if name.is_empty() { "<anonymous>".to_string() } else { name };
        let (line, _) = code.position(0).unwrap_or((0, 0));
        let _ = writeln!(
            out,
            "== {name} [{:?}{}] line {line}, params {}, registers {}, env slots {}",
            code.kind,
            if code.strict { ", strict" } else { "" },
            code.param_count,
            code.register_count,
            code.env_slots
        );
        for (pc, op) in code.ops.iter().enumerate() {
            let _ = writeln!(out, "  {pc:5}  {op:?}");
        }
        for h in &code.handlers {
            let _ = writeln!(out, "  handler [{}, {}) -> {} depth {}", h.start, h.end, h.target, h.depth);
        }
        out.push('\n');
        todo.extend(code.functions.iter().rev());
    }
    out
}
