//! Bindings: where each name of a scope lives (register, environment slot, global, import
//! cell, eval var bag) and the loads, stores and initializations that reach it.

use oxc_syntax::scope::ScopeId;
use oxc_syntax::symbol::SymbolId;

use super::{call_site, CResult, Compiler, Control, DynamicTarget, Loc, NameRef, LEXICAL};
use crate::bytecode::{EnvBinding, ErrorHint, ErrorSite, EvalBindingKind, Op, SuspendSite};

impl Compiler<'_, '_> {
    /// Declare every binding of `scope`: registers for uncaptured, env slots for captured.
    /// Returns the number of env slots needed (the caller pushes the env when > 0).
    pub fn declare_scope(&mut self, scope: ScopeId, env_level: u32) -> u32 {
        let mut syms: Vec<SymbolId> = self.scoping.iter_bindings_in(scope).collect();
        syms.sort();
        let mut slots = 0;
        for s in syms {
            if let Some(l) = self.locs[s.index()] {
                // Re-entering a scope (for-in/of heads are entered twice): keep the layout.
                if let Loc::Env { level, slot } = l {
                    if level == env_level {
                        slots = slots.max(slot + 1);
                    }
                }
                continue;
            }
            let name = self.scoping.symbol_name(s).to_string();
            let name_atom = self.atom(&name);
            if self.global_scope == Some(scope) {
                self.locs[s.index()] = Some(Loc::Global(name_atom));
                continue;
            }
            if self.captured[s.index()] {
                self.locs[s.index()] = Some(Loc::Env { level: env_level, slot: slots });
                slots += 1;
            } else {
                let r = self.alloc_register(name_atom);
                self.locs[s.index()] = Some(Loc::Register(r));
            }
        }
        // Noted even without slots: the level's names from an earlier sibling must not stay.
        self.note_env_names(scope, env_level);
        slots
    }

    /// Remembers the names of `scope`'s bindings held at `env_level` (for suspend sites).
    pub(super) fn note_env_names(&mut self, scope: ScopeId, env_level: u32) {
        let mut names = Vec::new();
        let syms: Vec<SymbolId> = self.scoping.iter_bindings_in(scope).collect();
        for s in syms {
            if let Some(Loc::Env { level, slot }) = self.locs[s.index()] {
                if level == env_level {
                    let name = self.scoping.symbol_name(s).to_string();
                    names.push(EnvBinding { name: self.atom(&name), level, slot });
                }
            }
        }
        names.sort_by_key(|b| b.slot);
        self.set_env_names(env_level, names);
    }

    /// From here on, eval code finds each body binding of a parameter's name (param_scope.rs)
    /// by the name, in place of the parameter.
    pub(crate) fn note_body_bindings(&mut self, env_level: u32, pairs: &[(SymbolId, SymbolId)]) {
        let Some(index) = env_level.checked_sub(self.func.base_env_level + 1) else { return };
        for &(_, body_sym) in pairs {
            let Some(Loc::Env { level, slot }) = self.locs[body_sym.index()] else { continue };
            if level != env_level {
                continue;
            }
            let name = self.atom(self.scoping.symbol_name(body_sym));
            let Some(names) = self.func.env_names.get_mut(index as usize) else { continue };
            names.retain(|b| b.name != name);
            names.push(EnvBinding { name, level, slot });
            names.sort_by_key(|b| b.slot);
        }
    }

    pub(super) fn set_env_names(&mut self, env_level: u32, names: Vec<EnvBinding>) {
        let Some(index) = env_level.checked_sub(self.func.base_env_level + 1) else { return };
        let index = index as usize;
        if self.func.env_names.len() <= index {
            self.func.env_names.resize(index + 1, Vec::new());
        }
        self.func.env_names[index] = names;
    }

    /// Records what a TypeError at the instruction about to be emitted names.
    pub(crate) fn note_error_site(&mut self, hint: ErrorHint, text: String, property: Option<String>) {
        let pc = self.pc();
        self.func.code.error_sites.push(ErrorSite { pc, hint, text, property });
    }

    /// Records the callee text of the call or `new` about to be emitted.
    pub(crate) fn note_callee(&mut self, callee: &oxc_ast::ast::Expression<'_>) {
        let text = call_site::render(callee, false);
        self.note_error_site(ErrorHint::Callee, text, None);
    }

    /// Records the iterable text of the `GetIterator`/`GetAsyncIterator`/`ArraySpread` about
    /// to be emitted.
    pub(crate) fn note_iterable(&mut self, iterable: &oxc_ast::ast::Expression<'_>, is_async: bool) {
        let text = call_site::render(iterable, !is_async);
        let hint = if call_site::is_call(iterable) { ErrorHint::CallResult } else { ErrorHint::Iterable };
        self.note_error_site(hint, text, None);
    }

    /// Records the captured bindings in scope at the `Await` about to be emitted.
    pub(super) fn note_suspend_site(&mut self) {
        let level = self.func.env_level;
        let own = level.saturating_sub(self.func.base_env_level) as usize;
        let names: Vec<EnvBinding> = self.func.env_names.iter().take(own).rev().flatten().copied().collect();
        if !names.is_empty() {
            let pc = self.pc();
            self.func.code.suspend_sites.push(SuspendSite { pc, level, names });
        }
    }

    /// Location of a symbol (declaring it lazily as a register if the scope walk missed it).
    pub fn loc_of(&mut self, s: SymbolId) -> Loc {
        if let Some(l) = self.locs[s.index()] {
            return l;
        }
        let name = self.scoping.symbol_name(s).to_string();
        let a = self.atom(&name);
        // A binding no scope walk declared yet. It may only become a register of the
        // function that owns it; from any other function it can only be reached by name.
        let owner = self.function_scope_of(self.scoping.symbol_scope_id(s));
        let current = self.func.scope_id.map(|sc| self.function_scope_of(sc));
        if current.is_some() && current != Some(owner) || (current.is_none() && !self.outer.is_empty()) {
            return Loc::Global(a);
        }
        let r = self.alloc_register(a);
        let l = Loc::Register(r);
        self.locs[s.index()] = Some(l);
        l
    }

    /// The nearest enclosing function (or top-level) scope of `scope`.
    pub fn function_scope_of(&self, mut scope: ScopeId) -> ScopeId {
        loop {
            let f = self.scoping.scope_flags(scope);
            if f.is_function() || f.is_top() || f.is_class_static_block() {
                return scope;
            }
            match self.scoping.scope_parent_id(scope) {
                Some(p) => scope = p,
                None => return scope,
            }
        }
    }

    /// Does the binding need a TDZ check when read?
    pub fn needs_tdz(&self, s: SymbolId) -> bool {
        if self.tdz_params.get(s.index()).copied().unwrap_or(false) {
            return true;
        }
        let f = self.scoping.symbol_flags(s);
        f.intersects(oxc_syntax::symbol::SymbolFlags::BlockScopedVariable | oxc_syntax::symbol::SymbolFlags::Class)
    }

    pub fn is_const(&self, s: SymbolId) -> bool {
        self.scoping.symbol_flags(s).contains(oxc_syntax::symbol::SymbolFlags::ConstVariable)
    }

    /// Emit a read of a location.
    pub fn emit_load(&mut self, loc: Loc, checked: bool) {
        match loc {
            Loc::Register(r) => self.emit(if checked { Op::GetLocalChecked(r) } else { Op::GetLocal(r) }),
            Loc::Env { level, slot } => {
                let depth = self.func.env_level.saturating_sub(level) as u16;
                self.emit(if checked { Op::GetEnvChecked { depth, slot } } else { Op::GetEnv { depth, slot } })
            }
            Loc::Global(name) => self.emit(Op::GetGlobal(name)),
            Loc::Import(cell) => self.emit(Op::GetImport(cell)),
            Loc::EvalVar(name) => self.emit(Op::GetName(name)),
        }
    }

    /// Emit a store (pops the value) to a location.
    pub fn emit_store(&mut self, loc: Loc, checked: bool) {
        let strict = self.func.code.strict;
        match loc {
            Loc::Register(r) => self.emit(if checked { Op::SetLocalChecked(r) } else { Op::SetLocal(r) }),
            Loc::Env { level, slot } => {
                let depth = self.func.env_level.saturating_sub(level) as u16;
                self.emit(if checked { Op::SetEnvChecked { depth, slot } } else { Op::SetEnv { depth, slot } })
            }
            Loc::Global(name) => self.emit(Op::SetGlobal { name, strict }),
            Loc::EvalVar(name) => self.emit(Op::SetName { name, strict }),
            Loc::Import(_) => {
                // Import bindings are immutable: SetMutableBinding throws a TypeError.
                self.emit(Op::Pop);
                let msg = self.string_constant("Assignment to constant variable.");
                self.emit(Op::ThrowError { kind: 0, msg });
            }
        }
    }

    /// Emit an initialising store for a declaration (pops).
    pub fn emit_init(&mut self, s: SymbolId) {
        let loc = self.loc_of(s);
        match loc {
            Loc::Global(name) => {
                if self.needs_tdz(s) {
                    self.emit(Op::InitGlobalLexical(name));
                } else {
                    self.emit(Op::SetGlobal { name, strict: false });
                }
            }
            _ => self.emit_store(loc, false),
        }
    }

    /// Put lexical bindings of a scope in their TDZ (Empty) at scope entry.
    pub fn init_tdz(&mut self, scope: ScopeId) {
        let mut syms: Vec<SymbolId> = self.scoping.iter_bindings_in(scope).collect();
        syms.sort();
        for s in syms {
            let lexical = self.scoping.symbol_flags(s).intersects(
                oxc_syntax::symbol::SymbolFlags::BlockScopedVariable | oxc_syntax::symbol::SymbolFlags::Class,
            );
            if lexical {
                let loc = self.loc_of(s);
                if !matches!(loc, Loc::Global(_)) {
                    self.emit(Op::Empty);
                    self.emit_store(loc, false);
                }
            }
        }
    }

    /// Enter a block scope: declare, push an env if needed, TDZ, hoist functions.
    /// Returns whether an env was pushed.
    pub fn enter_block_scope(&mut self, scope: Option<ScopeId>) -> bool {
        let Some(scope) = scope else { return false };
        let level = self.func.env_level + 1;
        let slots = self.declare_scope(scope, level);
        let pushed = slots > 0;
        if pushed {
            self.emit(Op::PushEnv(slots));
            self.func.env_level = level;
            self.func.controls.push(Control::Env);
        }
        self.init_tdz(scope);
        pushed
    }

    pub fn leave_block_scope(&mut self, pushed: bool) {
        if pushed {
            self.emit(Op::PopEnv);
            self.func.env_level -= 1;
            self.func.controls.pop();
        }
    }

    /// Resolve an identifier reference to a load.
    pub fn emit_identifier_load(&mut self, ident: &oxc_ast::ast::IdentifierReference, typeof_ctx: bool) -> CResult<()> {
        let name = ident.name.as_str();
        if let Some(target) = self.dynamic_target(ident) {
            let a = self.atom(name);
            match target {
                DynamicTarget::Env { level, slot, checked, .. } => {
                    let depth = self.env_depth_to(level);
                    self.emit(Op::GetNameEnv { name: a, depth, slot, checked });
                }
                DynamicTarget::Name => self.emit(if typeof_ctx { Op::TypeofName(a) } else { Op::GetName(a) }),
            }
            return Ok(());
        }
        if let Some(sym) = ident.reference_id.get().and_then(|r| self.scoping.get_reference(r).symbol_id()) {
            if let Some(loc) = self.parameter_arguments(sym) {
                self.emit_load(loc, false);
                return Ok(());
            }
            if let Some(Loc::Global(_)) | None = self.locs[sym.index()] {
                if self.locs[sym.index()].is_none() && !self.is_global_symbol(sym) {
                    let loc = self.loc_of(sym);
                    let tdz = self.needs_tdz(sym);
                    self.emit_load(loc, tdz);
                    return Ok(());
                }
            }
            let loc = self.loc_of(sym);
            let tdz = self.needs_tdz(sym);
            if let Loc::Global(a) = loc {
                // A var-like global may not exist after all (an Annex B.3.3 function whose
                // hoisting was blocked declares none): `typeof` of it is "undefined".
                if typeof_ctx && !self.scoping.symbol_flags(sym).intersects(LEXICAL) {
                    self.emit(Op::GetGlobalOrUndefined(a));
                    return Ok(());
                }
            }
            self.emit_load(loc, tdz);
            return Ok(());
        }
        // Unresolved: `arguments`, or a global.
        if name == "arguments" {
            if let Some(loc) = self.arguments_loc() {
                self.emit_load(loc, false);
                return Ok(());
            }
        }
        let a = self.atom(name);
        self.emit(if typeof_ctx { Op::GetGlobalOrUndefined(a) } else { Op::GetGlobal(a) });
        Ok(())
    }

    pub(super) fn is_global_symbol(&self, sym: SymbolId) -> bool {
        Some(self.scoping.symbol_scope_id(sym)) == self.global_scope
    }

    /// Store the value on the stack (popping it) into an identifier.
    pub fn emit_identifier_store(&mut self, ident: &oxc_ast::ast::IdentifierReference) -> CResult<()> {
        let name = ident.name.as_str();
        let strict = self.func.code.strict;
        let sym = ident.reference_id.get().and_then(|r| self.scoping.get_reference(r).symbol_id());
        if sym.is_none_or(|s| !self.is_const(s)) {
            if let Some(target) = self.dynamic_target(ident) {
                let a = self.atom(name);
                match target {
                    DynamicTarget::Env { kind: EvalBindingKind::Const, .. } => {
                        self.emit(Op::Pop);
                        let msg = self.string_constant("Assignment to constant variable.");
                        self.emit(Op::ThrowError { kind: 0, msg });
                    }
                    DynamicTarget::Env { kind: EvalBindingKind::FunctionName, .. } => {
                        self.emit(Op::Pop);
                        if strict {
                            let msg = self.string_constant("Assignment to constant variable.");
                            self.emit(Op::ThrowError { kind: 0, msg });
                        }
                    }
                    DynamicTarget::Env { level, slot, checked, .. } => {
                        let depth = self.env_depth_to(level);
                        self.emit(Op::SetNameEnv { name: a, depth, slot, checked });
                    }
                    DynamicTarget::Name => self.emit(Op::SetName { name: a, strict }),
                }
                return Ok(());
            }
        }
        if let Some(loc) = sym.and_then(|s| self.parameter_arguments(s)) {
            self.emit_store(loc, false);
            return Ok(());
        }
        if let Some(sym) = sym {
            if self.is_const(sym) {
                self.emit(Op::Pop);
                let loc = self.loc_of(sym);
                // Reading first gives the TDZ error precedence over the const error.
                self.emit_load(loc, true);
                self.emit(Op::Pop);
                let msg = self.string_constant("Assignment to constant variable.");
                self.emit(Op::ThrowError { kind: 0, msg });
                return Ok(());
            }
            let loc = self.loc_of(sym);
            let tdz = self.needs_tdz(sym);
            // Named function expressions' own name binding is read-only (silently in sloppy).
            if self.scoping.symbol_flags(sym).contains(oxc_syntax::symbol::SymbolFlags::FunctionExpression) {
                self.emit(Op::Pop);
                if strict {
                    let msg = self.string_constant("Assignment to constant variable.");
                    self.emit(Op::ThrowError { kind: 0, msg });
                }
                return Ok(());
            }
            self.emit_store(loc, tdz);
            return Ok(());
        }
        if name == "arguments" {
            if let Some(loc) = self.arguments_loc() {
                self.emit_store(loc, false);
                return Ok(());
            }
        }
        let a = self.atom(name);
        self.emit(Op::SetGlobal { name: a, strict });
        Ok(())
    }

    /// Push `callee this` for a call of an identifier: a function found on a `with` object
    /// is called with the object as `this`.
    pub fn emit_identifier_callee(&mut self, ident: &oxc_ast::ast::IdentifierReference) -> CResult<()> {
        match self.dynamic_target(ident) {
            Some(DynamicTarget::Env { level, slot, checked, .. }) => {
                let a = self.atom(ident.name.as_str());
                let depth = self.env_depth_to(level);
                self.emit(Op::GetNameEnvThis { name: a, depth, slot, checked });
            }
            Some(DynamicTarget::Name) => {
                let a = self.atom(ident.name.as_str());
                self.emit(Op::GetNameThis(a));
            }
            None => {
                self.emit_identifier_load(ident, false)?;
                self.emit(Op::Undefined);
            }
        }
        Ok(())
    }

    /// `delete name`.
    pub fn emit_identifier_delete(&mut self, ident: &oxc_ast::ast::IdentifierReference) {
        let a = self.atom(ident.name.as_str());
        match self.dynamic_target(ident) {
            Some(DynamicTarget::Env { level, .. }) => {
                let depth = self.env_depth_to(level);
                self.emit(Op::DeleteNameEnv { name: a, depth });
            }
            Some(DynamicTarget::Name) => self.emit(Op::DeleteName(a)),
            None => {
                let resolved = ident.reference_id.get().and_then(|r| self.scoping.get_reference(r).symbol_id());
                match resolved {
                    Some(sym) if !matches!(self.loc_of(sym), Loc::Global(_)) => self.emit(Op::False),
                    // The arguments object's binding is not deletable (CreateMutableBinding
                    // with D false).
                    None if ident.name == "arguments" && self.arguments_loc().is_some() => self.emit(Op::False),
                    _ => self.emit(Op::DeleteName(a)),
                }
            }
        }
    }

    /// For an assignment to `ident` that may resolve through an object environment: resolve
    /// it now (pushing the reference's base) and return the operands of the later get/put.
    pub fn emit_reference_resolve(&mut self, ident: &oxc_ast::ast::IdentifierReference) -> Option<NameRef> {
        let target = self.dynamic_target(ident)?;
        let name = self.atom(ident.name.as_str());
        let r = match target {
            DynamicTarget::Env { kind: EvalBindingKind::Const | EvalBindingKind::FunctionName, .. } => return None,
            DynamicTarget::Env { level, slot, checked, .. } => {
                NameRef { name, depth: self.env_depth_to(level), slot, checked }
            }
            DynamicTarget::Name => NameRef { name, depth: u16::MAX, slot: 0, checked: false },
        };
        if ident
            .reference_id
            .get()
            .and_then(|r| self.scoping.get_reference(r).symbol_id())
            .is_some_and(|s| self.is_const(s))
        {
            return None;
        }
        self.emit(Op::ResolveName { name: r.name, depth: r.depth });
        Some(r)
    }

    /// `base → base value`
    pub fn emit_reference_get(&mut self, r: NameRef) {
        self.emit(Op::Dup);
        self.emit(Op::GetNameRef { name: r.name, depth: r.depth, slot: r.slot, checked: r.checked });
    }

    /// `base value → value`
    pub fn emit_reference_put(&mut self, r: NameRef) {
        self.emit(Op::Dup);
        self.emit(Op::Rot3);
        self.emit(Op::PutNameRef { name: r.name, depth: r.depth, slot: r.slot, checked: r.checked });
    }

    pub(super) fn env_depth_to(&self, level: u32) -> u16 {
        u16::try_from(self.func.env_level.saturating_sub(level)).unwrap_or(u16::MAX)
    }

    /// How a reference is looked up when an object environment (a `with` object, or the var
    /// bag of a function whose sloppy direct eval may declare `var`s) can sit between it and
    /// its binding; None when the compile-time location is the answer.
    pub fn dynamic_target(&mut self, ident: &oxc_ast::ast::IdentifierReference) -> Option<DynamicTarget> {
        if !self.has_dynamic_scopes && self.eval_scope.is_none() {
            return None;
        }
        let reference = self.scoping.get_reference(ident.reference_id.get()?);
        let ref_scope = reference.scope_id();
        if let Some(sym) = reference.symbol_id() {
            let loc = self.loc_of(sym);
            if let Loc::EvalVar(_) = loc {
                return Some(DynamicTarget::Name);
            }
            if !self.crosses_dynamic_scope(ref_scope, Some(self.scoping.symbol_scope_id(sym))) {
                return None;
            }
            return match loc {
                Loc::Env { level, slot } => {
                    Some(DynamicTarget::Env { level, slot, checked: self.needs_tdz(sym), kind: EvalBindingKind::Var })
                }
                Loc::Global(_) | Loc::EvalVar(_) => Some(DynamicTarget::Name),
                Loc::Register(_) | Loc::Import(_) => None,
            };
        }
        if !self.crosses_dynamic_scope(ref_scope, None) {
            return None;
        }
        let name = ident.name.as_str();
        if name == "arguments" && self.arguments_loc().is_some() {
            return None;
        }
        if let Some(n) = self.eval_scope.as_ref().and_then(|s| s.lookup(name)) {
            return Some(DynamicTarget::Env {
                level: n.level,
                slot: n.slot,
                checked: name != "arguments",
                kind: n.kind,
            });
        }
        Some(DynamicTarget::Name)
    }

    /// Does the way from `ref_scope` out to `decl_scope` (None: the global scope) pass a
    /// `with` body or the variable scope of a sloppy function containing direct eval? Eval
    /// code's own outer scopes are its caller's, which may have either.
    pub(super) fn crosses_dynamic_scope(&self, ref_scope: ScopeId, decl_scope: Option<ScopeId>) -> bool {
        for s in self.scoping.scope_ancestors(ref_scope) {
            if Some(s) == decl_scope {
                return false;
            }
            let f = self.scoping.scope_flags(s);
            if f.is_with() {
                return true;
            }
            if self.calls_eval.get(s.index()).copied().unwrap_or(false) && !f.is_strict_mode() {
                return true;
            }
        }
        self.eval_scope.is_some()
    }

    /// In a parameter list with expressions, `arguments` is the arguments object even where
    /// the body declares a function or lexical binding of that name: those live in the body's
    /// own environment (FunctionDeclarationInstantiation step 28), which oxc does not separate.
    pub(super) fn parameter_arguments(&self, sym: SymbolId) -> Option<Loc> {
        if self.scoping.symbol_name(sym) != "arguments" {
            return None;
        }
        let f = if self.func.is_arrow { self.outer.iter().rev().find(|f| !f.is_arrow)? } else { &self.func };
        let params = f.parameters.as_ref()?;
        if params.contains(&sym) || f.scope_id != Some(self.scoping.symbol_scope_id(sym)) {
            return None;
        }
        f.arguments
    }

    /// The shared `this` binding of the derived constructor around an arrow (or of the
    /// constructor itself): `(depth, slot)` from the current environment.
    pub(crate) fn derived_this_env(&self) -> Option<(u16, u32)> {
        let f = if self.func.is_arrow { self.outer.iter().rev().find(|f| !f.is_arrow)? } else { &self.func };
        let (level, slot) = f.this_env?;
        Some((self.env_depth_to(level), slot))
    }

    /// The arguments object of the nearest non-arrow function, if it was materialised.
    pub(super) fn arguments_loc(&mut self) -> Option<Loc> {
        if !self.func.is_arrow {
            return self.func.arguments;
        }
        for f in self.outer.iter().rev() {
            if !f.is_arrow {
                return f.arguments;
            }
        }
        None
    }
}
