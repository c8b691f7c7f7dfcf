//! Live events for `GET /v1/sessions/{id}/events` (server-sent events): output chunks, status
//! changes, operations issued and completed. A bounded broadcast: a subscriber that falls
//! behind loses the oldest events and is told so (it can re-read output by offset).

use serde::Serialize;
use serde_json::Value;
use tokio::sync::broadcast;

/// One event.
#[derive(Clone, Debug, Serialize)]
pub struct Event {
    /// The session it concerns.
    pub session: String,
    /// `status`, `output`, `op.issued` or `op.completed`.
    pub kind: &'static str,
    /// The event's data (the session document's fields, an output chunk, an operation).
    pub data: Value,
}

pub struct Events {
    sender: broadcast::Sender<Event>,
}

impl Events {
    pub fn new() -> Events {
        Events { sender: broadcast::channel(4096).0 }
    }

    /// Publishes an event (dropped when nobody listens).
    pub fn publish(&self, session: &str, kind: &'static str, data: Value) {
        let _ = self.sender.send(Event { session: session.to_string(), kind, data });
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.sender.subscribe()
    }
}
