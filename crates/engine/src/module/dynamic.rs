//! `import()` (§13.3.10.1 EvaluateImportCall, §16.2.1.10 ContinueDynamicImport) and
//! `import.meta` (§13.3.12.1).
//!
//! The loader is synchronous: the imported module itself is loaded (or fails) during the
//! call; its dependencies load into `loadPromise`, and linking and evaluation happen in the
//! reaction job (`%DynamicImport.linkAndEvaluate`), as the spec orders them.

use crate::atoms::PropertyKey;
use crate::builtins::make_internal;
use crate::builtins::promise::{new_promise, perform_then_internal, reject_promise, resolve_promise};
use crate::error::{ErrorKind, JsResult, SyntaxErrorReport, Throw};
use crate::heap::CodeId;
use crate::module::{link, load, record, record_mut, ImportPhase, LoadError, ModuleId, ModuleRequest};
use crate::runtime::property;
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// The active script or module's name for code in `code` (GetActiveScriptOrModule): eval
/// code takes its caller's.
fn referrer_of(vm: &Vm, code: CodeId) -> String {
    let name_of = |source_id: u32| -> String {
        match vm.modules.by_source(source_id) {
            Some(m) => record(vm, m).name.clone(),
            None => vm.sources.get(source_id as usize).map_or(String::new(), |s| s.name.clone()),
        }
    };
    let own = name_of(vm.heap.code(code).source_id);
    if own != "<eval>" {
        return own;
    }
    for f in vm.frames.iter().rev() {
        let n = name_of(vm.heap.code(f.code).source_id);
        if n != "<eval>" {
            return n;
        }
    }
    own
}

/// A parse error of an imported module, as the SyntaxError object `import()` rejects with.
fn syntax_error_value(vm: &mut Vm, r: &SyntaxErrorReport) -> Value {
    let msg = format!("{} ({}:{}:{})", r.message, r.filename, r.line, r.column);
    vm.make_error(ErrorKind::SyntaxError, &msg)
}

/// `import(specifier, options)`: always a promise; every failure rejects it.
pub fn dynamic_import(vm: &mut Vm, code: CodeId, specifier: Value, options: Value) -> JsResult<Value> {
    dynamic_import_phase(vm, code, specifier, options, 0)
}

/// `import(…)` (phase 0), `import.defer(…)` (1) or `import.source(…)` (2).
pub fn dynamic_import_phase(vm: &mut Vm, code: CodeId, specifier: Value, options: Value, phase: u8) -> JsResult<Value> {
    let phase = match phase {
        1 => ImportPhase::Defer,
        2 => ImportPhase::Source,
        _ => ImportPhase::Evaluation,
    };
    // 1. Let promiseCapability be ! NewPromiseCapability(%Promise%).
    let promise = new_promise(vm);
    let mark = vm.roots.len();
    vm.roots.extend([Value::object(promise), specifier, options]);
    let r = import_call(vm, code, promise, specifier, options, phase);
    vm.roots.truncate(mark);
    match r {
        Ok(()) => {}
        Err(Throw::Value(e)) => reject_promise(vm, promise, e),
        Err(t) => return Err(t),
    }
    Ok(Value::object(promise))
}

/// EvaluateImportCall steps 5-10 (errors reject the promise).
fn import_call(
    vm: &mut Vm,
    code: CodeId,
    promise: ObjectId,
    specifier: Value,
    options: Value,
    phase: ImportPhase,
) -> JsResult<()> {
    let referrer = referrer_of(vm, code);
    // 5. Let specifierString be Completion(ToString(specifier)).
    let s = crate::runtime::convert::to_string(vm, specifier)?;
    let specifier = vm.heap.flat(s).to_rust_string();
    // 7-8. The import attributes from options.with.
    let mut attributes: Vec<(String, String)> = Vec::new();
    if !options.is_undefined() {
        let Some(o) = options.as_object() else {
            return Err(vm.type_error("The second argument of import() must be an object"));
        };
        let with_key = vm.key("with");
        let with = property::get(vm, o, with_key, options)?;
        if !with.is_undefined() {
            let Some(w) = with.as_object() else {
                return Err(vm.type_error("The 'with' option of import() must be an object"));
            };
            // EnumerableOwnProperties(attributesObj, key+value).
            for key in property::own_property_keys(vm, w)? {
                if let PropertyKey::Symbol(_) = key {
                    continue;
                }
                let Some(desc) = property::get_own_property(vm, w, key)? else { continue };
                if desc.enumerable != Some(true) {
                    continue;
                }
                let value = property::get(vm, w, key, with)?;
                let Some(v) = value.as_string() else {
                    return Err(vm.type_error("Import attribute values must be strings"));
                };
                let v = vm.heap.flat(v).to_rust_string();
                let k = crate::runtime::convert::key_to_display(vm, key);
                attributes.push((k, v));
            }
        }
    }
    attributes.sort();
    // 10. HostLoadImportedModule(referrer, moduleRequest, empty, promiseCapability).
    let request = ModuleRequest { specifier, attributes, phase };
    let module = match load::host_load(vm, &referrer, &request) {
        Ok(m) => m,
        Err(LoadError::Throw(t)) => return Err(t),
        Err(LoadError::Syntax(r)) => return Err(Throw::Value(syntax_error_value(vm, &r))),
    };
    if phase == ImportPhase::Source {
        // GetModuleSource: no module type here has a source object.
        let name = record(vm, module).name.clone();
        return Err(vm.throw(ErrorKind::SyntaxError, format!("The module '{name}' has no source phase representation")));
    }
    continue_dynamic_import(vm, promise, module, phase)
}

/// ContinueDynamicImport(promiseCapability, module).
fn continue_dynamic_import(vm: &mut Vm, promise: ObjectId, module: ModuleId, phase: ImportPhase) -> JsResult<()> {
    // 2. Let loadPromise be module.LoadRequestedModules().
    let load_promise = new_promise(vm);
    match load::load_requested_modules(vm, module) {
        Ok(()) => resolve_promise(vm, load_promise, Value::UNDEFINED)?,
        Err(LoadError::Throw(Throw::Value(e))) => reject_promise(vm, load_promise, e),
        Err(LoadError::Throw(t)) => return Err(t),
        Err(LoadError::Syntax(r)) => {
            let e = syntax_error_value(vm, &r);
            reject_promise(vm, load_promise, e);
        }
    }
    // 3-6. onRejected rejects the import; linkAndEvaluate runs once the graph is loaded.
    let p = Value::object(promise);
    let on_rejected = make_internal(vm, "%DynamicImport.rejected", 1, vec![p]);
    let deferred = Value::bool(phase == ImportPhase::Defer);
    let link_and_evaluate = make_internal(
        vm,
        "%DynamicImport.linkAndEvaluate",
        0,
        vec![p, Value::int(module as i32), Value::object(on_rejected), deferred],
    );
    perform_then_internal(vm, load_promise, Value::object(link_and_evaluate), Value::object(on_rejected));
    Ok(())
}

fn capture(vm: &Vm, i: usize) -> Value {
    vm.native_captures().get(i).copied().unwrap_or_default()
}

/// A captured module id, checked against the map (captures ride images).
fn capture_module(vm: &Vm, i: usize) -> Option<ModuleId> {
    let id = capture(vm, i).as_int()? as ModuleId;
    ((id as usize) < vm.modules.records.len()).then_some(id)
}

/// `%DynamicImport.linkAndEvaluate`: Link(), then Evaluate() and wait for its promise.
pub(crate) fn link_and_evaluate_native(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let (p, module, on_rejected) = (capture(vm, 0), capture_module(vm, 1), capture(vm, 2));
    let (Some(promise), Some(module)) = (p.as_object(), module) else { return Ok(Value::UNDEFINED) };
    // a. Let link be Completion(module.Link()); if abrupt, reject.
    match link::link(vm, module) {
        Ok(()) => {}
        Err(Throw::Value(e)) => {
            reject_promise(vm, promise, e);
            return Ok(Value::UNDEFINED);
        }
        Err(t) => return Err(t),
    }
    let deferred = capture(vm, 3);
    let on_fulfilled = make_internal(vm, "%DynamicImport.fulfilled", 0, vec![p, Value::int(module as i32), deferred]);
    // Evaluating runs the module's body, which may collect: what this native made and still
    // needs afterwards is rooted until it returns (`call_native` truncates the roots).
    vm.roots.push(Value::object(on_fulfilled));
    let evaluate_promise = if deferred == Value::TRUE {
        // import.defer: evaluate only the asynchronous transitive dependencies, all of them.
        let list = crate::module::evaluate::gather_async_transitive_dependencies(vm, module, &mut Vec::new());
        if list.is_empty() {
            return fulfilled_native_with(vm, promise, module, true);
        }
        let all = new_promise(vm);
        let counter = vm.heap.alloc_object(crate::heap::object::Object::new(
            None,
            crate::heap::object::Class::Internal(vec![Value::int(list.len() as i32)]),
        ));
        let all_rejected = make_internal(vm, "%DynamicImport.rejected", 1, vec![Value::object(all)]);
        vm.roots.extend([Value::object(all), Value::object(counter), Value::object(all_rejected)]);
        for dep in list {
            let dep_promise = crate::module::evaluate::evaluate(vm, dep)?;
            let step =
                make_internal(vm, "%DynamicImport.depFulfilled", 0, vec![Value::object(all), Value::object(counter)]);
            perform_then_internal(vm, dep_promise, Value::object(step), Value::object(all_rejected));
        }
        all
    } else {
        // b. Let evaluatePromise be module.Evaluate().
        crate::module::evaluate::evaluate(vm, module)?
    };
    perform_then_internal(vm, evaluate_promise, Value::object(on_fulfilled), on_rejected);
    Ok(Value::UNDEFINED)
}

/// `%DynamicImport.depFulfilled`: one asynchronous dependency of an `import.defer` finished;
/// the last one resolves the combined promise.
pub(crate) fn dep_fulfilled_native(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let (all, counter) = (capture(vm, 0), capture(vm, 1));
    let (Some(all), Some(counter)) = (all.as_object(), counter.as_object()) else { return Ok(Value::UNDEFINED) };
    let remaining = match &mut vm.heap.obj_mut(counter).class {
        crate::heap::object::Class::Internal(v) => {
            let n = v.first().and_then(|x| x.as_int()).unwrap_or(1) - 1;
            if let Some(x) = v.first_mut() {
                *x = Value::int(n);
            }
            n
        }
        _ => 0,
    };
    if remaining == 0 {
        resolve_promise(vm, all, Value::UNDEFINED)?;
    }
    Ok(Value::UNDEFINED)
}

/// `%DynamicImport.fulfilled`: resolve the import with the module's namespace.
pub(crate) fn fulfilled_native(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let (p, module, deferred) = (capture(vm, 0), capture_module(vm, 1), capture(vm, 2));
    let (Some(promise), Some(module)) = (p.as_object(), module) else { return Ok(Value::UNDEFINED) };
    fulfilled_native_with(vm, promise, module, deferred == Value::TRUE)
}

fn fulfilled_native_with(vm: &mut Vm, promise: ObjectId, module: ModuleId, deferred: bool) -> JsResult<Value> {
    let ns = if deferred { link::get_deferred_namespace(vm, module) } else { link::get_namespace(vm, module) };
    resolve_promise(vm, promise, Value::object(ns))?;
    Ok(Value::UNDEFINED)
}

/// `%DynamicImport.rejected`: reject the import with the reason.
pub(crate) fn rejected_native(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    if let Some(promise) = capture(vm, 0).as_object() {
        reject_promise(vm, promise, args.first().copied().unwrap_or_default());
    }
    Ok(Value::UNDEFINED)
}

/// `import.meta`: one object per module, with a null prototype, created on first use.
/// HostGetImportMetaProperties: a module whose resolved name is an absolute path (the
/// embedders' file modules) gets Node's `dirname`, `filename` and `url`.
pub fn import_meta(vm: &mut Vm, code: CodeId) -> Value {
    let source_id = vm.heap.code(code).source_id;
    let Some(m) = vm.modules.by_source(source_id) else {
        return Value::object(vm.heap.new_plain(None));
    };
    if let Some(meta) = record(vm, m).meta {
        return Value::object(meta);
    }
    let meta = vm.heap.new_plain(None);
    record_mut(vm, m).meta = Some(meta);
    let name = record(vm, m).name.clone();
    if name.starts_with('/') {
        let dirname = match name.rfind('/') {
            Some(0) | None => "/".to_string(),
            Some(i) => name[..i].to_string(),
        };
        for (key, value) in [("dirname", dirname), ("filename", name.clone()), ("url", file_url(&name))] {
            let v = vm.str(&value);
            let key = vm.key(key);
            vm.define_builtin(meta, key, v, crate::heap::shape::PropFlags::DEFAULT);
        }
    }
    Value::object(meta)
}

/// `file://` URL of an absolute path, percent-encoded as Node's `pathToFileURL`.
fn file_url(path: &str) -> String {
    let mut url = String::from("file://");
    for b in path.bytes() {
        let keep =
            b.is_ascii_graphic() && !matches!(b, b'"' | b'#' | b'%' | b'<' | b'>' | b'?' | b'`' | b'{' | b'}' | b'\\');
        if keep {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}
