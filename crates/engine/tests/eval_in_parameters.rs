//! EvalDeclarationInstantiation: sloppy direct eval in a parameter initialiser may not declare
//! `arguments` where the parameters' environment already binds it (a non-arrow function's
//! arguments object, or a parameter of that name). V8 (and so node) does not implement this
//! rule, which is why it is tested here rather than as a node-compared behaviour test.
#![allow(clippy::unwrap_used)]

use amber_engine::{Vm, VmOptions};

fn run(source: &str) -> String {
    let mut vm = Vm::new(VmOptions::default());
    let v = vm.eval_script(source, "eval_in_parameters.js").unwrap();
    vm.to_display_string(v)
}

fn outcome(call: &str) -> String {
    format!("(() => {{ try {{ {call}; return 'ok'; }} catch (e) {{ return e.constructor.name; }} }})()")
}

#[test]
fn declaring_arguments_in_a_parameter_initialiser_is_a_syntax_error() {
    let cases = [
        ("function f(p = eval('var arguments')) {}", "f()", "SyntaxError"),
        ("function f(p = eval('function arguments() {}')) {}", "f()", "SyntaxError"),
        ("var f = (p = eval('var arguments'), arguments) => {}", "f()", "SyntaxError"),
        // An arrow without an `arguments` parameter has no such binding to clash with.
        ("var f = (p = eval('var arguments = 1')) => {}", "f()", "ok"),
        // In the body, or in strict code, or for other names, nothing is special.
        ("function f() { eval('var arguments = 1'); }", "f()", "ok"),
        ("function f(p = eval('var other')) {}", "f()", "ok"),
        ("function f(p = eval('\"use strict\"; var arguments')) {}", "f()", "SyntaxError"),
    ];
    for (decl, call, expected) in cases {
        assert_eq!(run(&format!("{decl}\n{}", outcome(call))), expected, "{decl}");
    }
}
