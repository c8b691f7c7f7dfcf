//! Evaluation (§16.2.1.5.3 Evaluate, InnerModuleEvaluation) with top-level await:
//! ExecuteAsyncModule, GatherAvailableAncestors, AsyncModuleExecutionFulfilled and
//! AsyncModuleExecutionRejected (§16.2.1.5.3.2-5).
//!
//! A module body is a closure over the module environment: a plain call for a synchronous
//! body, an async-function call for a body with top-level await (its promise is the
//! capability ExecuteAsyncModule waits on; the `%Module.async*` natives are its reactions).

use crate::builtins::promise::{new_promise, perform_then_internal, reject_promise, resolve_promise};
use crate::error::{JsResult, Throw};
use crate::module::{record, record_mut, ImportPhase, ModuleId, ModuleStatus};
use crate::value::{ObjectId, Value};
use crate::vm::Vm;

/// Evaluate(): returns the promise of the cycle root's [[TopLevelCapability]].
pub fn evaluate(vm: &mut Vm, id: ModuleId) -> JsResult<ObjectId> {
    let mut module = id;
    // 2. If module.[[Status]] is either evaluating-async or evaluated, set module to its cycle root.
    if matches!(record(vm, module).status, ModuleStatus::EvaluatingAsync | ModuleStatus::Evaluated) {
        module = record(vm, module).cycle_root;
    }
    // 3. If module.[[TopLevelCapability]] is not empty, return its promise.
    if let Some(p) = record(vm, module).capability {
        return Ok(p);
    }
    let mut stack = Vec::new();
    let promise = new_promise(vm);
    record_mut(vm, module).capability = Some(promise);
    match inner_evaluate(vm, module, &mut stack, 0) {
        Ok(_) => {
            // 10.b. If module.[[AsyncEvaluation]] is false, resolve the capability now.
            if !record(vm, module).async_evaluation {
                resolve_promise(vm, promise, Value::UNDEFINED)?;
            }
        }
        Err(Throw::Value(e)) => {
            // 9. Every module on the stack is evaluated with this error.
            for m in stack {
                let r = record_mut(vm, m);
                r.status = ModuleStatus::Evaluated;
                r.error = Some(e);
            }
            reject_promise(vm, promise, e);
        }
        Err(t) => return Err(t),
    }
    Ok(promise)
}

/// GatherAsynchronousTransitiveDependencies(module, seen): the modules with top-level await
/// a deferred import of `module` must evaluate eagerly.
pub(crate) fn gather_async_transitive_dependencies(vm: &Vm, id: ModuleId, seen: &mut Vec<ModuleId>) -> Vec<ModuleId> {
    let mut result = Vec::new();
    if seen.contains(&id) {
        return result;
    }
    seen.push(id);
    let r = record(vm, id);
    if r.status == ModuleStatus::Evaluating || is_scc_evaluated(vm, id) {
        return result;
    }
    if r.info.has_tla {
        result.push(id);
        return result;
    }
    for m in r.loaded.clone().into_iter().flatten() {
        for d in gather_async_transitive_dependencies(vm, m, seen) {
            if !result.contains(&d) {
                result.push(d);
            }
        }
    }
    result
}

/// IsModuleSCCEvaluated(module): the module's whole strongly connected component finished
/// (a module's cycle root is itself until its component completes).
fn is_scc_evaluated(vm: &Vm, id: ModuleId) -> bool {
    let root = record(vm, id).cycle_root;
    record(vm, root).status == ModuleStatus::Evaluated
}

/// ReadyForSyncExecution(module, seen): can the module's graph run to completion now,
/// synchronously?
pub(crate) fn ready_for_sync_execution(vm: &Vm, id: ModuleId, seen: &mut Vec<ModuleId>) -> bool {
    if seen.contains(&id) {
        return true;
    }
    seen.push(id);
    if is_scc_evaluated(vm, id) {
        return true;
    }
    let r = record(vm, id);
    if matches!(r.status, ModuleStatus::Evaluating | ModuleStatus::EvaluatingAsync) {
        return false;
    }
    if r.info.has_tla {
        return false;
    }
    r.loaded.clone().into_iter().flatten().all(|m| ready_for_sync_execution(vm, m, seen))
}

/// EvaluateModuleSync(module): Evaluate() must settle at once; a rejection is thrown.
pub(crate) fn evaluate_module_sync(vm: &mut Vm, id: ModuleId) -> JsResult<()> {
    let promise = evaluate(vm, id)?;
    match crate::builtins::promise::promise_state(vm, promise) {
        Some((crate::heap::object::PromiseState::Rejected, reason)) => {
            vm.pending_rejections.retain(|&p| p != Value::object(promise));
            if let crate::heap::object::Class::Promise(d) = &mut vm.heap.obj_mut(promise).class {
                d.is_handled = true;
            }
            Err(Throw::Value(reason))
        }
        Some((crate::heap::object::PromiseState::Fulfilled, _)) => Ok(()),
        _ => Err(vm.type_error("the deferred module did not finish evaluating synchronously")),
    }
}

/// InnerModuleEvaluation(module, stack, index).
fn inner_evaluate(vm: &mut Vm, id: ModuleId, stack: &mut Vec<ModuleId>, mut index: u32) -> JsResult<u32> {
    match record(vm, id).status {
        // 2. Already evaluated (or evaluating asynchronously): its error, if any.
        ModuleStatus::EvaluatingAsync | ModuleStatus::Evaluated => {
            return match record(vm, id).error {
                Some(e) => Err(Throw::Value(e)),
                None => Ok(index),
            };
        }
        // 3. In the current cycle.
        ModuleStatus::Evaluating => return Ok(index),
        ModuleStatus::Linked => {}
        _ => {
            let name = record(vm, id).name.clone();
            return Err(vm.type_error(format!("Module '{name}' is not linked")));
        }
    }
    // 5-10.
    let r = record_mut(vm, id);
    r.status = ModuleStatus::Evaluating;
    r.dfs_index = index;
    r.dfs_ancestor_index = index;
    r.pending_async = 0;
    index += 1;
    // The evaluation list: requested modules in order; for a deferred request only its
    // asynchronous transitive dependencies (import defer); nothing for a source request.
    let mut evaluation_list: Vec<ModuleId> = Vec::new();
    let requests: Vec<(ImportPhase, Option<ModuleId>)> =
        r.info.requests.iter().map(|q| q.phase).zip(r.loaded.iter().copied()).collect();
    for (phase, m) in requests {
        let Some(m) = m else { continue };
        match phase {
            ImportPhase::Evaluation => {
                if !evaluation_list.contains(&m) {
                    evaluation_list.push(m);
                }
            }
            ImportPhase::Defer => {
                for d in gather_async_transitive_dependencies(vm, m, &mut Vec::new()) {
                    if !evaluation_list.contains(&d) {
                        evaluation_list.push(d);
                    }
                }
            }
            ImportPhase::Source => {}
        }
    }
    stack.push(id);
    // 11. The modules of the evaluation list, in order.
    for m in evaluation_list {
        index = inner_evaluate(vm, m, stack, index)?;
        let mut required = m;
        if record(vm, required).status == ModuleStatus::Evaluating {
            let anc = record(vm, required).dfs_ancestor_index;
            let r = record_mut(vm, id);
            r.dfs_ancestor_index = r.dfs_ancestor_index.min(anc);
        } else {
            required = record(vm, required).cycle_root;
            if let Some(e) = record(vm, required).error {
                return Err(Throw::Value(e));
            }
        }
        if record(vm, required).async_evaluation {
            record_mut(vm, id).pending_async += 1;
            record_mut(vm, required).async_parents.push(id);
        }
    }
    // 12-13.
    let (pending, has_tla) = (record(vm, id).pending_async, record(vm, id).info.has_tla);
    if pending > 0 || has_tla {
        vm.modules.async_counter += 1;
        let order = vm.modules.async_counter;
        let r = record_mut(vm, id);
        r.async_evaluation = true;
        r.async_order = order;
        if pending == 0 {
            execute_async_module(vm, id)?;
        }
    } else {
        execute_module(vm, id)?;
    }
    // 16. The root of a strongly connected component finishes the whole component.
    let r = record(vm, id);
    if r.dfs_ancestor_index == r.dfs_index {
        while let Some(m) = stack.pop() {
            let r = record_mut(vm, m);
            r.status = if r.async_evaluation { ModuleStatus::EvaluatingAsync } else { ModuleStatus::Evaluated };
            r.cycle_root = id;
            if m == id {
                break;
            }
        }
    }
    Ok(index)
}

/// Call the module body as a closure over the module environment; returns what the call
/// returns (the async body's promise, for top-level await).
fn call_body(vm: &mut Vm, id: ModuleId) -> JsResult<Value> {
    let r = record(vm, id);
    let (Some(code), env) = (r.code, r.env) else { return Ok(Value::UNDEFINED) };
    let f = crate::interp::ops::instantiate_function(vm, code, Some(env));
    crate::interp::call_closure(vm, f, Value::UNDEFINED, &[], None)
}

/// ExecuteModule() of a synchronous body.
fn execute_module(vm: &mut Vm, id: ModuleId) -> JsResult<()> {
    call_body(vm, id).map(drop)
}

/// ExecuteAsyncModule(module).
fn execute_async_module(vm: &mut Vm, id: ModuleId) -> JsResult<()> {
    let p = call_body(vm, id)?;
    let Some(p) = p.as_object() else { return Ok(()) };
    let on_ful = crate::builtins::make_internal(vm, "%Module.asyncFulfilled", 0, vec![Value::int(id as i32)]);
    let on_rej = crate::builtins::make_internal(vm, "%Module.asyncRejected", 1, vec![Value::int(id as i32)]);
    perform_then_internal(vm, p, Value::object(on_ful), Value::object(on_rej));
    Ok(())
}

/// GatherAvailableAncestors(module, execList).
fn gather_available_ancestors(vm: &mut Vm, id: ModuleId, exec_list: &mut Vec<ModuleId>) {
    let parents = record(vm, id).async_parents.clone();
    for m in parents {
        let root = record(vm, m).cycle_root;
        if !exec_list.contains(&m) && record(vm, root).error.is_none() {
            let r = record_mut(vm, m);
            r.pending_async = r.pending_async.saturating_sub(1);
            if r.pending_async == 0 {
                exec_list.push(m);
                if !r.info.has_tla {
                    gather_available_ancestors(vm, m, exec_list);
                }
            }
        }
    }
}

/// AsyncModuleExecutionFulfilled(module).
fn async_module_fulfilled(vm: &mut Vm, id: ModuleId) -> JsResult<()> {
    if record(vm, id).status == ModuleStatus::Evaluated {
        return Ok(());
    }
    let r = record_mut(vm, id);
    r.async_evaluation = false;
    r.status = ModuleStatus::Evaluated;
    if let Some(p) = r.capability {
        resolve_promise(vm, p, Value::UNDEFINED)?;
    }
    let mut exec_list = Vec::new();
    gather_available_ancestors(vm, id, &mut exec_list);
    exec_list.sort_by_key(|&m| record(vm, m).async_order);
    for m in exec_list {
        if record(vm, m).status == ModuleStatus::Evaluated {
            continue;
        }
        if record(vm, m).info.has_tla {
            execute_async_module(vm, m)?;
            continue;
        }
        match execute_module(vm, m) {
            Ok(()) => {
                let r = record_mut(vm, m);
                r.async_evaluation = false;
                r.status = ModuleStatus::Evaluated;
                if let Some(p) = r.capability {
                    resolve_promise(vm, p, Value::UNDEFINED)?;
                }
            }
            Err(Throw::Value(e)) => async_module_rejected(vm, m, e),
            Err(t) => return Err(t),
        }
    }
    Ok(())
}

/// AsyncModuleExecutionRejected(module, error).
fn async_module_rejected(vm: &mut Vm, id: ModuleId, error: Value) {
    if record(vm, id).status == ModuleStatus::Evaluated {
        return;
    }
    let r = record_mut(vm, id);
    r.error = Some(error);
    r.status = ModuleStatus::Evaluated;
    let (parents, capability) = (r.async_parents.clone(), r.capability);
    // The module's own capability first, then its ancestors (leaf to root).
    if let Some(p) = capability {
        reject_promise(vm, p, error);
    }
    for m in parents {
        async_module_rejected(vm, m, error);
    }
}

fn captured_module(vm: &Vm) -> Option<ModuleId> {
    let id = vm.native_captures().first().and_then(|v| v.as_int())? as ModuleId;
    ((id as usize) < vm.modules.records.len()).then_some(id)
}

/// `%Module.asyncFulfilled`: the async body of the captured module completed.
pub(crate) fn async_fulfilled_native(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    if let Some(id) = captured_module(vm) {
        async_module_fulfilled(vm, id)?;
    }
    Ok(Value::UNDEFINED)
}

/// `%Module.asyncRejected`: the async body of the captured module threw.
pub(crate) fn async_rejected_native(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    if let Some(id) = captured_module(vm) {
        async_module_rejected(vm, id, args.first().copied().unwrap_or_default());
    }
    Ok(Value::UNDEFINED)
}
