//! Forks and upgrades in the session store (`amber fork`, `amber upgrade`; DESIGN §7).
//!
//! A fork shares its parent's history instead of copying it: the `forks` row names the parent
//! and the seq the fork follows, and the fork's own journal rows start at `seq + 1` with the
//! fork record, whose `prev_hash` is the parent record's hash. Loading a fork reads the
//! parent's records `0..=seq` (recursively for a fork of a fork) and verifies the whole chain
//! across the fork, so an edited parent, even one re-chained with fresh hashes, fails at the
//! fork record. Sources are shared the same way until an upgrade gives the fork its own (or
//! its parent's upgrade gives it a copy of the code it ran);
//! blobs are content-addressed and shared by every session already. A session that has forks
//! cannot be deleted (their history is in it).

use rusqlite::{params, Connection, OptionalExtension};

use super::rows::{insert_session, read_journal, require_session, session_exists, touch};
use super::{
    checks, insert_image, now_ms, to_i64, to_u64, SessionLease, SessionMeta, SessionStatus, SessionStore, Source,
    StoredImage,
};
use crate::error::{DurableError, Result};
use crate::journal::{CallRecord, RecordKind};

/// Deepest chain of forks followed when loading (a fork of a fork of …): a bound, so a
/// hand-edited `forks` table that loops is an error rather than a hang.
pub(super) const MAX_FORK_DEPTH: u32 = 256;

/// A fork's link: (parent session, parent seq the fork follows, sources shared).
pub(super) fn fork_link(conn: &Connection, name: &str) -> rusqlite::Result<Option<(String, u64, bool)>> {
    conn.query_row("SELECT parent, seq, shares_sources FROM forks WHERE session = ?1", params![name], |row| {
        Ok((row.get::<_, String>(0)?, to_u64(row.get(1)?), row.get::<_, bool>(2)?))
    })
    .optional()
}

/// The records of `name`'s own journal rows, then (for a fork) what comes before them, as
/// one list in seq order; not yet verified as a chain.
pub(super) fn lineage_records(conn: &Connection, name: &str, depth: u32) -> Result<Vec<CallRecord>> {
    let err = |e| DurableError::store(format!("reading the fork link of session {name:?}"), e);
    let own = super::rows::read_own_records(conn, name)?;
    let Some((parent, seq, _)) = fork_link(conn, name).map_err(err)? else { return Ok(own) };
    if depth >= MAX_FORK_DEPTH {
        return Err(DurableError::Corrupt {
            what: "forks table",
            offset: None,
            detail: format!("session {name:?}: more than {MAX_FORK_DEPTH} forks deep (a loop?)"),
        });
    }
    let mut records = lineage_records(conn, &parent, depth + 1)?;
    let keep = usize::try_from(seq.saturating_add(1)).unwrap_or(usize::MAX);
    if records.len() < keep {
        return Err(DurableError::BrokenChain {
            seq: records.len() as u64,
            detail: format!(
                "session {name:?} was forked after record {seq} of session {parent:?}, which has only {} records",
                records.len()
            ),
        });
    }
    records.truncate(keep);
    match own.first() {
        Some(first) if first.kind == RecordKind::Fork && first.seq == seq + 1 => {}
        _ => {
            return Err(DurableError::BrokenChain {
                seq: seq + 1,
                detail: format!(
                "session {name:?} is a fork of {parent:?} but its journal does not start with a fork record at seq {}",
                seq + 1
            ),
            })
        }
    }
    records.extend(own);
    Ok(records)
}

/// `name`'s sources: its own rows, over its parent's while it shares them (recursively).
pub(super) fn lineage_sources(conn: &Connection, name: &str, depth: u32) -> Result<Vec<Source>> {
    let err = |e| DurableError::store(format!("reading sources of session {name:?}"), e);
    let own = super::rows::read_sources(conn, name).map_err(err)?;
    let link = fork_link(conn, name).map_err(err)?;
    let Some((parent, _, true)) = link else { return Ok(own) };
    if depth >= MAX_FORK_DEPTH {
        return Err(DurableError::Corrupt {
            what: "forks table",
            offset: None,
            detail: format!("session {name:?}: forks loop"),
        });
    }
    let mut sources = lineage_sources(conn, &parent, depth + 1)?;
    sources.retain(|s| !own.iter().any(|o| o.path == s.path));
    sources.extend(own);
    sources.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(sources)
}

impl SessionStore {
    /// Creates session `name` as a fork of `parent` right after the parent's record at
    /// `fork_record.seq - 1`: the session row (the parent's entry and policy, status
    /// running), its link, and its first journal row, the fork record, in one transaction.
    /// The parent is not written.
    pub fn create_fork(&self, parent: &str, name: &str, fork_record: &CallRecord) -> Result<SessionMeta> {
        super::validate_name(name)?;
        let context = format!("forking session {parent:?} as {name:?}");
        let err = |e| DurableError::store(context.clone(), e);
        let Some((named_parent, seq, _)) = fork_record.fork_info() else {
            return Err(DurableError::InvalidRecord { seq: fork_record.seq, detail: "not a fork record".into() });
        };
        if named_parent != parent {
            return Err(DurableError::InvalidRecord {
                seq: fork_record.seq,
                detail: format!("the fork record names session {named_parent:?}, not {parent:?}"),
            });
        }
        let bytes = fork_record.encode()?;
        let tx = self.write_tx(&context)?;
        let parent_meta = require_session(&tx, parent)?;
        if session_exists(&tx, name).map_err(err)? {
            return Err(DurableError::AlreadyExists { session: name.to_string() });
        }
        // The fork record must extend the parent's journal at `seq` (verified as a chain).
        let mut records = lineage_records(&tx, parent, 0)?;
        self.check_head(&tx, parent, &crate::journal::Journal::from_records(records.clone())?)?;
        records.truncate(usize::try_from(seq.saturating_add(1)).unwrap_or(usize::MAX));
        records.push(fork_record.clone());
        crate::journal::Journal::from_records(records)?;
        let now = now_ms();
        let meta = SessionMeta {
            name: name.to_string(),
            created_ms: now,
            updated_ms: now,
            status: SessionStatus::Running,
            ..parent_meta
        };
        insert_session(&tx, &meta, &[])?;
        tx.execute(
            "INSERT INTO forks (session, parent, seq, shares_sources) VALUES (?1, ?2, ?3, 1)",
            params![name, parent, to_i64(seq)],
        )
        .and_then(|_| {
            tx.execute(
                "INSERT INTO journal (session, seq, record) VALUES (?1, ?2, ?3)",
                params![name, to_i64(fork_record.seq), bytes],
            )
        })
        .map_err(err)?;
        self.tag_head(&tx, name)?;
        tx.commit().map_err(err)?;
        Ok(meta)
    }

    /// The fork link of `name`: (parent session, the parent's seq it follows), if a fork.
    pub fn fork_parent(&self, name: &str) -> Result<Option<(String, u64)>> {
        let tx = self.read_tx("reading fork link")?;
        let link =
            fork_link(&tx, name).map_err(|e| DurableError::store(format!("reading fork link of {name:?}"), e))?;
        Ok(link.map(|(parent, seq, _)| (parent, seq)))
    }

    /// The newest image of `name` taken at journal length `len` or before; for a fork with
    /// none of its own that early, its parent's (the history is the parent's there).
    pub fn image_at_or_before(&self, name: &str, len: u64) -> Result<Option<StoredImage>> {
        let tx = self.read_tx("reading images")?;
        let mut name = name.to_string();
        let mut len = len;
        for _ in 0..MAX_FORK_DEPTH {
            let err = |e| DurableError::store(format!("reading images of session {name:?}"), e);
            let image = tx
                .query_row(
                    "SELECT seq, bytes FROM images WHERE session = ?1 AND seq <= ?2 ORDER BY seq DESC LIMIT 1",
                    params![name, to_i64(len)],
                    |row| Ok(StoredImage { seq: to_u64(row.get(0)?), bytes: row.get(1)? }),
                )
                .optional()
                .map_err(err)?;
            if image.is_some() {
                return Ok(image);
            }
            match fork_link(&tx, &name).map_err(err)? {
                Some((parent, seq, _)) => {
                    len = len.min(seq + 1);
                    name = parent;
                }
                None => return Ok(None),
            }
        }
        Ok(None)
    }

    /// Moves `name` to new code in one transaction: its sources become `sources` (a fork
    /// stops sharing its parent's), `record` (the upgrade record) is appended, and `image`
    /// (the state the new code replayed to, after the record) is stored; the previous image
    /// is kept as the older one.
    pub fn upgrade(
        &self,
        lease: &SessionLease<'_>,
        sources: &[Source],
        record: &CallRecord,
        image: &[u8],
    ) -> Result<()> {
        self.upgrade_with(lease, sources, record, image, |_| Ok(()))
    }

    /// [`SessionStore::upgrade`], with `also` run inside the same transaction before it
    /// commits (an embedder's own rows that must move with the code: the server's session
    /// row names the program it runs). An error from `also` rolls everything back.
    pub fn upgrade_with(
        &self,
        lease: &SessionLease<'_>,
        sources: &[Source],
        record: &CallRecord,
        image: &[u8],
        also: impl FnOnce(&Connection) -> Result<()>,
    ) -> Result<()> {
        let name = lease.session();
        for source in sources {
            source.verify()?;
        }
        let context = format!("upgrading session {name:?}");
        let err = |e| DurableError::store(context.clone(), e);
        let tx = self.write_tx(&context)?;
        lease.check(&tx)?;
        // The record must extend the whole (verified) journal, the parent's prefix included.
        let journal = read_journal(&tx, name)?;
        self.check_head(&tx, name, &journal)?;
        let last = match journal.records().last() {
            Some(last) => Some((last.seq, last.encode()?)),
            None => None,
        };
        // Nothing below the head is re-sent: a record at a stored seq is a conflict.
        let mut stored_at = |_seq: u64| -> Result<Option<Vec<u8>>> { Ok(None) };
        let planned = checks::plan_append(
            name,
            last.as_ref().map(|(seq, bytes)| (*seq, bytes.as_slice())),
            std::slice::from_ref(record),
            &mut stored_at,
        )?;
        // Forks sharing these sources keep the code they ran: they get their own copy of the
        // old sources first (their forks, sharing theirs, then see the copy).
        let old_sources = lineage_sources(&tx, name, 0)?;
        for child in children(&tx, name).map_err(err)? {
            let Some((_, _, true)) = fork_link(&tx, &child).map_err(err)? else { continue };
            let own = super::rows::read_sources(&tx, &child).map_err(err)?;
            for source in old_sources.iter().filter(|s| !own.iter().any(|o| o.path == s.path)) {
                super::rows::insert_source(&tx, &child, source).map_err(err)?;
            }
            tx.execute("UPDATE forks SET shares_sources = 0 WHERE session = ?1", params![child]).map_err(err)?;
        }
        tx.execute("DELETE FROM sources WHERE session = ?1", params![name]).map_err(err)?;
        for source in sources {
            super::rows::insert_source(&tx, name, source).map_err(err)?;
        }
        tx.execute("UPDATE forks SET shares_sources = 0 WHERE session = ?1", params![name]).map_err(err)?;
        for (seq, bytes) in planned {
            tx.execute(
                "INSERT INTO journal (session, seq, record) VALUES (?1, ?2, ?3)",
                params![name, to_i64(seq), bytes],
            )
            .map_err(err)?;
        }
        insert_image(&tx, name, image)?;
        self.tag_head(&tx, name)?;
        touch(&tx, name).map_err(err)?;
        also(&tx)?;
        tx.commit().map_err(err)
    }
}

/// Sessions forked from `name` (delete refuses while there are any).
pub(super) fn children(conn: &Connection, name: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare("SELECT session FROM forks WHERE parent = ?1 ORDER BY session")?;
    let rows = stmt.query_map(params![name], |row| row.get(0))?;
    rows.collect()
}
