//! The two environments of a function whose parameter list has expressions (defaults,
//! patterns or a rest parameter): FunctionDeclarationInstantiation step 28 binds the body's
//! `var`s and functions in an environment of their own below the parameters' one.
//!
//! oxc binds parameters and the body's `var`s in the one function scope, so a body `var x` of a
//! parameter's name is the parameter's symbol, and a body `var y` is visible to a closure in a
//! parameter initialiser. `resolve` separates them:
//!
//! - A parameter redeclared in the body (`function f(x = 1, g = () => x) { var x = 2 }`) gets a
//!   second symbol, the body's binding, which is not in the scope's binding table (the
//!   parameter keeps the name there). Every declaration and reference inside the body is
//!   pointed at it; the compiler gives it a location of its own and initialises it with the
//!   parameter's value once the parameters are bound (step 28.f.i.4), so `g()` still sees the
//!   parameter.
//! - A reference in the parameter list to a body `var` or function (`function f(g = () => y)
//!   { var y }`) is resolved from the function's parent scope instead, as if the body were
//!   not there (or left unresolved, a global).
//!
//! Direct eval in a parameter initialiser still resolves names through the environment the
//! compiler builds, which holds both kinds of binding (docs in `eval.rs`).

use std::collections::BTreeMap;

use oxc_ast::ast::{
    ArrowFunctionBody, ArrowFunctionExpression, BindingIdentifier, FormalParameters, Function, FunctionBody,
    IdentifierReference,
};
use oxc_ast_visit::Visit;
use oxc_semantic::{Reference, Scoping};
use oxc_span::{GetSpan, Span};
use oxc_syntax::scope::{ScopeFlags, ScopeId};
use oxc_syntax::symbol::{SymbolFlags, SymbolId};

use super::function::pattern_symbols;

/// Per function scope, the (parameter, body binding) pairs `resolve` split, and the span of
/// the function's body.
#[derive(Default)]
pub(crate) struct BodyBindings(BTreeMap<ScopeId, (Span, Vec<(SymbolId, SymbolId)>)>);

impl BodyBindings {
    /// The (parameter, body binding) pairs of function scope `scope`.
    pub(crate) fn pairs(&self, scope: ScopeId) -> &[(SymbolId, SymbolId)] {
        self.0.get(&scope).map_or(&[], |(_, pairs)| &pairs[..])
    }

    /// The pairs of function scope `scope` if `span` lies in its body (code there sees the
    /// body's bindings), else nothing (code in the parameter list sees the parameters).
    pub(crate) fn pairs_seen_at(&self, scope: ScopeId, span: Span) -> &[(SymbolId, SymbolId)] {
        match self.0.get(&scope) {
            Some((body, pairs)) if span.start >= body.start && span.end <= body.end => pairs,
            _ => &[],
        }
    }
}

/// Whether a parameter list is not simple (IsSimpleParameterList is false).
pub(crate) fn has_expressions(params: &FormalParameters<'_>) -> bool {
    params.rest.is_some() || params.items.iter().any(|p| p.initializer.is_some() || !p.pattern.is_binding_identifier())
}

struct Split<'s> {
    scoping: &'s mut Scoping,
    /// Parameter symbol → body symbol, for the bodies being visited.
    renames: BTreeMap<SymbolId, SymbolId>,
    /// The parameter lists being visited: (function scope, its parameters' symbols, the body).
    in_params: Vec<(ScopeId, Vec<SymbolId>, Span)>,
    out: BTreeMap<ScopeId, (Span, Vec<(SymbolId, SymbolId)>)>,
}

impl Split<'_> {
    fn function(&mut self, scope: Option<ScopeId>, params: &FormalParameters<'_>, body: Option<&FunctionBody<'_>>) {
        let (Some(scope), Some(body), true) = (scope, body, has_expressions(params)) else {
            self.visit_formal_parameters(params);
            if let Some(body) = body {
                self.visit_function_body(body);
            }
            return;
        };
        let mut param_syms = Vec::new();
        for item in &params.items {
            pattern_symbols(&item.pattern, &mut param_syms);
        }
        if let Some(rest) = &params.rest {
            pattern_symbols(&rest.rest.argument, &mut param_syms);
        }
        let body_span = body.span();
        self.in_params.push((scope, param_syms.clone(), body_span));
        self.visit_formal_parameters(params);
        self.in_params.pop();
        let mut added = Vec::new();
        for &param in &param_syms {
            let in_body: Vec<_> = self
                .scoping
                .symbol_redeclarations(param)
                .iter()
                .filter(|r| r.span.start >= body_span.start && r.span.end <= body_span.end)
                .map(|r| (r.span, r.declaration, r.flags))
                .collect();
            let Some(&(span, node, _)) = in_body.first() else { continue };
            let flags = in_body.iter().fold(SymbolFlags::empty(), |f, r| f | r.2);
            let name = self.scoping.symbol_name(param).to_string();
            let body_sym = self.scoping.create_symbol(span, name.as_str().into(), flags, scope, node);
            self.renames.insert(param, body_sym);
            added.push((param, body_sym));
        }
        self.visit_function_body(body);
        for (param, _) in &added {
            self.renames.remove(param);
        }
        if !added.is_empty() {
            self.out.insert(scope, (body_span, added));
        }
    }
}

impl<'a> Visit<'a> for Split<'_> {
    fn visit_function(&mut self, f: &Function<'a>, _flags: ScopeFlags) {
        if let Some(id) = &f.id {
            self.visit_binding_identifier(id);
        }
        self.function(f.scope_id.get(), &f.params, f.body.as_deref());
    }

    fn visit_arrow_function_expression(&mut self, f: &ArrowFunctionExpression<'a>) {
        match &f.body {
            ArrowFunctionBody::FunctionBody(body) => self.function(f.scope_id.get(), &f.params, Some(body)),
            // An expression body declares nothing.
            body => {
                self.visit_formal_parameters(&f.params);
                if let Some(e) = body.as_expression() {
                    self.visit_expression(e);
                }
            }
        }
    }

    fn visit_binding_identifier(&mut self, id: &BindingIdentifier<'a>) {
        if let Some(&body_sym) = id.symbol_id.get().and_then(|s| self.renames.get(&s)) {
            id.symbol_id.set(Some(body_sym));
        }
    }

    fn visit_identifier_reference(&mut self, id: &IdentifierReference<'a>) {
        let Some(r) = id.reference_id.get() else { return };
        let Some(sym) = self.scoping.get_reference(r).symbol_id() else { return };
        if let Some(&body_sym) = self.renames.get(&sym) {
            self.scoping.delete_resolved_reference(sym, r);
            self.scoping.get_reference_mut(r).set_symbol_id(body_sym);
            self.scoping.add_resolved_reference(body_sym, r);
            return;
        }
        // A parameter initialiser naming a body declaration: the parent scope's binding.
        let hidden = self.in_params.iter().find(|(scope, params, body)| {
            let span = self.scoping.symbol_span(sym);
            self.scoping.symbol_scope_id(sym) == *scope
                && !params.contains(&sym)
                && span.start >= body.start
                && span.end <= body.end
        });
        let Some(&(scope, _, _)) = hidden else { return };
        let name = self.scoping.symbol_name(sym).to_string();
        if name == "arguments" {
            // A body `var arguments` beside the parameters' arguments object: left to the
            // compiler's arguments handling (arguments_refs.rs), which binds it as before.
            // NOTE: step 28 would give the body its own binding starting with the object;
            // not done (staging/sm/Function/arguments-parameter-shadowing.js fails).
            return;
        }
        self.scoping.delete_resolved_reference(sym, r);
        match self.scoping.scope_parent_id(scope).and_then(|p| self.scoping.find_binding(p, name.as_str().into())) {
            Some(outer) => {
                self.scoping.get_reference_mut(r).set_symbol_id(outer);
                self.scoping.add_resolved_reference(outer, r);
            }
            None => {
                let old = self.scoping.get_reference(r);
                let unresolved = Reference::new(old.node_id(), old.scope_id(), old.flags());
                *self.scoping.get_reference_mut(r) = unresolved;
                self.scoping.add_root_unresolved_reference(name.as_str().into(), r);
            }
        }
    }
}

/// Separates the parameters' and the body's bindings of every function of `program` whose
/// parameter list has expressions (see the module comment).
pub(crate) fn resolve(program: &oxc_ast::ast::Program<'_>, scoping: &mut Scoping) -> BodyBindings {
    let mut split = Split { scoping, renames: BTreeMap::new(), in_params: Vec::new(), out: BTreeMap::new() };
    split.visit_program(program);
    BodyBindings(split.out)
}
