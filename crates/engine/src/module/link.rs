//! Linking (§16.2.1.5.2 Link, InnerModuleLinking), InitializeEnvironment (§16.2.1.7.3.4),
//! ResolveExport (§16.2.1.7.3.3), GetExportedNames (§16.2.1.7.3.2) and GetModuleNamespace
//! (§16.2.1.11).

use crate::error::{ErrorKind, JsResult, Throw};
use crate::heap::object::NsBinding;
use crate::module::namespace;
use crate::module::{record, record_mut, CellTarget, ImportPhase, ModuleId, ModuleStatus};
use crate::string::JsStr;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// ResolveExport's result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Resolution {
    /// null: no such export (or a circular re-export).
    NotFound,
    /// ambiguous: two `export *` provide different bindings.
    Ambiguous,
    /// ResolvedBinding { [[Module]], [[BindingName]] } with a local binding (its env slot).
    Binding { module: ModuleId, slot: u32 },
    /// ResolvedBinding whose [[BindingName]] is NAMESPACE.
    Namespace(ModuleId),
    /// ResolvedBinding whose [[BindingName]] is DEFERRED-NAMESPACE (`import defer * as ns;
    /// export { ns }`).
    DeferredNamespace(ModuleId),
}

/// ResolveExport(exportName, resolveSet).
pub fn resolve_export(vm: &Vm, module: ModuleId, name: &JsStr, resolve_set: &mut Vec<(ModuleId, JsStr)>) -> Resolution {
    // 1-2. A circular import request.
    if resolve_set.iter().any(|(m, n)| *m == module && n == name) {
        return Resolution::NotFound;
    }
    // 3. Append the Record { [[Module]]: module, [[ExportName]]: exportName } to resolveSet.
    resolve_set.push((module, name.clone()));
    let r = record(vm, module);
    // 4. Local exports.
    if let Some(e) = r.info.local_exports.iter().find(|e| e.export_name == *name) {
        return Resolution::Binding { module, slot: e.slot };
    }
    // 5. Indirect exports.
    if let Some(e) = r.info.indirect_exports.iter().find(|e| e.export_name == *name) {
        let Some(imported) = r.loaded.get(e.request as usize).copied().flatten() else { return Resolution::NotFound };
        let deferred = r.info.requests.get(e.request as usize).is_some_and(|q| q.phase == ImportPhase::Defer);
        return match &e.import_name {
            None if deferred => Resolution::DeferredNamespace(imported),
            None => Resolution::Namespace(imported),
            Some(import_name) => resolve_export(vm, imported, import_name, resolve_set),
        };
    }
    // 6. A default export cannot be provided by export *.
    if name.iter().eq("default".encode_utf16()) {
        return Resolution::NotFound;
    }
    // 7-8. Star exports.
    let mut star = Resolution::NotFound;
    for &req in &r.info.star_exports {
        let Some(imported) = r.loaded.get(req as usize).copied().flatten() else { continue };
        match resolve_export(vm, imported, name, resolve_set) {
            Resolution::Ambiguous => return Resolution::Ambiguous,
            Resolution::NotFound => {}
            resolution => {
                if star == Resolution::NotFound {
                    star = resolution;
                } else if star != resolution {
                    return Resolution::Ambiguous;
                }
            }
        }
    }
    star
}

/// GetExportedNames(exportStarSet).
pub fn get_exported_names(vm: &Vm, module: ModuleId, star_set: &mut Vec<ModuleId>) -> Vec<JsStr> {
    if star_set.contains(&module) {
        return Vec::new();
    }
    star_set.push(module);
    let r = record(vm, module);
    let mut names: Vec<JsStr> = r.info.local_exports.iter().map(|e| e.export_name.clone()).collect();
    names.extend(r.info.indirect_exports.iter().map(|e| e.export_name.clone()));
    for &req in &r.info.star_exports {
        let Some(imported) = r.loaded.get(req as usize).copied().flatten() else { continue };
        for n in get_exported_names(vm, imported, star_set) {
            if !n.iter().eq("default".encode_utf16()) && !names.contains(&n) {
                names.push(n);
            }
        }
    }
    names
}

/// GetModuleNamespace(module, evaluation): created once, with the unambiguous export names.
pub fn get_namespace(vm: &mut Vm, module: ModuleId) -> ObjectId {
    if let Some(ns) = record(vm, module).namespace {
        return ns;
    }
    let ns = create_namespace(vm, module, false);
    record_mut(vm, module).namespace = Some(ns);
    ns
}

/// GetModuleNamespace(module, defer): the deferred namespace, created once.
pub fn get_deferred_namespace(vm: &mut Vm, module: ModuleId) -> ObjectId {
    if let Some(ns) = record(vm, module).deferred_namespace {
        return ns;
    }
    let ns = create_namespace(vm, module, true);
    record_mut(vm, module).deferred_namespace = Some(ns);
    ns
}

fn create_namespace(vm: &mut Vm, module: ModuleId, deferred: bool) -> ObjectId {
    let names = get_exported_names(vm, module, &mut Vec::new());
    let mut exports: Vec<(JsStr, NsBinding)> = Vec::new();
    for n in names {
        match resolve_export(vm, module, &n, &mut Vec::new()) {
            Resolution::Binding { module: m, slot } => {
                exports.push((n, NsBinding::Slot { env: record(vm, m).env, slot }));
            }
            Resolution::Namespace(m) => exports.push((n, NsBinding::Namespace(m))),
            Resolution::DeferredNamespace(m) => exports.push((n, NsBinding::DeferredNamespace(m))),
            Resolution::NotFound | Resolution::Ambiguous => {}
        }
    }
    namespace::create(vm, module, exports, deferred)
}

/// Link(): on failure every module this link touched goes back to unlinked.
pub fn link(vm: &mut Vm, id: ModuleId) -> JsResult<()> {
    let mut stack = Vec::new();
    match inner_link(vm, id, &mut stack, 0) {
        Ok(_) => Ok(()),
        Err(e) => {
            for m in stack {
                record_mut(vm, m).status = ModuleStatus::Unlinked;
            }
            Err(e)
        }
    }
}

/// InnerModuleLinking (Tarjan's strongly connected components over the requests).
fn inner_link(vm: &mut Vm, id: ModuleId, stack: &mut Vec<ModuleId>, mut index: u32) -> JsResult<u32> {
    match record(vm, id).status {
        ModuleStatus::Linking
        | ModuleStatus::Linked
        | ModuleStatus::Evaluating
        | ModuleStatus::EvaluatingAsync
        | ModuleStatus::Evaluated => return Ok(index),
        ModuleStatus::New => {
            let name = record(vm, id).name.clone();
            return Err(vm.type_error(format!("Module '{name}' has not finished loading")));
        }
        ModuleStatus::Unlinked => {}
    }
    let r = record_mut(vm, id);
    r.status = ModuleStatus::Linking;
    r.dfs_index = index;
    r.dfs_ancestor_index = index;
    index += 1;
    stack.push(id);
    let loaded = r.loaded.clone();
    for m in loaded {
        let Some(m) = m else {
            return Err(vm.type_error("a requested module was not loaded"));
        };
        index = inner_link(vm, m, stack, index)?;
        if record(vm, m).status == ModuleStatus::Linking {
            let anc = record(vm, m).dfs_ancestor_index;
            let r = record_mut(vm, id);
            r.dfs_ancestor_index = r.dfs_ancestor_index.min(anc);
        }
    }
    initialize_environment(vm, id)?;
    let r = record(vm, id);
    if r.dfs_ancestor_index == r.dfs_index {
        while let Some(m) = stack.pop() {
            record_mut(vm, m).status = ModuleStatus::Linked;
            if m == id {
                break;
            }
        }
    }
    Ok(index)
}

fn resolution_error(vm: &mut Vm, specifier: &str, name: &JsStr, resolution: Resolution) -> Throw {
    let n = name.to_rust_string();
    let msg = if resolution == Resolution::Ambiguous {
        format!("The requested module '{specifier}' contains conflicting star exports for name '{n}'")
    } else {
        format!("The requested module '{specifier}' does not provide an export named '{n}'")
    };
    vm.throw(ErrorKind::SyntaxError, msg)
}

/// InitializeEnvironment: check re-exports, bind imports, create `var`s and functions.
fn initialize_environment(vm: &mut Vm, id: ModuleId) -> JsResult<()> {
    let r = record(vm, id);
    let (info, loaded, env, code) = (r.info.clone(), r.loaded.clone(), r.env, r.code);
    let specifier = |req: u32| info.requests.get(req as usize).map_or(String::new(), |r| r.specifier.clone());
    let imported = |req: u32| loaded.get(req as usize).copied().flatten();
    // 1. Every indirect export must resolve.
    for e in &info.indirect_exports {
        let res = resolve_export(vm, id, &e.export_name, &mut Vec::new());
        if matches!(res, Resolution::NotFound | Resolution::Ambiguous) {
            let name = e.import_name.clone().unwrap_or_else(|| e.export_name.clone());
            return Err(resolution_error(vm, &specifier(e.request), &name, res));
        }
    }
    // 7. Import bindings.
    for e in &info.imports {
        let Some(m) = imported(e.request) else { return Err(vm.type_error("a requested module was not loaded")) };
        let target = match resolve_export(vm, m, &e.import_name, &mut Vec::new()) {
            Resolution::Binding { module, slot } => CellTarget::Binding { env: record(vm, module).env, slot },
            Resolution::Namespace(module) => CellTarget::Value(Value::object(get_namespace(vm, module))),
            Resolution::DeferredNamespace(module) => {
                CellTarget::Value(Value::object(get_deferred_namespace(vm, module)))
            }
            res => return Err(resolution_error(vm, &specifier(e.request), &e.import_name, res)),
        };
        if let Some(c) = vm.modules.cells.get_mut(e.cell as usize) {
            c.target = target;
        }
    }
    for ni in &info.namespace_imports {
        let Some(m) = imported(ni.request) else { return Err(vm.type_error("a requested module was not loaded")) };
        let ns = match ni.phase {
            ImportPhase::Evaluation => get_namespace(vm, m),
            ImportPhase::Defer => get_deferred_namespace(vm, m),
            // GetModuleSource: no module type here has a source object.
            ImportPhase::Source => {
                let spec = specifier(ni.request);
                return Err(
                    vm.throw(ErrorKind::SyntaxError, format!("The module '{spec}' has no source phase representation"))
                );
            }
        };
        if let Some(c) = vm.modules.cells.get_mut(ni.cell as usize) {
            c.target = CellTarget::Value(Value::object(ns));
        }
    }
    // 21-24. var bindings start as undefined; function declarations are instantiated.
    for &slot in &info.var_slots {
        set_slot(vm, env, slot, Value::UNDEFINED);
    }
    if let Some(code) = code {
        for &(index, slot) in &info.functions {
            let Some(&fcode) = vm.heap.code(code).functions.get(index as usize) else { continue };
            let f = crate::interp::ops::instantiate_function(vm, fcode, Some(env));
            set_slot(vm, env, slot, Value::object(f));
        }
    }
    Ok(())
}

fn set_slot(vm: &mut Vm, env: crate::heap::EnvId, slot: u32, v: Value) {
    if let Some(s) = vm.heap.env_mut(env).slots.get_mut(slot as usize) {
        *s = v;
    }
}
