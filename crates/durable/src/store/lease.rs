//! Exclusive access to a session: a lock row (owner pid, process start time, random-ish
//! token) written under `BEGIN IMMEDIATE`, released when the lease drops.
//!
//! A lock is stale when its owner is gone: `/proc/PID` is missing, the process is a zombie,
//! or its start time (field 22 of `/proc/PID/stat`) differs, which catches a reused pid.
//! Without procfs (non-Linux) every lock counts as live and only its holder releases it.
//! Processes in another pid namespace sharing the store cannot be told apart; don't do that.

use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use rusqlite::{params, Connection, OptionalExtension};

use super::rows::require_session;
use super::{now_ms, to_i64, SessionStore};
use crate::error::{DurableError, Result};

/// Exclusive hold on one session; writes to the session take it, and dropping it releases it.
#[derive(Debug)]
pub struct SessionLease<'s> {
    store: &'s SessionStore,
    session: String,
    token: String,
    released: bool,
}

impl SessionLease<'_> {
    /// The session this lease holds.
    pub fn session(&self) -> &str {
        &self.session
    }

    /// Releases the lease now, reporting any store error (dropping releases silently).
    pub fn release(mut self) -> Result<()> {
        self.released = true;
        delete_lock(&self.store.conn, &self.session, &self.token)
            .map(|_| ())
            .map_err(|e| DurableError::store(format!("releasing session {:?}", self.session), e))
    }

    /// The lease as plain data, without releasing it: a holder that keeps the lock across
    /// connections (the server keeps a slice's lease while it checks connections in and out of
    /// its pool) re-attaches it with [`SessionStore::attach`]. Dropping the token leaves the
    /// lock row in place until [`SessionStore::attach`]ed and released, or its process exits.
    pub fn detach(mut self) -> LeaseToken {
        self.released = true;
        LeaseToken { session: std::mem::take(&mut self.session), token: std::mem::take(&mut self.token) }
    }

    /// Fails with `LeaseLost` unless this lease's lock row is still in place.
    pub(crate) fn check(&self, conn: &Connection) -> Result<()> {
        let token: Option<String> = conn
            .query_row("SELECT token FROM locks WHERE session = ?1", params![self.session], |row| row.get(0))
            .optional()
            .map_err(|e| DurableError::store(format!("checking lock of session {:?}", self.session), e))?;
        if token.as_deref() != Some(self.token.as_str()) {
            return Err(DurableError::LeaseLost { session: self.session.clone() });
        }
        Ok(())
    }
}

/// A detached [`SessionLease`]: the session and the lock row's token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseToken {
    session: String,
    token: String,
}

impl LeaseToken {
    /// The session the lease holds.
    pub fn session(&self) -> &str {
        &self.session
    }
}

impl SessionStore {
    /// The lease `token` detached, on this store's connection; every write through it checks
    /// that the lock row is still this token's (`LeaseLost` if another holder took it over).
    pub fn attach(&self, token: LeaseToken) -> SessionLease<'_> {
        SessionLease { store: self, session: token.session, token: token.token, released: false }
    }
}

impl Drop for SessionLease<'_> {
    fn drop(&mut self) {
        if !self.released {
            // Nothing to report to from Drop; a left-over row is stale once we exit.
            let _ = delete_lock(&self.store.conn, &self.session, &self.token);
        }
    }
}

fn delete_lock(conn: &Connection, session: &str, token: &str) -> rusqlite::Result<usize> {
    conn.execute("DELETE FROM locks WHERE session = ?1 AND token = ?2", params![session, token])
}

/// Takes the lock on `name` for this process, or fails with `Busy` naming the live holder.
pub(crate) fn acquire<'s>(store: &'s SessionStore, name: &str) -> Result<SessionLease<'s>> {
    let context = || format!("acquiring session {name:?}");
    let tx = store.write_tx(&context())?;
    require_session(&tx, name)?;
    if let Some(owner) = live_owner(&tx, name).map_err(|e| DurableError::store(context(), e))? {
        return Err(DurableError::Busy { session: name.to_string(), owner_pid: Some(owner) });
    }
    let pid = std::process::id();
    let token = new_token(pid);
    tx.execute("DELETE FROM locks WHERE session = ?1", params![name])
        .and_then(|_| {
            tx.execute(
                "INSERT INTO locks (session, pid, start_ticks, token, acquired) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    name,
                    i64::from(pid),
                    process_start_ticks(pid).and_then(|t| i64::try_from(t).ok()),
                    token,
                    to_i64(now_ms()),
                ],
            )
        })
        .map_err(|e| DurableError::store(context(), e))?;
    tx.commit().map_err(|e| DurableError::store(context(), e))?;
    Ok(SessionLease { store, session: name.to_string(), token, released: false })
}

/// The pid holding `name`, if its lock row names a live process.
pub(crate) fn live_owner(conn: &Connection, name: &str) -> rusqlite::Result<Option<u32>> {
    let row: Option<(i64, Option<i64>)> = conn
        .query_row("SELECT pid, start_ticks FROM locks WHERE session = ?1", params![name], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .optional()?;
    Ok(row.and_then(|(pid, start)| {
        let pid = u32::try_from(pid).ok()?;
        let start = start.and_then(|s| u64::try_from(s).ok());
        process_alive(pid, start).then_some(pid)
    }))
}

/// A token unique to this lease: pid, wall-clock nanoseconds and a process-wide counter.
fn new_token(pid: u32) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("{pid}-{nanos}-{}", COUNTER.fetch_add(1, Ordering::Relaxed))
}

/// Start time of `pid` in clock ticks since boot (field 22 of `/proc/PID/stat`).
fn process_start_ticks(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat_field(&stat, 22)?.parse().ok()
}

/// Field `n` (1-based, as in proc(5)) of a `/proc/PID/stat` line; skips the parenthesized
/// command name, which may itself contain spaces and parentheses.
fn stat_field(stat: &str, n: usize) -> Option<&str> {
    let after_comm = &stat[stat.rfind(')')? + 1..];
    after_comm.split_whitespace().nth(n.checked_sub(3)?)
}

/// True unless procfs shows that `pid` (started at `start_ticks`, if known) is gone.
fn process_alive(pid: u32, start_ticks: Option<u64>) -> bool {
    if !Path::new("/proc/self/stat").exists() {
        return true;
    }
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Path::new(&format!("/proc/{pid}")).exists();
    };
    if matches!(stat_field(&stat, 3), Some("Z" | "X" | "x")) {
        return false;
    }
    match (start_ticks, stat_field(&stat, 22).and_then(|s| s.parse::<u64>().ok())) {
        (Some(recorded), Some(current)) => recorded == current,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_skip_the_command_name() {
        let stat = "123 (a b) c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 777 20";
        assert_eq!(stat_field(stat, 3), Some("S"));
        assert_eq!(stat_field(stat, 22), Some("777"));
        assert_eq!(stat_field("garbage", 3), None);
    }

    #[test]
    fn this_process_is_alive_and_a_missing_one_is_not() {
        let me = std::process::id();
        assert!(process_alive(me, process_start_ticks(me)));
        if Path::new("/proc/self/stat").exists() {
            assert!(!process_alive(99_999_999, None));
            assert!(!process_alive(me, process_start_ticks(me).map(|t| t + 1)));
        }
    }
}
