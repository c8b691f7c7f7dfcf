//! `eval`: indirect eval compiles global code; direct eval compiles code that sees the
//! caller's bindings. Every binding of a function containing direct eval (and of the functions
//! around it) lives in an environment; each `CallEval` site records the slots visible there
//! ([`EvalSite`]), so eval code addresses them by level and slot, looking through `with`
//! objects and var bags on the way at run time (`Op::GetNameEnv`).
//!
//! Sloppy direct eval in a function declares its `var`s and functions in the caller's
//! variable environment (EvalDeclarationInstantiation): a name that environment binds already
//! is reused, any other goes into the environment's var bag (an object consulted by name,
//! `Env::eval_vars`), which the caller's references to names it cannot resolve statically
//! look through (`Compiler::dynamic_target`).
//!
//! Eval code is parsed as a script, so the early errors of its context are decided here: the
//! site records whether `new.target`, `super.x` and `super()` are valid where it is and if it
//! is in a class field initialiser (`with_parsed_in` then accepts them, or rejects
//! `arguments`); the caller's private names are among its visible names.
//!
//! Known gaps: parameters and body `var`s of a function with parameter expressions share one
//! environment, so a closure in a parameter initialiser that names a body `var` sees that
//! binding (the spec hides body `var`s from the parameters) instead of a `var` an eval in the
//! parameters declared. Sloppy direct eval inside a block of script-level code keeps its
//! `var`s in the eval's own environment instead of making them global properties. Eval code
//! of a strict caller is compiled from a sloppy parse (its early errors are checked strictly,
//! see `check_strict_early_errors`).

use oxc_parser::ParseOptions;

use super::{add_source, report, with_parsed_in, Compiler};
use crate::atoms::Atom;
use oxc_syntax::scope::ScopeId;
use oxc_syntax::symbol::SymbolId;

use super::{CResult, Loc};
use crate::atoms::atom;
use crate::bytecode::Op;
use crate::bytecode::{EvalBindingKind, EvalName, EvalSite, FunctionKind};
use crate::error::{JsResult, Throw};
use crate::value::Value;
use crate::vm::Vm;

/// A caller's binding visible to direct eval code.
#[derive(Clone, Debug)]
pub struct ScopeName {
    pub name: String,
    pub level: u32,
    pub slot: u32,
    pub kind: EvalBindingKind,
}

/// [`EvalScope::context`] bits: the eval call is in a function (`new.target` is valid)…
pub const NEW_TARGET: u8 = 1;
/// …in a method (`super.x`)…
pub const SUPER_PROPERTY: u8 = 2;
/// …in a derived class constructor (`super()`)…
pub const SUPER_CALL: u8 = 4;
/// …in a class field initialiser (`arguments` is a SyntaxError).
pub const IN_FIELD_INITIALIZER: u8 = 8;

/// What direct eval code sees of its caller (from the call site's [`EvalSite`]).
#[derive(Clone, Debug, Default)]
pub struct EvalScope {
    /// Innermost first.
    pub names: Vec<ScopeName>,
    /// Env level current at the call: the eval code's outermost environment.
    pub base_level: u32,
    /// Sloppy eval code's `var`s join the caller's variable environment at this level.
    pub var_level: Option<u32>,
    /// [`NEW_TARGET`] and its siblings.
    pub context: u8,
}

impl EvalScope {
    pub fn lookup(&self, name: &str) -> Option<&ScopeName> {
        self.names.iter().find(|n| n.name == name)
    }
}

fn compile_eval(
    vm: &mut Vm,
    source: &str,
    strict_caller: bool,
    scope: Option<EvalScope>,
    in_parameters: bool,
) -> Result<crate::heap::CodeId, crate::error::SyntaxErrorReport> {
    let options = ParseOptions { allow_return_outside_function: false, ..super::parse_options() };
    let context = scope.clone();
    if strict_caller {
        check_strict_early_errors(source, options, context.as_ref())?;
    }
    let source_id = add_source(vm, "<eval>", source);
    with_parsed_in(source, "<eval>", false, options, context.as_ref(), |program, scoping, analysis| {
        let strict = strict_caller || program.directives.iter().any(|d| d.directive.as_str() == "use strict");
        // EvalDeclarationInstantiation: sloppy eval code in a parameter initialiser may not
        // declare a `var` (or function) named `arguments`.
        if in_parameters && !strict {
            if let Some(root) = program.scope_id.get() {
                let declares_arguments = scoping.iter_bindings_in(root).any(|b| {
                    scoping.symbol_name(b) == "arguments"
                        && scoping.symbol_flags(b).intersects(
                            oxc_syntax::symbol::SymbolFlags::FunctionScopedVariable
                                | oxc_syntax::symbol::SymbolFlags::Function,
                        )
                });
                if declares_arguments {
                    return Err(report(
                        source,
                        "<eval>",
                        "eval code in a parameter initializer cannot declare 'arguments'",
                        0,
                    ));
                }
            }
        }
        let mut c = Compiler::new(vm, scoping, analysis, source, source_id);
        c.func.code.strict = strict;
        let kind = FunctionKind::Eval;
        c.eval_global = scope.is_none() && !strict;
        if let Some(s) = scope {
            c.func.env_level = s.base_level;
            c.func.base_env_level = s.base_level;
            c.eval_scope = Some(s);
        }
        c.compile_program(program, kind).map_err(|e| report(source, "<eval>", &e.0, e.1))
    })
}

/// Eval code of a strict caller is strict code, but the parser only knows strictness from a
/// directive: check the source again under one for the strict-only early errors (reserved
/// words, `with`, legacy octals…), reporting positions in the original text.
fn check_strict_early_errors(
    source: &str,
    options: ParseOptions,
    context: Option<&EvalScope>,
) -> Result<(), crate::error::SyntaxErrorReport> {
    const DIRECTIVE: &str = "'use strict';";
    // A hashbang comment must stay first: the directive goes at the start of the next line.
    let (at, line) = if source.starts_with("#!") {
        match source.char_indices().find(|&(_, c)| matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')) {
            Some((i, c)) => (i + c.len_utf8() + usize::from(source[i..].starts_with("\r\n")), 2),
            None => return Ok(()),
        }
    } else {
        (0, 1)
    };
    let (head, tail) = source.split_at(at);
    let prefixed = format!("{head}{DIRECTIVE}{tail}");
    with_parsed_in(&prefixed, "<eval>", false, options, context, |_, _, _| Ok(())).map_err(|mut e| {
        if e.line == line {
            e.column = e.column.saturating_sub(DIRECTIVE.len() as u32).max(1);
            e.source_line = tail.lines().next().unwrap_or("").to_string();
        }
        e
    })
}

/// Indirect eval (`(0, eval)(src)`, `globalThis.eval`): global code.
pub fn indirect_eval(vm: &mut Vm, arg: Value) -> JsResult<Value> {
    let Some(s) = arg.as_string() else { return Ok(arg) };
    let text = vm.heap.flat(s).to_rust_string();
    let code = match compile_eval(vm, &text, false, None, false) {
        Ok(c) => c,
        Err(e) => return Err(vm.syntax_error(e.message)),
    };
    crate::interp::run_code(vm, code, None, Value::object(vm.global), Value::UNDEFINED, Value::UNDEFINED)
}

/// Direct eval from the top frame: the code sees the caller's scope, `this` and
/// `new.target`.
pub fn direct_eval(vm: &mut Vm, arg: Value) -> JsResult<Value> {
    let Some(s) = arg.as_string() else { return Ok(arg) };
    let text = vm.heap.flat(s).to_rust_string();
    let Some(frame) = vm.frames.last() else { return Err(Throw::Value(Value::UNDEFINED)) };
    let (code_id, env, this, callee, new_target, env_depth, pc) =
        (frame.code, frame.env, frame.this, frame.callee, frame.new_target, frame.env_depth, frame.pc);
    let caller = vm.heap.code(code_id);
    let strict = caller.strict;
    let in_parameters = pc < caller.params_end;
    let global_caller = matches!(caller.kind, FunctionKind::Script) && env.is_none();
    let scope = if global_caller {
        None
    } else {
        let site = caller.eval_sites.iter().find(|s| s.pc.checked_add(1) == Some(pc)).cloned();
        // Every CallEval the compiler emits has a site; without one the eval code sees
        // nothing of its caller but its environment depth.
        let level = caller.base_env_level + u32::from(caller.env_slots > 0) + env_depth;
        let site =
            site.unwrap_or(crate::bytecode::EvalSite { pc, level, var_level: None, names: Vec::new(), context: 0 });
        let names = site
            .names
            .iter()
            .map(|n| ScopeName { name: name_of(vm, n.name), level: n.level, slot: n.slot, kind: n.kind })
            .collect();
        Some(EvalScope { names, base_level: site.level, var_level: site.var_level, context: site.context })
    };
    let code = match compile_eval(vm, &text, strict, scope, in_parameters) {
        Ok(c) => c,
        Err(e) => return Err(vm.syntax_error(e.message)),
    };
    crate::interp::run_code(vm, code, env, this, callee, new_target)
}

fn name_of(vm: &Vm, a: Atom) -> String {
    vm.heap.atoms.get(a).to_rust_string()
}

impl Compiler<'_, '_> {
    /// EvalDeclarationInstantiation for sloppy eval code in a function: its `var` and
    /// function names join the caller's variable environment. A name the caller declares
    /// lexically between the call and that environment is a SyntaxError (step 3.d); one the
    /// environment binds already is reused; any other goes into its var bag.
    pub(crate) fn bind_eval_vars(&mut self, scope: ScopeId) -> CResult<()> {
        use oxc_syntax::symbol::SymbolFlags;
        let Some(var_level) = self.eval_scope.as_ref().and_then(|e| e.var_level) else { return Ok(()) };
        let mut syms: Vec<SymbolId> = self
            .scoping
            .iter_bindings_in(scope)
            .filter(|&s| {
                let flags = self.scoping.symbol_flags(s);
                flags.intersects(SymbolFlags::FunctionScopedVariable | SymbolFlags::Function)
                    && !flags.intersects(super::LEXICAL)
            })
            .collect();
        syms.sort();
        let depth = u16::try_from(self.func.env_level.saturating_sub(var_level)).unwrap_or(u16::MAX);
        for sym in syms {
            let name = self.scoping.symbol_name(sym);
            let mut loc = None;
            let caller_names = self.eval_scope.as_ref().map(|e| e.names.as_slice()).unwrap_or_default();
            for n in caller_names.iter().filter(|n| n.name == name && n.level >= var_level) {
                match n.kind {
                    EvalBindingKind::Lexical | EvalBindingKind::Const => {
                        let offset = self.scoping.symbol_span(sym).start;
                        return Err(self.error(format!("Identifier '{name}' has already been declared"), offset));
                    }
                    // Annex B.3.4: a `var` may share a simple catch parameter's name.
                    EvalBindingKind::CatchParameter => {}
                    EvalBindingKind::Var if n.level == var_level => {
                        loc = Some(Loc::Env { level: n.level, slot: n.slot });
                        break;
                    }
                    EvalBindingKind::Var | EvalBindingKind::FunctionName => {}
                }
            }
            let a = self.atom(name);
            let loc = loc.unwrap_or(Loc::EvalVar(a));
            if let Loc::EvalVar(name) = loc {
                self.emit(Op::DeclareEvalVar { name, depth });
            }
            self.locs[sym.index()] = Some(loc);
        }
        Ok(())
    }

    /// Record what the direct eval call at `pc` may see: every binding in an env slot on the
    /// scope chain of the call (the caller's own, its enclosing functions', and for eval code
    /// its caller's), and where sloppy eval code's `var`s go.
    pub(crate) fn record_eval_site(&mut self, callee: &oxc_ast::ast::Expression, pc: u32) {
        use oxc_syntax::symbol::SymbolFlags;
        let oxc_ast::ast::Expression::Identifier(id) = callee else { return };
        let Some(r) = id.reference_id.get() else { return };
        let scope = self.scoping.get_reference(r).scope_id();
        let var_scope = self.function_scope_of(scope);
        let mut names = Vec::new();
        let ancestors: Vec<ScopeId> = self.scoping.scope_ancestors(scope).collect();
        for s in ancestors {
            let in_block = s != var_scope && self.function_scope_of(s) == var_scope;
            let mut syms: Vec<SymbolId> = self.scoping.iter_bindings_in(s).collect();
            syms.sort();
            let in_parameters = if Some(s) == self.func.scope_id { self.func.parameters.clone() } else { None };
            // Eval code in the body sees the body's binding of a redeclared parameter's name
            // (param_scope.rs: it is not in the scope's binding table).
            for sym in &mut syms {
                let pairs = self.analysis.body_bindings.pairs_seen_at(s, id.span);
                if let Some(&(_, body)) = pairs.iter().find(|(param, _)| param == sym) {
                    *sym = body;
                }
            }
            for sym in syms {
                if in_parameters.as_ref().is_some_and(|p| !p.contains(&sym)) {
                    continue;
                }
                let Some(Loc::Env { level, slot }) = self.locs[sym.index()] else { continue };
                let flags = self.scoping.symbol_flags(sym);
                // Eval code in a parameter initialiser declares its `var`s outside the
                // parameters' environment (FunctionDeclarationInstantiation step 20), so a
                // parameter of the same name is a clash, as a lexical binding would be.
                let kind = if in_parameters.is_some() {
                    EvalBindingKind::Lexical
                } else if flags.contains(SymbolFlags::ConstVariable) {
                    EvalBindingKind::Const
                } else if flags.intersects(super::LEXICAL) || (in_block && flags.contains(SymbolFlags::Function)) {
                    EvalBindingKind::Lexical
                } else if flags.contains(SymbolFlags::CatchVariable) {
                    EvalBindingKind::CatchParameter
                } else if flags.contains(SymbolFlags::FunctionExpression) {
                    EvalBindingKind::FunctionName
                } else {
                    EvalBindingKind::Var
                };
                let name = self.atom(self.scoping.symbol_name(sym));
                names.push(EvalName { name, level, slot, kind });
            }
            if Some(s) == self.func.scope_id && !self.func.is_arrow {
                if let Some(Loc::Env { level, slot }) = self.func.arguments {
                    names.push(EvalName { name: atom::arguments, level, slot, kind: EvalBindingKind::Var });
                }
            }
        }
        let privates: Vec<(String, Loc)> = self.private_names.iter().rev().flatten().cloned().collect();
        for (n, loc) in privates {
            if let Loc::Env { level, slot } = loc {
                let name = self.atom(&format!("#{n}"));
                names.push(EvalName { name, level, slot, kind: EvalBindingKind::Const });
            }
        }
        let mut var_level = None;
        if !self.func.code.strict {
            if Some(var_scope) == self.func.scope_id && self.func.code.env_slots > 0 {
                var_level = Some(self.func.base_env_level + 1);
            } else if Some(var_scope) == self.eval_var_scope && self.outer.is_empty() {
                var_level = self.eval_scope.as_ref().and_then(|e| e.var_level);
            }
        }
        if let Some(outer) = &self.eval_scope {
            let outer: Vec<(String, u32, u32, EvalBindingKind)> =
                outer.names.iter().map(|n| (n.name.clone(), n.level, n.slot, n.kind)).collect();
            for (n, level, slot, kind) in outer {
                let name = self.atom(&n);
                names.push(EvalName { name, level, slot, kind });
            }
        }
        let level = self.func.env_level;
        let context = self.eval_context();
        self.func.code.eval_sites.push(EvalSite { pc, level, var_level, names, context });
    }

    /// What eval code called here may contain: decided by the nearest non-arrow function.
    fn eval_context(&self) -> u8 {
        let f = std::iter::once(&self.func).chain(self.outer.iter().rev()).find(|f| !f.is_arrow);
        let Some(f) = f else { return 0 };
        match f.code.kind {
            FunctionKind::Script | FunctionKind::Module => 0,
            FunctionKind::Eval => self.eval_scope.as_ref().map_or(0, |e| e.context),
            FunctionKind::FieldInit if f.scope_id.is_none() => NEW_TARGET | SUPER_PROPERTY | IN_FIELD_INITIALIZER,
            FunctionKind::FieldInit => NEW_TARGET | SUPER_PROPERTY,
            FunctionKind::DerivedConstructor => NEW_TARGET | SUPER_PROPERTY | SUPER_CALL,
            _ if f.is_method => NEW_TARGET | SUPER_PROPERTY,
            _ => NEW_TARGET,
        }
    }
}
