//! One slice in SQLite: the durable session's lease, detached so the slice can keep its pooled
//! connection and re-attach the lease for each write (every write checks it is still ours).

use amber_durable::store::{LeaseToken, LoadedSession, NewSession};
use amber_durable::DurableError;
use rusqlite::params;

use super::{i, now_ms, read_session_row, Conn, SqliteStore};
use crate::types::*;
use crate::{Progress, Slice, SliceEnd};

pub(super) struct SqliteSlice<'s> {
    conn: Conn<'s>,
    row: SessionRow,
    loaded: Option<LoadedSession>,
    lease: Option<LeaseToken>,
}

impl<'s> SqliteSlice<'s> {
    pub(super) fn open(store: &'s SqliteStore, id: &str) -> StoreResult<SqliteSlice<'s>> {
        let conn = store.conn()?;
        let row = read_session_row(conn.connection(), id)?
            .ok_or_else(|| StoreError::NotFound { what: "session", id: id.to_string() })?;
        if row.status.is_final() {
            return Err(StoreError::Conflict(format!("session {id:?} has {}", row.status.name())));
        }
        let (lease, loaded) = match conn.acquire(id) {
            Ok(lease) => {
                let token = lease.detach();
                match conn.load(id) {
                    Ok(loaded) => (Some(token), Some(loaded)),
                    Err(e) => {
                        conn.attach(token).release()?;
                        return Err(e.into());
                    }
                }
            }
            // Never run: the durable session is made by the first slice.
            Err(DurableError::NotFound { .. }) => (None, None),
            Err(e) => return Err(e.into()),
        };
        let mut slice = SqliteSlice { conn, row, loaded, lease };
        slice.set_running()?;
        Ok(slice)
    }

    fn set_running(&mut self) -> StoreResult<()> {
        if self.row.status != ServerStatus::Running {
            self.conn.connection().execute(
                "UPDATE server_sessions SET status = 'running', updated = ?2 WHERE id = ?1 AND status IN ('queued', 'suspended')",
                params![self.row.id, i(now_ms())],
            )?;
            self.row.status = ServerStatus::Running;
        }
        Ok(())
    }

    fn lease(&self) -> StoreResult<LeaseToken> {
        self.lease.clone().ok_or_else(|| {
            StoreError::Invalid(format!("session {:?} has no durable session yet (create it first)", self.row.id))
        })
    }
}

impl Slice for SqliteSlice<'_> {
    fn row(&self) -> &SessionRow {
        &self.row
    }

    fn loaded(&self) -> Option<&LoadedSession> {
        self.loaded.as_ref()
    }

    fn create_durable(&mut self, new: &NewSession) -> StoreResult<()> {
        if self.lease.is_some() {
            return Err(StoreError::Invalid(format!("session {:?} already has a durable session", self.row.id)));
        }
        self.conn.create_session(Some(&self.row.id), new)?;
        let lease = self.conn.acquire(&self.row.id)?;
        self.lease = Some(lease.detach());
        Ok(())
    }

    fn undelivered(&self) -> StoreResult<Vec<(u64, OpResult)>> {
        let ops = super::ops::session_ops(self.conn.connection(), &self.row.id)?;
        Ok(crate::rules::undelivered(ops))
    }

    fn commit_progress(&mut self, progress: Progress<'_>) -> StoreResult<()> {
        self.conn.put_blobs(progress.blobs)?;
        if progress.is_empty() {
            return Ok(());
        }
        let lease = self.conn.attach(self.lease()?);
        let result = self.conn.append_progress(&lease, progress.records, progress.output, progress.image);
        lease.detach();
        Ok(result?)
    }

    fn finish(&mut self, last: Progress<'_>, end: SliceEnd<'_>) -> StoreResult<()> {
        self.conn.put_blobs(last.blobs)?;
        let id = self.row.id.clone();
        let lease = self.conn.attach(self.lease()?);
        // One transaction: the last records and output, the durable status, the server row
        // and the operations.
        let finished = self.conn.append_progress_and(
            &lease,
            last.records,
            last.output,
            last.image,
            Some(end.durable),
            |tx| -> StoreResult<_> {
                let cancel_requested: bool =
                    tx.query_row("SELECT cancel_requested FROM server_sessions WHERE id = ?1", params![id], |row| {
                        row.get(0)
                    })?;
                let (status, outcome) =
                    crate::rules::finishing_status(cancel_requested, end.status, end.outcome.clone());
                let end = SliceEnd { status, ..end };
                tx.execute(
                    "UPDATE server_sessions SET status = ?2, outcome = ?3, updated = ?4 WHERE id = ?1",
                    params![id, status.name(), outcome.as_ref().map(|o| o.to_string()), i(now_ms())],
                )?;
                super::ops::reconcile(tx, &id, &end)?;
                Ok((status, outcome))
            },
        );
        lease.detach();
        let (status, outcome) = finished?;
        self.row.status = status;
        self.row.outcome = outcome;
        Ok(())
    }
}

impl Drop for SqliteSlice<'_> {
    fn drop(&mut self) {
        if let Some(token) = self.lease.take() {
            // Nothing to report to from Drop; a lock left behind is stale once we exit.
            let _ = self.conn.attach(token).release();
        }
    }
}
