//! A store's sessions run in this process, without the HTTP API: what `amber run --database`
//! and `amber resume --database` use (docs/server.md, "The CLI on a shared database").
//!
//! A slice run here is exactly a server worker's slice — the same claim and fenced lease,
//! the same commits, the same release — so the CLI and any number of `amber serve` processes
//! sharing one database can each run a session's next slice, and never two at once. The CLI
//! decides when to run one (after it stored a result, or when a sleep is due); whoever runs
//! it, the session's output is in the store.

use std::sync::Arc;

use amber_store::Store;

use crate::worker::{self, Attempt};
use crate::{open_store, ServerConfig, Shared};

/// Runs slices of a store's sessions on the calling thread.
pub struct LocalRunner {
    shared: Arc<Shared>,
}

/// How an attempt at one slice ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SliceRun {
    /// The slice ran, or found the session finished or cancelled: read its row for the rest.
    Ran,
    /// Another process holds the session's lease (a server sharing the database runs it), or
    /// its tenant runs its limit of sessions: it runs there, or later.
    Elsewhere(String),
    /// The session cannot run (its program, entry or secrets are missing, its image does not
    /// restore); it is recorded as failed with this message.
    Failed(String),
}

impl LocalRunner {
    /// Opens the store `config` names (its `database`, else the SQLite store in its store
    /// directory, which also caches materialized program bundles). `config.workers`,
    /// `listen`, `tokens` and `otlp` play no part.
    pub fn open(mut config: ServerConfig) -> Result<LocalRunner, String> {
        let store = open_store(&config)?;
        Ok(LocalRunner { shared: Arc::new(Shared::new(&mut config, store, None)) })
    }

    /// The store.
    pub fn store(&self) -> &dyn Store {
        self.shared.store.as_ref()
    }

    /// Runs one slice of session `id` here: it restores the session, delivers the results
    /// stored for it, completes due sleeps, serves network requests and the configured host
    /// commands, and commits until the session waits on the world or ends. `Err`: the store
    /// failed, and the session is as it was.
    pub fn run_slice(&self, id: &str) -> Result<SliceRun, String> {
        match worker::attempt(&self.shared, id) {
            Attempt::Ran(_) => Ok(SliceRun::Ran),
            Attempt::AtLimit(message) | Attempt::Elsewhere(message) => Ok(SliceRun::Elsewhere(message)),
            Attempt::StoreFailed(message) => Err(message),
            Attempt::Failed(message) => Ok(SliceRun::Failed(message)),
        }
    }
}

/// Checks a session's spec as `POST /v1/sessions` does (policy, hosts, time zone, locale,
/// secrets in this process's environment), before it is created.
pub fn check_spec(spec: &amber_store::SessionSpec) -> Result<(), String> {
    worker::session_policy(spec)?;
    amber::net::NetPolicy::parse(spec.allow_net.iter().map(String::as_str)).map_err(|e| format!("--allow-net: {e}"))?;
    if let Some(tz) = spec.time_zone.as_deref().filter(|tz| !amber::engine::builtins::temporal::is_time_zone(tz)) {
        return Err(format!("--tz {tz:?}: not a time zone (an IANA name or an offset such as +05:30)"));
    }
    if let Some(tag) = spec.locale.as_deref().filter(|tag| !amber::engine::builtins::intl::is_locale(tag)) {
        return Err(format!("--locale {tag:?}: not a locale (a BCP 47 tag such as en-US or de-DE)"));
    }
    if let Some(name) = spec.secrets.iter().find(|name| std::env::var(name.as_str()).is_err()) {
        return Err(format!("the secret {name} is not in this process's environment"));
    }
    if let Some(name) = spec.secrets.iter().find(|name| spec.env.contains_key(name.as_str())) {
        return Err(format!("{name} is given both as --env and as --secret"));
    }
    Ok(())
}
