//! The rows and results of the server store, as plain data (serde: the HTTP API shows most of
//! them as they are).

use std::collections::BTreeMap;

use amber_durable::DurableError;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a store call can fail with.
#[derive(Debug)]
pub enum StoreError {
    /// No such program, session, operation or claim.
    NotFound {
        /// What was looked up ("session", "operation", "claim", "program").
        what: &'static str,
        /// Its id.
        id: String,
    },
    /// The request contradicts what is stored (a second, different result; a create with the
    /// same id and another spec; an expired claim).
    Conflict(String),
    /// The request is malformed for the store (a bad id, a bundle path that escapes).
    Invalid(String),
    /// Someone else holds the session.
    Busy(String),
    /// The durable layer failed (I/O, corruption, integrity).
    Durable(DurableError),
    /// The database server failed or could not be reached (the call may be retried; nothing
    /// it did is half-written: each call is one transaction).
    Database(String),
    /// This process's lease on the session was taken over (it expired and another server
    /// claimed the session): the write was refused, and the slice must drop the session.
    LeaseLost(String),
    /// The session's tenant already runs as many sessions as its limit allows, counted over
    /// every server sharing the store: nothing was claimed; the session waits for a slot.
    AtLimit(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::NotFound { what, id } => write!(f, "no {what} {id:?}"),
            StoreError::Conflict(message)
            | StoreError::Invalid(message)
            | StoreError::Busy(message)
            | StoreError::Database(message)
            | StoreError::LeaseLost(message)
            | StoreError::AtLimit(message) => f.write_str(message),
            StoreError::Durable(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<DurableError> for StoreError {
    fn from(e: DurableError) -> Self {
        match e {
            DurableError::Busy { session, .. } => StoreError::Busy(format!("session {session:?} is busy")),
            DurableError::NotFound { what, name } => StoreError::NotFound { what, id: name },
            DurableError::LeaseLost { session } => {
                StoreError::LeaseLost(format!("the lease on session {session:?} was taken over"))
            }
            other => StoreError::Durable(other),
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Durable(DurableError::store("server store", e))
    }
}

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> Self {
        // The server's own message (with its SQLSTATE) when there is one, else the client's.
        match e.as_db_error() {
            Some(db) => StoreError::Database(format!("database: {} ({})", db.message(), db.code().code())),
            None => StoreError::Database(format!("database: {e}")),
        }
    }
}

/// Result of a store call.
pub type StoreResult<T> = Result<T, StoreError>;

/// One file of a deployed program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramFile {
    /// Path inside the bundle, `/`-separated, relative, without `.` or `..` parts.
    pub path: String,
    /// sha256 of the bytes, hex.
    pub sha256: String,
    /// Size in bytes.
    pub size: u64,
}

/// A deployed program: its id is the sha256 of its file list (paths and hashes, sorted).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramManifest {
    /// Content address.
    pub id: String,
    /// Files, by path.
    pub files: Vec<ProgramFile>,
    /// When it was first stored (ms since the epoch).
    pub created_ms: u64,
}

/// Lifecycle of a server session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ServerStatus {
    /// Created, not yet run.
    Queued,
    /// A slice is running (or its server crashed while running it).
    Running,
    /// Waiting on operations.
    Suspended,
    /// The program finished.
    Completed,
    /// It threw, exited non-zero, or hit a limit.
    Failed,
    /// Cancelled through the API.
    Cancelled,
}

impl ServerStatus {
    /// Every status, in lifecycle order.
    pub const ALL: [ServerStatus; 6] = [
        ServerStatus::Queued,
        ServerStatus::Running,
        ServerStatus::Suspended,
        ServerStatus::Completed,
        ServerStatus::Failed,
        ServerStatus::Cancelled,
    ];

    /// Lower-case name, as stored and shown.
    pub fn name(self) -> &'static str {
        match self {
            ServerStatus::Queued => "queued",
            ServerStatus::Running => "running",
            ServerStatus::Suspended => "suspended",
            ServerStatus::Completed => "completed",
            ServerStatus::Failed => "failed",
            ServerStatus::Cancelled => "cancelled",
        }
    }

    /// The status with this name.
    pub fn from_name(name: &str) -> Option<ServerStatus> {
        ServerStatus::ALL.into_iter().find(|s| s.name() == name)
    }

    /// True once nothing more will run.
    pub fn is_final(self) -> bool {
        matches!(self, ServerStatus::Completed | ServerStatus::Failed | ServerStatus::Cancelled)
    }
}

/// What a session runs and under which options (`POST /v1/sessions`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionSpec {
    /// Program id.
    pub program: String,
    /// Entry file, a path of the bundle.
    pub entry: String,
    /// `process.argv.slice(2)`.
    #[serde(default)]
    pub argv: Vec<String>,
    /// `process.env`.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Secret names (values from the server's environment, never stored).
    #[serde(default)]
    pub secrets: Vec<String>,
    /// Surface policies over the durable default, by name (`{"random": "captured"}`, as
    /// `amber run --policy`).
    #[serde(default)]
    pub policy: BTreeMap<String, String>,
    /// Hosts the network may reach (`--allow-net` syntax).
    #[serde(default)]
    pub allow_net: Vec<String>,
    /// Tenant (fair share and concurrency limits are per tenant).
    #[serde(default = "default_tenant")]
    pub tenant: String,
    /// Instruction budget of the whole run.
    #[serde(default)]
    pub max_instructions: Option<u64>,
    /// Heap budget in bytes.
    #[serde(default)]
    pub max_heap: Option<u64>,
    /// Time zone (IANA name or offset).
    #[serde(default)]
    pub time_zone: Option<String>,
    /// Default locale (BCP 47).
    #[serde(default)]
    pub locale: Option<String>,
}

fn default_tenant() -> String {
    "default".to_string()
}

/// A server session's row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionRow {
    /// Session id (also the durable session's name).
    pub id: String,
    /// Creation order (the list cursor).
    pub order: u64,
    /// What it runs.
    pub spec: SessionSpec,
    /// Lifecycle state.
    pub status: ServerStatus,
    /// For a finished session: `{"value": …}`, `{"exit_code": n}`, or `{"error": report}`.
    pub outcome: Option<Value>,
    /// A cancel was asked while a slice ran.
    pub cancel_requested: bool,
    /// ms since the epoch.
    pub created_ms: u64,
    /// ms since the epoch.
    pub updated_ms: u64,
}

/// `GET /v1/sessions` filters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionFilter {
    /// Only this status.
    pub status: Option<ServerStatus>,
    /// Only this tenant.
    pub tenant: Option<String>,
    /// Only this program.
    pub program: Option<String>,
    /// Only sessions created after this order.
    pub after: Option<u64>,
    /// At most this many.
    pub limit: usize,
}

/// Where an operation is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpState {
    /// Waiting for a result (a call may be claimed).
    Pending,
    /// A tool worker holds it.
    Claimed,
    /// A result is stored, not yet delivered into the VM.
    Completed,
    /// The VM has the result (journaled).
    Delivered,
    /// The session ended without it.
    Cancelled,
}

impl OpState {
    /// Every state.
    pub const ALL: [OpState; 5] =
        [OpState::Pending, OpState::Claimed, OpState::Completed, OpState::Delivered, OpState::Cancelled];

    /// Lower-case name, as stored.
    pub fn name(self) -> &'static str {
        match self {
            OpState::Pending => "pending",
            OpState::Claimed => "claimed",
            OpState::Completed => "completed",
            OpState::Delivered => "delivered",
            OpState::Cancelled => "cancelled",
        }
    }

    /// The state with this name.
    pub fn from_name(name: &str) -> Option<OpState> {
        OpState::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// An operation's result: a JSON value, or an error message (the program sees an `Error`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpResult {
    /// Fulfilled.
    Result(Value),
    /// Rejected.
    Error(String),
}

/// Retry policy of a call operation (the program's `amber.json` `host.NAME`, else defaults).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpPolicy {
    /// How long a claim lasts before another worker may take the operation.
    pub timeout_ms: u64,
    /// Attempts before a failure becomes the operation's result.
    pub max_attempts: u32,
    /// Wait before the second attempt; doubled for each later one.
    pub backoff_ms: u64,
}

impl Default for OpPolicy {
    fn default() -> Self {
        OpPolicy { timeout_ms: 60_000, max_attempts: 3, backoff_ms: 1_000 }
    }
}

/// One operation of a session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpRow {
    /// Session id.
    pub session: String,
    /// Operation id within the session.
    pub id: u64,
    /// Journal seq of its intent record.
    pub seq: u64,
    /// call, input, sleep or http.
    pub kind: String,
    /// Host function name, prompt, "sleep" or the request kind.
    pub name: String,
    /// Arguments.
    pub args: Value,
    /// For a sleep: when it is due (ms since the epoch).
    pub due_time_ms: Option<u64>,
    /// Life state.
    pub state: OpState,
    /// The stored result, once there is one.
    pub result: Option<OpResult>,
    /// Claims so far.
    pub attempts: u32,
    /// The key tool workers deduplicate by.
    pub idempotency_key: String,
}

/// A claimed operation, as a tool worker receives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    /// The claim's id (what `/v1/ops/{id}/complete` names).
    pub id: String,
    /// Session id.
    pub session: String,
    /// Operation id within the session.
    pub op: u64,
    /// Host function name.
    pub name: String,
    /// Arguments.
    pub args: Value,
    /// Stays the same across attempts and crashes.
    pub idempotency_key: String,
    /// Attempt number, from 1.
    pub attempt: u32,
    /// When the claim expires (ms since the epoch).
    pub claim_expires_ms: u64,
}

/// What storing a result did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResolveOutcome {
    /// Stored; the session has work.
    Accepted,
    /// The same result was already stored.
    Duplicate,
}

/// What completing a claim did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimOutcome {
    /// The result is stored; the session has work.
    Completed,
    /// The failure will be retried at this time.
    Retrying(u64),
    /// The claim had already completed with this result.
    Duplicate,
}

/// Counts for `/metrics`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Sessions by status.
    pub sessions: BTreeMap<ServerStatus, u64>,
    /// Operations by state.
    pub ops: BTreeMap<OpState, u64>,
}
