//! Blob collection (docs/durability.md, "Blob collection"). The `blobs` table is shared by
//! every session — content-addressed, so two sessions that read the same file store it once —
//! and belongs to none, so a blob goes by mark and sweep: it is **live** while any session's
//! rows name it (a journal record: a capture's file hash, a network body; an image: the code
//! blobs its manifest lists) or a layer above says so (a server's programs), and an unnamed
//! blob is removed only if it was **put before a cutoff**.
//!
//! Why the cutoff: a writer stores blobs in their own transaction *before* the records and
//! the image that name them (an orphan is harmless, a record naming a missing blob is not), so
//! between the two a fresh blob is named by nothing yet. Every put stamps `last_put` (ms since
//! the epoch; re-putting a stored blob refreshes it), and the collector keeps every unnamed blob
//! put at or after the cutoff (now minus a grace period, [`BLOB_GRACE_MS`] by default). The
//! refresh rewrites only the row's first page: SQLite overwrites a cell of unchanged size in
//! place and skips overflow pages whose bytes did not change. Blobs stored before schema
//! version 7 carry 0 (old).
//!
//! Architecture invariant: the mark reads what this crate defines (journal records, image
//! manifests) and nothing of a layer's tables; a store with tables it does not know collects
//! only through that layer ([`SessionStore::collect_blobs_keeping`]), which names what they keep.

use std::collections::BTreeSet;

use rusqlite::{params, Connection, Transaction};

use super::{lease, lineage, require_session, to_i64, to_u64, SessionStore};
use crate::digest::Digest;
use crate::error::{DurableError, Result};
use crate::image::read_manifest_unverified;
use crate::journal::{record_blobs, CallRecord};

/// Default grace period: an unnamed blob put within the last hour is kept (an in-flight
/// slice may be about to commit the records that name it).
pub const BLOB_GRACE_MS: u64 = 60 * 60 * 1000;

/// Tables this store owns; any other (a layer's) makes an unguided collection refuse.
const OWN_TABLES: &[&str] =
    &["meta", "sessions", "sources", "images", "journal", "blobs", "output", "forks", "locations", "heads", "locks"];

/// What a collection did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BlobSweep {
    /// Blobs removed.
    pub removed: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Blobs nothing names that were kept because they were put at or after the cutoff.
    pub young: u64,
    /// Blobs kept because something names them.
    pub live: u64,
}

/// What a layer above the session store keeps alive in the same database (a server's
/// program files), read inside the collector's transaction.
pub type KeepBlobs<'a> = &'a dyn Fn(&Connection) -> Result<BTreeSet<Digest>>;

/// The code blobs an image's manifest names. An image whose manifest cannot be read fails the
/// collection (naming the session and seq) rather than risk removing what it needs.
pub fn image_blobs(session: &str, seq: u64, bytes: &[u8]) -> Result<Vec<Digest>> {
    let summary = read_manifest_unverified(bytes).map_err(|e| DurableError::Corrupt {
        what: "image row",
        offset: None,
        detail: format!(
            "session {session:?}, image at seq {seq}: its manifest cannot be read ({e}), so the blobs it needs are \
             unknown; nothing was collected"
        ),
    })?;
    Ok(summary.manifest.code_blobs)
}

/// Adds the blobs a stored journal record names to `out`. A record that does not decode fails
/// the collection (naming the session and seq) rather than risk removing what it names.
pub fn journal_row_blobs(session: &str, seq: u64, bytes: &[u8], out: &mut BTreeSet<Digest>) -> Result<()> {
    let record = CallRecord::decode(bytes).map_err(|e| DurableError::Corrupt {
        what: "journal row",
        offset: None,
        detail: format!("session {session:?}, seq {seq}: {e}; the blobs it names are unknown, nothing was collected"),
    })?;
    record_blobs(&record, out);
    Ok(())
}

/// How a put writes a blob: a new one is inserted stamped `?3`; a stored one gets the stamp.
pub(super) const PUT_BLOB_SQL: &str = "INSERT INTO blobs (sha256, bytes, last_put) VALUES (?1, ?2, ?3) \
     ON CONFLICT (sha256) DO UPDATE SET last_put = excluded.last_put";

/// Brings a `blobs` table from before schema version 7 to it: the `last_put` column (0 for
/// the blobs already stored: old, so collectable once nothing names them).
pub(super) fn migrate(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    let has: bool =
        tx.query_row("SELECT COUNT(*) > 0 FROM pragma_table_info('blobs') WHERE name = 'last_put'", [], |row| {
            row.get(0)
        })?;
    if !has {
        tx.execute_batch("ALTER TABLE blobs ADD COLUMN last_put INTEGER NOT NULL DEFAULT 0")?;
    }
    Ok(())
}

/// Every blob the sessions in `conn` name: their journal rows' records and their images.
fn session_blobs(conn: &Connection) -> Result<BTreeSet<Digest>> {
    let err = |e| DurableError::store("marking the blobs sessions name", e);
    let mut live = BTreeSet::new();
    let mut stmt = conn.prepare("SELECT session, seq, record FROM journal").map_err(err)?;
    let mut rows = stmt.query([]).map_err(err)?;
    while let Some(row) = rows.next().map_err(err)? {
        let (session, seq, bytes): (String, i64, Vec<u8>) =
            (row.get(0).map_err(err)?, row.get(1).map_err(err)?, row.get(2).map_err(err)?);
        journal_row_blobs(&session, to_u64(seq), &bytes, &mut live)?;
    }
    let mut stmt = conn.prepare("SELECT session, seq, bytes FROM images").map_err(err)?;
    let mut rows = stmt.query([]).map_err(err)?;
    while let Some(row) = rows.next().map_err(err)? {
        let (session, seq, bytes): (String, i64, Vec<u8>) =
            (row.get(0).map_err(err)?, row.get(1).map_err(err)?, row.get(2).map_err(err)?);
        live.extend(image_blobs(&session, to_u64(seq), &bytes)?);
    }
    Ok(live)
}

/// The blobs one session's own rows name (its journal rows and images), before they go.
fn own_blobs(conn: &Connection, name: &str) -> Result<BTreeSet<Digest>> {
    let err = |e| DurableError::store(format!("reading the blobs session {name:?} names"), e);
    let mut named = BTreeSet::new();
    for record in super::rows::read_own_records(conn, name)? {
        record_blobs(&record, &mut named);
    }
    let mut stmt = conn.prepare("SELECT seq, bytes FROM images WHERE session = ?1").map_err(err)?;
    let mut rows = stmt.query(params![name]).map_err(err)?;
    while let Some(row) = rows.next().map_err(err)? {
        let (seq, bytes): (i64, Vec<u8>) = (row.get(0).map_err(err)?, row.get(1).map_err(err)?);
        named.extend(image_blobs(name, to_u64(seq), &bytes)?);
    }
    Ok(named)
}

/// Tables in the database this store does not own.
fn foreign_tables(conn: &Connection) -> Result<Vec<String>> {
    let err = |e| DurableError::store("listing the store's tables", e);
    let mut stmt = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        .map_err(err)?;
    let names: Vec<String> =
        stmt.query_map([], |row| row.get(0)).map_err(err)?.collect::<rusqlite::Result<_>>().map_err(err)?;
    Ok(names.into_iter().filter(|n| !OWN_TABLES.contains(&n.as_str())).collect())
}

/// Removes the blobs in `candidates` (all blobs: None) that nothing names and that were put
/// before `put_before_ms`.
fn sweep(
    tx: &Transaction<'_>,
    candidates: Option<&BTreeSet<Digest>>,
    put_before_ms: u64,
    keep: Option<KeepBlobs<'_>>,
) -> Result<BlobSweep> {
    let err = |e| DurableError::store("collecting blobs", e);
    if keep.is_none() {
        let foreign = foreign_tables(tx)?;
        if !foreign.is_empty() {
            return Err(DurableError::InvalidValue {
                what: "blob collection".into(),
                detail: format!(
                    "the store also holds another layer's tables ({}), which may name blobs; collect through that \
                     layer (amber gc does)",
                    foreign.join(", ")
                ),
            });
        }
    }
    let mut live = session_blobs(tx)?;
    if let Some(keep) = keep {
        live.extend(keep(tx)?);
    }
    let cutoff = to_i64(put_before_ms);
    let mut found: Vec<(Digest, u64, bool)> = Vec::new();
    {
        let mut consider = |hash: Vec<u8>, len: i64, last_put: i64| {
            if let Ok(hash) = <[u8; 32]>::try_from(hash.as_slice()) {
                found.push((Digest(hash), to_u64(len), last_put < cutoff));
            }
        };
        match candidates {
            None => {
                let mut stmt = tx.prepare("SELECT sha256, length(bytes), last_put FROM blobs").map_err(err)?;
                let mut rows = stmt.query([]).map_err(err)?;
                while let Some(row) = rows.next().map_err(err)? {
                    consider(row.get(0).map_err(err)?, row.get(1).map_err(err)?, row.get(2).map_err(err)?);
                }
            }
            Some(candidates) => {
                let mut stmt =
                    tx.prepare("SELECT sha256, length(bytes), last_put FROM blobs WHERE sha256 = ?1").map_err(err)?;
                for hash in candidates {
                    let mut rows = stmt.query(params![&hash.0[..]]).map_err(err)?;
                    if let Some(row) = rows.next().map_err(err)? {
                        consider(row.get(0).map_err(err)?, row.get(1).map_err(err)?, row.get(2).map_err(err)?);
                    }
                }
            }
        }
    }
    let mut done = BlobSweep::default();
    let mut delete = tx.prepare("DELETE FROM blobs WHERE sha256 = ?1").map_err(err)?;
    for (hash, len, old) in found {
        if live.contains(&hash) {
            done.live += 1;
        } else if !old {
            done.young += 1;
        } else {
            delete.execute(params![&hash.0[..]]).map_err(err)?;
            done.removed += 1;
            done.bytes += len;
        }
    }
    Ok(done)
}

impl SessionStore {
    /// Removes every blob no session names that was put before `put_before_ms` (ms since the
    /// epoch; now minus [`BLOB_GRACE_MS`] leaves in-flight writers alone), in one transaction.
    /// Refused if the database also holds a layer's tables (which may name blobs): collect
    /// through the layer, [`SessionStore::collect_blobs_keeping`].
    pub fn collect_blobs(&self, put_before_ms: u64) -> Result<BlobSweep> {
        self.collect(put_before_ms, None)
    }

    /// [`SessionStore::collect_blobs`] for a layer above this store in the same database:
    /// `keep` names the blobs its own tables need.
    pub fn collect_blobs_keeping(&self, put_before_ms: u64, keep: KeepBlobs<'_>) -> Result<BlobSweep> {
        self.collect(put_before_ms, Some(keep))
    }

    fn collect(&self, put_before_ms: u64, keep: Option<KeepBlobs<'_>>) -> Result<BlobSweep> {
        let context = "collecting blobs";
        let tx = self.write_tx(context)?;
        let done = sweep(&tx, None, put_before_ms, keep)?;
        tx.commit().map_err(|e| DurableError::store(context, e))?;
        Ok(done)
    }

    /// Deletes a session and everything it owns; `Busy` if a live process holds it. In the
    /// same transaction, the blobs only it named go, if they were put before now minus
    /// [`BLOB_GRACE_MS`] (younger ones may be another writer's, about to be named; `amber gc`
    /// takes them later). With a layer's tables in the database, no blob goes here (see
    /// [`SessionStore::delete_keeping`]).
    pub fn delete(&self, name: &str) -> Result<BlobSweep> {
        self.delete_with(name, super::now_ms().saturating_sub(BLOB_GRACE_MS), None)
    }

    /// [`SessionStore::delete`] with the cutoff given, for a layer above this store: `keep`
    /// names the blobs its tables need.
    pub fn delete_keeping(&self, name: &str, put_before_ms: u64, keep: KeepBlobs<'_>) -> Result<BlobSweep> {
        self.delete_with(name, put_before_ms, Some(keep))
    }

    fn delete_with(&self, name: &str, put_before_ms: u64, keep: Option<KeepBlobs<'_>>) -> Result<BlobSweep> {
        let context = format!("deleting session {name:?}");
        let err = |e| DurableError::store(context.clone(), e);
        let tx = self.write_tx(&context)?;
        require_session(&tx, name)?;
        if let Some(owner) = lease::live_owner(&tx, name).map_err(err)? {
            return Err(DurableError::Busy { session: name.to_string(), owner_pid: Some(owner) });
        }
        let forks = lineage::children(&tx, name).map_err(err)?;
        if !forks.is_empty() {
            return Err(DurableError::InvalidValue {
                what: format!("session {name:?}"),
                detail: format!(
                    "it cannot be deleted while sessions forked from it share its history: {}",
                    forks.join(", ")
                ),
            });
        }
        // A journal or image too broken to read still lets its session go: its blobs then stay
        // for `amber gc`, whose mark no longer sees the deleted rows.
        let named = own_blobs(&tx, name).unwrap_or_default();
        for table in ["locks", "journal", "heads", "locations", "output", "images", "sources", "forks", "sessions"] {
            let column = if table == "sessions" { "name" } else { "session" };
            tx.execute(&format!("DELETE FROM {table} WHERE {column} = ?1"), params![name]).map_err(err)?;
        }
        let done = if named.is_empty() || (keep.is_none() && !foreign_tables(&tx)?.is_empty()) {
            BlobSweep::default()
        } else {
            match sweep(&tx, Some(&named), put_before_ms, keep) {
                Ok(done) => done,
                // Another session's rows cannot be read, so what they name is unknown: the
                // deletion stands, its blobs stay (nothing was removed before the mark failed).
                Err(DurableError::Corrupt { .. }) => BlobSweep::default(),
                Err(e) => return Err(e),
            }
        };
        tx.commit().map_err(err)?;
        Ok(done)
    }
}

#[cfg(test)]
mod tests;
