//! The inner binding of a class declaration's name (ClassDefinitionEvaluation step 4: a
//! class scope holding an immutable binding of the class's own name).
//!
//! oxc binds a class declaration's name only in the enclosing scope, so every reference in
//! the class body resolves to the outer, mutable binding: `class C { m() { return C } }`
//! then sees a later `C = null`, and `C = 1` inside a method does not throw. `resolve` adds
//! the inner binding to the class scope (const, with a TDZ until the class is defined, as a
//! named class expression's binding is) and points the references inside the class at it.
//! A named class expression's binding is made immutable the same way. The compiler
//! initialises either with the constructor before static elements run.

use oxc_ast::ast::{Class, Program};
use oxc_ast_visit::{walk, Visit};
use oxc_semantic::Scoping;
use oxc_syntax::scope::ScopeId;
use oxc_syntax::symbol::{SymbolFlags, SymbolId};

struct Collect<'a> {
    /// Every class's scope.
    scopes: Vec<ScopeId>,
    /// (the declaration's symbol, its name, the class scope).
    classes: Vec<(SymbolId, &'a str, ScopeId)>,
    /// Names of class expressions: oxc binds them in the class scope already, but mutable.
    expression_names: Vec<SymbolId>,
}

impl<'a> Visit<'a> for Collect<'a> {
    fn visit_class(&mut self, class: &Class<'a>) {
        self.scopes.extend(class.scope_id.get());
        if let (Some(id), Some(scope)) = (&class.id, class.scope_id.get()) {
            if let Some(sym) = id.symbol_id.get() {
                if class.is_declaration() {
                    self.classes.push((sym, id.name.as_str(), scope));
                } else {
                    self.expression_names.push(sym);
                }
            }
        }
        walk::walk_class(self, class);
    }
}

/// Give every class declaration of `program` its inner name binding (see the module comment).
/// Returns, per scope, whether it is a class's scope.
pub(crate) fn resolve(program: &Program<'_>, scoping: &mut Scoping) -> Vec<bool> {
    let mut collect = Collect { scopes: Vec::new(), classes: Vec::new(), expression_names: Vec::new() };
    collect.visit_program(program);
    for sym in collect.expression_names {
        scoping.union_symbol_flag(sym, SymbolFlags::ConstVariable);
    }
    for (outer, name, scope) in collect.classes {
        if scoping.get_binding(scope, name.into()).is_some() {
            continue;
        }
        let span = scoping.symbol_span(outer);
        let node = scoping.symbol_declaration(outer);
        let flags = SymbolFlags::Class | SymbolFlags::ConstVariable;
        let inner = scoping.create_symbol(span, name.into(), flags, scope, node);
        scoping.add_binding(scope, name.into(), inner);
        let refs: Vec<_> = scoping.get_resolved_reference_ids(outer).to_vec();
        for r in refs {
            let at = scoping.get_reference(r).scope_id();
            if at == scope || scoping.scope_is_descendant_of(at, scope) {
                scoping.delete_resolved_reference(outer, r);
                scoping.get_reference_mut(r).set_symbol_id(inner);
                scoping.add_resolved_reference(inner, r);
            }
        }
    }
    let mut class_scopes = vec![false; scoping.scopes_len()];
    for s in collect.scopes {
        if let Some(c) = class_scopes.get_mut(s.index()) {
            *c = true;
        }
    }
    class_scopes
}
