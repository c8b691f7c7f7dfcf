//! `$262.agent` (INTERPRETING.md, "Host-Defined Functions"): concurrent agents for the
//! Atomics and SharedArrayBuffer tests, and the event loop that waits on them.
//!
//! Each agent is a VM of its own on a thread of its own. The main agent hands them a
//! SharedArrayBuffer by `broadcast`: each agent gets a buffer of its own over the same shared
//! block, so they share its memory and its waiter lists (`heap/shared_block.rs`). Agents
//! answer through `report`, which the main agent reads with `getReport`.
//!
//! The state is process-wide, because host functions are plain `fn` pointers and a worker
//! runs one execution at a time. Each execution is an epoch: [`finish`] cancels the agents it
//! started and waits a while for their threads, and an agent that outlives that (spinning in
//! JS until its fuel runs out) finds the epoch changed and touches nothing.
//!
//! Time: timers are virtual (DESIGN §6), but while other agents can change things (a
//! waitAsync on memory they hold, or agents still running) the event loop waits for a timer
//! in real time, and wakes early when an agent posts a notification or a report. A host
//! `setTimeout` (the harness polls `getReport` with one) then fires at once: nobody can tell
//! virtual time ran faster.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use amber_engine::agent::AgentSignal;
use amber_engine::builtins::array_buffer;
use amber_engine::heap::shared_block::SharedBlock;
use amber_engine::runtime::call::call;
use amber_engine::{JsResult, RunError, Value, Vm, VmOptions};

/// The agents of the current execution.
struct Agents {
    epoch: u64,
    slots: Vec<Slot>,
    /// The latest broadcast; `generation` counts broadcasts.
    generation: u64,
    broadcast: Option<Broadcast>,
    reports: VecDeque<String>,
    /// The main agent's mailbox, nudged when a report arrives.
    main: Option<AgentSignal>,
    /// The main VM's `setTimeout` timers, which may fire early (see the module notes).
    host_timers: Vec<u64>,
    threads: Vec<JoinHandle<()>>,
}

struct Slot {
    /// Set once the agent's VM exists.
    signal: Option<AgentSignal>,
    /// The last broadcast generation it took.
    taken: u64,
    finished: bool,
}

#[derive(Clone)]
struct Broadcast {
    block: SharedBlock,
    max_byte_length: Option<usize>,
    id: Value,
}

static STATE: Mutex<Agents> = Mutex::new(Agents {
    epoch: 0,
    slots: Vec::new(),
    generation: 0,
    broadcast: None,
    reports: VecDeque::new(),
    main: None,
    host_timers: Vec::new(),
    threads: Vec::new(),
});
static CHANGED: Condvar = Condvar::new();

/// Stack of an agent's thread (as a worker's test thread).
const AGENT_STACK: usize = 16 << 20;
/// How long [`finish`] waits for cancelled agents to stop.
const FINISH_GRACE: Duration = Duration::from_secs(5);
/// How often a waiting loop looks at its conditions again.
const POLL: Duration = Duration::from_millis(20);

const RECEIVER: &str = "test262.agent.receiver";

fn state() -> MutexGuard<'static, Agents> {
    STATE.lock().unwrap_or_else(PoisonError::into_inner)
}

fn wait(guard: MutexGuard<'static, Agents>) -> MutexGuard<'static, Agents> {
    CHANGED.wait_timeout(guard, POLL).unwrap_or_else(PoisonError::into_inner).0
}

/// Milliseconds since the first call in this process (a monotonic clock).
fn monotonic_now() -> f64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

/// Starts an execution: `vm` is its main agent.
pub(super) fn begin(vm: &Vm) {
    let mut s = state();
    s.epoch += 1;
    s.slots.clear();
    s.generation = 0;
    s.broadcast = None;
    s.reports.clear();
    s.main = Some(vm.agent.clone());
    s.host_timers.clear();
}

/// Ends an execution: cancels its agents and waits (a while) for their threads.
pub(super) fn finish() {
    let threads = {
        let mut s = state();
        for slot in &s.slots {
            if let Some(signal) = &slot.signal {
                signal.cancel();
            }
        }
        s.epoch += 1;
        s.main = None;
        s.broadcast = None;
        std::mem::take(&mut s.threads)
    };
    CHANGED.notify_all();
    let deadline = Instant::now() + FINISH_GRACE;
    for t in threads {
        while !t.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        if t.is_finished() {
            let _ = t.join();
        }
    }
}

/// Are agents of this execution still running?
fn agents_running() -> bool {
    state().slots.iter().any(|s| !s.finished)
}

/// The main agent's `$262.agent`.
pub(super) fn install_main(vm: &mut Vm, t262: Value) {
    let agent = vm.new_object();
    vm.define_host_function(agent, "$262.agent.start", 1, host_start);
    vm.define_host_function(agent, "$262.agent.broadcast", 2, host_broadcast);
    vm.define_host_function(agent, "$262.agent.getReport", 0, host_get_report);
    vm.define_host_function(agent, "$262.agent.sleep", 1, host_sleep);
    vm.define_host_function(agent, "$262.agent.monotonicNow", 0, host_monotonic_now);
    vm.set_property(t262, "agent", agent);
}

/// An agent's `$262`: only `agent`, with the agent-side functions.
fn install_agent(vm: &mut Vm) {
    let global = vm.global_object();
    let t262 = vm.new_object();
    let agent = vm.new_object();
    vm.define_host_function(agent, "$262.agent.receiveBroadcast", 1, host_receive_broadcast);
    vm.define_host_function(agent, "$262.agent.report", 1, host_report);
    vm.define_host_function(agent, "$262.agent.sleep", 1, host_sleep);
    vm.define_host_function(agent, "$262.agent.leaving", 0, host_leaving);
    vm.define_host_function(agent, "$262.agent.monotonicNow", 0, host_monotonic_now);
    vm.set_property(t262, "agent", agent);
    vm.set_property(global, "$262", t262);
}

/// `setTimeout(callback, delay)` of the main agent: a virtual timer.
pub(super) fn host_set_timeout(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let callback = args.first().copied().unwrap_or(Value::UNDEFINED);
    if !amber_engine::runtime::call::is_callable(vm, callback) {
        return Err(vm.type_error("setTimeout: the callback is not a function"));
    }
    let delay = match args.get(1) {
        Some(&d) => amber_engine::runtime::convert::to_number(vm, d)?,
        None => 0.0,
    };
    // As in Node, a delay under 1 ms (or not a number) is 1 ms, so a polling loop of
    // `setTimeout(f, 0)` lets virtual time pass.
    let delay = if delay.is_finite() && delay > 1.0 { delay } else { 1.0 };
    let id = vm.next_timer_id;
    vm.next_timer_id += 1;
    let due = vm.clock_ms + delay;
    vm.timers.push(amber_engine::vm::Timer {
        id,
        due,
        callback,
        this: Value::UNDEFINED,
        args: Vec::new(),
        interval: None,
        immediate: false,
    });
    state().host_timers.push(id);
    Ok(Value::number(id as f64))
}

/// `start(source)`: runs `source` in a new agent; returns once the agent is running.
fn host_start(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let source = match args.first() {
        Some(&v) => vm.to_display_string(v),
        None => "undefined".to_string(),
    };
    let limits = (vm.options.max_instructions, vm.options.max_heap_bytes);
    let (epoch, index) = {
        let mut s = state();
        let taken = s.generation;
        s.slots.push(Slot { signal: None, taken, finished: false });
        (s.epoch, s.slots.len() - 1)
    };
    let spawned = std::thread::Builder::new()
        .name(format!("agent-{index}"))
        .stack_size(AGENT_STACK)
        .spawn(move || agent_main(epoch, index, source, limits));
    let handle = match spawned {
        Ok(h) => h,
        Err(e) => {
            if let Some(slot) = state().slots.get_mut(index) {
                slot.finished = true;
            }
            return Err(vm.type_error(format!("$262.agent.start: cannot start a thread: {e}")));
        }
    };
    let mut s = state();
    s.threads.push(handle);
    while s.epoch == epoch && s.slots.get(index).is_some_and(|slot| slot.signal.is_none() && !slot.finished) {
        s = wait(s);
    }
    Ok(Value::UNDEFINED)
}

/// `broadcast(sab, id)`: hands the buffer to every running agent; returns once each has taken
/// it (or finished without asking).
fn host_broadcast(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let buffer = args.first().and_then(|v| v.as_object());
    let Some((buffer, block)) = buffer.and_then(|b| Some((b, array_buffer::shared_block(vm, b)?.clone()))) else {
        return Err(vm.type_error("$262.agent.broadcast: the argument is not a SharedArrayBuffer"));
    };
    // The id is an Int32 or a BigInt; the tests send none. A number crosses as it is.
    let id = args.get(1).copied().filter(|v| v.as_number().is_some()).unwrap_or(Value::UNDEFINED);
    let max_byte_length = array_buffer::max_byte_length(vm, buffer);
    let mut s = state();
    s.generation += 1;
    let generation = s.generation;
    s.broadcast = Some(Broadcast { block, max_byte_length, id });
    CHANGED.notify_all();
    let epoch = s.epoch;
    while s.epoch == epoch && s.slots.iter().any(|slot| !slot.finished && slot.taken < generation) {
        s = wait(s);
    }
    Ok(Value::UNDEFINED)
}

/// `getReport()`: the oldest report not yet read, or null.
fn host_get_report(vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    let report = state().reports.pop_front();
    Ok(match report {
        Some(text) => vm.str(&text),
        None => Value::NULL,
    })
}

/// `sleep(ms)`: blocks this agent's thread.
fn host_sleep(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let ms = match args.first() {
        Some(&v) => amber_engine::runtime::convert::to_number(vm, v)?,
        None => 0.0,
    };
    if ms.is_finite() && ms > 0.0 {
        std::thread::sleep(Duration::from_secs_f64(ms.min(60_000.0) / 1000.0));
    }
    Ok(Value::UNDEFINED)
}

fn host_monotonic_now(_vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::number(monotonic_now()))
}

/// `receiveBroadcast(callback)`: `callback(sab, id)` runs once a broadcast arrives, after the
/// agent's script has finished.
fn host_receive_broadcast(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let callback = args.first().copied().unwrap_or(Value::UNDEFINED);
    vm.set_host_value(RECEIVER, callback);
    Ok(Value::UNDEFINED)
}

/// `report(message)`: queues the message (as a string) for the main agent.
fn host_report(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let text = match args.first() {
        Some(&v) => amber_engine::runtime::convert::to_rust_string(vm, v)?,
        None => "undefined".to_string(),
    };
    let mut s = state();
    if vm.agent.is_cancelled() {
        return Ok(Value::UNDEFINED);
    }
    s.reports.push_back(text);
    if let Some(main) = &s.main {
        main.nudge();
    }
    Ok(Value::UNDEFINED)
}

fn host_leaving(_vm: &mut Vm, _this: Value, _args: &[Value]) -> JsResult<Value> {
    Ok(Value::UNDEFINED)
}

/// An agent's thread: its script, then its broadcast callback and event loop.
fn agent_main(epoch: u64, index: usize, source: String, limits: (Option<u64>, Option<u64>)) {
    let mut vm = Vm::new(VmOptions { max_instructions: limits.0, max_heap_bytes: limits.1, ..VmOptions::default() });
    install_agent(&mut vm);
    {
        let mut s = state();
        if s.epoch != epoch {
            return;
        }
        if let Some(slot) = s.slots.get_mut(index) {
            slot.signal = Some(vm.agent.clone());
        }
        CHANGED.notify_all();
    }
    let outcome = run_agent(&mut vm, epoch, index, &source);
    let mut s = state();
    if s.epoch == epoch {
        if let Err(e) = outcome {
            let text = super::describe(&e);
            drop(s);
            super::printed_push(format!("[agent {index}] {text}"));
            s = state();
        }
        if let Some(slot) = s.slots.get_mut(index) {
            slot.finished = true;
        }
        if let Some(main) = &s.main {
            main.nudge();
        }
    }
    CHANGED.notify_all();
}

fn run_agent(vm: &mut Vm, epoch: u64, index: usize, source: &str) -> Result<(), RunError> {
    vm.eval_script(source, &format!("agent-{index}.js"))?;
    vm.run_jobs()?;
    let Some(receiver) = vm.host_value(RECEIVER) else { return Ok(()) };
    // Wait for a broadcast this agent has not taken.
    let broadcast = {
        let mut s = state();
        loop {
            if s.epoch != epoch || vm.agent.is_cancelled() {
                return Ok(());
            }
            let generation = s.generation;
            let fresh = s.slots.get(index).is_some_and(|slot| slot.taken < generation);
            if let (true, Some(b)) = (fresh, s.broadcast.clone()) {
                if let Some(slot) = s.slots.get_mut(index) {
                    slot.taken = generation;
                }
                CHANGED.notify_all();
                break b;
            }
            s = wait(s);
        }
    };
    let sab = array_buffer::new_shared_array_buffer(vm, broadcast.block, broadcast.max_byte_length);
    let r = call(vm, receiver, Value::UNDEFINED, &[sab, broadcast.id]);
    vm.stack.clear();
    vm.frames.clear();
    r.map_err(|t| vm.run_error(t))?;
    run_event_loop(vm, false)
}

/// Runs jobs, notifications from other agents and timers until nothing is left that could
/// happen (see the module notes on time).
pub(super) fn run_event_loop(vm: &mut Vm, is_main: bool) -> Result<(), RunError> {
    loop {
        vm.run_jobs()?;
        if vm.take_agent_signals()? {
            continue;
        }
        if vm.agent.is_cancelled() {
            return Ok(());
        }
        let others = vm.awaits_other_agents();
        let Some((id, due)) = vm.next_timer() else {
            if !others {
                return Ok(());
            }
            vm.agent.wait_for_post(POLL);
            continue;
        };
        if !(others || is_main && agents_running()) {
            vm.fire_timer(id)?;
            continue;
        }
        let ahead = (due - vm.clock_ms).max(0.0);
        let start = Instant::now();
        let woken = vm.agent.wait_for_post(Duration::from_secs_f64(ahead / 1000.0));
        vm.clock_ms = (vm.clock_ms + start.elapsed().as_secs_f64() * 1000.0).min(due);
        let host_timer = state().host_timers.contains(&id);
        if woken && !host_timer && vm.clock_ms < due {
            continue;
        }
        vm.fire_timer(id)?;
    }
}
