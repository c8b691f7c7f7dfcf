//! Statements: blocks and declarations, control flow, loops, switch, try/finally, labels.
//!
//! `finally` bodies are inlined at every exit (normal, break/continue/return, and a
//! catch-all handler that rethrows); while an inlined copy is emitted, the protected ranges
//! of the enclosing trys are suspended so the copy is not caught by its own handler.

use oxc_ast::ast::*;

use super::{CResult, Compiler, Control, Label, Loc};
use crate::bytecode::Op;

/// What an exit does at its target.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ExitKind {
    Break,
    Continue,
}

impl<'s> Compiler<'s, '_> {
    /// Create the closures of function declarations directly in `stmts`.
    pub(crate) fn hoist_functions(&mut self, stmts: &'s [Statement<'s>], in_block: bool) -> CResult<()> {
        let script_top = self.func.globals_hoisted && self.outer.is_empty() && !in_block;
        for stmt in stmts {
            if let Statement::FunctionDeclaration(f) = stmt {
                if script_top {
                    continue;
                }
                let Some(id) = &f.id else { continue };
                if in_block && self.shares_a_lexical_binding(id) {
                    // `let f; if (c) function f() {}`: the function is alone in an implicit
                    // block (B.3.4), so nothing can see it, and the extension is blocked.
                    continue;
                }
                let name = self.atom(id.name.as_str());
                let idx = self.compile_function(f, Some(name))?;
                self.emit(Op::Closure(idx));
                // Annex B.3.3 is for plain functions: generators and async functions in blocks
                // are lexical only.
                let sloppy_block = !self.func.code.strict && in_block && !f.r#async && !f.generator;
                let blocked = sloppy_block && self.annex_b_blocked(f);
                if sloppy_block && !blocked {
                    // Annex B.3.3: a sloppy block-level function is also assigned to the
                    // var-scoped name of the enclosing function (or the global object).
                    self.emit(Op::Dup);
                    self.emit_annex_b_var_store(id.name.as_str());
                }
                match id.symbol_id.get() {
                    // The semantic analysis hoisted the function's binding to the var scope
                    // (as B.3.3 would); when the extension is blocked that binding is not the
                    // function's, so it is left alone.
                    Some(sym) if blocked && self.is_var_scoped(sym) => self.emit(Op::Pop),
                    Some(sym) => match self.loc_of(sym) {
                        Loc::EvalVar(name) => {
                            let var_level = self.eval_scope.as_ref().and_then(|e| e.var_level).unwrap_or(0);
                            let depth =
                                u16::try_from(self.func.env_level.saturating_sub(var_level)).unwrap_or(u16::MAX);
                            self.emit(Op::InitEvalVar { name, depth });
                        }
                        loc => self.emit_store(loc, false),
                    },
                    None => self.emit(Op::Pop),
                }
            }
        }
        Ok(())
    }

    /// Whether Annex B.3.3 does not apply to a sloppy block-level function (`annex_b.rs`
    /// decided it before compilation).
    pub(crate) fn annex_b_blocked(&self, f: &'s oxc_ast::ast::Function<'s>) -> bool {
        f.r#async
            || f.generator
            || f.id.as_ref().and_then(|id| id.symbol_id.get()).is_none_or(|sym| self.analysis.annex_b.blocked(sym))
    }

    /// The scope holding the `var`s of the code being compiled: the function's, the script's,
    /// or the eval code's.
    fn var_scope(&self) -> Option<oxc_syntax::scope::ScopeId> {
        self.func.scope_id.or(self.global_scope).or(if self.outer.is_empty() { self.eval_var_scope } else { None })
    }

    /// Whether `sym` lives in the scope of the function (or script, or eval code) being compiled.
    fn is_var_scoped(&self, sym: oxc_syntax::symbol::SymbolId) -> bool {
        Some(self.scoping.symbol_scope_id(sym)) == self.var_scope()
    }

    /// Names of the block-level functions in `stmts` (not in nested functions) that Annex
    /// B.3.3 hoists to the var scope: the `var` bindings they add.
    pub(crate) fn annex_b_hoisted_names(&self, stmts: &'s [Statement<'s>], out: &mut Vec<&'s str>) {
        for stmt in stmts {
            self.annex_b_visit(stmt, false, out);
        }
    }

    fn annex_b_visit(&self, stmt: &'s Statement<'s>, nested: bool, out: &mut Vec<&'s str>) {
        match stmt {
            Statement::FunctionDeclaration(f) if nested => {
                if let Some(id) = &f.id {
                    if !self.annex_b_blocked(f) && !out.contains(&id.name.as_str()) {
                        out.push(id.name.as_str());
                    }
                }
            }
            Statement::BlockStatement(b) => b.body.iter().for_each(|s| self.annex_b_visit(s, true, out)),
            Statement::IfStatement(i) => {
                self.annex_b_visit(&i.consequent, true, out);
                if let Some(alt) = &i.alternate {
                    self.annex_b_visit(alt, true, out);
                }
            }
            Statement::SwitchStatement(sw) => {
                sw.cases.iter().flat_map(|c| c.consequent.iter()).for_each(|s| self.annex_b_visit(s, true, out))
            }
            Statement::TryStatement(t) => {
                t.block.body.iter().for_each(|s| self.annex_b_visit(s, true, out));
                if let Some(h) = &t.handler {
                    h.body.body.iter().for_each(|s| self.annex_b_visit(s, true, out));
                }
                if let Some(fin) = &t.finalizer {
                    fin.body.iter().for_each(|s| self.annex_b_visit(s, true, out));
                }
            }
            Statement::LabeledStatement(l) => self.annex_b_visit(&l.body, nested, out),
            Statement::ForStatement(f) => self.annex_b_visit(&f.body, true, out),
            Statement::ForInStatement(f) => self.annex_b_visit(&f.body, true, out),
            Statement::ForOfStatement(f) => self.annex_b_visit(&f.body, true, out),
            Statement::WhileStatement(w) => self.annex_b_visit(&w.body, true, out),
            Statement::DoWhileStatement(d) => self.annex_b_visit(&d.body, true, out),
            Statement::WithStatement(w) => self.annex_b_visit(&w.body, true, out),
            _ => {}
        }
    }

    /// Whether the semantic analysis gave a block-level function the symbol of a `let`,
    /// `const` or `class` of the same name (it does for an if-clause function, which has no
    /// block of its own in the tree).
    fn shares_a_lexical_binding(&self, id: &oxc_ast::ast::BindingIdentifier<'s>) -> bool {
        id.symbol_id.get().is_some_and(|sym| self.scoping.symbol_flags(sym).intersects(super::LEXICAL))
    }

    /// Store (popping) into the function-scope `var` of `name`, or the global of that name
    /// at script level; does nothing if a lexical binding of the name would be shadowed.
    fn emit_annex_b_var_store(&mut self, name: &str) {
        let func_scope = self.var_scope();
        let var_sym = func_scope.and_then(|sc| {
            self.scoping.iter_bindings_in(sc).find(|&s| {
                self.scoping.symbol_name(s) == name
                    && self.scoping.symbol_flags(s).intersects(
                        oxc_syntax::symbol::SymbolFlags::FunctionScopedVariable
                            | oxc_syntax::symbol::SymbolFlags::Function,
                    )
            })
        });
        match var_sym {
            Some(sym) => {
                let loc = self.loc_of(sym);
                self.emit_store(loc, false);
            }
            None if self.outer.is_empty()
                && (self.func.code.kind == crate::bytecode::FunctionKind::Script || self.eval_global) =>
            {
                let a = self.atom(name);
                self.emit(Op::SetGlobal { name: a, strict: false });
            }
            None => self.emit(Op::Pop),
        }
    }

    pub(crate) fn compile_statements(&mut self, stmts: &'s [Statement<'s>]) -> CResult<()> {
        for s in stmts {
            self.compile_statement(s)?;
        }
        Ok(())
    }

    fn set_completion_undefined(&mut self) {
        if let Some(c) = self.func.completion {
            self.emit(Op::Undefined);
            self.emit(Op::SetLocal(c));
        }
    }

    pub(crate) fn compile_statement(&mut self, stmt: &'s Statement<'s>) -> CResult<()> {
        self.func.nesting += 1;
        self.nesting_check(stmt_start(stmt))?;
        let depth = self.func.depth;
        // After an error `self.func` may be a nested function's state (see compile_expr_named).
        self.compile_statement_inner(stmt)?;
        self.func.nesting -= 1;
        // Statements are stack-neutral; a mismatch is a compiler bug, reported rather than
        // left to corrupt a frame at run time.
        if self.func.depth != depth {
            return Err(self.error(
                format!("internal compiler error: operand stack imbalance ({} -> {})", depth, self.func.depth),
                stmt_start(stmt),
            ));
        }
        Ok(())
    }

    fn compile_statement_inner(&mut self, stmt: &'s Statement<'s>) -> CResult<()> {
        match stmt {
            Statement::BlockStatement(b) => self.compile_block(b),
            Statement::EmptyStatement(_) | Statement::DebuggerStatement(_) => Ok(()),
            Statement::ExpressionStatement(e) => {
                self.mark(e.span.start);
                match self.func.completion {
                    Some(c) => {
                        self.compile_expr(&e.expression)?;
                        self.emit(Op::SetLocal(c));
                    }
                    None => self.compile_effect(&e.expression)?,
                }
                Ok(())
            }
            Statement::VariableDeclaration(d) => self.compile_var_decl(d),
            Statement::FunctionDeclaration(_) => Ok(()),
            Statement::ClassDeclaration(c) => {
                self.mark(c.span.start);
                self.compile_class(c, None)?;
                match c.id.as_ref().and_then(|id| id.symbol_id.get()) {
                    Some(sym) => self.emit_init(sym),
                    None => self.emit(Op::Pop),
                }
                Ok(())
            }
            Statement::IfStatement(s) => {
                self.set_completion_undefined();
                self.mark(s.span.start);
                let else_l = self.compile_test_jump_if_false(&s.test)?;
                self.compile_clause(&s.consequent)?;
                match &s.alternate {
                    Some(alt) => {
                        let end = self.emit_jump(Op::Jump);
                        self.patch(else_l);
                        self.compile_clause(alt)?;
                        self.patch(end);
                    }
                    None => self.patch(else_l),
                }
                Ok(())
            }
            Statement::WhileStatement(s) => self.compile_while(s, Vec::new()),
            Statement::DoWhileStatement(s) => self.compile_do_while(s, Vec::new()),
            Statement::ForStatement(s) => self.compile_for(s, Vec::new()),
            Statement::ForInStatement(s) => self.compile_for_in(s, Vec::new()),
            Statement::ForOfStatement(s) => self.compile_for_of(s, Vec::new()),
            Statement::LabeledStatement(s) => self.compile_labeled(s, Vec::new()),
            Statement::BreakStatement(s) => {
                let label = s.label.as_ref().map(|l| l.name.to_string());
                self.compile_exit(ExitKind::Break, label, s.span.start)
            }
            Statement::ContinueStatement(s) => {
                let label = s.label.as_ref().map(|l| l.name.to_string());
                self.compile_exit(ExitKind::Continue, label, s.span.start)
            }
            Statement::ReturnStatement(s) => {
                self.mark(s.span.start);
                match &s.argument {
                    Some(e) => self.compile_expr(e)?,
                    None => self.emit(Op::Undefined),
                }
                self.compile_return()
            }
            Statement::ThrowStatement(s) => {
                self.mark(s.span.start);
                self.compile_expr(&s.argument)?;
                self.emit(Op::Throw);
                Ok(())
            }
            Statement::TryStatement(s) => self.compile_try(s),
            Statement::SwitchStatement(s) => self.compile_switch(s, Vec::new()),
            Statement::WithStatement(s) => {
                self.set_completion_undefined();
                self.mark(s.span.start);
                self.compile_expr(&s.object)?;
                self.emit(Op::ToObject);
                let t = self.temp();
                self.emit(Op::SetLocal(t));
                self.emit(Op::GetLocal(t));
                self.emit(Op::PushWithEnv);
                self.func.env_level += 1;
                self.func.controls.push(Control::Env);
                self.func.with_depth += 1;
                let r = self.compile_statement(&s.body);
                self.func.with_depth -= 1;
                self.func.controls.pop();
                self.func.env_level -= 1;
                self.emit(Op::PopEnv);
                self.free_temp(t);
                r
            }
            Statement::ImportDeclaration(_)
            | Statement::ExportAllDeclaration(_)
            | Statement::ExportDefaultDeclaration(_)
            | Statement::ExportDeclaration(_)
            | Statement::ExportFromDeclaration(_)
            | Statement::ExportNamedDeclaration(_) => self.compile_module_item(stmt),
            _ => Err(self.error("Unsupported syntax (TypeScript)", stmt_start(stmt))),
        }
    }

    /// An if-clause or labelled body: a bare function declaration there (Annex B.3.4) acts
    /// as if wrapped in a block.
    fn compile_clause(&mut self, stmt: &'s Statement<'s>) -> CResult<()> {
        match stmt {
            Statement::FunctionDeclaration(f)
                if f.scope_id.get().is_some_and(|s| self.analysis.annex_b.invisible(s)) =>
            {
                Ok(())
            }
            Statement::FunctionDeclaration(_) => self.hoist_functions(std::slice::from_ref(stmt), true),
            _ => self.compile_statement(stmt),
        }
    }

    pub(crate) fn compile_block(&mut self, b: &'s BlockStatement<'s>) -> CResult<()> {
        let pushed = self.enter_block_scope(b.scope_id.get());
        self.hoist_functions(&b.body, true)?;
        let r = self.compile_statements_with_using(&b.body);
        self.leave_block_scope(pushed);
        r
    }

    /// `stack →` dispose on normal completion (awaiting for `await using`).
    fn emit_dispose_normal(&mut self, is_async: bool) {
        if is_async {
            self.emit(Op::DisposeResourcesAsync(0));
            self.emit(Op::Await);
            self.emit(Op::Pop);
        } else {
            self.emit(Op::DisposeResources);
        }
    }

    /// A statement list that may declare `using` resources: the list runs inside a
    /// DisposableStack scope disposed on every exit (normal, break/continue/return, throw).
    pub(crate) fn compile_statements_with_using(&mut self, stmts: &'s [Statement<'s>]) -> CResult<()> {
        let kinds: Vec<bool> = stmts
            .iter()
            .filter_map(|s| match s {
                Statement::VariableDeclaration(d) => match d.kind {
                    VariableDeclarationKind::Using => Some(false),
                    VariableDeclarationKind::AwaitUsing => Some(true),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        if kinds.is_empty() {
            return self.compile_statements(stmts);
        }
        self.compile_in_using_scope(kinds.contains(&true), |c| c.compile_statements(stmts))
    }

    /// Run `body` inside a DisposableStack scope (`using` declarations in it add to the
    /// stack), disposed on every exit: normal, break/continue/return, throw.
    fn compile_in_using_scope(&mut self, is_async: bool, body: impl FnOnce(&mut Self) -> CResult<()>) -> CResult<()> {
        let reg = self.temp();
        self.emit(Op::NewDisposableStack);
        self.emit(Op::SetLocal(reg));
        let depth = self.func.depth;
        let env_depth = self.env_depth_in_function();
        let start = self.pc();
        self.func.controls.push(Control::Try { range_start: Some(start), ranges: Vec::new(), finally: None });
        self.func.controls.push(Control::Dispose { reg, is_async });
        let saved = self.func.using_stack.replace(reg);
        let r = body(self);
        self.func.using_stack = saved;
        self.func.controls.pop();
        let ranges = self.pop_try();
        r?;
        self.emit(Op::GetLocal(reg));
        self.emit_dispose_normal(is_async);
        let end = self.emit_jump(Op::Jump);
        let handler = self.pc();
        for (a, b) in ranges {
            self.add_handler(a, b, handler, depth, env_depth);
        }
        self.func.depth = depth + 1;
        if is_async {
            self.emit(Op::GetLocal(reg));
            self.emit(Op::DisposeResourcesAsync(1));
            self.emit(Op::Await);
            self.emit(Op::Pop);
            // The promise rejects with the final error; reaching here cannot happen.
            self.emit(Op::Undefined);
            self.emit(Op::Throw);
        } else {
            self.emit(Op::GetLocal(reg));
            self.emit(Op::Swap);
            self.emit(Op::DisposeResourcesThrow);
        }
        self.func.depth = depth;
        self.patch(end);
        self.free_temp(reg);
        Ok(())
    }

    pub(crate) fn compile_var_decl(&mut self, d: &'s VariableDeclaration<'s>) -> CResult<()> {
        let lexical = d.kind != VariableDeclarationKind::Var;
        let using = match d.kind {
            VariableDeclarationKind::Using => Some(0u8),
            VariableDeclarationKind::AwaitUsing => Some(1u8),
            _ => None,
        };
        if let Some(hint) = using {
            let Some(reg) = self.func.using_stack else {
                return Err(
                    self.error("'using' declarations are only supported in blocks and function bodies", d.span.start)
                );
            };
            for decl in &d.declarations {
                self.mark(decl.span.start);
                let name = binding_name(&decl.id);
                match &decl.init {
                    Some(init) => self.compile_expr_named(init, name.as_deref())?,
                    None => self.emit(Op::Undefined),
                }
                self.emit(Op::Dup);
                self.emit(Op::GetLocal(reg));
                self.emit(Op::Swap);
                self.emit(Op::AddDisposable(hint));
                self.emit(Op::Pop);
                self.compile_binding_init(&decl.id, true)?;
            }
            return Ok(());
        }
        for decl in &d.declarations {
            self.mark(decl.span.start);
            match &decl.init {
                Some(init) => {
                    let name = binding_name(&decl.id);
                    self.compile_expr_named(init, name.as_deref())?;
                    self.compile_binding_init_from(&decl.id, lexical, super::PatternSubject::Init(init))?;
                }
                None => {
                    if lexical {
                        self.emit(Op::Undefined);
                        self.compile_binding_init(&decl.id, true)?;
                    }
                }
            }
        }
        Ok(())
    }

    // ---- loops

    fn push_loop(&mut self, labels: Vec<String>, continue_floor: usize, continue_depth: u32) {
        let depth = self.func.depth;
        self.func.controls.push(Control::Breakable {
            labels,
            is_loop: true,
            break_jumps: Vec::new(),
            continue_jumps: Vec::new(),
            depth,
            continue_depth,
            continue_floor,
        });
    }

    /// Pop the innermost Breakable, patching its continue jumps to `cont` and returning
    /// the break jumps.
    fn pop_loop(&mut self, cont: Option<u32>) -> Vec<usize> {
        // Loops may have their helper controls above them; the Breakable is the last one.
        let idx = self.func.controls.iter().rposition(|c| matches!(c, Control::Breakable { .. }));
        let Some(idx) = idx else { return Vec::new() };
        let c = self.func.controls.remove(idx);
        if let Control::Breakable { break_jumps, continue_jumps, .. } = c {
            if let Some(t) = cont {
                for j in continue_jumps {
                    self.patch_to(j, t);
                }
            }
            return break_jumps;
        }
        Vec::new()
    }

    fn patch_all(&mut self, jumps: Vec<usize>) {
        let t = self.pc();
        for j in jumps {
            self.patch_to(j, t);
        }
    }

    fn compile_while(&mut self, s: &'s WhileStatement<'s>, labels: Vec<String>) -> CResult<()> {
        self.set_completion_undefined();
        let start = self.pc();
        self.mark(s.span.start);
        let exit = self.compile_test_jump_if_false(&s.test)?;
        let d = self.func.depth;
        self.push_loop(labels, 0, d);
        self.compile_statement(&s.body)?;
        self.emit(Op::Jump(start));
        let breaks = self.pop_loop(Some(start));
        self.patch(exit);
        self.patch_all(breaks);
        Ok(())
    }

    fn compile_do_while(&mut self, s: &'s DoWhileStatement<'s>, labels: Vec<String>) -> CResult<()> {
        self.set_completion_undefined();
        let start = self.pc();
        let d = self.func.depth;
        self.push_loop(labels, 0, d);
        self.compile_statement(&s.body)?;
        let cont = self.pc();
        self.mark(s.test.span().start);
        self.compile_expr(&s.test)?;
        self.emit(Op::JumpIfTrue(start));
        let breaks = self.pop_loop(Some(cont));
        self.patch_all(breaks);
        Ok(())
    }

    fn compile_for(&mut self, s: &'s ForStatement<'s>, labels: Vec<String>) -> CResult<()> {
        // `for (using x = r; …)`: the resources live until the loop is left.
        if let Some(ForStatementInit::VariableDeclaration(d)) = &s.init {
            if matches!(d.kind, VariableDeclarationKind::Using | VariableDeclarationKind::AwaitUsing) {
                let is_async = d.kind == VariableDeclarationKind::AwaitUsing;
                return self.compile_in_using_scope(is_async, |c| c.compile_for_loop(s, labels));
            }
        }
        self.compile_for_loop(s, labels)
    }

    fn compile_for_loop(&mut self, s: &'s ForStatement<'s>, labels: Vec<String>) -> CResult<()> {
        self.set_completion_undefined();
        let pushed = self.enter_block_scope(s.scope_id.get());
        match &s.init {
            Some(ForStatementInit::VariableDeclaration(d)) => self.compile_var_decl(d)?,
            Some(init) => {
                if let Some(e) = init.as_expression() {
                    self.compile_expr(e)?;
                    self.emit(Op::Pop);
                }
            }
            None => {}
        }
        // CreatePerIterationEnvironment: a fresh copy of the loop's env per iteration.
        if pushed {
            self.emit(Op::CloneEnv);
        }
        let start = self.pc();
        let mut exit = None;
        if let Some(test) = &s.test {
            self.mark(test.span().start);
            exit = Some(self.compile_test_jump_if_false(test)?);
        }
        let d = self.func.depth;
        self.push_loop(labels, 0, d);
        self.compile_statement(&s.body)?;
        let cont = self.pc();
        if pushed {
            self.emit(Op::CloneEnv);
        }
        if let Some(update) = &s.update {
            self.compile_effect(update)?;
        }
        self.emit(Op::Jump(start));
        let breaks = self.pop_loop(Some(cont));
        if let Some(e) = exit {
            self.patch(e);
        }
        self.patch_all(breaks);
        self.leave_block_scope(pushed);
        Ok(())
    }

    /// Bind the iteration value (on the stack) to a for-in/of left side, in a fresh
    /// per-iteration scope when lexical. Returns whether an env was pushed.
    fn bind_for_left(
        &mut self,
        left: &'s ForStatementLeft<'s>,
        scope: Option<oxc_syntax::scope::ScopeId>,
    ) -> CResult<bool> {
        match left {
            ForStatementLeft::VariableDeclaration(d) => {
                let lexical = d.kind != VariableDeclarationKind::Var;
                let pushed = if lexical {
                    // The value is on the stack: park it while the scope is entered.
                    let t = self.temp();
                    self.emit(Op::SetLocal(t));
                    let p = self.enter_block_scope(scope);
                    self.emit(Op::GetLocal(t));
                    self.free_temp(t);
                    p
                } else {
                    false
                };
                match d.declarations.first() {
                    Some(decl) => {
                        self.compile_binding_init_from(&decl.id, lexical, super::PatternSubject::Internal(".for"))?
                    }
                    None => self.emit(Op::Pop),
                }
                Ok(pushed)
            }
            _ => {
                if let Some(target) = left.as_assignment_target() {
                    self.compile_assign_to_target_from(target, super::PatternSubject::Internal(".for"))?;
                } else {
                    self.emit(Op::Pop);
                }
                Ok(false)
            }
        }
    }

    fn compile_for_in(&mut self, s: &'s ForInStatement<'s>, labels: Vec<String>) -> CResult<()> {
        self.set_completion_undefined();
        self.mark(s.span.start);
        // Annex B: `for (var x = init in obj)` evaluates the initialiser first.
        if let ForStatementLeft::VariableDeclaration(d) = &s.left {
            if let Some(decl) = d.declarations.first() {
                if let (Some(init), VariableDeclarationKind::Var) = (&decl.init, d.kind) {
                    self.compile_expr(init)?;
                    self.compile_binding_init(&decl.id, false)?;
                }
            }
        }
        // The right side sees the loop's lexical names in their TDZ.
        let tdz_pushed = self.enter_block_scope(s.scope_id.get());
        self.compile_expr(&s.right)?;
        self.leave_block_scope(tdz_pushed);
        self.emit(Op::ForInStart);
        let d_outer = self.func.depth - 1;
        let start = self.pc();
        let done = self.emit_jump(Op::ForInNext);
        let inner_depth = self.func.depth - 1;
        self.func.depth = inner_depth;
        let _ = d_outer;
        self.func.controls.push(Control::StackValue { depth: inner_depth });
        // Breakable sits below the StackValue so `break` pops the iterator.
        let idx = self.func.controls.len() - 1;
        self.func.controls.insert(
            idx,
            Control::Breakable {
                labels,
                is_loop: true,
                break_jumps: Vec::new(),
                continue_jumps: Vec::new(),
                depth: inner_depth - 1,
                continue_depth: inner_depth,
                continue_floor: 1,
            },
        );
        self.func.depth = inner_depth + 1;
        let pushed = self.bind_for_left(&s.left, s.scope_id.get())?;
        self.compile_statement(&s.body)?;
        self.leave_block_scope(pushed);
        self.emit(Op::Jump(start));
        self.func.controls.pop(); // StackValue
        let breaks = self.pop_loop(Some(start));
        self.patch(done);
        self.func.depth = inner_depth;
        self.emit(Op::Pop);
        self.patch_all(breaks);
        Ok(())
    }

    fn compile_for_of(&mut self, s: &'s ForOfStatement<'s>, labels: Vec<String>) -> CResult<()> {
        self.set_completion_undefined();
        self.mark(s.span.start);
        let tdz_pushed = self.enter_block_scope(s.scope_id.get());
        self.compile_expr(&s.right)?;
        self.leave_block_scope(tdz_pushed);
        // V8 names an optional chain's value by the value.
        if !matches!(s.right, Expression::ChainExpression(_)) {
            self.note_iterable(&s.right, s.r#await);
        }
        self.emit(if s.r#await { Op::GetAsyncIterator } else { Op::GetIterator });
        let iter_depth = self.func.depth; // iterator and next are below this
        let base_depth = iter_depth - 2;
        self.func.controls.push(Control::Breakable {
            labels,
            is_loop: true,
            break_jumps: Vec::new(),
            continue_jumps: Vec::new(),
            depth: base_depth,
            continue_depth: iter_depth,
            continue_floor: 1,
        });
        self.func.controls.push(Control::Iterator {
            depth: base_depth,
            is_async: s.r#await,
            holes: Vec::new(),
            done: None,
        });
        let start = self.pc();
        let done;
        if s.r#await {
            self.emit(Op::IteratorNextRaw);
            self.emit(Op::Await);
            // result: check done / value
            self.emit(Op::Dup);
            let ic = self.new_ic();
            self.emit(Op::GetProp { name: crate::atoms::atom::done, ic });
            let not_done = self.emit_jump(Op::JumpIfFalse);
            self.emit(Op::Pop);
            done = self.emit_jump(Op::Jump);
            self.patch(not_done);
            let ic = self.new_ic();
            self.emit(Op::GetProp { name: crate::atoms::atom::value, ic });
        } else {
            done = self.emit_jump(Op::IteratorStep);
        }
        let body_start = self.pc();
        let handler_depth = iter_depth;
        let env_depth = self.env_depth_in_function();
        match &s.left {
            ForStatementLeft::VariableDeclaration(d)
                if matches!(d.kind, VariableDeclarationKind::Using | VariableDeclarationKind::AwaitUsing) =>
            {
                // `for (using x of …)`: each iteration's value is disposed at its end.
                let is_async = d.kind == VariableDeclarationKind::AwaitUsing;
                let hint = u8::from(is_async);
                let value = self.temp();
                self.emit(Op::SetLocal(value));
                self.compile_in_using_scope(is_async, |c| {
                    let reg = c.func.using_stack.unwrap_or(value);
                    c.emit(Op::GetLocal(value));
                    c.emit(Op::Dup);
                    c.emit(Op::GetLocal(reg));
                    c.emit(Op::Swap);
                    c.emit(Op::AddDisposable(hint));
                    c.emit(Op::Pop);
                    let pushed = c.bind_for_left(&s.left, s.scope_id.get())?;
                    c.compile_statement(&s.body)?;
                    c.leave_block_scope(pushed);
                    Ok(())
                })?;
                self.free_temp(value);
            }
            _ => {
                let pushed = self.bind_for_left(&s.left, s.scope_id.get())?;
                self.compile_statement(&s.body)?;
                self.leave_block_scope(pushed);
            }
        }
        let body_end = self.pc();
        self.emit(Op::Jump(start));
        // Exceptions from the binding or body close the iterator, then propagate; the exits'
        // own closing code is not covered.
        let handler = self.pc();
        let holes = match self.func.controls.last() {
            Some(Control::Iterator { holes, .. }) => holes.clone(),
            _ => Vec::new(),
        };
        let mut from = body_start;
        for (hole_start, hole_end) in holes {
            self.add_handler(from, hole_start, handler, handler_depth, env_depth);
            from = hole_end;
        }
        self.add_handler(from, body_end, handler, handler_depth, env_depth);
        self.func.depth = handler_depth + 1;
        if s.r#await {
            // AsyncIteratorClose with a throw completion: the result of `return` is awaited,
            // and whatever that await throws, the loop's exception is what propagates.
            self.emit(Op::AsyncIteratorCloseQuiet);
            let not_called = self.emit_jump(Op::JumpIfFalse);
            let await_pc = self.pc();
            let exc_depth = self.func.depth - 1;
            self.emit(Op::Await);
            self.patch(not_called);
            self.add_handler(await_pc, await_pc + 1, self.pc(), exc_depth, env_depth);
            self.emit(Op::Pop);
        } else {
            self.emit(Op::IteratorCloseQuiet);
        }
        self.emit(Op::Throw);
        self.func.controls.pop(); // Iterator
        let breaks = self.pop_loop(Some(start));
        self.patch(done);
        self.func.depth = iter_depth;
        self.emit(Op::Pop);
        self.emit(Op::Pop);
        self.patch_all(breaks);
        Ok(())
    }

    fn compile_labeled(&mut self, s: &'s LabeledStatement<'s>, mut labels: Vec<String>) -> CResult<()> {
        labels.push(s.label.name.to_string());
        match &s.body {
            Statement::WhileStatement(w) => self.compile_while(w, labels),
            Statement::DoWhileStatement(w) => self.compile_do_while(w, labels),
            Statement::ForStatement(f) => self.compile_for(f, labels),
            Statement::ForInStatement(f) => self.compile_for_in(f, labels),
            Statement::ForOfStatement(f) => self.compile_for_of(f, labels),
            Statement::LabeledStatement(l) => self.compile_labeled(l, labels),
            Statement::SwitchStatement(sw) => self.compile_switch(sw, labels),
            body => {
                let depth = self.func.depth;
                self.func.controls.push(Control::Breakable {
                    labels,
                    is_loop: false,
                    break_jumps: Vec::new(),
                    continue_jumps: Vec::new(),
                    depth,
                    continue_depth: depth,
                    continue_floor: 0,
                });
                self.compile_clause(body)?;
                let breaks = self.pop_loop(None);
                self.patch_all(breaks);
                Ok(())
            }
        }
    }

    fn compile_switch(&mut self, s: &'s SwitchStatement<'s>, labels: Vec<String>) -> CResult<()> {
        self.set_completion_undefined();
        self.mark(s.span.start);
        self.compile_expr(&s.discriminant)?;
        let t = self.temp();
        self.emit(Op::SetLocal(t));
        let pushed = self.enter_block_scope(s.scope_id.get());
        for case in &s.cases {
            self.hoist_functions(&case.consequent, true)?;
        }
        let mut case_jumps: Vec<Option<Label>> = Vec::new();
        for case in &s.cases {
            match &case.test {
                Some(test) => {
                    self.emit(Op::GetLocal(t));
                    self.compile_expr(test)?;
                    self.emit(Op::StrictEq);
                    case_jumps.push(Some(self.emit_jump(Op::JumpIfTrue)));
                }
                None => case_jumps.push(None),
            }
        }
        let to_default = self.emit_jump(Op::Jump);
        let depth = self.func.depth;
        self.func.controls.push(Control::Breakable {
            labels,
            is_loop: false,
            break_jumps: Vec::new(),
            continue_jumps: Vec::new(),
            depth,
            continue_depth: depth,
            continue_floor: 0,
        });
        let mut default_target = None;
        for (case, jump) in s.cases.iter().zip(case_jumps) {
            match jump {
                Some(j) => self.patch(j),
                None => default_target = Some(self.pc()),
            }
            self.compile_statements(&case.consequent)?;
        }
        let breaks = self.pop_loop(None);
        match default_target {
            Some(d) => self.patch_to(to_default.0, d),
            None => self.patch(to_default),
        }
        self.patch_all(breaks);
        self.leave_block_scope(pushed);
        self.free_temp(t);
        Ok(())
    }

    // ---- try

    fn compile_try(&mut self, s: &'s TryStatement<'s>) -> CResult<()> {
        self.set_completion_undefined();
        let depth = self.func.depth;
        let env_depth = self.env_depth_in_function();
        let finally = s.finalizer.as_deref();
        let start = self.pc();
        self.func.controls.push(Control::Try { range_start: Some(start), ranges: Vec::new(), finally });
        self.compile_block(&s.block)?;
        let try_ranges = self.pop_try();
        let mut end_jumps = Vec::new();
        if let Some(f) = finally {
            self.compile_finally_inline(f)?;
        }
        end_jumps.push(self.emit_jump(Op::Jump));
        let finally_ranges;
        if let Some(handler) = &s.handler {
            let target = self.pc();
            for &(a, b) in &try_ranges {
                self.add_handler(a, b, target, depth, env_depth);
            }
            self.func.depth = depth + 1;
            let catch_start = self.pc();
            self.func.controls.push(Control::Try { range_start: Some(catch_start), ranges: Vec::new(), finally });
            // oxc binds a simple catch parameter in the body's scope: enter both before
            // binding it, so a captured parameter gets its environment slot.
            let pushed = self.enter_block_scope(handler.scope_id.get());
            let body_pushed = self.enter_block_scope(handler.body.scope_id.get());
            match &handler.param {
                Some(p) => {
                    self.compile_binding_init_from(&p.pattern, true, super::PatternSubject::Internal(".catch"))?
                }
                None => self.emit(Op::Pop),
            }
            self.hoist_functions(&handler.body.body, true)?;
            self.compile_statements(&handler.body.body)?;
            self.leave_block_scope(body_pushed);
            self.leave_block_scope(pushed);
            finally_ranges = self.pop_try();
            if let Some(f) = finally {
                self.compile_finally_inline(f)?;
            }
            end_jumps.push(self.emit_jump(Op::Jump));
        } else {
            finally_ranges = try_ranges;
        }
        if let Some(f) = finally {
            let target = self.pc();
            for &(a, b) in &finally_ranges {
                self.add_handler(a, b, target, depth, env_depth);
            }
            self.func.depth = depth + 1;
            let t = self.temp();
            self.emit(Op::SetLocal(t));
            self.compile_finally_inline(f)?;
            self.emit(Op::GetLocal(t));
            self.emit(Op::Throw);
            self.free_temp(t);
        }
        self.func.depth = depth;
        for j in end_jumps {
            self.patch(j);
        }
        Ok(())
    }

    /// Pop the innermost Try control, closing its current range.
    fn pop_try(&mut self) -> Vec<(u32, u32)> {
        let pc = self.pc();
        match self.func.controls.pop() {
            Some(Control::Try { range_start, mut ranges, .. }) => {
                if let Some(s) = range_start {
                    ranges.push((s, pc));
                }
                ranges
            }
            _ => Vec::new(),
        }
    }

    /// Emit a copy of a finally body, preserving the completion value.
    fn compile_finally_inline(&mut self, f: &'s BlockStatement<'s>) -> CResult<()> {
        let saved_completion = self.func.completion;
        let completion_tmp = saved_completion.map(|c| {
            let t = self.temp();
            self.emit(Op::GetLocal(c));
            self.emit(Op::SetLocal(t));
            t
        });
        self.compile_block(f)?;
        if let (Some(c), Some(t)) = (saved_completion, completion_tmp) {
            self.emit(Op::GetLocal(t));
            self.emit(Op::SetLocal(c));
            self.free_temp(t);
        }
        Ok(())
    }

    /// Emit the unwinding for leaving the controls above index `floor` (exclusive):
    /// pop envs and stack values, close iterators, inline finally bodies.
    fn emit_unwind_to(&mut self, floor: usize) -> CResult<()> {
        let saved_env = self.func.env_level;
        let saved_depth = self.func.depth;
        let mut i = self.func.controls.len();
        while i > floor {
            i -= 1;
            match self.func.controls[i].clone() {
                Control::Env => {
                    self.emit(Op::PopEnv);
                    self.func.env_level -= 1;
                }
                Control::StackValue { depth } => {
                    while self.func.depth > depth.saturating_sub(1) && self.func.depth > 0 {
                        self.emit(Op::Pop);
                    }
                }
                Control::Iterator { depth, is_async, done, .. } => {
                    while self.func.depth > depth + 2 {
                        self.emit(Op::Pop);
                    }
                    let hole_start = self.pc();
                    if let Some(Control::Iterator { holes, .. }) = self.func.controls.get_mut(i) {
                        holes.push((hole_start, u32::MAX));
                    }
                    if let Some(done) = done {
                        // Destructuring: an exhausted iterator is not closed.
                        self.emit(Op::GetLocal(done));
                        let exhausted = self.emit_jump(Op::JumpIfTrue);
                        self.emit(Op::IteratorClose);
                        let closed = self.emit_jump(Op::Jump);
                        self.func.depth = depth + 2;
                        self.patch(exhausted);
                        self.emit(Op::Pop);
                        self.emit(Op::Pop);
                        self.patch(closed);
                    } else if is_async {
                        // AsyncIteratorClose: await what `return` gave, which must be an object.
                        self.emit(Op::AsyncIteratorClose);
                        let not_called = self.emit_jump(Op::JumpIfFalse);
                        self.emit(Op::Await);
                        self.emit(Op::CheckIteratorResult);
                        self.patch(not_called);
                        self.emit(Op::Pop);
                    } else {
                        self.emit(Op::IteratorClose);
                    }
                }
                Control::Try { finally: Some(f), .. } => {
                    // Suspend the protected ranges of this try and everything inside it.
                    let pc = self.pc();
                    let mut saved = self.func.controls.split_off(i);
                    for c in saved.iter_mut() {
                        if let Control::Try { range_start, ranges, .. } = c {
                            if let Some(s) = range_start.take() {
                                ranges.push((s, pc));
                            }
                        }
                    }
                    let r = self.compile_finally_inline(f);
                    let pc = self.pc();
                    for c in saved.iter_mut() {
                        if let Control::Try { range_start, .. } = c {
                            *range_start = Some(pc);
                        }
                    }
                    self.func.controls.extend(saved);
                    r?;
                }
                Control::Dispose { reg, is_async } => {
                    self.emit(Op::GetLocal(reg));
                    self.emit_dispose_normal(is_async);
                }
                Control::Try { finally: None, .. } | Control::Breakable { .. } => {}
            }
        }
        self.func.env_level = saved_env;
        self.func.depth = saved_depth;
        Ok(())
    }

    fn compile_exit(&mut self, kind: ExitKind, label: Option<String>, offset: u32) -> CResult<()> {
        // Find the target.
        let mut target = None;
        for (i, c) in self.func.controls.iter().enumerate().rev() {
            if let Control::Breakable { labels, is_loop, .. } = c {
                let matches = match &label {
                    Some(l) => labels.contains(l),
                    None => *is_loop || kind == ExitKind::Break,
                };
                if matches && (kind == ExitKind::Break || *is_loop) {
                    target = Some(i);
                    break;
                }
            }
        }
        let Some(t) = target else { return Err(self.error("Illegal break or continue", offset)) };
        let (depth, continue_depth, floor) = match &self.func.controls[t] {
            Control::Breakable { depth, continue_depth, continue_floor, .. } => {
                (*depth, *continue_depth, *continue_floor)
            }
            _ => (0, 0, 0),
        };
        let unwind_floor = if kind == ExitKind::Continue { t + 1 + floor } else { t + 1 };
        let saved_depth = self.func.depth;
        let saved_env = self.func.env_level;
        self.emit_unwind_to(unwind_floor)?;
        // Apply the env pops again for the jump itself (emit_unwind_to restored tracking).
        let mut env = saved_env;
        for c in &self.func.controls[unwind_floor..] {
            if matches!(c, Control::Env) {
                env -= 1;
            }
        }
        let _ = env;
        let want = if kind == ExitKind::Continue { continue_depth } else { depth };
        // Stack values not owned by a control (e.g. mid-expression) are popped here.
        let mut cur = self.stack_after_unwind(unwind_floor, saved_depth);
        while cur > want {
            self.emit(Op::Pop);
            cur -= 1;
        }
        let at = self.func.code.ops.len();
        self.emit(Op::Jump(u32::MAX));
        self.end_exit_holes();
        if let Control::Breakable { break_jumps, continue_jumps, .. } = &mut self.func.controls[t] {
            match kind {
                ExitKind::Break => break_jumps.push(at),
                ExitKind::Continue => continue_jumps.push(at),
            }
        }
        self.func.depth = saved_depth;
        Ok(())
    }

    /// Ends the holes the exit just emitted (see [`Control::Iterator`]).
    fn end_exit_holes(&mut self) {
        let pc = self.pc();
        for c in &mut self.func.controls {
            if let Control::Iterator { holes, .. } = c {
                for hole in holes.iter_mut().filter(|h| h.1 == u32::MAX) {
                    hole.1 = pc;
                }
            }
        }
    }

    /// Operand depth after the unwinding code for controls above `floor` ran.
    fn stack_after_unwind(&self, floor: usize, depth: u32) -> u32 {
        let mut d = depth;
        for c in self.func.controls[floor..].iter() {
            match c {
                Control::StackValue { depth } => d = d.min(depth.saturating_sub(1)),
                Control::Iterator { depth, .. } => d = d.min(*depth),
                _ => {}
            }
        }
        d
    }

    /// `return` with the value on the stack: run finally bodies and close iterators first.
    pub(crate) fn compile_return(&mut self) -> CResult<()> {
        let needs_unwind = self.func.controls.iter().any(|c| {
            matches!(c, Control::Try { finally: Some(_), .. } | Control::Iterator { .. } | Control::Dispose { .. })
        });
        if self.func.code.kind.is_async() && self.func.code.kind.is_generator() {
            self.emit(Op::Await);
        }
        if !needs_unwind {
            self.emit(Op::Return);
            return Ok(());
        }
        let t = self.temp();
        self.emit(Op::SetLocal(t));
        let saved_depth = self.func.depth;
        self.emit_unwind_to(0)?;
        let mut cur = self.stack_after_unwind(0, saved_depth);
        while cur > 0 {
            self.emit(Op::Pop);
            cur -= 1;
        }
        self.emit(Op::GetLocal(t));
        self.emit(Op::Return);
        self.end_exit_holes();
        self.func.depth = saved_depth;
        self.free_temp(t);
        Ok(())
    }
}

/// The start offset of a statement (for positions in errors).
pub(crate) fn stmt_start(stmt: &Statement) -> u32 {
    use oxc_span::GetSpan;
    stmt.span().start
}

/// The binding name of a simple pattern (for function name inference).
pub(crate) fn binding_name(p: &BindingPattern) -> Option<String> {
    match p {
        BindingPattern::BindingIdentifier(id) => Some(id.name.to_string()),
        _ => None,
    }
}

use oxc_span::GetSpan;
