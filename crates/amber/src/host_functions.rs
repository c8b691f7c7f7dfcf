//! In-process host functions ([`crate::RuntimeBuilder::host_function`]): each one is owned by
//! a thread of its own, so a call can be given up on. A call still running after its limit
//! (the program manifest's `timeout_ms` for the function, else the builder's
//! [`crate::RuntimeBuilder::host_timeout`]) rejects with an `Error` saying it timed out, its
//! failure code (for the manifest's `retry_on`) `timeout`, as a `--host` command's does; the handler cannot be stopped (Rust threads are not killable), so
//! its thread stays busy and the function's later calls queue behind it and time out too until
//! it returns — its late answer is then dropped, never delivered to a later call.
//!
//! The calls one idle point hands over run concurrently across functions; one function's calls
//! run one after another (a handler is `FnMut`). Outcomes come back in operation order, so the
//! journal is the same whatever order they finish in. A handler that panics fails its call with
//! a message saying so; the runtime goes on.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use amber_durable::canonical_json::check_depth;
use amber_durable::image::PendingOp;
use amber_durable::journal::{Attempt, CallResult};

use crate::grants::SharedGrants;

/// Serves `amber.call` operations of one name: gets the pending operation (its args and
/// idempotency seq), returns the JSON result or an error message (which rejects the call).
/// An error of the form `"Error [CODE]: …"` is classified by CODE (the manifest's `retry_on`,
/// and `err.code` in the program). `Send`: it runs on a thread of its own.
pub type HostHandler = Box<dyn FnMut(&PendingOp) -> Result<serde_json::Value, String> + Send>;

/// What serving one operation came to: its outcome, its duration (ms, attempts and backoffs
/// included), and each failed attempt before the last (to journal).
pub struct Served {
    pub result: CallResult,
    pub duration_ms: u64,
    pub attempts: Vec<Attempt>,
}

/// The registered functions, each started on its own thread at its first call.
pub struct HostFunctions {
    functions: Vec<Function>,
    default_timeout: Option<Duration>,
    answers: (Sender<Answer>, Receiver<Answer>),
    /// Numbers requests, so a late answer to a call already given up on is recognised.
    next_ticket: u64,
}

struct Function {
    name: String,
    state: FunctionState,
}

enum FunctionState {
    NotStarted(HostHandler),
    Running(Sender<Request>),
    /// Its thread could not be started; every call fails with this.
    Failed(String),
}

struct Request {
    ticket: u64,
    op: PendingOp,
}

struct Answer {
    ticket: u64,
    result: Result<serde_json::Value, String>,
}

/// One operation being served: which function, which attempt, what is in flight.
struct Call<'a> {
    op: &'a PendingOp,
    function: usize,
    timeout: Option<Duration>,
    retry: Option<crate::grants::RetryPolicy>,
    started: Instant,
    attempt: u32,
    attempt_started: Instant,
    attempts: Vec<Attempt>,
    /// The ticket of the request in flight and when it is given up on.
    in_flight: Option<(u64, Option<Instant>)>,
    /// A retry waits until then.
    not_before: Option<Instant>,
    done: Option<Served>,
}

impl Default for HostFunctions {
    fn default() -> Self {
        HostFunctions { functions: Vec::new(), default_timeout: None, answers: channel(), next_ticket: 0 }
    }
}

impl HostFunctions {
    pub fn add(&mut self, name: &str, handler: HostHandler) {
        self.functions.retain(|f| f.name != name);
        self.functions.push(Function { name: name.to_string(), state: FunctionState::NotStarted(handler) });
    }

    /// The limit on one attempt of a function the manifest gives no `timeout_ms`.
    pub fn set_default_timeout(&mut self, limit: Option<Duration>) {
        self.default_timeout = limit;
    }

    pub fn serves(&self, name: &str) -> bool {
        self.functions.iter().any(|f| f.name == name)
    }

    /// Serves `ops` (calls this has functions for) under the manifest's `timeout_ms` and
    /// `retry`; returns each outcome in the order given.
    pub fn serve(&mut self, ops: &[PendingOp], grants: Option<&SharedGrants>) -> Vec<Served> {
        let mut calls: Vec<Call> = ops
            .iter()
            .map(|op| {
                let grant = grants.and_then(|g| g.grant(&op.name));
                let now = Instant::now();
                Call {
                    op,
                    function: self.functions.iter().position(|f| f.name == op.name).unwrap_or(usize::MAX),
                    timeout: grant.and_then(|g| g.timeout_ms).map(Duration::from_millis).or(self.default_timeout),
                    retry: grant.and_then(|g| g.retry.clone()),
                    started: now,
                    attempt: 1,
                    attempt_started: now,
                    attempts: Vec::new(),
                    in_flight: None,
                    not_before: None,
                    done: None,
                }
            })
            .collect();
        loop {
            self.dispatch(&mut calls);
            let now = Instant::now();
            if calls.iter().all(|c| c.done.is_some()) {
                break;
            }
            // A call in flight wakes this at its deadline; a retry waiting for its backoff, when
            // the backoff ends — unless its function is busy, whose answer wakes this anyway.
            let busy = |function: usize| calls.iter().any(|c| c.function == function && c.in_flight.is_some());
            let wake = calls
                .iter()
                .filter(|c| c.done.is_none())
                .filter_map(|c| match c.in_flight {
                    Some((_, deadline)) => deadline,
                    None if busy(c.function) => None,
                    None => c.not_before,
                })
                .min();
            let answer = match wake {
                Some(at) => match self.answers.1.recv_timeout(at.saturating_duration_since(now)) {
                    Ok(answer) => Some(answer),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => unreachable!("this holds a sender"),
                },
                None => self.answers.1.recv().ok(),
            };
            if let Some(Answer { ticket, result }) = answer {
                // A ticket no call waits on answers a call given up on: dropped.
                if let Some(call) = calls.iter_mut().find(|c| c.in_flight.is_some_and(|(t, _)| t == ticket)) {
                    call.in_flight = None;
                    let outcome = match result {
                        Ok(value) => match check_depth(&value, &format!("result of operation {}", call.op.id)) {
                            Ok(()) => CallResult::Ok(value),
                            Err(e) => CallResult::Err(e.to_string()),
                        },
                        Err(message) => CallResult::Err(message),
                    };
                    let code = match &outcome {
                        CallResult::Err(message) => crate::runtime::error_code(message),
                        CallResult::Ok(_) => None,
                    };
                    call.finish_attempt(outcome, code);
                }
            }
            let now = Instant::now();
            for call in calls.iter_mut().filter(|c| c.done.is_none()) {
                if let Some((_, Some(deadline))) = call.in_flight {
                    if deadline <= now {
                        call.in_flight = None;
                        let limit = call.timeout.unwrap_or_default().as_millis();
                        let message = format!("host function {:?} timed out after {limit} ms", call.op.name);
                        call.finish_attempt(CallResult::Err(message), Some("timeout".to_string()));
                    }
                }
            }
        }
        calls.into_iter().map(|c| c.done.expect("every call is done")).collect()
    }

    /// Sends each function its next call when none of its calls is in flight.
    fn dispatch(&mut self, calls: &mut [Call]) {
        let now = Instant::now();
        for index in 0..calls.len() {
            let call = &calls[index];
            if call.done.is_some() || call.in_flight.is_some() || call.not_before.is_some_and(|t| t > now) {
                continue;
            }
            let function = call.function;
            let busy = calls.iter().any(|c| c.function == function && c.in_flight.is_some());
            if busy {
                continue;
            }
            let call = &mut calls[index];
            let Some(target) = self.functions.get_mut(function) else {
                call.done = Some(Served::failed(format!("no host function is named {:?}", call.op.name)));
                continue;
            };
            let sender = match target.start(&self.answers.0) {
                Ok(sender) => sender,
                Err(message) => {
                    call.done = Some(Served::failed(message));
                    continue;
                }
            };
            let ticket = self.next_ticket;
            self.next_ticket += 1;
            call.attempt_started = now;
            call.not_before = None;
            call.in_flight = Some((ticket, call.timeout.map(|limit| now + limit)));
            if sender.send(Request { ticket, op: call.op.clone() }).is_err() {
                // The thread is gone (only if it could not catch a panic): the function fails.
                let message = format!("host function {:?} stopped", call.op.name);
                target.state = FunctionState::Failed(message.clone());
                call.in_flight = None;
                call.done = Some(Served::failed(message));
            }
        }
    }
}

impl Call<'_> {
    /// Ends the attempt in flight with `outcome` (a failure classified by `code`, for the
    /// manifest's `retry_on`): done, or a retry scheduled after its backoff.
    fn finish_attempt(&mut self, outcome: CallResult, code: Option<String>) {
        let CallResult::Err(error) = &outcome else {
            self.done =
                Some(Served { result: outcome, duration_ms: elapsed_ms(self.started), attempts: self.take_attempts() });
            return;
        };
        let again = self.retry.as_ref().filter(|r| self.attempt < r.max_attempts && r.retries(code.as_deref()));
        let Some(policy) = again else {
            self.done =
                Some(Served { result: outcome, duration_ms: elapsed_ms(self.started), attempts: self.take_attempts() });
            return;
        };
        let backoff_ms = policy.backoff_after(self.attempt);
        let duration_ms = elapsed_ms(self.attempt_started);
        self.attempts.push(Attempt { number: self.attempt, code, error: error.clone(), duration_ms, backoff_ms });
        self.attempt += 1;
        self.not_before = Some(Instant::now() + Duration::from_millis(backoff_ms));
    }

    fn take_attempts(&mut self) -> Vec<Attempt> {
        std::mem::take(&mut self.attempts)
    }
}

impl Function {
    /// The sender to this function's thread, starting the thread at the first call.
    fn start(&mut self, answers: &Sender<Answer>) -> Result<Sender<Request>, String> {
        let state = std::mem::replace(&mut self.state, FunctionState::Failed(String::new()));
        self.state = match state {
            FunctionState::NotStarted(handler) => match spawn(&self.name, handler, answers.clone()) {
                Ok(sender) => FunctionState::Running(sender),
                Err(e) => FunctionState::Failed(format!("host function {:?} could not start: {e}", self.name)),
            },
            other => other,
        };
        match &self.state {
            FunctionState::Running(sender) => Ok(sender.clone()),
            FunctionState::Failed(message) => Err(message.clone()),
            FunctionState::NotStarted(_) => unreachable!("started above"),
        }
    }
}

/// The function's thread: answers requests until the runtime (the sender) is dropped.
fn spawn(name: &str, mut handler: HostHandler, answers: Sender<Answer>) -> std::io::Result<Sender<Request>> {
    let (requests, inbox) = channel::<Request>();
    let label = name.to_string();
    std::thread::Builder::new().name(format!("amber host {name}")).spawn(move || {
        for Request { ticket, op } in inbox {
            let result = catch_unwind(AssertUnwindSafe(|| handler(&op)))
                .unwrap_or_else(|panic| Err(format!("host function {label:?} panicked: {}", panic_text(&panic))));
            if answers.send(Answer { ticket, result }).is_err() {
                return;
            }
        }
    })?;
    Ok(requests)
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}

impl Served {
    fn failed(message: String) -> Served {
        Served { result: CallResult::Err(message), duration_ms: 0, attempts: Vec::new() }
    }
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests;
