//! The PostgreSQL backend: one database shared by any number of `amber serve` processes.
//!
//! Everything a session is — its durable rows (journal, images, sources, output, blobs) and
//! its server rows (status, operations, lease) — lives in the `amber` schema (schema.rs), so
//! any server can run any session. Safety between servers comes from the database alone:
//!
//! - **Fenced leases** (slice.rs): a slice claims its session by bumping `lease_epoch`, and
//!   every commit checks the epoch under a row lock, so two servers never commit for one
//!   session under one epoch; a crashed server's sessions are claimable once its leases
//!   expire.
//! - **One transaction per commit**: journal records, output and the image after them; the
//!   status, outcome, operations and lease release at the end of a slice.
//! - **Claims** of operations take rows `FOR UPDATE SKIP LOCKED` (ops.rs).
//!
//! Connections come from a small pool; a connection the server closed (a restart, a
//! terminated backend) is dropped when it is returned, and the call that saw it fails with
//! `StoreError::Database` (the caller retries; nothing is half-written).

mod blob_gc;
mod durable;
mod ops;
mod schema;
mod slice;

use std::sync::Mutex;
use std::time::{Duration, Instant};

use amber_durable::digest::Digest;
use amber_durable::journal::CallRecord;
use amber_durable::store::{validate_name, BlobSweep, LoadedSession, OutputChunk};
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, GenericClient, IsolationLevel, NoTls};

use crate::rules::{self, program_listing};
use crate::types::*;
use crate::{now_ms, to_i64, to_u64, SessionUpgrade, Slice, Store};

/// A pooled connection idle longer than this is checked before use.
const IDLE_CHECK: Duration = Duration::from_millis(500);

/// How long a slice's lease lasts without a commit (each commit extends it).
pub const DEFAULT_LEASE_MS: u64 = 30_000;

/// The server store over PostgreSQL.
pub struct PgStore {
    url: String,
    /// This process's name in `lease_owner` (unique per process: pid, start time, counter).
    owner: String,
    lease_ms: u64,
    /// Whether slices renew their lease while they run (off only in tests that play a paused
    /// server).
    heartbeat: bool,
    pool: Mutex<Vec<(Client, Instant)>>,
    /// The image key journal heads are tagged under ([`PgStore::with_key`]).
    key: Option<Vec<u8>>,
    /// The connection that `LISTEN`s on [`WORK_CHANNEL`] (made on first wait).
    listener: Mutex<Option<Client>>,
    /// At most this many sessions of one tenant hold a lease at once, over every server
    /// sharing the database ([`PgStore::with_tenant_limit`]; None: no limit).
    tenant_limit: Option<u32>,
}

/// The channel every commit that makes work runnable notifies (`pg_notify`, delivered when
/// the transaction commits): a session created, a result stored, a slice ended waiting.
const WORK_CHANNEL: &str = "amber_work";

/// Tells listening servers, when the caller's transaction commits, that `session` has work.
fn notify_work(c: &mut impl GenericClient, session: &str) -> StoreResult<()> {
    c.execute("SELECT pg_notify($1, $2)", &[&WORK_CHANNEL, &session])?;
    Ok(())
}

/// A connection checked out of the pool; returned when dropped unless it was closed.
pub(crate) struct Conn<'p> {
    client: Option<Client>,
    pool: &'p Mutex<Vec<(Client, Instant)>>,
}

impl std::ops::Deref for Conn<'_> {
    type Target = Client;
    fn deref(&self) -> &Client {
        self.client.as_ref().expect("present until dropped")
    }
}

impl std::ops::DerefMut for Conn<'_> {
    fn deref_mut(&mut self) -> &mut Client {
        self.client.as_mut().expect("present until dropped")
    }
}

impl Drop for Conn<'_> {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            if !client.is_closed() {
                if let Ok(mut pool) = self.pool.lock() {
                    pool.push((client, Instant::now()));
                }
            }
        }
    }
}

fn connect(url: &str) -> StoreResult<Client> {
    let mut client = Client::connect(url, NoTls)?;
    client.batch_execute("SET search_path TO amber")?;
    Ok(client)
}

/// A name for this process's leases.
fn owner_name() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    format!("{}:{}:{nanos}", host.trim(), std::process::id())
}

impl PgStore {
    /// Connects to the database `url` names (`postgres://user@host:port/db`), applying the
    /// migrations it lacks (refusing one whose schema is newer than this binary's).
    pub fn open(url: &str) -> StoreResult<PgStore> {
        let mut client = Client::connect(url, NoTls)?;
        schema::migrate(&mut client)?;
        Ok(PgStore {
            url: url.to_string(),
            owner: owner_name(),
            lease_ms: DEFAULT_LEASE_MS,
            heartbeat: true,
            pool: Mutex::new(vec![(client, Instant::now())]),
            key: None,
            listener: Mutex::new(None),
            tenant_limit: None,
        })
    }

    /// The same store tagging journal heads with the image `key` and refusing sessions whose
    /// tag is missing or wrong (and, without a key, sessions that carry one).
    pub fn with_key(mut self, key: Option<Vec<u8>>) -> PgStore {
        self.key = key.filter(|k| !k.is_empty());
        self
    }

    /// The same store with leases of `ms` (tests shorten them to exercise take-overs).
    pub fn with_lease_ms(mut self, ms: u64) -> PgStore {
        self.lease_ms = ms.max(1);
        self
    }

    /// The same store claiming a session only while fewer than `limit` sessions of its tenant
    /// hold a lease, counted over every server sharing the database (a claim over the limit
    /// fails with [`StoreError::AtLimit`]). Claims of one tenant are serialized by an advisory
    /// lock, so servers claiming at once cannot both take the last slot.
    pub fn with_tenant_limit(mut self, limit: Option<u32>) -> PgStore {
        self.tenant_limit = limit.map(|n| n.max(1));
        self
    }

    /// The same store with slices that do not renew their leases: a server that is paused.
    #[cfg(test)]
    pub(crate) fn paused(mut self) -> PgStore {
        self.heartbeat = false;
        self
    }

    /// This process's lease owner name.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    pub(crate) fn conn(&self) -> StoreResult<Conn<'_>> {
        let pooled = self.pool.lock().ok().and_then(|mut pool| pool.pop());
        // A connection idle for a while is checked first: the server may have closed it (a
        // restart, a failover) without the client having noticed yet.
        let client = match pooled {
            Some((mut client, idle_since)) if !client.is_closed() => {
                if idle_since.elapsed() < IDLE_CHECK || client.is_valid(Duration::from_secs(2)).is_ok() {
                    client
                } else {
                    connect(&self.url)?
                }
            }
            _ => connect(&self.url)?,
        };
        Ok(Conn { client: Some(client), pool: &self.pool })
    }
}

const SESSION_COLUMNS: &str = "id, ord, spec, status, outcome, cancel_requested, created, updated";

fn session_row(row: &postgres::Row) -> StoreResult<SessionRow> {
    let id: String = row.get(0);
    let spec: String = row.get(2);
    let spec: SessionSpec = serde_json::from_str(&spec).map_err(|e| rules::json_err("session spec", e))?;
    let status: String = row.get(3);
    let status = ServerStatus::from_name(&status)
        .ok_or_else(|| StoreError::Invalid(format!("session {id:?} has unknown status {status:?}")))?;
    let outcome: Option<String> = row.get(4);
    let outcome = outcome.map(|o| serde_json::from_str(&o)).transpose().map_err(|e| rules::json_err("outcome", e))?;
    Ok(SessionRow {
        id,
        order: to_u64(row.get(1)),
        spec,
        status,
        outcome,
        cancel_requested: row.get(5),
        created_ms: to_u64(row.get(6)),
        updated_ms: to_u64(row.get(7)),
    })
}

pub(crate) fn read_session_row(c: &mut impl GenericClient, id: &str) -> StoreResult<Option<SessionRow>> {
    let row = c.query_opt(&format!("SELECT {SESSION_COLUMNS} FROM server_sessions WHERE id = $1"), &[&id])?;
    row.as_ref().map(session_row).transpose()
}

impl Store for PgStore {
    fn put_program(&self, files: &[(String, Vec<u8>)]) -> StoreResult<ProgramManifest> {
        let (id, listed) = program_listing(files)?;
        if let Some(existing) = self.program(&id)? {
            return Ok(existing);
        }
        let mut conn = self.conn()?;
        let blobs: Vec<(Digest, &[u8])> = files.iter().map(|(_, b)| (Digest::of(b), b.as_slice())).collect();
        let manifest = ProgramManifest { id: id.clone(), files: listed, created_ms: now_ms() };
        let text = serde_json::to_string(&manifest).map_err(|e| rules::json_err("program manifest", e))?;
        // Blobs and the row in one transaction: a program row never names bytes the store lacks.
        let mut tx = conn.transaction()?;
        durable::put_blobs(&mut tx, &blobs)?;
        tx.execute(
            "INSERT INTO server_programs (id, manifest, created) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
            &[&id, &text, &to_i64(manifest.created_ms)],
        )?;
        tx.commit()?;
        drop(conn);
        Ok(self.program(&id)?.unwrap_or(manifest))
    }

    fn program(&self, id: &str) -> StoreResult<Option<ProgramManifest>> {
        let row = self.conn()?.query_opt("SELECT manifest FROM server_programs WHERE id = $1", &[&id])?;
        row.map(|row| {
            let text: String = row.get(0);
            serde_json::from_str(&text).map_err(|e| rules::json_err("program manifest", e))
        })
        .transpose()
    }

    fn blob(&self, hash: &Digest) -> StoreResult<Option<Vec<u8>>> {
        durable::blob(&mut *self.conn()?, hash)
    }

    fn create_session(&self, id: Option<&str>, spec: &SessionSpec) -> StoreResult<(SessionRow, bool)> {
        if let Some(id) = id {
            validate_name(id).map_err(|e| StoreError::Invalid(e.to_string()))?;
        }
        let spec_text = serde_json::to_string(spec).map_err(|e| rules::json_err("session spec", e))?;
        let id = match id {
            Some(id) => id.to_string(),
            None => rules::generated_id(now_ms()),
        };
        let mut conn = self.conn()?;
        let now = to_i64(now_ms());
        let inserted = conn.query_opt(
            &format!(
                "INSERT INTO server_sessions (id, tenant, program, spec, status, created, updated) \
                 VALUES ($1, $2, $3, $4, 'queued', $5, $5) ON CONFLICT (id) DO NOTHING RETURNING {SESSION_COLUMNS}"
            ),
            &[&id, &spec.tenant, &spec.program, &spec_text, &now],
        )?;
        if let Some(row) = inserted {
            notify_work(&mut *conn, &id)?;
            return Ok((session_row(&row)?, true));
        }
        let existing = read_session_row(&mut *conn, &id)?
            .ok_or_else(|| StoreError::NotFound { what: "session", id: id.clone() })?;
        if existing.spec == *spec {
            return Ok((existing, false));
        }
        Err(StoreError::Conflict(format!("session {id:?} already exists with another program, entry or options")))
    }

    fn session(&self, id: &str) -> StoreResult<Option<SessionRow>> {
        read_session_row(&mut *self.conn()?, id)
    }

    fn list_sessions(&self, filter: &SessionFilter) -> StoreResult<Vec<SessionRow>> {
        let rows = self.conn()?.query(
            &format!(
                "SELECT {SESSION_COLUMNS} FROM server_sessions WHERE ord > $1 AND ($2::text IS NULL OR status = $2) \
                 AND ($3::text IS NULL OR tenant = $3) AND ($4::text IS NULL OR program = $4) ORDER BY ord LIMIT $5"
            ),
            &[
                &to_i64(filter.after.unwrap_or(0)),
                &filter.status.map(ServerStatus::name),
                &filter.tenant,
                &filter.program,
                &to_i64(filter.limit as u64),
            ],
        )?;
        rows.iter().map(session_row).collect()
    }

    fn runnable_sessions(&self) -> StoreResult<Vec<(String, String)>> {
        // Running ones only once their lease expired: their server crashed (or is partitioned;
        // the epoch fences it either way).
        let rows = self.conn()?.query(
            "SELECT id, tenant FROM server_sessions s WHERE status = 'queued' \
             OR (status = 'running' AND (lease_owner IS NULL OR lease_expires < $1)) \
             OR (status = 'suspended' AND (cancel_requested OR EXISTS \
                 (SELECT 1 FROM server_ops o WHERE o.session = s.id AND o.state = 'completed'))) \
             ORDER BY ord",
            &[&to_i64(now_ms())],
        )?;
        Ok(rows.into_iter().map(|row| (row.get(0), row.get(1))).collect())
    }

    fn leases_by_tenant(&self) -> StoreResult<std::collections::BTreeMap<String, u64>> {
        let rows = self.conn()?.query(
            "SELECT tenant, COUNT(*) FROM server_sessions WHERE lease_owner IS NOT NULL AND lease_expires >= $1 \
             GROUP BY tenant",
            &[&to_i64(now_ms())],
        )?;
        Ok(rows.into_iter().map(|row| (row.get(0), to_u64(row.get(1)))).collect())
    }

    fn pending_sleeps(&self) -> StoreResult<Vec<(String, u64)>> {
        let rows = self.conn()?.query(
            "SELECT o.session, MIN(o.due) FROM server_ops o JOIN server_sessions s ON s.id = o.session \
             WHERE o.kind = 'sleep' AND o.state = 'pending' AND s.status = 'suspended' GROUP BY o.session",
            &[],
        )?;
        Ok(rows.into_iter().map(|row| (row.get(0), to_u64(row.get::<_, Option<i64>>(1).unwrap_or(0)))).collect())
    }

    fn request_cancel(&self, id: &str) -> StoreResult<bool> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let row = tx
            .query_opt(
                "SELECT status, lease_owner IS NOT NULL AND lease_expires >= $2 FROM server_sessions \
                 WHERE id = $1 FOR UPDATE",
                &[&id, &to_i64(now_ms())],
            )?
            .ok_or_else(|| StoreError::NotFound { what: "session", id: id.into() })?;
        let status: String = row.get(0);
        let held: bool = row.get(1);
        let status = ServerStatus::from_name(&status)
            .ok_or_else(|| StoreError::Invalid(format!("session {id:?} has unknown status {status:?}")))?;
        let now = to_i64(now_ms());
        let done = match status {
            ServerStatus::Cancelled => true,
            ServerStatus::Completed | ServerStatus::Failed => {
                return Err(StoreError::Conflict(format!("session {id:?} has already {}", status.name())))
            }
            // A slice holds it (or is starting): it sees the request and stops.
            _ if held || status == ServerStatus::Running => {
                tx.execute(
                    "UPDATE server_sessions SET cancel_requested = true, updated = $2 WHERE id = $1",
                    &[&id, &now],
                )?;
                false
            }
            ServerStatus::Queued | ServerStatus::Suspended | ServerStatus::Running => {
                tx.execute(
                    "UPDATE server_sessions SET status = 'cancelled', cancel_requested = true, \
                     outcome = '{\"cancelled\":true}', updated = $2 WHERE id = $1",
                    &[&id, &now],
                )?;
                cancel_ops(&mut tx, id)?;
                true
            }
        };
        tx.commit()?;
        Ok(done)
    }

    fn fail_session(&self, id: &str, outcome: &serde_json::Value) -> StoreResult<()> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        tx.execute(
            "UPDATE server_sessions SET status = 'failed', outcome = $2, updated = $3 WHERE id = $1",
            &[&id, &outcome.to_string(), &to_i64(now_ms())],
        )?;
        cancel_ops(&mut tx, id)?;
        tx.commit()?;
        Ok(())
    }

    fn open_slice(&self, id: &str) -> StoreResult<Box<dyn Slice + '_>> {
        Ok(Box::new(slice::PgSlice::open(self, id)?))
    }

    fn durable_session(&self, id: &str) -> StoreResult<Option<LoadedSession>> {
        let mut conn = self.conn()?;
        let mut tx = conn.build_transaction().isolation_level(IsolationLevel::RepeatableRead).start()?;
        let loaded = durable::load(&mut tx, id, self.key.as_deref())?;
        tx.commit()?;
        Ok(loaded)
    }

    fn upgrade_session(&self, id: &str, upgrade: &SessionUpgrade<'_>) -> StoreResult<()> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        // The row locked for the whole move: no slice commits meanwhile, and a slice whose
        // lease expired finds its epoch gone (fenced) when it next commits.
        let now = to_i64(now_ms());
        let lease =
            tx.query_opt("SELECT lease_owner, lease_expires FROM server_sessions WHERE id = $1 FOR UPDATE", &[&id])?;
        let Some(lease) = lease else { return Err(StoreError::NotFound { what: "session", id: id.to_string() }) };
        let held =
            lease.get::<_, Option<String>>(0).is_some() && lease.get::<_, Option<i64>>(1).is_some_and(|e| e >= now);
        if held {
            return Err(StoreError::Busy(format!("session {id:?} is running a slice; upgrade it once it waits")));
        }
        let row =
            read_session_row(&mut tx, id)?.ok_or_else(|| StoreError::NotFound { what: "session", id: id.into() })?;
        rules::upgradable(&row)?;
        let next: i64 =
            tx.query_one("SELECT COALESCE(MAX(seq) + 1, 0) FROM journal WHERE session = $1", &[&id])?.get(0);
        if to_u64(next) != upgrade.record.seq {
            return Err(rules::moved_on(id, upgrade.record.seq, to_u64(next)));
        }
        let epoch: i64 = tx
            .query_one(
                "UPDATE server_sessions SET lease_epoch = lease_epoch + 1, lease_owner = NULL, lease_expires = NULL \
                 WHERE id = $1 RETURNING lease_epoch",
                &[&id],
            )?
            .get(0);
        durable::replace_sources(&mut tx, id, upgrade.sources)?;
        durable::put_blobs(&mut tx, upgrade.blobs)?;
        let lease = durable::Lease { epoch, owner: &self.owner };
        let progress = durable::Progress {
            records: std::slice::from_ref(upgrade.record),
            output: &[],
            image: Some(upgrade.image),
            key: self.key.as_deref(),
        };
        durable::append_progress(&mut tx, &lease, id, progress)?;
        let spec = SessionSpec { program: upgrade.program.to_string(), ..row.spec };
        let text = serde_json::to_string(&spec).map_err(|e| rules::json_err("session spec", e))?;
        tx.execute(
            "UPDATE server_sessions SET program = $2, spec = $3, updated = $4 WHERE id = $1",
            &[&id, &upgrade.program, &text, &now],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn session_ops(&self, id: &str) -> StoreResult<Vec<OpRow>> {
        ops::session_ops(&mut *self.conn()?, id)
    }

    fn resolve_op(&self, session: &str, op: u64, result: &OpResult, now_ms: u64) -> StoreResult<ResolveOutcome> {
        ops::resolve(&mut *self.conn()?, session, op, result, now_ms)
    }

    fn claim_ops(&self, names: &[String], limit: usize, now_ms: u64) -> StoreResult<Vec<Claim>> {
        ops::claim(&mut *self.conn()?, names, limit, now_ms)
    }

    fn complete_claim(&self, claim: &str, result: &OpResult, now_ms: u64) -> StoreResult<ClaimOutcome> {
        ops::complete_claim(&mut *self.conn()?, claim, result, now_ms)
    }

    fn next_retry_ms(&self) -> StoreResult<Option<u64>> {
        let row = self.conn()?.query_one(
            "SELECT MIN(not_before) FROM server_ops WHERE state = 'pending' AND kind = 'call' AND not_before > 0",
            &[],
        )?;
        Ok(row.get::<_, Option<i64>>(0).map(to_u64))
    }

    fn output(&self, id: &str, from: u64, limit: u64) -> StoreResult<Vec<OutputChunk>> {
        durable::output(&mut *self.conn()?, id, from, limit)
    }

    fn journal(&self, id: &str) -> StoreResult<Vec<CallRecord>> {
        let mut conn = self.conn()?;
        let mut tx = conn.build_transaction().isolation_level(IsolationLevel::RepeatableRead).start()?;
        let loaded = durable::load_to_show(&mut tx, id)?;
        tx.commit()?;
        Ok(loaded.map(|l| l.journal.records().to_vec()).unwrap_or_default())
    }

    fn export(&self, id: &str) -> StoreResult<Vec<u8>> {
        let mut conn = self.conn()?;
        let mut tx = conn.build_transaction().isolation_level(IsolationLevel::RepeatableRead).start()?;
        let bytes = durable::export(&mut tx, id)?;
        tx.commit()?;
        Ok(bytes)
    }

    fn collect_blobs(&self, put_before_ms: u64) -> StoreResult<BlobSweep> {
        let mut conn = self.conn()?;
        blob_gc::collect_blobs(&mut conn, put_before_ms)
    }

    fn shared(&self) -> bool {
        true
    }

    fn wait_for_work(&self, timeout: Duration) -> StoreResult<()> {
        let mut listener = self.listener.lock().map_err(|_| StoreError::Database("listener lock poisoned".into()))?;
        if listener.as_ref().is_none_or(Client::is_closed) {
            let mut client = connect(&self.url)?;
            client.batch_execute(&format!("LISTEN {WORK_CHANNEL}"))?;
            *listener = Some(client);
        }
        let Some(client) = listener.as_mut() else { return Ok(()) };
        let waited = {
            let mut notifications = client.notifications();
            let first = notifications.timeout_iter(timeout).next().map(|_| ());
            // Drain what else arrived: one look at the store answers them all.
            first.and_then(|()| {
                let mut pending = notifications.iter();
                while pending.next()?.is_some() {}
                Ok(())
            })
        };
        if let Err(e) = waited {
            *listener = None;
            return Err(e.into());
        }
        Ok(())
    }

    fn counts(&self) -> StoreResult<Counts> {
        let mut conn = self.conn()?;
        let mut counts = Counts::default();
        for row in conn.query("SELECT status, COUNT(*) FROM server_sessions GROUP BY status", &[])? {
            if let Some(status) = ServerStatus::from_name(row.get(0)) {
                counts.sessions.insert(status, to_u64(row.get(1)));
            }
        }
        for row in conn.query("SELECT state, COUNT(*) FROM server_ops GROUP BY state", &[])? {
            if let Some(state) = OpState::from_name(row.get(0)) {
                counts.ops.insert(state, to_u64(row.get(1)));
            }
        }
        Ok(counts)
    }
}

fn cancel_ops(c: &mut impl GenericClient, id: &str) -> StoreResult<()> {
    c.execute(
        "UPDATE server_ops SET state = 'cancelled', claim_id = NULL WHERE session = $1 \
         AND state IN ('pending', 'claimed', 'completed')",
        &[&id],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests;
