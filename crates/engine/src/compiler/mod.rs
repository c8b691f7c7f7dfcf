//! The compiler: oxc AST → bytecode. No AST survives compilation.
//!
//! Pipeline: `oxc_parser` parses; `oxc_semantic` resolves scopes and reports early errors;
//! then one pass over the AST emits a [`CodeBlock`] per function. Each binding resolves at
//! compile time to a register (not captured), an environment slot (captured by a closure,
//! or in a function that uses direct `eval`), or a global (script top level).
//!
//! Start at [`compile_script`]. Statements are in `stmt.rs`, expressions in `expr.rs`,
//! patterns in `pattern.rs`, functions and classes in `function.rs`, where names live and how
//! they are reached in `bindings.rs`.

mod annex_b;
mod arguments_refs;
mod assign;
mod bindings;
pub mod cache;
mod call_site;
mod class_binding;
mod decorators;
pub mod eval;
mod expr;
mod function;
pub mod module;
pub mod nesting;
mod param_scope;
mod pattern;
mod stmt;

use oxc_allocator::Allocator;
use oxc_ast::ast::Program;
use oxc_parser::{ParseOptions, Parser};
use oxc_semantic::{Scoping, SemanticBuilder};
use oxc_span::SourceType;
use oxc_syntax::scope::ScopeId;
use oxc_syntax::symbol::SymbolId;

use crate::atoms::{atom, Atom};
use crate::bytecode::{CodeBlock, EnvBinding, FunctionKind, GlobalDecls, Handler, InlineCache, Op, TemplateSite};
use crate::error::SyntaxErrorReport;
use crate::heap::source::Source;
use crate::heap::CodeId;
use crate::string::JsStr;
use crate::value::Value;
use crate::vm::Vm;

/// Where a binding lives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Loc {
    Register(u32),
    /// Absolute environment level (0 = the first env below the global scope) and slot.
    Env {
        level: u32,
        slot: u32,
    },
    Global(Atom),
    /// An imported binding of module code: the import cell (`Op::GetImport`); immutable.
    Import(u32),
    /// A `var` or function that sloppy direct eval code declares in its caller's variable
    /// environment (the var bag there): reached by name.
    EvalVar(Atom),
}

/// Operands of a name resolved once for an assignment (`Op::ResolveName`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NameRef {
    name: Atom,
    depth: u16,
    slot: u32,
    checked: bool,
}

/// Where a reference that may be shadowed at run time falls back to (see
/// [`Compiler::dynamic_target`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum DynamicTarget {
    /// An env slot, when no object environment on the way has the name.
    Env { level: u32, slot: u32, checked: bool, kind: crate::bytecode::EvalBindingKind },
    /// Every object environment of the chain, then the global scope.
    Name,
}

/// A forward jump to patch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Label(usize);

/// An enclosing construct that `break`, `continue` and `return` must respect.
#[derive(Clone, Debug)]
pub(crate) enum Control<'s> {
    /// A breakable statement (loop, switch, labelled block).
    Breakable {
        labels: Vec<String>,
        is_loop: bool,
        break_jumps: Vec<usize>,
        continue_jumps: Vec<usize>,
        /// Operand depth and env level outside the construct (what break restores to).
        depth: u32,
        /// Operand depth inside the loop body (what continue restores to).
        continue_depth: u32,
        /// Controls right above this one that belong to the loop itself (its iterator):
        /// `continue` keeps them.
        continue_floor: usize,
    },
    /// A try with a handler: its protected ranges are suspended while finally code for an
    /// exit is inlined.
    Try { range_start: Option<u32>, ranges: Vec<(u32, u32)>, finally: Option<&'s oxc_ast::ast::BlockStatement<'s>> },
    /// An iterator on the operand stack (for-of, for-await) that exits must close. `holes`
    /// are the exits' closing code, which the loop's own exception handler must not cover
    /// (an error from `return` leaves the loop; it must not close the iterator again); a hole
    /// whose end is `u32::MAX` is still being emitted. An array destructuring's iterator is
    /// closed only while the register `done` holds false (a `return()` of the generator
    /// suspended inside the pattern exits through it).
    Iterator { depth: u32, is_async: bool, holes: Vec<(u32, u32)>, done: Option<u32> },
    /// An operand value (for-in iterator, switch temp) that exits must pop.
    StackValue { depth: u32 },
    /// An environment pushed by a block.
    Env,
    /// A `using` scope: exits dispose the DisposableStack held in the register.
    Dispose { reg: u32, is_async: bool },
}

/// Compile state of one function.
pub(crate) struct FuncState<'s> {
    pub code: CodeBlock,
    pub depth: u32,
    pub free_temps: Vec<u32>,
    /// Absolute env level of the innermost environment currently pushed.
    pub env_level: u32,
    /// The captured bindings of the scope most recently declared at each of this function's
    /// env levels (index: level - base_env_level - 1): at a level at or below `env_level`,
    /// that scope's environment is the one pushed (a sibling is declared only once the
    /// previous one closed).
    pub env_names: Vec<Vec<EnvBinding>>,
    pub controls: Vec<Control<'s>>,
    /// Register holding the completion value (scripts and eval code).
    pub completion: Option<u32>,
    /// Register or env location of the arguments object, if this function made one.
    pub arguments: Option<Loc>,
    /// A derived constructor whose arrows may use `this` or `super()`: (env level, slot) of
    /// its `this` binding in its function environment; the next slot holds the constructor.
    pub this_env: Option<(u32, u32)>,
    pub is_arrow: bool,
    pub scope_id: Option<ScopeId>,
    /// Env level of the function's entry environment (its closure's).
    pub base_env_level: u32,
    /// Expression/statement recursion depth, bounded by [`MAX_NESTING`].
    pub nesting: u32,
    /// Script: top-level functions were already compiled by `collect_global_decls`.
    pub globals_hoisted: bool,
    /// Register of the DisposableStack of the innermost `using` scope.
    pub using_stack: Option<u32>,
    /// While the parameter list is compiled: its bindings.
    pub parameters: Option<Vec<SymbolId>>,
    /// A method or class constructor: `super.x` is valid here.
    pub is_method: bool,
    /// `with` statements of this function around the code being compiled: a `var`
    /// initialiser there stores through them (PutValue of ResolveBinding).
    pub with_depth: u32,
    /// What the pattern about to be destructured receives (taken by the pattern): the
    /// expression its error message names. None: a parameter's argument.
    pub pattern_subject: Option<PatternSubject<'s>>,
}

/// The value a destructuring pattern receives, as its TypeError names it.
#[derive(Clone)]
pub(crate) enum PatternSubject<'s> {
    /// A declaration's initialiser.
    Init(&'s oxc_ast::ast::Expression<'s>),
    /// An assignment's right side (V8 names it for object patterns only).
    Assigned(&'s oxc_ast::ast::Expression<'s>),
    /// A value with no source expression, named by V8's internal variable (`.for`, `.catch`).
    Internal(&'static str),
    /// A pattern nested in an object pattern's property `key` (None: an array element or a
    /// computed key), whose own value is named `outer` (None: unnamed).
    Nested { key: Option<String>, outer: Option<String> },
}

/// The compiler for one source text.
pub(crate) struct Compiler<'s, 'vm> {
    pub vm: &'vm mut Vm,
    pub scoping: &'s Scoping,
    /// What the passes before compilation found (Annex B.3.3, class scopes).
    pub analysis: &'s Analysis,
    pub source: &'s str,
    pub source_id: u32,
    line_starts: Vec<u32>,
    /// The source's map to the text it was made from: positions recorded are original ones.
    map: Option<crate::source_map::PositionMap>,
    pub func: FuncState<'s>,
    pub outer: Vec<FuncState<'s>>,
    /// Location of each symbol, once declared.
    pub locs: Vec<Option<Loc>>,
    /// Whether each symbol is captured by a closure (or must live in an env for eval).
    pub captured: Vec<bool>,
    /// Private names in scope: (name, env level, slot) from innermost class outwards.
    pub private_names: Vec<Vec<(String, Loc)>>,
    /// Script top level: bindings are globals.
    pub global_scope: Option<ScopeId>,
    /// The program scope of non-global (direct, in-function) eval code: its var scope.
    pub eval_var_scope: Option<ScopeId>,
    /// Is this direct-eval code (its free names resolve through the caller's scopes)?
    pub eval_scope: Option<eval::EvalScope>,
    /// Sloppy eval in global code: `var`s and functions become global properties.
    pub eval_global: bool,
    /// The source has a `with` statement or a direct eval: references may need run-time
    /// lookups (see `dynamic_target`).
    pub has_dynamic_scopes: bool,
    /// Per scope: a function (or static block) scope whose own code calls `eval` (oxc's
    /// DirectEval flag also marks every scope around such a call).
    pub calls_eval: Vec<bool>,
    /// Symbols in a temporal dead zone beyond lexical ones: parameters of functions with
    /// parameter expressions (a default may not read a later parameter).
    pub tdz_params: Vec<bool>,
    /// Source offsets of the functions compiled so far. A `finally` block is compiled once
    /// per exit, so a function inside one is compiled again (see `compile_fn`).
    pub compiled_fns: std::collections::BTreeSet<u32>,
    /// The inferred name for the anonymous function expression compiled next (the right side
    /// of a member assignment): see `CodeBlock::inferred_name`.
    pub inferred_name: Option<String>,
    /// Compiling CreateDynamicFunction's `(function anonymous(…) {…})`: the outer function's
    /// name is not a binding in its body (§20.2.1.1.1), unlike a named function expression's.
    pub dynamic_function: bool,
}

/// What the passes over the program and its scoping found before compilation.
pub(crate) struct Analysis {
    pub annex_b: annex_b::AnnexB,
    /// Per scope: is it a class's scope? (oxc has no scope flag for it.)
    pub class_scopes: Vec<bool>,
    /// The body bindings of parameters redeclared in a body (`param_scope`).
    pub body_bindings: param_scope::BodyBindings,
}

/// Compile error during code generation (rare: most errors are early errors from oxc).
#[derive(Debug)]
pub(crate) struct CompileError(pub String, pub u32);

pub(crate) type CResult<T> = Result<T, CompileError>;

/// Maximum nesting the recursive compiler accepts before reporting an error, so that
/// hostile inputs cannot overflow the native stack.
const MAX_NESTING: u32 = 1500;

impl<'s, 'vm> Compiler<'s, 'vm> {
    fn new(vm: &'vm mut Vm, scoping: &'s Scoping, analysis: &'s Analysis, source: &'s str, source_id: u32) -> Self {
        let mut line_starts = vec![0u32];
        for (i, b) in source.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        let map = vm.sources.get(source_id as usize).and_then(|s| s.map.clone());
        let n = scoping.symbols_len();
        let mut captured = vec![false; n];
        compute_captures(scoping, &analysis.class_scopes, &mut captured);
        Compiler {
            vm,
            scoping,
            analysis,
            source,
            source_id,
            line_starts,
            map,
            func: FuncState::new(empty_code(FunctionKind::Script, false, source_id), 0, None),
            outer: Vec::new(),
            locs: vec![None; n],
            captured,
            private_names: Vec::new(),
            global_scope: None,
            eval_var_scope: None,
            eval_scope: None,
            eval_global: false,
            has_dynamic_scopes: (0..scoping.scopes_len()).any(|i| {
                let f = scoping.scope_flags(ScopeId::new(i));
                f.is_with() || f.contains_direct_eval()
            }),
            calls_eval: scopes_calling_eval(scoping),
            tdz_params: vec![false; n],
            compiled_fns: std::collections::BTreeSet::new(),
            inferred_name: None,
            dynamic_function: false,
        }
    }

    /// (line, column), 1-based, of a source offset; through the source's map when it was
    /// made from another text, so the position is one in that text.
    pub fn position(&self, offset: u32) -> (u32, u32) {
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts.get(line.saturating_sub(1)).copied().unwrap_or(0);
        let col = self.source.get(start as usize..offset as usize).map_or(0, |s| s.encode_utf16().count());
        let (line, column) = (line as u32, col as u32 + 1);
        match &self.map {
            Some(map) => map.original(line, column),
            None => (line, column),
        }
    }

    /// Record the source position of the next instruction.
    pub fn mark(&mut self, offset: u32) {
        let (line, col) = self.position(offset);
        let pc = self.func.code.ops.len() as u32;
        if let Some(last) = self.func.code.lines.last_mut() {
            if last.0 == pc {
                *last = (pc, line, col);
                return;
            }
        }
        self.func.code.lines.push((pc, line, col));
    }

    /// Emit `op` at the source position of `offset`, the instructions after it keeping the
    /// position before it: an `await` suspends at the `await` keyword (where V8's async stack
    /// frames point), while an error or host call after it is still placed at the call.
    pub fn mark_one(&mut self, offset: u32, op: Op) {
        let before = self.func.code.lines.last().map(|&(_, line, col)| (line, col));
        self.mark(offset);
        self.emit(op);
        if let Some((line, col)) = before {
            self.func.code.lines.push((self.pc(), line, col));
        }
    }

    // ---- emission

    pub fn emit(&mut self, op: Op) {
        match op {
            Op::Await => self.note_suspend_site(),
            // A `with` object's environment has no slots to name.
            Op::PushWithEnv => self.set_env_names(self.func.env_level + 1, Vec::new()),
            _ => {}
        }
        let (pops, pushes) = op.stack_effect();
        self.func.depth = self.func.depth.saturating_sub(pops) + pushes;
        self.func.code.ops.push(op);
    }

    pub fn pc(&self) -> u32 {
        self.func.code.ops.len() as u32
    }

    /// Replace the instructions emitted from `start` on by `fused`, which does the same with
    /// fewer dispatches. Only for a sequence one emitter produced in one piece: no label can
    /// point inside it. The fused instructions take the source position in effect at the end
    /// of the sequence (a mark made for its last instruction), so an error they throw is
    /// placed where the sequence's would have been.
    pub fn fuse_tail(&mut self, start: usize, fused: &[Op]) {
        let code = &mut self.func.code;
        let end = code.ops.len() as u32;
        let position = code.lines.iter().rev().find(|&&(pc, _, _)| pc <= end).map(|&(_, line, col)| (line, col));
        code.ops.truncate(start);
        code.ops.extend_from_slice(fused);
        let start = start as u32;
        code.lines.retain(|&(pc, _, _)| pc <= start);
        if let Some((line, col)) = position {
            match code.lines.last_mut() {
                Some(last) if last.0 == start => *last = (start, line, col),
                Some(&mut (_, l, c)) if (l, c) == (line, col) => {}
                _ => code.lines.push((start, line, col)),
            }
        }
        // The stack effect is the sequence's, so `depth` is already right.
    }

    /// Compile `test` and a jump taken when it is false; a comparison and its branch become
    /// one `JumpUnless…` instruction. Returns the jump to patch.
    pub fn compile_test_jump_if_false(&mut self, test: &'s oxc_ast::ast::Expression<'s>) -> CResult<Label> {
        self.compile_expr(test)?;
        if let oxc_ast::ast::Expression::BinaryExpression(b) = test.without_parentheses() {
            let last = self.func.code.ops.last().copied().filter(|&op| op == expr::binary_op(b.operator));
            let fused: Option<fn(u32) -> Op> = match last {
                Some(Op::Lt) => Some(Op::JumpUnlessLt),
                Some(Op::Le) => Some(Op::JumpUnlessLe),
                Some(Op::Gt) => Some(Op::JumpUnlessGt),
                Some(Op::Ge) => Some(Op::JumpUnlessGe),
                Some(Op::Eq) => Some(Op::JumpUnlessEq),
                Some(Op::Ne) => Some(Op::JumpUnlessNe),
                Some(Op::StrictEq) => Some(Op::JumpUnlessStrictEq),
                Some(Op::StrictNe) => Some(Op::JumpUnlessStrictNe),
                _ => None,
            };
            if let Some(jump) = fused {
                // The comparison is the test's last instruction (it is the test's operator):
                // drop it, leaving both operands for the fused jump.
                let at = self.func.code.ops.len() - 1;
                self.fuse_tail(at, &[]);
                self.func.depth += 1;
                return Ok(self.emit_jump(jump));
            }
        }
        Ok(self.emit_jump(Op::JumpIfFalse))
    }

    /// `x++`, `x--`, `++x`, `--x` on a register: the sequence from `start` (load, ToNumeric,
    /// step, store, and a `Dup` where the value is used) as one update instruction. `keep` is
    /// None when the value is not used, else whether the update is a prefix one.
    pub fn fuse_register_update(&mut self, start: usize, step: Op, keep: Option<bool>) {
        let inc = step == Op::Inc;
        let fused = match (self.func.code.ops.get(start..), keep) {
            (Some(&[Op::GetLocal(r), Op::ToNumeric, s, Op::SetLocal(w)]), None) if s == step && r == w => {
                vec![if inc { Op::IncLocal(r) } else { Op::DecLocal(r) }]
            }
            (Some(&[Op::GetLocal(r), Op::ToNumeric, s, Op::Dup, Op::SetLocal(w)]), Some(true))
                if s == step && r == w =>
            {
                vec![if inc { Op::IncLocal(r) } else { Op::DecLocal(r) }, Op::GetLocal(r)]
            }
            (Some(&[Op::GetLocal(r), Op::ToNumeric, Op::Dup, s, Op::SetLocal(w)]), Some(false))
                if s == step && r == w =>
            {
                vec![if inc { Op::PostIncLocal(r) } else { Op::PostDecLocal(r) }]
            }
            _ => return,
        };
        self.fuse_tail(start, &fused);
    }

    /// Emit a jump-family op with a placeholder target.
    pub fn emit_jump(&mut self, op: fn(u32) -> Op) -> Label {
        let at = self.func.code.ops.len();
        self.emit(op(u32::MAX));
        Label(at)
    }

    /// Point a forward jump here.
    pub fn patch(&mut self, label: Label) {
        let target = self.pc();
        self.patch_to(label.0, target);
    }

    pub fn patch_to(&mut self, at: usize, target: u32) {
        if let Some(op) = self.func.code.ops.get_mut(at) {
            *op = op.with_jump_target(target);
        }
    }

    pub fn constant(&mut self, v: Value) -> u32 {
        let consts = &mut self.func.code.constants;
        if let Some(i) = consts.iter().position(|&c| c == v && !v.is_string()) {
            return i as u32;
        }
        consts.push(v);
        (consts.len() - 1) as u32
    }

    pub fn string_constant(&mut self, s: &str) -> u32 {
        let js = JsStr::from_str(s);
        self.js_string_constant(js)
    }

    pub fn js_string_constant(&mut self, js: JsStr) -> u32 {
        // Reuse an equal string constant in this block.
        for (i, c) in self.func.code.constants.iter().enumerate() {
            if let Some(id) = c.as_string() {
                if *self.vm.heap.flat_ref(id) == js {
                    return i as u32;
                }
            }
        }
        let v = self.vm.js_str(js);
        self.func.code.constants.push(v);
        (self.func.code.constants.len() - 1) as u32
    }

    pub fn emit_string(&mut self, s: &str) {
        let c = self.string_constant(s);
        self.emit(Op::Const(c));
    }

    pub fn emit_number(&mut self, n: f64) {
        let v = Value::number(n);
        if let Some(i) = v.as_int() {
            self.emit(Op::Int(i));
        } else {
            let c = self.constant(v);
            self.emit(Op::Const(c));
        }
    }

    pub fn atom(&mut self, s: &str) -> Atom {
        self.vm.heap.atoms.intern_str(s)
    }

    pub fn new_ic(&mut self) -> u32 {
        self.func.code.ics.push(InlineCache::default());
        (self.func.code.ics.len() - 1) as u32
    }

    pub fn alloc_register(&mut self, name: Atom) -> u32 {
        let r = self.func.code.register_count;
        self.func.code.register_count += 1;
        self.func.code.register_names.push(name);
        r
    }

    pub fn temp(&mut self) -> u32 {
        match self.func.free_temps.pop() {
            Some(r) => r,
            None => self.alloc_register(atom::empty),
        }
    }

    pub fn free_temp(&mut self, r: u32) {
        self.func.free_temps.push(r);
    }

    pub fn add_template(&mut self, site: TemplateSite) -> u32 {
        self.func.code.templates.push(site);
        self.func.code.template_cache.push(Value::UNDEFINED);
        (self.func.code.templates.len() - 1) as u32
    }

    pub fn add_handler(&mut self, start: u32, end: u32, target: u32, depth: u32, env_depth: u32) {
        if start < end {
            self.func.code.handlers.push(Handler { start, end, target, depth, env_depth });
        }
    }

    /// Env depth of the current function relative to its entry env (for handlers).
    pub fn env_depth_in_function(&self) -> u32 {
        self.func.env_level - self.func_base_env_level()
    }

    fn func_base_env_level(&self) -> u32 {
        self.func.base_env_level
    }

    pub fn error(&self, msg: impl Into<String>, offset: u32) -> CompileError {
        CompileError(msg.into(), offset)
    }

    // ---- functions

    /// Begin compiling a nested function.
    pub fn push_function(&mut self, code: CodeBlock, is_arrow: bool, scope_id: Option<ScopeId>) {
        let level = self.func.env_level;
        let mut code = code;
        code.base_env_level = level;
        let f = FuncState::new(code, level, scope_id);
        let mut f = f;
        f.is_arrow = is_arrow;
        let outer = std::mem::replace(&mut self.func, f);
        self.outer.push(outer);
    }

    /// Finish the current function and return its code id in the heap.
    pub fn pop_function(&mut self) -> CodeId {
        let outer = self.outer.pop();
        let mut done = match outer {
            Some(o) => std::mem::replace(&mut self.func, o),
            None => {
                std::mem::replace(&mut self.func, FuncState::new(empty_code(FunctionKind::Script, false, 0), 0, None))
            }
        };
        if done.code.ops.last() != Some(&Op::Return) {
            done.code.ops.push(Op::Undefined);
            done.code.ops.push(Op::Return);
        }
        done.code.template_cache.resize(done.code.templates.len(), Value::UNDEFINED);
        done.code.realm = self.vm.current_realm;
        // The operand stack's high-water mark comes from the pass the image verifier runs, so
        // the declared maximum is exactly what the verifier will demand of this block. That
        // pass fails only on a compiler bug (debug builds stop there; a release build leaves
        // the maximum at zero, and an image of the block is refused rather than trusted).
        match crate::heap::verify::stack_depths(&done.code) {
            Ok(depths) => done.code.max_stack = depths.max,
            #[cfg(debug_assertions)]
            Err(e) => panic!("invariant: compiled code passes the image verifier: {e}\n{:?}", done.code.ops),
            #[cfg(not(debug_assertions))]
            Err(_) => {}
        }
        self.vm.heap.alloc_code(done.code)
    }

    pub fn nesting_check(&self, offset: u32) -> CResult<()> {
        if self.outer.len() as u32 > MAX_NESTING || self.func.nesting > MAX_NESTING {
            return Err(self.error("Maximum nesting depth exceeded", offset));
        }
        Ok(())
    }
}

impl FuncState<'_> {
    pub fn new(code: CodeBlock, base_env_level: u32, scope_id: Option<ScopeId>) -> Self {
        FuncState {
            code,
            depth: 0,
            free_temps: Vec::new(),
            env_level: base_env_level,
            env_names: Vec::new(),
            base_env_level,
            controls: Vec::new(),
            completion: None,
            arguments: None,
            this_env: None,
            is_arrow: false,
            scope_id,
            nesting: 0,
            globals_hoisted: false,
            using_stack: None,
            parameters: None,
            is_method: false,
            with_depth: 0,
            pattern_subject: None,
        }
    }
}

/// A blank code block.
pub(crate) fn empty_code(kind: FunctionKind, strict: bool, source_id: u32) -> CodeBlock {
    CodeBlock {
        name: atom::empty,
        inferred_name: String::new(),
        realm: 0,
        kind,
        strict,
        ops: Vec::new(),
        constants: Vec::new(),
        functions: Vec::new(),
        templates: Vec::new(),
        template_cache: Vec::new(),
        regexps: Vec::new(),
        handlers: Vec::new(),
        ics: Vec::new(),
        param_count: 0,
        length: 0,
        register_count: 0,
        max_stack: 0,
        register_names: Vec::new(),
        env_slots: 0,
        global_decls: GlobalDecls::default(),
        source_id,
        span: (0, 0),
        lines: Vec::new(),
        has_simple_params: true,
        uses_arguments: false,
        is_class_constructor: false,
        eval_sites: Vec::new(),
        suspend_sites: Vec::new(),
        error_sites: Vec::new(),
        base_env_level: 0,
        params_end: 0,
        shared: None,
    }
}

/// The function (or top-level or static-block) scope holding scope `s`.
fn function_scope_of(scoping: &Scoping, mut s: ScopeId) -> ScopeId {
    loop {
        let f = scoping.scope_flags(s);
        if f.is_function() || f.is_top() || f.is_class_static_block() {
            return s;
        }
        match scoping.scope_parent_id(s) {
            Some(p) => s = p,
            None => return s,
        }
    }
}

/// Mark symbols referenced from a function other than their own as captured; everything
/// in a function with direct eval (and its enclosing functions) is captured too.
fn compute_captures(scoping: &Scoping, class_scopes: &[bool], captured: &mut [bool]) {
    let func_of = |s: ScopeId| function_scope_of(scoping, s);
    let mut eval_funcs: Vec<ScopeId> = Vec::new();
    for i in 0..scoping.scopes_len() {
        let sid = ScopeId::new(i);
        let flags = scoping.scope_flags(sid);
        if flags.contains_direct_eval() || flags.is_with() {
            let mut s = Some(sid);
            while let Some(x) = s {
                eval_funcs.push(func_of(x));
                s = scoping.scope_parent_id(x);
            }
        }
    }
    for (i, c) in captured.iter_mut().enumerate() {
        let decl_func = func_of(scoping.symbol_scope_id(SymbolId::new(i)));
        if eval_funcs.contains(&decl_func) {
            *c = true;
        }
    }
    // A reference from inside a class to a binding outside it may come from a field
    // initialiser or a static block's helper, which the compiler makes functions of their
    // own although oxc gives initialisers no function scope.
    let crosses_class = |from: ScopeId, decl: ScopeId| {
        for s in scoping.scope_ancestors(from) {
            if s == decl || scoping.scope_flags(s).is_function() {
                return false;
            }
            if class_scopes.get(s.index()).copied().unwrap_or(false) {
                return true;
            }
        }
        false
    };
    // Walk every reference (not the per-symbol lists: shadow bindings such as catch
    // parameters are resolved without one).
    for i in 0..scoping.references_len() {
        let r = scoping.get_reference(oxc_syntax::reference::ReferenceId::new(i));
        let Some(sym) = r.symbol_id() else { continue };
        let decl = scoping.symbol_scope_id(sym);
        if func_of(r.scope_id()) != func_of(decl) || crosses_class(r.scope_id(), decl) {
            if let Some(c) = captured.get_mut(sym.index()) {
                *c = true;
            }
        }
    }
}

/// Which function (and static block) scopes contain a direct eval call outside their nested
/// functions: the scope of each `eval` reference that oxc flagged DirectEval, raised to its
/// function. (A mere mention of `eval` beside such a call counts too; that only costs speed.)
fn scopes_calling_eval(scoping: &Scoping) -> Vec<bool> {
    let mut out = vec![false; scoping.scopes_len()];
    let func_of = |s: ScopeId| function_scope_of(scoping, s);
    let mut mark = |r: oxc_syntax::reference::ReferenceId| {
        let s = scoping.get_reference(r).scope_id();
        if scoping.scope_flags(s).contains_direct_eval() {
            let f = func_of(s);
            if !scoping.scope_flags(f).is_top() {
                if let Some(x) = out.get_mut(f.index()) {
                    *x = true;
                }
            }
        }
    };
    for (name, ids) in scoping.root_unresolved_references() {
        if name.as_str() == "eval" {
            ids.iter().copied().for_each(&mut mark);
        }
    }
    for sym in scoping.symbol_ids() {
        if scoping.symbol_name(sym) == "eval" {
            scoping.get_resolved_reference_ids(sym).iter().copied().for_each(&mut mark);
        }
    }
    out
}

/// Parse and check a source text; on success call `f` with the program and scoping.
pub(crate) fn with_parsed<R>(
    source: &str,
    filename: &str,
    module: bool,
    options: ParseOptions,
    f: impl for<'x> FnOnce(&'x Program<'x>, &'x Scoping, &'x Analysis) -> Result<R, SyntaxErrorReport>,
) -> Result<R, SyntaxErrorReport> {
    with_parsed_in(source, filename, module, options, None, f)
}

/// As [`with_parsed`], for direct eval code: what the early errors of a standalone script
/// forbid but the eval call's context allows (`new.target`, `super`, the caller's private
/// names) is accepted; `arguments` in a class field initialiser's eval is rejected
/// (PerformEval steps 5-6, EvalDeclarationInstantiation's private name check).
pub(crate) fn with_parsed_in<R>(
    source: &str,
    filename: &str,
    module: bool,
    options: ParseOptions,
    eval: Option<&eval::EvalScope>,
    f: impl for<'x> FnOnce(&'x Program<'x>, &'x Scoping, &'x Analysis) -> Result<R, SyntaxErrorReport>,
) -> Result<R, SyntaxErrorReport> {
    // The front end recurses along the text's nesting: bound it first, then run on a stack
    // sized for it, whatever thread the VM is on (nesting.rs).
    let gauge = match nesting::gauge(source) {
        Ok(gauge) => gauge,
        Err(deep) => return Err(report(source, filename, "Maximum nesting depth exceeded", deep.offset)),
    };
    let stack = nesting::stack_for_gauge(gauge);
    stacker::maybe_grow(stack, stack, || parse_and_check(source, filename, module, options, eval, f))
}

fn parse_and_check<R>(
    source: &str,
    filename: &str,
    module: bool,
    options: ParseOptions,
    eval: Option<&eval::EvalScope>,
    f: impl for<'x> FnOnce(&'x Program<'x>, &'x Scoping, &'x Analysis) -> Result<R, SyntaxErrorReport>,
) -> Result<R, SyntaxErrorReport> {
    let allocator = Allocator::default();
    let source_type = if module { SourceType::mjs() } else { SourceType::script() };
    let ret = Parser::new(&allocator, source, source_type).with_options(options).parse();
    let offset_of = |d: &oxc_diagnostics::OxcDiagnostic| d.labels.first().map_or(0, |l| l.offset());
    if eval.is_none() || ret.panicked {
        if let Some(d) = ret.diagnostics.errors().next() {
            return Err(report(source, filename, &d.message, d.labels.first().map_or(0, |l| l.offset())));
        }
    }
    if ret.panicked {
        return Err(report(source, filename, "Unexpected token", 0));
    }
    // Eval code's context checks walk the AST nodes, which are otherwise not kept.
    let sem = SemanticBuilder::new().with_check_syntax_error(true).with_build_nodes(eval.is_some()).build(&ret.program);
    // Spans of the non-arrow functions of eval code: inside them `new.target` and `super`
    // are their own, not the eval call's.
    let mut functions: Vec<(u32, u32)> = Vec::new();
    if let Some(scope) = eval {
        let mut arguments_at = None;
        for node in sem.semantic.nodes().iter() {
            match node.kind() {
                oxc_ast::AstKind::Function(func) => functions.push((func.span.start, func.span.end)),
                oxc_ast::AstKind::IdentifierReference(id) if id.name.as_str() == "arguments" => {
                    arguments_at = arguments_at.or(Some(id.span.start));
                }
                _ => {}
            }
        }
        let in_function = |at: u32| functions.iter().any(|&(s, e)| s <= at && at < e);
        if scope.context & eval::IN_FIELD_INITIALIZER != 0 {
            if let Some(at) = arguments_at.filter(|&at| !in_function(at)) {
                return Err(report(
                    source,
                    filename,
                    "'arguments' is not allowed in class field initializer or static initialization block",
                    at,
                ));
            }
        }
        let allowed = |d: &oxc_diagnostics::OxcDiagnostic| -> bool {
            let message = d.message.as_ref();
            let at = offset_of(d);
            if let Some(name) = message
                .strip_prefix("Private identifier '")
                .and_then(|m| m.strip_suffix("' is not allowed outside class bodies"))
            {
                return scope.lookup(name).is_some();
            }
            if in_function(at) {
                return false;
            }
            let needs = if message == "Unexpected new.target expression" {
                eval::NEW_TARGET
            } else if message.starts_with("'super' can only be referenced in members") {
                eval::SUPER_PROPERTY
            } else if message.starts_with("Super calls are not permitted outside constructors") {
                eval::SUPER_CALL
            } else {
                return false;
            };
            scope.context & needs != 0
        };
        if let Some(d) = ret.diagnostics.errors().chain(sem.diagnostics.errors()).find(|d| !allowed(d)) {
            return Err(report(source, filename, &d.message, offset_of(d)));
        }
    } else if let Some(d) = sem.diagnostics.errors().next() {
        return Err(report(source, filename, &d.message, d.labels.first().map_or(0, |l| l.offset())));
    }
    let mut scoping = sem.semantic.into_scoping();
    let annex_b = annex_b::resolve(&ret.program, &mut scoping);
    let class_scopes = class_binding::resolve(&ret.program, &mut scoping);
    arguments_refs::resolve(&mut scoping);
    let body_bindings = param_scope::resolve(&ret.program, &mut scoping);
    let analysis = Analysis { annex_b, class_scopes, body_bindings };
    f(&ret.program, &scoping, &analysis)
}

/// A SyntaxError report for byte `offset` of `source`, with its line for the caret (also used
/// by the TypeScript loader, whose errors point into the TypeScript text).
pub fn report(source: &str, filename: &str, message: &str, offset: u32) -> SyntaxErrorReport {
    let offset = (offset as usize).min(source.len());
    let offset = (0..=offset).rev().find(|&i| source.is_char_boundary(i)).unwrap_or(0);
    let before = &source[..offset];
    let line = before.matches('\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    let column = source[line_start..offset].chars().count() as u32 + 1;
    let line_end = source[line_start..].find('\n').map_or(source.len(), |p| line_start + p);
    SyntaxErrorReport {
        message: message.to_string(),
        filename: filename.to_string(),
        line,
        column,
        source_line: source[line_start..line_end].trim_end_matches('\r').to_string(),
    }
}

/// Register a source text with the VM; returns its id.
pub(crate) fn add_source(vm: &mut Vm, name: &str, text: &str) -> u32 {
    add_mapped_source(vm, name, text, None)
}

/// Register a source text made from another text (see [`crate::source_map`]).
pub(crate) fn add_mapped_source(
    vm: &mut Vm,
    name: &str,
    text: &str,
    map: Option<crate::source_map::PositionMap>,
) -> u32 {
    // A text that is a lower-layer file byte for byte (an ES module, a script read from the
    // VFS) is named by hash in images.
    let lower =
        vm.vfs.peek_lower_file(name).filter(|&(_, size)| size == text.len() as u64).and_then(|(sha256, size)| {
            (crate::vfs::lower::sha256(text.as_bytes()) == sha256).then_some(crate::heap::source::LowerSpan {
                sha256,
                start: 0,
                len: u32::try_from(size).ok()?,
            })
        });
    vm.sources.push(Source { name: name.to_string(), text: text.to_string(), map, lower, code: None });
    (vm.sources.len() - 1) as u32
}

/// Parser options: regular expression literals are parsed so invalid patterns are early
/// errors, as the spec requires.
pub(crate) fn parse_options() -> ParseOptions {
    ParseOptions { parse_regular_expression: true, ..ParseOptions::default() }
}

/// Compile a script (global code) into a code block.
pub fn compile_script(vm: &mut Vm, source: &str, filename: &str) -> Result<CodeId, SyntaxErrorReport> {
    compile_mapped_script(vm, source, filename, None)
}

/// [`compile_script`] of a text made from another (TypeScript): positions are `map`'s.
pub fn compile_mapped_script(
    vm: &mut Vm,
    source: &str,
    filename: &str,
    map: Option<crate::source_map::PositionMap>,
) -> Result<CodeId, SyntaxErrorReport> {
    let source_id = add_mapped_source(vm, filename, source, map);
    compile_added_script(vm, source, filename, source_id)
}

/// [`compile_script`] of a text whose bytes from `lower_start` on are the lower-layer file at
/// `filename` (a CommonJS module inside its wrapper): the code is kept as a code blob
/// (`heap/code_blob.rs`) as for a text that is the file itself.
pub fn compile_lower_script(
    vm: &mut Vm,
    source: &str,
    filename: &str,
    lower_start: usize,
) -> Result<CodeId, SyntaxErrorReport> {
    let source_id = add_source(vm, filename, source);
    vm.mark_lower_span(filename, lower_start);
    compile_added_script(vm, source, filename, source_id)
}

fn compile_added_script(
    vm: &mut Vm,
    source: &str,
    filename: &str,
    source_id: u32,
) -> Result<CodeId, SyntaxErrorReport> {
    let root = with_parsed(source, filename, false, parse_options(), |program, scoping, analysis| {
        let mut c = Compiler::new(vm, scoping, analysis, source, source_id);
        c.compile_program(program, FunctionKind::Script).map_err(|e| report(source, filename, &e.0, e.1))
    })?;
    seal_code_blob(vm, source_id, root);
    Ok(root)
}

/// When source `source_id` has a lower span, writes the code compiled from it (the tree under
/// `root`) as a code blob (`heap/code_blob.rs`): numbers each block's place, names the blob
/// on the source and queues its bytes for the embedder ([`Vm::take_code_blobs`]). A blob that
/// cannot be written leaves the code to ride images as before.
pub(crate) fn seal_code_blob(vm: &mut Vm, source_id: u32, root: CodeId) {
    let Some(source) = vm.sources.get(source_id as usize) else { return };
    if source.lower.is_none() || source.code.is_some() {
        return;
    }
    let text_sha256 = crate::vfs::lower::sha256(source.text.as_bytes());
    let Some(tree) = crate::heap::code_blob::tree(&vm.heap, root) else { return };
    if tree.iter().any(|&id| vm.heap.code(id).source_id != source_id || vm.heap.code(id).shared.is_some()) {
        return;
    }
    for (i, &id) in tree.iter().enumerate() {
        vm.heap.code_mut(id).shared = Some(i as u32);
    }
    let codes: Vec<&CodeBlock> = tree.iter().map(|&id| vm.heap.code(id)).collect();
    match crate::heap::code_blob::encode(&vm.heap.atoms, &codes, text_sha256) {
        Ok(bytes) => {
            let hash = crate::vfs::lower::sha256(&bytes);
            if let Some(source) = vm.sources.get_mut(source_id as usize) {
                source.code = Some(hash);
            }
            vm.code_blobs.push((hash, bytes.into()));
        }
        Err(_) => {
            for &id in &tree {
                vm.heap.code_mut(id).shared = None;
            }
        }
    }
}

/// Compile the source text CreateDynamicFunction builds (`(function anonymous(…) {…})`, the
/// `Function` family of constructors) as a script whose completion value is the function.
pub fn compile_dynamic_function(vm: &mut Vm, source: &str, filename: &str) -> Result<CodeId, SyntaxErrorReport> {
    let source_id = add_source(vm, filename, source);
    with_parsed(source, filename, false, parse_options(), |program, scoping, analysis| {
        let mut c = Compiler::new(vm, scoping, analysis, source, source_id);
        c.dynamic_function = true;
        c.compile_program(program, FunctionKind::Script).map_err(|e| report(source, filename, &e.0, e.1))
    })
}

/// The symbol flags of a lexical declaration: `let`, `const`, `class`.
pub(crate) const LEXICAL: oxc_syntax::symbol::SymbolFlags = oxc_syntax::symbol::SymbolFlags::BlockScopedVariable
    .union(oxc_syntax::symbol::SymbolFlags::ConstVariable)
    .union(oxc_syntax::symbol::SymbolFlags::Class);

impl<'s> Compiler<'s, '_> {
    /// Global code: GlobalDeclarationInstantiation, then the statements; returns the
    /// completion value.
    pub(crate) fn compile_program(&mut self, program: &'s Program<'s>, kind: FunctionKind) -> CResult<CodeId> {
        // Eval code of a strict caller arrives already strict (`compile_eval`).
        let strict = self.func.code.strict
            || program.source_type.is_module()
            || program.directives.iter().any(|d| d.directive.as_str() == "use strict");
        self.func.code.kind = kind;
        self.func.code.strict = strict;
        self.func.code.span = (program.span.start, program.span.end);
        let scope = program.scope_id.get();
        let global_code = kind == FunctionKind::Script || (kind == FunctionKind::Eval && self.eval_global);
        if global_code {
            self.global_scope = scope;
        } else if kind == FunctionKind::Eval {
            self.eval_var_scope = scope;
        }
        let completion = self.alloc_register(atom::empty);
        self.func.completion = Some(completion);
        if let Some(scope) = scope {
            if global_code {
                self.collect_global_decls(program, scope, kind == FunctionKind::Eval);
                self.emit(Op::DeclareGlobals);
            } else {
                if !strict {
                    self.bind_eval_vars(scope)?;
                }
                let slots = self.declare_scope(scope, self.func.env_level + 1);
                if slots > 0 {
                    self.emit(Op::PushEnv(slots));
                    self.func.env_level += 1;
                }
                self.init_tdz(scope);
            }
            self.hoist_functions(&program.body, false)?;
        }
        // A directive prologue is made of expression statements: the last one's string is
        // the completion value when nothing follows (`eval('"use strict"')`).
        if let Some(d) = program.directives.last() {
            let js = expr::string_literal_units(d.expression.value.as_str(), d.expression.lone_surrogates);
            let c = self.js_string_constant(js);
            self.emit(Op::Const(c));
            self.emit(Op::SetLocal(completion));
        }
        for stmt in &program.body {
            self.compile_statement(stmt)?;
        }
        self.emit(Op::GetLocal(completion));
        self.emit(Op::Return);
        Ok(self.pop_function())
    }

    fn collect_global_decls(&mut self, program: &'s Program<'s>, scope: ScopeId, eval: bool) {
        use oxc_syntax::symbol::SymbolFlags;
        let mut syms: Vec<SymbolId> = self.scoping.iter_bindings_in(scope).collect();
        syms.sort();
        let decls = GlobalDecls::default();
        let function_names: Vec<String> = program
            .body
            .iter()
            .filter_map(|s| match s {
                oxc_ast::ast::Statement::FunctionDeclaration(f) => f.id.as_ref().map(|i| i.name.to_string()),
                _ => None,
            })
            .collect();
        let mut decls = GlobalDecls { configurable: eval, ..decls };
        let mut annex_b_vars = Vec::new();
        if !self.func.code.strict {
            self.annex_b_hoisted_names(&program.body, &mut annex_b_vars);
        }
        // Eval code's lexical declarations are local to the eval: registers, or slots of an
        // environment pushed first (so eval'd functions, created next, close over it).
        let level = self.func.env_level + 1;
        let mut env_slots = 0;
        for &s in &syms {
            let flags = self.scoping.symbol_flags(s);
            if eval && flags.intersects(SymbolFlags::BlockScopedVariable | SymbolFlags::Class) {
                let name = self.scoping.symbol_name(s).to_string();
                let a = self.atom(&name);
                if self.captured[s.index()] {
                    self.locs[s.index()] = Some(Loc::Env { level, slot: env_slots });
                    env_slots += 1;
                } else {
                    // In its TDZ until the declaration runs (env slots start out so).
                    let r = self.alloc_register(a);
                    self.locs[s.index()] = Some(Loc::Register(r));
                    self.emit(Op::Empty);
                    self.emit(Op::SetLocal(r));
                }
            }
        }
        if env_slots > 0 {
            self.emit(Op::PushEnv(env_slots));
            self.func.env_level = level;
        }
        for s in syms {
            let name = self.scoping.symbol_name(s).to_string();
            let a = self.atom(&name);
            let flags = self.scoping.symbol_flags(s);
            if eval && flags.intersects(SymbolFlags::BlockScopedVariable | SymbolFlags::Class) {
                continue;
            }
            self.locs[s.index()] = Some(Loc::Global(a));
            if flags.contains(SymbolFlags::ConstVariable) {
                decls.consts.push(a);
            } else if flags.intersects(SymbolFlags::BlockScopedVariable | SymbolFlags::Class) {
                decls.lets.push(a);
            } else if function_names.contains(&name) {
                // Functions are declared (with their closures) by DeclareGlobals.
            } else if flags.contains(SymbolFlags::Function) && !annex_b_vars.contains(&name.as_str()) {
                // Hoisted for block-level functions that Annex B.3.3 may not hoist after all.
            } else {
                decls.vars.push(a);
            }
        }
        // Top-level function declarations: the last declaration of a name wins.
        let mut seen: Vec<String> = Vec::new();
        for stmt in program.body.iter().rev() {
            if let oxc_ast::ast::Statement::FunctionDeclaration(f) = stmt {
                if let Some(id) = &f.id {
                    let n = id.name.to_string();
                    if seen.contains(&n) {
                        continue;
                    }
                    seen.push(n.clone());
                    let a = self.atom(&n);
                    if let Ok(idx) = self.compile_function(f, Some(a)) {
                        decls.functions.push((a, idx));
                    }
                }
            }
        }
        decls.functions.reverse();
        self.func.code.global_decls = decls;
        self.func.globals_hoisted = true;
    }
}
