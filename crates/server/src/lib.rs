//! `amber serve`: many durable sessions in one process, over an [`amber_store::Store`].
//!
//! - The HTTP API ([`api`]) runs on tokio + axum; every store call it makes runs on tokio's
//!   blocking pool.
//! - Sessions run on `workers` plain threads ([`worker`]): a worker takes a runnable session
//!   from the [`scheduler`] (fair share between tenants, a per-tenant concurrency limit, a
//!   bounded run queue), restores it from its newest image, delivers the results stored for
//!   it, runs it until it waits again, and commits: journal records, output and image in one
//!   transaction, then status and the operations it now waits on. A session runs on one
//!   thread at a time; between slices it costs an image in the store.
//! - Durable sleeps are timers of the scheduler, loaded from the store at start.
//! - With `--database postgres://…` many servers share one database: each looks in it for
//!   sessions made runnable elsewhere (created, answered or due through another server, or
//!   left by a crashed one once its leases expire) when another server's commit notifies it
//!   (`LISTEN/NOTIFY`) and at least every second, and fenced leases make sure only one server
//!   commits for a session at a time (amber_store's PostgreSQL backend).
//! - Tool workers claim call operations over HTTP (pull model, claim leases); operations named
//!   by `--host NAME=CMD` are run by the server itself ([`HostCommands`]).
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod api;
mod auth;
mod bundle;
mod events;
pub mod local;
mod metrics;
mod otlp;
pub use otlp::{layer as otlp_layer, HostSpanLayer};
mod scheduler;
mod worker;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use amber::{CallResult, PendingOp};
use amber_store::{PgStore, SqliteStore, Store};

pub use amber_store::PG_DEFAULT_LEASE_MS as DEFAULT_LEASE_MS;
pub use auth::{Role, Tokens};

/// Operations the server runs itself (`amber serve --host NAME=CMD`).
pub trait HostCommands: Send + Sync {
    /// True if `name` is served here (such operations are never handed to tool workers).
    fn serves(&self, name: &str) -> bool;
    /// Runs `ops` (all served here), each with its idempotency key; results in op order, with
    /// how long each took (ms).
    fn execute(&self, ops: &[PendingOp], session: &str, run_id: &str) -> Vec<(CallResult, u64)>;
}

/// How the server runs.
pub struct ServerConfig {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// The store directory: the SQLite store, or with `database` the local cache of
    /// materialized program bundles.
    pub store_dir: PathBuf,
    /// A PostgreSQL URL: the store is that database, shared with other servers.
    pub database: Option<String>,
    /// How often a server sharing a database looks for work made runnable elsewhere.
    pub poll_interval_ms: u64,
    /// How long a slice's lease on its session lasts without a commit, with a database: a
    /// crashed server's sessions move to the others this long after its last commit.
    pub lease_ms: u64,
    /// Threads running sessions.
    pub workers: usize,
    /// Bearer tokens; without them the server listens on loopback only.
    pub tokens: Option<Tokens>,
    /// Sessions of one tenant running at once.
    pub tenant_concurrency: usize,
    /// Runnable sessions waiting for a worker before `POST /v1/sessions` answers 429.
    pub max_queued: usize,
    /// Largest request body (bytes) other than a program bundle.
    pub max_body: usize,
    /// Largest program bundle (bytes).
    pub max_bundle: usize,
    /// Default instruction budget of a session that sets none.
    pub max_instructions: Option<u64>,
    /// Default heap budget (bytes) of a session that sets none.
    pub max_heap: Option<u64>,
    /// Instructions one slice may run before the session fails with the limit error.
    pub slice_instructions: u64,
    /// Operations the server runs itself.
    pub hosts: Option<Arc<dyn HostCommands>>,
    /// The image key (HMAC) images are sealed with, if any.
    pub image_key: Option<Vec<u8>>,
    /// How sessions' requests reach the network (proxy, timeouts).
    pub transport: amber::net::TransportConfig,
    /// An OTLP/HTTP collector to send every session's spans to as its slices commit them
    /// (docs/tracing.md).
    pub otlp: Option<String>,
    /// Called once the server listens, with the bound address (tests bind port 0).
    pub on_listening: Option<Box<dyn FnOnce(SocketAddr) + Send>>,
}

impl ServerConfig {
    /// Defaults for `store_dir` on loopback port 8470.
    pub fn new(store_dir: PathBuf) -> ServerConfig {
        ServerConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 8470)),
            store_dir,
            database: None,
            poll_interval_ms: 1_000,
            lease_ms: amber_store::PG_DEFAULT_LEASE_MS,
            workers: 4,
            tokens: None,
            tenant_concurrency: 64,
            max_queued: 100_000,
            max_body: 1 << 20,
            max_bundle: 256 << 20,
            max_instructions: None,
            max_heap: Some(4 << 30),
            slice_instructions: 2_000_000_000,
            hosts: None,
            image_key: None,
            transport: amber::net::TransportConfig::default(),
            otlp: None,
            on_listening: None,
        }
    }
}

/// What every part of the server shares.
pub(crate) struct Shared {
    pub store: Arc<dyn Store>,
    pub store_dir: PathBuf,
    pub scheduler: scheduler::Scheduler,
    pub events: events::Events,
    pub metrics: metrics::Metrics,
    pub tokens: Option<Tokens>,
    pub hosts: Option<Arc<dyn HostCommands>>,
    pub image_key: Option<Vec<u8>>,
    pub transport: amber::net::TransportConfig,
    pub max_body: usize,
    pub max_bundle: usize,
    pub max_instructions: Option<u64>,
    pub max_heap: Option<u64>,
    pub slice_instructions: u64,
    /// Woken when call operations become claimable (long-polling claims wait on it).
    pub ops_available: tokio::sync::Notify,
    /// The live trace exporter (`--otlp`).
    pub exporter: Option<otlp::Exporter>,
}

impl Shared {
    /// The shared state of a server (or of a [`local::LocalRunner`]) over `store`, taking
    /// the tokens, host commands and image key out of `config`.
    fn new(config: &mut ServerConfig, store: Arc<dyn Store>, exporter: Option<otlp::Exporter>) -> Shared {
        Shared {
            store,
            store_dir: config.store_dir.clone(),
            scheduler: scheduler::Scheduler::new(config.tenant_concurrency.max(1), config.max_queued),
            events: events::Events::new(),
            metrics: metrics::Metrics::default(),
            tokens: config.tokens.take(),
            hosts: config.hosts.take(),
            image_key: config.image_key.take(),
            transport: config.transport.clone(),
            max_body: config.max_body,
            max_bundle: config.max_bundle,
            max_instructions: config.max_instructions,
            max_heap: config.max_heap,
            slice_instructions: config.slice_instructions.max(1),
            ops_available: tokio::sync::Notify::new(),
            exporter,
        }
    }
}

/// The store `config` names: its PostgreSQL database, else the SQLite store in its store
/// directory (created, with the directory, which also holds materialized program bundles).
fn open_store(config: &ServerConfig) -> Result<Arc<dyn Store>, String> {
    // The image key also tags every journal head the store writes (amber_durable's head_tag).
    let key = config.image_key.clone();
    let store: Arc<dyn Store> = match &config.database {
        Some(url) => Arc::new(
            PgStore::open(url)
                .map_err(|e| format!("opening the database: {e}"))?
                .with_lease_ms(config.lease_ms)
                .with_tenant_limit(Some(u32::try_from(config.tenant_concurrency).unwrap_or(u32::MAX)))
                .with_key(key),
        ),
        None => {
            Arc::new(SqliteStore::open(&config.store_dir).map_err(|e| format!("opening the store: {e}"))?.with_key(key))
        }
    };
    std::fs::create_dir_all(&config.store_dir)
        .map_err(|e| format!("creating the store directory {}: {e}", config.store_dir.display()))?;
    Ok(store)
}

/// Runs the server until SIGTERM or SIGINT; then stops taking work, lets running slices end
/// (each commits its image and releases its lease), and returns.
pub fn serve(mut config: ServerConfig) -> Result<(), String> {
    if config.tokens.is_none() && !config.listen.ip().is_loopback() {
        return Err(format!(
            "refusing to listen on {} without --token-file: without tokens the server binds to loopback only",
            config.listen
        ));
    }
    let store = open_store(&config)?;
    let (exporter, exporter_thread) = match config.otlp.take() {
        Some(url) => {
            let (exporter, thread) = otlp::Exporter::start(url, store.clone())?;
            (Some(exporter), Some(thread))
        }
        None => (None, None),
    };
    let shared = Arc::new(Shared::new(&mut config, store.clone(), exporter));
    // Whatever a previous process left runnable (queued, crashed while running, results
    // waiting), and every durable sleep.
    schedule_stored_work(&shared).map_err(|e| format!("reading the store: {e}"))?;
    let poller = match store.shared() {
        false => None,
        true => {
            let shared = shared.clone();
            let every = std::time::Duration::from_millis(config.poll_interval_ms.max(10));
            let thread = std::thread::Builder::new()
                .name("amber-poll".into())
                .spawn(move || {
                    while !shared.scheduler.stopping() {
                        // A notification from another server's commit, or the fallback poll.
                        if let Err(e) = shared.store.wait_for_work(every) {
                            tracing::warn!(error = %e, "waiting for work notifications");
                            shared.scheduler.sleep_unless_stopping(every);
                        }
                        match schedule_stored_work(&shared) {
                            // Tool workers long-polling here may claim what arrived elsewhere.
                            Ok(()) => shared.ops_available.notify_waiters(),
                            Err(e) => tracing::warn!(error = %e, "polling the database for work"),
                        }
                    }
                })
                .map_err(|e| format!("starting the poll thread: {e}"))?;
            Some(thread)
        }
    };
    let workers: Vec<_> = (0..config.workers.max(1))
        .map(|n| {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name(format!("amber-worker-{n}"))
                .stack_size(256 << 20)
                .spawn(move || worker::run(&shared))
                .map_err(|e| format!("starting worker thread {n}: {e}"))
        })
        .collect::<Result<_, _>>()?;
    let timer = {
        let shared = shared.clone();
        std::thread::Builder::new()
            .name("amber-timers".into())
            .spawn(move || shared.scheduler.run_timers(&|| shared.ops_available.notify_waiters()))
            .map_err(|e| format!("starting the timer thread: {e}"))?
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .thread_name("amber-http")
        .build()
        .map_err(|e| format!("starting the HTTP runtime: {e}"))?;
    let served = runtime.block_on(api::listen(shared.clone(), config.listen, config.on_listening.take()));
    shared.scheduler.shutdown();
    shared.ops_available.notify_waiters();
    for worker in workers {
        let _ = worker.join();
    }
    let _ = timer.join();
    if let Some(poller) = poller {
        let _ = poller.join();
    }
    // The slices are over: the exporter sends what they closed, then ends.
    if let (Some(exporter), Some(thread)) = (&shared.exporter, exporter_thread) {
        exporter.close();
        let _ = thread.join();
    }
    tracing::info!("amber serve stopped");
    served
}

/// Schedules the work the store holds: runnable sessions, durable sleeps, the next retry.
fn schedule_stored_work(shared: &Shared) -> Result<(), amber_store::StoreError> {
    for (id, tenant) in shared.store.runnable_sessions()? {
        shared.scheduler.wake(&id, &tenant);
    }
    for (id, due) in shared.store.pending_sleeps()? {
        if let Some(row) = shared.store.session(&id)? {
            shared.scheduler.add_timer(&id, &row.spec.tenant, due);
        }
    }
    if shared.store.shared() {
        shared.scheduler.set_fleet_leases(&shared.store.leases_by_tenant()?);
    }
    if let Some(at) = shared.store.next_retry_ms()? {
        shared.scheduler.add_retry_timer(at);
    }
    Ok(())
}
