//! Annex B.3.3 (B.3.2.1–B.3.2.3 in the current spec): which sloppy block-level function
//! declarations also get a `var` binding in the enclosing function, script or eval code.
//!
//! oxc's semantic analysis hoists every plain sloppy block-level function: when the var
//! scope has no binding of the name yet, it *moves* the function's binding there, so the
//! block binding and the var binding become one symbol, and every reference in the function
//! resolves to it. That merge is what Amber compiles when the extension applies. When it
//! does not — replacing the declaration with `var F` would be an early error (a `let F` or an
//! enclosing block's function `F` in between), or `F` is a parameter name (`arguments`
//! included, when the function has an arguments object) — the function is an ordinary block
//! binding and its name must not exist outside the block. `resolve` decides each
//! declaration before compilation, moves the binding of a blocked one back into its block,
//! gives the var binding to another declaration of the name the extension does apply to, and
//! re-resolves the references outside the block: to whatever they would have seen without the
//! hoisting, or to nothing (a global lookup).
//!
//! (oxc's merge also made the block binding and the var binding one: `{ function f() {}
//! f = 1; } f` must still be the function. So `resolve` moves *every* hoisted function back
//! and creates the var binding as a symbol of its own.)

use oxc_ast::ast::{
    ArrowFunctionExpression, BindingPattern, FormalParameters, Function, IfStatement, Program, Statement,
};
use oxc_ast_visit::{walk, Visit};
use oxc_semantic::Scoping;
use oxc_syntax::reference::Reference;
use oxc_syntax::scope::{ScopeFlags, ScopeId};
use oxc_syntax::symbol::{SymbolFlags, SymbolId};
use rustc_hash::{FxHashMap, FxHashSet};

use super::LEXICAL;

/// The sloppy block-level functions Annex B.3.3 does not apply to (by symbol): their
/// declarations bind only in their blocks. `invisible` holds the blocked functions of `if`
/// clauses (by their own scope): alone in an implicit block (B.3.4), nothing can see them.
#[derive(Default)]
pub(crate) struct AnnexB {
    blocked: FxHashSet<SymbolId>,
    invisible: FxHashSet<ScopeId>,
}

impl AnnexB {
    pub(crate) fn blocked(&self, sym: SymbolId) -> bool {
        self.blocked.contains(&sym)
    }

    /// Whether the `if`-clause function whose own scope is `scope` is invisible.
    pub(crate) fn invisible(&self, scope: ScopeId) -> bool {
        self.invisible.contains(&scope)
    }
}

/// A plain function declared in a sloppy block, or as a sloppy `if` clause.
struct Candidate<'a> {
    sym: SymbolId,
    name: &'a str,
    /// The function's own scope.
    own: ScopeId,
    /// The scope oxc declared its binding in.
    origin: ScopeId,
    /// The first scope `var F` would have to pass: the origin's parent for a block function,
    /// the origin itself for an `if` clause (whose block is implicit).
    first: ScopeId,
    /// The var scope above (function, script or eval code).
    var_scope: ScopeId,
}

/// What a var scope that is a function contributes: its parameter names and whether it has
/// an arguments object.
struct FunctionScope {
    params: Vec<String>,
    arrow: bool,
    simple: bool,
}

struct Collect<'s, 'a> {
    scoping: &'s Scoping,
    candidates: Vec<Candidate<'a>>,
    functions: FxHashMap<ScopeId, FunctionScope>,
    /// Own scopes of functions that are `if` clauses.
    clauses: FxHashSet<ScopeId>,
}

fn param_names(params: &FormalParameters<'_>) -> (Vec<String>, bool) {
    let mut names = Vec::new();
    for item in &params.items {
        names.extend(item.pattern.get_binding_identifiers().iter().map(|id| id.name.as_str().to_string()));
    }
    if let Some(rest) = &params.rest {
        names.extend(rest.rest.argument.get_binding_identifiers().iter().map(|id| id.name.as_str().to_string()));
    }
    let simple = params.rest.is_none()
        && params
            .items
            .iter()
            .all(|p| p.initializer.is_none() && matches!(p.pattern, BindingPattern::BindingIdentifier(_)));
    (names, simple)
}

impl<'a> Visit<'a> for Collect<'_, 'a> {
    fn visit_function(&mut self, f: &Function<'a>, flags: ScopeFlags) {
        if let Some(own) = f.scope_id.get() {
            let (params, simple) = param_names(&f.params);
            self.functions.insert(own, FunctionScope { params, arrow: false, simple });
            let plain = f.is_declaration() && !f.r#async && !f.generator;
            let origin = self.scoping.scope_parent_id(own);
            if let (true, Some(id), Some(origin)) = (plain, &f.id, origin) {
                let origin_flags = self.scoping.scope_flags(origin);
                let clause = self.clauses.contains(&own);
                let first = if clause { Some(origin) } else { self.scoping.scope_parent_id(origin) };
                let var_scope = self.scoping.scope_ancestors(origin).find(|&s| self.scoping.scope_flags(s).is_var());
                let in_block = clause || !origin_flags.is_var();
                if let (true, false, Some(sym), Some(first), Some(var_scope)) =
                    (in_block, origin_flags.is_strict_mode(), id.symbol_id.get(), first, var_scope)
                {
                    self.candidates.push(Candidate { sym, name: id.name.as_str(), own, origin, first, var_scope });
                }
            }
        }
        walk::walk_function(self, f, flags);
    }

    fn visit_if_statement(&mut self, it: &IfStatement<'a>) {
        for clause in std::iter::once(&it.consequent).chain(&it.alternate) {
            if let Statement::FunctionDeclaration(f) = clause {
                self.clauses.extend(f.scope_id.get());
            }
        }
        walk::walk_if_statement(self, it);
    }

    fn visit_arrow_function_expression(&mut self, f: &ArrowFunctionExpression<'a>) {
        if let Some(own) = f.scope_id.get() {
            let (params, simple) = param_names(&f.params);
            self.functions.insert(own, FunctionScope { params, arrow: true, simple });
        }
        walk::walk_arrow_function_expression(self, f);
    }
}

/// Decide Annex B.3.3 for every sloppy block-level function of `program` and rewrite
/// `scoping` to match (see the module comment).
pub(crate) fn resolve(program: &Program<'_>, scoping: &mut Scoping) -> AnnexB {
    let mut collect =
        Collect { scoping, candidates: Vec::new(), functions: FxHashMap::default(), clauses: FxHashSet::default() };
    collect.visit_program(program);
    let Collect { candidates, functions, .. } = collect;
    if candidates.is_empty() {
        return AnnexB::default();
    }
    // The scope each candidate was declared in, which is not where oxc left a moved one.
    let moved: FxHashMap<SymbolId, ScopeId> =
        candidates.iter().filter(|c| scoping.symbol_scope_id(c.sym) != c.origin).map(|c| (c.sym, c.origin)).collect();
    // Does `scope` declare `name` (as the source wrote it, before oxc's moves), with a
    // binding whose flags satisfy `counts`?
    let declares = |scope: ScopeId, name: &str, counts: &dyn Fn(SymbolId, SymbolFlags) -> bool| -> bool {
        let here = scoping.iter_bindings_in(scope).filter(|s| moved.get(s).is_none_or(|&origin| origin == scope));
        let came_from_here = moved.iter().filter(|&(_, &origin)| origin == scope).map(|(&s, _)| s);
        here.chain(came_from_here).any(|s| scoping.symbol_name(s) == name && counts(s, scoping.symbol_flags(s)))
    };
    let mut applies = FxHashSet::default();
    for c in &candidates {
        let name = c.name;
        let mut blocked = false;
        // `var F` would pass every scope up to the var scope: an enclosing block's lexical
        // declaration or function of the name is an early error for it, and so is a lexical
        // declaration at the top. A simple catch parameter is not (B.3.4): oxc flags it
        // function-scoped; a destructured one is block-scoped and counts.
        // The function's own binding counts only where it is another declaration's too (an
        // `if` clause function shares the symbol of a `let` of its name).
        let own_counts = scoping.symbol_flags(c.sym).intersects(LEXICAL);
        let declares = |scope: ScopeId, counts: &dyn Fn(SymbolFlags) -> bool| -> bool {
            declares(scope, name, &|s, f| (s != c.sym || own_counts) && counts(f))
        };
        for scope in scoping.scope_ancestors(c.first) {
            if scope == c.var_scope {
                blocked |= declares(scope, &|f| f.intersects(LEXICAL));
                break;
            }
            blocked |= declares(scope, &|f| f.intersects(LEXICAL) || f.contains(SymbolFlags::Function));
        }
        // Function code: not for a parameter's name, nor for `arguments` when the function
        // has an arguments object (FunctionDeclarationInstantiation step 22.f).
        if let Some(func) = functions.get(&c.var_scope) {
            blocked |= func.params.iter().any(|p| p == name);
            if name == "arguments" && !func.arrow {
                // No arguments object when a top-level function or lexical declaration (not a
                // hoisted block function) takes the name and there are no parameter
                // expressions.
                let taken_at_top = func.simple
                    && scoping.iter_bindings_in(c.var_scope).any(|s| {
                        scoping.symbol_name(s) == name
                            && !moved.contains_key(&s)
                            && scoping.symbol_flags(s).intersects(LEXICAL.union(SymbolFlags::Function))
                    });
                blocked |= !taken_at_top;
            }
        }
        if !blocked {
            applies.insert(c.sym);
        }
    }
    // Every function oxc moved goes back to its block: the block binding and the var
    // binding are two bindings (an assignment to the name inside the block does not reach
    // the var).
    // A symbol a var-scope declaration shares (a later top-level `function f` redeclares
    // the moved one) stays where it is: it is that declaration's binding too. One shared with
    // a `let` (an `if` clause function's) is the `let`'s, and goes back.
    let mut demoted = Vec::new();
    for c in &candidates {
        let shared = !scoping.symbol_redeclarations(c.sym).is_empty();
        if moved.contains_key(&c.sym) && (!shared || scoping.symbol_flags(c.sym).intersects(LEXICAL)) {
            scoping.move_binding_by_symbol_id(c.var_scope, c.origin, c.sym);
            demoted.push(c);
        }
    }
    // The var bindings of the declarations the extension applies to, where the var scope
    // has none of the name yet.
    for c in &candidates {
        if applies.contains(&c.sym) && scoping.get_binding(c.var_scope, c.name.into()).is_none() {
            let span = scoping.symbol_span(c.sym);
            let node = scoping.symbol_declaration(c.sym);
            let var =
                scoping.create_symbol(span, c.name.into(), SymbolFlags::FunctionScopedVariable, c.var_scope, node);
            scoping.add_binding(c.var_scope, c.name.into(), var);
        }
    }
    // References outside a demoted function's block see what is there without it.
    for c in demoted {
        let refs: Vec<_> = scoping.get_resolved_reference_ids(c.sym).to_vec();
        for r in refs {
            let at = scoping.get_reference(r).scope_id();
            if at == c.origin || scoping.scope_is_descendant_of(at, c.origin) {
                continue;
            }
            scoping.delete_resolved_reference(c.sym, r);
            match scoping.find_binding(at, c.name.into()) {
                Some(target) => {
                    scoping.get_reference_mut(r).set_symbol_id(target);
                    scoping.add_resolved_reference(target, r);
                }
                None => {
                    let old = scoping.get_reference(r);
                    let unresolved = Reference::new(old.node_id(), old.scope_id(), old.flags());
                    *scoping.get_reference_mut(r) = unresolved;
                    scoping.add_root_unresolved_reference(c.name.into(), r);
                }
            }
        }
    }
    let blocked = candidates.iter().map(|c| c.sym).filter(|s| !applies.contains(s)).collect();
    let invisible =
        candidates.iter().filter(|c| c.first == c.origin && !applies.contains(&c.sym)).map(|c| c.own).collect();
    AnnexB { blocked, invisible }
}
