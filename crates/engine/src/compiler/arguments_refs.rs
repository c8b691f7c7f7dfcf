//! References to `arguments` that oxc resolves past a function's own arguments object.
//!
//! Every non-arrow function has an implicit `arguments` binding (FunctionDeclarationInstantiation
//! step 22), which oxc's binder does not model: `function f() { var arguments;
//! return function () { return arguments } }` resolves the inner reference to `f`'s `var`.
//! `resolve` turns each reference that crosses a non-arrow function on its way to its binding
//! into an unresolved one, which the compiler reads as the nearest function's arguments object.
//! (A function that has no arguments object of its own has a parameter, a function or a
//! lexical declaration named `arguments` in its own scope, so no reference crosses it to
//! reach an outer binding.)

use oxc_semantic::{Reference, Scoping};

pub(crate) fn resolve(scoping: &mut Scoping) {
    let symbols: Vec<_> = scoping.symbol_ids().filter(|&s| scoping.symbol_name(s) == "arguments").collect();
    for sym in symbols {
        let home = scoping.symbol_scope_id(sym);
        let refs: Vec<_> = scoping.get_resolved_reference_ids(sym).to_vec();
        for r in refs {
            let at = scoping.get_reference(r).scope_id();
            let crosses = scoping.scope_ancestors(at).take_while(|&s| s != home).any(|s| {
                let flags = scoping.scope_flags(s);
                flags.is_function() && !flags.is_arrow()
            });
            if !crosses {
                continue;
            }
            scoping.delete_resolved_reference(sym, r);
            let old = scoping.get_reference(r);
            let unresolved = Reference::new(old.node_id(), old.scope_id(), old.flags());
            *scoping.get_reference_mut(r) = unresolved;
            scoping.add_root_unresolved_reference("arguments".into(), r);
        }
    }
}
