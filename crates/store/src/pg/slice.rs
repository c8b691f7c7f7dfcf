//! One slice in PostgreSQL, under a fenced lease.
//!
//! Opening a slice claims the session in one statement: `lease_owner` := this server,
//! `lease_epoch` := `lease_epoch + 1`, `lease_expires` := now + the lease time — only if no
//! one holds an unexpired lease. Every later write of the slice runs in a transaction that
//! first locks the session row and checks that `lease_epoch` and `lease_owner` are still
//! ours (Temporal's range_id pattern): a server that was paused or partitioned past its
//! expiry, whose session another server claimed meanwhile, can never publish a journal
//! record, an image, output or an operation change — its commit fails with `LeaseLost` and
//! it drops the session. Each successful commit extends the lease, and so does a heartbeat
//! thread while a slice runs long without committing (a CPU-bound slice keeps its session).

use amber_durable::digest::Digest;
use amber_durable::store::{LoadedSession, NewSession};
use postgres::{GenericClient, IsolationLevel, Row, Transaction};

use super::{durable, ops, read_session_row, session_row, Conn, PgStore, SESSION_COLUMNS};
use crate::rules::finishing_status;
use crate::types::*;
use crate::{now_ms, to_i64, Progress, Slice, SliceEnd};

pub(super) struct PgSlice<'s> {
    store: &'s PgStore,
    conn: Conn<'s>,
    row: SessionRow,
    loaded: Option<LoadedSession>,
    /// The durable session of a first run, written by the slice's first commit (with its
    /// first records: one transaction and one fsync fewer than creating it on its own).
    new_durable: Option<NewSession>,
    epoch: i64,
    held: bool,
    _heartbeat: Heartbeat,
}

/// Extends the lease every third of its length while the slice runs; stops when dropped. It
/// connects only once the slice has run that long (most slices end sooner), and stops for
/// good once the lease is no longer ours (the next commit of the slice then fails).
struct Heartbeat {
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Heartbeat {
    fn start(url: String, id: String, owner: String, epoch: i64, lease_ms: u64) -> Heartbeat {
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let every = std::time::Duration::from_millis((lease_ms / 3).max(1));
        let thread = std::thread::Builder::new()
            .name("amber-lease".into())
            .spawn(move || {
                let mut client = None;
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                    if client.is_none() {
                        client = super::connect(&url).ok();
                    }
                    let Some(c) = client.as_mut() else { continue };
                    let expires = to_i64(now_ms().saturating_add(lease_ms));
                    match c.execute(
                        "UPDATE server_sessions SET lease_expires = $2 WHERE id = $1 AND lease_epoch = $3 \
                         AND lease_owner = $4",
                        &[&id, &expires, &epoch, &owner],
                    ) {
                        Ok(0) => return,
                        Ok(_) => {}
                        Err(_) => client = None,
                    }
                }
            })
            .ok();
        Heartbeat { stop: Some(stop), thread }
    }
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The advisory-lock class of tenant claims (the second key is the tenant's hash).
const TENANT_LOCK_CLASS: i32 = 0x616d_7474; // "amtt"

/// Takes `id`'s lease if no one holds an unexpired one, in one statement that also returns
/// what the slice needs next: the session row ([`SESSION_COLUMNS`]), then the new epoch and
/// whether the durable session exists yet (a new session's slice skips loading it). None:
/// someone holds it, or it cannot run.
fn claim(c: &mut impl GenericClient, store: &PgStore, id: &str, now: u64) -> Result<Option<Row>, postgres::Error> {
    c.query_opt(
        &format!(
            "UPDATE server_sessions SET lease_owner = $2, lease_epoch = lease_epoch + 1, lease_expires = $3, \
             status = CASE WHEN status IN ('queued', 'suspended') THEN 'running' ELSE status END, updated = $4 \
             WHERE id = $1 AND status IN ('queued', 'running', 'suspended') \
             AND (lease_owner IS NULL OR lease_expires < $4) \
             RETURNING {SESSION_COLUMNS}, lease_epoch, EXISTS (SELECT 1 FROM sessions WHERE name = $1)"
        ),
        &[&id, &store.owner, &to_i64(now.saturating_add(store.lease_ms)), &to_i64(now)],
    )
}

/// The columns [`claim`] returns after [`SESSION_COLUMNS`].
const CLAIM_EPOCH: usize = 8;
const CLAIM_DURABLE: usize = 9;

impl<'s> PgSlice<'s> {
    pub(super) fn open(store: &'s PgStore, id: &str) -> StoreResult<PgSlice<'s>> {
        let mut conn = store.conn()?;
        let now = now_ms();
        let claimed = match store.tenant_limit {
            None => claim(&mut *conn, store, id, now)?,
            Some(limit) => {
                let mut tx = conn.transaction()?;
                // Claims of one tenant's sessions queue on this lock, so each one counts the
                // leases those before it committed (READ COMMITTED: a fresh snapshot per
                // statement, taken after the lock is granted).
                tx.execute(
                    "SELECT pg_advisory_xact_lock($1, hashtext(tenant)) FROM server_sessions WHERE id = $2",
                    &[&TENANT_LOCK_CLASS, &id],
                )?;
                let running: i64 = tx
                    .query_one(
                        "SELECT COUNT(*) FROM server_sessions WHERE lease_owner IS NOT NULL AND lease_expires >= $2 \
                         AND id <> $1 AND tenant = (SELECT tenant FROM server_sessions WHERE id = $1)",
                        &[&id, &to_i64(now)],
                    )?
                    .get(0);
                if running >= i64::from(limit) {
                    return Err(StoreError::AtLimit(format!(
                        "session {id:?}: its tenant already runs {running} sessions, its limit"
                    )));
                }
                let claimed = claim(&mut tx, store, id, now)?;
                tx.commit()?;
                claimed
            }
        };
        let Some(claimed) = claimed else {
            return Err(match read_session_row(&mut *conn, id)? {
                None => StoreError::NotFound { what: "session", id: id.to_string() },
                Some(row) if row.status.is_final() => {
                    StoreError::Conflict(format!("session {id:?} has {}", row.status.name()))
                }
                Some(_) => StoreError::Busy(format!("session {id:?} is held by another server")),
            });
        };
        let epoch: i64 = claimed.get(CLAIM_EPOCH);
        let durable_exists: bool = claimed.get(CLAIM_DURABLE);
        let row = session_row(&claimed)?;
        let heartbeat = match store.heartbeat {
            true => Heartbeat::start(store.url.clone(), id.to_string(), store.owner.clone(), epoch, store.lease_ms),
            false => Heartbeat { stop: None, thread: None },
        };
        let mut slice =
            PgSlice { store, conn, row, loaded: None, new_durable: None, epoch, held: true, _heartbeat: heartbeat };
        // Only this lease's holder creates the durable session, so one that did not exist at
        // the claim cannot appear before this slice commits it.
        if durable_exists {
            let mut tx = slice.conn.build_transaction().isolation_level(IsolationLevel::RepeatableRead).start()?;
            slice.loaded = durable::load(&mut tx, id, store.key.as_deref())?;
            tx.commit()?;
        }
        Ok(slice)
    }

    /// A transaction in which the lease is checked (row locked) and extended.
    fn fenced(&mut self) -> StoreResult<Transaction<'_>> {
        let (id, owner, epoch) = (self.row.id.clone(), self.store.owner.clone(), self.epoch);
        let expires = to_i64(now_ms().saturating_add(self.store.lease_ms));
        let mut tx = self.conn.transaction()?;
        let current =
            tx.query_opt("SELECT lease_epoch, lease_owner FROM server_sessions WHERE id = $1 FOR UPDATE", &[&id])?;
        let ours =
            current.is_some_and(|row| row.get::<_, i64>(0) == epoch && row.get::<_, Option<String>>(1) == Some(owner));
        if !ours {
            return Err(StoreError::LeaseLost(format!(
                "session {id:?}: lease epoch {epoch} was taken over by another server; this slice's work is dropped"
            )));
        }
        tx.execute("UPDATE server_sessions SET lease_expires = $2 WHERE id = $1", &[&id, &expires])?;
        if let Some(new) = self.new_durable.take() {
            // The first commit of a first run: the durable session comes first. (Taken now: a
            // failed commit ends the slice, and the next one starts over.)
            durable::create(&mut tx, &id, &new, self.store.key.as_deref())?;
        }
        Ok(tx)
    }
}

impl Slice for PgSlice<'_> {
    fn row(&self) -> &SessionRow {
        &self.row
    }

    fn loaded(&self) -> Option<&LoadedSession> {
        self.loaded.as_ref()
    }

    fn create_durable(&mut self, new: &NewSession) -> StoreResult<()> {
        if self.loaded.is_some() || self.new_durable.is_some() {
            return Err(StoreError::Invalid(format!("session {:?} already has a durable session", self.row.id)));
        }
        // Checked now, written with the first commit (`fenced`).
        new.policy.ensure_durable_safe()?;
        for source in &new.sources {
            source.verify()?;
        }
        self.new_durable = Some(new.clone());
        Ok(())
    }

    fn undelivered(&self) -> StoreResult<Vec<(u64, OpResult)>> {
        let mut conn = self.store.conn()?;
        let ops = ops::session_ops(&mut *conn, &self.row.id)?;
        Ok(crate::rules::undelivered(ops))
    }

    fn commit_progress(&mut self, progress: Progress<'_>) -> StoreResult<()> {
        self.put_blobs(progress.blobs)?;
        if progress.is_empty() {
            return Ok(());
        }
        let (id, store, epoch) = (self.row.id.clone(), self.store, self.epoch);
        let mut tx = self.fenced()?;
        append(&mut tx, store, &id, epoch, progress)?;
        tx.commit()?;
        Ok(())
    }

    fn finish(&mut self, last: Progress<'_>, end: SliceEnd<'_>) -> StoreResult<()> {
        self.put_blobs(last.blobs)?;
        let id = self.row.id.clone();
        let (store, epoch) = (self.store, self.epoch);
        // One transaction, one fsync: the last records and output, the statuses, the
        // operations and the lease's end.
        let mut tx = self.fenced()?;
        if !last.is_empty() {
            append(&mut tx, store, &id, epoch, last)?;
        }
        if tx.query_opt("SELECT 1 FROM sessions WHERE name = $1", &[&id])?.is_some() {
            durable::set_status(&mut tx, &id, end.durable)?;
        }
        let cancel_requested: bool =
            tx.query_one("SELECT cancel_requested FROM server_sessions WHERE id = $1", &[&id])?.get(0);
        let (status, outcome) = finishing_status(cancel_requested, end.status, end.outcome.clone());
        let end = SliceEnd { status, ..end };
        // The lease ends with the slice, in the same commit.
        tx.execute(
            "UPDATE server_sessions SET status = $2, outcome = $3, updated = $4, lease_owner = NULL, \
             lease_expires = NULL WHERE id = $1",
            &[&id, &status.name(), &outcome.as_ref().map(|o| o.to_string()), &to_i64(now_ms())],
        )?;
        ops::reconcile(&mut tx, &id, &end)?;
        if !end.pending.is_empty() {
            // Calls for tool workers polling other servers, sleeps for their timers.
            super::notify_work(&mut tx, &id)?;
        }
        tx.commit()?;
        self.held = false;
        self.row.status = status;
        self.row.outcome = outcome;
        Ok(())
    }
}

impl PgSlice<'_> {
    /// Stores blobs in their own transaction, before anything that names them.
    fn put_blobs(&mut self, blobs: &[(Digest, &[u8])]) -> StoreResult<()> {
        if !blobs.is_empty() {
            let mut tx = self.conn.transaction()?;
            durable::put_blobs(&mut tx, blobs)?;
            tx.commit()?;
        }
        Ok(())
    }
}

/// Appends a slice's progress in `tx` (fenced by the caller), stamped with the lease.
fn append(tx: &mut Transaction<'_>, store: &PgStore, id: &str, epoch: i64, progress: Progress<'_>) -> StoreResult<()> {
    let Progress { records, output, image, .. } = progress;
    let lease = durable::Lease { epoch, owner: &store.owner };
    durable::append_progress(tx, &lease, id, durable::Progress { records, output, image, key: store.key.as_deref() })
}

impl Drop for PgSlice<'_> {
    fn drop(&mut self) {
        if self.held {
            // Release only our own epoch; nothing to report to from Drop (an unreleased lease
            // simply expires).
            let _ = self.conn.execute(
                "UPDATE server_sessions SET lease_owner = NULL, lease_expires = NULL \
                 WHERE id = $1 AND lease_epoch = $2 AND lease_owner = $3",
                &[&self.row.id, &self.epoch, &self.store.owner],
            );
        }
    }
}
