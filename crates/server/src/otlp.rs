//! Live OpenTelemetry export (`amber serve --otlp URL`, docs/tracing.md): after each slice,
//! the spans its commits closed are sent to an OTLP/HTTP collector, and the session's root
//! span once it has finished.
//!
//! One exporter thread does the sending, so a slow or absent collector never holds a worker:
//! workers only post the session's id on a channel. For each session the thread keeps how
//! many journal records it has exported from (`Selection::Closed`), so every span is sent
//! once; a failed send keeps the cursor and is tried again a little later. The cursor lives
//! in memory: after a restart, a session still running has its earlier spans sent again, with
//! the same ids (the trace is computed from the journal).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use amber_store::Store;
use amber_trace::{Selection, Service, SessionTrace};

/// The cursor of a session whose whole trace was sent.
const FINISHED: u64 = u64::MAX;

/// How long a failed export waits before it is tried again.
const RETRY_AFTER: Duration = Duration::from_secs(5);

/// The workers' side: post a session id after its slice.
pub(crate) struct Exporter {
    tx: Mutex<Option<Sender<String>>>,
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
        Ok((Exporter { tx: Mutex::new(Some(tx)) }, thread))
    }

    /// A slice of session `id` ended: export what it closed.
    pub(crate) fn slice_ended(&self, id: &str) {
        if let Some(tx) = self.tx.lock().ok().as_ref().and_then(|g| g.as_ref().cloned()) {
            let _ = tx.send(id.to_string());
        }
    }

    /// No more slices: the thread exports what is waiting and ends.
    pub(crate) fn close(&self) {
        if let Ok(mut tx) = self.tx.lock() {
            tx.take();
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

    fn run(mut self, rx: &Receiver<String>) {
        loop {
            let wait = if self.failed.is_empty() { Duration::from_secs(3600) } else { RETRY_AFTER };
            match rx.recv_timeout(wait) {
                Ok(id) => {
                    // Coalesce a burst of slices: each session once.
                    let mut ids: BTreeSet<String> = std::iter::once(id).chain(rx.try_iter()).collect();
                    ids.extend(std::mem::take(&mut self.failed));
                    ids.iter().for_each(|id| self.export(id));
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
        let service = Service { name: "amber", version: amber::ENGINE_VERSION };
        let request = amber_trace::trace_request(&session, &service, Selection::Closed { from, finished });
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
