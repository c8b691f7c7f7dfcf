//! The session store's journal head tags (schema version 6, table `heads`): with an image key,
//! every write that ends a session's journal somewhere new rewrites the session's tag in the
//! same transaction, and every load that hands the journal to a run checks it
//! ([`crate::journal::head_tag`] has the construction and what it protects).

use rusqlite::{params, Connection, OptionalExtension};

use super::SessionStore;
use crate::digest::Digest;
use crate::error::{DurableError, Result};
use crate::journal::{check_head_tag, head_tag, Journal, JournalHead};

impl SessionStore {
    /// Authenticates journal heads with `key` (the image key): this store then tags every
    /// journal it writes and refuses to load one whose tag is missing or wrong. Without a key
    /// it refuses sessions that carry a tag (see [`check_head_tag`]).
    pub fn with_key(mut self, key: Option<Vec<u8>>) -> SessionStore {
        self.key = key.filter(|k| !k.is_empty());
        self
    }

    /// True if this store authenticates journal heads.
    pub fn has_key(&self) -> bool {
        self.key.is_some()
    }

    /// Rewrites `name`'s head tag for its journal as now stored (inside the writer's
    /// transaction). Without a key, a tagged session is refused: its journal would move past
    /// its tag and never load again under the key.
    pub(super) fn tag_head(&self, conn: &Connection, name: &str) -> Result<()> {
        let err = |e| DurableError::store(format!("tagging the journal head of session {name:?}"), e);
        let Some(key) = &self.key else {
            return match stored_tag(conn, name)? {
                None => Ok(()),
                Some(_) => Err(DurableError::Authentication {
                    what: "journal head",
                    detail: "the journal's head is authenticated by an image key; this process has none",
                }),
            };
        };
        let last: Option<(i64, Vec<u8>)> = conn
            .query_row(
                "SELECT seq, record FROM journal WHERE session = ?1 ORDER BY seq DESC LIMIT 1",
                params![name],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()
            .map_err(err)?;
        let head = match last {
            Some((seq, bytes)) => {
                let seq = super::to_u64(seq);
                JournalHead { len: seq + 1, hash: Digest(super::checks::stored_record_hash_of(&bytes, seq)?) }
            }
            // A session with no records of its own: empty, or (never written so) a fork.
            None => super::rows::read_journal(conn, name)?.head(),
        };
        let tag = head_tag(key, &head)?;
        conn.execute(
            "INSERT INTO heads (session, tag) VALUES (?1, ?2) ON CONFLICT (session) DO UPDATE SET tag = excluded.tag",
            params![name, tag.0.as_slice()],
        )
        .map_err(err)?;
        Ok(())
    }

    /// Checks `journal` (as just read for `name`) against the stored head tag.
    pub(super) fn check_head(&self, conn: &Connection, name: &str, journal: &Journal) -> Result<()> {
        let stored = stored_tag(conn, name)?;
        check_head_tag(self.key.as_deref(), stored.as_ref(), &journal.head())
    }

    /// The stored head tag of `name` (for an export), if any.
    pub(super) fn head_tag_of(&self, conn: &Connection, name: &str) -> Result<Option<Digest>> {
        stored_tag(conn, name)
    }

    /// Stores an imported session's tag as it came (checked when the session loads).
    pub(super) fn put_head_tag(&self, conn: &Connection, name: &str, tag: Option<&Digest>) -> Result<()> {
        let Some(tag) = tag else { return Ok(()) };
        conn.execute("INSERT INTO heads (session, tag) VALUES (?1, ?2)", params![name, tag.0.as_slice()])
            .map_err(|e| DurableError::store(format!("storing the journal head tag of session {name:?}"), e))?;
        Ok(())
    }
}

fn stored_tag(conn: &Connection, name: &str) -> Result<Option<Digest>> {
    let err = |e| DurableError::store(format!("reading the journal head tag of session {name:?}"), e);
    let bytes: Option<Vec<u8>> = conn
        .query_row("SELECT tag FROM heads WHERE session = ?1", params![name], |row| row.get(0))
        .optional()
        .map_err(err)?;
    Ok(bytes.map(|bytes| {
        // A tag of the wrong length is kept as zeros: it matches nothing, and the check reports
        // the mismatch.
        let mut tag = [0u8; 32];
        if bytes.len() == 32 {
            tag.copy_from_slice(&bytes);
        }
        Digest(tag)
    }))
}
