//! The event loop's moving parts (DESIGN §6): microtask checkpoints, the timers phase, the
//! check phase (immediates), advancing the logical clock, and settling host operations.
//!
//! Order, as in Node: after every macrotask (a timer, an immediate, a settled host
//! operation) the microtask queue is drained. The timers phase runs, in (due, id) order,
//! every timer and every durable sleep due at the current logical time; the check phase runs
//! the immediates queued before it started. Settling a host operation first runs whatever
//! falls due before its completion time (issue time + recorded duration), so a timeout races
//! a host call the same way live and on replay.
//!
//! [`Core`] is the VM plus its recorder; every entry into JS goes through [`Core::js`], which
//! parks the recorder where the `amber.*` natives find it.

use amber_durable::journal::{CallResult, OpKind, RecordDraft};
use amber_engine::builtins::promise::promise_state;
use amber_engine::error::{JsResult, RunError};
use amber_engine::vm::HostOp;
use amber_engine::{Value, Vm};
use amber_node::timers;

use crate::bridge::settle;
use crate::error::{Error, Result};
use crate::recorder::{describe, result_of, Active, Recorder};
use crate::runtime::{ErrorReport, Outcome};

/// What a loop step decided: `Some(outcome)` stops the run with it.
pub(crate) type Step = Result<Option<Outcome>>;

/// The VM and its journal view.
pub(crate) struct Core {
    pub vm: Vm,
    pub recorder: Recorder,
}

/// A host operation's result waiting to be delivered at the next idle point.
#[derive(Clone, Debug)]
pub(crate) struct Delivery {
    pub id: u64,
    pub result: CallResult,
    pub duration_ms: u64,
}

impl Core {
    /// Runs `f` with the recorder active (where the `amber.*` natives find it).
    pub fn js<R>(&mut self, f: impl FnOnce(&mut Vm) -> R) -> R {
        let _active = Active::enter(&mut self.recorder);
        f(&mut self.vm)
    }

    /// Sets the logical clock.
    pub fn set_clock(&mut self, ms: f64) {
        self.vm.clock_ms = ms;
    }

    /// Maps the end of a JS slice: a fatal divergence first, then a throw or a limit.
    pub fn finish_slice(&mut self, r: std::result::Result<(), RunError>) -> Step {
        if let Some(e) = self.recorder.fatal.take() {
            return Err(e);
        }
        if let Some(code) = amber_node::modules::process::exit_requested(&self.vm) {
            return Ok(Some(Outcome::Exited(code)));
        }
        match r {
            Ok(()) => Ok(None),
            Err(RunError::Limit(l)) => Err(Error::Limit(l)),
            Err(RunError::Syntax(s)) => Ok(Some(Outcome::Threw(ErrorReport::syntax(&s)))),
            Err(RunError::Threw { value, .. }) => {
                Ok(Some(Outcome::Threw(ErrorReport::thrown(&mut self.vm, value, false))))
            }
        }
    }

    /// A JS-level result of a call made from Rust, as a slice end.
    fn finish_call(&mut self, r: JsResult<()>) -> Step {
        let r = r.map_err(|t| self.vm.run_error(t));
        self.vm.stack.clear();
        self.vm.frames.clear();
        self.finish_slice(r)
    }

    /// Microtask checkpoint: drain `process.nextTick` callbacks and the job queue (Node's
    /// order), then report an unhandled rejection (Node exits).
    pub fn microtasks(&mut self) -> Step {
        let r = self.js(amber_node::modules::process::run_microtasks);
        if let Some(outcome) = self.finish_slice(r)? {
            return Ok(Some(outcome));
        }
        if let Some(&promise) = self.vm.pending_rejections.first() {
            let reason = promise.as_object().and_then(|p| promise_state(&self.vm, p)).map_or(promise, |(_, r)| r);
            return Ok(Some(Outcome::Threw(ErrorReport::thrown(&mut self.vm, reason, true))));
        }
        Ok(None)
    }

    /// The loop ran dry: `process` emits `beforeExit` (`exiting` false) or `exit` (true),
    /// then a microtask checkpoint.
    pub fn process_idle(&mut self, exiting: bool) -> Step {
        let r = self.js(|vm| amber_node::modules::process::idle(vm, exiting));
        if let Some(outcome) = self.finish_call(r)? {
            return Ok(Some(outcome));
        }
        self.microtasks()
    }

    /// The earliest durable sleep due at or before `limit`: (due, op id).
    fn due_sleep(&self, limit: f64) -> Option<(f64, u64)> {
        self.vm
            .host_ops
            .iter()
            .filter(|op| op.kind == OpKind::Sleep.name())
            .filter_map(|op| op.due_ms.map(|due| (due, op.id)))
            .filter(|(due, _)| *due <= limit)
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
    }

    /// The earliest timer or sleep due at or before `limit`.
    fn next_event(&self, limit: f64) -> Option<f64> {
        let timer = timers::next_due(&self.vm).map(|(due, _)| due).filter(|due| *due <= limit);
        let sleep = self.due_sleep(limit).map(|(due, _)| due);
        match (timer, sleep) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Timers phase: every timer and sleep due now, in (due, id) order (timers first at equal
    /// due), each followed by a microtask checkpoint. Returns whether anything ran.
    pub fn timers_phase(&mut self) -> Result<(bool, Option<Outcome>)> {
        let now = self.vm.clock_ms;
        let mut ran = false;
        loop {
            let timer = timers::next_due(&self.vm).filter(|(due, _)| *due <= now);
            let sleep = self.due_sleep(now);
            let outcome = match (timer, sleep) {
                (Some((t_due, id)), s) if s.is_none_or(|(s_due, _)| t_due <= s_due) => {
                    let r = self.js(|vm| timers::fire(vm, id).map(drop));
                    self.finish_call(r)?
                }
                (_, Some((_, op_id))) => self.complete_sleep(op_id)?,
                (None, None) => break,
                (Some(_), None) => break,
            };
            ran = true;
            if outcome.is_some() {
                return Ok((ran, outcome));
            }
            if let Some(outcome) = self.microtasks()? {
                return Ok((ran, Some(outcome)));
            }
        }
        Ok((ran, None))
    }

    /// Check phase: the immediates queued when it starts, in order.
    pub fn check_phase(&mut self) -> Result<(bool, Option<Outcome>)> {
        let ids = timers::immediate_ids(&self.vm);
        for &id in &ids {
            let r = self.js(|vm| timers::fire(vm, id).map(drop));
            if let Some(outcome) = self.finish_call(r)? {
                return Ok((true, Some(outcome)));
            }
            if let Some(outcome) = self.microtasks()? {
                return Ok((true, Some(outcome)));
            }
        }
        Ok((!ids.is_empty(), None))
    }

    /// Moves the clock forward to `target`, running every timer and sleep due on the way.
    pub fn advance_to(&mut self, target: f64) -> Step {
        while let Some(due) = self.next_event(target) {
            if due > self.vm.clock_ms {
                self.set_clock(due);
            }
            let (_, outcome) = self.timers_phase()?;
            if outcome.is_some() {
                return Ok(outcome);
            }
            let (_, outcome) = self.check_phase()?;
            if outcome.is_some() {
                return Ok(outcome);
            }
        }
        if target > self.vm.clock_ms {
            self.set_clock(target);
        }
        Ok(None)
    }

    /// A sleep fell due: journal its completion (served on replay) and settle it.
    fn complete_sleep(&mut self, op_id: u64) -> Step {
        let Some(op) = self.vm.host_ops.iter().find(|op| op.id == op_id).cloned() else { return Ok(None) };
        let issue = self.recorder.op_issue.get(&op_id).copied().unwrap_or(self.vm.clock_ms);
        let due = op.due_ms.unwrap_or(issue);
        let duration_ms = (due - issue).max(0.0).ceil() as u64;
        let result = CallResult::Ok(serde_json::Value::Null);
        let draft =
            RecordDraft::completion(OpKind::Sleep, op.seq, &op.name, result.clone(), duration_ms, due.max(0.0) as u64);
        self.recorder.record(draft, Some(&op.location))?;
        self.settle_op(op_id, &result, duration_ms)
    }

    /// Journal a live completion of operation `d.id`, then settle it.
    pub fn deliver_live(&mut self, d: &Delivery) -> Step {
        let Some(op) = self.vm.host_ops.iter().find(|op| op.id == d.id).cloned() else {
            return Err(Error::usage(format!("operation {} is no longer pending", d.id)));
        };
        let issue = self.recorder.op_issue.get(&d.id).copied().unwrap_or(self.vm.clock_ms);
        let timestamp = (issue + d.duration_ms as f64).max(self.vm.clock_ms).max(0.0) as u64;
        let draft = RecordDraft::completion(op_kind(&op), op.seq, &op.name, d.result.clone(), d.duration_ms, timestamp);
        self.recorder.record(draft, None)?;
        self.settle_op(d.id, &d.result, d.duration_ms)
    }

    /// Replay: the next record is a completion; deliver it to the operation it names.
    pub fn deliver_replayed(&mut self) -> Step {
        let Some(record) = self.recorder.take_completion() else { return Ok(None) };
        let op = self.vm.host_ops.iter().find(|op| Some(op.seq) == record.parent_seq && op.name == record.function);
        let Some(op) = op.cloned() else {
            return Err(Error::Divergence {
                seq: record.seq,
                expected: describe(record.kind, &record.function, &record.args),
                actual: format!("nothing of the kind: {}", waiting_on(&self.vm.host_ops)),
                location: None,
            });
        };
        self.settle_op(op.id, &result_of(&record), record.duration_ms)
    }

    /// Remove operation `id`, run what falls due before its completion time, then fulfil or
    /// reject its promise. The caller drains microtasks.
    fn settle_op(&mut self, id: u64, result: &CallResult, duration_ms: u64) -> Step {
        let Some(index) = self.vm.host_ops.iter().position(|op| op.id == id) else { return Ok(None) };
        let op = self.vm.host_ops.remove(index);
        let issue = self.recorder.op_issue.remove(&id).unwrap_or(self.vm.clock_ms);
        let target = issue + duration_ms as f64;
        let mark = self.vm.roots.len();
        self.vm.roots.push(Value::object(op.promise));
        let outcome = if target > self.vm.clock_ms { self.advance_to(target) } else { Ok(None) };
        let settled = match outcome {
            Ok(None) => {
                let r = match op_kind(&op) {
                    OpKind::Http => self.js(|vm| crate::net::settle(vm, &op, result)),
                    OpKind::Approval => self.js(|vm| crate::gate::settle_approval(vm, &op, result)),
                    OpKind::Call => self.js(|vm| match crate::gate::checked_result(&op.name, result) {
                        Some(refused) => settle(vm, op.promise, &refused),
                        None => settle(vm, op.promise, result),
                    }),
                    OpKind::Input | OpKind::Sleep => self.js(|vm| settle(vm, op.promise, result)),
                };
                self.finish_call(r)
            }
            other => other,
        };
        self.vm.roots.truncate(mark);
        settled
    }
}

/// The OpKind of a VM host operation.
pub(crate) fn op_kind(op: &HostOp) -> OpKind {
    OpKind::from_name(&op.kind).unwrap_or(OpKind::Call)
}

/// "waiting on call \"search\" (op 1), input \"Approve?\" (op 2)" for messages.
pub(crate) fn waiting_on(ops: &[HostOp]) -> String {
    if ops.is_empty() {
        return "the program is waiting on no operation".into();
    }
    let list: Vec<String> =
        ops.iter().map(|op| format!("{} {:?} (op {}, seq {})", op.kind, op.name, op.id, op.seq)).collect();
    format!("the program is waiting on {}", list.join(", "))
}
