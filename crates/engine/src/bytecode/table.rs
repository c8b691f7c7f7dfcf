//! The opcode table: every instruction declared once, with its operands (each with an
//! [`OperandKind`] saying what it indexes) and its stack effect. The `opcodes!` macro turns
//! the table into the [`Op`] enum (serde encodes it for images), [`Op::stack_effect`],
//! [`Op::control`] (where control goes next: the jump target's depth included),
//! [`Op::operands`] and [`Op::map_operands`] (the jump target is the operand of kind
//! [`OperandKind::Jump`], so jump listing and patching are generated too), [`Op::name`]
//! (`--dump-bytecode`) and [`Op::build`] (an instruction from its table index and operand
//! values, which the bytecode fuzzer uses). The image verifier (`heap/verify.rs`) checks every
//! operand by its kind and abstract-interprets the stack from these effects.
//!
//! Adding an instruction means one line here and one arm in the interpreter
//! (`interp/mod.rs`): the verifier, the compiler's jump patching and the dumper follow.
//! Renumbering (inserting, removing or reordering lines) changes the image encoding: bump the
//! heap revision (`ENGINE_VERSION` in crates/amber/src/runtime/mod.rs).
//!
//! Stack notation in the docs: `a b → c` pops `b` then `a`, pushes `c`. Each line reads
//! `Name(operand: type = Kind, …) [pops => pushes]`, then `branch [pops => pushes]` for a
//! conditional jump (the effect when it jumps; the bracket before is the fall-through's),
//! `goto` for an unconditional jump, or `stop` for an instruction that never continues at the
//! next one (return, throw).

use serde::{Deserialize, Serialize};

use crate::atoms::Atom;

/// What an operand means, and so what the image verifier checks it against.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OperandKind {
    /// An index into the code block's `constants`.
    Const,
    /// An index into the code block's `functions`.
    Func,
    /// An index into the code block's inline caches.
    Ic,
    /// An interned name: below the heap's atom count.
    Atom,
    /// A frame register: below the code block's `register_count`.
    Reg,
    /// An absolute instruction index: at most the code length (the end is `return undefined`).
    Jump,
    /// An index into the code block's template sites.
    Template,
    /// An index into the code block's regexp literals.
    RegExp,
    /// How many operand-stack values the instruction takes; the stack-depth pass checks it
    /// through the instruction's pops.
    Count,
    /// Slots of a new environment: at most [`MAX_SLOTS`] (the allocation is made at once).
    Slots,
    /// An environment hop count or slot: the interpreter walks the chain and reads the slot
    /// with bounds checks (a missing one reads as undefined), so any value is safe.
    Env,
    /// An import cell of the VM's module map, looked up with a bounds check at run time.
    Import,
    /// An immediate: an int, a flag set, a mode or a capacity hint; every value has a meaning
    /// (unknown flags and modes fall to a default arm in the interpreter).
    Imm,
}

/// Most registers, environment slots or operand-stack values one code block may declare:
/// frames allocate them at once, so an image that asks for more is refused (a function
/// needing them would have millions of declarations or a nesting the compiler refuses).
pub const MAX_SLOTS: u32 = 1 << 22;

/// Where control goes after an instruction.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Control {
    /// The next instruction.
    Next,
    /// The next instruction, or the jump target with this (pops, pushes) instead.
    Branch(u32, u32),
    /// The jump target only, with the instruction's stack effect.
    Goto,
    /// Nowhere in this code block (return, throw).
    Stop,
}

/// An operand's value as the table's uniform `u32` (and back, truncating: only the fuzzer
/// builds instructions from arbitrary numbers).
pub trait Operand: Copy {
    fn to_u32(self) -> u32;
    fn from_u32(v: u32) -> Self;
}

impl Operand for u32 {
    fn to_u32(self) -> u32 {
        self
    }
    fn from_u32(v: u32) -> Self {
        v
    }
}

impl Operand for u16 {
    fn to_u32(self) -> u32 {
        u32::from(self)
    }
    fn from_u32(v: u32) -> Self {
        v as u16
    }
}

impl Operand for u8 {
    fn to_u32(self) -> u32 {
        u32::from(self)
    }
    fn from_u32(v: u32) -> Self {
        v as u8
    }
}

impl Operand for i32 {
    fn to_u32(self) -> u32 {
        self as u32
    }
    fn from_u32(v: u32) -> Self {
        v as i32
    }
}

impl Operand for bool {
    fn to_u32(self) -> u32 {
        u32::from(self)
    }
    fn from_u32(v: u32) -> Self {
        v & 1 != 0
    }
}

impl Operand for Atom {
    fn to_u32(self) -> u32 {
        self.0
    }
    fn from_u32(v: u32) -> Self {
        Atom(v)
    }
}

/// Most operands one instruction has.
pub const MAX_OPERANDS: usize = 4;

/// An instruction's operands, in declaration order.
#[derive(Clone, Copy, Debug, Default)]
pub struct Operands {
    len: usize,
    items: [(&'static str, u32); MAX_OPERANDS],
    kinds: [Option<OperandKind>; MAX_OPERANDS],
}

impl Operands {
    fn push(&mut self, name: &'static str, kind: OperandKind, value: u32) {
        // The table has at most MAX_OPERANDS per line (checked by a test).
        if let (Some(item), Some(k)) = (self.items.get_mut(self.len), self.kinds.get_mut(self.len)) {
            *item = (name, value);
            *k = Some(kind);
            self.len += 1;
        }
    }

    /// (field name, kind, value) of each operand.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, OperandKind, u32)> + '_ {
        self.items.iter().zip(&self.kinds).take(self.len).filter_map(|(&(n, v), k)| Some((n, (*k)?, v)))
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

macro_rules! control {
    () => {
        Control::Next
    };
    (branch [$p:expr => $q:expr]) => {
        Control::Branch($p, $q)
    };
    (goto) => {
        Control::Goto
    };
    (stop) => {
        Control::Stop
    };
}

macro_rules! opcodes {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident
        $( ( $($tn:ident : $tty:ty = $tk:ident),* ) )?
        $( { $($sn:ident : $sty:ty = $sk:ident),* } )?
        [$pops:expr => $pushes:expr]
        $( $flow:ident $( [$jpops:expr => $jpushes:expr] )? )?
        ;
    )*) => {
        /// One instruction. Jump targets are absolute instruction indices.
        #[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
        pub enum Op {
            $(
                $(#[doc = $doc])*
                $name $( ( $($tty),* ) )? $( { $($sn: $sty),* } )?,
            )*
        }

        impl Op {
            /// Every instruction's name, in table order ([`Op::build`]'s index).
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            /// The instruction's name (`--dump-bytecode`).
            pub fn name(self) -> &'static str {
                match self {
                    $( Op::$name { .. } => stringify!($name), )*
                }
            }

            /// (pops, pushes) when the instruction continues at the next one (for a
            /// suspending instruction: when it resumes). A conditional jump's taken effect
            /// is in [`Op::control`].
            #[allow(unused_variables)]
            pub fn stack_effect(self) -> (u32, u32) {
                match self {
                    $( Op::$name $( ( $($tn),* ) )? $( { $($sn),* } )? => ($pops, $pushes), )*
                }
            }

            /// Where control goes after this instruction.
            pub fn control(self) -> Control {
                match self {
                    $( Op::$name { .. } => control!($( $flow $( [$jpops => $jpushes] )? )?), )*
                }
            }

            /// The operands, with their field names (tuple operands are named in the
            /// table) and kinds.
            pub fn operands(self) -> Operands {
                let mut out = Operands::default();
                match self {
                    $(
                        Op::$name $( ( $($tn),* ) )? $( { $($sn),* } )? => {
                            $( $( out.push(stringify!($tn), OperandKind::$tk, Operand::to_u32($tn)); )* )?
                            $( $( out.push(stringify!($sn), OperandKind::$sk, Operand::to_u32($sn)); )* )?
                        }
                    )*
                }
                out
            }

            /// The same instruction with each operand replaced by `f(kind, value)`.
            pub fn map_operands(self, mut f: impl FnMut(OperandKind, u32) -> u32) -> Op {
                #[allow(unused_mut)]
                let f = &mut f;
                match self {
                    $(
                        Op::$name $( ( $($tn),* ) )? $( { $($sn),* } )? => Op::$name
                            $( ( $( <$tty as Operand>::from_u32(f(OperandKind::$tk, Operand::to_u32($tn))) ),* ) )?
                            $( { $( $sn: <$sty as Operand>::from_u32(f(OperandKind::$sk, Operand::to_u32($sn))) ),* } )?,
                    )*
                }
            }

            /// Instruction `index` of the table ([`Op::NAMES`]) with operand values from
            /// `value(kind)`, in declaration order; None past the table.
            pub fn build(index: usize, value: &mut dyn FnMut(OperandKind) -> u32) -> Option<Op> {
                #[allow(unused_variables)]
                const MAKE: &[fn(&mut dyn FnMut(OperandKind) -> u32) -> Op] = &[$(
                    |value| Op::$name
                        $( ( $( <$tty as Operand>::from_u32(value(OperandKind::$tk)) ),* ) )?
                        $( { $( $sn: <$sty as Operand>::from_u32(value(OperandKind::$sk)) ),* } )?
                ),*];
                MAKE.get(index).map(|make| make(value))
            }
        }
    };
}

opcodes! {
    // ---- constants
    Undefined [0 => 1];
    Null [0 => 1];
    True [0 => 1];
    False [0 => 1];
    /// Push the internal empty marker (array holes, TDZ initial values).
    Empty [0 => 1];
    Int(value: i32 = Imm) [0 => 1];
    /// Push `constants[i]`.
    Const(index: u32 = Const) [0 => 1];

    // ---- stack shuffles
    Pop [1 => 0];
    Dup [1 => 2];
    /// `a b → a b a b`
    Dup2 [2 => 4];
    Swap [2 => 2];
    /// `a b c → c a b`
    Rot3 [3 => 3];
    /// `a b c d → d a b c`
    Rot4 [4 => 4];

    // ---- registers and environments
    GetLocal(reg: u32 = Reg) [0 => 1];
    /// Pops into a register.
    SetLocal(reg: u32 = Reg) [1 => 0];
    /// Like GetLocal but throws ReferenceError on an uninitialised (TDZ) binding.
    GetLocalChecked(reg: u32 = Reg) [0 => 1];
    /// Pops into an initialised register; ReferenceError if still in its TDZ.
    SetLocalChecked(reg: u32 = Reg) [1 => 0];
    GetEnv { depth: u16 = Env, slot: u32 = Env } [0 => 1];
    SetEnv { depth: u16 = Env, slot: u32 = Env } [1 => 0];
    GetEnvChecked { depth: u16 = Env, slot: u32 = Env } [0 => 1];
    SetEnvChecked { depth: u16 = Env, slot: u32 = Env } [1 => 0];
    /// Push a new environment with `n` slots (initialised to the empty marker).
    PushEnv(slots: u32 = Slots) [0 => 0];
    PopEnv [0 => 0];
    /// Replace the current environment with a copy (per-iteration `let` bindings).
    CloneEnv [0 => 0];
    /// `obj →`: push an object environment for a `with` statement.
    PushWithEnv [1 => 0];

    // ---- globals and dynamic names
    /// Global lookup: lexical declarations, then the global object; ReferenceError if absent.
    GetGlobal(name: Atom = Atom) [0 => 1];
    /// As GetGlobal but absent reads as undefined (`typeof x`).
    GetGlobalOrUndefined(name: Atom = Atom) [0 => 1];
    /// Pops into a global: ReferenceError when absent in strict code, creates it in sloppy.
    SetGlobal { name: Atom = Atom, strict: bool = Imm } [1 => 0];
    /// Pops into a global lexical binding being initialised (`let`/`const`/`class` at top level).
    InitGlobalLexical(name: Atom = Atom) [1 => 0];
    /// Script prologue: GlobalDeclarationInstantiation from the code block's declarations.
    DeclareGlobals [0 => 0];
    /// Names looked up through `with` objects, then the static location (see compiler).
    GetName(name: Atom = Atom) [0 => 1];
    SetName { name: Atom = Atom, strict: bool = Imm } [1 => 0];
    /// As GetName, but an unresolvable name reads as undefined (the operand of `typeof`).
    TypeofName(name: Atom = Atom) [0 => 1];
    DeleteName(name: Atom = Atom) [0 => 1];
    /// `→ callee this`: a call's callee by name; `this` is the `with` object that holds it.
    GetNameThis(name: Atom = Atom) [0 => 2];
    /// A binding `depth` environments up, unless one of the object environments on the way
    /// (a `with` object or a direct eval's var bag) has the name first.
    GetNameEnv { name: Atom = Atom, depth: u16 = Env, slot: u32 = Env, checked: bool = Imm } [0 => 1];
    /// As GetNameEnv, pushing `callee this`.
    GetNameEnvThis { name: Atom = Atom, depth: u16 = Env, slot: u32 = Env, checked: bool = Imm } [0 => 2];
    /// Pops into the binding GetNameEnv would read.
    SetNameEnv { name: Atom = Atom, depth: u16 = Env, slot: u32 = Env, checked: bool = Imm } [1 => 0];
    /// `delete name` of a binding `depth` environments up: deletes from an object
    /// environment on the way that has the name, else false (bindings are not deletable).
    DeleteNameEnv { name: Atom = Atom, depth: u16 = Env } [0 => 1];
    /// `→ base`: resolve a name once for an assignment (`depth` as for GetNameEnv;
    /// `u16::MAX`: the whole chain, then the global scope). The base is the object
    /// environment's object that has it, or undefined for the static location.
    ResolveName { name: Atom = Atom, depth: u16 = Env } [0 => 1];
    /// `base → value`: GetValue of a resolved name.
    GetNameRef { name: Atom = Atom, depth: u16 = Env, slot: u32 = Env, checked: bool = Imm } [1 => 1];
    /// `base value →`: PutValue of a resolved name.
    PutNameRef { name: Atom = Atom, depth: u16 = Env, slot: u32 = Env, checked: bool = Imm } [2 => 0];
    /// Sloppy direct eval in a function: CreateMutableBinding(name, deletable) in the var
    /// environment `depth` up (its var bag), unless the bag has it already.
    DeclareEvalVar { name: Atom = Atom, depth: u16 = Env } [0 => 0];
    /// Pops into the var bag binding `name` of the environment `depth` up (a function
    /// declaration of eval code).
    InitEvalVar { name: Atom = Atom, depth: u16 = Env } [1 => 0];

    // ---- properties
    /// `obj → value`
    GetProp { name: Atom = Atom, ic: u32 = Ic } [1 => 1];
    /// `obj → value obj`: a method call's callee and receiver, in the order `Call` takes them.
    GetPropCallee { name: Atom = Atom, ic: u32 = Ic } [1 => 2];
    /// `→ value`: `this.name` in a function whose `this` is its frame's (`This` then `GetProp`).
    GetThisProp { name: Atom = Atom, ic: u32 = Ic } [0 => 1];
    /// `obj value → value`
    SetProp { name: Atom = Atom, ic: u32 = Ic, strict: bool = Imm } [2 => 1];
    /// `obj value →`: `SetProp` whose value is not used (an assignment statement).
    PutProp { name: Atom = Atom, ic: u32 = Ic, strict: bool = Imm } [2 => 0];
    /// `obj key → value`
    GetElem [2 => 1];
    /// `obj key → value obj`: a computed method call's callee and receiver.
    GetElemCallee [2 => 2];
    /// `obj key value → value`
    SetElem { strict: bool = Imm } [3 => 1];
    /// `obj key value →`: `SetElem` whose value is not used.
    PutElem { strict: bool = Imm } [3 => 0];
    /// `obj → bool`
    DeleteProp { name: Atom = Atom, strict: bool = Imm } [1 => 1];
    /// `obj key → bool`
    DeleteElem { strict: bool = Imm } [2 => 1];
    /// `key obj → bool`
    In [2 => 1];
    /// `value ctor → bool`
    InstanceOf [2 => 1];
    /// `obj value → obj`: define an own enumerable data property (object literals).
    DefineField(name: Atom = Atom) [2 => 1];
    /// `obj key value → obj`
    DefineElem [3 => 1];
    /// `obj fn → obj`: define a method (sets its home object); flags: bit0 enumerable,
    /// bit1 getter, bit2 setter.
    DefineMethod { name: Atom = Atom, flags: u8 = Imm } [2 => 1];
    /// `obj key fn → obj`
    DefineMethodElem { flags: u8 = Imm } [3 => 1];
    /// `obj src → obj`: object spread.
    CopyDataProperties [2 => 1];
    /// `src k1..kn → src rest`: rest pattern excluding the n keys above `src`.
    CopyRest(keys: u32 = Count) [keys.saturating_add(1) => 2];
    /// `obj proto → obj`: `__proto__: v` in a literal.
    SetProtoLiteral [2 => 1];
    /// `home fn → home fn`: set a closure's home object (computed-key methods).
    SetHomeObject [2 => 2];
    /// Give an anonymous function its name: `fn key → fn key`.
    SetFunctionName { prefix: u8 = Imm } [2 => 2];
    NewObject [0 => 1];
    /// `→ array` with a capacity hint.
    NewArray(capacity: u32 = Imm) [0 => 1];
    /// `array value → array`
    ArrayPush [2 => 1];
    /// `array → array` (length += 1, a hole)
    ArrayHole [1 => 1];
    /// `array iterable → array`
    ArraySpread [2 => 1];
    /// `obj → obj` (TypeError on null/undefined; for destructuring)
    RequireObjectCoercible [1 => 1];
    ToPropertyKey [1 => 1];
    /// `base key → base key`: ToPropertyKey of a member reference's key, after checking the
    /// base: a null or undefined base throws first (GetValue's ToObject precedes the key's
    /// conversion), as compound assignment and update expressions need.
    ToPropertyKeyOfBase [2 => 2];
    /// `value → string` for template substitutions.
    ToStringForConcat [1 => 1];
    /// `value → object`
    ToObject [1 => 1];

    // ---- private names (`#x`): the private key symbol is on the stack
    /// `obj key → value`
    GetPrivate [2 => 1];
    /// `obj key value → value`
    SetPrivate [3 => 1];
    /// `obj key value → obj`: add a private field (TypeError if present).
    DefinePrivate [3 => 1];
    /// As `DefinePrivate`, for a private method: the name cannot be assigned (PrivateSet
    /// throws a TypeError on a method).
    DefinePrivateMethod [3 => 1];
    /// `key obj → bool`
    HasPrivate [2 => 1];
    /// `→ symbol`: a fresh private name with the given description.
    NewPrivateName(description: Atom = Atom) [0 => 1];

    // ---- functions and calls
    /// Create a closure for `functions[i]` in the current environment.
    Closure(function: u32 = Func) [0 => 1];
    /// `callee this a1..an → result`
    Call(argc: u32 = Count) [argc.saturating_add(2) => 1];
    /// `callee this args-array → result`
    CallSpread [3 => 1];
    /// Direct eval: `callee this a1..an → result`
    CallEval(argc: u32 = Count) [argc.saturating_add(2) => 1];
    /// `eval(...args)`: a direct eval whose arguments are an array (as `CallSpread`).
    CallEvalSpread [3 => 1];
    /// `ctor a1..an → object`
    New(argc: u32 = Count) [argc.saturating_add(1) => 1];
    /// `ctor args-array → object`
    NewSpread [2 => 1];
    /// `a1..an → this` in a derived constructor.
    SuperCall(argc: u32 = Count) [argc => 1];
    /// `args-array → this`
    SuperCallSpread [1 => 1];
    /// `a1..an → this` where arrows may share the constructor's `this` (see
    /// `ThisFromEnv`): the function environment's slot `slot` (`depth` environments up) holds
    /// `this`, slot `slot + 1` the constructor.
    SuperCallEnv { argc: u16 = Count, depth: u16 = Env, slot: u32 = Env } [u32::from(argc) => 1];
    /// `args-array → this`, as `SuperCallEnv`.
    SuperCallSpreadEnv { depth: u16 = Env, slot: u32 = Env } [1 => 1];
    /// `→ this` in an arrow inside a derived constructor: the constructor environment's
    /// `this` slot (ReferenceError before super()).
    ThisFromEnv { depth: u16 = Env, slot: u32 = Env } [0 => 1];
    /// `→ super's [[Prototype]]-based base` for `super.x`: pushes the home object's prototype.
    SuperBase [0 => 1];
    /// `base key → value` with this as receiver.
    GetSuper [2 => 1];
    /// `base key value → value`
    SetSuper { strict: bool = Imm } [3 => 1];
    Return [1 => 0] stop;
    This [0 => 1];
    /// `this` in a derived constructor: ReferenceError before super().
    ThisChecked [0 => 1];
    NewTarget [0 => 1];
    /// `→ f`: the running function (a named function expression's own name binding).
    Callee [0 => 1];
    ImportMeta [0 => 1];
    /// Read an imported binding through import cell `i` (`vm.modules.cells`); ReferenceError
    /// while the exporting binding is uninitialised.
    GetImport(cell: u32 = Import) [0 => 1];
    /// `specifier options → promise`
    DynamicImport [2 => 1];
    /// `import.defer(…)` (1) / `import.source(…)` (2): `specifier options → promise`
    DynamicImportPhase(phase: u8 = Imm) [2 => 1];
    /// Push the arguments object: 0 unmapped, 1 mapped.
    CreateArguments(mapped: u8 = Imm) [0 => 1];
    /// Push an array of the arguments from index `n` on.
    CreateRest(from: u32 = Imm) [0 => 1];

    // ---- operators
    Add [2 => 1];
    Sub [2 => 1];
    Mul [2 => 1];
    Div [2 => 1];
    Mod [2 => 1];
    Exp [2 => 1];
    BitAnd [2 => 1];
    BitOr [2 => 1];
    BitXor [2 => 1];
    Shl [2 => 1];
    Sar [2 => 1];
    Shr [2 => 1];
    /// `a → a + value`: a binary operator whose right operand is an int32 literal (`Add`'s
    /// strings and objects included: the general path pushes the literal and adds).
    AddInt(value: i32 = Imm) [1 => 1];
    SubInt(value: i32 = Imm) [1 => 1];
    MulInt(value: i32 = Imm) [1 => 1];
    BitAndInt(value: i32 = Imm) [1 => 1];
    BitOrInt(value: i32 = Imm) [1 => 1];
    BitXorInt(value: i32 = Imm) [1 => 1];
    ShlInt(value: i32 = Imm) [1 => 1];
    SarInt(value: i32 = Imm) [1 => 1];
    ShrInt(value: i32 = Imm) [1 => 1];
    Neg [1 => 1];
    /// Unary `+`: ToNumber.
    ToNumber [1 => 1];
    ToNumeric [1 => 1];
    Not [1 => 1];
    BitNot [1 => 1];
    Inc [1 => 1];
    Dec [1 => 1];
    /// `reg = ToNumeric(reg) + 1`, nothing pushed (`i++` as a statement).
    IncLocal(reg: u32 = Reg) [0 => 0];
    /// `reg = ToNumeric(reg) - 1`, nothing pushed.
    DecLocal(reg: u32 = Reg) [0 => 0];
    /// `→ old`: `reg++` whose value is used; old is ToNumeric(reg), reg becomes old + 1.
    PostIncLocal(reg: u32 = Reg) [0 => 1];
    /// `→ old`: `reg--` whose value is used.
    PostDecLocal(reg: u32 = Reg) [0 => 1];
    TypeOf [1 => 1];
    Eq [2 => 1];
    Ne [2 => 1];
    StrictEq [2 => 1];
    StrictNe [2 => 1];
    Lt [2 => 1];
    Le [2 => 1];
    Gt [2 => 1];
    Ge [2 => 1];

    // ---- control flow
    Jump(target: u32 = Jump) [0 => 0] goto;
    /// Pops; jumps when falsy.
    JumpIfFalse(target: u32 = Jump) [1 => 0] branch [1 => 0];
    /// Pops; jumps when truthy.
    JumpIfTrue(target: u32 = Jump) [1 => 0] branch [1 => 0];
    /// `a b →`: jumps unless `a < b` (a loop's or an `if`'s comparison and its branch).
    JumpUnlessLt(target: u32 = Jump) [2 => 0] branch [2 => 0];
    /// `a b →`: jumps unless `a <= b`.
    JumpUnlessLe(target: u32 = Jump) [2 => 0] branch [2 => 0];
    /// `a b →`: jumps unless `a > b`.
    JumpUnlessGt(target: u32 = Jump) [2 => 0] branch [2 => 0];
    /// `a b →`: jumps unless `a >= b`.
    JumpUnlessGe(target: u32 = Jump) [2 => 0] branch [2 => 0];
    /// `a b →`: jumps unless `a == b`.
    JumpUnlessEq(target: u32 = Jump) [2 => 0] branch [2 => 0];
    /// `a b →`: jumps unless `a != b`.
    JumpUnlessNe(target: u32 = Jump) [2 => 0] branch [2 => 0];
    /// `a b →`: jumps unless `a === b`.
    JumpUnlessStrictEq(target: u32 = Jump) [2 => 0] branch [2 => 0];
    /// `a b →`: jumps unless `a !== b`.
    JumpUnlessStrictNe(target: u32 = Jump) [2 => 0] branch [2 => 0];
    /// Keeps the value and jumps when falsy; pops it otherwise (`&&`).
    JumpIfFalseKeep(target: u32 = Jump) [1 => 0] branch [0 => 0];
    /// Keeps the value and jumps when truthy; pops it otherwise (`||`).
    JumpIfTrueKeep(target: u32 = Jump) [1 => 0] branch [0 => 0];
    /// Keeps the value and jumps when it is not nullish; pops it otherwise (`??`).
    JumpIfNotNullishKeep(target: u32 = Jump) [1 => 0] branch [0 => 0];
    /// When the value is nullish: replace it by undefined and jump (optional chains).
    JumpIfNullishToUndefined(target: u32 = Jump) [1 => 1] branch [1 => 1];
    /// Pops; jumps when not undefined (default values).
    JumpIfNotUndefined(target: u32 = Jump) [1 => 0] branch [1 => 0];
    Throw [1 => 0] stop;
    /// Throw a new error: kind (0 TypeError, 1 ReferenceError, 2 SyntaxError, 3 RangeError)
    /// with message `constants[msg]`.
    ThrowError { kind: u8 = Imm, msg: u32 = Const } [0 => 0] stop;

    // ---- iteration
    /// `iterable → iterator next`
    GetIterator [1 => 2];
    /// `iterable → iterator next` (async, with sync fallback)
    GetAsyncIterator [1 => 2];
    /// `iterator next → iterator next value`, or jump to target (nothing pushed) when done.
    IteratorStep(target: u32 = Jump) [2 => 3] branch [0 => 0];
    /// `iterator next → iterator next result` (raw `next()` call, result unchecked)
    IteratorNextRaw [2 => 3];
    /// `iterator next → `: call `return` if present (normal completion).
    IteratorClose [2 => 0];
    /// `iterator next exc → exc`: close for an abrupt (throw) completion, ignoring errors from return.
    IteratorCloseQuiet [3 => 1];
    /// `iterator next → result called`: for-await's AsyncIteratorClose for a normal completion:
    /// call `return` if present (`called`); its result is then awaited and checked.
    AsyncIteratorClose [2 => 2];
    /// `iterator next exc → exc result called`: AsyncIteratorClose for a throw completion: call
    /// `return` if present, ignoring its errors; `called` says whether a result is to be awaited.
    AsyncIteratorCloseQuiet [3 => 3];
    /// `result → result`: a TypeError unless the (awaited) result of `return` is an object.
    CheckIteratorResult [1 => 1];
    /// `obj → for-in iterator`
    ForInStart [1 => 1];
    /// `iter → iter key` or jump when done.
    ForInNext(target: u32 = Jump) [1 => 2] branch [0 => 0];

    // ---- generators and async
    /// Suspend a freshly-started generator (after parameter setup), returning the generator
    /// object to the caller.
    GeneratorStart [0 => 0];
    /// `value → received mode`: suspend; resumes with the sent value and a mode
    /// (0 next, 2 return; throw resumes by throwing).
    Yield [1 => 2];
    /// `value mode → value`: mode throw throws the value; mode return jumps to target
    /// with the value; next continues.
    ResumeCheck(target: u32 = Jump) [2 => 1] branch [2 => 1];
    /// `result → received mode`: `yield*` in a sync generator hands the inner result object
    /// through.
    YieldRaw [1 => 2];
    /// `get set → pair`: an accessor pair for private accessors.
    MakeAccessorPair [2 => 1];
    /// `value → result`: suspend until the promise settles (throws on rejection).
    Await [1 => 1];
    /// `iterator next received mode → iterator next result`: one step of `yield*` delegation:
    /// calls next/throw/return on the inner iterator with the received value.
    DelegateStep [4 => 3];

    // ---- classes
    /// `parent? → ctor proto`: create a class from `functions[code]`.
    CreateClass { code: u32 = Func, derived: bool = Imm, name: Atom = Atom } [u32::from(derived) => 2];
    /// `ctor fields-fn → ctor`: attach the instance field initialiser.
    SetClassFields [2 => 1];
    // ---- decorators (the run-time half is builtins/decorators.rs)
    /// `target key value decorators metadata extras inits → result`: apply one element's
    /// decorators (or, kind 0, the class's); `kind` is a `DecoratorKind`, `flags` bit 0
    /// static, bit 1 private.
    Decorate { kind: u8 = Imm, flags: u8 = Imm } [7 => 1];
    /// `this list → undefined` (0) or `this list value → value` (non-zero): call each initializer
    /// of the list on `this` (threading the value through a field's initializers).
    RunInitializers(with_value: u8 = Imm) [2 + u32::from(with_value != 0) => 1];
    /// `ctor → metadata`: a decorated class's metadata object (inherits the parent's).
    NewMetadata [1 => 1];
    /// `ctor metadata →`: define `ctor[Symbol.metadata]`.
    DefineMetadata [2 => 0];

    // ---- misc
    /// Push the template object for site `i` (cached per code block).
    TemplateObject(site: u32 = Template) [0 => 1];
    /// `→ regexp` for literal `regexps[i]`.
    RegExpLiteral(literal: u32 = RegExp) [0 => 1];
    /// Does nothing (the compiler's operator for a compound assignment that has none).
    Nop [0 => 0];
    /// Dispose the resources of a `using` scope: `stack-object → `.
    DisposeResources [1 => 0];
    /// `→ stack`: a fresh DisposableStack for a `using` scope.
    NewDisposableStack [0 => 1];
    /// `stack exc →`: dispose after an abrupt throw, then throw the final error.
    DisposeResourcesThrow [2 => 0];
    /// `stack → promise`: dispose an `await using` scope (flag 1: an exception is below the
    /// stack: `exc stack → promise`; other values: no exception, as the interpreter reads it).
    DisposeResourcesAsync(with_exc: u8 = Imm) [1 + u32::from(with_exc == 1) => 1];
    /// `stack value hint → stack`: add a resource to a disposable stack (`using`).
    AddDisposable(hint: u8 = Imm) [2 => 1];
}

// Every instruction is one word; this keeps the dispatch loop's fetch a single load.
const _: () = assert!(std::mem::size_of::<Op>() <= 12);

impl Op {
    /// The jump target, if this instruction can jump (its operand of kind
    /// [`OperandKind::Jump`]).
    pub fn jump_target(self) -> Option<u32> {
        self.operands().iter().find(|&(_, kind, _)| kind == OperandKind::Jump).map(|(_, _, t)| t)
    }

    /// The same instruction jumping to `target` (unchanged if it does not jump): the
    /// compiler's patching of forward jumps.
    pub fn with_jump_target(self, target: u32) -> Op {
        self.map_operands(|kind, v| if kind == OperandKind::Jump { target } else { v })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every instruction built from the table has its name, at most one jump operand, and a
    /// control transfer that matches it (a jump has a target; nothing else does).
    #[test]
    fn the_table_is_consistent() {
        assert_eq!(Op::NAMES.len(), 199);
        for (i, name) in Op::NAMES.iter().enumerate() {
            let mut n = 0;
            let op = Op::build(i, &mut |_| {
                n += 1;
                7
            })
            .expect("every index builds");
            assert_eq!(op.name(), *name);
            assert!(n <= MAX_OPERANDS && op.operands().len() == n, "{name}");
            let jumps = op.operands().iter().filter(|&(_, k, _)| k == OperandKind::Jump).count();
            let jumping = matches!(op.control(), Control::Branch(..) | Control::Goto);
            assert_eq!(jumps == 1, jumping, "{name}: a jump operand exactly when it jumps");
            assert!(jumps <= 1, "{name}");
            if jumping {
                assert_eq!(op.jump_target(), Some(7));
                assert_eq!(op.with_jump_target(3).jump_target(), Some(3));
            }
        }
        assert!(Op::build(Op::NAMES.len(), &mut |_| 0).is_none());
    }

    #[test]
    fn operands_map_back_to_the_same_instruction() {
        let ops = [
            Op::GetNameEnv { name: Atom(5), depth: 2, slot: 9, checked: true },
            Op::Int(-3),
            Op::CreateClass { code: 1, derived: true, name: Atom(4) },
            Op::Undefined,
        ];
        for op in ops {
            assert_eq!(op.map_operands(|_, v| v), op);
        }
        let kinds: Vec<OperandKind> = ops[0].operands().iter().map(|(_, k, _)| k).collect();
        assert_eq!(kinds, [OperandKind::Atom, OperandKind::Env, OperandKind::Env, OperandKind::Imm]);
    }
}
