//! Module code (ECMA-262 §16.2.1.6.1 ParseModule): the body code block and the record's
//! entries — module requests, import entries, local / indirect / star exports — plus the
//! module environment's layout.
//!
//! The body runs with the module environment (level [`MODULE_LEVEL`]) as its entry
//! environment. Every top-level binding lives in that environment, so other modules and the
//! namespace object can read it. Slot 0 is `*default*` (the binding of `export default
//! <expression>`). Imported bindings are not slots: they resolve to `Loc::Import(cell)` and
//! read through the cell the linker fills (`Op::GetImport`). Hoisted function declarations
//! are not created by the body: InitializeEnvironment instantiates them at link time, so a
//! cycle sees them before the body runs.

use oxc_ast::ast::*;
use oxc_parser::ParseOptions;
use oxc_syntax::symbol::{SymbolFlags, SymbolId};

use super::expr::string_literal_units;
use super::{add_mapped_source, report, with_parsed, CResult, Compiler, Loc};
use crate::bytecode::{FunctionKind, Op};
use crate::error::{JsResult, SyntaxErrorReport};
use crate::heap::CodeId;
use crate::module::{ImportCell, ImportEntry, IndirectExport, LocalExport, ModuleCode, ModuleRequest, NamespaceImport};
use crate::string::JsStr;
use crate::value::Value;
use crate::vm::Vm;

/// Absolute environment level of the module environment.
const MODULE_LEVEL: u32 = 1;
/// Slot of `*default*` in the module environment.
const DEFAULT_SLOT: u32 = 0;

/// Compile a module's source text; returns the body, its entries and the source id.
pub(crate) fn compile_module(
    vm: &mut Vm,
    source: &str,
    filename: &str,
    map: Option<crate::source_map::PositionMap>,
) -> Result<(CodeId, ModuleCode, u32), SyntaxErrorReport> {
    let source_id = add_mapped_source(vm, filename, source, map);
    with_parsed(source, filename, true, ParseOptions::default(), |program, scoping, analysis| {
        let mut c = Compiler::new(vm, scoping, analysis, source, source_id);
        let (code, info) = c.compile_module_program(program).map_err(|e| report(source, filename, &e.0, e.1))?;
        Ok((code, info, source_id))
    })
    .inspect(|&(code, _, source_id)| super::seal_code_blob(vm, source_id, code))
}

/// An import binding's origin, for exports that re-export it.
struct ImportedBinding {
    sym: SymbolId,
    request: u32,
    /// None for `import * as ns`.
    import_name: Option<JsStr>,
}

fn export_name(n: &ModuleExportName) -> JsStr {
    match n {
        ModuleExportName::IdentifierName(i) => JsStr::from_str(i.name.as_str()),
        ModuleExportName::IdentifierReference(r) => JsStr::from_str(r.name.as_str()),
        ModuleExportName::StringLiteral(s) => string_literal_units(s.value.as_str(), s.lone_surrogates),
    }
}

fn request_of(source: &StringLiteral, with: Option<&WithClause>, phase: crate::module::ImportPhase) -> ModuleRequest {
    let mut attributes: Vec<(String, String)> = with
        .map(|w| {
            w.with_entries
                .iter()
                .map(|e| {
                    let key = match &e.key {
                        ImportAttributeKey::Identifier(i) => i.name.to_string(),
                        ImportAttributeKey::StringLiteral(s) => s.value.to_string(),
                    };
                    (key, e.value.value.to_string())
                })
                .collect()
        })
        .unwrap_or_default();
    attributes.sort();
    ModuleRequest { specifier: source.value.to_string(), attributes, phase }
}

/// Symbols bound by a pattern.
fn bound_symbols(p: &BindingPattern, out: &mut Vec<SymbolId>) {
    match p {
        BindingPattern::BindingIdentifier(id) => out.extend(id.symbol_id.get()),
        BindingPattern::ObjectPattern(o) => {
            for prop in &o.properties {
                bound_symbols(&prop.value, out);
            }
            if let Some(r) = &o.rest {
                bound_symbols(&r.argument, out);
            }
        }
        BindingPattern::ArrayPattern(a) => {
            for el in a.elements.iter().flatten() {
                bound_symbols(el, out);
            }
            if let Some(r) = &a.rest {
                bound_symbols(&r.argument, out);
            }
        }
        BindingPattern::AssignmentPattern(a) => bound_symbols(&a.left, out),
    }
}

impl<'s> Compiler<'s, '_> {
    fn add_request(info: &mut ModuleCode, req: ModuleRequest) -> u32 {
        match info.requests.iter().position(|r| *r == req) {
            Some(i) => i as u32,
            None => {
                info.requests.push(req);
                (info.requests.len() - 1) as u32
            }
        }
    }

    fn module_slot(&self, sym: SymbolId) -> Option<u32> {
        match self.locs[sym.index()] {
            Some(Loc::Env { level: MODULE_LEVEL, slot }) => Some(slot),
            _ => None,
        }
    }

    /// ParseModule + the body: returns the body code and the module's entries.
    fn compile_module_program(&mut self, program: &'s Program<'s>) -> CResult<(CodeId, ModuleCode)> {
        let mut info = ModuleCode::default();
        self.func.code.kind = FunctionKind::Module;
        self.func.code.strict = true;
        self.func.code.span = (program.span.start, program.span.end);
        self.func.env_level = MODULE_LEVEL;
        self.func.base_env_level = MODULE_LEVEL;
        self.func.code.base_env_level = MODULE_LEVEL;
        let Some(scope) = program.scope_id.get() else {
            return Err(self.error("module without a scope", 0));
        };

        // Module requests in source order, and the import bindings.
        let mut imported: Vec<ImportedBinding> = Vec::new();
        for stmt in &program.body {
            match stmt {
                Statement::ImportDeclaration(d) => {
                    let phase = match d.phase {
                        None => crate::module::ImportPhase::Evaluation,
                        Some(ImportPhase::Defer) => crate::module::ImportPhase::Defer,
                        Some(ImportPhase::Source) => crate::module::ImportPhase::Source,
                    };
                    let request = Self::add_request(&mut info, request_of(&d.source, d.with_clause.as_deref(), phase));
                    for spec in d.specifiers.iter().flatten() {
                        let (local, import_name) = match spec {
                            _ if phase != crate::module::ImportPhase::Evaluation => match spec {
                                ImportDeclarationSpecifier::ImportSpecifier(s) => (&s.local, None),
                                ImportDeclarationSpecifier::ImportDefaultSpecifier(s) => (&s.local, None),
                                ImportDeclarationSpecifier::ImportNamespaceSpecifier(s) => (&s.local, None),
                            },
                            ImportDeclarationSpecifier::ImportSpecifier(s) => {
                                (&s.local, Some(export_name(&s.imported)))
                            }
                            ImportDeclarationSpecifier::ImportDefaultSpecifier(s) => {
                                (&s.local, Some(JsStr::from_str("default")))
                            }
                            ImportDeclarationSpecifier::ImportNamespaceSpecifier(s) => (&s.local, None),
                        };
                        let Some(sym) = local.symbol_id.get() else { continue };
                        let a = self.atom(local.name.as_str());
                        self.vm.modules.cells.push(ImportCell { name: a, target: crate::module::CellTarget::Unlinked });
                        let cell = (self.vm.modules.cells.len() - 1) as u32;
                        self.locs[sym.index()] = Some(Loc::Import(cell));
                        match &import_name {
                            Some(name) => info.imports.push(ImportEntry { request, import_name: name.clone(), cell }),
                            None => info.namespace_imports.push(NamespaceImport { request, cell, phase }),
                        }
                        imported.push(ImportedBinding { sym, request, import_name });
                    }
                }
                Statement::ExportFromDeclaration(d) => {
                    let req = request_of(&d.source, d.with_clause.as_deref(), crate::module::ImportPhase::Evaluation);
                    Self::add_request(&mut info, req);
                }
                Statement::ExportAllDeclaration(d) => {
                    let req = request_of(&d.source, d.with_clause.as_deref(), crate::module::ImportPhase::Evaluation);
                    Self::add_request(&mut info, req);
                }
                _ => {}
            }
        }

        // The module environment: `*default*`, then every other top-level binding.
        let syms: Vec<SymbolId> = self.scoping.iter_bindings_in(scope).collect();
        for &s in &syms {
            if self.locs[s.index()].is_none() {
                self.captured[s.index()] = true;
            }
        }
        let slots = 1 + self.declare_scope_from(scope, MODULE_LEVEL, 1);
        info.env_slots = slots;
        for &s in &syms {
            let flags = self.scoping.symbol_flags(s);
            if flags.contains(SymbolFlags::FunctionScopedVariable) {
                if let Some(slot) = self.module_slot(s) {
                    info.var_slots.push(slot);
                }
            }
        }

        // Export entries.
        for stmt in &program.body {
            self.collect_exports(stmt, &imported, &mut info)?;
        }

        // Hoisted function declarations (instantiated by InitializeEnvironment).
        for stmt in &program.body {
            let f = match stmt {
                Statement::FunctionDeclaration(f) => f,
                Statement::ExportDeclaration(e) => match &e.declaration {
                    Declaration::FunctionDeclaration(f) => f,
                    _ => continue,
                },
                Statement::ExportDefaultDeclaration(d) => match &d.declaration {
                    ExportDefaultDeclarationKind::FunctionDeclaration(f) => f,
                    _ => continue,
                },
                _ => continue,
            };
            let (name, slot) = match &f.id {
                Some(id) => (self.atom(id.name.as_str()), id.symbol_id.get().and_then(|s| self.module_slot(s))),
                None => (self.atom("default"), Some(DEFAULT_SLOT)),
            };
            let Some(slot) = slot else { continue };
            let idx = self.compile_function(f, Some(name))?;
            info.functions.push((idx, slot));
        }

        // Top-level `using` resources are disposed when the body completes.
        self.compile_statements_with_using(&program.body)?;
        self.emit(Op::Undefined);
        self.emit(Op::Return);
        info.has_tla = self.func.code.ops.contains(&Op::Await);
        if info.has_tla {
            // An async body: ExecuteModule runs it as an async function (AsyncBlockStart).
            self.func.code.kind = FunctionKind::Async;
        }
        let code = self.pop_function();
        Ok((code, info))
    }

    /// The export entries of one top-level statement.
    fn collect_exports(
        &mut self,
        stmt: &'s Statement<'s>,
        imported: &[ImportedBinding],
        info: &mut ModuleCode,
    ) -> CResult<()> {
        let local =
            |this: &mut Self, info: &mut ModuleCode, name: JsStr, sym: Option<SymbolId>, at: u32| -> CResult<()> {
                let slot = sym.and_then(|s| this.module_slot(s));
                match slot {
                    Some(slot) => {
                        info.local_exports.push(LocalExport { export_name: name, slot });
                        Ok(())
                    }
                    None => Err(this.error(format!("Export '{}' is not defined in module", name.to_rust_string()), at)),
                }
            };
        match stmt {
            Statement::ExportDeclaration(e) => match &e.declaration {
                Declaration::VariableDeclaration(d) => {
                    let mut syms = Vec::new();
                    for decl in &d.declarations {
                        bound_symbols(&decl.id, &mut syms);
                    }
                    for s in syms {
                        let name = JsStr::from_str(self.scoping.symbol_name(s));
                        local(self, info, name, Some(s), d.span.start)?;
                    }
                }
                Declaration::FunctionDeclaration(f) => {
                    if let Some(id) = &f.id {
                        local(self, info, JsStr::from_str(id.name.as_str()), id.symbol_id.get(), f.span.start)?;
                    }
                }
                Declaration::ClassDeclaration(c) => {
                    if let Some(id) = &c.id {
                        local(self, info, JsStr::from_str(id.name.as_str()), id.symbol_id.get(), c.span.start)?;
                    }
                }
                _ => return Err(self.error("Unsupported syntax (TypeScript)", e.span.start)),
            },
            Statement::ExportDefaultDeclaration(d) => {
                let default = JsStr::from_str("default");
                let id = match &d.declaration {
                    ExportDefaultDeclarationKind::FunctionDeclaration(f) => f.id.as_ref(),
                    ExportDefaultDeclarationKind::ClassDeclaration(c) => c.id.as_ref(),
                    _ => None,
                };
                match id {
                    Some(id) => local(self, info, default, id.symbol_id.get(), d.span.start)?,
                    None => info.local_exports.push(LocalExport { export_name: default, slot: DEFAULT_SLOT }),
                }
            }
            Statement::ExportNamedDeclaration(d) => {
                for s in &d.specifiers {
                    let export = export_name(&s.exported);
                    let sym = match &s.local {
                        ModuleExportName::IdentifierReference(r) => {
                            r.reference_id.get().and_then(|r| self.scoping.get_reference(r).symbol_id())
                        }
                        _ => None,
                    };
                    match sym.and_then(|sym| imported.iter().find(|b| b.sym == sym)) {
                        // Re-export of an imported binding: an indirect export (of the whole
                        // namespace for `import * as ns; export { ns }`).
                        Some(b) => info.indirect_exports.push(IndirectExport {
                            export_name: export,
                            request: b.request,
                            import_name: b.import_name.clone(),
                        }),
                        None => local(self, info, export, sym, s.span.start)?,
                    }
                }
            }
            Statement::ExportFromDeclaration(d) => {
                let req = request_of(&d.source, d.with_clause.as_deref(), crate::module::ImportPhase::Evaluation);
                let request = Self::add_request(info, req);
                for s in &d.specifiers {
                    info.indirect_exports.push(IndirectExport {
                        export_name: export_name(&s.exported),
                        request,
                        import_name: Some(export_name(&s.local)),
                    });
                }
            }
            Statement::ExportAllDeclaration(d) => {
                let req = request_of(&d.source, d.with_clause.as_deref(), crate::module::ImportPhase::Evaluation);
                let request = Self::add_request(info, req);
                match &d.exported {
                    Some(n) => info.indirect_exports.push(IndirectExport {
                        export_name: export_name(n),
                        request,
                        import_name: None,
                    }),
                    None => info.star_exports.push(request),
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A module item in the body: only declarations under `export` do anything at run time.
    pub(crate) fn compile_module_item(&mut self, stmt: &'s Statement<'s>) -> CResult<()> {
        if self.func.code.kind != FunctionKind::Module || !self.outer.is_empty() {
            return Err(self.error("Cannot use import/export outside a module", super::stmt::stmt_start(stmt)));
        }
        match stmt {
            Statement::ImportDeclaration(_)
            | Statement::ExportAllDeclaration(_)
            | Statement::ExportNamedDeclaration(_)
            | Statement::ExportFromDeclaration(_) => Ok(()),
            Statement::ExportDeclaration(e) => match &e.declaration {
                Declaration::VariableDeclaration(d) => self.compile_var_decl(d),
                Declaration::FunctionDeclaration(_) => Ok(()),
                Declaration::ClassDeclaration(c) => {
                    self.mark(c.span.start);
                    self.compile_class(c, None)?;
                    match c.id.as_ref().and_then(|id| id.symbol_id.get()) {
                        Some(sym) => self.emit_init(sym),
                        None => self.emit(Op::Pop),
                    }
                    Ok(())
                }
                _ => Err(self.error("Unsupported syntax (TypeScript)", e.span.start)),
            },
            Statement::ExportDefaultDeclaration(d) => {
                self.mark(d.span.start);
                match &d.declaration {
                    ExportDefaultDeclarationKind::FunctionDeclaration(_) => return Ok(()),
                    ExportDefaultDeclarationKind::ClassDeclaration(c) => {
                        self.compile_class(c, Some("default"))?;
                        if let Some(sym) = c.id.as_ref().and_then(|id| id.symbol_id.get()) {
                            self.emit_init(sym);
                            return Ok(());
                        }
                    }
                    ExportDefaultDeclarationKind::TSInterfaceDeclaration(t) => {
                        return Err(self.error("Unsupported syntax (TypeScript)", t.span.start));
                    }
                    other => match other.as_expression() {
                        Some(e) => self.compile_expr_named(e, Some("default"))?,
                        None => return Err(self.error("Unsupported export default", d.span.start)),
                    },
                }
                self.emit_store(Loc::Env { level: MODULE_LEVEL, slot: DEFAULT_SLOT }, false);
                Ok(())
            }
            _ => Err(self.error("Unsupported syntax (TypeScript)", super::stmt::stmt_start(stmt))),
        }
    }
}

/// `import.meta` for code in `code` (see `module::dynamic`).
pub fn import_meta(vm: &mut Vm, code: CodeId) -> Value {
    crate::module::dynamic::import_meta(vm, code)
}

/// `import(specifier, options)` from code in `code` (see `module::dynamic`).
pub fn dynamic_import(vm: &mut Vm, code: CodeId, spec: Value, options: Value) -> JsResult<Value> {
    crate::module::dynamic::dynamic_import(vm, code, spec, options)
}
