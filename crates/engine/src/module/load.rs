//! Loading: HostLoadImportedModule (§16.2.1.10) through the embedder's loader, and
//! LoadRequestedModules (§16.2.1.5.1) over the static graph.
//!
//! The loader is synchronous, so a graph loads in one walk. The same (referrer, specifier,
//! type) always gives the same module (`ModuleMap::resolved`), and one resolved name is
//! parsed once (`ModuleMap::by_name`). A failed load is not remembered: importing again
//! retries.
//!
//! Module types (the `type` import attribute): none (JavaScript), `"json"` (the parsed value
//! as the default export) and `"text"` (the source string as the default export, the
//! import-text proposal). Any other attribute key is a SyntaxError, another type a TypeError.

use crate::error::{ErrorKind, SyntaxErrorReport};
use crate::heap::object::Env;
use crate::module::{
    LoadError, LocalExport, ModuleCode, ModuleId, ModuleKind, ModuleRecord, ModuleRequest, ModuleSource, ModuleStatus,
};
use crate::string::JsStr;
use crate::value::Value;
use crate::vm::Vm;

fn new_record(
    name: &str,
    kind: ModuleKind,
    source_id: u32,
    code: Option<crate::heap::CodeId>,
    env: crate::heap::EnvId,
    info: ModuleCode,
    id: ModuleId,
) -> ModuleRecord {
    let n = info.requests.len();
    ModuleRecord {
        name: name.to_string(),
        kind,
        status: if n == 0 && kind != ModuleKind::SourceText { ModuleStatus::Unlinked } else { ModuleStatus::New },
        source_id,
        code,
        env,
        info,
        loaded: vec![None; n],
        namespace: None,
        deferred_namespace: None,
        meta: None,
        error: None,
        dfs_index: 0,
        dfs_ancestor_index: 0,
        cycle_root: id,
        async_evaluation: false,
        async_order: 0,
        capability: None,
        async_parents: Vec::new(),
        pending_async: 0,
    }
}

/// ParseModule: compile `source` as module `name` and add its record (dependencies not
/// loaded). The name is registered, so a cycle back to it finds this record.
pub(crate) fn parse_source_module(
    vm: &mut Vm,
    source: &str,
    name: &str,
    map: Option<crate::source_map::PositionMap>,
) -> Result<ModuleId, SyntaxErrorReport> {
    let (code, info, source_id) = crate::compiler::module::compile_module(vm, source, name, map)?;
    let env = vm.heap.alloc_env(Env {
        parent: None,
        slots: vec![Value::EMPTY; info.env_slots as usize],
        object: None,
        eval_vars: false,
    });
    let id = vm.modules.records.len() as ModuleId;
    vm.modules.records.push(new_record(name, ModuleKind::SourceText, source_id, Some(code), env, info, id));
    vm.modules.by_name.insert(name.to_string(), id);
    Ok(id)
}

/// A synthetic module whose only export, `default`, is `value` (JSON and text modules).
fn default_export_module(vm: &mut Vm, name: &str, value: Value) -> ModuleId {
    synthetic_module(vm, name, vec![("default".to_string(), value)])
}

/// A synthetic module exporting `exports` as fixed bindings of its environment.
fn synthetic_module(vm: &mut Vm, name: &str, exports: Vec<(String, Value)>) -> ModuleId {
    let mut local_exports = Vec::with_capacity(exports.len());
    let mut slots = Vec::with_capacity(exports.len());
    for (export_name, value) in exports {
        if local_exports.iter().any(|e: &LocalExport| e.export_name.to_rust_string() == export_name) {
            continue;
        }
        local_exports.push(LocalExport { export_name: JsStr::from_str(&export_name), slot: slots.len() as u32 });
        slots.push(value);
    }
    let env_slots = slots.len() as u32;
    let env = vm.heap.alloc_env(Env { parent: None, slots, object: None, eval_vars: false });
    let info = ModuleCode { local_exports, env_slots, ..ModuleCode::default() };
    let id = vm.modules.records.len() as ModuleId;
    vm.modules.records.push(new_record(name, ModuleKind::Json, crate::heap::canonical::NO_SOURCE, None, env, info, id));
    id
}

fn throw(vm: &mut Vm, kind: ErrorKind, message: String) -> LoadError {
    LoadError::Throw(vm.throw(kind, message))
}

/// A loader's failure as an Error; a message spelled `[CODE] text` (Node's
/// `[ERR_MODULE_NOT_FOUND] Cannot find module …`) gives the error that `code` property.
fn loader_error(vm: &mut Vm, message: &str) -> LoadError {
    let coded = message.strip_prefix('[').and_then(|rest| rest.split_once("] ")).filter(|(code, _)| {
        !code.is_empty() && code.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    });
    match coded {
        Some((code, text)) => {
            let err = vm.make_error(ErrorKind::Error, text);
            let code = vm.str(code);
            if let Some(o) = err.as_object() {
                let key = vm.key("code");
                vm.define_builtin(o, key, code, crate::heap::shape::PropFlags::DEFAULT);
            }
            LoadError::Throw(crate::error::Throw::Value(err))
        }
        None => throw(vm, ErrorKind::Error, message.to_string()),
    }
}

/// HostLoadImportedModule(referrer, request): the module `request` names from `referrer`.
pub(crate) fn host_load(vm: &mut Vm, referrer: &str, request: &ModuleRequest) -> Result<ModuleId, LoadError> {
    // AllImportAttributesSupported: only `type`.
    if let Some((key, _)) = request.attributes.iter().find(|(k, _)| k != "type") {
        return Err(throw(vm, ErrorKind::SyntaxError, format!("Import attribute \"{key}\" is not supported")));
    }
    let ty = request.module_type();
    if let Some(t) = ty {
        if t != "json" && t != "text" {
            return Err(throw(vm, ErrorKind::TypeError, format!("\"{t}\" is not a valid module type")));
        }
    }
    let key = format!("{referrer}\0{}\0{}", request.specifier, ty.unwrap_or(""));
    if let Some(&id) = vm.modules.resolved.get(&key) {
        return Ok(id);
    }
    let Some(loader) = vm.module_loader else {
        return Err(throw(
            vm,
            ErrorKind::TypeError,
            format!("Cannot load module '{}': the host provides no module loader", request.specifier),
        ));
    };
    let (name, source) = match loader(vm, referrer, &request.specifier) {
        Ok(x) => x,
        Err(message) => return Err(loader_error(vm, &message)),
    };
    let map_key = match ty {
        Some(t) => format!("{name}\0{t}"),
        None => name.clone(),
    };
    let id = match vm.modules.by_name.get(&map_key) {
        Some(&id) => id,
        None => {
            let (source, map) = match source {
                ModuleSource::Text(text) => (text, None),
                ModuleSource::Json(_) if ty.is_none() => {
                    let url = if name.starts_with('/') { format!("file://{name}") } else { name.clone() };
                    let text = format!("Module \"{url}\" needs an import attribute of type \"json\"");
                    let err = vm.make_error(ErrorKind::TypeError, &text);
                    if let Some(o) = err.as_object() {
                        let key = vm.key("code");
                        let code = vm.str("ERR_IMPORT_ASSERTION_TYPE_MISSING");
                        vm.define_builtin(o, key, code, crate::heap::shape::PropFlags::DEFAULT);
                    }
                    return Err(LoadError::Throw(crate::error::Throw::Value(err)));
                }
                ModuleSource::Json(text) => (text, None),
                ModuleSource::Mapped(text, map) => (text, Some(map)),
                ModuleSource::Invalid(report) => return Err(LoadError::Syntax(report)),
                ModuleSource::Synthetic(exports) => {
                    if let Some(t) = ty {
                        let message = format!("Module '{name}' is not a {t} module");
                        return Err(throw(vm, ErrorKind::TypeError, message));
                    }
                    let id = synthetic_module(vm, &name, exports);
                    vm.modules.by_name.insert(map_key, id);
                    vm.modules.resolved.insert(key, id);
                    return Ok(id);
                }
            };
            let id = match ty {
                None => parse_source_module(vm, &source, &name, map).map_err(LoadError::Syntax)?,
                Some("json") => {
                    // ParseJSONModule: JSON.parse of the source; its SyntaxError fails the load.
                    let parse = crate::builtins::NativeId::by_name("JSON.parse").and_then(|n| n.def());
                    let Some(parse) = parse else {
                        return Err(throw(vm, ErrorKind::TypeError, "JSON.parse is missing".into()));
                    };
                    let text = vm.str(&source);
                    let value = (parse.f)(vm, Value::UNDEFINED, &[text]).map_err(LoadError::Throw)?;
                    default_export_module(vm, &name, value)
                }
                Some(_) => {
                    let text = vm.str(&source);
                    default_export_module(vm, &name, text)
                }
            };
            vm.modules.by_name.insert(map_key, id);
            id
        }
    };
    vm.modules.resolved.insert(key, id);
    Ok(id)
}

/// LoadRequestedModules: load every module reachable from `root` (depth first, requests in
/// order), filling each record's [[LoadedModules]]. Records become Unlinked.
pub(crate) fn load_requested_modules(vm: &mut Vm, root: ModuleId) -> Result<(), LoadError> {
    let mut visited: Vec<ModuleId> = Vec::new();
    let mut todo = vec![root];
    while let Some(id) = todo.pop() {
        if visited.contains(&id) {
            continue;
        }
        visited.push(id);
        let (referrer, requests) = {
            let r = &vm.modules.records[id as usize];
            (r.name.clone(), r.info.requests.clone())
        };
        let mut children = Vec::with_capacity(requests.len());
        for (i, req) in requests.iter().enumerate() {
            let m = match vm.modules.records[id as usize].loaded[i] {
                Some(m) => m,
                None => {
                    let m = host_load(vm, &referrer, req)?;
                    vm.modules.records[id as usize].loaded[i] = Some(m);
                    m
                }
            };
            children.push(m);
        }
        // Depth first, in request order.
        for m in children.into_iter().rev() {
            if !visited.contains(&m) {
                todo.push(m);
            }
        }
    }
    for id in visited {
        let r = &mut vm.modules.records[id as usize];
        if r.status == ModuleStatus::New {
            r.status = ModuleStatus::Unlinked;
        }
    }
    Ok(())
}
