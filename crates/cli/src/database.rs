//! `--database [URL]`: the PostgreSQL store `amber serve --database` servers share
//! (docs/server.md, "Many servers, one PostgreSQL"). `amber sessions` and `amber inspect`
//! show its sessions without a server's HTTP API, read-only; `amber gc` removes blobs nothing
//! names (safe while the servers run); none of them claims a session or takes a lease.
//! `amber run` and `amber resume` run its sessions (crate::database_run).
//!
//! `--database` without a value reads `$AMBER_DATABASE_URL`, which keeps a password out of
//! the process list, as `amber serve` does.

use amber_store::{PgStore, SessionFilter, Store, StoreError};
use clap::Args;

use crate::error::{CliResult, Failure};

#[derive(Args, Clone, Debug, Default)]
pub struct DatabaseArg {
    /// The PostgreSQL store `amber serve --database` servers share
    /// (postgres://USER@HOST:PORT/DB): the session is there, not in --store. `--database=`
    /// (no value) reads $AMBER_DATABASE_URL, which keeps a password out of the process list.
    #[arg(long, value_name = "URL", num_args = 0..=1, default_missing_value = "")]
    database: Option<String>,
}

impl DatabaseArg {
    /// The database's URL, when the flag was given.
    pub fn url(&self) -> CliResult<Option<String>> {
        let Some(flag) = &self.database else { return Ok(None) };
        if !flag.is_empty() {
            return Ok(Some(flag.clone()));
        }
        let url = std::env::var("AMBER_DATABASE_URL")
            .ok()
            .filter(|u| !u.is_empty())
            .ok_or_else(|| Failure::usage("--database without a URL reads $AMBER_DATABASE_URL, which is not set"))?;
        Ok(Some(url))
    }

    /// The store, when the flag was given.
    pub fn open(&self) -> CliResult<Option<PgStore>> {
        let Some(url) = self.url()? else { return Ok(None) };
        let store = PgStore::open(&url).map_err(|e| store_failure(e).context("opening the database"))?;
        Ok(Some(store.with_key(crate::image_key::key())))
    }
}

/// A store error as the CLI reports it: a durable error keeps its class's exit status
/// (integrity: 4); a missing session or an unreachable database is a usage or I/O error (2).
pub fn store_failure(e: StoreError) -> Failure {
    match e {
        StoreError::Durable(d) => d.into(),
        other => Failure::usage(other.to_string()),
    }
}

/// Every session of the store, oldest first, in pages (the store bounds one list call).
pub fn all_sessions(store: &dyn Store) -> CliResult<Vec<amber_store::SessionRow>> {
    const PAGE: usize = 1000;
    let mut rows = Vec::new();
    let mut after = None;
    loop {
        let filter = SessionFilter { after, limit: PAGE, ..SessionFilter::default() };
        let page = store.list_sessions(&filter).map_err(store_failure)?;
        let full = page.len() == PAGE;
        after = page.last().map(|row| row.order);
        rows.extend(page);
        if !full {
            return Ok(rows);
        }
    }
}
