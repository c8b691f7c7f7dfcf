//! `eval`: indirect eval compiles global code; direct eval compiles code that sees the
//! caller's bindings (every binding of a function containing direct eval lives in an
//! environment, so the eval code addresses them by level and slot).
//!
//! Known gap: `var` declarations made by sloppy direct eval inside a function stay local to
//! the eval code instead of joining the caller's variable environment.

use oxc_parser::ParseOptions;

use super::{add_source, report, with_parsed, Compiler};
use crate::atoms::Atom;
use crate::bytecode::FunctionKind;
use crate::error::{JsResult, Throw};
use crate::value::Value;
use crate::vm::Vm;

/// Names visible to direct eval code: (name, absolute env level, slot), innermost first.
#[derive(Clone, Debug, Default)]
pub struct EvalScope {
    pub names: Vec<(String, u32, u32)>,
    pub base_level: u32,
}

impl EvalScope {
    pub fn lookup(&self, name: &str) -> Option<(u32, u32)> {
        self.names.iter().find(|(n, _, _)| n == name).map(|&(_, l, s)| (l, s))
    }
}

fn compile_eval(
    vm: &mut Vm,
    source: &str,
    strict_caller: bool,
    scope: Option<EvalScope>,
    in_parameters: bool,
) -> Result<crate::heap::CodeId, crate::error::SyntaxErrorReport> {
    let source_id = add_source(vm, "<eval>", source);
    let options = ParseOptions { allow_return_outside_function: false, ..super::parse_options() };
    with_parsed(source, "<eval>", false, options, |program, scoping| {
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
        let mut c = Compiler::new(vm, scoping, source, source_id);
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
        let current_level = caller.base_env_level + u32::from(caller.env_slots > 0) + env_depth;
        let mut names: Vec<(String, u32, u32)> = Vec::new();
        // Slots are numbered in declaration order per level; the caller's table lists them.
        let mut per_level: std::collections::BTreeMap<u32, u32> = std::collections::BTreeMap::new();
        for &(level, atom) in &caller.env_names {
            let slot = per_level.entry(level).or_insert(0);
            if level <= current_level {
                names.push((name_of(vm, atom), level, *slot));
            }
            *slot += 1;
        }
        names.reverse();
        Some(EvalScope { names, base_level: current_level })
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
