//! Node's REPL semantics over one realm (`amber repl`): how an input line becomes a script
//! ([`prepare`]: `{a:1}` as an object literal, top-level `await`), and the REPL's globals
//! ([`install`]: `require` relative to the working directory, `_`, `_error`).
//!
//! Node does the same in `lib/repl.js` and `lib/internal/repl/await.js`: an input that starts
//! with `{` (and does not end with `;`) is tried in parentheses first; an input with `await`
//! outside any function is rewritten into an async arrow function that is called at once —
//! its top-level declarations hoisted out of it (so what `const x = await p` binds, the next
//! input sees) and its last expression statement returned.

use amber_engine::error::JsResult;
use amber_engine::runtime::call::call;
use amber_engine::runtime::property::get;
use amber_engine::{Value, Vm};
use oxc_allocator::Allocator;
use oxc_ast::ast::{
    ArrowFunctionExpression, AwaitExpression, BindingPattern, Expression, ForOfStatement, Function, Statement,
    VariableDeclarationKind,
};
use oxc_ast_visit::{walk, Visit};
use oxc_parser::Parser;
use oxc_semantic::ScopeFlags;
use oxc_span::{GetSpan, SourceType};

/// The VM host value holding the REPL's helper object ([`install`]).
const HELPER: &str = "node:repl";

/// One input, ready to evaluate as a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    /// The script to evaluate.
    pub code: String,
    /// The script's value is a promise of the input's value (it awaits at top level).
    pub awaited: bool,
}

/// The script an input line runs as. An input that parses neither way is returned as it is,
/// so that evaluating it reports its own syntax error (an unfinished one: more input follows).
pub fn prepare(input: &str) -> Prepared {
    let trimmed = input.trim();
    let mut candidates = Vec::new();
    if trimmed.starts_with('{') && !trimmed.ends_with(';') {
        candidates.push(format!("({trimmed})\n"));
    }
    candidates.push(input.to_string());
    for code in &candidates {
        // `await [x]` is also a script (a member of a variable named `await`): Node, too,
        // looks for top-level `await` first.
        if code.contains("await") {
            if let Some(code) = rewrite_await(code) {
                return Prepared { code, awaited: true };
            }
        }
        if parses(code) {
            return Prepared { code: code.clone(), awaited: false };
        }
    }
    Prepared { code: input.to_string(), awaited: false }
}

fn parses(code: &str) -> bool {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, code, SourceType::script()).parse();
    !parsed.panicked && parsed.diagnostics.errors().next().is_none()
}

const PREFIX: &str = "(async () => {\n";
const SUFFIX: &str = "\n})()";

/// `code` with top-level `await` as a script whose value is the promise of `code`'s value,
/// or None if `code` is no valid body of an async function.
fn rewrite_await(code: &str) -> Option<String> {
    let wrapped = format!("{PREFIX}{code}{SUFFIX}");
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, &wrapped, SourceType::script()).parse();
    if parsed.panicked || parsed.diagnostics.errors().next().is_some() {
        return None;
    }
    let Some(Statement::ExpressionStatement(outer)) = parsed.program.body.first() else { return None };
    let Expression::CallExpression(called) = &outer.expression else { return None };
    let Expression::ParenthesizedExpression(paren) = &called.callee else { return None };
    let Expression::ArrowFunctionExpression(arrow) = &paren.expression else { return None };
    let oxc_ast::ast::ArrowFunctionBody::FunctionBody(body) = &arrow.body else { return None };
    let body = &body.statements;
    let mut finder = TopLevelAwait { found: false };
    for statement in body {
        finder.visit_statement(statement);
    }
    if !finder.found {
        return None;
    }
    let text = |span: oxc_span::Span| &wrapped[span.start as usize..span.end as usize];
    // (start, end, replacement) in the wrapped text, in order.
    let mut edits: Vec<(u32, u32, String)> = Vec::new();
    let mut hoisted = String::new();
    for (i, statement) in body.iter().enumerate() {
        let span = statement.span();
        match statement {
            Statement::VariableDeclaration(declaration) => {
                let keyword = match declaration.kind {
                    VariableDeclarationKind::Var => "var",
                    VariableDeclarationKind::Let | VariableDeclarationKind::Const => "let",
                    // `using` disposes at the end of its block: it stays inside.
                    _ => continue,
                };
                let mut assignments = Vec::new();
                for declarator in &declaration.declarations {
                    for name in declarator.id.get_binding_identifiers() {
                        hoisted.push_str(&format!("{keyword} {};\n", name.name));
                    }
                    if let Some(init) = &declarator.init {
                        let target = text(declarator.id.span());
                        let target = match &declarator.id {
                            BindingPattern::ObjectPattern(_) => format!("({target}"),
                            _ => target.to_string(),
                        };
                        let close = if matches!(declarator.id, BindingPattern::ObjectPattern(_)) { ")" } else { "" };
                        assignments.push(format!("{target} = {}{close}", text(init.span())));
                    }
                }
                let replacement = if assignments.is_empty() {
                    ";".to_string()
                } else {
                    format!("void ({});", assignments.join(", "))
                };
                edits.push((span.start, span.end, replacement));
            }
            Statement::FunctionDeclaration(function) => {
                let Some(id) = &function.id else { continue };
                hoisted.push_str(&format!("var {};\n", id.name));
                edits.push((span.start, span.start, format!("{} = ", id.name)));
                edits.push((span.end, span.end, ";".to_string()));
            }
            Statement::ClassDeclaration(class) => {
                let Some(id) = &class.id else { continue };
                hoisted.push_str(&format!("let {};\n", id.name));
                edits.push((span.start, span.start, format!("{} = ", id.name)));
                edits.push((span.end, span.end, ";".to_string()));
            }
            Statement::ExpressionStatement(last) if i + 1 == body.len() => {
                edits.push((span.start, span.end, format!("return ({});", text(last.expression.span()))));
            }
            _ => {}
        }
    }
    let mut out = hoisted;
    let mut at = 0usize;
    for (start, end, replacement) in edits {
        out.push_str(&wrapped[at..start as usize]);
        out.push_str(&replacement);
        at = end as usize;
    }
    out.push_str(&wrapped[at..]);
    Some(out)
}

/// Finds `await` (and `for await`) outside any nested function.
struct TopLevelAwait {
    found: bool,
}

impl<'a> Visit<'a> for TopLevelAwait {
    fn visit_await_expression(&mut self, it: &AwaitExpression<'a>) {
        self.found = true;
        walk::walk_await_expression(self, it);
    }

    fn visit_for_of_statement(&mut self, it: &ForOfStatement<'a>) {
        self.found |= it.r#await;
        walk::walk_for_of_statement(self, it);
    }

    fn visit_function(&mut self, _it: &Function<'a>, _flags: ScopeFlags) {}

    fn visit_arrow_function_expression(&mut self, _it: &ArrowFunctionExpression<'a>) {}
}

/// The REPL's globals: `require` (CommonJS, relative to `dir`, as Node's REPL resolves from
/// the working directory), `_` (the last input's value) and `_error` (the last error thrown).
/// Assigning either prints `Expression assignment to _ now disabled.` and makes it a plain
/// variable from then on, as in Node.
pub fn install(vm: &mut Vm, dir: &str) -> JsResult<()> {
    let module = crate::modules::builtin("module").expect("invariant: node:module is a builtin");
    let module = crate::modules::require_builtin(vm, module)?;
    vm.roots.push(module);
    let r = (|| {
        let create = property(vm, module, "createRequire")?;
        let filename = vm.str(&format!("{}/repl", dir.trim_end_matches('/')));
        let require = call(vm, create, module, &[filename])?;
        vm.roots.push(require);
        let setup = vm.eval_nested(SETUP, "node:repl");
        let helper = setup.and_then(|f| call(vm, f, Value::UNDEFINED, &[require]));
        vm.roots.pop();
        vm.set_host_value(HELPER, helper?);
        Ok(())
    })();
    vm.roots.pop();
    r
}

/// An input's value: `_` holds it from now on.
pub fn completed(vm: &mut Vm, value: Value) -> JsResult<()> {
    helper_call(vm, "completed", value)
}

/// A value an input (or a job it started) threw: `_error` holds it from now on.
pub fn threw(vm: &mut Vm, value: Value) -> JsResult<()> {
    helper_call(vm, "threw", value)
}

fn property(vm: &mut Vm, target: Value, name: &str) -> JsResult<Value> {
    let Some(object) = target.as_object() else { return Ok(Value::UNDEFINED) };
    let key = vm.key(name);
    get(vm, object, key, target)
}

fn helper_call(vm: &mut Vm, name: &str, value: Value) -> JsResult<()> {
    let Some(helper) = vm.host_value(HELPER) else { return Ok(()) };
    let f = property(vm, helper, name)?;
    call(vm, f, helper, &[value]).map(drop)
}

const SETUP: &str = r#"(function (require) {
  'use strict';
  const state = { _: undefined, _error: undefined };
  const assigned = { _: false, _error: false };
  const define = (name) => Reflect.defineProperty(globalThis, name, {
    configurable: true,
    enumerable: false,
    get() { return state[name]; },
    set(value) {
      assigned[name] = true;
      globalThis.console.log(`Expression assignment to ${name} now disabled.`);
      Reflect.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
    },
  });
  define('_');
  define('_error');
  Reflect.defineProperty(globalThis, 'require', { value: require, writable: true, configurable: true, enumerable: false });
  return {
    completed(value) { if (!assigned._) state._ = value; },
    threw(value) { if (!assigned._error) state._error = value; },
  };
})"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_literal_is_tried_first_and_a_block_second() {
        assert_eq!(prepare("{a:1}\n").code, "({a:1})\n");
        assert_eq!(prepare("{ let q = 1; q }\n").code, "{ let q = 1; q }\n");
        assert_eq!(prepare("{a:1};\n").code, "{a:1};\n");
    }

    #[test]
    fn top_level_await_hoists_declarations_and_returns_the_last_expression() {
        let p = prepare("const x = await p, {a, b: [c]} = await q\n");
        assert!(p.awaited);
        assert_eq!(
            p.code,
            "let x;\nlet a;\nlet c;\n(async () => {\nvoid (x = await p, ({a, b: [c]} = await q));\n\n})()"
        );
        let p = prepare("function f() {}\nclass K {}\nawait 1; f()\n");
        assert_eq!(
            p.code,
            "var f;\nlet K;\n(async () => {\nf = function f() {};\nK = class K {};\nawait 1; return (f());\n\n})()"
        );
        assert!(!prepare("async () => await 1\n").awaited, "await inside a function is not top-level");
        assert!(!prepare("'await'\n").awaited);
        assert!(prepare("const [a] = await [1]\n").awaited, "not the member `await[1]`");
    }
}
