//! ES modules (ECMA-262 §16.2): the module map, Source Text Module Records and the
//! Cyclic Module Record algorithms.
//!
//! https://tc39.es/ecma262/#sec-modules
//!
//! - `load.rs` — HostLoadImportedModule and LoadRequestedModules: the embedder's
//!   [`ModuleLoader`] hook turns (referrer, specifier) into a resolved name and source text;
//!   JSON modules (`with { type: "json" }`) are built here.
//! - `link.rs` — Link / InnerModuleLinking, InitializeEnvironment, ResolveExport,
//!   GetExportedNames and GetModuleNamespace.
//! - `evaluate.rs` — Evaluate / InnerModuleEvaluation with top-level await (the async-parent
//!   machinery: ExecuteAsyncModule, AsyncModuleExecutionFulfilled/Rejected).
//! - `namespace.rs` — the module namespace exotic object's internal methods (§10.4.6).
//! - `dynamic.rs` — `import()` (EvaluateImportCall, ContinueDynamicImport) and `import.meta`.
//!
//! The compiler (`compiler/module.rs`) turns module source into a body code block plus a
//! [`ModuleCode`] (requests, import and export entries, the environment layout).
//!
//! A module's top-level bindings live in its module environment (an `Env` allocated when the
//! module is parsed). An imported binding compiles to `Op::GetImport(cell)`: the cell, filled
//! at link time, names the exporting module's environment slot, so imports are live and keep
//! their temporal dead zone. Everything here is plain data and rides the image.
//!
//! Architecture invariant: no I/O. Source text arrives only through `Vm::module_loader`.

pub mod dynamic;
pub mod evaluate;
pub mod link;
pub mod load;
pub mod namespace;

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;
use serde::{Deserialize, Serialize};

use crate::atoms::Atom;
use crate::builtins::NativeDef;
use crate::error::{JsResult, RunError};
use crate::heap::object::NsBinding;
use crate::heap::{CodeId, EnvId};
use crate::native;
use crate::string::JsStr;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// Index of a module record in [`ModuleMap::records`] (defined with the heap, whose
/// namespace objects name modules).
pub use crate::heap::ModuleId;

/// The embedder's loader: (referrer's resolved name, specifier) → (resolved name, what the
/// module is), or an error message. The resolved name identifies the module in the map and
/// names it in stack traces; the engine itself never touches a file.
pub type ModuleLoader = fn(&mut Vm, &str, &str) -> Result<(String, ModuleSource), String>;

/// What a loader found for a specifier.
pub enum ModuleSource {
    /// Source text: JavaScript, or JSON / text under a `type` import attribute.
    Text(String),
    /// A JSON file's text (Node's `.json`): it loads only under `type: "json"` (or
    /// `"text"`); without the attribute the import fails with Node 20's TypeError
    /// `ERR_IMPORT_ASSERTION_TYPE_MISSING`.
    Json(String),
    /// JavaScript the host made from another text (TypeScript), with the map of its
    /// positions back to that text (stack traces report the original positions).
    Mapped(String, crate::source_map::PositionMap),
    /// A source the host could not make JavaScript of: its syntax error, in the original
    /// text (loading fails as a parse error of the module does).
    Invalid(crate::error::SyntaxErrorReport),
    /// A synthetic module whose exports are these values, evaluated by the host already
    /// (Node's builtin modules and CommonJS modules imported from ESM). Exports are fixed
    /// bindings; the names must be distinct.
    Synthetic(Vec<(String, Value)>),
}

/// Cyclic Module Record [[Status]].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum ModuleStatus {
    /// Parsed; its requested modules are not all loaded yet.
    New,
    Unlinked,
    Linking,
    Linked,
    Evaluating,
    EvaluatingAsync,
    Evaluated,
}

/// What kind of module a record holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum ModuleKind {
    /// Source Text Module Record.
    SourceText,
    /// A synthetic module (JSON, text, or host-provided exports), evaluated when loaded.
    Json,
}

/// A module request's [[Phase]] (the import-defer and source-phase-imports proposals).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub enum ImportPhase {
    /// An ordinary import: the module is evaluated before the importer.
    #[default]
    Evaluation,
    /// `import defer`: only the module's asynchronous dependencies are evaluated up front;
    /// the module itself runs on first access to its deferred namespace.
    Defer,
    /// `import source`: the module's source object (no module type here has one).
    Source,
}

/// ModuleRequest Record: a specifier with its import attributes (sorted by key) and phase.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ModuleRequest {
    pub specifier: String,
    pub attributes: Vec<(String, String)>,
    pub phase: ImportPhase,
}

impl ModuleRequest {
    /// The `type` attribute, if present.
    pub fn module_type(&self) -> Option<&str> {
        self.attributes.iter().find(|(k, _)| k == "type").map(|(_, v)| v.as_str())
    }
}

/// ImportEntry whose [[ImportName]] is a name: the local binding is an import cell.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ImportEntry {
    /// Index into the module's requests.
    pub request: u32,
    pub import_name: JsStr,
    /// Index into [`ModuleMap::cells`].
    pub cell: u32,
}

/// `import * as ns` (`import defer * as ns`, `import source x`): an immutable binding holding
/// the namespace (deferred namespace, module source), an import cell too.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NamespaceImport {
    pub request: u32,
    pub cell: u32,
    pub phase: ImportPhase,
}

/// ExportEntry with a local binding (the module environment's `slot`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LocalExport {
    pub export_name: JsStr,
    pub slot: u32,
}

/// ExportEntry re-exporting another module's binding; `import_name` None is `export * as x`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IndirectExport {
    pub export_name: JsStr,
    pub request: u32,
    pub import_name: Option<JsStr>,
}

/// What the compiler learns about a module's source text (ParseModule's entries).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ModuleCode {
    pub requests: Vec<ModuleRequest>,
    pub imports: Vec<ImportEntry>,
    pub namespace_imports: Vec<NamespaceImport>,
    pub local_exports: Vec<LocalExport>,
    pub indirect_exports: Vec<IndirectExport>,
    /// `export * from` requests.
    pub star_exports: Vec<u32>,
    /// Hoisted function declarations: (index in the body's `functions`, env slot).
    pub functions: Vec<(u32, u32)>,
    /// `var` bindings, initialised to undefined by InitializeEnvironment.
    pub var_slots: Vec<u32>,
    pub env_slots: u32,
    /// [[HasTLA]]: the body awaits at top level (it is compiled as an async body).
    pub has_tla: bool,
}

/// Where an import cell reads its value.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub enum CellTarget {
    Unlinked,
    /// A binding of the exporting module's environment.
    Binding {
        env: EnvId,
        slot: u32,
    },
    /// A namespace object (`import * as ns`, or `import { ns }` of an `export * as ns`).
    Value(Value),
}

/// An indirect (import) binding.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct ImportCell {
    /// The local name, for TDZ messages.
    pub name: Atom,
    pub target: CellTarget,
}

/// A module record: Source Text (or JSON) Module Record with its Cyclic Module Record state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ModuleRecord {
    /// Resolved name (as the loader returned it).
    pub name: String,
    pub kind: ModuleKind,
    pub status: ModuleStatus,
    /// Index into `vm.sources` (how code finds its module).
    #[serde(serialize_with = "crate::heap::canonical::source")]
    pub source_id: u32,
    /// The body (None for JSON modules).
    pub code: Option<CodeId>,
    /// The module environment.
    pub env: EnvId,
    pub info: ModuleCode,
    /// [[LoadedModules]]: the module each request resolved to.
    pub loaded: Vec<Option<ModuleId>>,
    pub namespace: Option<ObjectId>,
    /// The deferred namespace (`import defer`), created once like `namespace`.
    pub deferred_namespace: Option<ObjectId>,
    pub meta: Option<ObjectId>,
    /// [[EvaluationError]].
    pub error: Option<Value>,
    pub dfs_index: u32,
    pub dfs_ancestor_index: u32,
    pub cycle_root: ModuleId,
    /// [[AsyncEvaluation]] and the order in which it was set.
    pub async_evaluation: bool,
    pub async_order: u64,
    /// [[TopLevelCapability]]'s promise.
    pub capability: Option<ObjectId>,
    pub async_parents: Vec<ModuleId>,
    pub pending_async: u32,
}

/// Every module the VM has loaded.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ModuleMap {
    pub records: Vec<ModuleRecord>,
    /// Resolved name (plus `\0json` for JSON modules) → module.
    pub by_name: IndexMap<String, ModuleId, FxBuildHasher>,
    /// (referrer, specifier, type) → module: a request always gives the same module.
    pub resolved: IndexMap<String, ModuleId, FxBuildHasher>,
    pub cells: Vec<ImportCell>,
    /// Source of [[AsyncEvaluation]] order numbers.
    pub async_counter: u64,
}

impl ModuleMap {
    pub fn get(&self, id: ModuleId) -> Option<&ModuleRecord> {
        self.records.get(id as usize)
    }

    /// The module whose body was compiled from source `source_id`.
    pub fn by_source(&self, source_id: u32) -> Option<ModuleId> {
        self.records
            .iter()
            .position(|r| r.source_id == source_id && r.kind == ModuleKind::SourceText)
            .map(|i| i as ModuleId)
    }

    /// Every handle the module map holds (GC roots, image verification).
    pub fn children(&self, out: &mut impl Extend<Value>, envs: &mut Vec<EnvId>, codes: &mut Vec<CodeId>) {
        for r in &self.records {
            envs.push(r.env);
            codes.extend(r.code);
            out.extend(r.namespace.map(Value::object));
            out.extend(r.deferred_namespace.map(Value::object));
            out.extend(r.meta.map(Value::object));
            out.extend(r.error);
            out.extend(r.capability.map(Value::object));
        }
        for c in &self.cells {
            match c.target {
                CellTarget::Unlinked => {}
                CellTarget::Binding { env, .. } => envs.push(env),
                CellTarget::Value(v) => out.extend([v]),
            }
        }
    }
}

pub(crate) fn record(vm: &Vm, id: ModuleId) -> &ModuleRecord {
    &vm.modules.records[id as usize]
}

pub(crate) fn record_mut(vm: &mut Vm, id: ModuleId) -> &mut ModuleRecord {
    &mut vm.modules.records[id as usize]
}

/// Internal natives of the module machinery (reaction handlers of async evaluation and
/// `import()`); their state is in their captures.
pub(crate) const NATIVES: &[NativeDef] = &[
    native!("%Module.asyncFulfilled", 1, evaluate::async_fulfilled_native),
    native!("%Module.asyncRejected", 1, evaluate::async_rejected_native),
    native!("%DynamicImport.linkAndEvaluate", 0, dynamic::link_and_evaluate_native),
    native!("%DynamicImport.fulfilled", 0, dynamic::fulfilled_native),
    native!("%DynamicImport.rejected", 1, dynamic::rejected_native),
    native!("%DynamicImport.depFulfilled", 0, dynamic::dep_fulfilled_native),
];

/// `Op::GetImport`: read an imported binding (ReferenceError in its TDZ).
#[inline]
pub fn get_import(vm: &mut Vm, cell: u32) -> JsResult<Value> {
    let Some(&c) = vm.modules.cells.get(cell as usize) else {
        return Err(vm.reference_error("invalid import binding"));
    };
    let v = match c.target {
        CellTarget::Binding { env, slot } => vm.heap.env(env).slots.get(slot as usize).copied().unwrap_or(Value::EMPTY),
        CellTarget::Value(v) => v,
        CellTarget::Unlinked => Value::EMPTY,
    };
    if v.is_empty() {
        let n = vm.heap.atoms.get(c.name).to_rust_string();
        return Err(vm.reference_error(format!("Cannot access '{n}' before initialization")));
    }
    Ok(v)
}

// ---- the embedder's entry points

/// Why loading a module graph failed: a syntax error in some module's source (nothing of
/// it ran), or a thrown error (the loader failed, an unsupported attribute, bad JSON).
pub enum LoadError {
    Syntax(crate::error::SyntaxErrorReport),
    Throw(crate::error::Throw),
}

impl LoadError {
    /// As the embedder sees it.
    pub fn into_run_error(self, vm: &mut Vm) -> RunError {
        match self {
            LoadError::Syntax(r) => RunError::Syntax(r),
            LoadError::Throw(t) => vm.run_error(t),
        }
    }
}

/// ParseModule for the entry module `filename` (no dependencies loaded yet). A syntax error
/// here is the entry's own parse error.
pub fn parse_module(vm: &mut Vm, source: &str, filename: &str) -> Result<ModuleId, RunError> {
    parse_mapped_module(vm, source, filename, None)
}

/// [`parse_module`] of a text made from another (TypeScript): positions are `map`'s.
pub fn parse_mapped_module(
    vm: &mut Vm,
    source: &str,
    filename: &str,
    map: Option<crate::source_map::PositionMap>,
) -> Result<ModuleId, RunError> {
    load::parse_source_module(vm, source, filename, map).map_err(RunError::Syntax)
}

/// LoadRequestedModules: load the whole static graph below `id` through the loader.
pub fn load_requested_modules(vm: &mut Vm, id: ModuleId) -> Result<(), RunError> {
    load::load_requested_modules(vm, id).map_err(|e| e.into_run_error(vm))
}

/// Link(): resolve every import; a resolution failure is a SyntaxError.
pub fn link_module(vm: &mut Vm, id: ModuleId) -> Result<(), RunError> {
    let r = link::link(vm, id);
    vm.stack.clear();
    vm.frames.clear();
    r.map_err(|t| vm.run_error(t))
}

/// Evaluate(): run the graph; returns the evaluation promise. A module that throws before
/// any await rejects it at once: that is returned as the error (and the promise is marked
/// handled). With top-level await the promise settles later, as jobs run.
pub fn evaluate_module(vm: &mut Vm, id: ModuleId) -> Result<Value, RunError> {
    let r = evaluate::evaluate(vm, id);
    vm.stack.clear();
    vm.frames.clear();
    let promise = match r {
        Ok(p) => p,
        Err(t) => return Err(vm.run_error(t)),
    };
    if let Some((crate::heap::object::PromiseState::Rejected, reason)) =
        crate::builtins::promise::promise_state(vm, promise)
    {
        vm.pending_rejections.retain(|&p| p != Value::object(promise));
        if let crate::heap::object::Class::Promise(d) = &mut vm.heap.obj_mut(promise).class {
            d.is_handled = true;
        }
        return Err(vm.run_error(crate::error::Throw::Value(reason)));
    }
    Ok(Value::object(promise))
}

/// Parse, load, link and evaluate an entry module (see [`crate::vm::Vm::eval_module`]).
pub fn eval_module(vm: &mut Vm, source: &str, filename: &str) -> Result<Value, RunError> {
    eval_mapped_module(vm, source, filename, None)
}

/// [`eval_module`] of a text made from another (TypeScript): positions are `map`'s.
pub fn eval_mapped_module(
    vm: &mut Vm,
    source: &str,
    filename: &str,
    map: Option<crate::source_map::PositionMap>,
) -> Result<Value, RunError> {
    let id = parse_mapped_module(vm, source, filename, map)?;
    load_requested_modules(vm, id)?;
    link_module(vm, id)?;
    evaluate_module(vm, id)
}

/// Image verification of the module map: every module id (in records, the maps, namespace
/// objects) names a record, and every import-cell slot is inside its environment. Handles
/// themselves are checked with the other GC roots.
pub fn verify(vm: &Vm) -> Result<(), String> {
    let m = &vm.modules;
    let n = m.records.len();
    let ok = |id: ModuleId| (id as usize) < n;
    for (i, r) in m.records.iter().enumerate() {
        let ids = r.loaded.iter().flatten().chain(std::iter::once(&r.cycle_root)).chain(r.async_parents.iter());
        if ids.clone().any(|&id| !ok(id)) {
            return Err(format!("module {i}: module id out of range"));
        }
        if r.loaded.len() != r.info.requests.len() {
            return Err(format!("module {i}: loaded modules do not match its requests"));
        }
        let cells = r.info.imports.iter().map(|e| e.cell).chain(r.info.namespace_imports.iter().map(|e| e.cell));
        if cells.clone().any(|c| c as usize >= m.cells.len()) {
            return Err(format!("module {i}: import cell out of range"));
        }
    }
    if m.by_name.values().chain(m.resolved.values()).any(|&id| !ok(id)) {
        return Err("module map: module id out of range".into());
    }
    for (_, obj) in vm.heap.objects.iter() {
        if let crate::heap::object::Class::Namespace(ns) = &obj.class {
            let bad = !ok(ns.module)
                || ns.exports.iter().any(|e| match e.binding {
                    NsBinding::Namespace(id) | NsBinding::DeferredNamespace(id) => !ok(id),
                    NsBinding::Slot { .. } => false,
                });
            if bad {
                return Err("module namespace: module id out of range".into());
            }
        }
    }
    Ok(())
}
