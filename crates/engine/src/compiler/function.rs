//! Functions (FunctionDeclarationInstantiation as code), arrows, methods and classes.

use oxc_ast::ast::*;
use oxc_span::Span;
use oxc_syntax::scope::ScopeId;
use oxc_syntax::symbol::SymbolFlags;

use super::decorators::{accessor_storage_name, class_is_decorated, DecoKey, DecoSlots, ElementDeco, InitDecos};
use super::{empty_code, CResult, Compiler, Control, Loc};
use crate::atoms::{atom, Atom};
use crate::builtins::decorators::DecoratorKind;
use crate::bytecode::{FunctionKind, Op};

/// What to compile as one function.
struct FnSpec<'s> {
    kind: FunctionKind,
    params: &'s FormalParameters<'s>,
    body: Option<&'s FunctionBody<'s>>,
    expression_body: Option<&'s Expression<'s>>,
    scope: Option<ScopeId>,
    span: Span,
    name: Option<Atom>,
    class_constructor: bool,
    /// A method (it has a home object, so `super.x` is valid in it).
    method: bool,
}

fn has_use_strict(body: Option<&FunctionBody>) -> bool {
    body.is_some_and(|b| b.directives.iter().any(|d| d.directive.as_str() == "use strict"))
}

impl<'s> Compiler<'s, '_> {
    /// Compile a function declaration or expression; returns its index in `functions`.
    pub(crate) fn compile_function(&mut self, f: &'s Function<'s>, name: Option<Atom>) -> CResult<u32> {
        let kind = match (f.generator, f.r#async) {
            (false, false) => FunctionKind::Normal,
            (true, false) => FunctionKind::Generator,
            (false, true) => FunctionKind::Async,
            (true, true) => FunctionKind::AsyncGenerator,
        };
        let name = name.or_else(|| f.id.as_ref().map(|i| self.atom(i.name.as_str())));
        self.compile_fn(FnSpec {
            kind,
            params: &f.params,
            body: f.body.as_deref(),
            expression_body: None,
            scope: f.scope_id.get(),
            span: f.span,
            name,
            class_constructor: false,
            method: false,
        })
    }

    /// Compile an object-literal or class method (not a constructor).
    /// `span` is the whole method definition (`get x() {…}`), which `toString` shows.
    pub(crate) fn compile_method(&mut self, f: &'s Function<'s>, name: Option<Atom>, span: Span) -> CResult<u32> {
        let kind = match (f.generator, f.r#async) {
            (false, false) => FunctionKind::Method,
            (true, false) => FunctionKind::Generator,
            (false, true) => FunctionKind::Async,
            (true, true) => FunctionKind::AsyncGenerator,
        };
        self.compile_fn(FnSpec {
            kind,
            params: &f.params,
            body: f.body.as_deref(),
            expression_body: None,
            scope: f.scope_id.get(),
            span,
            name,
            class_constructor: false,
            method: true,
        })
    }

    pub(crate) fn compile_arrow(&mut self, f: &'s ArrowFunctionExpression<'s>, name: Option<Atom>) -> CResult<u32> {
        let kind = if f.r#async { FunctionKind::AsyncArrow } else { FunctionKind::Arrow };
        let (body, expression_body) = match &f.body {
            ArrowFunctionBody::FunctionBody(b) => (Some(&**b), None),
            other => (None, other.as_expression()),
        };
        self.compile_fn(FnSpec {
            kind,
            params: &f.params,
            body,
            expression_body,
            scope: f.scope_id.get(),
            span: f.span,
            name,
            class_constructor: false,
            method: false,
        })
    }

    fn compile_fn(&mut self, spec: FnSpec<'s>) -> CResult<u32> {
        self.nesting_check(spec.span.start)?;
        if !self.compiled_fns.insert(spec.span.start) {
            // Compiled before (it sits in a `finally` block, compiled once per exit): its
            // bindings still name the other copy's registers and env slots; this copy is a
            // new code block and declares its own.
            if let Some(scope) = spec.scope {
                self.forget_bindings_within(scope, spec.span.start, spec.span.end);
            }
        }
        // Class bodies are strict code (§11.2.2), which oxc records on the scope.
        let strict = self.func.code.strict
            || has_use_strict(spec.body)
            || spec.class_constructor
            || spec.scope.is_some_and(|s| self.scoping.scope_flags(s).is_strict_mode());
        let mut code = empty_code(spec.kind, strict, self.source_id);
        code.name = spec.name.unwrap_or(atom::empty);
        code.inferred_name = self.inferred_name.take().unwrap_or_default();
        code.span = (spec.span.start, spec.span.end);
        code.is_class_constructor = spec.class_constructor;
        let params = spec.params;
        self.refuse_parameter_decorators(params)?;
        let n = params.items.len() as u32;
        code.param_count = n;
        code.length = params
            .items
            .iter()
            .take_while(|p| p.initializer.is_none() && !matches!(p.pattern, BindingPattern::AssignmentPattern(_)))
            .count() as u32;
        let simple = params.rest.is_none()
            && params
                .items
                .iter()
                .all(|p| p.initializer.is_none() && matches!(p.pattern, BindingPattern::BindingIdentifier(_)));
        code.has_simple_params = simple;
        let is_arrow = spec.kind.is_arrow();
        self.push_function(code, is_arrow, spec.scope);
        self.func.is_method = spec.method;
        self.mark(spec.span.start);
        for item in params.items.iter() {
            let nm = match &item.pattern {
                BindingPattern::BindingIdentifier(id) => self.atom(id.name.as_str()),
                _ => atom::empty,
            };
            self.alloc_register(nm);
        }
        let level = self.func.env_level + 1;
        let text = self.source.get(spec.span.start as usize..spec.span.end as usize).unwrap_or("");
        // FunctionDeclarationInstantiation steps 15-18: no arguments object for an arrow, when
        // a parameter is named `arguments`, or (without parameter expressions) when the body
        // declares a function or a lexical binding of that name. A `var arguments` is the
        // arguments object's own binding (step 27 leaves it holding the object).
        let mut param_syms = Vec::new();
        for item in params.items.iter() {
            pattern_symbols(&item.pattern, &mut param_syms);
        }
        if let Some(rest) = &params.rest {
            pattern_symbols(&rest.rest.argument, &mut param_syms);
        }
        let named_param = param_syms.iter().any(|&s| self.scoping.symbol_name(s) == "arguments");
        let (mut declared, mut var_arguments) = (false, None);
        if let Some(scope) = spec.scope {
            for sym in self.scoping.iter_bindings_in(scope) {
                if self.scoping.symbol_name(sym) != "arguments" || param_syms.contains(&sym) {
                    continue;
                }
                let flags = self.scoping.symbol_flags(sym);
                if flags.contains(SymbolFlags::Function) || flags.intersects(super::LEXICAL) {
                    declared = true;
                } else if flags.contains(SymbolFlags::FunctionScopedVariable) {
                    var_arguments = Some(sym);
                } else {
                    // A named function expression's own name: the arguments object shadows it
                    // only where it exists, which this function's references already decide.
                    declared = true;
                }
            }
        }
        let uses_arguments = !is_arrow && !named_param && (!simple || !declared) && text.contains("arguments");
        let var_arguments = var_arguments.filter(|_| uses_arguments);
        let mapped = uses_arguments && !strict && simple;
        self.func.code.uses_arguments = uses_arguments;
        let mut next_slot = 0u32;
        // Simple parameters bind straight to their argument registers (or, with a mapped
        // arguments object, to env slots 0..n in order).
        // (Only for simple lists: with parameter expressions every parameter has its own
        // binding in a TDZ.)
        // With duplicate names (sloppy simple lists only) the binding is the last one's
        // (CreateMappedArgumentsObject maps only the last index of a name).
        let last_index = |sym| {
            params.items.iter().rposition(
                |p| matches!(&p.pattern, BindingPattern::BindingIdentifier(id) if id.symbol_id.get() == Some(sym)),
            )
        };
        for (i, item) in params.items.iter().enumerate().filter(|_| simple) {
            if let (BindingPattern::BindingIdentifier(id), None) = (&item.pattern, &item.initializer) {
                if let Some(sym) = id.symbol_id.get() {
                    if mapped && last_index(sym) == Some(i) {
                        self.captured[sym.index()] = true;
                        self.locs[sym.index()] = Some(Loc::Env { level, slot: i as u32 });
                        next_slot = next_slot.max(i as u32 + 1);
                        continue;
                    }
                    if !mapped && self.locs[sym.index()].is_none() && !self.captured[sym.index()] {
                        self.locs[sym.index()] = Some(Loc::Register(i as u32));
                    }
                }
            }
        }
        if mapped {
            next_slot = n;
        }
        let mut slots = next_slot;
        if let Some(scope) = spec.scope {
            slots += self.declare_scope_from(scope, level, next_slot);
        }
        // The body's own bindings of parameter names (param_scope.rs).
        let body_bindings = spec.scope.map(|s| self.analysis.body_bindings.pairs(s).to_vec()).unwrap_or_default();
        for &(_, body_sym) in &body_bindings {
            if self.locs[body_sym.index()].is_some() {
                continue;
            }
            self.locs[body_sym.index()] = Some(if self.captured[body_sym.index()] {
                slots += 1;
                Loc::Env { level, slot: slots - 1 }
            } else {
                let name = self.atom(self.scoping.symbol_name(body_sym));
                Loc::Register(self.alloc_register(name))
            });
        }
        // The arguments object lives in an env slot when nested arrows may read it.
        let mut arguments_loc = None;
        if let Some(sym) = var_arguments {
            arguments_loc = Some(self.loc_of(sym));
        } else if uses_arguments {
            if text.contains("=>") || text.contains("eval") {
                arguments_loc = Some(Loc::Env { level, slot: slots });
                slots += 1;
            } else {
                arguments_loc = Some(Loc::Register(self.alloc_register(atom::arguments)));
            }
        }
        // Sloppy direct eval declares its `var`s in this function's environment (in its var
        // bag, see `bind_eval_vars`), so the function needs one.
        let sloppy_eval =
            !strict && spec.scope.is_some_and(|s| self.calls_eval.get(s.index()).copied().unwrap_or(false));
        if slots == 0 && sloppy_eval {
            slots = 1;
        }
        // A derived constructor whose arrows may read `this` or call super(): its `this`
        // binding and the constructor itself live in its environment, where arrows made
        // before super() still find the binding it initialises (a function Environment
        // Record's [[ThisValue]] and [[FunctionObject]]).
        let mut this_slot = None;
        if self.func.code.kind == FunctionKind::DerivedConstructor && text.contains("=>") {
            this_slot = Some(slots);
            slots += 2;
        }
        self.func.code.env_slots = slots;
        if slots > 0 {
            self.func.env_level = level;
        }
        if let Some(scope) = spec.scope {
            self.note_env_names(scope, level);
        }
        if let Some(slot) = this_slot {
            self.func.this_env = Some((level, slot));
            self.emit(Op::Callee);
            self.emit_store(Loc::Env { level, slot: slot + 1 }, false);
        }
        // With parameter expressions, parameters sit in a TDZ until bound, in order.
        if !simple {
            for &sym in &param_syms {
                if let Some(t) = self.tdz_params.get_mut(sym.index()) {
                    *t = true;
                }
                let loc = self.loc_of(sym);
                self.emit(Op::Empty);
                self.emit_store(loc, false);
            }
        }
        // The arguments object exists before the parameters are bound: an initialiser may
        // read it (FunctionDeclarationInstantiation steps 22 and 26).
        if let Some(loc) = arguments_loc {
            self.emit(Op::CreateArguments(u8::from(mapped)));
            self.emit_store(loc, false);
            self.func.arguments = Some(loc);
        }
        // Parameters into their bindings. Eval code in an initialiser sees the parameters
        // but not the body's declarations.
        self.func.parameters = Some(param_syms.clone());
        for (i, item) in params.items.iter().enumerate() {
            let direct = matches!((&item.pattern, &item.initializer), (BindingPattern::BindingIdentifier(id), None)
                if id.symbol_id.get().and_then(|s| self.locs[s.index()]) == Some(Loc::Register(i as u32)));
            if direct {
                continue;
            }
            if mapped && matches!(item.pattern, BindingPattern::BindingIdentifier(_)) {
                // Slot i holds argument i: the binding's own slot for the last parameter of a
                // name, an unmapped copy for an earlier duplicate.
                self.emit(Op::GetLocal(i as u32));
                self.emit_store(Loc::Env { level, slot: i as u32 }, false);
                continue;
            }
            self.emit(Op::GetLocal(i as u32));
            if let Some(init) = &item.initializer {
                self.emit(Op::Dup);
                let have = self.emit_jump(Op::JumpIfNotUndefined);
                self.emit(Op::Pop);
                let pname = super::stmt::binding_name(&item.pattern);
                self.compile_expr_named(init, pname.as_deref())?;
                self.patch(have);
            }
            self.compile_binding_init(&item.pattern, false)?;
        }
        if let Some(rest) = &params.rest {
            self.emit(Op::CreateRest(n));
            self.compile_binding_init(&rest.rest.argument, false)?;
        }
        // FunctionDeclarationInstantiation step 28.f.i.4: a body `var` of a parameter's name
        // starts with the parameter's value, in a binding of its own; direct eval in the body
        // finds that binding by the name.
        for &(param, body_sym) in &body_bindings {
            let (from, to) = (self.loc_of(param), self.loc_of(body_sym));
            self.emit_load(from, false);
            self.emit_store(to, false);
        }
        self.note_body_bindings(level, &body_bindings);
        // Where the parameters' environment already binds `arguments` (the arguments object
        // of a non-arrow function, or a parameter of that name), a direct eval in a parameter
        // initialiser may not declare it again.
        self.func.parameters = None;
        let binds_arguments = !spec.kind.is_arrow() || named_param;
        if binds_arguments {
            self.func.code.params_end = self.pc();
        }
        if let Some(scope) = spec.scope {
            // A named function expression's own name: an immutable binding of the function
            // itself (FunctionExpression evaluation, step 4 of InstantiateOrdinaryFunctionExpression).
            let own_name = self
                .scoping
                .iter_bindings_in(scope)
                .find(|&s| self.scoping.symbol_flags(s).contains(oxc_syntax::symbol::SymbolFlags::FunctionExpression));
            let dynamic = self.dynamic_function && self.outer.len() == 1;
            if let (Some(s), false) = (own_name, dynamic) {
                if let Some(loc) = self.locs[s.index()] {
                    self.emit(Op::Callee);
                    self.emit_store(loc, false);
                }
            }
            // `var` bindings start undefined (FunctionDeclarationInstantiation step 27/28); a
            // captured one lives in an env slot, which starts out Empty like a TDZ slot.
            let mut vars: Vec<oxc_syntax::symbol::SymbolId> = self
                .scoping
                .iter_bindings_in(scope)
                .filter(|&s| {
                    let flags = self.scoping.symbol_flags(s);
                    // Only plain `var`s: a function's own name (a named function expression)
                    // and hoisted function declarations are initialised elsewhere.
                    flags.contains(oxc_syntax::symbol::SymbolFlags::FunctionScopedVariable)
                        && !flags.contains(oxc_syntax::symbol::SymbolFlags::Function)
                        && !param_syms.contains(&s)
                        && Some(s) != var_arguments
                })
                .collect();
            vars.sort();
            for s in vars {
                if let Some(loc @ Loc::Env { .. }) = self.locs[s.index()] {
                    self.emit(Op::Undefined);
                    self.emit_store(loc, false);
                }
            }
            self.init_tdz(scope);
        }
        if let Some(body) = spec.body {
            if spec.expression_body.is_none() {
                self.hoist_functions(&body.statements, false)?;
            }
        }
        if spec.kind.is_generator() {
            self.emit(Op::GeneratorStart);
        }
        match (spec.expression_body, spec.body) {
            (Some(e), _) => {
                self.compile_expr(e)?;
                self.emit(Op::Return);
            }
            (None, Some(body)) => self.compile_statements_with_using(&body.statements)?,
            (None, None) => {}
        }
        let id = self.pop_function();
        self.func.code.functions.push(id);
        Ok((self.func.code.functions.len() - 1) as u32)
    }

    /// Forget the location of every binding of `scope` and the scopes inside it (declared in
    /// the source range `start..end`).
    fn forget_bindings_within(&mut self, scope: ScopeId, start: u32, end: u32) {
        for sym in self.scoping.symbol_ids() {
            let span = self.scoping.symbol_span(sym);
            if span.start >= start
                && span.end <= end
                && self.scoping.scope_ancestors(self.scoping.symbol_scope_id(sym)).any(|s| s == scope)
            {
                self.locs[sym.index()] = None;
            }
        }
    }

    /// Like `declare_scope` but numbering env slots from `first`.
    pub(crate) fn declare_scope_from(&mut self, scope: ScopeId, level: u32, first: u32) -> u32 {
        let mut syms: Vec<oxc_syntax::symbol::SymbolId> = self.scoping.iter_bindings_in(scope).collect();
        syms.sort();
        let mut slots = 0;
        for s in syms {
            if self.locs[s.index()].is_some() {
                continue;
            }
            let name = self.scoping.symbol_name(s).to_string();
            let a = self.atom(&name);
            if self.captured[s.index()] {
                self.locs[s.index()] = Some(Loc::Env { level, slot: first + slots });
                slots += 1;
            } else {
                let r = self.alloc_register(a);
                self.locs[s.index()] = Some(Loc::Register(r));
            }
        }
        slots
    }

    // ---- classes

    /// Evaluate a class definition; pushes the constructor.
    pub(crate) fn compile_class(&mut self, class: &'s Class<'s>, name: Option<&str>) -> CResult<()> {
        self.mark(class.span.start);
        let class_name = class.id.as_ref().map(|i| i.name.to_string()).or_else(|| name.map(str::to_string));
        let name_atom = class_name.as_deref().map(|n| self.atom(n)).unwrap_or(atom::empty);
        let scope = class.scope_id.get();
        // Private names, in order of first appearance.
        let mut private: Vec<String> = Vec::new();
        for el in &class.body.body {
            let key = match el {
                ClassElement::MethodDefinition(m) => Some(&m.key),
                ClassElement::PropertyDefinition(p) => Some(&p.key),
                ClassElement::AccessorProperty(a) => Some(&a.key),
                _ => None,
            };
            if let Some(PropertyKey::PrivateIdentifier(p)) = key {
                let n = p.name.to_string();
                if !private.contains(&n) {
                    private.push(n);
                }
            }
        }
        for el in &class.body.body {
            if let ClassElement::AccessorProperty(a) = el {
                private.push(accessor_storage_name(a));
            }
        }
        let decorated = class_is_decorated(class);
        // Class decorators are evaluated first, outside the class scope.
        let class_decorators = if decorated { Some(self.compile_decorator_list(&class.decorators)?) } else { None };
        let level = self.func.env_level + 1;
        // The inner name binding is read from methods and from field initialisers, which are
        // functions of their own here though oxc gives initialisers no function scope: an
        // env slot whenever it is referenced at all.
        if let Some(s) = scope {
            let referenced: Vec<_> = self
                .scoping
                .iter_bindings_in(s)
                .filter(|&b| !self.scoping.get_resolved_reference_ids(b).is_empty())
                .collect();
            for b in referenced {
                self.captured[b.index()] = true;
            }
        }
        let mut slots = match scope {
            Some(s) => self.declare_scope(s, level),
            None => 0,
        };
        let mut private_locs = Vec::new();
        for p in &private {
            private_locs.push((p.clone(), Loc::Env { level, slot: slots }));
            slots += 1;
        }
        // Slots for private methods' closures, private auto-accessors' pairs and computed
        // field keys.
        let mut extra_slots: Vec<u32> = Vec::new();
        for el in &class.body.body {
            let needs = match el {
                ClassElement::MethodDefinition(m) => matches!(m.key, PropertyKey::PrivateIdentifier(_)) && !m.r#static,
                ClassElement::PropertyDefinition(p) => p.computed,
                ClassElement::AccessorProperty(a) => matches!(a.key, PropertyKey::PrivateIdentifier(_)) && !a.r#static,
                _ => false,
            };
            if needs {
                extra_slots.push(slots);
                slots += 1;
            }
        }
        // A decorated class's lists and decorated class (decorators.rs).
        let deco_slots = decorated.then(|| {
            let mut d = DecoSlots {
                instance_extras: slots,
                static_extras: slots + 1,
                class_this: slots + 2,
                ..Default::default()
            };
            slots += 3;
            for el in &class.body.body {
                let start = match el {
                    ClassElement::PropertyDefinition(p) if !p.decorators.is_empty() => p.span.start,
                    ClassElement::AccessorProperty(a) if !a.decorators.is_empty() => a.span.start,
                    _ => continue,
                };
                d.fields.push((start, slots, slots + 1));
                slots += 2;
            }
            d
        });
        let pushed = slots > 0;
        if pushed {
            self.emit(Op::PushEnv(slots));
            self.func.env_level = level;
            self.func.controls.push(Control::Env);
        }
        if let Some(s) = scope {
            self.init_tdz(s);
        }
        for (p, loc) in &private_locs {
            let a = self.atom(&format!("#{p}"));
            self.emit(Op::NewPrivateName(a));
            self.emit_store(*loc, false);
        }
        if let Some(d) = &deco_slots {
            self.emit_decoration_lists(d, level);
        }
        self.private_names.push(private_locs);
        let deco = deco_slots.map(|slots| (slots, class_decorators.unwrap_or(0)));
        let r = self.compile_class_body(class, name_atom, &extra_slots, level, deco);
        self.private_names.pop();
        if let Some(t) = class_decorators {
            self.free_temp(t);
        }
        if pushed {
            self.emit(Op::PopEnv);
            self.func.env_level -= 1;
            self.func.controls.pop();
        }
        r
    }

    fn compile_class_body(
        &mut self,
        class: &'s Class<'s>,
        name: Atom,
        extra_slots: &[u32],
        level: u32,
        deco: Option<(DecoSlots, u32)>,
    ) -> CResult<()> {
        let derived = class.heritage.is_some();
        if let Some(h) = &class.heritage {
            self.compile_expr(&h.expression)?;
        }
        // The constructor.
        let ctor = class.body.body.iter().find_map(|el| match el {
            ClassElement::MethodDefinition(m) if m.kind == MethodDefinitionKind::Constructor => Some(m),
            _ => None,
        });
        if let Some(m) = ctor {
            if let Some(d) = m.decorators.first() {
                return Err(self.error("Decorators are not valid on a class constructor", d.span.start));
            }
        }
        let kind = if derived { FunctionKind::DerivedConstructor } else { FunctionKind::ClassConstructor };
        let ctor_idx = match ctor {
            Some(m) => self.compile_fn(FnSpec {
                kind,
                params: &m.value.params,
                body: m.value.body.as_deref(),
                expression_body: None,
                scope: m.value.scope_id.get(),
                span: class.span,
                name: Some(name),
                class_constructor: true,
                method: true,
            })?,
            None => self.default_constructor(derived, name, class.span)?,
        };
        self.emit(Op::CreateClass { code: ctor_idx, derived, name });
        let tproto = self.temp();
        let tctor = self.temp();
        self.emit(Op::SetLocal(tproto));
        self.emit(Op::SetLocal(tctor));
        // A decorated class's metadata object.
        let tmeta = if deco.is_some() {
            let t = self.temp();
            self.emit(Op::GetLocal(tctor));
            self.emit(Op::NewMetadata);
            self.emit(Op::SetLocal(t));
            Some(t)
        } else {
            None
        };
        let mut extra = extra_slots.iter().copied();
        let mut instance_elems: Vec<(&'s ClassElement<'s>, Option<u32>)> = Vec::new();
        let mut static_elems: Vec<(&'s ClassElement<'s>, Option<u32>)> = Vec::new();
        let mut private_accessors: Vec<(String, bool, Option<u32>, Option<u32>)> = Vec::new();
        // Auto-accessor pairs under a private name: (name, env slot) / (name, register).
        let mut instance_pairs: Vec<(String, u32)> = Vec::new();
        let mut static_pairs: Vec<(String, u32)> = Vec::new();
        // Decorated static private methods, defined once decorated: (name, register).
        let mut static_private_methods: Vec<(String, u32)> = Vec::new();
        let mut decorated: Vec<ElementDeco> = Vec::new();
        let lists_of = |start: u32| deco.as_ref().and_then(|(d, _)| d.lists_of(start));
        for el in &class.body.body {
            let decorators = super::decorators::element_decorators(el);
            let decs = if decorators.is_empty() { None } else { Some(self.compile_decorator_list(decorators)?) };
            match el {
                ClassElement::MethodDefinition(m) if m.kind == MethodDefinitionKind::Constructor => {}
                ClassElement::MethodDefinition(m) => {
                    let target = if m.r#static { tctor } else { tproto };
                    let flags = match m.kind {
                        MethodDefinitionKind::Get => 2,
                        MethodDefinitionKind::Set => 4,
                        _ => 0,
                    };
                    let dkind = match m.kind {
                        MethodDefinitionKind::Get => DecoratorKind::Getter,
                        MethodDefinitionKind::Set => DecoratorKind::Setter,
                        _ => DecoratorKind::Method,
                    };
                    let mut record = |value: Option<Loc>, key: DecoKey| {
                        if let Some(d) = decs {
                            decorated.push(ElementDeco {
                                kind: dkind,
                                is_static: m.r#static,
                                decorators: d,
                                key,
                                value,
                                lists: None,
                            });
                        }
                    };
                    if let PropertyKey::PrivateIdentifier(p) = &m.key {
                        let pname = p.name.to_string();
                        let fname = self.atom(&format!("#{pname}"));
                        let idx = self.compile_method(&m.value, Some(fname), self.method_span(m))?;
                        // Closure with home object = target.
                        self.emit(Op::GetLocal(target));
                        self.emit(Op::Closure(idx));
                        self.emit(Op::SetHomeObject);
                        self.emit(Op::Swap);
                        self.emit(Op::Pop);
                        if !m.r#static {
                            let slot = extra.next().unwrap_or(0);
                            self.emit_store(Loc::Env { level, slot }, false);
                            if flags == 0 {
                                instance_elems.push((el, Some(slot)));
                            } else {
                                merge_accessor(&mut private_accessors, pname.clone(), false, flags, slot);
                            }
                            record(Some(Loc::Env { level, slot }), DecoKey::Private(pname));
                        } else if flags == 0 && decs.is_none() {
                            let t = self.temp();
                            self.emit(Op::SetLocal(t));
                            self.emit(Op::GetLocal(tctor));
                            self.emit_private_key(&pname, m.span.start)?;
                            self.emit(Op::GetLocal(t));
                            self.emit(Op::DefinePrivateMethod);
                            self.emit(Op::Pop);
                            self.free_temp(t);
                        } else {
                            let t = self.temp();
                            self.emit(Op::SetLocal(t));
                            if flags == 0 {
                                static_private_methods.push((pname.clone(), t));
                            } else {
                                merge_accessor(&mut private_accessors, pname.clone(), true, flags, t);
                            }
                            record(Some(Loc::Register(t)), DecoKey::Private(pname));
                        }
                        continue;
                    }
                    let fname = self.static_key_name(&m.key, m.computed);
                    self.emit(Op::GetLocal(target));
                    let key = self.compile_property_key(&m.key, m.computed)?;
                    let dkey = match (decs, key, &fname) {
                        (None, _, _) => None,
                        (Some(_), Some(_), Some(n)) => Some(DecoKey::Name(n.clone())),
                        (Some(_), _, _) => {
                            let t = self.temp();
                            self.emit(Op::Dup);
                            self.emit(Op::SetLocal(t));
                            Some(DecoKey::At(Loc::Register(t)))
                        }
                    };
                    let a = fname.as_deref().map(|n| self.atom(n));
                    let idx = self.compile_method(&m.value, a, self.method_span(m))?;
                    self.emit(Op::Closure(idx));
                    match key {
                        Some(name) => self.emit(Op::DefineMethod { name, flags }),
                        None => self.emit(Op::DefineMethodElem { flags }),
                    }
                    self.emit(Op::Pop);
                    if let Some(k) = dkey {
                        record(None, k);
                    }
                }
                ClassElement::PropertyDefinition(p) => {
                    let slot = if p.computed {
                        let slot = extra.next().unwrap_or(0);
                        if let Some(e) = p.key.as_expression() {
                            self.compile_expr(e)?;
                        }
                        self.emit(Op::ToPropertyKey);
                        self.emit_store(Loc::Env { level, slot }, false);
                        Some(slot)
                    } else {
                        None
                    };
                    if let Some(d) = decs {
                        let key = match (&p.key, slot) {
                            (PropertyKey::PrivateIdentifier(id), _) => DecoKey::Private(id.name.to_string()),
                            (_, Some(slot)) => DecoKey::At(Loc::Env { level, slot }),
                            _ => DecoKey::Name(self.static_key_name(&p.key, false).unwrap_or_default()),
                        };
                        let lists = lists_of(p.span.start);
                        decorated.push(ElementDeco {
                            kind: DecoratorKind::Field,
                            is_static: p.r#static,
                            decorators: d,
                            key,
                            value: None,
                            lists,
                        });
                    }
                    if p.r#static {
                        static_elems.push((el, slot));
                    } else {
                        instance_elems.push((el, slot));
                    }
                }
                ClassElement::StaticBlock(_) => static_elems.push((el, None)),
                ClassElement::AccessorProperty(a) => {
                    let storage = accessor_storage_name(a);
                    let getter = self.compile_auto_accessor_fn(&storage, false, a.span)?;
                    let setter = self.compile_auto_accessor_fn(&storage, true, a.span)?;
                    let (key, value) = if let PropertyKey::PrivateIdentifier(p) = &a.key {
                        let pname = p.name.to_string();
                        self.emit(Op::Closure(getter));
                        self.emit(Op::Closure(setter));
                        self.emit(Op::MakeAccessorPair);
                        let loc = if a.r#static {
                            let t = self.temp();
                            static_pairs.push((pname.clone(), t));
                            Loc::Register(t)
                        } else {
                            let slot = extra.next().unwrap_or(0);
                            instance_pairs.push((pname.clone(), slot));
                            Loc::Env { level, slot }
                        };
                        self.emit_store(loc, false);
                        (DecoKey::Private(pname), Some(loc))
                    } else {
                        self.emit(Op::GetLocal(if a.r#static { tctor } else { tproto }));
                        let key = match self.compile_property_key(&a.key, a.computed)? {
                            Some(name) => {
                                self.emit(Op::Closure(getter));
                                self.emit(Op::DefineMethod { name, flags: 2 });
                                self.emit(Op::Closure(setter));
                                self.emit(Op::DefineMethod { name, flags: 4 });
                                DecoKey::Name(self.static_key_name(&a.key, false).unwrap_or_default())
                            }
                            None => {
                                let t = self.temp();
                                self.emit(Op::SetLocal(t));
                                for (f, flags) in [(getter, 2), (setter, 4)] {
                                    self.emit(Op::GetLocal(t));
                                    self.emit(Op::Closure(f));
                                    self.emit(Op::DefineMethodElem { flags });
                                }
                                if decs.is_none() {
                                    self.free_temp(t);
                                }
                                DecoKey::At(Loc::Register(t))
                            }
                        };
                        self.emit(Op::Pop);
                        (key, None)
                    };
                    if let Some(d) = decs {
                        let lists = lists_of(a.span.start);
                        decorated.push(ElementDeco {
                            kind: DecoratorKind::Accessor,
                            is_static: a.r#static,
                            decorators: d,
                            key,
                            value,
                            lists,
                        });
                    }
                    if a.r#static {
                        static_elems.push((el, None));
                    } else {
                        instance_elems.push((el, None));
                    }
                }
                ClassElement::TSIndexSignature(t) => {
                    return Err(self.error("Unsupported syntax (TypeScript)", t.span.start))
                }
            }
        }
        // The element decorators, once every element is defined.
        if let (Some((slots, _)), Some(tmeta)) = (&deco, tmeta) {
            self.emit_element_decorations(&decorated, slots, level, tctor, tproto, tmeta)?;
        }
        for (pname, t) in &static_private_methods {
            self.emit(Op::GetLocal(tctor));
            self.emit_private_key(pname, 0)?;
            self.emit(Op::GetLocal(*t));
            self.emit(Op::DefinePrivateMethod);
            self.emit(Op::Pop);
            self.free_temp(*t);
        }
        for (pname, t) in &static_pairs {
            self.emit(Op::GetLocal(tctor));
            self.emit_private_key(pname, 0)?;
            self.emit(Op::GetLocal(*t));
            self.emit(Op::DefinePrivate);
            self.emit(Op::Pop);
            self.free_temp(*t);
        }
        // Private accessors: build pairs; instance ones go to the initializer, static ones now.
        for (pname, is_static, get, set) in &private_accessors {
            if *is_static {
                self.emit(Op::GetLocal(tctor));
                self.emit_private_key(pname, 0)?;
                match get {
                    Some(g) => self.emit(Op::GetLocal(*g)),
                    None => self.emit(Op::Undefined),
                }
                match set {
                    Some(s) => self.emit(Op::GetLocal(*s)),
                    None => self.emit(Op::Undefined),
                }
                self.emit(Op::MakeAccessorPair);
                self.emit(Op::DefinePrivate);
                self.emit(Op::Pop);
                for r in [get, set].into_iter().flatten() {
                    self.free_temp(*r);
                }
            }
        }
        let instance_accessors: Vec<(String, Option<u32>, Option<u32>)> =
            private_accessors.iter().filter(|(_, s, _, _)| !s).map(|(n, _, g, s)| (n.clone(), *g, *s)).collect();
        let init_decos = |is_static| deco.as_ref().map(|(slots, _)| InitDecos { slots, level, is_static });
        if !instance_elems.is_empty() || !instance_accessors.is_empty() || !instance_pairs.is_empty() || deco.is_some()
        {
            let d = init_decos(false);
            let idx =
                self.compile_initializer(&instance_elems, &instance_accessors, &instance_pairs, level, d.as_ref())?;
            self.emit(Op::GetLocal(tctor));
            self.emit(Op::GetLocal(tproto));
            self.emit(Op::Closure(idx));
            self.emit(Op::SetHomeObject);
            self.emit(Op::Swap);
            self.emit(Op::Pop);
            self.emit(Op::SetClassFields);
            self.emit(Op::Pop);
        }
        // The class decorators, last; from here on the class is their result.
        let tclass_extras = self.temp();
        let class_loc = match (&deco, tmeta) {
            (Some((slots, decorators)), Some(tmeta)) => {
                self.emit(Op::NewArray(0));
                self.emit(Op::SetLocal(tclass_extras));
                let text = self.vm.heap.atoms.get(name).to_rust_string();
                self.emit_class_decoration(*decorators, &text, slots, level, (tctor, tmeta, tclass_extras));
                Loc::Env { level, slot: slots.class_this }
            }
            _ => Loc::Register(tctor),
        };
        // The inner class binding (a named class expression's own symbol, or the one
        // `class_binding.rs` gives a declaration) is initialised before static elements run.
        if let (Some(id), Some(scope)) = (&class.id, class.scope_id.get()) {
            let inner: Vec<_> = self
                .scoping
                .iter_bindings_in(scope)
                .filter(|&s| self.scoping.symbol_name(s) == id.name.as_str())
                .collect();
            for s in inner {
                self.emit_load(class_loc, false);
                self.emit_init(s);
            }
        }
        if !static_elems.is_empty() || deco.is_some() {
            let d = init_decos(true);
            let idx = self.compile_initializer(&static_elems, &[], &[], level, d.as_ref())?;
            self.emit(Op::GetLocal(tctor));
            self.emit(Op::Closure(idx));
            self.emit(Op::SetHomeObject);
            self.emit(Op::Swap);
            self.emit(Op::Call(0));
            self.emit(Op::Pop);
        }
        if deco.is_some() {
            self.emit_load(class_loc, false);
            self.emit(Op::GetLocal(tclass_extras));
            self.emit(Op::RunInitializers(0));
            self.emit(Op::Pop);
        }
        self.emit_load(class_loc, false);
        self.free_temp(tclass_extras);
        if let Some(t) = tmeta {
            self.free_temp(t);
        }
        self.free_temp(tctor);
        self.free_temp(tproto);
        Ok(())
    }

    /// The MethodDefinition's own text: a `static` prefix is not part of it.
    fn method_span(&self, m: &MethodDefinition) -> Span {
        let mut span = m.span;
        if m.r#static {
            let text = self.source.get(span.start as usize..span.end as usize).unwrap_or("");
            let mut rest = text.strip_prefix("static").unwrap_or(text);
            loop {
                let t = rest.trim_start();
                if let Some(after) = t.strip_prefix("/*") {
                    rest = after.split_once("*/").map_or("", |(_, r)| r);
                } else if let Some(after) = t.strip_prefix("//") {
                    rest = after.split_once('\n').map_or("", |(_, r)| r);
                } else {
                    rest = t;
                    break;
                }
            }
            span.start = span.end - rest.len() as u32;
        }
        span
    }

    fn default_constructor(&mut self, derived: bool, name: Atom, span: Span) -> CResult<u32> {
        let kind = if derived { FunctionKind::DerivedConstructor } else { FunctionKind::ClassConstructor };
        let mut code = empty_code(kind, true, self.source_id);
        code.name = name;
        code.span = (span.start, span.end);
        code.is_class_constructor = true;
        self.push_function(code, false, None);
        if derived {
            self.emit(Op::CreateRest(0));
            self.emit(Op::SuperCallSpread);
            self.emit(Op::Pop);
        }
        self.emit(Op::Undefined);
        self.emit(Op::Return);
        let id = self.pop_function();
        self.func.code.functions.push(id);
        Ok((self.func.code.functions.len() - 1) as u32)
    }

    /// A synthetic function running field initialisers / static blocks with `this` bound.
    fn compile_initializer(
        &mut self,
        elems: &[(&'s ClassElement<'s>, Option<u32>)],
        accessors: &[(String, Option<u32>, Option<u32>)],
        pairs: &[(String, u32)],
        level: u32,
        deco: Option<&InitDecos>,
    ) -> CResult<u32> {
        let mut code = empty_code(FunctionKind::FieldInit, true, self.source_id);
        code.name = atom::empty;
        self.push_function(code, false, None);
        // Private methods first (they are installed before any field initialiser runs).
        for (el, slot) in elems {
            if let (ClassElement::MethodDefinition(m), Some(slot)) = (el, slot) {
                if let PropertyKey::PrivateIdentifier(p) = &m.key {
                    self.emit(Op::This);
                    self.emit_private_key(p.name.as_str(), m.span.start)?;
                    self.emit_load(Loc::Env { level, slot: *slot }, false);
                    self.emit(Op::DefinePrivateMethod);
                    self.emit(Op::Pop);
                }
            }
        }
        for (pname, get, set) in accessors {
            self.emit(Op::This);
            self.emit_private_key(pname, 0)?;
            match get {
                Some(g) => self.emit_load(Loc::Env { level, slot: *g }, false),
                None => self.emit(Op::Undefined),
            }
            match set {
                Some(s) => self.emit_load(Loc::Env { level, slot: *s }, false),
                None => self.emit(Op::Undefined),
            }
            self.emit(Op::MakeAccessorPair);
            self.emit(Op::DefinePrivate);
            self.emit(Op::Pop);
        }
        for (pname, slot) in pairs {
            self.emit(Op::This);
            self.emit_private_key(pname, 0)?;
            self.emit_load(Loc::Env { level, slot: *slot }, false);
            self.emit(Op::DefinePrivate);
            self.emit(Op::Pop);
        }
        if let Some(d) = deco {
            self.emit_extra_initializers(d);
        }
        for (el, slot) in elems {
            // A decorated field's (initializers, extra initializers) slots.
            let lists = match (el, deco) {
                (ClassElement::PropertyDefinition(p), Some(d)) => d.slots.lists_of(p.span.start),
                (ClassElement::AccessorProperty(a), Some(d)) => d.slots.lists_of(a.span.start),
                _ => None,
            };
            let decorated = deco.zip(lists);
            match el {
                ClassElement::AccessorProperty(a) => {
                    self.mark(a.span.start);
                    self.emit(Op::This);
                    self.emit_private_key(&accessor_storage_name(a), a.span.start)?;
                    if let Some((d, (inits, _))) = decorated {
                        self.emit_field_initializers_start(d, inits);
                    }
                    let fname = self.static_key_name(&a.key, a.computed);
                    match &a.value {
                        Some(v) => self.compile_expr_named(v, fname.as_deref())?,
                        None => self.emit(Op::Undefined),
                    }
                    if decorated.is_some() {
                        self.emit_field_initializers_end();
                    }
                    self.emit(Op::DefinePrivate);
                    self.emit(Op::Pop);
                    if let Some((d, (_, extras))) = decorated {
                        self.emit_field_extra_initializers(d, extras);
                    }
                }
                ClassElement::PropertyDefinition(p) => {
                    self.mark(p.span.start);
                    self.emit(Op::This);
                    if let PropertyKey::PrivateIdentifier(id) = &p.key {
                        self.emit_private_key(id.name.as_str(), p.span.start)?;
                        if let Some((d, (inits, _))) = decorated {
                            self.emit_field_initializers_start(d, inits);
                        }
                        let fname = format!("#{}", id.name);
                        match &p.value {
                            Some(v) => self.compile_expr_named(v, Some(&fname))?,
                            None => self.emit(Op::Undefined),
                        }
                        if decorated.is_some() {
                            self.emit_field_initializers_end();
                        }
                        self.emit(Op::DefinePrivate);
                    } else {
                        let fname = self.static_key_name(&p.key, p.computed);
                        match slot {
                            Some(s) => self.emit_load(Loc::Env { level, slot: *s }, false),
                            None => {
                                let n = fname.clone().unwrap_or_default();
                                self.emit_string(&n);
                            }
                        }
                        if let Some((d, (inits, _))) = decorated {
                            self.emit_field_initializers_start(d, inits);
                        }
                        match &p.value {
                            Some(v) => {
                                // (A decorated field's initializer list sits above the key.)
                                if fname.is_none() && super::expr::is_anonymous_fn(v) && decorated.is_none() {
                                    self.compile_expr(v)?;
                                    self.emit(Op::Swap);
                                    self.emit(Op::SetFunctionName { prefix: 0 });
                                    self.emit(Op::Swap);
                                } else {
                                    self.compile_expr_named(v, fname.as_deref())?;
                                }
                            }
                            None => self.emit(Op::Undefined),
                        }
                        if decorated.is_some() {
                            self.emit_field_initializers_end();
                        }
                        self.emit(Op::DefineElem);
                    }
                    self.emit(Op::Pop);
                    if let Some((d, (_, extras))) = decorated {
                        self.emit_field_extra_initializers(d, extras);
                    }
                }
                ClassElement::StaticBlock(b) => {
                    // A static block is its own function body (own var scope).
                    let mut code = empty_code(FunctionKind::FieldInit, true, self.source_id);
                    code.span = (b.span.start, b.span.end);
                    self.push_function(code, false, b.scope_id.get());
                    let lvl = self.func.env_level + 1;
                    let slots = match b.scope_id.get() {
                        Some(s) => self.declare_scope(s, lvl),
                        None => 0,
                    };
                    self.func.code.env_slots = slots;
                    if slots > 0 {
                        self.func.env_level = lvl;
                    }
                    if let Some(s) = b.scope_id.get() {
                        self.init_tdz(s);
                    }
                    self.hoist_functions(&b.body, false)?;
                    self.compile_statements(&b.body)?;
                    let id = self.pop_function();
                    self.func.code.functions.push(id);
                    let idx = (self.func.code.functions.len() - 1) as u32;
                    // Call it with this and the same home object.
                    self.emit(Op::This);
                    self.emit(Op::Closure(idx));
                    self.emit(Op::SetHomeObject);
                    self.emit(Op::Swap);
                    self.emit(Op::Call(0));
                    self.emit(Op::Pop);
                }
                _ => {}
            }
        }
        let id = self.pop_function();
        self.func.code.functions.push(id);
        Ok((self.func.code.functions.len() - 1) as u32)
    }
}

/// Every binding identifier's symbol in a pattern.
pub(crate) fn pattern_symbols(p: &BindingPattern, out: &mut Vec<oxc_syntax::symbol::SymbolId>) {
    match p {
        BindingPattern::BindingIdentifier(id) => out.extend(id.symbol_id.get()),
        BindingPattern::AssignmentPattern(a) => pattern_symbols(&a.left, out),
        BindingPattern::ObjectPattern(o) => {
            for prop in &o.properties {
                pattern_symbols(&prop.value, out);
            }
            if let Some(r) = &o.rest {
                pattern_symbols(&r.argument, out);
            }
        }
        BindingPattern::ArrayPattern(a) => {
            for el in a.elements.iter().flatten() {
                pattern_symbols(el, out);
            }
            if let Some(r) = &a.rest {
                pattern_symbols(&r.argument, out);
            }
        }
    }
}

fn merge_accessor(
    list: &mut Vec<(String, bool, Option<u32>, Option<u32>)>,
    name: String,
    is_static: bool,
    flags: u8,
    slot: u32,
) {
    let entry = match list.iter_mut().find(|(n, s, _, _)| *n == name && *s == is_static) {
        Some(e) => e,
        None => {
            list.push((name, is_static, None, None));
            let last = list.len() - 1;
            &mut list[last]
        }
    };
    if flags == 2 {
        entry.2 = Some(slot);
    } else {
        entry.3 = Some(slot);
    }
}
