//! The REPL's side of a [`Runtime`] (`amber repl`): one input evaluated at a time in the same realm.

use super::*;

/// The VM host value holding the promise of the input the REPL awaits.
const REPL_AWAITED: &str = "amber:repl-awaited";

impl Runtime {
    /// REPL (Node's, `amber repl`): evaluate one input in the same realm, as Node's REPL
    /// does ([`amber_node::repl`]: `{a:1}` is an object literal; top-level `await`, with what
    /// its declarations bind kept for later inputs; `require` relative to the working
    /// directory; `_` and `_error`). The first input starts the run. The event loop does not
    /// run: call [`Runtime::resume`] next, then, for [`ReplEval::Awaiting`],
    /// [`Runtime::repl_settled`]. A throw does not end the runtime.
    pub fn repl_eval(&mut self, input: &str, filename: &str) -> Result<ReplEval> {
        self.repl = true;
        if self.state == State::NotStarted {
            self.set_up()?;
            let cwd = self.core.vm.vfs.cwd.clone();
            let installed = self.core.js(|vm| amber_node::repl::install(vm, &cwd));
            if let Err(t) = installed {
                let e = self.core.vm.run_error(t);
                if let Some(outcome) = self.core.finish_slice(Err(e))? {
                    return Err(Error::usage(format!("cannot set up the REPL: {outcome:?}")));
                }
            }
        }
        self.state = State::Running;
        self.core.vm.pending_rejections.clear();
        let prepared = amber_node::repl::prepare(input);
        let r = self.core.js(|vm| vm.eval_script(&prepared.code, filename));
        // What the input wrote without a newline shows before its value, as in Node.
        self.flush_partial_lines(false);
        let shown = match r {
            Ok(value) if prepared.awaited => {
                // The REPL reports its rejection: it is not an unhandled one.
                if let Some(object) = value.as_object() {
                    if let Class::Promise(data) = &mut self.core.vm.heap.obj_mut(object).class {
                        data.is_handled = true;
                    }
                }
                self.core.vm.set_host_value(REPL_AWAITED, value);
                Ok(ReplEval::Awaiting)
            }
            Ok(value) => self.repl_value(value).map(ReplEval::Value),
            Err(e) => self.repl_threw(e),
        };
        self.core.vm.stack.clear();
        self.core.vm.frames.clear();
        shown
    }

    /// After [`ReplEval::Awaiting`] and a [`Runtime::resume`]: the awaited input's value (or
    /// what it threw) once it has settled, None while it waits (on the operations `resume`
    /// reported). It is reported once.
    pub fn repl_settled(&mut self) -> Result<Option<ReplEval>> {
        let Some(promise) = self.core.vm.host_value(REPL_AWAITED) else { return Ok(None) };
        let Some(object) = promise.as_object() else { return Ok(None) };
        let (state, result) = match &self.core.vm.heap.obj(object).class {
            Class::Promise(data) => (data.state, data.result),
            _ => return Ok(None),
        };
        let settled = match state {
            PromiseState::Pending => return Ok(None),
            PromiseState::Fulfilled => self.repl_value(result).map(ReplEval::Value),
            PromiseState::Rejected => {
                let thrown = self.core.js(|vm| amber_node::repl::threw(vm, result));
                let report = ErrorReport::thrown(&mut self.core.vm, result, false);
                thrown.map(|()| ReplEval::Threw(report)).or_else(|t| {
                    let e = self.core.vm.run_error(t);
                    self.repl_threw(e)
                })
            }
        };
        self.repl_stop_waiting();
        self.core.vm.stack.clear();
        self.core.vm.frames.clear();
        settled.map(Some)
    }

    /// The REPL stops waiting for an awaited input (`.break`): it still runs, but its value
    /// is not reported.
    pub fn repl_stop_waiting(&mut self) {
        self.core.vm.host_values.retain(|(name, _)| name != REPL_AWAITED);
    }

    /// An unhandled rejection in the REPL is reported as Node's REPL reports it (`Uncaught
    /// Error: …`), its reason becomes `_error`, and the REPL goes on.
    pub(super) fn repl_unhandled(&mut self, outcome: &mut Outcome) {
        let Outcome::Threw(report) = outcome else { return };
        let Some(&promise) = self.core.vm.pending_rejections.first() else { return };
        report.in_promise = false;
        self.core.vm.pending_rejections.clear();
        let reason = match promise.as_object().map(|p| &self.core.vm.heap.obj(p).class) {
            Some(Class::Promise(data)) => data.result,
            _ => return,
        };
        self.core.vm.roots.push(reason);
        let _ = self.core.js(|vm| amber_node::repl::threw(vm, reason));
        self.core.vm.roots.pop();
        self.core.vm.stack.clear();
        self.core.vm.frames.clear();
    }

    /// `_` = `value`; `value` as Node's REPL shows it.
    fn repl_value(&mut self, value: Value) -> Result<String> {
        self.core.vm.roots.push(value);
        let r = self.core.js(|vm| amber_node::repl::completed(vm, value));
        self.core.vm.roots.pop();
        if let Err(t) = r {
            let e = self.core.vm.run_error(t);
            return match self.repl_threw(e)? {
                ReplEval::Threw(report) => Err(Error::usage(format!("{report}"))),
                _ => Err(Error::usage("the REPL's `_` could not be set")),
            };
        }
        Ok(match value.as_string() {
            Some(s) => {
                let text = self.core.vm.heap.flat(s).to_rust_string();
                amber_node::inspect::quote(&text)
            }
            None => self.core.js(|vm| amber_node::inspect::inspect(vm, value)),
        })
    }

    /// `_error` = the thrown value, and its report; or how the input ended the program.
    fn repl_threw(&mut self, e: amber_engine::error::RunError) -> Result<ReplEval> {
        if let amber_engine::error::RunError::Threw { value, .. } = &e {
            let value = *value;
            self.core.vm.roots.push(value);
            let _ = self.core.js(|vm| amber_node::repl::threw(vm, value));
            self.core.vm.roots.pop();
        }
        Ok(match self.core.finish_slice(Err(e))? {
            Some(Outcome::Threw(report)) => ReplEval::Threw(report),
            Some(outcome) => ReplEval::Ended(outcome),
            None => ReplEval::Value(String::new()),
        })
    }
}
