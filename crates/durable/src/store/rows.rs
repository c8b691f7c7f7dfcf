//! Row-level helpers of the session store: reading and writing single rows inside a
//! caller's transaction. Every reader checks what it reads (hashes, status names, policy).

use rusqlite::{params, Connection, OptionalExtension, Transaction};

use super::{generate_name, now_ms, to_i64, to_u64, SessionMeta, SessionStatus, Source};
use crate::digest::Digest;
use crate::error::{DurableError, Result};
use crate::journal::{CallRecord, Journal};
use crate::policy::Policy;

/// Fails with `NotFound` unless `name` exists; returns its row.
pub(super) fn require_session(conn: &Connection, name: &str) -> Result<SessionMeta> {
    let context = || format!("reading session {name:?}");
    let row = conn
        .query_row(
            "SELECT name, created, updated, status, entry, module, policy FROM sessions WHERE name = ?1",
            params![name],
            |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, i64>(1)?,
                    row.get::<_, i64>(2)?,
                    row.get::<_, String>(3)?,
                    row.get::<_, String>(4)?,
                    row.get::<_, bool>(5)?,
                    row.get::<_, String>(6)?,
                ))
            },
        )
        .optional()
        .map_err(|e| DurableError::store(context(), e))?;
    let Some((name, created, updated, status, entry, module, policy)) = row else {
        return Err(DurableError::NotFound { what: "session", name: name.to_string() });
    };
    let corrupt = |detail: String| DurableError::Corrupt { what: "session row", offset: None, detail };
    let status = SessionStatus::from_name(&status)
        .ok_or_else(|| corrupt(format!("session {name:?} has unknown status {status:?}")))?;
    let policy: Policy = serde_json::from_str(&policy).map_err(|e| corrupt(format!("session {name:?} policy: {e}")))?;
    Ok(SessionMeta { name, created_ms: to_u64(created), updated_ms: to_u64(updated), status, entry, module, policy })
}

pub(super) fn session_exists(conn: &Connection, name: &str) -> rusqlite::Result<bool> {
    conn.query_row("SELECT 1 FROM sessions WHERE name = ?1", params![name], |_| Ok(()))
        .optional()
        .map(|row| row.is_some())
}

/// Bumps the store's name counter until the generated name is free.
pub(super) fn next_generated_name(conn: &Connection) -> rusqlite::Result<String> {
    let stored: Option<String> =
        conn.query_row("SELECT value FROM meta WHERE key = 'name_counter'", [], |row| row.get(0)).optional()?;
    let mut counter: u64 = stored.and_then(|s| s.parse().ok()).unwrap_or(0);
    let secs = now_ms() / 1000;
    let name = loop {
        counter = counter.wrapping_add(1);
        let candidate = generate_name(counter, secs);
        if !session_exists(conn, &candidate)? {
            break candidate;
        }
    };
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('name_counter', ?1)", params![counter.to_string()])?;
    Ok(name)
}

pub(super) fn insert_session(tx: &Transaction<'_>, meta: &SessionMeta, sources: &[Source]) -> Result<()> {
    let err = |e| DurableError::store(format!("inserting session {:?}", meta.name), e);
    let policy = serde_json::to_string(&meta.policy)
        .map_err(|e| DurableError::InvalidValue { what: "policy".into(), detail: e.to_string() })?;
    tx.execute(
        "INSERT INTO sessions (name, created, updated, status, entry, module, policy) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            meta.name,
            to_i64(meta.created_ms),
            to_i64(meta.updated_ms),
            meta.status.name(),
            meta.entry,
            meta.module,
            policy
        ],
    )
    .map_err(err)?;
    for source in sources {
        insert_source(tx, &meta.name, source).map_err(err)?;
    }
    Ok(())
}

pub(super) fn insert_source(conn: &Connection, session: &str, source: &Source) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO sources (session, path, text, sha256) VALUES (?1, ?2, ?3, ?4)",
        params![session, source.path, source.text, source.sha256.0.as_slice()],
    )
    .map(|_| ())
}

/// Marks the session as just written.
pub(super) fn touch(conn: &Connection, name: &str) -> rusqlite::Result<()> {
    conn.execute("UPDATE sessions SET updated = ?2 WHERE name = ?1", params![name, to_i64(now_ms())]).map(|_| ())
}

pub(super) fn read_sources(conn: &Connection, name: &str) -> rusqlite::Result<Vec<Source>> {
    let mut stmt = conn.prepare("SELECT path, text, sha256 FROM sources WHERE session = ?1 ORDER BY path")?;
    let rows = stmt.query_map(params![name], |row| {
        let hash: Vec<u8> = row.get(2)?;
        let mut sha256 = [0u8; 32];
        if hash.len() == 32 {
            sha256.copy_from_slice(&hash);
        }
        Ok(Source { path: row.get(0)?, text: row.get(1)?, sha256: Digest(sha256) })
    })?;
    rows.collect()
}

/// Loads and verifies the whole journal of `name` (for a fork, its parent's prefix and then
/// its own records, verified as one chain).
pub(super) fn read_journal(conn: &Connection, name: &str) -> Result<Journal> {
    Journal::from_records(super::lineage::lineage_records(conn, name, 0)?)
}

/// The records in `name`'s own journal rows, in seq order, each decoded and hash-checked.
pub(super) fn read_own_records(conn: &Connection, name: &str) -> Result<Vec<CallRecord>> {
    let err = |e| DurableError::store(format!("reading journal of session {name:?}"), e);
    let mut stmt = conn.prepare("SELECT seq, record FROM journal WHERE session = ?1 ORDER BY seq").map_err(err)?;
    let rows =
        stmt.query_map(params![name], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, Vec<u8>>(1)?))).map_err(err)?;
    let mut records = Vec::new();
    for row in rows {
        let (seq, bytes) = row.map_err(err)?;
        let record = CallRecord::decode(&bytes)?;
        if record.seq != to_u64(seq) {
            return Err(DurableError::BrokenChain {
                seq: to_u64(seq),
                detail: format!("row seq {seq} holds a record with seq {}", record.seq),
            });
        }
        records.push(record);
    }
    Ok(records)
}

/// The hash of the stored record at `seq` (its last 32 bytes), if stored.
pub(super) fn stored_record_hash(conn: &Connection, name: &str, seq: u64) -> rusqlite::Result<Option<[u8; 32]>> {
    let bytes: Option<Vec<u8>> = conn
        .query_row("SELECT record FROM journal WHERE session = ?1 AND seq = ?2", params![name, to_i64(seq)], |row| {
            row.get(0)
        })
        .optional()?;
    Ok(bytes.and_then(|bytes| super::checks::stored_record_hash_of(&bytes, seq).ok()))
}
