//! Live OpenTelemetry export (`amber serve --otlp URL`, docs/tracing.md): after each slice,
//! the spans its commits closed are sent to an OTLP/HTTP collector, and the session's root
//! span once it has finished. The server's own `tracing` spans that name a session (a slice,
//! its restore and commits) go to the same collector, in that session's trace ([`layer`]).
//!
//! One exporter thread does the sending, so a slow or absent collector never holds a worker:
//! workers only post the session's id on a channel. For each session the thread keeps how
//! many journal records it has exported from (`Selection::Closed`), so every span is sent
//! once; a failed send keeps the cursor and is tried again a little later. The cursor lives
//! in memory: after a restart, a session still running has its earlier spans sent again, with
//! the same ids (the trace is computed from the journal).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use amber_store::Store;
use amber_trace::{HostSpan, Selection, Service, SessionTrace};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::Subscriber;
use tracing_subscriber::layer::Context;
use tracing_subscriber::registry::LookupSpan;

/// What the exporter thread is told.
enum Message {
    /// A slice of this session ended: export what it closed.
    SliceEnded(String),
    /// The server's own spans, closed.
    Host(HostSpan),
}

/// Where [`layer`]'s spans go while an exporter runs (tracing is process-wide, so is this).
static HOST_SPANS: OnceLock<Mutex<Option<Sender<Message>>>> = OnceLock::new();

const SERVICE: Service = Service { name: "amber", version: amber::ENGINE_VERSION };

/// The cursor of a session whose whole trace was sent.
const FINISHED: u64 = u64::MAX;

/// How long a failed export waits before it is tried again.
const RETRY_AFTER: Duration = Duration::from_secs(5);

/// The workers' side: post a session id after its slice.
pub(crate) struct Exporter {
    tx: Mutex<Option<Sender<Message>>>,
}

impl Exporter {
    /// Starts the exporter thread sending to `url`; it ends when [`Exporter::close`] is
    /// called and what was posted before has been tried once.
    pub(crate) fn start(url: String, store: Arc<dyn Store>) -> Result<(Exporter, std::thread::JoinHandle<()>), String> {
        amber_trace::endpoint_url(&url).map_err(|e| format!("--otlp: {e}"))?;
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("amber-otlp".into())
            .spawn(move || ExportLoop::new(url, store).run(&rx))
            .map_err(|e| format!("starting the OTLP exporter: {e}"))?;
        if let Ok(mut host) = HOST_SPANS.get_or_init(|| Mutex::new(None)).lock() {
            *host = Some(tx.clone());
        }
        Ok((Exporter { tx: Mutex::new(Some(tx)) }, thread))
    }

    /// A slice of session `id` ended: export what it closed.
    pub(crate) fn slice_ended(&self, id: &str) {
        if let Some(tx) = self.tx.lock().ok().as_ref().and_then(|g| g.as_ref().cloned()) {
            let _ = tx.send(Message::SliceEnded(id.to_string()));
        }
    }

    /// No more slices: the thread exports what is waiting and ends.
    pub(crate) fn close(&self) {
        if let Ok(mut tx) = self.tx.lock() {
            tx.take();
        }
        if let Some(Ok(mut host)) = HOST_SPANS.get().map(Mutex::lock) {
            host.take();
        }
    }
}

/// The exporter thread's state.
struct ExportLoop {
    url: String,
    store: Arc<dyn Store>,
    /// Per session: the journal records whose closed spans were sent ([`FINISHED`] once the
    /// root span went too).
    sent: BTreeMap<String, u64>,
    /// Sessions whose last export failed, tried again after [`RETRY_AFTER`].
    failed: BTreeSet<String>,
}

impl ExportLoop {
    fn new(url: String, store: Arc<dyn Store>) -> ExportLoop {
        ExportLoop { url, store, sent: BTreeMap::new(), failed: BTreeSet::new() }
    }

    fn run(mut self, rx: &Receiver<Message>) {
        loop {
            let wait = if self.failed.is_empty() { Duration::from_secs(3600) } else { RETRY_AFTER };
            match rx.recv_timeout(wait) {
                Ok(first) => {
                    // Coalesce a burst: each session once, the host spans in one request.
                    let mut ids = BTreeSet::new();
                    let mut host = Vec::new();
                    for message in std::iter::once(first).chain(rx.try_iter()) {
                        match message {
                            Message::SliceEnded(id) => {
                                ids.insert(id);
                            }
                            Message::Host(span) => host.push(span),
                        }
                    }
                    ids.extend(std::mem::take(&mut self.failed));
                    ids.iter().for_each(|id| self.export(id));
                    self.export_host(&host);
                }
                Err(RecvTimeoutError::Timeout) => {
                    std::mem::take(&mut self.failed).iter().for_each(|id| self.export(id));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    std::mem::take(&mut self.failed).iter().for_each(|id| self.export(id));
                    return;
                }
            }
        }
    }

    /// The server's own spans: sent once; a failed send is logged and they are dropped (they
    /// describe the server's work, which the journal does not need).
    fn export_host(&self, spans: &[HostSpan]) {
        if spans.is_empty() {
            return;
        }
        let request = amber_trace::host_spans_request(spans, &SERVICE);
        if let Err(e) = amber_trace::post(&self.url, &request) {
            tracing::debug!(error = %e, spans = spans.len(), "exporting the server's spans");
        }
    }

    fn export(&mut self, id: &str) {
        let (row, records) = match (self.store.session(id), self.store.journal(id)) {
            (Ok(Some(row)), Ok(records)) => (row, records),
            (Ok(None), _) => return,
            (Err(e), _) | (_, Err(e)) => {
                tracing::warn!(session = %id, error = %e, "reading the journal to export");
                self.failed.insert(id.to_string());
                return;
            }
        };
        let from = self.sent.get(id).copied().unwrap_or(0);
        if from == FINISHED {
            return;
        }
        let finished = row.status.is_final();
        let session =
            SessionTrace { name: id, records: &records, state: Some(row.status.name()), ledger: None, locations: None };
        let request = amber_trace::trace_request(&session, &SERVICE, Selection::Closed { from, finished });
        let empty = request.resource_spans.iter().flat_map(|r| &r.scope_spans).all(|s| s.spans.is_empty());
        if !empty {
            if let Err(e) = amber_trace::post(&self.url, &request) {
                tracing::warn!(session = %id, error = %e, "exporting spans");
                self.failed.insert(id.to_string());
                return;
            }
        }
        self.sent.insert(id.to_string(), if finished { FINISHED } else { records.len() as u64 });
    }
}

/// A `tracing` layer that sends the server's spans naming a session to the `--otlp`
/// collector, in that session's trace: a span with `session` and `run_id` fields (or inside
/// one that has them) becomes an OTLP span under the session's root span, or under the span it
/// runs in. Without a running exporter it does nothing.
pub fn layer() -> HostSpanLayer {
    HostSpanLayer { next: AtomicU64::new(1) }
}

/// See [`layer`].
pub struct HostSpanLayer {
    next: AtomicU64,
}

/// What a span carries until it closes.
struct Open {
    span_id: [u8; 8],
    start_unix_nano: u64,
    fields: BTreeMap<String, String>,
}

#[derive(Default)]
struct Fields(BTreeMap<String, String>);

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_string(), value.to_string());
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_string(), format!("{value:?}"));
    }
}

fn now_unix_nano() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

fn exporting() -> Option<Sender<Message>> {
    HOST_SPANS.get()?.lock().ok()?.clone()
}

impl<S> tracing_subscriber::Layer<S> for HostSpanLayer
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        if exporting().is_none() {
            return;
        }
        let Some(span) = ctx.span(id) else { return };
        let mut fields = Fields::default();
        attrs.record(&mut fields);
        let start_unix_nano = now_unix_nano();
        let counter = self.next.fetch_add(1, Ordering::Relaxed);
        let span_id = amber_trace::host_span_id(std::process::id(), counter, start_unix_nano);
        span.extensions_mut().insert(Open { span_id, start_unix_nano, fields: fields.0 });
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let mut extensions = span.extensions_mut();
        if let Some(open) = extensions.get_mut::<Open>() {
            let mut fields = Fields::default();
            values.record(&mut fields);
            open.fields.extend(fields.0);
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some(tx) = exporting() else { return };
        let Some(span) = ctx.span(&id) else { return };
        let Some(open) = span.extensions_mut().remove::<Open>() else { return };
        // The session and run come from the span or the nearest span around it that has them;
        // the parent is the span around it, else the session's root.
        let mut session = open.fields.get("session").cloned();
        let mut run_id = open.fields.get("run_id").cloned();
        let mut parent = None;
        for ancestor in span.scope().skip(1) {
            let extensions = ancestor.extensions();
            let Some(around) = extensions.get::<Open>() else { continue };
            parent = parent.or(Some(around.span_id));
            session = session.or_else(|| around.fields.get("session").cloned());
            run_id = run_id.or_else(|| around.fields.get("run_id").cloned());
        }
        let (Some(session), Some(run_id)) = (session, run_id) else { return };
        let attributes = open
            .fields
            .into_iter()
            .filter(|(k, _)| k != "session" && k != "run_id")
            .map(|(k, v)| (format!("amber.{k}"), v))
            .collect();
        let _ = tx.send(Message::Host(HostSpan {
            name: span.name().to_string(),
            session,
            run_id,
            span_id: open.span_id,
            parent,
            start_unix_nano: open.start_unix_nano,
            end_unix_nano: now_unix_nano(),
            attributes,
        }));
    }
}
