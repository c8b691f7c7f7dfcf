//! The network as captured host operations (DESIGN §7, docs/journal-format.md "Network").
//!
//! `fetch` and the `node:http`/`https` clients (JavaScript in `amber-node`) reach the host
//! through three natives on the hidden [`BINDING`] object:
//!
//! - `request(spec, body)` journals an `http` intent named [`FETCH`] (method, URL, headers,
//!   body inline or as a blob hash) and returns its seq and the promise of the response head;
//! - `read(seq, offset)` journals an `http` intent named [`READ`] and returns the promise of
//!   the next body bytes (a Uint8Array), `null` at the end;
//! - `cancel(seq)` completes whatever of that exchange is pending with an abort, at once.
//!
//! Nothing leaves the process inside JS: the runtime reports the operations as pending, the
//! embedder commits the journal (intent before effect), then [`Net::serve`] starts the
//! exchanges on a [`HttpTransport`] and turns their events into completions. Each read
//! delivers what has arrived (up to [`READ_MAX`] bytes), so a streamed response is journaled
//! chunk by chunk as the program consumes it, and replay yields the same chunks in the same
//! order without a socket. While it waits, the logical clock follows the wall clock: when a
//! timer falls due first (an `AbortSignal.timeout`), a `clock` record ([`WAIT`]) moves the
//! clock to it, which replay applies at the same point.
//!
//! After a crash, an exchange whose intent is journaled but whose completion is not is sent
//! again with the same `Idempotency-Key` (`session:run:seq`); a body read that lost its
//! connection re-sends the request and skips the bytes already delivered.

mod policy;
mod transport;

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use amber_durable::digest::{from_hex32, Digest};
use amber_durable::journal::{CallResult, OpKind, RecordDraft};
use amber_engine::builtins::promise::{reject_promise, resolve_promise};
use amber_engine::error::{ErrorKind, JsResult};
use amber_engine::vm::HostOp;
use amber_engine::{HostFn, Value, Vm};
use amber_node::modules::buffer::{base64_decode, base64_encode, new_uint8_array, view_bytes};
use serde_json::{json, Value as Json};

pub use policy::{NetAllow, NetPolicy};
pub(crate) use transport::HandlerTransport;
pub use transport::{
    HttpHandler, HttpHead, HttpRequest, HttpResponse, HttpTransport, NetEvent, NetFailure, NetSender, Redirect,
    TransportConfig, UreqTransport,
};

use crate::blobs::INLINE_MAX;
use crate::bridge::{current_location, error_from_text, issue};
use crate::error::{Error, Result};
use crate::event_loop::{Core, Delivery};
use crate::json::{from_json, to_json};
use crate::recorder::with_active;
use crate::secrets::{redact_text, reveal_parts};

/// The host value holding the natives (found by `node:internal/fetch`).
pub const BINDING: &str = amber_node::modules::http::NET_BINDING;
/// The operation name of a request (its completion is the response head).
pub const FETCH: &str = "fetch";
/// The operation name of a body read.
pub const READ: &str = "fetch.read";
/// The `clock` record source for a jump of the logical clock while waiting on the network.
pub const WAIT: &str = "net.wait";
/// The most bytes one read delivers.
pub const READ_MAX: usize = 1 << 20;

const NATIVES: &[(&str, u32, HostFn)] = &[
    ("amber.net.request", 2, net_request),
    ("amber.net.read", 2, net_read),
    ("amber.net.cancel", 1, net_cancel),
    ("amber.net.gate", 3, crate::first_use::gate),
];

/// Defines the binding on a fresh VM.
pub(crate) fn install(vm: &mut Vm) {
    let binding = vm.new_object();
    for (name, length, f) in NATIVES {
        vm.define_host_function(binding, name, *length, *f);
    }
    vm.set_host_value(BINDING, binding);
}

/// Re-binds the natives after restore.
pub(crate) fn register(vm: &mut Vm) {
    for (name, _, f) in NATIVES {
        vm.register_host_function(name, *f);
    }
}

// ---- natives (run inside JS, with the recorder active)

/// `request({method, url, protocol, hostname, port, headers, redirect, decode}, body)` →
/// `{seq, response}`: the exchange's seq (undefined when the request was rejected before it
/// was journaled) and the Promise of its head (`{seq, status, statusText, headers, url,
/// redirected}` or `{seq, error: {code, message}}`).
/// A host the policy does not allow throws an Error with code `ERR_AMBER_NET_DENIED`, before
/// anything is journaled.
fn net_request(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    if with_active(|r| r.step_depth > 0).unwrap_or(false) {
        return Err(vm.type_error("the network cannot be used inside amber.step: a step must be a pure computation"));
    }
    if with_active(|r| r.sealed).unwrap_or(false) {
        return Err(vm.type_error("the network cannot be used in amber eval: effects are refused on the copy"));
    }
    let spec = to_json(vm, args.first().copied().unwrap_or(Value::UNDEFINED), "the request")?;
    let text = |key: &str| spec[key].as_str().unwrap_or("").to_string();
    let (method, url, hostname, redirect) = (text("method"), text("url"), text("hostname"), text("redirect"));
    let port = match &spec["port"] {
        Json::Number(n) => n.as_u64().and_then(|p| u16::try_from(p).ok()),
        Json::String(s) if !s.is_empty() => s.parse().ok(),
        _ => match text("protocol").as_str() {
            "https:" => Some(443),
            "http:" => Some(80),
            _ => None,
        },
    };
    let Some(port) = port else { return Err(vm.type_error(format!("fetch: no port for {url}"))) };
    let host = hostname.to_ascii_lowercase();
    let allowed = with_active(|r| r.net_policy.allows(&host, port)).unwrap_or(false);
    if !allowed {
        let message = format!(
            "network access to {host}:{port} is not allowed (run with --allow-net {host}:{port}, or --allow-net {host})"
        );
        let error = vm.make_error(ErrorKind::Error, &message);
        if let Some(o) = error.as_object() {
            let code = vm.str("ERR_AMBER_NET_DENIED");
            vm.set_property(Value::object(o), "code", code);
            let h = vm.str(&host);
            vm.set_property(Value::object(o), "host", h);
        }
        return Err(amber_engine::error::Throw::Value(error));
    }
    // A host whose first use waits for approval is reached only through the gate.
    if crate::first_use::net_awaits_approval(vm, &host) {
        let error = crate::first_use::net_approval_required(vm, &host);
        return Err(amber_engine::error::Throw::Value(error));
    }
    let body = match args.get(1).copied() {
        Some(v) if !v.is_undefined() && !v.is_null() => match view_bytes(vm, v) {
            Some(bytes) => Some(bytes.into_owned()),
            None => return Err(vm.type_error("fetch: the request body must be a Uint8Array")),
        },
        _ => None,
    };
    let secrets = with_active(|r| r.secrets.clone()).unwrap_or_default();
    let redacted = body.as_deref().and_then(|b| std::str::from_utf8(b).ok()).and_then(|t| redact_text(&secrets, t));
    let body = match body {
        None => Json::Null,
        // A body that holds a secret's value is journaled with the value cut out.
        Some(_) if redacted.is_some() => json!({ "parts": redacted }),
        Some(bytes) => {
            if bytes.len() <= INLINE_MAX {
                json!({ "data": base64_encode(&bytes, false) })
            } else {
                let digest = with_active(|r| r.blobs.put(&bytes)).unwrap_or_else(|| Digest::of(&bytes));
                json!({ "blob": digest.to_string(), "size": bytes.len() })
            }
        }
    };
    // A header value that holds a secret's value is journaled as parts (see crate::secrets).
    let headers = match &spec["headers"] {
        Json::Array(pairs) => Json::Array(
            pairs
                .iter()
                .map(|pair| match (pair.get(0), pair.get(1).and_then(Json::as_str)) {
                    (Some(name), Some(value)) => match redact_text(&secrets, value) {
                        Some(parts) => json!([name, parts]),
                        None => pair.clone(),
                    },
                    _ => pair.clone(),
                })
                .collect(),
        ),
        _ => json!([]),
    };
    // A URL that holds a secret's value (an API key in the query) is journaled as parts too.
    let url = match redact_text(&secrets, &url) {
        Some(parts) => parts,
        None => Json::String(url),
    };
    let record_args = json!({
        "method": method,
        "url": url,
        "headers": headers,
        "body": body,
        "redirect": if redirect.is_empty() { "follow".to_string() } else { redirect },
        "decode": spec["decode"].as_bool().unwrap_or(false),
    });
    let before = vm.host_ops.len();
    let promise = issue(vm, OpKind::Http, FETCH.to_string(), record_args.clone(), None)?;
    let mut seq = Value::UNDEFINED;
    if vm.host_ops.len() > before {
        if let Some(op) = vm.host_ops.last() {
            let intent = op.seq;
            seq = Value::number(intent as f64);
            with_active(|r| r.net_requests.insert(intent, record_args));
        }
    }
    let mark = vm.roots.len();
    vm.roots.push(promise);
    let out = vm.new_object();
    vm.set_property(out, "seq", seq);
    vm.set_property(out, "response", promise);
    vm.roots.truncate(mark);
    Ok(out)
}

/// `read(seq, offset)` → Promise of the next bytes of the response to request `seq`
/// (`offset` bytes were delivered before), `null` at the end, or `{error}`.
fn net_read(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let seq = number_arg(args, 0);
    let offset = number_arg(args, 1);
    issue(vm, OpKind::Http, READ.to_string(), json!({ "request": seq, "offset": offset }), None)
}

/// `cancel(seq)`: the program gave up on exchange `seq` (an abort, a cancelled body). Its
/// pending operations complete now with an `AbortError` result, journaled (replay completes
/// them at the same point), and the transport stops.
fn net_cancel(vm: &mut Vm, _this: Value, args: &[Value]) -> JsResult<Value> {
    let seq = number_arg(args, 0);
    let mut ops: Vec<HostOp> = vm
        .host_ops
        .iter()
        .filter(|op| op.kind == OpKind::Http.name() && exchange_of(op) == Some(seq))
        .cloned()
        .collect();
    ops.sort_by_key(|op| op.id);
    let location = current_location(vm);
    let result = CallResult::Ok(json!({ "error": { "code": "ABORT_ERR", "message": "the request was aborted" } }));
    for op in ops {
        let clock = vm.clock_ms;
        let recorded = with_active(|r| {
            let issued = r.op_issue.remove(&op.id).unwrap_or(clock);
            let duration = (clock - issued).max(0.0) as u64;
            let draft = RecordDraft::completion(
                OpKind::Http,
                op.seq,
                &op.name,
                result.clone(),
                duration,
                clock.max(0.0) as u64,
            );
            r.record(draft, Some(&location))
        });
        match recorded {
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(crate::bridge::fatal(e)),
            None => return Err(vm.type_error("amber host operations need a running amber Runtime")),
        }
        vm.host_ops.retain(|o| o.id != op.id);
        settle(vm, &op, &result)?;
    }
    with_active(|r| {
        r.net_cancels.push(seq);
        r.net_requests.remove(&seq);
    });
    Ok(Value::UNDEFINED)
}

fn number_arg(args: &[Value], i: usize) -> u64 {
    args.get(i).and_then(|v| v.as_number()).filter(|n| n.is_finite() && *n >= 0.0).map_or(0, |n| n as u64)
}

/// The exchange (request seq) an `http` operation belongs to.
fn exchange_of(op: &HostOp) -> Option<u64> {
    match op.name.as_str() {
        FETCH => Some(op.seq),
        READ => amber_durable::canonical_json::parse(&op.args_json).ok()?["request"].as_u64(),
        _ => None,
    }
}

/// Fulfils an `http` operation's promise with its journaled result: a head becomes an object
/// carrying the exchange's seq, body bytes a Uint8Array (a blob is fetched by hash), the end
/// `null`; `{error}` results are delivered as they are (the JS side makes the TypeError).
pub(crate) fn settle(vm: &mut Vm, op: &HostOp, result: &CallResult) -> JsResult<()> {
    let json = match result {
        CallResult::Err(message) => {
            let reason = error_from_text(vm, message);
            reject_promise(vm, op.promise, reason);
            return Ok(());
        }
        CallResult::Ok(json) => json,
    };
    let finished = json.get("error").is_some() || json.get("done").is_some();
    let value = if op.name == READ {
        if finished {
            if let Some(seq) = exchange_of(op) {
                with_active(|r| r.net_requests.remove(&seq));
            }
        }
        if let Some(data) = json["data"].as_str() {
            let bytes = base64_decode(data.encode_utf16());
            let proto = vm.realm.uint8_array_prototype;
            new_uint8_array(vm, proto, bytes)?
        } else if let Some(hex) = json["blob"].as_str() {
            let digest = from_hex32(hex).map(Digest);
            let bytes = digest.and_then(|d| with_active(|r| r.blobs.get(&d)).flatten());
            let Some(bytes) = bytes else {
                let e = vm
                    .make_error(ErrorKind::Error, &format!("the response body blob {hex} is not in the session store"));
                reject_promise(vm, op.promise, e);
                return Ok(());
            };
            let proto = vm.realm.uint8_array_prototype;
            new_uint8_array(vm, proto, bytes.to_vec())?
        } else if json.get("done").is_some() {
            Value::NULL
        } else {
            from_json(vm, json)?
        }
    } else {
        if finished {
            with_active(|r| r.net_requests.remove(&op.seq));
        }
        let mut json = json.clone();
        if json["url"].is_array() {
            let secrets = with_active(|r| r.secrets.clone()).unwrap_or_default();
            json["url"] = json!(reveal_parts(&secrets, &json["url"]).unwrap_or_default());
        }
        let v = from_json(vm, &json)?;
        if let Some(o) = v.as_object() {
            vm.set_property(Value::object(o), "seq", Value::number(op.seq as f64));
        }
        v
    };
    resolve_promise(vm, op.promise, value)
}

// ---- the runtime side

/// An exchange on the wire.
struct Exchange {
    /// The head arrived (and is waiting to be delivered, unless `head_delivered`).
    head: Option<HttpHead>,
    head_delivered: bool,
    /// Body bytes received and not yet delivered.
    body: VecDeque<u8>,
    /// Bytes of a re-sent response to discard (delivered before the crash).
    skip: u64,
    ended: bool,
    failed: Option<NetFailure>,
    cancel: Arc<AtomicBool>,
}

/// The runtime's network state: the transport, the exchanges in flight, the events channel.
/// None of it rides the image: after a restore, exchanges still pending are sent again.
pub(crate) struct Net {
    /// Made on first use (the default client builds a TLS configuration).
    transport: Option<Box<dyn HttpTransport>>,
    tx: SyncSender<(u64, NetEvent)>,
    rx: Receiver<(u64, NetEvent)>,
    exchanges: BTreeMap<u64, Exchange>,
    /// (logical clock, wall instant) when the current wait began: the logical clock follows
    /// the wall clock while the program waits on the network.
    waiting_since: Option<(f64, Instant)>,
    /// A jump of the logical clock the runtime applies at its next idle point.
    pub clock_jump: Option<f64>,
    /// The session part of idempotency keys.
    pub session: String,
}

impl Net {
    pub fn new(transport: Option<Box<dyn HttpTransport>>, session: String) -> Net {
        let (tx, rx) = sync_channel(256);
        Net { transport, tx, rx, exchanges: BTreeMap::new(), waiting_since: None, clock_jump: None, session }
    }

    /// Whether `vm` waits on an `http` operation.
    pub fn pending(vm: &Vm) -> bool {
        vm.host_ops.iter().any(|op| op.kind == OpKind::Http.name())
    }

    /// Serves the pending `http` operations: starts each exchange not in flight (a durable
    /// embedder has committed the records so far: intent before effect), then queues the completions that are ready, or
    /// waits for the next network event or the next timer, whichever comes first. Returns
    /// whether there is something to resume for.
    pub fn serve(&mut self, core: &mut Core, deliveries: &mut VecDeque<Delivery>, run_id: &str) -> Result<bool> {
        if core.recorder.strict {
            return Err(Error::usage("a strict replay sends no request"));
        }
        for seq in std::mem::take(&mut core.recorder.net_cancels) {
            if let Some(x) = self.exchanges.remove(&seq) {
                x.cancel.store(true, Ordering::Relaxed);
            }
        }
        let mut ops: Vec<HostOp> = core
            .vm
            .host_ops
            .iter()
            .filter(|op| op.kind == OpKind::Http.name() && !deliveries.iter().any(|d| d.id == op.id))
            .cloned()
            .collect();
        if ops.is_empty() {
            return Ok(false);
        }
        ops.sort_by_key(|op| op.id);
        for op in &ops {
            self.start_if_needed(core, op, run_id, deliveries);
        }
        loop {
            while let Ok((seq, event)) = self.rx.try_recv() {
                self.apply(seq, event);
            }
            let now = self.logical_now(core.vm.clock_ms);
            let ready = self.ready(core, &ops, now, deliveries);
            if ready {
                self.waiting_since = None;
                return Ok(true);
            }
            let next_due = next_due(&core.vm);
            let wait = next_due.map(|due| due - now);
            let event = match wait {
                Some(ms) if ms <= 0.0 => Err(RecvTimeoutError::Timeout),
                Some(ms) => self.rx.recv_timeout(Duration::from_millis(ms.ceil() as u64)),
                None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match event {
                Ok((seq, event)) => self.apply(seq, event),
                Err(RecvTimeoutError::Timeout) => {
                    let due = next_due.unwrap_or(now);
                    let draft = RecordDraft::clock(WAIT, json!({ "to": due }), due.max(0.0) as u64);
                    core.recorder.record(draft, None)?;
                    self.clock_jump = Some(due);
                    self.waiting_since = None;
                    return Ok(true);
                }
                // The runtime holds a sender: the channel cannot close.
                Err(RecvTimeoutError::Disconnected) => return Ok(false),
            }
        }
    }

    fn logical_now(&mut self, clock: f64) -> f64 {
        match self.waiting_since {
            Some((at, since)) if at == clock => at + since.elapsed().as_secs_f64() * 1000.0,
            _ => {
                self.waiting_since = Some((clock, Instant::now()));
                clock
            }
        }
    }

    fn start_if_needed(&mut self, core: &mut Core, op: &HostOp, run_id: &str, deliveries: &mut VecDeque<Delivery>) {
        let Some(seq) = exchange_of(op) else { return };
        if self.exchanges.contains_key(&seq) {
            return;
        }
        let reading = op.name == READ;
        let skip = if reading {
            amber_durable::canonical_json::parse(&op.args_json).ok().and_then(|a| a["offset"].as_u64()).unwrap_or(0)
        } else {
            0
        };
        let request = core.recorder.net_requests.get(&seq).cloned();
        let request = match request {
            Some(args) => wire_request(core, seq, &args, &self.session, run_id),
            None => Err(NetFailure::new("ERR_AMBER_NET_STATE", format!("the request at seq {seq} is unknown"))),
        };
        let request = match request {
            Ok(r) => r,
            Err(failure) => {
                deliveries.push_back(Delivery { id: op.id, result: failed(&failure), duration_ms: 0 });
                return;
            }
        };
        let cancel = Arc::new(AtomicBool::new(false));
        self.exchanges.insert(
            seq,
            Exchange {
                head: None,
                // A body read re-sending the request after a restore delivers no head.
                head_delivered: reading,
                body: VecDeque::new(),
                skip,
                ended: false,
                failed: None,
                cancel: cancel.clone(),
            },
        );
        let transport = self.transport.get_or_insert_with(|| Box::new(UreqTransport::new()));
        transport.start(request, NetSender::new(seq, self.tx.clone(), cancel));
    }

    fn apply(&mut self, seq: u64, event: NetEvent) {
        let Some(x) = self.exchanges.get_mut(&seq) else { return };
        match event {
            NetEvent::Head(head) => {
                if !x.head_delivered {
                    x.head = Some(head);
                }
            }
            NetEvent::Data(mut bytes) => {
                let skipped = (x.skip.min(bytes.len() as u64)) as usize;
                x.skip -= skipped as u64;
                bytes.drain(..skipped);
                x.body.extend(bytes);
            }
            NetEvent::End => x.ended = true,
            NetEvent::Failed(failure) => x.failed = Some(failure),
        }
    }

    /// Queues a completion for every operation whose answer has arrived; true if any.
    fn ready(&mut self, core: &mut Core, ops: &[HostOp], now: f64, deliveries: &mut VecDeque<Delivery>) -> bool {
        let mut any = false;
        for op in ops {
            let Some(seq) = exchange_of(op) else { continue };
            let Some(x) = self.exchanges.get_mut(&seq) else { continue };
            let result = if op.name == FETCH {
                if x.head_delivered {
                    continue;
                }
                match (&x.head, &x.failed) {
                    (Some(head), _) => {
                        x.head_delivered = true;
                        CallResult::Ok(json!({
                            "status": head.status,
                            "statusText": head.status_text,
                            "headers": head.headers.iter().map(|(n, v)| json!([n, v])).collect::<Vec<_>>(),
                            "url": redact_text(&core.recorder.secrets, &head.url).unwrap_or_else(|| json!(head.url)),
                            "redirected": head.redirected,
                        }))
                    }
                    (None, Some(failure)) => {
                        let r = failed(failure);
                        self.exchanges.remove(&seq);
                        r
                    }
                    (None, None) => continue,
                }
            } else if !x.body.is_empty() {
                let n = x.body.len().min(READ_MAX);
                let bytes: Vec<u8> = x.body.drain(..n).collect();
                if bytes.len() <= INLINE_MAX {
                    CallResult::Ok(json!({ "data": base64_encode(&bytes, false) }))
                } else {
                    let digest = core.recorder.blobs.put(&bytes);
                    CallResult::Ok(json!({ "blob": digest.to_string(), "size": bytes.len() }))
                }
            } else if let Some(failure) = &x.failed {
                let r = failed(failure);
                self.exchanges.remove(&seq);
                r
            } else if x.ended {
                self.exchanges.remove(&seq);
                CallResult::Ok(json!({ "done": true }))
            } else {
                continue;
            };
            let issued = core.recorder.op_issue.get(&op.id).copied().unwrap_or(now);
            let duration_ms = (now - issued).max(0.0) as u64;
            deliveries.push_back(Delivery { id: op.id, result, duration_ms });
            any = true;
        }
        any
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        for x in self.exchanges.values() {
            x.cancel.store(true, Ordering::Relaxed);
        }
    }
}

fn failed(failure: &NetFailure) -> CallResult {
    CallResult::Ok(json!({ "error": { "code": failure.code, "message": failure.message } }))
}

/// The earliest timer or durable sleep due (logical ms).
fn next_due(vm: &Vm) -> Option<f64> {
    let timer = amber_node::timers::next_due(vm).map(|(due, _)| due);
    let sleep =
        vm.host_ops.iter().filter(|op| op.kind == OpKind::Sleep.name()).filter_map(|op| op.due_ms).reduce(f64::min);
    match (timer, sleep) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The request journaled as `args`, ready to send: the body back from its record or blob,
/// and an `Idempotency-Key` unless the program set one.
fn wire_request(
    core: &mut Core,
    seq: u64,
    args: &Json,
    session: &str,
    run_id: &str,
) -> std::result::Result<HttpRequest, NetFailure> {
    let text = |key: &str| args[key].as_str().unwrap_or("").to_string();
    let secrets = core.recorder.secrets.clone();
    let mut headers = Vec::new();
    for pair in args["headers"].as_array().map(Vec::as_slice).unwrap_or_default() {
        let (Some(name), Some(value)) = (pair.get(0).and_then(Json::as_str), pair.get(1)) else { continue };
        let value = reveal_parts(&secrets, value).map_err(|e| NetFailure::new("ERR_AMBER_SECRET", e))?;
        headers.push((name.to_string(), value));
    }
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("idempotency-key")) {
        headers.push(("idempotency-key".into(), crate::idempotency_key(session, run_id, seq)));
    }
    let body = &args["body"];
    let body: Option<Arc<[u8]>> = if body.get("parts").is_some() {
        let text = reveal_parts(&secrets, &body["parts"]).map_err(|e| NetFailure::new("ERR_AMBER_SECRET", e))?;
        Some(Arc::from(text.into_bytes()))
    } else if let Some(data) = body["data"].as_str() {
        Some(Arc::from(base64_decode(data.encode_utf16())))
    } else if let Some(hex) = body["blob"].as_str() {
        let digest = from_hex32(hex).map(Digest);
        match digest.and_then(|d| core.recorder.blobs.get(&d)) {
            Some(bytes) => Some(bytes),
            None => {
                return Err(NetFailure::new(
                    "ERR_AMBER_NET_STATE",
                    format!("the request body blob {hex} is not in the session store"),
                ))
            }
        }
    } else {
        None
    };
    let decode = args["decode"].as_bool().unwrap_or(false);
    if decode && !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("accept-encoding")) {
        headers.push(("accept-encoding".into(), "gzip, deflate, br".into()));
    }
    let url = reveal_parts(&secrets, &args["url"]).map_err(|e| NetFailure::new("ERR_AMBER_SECRET", e))?;
    Ok(HttpRequest {
        seq,
        method: text("method"),
        url,
        headers,
        body,
        redirect: Redirect::parse(&text("redirect")),
        decode,
    })
}
