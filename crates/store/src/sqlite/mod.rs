//! The SQLite backend: the server's tables in the durable store's database file
//! (`<dir>/sessions.db`, WAL, `synchronous=FULL`), next to its sessions, journal, images and
//! blobs. Each thread checks a connection out of a small pool (a SQLite connection serves one
//! thread at a time); WAL lets readers run while one writer commits.

mod ops;
mod slice;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use amber_durable::digest::Digest;
use amber_durable::journal::CallRecord;
use amber_durable::store::{validate_name, BlobSweep, LoadedSession, OutputChunk, SessionStore};
use rusqlite::{params, OptionalExtension};

use crate::types::*;
use crate::{rules, SessionUpgrade, Slice, Store};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS server_programs (
    id TEXT PRIMARY KEY, manifest TEXT NOT NULL, created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS server_sessions (
    id TEXT PRIMARY KEY,
    ord INTEGER NOT NULL UNIQUE,
    tenant TEXT NOT NULL,
    program TEXT NOT NULL,
    spec TEXT NOT NULL,
    status TEXT NOT NULL,
    outcome TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS server_sessions_status ON server_sessions (status, ord);
CREATE TABLE IF NOT EXISTS server_ops (
    session TEXT NOT NULL,
    op INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    args TEXT NOT NULL,
    due INTEGER,
    state TEXT NOT NULL,
    result TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    claim_id TEXT,
    claim_expires INTEGER,
    failed_claim TEXT,
    not_before INTEGER NOT NULL DEFAULT 0,
    timeout_ms INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    backoff_ms INTEGER NOT NULL,
    idempotency_key TEXT NOT NULL,
    PRIMARY KEY (session, op)
);
CREATE INDEX IF NOT EXISTS server_ops_state ON server_ops (state, kind, name);
CREATE INDEX IF NOT EXISTS server_ops_claim ON server_ops (claim_id);
";

/// The server store over SQLite.
pub struct SqliteStore {
    dir: PathBuf,
    pool: Mutex<Vec<SessionStore>>,
    /// The image key journal heads are tagged under ([`SessionStore::with_key`]).
    key: Option<Vec<u8>>,
}

/// A connection checked out of the pool; returned when dropped.
pub(crate) struct Conn<'p> {
    store: Option<SessionStore>,
    pool: &'p Mutex<Vec<SessionStore>>,
}

impl std::ops::Deref for Conn<'_> {
    type Target = SessionStore;
    fn deref(&self) -> &SessionStore {
        self.store.as_ref().expect("present until dropped")
    }
}

impl Drop for Conn<'_> {
    fn drop(&mut self) {
        if let (Some(store), Ok(mut pool)) = (self.store.take(), self.pool.lock()) {
            pool.push(store);
        }
    }
}

pub(crate) use crate::{now_ms, to_i64 as i, to_u64 as u};

impl SqliteStore {
    /// Opens (creating) the store in `dir`.
    pub fn open(dir: &Path) -> StoreResult<SqliteStore> {
        let first = SessionStore::open(dir)?;
        first.connection().execute_batch(SCHEMA)?;
        Ok(SqliteStore { dir: dir.to_path_buf(), pool: Mutex::new(vec![first]), key: None })
    }

    /// The same store tagging journal heads with the image `key` and refusing sessions whose
    /// tag is missing or wrong (and, without a key, sessions that carry one).
    pub fn with_key(mut self, key: Option<Vec<u8>>) -> SqliteStore {
        let pooled = self.pool.get_mut().map(std::mem::take).unwrap_or_default();
        self.pool = Mutex::new(pooled.into_iter().map(|store| store.with_key(key.clone())).collect());
        self.key = key;
        self
    }

    /// The store directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn conn(&self) -> StoreResult<Conn<'_>> {
        let pooled = self.pool.lock().ok().and_then(|mut pool| pool.pop());
        let store = match pooled {
            Some(store) => store,
            None => SessionStore::open(&self.dir)?.with_key(self.key.clone()),
        };
        Ok(Conn { store: Some(store), pool: &self.pool })
    }
}

pub(crate) fn read_session_row(conn: &rusqlite::Connection, id: &str) -> StoreResult<Option<SessionRow>> {
    let row = conn
        .query_row(
            "SELECT id, ord, spec, status, outcome, cancel_requested, created, updated FROM server_sessions WHERE id = ?1",
            params![id],
            row_tuple,
        )
        .optional()?;
    row.map(session_row).transpose()
}

type RawSession = (String, i64, String, String, Option<String>, bool, i64, i64);

fn row_tuple(row: &rusqlite::Row<'_>) -> rusqlite::Result<RawSession> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?, row.get(5)?, row.get(6)?, row.get(7)?))
}

/// Points the server row of `id` at `program` (an upgrade), if the session may move.
fn switch_program(tx: &rusqlite::Connection, id: &str, program: &str) -> StoreResult<()> {
    let row = read_session_row(tx, id)?.ok_or_else(|| StoreError::NotFound { what: "session", id: id.to_string() })?;
    rules::upgradable(&row)?;
    let spec = SessionSpec { program: program.to_string(), ..row.spec };
    let text = serde_json::to_string(&spec).map_err(|e| rules::json_err("session spec", e))?;
    tx.execute(
        "UPDATE server_sessions SET program = ?2, spec = ?3, updated = ?4 WHERE id = ?1",
        params![id, program, text, i(now_ms())],
    )?;
    Ok(())
}

fn session_row(raw: RawSession) -> StoreResult<SessionRow> {
    let (id, order, spec, status, outcome, cancel_requested, created, updated) = raw;
    let spec: SessionSpec = serde_json::from_str(&spec).map_err(|e| rules::json_err("session spec", e))?;
    let status = ServerStatus::from_name(&status)
        .ok_or_else(|| StoreError::Invalid(format!("session {id:?} has unknown status {status:?}")))?;
    let outcome = outcome.map(|o| serde_json::from_str(&o)).transpose().map_err(|e| rules::json_err("outcome", e))?;
    Ok(SessionRow {
        id,
        order: u(order),
        spec,
        status,
        outcome,
        cancel_requested,
        created_ms: u(created),
        updated_ms: u(updated),
    })
}

impl Store for SqliteStore {
    fn put_program(&self, files: &[(String, Vec<u8>)]) -> StoreResult<ProgramManifest> {
        let (id, listed) = rules::program_listing(files)?;
        let conn = self.conn()?;
        if let Some(existing) = self.program(&id)? {
            return Ok(existing);
        }
        // Blobs first: a program row never names bytes the store lacks.
        let blobs: Vec<(Digest, &[u8])> = files.iter().map(|(_, b)| (Digest::of(b), b.as_slice())).collect();
        conn.put_blobs(&blobs)?;
        let manifest = ProgramManifest { id: id.clone(), files: listed, created_ms: now_ms() };
        let text = serde_json::to_string(&manifest).map_err(|e| rules::json_err("program manifest", e))?;
        conn.connection().execute(
            "INSERT OR IGNORE INTO server_programs (id, manifest, created) VALUES (?1, ?2, ?3)",
            params![id, text, i(manifest.created_ms)],
        )?;
        Ok(manifest)
    }

    fn program(&self, id: &str) -> StoreResult<Option<ProgramManifest>> {
        let conn = self.conn()?;
        let text: Option<String> = conn
            .connection()
            .query_row("SELECT manifest FROM server_programs WHERE id = ?1", params![id], |row| row.get(0))
            .optional()?;
        text.map(|t| serde_json::from_str(&t).map_err(|e| rules::json_err("program manifest", e))).transpose()
    }

    fn blob(&self, hash: &Digest) -> StoreResult<Option<Vec<u8>>> {
        Ok(self.conn()?.blob(hash)?)
    }

    fn collect_blobs(&self, put_before_ms: u64) -> StoreResult<BlobSweep> {
        Ok(self.conn()?.collect_blobs_keeping(put_before_ms, &crate::blob_gc::sqlite_program_blobs)?)
    }

    fn create_session(&self, id: Option<&str>, spec: &SessionSpec) -> StoreResult<(SessionRow, bool)> {
        if let Some(id) = id {
            validate_name(id).map_err(|e| StoreError::Invalid(e.to_string()))?;
        }
        let spec_text = serde_json::to_string(spec).map_err(|e| rules::json_err("session spec", e))?;
        let conn = self.conn()?;
        let c = conn.connection();
        let tx = rusqlite::Transaction::new_unchecked(c, rusqlite::TransactionBehavior::Immediate)?;
        if let Some(id) = id {
            if let Some(existing) = read_session_row(&tx, id)? {
                if existing.spec == *spec {
                    return Ok((existing, false));
                }
                return Err(StoreError::Conflict(format!(
                    "session {id:?} already exists with another program, entry or options"
                )));
            }
        }
        let order: i64 = tx.query_row("SELECT COALESCE(MAX(ord) + 1, 1) FROM server_sessions", [], |row| row.get(0))?;
        let id = match id {
            Some(id) => id.to_string(),
            None => rules::generated_id(u(order)),
        };
        let now = i(now_ms());
        tx.execute(
            "INSERT INTO server_sessions (id, ord, tenant, program, spec, status, created, updated) \
             VALUES (?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?6)",
            params![id, order, spec.tenant, spec.program, spec_text, now],
        )?;
        let row =
            read_session_row(&tx, &id)?.ok_or_else(|| StoreError::NotFound { what: "session", id: id.clone() })?;
        tx.commit()?;
        Ok((row, true))
    }

    fn session(&self, id: &str) -> StoreResult<Option<SessionRow>> {
        read_session_row(self.conn()?.connection(), id)
    }

    fn list_sessions(&self, filter: &SessionFilter) -> StoreResult<Vec<SessionRow>> {
        let conn = self.conn()?;
        let mut stmt = conn.connection().prepare_cached(
            "SELECT id, ord, spec, status, outcome, cancel_requested, created, updated FROM server_sessions \
             WHERE ord > ?1 AND (?2 IS NULL OR status = ?2) AND (?3 IS NULL OR tenant = ?3) \
             AND (?4 IS NULL OR program = ?4) ORDER BY ord LIMIT ?5",
        )?;
        let rows = stmt.query_map(
            params![
                i(filter.after.unwrap_or(0)),
                filter.status.map(ServerStatus::name),
                filter.tenant,
                filter.program,
                i(filter.limit as u64)
            ],
            row_tuple,
        )?;
        let mut out = Vec::new();
        for row in rows {
            out.push(session_row(row?)?);
        }
        Ok(out)
    }

    fn runnable_sessions(&self) -> StoreResult<Vec<(String, String)>> {
        let conn = self.conn()?;
        let mut stmt = conn.connection().prepare(
            "SELECT id, tenant FROM server_sessions s WHERE status IN ('queued', 'running') \
             OR (status = 'suspended' AND (cancel_requested = 1 OR EXISTS \
                 (SELECT 1 FROM server_ops o WHERE o.session = s.id AND o.state = 'completed'))) \
             ORDER BY ord",
        )?;
        let rows = stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn pending_sleeps(&self) -> StoreResult<Vec<(String, u64)>> {
        let conn = self.conn()?;
        let mut stmt = conn.connection().prepare(
            "SELECT o.session, MIN(o.due) FROM server_ops o JOIN server_sessions s ON s.id = o.session \
             WHERE o.kind = 'sleep' AND o.state = 'pending' AND s.status = 'suspended' GROUP BY o.session",
        )?;
        let rows = stmt.query_map([], |row| Ok((row.get::<_, String>(0)?, u(row.get::<_, i64>(1)?))))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn request_cancel(&self, id: &str) -> StoreResult<bool> {
        let conn = self.conn()?;
        let c = conn.connection();
        let tx = rusqlite::Transaction::new_unchecked(c, rusqlite::TransactionBehavior::Immediate)?;
        let row = read_session_row(&tx, id)?.ok_or_else(|| StoreError::NotFound { what: "session", id: id.into() })?;
        let now = i(now_ms());
        let done = match row.status {
            ServerStatus::Cancelled => true,
            ServerStatus::Completed | ServerStatus::Failed => {
                return Err(StoreError::Conflict(format!("session {id:?} has already {}", row.status.name())))
            }
            ServerStatus::Running => {
                tx.execute(
                    "UPDATE server_sessions SET cancel_requested = 1, updated = ?2 WHERE id = ?1",
                    params![id, now],
                )?;
                false
            }
            ServerStatus::Queued | ServerStatus::Suspended => {
                // Nobody holds it between slices: cancelled now, unless a slice is starting
                // (it holds the durable lease); that slice sees the request and stops.
                let held = conn.lock_owner(id).map_err(StoreError::from)?.is_some();
                if held {
                    tx.execute(
                        "UPDATE server_sessions SET cancel_requested = 1, updated = ?2 WHERE id = ?1",
                        params![id, now],
                    )?;
                    false
                } else {
                    tx.execute(
                        "UPDATE server_sessions SET status = 'cancelled', cancel_requested = 1, \
                         outcome = '{\"cancelled\":true}', updated = ?2 WHERE id = ?1",
                        params![id, now],
                    )?;
                    tx.execute(
                        "UPDATE server_ops SET state = 'cancelled', claim_id = NULL WHERE session = ?1 \
                         AND state IN ('pending', 'claimed', 'completed')",
                        params![id],
                    )?;
                    true
                }
            }
        };
        tx.commit()?;
        Ok(done)
    }

    fn fail_session(&self, id: &str, outcome: &serde_json::Value) -> StoreResult<()> {
        let conn = self.conn()?;
        let tx = rusqlite::Transaction::new_unchecked(conn.connection(), rusqlite::TransactionBehavior::Immediate)?;
        tx.execute(
            "UPDATE server_sessions SET status = 'failed', outcome = ?2, updated = ?3 WHERE id = ?1",
            params![id, outcome.to_string(), i(now_ms())],
        )?;
        tx.execute(
            "UPDATE server_ops SET state = 'cancelled', claim_id = NULL WHERE session = ?1 \
             AND state IN ('pending', 'claimed', 'completed')",
            params![id],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn open_slice(&self, id: &str) -> StoreResult<Box<dyn Slice + '_>> {
        Ok(Box::new(slice::SqliteSlice::open(self, id)?))
    }

    fn durable_session(&self, id: &str) -> StoreResult<Option<LoadedSession>> {
        match self.conn()?.load(id) {
            Ok(loaded) => Ok(Some(loaded)),
            Err(amber_durable::DurableError::NotFound { .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    fn upgrade_session(&self, id: &str, upgrade: &SessionUpgrade<'_>) -> StoreResult<()> {
        let conn = self.conn()?;
        let lease = conn.acquire(id)?;
        // Under the lease no slice appends: the record must sit at the journal's head.
        let next: i64 = conn.connection().query_row(
            "SELECT COALESCE(MAX(seq) + 1, 0) FROM journal WHERE session = ?1",
            params![id],
            |row| row.get(0),
        )?;
        if u(next) != upgrade.record.seq {
            lease.release()?;
            return Err(rules::moved_on(id, upgrade.record.seq, u(next)));
        }
        // Blobs first: an image never names bytes the store lacks.
        if let Err(e) = conn.put_blobs(upgrade.blobs) {
            lease.release()?;
            return Err(e.into());
        }
        // The row's own change runs inside the upgrade's transaction; a refusal rolls it back.
        let refused = std::cell::Cell::new(None);
        let switched = conn.upgrade_with(&lease, upgrade.sources, upgrade.record, upgrade.image, |tx| {
            switch_program(tx, id, upgrade.program).map_err(|e| {
                let detail = e.to_string();
                refused.set(Some(e));
                amber_durable::DurableError::InvalidValue { what: format!("server session {id:?}"), detail }
            })
        });
        let released = lease.release();
        if let Some(refusal) = refused.take() {
            return Err(refusal);
        }
        switched?;
        Ok(released?)
    }

    fn session_ops(&self, id: &str) -> StoreResult<Vec<OpRow>> {
        ops::session_ops(self.conn()?.connection(), id)
    }

    fn resolve_op(&self, session: &str, op: u64, result: &OpResult, now_ms: u64) -> StoreResult<ResolveOutcome> {
        ops::resolve(&self.conn()?, session, op, result, now_ms)
    }

    fn claim_ops(&self, names: &[String], limit: usize, now_ms: u64) -> StoreResult<Vec<Claim>> {
        ops::claim(&self.conn()?, names, limit, now_ms)
    }

    fn complete_claim(&self, claim: &str, result: &OpResult, now_ms: u64) -> StoreResult<ClaimOutcome> {
        ops::complete_claim(&self.conn()?, claim, result, now_ms)
    }

    fn next_retry_ms(&self) -> StoreResult<Option<u64>> {
        let conn = self.conn()?;
        let next: Option<i64> = conn.connection().query_row(
            "SELECT MIN(not_before) FROM server_ops WHERE state = 'pending' AND kind = 'call' AND not_before > 0",
            [],
            |row| row.get(0),
        )?;
        Ok(next.map(u))
    }

    fn output(&self, id: &str, from: u64, limit: u64) -> StoreResult<Vec<OutputChunk>> {
        Ok(self.conn()?.output(id, from, limit)?)
    }

    fn journal(&self, id: &str) -> StoreResult<Vec<CallRecord>> {
        let conn = self.conn()?;
        match conn.load_to_show(id) {
            Ok(loaded) => Ok(loaded.journal.records().to_vec()),
            Err(amber_durable::DurableError::NotFound { .. }) => Ok(Vec::new()),
            Err(e) => Err(e.into()),
        }
    }

    fn export(&self, id: &str) -> StoreResult<Vec<u8>> {
        Ok(self.conn()?.export(id)?)
    }

    fn counts(&self) -> StoreResult<Counts> {
        let conn = self.conn()?;
        let c = conn.connection();
        let mut counts = Counts::default();
        let mut stmt = c.prepare_cached("SELECT status, COUNT(*) FROM server_sessions GROUP BY status")?;
        for row in stmt.query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?)))? {
            let (status, n) = row?;
            if let Some(status) = ServerStatus::from_name(&status) {
                counts.sessions.insert(status, u(n));
            }
        }
        let mut stmt = c.prepare_cached("SELECT state, COUNT(*) FROM server_ops GROUP BY state")?;
        for row in stmt.query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?)))? {
            let (state, n) = row?;
            if let Some(state) = OpState::from_name(&state) {
                counts.ops.insert(state, u(n));
            }
        }
        Ok(counts)
    }
}

#[cfg(test)]
mod tests;
